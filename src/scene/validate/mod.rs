//! Validation: every check a scene must pass, collecting all problems at once.
//!
//! Serde keeps no positions, so problems found after parsing are placed with
//! a [`Locator`] that finds the declaration of the item (`id: "..."`) and the
//! offending value after it.

mod story;

use super::diag::{Declaration, Diagnostic, Locator, closest};
use super::placeholder;
use super::raw::*;
use super::rules::Rules;
use super::syntax;
use std::collections::{HashMap, HashSet};
use story::set_flags;

const REQUIRED_LOCALES: [&str; 2] = ["en", "zh-Hans"];
const KNOWN_LOCALES: [&str; 3] = ["en", "zh-Hans", "zh-Hant"];

/// The file's text as RON will read it, or the problem that stops reading:
/// a byte-order mark is dropped; an empty file is said to be empty.
fn readable<'s>(file: &'s str, source: &'s str) -> Result<Locator<'s>, Vec<Diagnostic>> {
    let locator = Locator::new(file, syntax::without_bom(source));
    match syntax::empty(&locator) {
        Some(problem) => Err(vec![problem]),
        None => Ok(locator),
    }
}

pub fn rules(file: &str, source: &str) -> Result<Rules, Vec<Diagnostic>> {
    let locator = readable(file, source)?;
    let source = locator.source;
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let written: super::rules::RulesFile = options
        .from_str(source)
        .map_err(|err| vec![syntax::ron_error(&locator, &err)])?;
    // Rules left out take the shipped values; the shipped file itself must
    // have them all.
    let (shipped_file, shipped_source) = super::EMBEDDED_RULES;
    let shipped = if source == shipped_source {
        None
    } else {
        options
            .from_str::<super::rules::RulesFile>(shipped_source)
            .ok()
            .and_then(|rules| rules.complete(None).ok())
    };
    let rules = written.complete(shipped.as_ref()).map_err(|missing| {
        vec![locator.at(
            0,
            format!("rules missing: {}", missing.join(", ")),
            format!("every rule must be set in the shipped {shipped_file}"),
            "Rules",
        )]
    })?;
    let mut problems: Vec<Diagnostic> = rules
        .out_of_range()
        .into_iter()
        .map(|(name, value, min, max)| {
            let at = locator.section(name).unwrap_or(0);
            locator.at(
                at,
                format!("rule `{name}` is {value}, outside {min}..={max}"),
                format!("use a value between {min} and {max}"),
                "Rules",
            )
        })
        .collect();
    for (kind, field, value) in kind_problems(&rules.kinds) {
        let kinds_at = locator.section("kinds").unwrap_or(0);
        let at = locator.after(kinds_at, kind).unwrap_or(kinds_at);
        problems.push(locator.at(
            at,
            format!("kind `{kind}`: `{field}` is {value}, outside 0..=10"),
            "use a value between 0 and 10".to_string(),
            "Rules",
        ));
    }
    if problems.is_empty() {
        Ok(rules)
    } else {
        Err(problems)
    }
}

