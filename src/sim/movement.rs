//! Movement and crossings.
//!
//! Units move one zone per turn along the zone graph. A ford or bridge is a
//! zone of its own that passes only so many men per turn: width × flow per
//! metre per second × seconds × a depth slowing × a smoke slowing, where a
//! horse takes the room of `horse_men` men and a routing crowd flows at
//! `routing_flow` (faster is slower). Units in a crossing share its capacity
//! by the room they take. More room wanted than there is, and the excess
//! tramples — but only where there is panic or blindness: each unit loses its
//! share of `trample_rate` × the excess × its panic (`trample_routing` if it
//! routs, plus `trample_blind` in thick smoke). An orderly column in clear
//! air just waits its turn. A destroyed crossing passes no one.
//!
//! Enemies meet instead of passing through each other:
//! - a unit that has not broken does not leave a zone where a non-broken
//!   enemy holds its ground (enemies leaving together keep fighting where they
//!   arrive; only holders pin, so pins do not chain along a column);
//! - enemy columns ordered into each other's zones in the same turn do not
//!   swap: the stronger column goes on into the other's zone, the weaker
//!   stands and receives it, and they fight there.
//!
//! A commander who leads a unit rides with it when it moves (the first of his
//! units to move, by index) until a scene effect (`CommanderTo`) puts him
//! somewhere; from then on he stays where the scene put him. So a banner lord
//! who flees with his guard is where his guard is, and his presence (morale,
//! rallying, sight) goes with it.

use super::TurnIo;
use super::chronicle::{Chronicle, Entry};
use super::components::{CommanderState, UnitInfo, Vision, ZoneIdx};
pub use super::components::{Location, Orders, UnitOrder, Withdrawals};
use super::fast_hash::FxHashMap as HashMap;
use super::field::Field;

use super::paths::Paths;

use super::rng::BattleRng;
use super::weather::Passage;

use crate::scene::MoraleState;
use bevy_ecs::prelude::*;

/// Room a unit takes in a crossing: a horse counts as several men.
pub fn room(field: &Field, info: &UnitInfo, men: u32) -> f64 {
    f64::from(men) * room_per_man(field, info.mounted)
}

/// Room one man of a unit takes: a horse's if mounted.
fn room_per_man(field: &Field, mounted: bool) -> f64 {
    if mounted { field.rules.horse_men } else { 1.0 }
}

/// A unit that may have something to do in the moves, as it stood when they
/// began: one on the field that wants to move or stands in a crossing, or
/// one ordered to where it already is. Listed in unit-index order.
#[derive(Debug, Clone, Copy)]
struct Mover {
    entity: Entity,
    idx: usize,
    side: usize,
    zone: usize,
    men: u32,
    state: MoraleState,
    /// In a crossing.
    crossing: bool,
    /// Ordered to the zone it is in: it holds there from now on.
    arrived: bool,
    /// Pursues: its target is found once every unit is counted.
    pursuing: bool,
    /// The neighbouring zone it wants to move to.
    want: Option<usize>,
    /// Sets out in contact with an unbroken enemy (the withdrawal rules on).
    engaged: bool,
    /// Already stepped into another zone this turn (in an earlier
    /// sub-step): one zone a turn, so it stays where it is until the next
    /// turn, though its men go on crossing.
    stepped: bool,
    /// The zone it came into its zone from.
    came_from: Option<usize>,
    /// The room its men take in a crossing.
    room: f64,
}

/// A unit's share of a crossing's crowd as the moves begin: the room it
/// takes there, and that room by how fast it flows.
#[derive(Debug, Clone, Copy)]
struct Crowding {
    idx: usize,
    side: usize,
    zone: usize,
    room: f64,
    flowing: f64,
    /// Its place in the queue (rule of the unit: `precedence`).
    precedence: u32,
}

/// Where each side's obeying units march and stand as the moves begin
/// (per side and zone: `side * zones + zone`).
#[derive(Default, Clone)]
struct Stands {
    /// Per zone: the first of the columns leaving it this turn (an index in
    /// `columns`), if any. A zone has few ways out, so a pair's column is
    /// found by walking its zone's short list rather than by hashing.
    leaving: Vec<Option<u32>>,
    columns: Vec<Column>,
    /// Men of each side in each column: one slot per side, from the
    /// column's `start`.
    column_men: Vec<u32>,
    /// How each side stands in each zone.
    stand: Vec<Stand>,
}

/// How a side stands in a zone as the moves begin: a side that holds a
/// zone is there unbroken too, so one list says both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stand {
    Absent,
    /// It has an unbroken unit there (contact).
    Unbroken,
    /// It has an unbroken unit there that stays: it holds the zone.
    Holding,
}

/// The units of every side marching from one zone to a neighbour.
#[derive(Debug, Clone, Copy)]
struct Column {
    to: usize,
    /// Where its men start in `column_men`.
    start: usize,
    /// The next column leaving the same zone.
    next: Option<u32>,
}

impl Stands {
    fn reset(&mut self, zones: usize, sides: usize) {
        refill(&mut self.leaving, zones, None);
        self.columns.clear();
        self.column_men.clear();
        refill(&mut self.stand, zones * sides, Stand::Absent);
    }

    /// Notes an obeying unit of `men` in `from`, moving to `want` or staying.
    fn note(&mut self, field: &Field, side: usize, from: usize, men: u32, want: Option<usize>) {
        match want {
            Some(to) => self.march(field, side, (from, to), men),
            None if men > 0 => self.stand[side * field.zones.len() + from] = Stand::Holding,
            None => {}
        }
    }

    /// Where the column from one zone to another starts in `column_men`.
    fn find(&self, (from, to): (usize, usize)) -> Option<usize> {
        let mut at = self.leaving.get(from).copied().flatten();
        while let Some(column) = at.and_then(|at| self.columns.get(at as usize)) {
            if column.to == to {
                return Some(column.start);
            }
            at = column.next;
        }
        None
    }

    // Kept out of `note`, which most units (those that stay) pass through.
    #[inline(never)]
    fn march(&mut self, field: &Field, side: usize, pair: (usize, usize), men: u32) {
        let start = match self.find(pair) {
            Some(start) => start,
            None => {
                let start = self.column_men.len();
                self.column_men.resize(start + field.n_sides, 0);
                if let Some(first) = self.leaving.get_mut(pair.0) {
                    let at = u32::try_from(self.columns.len()).ok();
                    self.columns.push(Column {
                        to: pair.1,
                        start,
                        next: *first,
                    });
                    *first = at;
                }
                start
            }
        };
        if let Some(slot) = self.column_men.get_mut(start + side) {
            *slot += men;
        }
    }

    /// Men of each side in the column from one zone to another.
    fn column(&self, field: &Field, pair: (usize, usize)) -> &[u32] {
        self.find(pair).map_or(&[][..], |start| {
            &self.column_men[start..start + field.n_sides]
        })
    }
}

