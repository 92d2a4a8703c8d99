//! What the `when` of each event, ending and turning point comes to on the
//! story's own marks and the turn alone, kept between settlings.
//!
//! Most of these conditions are decided without the world: an event waits
//! for a turn or for a choice that was not made, and stays that way for many
//! settlings. Conditions are pure, so a verdict on the marks and the turn
//! stands until a mark the condition reads changes or the turn leaves the
//! span of turns over which every turn comparison it made keeps its answer.
//! Only a condition the world decides (`Open`) is then read in full, from
//! the battle's facts. A `Chance` is left open too: it is keyed by the
//! seed, the turn and its owner, and read in full it is drawn only when the
//! items before it in an `All` hold (most of its turns they do not), where
//! a verdict drew it at every turn; the seed and the turn change only with
//! the facts' stamp (a restore, a turn), so an answer kept against the
//! stamp stands for it as for the world.

use super::{Game, Marks, compare};
use crate::scene::resolved::{Resolved, Watch};
use crate::scene::{Cmp, Cond};
use crate::sim::Parts;
use std::ops::Range;

/// A condition's answer on the marks and the turn alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    Holds,
    Fails,
    /// The world decides: read it in full.
    Open,
}

/// A verdict and the turns (inclusive) over which it stands, while the
/// marks it read are unchanged: from the turn it was read on (turns go back
/// only by a restore, which forgets every verdict with the marks) to the
/// last before a turn comparison in it changes its answer. Small, so that
/// reading a condition's parts passes it in registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Reading {
    verdict: Verdict,
    from: u32,
    to: u32,
}

impl Reading {
    const ALWAYS: (u32, u32) = (0, u32::MAX);

    fn new(verdict: Verdict, (from, to): (u32, u32)) -> Reading {
        Reading { verdict, from, to }
    }

    fn of(holds: bool, span: (u32, u32)) -> Reading {
        let verdict = if holds {
            Verdict::Holds
        } else {
            Verdict::Fails
        };
        Reading::new(verdict, span)
    }

    /// This verdict over the turns both this and `other` stand.
    fn narrowed(self, other: Reading) -> Reading {
        Reading {
            verdict: self.verdict,
            from: self.from.max(other.from),
            to: self.to.min(other.to),
        }
    }
}

/// A reading kept for a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Known {
    verdict: Verdict,
    from: u32,
    to: u32,
    /// An open verdict's answer, read in full from the battle's facts, and
    /// the stamp of the facts it was read from
    /// ([`crate::sim::Battle::facts_stamp`]): it stands while they are the
    /// same, and this verdict (so the marks it read and the turn) stands.
    answer: Option<(u64, bool)>,
    /// The marks the verdict read ([`mark_bit`]): only a change to one of
    /// them can change it.
    consulted: u64,
}

impl Known {
    /// No verdict: its span holds no turn.
    const NONE: Known = Known {
        verdict: Verdict::Open,
        from: 1,
        to: 0,
        answer: None,
        consulted: u64::MAX,
    };

    /// `reading` kept, read from the marks `consulted`, with no answer yet.
    fn kept(Reading { verdict, from, to }: Reading, consulted: u64) -> Known {
        Known {
            verdict,
            from,
            to,
            answer: None,
            consulted,
        }
    }
}

/// Mark `mark`'s bit in a set of marks read ([`Known::consulted`]): marks
/// share a bit 64 apart, so a set may name more marks than were read (their
/// change forgets a verdict that stood: never wrong, only read again).
fn mark_bit(mark: usize) -> u64 {
    1 << (mark % 64)
}

/// The conditions kept here, numbered: the events' `when`s, then the
/// endings', then the turning points'. And the marks they read, numbered:
/// events, turning points, flags, then the ids `TurnsSince` watches.
#[derive(Debug, Clone, Default)]
pub(super) struct Readers {
    n_events: usize,
    n_endings: usize,
    n_tps: usize,
    n_flags: usize,
    /// Per mark, the conditions that read it.
    of_mark: Vec<Vec<u32>>,
    /// Per condition, the parts of the battle's facts it reads: only those
    /// are captured for it.
    parts: Vec<Parts>,
}

