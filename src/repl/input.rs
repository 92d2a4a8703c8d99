//! Where lines come from: rustyline on a terminal (history kept in the
//! saves folder, never through a link; Tab completion of commands, names
//! and slots) or a pipe, read line by line within bounds.

use super::*;

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
    /// Whether Tab completes anything (a terminal's editor): the words for
    /// [`LineSource::set_completions`] are made only for a source that does.
    fn completes(&self) -> bool {
        false
    }
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
    fn completes(&self) -> bool {
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