pub fn scene(file: &str, source: &str, base: &Rules) -> Result<(RawScene, Rules), Vec<Diagnostic>> {
    let locator = readable(file, source)?;
    let source = locator.source;
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    // A large scene's units are read on every core; anything else, and any
    // error, is read in one piece (the diagnostics are that reading's).
    let raw: RawScene = match super::parts::read(source, &options, super::parts::SPLIT_AT) {
        Some(raw) => raw,
        None => options
            .from_str(source)
            .map_err(|err| vec![syntax::ron_error(&locator, &err)])?,
    };
    let mut checker = Checker::new(&locator, &raw);
    checker.check_all();
    let mut rules = base.clone();
    // The scene's own kinds of unit, over the rules' ones.
    for (kind, of_kind) in &raw.kinds {
        rules.kinds.insert(kind.clone(), *of_kind);
    }
    for (kind, field, value) in kind_problems(&raw.kinds) {
        let kinds_at = locator.section("kinds").unwrap_or(0);
        let at = locator.after(kinds_at, kind).unwrap_or(kinds_at);
        checker.problems.push(locator.at(
            at,
            format!("kind `{kind}`: `{field}` is {value}, outside 0..=10"),
            "use a value between 0 and 10 (foot fight at about 0.6, guards at 1.8)".to_string(),
            "Units",
        ));
    }
    for unit in &raw.units {
        if !rules.kinds.contains_key(&unit.kind) {
            let mut names: Vec<&str> = rules.kinds.keys().map(UnitKind::name).collect();
            names.sort_unstable();
            let hint = match closest(unit.kind.name(), names.iter().copied()) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!(
                    "the kinds are {}; a battle of another age declares its own in `kinds`",
                    names.join(", ")
                ),
            };
            checker.anchor_at("units", &unit.id);
            checker.report(
                &["kind:"],
                format!("unknown unit kind `{}`", unit.kind.name()),
                hint,
                "Units",
            );
        }
    }
    // An override is found after the top-level `rules:` (a comment or a text
    // earlier in the file may mention a rule's name).
    let override_at = |name: &str| {
        let overrides = locator.section("rules").unwrap_or(0);
        locator
            .after(overrides, &format!("\"{name}\""))
            .unwrap_or(overrides)
    };
    for (name, value) in &raw.rules {
        if !rules.set(name, *value) {
            let at = override_at(name);
            let names = Rules::RANGES.iter().map(|(n, _, _)| *n);
            let hint = match closest(name, names) {
                Some(near) => format!("did you mean `{near}`?"),
                None => "see scenes/rules.ron for the rule names".to_string(),
            };
            checker
                .problems
                .push(locator.at(at, format!("unknown rule `{name}`"), hint, "Rules"));
        }
    }
    for (name, value, min, max) in rules.out_of_range() {
        let at = override_at(name);
        checker.problems.push(locator.at(
            at,
            format!("rule `{name}` is {value}, outside {min}..={max}"),
            format!("use a value between {min} and {max}"),
            "Rules",
        ));
    }
    if checker.problems.is_empty() {
        Ok((raw, rules))
    } else {
        let mut problems = checker.problems;
        problems.sort_by_key(|d| (d.line, d.column));
        problems.dedup();
        Err(problems)
    }
}

struct Checker<'a> {
    locator: &'a Locator<'a>,
    raw: &'a RawScene,
    problems: Vec<Diagnostic>,
    zones: HashSet<&'a str>,
    sides: HashSet<&'a str>,
    units: HashSet<&'a str>,
    commanders: HashSet<&'a str>,
    events: HashSet<&'a str>,
    options: HashMap<&'a str, Vec<&'a str>>,
    /// Every flag some `SetFlag` sets.
    flags: HashSet<&'a str>,
    /// The item being checked: positions are searched for inside it.
    anchor: Anchor<'a>,
    /// Who reads the texts being checked now.
    audience: Audience,
    /// Checking the condition of a text variant (where `Playing` is allowed).
    in_variant: bool,
    /// Playable roles stand on more than one side: text told to everyone
    /// must not speak to "you".
    two_sided: bool,
}

/// The item being checked, named; its place in the source is searched for
/// only when a problem is reported ([`Checker::declared`]).
#[derive(Debug, Clone, Copy)]
enum Anchor<'a> {
    Nothing,
    /// The item `id` of the list `section` (or the `meta`).
    Item(&'static str, &'a str),
    /// An entry of the `obscurants` map.
    Obscurant(&'a str),
    Prelude,
    /// The option `id`, the `index`th of `turning_point`'s options.
    Option {
        turning_point: &'a str,
        index: usize,
        id: &'a str,
    },
}

/// Who reads a text: the checker holds text told to every role to the
/// point-of-view rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Audience {
    /// Only the commander who chose (situations, narrations).
    Chooser,
    /// Only the other side (`perceived`).
    Others,
    /// Every role (events, endings, the intro, atmosphere).
    Everyone,
}

