//! The catalogue is complete: every message said, non-empty, in every
//! locale, with the same placeholders in every language.

use super::*;
use crate::repl::commands::COMMANDS;
use crate::story::StoryError;
use std::collections::BTreeSet;

/// Phrases that are empty in some language on purpose: a separator or a
/// suffix the language does without.
fn may_be_empty(phrase: Ui) -> bool {
    matches!(phrase, Ui::TurnSuffix | Ui::LabelGap | Ui::SentenceGap)
}

#[test]
fn every_phrase_is_said_in_every_locale() {
    for locale in Locale::ALL {
        for phrase in Ui::ALL {
            let text = ui(locale, *phrase);
            assert!(
                !text.is_empty() || may_be_empty(*phrase),
                "{phrase:?} in {locale:?}"
            );
        }
        for key in OrderHelp::ALL {
            assert!(
                !order_help(locale, *key).is_empty(),
                "{key:?} in {locale:?}"
            );
        }
        for key in MapKey::ALL {
            assert!(!map_key(locale, *key).is_empty(), "{key:?} in {locale:?}");
        }
        for spec in COMMANDS {
            assert!(
                !command_help(locale, spec.action).is_empty(),
                "{}",
                spec.name
            );
        }
        for state in MoraleState::ALL {
            assert!(!state_name(locale, state).is_empty());
        }
        for modifier in [
            Modifier::Casualties,
            Modifier::Outnumbered,
            Modifier::Contagion,
            Modifier::Leader,
            Modifier::Rumor,
            Modifier::Smoke,
            Modifier::Trapped,
            Modifier::Drums,
            Modifier::Recovery,
            Modifier::Orders,
            Modifier::CommanderFell,
            Modifier::Withdrawal,
            Modifier::Charged,
            Modifier::Event,
        ] {
            assert!(!modifier_name(locale, modifier).is_empty());
        }
        for b in [
            Bearing::Standing,
            Bearing::Moving,
            Bearing::Fighting,
            Bearing::Shaken,
            Bearing::Running,
            Bearing::Broken,
        ] {
            assert!(!bearing(locale, b).is_empty());
        }
        for alert in [
            Alert::Destroyed,
            Alert::CommanderFell,
            Alert::OwnBroke,
            Alert::Attacked,
            Alert::EnemySighted,
            Alert::Arrived,
            Alert::Story,
        ] {
            assert!(!super::alert(locale, alert).is_empty());
        }
        for band in 0..4 {
            for toward in Compass::CLOCKWISE {
                assert!(!wind_phrase(locale, band, toward).is_empty());
                assert!(!super::wind_from(locale, toward).is_empty());
            }
        }
        assert!(!time_words(locale, 16 * 60 + 45).is_empty());
        assert_eq!(
            status_head(locale).iter().filter(|h| h.is_empty()).count(),
            0
        );
        assert_eq!(
            saves_head(locale).iter().filter(|h| h.is_empty()).count(),
            0
        );
    }
}

/// The placeholders of a template, by name.
fn placeholders(text: &str) -> BTreeSet<String> {
    crate::scene::placeholder::spans(text)
        .into_iter()
        .map(|(_, name)| name.to_string())
        .collect()
}

#[test]
fn every_template_has_the_same_placeholders_in_every_locale() {
    for key in Detail::ALL {
        let en = placeholders(template(Locale::En, *key));
        for locale in Locale::ALL {
            let text = template(locale, *key);
            assert!(!text.is_empty(), "{key:?} in {locale:?}");
            assert_eq!(placeholders(text), en, "{key:?} in {locale:?}");
            if let Some(plural) = plural_template(locale, *key) {
                assert_eq!(placeholders(plural), en, "{key:?}, plural");
            }
        }
    }
    for say in Say::ALL {
        let en = placeholders(say.get(Locale::En));
        for locale in Locale::ALL {
            let text = say.get(locale);
            assert!(!text.is_empty(), "{say:?} in {locale:?}");
            assert_eq!(placeholders(text), en, "{say:?} in {locale:?}");
        }
    }
}

/// The variant's place in [`samples`]' coverage: an exhaustive match, so a
/// new message does not compile here until it has a sample.
fn variant(message: &Msg) -> &'static str {
    match message {
        Msg::Order(message) => order_variant(message),
        Msg::View(message) => view_variant(message),
        Msg::Reveal(message) => reveal_variant(message),
        Msg::Prompt(message) => prompt_variant(message),
        Msg::Session(message) => session_variant(message),
        Msg::Menu(message) => menu_variant(message),
    }
}

