//! Settling after each turn and choice (events fire, an ending ends the
//! game, a turning point is put), and conditions read against the story's
//! marks and the world's facts.

use super::*;

pub fn holder(world: &WorldState, field: &crate::sim::Field, zone: usize) -> Option<usize> {
    (0..field.n_sides)
        .map(|side| (side, world.side_men_in(field, side, zone)))
        .filter(|(_, men)| *men > 0)
        .max_by_key(|(side, men)| (*men, std::cmp::Reverse(*side)))
        .map(|(side, _)| side)
}

pub(super) fn compare(cmp: &Cmp, value: f64) -> bool {
    match *cmp {
        Cmp::AtLeast(x) => value >= x,
        Cmp::AtMost(x) => value <= x,
        Cmp::Above(x) => value > x,
        Cmp::Below(x) => value < x,
    }
}

impl Game {
    /// Fires events, checks endings, and puts or decides turning points until
    /// nothing more happens now.
    pub(super) fn settle(&mut self, out: &mut Vec<Output>) {
        let scene = Arc::clone(&self.scene);
        // Conditions that sleep (`verdicts.rs`) do not hold now: only the
        // awake ones are read, in file order. A mark changed by what fires
        // wakes its readers, later ones read in this same pass.
        self.marks.verdicts.wake(self.turn());
        let (event_slots, ending_slots, tp_slots) = (
            self.readers.event_slots(),
            self.readers.ending_slots(),
            self.readers.tp_slots(),
        );
        // Bounded: each pass marks at least one event or point as done.
        let limit = scene.events().len() + scene.turning_points().len() + 2;
        for _ in 0..limit {
            #[cfg(debug_assertions)]
            self.check_sleepers();
            let mut fired = false;
            let resolved = scene.resolved();
            let mut from = event_slots.start;
            while let Some(slot) = self.marks.verdicts.next_awake(from..event_slots.end) {
                from = slot + 1;
                let idx = slot - event_slots.start;
                let (Some(event), Some(r_event)) =
                    (scene.events().get(idx), resolved.events.get(idx))
                else {
                    break;
                };
                if self.marks.happened[idx] || !self.holds_now(slot, &r_event.when, &event.id) {
                    continue;
                }
                self.story.happened.push(EventId::at(idx));
                self.marks.set_happened(&self.readers, idx);
                let told = (event.text.as_ref().zip(r_event.text.as_ref())).and_then(
                    |(text, variants)| {
                        let (k, told) = self.tell_variant(text, variants, &event.id, |k| {
                            text_id(&event.id, "text", text, k)
                        })?;
                        let slots = variants.slots.get(k).map_or(&[][..], Vec::as_slice);
                        Some((k, told, slots))
                    },
                );
                let text = told.map(|(k, told, slots)| {
                    self.story.journal.push(Telling {
                        turn: self.turn(),
                        event: EventId::at(idx),
                        variant: k as u32,
                        values: by_slot(&told, slots),
                    });
                    told
                });
                // An event that told nothing leaves its cry to be heard.
                let voice = if text.is_some() {
                    Voice::Event
                } else {
                    Voice::Unspoken
                };
                self.say(out, || Output::Event {
                    id: EventId::at(idx),
                    text,
                });
                for (effect, act) in event.effects.iter().zip(&r_event.effects) {
                    self.apply(effect, act, voice, &event.id, out);
                }
                self.tell_effects_done();
                fired = true;
            }
            let mut from = ending_slots.start;
            while let Some(slot) = self.marks.verdicts.next_awake(from..ending_slots.end) {
                from = slot + 1;
                let idx = slot - ending_slots.start;
                let (Some(ending), Some(r)) = (scene.endings().get(idx), resolved.endings.get(idx))
                else {
                    break;
                };
                if self.holds_now(slot, &r.when, &ending.id) {
                    self.end(EndingId::at(idx), out);
                    return;
                }
            }
            let mut next_tp = None;
            let mut from = tp_slots.start;
            while let Some(slot) = self.marks.verdicts.next_awake(from..tp_slots.end) {
                from = slot + 1;
                let idx = slot - tp_slots.start;
                let (Some(tp), Some(r)) = (
                    scene.turning_points().get(idx),
                    resolved.turning_points.get(idx),
                ) else {
                    break;
                };
                if !self.marks.reached[idx] && self.holds_now(slot, &r.when, &tp.id) {
                    next_tp = Some((idx, tp, r));
                    break;
                }
            }
            let player = resolved.roles[self.role_id.idx()];
            match next_tp {
                Some((tp_idx, _, r)) if r.role == player && self.player_policy.is_none() => {
                    self.story.pending = Some(TpId::at(tp_idx));
                    self.say(out, || Output::Situation {
                        tp: TpId::at(tp_idx),
                    });
                    return;
                }
                Some((tp_idx, tp, r)) => {
                    let policy = if r.role == player {
                        self.player_policy.unwrap_or_default()
                    } else {
                        self.policy
                    };
                    let idx = match policy {
                        Policy::Historical => r.historical,
                        Policy::Random => self.policy_rng.index(tp.options.len()),
                        Policy::Greedy => self.greedy_option(TpId::at(tp_idx)),
                    };
                    self.decide(tp_idx, idx, false, out);
                }
                None if !fired => break,
                None => {}
            }
        }
        if self.turn() >= scene.meta().max_turns && self.story.pending.is_none() {
            self.end(scene.resolved().timeout, out);
        }
    }

