//! Perception: which zones each side can see, given the smoke. The same
//! system then runs the rumor step ([`rumor::spread`]), which reads it.
//!
//! A side sees a zone when the smoke there is below `smoke_blind` and it has
//! men or a commander in that zone or in a clear neighbouring one. A unit in
//! thick smoke sees nothing beyond its own shapes: it knows the enemy only by
//! sound and rumor.

use super::TurnIo;
pub use super::components::Vision;
use super::components::{CommanderState, Location, Morale, UnitInfo, ZoneIdx};
use super::field::Field;
use super::haze::Haze;

use super::rng::BattleRng;
use super::rumor::{self, Listener, Listeners, RumorScratch, Rumors};
use super::weather::Burning;

use bevy_ecs::prelude::*;

/// What each side sees, then the cries it hears (the rumor step, which
/// reads what perception found): one system, reading the units on the field
/// once for both.
#[allow(clippy::too_many_arguments)]
pub fn perception_system(
    InMut(io): InMut<TurnIo>,
    mut sight: Local<Sight>,
    mut listeners: Local<Vec<(usize, Listener)>>,
    mut heard: Local<RumorScratch>,
    mut vision: ResMut<Vision>,
    mut rumors: ResMut<Rumors>,
    mut rng: ResMut<BattleRng>,
    zones: Query<(&ZoneIdx, &Burning, Option<&Haze>)>,
    mut units: Listeners,
    commanders: Query<&CommanderState>,
) {
    let (field, chronicle) = io.split();
    if rumors.active.is_empty() {
        // No cry abroad (most turns): where each side stands is read
        // straight from the units, and nobody is listening.
        let standing = units
            .iter_mut()
            .filter_map(|(_, info, location, mut morale)| {
                opening(&mut morale);
                on_field(location).then(|| (info.side(), location.zone()))
            });
        // (`look` walks them all.)
        sight.look(field, &zones, standing, &commanders);
        see(&mut sight, field, &mut vision);
        return;
    }
    // Whether the cries are as the rumor step left them at its last run:
    // changed since only by another hand (a new cry, a restore).
    let kept = !rumors.is_changed();
    rumor::listeners_into(&mut units, &mut listeners);
    let standing = listeners.iter().map(|(_, unit)| (unit.side, unit.zone));
    sight.look(field, &zones, standing, &commanders);
    see(&mut sight, field, &mut vision);
    rumor::spread(
        &mut heard,
        &listeners,
        field,
        &vision,
        &mut rumors,
        kept,
        &mut rng,
        chronicle,
        &mut units,
    );
}

pub fn compute(
    field: &Field,
    zones: &Query<(&ZoneIdx, &Burning, Option<&Haze>)>,
    units: &Query<(&UnitInfo, &Location, &Morale)>,
    commanders: &Query<&CommanderState>,
) -> Vision {
    let mut vision = Vision::default();
    let standing = units
        .iter()
        .filter(|(_, location, _)| on_field(location))
        .map(|(info, location, _)| (info.side(), location.zone()));
    let mut sight = Sight::default();
    sight.look(field, zones, standing, commanders);
    sight.see_into(field, &mut vision);
    vision
}

/// A new turn for a unit's morale: nothing has moved it yet (its notes of
/// the last turn forgotten). Done on the turn's first walk over the units,
/// perception's, which reads their morale anyway: a walk of its own cost
/// half a cache line a unit at a million. Written only where there is
/// something to forget: a unit's morale is not written (nor marked changed)
/// for nothing.
#[inline]
pub(crate) fn opening(morale: &mut Mut<Morale>) {
    if morale.noted_any() {
        morale.forget_turn();
    }
}

/// A unit that gives its side sight where it stands: there, and not
/// surrendered or shattered.
fn on_field(location: &Location) -> bool {
    location.stands()
}

/// What each side sees into `vision`, from what [`Sight::look`] read:
/// worked out again only when the blind zones or where the sides stand
/// differ from the last time (most turns nobody's sight changes), or when
/// `vision` has been written by another hand since this system's last run
/// (a restore).
fn see(sight: &mut Sight, field: &Field, vision: &mut ResMut<Vision>) {
    // The field is the turn's own and never changes (`super::TurnIo`).
    let kept = !vision.is_changed();
    if !(kept && sight.as_seen(vision)) {
        sight.see_into(field, vision);
    }
}

/// What perception reads of the field each turn, kept from turn to turn
/// (the lists' memory, and what each side was last found to see from).
#[derive(Default)]
pub struct Sight {
    /// Per zone: too thick to see through.
    blind: Vec<bool>,
    /// Per side and zone (`side * zones + zone`): the side has men or a
    /// standing commander there.
    present: Vec<bool>,
    /// `present` as it was when `Vision::sees` was last worked out here.
    seen_from: Vec<bool>,
}

