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

use super::chronicle::{Chronicle, Entry};
use super::fast_hash::FxHashMap as HashMap;
use super::field::Field;
use super::morale::Morale;
use super::order::Rising;
use super::perception::Vision;
use super::weather::Passage;
use super::{CommanderState, Strength, UnitInfo, ZoneIdx};
use crate::scene::MoraleState;
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

/// Where a unit is, and whether it is on the field yet.
#[derive(Component, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Location {
    pub zone: usize,
    pub present: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum UnitOrder {
    Hold,
    MoveTo(usize),
    Pursue,
    /// Make for the drums of this commander.
    RallyTo(usize),
}

/// Maps with more zones than this search paths outward from each goal only
/// as far as needed ([`Reach`]); smaller ones search the whole map once per
/// goal. The hop chosen is the same either way.
const LOCAL_SEARCH_ZONES: usize = 256;

/// Steps back from a goal through open zones, searched breadth-first and
/// only as far as the units asking stand: [`Field::next_hop_by`] without the
/// whole map's distances.
struct Reach {
    goal: usize,
    dist: HashMap<usize, usize>,
    queue: std::collections::VecDeque<usize>,
}

impl Reach {
    fn new(goal: usize, zones: usize) -> Reach {
        let mut reach = Reach {
            goal,
            dist: HashMap::default(),
            queue: std::collections::VecDeque::new(),
        };
        if goal < zones {
            reach.dist.insert(goal, 0);
            reach.queue.push_back(goal);
        }
        reach
    }

    /// Settles the next zone of the search: its open neighbours found.
    fn expand(&mut self, field: &Field, open: impl Fn(usize) -> bool) {
        let Some(zone) = self.queue.pop_front() else {
            return;
        };
        let here = self.dist.get(&zone).copied().unwrap_or(0);
        for &next in field.neighbours.get(zone).map_or(&[][..], Vec::as_slice) {
            if !self.dist.contains_key(&next) && open(next) {
                self.dist.insert(next, here + 1);
                self.queue.push_back(next);
            }
        }
    }

    /// The neighbour of `from` on a shortest open path to the goal, lowest
    /// index first: what `next_hop_by` gives with the whole map's distances.
    fn next_hop(
        &mut self,
        field: &Field,
        from: usize,
        open: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        if from == self.goal {
            return None;
        }
        // Found `from` at distance d: every zone within d + 1 (all its
        // reachable neighbours) is found once every zone within d is settled.
        // Not found: the search ran out, and every distance is known.
        while !self.dist.contains_key(&from) && !self.queue.is_empty() {
            self.expand(field, &open);
        }
        if let Some(&d) = self.dist.get(&from) {
            while let Some(&front) = self.queue.front() {
                if self.dist.get(&front).copied().unwrap_or(0) > d {
                    break;
                }
                self.expand(field, &open);
            }
        }
        let goal = self.goal;
        field
            .neighbours
            .get(from)?
            .iter()
            .copied()
            .filter_map(|n| Some((*self.dist.get(&n)?, n)))
            .filter(|&(_, n)| open(n) || n == goal)
            .min()
            .map(|(_, n)| n)
    }
}

impl From<crate::scene::ROrder> for UnitOrder {
    fn from(order: crate::scene::ROrder) -> UnitOrder {
        match order {
            crate::scene::ROrder::Hold => UnitOrder::Hold,
            crate::scene::ROrder::MoveTo(zone) => UnitOrder::MoveTo(zone.idx()),
            crate::scene::ROrder::Pursue => UnitOrder::Pursue,
        }
    }
}

#[derive(Component, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Orders {
    pub order: UnitOrder,
    /// Men of the unit already through the crossing it is in.
    pub progress: f64,
    /// The zone it entered its current zone from.
    pub came_from: Option<usize>,
}

/// The units that left a zone with an unbroken enemy in it this turn, under
/// orders: the morale system makes them pay for it. Filled only when the
/// rule `withdraw_morale` or `withdraw_rout` is on; emptied each turn.
#[derive(Resource, Debug, Clone, Default)]
pub struct Withdrawals {
    pub units: Vec<usize>,
}