impl Readers {
    /// The readers of `resolved`'s marks.
    pub(super) fn of(resolved: &Resolved) -> Readers {
        let mut readers = Readers {
            n_events: resolved.events.len(),
            n_endings: resolved.endings.len(),
            n_tps: resolved.turning_points.len(),
            n_flags: resolved.flags.len(),
            of_mark: Vec::new(),
            parts: Vec::new(),
        };
        readers.of_mark = vec![Vec::new(); readers.n_marks(resolved)];
        let whens = resolved
            .events
            .iter()
            .map(|e| &e.when)
            .chain(resolved.endings.iter().map(|e| &e.when))
            .chain(resolved.turning_points.iter().map(|t| &t.when));
        let mut marks = Vec::new();
        for (slot, when) in whens.enumerate() {
            readers.parts.push(parts_read(when));
            marks.clear();
            readers.marks_read(when, resolved, &mut marks);
            marks.sort_unstable();
            marks.dedup();
            for &mark in &marks {
                if let (Some(list), Ok(slot)) = (readers.of_mark.get_mut(mark), u32::try_from(slot))
                {
                    list.push(slot);
                }
            }
        }
        readers
    }

    fn n_marks(&self, resolved: &Resolved) -> usize {
        self.n_events + self.n_tps + self.n_flags + resolved.watched.len()
    }

    pub(super) fn event_slot(&self, event: usize) -> usize {
        event
    }
    pub(super) fn ending_slot(&self, ending: usize) -> usize {
        self.n_events + ending
    }
    pub(super) fn tp_slot(&self, tp: usize) -> usize {
        self.n_events + self.n_endings + tp
    }

    /// The slots of the events' conditions, in file order.
    pub(super) fn event_slots(&self) -> Range<usize> {
        self.event_slot(0)..self.event_slot(self.n_events)
    }
    /// The slots of the endings' conditions, in file order.
    pub(super) fn ending_slots(&self) -> Range<usize> {
        self.ending_slot(0)..self.ending_slot(self.n_endings)
    }
    /// The slots of the turning points' conditions, in file order.
    pub(super) fn tp_slots(&self) -> Range<usize> {
        self.tp_slot(0)..self.tp_slot(self.n_tps)
    }

    fn event_mark(&self, event: usize) -> usize {
        event
    }
    fn tp_mark(&self, tp: usize) -> usize {
        self.n_events + tp
    }
    fn flag_mark(&self, flag: usize) -> usize {
        self.n_events + self.n_tps + flag
    }
    fn watch_mark(&self, watch: usize) -> usize {
        self.n_events + self.n_tps + self.n_flags + watch
    }

    /// The marks a `TurnsSince` of watched id `idx` reads: its turn, and
    /// (before it is noted) whether it has happened.
    fn watch_marks(&self, idx: usize, watch: &Watch) -> impl Iterator<Item = usize> {
        std::iter::once(self.watch_mark(idx))
            .chain(watch.event.map(|e| self.event_mark(e.idx())))
            .chain(watch.tp.map(|t| self.tp_mark(t.idx())))
            .chain(watch.flag.map(|f| self.flag_mark(f.idx())))
    }

    /// [`Readers::watch_marks`] as a set of marks read ([`mark_bit`]).
    fn watch_bits(&self, idx: usize, watch: &Watch) -> u64 {
        self.watch_marks(idx, watch)
            .fold(0, |bits, mark| bits | mark_bit(mark))
    }

    /// The marks `cond` reads, pushed onto `out`.
    fn marks_read(&self, cond: &Cond, resolved: &Resolved, out: &mut Vec<usize>) {
        match cond {
            Cond::All(items) | Cond::Any(items) => {
                for item in items {
                    self.marks_read(item, resolved, out);
                }
            }
            Cond::Not(item) => self.marks_read(item, resolved, out),
            Cond::Chosen { tp, .. } | Cond::Reached(tp) => out.push(self.tp_mark(tp.idx())),
            Cond::Happened(event) => out.push(self.event_mark(event.idx())),
            Cond::Flag(flag) => out.push(self.flag_mark(flag.idx())),
            Cond::TurnsSince(id, _) => {
                if let Some(watch) = resolved.watched.get(id.idx()) {
                    out.extend(self.watch_marks(id.idx(), watch));
                }
            }
            _ => {}
        }
    }
}

