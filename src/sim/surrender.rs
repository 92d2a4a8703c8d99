//! Surrender: a unit that may surrender, wavering or worse, with an enemy in
//! its zone and no exit it can use (every neighbour closed, held by a stronger
//! enemy, or a crossing jammed past its capacity), gives up with
//! `surrender_chance` per turn. Its officers who refuse — `officer_refusal`
//! of its men — are cut down by their own men.

use super::TurnIo;
use super::chronicle::Entry;
use super::components::{Location, Strength, UnitInfo, Vision, ZoneIdx};
use super::field::Field;

use super::movement::room;
use super::order::Rising;

use super::rng::BattleRng;
use super::weather::Passage;

use crate::scene::MoraleState;
use bevy_ecs::prelude::*;

/// The surrender system's working lists, kept between turns (per side and
/// zone: `side * zones + zone`).
#[derive(Default)]
pub struct SurrenderScratch {
    open: Vec<bool>,
    men: Vec<f64>,
    crowd: Vec<f64>,
    /// The units that may give up this turn, in unit-index order.
    candidates: Vec<Candidate>,
    /// The units the scene lets surrender at all, in unit-index order, and
    /// how many units the world held when they were found: see
    /// [`SurrenderScratch::find_candidates`].
    may: Vec<(usize, Entity)>,
    units_seen: usize,
    /// The last sub-step had candidates: this one's walk for them sums
    /// the men of each side and zone too (`men`), which a sub-step with
    /// candidates reads, rather than walking every unit again for them.
    sum_men: bool,
}

/// What morale's walk (and the rally after it) note for the surrender that
/// follows them in the same sub-step, so that surrender need not walk every
/// unit to find its candidates and the men of each side and zone: nothing
/// runs between them, and the walk sees every unit on the field able to
/// fight or flee (the only ones that can be candidates or count as men).
#[derive(Default)]
pub(super) struct SurrenderNotes {
    /// The units the scene lets surrender, wavering or routing as morale
    /// leaves them, in unit-index order.
    candidates: Vec<Candidate>,
    /// Where (`side * zones + zone`) and how many men left the fight on the
    /// walk (shattered), and whether mounted: morale's tally, found before
    /// it, counts them.
    gone: Vec<(usize, u32, bool)>,
    /// The units the rally rallied after the walk, in unit-index order.
    rallied: Vec<usize>,
}

impl SurrenderNotes {
    pub(super) fn clear(&mut self) {
        self.candidates.clear();
        self.gone.clear();
        self.rallied.clear();
    }

    /// Notes a unit morale's walk has left in `state` (called for every unit
    /// on the field that was able to fight or flee, in unit-index order).
    #[inline]
    pub(super) fn note(
        &mut self,
        entity: Entity,
        info: &UnitInfo,
        zone: usize,
        at: usize,
        men: u32,
        state: MoraleState,
    ) {
        if info.may_surrender && matches!(state, MoraleState::Wavering | MoraleState::Routing) {
            self.candidates.push(Candidate {
                idx: info.idx(),
                entity,
                side: info.side(),
                zone,
                trapped: false,
            });
        } else if !state.can_fight_or_flee() {
            self.gone.push((at, men, info.mounted));
        }
    }

    /// Notes a unit the rally rallied (in unit-index order).
    #[inline]
    pub(super) fn rallied(&mut self, idx: usize) {
        self.rallied.push(idx);
    }

    /// Takes the men who left the fight from `men` (whole men: exact).
    pub(super) fn take_gone(&self, men: &mut [f64]) {
        for &(at, lost, _) in &self.gone {
            if let Some(slot) = men.get_mut(at) {
                *slot -= f64::from(lost);
            }
        }
    }

    /// Takes the room the men who left the fight took from `crowd` (per
    /// zone; `n` zones; a horse takes `horse_men`).
    pub(super) fn take_gone_room(&self, crowd: &mut [f64], n: usize, horse_men: f64) {
        for &(at, lost, mounted) in &self.gone {
            if let Some(slot) = crowd.get_mut(at % n.max(1)) {
                *slot -= f64::from(lost) * if mounted { horse_men } else { 1.0 };
            }
        }
    }

