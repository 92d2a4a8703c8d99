//! Morale: a sum of modifiers each turn, then a state change tested with a
//! seeded roll against quality.
//!
//! Modifiers (each a rule in `rules.ron`): casualties this turn, outnumbered
//! by the enemy seen, routing friends near (contagion), a commander in the
//! zone (by leadership), a rumor believed (from the rumor system), choking
//! smoke (less with wet cloth, not for riders mid-ford), no line of retreat,
//! and a slow recovery toward the unit's usual spirit when nothing presses it.
//!
//! States have hysteresis: steady → wavering below `waver_below`, back only
//! above `steady_above`; wavering → routing below `rout_below` on a failed
//! roll; any unit routs at once when the share of routing neighbours it sees
//! passes `cascade_base + cascade_quality × quality`; a routing unit cut
//! below `shatter_share` of its men is shattered. Rallying is the rally's
//! ([`super::rally`]), which this system runs as its last step.

use super::TurnIo;
use super::chronicle::{Chronicle, Entry};
use super::components::{
    CommanderState, Location, MoraleUnits, UnitInfo, UnitOrder, UnitSpec, Vision,
};
pub use super::components::{MAX_LAST, MAX_NOTED, Modifier, Morale};
use super::field::Field;

use super::order::{Rising, by_index, by_index_mut};

use super::SideOrders;
use super::rally::{RallyScratch, rally, spend_beats};
use super::rng::BattleRng;
use super::weather::Air;
use crate::scene::{MoraleState, Rules};
use bevy_ecs::prelude::*;

/// Chance that a wavering unit below `rout_below` breaks this turn.
pub fn rout_chance(morale: f64, quality: f64, rout_below: f64) -> f64 {
    if rout_below <= 0.0 || morale >= rout_below {
        return 0.0;
    }
    (0.25 + 0.5 * (1.0 - quality) + 0.5 * (rout_below - morale) / rout_below).clamp(0.0, 1.0)
}

/// The morale system's working lists, kept between turns so a turn
/// allocates nothing (per side and zone: `side * zones + zone`).
#[derive(Default)]
pub struct MoraleScratch {
    /// Per side and zone.
    tally: Vec<Tally>,
    /// Whether each unit (by index) withdrew from a fight this turn.
    withdrawn: Vec<bool>,
    /// Per side and zone, found before the units' walk for every place
    /// a unit reads (the others are left as an earlier turn left them:
    /// nothing reads them).
    places: Vec<Place>,
    /// The rally's, which this system runs last.
    rally: RallyScratch,
    /// Whether the world held the units in index order when `tally` was
    /// found.
    stored: bool,
    /// `TurnIo::stirs` when `tally` was found or last kept.
    seen: u32,
}

impl MoraleScratch {
    /// For the surrender that follows morale in the sub-step: the men of
    /// each side in each zone able to fight or flee as morale and the rally
    /// leave them (`side * zones + zone`, whole men: the tally's, less those
    /// of the units that left the fight on morale's walk), into `men`; and
    /// the units that may give up as they leave them, in unit-index order.
    /// None when the tally is not laid out for `n` zones and `n_sides`
    /// sides.
    pub(super) fn for_surrender(
        &self,
        men: &mut Vec<f64>,
        (n, n_sides): (usize, usize),
    ) -> Option<&super::surrender::SurrenderNotes> {
        if self.tally.len() != n * n_sides || n == 0 {
            return None;
        }
        men.clear();
        men.extend(self.tally.iter().map(|there| there.men));
        let notes = &self.rally.surrender;
        notes.take_gone(men);
        Some(notes)
    }

    /// Each zone's crowd (the room its units on the field take, as morale
    /// and the rally leave them) into `crowd`, from the tally, as
    /// surrender's own walk would sum it: only when a horse's room is whole
    /// men and the whole field's room is below 2^52, where every order of
    /// summing gives the one sum (false otherwise, `crowd` untouched). After
    /// [`MoraleScratch::for_surrender`] (`n` zones).
    pub(super) fn crowd_for_surrender(
        &self,
        crowd: &mut Vec<f64>,
        n: usize,
        horse_men: f64,
    ) -> bool {
        let whole = n > 0
            && horse_men.fract() == 0.0
            && self.tally.iter().map(|there| there.room).sum::<f64>() < (1u64 << 52) as f64;
        if whole {
            crowd.clear();
            crowd.resize(n, 0.0);
            for row in self.tally.chunks_exact(n) {
                for (zone, there) in crowd.iter_mut().zip(row) {
                    *zone += there.room;
                }
            }
            self.rally.surrender.take_gone_room(crowd, n, horse_men);
        }
        whole
    }
}

