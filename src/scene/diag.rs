//! Diagnostics: a problem in a scene file, with its position, the offending
//! line and a hint, printed the way a compiler prints an error.

use super::lex;
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use std::fmt;
use unicode_width::UnicodeWidthChar;

/// The widest snippet shown, in display columns: longer lines are cut around
/// the problem, so a huge line is never echoed in full.
pub const SNIPPET_COLUMNS: usize = 120;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    /// 1-based; 0 when the problem has no place in the file.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    pub message: String,
    /// The source line the problem is on, cut to [`SNIPPET_COLUMNS`] around
    /// the problem (a cut is shown as `...`); control characters are shown
    /// as `\u{FFFD}`.
    pub snippet: String,
    /// 1-based, in characters of `snippet`: where the caret goes.
    pub caret: usize,
    pub hint: String,
    /// The section of `scenes/README.md` that explains the field.
    pub guide: &'static str,
    /// A warning (shown by `check`, never stopping a load), not an error.
    pub warning: bool,
}

impl Diagnostic {
    /// A problem with no place in a file (an unreadable file, two scenes
    /// with one id): shown at line 0.
    pub fn whole_file(file: &str, message: String, hint: &str) -> Diagnostic {
        Diagnostic {
            file: file.to_string(),
            line: 0,
            column: 0,
            message,
            snippet: String::new(),
            caret: 0,
            hint: hint.to_string(),
            guide: "",
            warning: false,
        }
    }

    /// The same problem, as a warning.
    pub fn as_warning(self) -> Diagnostic {
        Diagnostic {
            warning: true,
            ..self
        }
    }
}

impl fmt::Display for Diagnostic {
    /// Rendered by `annotate-snippets`, which places the caret by display
    /// width (a Chinese character takes two columns, a tab four).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let see = format!("scenes/README.md, section \"{}\"", self.guide);
        let level = if self.warning {
            Level::WARNING
        } else {
            Level::ERROR
        };
        let mut group = Group::with_title(level.primary_title(self.message.as_str()));
        if self.line > 0 {
            let caret = self.caret.max(1) - 1;
            let at = self
                .snippet
                .char_indices()
                .nth(caret)
                .map_or(self.snippet.len(), |(at, _)| at);
            group = group.element(
                Snippet::source(self.snippet.as_str())
                    .line_start(self.line)
                    .annotation(AnnotationKind::Primary.span(at..at)),
            );
        }
        if !self.hint.is_empty() {
            group = group.element(Level::HELP.with_name("hint").message(self.hint.as_str()));
        }
        if !self.guide.is_empty() {
            group = group.element(Level::NOTE.with_name("see").message(see.as_str()));
        }
        let rendered = Renderer::plain()
            .term_width(SNIPPET_COLUMNS + 20)
            .render(&[group]);
        // The location line is written here, with the column counted in the
        // whole line: the renderer only sees the snippet, which may be cut.
        let gutter = " ".repeat(if self.line > 0 {
            self.line.to_string().len()
        } else {
            1
        });
        let (title, rest) = rendered.split_once('\n').unwrap_or((&rendered, ""));
        writeln!(f, "{title}")?;
        if self.line > 0 {
            writeln!(f, "{gutter}--> {}:{}:{}", self.file, self.line, self.column)?;
        } else {
            writeln!(f, "{gutter}--> {}", self.file)?;
        }
        if !rest.trim().is_empty() {
            writeln!(f, "{}", rest.trim_end_matches('\n'))?;
        }
        Ok(())
    }
}

