//! Why a save (or the journal it names) cannot be used, as a typed reason:
//! what kind of damage, and where in the file. `Display` is the library's
//! English (the words the parser or a check gave, as before); the REPL's
//! catalogue says the same in the player's language from the kind and
//! place alone, never from those words.

/// A place in a file's text: line and column, from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    pub line: usize,
    pub column: usize,
}

/// How far a text that does not read as a save got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// It is not RON at all: damaged or cut short.
    Syntax,
    /// It is RON, but of another shape than a save (no format first).
    Foreign,
    /// It has a save's header, but a field of it is missing, unknown or
    /// of the wrong kind.
    Contents,
}

/// What is wrong at the place a text stops reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flaw {
    /// The text ends before the save does.
    CutShort,
    /// A character that cannot stand there.
    Unexpected(char),
    /// A field every save has is not there.
    MissingField(String),
    /// A field no save has.
    UnknownField(String),
    /// A field written twice.
    DuplicateField(String),
    /// A value of the wrong kind or out of its range for its field.
    WrongValue,
    /// Brackets nested deeper than any save's.
    TooDeep,
    /// Anything else the parser found there.
    Other,
}

/// Why a journal a save (or game) stands on cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JournalFault {
    /// There is no journal file.
    Missing,
    /// It is shorter than the save says, or its last records are cut off.
    CutShort,
    /// It does not hold what the save was made with (checksum, count).
    Mismatch,
    /// It could not be read (the system refused).
    Unreadable,
    /// Its records or head are damaged, or it is not a journal.
    Damaged,
}

/// Why a file is not a usable save (see [`super::SaveError::Damaged`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Damage {
    /// Its text stops reading at `at` with `flaw` (`said`: the parser's
    /// own words, for the English message; `near`: a few words of the text
    /// there, to find the place by, where a column in the thousands of a
    /// long line helps nobody).
    Text {
        part: Part,
        at: At,
        flaw: Flaw,
        said: String,
        near: Box<str>,
    },
    /// Its bytes are not text (UTF-8).
    NotText,
    /// It is empty, or blank.
    Empty,
    /// It is larger than any save (the cap, in bytes).
    TooLarge(u64),
    /// It is not a plain file (what it is, in English words).
    NotAFile(&'static str),
    /// It names a journal and holds commands of its own.
    JournalAndCommands,
    /// It names a journal and holds fingerprints of its own.
    JournalAndPrints,
    /// Its commands are in a journal that was not read.
    JournalNotRead,
    /// Its journal cannot give what it names (`said`: why, in English).
    Journal { fault: JournalFault, said: String },
    /// A number past what any battle holds (`said`: which, in English).
    OutOfBounds(String),
    /// It does not fit its battle: names a unit, zone, side, role or
    /// event it lacks (`said`: which, in English).
    Misfit(String),
    /// Its checksum does not hold and its commands no longer replay:
    /// `command` (from 1) fails, `said` why (in English).
    Unreplayable { command: usize, said: String },
}

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Damage::Text {
                part,
                at,
                flaw,
                said,
                near,
            } => {
                let part = match part {
                    Part::Syntax => "it is damaged or cut short",
                    Part::Foreign => "it is RON, but not a save file",
                    Part::Contents => "its contents are damaged",
                };
                // The parser's words, but where they would mislead or
                // name its workings: a text cut short is said as such
                // (RON says what it expected next), nesting without the
                // advice to raise its limit, a field without the type's
                // name in the source.
                let what = match flaw {
                    Flaw::TooDeep => "its brackets are nested deeper than any save's".into(),
                    Flaw::CutShort => "the text stops before the save ends".into(),
                    Flaw::MissingField(field) => format!("it has no field `{field}`"),
                    Flaw::UnknownField(field) => format!("no save has a field `{field}`"),
                    Flaw::DuplicateField(field) => format!("the field `{field}` is written twice"),
                    _ => said.clone(),
                };
                write!(f, "{part}: {what} (line {}", at.line)?;
                if at.shows_column() {
                    write!(f, ", column {}", at.column)?;
                }
                if !near.is_empty() {
                    write!(f, ", near the text `{near}`")?;
                }
                write!(f, ")")
            }
            Damage::NotText => write!(f, "it is not text (not UTF-8)"),
            Damage::Empty => write!(f, "the file is empty"),
            Damage::TooLarge(cap) => write!(
                f,
                "it is larger than {}, far too large",
                crate::files::human_bytes(*cap)
            ),
            Damage::NotAFile(what) => write!(f, "it is {what}, not a regular file"),
            Damage::JournalAndCommands => {
                write!(f, "it names a journal and holds commands of its own")
            }
            Damage::JournalAndPrints => {
                write!(f, "it names a journal and holds fingerprints of its own")
            }
            Damage::JournalNotRead => {
                write!(f, "its commands are in a journal that was not read")
            }
            Damage::Journal { said, .. } | Damage::OutOfBounds(said) | Damage::Misfit(said) => {
                write!(f, "{said}")
            }
            Damage::Unreplayable { command, said } => write!(
                f,
                "it was changed after it was written (its checksum does not match), and its commands no longer replay (command {command}: {said})"
            ),
        }
    }
}

