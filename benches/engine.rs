//! The engine's measures (issue 11), with divan: one simulated game, one
//! played turn with its autosave, save, load, start to the first prompt, and
//! loading and running scaled scenes of 1k / 10k / 100k units.
//!
//! Run with `cargo bench --bench engine` (all), or pick by name:
//! `cargo bench --bench engine -- scale`. The million-unit cases are marked
//! ignored (minutes, gigabytes): run them with
//! `cargo bench --bench engine -- --ignored`. Memory per unit is
//! `benches/memory.rs`. Results are in README.md.

mod common;
#[path = "../tests/common/mod.rs"]
mod test_common;

use divan::{Bencher, black_box};
use std::cell::RefCell;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Arc;
use xiaoling::repl::{Options, Session};
use xiaoling::scene::Locale;
use xiaoling::sim::Battle;
use xiaoling::story::{Game, Policy};

fn main() {
    divan::main();
}

/// A folder of the bench's own, removed when it is done with it.
fn temp_dir(name: &str) -> test_common::TempDir {
    test_common::temp_dir(&format!("bench-{name}"))
}

/// A game of false-cry as Zhang Chun, the novel's line, at `turn` with no
/// choice waiting.
fn game_at(turn: u32) -> Game {
    let scene = common::shipped("false-cry");
    let (mut game, _) = Game::with_policies(
        scene,
        "zhang-chun",
        1,
        Policy::Historical,
        Some(Policy::Historical),
    )
    .expect("playable");
    while (game.turn() < turn || game.pending().is_some()) && !game.is_over() {
        game.auto_step().expect("valid");
    }
    game
}

/// A whole game of false-cry, both sides played at random (what `simulate
/// --policy random` runs): play-throughs per second = 1 / this.
#[divan::bench(sample_count = 200)]
fn game_random(bencher: Bencher) {
    let scene = common::shipped("false-cry");
    let mut seed = 0_u64;
    bencher.bench_local(|| {
        seed += 1;
        let (mut game, _) = Game::with_policies(
            Arc::clone(&scene),
            "zhang-chun",
            seed,
            Policy::Random,
            Some(Policy::Random),
        )
        .expect("playable");
        while !game.is_over() && game.turn() <= scene.meta().max_turns + 5 {
            if game.auto_step().is_err() {
                break;
            }
        }
        black_box(game.turn())
    });
}

/// [`game_random`] as `simulate` plays it: one game restarted with each
/// seed, its world and schedule reused, no undo snapshots, no text told.
#[divan::bench(sample_count = 200)]
fn game_random_reused(bencher: Bencher) {
    let scene = common::shipped("false-cry");
    let (mut game, _) = Game::with_policies(
        Arc::clone(&scene),
        "zhang-chun",
        0,
        Policy::Random,
        Some(Policy::Random),
    )
    .expect("playable");
    game.keep_undo(false);
    game.tell_story(false);
    play_reused(bencher, &mut game, scene.meta().max_turns);
}

/// Plays `game` to its end once per sample, restarted with the next seed
/// each time (at most `max_turns` + 5 turns).
fn play_reused(bencher: Bencher, game: &mut Game, max_turns: u32) {
    let mut seed = 0_u64;
    bencher.bench_local(|| {
        seed += 1;
        black_box(game.restart(seed));
        while !game.is_over() && game.turn() <= max_turns + 5 {
            if game.auto_step().is_err() {
                break;
            }
        }
        black_box(game.turn())
    });
}

/// A whole game with both sides greedy, as `simulate --policy greedy` plays
/// it (one game restarted with each seed, no undo, no text told; the
/// look-ahead's copy kept from game to game): milliseconds per greedy game
/// (issue 26 asks at most 2 ms). A battle per argument, played as its first
/// role.
#[divan::bench(args = ["false-cry", "sarhu"], sample_count = 10, sample_size = 1)]
fn game_greedy_reused(bencher: Bencher, battle: &str) {
    let scene = common::shipped(battle);
    let role = scene.commanders()[scene.resolved().roles[0].idx()]
        .id
        .clone();
    let (mut game, _) = Game::with_policies(
        Arc::clone(&scene),
        &role,
        0,
        Policy::Historical,
        Some(Policy::Historical),
    )
    .expect("playable");
    game.set_policies(Policy::Greedy, Some(Policy::Greedy));
    game.keep_undo(false);
    game.tell_story(false);
    play_reused(bencher, &mut game, scene.meta().max_turns);
}

