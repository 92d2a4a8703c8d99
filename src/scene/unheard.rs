//! A lint of `check`: texts whose claims about a unit's state are only
//! inside `Any`. A told text's top-level `UnitState` and `UnitMorale` claims
//! (and those of a top-level `All`) are the commander's word of the unit;
//! one inside `Any` says which of several things holds, so it is word of
//! none (`Game::hear_claims`). Such a text tells the player a unit broke and
//! `status` goes on showing it as his last word had it: a warning, with the
//! place of the `Any`, never an error (the scene loads and plays).

use super::Scene;
use super::diag::{Declaration, Diagnostic, Locator};
use super::lex;
use super::raw::{Condition, Effect, Prose};
use super::resolved::{Lookup, Table};

/// The guide's section this warning points to.
const GUIDE: &str = "Claims";

/// Units whose state or morale `claims` state plainly: at the top level or
/// in a top-level `All`, as `Game::hear_claims` reads them.
fn said<'c>(claims: impl IntoIterator<Item = &'c Condition>, out: &mut Vec<&'c str>) {
    for claim in claims {
        match claim {
            Condition::All(each) => said(each, out),
            Condition::UnitState { unit, .. } | Condition::UnitMorale { unit, .. } => {
                out.push(unit);
            }
            _ => {}
        }
    }
}

/// Units whose state or morale is named anywhere inside `condition`.
fn named<'c>(condition: &'c Condition, out: &mut Vec<&'c str>) {
    match condition {
        Condition::All(each) | Condition::Any(each) => each.iter().for_each(|c| named(c, out)),
        Condition::Not(inner) => named(inner, out),
        Condition::UnitState { unit, .. } | Condition::UnitMorale { unit, .. } => out.push(unit),
        _ => {}
    }
}

/// Units whose state or morale `claims` name inside an `Any` (reached
/// through top-level `All`s), in order, once each.
fn in_any<'c>(claims: impl IntoIterator<Item = &'c Condition>, out: &mut Vec<&'c str>) {
    for claim in claims {
        match claim {
            Condition::All(each) => in_any(each, out),
            Condition::Any(_) => named(claim, out),
            _ => {}
        }
    }
}

/// The units of a text's claims whose state is claimed only inside `Any`.
pub fn only_in_any(claims: &[Condition]) -> Vec<&str> {
    let (mut plain, mut any) = (Vec::new(), Vec::new());
    said(claims, &mut plain);
    in_any(claims, &mut any);
    let mut out: Vec<&str> = Vec::new();
    for unit in any {
        if !plain.contains(&unit) && !out.contains(&unit) {
            out.push(unit);
        }
    }
    out
}

/// Where a text with such claims is: the item it belongs to and how to
/// find its claims in there.
struct Place<'s> {
    item: Option<Declaration>,
    /// What leads to the list of variants inside the item (`situation:`,
    /// the `n`th `Narrate(`), or nothing for claims written on the item
    /// itself (an option's).
    field: Option<(&'s str, usize)>,
    /// The variant of the list (from 0).
    variant: usize,
    /// The side of the role that alone reads the item's texts (a turning
    /// point's situation, options and narrations), if one does.
    reader: Option<usize>,
    /// The sides that read the text, when the item says (an option's
    /// `perceived`: every side but the chooser's).
    readers: Option<Vec<usize>>,
    /// Units whose state an earlier variant of the text claims plainly.
    before: Vec<String>,
}

/// A text with claims, where it is.
type Claimed<'c, 's> = (&'c [Condition], String, Place<'s>, Option<&'c Condition>);

/// Each variant of `prose` with its claims, as the text `text_id[k]`.
fn variants<'c, 's>(
    out: &mut Vec<Claimed<'c, 's>>,
    prose: &'c Prose,
    text_id: &str,
    item: &Option<Declaration>,
    field: (&'s str, usize),
    reader: Option<usize>,
) {
    if let Prose::Variants(variants) = prose {
        for (k, v) in variants.iter().enumerate() {
            // Units whose state an earlier variant claims plainly: the case
            // where the state holds has a variant of its own, so this one's
            // `Any` holds by its other branches.
            let mut before = Vec::new();
            said(variants[..k].iter().flat_map(|v| &v.claims), &mut before);
            let place = Place {
                item: item.clone(),
                field: Some(field),
                variant: k,
                reader,
                readers: None,
                before: before.into_iter().map(str::to_string).collect(),
            };
            out.push((&v.claims, format!("{text_id}[{k}]"), place, Some(&v.when)));
        }
    }
}

/// The texts of `Narrate` effects, each the `n`th of its item.
fn narrates(effects: &[Effect]) -> impl Iterator<Item = (usize, &Prose)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Narrate(p) => Some(p),
            _ => None,
        })
        .enumerate()
}