/// The parts of the battle's facts `cond` reads (as [`Game::check`] reads
/// it; the turn is in every part).
fn parts_read(cond: &Cond) -> Parts {
    match cond {
        Cond::All(items) | Cond::Any(items) => items
            .iter()
            .fold(Parts::NONE, |parts, item| parts.with(parts_read(item))),
        Cond::Not(item) => parts_read(item),
        Cond::Always
        | Cond::Never
        | Cond::Turn(_)
        | Cond::Minute(_)
        | Cond::Chance(_)
        | Cond::Chosen { .. }
        | Cond::Reached(_)
        | Cond::Happened(_)
        | Cond::Flag(_)
        | Cond::TurnsSince(..)
        | Cond::Playing(_)
        | Cond::PlayerSide(_) => Parts::NONE,
        Cond::UnitState { .. }
        | Cond::UnitIn { .. }
        | Cond::UnitMen { .. }
        | Cond::UnitMorale { .. }
        | Cond::SideStrength { .. }
        | Cond::SideLosses { .. }
        | Cond::SideRouting { .. }
        | Cond::SideMenIn { .. } => Parts::UNITS,
        Cond::CommanderIn { .. } | Cond::Fallen(_) => Parts::COMMANDERS,
        Cond::SideCrossed { .. }
        | Cond::Smoke { .. }
        | Cond::Fire { .. }
        | Cond::Passable(_)
        | Cond::Obscured { .. } => Parts::ZONES,
        Cond::Wind(_) | Cond::WindToward(_) | Cond::Sees { .. } => Parts::SKY,
    }
}

/// The verdicts kept, by condition; [`Known::NONE`] until read, or since a
/// mark it reads changed.
///
/// A condition whose kept verdict fails, and stands until a later turn,
/// *sleeps*: settling does not visit it (its answer is known: it does not
/// hold) until a mark it reads changes or the turn leaves its span. Most
/// conditions wait so, for a turn or a choice, most of a game: settling
/// walks only the others.
#[derive(Debug, Clone, Default)]
pub(super) struct Verdicts {
    known: Vec<Known>,
    /// Per condition, a bit (64 a word): set when it is awake, that is
    /// settling must read it.
    awake: Vec<u64>,
    /// Per condition, a bit: set when what it decides is done (its event
    /// happened, its turning point was decided), so that settling never
    /// visits it again, awake or not.
    done: Vec<u64>,
    /// Per condition, a bit: set when its verdict, kept asleep, stands only
    /// to a turn (the others sleep until a mark they read changes): the
    /// sleepers [`Verdicts::wake`] looks at. Left set when it wakes (an
    /// awake bit hides it).
    timed: Vec<u64>,
    /// The first turn past the span of some sleeping verdict: the turn from
    /// which [`Verdicts::wake`] has sleepers to wake.
    wakes_at: u32,
}

/// The verdicts every game of a [`Game`] opens with (its marks fresh, at
/// the opening turn), read at its first restart and written into the
/// marks at each one after: the same whatever the seed (a `Chance` is
/// left open).
#[derive(Debug, Clone)]
pub(super) struct Opening {
    turn: u32,
    verdicts: Verdicts,
}

impl Verdicts {
    /// None kept, for `n` conditions.
    pub(super) fn new(n: usize) -> Verdicts {
        let mut verdicts = Verdicts {
            known: vec![Known::NONE; n],
            awake: vec![0; n.div_ceil(64)],
            done: vec![0; n.div_ceil(64)],
            timed: vec![0; n.div_ceil(64)],
            wakes_at: u32::MAX,
        };
        verdicts.forget_all();
        verdicts
    }

    /// These verdicts made the same as `other`'s (of as many conditions),
    /// reusing their memory.
    fn copy_from(&mut self, other: &Verdicts) {
        self.known.clone_from(&other.known);
        self.awake.clone_from(&other.awake);
        self.done.clone_from(&other.done);
        self.timed.clone_from(&other.timed);
        self.wakes_at = other.wakes_at;
    }

