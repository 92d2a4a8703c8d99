//! Telling the story: a text chosen among its variants for the reader, its
//! placeholders filled from the world, the claims it makes checked, the
//! atmosphere and the situation.

use super::*;

/// A text's id in the [`Audit`]: `ITEM.FIELD`, with `[k]` for the `k`th
/// variant of a list.
pub fn text_id(item: &str, field: &str, prose: &Prose, k: usize) -> String {
    match prose {
        Prose::Variants(_) => format!("{item}.{field}[{k}]"),
        Prose::One(_) => format!("{item}.{field}"),
    }
}

/// A uniform number in [0, 1) fixed by the seed, the turn, the item and the
/// probability asked: chance in conditions without drawing from any stream,
/// so reading a condition twice gives the same answer and replays are exact.
pub(super) fn luck(seed: u64, turn: u32, owner: &str, p: f64) -> f64 {
    // The FNV-1a of `content_hash` over the key's text
    // ("{seed}:{turn}:{owner}:{bits of p}"), hashed as it is written: no
    // string built.
    let mut fnv = crate::stdx::Fnv::default();
    fnv.number(seed);
    fnv.bytes(b":");
    fnv.number(u64::from(turn));
    fnv.bytes(b":");
    fnv.bytes(owner.as_bytes());
    fnv.bytes(b":");
    fnv.number(p.to_bits());
    let mixed = crate::sim::rng::first_unit(fnv.0);
    mixed.clamp(0.0, 1.0)
}

/// Whose text is being told: the player's side's, the other side's (only
/// what it perceived reaches the player), or an event's (everyone's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Voice {
    Own,
    Other,
    Event,
    /// An event whose text told the player nothing (none written, or no
    /// variant held): a cry it raises is heard by whoever is near.
    Unspoken,
}

/// The side with the most fighting men in the zone, if any stand there.
/// A figure of the played side's picture as a placeholder's value.
pub(super) fn reckoned(reckoning: crate::picture::Reckoning) -> Arg {
    use crate::picture::Reckoning;
    match reckoning {
        Reckoning::About(n) => Arg::About(n),
        Reckoning::Rough(n) => Arg::Rough(n),
        Reckoning::Unknown => Arg::Unknown,
    }
}

impl Game {
    /// Whether the player's side has men or its commander in the zone or next to it.
    pub(super) fn within_earshot(&mut self, zone: ZoneId) -> bool {
        let zone = zone.idx();
        let side = self.role_side();
        let near = |z: usize| z == zone || self.scene.adjacent(zone).contains(&z);
        self.battle.refresh_facts();
        let facts = self.battle.facts();
        let field = self.battle.field();
        let units = facts
            .units
            .iter()
            .zip(&field.units)
            .any(|(u, info)| info.side == side && u.present && near(u.zone));
        units
            || facts
                .commanders
                .iter()
                .any(|c| c.side == side && near(c.zone))
    }

    /// Tells the scene's introduction now: the first variant whose condition
    /// holds, its placeholders' values taken from the world as it is (its
    /// conditions and placeholders were resolved at load). None when no
    /// variant holds or the text is empty.
    pub fn tell_intro(&mut self) -> Option<Told> {
        let scene = Arc::clone(&self.scene);
        let intro = &scene.meta().intro;
        let told = self.tell_variants(intro, &scene.resolved().intro, "intro", |k| {
            text_id("meta", "intro", intro, k)
        });
        // No effects follow: the word is of the units as they were told.
        self.told_units.clear();
        told
    }

    /// Tells story text by the prose's variants, their conditions resolved. `id`
    /// names the text told (the variant's index given) for the audit (see
    /// [`Audit`]): called only by an audited game.
    pub(super) fn tell_variants(
        &mut self,
        prose: &Prose,
        variants: &Variants,
        owner: &str,
        id: impl FnOnce(usize) -> String,
    ) -> Option<Told> {
        self.tell_variant(prose, variants, owner, id)
            .map(|(_, told)| told)
    }