/// The movement system's working lists, kept between turns so a turn
/// allocates nothing once they have grown (per side and zone:
/// `side * zones + zone`; per zone and side: `zone * sides + side`).
#[derive(Default)]
pub struct MovementScratch {
    intact: Vec<bool>,
    /// Per zone: a ford or bridge (read for every unit, so kept at hand).
    crossing: Vec<bool>,
    paths: Paths,
    /// Where routing enemies of each side are (for pursuit).
    enemy_routing_in: Vec<bool>,
    crowds: Crowds,
    pursuit: HashMap<(usize, usize), Option<usize>>,
    commander_zone: Vec<Option<usize>>,
    movers: Vec<Mover>,
    stands: Stands,
    trampled: Vec<u32>,
    crossed: Vec<u32>,
    moved: Vec<(usize, usize)>,
    /// By commander index: the zone the first of his units that moved went to.
    followed: Vec<Option<usize>>,
    /// By unit index: stepped into another zone this turn (one zone a
    /// turn, whatever the sub-step).
    stepped: Vec<bool>,
    /// Per zone: the room that stepped into the crossing in this sub-step
    /// (added to its crowd as the moves began, against what it holds).
    entered: Vec<f64>,
    /// Side, bank, crossing: an unbroken column of the side waits on the
    /// bank, as the moves begin, for its own crowd in the crossing to clear.
    bank_queues: Vec<(usize, usize, usize)>,
    /// The turn's sub-step and `TurnIo::stirs` the census in `movers`,
    /// `stands` and `crowds` was taken at, once pursuers were aimed and the
    /// engaged pinned (none: not taken this turn, or not to be kept): what
    /// a later sub-step of the turn finds again when nothing it reads of
    /// the units has changed since. The moves only read those lists (but
    /// for the crossings' capacity, rated anew each sub-step), so the
    /// census stands in them as it was taken, copied nowhere.
    kept_at: Option<(u32, u32)>,
}

/// The crowds in the crossings as the moves begin, and what each crossing
/// passes in the sub-step (per zone, but for `units`).
#[derive(Default, Clone)]
struct Crowds {
    /// Each unit in a crossing, in unit-index order.
    units: Vec<Crowding>,
    /// The room taken in a crossing, and that room by how fast it flows.
    room: Vec<f64>,
    /// The room each side's men take in a crossing (per side and zone:
    /// `side * zones + zone`): what a side's queue on the banks waits on.
    side_room: Vec<f64>,
    flowing: Vec<f64>,
    /// The units in a crossing.
    count: Vec<u32>,
    /// Some unit in the crossing has a precedence above 0 (its queue is
    /// served by rank).
    ranked: Vec<bool>,
    /// The room a crossing passes in the sub-step.
    capacity: Vec<f64>,
}

impl Crowds {
    /// The room a unit taking `own_room` passes through its crossing this
    /// sub-step. Where the queue goes by rank (precedence), the queue ahead
    /// of it takes its room first and its own rank shares what is left by
    /// room; otherwise the whole crowd shares the capacity by room.
    fn passed(&self, zone: usize, own_room: f64, precedence: u32) -> f64 {
        let capacity = self.capacity[zone];
        if self.ranked.get(zone).copied().unwrap_or(false) {
            let (ahead, rank) = self.units.iter().filter(|c| c.zone == zone).fold(
                (0.0, 0.0),
                |(ahead, rank), c| {
                    if c.precedence > precedence {
                        (ahead + c.room, rank)
                    } else if c.precedence == precedence {
                        (ahead, rank + c.room)
                    } else {
                        (ahead, rank)
                    }
                },
            );
            let left = (capacity - ahead).max(0.0);
            let share = if rank > 0.0 { own_room / rank } else { 1.0 };
            left.min(rank.max(1.0)) * share
        } else {
            let crowd = self.room[zone];
            let share = if crowd > 0.0 { own_room / crowd } else { 1.0 };
            capacity.min(crowd.max(1.0)) * share
        }
    }
}

/// What presses on the crowds in the crossings as the moves begin: what
/// makes a crowd trample.
struct Press<'a> {
    field: &'a Field,
    vision: &'a Vision,
    crowds: &'a Crowds,
    stands: &'a Stands,
}

impl Press<'_> {
    /// Whether the crowd in a crossing is pushed from behind, as a side's
    /// men there feel it: by another unit in the crossing, by routing men
    /// in it, or by an enemy in it or on either bank (pursuit).
    fn pushed(&self, zone: usize, side: usize) -> bool {
        let (field, crowds, stands) = (self.field, self.crowds, self.stands);
        let n = field.zones.len();
        crowds.count.get(zone).copied().unwrap_or(0) > 1
            || crowds.flowing.get(zone) < crowds.room.get(zone)
            || (0..field.n_sides).any(|other| {
                other != side
                    && (stands.stand[other * n + zone] != Stand::Absent
                        || field.neighbours[zone]
                            .iter()
                            .any(|&z| stands.stand[other * n + z] != Stand::Absent))
            })
    }

    /// How hard a side's men in a crossing panic in a crush. What makes a
    /// crowd trample is panic and blindness, not its size: an orderly
    /// column in clear air waits its turn at the water's edge. And a crush
    /// needs a crowd pushed from behind ([`Press::pushed`]): men who cannot
    /// see stumble into each other only when others press on them. A unit
    /// alone in a dark ford, in order and unpursued, feels its way across at
    /// the ford's pace and loses no one.
    fn panic(&self, routing: bool, zone: usize, side: usize) -> f64 {
        let rules = &self.field.rules;
        let pushing = if routing { rules.trample_routing } else { 0.0 };
        let blind = if self.vision.is_blind(zone) && self.pushed(zone, side) {
            rules.trample_blind
        } else {
            0.0
        };
        pushing + blind
    }

    /// Whether a unit that stays put is caught in a crush in the crossing
    /// it waits in (as the moves began, which is as it still stands): only
    /// that can touch it.
    fn crushes(&self, mover: &Mover) -> bool {
        let zone = mover.zone;
        let crowd = self.crowds.room.get(zone).copied().unwrap_or(0.0);
        let room = self.crowds.capacity.get(zone).copied().unwrap_or(0.0);
        mover.crossing
            && crowd > room
            && crowd > 0.0
            && self.panic(mover.state == MoraleState::Routing, zone, mover.side) > 0.0
    }

    /// The men of a unit trampled in its crossing this sub-step, if the
    /// crowd there crushes it: its part of the excess, by the room it takes
    /// (`own_room`, `per_man` a man's) and its own panic. How many go down
    /// in a crush is luck (a horse stumbling, a bank giving way), one draw
    /// for each crossing that crushes in the sub-step, kept in `stumble`
    /// (none while the rule is off, so the stream is as it was).
    #[allow(clippy::too_many_arguments)]
    fn trampled(
        &self,
        zone: usize,
        (side, routing): (usize, bool),
        (own_room, per_man, men): (f64, f64, u32),
        dt: f64,
        rng: &mut BattleRng,
        stumble: &mut Option<(usize, f64)>,
    ) -> Option<u32> {
        let rules = &self.field.rules;
        let crowd = self.crowds.room[zone];
        let capacity = self.crowds.capacity[zone];
        let own_panic = self.panic(routing, zone, side);
        if !(crowd > capacity && crowd > 0.0 && own_panic > 0.0) {
            return None;
        }
        let excess = crowd - capacity;
        let luck = if rules.trample_luck > 0.0 {
            match *stumble {
                Some((at, luck)) if at == zone => luck,
                _ => {
                    let luck = rng.luck(rules.trample_luck);
                    *stumble = Some((zone, luck));
                    luck
                }
            }
        } else {
            1.0
        };
        let lost =
            (excess * rules.trample_rate * own_panic * luck * dt * own_room / crowd / per_man)
                .round()
                .clamp(0.0, f64::from(men)) as u32;
        Some(lost)
    }
}
/// The movement system's reading of the units as the moves begin: what
/// each unit that may have something to do tells the moves.
struct Census<'a, C> {
    field: &'a Field,
    crossing: &'a [bool],
    paths: &'a mut Paths,
    enemy_routing_in: &'a mut Vec<bool>,
    crowding: &'a mut Vec<Crowding>,
    movers: &'a mut Vec<Mover>,
    stands: &'a mut Stands,
    /// By unit index: stepped into another zone this turn.
    stepped: &'a [bool],
    /// Where a commander stands.
    commander_at: C,
    /// Some unit listed pursues.
    any_pursuing: bool,
}

