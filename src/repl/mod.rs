//! The REPL: the only layer that prints. It reads commands (from rustyline on
//! a terminal, line by line from a pipe), runs them on the [`Game`], and
//! renders what happened in the player's language, wrapped to the terminal.

pub mod catalogue;
pub mod chronicle;
pub mod commands;
pub mod drawn;
pub mod numbers;
pub mod render;
pub mod wrap;

use crate::save;
use crate::scene::{Locale, Scene};
use crate::story::{Game, Output, StoryError, Told, UnitCommand};
use catalogue::{Msg, Reload, Ui, msg, ui};
use chronicle::Alert;
use commands::{Action, Parsed};
use render::{Style, View};
use std::borrow::Cow;
use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

/// Something to print, composed before printing so a quiet turn can be
/// held back and folded with its neighbours.
enum Piece {
    Blank,
    Line(String),
    Wrapped(String, &'static str),
    Choice,
    Ending(String, Option<Told>, Option<Told>, Option<Told>),
}

/// The verbs of `order`, in English and Chinese.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verb {
    Hold,
    Advance,
    Attack,
    Withdraw,
    Rally,
}

fn verb(word: &str) -> Option<Verb> {
    Some(match word.to_lowercase().as_str() {
        "hold" | "坚守" | "堅守" => Verb::Hold,
        "advance" | "前进" | "前進" | "进至" | "進至" => Verb::Advance,
        "attack" | "进攻" | "進攻" => Verb::Attack,
        "withdraw" | "撤退" => Verb::Withdraw,
        "rally" | "收拢" | "收攏" => Verb::Rally,
        _ => return None,
    })
}

/// A name in every language it is written in.
fn names(text: &crate::scene::Text) -> Vec<&str> {
    match text {
        crate::scene::Text::Plain(name) => vec![name.as_str()],
        crate::scene::Text::Localized(map) => map.values().collect(),
    }
}

/// The id whose id or name the words give: exactly, else the one that begins
/// so (case and a leading "the" aside). Err with the nearest id when none or
/// several do.
fn find<'a>(words: &str, items: &[(&'a str, Vec<&str>)]) -> Result<&'a str, Option<&'a str>> {
    // Case, a leading "the", and hyphens or underscores for spaces aside:
    // `old-mill` is "The old mill".
    let norm = |s: &str| {
        let lower = s.trim().to_lowercase().replace(['-', '_'], " ");
        let lower = lower.split_whitespace().collect::<Vec<_>>().join(" ");
        lower
            .strip_prefix("the ")
            .map(str::to_string)
            .unwrap_or(lower)
    };
    let wanted = norm(words);
    if wanted.is_empty() {
        return Err(None);
    }
    let exact: Vec<&str> = items
        .iter()
        .filter(|(id, names)| norm(id) == wanted || names.iter().any(|n| norm(n) == wanted))
        .map(|(id, _)| *id)
        .collect();
    if let [one] = exact.as_slice() {
        return Ok(one);
    }
    let begins: Vec<&str> = items
        .iter()
        .filter(|(id, names)| {
            norm(id).starts_with(&wanted) || names.iter().any(|n| norm(n).starts_with(&wanted))
        })
        .map(|(id, _)| *id)
        .collect();
    match begins.as_slice() {
        [one] => Ok(one),
        _ => Err(crate::scene::diag::closest(
            &wanted,
            items.iter().map(|(id, _)| *id),
        )),
    }
}

fn not_found(locale: Locale, words: &str, near: Option<&str>, zone: bool) -> String {
    let words = commands::shorten(words, 30);
    msg(
        locale,
        Msg::NotFound {
            words: &words,
            near,
            zone,
        },
    )
}

/// A line read from the player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Text(String),
    /// Ctrl-C: drop the line; twice in a row leaves.
    Interrupted,
    /// End of input: autosave and leave.
    Eof,
    /// Input could not be read (an I/O error): said, then as end of input.
    Broken(String),
    /// A line that cannot be a command: it is reported and play goes on.
    Refused(Refusal),
}

/// Why a line read was not taken as a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Not UTF-8 text.
    NotText,
    /// Longer than [`MAX_LINE_BYTES`] (its length in bytes).
    TooLong(usize),
}

/// The longest line taken as a command, in bytes. Longer lines are read to
/// their end (in bounded memory) and refused.
pub const MAX_LINE_BYTES: usize = 4096;

/// Commands echoed longer than this are shown cut short.
pub const MAX_ECHO_CHARS: usize = 60;

/// Where commands come from.
pub trait LineSource {
    fn read(&mut self, prompt: &str) -> Line;
    /// Whether typed text is echoed by the terminal (else the REPL echoes it).
    fn echoes(&self) -> bool;
    /// What Tab may complete right now.
    fn set_completions(&mut self, _words: Vec<String>) {}
    /// The save folder, whose slots Tab completes after `save` and `load`:
    /// listed only when Tab is pressed there, never at every prompt.
    fn set_saves(&mut self, _dir: &Path) {}
    /// Something the player should know about the input itself (its
    /// history file cannot be kept), said once before the next prompt.
    fn notice(&mut self) -> Option<String> {
        None
    }
}

/// Commands from a pipe or file, one per line.
pub struct Piped<R: BufRead> {
    reader: R,
}

impl<R: BufRead> Piped<R> {
    pub fn new(reader: R) -> Self {
        Piped { reader }
    }
}

/// Reads one line (to `\n` or the end) keeping at most `max` bytes of it;
/// returns the bytes kept and the line's whole length, both without the
/// line ending (`\n` or `\r\n`), or None at the end of input.
pub fn read_bounded(
    reader: &mut impl BufRead,
    max: usize,
) -> std::io::Result<Option<(Vec<u8>, usize)>> {
    let mut kept = Vec::new();
    let mut total = 0_usize;
    let mut last = None;
    let mut any = false;
    let mut ended = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (body, take) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                ended = true;
                (i, i + 1)
            }
            None => (chunk.len(), chunk.len()),
        };
        let room = max.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..body.min(room)]);
        if body > 0 {
            last = Some(chunk[body - 1]);
        }
        total = total.saturating_add(body);
        reader.consume(take);
        if ended {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if ended && last == Some(b'\r') {
        total -= 1;
        if kept.len() > total {
            kept.truncate(total);
        }
    }
    Ok(Some((kept, total)))
}

impl<R: BufRead> LineSource for Piped<R> {
    fn read(&mut self, _prompt: &str) -> Line {
        match read_bounded(&mut self.reader, MAX_LINE_BYTES) {
            Ok(None) => Line::Eof,
            Err(err) => Line::Broken(err.to_string()),
            Ok(Some((_, length))) if length > MAX_LINE_BYTES => {
                Line::Refused(Refusal::TooLong(length))
            }
            Ok(Some((bytes, _))) => match String::from_utf8(bytes) {
                Ok(text) => Line::Text(text),
                Err(_) => Line::Refused(Refusal::NotText),
            },
        }
    }
    fn echoes(&self) -> bool {
        false
    }
}

/// Tab completion and hints for rustyline, fed by the command table.
pub struct Helper {
    words: Rc<RefCell<Vec<String>>>,
    saves: Rc<RefCell<Option<PathBuf>>>,
}

impl rustyline::completion::Completer for Helper {
    type Candidate = String;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let before = &line[..pos];
        let start = before.rfind(' ').map(|i| i + 1).unwrap_or(0);
        let partial = &before[start..];
        let first_word = start == 0;
        let words = self.words.borrow();
        let candidates = if first_word {
            commands::COMMANDS
                .iter()
                .map(|c| c.name.to_string())
                .chain(
                    words
                        .iter()
                        .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
                        .cloned(),
                )
                .filter(|w| w.starts_with(partial))
                .collect()
        } else {
            let command = before.split_whitespace().next().unwrap_or("");
            let pool: Vec<String> = match command {
                "save" | "load" => self
                    .saves
                    .borrow()
                    .as_deref()
                    .map(save::slot_names)
                    .unwrap_or_default(),
                "lang" => Locale::ALL.iter().map(|l| l.tag().to_string()).collect(),
                "order" | "o" => {
                    // order UNIT VERB [ZONE]: a unit first, then a verb, then a place.
                    let typed: Vec<&str> = before.split_whitespace().skip(1).collect();
                    let done = if before.ends_with(' ') {
                        typed.len()
                    } else {
                        typed.len().saturating_sub(1)
                    };
                    let has_verb = typed[..done].iter().any(|w| verb(w).is_some());
                    let prefixed = |prefix: &str| -> Vec<String> {
                        words
                            .iter()
                            .filter_map(|w| w.strip_prefix(prefix).map(str::to_string))
                            .collect()
                    };
                    match (done, has_verb) {
                        (0, _) => prefixed("unit:"),
                        (_, false) => ["hold", "advance", "attack", "withdraw", "rally"]
                            .iter()
                            .map(|v| v.to_string())
                            .collect(),
                        (_, true) => prefixed("zone:"),
                    }
                }
                _ => Vec::new(),
            };
            pool.into_iter()
                .filter(|w| w.starts_with(partial))
                .collect()
        };
        Ok((start, candidates))
    }
}

impl rustyline::hint::Hinter for Helper {
    type Hint = String;
    fn hint(&self, line: &str, pos: usize, _: &rustyline::Context<'_>) -> Option<String> {
        if pos < line.len() || line.is_empty() {
            return None;
        }
        let word = line.trim();
        let spec = commands::COMMANDS
            .iter()
            .find(|c| c.name.starts_with(word) && !word.contains(' '))?;
        if spec.name == word {
            let usage = commands::usage_for(word)?;
            return usage
                .strip_prefix(word)
                .filter(|rest| !rest.trim().is_empty())
                .map(str::to_string);
        }
        Some(spec.name[word.len()..].to_string())
    }
}

