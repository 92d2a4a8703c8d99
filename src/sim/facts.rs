//! What story conditions read of the world ([`Facts`]), captured from the
//! battle by [`Parts`] or made from a captured [`WorldState`].

use super::components::{CommanderState, Location, Morale, Vision};
use super::field::Field;
use super::haze::Haze;

use super::Clock;
use super::state::{CaptureQueries, WorldState};
use super::weather::{Burning, Passage, Weather};
use bevy_ecs::prelude::*;

/// What story conditions read of the world, and nothing else: per unit its
/// men, place and morale, per commander his zone, side and fall, per zone
/// its smoke, fire, passage and haze, the wind, the turn, what each side
/// sees, and the side totals conditions compare (men, men brought, men
/// routing, men per zone), summed once per capture.
///
/// The battle keeps one, rewritten in place after each change that touches
/// it ([`super::Battle::facts`]): no allocation once it has its size, and a
/// condition reads in constant time what [`WorldState`]'s methods sum over
/// every unit. [`Facts::of_state`] gives the same facts of a captured state.
/// It is captured by [`Parts`]: a condition that reads only the units (most
/// do) does not have the commanders, zones and vision copied for it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Facts {
    pub turn: u32,
    pub wind: f64,
    /// The point the wind blows toward, clockwise from north (0 north, 3
    /// south-east, …: [`crate::scene::Compass::clockwise_index`]).
    pub toward: u8,
    pub units: Vec<UnitFact>,
    pub commanders: Vec<CommanderFact>,
    pub zones: Vec<ZoneFact>,
    pub vision: Vision,
    n_sides: usize,
    n_zones: usize,
    n_obscurants: usize,
    /// Per zone, per side (`zone * n_sides + side`): men who crossed it.
    crossed: Vec<u32>,
    /// Per zone, per obscurant (`zone * n_obscurants + by`): its level.
    haze: Vec<f64>,
    /// Per side: men on the field (present, not surrendered or shattered).
    side_men: Vec<u32>,
    /// Per side: men its present units brought (their starting strength).
    side_start: Vec<u32>,
    /// Per side: men of its present units that are routing.
    side_routing: Vec<u32>,
    /// Per side, per zone (`side * n_zones + zone`): men on the field there.
    men_in: Vec<u32>,
}

/// The units' facts and the side totals of [`Facts`], each total's list cut
/// to the number of sides (or sides × zones), so that a capture's walk over
/// the units checks a side once per unit and not once per total.
struct Tally<'a> {
    units: &'a mut [UnitFact],
    side_start: &'a mut [u32],
    side_men: &'a mut [u32],
    side_routing: &'a mut [u32],
    /// Per side, per zone (`side * n_zones + zone`).
    men_in: &'a mut [u32],
    n_zones: usize,
}

impl Tally<'_> {
    fn zero(&mut self) {
        self.side_start.fill(0);
        self.side_men.fill(0);
        self.side_routing.fill(0);
        self.men_in.fill(0);
    }

    /// Writes a unit's fact and adds it to its side's totals.
    #[inline]
    fn unit(
        &mut self,
        idx: usize,
        side: usize,
        start_men: u32,
        men: u32,
        location: Location,
        morale: &Morale,
    ) {
        let Some(slot) = self.units.get_mut(idx) else {
            return;
        };
        *slot = UnitFact {
            men,
            zone: location.zone(),
            present: location.present,
            state: location.state(),
            value: morale.value,
        };
        if !location.present {
            return;
        }
        let (Some(start_total), Some(men_total), Some(routing_total)) = (
            self.side_start.get_mut(side),
            self.side_men.get_mut(side),
            self.side_routing.get_mut(side),
        ) else {
            return;
        };
        *start_total += start_men;
        if location.state().can_fight_or_flee() {
            *men_total += men;
            if location.zone() < self.n_zones
                && let Some(total) = self.men_in.get_mut(side * self.n_zones + location.zone())
            {
                *total += men;
            }
        }
        if location.state() == crate::scene::MoraleState::Routing {
            *routing_total += men;
        }
    }
}

