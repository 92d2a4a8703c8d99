//! Wrapping text to the terminal by display width: a CJK character takes two
//! columns, and Chinese may break between any two characters (but not before
//! closing punctuation), while English breaks at spaces.

use unicode_width::UnicodeWidthChar;
use unicode_width::UnicodeWidthStr;

/// Display width in terminal columns (ANSI colour codes count as zero).
pub fn width(text: &str) -> usize {
    if !has_codes(text) {
        // The text is what is seen: no copy to measure it.
        return text.width();
    }
    // Printable ASCII is a column a character, counted as it is read; any
    // other character is measured as the whole visible text.
    let mut ascii = 0;
    for c in visible(text) {
        if !matches!(c, ' '..='~') {
            return strip_ansi(text).width();
        }
        ascii += 1;
    }
    ascii
}

/// Whether `text` holds a colour code, a name mark or a kept space, which
/// [`strip_ansi`] removes or changes.
pub fn has_codes(text: &str) -> bool {
    next_code(text, 0).is_some()
}

/// The next colour code's escape, name mark or kept space in `text` at or
/// after byte `from` (a character boundary): its byte and character. The
/// bytes are searched for the escape and the first bytes of the marks'
/// and the kept space's UTF-8 (`0xC2`, `0xEF`), and a character so begun
/// is read whole only there.
fn next_code(text: &str, from: usize) -> Option<(usize, char)> {
    let bytes = text.as_bytes();
    let mut at = from;
    while let Some(k) = first_code_byte(bytes.get(at..)?) {
        at += k;
        // `at` is a character's first byte: 0x1b, 0xC2 and 0xEF are
        // never a continuation byte.
        let c = text[at..].chars().next()?;
        if matches!(c, '\u{1b}' | NAME_OPEN | NAME_CLOSE | KEEP) {
            return Some((at, c));
        }
        at += c.len_utf8();
    }
    None
}

/// Where in `bytes` the first escape (`0x1B`), `0xC2` or `0xEF` is. Eight
/// bytes at a time while they are ASCII without an escape (most text).
fn first_code_byte(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut at = 0;
    loop {
        while let Some(chunk) = bytes.get(at..at + 8) {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            let w = u64::from_le_bytes(word);
            // A byte of 0x1B there makes a zero byte of `w ^ 0x1B..` (the
            // test may also flag a byte above a zero one: read below).
            let esc = w ^ (0x1b * ONES);
            let has_esc = esc.wrapping_sub(ONES) & !esc & HIGH != 0;
            if has_esc || w & HIGH != 0 {
                break;
            }
            at += 8;
        }
        // Byte by byte through the eight that stopped it (or the tail).
        let end = (at + 8).min(bytes.len());
        let found = (bytes[at..end].iter()).position(|&b| b == 0x1b || b == 0xc2 || b == 0xef);
        if let Some(k) = found {
            return Some(at + k);
        }
        if end == bytes.len() {
            return None;
        }
        at = end;
    }
}

/// The visible characters of `text`, as [`strip_ansi`] leaves them (a kept
/// space is a space), without copying them.
fn visible(text: &str) -> impl Iterator<Item = char> + '_ {
    let mut chars = text.chars();
    std::iter::from_fn(move || {
        loop {
            match chars.next()? {
                NAME_OPEN | NAME_CLOSE => {}
                KEEP => return Some(' '),
                '\u{1b}' => {
                    for c in chars.by_ref() {
                        if c.is_ascii_alphabetic() {
                            break;
                        }
                    }
                }
                c => return Some(c),
            }
        }
    })
}

/// A space the wrap never breaks at (a no-break space): it keeps a figure
/// with its unit or word ("3,000 men", "65 steady"). Printed as a space
/// ([`strip_marks`]).
pub const KEEP: char = '\u{a0}';

/// Marks the start of a name when colour is off: wrapping keeps what is
/// between the marks together as a coloured name is. Never printed
/// ([`strip_marks`]); takes no room. (A private-use character.)
pub const NAME_OPEN: char = '\u{f8f0}';
/// Marks the end of a name (see [`NAME_OPEN`]).
pub const NAME_CLOSE: char = '\u{f8f1}';

/// `text` without name marks, its kept spaces plain: what is printed.
pub fn strip_marks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    while let Some((at, c)) = next_code(text, from) {
        out.push_str(&text[from..at]);
        from = at + c.len_utf8();
        match c {
            NAME_OPEN | NAME_CLOSE => {}
            KEEP => out.push(' '),
            // A colour code is printed.
            _ => out.push(c),
        }
    }
    out.push_str(&text[from..]);
    out
}

/// The visible text: without colour codes and name marks.
pub fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    while let Some((at, c)) = next_code(text, from) {
        out.push_str(&text[from..at]);
        from = at + c.len_utf8();
        match c {
            NAME_OPEN | NAME_CLOSE => {}
            KEEP => out.push(' '),
            // A colour code: to its first letter, which ends it.
            _ => {
                from = text[from..]
                    .char_indices()
                    .find(|(_, c)| c.is_ascii_alphabetic())
                    .map_or(text.len(), |(k, c)| from + k + c.len_utf8());
            }
        }
    }
    out.push_str(&text[from..]);
    out
}

fn is_wide(c: char) -> bool {
    // Nothing below U+1100 (Hangul Jamo) takes two columns.
    u32::from(c) >= 0x1100 && (is_common_wide(c) || c.width().unwrap_or(0) >= 2)
}

/// The wide characters of most Chinese text, known without the width
/// table: the common ideographs, the brackets and stops 、。〈〉《》「」『』【】
/// and the full-width forms （），：；！？ (a test holds them to the table).
fn is_common_wide(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3001}'..='\u{3011}' | '\u{ff01}'..='\u{ff5e}')
}

/// A character's columns: printable ASCII one, and the common wide ones
/// two, without a table's look-up.
fn columns_of(c: char) -> usize {
    if matches!(c, ' '..='~') {
        1
    } else if is_common_wide(c) {
        2
    } else {
        c.width().unwrap_or(0)
    }
}

