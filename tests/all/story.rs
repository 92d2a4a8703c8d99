//! The story as the player reads it: point of view, hidden actions, text
//! variants and placeholders, the composed chronicle, and `next N` / `wait`.
//! Played on a small two-sided scene written here, so the tests do not move
//! when the shipped battles are rewritten.

use crate::common;

use std::sync::Arc;
use xiaoling::scene::{self, Locale, Scene};
use xiaoling::story::Game;

/// Two playable sides at a ford. The Ming mine the ford in secret at once
/// (`mine`); the Jin see it only if a Jin unit stands where the ford can be
/// seen and the smoke is thin. `smoke` fills the ford so they cannot.
const SCENE: &str = r#"(
    meta: (id: "ford", title: "Ford", date: "", place: "", intro: "Two armies at a ford.",
           turn_minutes: 15, start_minute: 960, max_turns: 8, timeout_ending: "night",
           playable: ["zhang", "khan"]),
    sides: [(id: "ming", name: "Ming", colour: Red), (id: "jin", name: "Jin", colour: Yellow)],
    zones: [
        (id: "south-bank", name: "the south bank", kind: Bank, at: (0, 0), adjacent: ["ford"]),
        (id: "ford", name: "the ford", kind: Ford, at: (0, 1), adjacent: ["north-bank"],
         width_m: 300, length_m: 500, depth_m: 1.0),
        (id: "north-bank", name: "the north bank", kind: Bank, at: (0, 2), adjacent: ["tent"]),
        (id: "tent", name: "the tent", kind: Camp, at: (0, 3), adjacent: []),
    ],
    commanders: [
        (id: "zhang", name: "Zhang", side: "ming", leadership: 5, zone: "south-bank", playable: true, drums: true),
        (id: "khan", name: "Khan", side: "jin", leadership: 9, zone: "tent", playable: true, drums: true),
    ],
    units: [
        (id: "ming-foot", name: "Ming foot", side: "ming", kind: MingFoot, men: 4000, quality: 0.5, morale: 60, zone: "south-bank"),
        (id: "banner", name: "the Plain Blue", side: "jin", kind: BannerCavalry, men: 3000, quality: 0.7, morale: 70, zone: "tent"),
    ],
    turning_points: [
        (
            id: "plan",
            role: "zhang",
            when: Always,
            situation: "You could mine the ford tonight.",
            options: [
                (
                    id: "mine",
                    text: "Lay powder under the ford.",
                    effects: [SetFlag("mined")],
                    narration: "Your sappers wade out with the kegs.",
                    perceived: [
                        (when: Sees(side: "jin", zone: "ford"), text: "Men are moving in the water below the ford."),
                    ],
                    historical: true,
                ),
                (
                    id: "wait",
                    text: "Wait.",
                    effects: [SetFlag("waited")],
                    narration: "You wait.",
                    perceived: "The Ming camp is quiet.",
                ),
            ],
        ),
        (
            id: "march",
            role: "khan",
            when: Turn(AtLeast(1)),
            situation: "The ford lies open before you.",
            options: [
                (
                    id: "cross",
                    text: "Cross.",
                    effects: [Order(target: Unit("banner"), order: MoveTo("north-bank"))],
                    narration: "You lead the Plain Blue down to the river; {men:jin} men follow you.",
                    perceived: "Dust rises beyond the north bank: the Jin are coming.",
                    historical: true,
                ),
                (
                    id: "stay",
                    text: "Stay.",
                    effects: [SetFlag("stayed")],
                    narration: "You stay by your tent.",
                ),
            ],
        ),
    ],
    events: [
        (
            id: "dusk",
            when: Turn(AtLeast(2)),
            text: [
                (when: All([PlayerSide("ming"), Flag("mined")]), text: "At {time} your sappers report the powder is laid."),
                (when: Sees(side: "jin", zone: "ford"), text: "At {time} the Jin scouts look at the ford: {holder:ford} holds it."),
                (text: "Dusk at {time}; {men:ming} Ming and {men:jin} Jin are on the field."),
            ],
            effects: [],
        ),
    ],
    endings: [(id: "night", title: "Night", when: Never,
               text: [(when: All([PlayerSide("ming"), Flag("mined")]), text: "Night falls over a mined ford."), (text: "Night falls.")],
               summary: "The Jin lost {losses:jin} men.")],
)"#;