/// Parts of [`Facts`] that are captured apart (the turn is in every one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Parts(u8);

impl Parts {
    pub const NONE: Parts = Parts(0);
    /// The units and the side totals.
    pub const UNITS: Parts = Parts(1);
    /// The commanders.
    pub const COMMANDERS: Parts = Parts(2);
    /// The zones: smoke, fire, passage, crossings, haze.
    pub const ZONES: Parts = Parts(4);
    /// The wind and what each side sees.
    pub const SKY: Parts = Parts(8);
    pub const ALL: Parts = Parts(15);

    /// The parts in either.
    #[must_use]
    pub fn with(self, other: Parts) -> Parts {
        Parts(self.0 | other.0)
    }

    /// The parts in this and not in `other`.
    #[must_use]
    pub fn without(self, other: Parts) -> Parts {
        Parts(self.0 & !other.0)
    }

    /// Whether every part of `other` is in this.
    pub fn holds(self, other: Parts) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// A unit as conditions read it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitFact {
    pub men: u32,
    pub zone: usize,
    pub present: bool,
    pub state: crate::scene::MoraleState,
    pub value: f64,
}

/// A commander as conditions read him.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommanderFact {
    pub zone: usize,
    pub side: usize,
    pub fallen: bool,
}

/// A zone as conditions read it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ZoneFact {
    pub smoke: f64,
    pub fire: f64,
    pub intact: bool,
}

const NO_UNIT: UnitFact = UnitFact {
    men: 0,
    zone: 0,
    present: false,
    state: crate::scene::MoraleState::Steady,
    value: 0.0,
};

const NO_COMMANDER: CommanderFact = CommanderFact {
    zone: 0,
    side: 0,
    fallen: false,
};

const NO_ZONE: ZoneFact = ZoneFact {
    smoke: 0.0,
    fire: 0.0,
    intact: false,
};

impl Facts {
    /// The facts of a captured state (the same as the battle's of the world
    /// the state was captured from).
    pub fn of_state(state: &WorldState, field: &Field) -> Facts {
        let mut facts = Facts::default();
        facts.begin(
            field,
            state.units.len(),
            state.commanders.len(),
            state.zones.len(),
        );
        facts.turn = state.turn;
        facts.wind = state.weather.wind;
        facts.toward = state.weather.toward.clockwise_index() as u8;
        let mut tally = facts.tally();
        for (idx, (unit, info)) in state.units.iter().zip(&field.units).enumerate() {
            tally.unit(
                idx,
                unit.side(info),
                info.start_men,
                unit.men,
                unit.location,
                &unit.morale,
            );
        }
        for commander in &state.commanders {
            facts.commander(commander);
        }
        for (idx, zone) in state.zones.iter().enumerate() {
            facts.zone(idx, &zone.burning, &zone.passage, Some(&zone.haze));
        }
        facts.vision = state.vision.clone();
        facts
    }