impl<C: FnMut(usize) -> Option<usize>> Census<'_, C> {
    /// Reads a unit that does not simply stand where it is: where routing
    /// enemies are (for pursuit), by side; where each side has an unbroken
    /// unit (contact); the room taken in each crossing, and how fast it
    /// flows; the unit's wanted next zone, and where each side's obeying
    /// units march and stand. A unit that may have anything to do in the
    /// moves is listed.
    // Kept out of the loop over the units, which most units (those that
    // stand) leave at once.
    #[inline(never)]
    fn unit(
        &mut self,
        entity: Entity,
        info: &UnitInfo,
        men: u32,
        location: &Location,
        (order, came_from): (UnitOrder, Option<usize>),
        state: MoraleState,
    ) {
        let field = self.field;
        let (n, n_sides) = (field.zones.len(), field.n_sides);
        let (side, from) = (info.side(), location.zone());
        let arrived = order == UnitOrder::MoveTo(from);
        let mut mover = Mover {
            entity,
            idx: info.idx(),
            side,
            zone: from,
            men,
            state,
            crossing: false,
            arrived,
            pursuing: false,
            want: None,
            engaged: false,
            stepped: self.stepped.get(info.idx()).copied().unwrap_or(false),
            came_from,
            room: room(field, info, men),
        };
        if !location.present || !state.can_fight_or_flee() {
            if arrived {
                self.movers.push(mover);
            }
            return;
        }
        let routing = state == MoraleState::Routing;
        if routing && men > 0 {
            for other in 0..n_sides {
                if other != side {
                    self.enemy_routing_in[other * n + from] = true;
                }
            }
        }
        if state.obeys() && men > 0 {
            let stand = &mut self.stands.stand[side * n + from];
            *stand = (*stand).max(Stand::Unbroken);
        }
        mover.crossing = self.crossing[from];
        if mover.crossing {
            let room = room(field, info, men);
            let flow = if routing {
                field.rules.routing_flow
            } else {
                1.0
            };
            self.crowding.push(Crowding {
                idx: info.idx(),
                side: info.side(),
                zone: from,
                room,
                flowing: room * flow,
                precedence: field
                    .units
                    .get(info.idx())
                    .map_or(0, |spec| spec.precedence),
            });
        }
        let goal = if routing {
            match order {
                UnitOrder::RallyTo(commander) => (self.commander_at)(commander),
                _ => field.retreat_of(info.idx(), side),
            }
        } else {
            match order {
                UnitOrder::Hold => None,
                UnitOrder::MoveTo(zone) => Some(zone),
                UnitOrder::RallyTo(commander) => (self.commander_at)(commander),
                UnitOrder::Pursue => {
                    mover.pursuing = true;
                    self.any_pursuing = true;
                    None
                }
            }
        };
        mover.want = goal.and_then(|goal| self.paths.next_hop(field, from, goal));
        if state.obeys() && !mover.pursuing {
            let want = if mover.stepped { None } else { mover.want };
            self.stands.note(field, side, from, men, want);
        }
        if mover.want.is_some() || mover.crossing || arrived || mover.pursuing {
            self.movers.push(mover);
        }
    }
}

/// Empties `list` and fills it with `len` copies of `value`, keeping its memory.
fn refill<T: Clone>(list: &mut Vec<T>, len: usize, value: T) {
    list.clear();
    list.resize(len, value);
}

/// The units as the movement system reads and moves them.
type Units<'w, 's> = super::components::StepUnits<'w, 's>;

/// What the moves of a sub-step found, for the chronicle and the crossings.
#[derive(Debug, Clone, Copy, Default)]
struct Moved {
    /// Some unit came out at a crossing's far end.
    crossed: bool,
    /// Some men were trampled in a crush.
    trampled: bool,
    /// Some unit reached where it was ordered, and holds there.
    held: bool,
}

pub fn movement_system(
    io: &mut TurnIo,
    scratch: &mut MovementScratch,
    vision: &Vision,
    commanders: &mut Query<&mut CommanderState>,
    passages: &mut Query<(&ZoneIdx, &mut Passage)>,
    rng: &mut BattleRng,
    units: &mut Units,
) {
    let (step, dt, share_of_turn, last) = (io.step(), io.dt(), io.share_of_turn(), io.last());
    let super::TurnIo {
        field,
        chronicle,
        withdrawals,
        busy,
        stirs,
        ..
    } = &mut *io;
    let field = &*field;
    scratch.prepare(field, step, passages);
    // In a later sub-step of the turn, when nothing the census reads of the
    // units (men, zone, state, order, where each came from and whether it
    // stepped, where the commanders stand) has changed since the one before
    // (`TurnIo::stirs`), its census stands: kept as the moves of that
    // sub-step began, pursuers aimed and the engaged pinned (what those
    // read besides is the turn's: the field, the vision, the paths).
    let keep = step > 0
        && scratch
            .kept_at
            .is_some_and(|(at, stirs_then)| at < step && stirs_then == *stirs);
    if keep {
        #[cfg(debug_assertions)]
        scratch.check_kept(field, vision, commanders, units);
    } else {
        scratch.census(field, vision, commanders, units);
    }
    // Kept only for a sub-step to come in this turn.
    scratch.kept_at = (keep || !last).then_some((step, *stirs));
    scratch.rate_crossings(field, vision, share_of_turn);
    // A crossing under way, or a unit setting out: the next sub-step is
    // not quiet.
    if !scratch.crowds.units.is_empty()
        || scratch
            .movers
            .iter()
            .any(|m| m.want.is_some() && !m.stepped)
    {
        *busy = true;
    }
    // Those that left an enemy standing pay for it in the morale step.
    withdrawals.units.clear();
    let moving = Moving { field, vision, dt };
    let moved = scratch.make_moves(moving, units, rng, chronicle, withdrawals);
    // Men trampled, a unit moved (its commander with it) or holding where
    // it was sent: morale tallies the units again.
    if moved.trampled || moved.held || !scratch.moved.is_empty() {
        super::stir(stirs);
    }
    scratch.tell_crossings(moved, field, chronicle, passages);
    scratch.follow_leaders(field, commanders);
}

/// What the moves of a sub-step read besides the units: the field, what
/// each side sees, and the sub-step's length.
struct Moving<'a> {
    field: &'a Field,
    vision: &'a Vision,
    dt: f64,
}

impl MovementScratch {
    /// The census of the units as the moves begin ([`MovementScratch::read_units`]),
    /// pursuers aimed, columns met head-on and the engaged pinned.
    fn census(
        &mut self,
        field: &Field,
        vision: &Vision,
        commanders: &Query<&mut CommanderState>,
        units: &Units,
    ) {
        if self.read_units(field, commanders, units) {
            self.aim_pursuers(field, vision);
        }
        self.meet_head_on(field);
        self.pin_engaged(field);
    }

    /// That a census kept from the sub-step before is what the units give
    /// now (debug builds).
    #[cfg(debug_assertions)]
    fn check_kept(
        &mut self,
        field: &Field,
        vision: &Vision,
        commanders: &Query<&mut CommanderState>,
        units: &Units,
    ) {
        let (movers, stands, crowds) = (
            self.movers.clone(),
            self.stands.clone(),
            self.crowds.clone(),
        );
        self.census(field, vision, commanders, units);
        assert_eq!(
            format!(
                "{:?}",
                (&movers, &stands.leaving, &stands.column_men, &stands.stand)
            ),
            format!(
                "{:?}",
                (
                    &self.movers,
                    &self.stands.leaving,
                    &self.stands.column_men,
                    &self.stands.stand
                )
            ),
            "the census a sub-step kept is out of step with the units"
        );
        assert_eq!(
            format!(
                "{:?}",
                (
                    &crowds.units,
                    &crowds.room,
                    &crowds.side_room,
                    &crowds.flowing,
                    &crowds.count,
                    &crowds.ranked
                )
            ),
            format!(
                "{:?}",
                (
                    &self.crowds.units,
                    &self.crowds.room,
                    &self.crowds.side_room,
                    &self.crowds.flowing,
                    &self.crowds.count,
                    &self.crowds.ranked
                )
            ),
            "the crowds a sub-step kept are out of step with the units"
        );
    }