fn scene() -> Arc<Scene> {
    let rules = scene::parse_rules("rules.ron", scene::EMBEDDED_RULES.1).expect("rules");
    Arc::new(
        scene::parse_scene("ford.ron", SCENE, &rules).unwrap_or_else(|problems| {
            panic!(
                "{}",
                problems.iter().map(ToString::to_string).collect::<String>()
            )
        }),
    )
}

/// Plays the commands (one per line) as `role` and returns the transcript.
fn play_lines(scene: Arc<Scene>, role: &str, locale: Locale, lines: &str) -> String {
    common::play_in(Arc::clone(&scene), vec![scene], role, 1, locale, lines)
}

#[test]
fn the_hidden_mine_never_reaches_the_other_side() {
    let scene = scene();
    // As the Khan: Zhang mines the ford (the policy takes the novel's option),
    // but no Jin unit can see the ford, so nothing of it is told.
    let khan = play_lines(
        Arc::clone(&scene),
        "khan",
        Locale::En,
        "\n\n1\n\n\n\n\n\n\n\n",
    );
    for secret in [
        "sappers",
        "powder",
        "kegs",
        "mine",
        "Lay powder",
        "You could mine",
    ] {
        assert!(
            !khan.contains(secret),
            "the Khan was told `{secret}`:\n{khan}"
        );
    }
    // The other side's choice is not told in the second person.
    assert!(!khan.contains("You wait"), "{khan}");
    // As Zhang he reads his own narration and the report.
    let zhang = play_lines(
        Arc::clone(&scene),
        "zhang",
        Locale::En,
        "1\n\n\n\n\n\n\n\n\n",
    );
    assert!(
        zhang.contains("Your sappers wade out with the kegs."),
        "{zhang}"
    );
    assert!(
        zhang.contains("your sappers report the powder is laid"),
        "{zhang}"
    );
    assert!(zhang.contains("Night falls over a mined ford."), "{zhang}");
    // ...and of the Khan's choice only what he perceives, never "You lead".
    assert!(
        zhang.contains("Dust rises beyond the north bank"),
        "{zhang}"
    );
    assert!(!zhang.contains("You lead the Plain Blue"), "{zhang}");
}

#[test]
fn text_variants_follow_the_world_and_placeholders_are_the_worlds_numbers() {
    let scene = scene();
    // Zhang waits instead: the mined variants do not hold.
    let zhang = play_lines(
        Arc::clone(&scene),
        "zhang",
        Locale::En,
        "2\n\n\n\n\n\n\n\n\n",
    );
    assert!(
        zhang.contains("The Jin camp") || !zhang.contains("mined ford"),
        "{zhang}"
    );
    assert!(zhang.contains("Night falls."), "{zhang}");
    assert!(!zhang.contains("powder is laid"), "{zhang}");
    // The default variant's placeholders, filled from what Zhang knows
    // when told: all 4,000 of his Ming still stand at dusk (turn 2, 16:30).
    assert!(
        zhang.contains("Dusk at 16:30; 4,000 Ming and a few thousand Jin are on the field."),
        "{zhang}"
    );
    // Zhang has seen nothing of the Jin: he counts his own men, and knows
    // the enemy only by repute (his 3,000 are "a few thousand").
    assert!(
        zhang.contains("The Jin lost an unknown number of men."),
        "{zhang}"
    );
    // In Chinese the clock is the period's.
    let zh = play_lines(
        Arc::clone(&scene),
        "zhang",
        Locale::ZhHans,
        "2\n\n\n\n\n\n\n\n\n",
    );
    assert!(zh.contains("Dusk at 申正二刻（16:30）"), "{zh}");
    // The Khan's narration fills {men:jin} from the world.
    let khan = play_lines(scene, "khan", Locale::En, "\n1\n\n\n");
    assert!(
        khan.contains("You lead the Plain Blue down to the river; 3,000 men follow you."),
        "{khan}"
    );
}

fn check(source: &str) -> Vec<String> {
    let rules = scene::parse_rules("rules.ron", scene::EMBEDDED_RULES.1).expect("rules");
    match scene::parse_scene("ford.ron", source, &rules) {
        Ok(_) => Vec::new(),
        Err(problems) => problems
            .iter()
            .map(|d| format!("{}:{} {}", d.line, d.column, d.message))
            .collect(),
    }
}