impl<'a> Checker<'a> {
    fn new(locator: &'a Locator<'a>, raw: &'a RawScene) -> Self {
        Checker {
            locator,
            raw,
            problems: Vec::new(),
            zones: raw.zones.iter().map(|z| z.id.as_str()).collect(),
            sides: raw.sides.iter().map(|s| s.id.as_str()).collect(),
            units: raw.units.iter().map(|u| u.id.as_str()).collect(),
            commanders: raw.commanders.iter().map(|c| c.id.as_str()).collect(),
            events: raw.events.iter().map(|e| e.id.as_str()).collect(),
            options: raw
                .turning_points
                .iter()
                .map(|tp| {
                    (
                        tp.id.as_str(),
                        tp.options.iter().map(|o| o.id.as_str()).collect(),
                    )
                })
                .collect(),
            flags: set_flags(raw),
            anchor: Anchor::Nothing,
            audience: Audience::Everyone,
            in_variant: false,
            two_sided: {
                let sides: HashSet<&str> = raw
                    .commanders
                    .iter()
                    .filter(|c| raw.meta.playable.contains(&c.id))
                    .map(|c| c.side.as_str())
                    .collect();
                sides.len() > 1
            },
        }
    }

    /// A problem at the last of `needles` (each searched after the one
    /// before) inside the item being checked, or at the item's id.
    fn report(&mut self, needles: &[&str], message: String, hint: String, guide: &'static str) {
        let declared = self.declared();
        let anchor = declared.as_ref();
        let found = if needles.is_empty() {
            None
        } else {
            self.locator.path(anchor, needles)
        };
        let at = found.or(anchor.map(|d| d.id_at)).unwrap_or(0);
        self.problems
            .push(self.locator.at(at, message, hint, guide));
    }

    /// Makes the item `id` of the list `section` the one being checked.
    fn anchor_at(&mut self, section: &'static str, id: &'a str) {
        self.anchor = Anchor::Item(section, id);
    }

    /// Where the item being checked is declared: found in the source only
    /// now, when a problem is to be shown.
    fn declared(&self) -> Option<Declaration> {
        let locator = self.locator;
        match self.anchor {
            Anchor::Nothing => None,
            Anchor::Item(section, id) => locator.item(section, id),
            Anchor::Obscurant(id) => locator.section("obscurants").map(|at| Declaration {
                path: vec!["obscurants".to_string()],
                id: id.to_string(),
                id_at: locator.after(at, &format!("\"{id}\"")).unwrap_or(at),
                start: locator.after(at, &format!("\"{id}\"")).unwrap_or(at),
                end: locator.source.len(),
            }),
            Anchor::Prelude => locator.section("prelude").map(|at| Declaration {
                path: vec!["prelude".to_string()],
                id: "prelude".to_string(),
                id_at: at,
                start: at,
                end: locator.source.len(),
            }),
            Anchor::Option {
                turning_point,
                index,
                id,
            } => {
                // Found by its place among the options (ids may repeat
                // elsewhere), else the turning point.
                let tp = locator.item("turning_points", turning_point);
                tp.as_ref()
                    .and_then(|d| locator.options(d).into_iter().nth(index))
                    .filter(|d| d.id == id)
                    .or(tp)
            }
        }
    }