    /// The candidates as the rally leaves them, into `candidates`.
    fn candidates_into(&self, candidates: &mut Vec<Candidate>) {
        candidates.clear();
        let mut rallied = self.rallied.iter().peekable();
        for candidate in &self.candidates {
            while rallied.next_if(|&&idx| idx < candidate.idx).is_some() {}
            if rallied.peek() != Some(&&candidate.idx) {
                candidates.push(candidate.clone());
            }
        }
    }
}

/// A unit that may give up this turn, where it stands as the turn's
/// surrenders begin, and whether it is trapped there.
#[derive(Debug, Clone, PartialEq)]
struct Candidate {
    idx: usize,
    entity: Entity,
    side: usize,
    zone: usize,
    trapped: bool,
}

/// The units the surrender system reads and writes.
type Units<'w, 's> = super::components::StepUnits<'w, 's>;

impl SurrenderScratch {
    /// Lists in `candidates` the units that may give up this turn: those
    /// the scene lets surrender, on the field, wavering or routing, in
    /// unit-index order. Which units the scene lets surrender is kept from
    /// the last run (`may`: a unit's `may_surrender` is the scene's and
    /// never changes) while the world holds the same units; it is found
    /// again, with one walk over them, when their number has changed or an
    /// entity it names is gone (the battle spawns its units anew all
    /// together, on a restore that needs it: every old entity is then gone).
    /// When many units may surrender, one walk over them all finds the
    /// candidates for less than a look-up of each (several steps of a walk).
    /// Whether `men` was summed on the way (see [`Self::candidates_by_walk`]).
    fn find_candidates(&mut self, units: &Units, (n, n_sides): (usize, usize)) -> bool {
        let count = units.iter().len();
        if count == self.units_seen && self.may.len() * 8 >= count {
            return self.candidates_by_walk(units, (n, n_sides));
        }
        if count != self.units_seen || !self.candidates_from_kept(units) {
            self.may.clear();
            units.iter().for_each(|(entity, info, ..)| {
                if info.may_surrender {
                    self.may.push((info.idx(), entity));
                }
            });
            self.may.sort_unstable_by_key(|&(idx, _)| idx);
            self.units_seen = count;
            let found = self.candidates_from_kept(units);
            debug_assert!(found, "a unit just listed is gone");
        }
        #[cfg(debug_assertions)]
        {
            let mut afresh: Vec<(usize, Entity)> = units
                .iter()
                .filter(|(_, info, ..)| info.may_surrender)
                .map(|(entity, info, ..)| (info.idx(), entity))
                .collect();
            afresh.sort_unstable_by_key(|&(idx, _)| idx);
            debug_assert_eq!(
                self.may, afresh,
                "a kept list of the units that may surrender"
            );
        }
        false
    }

    /// The candidates among all the units: one read-only walk (a fold over
    /// the query's tables), sorted when the world holds the units out of
    /// index order. When the last sub-step had candidates, the same walk
    /// sums the men of each side and zone (`men`, as
    /// [`men_by_place`] does): whether it did.
    fn candidates_by_walk(&mut self, units: &Units, (n, n_sides): (usize, usize)) -> bool {
        let summing = self.sum_men;
        let (candidates, men) = (&mut self.candidates, &mut self.men);
        candidates.clear();
        if summing {
            men.clear();
            men.resize(n * n_sides, 0.0);
        }
        let mut order = Rising::default();
        units
            .iter()
            .for_each(|(entity, info, strength, location, _, _)| {
                if summing {
                    add_men(men, n, info, strength, location);
                }
                if info.may_surrender
                    && location.present
                    && matches!(
                        location.state(),
                        MoraleState::Wavering | MoraleState::Routing
                    )
                {
                    order.see(info.idx());
                    candidates.push(Candidate {
                        idx: info.idx(),
                        entity,
                        side: info.side(),
                        zone: location.zone(),
                        trapped: false,
                    });
                }
            });
        if !order.rose() {
            candidates.sort_unstable_by_key(|candidate| candidate.idx);
        }
        summing
    }