    /// The conditions kept for (events, endings and turning points).
    pub(super) fn len(&self) -> usize {
        self.known.len()
    }

    /// Forgets every verdict.
    pub(super) fn forget_all(&mut self) {
        self.known.fill(Known::NONE);
        self.awake.fill(u64::MAX);
        self.done.fill(0);
        self.timed.fill(0);
        self.wakes_at = u32::MAX;
    }

    /// Forgets the verdicts of `readers` (the conditions that read a mark)
    /// that read the mark of `bit` ([`mark_bit`]) when they were read: a
    /// verdict decided before it reached that mark (an `All` that fails on
    /// its first item) stands whatever the mark says.
    fn forget(&mut self, readers: &[u32], bit: u64) {
        for &slot in readers {
            let slot = slot as usize;
            if let Some(known) = self.known.get_mut(slot)
                && known.consulted & bit != 0
            {
                *known = Known::NONE;
                self.set_awake(slot, true);
            }
        }
    }

    fn set_awake(&mut self, slot: usize, awake: bool) {
        if let Some(word) = self.awake.get_mut(slot / 64) {
            let bit = 1 << (slot % 64);
            if awake {
                *word |= bit;
            } else {
                *word &= !bit;
            }
        }
    }

    /// `slot` is done for good (until a restore or restart forgets all).
    fn set_done(&mut self, slot: usize) {
        if let Some(word) = self.done.get_mut(slot / 64) {
            *word |= 1 << (slot % 64);
        }
    }

    #[cfg(debug_assertions)]
    fn is_awake(&self, slot: usize) -> bool {
        self.awake
            .get(slot / 64)
            .is_none_or(|word| word & (1 << (slot % 64)) != 0)
    }

    /// Keeps `slot`'s verdict, read now from the marks `consulted`: it
    /// sleeps if it fails over a span.
    fn keep(&mut self, slot: usize, known: Reading, consulted: u64) {
        let Some(kept) = self.known.get_mut(slot) else {
            return;
        };
        *kept = Known::kept(known, consulted);
        let sleeps = known.verdict == Verdict::Fails && known.from <= known.to;
        self.set_awake(slot, !sleeps);
        let timed = sleeps && known.to < u32::MAX;
        if let Some(word) = self.timed.get_mut(slot / 64) {
            let bit = 1 << (slot % 64);
            if timed {
                *word |= bit;
            } else {
                *word &= !bit;
            }
        }
        if timed {
            self.wakes_at = self.wakes_at.min(known.to + 1);
        }
    }

    /// Wakes the sleepers whose span `turn` has left (turns only go on
    /// between restores, which forget every verdict).
    pub(super) fn wake(&mut self, turn: u32) {
        if turn < self.wakes_at {
            return;
        }
        self.wakes_at = u32::MAX;
        for (word_idx, (word, timed)) in self.awake.iter_mut().zip(&self.timed).enumerate() {
            // The sleepers of this word that wait for a turn, one bit at a
            // time.
            let mut sleeping = !*word & timed;
            while sleeping != 0 {
                let bit = sleeping.trailing_zeros();
                sleeping &= sleeping - 1;
                let Some(known) = self.known.get(word_idx * 64 + bit as usize) else {
                    break;
                };
                if known.to < turn {
                    *word |= 1 << bit;
                } else {
                    self.wakes_at = self.wakes_at.min(known.to.saturating_add(1));
                }
            }
        }
    }

    /// The first awake slot in `slots` that is not done.
    pub(super) fn next_awake(&self, slots: Range<usize>) -> Option<usize> {
        let mut slot = slots.start;
        while slot < slots.end {
            let Some(&word) = self.awake.get(slot / 64) else {
                // Beyond the bits kept: awake.
                return Some(slot);
            };
            let done = self.done.get(slot / 64).copied().unwrap_or(0);
            let rest = (word & !done) >> (slot % 64);
            if rest != 0 {
                let found = slot + rest.trailing_zeros() as usize;
                return (found < slots.end).then_some(found);
            }
            slot = (slot / 64 + 1) * 64;
        }
        None
    }