    /// [`Game::tell_variants`], with the index of the variant told.
    pub(super) fn tell_variant(
        &mut self,
        prose: &Prose,
        variants: &Variants,
        owner: &str,
        id: impl FnOnce(usize) -> String,
    ) -> Option<(usize, Told)> {
        if !self.tells {
            return None;
        }
        self.battle.refresh_facts();
        let facts = self.battle.facts();
        let (k, text) = prose
            .variants()
            .into_iter()
            .zip(&variants.when)
            .enumerate()
            .find(|(_, (_, when))| self.check(when, facts, owner))
            .map(|(k, ((_, text), _))| (k, text.clone()))?;
        if text.get(crate::scene::Locale::En).is_empty() && text.tags().is_empty() {
            return None;
        }
        let label = self.audit.is_some().then(|| id(k));
        if let Some(label) = &label {
            let raw = prose.claims().get(k).copied().unwrap_or(&[]);
            let resolved = variants.claims.get(k).map(Vec::as_slice).unwrap_or(&[]);
            let failed = self.false_claims(raw, resolved, owner);
            let turn = self.turn();
            if let Some(audit) = self.audit.as_deref_mut() {
                audit.told.insert(label.clone());
                audit
                    .false_claims
                    .extend(failed.into_iter().map(|claim| FalseClaim {
                        text: label.clone(),
                        claim,
                        turn,
                    }));
            }
        }
        if let Some(claims) = variants.claims.get(k) {
            self.hear_claims(claims);
        }
        let slots = variants.slots.get(k).map_or(&[][..], Vec::as_slice);
        Some((k, self.fill(text, slots, label)))
    }

    /// A text told says where enemy units stand (its claims, each a
    /// `UnitIn` of the other side's unit that holds now): the commander has
    /// that word, as a scout's report of this turn. One that says a
    /// commander has fallen (a `Fallen` that holds) is the word of his fall
    /// (`Picture::hear_fall`); one that says an own unit's state (a
    /// `UnitState` or `UnitMorale` that holds) the word of that unit
    /// (`Picture::hear_unit`). A claim `All` of claims says each of them
    /// (each is word if it holds); `Any` and `Not` say none for certain.
    /// An ending's history tells nobody anything.
    fn hear_claims(&mut self, claims: &[Cond]) {
        if self.truth_told {
            return;
        }
        self.battle.refresh_facts();
        // The world's view is taken only for a claim that holds (the facts
        // say which do): a text whose claims say nothing true takes none.
        let mut world: Option<Arc<WorldState>> = None;
        let mut said: Vec<&Cond> = claims.iter().rev().collect();
        while let Some(claim) = said.pop() {
            if let Cond::All(each) = claim {
                said.extend(each.iter().rev());
                continue;
            }
            if let Cond::Fallen(commander) = claim
                && (self.battle.facts().commanders)
                    .get(commander.idx())
                    .is_some_and(|c| c.fallen)
                && !self.picture.falls_told.contains(&commander.idx())
            {
                let world = world.get_or_insert_with(|| self.battle.view());
                self.known = None;
                self.looked = None;
                Arc::make_mut(&mut self.picture).hear_fall(world, commander.idx());
            }
            if let Cond::UnitState { unit, .. } | Cond::UnitMorale { unit, .. } = claim
                && self.check_item(claim, self.battle.facts(), "claims")
            {
                let world = world.get_or_insert_with(|| self.battle.view());
                self.known = None;
                self.looked = None;
                Arc::make_mut(&mut self.picture).hear_unit(self.battle.field(), world, unit.idx());
                if self.picture.units_told.contains(&unit.idx())
                    && !self.told_units.contains(&unit.idx())
                {
                    self.told_units.push(unit.idx());
                }
            }
            if let Cond::UnitIn { unit, zone } = claim
                && (self.battle.facts().units)
                    .get(unit.idx())
                    .is_some_and(|u| u.present && u.zone == zone.idx())
            {
                let world = world.get_or_insert_with(|| self.battle.view());
                self.known = None;
                self.looked = None;
                Arc::make_mut(&mut self.picture).hear_word(
                    self.battle.field(),
                    world,
                    self.seed,
                    unit.idx(),
                );
            }
        }
    }