    /// The `parts` of the facts of the world as it is now, at `turn` (the
    /// world's clock, which the battle keeps at hand), written over these,
    /// reusing their memory, through the battle's queries. The other parts
    /// are left as they were.
    pub(crate) fn capture_into(
        &mut self,
        world: &World,
        field: &Field,
        turn: u32,
        queries: &mut CaptureQueries,
        parts: Parts,
    ) {
        let n_commanders = self.commanders.len();
        self.begin(field, field.units.len(), n_commanders, field.zones.len());
        debug_assert_eq!(turn, world.resource::<Clock>().turn);
        self.turn = turn;
        // `for_each`: bevy walks a query's tables in a tighter loop than
        // item by item.
        if parts.holds(Parts::UNITS) {
            let mut tally = self.tally();
            tally.zero();
            queries
                .unit_facts
                .iter(world)
                .for_each(|(info, strength, location, morale)| {
                    // The world's `UnitInfo` is the field's, but for its side.
                    tally.unit(
                        info.idx(),
                        info.side(),
                        field.start_men(info.idx()).unwrap_or(0),
                        strength.men,
                        *location,
                        morale,
                    );
                });
        }
        if parts.holds(Parts::COMMANDERS) {
            queries.commanders.iter(world).for_each(|commander| {
                if commander.idx >= self.commanders.len() {
                    // The first capture (commanders are never removed).
                    self.commanders.resize(commander.idx + 1, NO_COMMANDER);
                }
                self.commander(commander);
            });
        }
        if parts.holds(Parts::ZONES) {
            queries
                .zones
                .iter(world)
                .for_each(|(idx, burning, passage, haze)| self.zone(idx.0, burning, passage, haze));
        }
        if parts.holds(Parts::SKY) {
            let weather = world.resource::<Weather>();
            self.wind = weather.wind;
            self.toward = weather.toward.clockwise_index() as u8;
            // Field by field: a derived `clone_from` would allocate anew.
            let Vision { blind, sees } = world.resource::<Vision>();
            self.vision.blind.clone_from(blind);
            self.vision.sees.clone_from(sees);
        }
    }

    /// Whether these facts and `other` are the same in `parts` (and the
    /// turn): what debug builds check of the facts an effect wrote through.
    #[cfg(debug_assertions)]
    pub(crate) fn same_in(&self, other: &Facts, parts: Parts) -> bool {
        let units = !parts.holds(Parts::UNITS)
            || (self.units == other.units
                && self.side_men == other.side_men
                && self.side_start == other.side_start
                && self.side_routing == other.side_routing
                && self.men_in == other.men_in);
        let commanders = !parts.holds(Parts::COMMANDERS) || self.commanders == other.commanders;
        let zones = !parts.holds(Parts::ZONES)
            || (self.zones == other.zones
                && self.crossed == other.crossed
                && self.haze == other.haze);
        let sky = !parts.holds(Parts::SKY)
            || (self.wind.to_bits() == other.wind.to_bits()
                && self.toward == other.toward
                && self.vision == other.vision);
        self.turn == other.turn && units && commanders && zones && sky
    }

    /// These facts made the same as `other`, reusing their memory (a
    /// derived `clone_from` would allocate anew).
    pub(crate) fn copy_from(&mut self, other: &Facts) {
        // Destructured, so a field added to facts cannot be forgotten here.
        let Facts {
            turn,
            wind,
            toward,
            units,
            commanders,
            zones,
            vision: Vision { blind, sees },
            n_sides,
            n_zones,
            n_obscurants,
            crossed,
            haze,
            side_men,
            side_start,
            side_routing,
            men_in,
        } = other;
        self.turn = *turn;
        self.wind = *wind;
        self.toward = *toward;
        self.units.clone_from(units);
        self.commanders.clone_from(commanders);
        self.zones.clone_from(zones);
        self.vision.blind.clone_from(blind);
        self.vision.sees.clone_from(sees);
        self.n_sides = *n_sides;
        self.n_zones = *n_zones;
        self.n_obscurants = *n_obscurants;
        self.crossed.clone_from(crossed);
        self.haze.clone_from(haze);
        self.side_men.clone_from(side_men);
        self.side_start.clone_from(side_start);
        self.side_routing.clone_from(side_routing);
        self.men_in.clone_from(men_in);
    }