/// The part of `line` shown for a problem at `column` (1-based, characters):
/// the whole line when it fits in [`SNIPPET_COLUMNS`], else a window around
/// the column with `...` where it is cut; and the caret's place in it.
pub fn snippet_window(line: &str, column: usize) -> (String, usize) {
    const CUT: &str = "...";
    let clean = |c: char| {
        if c.is_control() && c != '\t' {
            '\u{FFFD}'
        } else {
            c
        }
    };
    let width = |c: char| if c == '\t' { 4 } else { c.width().unwrap_or(1) };
    let column = column.max(1);
    // A line of at most SNIPPET_COLUMNS / 4 bytes fits whatever it holds.
    if line.len() <= SNIPPET_COLUMNS / 4
        || line.chars().map(width).sum::<usize>() <= SNIPPET_COLUMNS
    {
        return (line.chars().map(clean).collect(), column);
    }
    let room = SNIPPET_COLUMNS - 2 * CUT.len();
    // Byte offset of the caret's character (or the end of the line).
    let at = line
        .char_indices()
        .nth(column - 1)
        .map_or(line.len(), |(at, _)| at);
    // A third of the room goes before the caret, more if the line ends
    // sooner after it.
    let mut after = 0;
    for c in line[at..].chars() {
        after += width(c);
        if after > room {
            break;
        }
    }
    let before = (room / 3).max(room.saturating_sub(after));
    let mut start = at;
    let mut used = 0;
    for (i, c) in line[..at].char_indices().rev() {
        if used + width(c) > before {
            break;
        }
        used += width(c);
        start = i;
    }
    let mut end = at;
    for (i, c) in line[at..].char_indices() {
        if used + width(c) > room {
            break;
        }
        used += width(c);
        end = at + i + c.len_utf8();
    }
    let mut shown = String::new();
    if start > 0 {
        shown.push_str(CUT);
    }
    shown.extend(line[start..end].chars().map(clean));
    if end < line.len() {
        shown.push_str(CUT);
    }
    let cut = if start > 0 { CUT.len() } else { 0 };
    (shown, cut + line[start..at].chars().count() + 1)
}

/// Finds where things are in a scene's source text, so that problems found
/// after parsing (serde keeps no positions) can still point at their line.
///
/// The first time a position is asked for (so only when there is a problem
/// to show) it scans the text once (strings, comments and brackets, no more)
/// and records every `id: "..."` with the fields it is nested in, so an item
/// is found in its own section even when an option elsewhere has the same
/// id. A valid scene is never scanned.
pub struct Locator<'a> {
    pub file: &'a str,
    pub source: &'a str,
    index: std::cell::OnceCell<Index>,
}

/// The declarations and sections of a source, from one scan.
struct Index {
    declarations: Vec<Declaration>,
    /// Byte offsets of the top-level fields (`units:`, `rules:` …).
    sections: Vec<(String, usize)>,
    /// (section, id) → the first declaration of `id` directly in that list:
    /// [`Locator::item`] without rescanning the declarations per item.
    first_item: std::collections::HashMap<(String, String), usize>,
}

/// Where an item is declared: the `(…)` around it and its `id: "..."`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    /// The fields it is nested in: `["units"]` for a unit,
    /// `["turning_points", "options"]` for an option, `["meta"]` for the meta.
    pub path: Vec<String>,
    pub id: String,
    /// Byte offset of the opening quote of the id.
    pub id_at: usize,
    /// Byte offsets of the item's opening bracket and just past its closing one.
    pub start: usize,
    pub end: usize,
}

impl Declaration {
    /// The byte range the item spans.
    pub fn span(&self) -> (usize, usize) {
        (self.start, self.end)
    }
}

impl<'a> Locator<'a> {
    pub fn new(file: &'a str, source: &'a str) -> Self {
        Locator {
            file,
            source,
            index: std::cell::OnceCell::new(),
        }
    }

    /// The declarations and sections, scanned on first use.
    fn index(&self) -> &Index {
        self.index.get_or_init(|| {
            let (declarations, sections) = scan(self.source);
            let mut first_item = std::collections::HashMap::new();
            for (at, d) in declarations.iter().enumerate() {
                if let [section] = d.path.as_slice() {
                    first_item
                        .entry((section.clone(), d.id.clone()))
                        .or_insert(at);
                }
            }
            Index {
                declarations,
                sections,
                first_item,
            }
        })
    }

