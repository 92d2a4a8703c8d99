//! Problems in reading a file, before its items can be checked: bytes that
//! are not UTF-8 text, an empty file, and RON syntax and shape errors. Each
//! is put where the author must look (the stray bracket, the `\q` in a
//! string, the value of the wrong type, the sign of a negative number) and
//! told in an author's words, with a hint for that error.

use super::diag::{Diagnostic, Locator, closest, line_column, offset_of};
use super::lex;
use ron::error::{Error, SpannedError};

/// The text of a file without its UTF-8 byte-order mark, if it has one.
pub fn without_bom(source: &str) -> &str {
    source.strip_prefix('\u{feff}').unwrap_or(source)
}

/// The bytes of a file as text, or a problem at the first byte that is not
/// text: a byte that is not UTF-8, or a control character that only a binary
/// file holds (NUL and the like; tabs and line ends are text).
pub fn decode(file: &str, bytes: Vec<u8>) -> Result<String, Box<Diagnostic>> {
    let valid = match std::str::from_utf8(&bytes) {
        Ok(text) => text.len(),
        Err(err) => err.valid_up_to(),
    };
    // Valid UTF-8 up to `valid`: a binary control character within it?
    let text = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
    let control = text
        .char_indices()
        .find(|(_, c)| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{c}'));
    let (at, message, hint) = match control {
        Some((at, c)) => (
            at,
            format!(
                "the file holds the control character U+{:04X}: it looks like a binary file, not a scene",
                u32::from(c)
            ),
            "a scene is a text file of RON: check that this is the right file",
        ),
        None if valid < bytes.len() => (
            valid,
            format!(
                "the file is not UTF-8 text: byte 0x{:02X} cannot start or continue a character",
                bytes[valid]
            ),
            "save the file as UTF-8 (every editor can); other encodings (GBK, Big5, Latin-1) are not read",
        ),
        None => {
            return String::from_utf8(bytes).map_err(|_| {
                Box::new(Diagnostic::whole_file(
                    file,
                    "the file is not UTF-8 text".into(),
                    "save the file as UTF-8",
                ))
            });
        }
    };
    let shown = String::from_utf8_lossy(&bytes).into_owned();
    let (line, column) = line_column(text, at);
    let locator = Locator::new(file, &shown);
    Err(Box::new(locator.at_line(
        line,
        column,
        message,
        hint.to_string(),
        "Writing RON",
    )))
}

/// A problem for a file with nothing in it but blanks and comments.
pub fn empty(locator: &Locator) -> Option<Diagnostic> {
    let source = locator.source;
    let rest = skip_trivia(source, 0);
    if rest < source.len() {
        return None;
    }
    let message = if source.trim().is_empty() {
        "the file is empty"
    } else {
        "the file holds only comments"
    };
    Some(locator.at_line(
        1,
        1,
        message.to_string(),
        "a scene is one RON item, `( meta: (...), sides: [...], ... )`: the tutorial's finished scene in scenes/examples/ is a good start".to_string(),
        "Writing RON",
    ))
}

/// The byte offset of the first character at or after `at` that is neither
/// blank nor in a comment (or the end of the text).
fn skip_trivia(source: &str, mut at: usize) -> usize {
    let bytes = source.as_bytes();
    while at < bytes.len() {
        match bytes[at] {
            b if b.is_ascii_whitespace() => at += 1,
            b'/' if matches!(bytes.get(at + 1), Some(b'/' | b'*')) => {
                at = lex::skip(source, at).unwrap_or(bytes.len());
            }
            _ => break,
        }
    }
    at.min(bytes.len())
}

/// The block comment that is never closed: the first `/*` outside strings
/// and line comments whose comment runs to the end of the file.
fn unclosed_comment(source: &str) -> Option<usize> {
    let bytes = source.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
            match lex::block_comment_end(source, i) {
                Some(end) => i = end,
                None => return Some(i),
            }
        } else {
            i = lex::skip(source, i).unwrap_or(i + 1);
        }
    }
    None
}