    /// The verdict kept for `slot`, if it stands at `turn`.
    fn at(&self, slot: usize, turn: u32) -> Option<Verdict> {
        let known = self.known.get(slot)?;
        (known.from <= turn && turn <= known.to).then_some(known.verdict)
    }

    /// The answer kept for `slot`'s open verdict, if it was read from the
    /// facts stamped `stamp`.
    fn answer(&self, slot: usize, stamp: u64) -> Option<bool> {
        match self.known.get(slot)?.answer {
            Some((read_from, holds)) if read_from == stamp => Some(holds),
            _ => None,
        }
    }

    /// Keeps `slot`'s answer, read from the facts stamped `stamp`.
    fn keep_answer(&mut self, slot: usize, stamp: u64, holds: bool) {
        if let Some(known) = self.known.get_mut(slot) {
            known.answer = Some((stamp, holds));
        }
    }
}

impl Marks {
    /// Forgets the verdicts of the conditions that read mark `mark`.
    fn changed(&mut self, readers: &Readers, mark: usize) {
        if let Some(list) = readers.of_mark.get(mark) {
            self.verdicts.forget(list, mark_bit(mark));
        }
    }

    /// The event has happened.
    pub(super) fn set_happened(&mut self, readers: &Readers, event: usize) {
        self.happened[event] = true;
        self.changed(readers, readers.event_mark(event));
        self.verdicts.set_done(readers.event_slot(event));
    }

    /// The turning point was decided, with `option`.
    pub(super) fn set_chosen(&mut self, readers: &Readers, tp: usize, option: Option<u32>) {
        self.reached[tp] = true;
        self.chosen[tp] = option;
        self.changed(readers, readers.tp_mark(tp));
        self.verdicts.set_done(readers.tp_slot(tp));
    }

    /// The flag was set or cleared.
    pub(super) fn set_flag(&mut self, readers: &Readers, flag: usize, set: bool) {
        self.flags[flag] = set;
        self.changed(readers, readers.flag_mark(flag));
    }

    /// The watched id was noted at a turn, or no longer is.
    pub(super) fn set_since(&mut self, readers: &Readers, watch: usize, at: Option<u32>) {
        self.since[watch] = at;
        self.changed(readers, readers.watch_mark(watch));
    }
}

impl Game {
    /// Gives the fresh marks of a restarted game (built from an empty
    /// story, nothing applied yet) the verdicts every game opens with.
    pub(super) fn open_verdicts(&mut self) {
        let turn = self.turn();
        if self.opening.as_ref().is_none_or(|o| o.turn != turn) {
            let scene = std::sync::Arc::clone(&self.scene);
            let resolved = scene.resolved();
            let whens = (scene.events().iter().zip(&resolved.events))
                .map(|(e, r)| (&r.when, e.id.as_str()))
                .chain(
                    (scene.endings().iter().zip(&resolved.endings))
                        .map(|(e, r)| (&r.when, e.id.as_str())),
                )
                .chain(
                    (scene.turning_points().iter().zip(&resolved.turning_points))
                        .map(|(t, r)| (&r.when, t.id.as_str())),
                );
            let mut verdicts = Verdicts::new(self.marks.verdicts.known.len());
            for (slot, (when, owner)) in whens.enumerate() {
                let mut consulted = 0;
                let known = self.verdict(when, owner, turn, &mut consulted);
                verdicts.keep(slot, known, consulted);
            }
            self.opening = Some(Opening { turn, verdicts });
        }
        if let Some(opening) = &self.opening {
            self.marks.verdicts.copy_from(&opening.verdicts);
        }
    }

