//! Wind, fire and smoke: the first system of the turn.
//!
//! Fire burns its zone's fuel and jumps to the downwind neighbour; with no
//! fuel left it dies. Smoke is made by fire, carried downwind, thinned by
//! still air and cleared by wind once the fire is out. Then the scene's own
//! obscurants are carried and thin in the same wind ([`haze::carry`]).

use super::TurnIo;
use super::components::ZoneIdx;

use super::chronicle::{Chronicle, Entry};
use super::field::Field;
use super::haze::{self, Haze, HazeScratch};
use super::rng::BattleRng;
use crate::scene::Compass;
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

pub use super::components::Weather;

/// Fire, fuel and smoke of a zone, each 0..1.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Burning {
    pub fire: f64,
    pub fuel: f64,
    pub smoke: f64,
}

/// Whether a crossing still passes men, and how many of each side have passed.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Passage {
    pub intact: bool,
    pub crossed: Vec<u32>,
}

/// What the weather leaves in each zone this turn, for the morale system
/// to read without walking the zones again (the zones' parts are written by
/// the weather alone within a turn, and it runs first).
#[derive(Debug, Default)]
pub struct Air {
    /// Per zone: its smoke and passage ([`ZoneAir::default`] where no zone
    /// was found).
    pub zones: Vec<ZoneAir>,
    /// Per zone: its thickest choking obscurant ([`Haze::choking`]); empty
    /// when none of the scene's chokes.
    pub choking: Vec<f64>,
}

/// A zone's smoke as its [`Burning`] holds it, and whether its passage stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ZoneAir {
    pub smoke: f64,
    pub intact: bool,
    pub fire: f64,
}

impl Default for ZoneAir {
    /// No smoke, and open.
    fn default() -> Self {
        ZoneAir {
            smoke: 0.0,
            intact: true,
            fire: 0.0,
        }
    }
}

/// Unit vector of a compass direction (x east, y north).
pub fn direction(toward: Compass) -> (f64, f64) {
    let d = std::f64::consts::FRAC_1_SQRT_2;
    match toward {
        Compass::North => (0.0, 1.0),
        Compass::South => (0.0, -1.0),
        Compass::East => (1.0, 0.0),
        Compass::West => (-1.0, 0.0),
        Compass::NorthEast => (d, d),
        Compass::SouthEast => (d, -d),
        Compass::SouthWest => (-d, -d),
        Compass::NorthWest => (-d, d),
    }
}

/// The neighbour the wind blows toward from `zone`, if any lies that way.
pub fn downwind(field: &Field, zone: usize, toward: Compass) -> Option<usize> {
    let (wx, wy) = direction(toward);
    let (x, y) = field.zones[zone].at;
    field.neighbours[zone]
        .iter()
        .copied()
        .map(|n| {
            let (nx, ny) = field.zones[n].at;
            let (dx, dy) = (f64::from(nx - x), f64::from(ny - y));
            let length = (dx * dx + dy * dy).sqrt();
            let along = if length > 0.0 {
                (dx * wx + dy * wy) / length
            } else {
                0.0
            };
            (n, along)
        })
        .filter(|(_, along)| *along > 0.5)
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(n, _)| n)
}

/// Each zone's downwind neighbour for each wind direction, found once per
/// field.
#[derive(Default)]
struct Winds {
    /// The field `downwind` was found on.
    field: Option<Field>,
    /// Per wind direction (clockwise from north), per zone.
    downwind: [Vec<Option<usize>>; 8],
}

impl Winds {
    /// Each zone's downwind neighbour on `field` with the wind blowing
    /// `toward`: [`downwind`] of each, found again only for another field.
    fn of(&mut self, field: &Field, toward: Compass) -> &[Option<usize>] {
        if !self.field.as_ref().is_some_and(|f| f.same(field)) {
            let n = field.zones.len();
            for (toward, zones) in Compass::CLOCKWISE.iter().zip(self.downwind.iter_mut()) {
                zones.clear();
                zones.extend((0..n).map(|zone| downwind(field, zone, *toward)));
            }
            self.field = Some(field.clone());
        }
        &self.downwind[toward.clockwise_index()]
    }
}

/// Below this strength the air is still (the words' band 0): a turn of
/// still air is nothing to tell.
pub const WIND_STILL: f64 = 0.15;

/// The weather system's working lists, kept between turns.
#[derive(Default)]
pub struct WeatherScratch {
    winds: Winds,
    state: Vec<Burning>,
    next: Vec<Burning>,
    /// The haze step's own.
    haze: HazeScratch,
}

