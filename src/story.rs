//! The story: turning points, events and endings, driven over the simulation.
//!
//! A [`Game`] is a scene, a battle world and the story's own state (choices
//! made, events happened, flags, the point awaiting the player, the ending).
//! After every turn and every choice it *settles*: events whose conditions
//! hold fire (once each, in file order); an ending whose condition holds ends
//! the game; then the first turning point whose condition holds is put to the
//! player if it is theirs, or decided by the policy of the side nobody plays
//! (the novel's choice by default). No IO: everything that happened comes
//! back as [`Output`] for the REPL to render.

use crate::scene::resolved::{Named, Slot, Variants, Whose};
use crate::scene::{
    Act, Cmp, Cond, Condition, Effect, EndingId, EventId, FlagId, Prose, RoleId, Scene, Text, TpId,
    UnitId, WatchId, ZoneId,
};
use crate::sim::rng::BattleRng;
use crate::sim::{Battle, Entry, Facts, WorldState};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::picture::{Body, Known, Picture};

mod conditions;
mod doctrine;
mod greedy;
mod orders;
mod telling;
mod types;
mod verdicts;

pub use conditions::holder;
use conditions::*;
pub use telling::text_id;
use telling::*;
pub use types::*;

/// A log epoch no game has had before in this process.
fn new_log_epoch() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Keys the policy stream apart from the battle's, from the same seed.
const POLICY_STREAM: u64 = 0x005e_ed0f_f0e5;

pub struct Game {
    scene: Arc<Scene>,
    battle: Battle,
    story: StoryState,
    seed: u64,
    policy: Policy,
    /// The player's own decisions, when an auto-player plays the role.
    player_policy: Option<Policy>,
    /// The player asked to see, at each turning point, which option the
    /// novel (or history) took: a setting kept with the game and its saves;
    /// it changes nothing in play.
    shows_sources: bool,
    /// The game's name in its save folder: its resume point's slot, and the
    /// stem of its autosaves' (see `save::autosave_slot`).
    name: String,
    policy_rng: BattleRng,
    log: Vec<Command>,
    /// Changes whenever the log loses or changes a command it had (undo, a
    /// restart, a restore), never when one is added: a reader that saw the
    /// log at this epoch knows its first commands are still the same.
    /// Unique across games ([`new_log_epoch`]).
    log_epoch: u64,
    undo_stack: Vec<Snapshot>,
    /// Whether commands keep undo snapshots (off for `simulate`, which
    /// never undoes: a snapshot per command is a copy of the world).
    keeps_undo: bool,
    /// Whether story text is told (off for `simulate`, which reads only
    /// endings, choices and losses: telling copies texts and fills
    /// placeholders). The battle and the story play the same either way.
    tells: bool,
    /// The player's role among the scene's playable ones.
    role_id: RoleId,
    /// The story's state by index, kept with `story` (which holds it by
    /// id, for saves): what conditions read.
    marks: Marks,
    /// Which conditions read which marks (`verdicts.rs`).
    readers: verdicts::Readers,
    /// The verdicts a restarted game opens with, kept from the first
    /// restart (`verdicts.rs`).
    opening: Option<verdicts::Opening>,
    /// The copy the greedy policy plays its look-ahead games on, built at
    /// its first decision (`greedy.rs`).
    lookahead: Option<Box<Game>>,
    /// What the last effect caused in the battle, told or dropped at once:
    /// one list's memory for every effect of a game.
    entries: Vec<crate::sim::Entry>,
    /// What the played side knows of the battle (`picture.rs`): kept only
    /// while the game tells its story (it moves nothing in the battle).
    /// Shared with the undo states and the views' [`Known`] made of it: a
    /// look copies it only when one of them still holds it.
    picture: Arc<Picture>,
    /// The last [`Game::known`], with the battle's view stamp it was made
    /// at; dropped whenever the picture changes.
    known: Option<(u64, Arc<Known>)>,
    /// What the picture last looked at: the battle's view stamp, whether
    /// the battle was over, the seed. A look at the same again learns
    /// nothing (see [`Game::look`]), so it is skipped; dropped whenever the
    /// picture changes otherwise (word heard, a new picture).
    looked: Option<(u64, bool, u64)>,
    /// Text being told is after-action (an ending's history): its
    /// placeholders tell the truth.
    truth_told: bool,
    /// Own units whose word the text of the item being told brought
    /// (`Picture::units_told`): what the item's effects do to them is told
    /// by that text, and is part of its word (`Game::tell_effects_done`).
    told_units: Vec<usize>,
    /// The situation of the pending turning point, told by the command that
    /// put it (after its last look), so a replay tells it as play did: its
    /// claims are word the picture heard then, not when a screen shows it.
    situation: Option<(TpId, Told)>,
    /// What the telling showed, for the scene checker: None unless asked.
    audit: Option<Box<Audit>>,
}

/// [`StoryState`] by the scene's typed ids: what happened, was decided and
/// is set, read by conditions in constant time.
#[derive(Debug, Clone, Default)]
struct Marks {
    happened: Vec<bool>,
    reached: Vec<bool>,
    chosen: Vec<Option<u32>>,
    flags: Vec<bool>,
    /// Per watched id, the turn noted in `StoryState::since`.
    since: Vec<Option<u32>>,
    /// What the `when`s of events, endings and turning points come to on
    /// these marks (`verdicts.rs`): changed through the setters there.
    verdicts: verdicts::Verdicts,
}

impl Marks {
    /// The marks of an empty story, written over these (of the same scene).
    fn clear(&mut self) {
        let Marks {
            happened,
            reached,
            chosen,
            flags,
            since,
            verdicts,
        } = self;
        happened.fill(false);
        reached.fill(false);
        chosen.fill(None);
        flags.fill(false);
        since.fill(None);
        verdicts.forget_all();
    }

    /// The marks of `story`, a story of `scene`, written over these (of
    /// the same scene: the memory kept) as [`Marks::of`] makes them.
    fn set_to(&mut self, scene: &Scene, story: &StoryState) {
        let resolved = scene.resolved();
        let same_scene = self.happened.len() == scene.events().len()
            && self.reached.len() == scene.turning_points().len()
            && self.flags.len() == resolved.flags.len()
            && self.since.len() == resolved.watched.len()
            && self.verdicts.len()
                == scene.events().len() + scene.endings().len() + scene.turning_points().len();
        if !same_scene {
            *self = Marks::of(scene, story);
            return;
        }
        self.clear();
        for (w, since) in self.since.iter_mut().enumerate() {
            *since = story.since.get(&WatchId::at(w)).copied();
        }
        self.mark(story);
    }

    /// Sets the marks of what `story` has happen, decided and set.
    fn mark(&mut self, story: &StoryState) {
        for event in &story.happened {
            if let Some(happened) = self.happened.get_mut(event.idx()) {
                *happened = true;
            }
        }
        for &(tp, option) in &story.chosen {
            if let Some(reached) = self.reached.get_mut(tp.idx()) {
                *reached = true;
                self.chosen[tp.idx()] = Some(option);
            }
        }
        for flag in &story.flags {
            if let Some(set) = self.flags.get_mut(flag.idx()) {
                *set = true;
            }
        }
    }

