//! The lowering: the file's raw model checked and resolved in one walk.
//! Each reference is looked up where it is checked, so what comes out is
//! either the scene's typed form (every id an index: [`Lowered`]) or every
//! problem of the file at once, each at its place.
//!
//! Serde keeps no positions, so problems found after parsing are placed with
//! a [`Locator`] that finds the declaration of the item (`id: "..."`) and the
//! offending value after it.

mod declare;
mod story;

use super::IdIndex;
use super::diag::{Declaration, Diagnostic, Locator, closest};
use super::placeholder;
use super::raw::*;
use super::resolved::{
    Act, CommanderId, Cond, FlagId, Lookup, ObscurantId, RChoice, REnding, REvent, ROrder,
    RPrelude, RSecret, RTurningPoint, Resolved, RoleId, SideId, Slots, Table, Targets, UnitId,
    Variants, ZoneId,
};
use super::rules::{Crossing, Rules, ZoneKindRules, ZoneKinds};
use super::syntax;
use super::tables::Refs;
use std::collections::{HashMap, HashSet};

/// The guide's section on secrets.
const G_SECRETS: &str = "Point of view and hidden information";

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
    for (kind, problem, hint) in zone_kind_problems(&rules.zone_kinds, &rules.zone_kinds) {
        let kinds_at = locator.section("zone_kinds").unwrap_or(0);
        let at = locator.after(kinds_at, kind).unwrap_or(kinds_at);
        let message = format!("zone kind `{kind}`: {problem}");
        problems.push(locator.at(at, message, hint, "Rules"));
    }
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

/// A scene file lowered: the file's model (its texts, and the rows the
/// tables are made of), its rules, the id indexes of its four tables, each
/// zone's neighbours, the rows' references and the story, resolved.
pub(super) struct Lowered {
    pub raw: RawScene,
    pub rules: Rules,
    pub indexes: Indexes,
    pub adjacency: Vec<Vec<usize>>,
    pub refs: Refs,
    pub resolved: Resolved,
}

/// The id indexes of the four tables, built on the file's rows (the tables
/// keep their order).
pub(super) struct Indexes {
    pub zones: IdIndex,
    pub sides: IdIndex,
    pub units: IdIndex,
    pub commanders: IdIndex,
}

/// The file's rows and their indexes: what the walk looks references up in.
struct Rows<'a> {
    raw: &'a RawScene,
    indexes: &'a Indexes,
    zone_kinds: &'a ZoneKinds,
}

impl Lookup for Rows<'_> {
    fn find(&self, table: Table, id: &str) -> Option<usize> {
        let (raw, at) = (self.raw, self.indexes);
        match table {
            Table::Zone => at.zones.find(&raw.zones, id),
            Table::Side => at.sides.find(&raw.sides, id),
            Table::Unit => at.units.find(&raw.units, id),
            Table::Commander => at.commanders.find(&raw.commanders, id),
        }
    }
    fn ids(&self, table: Table) -> Vec<&str> {
        let raw = self.raw;
        match table {
            Table::Zone => raw.zones.iter().map(|z| z.id.as_str()).collect(),
            Table::Side => raw.sides.iter().map(|s| s.id.as_str()).collect(),
            Table::Unit => raw.units.iter().map(|u| u.id.as_str()).collect(),
            Table::Commander => raw.commanders.iter().map(|c| c.id.as_str()).collect(),
        }
    }
    fn zone_kind(&self, zone: usize) -> Option<&ZoneKind> {
        self.raw.zones.get(zone).map(|z| &z.kind)
    }
    fn kind_rules(&self, kind: &ZoneKind) -> Option<&ZoneKindRules> {
        self.zone_kinds.get(kind)
    }
    fn commander_side(&self, commander: usize) -> Option<&str> {
        self.raw.commanders.get(commander).map(|c| c.side.as_str())
    }
    fn drums(&self, commander: usize) -> bool {
        self.raw.commanders.get(commander).is_some_and(|c| c.drums)
    }
}

/// A condition written outside a loaded scene (a test's, a tool's),
/// resolved by the walk that lowers the scene's own: None when it names
/// something the scene lacks or is otherwise not one the file could hold.
pub(super) fn condition(scene: &super::Scene, condition: &Condition) -> Option<Cond> {
    let locator = Locator::new(&scene.file, "");
    let mut checker = Checker::outside(&locator, scene);
    let cond = checker.condition(condition);
    checker.problems.is_empty().then_some(cond)
}

/// An effect written outside a loaded scene, resolved like [`condition`].
pub(super) fn effect(scene: &super::Scene, effect: &Effect) -> Option<Act> {
    let locator = Locator::new(&scene.file, "");
    let mut checker = Checker::outside(&locator, scene);
    let act = checker.effect(effect);
    checker.problems.is_empty().then_some(act)
}

