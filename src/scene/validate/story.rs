//! The story's part of the check: turning points, endings, what can be
//! reached, every condition, effect and text, and the placeholders in them.

use super::*;

/// Every flag a `SetFlag` effect of the scene sets.
pub(super) fn set_flags(raw: &RawScene) -> HashSet<&str> {
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

/// The turning points and events that can happen, as far as the checker can tell.
#[derive(Default)]
pub(super) struct Reachable<'a> {
    points: HashSet<&'a str>,
    events: HashSet<&'a str>,
}

/// The span of a battle, in turns and clock minutes.
pub(super) struct Limits<'a> {
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

/// Whether a variant's condition says whose eyes it is for (`Playing`,
/// `PlayerSide`, alone or among the items of an `All`).
pub(super) fn names_the_reader(when: &Condition) -> bool {
    match when {
        Condition::Playing(_) | Condition::PlayerSide(_) => true,
        Condition::All(items) => items.iter().any(names_the_reader),
        _ => false,
    }
}

impl<'a> Checker<'a> {
    pub(super) fn turning_points(&mut self) {
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
    pub(super) fn reachability(&mut self) {
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

    pub(super) fn endings(&mut self) {
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
    pub(super) fn prose(&mut self, prose: &'a Prose, field: &str) {
        for ((when, text), claims) in prose.variants().into_iter().zip(prose.claims()) {
            self.variant(when, text, field);
            self.claims(claims);
        }
    }

    /// What a text claims: conditions like any other, the reader's among
    /// them (a text may claim what its reader sees).
    pub(super) fn claims(&mut self, claims: &'a [Condition]) {
        self.in_variant = true;
        for claim in claims {
            self.condition(claim);
        }
        self.in_variant = false;
    }

    pub(super) fn variant(&mut self, when: &'a Condition, text: &'a Text, field: &str) {
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
    pub(super) fn placeholder_problem(&self, inside: &str) -> Option<String> {
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

    pub(super) fn condition(&mut self, condition: &'a Condition) {
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
            Condition::WindToward(points) | Condition::WindFrom(points) => {
                if points.is_empty() {
                    let name = match condition {
                        Condition::WindFrom(_) => "WindFrom([",
                        _ => "WindToward([",
                    };
                    self.report(
                        &[name],
                        "a wind direction condition with no points never holds".to_string(),
                        "name one point or more, e.g. WindFrom([SouthEast, East])".into(),
                        "Conditions and effects",
                    );
                }
            }
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
                    && !kind.is_crossing()
                {
                    self.report(
                        &[&format!("\"{zone}\"")],
                        format!("`SideCrossed` counts men through a ford, bridge or water, but `{zone}` is a {kind:?}"),
                        "name a zone of kind Ford, Bridge or Water, or use `SideMenIn`".into(),
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
                self.point_of_view(condition, role)
            }
            Condition::Fallen(commander) => {
                self.reference("commander", commander, "Conditions and effects")
            }
            Condition::Obscured { zone, by, cmp } => {
                self.reference("zone", zone, "Conditions and effects");
                self.obscurant(by);
                self.cmp(cmp);
            }
            Condition::TurnsSince(id, cmp) => self.turns_since(id, cmp),
        }
    }

    /// `Playing` and `PlayerSide`: for story text only, naming a playable
    /// role or a side.
    fn point_of_view(&mut self, condition: &Condition, role: &str) {
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
            let playable: Vec<&str> = self.raw.meta.playable.iter().map(String::as_str).collect();
            if !playable.contains(&role) {
                self.unknown("playable role", role, &playable, "Point of view");
            }
        } else {
            self.reference("side", role, "Conditions and effects");
        }
    }

    /// `TurnsSince`: the id of a flag, an event or a turning point.
    fn turns_since(&mut self, id: &str, cmp: &Cmp) {
        self.cmp(cmp);
        let known =
            self.events.contains(id) || self.options.contains_key(id) || self.flags.contains(id);
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

    pub(super) fn cmp(&mut self, cmp: &Cmp) {
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

    pub(super) fn target(&mut self, target: &'a Target) {
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

    pub(super) fn effect(&mut self, effect: &'a Effect) {
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
    pub(super) fn obscurant(&mut self, id: &str) {
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
}