fn order_variant(message: &OrderMsg) -> &'static str {
    match message {
        OrderMsg::Order(..) => "Order",
        OrderMsg::OrderedNow { .. } => "OrderedNow",
        OrderMsg::OrderedRider { .. } => "OrderedRider",
        OrderMsg::OrderDelivered { .. } => "OrderDelivered",
        OrderMsg::OrderLost { .. } => "OrderLost",
        OrderMsg::Doing(..) => "Doing",
        OrderMsg::DoingThereBy { .. } => "DoingThereBy",
        OrderMsg::OrdersLine { .. } => "OrdersLine",
        OrderMsg::CourierLine { .. } => "CourierLine",
        OrderMsg::ChangedOrder { .. } => "ChangedOrder",
        OrderMsg::CalledBack { .. } => "CalledBack",
    }
}

fn view_variant(message: &ViewMsg) -> &'static str {
    match message {
        ViewMsg::DrumsOf { .. } => "DrumsOf",
        ViewMsg::Body { .. } => "Body",
        ViewMsg::Troops { .. } => "Troops",
        ViewMsg::TurnHeader { .. } => "TurnHeader",
        ViewMsg::TurnsHeader { .. } => "TurnsHeader",
        ViewMsg::MenCell { .. } => "MenCell",
        ViewMsg::Marks { .. } => "Marks",
        ViewMsg::UnitLabel { .. } => "UnitLabel",
        ViewMsg::SeenInZone { .. } => "SeenInZone",
        ViewMsg::SeenAt { .. } => "SeenAt",
        ViewMsg::Stale { .. } => "Stale",
        ViewMsg::PlaceGone { .. } => "PlaceGone",
        ViewMsg::PlaceReported { .. } => "PlaceReported",
        ViewMsg::PlaceSeen { .. } => "PlaceSeen",
        ViewMsg::Whereabouts { .. } => "Whereabouts",
        ViewMsg::AndMore { .. } => "AndMore",
        ViewMsg::WeatherLine { .. } => "WeatherLine",
        ViewMsg::SavesIn { .. } => "SavesIn",
        ViewMsg::SaveTurn { .. } => "SaveTurn",
    }
}

fn reveal_variant(message: &RevealMsg) -> &'static str {
    match message {
        RevealMsg::OwnLosses { .. } => "OwnLosses",
        RevealMsg::TheirReckoning { .. } => "TheirReckoning",
        RevealMsg::RevealSide { .. } => "RevealSide",
        RevealMsg::UnseenUnit { .. } => "UnseenUnit",
        RevealMsg::NeverSeen { .. } => "NeverSeen",
        RevealMsg::MovedUnit { .. } => "MovedUnit",
        RevealMsg::NotWhereThought { .. } => "NotWhereThought",
        RevealMsg::WrongUnit { .. } => "WrongUnit",
        RevealMsg::ReckonedWrong { .. } => "ReckonedWrong",
        RevealMsg::Claim { .. } => "Claim",
        RevealMsg::Cry { .. } => "Cry",
        RevealMsg::CryHeard { .. } => "CryHeard",
    }
}

fn prompt_variant(message: &PromptMsg) -> &'static str {
    match message {
        PromptMsg::NotFound { .. } => "NotFound",
        PromptMsg::Several { .. } => "Several",
        PromptMsg::NotAnOrder { .. } => "NotAnOrder",
        PromptMsg::StdinBroken { .. } => "StdinBroken",
        PromptMsg::TooLong { .. } => "TooLong",
        PromptMsg::ChooseOption { .. } => "ChooseOption",
        PromptMsg::TooLarge { .. } => "TooLarge",
        PromptMsg::SlotOneWord { .. } => "SlotOneWord",
        PromptMsg::ExtraWords { .. } => "ExtraWords",
        PromptMsg::OrderNamesUnit { .. } => "OrderNamesUnit",
        PromptMsg::UnknownCommand { .. } => "UnknownCommand",
        PromptMsg::NoHelp { .. } => "NoHelp",
        PromptMsg::MapTakesList { .. } => "MapTakesList",
        PromptMsg::SourcesTakes { .. } => "SourcesTakes",
        PromptMsg::UnknownLanguage { .. } => "UnknownLanguage",
    }
}

