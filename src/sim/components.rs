//! The components and resources several of the simulation's concepts read:
//! what a unit, a commander and a zone are in the world (`UnitInfo`,
//! `Strength`, `Location`, `Orders`, `Morale`, `CommanderState`,
//! `ZoneIdx`), what each side sees (`Vision`), who withdrew under orders
//! (`Withdrawals`), and the wind (`Weather`). One file at the bottom of
//! `sim`, so the concepts that write them (movement, morale, perception,
//! weather) and those that read them depend on it rather than on each
//! other; each concept keeps the systems that apply its effects, and
//! re-exports what it writes.

use crate::scene::{Compass, Fate, MoraleState};
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

/// What never changes about a unit (but its side, which a change of side
/// rewrites in the world's copy): the scene's, one for each unit in the
/// field ([`super::Field`]'s `units`, by index). The world's units carry
/// only the part of it the turn's walks over every unit read
/// ([`UnitInfo`]); the rest is looked up here by index, by the few that
/// need it (a unit's walk over a million units reads every byte of its
/// components, wanted or not).
#[derive(Debug, Clone)]
pub struct UnitSpec {
    pub idx: usize,
    pub side: usize,
    pub kind: crate::scene::UnitKind,
    pub quality: f64,
    pub start_men: u32,
    pub start_morale: f64,
    pub may_surrender: bool,
    pub mounted: bool,
    /// The commander who leads it (index), if the scene names one.
    pub leader: Option<usize>,
    /// Its place in the queue at a crossing (higher goes first).
    pub precedence: u32,
}

/// What a unit in the world is, as every walk over the units reads it:
/// its index, its side now, and the traits read for every unit (12 bytes:
/// the index and the side are kept as `u32`s behind [`UnitInfo::idx`] and
/// [`UnitInfo::side`]; the rest of the scene's [`UnitSpec`] is the
/// field's, by index: its opening morale and men too, read by morale's
/// walk and a few others, `Field::start_morale` and `Field::start_men`).
#[derive(Component, Debug, Clone, PartialEq)]
pub struct UnitInfo {
    idx: u32,
    side: u32,
    pub may_surrender: bool,
    pub mounted: bool,
}

impl From<&UnitSpec> for UnitInfo {
    fn from(spec: &UnitSpec) -> UnitInfo {
        UnitInfo {
            idx: narrow(spec.idx),
            side: narrow(spec.side),
            may_surrender: spec.may_surrender,
            mounted: spec.mounted,
        }
    }
}

impl UnitInfo {
    /// Its index in the scene's units (and the field's).
    #[inline]
    pub fn idx(&self) -> usize {
        self.idx as usize
    }

    /// Its side now.
    #[inline]
    pub fn side(&self) -> usize {
        self.side as usize
    }

    /// Its index as kept (a `u32`).
    #[inline]
    pub(crate) fn idx_u32(&self) -> u32 {
        self.idx
    }

    /// Its side as kept (a `u32`).
    #[inline]
    pub(crate) fn side_u32(&self) -> u32 {
        self.side
    }

    /// Puts it on `side` (a change of side).
    #[inline]
    pub fn set_side(&mut self, side: usize) {
        self.side = narrow(side);
    }
}

/// Men in the unit now.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Strength {
    pub men: u32,
    /// Men lost since the start of this turn (for morale).
    pub lost_this_turn: u32,
}

/// A commander's place and drums.
#[derive(Component, Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CommanderState {
    pub idx: usize,
    pub side: usize,
    pub leadership: f64,
    pub zone: usize,
    pub drums_left: u32,
    /// Put where he stands by a scene effect (`CommanderTo`): from then on he
    /// stays where the scene put him instead of following the unit he leads.
    #[serde(default)]
    pub placed: bool,
    /// How he fell, if he has (a `Fall` effect, or a losing fight).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallen: Option<Fate>,
}

impl CommanderState {
    /// Still with his men: not killed or captured (a wounded one is carried
    /// along). Only such a commander gives his side sight.
    pub fn standing(&self) -> bool {
        !matches!(self.fallen, Some(Fate::Killed | Fate::Captured))
    }

    /// Can beat a rally or steady routing men: not fallen at all.
    pub fn rallies(&self) -> bool {
        self.fallen.is_none()
    }