    /// The effects of an item whose text told of own units are done: what
    /// they did to those units is what the text tells of them, part of its
    /// word (`Picture::hear_effects`). What changes after (another item's
    /// effects, a choice's) reaches the commander as any word does.
    pub(super) fn tell_effects_done(&mut self) {
        if self.told_units.is_empty() {
            return;
        }
        let world = self.battle.view();
        let units = std::mem::take(&mut self.told_units);
        self.known = None;
        self.looked = None;
        let picture = Arc::make_mut(&mut self.picture);
        for unit in units {
            picture.hear_effects(self.battle.field(), &world, unit);
        }
    }

    /// `text` with its placeholders' values now; an audited game notes
    /// under `label` each placeholder that has none (a text that would
    /// print a hole).
    pub(super) fn fill(
        &mut self,
        text: Text,
        slots: &[(String, Option<Slot>)],
        label: Option<String>,
    ) -> Told {
        let world = self.battle.view();
        let mut args = Vec::new();
        let mut empty = Vec::new();
        for (inside, slot) in slots {
            match slot.and_then(|slot| self.placeholder_value(slot, &world)) {
                Some(value) => args.push((inside.clone(), value)),
                None => empty.push(inside.as_str()),
            }
        }
        if let (Some(label), Some(audit)) = (label, self.audit.as_deref_mut()) {
            let turn = world.turn;
            audit.empty_placeholders.extend(
                empty
                    .into_iter()
                    .map(|inside| (label.clone(), format!("{{{inside}}}"), turn)),
            );
        }
        Told { text, args }
    }

    /// The claims among `raw` (resolved as `resolved`) that do not hold
    /// now, as the scene writes them.
    pub(super) fn false_claims(
        &mut self,
        raw: &[Condition],
        resolved: &[Cond],
        owner: &str,
    ) -> Vec<String> {
        if resolved.is_empty() {
            return Vec::new();
        }
        self.battle.refresh_facts();
        let facts = self.battle.facts();
        raw.iter()
            .zip(resolved)
            .filter(|(_, claim)| !self.check(claim, facts, owner))
            .map(|(raw, _)| ron::to_string(raw).unwrap_or_else(|_| format!("{raw:?}")))
            .collect()
    }

    /// Lines for a quiet turn: the scene's atmosphere variants that hold
    /// now, as (index in the scene's list, text told), starting at a place
    /// that moves with the turn so consecutive quiet turns vary. Every one
    /// is told (its claims heard): for a check of the scene's texts; a
    /// player is told one, by [`Game::atmosphere_line`].
    pub fn atmosphere(&mut self) -> Vec<(usize, Told)> {
        let lines = (self.atmosphere_holding().into_iter())
            .filter_map(|i| self.tell_atmosphere(i).map(|t| (i, t)))
            .collect();
        self.told_units.clear();
        lines
    }

    /// The one line of atmosphere a player is told: the first of
    /// [`Game::atmosphere`]'s order that is `fresh` (not told lately) and
    /// has words. Only it is told: a line the player never reads brings
    /// the commander no word.
    pub fn atmosphere_line(&mut self, fresh: impl Fn(usize) -> bool) -> Option<(usize, Told)> {
        let line = (self.atmosphere_holding().into_iter())
            .filter(|&i| fresh(i))
            .find_map(|i| self.tell_atmosphere(i).map(|t| (i, t)));
        self.told_units.clear();
        line
    }