fn session_variant(message: &SessionMsg) -> &'static str {
    match message {
        SessionMsg::RoleLine { .. } => "RoleLine",
        SessionMsg::CryNearby { .. } => "CryNearby",
        SessionMsg::Left { .. } => "Left",
        SessionMsg::LeaveFailed { .. } => "LeaveFailed",
        SessionMsg::FolderBusy { .. } => "FolderBusy",
        SessionMsg::Fatal { .. } => "Fatal",
        SessionMsg::NoSuchBattle { .. } => "NoSuchBattle",
        SessionMsg::NoSuchRole { .. } => "NoSuchRole",
        SessionMsg::Stopped { .. } => "Stopped",
        SessionMsg::StoppedLosses { .. } => "StoppedLosses",
        SessionMsg::SourcesShown { .. } => "SourcesShown",
        SessionMsg::ResumeItem { .. } => "ResumeItem",
        SessionMsg::Saved { .. } => "Saved",
        SessionMsg::Loaded { .. } => "Loaded",
        SessionMsg::SceneProblems { .. } => "SceneProblems",
        SessionMsg::NoBattleIn { .. } => "NoBattleIn",
        SessionMsg::CannotOpen { .. } => "CannotOpen",
        SessionMsg::Reloaded { .. } => "Reloaded",
        SessionMsg::TakenBack { .. } => "TakenBack",
        SessionMsg::Staff { .. } => "Staff",
        SessionMsg::ChoiceSource { .. } => "ChoiceSource",
        SessionMsg::LogTurn { .. } => "LogTurn",
        SessionMsg::RecapLine { .. } => "RecapLine",
        SessionMsg::AutosaveFailed { .. } => "AutosaveFailed",
        SessionMsg::OtherSave { .. } => "OtherSave",
        SessionMsg::SavesHere { .. } => "SavesHere",
    }
}

fn menu_variant(message: &MenuMsg) -> &'static str {
    match message {
        MenuMsg::RoleItem { .. } => "RoleItem",
        MenuMsg::RoleWithSide { .. } => "RoleWithSide",
        MenuMsg::BattleLength { .. } => "BattleLength",
        MenuMsg::CardWhen { .. } => "CardWhen",
        MenuMsg::CardWho { .. } => "CardWho",
        MenuMsg::PickHelp { .. } => "PickHelp",
    }
}

/// How many variants [`variant`] names.
const VARIANTS: usize = 89;

/// At least one sample of every message, with every branch its words take.
fn samples<'a>(seen: &'a [String], sides: &'a [String], tags: &'a [&'a str]) -> Vec<Msg<'a>> {
    let mut all: Vec<Msg> = Vec::new();
    all.extend(order_samples().into_iter().map(Msg::from));
    all.extend(view_samples(seen).into_iter().map(Msg::from));
    all.extend(reveal_samples().into_iter().map(Msg::from));
    all.extend(prompt_samples(tags).into_iter().map(Msg::from));
    all.extend(session_samples().into_iter().map(Msg::from));
    all.extend(menu_samples(sides).into_iter().map(Msg::from));
    all
}

/// Samples of every [`OrderMsg`].
fn order_samples<'a>() -> Vec<OrderMsg<'a>> {
    let (unit, zone, at, what) = ("U", "Z", "15:45", "W");
    vec![
        OrderMsg::Order(Order::Hold),
        OrderMsg::Order(Order::Advance(zone)),
        OrderMsg::Order(Order::Attack(zone)),
        OrderMsg::Order(Order::Withdraw),
        OrderMsg::Order(Order::Rally),
        OrderMsg::OrderedNow {
            unit,
            what,
            plural: false,
        },
        OrderMsg::OrderedNow {
            unit,
            what,
            plural: true,
        },
        OrderMsg::OrderedRider {
            unit,
            what,
            plural: true,
            minute: 600,
        },
        OrderMsg::OrderDelivered { unit },
        OrderMsg::OrderLost { unit },
        OrderMsg::Doing(Doing::Hold),
        OrderMsg::Doing(Doing::MoveTo(zone)),
        OrderMsg::Doing(Doing::Pursue),
        OrderMsg::Doing(Doing::RallyTo("C")),
        OrderMsg::DoingThereBy { doing: what, at },
        OrderMsg::OrdersLine {
            unit,
            id: "u1",
            at: zone,
            doing: what,
        },
        OrderMsg::CourierLine {
            unit,
            what,
            minute: 600,
        },
        OrderMsg::ChangedOrder {
            unit,
            was: what,
            now: what,
        },
        OrderMsg::CalledBack { unit, what },
    ]
}

/// Samples of every [`ViewMsg`].
fn view_samples<'a>(seen: &'a [String]) -> Vec<ViewMsg<'a>> {
    let (unit, zone, at, what) = ("U", "Z", "15:45", "W");
    vec![
        ViewMsg::DrumsOf {
            yours: true,
            commander: "C",
        },
        ViewMsg::DrumsOf {
            yours: false,
            commander: "C",
        },
        ViewMsg::Body {
            side: "S",
            troops: Troops::Horse,
        },
        ViewMsg::Body {
            side: "S",
            troops: Troops::Foot,
        },
        ViewMsg::Body {
            side: "S",
            troops: Troops::Troops,
        },
        ViewMsg::Troops {
            side: "S",
            troops: Troops::Horse,
        },
        ViewMsg::Troops {
            side: "S",
            troops: Troops::Foot,
        },
        ViewMsg::Troops {
            side: "S",
            troops: Troops::Troops,
        },
        ViewMsg::TurnHeader {
            turn: 3,
            minute: 600,
            wind: what,
        },
        ViewMsg::TurnsHeader {
            first: 3,
            last: 6,
            from: 600,
            to: 660,
            wind: what,
        },
        ViewMsg::TurnsHeader {
            first: 3,
            last: 4,
            from: 600,
            to: 615,
            wind: what,
        },
        ViewMsg::MenCell { men: "300" },
        ViewMsg::Marks { marks: seen },
        ViewMsg::UnitLabel { id: "u1" },
        ViewMsg::SeenInZone {
            name: unit,
            men: "300",
            bearing: what,
        },
        ViewMsg::SeenInZone {
            name: unit,
            men: "",
            bearing: what,
        },
        ViewMsg::SeenAt {
            line: what,
            at,
            reported: false,
        },
        ViewMsg::SeenAt {
            line: what,
            at,
            reported: true,
        },
        ViewMsg::Stale { what, at },
        ViewMsg::PlaceGone {
            zone,
            zone_cap: zone,
            at,
        },
        ViewMsg::PlaceReported { zone, at },
        ViewMsg::PlaceSeen { zone, at },
        ViewMsg::Whereabouts {
            here: zone,
            blind: true,
            smoky: true,
            seen,
        },
        ViewMsg::Whereabouts {
            here: zone,
            blind: true,
            smoky: false,
            seen,
        },
        ViewMsg::Whereabouts {
            here: zone,
            blind: false,
            smoky: false,
            seen: &[],
        },
        ViewMsg::Whereabouts {
            here: zone,
            blind: false,
            smoky: false,
            seen,
        },
        ViewMsg::AndMore { more: 3 },
        ViewMsg::WeatherLine {
            wind: what,
            zone,
            smoke: what,
        },
        ViewMsg::SavesIn { dir: "saves" },
        ViewMsg::SaveTurn { turn: "3" },
    ]
}