    /// The leadership he brings now: his own, a share of it when wounded,
    /// none when killed or captured.
    pub fn leading(&self, rules: &crate::scene::Rules) -> f64 {
        match self.fallen {
            None => self.leadership,
            Some(Fate::Wounded) => self.leadership * rules.wounded_leadership,
            Some(Fate::Killed | Fate::Captured) => 0.0,
        }
    }
}

/// Marks a zone entity.
#[derive(Component, Debug, Clone, Copy)]
pub struct ZoneIdx(pub usize);

/// Where a unit is, whether it is on the field yet, and its morale's state
/// (8 bytes: the zone is kept as a `u32`, which holds any zone a field can
/// have). The state lives here, not in [`Morale`]: the walks that only
/// filter units (able to fight or flee, routing, broken) read this column
/// alone, a quarter of `Morale`'s bytes; and it is the one copy, written
/// by every writer of a state through [`Location::set_state`].
#[derive(Component, Clone, Copy, PartialEq)]
pub struct Location {
    zone: u32,
    pub present: bool,
    state: MoraleState,
}

impl Location {
    /// In `zone`, steady.
    pub fn new(zone: usize, present: bool) -> Location {
        Location::with_state(zone, present, MoraleState::Steady)
    }

    /// In `zone`, its morale in `state`.
    pub fn with_state(zone: usize, present: bool, state: MoraleState) -> Location {
        Location {
            zone: narrow(zone),
            present,
            state,
        }
    }

    /// The zone it is in.
    #[inline]
    pub fn zone(&self) -> usize {
        self.zone as usize
    }

    #[inline]
    pub fn set_zone(&mut self, zone: usize) {
        self.zone = narrow(zone);
    }

    /// Its morale's state.
    #[inline]
    pub fn state(&self) -> MoraleState {
        self.state
    }

    /// Puts its morale in `state`.
    #[inline]
    pub fn set_state(&mut self, state: MoraleState) {
        self.state = state;
    }

    /// On the field and able to fight or flee.
    #[inline]
    pub fn stands(&self) -> bool {
        self.present && self.state.can_fight_or_flee()
    }
}

impl std::fmt::Debug for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Location")
            .field("zone", &self.zone())
            .field("present", &self.present)
            .field("state", &self.state)
            .finish()
    }
}

const _: () = assert!(std::mem::size_of::<Location>() == 8);
const _: () = assert!(std::mem::size_of::<UnitInfo>() == 12);

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum UnitOrder {
    Hold,
    MoveTo(usize),
    Pursue,
    /// Make for the drums of this commander.
    RallyTo(usize),
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

/// A unit's order, its crossing and where it came from (24 bytes: the
/// order and the zone it came from are kept as `u32`s, which hold any
/// index a field can have; walks over a million units stream every byte).
#[derive(Component, Clone, Copy, PartialEq)]
pub struct Orders {
    order: CompactOrder,
    /// Men of the unit already through the crossing it is in.
    pub progress: f64,
    /// The zone it entered its current zone from (`NO_ZONE`: none).
    came_from: u32,
}

/// [`UnitOrder`] in 8 bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CompactOrder {
    Hold,
    MoveTo(u32),
    Pursue,
    RallyTo(u32),
}

/// `Orders::came_from`'s none.
const NO_ZONE: u32 = u32::MAX;

/// An index as a `u32`: one past what fits (no field holds as many zones
/// or commanders) is kept as `u32::MAX - 1`, out of range as it was.
#[inline]
fn narrow(index: usize) -> u32 {
    u32::try_from(index)
        .unwrap_or(u32::MAX - 1)
        .min(u32::MAX - 1)
}

impl From<UnitOrder> for CompactOrder {
    #[inline]
    fn from(order: UnitOrder) -> CompactOrder {
        match order {
            UnitOrder::Hold => CompactOrder::Hold,
            UnitOrder::MoveTo(zone) => CompactOrder::MoveTo(narrow(zone)),
            UnitOrder::Pursue => CompactOrder::Pursue,
            UnitOrder::RallyTo(commander) => CompactOrder::RallyTo(narrow(commander)),
        }
    }
}

impl Orders {
    pub fn new(order: UnitOrder, progress: f64, came_from: Option<usize>) -> Orders {
        Orders {
            order: order.into(),
            progress,
            came_from: came_from.map_or(NO_ZONE, narrow),
        }
    }

