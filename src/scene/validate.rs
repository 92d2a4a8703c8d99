//! Validation: every check a scene must pass, collecting all problems at once.
//!
//! Serde keeps no positions, so problems found after parsing are placed with
//! a [`Locator`] that finds the declaration of the item (`id: "..."`) and the
//! offending value after it.

use super::diag::{Declaration, Diagnostic, Locator, closest};
use super::placeholder;
use super::raw::*;
use super::rules::Rules;
use super::syntax;
use std::collections::{HashMap, HashSet};

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
    let raw: RawScene = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(source)
        .map_err(|err| vec![syntax::ron_error(&locator, &err)])?;
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

    fn turning_points(&mut self) {
        let raw = self.raw;
        if raw.turning_points.len() > crate::scene::MAX_TURNING_POINTS {
            self.report(
                &["turning_points:"],
                format!(
                    "the battle has {} turning points, more than a save can hold the choices of ({})",
                    raw.turning_points.len(),
                    crate::scene::MAX_TURNING_POINTS
                ),
                format!(
                    "keep at most {} turning points",
                    crate::scene::MAX_TURNING_POINTS
                ),
                "Turning points",
            );
        }
        for tp in &raw.turning_points {
            self.anchor_at("turning_points", &tp.id);
            if !raw.meta.playable.contains(&tp.role) {
                let hint = format!(
                    "the role must be a playable commander: {}",
                    raw.meta.playable.join(", ")
                );
                self.report(
                    &[&format!("\"{}\"", tp.role)],
                    format!(
                        "turning point `{}` is decided by `{}`, who is not playable",
                        tp.id, tp.role
                    ),
                    hint,
                    "Turning points",
                );
            }
            self.condition(&tp.when);
            self.audience = Audience::Chooser;
            self.prose(&tp.situation, "situation");
            if !(2..=4).contains(&tp.options.len()) {
                self.report(
                    &["options:"],
                    format!("turning point `{}` has {} options", tp.id, tp.options.len()),
                    "give it between 2 and 4 options".into(),
                    "Turning points",
                );
            }
            let n_historical = tp.options.iter().filter(|o| o.historical).count();
            if n_historical != 1 {
                self.report(
                    &["options:"],
                    format!("turning point `{}` has {n_historical} historical options", tp.id),
                    "mark exactly one option `historical: true`: the line the side nobody plays takes".into(),
                    "Turning points",
                );
            }
            let n_novel = tp
                .options
                .iter()
                .filter(|o| o.from == crate::scene::Origin::Novel)
                .count();
            if n_novel > 1 {
                self.report(
                    &["from:"],
                    format!("turning point `{}` has {n_novel} options `from: Novel`", tp.id),
                    "the chapter took one of them at most: mark the others `from: History` or leave `from` out".into(),
                    "Provenance",
                );
            }
            let from_chapter = self.raw.meta.sources.iter().any(|s| !s.seed.is_empty());
            if n_novel > 0 && !from_chapter {
                self.report(
                    &["from:"],
                    format!("turning point `{}` has an option `from: Novel`, but the scene names no chapter", tp.id),
                    "name the chapter in `meta.sources` (`seed:`), or mark the option `from: History`".into(),
                    "Provenance",
                );
            }
            let mut option_ids = HashSet::new();
            for (idx, option) in tp.options.iter().enumerate() {
                // Problems of an option point into the option itself, found by
                // its place among the options (ids may repeat elsewhere).
                self.anchor = Anchor::Option {
                    turning_point: &tp.id,
                    index: idx,
                    id: &option.id,
                };
                let needle = format!("\"{}\"", option.id);
                if !is_plain_id(&option.id) {
                    self.report(
                        &[&needle],
                        format!("option id `{}` is not a plain id", option.id),
                        "use lower-case letters, digits and dashes".into(),
                        "Ids",
                    );
                }
                if !option_ids.insert(option.id.as_str()) {
                    self.report(
                        &[&needle],
                        format!("option `{}` appears twice in `{}`", option.id, tp.id),
                        "option ids must differ within a turning point".into(),
                        "Turning points",
                    );
                }
                self.audience = Audience::Chooser;
                self.text(&option.text, "text");
                self.claims(&option.claims);
                self.prose(&option.narration, "narration");
                if let Some(perceived) = &option.perceived {
                    self.audience = Audience::Others;
                    self.prose(perceived, "perceived");
                    self.audience = Audience::Chooser;
                }
                if option.effects.is_empty() {
                    self.report(
                        &[&needle],
                        format!("option `{}` of `{}` has no effects", option.id, tp.id),
                        "a choice must change the world: add an effect (a `Narrate` alone is not enough)".into(),
                        "Turning points",
                    );
                } else if option
                    .effects
                    .iter()
                    .all(|e| matches!(e, Effect::Narrate(_)))
                {
                    self.report(
                        &[&needle],
                        format!("option `{}` of `{}` only narrates", option.id, tp.id),
                        "a choice must change the world: give it an effect besides `Narrate`"
                            .into(),
                        "Turning points",
                    );
                }
                for effect in &option.effects {
                    self.effect(effect);
                }
            }
        }
    }

    /// What can happen at all: the turning points that can be reached and the
    /// events that can fire, grown together until neither changes (a point may
    /// wait on an event and an event on a choice). Points, events and endings
    /// whose `when` can never hold are reported; the timeout ending is exempt,
    /// since the clock brings it.
    fn reachability(&mut self) {
        let raw = self.raw;
        let meta = &raw.meta;
        let limits = Limits {
            story_ids: raw
                .turning_points
                .iter()
                .map(|tp| tp.id.as_str())
                .chain(raw.events.iter().map(|e| e.id.as_str()))
                .collect(),
            max_turns: f64::from(meta.max_turns),
            first_minute: f64::from(meta.start_minute),
            last_minute: f64::from(meta.start_minute)
                + f64::from(meta.max_turns) * f64::from(meta.turn_minutes),
        };
        let mut can = Reachable::default();
        loop {
            let before = (can.points.len(), can.events.len());
            for tp in &raw.turning_points {
                if limits.possible(&tp.when, &can) {
                    can.points.insert(&tp.id);
                }
            }
            for event in &raw.events {
                if limits.possible(&event.when, &can) {
                    can.events.insert(&event.id);
                }
            }
            if (can.points.len(), can.events.len()) == before {
                break;
            }
        }
        let why = format!(
            "its `when` needs a turn or time after the end (max_turns {}), `Never`, a choice at a point that is never reached, or an event that never happens",
            meta.max_turns
        );
        for tp in &raw.turning_points {
            if !can.points.contains(tp.id.as_str()) {
                self.anchor_at("turning_points", &tp.id);
                self.report(
                    &["when:"],
                    format!("turning point `{}` can never be reached", tp.id),
                    why.clone(),
                    "Turning points",
                );
            }
        }
        for event in &raw.events {
            if !can.events.contains(event.id.as_str()) {
                self.anchor_at("events", &event.id);
                self.report(
                    &["when:"],
                    format!("event `{}` can never happen", event.id),
                    why.clone(),
                    "Events",
                );
            }
        }
        for ending in &raw.endings {
            if ending.id != meta.timeout_ending && !limits.possible(&ending.when, &can) {
                self.anchor_at("endings", &ending.id);
                self.report(
                    &["when:"],
                    format!("ending `{}` can never happen", ending.id),
                    format!("{why}; only `meta.timeout_ending` may be `Never`"),
                    "Endings",
                );
            }
        }
    }

    fn endings(&mut self) {
        let raw = self.raw;
        if raw.endings.is_empty() {
            self.anchor = Anchor::Nothing;
            self.report(
                &[],
                "the scene has no endings".into(),
                "add at least one ending".into(),
                "Endings",
            );
        }
        for ending in &raw.endings {
            self.anchor_at("endings", &ending.id);
            self.text(&ending.title, "title");
            self.audience = Audience::Everyone;
            self.prose(&ending.text, "text");
            self.prose(&ending.summary, "summary");
            if let Some(history) = &ending.history {
                self.prose(history, "history");
            }
            self.condition(&ending.when);
        }
    }

    /// Story text: each variant's condition and text, its placeholders, and
    /// the point-of-view rule for text every role reads.
    fn prose(&mut self, prose: &'a Prose, field: &str) {
        for ((when, text), claims) in prose.variants().into_iter().zip(prose.claims()) {
            self.variant(when, text, field);
            self.claims(claims);
        }
    }

    /// What a text claims: conditions like any other, the reader's among
    /// them (a text may claim what its reader sees).
    fn claims(&mut self, claims: &'a [Condition]) {
        self.in_variant = true;
        for claim in claims {
            self.condition(claim);
        }
        self.in_variant = false;
    }

    fn variant(&mut self, when: &'a Condition, text: &'a Text, field: &str) {
        self.in_variant = true;
        self.condition(when);
        self.in_variant = false;
        self.text(text, field);
        for template in all_strings(text) {
            for (_, inside) in placeholder::spans(template) {
                if let Some(problem) = self.placeholder_problem(inside) {
                    self.report(
                        &[&format!("{{{inside}}}")],
                        problem,
                        format!("placeholders are {}", placeholder::FORMS),
                        "Story text",
                    );
                }
            }
        }
        if self.audience == Audience::Everyone && self.two_sided && !names_the_reader(when) {
            for template in all_strings(text) {
                if let Some(word) = second_person(template) {
                    self.report(
                        &[&field_needle(field)],
                        format!("this `{field}` is told to every role but speaks to the reader as \"{word}\""),
                        "every playable commander reads it: tell it in the third person, or give each side its own variant with `when: PlayerSide(\"...\")` or `Playing(\"...\")`".into(),
                        "Point of view",
                    );
                    break;
                }
            }
        }
    }

    /// Why a `{placeholder}` cannot be filled, or None when it can.
    fn placeholder_problem(&self, inside: &str) -> Option<String> {
        use placeholder::Placeholder as P;
        let Some(parsed) = P::parse(inside) else {
            return Some(format!("unknown placeholder `{{{inside}}}`"));
        };
        let is = |set: &HashSet<&str>, id: &str| set.contains(id);
        let ok = match parsed {
            P::Turn | P::Time => true,
            P::Men(id) | P::Losses(id) => is(&self.sides, id) || is(&self.units, id),
            P::MenIn(side, zone) | P::Crossed(side, zone) => {
                is(&self.sides, side) && is(&self.zones, zone)
            }
            P::Holder(zone) => is(&self.zones, zone),
            P::Name(id) => {
                is(&self.sides, id)
                    || is(&self.zones, id)
                    || is(&self.units, id)
                    || is(&self.commanders, id)
            }
            P::At(commander) => is(&self.commanders, commander),
        };
        (!ok).then(|| {
            format!(
                "placeholder `{{{inside}}}` names no {}",
                match parsed {
                    P::Men(_) | P::Losses(_) => "side or unit",
                    P::MenIn(..) | P::Crossed(..) => "side and zone",
                    P::Holder(_) => "zone",
                    P::At(_) => "commander",
                    _ => "side, zone, unit or commander",
                }
            )
        })
    }

    fn condition(&mut self, condition: &'a Condition) {
        match condition {
            Condition::Always | Condition::Never => {}
            Condition::Chance(p) => {
                if !p.is_finite() || !(0.0..=1.0).contains(p) {
                    self.report(
                        &["Chance("],
                        format!("`Chance({p})` is not a probability"),
                        "use a number between 0 and 1, e.g. Chance(0.3) for three times in ten"
                            .into(),
                        "Conditions and effects",
                    );
                }
            }
            Condition::All(items) | Condition::Any(items) => {
                for item in items {
                    self.condition(item);
                }
            }
            Condition::Not(item) => self.condition(item),
            Condition::Turn(cmp) | Condition::Minute(cmp) | Condition::Wind(cmp) => self.cmp(cmp),
            Condition::Chosen { tp, option } => match self.options.get(tp.as_str()).cloned() {
                None => {
                    let ids: Vec<&str> = self.options.keys().copied().collect();
                    self.unknown("turning point", tp, &ids, "Conditions and effects");
                }
                Some(options) => {
                    if !options.contains(&option.as_str()) {
                        self.unknown("option", option, &options, "Conditions and effects");
                    }
                }
            },
            Condition::Reached(tp) => {
                if !self.options.contains_key(tp.as_str()) {
                    let ids: Vec<&str> = self.options.keys().copied().collect();
                    self.unknown("turning point", tp, &ids, "Conditions and effects");
                }
            }
            Condition::Happened(event) => {
                if !self.events.contains(event.as_str()) {
                    let ids: Vec<&str> = self.events.iter().copied().collect();
                    self.unknown("event", event, &ids, "Conditions and effects");
                }
            }
            Condition::Flag(_) => {}
            Condition::UnitState { unit, .. } => {
                self.reference("unit", unit, "Conditions and effects")
            }
            Condition::UnitIn { unit, zone } => {
                self.reference("unit", unit, "Conditions and effects");
                self.reference("zone", zone, "Conditions and effects");
            }
            Condition::UnitMen { unit, cmp } | Condition::UnitMorale { unit, cmp } => {
                self.reference("unit", unit, "Conditions and effects");
                self.cmp(cmp);
            }
            Condition::CommanderIn { commander, zone } => {
                self.reference("commander", commander, "Conditions and effects");
                self.reference("zone", zone, "Conditions and effects");
            }
            Condition::SideStrength { side, cmp }
            | Condition::SideLosses { side, cmp }
            | Condition::SideRouting { side, cmp } => {
                self.reference("side", side, "Conditions and effects");
                self.cmp(cmp);
            }
            Condition::SideMenIn { side, zone, cmp }
            | Condition::SideCrossed { side, zone, cmp } => {
                self.reference("side", side, "Conditions and effects");
                self.reference("zone", zone, "Conditions and effects");
                self.cmp(cmp);
                let kind = self
                    .raw
                    .zones
                    .iter()
                    .find(|z| &z.id == zone)
                    .map(|z| z.kind);
                if matches!(condition, Condition::SideCrossed { .. })
                    && let Some(kind) = kind
                    && !matches!(kind, ZoneKind::Ford | ZoneKind::Bridge)
                {
                    self.report(
                        &[&format!("\"{zone}\"")],
                        format!("`SideCrossed` counts men through a ford or bridge, but `{zone}` is a {kind:?}"),
                        "name a zone of kind Ford or Bridge, or use `SideMenIn`".into(),
                        "Conditions and effects",
                    );
                }
            }
            Condition::Smoke { zone, cmp } | Condition::Fire { zone, cmp } => {
                self.reference("zone", zone, "Conditions and effects");
                self.cmp(cmp);
            }
            Condition::Passable(zone) => self.reference("zone", zone, "Conditions and effects"),
            Condition::Sees { side, zone } => {
                self.reference("side", side, "Conditions and effects");
                self.reference("zone", zone, "Conditions and effects");
            }
            Condition::Playing(role) | Condition::PlayerSide(role) => {
                let is_role = matches!(condition, Condition::Playing(_));
                let word = if is_role { "Playing" } else { "PlayerSide" };
                if !self.in_variant {
                    self.report(
                        &[&format!("{word}(")],
                        format!("`{word}` is for story text only"),
                        "the battle runs the same whoever plays it: use it in a text variant's `when`, not in an event, turning point or ending".into(),
                        "Point of view",
                    );
                }
                if is_role {
                    let playable: Vec<&str> =
                        self.raw.meta.playable.iter().map(String::as_str).collect();
                    if !playable.contains(&role.as_str()) {
                        self.unknown("playable role", role, &playable, "Point of view");
                    }
                } else {
                    self.reference("side", role, "Conditions and effects");
                }
            }
            Condition::Fallen(commander) => {
                self.reference("commander", commander, "Conditions and effects")
            }
            Condition::Obscured { zone, by, cmp } => {
                self.reference("zone", zone, "Conditions and effects");
                self.obscurant(by);
                self.cmp(cmp);
            }
            Condition::TurnsSince(id, cmp) => {
                self.cmp(cmp);
                let known = self.events.contains(id.as_str())
                    || self.options.contains_key(id.as_str())
                    || self.flags.contains(id.as_str());
                if !known {
                    let mut ids: Vec<&str> = self
                        .events
                        .iter()
                        .chain(self.options.keys())
                        .chain(self.flags.iter())
                        .copied()
                        .collect();
                    ids.sort_unstable();
                    ids.dedup();
                    self.unknown(
                        "flag, event or turning point",
                        id,
                        &ids,
                        "Conditions and effects",
                    );
                }
            }
        }
    }

    fn cmp(&mut self, cmp: &Cmp) {
        let (Cmp::AtLeast(value) | Cmp::AtMost(value) | Cmp::Above(value) | Cmp::Below(value)) =
            cmp;
        if !value.is_finite() {
            let declared = self.declared();
            let anchor = declared.as_ref();
            let at = self
                .locator
                .non_finite(anchor)
                .or(anchor.map(|d| d.id_at))
                .unwrap_or(0);
            self.problems.push(self.locator.at(
                at,
                format!("a comparison with `{value}`, which is not a finite number"),
                "use a plain number, like `AtLeast(3)`".into(),
                "Conditions and effects",
            ));
        }
    }

    fn target(&mut self, target: &'a Target) {
        match target {
            Target::Unit(unit) => self.reference("unit", unit, "Conditions and effects"),
            Target::Units(units) => {
                for unit in units {
                    self.reference("unit", unit, "Conditions and effects");
                }
            }
            Target::Side(side) => self.reference("side", side, "Conditions and effects"),
            Target::SideIn { side, zone } => {
                self.reference("side", side, "Conditions and effects");
                self.reference("zone", zone, "Conditions and effects");
            }
            Target::Zone(zone) => self.reference("zone", zone, "Conditions and effects"),
        }
    }

    fn effect(&mut self, effect: &'a Effect) {
        const G: &str = "Conditions and effects";
        match effect {
            Effect::Order { target, order } => {
                self.target(target);
                if let Order::MoveTo(zone) = order {
                    self.reference("zone", zone, G);
                }
            }
            Effect::Morale { target, delta } => {
                self.target(target);
                self.range("delta", *delta, -100.0, 100.0, G);
            }
            Effect::Rumor {
                zone,
                claim,
                credibility,
                cry,
            } => {
                self.reference("zone", zone, G);
                let (Claim::Routed(side) | Claim::Victorious(side)) = claim;
                self.reference("side", side, G);
                self.range("credibility", *credibility, 0.0, 1.0, G);
                self.text(cry, "cry");
            }
            Effect::Fire { zone, intensity } => {
                self.reference("zone", zone, G);
                self.range("intensity", *intensity, 0.0, 1.0, G);
            }
            Effect::Smoke { zone, level } => {
                self.reference("zone", zone, G);
                self.range("level", *level, 0.0, 1.0, G);
            }
            Effect::Wind { strength, .. } => self.range("strength", *strength, 0.0, 1.0, G),
            Effect::Drums { commander, turns } => {
                self.reference("commander", commander, G);
                self.range("turns", f64::from(*turns), 1.0, 1000.0, G);
                if let Some(c) = self.raw.commanders.iter().find(|c| &c.id == commander)
                    && !c.drums
                {
                    self.report(
                        &[&format!("\"{commander}\"")],
                        format!("commander `{commander}` has no drums"),
                        "set `drums: true` on the commander".into(),
                        G,
                    );
                }
            }
            Effect::CommanderTo { commander, zone } => {
                self.reference("commander", commander, G);
                self.reference("zone", zone, G);
            }
            Effect::Casualties { target, share } => {
                self.target(target);
                self.range("share", *share, 0.0, 1.0, G);
            }
            Effect::Surrender(unit) | Effect::Arrive(unit) => self.reference("unit", unit, G),
            Effect::Destroy { zone, share } => {
                self.reference("zone", zone, G);
                self.range("share", *share, 0.0, 1.0, G);
            }
            Effect::WetCloth(side) => self.reference("side", side, G),
            Effect::Fall { commander, .. } => self.reference("commander", commander, G),
            Effect::Obscure { zones, by, level } => {
                for zone in zones {
                    self.reference("zone", zone, G);
                }
                self.obscurant(by);
                self.range("level", *level, 0.0, 1.0, G);
            }
            Effect::ChangeSide { who, side } => {
                self.reference("side", side, G);
                if self.raw.meta.playable.contains(who) {
                    self.report(
                        &[&format!("\"{who}\"")],
                        format!("`{who}` is a playable role and cannot change side"),
                        "change the side of the units he leads instead, or of another commander"
                            .into(),
                        G,
                    );
                } else if !self.units.contains(who.as_str())
                    && !self.commanders.contains(who.as_str())
                {
                    let mut ids: Vec<&str> =
                        self.units.iter().chain(&self.commanders).copied().collect();
                    ids.sort_unstable();
                    self.unknown("unit or commander", who, &ids, G);
                }
            }
            Effect::SetFlag(_) | Effect::ClearFlag(_) => {}
            Effect::Narrate(text) => self.prose(text, "Narrate"),
        }
    }

    /// An obscurant must be one the scene declares.
    fn obscurant(&mut self, id: &str) {
        if !self.raw.obscurants.contains_key(id) {
            let ids: Vec<&str> = self.raw.obscurants.keys().map(String::as_str).collect();
            if ids.is_empty() {
                self.report(
                    &[&format!("\"{id}\"")],
                    format!("unknown obscurant `{id}`: the scene declares none"),
                    "declare it in the top-level `obscurants` map (smoke needs none: use `Smoke`)"
                        .into(),
                    "Obscurants",
                );
            } else {
                self.unknown("obscurant", id, &ids, "Obscurants");
            }
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

/// Every flag a `SetFlag` effect of the scene sets.
fn set_flags(raw: &RawScene) -> HashSet<&str> {
    let options = raw.turning_points.iter().flat_map(|tp| &tp.options);
    options
        .flat_map(|option| &option.effects)
        .chain(raw.events.iter().flat_map(|event| &event.effects))
        .filter_map(|effect| match effect {
            Effect::SetFlag(flag) => Some(flag.as_str()),
            _ => None,
        })
        .collect()
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

/// The turning points and events that can happen, as far as the checker can tell.
#[derive(Default)]
struct Reachable<'a> {
    points: HashSet<&'a str>,
    events: HashSet<&'a str>,
}

/// The span of a battle, in turns and clock minutes.
struct Limits<'a> {
    /// Ids of the turning points and events (anything else `TurnsSince`
    /// names is a flag, taken as possible).
    story_ids: HashSet<&'a str>,
    max_turns: f64,
    first_minute: f64,
    last_minute: f64,
}

impl Limits<'_> {
    /// Could the condition ever hold, given what can happen? Only the clock,
    /// `Never` and the story's own conditions are judged; anything about the
    /// world is taken as possible.
    fn possible(&self, condition: &Condition, can: &Reachable) -> bool {
        let within = |cmp: &Cmp, first: f64, last: f64| match *cmp {
            Cmp::AtLeast(n) => n <= last,
            Cmp::Above(n) => n < last,
            Cmp::AtMost(n) => n >= first,
            Cmp::Below(n) => n > first,
        };
        match condition {
            Condition::Never => false,
            Condition::Chance(p) => *p > 0.0,
            Condition::Not(inner) => !matches!(**inner, Condition::Always),
            Condition::All(items) => items.iter().all(|c| self.possible(c, can)),
            Condition::Any(items) => items.iter().any(|c| self.possible(c, can)),
            Condition::Turn(cmp) => within(cmp, 0.0, self.max_turns),
            Condition::Minute(cmp) => within(cmp, self.first_minute, self.last_minute),
            Condition::Chosen { tp, .. } | Condition::Reached(tp) => {
                can.points.contains(tp.as_str())
            }
            Condition::Happened(event) => can.events.contains(event.as_str()),
            Condition::TurnsSince(id, cmp) => {
                let id = id.as_str();
                let can_happen = can.points.contains(id)
                    || can.events.contains(id)
                    || !self.story_ids.contains(id);
                can_happen && within(cmp, 0.0, self.max_turns)
            }
            _ => true,
        }
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

/// Whether a variant's condition says whose eyes it is for (`Playing`,
/// `PlayerSide`, alone or among the items of an `All`).
fn names_the_reader(when: &Condition) -> bool {
    match when {
        Condition::Playing(_) | Condition::PlayerSide(_) => true,
        Condition::All(items) => items.iter().any(names_the_reader),
        _ => false,
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