    /// The verdicts a look-ahead game of a greedy round opens with: on the
    /// first (`round` empty), every condition settling would read (its
    /// event not happened, its point not decided) read now and kept, and
    /// kept in `round` too; on the others, the verdicts kept in `round`
    /// written into these marks. Every game of a round opens on the same
    /// marks, turn and seed (`greedy.rs`), so each reads what the first
    /// read, before its option is taken (a verdict that read a mark the
    /// option changes is forgotten then, as ever).
    pub(super) fn round_verdicts(&mut self, round: &mut Option<Verdicts>) {
        if let Some(kept) = round {
            self.marks.verdicts.copy_from(kept);
            return;
        }
        let turn = self.turn();
        let scene = std::sync::Arc::clone(&self.scene);
        let resolved = scene.resolved();
        let events = (scene.events().iter().zip(&resolved.events))
            .enumerate()
            .map(|(idx, (e, r))| {
                (
                    self.readers.event_slots().start + idx,
                    &r.when,
                    e.id.as_str(),
                )
            })
            .filter(|(slot, ..)| {
                let idx = slot - self.readers.event_slots().start;
                !self.marks.happened.get(idx).copied().unwrap_or(true)
            });
        let endings = (scene.endings().iter().zip(&resolved.endings))
            .enumerate()
            .map(|(idx, (e, r))| {
                (
                    self.readers.ending_slots().start + idx,
                    &r.when,
                    e.id.as_str(),
                )
            });
        let tps = (scene.turning_points().iter().zip(&resolved.turning_points))
            .enumerate()
            .map(|(idx, (t, r))| (self.readers.tp_slots().start + idx, &r.when, t.id.as_str()))
            .filter(|(slot, ..)| {
                let idx = slot - self.readers.tp_slots().start;
                !self.marks.reached.get(idx).copied().unwrap_or(true)
            });
        let open: Vec<_> = events.chain(endings).chain(tps).collect();
        for (slot, when, owner) in open {
            let mut consulted = 0;
            let known = self.verdict(when, owner, turn, &mut consulted);
            self.marks.verdicts.keep(slot, known, consulted);
        }
        *round = Some(self.marks.verdicts.clone());
    }

    /// Debug builds: every sleeping verdict stands now and fails, and the
    /// world agrees (settling does not read them).
    #[cfg(debug_assertions)]
    pub(super) fn check_sleepers(&mut self) {
        let turn = self.turn();
        self.battle.refresh_facts();
        let scene = std::sync::Arc::clone(&self.scene);
        let resolved = scene.resolved();
        let whens = (scene.events().iter().zip(&resolved.events))
            .map(|(e, r)| (&r.when, e.id.as_str()))
            .chain(
                (scene.endings().iter().zip(&resolved.endings))
                    .map(|(e, r)| (&r.when, e.id.as_str())),
            )
            .chain(
                (scene.turning_points().iter().zip(&resolved.turning_points))
                    .map(|(t, r)| (&r.when, t.id.as_str())),
            );
        for (slot, (when, owner)) in whens.enumerate() {
            if self.marks.verdicts.is_awake(slot) {
                continue;
            }
            assert_eq!(
                self.marks.verdicts.at(slot, turn),
                Some(Verdict::Fails),
                "{owner} sleeps without a failing verdict at turn {turn}"
            );
            assert!(
                !self.check(when, self.battle.facts(), owner),
                "{owner} sleeps but holds at turn {turn}"
            );
        }
    }

    /// Whether the condition kept in `slot`, `when` (owned by `owner`),
    /// holds now: from its verdict on the marks and the turn when that
    /// stands, else read in full from the battle's facts.
    #[inline]
    pub(super) fn holds_now(&mut self, slot: usize, when: &Cond, owner: &str) -> bool {
        let turn = self.turn();
        let verdict = match self.marks.verdicts.at(slot, turn) {
            Some(verdict) => verdict,
            None => {
                let mut consulted = 0;
                let known = self.verdict(when, owner, turn, &mut consulted);
                self.marks.verdicts.keep(slot, known, consulted);
                known.verdict
            }
        };
        let holds = match verdict {
            Verdict::Holds => true,
            Verdict::Fails => false,
            Verdict::Open => {
                // Read in full, unless it was since the facts last changed
                // (a pass of the settling after an event that left them be),
                // from the parts of the facts it reads, brought up to date.
                let parts = self.readers.parts.get(slot).copied().unwrap_or(Parts::ALL);
                self.battle.refresh_facts_of(parts);
                let stamp = self.battle.facts_stamp();
                let holds = match self.marks.verdicts.answer(slot, stamp) {
                    Some(holds) => holds,
                    None => {
                        let holds = self.check(when, self.battle.facts_of(parts), owner);
                        self.marks.verdicts.keep_answer(slot, stamp, holds);
                        holds
                    }
                };
                #[cfg(debug_assertions)]
                {
                    self.battle.refresh_facts();
                    assert_eq!(
                        holds,
                        self.check(when, self.battle.facts(), owner),
                        "the kept answer of {owner} is out of step with the world"
                    );
                }
                return holds;
            }
        };
        #[cfg(debug_assertions)]
        {
            self.battle.refresh_facts();
            debug_assert_eq!(
                holds,
                self.check(when, self.battle.facts(), owner),
                "the kept verdict of {owner} is out of step with the world"
            );
        }
        holds
    }

