//! English: every message of the catalogue.

use super::{Detail, Doing, Msg, Order, Say, Troops, Ui};
use crate::picture::Bearing;
use crate::repl::chronicle::Alert;
use crate::repl::render::capitalize;
use crate::scene::{Compass, MoraleState};
use crate::sim::morale::Modifier;
use crate::story::clock;

pub(super) fn ui(phrase: Ui) -> &'static str {
    match phrase {
        Ui::Turn => "Turn",
        Ui::TurnSuffix => "",
        Ui::Choose => "Choose",
        Ui::Ending => "Ending: ",
        Ui::AfterAction => "After action",
        Ui::History => "What the novel tells",
        Ui::HistoryRecords => "History",
        Ui::NotKnown => "What you did not know",
        Ui::NoneSeen => "nothing seen of them yet",
        Ui::YouAre => "You are",
        Ui::YourChoice => "You chose",
        Ui::Novel => "the novel's choice",
        Ui::HistoryChoice => "as in history",
        Ui::Men => "men",
        Ui::NoWhy => "Nothing moved your units' morale last turn.",
        Ui::NoLog => "Nothing has been decided yet.",
        Ui::Seed => "seed",
        Ui::UnknownNumber => "an unknown number of",
        Ui::Nobody => "nobody",
        Ui::You => "you",
        Ui::ListSep => ", ",
        Ui::ClauseSep => ", ",
        Ui::ItemSep => "; ",
        Ui::Colon => ": ",
        Ui::OrdersInForce => "Orders in force",
        Ui::RunningDeaf => "running, deaf to orders",
        Ui::OnTheirWay => "On their way",
        Ui::NorthUp => "north ↑",
        Ui::Legend => {
            "Legend: ★ you  ▲ camp  · road  ≈ ford  = bridge  (fire, smoke)  │ a road between  ? unseen  (seen 16:30): last seen then"
        }
        Ui::Destroyed => "destroyed",
        Ui::Fire => "fire",
        Ui::Unseen => "? unseen",
        Ui::NoOneInSight => "no one in sight",
        Ui::UnknownNumbers => "unknown numbers",
        Ui::NotInField => "You are no longer in the field: your staff gather what word comes in.",
        Ui::YourSide => " · your side",
        Ui::ThickSmoke => "thick smoke",
        Ui::ThinSmoke => "thin smoke",
        Ui::ClearAir => "clear",
        Ui::Unreadable => "✗ unreadable",
        Ui::LabelGap => " ",
        Ui::SentenceGap => " ",
        Ui::LossesSep => "; ",
    }
}

pub(super) fn template(key: Detail) -> &'static str {
    match key {
        Detail::Wind => "The wind: {wind}.",
        Detail::FireStarts => "Fire takes hold at {zone}.",
        Detail::FireSpreads => "The fire spreads to {zone}.",
        Detail::FireOut => "The fire at {zone} burns out.",
        Detail::SmokeThick => "Thick smoke fills {zone}; nothing can be seen there.",
        Detail::SmokeClears => "The smoke over {zone} clears.",
        Detail::RumorLost => "{unit} hears the cry and believes all is lost.",
        Detail::RumorWon => "{unit} hears the cry and takes heart.",
        Detail::RumorDoubted => "{unit} can see for itself and pays the cry no heed.",
        Detail::Moves => "Moving from {from} to {to}: {unit}.",
        Detail::Crossed => "Through {zone}: {unit}.",
        Detail::Trampled => "In the crush at {zone}, {men} men are knocked down and trampled.",
        Detail::Clash => "Fighting at {zone}: {losses}.",
        Detail::ClashSide => "{side} lose {men}",
        Detail::Casualties => "Lost by {unit}: {men} men.",
        Detail::Wavers => "{unit} wavers.",
        Detail::Steadies => "{unit} steadies.",
        Detail::Routs => "{unit} breaks and runs!",
        Detail::Cascade => "Seeing those around it flee, {unit} breaks too!",
        Detail::Shattered => "{unit} is shattered; its men scatter beyond recall.",
        Detail::Drums => "{commander}'s drums beat at {zone}.",
        Detail::DrumsFar => "Drums beat from {zone}.",
        Detail::DrumsHeard => "{unit} hears {drums}.",
        Detail::Rallies => "{unit} rallies.",
        Detail::Surrenders => "Throwing down their arms: {unit}, {men} men.",
        Detail::Officers => "{men} officers who refuse are cut down by their own men.",
        Detail::Arrives => "Arriving at {zone}: {unit}.",
        Detail::GHeartened => "Heartened by the cry: {units}.",
        Detail::GShaken => "Shaken by the cry, believing all is lost: {units}.",
        Detail::GDoubted => "Seeing for themselves, unmoved by the cry: {units}.",
        Detail::GMoves => "Moving to {zone}: {units}.",
        Detail::GCrossed => "Through {zone}: {units}.",
        Detail::GWavers => "Wavering: {units}.",
        Detail::GSteadies => "Steady again: {units}.",
        Detail::GRouts => "Breaking and running: {units}!",
        Detail::GCascade => "Breaking as those around them flee: {units}!",
        Detail::GShattered => "Shattered beyond recall: {units}.",
        Detail::GDrumsHeard => "Hearing {drums}: {units}.",
        Detail::GRallies => "Rallied: {units}.",
        Detail::Destroyed => "{zone} is destroyed! {men} men go down with it.",
        Detail::Obscured => "Thick {name} covers {zone}; nothing can be seen there.",
        Detail::Unobscured => "The {name} over {zone} thins; it can be seen again.",
        Detail::YouKilled => "You are struck down at {zone}! Your staff carry on in your name.",
        Detail::YouWounded => "You are wounded at {zone} and carried from the fight.",
        Detail::YouCaptured => {
            "You are taken prisoner at {zone}! Your staff carry on in your name."
        }
        Detail::Killed => "{commander} is killed at {zone}!",
        Detail::Wounded => "{commander} is wounded at {zone} and carried from the fight.",
        Detail::Captured => "{commander} is taken prisoner at {zone}!",
    }
}