    /// Readies the lists for a turn, at its first sub-step: who has stepped
    /// is forgotten (one zone a turn), and which zones are open (a destroyed
    /// crossing is not) and which are crossings is read.
    fn prepare(&mut self, field: &Field, step: u32, passages: &Query<(&ZoneIdx, &mut Passage)>) {
        let n = field.zones.len();
        if step > 0 {
            // Within a turn the passages stand as its first sub-step found
            // them (only an effect, between turns, breaks one; a restore
            // writes them between turns too): read once a turn.
            return;
        }
        refill(&mut self.stepped, field.units.len(), false);
        refill(&mut self.intact, n, true);
        passages.iter().for_each(|(idx, passage)| {
            if let Some(slot) = self.intact.get_mut(idx.0) {
                *slot = passage.intact;
            }
        });
        self.paths.keep_for(field, &self.intact);
        self.crossing.clear();
        self.crossing
            .extend(field.zones.iter().map(|zone| zone.is_crossing()));
    }

    /// Reads each unit once, in the order the world stores the units, as
    /// the moves begin: where routing enemies are (for pursuit), by side;
    /// where each side has an unbroken unit (contact); the room taken in
    /// each crossing, and how fast it flows; each unit's wanted next zone,
    /// and where each side's obeying units march and stand. The units that
    /// may have anything to do in the moves are listed. The crowds are
    /// summed and the list walked in unit-index order: when the world holds
    /// the units otherwise, both are sorted by index first (checked on the
    /// short lists, not on the way past every unit). Says whether any unit
    /// listed pursues.
    fn read_units(
        &mut self,
        field: &Field,
        commanders: &Query<&mut CommanderState>,
        units: &Units,
    ) -> bool {
        let (n, n_sides) = (field.zones.len(), field.n_sides);
        let MovementScratch {
            crossing,
            paths,
            enemy_routing_in,
            crowds,
            commander_zone,
            movers,
            stands,
            stepped,
            ..
        } = self;
        let crossing = &crossing[..];
        // Where each commander stands (the first entity of an index, as
        // found; an index past the scene's commanders is looked for), read
        // when a unit first makes for a commander's drums.
        let mut commanders_read = false;
        let commander_at = |idx: usize| {
            if !commanders_read {
                refill(commander_zone, commanders.iter().len(), None);
                for commander in commanders.iter() {
                    if let Some(slot) = commander_zone.get_mut(commander.idx) {
                        slot.get_or_insert(commander.zone);
                    }
                }
                commanders_read = true;
            }
            match commander_zone.get(idx) {
                Some(zone) => *zone,
                None => commanders.iter().find(|c| c.idx == idx).map(|c| c.zone),
            }
        };
        refill(enemy_routing_in, n * n_sides, false);
        crowds.units.clear();
        movers.clear();
        stands.reset(n, n_sides);
        let mut census = Census {
            field,
            crossing,
            paths,
            enemy_routing_in,
            crowding: &mut crowds.units,
            movers: &mut *movers,
            stands,
            stepped: &stepped[..],
            commander_at,
            any_pursuing: false,
        };
        // `for_each`, not a `for` loop: bevy then walks each table's columns
        // as slices, and the loop stays small enough to keep them in
        // registers (the units that stand go no further than this).
        units
            .iter()
            .for_each(|(entity, info, strength, location, orders, _)| {
                let (side, from, men) = (info.side(), location.zone(), strength.men);
                // Most units stand where they are, in good order, outside a
                // crossing: all they tell the moves is that their side is
                // there unbroken and holds the zone (what `Census::unit`
                // finds for them, without the rest).
                if orders.holds() && location.state().obeys() && location.present && !crossing[from]
                {
                    if men > 0 {
                        census.stands.stand[side * n + from] = Stand::Holding;
                    }
                    return;
                }
                // Off the field or gone as a body of men: nothing to tell the
                // moves, unless ordered to where it is (the order is done).
                if !location.stands() && orders.order() != UnitOrder::MoveTo(from) {
                    return;
                }
                census.unit(
                    entity,
                    info,
                    men,
                    location,
                    (orders.order(), orders.came_from()),
                    location.state(),
                );
            });
        let any_pursuing = census.any_pursuing;
        // Each unit is listed once: sorted by index, the lists are in the
        // one order whatever the order they were read in.
        if !crowds.units.is_sorted_by_key(|crowding| crowding.idx) {
            crowds.units.sort_by_key(|crowding| crowding.idx);
        }
        if !movers.is_sorted_by_key(|mover| mover.idx) {
            movers.sort_by_key(|mover| mover.idx);
        }
        crowds.sum(n, field.n_sides);
        any_pursuing
    }

    /// Sets each pursuer's next zone: toward the nearest routing enemy its
    /// side sees, found once per side and zone.
    fn aim_pursuers(&mut self, field: &Field, vision: &Vision) {
        let n = field.zones.len();
        let MovementScratch {
            paths,
            enemy_routing_in,
            pursuit,
            movers,
            stands,
            ..
        } = self;
        pursuit.clear();
        for mover in movers.iter_mut().filter(|mover| mover.pursuing) {
            let (side, from) = (mover.side, mover.zone);
            let target = *pursuit.entry((side, from)).or_insert_with(|| {
                let visible = |zone: usize| vision.side_sees(side, zone) || zone == from;
                paths.nearest(field, from, |z| {
                    enemy_routing_in[side * n + z] && visible(z)
                })
            });
            mover.want = target.and_then(|goal| paths.next_hop(field, from, goal));
            if mover.state.obeys() {
                let want = if mover.stepped { None } else { mover.want };
                stands.note(field, side, from, mover.men, want);
            }
        }
    }

    /// Head-on: enemy columns ordered into each other's zones meet instead
    /// of passing. The stronger column (men that have not broken) goes on
    /// into the other's zone; the weaker stands and receives it, so they
    /// fight there.
    fn meet_head_on(&mut self, field: &Field) {
        let n = field.zones.len();
        let MovementScratch { movers, stands, .. } = self;
        for mover in movers.iter_mut() {
            let Some(to) = mover.want else { continue };
            if !mover.state.obeys() || mover.stepped {
                continue;
            }
            let (from, side) = (mover.zone, mover.side);
            let coming = stands.column(field, (to, from));
            let theirs: u32 = coming
                .iter()
                .enumerate()
                .filter(|(s, _)| *s != side)
                .map(|(_, men)| *men)
                .sum();
            if theirs == 0 {
                continue;
            }
            let ours = stands
                .column(field, (from, to))
                .get(side)
                .copied()
                .unwrap_or(0);
            let strongest_enemy_side = (0..field.n_sides)
                .filter(|&s| s != side)
                .max_by_key(|&s| (coming.get(s).copied().unwrap_or(0), std::cmp::Reverse(s)))
                .unwrap_or(side);
            let wins = ours > theirs || (ours == theirs && side < strongest_enemy_side);
            if !wins {
                // It stays, and holds its zone.
                mover.want = None;
                if mover.men > 0 {
                    stands.stand[side * n + from] = Stand::Holding;
                }
            }
        }
    }