/// Room a unit takes in a crossing: a horse counts as several men.
pub fn room(field: &Field, info: &UnitInfo, men: u32) -> f64 {
    f64::from(men) * room_per_man(field, info.mounted)
}

/// Room one man of a unit takes: a horse's if mounted.
fn room_per_man(field: &Field, mounted: bool) -> f64 {
    if mounted { field.rules.horse_men } else { 1.0 }
}

/// What the movement system's later steps need of each unit, read once,
/// in the order the units are visited (unit-index order).
#[derive(Debug, Clone, Copy)]
/// Narrow fields: one is kept per unit between turns (40 bytes, not 56).
/// A unit's men and state are as at the start of the moves.
struct Walker {
    entity: Entity,
    idx: u32,
    side: u32,
    zone: u32,
    men: u32,
    order: Heading,
    state: MoraleState,
    present: bool,
    mounted: bool,
}

/// A unit's order as a [`Walker`] holds it: [`UnitOrder`] with narrow indices.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Heading {
    Hold,
    MoveTo(u32),
    Pursue,
    RallyTo(u32),
}

impl From<UnitOrder> for Heading {
    fn from(order: UnitOrder) -> Heading {
        match order {
            UnitOrder::Hold => Heading::Hold,
            UnitOrder::MoveTo(zone) => Heading::MoveTo(narrow(zone)),
            UnitOrder::Pursue => Heading::Pursue,
            UnitOrder::RallyTo(commander) => Heading::RallyTo(narrow(commander)),
        }
    }
}