    fn check_all(&mut self) {
        let raw = self.raw;
        self.meta();
        self.unique_ids();
        for side in &raw.sides {
            self.anchor_at("sides", &side.id);
            self.text(&side.name, "name");
            if let Some(zone) = &side.retreat {
                self.reference("zone", zone, "Sides");
            }
        }
        self.zones_and_graph();
        for commander in &raw.commanders {
            self.anchor_at("commanders", &commander.id);
            self.text(&commander.name, "name");
            self.reference("side", &commander.side, "Commanders");
            self.reference("zone", &commander.zone, "Commanders");
            self.range("leadership", commander.leadership, 0.0, 10.0, "Commanders");
        }
        for unit in &raw.units {
            self.unit(unit);
        }
        self.turning_points();
        for event in &raw.events {
            self.anchor_at("events", &event.id);
            self.condition(&event.when);
            self.audience = Audience::Everyone;
            if let Some(text) = &event.text {
                self.prose(text, "text");
            }
            if event.effects.is_empty() && event.text.is_none() {
                self.report(
                    &["effects:"],
                    format!("event `{}` has no effects and no text", event.id),
                    "an event must change the world or tell something".into(),
                    "Events",
                );
            }
            for effect in &event.effects {
                self.effect(effect);
            }
        }
        for (id, obscurant) in &raw.obscurants {
            self.anchor = Anchor::Obscurant(id);
            if !is_plain_id(id) {
                self.report(
                    &[],
                    format!("obscurant id `{id}` is not a plain id"),
                    "use lower-case letters, digits and dashes".into(),
                    "Obscurants",
                );
            }
            self.text(&obscurant.name, "name");
            for (field, value) in [
                ("blind_at", obscurant.blind_at),
                ("decay", obscurant.decay),
                ("carry", obscurant.carry),
            ] {
                self.range(field, value, 0.0, 1.0, "Obscurants");
            }
        }
        if let Some(prelude) = &raw.prelude {
            self.anchor = Anchor::Prelude;
            self.audience = Audience::Everyone;
            if let Some(text) = &prelude.text {
                self.prose(text, "text");
            }
            if prelude.text.is_none() && prelude.effects.is_empty() {
                self.report(
                    &[],
                    "the prelude has no text and no effects".into(),
                    "give it a `text`, some `effects`, or leave it out".into(),
                    "Prelude",
                );
            }
            for effect in &prelude.effects {
                self.effect(effect);
            }
        }
        self.endings();
        self.reachability();
        self.audience = Audience::Everyone;
        self.anchor = Anchor::Nothing;
        self.prose(&raw.meta.intro, "intro");
        for variant in &raw.atmosphere {
            self.variant(&variant.when, &variant.text, "atmosphere");
            self.claims(&variant.claims);
        }
    }

    fn meta(&mut self) {
        let meta = &self.raw.meta;
        self.anchor = Anchor::Item("meta", &meta.id);
        if meta.id.is_empty() || !is_plain_id(&meta.id) {
            self.report(
                &[],
                format!("scene id `{}` is not a plain id", meta.id),
                "use lower-case letters, digits and dashes, e.g. \"my-battle\"".into(),
                "Meta",
            );
        }
        for (text, field) in [
            (&meta.title, "title"),
            (&meta.date, "date"),
            (&meta.place, "place"),
        ] {
            self.text(text, field);
        }
        if let Some(hook) = &meta.hook {
            self.text(hook, "hook");
        }
        self.range(
            "turn_minutes",
            f64::from(meta.turn_minutes),
            1.0,
            720.0,
            "Meta",
        );
        self.range("max_turns", f64::from(meta.max_turns), 1.0, 1000.0, "Meta");
        if let Some(wind) = &meta.wind {
            self.range("strength", wind.strength, 0.0, 1.0, "Meta");
        }
        if !self.raw.endings.iter().any(|e| e.id == meta.timeout_ending) {
            let ids: Vec<&str> = self.raw.endings.iter().map(|e| e.id.as_str()).collect();
            self.unknown("ending", &meta.timeout_ending, &ids, "Meta");
        }
        if meta.playable.is_empty() {
            self.report(
                &["playable:"],
                "no playable commander".into(),
                "list at least one commander id in `playable`".into(),
                "Meta",
            );
        }
        for role in &meta.playable {
            self.reference("commander", role, "Meta");
        }
    }