pub(super) fn plural_template(key: Detail) -> Option<&'static str> {
    Some(match key {
        Detail::RumorLost => "{unit} hear the cry and believe all is lost.",
        Detail::RumorWon => "{unit} hear the cry and take heart.",
        Detail::RumorDoubted => "{unit} can see for themselves and pay the cry no heed.",
        Detail::Wavers => "{unit} waver.",
        Detail::Steadies => "{unit} steady.",
        Detail::Routs => "{unit} break and run!",
        Detail::Cascade => "Seeing those around them flee, {unit} break too!",
        Detail::Shattered => "{unit} are shattered; their men scatter beyond recall.",
        Detail::DrumsHeard => "{unit} hear {drums}.",
        Detail::Rallies => "{unit} rally.",
        _ => return None,
    })
}

pub(super) fn state_name(state: MoraleState) -> &'static str {
    match state {
        MoraleState::Steady => "steady",
        MoraleState::Wavering => "wavering",
        MoraleState::Routing => "routing",
        MoraleState::Rallied => "rallied",
        MoraleState::Surrendered => "surrendered",
        MoraleState::Shattered => "shattered",
    }
}

pub(super) fn modifier_name(modifier: Modifier) -> &'static str {
    match modifier {
        Modifier::Casualties => "casualties",
        Modifier::Outnumbered => "outnumbered",
        Modifier::Contagion => "friends routing",
        Modifier::Leader => "commander present",
        Modifier::Rumor => "rumor",
        Modifier::Smoke => "smoke",
        Modifier::Trapped => "no way out",
        Modifier::Drums => "drums",
        Modifier::Recovery => "rest",
        Modifier::Orders => "orders",
        Modifier::CommanderFell => "commander fallen",
        Modifier::Withdrawal => "withdrawing under attack",
        Modifier::Event => "events",
    }
}

pub(super) fn bearing(bearing: Bearing) -> &'static str {
    match bearing {
        Bearing::Standing => "standing",
        Bearing::Moving => "on the move",
        Bearing::Fighting => "fighting",
        Bearing::Shaken => "ranks breaking",
        Bearing::Running => "running",
        Bearing::Broken => "broken up",
    }
}

pub(super) fn wind_phrase(band: u8, toward: Compass) -> String {
    let from = match toward {
        Compass::North => "south",
        Compass::South => "north",
        Compass::East => "west",
        Compass::West => "east",
    };
    match band {
        0 => "still air".to_string(),
        1 => format!("a light wind from the {from}"),
        2 => format!("a fresh wind from the {from}"),
        _ => format!("a strong wind from the {from}"),
    }
}

pub(super) fn bodies(name: &str, count: usize) -> String {
    name.replacen("a body of", &format!("{count} bodies of"), 1)
}