    /// The order it is under.
    #[inline]
    pub fn order(&self) -> UnitOrder {
        match self.order {
            CompactOrder::Hold => UnitOrder::Hold,
            CompactOrder::MoveTo(zone) => UnitOrder::MoveTo(zone as usize),
            CompactOrder::Pursue => UnitOrder::Pursue,
            CompactOrder::RallyTo(commander) => UnitOrder::RallyTo(commander as usize),
        }
    }

    #[inline]
    pub fn set_order(&mut self, order: UnitOrder) {
        self.order = order.into();
    }

    /// Under orders to hold.
    #[inline]
    pub fn holds(&self) -> bool {
        self.order == CompactOrder::Hold
    }

    /// The zone it entered its current zone from.
    #[inline]
    pub fn came_from(&self) -> Option<usize> {
        (self.came_from != NO_ZONE).then_some(self.came_from as usize)
    }

    #[inline]
    pub fn set_came_from(&mut self, zone: Option<usize>) {
        self.came_from = zone.map_or(NO_ZONE, narrow);
    }
}

impl std::fmt::Debug for Orders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Orders")
            .field("order", &self.order())
            .field("progress", &self.progress)
            .field("came_from", &self.came_from())
            .finish()
    }
}

const _: () = assert!(std::mem::size_of::<Orders>() == 24);

/// The units that left a zone with an unbroken enemy in it this turn, under
/// orders: the morale system makes them pay for it. Filled only when the
/// rule `withdraw_morale` or `withdraw_rout` is on; emptied each turn.
#[derive(Debug, Clone, Default)]
pub struct Withdrawals {
    pub units: Vec<usize>,
}

/// Why morale moved: the `why` command shows these with their sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Modifier {
    Casualties,
    Outnumbered,
    Contagion,
    Leader,
    Rumor,
    Smoke,
    Trapped,
    Drums,
    Recovery,
    Orders,
    /// The commander who leads it has fallen.
    CommanderFell,
    /// It left an enemy standing (the rule `withdraw_morale`).
    Withdrawal,
    /// Foot charged by horse out of a fortified place (the rule
    /// `charge_morale`).
    Charged,
    /// What happened in the story: a scene's `Morale` effect.
    Event,
}

/// The most moves of morale a unit notes in a turn (`Morale::last`); a save
/// with more is refused.
pub const MAX_LAST: usize = 64;

/// The largest noted move either way (a save with a larger one is refused).
pub const MAX_NOTED: f64 = 1e12;

/// The moves of morale a unit noted this turn ([`Morale::last`]): one
/// pointer in the unit's `Morale` (a `Vec` is three words, and every walk
/// over the units streams the column), its length and room beside the moves.
pub type Notes = thin_vec::ThinVec<(Modifier, f64)>;

/// [`Morale`]'s notes hold this turn's moves (some): a turn begins by
/// unsetting it, which leaves the old moves where they are, unread, until
/// the unit's first move of the new turn writes over them (a turn's opening
/// then writes only the unit's own `Morale`, not its notes' memory too).
const NOTED: u8 = 1;
/// A shock was noted this turn (a rumor, its commander fallen, the story's
/// blow): only then are the notes read for one that told against it.
const SHOCKED: u8 = 2;

#[derive(Component, Debug, Clone)]
pub struct Morale {
    /// 0..100.
    pub value: f64,
    /// What moved it this turn, in order ([`Morale::last`]), when `flags`
    /// says [`NOTED`]; past turns' otherwise.
    notes: Notes,
    flags: u8,
    /// Believes the last rumor it heard says its side is lost.
    pub believes_lost: bool,
    /// 0..1: fear left from believing its side is lost (only with the rule
    /// `rumor_fear` on); fades by `fear_decay` a turn.
    pub fear: f64,
}

impl PartialEq for Morale {
    fn eq(&self, other: &Morale) -> bool {
        self.value == other.value
            && self.last() == other.last()
            && self.believes_lost == other.believes_lost
            && self.fear == other.fear
    }
}

impl Morale {
    pub fn new(value: f64) -> Morale {
        Morale {
            value,
            notes: Notes::new(),
            flags: 0,
            believes_lost: false,
            fear: 0.0,
        }
    }

    /// A unit's morale with all its parts (a saved one's; its state is
    /// its [`Location`]'s).
    pub fn from_parts(
        value: f64,
        last: &[(Modifier, f64)],
        believes_lost: bool,
        fear: f64,
    ) -> Morale {
        let mut morale = Morale::new(value);
        morale.set_last(last);
        morale.believes_lost = believes_lost;
        morale.fear = fear;
        morale
    }