pub fn weather_system(
    InMut(io): InMut<TurnIo>,
    mut scratch: Local<WeatherScratch>,
    mut weather: ResMut<Weather>,
    mut rng: ResMut<BattleRng>,
    mut zones: Query<(&ZoneIdx, &mut Burning, Option<&Passage>)>,
    mut hazes: Query<(&ZoneIdx, &mut Haze)>,
) {
    let (field, chronicle, air) = io.split_air();
    let rules = &field.rules;
    // Where this turn's weather entries start (the list is empty at the
    // start of a battle's turn; a test's world may keep older ones).
    let start = chronicle.entries.len();
    if rng.chance(rules.wind_drift) {
        let shift = rng.unit() * 0.4 - 0.2;
        let old = *weather;
        weather.wind = (weather.wind + shift).clamp(0.0, 1.0);
        // One time in four it turns a quarter of the compass, right (veers,
        // clockwise) or left (backs), from whichever of the eight points it
        // blows toward: the same draws as when there were four points.
        let mut veers = None;
        if rng.chance(0.25) {
            let right = rng.chance(0.5);
            weather.toward = weather.toward.turned(if right { 2 } else { -2 });
            veers = Some(right);
        }
        if let Some(veers) = veers
            && weather.wind >= WIND_STILL
        {
            // A turn is told in words (the header only shows the new wind).
            chronicle.push(Entry::WindShifts {
                strength: weather.wind,
                toward: weather.toward,
                veers,
            });
        } else if old.toward != weather.toward || (old.wind - weather.wind).abs() >= 0.1 {
            chronicle.push(Entry::Wind {
                strength: weather.wind,
                toward: weather.toward,
            });
        }
    }
    let WeatherScratch {
        winds,
        state,
        next,
        haze,
    } = &mut *scratch;
    let downwind_of = winds.of(field, weather.toward);
    fire_and_smoke(
        (state, next),
        downwind_of,
        field,
        &weather,
        chronicle,
        &mut zones,
        air,
    );
    // Stable order for the transcript whatever order the query visited
    // zones in: this turn's own entries, sorted when they are not already
    // (most turns there are none or one).
    let made = chronicle.entries.get_mut(start..).unwrap_or_default();
    if !made.is_sorted_by_key(entry_zone_key) {
        made.sort_by_key(entry_zone_key);
    }
    // Then the scene's own obscurants (dust, fog, night), in the same wind.
    haze::carry(haze, downwind_of, field, &weather, chronicle, &mut hazes);
    // What chokes in each zone besides the smoke (looked for only when an
    // obscurant of the scene's chokes: most have none).
    air.choking.clear();
    if field.obscurants.iter().any(|o| o.chokes) {
        air.choking.resize(field.zones.len(), 0.0);
        let choking = &mut air.choking[..];
        hazes.iter().for_each(|(idx, haze)| {
            if let Some(slot) = choking.get_mut(idx.0) {
                *slot = haze.choking(field);
            }
        });
    }
}

/// Fire burns and spreads downwind (`downwind_of`: each zone's neighbour
/// that way), smoke is made, carried and cleared; `state` and `next` are
/// working lists. Each zone's smoke and passage are noted in `air`.
fn fire_and_smoke(
    (state, next): (&mut Vec<Burning>, &mut Vec<Burning>),
    downwind_of: &[Option<usize>],
    field: &Field,
    weather: &Weather,
    chronicle: &mut Chronicle,
    zones: &mut Query<(&ZoneIdx, &mut Burning, Option<&Passage>)>,
    air: &mut Air,
) {
    let rules = &field.rules;
    let n = field.zones.len();
    state.clear();
    state.resize(n, Burning::default());
    // A fold over the tables (`for_each`), without the query's check per zone.
    zones.iter().for_each(|(idx, burning, _)| {
        if let Some(slot) = state.get_mut(idx.0) {
            *slot = *burning;
        }
    });
    let wind = weather.wind;
    next.clone_from(state);
    // What the wind clears of a zone's smoke with its fire out, and still
    // burning: the same for every zone this turn (worked out as per zone).
    let clear_by_wind = rules.smoke_wind_clear * wind;
    let clearing_out = rules.smoke_decay + clear_by_wind * 1.0;
    let clearing_burning = rules.smoke_decay + clear_by_wind * 0.3;
    for (zone, (&here, &target)) in state.iter().zip(downwind_of).enumerate() {
        // Burning eats fuel; without fuel the fire dies down.
        if here.fire > 0.0 {
            next[zone].fuel = (here.fuel - here.fire * rules.fire_burn * field.turn_scale).max(0.0);
            if here.fuel <= 0.0 {
                next[zone].fire = (here.fire - rules.fire_decay * field.turn_scale).max(0.0);
            }
        }
        if let Some(target) = target
            && here.fire > 0.2
            && state[target].fuel > 0.0
        {
            next[target].fire = (next[target].fire + here.fire * rules.fire_spread * wind).min(1.0);
        }
        // Smoke: made by fire, carried downwind, cleared by wind when the fire is out.
        let made = here.fire * rules.smoke_per_fire * field.turn_scale;
        let clearing = if here.fire < 0.05 {
            clearing_out
        } else {
            clearing_burning
        };
        let carried = if target.is_some() {
            here.smoke * rules.smoke_carry * wind
        } else {
            0.0
        };
        next[zone].smoke += made - carried - here.smoke * clearing;
        if let Some(target) = target {
            next[target].smoke += carried;
        }
    }
    air.zones.clear();
    air.zones.resize(n, ZoneAir::default());
    let airs = &mut air.zones[..];
    // A fold over the tables (`for_each`), in the order the loop over the
    // query would take, without its check per zone.
    zones.iter_mut().for_each(|(idx, mut burning, passage)| {
        let zone = idx.0;
        let Some(new) = next.get(zone) else { return };
        let old = *burning;
        // A spark that does not catch goes out (rule `fire_out_below`).
        let fire = if new.fire < rules.fire_out_below {
            0.0
        } else {
            new.fire
        };
        let new = Burning {
            fire: fire.clamp(0.0, 1.0),
            fuel: new.fuel.clamp(0.0, 1.0),
            smoke: new.smoke.clamp(0.0, 1.0),
        };
        *burning = new;
        // (Within the list: `next` holds a zone for each of its own.)
        if let Some(passage) = passage {
            airs[zone] = ZoneAir {
                smoke: new.smoke,
                intact: passage.intact,
                fire: new.fire,
            };
        }
        if old.fire < 0.2 && new.fire >= 0.2 {
            chronicle.push(Entry::FireSpreads { zone });
        }
        if old.fire > 0.0 && new.fire <= 0.0 {
            chronicle.push(Entry::FireOut { zone });
        }
        if old.smoke < rules.smoke_blind && new.smoke >= rules.smoke_blind {
            chronicle.push(Entry::SmokeThick { zone });
        }
        if old.smoke >= rules.smoke_thin && new.smoke < rules.smoke_thin {
            chronicle.push(Entry::SmokeClears { zone });
        }
    });
}

