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

use crate::scene::{Cmp, Condition, Effect, Scene, Text};
use crate::sim::rng::BattleRng;
use crate::sim::{Battle, Entry, WorldState};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// What the story tells; the REPL renders each in the player's language.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// A new turn begins.
    Turn { turn: u32, minute: u32 },
    /// Something the simulation reports.
    Chronicle(Entry),
    /// An event fired (its text, if it has one).
    Event { id: String },
    /// Told by a choice's effects.
    Narrate(Text),
    /// The player must choose at this turning point.
    Situation { tp: String },
    /// A turning point was decided (by the player or the policy).
    Decided {
        tp: String,
        option: String,
        by_player: bool,
    },
    /// The battle is over.
    Ending { id: String },
}

/// How the side nobody plays (and the auto-player) decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Policy {
    /// The novel's choice.
    #[default]
    Historical,
    /// Any option, drawn from the policy's own seeded stream.
    Random,
}

/// A player's command, as kept in the command log for saves and replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Let a turn pass.
    Next,
    /// Take option `option` at turning point `tp`.
    Choose { tp: String, option: String },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoryError {
    #[error("a choice is waiting: pick an option by its number")]
    ChoicePending,
    #[error("there is nothing to choose now")]
    NothingToChoose,
    #[error("there is no option {0}; choose 1 to {1}")]
    NoSuchOption(usize, usize),
    #[error("the battle is over")]
    Ended,
    #[error("no such role `{0}`; playable roles: {1}")]
    NoSuchRole(String, String),
    #[error("undo is not allowed in this battle (ironman)")]
    UndoForbidden,
    #[error("nothing to undo: this is the start of the battle")]
    NothingToUndo,
}

/// The story's own state: everything besides the world that a save must hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct StoryState {
    /// (turning point, option) in the order they were decided.
    pub chosen: Vec<(String, String)>,
    pub happened: Vec<String>,
    pub flags: BTreeSet<String>,
    pub pending: Option<String>,
    pub ended: Option<String>,
    /// The turn each flag was set, event happened or turning point was
    /// decided, for `TurnsSince`: kept only for the ids a scene's
    /// `TurnsSince` conditions name (so saves of other scenes are as before).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub since: BTreeMap<String, u32>,
}

/// World and story together: what undo rewinds and a save stores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub world: WorldState,
    pub story: StoryState,
    pub policy_rng: BattleRng,
    pub log_len: usize,
}

pub struct Game {
    scene: Arc<Scene>,
    battle: Battle,
    story: StoryState,
    role: String,
    seed: u64,
    policy: Policy,
    /// The player's own decisions, when an auto-player plays the role.
    player_policy: Option<Policy>,
    policy_rng: BattleRng,
    log: Vec<Command>,
    undo_stack: Vec<Snapshot>,
}

impl Game {
    /// Opens a battle as `role`; returns the game and what happens at once.
    pub fn new(
        scene: Arc<Scene>,
        role: &str,
        seed: u64,
    ) -> Result<(Game, Vec<Output>), StoryError> {
        if !scene.meta().playable.iter().any(|r| r == role) {
            return Err(StoryError::NoSuchRole(
                role.to_string(),
                scene.meta().playable.join(", "),
            ));
        }
        let battle = Battle::new(&scene, seed);
        let mut game = Game {
            battle,
            story: StoryState::default(),
            role: role.to_string(),
            seed,
            policy: Policy::Historical,
            player_policy: None,
            policy_rng: BattleRng::from_seed(seed ^ 0x005e_ed0f_f0e5),
            log: Vec::new(),
            undo_stack: Vec::new(),
            scene,
        };
        let mut out = Vec::new();
        game.prelude(&mut out);
        game.settle(&mut out);
        Ok((game, out))
    }

    /// The side nobody plays decides by `policy`; with `player`, the player's
    /// role is played by a policy too (the auto-player).
    pub fn set_policies(&mut self, others: Policy, player: Option<Policy>) {
        self.policy = others;
        self.player_policy = player;
    }