impl rustyline::highlight::Highlighter for Helper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        Cow::Owned(format!("\u{1b}[2m{hint}\u{1b}[0m"))
    }
}
impl rustyline::validate::Validator for Helper {}
impl rustyline::Helper for Helper {}

/// A terminal: rustyline with history kept in a file.
pub struct Terminal {
    editor: rustyline::Editor<Helper, rustyline::history::FileHistory>,
    words: Rc<RefCell<Vec<String>>>,
    saves: Rc<RefCell<Option<PathBuf>>>,
    history: Option<PathBuf>,
    /// Why the history is not kept, until the player is told.
    untold: Option<String>,
}

/// The largest history file read.
const MAX_HISTORY_BYTES: u64 = 16 * 1024 * 1024;

/// Whether a history file may be kept at `path`: nothing there yet, or a
/// regular file that is not a link (read and written only then, so a link
/// planted there never has its target read or written); else why not.
pub fn history_usable(path: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(err) => Err(err.to_string()),
        Ok(meta) if meta.file_type().is_symlink() => Err("it is a link".into()),
        Ok(meta) if !meta.is_file() => Err("it is not a regular file".into()),
        Ok(meta) if meta.len() > MAX_HISTORY_BYTES => Err("it is far too large".into()),
        Ok(_) => Ok(()),
    }
}

/// The history as rustyline's file holds it (`#V2`, one entry a line, `\\`
/// and `\n` escaped).
fn history_text<'a>(entries: impl Iterator<Item = &'a String>) -> String {
    let mut text = String::from("#V2\n");
    for entry in entries {
        text.push_str(&entry.replace('\\', "\\\\").replace('\n', "\\n"));
        text.push('\n');
    }
    text
}

impl Terminal {
    pub fn new(history: Option<PathBuf>) -> rustyline::Result<Terminal> {
        let config = rustyline::Config::builder()
            .auto_add_history(true)
            .completion_type(rustyline::CompletionType::List)
            .max_history_size(1000)?
            .build();
        let mut editor = rustyline::Editor::with_config(config)?;
        let words = Rc::new(RefCell::new(Vec::new()));
        let saves = Rc::new(RefCell::new(None));
        editor.set_helper(Some(Helper {
            words: Rc::clone(&words),
            saves: Rc::clone(&saves),
        }));
        let mut terminal = Terminal {
            editor,
            words,
            saves,
            history: None,
            untold: None,
        };
        if let Some(path) = history {
            match history_usable(&path) {
                Ok(()) => {
                    if path.exists() {
                        let _ = terminal.editor.load_history(&path);
                    }
                    terminal.history = Some(path);
                }
                Err(why) => terminal.refuse_history(&path, &why),
            }
        }
        Ok(terminal)
    }

    fn refuse_history(&mut self, path: &Path, why: &str) {
        self.history = None;
        self.untold = Some(format!(
            "(The command history is not kept this session: {} is not a plain file ({why}), and it is left as it is.)",
            path.display()
        ));
    }

    /// Writes the history atomically (a new file renamed over the old, so
    /// nothing is written through a link), if the file is still usable.
    fn save_history(&mut self) {
        let Some(path) = self.history.clone() else {
            return;
        };
        if let Err(why) = history_usable(&path) {
            self.refuse_history(&path, &why);
            return;
        }
        let text = history_text(self.editor.history().iter());
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let _ = crate::files::write_atomic(dir, &path, text.as_bytes());
    }
}

impl LineSource for Terminal {
    fn read(&mut self, prompt: &str) -> Line {
        let line = match self.editor.readline(prompt) {
            Ok(line) => Line::Text(line),
            Err(rustyline::error::ReadlineError::Interrupted) => Line::Interrupted,
            Err(_) => Line::Eof,
        };
        if let Line::Text(_) = &line {
            self.save_history();
        }
        line
    }
    fn notice(&mut self) -> Option<String> {
        self.untold.take()
    }
    fn echoes(&self) -> bool {
        true
    }
    fn set_completions(&mut self, words: Vec<String>) {
        *self.words.borrow_mut() = words;
    }

    fn set_saves(&mut self, dir: &Path) {
        let mut saves = self.saves.borrow_mut();
        if saves.as_deref() != Some(dir) {
            *saves = Some(dir.to_path_buf());
        }
    }
}

/// How the session looks and where it keeps saves.
#[derive(Debug, Clone)]
pub struct Options {
    pub locale: Locale,
    pub style: Style,
    pub saves_dir: PathBuf,
}

/// Own units' orders in force (by unit) and the orders on their way.
type OwnOrders = (
    Vec<(usize, crate::sim::movement::UnitOrder)>,
    Vec<crate::story::Courier>,
);

/// One game at the prompt.
pub struct Session<'a> {
    game: Game,
    options: Options,
    out: &'a mut dyn Write,
    /// Everything shown, without colour: kept in saves.
    transcript: save::Transcript,
    /// Decisions and events, for `log`.
    scenes: Vec<Arc<Scene>>,
    /// Output failed (closed pipe, full disk): stop, and say why at the end.
    closed: bool,
    /// Why output failed, for the exit status.
    write_error: Option<String>,
    /// The last autosave failed and the player was told: say it only once.
    autosave_failed: bool,
    /// What the chronicle told lately, so it does not repeat itself.
    memory: chronicle::Memory,
    /// The last turn's chronicle entries, for `report`.
    last_entries: Vec<crate::sim::Entry>,
    /// Quiet turns held back during a run: (first turn, its minute, count,
    /// the last one's minute).
    fold: Option<(u32, u32, u32, u32)>,
    /// The line of atmosphere for the held-back run, chosen at its first turn.
    fold_air: Option<(usize, String)>,
    /// Several turns are passing at once (`next N`, `wait`).
    running: bool,
    /// Atmosphere lines told, by index, with the turn they were told.
    atmosphere_told: std::collections::BTreeMap<usize, u32>,
    /// The save on leaving failed: the exit status says so.
    leave_save_failed: bool,
    /// Re-read the terminal's width before each command's output.
    live_width: bool,
    /// Ctrl-C pressed at the last prompt (twice in a row leaves).
    interrupted: bool,
    /// `play --transcript FILE`: everything shown, as plain text.
    transcript_file: Option<(PathBuf, Box<dyn Write>)>,
    /// Writes the saves: autosaves off the turn, in the background.
    saver: save::Autosaver,
    /// The battles not loaded at the start, for a save of one of them.
    more_scenes: Option<Box<dyn FnOnce() -> Vec<Arc<Scene>>>>,
    /// Where `reload` reads the battle again from.
    scene_folder: Option<PathBuf>,
    /// The save folder as the player named it (`--saves DIR`), for the
    /// commands the game prints; None for the default `saves/`.
    saves_named: Option<String>,
    /// A new game: the first prompts say how to play on, until the player
    /// has let a turn pass, waited, given an order or asked for help.
    first_hint: bool,
    /// Per command that changed the game, the depth of the game's undo
    /// history before it: `undo` takes back the whole command (a `wait`
    /// of three turns is one).
    undo_marks: Vec<usize>,
    /// What `undo` took back, for `redo`: the game as it was after.
    redo: Vec<Redo>,
}

/// A command taken back: the game's state, log and undo history after it,
/// and the mark it had.
struct Redo {
    snapshot: crate::story::Snapshot,
    log: Vec<crate::story::Command>,
    undo: Vec<crate::story::Snapshot>,
    mark: usize,
}

/// How a session ended, for the exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    /// Output could not be written (stdout or the transcript file): why.
    pub write_error: Option<String>,
    /// The autosave on leaving failed.
    pub save_failed: bool,
}

impl Ending {
    pub fn ok(&self) -> bool {
        self.write_error.is_none() && !self.save_failed
    }
}

/// Turns before an atmosphere line may be told again.
const ATMOSPHERE_REST: u32 = 6;

impl<'a> Session<'a> {
    pub fn new(
        game: Game,
        options: Options,
        scenes: Vec<Arc<Scene>>,
        out: &'a mut dyn Write,
    ) -> Self {
        Session {
            game,
            options,
            out,
            transcript: save::Transcript::default(),
            scenes,
            closed: false,
            write_error: None,
            autosave_failed: false,
            memory: chronicle::Memory::default(),
            last_entries: Vec::new(),
            fold: None,
            fold_air: None,
            running: false,
            atmosphere_told: std::collections::BTreeMap::new(),
            leave_save_failed: false,
            live_width: false,
            interrupted: false,
            transcript_file: None,
            saver: save::Autosaver::new(),
            more_scenes: None,
            scene_folder: None,
            saves_named: None,
            first_hint: false,
            undo_marks: Vec::new(),
            redo: Vec::new(),
        }
        .remembering()
    }

    /// The battles that `scenes` lacks, loaded when a save of one of them is
    /// (a start that named its battle parsed that one only).
    pub fn with_more_scenes(mut self, load: Box<dyn FnOnce() -> Vec<Arc<Scene>>>) -> Self {
        self.more_scenes = Some(load);
        self
    }

    /// The folder `reload` reads the battle's file from.
    pub fn with_scene_folder(mut self, folder: PathBuf) -> Self {
        self.scene_folder = Some(folder);
        self
    }

    /// The save folder was given (`--saves DIR`): the commands the game
    /// prints to go on with it name it.
    pub fn with_saves_named(mut self, folder: String) -> Self {
        self.saves_named = Some(folder);
        self
    }

    /// Re-reads the terminal's width before each command's output, so a
    /// resized window is filled again.
    pub fn with_live_width(mut self) -> Self {
        self.live_width = true;
        self
    }