/// Opening brackets and quotes that must not end a line (禁则).
/// A Chinese numeral: a number said in words (一百四十, 两万五千) is never
/// parted, nor from the 人, 余, 多 or 来 right after it.
fn is_zh_numeral(c: char) -> bool {
    matches!(
        c,
        '零' | '〇'
            | '一'
            | '二'
            | '两'
            | '三'
            | '四'
            | '五'
            | '六'
            | '七'
            | '八'
            | '九'
            | '十'
            | '百'
            | '千'
            | '万'
            | '亿'
    )
}

fn no_line_end(c: char) -> bool {
    matches!(c, '（' | '「' | '『' | '《' | '〈' | '“' | '‘')
}

/// Closing punctuation that must not start a line (禁则).
fn no_line_start(c: char) -> bool {
    matches!(
        c,
        '，' | '。'
            | '、'
            | '；'
            | '：'
            | '！'
            | '？'
            | '）'
            | '」'
            | '』'
            | '》'
            | '〉'
            | '”'
            | '’'
            | '…'
            | '—'
            | ','
            | '.'
            | ';'
            | ':'
            | '!'
            | '?'
            | ')'
    )
}

/// Where the bracket that `rest` follows closes (its byte in `rest`), when
/// it is kept whole: it opens with a figure (a time, a count: （16:00消息）),
/// holds no space, colour, bracket or line break, and is at most `most`
/// columns wide (a character not ASCII counted as two). Reads at most
/// `most` columns past the bracket, so that wrapping stays linear in the
/// text.
fn short_bracket(rest: &str, most: usize) -> Option<usize> {
    if !rest.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    // The brackets' own columns.
    let mut w = 4;
    for (k, c) in rest.char_indices() {
        match c {
            '）' => return (w <= most).then_some(k),
            '（' | ' ' | '\n' | '\u{1b}' | KEEP => return None,
            // Two columns for anything but ASCII: never narrower than it
            // is, and no look-up in the width table (which, called from
            // here too, is no longer inlined where wrapping reads text).
            c if c.is_ascii() => w += 1,
            _ => w += 2,
        }
        if w > most {
            return None;
        }
    }
    None
}

/// Wraps `text` to `columns`, each line prefixed by `indent`. Existing line
/// breaks are kept. Colour codes take no room; a colour open at a line's end
/// is closed there and opened again after the next line's indent. Text in
/// one colour (a name) is broken only at its spaces, never between its
/// Chinese characters; a number ("10,634") is never broken.
///
/// Linear in the text, each character read a bounded number of times; the
/// tokens are ranges of one buffer and the lines are written straight into
/// the result, so nothing is allocated per character, token or line.
pub fn wrap(text: &str, columns: usize, indent: &str) -> String {
    // One buffer and token list for every wrap of the thread (a turn wraps
    // a dozen texts); a fresh one should the thread's be in use.
    WORK.with(|work| match work.try_borrow_mut() {
        Ok(mut work) => wrap_with(&mut work, text, columns, indent),
        Err(_) => wrap_with(&mut Work::default(), text, columns, indent),
    })
}

thread_local! {
    static WORK: std::cell::RefCell<Work> = std::cell::RefCell::new(Work::default());
}

fn wrap_with(work: &mut Work, text: &str, columns: usize, indent: &str) -> String {
    let columns = columns.max(indent.width() + 10);
    let room = columns - indent.width();
    let mut out = String::with_capacity(text.len() + text.len() / 4 + 16);
    let mut first = true;
    for paragraph in text.split('\n') {
        if visible(paragraph).all(char::is_whitespace) {
            if !first {
                out.push('\n');
            }
            first = false;
            continue;
        }
        let mut active = String::new();
        let paragraph = keep_code_spans(paragraph, room);
        // A plain paragraph holds no colour code: no style runs on.
        let plain = work.tokens_plain(&paragraph);
        if !plain {
            work.tokens(&paragraph, room);
        }
        work.join_figures(room);
        work.lay_out(room, &mut |line| {
            if !first {
                out.push('\n');
            }
            first = false;
            out.push_str(indent);
            out.push_str(&active);
            out.push_str(line);
            if !plain {
                open_style(&mut active, line);
            }
            if !active.is_empty() {
                out.push_str(RESET);
            }
        });
    }
    out
}

const RESET: &str = "\u{1b}[0m";

/// A command in backticks (`order UNIT advance C`) is not broken at its
/// spaces when it is short enough to fit half a line: they become kept
/// spaces ([`KEEP`]).
fn keep_code_spans(paragraph: &str, room: usize) -> std::borrow::Cow<'_, str> {
    if !paragraph.contains('`') {
        return std::borrow::Cow::Borrowed(paragraph);
    }
    let mut out = String::with_capacity(paragraph.len());
    let mut parts = paragraph.split('`');
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    let mut inside = true;
    let rest: Vec<&str> = parts.collect();
    let n = rest.len();
    for (i, part) in rest.into_iter().enumerate() {
        out.push('`');
        // The last part after an odd backtick is not a closed span.
        if inside && i + 1 < n && width(part) + 2 <= room / 2 {
            out.push_str(&part.replace(' ', &KEEP.to_string()));
        } else {
            out.push_str(part);
        }
        inside = !inside;
    }
    std::borrow::Cow::Owned(out)
}

/// The pieces of a text: visible characters and escape sequences.
enum Piece<'a> {
    Char(char),
    Escape(&'a str),
}

fn pieces(text: &str) -> impl Iterator<Item = Piece<'_>> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let c = rest.chars().next()?;
        if c == NAME_OPEN || c == NAME_CLOSE {
            let (mark, after) = rest.split_at(c.len_utf8());
            rest = after;
            Some(Piece::Escape(mark))
        } else if c == '\u{1b}' {
            let end = rest
                .char_indices()
                .skip(1)
                .find(|(_, c)| c.is_ascii_alphabetic())
                .map(|(i, c)| i + c.len_utf8())
                .unwrap_or(rest.len());
            let (escape, after) = rest.split_at(end);
            rest = after;
            Some(Piece::Escape(escape))
        } else {
            rest = &rest[c.len_utf8()..];
            Some(Piece::Char(c))
        }
    })
}