/// One turn at the prompt (Enter at turn 10 of the novel's line), through
/// the REPL session: the turn, the chronicle rendered, the autosave handed
/// to the session's writer thread (what the player waits for; the file is
/// written meanwhile, and waited for when the session is dropped, untimed).
#[divan::bench(sample_count = 50, sample_size = 1)]
fn played_turn_with_autosave(bencher: Bencher) {
    let dir = temp_dir("turn");
    let scene = common::shipped("false-cry");
    bencher
        .with_inputs(|| {
            let sink: &'static mut dyn Write = Box::leak(Box::new(std::io::sink()));
            let options = Options {
                locale: Locale::En,
                style: xiaoling::repl::render::Style {
                    colour: false,
                    columns: 80,
                },
                saves_dir: dir.to_path_buf(),
            };
            Session::new(game_at(10), options, vec![Arc::clone(&scene)], sink)
        })
        .bench_local_values(|mut session| {
            session.handle("");
            session
        });
    let _ = std::fs::remove_dir_all(&dir);
}

/// One played turn and the whole of its autosave, both threads (issue 26):
/// Enter at turn 11 of the novel's line through the REPL session, then
/// waited for until the writer thread has written the turn's autosave (its
/// journal records and its slot, read back and checked: waiting writes the
/// slot, which between turns is written only every
/// `save::CHECKPOINT_EVERY` turns; `played_turns_whole` times that). The session has
/// autosaved once before (turn 10 to 11, untimed), so this is what every
/// later turn of a session costs, not the first autosave's fingerprinting
/// of the undo states. Within a second of the one before, the autosave is
/// not synced on its own (`save::SYNC_EVERY`): this is a turn as piped
/// turns come; a player's turns, seconds apart, each add their sync.
#[divan::bench(sample_count = 50, sample_size = 1)]
fn played_turn_whole(bencher: Bencher) {
    let dir = temp_dir("turn-whole");
    let scene = common::shipped("false-cry");
    bencher
        .with_inputs(|| {
            let sink: &'static mut dyn Write = Box::leak(Box::new(std::io::sink()));
            let options = Options {
                locale: Locale::En,
                style: xiaoling::repl::render::Style {
                    colour: false,
                    columns: 80,
                },
                saves_dir: dir.to_path_buf(),
            };
            let mut session = Session::new(game_at(10), options, vec![Arc::clone(&scene)], sink);
            session.handle("");
            session.wait_for_saves();
            session
        })
        .bench_local_values(|mut session| {
            session.handle("");
            session.wait_for_saves();
            session
        });
    let _ = std::fs::remove_dir_all(&dir);
}

/// Played turns and the whole of their autosaves, both threads, as a
/// session goes (issue 26, item 1): `save::CHECKPOINT_EVERY` commands
/// (Enter, or `1` at a choice) from turn 2 of the novel's line (the writer
/// appends each turn's journal records and writes the slot once), then
/// waited for until the writer has written everything handed to it. Divide
/// by that count for a command; beside `played_turn_with_autosave` (the
/// player's thread) the rest is the writer's. `played_turn_whole` waits
/// after every turn, which writes the slot each time: a turn with its
/// checkpoint.
#[divan::bench(sample_count = 30, sample_size = 1)]
fn played_turns_whole(bencher: Bencher) {
    let dir = temp_dir("turns-whole");
    let scene = common::shipped("false-cry");
    bencher
        .with_inputs(|| {
            let sink: &'static mut dyn Write = Box::leak(Box::new(std::io::sink()));
            let options = Options {
                locale: Locale::En,
                style: xiaoling::repl::render::Style {
                    colour: false,
                    columns: 80,
                },
                saves_dir: dir.to_path_buf(),
            };
            let mut session = Session::new(game_at(2), options, vec![Arc::clone(&scene)], sink);
            session.handle("");
            session.wait_for_saves();
            session
        })
        .bench_local_values(|mut session| {
            for _ in 0..xiaoling::save::CHECKPOINT_EVERY {
                // A choice is answered `1` (the battle's turns go on).
                let line = if session.game().pending().is_some() {
                    "1"
                } else {
                    ""
                };
                session.handle(line);
            }
            session.wait_for_saves();
            session
        });
    let _ = std::fs::remove_dir_all(&dir);
}

/// A transcript of `bytes` bytes (at most), of the kind a Chinese game
/// writes: a golden play-through's text repeated, cut at a character.
fn chinese_transcript(bytes: usize) -> String {
    let text = include_str!("../tests/golden/false-cry-zhang-chun-zh.txt");
    let mut out = String::with_capacity(bytes + text.len());
    while out.len() < bytes {
        out.push_str(text);
    }
    let mut end = bytes.min(out.len());
    while !out.is_char_boundary(end) {
        end -= 1;
    }
    out.truncate(end);
    out
}