/// Reads, checks and resolves one scene file against the rules.
pub(super) fn scene(file: &str, source: &str, base: &Rules) -> Result<Lowered, Vec<Diagnostic>> {
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
    let indexes = Indexes {
        zones: IdIndex::new(&raw.zones),
        sides: IdIndex::new(&raw.sides),
        units: IdIndex::new(&raw.units),
        commanders: IdIndex::new(&raw.commanders),
    };
    // The scene's own kinds of zone, over (or after) the rules' ones.
    let mut zone_kinds = base.zone_kinds.clone();
    for (kind, of_kind) in raw.zone_kinds.iter() {
        zone_kinds.insert(kind.clone(), of_kind.clone());
    }
    let rows = Rows {
        raw: &raw,
        indexes: &indexes,
        zone_kinds: &zone_kinds,
    };
    let mut checker = Checker::new(&locator, &raw, &rows);
    checker.check_all();
    for zone in &raw.zones {
        if zone_kinds.get(&zone.kind).is_none() {
            let names: Vec<&str> = zone_kinds.iter().map(|(k, _)| k.name()).collect();
            let hint = match closest(zone.kind.name(), names.iter().copied()) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!(
                    "the kinds are {}; a scene declares its own in `zone_kinds`",
                    names.join(", ")
                ),
            };
            checker.anchor_at("zones", &zone.id);
            let message = format!("unknown zone kind `{}`", zone.kind);
            checker.report(&["kind:", zone.kind.name()], message, hint, "Zones");
        }
    }
    for (kind, problem, hint) in zone_kind_problems(&raw.zone_kinds, &zone_kinds) {
        let kinds_at = locator.section("zone_kinds").unwrap_or(0);
        let at = locator.after(kinds_at, kind).unwrap_or(kinds_at);
        let message = format!("zone kind `{kind}`: {problem}");
        checker
            .problems
            .push(locator.at(at, message, hint, "Zones"));
    }
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
        let Checker {
            out: resolved,
            refs,
            adjacency,
            ..
        } = checker;
        rules.zone_kinds = zone_kinds;
        Ok(Lowered {
            raw,
            rules,
            indexes,
            adjacency,
            refs,
            resolved,
        })
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
    /// Where the four tables' ids are looked up.
    names: &'a dyn Lookup,
    problems: Vec<Diagnostic>,
    /// The story as resolved so far; its indexes are built first.
    out: Resolved,
    /// The table rows' references, resolved.
    refs: Refs,
    /// Per zone, its neighbours both ways, sorted, once each.
    adjacency: Vec<Vec<usize>>,
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
    fn new(locator: &'a Locator<'a>, raw: &'a RawScene, names: &'a dyn Lookup) -> Self {
        Checker {
            locator,
            raw,
            names,
            problems: Vec::new(),
            out: declare::story_indexes(raw),
            refs: Refs::default(),
            adjacency: Vec::new(),
            flags: declare::set_flags(raw),
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

    /// A checker for what is written outside the loaded `scene`: it looks
    /// ids up in the scene's tables and story, and allows what text
    /// variants may say.
    fn outside(locator: &'a Locator<'a>, scene: &'a super::Scene) -> Self {
        let mut checker = Checker::new(locator, &scene.raw, scene);
        checker.in_variant = true;
        checker
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
            let retreat = side.retreat.as_ref().map(|zone| self.zone(zone, "Sides"));
            self.refs.side_retreat.push(retreat);
        }
        self.zones_and_graph();
        for commander in &raw.commanders {
            self.anchor_at("commanders", &commander.id);
            self.text(&commander.name, "name");
            let side = self.side(&commander.side, "Commanders");
            let zone = self.zone(&commander.zone, "Commanders");
            self.refs.commander_side.push(side);
            self.refs.commander_zone.push(zone);
            self.range("leadership", commander.leadership, 0.0, 10.0, "Commanders");
        }
        self.default_retreats();
        for unit in &raw.units {
            self.unit(unit);
        }
        self.turning_points();
        for event in &raw.events {
            self.anchor_at("events", &event.id);
            let when = self.condition(&event.when);
            self.audience = Audience::Everyone;
            let text = event.text.as_ref().map(|text| self.prose(text, "text"));
            if event.effects.is_empty() && event.text.is_none() {
                self.report(
                    &["effects:"],
                    format!("event `{}` has no effects and no text", event.id),
                    "an event must change the world or tell something".into(),
                    "Events",
                );
            }
            let effects = event.effects.iter().map(|e| self.effect(e)).collect();
            self.out.events.push(REvent {
                when,
                text,
                effects,
            });
        }
        self.secrets();
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
            let text = prelude.text.as_ref().map(|text| self.prose(text, "text"));
            if prelude.text.is_none() && prelude.effects.is_empty() {
                self.report(
                    &[],
                    "the prelude has no text and no effects".into(),
                    "give it a `text`, some `effects`, or leave it out".into(),
                    "Prelude",
                );
            }
            let effects = prelude.effects.iter().map(|e| self.effect(e)).collect();
            self.out.prelude = Some(RPrelude { text, effects });
        }
        self.endings();
        self.reachability();
        self.audience = Audience::Everyone;
        self.anchor = Anchor::Nothing;
        self.out.intro = self.prose(&raw.meta.intro, "intro");
        for variant in &raw.atmosphere {
            let (when, slots) = self.variant(&variant.when, &variant.text, "atmosphere");
            let claims = self.claims(&variant.claims);
            self.out.atmosphere.push(when);
            self.out.atmosphere_claims.push(claims);
            self.out.atmosphere_slots.push(slots);
        }
    }

    /// A side that names no `retreat` runs to where its first commander
    /// stands (none: its routing men stay where they are).
    fn default_retreats(&mut self) {
        let refs = &mut self.refs;
        for (idx, retreat) in refs.side_retreat.iter_mut().enumerate() {
            if retreat.is_none() {
                *retreat = (refs.commander_side.iter().zip(&refs.commander_zone))
                    .find(|(side, _)| side.idx() == idx)
                    .map(|(_, zone)| *zone);
            }
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
        match self.out.ending(&meta.timeout_ending) {
            Some(ending) => self.out.timeout = ending,
            None => {
                let ids: Vec<&str> = self.raw.endings.iter().map(|e| e.id.as_str()).collect();
                self.unknown("ending", &meta.timeout_ending, &ids, "Meta");
            }
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
            let commander = self.commander(role, "Meta");
            self.out.roles.push(commander);
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

    /// The zone's kind is known, and the zone has what its kind needs to
    /// be crossed: a width to wade or walk, boats to carry men over.
    fn zone_kind(&mut self, zone: &Zone) {
        let kind = &zone.kind;
        // An unknown kind is reported where the scene's kinds are known.
        let Some(does) = self.names.kind_rules(kind) else {
            return;
        };
        let (crossing, id) = (does.crossing, &zone.id);
        if crossing == Crossing::Afoot && zone.width_m <= 0.0 {
            self.report(
                &["kind:"],
                format!("{kind} `{id}` has no width, so no one can cross it"),
                "give it `width_m:` in metres (a ford a few hundred, a bridge a few)".into(),
                "Zones",
            );
        }
        if crossing == Crossing::Boats && zone.boats <= 0.0 {
            self.report(
                &["kind:"],
                format!("{kind} `{id}` has no boats, so no one can cross it"),
                "give it `boats:`, the men its boats carry across in 15 minutes (a ferry a few hundred, a fleet thousands)".into(),
                "Zones",
            );
        }
        if zone.boats > 0.0 && crossing != Crossing::Boats {
            self.report(
                &["boats:"],
                format!("`boats` is for open water, but `{id}` is a {kind}"),
                "make it a kind crossed by boat (`kind: Water`), or take `boats` out (a ford is waded, a bridge walked)"
                    .into(),
                "Zones",
            );
        }
    }

    /// The flags kept from some sides: a flag of the story, sides of the
    /// scene, a belief that is a chance.
    fn secrets(&mut self) {
        let raw = self.raw;
        for secret in &raw.secrets {
            self.anchor_at("secrets", &secret.id);
            let flag = self.flag(&secret.id);
            let hidden_from = (secret.hidden_from.iter())
                .map(|side| self.side(side, G_SECRETS))
                .collect();
            if secret.hidden_from.is_empty() {
                self.report(
                    &["hidden_from:"],
                    format!("secret `{}` is hidden from no side", secret.id),
                    "name the sides that do not know it: `hidden_from: [\"…\"]`".into(),
                    G_SECRETS,
                );
            }
            self.range("belief", secret.belief, 0.0, 1.0, G_SECRETS);
            self.out.secrets.push(RSecret {
                flag,
                hidden_from,
                belief: secret.belief,
            });
        }
    }

    fn zones_and_graph(&mut self) {
        let raw = self.raw;
        self.adjacency = vec![Vec::new(); raw.zones.len()];
        for (idx, zone) in raw.zones.iter().enumerate() {
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
                } else if let Some(other) = self.find(Table::Zone, adjacent, "Zones") {
                    self.adjacency[idx].push(other);
                    self.adjacency[other].push(idx);
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
            self.zone_kind(zone);
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
        for list in &mut self.adjacency {
            list.sort_unstable();
            list.dedup();
        }
        // Reached by id: a repeated id (reported as such) is not also
        // reported as cut off.
        let mut seen = vec![false; raw.zones.len()];
        let mut reached: HashSet<&str> = HashSet::new();
        let mut stack = vec![0];
        while let Some(zone) = stack.pop() {
            if !std::mem::replace(&mut seen[zone], true) {
                reached.insert(&raw.zones[zone].id);
                stack.extend(self.adjacency[zone].iter().copied());
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
        let side = self.side(&unit.side, "Units");
        let zone = self.zone(&unit.zone, "Units");
        self.range("men", f64::from(unit.men), 1.0, 1_000_000.0, "Units");
        self.range("quality", unit.quality, 0.0, 1.0, "Units");
        self.range("morale", unit.morale, 0.0, 100.0, "Units");
        self.range("precedence", f64::from(unit.precedence), 0.0, 9.0, "Units");
        let leader = unit.leader.as_ref().map(|leader| {
            let commander = self.commander(leader, "Units");
            if let Some(side) = self.names.commander_side(commander.idx())
                && side != unit.side
            {
                self.report(
                    &[&format!("\"{leader}\"")],
                    format!("unit `{}` is led by `{leader}` of the other side", unit.id),
                    "a leader must be on the unit's side".into(),
                    "Units",
                );
            }
            commander
        });
        let order = self.order(&unit.order, "Units");
        let retreat = unit.retreat.as_ref().map(|zone| self.zone(zone, "Units"));
        let refs = &mut self.refs;
        refs.unit_side.push(side);
        refs.unit_zone.push(zone);
        refs.unit_leader.push(leader);
        refs.unit_order.push(order);
        refs.unit_retreat.push(retreat);
    }

    /// A standing order, its zone looked up.
    fn order(&mut self, order: &Order, guide: &'static str) -> ROrder {
        match order {
            Order::Hold => ROrder::Hold,
            Order::MoveTo(zone) => ROrder::MoveTo(self.zone(zone, guide)),
            Order::Pursue => ROrder::Pursue,
        }
    }

    /// The index of the item `id` of `table`; None, reported with the
    /// nearest id as a hint, when the table has no such item.
    fn find(&mut self, table: Table, id: &str, guide: &'static str) -> Option<usize> {
        let found = self.names.find(table, id);
        if found.is_none() {
            let mut ids = self.names.ids(table);
            ids.sort_unstable();
            self.unknown(table.word(), id, &ids, guide);
        }
        found
    }

    // A reference that does not resolve is reported and stands for no item
    // (an index past every table): the scene is refused, so none is read.
    fn zone(&mut self, id: &str, guide: &'static str) -> ZoneId {
        self.find(Table::Zone, id, guide)
            .map_or(ZoneId(u32::MAX), ZoneId::at)
    }
    fn side(&mut self, id: &str, guide: &'static str) -> SideId {
        self.find(Table::Side, id, guide)
            .map_or(SideId(u32::MAX), SideId::at)
    }
    fn unit_id(&mut self, id: &str, guide: &'static str) -> UnitId {
        self.find(Table::Unit, id, guide)
            .map_or(UnitId(u32::MAX), UnitId::at)
    }
    fn commander(&mut self, id: &str, guide: &'static str) -> CommanderId {
        self.find(Table::Commander, id, guide)
            .map_or(CommanderId(u32::MAX), CommanderId::at)
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

/// What is wrong with the kinds of zone `these` (a file's), among `all`
/// the scene knows: a mark is one character one column wide, and a mark
/// says in the legend what it stands for (once, by any kind that has it).
fn zone_kind_problems<'a>(these: &'a ZoneKinds, all: &ZoneKinds) -> Vec<(&'a str, String, String)> {
    use unicode_width::UnicodeWidthStr;
    let mut out = Vec::new();
    for (kind, of_kind) in these.iter() {
        let mark = &of_kind.mark;
        if mark.chars().count() > 1 || (!mark.is_empty() && mark.width() != 1) {
            out.push((
                kind.name(),
                format!("its `mark` \"{mark}\" is not one character one column wide"),
                "give one character, like \"≈\", \"#\" or \"▲\", or \"\" for none".to_string(),
            ));
        }
        let told = |rules: &ZoneKindRules| match &rules.legend {
            Text::Plain(text) => !text.trim().is_empty(),
            Text::Localized(map) => REQUIRED_LOCALES
                .iter()
                .all(|l| map.get(l).is_some_and(|t| !t.trim().is_empty())),
        };
        let legend = all
            .iter()
            .any(|(_, other)| !mark.is_empty() && other.mark == *mark && told(other));
        if !mark.is_empty() && !legend {
            out.push((
                kind.name(),
                format!("its mark \"{mark}\" has no `legend` in en and zh-Hans"),
                "say what it stands for on the map: `legend: {\"en\": \"…\", \"zh-Hans\": \"…\"}`"
                    .to_string(),
            ));
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