fn entry_zone_key(entry: &Entry) -> (u8, usize) {
    match entry {
        Entry::Wind { .. } | Entry::WindShifts { .. } => (0, 0),
        Entry::FireSpreads { zone } => (1, *zone),
        Entry::FireOut { zone } => (2, *zone),
        Entry::SmokeThick { zone } => (3, *zone),
        Entry::SmokeClears { zone } => (4, *zone),
        _ => (9, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::small_world;

    #[test]
    fn fire_spreads_downwind_and_smoke_follows() {
        let (mut world, mut schedule) = small_world(|scene| scene);
        world.resource_mut::<Weather>().wind = 1.0;
        world.resource_mut::<Weather>().toward = Compass::North;
        set_zone(
            &mut world,
            0,
            Burning {
                fire: 1.0,
                fuel: 1.0,
                smoke: 0.0,
            },
        );
        set_zone(
            &mut world,
            1,
            Burning {
                fire: 0.0,
                fuel: 1.0,
                smoke: 0.0,
            },
        );
        schedule.run(&mut world);
        let zones = zone_states(&mut world);
        assert!(zones[1].fire > 0.3, "fire jumped north: {:?}", zones[1]);
        assert!(
            zones[0].smoke > 0.3,
            "the burning zone smokes: {:?}",
            zones[0]
        );
    }

    #[test]
    fn smoke_clears_in_a_strong_wind_once_the_fire_is_out() {
        let (mut world, mut schedule) = small_world(|scene| scene);
        world.resource_mut::<Weather>().wind = 1.0;
        set_zone(
            &mut world,
            1,
            Burning {
                fire: 0.0,
                fuel: 0.0,
                smoke: 0.9,
            },
        );
        for _ in 0..4 {
            schedule.run(&mut world);
        }
        assert!(zone_states(&mut world).iter().all(|z| z.smoke < 0.2));
    }

    #[test]
    fn a_full_fire_blinds_the_zone_downwind_in_a_moderate_wind_but_not_the_next() {
        // Seed 000:7: the fire's smoke fills the river beside it, and the
        // banks cannot see each other.
        let (mut world, mut schedule) = small_world(|scene| scene);
        world.resource_mut::<Weather>().wind = 0.6;
        let blind = world.resource::<Field>().rules.smoke_blind;
        for _ in 0..6 {
            set_zone(
                &mut world,
                0,
                Burning {
                    fire: 1.0,
                    fuel: 1.0,
                    smoke: 1.0,
                },
            );
            schedule.run(&mut world);
        }
        let zones = zone_states(&mut world);
        assert!(zones[1].smoke >= blind, "the ford is blind: {:?}", zones[1]);
        assert!(
            zones[2].smoke < blind,
            "the far bank is not: {:?}",
            zones[2]
        );
    }

    fn set_zone(world: &mut World, zone: usize, value: Burning) {
        let mut query = world.query::<(&ZoneIdx, &mut Burning)>();
        for (idx, mut burning) in query.iter_mut(world) {
            if idx.0 == zone {
                *burning = value;
            }
        }
    }

    fn zone_states(world: &mut World) -> Vec<Burning> {
        let mut query = world.query::<(&ZoneIdx, &Burning)>();
        let mut all: Vec<(usize, Burning)> = query.iter(world).map(|(i, b)| (i.0, *b)).collect();
        all.sort_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, b)| b).collect()
    }
}