#[test]
fn the_checker_catches_bad_placeholders_second_person_and_reader_conditions() {
    assert!(check(SCENE).is_empty());
    let bad_placeholder = SCENE.replace("{holder:ford}", "{holder:fjord}");
    let problems = check(&bad_placeholder);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("placeholder `{holder:fjord}` names no zone"),
        "{problems:?}"
    );
    let line = SCENE
        .lines()
        .position(|l| l.contains("{holder:ford}"))
        .expect("line")
        + 1;
    assert!(problems[0].starts_with(&format!("{line}:")), "{problems:?}");

    let unknown = SCENE.replace("{losses:jin}", "{dead:jin}");
    assert!(
        check(&unknown)
            .iter()
            .any(|p| p.contains("unknown placeholder `{dead:jin}`")),
        "{:?}",
        check(&unknown)
    );

    // An event every role reads may not speak to "you"…
    let you = SCENE.replace(
        "(text: \"Dusk at {time};",
        "(text: \"You see dusk at {time};",
    );
    let problems = check(&you);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("is told to every role but speaks to the reader as \"you\"")),
        "{problems:?}"
    );
    // …unless it is quoted speech.
    let quoted = SCENE.replace(
        "(text: \"Dusk at {time};",
        "(text: \"'Dusk,' says a scout: \\\"you can rest.\\\" At {time};",
    );
    assert!(check(&quoted).is_empty(), "{:?}", check(&quoted));

    // The reader's conditions are for text only.
    let in_event = SCENE.replace("when: Turn(AtLeast(2)),", "when: PlayerSide(\"ming\"),");
    assert!(
        check(&in_event)
            .iter()
            .any(|p| p.contains("`PlayerSide` is for story text only")),
        "{:?}",
        check(&in_event)
    );
    let no_role = SCENE.replace("PlayerSide(\"ming\")", "Playing(\"zuo\")");
    assert!(
        check(&no_role)
            .iter()
            .any(|p| p.contains("unknown playable role `zuo`")),
        "{:?}",
        check(&no_role)
    );
}

#[test]
fn next_n_passes_turns_and_wait_stops_for_what_needs_the_player() {
    let scene = scene();
    // `next 5` stops at the dusk event of turn 2 and says why; then
    // `next 3` passes three quiet turns, told as one run.
    let zhang = play_lines(
        Arc::clone(&scene),
        "zhang",
        Locale::En,
        "2\nnext 5\nnext 3\n",
    );
    assert!(
        zhang.contains("[16:30] > next 3"),
        "next 5 stopped at dusk:\n{zhang}"
    );
    assert!(
        zhang.contains("── Turns 3–5 · 16:45 to 17:15"),
        "quiet turns folded:\n{zhang}"
    );
    // The dusk event at turn 2 stops `wait` and says so in its text.
    let waited = play_lines(Arc::clone(&scene), "zhang", Locale::En, "2\nwait\n");
    assert!(waited.contains("Dusk at 16:30"), "{waited}");
    assert!(waited.contains("(Stopped: "), "{waited}");
    assert!(
        !waited.contains("Turn 3"),
        "wait stopped at the event:\n{waited}"
    );
    // A bad count is a clear line, not a turn.
    let bad = play_lines(scene, "zhang", Locale::En, "2\nnext lots\n");
    assert!(bad.contains("`next` takes a number of turns"), "{bad}");
    assert!(!bad.contains("Turn 1"), "{bad}");
}

/// The ford scene with the dusk event replaced by two volleys of no text,
/// which no other rule stops a run for: 2 % of the Ming foot at turn 2,
/// 10 % at turn 4; `rules` put in as written.
fn volleys(rules: &str) -> Arc<Scene> {
    let events = r#"    events: [
        (id: "volley", when: Turn(AtLeast(2)), effects: [Casualties(target: Unit("ming-foot"), share: 0.02)]),
        (id: "slaughter", when: Turn(AtLeast(4)), effects: [Casualties(target: Unit("ming-foot"), share: 0.1)]),
    ],
"#;
    with_events(SCENE, events, rules)
}