    /// What `cond` comes to at `turn` on the story's marks alone, and the
    /// turns over which that stands (as [`Game::check`] reads it). The marks
    /// it reads on the way are added to `consulted` ([`mark_bit`]): an item
    /// after the one that decides an `All` or `Any` is not read, and the
    /// verdict (and an answer read from the world under it, which reads no
    /// other mark to another end) stands whatever its marks say.
    fn verdict(&self, cond: &Cond, owner: &str, turn: u32, consulted: &mut u64) -> Reading {
        match cond {
            Cond::All(items) => {
                let mut all = Reading::new(Verdict::Holds, Reading::ALWAYS);
                for item in items {
                    let known = self.verdict_item(item, owner, turn, consulted);
                    all = all.narrowed(known);
                    match known.verdict {
                        Verdict::Fails => {
                            return Reading {
                                verdict: Verdict::Fails,
                                ..all
                            };
                        }
                        Verdict::Open => all.verdict = Verdict::Open,
                        Verdict::Holds => {}
                    }
                }
                all
            }
            Cond::Any(items) => {
                let mut any = Reading::new(Verdict::Fails, Reading::ALWAYS);
                for item in items {
                    let known = self.verdict_item(item, owner, turn, consulted);
                    any = any.narrowed(known);
                    match known.verdict {
                        Verdict::Holds => {
                            return Reading {
                                verdict: Verdict::Holds,
                                ..any
                            };
                        }
                        Verdict::Open => any.verdict = Verdict::Open,
                        Verdict::Fails => {}
                    }
                }
                any
            }
            Cond::Not(item) => {
                let known = self.verdict_item(item, owner, turn, consulted);
                let verdict = match known.verdict {
                    Verdict::Holds => Verdict::Fails,
                    Verdict::Fails => Verdict::Holds,
                    Verdict::Open => Verdict::Open,
                };
                Reading { verdict, ..known }
            }
            _ => self.verdict_item(cond, owner, turn, consulted),
        }
    }

    /// [`Game::verdict`] of one condition, read in line: most items of an
    /// `All` or `Any` are a mark, the turn, or the world's (open), and a
    /// call for each showed in profiles. Nested lists go back to
    /// [`Game::verdict`]; `TurnsSince` to [`Game::verdict_keyed`]. A
    /// `Chance` is open (see the module's note).
    #[inline(always)]
    fn verdict_item(&self, cond: &Cond, owner: &str, turn: u32, consulted: &mut u64) -> Reading {
        let readers = &self.readers;
        match cond {
            Cond::All(_) | Cond::Any(_) | Cond::Not(_) => {
                self.verdict(cond, owner, turn, consulted)
            }
            Cond::Always => Reading::of(true, Reading::ALWAYS),
            Cond::Never => Reading::of(false, Reading::ALWAYS),
            Cond::Turn(cmp) => {
                let (holds, span) = turn_span(cmp, turn);
                Reading::of(holds, span)
            }
            Cond::Chosen { tp, option } => {
                *consulted |= mark_bit(readers.tp_mark(tp.idx()));
                Reading::of(
                    self.marks.chosen.get(tp.idx()).copied().flatten() == Some(*option),
                    Reading::ALWAYS,
                )
            }
            Cond::Reached(tp) => {
                *consulted |= mark_bit(readers.tp_mark(tp.idx()));
                Reading::of(
                    self.marks.reached.get(tp.idx()).copied().unwrap_or(false),
                    Reading::ALWAYS,
                )
            }
            Cond::Happened(event) => {
                *consulted |= mark_bit(readers.event_mark(event.idx()));
                Reading::of(
                    self.marks
                        .happened
                        .get(event.idx())
                        .copied()
                        .unwrap_or(false),
                    Reading::ALWAYS,
                )
            }
            Cond::Flag(flag) => {
                *consulted |= mark_bit(readers.flag_mark(flag.idx()));
                Reading::of(
                    self.marks.flags.get(flag.idx()).copied().unwrap_or(false),
                    Reading::ALWAYS,
                )
            }
            Cond::Playing(role) => Reading::of(*role == self.role_id, Reading::ALWAYS),
            Cond::PlayerSide(side) => Reading::of(side.idx() == self.role_side(), Reading::ALWAYS),
            Cond::TurnsSince(..) => self.verdict_keyed(cond, owner, turn, consulted),
            // The clock, a `Chance` and everything on the field: read in
            // full.
            _ => Reading::new(Verdict::Open, Reading::ALWAYS),
        }
    }