/// Where the value that ends at `at` (its last character) begins: the
/// matching opening bracket of a closing one, or the start of a word or
/// number. Strings are skipped.
fn value_start(source: &str, at: usize) -> usize {
    let bytes = source.as_bytes();
    let Some(&last) = bytes.get(at) else {
        return at;
    };
    if matches!(last, b')' | b']' | b'}') {
        // Scan from the start, keeping a stack of openers, up to `at`.
        let mut stack = Vec::new();
        for (i, byte) in lex::code(source).take_while(|(i, _)| *i < at) {
            match byte {
                b'(' | b'[' | b'{' => stack.push(i),
                b')' | b']' | b'}' => {
                    stack.pop();
                }
                _ => {}
            }
        }
        return stack.pop().unwrap_or(at);
    }
    if matches!(last, b'"' | b'#') {
        // The closing quote of a string: find where the string opens.
        let mut i = 0;
        while i < at {
            match lex::skip(source, i) {
                Some(end) if end > at => {
                    return if lex::is_string_start(bytes, i) {
                        i
                    } else {
                        at
                    };
                }
                Some(end) => i = end,
                None => i += 1,
            }
        }
        return at;
    }
    let is_word = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'+');
    let mut start = at;
    while start > 0 && is_word(bytes[start - 1]) {
        start -= 1;
    }
    start
}

/// The field whose value starts at `at` (`men` for `men: "many"`), if any.
fn field_before(source: &str, at: usize) -> Option<&str> {
    let before = source.get(..at)?.trim_end();
    let before = before.strip_suffix(':')?.trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let word = &before[start..];
    (!word.is_empty()).then_some(word)
}

/// The value written at `at`, as the author wrote it, shortened.
fn written(source: &str, at: usize) -> String {
    let rest = source.get(at..).unwrap_or("");
    let end = if lex::is_string_start(rest.as_bytes(), 0) {
        lex::string_end(rest, 0)
    } else if rest.starts_with(['(', '[', '{']) {
        bracket_end(rest)
    } else {
        rest.find(|c: char| c.is_whitespace() || matches!(c, ',' | ')' | ']' | '}'))
            .unwrap_or(rest.len())
    };
    let text: String = rest[..end].chars().take(40).collect();
    if text.len() < end {
        format!("{text}...")
    } else {
        text
    }
}