    /// The candidates among the units in `may`; false when one of those is
    /// gone (the list no longer holds).
    fn candidates_from_kept(&mut self, units: &Units) -> bool {
        self.candidates.clear();
        for &(idx, entity) in &self.may {
            let Ok((_, info, _, location, _, _)) = units.get(entity) else {
                return false;
            };
            if location.present
                && matches!(
                    location.state(),
                    MoraleState::Wavering | MoraleState::Routing
                )
            {
                self.candidates.push(Candidate {
                    idx,
                    entity,
                    side: info.side(),
                    zone: location.zone(),
                    trapped: false,
                });
            }
        }
        true
    }
}

#[allow(clippy::too_many_arguments)]
pub fn surrender_system(
    io: &mut TurnIo,
    scratch: &mut SurrenderScratch,
    vision: &Vision,
    rng: &mut BattleRng,
    zones: &Query<(&ZoneIdx, &mut Passage)>,
    morale: &super::morale::MoraleScratch,
    units: &mut Units,
) {
    let dt = io.dt();
    let (field, chronicle) = io.split();
    let rules = &field.rules;
    let n = field.zones.len();
    let n_sides = field.n_sides;
    // Only a broken or wavering unit that may surrender can: most turns
    // there is none, and a look at the few the scene lets surrender ends
    // the turn's surrenders.
    // From morale's notes of this sub-step when it ran (it always does
    // before surrender in a sub-step), else by a walk of the units.
    let noted = morale.for_surrender(&mut scratch.men, (n, n_sides));
    let summed = match noted {
        Some(notes) => {
            notes.candidates_into(&mut scratch.candidates);
            #[cfg(debug_assertions)]
            {
                let mut men = Vec::new();
                men_by_place(&mut men, (n, n_sides), units);
                debug_assert_eq!(men, scratch.men, "men noted by morale");
                let mut walked = SurrenderScratch::default();
                walked.candidates_by_walk(units, (n, n_sides));
                debug_assert_eq!(
                    walked.candidates, scratch.candidates,
                    "candidates noted by morale"
                );
            }
            true
        }
        None => scratch.find_candidates(units, (n, n_sides)),
    };
    let SurrenderScratch {
        open,
        men,
        crowd,
        candidates,
        sum_men,
        ..
    } = &mut *scratch;
    *sum_men = !candidates.is_empty();
    if candidates.is_empty() {
        return;
    }
    open.clear();
    open.resize(n, true);
    for (idx, passage) in zones.iter() {
        if idx.0 < n {
            open[idx.0] = passage.intact;
        }
    }
    // The men of each side in each zone: whole men, the same sums in any
    // order (a fold over the tables), unless the walk for the candidates
    // summed them already.
    if !summed {
        men_by_place(men, (n, n_sides), units);
    }
    let mut crowded = false;
    let enemy_in =
        |side: usize, zone: usize| (0..n_sides).any(|s| s != side && men[s * n + zone] > 0.0);
    // Each candidate's case is judged on the units as they stand before
    // any gives up (a unit's surrender changes no other's case). A way out
    // over an open crossing no enemy holds is barred only when the crossing
    // is jammed: each zone's crowd is summed (in unit-index order: fractions
    // of men when horses count for more) only when a candidate has one.
    for candidate in candidates.iter_mut() {
        let (side, zone) = (candidate.side, candidate.zone);
        if !enemy_in(side, zone) {
            continue;
        }
        if !crowded
            && field.neighbours[zone]
                .iter()
                .any(|&z| open[z] && !enemy_in(side, z) && field.zones[z].is_crossing())
        {
            // From morale's tally when it gives the walk's sums.
            if !(noted.is_some() && morale.crowd_for_surrender(crowd, n, rules.horse_men)) {
                crowd_into(crowd, field, units);
            }
            #[cfg(debug_assertions)]
            {
                let mut walked = Vec::new();
                crowd_into(&mut walked, field, units);
                debug_assert_eq!(walked, *crowd, "crowd from morale's tally");
            }
            crowded = true;
        }
        let jammed = |zone: usize| {
            field.zones[zone].is_crossing()
                && crowd[zone] > field.capacity(zone, vision.is_blind(zone))
        };
        candidate.trapped = field.neighbours[zone]
            .iter()
            .all(|&z| !open[z] || enemy_in(side, z) || jammed(z));
    }
    // Each trapped unit, in unit-index order, may give up.
    let mut surrendered = false;
    for candidate in candidates.iter() {
        if !candidate.trapped {
            continue;
        }
        let Ok((_, info, mut strength, mut location, _, _)) = units.get_mut(candidate.entity)
        else {
            continue;
        };
        if rng.chance(super::field::per_step(rules.surrender_chance, dt)) {
            let officers = (f64::from(strength.men) * rules.officer_refusal).round() as u32;
            let officers = officers.min(strength.men);
            strength.men -= officers;
            strength.lost_this_turn += officers;
            location.set_state(MoraleState::Surrendered);
            surrendered = true;
            chronicle.push(Entry::Surrenders {
                unit: info.idx(),
                men: strength.men,
                officers,
            });
        }
    }
    if surrendered {
        super::stir(&mut io.stirs);
    }
}