fn is_reset(escape: &str) -> bool {
    escape == RESET || escape == "\u{1b}[m" || escape.starts_with(NAME_CLOSE)
}

/// An escape that opens a span kept together: a colour or a name mark.
fn opens_span(escape: &str) -> bool {
    escape.ends_with('m') || escape.starts_with(NAME_OPEN)
}

/// `active`, the style open before `line`, made the one still open after it.
fn open_style(active: &mut String, line: &str) {
    if !line.contains('\u{1b}') {
        return;
    }
    for piece in pieces(line) {
        if let Piece::Escape(e) = piece
            && e.starts_with('\u{1b}')
        {
            if is_reset(e) {
                active.clear();
            } else if e.ends_with('m') {
                active.push_str(e);
            }
        }
    }
}

/// A token: the unit a line is broken between, a range of [`Work::buf`].
/// Tokens follow each other in the buffer, a single space between two
/// exactly when the second has `space`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Token {
    start: usize,
    end: usize,
    /// A space separates it from the token before.
    space: bool,
    /// Its last visible character, and its width: kept as it is built, so
    /// wrapping reads each character once.
    last: Option<char>,
    w: usize,
}

/// What wrapping a text reuses from one paragraph to the next.
#[derive(Default)]
struct Work {
    buf: String,
    tokens: Vec<Token>,
    prefix: String,
    line: String,
}

impl Work {
    /// Empties the buffer, tokens and prefix for a paragraph of `len` bytes.
    fn begin(&mut self, len: usize) {
        self.buf.clear();
        self.tokens.clear();
        self.prefix.clear();
        self.buf.reserve(len + 8);
        self.tokens.reserve(len / 4 + 4);
    }

    /// The paragraph's tokens, the units a line is broken between, for
    /// lines of `room` columns.
    fn tokens(&mut self, paragraph: &str, room: usize) {
        // Tokens: a run of non-space narrow characters is a word; each wide
        // character is a token of its own, except inside a colour (a name)
        // or a short bracket that opens with a figure (（16:00消息）, kept
        // whole: [`short_bracket`]); closing punctuation joins the token
        // before it, an opening bracket the token after it. Escape codes
        // ride along and take no room.
        self.begin(paragraph.len());
        let Work {
            buf,
            tokens,
            prefix,
            ..
        } = self;
        // The word being built is `buf[word..]` (empty when `word` is the
        // buffer's end); its last visible character and width, as it is
        // built.
        let mut word = 0usize;
        let mut word_last: Option<char> = None;
        let mut word_w = 0usize;
        let mut word_space = false;
        let mut space = false;
        let mut in_span = false;
        // The byte the piece read starts at, and where a bracket kept whole
        // closes (nothing inside it starts a token).
        let mut at = 0usize;
        let mut keep_to = 0usize;
        for piece in pieces(paragraph) {
            let here = at;
            at += match piece {
                Piece::Char(c) => c.len_utf8(),
                Piece::Escape(e) => e.len(),
            };
            let c = match piece {
                Piece::Escape(e) if is_reset(e) => {
                    in_span = false;
                    if word < buf.len() {
                        buf.push_str(e);
                    } else if let (true, Some(last)) = (prefix.is_empty(), tokens.last_mut()) {
                        // The word is empty: the last token ends the buffer.
                        buf.push_str(e);
                        last.end = buf.len();
                        word = buf.len();
                    } else {
                        prefix.push_str(e);
                    }
                    continue;
                }
                Piece::Escape(e) => {
                    in_span = opens_span(e);
                    prefix.push_str(e);
                    continue;
                }
                Piece::Char(c) => c,
            };
            if c == ' ' {
                if word < buf.len() {
                    tokens.push(Token {
                        start: word,
                        end: buf.len(),
                        space: word_space,
                        last: word_last.take(),
                        w: std::mem::take(&mut word_w),
                    });
                    word = buf.len();
                }
                space = true;
                continue;
            }
            let glue_back = !space
                && word == buf.len()
                && tokens
                    .last()
                    .is_some_and(|t| no_line_start(c) || t.last.is_some_and(no_line_end));
            if glue_back && let Some(last) = tokens.pop() {
                // Closing punctuation stays with what it closes; what
                // follows an opening bracket stays with it. The word is
                // empty, so the last token ends the buffer.
                word = last.start;
                word_space = last.space;
                word_last = last.last;
                word_w = last.w;
            }
            let after_bracket = word_last.is_some_and(no_line_end);
            let cjk = is_wide(c) && !in_span && !no_line_start(c);
            // A Chinese character starts a token, unless it follows an
            // opening bracket; Latin text after a Chinese character does too.
            let after_wide = word_last.is_some_and(is_wide);
            let span_start = in_span && !prefix.is_empty() && (is_wide(c) || after_wide);
            let after_keep = word_last == Some(KEEP);
            let in_numeral = match word_last {
                Some(last) if is_zh_numeral(last) => {
                    is_zh_numeral(c) || matches!(c, '人' | '余' | '多' | '来')
                }
                Some('余' | '多' | '来') => c == '人',
                _ => false,
            };
            let starts_token = word < buf.len()
                && !after_bracket
                && !after_keep
                && !in_numeral
                && here >= keep_to
                && !no_line_start(c)
                && (span_start || (!in_span && (cjk || after_wide)));
            if starts_token {
                tokens.push(Token {
                    start: word,
                    end: buf.len(),
                    space: word_space,
                    last: word_last.take(),
                    w: std::mem::take(&mut word_w),
                });
                word = buf.len();
            }
            if word == buf.len() {
                word_space = space;
                if space {
                    buf.push(' ');
                    word = buf.len();
                }
            }
            buf.push_str(prefix);
            prefix.clear();
            buf.push(c);
            word_last = Some(c);
            word_w += columns_of(c);
            space = false;
            if c == '（' && here >= keep_to {
                keep_to = short_bracket(&paragraph[at..], room / 2).map_or(0, |k| at + k);
            }
        }
        if word < buf.len() || !prefix.is_empty() {
            if word == buf.len() && word_space {
                // Escapes alone after a space: a token of their own,
                // as the word before it was spaced.
                buf.push(' ');
                word = buf.len();
            }
            buf.push_str(prefix);
            tokens.push(Token {
                start: word,
                end: buf.len(),
                space: word_space,
                last: word_last,
                w: word_w,
            });
        }
    }

