//! What a battle on water and by fire needs (issue 22, item 6), each rule
//! on a small scene of its own: the wind's eight points, its direction as a
//! condition and its shifts told; fire that burns men and dies out; open
//! water crossed by boat, where men drown; precedence in a crossing; side
//! names as the author wrote them.

use crate::common::Ids;
use std::sync::Arc;
use xiaoling::repl::render::Style;
use xiaoling::repl::{Options, Session};
use xiaoling::scene::{self, Compass, Locale, Rules, Scene};
use xiaoling::sim::{Battle, Entry};
use xiaoling::story::Game;

use crate::common;

fn shipped_rules() -> Rules {
    scene::parse_rules("rules.ron", scene::EMBEDDED_RULES.1).expect("the shipped rules are valid")
}

/// The scene of `source`, which must check.
fn parse(source: &str) -> Arc<Scene> {
    match scene::parse_scene("water.ron", source, &shipped_rules()) {
        Ok(scene) => Arc::new(scene),
        Err(problems) => panic!(
            "{}",
            problems
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

/// The problems `source` has (it must have some).
fn problems(source: &str) -> String {
    match scene::parse_scene("water.ron", source, &shipped_rules()) {
        Ok(_) => panic!("the scene was expected to be refused"),
        Err(problems) => problems
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// A river scene: the south bank, a stretch of water (`water`: the zone's
/// fields after `kind:`), the north bank; `units`, `events`, `rules` and
/// `meta_extra` spliced in.
fn river(water: &str, units: &str, events: &str, rules: &str, meta_extra: &str) -> String {
    format!(
        r#"(
    meta: (id: "water", title: "Water", date: "", place: "", intro: "", turn_minutes: 15,
           max_turns: 40, timeout_ending: "end", playable: ["zhou"], {meta_extra}),
    sides: [(id: "south", name: "Southerners", colour: Red), (id: "north", name: "Northerners", colour: Yellow)],
    zones: [
        (id: "south-bank", name: "South bank", kind: Bank, at: (0, 0), adjacent: ["river"]),
        (id: "river", name: "The river", kind: {water}, at: (0, 1), adjacent: ["north-bank"]),
        (id: "north-bank", name: "North bank", kind: Bank, at: (0, 2), adjacent: []),
    ],
    commanders: [
        (id: "zhou", name: "Zhou", side: "south", leadership: 5, zone: "south-bank", playable: true),
        (id: "cao", name: "Cao", side: "north", leadership: 5, zone: "north-bank"),
    ],
    units: [{units}],
    events: [{events}],
    endings: [(id: "end", title: "End", when: Never, text: "", summary: "")],
    rules: {{{rules}}},
)"#
    )
}

const FOOT: &str = r#"(id: "foot", name: "Southern foot", side: "south", kind: MingFoot, men: 2000, quality: 0.5, morale: 60, zone: "south-bank"),
        (id: "horse", name: "Northern horse", side: "north", kind: BannerCavalry, men: 2000, quality: 0.7, morale: 70, zone: "north-bank")"#;

/// A game's transcript through the REPL, English unless `locale` says
/// otherwise, with the piped commands of `script`.
fn transcript(scene: &Arc<Scene>, seed: u64, locale: Locale, script: &str) -> String {
    let (game, outputs) = Game::new(Arc::clone(scene), "zhou", seed).expect("game");
    let saves = common::temp_dir("water");
    let options = Options {
        locale,
        style: Style {
            colour: false,
            columns: 100,
        },
        saves_dir: saves.to_path_buf(),
    };
    let mut out: Vec<u8> = Vec::new();
    {
        let mut session = Session::new(game, options, vec![Arc::clone(scene)], &mut out);
        session.opening();
        session.show(&outputs);
        session.run(&mut xiaoling::repl::Piped::new(script.as_bytes()));
    }
    String::from_utf8(out).expect("utf-8 transcript")
}

// --- The wind -------------------------------------------------------------

#[test]
fn the_four_old_points_and_the_four_between_them_load() {
    for point in [
        "North",
        "South",
        "East",
        "West",
        "NorthEast",
        "SouthEast",
        "SouthWest",
        "NorthWest",
    ] {
        let source = river(
            "Ford, width_m: 100.0, depth_m: 0.5",
            FOOT,
            &format!(
                r#"(id: "veer", when: Turn(AtLeast(1.0)), effects: [Wind(strength: 0.5, toward: {point})])"#
            ),
            "",
            &format!("wind: (strength: 0.4, toward: {point})"),
        );
        parse(&source);
    }
    let wrong = river(
        "Ford, width_m: 100.0, depth_m: 0.5",
        FOOT,
        "",
        "",
        "wind: (strength: 0.4, toward: SouthSouthEast)",
    );
    let said = problems(&wrong);
    assert!(said.contains("SouthSouthEast"), "{said}");
}

#[test]
fn the_winds_direction_is_a_condition_by_where_it_blows_to_or_comes_from() {
    // A south-east wind blows toward the north-west.
    let events = r#"
        (id: "from-se", when: WindFrom([SouthEast]), effects: [SetFlag("from-se")]),
        (id: "toward-nw", when: WindToward([NorthWest]), effects: [SetFlag("toward-nw")]),
        (id: "from-s", when: WindFrom([South, SouthWest]), effects: [SetFlag("from-s")]),
        (id: "turns", when: Turn(AtLeast(2.0)), effects: [Wind(strength: 0.6, toward: North)]),
        (id: "from-s-later", when: All([Turn(AtLeast(2.0)), WindFrom([South])]), effects: [SetFlag("from-s-later")]),
    "#;
    let source = river(
        "Ford, width_m: 100.0, depth_m: 0.5",
        FOOT,
        events,
        r#""wind_drift": 0.0"#,
        "wind: (strength: 0.6, toward: NorthWest)",
    );
    let scene = parse(&source);
    let (mut game, _) = Game::new(Arc::clone(&scene), "zhou", 1).expect("game");
    let flags = |game: &Game| -> std::collections::BTreeSet<String> {
        (game.story().flags.iter())
            .map(|&f| game.name_of(f).to_string())
            .collect()
    };
    assert!(flags(&game).contains("from-se"));
    assert!(flags(&game).contains("toward-nw"));
    assert!(!flags(&game).contains("from-s"));
    for _ in 0..3 {
        game.next().expect("a turn");
    }
    assert!(flags(&game).contains("from-s-later"), "{:?}", flags(&game));
    assert!(
        flags(&game).contains("from-s"),
        "a wind toward the north comes from the south"
    );

    let empty = river(
        "Ford, width_m: 100.0, depth_m: 0.5",
        FOOT,
        r#"(id: "never", when: WindFrom([]), effects: [SetFlag("x")])"#,
        "",
        "",
    );
    let said = problems(&empty);
    assert!(said.contains("no points"), "{said}");
}

#[test]
fn a_diagonal_wind_carries_smoke_to_the_zone_that_lies_that_way() {
    // A burning zone with a neighbour to the north-west: a south-east wind
    // carries its smoke there, a north wind does not.
    let source = r#"(
    meta: (id: "diag", title: "Diag", date: "", place: "", intro: "", turn_minutes: 15,
           max_turns: 10, timeout_ending: "end", playable: ["zhou"],
           wind: (strength: 0.8, toward: NorthWest)),
    sides: [(id: "south", name: "Southerners", colour: Red), (id: "north", name: "Northerners", colour: Yellow)],
    zones: [
        (id: "fleet", name: "Fleet", kind: Bank, at: (1, 0), adjacent: ["shore", "east"], fire: 1.0, fuel: 1.0),
        (id: "shore", name: "Shore", kind: Bank, at: (0, 1), adjacent: []),
        (id: "east", name: "East", kind: Bank, at: (2, 0), adjacent: []),
    ],
    commanders: [
        (id: "zhou", name: "Zhou", side: "south", leadership: 5, zone: "east", playable: true),
        (id: "cao", name: "Cao", side: "north", leadership: 5, zone: "shore"),
    ],
    units: [(id: "foot", name: "Foot", side: "south", kind: MingFoot, men: 500, quality: 0.5, morale: 60, zone: "east")],
    endings: [(id: "end", title: "End", when: Never, text: "", summary: "")],
    rules: {"wind_drift": 0.0},
)"#;
    let scene = parse(source);
    let mut battle = Battle::new(&scene, 1);
    for _ in 0..3 {
        battle.step();
    }
    let state = battle.state();
    assert_eq!(state.weather.toward, Compass::NorthWest);
    assert!(state.zones[1].burning.smoke > 0.3, "{:?}", state.zones[1]);
    assert!(state.zones[2].burning.smoke < 0.05, "{:?}", state.zones[2]);
}

#[test]
fn a_wind_that_turns_by_itself_is_told_in_both_languages() {
    let source = river(
        "Ford, width_m: 100.0, depth_m: 0.5",
        FOOT,
        "",
        r#""wind_drift": 1.0"#,
        "wind: (strength: 0.6, toward: NorthWest)",
    );
    let scene = parse(&source);
    // The sim: every turn of the wind of some strength is an entry of its own.
    let mut battle = Battle::new(&scene, 3);
    let mut shifts = 0;
    for _ in 0..30 {
        let before = battle.state().weather;
        let entries = battle.step();
        let after = battle.state().weather;
        let told = entries.iter().find_map(|e| match e {
            Entry::WindShifts { toward, veers, .. } => Some((*toward, *veers)),
            _ => None,
        });
        if before.toward != after.toward && after.wind >= 0.15 {
            let (toward, veers) = told.expect("a turn of the wind is told");
            assert_eq!(toward, after.toward);
            let expected = if veers {
                before.toward.turned(2)
            } else {
                before.toward.turned(-2)
            };
            assert_eq!(expected, after.toward, "a quarter turn, the way it is told");
            shifts += 1;
        } else {
            assert!(told.is_none());
        }
    }
    assert!(shifts > 0, "thirty turns of drift turn the wind");
    // The telling: a sentence, not only the header.
    let script = "next\n".repeat(30);
    let en = transcript(&scene, 3, Locale::En, &script);
    assert!(
        en.contains("The wind veers round: it blows from the")
            || en.contains("The wind backs round: it blows from the"),
        "{en}"
    );
    let zh = transcript(&scene, 3, Locale::ZhHans, &script);
    assert!(
        zh.contains("风向右转，如今刮的是") || zh.contains("风向左转，如今刮的是"),
        "{zh}"
    );
}

#[test]
fn the_header_of_quiet_turns_shows_the_wind_they_had_not_the_next_turns() {
    // Under drift, a run of `wait` folds quiet turns and tells them when a
    // turn with news comes. A turn of the wind is told under a header that
    // shows the new wind, and the turns before it under one that does not.
    let source = river(
        "Ford, width_m: 100.0, depth_m: 0.5",
        FOOT,
        "",
        r#""wind_drift": 0.5"#,
        "wind: (strength: 0.6, toward: NorthWest)",
    );
    let scene = parse(&source);
    let mut told = 0;
    for seed in 1..=6 {
        let en = transcript(&scene, seed, Locale::En, &"wait\n".repeat(40));
        // The turns as told: each header with the text under it.
        let blocks: Vec<&str> = en.split("\n── Turn").skip(1).collect();
        for (k, block) in blocks.iter().enumerate() {
            let header = block.lines().next().unwrap_or_default();
            let Some(at) = block.find("it blows from the ") else {
                continue;
            };
            let from: String = block[at + "it blows from the ".len()..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                .collect();
            assert!(
                header.contains(&format!("from the {from} ")),
                "seed {seed}: {header:?}\n{en}"
            );
            if k > 0 {
                let before = blocks[k - 1].lines().next().unwrap_or_default();
                assert!(
                    !before.contains(&format!("from the {from} ")),
                    "seed {seed}: {before:?}\n{en}"
                );
            }
            told += 1;
        }
    }
    assert!(told > 0, "six games of drift turn the wind");
}

#[test]
fn the_eight_points_are_named_in_words() {
    let source = river(
        "Ford, width_m: 100.0, depth_m: 0.5",
        FOOT,
        "",
        r#""wind_drift": 0.0"#,
        "wind: (strength: 0.6, toward: NorthWest)",
    );
    let scene = parse(&source);
    let en = transcript(&scene, 1, Locale::En, "next\n");
    assert!(en.contains("a fresh wind from the south-east"), "{en}");
    let zh = transcript(&scene, 1, Locale::ZhHans, "next\n");
    assert!(zh.contains("东南风阵阵"), "{zh}");
}

// --- Fire -----------------------------------------------------------------

/// A burning camp with foot in it, the fire at `fire` and fuel `fuel`.
fn camp_on_fire(fire: f64, fuel: f64, rules: &str) -> String {
    format!(
        r#"(
    meta: (id: "fire", title: "Fire", date: "", place: "", intro: "", turn_minutes: 15,
           max_turns: 40, timeout_ending: "end", playable: ["zhou"], wind: (strength: 0.0, toward: North)),
    sides: [(id: "south", name: "Southerners", colour: Red), (id: "north", name: "Northerners", colour: Yellow)],
    zones: [
        (id: "camp", name: "The camp", kind: Camp, at: (0, 0), adjacent: ["road"], fire: {fire}, fuel: {fuel}),
        (id: "road", name: "The road", kind: Road, at: (0, 1), adjacent: []),
    ],
    commanders: [
        (id: "zhou", name: "Zhou", side: "south", leadership: 5, zone: "road", playable: true),
        (id: "cao", name: "Cao", side: "north", leadership: 5, zone: "camp"),
    ],
    units: [
        (id: "foot", name: "Southern foot", side: "south", kind: MingFoot, men: 1000, quality: 0.5, morale: 60, zone: "road"),
        (id: "camp-foot", name: "Northern foot", side: "north", kind: MingFoot, men: 10000, quality: 0.5, morale: 70, zone: "camp"),
    ],
    endings: [(id: "end", title: "End", when: Never, text: "", summary: "")],
    rules: {{"wind_drift": 0.0, {rules}}},
)"#
    )
}

#[test]
fn fire_kills_the_men_in_a_burning_zone_at_its_rate_per_quarter_hour() {
    // Fuel enough for the whole test: the fire stays at 1.
    let scene = parse(&camp_on_fire(
        1.0,
        1.0,
        r#""fire_casualties": 0.1, "fire_burn": 0.0"#,
    ));
    let mut battle = Battle::new(&scene, 1);
    let entries = battle.step();
    let burned: u32 = entries
        .iter()
        .filter_map(|e| match e {
            Entry::Burned { zone: 0, men, .. } => Some(*men),
            _ => None,
        })
        .sum();
    assert_eq!(burned, 1000, "a tenth of 10,000 in a full blaze in one 刻");
    let state = battle.state();
    assert_eq!(state.units[1].men, 9000);
    assert_eq!(state.units[0].men, 1000, "the road does not burn");
    // The same rule over a two-hour turn: eight 刻 of it.
    let long = camp_on_fire(1.0, 1.0, r#""fire_casualties": 0.1, "fire_burn": 0.0"#)
        .replace("turn_minutes: 15", "turn_minutes: 120");
    let scene = parse(&long);
    let mut battle = Battle::new(&scene, 1);
    battle.step();
    let men = battle.state().units[1].men;
    let expected = 10000.0 * 0.9f64.powi(8);
    assert!(
        (f64::from(men) - expected).abs() < 0.02 * expected,
        "{men} against {expected}"
    );
    // Off (the shipped rules): fire kills no one.
    let scene = parse(&camp_on_fire(1.0, 1.0, ""));
    let mut battle = Battle::new(&scene, 1);
    let entries = battle.step();
    assert!(!entries.iter().any(|e| matches!(e, Entry::Burned { .. })));
    assert_eq!(battle.state().units[1].men, 10000);
}

#[test]
fn the_fires_dead_are_told_and_shake_the_men() {
    // The player's own foot in the blaze (the enemy's dead in thick smoke
    // would not be seen), the enemy out on the road; he stands with his
    // men (from the road, the smoke hides them: their word would come by
    // a rider, later).
    let source = camp_on_fire(1.0, 1.0, r#""fire_casualties": 0.1, "fire_burn": 0.0"#)
        .replace(r#"morale: 60, zone: "road""#, r#"morale: 60, zone: "camp""#)
        .replace(r#"morale: 70, zone: "camp""#, r#"morale: 70, zone: "road""#)
        .replace(
            r#"leadership: 5, zone: "road", playable"#,
            r#"leadership: 5, zone: "camp", playable"#,
        );
    let scene = parse(&source);
    let en = transcript(&scene, 1, Locale::En, "next\n");
    assert!(
        en.contains("The fire at the camp kills 100 of your men."),
        "{en}"
    );
    let zh = transcript(&scene, 1, Locale::ZhHans, "next\n");
    assert!(zh.contains("大火，我军一百人被烧死"), "{zh}");
    // Losses to fire count as losses for morale.
    let mut battle = Battle::new(&scene, 1);
    battle.step();
    let morale = battle.state().units[0].morale.value;
    assert!(morale < 50.0, "a tenth burned shakes them: {morale}");
}

#[test]
fn a_spark_dies_out_and_a_fire_without_fuel_burns_down() {
    // A spark below `fire_out_below` goes out at once, fuel or no fuel.
    let scene = parse(&camp_on_fire(0.05, 1.0, r#""fire_out_below": 0.1"#));
    let mut battle = Battle::new(&scene, 1);
    let entries = battle.step();
    assert_eq!(battle.state().zones[0].burning.fire, 0.0);
    assert!(
        entries
            .iter()
            .any(|e| matches!(e, Entry::FireOut { zone: 0 }))
    );
    // Without the rule the spark burns on while the fuel lasts.
    let scene = parse(&camp_on_fire(0.05, 1.0, ""));
    let mut battle = Battle::new(&scene, 1);
    for _ in 0..10 {
        battle.step();
    }
    assert!(battle.state().zones[0].burning.fire > 0.0);
    // A full fire eats its fuel, then dies down past the threshold.
    let scene = parse(&camp_on_fire(1.0, 0.5, r#""fire_out_below": 0.1"#));
    let mut battle = Battle::new(&scene, 1);
    let mut out_at = None;
    for turn in 1..=20 {
        battle.step();
        if battle.state().zones[0].burning.fire == 0.0 {
            out_at = Some(turn);
            break;
        }
    }
    let out_at = out_at.expect("the fire burns out");
    assert!((3..=8).contains(&out_at), "out at turn {out_at}");
}

// --- Water ----------------------------------------------------------------

const WATER: &str = "Water, boats: 600.0, depth_m: 20.0";

#[test]
fn open_water_is_crossed_at_the_boats_pace_whatever_its_depth() {
    let units = r#"(id: "foot", name: "Southern foot", side: "south", kind: MingFoot, men: 2400, quality: 0.5, morale: 60, zone: "south-bank", order: MoveTo("north-bank")),
        (id: "horse", name: "Northern horse", side: "north", kind: BannerCavalry, men: 100, quality: 0.7, morale: 70, zone: "north-bank", present: false)"#;
    let scene = parse(&river(WATER, units, "", r#""wind_drift": 0.0"#, ""));
    let mut battle = Battle::new(&scene, 1);
    let mut across = None;
    for turn in 1..=12 {
        let entries = battle.step();
        assert!(!entries.iter().any(|e| matches!(e, Entry::Trampled { .. })));
        if battle.state().units[0].location.zone() == 2 {
            across = Some(turn);
            break;
        }
    }
    // A step into the water, then 2,400 men at 600 a 刻: four more.
    assert_eq!(across, Some(5));
}

#[test]
fn men_lost_in_a_press_for_the_boats_drown() {
    // Routing men on water with too few boats: the crush drowns them, and
    // the telling says so.
    let units = r#"(id: "foot", name: "Southern foot", side: "south", kind: MingFoot, men: 8000, quality: 0.3, morale: 5, zone: "river"),
        (id: "horse", name: "Northern horse", side: "north", kind: BannerCavalry, men: 3000, quality: 0.7, morale: 90, zone: "north-bank", order: MoveTo("river"))"#;
    let source = river(WATER, units, "", r#""wind_drift": 0.0"#, "");
    let source = source.replace(
        r#"(id: "south", name: "Southerners", colour: Red)"#,
        r#"(id: "south", name: "Southerners", colour: Red, retreat: "south-bank")"#,
    );
    let scene = parse(&source);
    let en = transcript(&scene, 1, Locale::En, &"next\n".repeat(6));
    assert!(en.contains("drown"), "{en}");
    assert!(!en.contains("trampled"), "{en}");
    let zh = transcript(&scene, 1, Locale::ZhHans, &"next\n".repeat(6));
    assert!(zh.contains("落水溺死"), "{zh}");
    assert!(!zh.contains("践踏"), "{zh}");
}

#[test]
fn water_needs_boats_and_boats_need_water() {
    let said = problems(&river("Water, depth_m: 20.0", FOOT, "", "", ""));
    assert!(said.contains("has no boats"), "{said}");
    assert!(said.contains("water.ron:"), "positioned: {said}");
    let said = problems(&river(
        "Ford, width_m: 100.0, depth_m: 0.5, boats: 300.0",
        FOOT,
        "",
        "",
        "",
    ));
    assert!(said.contains("`boats` is for open water"), "{said}");
    // SideCrossed counts men over water too.
    parse(&river(
        WATER,
        FOOT,
        r#"(id: "over", when: SideCrossed(side: "south", zone: "river", cmp: AtLeast(1.0)), effects: [SetFlag("over")])"#,
        "",
        "",
    ));
}

// --- Kinds of zone as data ------------------------------------------------

/// `source` with the scene's own kinds of zone declared before its rules.
fn with_zone_kinds(source: &str, kinds: &str) -> String {
    source.replacen(
        "    rules: {",
        &format!("    zone_kinds: {{{kinds}}},\n    rules: {{"),
        1,
    )
}

const FERRY: &str = r#"Ferry: (crossing: Boats, lost: Drowned, mark: "~", legend: {"en": "ferry", "zh-Hans": "渡船"})"#;

#[test]
fn a_scene_declares_its_own_kinds_of_zone_and_they_do_what_they_say() {
    // A ferry is crossed at its boats' pace, like open water.
    let units = r#"(id: "foot", name: "Southern foot", side: "south", kind: MingFoot, men: 2400, quality: 0.5, morale: 60, zone: "south-bank", order: MoveTo("north-bank")),
        (id: "horse", name: "Northern horse", side: "north", kind: BannerCavalry, men: 100, quality: 0.7, morale: 70, zone: "north-bank", present: false)"#;
    let source = river(
        "Ferry, boats: 600.0, depth_m: 20.0",
        units,
        "",
        r#""wind_drift": 0.0"#,
        "",
    );
    let scene = parse(&with_zone_kinds(&source, FERRY));
    let mut battle = Battle::new(&scene, 1);
    let across = (1..=12).find(|_| {
        battle.step();
        battle.state().units[0].location.zone() == 2
    });
    assert_eq!(
        across,
        Some(5),
        "a step onto the ferry, then 2,400 men at 600 a 刻"
    );
    // Its mark is drawn and said in the legend, in both languages.
    let en = transcript(&scene, 1, Locale::En, "map\n");
    assert!(en.contains("~ ferry"), "{en}");
    assert!(
        en.contains("[~") || en.contains(" ~"),
        "the ferry's box shows its mark: {en}"
    );
    let zh = transcript(&scene, 1, Locale::ZhHans, "map\n");
    assert!(zh.contains("~ 渡船"), "{zh}");

    // A causeway through a marsh is waded at its width, and the men lost
    // in a press on it drown: a kind may take any crossing and any death.
    let units = r#"(id: "foot", name: "Southern foot", side: "south", kind: MingFoot, men: 8000, quality: 0.3, morale: 5, zone: "river"),
        (id: "horse", name: "Northern horse", side: "north", kind: BannerCavalry, men: 3000, quality: 0.7, morale: 90, zone: "north-bank", order: MoveTo("river"))"#;
    let source = river(
        "Causeway, width_m: 3.0, length_m: 400.0, depth_m: 0.5",
        units,
        "",
        r#""wind_drift": 0.0"#,
        "",
    )
    .replace(
        r#"(id: "south", name: "Southerners", colour: Red)"#,
        r#"(id: "south", name: "Southerners", colour: Red, retreat: "south-bank")"#,
    );
    let causeway = r#"Causeway: (crossing: Afoot, lost: Drowned, mark: "≡", legend: {"en": "causeway", "zh-Hans": "堤道"})"#;
    let scene = parse(&with_zone_kinds(&source, causeway));
    let en = transcript(&scene, 1, Locale::En, &"next\n".repeat(6));
    assert!(en.contains("drown"), "{en}");
    assert!(!en.contains("trampled"), "{en}");
    // The same scene with the causeway's dead trampled, as in a ford.
    let trampled = causeway.replace("lost: Drowned, ", "");
    let scene = parse(&with_zone_kinds(&source, &trampled));
    let en = transcript(&scene, 1, Locale::En, &"next\n".repeat(6));
    assert!(en.contains("trampled"), "{en}");
    assert!(!en.contains("drown"), "{en}");
}

#[test]
fn a_zone_kind_unknown_or_without_what_it_needs_is_refused_where_it_is_written() {
    let scene_kinds =
        |water: &str, kinds: &str| with_zone_kinds(&river(water, FOOT, "", "", ""), kinds);
    // A misspelt kind: the scene's own kinds are among those offered.
    let said = problems(&scene_kinds("Ferri, boats: 600.0", FERRY));
    assert!(said.contains("unknown zone kind `Ferri`"), "{said}");
    assert!(said.contains("did you mean `Ferry`?"), "{said}");
    assert!(
        said.contains("water.ron:7:"),
        "positioned at the zone: {said}"
    );
    // A crossing by boat with no boats; afoot with no width.
    let said = problems(&scene_kinds("Ferry", FERRY));
    assert!(said.contains("Ferry `river` has no boats"), "{said}");
    let said = problems(&scene_kinds("Causeway", r#"Causeway: (crossing: Afoot)"#));
    assert!(said.contains("Causeway `river` has no width"), "{said}");
    // A mark of two characters, a mark nobody says in the legend.
    let said = problems(&scene_kinds(
        "Marsh",
        r#"Marsh: (mark: "~~", legend: "marsh")"#,
    ));
    assert!(
        said.contains("zone kind `Marsh`: its `mark` \"~~\" is not one character"),
        "{said}"
    );
    let said = problems(&scene_kinds("Marsh", r#"Marsh: (mark: "%")"#));
    assert!(said.contains("its mark \"%\" has no `legend`"), "{said}");
    assert!(said.contains("water.ron:"), "positioned: {said}");
    // A mark a shipped kind already says needs no legend of its own.
    parse(&scene_kinds("Marsh", r#"Marsh: (mark: "≈")"#));
    // SideCrossed takes a zone of any kind that is a crossing, and no other.
    let crossed = r#"(id: "over", when: SideCrossed(side: "south", zone: "river", cmp: AtLeast(1.0)), effects: [SetFlag("over")])"#;
    parse(&with_zone_kinds(
        &river("Ferry, boats: 600.0", FOOT, crossed, "", ""),
        FERRY,
    ));
    let said = problems(&with_zone_kinds(
        &river("Marsh", FOOT, crossed, "", ""),
        "Marsh: ()",
    ));
    assert!(said.contains("but `river` is a Marsh"), "{said}");
}

// --- Secrets ------------------------------------------------------------------

#[test]
fn a_secret_names_a_flag_and_sides_of_the_scene_and_a_belief_that_is_a_chance() {
    let events = r#"(id: "letter", when: Always, effects: [SetFlag("feigned")])"#;
    let with = |secrets: &str| {
        river(WATER, FOOT, events, "", "").replacen(
            "    rules: {",
            &format!("    secrets: [{secrets}],\n    rules: {{"),
            1,
        )
    };
    parse(&with(
        r#"(id: "feigned", hidden_from: ["north"], belief: 0.3)"#,
    ));
    let said = problems(&with(
        r#"(id: "feigend", hidden_from: ["north"], belief: 0.3)"#,
    ));
    assert!(
        said.contains("unknown flag `feigend`") && said.contains("did you mean \"feigned\"?"),
        "{said}"
    );
    assert!(said.contains("water.ron:"), "positioned: {said}");
    let said = problems(&with(
        r#"(id: "feigned", hidden_from: ["nort"], belief: 0.3)"#,
    ));
    assert!(
        said.contains("`nort`") && said.contains("did you mean \"north\"?"),
        "{said}"
    );
    let said = problems(&with(
        r#"(id: "feigned", hidden_from: ["north"], belief: 1.5)"#,
    ));
    assert!(said.contains("`belief` is 1.5, outside 0..=1"), "{said}");
    let said = problems(&with(r#"(id: "feigned", hidden_from: [], belief: 0.5)"#));
    assert!(
        said.contains("secret `feigned` is hidden from no side"),
        "{said}"
    );
}

// --- Precedence -----------------------------------------------------------

#[test]
fn a_guard_with_precedence_gets_through_a_routing_crowd() {
    // 20,000 routing men and a guard of 500 in one narrow ford, making for
    // the north bank. Sharing the ford by room, the guard crawls; first in
    // the queue, it is over in a turn or two.
    let across = |precedence: u32| {
        let units = format!(
            r#"(id: "crowd", name: "The routed", side: "north", kind: MingFoot, men: 20000, quality: 0.3, morale: 5, zone: "river"),
        (id: "guard", name: "The guard", side: "north", kind: MingFoot, men: 500, quality: 0.9, morale: 90, zone: "river", order: MoveTo("north-bank"), precedence: {precedence}),
        (id: "foot", name: "Southern foot", side: "south", kind: MingFoot, men: 500, quality: 0.5, morale: 60, zone: "south-bank")"#
        );
        let source = river(
            "Ford, width_m: 4.0, depth_m: 0.5",
            &units,
            "",
            r#""wind_drift": 0.0, "trample_rate": 0.0"#,
            "",
        )
        .replace(
            r#"(id: "north", name: "Northerners", colour: Yellow)"#,
            r#"(id: "north", name: "Northerners", colour: Yellow, retreat: "north-bank")"#,
        );
        let scene = parse(&source);
        let mut battle = Battle::new(&scene, 1);
        (1..=30).find(|_| {
            battle.step();
            battle.state().units[1].location.zone() == 2
        })
    };
    let shared = across(0);
    let first = across(1);
    assert!(first.is_some_and(|t| t <= 2), "with precedence: {first:?}");
    assert!(shared.is_none_or(|t| t > 5), "sharing the ford: {shared:?}");
    let said = problems(&river(
        "Ford, width_m: 100.0, depth_m: 0.5",
        r#"(id: "foot", name: "Southern foot", side: "south", kind: MingFoot, men: 2000, quality: 0.5, morale: 60, zone: "south-bank", precedence: 12)"#,
        "",
        "",
        "",
    ));
    assert!(said.contains("precedence"), "{said}");
}

// --- Names ----------------------------------------------------------------

#[test]
fn a_sides_name_is_said_with_the_authors_article() {
    // A side named with its article, one that takes none, and one the
    // engine puts "the" before.
    let units = r#"(id: "foot", name: "Southern foot", side: "south", kind: MingFoot, men: 2000, quality: 0.5, morale: 60, zone: "river"),
        (id: "horse", name: "Northern horse", side: "north", kind: BannerCavalry, men: 2000, quality: 0.7, morale: 70, zone: "north-bank", order: MoveTo("river"))"#;
    let with = |north: &str| {
        let source = river(
            "Ford, width_m: 100.0, depth_m: 0.5",
            units,
            "",
            r#""wind_drift": 0.0"#,
            "",
        )
        .replace(
            r#"(id: "north", name: "Northerners", colour: Yellow)"#,
            &format!("(id: \"north\", {north}, colour: Yellow)"),
        );
        transcript(&parse(&source), 1, Locale::En, &"next\n".repeat(4))
    };
    let own_article = with(r#"name: "the Allies""#);
    assert!(
        !own_article.to_lowercase().contains("the the"),
        "{own_article}"
    );
    assert!(
        own_article.contains("the Allies") || own_article.contains("The Allies"),
        "{own_article}"
    );
    // At the head of a line (the status table, the after-action lines) it
    // is capitalised like a sentence's first word.
    let source = river(
        "Ford, width_m: 100.0, depth_m: 0.5",
        units,
        "",
        r#""wind_drift": 0.0"#,
        "",
    )
    .replace(
        r#"(id: "south", name: "Southerners", colour: Red)"#,
        r#"(id: "south", name: "the Southerners", colour: Red)"#,
    );
    let status = transcript(&parse(&source), 1, Locale::En, "status\n");
    assert!(status.contains("The Southerners · your side"), "{status}");
    let none = with(r#"name: "Cao Cao's army", article: false"#);
    assert!(
        !none.contains("the Cao Cao's army") && !none.contains("The Cao Cao's army"),
        "{none}"
    );
    assert!(none.contains("Cao Cao's army"), "{none}");
    let plain = with(r#"name: "Northerners""#);
    assert!(
        plain.contains("the Northerners") || plain.contains("The Northerners"),
        "{plain}"
    );
}

// --- Arrivals beyond the riders' roads --------------------------------------

/// Red Cliffs, seed 3, the novel's line: Liu Bei's foot come onto the
/// Huarong road, beyond the burning fleet and camp, where no rider of Zhou
/// Yu's gets through. Their arrival is in his picture (they stayed "not on
/// the field" before, and the ending counted the allies without them: "0 men
/// lost, 21,000 still in the field" beside "the allies lost some 5,900
/// men"), and the ending's table counts the side as it musters.
#[test]
fn a_unit_that_arrives_beyond_the_riders_is_in_the_picture_and_the_ending_counts_it() {
    let source = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/examples/red-cliffs.ron"),
    )
    .expect("red-cliffs.ron");
    let scene = parse(&source);
    let (game, outputs) = Game::new(Arc::clone(&scene), "zhou-yu", 3).expect("game");
    let saves = common::temp_dir("arrival");
    let options = Options {
        locale: Locale::En,
        style: Style {
            colour: false,
            columns: 100,
        },
        saves_dir: saves.to_path_buf(),
    };
    let mut out: Vec<u8> = Vec::new();
    {
        let mut session = Session::new(game, options, vec![Arc::clone(&scene)], &mut out);
        session.opening();
        session.show(&outputs);
        let script =
            "1\nwait\n1\nwait\nwait\nwait\n1\nwait\nstatus\nwait\nwait\nwait\nwait\nwait\nwait\n";
        session.run(&mut xiaoling::repl::Piped::new(script.as_bytes()));
    }
    let text = String::from_utf8(out).expect("utf-8 transcript");
    assert!(
        text.contains("Liu Bei's foot come up at the Huarong road"),
        "the line reaches the arrival:\n{text}"
    );
    let status = text.split("> status").nth(1).expect("status shown");
    let status = status.split("\n> ").next().unwrap_or(status);
    assert!(
        status.contains("Liu Bei's foot"),
        "status after the arrival:\n{status}"
    );
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("The allies: "))
        .unwrap_or_else(|| panic!("the ending's own line:\n{text}"));
    assert!(!line.contains(": 0 men lost"), "{line}");
    assert!(!line.contains("21,000 still"), "{line}");
}