/// The warnings of the lint for `scene`, placed in `source`, its file's text.
pub fn warnings(scene: &Scene, source: &str) -> Vec<Diagnostic> {
    let source = super::syntax::without_bom(source);
    let locator = Locator::new(&scene.file, source);
    let raw = &scene.raw;
    let mut texts: Vec<Claimed> = Vec::new();
    let whole = |at: usize, id: &str| Declaration {
        path: vec![id.to_string()],
        id: id.to_string(),
        id_at: at,
        start: at,
        end: source.len(),
    };
    let meta = locator.item("meta", &raw.meta.id);
    variants(
        &mut texts,
        &raw.meta.intro,
        "meta.intro",
        &meta,
        ("intro:", 0),
        None,
    );
    if let Some(prelude) = &raw.prelude {
        let item = locator.section("prelude").map(|at| whole(at, "prelude"));
        if let Some(text) = &prelude.text {
            variants(&mut texts, text, "prelude.text", &item, ("text:", 0), None);
        }
        for (n, p) in narrates(&prelude.effects) {
            variants(
                &mut texts,
                p,
                "prelude.Narrate",
                &item,
                ("Narrate(", n),
                None,
            );
        }
    }
    for tp in &raw.turning_points {
        let item = locator.item("turning_points", &tp.id);
        let reader = commander_side(scene, &tp.role);
        let id = format!("{}.situation", tp.id);
        variants(
            &mut texts,
            &tp.situation,
            &id,
            &item,
            ("situation:", 0),
            reader,
        );
        let options = item
            .as_ref()
            .map(|d| locator.options(d))
            .unwrap_or_default();
        for (i, option) in tp.options.iter().enumerate() {
            let item = options.get(i).filter(|d| d.id == option.id).cloned();
            let id = format!("{}/{}", tp.id, option.id);
            // An option's own claims, checked as it is offered.
            let place = Place {
                item: item.clone(),
                field: None,
                variant: 0,
                reader,
                readers: None,
                before: Vec::new(),
            };
            texts.push((&option.claims, format!("{id}.text"), place, None));
            let narration = format!("{id}.narration");
            variants(
                &mut texts,
                &option.narration,
                &narration,
                &item,
                ("narration:", 0),
                reader,
            );
            if let Some(p) = &option.perceived {
                // What the other side perceives of the choice: read by
                // every side but the chooser's.
                let perceived = format!("{id}.perceived");
                let at = texts.len();
                variants(&mut texts, p, &perceived, &item, ("perceived:", 0), None);
                let others = (0..scene.sides.len()).filter(|s| Some(*s) != reader);
                let others: Vec<usize> = others.collect();
                for text in &mut texts[at..] {
                    text.2.readers = Some(others.clone());
                }
            }
            for (n, p) in narrates(&option.effects) {
                variants(
                    &mut texts,
                    p,
                    &format!("{id}.Narrate"),
                    &item,
                    ("Narrate(", n),
                    reader,
                );
            }
        }
    }
    for event in &raw.events {
        let item = locator.item("events", &event.id);
        if let Some(text) = &event.text {
            variants(
                &mut texts,
                text,
                &format!("{}.text", event.id),
                &item,
                ("text:", 0),
                None,
            );
        }
        for (n, p) in narrates(&event.effects) {
            let id = format!("{}.Narrate", event.id);
            variants(&mut texts, p, &id, &item, ("Narrate(", n), None);
        }
    }
    // An ending's texts are left out: the battle is over, and no word
    // of a unit is read after them (`status` is not offered).
    let atmosphere = locator
        .section("atmosphere")
        .map(|at| whole(at, "atmosphere"));
    for (k, v) in raw.atmosphere.iter().enumerate() {
        let place = Place {
            item: atmosphere.clone(),
            field: Some(("atmosphere:", 0)),
            variant: k,
            reader: None,
            readers: None,
            before: Vec::new(),
        };
        texts.push((&v.claims, format!("atmosphere[{k}]"), place, Some(&v.when)));
    }
    texts
        .into_iter()
        .filter_map(|(claims, text_id, place, when)| {
            // Only the units of a side that may read the text: word of the
            // other side's units is never brought by a claim of state.
            let readers = (place.readers.clone()).or_else(|| place.reader.map(|side| vec![side]));
            let readers = readers.or_else(|| when.and_then(|w| reader_sides(scene, w)));
            let mut units = only_in_any(claims);
            units.retain(|unit| !place.before.iter().any(|b| b == unit));
            units.retain(|unit| {
                let side = Lookup::find(scene, Table::Unit, unit).map(|u| scene.units[u].side.idx());
                readers.as_ref().is_none_or(|sides| side.is_none_or(|side| sides.contains(&side)))
            });
            let first = *units.first()?;
            let at = locate(source, &place, first).or(place.item.as_ref().map(|d| d.id_at));
            let names: Vec<String> = units.iter().map(|u| format!("`{u}`")).collect();
            let message = format!(
                "`{text_id}` claims the state of {} only inside `Any`: it brings the commander no word of {}",
                names.join(", "),
                if units.len() == 1 { "it" } else { "them" },
            );
            let hint = "a claim inside `Any` is word of nothing, so `status` goes on showing the unit as before: give each case a variant of its own, whose `when` makes it hold, with a plain `UnitState(...)` or `UnitMorale(...)` claim".to_string();
            let problem = match at {
                Some(at) => locator.at(at, message, hint, GUIDE),
                None => Diagnostic::whole_file(&scene.file, message, &hint),
            };
            Some(problem.as_warning())
        })
        .collect()
}

