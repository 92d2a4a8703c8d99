//! The catalogue is complete: every message said, non-empty, in every
//! locale, with the same placeholders in every language.

use super::*;
use crate::repl::chronicle::Alert;
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
        for state in [
            MoraleState::Steady,
            MoraleState::Wavering,
            MoraleState::Routing,
            MoraleState::Rallied,
            MoraleState::Surrendered,
            MoraleState::Shattered,
        ] {
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
        Msg::DrumsOf { .. } => "DrumsOf",
        Msg::Body { .. } => "Body",
        Msg::Troops { .. } => "Troops",
        Msg::Order(..) => "Order",
        Msg::OrderedNow { .. } => "OrderedNow",
        Msg::OrderedRider { .. } => "OrderedRider",
        Msg::OrderDelivered { .. } => "OrderDelivered",
        Msg::OrderLost { .. } => "OrderLost",
        Msg::Doing(..) => "Doing",
        Msg::DoingThereBy { .. } => "DoingThereBy",
        Msg::OrdersLine { .. } => "OrdersLine",
        Msg::CourierLine { .. } => "CourierLine",
        Msg::TurnHeader { .. } => "TurnHeader",
        Msg::TurnsHeader { .. } => "TurnsHeader",
        Msg::MenCell { .. } => "MenCell",
        Msg::Marks { .. } => "Marks",
        Msg::UnitLabel { .. } => "UnitLabel",
        Msg::SeenInZone { .. } => "SeenInZone",
        Msg::SeenAt { .. } => "SeenAt",
        Msg::Stale { .. } => "Stale",
        Msg::PlaceGone { .. } => "PlaceGone",
        Msg::PlaceReported { .. } => "PlaceReported",
        Msg::PlaceSeen { .. } => "PlaceSeen",
        Msg::PlaceReportedAt { .. } => "PlaceReportedAt",
        Msg::Whereabouts { .. } => "Whereabouts",
        Msg::OwnLosses { .. } => "OwnLosses",
        Msg::TheirReckoning { .. } => "TheirReckoning",
        Msg::RevealSide { .. } => "RevealSide",
        Msg::AndMore { .. } => "AndMore",
        Msg::UnseenUnit { .. } => "UnseenUnit",
        Msg::NeverSeen { .. } => "NeverSeen",
        Msg::MovedUnit { .. } => "MovedUnit",
        Msg::NotWhereThought { .. } => "NotWhereThought",
        Msg::WrongUnit { .. } => "WrongUnit",
        Msg::ReckonedWrong { .. } => "ReckonedWrong",
        Msg::Claim { .. } => "Claim",
        Msg::Cry { .. } => "Cry",
        Msg::WeatherLine { .. } => "WeatherLine",
        Msg::SavesIn { .. } => "SavesIn",
        Msg::SaveTurn { .. } => "SaveTurn",
        Msg::NotFound { .. } => "NotFound",
        Msg::RoleLine { .. } => "RoleLine",
        Msg::CryNearby { .. } => "CryNearby",
        Msg::StdinBroken { .. } => "StdinBroken",
        Msg::TooLong { .. } => "TooLong",
        Msg::Left { .. } => "Left",
        Msg::LeaveFailed { .. } => "LeaveFailed",
        Msg::FolderBusy { .. } => "FolderBusy",
        Msg::ChooseOption { .. } => "ChooseOption",
        Msg::TooLarge { .. } => "TooLarge",
        Msg::SlotOneWord { .. } => "SlotOneWord",
        Msg::ExtraWords { .. } => "ExtraWords",
        Msg::OrderNamesUnit { .. } => "OrderNamesUnit",
        Msg::UnknownCommand { .. } => "UnknownCommand",
        Msg::ChangedOrder { .. } => "ChangedOrder",
        Msg::CalledBack { .. } => "CalledBack",
        Msg::Stopped { .. } => "Stopped",
        Msg::StoppedLosses { .. } => "StoppedLosses",
        Msg::NoHelp { .. } => "NoHelp",
        Msg::MapTakesList { .. } => "MapTakesList",
        Msg::SourcesTakes { .. } => "SourcesTakes",
        Msg::SourcesShown { .. } => "SourcesShown",
        Msg::ResumeItem { .. } => "ResumeItem",
        Msg::UnknownLanguage { .. } => "UnknownLanguage",
        Msg::Saved { .. } => "Saved",
        Msg::Loaded { .. } => "Loaded",
        Msg::SceneProblems { .. } => "SceneProblems",
        Msg::NoBattleIn { .. } => "NoBattleIn",
        Msg::CannotOpen { .. } => "CannotOpen",
        Msg::Reloaded { .. } => "Reloaded",
        Msg::TakenBack { .. } => "TakenBack",
        Msg::Staff { .. } => "Staff",
        Msg::ChoiceSource { .. } => "ChoiceSource",
        Msg::LogTurn { .. } => "LogTurn",
        Msg::RecapLine { .. } => "RecapLine",
        Msg::AutosaveFailed { .. } => "AutosaveFailed",
        Msg::RoleItem { .. } => "RoleItem",
        Msg::RoleWithSide { .. } => "RoleWithSide",
        Msg::BattleLength { .. } => "BattleLength",
        Msg::CardWhen { .. } => "CardWhen",
        Msg::CardWho { .. } => "CardWho",
        Msg::PickHelp { .. } => "PickHelp",
    }
}

