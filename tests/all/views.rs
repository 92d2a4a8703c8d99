//! Every view of every battle, at every width (issue 25): for each shipped
//! battle and role, in English and Chinese, at 40, 60, 80 and 120 columns,
//! a game is played through the REPL session with every view opened after
//! each stretch of turns, and everything printed must hold:
//!
//! - no line wider than the terminal (colour codes take no room);
//! - no closing punctuation at a line's start;
//! - no number split from its unit ("65" / "steady", "3,000" / "men");
//! - at 60 columns and more, `map` is a drawing: boxes joined by roads.

use crate::common;

use std::collections::VecDeque;
use xiaoling::repl::render::Style;
use xiaoling::repl::wrap::{strip_ansi, strip_marks, width};
use xiaoling::repl::{Line, LineSource, Options, Session};
use xiaoling::scene::Locale;
use xiaoling::story::Game;

/// Opens every view, then lets turns pass; answers each choice with its
/// first option; a few rounds, then leaves.
struct Views {
    queue: VecDeque<String>,
    rounds: usize,
}

const VIEWS: &[&str] = &[
    "map",
    "map list",
    "status",
    "orders",
    "why",
    "report",
    "look",
    "log",
    "help",
    "help order",
    "help rally",
    "order nosuch hold",
    "order",
    "saves",
    "save my slot",
    "load nosuch",
    "frobnicate",
];

impl LineSource for Views {
    fn read(&mut self, prompt: &str) -> Line {
        if prompt.contains(" 1-") {
            return Line::Text("1".into());
        }
        if self.queue.is_empty() {
            if self.rounds == 0 {
                return Line::Eof;
            }
            self.rounds -= 1;
            self.queue.extend(VIEWS.iter().map(|v| v.to_string()));
            self.queue.push_back("wait".into());
            self.queue.push_back("next 3".into());
        }
        match self.queue.pop_front() {
            Some(line) => Line::Text(line),
            None => Line::Eof,
        }
    }
    fn echoes(&self) -> bool {
        false
    }
}

fn play(scene_id: &str, role: &str, locale: Locale, columns: usize) -> String {
    let scenes = common::scenes();
    let scene = common::find(&scenes, scene_id);
    let (game, outputs) = Game::new(scene, role, 3).expect("game");
    let saves = common::temp_dir(&format!(
        "views-{scene_id}-{role}-{}-{columns}",
        locale.tag()
    ));
    let options = Options {
        locale,
        style: Style {
            colour: true,
            columns,
        },
        saves_dir: saves.to_path_buf(),
    };
    let mut out: Vec<u8> = Vec::new();
    {
        let mut session = Session::new(game, options, scenes.clone(), &mut out);
        session.opening();
        session.show(&outputs);
        session.run(&mut Views {
            queue: VecDeque::new(),
            rounds: 5,
        });
    }
    String::from_utf8(out).expect("utf-8")
}

/// Words a figure must not be parted from at a line's start.
const UNITS: &[&str] = &["men", "人", "steady", "wavering", "holding", "·", "严整"];

fn check(text: &str, columns: usize, at: &str) {
    let lines: Vec<String> = text.lines().map(|l| strip_marks(&strip_ansi(l))).collect();
    for (i, line) in lines.iter().enumerate() {
        let w = width(line);
        assert!(
            w <= columns,
            "{at}: line {} is {w} columns (> {columns}): {line:?}",
            i + 1
        );
        let start = line.trim_start();
        // The map's mark for a place out of sight is a symbol, not a
        // question mark closing a sentence.
        let unseen = start.starts_with("? ") || start.starts_with("？未见");
        if let Some(first) = start.chars().next() {
            assert!(
                unseen || !common::NO_LINE_START.contains(first),
                "{at}: line {} starts with closing punctuation: {line:?}",
                i + 1
            );
        }
        if let Some(next) = lines.get(i + 1) {
            let end = line.trim_end();
            let next = next.trim_start();
            let ends_in_figure = end.chars().last().is_some_and(|c| c.is_ascii_digit());
            let unit_first = UNITS.iter().any(|u| {
                next.strip_prefix(u)
                    .is_some_and(|rest| rest.is_empty() || !rest.starts_with(char::is_alphabetic))
            });
            assert!(
                !(ends_in_figure && unit_first),
                "{at}: a figure parted from its unit at line {}: {end:?} / {next:?}",
                i + 1
            );
            let bar_end = end.ends_with('█') || end.ends_with('░');
            assert!(
                !(bar_end && next.starts_with(|c: char| c.is_ascii_digit())),
                "{at}: a bar parted from its figure at line {}: {end:?} / {next:?}",
                i + 1
            );
        }
    }
}

/// The map's drawing: the lines between "north ↑" and the first key line.
fn drawings(text: &str) -> Vec<String> {
    let plain = strip_marks(&strip_ansi(text));
    let mut out = Vec::new();
    let mut lines = plain.lines();
    while let Some(line) = lines.next() {
        if line.ends_with("> map") {
            let mut drawing = String::new();
            for line in lines.by_ref() {
                if line.starts_with("Legend") || line.starts_with("图例") {
                    break;
                }
                drawing.push_str(line);
                drawing.push('\n');
            }
            out.push(drawing);
        }
    }
    out
}