    /// Byte offset of the top-level field `name:` (e.g. `rules`).
    pub fn section(&self, name: &str) -> Option<usize> {
        self.index()
            .sections
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, at)| *at)
    }

    /// The declaration of the item `id` in the list `section` (or the `meta`),
    /// falling back to the first `id: "ID"` anywhere.
    pub fn item(&self, section: &str, id: &str) -> Option<Declaration> {
        let index = self.index();
        let first = index
            .first_item
            .get(&(section.to_string(), id.to_string()))
            .and_then(|&at| index.declarations.get(at));
        first.cloned().or_else(|| {
            self.declaration(id).map(|at| Declaration {
                path: Vec::new(),
                id: id.to_string(),
                id_at: at,
                start: at,
                end: self.source.len(),
            })
        })
    }

    /// Every declaration of `id` directly in the list `section`, in file order.
    pub fn items<'s>(
        &'s self,
        section: &'s str,
        id: &'s str,
    ) -> impl Iterator<Item = &'s Declaration> + 's {
        self.index()
            .declarations
            .iter()
            .filter(move |d| d.id == id && d.path.len() == 1 && d.path[0] == section)
    }

    /// The options declared inside the turning point `parent`, in file order.
    pub fn options(&self, parent: &Declaration) -> Vec<Declaration> {
        self.index()
            .declarations
            .iter()
            .filter(|d| {
                d.path.last().is_some_and(|key| key == "options")
                    && d.start > parent.start
                    && d.end <= parent.end
            })
            .cloned()
            .collect()
    }

    /// Byte offset of the last of `needles`, each searched after the one
    /// before, within `within` (or the whole file).
    pub fn path(&self, within: Option<&Declaration>, needles: &[&str]) -> Option<usize> {
        let (start, end) = within.map_or((0, self.source.len()), Declaration::span);
        let text = self.source.get(start..end)?;
        let mut at = 0;
        for (i, needle) in needles.iter().enumerate() {
            let from = if i == 0 { 0 } else { at + 1 };
            at = from + text.get(from..)?.find(needle)?;
        }
        Some(start + at)
    }

    /// Byte offset of the `id: "ID"` that declares an item, if any.
    pub fn declaration(&self, id: &str) -> Option<usize> {
        let quoted = format!("\"{id}\"");
        let mut from = 0;
        while let Some(found) = self.source[from..].find(&quoted) {
            let at = from + found;
            let before = self.source[..at].trim_end();
            if before.ends_with("id:") && !before.ends_with("_id:") {
                return Some(at);
            }
            from = at + quoted.len();
        }
        None
    }

    /// Byte offset of the first number that is not finite (`inf`, `-inf`,
    /// `NaN`, at its sign) written as a value within `within`, outside strings.
    pub fn non_finite(&self, within: Option<&Declaration>) -> Option<usize> {
        let (start, end) = within.map_or((0, self.source.len()), Declaration::span);
        let text = self.source.get(start..end)?;
        let bytes = text.as_bytes();
        // Strings and comments hold no values.
        for (i, byte) in lex::code(text) {
            if matches!(byte, b'i' | b'N') {
                let word_before =
                    i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
                let rest = &text[i..];
                let word = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                    .map_or(rest, |n| &rest[..n]);
                if !word_before && matches!(word, "inf" | "NaN" | "inf.0" | "infinity") {
                    let signed = i > 0 && matches!(bytes[i - 1], b'-' | b'+');
                    return Some(start + i - usize::from(signed));
                }
            }
        }
        None
    }

    /// Byte offset of `needle` at or after `from`.
    pub fn after(&self, from: usize, needle: &str) -> Option<usize> {
        self.source
            .get(from..)
            .and_then(|rest| rest.find(needle))
            .map(|found| from + found)
    }

    /// A diagnostic at a byte offset.
    pub fn at(
        &self,
        offset: usize,
        message: String,
        hint: String,
        guide: &'static str,
    ) -> Diagnostic {
        let (line, column) = line_column(self.source, offset);
        self.at_line(line, column, message, hint, guide)
    }

    /// A diagnostic at a line and column.
    pub fn at_line(
        &self,
        line: usize,
        column: usize,
        message: String,
        hint: String,
        guide: &'static str,
    ) -> Diagnostic {
        let text = self
            .source
            .lines()
            .nth(line.saturating_sub(1))
            .unwrap_or("");
        let (snippet, caret) = snippet_window(text, column);
        Diagnostic {
            file: self.file.to_string(),
            line,
            column,
            message,
            snippet,
            caret,
            hint,
            guide,
            warning: false,
        }
    }
}