impl Sight {
    /// Reads which zones are blind and where each side stands. `standing`
    /// gives the side and zone of every unit on the field that can fight or
    /// flee, in any order.
    fn look(
        &mut self,
        field: &Field,
        zones: &Query<(&ZoneIdx, &Burning, Option<&Haze>)>,
        standing: impl Iterator<Item = (usize, usize)>,
        commanders: &Query<&CommanderState>,
    ) {
        let n = field.zones.len();
        let Sight { blind, present, .. } = self;
        blind.clear();
        blind.resize(n, false);
        // Most scenes have no obscurant of their own: only the smoke is read.
        let hazy = !field.obscurants.is_empty();
        // Each pass marks flags, the same in any order: folds over the tables
        // (`for_each`), without the query's check per item.
        zones.iter().for_each(|(idx, burning, haze)| {
            if let Some(slot) = blind.get_mut(idx.0) {
                *slot = burning.smoke >= field.rules.smoke_blind
                    || (hazy && haze.is_some_and(|haze| haze.blinds(field)));
            }
        });
        present.clear();
        present.resize(n * field.n_sides, false);
        standing.for_each(|(side, zone)| {
            if zone < n {
                present[side * n + zone] = true;
            }
        });
        commanders.iter().for_each(|commander| {
            if commander.standing() && commander.zone < n && commander.side < field.n_sides {
                present[commander.side * n + commander.zone] = true;
            }
        });
    }

    /// What [`Sight::look`] read is what `vision` was last worked out from
    /// here.
    fn as_seen(&self, vision: &Vision) -> bool {
        self.blind == vision.blind && self.present == self.seen_from
    }

    /// What each side sees, from what [`Sight::look`] read, into `vision`.
    fn see_into(&mut self, field: &Field, vision: &mut Vision) {
        let Vision { blind, sees } = vision;
        blind.clone_from(&self.blind);
        self.sees_into(field, sees);
        std::mem::swap(&mut self.present, &mut self.seen_from);
    }

    /// Each side sees each clear zone where it stands and that zone's clear
    /// neighbours.
    fn sees_into(&self, field: &Field, sees: &mut Vec<Vec<bool>>) {
        let n = field.zones.len();
        let blind = &self.blind;
        sees.resize_with(field.n_sides, Vec::new);
        sees.truncate(field.n_sides);
        for (side, seen) in sees.iter_mut().enumerate() {
            let here = &self.present[side * n..(side + 1) * n];
            seen.clear();
            seen.resize(n, false);
            // From each clear zone where the side stands, it sees that zone and
            // each clear neighbour: the few zones it stands in are visited, not
            // every zone's neighbours (the same zones, as a zone's neighbours
            // are neighbours both ways: `Scene::adjacent`).
            let lit = here
                .iter()
                .zip(blind.iter())
                .map(|(&here, &blind)| here && !blind);
            for (zone, _) in lit.enumerate().filter(|&(_, lit)| lit) {
                seen[zone] = true;
                for &to in &field.neighbours[zone] {
                    if !blind[to] {
                        seen[to] = true;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::components::Modifier;
    use crate::sim::testing::{small_battle, small_world, spread_rumor, unit_zone_smoke};

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

    /// What moved a unit between turns (a scene's blow) is not told as the
    /// next turn's: its notes are forgotten as the turn begins, on
    /// perception's walk, whether a cry is abroad (the listeners' walk) or
    /// not.
    #[test]
    fn a_new_turn_forgets_what_moved_a_unit_before_it_with_or_without_a_cry() {
        for cry in [false, true] {
            let mut battle = small_battle(|scene| scene);
            battle.step();
            let mut query = battle.world.query::<&mut Morale>();
            for mut morale in query.iter_mut(&mut battle.world) {
                morale.feel(Modifier::Event, -1.0);
            }
            let mut query = battle.world.query::<&Morale>();
            assert!(
                query
                    .iter(&battle.world)
                    .all(|morale| morale.last().iter().any(|(m, _)| *m == Modifier::Event)),
                "noted between turns"
            );
            if cry {
                spread_rumor(&mut battle.world, 0, 1, true, 0.5);
            }
            battle.step();
            for morale in query.iter(&battle.world) {
                assert!(
                    !morale.last().iter().any(|(m, _)| *m == Modifier::Event),
                    "cry abroad: {cry}; {:?}",
                    morale.last()
                );
            }
        }
    }
}