    /// [`Work::tokens`] for a plain paragraph (its code spans kept:
    /// [`keep_code_spans`]), one pass over its bytes: one of characters no
    /// wider than a column but controls and colour codes, with name marks
    /// inside words (an opening one before a
    /// character of a word, a closing one after one). Such a paragraph's
    /// words are its runs of anything but spaces, no character starts or
    /// joins a token, and the tokens and buffer are the general way's, byte
    /// for byte (a test holds them to it). False, with nothing made, for any
    /// other paragraph.
    fn tokens_plain(&mut self, paragraph: &str) -> bool {
        self.begin(paragraph.len());
        let Work { buf, tokens, .. } = self;
        let bytes = paragraph.as_bytes();
        let n = bytes.len();
        let mut i = 0;
        let mut space = false;
        // The word being read: where it starts, its width and last character.
        let mut from: Option<usize> = None;
        let mut w = 0;
        let mut last: Option<char> = None;
        // The last thing read was a character of a word (not a mark).
        let mut after_char = false;
        // An opening mark waits for its word's character.
        let mut open = false;
        // The buffer is the paragraph with each run of spaces before a word
        // one space (and none after the last): copied a run at a time, not
        // a word at a time. `paragraph[seg.0..seg.1]` is still to be copied,
        // to `buf[seg.2..]`.
        let mut seg = (0usize, 0usize, 0usize);
        let fail = |buf: &mut String, tokens: &mut Vec<Token>| {
            buf.clear();
            tokens.clear();
            false
        };
        loop {
            let at_space = i == n || bytes[i] == b' ';
            if at_space {
                if open {
                    return fail(buf, tokens);
                }
                if let Some(start_byte) = from.take() {
                    // With the single space before it, if any: that byte
                    // is a space in the paragraph too.
                    let region = start_byte - usize::from(space);
                    if region != seg.1 {
                        buf.push_str(&paragraph[seg.0..seg.1]);
                        seg = (region, region, buf.len());
                    }
                    seg.1 = i;
                    tokens.push(Token {
                        start: seg.2 + (start_byte - seg.0),
                        end: seg.2 + (i - seg.0),
                        space,
                        last: last.take(),
                        w: std::mem::take(&mut w),
                    });
                }
                if i == n {
                    buf.push_str(&paragraph[seg.0..seg.1]);
                    return true;
                }
                space = true;
                after_char = false;
                i += 1;
                continue;
            }
            from.get_or_insert(i);
            let b = bytes[i];
            if b.is_ascii() {
                if b < b' ' || b == 0x7f {
                    return fail(buf, tokens);
                }
                // The rest of the word's run of printable ASCII at once: a
                // column a byte, its last byte the last character.
                let run = i;
                i += 1;
                while i < n && matches!(bytes[i], b'!'..=b'~') {
                    i += 1;
                }
                w += i - run;
                last = Some(char::from(bytes[i - 1]));
                after_char = true;
                open = false;
                continue;
            }
            let Some(c) = paragraph[i..].chars().next() else {
                return fail(buf, tokens);
            };
            match c {
                NAME_OPEN if !open => {
                    open = true;
                    after_char = false;
                }
                NAME_CLOSE if after_char => after_char = false,
                NAME_OPEN | NAME_CLOSE => return fail(buf, tokens),
                c if is_wide(c) => return fail(buf, tokens),
                c => {
                    w += columns_of(c);
                    last = Some(c);
                    after_char = true;
                    open = false;
                }
            }
            i += c.len_utf8();
        }
    }

    /// A figure is never parted from the word after it ("91 men", "3,000 严整").
    fn join_figures(&mut self, room: usize) {
        let Work { buf, tokens, .. } = self;
        let mut kept = 0usize;
        for i in 0..tokens.len() {
            let token = tokens[i];
            if kept > 0 {
                let last = &mut tokens[kept - 1];
                let text = &buf[last.start..last.end];
                let figure = visible(text).next().is_some_and(|c| c.is_ascii_digit())
                    && visible(text).all(|c| c.is_ascii_digit() || c == ',');
                if figure && token.w + last.w < room {
                    // The buffer holds the space between them, if any.
                    if token.space {
                        last.w += 1;
                    }
                    last.end = token.end;
                    last.w += token.w;
                    last.last = token.last;
                    continue;
                }
            }
            tokens[kept] = token;
            kept += 1;
        }
        tokens.truncate(kept);
    }