/// One pass over RON text: records each `id: "..."` with the fields it is
/// nested in and the item around it, and the offsets of the top-level fields.
/// Strings (plain and raw), chars and comments are skipped, so brackets and
/// quotes inside text do not confuse it.
fn scan(source: &str) -> (Vec<Declaration>, Vec<(String, usize)>) {
    struct Frame {
        start: usize,
        /// The field this bracket is the value of, if any.
        key: Option<String>,
        /// Index in `declarations` of the item this bracket opens, once its id is seen.
        declared: Option<usize>,
    }
    let bytes = source.as_bytes();
    let mut declarations: Vec<Declaration> = Vec::new();
    let mut sections = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut pending_key: Option<String> = None;
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if !lex::is_string_start(bytes, i)
            && let Some(end) = lex::skip(source, i)
        {
            // A comment or a char.
            i = end;
            continue;
        }
        match byte {
            b'"' | b'r' if lex::is_string_start(bytes, i) => {
                let (open, close, after) = lex::string_span(source, i);
                let quote = open - 1;
                if pending_key.as_deref() == Some("id")
                    && let Some(frame) = stack.last_mut()
                    && frame.declared.is_none()
                {
                    frame.declared = Some(declarations.len());
                    let path = stack.iter().filter_map(|f| f.key.clone()).collect();
                    declarations.push(Declaration {
                        path,
                        id: source[open..close].to_string(),
                        id_at: quote,
                        start: stack.last().map_or(0, |f| f.start),
                        end: source.len(),
                    });
                }
                pending_key = None;
                i = after;
                continue;
            }
            b'(' | b'[' | b'{' => {
                stack.push(Frame {
                    start: i,
                    key: pending_key.take(),
                    declared: None,
                });
            }
            b')' | b']' | b'}' => {
                if let Some(frame) = stack.pop()
                    && let Some(idx) = frame.declared
                {
                    declarations[idx].end = i + 1;
                }
                pending_key = None;
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let end = source[i..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(bytes.len(), |n| i + n);
                let word = &source[i..end];
                let rest = source[end..].trim_start();
                if rest.starts_with(':') && !rest.starts_with("::") {
                    if stack.len() == 1 {
                        sections.push((word.to_string(), i));
                    }
                    pending_key = Some(word.to_string());
                    // Skip the colon so it does not clear the key.
                    i = source.len() - rest.len() + 1;
                } else {
                    pending_key = None;
                    i = end;
                }
                continue;
            }
            b if b.is_ascii_whitespace() => {}
            _ => pending_key = None,
        }
        i += 1;
    }
    (declarations, sections)
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = source[line_start..offset].chars().count() + 1;
    (line, column)
}

/// 1-based line and column (in characters) to a byte offset, clamped to the text.
pub fn offset_of(source: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line.max(1) {
        match source[start..].find('\n') {
            Some(n) => start += n + 1,
            None => return source.len(),
        }
    }
    let end = source[start..]
        .find('\n')
        .map_or(source.len(), |n| start + n);
    source[start..end]
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(end, |(at, _)| start + at)
}

/// The closest of `candidates` to `word`, if close enough to be a likely
/// typo. Ties go to the first in alphabetical order, so the hint is the same
/// on every run whatever order the candidates come in.
pub fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(word, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= (candidate.chars().count() / 3).max(2))
        .min()
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    strsim::levenshtein(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters_not_bytes() {
        let source = "a\n汉字: \"x\"";
        assert_eq!(line_column(source, source.find('x').unwrap()), (2, 6));
    }

    #[test]
    fn closest_suggests_typos_only() {
        assert_eq!(
            closest("nort-bank", ["north-bank", "ford"]),
            Some("north-bank")
        );
        assert_eq!(closest("zzzzzz", ["north-bank", "ford"]), None);
    }

    #[test]
    fn items_are_found_in_their_own_list() {
        let source = concat!(
            "// zones: [(id: \"ford\")] in a comment\n",
            "(\n",
            "    zones: [(id: \"ford\", name: \"id: \\\"ford\\\" (\")],\n",
            "    turning_points: [(id: \"cry\", options: [(id: \"ford\"), (id: \"cry\")])],\n",
            "    units: [(name: r#\"a \"(\" b\"#, /* ( */ id: 'x', id: \"ford\")],\n",
            "    rules: {\"ford\": 1.0},\n",
            ")\n",
        );
        let locator = Locator::new("f", source);
        let line_of = |at: usize| line_column(source, at).0;
        let zone = locator.item("zones", "ford").expect("the zone");
        assert_eq!(
            (line_of(zone.id_at), zone.path.clone()),
            (3, vec!["zones".to_string()])
        );
        let unit = locator.item("units", "ford").expect("the unit");
        assert_eq!(line_of(unit.id_at), 5);
        assert_eq!(&source[unit.start..unit.end].chars().next(), &Some('('));
        assert!(source[unit.start..unit.end].ends_with("\"ford\")"));
        let tp = locator.item("turning_points", "cry").expect("the point");
        let options = locator.options(&tp);
        let ids: Vec<&str> = options.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["ford", "cry"]);
        assert!(options[1].id_at > tp.id_at);
        assert_eq!(locator.section("rules").map(line_of), Some(6));
        assert_eq!(locator.section("zones").map(line_of), Some(3));
    }

    #[test]
    fn declaration_skips_references() {
        let source = "zone: \"ford\",\n id: \"ford\"";
        let locator = Locator::new("f", source);
        assert_eq!(
            locator.declaration("ford"),
            Some(source.rfind("\"ford\"").unwrap())
        );
    }
}
