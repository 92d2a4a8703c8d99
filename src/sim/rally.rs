//! Rally: a commander who stands and beats the drums is heard `drums_range`
//! zones away, through smoke. Routing and wavering units of his side that hear
//! him gain `drums_morale` and make for him; a routing one above `rally_above`
//! rallies. Without drums, a routing unit that reaches its own commander, with
//! no enemy in the zone, may rally there too. Shattered units cannot rally.

use super::chronicle::{Chronicle, Entry};
use super::fast_hash::FxHashMap as HashMap;
use super::field::Field;
use super::morale::{Modifier, Morale};
use super::movement::{Location, Orders, UnitOrder};
use super::order::{Rising, by_index_mut};
use super::{CommanderState, Strength, UnitInfo};
use crate::scene::MoraleState;
use bevy_ecs::prelude::*;

/// The rally system's working lists, kept between turns (per side and zone:
/// `side * zones + zone`).
#[derive(Default)]
pub struct RallyScratch {
    drummers: Vec<(usize, usize, usize, f64)>,
    /// Per side and zone: a commander who can rally stands there.
    commander_in: Vec<bool>,
    enemy_in: Vec<bool>,
    /// The field the distances below were measured on.
    field: Option<Field>,
    /// Steps from a drummer's zone to every zone (drums carry over any
    /// ground, so these never change on one field).
    from_zone: HashMap<usize, Vec<usize>>,
}

pub fn rally_system(
    mut scratch: Local<RallyScratch>,
    field: Res<Field>,
    mut chronicle: ResMut<Chronicle>,
    mut commanders: Query<&mut CommanderState>,
    mut units: Query<(&UnitInfo, &Strength, &Location, &mut Orders, &mut Morale)>,
) {
    let rules = &field.rules;
    let RallyScratch {
        drummers,
        commander_in,
        enemy_in,
        field: measured_on,
        from_zone,
    } = &mut *scratch;
    drummers.clear();
    drummers.extend(
        commanders
            .iter()
            .filter(|c| c.drums_left > 0 && c.rallies())
            .map(|c| (c.idx, c.side, c.zone, c.leadership)),
    );
    drummers.sort_unstable_by_key(|d| d.0);
    let nz = field.zones.len();
    commander_in.clear();
    commander_in.resize(nz * field.n_sides, false);
    for c in commanders.iter() {
        if c.rallies() && c.side < field.n_sides && c.zone < nz {
            commander_in[c.side * nz + c.zone] = true;
        }
    }
    enemy_in.clear();
    enemy_in.resize(nz * field.n_sides, false);
    // Only a wavering or routing unit hears the drums or rallies.
    let mut shaken = 0;
    let mut order = Rising::default();
    for (info, strength, location, _, morale) in units.iter() {
        order.see(info.idx);
        if location.present && matches!(morale.state, MoraleState::Routing | MoraleState::Wavering)
        {
            shaken += 1;
        }
        if location.present
            && morale.state.can_fight_or_flee()
            && !morale.state.is_broken()
            && strength.men > 0
        {
            for side in 0..field.n_sides {
                if side != info.side {
                    enemy_in[side * nz + location.zone] = true;
                }
            }
        }
    }
    // (Nothing to do for the units when none is shaken.)
    if shaken > 0 {
        let stored = order.rose();
        let range = rules.drums_range.round() as usize;
        if !measured_on.as_ref().is_some_and(|f| f.same(&field)) {
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
        for (info, _, location, mut orders, mut morale) in by_index_mut(&mut units, stored) {
            if !location.present
                || !matches!(morale.state, MoraleState::Routing | MoraleState::Wavering)
            {
                continue;
            }
            let heard = drummers
                .iter()
                .map(|d| (d, distance_from(d.2)))
                .filter(|(d, _)| d.1 == info.side)
                .filter(|(_, dist)| dist[location.zone] <= range)
                .min_by_key(|(d, dist)| (dist[location.zone], d.0));
            let mut rally_here = false;
            if let Some((drummer, _)) = heard {
                let boost = rules.drums_morale;
                morale.value = (morale.value + boost).clamp(0.0, 100.0);
                morale.push(Modifier::Drums, boost);
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
            } else if morale.state == MoraleState::Routing {
                let own_commander_here = commander_in
                    .get(info.side * nz + location.zone)
                    .copied()
                    .unwrap_or(false);
                rally_here = own_commander_here
                    && !enemy_in[info.side * nz + location.zone]
                    && morale.value > rules.rally_above;
                if own_commander_here && !enemy_in[info.side * nz + location.zone] {
                    // Safe by its own banner: it settles a little each turn.
                    let settle = rules.morale_recovery * 2.0;
                    morale.value = (morale.value + settle).clamp(0.0, 100.0);
                    morale.push(Modifier::Recovery, settle);
                }
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
    for mut commander in commanders.iter_mut() {
        commander.drums_left = commander.drums_left.saturating_sub(1);
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
