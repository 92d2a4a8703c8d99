//! English: every message of the catalogue.

use super::{
    Action, Alert, Detail, Doing, MapKey, MenuMsg, Msg, Order, OrderHelp, OrderMsg, PromptMsg,
    Reload, RevealMsg, Say, SessionMsg, Troops, Ui, ViewMsg,
};
use crate::picture::Bearing;
use crate::repl::wrap::capitalize;
use crate::scene::{Compass, MoraleState};
use crate::sim::morale::Modifier;
use crate::story::StoryError;
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
        Ui::WhyToldOnly => "known only from what you were told; what moved it, nobody can say",
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
        Ui::UnitDestroyed => "destroyed: not a man left",
        Ui::StuckCourier => "its new order is on its way",
        Ui::StuckCrowd => "held up in the crowd at the crossing",
        Ui::StuckDark => "feeling its way across in the dark",
        Ui::StuckDepth => "wading slowly through deep water",
        Ui::StuckBoats => "waiting for the boats to carry it over",
        Ui::StuckHeld => "held by the enemy in its way",
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
        Ui::DatePlaceSep => " · ",
        Ui::FirstHint => {
            "(Enter lets a turn pass; `wait` until something needs you; `order UNIT advance C` moves a unit, the letters are on the `map`; `help` lists the rest.)"
        }
        Ui::Cancelled => "(Cancelled. Press Ctrl-C again to leave; the game is autosaved.)",
        Ui::NotText => "That line is not text (not UTF-8); it was ignored.",
        Ui::OrderUsage => "Usage: order UNIT hold | advance ZONE | attack ZONE | withdraw | rally",
        Ui::OrdersChanged => "This choice changed your orders:",
        Ui::NextTakesNumber => "`next` takes a number of turns, e.g. `next 5` (1 to 1000).",
        Ui::NothingToReport => "Nothing to report from the last turn.",
        Ui::NoSceneFolder => {
            "There is no scene folder to read again: start the game with `--scenes DIR`."
        }
        Ui::NothingToRedo => "Nothing to redo: `redo` gives back only what `undo` just took back.",
        Ui::GivenBack => "Given back.",
        Ui::SoFar => "So far:",
        Ui::ChooseBattle => "Choose a battle",
        Ui::ChooseCommander => "Choose your commander",
        Ui::GoOnWith => "Go on with a game you left?",
        Ui::NewGame => "A new game",
        Ui::ChooseGame => "Choose",
        Ui::WelcomeTitle => "xiaoling 小凌河",
        Ui::WelcomeWhat => {
            "Battles of the last Ming wars, played in words: you are one side's commander; you decide at the turning points and send your units orders between them, and smoke, rumor, crowded fords and morale play out what you chose."
        }
        Ui::CardSep => " · ",
        Ui::Against => " against ",
        Ui::Or => " or ",
        Ui::LegendGap => "  ",
        Ui::HelpHead => {
            "Type a number to choose an option; Enter lets a turn pass. Commands (`help COMMAND` says more):"
        }
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
        Detail::Drowned => {
            "In the press for the boats at {zone}, {men} men go into the water and drown."
        }
        Detail::Burned => "The fire at {zone} kills {men} men.",
        Detail::Clash => "Fighting at {zone}: {losses}.",
        Detail::ClashSide => "{side} lose {men} men",
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
        Detail::KilledHeard => "Word comes from {zone}: {commander} has been killed.",
        Detail::WoundedHeard => {
            "Word comes from {zone}: {commander} has been wounded and carried from the fight."
        }
        Detail::CapturedHeard => "Word comes from {zone}: {commander} has been taken prisoner.",
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
        Modifier::Leader => "a general with them",
        Modifier::Rumor => "rumor",
        Modifier::Smoke => "smoke",
        Modifier::Trapped => "no way out",
        Modifier::Drums => "drums",
        Modifier::Recovery => "rest",
        Modifier::Orders => "orders",
        Modifier::CommanderFell => "commander fallen",
        Modifier::Withdrawal => "withdrawing under attack",
        Modifier::Charged => "charged by horse",
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

/// A point of the compass by its name.
pub(super) fn point(p: Compass) -> &'static str {
    match p {
        Compass::North => "north",
        Compass::South => "south",
        Compass::East => "east",
        Compass::West => "west",
        Compass::NorthEast => "north-east",
        Compass::SouthEast => "south-east",
        Compass::SouthWest => "south-west",
        Compass::NorthWest => "north-west",
    }
}

