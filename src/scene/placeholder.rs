//! Placeholders in story text: `{men:ming}`, `{holder:ford}`, `{time}`…
//!
//! One parser serves the checker (every placeholder of every text is checked
//! against the scene's ids when the scene loads) and the story (which fills
//! them from the world when the text is told), so the two cannot disagree on
//! what a placeholder means.

/// What a placeholder asks for. Ids are as written; the checker has made sure
/// they name things of the right kind before any game is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placeholder<'a> {
    /// `{turn}`: the turn number.
    Turn,
    /// `{time}`: the clock, in the reader's reckoning (16:45, 申正三刻).
    Time,
    /// `{men:ID}`: men of a side or a unit still on the field.
    Men(&'a str),
    /// `{losses:ID}`: men a side or a unit has lost.
    Losses(&'a str),
    /// `{men:SIDE:ZONE}`: men of the side standing in the zone.
    MenIn(&'a str, &'a str),
    /// `{crossed:SIDE:ZONE}`: men of the side through a ford or bridge.
    Crossed(&'a str, &'a str),
    /// `{holder:ZONE}`: the side with the most fighting men in the zone.
    Holder(&'a str),
    /// `{name:ID}`: the name of a side, zone, unit or commander.
    Name(&'a str),
    /// `{at:COMMANDER}`: the zone where the commander stands.
    At(&'a str),
}

/// The forms an author may write, for hints.
pub const FORMS: &str = "{turn}, {time}, {men:SIDE|UNIT}, {losses:SIDE|UNIT}, {men:SIDE:ZONE}, {crossed:SIDE:ZONE}, {holder:ZONE}, {name:ID}, {at:COMMANDER}";

impl<'a> Placeholder<'a> {
    /// Reads the inside of `{...}`; None when it is no known form.
    pub fn parse(inside: &'a str) -> Option<Placeholder<'a>> {
        let parts: Vec<&str> = inside.split(':').collect();
        Some(match parts.as_slice() {
            ["turn"] => Placeholder::Turn,
            ["time"] => Placeholder::Time,
            ["men", id] => Placeholder::Men(id),
            ["losses", id] => Placeholder::Losses(id),
            ["men", side, zone] => Placeholder::MenIn(side, zone),
            ["crossed", side, zone] => Placeholder::Crossed(side, zone),
            ["holder", zone] => Placeholder::Holder(zone),
            ["name", id] => Placeholder::Name(id),
            ["at", commander] => Placeholder::At(commander),
            _ => return None,
        })
    }
}

/// The `{...}` spans of a text: (byte offset of `{`, the inside).
pub fn spans(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find('{') {
        let open = from + open;
        let Some(close) = text[open + 1..].find('}') else {
            break;
        };
        out.push((open, &text[open + 1..open + 1 + close]));
        from = open + 1 + close + 1;
    }
    out
}

/// Replaces every `{...}` by what `value` gives for it (unknown ones stay).
pub fn fill(text: &str, mut value: impl FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (open, inside) in spans(text) {
        out.push_str(&text[last..open]);
        match value(inside) {
            Some(v) => out.push_str(&v),
            None => {
                out.push('{');
                out.push_str(inside);
                out.push('}');
            }
        }
        last = open + inside.len() + 2;
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_parse_and_others_do_not() {
        assert_eq!(
            Placeholder::parse("men:ming"),
            Some(Placeholder::Men("ming"))
        );
        assert_eq!(
            Placeholder::parse("men:jin:ford"),
            Some(Placeholder::MenIn("jin", "ford"))
        );
        assert_eq!(
            Placeholder::parse("holder:ford"),
            Some(Placeholder::Holder("ford"))
        );
        assert_eq!(Placeholder::parse("time"), Some(Placeholder::Time));
        assert_eq!(Placeholder::parse("men"), None);
        assert_eq!(Placeholder::parse("dead:ming"), None);
        assert_eq!(Placeholder::parse("a:b:c:d"), None);
    }

    #[test]
    fn fill_replaces_known_and_keeps_unknown() {
        let text = "{men:ming} stand; {x} waits; {time}.";
        let filled = fill(text, |inside| match inside {
            "men:ming" => Some("1,200".into()),
            "time" => Some("16:45".into()),
            _ => None,
        });
        assert_eq!(filled, "1,200 stand; {x} waits; 16:45.");
        assert_eq!(fill("no braces {", |_| None), "no braces {");
    }
}