/// Just past the bracket that closes the one `text` starts with (or the end).
fn bracket_end(text: &str) -> usize {
    let mut depth = 0;
    for (i, byte) in lex::code(text) {
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// The innermost bracket still open at the end of the text, if any.
fn unclosed_bracket(source: &str) -> Option<(usize, char)> {
    let mut stack = Vec::new();
    for (i, byte) in lex::code(source) {
        match byte {
            b'(' | b'[' | b'{' => stack.push((i, char::from(byte))),
            b')' | b']' | b'}' => {
                stack.pop();
            }
            _ => {}
        }
    }
    stack.pop()
}

/// "`men` takes" or "this field takes", for messages.
fn subject(field: Option<&str>) -> String {
    field.map_or_else(|| "this value".to_string(), |f| format!("`{f}`"))
}

/// Where RON stopped and what stands there: `start` where it reported,
/// `value` the value itself (past blanks and comments), the field it is the
/// value of, and that value as written.
struct Spot<'s> {
    source: &'s str,
    start: usize,
    value: usize,
    field: Option<&'s str>,
    found: String,
    at_end: bool,
}

/// A problem placed: (offset, message, hint, guide section).
type Placed = (usize, String, String, &'static str);

/// Turns a RON error into a diagnostic at the place to fix.
pub fn ron_error(locator: &Locator, err: &SpannedError) -> Diagnostic {
    let source = locator.source;
    let start = offset_of(source, err.span.start.line, err.span.start.col);
    // Most errors are reported where RON stood, which may be the blank
    // before the value: the value itself is what to fix.
    let value = skip_trivia(source, start);
    let spot = Spot {
        source,
        start,
        value,
        field: field_before(source, value),
        found: written(source, value),
        at_end: value >= source.len(),
    };
    let (at, message, hint, guide) = field_problem(err, &spot)
        .or_else(|| value_problem(err, &spot))
        .unwrap_or_else(|| syntax_problem(err, &spot));
    locator.at(at, message, hint, guide)
}

/// A field or name that is not one of the item's: unknown, missing, twice.
fn field_problem(err: &SpannedError, spot: &Spot) -> Option<Placed> {
    const F: &str = "Fields";
    const C: &str = "Conditions and effects";
    let start = spot.start;
    Some(match &err.code {
        // A rule this version does not have: the list of some seventy rules
        // helps nobody, and a rules file from a newer xiaoling is the likely
        // cause when the name is not a misspelling.
        Error::NoSuchStructField {
            expected,
            found,
            outer,
        } if outer.as_deref() == Some("RulesFile") => {
            let hint = match closest(found, expected.iter().copied()) {
                Some(near) => format!("did you mean `{near}`? The guide's rules table lists every rule"),
                None => "no rule has this name in this version of xiaoling: check it against the guide's rules table; a rules file written for a newer xiaoling can name rules this one does not know (update xiaoling)".to_string(),
            };
            (
                start,
                format!("Unexpected field named `{found}`: there is no rule `{found}`"),
                hint,
                "Rules",
            )
        }
        Error::NoSuchStructField {
            expected, found, ..
        } => {
            let hint = match closest(found, expected.iter().copied()) {
                Some(near) => format!(
                    "did you mean `{near}`? The fields allowed here are: {}",
                    expected.join(", ")
                ),
                None => format!("the fields allowed here are: {}", expected.join(", ")),
            };
            (start, format!("{}", err.code), hint, F)
        }
        Error::MissingStructField { field, .. } => (
            start,
            format!("{}", err.code),
            format!("add `{field}: ...` to this item"),
            F,
        ),
        Error::DuplicateStructField { field, .. } => (
            start,
            format!("{}", err.code),
            format!("`{field}` is given twice in this item: keep one"),
            F,
        ),
        Error::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => {
            let list = expected.join(", ");
            let hint = match closest(found, expected.iter().copied()) {
                Some(near) => format!("did you mean `{near}`? Expected one of: {list}"),
                None => format!("expected one of: {list}"),
            };
            // The section that lists the names of this kind.
            let guide = match outer.as_deref() {
                Some("Compass") => "Meta",
                Some("Colour") => "Sides",
                Some("Order") => "Units",
                Some("Fate") => "A commander who falls",
                Some("Origin") => "Provenance",
                _ => C,
            };
            (start, format!("{}", err.code), hint, guide)
        }
        _ => return None,
    })
}

/// A value of the wrong form: trailing text, an escape, a comment or a
/// string left open, a number out of range, a number, flag or string
/// where another was wanted.
fn value_problem(err: &SpannedError, spot: &Spot) -> Option<Placed> {
    const W: &str = "Writing RON";
    let Spot {
        source,
        start,
        value,
        field,
        found,
        at_end,
    } = spot;
    let (source, start, value, field, at_end) = (*source, *start, *value, *field, *at_end);
    Some(match &err.code {
        Error::TrailingCharacters => (
            value,
            format!(
                "`{}` after the end of the scene",
                source
                    .get(value..)
                    .and_then(|rest| rest.chars().next())
                    .unwrap_or(' ')
            ),
            "the file is one item `( ... )`: remove what follows it, or look before it for a bracket closed too early".to_string(),
            W,
        ),
        Error::InvalidEscape(_) => {
            // RON stops at the string; the bad escape is inside it.
            let string = source.get(start..).unwrap_or("");
            let bad = string
                .char_indices()
                .skip(1)
                .scan(false, |escaped, (i, c)| {
                    let out = (*escaped, i, c);
                    *escaped = !*escaped && c == '\\';
                    Some(out)
                })
                .find(|(escaped, _, c)| {
                    *escaped && !matches!(c, '"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't' | 'u' | '0' | '\'' | 'x')
                })
                .map(|(_, i, c)| (start + i - 1, c));
            match bad {
                Some((at, c)) => (
                    at,
                    format!("unknown escape `\\{c}` in a string"),
                    "the escapes are \\\" \\\\ \\n \\t \\u{4E00}; write `\\\\` for a backslash".to_string(),
                    W,
                ),
                None => (
                    start,
                    "unknown escape in a string".to_string(),
                    "the escapes are \\\" \\\\ \\n \\t \\u{4E00}; write `\\\\` for a backslash".to_string(),
                    W,
                ),
            }
        }
        Error::UnclosedBlockComment => (
            unclosed_comment(source).unwrap_or(start),
            "this `/*` comment is never closed".to_string(),
            "close it with `*/`; comments nest, so a `/*` inside it needs its own `*/`".to_string(),
            W,
        ),
        Error::ExpectedStringEnd => (
            start,
            "this string is never closed".to_string(),
            "end it with `\"`; a `\"` inside a string is written `\\\"`".to_string(),
            W,
        ),
        Error::ExceededRecursionLimit => (
            start,
            "brackets are nested too deeply here (more than 128 levels)".to_string(),
            "no scene needs so many levels: look for brackets opened and never closed, or a condition nested in itself".to_string(),
            W,
        ),
        Error::IntegerOutOfBounds => {
            let at = if source[..value].ends_with('-') { value - 1 } else { value };
            if source[at..].starts_with('-') {
                (
                    at,
                    format!("{} cannot be negative: `{}`", subject(field.or_else(|| field_before(source, at))), written(source, at)),
                    "write a whole number of 0 or more".to_string(),
                    W,
                )
            } else {
                (
                    at,
                    format!("{} is too large: `{found}`", subject(field)),
                    "write a smaller whole number".to_string(),
                    W,
                )
            }
        }
        Error::ExpectedInteger => (
            value,
            format!("{} takes a whole number, not `{found}`", subject(field)),
            "write digits without quotes or a decimal point, like `1400`".to_string(),
            W,
        ),
        Error::ExpectedFloat => (
            value,
            format!("{} takes a number, not `{found}`", subject(field)),
            "write a number without quotes, like `0.5` or `60`".to_string(),
            W,
        ),
        Error::ExpectedBoolean => (
            value,
            format!("{} is `true` or `false`, not `{found}`", subject(field)),
            "write `true` or `false`, without quotes".to_string(),
            W,
        ),
        Error::ExpectedString if !at_end => (
            value,
            format!("{} takes a string in quotes, not `{found}`", subject(field)),
            "write it in double quotes, like \"north-bank\"".to_string(),
            W,
        ),
        _ => return None,
    })
}

/// Everything else: the shape of the text (forms of a field, commas,
/// colons, brackets, the end of the file).
fn syntax_problem(err: &SpannedError, spot: &Spot) -> Placed {
    const W: &str = "Writing RON";
    let Spot {
        source,
        start,
        value,
        found,
        at_end,
        ..
    } = spot;
    let (source, start, value, at_end) = (*source, *start, *value, *at_end);
    match &err.code {
        Error::Message(text) if text.contains("untagged enum Text") => {
            // Serde reports an untagged enum after reading the whole value.
            let at = value_start(source, start);
            let field = field_before(source, at);
            (
                at,
                format!(
                    "{} is a text: a string in quotes or a map of translations, not `{}`",
                    subject(field),
                    written(source, at)
                ),
                "write \"...\" or {\"en\": \"...\", \"zh-Hans\": \"...\"}".to_string(),
                "Text and translations",
            )
        }
        Error::Message(text) if text.contains("untagged enum") => {
            let at = value_start(source, start);
            (
                at,
                format!("{} does not have any of the forms allowed here", subject(field_before(source, at))),
                "see the guide for the forms of this field".to_string(),
                W,
            )
        }
        Error::ExpectedComma if after_whole_number(source, start) => (
            start,
            format!("{}", err.code),
            "this field takes a whole number: write it without a decimal point (`1400`, not `1400.0`)".to_string(),
            W,
        ),
        Error::ExpectedComma => (
            start,
            format!("{}", err.code),
            "put a comma between fields and between list items: one is missing just before here (check brackets, commas and quotes near here)".to_string(),
            W,
        ),
        Error::ExpectedMapColon => (
            start,
            format!("{}", err.code),
            "write `field: value` (in a map, `\"key\": value`): a colon is missing".to_string(),
            W,
        ),
        Error::ExpectedArray => (
            value,
            format!("expected a list `[...]`, found `{found}`"),
            "this field takes a list in square brackets, like `[\"ford\", \"camp\"]` (or `[]`)".to_string(),
            W,
        ),
        Error::ExpectedMap => (
            value,
            format!("expected a map `{{...}}`, found `{found}`"),
            "this field takes a map in braces, like `{\"en\": \"...\"}`".to_string(),
            W,
        ),
        Error::ExpectedArrayEnd | Error::ExpectedMapEnd | Error::ExpectedStructLikeEnd | Error::ExpectedOptionEnd => (
            start,
            format!("{}", err.code),
            "a bracket is missing or one too many: check brackets, commas and quotes near here".to_string(),
            W,
        ),
        Error::ExpectedIdentifier => (
            start,
            format!("{}", err.code),
            "a field name or a name from a fixed list goes here (like `id` or `Ford`): check brackets, commas and quotes near here".to_string(),
            W,
        ),
        Error::UnexpectedChar(c) => (
            start,
            format!("`{c}` cannot stand here"),
            "check brackets, commas and quotes near here".to_string(),
            W,
        ),
        Error::ExpectedNamedStructLike(_) | Error::ExpectedStructLike | Error::Eof
            if at_end =>
        {
            match unclosed_bracket(source) {
                Some((open, bracket)) => {
                    let (line, column) = line_column(source, open);
                    (
                        value,
                        format!("the file ends before `{bracket}` at line {line}, column {column} is closed"),
                        "close every bracket: `(` with `)`, `[` with `]`, `{` with `}`".to_string(),
                        W,
                    )
                }
                None => (
                    value,
                    "the file ends where a value should be".to_string(),
                    "finish the item, or remove the comma before".to_string(),
                    W,
                ),
            }
        }
        Error::ExpectedNamedStructLike(_) | Error::ExpectedStructLike => (
            value,
            format!("expected an item in parentheses `( ... )`, found `{found}`"),
            "check brackets, commas and quotes near here".to_string(),
            W,
        ),
        Error::Utf8Error(_) => (
            start,
            "the text is not valid UTF-8 here".to_string(),
            "save the file as UTF-8".to_string(),
            W,
        ),
        _ => (
            start,
            format!("{}", err.code),
            "check brackets, commas and quotes near here".to_string(),
            W,
        ),
    }
}

/// Whether the offset is at the decimal point of a number such as `1400.0`:
/// RON stops there when the field takes a whole number.
fn after_whole_number(source: &str, at: usize) -> bool {
    let bytes = source.as_bytes();
    bytes.get(at) == Some(&b'.')
        && at > 0
        && bytes[at - 1].is_ascii_digit()
        && bytes.get(at + 1).is_some_and(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_found_from_their_last_character() {
        let source = "name: {\"en\": \"(\"}, men: 5, x: \"a]\"";
        let close = source.find('}').unwrap();
        assert_eq!(value_start(source, close), source.find('{').unwrap());
        let five = source.find('5').unwrap();
        assert_eq!(value_start(source, five), five);
        let last = source.len() - 1;
        assert_eq!(value_start(source, last), source.rfind("\"a").unwrap());
    }

    #[test]
    fn the_unclosed_comment_is_the_one_that_runs_to_the_end() {
        let source = "/* a /* b */ */ x // /*\n \"/*\" /* open /* c */";
        assert_eq!(unclosed_comment(source), source.rfind("/* open"));
    }

    #[test]
    fn decoding_points_at_the_first_bad_byte() {
        let bytes = b"(\n  id: \"\xe6\xb1\x89\",\xff\n".to_vec();
        let problem = decode("f.ron", bytes).unwrap_err();
        assert_eq!((problem.line, problem.column), (2, 11));
        assert!(problem.message.contains("0xFF"), "{}", problem.message);
        let problem = decode("f.ron", b"(\n\n ab\0c".to_vec()).unwrap_err();
        assert_eq!((problem.line, problem.column), (3, 4));
        assert!(problem.message.contains("binary"), "{}", problem.message);
        assert_eq!(decode("f.ron", "汉\t\r\n".into()).unwrap(), "汉\t\r\n");
    }
}