    fn unique_ids(&mut self) {
        let raw = self.raw;
        let mut seen: HashMap<&str, &str> = HashMap::new();
        let all = raw
            .sides
            .iter()
            .map(|s| (s.id.as_str(), "side"))
            .chain(raw.zones.iter().map(|z| (z.id.as_str(), "zone")))
            .chain(raw.commanders.iter().map(|c| (c.id.as_str(), "commander")))
            .chain(raw.units.iter().map(|u| (u.id.as_str(), "unit")))
            .chain(
                raw.turning_points
                    .iter()
                    .map(|t| (t.id.as_str(), "turning point")),
            )
            .chain(raw.events.iter().map(|e| (e.id.as_str(), "event")))
            .chain(raw.endings.iter().map(|e| (e.id.as_str(), "ending")));
        for (id, kind) in all {
            let section = section_of(kind);
            if let Some(first) = seen.insert(id, kind) {
                // Point at the second declaration: the next one in this kind's
                // own list (the first there, unless both are of this kind).
                let skip = usize::from(first == kind);
                let second = self
                    .locator
                    .items(section, id)
                    .nth(skip)
                    .map(|d| d.id_at)
                    .or_else(|| self.locator.declaration(id))
                    .unwrap_or(0);
                let diagnostic = self.locator.at(
                    second,
                    format!("duplicate id `{id}`: {} and {}", with_article(kind), with_article(first)),
                    "every side, zone, commander, unit, turning point, event and ending needs its own id".into(),
                    "Ids",
                );
                self.problems.push(diagnostic);
            }
            if !is_plain_id(id) {
                self.anchor_at(section, id);
                self.report(
                    &[],
                    format!("id `{id}` is not a plain id"),
                    "use lower-case letters, digits and dashes".into(),
                    "Ids",
                );
            }
        }
        if raw.sides.len() < 2 {
            self.anchor = Anchor::Nothing;
            self.report(
                &["sides:"],
                "a battle needs at least two sides".into(),
                "add a side".into(),
                "Sides",
            );
        }
    }

    fn zones_and_graph(&mut self) {
        let raw = self.raw;
        for zone in &raw.zones {
            self.anchor_at("zones", &zone.id);
            self.text(&zone.name, "name");
            for adjacent in &zone.adjacent {
                if adjacent == &zone.id {
                    // At the entry in `adjacent`, not at the zone's own id.
                    self.report(
                        &["adjacent:", &format!("\"{adjacent}\"")],
                        format!("zone `{}` lists itself as adjacent", zone.id),
                        "remove it from `adjacent`".into(),
                        "Zones",
                    );
                } else {
                    self.reference("zone", adjacent, "Zones");
                }
            }
            for (field, value, max) in [
                ("width_m", zone.width_m, 100_000.0),
                ("length_m", zone.length_m, 100_000.0),
                ("depth_m", zone.depth_m, 50.0),
                ("cover", zone.cover, 1.0),
                ("fire", zone.fire, 1.0),
                ("smoke", zone.smoke, 1.0),
                ("fuel", zone.fuel, 1.0),
                ("boats", zone.boats, 1_000_000.0),
            ] {
                self.range(field, value, 0.0, max, "Zones");
            }
            if matches!(zone.kind, ZoneKind::Ford | ZoneKind::Bridge) && zone.width_m <= 0.0 {
                self.report(
                    &["kind:"],
                    format!(
                        "{:?} `{}` has no width, so no one can cross it",
                        zone.kind, zone.id
                    ),
                    "give it `width_m:` in metres (a ford a few hundred, a bridge a few)".into(),
                    "Zones",
                );
            }
            if zone.kind == ZoneKind::Water && zone.boats <= 0.0 {
                self.report(
                    &["kind:"],
                    format!("Water `{}` has no boats, so no one can cross it", zone.id),
                    "give it `boats:`, the men its boats carry across in 15 minutes (a ferry a few hundred, a fleet thousands)".into(),
                    "Zones",
                );
            }
            if zone.boats > 0.0 && zone.kind != ZoneKind::Water {
                self.report(
                    &["boats:"],
                    format!(
                        "`boats` is for open water, but `{}` is a {:?}",
                        zone.id, zone.kind
                    ),
                    "make it `kind: Water`, or take `boats` out (a ford is waded, a bridge walked)"
                        .into(),
                    "Zones",
                );
            }
        }
        // Connectivity: every zone reachable from the first.
        if raw.zones.is_empty() {
            self.anchor = Anchor::Nothing;
            self.report(
                &[],
                "the scene has no zones".into(),
                "add zones".into(),
                "Zones",
            );
            return;
        }
        let mut edges: HashMap<&str, Vec<&str>> = HashMap::new();
        for zone in &raw.zones {
            for adjacent in &zone.adjacent {
                edges.entry(&zone.id).or_default().push(adjacent);
                edges.entry(adjacent).or_default().push(&zone.id);
            }
        }
        let mut reached: HashSet<&str> = HashSet::new();
        let mut stack = vec![raw.zones[0].id.as_str()];
        while let Some(zone) = stack.pop() {
            if reached.insert(zone) {
                stack.extend(edges.get(zone).into_iter().flatten().copied());
            }
        }
        for zone in &raw.zones {
            if !reached.contains(zone.id.as_str()) {
                self.anchor_at("zones", &zone.id);
                self.report(
                    &[],
                    format!(
                        "zone `{}` is not connected to `{}`",
                        zone.id, raw.zones[0].id
                    ),
                    "add it to some zone's `adjacent` list".into(),
                    "Zones",
                );
            }
        }
    }