    /// The marks of `story`, a story of `scene`.
    fn of(scene: &Scene, story: &StoryState) -> Marks {
        let resolved = scene.resolved();
        let mut marks = Marks {
            happened: vec![false; scene.events().len()],
            reached: vec![false; scene.turning_points().len()],
            chosen: vec![None; scene.turning_points().len()],
            flags: vec![false; resolved.flags.len()],
            since: (0..resolved.watched.len())
                .map(|w| story.since.get(&WatchId::at(w)).copied())
                .collect(),
            verdicts: verdicts::Verdicts::new(
                scene.events().len() + scene.endings().len() + scene.turning_points().len(),
            ),
        };
        marks.mark(story);
        marks
    }
}

impl Game {
    /// Opens a battle as `role`; returns the game and what happens at once.
    pub fn new(
        scene: Arc<Scene>,
        role: &str,
        seed: u64,
    ) -> Result<(Game, Vec<Output>), StoryError> {
        Game::with_policies(scene, role, seed, Policy::Historical, None)
    }

    /// [`Game::new`] with policies: the side nobody plays decides by `others`;
    /// with `player`, the player's role is played by a policy too (the
    /// auto-player). They are in force from
    /// the opening: a turning point that comes up before the first turn is
    /// decided by them too.
    pub fn with_policies(
        scene: Arc<Scene>,
        role: &str,
        seed: u64,
        others: Policy,
        player: Option<Policy>,
    ) -> Result<(Game, Vec<Output>), StoryError> {
        Game::open(scene, role, seed, others, player, false)
    }

    /// [`Game::with_policies`], keeping an [`Audit`] of every text told
    /// from the first: what the scene checker plays.
    pub fn audited(
        scene: Arc<Scene>,
        role: &str,
        seed: u64,
        others: Policy,
        player: Option<Policy>,
    ) -> Result<(Game, Vec<Output>), StoryError> {
        Game::open(scene, role, seed, others, player, true)
    }

    fn open(
        scene: Arc<Scene>,
        role: &str,
        seed: u64,
        others: Policy,
        player: Option<Policy>,
        audit: bool,
    ) -> Result<(Game, Vec<Output>), StoryError> {
        // The role's name is matched here, at the edge (the command line, a
        // save); the game knows it by its index from now on.
        let Some(role_id) = scene.find::<RoleId>(role) else {
            return Err(StoryError::NoSuchRole(
                role.to_string(),
                scene.meta().playable.join(", "),
            ));
        };
        let battle = Battle::new(&scene, seed);
        let mut game = Game {
            battle,
            story: StoryState::default(),
            seed,
            policy: others,
            player_policy: player,
            shows_sources: false,
            name: default_name(scene.id(), role, seed),
            policy_rng: BattleRng::from_seed(seed ^ POLICY_STREAM),
            log: Vec::new(),
            log_epoch: new_log_epoch(),
            undo_stack: Vec::new(),
            keeps_undo: true,
            tells: true,
            role_id,
            marks: Marks::of(&scene, &StoryState::default()),
            readers: verdicts::Readers::of(scene.resolved()),
            opening: None,
            lookahead: None,
            entries: Vec::new(),
            picture: Arc::default(),
            known: None,
            looked: None,
            truth_told: false,
            told_units: Vec::new(),
            situation: None,
            audit: audit.then(Box::default),
            scene,
        };
        game.picture = Arc::new(Picture::new(&game.scene, game.role_side()));
        let mut out = Vec::new();
        game.prelude(&mut out);
        game.look();
        game.settle(&mut out);
        game.look();
        game.tell_situation();
        Ok((game, out))
    }

    /// Opens a new game of the same scene, role and policies with `seed`,
    /// reusing this game's world and schedule (reset, not rebuilt): the same
    /// game, output for output, as [`Game::with_policies`] with that seed.
    /// What `simulate` plays its thousands of games with.
    pub fn restart(&mut self, seed: u64) -> Vec<Output> {
        self.battle.reset(&self.scene, seed);
        self.story.clear();
        self.marks.clear();
        self.seed = seed;
        self.open_verdicts();
        self.policy_rng = BattleRng::from_seed(seed ^ POLICY_STREAM);
        self.log.clear();
        self.log_epoch = new_log_epoch();
        self.undo_stack.clear();
        if self.tells {
            self.picture = Arc::new(Picture::new(&self.scene, self.role_side()));
            self.known = None;
        }
        self.looked = None;
        let mut out = Vec::new();
        self.prelude(&mut out);
        self.situation = None;
        self.look();
        self.settle(&mut out);
        self.look();
        self.tell_situation();
        out
    }