/// The writer thread's work for one played turn's autosave (beside
/// [`played_turn_with_autosave`], which times the player's thread only):
/// the game at turn 10 has just played a turn, its previous autosave
/// written, and the autosave is written on the bench's own thread
/// (`Autosaver::inline`, the writer's code): the state converted, the new
/// undo state fingerprinted, the file serialised, written, synced, read back
/// and checked, renamed. With a transcript of 10 KB and of 256 KB (the most
/// a save keeps), in Chinese.
#[divan::bench(args = [10 * 1024, 256 * 1024], sample_count = 30, sample_size = 1)]
fn autosave_writer(bencher: Bencher, transcript_bytes: usize) {
    let dir = temp_dir(&format!("writer-{transcript_bytes}"));
    let transcript = xiaoling::save::Transcript::new(chinese_transcript(transcript_bytes));
    second_autosave(
        bencher,
        &dir,
        &transcript,
        || game_at(10),
        |game| {
            let _ = game.next();
        },
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Times an autosave written inline in the steady state of a session:
/// `start` makes the game, `then` is the command before each autosave. Two
/// autosaves come before the timed one: the session's first fingerprints
/// every undo state (once a session, like a load's replay), and the
/// allocator pays for the memory that freed at the next; the timed one is
/// what every later autosave of the session costs.
fn second_autosave(
    bencher: Bencher,
    dir: &std::path::Path,
    transcript: &xiaoling::save::Transcript,
    start: impl Fn() -> Game + Sync,
    then: impl Fn(&mut Game) + Sync,
) {
    bencher
        .with_inputs(|| {
            let mut game = start();
            let mut saver = xiaoling::save::Autosaver::inline();
            let _ = saver.submit(dir, "autosave-1", &mut game, transcript);
            then(&mut game);
            let _ = saver.submit(dir, "autosave-3", &mut game, transcript);
            then(&mut game);
            (game, saver)
        })
        .bench_local_values(|(mut game, mut saver)| {
            black_box(
                saver
                    .submit(dir, "autosave-2", &mut game, transcript)
                    .is_ok(),
            );
            (game, saver)
        });
}

/// The writer's work for one autosave at command 20 and at command 19,000
/// (the tutorial with that many `hold` orders given at its first turn): the
/// game's journal takes the new command and the slot is written, of the
/// same size at both (issue 23: within 2× of each other). Before the
/// journal, every autosave wrote and read back the whole log.
#[divan::bench(args = [20, 19_000], sample_count = 20, sample_size = 1)]
fn autosave_at_commands(bencher: Bencher, commands: usize) {
    use xiaoling::story::UnitCommand;
    let dir = temp_dir(&format!("commands-{commands}"));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes/examples/tutorial-skirmish.ron");
    let source = std::fs::read_to_string(path).expect("the tutorial");
    let rules = xiaoling::scene::parse_rules("rules.ron", xiaoling::scene::EMBEDDED_RULES.1)
        .expect("rules");
    let scene = Arc::new(
        xiaoling::scene::parse_scene("tutorial-skirmish.ron", &source, &rules).expect("scene"),
    );
    let transcript = xiaoling::save::Transcript::new(chinese_transcript(10 * 1024));
    let rear_foot = scene.find("rear-foot").expect("the rear foot");
    let start = || {
        let (mut game, _) = Game::new(Arc::clone(&scene), "sun-gang", 4).expect("game");
        for _ in 0..commands {
            let _ = game.order(rear_foot, UnitCommand::Hold);
        }
        game
    };
    // The orders between the autosaves are taken at both sizes (the log
    // stops taking orders a little short of 20,000).
    let then = |game: &mut Game| {
        game.order(rear_foot, UnitCommand::Hold)
            .expect("an order between the autosaves");
    };
    second_autosave(bencher, &dir, &transcript, start, then);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Saving a game at turn 22 (to a file, synced) through the library call,
/// every fingerprint computed afresh.
#[divan::bench(sample_count = 50)]
fn save(bencher: Bencher) {
    let dir = temp_dir("save");
    let mut game = game_at(22);
    let transcript = "x".repeat(400 * game.log().len());
    bencher.bench_local(|| black_box(xiaoling::save::save(&dir, "bench", &mut game, &transcript)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Loading the turn-22 save: read, parse, replay the log, verify.
#[divan::bench(sample_count = 50)]
fn load(bencher: Bencher) {
    let dir = temp_dir("load");
    let mut game = game_at(22);
    let transcript = "x".repeat(400 * game.log().len());
    xiaoling::save::save(&dir, "bench", &mut game, &transcript).expect("saved");
    let scenes = vec![game.scene_arc()];
    bencher.bench_local(|| {
        black_box(
            xiaoling::save::load(&dir, "bench", &scenes)
                .map(|loaded| loaded.game.turn())
                .ok(),
        )
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// The release binary from its start to the first prompt, answered `quit`.
#[divan::bench(sample_count = 50, sample_size = 1)]
fn start_to_prompt() {
    let dir = temp_dir("start");
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiaoling"))
        .args(["--saves"])
        .arg(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"quit\n");
    }
    black_box(child.wait().ok());
}

/// The release binary from its start to the game's first prompt, the
/// battle and role named (`play --scene false-cry --role zhang-chun`),
/// answered `quit` (which waits for the save on leaving).
#[divan::bench(sample_count = 50, sample_size = 1)]
fn start_to_prompt_named() {
    let dir = temp_dir("start-named");
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiaoling"))
        .args([
            "play",
            "--scene",
            "false-cry",
            "--role",
            "zhang-chun",
            "--seed",
            "1",
            "--saves",
        ])
        .arg(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"quit\n");
    }
    black_box(child.wait().ok());
}

/// `save` at the prompt at turn 22: the session's writer fingerprints only
/// what it has not seen, then the file is written and synced (waited for).
#[divan::bench(sample_count = 50)]
fn save_at_prompt(bencher: Bencher) {
    let dir = temp_dir("save-prompt");
    let mut game = game_at(22);
    let transcript = xiaoling::save::Transcript::new("x".repeat(400 * game.log().len()));
    let mut saver = xiaoling::save::Autosaver::new();
    bencher.bench_local(|| black_box(saver.save_now(&dir, "bench", &mut game, &transcript)));
    drop(saver);
    let _ = std::fs::remove_dir_all(&dir);
}

mod scale {
    use super::*;

    const UNITS: [usize; 3] = [1_000, 10_000, 100_000];

    /// Parsing and checking a scaled scene.
    #[divan::bench(args = UNITS, sample_count = 3, sample_size = 1)]
    fn load(bencher: Bencher, units: usize) {
        let source = common::scaled_source(units);
        let rules = common::rules();
        bencher.bench_local(|| {
            black_box(xiaoling::scene::parse_scene("scaled.ron", &source, &rules).is_ok())
        });
    }

    /// One simulated turn (the third: columns in the fords, fighting),
    /// from the same world each time.
    #[divan::bench(args = UNITS, sample_count = 10, sample_size = 1)]
    fn turn(bencher: Bencher, units: usize) {
        let scene = common::scaled(units);
        let mut battle = Battle::new(&scene, 1);
        battle.step();
        battle.step();
        let state = battle.state();
        let battle = RefCell::new(battle);
        bencher
            .with_inputs(|| battle.borrow_mut().restore(&state))
            .bench_local_values(|()| black_box(battle.borrow_mut().step().len()));
    }
}

/// A million units (ignored by default: `-- --ignored`). Memory per unit
/// is `benches/memory.rs`.
mod huge {
    use super::*;

    /// Parsing and checking a scene of a million units.
    #[divan::bench(ignore, sample_count = 1, sample_size = 1)]
    fn load_1m(bencher: Bencher) {
        let source = common::scaled_source(1_000_000);
        let rules = common::rules();
        bencher.bench_local(|| {
            black_box(xiaoling::scene::parse_scene("scaled.ron", &source, &rules).is_ok())
        });
    }

    /// One turn of a million units (the third), from the same world each time.
    #[divan::bench(ignore, sample_count = 3, sample_size = 1)]
    fn turn_1m(bencher: Bencher) {
        let scene = common::scaled(1_000_000);
        let mut battle = Battle::new(&scene, 1);
        battle.step();
        battle.step();
        let state = battle.state();
        let battle = RefCell::new(battle);
        bencher
            .with_inputs(|| battle.borrow_mut().restore(&state))
            .bench_local_values(|()| black_box(battle.borrow_mut().step().len()));
    }
}

/// Wrapping a turn's prose (issue 26 item 2): every paragraph of two played
/// games' transcripts (the goldens of false-cry as Zhang Chun, in English and
/// Chinese), its lines joined again, wrapped to 80 and to 60 columns. Bytes
/// wrapped a second = the goldens' bytes ÷ this.
#[divan::bench(sample_count = 50)]
fn wrap_transcripts(bencher: Bencher) {
    let root = env!("CARGO_MANIFEST_DIR");
    let paragraphs: Vec<String> = ["false-cry-zhang-chun-en.txt", "false-cry-zhang-chun-zh.txt"]
        .iter()
        .flat_map(|name| {
            let path = format!("{root}/tests/golden/{name}");
            let text = std::fs::read_to_string(&path).expect("a golden transcript");
            let joiner = if name.ends_with("-zh.txt") { "" } else { " " };
            text.split("\n\n")
                .map(|p| p.lines().map(str::trim).collect::<Vec<_>>().join(joiner))
                .filter(|p| !p.is_empty())
                .collect::<Vec<_>>()
        })
        .collect();
    bencher.bench_local(|| {
        let mut bytes = 0;
        for columns in [80, 60] {
            for p in &paragraphs {
                bytes += xiaoling::repl::wrap::wrap(black_box(p), columns, "").len();
            }
        }
        black_box(bytes)
    });
}
