//! The scene author's tools from the command line: `check --play` finds a
//! planted stale text and says how to see it; `reload` at the prompt plays
//! the game on in the edited file, and a broken edit changes nothing.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

const PLANTED: &str = "tests/data/lint";

#[test]
fn check_play_finds_the_planted_stale_text_and_the_line_that_shows_it() {
    let (code, out, err) =
        common::run_text(&["check", "--play", "60", "--threads", "2", PLANTED], "");
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(
            "error: `mongols-arrive.text[0]` was told while its claim UnitIn(unit:\"rear-foot\",zone:\"south-bank\") did not hold"
        ),
        "{out}"
    );
    // The line plays the game again to where the claim is false.
    let again = out
        .lines()
        .find_map(|line| line.trim().strip_prefix("again: "))
        .expect("an again line");
    let (input, args) = again
        .split_once(" | xiaoling ")
        .expect("a pipe into xiaoling");
    let input = input
        .strip_prefix("printf '")
        .and_then(|s| s.strip_suffix('\''))
        .expect("printf input")
        .replace("\\n", "\n");
    let saves = common::temp_dir("lint-again");
    let mut args: Vec<&str> = args.split(' ').collect();
    let folder = saves.path().display().to_string();
    args.extend(["--saves", &folder]);
    let (_, shown, _) = common::run_text(&args, &input);
    let joined = shown.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        joined.contains("while your foot still hold the south bank"),
        "{shown}"
    );
    // `status` has the rearguard off the south bank.
    let table = shown.split("> status").nth(1).expect("the status table");
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("Rearguard foot"))
        .expect("the rearguard's row");
    assert!(!row.contains("South bank"), "{row}");
}

#[test]
fn check_play_json_is_one_object_per_scene() {
    let (code, out, _) = common::run_text(&["check", "--play", "10", "--json", PLANTED], "");
    assert!(code == 0 || code == 1);
    let lint: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(lint["scene"], "tutorial-skirmish");
    assert_eq!(lint["games"], 10);
    assert!(lint["claim_failures"].is_array());
    assert!(lint["never_told"].is_array());
    assert!(lint["longest_without_decision"][0]["role"] == "sun-gang");
}

#[test]
fn the_shipped_scenes_check_clean_when_played() {
    let (code, out, err) = common::run_text(&["check", "--play", "30", "scenes"], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("error:"), "{out}");
}

/// Plays with `--scenes DIR`, typing `before`, waiting until the game has
/// shown `seen`, then editing the battle's file with `edit`, then typing
/// `after`: what the game showed.
fn play_editing(
    name: &str,
    before: &str,
    seen: &str,
    edit: impl FnOnce(&str) -> String,
    after: &str,
) -> String {
    use std::io::Read;
    let dir = common::temp_dir(name);
    let file = dir.path().join("tutorial-skirmish.ron");
    std::fs::copy("scenes/examples/tutorial-skirmish.ron", &file).expect("copied");
    let folder = dir.path().display().to_string();
    let saves = dir.path().join("saves").display().to_string();
    let mut child = Command::new(common::bin())
        .args([
            "play",
            "--scenes",
            &folder,
            "--scene",
            "tutorial-skirmish",
            "--role",
            "sun-gang",
            "--seed",
            "3",
            "--saves",
            &saves,
        ])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    stdin.write_all(before.as_bytes()).expect("typed");
    stdin.flush().expect("typed");
    // The edit is made once the game has read the file and played `before`,
    // and before `reload` is typed.
    let mut shown = Vec::new();
    while !common::text(&shown).contains(seen) {
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(bytes) => shown.extend(bytes),
            Err(_) => panic!("the game never showed {seen:?}: {}", common::text(&shown)),
        }
    }
    let source = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, edit(&source)).expect("edited");
    stdin.write_all(after.as_bytes()).expect("typed");
    drop(stdin);
    let _ = child.wait();
    let _ = reader.join();
    while let Ok(bytes) = rx.try_recv() {
        shown.extend(bytes);
    }
    // Wrapped lines joined: the texts are looked for whole.
    common::text(&shown)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn reload_tells_the_edited_text_when_its_event_fires() {
    let shown = play_editing(
        "reload",
        "next\n1\n",
        "Choose 1-2> ",
        |s| {
            s.replace(
                "Mongol horsemen ride up to join the Plain Blue.",
                "Mongol riders, new in this draft, come up.",
            )
        },
        "reload\nnext\nnext\nnext\nnext\nquit\n",
    );
    assert!(
        shown
            .contains("Reloaded `tutorial-skirmish`. The new version plays this game the same way"),
        "{shown}"
    );
    assert!(
        shown.contains("Mongol riders, new in this draft, come up."),
        "{shown}"
    );
    assert!(!shown.contains("ride up to join the Plain Blue"), "{shown}");
}

