//! Rally: a commander who stands and beats the drums is heard `drums_range`
//! zones away, through smoke. Routing and wavering units of his side that hear
//! him gain `drums_morale` and make for him; a routing one above `rally_above`
//! rallies. Without drums, a routing unit that reaches its own commander, with
//! no enemy in the zone, may rally there too. Shattered units cannot rally.
//!
//! Run by the morale system as its last step (`rally`): morale sees every
//! unit's state as the turn leaves it, and notes for rally the units it must
//! reach and where each side can fight, so the units are walked once.

use super::chronicle::{Chronicle, Entry};
use super::components::{CommanderState, Modifier, MoraleUnits, UnitInfo, UnitOrder};
use super::field::Field;

use crate::scene::MoraleState;
use bevy_ecs::prelude::*;

/// The rally's working lists, kept between turns (per side and zone:
/// `side * zones + zone`).
#[derive(Default)]
pub struct RallyScratch {
    /// The commanders beating the drums as the turn began (index, side,
    /// zone, leadership), in index order once the rally runs.
    drummers: Vec<(usize, usize, usize, f64)>,
    /// Per side and zone: a commander who can rally stands there.
    commander_in: Vec<bool>,
    /// Zones on the field, as of [`RallyScratch::begin`].
    zones: usize,
    /// Per side and zone: a unit of the side stands there able to fight
    /// (present, not broken, with men).
    fighting_in: Vec<bool>,
    /// The wavering and routing units the rally may reach, in index order:
    /// with no drum beating this turn, only the routing ones standing by a
    /// commander of their side who can rally (no other is heard or safe).
    shaken: Vec<Shaken>,
    /// The field the distances below were measured on.
    field: Option<Field>,
    /// Per zone: steps from a drummer standing there to every zone, once
    /// one has (empty until then; drums carry over any ground, so these
    /// never change on one field).
    from_zone: Vec<Vec<usize>>,
    /// What morale's walk and the rally note for the surrender that
    /// follows them in the sub-step.
    pub(super) surrender: super::surrender::SurrenderNotes,
}

/// A wavering or routing unit as morale left it this turn.
#[derive(Debug, Clone, Copy)]
struct Shaken {
    entity: Entity,
    side: usize,
    zone: usize,
    routing: bool,
}

impl RallyScratch {
    /// Starts a turn's notes of the commanders and units: none seen yet.
    pub(super) fn begin(&mut self, zones: usize, sides: usize) {
        self.zones = zones;
        refill(&mut self.fighting_in, zones * sides, false);
        refill(&mut self.commander_in, zones * sides, false);
        self.drummers.clear();
        self.shaken.clear();
        self.surrender.clear();
    }

    /// Notes a commander as he stands before this turn's beat of the drums:
    /// a drummer, or one who can rally where he stands. The morale system
    /// calls it on its own walk of the commanders, so the rally need not
    /// walk them again (nothing it reads of them changes in between). True
    /// when he has a beat of the drums to spend ([`spend_beats`]).
    /// `at`: where he stands, per side and zone (none when off the field).
    #[inline]
    pub(super) fn commander(&mut self, c: &CommanderState, at: Option<usize>) -> bool {
        if c.rallies() {
            if c.drums_left > 0 {
                self.drummers.push((c.idx, c.side, c.zone, c.leadership));
            }
            if let Some(here) = at.and_then(|at| self.commander_in.get_mut(at)) {
                *here = true;
            }
        }
        c.drums_left > 0
    }

    /// Notes a unit that is on the field and able to fight or flee, as its
    /// morale leaves it this turn. Called in unit-index order. `at`: its
    /// side and zone, as laid out here (`side * zones + zone`). In line
    /// always: called once a unit from morale's walk, where a call of its
    /// own cost a tenth of the unit's step.
    #[inline(always)]
    pub(super) fn note(
        &mut self,
        entity: Entity,
        info: &UnitInfo,
        zone: usize,
        at: usize,
        men: u32,
        state: MoraleState,
    ) {
        // Neither heard (no drum beats) nor safe by its own banner (none
        // there): the rally would pass it by, so it is not listed.
        let reachable = || {
            !self.drummers.is_empty()
                || (state == MoraleState::Routing
                    && self.commander_in.get(at).copied().unwrap_or(false))
        };
        if matches!(state, MoraleState::Routing | MoraleState::Wavering) && reachable() {
            self.shaken.push(Shaken {
                entity,
                side: info.side(),
                zone,
                routing: state == MoraleState::Routing,
            });
        }
        if state.can_fight_or_flee() && !state.is_broken() && men > 0 {
            self.fighting_in[at] = true;
        }
        self.surrender.note(entity, info, zone, at, men, state);
    }
}

/// Spends a beat of the drums of every commander with one left, on the
/// turns any has ([`RallyScratch::commander`] said so): the rest are left
/// alone, not written (the same value as a saturating step down).
pub(super) fn spend_beats(commanders: &mut Query<&mut CommanderState>) {
    commanders.iter_mut().for_each(|mut c| {
        if c.drums_left > 0 {
            c.drums_left -= 1;
        }
    });
}

/// Empties `list` and fills it with `len` copies of `value`, keeping its memory.
fn refill<T: Clone>(list: &mut Vec<T>, len: usize, value: T) {
    list.clear();
    list.resize(len, value);
}