    /// Sizes the lists (each entry is then written) and zeroes the totals
    /// of lists sized anew.
    fn begin(&mut self, field: &Field, n_units: usize, n_commanders: usize, n_zones: usize) {
        /// `list` of `len` entries: resized only when its length differs.
        fn sized<T: Clone>(list: &mut Vec<T>, len: usize, blank: T) {
            if list.len() != len {
                list.clear();
                list.resize(len, blank);
            }
        }
        self.n_sides = field.n_sides;
        self.n_zones = n_zones;
        self.n_obscurants = field.obscurants.len();
        sized(&mut self.units, n_units, NO_UNIT);
        sized(&mut self.commanders, n_commanders, NO_COMMANDER);
        sized(&mut self.zones, n_zones, NO_ZONE);
        sized(&mut self.crossed, n_zones * self.n_sides, 0);
        sized(&mut self.haze, n_zones * self.n_obscurants, 0.0);
        for totals in [
            &mut self.side_men,
            &mut self.side_start,
            &mut self.side_routing,
        ] {
            sized(totals, self.n_sides, 0);
        }
        sized(&mut self.men_in, self.n_sides * n_zones, 0);
    }

    /// A unit's morale value changed (and nothing else these facts hold).
    pub(crate) fn set_morale_value(&mut self, unit: usize, value: f64) {
        if let Some(fact) = self.units.get_mut(unit) {
            fact.value = value;
        }
    }

    /// A present unit of `side` lost `lost` men (and nothing else changed):
    /// its men and its side's totals follow.
    pub(crate) fn lose_men(&mut self, unit: usize, side: usize, lost: u32) {
        let n_zones = self.n_zones;
        let Some(fact) = self.units.get_mut(unit) else {
            return;
        };
        fact.men = fact.men.saturating_sub(lost);
        if side >= self.n_sides || !fact.present {
            return;
        }
        if fact.state.can_fight_or_flee() {
            self.side_men[side] = self.side_men[side].saturating_sub(lost);
            if fact.zone < n_zones {
                let slot = &mut self.men_in[side * n_zones + fact.zone];
                *slot = slot.saturating_sub(lost);
            }
        }
        if fact.state == crate::scene::MoraleState::Routing {
            self.side_routing[side] = self.side_routing[side].saturating_sub(lost);
        }
    }

    /// A unit of `side` (which brought `start_men`) came onto the field (and
    /// nothing else changed): its fact and its side's totals follow.
    pub(crate) fn set_present(&mut self, unit: usize, side: usize, start_men: u32) {
        self.restate(unit, side, start_men, |fact| fact.present = true);
    }

    /// A unit of `side` (which brought `start_men`) took another morale
    /// state (and nothing else changed): its fact and its side's totals follow.
    pub(crate) fn set_state(
        &mut self,
        unit: usize,
        side: usize,
        start_men: u32,
        state: crate::scene::MoraleState,
    ) {
        self.restate(unit, side, start_men, |fact| fact.state = state);
    }

    /// Changes a unit's fact: its part of its side's totals is taken out
    /// as it was and put back as it is.
    fn restate(
        &mut self,
        unit: usize,
        side: usize,
        start_men: u32,
        change: impl FnOnce(&mut UnitFact),
    ) {
        let Some(&was) = self.units.get(unit) else {
            return;
        };
        self.count(&was, side, start_men, false);
        let mut now = was;
        change(&mut now);
        self.units[unit] = now;
        self.count(&now, side, start_men, true);
    }

    /// Adds a unit's men to its side's totals (or takes them out).
    fn count(&mut self, fact: &UnitFact, side: usize, start_men: u32, add: bool) {
        if side >= self.n_sides || !fact.present {
            return;
        }
        let n_zones = self.n_zones;
        let change = |total: &mut u32, men: u32| {
            *total = if add {
                total.saturating_add(men)
            } else {
                total.saturating_sub(men)
            };
        };
        change(&mut self.side_start[side], start_men);
        if fact.state.can_fight_or_flee() {
            change(&mut self.side_men[side], fact.men);
            if fact.zone < n_zones {
                change(&mut self.men_in[side * n_zones + fact.zone], fact.men);
            }
        }
        if fact.state == crate::scene::MoraleState::Routing {
            change(&mut self.side_routing[side], fact.men);
        }
    }