    /// The option number (1-based) a policy takes at the pending turning point.
    ///
    /// A random pick draws from a stream keyed by the seed and the log's
    /// length, not from the policy stream: the pick happens outside the
    /// command it leads to, so moving a stream here would make the logged
    /// `Choose` unreplayable and its undo inexact.
    pub fn policy_choice(&self, policy: Policy) -> Option<usize> {
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
    pub fn role(&self) -> &str {
        &self.role
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
    pub fn turn(&self) -> u32 {
        self.battle.turn()
    }
    pub fn field(&self) -> &crate::sim::Field {
        self.battle.field()
    }
    /// The side index of the player's commander.
    pub fn role_side(&self) -> usize {
        self.scene
            .commander(&self.role)
            .and_then(|c| self.scene.side_idx(&c.side))
            .unwrap_or(0)
    }
    /// Clock time now, in minutes after midnight of the first day.
    pub fn minute(&self) -> u32 {
        let meta = self.scene.meta();
        meta.start_minute
            .saturating_add(self.turn().saturating_mul(meta.turn_minutes))
    }
    pub fn world(&mut self) -> WorldState {
        self.battle.state()
    }
    pub fn is_over(&self) -> bool {
        self.story.ended.is_some()
    }
    pub fn pending(&self) -> Option<&crate::scene::TurningPoint> {
        self.story
            .pending
            .as_deref()
            .and_then(|id| self.scene.turning_point(id))
    }
    pub fn can_undo(&self) -> bool {
        self.scene.meta().undo && !self.undo_stack.is_empty()
    }

    /// Runs a command from the log (what `next` and a number do at the prompt).
    pub fn run(&mut self, command: &Command) -> Result<Vec<Output>, StoryError> {
        match command {
            Command::Next => self.next(),
            Command::Choose { tp, option } => {
                let pending = self.pending().ok_or(StoryError::NothingToChoose)?;
                if &pending.id != tp {
                    return Err(StoryError::NothingToChoose);
                }
                let count = pending.options.len();
                let idx = pending
                    .options
                    .iter()
                    .position(|o| &o.id == option)
                    .ok_or(StoryError::NoSuchOption(0, count))?;
                self.choose(idx + 1)
            }
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
        let entries = self.battle.step();
        out.push(Output::Turn {
            turn: self.turn(),
            minute: self.minute(),
        });
        out.extend(entries.into_iter().map(Output::Chronicle));
        self.settle(&mut out);
        Ok(out)
    }

    /// Takes option `number` (1-based) at the pending turning point.
    pub fn choose(&mut self, number: usize) -> Result<Vec<Output>, StoryError> {
        if self.is_over() {
            return Err(StoryError::Ended);
        }
        let tp = self.pending().ok_or(StoryError::NothingToChoose)?.clone();
        if number == 0 || number > tp.options.len() {
            return Err(StoryError::NoSuchOption(number, tp.options.len()));
        }
        let option = &tp.options[number - 1];
        self.push_undo();
        self.log.push(Command::Choose {
            tp: tp.id.clone(),
            option: option.id.clone(),
        });
        self.story.pending = None;
        let mut out = Vec::new();
        self.decide(&tp.id, number - 1, true, &mut out);
        self.settle(&mut out);
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
        Ok(())
    }

    pub fn snapshot(&mut self) -> Snapshot {
        Snapshot {
            world: self.battle.state(),
            story: self.story.clone(),
            policy_rng: self.policy_rng.clone(),
            log_len: self.log.len(),
        }
    }

    /// Puts world and story back as they were in `snapshot`.
    pub fn restore_snapshot(&mut self, snapshot: &Snapshot) {
        self.battle.restore(&snapshot.world);
        self.story = snapshot.story.clone();
        self.policy_rng = snapshot.policy_rng.clone();
    }

    /// Restores a saved game: its state, log and undo history.
    pub fn restore_saved(&mut self, snapshot: &Snapshot, log: Vec<Command>, undo: Vec<Snapshot>) {
        self.restore_snapshot(snapshot);
        self.log = log;
        self.undo_stack = undo;
    }

    pub fn undo_history(&self) -> &[Snapshot] {
        &self.undo_stack
    }

    /// Who decides for the side nobody plays, and for the player (auto-play):
    /// part of what a save must hold for its log to replay.
    pub fn policies(&self) -> (Policy, Option<Policy>) {
        (self.policy, self.player_policy)
    }

    /// The scene's prelude, before turn 0 is settled: its text, then its
    /// effects.
    fn prelude(&mut self, out: &mut Vec<Output>) {
        let scene = Arc::clone(&self.scene);
        let Some(prelude) = scene.prelude() else {
            return;
        };
        if let Some(text) = &prelude.text {
            out.push(Output::Narrate(text.clone()));
        }
        for effect in &prelude.effects {
            self.apply(effect, out);
        }
    }

    /// Notes the turn of what happened since the last turn began, for the
    /// ids `TurnsSince` watches: everything that happened in the settlings of
    /// this turn happened at this turn. A flag no longer set loses its turn.
    fn stamp_turns(&mut self) {
        let scene = Arc::clone(&self.scene);
        let mut watched = BTreeSet::new();
        for_each_condition(&scene, &mut |condition| watch(condition, &mut watched));
        if watched.is_empty() {
            return;
        }
        let turn = self.turn();
        for id in watched {
            let now = self.story.happened.contains(&id)
                || self.story.chosen.iter().any(|(tp, _)| *tp == id)
                || self.story.flags.contains(&id);
            if now {
                self.story.since.entry(id).or_insert(turn);
            } else {
                self.story.since.remove(&id);
            }
        }
    }

    fn push_undo(&mut self) {
        let snapshot = self.snapshot();
        self.undo_stack.push(snapshot);
    }

    /// Applies the option's effects and records the decision.
    fn decide(&mut self, tp_id: &str, option_idx: usize, by_player: bool, out: &mut Vec<Output>) {
        let Some(tp) = self.scene.turning_point(tp_id).cloned() else {
            return;
        };
        let Some(option) = tp.options.get(option_idx) else {
            return;
        };
        self.story.chosen.push((tp.id.clone(), option.id.clone()));
        out.push(Output::Decided {
            tp: tp.id.clone(),
            option: option.id.clone(),
            by_player,
        });
        out.push(Output::Narrate(option.narration.clone()));
        for effect in &option.effects {
            self.apply(effect, out);
        }
    }

    fn apply(&mut self, effect: &Effect, out: &mut Vec<Output>) {
        match effect {
            Effect::SetFlag(flag) => {
                self.story.flags.insert(flag.clone());
            }
            Effect::ClearFlag(flag) => {
                self.story.flags.remove(flag);
            }
            Effect::Narrate(text) => out.push(Output::Narrate(text.clone())),
            _ => {
                // A rumor is heard as a cry before the world feels it.
                if let Effect::Rumor { cry, .. } = effect {
                    out.push(Output::Narrate(cry.clone()));
                }
                let scene = Arc::clone(&self.scene);
                out.extend(
                    self.battle
                        .apply(&scene, effect)
                        .into_iter()
                        .map(Output::Chronicle),
                );
            }
        }
    }

    /// Fires events, checks endings, and puts or decides turning points until
    /// nothing more happens now.
    fn settle(&mut self, out: &mut Vec<Output>) {
        let scene = Arc::clone(&self.scene);
        // Bounded: each pass marks at least one event or point as done.
        let limit = scene.events().len() + scene.turning_points().len() + 2;
        for _ in 0..limit {
            let mut world = self.battle.state();
            let mut fired = false;
            for event in scene.events() {
                if self.story.happened.contains(&event.id)
                    || !self.holds(&event.when, &world, &event.id)
                {
                    continue;
                }
                self.story.happened.push(event.id.clone());
                out.push(Output::Event {
                    id: event.id.clone(),
                });
                for effect in &event.effects {
                    self.apply(effect, out);
                }
                world = self.battle.state();
                fired = true;
            }
            if let Some(ending) = scene
                .endings()
                .iter()
                .find(|e| self.holds(&e.when, &world, &e.id))
            {
                self.end(&ending.id, out);
                return;
            }
            let reached: Vec<&str> = self
                .story
                .chosen
                .iter()
                .map(|(tp, _)| tp.as_str())
                .collect();
            let next_tp = scene.turning_points().iter().find(|tp| {
                !reached.contains(&tp.id.as_str()) && self.holds(&tp.when, &world, &tp.id)
            });
            match next_tp {
                Some(tp) if tp.role == self.role && self.player_policy.is_none() => {
                    self.story.pending = Some(tp.id.clone());
                    out.push(Output::Situation { tp: tp.id.clone() });
                    return;
                }
                Some(tp) => {
                    let policy = if tp.role == self.role {
                        self.player_policy.unwrap_or_default()
                    } else {
                        self.policy
                    };
                    let idx = match policy {
                        Policy::Historical => {
                            tp.options.iter().position(|o| o.historical).unwrap_or(0)
                        }
                        Policy::Random => self.policy_rng.index(tp.options.len()),
                    };
                    let id = tp.id.clone();
                    self.decide(&id, idx, false, out);
                }
                None if !fired => break,
                None => {}
            }
        }
        if self.turn() >= scene.meta().max_turns && self.story.pending.is_none() {
            let timeout = scene.meta().timeout_ending.clone();
            self.end(&timeout, out);
        }
    }

    fn end(&mut self, id: &str, out: &mut Vec<Output>) {
        self.story.ended = Some(id.to_string());
        self.story.pending = None;
        out.push(Output::Ending { id: id.to_string() });
    }

    /// Whether a condition holds now.
    pub fn holds(&self, condition: &Condition, world: &WorldState, owner: &str) -> bool {
        let scene = &self.scene;
        let field = self.battle.field();
        let turn = f64::from(world.turn);
        match condition {
            Condition::Always => true,
            Condition::Never => false,
            Condition::All(items) => items.iter().all(|c| self.holds(c, world, owner)),
            Condition::Any(items) => items.iter().any(|c| self.holds(c, world, owner)),
            Condition::Not(item) => !self.holds(item, world, owner),
            Condition::Chance(p) => luck(self.seed, world.turn, owner, *p) < *p,
            Condition::Turn(cmp) => compare(cmp, turn),
            Condition::Minute(cmp) => {
                let meta = scene.meta();
                compare(
                    cmp,
                    f64::from(meta.start_minute) + turn * f64::from(meta.turn_minutes),
                )
            }
            Condition::Chosen { tp, option } => self
                .story
                .chosen
                .iter()
                .any(|(t, o)| t == tp && o == option),
            Condition::Reached(tp) => self.story.chosen.iter().any(|(t, _)| t == tp),
            Condition::Happened(event) => self.story.happened.contains(event),
            Condition::Flag(flag) => self.story.flags.contains(flag),
            Condition::UnitState { unit, is } => scene
                .unit_idx(unit)
                .and_then(|idx| world.units.get(idx))
                .is_some_and(|u| u.location.present && is.contains(&u.morale.state)),
            Condition::UnitIn { unit, zone } => {
                let zone = scene.zone_idx(zone);
                scene
                    .unit_idx(unit)
                    .and_then(|idx| world.units.get(idx))
                    .is_some_and(|u| {
                        u.location.present
                            && Some(u.location.zone) == zone
                            && u.morale.state.can_fight_or_flee()
                    })
            }
            Condition::UnitMen { unit, cmp } => scene
                .unit_idx(unit)
                .and_then(|idx| world.units.get(idx))
                .is_some_and(|u| compare(cmp, f64::from(u.men))),
            Condition::UnitMorale { unit, cmp } => scene
                .unit_idx(unit)
                .and_then(|idx| world.units.get(idx))
                .is_some_and(|u| compare(cmp, u.morale.value)),
            Condition::CommanderIn { commander, zone } => {
                let zone = scene.zone_idx(zone);
                scene
                    .commander_idx(commander)
                    .and_then(|idx| world.commanders.get(idx))
                    .is_some_and(|c| Some(c.zone) == zone)
            }
            Condition::SideStrength { side, cmp } => scene.side_idx(side).is_some_and(|side| {
                let start = world.side_start_men(field, side);
                let share = if start == 0 {
                    0.0
                } else {
                    f64::from(world.side_men(field, side)) / f64::from(start)
                };
                compare(cmp, share)
            }),
            Condition::SideLosses { side, cmp } => scene
                .side_idx(side)
                .is_some_and(|side| compare(cmp, f64::from(world.side_losses(field, side)))),
            Condition::SideRouting { side, cmp } => scene
                .side_idx(side)
                .is_some_and(|side| compare(cmp, world.side_routing(field, side))),
            Condition::SideMenIn { side, zone, cmp } => {
                match (scene.side_idx(side), scene.zone_idx(zone)) {
                    (Some(side), Some(zone)) => {
                        compare(cmp, f64::from(world.side_men_in(field, side, zone)))
                    }
                    _ => false,
                }
            }
            Condition::SideCrossed { side, zone, cmp } => {
                match (scene.side_idx(side), scene.zone_idx(zone)) {
                    (Some(side), Some(zone)) => {
                        let crossed = world
                            .zones
                            .get(zone)
                            .and_then(|z| z.passage.crossed.get(side))
                            .copied()
                            .unwrap_or(0);
                        compare(cmp, f64::from(crossed))
                    }
                    _ => false,
                }
            }
            Condition::Smoke { zone, cmp } => scene
                .zone_idx(zone)
                .and_then(|z| world.zones.get(z))
                .is_some_and(|z| compare(cmp, z.burning.smoke)),
            Condition::Fire { zone, cmp } => scene
                .zone_idx(zone)
                .and_then(|z| world.zones.get(z))
                .is_some_and(|z| compare(cmp, z.burning.fire)),
            Condition::Wind(cmp) => compare(cmp, world.weather.wind),
            Condition::Passable(zone) => scene
                .zone_idx(zone)
                .and_then(|z| world.zones.get(z))
                .is_some_and(|z| z.passage.intact),
            Condition::Obscured { zone, by, cmp } => {
                match (scene.zone_idx(zone), scene.obscurant_idx(by)) {
                    (Some(zone), Some(by)) => world
                        .zones
                        .get(zone)
                        .is_some_and(|z| compare(cmp, z.haze.level(by))),
                    _ => false,
                }
            }
            Condition::Fallen(commander) => scene
                .commander_idx(commander)
                .and_then(|idx| world.commanders.get(idx))
                .is_some_and(|c| c.fallen.is_some()),
            Condition::TurnsSince(id, cmp) => {
                let since = self.story.since.get(id).copied().or_else(|| {
                    // Not stamped yet: it happened in this turn's settling.
                    let now = self.story.happened.contains(id)
                        || self.story.chosen.iter().any(|(tp, _)| tp == id)
                        || self.story.flags.contains(id);
                    now.then_some(world.turn)
                });
                since.is_some_and(|at| compare(cmp, f64::from(world.turn.saturating_sub(at))))
            }
        }
    }
}

/// Calls `f` on every condition of a scene (the `when` of every turning
/// point, event and ending), not looking inside them.
fn for_each_condition(scene: &Scene, f: &mut dyn FnMut(&Condition)) {
    scene.turning_points().iter().for_each(|tp| f(&tp.when));
    scene.events().iter().for_each(|event| f(&event.when));
    scene.endings().iter().for_each(|ending| f(&ending.when));
}

/// The ids named by `TurnsSince` anywhere in a condition.
fn watch(condition: &Condition, out: &mut BTreeSet<String>) {
    match condition {
        Condition::TurnsSince(id, _) => {
            out.insert(id.clone());
        }
        Condition::All(items) | Condition::Any(items) => {
            items.iter().for_each(|item| watch(item, out));
        }
        Condition::Not(item) => watch(item, out),
        _ => {}
    }
}

/// A uniform number in [0, 1) fixed by the seed, the turn, the item and the
/// probability asked: chance in conditions without drawing from any stream,
/// so reading a condition twice gives the same answer and replays are exact.
fn luck(seed: u64, turn: u32, owner: &str, p: f64) -> f64 {
    let key = format!("{seed}:{turn}:{owner}:{}", p.to_bits());
    let hash = crate::scene::content_hash(&key);
    let mixed = crate::sim::rng::BattleRng::from_seed(hash).unit();
    mixed.clamp(0.0, 1.0)
}

fn compare(cmp: &Cmp, value: f64) -> bool {
    match *cmp {
        Cmp::AtLeast(x) => value >= x,
        Cmp::AtMost(x) => value <= x,
        Cmp::Above(x) => value > x,
        Cmp::Below(x) => value < x,
    }
}

/// Fills an ending's `{placeholders}` from the world.
pub fn fill_summary(template: &str, scene: &Scene, game: &mut Game) -> String {
    let world = game.world();
    let field = game.field().clone();
    let mut text = template.to_string();
    for (idx, side) in scene.sides().iter().enumerate() {
        text = text.replace(
            &format!("{{losses:{}}}", side.id),
            &group_thousands(world.side_losses(&field, idx)),
        );
        text = text.replace(
            &format!("{{men:{}}}", side.id),
            &group_thousands(world.side_men(&field, idx)),
        );
    }
    let minute = game.minute();
    text.replace("{turn}", &world.turn.to_string())
        .replace("{time}", &clock(minute))
}

/// "HH:MM" for minutes after midnight (wrapping into the next day).
pub fn clock(minute: u32) -> String {
    let minute = minute % (24 * 60);
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// 12345 → "12,345".
pub fn group_thousands(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luck_is_fixed_by_seed_turn_and_item_and_fair() {
        assert_eq!(luck(1, 3, "a", 0.5), luck(1, 3, "a", 0.5));
        assert_ne!(luck(1, 3, "a", 0.5), luck(1, 4, "a", 0.5));
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
            game.story().flags.contains("lucky")
        };
        let hits = (0..60).filter(|seed| lucky_after_one_turn(*seed)).count();
        assert!((15..=45).contains(&hits), "about half of 60 seeds: {hits}");
        assert!((0..20).all(|seed| lucky_after_one_turn(seed) == lucky_after_one_turn(seed)));
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
                first_turn.entry(id).or_insert(game.turn());
            }
        }
        let at = |id: &str| first_turn.get(id).copied();
        assert_eq!(at("signal"), Some(2));
        assert_eq!(at("same-turn"), Some(2));
        assert_eq!(at("flag-after"), Some(3));
        assert_eq!(at("two-after"), Some(4));
        assert_eq!(at("khan-fallen"), Some(4));
        assert_eq!(game.story().since.get("signal"), Some(&2));
        // Undo rewinds the turns noted with the rest.
        game.undo().expect("undo");
        game.undo().expect("undo");
        game.next().expect("a turn");
        game.next().expect("a turn");
        assert_eq!(game.story().since.get("signal"), Some(&2));
    }

    #[test]
    fn the_prelude_is_told_and_done_before_turn_zero_settles() {
        let scene = Arc::new(crate::sim::testing::small_scene(|mut raw| {
            raw.prelude = Some(crate::scene::Prelude {
                text: Some(Text::Plain("Before dawn.".into())),
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
            Some(&Output::Narrate(Text::Plain("Before dawn.".into())))
        );
        assert_eq!(game.turn(), 0);
        assert!(game.story().flags.contains("opening"));
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
                    text: Text::Plain(String::new()),
                    summary: Text::Plain(String::new()),
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
        assert_eq!(game.story().ended.as_deref(), Some("over"));
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
    fn clock_and_thousands() {
        assert_eq!(clock(900), "15:00");
        assert_eq!(clock(1500), "01:00");
        assert_eq!(group_thousands(1234567), "1,234,567");
        assert_eq!(group_thousands(12), "12");
    }
}