pub(super) fn wind_phrase(band: u8, toward: Compass) -> String {
    let from = point(toward.opposite());
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
        Msg::Order(message) => order(message),
        Msg::View(message) => view(message),
        Msg::Reveal(message) => reveal(message),
        Msg::Prompt(message) => prompt(message),
        Msg::Session(message) => session(message),
        Msg::Menu(message) => menu(message),
    }
}

fn order(message: OrderMsg) -> String {
    match message {
        OrderMsg::Order(order) => match order {
            Order::Hold => "hold fast".to_string(),
            Order::Advance(zone) => format!("advance to {zone}"),
            Order::Attack(zone) => format!("attack at {zone}"),
            Order::Withdraw => "withdraw".to_string(),
            Order::Rally => "fall back on you".to_string(),
        },
        OrderMsg::OrderedNow { unit, what, plural } => {
            let has = if plural { "have" } else { "has" };
            capitalize(&format!("{unit} {has} the order at once: {what}."))
        }
        OrderMsg::OrderedRider {
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
        OrderMsg::OrderDelivered { unit } => format!("Your order reaches {unit}."),
        OrderMsg::OrderLost { unit } => {
            format!("The rider finds {unit} in flight: the order is lost.")
        }
        OrderMsg::Doing(doing) => match doing {
            Doing::Hold => "holding".to_string(),
            Doing::MoveTo(zone) => format!("making for {zone}"),
            Doing::Pursue => "pursuing".to_string(),
            Doing::RallyTo(commander) => format!("making for {commander}"),
        },
        OrderMsg::DoingThereBy { doing, at } => format!("{doing}, there by about {at}"),
        OrderMsg::OrdersLine {
            unit,
            id,
            at,
            doing,
        } => format!("  {} ({id}): at {at}, {doing}", capitalize(unit)),
        OrderMsg::CourierLine { unit, what, minute } => {
            format!("  {unit}: {what}, due by {}", clock(minute))
        }
        OrderMsg::ChangedOrder { unit, was, now } => format!("  {unit}: now {now} (was {was})"),
        OrderMsg::CalledBack { unit, what } => {
            format!("  the order on its way to {unit} ({what}) is called back")
        }
    }
}

fn view(message: ViewMsg) -> String {
    match message {
        ViewMsg::DrumsOf { yours: true, .. } => "your drums".to_string(),
        ViewMsg::DrumsOf { commander, .. } => format!("{commander}'s drums"),
        ViewMsg::Body { side, troops } => match troops {
            Troops::Horse => format!("a body of {side} horse"),
            Troops::Foot => format!("a body of {side} foot"),
            Troops::Troops => format!("a body of {side} troops"),
        },
        ViewMsg::Troops { side, troops } => match troops {
            Troops::Horse => format!("{side} horse"),
            Troops::Foot => format!("{side} foot"),
            Troops::Troops => format!("{side} troops"),
        },
        ViewMsg::TurnHeader { turn, minute, wind } => {
            format!("{} {turn} · {} · {wind}", ui(Ui::Turn), clock(minute))
        }
        ViewMsg::TurnsHeader {
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
        ViewMsg::MenCell { men } => format!("{men}{}{}", crate::repl::wrap::KEEP, ui(Ui::Men)),
        ViewMsg::Marks { marks } => format!(" ({})", marks.join(", ")),
        ViewMsg::UnitLabel { id } => format!("({id})"),
        ViewMsg::SeenInZone {
            name,
            men: "",
            bearing,
        } => format!("{name}, {bearing}"),
        ViewMsg::SeenInZone { name, men, bearing } => format!("{name}, {men}, {bearing}"),
        ViewMsg::SeenAt {
            line,
            at,
            reported: false,
        } => format!("{line} (seen {at})"),
        ViewMsg::SeenAt {
            line,
            at,
            reported: true,
        } => format!("{line} (reported {at})"),
        ViewMsg::Stale { what, at } => format!("{what} (word of {at})"),
        ViewMsg::PlaceGone { zone, at, .. } => format!("gone from {zone} (seen there {at})"),
        ViewMsg::PlaceReported { zone, at } => format!("{zone} (reported {at})"),
        ViewMsg::PlaceSeen { zone, at } => format!("{zone} (seen {at})"),
        ViewMsg::Whereabouts {
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
        ViewMsg::AndMore { more } => format!("and {more} more"),
        ViewMsg::WeatherLine { wind, zone, smoke } => {
            format!("{}; at {zone}: {smoke}.", capitalize(wind))
        }
        ViewMsg::SavesIn { dir } => format!("No saves in {dir}."),
        ViewMsg::SaveTurn { turn } => format!("turn {turn}"),
    }
}

fn reveal(message: RevealMsg) -> String {
    match message {
        RevealMsg::OwnLosses { side, lost, left } => {
            // A side named with its article ("the allies") heads its line capitalised.
            format!(
                "  {}: {lost} men lost, {left} still in the field",
                capitalize(side)
            )
        }
        RevealMsg::TheirReckoning {
            side,
            men: Some(men),
        } => format!(
            "  {}: by your reckoning {men} still in the field",
            capitalize(side)
        ),
        RevealMsg::TheirReckoning { side, men: None } => {
            format!("  {}: you never saw their numbers", capitalize(side))
        }
        RevealMsg::RevealSide {
            side,
            brought,
            lost,
            standing,
            guess: Some(g),
        } => capitalize(&format!(
            "{side} brought {brought} men to the field and lost {lost}; {standing} still stood at the end. You reckoned them at {g}."
        )),
        RevealMsg::RevealSide {
            side,
            brought,
            lost,
            standing,
            guess: None,
        } => capitalize(&format!(
            "{side} brought {brought} men to the field and lost {lost}; {standing} still stood at the end. You never saw enough of them to reckon."
        )),
        RevealMsg::UnseenUnit { unit, men, zone } => format!("{unit} ({men} men, at {zone})"),
        RevealMsg::NeverSeen { items } => capitalize(&format!("never seen by you: {items}.")),
        RevealMsg::MovedUnit { unit, at, was, is } => {
            format!("{unit}: last seen at {was} ({at}), but at {is} in truth")
        }
        RevealMsg::NotWhereThought { items } => format!("Not where you thought: {items}."),
        RevealMsg::WrongUnit { unit, guess, truth } => {
            format!("{unit}: you put them at {guess}, they were {truth}")
        }
        RevealMsg::ReckonedWrong { items } => format!("Reckoned wrong: {items}."),
        RevealMsg::Claim { side, routed: true } => format!("{side} are routed"),
        RevealMsg::Claim {
            side,
            routed: false,
        } => format!("{side} have won"),
        RevealMsg::Cry {
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
        RevealMsg::CryHeard {
            words,
            believers,
            at,
            true_then,
        } => {
            let truth = if true_then { "true" } else { "false" };
            format!("The cry “{words}” reached {believers} of your units at {at}: it was {truth}.")
        }
    }
}

fn prompt(message: PromptMsg) -> String {
    match message {
        PromptMsg::NotFound {
            words,
            near,
            zone: false,
        } => match near {
            Some(near) => format!(
                "No unit of yours is called `{words}`. Did you mean `{near}`? (`orders` lists your units, each with the label to type.)"
            ),
            None => format!(
                "No unit of yours is called `{words}`. (`orders` lists your units, each with the label to type.)"
            ),
        },
        PromptMsg::NotFound {
            words,
            near,
            zone: true,
        } => match near {
            Some(near) => format!(
                "No place is called `{words}`. Did you mean `{near}`? (`map` shows each place with its letter: `order UNIT advance C`.)"
            ),
            None => format!(
                "No place is called `{words}`. (`map` shows each place with its letter: `order UNIT advance C`.)"
            ),
        },
        PromptMsg::Several {
            words,
            several,
            zone,
        } => {
            let list = super::or_list(several, ("`", "`"), ", ", " or ");
            let how = if zone {
                "(`map` shows each place with its letter: `order UNIT advance C`.)"
            } else {
                "(`orders` lists your units, each with the label to type.)"
            };
            format!("`{words}` could be {list}: type more of the name. {how}")
        }
        PromptMsg::NotAnOrder { word, near, usage } => {
            format!("`{word}` is not an order. Did you mean `{near}`? {usage}")
        }
        PromptMsg::StdinBroken { why } => format!("Cannot read standard input: {why}."),
        PromptMsg::TooLong { size, max } => {
            format!("That line is {size} long; commands are at most {max}. It was ignored.")
        }
        PromptMsg::ChooseOption { count } => {
            format!("Choose an option, 1 to {count} (`look` shows the situation again).")
        }
        PromptMsg::TooLarge {
            number,
            max: Some(max),
        } => format!("{number} is far too large: choose 1 to {max}."),
        PromptMsg::TooLarge { number, max: None } => {
            format!("{number} is far too large, and there is nothing to choose now.")
        }
        PromptMsg::SlotOneWord {
            command,
            extra,
            max,
        } => format!(
            "Nothing was done: a slot name is one word, of letters (Chinese too), digits, `-` and `_`, at most {max} characters (`{command} my-slot`), and `{extra}` is one word too many."
        ),
        PromptMsg::ExtraWords {
            command,
            usage,
            extra,
        } => {
            format!("`{command}` does not take `{extra}`: the form is `{usage}`. Nothing was done.")
        }
        PromptMsg::OrderNamesUnit { example } => format!(
            "An order names the unit it is for: `{example}`, with a unit's id or name (`status` lists yours)."
        ),
        PromptMsg::UnknownCommand {
            word,
            suggestion: Some(s),
        } => format!("Unknown command `{word}`. Did you mean `{s}`? Type `help` for the list."),
        PromptMsg::UnknownCommand {
            word,
            suggestion: None,
        } => format!("Unknown command `{word}`. Type `help` for the list."),
        PromptMsg::NoHelp { topic } => format!(
            "There is no help on `{topic}`. Try `help order`, `help hold`, `help advance`, `help attack`, `help withdraw`, `help rally`, or any command (`help` lists them)."
        ),
        PromptMsg::MapTakesList { word } => {
            format!("`map` takes only `list` (the places one by one), not `{word}`.")
        }
        PromptMsg::SourcesTakes { word } => format!("`sources` takes `on` or `off`, not `{word}`."),
        PromptMsg::UnknownLanguage { tag, tags } => {
            format!("Unknown language `{tag}`: use one of {}.", tags.join(", "))
        }
    }
}

fn session(message: SessionMsg) -> String {
    match message {
        SessionMsg::RoleLine { role, seed } => {
            format!("{} {role} · {} {seed}", ui(Ui::YouAre), ui(Ui::Seed))
        }
        SessionMsg::CryNearby { cry } => format!("A cry goes up nearby: “{cry}”"),
        SessionMsg::Left { slot, saves, over } => {
            let again = match saves {
                Some(dir) => format!("xiaoling play --load {slot} --saves {dir}"),
                None => format!("xiaoling play --load {slot}"),
            };
            // The command on a line of its own, whole, to copy.
            if over {
                format!("The finished battle is saved in slot `{slot}`. To see it again:\n  {again}")
            } else {
                format!("The game is saved in slot `{slot}`. To go on from here:\n  {again}")
            }
        }
        SessionMsg::LeaveFailed { err } => format!("The game could not be saved on leaving: {err}"),
        SessionMsg::Fatal { err } => format!("error: {err}"),
        SessionMsg::NoSuchBattle {
            id,
            near,
            list,
            example,
        } => {
            let near = near.map(|g| format!("did you mean `{g}`? ")).unwrap_or_default();
            let hint = if example {
                format!(
                    "\nhint: `{id}` is an example in scenes/examples: add `--scenes scenes/examples` before the command"
                )
            } else {
                String::new()
            };
            format!("no battle `{id}`; {near}battles: {list}{hint}")
        }
        SessionMsg::NoSuchRole {
            role,
            battle,
            near,
            list,
        } => {
            let near = near.map(|g| format!("did you mean `{g}`? ")).unwrap_or_default();
            format!("no role `{role}` in `{battle}`; {near}roles: {list}")
        }
        SessionMsg::FolderBusy { folder } => format!(
            "another xiaoling game is playing with its saves in {folder}: finish that one first, or give this one a folder of its own (--saves DIR)"
        ),
        SessionMsg::Stopped { reason } => format!("(Stopped: {reason}.)"),
        SessionMsg::StoppedLosses {
            men,
            percent,
            turns,
        } => {
            let when = match turns {
                0 | 1 => "this turn".to_string(),
                n => format!("in these {n} turns"),
            };
            format!("(Stopped: you lost {men} men {when}, {percent} % of your army.)")
        }
        SessionMsg::SourcesShown { on: true } => "An option the novel or history took now says so before you choose: \"the novel's choice\", \"as in history\". `sources off` hides it again.".to_string(),
        SessionMsg::SourcesShown { on: false } => "The options do not say which one the novel or history took; `sources on` shows it before you choose.".to_string(),
        SessionMsg::ResumeItem {
            title,
            who,
            turn,
            when,
            slot,
        } => format!("{title}, as {who}: turn {turn} (saved {when} UTC in {slot})"),
        SessionMsg::Saved { slot, path } => format!("Saved to slot `{slot}` ({path})."),
        SessionMsg::Loaded { slot } => format!("Loaded slot `{slot}`."),
        SessionMsg::SceneProblems { count } => {
            format!("{count} problem(s) in the scene files: the game goes on as it was.")
        }
        SessionMsg::NoBattleIn { id, folder } => {
            format!("No battle `{id}` in {folder}: the game goes on as it was.")
        }
        SessionMsg::CannotOpen { err } => {
            format!("The new version cannot open this game ({err}): the game goes on as it was.")
        }
        SessionMsg::Reloaded { id, how } => match how {
            Reload::Failed { command, why } => format!(
                "Reloaded `{id}`. Command {command} could not run on the new version ({why}): the game goes on from just before it."
            ),
            Reload::PartsAt { turn } => format!(
                "Reloaded `{id}`. The new version parts from this game at turn {turn}: from there on, the battle is the new one's."
            ),
            Reload::Same => format!(
                "Reloaded `{id}`. The new version plays this game the same way; new texts are told from now on."
            ),
            Reload::Differs { describe } => format!(
                "Reloaded `{id}`. The new version ends this game's commands in another state: {describe}"
            ),
        },
        SessionMsg::TakenBack { steps: 1 } => "Taken back (`redo` gives it back).".to_string(),
        SessionMsg::TakenBack { steps } => {
            format!("Taken back: the last command, {steps} steps (`redo` gives it back).")
        }
        SessionMsg::Staff { commander } => format!("{commander}'s staff"),
        SessionMsg::ChoiceSource { source } => format!(" ({source})"),
        SessionMsg::LogTurn { turn: Some(t) } => format!("Turn {t}"),
        SessionMsg::LogTurn { turn: None } => "Turn ?".to_string(),
        SessionMsg::RecapLine {
            role,
            side,
            turn,
            time,
            seed,
        } => format!(
            "{} {role} ({side}) · turn {turn} · {time} · {} {seed}",
            ui(Ui::YouAre),
            ui(Ui::Seed)
        ),
        SessionMsg::AutosaveFailed { err } => format!(
            "(Autosave failed; the game goes on. You are told again only if autosaving works and then fails again: {err})"
        ),
        SessionMsg::OtherSave {
            slot,
            turn,
            when,
            more,
            in_game,
            saves,
        } => {
            let others = if more { " (`saves` lists the others)" } else { "" };
            let head = format!(
                "Another save of this game loads: `{slot}`, turn {turn} (saved {when} UTC){others}. To go on from it:"
            );
            go_on_from(&head, slot, in_game, saves, None)
        }
        SessionMsg::SavesHere {
            slot,
            turn,
            when,
            next,
            more,
            in_game,
            saves,
        } => {
            let next: String = next.iter().map(|name| format!(", `{name}`")).collect();
            let others = if more { " (`saves` lists the others)" } else { "" };
            let head = format!(
                "Which game it was of cannot be read. Saves in this folder that load, newest first: `{slot}`, turn {turn} (saved {when} UTC){next}{others}. To go on from the newest:"
            );
            go_on_from(&head, slot, in_game, saves, None)
        }
    }
}

/// `head`, then the command that goes on from `slot`: `load` at the
/// prompt, or the command line (with the folder `saves` when one was
/// named).
/// `head`, then the command that goes on from `slot`: `load` at the
/// prompt, else `play --load` in the language played (`lang`: none for
/// English, the default) and the folder named.
pub(super) fn go_on_from(
    head: &str,
    slot: &str,
    in_game: bool,
    saves: Option<&str>,
    lang: Option<&str>,
) -> String {
    let lang = lang.map(|tag| format!(" --lang {tag}")).unwrap_or_default();
    match (in_game, saves) {
        (true, _) => format!("{head}\n  load {slot}"),
        (false, Some(dir)) => format!("{head}\n  xiaoling play --load {slot}{lang} --saves {dir}"),
        (false, None) => format!("{head}\n  xiaoling play --load {slot}{lang}"),
    }
}

fn menu(message: MenuMsg) -> String {
    match message {
        MenuMsg::RoleItem { name, id, side } => format!("{name} ({id}), {side}"),
        MenuMsg::RoleWithSide { name, side } => format!("{name} ({side})"),
        MenuMsg::BattleLength {
            max_turns,
            turn_minutes,
        } => {
            let minutes = max_turns.saturating_mul(turn_minutes);
            let hours = minutes / 60;
            let span = if hours >= 48 {
                format!("{} days", hours.div_ceil(24))
            } else if hours >= 1 {
                format!("{hours} hours")
            } else {
                format!("{minutes} minutes")
            };
            format!("up to {max_turns} turns of {turn_minutes} minutes ({span})")
        }
        MenuMsg::CardWhen { date, place } => format!("{date}{}{place}", ui(Ui::CardSep)),
        MenuMsg::CardWho {
            sides,
            roles,
            length,
        } => {
            let sep = ui(Ui::CardSep);
            format!(
                "{}{sep}play {}{sep}{length}",
                sides.join(ui(Ui::Against)),
                roles.join(ui(Ui::Or))
            )
        }
        MenuMsg::PickHelp { n, asked: true } => format!(
            "Type a number from 1 to {n}, or the id or name shown; `quit` (or Ctrl-C) leaves."
        ),
        MenuMsg::PickHelp { n, asked: false } => {
            format!("Type a number from 1 to {n}, or the id or name shown (`help`, `quit`).")
        }
    }
}

pub(super) fn story_error(err: &StoryError) -> String {
    match err {
        StoryError::ChoicePending => "A choice is waiting: pick an option by its number.".into(),
        StoryError::NothingToChoose => {
            "There is nothing to choose now. Press Enter or type `next` to let a turn pass.".into()
        }
        StoryError::NoSuchOption(n, max) => format!("There is no option {n}; choose 1 to {max}."),
        StoryError::NoOptionNamed(id) => format!("The choice has no option `{id}`."),
        StoryError::Ended => "The battle is over. You can `undo`, `load` or `quit`.".into(),
        StoryError::NoSuchRole(role, roles) => {
            format!("No such role `{role}`; playable roles: {roles}.")
        }
        StoryError::UndoForbidden => "Undo is not allowed in this battle (ironman).".into(),
        StoryError::NothingToUndo => "Nothing to undo: this is the start of the battle.".into(),
        StoryError::NoOrders(commander) => capitalize(&format!(
            "{commander} gives no orders in this battle: he decides only at the turning points."
        )),
        StoryError::NoSuchUnit(unit) => format!("No unit of yours is called `{unit}`."),
        StoryError::NoSuchZone(zone) => format!("There is no place called `{zone}` on this field."),
        StoryError::NotOnField => "That unit is not on the field.".into(),
        StoryError::WillNotListen => {
            "That unit is running and will not listen until it is rallied.".into()
        }
        StoryError::NoRoad => "No road leads from you to that unit: no rider can reach it.".into(),
        StoryError::TooManyOrders(n) => format!(
            "You have given {n} orders, as many as a saved game can hold: no more orders this battle, but the turns and choices go on (`next`)."
        ),
        // A fault of the engine, told as the library tells it.
        StoryError::Stuck { .. } => capitalize(&format!("{err}.")),
    }
}

pub(super) fn order_refused(unit: &str, err: &StoryError) -> Option<String> {
    Some(match err {
        StoryError::WillNotListen => format!(
            "{unit} is running and will not listen to any order until it is rallied: running men rally to drums they can hear (a commander with drums close by), or once they are out of the fight and get their breath back. Meanwhile, order the units that stand (`orders`; `help rally`)."
        ),
        StoryError::NoRoad => format!(
            "No road a rider can take leads from you to {unit} (the way is cut or held by the enemy): the order cannot be sent. Try again when the way is open, or order the units you can reach (`orders`)."
        ),
        StoryError::NotOnField => format!(
            "{unit} is no longer on the field (broken up, taken or gone): it takes no more orders."
        ),
        _ => return None,
    })
}

pub(super) fn say(say: Say) -> &'static str {
    match say {
        Say::Destroyed => "{zone} is destroyed, and {men} men go down with it!",
        Say::DestroyedOwn => {
            "{zone} is destroyed, and {men} men go down with it, {own} of them yours!"
        }
        Say::DestroyedAllOwn => "{zone} is destroyed, and {own} of your men go down with it!",
        Say::DestroyedEmpty => "{zone} is destroyed!",
        Say::OwnRout => "{list} breaks and runs!",
        Say::OwnRoutMany => "{list} break and run!",
        Say::SeenRout => "Across the field, {list} breaks and runs.",
        Say::SeenRoutMany => "Across the field, {list} break and run.",
        Say::Shattered => "{list} is shattered beyond recall.",
        Say::ShatteredMany => "{list} are shattered beyond recall.",
        Say::UnitDestroyed => "{list} is destroyed: not a man is left.",
        Say::UnitDestroyedMany => "{list} are destroyed: not a man is left.",
        Say::Surrender => "{list} throws down its arms: {men} men.",
        Say::SurrenderMany => "{list} throw down their arms: {men} men.",
        Say::Officers => "{men} officers who refuse are cut down by their own men.",
        Say::Arrive => "{list} comes up at {zone}.",
        Say::ArriveMany => "{list} come up at {zone}.",
        Say::Fight => "Fighting at {zone}: you lose {own} men, {enemy} {seen}.",
        Say::FightOwnOnly => "Fighting at {zone}: you lose {own} men.",
        Say::FightSeenOnly => "Fighting at {zone}: {enemy} lose {seen} men.",
        Say::FightGoesOn => "The fighting at {zone} goes on ({losses}).",
        Say::FightHeard => "The sound of fighting comes from {zone}.",
        Say::Trampled => "In the crush at {zone}, {men} men are trampled.",
        Say::TrampledOwn => "In the crush at {zone}, {men} of your men are trampled.",
        Say::TrampledBoth => "In the crush at {zone}, {men} men are trampled, {own} of them yours.",
        Say::Drowned => "In the press for the boats at {zone}, {men} men drown.",
        Say::DrownedOwn => "In the press for the boats at {zone}, {men} of your men drown.",
        Say::DrownedBoth => {
            "In the press for the boats at {zone}, {men} men drown, {own} of them yours."
        }
        Say::Burned => "The fire at {zone} kills {men} men.",
        Say::BurnedOwn => "The fire at {zone} kills {men} of your men.",
        Say::BurnedBoth => "The fire at {zone} kills {men} men, {own} of them yours.",
        Say::LossOwn => "You lose {men} men.",
        Say::LossSeen => "{enemy} lose {men} men.",
        Say::Rally => "{list} rallies.",
        Say::RallyMany => "{list} rally.",
        Say::RoutRallied => "{list} breaks and runs, but rallies.",
        Say::RoutRalliedMany => "{list} break and run, but rally.",
        Say::News => "Word at last from {list}, none since {since}: at {zone}, {men} men, {state}.",
        Say::NewsMany => {
            "Word at last from {zone}, none since {since}: {list}, {men} men, {state}."
        }
        Say::NewsLost => {
            "Word at last from {list}, none since {since}: at {zone}, {men} men, {state}; {lost} lost since."
        }
        Say::NewsLostMany => {
            "Word at last from {zone}, none since {since}: {list}, {men} men, {state}; {lost} lost since."
        }
        Say::Rider => "A rider from {list}, sent at {since}: at {zone}, {men} men, {state}.",
        Say::RiderMany => "Riders from {zone}, sent at {since}: {list}, {men} men, {state}.",
        Say::RiderLost => {
            "A rider from {list}, sent at {since}: at {zone}, {men} men, {state}; {lost} lost."
        }
        Say::RiderLostMany => {
            "Riders from {zone}, sent at {since}: {list}, {men} men, {state}; {lost} lost."
        }
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
        Say::MarchFight => "{list} moves up to {zone} and into the fighting there: {losses}.",
        Say::MarchFightMany => "{list} move up to {zone} and into the fighting there: {losses}.",
        Say::CrossFight => {
            "{list} comes through {ford} to {zone} and into the fighting there: {losses}."
        }
        Say::CrossFightMany => {
            "{list} come through {ford} to {zone} and into the fighting there: {losses}."
        }
        Say::EnemyComes => "{enemy} come on at {zone}.",
        Say::EnemyAppears => "{enemy} come into sight at {zone}: {men} men, by the look of them.",
        Say::EnemyAppearsAgain => {
            "{enemy} come out at {zone} again: {men} men, by the look of them."
        }
        Say::FireStarts => "Fire takes hold at {zone}.",
        Say::FireSpreads => "The fire spreads to {zone}.",
        Say::FireOut => "The fire at {zone} burns out.",
        Say::SmokeThick => "Thick smoke fills {zone}.",
        Say::SmokeClears => "The smoke over {zone} clears.",
        Say::WindNow => "The wind changes: {wind}.",
        Say::WindVeers => "The wind veers round: it blows from the {from} now.",
        Say::WindBacks => "The wind backs round: it blows from the {from} now.",
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

pub(super) fn command_help(action: Action) -> &'static str {
    match action {
        Action::Look => "the situation now, and the choice if one is waiting",
        Action::Status => {
            "your units (men, state, morale, or their last word) and the enemy as you know him"
        }
        Action::Map => {
            "the field drawn: roads, rivers, smoke, fire, your men and the enemy as you know him; `map list` lists it"
        }
        Action::Next => {
            "let a turn pass (so does Enter), or N turns, stopping early if something needs you"
        }
        Action::Wait => {
            "let turns pass until something needs you: a choice, word from the field, your men attacked or breaking, the enemy in sight"
        }
        Action::Order => {
            "send an order to a unit of yours (by its id or name); a courier carries it unless you stand with it"
        }
        Action::Orders => "what each of your units is doing, and the orders still on their way",
        Action::Report => "the last turn in full: every unit that moved, fought, wavered",
        Action::Log => "the choices and events so far",
        Action::Why => "what moved your units' morale last turn",
        Action::Save => "save the game (default slot: quick)",
        Action::Load => "load a saved game",
        Action::Saves => "list saved games",
        Action::Reload => {
            "for scene authors: read the battle's file again and replay this game's commands on it"
        }
        Action::Undo => {
            "take back the last command (a turn, `next 5` or `wait` whole, a choice, an order)"
        }
        Action::Redo => "give back what `undo` took back",
        Action::Sources => {
            "whether each option says which one the novel or history took, before you choose (off at first; kept with the game)"
        }
        Action::Lang => "show or change the language",
        Action::Help => "this list; `help order`, `help rally`, `help map`… say more",
        Action::Quit => "leave the game (it is autosaved)",
    }
}

pub(super) fn order_help(key: OrderHelp) -> &'static str {
    match key {
        OrderHelp::Intro => {
            "`order UNIT VERB [PLACE]` sends an order to a unit of yours. UNIT is the unit's label (shown after its name in `orders` and on the map) or its name, in any language; PLACE is the letter the map prints (A, B, …), its id or its name. Units where your commander stands obey at once; the others when a courier reaches them, which takes turns (longer through thick smoke, a turn more for a wavering unit); a unit that breaks before the courier arrives never gets the order. `orders` shows each unit's order, the orders on their way and when they arrive. The orders:"
        }
        OrderHelp::Hold => {
            "`order UNIT hold`: stay where it stands and fight there; in cover (reeds, wagons, walls) it loses fewer men. Refused by a unit that is running."
        }
        OrderHelp::Advance => {
            "`order UNIT advance PLACE`: march to the place by the shortest road, a zone a turn, fighting what it meets on the way; fords and bridges pass only so many men a turn. Refused by a unit that is running."
        }
        OrderHelp::Attack => {
            "`order UNIT attack PLACE`: as `advance`, but the men go in with their blood up (their morale rises), and the enemy, if he sees the thrust, sends his nearest fresh reserve to meet it. Refused by a unit that is running."
        }
        OrderHelp::Withdraw => {
            "`order UNIT withdraw`: fall back to your side's camp (where routed men run to) by the shortest road; if the enemy is on it, his horse may press the retreat. Refused by a unit that is running."
        }
        OrderHelp::Rally => {
            "`order UNIT rally`: a steady or wavering unit falls back on you, wherever your commander stands, and stays by him. A unit that is already running will not listen to any order: it is rallied only by drums it can hear (a commander with drums nearby) or when it gets its breath back out of the fight."
        }
    }
}

pub(super) fn map_key(key: MapKey) -> &'static str {
    match key {
        MapKey::Legend => "Legend:",
        MapKey::You => "★ you",
        MapKey::YourMen => "● your men",
        MapKey::EnemyNow => "◆ enemy seen now",
        MapKey::EnemyEarlier => "◇ seen earlier or reported",
        MapKey::Unseen => "? unseen",
        MapKey::ThinSmoke => "▒ thin smoke",
        MapKey::ThickSmoke => "▓ thick smoke",
        MapKey::Fire => "* fire",
        MapKey::Roads => "─│ roads",
        MapKey::InABox => {
            "in a box: letter, kind, name, you, your men, the enemy; smoke or fire shades its sides"
        }
    }
}