    /// The atmosphere variants that hold now, by index in the scene's list,
    /// in the turn's order.
    fn atmosphere_holding(&mut self) -> Vec<usize> {
        let scene = Arc::clone(&self.scene);
        self.battle.refresh_facts();
        let facts = self.battle.facts();
        let holding: Vec<usize> = (0..scene.atmosphere().len())
            .filter(|i| {
                scene
                    .resolved()
                    .atmosphere
                    .get(*i)
                    .is_some_and(|when| self.check(when, facts, "atmosphere"))
            })
            .collect();
        let n = holding.len();
        let turn = facts.turn as usize;
        (0..n).map(|k| holding[(turn + k) % n]).collect()
    }

    /// Tells atmosphere line `i` (None: it has no words).
    fn tell_atmosphere(&mut self, i: usize) -> Option<Told> {
        let scene = Arc::clone(&self.scene);
        let line = scene.atmosphere().get(i)?;
        let prose = Prose::Variants(vec![crate::scene::Variant {
            when: Condition::Always,
            text: line.text.clone(),
            claims: line.claims.clone(),
        }]);
        let variants = Variants {
            when: vec![Cond::Always],
            claims: vec![
                (scene.resolved().atmosphere_claims.get(i))
                    .cloned()
                    .unwrap_or_default(),
            ],
            slots: vec![
                (scene.resolved().atmosphere_slots.get(i))
                    .cloned()
                    .unwrap_or_default(),
            ],
        };
        self.tell_variants(&prose, &variants, "atmosphere", |_| {
            format!("atmosphere[{i}]")
        })
    }

    /// The situation of the pending turning point: as the command that put
    /// it told it, or told now (a game restored to a pending point).
    pub fn situation(&mut self) -> Option<Told> {
        let tp_id = self.story.pending?;
        if let Some((tp, told)) = &self.situation
            && *tp == tp_id
        {
            return Some(told.clone());
        }
        let told = self.tell_pending()?;
        self.situation = Some((tp_id, told.clone()));
        Some(told)
    }

    /// Tells the situation of a turning point the command just put, once:
    /// what the commander hears with it is part of the command, in play and
    /// in a replay alike.
    pub(super) fn tell_situation(&mut self) {
        if !self.tells {
            return;
        }
        let Some(tp_id) = self.story.pending else {
            self.situation = None;
            return;
        };
        if self.situation.as_ref().is_some_and(|(tp, _)| *tp == tp_id) {
            return;
        }
        self.situation = self.tell_pending().map(|told| (tp_id, told));
    }

    /// The situation of the pending turning point, told now.
    fn tell_pending(&mut self) -> Option<Told> {
        let scene = Arc::clone(&self.scene);
        let tp_id = self.story.pending?;
        let tp = scene.turning_points().get(tp_id.idx())?;
        let r_tp = scene.resolved().turning_points.get(tp_id.idx())?;
        if self.audit.is_some() && self.tells {
            for (option, r_option) in tp.options.iter().zip(&r_tp.options) {
                let failed = self.false_claims(&option.claims, &r_option.claims, &tp.id);
                let label = format!("{}/{}.text", tp.id, option.id);
                let turn = self.turn();
                if let Some(audit) = self.audit.as_deref_mut() {
                    audit.told.insert(label.clone());
                    audit
                        .false_claims
                        .extend(failed.into_iter().map(|claim| FalseClaim {
                            text: label.clone(),
                            claim,
                            turn,
                        }));
                }
            }
        }
        let told = self.tell_variants(&tp.situation, &r_tp.situation, &tp.id, |k| {
            text_id(&tp.id, "situation", &tp.situation, k)
        });
        self.told_units.clear();
        told
    }

