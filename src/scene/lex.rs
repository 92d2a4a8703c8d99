//! What every scanner of RON text in `scene` agrees on: where a comment, a
//! string or a char literal that starts at an offset ends. RON's rules:
//! line comments run to the end of the line; block comments nest (`/* a /*
//! b */ c */` is one comment); strings are plain (`"…"`, with `\` escapes)
//! or raw (`r"…"`, `r#"…"#`); a char is `'x'` or `'\n'`. The diagnostics
//! locator (`diag.rs`) and the syntax-error placer (`syntax.rs`) walk the
//! text with [`skip`], so brackets and quotes inside text or comments never
//! confuse either, and both read comments as the parser does.

/// Just past whatever comment, string or char literal starts at `at`, or
/// None when none starts there (an unclosed one runs to the end).
pub fn skip(source: &str, at: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    match bytes.get(at)? {
        b'/' if bytes.get(at + 1) == Some(&b'/') => Some(line_comment_end(source, at)),
        b'/' if bytes.get(at + 1) == Some(&b'*') => {
            Some(block_comment_end(source, at).unwrap_or(bytes.len()))
        }
        b'"' | b'r' if is_string_start(bytes, at) => Some(string_end(source, at)),
        b'\'' => char_end(bytes, at),
        _ => None,
    }
}

/// The bytes of `source` that are code (outside comments, strings and
/// chars), with their offsets: what a bracket or a word scan walks.
pub fn code(source: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
    let bytes = source.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            match skip(source, i) {
                Some(end) => i = end,
                None => {
                    i += 1;
                    return Some((i - 1, bytes[i - 1]));
                }
            }
        }
        None
    })
}

/// Just past the line comment at `at` (its newline included).
pub fn line_comment_end(source: &str, at: usize) -> usize {
    source
        .get(at..)
        .and_then(|rest| rest.find('\n'))
        .map_or(source.len(), |n| at + n + 1)
}

/// Just past the block comment opening at `at` (comments nest), if it closes.
pub fn block_comment_end(source: &str, at: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    let mut depth = 0;
    let mut i = at;
    while i + 1 < bytes.len() {
        match (bytes[i], bytes[i + 1]) {
            (b'/', b'*') => {
                depth += 1;
                i += 2;
            }
            (b'*', b'/') => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// Whether a string literal (`"…"` or `r#"…"#`) starts at `i`.
pub fn is_string_start(bytes: &[u8], i: usize) -> bool {
    match bytes.get(i) {
        Some(b'"') => true,
        Some(b'r') => {
            let previous_is_word =
                i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
            let mut j = i + 1;
            while bytes.get(j) == Some(&b'#') {
                j += 1;
            }
            !previous_is_word && bytes.get(j) == Some(&b'"')
        }
        _ => false,
    }
}

/// Where the string literal starting at `at` holds its text, and just past
/// its end: `(text_start, text_end, end)`. An unclosed one runs to the end.
pub fn string_span(source: &str, at: usize) -> (usize, usize, usize) {
    let bytes = source.as_bytes();
    if bytes.get(at) == Some(&b'r') {
        let hashes = bytes[at + 1..].iter().take_while(|b| **b == b'#').count();
        let open = (at + 1 + hashes + 1).min(bytes.len());
        let close = format!("\"{}", "#".repeat(hashes));
        return match source[open..].find(&close) {
            Some(n) => (open, open + n, open + n + close.len()),
            None => (open, bytes.len(), bytes.len()),
        };
    }
    let open = (at + 1).min(bytes.len());
    let mut j = open;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'"' => return (open, j, j + 1),
            _ => j += 1,
        }
    }
    (open, bytes.len(), bytes.len())
}

/// Just past the string literal starting at `at` (plain or raw).
pub fn string_end(source: &str, at: usize) -> usize {
    string_span(source, at).2
}

/// Just past the char literal at `at` (`'x'`, `'\n'`, `'\u{…}'`), if one
/// is there: a stray apostrophe in broken text is not taken for one.
fn char_end(bytes: &[u8], at: usize) -> Option<usize> {
    let skip = if bytes.get(at + 1) == Some(&b'\\') {
        3
    } else {
        2
    };
    // The longest is `'\u{10FFFF}'`; a four-byte character is shorter.
    let last = (at + 12).min(bytes.len());
    (at + skip..last)
        .find(|&j| bytes[j] == b'\'')
        .map(|j| j + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_comments_nest_as_the_parser_reads_them() {
        let text = "/* a /* b */ c */ (x)";
        assert_eq!(skip(text, 0), Some(17));
        assert_eq!(block_comment_end("/* open /* */", 0), None);
        // RON agrees: the whole first part is a comment.
        assert!(ron::from_str::<(u8,)>("/* a /* b */ c */ (1)").is_ok());
    }

    #[test]
    fn strings_plain_and_raw_and_chars_are_skipped_whole() {
        let text = r####"r#"a "quoted" ) word"# "b\"c" 'x' '\n' x"####;
        let raw_end = skip(text, 0).unwrap();
        assert_eq!(&text[..raw_end], r####"r#"a "quoted" ) word"#"####);
        let plain = raw_end + 1;
        assert_eq!(&text[plain..skip(text, plain).unwrap()], r#""b\"c""#);
        let ch = text.find('\'').unwrap();
        assert_eq!(&text[ch..skip(text, ch).unwrap()], "'x'");
        let esc = text.rfind("'\\").unwrap();
        assert_eq!(&text[esc..skip(text, esc).unwrap()], "'\\n'");
        assert_eq!(skip(text, text.len() - 1), None);
        // A stray apostrophe in broken text is not a char.
        assert_eq!(skip("'tis a long way to go'", 0), None);
        // A word ending in r is not a raw string.
        assert!(!is_string_start(b"bar\"x\"", 2));
    }

    #[test]
    fn code_is_what_lies_outside_them() {
        let text = "(a: \"(\", /* ) */ b: [1]) // ]";
        let code: String = code(text).map(|(_, b)| char::from(b)).collect();
        assert_eq!(code, "(a: ,  b: [1]) ");
        assert_eq!(code_at(text, 1), Some(b'a'));
    }

    fn code_at(text: &str, at: usize) -> Option<u8> {
        code(text).find(|(i, _)| *i == at).map(|(_, b)| b)
    }

    #[test]
    fn unclosed_ones_run_to_the_end() {
        assert_eq!(skip("\"never closed", 0), Some(13));
        assert_eq!(skip("// to the end", 0), Some(13));
        assert_eq!(skip("/* to the end", 0), Some(13));
        assert_eq!(string_span("r#\"open", 0), (3, 7, 7));
    }
}