/// The side of the commander `id`.
fn commander_side(scene: &Scene, id: &str) -> Option<usize> {
    let at = Lookup::find(scene, Table::Commander, id)?;
    Some(scene.commanders[at].side.idx())
}

/// The sides that may read a variant whose condition is `when`, when it
/// names them (`PlayerSide`, `Playing`, their negation, at the top level
/// or in an `All`); None when any side may.
fn reader_sides(scene: &Scene, when: &Condition) -> Option<Vec<usize>> {
    let side = |id: &str| Lookup::find(scene, Table::Side, id);
    match when {
        Condition::PlayerSide(id) => Some(vec![side(id)?]),
        Condition::Playing(role) => Some(vec![commander_side(scene, role)?]),
        Condition::Not(inner) => {
            let not = reader_sides(scene, inner)?;
            Some(
                (0..scene.sides.len())
                    .filter(|s| !not.contains(s))
                    .collect(),
            )
        }
        Condition::All(each) => {
            let mut known: Option<Vec<usize>> = None;
            for sides in each.iter().filter_map(|c| reader_sides(scene, c)) {
                known = Some(match known {
                    None => sides,
                    Some(before) => before.into_iter().filter(|s| sides.contains(s)).collect(),
                });
            }
            known
        }
        _ => None,
    }
}

/// The byte offset of the `Any(` that names `unit` in the claims of the
/// text at `place`, if it can be found.
fn locate(source: &str, place: &Place, unit: &str) -> Option<usize> {
    let item = place.item.as_ref()?;
    let (start, end) = item.span();
    let within = (start, end.min(source.len()));
    let claims_in = match place.field {
        None => within,
        Some((needle, n)) => {
            let at = nth_code(source, within, needle, n)?;
            let list = first_code(source, (at + needle.len(), within.1), b'[')?;
            let list_end = closing(source, list)?;
            nth_item(source, (list, list_end), place.variant)?
        }
    };
    let claims = nth_code(source, claims_in, "claims:", 0)?;
    let open = first_code(source, (claims, claims_in.1), b'[')?;
    let close = closing(source, open)?;
    let quoted = format!("\"{unit}\"");
    let mut from = open;
    while let Some(any) = nth_code(source, (from, close), "Any(", 0) {
        let any_end = closing(source, any + 3)?;
        if source
            .get(any..any_end)
            .is_some_and(|s| s.contains(&quoted))
        {
            return Some(any);
        }
        from = any + 1;
    }
    None
}

/// The offset of the `n`th (from 0) `needle` that starts in code within
/// `span`, as a word (not the end of a longer name).
fn nth_code(source: &str, (start, end): (usize, usize), needle: &str, n: usize) -> Option<usize> {
    let text = source.get(..end)?;
    let bytes = text.as_bytes();
    lex::code(text)
        .filter(|&(i, _)| i >= start)
        .filter(|&(i, _)| {
            text[i..].starts_with(needle)
                && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))
        })
        .nth(n)
        .map(|(i, _)| i)
}

/// The first code byte `b` within `span`.
fn first_code(source: &str, (start, end): (usize, usize), b: u8) -> Option<usize> {
    let text = source.get(..end)?;
    lex::code(text)
        .find(|&(i, c)| i >= start && c == b)
        .map(|(i, _)| i)
}

/// Just past the bracket closing the one at `open`.
fn closing(source: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in lex::code(source).skip_while(|&(i, _)| i < open) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The span of the `k`th (from 0) bracketed item of the list `[…]` at `span`.
fn nth_item(source: &str, (open, end): (usize, usize), k: usize) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut seen = 0;
    for (i, c) in lex::code(source.get(..end)?).skip_while(|&(i, _)| i < open) {
        match c {
            b'(' | b'[' | b'{' => {
                if depth == 1 && c == b'(' {
                    if seen == k {
                        return Some((i, closing(source, i)?));
                    }
                    seen += 1;
                }
                depth += 1;
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(ron: &str) -> Vec<Condition> {
        ron::from_str(ron).expect("claims")
    }

    #[test]
    fn a_state_only_inside_any_is_found_and_a_plain_one_is_not() {
        let only = claims(
            r#"[Any([UnitState(unit: "a", is: [Routing]), Flag("f")]), UnitIn(unit: "b", zone: "z")]"#,
        );
        assert_eq!(only_in_any(&only), vec!["a"]);
        let plain = claims(
            r#"[All([UnitState(unit: "a", is: [Routing])]), Any([UnitState(unit: "a", is: [Shattered]), Flag("f")])]"#,
        );
        assert!(only_in_any(&plain).is_empty());
        let not =
            claims(r#"[Not(UnitState(unit: "a", is: [Routing])), Any([Flag("f"), Flag("g")])]"#);
        assert!(only_in_any(&not).is_empty());
        let nested = claims(
            r#"[Any([Fallen("c"), All([Not(UnitMorale(unit: "b", cmp: Below(20.0))), Flag("f")])])]"#,
        );
        assert_eq!(only_in_any(&nested), vec!["b"]);
    }
}
