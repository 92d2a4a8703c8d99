//! A large scene read on every core: its `units` list cut into runs of
//! whole units at the commas between them, each run read on its own, the
//! rest of the file read without them (issue 26: RON reads about a hundred
//! instructions a byte, and a scene of a million units is half a gigabyte).
//!
//! Only a fast path: it gives the scene RON would read from the whole file,
//! or nothing, and on nothing — a file too small to be worth it, a shape it
//! does not expect, any error at all — the caller reads the whole file in
//! one piece, so every diagnostic is the one-piece reading's, with its
//! positions.

use super::lex;
use super::raw::{RawScene, Unit};
use rayon::prelude::*;

/// Files shorter than this are read in one piece.
pub const SPLIT_AT: usize = 1 << 20;

/// About how many bytes of units one run holds.
const RUN_BYTES: usize = 1 << 20;

/// The scene in `source`, read in parts, or None (see the module's note).
pub fn read(source: &str, options: &ron::Options, split_at: usize) -> Option<RawScene> {
    if source.len() < split_at {
        return None;
    }
    let head = attributes(source)?;
    let list = units_list(source, head.len(), RUN_BYTES.min(split_at.max(1)))?;
    let mut rest = String::with_capacity(source.len() - (list.close - list.open) + 2);
    rest.push_str(&source[..list.open]);
    rest.push_str("[]");
    rest.push_str(&source[list.close + 1..]);
    let (raw, runs) = rayon::join(
        || options.from_str::<RawScene>(&rest).ok(),
        || {
            list.runs
                .par_iter()
                .map(|&(start, end)| {
                    let mut run = String::with_capacity(head.len() + end - start + 2);
                    run.push_str(head);
                    run.push('[');
                    run.push_str(&source[start..end]);
                    run.push(']');
                    options.from_str::<Vec<Unit>>(&run).ok()
                })
                .collect::<Option<Vec<Vec<Unit>>>>()
        },
    );
    let mut raw = raw?;
    if !raw.units.is_empty() {
        return None;
    }
    raw.units = runs?.into_iter().flatten().collect();
    Some(raw)
}

/// Where the scene's `units: [ … ]` stands: its brackets, and the runs of
/// whole units between them (each from just past a bracket or a comma to
/// the next comma or the closing bracket).
struct UnitsList {
    open: usize,
    close: usize,
    runs: Vec<(usize, usize)>,
}

/// The file's inner attributes (`#![enable(implicit_some)]`), with the
/// blanks and comments around them: what every part is read after, since
/// they change how RON reads. None if one is not closed.
fn attributes(source: &str) -> Option<&str> {
    let mut at = past_blanks(source, 0);
    while source[at..].starts_with("#![") {
        let close = at + source[at..].find(']')?;
        at = past_blanks(source, close + 1);
    }
    Some(&source[..at])
}

/// The units list of the scene's top-level struct, which starts at `from`
/// (past its attributes), or None when the file is not plainly `( …,
/// units: [ … ], … )`.
fn units_list(source: &str, from: usize, run_bytes: usize) -> Option<UnitsList> {
    let bytes = source.as_bytes();
    let mut depth = 0usize;
    let mut i = from;
    let mut open = None;
    let mut runs = Vec::new();
    let mut run_start = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if matches!(byte, b'"' | b'r' | b'/' | b'\'')
            && let Some(end) = lex::skip(source, i)
        {
            i = end;
            continue;
        }
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                if open.is_some() && depth == 2 {
                    // The units list closes.
                    if byte != b']' {
                        return None;
                    }
                    runs.push((run_start, i));
                    return Some(UnitsList {
                        open: open?,
                        close: i,
                        runs,
                    });
                }
                depth = depth.checked_sub(1)?;
            }
            b',' if open.is_some() && depth == 2 && i - run_start >= run_bytes => {
                runs.push((run_start, i));
                run_start = i + 1;
            }
            b'u' if open.is_none() && depth == 1 && is_word_at(bytes, i, b"units") => {
                let bracket = after_colon(source, i + b"units".len())?;
                if bytes.get(bracket) != Some(&b'[') {
                    return None;
                }
                open = Some(bracket);
                run_start = bracket + 1;
                depth += 1;
                i = bracket + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether `word` stands at `at` as a whole identifier.
fn is_word_at(bytes: &[u8], at: usize, word: &[u8]) -> bool {
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    bytes.get(at..at + word.len()) == Some(word)
        && (at == 0 || !is_ident(bytes[at - 1]))
        && !bytes.get(at + word.len()).copied().is_some_and(is_ident)
}

/// Just past the `:` that follows `at` (blanks and comments between), and
/// the blanks and comments after it: where the field's value starts.
fn after_colon(source: &str, at: usize) -> Option<usize> {
    let colon = past_blanks(source, at);
    if source.as_bytes().get(colon) != Some(&b':') {
        return None;
    }
    Some(past_blanks(source, colon + 1))
}

fn past_blanks(source: &str, mut at: usize) -> usize {
    let bytes = source.as_bytes();
    loop {
        match bytes.get(at) {
            Some(b) if b.is_ascii_whitespace() => at += 1,
            Some(b'/') => match lex::skip(source, at) {
                Some(end) => at = end,
                None => return at,
            },
            _ => return at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> ron::Options {
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
    }

    fn whole(source: &str) -> RawScene {
        options().from_str(source).expect("the scene reads whole")
    }

    /// Read in parts of one unit each (a split at every comma).
    fn in_parts(source: &str) -> Option<RawScene> {
        let list = units_list(source, attributes(source)?.len(), 0)?;
        assert!(list.runs.len() > 1, "cut into runs");
        read(source, &options(), 0)
    }

    #[test]
    fn the_shipped_scenes_read_in_parts_as_whole() {
        for (file, source) in crate::scene::EMBEDDED_SCENES {
            let parts = in_parts(source).unwrap_or_else(|| panic!("{file} reads in parts"));
            assert_eq!(
                format!("{parts:?}"),
                format!("{:?}", whole(source)),
                "{file}"
            );
        }
    }

    #[test]
    fn commas_brackets_and_words_inside_text_and_comments_do_not_cut() {
        let source = crate::scene::EMBEDDED_SCENES[0].1;
        let at = source.find("units:").expect("units") + "units:".len();
        let open = at + source[at..].find('[').expect("[") + 1;
        let odd = r#"
            // units: [ a comment with ], commas, and ( brackets
            /* a block /* nested ], */ comment, */
        "#;
        let edited = format!("{}{odd}{}", &source[..open], &source[open..]);
        let edited = edited.replacen("id: \"", "id: /* ], */ \"", 1);
        let parts = in_parts(&edited).expect("reads in parts");
        assert_eq!(format!("{parts:?}"), format!("{:?}", whole(&edited)));
    }

    #[test]
    fn anything_unexpected_reads_whole_instead() {
        let source = crate::scene::EMBEDDED_SCENES[0].1;
        // Too small to be worth it.
        assert!(source.len() < SPLIT_AT);
        assert!(read(source, &options(), SPLIT_AT).is_none());
        // An attribute not closed.
        assert!(
            read(
                &format!("#![enable(implicit_some)\n{source}"),
                &options(),
                0
            )
            .is_none()
        );
        // A broken unit: the whole reading gives the diagnostic.
        let broken = source.replacen("men: ", "men: men: ", 1);
        assert!(read(&broken, &options(), 0).is_none());
        // No units list at all.
        assert!(read("(meta: ())", &options(), 0).is_none());
        assert!(read("", &options(), 0).is_none());
    }
}