    fn unit(&mut self, unit: &'a Unit) {
        self.anchor_at("units", &unit.id);
        self.text(&unit.name, "name");
        self.reference("side", &unit.side, "Units");
        self.reference("zone", &unit.zone, "Units");
        self.range("men", f64::from(unit.men), 1.0, 1_000_000.0, "Units");
        self.range("quality", unit.quality, 0.0, 1.0, "Units");
        self.range("morale", unit.morale, 0.0, 100.0, "Units");
        self.range("precedence", f64::from(unit.precedence), 0.0, 9.0, "Units");
        if let Some(leader) = &unit.leader {
            self.reference("commander", leader, "Units");
            if let Some(commander) = self.raw.commanders.iter().find(|c| &c.id == leader)
                && commander.side != unit.side
            {
                self.report(
                    &[&format!("\"{leader}\"")],
                    format!("unit `{}` is led by `{leader}` of the other side", unit.id),
                    "a leader must be on the unit's side".into(),
                    "Units",
                );
            }
        }
        if let Order::MoveTo(zone) = &unit.order {
            self.reference("zone", zone, "Units");
        }
    }

    /// An id must name an existing thing of its kind.
    fn reference(&mut self, kind: &str, id: &str, guide: &'static str) {
        let known: &HashSet<&str> = match kind {
            "zone" => &self.zones,
            "side" => &self.sides,
            "unit" => &self.units,
            "commander" => &self.commanders,
            _ => return,
        };
        if !known.contains(id) {
            let mut ids: Vec<&str> = known.iter().copied().collect();
            ids.sort_unstable();
            self.unknown(kind, id, &ids, guide);
        }
    }

    fn unknown(&mut self, kind: &str, id: &str, known: &[&str], guide: &'static str) {
        let hint = match closest(id, known.iter().copied()) {
            Some(near) => format!("did you mean \"{near}\"?"),
            None => {
                let mut sorted: Vec<&str> = known.to_vec();
                sorted.sort_unstable();
                let shown: Vec<&str> = sorted.iter().take(12).copied().collect();
                format!("known {kind} ids: {}", shown.join(", "))
            }
        };
        self.report(
            &[&format!("\"{id}\"")],
            format!("unknown {kind} `{id}`"),
            hint,
            guide,
        );
    }

    fn range(&mut self, field: &str, value: f64, min: f64, max: f64, guide: &'static str) {
        if !value.is_finite() || value < min || value > max {
            self.report(
                &[&format!("{field}:")],
                format!("`{field}` is {value}, outside {min}..={max}"),
                format!("use a value between {min} and {max}"),
                guide,
            );
        }
    }