/// Samples of every [`RevealMsg`].
fn reveal_samples<'a>() -> Vec<RevealMsg<'a>> {
    let (unit, zone, at, what) = ("U", "Z", "15:45", "W");
    vec![
        RevealMsg::OwnLosses {
            side: "S",
            lost: "10",
            left: "90",
        },
        RevealMsg::TheirReckoning {
            side: "S",
            men: Some("300"),
        },
        RevealMsg::TheirReckoning {
            side: "S",
            men: None,
        },
        RevealMsg::RevealSide {
            side: "S",
            brought: "1",
            lost: "2",
            standing: "3",
            guess: Some("4"),
        },
        RevealMsg::RevealSide {
            side: "S",
            brought: "1",
            lost: "2",
            standing: "3",
            guess: None,
        },
        RevealMsg::UnseenUnit {
            unit,
            men: "300",
            zone,
        },
        RevealMsg::NeverSeen { items: what },
        RevealMsg::MovedUnit {
            unit,
            at,
            was: zone,
            is: zone,
        },
        RevealMsg::NotWhereThought { items: what },
        RevealMsg::WrongUnit {
            unit,
            guess: "1",
            truth: "2",
        },
        RevealMsg::ReckonedWrong { items: what },
        RevealMsg::Claim {
            side: "S",
            routed: true,
        },
        RevealMsg::Claim {
            side: "S",
            routed: false,
        },
        RevealMsg::Cry {
            claim: what,
            believers: 2,
            at,
            true_then: true,
        },
        RevealMsg::Cry {
            claim: what,
            believers: 2,
            at,
            true_then: false,
        },
        RevealMsg::CryHeard {
            words: what,
            believers: 2,
            at,
            true_then: true,
        },
        RevealMsg::CryHeard {
            words: what,
            believers: 2,
            at,
            true_then: false,
        },
    ]
}