/// A unit, side, zone or commander index as a Walker holds it: scenes are
/// far below four billion of any (a larger index saturates, and is never a
/// real one).
fn narrow(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

impl Walker {
    fn side(&self) -> usize {
        self.side as usize
    }
    fn zone(&self) -> usize {
        self.zone as usize
    }
    fn obeys(&self) -> bool {
        self.state.obeys()
    }
}

/// A unit that may have something to do in the moves: its record's place
/// among the walkers, where it wants to go, and whether it sets out in
/// contact with an unbroken enemy (with the withdrawal rules on).
#[derive(Debug, Clone, Copy)]
struct Mover {
    walker: usize,
    want: Option<usize>,
    engaged: bool,
}

/// Where the units stand as the turn's moves begin, counted from their
/// records in unit-index order (per side and zone: `side * zones + zone`).
#[derive(Default)]
struct Census {
    /// Where routing enemies of each side are (for pursuit).
    enemy_routing_in: Vec<bool>,
    /// Where each side has an unbroken unit (contact).
    unbroken: Vec<bool>,
    /// Per zone: the room taken in a crossing, and that room by how fast it flows.
    crowd_room: Vec<f64>,
    flowing_room: Vec<f64>,
}

impl Census {
    /// Nothing counted yet, for `zones` zones and `sides` sides.
    fn reset(&mut self, zones: usize, sides: usize) {
        refill(&mut self.enemy_routing_in, zones * sides, false);
        refill(&mut self.unbroken, zones * sides, false);
        refill(&mut self.crowd_room, zones, 0.0);
        refill(&mut self.flowing_room, zones, 0.0);
    }

    /// Counts one unit (units are counted in index order: the rooms are sums).
    fn count(&mut self, field: &Field, walker: &Walker) {
        let (side, zone, men, state) = (walker.side(), walker.zone(), walker.men, walker.state);
        if !walker.present || !state.can_fight_or_flee() {
            return;
        }
        let n = field.zones.len();
        if state == MoraleState::Routing && men > 0 {
            for other in 0..field.n_sides {
                if other != side {
                    self.enemy_routing_in[other * n + zone] = true;
                }
            }
        }
        if state.obeys() && men > 0 {
            self.unbroken[side * n + zone] = true;
        }
        if field.zones[zone].is_crossing() {
            let unit_room = f64::from(men) * room_per_man(field, walker.mounted);
            let routing = state == MoraleState::Routing;
            let flow = if routing { field.rules.routing_flow } else { 1.0 };
            self.crowd_room[zone] += unit_room;
            self.flowing_room[zone] += unit_room * flow;
        }
    }
}

/// The movement system's working lists, kept between turns so a turn
/// allocates nothing once they have grown (per side and zone:
/// `side * zones + zone`; per zone and side: `zone * sides + side`).
#[derive(Default)]
pub struct MovementScratch {
    /// The field the path searches below were made on.
    field: Option<Field>,
    intact: Vec<bool>,
    /// The open zones the kept path searches were made with: they are kept
    /// from turn to turn until a crossing is destroyed or mended.
    searched_with: Vec<bool>,
    census: Census,
    /// Per goal zone: the next hop towards it from every zone. A unit's hop
    /// is looked up, not searched among its zone's neighbours each turn.
    hops_to: Vec<Option<Vec<Option<usize>>>>,
    reach_from: HashMap<usize, Reach>,
    /// Steps from a pursuer's zone to every zone, through open zones.
    out_from: HashMap<usize, Vec<usize>>,
    pursuit: HashMap<(usize, usize), Option<usize>>,
    commander_zone: Vec<Option<usize>>,
    walkers: Vec<Walker>,
    movers: Vec<Mover>,
    columns: HashMap<(usize, usize), usize>,
    column_men: Vec<u32>,
    holding: Vec<bool>,
    capacity: Vec<f64>,
    trampled: Vec<u32>,
    crossed: Vec<u32>,
    moved: Vec<(usize, usize)>,
    /// By commander index: the zone the first of his units that moved went to.
    followed: Vec<Option<usize>>,
}

/// Empties `list` and fills it with `len` copies of `value`, keeping its memory.
fn refill<T: Clone>(list: &mut Vec<T>, len: usize, value: T) {
    list.clear();
    list.resize(len, value);
}

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn movement_system(
    mut scratch: Local<MovementScratch>,
    field: Res<Field>,
    vision: Res<Vision>,
    mut chronicle: ResMut<Chronicle>,
    mut withdrawals: ResMut<Withdrawals>,
    mut commanders: Query<&mut CommanderState>,
    mut passages: Query<(&ZoneIdx, &mut Passage)>,
    mut units: Query<(
        Entity,
        &UnitInfo,
        &mut Strength,
        &mut Location,
        &mut Orders,
        &Morale,
    )>,
) {
    let rules = &field.rules;
    let n = field.zones.len();
    let n_sides = field.n_sides;
    let MovementScratch {
        field: searched_on,
        intact,
        searched_with,
        census,
        hops_to,
        reach_from,
        out_from,
        pursuit,
        commander_zone,
        walkers,
        movers,
        columns,
        column_men,
        holding,
        capacity,
        trampled,
        crossed,
        moved,
        followed,
    } = &mut *scratch;
    refill(intact, n, true);
    for (idx, passage) in passages.iter() {
        if let Some(slot) = intact.get_mut(idx.0) {
            *slot = passage.intact;
        }
    }
    // Paths depend only on the field and which zones are open: searches made
    // on this field with the same zones open are still good.
    if !searched_on.as_ref().is_some_and(|f| f.same(&field)) || searched_with != intact {
        hops_to.clear();
        hops_to.resize(n, None);
        reach_from.clear();
        out_from.clear();
        searched_with.clone_from(intact);
        *searched_on = Some(field.clone());
    }
    let open = |zone: usize| intact.get(zone).copied().unwrap_or(false);
    // What the later steps need of each unit is read here, once, in the
    // order the world stores the units: they walk these records instead of
    // the world. As the turn's moves begin: where routing enemies are (for
    // pursuit), by side; where each side has an unbroken unit (contact); and
    // the room taken in each crossing, and how fast it flows — summed in
    // unit-index order, so when the world holds the units otherwise (checked
    // on the way) the records are sorted by index and counted again.
    census.reset(n, n_sides);
    walkers.clear();
    let mut order = Rising::default();
    let mut rallying = false;
    units.iter().for_each(|(entity, info, strength, location, orders, morale)| {
        order.see(info.idx);
        let walker = Walker {
            entity,
            idx: narrow(info.idx),
            side: narrow(info.side),
            zone: narrow(location.zone),
            men: strength.men,
            order: orders.order.into(),
            state: morale.state,
            present: location.present,
            mounted: info.mounted,
        };
        rallying |= matches!(walker.order, Heading::RallyTo(_));
        census.count(&field, &walker);
        walkers.push(walker);
    });
    if !order.rose() {
        walkers.sort_by_key(|walker| walker.idx);
        census.reset(n, n_sides);
        for walker in walkers.iter() {
            census.count(&field, walker);
        }
    }
    let Census {
        enemy_routing_in,
        unbroken,
        crowd_room,
        flowing_room,
    } = census;
    // Where each commander stands (the first entity of an index, as found;
    // an index past the scene's commanders is looked for), if any unit makes
    // for a commander's drums.
    commander_zone.clear();
    if rallying {
        refill(commander_zone, commanders.iter().len(), None);
        for commander in commanders.iter() {
            if let Some(slot) = commander_zone.get_mut(commander.idx) {
                slot.get_or_insert(commander.zone);
            }
        }
    }
    let commander_zone = |idx: usize| match commander_zone.get(idx) {
        Some(zone) => *zone,
        None => commanders.iter().find(|c| c.idx == idx).map(|c| c.zone),
    };

    // Each unit's wanted next zone. Paths are searched once per goal (steps
    // back from it) and pursuit targets once per side and zone, not per unit.
    // On a large map each goal's search goes only as far as its units stand
    // (a whole-map search per goal is quadratic when goals grow with the map).
    // Men of each side's obeying columns, per (from, to) zone pair:
    // `columns` gives where a pair's men start in `column_men` (one slot per side).
    // The units that may have anything to do in the moves below are listed,
    // in index order; those that obey and stay put hold their zone.
    let local = n > LOCAL_SEARCH_ZONES;
    pursuit.clear();
    movers.clear();
    columns.clear();
    column_men.clear();
    refill(holding, n * n_sides, false);
    for (slot, walker) in walkers.iter().enumerate() {
        let from = walker.zone();
        let side = walker.side();
        let active = walker.present && walker.state.can_fight_or_flee();
        let goal = if !active {
            None
        } else if walker.state == MoraleState::Routing {
            match walker.order {
                Heading::RallyTo(commander) => commander_zone(commander as usize),
                _ => field.retreat.get(side).copied().flatten(),
            }
        } else {
            match walker.order {
                Heading::Hold => None,
                Heading::MoveTo(zone) => Some(zone as usize),
                Heading::RallyTo(commander) => commander_zone(commander as usize),
                Heading::Pursue => *pursuit.entry((side, from)).or_insert_with(|| {
                    let visible = |zone: usize| vision.side_sees(side, zone) || zone == from;
                    let distance = out_from
                        .entry(from)
                        .or_insert_with(|| field.distances(from, open));
                    (0..n)
                        .filter(|&z| {
                            enemy_routing_in[side * n + z]
                                && visible(z)
                                && distance[z] != usize::MAX
                        })
                        .min_by_key(|&z| (distance[z], z))
                }),
            }
        };
        let want = goal.and_then(|goal| {
            if local {
                return reach_from
                    .entry(goal)
                    .or_insert_with(|| Reach::new(goal, n))
                    .next_hop(&field, from, open);
            }
            let hops = hops_to.get_mut(goal)?.get_or_insert_with(|| {
                let back = field.distances(goal, open);
                (0..n)
                    .map(|from| field.next_hop_by(from, goal, &back, open))
                    .collect()
            });
            hops.get(from).copied().flatten()
        });
        if walker.present && walker.obeys() {
            match want {
                Some(to) => {
                    let start = *columns.entry((from, to)).or_insert_with(|| {
                        let start = column_men.len();
                        column_men.resize(start + n_sides, 0);
                        start
                    });
                    column_men[start + side] += walker.men;
                }
                None if walker.men > 0 => holding[side * n + from] = true,
                None => {}
            }
        }
        // Active units stand in a zone (counted above): a crossing, or not.
        let crossing = active && field.zones[from].is_crossing();
        if want.is_some() || crossing || walker.order == Heading::MoveTo(walker.zone) {
            movers.push(Mover {
                walker: slot,
                want,
                engaged: false,
            });
        }
    }

    // Head-on: enemy columns ordered into each other's zones meet instead of
    // passing. The stronger column (men that have not broken) goes on into
    // the other's zone; the weaker stands and receives it, so they fight there.
    let no_column = [0u32; 0];
    let column = |pair: (usize, usize)| -> &[u32] {
        columns
            .get(&pair)
            .map_or(&no_column[..], |&start| &column_men[start..start + n_sides])
    };
    for mover in movers.iter_mut() {
        let Some(to) = mover.want else { continue };
        let walker = &walkers[mover.walker];
        if !walker.obeys() {
            continue;
        }
        let from = walker.zone();
        let side = walker.side();
        let coming = column((to, from));
        let theirs: u32 = coming
            .iter()
            .enumerate()
            .filter(|(s, _)| *s != side)
            .map(|(_, men)| *men)
            .sum();
        if theirs == 0 {
            continue;
        }
        let ours = column((from, to)).get(side).copied().unwrap_or(0);
        let strongest_enemy_side = (0..field.n_sides)
            .filter(|&s| s != side)
            .max_by_key(|&s| (coming.get(s).copied().unwrap_or(0), std::cmp::Reverse(s)))
            .unwrap_or(side);
        let wins = ours > theirs || (ours == theirs && side < strongest_enemy_side);
        if !wins {
            // It stays, and holds its zone (it is on the field and obeys).
            mover.want = None;
            if walker.men > 0 {
                holding[side * n + from] = true;
            }
        }
    }

    // Engaged: a unit that has not broken does not walk past or away from an
    // enemy that holds its ground in the same zone; it stays and fights it
    // out. Enemies leaving together (a rearguard falling back with pursuers on
    // its heels) go on fighting wherever they arrive. Only holders pin: a unit
    // pinned this turn does not pin others in turn, so one blocking unit in a
    // ford stops the enemy it faces, not its own side's columns behind them.
    // With the withdrawal rules on, a unit may break contact instead, at a
    // cost: those in contact with an unbroken enemy as the moves begin.
    let disengage = rules.withdraw_morale > 0.0 || rules.withdraw_rout > 0.0;
    let in_contact = |side: usize, zone: usize| {
        (0..n_sides).any(|other| other != side && unbroken[other * n + zone])
    };
    for mover in movers.iter_mut() {
        let walker = &walkers[mover.walker];
        if mover.want.is_none() || !walker.obeys() {
            continue;
        }
        if !disengage {
            if (0..n_sides)
                .any(|other| other != walker.side() && holding[other * n + walker.zone()])
            {
                mover.want = None;
            }
        } else if walker.present && in_contact(walker.side(), walker.zone()) {
            mover.engaged = true;
        }
    }

    // Crossings: capacity shared by room; a routing crowd jams, and the excess tramples.
    capacity.clear();
    capacity.extend((0..n).map(|zone| {
        // Only a crossing's capacity is ever asked for.
        if !field.zones[zone].is_crossing() {
            return 0.0;
        }
        let flow = if crowd_room[zone] > 0.0 {
            flowing_room[zone] / crowd_room[zone]
        } else {
            1.0
        };
        if open(zone) {
            field.capacity(zone, vision.is_blind(zone)) * flow
        } else {
            0.0
        }
    }));
    // What makes a crowd trample is panic and blindness, not its size: an
    // orderly column in clear air waits its turn at the water's edge.
    let panic = |routing: bool, zone: usize| {
        let pushing = if routing { rules.trample_routing } else { 0.0 };
        let blind = if vision.is_blind(zone) {
            rules.trample_blind
        } else {
            0.0
        };
        pushing + blind
    };
    refill(trampled, n, 0);
    refill(crossed, n * n_sides, 0);
    let mut any_crossed = false;
    moved.clear();
    // Those that left an enemy standing pay for it in the morale step.
    withdrawals.units.clear();
    // The listed units are reached by entity, in index order, instead of
    // walking the world: those still wanting to move, those in a crossing,
    // and those ordered to where they already are.
    for mover in movers.iter() {
        let walker = &walkers[mover.walker];
        let want = mover.want;
        let crossing = field.zones.get(walker.zone()).is_some_and(|z| z.is_crossing());
        if want.is_none() && !crossing && walker.order != Heading::MoveTo(walker.zone) {
            continue;
        }
        let Ok((_, info, mut strength, mut location, mut orders, morale)) =
            units.get_mut(walker.entity)
        else {
            continue;
        };
        'unit: {
            if !location.present || !morale.state.can_fight_or_flee() {
                break 'unit;
            }
            let zone = location.zone;
            let next = if field.zones[zone].is_crossing() {
                let crowd = crowd_room[zone];
                let own_room = room(&field, info, strength.men);
                let per_man = room_per_man(&field, info.mounted);
                let own_panic = panic(morale.state == MoraleState::Routing, zone);
                if crowd > capacity[zone] && crowd > 0.0 && own_panic > 0.0 {
                    // Each unit's part of the excess, by the room it takes and its own panic.
                    let excess = crowd - capacity[zone];
                    let lost =
                        (excess * rules.trample_rate * own_panic * field.turn_scale * own_room
                            / crowd
                            / per_man)
                            .round()
                            .clamp(0.0, f64::from(strength.men)) as u32;
                    strength.men -= lost;
                    strength.lost_this_turn += lost;
                    trampled[zone] += lost;
                }
                let Some(next) = want else { break 'unit };
                if next == orders.came_from.unwrap_or(usize::MAX) && orders.progress <= 0.0 {
                    // Turning back before setting out is a step, not a crossing.
                    next
                } else {
                    let share = if crowd > 0.0 { own_room / crowd } else { 1.0 };
                    orders.progress += capacity[zone].min(crowd.max(1.0)) * share / per_man;
                    if orders.progress < f64::from(strength.men) {
                        break 'unit;
                    }
                    crossed[zone * n_sides + info.side] += strength.men;
                    any_crossed = true;
                    chronicle.push(Entry::Crossed {
                        unit: info.idx,
                        zone,
                        to: next,
                    });
                    next
                }
            } else if let Some(next) = want {
                next
            } else {
                break 'unit;
            };
            move_to(&mut chronicle, info.idx, &mut location, &mut orders, next);
            moved.push((info.idx, next));
            if mover.engaged {
                withdrawals.units.push(info.idx);
            }
        }
        // A unit that reached its destination holds there.
        if orders.order == UnitOrder::MoveTo(location.zone) {
            orders.order = UnitOrder::Hold;
        }
    }
    for (zone, men) in trampled.iter().enumerate() {
        if *men > 0 {
            chronicle.push(Entry::Trampled { zone, men: *men });
        }
    }
    if any_crossed {
        for (idx, mut passage) in passages.iter_mut() {
            if idx.0 < n {
                let by_side = &crossed[idx.0 * n_sides..(idx.0 + 1) * n_sides];
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
    // A commander rides with the unit he leads (the first of his that moved,
    // by unit index) unless the scene has put him somewhere himself.
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
    for mut commander in commanders.iter_mut() {
        if commander.placed || !commander.standing() {
            continue;
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
    }
}

fn move_to(
    chronicle: &mut Chronicle,
    unit: usize,
    location: &mut Location,
    orders: &mut Orders,
    next: usize,
) {
    let from = location.zone;
    location.zone = next;
    orders.came_from = Some(from);
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

    #[test]
    fn a_search_from_the_goal_as_far_as_needed_picks_the_whole_maps_hop() {
        // A ladder of lanes, as the scaled benchmarks build: each lane's
        // zones in a row, joined to the next lane's at both ends.
        let scene = crate::sim::testing::small_scene(|mut raw| {
            let base = raw.zones.clone();
            for lane in 1..6 {
                for zone in &base {
                    let mut zone = zone.clone();
                    let id = zone.id.clone();
                    zone.id = format!("{id}-{lane}");
                    zone.adjacent = zone
                        .adjacent
                        .iter()
                        .map(|a| format!("{a}-{lane}"))
                        .collect();
                    if id == "south-bank" || id == "tent" {
                        let before = if lane == 1 {
                            id.clone()
                        } else {
                            format!("{id}-{}", lane - 1)
                        };
                        zone.adjacent.push(before);
                    }
                    raw.zones.push(zone);
                }
            }
            raw
        });
        let field = Field::new(&scene);
        let n = field.zones.len();
        for closed in [None, Some(1), Some(5)] {
            let open = |z: usize| Some(z) != closed;
            for goal in 0..n {
                let mut reach = Reach::new(goal, n);
                for from in (0..n).rev() {
                    assert_eq!(
                        reach.next_hop(&field, from, open),
                        field.next_hop(from, goal, open),
                        "from {from} to {goal}, {closed:?} closed"
                    );
                }
            }
        }
    }

    fn riders_in_the_ford(smoke: f64, morale: f64) -> u32 {
        // The ford of the small world: 300 m wide, 1 m deep, like the seed's.
        let (mut world, mut schedule) = small_world(|mut scene| {
            scene.units[1].men = 10_000;
            scene.units[1].zone = "ford".into();
            scene.units[1].order = crate::scene::Order::MoveTo("north-bank".into());
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
            scene.units[1].order = crate::scene::Order::MoveTo("north-bank".into());
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
            .find(|(i, _)| i.idx == 1)
            .map(|(_, l)| l.zone);
        assert_eq!(zone, Some(0), "still on the south bank");
    }

    /// 40,000 men packed into a 6 m bridge, clear air: (men lost, men crossed).
    fn a_column_on_a_narrow_bridge(routing: bool) -> u32 {
        let (mut world, mut schedule) = small_world(|mut scene| {
            scene.zones[1].kind = crate::scene::ZoneKind::Bridge;
            scene.zones[1].width_m = 6.0;
            scene.zones[1].depth_m = 0.0;
            scene.units[1].men = 40_000;
            scene.units[1].kind = crate::scene::UnitKind::new("HanBannerFoot");
            scene.units[1].zone = "ford".into();
            scene.units[1].order = crate::scene::Order::MoveTo("north-bank".into());
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

    fn zone_of(world: &mut World, unit: usize) -> usize {
        let mut query = world.query::<(&UnitInfo, &Location)>();
        query
            .iter(world)
            .find(|(info, _)| info.idx == unit)
            .map(|(_, location)| location.zone)
            .unwrap_or(usize::MAX)
    }

    #[test]
    fn enemies_ordered_toward_each_other_meet_and_fight_instead_of_swapping() {
        // Ming foot (4,000) on the north bank ordered to the tent; the Han foot
        // (1,000) at the tent ordered to the north bank, the same turn.
        let (mut world, mut schedule) = small_world(|mut scene| {
            scene.units[0].zone = "north-bank".into();
            scene.units[0].order = crate::scene::Order::MoveTo("tent".into());
            scene.units[1].zone = "south-bank".into();
            scene.units[1].side = "ming".into();
            scene.units[2].order = crate::scene::Order::MoveTo("north-bank".into());
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
            scene.units[0].order = crate::scene::Order::MoveTo("tent".into());
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
                scene.units[0].order = crate::scene::Order::MoveTo("ford".into());
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
            scene.units[0].order = crate::scene::Order::MoveTo("ford".into());
            scene.rules.extend(rules);
            scene
        })
    }

    fn zone_and_state(
        battle: &mut crate::sim::Battle,
        unit: usize,
    ) -> (usize, MoraleState, Vec<(Modifier, f64)>) {
        let mut query = battle.world.query::<(&UnitInfo, &Location, &Morale)>();
        query
            .iter(&battle.world)
            .find(|(info, ..)| info.idx == unit)
            .map(|(_, location, morale)| (location.zone, morale.state, morale.last.clone()))
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
                order: crate::scene::Order::Hold,
            },
        );
        battle.step();
        assert_eq!(zone_and_state(&mut battle, 0).1, MoraleState::Routing);
        // Elite men (quality 1) never break this way.
        let mut battle = ordered_back(1.0, &[("withdraw_rout", 1.0)]);
        let entries = battle.step();
        assert!(!entries.contains(&Entry::Routs { unit: 0 }), "{entries:?}");
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