    /// [`Game::verdict`] of a `TurnsSince` (kept apart: it is rarer and
    /// larger than the items read in line).
    #[inline(never)]
    fn verdict_keyed(&self, cond: &Cond, owner: &str, turn: u32, consulted: &mut u64) -> Reading {
        match cond {
            Cond::TurnsSince(id, cmp) => {
                let Some(watch) = self.scene.resolved().watched.get(id.idx()) else {
                    return Reading::of(false, Reading::ALWAYS);
                };
                *consulted |= self.readers.watch_bits(id.idx(), watch);
                match self.marks.since_at(id.idx(), watch, turn) {
                    None => Reading::of(false, Reading::ALWAYS),
                    Some(at) => {
                        let (holds, (_, to)) = turn_span(cmp, turn.saturating_sub(at));
                        Reading::of(holds, (turn, at.saturating_add(to).max(turn)))
                    }
                }
            }
            _ => self.verdict(cond, owner, turn, consulted),
        }
    }
}

/// Whether `cmp` holds of the number `n` (a turn, or turns since), and a
/// span of numbers from `n` on (inclusive) over which the answer is the
/// same: to the last before it changes.
fn turn_span(cmp: &Cmp, n: u32) -> (bool, (u32, u32)) {
    let holds = compare(cmp, f64::from(n));
    // The last whole number with the same answer, where the comparison
    // changes at all (`as` saturates; a NaN bound holds of nothing).
    let last = match (*cmp, holds) {
        (Cmp::AtLeast(_) | Cmp::Above(_), true) | (Cmp::AtMost(_) | Cmp::Below(_), false) => {
            u32::MAX
        }
        (Cmp::AtLeast(x), false) | (Cmp::Below(x), true) if !x.is_nan() => (x.ceil() - 1.0) as u32,
        (Cmp::Above(x), false) | (Cmp::AtMost(x), true) if !x.is_nan() => x.floor() as u32,
        _ => u32::MAX,
    };
    (holds, (n, last.max(n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every span holds the number it was asked of, and the comparison gives
    /// the same answer everywhere in it.
    #[test]
    fn turn_spans_keep_their_answer() {
        let xs = [
            -3.0,
            -0.5,
            0.0,
            0.3,
            1.0,
            2.5,
            4.0,
            7.0,
            7.99,
            12.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e12,
        ];
        for x in xs {
            for cmp in [
                Cmp::AtLeast(x),
                Cmp::AtMost(x),
                Cmp::Above(x),
                Cmp::Below(x),
            ] {
                for n in 0..20 {
                    let (holds, (from, to)) = turn_span(&cmp, n);
                    assert_eq!(holds, compare(&cmp, f64::from(n)), "{cmp:?} at {n}");
                    assert!(from <= n && n <= to, "{cmp:?} at {n}: {from}..={to}");
                    for m in from..=to.min(40) {
                        assert_eq!(compare(&cmp, f64::from(m)), holds, "{cmp:?} at {m}");
                    }
                    // The span reaches as far as the answer stands.
                    assert_eq!(from, n);
                    if to < 40 {
                        assert_ne!(compare(&cmp, f64::from(to + 1)), holds, "{cmp:?}");
                    }
                }
            }
        }
    }
}
