//! The simulation: a bevy_ecs world with one entity per unit, commander and
//! zone, and the turn's systems run in order ([`Turn`]). No IO, no printing: every system
//! reports what happened as typed [`chronicle::Entry`] values.
//!
//! The turn runs these steps, in this order (the order is part of
//! the design: each step reads what the one before it settled):
//!
//! 1. [`weather`] — wind drifts; fire spreads downwind and burns out; smoke follows;
//!    then the scene's obscurants ([`haze`]) are carried and thin.
//! 2. [`perception`] — which zones each side can see through the smoke;
//! 3. then [`rumor`] (the same system) — cries spread; units that cannot see may believe them.
//! 4. [`movement`] — units move on the zone graph; crossings pass only so many; crowds trample.
//! 5. [`combat`] — opposing units in a zone take losses.
//! 6. [`morale`] — modifiers summed, states changed with a seeded roll; cascades.
//! 7. [`rally`] — drums heard; routing units make for the commander and may recover.
//! 8. [`surrender`] — trapped, broken units that may surrender give up.
//!
//! Determinism: one ChaCha stream ([`rng::BattleRng`]) held in the world; every
//! system that draws from it visits units in unit-index order.

pub mod chronicle;
pub mod combat;
pub mod components;

pub mod facts;
pub mod fall;
pub mod fast_hash;
pub mod field;
pub mod haze;
pub mod morale;
pub mod movement;
pub mod order;
mod paths;
pub mod perception;
pub mod rally;
pub mod rng;
pub mod rumor;
pub mod state;
pub mod surrender;
#[cfg(test)]
pub mod testing;
pub mod weather;

pub use chronicle::Entry;
pub use facts::{Facts, Parts};
pub use field::Field;
pub use state::WorldState;

use crate::scene::{Act, Effect, MoraleState, Scene, Targets};
use bevy_ecs::prelude::*;
use bevy_ecs::system::BoxedSystem;
use chronicle::Chronicle;
use morale::Morale;
use movement::{Location, Orders, UnitOrder};
use rng::BattleRng;
use rumor::{Rumor, Rumors};
use std::sync::Arc;

pub use components::{CommanderState, Strength, UnitInfo, UnitSpec, ZoneIdx};
use weather::{Burning, Passage, Weather};

/// The turn counter.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct Clock {
    pub turn: u32,
}

/// Per-side state that is not a unit's: wet cloth.
#[derive(Resource, Debug, Clone, Default)]
pub struct SideOrders {
    pub wet_cloth: Vec<bool>,
}

