//! Shared helpers for the integration tests (included with `mod common;`).
#![allow(dead_code)]

use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use xiaoling::repl::render::Style;
use xiaoling::repl::{Line, LineSource, Options, Session};
use xiaoling::scene::{Locale, Scene};
use xiaoling::story::Game;

/// Typed ids by name (the unit tests' helper, the same file).
mod ids {
    use xiaoling::scene::{FileId, Scene, UnitId, ZoneId};
    use xiaoling::story::Game;
    include!("../../src/sim/test_ids.rs");
}
pub use ids::Ids;

/// Answers choice prompts with the next scripted number and lets turns pass
/// otherwise; stops at the ending or when the script runs out.
pub struct Script {
    pub choices: VecDeque<usize>,
    pub lines: usize,
}

impl LineSource for Script {
    fn read(&mut self, prompt: &str) -> Line {
        self.lines += 1;
        if self.lines > 500 {
            return Line::Eof;
        }
        if let Some(at) = prompt.find(" 1-") {
            // A number past the last option takes the last one, so that one
            // list of choices can play turning points of 2, 3 or 4 options.
            let last: usize = prompt[at + 3..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .unwrap_or(usize::MAX);
            match self.choices.pop_front() {
                Some(n) => Line::Text(n.min(last).to_string()),
                None => Line::Eof,
            }
        } else if prompt.starts_with('[') {
            Line::Text(String::new())
        } else {
            Line::Eof
        }
    }
    fn echoes(&self) -> bool {
        false
    }
}

pub fn scenes() -> Vec<Arc<Scene>> {
    xiaoling::scene::load_embedded()
        .unwrap_or_else(|p| panic!("{}", p.iter().map(|d| d.to_string()).collect::<String>()))
        .into_iter()
        .map(Arc::new)
        .collect()
}

pub fn scene(id: &str) -> Arc<Scene> {
    find(&scenes(), id)
}

/// The scene `id` among `scenes`.
pub fn find(scenes: &[Arc<Scene>], id: &str) -> Arc<Scene> {
    scenes
        .iter()
        .find(|s| s.id() == id)
        .cloned()
        .unwrap_or_else(|| panic!("no scene `{id}`"))
}

/// A fresh folder of its own for each call, even from tests running at once,
/// removed when the returned guard is dropped (kept, and named on stderr,
/// when the test is failing, to be looked at).
pub fn temp_dir(name: &str) -> TempDir {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("xiaoling-test-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    TempDir(dir)
}

/// A test's own folder under the system's temporary folder; see [`temp_dir`].
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept for a look: {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Plays a whole game through the REPL session and returns the transcript.
pub fn play(scene_id: &str, role: &str, seed: u64, locale: Locale, choices: &[usize]) -> String {
    let style = Style {
        colour: false,
        columns: 80,
    };
    play_styled(scene_id, role, seed, locale, choices, style)
}

/// [`play`] with colour and width of one's choosing.
pub fn play_styled(
    scene_id: &str,
    role: &str,
    seed: u64,
    locale: Locale,
    choices: &[usize],
    style: Style,
) -> String {
    let scenes = scenes();
    let scene = scenes
        .iter()
        .find(|s| s.id() == scene_id)
        .cloned()
        .expect("scene");
    let (game, outputs) = Game::new(scene, role, seed).expect("game");
    let saves = temp_dir(&format!("{scene_id}-{role}-{seed}-{}", locale.tag()));
    let options = Options {
        locale,
        style,
        saves_dir: saves.to_path_buf(),
    };
    let mut out: Vec<u8> = Vec::new();
    {
        let mut session = Session::new(game, options, scenes, &mut out);
        session.opening();
        session.show(&outputs);
        let mut script = Script {
            choices: choices.iter().copied().collect(),
            lines: 0,
        };
        session.run(&mut script);
    }
    String::from_utf8(out).expect("utf-8 transcript")
}

/// Plays a game through the REPL session with typed commands, one per line
/// (as from a pipe), and returns the transcript.
pub fn play_script(scene_id: &str, role: &str, seed: u64, locale: Locale, script: &str) -> String {
    let scenes = scenes();
    let scene = scenes
        .iter()
        .find(|s| s.id() == scene_id)
        .cloned()
        .expect("scene");
    play_in(scene, scenes, role, seed, locale, script)
}

/// [`play_script`] for `scene`, with `scenes` the battles the session knows
/// (what `load` can open).
pub fn play_in(
    scene: Arc<Scene>,
    scenes: Vec<Arc<Scene>>,
    role: &str,
    seed: u64,
    locale: Locale,
    script: &str,
) -> String {
    let saves = temp_dir(&format!("{}-{role}-{seed}-script", scene.id()));
    let (game, outputs) = Game::new(scene, role, seed).expect("game");
    let options = Options {
        locale,
        style: Style {
            colour: false,
            columns: 80,
        },
        saves_dir: saves.to_path_buf(),
    };
    let mut out: Vec<u8> = Vec::new();
    {
        let mut session = Session::new(game, options, scenes, &mut out);
        session.opening();
        session.show(&outputs);
        session.run(&mut xiaoling::repl::Piped::new(script.as_bytes()));
    }
    String::from_utf8(out).expect("utf-8 transcript")
}

/// Closing punctuation that must not start a line (禁则).
pub const NO_LINE_START: &str = "，。、；：！？）」』》〉”’…,.;:!?)";

/// Fails on any line wider than `columns` or (after its indent) starting
/// with closing punctuation; colour codes take no room.
pub fn assert_fits(text: &str, columns: usize) {
    for (i, line) in text.lines().enumerate() {
        let visible = xiaoling::repl::wrap::strip_ansi(line);
        let width = xiaoling::repl::wrap::width(&visible);
        assert!(
            width <= columns,
            "line {} is {width} columns wide (> {columns}): {visible:?}",
            i + 1
        );
        let start = visible.trim_start();
        // The map's mark for what is out of sight ("? unseen", "？未见") is a
        // symbol, not a question mark closing a sentence.
        let unseen_mark = start.starts_with("? ") || start.starts_with("？未见");
        if let Some(first) = start.chars().next() {
            assert!(
                !NO_LINE_START.contains(first) || unseen_mark,
                "line {} starts with closing punctuation: {visible:?}",
                i + 1
            );
        }
    }
}

/// The `xiaoling` binary (integration tests only; benches have none).
pub fn bin() -> &'static str {
    match option_env!("CARGO_BIN_EXE_xiaoling") {
        Some(path) => path,
        None => panic!("only integration tests run the binary"),
    }
}

/// Runs the binary with `args`, `input` on a pipe, colour off; returns its output.
pub fn run(args: &[&str], input: &[u8]) -> Output {
    run_env(args, input, &[("NO_COLOR", "1")])
}

/// Runs the binary with extra environment variables.
pub fn run_env(args: &[&str], input: &[u8], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(bin());
    command
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    // A closed pipe just means the program ended before reading everything.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("the binary finishes")
}

/// Runs the binary (colour off): exit code, standard output, standard error.
pub fn run_text(args: &[&str], input: &str) -> (i32, String, String) {
    let out = run(args, input.as_bytes());
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// Standard output or error as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

/// `play` arguments for a battle, role and seed in a save folder.
pub fn play_args(scene: &str, role: &str, seed: u64, saves: &std::path::Path) -> Vec<String> {
    [
        "play",
        "--scene",
        scene,
        "--role",
        role,
        "--seed",
        &seed.to_string(),
        "--saves",
        &saves.display().to_string(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}
