//! A small world for the systems' unit tests: four zones in a line from the
//! south bank over a waist-deep ford to the north bank and the Khan's tent.

use super::Battle;
use super::components::{Location, Morale, Strength, UnitInfo, ZoneIdx};
use super::rumor::{Rumor, Rumors};
use super::weather::Burning;
use crate::scene::raw::RawScene;
use crate::scene::{self, MoraleState};
use bevy_ecs::prelude::*;

/// The small world's scene, shared with the integration tests' diagnostics
/// table (`tests/all/scenes.rs`): valid, with one item per line.
pub const SMALL_SCENE: &str = include_str!("../../tests/data/small.ron");

/// The small world, changed by `modify`, as a world and its turn schedule.
pub fn small_world(modify: impl FnOnce(RawScene) -> RawScene) -> (World, super::Turn) {
    let battle = small_battle(modify);
    (battle.world, battle.schedule)
}

pub fn small_scene(modify: impl FnOnce(RawScene) -> RawScene) -> scene::Scene {
    let raw: RawScene = ron::from_str(SMALL_SCENE).expect("the small scene parses");
    let raw = modify(raw);
    let source = ron::to_string(&raw).expect("the small scene serializes");
    let rules = scene::parse_rules("rules.ron", scene::EMBEDDED_RULES.1).expect("rules");
    scene::parse_scene("small.ron", &source, &rules).unwrap_or_else(|problems| {
        panic!(
            "{}",
            problems.iter().map(ToString::to_string).collect::<String>()
        )
    })
}

pub fn small_battle(modify: impl FnOnce(RawScene) -> RawScene) -> Battle {
    Battle::new(&small_scene(modify), 7)
}

pub fn unit_men(world: &mut World, unit: usize) -> u32 {
    let mut query = world.query::<(&UnitInfo, &Strength)>();
    query
        .iter(world)
        .find(|(i, _)| i.idx() == unit)
        .map(|(_, s)| s.men)
        .unwrap_or(0)
}

pub fn morale_of(world: &mut World, unit: usize) -> f64 {
    let mut query = world.query::<(&UnitInfo, &Morale)>();
    query
        .iter(world)
        .find(|(i, _)| i.idx() == unit)
        .map(|(_, m)| m.value)
        .unwrap_or(0.0)
}

pub fn state_of(world: &mut World, unit: usize) -> MoraleState {
    let mut query = world.query::<(&UnitInfo, &Location)>();
    query
        .iter(world)
        .find(|(i, _)| i.idx() == unit)
        .map(|(_, l)| l.state())
        .unwrap_or(MoraleState::Steady)
}

pub fn set_state(world: &mut World, unit: usize, state: MoraleState) {
    let mut query = world.query::<(&UnitInfo, &mut Location)>();
    for (info, mut location) in query.iter_mut(world) {
        if info.idx() == unit {
            location.set_state(state);
        }
    }
}

pub fn unit_zone_smoke(world: &mut World, zone: usize, smoke: f64) {
    let mut query = world.query::<(&ZoneIdx, &mut Burning)>();
    for (idx, mut burning) in query.iter_mut(world) {
        if idx.0 == zone {
            burning.smoke = smoke;
        }
    }
}

pub fn spread_rumor(world: &mut World, zone: usize, about: usize, routed: bool, credibility: f64) {
    let n = world.query::<&ZoneIdx>().iter(world).count();
    let mut reached = vec![false; n];
    reached[zone] = true;
    world.resource_mut::<Rumors>().active.push(Rumor {
        about,
        routed,
        credibility,
        reached,
        believers: Vec::new(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unit 0 (foot) and unit 1 (horse) fight on the north bank for two
    /// hours, in turns of `minutes`: what each has left, the mean over ten
    /// seeds (the rolls of rout fall on other draws at another turn length:
    /// the weather draws once a turn).
    fn two_hours_of_fighting(minutes: u32) -> (u32, u32) {
        let scene = small_scene(|mut scene| {
            scene.meta.turn_minutes = minutes;
            scene.units[0].zone = "north-bank".into();
            scene.units[0].morale = 75.0;
            // The rates are what must not depend on the turn's length;
            // the luck drawn in each sub-step (combat_luck) falls on other
            // draws at another length, so it is off here.
            scene.rules.insert("combat_luck".into(), 0.0);
            scene.rules.insert("trample_luck".into(), 0.0);
            scene
        });
        let (mut ming, mut jin) = (0, 0);
        for seed in 0..10 {
            let mut battle = Battle::new(&scene, seed);
            for _ in 0..120 / minutes {
                battle.step_quiet();
            }
            let world = battle.world_mut();
            ming += unit_men(world, 0);
            jin += unit_men(world, 1);
        }
        (ming / 10, jin / 10)
    }

    #[test]
    fn the_same_fight_comes_out_the_same_at_any_turn_length() {
        let (ming, jin) = two_hours_of_fighting(15);
        assert!(ming < 3_000 && jin < 4_000, "they fought: {ming}, {jin}");
        for minutes in [30, 60, 120] {
            let (m, j) = two_hours_of_fighting(minutes);
            let near = |a: u32, b: u32| {
                let lost = |x: u32| 4_000.0 - f64::from(x);
                (lost(a) - lost(b)).abs() <= 0.1 * lost(b).max(100.0)
            };
            assert!(
                near(m, ming) && near(j, jin),
                "{minutes}-minute turns: Ming {m}, Jin {j}; 15-minute turns: Ming {ming}, Jin {jin}"
            );
        }
    }

    #[test]
    fn a_long_turn_is_fought_in_quarter_hours() {
        let field = small_battle(|mut scene| {
            scene.meta.turn_minutes = 120;
            scene
        })
        .field()
        .clone();
        assert_eq!(field.substeps, 8);
        assert!((field.step_scale - 1.0).abs() < 1e-12);
        let field = small_battle(|mut scene| {
            scene.meta.turn_minutes = 40;
            scene
        })
        .field()
        .clone();
        assert_eq!(field.substeps, 3);
        assert!((field.step_scale - 40.0 / 45.0).abs() < 1e-12);
    }
}

/// Ids by name in tests: the unit tests' and the integration tests' one
/// helper (`tests/common` includes the same file).
mod ids {
    use crate::scene::{FileId, Scene, UnitId, ZoneId};
    use crate::story::Game;
    include!("test_ids.rs");
}
pub use ids::Ids;