    /// Engaged: a unit that has not broken does not walk past or away from
    /// an enemy that holds its ground in the same zone; it stays and fights
    /// it out. Enemies leaving together (a rearguard falling back with
    /// pursuers on its heels) go on fighting wherever they arrive. Only
    /// holders pin: a unit pinned this turn does not pin others in turn, so
    /// one blocking unit in a ford stops the enemy it faces, not its own
    /// side's columns behind them. With the withdrawal rules on, a unit may
    /// break contact instead, at a cost: those in contact with an unbroken
    /// enemy as the moves begin.
    fn pin_engaged(&mut self, field: &Field) {
        let (n, n_sides) = (field.zones.len(), field.n_sides);
        let rules = &field.rules;
        let MovementScratch {
            paths,
            movers,
            stands,
            ..
        } = self;
        let disengage = rules.withdraw_morale > 0.0 || rules.withdraw_rout > 0.0;
        for mover in movers.iter_mut() {
            if mover.want.is_none() || !mover.state.obeys() || mover.stepped {
                continue;
            }
            let (side, zone) = (mover.side, mover.zone);
            let enemy = |at_least: Stand| {
                (0..n_sides)
                    .any(|other| other != side && stands.stand[other * n + zone] >= at_least)
            };
            if !disengage {
                if enemy(Stand::Holding) {
                    mover.want = None;
                }
                continue;
            }
            // With the withdrawal rules on, only a move away breaks contact:
            // a step back the way it came, or toward its retreat (its own
            // or its side's). An advance is never a withdrawal: it does not
            // walk past an enemy that holds (pinned, as without the rules).
            let Some(to) = mover.want else { continue };
            let retreat_hop = field
                .retreat_of(mover.idx, side)
                .and_then(|retreat| paths.next_hop(field, zone, retreat));
            let away = mover.came_from == Some(to) || retreat_hop == Some(to);
            if !away {
                if enemy(Stand::Holding) {
                    mover.want = None;
                }
                continue;
            }
            // Away from an enemy in contact, or from one marching on its
            // zone from a neighbour (closing): a withdrawal under pressure.
            let closing = || {
                field.neighbours[zone].iter().any(|&from| {
                    stands
                        .column(field, (from, zone))
                        .iter()
                        .enumerate()
                        .any(|(other, men)| other != side && *men > 0)
                })
            };
            if enemy(Stand::Unbroken) || closing() {
                mover.engaged = true;
            }
        }
    }

    /// Crossings: what each passes in the sub-step, shared by room; a
    /// routing crowd jams. Only the crossings units stand in are asked for.
    fn rate_crossings(&mut self, field: &Field, vision: &Vision, share_of_turn: f64) {
        let MovementScratch { intact, crowds, .. } = self;
        let open = |zone: usize| intact.get(zone).copied().unwrap_or(false);
        refill(&mut crowds.capacity, field.zones.len(), 0.0);
        let mut rated = None;
        for crowding in crowds.units.iter() {
            let zone = crowding.zone;
            // The units in one crossing mostly follow each other in the
            // list: its capacity is worked out once for them.
            if rated.replace(zone) == Some(zone) {
                continue;
            }
            let flow = if crowds.room[zone] > 0.0 {
                crowds.flowing[zone] / crowds.room[zone]
            } else {
                1.0
            };
            // (A sub-step's share of the turn's.)
            crowds.capacity[zone] = if open(zone) {
                field.capacity(zone, vision.is_blind(zone)) * flow * share_of_turn
            } else {
                0.0
            };
        }
    }