/// The queries effects and orders use, built once per battle (building a
/// query is allocation and bookkeeping; effects come many times a turn).
struct ActQueries {
    order_unit: QueryState<(
        &'static UnitInfo,
        &'static Location,
        &'static mut Orders,
        &'static mut Morale,
    )>,
    order: QueryState<(&'static UnitInfo, &'static Location, &'static mut Orders)>,
    morale: QueryState<(&'static UnitInfo, &'static Location, &'static mut Morale)>,
    commanders: QueryState<&'static mut CommanderState>,
    casualties: QueryState<(&'static UnitInfo, &'static mut Strength, &'static Location)>,
    surrender: QueryState<(&'static UnitInfo, &'static Strength, &'static mut Location)>,
    destroy: QueryState<(
        &'static UnitInfo,
        &'static mut Strength,
        &'static mut Location,
        &'static mut Orders,
    )>,
    arrive: QueryState<(&'static UnitInfo, &'static mut Location)>,
    haze: QueryState<(&'static ZoneIdx, &'static mut haze::Haze)>,
    change_side: QueryState<(&'static mut UnitInfo, &'static mut Orders)>,
    zone: QueryState<(&'static ZoneIdx, &'static mut Burning, &'static mut Passage)>,
}

impl ActQueries {
    fn new(world: &mut World) -> ActQueries {
        ActQueries {
            order_unit: world.query(),
            order: world.query(),
            morale: world.query(),
            commanders: world.query(),
            casualties: world.query(),
            surrender: world.query(),
            destroy: world.query(),
            arrive: world.query(),
            haze: world.query(),
            change_side: world.query(),
            zone: world.query(),
        }
    }
}

/// The turn's first systems (weather, perception with rumor), run once a
/// turn; the rest run once per sub-step.
const SYSTEMS_ONCE: usize = 2;

/// The turn's systems, run one after another, in this order, by
/// [`Turn::run`]: what a chained bevy `Schedule` of them does, without its
/// executor's bookkeeping per system (conditions, system sets, deferred
/// commands, a panic guard), which none of them uses and which cost a turn
/// about as much as one of the small systems.
pub struct Turn {
    /// The turn's systems; each takes the turn's [`TurnIo`] as its input.
    systems: Vec<BoxedSystem<InMut<'static, TurnIo>>>,
    io: TurnIo,
}

/// What the turn's systems share besides the world: the battle's field to
/// read, the chronicle of the turn to write, the units that withdrew
/// (movement's, for morale) and the air of each zone as the weather leaves
/// it (the weather's, for morale). Handed to each system as
/// its input, not looked up in the world as a resource by each system every
/// turn (a look-up costs about as much as a small system's own work).
pub struct TurnIo {
    /// The battle's field: the same shared data as the world's resource,
    /// which never changes once the battle is made.
    field: Field,
    /// What happened this turn, taken out (or dropped) after it.
    chronicle: Chronicle,
    /// The units movement saw withdraw this turn, for morale.
    withdrawals: movement::Withdrawals,
    /// Each zone's smoke and passage as the weather left them this turn,
    /// for morale.
    air: weather::Air,
    /// The sub-step of the turn now running (from 0): movement, combat,
    /// morale and surrender run `field.substeps` times a turn.
    pub step: u32,
    /// The sub-step's length in 刻: `field.step_scale`, or the rest of the
    /// turn when the quiet steps left are run as one.
    dt: f64,
    /// The turn's last sub-step is running (drums are spent as it ends).
    last: bool,
    /// Something happened in this sub-step that the next may change: two
    /// sides in a zone, a unit crossing or on its way, a unit shaken.
    /// Once a sub-step leaves it unset, the quiet ones left are one.
    pub busy: bool,
    /// Counts the changes to what the sub-steps read of the units (a unit's
    /// men, zone, state or order, a commander's zone or fall): moved on
    /// (`stir`) by each sub-step system that writes one, and as a turn
    /// begins. A system that finds it where it was when it last read the
    /// units keeps what it read then: morale its tallies and places,
    /// movement its census.
    pub stirs: u32,
}

impl TurnIo {
    /// The sub-step now running, from 0.
    pub fn step(&self) -> u32 {
        self.step
    }

    /// The length of a sub-step in 刻: what a rate per 刻 is multiplied by.
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// The turn's last sub-step is running.
    pub fn last(&self) -> bool {
        self.last
    }

    /// A sub-step's share of the turn (a crossing's capacity per turn times it).
    pub fn share_of_turn(&self) -> f64 {
        if self.field.turn_scale > 0.0 {
            (self.dt / self.field.turn_scale).clamp(0.0, 1.0)
        } else {
            1.0
        }
    }
}

impl TurnIo {
    /// The field to read and the chronicle to write, at once.
    pub fn split(&mut self) -> (&Field, &mut Chronicle) {
        (&self.field, &mut self.chronicle)
    }

    /// [`TurnIo::split`], and the turn's withdrawals.
    pub fn split_withdrawals(&mut self) -> (&Field, &mut Chronicle, &mut movement::Withdrawals) {
        (&self.field, &mut self.chronicle, &mut self.withdrawals)
    }

    /// [`TurnIo::split`], and the zones' air, for the weather to write.
    pub fn split_air(&mut self) -> (&Field, &mut Chronicle, &mut weather::Air) {
        (&self.field, &mut self.chronicle, &mut self.air)
    }

    /// [`TurnIo::split`], the turn's withdrawals and the zones' air, for
    /// morale to read.
    pub fn split_morale(
        &mut self,
    ) -> (
        &Field,
        &mut Chronicle,
        &movement::Withdrawals,
        &weather::Air,
    ) {
        (
            &self.field,
            &mut self.chronicle,
            &self.withdrawals,
            &self.air,
        )
    }
}

impl Turn {
    /// The turn's systems, initialized on `world` (their queries and
    /// resources found; a system whose parameters conflict panics here, as
    /// in a schedule). The world holds the battle's [`Field`] already.
    fn new(world: &mut World) -> Turn {
        let mut systems: Vec<BoxedSystem<InMut<'static, TurnIo>>> = vec![
            // Haze too ([`haze::carry`]).
            Box::new(IntoSystem::into_system(weather::weather_system)),
            // Rumor too ([`rumor::spread`]).
            Box::new(IntoSystem::into_system(perception::perception_system)),
            // Movement, combat, morale (with the rally) and surrender, in
            // sub-steps ([`substeps_system`]).
            Box::new(IntoSystem::into_system(substeps_system)),
        ];
        for system in &mut systems {
            system.initialize(world);
        }
        let io = TurnIo {
            field: world.resource::<Field>().clone(),
            chronicle: Chronicle::default(),
            withdrawals: movement::Withdrawals::default(),
            air: weather::Air::default(),
            step: 0,
            dt: 1.0,
            last: true,
            busy: false,
            stirs: 0,
        };
        Turn { systems, io }
    }

    /// Runs one turn of the systems on `world` (the world they were
    /// initialized on). Their resources are the battle's own, there from
    /// its making: a system that cannot find one is a bug in this module,
    /// and stops the program as a schedule would.
    pub fn run(&mut self, world: &mut World) {
        debug_assert!(
            self.io.field.same_as(world.resource::<Field>()),
            "the turn's field is the world's"
        );
        // Weather and perception (with rumor) once a turn; then movement,
        // combat, morale (with rally) and surrender in sub-steps of at most
        // one 刻 each, so a long turn resolves as the quarter-hours it holds.
        let first = SYSTEMS_ONCE.min(self.systems.len());
        self.io.step = 0;
        for system in &mut self.systems[..first] {
            if let Err(error) = system.run_without_applying_deferred(&mut self.io, world) {
                panic!("the turn's system {} did not run: {error}", system.name());
            }
        }
        // Then the sub-steps, in one system: its parameters are fetched
        // once a turn, not once per system and sub-step.
        for system in &mut self.systems[first..] {
            if let Err(error) = system.run_without_applying_deferred(&mut self.io, world) {
                panic!("the turn's system {} did not run: {error}", system.name());
            }
        }
        self.io.step = 0;
        // Change ticks kept from wrapping over a long session, as a
        // schedule keeps them.
        if let Some(check) = world.check_change_ticks() {
            for system in &mut self.systems {
                system.check_change_tick(check);
            }
        }
    }
}

/// Notes a change to what the sub-steps read of the units
/// ([`TurnIo::stirs`]).
#[inline]
pub(crate) fn stir(stirs: &mut u32) {
    *stirs = stirs.wrapping_add(1);
}

/// What the sub-steps' systems keep from turn to turn (their lists'
/// memory and what they worked out while its inputs stand).
#[derive(Default)]
pub struct StepScratch {
    movement: movement::MovementScratch,
    combat: combat::CombatScratch,
    morale: morale::MoraleScratch,
    surrender: surrender::SurrenderScratch,
}

/// Movement, combat, morale (with the rally) and surrender, run in
/// `Field::substeps` sub-steps of at most one 刻 each, so a long turn
/// resolves as the quarter-hours it holds: one system, whose resources and
/// queries are fetched once a turn (nothing else runs between its steps, and
/// nothing they read of the world but the units, the commanders, the zones'
/// passages and the random stream changes within a turn).
#[allow(clippy::too_many_arguments)]
fn substeps_system(
    InMut(io): InMut<TurnIo>,
    mut scratch: Local<StepScratch>,
    vision: Res<components::Vision>,
    side_orders: Res<SideOrders>,
    mut rng: ResMut<BattleRng>,
    mut commanders: Query<&mut CommanderState>,
    mut passages: Query<(&ZoneIdx, &mut Passage)>,
    burning: Query<(&ZoneIdx, &Burning)>,
    mut units: components::StepUnits,
) {
    let substeps = io.field.substeps.max(1);
    let scratch = &mut *scratch;
    let rng = &mut *rng;
    // What the sub-steps read at the last turn's end is not this turn's.
    stir(&mut io.stirs);
    let mut step = 0;
    while step < substeps {
        // After a quiet step (no fight, no crossing, no march under
        // way, nobody shaken) the steps left change nothing but the
        // slow drift of spirits: they run as one, of their whole length.
        let merged = if step > 0 && !io.busy {
            substeps - step
        } else {
            1
        };
        io.step = step;
        io.dt = io.field.step_scale * f64::from(merged);
        io.last = step + merged >= substeps;
        io.busy = false;
        movement::movement_system(
            io,
            &mut scratch.movement,
            &vision,
            &mut commanders,
            &mut passages,
            rng,
            &mut units,
        );
        combat::combat_system(
            io,
            &mut scratch.combat,
            &vision,
            rng,
            &mut commanders,
            &burning,
            &mut units,
        );
        morale::morale_system(
            io,
            &mut scratch.morale,
            &vision,
            &side_orders,
            rng,
            &mut commanders,
            &mut units,
        );
        surrender::surrender_system(
            io,
            &mut scratch.surrender,
            &vision,
            rng,
            &passages,
            &scratch.morale,
            &mut units,
        );
        step += merged;
    }
}

/// Whether an effect leaves what conditions read untouched: orders, drums,
/// rumors on their way, wet cloth and the story's own flags and text.
fn leaves_facts(act: &Act) -> bool {
    matches!(
        act,
        Act::Order { .. }
            | Act::Rumor { .. }
            | Act::Drums { .. }
            | Act::WetCloth(_)
            | Act::SetFlag(_)
            | Act::ClearFlag(_)
            | Act::Narrate(_)
    )
}

/// Whether `Battle::act` writes an effect's change to what conditions read
/// straight through to the facts (so they stay fresh): a morale push, a
/// commander placed, smoke, fire, wind, casualties, a surrender, an arrival.
fn writes_facts_through(act: &Act) -> bool {
    matches!(
        act,
        Act::Morale { .. }
            | Act::CommanderTo { .. }
            | Act::Smoke { .. }
            | Act::Fire { .. }
            | Act::Wind { .. }
            | Act::Casualties { .. }
            | Act::Surrender(_)
            | Act::Arrive(_)
    )
}

/// A stamp no battle's facts have had yet in this process.
fn next_stamp() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    // Only uniqueness matters, not order between threads.
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The battle world and its turn schedule.
pub struct Battle {
    pub(crate) world: World,
    pub(crate) schedule: Turn,
    /// The world as plain data, captured on demand and kept until the world
    /// changes (a turn, an effect, a restore): the story reads conditions
    /// from it many times a turn without copying the world each time.
    view: Option<Arc<WorldState>>,
    /// Whether `view` is the world as it is now.
    view_fresh: bool,
    /// Names `view` as captured: a new stamp each time it is captured
    /// again, none shared with another capture of any battle.
    view_stamp: u64,
    /// What story conditions read of the world, rewritten in place when
    /// stale (after a turn, a restore, an effect that touches it).
    facts: facts::Facts,
    /// The parts of `facts` that are the world as it is now.
    facts_fresh: facts::Parts,
    /// Names the facts as they are: taken anew (see [`next_stamp`]) by
    /// every change that may touch them, so an answer read from them can be
    /// kept against it ([`Battle::facts_stamp`]).
    facts_stamp: u64,
    /// The memory of the last targets' mask of units, reused by the next.
    mask: Vec<bool>,
    /// The memory of the last casualties' list (unit, men lost), reused.
    hits: Vec<(usize, u32)>,
    /// The world's turn (its `Clock`), at hand without a lookup: written
    /// wherever the clock is (a turn, a reset, a restore).
    turn: u32,
    /// The queries captures read and a turn's opening writes, built once.
    capture: state::CaptureQueries,
    /// The queries a reset writes the opening through, built once.
    write: state::WriteQueries,
    /// The field (also the world's resource), at hand without a lookup.
    field: Field,
    queries: ActQueries,
    /// The opening world (its random stream aside, the same for every
    /// seed) with its vision: what a reset writes. Made again from the
    /// scene at the first reset and kept from then on: a battle played
    /// once does not hold a second copy of every unit for nothing, one
    /// restarted many times (simulate) makes it once.
    opening: Option<WorldState>,
    /// What conditions read of the opening, kept with it.
    opening_facts: Option<facts::Facts>,
}

impl Battle {
    /// Builds the world for a scene, with every random draw from `seed`.
    pub fn new(scene: &Scene, seed: u64) -> Battle {
        let mut battle = Battle::empty(scene, seed);
        battle.reset(scene, seed);
        battle.opening = None;
        battle.opening_facts = None;
        battle
    }

    /// Puts the battle back at the opening of `scene` (the scene it was
    /// built for) with `seed`: the same world as [`Battle::new`], written
    /// into the entities already there, the schedule kept.
    pub fn reset(&mut self, scene: &Scene, seed: u64) {
        let world = &mut self.world;
        let opening = self
            .opening
            .get_or_insert_with(|| Battle::opening(scene, seed, world));
        opening.rng.reseed(seed);
        self.turn = opening.turn;
        let written = opening.write_into(world, &self.field, &mut self.write);
        if !written {
            opening.apply(world);
        }
        self.changed();
        // What conditions read of the opening is the same whatever the
        // seed: captured at the first reset, copied at each one after that
        // writes the opening into the same entities.
        match &self.opening_facts {
            Some(facts) if written => {
                self.facts.copy_from(facts);
                self.facts_fresh = facts::Parts::ALL;
            }
            _ => {
                self.refresh_facts();
                self.opening_facts = Some(self.facts.clone());
            }
        }
    }

    /// The opening of `scene` with its vision, seen in `world` (written
    /// there to be seen: the caller writes it again with its stream).
    fn opening(scene: &Scene, seed: u64, world: &mut World) -> WorldState {
        let mut opening = WorldState::opening(scene, seed);
        opening.apply(world);
        opening.vision = state::vision_of(world);
        opening
    }

    fn empty(scene: &Scene, seed: u64) -> Battle {
        let mut world = World::new();
        let field = Field::new(scene);
        world.insert_resource(field.clone());
        world.insert_resource(BattleRng::from_seed(seed));
        let opening = Battle::opening(scene, seed, &mut world);
        let schedule = Turn::new(&mut world);
        Battle {
            capture: state::CaptureQueries::new(&mut world),
            write: state::WriteQueries::new(&mut world),
            queries: ActQueries::new(&mut world),
            field,
            opening: Some(opening),
            opening_facts: None,
            world,
            schedule,
            view: None,
            view_fresh: false,
            view_stamp: 0,
            facts: facts::Facts::default(),
            facts_fresh: facts::Parts::NONE,
            facts_stamp: next_stamp(),
            mask: Vec::new(),
            hits: Vec::new(),
            turn: 0,
        }
    }

    /// Runs one turn and returns what happened in it.
    pub fn step(&mut self) -> Vec<Entry> {
        self.schedule.io.chronicle.off = false;
        self.run_turn();
        // The next turn's list starts as large as this one's: one
        // allocation, not one per doubling.
        let entries = &mut self.schedule.io.chronicle.entries;
        let room = entries.len();
        std::mem::replace(entries, Vec::with_capacity(room))
    }

    /// Runs one turn for a caller that tells nothing of it (a simulated
    /// game): its chronicle is not kept (`Chronicle::off`), and what was
    /// put in it whole (the haze's entries) is dropped in place.
    pub fn step_quiet(&mut self) {
        self.schedule.io.chronicle.off = true;
        self.run_turn();
        self.schedule.io.chronicle.entries.clear();
    }

    fn run_turn(&mut self) {
        self.changed();
        {
            let mut clock = self.world.resource_mut::<Clock>();
            clock.turn = clock.turn.saturating_add(1);
            self.turn = clock.turn;
        }
        // Each unit's notes of the last turn are forgotten by the turn's
        // first walk over the units, perception's (`perception::opening`),
        // not by a walk of their own here.
        self.schedule.run(&mut self.world);
    }

    pub fn turn(&self) -> u32 {
        debug_assert_eq!(self.turn, self.world.resource::<Clock>().turn);
        self.turn
    }

    pub fn field(&self) -> &Field {
        &self.field
    }

    /// Gives a unit an order, as its commander's courier delivers it; a
    /// unit that is running or gone does not take it. `morale` is added to
    /// its morale (the drums of an attack). False when it was not taken.
    pub fn order_unit(&mut self, unit: usize, order: UnitOrder, morale: f64) -> bool {
        self.changed();
        let query = &mut self.queries.order_unit;
        for (info, location, mut orders, mut state) in query.iter_mut(&mut self.world) {
            if info.idx() == unit && location.state().obeys() {
                orders.set_order(order);
                if morale != 0.0 {
                    state.value = (state.value + morale).clamp(0.0, 100.0);
                    state.push(morale::Modifier::Orders, morale);
                }
                return true;
            }
        }
        false
    }

    /// A copy of the whole world, for views and saves.
    pub fn state(&mut self) -> WorldState {
        WorldState::clone(&self.view())
    }

    /// The world as it is now, read-only: captured once after each change
    /// and shared until the next (conditions, placeholders, views). The
    /// capture reuses the last one's memory when nobody holds it any more.
    pub fn view(&mut self) -> Arc<WorldState> {
        if let Some(view) = &mut self.view {
            if !self.view_fresh {
                match Arc::get_mut(view) {
                    Some(state) => state.capture_into(&mut self.world, &mut self.capture),
                    None => {
                        // Still held (an undo state, a save's): the capture
                        // goes to new memory, of the last one's shape, by
                        // the kept queries.
                        let mut state = view.shaped_like();
                        state.capture_into(&mut self.world, &mut self.capture);
                        *view = Arc::new(state);
                    }
                }
                self.view_fresh = true;
                self.view_stamp = next_stamp();
            }
            return Arc::clone(view);
        }
        self.view_stamp = next_stamp();
        let view = Arc::new(WorldState::capture(&mut self.world));
        self.view = Some(Arc::clone(&view));
        self.view_fresh = true;
        view
    }

    /// Brings [`Battle::facts`] up to the world as it is now: rewritten in
    /// place after a change that touches what conditions read, kept until
    /// the next.
    pub fn refresh_facts(&mut self) {
        self.refresh_facts_of(facts::Parts::ALL);
    }

    /// Brings `parts` of [`Battle::facts`] up to the world as it is now (a
    /// condition that reads only those: [`Battle::facts_of`]).
    pub fn refresh_facts_of(&mut self, parts: facts::Parts) {
        #[cfg(debug_assertions)]
        if !self.facts_fresh.is_empty() {
            // What effects wrote through is what a capture would read.
            let mut captured = facts::Facts::default();
            captured.capture_into(
                &self.world,
                &self.field,
                self.turn,
                &mut self.capture,
                facts::Parts::ALL,
            );
            assert!(
                captured.same_in(&self.facts, self.facts_fresh),
                "facts out of step with the world"
            );
        }
        // The turn is in every part (and a condition on the clock alone
        // reads no other).
        self.facts.turn = self.turn;
        let stale = parts.without(self.facts_fresh);
        if !stale.is_empty() {
            self.facts.capture_into(
                &self.world,
                &self.field,
                self.turn,
                &mut self.capture,
                stale,
            );
            self.facts_fresh = self.facts_fresh.with(stale);
        }
    }

    /// Per side (by index into both lists, zeroed first; a side past their
    /// end is not counted): the men its units on the field brought
    /// (`brought`, as [`WorldState::side_start_men`] counts them) and, of
    /// those units, the men in ranks and taking orders (`in_hand`). Read
    /// from the world itself, not from a capture of it: the greedy
    /// look-ahead's score, read at the end of every game it plays.
    pub fn hands_into(&mut self, brought: &mut [u32], in_hand: &mut [u32]) {
        brought.fill(0);
        in_hand.fill(0);
        let units = &self.field.units;
        self.capture
            .unit_facts
            .iter(&self.world)
            .for_each(|(info, strength, location, _)| {
                // (The world's `UnitInfo` is the field's, but for its side.)
                let Some(scene_info) = units.get(info.idx()) else {
                    return;
                };
                if !location.present {
                    return;
                }
                if let Some(total) = brought.get_mut(info.side()) {
                    *total += scene_info.start_men;
                }
                if location.state().obeys()
                    && let Some(total) = in_hand.get_mut(info.side())
                {
                    *total += strength.men;
                }
            });
    }

    /// Each commander's side and fate (none: standing), in no set order.
    pub fn commander_fates(&mut self, mut each: impl FnMut(usize, Option<crate::scene::Fate>)) {
        self.capture
            .commanders
            .iter(&self.world)
            .for_each(|commander| each(commander.side, commander.fallen));
    }

    /// What story conditions read of the world (see [`facts::Facts`]), as
    /// of the last [`Battle::refresh_facts`]: call that first.
    pub fn facts(&self) -> &facts::Facts {
        self.facts_of(facts::Parts::ALL)
    }

    /// [`Battle::facts`] to be read only in `parts`, as of the last
    /// [`Battle::refresh_facts_of`] them.
    pub fn facts_of(&self, parts: facts::Parts) -> &facts::Facts {
        debug_assert!(
            self.facts_fresh.holds(parts),
            "facts read before refresh_facts"
        );
        &self.facts
    }

    /// The world changed: the view and the facts are captured again when
    /// next asked for.
    fn changed(&mut self) {
        self.view_fresh = false;
        self.facts_fresh = facts::Parts::NONE;
        self.facts_stamp = next_stamp();
    }

    /// Names [`Battle::facts`] as they are: the same stamp, the same facts.
    /// No two states of any battle's facts in this process share a stamp (a
    /// battle replaced or copied cannot meet an answer kept for another).
    pub fn facts_stamp(&self) -> u64 {
        self.facts_stamp
    }

    /// The world itself, for tests that set it up by hand: the shared view
    /// is captured again afterwards.
    #[cfg(test)]
    pub fn world_mut(&mut self) -> &mut World {
        self.changed();
        &mut self.world
    }

    /// The stamp of the view [`Battle::view`] gave last: the same stamp,
    /// the same world.
    pub fn view_stamp(&self) -> u64 {
        self.view_stamp
    }

    /// Replaces the whole world with `state`.
    pub fn restore(&mut self, state: &WorldState) {
        self.changed();
        self.turn = state.turn;
        // The state may hold another number of commanders (facts keep
        // theirs from capture to capture).
        self.facts.commanders.clear();
        // Into the entities already there, through the queries built once
        // (as a restart writes the opening); `apply` builds its queries and
        // resources anew, and is for a world of another shape.
        if !state.write_into(&mut self.world, &self.field, &mut self.write) {
            state.apply(&mut self.world);
        }
    }

    /// Applies a scene effect written in the raw model (tests, tools): it
    /// is resolved against `scene` first; one naming what the scene lacks
    /// does nothing.
    pub fn apply(&mut self, scene: &Scene, effect: &Effect) -> Vec<Entry> {
        match scene.resolve_effect(effect) {
            Some(act) => self.act(&act),
            None => Vec::new(),
        }
    }

    /// Applies a resolved scene effect; returns what it caused.
    pub fn act(&mut self, act: &Act) -> Vec<Entry> {
        let mut entries = Vec::new();
        self.act_into(act, &mut entries);
        entries
    }

    /// [`Battle::act`], adding what the effect caused to `entries`: a
    /// caller that applies many effects keeps one list for them all.
    pub fn act_into(&mut self, act: &Act, entries: &mut Vec<Entry>) {
        self.view_fresh = false;
        // What conditions read is untouched by orders, drums, rumors on
        // their way, wet cloth and the story's own flags and text, and
        // written through here for a morale push, a commander placed, smoke,
        // fire, wind, casualties, a surrender and an arrival; other effects
        // have the facts captured again.
        if !leaves_facts(act) && !writes_facts_through(act) {
            self.facts_fresh = facts::Parts::NONE;
        }
        // Effects that leave what conditions read alone keep the stamp.
        if !leaves_facts(act) {
            self.facts_stamp = next_stamp();
        }
        match act {
            Act::Order { targets, order } => {
                let order = UnitOrder::from(*order);
                let pick = Battle::targets(&mut self.mask, self.field.units.len(), targets);
                let query = &mut self.queries.order;
                // `for_each`: bevy walks a query's tables in a tighter loop
                // than item by item. The targets are read in the same walk
                // (no effect here moves a unit or changes its side).
                query
                    .iter_mut(&mut self.world)
                    .for_each(|(info, location, mut orders)| {
                        if pick.names(info, location) && location.state().obeys() {
                            orders.set_order(order);
                        }
                    });
            }
            Act::Morale { targets, delta } => {
                let pick = Battle::targets(&mut self.mask, self.field.units.len(), targets);
                let query = &mut self.queries.morale;
                let facts = &mut self.facts;
                query
                    .iter_mut(&mut self.world)
                    .for_each(|(info, location, mut morale)| {
                        if pick.names(info, location) && location.state().can_fight_or_flee() {
                            morale.value = (morale.value + delta).clamp(0.0, 100.0);
                            morale.push(morale::Modifier::Event, *delta);
                            facts.set_morale_value(info.idx(), morale.value);
                        }
                    });
            }
            Act::Rumor {
                zone,
                about,
                routed,
                credibility,
            } => {
                let mut reached = vec![false; self.field().zones.len()];
                if let Some(slot) = reached.get_mut(zone.idx()) {
                    *slot = true;
                }
                let rumor = Rumor {
                    about: about.idx(),
                    routed: *routed,
                    credibility: *credibility,
                    reached,
                    believers: Vec::new(),
                };
                let mut rumors = self.world.resource_mut::<Rumors>();
                // At most `MAX_RUMORS` cries at once: a new one drowns the oldest.
                if rumors.active.len() >= rumor::MAX_RUMORS {
                    let over = rumors.active.len() + 1 - rumor::MAX_RUMORS;
                    rumors.active.drain(..over);
                }
                rumors.active.push(rumor);
            }
            Act::Fire { zone, intensity } => {
                // Sets the fire to `intensity`: 0 puts it out (rain, a bucket line).
                let mut was = 0.0;
                let zone = zone.idx();
                self.with_zone(zone, |burning, _| {
                    was = burning.fire;
                    burning.fire = *intensity;
                    burning.fuel = burning.fuel.max(*intensity * 0.8);
                });

                if *intensity > 0.0 && was <= 0.0 {
                    entries.push(Entry::FireStarts { zone });
                } else if *intensity <= 0.0 && was > 0.0 {
                    entries.push(Entry::FireOut { zone });
                }
            }
            Act::Smoke { zone, level } => {
                self.with_zone(zone.idx(), |burning, _| burning.smoke = *level);
            }
            Act::Wind { strength, toward } => {
                let mut weather = self.world.resource_mut::<Weather>();
                weather.wind = *strength;
                weather.toward = *toward;
                self.facts.wind = *strength;
                self.facts.toward = toward.clockwise_index() as u8;
                entries.push(Entry::Wind {
                    strength: *strength,
                    toward: *toward,
                });
            }
            Act::Drums { commander, turns } => {
                let idx = commander.idx();
                let query = &mut self.queries.commanders;
                for mut state in query.iter_mut(&mut self.world) {
                    if state.idx == idx {
                        state.drums_left = state.drums_left.max(*turns);
                        entries.push(Entry::Drums {
                            commander: idx,
                            zone: state.zone,
                        });
                    }
                }
            }
            Act::CommanderTo { commander, zone } => {
                let idx = commander.idx();
                let query = &mut self.queries.commanders;
                for mut state in query.iter_mut(&mut self.world) {
                    if state.idx == idx {
                        state.zone = zone.idx();
                        state.placed = true;
                        self.facts.set_commander_zone(idx, zone.idx());
                    }
                }
            }
            Act::Casualties { targets, share } => {
                let pick = Battle::targets(&mut self.mask, self.field.units.len(), targets);
                let query = &mut self.queries.casualties;
                let hits = &mut self.hits;
                hits.clear();
                let facts = &mut self.facts;
                query
                    .iter_mut(&mut self.world)
                    .for_each(|(info, mut strength, location)| {
                        if pick.names(info, location) && location.present {
                            let lost = ((f64::from(strength.men) * share).round() as u32)
                                .min(strength.men);
                            strength.men -= lost;
                            strength.lost_this_turn += lost;
                            hits.push((info.idx(), lost));
                            facts.lose_men(info.idx(), info.side(), lost);
                        }
                    });
                hits.sort_unstable();
                entries.extend(
                    hits.iter()
                        .filter(|(_, men)| *men > 0)
                        .map(|&(unit, men)| Entry::Casualties { unit, men }),
                );
            }
            Act::Surrender(unit) => {
                let idx = unit.idx();
                let query = &mut self.queries.surrender;
                for (info, strength, mut location) in query.iter_mut(&mut self.world) {
                    if info.idx() == idx && location.stands() {
                        location.set_state(MoraleState::Surrendered);
                        self.facts.set_state(
                            idx,
                            info.side(),
                            self.field.start_men(idx).unwrap_or(0),
                            MoraleState::Surrendered,
                        );
                        entries.push(Entry::Surrenders {
                            unit: idx,
                            men: strength.men,
                            officers: 0,
                        });
                    }
                }
            }
            Act::Destroy { zone, share } => {
                let zone = zone.idx();
                self.with_zone(zone, |_, passage| passage.intact = false);
                let fallback = self
                    .field()
                    .neighbours
                    .get(zone)
                    .and_then(|n| n.first())
                    .copied()
                    .unwrap_or(zone);
                // Of the units in a crossing, only so many are on the span
                // at once: its length × width at a moving column's density;
                // the rest wait at its ends. The blow takes its share of
                // those on the span (all of a zone that is not a crossing).
                let field = self.field.clone();
                let horse = field.rules.horse_men;
                let room_of = |info: &UnitInfo, men: u32| {
                    f64::from(men) * if info.mounted { horse } else { 1.0 }
                };
                let query = &mut self.queries.destroy;
                let crowd: f64 = query
                    .iter(&self.world)
                    .filter(|(_, _, location, _)| location.present && location.zone() == zone)
                    .map(|(info, strength, _, _)| room_of(info, strength.men))
                    .sum();
                let on_span = match field.zones.get(zone) {
                    Some(info) if info.is_crossing() && crowd > 0.0 => {
                        (field.span_room(zone) / crowd).clamp(0.0, 1.0)
                    }
                    _ => 1.0,
                };
                let mut lost_total = 0;
                let hits = &mut self.hits;
                hits.clear();
                for (info, mut strength, mut location, mut orders) in
                    query.iter_mut(&mut self.world)
                {
                    if location.present && location.zone() == zone {
                        let lost = ((f64::from(strength.men) * on_span * share).round() as u32)
                            .min(strength.men);
                        strength.men -= lost;
                        strength.lost_this_turn += lost;
                        lost_total += lost;
                        hits.push((info.idx(), lost));
                        location.set_zone(orders.came_from().unwrap_or(fallback));
                        orders.progress = 0.0;
                    }
                }
                hits.sort_unstable();
                // Each unit's own dead, so that a side is told what it lost.
                entries.push(Entry::Destroyed {
                    zone,
                    men: lost_total,
                    hits: hits.iter().copied().filter(|(_, men)| *men > 0).collect(),
                });
            }
            Act::Arrive(unit) => {
                let idx = unit.idx();
                let query = &mut self.queries.arrive;
                for (info, mut location) in query.iter_mut(&mut self.world) {
                    if info.idx() == idx && !location.present {
                        location.present = true;
                        self.facts.set_present(
                            idx,
                            info.side(),
                            self.field.start_men(idx).unwrap_or(0),
                        );
                        entries.push(Entry::Arrives {
                            unit: idx,
                            zone: location.zone(),
                        });
                    }
                }
            }
            Act::WetCloth(side) => {
                let mut orders = self.world.resource_mut::<SideOrders>();
                if let Some(flag) = orders.wet_cloth.get_mut(side.idx()) {
                    *flag = true;
                }
            }
            Act::Fall { commander, fate } => {
                let queries = (&mut self.queries.commanders, &mut self.queries.morale);
                fall::fall(&mut self.world, queries, commander.idx(), *fate, entries);
            }
            Act::Obscure { zones, by, level } => {
                let by = by.idx();
                let kinds = self.world.resource::<Field>().obscurants.len();
                if by < kinds {
                    let query = &mut self.queries.haze;
                    for (idx, mut haze) in query.iter_mut(&mut self.world) {
                        if zones.is_empty() || zones.iter().any(|z| z.idx() == idx.0) {
                            haze.levels.resize(kinds, 0.0);
                            haze.levels[by] = level.clamp(0.0, 1.0);
                        }
                    }
                }
            }
            Act::ChangeSide {
                commander,
                unit,
                side,
            } => {
                let side = side.idx();
                let commander = commander.map(|c| c.idx());
                let unit = unit.map(|u| u.idx());
                let query = &mut self.queries.commanders;
                for mut state in query.iter_mut(&mut self.world) {
                    if Some(state.idx) == commander {
                        state.side = side;
                        state.drums_left = 0;
                    }
                }
                let query = &mut self.queries.change_side;
                for (mut info, mut orders) in query.iter_mut(&mut self.world) {
                    let led = commander.is_some()
                        && self
                            .field
                            .units
                            .get(info.idx())
                            .and_then(|spec| spec.leader)
                            == commander;
                    if Some(info.idx()) == unit || led {
                        info.set_side(side);
                        orders.set_order(UnitOrder::Hold);
                    }
                }
            }
            Act::SetFlag(_) | Act::ClearFlag(_) | Act::Narrate(_) => {}
        }
    }

    /// Changes a zone; its smoke and fire, as they are then, are written
    /// through to the facts.
    fn with_zone(&mut self, zone: usize, change: impl FnOnce(&mut Burning, &mut Passage)) {
        let query = &mut self.queries.zone;
        if let Some((_, mut burning, mut passage)) = query
            .iter_mut(&mut self.world)
            .find(|(idx, _, _)| idx.0 == zone)
        {
            change(&mut burning, &mut passage);
            self.facts.set_burning(zone, &burning);
        }
    }

    /// What `targets` names, to be read unit by unit ([`Pick::names`]): a
    /// list of units as a mask by index, in memory reused from the last.
    fn targets<'a>(mask: &'a mut Vec<bool>, n_units: usize, targets: &Targets) -> Pick<'a> {
        let by = |side: Option<usize>, zone: Option<usize>| Pick {
            units: None,
            side,
            zone,
        };
        match targets {
            Targets::Units(list) => {
                mask.clear();
                mask.resize(n_units, false);
                for unit in list {
                    if let Some(slot) = mask.get_mut(unit.idx()) {
                        *slot = true;
                    }
                }
                Pick {
                    units: Some(mask),
                    side: None,
                    zone: None,
                }
            }
            Targets::Side(side) => by(Some(side.idx()), None),
            Targets::SideIn { side, zone } => by(Some(side.idx()), Some(zone.idx())),
            Targets::Zone(zone) => by(None, Some(zone.idx())),
        }
    }
}

/// The units a target names, read from each unit as it is when the effect
/// happens, in constant time and in the same walk that changes them (no
/// effect that takes targets moves a unit or changes its side).
#[derive(Clone, Copy)]
struct Pick<'a> {
    /// By index, for a list of units (`None`: by side and zone).
    units: Option<&'a [bool]>,
    /// The side they fight for now (a `ChangeSide` moves a unit), if named.
    side: Option<usize>,
    /// The zone they are present in, if named.
    zone: Option<usize>,
}

impl Pick<'_> {
    #[inline(always)]
    fn names(self, info: &UnitInfo, location: &Location) -> bool {
        match self.units {
            Some(mask) => mask.get(info.idx()).copied().unwrap_or(false),
            None => {
                self.side.is_none_or(|side| info.side() == side)
                    && self
                        .zone
                        .is_none_or(|zone| location.present && location.zone() == zone)
            }
        }
    }
}

impl MoraleState {
    /// Every state, in the order they are declared.
    pub const ALL: [MoraleState; 6] = [
        MoraleState::Steady,
        MoraleState::Wavering,
        MoraleState::Routing,
        MoraleState::Rallied,
        MoraleState::Surrendered,
        MoraleState::Shattered,
    ];

    /// Still takes orders.
    pub fn obeys(self) -> bool {
        matches!(
            self,
            MoraleState::Steady | MoraleState::Wavering | MoraleState::Rallied
        )
    }
    /// Still on the field as a body of men (not surrendered or shattered).
    pub fn can_fight_or_flee(self) -> bool {
        !matches!(self, MoraleState::Surrendered | MoraleState::Shattered)
    }
    pub fn is_broken(self) -> bool {
        matches!(self, MoraleState::Routing | MoraleState::Shattered)
    }
}