    /// What `slot` holds now, told as the played side knows it (the truth
    /// in after-action text); None when it has nothing to print.
    pub(super) fn placeholder_value(&self, slot: Slot, world: &WorldState) -> Option<Arg> {
        let scene = &self.scene;
        let field = self.battle.field();
        let mine = self.role_side();
        let picture = &self.picture;
        let lost_of = |i: usize, u: &crate::sim::state::UnitRecord| {
            let start = field.units.get(i).map(|f| f.start_men).unwrap_or(0);
            let left = if u.location.state().can_fight_or_flee() {
                u.men
            } else {
                0
            };
            start.saturating_sub(left)
        };
        let unit = |id: UnitId| world.units.get(id.idx()).map(|u| (id.idx(), u));
        Some(match slot {
            Slot::Turn => Arg::Turn(world.turn),
            Slot::Time => Arg::Clock(self.minute()),
            // The truth, for after-action text (an ending's history).
            Slot::Men(whose) if self.truth_told => Arg::Count(match whose {
                Whose::Side(side) => world.side_men(field, side.idx()),
                Whose::Unit(id) => unit(id)
                    .filter(|(_, u)| u.location.state().can_fight_or_flee())
                    .map(|(_, u)| u.men)
                    .unwrap_or(0),
            }),
            Slot::Losses(whose) if self.truth_told => Arg::Count(match whose {
                Whose::Side(side) => world.side_losses(field, side.idx()),
                Whose::Unit(id) => unit(id).map(|(i, u)| lost_of(i, u)).unwrap_or(0),
            }),
            Slot::MenIn(side, zone) if self.truth_told => {
                Arg::Count(world.side_men_in(field, side.idx(), zone.idx()))
            }
            // Everything else tells what the played side knows: its own men
            // counted, the other side's as its picture holds them.
            Slot::Men(Whose::Side(side)) => match side.idx() {
                side if side == mine => Arg::Count(world.side_men(field, side)),
                side => reckoned(picture.reckon(field, Body::Side, |_, s| s.side == side)),
            },
            Slot::Men(Whose::Unit(id)) => match unit(id) {
                Some((i, u)) if field.units.get(i).is_some_and(|f| u.side(f) == mine) => {
                    Arg::Count(
                        Some(u)
                            .filter(|u| u.location.state().can_fight_or_flee())
                            .map_or(0, |u| u.men),
                    )
                }
                Some((i, _)) => reckoned(picture.reckon(field, Body::Unit, |idx, _| idx == i)),
                None => Arg::Count(0),
            },
            Slot::Losses(Whose::Side(side)) => match side.idx() {
                side if side == mine => Arg::Count(world.side_losses(field, side)),
                side => reckoned(picture.reckon_losses(field, |_, s| s.side == side)),
            },
            Slot::Losses(Whose::Unit(id)) => match unit(id) {
                Some((i, u)) if field.units.get(i).is_some_and(|f| u.side(f) == mine) => {
                    Arg::Count(lost_of(i, u))
                }
                Some((i, _)) => reckoned(picture.reckon_losses(field, |idx, _| idx == i)),
                None => Arg::Count(0),
            },
            Slot::MenIn(side, zone) => match (side.idx(), zone.idx()) {
                (side, zone) if side == mine => Arg::Count(world.side_men_in(field, side, zone)),
                (side, zone) => reckoned(picture.reckon_in(field, side, zone)),
            },
            Slot::Crossed(side, zone) => {
                let (side, zone) = (side.idx(), zone.idx());
                let n = (world.zones.get(zone))
                    .and_then(|z| z.passage.crossed.get(side))
                    .copied()
                    .unwrap_or(0);
                if side == mine || self.truth_told {
                    Arg::Count(n)
                } else if picture.watches(zone) {
                    // Men seen going over: watched if the place is seen now.
                    Arg::About(n)
                } else {
                    Arg::Unknown
                }
            }
            Slot::Holder(zone) => match holder(world, field, zone.idx()) {
                Some(side) => {
                    scene.sides().get(side)?;
                    Arg::Name(Named::Side(crate::scene::SideId::at(side)))
                }
                None => Arg::Nobody,
            },
            Slot::Name(named) => {
                scene.name(named)?;
                Arg::Name(named)
            }
            Slot::At(commander) => {
                let zone = world.commanders.get(commander.idx())?.zone;
                scene.zones().get(zone)?;
                Arg::Name(Named::Zone(crate::scene::ZoneId::at(zone)))
            }
        })
    }
}
