//! The world as plain data: everything a turn can change, in index order.
//!
//! Capturing and restoring it is how conditions read the world, how undo
//! rewinds it and how a save stores it. What cannot change (the field) is
//! rebuilt from the scene and never stored.

use super::components::{
    CommanderState, Location, Morale, Orders, Strength, UnitInfo, UnitOrder, UnitSpec, Vision,
    ZoneIdx,
};
use super::field::Field;
use super::haze::Haze;

use super::rng::BattleRng;
use super::rumor::Rumors;
use super::weather::{Burning, Passage, Weather};
use super::{Clock, SideOrders};
use crate::scene::Scene;
use bevy_ecs::prelude::*;

/// The queries a capture reads, built once per battle (a query's state is
/// allocations and bookkeeping; building one per capture showed in profiles).
pub(crate) struct CaptureQueries {
    pub(super) units: QueryState<(
        &'static UnitInfo,
        &'static Strength,
        &'static Location,
        &'static Orders,
        &'static Morale,
    )>,
    /// What [`Facts`] read of a unit.
    pub(super) unit_facts: QueryState<(
        &'static UnitInfo,
        &'static Strength,
        &'static Location,
        &'static Morale,
    )>,
    pub(super) commanders: QueryState<&'static CommanderState>,
    pub(super) zones: QueryState<(
        &'static ZoneIdx,
        &'static Burning,
        &'static Passage,
        Option<&'static Haze>,
    )>,
}

impl CaptureQueries {
    pub(crate) fn new(world: &mut World) -> CaptureQueries {
        CaptureQueries {
            units: world.query(),
            unit_facts: world.query(),
            commanders: world.query(),
            zones: world.query(),
        }
    }
}

/// The queries a restart writes the opening through, built once per battle.
pub(crate) struct WriteQueries {
    units: QueryState<(
        &'static mut UnitInfo,
        &'static mut Strength,
        &'static mut Location,
        &'static mut Orders,
        &'static mut Morale,
    )>,
    commanders: QueryState<&'static mut CommanderState>,
    zones: QueryState<(
        &'static ZoneIdx,
        &'static mut Burning,
        &'static mut Passage,
        &'static mut Haze,
    )>,
}

impl WriteQueries {
    pub(crate) fn new(world: &mut World) -> WriteQueries {
        WriteQueries {
            units: world.query(),
            commanders: world.query(),
            zones: world.query(),
        }
    }
}