/// How many variants [`variant`] names.
const VARIANTS: usize = 82;

/// At least one sample of every message, with every branch its words take.
fn samples<'a>(seen: &'a [String], sides: &'a [String], tags: &'a [&'a str]) -> Vec<Msg<'a>> {
    let (unit, zone, at, what) = ("U", "Z", "15:45", "W");
    vec![
        Msg::DrumsOf {
            yours: true,
            commander: "C",
        },
        Msg::DrumsOf {
            yours: false,
            commander: "C",
        },
        Msg::Body {
            side: "S",
            troops: Troops::Horse,
        },
        Msg::Body {
            side: "S",
            troops: Troops::Foot,
        },
        Msg::Body {
            side: "S",
            troops: Troops::Troops,
        },
        Msg::Troops {
            side: "S",
            troops: Troops::Horse,
        },
        Msg::Troops {
            side: "S",
            troops: Troops::Foot,
        },
        Msg::Troops {
            side: "S",
            troops: Troops::Troops,
        },
        Msg::Order(Order::Hold),
        Msg::Order(Order::Advance(zone)),
        Msg::Order(Order::Attack(zone)),
        Msg::Order(Order::Withdraw),
        Msg::Order(Order::Rally),
        Msg::OrderedNow {
            unit,
            what,
            plural: false,
        },
        Msg::OrderedNow {
            unit,
            what,
            plural: true,
        },
        Msg::OrderedRider {
            unit,
            what,
            plural: true,
            minute: 600,
        },
        Msg::OrderDelivered { unit },
        Msg::OrderLost { unit },
        Msg::Doing(Doing::Hold),
        Msg::Doing(Doing::MoveTo(zone)),
        Msg::Doing(Doing::Pursue),
        Msg::Doing(Doing::RallyTo("C")),
        Msg::DoingThereBy { doing: what, at },
        Msg::OrdersLine {
            unit,
            id: "u1",
            at: zone,
            doing: what,
        },
        Msg::CourierLine {
            unit,
            what,
            minute: 600,
        },
        Msg::TurnHeader {
            turn: 3,
            minute: 600,
            wind: what,
        },
        Msg::TurnsHeader {
            first: 3,
            last: 6,
            from: 600,
            to: 660,
            wind: what,
        },
        Msg::TurnsHeader {
            first: 3,
            last: 4,
            from: 600,
            to: 615,
            wind: what,
        },
        Msg::MenCell { men: "300" },
        Msg::Marks { marks: seen },
        Msg::UnitLabel { id: "u1" },
        Msg::SeenInZone {
            name: unit,
            men: "300",
            bearing: what,
        },
        Msg::SeenInZone {
            name: unit,
            men: "",
            bearing: what,
        },
        Msg::SeenAt { line: what, at },
        Msg::Stale { what, at },
        Msg::PlaceGone {
            zone,
            zone_cap: zone,
            at,
        },
        Msg::PlaceReported { zone },
        Msg::PlaceSeen { zone, at },
        Msg::PlaceReportedAt { zone, at },
        Msg::Whereabouts {
            here: zone,
            blind: true,
            smoky: true,
            seen,
        },
        Msg::Whereabouts {
            here: zone,
            blind: true,
            smoky: false,
            seen,
        },
        Msg::Whereabouts {
            here: zone,
            blind: false,
            smoky: false,
            seen: &[],
        },
        Msg::Whereabouts {
            here: zone,
            blind: false,
            smoky: false,
            seen,
        },
        Msg::OwnLosses {
            side: "S",
            lost: "10",
            left: "90",
        },
        Msg::TheirReckoning {
            side: "S",
            men: Some("300"),
        },
        Msg::TheirReckoning {
            side: "S",
            men: None,
        },
        Msg::RevealSide {
            side: "S",
            brought: "1",
            lost: "2",
            standing: "3",
            guess: Some("4"),
        },
        Msg::RevealSide {
            side: "S",
            brought: "1",
            lost: "2",
            standing: "3",
            guess: None,
        },
        Msg::AndMore { more: 3 },
        Msg::UnseenUnit {
            unit,
            men: "300",
            zone,
        },
        Msg::NeverSeen { items: what },
        Msg::MovedUnit {
            unit,
            at,
            was: zone,
            is: zone,
        },
        Msg::NotWhereThought { items: what },
        Msg::WrongUnit {
            unit,
            guess: "1",
            truth: "2",
        },
        Msg::ReckonedWrong { items: what },
        Msg::Claim {
            side: "S",
            routed: true,
        },
        Msg::Claim {
            side: "S",
            routed: false,
        },
        Msg::Cry {
            claim: what,
            believers: 2,
            at,
            true_then: true,
        },
        Msg::Cry {
            claim: what,
            believers: 2,
            at,
            true_then: false,
        },
        Msg::WeatherLine {
            wind: what,
            zone,
            smoke: what,
        },
        Msg::SavesIn { dir: "saves" },
        Msg::SaveTurn { turn: "3" },
        Msg::NotFound {
            words: what,
            near: Some(unit),
            zone: false,
        },
        Msg::NotFound {
            words: what,
            near: None,
            zone: false,
        },
        Msg::NotFound {
            words: what,
            near: Some(zone),
            zone: true,
        },
        Msg::NotFound {
            words: what,
            near: None,
            zone: true,
        },
        Msg::RoleLine { role: "C", seed: 7 },
        Msg::CryNearby { cry: what },
        Msg::StdinBroken { why: what },
        Msg::TooLong {
            size: "9 KB",
            max: "4 KB",
        },
        Msg::Left {
            slot: "quit",
            saves: None,
            over: false,
        },
        Msg::Left {
            slot: "quit",
            saves: Some("dir"),
            over: true,
        },
        Msg::LeaveFailed { err: what },
        Msg::FolderBusy { folder: "saves" },
        Msg::ChooseOption { count: 3 },
        Msg::TooLarge {
            number: "99",
            max: Some(3),
        },
        Msg::TooLarge {
            number: "99",
            max: None,
        },
        Msg::SlotOneWord {
            command: "save",
            extra: what,
            max: 40,
        },
        Msg::ExtraWords {
            command: "look",
            usage: "look",
            extra: what,
        },
        Msg::OrderNamesUnit {
            example: "order UNIT rally",
        },
        Msg::UnknownCommand {
            word: what,
            suggestion: Some("look"),
        },
        Msg::UnknownCommand {
            word: what,
            suggestion: None,
        },
        Msg::ChangedOrder {
            unit,
            was: what,
            now: what,
        },
        Msg::CalledBack { unit, what },
        Msg::Stopped { reason: what },
        Msg::StoppedLosses {
            men: "2,400",
            percent: 6,
            turns: 1,
        },
        Msg::StoppedLosses {
            men: "9,000",
            percent: 8,
            turns: 3,
        },
        Msg::NoHelp { topic: what },
        Msg::MapTakesList { word: what },
        Msg::UnknownLanguage { tag: "fr", tags },
        Msg::Saved {
            slot: "quick",
            path: "saves/quick.ron",
        },
        Msg::Loaded { slot: "quick" },
        Msg::SceneProblems { count: 2 },
        Msg::NoBattleIn {
            id: "b",
            folder: "scenes",
        },
        Msg::CannotOpen { err: what },
        Msg::Reloaded {
            id: "b",
            how: Reload::Failed {
                command: 2,
                why: what,
            },
        },
        Msg::Reloaded {
            id: "b",
            how: Reload::PartsAt { turn: 3 },
        },
        Msg::Reloaded {
            id: "b",
            how: Reload::Same,
        },
        Msg::Reloaded {
            id: "b",
            how: Reload::Differs { describe: what },
        },
        Msg::TakenBack { steps: 1 },
        Msg::TakenBack { steps: 3 },
        Msg::Staff { commander: "C" },
        Msg::ChoiceSource { source: what },
        Msg::SourcesTakes { word: what },
        Msg::SourcesShown { on: true },
        Msg::SourcesShown { on: false },
        Msg::ResumeItem {
            title: what,
            who: "C",
            turn: 3,
            when: "2026-12-02 05:30",
            slot: "s-1",
        },
        Msg::LogTurn { turn: Some(3) },
        Msg::LogTurn { turn: None },
        Msg::RecapLine {
            role: "C",
            side: "S",
            turn: 3,
            time: at,
            seed: 7,
        },
        Msg::AutosaveFailed { err: what },
        Msg::RoleItem {
            name: "C",
            id: "c",
            side: "S",
        },
        Msg::RoleWithSide {
            name: "C",
            side: "S",
        },
        Msg::BattleLength {
            max_turns: 12,
            turn_minutes: 15,
        },
        Msg::BattleLength {
            max_turns: 12,
            turn_minutes: 240,
        },
        Msg::BattleLength {
            max_turns: 2,
            turn_minutes: 15,
        },
        Msg::CardWhen {
            date: "1619",
            place: "P",
        },
        Msg::CardWho {
            sides,
            roles: sides,
            length: what,
        },
        Msg::PickHelp { n: 3, asked: true },
        Msg::PickHelp { n: 3, asked: false },
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
    use crate::save::{Changed, LoadNotice, SaveError, SlotProblem};
    let path = "saves/x.ron";
    let why = "WHY";
    let errors = [
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
        SaveError::Damaged(path.into(), why.into()),
        SaveError::TooNew(path.into(), 9, 1, 4),
        SaveError::TooOld(path.into(), 0, 1, 4),
        SaveError::UnknownScene(path.into(), "battle".into(), "a, b".into()),
    ];
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
            report: Some(why.into()),
        },
        LoadNotice::Unreached {
            shown: path.into(),
            report: why.into(),
        },
        LoadNotice::Replayed {
            shown: path.into(),
            commands: 1,
            turn: 4,
            reached: true,
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
    let save = command_help(Locale::ZhHant, crate::repl::commands::Action::Save);
    assert!(save.contains("預設") && !save.contains("默認"), "{save}");
}
