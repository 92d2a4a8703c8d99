//! Rally: a commander who stands and beats the drums is heard `drums_range`
//! zones away, through smoke. Routing and wavering units of his side that hear
//! him gain `drums_morale` and make for him; a routing one above `rally_above`
//! rallies. Without drums, a routing unit that reaches its own commander, with
//! no enemy in the zone, may rally there too. Shattered units cannot rally.
//!
//! Run by the morale system as its last step ([`rally`]): morale sees every
//! unit's state as the turn leaves it, and notes for rally the units it must
//! reach and where each side can fight, so the units are walked once.

use super::chronicle::{Chronicle, Entry};
use super::fast_hash::FxHashMap as HashMap;
use super::field::Field;
use super::morale::{Modifier, MoraleUnits};
use super::movement::UnitOrder;
use super::{CommanderState, UnitInfo};
use crate::scene::MoraleState;
use bevy_ecs::prelude::*;

/// The rally's working lists, kept between turns (per side and zone:
/// `side * zones + zone`).
#[derive(Default)]
pub struct RallyScratch {
    drummers: Vec<(usize, usize, usize, f64)>,
    /// Per side and zone: a commander who can rally stands there.
    commander_in: Vec<bool>,
    /// Zones on the field, as of [`RallyScratch::begin`].
    zones: usize,
    /// Per side and zone: a unit of the side stands there able to fight
    /// (present, not broken, with men).
    fighting_in: Vec<bool>,
    /// The wavering and routing units, in index order.
    shaken: Vec<Shaken>,
    /// The field the distances below were measured on.
    field: Option<Field>,
    /// Steps from a drummer's zone to every zone (drums carry over any
    /// ground, so these never change on one field).
    from_zone: HashMap<usize, Vec<usize>>,
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
    /// Starts a turn's notes of the units: none seen yet.
    pub(super) fn begin(&mut self, zones: usize, sides: usize) {
        self.zones = zones;
        refill(&mut self.fighting_in, zones * sides, false);
        self.shaken.clear();
    }

    /// Notes a unit that is on the field and able to fight or flee, as its
    /// morale leaves it this turn. Called in unit-index order.
    #[inline]
    pub(super) fn note(
        &mut self,
        entity: Entity,
        info: &UnitInfo,
        zone: usize,
        men: u32,
        state: MoraleState,
    ) {
        if matches!(state, MoraleState::Routing | MoraleState::Wavering) {
            self.shaken.push(Shaken {
                entity,
                side: info.side,
                zone,
                routing: state == MoraleState::Routing,
            });
        }
        if state.can_fight_or_flee() && !state.is_broken() && men > 0 {
            self.fighting_in[info.side * self.zones + zone] = true;
        }
    }
}

/// Empties `list` and fills it with `len` copies of `value`, keeping its memory.
fn refill<T: Clone>(list: &mut Vec<T>, len: usize, value: T) {
    list.clear();
    list.resize(len, value);
}

/// The turn's rally, once morale has noted every unit in `scratch`
/// ([`RallyScratch::begin`], [`RallyScratch::note`]).
pub(super) fn rally(
    scratch: &mut RallyScratch,
    field: &Field,
    chronicle: &mut Chronicle,
    commanders: &mut Query<&mut CommanderState>,
    units: &mut MoraleUnits,
) {
    let rules = &field.rules;
    let RallyScratch {
        drummers,
        commander_in,
        zones: _,
        fighting_in,
        shaken,
        field: measured_on,
        from_zone,
    } = scratch;
    let nz = field.zones.len();
    let n_sides = field.n_sides;
    // The drummers as they stand before this turn's beat, and where the
    // commanders who can rally stand; then a beat of the drums is spent.
    drummers.clear();
    refill(commander_in, nz * n_sides, false);
    commanders.iter_mut().for_each(|mut c| {
        if c.drums_left > 0 && c.rallies() {
            drummers.push((c.idx, c.side, c.zone, c.leadership));
        }
        if c.rallies() && c.side < n_sides && c.zone < nz {
            commander_in[c.side * nz + c.zone] = true;
        }
        c.drums_left = c.drums_left.saturating_sub(1);
    });
    drummers.sort_unstable_by_key(|d| d.0);
    // Only a wavering or routing unit hears the drums or rallies: they were
    // listed by morale, and are reached by entity, not found by walking all.
    if shaken.is_empty() {
        return;
    }
    let range = rules.drums_range.round() as usize;
    if !measured_on.as_ref().is_some_and(|f| f.same(field)) {
        from_zone.clear();
        *measured_on = Some(field.clone());
    }
    for d in drummers.iter() {
        from_zone
            .entry(d.2)
            .or_insert_with(|| field.distances(d.2, |_| true));
    }
    let no_distances = Vec::new();
    let distance_from = |zone: usize| from_zone.get(&zone).unwrap_or(&no_distances);
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
        let heard = drummers
            .iter()
            .map(|d| (d, distance_from(d.2)))
            .filter(|(d, _)| d.1 == side)
            .filter(|(_, dist)| dist[zone] <= range)
            .min_by_key(|(d, dist)| (dist[zone], d.0));
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
        let Ok((_, info, _, location, mut orders, mut morale)) = units.get_mut(entity) else {
            continue;
        };
        let mut rally_here = false;
        if let Some((drummer, _)) = heard {
            let boost = rules.drums_morale;
            morale.feel(Modifier::Drums, boost);
            if !morale.last.iter().any(|(m, _)| *m == Modifier::Orders) {
                chronicle.push(Entry::DrumsHeard {
                    unit: info.idx,
                    commander: drummer.0,
                });
            }
            if morale.state == MoraleState::Routing {
                orders.order = UnitOrder::RallyTo(drummer.0);
                rally_here = morale.value > rules.rally_above;
            }
        } else {
            rally_here = morale.value > rules.rally_above;
            // Safe by its own banner: it settles a little each turn.
            let settle = rules.morale_recovery * 2.0;
            morale.feel(Modifier::Recovery, settle);
        }
        if rally_here {
            morale.state = MoraleState::Rallied;
            chronicle.push(Entry::Rallies { unit: info.idx });
            if let UnitOrder::RallyTo(commander) = orders.order {
                let zone = drummers.iter().find(|d| d.0 == commander).map(|d| d.2);
                orders.order = match zone {
                    Some(zone) if zone != location.zone => UnitOrder::MoveTo(zone),
                    _ => UnitOrder::Hold,
                };
            } else {
                orders.order = UnitOrder::Hold;
            }
        }
    }
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