/// "A", "A and B", "A, B and C".
pub(super) fn and_list(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

pub(super) fn msg(message: Msg) -> String {
    match message {
        Msg::DrumsOf { yours: true, .. } => "your drums".to_string(),
        Msg::DrumsOf { commander, .. } => format!("{commander}'s drums"),
        Msg::Body { side, troops } => match troops {
            Troops::Horse => format!("a body of {side} horse"),
            Troops::Foot => format!("a body of {side} foot"),
            Troops::Troops => format!("a body of {side} troops"),
        },
        Msg::Troops { side, troops } => match troops {
            Troops::Horse => format!("{side} horse"),
            Troops::Foot => format!("{side} foot"),
            Troops::Troops => format!("{side} troops"),
        },
        Msg::Order(order) => match order {
            Order::Hold => "hold fast".to_string(),
            Order::Advance(zone) => format!("advance to {zone}"),
            Order::Attack(zone) => format!("attack at {zone}"),
            Order::Withdraw => "withdraw".to_string(),
            Order::Rally => "fall back on you".to_string(),
        },
        Msg::OrderedNow { unit, what, plural } => {
            let has = if plural { "have" } else { "has" };
            capitalize(&format!("{unit} {has} the order at once: {what}."))
        }
        Msg::OrderedRider {
            unit,
            what,
            plural,
            minute,
        } => {
            let it = if plural { "them" } else { "it" };
            format!(
                "A rider gallops off to {unit} with the order to {what}; he should reach {it} by {}.",
                clock(minute)
            )
        }
        Msg::OrderDelivered { unit } => format!("Your order reaches {unit}."),
        Msg::OrderLost { unit } => {
            format!("The rider finds {unit} in flight: the order is lost.")
        }
        Msg::Doing(doing) => match doing {
            Doing::Hold => "holding".to_string(),
            Doing::MoveTo(zone) => format!("making for {zone}"),
            Doing::Pursue => "pursuing".to_string(),
            Doing::RallyTo(commander) => format!("making for {commander}"),
        },
        Msg::DoingThereBy { doing, at } => format!("{doing}, there by about {at}"),
        Msg::OrdersLine {
            unit,
            id,
            at,
            doing,
        } => format!("  {} ({id}): at {at}, {doing}", capitalize(unit)),
        Msg::CourierLine { unit, what, minute } => {
            format!("  {unit}: {what}, due by {}", clock(minute))
        }
        Msg::TurnHeader { turn, minute, wind } => {
            format!("{} {turn} · {} · {wind}", ui(Ui::Turn), clock(minute))
        }
        Msg::TurnsHeader {
            first,
            last,
            from,
            to,
            wind,
        } => format!(
            "Turns {first}–{last} · {} to {} · {wind}",
            clock(from),
            clock(to)
        ),
        Msg::MenCell { men } => format!("{men}{}{}", crate::repl::wrap::KEEP, ui(Ui::Men)),
        Msg::Marks { marks } => format!(" ({})", marks.join(", ")),
        Msg::UnitLabel { id } => format!("({id})"),
        Msg::SeenInZone {
            name,
            men: "",
            bearing,
        } => format!("{name}, {bearing}"),
        Msg::SeenInZone { name, men, bearing } => format!("{name}, {men}, {bearing}"),
        Msg::SeenAt { line, at } => format!("{line} (seen {at})"),
        Msg::Stale { what, at } => format!("{what} (word of {at})"),
        Msg::PlaceGone { zone, at, .. } => format!("gone from {zone} (seen there {at})"),
        Msg::PlaceReported { zone } => format!("{zone} (reported)"),
        Msg::PlaceSeen { zone, at } => format!("{zone} (seen {at})"),
        Msg::PlaceReportedAt { zone, at } => format!("{zone} (reported as of {at})"),
        Msg::Whereabouts {
            here,
            blind,
            smoky,
            seen,
        } => match (blind, seen.is_empty()) {
            (true, _) if smoky => {
                format!("You are at {here}, in smoke too thick to see beyond your own men.")
            }
            (true, _) => format!("You are at {here}, and cannot see beyond your own men."),
            (false, true) => format!("You are at {here}; you can see nothing beyond it."),
            (false, false) => {
                format!("You are at {here}; from there you see {}.", and_list(seen))
            }
        },
        Msg::OwnLosses { side, lost, left } => {
            format!("  {side}: {lost} men lost, {left} still in the field")
        }
        Msg::TheirReckoning {
            side,
            men: Some(men),
        } => format!("  {side}: by your reckoning {men} still in the field"),
        Msg::TheirReckoning { side, men: None } => {
            format!("  {side}: you never saw their numbers")
        }
        Msg::RevealSide {
            side,
            brought,
            lost,
            standing,
            guess: Some(g),
        } => format!(
            "The {side} brought {brought} men to the field and lost {lost}; {standing} still stood at the end. You reckoned them at {g}."
        ),
        Msg::RevealSide {
            side,
            brought,
            lost,
            standing,
            guess: None,
        } => format!(
            "The {side} brought {brought} men to the field and lost {lost}; {standing} still stood at the end. You never saw enough of them to reckon."
        ),
        Msg::AndMore { more } => format!("and {more} more"),
        Msg::UnseenUnit { unit, men, zone } => format!("{unit} ({men} men, at {zone})"),
        Msg::NeverSeen { items } => capitalize(&format!("never seen by you: {items}.")),
        Msg::MovedUnit { unit, at, was, is } => {
            format!("{unit}: last seen at {was} ({at}), but at {is} in truth")
        }
        Msg::NotWhereThought { items } => format!("Not where you thought: {items}."),
        Msg::WrongUnit { unit, guess, truth } => {
            format!("{unit}: you put them at {guess}, they were {truth}")
        }
        Msg::ReckonedWrong { items } => format!("Reckoned wrong: {items}."),
        Msg::Claim { side, routed: true } => format!("the {side} are routed"),
        Msg::Claim {
            side,
            routed: false,
        } => format!("the {side} have won"),
        Msg::Cry {
            claim,
            believers,
            at,
            true_then,
        } => {
            let truth = if true_then { "true" } else { "false" };
            format!(
                "The cry that {claim} reached {believers} of your units at {at}: it was {truth}."
            )
        }
        Msg::WeatherLine { wind, zone, smoke } => {
            format!("{}; at {zone}: {smoke}.", capitalize(wind))
        }
        Msg::SavesIn { dir } => format!("No saves in {dir}."),
        Msg::SaveTurn { turn } => format!("turn {turn}"),
    }
}

pub(super) fn say(say: Say) -> &'static str {
    match say {
        Say::Destroyed => "{zone} is destroyed, and {men} men go down with it!",
        Say::DestroyedEmpty => "{zone} is destroyed!",
        Say::OwnRout => "{list} breaks and runs!",
        Say::OwnRoutMany => "{list} break and run!",
        Say::SeenRout => "Across the field, {list} breaks and runs.",
        Say::SeenRoutMany => "Across the field, {list} break and run.",
        Say::Shattered => "{list} is shattered beyond recall.",
        Say::ShatteredMany => "{list} are shattered beyond recall.",
        Say::Surrender => "{list} throws down its arms: {men} men.",
        Say::SurrenderMany => "{list} throw down their arms: {men} men.",
        Say::Officers => "{men} officers who refuse are cut down by their own men.",
        Say::Arrive => "{list} comes up at {zone}.",
        Say::ArriveMany => "{list} come up at {zone}.",
        Say::Fight => "Fighting at {zone}: you lose {own} men, the {enemy} {seen}.",
        Say::FightOwnOnly => "Fighting at {zone}: you lose {own} men.",
        Say::FightSeenOnly => "Fighting at {zone}: the {enemy} lose {seen} men.",
        Say::FightGoesOn => "The fighting at {zone} goes on ({losses}).",
        Say::FightHeard => "The sound of fighting comes from {zone}.",
        Say::Trampled => "In the crush at {zone}, {men} men are trampled.",
        Say::TrampledOwn => "In the crush at {zone}, {men} of your men are trampled.",
        Say::LossOwn => "You lose {men} men.",
        Say::LossSeen => "The {enemy} lose {men} men.",
        Say::Rally => "{list} rallies.",
        Say::RallyMany => "{list} rally.",
        Say::Drums => "{commander}'s drums beat at {zone}.",
        Say::DrumsYours => "Your drums beat at {zone}.",
        Say::DrumsHeardFar => "Drums beat from {zone}.",
        Say::Shaken => "{list} hears the cry and believes all is lost.",
        Say::ShakenMany => "{list} hear the cry and believe all is lost.",
        Say::Heartened => "{list} takes heart at the cry.",
        Say::HeartenedMany => "{list} take heart at the cry.",
        Say::Doubted => "Your men can see for themselves and pay the cry no heed.",
        Say::Waver => "{list} wavers.",
        Say::WaverMany => "{list} waver.",
        Say::Steady => "{list} steadies.",
        Say::SteadyMany => "{list} steady again.",
        Say::March => "{list} moves to {zone}.",
        Say::MarchMany => "{list} move to {zone}.",
        Say::Flee => "{list} flees toward {zone}.",
        Say::FleeMany => "{list} flee toward {zone}.",
        Say::Cross => "{list} comes through {ford} to {zone}.",
        Say::CrossMany => "{list} come through {ford} to {zone}.",
        Say::EnemyComes => "The {enemy} come on at {zone}.",
        Say::FireStarts => "Fire takes hold at {zone}.",
        Say::FireSpreads => "The fire spreads to {zone}.",
        Say::FireOut => "The fire at {zone} burns out.",
        Say::SmokeThick => "Thick smoke fills {zone}.",
        Say::SmokeClears => "The smoke over {zone} clears.",
        Say::WindNow => "The wind changes: {wind}.",
        Say::Others => "{n} more",
    }
}

pub(super) fn alert(alert: Alert) -> &'static str {
    match alert {
        Alert::Destroyed => "a crossing is destroyed",
        Alert::CommanderFell => "a commander of yours has fallen",
        Alert::OwnBroke => "your men are breaking",
        Alert::Attacked => "your men are under attack",
        Alert::EnemySighted => "the enemy is in sight",
        Alert::Arrived => "your men have arrived",
        Alert::Story => "something has happened",
    }
}