    /// Writes everything shown, as plain text, to `file` too (`path` names it in errors).
    pub fn with_transcript_file(mut self, path: PathBuf, file: Box<dyn Write>) -> Self {
        self.transcript_file = Some((path, file));
        self
    }

    /// How the session went, for the exit status: flushes the transcript file.
    pub fn ending(&mut self) -> Ending {
        if let Some((path, file)) = &mut self.transcript_file
            && let Err(err) = file.flush()
            && self.write_error.is_none()
        {
            self.write_error = Some(format!(
                "cannot write the transcript {}: {err}",
                path.display()
            ));
        }
        if !self.closed
            && let Err(err) = self.out.flush()
        {
            self.write_error = Some(format!("cannot write to standard output: {err}"));
        }
        Ending {
            write_error: self.write_error.clone(),
            save_failed: self.leave_save_failed,
        }
    }

    fn refresh_width(&mut self) {
        if self.live_width
            && let Some((w, _)) = terminal_size::terminal_size()
        {
            self.options.style.columns = usize::from(w.0).max(20);
        }
    }

    /// Keeps `text` (plain) in the transcript and the transcript file.
    fn record(&mut self, plain: &str) {
        // Bounded in memory too: saves keep only the tail anyway.
        self.transcript.push_line(plain);
        if let Some((path, file)) = &mut self.transcript_file
            && let Err(err) = writeln!(file, "{plain}")
        {
            if self.write_error.is_none() {
                self.write_error = Some(format!(
                    "cannot write the transcript {}: {err}",
                    path.display()
                ));
            }
            self.transcript_file = None;
        }
    }

    /// Starts the chronicle's memory from the world as it is now.
    fn remembering(mut self) -> Self {
        self.reset_memory();
        self
    }

    fn reset_memory(&mut self) {
        let weather = self.game.world().weather;
        self.memory.reset(weather.wind, weather.toward);
        self.last_entries.clear();
    }

    /// Continues a transcript (after loading a save).
    pub fn with_transcript(mut self, transcript: String) -> Self {
        self.transcript = save::Transcript::new(transcript);
        self
    }

