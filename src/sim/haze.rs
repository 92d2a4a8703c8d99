//! Obscurants of the scene's own (dust, fog, night…), declared in data: each
//! has a level per zone (0..1), is carried downwind by `carry × wind` and thins
//! by `decay` a turn; a zone where one reaches its `blind_at` is blind, like a
//! zone in thick smoke; one that `chokes` weighs on morale as smoke does.
//! Smoke itself stays the weather system's (made by fire).

use super::chronicle::{Chronicle, Entry};
use super::components::{Weather, ZoneIdx};
use super::field::Field;
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

pub use super::field::ObscurantInfo;

/// The level of each of the scene's obscurants in a zone, in the scene's order.
#[derive(Component, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Haze {
    pub levels: Vec<f64>,
}

impl Haze {
    pub fn level(&self, obscurant: usize) -> f64 {
        self.levels.get(obscurant).copied().unwrap_or(0.0)
    }

    /// Whether any obscurant here hides the zone.
    pub fn blinds(&self, field: &Field) -> bool {
        field
            .obscurants
            .iter()
            .enumerate()
            .any(|(k, info)| self.level(k) >= info.blind_at)
    }

    /// The thickest choking obscurant here (counted as smoke by morale).
    pub fn choking(&self, field: &Field) -> f64 {
        field
            .obscurants
            .iter()
            .enumerate()
            .filter(|(_, info)| info.chokes)
            .map(|(k, _)| self.level(k))
            .fold(0.0, f64::max)
    }
}

/// The haze step's working lists, kept between turns so a turn allocates
/// nothing once they have grown (per zone and obscurant: `zone * kinds + k`).
#[derive(Debug, Default)]
pub struct HazeScratch {
    state: Vec<f64>,
    next: Vec<f64>,
    entries: Vec<Entry>,
}

/// Carries and thins the scene's obscurants toward each zone's downwind
/// neighbour (`downwind_of`, the weather's, in the wind blowing now), after
/// the smoke: the second half of the weather system's step (one system, not two: a turn pays a
/// system's fixed cost once, and most scenes have no obscurant at all).
pub fn carry(
    scratch: &mut HazeScratch,
    downwind_of: &[Option<usize>],
    field: &Field,
    weather: &Weather,
    chronicle: &mut Chronicle,
    zones: &mut Query<(&ZoneIdx, &mut Haze)>,
) {
    if field.obscurants.is_empty() {
        return;
    }
    let n = field.zones.len();
    let kinds = field.obscurants.len();
    let HazeScratch {
        state,
        next,
        entries,
    } = scratch;
    state.clear();
    state.resize(n * kinds, 0.0);
    for (idx, haze) in zones.iter() {
        if idx.0 < n {
            let slot = &mut state[idx.0 * kinds..(idx.0 + 1) * kinds];
            for (k, level) in slot.iter_mut().enumerate() {
                *level = haze.level(k);
            }
        }
    }
    next.clone_from(state);
    for zone in 0..n {
        let target = downwind_of.get(zone).copied().flatten();
        for (k, info) in field.obscurants.iter().enumerate() {
            let here = state[zone * kinds + k];
            let carried = if target.is_some() {
                here * info.carry * weather.wind
            } else {
                0.0
            };
            next[zone * kinds + k] -= carried + here * (info.decay * field.turn_scale).min(1.0);
            if let Some(target) = target {
                next[target * kinds + k] += carried;
            }
        }
    }
    entries.clear();
    for (idx, mut haze) in zones.iter_mut() {
        if idx.0 >= n {
            continue;
        }
        let new = &next[idx.0 * kinds..(idx.0 + 1) * kinds];
        haze.levels.resize(kinds, 0.0);
        for (k, info) in field.obscurants.iter().enumerate() {
            let old = haze.levels[k];
            let level = new[k].clamp(0.0, 1.0);
            haze.levels[k] = level;
            if old < info.blind_at && level >= info.blind_at {
                entries.push(Entry::Obscured { zone: idx.0, by: k });
            } else if old >= info.blind_at && level < info.blind_at {
                entries.push(Entry::Unobscured { zone: idx.0, by: k });
            }
        }
    }
    // Stable order whatever order the query visited zones in.
    entries.sort_by_key(|entry| match entry {
        Entry::Obscured { zone, by } => (0, *by, *zone),
        Entry::Unobscured { zone, by } => (1, *by, *zone),
        _ => (2, 0, 0),
    });
    chronicle.entries.append(entries);
}