    /// Moves the listed units, reached by entity in index order instead of
    /// walking the world: those still wanting to move, those in a crossing,
    /// and those ordered to where they already are. A unit in a crossing
    /// may be trampled in a crush and comes out at the far end once all its
    /// men are through; one out of a crossing steps to the zone it wants.
    /// One zone a turn, whatever the sub-step.
    fn make_moves(
        &mut self,
        moving: Moving,
        units: &mut Units,
        rng: &mut BattleRng,
        chronicle: &mut Chronicle,
        withdrawals: &mut Withdrawals,
    ) -> Moved {
        let Moving { field, vision, dt } = moving;
        let (n, n_sides) = (field.zones.len(), field.n_sides);
        let MovementScratch {
            crossing,
            crowds,
            movers,
            stands,
            trampled,
            crossed,
            moved,
            stepped,
            entered,
            bank_queues,
            ..
        } = self;
        refill(entered, n * n_sides, 0.0);
        bank_queues.clear();
        for mover in movers.iter() {
            let Some(next) = mover.want else { continue };
            if mover.crossing || mover.stepped || !mover.state.obeys() || mover.men == 0 {
                continue;
            }
            if !crossing.get(next).copied().unwrap_or(false) {
                continue;
            }
            let held = crowds
                .side_room
                .get(mover.side * n + next)
                .copied()
                .unwrap_or(0.0);
            let at = (mover.side, mover.zone, next);
            if held > 0.0 && held + mover.room > field.holds(next) && !bank_queues.contains(&at) {
                bank_queues.push(at);
            }
        }
        let press = Press {
            field,
            vision,
            crowds,
            stands,
        };
        refill(trampled, n * n_sides, 0);
        refill(crossed, n * n_sides, 0);
        moved.clear();
        let mut stumble: Option<(usize, f64)> = None;
        let mut found = Moved::default();
        for mover in movers.iter() {
            let want = mover.want;
            if want.is_none() && !mover.arrived && !press.crushes(mover) {
                continue;
            }
            let Ok((_, info, mut strength, mut location, mut orders, _)) =
                units.get_mut(mover.entity)
            else {
                continue;
            };
            'unit: {
                if !location.stands() {
                    break 'unit;
                }
                let zone = location.zone();
                let next = if crossing[zone] {
                    let own_room = room(field, info, strength.men);
                    let per_man = room_per_man(field, info.mounted);
                    let routing = location.state() == MoraleState::Routing;
                    let who = (info.side(), routing);
                    let size = (own_room, per_man, strength.men);
                    if let Some(lost) = press.trampled(zone, who, size, dt, rng, &mut stumble) {
                        strength.men -= lost;
                        strength.lost_this_turn += lost;
                        if let Some(at) = trampled.get_mut(zone * n_sides + info.side()) {
                            *at += lost;
                        }
                        found.trampled |= lost > 0;
                    }
                    let Some(next) = want else { break 'unit };
                    if next == orders.came_from().unwrap_or(usize::MAX) && orders.progress <= 0.0 {
                        // Turning back before setting out is a step, not a crossing.
                        if mover.stepped {
                            break 'unit;
                        }
                        next
                    } else {
                        let precedence = field
                            .units
                            .get(info.idx())
                            .map_or(0, |spec| spec.precedence);
                        orders.progress += crowds.passed(zone, own_room, precedence) / per_man;
                        if orders.progress < f64::from(strength.men) || mover.stepped {
                            break 'unit;
                        }
                        let at = &mut crossed[zone * n_sides + info.side()];
                        *at = at.saturating_add(strength.men);
                        found.crossed = true;
                        chronicle.push(Entry::Crossed {
                            unit: info.idx(),
                            zone,
                            to: next,
                        });
                        next
                    }
                } else if let Some(next) = want
                    && !mover.stepped
                {
                    if crossing[next] {
                        // Men queue on the bank while their side's crowd
                        // fills the crossing (the enemy's men in it they
                        // fight, and press on, rather than wait behind).
                        // An enemy's column waiting on this bank for the
                        // same crossing stands between it and the water: it
                        // fights them there first (those not yet over,
                        // cut down by their pursuers).
                        if bank_queues
                            .iter()
                            .any(|&(s, z, x)| s != info.side() && z == zone && x == next)
                        {
                            break 'unit;
                        }
                        let own_room = room(field, info, strength.men);
                        let at = info.side() * n + next;
                        let slot = entered.get_mut(at);
                        let Some(slot) = slot else { break 'unit };
                        let held = crowds.side_room.get(at).copied().unwrap_or(0.0) + *slot;
                        if held > 0.0 && held + own_room > field.holds(next) {
                            break 'unit;
                        }
                        *slot += own_room;
                    }
                    next
                } else {
                    break 'unit;
                };
                move_to(chronicle, info.idx(), &mut location, &mut orders, next);
                if let Some(slot) = stepped.get_mut(info.idx()) {
                    *slot = true;
                }
                moved.push((info.idx(), next));
                if mover.engaged {
                    withdrawals.units.push(info.idx());
                }
            }
            // A unit that reached its destination holds there.
            if orders.order() == UnitOrder::MoveTo(location.zone()) {
                orders.set_order(UnitOrder::Hold);
                found.held = true;
            }
        }
        found
    }

    /// Tells the chronicle who was trampled where, and adds the men who
    /// came through each crossing to its count, by side.
    fn tell_crossings(
        &self,
        moved: Moved,
        field: &Field,
        chronicle: &mut Chronicle,
        passages: &mut Query<(&ZoneIdx, &mut Passage)>,
    ) {
        let (n, n_sides) = (field.zones.len(), field.n_sides);
        if moved.trampled {
            chronicle.push_losses_by_zone(&self.trampled, n_sides, |zone, men, losses| {
                Entry::Trampled { zone, men, losses }
            });
        }
        if !moved.crossed {
            return;
        }
        for (idx, mut passage) in passages.iter_mut() {
            if idx.0 < n {
                let by_side = &self.crossed[idx.0 * n_sides..(idx.0 + 1) * n_sides];
                if by_side.iter().all(|men| *men == 0) {
                    continue;
                }
                for (side, men) in by_side.iter().enumerate() {
                    if let Some(total) = passage.crossed.get_mut(side) {
                        *total = total.saturating_add(*men);
                    }
                }
            }
        }
    }

    /// A commander rides with the unit he leads (the first of his that
    /// moved, by unit index) unless the scene has put him somewhere himself.
    fn follow_leaders(&mut self, field: &Field, commanders: &mut Query<&mut CommanderState>) {
        let MovementScratch {
            moved, followed, ..
        } = self;
        let leader = |unit: usize| field.units.get(unit).and_then(|u| u.leader);
        if !moved.iter().any(|&(unit, _)| leader(unit).is_some()) {
            return;
        }
        refill(followed, commanders.iter().len(), None);
        for &(unit, zone) in moved.iter() {
            if let Some(slot) = leader(unit).and_then(|leader| followed.get_mut(leader)) {
                slot.get_or_insert(zone);
            }
        }
        commanders.iter_mut().for_each(|mut commander| {
            if commander.placed || !commander.standing() {
                return;
            }
            let follows = match followed.get(commander.idx) {
                Some(zone) => *zone,
                None => moved
                    .iter()
                    .find(|(unit, _)| leader(*unit) == Some(commander.idx))
                    .map(|(_, zone)| *zone),
            };
            if let Some(zone) = follows {
                commander.zone = zone;
            }
        });
    }
}

impl Crowds {
    /// Sums, per crossing, the room the crowd takes, that room by how fast
    /// it flows, the units in it, and whether its queue goes by rank.
    fn sum(&mut self, n: usize, n_sides: usize) {
        refill(&mut self.room, n, 0.0);
        refill(&mut self.side_room, n * n_sides, 0.0);
        refill(&mut self.flowing, n, 0.0);
        refill(&mut self.count, n, 0);
        refill(&mut self.ranked, n, false);
        for crowding in self.units.iter() {
            self.room[crowding.zone] += crowding.room;
            if let Some(room) = self.side_room.get_mut(crowding.side * n + crowding.zone) {
                *room += crowding.room;
            }
            self.flowing[crowding.zone] += crowding.flowing;
            self.count[crowding.zone] += 1;
            if crowding.precedence > 0 {
                self.ranked[crowding.zone] = true;
            }
        }
    }
}

fn move_to(
    chronicle: &mut Chronicle,
    unit: usize,
    location: &mut Location,
    orders: &mut Orders,
    next: usize,
) {
    let from = location.zone();
    location.set_zone(next);
    orders.set_came_from(Some(from));
    orders.progress = 0.0;
    chronicle.push(Entry::Moves {
        unit,
        from,
        to: next,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::morale::Modifier;
    use crate::sim::testing::{set_state, small_world, unit_men, unit_zone_smoke};

    fn riders_in_the_ford(smoke: f64, morale: f64) -> u32 {
        // The ford of the small world: 300 m wide, 1 m deep, like the seed's.
        let (mut world, mut schedule) = small_world(|mut scene| {
            scene.units[1].men = 10_000;
            scene.units[1].zone = "ford".into();
            scene.units[1].order = crate::scene::raw::Order::MoveTo("north-bank".into());
            scene.units[1].kind = crate::scene::UnitKind::new("BannerCavalry");
            scene.units[1].morale = morale;
            scene
        });
        unit_zone_smoke(&mut world, 1, smoke);
        if morale < 20.0 {
            set_state(&mut world, 1, MoraleState::Routing);
        }
        schedule.run(&mut world);
        10_000 - unit_men(&mut world, 1)
    }

    #[test]
    fn ten_thousand_routing_riders_in_a_smoky_waist_deep_ford_trample_hundreds() {
        let lost = riders_in_the_ford(1.0, 10.0);
        assert!((100..=3_000).contains(&lost), "trampled {lost}");
    }

    #[test]
    fn the_same_riders_crossing_in_order_in_clear_air_trample_no_one() {
        assert_eq!(riders_in_the_ford(0.0, 80.0), 0);
    }

    #[test]
    fn a_destroyed_bridge_passes_no_one() {
        let (mut world, mut schedule) = small_world(|mut scene| {
            scene.units[1].zone = "south-bank".into();
            scene.units[1].order = crate::scene::raw::Order::MoveTo("north-bank".into());
            scene
        });
        let mut query = world.query::<(&ZoneIdx, &mut Passage)>();
        for (_, mut passage) in query.iter_mut(&mut world) {
            passage.intact = false;
        }
        for _ in 0..3 {
            schedule.run(&mut world);
        }
        let mut query = world.query::<(&UnitInfo, &Location)>();
        let zone = query
            .iter(&world)
            .find(|(i, _)| i.idx() == 1)
            .map(|(_, l)| l.zone());
        assert_eq!(zone, Some(0), "still on the south bank");
    }

    /// 40,000 men packed into a 6 m bridge, clear air: (men lost, men crossed).
    fn a_column_on_a_narrow_bridge(routing: bool) -> u32 {
        let (mut world, mut schedule) = small_world(|mut scene| {
            scene.zones[1].kind = crate::scene::ZoneKind::new("Bridge");
            scene.zones[1].width_m = 6.0;
            scene.zones[1].depth_m = 0.0;
            scene.units[1].men = 40_000;
            scene.units[1].kind = crate::scene::UnitKind::new("HanBannerFoot");
            scene.units[1].zone = "ford".into();
            scene.units[1].order = crate::scene::raw::Order::MoveTo("north-bank".into());
            scene
        });
        if routing {
            set_state(&mut world, 1, MoraleState::Routing);
        }
        schedule.run(&mut world);
        40_000 - unit_men(&mut world, 1)
    }

    #[test]
    fn an_orderly_queue_at_a_narrow_bridge_tramples_no_one() {
        // Regression (a shipped scene's night march): a whole army waiting its
        // turn at a 6 m bridge trampled ~1,400 men a turn because it counted as on it.
        assert_eq!(a_column_on_a_narrow_bridge(false), 0);
    }

    #[test]
    fn the_same_queue_in_panic_tramples() {
        let lost = a_column_on_a_narrow_bridge(true);
        assert!(lost > 100, "a routing crush tramples: {lost}");
    }

    /// Where the Han foot on the south bank, ordered over, stands after a
    /// turn while 40,000 riders fill the smoky ford ahead of them, with the
    /// crossing holding men at `per_man` m² a man (0: the rule off).
    fn behind_a_full_ford(per_man: f64) -> usize {
        let (mut world, mut schedule) = small_world(|mut scene| {
            scene.units[1].men = 40_000;
            scene.units[1].zone = "ford".into();
            scene.units[1].order = crate::scene::raw::Order::MoveTo("north-bank".into());
            scene.units[2].zone = "south-bank".into();
            scene.units[2].order = crate::scene::raw::Order::MoveTo("north-bank".into());
            scene.units[0].zone = "tent".into();
            scene.rules.insert("crossing_m2_per_man".into(), per_man);
            scene
        });
        unit_zone_smoke(&mut world, 1, 1.0);
        schedule.run(&mut world);
        zone_of(&mut world, 2)
    }

    #[test]
    fn men_queue_on_the_bank_while_the_ford_is_full() {
        // 300 m × 500 m at 1.5 m² a man holds 100,000 men's room; the
        // riders take 120,000 (a horse is three men's).
        assert_eq!(behind_a_full_ford(1.5), 0, "the foot waits on the bank");
        assert_eq!(behind_a_full_ford(0.0), 1, "with the rule off, it steps in");
    }

    fn zone_of(world: &mut World, unit: usize) -> usize {
        let mut query = world.query::<(&UnitInfo, &Location)>();
        query
            .iter(world)
            .find(|(info, _)| info.idx() == unit)
            .map(|(_, location)| location.zone())
            .unwrap_or(usize::MAX)
    }

    #[test]
    fn enemies_ordered_toward_each_other_meet_and_fight_instead_of_swapping() {
        // Ming foot (4,000) on the north bank ordered to the tent; the Han foot
        // (1,000) at the tent ordered to the north bank, the same turn.
        let (mut world, mut schedule) = small_world(|mut scene| {
            scene.units[0].zone = "north-bank".into();
            scene.units[0].order = crate::scene::raw::Order::MoveTo("tent".into());
            scene.units[1].zone = "south-bank".into();
            scene.units[1].side = "ming".into();
            scene.units[2].order = crate::scene::raw::Order::MoveTo("north-bank".into());
            scene
        });
        schedule.run(&mut world);
        let (ming, han) = (zone_of(&mut world, 0), zone_of(&mut world, 2));
        assert_eq!(ming, han, "they meet in one zone");
        assert_eq!(han, 3, "the stronger column goes on into the tent");
        assert!(unit_men(&mut world, 2) < 1_000, "and they fight there");
    }

    #[test]
    fn a_steady_unit_does_not_walk_past_an_enemy_holding_its_zone() {
        let (mut world, mut schedule) = small_world(|mut scene| {
            scene.units[0].zone = "north-bank".into();
            scene.units[0].order = crate::scene::raw::Order::MoveTo("tent".into());
            scene.units[2].zone = "south-bank".into();
            scene.units[2].side = "ming".into();
            scene.units[2].may_surrender = false;
            scene
        });
        schedule.run(&mut world);
        assert_eq!(zone_of(&mut world, 0), 2, "held on the north bank");
        // Once the holder breaks, the way is open.
        set_state(&mut world, 1, MoraleState::Routing);
        schedule.run(&mut world);
        assert_eq!(zone_of(&mut world, 0), 3);
    }

    /// A narrow ford (10 m: 6,250 men's room at the rule's 0.8 m² a man)
    /// full of the Jin banner's 4,000 horse, crossing north; the Ming foot on
    /// the south bank ordered over; and, if `jin_column`, the Han foot (made
    /// a steady column of 4,000 for this) waiting on the same bank for the
    /// same ford behind its own side's crowd.
    fn at_a_full_ford(jin_column: bool) -> (World, crate::sim::Turn) {
        small_world(|mut scene| {
            scene.rules.insert("crossing_m2_per_man".into(), 0.8);
            scene.zones[1].width_m = 10.0;
            let north = || crate::scene::raw::Order::MoveTo("north-bank".into());
            scene.units[0].order = north();
            scene.units[1].zone = "ford".into();
            scene.units[1].order = north();
            if jin_column {
                scene.units[2].zone = "south-bank".into();
                scene.units[2].men = 4_000;
                scene.units[2].quality = 0.9;
                scene.units[2].morale = 95.0;
                scene.units[2].may_surrender = false;
                scene.units[2].order = north();
            } else {
                scene.units[2].present = false;
            }
            scene
        })
    }

    #[test]
    fn a_side_waits_on_the_bank_only_behind_its_own_crowd() {
        // The ford is full of Jin: the Ming do not queue behind the enemy,
        // they go in and fight him there.
        let (mut world, mut schedule) = at_a_full_ford(false);
        schedule.run(&mut world);
        assert_eq!(zone_of(&mut world, 0), 1, "the Ming step into the ford");
    }

    #[test]
    fn a_unit_does_not_step_past_an_enemy_column_waiting_on_its_bank() {
        // The same, with a Jin column waiting on the south bank for the ford:
        // it stands between the Ming and the water, and they fight it there.
        let (mut world, mut schedule) = at_a_full_ford(true);
        schedule.run(&mut world);
        assert_eq!(zone_of(&mut world, 2), 0, "the Jin column still waits");
        assert_eq!(zone_of(&mut world, 0), 0, "the Ming stay behind it");
        assert!(unit_men(&mut world, 2) < 4_000, "and fight it on the bank");
    }

    fn commander_zone(world: &mut World, idx: usize) -> usize {
        let mut query = world.query::<&CommanderState>();
        query
            .iter(world)
            .find(|c| c.idx == idx)
            .map(|c| c.zone)
            .unwrap_or(usize::MAX)
    }

    #[test]
    fn a_commander_rides_with_his_unit_unless_the_scene_placed_him() {
        let build = || {
            small_world(|mut scene| {
                scene.units[0].leader = Some("zhang".into());
                scene.units[0].order = crate::scene::raw::Order::MoveTo("ford".into());
                scene
            })
        };
        let (mut world, mut schedule) = build();
        schedule.run(&mut world);
        assert_eq!(zone_of(&mut world, 0), 1);
        assert_eq!(commander_zone(&mut world, 0), 1, "Zhang went with his men");

        let (mut world, mut schedule) = build();
        let mut query = world.query::<&mut CommanderState>();
        for mut commander in query.iter_mut(&mut world) {
            if commander.idx == 0 {
                commander.placed = true;
            }
        }
        schedule.run(&mut world);
        assert_eq!(commander_zone(&mut world, 0), 0, "placed: he stays");
    }

    /// The small world's foot, ordered back to the ford from the south bank, where the
    /// Jin banner stands and holds; `quality` of the foot, and the rules.
    fn ordered_back(quality: f64, rules: &[(&str, f64)]) -> crate::sim::Battle {
        let rules: Vec<(String, f64)> = rules.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        crate::sim::testing::small_battle(move |mut scene| {
            // A Ming reserve of 4 000 waiting in the ford (the Han foot of
            // the small world, on our side for this).
            scene.units[2].side = "ming".into();
            scene.units[2].zone = "ford".into();
            scene.units[2].men = 4_000;
            scene.units[2].morale = 60.0;
            scene.units[2].may_surrender = false;
            scene.units[1].zone = "south-bank".into();
            scene.units[0].quality = quality;
            scene.units[0].order = crate::scene::raw::Order::MoveTo("ford".into());
            // The ford is the way back for the Ming: a move there is away.
            scene.sides[0].retreat = Some("ford".into());
            scene.rules.extend(rules);
            scene
        })
    }

    #[test]
    fn an_advance_past_an_enemy_is_no_withdrawal_and_does_not_walk_through_him() {
        // The same move with no way back that way: an advance. With the
        // withdrawal rules on it is pinned as without them, and pays nothing.
        let mut battle = crate::sim::testing::small_battle(|mut scene| {
            scene.units[1].zone = "south-bank".into();
            scene.units[0].order = crate::scene::raw::Order::MoveTo("ford".into());
            scene.rules.insert("withdraw_morale".into(), 12.0);
            scene.rules.insert("withdraw_rout".into(), 1.0);
            scene
        });
        let entries = battle.step();
        let (zone, state, last) = zone_and_state(&mut battle, 0);
        assert_eq!(zone, 0, "it stays and fights the banner that holds");
        assert!(
            !last.iter().any(|(m, _)| *m == Modifier::Withdrawal),
            "{last:?}"
        );
        assert!(!entries.contains(&Entry::Routs { unit: 0 }), "{entries:?}");
        assert_ne!(state, MoraleState::Routing);
    }

    #[test]
    fn turning_away_from_an_enemy_closing_from_across_the_ford_is_a_withdrawal() {
        // No enemy in its zone, but the banner is marching on it from the
        // ford: falling back now is a withdrawal under pressure.
        let mut battle = crate::sim::testing::small_battle(|mut scene| {
            scene.zones[0].adjacent = vec!["ford".into(), "tent".into()];
            scene.sides[0].retreat = Some("tent".into());
            scene.units[1].zone = "ford".into();
            scene.units[1].order = crate::scene::raw::Order::MoveTo("south-bank".into());
            scene.units[0].order = crate::scene::raw::Order::MoveTo("tent".into());
            scene.rules.insert("withdraw_morale".into(), 12.0);
            scene
        });
        battle.step();
        let (zone, _, last) = zone_and_state(&mut battle, 0);
        assert_eq!(zone, 3, "it fell back");
        assert!(last.contains(&(Modifier::Withdrawal, -12.0)), "{last:?}");
    }

    /// Riders of the banner alone in the ford in thick smoke, in order,
    /// with `enemy` (the Ming foot) on the far bank or not: (men lost,
    /// turns to get out of the ford).
    fn alone_in_a_dark_ford(enemy: bool) -> (u32, u32) {
        let (mut world, mut schedule) = small_world(|mut scene| {
            scene.units[1].men = 20_000;
            scene.units[1].zone = "ford".into();
            scene.units[1].order = crate::scene::raw::Order::MoveTo("north-bank".into());
            // The foot on the bank before them, or two zones off.
            scene.units[0].zone = if enemy { "north-bank" } else { "tent" }.into();
            scene.rules.insert("trample_blind".into(), 1.0);
            scene
        });
        for turn in 1..=10 {
            unit_zone_smoke(&mut world, 1, 1.0);
            schedule.run(&mut world);
            let mut query = world.query::<(&UnitInfo, &Location)>();
            let zone = query
                .iter(&world)
                .find(|(i, _)| i.idx() == 1)
                .map(|(_, l)| l.zone());
            if zone != Some(1) {
                return (20_000 - unit_men(&mut world, 1), turn);
            }
        }
        (20_000 - unit_men(&mut world, 1), u32::MAX)
    }

    #[test]
    fn a_unit_alone_in_a_dark_ford_crosses_at_its_pace_and_tramples_no_one() {
        // 60,000 men's room; the blind ford passes 300 m × 1.3 × 900 s ÷ 3.5
        // × 0.4 = 40,000 a turn: out in the second turn, none lost.
        assert_eq!(alone_in_a_dark_ford(false), (0, 2));
    }

    #[test]
    fn a_crush_needs_a_crowd_pushed_from_behind() {
        // The same riders with the enemy on the bank before them: pressed,
        // blind, they stumble over each other.
        let (lost, _) = alone_in_a_dark_ford(true);
        assert!(lost > 0, "pressed in the dark, some are trampled");
    }

    fn zone_and_state(
        battle: &mut crate::sim::Battle,
        unit: usize,
    ) -> (usize, MoraleState, Vec<(Modifier, f64)>) {
        let mut query = battle
            .world
            .query::<(&UnitInfo, &Location, &crate::sim::morale::Morale)>();
        query
            .iter(&battle.world)
            .find(|(info, ..)| info.idx() == unit)
            .map(|(_, location, morale)| {
                (location.zone(), location.state(), morale.last().to_vec())
            })
            .expect("the unit")
    }

    #[test]
    fn an_ordered_withdrawal_in_contact_costs_morale_and_may_become_a_rout() {
        // Shipped rules: pinned by the enemy that holds; it stays and fights.
        let mut battle = ordered_back(0.5, &[]);
        battle.step();
        assert_eq!(zone_and_state(&mut battle, 0).0, 0);
        // With the rule on it breaks contact, at a price.
        let mut battle = ordered_back(0.5, &[("withdraw_morale", 12.0)]);
        battle.step();
        let (zone, _, last) = zone_and_state(&mut battle, 0);
        assert_eq!(zone, 1, "it left for the ford");
        assert!(last.contains(&(Modifier::Withdrawal, -12.0)), "{last:?}");
        // Green men (quality 0) with a certain chance: the withdrawal is a rout,
        // and a counter-order does not stop it.
        let mut battle = ordered_back(0.0, &[("withdraw_morale", 12.0), ("withdraw_rout", 1.0)]);
        let entries = battle.step();
        assert!(entries.contains(&Entry::Routs { unit: 0 }), "{entries:?}");
        let scene = crate::sim::testing::small_scene(|scene| scene);
        battle.apply(
            &scene,
            &crate::scene::Effect::Order {
                target: crate::scene::Target::Unit("ming-foot".into()),
                order: crate::scene::raw::Order::Hold,
            },
        );
        battle.step();
        assert_eq!(zone_and_state(&mut battle, 0).1, MoraleState::Routing);
        // Elite men (quality 1) never break this way.
        let mut battle = ordered_back(1.0, &[("withdraw_rout", 1.0)]);
        let entries = battle.step();
        assert!(!entries.contains(&Entry::Routs { unit: 0 }), "{entries:?}");
    }

    /// The small world's Ming foot, routing on the north bank with no enemy
    /// on the field, its own way home `retreat` (none: the Ming's, the
    /// south bank, where Zhang stands), after one turn: its zone.
    fn routing_foot_runs_to(retreat: Option<&str>) -> usize {
        let retreat = retreat.map(str::to_string);
        let mut battle = crate::sim::testing::small_battle(move |mut scene| {
            scene.units[0].zone = "north-bank".into();
            scene.units[0].retreat = retreat;
            scene.units[1].present = false;
            scene.units[2].present = false;
            scene
        });
        set_state(&mut battle.world, 0, MoraleState::Routing);
        battle.step();
        zone_and_state(&mut battle, 0).0
    }

    #[test]
    fn a_unit_with_a_way_home_of_its_own_runs_there_not_to_its_sides() {
        // Its side's retreat is the south bank: over the ford.
        assert_eq!(routing_foot_runs_to(None), 1, "toward the south bank");
        // Its own is the tent, the other way (a column routing home by its
        // own road, not by another column's ford to its side's retreat).
        assert_eq!(routing_foot_runs_to(Some("tent")), 3, "toward the tent");
    }

    #[test]
    fn seen_from_behind_a_withdrawal_looks_like_flight() {
        // The foot fall back from the banner onto a reserve at the ford.
        let contagion = |seen: f64| {
            let mut battle = ordered_back(
                0.5,
                &[
                    ("withdraw_morale", 1.0),
                    ("withdrawal_seen_as_flight", seen),
                ],
            );
            battle.step();
            // The reserve: the Han foot, moved to our side and into the ford.
            let (_, _, last) = zone_and_state(&mut battle, 2);
            last.iter()
                .filter(|(m, _)| *m == Modifier::Contagion)
                .map(|(_, d)| -d)
                .sum::<f64>()
        };
        assert_eq!(contagion(0.0), 0.0);
        assert!((contagion(0.5) - 15.0).abs() < 1e-9, "{}", contagion(0.5));
    }
}