    /// The option number (1-based) a policy takes at the pending turning point.
    ///
    /// A random pick draws from a stream keyed by the seed and the log's
    /// length, not from the policy stream: the pick happens outside the
    /// command it leads to, so moving a stream here would make the logged
    /// `Choose` unreplayable and its undo inexact. A greedy pick plays its
    /// look-ahead games on a copy, with seeds of its own (`greedy.rs`).
    pub fn policy_choice(&mut self, policy: Policy) -> Option<usize> {
        let count = self.pending()?.options.len();
        let historical = self
            .pending()?
            .options
            .iter()
            .position(|o| o.historical)
            .unwrap_or(0);
        Some(match policy {
            Policy::Historical => historical + 1,
            Policy::Random => {
                let key = self.seed ^ (self.log.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                BattleRng::from_seed(key).index(count) + 1
            }
            Policy::Greedy => {
                let tp = self.story.pending?;
                self.greedy_option(tp) + 1
            }
        })
    }

    /// One step of the auto-player: answer the pending choice by the player's
    /// policy, or let a turn pass.
    pub fn auto_step(&mut self) -> Result<Vec<Output>, StoryError> {
        let policy = self.player_policy.unwrap_or_default();
        match self.policy_choice(policy) {
            Some(number) => self.choose(number),
            None => self.next(),
        }
    }

    pub fn scene(&self) -> &Scene {
        &self.scene
    }
    pub fn scene_arc(&self) -> Arc<Scene> {
        Arc::clone(&self.scene)
    }
    /// The played role's id, as the scene file and a save write it.
    pub fn role(&self) -> &str {
        self.scene.id_of(self.role_id)
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn story(&self) -> &StoryState {
        &self.story
    }
    pub fn log(&self) -> &[Command] {
        &self.log
    }

    /// The log's epoch: while it stays the same, the log has only grown
    /// (see the field). The save writer compares only what is new.
    pub fn log_epoch(&self) -> u64 {
        self.log_epoch
    }
    pub fn turn(&self) -> u32 {
        self.battle.turn()
    }
    pub fn field(&self) -> &crate::sim::Field {
        self.battle.field()
    }
    /// The side index of the player's commander.
    pub fn role_side(&self) -> usize {
        self.scene.commanders()[self.role_commander()].side.idx()
    }

    /// The played role's commander, by his index among the scene's
    /// commanders (resolved when the game was made: no lookup by name).
    pub fn role_commander(&self) -> usize {
        self.scene.resolved().roles[self.role_id.idx()].idx()
    }

    /// The played role's commander as the scene declares him.
    pub fn commander(&self) -> &crate::scene::Commander {
        &self.scene.commanders()[self.role_commander()]
    }
    /// Clock time now, in minutes after midnight of the first day.
    pub fn minute(&self) -> u32 {
        let meta = self.scene.meta();
        meta.start_minute
            .saturating_add(self.turn().saturating_mul(meta.turn_minutes))
    }
    /// The units that fight for the player's side now, in unit order: the
    /// side the scene gives them, unless a `ChangeSide` has moved them.
    pub fn player_units(&mut self) -> Vec<usize> {
        let side = self.role_side();
        let world = self.battle.view();
        let field = self.battle.field();
        world
            .units
            .iter()
            .zip(&field.units)
            .enumerate()
            .filter(|(_, (record, info))| record.side(info) == side)
            .map(|(idx, _)| idx)
            .collect()
    }

    pub fn world(&mut self) -> WorldState {
        self.battle.state()
    }
    /// Men `side` has lost so far (as [`WorldState::side_losses`] counts
    /// them), read without copying the world.
    pub fn side_losses(&mut self, side: usize) -> u32 {
        self.battle.refresh_facts_of(crate::sim::Parts::UNITS);
        self.battle
            .facts_of(crate::sim::Parts::UNITS)
            .side_losses(side)
    }
    /// The options taken at the turning points decided so far, as
    /// (turning point, option) indices in the scene, in the scene's order
    /// of turning points (what [`StoryState::chosen`] names by id, in the
    /// order they were decided).
    pub fn decided(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (self.marks.chosen.iter().enumerate())
            .filter_map(|(tp, option)| Some((tp, usize::try_from((*option)?).ok()?)))
    }

    pub fn is_over(&self) -> bool {
        self.story.ended.is_some()
    }
    pub fn pending(&self) -> Option<&crate::scene::TurningPoint> {
        self.story
            .pending
            .and_then(|tp| self.scene.turning_points().get(tp.idx()))
    }

    /// The turning point awaiting a decision, by id.
    pub fn pending_id(&self) -> Option<TpId> {
        self.story.pending
    }
    pub fn can_undo(&self) -> bool {
        self.scene.meta().undo && !self.undo_stack.is_empty()
    }

    /// Runs a command from the log (what `next` and a number do at the prompt).
    pub fn run(&mut self, command: &Command) -> Result<Vec<Output>, StoryError> {
        match command {
            Command::Next => self.next(),
            Command::Choose { tp, option } => {
                if self.story.pending != Some(*tp) {
                    return Err(StoryError::NothingToChoose);
                }
                self.choose(*option as usize + 1)
            }
            Command::Order { unit, order } => self.order(*unit, *order),
        }
    }

    /// Lets one turn pass.
    // `next` is the player's word for it (the REPL command); a Game is not an iterator.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Vec<Output>, StoryError> {
        if self.is_over() {
            return Err(StoryError::Ended);
        }
        if self.story.pending.is_some() {
            return Err(StoryError::ChoicePending);
        }
        self.push_undo();
        self.log.push(Command::Next);
        self.stamp_turns();
        let mut out = Vec::new();
        let entries = if self.tells {
            self.battle.step()
        } else {
            self.battle.step_quiet();
            Vec::new()
        };
        // Couriers due by this turn's clock reach their units: the orders
        // hold from the next turn's movement on.
        let mut delivered = Vec::new();
        self.deliver_couriers(&mut delivered);
        self.deliver_answers();
        self.say(&mut out, || Output::Turn {
            turn: self.turn(),
            minute: self.minute(),
        });
        self.look();
        out.extend(entries.into_iter().map(Output::Chronicle));
        out.extend(delivered);
        self.settle(&mut out);
        self.look();
        self.tell_situation();
        Ok(out)
    }

    /// Takes option `number` (1-based) at the pending turning point.
    pub fn choose(&mut self, number: usize) -> Result<Vec<Output>, StoryError> {
        if self.is_over() {
            return Err(StoryError::Ended);
        }
        let tp = self.story.pending.ok_or(StoryError::NothingToChoose)?;
        let options = self.pending().map_or(0, |tp| tp.options.len());
        if number == 0 || number > options {
            return Err(StoryError::NoSuchOption(number, options));
        }
        self.push_undo();
        self.log.push(Command::Choose {
            tp,
            option: (number - 1) as u32,
        });
        self.story.pending = None;
        let mut out = Vec::new();
        self.decide(tp.idx(), number - 1, true, &mut out);
        self.settle(&mut out);
        self.look();
        self.tell_situation();
        Ok(out)
    }

    /// Rewinds the last command: world, random streams and story together.
    pub fn undo(&mut self) -> Result<(), StoryError> {
        if !self.scene.meta().undo {
            return Err(StoryError::UndoForbidden);
        }
        let snapshot = self.undo_stack.pop().ok_or(StoryError::NothingToUndo)?;
        self.restore_snapshot(&snapshot);
        self.log.truncate(snapshot.log_len);
        self.log_epoch = new_log_epoch();
        Ok(())
    }

    pub fn snapshot(&mut self) -> Snapshot {
        Snapshot {
            world: self.battle.view(),
            story: self.story.clone(),
            policy_rng: self.policy_rng.clone(),
            log_len: self.log.len(),
            picture: Arc::clone(&self.picture),
        }
    }

    /// The state as a save holds it: [`Game::snapshot`] without the
    /// played side's picture, which no save writes (a load rebuilds it).
    pub fn saved_snapshot(&mut self) -> Snapshot {
        Snapshot {
            world: self.battle.view(),
            story: self.story.clone(),
            policy_rng: self.policy_rng.clone(),
            log_len: self.log.len(),
            picture: Arc::default(),
        }
    }

    /// Puts world and story back as they were in `snapshot`.
    pub fn restore_snapshot(&mut self, snapshot: &Snapshot) {
        self.battle.restore(&snapshot.world);
        self.story.clone_from(&snapshot.story);
        self.marks.set_to(&self.scene, &self.story);
        self.policy_rng.clone_from(&snapshot.policy_rng);
        self.known = None;
        self.looked = None;
        // Its situation, if one is pending, was heard before the snapshot:
        // told again when shown (`Game::situation`).
        self.situation = None;
        if snapshot.picture.enemy.is_empty() {
            // A state read from a save file: the picture is what the
            // commander sees of it now (the replay, which rebuilds it turn
            // by turn, did not reach this state).
            self.picture = Arc::new(Picture::new(&self.scene, self.role_side()));
            self.look();
        } else {
            self.picture = Arc::clone(&snapshot.picture);
        }
    }

    /// Brings the played side's picture up to date with the world (after a
    /// turn, a choice, the opening). Nothing is done for a game that tells
    /// no story (`simulate`): nobody reads its picture.
    fn look(&mut self) {
        if !self.tells {
            return;
        }
        let commander = self
            .scene
            .resolved()
            .roles
            .get(self.role_id.idx())
            .map(|c| c.idx());
        let world = self.battle.view();
        let over = self.is_over();
        // A text told outside an item with effects is the word of its units
        // as they were when told.
        self.told_units.clear();
        let key = (self.battle.view_stamp(), over, self.seed);
        if self.looked == Some(key) {
            // The same world, the picture untouched since it looked at it: a
            // second look would learn nothing (checked in debug builds).
            #[cfg(debug_assertions)]
            {
                let (scene, field, seed) = (&self.scene, self.battle.field(), self.seed);
                let mut again = Picture::clone(&self.picture);
                again.look(scene, field, &world, seed, commander);
                if over {
                    again.muster(field, &world);
                }
                assert!(
                    again == *self.picture,
                    "a look at the world the picture last looked at changed it"
                );
            }
            return;
        }
        self.known = None;
        self.looked = Some(key);
        let (scene, field, seed) = (&self.scene, self.battle.field(), self.seed);
        let look = |picture: &mut Picture| {
            picture.look(scene, field, &world, seed, commander);
            if over {
                picture.muster(field, &world);
            }
        };
        let picture = Arc::make_mut(&mut self.picture);
        look(picture);
        // A second look at the same world learns nothing (checked in debug
        // builds): what the first could not see, the second cannot either.
        #[cfg(debug_assertions)]
        {
            let mut again = Picture::clone(picture);
            look(&mut again);
            assert!(
                again == *picture,
                "a second look at the same world changed the picture"
            );
        }
    }

    /// After the ending, the picture set against the truth (None while
    /// the battle goes on).
    pub fn reveal(&mut self) -> Option<crate::picture::Reveal> {
        if !self.is_over() {
            return None;
        }
        let world = self.battle.view();
        Some(crate::picture::Reveal::of(
            self.battle.field(),
            &world,
            &self.picture,
        ))
    }

    /// The played side's picture of the battle.
    /// What the telling showed so far, for a game opened with
    /// [`Game::audited`].
    pub fn audit(&self) -> Option<&Audit> {
        self.audit.as_deref()
    }

    pub fn picture(&self) -> &Picture {
        &self.picture
    }

    /// What the played side knows now: the view model every view reads.
    /// Made once for each state of the world and the picture: the views
    /// of one turn share it.
    pub fn known(&mut self) -> Arc<Known> {
        let world = self.battle.view();
        let stamp = self.battle.view_stamp();
        if let Some((at, known)) = &self.known
            && *at == stamp
        {
            return Arc::clone(known);
        }
        let known = Arc::new(Known::of(self.battle.field(), &world, &self.picture));
        self.known = Some((stamp, Arc::clone(&known)));
        known
    }

    /// Restores a saved game: its state, log and undo history.
    pub fn restore_saved(&mut self, snapshot: &Snapshot, log: Vec<Command>, undo: Vec<Snapshot>) {
        self.restore_snapshot(snapshot);
        self.log = log;
        self.log_epoch = new_log_epoch();
        self.undo_stack = undo;
    }

    pub fn undo_history(&self) -> &[Snapshot] {
        &self.undo_stack
    }

    /// For a game whose process ends next: its undo history is left
    /// unfreed, for the system to take back with the rest of the process's
    /// memory (freeing a long game's states one by one, at exit, is work
    /// nobody needs: some 25,000 instructions a turn played). The game can
    /// go on without it (nothing left to undo); never for a game a process
    /// outlives.
    pub fn leave_history_to_exit(&mut self) {
        std::mem::forget(std::mem::take(&mut self.undo_stack));
    }

    /// Who decides for the side nobody plays, and for the player (auto-play):
    /// part of what a save must hold for its log to replay.
    pub fn policies(&self) -> (Policy, Option<Policy>) {
        (self.policy, self.player_policy)
    }

    /// Whether the options at a turning point say which the novel (or
    /// history) took, before the player decides (off unless asked for).
    pub fn shows_sources(&self) -> bool {
        self.shows_sources
    }

    /// The game's name in its save folder (`BATTLE-ROLE-SEED` unless the
    /// folder already had a game of that name; see `save::unused_name`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Names the game in its save folder (a new game beside an older one of
    /// the same battle, role and seed; a loaded game keeps its save's).
    pub fn set_name(&mut self, name: String) {
        self.name = name;
    }

    /// Asks for (or stops) the sources beside each option; saved with the game.
    pub fn show_sources(&mut self, on: bool) {
        self.shows_sources = on;
    }

    /// The scene's prelude, before turn 0 is settled: its text, then its
    /// effects.
    fn prelude(&mut self, out: &mut Vec<Output>) {
        let scene = Arc::clone(&self.scene);
        let Some(prelude) = scene.prelude() else {
            return;
        };
        let Some(resolved) = &scene.resolved().prelude else {
            return;
        };
        if let (Some(text), Some(variants)) = (&prelude.text, &resolved.text) {
            out.extend(
                self.tell_variants(text, variants, "prelude", |k| {
                    text_id("prelude", "text", text, k)
                })
                .map(Output::Narrate),
            );
        }
        for (effect, act) in prelude.effects.iter().zip(&resolved.effects) {
            self.apply(effect, act, Voice::Event, "prelude", out);
        }
        self.tell_effects_done();
    }

    /// Notes the turn of what happened since the last turn began, for the
    /// ids `TurnsSince` watches: everything that happened in the settlings of
    /// this turn happened at this turn. A flag no longer set loses its turn.
    fn stamp_turns(&mut self) {
        let scene = Arc::clone(&self.scene);
        let watched = &scene.resolved().watched;
        if !watched.iter().any(|w| w.stamped) {
            return;
        }
        let turn = self.turn();
        for (idx, watch) in watched.iter().enumerate().filter(|(_, w)| w.stamped) {
            if self.marks.now(watch) {
                if self.marks.since[idx].is_none() {
                    self.marks.set_since(&self.readers, idx, Some(turn));
                    self.story.since.insert(WatchId::at(idx), turn);
                }
            } else if self.marks.since[idx].is_some() {
                self.marks.set_since(&self.readers, idx, None);
                self.story.since.remove(&WatchId::at(idx));
            }
        }
    }

    /// Stops (or resumes) keeping undo snapshots: for games nobody will
    /// undo (`simulate`). The game plays the same either way.
    pub fn keep_undo(&mut self, keep: bool) {
        self.keeps_undo = keep;
        if !keep {
            self.undo_stack.clear();
        }
    }

    /// Sets how each side decides from now on: the side nobody plays by
    /// `others`, the player's role by `player` (none: a person). For a game
    /// opened only to be [`Game::restart`]ed (`simulate`), which can open
    /// it by the novel's choices and then set the policies it plays by:
    /// an opening decided greedily would play its look-ahead for nothing.
    pub fn set_policies(&mut self, others: Policy, player: Option<Policy>) {
        self.policy = others;
        self.player_policy = player;
    }

    /// Stops (or resumes) telling story text: for games nobody reads
    /// (`simulate`). Turns, choices and effects then give no outputs at all
    /// (no told text, no chronicle entries, no events, choices or endings:
    /// nobody reads them, and each would copy ids), and the journal stays
    /// empty; the story's state, the events, choices, endings and the
    /// battle are the same.
    pub fn tell_story(&mut self, tell: bool) {
        self.tells = tell;
    }

    /// Adds an output, made only when this game tells its story (see
    /// [`Game::tell_story`]).
    fn say(&self, out: &mut Vec<Output>, output: impl FnOnce() -> Output) {
        if self.tells {
            out.push(output());
        }
    }

    fn push_undo(&mut self) {
        if !self.keeps_undo {
            return;
        }
        let snapshot = self.snapshot();
        self.undo_stack.push(snapshot);
    }

    /// Applies the option's effects and records the decision. The chooser's
    /// side reads his narration; the other side reads only what it perceived.
    fn decide(&mut self, tp_idx: usize, option_idx: usize, by_player: bool, out: &mut Vec<Output>) {
        let scene = Arc::clone(&self.scene);
        let (Some(tp), Some(resolved)) = (
            scene.turning_points().get(tp_idx),
            scene.resolved().turning_points.get(tp_idx),
        ) else {
            return;
        };
        let (Some(option), Some(r_option)) =
            (tp.options.get(option_idx), resolved.options.get(option_idx))
        else {
            return;
        };
        let (tp_id, option_no) = (TpId::at(tp_idx), option_idx as u32);
        self.story.chosen.push((tp_id, option_no));
        self.marks
            .set_chosen(&self.readers, tp_idx, Some(option_no));
        self.say(out, || Output::Decided {
            tp: tp_id,
            option: option_no,
            by_player,
        });
        let chooser = scene.commanders()[resolved.role.idx()].side.idx();
        let voice = if chooser == self.role_side() {
            Voice::Own
        } else {
            Voice::Other
        };
        let item = || format!("{}/{}", tp.id, option.id);
        let told = match voice {
            Voice::Own => {
                self.tell_variants(&option.narration, &r_option.narration, &option.id, |k| {
                    text_id(&item(), "narration", &option.narration, k)
                })
            }
            _ => option
                .perceived
                .as_ref()
                .zip(r_option.perceived.as_ref())
                .and_then(|(p, v)| {
                    self.tell_variants(p, v, &option.id, |k| text_id(&item(), "perceived", p, k))
                }),
        };
        out.extend(told.map(Output::Narrate));
        let from = if self.audit.is_some() {
            item()
        } else {
            String::new()
        };
        for (effect, act) in option.effects.iter().zip(&r_option.effects) {
            self.apply(effect, act, voice, &from, out);
        }
        self.tell_effects_done();
    }

    /// Applies an effect: `effect` as the file says it (its texts), `act`
    /// the same resolved.
    /// `from` names the item whose effect it is, for the audit.
    fn apply(
        &mut self,
        effect: &Effect,
        act: &Act,
        voice: Voice,
        from: &str,
        out: &mut Vec<Output>,
    ) {
        match (effect, act) {
            (Effect::SetFlag(_), Act::SetFlag(id)) => {
                self.story.flags.insert(*id);
                self.marks.set_flag(&self.readers, id.idx(), true);
            }
            (Effect::ClearFlag(_), Act::ClearFlag(id)) => {
                self.story.flags.remove(id);
                self.marks.set_flag(&self.readers, id.idx(), false);
            }
            (Effect::Narrate(text), Act::Narrate(variants)) => {
                if voice != Voice::Other {
                    out.extend(
                        self.tell_variants(text, variants, "narrate", |k| {
                            text_id(from, "Narrate", text, k)
                        })
                        .map(Output::Narrate),
                    );
                }
            }
            _ => {
                // A rumor raised by the other side's choice, or by an event
                // that told nothing, is heard as a cry by whoever stands
                // within earshot. The side whose choice raised it reads it
                // in the choice's narration, and an event that told its
                // text tells the cry there.
                if let (Effect::Rumor { cry, .. }, Act::Rumor { about, routed, .. }) = (effect, act)
                    && self.tells
                {
                    Arc::make_mut(&mut self.picture).raise_cry(about.idx(), *routed, cry);
                }
                if let (Effect::Rumor { cry, .. }, Act::Rumor { zone, .. }) = (effect, act)
                    && matches!(voice, Voice::Other | Voice::Unspoken)
                    && self.tells
                    && self.within_earshot(*zone)
                {
                    self.say(out, || {
                        Output::Cry(Told {
                            text: cry.clone(),
                            args: Vec::new(),
                        })
                    });
                }
                self.battle.act_into(act, &mut self.entries);
                if self.tells {
                    out.extend(self.entries.drain(..).map(Output::Chronicle));
                } else {
                    self.entries.clear();
                }
            }
        }
    }
}

/// "HH:MM" for minutes after midnight (wrapping into the next day).
pub fn clock(minute: u32) -> String {
    let minute = minute % (24 * 60);
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// 12345 → "12,345" (men, by the count the story and views keep).
pub fn group_thousands(n: u32) -> String {
    crate::stdx::group_thousands(u64::from(n))
}

/// A game's name in its save folder before any other: `BATTLE-ROLE-SEED`,
/// each character a slot name may not hold made `-`, cut to leave room for
/// the autosaves' `-auto-N` and a `-N` telling two games apart.
pub fn default_name(scene: &str, role: &str, seed: u64) -> String {
    const ROOM: usize = 48;
    let name: String = format!("{scene}-{role}-{seed}")
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let name = name.trim_start_matches(['-', '.']);
    let mut out = String::new();
    for c in name.chars() {
        if out.chars().count() >= ROOM || out.len() + c.len_utf8() > ROOM * 2 {
            break;
        }
        out.push(c);
    }
    if out.is_empty() {
        "game".to_string()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::Ids;

    #[test]
    fn an_audited_game_notes_a_placeholder_that_prints_nothing() {
        // Validation refuses such a text in a scene; the audit is the net
        // under it (a placeholder kind added to the engine but not filled).
        let scene = Arc::new(crate::sim::testing::small_scene(|raw| raw));
        let (mut game, _) =
            Game::audited(scene, "zhang", 1, Policy::Historical, None).expect("game");
        let text = Text::Plain("{men:ming-foot} hold; {what:ever}.".into());
        let slots = crate::scene::resolved::slots(game.scene(), &text);
        let told = game.fill(text, &slots, Some("probe.text".into()));
        assert!(told.args.iter().any(|(name, _)| name == "men:ming-foot"));
        let audit = game.audit.as_deref().expect("audited");
        let empty: Vec<&str> = audit
            .empty_placeholders
            .iter()
            .map(|(label, inside, _)| {
                assert_eq!(label, "probe.text");
                inside.as_str()
            })
            .collect();
        assert_eq!(empty, ["{what:ever}"]);
    }

    /// The small world (Zhang and his Ming foot on the south bank; the ford,
    /// the north bank, the tent in a line) with a second Ming unit on the
    /// north bank, two zones from Zhang, and `smoke` in the ford.
    fn ordered_game(smoke: f64) -> Game {
        let scene = Arc::new(crate::sim::testing::small_scene(|mut raw| {
            let mut far = raw.units[0].clone();
            far.id = "far-foot".into();
            far.zone = "tent".into();
            raw.units.push(far);
            raw.zones[1].smoke = smoke;
            raw.zones[1].fuel = 0.0;
            raw
        }));
        Game::new(scene, "zhang", 3).expect("game").0
    }

    fn far(game: &Game) -> usize {
        game.scene.unit_idx("far-foot").expect("far unit")
    }

    #[test]
    fn a_unit_with_its_commander_obeys_at_once_and_others_wait_for_the_courier() {
        let mut game = ordered_game(0.0);
        let out = game
            .order(game.unit("ming-foot"), UnitCommand::Hold)
            .expect("order");
        assert!(
            matches!(out[..], [Output::Ordered { arrives: None, .. }]),
            "{out:?}"
        );
        // The tent is three zones from the south bank: 30 minutes, two turns.
        let out = game
            .order(
                game.unit("far-foot"),
                UnitCommand::Advance(game.zone("north-bank")),
            )
            .expect("order");
        assert!(
            matches!(
                out[..],
                [Output::Ordered {
                    arrives: Some(2),
                    ..
                }]
            ),
            "{out:?}"
        );
        let idx = far(&game);
        let order_of = |game: &mut Game| game.world().units[idx].orders.order();
        let before = order_of(&mut game);
        let turn_one = game.next().expect("turn");
        assert!(
            !turn_one
                .iter()
                .any(|o| matches!(o, Output::OrderArrived { .. }))
        );
        assert_eq!(order_of(&mut game), before, "not yet arrived");
        let turn_two = game.next().expect("turn");
        assert!(
            turn_two
                .iter()
                .any(|o| matches!(o, Output::OrderArrived { unit } if *unit == idx))
        );
        let north = game.scene.zone_idx("north-bank").expect("zone");
        assert_eq!(
            order_of(&mut game),
            crate::sim::movement::UnitOrder::MoveTo(north)
        );
    }

    #[test]
    fn smoke_on_the_way_slows_the_courier() {
        let mut clear = ordered_game(0.0);
        let mut smoky = ordered_game(0.95);
        let arrives = |game: &mut Game| match game.order(game.unit("far-foot"), UnitCommand::Hold) {
            Ok(out) => match out.first() {
                Some(Output::Ordered { arrives, .. }) => *arrives,
                _ => None,
            },
            Err(err) => panic!("{err}"),
        };
        assert_eq!(arrives(&mut clear), Some(2));
        assert_eq!(
            arrives(&mut smoky),
            Some(4),
            "30 minutes doubled: four turns"
        );
    }

    #[test]
    fn a_routing_unit_will_not_listen_and_a_courier_finding_it_broken_is_lost() {
        let mut game = ordered_game(0.0);
        let idx = far(&game);
        game.order(game.unit("far-foot"), UnitCommand::Withdraw)
            .expect("sent");
        crate::sim::testing::set_state(
            game.battle.world_mut(),
            idx,
            crate::scene::MoraleState::Routing,
        );
        // Out of his sight, with no word of its flight: he does not know
        // it runs, and the order goes; the rider finds it broken.
        game.order(game.unit("far-foot"), UnitCommand::Hold)
            .expect("sent, as far as he knows");
        let mut lost = false;
        for _ in 0..3 {
            let out = game.next().expect("turn");
            lost |= out
                .iter()
                .any(|o| matches!(o, Output::OrderLost { unit } if *unit == idx));
        }
        assert!(lost, "the courier finds the unit in flight");
        assert!(game.story().couriers.is_empty());
        // A unit he stands with, seen to run: refused at once.
        let near = game.scene.unit_idx("ming-foot").expect("near unit");
        crate::sim::testing::set_state(
            game.battle.world_mut(),
            near,
            crate::scene::MoraleState::Routing,
        );
        game.look();
        assert_eq!(
            game.order(game.unit("ming-foot"), UnitCommand::Hold),
            Err(StoryError::WillNotListen)
        );
    }

    #[test]
    fn orders_undo_and_replay_exactly() {
        let mut game = ordered_game(0.0);
        game.next().expect("turn");
        let before = game.snapshot();
        game.order(
            game.unit("far-foot"),
            UnitCommand::Advance(game.zone("north-bank")),
        )
        .expect("order");
        game.undo().expect("undo");
        assert_eq!(game.snapshot(), before, "undo takes the order back");
        game.order(
            game.unit("far-foot"),
            UnitCommand::Advance(game.zone("north-bank")),
        )
        .expect("order");
        game.order(
            game.unit("ming-foot"),
            UnitCommand::Attack(game.zone("ford")),
        )
        .expect("order");
        for _ in 0..4 {
            game.next().expect("turn");
        }
        let mut replayed = ordered_game(0.0);
        for command in game.log().to_vec() {
            replayed.run(&command).expect("replays");
        }
        assert_eq!(replayed.snapshot(), game.snapshot());
    }

    #[test]
    fn orders_are_refused_clearly() {
        let mut game = ordered_game(0.0);
        assert_eq!(
            game.order(game.unit("banner"), UnitCommand::Hold),
            Err(StoryError::NoSuchUnit("banner".into())),
            "an enemy unit is not yours"
        );
        // A place the battle lacks has no id: a command naming one (in a
        // save's log) is refused when it is read.
        let named = crate::save::SavedCommand::Order {
            unit: "ming-foot".into(),
            order: crate::save::SavedUnitCommand::Advance("moon".into()),
        };
        assert_eq!(
            named.to_command(game.scene()),
            Err(StoryError::NoSuchZone("moon".into()))
        );
        let scene = Arc::new(crate::sim::testing::small_scene(|mut raw| {
            raw.commanders[0].gives_orders = false;
            raw
        }));
        let mut game = Game::new(scene, "zhang", 1).expect("game").0;
        assert!(matches!(
            game.order(game.unit("ming-foot"), UnitCommand::Hold),
            Err(StoryError::NoOrders(_))
        ));
    }

    #[test]
    fn luck_is_fixed_by_seed_turn_and_item_and_fair() {
        assert_eq!(luck(1, 3, "a", 0.5), luck(1, 3, "a", 0.5));
        assert_ne!(luck(1, 3, "a", 0.5), luck(1, 4, "a", 0.5));
        // Hashed as written: the same number as hashing the key's text.
        for (seed, turn, owner, p) in [
            (1, 3, "a", 0.5),
            (u64::MAX, 0, "ford-event", 0.05),
            (0, u32::MAX, "", 0.0),
            (10, 10, "x", 1.0),
        ] {
            let key = format!("{seed}:{turn}:{owner}:{}", f64::to_bits(p));
            let hash = crate::scene::content_hash(&key);
            let expected = BattleRng::from_seed(hash).unit().clamp(0.0, 1.0);
            assert_eq!(luck(seed, turn, owner, p), expected);
        }
        let hits = (0..2000)
            .filter(|seed| luck(*seed, 1, "event", 0.3) < 0.3)
            .count();
        assert!((500..700).contains(&hits), "about 30 % of 2000: {hits}");
    }

    #[test]
    fn a_chance_event_fires_on_some_seeds_and_the_same_seed_agrees() {
        let scene = Arc::new(crate::sim::testing::small_scene(|mut raw| {
            raw.events.push(crate::scene::Event {
                id: "luck".into(),
                when: Condition::All(vec![
                    Condition::Turn(Cmp::AtLeast(1.0)),
                    Condition::Chance(0.5),
                ]),
                text: None,
                effects: vec![Effect::SetFlag("lucky".into())],
            });
            raw
        }));
        let lucky_after_one_turn = |seed: u64| {
            let (mut game, _) = Game::new(Arc::clone(&scene), "zhang", seed).expect("game");
            game.next().expect("a turn");
            game.story().flags.contains(&game.id::<FlagId>("lucky"))
        };
        let hits = (0..60).filter(|seed| lucky_after_one_turn(*seed)).count();
        assert!((15..=45).contains(&hits), "about half of 60 seeds: {hits}");
        assert!((0..20).all(|seed| lucky_after_one_turn(seed) == lucky_after_one_turn(seed)));
    }

    /// The small battle with the Ming foot cut off in the Khan's tent, and
    /// at turn 1 an event whose text says `claim` of it (its effects `own`),
    /// then one without text (effects `later`): the word Zhang has of the
    /// foot after turn 1, as (its turn, its men), with the foot's men now.
    fn told_of(claim: &str, own: &str, later: &str) -> ((u32, u32), u32) {
        let scene = Arc::new(crate::sim::testing::small_scene(|mut raw| {
            raw.units[0].zone = "tent".into();
            for event in [
                format!(
                    r#"(id: "told", when: Turn(AtLeast(1)), effects: [{own}],
                        text: Some([(text: "Word of the foot.", claims: [{claim}])]))"#
                ),
                format!(r#"(id: "later", when: Happened("told"), effects: [{later}])"#),
            ] {
                raw.events.push(ron::from_str(&event).expect("an event"));
            }
            raw
        }));
        let (mut game, _) = Game::new(scene, "zhang", 3).expect("game");
        game.next().expect("a turn");
        let word = game.picture().own[0].as_ref().expect("word of the foot");
        let word = (word.turn, word.record.men);
        (word, game.world().units[0].men)
    }

    #[test]
    fn a_texts_word_is_of_a_unit_as_its_event_leaves_it_and_a_claimed_all_is_word() {
        let holds = r#"UnitState(unit: "ming-foot", is: [Steady, Wavering, Routing, Rallied])"#;
        let cut = |share: f64| format!(r#"Casualties(target: Unit("ming-foot"), share: {share})"#);
        // The text's own event costs the foot a tenth: the text tells it.
        let (word, men) = told_of(holds, &cut(0.1), r#"SetFlag("quiet")"#);
        assert_eq!(word, (1, men));
        // A later event costs it half again: no word of that reaches Zhang.
        let (word, now) = told_of(holds, &cut(0.1), &cut(0.5));
        assert_eq!(word, (1, men));
        assert!(now < men, "{now} {men}");
        // A claimed All of claims says each: the same word.
        let all = format!("All([{holds}, Turn(AtLeast(1))])");
        assert_eq!(told_of(&all, &cut(0.1), &cut(0.5)).0, (1, men));
        // An Any says none of them for certain: the foot's word stays the
        // opening's.
        let any = format!("Any([{holds}, Turn(AtLeast(1))])");
        let (word, _) = told_of(&any, &cut(0.1), &cut(0.5));
        assert_eq!(word.0, 0, "{word:?}");
    }

    #[test]
    fn an_atmosphere_line_is_word_only_when_it_is_told() {
        // The foot out of Zhang's reach; the one line of atmosphere says how
        // it stands.
        let scene = Arc::new(crate::sim::testing::small_scene(|mut raw| {
            raw.units[0].zone = "tent".into();
            raw.atmosphere = vec![
                ron::from_str(
                    r#"(when: Always, text: "The foot holds.",
                        claims: [UnitState(unit: "ming-foot", is: [Steady, Wavering, Routing, Rallied])])"#,
                )
                .expect("a line"),
            ];
            raw
        }));
        for told in [false, true] {
            let (mut game, _) = Game::new(Arc::clone(&scene), "zhang", 3).expect("game");
            game.next().expect("a turn");
            // Resting (not fresh), it is not told, and brings no word.
            let line = game.atmosphere_line(|_| told);
            assert_eq!(line.map(|(i, _)| i), told.then_some(0));
            let word = game.picture().own[0].as_ref().expect("word of the foot");
            assert_eq!(word.turn, u32::from(told), "told: {told}");
        }
    }

    #[test]
    fn an_events_cry_is_heard_near_it_unless_its_text_told_it() {
        let cries = |text: Option<&str>, zone: &str| {
            let scene = Arc::new(crate::sim::testing::small_scene(|mut raw| {
                raw.events.push(
                    ron::from_str(&format!(
                        r#"(id: "cry", when: Turn(AtLeast(1)), {}
                            effects: [Rumor(zone: "{zone}", claim: Routed("jin"), credibility: 0.5,
                                            cry: "The Jin are routed!")])"#,
                        text.map(|t| format!("text: Some(\"{t}\"),"))
                            .unwrap_or_default()
                    ))
                    .expect("an event"),
                );
                raw
            }));
            let (mut game, _) = Game::new(scene, "zhang", 3).expect("game");
            game.next()
                .expect("a turn")
                .into_iter()
                .filter(|o| matches!(o, Output::Cry(t) if t.text.get(crate::scene::Locale::En) == "The Jin are routed!"))
                .count()
        };
        // Zhang stands on the south bank: a cry there or next door is heard.
        assert_eq!(cries(None, "south-bank"), 1);
        assert_eq!(cries(None, "ford"), 1);
        // Two zones off, nobody of his hears it.
        assert_eq!(cries(None, "tent"), 0);
        // An event that tells its text tells the cry there.
        assert_eq!(
            cries(Some("A cry goes up: the Jin are routed!"), "south-bank"),
            0
        );
    }

    #[test]
    fn turns_since_and_fallen_follow_what_happened() {
        use crate::scene::{Event, Fate};
        let event = |id: &str, when: Condition, effects: Vec<Effect>| Event {
            id: id.into(),
            when,
            text: None,
            effects,
        };
        let since = |id: &str, cmp: Cmp| Condition::TurnsSince(id.into(), cmp);
        let scene = Arc::new(crate::sim::testing::small_scene(|mut raw| {
            raw.events = vec![
                event(
                    "signal",
                    Condition::Turn(Cmp::AtLeast(2.0)),
                    vec![Effect::SetFlag("lit".into())],
                ),
                event(
                    "same-turn",
                    since("signal", Cmp::AtMost(0.0)),
                    vec![Effect::SetFlag("same-turn".into())],
                ),
                event(
                    "flag-after",
                    since("lit", Cmp::AtLeast(1.0)),
                    vec![Effect::SetFlag("flag-after".into())],
                ),
                event(
                    "two-after",
                    since("signal", Cmp::AtLeast(2.0)),
                    vec![Effect::Fall {
                        commander: "khan".into(),
                        fate: Fate::Captured,
                    }],
                ),
                event(
                    "khan-fallen",
                    Condition::Fallen("khan".into()),
                    vec![Effect::SetFlag("khan-fallen".into())],
                ),
            ];
            raw
        }));
        let (mut game, _) = Game::new(scene, "zhang", 1).expect("game");
        let mut first_turn = std::collections::BTreeMap::new();
        for _ in 0..6 {
            game.next().expect("a turn");
            for id in game.story().happened.clone() {
                first_turn
                    .entry(game.scene().id_of(id).to_string())
                    .or_insert(game.turn());
            }
        }
        let at = |id: &str| first_turn.get(id).copied();
        assert_eq!(at("signal"), Some(2));
        assert_eq!(at("same-turn"), Some(2));
        assert_eq!(at("flag-after"), Some(3));
        assert_eq!(at("two-after"), Some(4));
        assert_eq!(at("khan-fallen"), Some(4));
        assert_eq!(
            game.story().since.get(&game.id::<WatchId>("signal")),
            Some(&2)
        );
        // Undo rewinds the turns noted with the rest.
        game.undo().expect("undo");
        game.undo().expect("undo");
        game.next().expect("a turn");
        game.next().expect("a turn");
        assert_eq!(
            game.story().since.get(&game.id::<WatchId>("signal")),
            Some(&2)
        );
    }

    #[test]
    fn the_prelude_is_told_and_done_before_turn_zero_settles() {
        let scene = Arc::new(crate::sim::testing::small_scene(|mut raw| {
            raw.prelude = Some(crate::scene::Prelude {
                text: Some(Text::Plain("Before dawn.".into()).into()),
                effects: vec![
                    Effect::SetFlag("dawn".into()),
                    Effect::Fall {
                        commander: "khan".into(),
                        fate: crate::scene::Fate::Wounded,
                    },
                ],
            });
            raw.events.push(crate::scene::Event {
                id: "seen-at-the-opening".into(),
                when: Condition::All(vec![
                    Condition::Flag("dawn".into()),
                    Condition::Fallen("khan".into()),
                ]),
                text: None,
                effects: vec![Effect::SetFlag("opening".into())],
            });
            raw
        }));
        let (game, out) = Game::new(scene, "zhang", 1).expect("game");
        assert_eq!(
            out.first(),
            Some(&Output::Narrate(Told {
                text: Text::Plain("Before dawn.".into()),
                args: Vec::new(),
            }))
        );
        assert_eq!(game.turn(), 0);
        assert!(game.story().flags.contains(&game.id::<FlagId>("opening")));
    }

    #[test]
    fn a_hidden_ally_changes_side_with_the_units_he_leads() {
        // The Khan secretly serves the Ming: his Han foot follow him over at turn 2.
        let scene = Arc::new(crate::sim::testing::small_scene(|mut raw| {
            raw.units[2].leader = Some("khan".into());
            raw.events.push(crate::scene::Event {
                id: "revealed".into(),
                when: Condition::Turn(Cmp::AtLeast(2.0)),
                text: None,
                effects: vec![Effect::ChangeSide {
                    who: "khan".into(),
                    side: "ming".into(),
                }],
            });
            raw.endings.insert(
                0,
                crate::scene::Ending {
                    id: "over".into(),
                    title: Text::Plain("Over".into()),
                    when: Condition::SideMenIn {
                        side: "ming".into(),
                        zone: "tent".into(),
                        cmp: Cmp::AtLeast(1000.0),
                    },
                    text: Text::Plain(String::new()).into(),
                    summary: Text::Plain(String::new()).into(),
                    history: None,
                },
            );
            raw
        }));
        let (mut game, _) = Game::new(Arc::clone(&scene), "zhang", 1).expect("game");
        let tent = scene.zone_idx("tent").expect("tent");
        game.next().expect("turn 1");
        let world = game.world();
        assert!(
            !world.vision.side_sees(0, tent),
            "until revealed, no sight for the Ming"
        );
        let jin_men = world.side_men(game.field(), 1);
        game.next().expect("turn 2");
        assert_eq!(game.story().ended, Some(game.id::<EndingId>("over")));
        let world = game.world();
        assert_eq!(world.units[2].side, Some(0));
        assert_eq!(world.commanders[1].side, 0);
        assert!(world.side_men(game.field(), 1) < jin_men);
        // The change survives a snapshot and its restoring (undo, saves).
        let snapshot = game.snapshot();
        game.restore_snapshot(&snapshot);
        assert_eq!(game.world().units[2].side, Some(0));
        game.battle.step();
        assert!(
            game.world().vision.side_sees(0, tent),
            "now the Ming see the tent"
        );
    }

    #[test]
    fn units_that_came_over_take_orders_and_units_that_left_do_not() {
        // The Khan goes over to the Ming at turn 2 with the Han foot he leads;
        // the Ming foot goes over to the Jin.
        let scene = Arc::new(crate::sim::testing::small_scene(|mut raw| {
            raw.units[2].leader = Some("khan".into());
            raw.events.push(crate::scene::Event {
                id: "revealed".into(),
                when: Condition::Turn(Cmp::AtLeast(2.0)),
                text: None,
                effects: vec![
                    Effect::ChangeSide {
                        who: "khan".into(),
                        side: "ming".into(),
                    },
                    Effect::ChangeSide {
                        who: "ming-foot".into(),
                        side: "jin".into(),
                    },
                ],
            });
            raw
        }));
        let (mut game, _) = Game::new(Arc::clone(&scene), "zhang", 1).expect("game");
        assert_eq!(game.player_units(), vec![0]);
        assert!(matches!(
            game.order(game.unit("han-foot"), UnitCommand::Hold),
            Err(StoryError::NoSuchUnit(_))
        ));
        game.next().expect("turn 1");
        game.next().expect("turn 2");
        assert!(
            game.story()
                .happened
                .contains(&game.id::<EventId>("revealed"))
        );
        assert_eq!(game.player_units(), vec![2]);
        assert!(matches!(
            game.order(game.unit("ming-foot"), UnitCommand::Hold),
            Err(StoryError::NoSuchUnit(_))
        ));
        assert!(
            !matches!(
                game.order(game.unit("han-foot"), UnitCommand::Hold),
                Err(StoryError::NoSuchUnit(_))
            ),
            "the Han foot fight for the Ming now"
        );
    }

    #[test]
    fn clock_wraps_into_the_next_day() {
        assert_eq!(clock(900), "15:00");
        assert_eq!(clock(1500), "01:00");
    }
}
