//! A small world for the systems' unit tests: four zones in a line from the
//! south bank over a waist-deep ford to the north bank and the Khan's tent.

use super::morale::Morale;
use super::rumor::{Rumor, Rumors};
use super::weather::Burning;
use super::{Battle, Strength, UnitInfo, ZoneIdx};
use crate::scene::{self, MoraleState, RawScene};
use bevy_ecs::prelude::*;

pub const SMALL_SCENE: &str = r#"(
    meta: (id: "small", title: "Small", date: "", place: "", intro: "", turn_minutes: 15,
           max_turns: 20, timeout_ending: "end", playable: ["zhang"]),
    sides: [(id: "ming", name: "Ming", colour: Red), (id: "jin", name: "Jin", colour: Yellow)],
    zones: [
        (id: "south-bank", name: "South bank", kind: Bank, at: (0, 0), adjacent: ["ford"]),
        (id: "ford", name: "Ford", kind: Ford, at: (0, 1), adjacent: ["north-bank"],
         width_m: 300, length_m: 500, depth_m: 1.0),
        (id: "north-bank", name: "North bank", kind: Bank, at: (0, 2), adjacent: ["tent"]),
        (id: "tent", name: "Tent", kind: Camp, at: (0, 3), adjacent: []),
    ],
    commanders: [
        (id: "zhang", name: "Zhang", side: "ming", leadership: 5, zone: "south-bank", playable: true, drums: true),
        (id: "khan", name: "Khan", side: "jin", leadership: 9, zone: "tent", drums: true),
    ],
    units: [
        (id: "ming-foot", name: "Ming foot", side: "ming", kind: MingFoot, men: 4000, quality: 0.5, morale: 60, zone: "south-bank"),
        (id: "banner", name: "Banner", side: "jin", kind: BannerCavalry, men: 4000, quality: 0.7, morale: 70, zone: "north-bank"),
        (id: "han-foot", name: "Han foot", side: "jin", kind: HanBannerFoot, men: 1000, quality: 0.4, morale: 50, zone: "tent", may_surrender: true),
    ],
    endings: [(id: "end", title: "End", when: Never, text: "", summary: "")],
)"#;

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
        .find(|(i, _)| i.idx == unit)
        .map(|(_, s)| s.men)
        .unwrap_or(0)
}

pub fn morale_of(world: &mut World, unit: usize) -> f64 {
    let mut query = world.query::<(&UnitInfo, &Morale)>();
    query
        .iter(world)
        .find(|(i, _)| i.idx == unit)
        .map(|(_, m)| m.value)
        .unwrap_or(0.0)
}

pub fn state_of(world: &mut World, unit: usize) -> MoraleState {
    let mut query = world.query::<(&UnitInfo, &Morale)>();
    query
        .iter(world)
        .find(|(i, _)| i.idx == unit)
        .map(|(_, m)| m.state)
        .unwrap_or(MoraleState::Steady)
}

pub fn set_state(world: &mut World, unit: usize, state: MoraleState) {
    let mut query = world.query::<(&UnitInfo, &mut Morale)>();
    for (info, mut morale) in query.iter_mut(world) {
        if info.idx == unit {
            morale.state = state;
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
