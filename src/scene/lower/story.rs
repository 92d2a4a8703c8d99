//! The story's part of the check: turning points, endings, what can be
//! reached, every condition, effect and text, and the placeholders in them.

use super::*;

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
            let when = self.condition(&tp.when);
            self.audience = Audience::Chooser;
            let situation = self.prose(&tp.situation, "situation");
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
            let mut options = Vec::with_capacity(tp.options.len());
            for (idx, option) in tp.options.iter().enumerate() {
                let choice = self.option(tp, idx, option, &mut option_ids);
                options.push(choice);
            }
            // A role that is no commander is reported with the playable ones.
            let role = (self.names.find(Table::Commander, &tp.role))
                .map_or(CommanderId(u32::MAX), CommanderId::at);
            self.out.turning_points.push(RTurningPoint {
                when,
                role,
                situation,
                options,
                historical: tp.options.iter().position(|o| o.historical).unwrap_or(0),
            });
        }
    }

    /// The `idx`th option of `tp`, checked and resolved (`option_ids`: the
    /// ids of the options before it).
    fn option(
        &mut self,
        tp: &'a TurningPoint,
        idx: usize,
        option: &'a Choice,
        option_ids: &mut HashSet<&'a str>,
    ) -> RChoice {
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
        let claims = self.claims(&option.claims);
        let narration = self.prose(&option.narration, "narration");
        let perceived = option.perceived.as_ref().map(|perceived| {
            self.audience = Audience::Others;
            let told = self.prose(perceived, "perceived");
            self.audience = Audience::Chooser;
            told
        });
        if option.effects.is_empty() {
            self.report(
                &[&needle],
                format!("option `{}` of `{}` has no effects", option.id, tp.id),
                "a choice must change the world: add an effect (a `Narrate` alone is not enough)"
                    .into(),
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
                "a choice must change the world: give it an effect besides `Narrate`".into(),
                "Turning points",
            );
        }
        let effects = option.effects.iter().map(|e| self.effect(e)).collect();
        RChoice {
            claims,
            narration,
            perceived,
            effects,
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
            let text = self.prose(&ending.text, "text");
            let summary = self.prose(&ending.summary, "summary");
            let history = (ending.history.as_ref()).map(|history| self.prose(history, "history"));
            let when = self.condition(&ending.when);
            self.out.endings.push(REnding {
                when,
                text,
                summary,
                history,
            });
        }
    }

    /// Story text: each variant's condition and text, its placeholders, and
    /// the point-of-view rule for text every role reads.
    pub(super) fn prose(&mut self, prose: &'a Prose, field: &str) -> Variants {
        let mut out = Variants::default();
        for ((when, text), claims) in prose.variants().into_iter().zip(prose.claims()) {
            let (when, slots) = self.variant(when, text, field);
            out.when.push(when);
            out.claims.push(self.claims(claims));
            out.slots.push(slots);
        }
        out
    }

    /// What a text claims: conditions like any other, the reader's among
    /// them (a text may claim what its reader sees).
    pub(super) fn claims(&mut self, claims: &'a [Condition]) -> Vec<Cond> {
        let was = std::mem::replace(&mut self.in_variant, true);
        let out = claims.iter().map(|claim| self.condition(claim)).collect();
        self.in_variant = was;
        out
    }

    /// A text variant: its condition, and its placeholders resolved.
    pub(super) fn variant(
        &mut self,
        when: &'a Condition,
        text: &'a Text,
        field: &str,
    ) -> (Cond, Slots) {
        let was = std::mem::replace(&mut self.in_variant, true);
        let cond = self.condition(when);
        self.in_variant = was;
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
        (cond, super::super::resolved::slots(self.names, text))
    }

    /// Why a `{placeholder}` cannot be filled, or None when it can.
    pub(super) fn placeholder_problem(&self, inside: &str) -> Option<String> {
        use placeholder::Placeholder as P;
        let Some(parsed) = P::parse(inside) else {
            return Some(format!("unknown placeholder `{{{inside}}}`"));
        };
        let ok = super::super::resolved::slot(self.names, parsed).is_some();
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

    /// A condition, checked and resolved: one that names what the scene
    /// lacks is reported, and stands as `Never`.
    pub(super) fn condition(&mut self, condition: &'a Condition) -> Cond {
        const G: &str = "Conditions and effects";
        match condition {
            Condition::Always => Cond::Always,
            Condition::Never => Cond::Never,
            Condition::Chance(p) => {
                if !p.is_finite() || !(0.0..=1.0).contains(p) {
                    self.report(
                        &["Chance("],
                        format!("`Chance({p})` is not a probability"),
                        "use a number between 0 and 1, e.g. Chance(0.3) for three times in ten"
                            .into(),
                        G,
                    );
                }
                Cond::Chance(*p)
            }
            Condition::All(items) => Cond::All(items.iter().map(|c| self.condition(c)).collect()),
            Condition::Any(items) => Cond::Any(items.iter().map(|c| self.condition(c)).collect()),
            Condition::Not(item) => Cond::Not(Box::new(self.condition(item))),
            Condition::Turn(cmp) => Cond::Turn(self.cmp(cmp)),
            Condition::Minute(cmp) => Cond::Minute(self.cmp(cmp)),
            Condition::Wind(cmp) => Cond::Wind(self.cmp(cmp)),
            Condition::WindToward(points) | Condition::WindFrom(points) => {
                self.wind(points, matches!(condition, Condition::WindFrom(_)))
            }
            Condition::Chosen { tp, option } => self.chosen(tp, option),
            Condition::Reached(tp) => match self.out.tp(tp) {
                Some(id) => Cond::Reached(id),
                None => {
                    self.unknown_tp(tp);
                    Cond::Never
                }
            },
            Condition::Happened(event) => match self.out.event(event) {
                Some(id) => Cond::Happened(id),
                None => {
                    let ids: Vec<&str> = self.raw.events.iter().map(|e| e.id.as_str()).collect();
                    self.unknown("event", event, &ids, G);
                    Cond::Never
                }
            },
            Condition::Flag(flag) => Cond::Flag(self.flag(flag)),
            Condition::UnitState { unit, is } => Cond::UnitState {
                unit: self.unit_id(unit, G),
                is: is.clone(),
            },
            Condition::UnitIn { unit, zone } => Cond::UnitIn {
                unit: self.unit_id(unit, G),
                zone: self.zone(zone, G),
            },
            Condition::UnitMen { unit, cmp } => Cond::UnitMen {
                unit: self.unit_id(unit, G),
                cmp: self.cmp(cmp),
            },
            Condition::UnitMorale { unit, cmp } => Cond::UnitMorale {
                unit: self.unit_id(unit, G),
                cmp: self.cmp(cmp),
            },
            Condition::CommanderIn { commander, zone } => Cond::CommanderIn {
                commander: self.commander(commander, G),
                zone: self.zone(zone, G),
            },
            Condition::SideStrength { side, cmp } => Cond::SideStrength {
                side: self.side(side, G),
                cmp: self.cmp(cmp),
            },
            Condition::SideLosses { side, cmp } => Cond::SideLosses {
                side: self.side(side, G),
                cmp: self.cmp(cmp),
            },
            Condition::SideRouting { side, cmp } => Cond::SideRouting {
                side: self.side(side, G),
                cmp: self.cmp(cmp),
            },
            Condition::SideMenIn { side, zone, cmp } => Cond::SideMenIn {
                side: self.side(side, G),
                zone: self.zone(zone, G),
                cmp: self.cmp(cmp),
            },
            Condition::SideCrossed { side, zone, cmp } => {
                let side = self.side(side, G);
                let at = self.zone(zone, G);
                let cmp = self.cmp(cmp);
                if let Some(kind) = self.names.zone_kind(at.idx())
                    && self
                        .names
                        .kind_rules(kind)
                        .is_some_and(|k| !k.is_crossing())
                {
                    let kind = kind.clone();
                    self.report(
                        &[&format!("\"{zone}\"")],
                        format!("`SideCrossed` counts men through a ford, bridge or water, but `{zone}` is a {kind}"),
                        "name a zone of a kind that is a crossing (Ford, Bridge, Water), or use `SideMenIn`".into(),
                        G,
                    );
                }
                Cond::SideCrossed {
                    side,
                    zone: at,
                    cmp,
                }
            }
            Condition::Smoke { zone, cmp } => Cond::Smoke {
                zone: self.zone(zone, G),
                cmp: self.cmp(cmp),
            },
            Condition::Fire { zone, cmp } => Cond::Fire {
                zone: self.zone(zone, G),
                cmp: self.cmp(cmp),
            },
            Condition::Passable(zone) => Cond::Passable(self.zone(zone, G)),
            Condition::Sees { side, zone } => Cond::Sees {
                side: self.side(side, G),
                zone: self.zone(zone, G),
            },
            Condition::Playing(role) => {
                self.story_text_only("Playing");
                let playable = &self.raw.meta.playable;
                match playable.iter().position(|r| r == role) {
                    Some(idx) => Cond::Playing(RoleId::at(idx)),
                    None => {
                        let ids: Vec<&str> = playable.iter().map(String::as_str).collect();
                        self.unknown("playable role", role, &ids, "Point of view");
                        Cond::Never
                    }
                }
            }
            Condition::PlayerSide(side) => {
                self.story_text_only("PlayerSide");
                Cond::PlayerSide(self.side(side, G))
            }
            Condition::Fallen(commander) => Cond::Fallen(self.commander(commander, G)),
            Condition::Obscured { zone, by, cmp } => Cond::Obscured {
                zone: self.zone(zone, G),
                by: self.obscurant(by),
                cmp: self.cmp(cmp),
            },
            Condition::TurnsSince(id, cmp) => self.turns_since(id, cmp),
        }
    }

    /// `Chosen`: an option of a turning point, both the scene's.
    fn chosen(&mut self, tp: &str, option: &str) -> Cond {
        let Some(id) = self.out.tp(tp) else {
            self.unknown_tp(tp);
            return Cond::Never;
        };
        let Some(tp_found) = self.raw.turning_points.get(id.idx()) else {
            self.unknown_tp(tp);
            return Cond::Never;
        };
        let options = &tp_found.options;
        match options.iter().position(|o| o.id == *option) {
            Some(found) => Cond::Chosen {
                tp: id,
                option: u32::try_from(found).unwrap_or(u32::MAX),
            },
            None => {
                let ids: Vec<&str> = options.iter().map(|o| o.id.as_str()).collect();
                self.unknown("option", option, &ids, "Conditions and effects");
                Cond::Never
            }
        }
    }

    /// `WindToward` and `WindFrom` (`from`): a mask of the points the wind
    /// blows toward, the opposite ones for `WindFrom`.
    fn wind(&mut self, points: &[Compass], from: bool) -> Cond {
        if points.is_empty() {
            self.report(
                &[if from { "WindFrom([" } else { "WindToward([" }],
                "a wind direction condition with no points never holds".to_string(),
                "name one point or more, e.g. WindFrom([SouthEast, East])".into(),
                "Conditions and effects",
            );
        }
        Cond::WindToward(points.iter().fold(0, |mask, p| {
            let toward = if from { p.opposite() } else { *p };
            mask | 1 << toward.clockwise_index()
        }))
    }

    /// `Playing` and `PlayerSide` are for story text only.
    fn story_text_only(&mut self, word: &str) {
        if !self.in_variant {
            self.report(
                &[&format!("{word}(")],
                format!("`{word}` is for story text only"),
                "the battle runs the same whoever plays it: use it in a text variant's `when`, not in an event, turning point or ending".into(),
                "Point of view",
            );
        }
    }

    fn unknown_tp(&mut self, tp: &str) {
        let raw = self.raw;
        let ids: Vec<&str> = raw.turning_points.iter().map(|t| t.id.as_str()).collect();
        self.unknown("turning point", tp, &ids, "Conditions and effects");
    }

    /// A flag: any name the scene sets, clears or reads (all declared).
    pub(super) fn flag(&mut self, flag: &str) -> FlagId {
        self.out.flag(flag).unwrap_or_else(|| {
            let flags = self.out.flags.clone();
            let ids: Vec<&str> = flags.iter().map(String::as_str).collect();
            self.unknown("flag", flag, &ids, "Conditions and effects");
            FlagId(u32::MAX)
        })
    }

    /// `TurnsSince`: the id of a flag, an event or a turning point.
    fn turns_since(&mut self, id: &str, cmp: &Cmp) -> Cond {
        let cmp = self.cmp(cmp);
        let raw = self.raw;
        let known =
            self.out.event(id).is_some() || self.out.tp(id).is_some() || self.flags.contains(id);
        match self.out.watch(id) {
            Some(watch) if known => Cond::TurnsSince(watch, cmp),
            _ => {
                let mut ids: Vec<&str> = (raw.events.iter().map(|e| e.id.as_str()))
                    .chain(raw.turning_points.iter().map(|t| t.id.as_str()))
                    .chain(self.flags.iter().copied())
                    .collect();
                ids.sort_unstable();
                ids.dedup();
                self.unknown(
                    "flag, event or turning point",
                    id,
                    &ids,
                    "Conditions and effects",
                );
                Cond::Never
            }
        }
    }

    /// A comparison, which must be with a finite number.
    pub(super) fn cmp(&mut self, cmp: &Cmp) -> Cmp {
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
        *cmp
    }

    pub(super) fn target(&mut self, target: &'a Target) -> Targets {
        const G: &str = "Conditions and effects";
        match target {
            Target::Unit(unit) => Targets::Units(vec![self.unit_id(unit, G)]),
            Target::Units(units) => {
                let mut list: Vec<UnitId> = units.iter().map(|u| self.unit_id(u, G)).collect();
                list.sort_unstable();
                list.dedup();
                Targets::Units(list)
            }
            Target::Side(side) => Targets::Side(self.side(side, G)),
            Target::SideIn { side, zone } => Targets::SideIn {
                side: self.side(side, G),
                zone: self.zone(zone, G),
            },
            Target::Zone(zone) => Targets::Zone(self.zone(zone, G)),
        }
    }

    /// An effect, checked and resolved.
    pub(super) fn effect(&mut self, effect: &'a Effect) -> Act {
        const G: &str = "Conditions and effects";
        match effect {
            Effect::Order { target, order } => Act::Order {
                targets: self.target(target),
                order: self.order(order, G),
            },
            Effect::Morale { target, delta } => {
                let targets = self.target(target);
                self.range("delta", *delta, -100.0, 100.0, G);
                Act::Morale {
                    targets,
                    delta: *delta,
                }
            }
            Effect::Rumor {
                zone,
                claim,
                credibility,
                cry,
            } => {
                let zone = self.zone(zone, G);
                let (Claim::Routed(side) | Claim::Victorious(side)) = claim;
                let about = self.side(side, G);
                self.range("credibility", *credibility, 0.0, 1.0, G);
                self.text(cry, "cry");
                Act::Rumor {
                    zone,
                    about,
                    routed: matches!(claim, Claim::Routed(_)),
                    credibility: *credibility,
                }
            }
            Effect::Fire { zone, intensity } => {
                let zone = self.zone(zone, G);
                self.range("intensity", *intensity, 0.0, 1.0, G);
                Act::Fire {
                    zone,
                    intensity: *intensity,
                }
            }
            Effect::Smoke { zone, level } => {
                let zone = self.zone(zone, G);
                self.range("level", *level, 0.0, 1.0, G);
                Act::Smoke {
                    zone,
                    level: *level,
                }
            }
            Effect::Wind { strength, toward } => {
                self.range("strength", *strength, 0.0, 1.0, G);
                Act::Wind {
                    strength: *strength,
                    toward: *toward,
                }
            }
            Effect::Drums { commander, turns } => {
                let id = self.commander(commander, G);
                self.range("turns", f64::from(*turns), 1.0, 1000.0, G);
                if let Some(idx) = self.names.find(Table::Commander, commander)
                    && !self.names.drums(idx)
                {
                    self.report(
                        &[&format!("\"{commander}\"")],
                        format!("commander `{commander}` has no drums"),
                        "set `drums: true` on the commander".into(),
                        G,
                    );
                }
                Act::Drums {
                    commander: id,
                    turns: *turns,
                }
            }
            Effect::CommanderTo { commander, zone } => Act::CommanderTo {
                commander: self.commander(commander, G),
                zone: self.zone(zone, G),
            },
            Effect::Casualties { target, share } => {
                let targets = self.target(target);
                self.range("share", *share, 0.0, 1.0, G);
                Act::Casualties {
                    targets,
                    share: *share,
                }
            }
            Effect::Surrender(unit) => Act::Surrender(self.unit_id(unit, G)),
            Effect::Arrive(unit) => Act::Arrive(self.unit_id(unit, G)),
            Effect::Destroy { zone, share } => {
                let zone = self.zone(zone, G);
                self.range("share", *share, 0.0, 1.0, G);
                Act::Destroy {
                    zone,
                    share: *share,
                }
            }
            Effect::WetCloth(side) => Act::WetCloth(self.side(side, G)),
            Effect::Fall { commander, fate } => Act::Fall {
                commander: self.commander(commander, G),
                fate: *fate,
            },
            Effect::Obscure { zones, by, level } => {
                let zones = zones.iter().map(|zone| self.zone(zone, G)).collect();
                let by = self.obscurant(by);
                self.range("level", *level, 0.0, 1.0, G);
                Act::Obscure {
                    zones,
                    by,
                    level: *level,
                }
            }
            Effect::ChangeSide { who, side } => {
                let side = self.side(side, G);
                let commander = self.names.find(Table::Commander, who).map(CommanderId::at);
                let unit = self.names.find(Table::Unit, who).map(UnitId::at);
                if self.raw.meta.playable.contains(who) {
                    self.report(
                        &[&format!("\"{who}\"")],
                        format!("`{who}` is a playable role and cannot change side"),
                        "change the side of the units he leads instead, or of another commander"
                            .into(),
                        G,
                    );
                } else if commander.is_none() && unit.is_none() {
                    let mut ids = self.names.ids(Table::Unit);
                    ids.extend(self.names.ids(Table::Commander));
                    ids.sort_unstable();
                    self.unknown("unit or commander", who, &ids, G);
                }
                Act::ChangeSide {
                    commander,
                    unit,
                    side,
                }
            }
            Effect::SetFlag(flag) => Act::SetFlag(self.flag(flag)),
            Effect::ClearFlag(flag) => Act::ClearFlag(self.flag(flag)),
            Effect::Narrate(text) => Act::Narrate(self.prose(text, "Narrate")),
        }
    }

    /// An obscurant must be one the scene declares.
    pub(super) fn obscurant(&mut self, id: &str) -> ObscurantId {
        if let Some(idx) = self.raw.obscurants.keys().position(|key| key == id) {
            return ObscurantId::at(idx);
        }
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
        ObscurantId(u32::MAX)
    }
}