    /// The tokens laid into lines of `room` columns, each handed to `emit`;
    /// a token longer than a line is cut, closing punctuation never starting
    /// the next.
    fn lay_out(&mut self, room: usize, emit: &mut dyn FnMut(&str)) {
        let Work {
            buf, tokens, line, ..
        } = self;
        line.clear();
        line.reserve(4 * room);
        // The line so far, while it is a run of the buffer (tokens follow
        // each other there, a space between two where the second has one):
        // `buf[a..b]`, with `line` empty; else `line`, written out.
        let mut span: Option<(usize, usize)> = None;
        let mut used = 0;
        for token in tokens.iter() {
            let text = &buf[token.start..token.end];
            let gap = usize::from(token.space && used > 0);
            let w = token.w;
            if used > 0 && used + gap + w > room {
                match span.take() {
                    Some((a, b)) => emit(&buf[a..b]),
                    None => emit(line),
                }
                line.clear();
                used = 0;
            }
            let spaced = used > 0 && gap == 1;
            if spaced {
                used += 1;
            }
            if w > room && used == 0 {
                if let Some((a, b)) = span.take() {
                    line.push_str(&buf[a..b]);
                }
                // A word longer than the line: cut it.
                let mut pieces_w = 0;
                for piece in pieces(text) {
                    match piece {
                        Piece::Escape(e) => line.push_str(e),
                        Piece::Char(c) => {
                            let cw = c.width().unwrap_or(0);
                            if pieces_w + cw > room {
                                // Closing punctuation does not start the next
                                // line: the character before it goes along.
                                // (and before it any closing punctuation).
                                let mut carried = Vec::new();
                                // (Not within colour: its codes are not cut.)
                                if no_line_start(c) && !line.contains('\u{1b}') {
                                    while let Some(prev) = line.pop() {
                                        carried.push(prev);
                                        if !no_line_start(prev) {
                                            break;
                                        }
                                    }
                                }
                                emit(line);
                                line.clear();
                                pieces_w = 0;
                                for prev in carried.into_iter().rev() {
                                    pieces_w += prev.width().unwrap_or(0);
                                    line.push(prev);
                                }
                            }
                            line.push(c);
                            pieces_w += cw;
                        }
                    }
                }
                used = pieces_w;
            } else {
                match span {
                    // Next in the buffer: the line runs on (no copy).
                    Some((a, b)) if token.start == b + usize::from(spaced) => {
                        span = Some((a, token.end));
                    }
                    None if line.is_empty() && !spaced => {
                        span = Some((token.start, token.end));
                    }
                    _ => {
                        if let Some((a, b)) = span.take() {
                            line.push_str(&buf[a..b]);
                        }
                        if spaced {
                            line.push(' ');
                        }
                        line.push_str(text);
                    }
                }
                used += w;
            }
        }
        match span {
            Some((a, b)) if b > a => emit(&buf[a..b]),
            Some(_) => {}
            None if !line.is_empty() => emit(line),
            None => {}
        }
    }
}

/// Pads `text` with spaces to `columns` display columns.
pub fn pad(text: &str, columns: usize) -> String {
    let w = width(text);
    format!("{text}{}", " ".repeat(columns.saturating_sub(w)))
}

/// A shell command to copy (`  xiaoling play --load NAME --saves DIR`) in
/// at most `columns`: whole when it fits, else broken between words, each
/// line but the last ending in a shell's line continuation (` \`) and the
/// next indented four more, so what is copied still runs as one command.
/// None when a word alone is too wide for that.
pub fn shell_lines(command: &str, columns: usize) -> Option<String> {
    if width(command) <= columns {
        return Some(command.to_string());
    }
    let body = command.trim_start_matches(' ');
    let indent = command.len() - body.len();
    let more = " ".repeat(indent + 4);
    let mut lines: Vec<String> = vec![" ".repeat(indent)];
    let mut first_word = true;
    for word in body.split(' ').filter(|w| !w.is_empty()) {
        let line = lines.last_mut()?;
        // Room for the word, and for the ` \` that may follow it.
        if !first_word && width(line) + 1 + width(word) + 2 > columns {
            line.push_str(" \\");
            lines.push(format!("{more}{word}"));
        } else {
            if !first_word {
                line.push(' ');
            }
            line.push_str(word);
        }
        first_word = false;
    }
    let fits = lines.iter().all(|line| width(line) <= columns);
    fits.then(|| lines.join("\n"))
}

