//! The real binary in a pseudo-terminal (expectrl), colour on, as a player
//! sees it: at 80 and 60 columns, in English and Simplified Chinese, every
//! line of every view must fit the terminal and none may start with closing
//! punctuation. Also: Tab completion and history, a resize mid-game, Ctrl-C
//! at the prompt (once cancels, twice leaves with the autosave said) and at
//! the start menu. No sleeps: each step waits for the text it expects.

#![cfg(unix)]

use crate::common;

use expectrl::session::OsSession as Session;
use expectrl::{Eof, Expect};
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The binary in a pseudo-terminal of `columns` columns (set before it starts).
fn spawn(columns: u16, args: &[&str], saves: &Path) -> Session {
    // The pseudo-terminal is made 80 columns wide while it is spawned: the
    // shell waits for a go before setting the width and starting the game.
    let mut line = format!(
        "read go && stty cols {columns} rows 50 && exec {}",
        common::bin()
    );
    for arg in args {
        line.push_str(&format!(" '{arg}'"));
    }
    line.push_str(&format!(" --saves '{}'", saves.display()));
    let mut command = Command::new("sh");
    command
        .args(["-c", &line])
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS");
    let mut session = expectrl::Session::spawn(command).expect("a pseudo-terminal");
    // Only a guard against a hung test: every step waits for its text.
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    session.send("go\r").expect("the go");
    session
}

/// Waits for `needle` and keeps everything shown up to it.
fn wait(session: &mut Session, needle: &str, screen: &mut Vec<u8>) {
    let found = session.expect(needle).unwrap_or_else(|e| {
        let raw = String::from_utf8_lossy(screen);
        let tail: String = raw
            .chars()
            .rev()
            .take(400)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        panic!(
            "waiting for {needle:?}: {e}\n{}\nraw end: {tail:?}",
            lines(screen).join("\n")
        )
    });
    screen.extend_from_slice(found.before());
    for m in found.matches() {
        screen.extend_from_slice(m);
    }
}

/// Waits until the line editor reads a new line: it turns bracketed paste
/// on (`ESC [?2004h`) once as each prompt opens (a prompt's text also shows
/// again when a line is accepted, so the text alone cannot tell).
fn prompt(session: &mut Session, screen: &mut Vec<u8>) {
    let found = session
        .expect("\u{1b}[?2004h")
        .unwrap_or_else(|e| panic!("waiting for a prompt: {e}\n{}", lines(screen).join("\n")));
    screen.extend_from_slice(found.before());
    for m in found.matches() {
        screen.extend_from_slice(m);
    }
}

/// Types a line (Enter is a carriage return on a terminal).
fn enter(session: &mut Session, text: &str) {
    session
        .send(format!("{text}\r"))
        .expect("typing into the terminal");
    session.flush().expect("typing into the terminal");
}

/// What the screen shows, line by line: a carriage return redraws from the
/// line's start, escape codes take no room.
fn lines(screen: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(screen)
        .split('\n')
        .map(|line| {
            let line = line.trim_end_matches('\r');
            let shown = line.rsplit('\r').next().unwrap_or(line);
            xiaoling::repl::wrap::strip_ansi(shown)
        })
        .collect()
}

fn assert_fits(screen: &[u8], columns: usize, what: &str) {
    let shown = lines(screen).join("\n");
    let result = std::panic::catch_unwind(|| common::assert_fits(&shown, columns));
    if result.is_err() {
        panic!("{what}: the screen above does not fit {columns} columns:\n{shown}");
    }
}

/// A whole session: a choice, turns, every view, then `quit`.
fn play_every_view(locale: &str, columns: u16) {
    let saves = common::temp_dir(&format!("pty-{locale}-{columns}"));
    let mut session = spawn(
        columns,
        &[
            "play",
            "--scene",
            "false-cry",
            "--role",
            "zhang-chun",
            "--seed",
            "1",
            "--lang",
            locale,
        ],
        &saves,
    );
    let zh = locale != "en";
    let mut screen = Vec::new();
    prompt(&mut session, &mut screen);
    enter(&mut session, "1");
    prompt(&mut session, &mut screen);
    for _ in 0..4 {
        enter(&mut session, "");
        prompt(&mut session, &mut screen);
    }
    let views: [(&str, &str); 8] = [
        ("status", if zh { "我方" } else { "your side" }),
        ("map", if zh { "图例" } else { "Legend" }),
        ("help", if zh { "退出" } else { "leave the game" }),
        ("log", if zh { "第0回合" } else { "Turn 0" }),
        ("why", ""),
        ("saves", "-auto-"),
        ("look", if zh { "申正三刻" } else { "Turn 3" }),
        (
            "save my slot",
            if zh {
                "什么也没做"
            } else {
                "Nothing was done"
            },
        ),
    ];
    for (command, shows) in views {
        enter(&mut session, command);
        if !shows.is_empty() {
            wait(&mut session, shows, &mut screen);
        }
        prompt(&mut session, &mut screen);
    }
    enter(&mut session, "quit");
    wait(&mut session, "false-cry-zhang-chun-1", &mut screen);
    let _ = session
        .expect(Eof)
        .map(|rest| screen.extend_from_slice(rest.before()));
    assert!(
        String::from_utf8_lossy(&screen).contains("\u{1b}["),
        "colour is on in a terminal"
    );
    assert_fits(
        &screen,
        usize::from(columns),
        &format!("{locale} at {columns}"),
    );
    let _ = std::fs::remove_dir_all(&saves);
}

