//! Wrapping text to the terminal by display width: a CJK character takes two
//! columns, and Chinese may break between any two characters (but not before
//! closing punctuation), while English breaks at spaces.

use unicode_width::UnicodeWidthChar;
use unicode_width::UnicodeWidthStr;

/// Display width in terminal columns (ANSI colour codes count as zero).
pub fn width(text: &str) -> usize {
    strip_ansi(text).width()
}

pub fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
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

fn is_wide(c: char) -> bool {
    c.width().unwrap_or(0) >= 2
}

/// Opening brackets and quotes that must not end a line (禁则).
fn no_line_end(c: char) -> bool {
    "（「『《〈“‘".contains(c)
}

/// Closing punctuation that must not start a line (禁则).
fn no_line_start(c: char) -> bool {
    "，。、；：！？）」』》〉”’…—,.;:!?)".contains(c)
}

/// Wraps `text` to `columns`, each line prefixed by `indent`. Existing line
/// breaks are kept.
pub fn wrap(text: &str, columns: usize, indent: &str) -> String {
    let columns = columns.max(indent.width() + 10);
    let room = columns - indent.width();
    let mut out = Vec::new();
    for paragraph in text.split('\n') {
        if paragraph.trim().is_empty() {
            out.push(String::new());
            continue;
        }
        for line in wrap_paragraph(paragraph, room) {
            out.push(format!("{indent}{line}"));
        }
    }
    out.join("\n")
}

fn wrap_paragraph(paragraph: &str, room: usize) -> Vec<String> {
    // Tokens: a run of non-space narrow characters is a word; each wide
    // character is a token of its own; spaces separate.
    let mut tokens: Vec<(String, bool)> = Vec::new(); // (text, space before)
    let mut space = false;
    let mut word = String::new();
    for c in paragraph.chars() {
        if c == ' ' {
            if !word.is_empty() {
                tokens.push((std::mem::take(&mut word), space));
            }
            space = true;
        } else if is_wide(c)
            || no_line_start(c) && tokens.last().is_some_and(|(t, _)| t.chars().any(is_wide))
        {
            if !word.is_empty() {
                tokens.push((std::mem::take(&mut word), space));
                space = false;
            }
            // An opening bracket never ends a line: it travels with what follows.
            match tokens.last_mut() {
                Some((last, _)) if !space && last.chars().last().is_some_and(no_line_end) => {
                    last.push(c)
                }
                _ => tokens.push((c.to_string(), space)),
            }
            space = false;
        } else {
            if word.is_empty()
                && !tokens.is_empty()
                && !space
                && tokens.last().is_some_and(|(t, _)| t.chars().any(is_wide))
            {
                // Latin text glued to Chinese: its own token, no space.
            }
            word.push(c);
        }
    }
    if !word.is_empty() {
        tokens.push((word, space));
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut used = 0;
    let mut i = 0;
    while i < tokens.len() {
        let (token, space_before) = &tokens[i];
        let gap = usize::from(*space_before && !line.is_empty());
        let w = token.width();
        // Keep closing punctuation with the character before it.
        let next_is_closing = tokens
            .get(i + 1)
            .is_some_and(|(t, s)| !s && t.chars().count() == 1 && t.chars().all(no_line_start));
        let extra = if next_is_closing {
            tokens[i + 1].0.width()
        } else {
            0
        };
        if !line.is_empty() && used + gap + w + extra > room {
            lines.push(std::mem::take(&mut line));
            used = 0;
            continue;
        }
        if gap == 1 {
            line.push(' ');
            used += 1;
        }
        if w > room && line.is_empty() {
            // A word longer than the line: cut it.
            let mut piece = String::new();
            let mut piece_width = 0;
            for c in token.chars() {
                let cw = c.width().unwrap_or(0);
                if piece_width + cw > room {
                    lines.push(std::mem::take(&mut piece));
                    piece_width = 0;
                }
                piece.push(c);
                piece_width += cw;
            }
            line = piece;
            used = piece_width;
        } else {
            line.push_str(token);
            used += w;
        }
        i += 1;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Pads `text` with spaces to `columns` display columns.
pub fn pad(text: &str, columns: usize) -> String {
    let w = width(text);
    format!("{text}{}", " ".repeat(columns.saturating_sub(w)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn english_wraps_at_spaces_with_indent() {
        let wrapped = wrap("Stand firm. Beat the drums: the Khan is here.", 24, "  ");
        assert_eq!(
            wrapped,
            "  Stand firm. Beat the\n  drums: the Khan is\n  here."
        );
    }

    #[test]
    fn colour_codes_take_no_room() {
        assert_eq!(width("\u{1b}[31m周郎\u{1b}[0m"), 4);
    }
}