impl Damage {
    /// The damage a RON error `err` found in `text`, which got as far as
    /// `part`.
    pub fn of_ron(part: Part, err: &ron::error::SpannedError, text: &str) -> Damage {
        let at = At {
            line: err.span.start.line,
            column: err.span.start.col,
        };
        let end = At {
            line: err.span.end.line,
            column: err.span.end.col,
        };
        // RON's span may begin at the blanks before what it stopped at.
        let at = past_blanks(text, at);
        let found = match err.code {
            ron::Error::UnexpectedChar(c) => Some(c),
            _ => rest_at(text, at).chars().next(),
        };
        // What runs to the end of the text (a string, a list never closed)
        // is cut short there, whatever was expected.
        let at_end = rest_at(text, end).trim().is_empty();
        // A string never closed runs to the end of the text.
        let end = match err.code {
            ron::Error::ExpectedStringEnd => end_of(text),
            _ => end,
        };
        use ron::Error as E;
        let flaw = match &err.code {
            E::ExceededRecursionLimit => Flaw::TooDeep,
            E::Eof | E::UnclosedBlockComment | E::UnclosedLineComment | E::ExpectedStringEnd => {
                Flaw::CutShort
            }
            E::MissingStructField { field, .. } => Flaw::MissingField(field.to_string()),
            E::NoSuchStructField { found, .. } => Flaw::UnknownField(found.clone()),
            E::DuplicateStructField { field, .. } => Flaw::DuplicateField(field.to_string()),
            // Past the end of the text, whatever was expected, it is cut.
            _ if at_end => Flaw::CutShort,
            E::InvalidValueForType { .. }
            | E::ExpectedDifferentLength { .. }
            | E::NoSuchEnumVariant { .. }
            | E::IntegerOutOfBounds
            | E::InvalidIntegerDigit { .. }
            | E::ExpectedDifferentStructName { .. }
                if part != Part::Syntax =>
            {
                Flaw::WrongValue
            }
            E::Message(_) | E::Io(_) | E::Fmt => Flaw::Other,
            // A syntax error, or a value of the wrong kind, at a character.
            _ => match found {
                Some(c) if part == Part::Syntax => Flaw::Unexpected(c),
                Some(_) => Flaw::WrongValue,
                None => Flaw::CutShort,
            },
        };
        let said = err.code.to_string();
        let at = if flaw == Flaw::CutShort { end } else { at };
        Damage::Text {
            part,
            at,
            flaw,
            said,
            near: excerpt(text, at).into(),
        }
    }

    /// A few words for the `saves` table (English): what comes before the
    /// details.
    pub fn short(&self) -> String {
        let text = self.to_string();
        text.split([':', '('])
            .next()
            .unwrap_or("damaged")
            .trim()
            .to_string()
    }
}

impl At {
    /// Whether the column is worth saying: one past [`At::MOST_COLUMN`] is
    /// in a line too long to count along (a transcript's), and the words
    /// there (`near` of [`Damage::Text`]) say the place instead.
    pub fn shows_column(&self) -> bool {
        self.column <= At::MOST_COLUMN
    }

    /// The widest column said.
    pub const MOST_COLUMN: usize = 120;
}

/// A few words of `text` around `at`, to find it by: up to
/// [`EXCERPT_BEFORE`] characters before it and [`EXCERPT_AFTER`] from it,
/// on its line, controls as spaces, blanks at either end trimmed, and `…`
/// where the line goes on. Empty when the line there is blank.
pub fn excerpt(text: &str, at: At) -> String {
    let Some(line) = text.split('\n').nth(at.line.saturating_sub(1)) else {
        return String::new();
    };
    let skip = at.column.saturating_sub(1);
    let from = skip.saturating_sub(EXCERPT_BEFORE);
    let mut chars = line.chars().skip(from);
    let shown: String = (chars.by_ref())
        .take(skip - from + EXCERPT_AFTER)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let shown = shown.trim();
    if shown.is_empty() {
        return String::new();
    }
    let before = if from > 0 { "…" } else { "" };
    let after = if chars.next().is_some() { "…" } else { "" };
    format!("{before}{shown}{after}")
}

/// How many characters [`excerpt`] shows before a place, and from it.
const EXCERPT_BEFORE: usize = 16;
const EXCERPT_AFTER: usize = 24;

/// The place just past the last character of `text` that is not blank.
fn end_of(text: &str) -> At {
    let text = text.trim_end();
    let line = 1 + text.matches('\n').count();
    let last = text.rsplit('\n').next().unwrap_or_default();
    At {
        line,
        column: 1 + last.chars().count(),
    }
}

/// The place of the first character at or after `at` that is not blank
/// (`at` itself when only blanks follow).
fn past_blanks(text: &str, at: At) -> At {
    let mut place = at;
    for c in rest_at(text, at).chars() {
        match c {
            '\n' => {
                place.line += 1;
                place.column = 1;
            }
            c if c.is_whitespace() => place.column += 1,
            _ => return place,
        }
    }
    at
}