/// One side in one zone as the turn stands.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    /// Men able to fight or flee, and of them the routing.
    men: f64,
    routing: f64,
    /// The room those men take in a crowd (a horse takes `horse_men`).
    room: f64,
    /// Of the men, those coming on: ordered on to another zone, or in
    /// pursuit (not holding where they stand).
    pressing: f64,
    /// Men that withdrew from a fight this turn, as flight seen from another
    /// zone (the rule `withdrawal_seen_as_flight`).
    withdrawing: f64,
    /// The best leadership standing there (none: 0).
    leading: f64,
    /// The units able to fight or flee there: those whose morale is
    /// felt this turn, each reading the side's place in the zone.
    units: u32,
}

/// What the units of one side in one zone feel alike this turn, found
/// once for all of them.
#[derive(Debug, Clone, Copy, Default)]
struct Place {
    /// Men of the side in the zone and the neighbours it sees, and of those
    /// the routing (or withdrawing) men.
    near_men: f64,
    near_routing: f64,
    /// None routing or withdrawing near (`near_routing` is zero).
    calm: bool,
    /// Calm, and neither outnumbered, smoky nor trapped: a unit here feels
    /// none of those (what [`Turn::unit`]'s quiet way asks).
    quiet: bool,
    /// The enemy in the zone (heard if not seen) outnumbers the side half
    /// again.
    outnumbered: bool,
    /// An enemy able to fight (not broken) stands in the zone or a
    /// neighbouring one: men routing here are in contact or pursued.
    enemy_near: bool,
    /// Enemy here, and every way out held by the enemy or closed.
    trapped: bool,
    /// The smoke here is thick enough to choke.
    smoky: bool,
    /// The zone is blind with smoke.
    blind: bool,
    /// What the smoke takes from men on foot, and from riders (who cannot
    /// reach the water to wet their cloth mid-ford).
    choke: f64,
    choke_mounted: f64,
    /// The best leadership standing here (none: 0), and what it adds to
    /// a unit's usual morale for its ceiling (× `leader_ceiling`) and lifts
    /// it by (`leader_morale` ×).
    leadership: f64,
    ceiling_over: f64,
    lift: f64,
}

/// Empties `list` and fills it with `len` copies of `value`, keeping its memory.
fn refill<T: Clone>(list: &mut Vec<T>, len: usize, value: T) {
    list.clear();
    list.resize(len, value);
}

/// Morale, then rally (`rally`): rally reads the units' states as morale
/// leaves them, noted on morale's walk, and nothing runs between the two.
#[allow(clippy::too_many_arguments)]
pub fn morale_system(
    io: &mut TurnIo,
    scratch: &mut MoraleScratch,
    vision: &Vision,
    side_orders: &SideOrders,
    rng: &mut BattleRng,
    commanders: &mut Query<&mut CommanderState>,
    units: &mut MoraleUnits,
) {
    // The zones' smoke and passages as the weather left them this turn
    // (nothing else writes them within a turn): not walked again here.
    let (step, last_step, dt) = (io.step(), io.last(), io.dt());
    let super::TurnIo {
        field,
        chronicle,
        withdrawals,
        air,
        busy,
        stirs,
        ..
    } = &mut *io;
    let (field, withdrawals, air) = (&*field, &*withdrawals, &*air);
    let rules = &field.rules;
    let n = field.zones.len();
    let MoraleScratch {
        tally,
        withdrawn,
        places,
        rally: rallying,
        stored,
        seen,
    } = scratch;
    // In a later sub-step of the turn, when nothing the tallies count has
    // changed since they were found (no unit's men, zone, state or order, no
    // commander's zone or fall: `TurnIo::stirs`) and nobody withdrew then
    // or now, the tallies and the places found from them stand: the
    // vision, the air and the wet cloth they also read are the turn's.
    let keep = step > 0
        && *stirs == *seen
        && withdrawals.units.is_empty()
        && withdrawn.is_empty()
        && tally.len() == n * field.n_sides
        && places.len() == tally.len();
    if !keep {
        *stored = tally_places(field, withdrawals, withdrawn, tally, units);
    }
    let stored = *stored;
    *seen = *stirs;
    // The best leadership standing in each side and zone (none: 0); and
    // the rally's notes of the commanders, on the same walk.
    rallying.begin(n, field.n_sides);
    let mut beating = false;
    commanders.iter().for_each(|commander| {
        // Where he stands, per side and zone (the tally's and the rally's
        // lists are laid out alike); none when off the field.
        // (Within the tally: it holds every side and zone.)
        let at = (commander.side < field.n_sides && commander.zone < n)
            .then(|| commander.side * n + commander.zone);
        if let Some(there) = at.and_then(|at| tally.get_mut(at)) {
            // The greater (as `max` finds it: a leadership that is not a
            // number counts for none).
            let leading = commander.leading(rules);
            if leading > there.leading {
                there.leading = leading;
            }
        }
        beating |= rallying.commander(commander, at);
    });
    // A drum beats for a whole turn: spent as the turn's last sub-step ends.
    if beating && last_step {
        spend_beats(commanders);
    }
    // What the units of each side in each zone feel alike, for the places
    // units stand in.
    places.resize(n * field.n_sides, Place::default());
    let gather = Gather {
        rules,
        field,
        vision,
        wet_cloth: &side_orders.wet_cloth,
        n,
        air,
        tally,
    };
    // (Side by side, zone by zone: no division to find them from `at`.)
    if n > 0 && !keep {
        for (side, row) in tally.chunks_exact(n).enumerate() {
            for (zone, there) in row.iter().enumerate() {
                if there.units > 0 {
                    places[side * n + zone] = gather.place(side, zone);
                }
            }
        }
    }
    // Debug builds check kept tallies and places against fresh ones.
    #[cfg(debug_assertions)]
    if keep {
        check_kept(&gather, places, stored, withdrawals, commanders, units);
    }
    let mut turn = Turn {
        rules,
        dt,
        step,
        shaken: false,
        stirred: false,
        n,
        withdrawn,
        places,
        units: &field.units,
        start_morale: &field.start_morale,
        rng,
        chronicle,
        rallying: &mut *rallying,
    };
    // With the unit's turn out of line (`Turn::unit`) the walk keeps its
    // place in registers.
    by_index_mut(units, stored).for_each(
        |(entity, info, mut strength, mut location, mut orders, mut morale)| {
            // Losses are counted until morale has felt them: those of this
            // turn, and those effects caused between turns (a mine, a volley
            // from a scene event).
            // (Written only when there are some: most turns most units
            // lose none.)
            let lost_this_turn = strength.lost_this_turn;
            if lost_this_turn != 0 {
                strength.lost_this_turn = 0;
            }
            if !location.stands() {
                return;
            }
            if turn.unit(
                entity,
                info,
                strength.men,
                lost_this_turn,
                // (Nothing reads a `Location`'s change ticks: the state
                // written without marking it, as a walk over a million
                // units would write the ticks' column for every one.)
                location.bypass_change_detection(),
                &mut morale,
            ) {
                orders.set_order(UnitOrder::Hold);
            }
        },
    );
    let shaken = turn.shaken;
    if turn.stirred {
        super::stir(stirs);
    }
    // Shaken units (their rout rolls, the drums, the rally): the next
    // sub-step is not quiet.
    if shaken || beating {
        *busy = true;
    }
    if rally(rallying, field, dt, chronicle, units) {
        super::stir(stirs);
    }
}