    /// The state of a unit's morale at the opening, `value`: already
    /// wavering if it starts low (kept in its [`Location`]).
    pub fn opening_state(value: f64, rules: &crate::scene::Rules) -> MoraleState {
        if value < rules.waver_below {
            MoraleState::Wavering
        } else {
            MoraleState::Steady
        }
    }

    /// What moved it this turn, in order.
    #[inline]
    pub fn last(&self) -> &[(Modifier, f64)] {
        if self.flags & NOTED != 0 {
            &self.notes
        } else {
            &[]
        }
    }

    /// Something moved it this turn (`!last().is_empty()`, read without
    /// the notes' memory).
    #[inline]
    pub fn noted(&self) -> bool {
        self.flags & NOTED != 0
    }

    /// Some move of this turn that told against it was a shock: a rumor, its
    /// commander fallen, the story's blow (read from the notes only when
    /// one of those was noted at all).
    #[inline]
    pub fn shocked(&self) -> bool {
        self.flags & SHOCKED != 0
            && self.notes.iter().any(|&(modifier, delta)| {
                delta < 0.0
                    && matches!(
                        modifier,
                        Modifier::Rumor | Modifier::CommanderFell | Modifier::Event
                    )
            })
    }

    /// Makes its notes of this turn a copy of `last`, keeping their memory.
    pub fn set_last(&mut self, last: &[(Modifier, f64)]) {
        // Written over where there are notes already (a copy, not a push
        // a note), the rest added.
        let kept = self.notes.len().min(last.len());
        self.notes.truncate(kept);
        self.notes.copy_from_slice(&last[..kept]);
        if kept < last.len() {
            self.notes.extend_from_slice(&last[kept..]);
        }
        self.flags = 0;
        if !last.is_empty() {
            self.flags |= NOTED;
        }
        if last.iter().any(|&(modifier, _)| is_shock(modifier)) {
            self.flags |= SHOCKED;
        }
    }

    /// Some note of this turn's is set ([`Morale::forget_turn`] has
    /// something to forget).
    #[inline]
    pub fn noted_any(&self) -> bool {
        self.flags != 0
    }

    /// A new turn: nothing has moved it yet (the old notes are left to be
    /// written over: see `Morale::NOTED`). Whether there was anything to forget.
    #[inline]
    pub fn forget_turn(&mut self) -> bool {
        let noted = self.flags != 0;
        if noted {
            self.flags = 0;
        }
        noted
    }

    /// Moves morale by `delta` (kept within 0..100) and notes why.
    #[inline]
    pub fn feel(&mut self, modifier: Modifier, delta: f64) {
        self.value = (self.value + delta).clamp(0.0, 100.0);
        self.push(modifier, delta);
    }

    /// Notes a move of `delta` for `modifier`. At most [`MAX_LAST`] moves
    /// are noted a turn: past that, a move is added to the latest noted one
    /// of the same kind; a kind not noted yet takes the place of a move
    /// added to an earlier one of its own kind (there are fewer kinds than
    /// places), so every kind that moved it is still there, with its total.
    #[inline]
    pub fn push(&mut self, modifier: Modifier, delta: f64) {
        if delta == 0.0 {
            return;
        }
        if self.flags & NOTED == 0 {
            // The turn's first move: the old ones go.
            self.notes.clear();
        }
        self.flags |= NOTED;
        if is_shock(modifier) {
            self.flags |= SHOCKED;
        }
        // (The common case in line: room left, and memory for it.)
        if self.notes.len() < self.notes.capacity().min(MAX_LAST) {
            self.notes.push((modifier, delta));
        } else {
            self.push_full(modifier, delta);
        }
    }

    /// [`Morale::push`] when the list is full or has no room left.
    #[cold]
    #[inline(never)]
    fn push_full(&mut self, modifier: Modifier, delta: f64) {
        let last = &mut self.notes;
        if last.len() >= MAX_LAST {
            if let Some(at) = last.iter().rposition(|(m, _)| *m == modifier) {
                fold(&mut last[at].1, delta);
                return;
            }
            let twice = (1..last.len()).rev().find_map(|k| {
                let kind = last[k].0;
                last[..k]
                    .iter()
                    .rposition(|(m, _)| *m == kind)
                    .map(|j| (j, k))
            });
            match twice {
                Some((j, k)) => {
                    let (_, moved) = last.remove(k);
                    fold(&mut last[j].1, moved);
                }
                None => last.truncate(MAX_LAST - 1),
            }
        }
        last.push((modifier, delta));
    }
}