/// The text from `at` on (empty past its end).
fn rest_at(text: &str, at: At) -> &str {
    let Some(line_start) = (if at.line <= 1 {
        Some(0)
    } else {
        text.match_indices('\n')
            .nth(at.line - 2)
            .map(|(i, _)| i + 1)
    }) else {
        return "";
    };
    let line = &text[line_start..];
    let skip = at.column.saturating_sub(1);
    match line.char_indices().nth(skip) {
        Some((i, _)) => &line[i..],
        None => "",
    }
}

/// A journal's error: what kind of fault, and why in English.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalError {
    pub fault: JournalFault,
    pub said: String,
}

impl JournalError {
    pub(super) fn new(fault: JournalFault, said: impl Into<String>) -> JournalError {
        JournalError {
            fault,
            said: said.into(),
        }
    }
}

impl std::fmt::Display for JournalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.said)
    }
}

impl From<JournalError> for String {
    fn from(err: JournalError) -> String {
        err.said
    }
}

impl From<JournalError> for Damage {
    fn from(err: JournalError) -> Damage {
        Damage::Journal {
            fault: err.fault,
            said: err.said,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn damage_of(text: &str, part: Part) -> Damage {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Two {
            a: u32,
            b: String,
        }
        let err = match part {
            Part::Syntax => ron::from_str::<ron::Value>(text).expect_err("syntax"),
            _ => ron::from_str::<Two>(text).expect_err("shape"),
        };
        Damage::of_ron(part, &err, text)
    }

    fn flaw_at(damage: &Damage) -> (&Flaw, usize, usize) {
        match damage {
            Damage::Text { flaw, at, .. } => (flaw, at.line, at.column),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_place_in_a_long_line_is_said_by_its_words_not_its_column() {
        // A transcript's line: the damage thousands of columns in.
        let long = format!("(a: \"{}\", b: @x, c: 1)", "鸣鼓 ".repeat(1500));
        let damage = damage_of(&long, Part::Syntax);
        let (flaw, line, column) = flaw_at(&damage);
        assert_eq!((flaw, line), (&Flaw::Unexpected('@'), 1));
        assert!(column > 4000, "{column}");
        let said = damage.to_string();
        assert!(!said.contains("column"), "{said}");
        assert!(
            said.ends_with("(line 1, near the text `…鸣鼓 鸣鼓 鸣鼓 \", b: @x, c: 1)`)"),
            "{said}"
        );
        // Short lines keep their column; the excerpt is cut at both ends.
        let text = format!("(a: 1,\n b: @{})", "y".repeat(40));
        let said = damage_of(&text, Part::Syntax).to_string();
        let words = format!("near the text `b: @{}…`", "y".repeat(23));
        assert!(
            said.contains(&format!("(line 2, column 5, {words})")),
            "{said}"
        );
        assert_eq!(excerpt("a\n\n", At { line: 2, column: 1 }), "");
        assert_eq!(excerpt("ab", At { line: 9, column: 1 }), "");
    }

    #[test]
    fn ron_errors_are_told_by_kind_and_place() {
        let cut = damage_of("(a: 1,\n b: \"x", Part::Syntax);
        assert_eq!(flaw_at(&cut).0, &Flaw::CutShort, "{cut}");
        let bad = damage_of("(a: 1,\n b: @)", Part::Syntax);
        assert_eq!(flaw_at(&bad), (&Flaw::Unexpected('@'), 2, 5), "{bad}");
        let missing = damage_of("(a: 1)", Part::Contents);
        assert_eq!(flaw_at(&missing).0, &Flaw::MissingField("b".into()));
        let unknown = damage_of("(a: 1, c: 2, b: \"\")", Part::Contents);
        assert_eq!(flaw_at(&unknown).0, &Flaw::UnknownField("c".into()));
        let wrong = damage_of("(a: \"one\", b: \"\")", Part::Contents);
        assert_eq!(flaw_at(&wrong).0, &Flaw::WrongValue, "{wrong}");
        let deep = damage_of(
            &format!("{}{}", "[".repeat(300), "]".repeat(300)),
            Part::Syntax,
        );
        assert_eq!(flaw_at(&deep).0, &Flaw::TooDeep);
        assert!(deep.to_string().contains("nested deeper"), "{deep}");
        // English keeps the parser's words and the place.
        assert!(bad.to_string().starts_with("it is damaged or cut short: "));
        assert!(
            bad.to_string()
                .ends_with("(line 2, column 5, near the text `b: @)`)"),
            "{bad}"
        );
    }

    #[test]
    fn a_place_past_the_text_is_its_end() {
        assert_eq!(rest_at("ab\ncd", At { line: 2, column: 2 }), "d");
        assert_eq!(rest_at("ab\ncd", At { line: 3, column: 1 }), "");
        assert_eq!(rest_at("ab", At { line: 1, column: 9 }), "");
        assert_eq!(rest_at("鸣鼓x", At { line: 1, column: 3 }), "x");
        assert_eq!(end_of("ab\n鸣鼓\n\n"), At { line: 2, column: 3 });
    }
}