    pub fn transcript(&self) -> &str {
        self.transcript.as_str()
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Tells the player something outside the story (e.g. a save's scene changed).
    pub fn handle_notice(&mut self, text: &str) {
        self.say_wrapped(text, "");
    }

    fn say(&mut self, text: &str) {
        if self.closed {
            return;
        }
        // Whatever is said fits the terminal: a line too wide is wrapped
        // (under its own indent) here, the one place everything passes.
        let columns = self.options.style.columns;
        let fitted;
        let text = if text.lines().any(|line| wrap::width(line) > columns) {
            fitted = text
                .split('\n')
                .map(|line| {
                    if wrap::width(line) <= columns {
                        return line.to_string();
                    }
                    let body = line.trim_start_matches(' ');
                    let indent = &line[..line.len() - body.len()];
                    wrap::wrap(body, columns, indent)
                })
                .collect::<Vec<_>>()
                .join("\n");
            fitted.as_str()
        } else {
            text
        };
        let plain = wrap::strip_ansi(text);
        self.record(&plain);
        let text = wrap::strip_marks(text);
        if let Err(err) = writeln!(self.out, "{text}") {
            self.closed = true;
            self.write_error = Some(format!("cannot write to standard output: {err}"));
        }
    }

    fn say_wrapped(&mut self, text: &str, indent: &str) {
        let wrapped = wrap::wrap(text, self.options.style.columns, indent);
        self.say(&wrapped);
    }

    fn with_view<T>(&mut self, f: impl FnOnce(&View) -> T) -> T {
        let known = self.game.known();
        let scene = self.game.scene_arc();
        let field = self.game.field().clone();
        let view = View {
            scene: &scene,
            field: &field,
            known: &known,
            locale: self.options.locale,
            side: self.game.role_side(),
            role: Some(self.game.role().to_string()),
            style: self.options.style,
        };
        f(&view)
    }

    /// The opening screen: title, date, place, role, intro.
    pub fn opening(&mut self) {
        self.first_hint = true;
        let scene = self.game.scene_arc();
        let l = self.options.locale;
        let meta = scene.meta();
        let title = self.options.style.bold(meta.title.get(l));
        self.say(&title);
        let sep = ui(l, Ui::DatePlaceSep);
        self.say_wrapped(
            &format!("{}{sep}{}", meta.date.get(l), meta.place.get(l)),
            "",
        );
        let role = scene
            .commander(self.game.role())
            .map(|c| c.name.get(l).to_string())
            .unwrap_or_default();
        let seed = self.game.seed();
        let line = msg(l, Msg::RoleLine { role: &role, seed });
        self.say(&line);
        self.say("");
        if let Some(intro) = self.game.tell(&meta.intro, "intro") {
            let intro = self.with_view(|v| v.told(&intro));
            self.say_wrapped(&intro, "");
        }
    }

    fn say_told(&mut self, told: &Told) {
        let text = self.with_view(|v| v.told(told));
        if !text.is_empty() {
            self.say_wrapped(&text, "");
        }
    }

    /// Renders what the story reported; returns why a run of turns should
    /// stop here, if anything needs the player.
    pub fn show(&mut self, outputs: &[Output]) -> Option<Alert> {
        let (pieces, quiet, alert) = self.compose_outputs(outputs);
        let turn = outputs.iter().find_map(|o| match o {
            Output::Turn { turn, minute } => Some((*turn, *minute)),
            _ => None,
        });
        if let (true, Some((turn, minute))) = (quiet, turn) {
            // A quiet turn: held back while a run goes on, told folded after.
            // Its line of atmosphere is chosen now, from the world as this
            // turn left it: told after the turn that ends the run, it must
            // not tell what only that turn did (a bridge not yet blown).
            if self.fold.is_none() {
                self.fold_air = self.fresh_atmosphere(turn);
            }
            let fold = self.fold.get_or_insert((turn, minute, 0, minute));
            fold.2 += 1;
            fold.3 = minute;
            if !self.running {
                self.flush_fold();
            }
            return alert;
        }
        self.flush_fold();
        for piece in pieces {
            match piece {
                Piece::Blank => self.say(""),
                Piece::Line(text) => self.say(&text),
                Piece::Wrapped(text, indent) => self.say_wrapped(&text, indent),
                Piece::Choice => self.show_choice(),
                Piece::Ending(id, text, summary, history) => {
                    self.show_ending(&id, text.as_ref(), summary.as_ref(), history.as_ref())
                }
            }
        }
        alert
    }

    /// Tells the quiet turns held back: one header for the run and a line
    /// of atmosphere.
    fn flush_fold(&mut self) {
        let Some((first_turn, first_minute, count, last_minute)) = self.fold.take() else {
            return;
        };
        let last_turn = first_turn + count - 1;
        let header = self.with_view(|v| {
            if count == 1 {
                v.turn_header(first_turn, first_minute)
            } else {
                v.turns_header(first_turn, last_turn, first_minute, last_minute)
            }
        });
        self.say("");
        self.say(&header);
        if let Some((i, text)) = self.fold_air.take() {
            // Rested from the turn it is told at, as before.
            self.atmosphere_told.insert(i, self.game.turn());
            self.say_wrapped(&text, "  ");
        }
    }

    /// The line of atmosphere for a quiet run starting at `turn`, from the
    /// world as it stands: one not told in the last few turns, or none (the
    /// same line every quarter hour reads like a log).
    fn fresh_atmosphere(&mut self, turn: u32) -> Option<(usize, String)> {
        let fresh = self.game.atmosphere().into_iter().find(|(i, _)| {
            self.atmosphere_told
                .get(i)
                .is_none_or(|told| turn >= told + ATMOSPHERE_REST)
        });
        let (i, line) = fresh?;
        Some((i, self.with_view(|v| v.told(&line))))
    }

    /// What the outputs tell, in order, before anything is printed: the
    /// pieces, whether the turn was quiet (nothing but its header), and why
    /// it needs the player.
    fn compose_outputs(&mut self, outputs: &[Output]) -> (Vec<Piece>, bool, Option<Alert>) {
        let scene = self.game.scene_arc();
        let l = self.options.locale;
        let mut pieces = Vec::new();
        let mut alert: Option<Alert> = None;
        let mut batch: Vec<crate::sim::Entry> = Vec::new();
        let mut memory = std::mem::take(&mut self.memory);
        memory.header_tells_wind = outputs.iter().any(|o| matches!(o, Output::Turn { .. }));
        let mut turn_entries = Vec::new();
        let mut told = 0usize;
        for (i, output) in outputs.iter().enumerate() {
            if let Output::Chronicle(entry) = output {
                batch.push(entry.clone());
                turn_entries.push(entry.clone());
                if !matches!(outputs.get(i + 1), Some(Output::Chronicle(_))) {
                    let new_turn = matches!(outputs.first(), Some(Output::Turn { .. }))
                        && outputs[..i]
                            .iter()
                            .all(|o| matches!(o, Output::Turn { .. } | Output::Chronicle(_)));
                    let composed = self.with_view(|v| v.compose(&batch, &mut memory, new_turn));
                    batch.clear();
                    if let Some(a) = composed.alert {
                        alert = Some(alert.map_or(a, |old| old.min(a)));
                    }
                    if !composed.sentences.is_empty() {
                        let sep = ui(l, Ui::SentenceGap);
                        pieces.push(Piece::Wrapped(composed.sentences.join(sep), "  "));
                        told += 1;
                    }
                }
                continue;
            }
            match output {
                Output::Turn { turn, minute } => {
                    let header = self.with_view(|v| v.turn_header(*turn, *minute));
                    pieces.push(Piece::Blank);
                    pieces.push(Piece::Line(header));
                }
                Output::Chronicle(_) => {}
                Output::Event { text, .. } => {
                    if let Some(text) = text {
                        let text = self.with_view(|v| v.told(text));
                        if !text.is_empty() {
                            pieces.push(Piece::Blank);
                            pieces.push(Piece::Wrapped(text, ""));
                            told += 1;
                        }
                    }
                }
                Output::Narrate(narration) => {
                    let text = self.with_view(|v| v.told(narration));
                    if !text.is_empty() {
                        pieces.push(Piece::Wrapped(text, ""));
                        told += 1;
                    }
                }
                Output::Cry(text) => {
                    let cry = self.with_view(|v| v.told(text));
                    let line = msg(l, Msg::CryNearby { cry: &cry });
                    pieces.push(Piece::Wrapped(line, ""));
                    told += 1;
                }
                Output::Ordered {
                    unit,
                    order,
                    arrives,
                } => {
                    let text = self.with_view(|v| v.ordered(*unit, order, *arrives));
                    pieces.push(Piece::Wrapped(text, ""));
                    told += 1;
                }
                Output::OrderArrived { unit } | Output::OrderLost { unit } => {
                    let lost = matches!(output, Output::OrderLost { .. });
                    let text = self.with_view(|v| v.order_delivered(*unit, lost));
                    pieces.push(Piece::Wrapped(text, "  "));
                    told += 1;
                }
                Output::Situation { .. } => {
                    pieces.push(Piece::Choice);
                    told += 1;
                }
                Output::Decided {
                    tp,
                    option,
                    by_player,
                } => {
                    let Some(tp) = scene.turning_point(tp) else {
                        continue;
                    };
                    let Some(choice) = tp.options.iter().find(|o| &o.id == option) else {
                        continue;
                    };
                    // Only the player's own choice is named: what the side
                    // nobody plays decided reaches him as what he perceived.
                    if *by_player {
                        let colon = ui(l, Ui::Colon);
                        pieces.push(Piece::Blank);
                        pieces.push(Piece::Wrapped(
                            format!("{}{colon}{}", ui(l, Ui::YourChoice), choice.text.get(l)),
                            "",
                        ));
                        told += 1;
                    }
                }
                Output::Ending {
                    id,
                    text,
                    summary,
                    history,
                } => {
                    pieces.push(Piece::Ending(
                        id.clone(),
                        text.clone(),
                        summary.clone(),
                        history.clone(),
                    ));
                    told += 1;
                }
            }
        }
        self.memory = memory;
        if outputs.iter().any(|o| matches!(o, Output::Turn { .. })) {
            self.last_entries = turn_entries;
        }
        let stops = outputs.iter().any(|o| {
            matches!(o, Output::Situation { .. } | Output::Ending { .. })
                || matches!(o, Output::Event { text: Some(_), .. })
        });
        if stops && alert.is_none() {
            alert = Some(Alert::Story);
        }
        (pieces, told == 0, alert)
    }

    fn show_choice(&mut self) {
        let Some(tp) = self.game.pending().cloned() else {
            return;
        };
        let l = self.options.locale;
        self.say("");
        self.say(&self.options.style.bold("★"));
        if let Some(situation) = self.game.situation() {
            self.say_told(&situation);
        }
        let sources = self.game.shows_sources();
        for (i, option) in tp.options.iter().enumerate() {
            let number = format!("  {}. ", i + 1);
            let hang = " ".repeat(number.len());
            let mut text = option.text.get(l).to_string();
            if sources && let Some(mark) = source_mark(l, option.from) {
                text.push_str(&mark);
            }
            let wrapped = wrap::wrap(&text, self.options.style.columns, &hang);
            self.say(&format!("{number}{}", wrapped.trim_start()));
        }
    }

    fn show_ending(
        &mut self,
        id: &str,
        text: Option<&Told>,
        summary: Option<&Told>,
        history: Option<&Told>,
    ) {
        let scene = self.game.scene_arc();
        let l = self.options.locale;
        let Some(ending) = scene.ending(id) else {
            return;
        };
        self.say("");
        let title = format!("{}{}", ui(l, Ui::Ending), ending.title.get(l));
        let title = self.options.style.bold(&title);
        self.say(&title);
        if let Some(text) = text {
            self.say_told(text);
        }
        self.say("");
        self.say(&self.options.style.bold(ui(l, Ui::AfterAction)));
        if let Some(summary) = summary {
            self.say_told(summary);
        }
        let losses = self.with_view(|v| v.losses());
        self.say(&losses);
        if let Some(history) = history {
            self.say("");
            let key = if render::from_novel(self.game.scene()) {
                Ui::History
            } else {
                Ui::HistoryRecords
            };
            self.say(&self.options.style.bold(ui(l, key)));
            self.say_told(history);
        }
        self.say_reveal();
    }

    fn prompt(&self) -> String {
        let l = self.options.locale;
        if let Some(tp) = self.game.pending() {
            return format!("{} 1-{}> ", ui(l, Ui::Choose), tp.options.len());
        }
        if self.game.is_over() {
            return "> ".to_string();
        }
        format!("[{}] > ", crate::story::clock(self.game.minute()))
    }

    fn completions(&mut self) -> Vec<String> {
        let mut words: Vec<String> = match self.game.pending() {
            Some(tp) => (1..=tp.options.len()).map(|n| n.to_string()).collect(),
            None => Vec::new(),
        };
        let scene = self.game.scene_arc();
        let own = self.game.player_units();
        words.extend(
            own.iter()
                .filter_map(|i| scene.units().get(*i))
                .map(|u| format!("unit:{}", u.id)),
        );
        words.extend(scene.zones().iter().map(|z| format!("zone:{}", z.id)));
        words
    }

    /// The prompt loop, until quit, end of input or Ctrl-C twice.
    pub fn run(&mut self, input: &mut dyn LineSource) {
        loop {
            if self.closed {
                return;
            }
            if let Some(notice) = input.notice() {
                self.say_wrapped(&notice, "");
            }
            self.autosave_outcome();
            input.set_completions(self.completions());
            input.set_saves(&self.options.saves_dir);
            if self.first_hint && self.game.pending().is_none() && !self.game.is_over() {
                let l = self.options.locale;
                let text = self.options.style.dim(ui(l, Ui::FirstHint));
                self.say_wrapped(&text, "");
                // Said once: a player reading `map` and `status` first has it.
                self.first_hint = false;
            }
            let prompt = self.prompt();
            let read = input.read(&prompt);
            self.refresh_width();
            let line = match read {
                Line::Text(line) if line.len() > MAX_LINE_BYTES => {
                    self.echo(input, &prompt, "");
                    self.refused(Refusal::TooLong(line.len()));
                    continue;
                }
                Line::Text(line) => line,
                Line::Refused(why) => {
                    self.echo(input, &prompt, "");
                    self.refused(why);
                    continue;
                }
                Line::Interrupted => {
                    if self.interrupted {
                        self.leave();
                        return;
                    }
                    self.interrupted = true;
                    let l = self.options.locale;
                    self.say_wrapped(ui(l, Ui::Cancelled), "");
                    continue;
                }
                Line::Eof => {
                    self.leave();
                    return;
                }
                Line::Broken(why) => {
                    let l = self.options.locale;
                    let text = msg(l, Msg::StdinBroken { why: &why });
                    self.say_wrapped(&text, "");
                    self.leave();
                    return;
                }
            };
            self.interrupted = false;
            self.echo(input, &prompt, &line);
            if !self.handle(&line) {
                self.leave();
                return;
            }
        }
    }

    /// Shows (or, on a terminal that echoed it, only records) the line typed,
    /// cleaned of control characters and cut short when long.
    fn echo(&mut self, input: &dyn LineSource, prompt: &str, line: &str) {
        let shown = commands::shorten(commands::clean(line).trim_end(), MAX_ECHO_CHARS);
        let text = format!("{prompt}{shown}");
        if input.echoes() {
            self.record(&text);
        } else {
            self.say(&text);
        }
    }

    fn refused(&mut self, why: Refusal) {
        let l = self.options.locale;
        let text = match why {
            Refusal::NotText => ui(l, Ui::NotText).to_string(),
            Refusal::TooLong(n) => msg(
                l,
                Msg::TooLong {
                    size: &crate::files::human_bytes(n as u64),
                    max: &crate::files::human_bytes(MAX_LINE_BYTES as u64),
                },
            ),
        };
        self.say(&text);
    }

    /// Autosaves and says so (or says why it could not) before leaving.
    fn leave(&mut self) {
        let l = self.options.locale;
        let slot = save::autosave_slot(&self.game, "quit");
        let result = self.saver.save_now(
            &self.options.saves_dir,
            &slot,
            &mut self.game,
            &self.transcript,
        );
        let text = match result {
            Ok(_) => msg(
                l,
                Msg::Left {
                    slot: &slot,
                    saves: self.saves_named.as_deref(),
                    over: self.game.is_over(),
                },
            ),
            Err(err) => {
                self.leave_save_failed = true;
                msg(
                    l,
                    Msg::LeaveFailed {
                        err: &err.to_string(),
                    },
                )
            }
        };
        // A command to type comes on a line of its own, unwrapped, whole
        // to copy however narrow the terminal.
        match text.split_once('\n') {
            Some((said, command)) => {
                self.say_wrapped(said, "");
                self.say(command);
            }
            None => self.say_wrapped(&text, ""),
        }
    }

    /// Runs one line; false to leave.
    pub fn handle(&mut self, line: &str) -> bool {
        let parsed = commands::parse(line);
        if matches!(
            parsed,
            Parsed::Empty
                | Parsed::Command(
                    Action::Next | Action::Wait | Action::Order | Action::Help,
                    _
                )
        ) {
            self.first_hint = false;
        }
        if matches!(parsed, Parsed::Command(Action::Undo | Action::Redo, _)) {
            return self.handle_parsed(parsed, line);
        }
        let loads = matches!(parsed, Parsed::Command(Action::Load, _));
        let depth = self.game.undo_history().len();
        let log = self.game.log().len();
        let go_on = self.handle_parsed(parsed, line);
        let now = self.game.undo_history().len();
        if loads {
            self.undo_marks.clear();
            self.redo.clear();
        } else if now > depth {
            self.undo_marks.push(depth);
            self.redo.clear();
        } else if now < depth || self.game.log().len() < log {
            // A load or a restart: the marks of the old game mean nothing.
            self.undo_marks.clear();
            self.redo.clear();
        }
        go_on
    }

    fn handle_parsed(&mut self, parsed: Parsed, line: &str) -> bool {
        let l = self.options.locale;
        match parsed {
            Parsed::Empty => {
                if let Some(tp) = self.game.pending() {
                    let count = tp.options.len();
                    let text = msg(l, Msg::ChooseOption { count });
                    self.say(&text);
                } else {
                    self.advance();
                }
            }
            Parsed::Number(n) => {
                let before = self.own_orders();
                let result = self.game.choose(n);
                match result {
                    Ok(outputs) => {
                        self.show(&outputs);
                        self.say_changed_orders(&before);
                        self.autosave("turn");
                    }
                    Err(err) => self.error(&err),
                }
            }
            Parsed::BadNumber(number) => {
                let max = self.game.pending().map(|tp| tp.options.len());
                let text = msg(
                    l,
                    Msg::TooLarge {
                        number: &number,
                        max,
                    },
                );
                self.say_wrapped(&text, "");
            }
            Parsed::ExtraWords {
                command,
                usage: _,
                extra,
            } if command == "save" || command == "load" => {
                let text = msg(
                    l,
                    Msg::SlotOneWord {
                        command: &command,
                        extra: &extra,
                        max: save::MAX_SLOT_CHARS,
                    },
                );
                self.say_wrapped(&text, "");
            }
            Parsed::ExtraWords {
                command,
                usage,
                extra,
            } => {
                let text = msg(
                    l,
                    Msg::ExtraWords {
                        command: &command,
                        usage,
                        extra: &extra,
                    },
                );
                self.say_wrapped(&text, "");
            }
            // An order's verb alone ("rally", "attack ford"): the order
            // needs the unit it is for.
            Parsed::Unknown { word, .. } if verb(&word).is_some() => {
                let scene = self.game.scene_arc();
                if let Some(commander) = scene.commander(self.game.role())
                    && !commander.gives_orders
                {
                    let name = commander.name.get(Locale::En).to_string();
                    self.error(&StoryError::NoOrders(name));
                    return true;
                }
                let rest = line
                    .split_whitespace()
                    .skip(1)
                    .collect::<Vec<_>>()
                    .join(" ");
                let example = if rest.is_empty() {
                    format!("order UNIT {word}")
                } else {
                    format!("order UNIT {word} {rest}")
                };
                let message = msg(l, Msg::OrderNamesUnit { example: &example });
                self.say_wrapped(&message, "");
            }
            Parsed::Unknown { word, suggestion } => {
                let message = msg(
                    l,
                    Msg::UnknownCommand {
                        word: &word,
                        suggestion,
                    },
                );
                self.say_wrapped(&message, "");
            }
            Parsed::Command(action, args) => return self.command(action, &args),
        }
        true
    }

    fn advance(&mut self) {
        match self.game.next() {
            Ok(outputs) => {
                self.show(&outputs);
                self.autosave("turn");
            }
            Err(err) => self.error(&err),
        }
    }

    /// `order UNIT VERB [ZONE]`: finds the unit and the zone by id or name
    /// (English or Chinese, a unique beginning is enough), then sends it.
    fn order(&mut self, args: &[String]) {
        let l = self.options.locale;
        let usage = ui(l, Ui::OrderUsage);
        let verb_at = args.iter().position(|w| verb(w).is_some());
        let Some(verb_at) = verb_at.filter(|at| *at > 0) else {
            self.say_wrapped(usage, "");
            return;
        };
        let unit_words = args[..verb_at].join(" ");
        let zone_words = args[verb_at + 1..].join(" ");
        let scene = self.game.scene_arc();
        let own = self.game.player_units();
        let units: Vec<(&str, Vec<&str>)> = own
            .iter()
            .filter_map(|i| scene.units().get(*i))
            .map(|u| (u.id.as_str(), names(&u.name)))
            .collect();
        let unit = match find(&unit_words, &units) {
            Ok(id) => id.to_string(),
            Err(near) => {
                self.say_wrapped(&not_found(l, &unit_words, near, false), "");
                return;
            }
        };
        let needs_zone = matches!(verb(&args[verb_at]), Some(Verb::Advance | Verb::Attack));
        if needs_zone && zone_words.trim().is_empty() {
            // `order X attack` with no place: say how, not "no place named ''".
            self.say_wrapped(usage, "");
            return;
        }
        let zone = if needs_zone {
            let labels: Vec<String> = (0..scene.zones().len()).map(drawn::zone_label).collect();
            let zones: Vec<(&str, Vec<&str>)> = scene
                .zones()
                .iter()
                .zip(&labels)
                .map(|(z, label)| {
                    let mut names = names(&z.name);
                    names.push(label.as_str());
                    (z.id.as_str(), names)
                })
                .collect();
            // A letter the map prints names its place, whatever else begins so.
            let by_label = drawn::zone_of_label(&scene, &zone_words)
                .and_then(|z| scene.zones().get(z))
                .map(|z| z.id.as_str());
            match by_label
                .ok_or(None)
                .or_else(|_: Option<&str>| find(&zone_words, &zones))
            {
                Ok(id) => id.to_string(),
                Err(near) => {
                    self.say_wrapped(&not_found(l, &zone_words, near, true), "");
                    return;
                }
            }
        } else {
            if !zone_words.is_empty() {
                self.say_wrapped(usage, "");
                return;
            }
            String::new()
        };
        let order = match verb(&args[verb_at]) {
            Some(Verb::Hold) => UnitCommand::Hold,
            Some(Verb::Advance) => UnitCommand::Advance(zone),
            Some(Verb::Attack) => UnitCommand::Attack(zone),
            Some(Verb::Withdraw) => UnitCommand::Withdraw,
            _ => UnitCommand::Rally,
        };
        match self.game.order(&unit, order) {
            Ok(outputs) => {
                self.show(&outputs);
                self.autosave("turn");
            }
            Err(err) => match scene.unit_idx(&unit) {
                Some(idx) => self.order_refused(idx, &err),
                None => self.error(&err),
            },
        }
    }

    /// Each own unit's order in force, and the orders on their way.
    fn own_orders(&mut self) -> OwnOrders {
        let known = self.game.known();
        let units = known
            .own
            .iter()
            .enumerate()
            .filter_map(|(idx, w)| Some((idx, w.as_ref()?.record.orders.order)))
            .collect();
        (units, self.game.story().couriers.clone())
    }

    /// A choice that changed the orders of the player's units says which,
    /// from what to what (the choice replaces what he had ordered).
    fn say_changed_orders(&mut self, before: &OwnOrders) {
        let after = self.own_orders();
        let l = self.options.locale;
        let mut lines = Vec::new();
        for &(idx, now) in &after.0 {
            let Some(&(_, was)) = before.0.iter().find(|(i, _)| *i == idx) else {
                continue;
            };
            if was == now {
                continue;
            }
            let line = self.with_view(|v| {
                let name = v.unit_name(idx);
                let (was, now) = (v.doing(was), v.doing(now));
                msg(
                    l,
                    Msg::ChangedOrder {
                        unit: &name,
                        was: &was,
                        now: &now,
                    },
                )
            });
            lines.push(line);
        }
        for courier in &before.1 {
            if after.1.contains(courier) {
                continue;
            }
            // Delivered at the end of a turn, not by a choice: only a
            // courier still due is one the choice called back.
            if courier.arrives <= self.game.turn() {
                continue;
            }
            let Some(idx) = self.game.scene().unit_idx(&courier.unit) else {
                continue;
            };
            let line = self.with_view(|v| {
                let name = v.unit_name(idx);
                let what = v.order_words(&courier.order);
                msg(
                    l,
                    Msg::CalledBack {
                        unit: &name,
                        what: &what,
                    },
                )
            });
            lines.push(line);
        }
        if lines.is_empty() {
            return;
        }
        self.say_wrapped(ui(l, Ui::OrdersChanged), "");
        for line in lines {
            let line = render::capitalize(line.trim_start());
            self.say(&drawn::hang(
                &line,
                self.options.style.columns,
                "  ",
                "      ",
            ));
        }
    }

    /// An error from below the REPL (saves, files), as a sentence: a capital
    /// letter first, a full stop at the end.
    fn say_error(&mut self, text: &str) {
        let text = render::capitalize(text.trim_end());
        let text = if text.ends_with(['.', '!', '?', '。']) {
            text
        } else {
            format!("{text}.")
        };
        self.say_wrapped(&text, "");
    }

    /// Why a unit refused an order, and what would work instead.
    fn order_refused(&mut self, idx: usize, err: &StoryError) {
        let l = self.options.locale;
        let name = self.with_view(|v| v.unit_name(idx));
        let Some(text) = catalogue::order_refused(l, &name, err) else {
            self.error(err);
            return;
        };
        let text = render::capitalize(&text);
        self.say_wrapped(&text, "");
    }

    /// Lets up to `limit` turns pass (until the battle ends when None),
    /// stopping at the first thing that needs the player and saying why.
    fn run_turns(&mut self, limit: Option<u32>) {
        let l = self.options.locale;
        if self.game.is_over() {
            // As a single `next` would: say so rather than pass nothing silently.
            self.error(&StoryError::Ended);
            return;
        }
        let mut passed = 0u32;
        self.running = true;
        let mut stopped = None;
        // Heavy losses: (own dead since the run began, own men then, turns).
        // Counted over the run, not a turn at a time: a slaughter spread
        // over several turns of a large army stops it as well.
        let mut heavy = None;
        let mut run_lost = 0u32;
        let mut run_before = None;
        while limit.is_none_or(|n| passed < n) {
            if self.game.is_over() || self.game.pending().is_some() {
                break;
            }
            let before = self.with_view(|v| v.known.own_men());
            let run_before = *run_before.get_or_insert(before);
            let outputs = match self.game.next() {
                Ok(outputs) => outputs,
                Err(err) => {
                    self.error(&err);
                    break;
                }
            };
            passed += 1;
            let last = limit == Some(passed);
            if last {
                self.running = false;
            }
            let alert = self.show(&outputs);
            let entries: Vec<crate::sim::Entry> = outputs
                .iter()
                .filter_map(|o| match o {
                    Output::Chronicle(entry) => Some(entry.clone()),
                    _ => None,
                })
                .collect();
            let lost = self.with_view(|v| v.own_lost(&entries));
            run_lost = run_lost.saturating_add(lost);
            let share = self.game.field().rules.stop_losses;
            if chronicle::heavy_losses(run_lost, run_before, share) {
                heavy = Some((run_lost, run_before, passed));
            }
            if let Some(alert) = alert {
                stopped = Some(alert);
            }
            if stopped.is_some() || heavy.is_some() {
                break;
            }
        }
        self.running = false;
        self.flush_fold();
        self.autosave("turn");
        if (stopped.is_none() && heavy.is_none()) || limit == Some(passed) {
            return;
        }
        if self.game.pending().is_some() || self.game.is_over() {
            return; // the choice or the ending speaks for itself
        }
        // A heavy loss is said with its figures, whatever else stopped the run.
        let text = match (heavy, stopped) {
            (Some((lost, before, turns)), _) => {
                let men = self.with_view(|v| v.told_men(lost, true));
                let percent = chronicle::percent(lost, before);
                msg(
                    l,
                    Msg::StoppedLosses {
                        men: &men,
                        percent,
                        turns,
                    },
                )
            }
            (None, Some(reason)) => msg(
                l,
                Msg::Stopped {
                    reason: reason.words(l),
                },
            ),
            (None, None) => return,
        };
        self.say(&text);
    }

    fn error(&mut self, err: &StoryError) {
        let l = self.options.locale;
        let text = catalogue::story_error(l, err);
        self.say_wrapped(&text, "");
    }

    fn command(&mut self, action: Action, args: &[String]) -> bool {
        let l = self.options.locale;
        match action {
            Action::Quit => return false,
            Action::Help => match args.first() {
                None => {
                    let text = commands::help_text(l, self.options.style.columns);
                    self.say(text.trim_end());
                }
                Some(topic) => match commands::help_topic(l, topic, self.options.style.columns) {
                    Some(text) => self.say(&text),
                    None => {
                        let topic = commands::shorten(topic, 24);
                        let text = msg(l, Msg::NoHelp { topic: &topic });
                        self.say_wrapped(&text, "");
                    }
                },
            },
            Action::Next => {
                let count = match args.first() {
                    None => Some(1),
                    Some(word) => word.parse::<u32>().ok().filter(|n| (1..=1000).contains(n)),
                };
                match count {
                    _ if self.game.pending().is_some() => self.error(&StoryError::ChoicePending),
                    Some(1) => self.advance(),
                    Some(n) => self.run_turns(Some(n)),
                    None => {
                        self.say_wrapped(ui(l, Ui::NextTakesNumber), "");
                    }
                }
            }
            Action::Wait => {
                if self.game.pending().is_some() {
                    self.error(&StoryError::ChoicePending);
                } else {
                    self.run_turns(None);
                }
            }
            Action::Order => self.order(args),
            Action::Orders => {
                let couriers = self.game.story().couriers.clone();
                let text = self.with_view(|v| v.orders(&couriers));
                for line in text.lines() {
                    match line.strip_prefix("  ") {
                        // An entry, with a hanging indent under its name.
                        Some(entry) => {
                            let wrapped = wrap::wrap(entry, self.options.style.columns, "      ");
                            self.say(&format!("  {}", wrapped.trim_start()));
                        }
                        None => self.say(line),
                    }
                }
            }
            Action::Report => {
                let entries = self.last_entries.clone();
                let lines = self.with_view(|v| v.entries(&entries));
                if lines.is_empty() {
                    self.say_wrapped(ui(l, Ui::NothingToReport), "");
                }
                for line in lines {
                    self.say_wrapped(&line, "  ");
                }
            }
            Action::Look => self.look(),
            Action::Status => {
                let couriers = self.game.story().couriers.clone();
                let text = self.with_view(|v| v.status_with(&couriers));
                self.say(&text);
            }
            Action::Map => match args.first().map(|a| a.to_lowercase()) {
                None => {
                    let text = self.with_view(|v| v.map());
                    self.say(&text);
                }
                Some(word) if word == "list" || word == "列表" => {
                    let text = self.with_view(|v| v.map_list());
                    self.say(&text);
                }
                Some(word) => {
                    let word = commands::shorten(&word, 24);
                    let text = msg(l, Msg::MapTakesList { word: &word });
                    self.say_wrapped(&text, "");
                }
            },
            Action::Why => {
                let text = self.with_view(|v| v.why());
                self.say(&text);
            }
            Action::Log => self.log(),
            Action::Reload => self.reload(),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::Sources => self.sources(args.first().map(String::as_str)),
            Action::Lang => match args.first() {
                None => {
                    let tags: Vec<&str> = Locale::ALL.iter().map(|l| l.tag()).collect();
                    self.say(&format!("{} ({})", l.tag(), tags.join(", ")));
                }
                Some(tag) => match Locale::parse(tag) {
                    Some(locale) => {
                        self.options.locale = locale;
                        self.say(locale.tag());
                    }
                    None => {
                        let tags: Vec<&str> = Locale::ALL.iter().map(|l| l.tag()).collect();
                        let tag = commands::shorten(tag, 24);
                        let text = msg(
                            l,
                            Msg::UnknownLanguage {
                                tag: &tag,
                                tags: &tags,
                            },
                        );
                        self.say_wrapped(&text, "");
                    }
                },
            },
            Action::Save => {
                let slot = args.first().map(String::as_str).unwrap_or("quick");
                let result = self.saver.save_now(
                    &self.options.saves_dir,
                    slot,
                    &mut self.game,
                    &self.transcript,
                );
                match result {
                    Ok(path) => {
                        let text = msg(
                            l,
                            Msg::Saved {
                                slot,
                                path: &path.display().to_string(),
                            },
                        );
                        self.say(&text);
                    }
                    Err(err) => self.say_error(&err.to_string()),
                }
            }
            Action::Load => {
                let slot = args.first().map(String::as_str).unwrap_or("quick");
                // Autosaves on their way are on disk before the folder is read.
                self.saver.flush();
                let mut result = save::load(&self.options.saves_dir, slot, &self.scenes);
                if let Err(save::SaveError::UnknownScene(..)) = &result
                    && let Some(load) = self.more_scenes.take()
                {
                    for scene in load() {
                        if self.scenes.iter().all(|s| s.id() != scene.id()) {
                            self.scenes.push(scene);
                        }
                    }
                    result = save::load(&self.options.saves_dir, slot, &self.scenes);
                }
                match result {
                    Ok(loaded) => {
                        self.game = loaded.game;
                        self.saver.forget();
                        self.transcript = save::Transcript::new(loaded.transcript);
                        self.reset_memory();
                        if let Some(notice) = loaded.notice {
                            self.say_wrapped(&notice, "");
                        }
                        let text = msg(l, Msg::Loaded { slot });
                        self.say(&text);
                        self.recap();
                    }
                    Err(err) => self.say_error(&err.to_string()),
                }
            }
            Action::Saves => {
                self.saver.flush();
                let text =
                    render::saves_table(&self.options.saves_dir, l, self.options.style.columns);
                self.say(&text);
            }
        }
        true
    }

    /// `reload`: reads the battle again from its folder and replays this
    /// game's commands on the new version, saying where play parts from
    /// the game as it was. A file with problems changes nothing: the
    /// problems are shown and the game goes on as it was.
    fn reload(&mut self) {
        let l = self.options.locale;
        let Some(folder) = self.scene_folder.clone() else {
            self.say_wrapped(ui(l, Ui::NoSceneFolder), "");
            return;
        };
        let id = self.game.scene().id().to_string();
        let scene = match crate::scene::load_dir(&folder) {
            Ok(scenes) => scenes.into_iter().find(|s| s.id() == id),
            Err(problems) => {
                for problem in &problems {
                    self.say(problem.to_string().trim_end());
                }
                let text = msg(
                    l,
                    Msg::SceneProblems {
                        count: problems.len(),
                    },
                );
                self.say_wrapped(&text, "");
                return;
            }
        };
        let Some(scene) = scene else {
            let text = msg(
                l,
                Msg::NoBattleIn {
                    id: &id,
                    folder: &folder.display().to_string(),
                },
            );
            self.say_wrapped(&text, "");
            return;
        };
        let file = match save::save_file(&mut self.game, self.transcript.as_str()) {
            Ok(file) => file,
            Err(why) => {
                self.say_wrapped(&why, "");
                return;
            }
        };
        let (others, player) = self.game.policies();
        let fresh = Game::with_policies(
            Arc::new(scene),
            self.game.role(),
            self.game.seed(),
            others,
            player,
        );
        let mut game = match fresh {
            Ok((game, _)) => game,
            Err(err) => {
                let text = msg(
                    l,
                    Msg::CannotOpen {
                        err: &err.to_string(),
                    },
                );
                self.say_wrapped(&text, "");
                return;
            }
        };
        game.show_sources(self.game.shows_sources());
        let report = save::replay(&mut game, &file);
        let describe = report.describe();
        let how = match (&report.failed, report.diverged_at, report.same_end) {
            (Some((n, why)), _, _) => Reload::Failed {
                command: n + 1,
                why,
            },
            (None, Some((_, turn)), _) => Reload::PartsAt { turn },
            (None, None, true) => Reload::Same,
            (None, None, false) => Reload::Differs {
                describe: &describe,
            },
        };
        let text = msg(l, Msg::Reloaded { id: &id, how });
        let scene = game.scene_arc();
        if let Some(old) = self.scenes.iter_mut().find(|s| s.id() == scene.id()) {
            *old = scene;
        }
        self.game = game;
        // The new game's history is one step a command, as after a load.
        self.undo_marks.clear();
        self.redo.clear();
        self.reset_memory();
        self.say_wrapped(&text, "");
    }

    /// `undo`: the last command taken back whole (every turn of a `wait`).
    fn undo(&mut self) {
        let l = self.options.locale;
        let depth = self.game.undo_history().len();
        // Without a mark (after a load) a command is one step.
        let mark = self
            .undo_marks
            .last()
            .copied()
            .filter(|m| *m < depth)
            .unwrap_or(depth.saturating_sub(1));
        let after = (
            self.game.snapshot(),
            self.game.log().to_vec(),
            self.game.undo_history().to_vec(),
        );
        let mut steps = 0;
        while self.game.undo_history().len() > mark {
            match self.game.undo() {
                Ok(()) => steps += 1,
                Err(err) => {
                    if steps == 0 {
                        self.error(&err);
                        return;
                    }
                    break;
                }
            }
        }
        if steps == 0 {
            self.error(&StoryError::NothingToUndo);
            return;
        }
        self.undo_marks.pop();
        self.redo.push(Redo {
            snapshot: after.0,
            log: after.1,
            undo: after.2,
            mark,
        });
        let text = msg(l, Msg::TakenBack { steps });
        self.say_wrapped(&text, "");
        self.reset_memory();
        self.look();
    }

    /// `redo`: gives back what the last `undo` took back.
    /// `sources [on|off]`: whether the options say which the novel (or
    /// history) took before the player decides. Kept with the game, so a
    /// save, an autosave and `reload` keep it; `undo` does not touch it.
    fn sources(&mut self, arg: Option<&str>) {
        let l = self.options.locale;
        // What the player may type: on/off, or 开/关.
        let on = match arg.map(str::to_lowercase).as_deref() {
            None => None,
            Some("on" | "开" | "開") => Some(true),
            Some("off" | "关" | "關") => Some(false),
            Some(word) => {
                let word = commands::shorten(word, 24);
                self.say_wrapped(&msg(l, Msg::SourcesTakes { word: &word }), "");
                return;
            }
        };
        if let Some(on) = on {
            self.game.show_sources(on);
        }
        let text = msg(
            l,
            Msg::SourcesShown {
                on: self.game.shows_sources(),
            },
        );
        self.say_wrapped(&text, "");
        if on.is_some() && self.game.pending().is_some() {
            self.show_choice();
        }
    }

    fn redo(&mut self) {
        let l = self.options.locale;
        let Some(redo) = self.redo.pop() else {
            self.say_wrapped(ui(l, Ui::NothingToRedo), "");
            return;
        };
        self.game.restore_saved(&redo.snapshot, redo.log, redo.undo);
        self.undo_marks.push(redo.mark);
        self.say_wrapped(ui(l, Ui::GivenBack), "");
        self.reset_memory();
        self.look();
        self.autosave("turn");
    }

    fn look(&mut self) {
        let l = self.options.locale;
        let scene = self.game.scene_arc();
        let turn = self.game.turn();
        let minute = self.game.minute();
        let zone = scene
            .commander(self.game.role())
            .and_then(|c| scene.commander_idx(&c.id))
            .map(|idx| self.game.world().commanders[idx].zone)
            .unwrap_or(0);
        let (header, weather, whereabouts) = self.with_view(|v| {
            (
                v.turn_header(turn, minute),
                v.weather_line(zone),
                v.whereabouts(),
            )
        });
        self.say(&header);
        self.say_wrapped(&weather, "");
        self.say_wrapped(&whereabouts, "");
        if let Some(ending) = self.game.story().ended.clone() {
            let title = scene
                .ending(&ending)
                .map(|e| e.title.get(l).to_string())
                .unwrap_or_default();
            self.say(&format!("{}{title}", ui(l, Ui::Ending)));
        } else if self.game.pending().is_some() {
            self.show_choice();
        }
    }

    /// Choices and events so far in the order they came, each with its
    /// turn (None when the history that tells it is gone, after loading a
    /// save whose commands did not replay).
    fn log_entries(&mut self) -> Vec<(Option<u32>, String)> {
        let l = self.options.locale;
        let scene = self.game.scene_arc();
        let story = self.game.story().clone();
        let states: Vec<(u32, usize, usize)> = self
            .game
            .undo_history()
            .iter()
            .map(|s| (s.world.turn, s.story.chosen.len(), s.story.happened.len()))
            .chain(std::iter::once((
                self.game.turn(),
                story.chosen.len(),
                story.happened.len(),
            )))
            .collect();
        // The history starts at the game's start unless a save without one
        // was loaded: what came before it has no known turn.
        let from_start = match self.game.undo_history().first() {
            Some(first) => first.log_len == 0,
            None => self.game.log().is_empty(),
        };
        let turn_of = |at: Option<usize>| at.filter(|&i| i > 0 || from_start).map(|i| states[i].0);
        // (index of the state it first appears in, choice before event, turn, text)
        let mut entries: Vec<(usize, u8, Option<u32>, String)> = Vec::new();
        let first_state = |k: usize, count: fn(&(u32, usize, usize)) -> usize| {
            states.iter().position(|s| count(s) > k)
        };
        // The player's own side's choices, and the events as he was told
        // them: what the side nobody plays decided is not his to know.
        let own_side = self.game.role_side();
        for (k, (tp_id, option_id)) in story.chosen.iter().enumerate() {
            let Some(tp) = scene.turning_point(tp_id) else {
                continue;
            };
            let side = scene
                .commander(&tp.role)
                .and_then(|c| scene.side_idx(&c.side));
            if side != Some(own_side) {
                continue;
            }
            let Some(option) = tp.options.iter().find(|o| &o.id == option_id) else {
                continue;
            };
            let at = first_state(k, |s| s.1);
            // A commander who had fallen when the choice was made did not
            // make it: his staff did, in his name.
            let fallen_then = scene.commander_idx(&tp.role).is_some_and(|c| {
                let history = self.game.undo_history();
                let fallen = |world: &crate::sim::WorldState| {
                    world.commanders.get(c).is_some_and(|c| c.fallen.is_some())
                };
                match at {
                    Some(i) if i < history.len() => fallen(&history[i].world),
                    _ => fallen(&self.game.world()),
                }
            });
            let name = scene
                .commander(&tp.role)
                .map(|c| c.name.get(l).to_string())
                .unwrap_or_default();
            let who = if fallen_then {
                msg(l, Msg::Staff { commander: &name })
            } else {
                name
            };
            let mark = source_mark(l, option.from).unwrap_or_default();
            let colon = ui(l, Ui::Colon);
            let turn = turn_of(at);
            entries.push((
                at.unwrap_or(0),
                0,
                turn,
                format!("★ {who}{colon}{}{mark}", option.text.get(l)),
            ));
        }
        // Events as told: each is kept with its turn when it was told.
        for (turn, told) in &story.journal {
            let text = self.with_view(|v| v.told(told));
            let at = states
                .iter()
                .position(|s| s.0 >= *turn)
                .unwrap_or(states.len().saturating_sub(1));
            entries.push((
                at,
                1,
                Some(*turn),
                format!("· {}", first_sentence(&text, 120)),
            ));
        }
        entries.sort_by_key(|(at, kind, _, _)| (*at, *kind));
        entries
            .into_iter()
            .map(|(_, _, turn, text)| (turn, text))
            .collect()
    }

    fn say_log_entry(&mut self, turn: Option<u32>, text: &str) {
        let l = self.options.locale;
        let head = msg(l, Msg::LogTurn { turn });
        let colon = ui(l, Ui::Colon);
        let line = format!("{head}{colon}{text}");
        let wrapped = wrap::wrap(&line, self.options.style.columns, "    ");
        self.say(wrapped.trim_start());
    }

    fn log(&mut self) {
        let l = self.options.locale;
        let entries = self.log_entries();
        if entries.is_empty() {
            self.say_wrapped(ui(l, Ui::NoLog), "");
            return;
        }
        for (turn, text) in entries {
            self.say_log_entry(turn, &text);
        }
        self.say_reveal();
    }

    /// "What you did not know", once the battle is over (the ending, the
    /// log): the picture set against the truth.
    fn say_reveal(&mut self) {
        let l = self.options.locale;
        let Some(reveal) = self.game.reveal() else {
            return;
        };
        let lines = self.with_view(|v| v.reveal(&reveal));
        if lines.is_empty() {
            return;
        }
        self.say("");
        self.say(&self.options.style.bold(ui(l, Ui::NotKnown)));
        for line in lines {
            let wrapped = wrap::wrap(&line, self.options.style.columns, "    ");
            self.say(&format!("  {}", wrapped.trim_start()));
        }
    }

    /// After `--load`: the battle, the role and side, the turn, the last
    /// things that happened, then the situation.
    pub fn recap(&mut self) {
        let l = self.options.locale;
        let scene = self.game.scene_arc();
        let title = self.options.style.bold(scene.meta().title.get(l));
        self.say(&title);
        let commander = scene.commander(self.game.role());
        let role = commander
            .map(|c| c.name.get(l).to_string())
            .unwrap_or_default();
        let side = commander
            .and_then(|c| scene.side_idx(&c.side))
            .and_then(|s| scene.sides().get(s))
            .map(|s| s.name.get(l).to_string())
            .unwrap_or_default();
        let turn = self.game.turn();
        let time = crate::story::clock(self.game.minute());
        let line = msg(
            l,
            Msg::RecapLine {
                role: &role,
                side: &side,
                turn,
                time: &time,
                seed: self.game.seed(),
            },
        );
        self.say_wrapped(&line, "");
        let entries = self.log_entries();
        if !entries.is_empty() {
            self.say_wrapped(ui(l, Ui::SoFar), "");
            let skip = entries.len().saturating_sub(4);
            for (turn, text) in entries.into_iter().skip(skip) {
                self.say_log_entry(turn, &text);
            }
        }
        self.say("");
        self.look();
    }

    fn autosave(&mut self, why: &str) {
        // Autosaves are a safety net: a failure is told once (not every
        // turn), never fatal; after a success a new failure is told again.
        let slot = save::autosave_slot(&self.game, why);
        let result = self.saver.submit(
            &self.options.saves_dir,
            &slot,
            &mut self.game,
            &self.transcript,
        );
        match result {
            // Written, or handed to the writer: [`Session::autosave_outcome`]
            // says which before the prompt.
            Ok(()) => self.autosave_outcome(),
            Err(err) => self.autosave_failure(&err),
        }
    }

    /// Before each prompt: a failure of an autosave written in the
    /// background is told now, at its turn; one written ends a run of failures.
    fn autosave_outcome(&mut self) {
        match self.saver.outcome() {
            save::Outcome::Quiet => {}
            save::Outcome::Written => self.autosave_failed = false,
            save::Outcome::Failed(err) => self.autosave_failure(&err),
        }
    }

    /// Autosaves are a safety net: a failure is told once for each run of
    /// failures (not every turn), never fatal.
    fn autosave_failure(&mut self, err: &save::SaveError) {
        if self.autosave_failed {
            return;
        }
        self.autosave_failed = true;
        let l = self.options.locale;
        let text = msg(
            l,
            Msg::AutosaveFailed {
                err: &err.to_string(),
            },
        );
        self.say_wrapped(&text, "");
    }
}

/// The first sentence of `text`, at most about `max` characters, cut at a
/// word (or, in Chinese, a character) with "…", never inside a word.
/// " (the novel's choice)" / "（书中之选）" after an option the novel took,
/// " (as in history)" / "（史实之选）" after one history records; none for
/// the scene's own.
fn source_mark(l: Locale, from: crate::scene::Origin) -> Option<String> {
    let source = match from {
        crate::scene::Origin::Novel => ui(l, Ui::Novel),
        crate::scene::Origin::History => ui(l, Ui::HistoryChoice),
        crate::scene::Origin::Invented => return None,
    };
    Some(msg(l, Msg::ChoiceSource { source }))
}

pub fn first_sentence(text: &str, max: usize) -> String {
    let text = text.trim();
    let mut end = text.len();
    for (i, c) in text.char_indices() {
        let next = text[i + c.len_utf8()..].chars().next();
        let closes = matches!(c, '。' | '！' | '？')
            || (matches!(c, '.' | '!' | '?') && next.is_none_or(char::is_whitespace));
        if closes {
            end = i + c.len_utf8();
            // Keep a closing quote that follows.
            if let Some(q) = next.filter(|q| "」』”’\"".contains(*q)) {
                end += q.len_utf8();
            }
            break;
        }
    }
    let sentence = &text[..end];
    let more = end < text.len();
    if sentence.chars().count() <= max {
        return if more {
            // A no-break space: the "…" never starts a line alone.
            if sentence.ends_with(|c: char| !c.is_ascii()) {
                format!("{sentence}…")
            } else {
                format!("{sentence}\u{a0}…")
            }
        } else {
            sentence.to_string()
        };
    }
    let cut: String = sentence.chars().take(max).collect();
    let cut = match cut.rfind(' ') {
        Some(i) if !cut.chars().any(|c| wrap::width(&c.to_string()) > 1) => cut[..i].to_string(),
        _ => cut,
    };
    format!(
        "{}…",
        cut.trim_end_matches([',', ';', ':', ' ', '，', '；', '：'])
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustyline::completion::Completer;

    fn history_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("xiaoling-history-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn the_history_is_written_atomically_and_read_back() {
        use rustyline::history::History;
        let dir = history_dir("plain");
        let path = dir.join(".history");
        let mut terminal = Terminal::new(Some(path.clone())).expect("terminal");
        assert!(terminal.notice().is_none());
        for line in ["order some-unit hold", "say \\ and\nmore"] {
            let _ = terminal.editor.add_history_entry(line);
        }
        terminal.save_history();
        assert!(std::fs::symlink_metadata(&path).expect("written").is_file());
        let again = Terminal::new(Some(path)).expect("terminal");
        let lines: Vec<&String> = again.editor.history().iter().collect();
        assert_eq!(lines, ["order some-unit hold", "say \\ and\nmore"]);
        assert_eq!(again.editor.history().len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_history_file_that_is_a_link_is_neither_read_nor_written() {
        let dir = history_dir("link");
        let target = dir.join("notes.txt");
        let lines: String = (0..3000).map(|i| format!("line {i}\n")).collect();
        std::fs::write(&target, &lines).expect("target");
        let path = dir.join(".history");
        std::os::unix::fs::symlink(&target, &path).expect("link");
        let mut terminal = Terminal::new(Some(path.clone())).expect("terminal");
        let notice = terminal.notice().expect("the player is told");
        assert!(
            notice.contains("not kept this session") && notice.contains("a link"),
            "{notice}"
        );
        assert!(terminal.notice().is_none(), "told once");
        let _ = terminal.editor.add_history_entry("look");
        terminal.save_history();
        assert_eq!(std::fs::read_to_string(&target).expect("target"), lines);
        // A link planted in the middle of a session is not written through
        // either: the history stops being kept, and the player is told.
        std::fs::remove_file(&path).expect("unlink");
        let mut terminal = Terminal::new(Some(path.clone())).expect("terminal");
        assert!(terminal.notice().is_none());
        std::os::unix::fs::symlink(&target, &path).expect("link");
        let _ = terminal.editor.add_history_entry("look");
        terminal.save_history();
        assert!(terminal.notice().is_some());
        assert!(terminal.history.is_none());
        assert_eq!(std::fs::read_to_string(&target).expect("target"), lines);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn tab_completes_slot_names_after_save_and_load() {
        // The folder is listed when Tab is pressed after `save` or `load`.
        let dir = std::env::temp_dir().join(format!("xiaoling-tab-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        for slot in ["quick", "autosave-1", "before-drums"] {
            std::fs::write(dir.join(format!("{slot}.ron")), "").expect("slot");
        }
        let helper = Helper {
            words: Rc::new(RefCell::new(vec!["1".to_string()])),
            saves: Rc::new(RefCell::new(Some(dir.clone()))),
        };
        let history = rustyline::history::MemHistory::new();
        let context = rustyline::Context::new(&history);
        let complete = |line: &str| {
            helper
                .complete(line, line.len(), &context)
                .unwrap_or_default()
        };
        assert_eq!(complete("load q"), (5, vec!["quick".to_string()]));
        assert_eq!(complete("save b"), (5, vec!["before-drums".to_string()]));
        assert_eq!(complete("load a"), (5, vec!["autosave-1".to_string()]));
        assert_eq!(complete("look q"), (5, Vec::<String>::new()));
        assert!(complete("sa").1.contains(&"saves".to_string()));
        // A slot saved since is offered at once.
        std::fs::write(dir.join("later.ron"), "").expect("slot");
        assert_eq!(complete("load l"), (5, vec!["later".to_string()]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn first_sentences_are_cut_at_words() {
        assert_eq!(first_sentence("Fire. Then smoke.", 60), "Fire.\u{a0}…");
        assert_eq!(first_sentence("Only one", 60), "Only one");
        assert_eq!(
            first_sentence("The banners are pulling back across the river", 20),
            "The banners are…"
        );
        assert_eq!(first_sentence("火起。烟来。", 60), "火起。…");
    }

    #[test]
    fn piped_lines_are_bounded_and_bad_bytes_reported_not_fatal() {
        let mut input: Vec<u8> = b"look\n\xff\xfe\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 10 * 1024 * 1024));
        input.extend(b"\r\nstatus\r\n");
        let mut piped = Piped::new(&input[..]);
        assert_eq!(piped.read(""), Line::Text("look".into()));
        assert_eq!(piped.read(""), Line::Refused(Refusal::NotText));
        assert_eq!(
            piped.read(""),
            Line::Refused(Refusal::TooLong(10 * 1024 * 1024))
        );
        assert_eq!(piped.read(""), Line::Text("status".into()));
        assert_eq!(piped.read(""), Line::Eof);
    }

    /// Regression: a read error on piped input ended the game silently.
    #[test]
    fn a_read_error_on_piped_input_is_said() {
        struct Failing;
        impl std::io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("the pipe broke"))
            }
        }
        let mut piped = Piped::new(std::io::BufReader::new(Failing));
        assert_eq!(piped.read(""), Line::Broken("the pipe broke".into()));
    }
}