/// A move that lasts the turn as a shock (see [`Morale::shocked`]).
#[inline]
fn is_shock(modifier: Modifier) -> bool {
    matches!(
        modifier,
        Modifier::Rumor | Modifier::CommanderFell | Modifier::Event
    )
}

/// Adds a move to a noted one, within [`MAX_NOTED`].
fn fold(noted: &mut f64, delta: f64) {
    *noted = (*noted + delta).clamp(-MAX_NOTED, MAX_NOTED);
}

/// The units as the sub-steps' systems (movement, combat, morale with the
/// rally, surrender) read and write them: one query for the four, fetched
/// once a turn ([`super::Turn`]), each reading what it needs of it (a
/// read-only walk of it yields plain references).
pub(crate) type StepUnits<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static UnitInfo,
        &'static mut Strength,
        &'static mut Location,
        &'static mut Orders,
        &'static mut Morale,
    ),
>;

/// The units as the morale system (and the rally it runs) reads and writes them.
pub(crate) type MoraleUnits<'w, 's> = StepUnits<'w, 's>;

#[derive(Resource, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Vision {
    /// Per zone: smoke at or above `smoke_blind`.
    pub blind: Vec<bool>,
    /// Per side, per zone: the side can see what is there.
    pub sees: Vec<Vec<bool>>,
}

impl Clone for Vision {
    fn clone(&self) -> Self {
        Vision {
            blind: self.blind.clone(),
            sees: self.sees.clone(),
        }
    }

    /// Into the lists' memory (a derived `clone_from` makes them anew):
    /// what a capture of the world into a kept state does every look.
    fn clone_from(&mut self, source: &Self) {
        let Vision { blind, sees } = self;
        blind.clone_from(&source.blind);
        sees.clone_from(&source.sees);
    }
}

impl Vision {
    pub fn side_sees(&self, side: usize, zone: usize) -> bool {
        self.sees
            .get(side)
            .and_then(|z| z.get(zone))
            .copied()
            .unwrap_or(true)
    }
    pub fn is_blind(&self, zone: usize) -> bool {
        self.blind.get(zone).copied().unwrap_or(false)
    }
}

/// The wind: strength 0..1 and the way it blows toward.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Weather {
    pub wind: f64,
    pub toward: Compass,
}

impl Default for Weather {
    fn default() -> Self {
        Weather {
            wind: 0.2,
            toward: Compass::North,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::MoraleState;
    use crate::sim::Battle;
    use crate::sim::testing::{set_state, small_scene, state_of};

    /// A unit's morale state is its `Location`'s, one copy: the opening's
    /// (wavering when it starts low), what a writer sets, what the world's
    /// state holds, a restore and a reset write back.
    #[test]
    fn a_units_state_is_its_locations_at_the_opening_and_through_restores_and_resets() {
        let scene = small_scene(|mut raw| {
            raw.units[2].morale = 40.0;
            raw
        });
        let mut battle = Battle::new(&scene, 7);
        let opening = [
            MoraleState::Steady,
            MoraleState::Steady,
            MoraleState::Wavering,
        ];
        for (unit, &state) in opening.iter().enumerate() {
            assert_eq!(state_of(&mut battle.world, unit), state, "unit {unit}");
        }
        let set = [
            MoraleState::Routing,
            MoraleState::Surrendered,
            MoraleState::Rallied,
        ];
        for (unit, &state) in set.iter().enumerate() {
            set_state(&mut battle.world, unit, state);
        }
        let world = battle.state();
        let mut other = Battle::new(&scene, 7);
        other.restore(&world);
        for (unit, &state) in set.iter().enumerate() {
            assert_eq!(world.units[unit].location.state(), state, "unit {unit}");
            assert_eq!(state_of(&mut other.world, unit), state, "unit {unit}");
        }
        battle.reset(&scene, 7);
        for (unit, &state) in opening.iter().enumerate() {
            assert_eq!(state_of(&mut battle.world, unit), state, "unit {unit}");
        }
    }
}