/// Samples of every [`PromptMsg`].
fn prompt_samples<'a>(tags: &'a [&'a str]) -> Vec<PromptMsg<'a>> {
    let (unit, zone, what) = ("U", "Z", "W");
    vec![
        PromptMsg::NotFound {
            words: what,
            near: Some(unit),
            zone: false,
        },
        PromptMsg::NotFound {
            words: what,
            near: None,
            zone: false,
        },
        PromptMsg::NotFound {
            words: what,
            near: Some(zone),
            zone: true,
        },
        PromptMsg::NotFound {
            words: what,
            near: None,
            zone: true,
        },
        PromptMsg::Several {
            words: what,
            several: &["a", "b", "c"],
            zone: false,
        },
        PromptMsg::Several {
            words: what,
            several: &["a", "b"],
            zone: true,
        },
        PromptMsg::NotAnOrder {
            word: what,
            near: "advance",
            usage: "U",
        },
        PromptMsg::StdinBroken { why: what },
        PromptMsg::TooLong {
            size: "9 KB",
            max: "4 KB",
        },
        PromptMsg::ChooseOption { count: 3 },
        PromptMsg::TooLarge {
            number: "99",
            max: Some(3),
        },
        PromptMsg::TooLarge {
            number: "99",
            max: None,
        },
        PromptMsg::SlotOneWord {
            command: "save",
            extra: what,
            max: 40,
        },
        PromptMsg::ExtraWords {
            command: "look",
            usage: "look",
            extra: what,
        },
        PromptMsg::OrderNamesUnit {
            example: "order UNIT rally",
        },
        PromptMsg::UnknownCommand {
            word: what,
            suggestion: Some("look"),
        },
        PromptMsg::UnknownCommand {
            word: what,
            suggestion: None,
        },
        PromptMsg::NoHelp { topic: what },
        PromptMsg::MapTakesList { word: what },
        PromptMsg::UnknownLanguage { tag: "fr", tags },
        PromptMsg::SourcesTakes { word: what },
    ]
}

/// Samples of every [`SessionMsg`].
fn session_samples<'a>() -> Vec<SessionMsg<'a>> {
    let (at, what) = ("15:45", "W");
    vec![
        SessionMsg::RoleLine { role: "C", seed: 7 },
        SessionMsg::CryNearby { cry: what },
        SessionMsg::Left {
            slot: "quit",
            saves: None,
            over: false,
        },
        SessionMsg::Left {
            slot: "quit",
            saves: Some("dir"),
            over: true,
        },
        SessionMsg::LeaveFailed { err: what },
        SessionMsg::FolderBusy { folder: "saves" },
        SessionMsg::Fatal { err: what },
        SessionMsg::NoSuchBattle {
            id: "b",
            near: Some("a"),
            list: "a, c",
            example: true,
        },
        SessionMsg::NoSuchBattle {
            id: "b",
            near: None,
            list: "a, c",
            example: false,
        },
        SessionMsg::NoSuchRole {
            role: "r",
            battle: "b",
            near: Some("s"),
            list: "s, t",
        },
        SessionMsg::NoSuchRole {
            role: "r",
            battle: "b",
            near: None,
            list: "s, t",
        },
        SessionMsg::Stopped { reason: what },
        SessionMsg::StoppedLosses {
            men: "2,400",
            percent: 6,
            turns: 1,
        },
        SessionMsg::StoppedLosses {
            men: "9,000",
            percent: 8,
            turns: 3,
        },
        SessionMsg::Saved {
            slot: "quick",
            path: "saves/quick.ron",
        },
        SessionMsg::Loaded { slot: "quick" },
        SessionMsg::SceneProblems { count: 2 },
        SessionMsg::NoBattleIn {
            id: "b",
            folder: "scenes",
        },
        SessionMsg::CannotOpen { err: what },
        SessionMsg::Reloaded {
            id: "b",
            how: Reload::Failed {
                command: 2,
                why: what,
            },
        },
        SessionMsg::Reloaded {
            id: "b",
            how: Reload::PartsAt { turn: 3 },
        },
        SessionMsg::Reloaded {
            id: "b",
            how: Reload::Same,
        },
        SessionMsg::Reloaded {
            id: "b",
            how: Reload::Differs { describe: what },
        },
        SessionMsg::TakenBack { steps: 1 },
        SessionMsg::TakenBack { steps: 3 },
        SessionMsg::Staff { commander: "C" },
        SessionMsg::ChoiceSource { source: what },
        SessionMsg::SourcesShown { on: true },
        SessionMsg::SourcesShown { on: false },
        SessionMsg::ResumeItem {
            title: what,
            who: "C",
            turn: 3,
            when: "2026-12-02 05:30",
            slot: "s-1",
        },
        SessionMsg::LogTurn { turn: Some(3) },
        SessionMsg::LogTurn { turn: None },
        SessionMsg::RecapLine {
            role: "C",
            side: "S",
            turn: 3,
            time: at,
            seed: 7,
        },
        SessionMsg::AutosaveFailed { err: what },
        SessionMsg::OtherSave {
            slot: "g-auto-1",
            turn: 4,
            when: at,
            more: true,
            in_game: true,
            saves: None,
        },
        SessionMsg::OtherSave {
            slot: "g",
            turn: 9,
            when: at,
            more: false,
            in_game: false,
            saves: Some("dir"),
        },
        SessionMsg::OtherSave {
            slot: "g",
            turn: 9,
            when: at,
            more: false,
            in_game: false,
            saves: None,
        },
        SessionMsg::SavesHere {
            slot: "g",
            turn: 9,
            when: at,
            next: &["h", "i"],
            more: true,
            in_game: true,
            saves: None,
        },
        SessionMsg::SavesHere {
            slot: "g",
            turn: 9,
            when: at,
            next: &[],
            more: false,
            in_game: false,
            saves: Some("dir"),
        },
    ]
}

/// Samples of every [`MenuMsg`].
fn menu_samples<'a>(sides: &'a [String]) -> Vec<MenuMsg<'a>> {
    let what = "W";
    vec![
        MenuMsg::RoleItem {
            name: "C",
            id: "c",
            side: "S",
        },
        MenuMsg::RoleWithSide {
            name: "C",
            side: "S",
        },
        MenuMsg::BattleLength {
            max_turns: 12,
            turn_minutes: 15,
        },
        MenuMsg::BattleLength {
            max_turns: 12,
            turn_minutes: 240,
        },
        MenuMsg::BattleLength {
            max_turns: 2,
            turn_minutes: 15,
        },
        MenuMsg::CardWhen {
            date: "1619",
            place: "P",
        },
        MenuMsg::CardWho {
            sides,
            roles: sides,
            length: what,
        },
        MenuMsg::PickHelp { n: 3, asked: true },
        MenuMsg::PickHelp { n: 3, asked: false },
    ]
}