/// The turn's rally, once morale has noted every commander and unit in
/// `scratch` ([`RallyScratch::begin`], [`RallyScratch::commander`],
/// [`RallyScratch::note`]). True when it reached a unit (its state or
/// order may have changed).
pub(super) fn rally(
    scratch: &mut RallyScratch,
    field: &Field,
    dt: f64,
    chronicle: &mut Chronicle,
    units: &mut MoraleUnits,
) -> bool {
    let rules = &field.rules;
    let RallyScratch {
        drummers,
        commander_in,
        zones: _,
        fighting_in,
        shaken,
        field: measured_on,
        from_zone,
        surrender: surrender_notes,
    } = scratch;
    let nz = field.zones.len();
    let n_sides = field.n_sides;
    drummers.sort_unstable_by_key(|d| d.0);
    // Only a wavering or routing unit hears the drums or rallies: they were
    // listed by morale, and are reached by entity, not found by walking all.
    if shaken.is_empty() {
        return false;
    }
    let mut reached = false;
    // (Rounded only on the turns a drum beats: no other reads it.)
    let range = if drummers.is_empty() {
        0
    } else {
        rules.drums_range.round() as usize
    };
    if !measured_on.as_ref().is_some_and(|f| f.same(field)) {
        from_zone.clear();
        *measured_on = Some(field.clone());
    }
    from_zone.resize(nz, Vec::new());
    for d in drummers.iter() {
        if let Some(distances) = from_zone.get_mut(d.2)
            && distances.is_empty()
        {
            *distances = field.distances(d.2, |_| true);
        }
    }
    // Steps from a drummer's zone to `zone` (none measured from a zone off
    // the field: out of reach, as a measure from there would say).
    let steps = |from: usize, zone: usize| {
        from_zone
            .get(from)
            .and_then(|distances| distances.get(zone))
            .copied()
            .unwrap_or(usize::MAX)
    };
    // Another side's unit able to fight stands in the zone.
    let enemy_in = |side: usize, zone: usize| {
        (0..n_sides).any(|other| other != side && fighting_in[other * nz + zone])
    };
    for &Shaken {
        entity,
        side,
        zone,
        routing,
    } in shaken.iter()
    {
        // (Most turns no drums beat: then none is heard, found at once.)
        let heard = drummers
            .iter()
            .filter(|d| d.1 == side)
            .map(|d| (d, steps(d.2, zone)))
            .filter(|&(_, steps)| steps <= range)
            .min_by_key(|&(d, steps)| (steps, d.0));
        // Out of earshot, a routing unit may still rally by its own banner:
        // its commander here, and no enemy able to fight.
        let safe = heard.is_none()
            && routing
            && commander_in.get(side * nz + zone).copied().unwrap_or(false)
            && !enemy_in(side, zone);
        // Neither: nothing happens to it, and it is not reached.
        if heard.is_none() && !safe {
            continue;
        }
        let Ok((_, info, _, mut location, mut orders, mut morale)) = units.get_mut(entity) else {
            continue;
        };
        reached = true;
        let mut rally_here = false;
        if let Some((drummer, _)) = heard {
            let boost = rules.drums_morale * dt;
            morale.feel(Modifier::Drums, boost);
            if !morale.last().iter().any(|(m, _)| *m == Modifier::Orders) {
                chronicle.push(Entry::DrumsHeard {
                    unit: info.idx(),
                    commander: drummer.0,
                });
            }
            if location.state() == MoraleState::Routing {
                orders.set_order(UnitOrder::RallyTo(drummer.0));
                rally_here = morale.value > rules.rally_above;
            }
        } else {
            rally_here = morale.value > rules.rally_above;
            // Safe by its own banner: it settles a little each 刻, but not
            // in a turn it believed a cry against its side (no rest with a rumor).
            let believed_a_cry = morale
                .last()
                .iter()
                .any(|&(modifier, delta)| modifier == Modifier::Rumor && delta < 0.0);
            if !believed_a_cry {
                let settle = rules.morale_recovery * 2.0 * dt;
                morale.feel(Modifier::Recovery, settle);
            }
        }
        if rally_here {
            location.set_state(MoraleState::Rallied);
            surrender_notes.rallied(info.idx());
            chronicle.push(Entry::Rallies { unit: info.idx() });
            if let UnitOrder::RallyTo(commander) = orders.order() {
                let zone = drummers.iter().find(|d| d.0 == commander).map(|d| d.2);
                orders.set_order(match zone {
                    Some(zone) if zone != location.zone() => UnitOrder::MoveTo(zone),
                    _ => UnitOrder::Hold,
                });
            } else {
                orders.set_order(UnitOrder::Hold);
            }
        }
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::{set_state, small_world, state_of};

    fn rally_run(state: MoraleState, men: u32) -> MoraleState {
        // Unit 1 (jin) routing on the north bank, two zones from the Khan's tent... the
        // small world puts the jin commander at "tent", two steps from the ford.
        let (mut world, mut schedule) = small_world(|mut scene| {
            scene.units[1].zone = "ford".into();
            scene.units[1].men = men;
            scene.units[1].morale = 15.0;
            scene.units[0].zone = "south-bank".into();
            scene
        });
        set_state(&mut world, 1, state);
        let mut query = world.query::<&mut CommanderState>();
        for mut commander in query.iter_mut(&mut world) {
            if commander.side == 1 {
                commander.drums_left = 8;
            }
        }
        for _ in 0..5 {
            schedule.run(&mut world);
        }
        state_of(&mut world, 1)
    }

    #[test]
    fn a_routing_unit_two_zones_from_the_drums_recovers() {
        let state = rally_run(MoraleState::Routing, 3_000);
        assert!(
            matches!(
                state,
                MoraleState::Rallied | MoraleState::Steady | MoraleState::Wavering
            ),
            "recovered within five turns: {state:?}"
        );
    }

    #[test]
    fn a_shattered_unit_does_not() {
        assert_eq!(
            rally_run(MoraleState::Shattered, 3_000),
            MoraleState::Shattered
        );
    }
}
