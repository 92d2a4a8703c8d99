//! Diagnostics: a problem in a scene file, with its position, the offending
//! line and a hint, printed the way a compiler prints an error.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    /// 1-based; 0 when the problem has no place in the file.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    pub message: String,
    /// The source line the problem is on.
    pub snippet: String,
    pub hint: String,
    /// The section of `scenes/README.md` that explains the field.
    pub guide: &'static str,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "error: {}", self.message)?;
        writeln!(f, "  --> {}:{}:{}", self.file, self.line, self.column)?;
        if !self.snippet.is_empty() {
            let number = self.line.to_string();
            let pad = " ".repeat(number.len());
            writeln!(f, "{pad} |")?;
            writeln!(f, "{number} | {}", self.snippet)?;
            let before: String = self
                .snippet
                .chars()
                .take(self.column.saturating_sub(1))
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            writeln!(f, "{pad} | {before}^")?;
        }
        if !self.hint.is_empty() {
            writeln!(f, "  = hint: {}", self.hint)?;
        }
        if !self.guide.is_empty() {
            writeln!(f, "  = see: scenes/README.md, section \"{}\"", self.guide)?;
        }
        Ok(())
    }
}

/// Finds where things are in a scene's source text, so that problems found
/// after parsing (serde keeps no positions) can still point at their line.
pub struct Locator<'a> {
    pub file: &'a str,
    pub source: &'a str,
}

impl<'a> Locator<'a> {
    pub fn new(file: &'a str, source: &'a str) -> Self {
        Locator { file, source }
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

    /// Byte offset of `needle` at or after `from`.
    pub fn after(&self, from: usize, needle: &str) -> Option<usize> {
        self.source
            .get(from..)
            .and_then(|rest| rest.find(needle))
            .map(|found| from + found)
    }

    /// The position of `needle` inside the item declared with `owner_id`
    /// (or the declaration itself, or the start of the file).
    pub fn find(&self, owner_id: Option<&str>, needle: Option<&str>) -> usize {
        let owner = owner_id.and_then(|id| self.declaration(id));
        match (owner, needle) {
            (Some(at), Some(needle)) => self.after(at, needle).unwrap_or(at),
            (Some(at), None) => at,
            (None, Some(needle)) => self.after(0, needle).unwrap_or(0),
            (None, None) => 0,
        }
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
        let snippet = self
            .source
            .lines()
            .nth(line.saturating_sub(1))
            .unwrap_or("")
            .to_string();
        Diagnostic {
            file: self.file.to_string(),
            line,
            column,
            message,
            snippet,
            hint,
            guide,
        }
    }
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

/// The closest of `candidates` to `word`, if close enough to be a likely typo.
pub fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(word, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= (candidate.chars().count() / 3).max(2))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            current[j + 1] = (previous[j] + cost)
                .min(previous[j + 1] + 1)
                .min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters_not_bytes() {
        let source = "a\n张春: \"x\"";
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
    fn declaration_skips_references() {
        let source = "zone: \"ford\",\n id: \"ford\"";
        let locator = Locator::new("f", source);
        assert_eq!(
            locator.declaration("ford"),
            Some(source.rfind("\"ford\"").unwrap())
        );
    }
}
