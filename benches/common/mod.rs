//! Scaled scenes for the benchmarks: the tutorial's skirmish
//! (`scenes/examples/tutorial-skirmish.ron`) copied until it has the number of
//! units asked for.
//!
//! Copy `c` of the tutorial's five units stands in lane `c / COPIES_PER_LANE`;
//! each lane is the tutorial's three zones (south bank, ford, north bank) with
//! its ford widened for the crowd in it, and lanes are joined bank to bank, so
//! the zone graph grows with the units (a ladder). Copy 0 keeps the
//! tutorial's ids, so its turning point, events and endings hold as written.

#![allow(dead_code)]

use std::sync::Arc;
use xiaoling::scene::raw::RawScene;
use xiaoling::scene::{self, Scene};

pub const TUTORIAL: &str = include_str!("../../scenes/examples/tutorial-skirmish.ron");

/// Copies of the tutorial's units in one lane (its ford widened as many times).
pub const COPIES_PER_LANE: usize = 20;

/// The RON text of a scene of about `units` units (a multiple of five).
pub fn scaled_source(units: usize) -> String {
    let mut raw: RawScene = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(TUTORIAL)
        .expect("the tutorial parses");
    let base_units = raw.units.clone();
    let base_zones = raw.zones.clone();
    let copies = units.div_ceil(base_units.len()).max(1);
    let lanes = copies.div_ceil(COPIES_PER_LANE);
    let zone_in = |zone: &str, lane: usize| {
        if lane == 0 {
            zone.to_string()
        } else {
            format!("{zone}-l{lane}")
        }
    };
    raw.zones.clear();
    for lane in 0..lanes {
        for zone in &base_zones {
            let mut zone = zone.clone();
            let id = zone.id.clone();
            zone.id = zone_in(&id, lane);
            zone.at = (lane as i32, zone.at.1);
            zone.adjacent = zone.adjacent.iter().map(|a| zone_in(a, lane)).collect();
            if lane > 0 && id.ends_with("bank") {
                zone.adjacent.push(zone_in(&id, lane - 1));
            }
            zone.width_m *= COPIES_PER_LANE as f64;
            raw.zones.push(zone);
        }
    }
    raw.units.clear();
    for copy in 0..copies {
        let lane = copy / COPIES_PER_LANE;
        for unit in &base_units {
            let mut unit = unit.clone();
            if copy > 0 {
                unit.id = format!("{}-c{copy}", unit.id);
                unit.leader = None;
            }
            unit.zone = zone_in(&unit.zone, lane);
            if let scene::raw::Order::MoveTo(zone) = &unit.order {
                unit.order = scene::raw::Order::MoveTo(zone_in(zone, lane));
            }
            raw.units.push(unit);
        }
    }
    ron::ser::to_string_pretty(&raw, ron::ser::PrettyConfig::default())
        .expect("the scaled scene serializes")
}

/// The shipped rules.
pub fn rules() -> scene::Rules {
    scene::parse_rules("rules.ron", scene::EMBEDDED_RULES.1).expect("the shipped rules")
}

/// The scaled scene, parsed and checked.
pub fn scaled(units: usize) -> Arc<Scene> {
    let source = scaled_source(units);
    Arc::new(
        scene::parse_scene("scaled.ron", &source, &rules()).unwrap_or_else(|problems| {
            panic!(
                "{}",
                problems.iter().map(ToString::to_string).collect::<String>()
            )
        }),
    )
}

/// A shipped scene by id.
pub fn shipped(id: &str) -> Arc<Scene> {
    let scenes = scene::load_embedded().expect("the shipped scenes load");
    Arc::new(
        scenes
            .into_iter()
            .find(|s| s.id() == id)
            .expect("the scene is shipped"),
    )
}