/// The units that withdrew from a fight this turn (`withdrawn`, by index;
/// left empty on the many turns none did), and the men of each side and
/// zone as the turn stands (`tally`): able to fight or flee, routing, and
/// withdrawn as flight seen from another zone (the rule
/// `withdrawal_seen_as_flight`; none when it is off). Whether the world
/// holds the units in index order (the walk found them so).
#[inline(never)]
fn tally_places(
    field: &Field,
    withdrawals: &super::movement::Withdrawals,
    withdrawn: &mut Vec<bool>,
    tally: &mut Vec<Tally>,
    units: &MoraleUnits,
) -> bool {
    // (Folds below, not `for` loops: a query's own fold walks its tables
    // without a check per item.)
    // The units that withdrew from a fight this turn, by index.
    // (Left empty on the many turns none did.)
    let most = withdrawals.units.iter().max().map_or(0, |idx| idx + 1);
    let listed = if withdrawals.units.is_empty() {
        0
    } else {
        most.max(field.units.len())
    };
    refill(withdrawn, listed, false);
    for &unit in &withdrawals.units {
        withdrawn[unit] = true;
    }
    let withdrew_now = |unit: usize| withdrawn.get(unit).copied().unwrap_or(false);
    let (rules, n) = (&field.rules, field.zones.len());

    // Men of each side that withdrew from a fight this turn, by the zone
    // they are in now: seen from another zone, a withdrawal looks like flight
    // (the rule `withdrawal_seen_as_flight`; none when it is off). And men
    // and routing men per side and zone, as the turn stands.
    let seen_as_flight = rules.withdrawal_seen_as_flight > 0.0;
    // In unit-index order: as the units are stored, checked on the way; when
    // the world holds them otherwise, the pass is made again, sorted.
    let mut stored = true;
    loop {
        refill(tally, n * field.n_sides, Tally::default());
        // (A slice, not the list: the walk keeps where it starts and ends
        // in registers rather than reading them again through the list.)
        let tally = &mut tally[..];
        let mut order = Rising::default();
        by_index(units, stored).for_each(|(_, info, strength, location, orders, _)| {
            order.see(info.idx());
            if seen_as_flight
                && withdrew_now(info.idx())
                && location.present
                && !location.state().is_broken()
                && location.zone() < n
            {
                tally[info.side() * n + location.zone()].withdrawing +=
                    f64::from(strength.men) * rules.withdrawal_seen_as_flight;
            }
            if location.stands() {
                let here = &mut tally[info.side() * n + location.zone()];
                here.units += 1;
                here.men += f64::from(strength.men);
                here.room +=
                    f64::from(strength.men) * if info.mounted { rules.horse_men } else { 1.0 };
                if location.state().is_broken() {
                    here.routing += f64::from(strength.men);
                } else if match orders.order() {
                    UnitOrder::MoveTo(zone) => zone != location.zone(),
                    UnitOrder::Pursue => true,
                    UnitOrder::Hold | UnitOrder::RallyTo(_) => false,
                } {
                    here.pressing += f64::from(strength.men);
                }
            }
        });
        if !stored || order.rose() {
            break;
        }
        stored = false;
    }
    stored
}