/// Upper-cases the first letter, skipping colour codes before it.
pub fn capitalize(text: &str) -> String {
    let mut in_escape = false;
    // The first character that is neither a colour code's nor a name mark:
    // the one upper-cased; what comes before and after is copied whole.
    let first = text.char_indices().find(|&(_, c)| {
        if in_escape {
            in_escape = !c.is_ascii_alphabetic();
            false
        } else if c == '\u{1b}' {
            in_escape = true;
            false
        } else {
            c != NAME_OPEN && c != NAME_CLOSE
        }
    });
    let Some((at, c)) = first else {
        return text.to_string();
    };
    let mut out = String::with_capacity(text.len() + 4);
    out.push_str(&text[..at]);
    out.extend(c.to_uppercase());
    out.push_str(&text[at + c.len_utf8()..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `strip_marks` and `strip_ansi` as they were written first, a
    /// character at a time.
    fn strip_marks_by_chars(text: &str) -> String {
        text.chars()
            .filter_map(|c| match c {
                NAME_OPEN | NAME_CLOSE => None,
                KEEP => Some(' '),
                c => Some(c),
            })
            .collect()
    }

    fn strip_ansi_by_chars(text: &str) -> String {
        let mut out = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == NAME_OPEN || c == NAME_CLOSE {
                continue;
            }
            if c == KEEP {
                out.push(' ');
                continue;
            }
            if c == '\u{1b}' {
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    /// The word-at-a-time search finds the byte a plain search finds, at
    /// every length and place, beside bytes that look alike to it.
    #[test]
    fn the_first_code_byte_is_found_as_a_plain_search_finds_it() {
        let alphabet = [
            b'a', b' ', 0x1b, 0x1a, 0x1c, 0x3b, 0x9b, 0xc2, 0xc3, 0xef, 0x80, 0xff, 0,
        ];
        let mut seed = 0x853c_49e6_748f_ea9b_u64;
        for _ in 0..50_000 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let len = (seed >> 58) as usize;
            let mut pick = seed;
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    // Mostly plain letters, as text is.
                    let r = (pick >> 40) as usize;
                    if r.is_multiple_of(4) {
                        alphabet[r / 4 % alphabet.len()]
                    } else {
                        b'a'
                    }
                })
                .collect();
            let plain = (bytes.iter()).position(|&b| b == 0x1b || b == 0xc2 || b == 0xef);
            assert_eq!(first_code_byte(&bytes), plain, "{bytes:?}");
        }
    }

    /// Copying the runs between codes and marks gives what the character
    /// loops gave, on random text of codes cut short, marks, kept spaces,
    /// and characters whose UTF-8 begins as theirs do.
    #[test]
    fn stripping_copies_the_runs_between_codes() {
        let open = NAME_OPEN.to_string();
        let close = NAME_CLOSE.to_string();
        let keep = KEEP.to_string();
        let parts = [
            "a",
            "Zhang",
            " ",
            "\u{1b}[1m",
            "\u{1b}[0m",
            "\u{1b}[38;5;2",
            "\u{1b}",
            "[",
            "m",
            &open,
            &close,
            &keep,
            "·",
            "¼",
            "\u{f8f2}",
            "\u{fffd}",
            "小凌河",
            "—",
            "é",
            "\n",
        ];
        for text in texts_of(&parts, 0x9e37_79b9_7f4a_7c15, 8) {
            assert_eq!(strip_marks(&text), strip_marks_by_chars(&text), "{text:?}");
            assert_eq!(strip_ansi(&text), strip_ansi_by_chars(&text), "{text:?}");
            let codes = text
                .chars()
                .any(|c| matches!(c, '\u{1b}' | NAME_OPEN | NAME_CLOSE | KEEP));
            assert_eq!(has_codes(&text), codes, "{text:?}");
        }
    }

    /// 20,000 texts of up to `most` of `parts` each, drawn from `seed`.
    fn texts_of<'a>(parts: &'a [&str], seed: u64, most: u64) -> impl Iterator<Item = String> + 'a {
        let mut seed = seed;
        (0..20_000).map(move |_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut pick = seed;
            (0..seed % (most + 1))
                .map(|_| {
                    pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    parts[(pick >> 33) as usize % parts.len()]
                })
                .collect()
        })
    }

    #[test]
    fn a_command_too_wide_is_broken_with_line_continuations() {
        let command = "  xiaoling play --load false-cry-zhang-chun-3 --saves /tmp/some/folder";
        assert_eq!(shell_lines(command, 80).as_deref(), Some(command));
        let lines = shell_lines(command, 50).expect("it breaks");
        assert_eq!(
            lines,
            "  xiaoling play --load false-cry-zhang-chun-3 \\\n      --saves /tmp/some/folder"
        );
        // Joined as a shell joins them, the words are the command's.
        let joined = lines.replace(" \\\n", " ");
        assert_eq!(
            joined.split_whitespace().collect::<Vec<_>>(),
            command.split_whitespace().collect::<Vec<_>>()
        );
        for columns in 20..90 {
            if let Some(lines) = shell_lines(command, columns) {
                assert!(
                    lines.lines().all(|l| width(l) <= columns),
                    "{columns}: {lines}"
                );
            }
        }
        // A word wider than the line: no way to keep it whole.
        assert_eq!(
            shell_lines("  xiaoling play --saves /a/very/long/folder/name", 20),
            None
        );
    }

    /// `capitalize` as it was written first, a character at a time.
    fn capitalize_by_chars(text: &str) -> String {
        let mut out = String::new();
        let mut in_escape = false;
        let mut done = false;
        for c in text.chars() {
            if done {
                out.push(c);
            } else if in_escape {
                out.push(c);
                in_escape = !c.is_ascii_alphabetic();
            } else if c == '\u{1b}' {
                out.push(c);
                in_escape = true;
            } else if c == NAME_OPEN || c == NAME_CLOSE {
                out.push(c);
            } else {
                out.extend(c.to_uppercase());
                done = true;
            }
        }
        out
    }

    /// Copying around the one letter upper-cased gives what the character
    /// loop gave, colour codes, name marks and letters that grow included.
    #[test]
    fn capitalize_copies_around_the_first_letter() {
        let open = NAME_OPEN.to_string();
        let close = NAME_CLOSE.to_string();
        let parts = [
            "",
            "a",
            "zhang",
            " ",
            "\u{1b}[1m",
            "\u{1b}[0m",
            "\u{1b}",
            "[",
            "1",
            "m",
            &open,
            &close,
            "ß",
            "ǆ",
            "é",
            "小凌河",
            "ﬁ",
            ".",
            "İ",
        ];
        for text in texts_of(&parts, 0x2545_f491_4f6c_dd1d, 6) {
            assert_eq!(capitalize(&text), capitalize_by_chars(&text), "{text:?}");
        }
    }

    /// The byte pass over a plain paragraph makes the general way's
    /// tokens and buffer, and refuses what it does not read alike.
    #[test]
    fn plain_paragraphs_are_tokenised_as_the_general_way_does() {
        let open = NAME_OPEN.to_string();
        let close = NAME_CLOSE.to_string();
        let keep = KEEP.to_string();
        let parts = [
            "a",
            "Zhang",
            " ",
            "  ",
            ",",
            ".",
            "3,000",
            "12",
            "(",
            ")",
            "!",
            "men",
            "x-y",
            &open,
            &close,
            &keep,
            "`",
            "中",
            "\u{1b}[1m",
            "é",
            "—",
            "…",
            "·",
            "’",
            "\t",
            "（",
            "。",
            "一",
            "★",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut plain = 0;
        for _ in 0..100_000 {
            let mut text = String::new();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 12) as usize;
            for k in 0..len {
                let r = state.rotate_left(5 * k as u32 + 3);
                text.push_str(parts[(r % parts.len() as u64) as usize]);
            }
            let mut fast = Work::default();
            let mut general = Work::default();
            let kept = keep_code_spans(&text, 60);
            general.tokens(&kept, 60);
            if fast.tokens_plain(&kept) {
                plain += 1;
                assert_eq!(fast.buf, general.buf, "{text:?}");
                assert_eq!(fast.tokens, general.tokens, "{text:?}");
                assert!(general.prefix.is_empty(), "{text:?}");
            } else {
                assert!(fast.tokens.is_empty() && fast.buf.is_empty());
            }
        }
        assert!(plain > 5_000, "{plain}");
    }

    /// The old way of laying tokens out, every line copied together a
    /// token at a time: what [`Work::lay_out`] must emit, line for line.
    fn lay_out_by_copies(work: &Work, room: usize) -> Vec<String> {
        let mut lines = Vec::new();
        let mut line = String::new();
        let mut used = 0;
        for token in &work.tokens {
            let text = &work.buf[token.start..token.end];
            let gap = usize::from(token.space && used > 0);
            if used > 0 && used + gap + token.w > room {
                lines.push(std::mem::take(&mut line));
                used = 0;
            }
            if used > 0 && gap == 1 {
                line.push(' ');
                used += 1;
            }
            if token.w > room && used == 0 {
                let mut pieces_w = 0;
                for piece in pieces(text) {
                    match piece {
                        Piece::Escape(e) => line.push_str(e),
                        Piece::Char(c) => {
                            let cw = c.width().unwrap_or(0);
                            if pieces_w + cw > room {
                                let mut carried = Vec::new();
                                if no_line_start(c) && !line.contains('\u{1b}') {
                                    while let Some(prev) = line.pop() {
                                        carried.push(prev);
                                        if !no_line_start(prev) {
                                            break;
                                        }
                                    }
                                }
                                lines.push(std::mem::take(&mut line));
                                pieces_w = 0;
                                for prev in carried.into_iter().rev() {
                                    pieces_w += prev.width().unwrap_or(0);
                                    line.push(prev);
                                }
                            }
                            line.push(c);
                            pieces_w += cw;
                        }
                    }
                }
                used = pieces_w;
            } else {
                line.push_str(text);
                used += token.w;
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
    }

    /// Lines emitted as runs of the buffer are the lines copied together
    /// token by token: plain and coloured text, long words cut, escapes
    /// alone, at widths from 10 to 30 columns.
    #[test]
    fn lines_laid_out_from_the_buffer_are_the_lines_copied() {
        let parts = [
            "a",
            "Zhang",
            " ",
            "  ",
            ",",
            "3,000",
            "12",
            "(",
            ")",
            "men",
            "Supercalifragilistic",
            "\u{1b}[1m",
            "\u{1b}[0m",
            "中",
            "国人",
            "。",
            "（",
            "一万",
            "—",
            "\u{a0}",
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for round in 0..50_000 {
            let mut text = String::new();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 16) as usize;
            for k in 0..len {
                let r = state.rotate_left(5 * k as u32 + 3);
                text.push_str(parts[(r % parts.len() as u64) as usize]);
            }
            let room = 10 + round % 21;
            let mut work = Work::default();
            if !work.tokens_plain(&text) {
                work.tokens(&text, room);
            }
            work.join_figures(room);
            let want = lay_out_by_copies(&work, room);
            let mut got = Vec::new();
            work.lay_out(room, &mut |line| got.push(line.to_string()));
            assert_eq!(got, want, "{text:?} in {room}");
        }
    }

    #[test]
    fn a_number_said_in_chinese_is_never_parted() {
        let text = "联军折损约一千二百人，曹军损失两万五千余人，尚有六万人在阵中。";
        for columns in 14..40 {
            let wrapped = wrap(text, columns, "");
            for number in ["一千二百人", "两万五千余人", "六万人"] {
                assert!(
                    wrapped.lines().any(|line| line.contains(number)),
                    "{number} parted at {columns} columns:\n{wrapped}"
                );
            }
        }
    }

    #[test]
    fn the_short_cuts_measure_as_the_table_does() {
        for c in (0..0x1100).filter_map(char::from_u32) {
            assert!(c.width().unwrap_or(0) < 2, "{c:?} is wide");
        }
        for c in ' '..='~' {
            assert_eq!(columns_of(c), c.width().unwrap_or(0), "{c:?}");
        }
        for c in (0..0x11_0000).filter_map(char::from_u32) {
            if is_common_wide(c) {
                assert_eq!(c.width(), Some(2), "{c:?}");
            }
            assert_eq!(columns_of(c), c.width().unwrap_or(0), "{c:?}");
            assert_eq!(is_wide(c), c.width().unwrap_or(0) >= 2, "{c:?}");
        }
    }

    #[test]
    fn chinese_wraps_by_display_width() {
        let text = "大江东去，浪淘尽，千古风流人物。故垒西边，人道是三国周郎赤壁。";
        let wrapped = wrap(text, 20, "");
        for line in wrapped.lines() {
            assert!(width(line) <= 20, "{line:?} is {} wide", width(line));
        }
        assert_eq!(wrapped.replace('\n', ""), text);
    }

    #[test]
    fn closing_punctuation_never_starts_a_line() {
        let text = "击鼓！其镗。踊跃用兵！击鼓！其镗。踊跃用兵！";
        for columns in 10..30 {
            for line in wrap(text, columns, "").lines() {
                let first = line.chars().next().unwrap();
                assert!(!no_line_start(first), "{line:?} at {columns}");
            }
        }
    }

    #[test]
    fn opening_brackets_never_end_a_line() {
        let text = "甲营（左翼）、乙营（右翼）、丙营（后队）、丁营（前锋）。";
        for columns in 10..40 {
            for line in wrap(text, columns, "").lines() {
                let last = line.chars().last().unwrap();
                assert!(!no_line_end(last), "{line:?} at {columns}");
            }
        }
    }

    #[test]
    fn a_short_bracket_with_a_time_is_never_parted() {
        // Play-tested at 60 columns: 「（16:00消」 / 「息）」.
        let text = "甲营在丙地，兵力约两千五百人，兵士疲惫，士气动摇（16:00消息）；\
                    乙营人马在丁地以西（16:00探报），万余人，列阵不动（15:45所见）。";
        for columns in 14..70 {
            for indent in ["", "  ", "      "] {
                let wrapped = wrap(text, columns, indent);
                for line in wrapped.lines() {
                    assert!(width(line) <= columns.max(indent.width() + 10), "{line:?}");
                    // Each bracket is 13 columns: kept whole in 26 or more.
                    if columns >= indent.width() + 26 {
                        let open = line.matches('（').count();
                        let close = line.matches('）').count();
                        assert_eq!(open, close, "{line:?} at {columns}:\n{wrapped}");
                    }
                    let last = line.chars().last().unwrap();
                    assert!(!no_line_end(last), "{line:?} at {columns}");
                    let first = line.trim_start().chars().next().unwrap();
                    assert!(!no_line_start(first), "{line:?} at {columns}");
                }
                let joined: String = wrapped.lines().map(str::trim_start).collect();
                assert_eq!(joined, text, "nothing lost at {columns}");
            }
        }
        // A bracket too long to keep whole is broken as before, and one
        // that does not open with a figure is not kept.
        let long = format!("某营（{}）。", "一".repeat(40));
        assert!(wrap(&long, 30, "").lines().count() > 1);
        assert_eq!(short_bracket("左翼）", 30), None);
        assert_eq!(short_bracket("16:00消息）后", 30), Some("16:00消息".len()));
        assert_eq!(short_bracket("16:00消息）", 12), None);
    }

    #[test]
    fn english_wraps_at_spaces_with_indent() {
        let wrapped = wrap("Stand firm. Beat the drums: the Khan is here.", 24, "  ");
        assert_eq!(
            wrapped,
            "  Stand firm. Beat the\n  drums: the Khan is\n  here."
        );
    }

    fn red(name: &str) -> String {
        format!("\u{1b}[31m{name}\u{1b}[0m")
    }

    #[test]
    fn coloured_names_wrap_like_plain_text_and_stay_whole() {
        let names = ["黑山", "白水营", "青石", "赤岭车营", "紫云", "玄武", "朱雀"];
        let coloured: Vec<String> = names.iter().map(|n| red(n)).collect();
        let text = format!("溃散奔逃：{}！折损10,634人。", coloured.join("、"));
        let plain = strip_ansi(&text);
        for columns in 12..40 {
            let wrapped = wrap(&text, columns, "  ");
            assert_eq!(
                strip_ansi(&wrapped).replace("\n  ", ""),
                format!("  {plain}"),
                "nothing lost at {columns}"
            );
            for line in wrapped.lines() {
                let visible = strip_ansi(line);
                assert!(width(line) <= columns, "{visible:?} wider than {columns}");
                let first = visible.trim_start().chars().next().unwrap();
                assert!(!no_line_start(first), "{visible:?} at {columns}");
                assert!(
                    !visible.trim_end().ends_with("10,"),
                    "{visible:?} splits a number"
                );
            }
            let lines: Vec<String> = wrapped.lines().map(strip_ansi).collect();
            for name in names {
                assert!(
                    lines.iter().any(|l| l.contains(name)),
                    "{name} split at {columns}: {lines:?}"
                );
            }
            // A colour open at a line's end is closed there and reopened.
            for line in wrapped.lines() {
                let mut active = String::new();
                open_style(&mut active, line);
                assert_eq!(active, "", "{line:?} leaves a colour open");
            }
        }
    }

    #[test]
    fn coloured_english_fills_the_line_as_plain_does() {
        let plain = "Moving to the ford: Wu Chen's Ironhill troops, Horse of the east wing, Lo Pan's river-camp.";
        let coloured = plain
            .replace(
                "Wu Chen's Ironhill troops",
                &red("Wu Chen's Ironhill troops"),
            )
            .replace("Horse of the east wing", &red("Horse of the east wing"));
        for columns in 20..90 {
            assert_eq!(
                strip_ansi(&wrap(&coloured, columns, "  ")),
                wrap(plain, columns, "  "),
                "at {columns}"
            );
        }
    }

    #[test]
    fn marked_names_stay_whole_without_colour_and_the_marks_take_no_room() {
        let names = ["黑山", "赤岭铁甲营兵", "白水营"];
        let marked: Vec<String> = names
            .iter()
            .map(|n| format!("{NAME_OPEN}{n}{NAME_CLOSE}"))
            .collect();
        let text = format!("移往东岸：{}。", marked.join("、"));
        // From 16 columns, the longest name and its 、 fit a line.
        for columns in 16..40 {
            let wrapped = strip_marks(&wrap(&text, columns, ""));
            for name in names {
                assert!(
                    wrapped.lines().any(|l| l.contains(name)),
                    "{name} split at {columns}: {wrapped}"
                );
            }
            for line in wrapped.lines() {
                assert!(width(line) <= columns, "{line:?}");
            }
        }
        assert_eq!(width(&marked[0]), 4);
    }

    #[test]
    fn numbers_are_never_split() {
        let text = "甲营折损10,634人，乙营折损2,345人，丙营折损1,000,000人。";
        for columns in 12..40 {
            for line in wrap(text, columns, "").lines() {
                assert!(!line.ends_with(',') && !line.starts_with(','), "{line:?}");
                let first = line.chars().next().unwrap();
                assert!(!no_line_start(first), "{line:?}");
            }
        }
    }

    #[test]
    fn colour_codes_take_no_room() {
        assert_eq!(width("\u{1b}[31m周郎\u{1b}[0m"), 4);
    }
}

#[cfg(test)]
mod long_words {
    use super::*;

    #[test]
    fn a_long_word_cut_leaves_no_closing_punctuation_alone() {
        for n in 0..30 {
            let path = format!("/tmp/{}/nosuch.ron", "x".repeat(40 + n));
            let text = format!("No save in slot `nosuch` ({path}).");
            for columns in [40, 60] {
                for line in wrap(&text, columns, "").lines() {
                    let first = line.chars().next().unwrap_or(' ');
                    assert!(!no_line_start(first), "{line:?} at {columns}: {text}");
                    assert!(width(line) <= columns, "{line:?}");
                }
            }
        }
    }
}