    /// A commander was put in another zone (and nothing else changed).
    pub(crate) fn set_commander_zone(&mut self, commander: usize, zone: usize) {
        if let Some(fact) = self.commanders.get_mut(commander) {
            fact.zone = zone;
        }
    }

    /// A zone's smoke and fire changed (and nothing else these facts hold).
    pub(crate) fn set_burning(&mut self, zone: usize, burning: &Burning) {
        if let Some(fact) = self.zones.get_mut(zone) {
            fact.smoke = burning.smoke;
            fact.fire = burning.fire;
        }
    }

    /// The units' facts and the side totals, to be written unit by unit.
    fn tally(&mut self) -> Tally<'_> {
        // Sized by `begin`; a list of another size counts nothing.
        let n_sides = self.n_sides;
        let n_zones = self.n_zones;
        fn cut(list: &mut [u32], len: usize) -> &mut [u32] {
            match list.get_mut(..len) {
                Some(list) => list,
                None => &mut [],
            }
        }
        Tally {
            units: &mut self.units,
            side_start: cut(&mut self.side_start, n_sides),
            side_men: cut(&mut self.side_men, n_sides),
            side_routing: cut(&mut self.side_routing, n_sides),
            men_in: cut(&mut self.men_in, n_sides * n_zones),
            n_zones,
        }
    }

    fn commander(&mut self, commander: &CommanderState) {
        if let Some(slot) = self.commanders.get_mut(commander.idx) {
            *slot = CommanderFact {
                zone: commander.zone,
                side: commander.side,
                fallen: commander.fallen.is_some(),
            };
        }
    }

    fn zone(&mut self, idx: usize, burning: &Burning, passage: &Passage, haze: Option<&Haze>) {
        let Some(slot) = self.zones.get_mut(idx) else {
            return;
        };
        *slot = ZoneFact {
            smoke: burning.smoke,
            fire: burning.fire,
            intact: passage.intact,
        };
        for side in 0..self.n_sides {
            self.crossed[idx * self.n_sides + side] =
                passage.crossed.get(side).copied().unwrap_or(0);
        }
        for by in 0..self.n_obscurants {
            self.haze[idx * self.n_obscurants + by] = haze.map_or(0.0, |h| h.level(by));
        }
    }

    /// Men of `side` on the field: present, not surrendered or shattered.
    pub fn side_men(&self, side: usize) -> u32 {
        self.side_men.get(side).copied().unwrap_or(0)
    }

    /// Men `side` brought onto the field (present units' starting strength).
    pub fn side_start_men(&self, side: usize) -> u32 {
        self.side_start.get(side).copied().unwrap_or(0)
    }

    /// Men `side` has lost: killed, trampled, surrendered, scattered.
    pub fn side_losses(&self, side: usize) -> u32 {
        self.side_start_men(side)
            .saturating_sub(self.side_men(side))
    }

    /// Share of the side's men on the field that are routing.
    pub fn side_routing(&self, side: usize) -> f64 {
        let on_field = self.side_men(side);
        if on_field == 0 {
            return 0.0;
        }
        let routing = self.side_routing.get(side).copied().unwrap_or(0);
        f64::from(routing) / f64::from(on_field)
    }

    /// Men of `side` on the field in `zone`.
    pub fn side_men_in(&self, side: usize, zone: usize) -> u32 {
        if side >= self.n_sides || zone >= self.n_zones {
            return 0;
        }
        self.men_in[side * self.n_zones + zone]
    }

    /// Men of `side` who have crossed at `zone`.
    pub fn crossed(&self, zone: usize, side: usize) -> u32 {
        if side >= self.n_sides || zone >= self.n_zones {
            return 0;
        }
        self.crossed[zone * self.n_sides + side]
    }

    /// The level of obscurant `by` in `zone`.
    pub fn haze(&self, zone: usize, by: usize) -> f64 {
        if by >= self.n_obscurants || zone >= self.n_zones {
            return 0.0;
        }
        self.haze[zone * self.n_obscurants + by]
    }
}
