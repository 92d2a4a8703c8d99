//! The REPL: the only layer that prints. It reads commands (from rustyline on
//! a terminal, line by line from a pipe), runs them on the [`Game`], and
//! renders what happened in the player's language, wrapped to the terminal.

pub mod catalogue;
pub mod chronicle;
pub mod commands;
mod dispatch;
pub mod drawn;
mod input;
pub mod numbers;
mod orders;
pub mod render;
mod review;
mod undo;
pub mod wrap;

pub use input::{
    Helper, Line, LineSource, MAX_ECHO_CHARS, MAX_LINE_BYTES, Piped, Refusal, Terminal,
    history_usable, read_bounded,
};
use orders::verb;
use review::source_mark;

use crate::save;
use crate::scene::{EndingId, Locale, Scene, UnitId, ZoneId};
use crate::story::{Game, Output, StoryError, Told, UnitCommand};
use catalogue::Alert;
use catalogue::{OrderMsg, PromptMsg, Reload, SessionMsg, Ui, msg, ui};
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
    Ending(EndingId, Option<Told>, Option<Told>, Option<Told>),
}

/// How the session looks and where it keeps saves.
#[derive(Debug, Clone)]
pub struct Options {
    pub locale: Locale,
    pub style: Style,
    pub saves_dir: PathBuf,
}

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
    /// The wind as the last quiet turn held back left it: what their header
    /// shows, not the wind of the turn that ends the run.
    fold_wind: Option<crate::sim::weather::Weather>,
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
    /// A game loaded from a save of its own name (`save NAME`), goes on
    /// as a game of its own: that slot, and the game's log (length and
    /// epoch) as loaded. Left with nothing played since, it is what that
    /// slot holds, and no new resume point is written for it.
    loaded_from: Option<(String, usize, u64)>,
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
            fold_wind: None,
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
            loaded_from: None,
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

    /// The game was loaded from `slot`: a save of another name left with
    /// nothing played writes no new resume point.
    pub fn with_loaded_from(mut self, slot: &str) -> Self {
        self.note_loaded_from(slot);
        self
    }

    fn note_loaded_from(&mut self, slot: &str) {
        self.loaded_from = (!save::own_slot(self.game.name(), slot)).then(|| {
            (
                slot.to_string(),
                self.game.log().len(),
                self.game.log_epoch(),
            )
        });
    }

    /// The slot the game was loaded from, when it is a save of another name
    /// and nothing has been played since: the game is what it holds.
    fn unchanged_since_load(&self) -> Option<&str> {
        let (slot, len, epoch) = self.loaded_from.as_ref()?;
        (self.game.log().len() == *len && self.game.log_epoch() == *epoch).then_some(slot.as_str())
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
    /// The process ends after this session: the game's undo history and
    /// what `redo` holds are left to the system (see
    /// [`Game::leave_history_to_exit`]). Only for the session of a process
    /// that ends with it.
    pub fn leave_history_to_exit(&mut self) {
        self.game.leave_history_to_exit();
        std::mem::forget(std::mem::take(&mut self.redo));
    }

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

    /// Waits until the autosaves handed to the writer thread are written
    /// (a bench's way to count the writer's work with the turn's).
    pub fn wait_for_saves(&mut self) {
        self.saver.flush();
    }

    /// Tells the player something outside the story (e.g. a save's scene changed).
    /// Tells the player what loading found of a save that did not load as
    /// it was written, in his language.
    pub fn load_notice(&mut self, notice: &save::LoadNotice) {
        let text = catalogue::load_notice(self.options.locale, notice);
        self.say_wrapped(&text, "");
    }

    fn say(&mut self, text: &str) {
        if self.closed {
            return;
        }
        // Whatever is said fits the terminal: a line too wide is wrapped
        // (under its own indent) here, the one place everything passes.
        let columns = self.options.style.columns;
        let fitted;
        // A line of no more bytes than columns fits (no character is
        // wider than its UTF-8 bytes).
        let too_wide = |line: &str| line.len() > columns && wrap::width(line) > columns;
        let text = if text.lines().any(too_wide) {
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
        self.write_said(text);
    }

    /// Writes out a text that fits the terminal, and keeps it in the
    /// transcript.
    fn write_said(&mut self, text: &str) {
        let written = if wrap::has_codes(text) {
            let shown = wrap::strip_marks(text);
            if shown.contains('\u{1b}') {
                self.record(&wrap::strip_ansi(text));
            } else {
                // No colour code (colour is off): what is shown is kept.
                self.record(&shown);
            }
            writeln!(self.out, "{shown}")
        } else {
            // Nothing to strip: what is seen is what is kept.
            self.record(text);
            writeln!(self.out, "{text}")
        };
        if let Err(err) = written {
            self.closed = true;
            self.write_error = Some(format!("cannot write to standard output: {err}"));
        }
    }

    /// Writes out what the output holds (it may be buffered: piped, the
    /// session's output is written in blocks).
    fn flush_out(&mut self) {
        if self.closed {
            return;
        }
        if let Err(err) = self.out.flush() {
            self.closed = true;
            self.write_error = Some(format!("cannot write to standard output: {err}"));
        }
    }

    fn say_wrapped(&mut self, text: &str, indent: &str) {
        let columns = self.options.style.columns;
        let wrapped = wrap::wrap(text, columns, indent);
        if columns >= wrap::width(indent) + 10 {
            // Wrapped to the terminal's width: it fits as it is.
            debug_assert!(
                wrapped.lines().all(|line| wrap::width(line) <= columns),
                "wrapped past {columns} columns: {wrapped:?}"
            );
            if !self.closed {
                self.write_said(&wrapped);
            }
        } else {
            self.say(&wrapped);
        }
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
            role: Some(self.game.role_commander()),
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
        let role = self.game.commander().name.get(l).to_string();
        let seed = self.game.seed();
        let line = msg(l, SessionMsg::RoleLine { role: &role, seed });
        self.say(&line);
        self.say("");
        if let Some(intro) = self.game.tell_intro() {
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
            self.fold_wind = Some(self.with_view(|v| v.known.weather));
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
                    self.show_ending(id, text.as_ref(), summary.as_ref(), history.as_ref())
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
        let wind = self.fold_wind.take();
        let header = self.with_view(|v| {
            let weather = wind.unwrap_or(v.known.weather);
            if count == 1 {
                v.turn_header_in(first_turn, first_minute, &weather)
            } else {
                v.turns_header_in(
                    (first_turn, last_turn),
                    (first_minute, last_minute),
                    &weather,
                )
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
        let told = &self.atmosphere_told;
        let (i, line) = self.game.atmosphere_line(|i| {
            told.get(&i)
                .is_none_or(|told| turn >= told + ATMOSPHERE_REST)
        })?;
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
        // A run of chronicle entries is composed together: the run is the
        // tail of the turn's entries from `batch`.
        let mut batch = 0usize;
        let mut memory = std::mem::take(&mut self.memory);
        memory.header_tells_wind = outputs.iter().any(|o| matches!(o, Output::Turn { .. }));
        let mut turn_entries = Vec::with_capacity(outputs.len());
        let mut told = 0usize;
        for (i, output) in outputs.iter().enumerate() {
            if let Output::Chronicle(entry) = output {
                turn_entries.push(entry.clone());
                if !matches!(outputs.get(i + 1), Some(Output::Chronicle(_))) {
                    let new_turn = matches!(outputs.first(), Some(Output::Turn { .. }))
                        && outputs[..i]
                            .iter()
                            .all(|o| matches!(o, Output::Turn { .. } | Output::Chronicle(_)));
                    let run = &turn_entries[batch..];
                    let composed = self.with_view(|v| v.compose(run, &mut memory, new_turn));
                    batch = turn_entries.len();
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
                    let line = msg(l, SessionMsg::CryNearby { cry: &cry });
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
                    let Some(choice) = (scene.turning_points().get(tp.idx()))
                        .and_then(|tp| tp.options.get(*option as usize))
                    else {
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
                        *id,
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
        self.show_choice_with(true);
    }

    /// The choice waiting: its situation (when `situation`), then its
    /// options.
    fn show_choice_with(&mut self, situation: bool) {
        // Read from the scene itself (shared), not copied out of the game.
        let scene = self.game.scene_arc();
        let Some(tp) = (self.game.pending_id()).and_then(|tp| scene.turning_points().get(tp.idx()))
        else {
            return;
        };
        let l = self.options.locale;
        self.say("");
        self.say(&self.options.style.bold("★"));
        if situation && let Some(situation) = self.game.situation() {
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
        id: EndingId,
        text: Option<&Told>,
        summary: Option<&Told>,
        history: Option<&Told>,
    ) {
        let scene = self.game.scene_arc();
        let l = self.options.locale;
        let Some(ending) = scene.endings().get(id.idx()) else {
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

    /// An error from below the REPL (saves, files), as a sentence: a capital
    /// letter first, a full stop at the end.
    /// A command to type, on lines of its own ([`wrap::shell_lines`]): when
    /// even that cannot fit, it is fitted as any line is.
    fn say_command(&mut self, command: &str) {
        match wrap::shell_lines(command, self.options.style.columns) {
            Some(lines) => self.say(&lines),
            None => self.say(command),
        }
    }

    fn say_error(&mut self, text: &str) {
        let text = wrap::capitalize(text.trim_end());
        let text = if text.ends_with(['.', '!', '?', '。']) {
            text
        } else {
            format!("{text}.")
        };
        self.say_wrapped(&text, "");
    }
}

/// When `slot` of a game did not load (`err`), the newest other slot of
/// the same game that does, and how to go on from it: at the prompt
/// (`command_line` None) or from the shell (`Some(saves)`: the folder when
/// one was named). When the slot is damaged and nothing tells which game
/// it was of, the folder's slots that read instead, from the newest that
/// loads. None when there is no such slot, or the slot's name was refused.
pub fn other_save(
    dir: &std::path::Path,
    slot: &str,
    err: &crate::save::SaveError,
    scenes: &[std::sync::Arc<crate::scene::Scene>],
    locale: crate::scene::Locale,
    command_line: Option<Option<&str>>,
) -> Option<String> {
    use crate::save::SaveError;
    if matches!(err, SaveError::BadSlot(..)) {
        return None;
    }
    let others = crate::save::others_of_game(dir, slot, scenes);
    let in_game = command_line.is_none();
    let saves = command_line.flatten();
    // Listed slots read; the one offered must load as well.
    let loads = |row: &&crate::save::SlotInfo| crate::save::load(dir, &row.slot, scenes).is_ok();
    if !others.known && matches!(err, SaveError::Damaged(..)) {
        let rows = crate::save::readable_slots(dir, slot, scenes);
        let first = rows.iter().find(loads)?;
        let summary = first.summary.as_ref().ok()?;
        let when = crate::save::timestamp(summary.saved_at);
        // The newest few by name; `saves` lists them all.
        const NAMED: usize = 4;
        let next: Vec<&str> = (rows.iter())
            .filter(|row| row.slot != first.slot)
            .take(NAMED - 1)
            .map(|row| row.slot.as_str())
            .collect();
        return Some(catalogue::msg(
            locale,
            catalogue::SessionMsg::SavesHere {
                slot: &first.slot,
                turn: summary.turn,
                when: &when,
                next: &next,
                more: rows.len() > NAMED,
                in_game,
                saves,
            },
        ));
    }
    let first = others.rows.iter().find(loads)?;
    let summary = first.summary.as_ref().ok()?;
    let when = crate::save::timestamp(summary.saved_at);
    Some(catalogue::msg(
        locale,
        catalogue::SessionMsg::OtherSave {
            slot: &first.slot,
            turn: summary.turn,
            when: &when,
            more: others.rows.len() > 1,
            in_game,
            saves,
        },
    ))
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
}