#[test]
fn a_broken_edit_shows_its_problems_and_the_game_goes_on() {
    let shown = play_editing(
        "reload-broken",
        "next\n1\n",
        "Choose 1-2> ",
        |s| s.replace("when: Turn(AtLeast(3.0)),", "when: Turn(AtLeast(3.0),"),
        "reload\nnext\nnext\nnext\nnext\nquit\n",
    );
    assert!(shown.contains("tutorial-skirmish.ron:"), "{shown}");
    assert!(
        shown.contains("1 problem(s) in the scene files: the game goes on as it was."),
        "{shown}"
    );
    // The game as it was: the old text when the event fires.
    assert!(
        shown.contains("Mongol horsemen ride up to join the Plain Blue."),
        "{shown}"
    );
}

#[test]
fn a_changed_option_parts_the_replay_where_it_no_longer_runs() {
    let shown = play_editing(
        "reload-parts",
        "next\n2\nnext\n",
        "Choose 1-2> ",
        // The option taken has another id in the new version: the game's
        // choice cannot be made there.
        |s| s.replace("id: \"into-the-water\"", "id: \"wade-in\""),
        "reload\nquit\n",
    );
    assert!(
        shown.contains("Reloaded `tutorial-skirmish`. Command 2 could not run on the new version"),
        "{shown}"
    );
}

#[test]
fn the_transcript_says_which_folder_the_battle_came_from() {
    let dir = common::temp_dir("lint-transcript");
    let transcript = dir.path().join("t.txt");
    let saves = dir.path().join("saves").display().to_string();
    let (code, _, err) = common::run_text(
        &[
            "play",
            "--scenes",
            "scenes/examples",
            "--scene",
            "tutorial-skirmish",
            "--role",
            "sun-gang",
            "--seed",
            "2",
            "--saves",
            &saves,
            "--transcript",
            &transcript.display().to_string(),
        ],
        "quit\n",
    );
    assert_eq!(code, 0, "{err}");
    let head = std::fs::read_to_string(&transcript).expect("a transcript");
    assert!(
        head.contains("--seed 2 --lang en --scenes scenes/examples\n"),
        "{head}"
    );
}

/// Reads `stream` line by line until a line contains `wanted`; the lines
/// read, or a panic naming what was seen when the stream ends first.
fn read_until(lines: &std::sync::mpsc::Receiver<String>, wanted: &str) -> String {
    let mut seen = String::new();
    loop {
        match lines.recv_timeout(std::time::Duration::from_secs(120)) {
            Ok(line) => {
                seen.push_str(&line);
                seen.push('\n');
                if line.contains(wanted) {
                    return seen;
                }
            }
            Err(_) => panic!("no line with {wanted:?}; seen:\n{seen}"),
        }
    }
}

#[test]
fn check_watch_checks_again_on_each_save_and_goes_on_after_a_broken_one() {
    let folder = common::temp_dir("lint-watch");
    let file = folder.path().join("tutorial-skirmish.ron");
    let good = std::fs::read_to_string("scenes/examples/tutorial-skirmish.ron").expect("tutorial");
    std::fs::write(&file, &good).expect("copy");
    let mut child = Command::new(common::bin())
        .args(["check", "--watch"])
        .arg(folder.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xiaoling check --watch");
    let stderr = child.stderr.take().expect("stderr");
    let (send, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    read_until(&lines, "waiting for a change");
    // A broken save: the zone an event names no longer exists.
    let broken = good.replacen("\"ford\"", "\"no-such-zone\"", 1);
    assert_ne!(broken, good);
    std::fs::write(&file, &broken).expect("break");
    let seen = read_until(&lines, "waiting for a change");
    let _ = child.kill();
    let _ = child.wait();
    assert!(seen.contains("-- changed: "), "{seen}");
    assert!(seen.contains("tutorial-skirmish.ron"), "{seen}");
    assert!(seen.contains("problem(s) found"), "{seen}");
    assert!(seen.contains("no-such-zone"), "{seen}");
}