/// `source` with its events replaced by `events` and `rules` added.
fn with_events(source: &str, events: &str, rules: &str) -> Arc<Scene> {
    let start = source.find("    events: [").expect("events");
    let end = source.find("    endings: [").expect("endings");
    let source = format!(
        "{}{events}    rules: {{{rules}}},\n{}",
        &source[..start],
        &source[end..]
    );
    let shipped = scene::parse_rules("rules.ron", scene::EMBEDDED_RULES.1).expect("rules");
    Arc::new(
        scene::parse_scene("ford.ron", &source, &shipped).unwrap_or_else(|problems| {
            panic!(
                "{}",
                problems.iter().map(ToString::to_string).collect::<String>()
            )
        }),
    )
}

#[test]
fn wait_and_next_n_stop_when_a_turn_costs_more_than_stop_losses() {
    // Turn 2 costs 80 of 4,000 (2 %): the run goes on; by turn 4 the run
    // has cost 472 (12 %, over the shipped 5 %): it stops there and says so,
    // counting the run's turns, not only the last.
    let waited = play_lines(volleys(""), "zhang", Locale::En, "2\nwait\n");
    assert!(waited.contains("You lose 80 men."), "{waited}");
    assert!(
        waited.contains("(Stopped: you lost 472 men in these 4 turns, 12 % of your army.)"),
        "{waited}"
    );
    assert!(!waited.contains("Turn 5"), "stopped at turn 4:\n{waited}");
    assert_eq!(
        waited.matches("(Stopped").count(),
        1,
        "only the heavy loss stops the run:\n{waited}"
    );
    let next = play_lines(volleys(""), "zhang", Locale::En, "2\nnext 7\n");
    assert!(next.contains("(Stopped: you lost 472 men"), "{next}");
    assert!(!next.contains("Turn 5"), "{next}");
    // In Chinese, the figures said.
    let zh = play_lines(volleys(""), "zhang", Locale::ZhHans, "2\nwait\n");
    assert!(
        zh.contains("（暂停：这四回合间我军折损") && zh.contains("人，占全军百分之十二。）"),
        "{zh}"
    );
    // A scene that raises the bar to 20 % waits through both.
    let lenient = volleys("\"stop_losses\": 0.2");
    let waited = play_lines(lenient, "zhang", Locale::En, "2\nwait\n");
    assert!(!waited.contains("(Stopped"), "{waited}");
    assert!(waited.contains("Turn 8"), "ran to the end:\n{waited}");
}

/// The ford scene with the Ming foot standing in the ford, blown at turn 2
/// with `share` of those on it.
fn blown_ford(share: f64) -> Arc<Scene> {
    let source = SCENE.replace(
        "men: 4000, quality: 0.5, morale: 60, zone: \"south-bank\"",
        "men: 4000, quality: 0.5, morale: 60, zone: \"ford\"",
    );
    let events = format!(
        "    events: [\n        (id: \"blast\", when: Turn(AtLeast(2)), effects: [Destroy(zone: \"ford\", share: {share})]),\n    ],\n"
    );
    with_events(&source, &events, "")
}

#[test]
fn a_blast_tells_the_player_his_own_dead() {
    let told = play_lines(blown_ford(0.25), "zhang", Locale::En, "2\nnext\nnext\n");
    assert!(
        told.contains("The ford is destroyed, and 1,000 of your men go down with it!"),
        "{told}"
    );
    let zh = play_lines(blown_ford(0.25), "zhang", Locale::ZhHans, "2\nnext\nnext\n");
    assert!(zh.contains("被毁，我军一千人随之罹难！"), "{zh}");
}