/// The men of each side in each zone (`side * zones + zone`): those on the
/// field able to fight or flee, in whole men (a fold over the tables).
fn men_by_place(men: &mut Vec<f64>, (n, n_sides): (usize, usize), units: &Units) {
    men.clear();
    men.resize(n * n_sides, 0.0);
    units
        .iter()
        .for_each(|(_, info, strength, location, _, _)| {
            add_men(men, n, info, strength, location);
        });
}

/// A unit's men to its side's in its zone ([`men_by_place`]).
#[inline(always)]
fn add_men(men: &mut [f64], n: usize, info: &UnitInfo, strength: &Strength, location: &Location) {
    if location.stands()
        && let Some(slot) = men.get_mut(info.side() * n + location.zone())
    {
        *slot += f64::from(strength.men);
    }
}

/// Each zone's crowd (the room its units on the field take) into `crowd`,
/// summed in unit-index order: as the units are stored (a fold over the
/// tables), checked on the way; when the world holds them otherwise, the
/// pass is made again, sorted.
fn crowd_into(crowd: &mut Vec<f64>, field: &Field, units: &Units) {
    let add = |crowd: &mut Vec<f64>, info: &UnitInfo, strength: &Strength, location: &Location| {
        if location.stands() {
            crowd[location.zone()] += room(field, info, strength.men);
        }
    };
    crowd.clear();
    crowd.resize(field.zones.len(), 0.0);
    let mut order = Rising::default();
    units
        .iter()
        .for_each(|(_, info, strength, location, _, _)| {
            order.see(info.idx());
            add(crowd, info, strength, location);
        });
    if !order.rose() {
        crowd.clear();
        crowd.resize(field.zones.len(), 0.0);
        units
            .iter()
            .sort_by_key::<&UnitInfo, _>(|info| info.idx())
            .for_each(|(_, info, strength, location, _, _)| add(crowd, info, strength, location));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::{set_state, small_world, state_of};

    #[test]
    fn trapped_han_banner_foot_surrender() {
        let mut surrendered = 0;
        for seed in 0..20 {
            let (mut world, mut schedule) = small_world(|mut scene| {
                // Han foot (unit 2) on the north bank, Ming on it and at the tent: no way out.
                scene.units[2].zone = "north-bank".into();
                scene.units[0].zone = "north-bank".into();
                scene.units[0].men = 8_000;
                scene.units[1].zone = "tent".into();
                scene.units[1].side = "ming".into();
                scene.units[1].leader = None;
                scene
            });
            world.insert_resource(BattleRng::from_seed(seed));
            set_state(&mut world, 2, MoraleState::Routing);
            for _ in 0..3 {
                schedule.run(&mut world);
            }
            if state_of(&mut world, 2) == MoraleState::Surrendered {
                surrendered += 1;
            }
        }
        assert!(surrendered >= 15, "surrendered in {surrendered}/20");
    }
}