/// That the tallies and places a sub-step kept from the one before
/// (`gather.tally`, `places`, and the order the units were found in) are what
/// the units and commanders as they stand now give (debug builds).
#[cfg(debug_assertions)]
fn check_kept(
    gather: &Gather,
    places: &[Place],
    stored: bool,
    withdrawals: &super::movement::Withdrawals,
    commanders: &Query<&mut CommanderState>,
    units: &MoraleUnits,
) {
    let (field, n) = (gather.field, gather.n);
    let (mut fresh, mut withdrawn) = (Vec::new(), Vec::new());
    let fresh_stored = tally_places(field, withdrawals, &mut withdrawn, &mut fresh, units);
    commanders.iter().for_each(|commander| {
        if commander.side < field.n_sides
            && commander.zone < n
            && let Some(there) = fresh.get_mut(commander.side * n + commander.zone)
        {
            let leading = commander.leading(gather.rules);
            if leading > there.leading {
                there.leading = leading;
            }
        }
    });
    assert_eq!(
        fresh_stored, stored,
        "the units' order changed within a turn"
    );
    assert_eq!(
        format!("{fresh:?}"),
        format!("{:?}", gather.tally),
        "the tallies a sub-step kept are out of step with the units"
    );
    let fresh_gather = Gather {
        tally: &fresh,
        ..*gather
    };
    for (at, there) in fresh.iter().enumerate() {
        if there.units > 0 && n > 0 {
            assert_eq!(
                format!("{:?}", fresh_gather.place(at / n, at % n)),
                format!("{:?}", places[at]),
                "a place a sub-step kept is out of step with the units"
            );
        }
    }
}

/// What the places (per side and zone) are found from.
struct Gather<'a> {
    rules: &'a Rules,
    field: &'a Field,
    vision: &'a Vision,
    wet_cloth: &'a [bool],
    /// Zones on the field.
    n: usize,
    air: &'a Air,
    tally: &'a [Tally],
}

/// The smoke in `zone` as morale feels it: the smoke, or a choking
/// obscurant of the scene's where thicker (as `max` finds it: smoke that
/// is not a number counts for none).
fn choking_smoke(air: &Air, zone: usize) -> f64 {
    let smoke = air.zones.get(zone).map_or(0.0, |here| here.smoke);
    smoke.max(air.choking.get(zone).copied().unwrap_or(0.0))
}

impl Gather<'_> {
    /// What the units of `side` in `zone` feel alike.
    #[inline(never)]
    fn place(&self, side: usize, zone: usize) -> Place {
        let Gather {
            rules,
            field,
            vision,
            n,
            air,
            tally,
            ..
        } = *self;
        let smoke = choking_smoke(air, zone);
        // The zone itself, then the neighbours it sees, summed in that order.
        let mut near_men = 0.0;
        let mut near_routing = 0.0;
        let mut add = |there: &Tally| {
            near_men += there.men;
            near_routing += there.routing + there.withdrawing;
        };
        add(&tally[side * n + zone]);
        // What the side sees, per zone (all, when not known: as
        // `Vision::side_sees` reads it).
        let sees = vision.sees.get(side);
        for &z in &field.neighbours[zone] {
            if z == zone || sees.and_then(|row| row.get(z)).copied().unwrap_or(true) {
                add(&tally[side * n + z]);
            }
        }
        let enemy_here: f64 = (0..field.n_sides)
            .filter(|s| *s != side)
            .map(|s| tally[s * n + zone].men)
            .sum();
        // Walls that stand only while the enemy here comes on: a crossing
        // too full to take these men (`crossing_m2_per_man`) and a zone
        // burning (`fire_walls_at`). Men waiting their turn at a ford with
        // the enemy holding his ground wait; with him pressing them, their
        // backs are to the water.
        let pressed = (0..field.n_sides)
            .filter(|s| *s != side)
            .any(|s| tally[s * n + zone].pressing > 0.0);
        let full = |z: usize| {
            field.zones[z].is_crossing()
                && tally[side * n + z].room + tally[side * n + zone].room > field.holds(z)
        };
        let burning = |z: usize| {
            rules.fire_walls_at > 0.0
                && air
                    .zones
                    .get(z)
                    .is_some_and(|there| there.fire >= rules.fire_walls_at)
        };
        let trapped = enemy_here > 0.0
            && field.neighbours[zone].iter().all(|&z| {
                // (Open where no passage was found.)
                !air.zones.get(z).is_none_or(|there| there.intact)
                    || (pressed && (full(z) || burning(z)))
                    || (0..field.n_sides)
                        .any(|s| s != side && tally[s * n + z].men > tally[side * n + z].men)
            });
        // An enemy able to fight here or a step away (seen or not: men
        // running hear the pursuit).
        let standing = |z: usize| {
            (0..field.n_sides).any(|s| {
                s != side && {
                    let there = &tally[s * n + z];
                    there.men > there.routing
                }
            })
        };
        let enemy_near = standing(zone) || field.neighbours[zone].iter().any(|&z| standing(z));
        let wet_cloth = self.wet_cloth.get(side).copied().unwrap_or(false);
        let choke_with =
            |cloth: bool| rules.smoke_morale * smoke * if cloth { rules.wet_cloth } else { 1.0 };
        let leadership = tally[side * n + zone].leading;
        let calm = near_routing == 0.0;
        let outnumbered = enemy_here > 1.5 * tally[side * n + zone].men;
        let smoky = smoke >= rules.smoke_thin;
        Place {
            near_men,
            near_routing,
            calm,
            quiet: calm && !outnumbered && !smoky && !trapped,
            outnumbered,
            enemy_near,
            trapped,
            smoky,
            blind: vision.is_blind(zone),
            choke: choke_with(wet_cloth),
            choke_mounted: choke_with(wet_cloth && !field.zones[zone].is_crossing()),
            leadership,
            ceiling_over: leadership * rules.leader_ceiling,
            lift: rules.leader_morale * leadership,
        }
    }
}