#[cfg(test)]
mod tests {
    use crate::scene::{Compass, Condition, Effect, Obscurant, Text};
    use crate::sim::chronicle::Entry;
    use crate::sim::morale::{Modifier, Morale};
    use crate::sim::testing::small_scene;
    use crate::sim::{Battle, UnitInfo};

    /// The small world with dust (blinds at 0.5, does not choke, carried
    /// by the wind, settles by a fifth a turn) and a choking mist.
    fn dusty() -> crate::scene::Scene {
        small_scene(|mut raw| {
            raw.obscurants.insert(
                "dust".into(),
                Obscurant {
                    name: Text::Plain("dust".into()),
                    blind_at: 0.5,
                    chokes: false,
                    decay: 0.2,
                    carry: 0.5,
                },
            );
            raw.obscurants.insert(
                "reek".into(),
                Obscurant {
                    name: Text::Plain("reek".into()),
                    blind_at: 0.9,
                    chokes: true,
                    decay: 0.0,
                    carry: 0.0,
                },
            );
            raw.meta.wind = Some(crate::scene::StartWind {
                strength: 1.0,
                toward: Compass::North,
            });
            raw.rules.insert("wind_drift".into(), 0.0);
            raw
        })
    }

    fn obscure(zones: &[&str], by: &str, level: f64) -> Effect {
        Effect::Obscure {
            zones: zones.iter().map(|z| z.to_string()).collect(),
            by: by.into(),
            level,
        }
    }

    #[test]
    fn dust_blinds_is_carried_downwind_and_settles_but_does_not_choke() {
        let scene = dusty();
        let mut battle = Battle::new(&scene, 7);
        // Dust over the south bank, where the Ming foot stand.
        battle.apply(&scene, &obscure(&["south-bank"], "dust", 1.0));
        let entries = battle.step();
        assert!(
            entries.contains(&Entry::Obscured { zone: 1, by: 0 }),
            "{entries:?}"
        );
        let world = battle.state();
        let (south, ford) = (world.zones[0].haze.level(0), world.zones[1].haze.level(0));
        assert!(
            (south - 0.3).abs() < 1e-9,
            "1 - carried 0.5 - settled 0.2: {south}"
        );
        assert!(
            (ford - 0.5).abs() < 1e-9,
            "carried north to the ford: {ford}"
        );
        assert!(world.vision.is_blind(1), "the ford is blind in the dust");
        assert!(!world.vision.is_blind(0), "the south bank sees again");
        // Dust does not choke: no smoke modifier for the foot.
        let mut query = battle.world.query::<(&UnitInfo, &Morale)>();
        let last = query
            .iter(&battle.world)
            .find(|(info, _)| info.idx() == 0)
            .map(|(_, morale)| morale.last().to_vec())
            .unwrap_or_default();
        assert!(!last.iter().any(|(m, _)| *m == Modifier::Smoke), "{last:?}");
    }

    #[test]
    fn a_choking_obscurant_weighs_like_smoke_and_night_covers_every_zone() {
        let scene = dusty();
        let mut battle = Battle::new(&scene, 7);
        battle.apply(&scene, &obscure(&[], "reek", 0.5));
        battle.step();
        let world = battle.state();
        assert!(
            world.zones.iter().all(|z| z.haze.level(1) == 0.5),
            "every zone"
        );
        let mut query = battle.world.query::<(&UnitInfo, &Morale)>();
        let last = query
            .iter(&battle.world)
            .find(|(info, _)| info.idx() == 0)
            .map(|(_, morale)| morale.last().to_vec())
            .unwrap_or_default();
        assert!(last.iter().any(|(m, _)| *m == Modifier::Smoke), "{last:?}");
        // And the story can ask.
        let scene = std::sync::Arc::new(dusty());
        let (mut game, _) =
            crate::story::Game::new(std::sync::Arc::clone(&scene), "zhang", 1).expect("game");
        let world = game.world();
        let asks = Condition::Obscured {
            zone: "ford".into(),
            by: "dust".into(),
            cmp: crate::scene::Cmp::Above(0.0),
        };
        assert!(!game.holds(&asks, &world, "x"));
    }
}
