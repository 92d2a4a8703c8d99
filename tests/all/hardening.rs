//! Issue 12's defects, each driven through the real binary or the library as
//! a hostile file or a careless pipe would: bounded numbers in saves,
//! overflowing seeds, bad bytes and huge lines on stdin, FIFOs and devices
//! posing as saves, stale temp files, slot names at the file system's limit,
//! write errors, the input rules, menus, `log`, `--load`'s recap and
//! `--transcript`.

use crate::common;

use common::{play_args, run, text};
use std::path::Path;
use xiaoling::save;

fn args(list: &[String]) -> Vec<&str> {
    list.iter().map(String::as_str).collect()
}

/// A real save of a few turns in `dir`, slot `good`, and its text.
fn good_save(dir: &Path) -> String {
    let out = run(
        &args(&play_args("false-cry", "zhang-chun", 3, dir)),
        b"1\n\n\nsave good\nquit\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::read_to_string(dir.join("good.ron")).expect("the save was written")
}

/// `text` with the first `key: NUMBER` after `after` set to `value`.
fn set_number(text: &str, after: &str, key: &str, value: &str) -> String {
    let from = text.find(after).expect("anchor") + after.len();
    let at = from + text[from..].find(key).expect("key") + key.len();
    let end = at + text[at..].find(|c: char| !c.is_ascii_digit()).expect("end");
    format!("{}{value}{}", &text[..at], &text[end..])
}

#[test]
fn a_hand_edited_save_with_an_extreme_turn_is_refused_not_a_panic() {
    let dir = common::temp_dir("extreme-turn");
    let good = good_save(&dir);
    for (name, edited) in [
        ("world", set_number(&good, "world:", "turn: ", "4294967295")),
        ("header", set_number(&good, "role:", "turn: ", "4294967295")),
        ("late", set_number(&good, "world:", "turn: ", "999")),
    ] {
        std::fs::write(dir.join(format!("{name}.ron")), save::reseal(&edited)).unwrap();
        let out = run(
            &["play", "--load", name, "--saves", dir.to_str().unwrap()],
            b"\n\n",
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("{name}.ron")) && stderr.contains("turn"),
            "{name}: one line naming the file and the turn: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // `saves` lists them as unreadable and the good slot as good.
    let out = run(
        &args(&play_args("false-cry", "zhang-chun", 1, &dir)),
        b"saves\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("good") && stdout.contains("unreadable"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn simulate_from_the_largest_seed_does_not_overflow() {
    let out = run(
        &[
            "simulate",
            "--scene",
            "false-cry",
            "--role",
            "zhang-chun",
            "--seed",
            "18446744073709551615",
            "--runs",
            "2",
            "--json",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(json["runs"], 2);
    assert_eq!(json["seed"], 18446744073709551615_u64);
    let counted: u64 = json["endings"]
        .as_object()
        .expect("endings by id")
        .values()
        .map(|n| n.as_u64().expect("a count"))
        .sum();
    assert_eq!(counted, 2);
    // Which option leads where: the shape other tools read.
    let options = json["options"].as_array().expect("options");
    assert!(!options.is_empty());
    for option in options {
        assert!(option["turning_point"].is_string() && option["option"].is_string());
        let games = option["games"].as_u64().expect("games");
        let ended: u64 = option["endings"]
            .as_object()
            .expect("endings")
            .values()
            .filter_map(|n| n.as_u64())
            .sum();
        assert_eq!(ended, games, "{option}");
        assert!(option["mean_losses"].is_object());
    }
}

#[test]
fn an_invalid_utf8_line_is_reported_and_play_goes_on() {
    let dir = common::temp_dir("bad-utf8");
    let mut input = b"\xff\xfe oops\n".to_vec();
    input.extend_from_slice(b"1\nstatus\n");
    let out = run(
        &args(&play_args("false-cry", "zhang-chun", 1, &dir)),
        &input,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("That line is not text (not UTF-8)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("You chose:"),
        "the next line was played: {stdout}"
    );
    assert!(
        stdout.contains("The game is saved in slot `false-cry-zhang-chun-1`"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_ten_megabyte_line_is_refused_and_the_saves_stay_small_and_load() {
    let dir = common::temp_dir("huge-line");
    let mut input = b"1\n".to_vec();
    for _ in 0..3 {
        input.extend(std::iter::repeat_n(b'x', 10 * 1024 * 1024));
        input.extend_from_slice(b"\n\n");
    }
    input.extend_from_slice(b"save big\nquit\n");
    let out = run(
        &args(&play_args("false-cry", "zhang-chun", 1, &dir)),
        &input,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        stdout.matches("That line is 10 MB long").count(),
        3,
        "each is refused: {}",
        &stdout[..stdout.len().min(3000)]
    );
    assert!(stdout.len() < 200_000, "nothing echoed in full");
    for slot in ["big", "false-cry-zhang-chun-1"] {
        let size = std::fs::metadata(dir.join(format!("{slot}.ron")))
            .expect("saved")
            .len();
        assert!(size < 1_000_000, "{slot} is {size} bytes");
        let out = run(
            &["play", "--load", slot, "--saves", dir.to_str().unwrap()],
            b"quit\n",
        );
        assert!(out.status.success(), "{slot}: {}", text(&out.stderr));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn fifos_devices_and_symlinks_to_them_are_refused_as_saves_and_scenes() {
    let dir = common::temp_dir("fifo");
    let fifo = dir.join("x.ron");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.ron")).unwrap();
    let saves = dir.to_str().unwrap();
    for slot in ["x", "zero"] {
        let out = run(&["play", "--load", slot, "--saves", saves], b"");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!("{slot}.ron")) && stderr.contains("not a regular file"),
            "{stderr}"
        );
        let out = run(&["replay", slot, "--saves", saves], b"");
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    }
    // Listing does not open them.
    let out = run(
        &args(&play_args("false-cry", "zhang-chun", 1, &dir)),
        b"saves\nquit\n",
    );
    assert!(out.status.success());
    // Scenes: `check` and `--scenes` refuse them too.
    let out = run(&["check", fifo.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["check", dir.join("zero.ron").to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("it is a device"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stale_temp_files_of_interrupted_saves_are_removed_at_start() {
    let dir = common::temp_dir("stale");
    // No process has this id (above Linux's pid_max).
    let stale = dir.join(".quick.ron.tmp-4294967");
    std::fs::write(&stale, "half a save").unwrap();
    let keep = dir.join(".history");
    std::fs::write(&keep, "look\n").unwrap();
    let out = run(
        &args(&play_args("false-cry", "zhang-chun", 1, &dir)),
        b"quit\n",
    );
    assert!(out.status.success());
    if Path::new("/proc/self").exists() {
        assert!(!stale.exists(), "the stale temp file is gone");
    }
    assert!(keep.exists(), "other files stay");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn slot_names_fit_the_file_system_with_the_temp_suffix() {
    // 64 characters of three bytes: allowed, and it saves.
    let chinese = "鸣".repeat(64);
    assert!(xiaoling::save::check_slot(&chinese).is_ok());
    // 64 characters of four bytes: 256 bytes, too long for a file name.
    let wide = "𠀀".repeat(64);
    let err = xiaoling::save::check_slot(&wide).expect_err("too many bytes");
    assert!(err.to_string().contains("too long"), "{err}");
    let dir = common::temp_dir("long-slot");
    let out = run(
        &args(&play_args("false-cry", "zhang-chun", 1, &dir)),
        format!("save {chinese}\nload {chinese}\nquit\n").as_bytes(),
    );
    let stdout = text(&out.stdout);
    assert!(dir.join(format!("{chinese}.ron")).exists(), "{stdout}");
    assert!(stdout.contains("Loaded slot"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(target_os = "linux")]
#[test]
fn write_errors_on_stdout_are_reported_and_the_exit_status_is_not_zero() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    // Kept to the end: the game writes its saves there.
    let saves = common::temp_dir("full");
    for (what, list) in [
        ("scenes", vec!["scenes".to_string()]),
        (
            "graph",
            vec!["graph".into(), "--scene".into(), "false-cry".into()],
        ),
        ("play", play_args("false-cry", "zhang-chun", 1, &saves)),
    ] {
        let out = std::process::Command::new(common::bin())
            .args(&list)
            .stdin(std::process::Stdio::null())
            .stdout(full())
            .stderr(std::process::Stdio::piped())
            .output()
            .expect("runs");
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{what} exits non-zero");
        assert!(
            stderr.contains("cannot write to standard output"),
            "{what}: {stderr}"
        );
    }
}

#[test]
fn the_input_rules_hold_at_the_prompt() {
    let dir = common::temp_dir("input");
    let input = "save my slot\n１\n99999999999999999999\n+1\nlook\u{1b}[2J\n\u{1b}[31mstatus\n"
        .to_string()
        + &"y".repeat(1000)
        + "\n"
        + &"z".repeat(5000)
        + "\nlog\n";
    let out = run(
        &args(&play_args("false-cry", "zhang-chun", 1, &dir)),
        input.as_bytes(),
    );
    let stdout = text(&out.stdout);
    let flat = stdout.replace('\n', " ");
    assert!(
        flat.contains("Nothing was done: a slot name is one word")
            && flat.contains("`slot` is one word too many."),
        "{stdout}"
    );
    assert!(!dir.join("my.ron").exists(), "nothing saved to `my`");
    assert!(
        stdout.contains("You chose:"),
        "full-width １ chose: {stdout}"
    );
    assert!(
        flat.contains("99999999999999999999 is far too large"),
        "{stdout}"
    );
    assert!(flat.contains("Unknown command `+1`"), "{stdout}");
    assert!(!stdout.contains('\u{1b}'), "escape sequences never echoed");
    assert!(
        !stdout.contains(&"y".repeat(100)),
        "long input not echoed in full"
    );
    assert!(stdout.contains(&format!("{}…", "y".repeat(60))), "{stdout}");
    assert!(
        flat.contains("That line is 5,000 bytes long; commands are at most 4,096 bytes."),
        "{stdout}"
    );
    assert!(
        stdout.contains("Turn 0: ★ Zhang Chun:"),
        "log with turns: {stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn menus_take_numbers_ids_names_help_and_quit_and_name_the_sides() {
    let dir = common::temp_dir("menus");
    let saves = dir.to_str().unwrap();
    // A folder of its own for the game played, so the menus below start at
    // the battles (not at the offer to go on with it).
    let played = dir.join("played");
    let out = run(
        &["--saves", played.to_str().unwrap()],
        b"help\nbroken-bridge\nHong Chengchou\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("or the id or name shown"), "help: {stdout}");
    assert!(
        stdout.contains("You are Hong Chengchou"),
        "picked by id and name: {stdout}"
    );
    assert!(
        stdout.contains("Huang Taiji (huang-taiji), Qing") || stdout.contains("(huang-taiji), "),
        "sides named: {stdout}"
    );
    let out = run(&["--saves", saves], b"quit\n");
    assert!(out.status.success());
    assert!(
        !text(&out.stdout).contains("You are"),
        "quit leaves the menu"
    );
    let out = run(&["--saves", saves], b"7\nnobody\n");
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout.matches("Type a number from 1 to 3").count(),
        2,
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn load_recaps_the_battle_role_turn_and_last_events() {
    let dir = common::temp_dir("recap");
    good_save(&dir);
    let out = run(
        &["play", "--load", "good", "--saves", dir.to_str().unwrap()],
        b"quit\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.starts_with("The False Cry on the Xiaoling River\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("You are Zhang Chun (Ming) · turn 2"),
        "{stdout}"
    );
    assert!(stdout.contains("So far:\nTurn "), "{stdout}");
    assert!(stdout.contains("\nTurn 1: · "), "{stdout}");
    // `load` at the prompt recaps the same way.
    let out = run(
        &args(&play_args("broken-bridge", "huang-taiji", 1, &dir)),
        b"load good\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Loaded slot `good`.\nThe False Cry on the Xiaoling River\nYou are Zhang Chun (Ming) · turn 2"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn transcript_files_hold_the_session_with_a_header() {
    let dir = common::temp_dir("transcript");
    let file = dir.join("game.txt");
    let mut list = play_args("false-cry", "zhang-chun", 4, &dir);
    list.extend(["--transcript".to_string(), file.display().to_string()]);
    let out = run(&args(&list), b"1\n\nstatus\nquit\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&file).expect("transcript written");
    let head = format!(
        "# xiaoling {} transcript\n# battle: false-cry (The False Cry on the Xiaoling River)\n# role: zhang-chun\n# seed: 4\n# language: en\n",
        env!("CARGO_PKG_VERSION")
    );
    assert!(written.starts_with(&head), "{written}");
    let body = written
        .split_once("\n\n")
        .expect("a blank line after the header")
        .1;
    assert_eq!(body, text(&out.stdout), "the body is the session as shown");
    // An unwritable transcript is an error before play starts.
    let mut list = play_args("false-cry", "zhang-chun", 4, &dir);
    list.extend([
        "--transcript".to_string(),
        dir.join("no/such/dir.txt").display().to_string(),
    ]);
    let out = run(&args(&list), b"quit\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot create the transcript"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn log_gives_turns_from_the_start_and_says_when_they_are_unknown() {
    let dir = common::temp_dir("log-turns");
    let out = run(
        &args(&play_args("false-cry", "zhang-chun", 1, &dir)),
        b"log\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("Choose 1-4> log\nTurn 0: · "), "{stdout}");
    // A save whose commands do not lead to its state loads without history:
    // what came before it has no known turn, and says so.
    let good = good_save(&dir);
    let tampered = set_number(&good, "units: [(", "men: ", "1");
    std::fs::write(dir.join("tampered.ron"), save::reseal(&tampered)).unwrap();
    let out = run(
        &[
            "play",
            "--load",
            "tampered",
            "--saves",
            dir.to_str().unwrap(),
        ],
        b"log\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The notice is wrapped, and where depends on the temp path's length.
    let joined = stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        joined.contains("do not lead to its saved state"),
        "{stdout}"
    );
    assert!(stdout.contains("\nTurn ?: ★ Zhang Chun:"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn links_planted_in_the_saves_folder_or_as_the_transcript_are_never_written_through() {
    let dir = common::temp_dir("planted-links");
    let outside = common::temp_dir("planted-targets");
    let target = outside.join("precious.txt");
    let lines: String = (0..3000).map(|i| format!("line {i}\n")).collect();
    std::fs::write(&target, &lines).unwrap();
    // A link at the history file (the pipe keeps no history, but the
    // session must not touch it either), and as the transcript.
    std::os::unix::fs::symlink(&target, dir.join(".history")).unwrap();
    let link = dir.join("game.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let mut list = play_args("false-cry", "zhang-chun", 4, &dir);
    list.extend(["--transcript".to_string(), link.display().to_string()]);
    let out = run(&args(&list), b"quit\n");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("cannot create the transcript") && stderr.contains("a link"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), lines);
    // A link at a save's temp file, as the process that writes it will name
    // it (this process, through the library).
    let scenes = common::scenes();
    let (mut game, _) =
        xiaoling::story::Game::new(common::find(&scenes, "false-cry"), "zhang-chun", 4)
            .expect("game");
    let temp = dir.join(format!(".quick.ron.tmp-{}", std::process::id()));
    std::os::unix::fs::symlink(&target, &temp).unwrap();
    let path = xiaoling::save::save(&dir, "quick", &mut game, "t\n").expect("saved");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), lines);
    assert!(std::fs::symlink_metadata(&path).unwrap().is_file());
    xiaoling::save::load(&dir, "quick", &scenes).expect("the save loads");
    assert!(std::fs::symlink_metadata(&temp).is_err(), "no temp is left");
    // The autosaver's writer thread too.
    let temp = dir.join(format!(".autosave-1.ron.tmp-{}", std::process::id()));
    std::os::unix::fs::symlink(&target, &temp).unwrap();
    let mut saver = xiaoling::save::Autosaver::new();
    saver
        .submit(
            &dir,
            "autosave-1",
            &mut game,
            &xiaoling::save::Transcript::new("t\n".into()),
        )
        .expect("autosave");
    saver.flush();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), lines);
    assert!(
        std::fs::symlink_metadata(dir.join("autosave-1.ron"))
            .unwrap()
            .is_file()
    );
    assert!(std::fs::symlink_metadata(&temp).is_err(), "no temp is left");
}