/// What every unit's morale reads this turn, gathered once (per side and
/// zone: `side * zones + zone`), and what it writes to.
struct Turn<'a> {
    rules: &'a Rules,
    /// The sub-step's length in 刻: rates per 刻 are multiplied by it.
    dt: f64,
    /// The sub-step of the turn, from 0.
    step: u32,
    /// Some unit is wavering or routing as its morale leaves it.
    shaken: bool,
    /// Some unit's state (or order) changed.
    stirred: bool,
    /// Zones on the field.
    n: usize,
    withdrawn: &'a [bool],
    places: &'a [Place],
    /// The scene's units (by index): what the world's do not carry.
    units: &'a [UnitSpec],
    /// Each unit's morale at the opening, by index (`Field::start_morale`).
    start_morale: &'a [f64],
    rng: &'a mut BattleRng,
    chronicle: &'a mut Chronicle,
    /// The rally's notes of each unit as its morale leaves it.
    rallying: &'a mut RallyScratch,
}

impl Turn<'_> {
    /// One unit's turn of morale (one on the field, able to fight or flee):
    /// the modifiers it feels and the state it comes to (its `location`
    /// written only when that is another). True when it breaks now (it
    /// stops to no order but flight).
    ///
    /// Never inlined: the fold over the query that calls it stays small,
    /// so the walk keeps its place in registers rather than on the stack.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn unit(
        &mut self,
        entity: Entity,
        info: &UnitInfo,
        men: u32,
        lost_this_turn: u32,
        location: &mut Location,
        morale: &mut Morale,
    ) -> bool {
        let (zone, old) = (location.zone(), location.state());
        let rules = self.rules;
        let side = info.side();
        let at = side * self.n + zone;
        let here = &self.places[at];
        let withdrew = self.withdrawn.get(info.idx()).copied().unwrap_or(false);
        // Each modifier is felt as it is found, in the order `why` shows
        // them; the leader's ceiling and recovery measure from where morale
        // stood before any of them.
        let before_turn = morale.value;
        let dt = self.dt;
        // The quiet way: a unit that lost no men, did not withdraw, fears
        // nothing, stands at or above its usual morale in a quiet place
        // where no leader lifts it, feels no modifier (its share of fear is
        // none); when its state then stands without a draw, that is all,
        // as the whole way below would find.
        if lost_this_turn == 0
            && !withdrew
            && here.quiet
            && men > 0
            && morale.fear == 0.0
            && !(morale.believes_lost && here.blind)
            && before_turn >= self.start_morale(info)
            && !(here.leadership > 0.0 && self.lift(info, here, before_turn) > 0.0)
            && let Some(shaken) = self.stands_still(info, before_turn, old)
        {
            self.shaken |= shaken;
            self.rallying.note(entity, info, zone, at, men, old);
            return false;
        }
        // Pressed: something told against it — in the turn's first
        // sub-step, anything noted this turn before it; in a later one,
        // what it felt in this sub-step, or a shock of the turn that lasts
        // it (a rumor believed, its commander fallen, the story's blow).
        let mut pressed = if self.step == 0 {
            morale.noted()
        } else {
            morale.shocked()
        };
        let mut feel = |morale: &mut Morale, modifier: Modifier, delta: f64| {
            pressed |= delta < 0.0;
            morale.feel(modifier, delta);
        };
        // Casualties this turn, as a share of the men before them.
        if lost_this_turn > 0 {
            let before = f64::from(men + lost_this_turn);
            if before > 0.0 {
                let percent = 100.0 * f64::from(lost_this_turn) / before;
                feel(
                    morale,
                    Modifier::Casualties,
                    -rules.casualty_morale * percent,
                );
            }
        }
        // Outnumbered by the enemy in the zone.
        if here.outnumbered {
            feel(
                morale,
                Modifier::Outnumbered,
                -rules.outnumbered_morale * dt,
            );
        }
        // Contagion: the share of fear it feels (routing friends near, a
        // rumor believed blind, fear that outlasts the truth).
        let felt_share = self.felt_share(men, old, here, withdrew, morale);
        if felt_share > 0.0 {
            feel(
                morale,
                Modifier::Contagion,
                -rules.contagion_morale * felt_share * dt,
            );
        }
        // A commander standing here lifts spirits toward a ceiling a little above
        // the unit's usual morale; his presence is not a bonus that piles up each turn.
        if here.leadership > 0.0 {
            let lift = self.lift(info, here, before_turn);
            if lift > 0.0 {
                feel(morale, Modifier::Leader, lift);
            }
        }
        // Smoke chokes; wet cloth helps, but riders mid-ford cannot reach the water.
        if here.smoky {
            let choke = if info.mounted {
                here.choke_mounted
            } else {
                here.choke
            };
            feel(morale, Modifier::Smoke, -choke * dt);
        }
        // No line of retreat.
        if here.trapped {
            feel(morale, Modifier::Trapped, -rules.trapped_morale * dt);
        }
        // Turning its back on an enemy within reach (the withdrawal rules).
        if withdrew && rules.withdraw_morale > 0.0 {
            feel(morale, Modifier::Withdrawal, -rules.withdraw_morale);
        }
        if !pressed && !old.is_broken() && before_turn < self.start_morale(info) {
            let recovery = (rules.morale_recovery * dt).min(self.start_morale(info) - before_turn);
            morale.feel(Modifier::Recovery, recovery);
        }

        // State changes.
        let (new, cascade) = self.next_state(info, men, morale.value, old, felt_share, withdrew);
        // A unit with no men left is no longer a body of men: it leaves
        // the fight as shattered, whatever its spirit (after every draw
        // above, so the battle's stream is drawn the same).
        let new = if men == 0 && new.can_fight_or_flee() {
            MoraleState::Shattered
        } else {
            new
        };
        if new != old {
            location.set_state(new);
            self.stirred = true;
            let unit = info.idx();
            self.chronicle.push(match new {
                MoraleState::Wavering => Entry::Wavers { unit },
                MoraleState::Steady => Entry::Steadies { unit },
                MoraleState::Routing if cascade => Entry::Cascade { unit },
                MoraleState::Routing => Entry::Routs { unit },
                MoraleState::Shattered => Entry::Shattered { unit },
                _ => Entry::Rallies { unit },
            });
        }
        if matches!(new, MoraleState::Wavering | MoraleState::Routing) {
            self.shaken = true;
        }
        self.rallying.note(entity, info, zone, at, men, new);
        new == MoraleState::Routing && new != old
    }

    /// The unit's morale at the opening: what recovery and a leader lift
    /// it toward (the field's, by index: none for an index the scene has
    /// not, which no unit in the world has).
    #[inline]
    fn start_morale(&self, info: &UnitInfo) -> f64 {
        self.start_morale.get(info.idx()).copied().unwrap_or(0.0)
    }

    /// The men the unit brought onto the field (the field's, by index).
    #[inline]
    fn start_men(&self, info: &UnitInfo) -> u32 {
        self.units.get(info.idx()).map_or(0, |spec| spec.start_men)
    }

    /// What a commander standing in the unit's place lifts its morale by
    /// this sub-step, from `before_turn` toward a ceiling a little above
    /// its usual morale (read when one stands there).
    #[inline]
    fn lift(&self, info: &UnitInfo, here: &Place, before_turn: f64) -> f64 {
        let ceiling = (self.start_morale(info) + here.ceiling_over).min(100.0);
        (here.lift * self.dt).min((ceiling - before_turn).max(0.0))
    }

    /// When a unit in good order or wavering that feels no fear (a share
    /// of none, no withdrawal) keeps state `old` at morale `value` without
    /// a draw (what [`Turn::next_state`] finds then): whether that state
    /// is a shaken one. None when it may change, or a roll decides.
    #[inline]
    fn stands_still(&self, info: &UnitInfo, value: f64, old: MoraleState) -> Option<bool> {
        let rules = self.rules;
        // A cascade: below the threshold, a share of none past what its
        // quality bears.
        let cascade = value < rules.steady_above && {
            let quality = self.units.get(info.idx()).map_or(0.0, |spec| spec.quality);
            0.0 > rules.cascade_base + rules.cascade_quality * quality
        };
        if cascade {
            return None;
        }
        match old {
            MoraleState::Steady | MoraleState::Rallied if value < rules.waver_below => None,
            MoraleState::Steady | MoraleState::Rallied => Some(false),
            MoraleState::Wavering if value > rules.steady_above || value < rules.rout_below => None,
            MoraleState::Wavering => Some(true),
            _ => None,
        }
    }

    /// The share of fear a unit feels, the greatest of three (what `max`
    /// finds; a share that is not a number counts for none): routing
    /// friends in its zone and the neighbours it can see, less itself; a
    /// rumor of defeat believed where it cannot see; and fear that outlasts
    /// the truth (off unless the scene's rules say), which decays here.
    fn felt_share(
        &self,
        men: u32,
        state: MoraleState,
        here: &Place,
        withdrew: bool,
        morale: &mut Morale,
    ) -> f64 {
        let (rules, dt) = (self.rules, self.dt);
        // (None routing or withdrawing near, and it did not withdraw: the
        // share is none, as the sum below would find, without it.)
        let routing_share = if here.calm && !withdrew {
            0.0
        } else {
            let own_men = f64::from(men);
            let own_routing = if state.is_broken() { own_men } else { 0.0 };
            // A withdrawing unit knows its own order.
            let own_routing = own_routing
                + if withdrew && !state.is_broken() {
                    own_men * rules.withdrawal_seen_as_flight
                } else {
                    0.0
                };
            let others = here.near_men - own_men;
            let share = if others > 0.0 {
                ((here.near_routing - own_routing) / others).clamp(0.0, 1.0)
            } else {
                0.0
            };
            // Men already running, with no enemy in reach (none able to
            // fight in the zone or a step away), stop feeding each other's
            // panic: they can be rallied (`contagion_out_of_reach`).
            if state.is_broken() && !here.enemy_near {
                share * rules.contagion_out_of_reach
            } else {
                share
            }
        };
        let believed = if morale.believes_lost && here.blind {
            0.5
        } else {
            0.0
        };
        // Fear that outlasts the truth (off unless the scene's rules say).
        let feared = rules.rumor_fear * morale.fear;
        if morale.fear > 0.0 {
            let kept = if dt == 1.0 {
                1.0 - rules.fear_decay
            } else {
                (1.0 - rules.fear_decay).max(0.0).powf(dt)
            };
            morale.fear = (morale.fear * kept).max(0.0);
            if morale.fear < 0.01 {
                morale.fear = 0.0;
            }
        }
        let mut felt_share = believed;
        if routing_share > felt_share {
            felt_share = routing_share;
        }
        if feared > felt_share {
            felt_share = feared;
        }
        felt_share
    }

    /// The state a unit's morale brings it to from `old`, and whether it
    /// breaks in a cascade (fear near it past what its quality bears). The
    /// rolls are drawn here, in this order: an ordered withdrawal turning
    /// to flight, then the rout roll of a wavering unit.
    fn next_state(
        &mut self,
        info: &UnitInfo,
        men: u32,
        value: f64,
        old: MoraleState,
        felt_share: f64,
        withdrew: bool,
    ) -> (MoraleState, bool) {
        let (rules, dt) = (self.rules, self.dt);
        // The scene's traits of the unit, read only by the few it concerns.
        let units = self.units;
        let spec = || units.get(info.idx());
        let quality = || spec().map_or(0.0, |spec| spec.quality);
        let cascade = !old.is_broken()
            && value < rules.steady_above
            && felt_share > rules.cascade_base + rules.cascade_quality * quality();
        // An ordered withdrawal that turns into flight (drawn only when on).
        let flight = withdrew
            && !old.is_broken()
            && rules.withdraw_rout > 0.0
            && self.rng.chance(rules.withdraw_rout * (1.0 - quality()));
        let new = if cascade || flight {
            MoraleState::Routing
        } else {
            match old {
                MoraleState::Steady | MoraleState::Rallied if value < rules.waver_below => {
                    if value < rules.rout_below
                        && self.rng.chance(super::field::per_step(
                            rout_chance(value, quality(), rules.rout_below),
                            dt,
                        ))
                    {
                        MoraleState::Routing
                    } else {
                        MoraleState::Wavering
                    }
                }
                MoraleState::Wavering if value > rules.steady_above => MoraleState::Steady,
                MoraleState::Wavering
                    if value < rules.rout_below
                        && self.rng.chance(super::field::per_step(
                            rout_chance(value, quality(), rules.rout_below),
                            dt,
                        )) =>
                {
                    MoraleState::Routing
                }
                MoraleState::Routing
                    if f64::from(men) < rules.shatter_share * f64::from(self.start_men(info)) =>
                {
                    MoraleState::Shattered
                }
                other => other,
            }
        };
        (new, cascade)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_notes_at_most_max_last_moves_and_folds_the_rest() {
        let mut morale = Morale::new(50.0);
        for _ in 0..MAX_LAST + 10 {
            morale.push(Modifier::Orders, -1.0);
        }
        morale.push(Modifier::Smoke, -2.0);
        assert_eq!(morale.last().len(), MAX_LAST);
        let total: f64 = morale.last().iter().map(|(_, d)| d).sum();
        assert_eq!(total, -(MAX_LAST as f64 + 10.0) - 2.0);
        assert!(morale.last().iter().any(|(m, _)| *m == Modifier::Smoke));
    }

    #[test]
    fn a_commander_lifts_morale_only_to_a_ceiling() {
        let (mut world, mut schedule) = crate::sim::testing::small_world(|mut scene| {
            scene.units[2].morale = 40.0;
            scene.units[2].zone = "tent".into();
            scene
        });
        for _ in 0..20 {
            schedule.run(&mut world);
        }
        let morale = crate::sim::testing::morale_of(&mut world, 2);
        assert!(
            morale > 40.0 && morale <= 58.0 + 1e-9,
            "the Khan (9) lifts 40 to at most 58: {morale}"
        );
    }

    /// Whether the Han foot, on the south bank with the Ming foot and a
    /// full ford behind it (the banner's 4,000 horse take 12,000 men's room;
    /// 300 m × 500 m at 15 m² a man holds 10,000), feels trapped after a
    /// turn, the Ming foot given `ming_order`.
    fn trapped_by_a_full_ford(ming_order: crate::scene::raw::Order, per_man: f64) -> bool {
        let (mut world, mut schedule) = crate::sim::testing::small_world(|mut scene| {
            scene.units[0].order = ming_order;
            scene.units[1].zone = "ford".into();
            scene.units[1].order = crate::scene::raw::Order::Hold;
            scene.units[2].zone = "south-bank".into();
            scene.units[2].order = crate::scene::raw::Order::Hold;
            scene.units[2].may_surrender = false;
            scene.rules.insert("crossing_m2_per_man".into(), per_man);
            scene
        });
        schedule.run(&mut world);
        let mut query = world.query::<(&UnitInfo, &Morale)>();
        query
            .iter(&world)
            .find(|(info, _)| info.idx() == 2)
            .is_some_and(|(_, morale)| morale.last().iter().any(|(m, _)| *m == Modifier::Trapped))
    }

    #[test]
    fn a_full_ford_is_a_wall_only_while_the_enemy_comes_on() {
        use crate::scene::raw::Order;
        assert!(
            trapped_by_a_full_ford(Order::MoveTo("ford".into()), 15.0),
            "the Ming coming on: the men queued at the full ford are trapped"
        );
        assert!(
            !trapped_by_a_full_ford(Order::Hold, 15.0),
            "the Ming holding: they wait their turn"
        );
        assert!(
            !trapped_by_a_full_ford(Order::MoveTo("ford".into()), 0.0),
            "no queue (the rule off): the ford is no wall"
        );
    }

    /// The Jin banner and Han foot, both routing at the tent with the Khan
    /// (no drums), after five turns: the Ming foot in `ming_zone`, and the
    /// share of fellow routers' contagion felt out of the enemy's reach.
    fn routers_by_their_commander(ming_zone: &str, out_of_reach: f64) -> [MoraleState; 2] {
        use crate::sim::testing::{set_state, small_world, state_of};
        let (mut world, mut schedule) = small_world(|mut scene| {
            scene.units[0].zone = ming_zone.into();
            scene.units[1].zone = "tent".into();
            scene
                .rules
                .insert("contagion_out_of_reach".into(), out_of_reach);
            scene
        });
        set_state(&mut world, 1, MoraleState::Routing);
        set_state(&mut world, 2, MoraleState::Routing);
        // Morale 15, their usual spirit as the scene gives it (70 and 50).
        for (info, mut morale) in world
            .query::<(&UnitInfo, &mut Morale)>()
            .iter_mut(&mut world)
        {
            if info.idx() > 0 {
                morale.value = 15.0;
            }
        }
        for _ in 0..5 {
            schedule.run(&mut world);
        }
        [state_of(&mut world, 1), state_of(&mut world, 2)]
    }

    #[test]
    fn routers_out_of_the_enemys_reach_rally_by_their_commander() {
        use MoraleState::{Rallied, Routing};
        assert_eq!(
            routers_by_their_commander("south-bank", 0.3),
            [Rallied, Rallied],
            "three zones from the enemy, by the Khan: the rout stops feeding on itself"
        );
        assert_eq!(
            routers_by_their_commander("south-bank", 1.0),
            [Routing, Routing],
            "the rule off: each feels the other running, and neither rallies"
        );
        assert_eq!(
            routers_by_their_commander("north-bank", 0.3),
            [Routing, Routing],
            "the enemy a step away: pursued men still feel each other run"
        );
    }

    #[test]
    fn rout_chance_rises_as_morale_falls_and_quality_drops() {
        assert_eq!(rout_chance(40.0, 0.5, 28.0), 0.0);
        assert!(rout_chance(5.0, 0.5, 28.0) > rout_chance(25.0, 0.5, 28.0));
        assert!(rout_chance(20.0, 0.2, 28.0) > rout_chance(20.0, 0.9, 28.0));
        assert!(rout_chance(0.0, 0.0, 28.0) <= 1.0);
    }
}