    fn text(&mut self, text: &Text, field: &str) {
        let tags = text.tags();
        for tag in &tags {
            if !KNOWN_LOCALES.contains(tag) {
                self.report(
                    &[&format!("\"{tag}\"")],
                    format!("unknown locale `{tag}` in `{field}`"),
                    format!("locales are {}", KNOWN_LOCALES.join(", ")),
                    "Text and translations",
                );
            }
        }
        if tags.is_empty() {
            if matches!(text, Text::Localized(_)) {
                self.report(
                    &[&field_needle(field)],
                    format!("`{field}` is an empty map"),
                    "write a string, or a map with \"en\" and \"zh-Hans\"".into(),
                    "Text and translations",
                );
            }
            return;
        }
        let missing: Vec<&str> = REQUIRED_LOCALES
            .iter()
            .copied()
            .filter(|tag| !text.has(tag))
            .collect();
        if !missing.is_empty() {
            let anchor = field_needle(field);
            self.report(
                &[&anchor],
                format!("`{field}` has no {} translation", missing.join(" or ")),
                format!("add \"{}\": \"...\" to the map", missing[0]),
                "Text and translations",
            );
        }
    }
}

/// The fighting values of kinds that are not finite or outside 0..=10.
fn kind_problems(
    kinds: &std::collections::BTreeMap<UnitKind, super::rules::KindRules>,
) -> Vec<(&str, &'static str, f64)> {
    let mut out = Vec::new();
    for (kind, of_kind) in kinds {
        for (field, value) in [("melee", of_kind.melee), ("missile", of_kind.missile)] {
            if !value.is_finite() || !(0.0..=10.0).contains(&value) {
                out.push((kind.name(), field, value));
            }
        }
    }
    out
}

/// Where a text is written: `name:` for a field, `Narrate(` for an effect.
fn field_needle(field: &str) -> String {
    if field.starts_with(char::is_uppercase) {
        format!("{field}(")
    } else {
        format!("{field}:")
    }
}

/// "a zone", "a unit", "an event", "an ending": by sound ("unit" starts
/// with a "you").
fn with_article(noun: &str) -> String {
    let article = if noun.starts_with(['a', 'e', 'i', 'o']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {noun}")
}

/// The top-level list an item of this kind is declared in.
fn section_of(kind: &str) -> &'static str {
    match kind {
        "side" => "sides",
        "zone" => "zones",
        "commander" => "commanders",
        "unit" => "units",
        "turning point" => "turning_points",
        "event" => "events",
        _ => "endings",
    }
}

fn is_plain_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

fn all_strings(text: &Text) -> Box<dyn Iterator<Item = &str> + '_> {
    match text {
        Text::Plain(s) => Box::new(std::iter::once(s.as_str())),
        Text::Localized(map) => Box::new(map.values()),
    }
}

/// The first word that speaks to the reader ("you", 「你」), outside quoted
/// speech: a character may say "you" to another.
pub fn second_person(text: &str) -> Option<&'static str> {
    let mut plain = String::with_capacity(text.len());
    let mut depth = 0usize;
    let mut in_straight = false;
    for c in text.chars() {
        match c {
            '“' | '「' | '『' => depth += 1,
            '”' | '」' | '』' => depth = depth.saturating_sub(1),
            '"' => in_straight = !in_straight,
            _ if depth == 0 && !in_straight => plain.push(c),
            _ => {}
        }
    }
    if plain.contains('你') {
        return Some("你");
    }
    plain
        .split(|c: char| !c.is_ascii_alphabetic())
        .find_map(|word| match word.to_ascii_lowercase().as_str() {
            "you" => Some("you"),
            "your" => Some("your"),
            "yours" => Some("yours"),
            "yourself" => Some("yourself"),
            _ => None,
        })
}