#[test]
fn a_unit_with_no_men_left_is_destroyed_and_leaves_the_field() {
    let told = play_lines(
        blown_ford(1.0),
        "zhang",
        Locale::En,
        "2\nnext\nnext\nstatus\norders\norder ming-foot hold\nnext\nstatus\n",
    );
    assert!(
        told.contains("The ford is destroyed, and 4,000 of your men go down with it!"),
        "{told}"
    );
    // Said once, the turn after: destroyed, not shattered.
    assert_eq!(
        told.matches("Ming foot is destroyed: not a man is left.")
            .count(),
        1,
        "{told}"
    );
    assert!(!told.contains("shattered"), "{told}");
    // `status`: where it was last, no men, no morale bar.
    let status: Vec<&str> = told
        .lines()
        .filter(|l| l.contains("destroyed: not a man left"))
        .collect();
    assert_eq!(status.len(), 2, "{told}");
    assert!(
        status.iter().all(|l| l.contains("The south bank")
            && !l.contains('█')
            && !l.contains('░')
            && !l.contains(" 0 ")),
        "{status:?}"
    );
    assert!(
        !told.contains('█'),
        "no morale bar left on the field:\n{told}"
    );
    // No orders for it, and `orders` does not offer it.
    assert!(told.contains("no longer on the field"), "{told}");
    let orders = told
        .split("> orders")
        .nth(1)
        .and_then(|rest| rest.split("> order ming-foot").next())
        .unwrap_or_default();
    assert!(!orders.contains("Ming foot"), "{orders}");
    // In Chinese.
    let zh = play_lines(
        blown_ford(1.0),
        "zhang",
        Locale::ZhHans,
        "2\nnext\nnext\nnext\nstatus\n",
    );
    assert!(zh.contains("全军覆没，无一生还。"), "{zh}");
    assert!(
        zh.contains("全军覆没\n") || zh.ends_with("全军覆没"),
        "{zh}"
    );
}

#[test]
fn status_says_why_a_unit_is_held_up() {
    // A ford three metres wide: the Ming foot takes turns to wade it.
    let narrow = SCENE.replace("width_m: 300", "width_m: 3");
    let scene = with_events(&narrow, "    events: [],\n", "");
    let told = play_lines(
        Arc::clone(&scene),
        "zhang",
        Locale::En,
        "2\norder ming-foot advance north-bank\nnext\nnext\nstatus\n",
    );
    // The line as one, unwrapped.
    let status = told.rsplit("> status").next().unwrap_or_default();
    let status = status.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        status.contains(
            "The ford · 4,000 men · ██████░░░░ 60 steady, wading slowly through deep water"
        ),
        "{told}"
    );
    let zh = play_lines(
        scene,
        "zhang",
        Locale::ZhHans,
        "2\norder ming-foot advance north-bank\nnext\nnext\nstatus\n",
    );
    let status: String = zh
        .rsplit("> status")
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    assert!(status.contains("水深难行，缓缓涉渡"), "{zh}");
}

#[test]
fn a_random_policy_decides_an_opening_turning_point_of_the_side_not_played() {
    // Regression: the policies were set after the opening had settled, so a
    // point with `when: Always` of the side nobody plays was always decided
    // by the novel's choice.
    use xiaoling::story::Policy;
    let scene = scene();
    let options: std::collections::BTreeSet<String> = (0..40)
        .map(|seed| {
            let (game, _) =
                Game::with_policies(Arc::clone(&scene), "khan", seed, Policy::Random, None)
                    .expect("game");
            let (tp, option) = game.story().chosen[0];
            game.scene().turning_points()[tp.idx()].options[option as usize]
                .id
                .clone()
        })
        .collect();
    assert_eq!(
        options.into_iter().collect::<Vec<_>>(),
        ["mine", "wait"],
        "both options of the opening point are taken"
    );
}

/// `simulate` reuses one game: a restarted game must be, output for output
/// and state for state, the game a fresh start with that seed plays.
#[test]
fn a_restarted_game_plays_exactly_as_a_new_one() {
    let scene = xiaoling::scene::load_embedded()
        .expect("scenes")
        .into_iter()
        .find(|s| s.id() == "false-cry")
        .map(Arc::new)
        .expect("false-cry");
    let play = |game: &mut Game, mut outputs: Vec<xiaoling::story::Output>| {
        while !game.is_over() && game.turn() <= scene.meta().max_turns + 5 {
            match game.auto_step() {
                Ok(more) => outputs.extend(more),
                Err(_) => break,
            }
        }
        (format!("{outputs:?}"), game.snapshot(), game.log().to_vec())
    };
    let random = Some(xiaoling::story::Policy::Random);
    let new_game = |seed| {
        Game::with_policies(
            Arc::clone(&scene),
            "zhang-chun",
            seed,
            xiaoling::story::Policy::Random,
            random,
        )
        .expect("game")
    };
    let (mut reused, first) = new_game(100);
    let _ = play(&mut reused, first);
    for seed in 101..106 {
        let restarted = reused.restart(seed);
        let again = play(&mut reused, restarted);
        let (mut fresh, opening) = new_game(seed);
        let fresh = play(&mut fresh, opening);
        assert!(again == fresh, "seed {seed}: a restarted game diverged");
    }
}