    pub(super) fn end(&mut self, ending_id: EndingId, out: &mut Vec<Output>) {
        self.story.ended = Some(ending_id);
        self.story.pending = None;
        let scene = Arc::clone(&self.scene);
        let ending = scene
            .endings()
            .get(ending_id.idx())
            .zip(scene.resolved().endings.get(ending_id.idx()));
        let id = ending.map_or("", |(e, _)| e.id.as_str());
        let text = ending.and_then(|(e, r)| {
            self.tell_variants(&e.text, &r.text, id, |k| text_id(id, "text", &e.text, k))
        });
        let summary = ending.and_then(|(e, r)| {
            self.tell_variants(&e.summary, &r.summary, id, |k| {
                text_id(id, "summary", &e.summary, k)
            })
        });
        self.truth_told = true;
        let history = ending
            .and_then(|(e, r)| e.history.as_ref().zip(r.history.as_ref()))
            .and_then(|(h, v)| self.tell_variants(h, v, id, |k| text_id(id, "history", h, k)));
        self.truth_told = false;
        self.say(out, || Output::Ending {
            id: ending_id,
            text,
            summary,
            history,
        });
    }

    /// Whether a condition holds now. It is resolved against the scene
    /// first: one naming what the scene lacks does not hold.
    pub fn holds(&self, condition: &Condition, world: &WorldState, owner: &str) -> bool {
        let facts = Facts::of_state(world, self.battle.field());
        self.scene
            .resolve_condition(condition)
            .is_some_and(|cond| self.check(&cond, &facts, owner))
    }

    /// Whether a resolved condition holds in `facts` (the battle's, brought
    /// up to date with [`Battle::refresh_facts`]). The story's own marks and
    /// the turn are read here; the rest in [`Game::check_world`].
    pub(super) fn check(&self, condition: &Cond, facts: &Facts, owner: &str) -> bool {
        match condition {
            Cond::All(items) => items.iter().all(|c| self.check_item(c, facts, owner)),
            Cond::Any(items) => items.iter().any(|c| self.check_item(c, facts, owner)),
            Cond::Not(item) => !self.check_item(item, facts, owner),
            _ => self.check_item(condition, facts, owner),
        }
    }

    /// [`Game::check`] of one condition, those on the story's marks and the
    /// turn read here, in line (most items of an `All` or `Any` are).
    #[inline(always)]
    pub(super) fn check_item(&self, condition: &Cond, facts: &Facts, owner: &str) -> bool {
        match condition {
            Cond::All(_) | Cond::Any(_) | Cond::Not(_) => self.check(condition, facts, owner),
            Cond::Turn(cmp) => compare(cmp, f64::from(facts.turn)),
            Cond::Chosen { tp, option } => {
                self.marks.chosen.get(tp.idx()).copied().flatten() == Some(*option)
            }
            Cond::Reached(tp) => self.marks.reached.get(tp.idx()).copied().unwrap_or(false),
            Cond::Happened(event) => self
                .marks
                .happened
                .get(event.idx())
                .copied()
                .unwrap_or(false),
            Cond::Flag(flag) => self.marks.flags.get(flag.idx()).copied().unwrap_or(false),
            _ => self.check_world(condition, facts, owner),
        }
    }