#[test]
fn every_message_is_said_in_every_locale() {
    let seen = vec!["A".to_string(), "B".to_string()];
    let sides = vec!["S".to_string(), "T".to_string()];
    let tags = ["en", "zh-Hans"];
    let samples = samples(&seen, &sides, &tags);
    let covered: BTreeSet<&str> = samples.iter().map(variant).collect();
    assert_eq!(covered.len(), VARIANTS, "every message has a sample");
    for locale in Locale::ALL {
        for sample in &samples {
            let text = msg(locale, *sample);
            assert!(!text.trim().is_empty(), "{sample:?} in {locale:?}");
        }
    }
}

/// Every save error and load notice, said in Chinese in Chinese words: the
/// frame is the catalogue's, and only what it quotes (a path, a slot name,
/// the system's or a check's own words) stays as it came.
#[test]
fn every_save_error_and_load_notice_is_said_in_chinese() {
    use crate::save::SaveError;
    use crate::save::SlotProblem;
    use crate::save::{At, Changed, Damage, Flaw, JournalFault, LoadNotice, Part, ReplayReport};
    let path = "saves/x.ron";
    let why = "WHY";
    let at = At { line: 3, column: 7 };
    let text = |part, flaw| Damage::Text {
        part,
        at,
        flaw,
        said: "Unexpected end of RON".into(),
        near: "".into(),
    };
    let damages = [
        text(Part::Syntax, Flaw::CutShort),
        text(Part::Syntax, Flaw::Unexpected('@')),
        text(Part::Syntax, Flaw::Unexpected('\u{7}')),
        text(Part::Foreign, Flaw::MissingField("format".into())),
        text(Part::Contents, Flaw::UnknownField("cheat".into())),
        text(Part::Contents, Flaw::DuplicateField("turn".into())),
        text(Part::Contents, Flaw::WrongValue),
        text(Part::Syntax, Flaw::TooDeep),
        text(Part::Contents, Flaw::Other),
        Damage::NotText,
        Damage::Empty,
        Damage::TooLarge(64 << 20),
        Damage::TooLarge(1000),
        Damage::NotAFile("a folder"),
        Damage::NotAFile("a FIFO (named pipe)"),
        Damage::NotAFile("a device"),
        Damage::NotAFile("a socket"),
        Damage::NotAFile("something"),
        Damage::JournalAndCommands,
        Damage::JournalAndPrints,
        Damage::JournalNotRead,
        Damage::Journal {
            fault: JournalFault::Missing,
            said: "its journal is missing".into(),
        },
        Damage::Journal {
            fault: JournalFault::CutShort,
            said: "its journal is cut short".into(),
        },
        Damage::Journal {
            fault: JournalFault::Mismatch,
            said: "its checksum differs".into(),
        },
        Damage::Journal {
            fault: JournalFault::Unreadable,
            said: "Permission denied".into(),
        },
        Damage::Journal {
            fault: JournalFault::Damaged,
            said: "a record at byte 9 is not one".into(),
        },
        Damage::OutOfBounds("its turn (999) is past the last turn".into()),
        Damage::Misfit("it names the unit `x` the battle lacks".into()),
        Damage::Unreplayable {
            command: 3,
            said: "no such unit".into(),
        },
        // Thousands of columns into a transcript's line: the words there.
        Damage::Text {
            part: Part::Syntax,
            at: At {
                line: 9,
                column: 4321,
            },
            flaw: Flaw::Unexpected('@'),
            said: "Unexpected char".into(),
            near: "…鸣鼓 鸣鼓 @".into(),
        },
    ];
    let mut errors = vec![
        SaveError::BadSlot("a/b".into(), SlotProblem::PathSeparator),
        SaveError::BadSlot("".into(), SlotProblem::Empty),
        SaveError::BadSlot("x".into(), SlotProblem::TooLong),
        SaveError::BadSlot(".x".into(), SlotProblem::Dot),
        SaveError::BadSlot("-x".into(), SlotProblem::Dash),
        SaveError::BadSlot("x".into(), SlotProblem::Control),
        SaveError::BadSlot("x!".into(), SlotProblem::OtherCharacters),
        SaveError::Missing("x".into(), path.into()),
        SaveError::Folder(path.into(), why.into()),
        SaveError::Write(path.into(), why.into()),
        SaveError::Refused(path.into(), why.into()),
        SaveError::Read(path.into(), why.into()),
        SaveError::TooNew(path.into(), 9, 1, 4),
        SaveError::TooOld(path.into(), 0, 1, 4),
        SaveError::UnknownScene(path.into(), "battle".into(), "a, b".into()),
    ];
    errors.extend((damages.iter()).map(|damage| SaveError::Damaged(path.into(), damage.clone())));
    let notices = [
        LoadNotice::Changed {
            shown: path.into(),
            what: Changed::Both,
            scene: "battle".into(),
            commands: 3,
            report: None,
        },
        LoadNotice::Changed {
            shown: path.into(),
            what: Changed::Rules,
            scene: "battle".into(),
            commands: 3,
            report: Some(ReplayReport {
                ran: 2,
                failed: None,
                diverged_at: Some((1, 2)),
                same_end: false,
                end_difference: Some(why.into()),
            }),
        },
        LoadNotice::Unreached {
            shown: path.into(),
            report: ReplayReport {
                ran: 1,
                failed: Some((1, why.into())),
                diverged_at: None,
                same_end: false,
                end_difference: None,
            },
        },
        LoadNotice::Unreached {
            shown: path.into(),
            report: ReplayReport {
                ran: 3,
                failed: None,
                diverged_at: None,
                same_end: false,
                end_difference: Some(why.into()),
            },
        },
        LoadNotice::Unreached {
            shown: path.into(),
            report: ReplayReport {
                ran: 3,
                failed: None,
                diverged_at: None,
                same_end: true,
                end_difference: None,
            },
        },
        LoadNotice::Replayed {
            shown: path.into(),
            commands: 1,
            turn: 4,
            reached: true,
        },
        LoadNotice::Rebuilt {
            shown: path.into(),
            why: damages[0].clone(),
            from: Some("鸣鼓".into()),
            commands: 8,
            turn: 5,
            then: Some(Box::new(LoadNotice::Changed {
                shown: path.into(),
                what: Changed::Battle,
                scene: "battle".into(),
                commands: 8,
                report: None,
            })),
        },
    ];
    let said: Vec<String> = errors
        .iter()
        .flat_map(|err| {
            [
                save_error(Locale::ZhHans, err),
                save_error(Locale::ZhHant, err),
            ]
        })
        .chain(notices.iter().flat_map(|n| {
            [
                load_notice(Locale::ZhHans, n),
                load_notice(Locale::ZhHant, n),
            ]
        }))
        .collect();
    for text in &said {
        // No English word of its own is left: only the quoted ones.
        let words: Vec<&str> = text
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| {
                w.len() > 2 && !["saves", "ron", "WHY", "battle", "xiaoling", "DIR"].contains(w)
            })
            .collect();
        assert!(words.is_empty(), "English in {text:?}: {words:?}");
        assert!(
            text.contains(|c: char| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{text}"
        );
    }
    // Where a text stops reading is said in both languages, and each kind
    // of damage in words of its own.
    for damage in &damages[..9] {
        let err = SaveError::Damaged(path.into(), damage.clone());
        let zh = save_error(Locale::ZhHans, &err);
        assert!(zh.contains("第3行第7列") && zh.ends_with('。'), "{zh}");
        assert!(
            damage.to_string().ends_with("(line 3, column 7)"),
            "{damage}"
        );
    }
    // A place in a long line is said by the words there, not its column.
    let long = damages.last().expect("long");
    let zh = zh::damage(Locale::ZhHans, long);
    assert!(zh.contains("第9行（“…鸣鼓 鸣鼓 @”一带）"), "{zh}");
    assert!(!zh.contains("4321"), "{zh}");
    assert!(
        long.to_string()
            .ends_with("(line 9, near the text `…鸣鼓 鸣鼓 @`)"),
        "{long}"
    );
    let kinds: BTreeSet<String> = (damages.iter())
        .map(|damage| zh::damage(Locale::ZhHans, damage))
        .collect();
    assert_eq!(kinds.len(), damages.len(), "{kinds:?}");
    // The `saves` table's few words, in Chinese too.
    for err in &errors {
        let short = short_reason(Locale::ZhHant, err);
        assert!(
            short.contains(|c: char| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{short}"
        );
    }
    assert_eq!(
        short_reason(Locale::En, &SaveError::TooNew(path.into(), 9, 1, 4)),
        "newer format 9"
    );
    // English is the library's own words.
    assert_eq!(save_error(Locale::En, &errors[7]), errors[7].to_string());
    assert_eq!(load_notice(Locale::En, &notices[2]), notices[2].to_string());
    // zh-Hant converts the catalogue's words, not the quoted ones.
    let hant = save_error(Locale::ZhHant, &errors[7]);
    assert!(hant.contains("沒有名為") && hant.contains(path), "{hant}");
}

#[test]
fn every_story_error_is_said_in_every_locale() {
    let errors = [
        StoryError::ChoicePending,
        StoryError::NothingToChoose,
        StoryError::NoSuchOption(4, 3),
        StoryError::NoOptionNamed("x".into()),
        StoryError::Ended,
        StoryError::NoSuchRole("x".into(), "a, b".into()),
        StoryError::UndoForbidden,
        StoryError::NothingToUndo,
        StoryError::NoOrders("C".into()),
        StoryError::NoSuchUnit("u".into()),
        StoryError::NoSuchZone("z".into()),
        StoryError::NotOnField,
        StoryError::WillNotListen,
        StoryError::NoRoad,
        StoryError::TooManyOrders(9),
        StoryError::Stuck {
            seed: 1,
            turn: 2,
            error: Box::new(StoryError::Ended),
        },
    ];
    for locale in Locale::ALL {
        for err in &errors {
            assert!(
                !story_error(locale, err).is_empty(),
                "{err:?} in {locale:?}"
            );
        }
        for err in [
            StoryError::WillNotListen,
            StoryError::NoRoad,
            StoryError::NotOnField,
        ] {
            assert!(order_refused(locale, "U", &err).is_some_and(|t| !t.is_empty()));
        }
    }
}

#[test]
fn chinese_reads_in_natural_order_with_full_width_punctuation() {
    // `report` tells a group as the turn's prose does: who, then what
    // (「甲、乙阵脚动摇。」), never 「label：list」.
    for key in Detail::ALL {
        let zh = template(Locale::ZhHans, *key);
        assert!(!zh.contains("：{units}"), "{key:?}: {zh}");
    }
    // No half-width , : ; ( ) beside Chinese: the separators `why`, `map`
    // and the lists use are full-width.
    for phrase in [
        Ui::Colon,
        Ui::ClauseSep,
        Ui::ItemSep,
        Ui::ListSep,
        Ui::LossesSep,
    ] {
        let zh = ui(Locale::ZhHans, phrase);
        assert!(!zh.contains([',', ':', ';', '(', ')']), "{phrase:?}: {zh}");
    }
}

#[test]
fn traditional_uses_taiwan_terms() {
    let hint = ui(Locale::ZhHant, Ui::FirstHint);
    assert!(
        hint.contains("Enter 鍵") && !hint.contains("回車"),
        "{hint}"
    );
    let save = command_help(Locale::ZhHant, Action::Save);
    assert!(save.contains("預設") && !save.contains("默認"), "{save}");
}