/// What perception reads, for computing vision outside the schedule.
type VisionQueries = (
    Query<'static, 'static, (&'static ZoneIdx, &'static Burning, Option<&'static Haze>)>,
    Query<'static, 'static, (&'static UnitInfo, &'static Location, &'static Morale)>,
    Query<'static, 'static, &'static CommanderState>,
);

/// What each side sees in `world` as it stands (perception, outside the schedule).
pub(crate) fn vision_of(world: &mut World) -> Vision {
    let mut system_state: bevy_ecs::system::SystemState<VisionQueries> =
        bevy_ecs::system::SystemState::new(world);
    let field = world.resource::<Field>();
    match system_state.get(world) {
        Ok((zones, units, commanders)) => {
            super::perception::compute(field, &zones, &units, &commanders)
        }
        Err(_) => Vision::default(),
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct UnitRecord {
    pub men: u32,
    pub lost_this_turn: u32,
    pub location: Location,
    pub orders: Orders,
    pub morale: Morale,
    /// The side it fights for, when a `ChangeSide` has moved it from the
    /// side the scene gives it.
    pub side: Option<usize>,
}

impl UnitRecord {
    /// The side it fights for now.
    pub fn side(&self, info: &UnitSpec) -> usize {
        self.side.unwrap_or(info.side)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ZoneRecord {
    pub burning: Burning,
    pub passage: Passage,
    /// The scene's obscurants besides smoke (none in most scenes).
    pub haze: Haze,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WorldState {
    pub turn: u32,
    pub weather: Weather,
    pub rng: BattleRng,
    pub units: Vec<UnitRecord>,
    pub commanders: Vec<CommanderState>,
    pub zones: Vec<ZoneRecord>,
    pub rumors: Rumors,
    pub vision: Vision,
    pub wet_cloth: Vec<bool>,
}

impl WorldState {
    /// The world at the opening of a scene.
    pub fn initial(scene: &Scene, seed: u64) -> WorldState {
        let mut state = WorldState::opening(scene, seed);
        state.vision = state.compute_vision(&Field::new(scene));
        state
    }

    /// [`WorldState::initial`] but for the vision, which is computed where the
    /// state is written ([`vision_of`] that world).
    pub(crate) fn opening(scene: &Scene, seed: u64) -> WorldState {
        let n_sides = scene.sides().len();
        let units = scene
            .units()
            .iter()
            .map(|unit| UnitRecord {
                men: unit.men,
                lost_this_turn: 0,
                location: Location::with_state(
                    unit.zone.idx(),
                    unit.present,
                    Morale::opening_state(unit.morale, scene.rules()),
                ),
                orders: Orders::new(UnitOrder::from(unit.order), 0.0, None),
                morale: Morale::new(unit.morale),
                side: None,
            })
            .collect();
        let commanders = scene
            .commanders()
            .iter()
            .enumerate()
            .map(|(idx, commander)| CommanderState {
                idx,
                side: commander.side.idx(),
                leadership: commander.leadership,
                zone: commander.zone.idx(),
                drums_left: 0,
                placed: false,
                fallen: None,
            })
            .collect();
        let zones = scene
            .zones()
            .iter()
            .map(|zone| ZoneRecord {
                burning: Burning {
                    fire: zone.fire,
                    fuel: zone.fuel,
                    smoke: zone.smoke,
                },
                passage: Passage {
                    intact: true,
                    crossed: vec![0; n_sides],
                },
                haze: Haze {
                    levels: vec![0.0; scene.obscurants().count()],
                },
            })
            .collect();
        WorldState {
            turn: 0,
            weather: scene
                .meta()
                .wind
                .map(|w| Weather {
                    wind: w.strength,
                    toward: w.toward,
                })
                .unwrap_or_default(),
            rng: BattleRng::from_seed(seed),
            units,
            commanders,
            zones,
            rumors: Rumors::default(),
            vision: Vision::default(),
            wet_cloth: vec![false; n_sides],
        }
    }

    #[allow(clippy::type_complexity)]
    fn compute_vision(&self, field: &Field) -> Vision {
        let mut world = World::new();
        world.insert_resource(field.clone());
        self.apply(&mut world);
        vision_of(&mut world)
    }

    /// A state of this one's shape for [`WorldState::capture_into`] to
    /// write over whole: its lists as long as this one's, nothing copied
    /// that the capture writes anyway (the units' morale notes, the cries,
    /// the sight). What the battle's view starts from when the last one is
    /// still held (by an undo step, a save being written).
    pub(crate) fn shaped_like(&self) -> WorldState {
        WorldState {
            turn: self.turn,
            weather: self.weather,
            rng: self.rng.clone(),
            units: (self.units.iter())
                .map(|unit| UnitRecord {
                    men: unit.men,
                    lost_this_turn: unit.lost_this_turn,
                    location: unit.location,
                    orders: unit.orders,
                    morale: Morale::new(unit.morale.value),
                    side: unit.side,
                })
                .collect(),
            commanders: self.commanders.clone(),
            zones: self.zones.clone(),
            rumors: Rumors::default(),
            vision: Vision::default(),
            wet_cloth: self.wet_cloth.clone(),
        }
    }

    /// [`WorldState::capture`] into this state, reusing its allocations
    /// (the units' list, morale modifiers, rumors, vision) and the battle's
    /// queries: what the battle's shared view does after every change.
    pub(crate) fn capture_into(&mut self, world: &mut World, queries: &mut CaptureQueries) {
        // (Counted from the tables, not walked.)
        let n_units = queries.units.iter(world).len();
        let n_commanders = queries.commanders.iter(world).len();
        let n_zones = queries.zones.iter(world).len();
        let n_field = world.resource::<Field>().units.len();
        let fits = self.units.len() == n_units
            && n_field == n_units
            && self.commanders.len() == n_commanders
            && self.zones.len() == n_zones;
        if !fits || !self.write_from(world, queries) {
            // Another shape (only ever the first capture), or an index past
            // the lists (never, but then the capture is whole): start afresh.
            *self = WorldState::capture(world);
        }
    }

    /// [`WorldState::capture_into`]'s writing into lists of the world's
    /// shape; false, with some written, where an index is past its list.
    fn write_from(&mut self, world: &World, queries: &mut CaptureQueries) -> bool {
        let CaptureQueries {
            units,
            commanders,
            zones,
            ..
        } = queries;
        let field = world.resource::<Field>();
        for (info, strength, location, orders, morale) in units.iter(world) {
            let (Some(unit), Some(spec)) =
                (self.units.get_mut(info.idx()), field.units.get(info.idx()))
            else {
                return false;
            };
            unit.men = strength.men;
            unit.lost_this_turn = strength.lost_this_turn;
            unit.location = *location;
            unit.orders = *orders;
            // Field by field (a derived clone_from would not reuse the
            // notes); destructured, so a new field cannot be forgotten here
            // (the notes are copied as `last` reads them).
            let Morale {
                value,
                believes_lost,
                fear,
                ..
            } = morale;
            unit.side = (spec.side != info.side()).then_some(info.side());
            unit.morale.value = *value;
            unit.morale.believes_lost = *believes_lost;
            unit.morale.fear = *fear;
            unit.morale.set_last(morale.last());
        }
        for commander in commanders.iter(world) {
            let Some(kept) = self.commanders.get_mut(commander.idx) else {
                return false;
            };
            kept.clone_from(commander);
        }
        for (idx, burning, passage, haze) in zones.iter(world) {
            let Some(zone) = self.zones.get_mut(idx.0) else {
                return false;
            };
            zone.burning = *burning;
            let Passage { intact, crossed } = passage;
            zone.passage.intact = *intact;
            zone.passage.crossed.clone_from(crossed);
            match haze {
                Some(haze) => zone.haze.levels.clone_from(&haze.levels),
                None => zone.haze.levels.clear(),
            }
        }
        self.turn = world.resource::<Clock>().turn;
        self.weather = *world.resource::<Weather>();
        self.rng.clone_from(world.resource::<BattleRng>());
        self.rumors.clone_from(world.resource::<Rumors>());
        self.vision.clone_from(world.resource::<Vision>());
        self.wet_cloth
            .clone_from(&world.resource::<SideOrders>().wet_cloth);
        true
    }

    pub fn capture(world: &mut World) -> WorldState {
        let scene_sides: Vec<usize> = world
            .resource::<Field>()
            .units
            .iter()
            .map(|u| u.side)
            .collect();
        let mut units: Vec<(usize, UnitRecord)> = world
            .query::<(&UnitInfo, &Strength, &Location, &Orders, &Morale)>()
            .iter(world)
            .map(|(info, strength, location, orders, morale)| {
                (
                    info.idx(),
                    UnitRecord {
                        men: strength.men,
                        lost_this_turn: strength.lost_this_turn,
                        location: *location,
                        orders: *orders,
                        morale: morale.clone(),
                        side: (scene_sides.get(info.idx()) != Some(&info.side()))
                            .then_some(info.side()),
                    },
                )
            })
            .collect();
        units.sort_by_key(|(idx, _)| *idx);
        let mut commanders: Vec<CommanderState> = world
            .query::<&CommanderState>()
            .iter(world)
            .cloned()
            .collect();
        commanders.sort_by_key(|c| c.idx);
        let mut zones: Vec<(usize, ZoneRecord)> = world
            .query::<(&ZoneIdx, &Burning, &Passage, Option<&Haze>)>()
            .iter(world)
            .map(|(idx, burning, passage, haze)| {
                (
                    idx.0,
                    ZoneRecord {
                        burning: *burning,
                        passage: passage.clone(),
                        haze: haze.cloned().unwrap_or_default(),
                    },
                )
            })
            .collect();
        zones.sort_by_key(|(idx, _)| *idx);
        WorldState {
            turn: world.resource::<Clock>().turn,
            weather: *world.resource::<Weather>(),
            rng: world.resource::<BattleRng>().clone(),
            units: units.into_iter().map(|(_, u)| u).collect(),
            commanders,
            zones: zones.into_iter().map(|(_, z)| z).collect(),
            rumors: world.resource::<Rumors>().clone(),
            vision: world.resource::<Vision>().clone(),
            wet_cloth: world.resource::<SideOrders>().wet_cloth.clone(),
        }
    }

    /// Replaces every entity and resource of the world with this state. The
    /// world must already hold the [`Field`] of the same scene.
    ///
    /// A world that already holds this scene's entities (every restore after
    /// the first: undo, load, a new simulated game) has its components
    /// written in place; only a world of another shape is respawned.
    pub fn apply(&self, world: &mut World) {
        // Resources first: a resource put on an entity after the units keeps
        // a slot for every entity before it (4 bytes a unit, each).
        world.insert_resource(Clock { turn: self.turn });
        world.insert_resource(self.weather);
        world.insert_resource(self.rng.clone());
        world.insert_resource(self.rumors.clone());
        world.insert_resource(self.vision.clone());
        world.insert_resource(SideOrders {
            wet_cloth: self.wet_cloth.clone(),
        });
        if !self.write_in_place(world) {
            self.respawn(world);
        }
    }

    /// Writes units, commanders and zones into the entities there, when the
    /// world holds exactly one entity per index of each; false (and nothing
    /// written) otherwise.
    fn write_in_place(&self, world: &mut World) -> bool {
        let units_here = world.query::<&UnitInfo>().iter(world).count();
        let commanders_here = world.query::<&CommanderState>().iter(world).count();
        let zones_here = world.query::<&ZoneIdx>().iter(world).count();
        let n_sides = world.resource::<Field>().n_sides;
        if units_here != self.units.len()
            || commanders_here != self.commanders.len()
            || zones_here != self.zones.len()
            || world.resource::<Field>().units.len() != self.units.len()
        {
            return false;
        }
        let mut units = world.query::<(
            &mut UnitInfo,
            &mut Strength,
            &mut Location,
            &mut Orders,
            &mut Morale,
        )>();
        if units
            .iter(world)
            .any(|(info, ..)| info.idx() >= self.units.len())
        {
            return false;
        }
        let mut commanders = world.query::<&CommanderState>();
        if commanders
            .iter(world)
            .any(|c| self.commanders.get(c.idx).is_none_or(|s| s.idx != c.idx))
        {
            return false;
        }
        let mut zones = world.query::<(&ZoneIdx, &mut Burning, &mut Passage, &mut Haze)>();
        if zones.iter(world).count() != zones_here
            || zones.iter(world).any(|(idx, ..)| idx.0 >= self.zones.len())
        {
            return false;
        }
        let scene_sides: Vec<usize> = world
            .resource::<Field>()
            .units
            .iter()
            .map(|u| u.side)
            .collect();
        for (mut info, mut strength, mut location, mut orders, mut morale) in units.iter_mut(world)
        {
            let unit = &self.units[info.idx()];
            // A side changed by the story (a side out of range, from a
            // hand-edited save, is ignored rather than indexed).
            let side = unit
                .side
                .filter(|side| *side < n_sides)
                .unwrap_or(scene_sides[info.idx()]);
            if info.side() != side {
                info.set_side(side);
            }
            *strength = Strength {
                men: unit.men,
                lost_this_turn: unit.lost_this_turn,
            };
            *location = unit.location;
            *orders = unit.orders;
            morale.clone_from(&unit.morale);
        }
        let mut commanders = world.query::<&mut CommanderState>();
        for mut commander in commanders.iter_mut(world) {
            let idx = commander.idx;
            commander.clone_from(&self.commanders[idx]);
        }
        for (idx, mut burning, mut passage, mut haze) in zones.iter_mut(world) {
            let zone = &self.zones[idx.0];
            *burning = zone.burning;
            passage.clone_from(&zone.passage);
            haze.levels.clone_from(&zone.haze.levels);
        }
        true
    }

    /// [`WorldState::apply`] through the battle's queries and into the
    /// resources already there, allocating nothing once the world's lists
    /// have grown: what a restart does with the opening. False (and nothing
    /// written) when the world does not hold exactly one entity per index
    /// of this state's units, commanders and zones (units with all their
    /// components, zones with their haze), or lacks a resource: then `apply`
    /// is the way.
    pub(crate) fn write_into(
        &self,
        world: &mut World,
        field: &Field,
        queries: &mut WriteQueries,
    ) -> bool {
        let n_units = self.units.len();
        let n_zones = self.zones.len();
        let mut seen_units = 0;
        let mut seen_zones = 0;
        let mut seen_commanders = 0;
        let fits = field.units.len() == n_units
            && queries.units.iter(world).all(|(info, ..)| {
                seen_units += 1;
                info.idx() < n_units
            })
            && queries.commanders.iter(world).all(|c| {
                seen_commanders += 1;
                self.commanders.get(c.idx).is_some_and(|s| s.idx == c.idx)
            })
            && queries.zones.iter(world).all(|(idx, ..)| {
                seen_zones += 1;
                idx.0 < n_zones
            })
            && seen_units == n_units
            && seen_commanders == self.commanders.len()
            && seen_zones == n_zones;
        let has_resources = world.contains_resource::<Clock>()
            && world.contains_resource::<Weather>()
            && world.contains_resource::<BattleRng>()
            && world.contains_resource::<Rumors>()
            && world.contains_resource::<Vision>()
            && world.contains_resource::<SideOrders>();
        if !fits || !has_resources {
            return false;
        }
        let n_sides = field.n_sides;
        for (mut info, mut strength, mut location, mut orders, mut morale) in
            queries.units.iter_mut(world)
        {
            let unit = &self.units[info.idx()];
            // A side changed by the story (one out of range is ignored).
            let side = unit
                .side
                .filter(|side| *side < n_sides)
                .unwrap_or(field.units[info.idx()].side);
            if info.side() != side {
                info.set_side(side);
            }
            *strength = Strength {
                men: unit.men,
                lost_this_turn: unit.lost_this_turn,
            };
            *location = unit.location;
            *orders = unit.orders;
            // Field by field (a derived `clone_from` allocates anew);
            // destructured, so a new field cannot be forgotten here (the
            // notes are set as `last` reads them).
            let morale = &mut *morale;
            morale.set_last(unit.morale.last());
            let Morale {
                value,
                believes_lost,
                fear,
                ..
            } = morale;
            *value = unit.morale.value;
            *believes_lost = unit.morale.believes_lost;
            *fear = unit.morale.fear;
        }
        for mut commander in queries.commanders.iter_mut(world) {
            let idx = commander.idx;
            commander.clone_from(&self.commanders[idx]);
        }
        for (idx, mut burning, mut passage, mut haze) in queries.zones.iter_mut(world) {
            let zone = &self.zones[idx.0];
            *burning = zone.burning;
            let Passage { intact, crossed } = &mut *passage;
            *intact = zone.passage.intact;
            crossed.clone_from(&zone.passage.crossed);
            haze.levels.clone_from(&zone.haze.levels);
        }
        world.resource_mut::<Clock>().turn = self.turn;
        *world.resource_mut::<Weather>() = self.weather;
        world.resource_mut::<BattleRng>().clone_from(&self.rng);
        let Rumors { active } = &mut *world.resource_mut::<Rumors>();
        active.clone_from(&self.rumors.active);
        let Vision { blind, sees } = &mut *world.resource_mut::<Vision>();
        blind.clone_from(&self.vision.blind);
        sees.clone_from(&self.vision.sees);
        // Destructured, so a field added to these cannot be forgotten here.
        let SideOrders { wet_cloth } = &mut *world.resource_mut::<SideOrders>();
        wet_cloth.clone_from(&self.wet_cloth);
        true
    }

    fn respawn(&self, world: &mut World) {
        // Resources live on entities too, so despawn only what this state owns.
        let owned: Vec<Entity> = world
            .query_filtered::<Entity, Or<(With<UnitInfo>, With<CommanderState>, With<ZoneIdx>)>>()
            .iter(world)
            .collect();
        for entity in owned {
            world.despawn(entity);
        }
        let field = world.resource::<Field>().clone();
        let n_sides = field.n_sides;
        // In batches: the tables are made the size of the batch, not grown
        // by doubling.
        world.spawn_batch(field.units.iter().map(UnitInfo::from).zip(&self.units).map(
            |(mut info, unit)| {
                // A side changed by the story (a side out of range, from a
                // hand-edited save, is ignored rather than indexed).
                if let Some(side) = unit.side.filter(|side| *side < n_sides) {
                    info.set_side(side);
                }
                (
                    info,
                    Strength {
                        men: unit.men,
                        lost_this_turn: unit.lost_this_turn,
                    },
                    unit.location,
                    unit.orders,
                    unit.morale.clone(),
                )
            },
        ));
        world.spawn_batch(self.commanders.iter().cloned());
        world.spawn_batch(self.zones.iter().enumerate().map(|(idx, zone)| {
            (
                ZoneIdx(idx),
                zone.burning,
                zone.passage.clone(),
                zone.haze.clone(),
            )
        }));
    }

    /// Men of `side` on the field: present, not surrendered or shattered.
    pub fn side_men(&self, field: &Field, side: usize) -> u32 {
        self.units
            .iter()
            .zip(&field.units)
            .filter(|(unit, info)| {
                unit.side(info) == side
                    && unit.location.present
                    && unit.location.state().can_fight_or_flee()
            })
            .map(|(unit, _)| unit.men)
            .sum()
    }

    /// Men `side` brought onto the field (present units' starting strength).
    pub fn side_start_men(&self, field: &Field, side: usize) -> u32 {
        self.units
            .iter()
            .zip(&field.units)
            .filter(|(unit, info)| unit.side(info) == side && unit.location.present)
            .map(|(_, info)| info.start_men)
            .sum()
    }

    /// Men `side` has lost: killed, trampled, surrendered, scattered.
    pub fn side_losses(&self, field: &Field, side: usize) -> u32 {
        self.side_start_men(field, side)
            .saturating_sub(self.side_men(field, side))
    }

    /// Share of the side's men on the field that are routing.
    pub fn side_routing(&self, field: &Field, side: usize) -> f64 {
        let on_field = self.side_men(field, side);
        if on_field == 0 {
            return 0.0;
        }
        let routing: u32 = self
            .units
            .iter()
            .zip(&field.units)
            .filter(|(unit, info)| {
                unit.side(info) == side
                    && unit.location.present
                    && unit.location.state() == crate::scene::MoraleState::Routing
            })
            .map(|(unit, _)| unit.men)
            .sum();
        f64::from(routing) / f64::from(on_field)
    }

    pub fn side_men_in(&self, field: &Field, side: usize, zone: usize) -> u32 {
        self.units
            .iter()
            .zip(&field.units)
            .filter(|(unit, info)| {
                unit.side(info) == side
                    && unit.location.present
                    && unit.location.zone() == zone
                    && unit.location.state().can_fight_or_flee()
            })
            .map(|(unit, _)| unit.men)
            .sum()
    }
}