    /// [`Game::check`] of the conditions on the world (kept apart so the
    /// common, cheap ones on the story's marks and the turn are read in a
    /// small function).
    #[inline(never)]
    pub(super) fn check_world(&self, condition: &Cond, facts: &Facts, owner: &str) -> bool {
        let scene = &self.scene;
        let turn = f64::from(facts.turn);
        let unit = |id: crate::scene::UnitId| facts.units.get(id.idx());
        let zone = |id: ZoneId| facts.zones.get(id.idx());
        match condition {
            Cond::Always => true,
            Cond::Never => false,
            Cond::All(_)
            | Cond::Any(_)
            | Cond::Not(_)
            | Cond::Turn(_)
            | Cond::Chosen { .. }
            | Cond::Reached(_)
            | Cond::Happened(_)
            | Cond::Flag(_) => self.check(condition, facts, owner),
            Cond::Chance(p) => luck(self.seed, facts.turn, owner, *p) < *p,
            Cond::Minute(cmp) => {
                let meta = scene.meta();
                compare(
                    cmp,
                    f64::from(meta.start_minute) + turn * f64::from(meta.turn_minutes),
                )
            }
            Cond::UnitState { unit: id, is } => {
                unit(*id).is_some_and(|u| u.present && is.contains(&u.state))
            }
            Cond::UnitIn { unit: id, zone } => unit(*id)
                .is_some_and(|u| u.present && u.zone == zone.idx() && u.state.can_fight_or_flee()),
            Cond::UnitMen { unit: id, cmp } => {
                unit(*id).is_some_and(|u| compare(cmp, f64::from(u.men)))
            }
            Cond::UnitMorale { unit: id, cmp } => unit(*id).is_some_and(|u| compare(cmp, u.value)),
            Cond::CommanderIn { commander, zone } => facts
                .commanders
                .get(commander.idx())
                .is_some_and(|c| c.zone == zone.idx()),
            Cond::SideStrength { side, cmp } => {
                let start = facts.side_start_men(side.idx());
                let share = if start == 0 {
                    0.0
                } else {
                    f64::from(facts.side_men(side.idx())) / f64::from(start)
                };
                compare(cmp, share)
            }
            Cond::SideLosses { side, cmp } => {
                compare(cmp, f64::from(facts.side_losses(side.idx())))
            }
            Cond::SideRouting { side, cmp } => compare(cmp, facts.side_routing(side.idx())),
            Cond::SideMenIn { side, zone, cmp } => {
                compare(cmp, f64::from(facts.side_men_in(side.idx(), zone.idx())))
            }
            Cond::SideCrossed {
                side,
                zone: id,
                cmp,
            } => compare(cmp, f64::from(facts.crossed(id.idx(), side.idx()))),
            Cond::Smoke { zone: id, cmp } => zone(*id).is_some_and(|z| compare(cmp, z.smoke)),
            Cond::Fire { zone: id, cmp } => zone(*id).is_some_and(|z| compare(cmp, z.fire)),
            Cond::Wind(cmp) => compare(cmp, facts.wind),
            Cond::WindToward(mask) => mask & (1 << (facts.toward & 7)) != 0,
            Cond::Passable(id) => zone(*id).is_some_and(|z| z.intact),
            Cond::Playing(role) => *role == self.role_id,
            Cond::PlayerSide(side) => side.idx() == self.role_side(),
            Cond::Sees { side, zone } => facts.vision.side_sees(side.idx(), zone.idx()),
            Cond::Obscured { zone: id, by, cmp } => {
                zone(*id).is_some_and(|_| compare(cmp, facts.haze(id.idx(), by.idx())))
            }
            Cond::Fallen(commander) => facts
                .commanders
                .get(commander.idx())
                .is_some_and(|c| c.fallen),
            Cond::TurnsSince(id, cmp) => {
                let Some(watch) = scene.resolved().watched.get(id.idx()) else {
                    return false;
                };
                let since = self.marks.since_at(id.idx(), watch, facts.turn);
                since.is_some_and(|at| compare(cmp, f64::from(facts.turn.saturating_sub(at))))
            }
        }
    }
}

impl Marks {
    /// The turn watched id `idx` (`watch`) was noted at, read at `turn`:
    /// one not stamped yet that has happened happened in this turn's
    /// settling (stamps are made as the next turn begins).
    pub(super) fn since_at(
        &self,
        idx: usize,
        watch: &crate::scene::resolved::Watch,
        turn: u32,
    ) -> Option<u32> {
        self.since
            .get(idx)
            .copied()
            .flatten()
            .or_else(|| self.now(watch).then_some(turn))
    }

    /// Whether what `watch` names has happened, been decided or is set.
    pub(super) fn now(&self, watch: &crate::scene::resolved::Watch) -> bool {
        let at = |marks: &[bool], idx: Option<usize>| {
            idx.and_then(|i| marks.get(i)).copied().unwrap_or(false)
        };
        at(&self.happened, watch.event.map(|e| e.idx()))
            || at(&self.reached, watch.tp.map(|t| t.idx()))
            || at(&self.flags, watch.flag.map(|f| f.idx()))
    }
}

/// A told text's values, each by its placeholder's place in `slots` (what
/// the telling filled them from, so each is found).
fn by_slot(
    told: &Told,
    slots: &[(String, Option<crate::scene::resolved::Slot>)],
) -> Vec<(u32, Arg)> {
    (told.args.iter())
        .filter_map(|(inside, arg)| {
            let slot = slots.iter().position(|(name, _)| name == inside)?;
            Some((u32::try_from(slot).ok()?, arg.clone()))
        })
        .collect()
}