#[test]
fn every_view_of_every_battle_fits_every_width_in_both_languages() {
    let scenes = common::scenes();
    for scene in &scenes {
        for role in &scene.meta().playable {
            for locale in [Locale::En, Locale::ZhHans] {
                for columns in [40, 60, 80, 120] {
                    let at = format!(
                        "{} as {role}, {}, {columns} columns",
                        scene.id(),
                        locale.tag()
                    );
                    let text = play(scene.id(), role, locale, columns);
                    check(&text, columns, &at);
                    let maps = drawings(&text);
                    assert!(!maps.is_empty(), "{at}: no map drawn");
                    if columns >= 60 {
                        for map in &maps {
                            assert!(
                                map.contains('─') || map.contains('│'),
                                "{at}: the map draws no road:\n{map}"
                            );
                            assert!(map.contains('['), "{at}: the map draws no place:\n{map}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
#[ignore]
fn show() {
    let scene = std::env::var("SCENE").unwrap_or("false-cry".into());
    let role = std::env::var("ROLE").unwrap_or("huang-taiji".into());
    let cols: usize = std::env::var("COLS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(60);
    let zh = std::env::var("ZH").is_ok();
    let text = play(
        &scene,
        &role,
        if zh { Locale::ZhHans } else { Locale::En },
        cols,
    );
    println!("{}", strip_marks(&strip_ansi(&text)));
}

/// Runs `script` (one command a line) on a new game; the session's game
/// turn after it, and the transcript.
fn turn_after(scene_id: &str, role: &str, seed: u64, script: &str) -> (u32, String) {
    let scenes = common::scenes();
    let scene = common::find(&scenes, scene_id);
    let (game, outputs) = Game::new(scene, role, seed).expect("game");
    let saves = common::temp_dir(&format!("views-undo-{scene_id}-{role}-{seed}"));
    let options = Options {
        locale: Locale::En,
        style: Style {
            colour: false,
            columns: 80,
        },
        saves_dir: saves.to_path_buf(),
    };
    let mut out: Vec<u8> = Vec::new();
    let turn;
    {
        let mut session = Session::new(game, options, scenes.clone(), &mut out);
        session.opening();
        session.show(&outputs);
        session.run(&mut xiaoling::repl::Piped::new(script.as_bytes()));
        turn = session.game().turn();
    }
    (turn, String::from_utf8(out).expect("utf-8"))
}

#[test]
fn undo_takes_back_a_whole_wait_and_redo_gives_it_back() {
    // As Hong Chengchou (seed 1), the first `wait` runs two turns.
    let (turn, text) = turn_after("broken-bridge", "hong-chengchou", 1, "1\nwait\n");
    assert_eq!(turn, 2, "{text}");
    let (turn, text) = turn_after("broken-bridge", "hong-chengchou", 1, "1\nwait\nundo\n");
    assert_eq!(turn, 0, "{text}");
    assert!(text.contains("2 steps"), "{text}");
    let (turn, text) = turn_after(
        "broken-bridge",
        "hong-chengchou",
        1,
        "1\nwait\nundo\nredo\n",
    );
    assert_eq!(turn, 2, "{text}");
    // Redo after a new command has nothing to give back.
    let (turn, text) = turn_after(
        "broken-bridge",
        "hong-chengchou",
        1,
        "1\nwait\nundo\nnext\nredo\n",
    );
    assert_eq!(turn, 1, "{text}");
    assert!(text.contains("Nothing to redo"), "{text}");
}

/// The enemy coming into sight across a river, where none of the player's
/// men stand, is told, and `wait` stops for it (Sarhu as Du Song, seed 23,
/// waiting at the Hun River for the boats: the banners came onto Sarhu hill
/// at 14:00, nothing was said, `wait` ran on through the night, and no
/// choice came while they stood there).
#[test]
fn the_enemy_coming_into_sight_across_the_river_is_told_and_stops_wait() {
    let out = common::play_script("sarhu", "du-song", 23, Locale::En, "next\n2\nwait\nquit\n");
    let told = out
        .find("The Later Jin come into sight at Sarhu hill")
        .unwrap_or_else(|| panic!("the banners on the hill are told:\n{out}"));
    let rest = &out[told..];
    let prompt = rest.find("> ").expect("a prompt after it");
    assert!(
        !rest[..prompt].contains("── Turn"),
        "`wait` stops on the turn they come:\n{out}"
    );
    assert!(
        rest[..prompt].contains("the banners hold Sarhu hill"),
        "Du Song is asked what to do about them:\n{out}"
    );
    // Told once: standing there in plain sight afterwards is told no more.
    let zh = common::play_script(
        "sarhu",
        "du-song",
        23,
        Locale::ZhHans,
        &format!("next\n2\nwait\n1\n{}quit\n", "next\n".repeat(6)),
    );
    assert_eq!(zh.matches("萨尔浒山出现后金旗号").count(), 1, "{zh}");
    assert!(zh.contains("── 二更（22:00）"), "the turns went on: {zh}");
}