#[test]
fn every_view_fits_80_columns_in_english() {
    play_every_view("en", 80);
}

#[test]
fn every_view_fits_60_columns_in_english() {
    play_every_view("en", 60);
}

#[test]
fn every_view_fits_80_columns_in_chinese() {
    play_every_view("zh-Hans", 80);
}

#[test]
fn every_view_fits_60_columns_in_chinese() {
    play_every_view("zh-Hans", 60);
}

#[test]
fn tab_completes_history_is_kept_and_a_resize_is_followed() {
    let saves = common::temp_dir("pty-resize");
    let mut session = spawn(
        100,
        &[
            "play",
            "--scene",
            "false-cry",
            "--role",
            "huang-taiji",
            "--seed",
            "2",
        ],
        &saves,
    );
    let mut screen = Vec::new();
    prompt(&mut session, &mut screen);
    enter(&mut session, "1");
    prompt(&mut session, &mut screen);
    session.send("sta\t\r").expect("typing");
    wait(&mut session, "your side", &mut screen);
    prompt(&mut session, &mut screen);
    assert!(
        String::from_utf8_lossy(&screen).contains("Ming"),
        "Tab completed `sta` to `status`, which ran"
    );
    // Narrow the window: what follows fits the new width.
    session
        .get_process_mut()
        .set_window_size(60, 50)
        .expect("resize");
    let mut after = Vec::new();
    for (command, shows) in [
        ("status", "your side"),
        ("map", "Legend"),
        ("look", "Turn "),
    ] {
        enter(&mut session, command);
        wait(&mut session, shows, &mut after);
        prompt(&mut session, &mut after);
    }
    enter(&mut session, "quit");
    let _ = session
        .expect(Eof)
        .map(|rest| after.extend_from_slice(rest.before()));
    assert_fits(&after, 60, "after narrowing the window to 60 columns");
    let history = std::fs::read_to_string(saves.join(".history")).unwrap_or_default();
    assert!(history.contains("status"), "history kept: {history:?}");
    let _ = std::fs::remove_dir_all(&saves);
}

#[test]
fn ctrl_c_cancels_once_and_leaves_twice_saying_it_autosaved() {
    let saves = common::temp_dir("pty-ctrl-c");
    let mut session = spawn(
        80,
        &[
            "play",
            "--scene",
            "false-cry",
            "--role",
            "zhang-chun",
            "--seed",
            "1",
        ],
        &saves,
    );
    let mut screen = Vec::new();
    prompt(&mut session, &mut screen);
    session.send("sta").expect("typing");
    session.send([3_u8]).expect("Ctrl-C");
    wait(&mut session, "Press Ctrl-C again to leave", &mut screen);
    prompt(&mut session, &mut screen);
    session.send([3_u8]).expect("Ctrl-C");
    wait(
        &mut session,
        "The game is saved in slot `false-cry-zhang-chun-1`",
        &mut screen,
    );
    session.expect(Eof).expect("the game ends");
    assert!(saves.join("false-cry-zhang-chun-1.ron").exists());
    // At the start menu, Ctrl-C leaves at once.
    // `play` alone first offers the game left; Ctrl-C at that menu leaves
    // at once, and at the battles' menu too.
    let mut session = spawn(80, &[], &saves);
    wait(&mut session, "Go on with a game you left?", &mut screen);
    wait(&mut session, "Choose 1-2> ", &mut screen);
    session.send([3_u8]).expect("Ctrl-C");
    session.expect(Eof).expect("the offer is left");
    let mut session = spawn(80, &[], &saves);
    wait(&mut session, "Choose 1-2> ", &mut screen);
    session.send("2\r").expect("a new game");
    wait(&mut session, "Choose a battle 1-3> ", &mut screen);
    session.send([3_u8]).expect("Ctrl-C");
    session.expect(Eof).expect("the menu is left");
    let _ = std::fs::remove_dir_all(&saves);
}
