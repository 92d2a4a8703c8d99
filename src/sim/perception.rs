//! Perception: which zones each side can see, given the smoke.
//!
//! A side sees a zone when the smoke there is below `smoke_blind` and it has
//! men or a commander in that zone or in a clear neighbouring one. A unit in
//! thick smoke sees nothing beyond its own shapes: it knows the enemy only by
//! sound and rumor.

use super::field::Field;
use super::haze::Haze;
use super::morale::Morale;
use super::movement::Location;
use super::weather::Burning;
use super::{CommanderState, UnitInfo, ZoneIdx};
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Resource, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Vision {
    /// Per zone: smoke at or above `smoke_blind`.
    pub blind: Vec<bool>,
    /// Per side, per zone: the side can see what is there.
    pub sees: Vec<Vec<bool>>,
}

impl Vision {
    pub fn side_sees(&self, side: usize, zone: usize) -> bool {
        self.sees
            .get(side)
            .and_then(|z| z.get(zone))
            .copied()
            .unwrap_or(true)
    }
    pub fn is_blind(&self, zone: usize) -> bool {
        self.blind.get(zone).copied().unwrap_or(false)
    }
}

pub fn perception_system(
    mut present: Local<Vec<bool>>,
    field: Res<Field>,
    mut vision: ResMut<Vision>,
    zones: Query<(&ZoneIdx, &Burning, Option<&Haze>)>,
    units: Query<(&UnitInfo, &Location, &Morale)>,
    commanders: Query<&CommanderState>,
) {
    compute_into(
        &field,
        &zones,
        &units,
        &commanders,
        &mut present,
        &mut vision,
    );
}

pub fn compute(
    field: &Field,
    zones: &Query<(&ZoneIdx, &Burning, Option<&Haze>)>,
    units: &Query<(&UnitInfo, &Location, &Morale)>,
    commanders: &Query<&CommanderState>,
) -> Vision {
    let mut vision = Vision::default();
    compute_into(
        field,
        zones,
        units,
        commanders,
        &mut Vec::new(),
        &mut vision,
    );
    vision
}

/// [`compute`] written into `vision`, keeping its memory (and `present`'s,
/// per side and zone: `side * zones + zone`) from turn to turn.
fn compute_into(
    field: &Field,
    zones: &Query<(&ZoneIdx, &Burning, Option<&Haze>)>,
    units: &Query<(&UnitInfo, &Location, &Morale)>,
    commanders: &Query<&CommanderState>,
    present: &mut Vec<bool>,
    vision: &mut Vision,
) {
    let n = field.zones.len();
    let Vision { blind, sees } = vision;
    blind.clear();
    blind.resize(n, false);
    // Each pass marks flags, the same in any order: folds over the tables
    // (`for_each`), without the query's check per item.
    zones.iter().for_each(|(idx, burning, haze)| {
        if let Some(slot) = blind.get_mut(idx.0) {
            *slot = burning.smoke >= field.rules.smoke_blind
                || haze.is_some_and(|haze| haze.blinds(field));
        }
    });
    present.clear();
    present.resize(n * field.n_sides, false);
    units.iter().for_each(|(info, location, morale)| {
        if location.present && morale.state.can_fight_or_flee() && location.zone < n {
            present[info.side * n + location.zone] = true;
        }
    });
    commanders.iter().for_each(|commander| {
        if commander.standing() && commander.zone < n && commander.side < field.n_sides {
            present[commander.side * n + commander.zone] = true;
        }
    });
    sees.resize_with(field.n_sides, Vec::new);
    sees.truncate(field.n_sides);
    for (side, seen) in sees.iter_mut().enumerate() {
        let here = &present[side * n..(side + 1) * n];
        seen.clear();
        seen.extend((0..n).map(|zone| {
            !blind[zone]
                && (here[zone]
                    || field.neighbours[zone]
                        .iter()
                        .any(|&from| here[from] && !blind[from]))
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::{small_world, unit_zone_smoke};

    #[test]
    fn thick_smoke_hides_a_zone_from_both_sides() {
        let (mut world, mut schedule) = small_world(|scene| scene);
        unit_zone_smoke(&mut world, 1, 1.0);
        schedule.run(&mut world);
        let vision = world.resource::<Vision>();
        assert!(vision.is_blind(1));
        assert!(!vision.side_sees(0, 1) && !vision.side_sees(1, 1));
        assert!(
            vision.side_sees(0, 0),
            "the clear south bank is seen by its own side"
        );
    }
}
