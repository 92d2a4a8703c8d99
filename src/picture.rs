//! The commander's picture (issue 20): what the played side knows of the
//! battle, as opposed to what the simulation holds.
//!
//! The simulation is the umpire's map; each side has its own. A [`Picture`]
//! holds, for every unit of the other side, what the side's commander knows
//! of it — nothing; seen now; reported (by a rider, with the delay the
//! courier rules give orders); last seen (where and when) — with an
//! *estimate* of its strength, what could be made out of it (its banner, or
//! only "horse", or only "troops") and how it behaves (standing, moving,
//! fighting, shaken, running), never its morale. Of the side's own units it
//! holds the last word of each: exact while a rider can reach it, its last
//! report once it is cut off.
//!
//! [`Known`] is the view model every view is drawn from: the picture, the
//! own side's units, the weather and the field as far as anyone can see
//! them. Built by [`Known::of`], it copies nothing of the other side but
//! what the picture says, so a renderer that holds a `Known` cannot print
//! what the commander does not know (`repl` holds nothing else).
//!
//! The picture is part of the game's state: kept with undo snapshots, and
//! rebuilt by the replay of a save's command log (the same seed and commands
//! give the same picture). Its chance (an estimate's error) is keyed by the
//! seed, the side, the unit and how well it was seen, never drawn from the
//! battle's streams: keeping a picture does not move the battle's dice.

use crate::scene::{MoraleState, Scene};
use crate::sim::state::{UnitRecord, WorldState, ZoneRecord};
use crate::sim::weather::Weather;
use crate::sim::{CommanderState, Field, UnitSpec};
use std::sync::Arc;

/// How well an enemy unit was made out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Clarity {
    /// Close up in clear air: its banner known, its numbers judged well.
    Close,
    /// Across the next zone, or through thin smoke: still its banner.
    Near,
    /// Far or hazy: only whether it is horse or foot.
    Far,
    /// Shapes in smoke or night: "troops", a rough idea of how many.
    Dim,
    /// Not seen at all, only met: men in the same blinding smoke.
    Felt,
}

impl Clarity {
    /// Whether the banner (the unit's name) can be made out.
    pub fn named(self) -> bool {
        matches!(self, Clarity::Close | Clarity::Near)
    }

    /// The spread of the strength estimate (a log-normal sigma).
    fn spread(self) -> f64 {
        match self {
            Clarity::Close => 0.05,
            Clarity::Near => 0.12,
            Clarity::Far => 0.2,
            Clarity::Dim => 0.3,
            Clarity::Felt => 0.4,
        }
    }
}

/// What a watcher sees the enemy do (never his morale).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bearing {
    /// Standing in its place.
    Standing,
    /// On the move (it was elsewhere when last seen).
    Moving,
    /// Locked with men of ours.
    Fighting,
    /// Ranks breaking up, men slipping away: seen only close up.
    Shaken,
    /// In flight.
    Running,
    /// Broken up or given up: no longer a body of men.
    Broken,
}

/// How a sighting reached the commander.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// His own eyes, or men beside him.
    Seen,
    /// A rider's report from a unit of his, made at the sighting's turn.
    Reported { by: usize },
    /// Word in the story's own text (a scout's report, a prisoner's tale):
    /// a text told to him that says where the unit is.
    Word,
}

/// What the side knows of one enemy unit: the latest sighting to reach its
/// commander.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sighting {
    pub zone: usize,
    /// The turn it was made.
    pub turn: u32,
    /// The estimated strength (never the count).
    pub men: u32,
    pub clarity: Clarity,
    pub bearing: Bearing,
    pub source: Source,
    /// Mounted (told as "horse") or not.
    pub mounted: bool,
    /// The place it was last seen was looked at again since, and it was not
    /// there: its whereabouts are unknown.
    pub lost: bool,
}

/// The last word the commander has of one of his own units.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnWord {
    /// The turn of the word: now while a rider can reach the unit.
    pub turn: u32,
    pub record: UnitRecord,
}

/// The last word the commander has of one of his side's commanders.
#[derive(Debug, Clone, PartialEq)]
pub struct ChiefWord {
    /// The turn of the word: now while a rider can reach him.
    pub turn: u32,
    pub state: CommanderState,
}

/// One side's picture of the battle.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Picture {
    /// Whose picture it is.
    pub side: usize,
    /// The turn it was last brought up to date.
    pub turn: u32,
    /// The zone the commander stands in, or where he fell (his staff
    /// gather word there); None: the side has no commander.
    pub at: Option<usize>,
    /// The commander has fallen (killed or taken): his staff see nothing
    /// with his eyes, and gather what riders bring.
    pub fallen: bool,
    /// Per zone: what the commander sees with his own eyes now.
    pub sees: Vec<bool>,
    /// Per zone: seen now by anyone whose word reaches him this turn.
    pub seen_now: Vec<bool>,
    /// Per unit of the scene: the latest sighting of an enemy unit (None
    /// for own units and for enemies never seen).
    pub enemy: Vec<Option<Sighting>>,
    /// Per unit: the last word of an own unit (None for the enemy's).
    pub own: Vec<Option<OwnWord>>,
    /// Own units not heard of at the last look as they were then whose
    /// word came this turn (again after a silence, or a rider's report of
    /// a unit out of his sight), each with the word he had of it before:
    /// what to tell of it. (One heard of by riders till then and in his
    /// sight now is not among them: what it does is told as it happens.)
    pub word_again: Vec<(usize, OwnWord)>,
    /// Of `word_again`, the units whose word came by a rider of the
    /// regular stream (it was on its way at the last look), not after a
    /// silence: told as a report, not as word at last.
    pub by_rider: Vec<usize>,
    /// Own units whose word a text told to him this turn brought (a claim
    /// of the unit's state that holds, and no word of it as it is came
    /// otherwise): the text is the word of them as they were when it was
    /// told, and the chronicle does not tell again what befell them this
    /// turn (`Picture::hear_unit`). What changes after the text reaches him
    /// as any word does: at once in his sight, else by rider or not at all.
    pub units_told: Vec<usize>,
    /// Reports on their way: (turn they arrive, unit, sighting).
    pending: Vec<(u32, usize, Sighting)>,
    /// Word of own units on its way: (turn it arrives, unit, word).
    own_pending: Vec<(u32, usize, OwnWord)>,
    /// Per unit: no word of the own unit could reach him at the last look
    /// (cut off, or running and sending none).
    silent: Vec<bool>,
    /// Per unit: an own unit the commander saw (or stood with) at the last
    /// look, so its word is read as it is now ([`Picture::word_is_now`]);
    /// one heard of earlier this turn and out of his sight since is read
    /// as that word has it.
    heard_now: Vec<bool>,
    /// Per commander of the scene: the last word of one of the side's own
    /// (None for the other side's), as of its units: now where the played
    /// commander sees him or a rider comes at once, else as old as the
    /// ride, none while he is cut off. The played commander's is always now.
    pub chiefs: Vec<Option<ChiefWord>>,
    /// Word of own commanders on its way: (turn it arrives, commander, word).
    chiefs_pending: Vec<(u32, usize, ChiefWord)>,
    /// Own commanders whose fall in a fight came to him late (by a rider,
    /// or after a silence) at this turn's looks: what to tell of it. One
    /// whose word came at once is told with the turn's fighting.
    pub falls_heard: Vec<usize>,
    /// Commanders, of either side, whose fall a text told to him this turn
    /// says (a claim `Fallen` that holds): the text is the word of it, and
    /// the chronicle does not tell it again (`Picture::hear_fall`).
    pub falls_told: Vec<usize>,
    /// Per commander: the turn the umpire first saw him fallen, and whether
    /// in a fight (at a turn's first look) rather than by a scene's event,
    /// which tells it in its own words. Private: no view reads it.
    fell: Vec<Option<(u32, bool)>>,
    /// Per commander: the other side's fall is known to the side (seen
    /// where he fell, or told by a text); False for its own (their word is
    /// in `chiefs`).
    falls_known: Vec<bool>,
    /// Per unit: the sighting held before this turn's first look, from
    /// which a unit is seen to have moved (the same at every look of the
    /// turn, so a second look at the same world sees the same).
    before: Vec<Option<Sighting>>,
    /// Per unit: the first sighting that ever reached the commander (for
    /// the reveal: what he believed of it first).
    pub first: Vec<Option<Sighting>>,
    /// Per unit: its true strength when last seen as it was (not felt): the
    /// umpire's note, private, from which the men seen to fall are told.
    watched: Vec<Option<u32>>,
    /// Per unit: the men the side saw it lose (estimated, added up).
    pub seen_lost: Vec<u32>,
    /// The umpire's notes for the reveal: the cries the side's men
    /// believed, and whether each was true then. Private: no view reads it
    /// (only [`Reveal::of`], after the ending).
    cries: Vec<CryNote>,
    /// Per claim (the side a cry is about, and whether "routed"), the words
    /// of the first cry raised with it: the reveal names a cry as it was
    /// heard, not by its claim.
    cry_words: Vec<(usize, bool, crate::scene::Text)>,
}

/// A cry some of the side's men believed, as the umpire noted it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct CryNote {
    about: usize,
    routed: bool,
    /// The turn the first of them believed it.
    turn: u32,
    /// The most of the side's units that heard it and made up their
    /// minds on it at once.
    believers: usize,
    /// Whether it was true when first believed: the side it spoke of was
    /// running (most of its standing men), or not, as it said.
    true_then: bool,
}

/// The soonest word of a zone: (turns before it reaches the commander, how
/// well it was seen, the watcher's state, the watching unit or None for the
/// commander himself).
type Word = (u32, Clarity, MoraleState, Option<usize>);

/// What one look works from: where each side's men stand, the riders'
/// roads from the commander, and what hides each zone.
struct Survey<'a> {
    field: &'a Field,
    world: &'a WorldState,
    side: usize,
    n_zones: usize,
    /// Men of each side per zone (`side * n_zones + zone`), for fighting
    /// and riders' roads.
    men: Vec<u32>,
    /// Hops from the commander to each zone, by roads not held by the enemy
    /// alone (a besieged garrison sends no word), and whether the way is
    /// blind with smoke.
    hops: Vec<Option<(u32, bool)>>,
    /// Where word comes to (None: no commander, the side's own sight).
    at: Option<usize>,
}

impl<'a> Survey<'a> {
    fn new(field: &'a Field, world: &'a WorldState, side: usize, at: Option<usize>) -> Self {
        let n_zones = field.zones.len();
        let mut men = vec![0u32; n_zones * field.n_sides.max(1)];
        for (record, info) in world.units.iter().zip(&field.units) {
            let s = record.side(info);
            if record.location.present
                && record.location.state().can_fight_or_flee()
                && record.location.zone() < n_zones
                && s < field.n_sides
            {
                men[s * n_zones + record.location.zone()] += record.men;
            }
        }
        let mut survey = Survey {
            field,
            world,
            side,
            n_zones,
            men,
            hops: vec![None; n_zones],
            at,
        };
        if let Some(at) = at {
            survey.hops[at] = Some((0, survey.blind(at)));
            let mut queue = std::collections::VecDeque::from([at]);
            while let Some(zone) = queue.pop_front() {
                let Some((h, smoky)) = survey.hops[zone] else {
                    continue;
                };
                for &next in &field.neighbours[zone] {
                    if survey.hops[next].is_some() || (survey.theirs(next) && !survey.ours(next)) {
                        continue;
                    }
                    survey.hops[next] = Some((h + 1, smoky || survey.blind(next)));
                    queue.push_back(next);
                }
            }
        }
        survey
    }

    fn blind(&self, zone: usize) -> bool {
        self.world.vision.is_blind(zone)
    }

    fn smoke(&self, zone: usize) -> f64 {
        self.world.zones.get(zone).map_or(0.0, |r| r.burning.smoke)
    }

    fn hazy(&self, zone: usize) -> bool {
        self.world
            .zones
            .get(zone)
            .is_some_and(|r| r.haze.levels.iter().any(|&l| l > 0.2))
    }

    fn ours(&self, zone: usize) -> bool {
        self.men[self.side * self.n_zones + zone] > 0
    }

    fn theirs(&self, zone: usize) -> bool {
        (0..self.field.n_sides).any(|s| s != self.side && self.men[s * self.n_zones + zone] > 0)
    }

    /// Turns until word from `zone` reaches the commander, from a watcher
    /// in `state` there; None when none comes (running men send no riders,
    /// or no road).
    fn delay(&self, zone: usize, state: MoraleState) -> Option<u32> {
        let rules = &self.field.rules;
        if self.at.is_none() {
            return Some(0); // no commander: the side's own sight
        }
        let (h, smoky) = self.hops.get(zone).copied().flatten()?;
        if h == 0 {
            return Some(0);
        }
        if state == MoraleState::Routing {
            return None; // running men send no riders
        }
        let turn_minutes = (self.field.turn_seconds / 60.0).max(1.0);
        let mut minutes = f64::from(h) * rules.courier_minutes_per_zone;
        if smoky {
            minutes *= rules.courier_smoke_factor;
        }
        let mut turns = (minutes / turn_minutes).ceil() as u32;
        if state == MoraleState::Wavering {
            turns += rules.courier_panic_turns as u32;
        }
        Some(turns)
    }

    /// What a watcher in `from` makes out of `to`: its own zone, or a
    /// neighbour unless either is blind; smoke and haze dim the sight.
    fn sight(&self, from: usize, to: usize) -> Option<Clarity> {
        let rules = &self.field.rules;
        if from == to {
            if self.blind(from) {
                return Some(Clarity::Felt);
            }
            let dim = self.smoke(from) >= rules.smoke_thin || self.hazy(from);
            return Some(if dim { Clarity::Near } else { Clarity::Close });
        }
        if self.blind(from) || self.blind(to) || !self.field.neighbours[from].contains(&to) {
            return None;
        }
        let murk = usize::from(self.smoke(from) >= rules.smoke_thin || self.hazy(from))
            + usize::from(self.smoke(to) >= rules.smoke_thin || self.hazy(to));
        Some(match murk {
            0 => Clarity::Near,
            1 => Clarity::Far,
            _ => Clarity::Dim,
        })
    }
}

/// The played commander, for the picture: his index, if the role has one.
pub type CommanderIdx = Option<usize>;

impl Picture {
    /// An empty picture of `side`: nothing known of anyone yet.
    pub fn new(scene: &Scene, side: usize) -> Picture {
        let n = scene.units().len();
        Picture {
            side,
            turn: 0,
            at: None,
            fallen: false,
            sees: vec![false; scene.zones().len()],
            seen_now: vec![false; scene.zones().len()],
            enemy: vec![None; n],
            own: vec![None; n],
            word_again: Vec::new(),
            by_rider: Vec::new(),
            units_told: Vec::new(),
            pending: Vec::new(),
            own_pending: Vec::new(),
            silent: vec![false; n],
            heard_now: vec![false; n],
            chiefs: Vec::new(),
            chiefs_pending: Vec::new(),
            falls_heard: Vec::new(),
            falls_told: Vec::new(),
            fell: Vec::new(),
            falls_known: Vec::new(),
            before: vec![None; n],
            first: vec![None; n],
            watched: vec![None; n],
            seen_lost: vec![0; n],
            cries: Vec::new(),
            cry_words: Vec::new(),
        }
    }

    /// A cry is raised with these words, claiming `about` is routed (or
    /// has won): the words the side's men hear, kept for the reveal.
    pub fn raise_cry(&mut self, about: usize, routed: bool, words: &crate::scene::Text) {
        if !self
            .cry_words
            .iter()
            .any(|(a, r, _)| (*a, *r) == (about, routed))
        {
            self.cry_words.push((about, routed, words.clone()));
        }
    }

    /// Brings the picture up to date with the world as it is now: what is
    /// seen, what riders bring in, what has aged. Calling it again in the
    /// same turn (after a choice) looks again without doubling reports, and
    /// at a world unchanged since the last look changes nothing.
    pub fn look(
        &mut self,
        scene: &Scene,
        field: &Field,
        world: &WorldState,
        seed: u64,
        commander: CommanderIdx,
    ) {
        let n_units = world.units.len().min(field.units.len());
        if self.enemy.len() != n_units {
            *self = Picture::new(scene, self.side);
        }
        let turn = world.turn;
        // Where word comes to: the commander, or his staff where he fell.
        let chief: Option<&CommanderState> = commander.and_then(|c| world.commanders.get(c));
        self.at = chief.map(|c| c.zone).filter(|&z| z < field.zones.len());
        self.fallen = chief.is_some_and(|c| !c.standing());
        let survey = Survey::new(field, world, self.side, self.at);
        if turn != self.turn {
            self.before.clone_from(&self.enemy);
        }
        self.hear_chiefs(&survey, turn, commander);
        self.hear_own(&survey, turn);
        let best = self.soonest_words(&survey);
        self.see_falls(world);
        // Reports made this turn replace those made earlier this same turn.
        self.pending.retain(|(_, _, s)| s.turn != turn);
        self.sight_enemy(&survey, &best, seed, n_units);
        self.riders_arrive(turn);
        self.lose_track(&survey, turn);
        self.note_cries(field, world);
        self.turn = turn;
    }

    /// Whether a rider's word of own unit `idx` as `record` is at `turn`
    /// would be newer than the word held of it: none held, or one of an
    /// earlier turn, or a text's of this turn that it has changed since.
    /// (A rider's word of the same turn as one held otherwise would be
    /// dropped when it came: none is sent, so a look again sends none.)
    fn new_word(&self, idx: usize, turn: u32, record: &UnitRecord) -> bool {
        self.own[idx].as_ref().is_none_or(|w| {
            w.turn < turn || (self.units_told.contains(&idx) && w.record != *record)
        })
    }

    /// The other side's commanders fallen where the side looks now: their
    /// fall is known from then on.
    fn see_falls(&mut self, world: &WorldState) {
        for (idx, chief) in world.commanders.iter().enumerate() {
            if chief.side != self.side
                && chief.fallen.is_some()
                && self.watches(chief.zone)
                && let Some(known) = self.falls_known.get_mut(idx)
            {
                *known = true;
            }
        }
    }

    /// Whether the fall of the other side's commander `idx` is known to
    /// the side: seen where he fell, or told by a text.
    pub fn fall_known(&self, idx: usize) -> bool {
        self.falls_known.get(idx).copied().unwrap_or(false)
    }

    /// Own units: exact where the commander sees them (his own zone, or
    /// one next to it in sight); elsewhere the word a rider brings, as old
    /// as the ride from there (the courier rules that carry his orders and
    /// the reports of the enemy); none from a unit cut off or running.
    fn hear_own(&mut self, survey: &Survey, turn: u32) {
        let (field, world, side) = (survey.field, survey.world, self.side);
        // A second look in the same turn keeps the turn's word of units
        // cut off till now, and sends this turn's riders again.
        let last_look = self.turn;
        let first_look = turn != last_look;
        if first_look {
            self.word_again.clear();
            self.by_rider.clear();
            self.units_told.clear();
        }
        self.own_pending.retain(|(_, _, word)| word.turn != turn);
        if self.silent.len() != world.units.len() {
            self.silent = vec![false; world.units.len()];
        }
        if self.heard_now.len() != world.units.len() {
            self.heard_now = vec![false; world.units.len()];
        }
        // The word each unit's last word replaced this look, where that
        // one was older than the last look: what to tell of it.
        let mut replaced: Vec<(usize, OwnWord)> = Vec::new();
        for (idx, (record, info)) in world.units.iter().zip(&field.units).enumerate() {
            if record.side(info) != side {
                self.own[idx] = None;
                self.heard_now[idx] = false;
                continue;
            }
            let present = record.location.present;
            let zone = record.location.zone();
            // Turns before its word reaches him (None: none comes).
            let soon = match self.at {
                _ if !present => Some(0),
                None => Some(0),
                Some(at) if zone == at || survey.sight(at, zone).is_some() => Some(0),
                Some(_) => survey.delay(zone, record.location.state()),
            };
            self.heard_now[idx] = soon == Some(0);
            // A unit that comes onto the field is heard of (the scene tells
            // its arrival), whether or not riders can reach it after.
            let arrived = present
                && self.own[idx]
                    .as_ref()
                    .is_some_and(|word| !word.record.location.present);
            let word = || OwnWord {
                turn,
                record: record.clone(),
            };
            if arrived || self.own[idx].is_none() {
                self.own[idx] = Some(word());
                continue;
            }
            match soon {
                Some(0) => self.put(idx, word(), last_look, &mut replaced),
                // A rider is sent with word newer than his: of a later turn,
                // or of what changed after a text's word of this one.
                Some(d) if self.new_word(idx, turn, record) => {
                    self.own_pending.push((turn + d, idx, word()));
                }
                _ => {}
            }
        }
        // Riders come in, in the order they are kept in: each word noted
        // unless a newer one came.
        let arrived: Vec<(u32, usize, OwnWord)> = self
            .own_pending
            .extract_if(.., |(at, _, _)| *at <= turn)
            .collect();
        for (_, idx, word) in arrived {
            let Some(held) = self.own[idx].as_ref() else {
                continue;
            };
            if held.turn < word.turn {
                self.put(idx, word, last_look, &mut replaced);
            } else if held.turn == word.turn && held.record != word.record {
                // What changed after a text's word of its turn: told as
                // new against that word.
                self.put(idx, word, u32::MAX, &mut replaced);
            }
        }
        self.own_pending
            .sort_by_key(|(at, idx, w)| (*at, *idx, w.turn));
        if first_look {
            for (idx, old) in replaced {
                let late = self.own[idx].as_ref().is_some_and(|w| w.turn < turn);
                if self.silent[idx] {
                    self.word_again.push((idx, old));
                } else if late {
                    self.by_rider.push(idx);
                    self.word_again.push((idx, old));
                }
                // Heard of by riders till now, and in his sight now: what
                // it does is told as it happens.
            }
            for (idx, (record, info)) in world.units.iter().zip(&field.units).enumerate() {
                let cut = record.side(info) == side
                    && record.location.present
                    && self.at.is_some_and(|at| {
                        record.location.zone() != at
                            && survey.sight(at, record.location.zone()).is_none()
                            && survey
                                .delay(record.location.zone(), record.location.state())
                                .is_none()
                    });
                self.silent[idx] = cut;
            }
        }
    }

    /// Own commanders, as own units are heard of: at once where the played
    /// commander sees them (or has none), else by rider, none while cut
    /// off; the played commander knows his own state. A fall in a fight
    /// that comes to him after its turn is noted in `falls_heard`.
    fn hear_chiefs(&mut self, survey: &Survey, turn: u32, played: CommanderIdx) {
        let world = survey.world;
        let first_look = turn != self.turn;
        if first_look {
            self.falls_heard.clear();
            self.falls_told.clear();
        }
        let n = world.commanders.len();
        if self.chiefs.len() != n {
            self.chiefs = vec![None; n];
            self.fell = vec![None; n];
            self.falls_known = vec![false; n];
            self.chiefs_pending.clear();
        }
        self.chiefs_pending.retain(|(_, _, word)| word.turn != turn);
        for (idx, chief) in world.commanders.iter().enumerate() {
            if chief.fallen.is_some() && self.fell[idx].is_none() {
                self.fell[idx] = Some((turn, first_look));
            }
            if chief.side != self.side {
                self.chiefs[idx] = None;
                continue;
            }
            let word = ChiefWord {
                turn,
                state: chief.clone(),
            };
            let soon = match self.at {
                _ if played == Some(idx) => Some(0),
                None => Some(0),
                Some(at) if chief.zone == at || survey.sight(at, chief.zone).is_some() => Some(0),
                Some(_) => survey.delay(chief.zone, MoraleState::Steady),
            };
            if self.chiefs[idx].is_none() {
                self.chiefs[idx] = Some(word);
                continue;
            }
            // A rider is sent with word of a later turn than his (one of
            // the same turn would be dropped when it came).
            let newer = self.chiefs[idx].as_ref().is_none_or(|w| w.turn < turn);
            match soon {
                Some(0) => self.put_chief(idx, word, turn),
                Some(d) if newer => self.chiefs_pending.push((turn + d, idx, word)),
                _ => {}
            }
        }
        let mut k = 0;
        while k < self.chiefs_pending.len() {
            if self.chiefs_pending[k].0 <= turn {
                let (_, idx, word) = self.chiefs_pending.swap_remove(k);
                if self.chiefs[idx]
                    .as_ref()
                    .is_some_and(|w| w.turn < word.turn)
                {
                    self.put_chief(idx, word, turn);
                }
            } else {
                k += 1;
            }
        }
        self.chiefs_pending
            .sort_by_key(|(at, idx, w)| (*at, *idx, w.turn));
    }

    /// A text told to the side says commander `idx` has fallen, and he has:
    /// that is the word of it, this turn. One of the side's own is known as
    /// he is now (no rider's word of him on its way is told after it, nor
    /// his fall as word come late); of either side, the turn's chronicle
    /// does not tell the fall again (`falls_told`).
    pub fn hear_fall(&mut self, world: &WorldState, idx: usize) {
        let Some(chief) = world.commanders.get(idx).filter(|c| c.fallen.is_some()) else {
            return;
        };
        if !self.falls_told.contains(&idx) {
            self.falls_told.push(idx);
        }
        if chief.side != self.side {
            if let Some(known) = self.falls_known.get_mut(idx) {
                *known = true;
            }
            return;
        }
        if idx >= self.chiefs.len() {
            return;
        }
        self.chiefs[idx] = Some(ChiefWord {
            turn: world.turn,
            state: chief.clone(),
        });
        self.chiefs_pending.retain(|(_, c, _)| *c != idx);
        self.falls_heard.retain(|&c| c != idx);
    }

    /// A text told to the side says what state own unit `idx` is in, and
    /// it is (a claim of its state that holds): where no word of the unit
    /// as it is now had come this turn, or the word that came was word at
    /// last or a rider's report (`word_again`), the text is the word of
    /// it. The unit is known as it is now, no rider's word of it on its
    /// way is told after it, and the chronicle tells neither the change as
    /// word come late (this turn or later) nor what befell it this turn
    /// (`units_told`). Nothing for a unit already heard of as it is.
    pub fn hear_unit(&mut self, field: &Field, world: &WorldState, idx: usize) {
        let (Some(record), Some(info)) = (world.units.get(idx), field.units.get(idx)) else {
            return;
        };
        if record.side(info) != self.side || idx >= self.own.len() {
            return;
        }
        let turn = world.turn;
        let again = self.word_again.iter().any(|(u, _)| *u == idx);
        let current = self.own[idx].as_ref().is_some_and(|w| {
            // Told again after a change since the text: word of it as it
            // is now.
            w.turn >= turn && !(self.units_told.contains(&idx) && w.record != *record)
        });
        if current && !again {
            return;
        }
        self.own[idx] = Some(OwnWord {
            turn,
            record: record.clone(),
        });
        self.own_pending.retain(|(_, u, _)| *u != idx);
        self.word_again.retain(|(u, _)| *u != idx);
        self.by_rider.retain(|&u| u != idx);
        if !self.units_told.contains(&idx) {
            self.units_told.push(idx);
        }
    }

    /// The effects of the item whose text was the word of own unit `idx`
    /// (`hear_unit`) are done: what they did to it the text tells (an
    /// event's text tells what the event does), so its word is the unit as
    /// they leave it. Nothing for a unit no text told of this turn.
    pub fn hear_effects(&mut self, field: &Field, world: &WorldState, idx: usize) {
        let turn = world.turn;
        let (Some(record), Some(info)) = (world.units.get(idx), field.units.get(idx)) else {
            return;
        };
        if record.side(info) != self.side || !self.units_told.contains(&idx) {
            return;
        }
        if let Some(word) = self.own.get_mut(idx).and_then(Option::as_mut)
            && word.turn == turn
        {
            word.record.clone_from(record);
            self.own_pending
                .retain(|(_, u, w)| !(*u == idx && w.turn == turn));
        }
    }

    /// Notes word of own commander `idx`; a fall in a fight before this
    /// turn that the word brings is to be told (`falls_heard`).
    fn put_chief(&mut self, idx: usize, word: ChiefWord, turn: u32) {
        let fallen_now = word.state.fallen.is_some();
        let old = self.chiefs[idx].replace(word);
        let late = fallen_now
            && old.is_some_and(|w| w.state.fallen.is_none())
            && self.fell[idx].is_some_and(|(at, fight)| fight && at < turn);
        if late && !self.falls_heard.contains(&idx) {
            self.falls_heard.push(idx);
        }
    }

    /// Notes word of own unit `idx`, keeping in `replaced` the word it
    /// replaces when that one was older than the last look.
    fn put(
        &mut self,
        idx: usize,
        word: OwnWord,
        last_look: u32,
        replaced: &mut Vec<(usize, OwnWord)>,
    ) {
        if let Some(old) = self.own[idx].replace(word)
            && old.turn < last_look
            && !replaced.iter().any(|(u, _)| *u == idx)
        {
            replaced.push((idx, old));
        }
    }

    /// The battle over, the army musters: every own unit's word is the
    /// truth (the ending's losses table counts the side as it gathers, not
    /// as the last rider found it; the enemy is still as reckoned).
    pub fn muster(&mut self, field: &Field, world: &WorldState) {
        // Riders' reports are overtaken by the muster (and its table).
        let rider = std::mem::take(&mut self.by_rider);
        self.word_again.retain(|(unit, _)| !rider.contains(unit));
        // Every own unit is heard of as it is: none by a text alone.
        self.units_told.clear();
        self.own_pending.clear();
        self.chiefs_pending.clear();
        for (idx, chief) in world.commanders.iter().enumerate() {
            if chief.side == self.side && idx < self.chiefs.len() {
                self.put_chief(
                    idx,
                    ChiefWord {
                        turn: world.turn,
                        state: chief.clone(),
                    },
                    world.turn,
                );
            }
        }
        for (idx, (record, info)) in world.units.iter().zip(&field.units).enumerate() {
            if record.side(info) == self.side
                && let Some(word) = self.own.get_mut(idx)
            {
                *word = Some(OwnWord {
                    turn: world.turn,
                    record: record.clone(),
                });
            }
        }
    }

    /// What the commander and each own unit on the field see of their own
    /// zone and the next ones (`sees`: the commander's own eyes; `seen_now`:
    /// what reaches him this turn), and per zone the soonest word of it.
    fn soonest_words(&mut self, survey: &Survey) -> Vec<Option<Word>> {
        let (field, world, side, n_zones) = (survey.field, survey.world, self.side, survey.n_zones);
        // Observers: the commander, and each own unit on the field.
        // (zone, state of the watcher, watcher unit or None for the commander)
        let mut watchers: Vec<(usize, MoraleState, Option<usize>)> = Vec::new();
        if let Some(at) = self.at.filter(|_| !self.fallen) {
            watchers.push((at, MoraleState::Steady, None));
        }
        for (idx, (record, info)) in world.units.iter().zip(&field.units).enumerate() {
            if record.side(info) == side
                && record.location.present
                && record.location.state().can_fight_or_flee()
                && record.location.zone() < n_zones
            {
                watchers.push((record.location.zone(), record.location.state(), Some(idx)));
            }
        }
        self.sees.clear();
        self.sees.resize(n_zones, false);
        self.seen_now.clear();
        self.seen_now.resize(n_zones, false);
        // Per zone, the soonest word of it: (delay, clarity, watcher state, by).
        let mut best: Vec<Option<Word>> = vec![None; n_zones];
        for &(from, state, by) in &watchers {
            let Some(wait) = survey.delay(from, state) else {
                continue;
            };
            let looked = std::iter::once(from).chain(field.neighbours[from].iter().copied());
            for to in looked {
                let Some(clarity) = survey.sight(from, to) else {
                    continue;
                };
                if by.is_none() && clarity != Clarity::Felt {
                    self.sees[to] = true;
                }
                let better = match best[to] {
                    None => true,
                    Some((w, c, _, _)) => (wait, clarity) < (w, c),
                };
                if better {
                    best[to] = Some((wait, clarity, state, by));
                }
            }
        }
        for (zone, word) in best.iter().enumerate() {
            if let Some((0, clarity, _, _)) = word
                && *clarity != Clarity::Felt
            {
                self.seen_now[zone] = true;
            }
        }
        best
    }

    /// Each enemy unit in a zone some word comes from: a sighting noted now,
    /// or a report on its way; the men seen to fall since the last look.
    fn sight_enemy(&mut self, survey: &Survey, best: &[Option<Word>], seed: u64, n_units: usize) {
        let (field, world, side, n_zones) = (survey.field, survey.world, self.side, survey.n_zones);
        let turn = world.turn;
        for (idx, (record, info)) in world.units.iter().zip(&field.units).enumerate() {
            if record.side(info) == side || idx >= n_units {
                continue;
            }
            let zone = record.location.zone();
            let gone = !record.location.state().can_fight_or_flee();
            if !record.location.present || zone >= n_zones {
                continue;
            }
            let Some((wait, clarity, state, by)) = best[zone] else {
                continue;
            };
            if gone && clarity == Clarity::Felt {
                continue;
            }
            let previous = self.enemy[idx];
            // Elsewhere when last seen before this turn, or at an earlier
            // look this turn.
            let moved = |p: Option<Sighting>| p.is_some_and(|p| p.zone != zone && !p.lost);
            let bearing = if gone {
                Bearing::Broken
            } else {
                match record.location.state() {
                    MoraleState::Routing => Bearing::Running,
                    MoraleState::Wavering if clarity <= Clarity::Near => Bearing::Shaken,
                    _ if survey.ours(zone) => Bearing::Fighting,
                    _ if moved(self.before[idx]) || moved(previous.filter(|p| p.turn == turn)) => {
                        Bearing::Moving
                    }
                    _ => Bearing::Standing,
                }
            };
            let factor = error(seed, side, idx, clarity)
                * match state {
                    MoraleState::Wavering => 1.2,
                    MoraleState::Routing => 1.5,
                    _ => 1.0,
                };
            let estimate = (f64::from(record.men) * factor).round().clamp(1.0, 1e9) as u32;
            let sighting = Sighting {
                zone,
                turn,
                men: if gone { 0 } else { estimate },
                clarity,
                bearing,
                source: match by {
                    Some(by) if wait > 0 || self.at != Some(zone) => Source::Reported { by },
                    _ => Source::Seen,
                },
                mounted: info.mounted,
                lost: false,
            };
            // Men seen to fall since the last look at it, as the watcher
            // reckons them (the dead are counted by eye, with his error).
            if clarity != Clarity::Felt {
                let now = if gone { 0 } else { record.men };
                if let Some(before) = self.watched[idx] {
                    let fell = f64::from(before.saturating_sub(now)) * factor;
                    self.seen_lost[idx] = self.seen_lost[idx].saturating_add(fell.round() as u32);
                }
                self.watched[idx] = Some(now);
            }
            if wait == 0 {
                self.note(idx, sighting);
            } else {
                self.pending.push((turn + wait, idx, sighting));
            }
        }
    }

    /// Riders who arrive now: their word noted unless a newer one came.
    fn riders_arrive(&mut self, turn: u32) {
        let mut k = 0;
        while k < self.pending.len() {
            if self.pending[k].0 <= turn {
                let (_, idx, sighting) = self.pending.swap_remove(k);
                let newer = self.enemy[idx].is_none_or(|s| s.turn <= sighting.turn);
                if newer {
                    self.note(idx, sighting);
                }
            } else {
                k += 1;
            }
        }
        self.pending.sort_by_key(|(at, idx, s)| (*at, *idx, s.turn));
    }

    /// A place looked at again and found empty: whereabouts unknown.
    fn lose_track(&mut self, survey: &Survey, turn: u32) {
        let world = survey.world;
        for (idx, known) in self.enemy.iter_mut().enumerate() {
            let Some(s) = known else { continue };
            let looked = self.seen_now.get(s.zone).copied().unwrap_or(false)
                || self.sees.get(s.zone).copied().unwrap_or(false)
                || survey.ours(s.zone);
            if s.turn == turn || s.lost || !looked {
                continue;
            }
            let there = world.units.get(idx).is_some_and(|r| {
                r.location.present
                    && r.location.zone() == s.zone
                    && r.location.state().can_fight_or_flee()
            });
            if !there {
                s.lost = true;
            }
        }
    }

    /// The umpire's note of each cry the side's men believe: who believes
    /// it, and whether it was true when first believed.
    fn note_cries(&mut self, field: &Field, world: &WorldState) {
        for rumor in &world.rumors.active {
            let believers = rumor
                .believers
                .iter()
                .filter(|&&u| {
                    world
                        .units
                        .get(u)
                        .zip(field.units.get(u))
                        .is_some_and(|(r, info)| r.side(info) == self.side)
                })
                .count();
            if believers == 0 {
                continue;
            }
            let known = self
                .cries
                .iter_mut()
                .find(|c| c.about == rumor.about && c.routed == rumor.routed);
            match known {
                Some(note) => note.believers = note.believers.max(believers),
                None => {
                    // A side is routed when most of its standing men run (or
                    // none stand); "they have won" is true when another is.
                    let routed = |side: usize| {
                        let (mut standing, mut running) = (0u64, 0u64);
                        for (r, info) in world.units.iter().zip(&field.units) {
                            if r.side(info) == side
                                && r.location.present
                                && r.location.state().can_fight_or_flee()
                            {
                                standing += u64::from(r.men);
                                if r.location.state() == MoraleState::Routing {
                                    running += u64::from(r.men);
                                }
                            }
                        }
                        standing == 0 || running * 2 > standing
                    };
                    let true_then = if rumor.routed {
                        routed(rumor.about)
                    } else {
                        (0..field.n_sides).any(|s| s != rumor.about && routed(s))
                    };
                    self.cries.push(CryNote {
                        about: rumor.about,
                        routed: rumor.routed,
                        turn: world.turn,
                        believers,
                        true_then,
                    });
                }
            }
        }
    }

    fn note(&mut self, idx: usize, sighting: Sighting) {
        // A new look keeps the last estimate unless the sight is better
        // (people do not guess again wildly from turn to turn): the error
        // is keyed by how well it was seen, so the same sight gives the
        // same factor.
        self.enemy[idx] = Some(sighting);
        if self.first[idx].is_none() {
            self.first[idx] = Some(sighting);
        }
    }

    /// Word of an enemy unit in a text told to the commander (the text
    /// claims it stands where it stands now): noted as a report of this
    /// turn, its banner named (the text names it) and its strength guessed
    /// as from the next zone. A sighting as new and as clear already held
    /// is kept.
    pub fn hear_word(&mut self, field: &Field, world: &WorldState, seed: u64, unit: usize) {
        let (Some(record), Some(info)) = (world.units.get(unit), field.units.get(unit)) else {
            return;
        };
        let zone = record.location.zone();
        if unit >= self.enemy.len()
            || record.side(info) == self.side
            || !record.location.present
            || zone >= field.zones.len()
        {
            return;
        }
        let turn = world.turn;
        if self.enemy[unit].is_some_and(|s| s.turn >= turn && !s.lost && s.clarity.named()) {
            return;
        }
        let gone = !record.location.state().can_fight_or_flee();
        let clarity = Clarity::Near;
        let factor = error(seed, self.side, unit, clarity);
        let estimate = (f64::from(record.men) * factor).round().clamp(1.0, 1e9) as u32;
        let bearing = match record.location.state() {
            _ if gone => Bearing::Broken,
            MoraleState::Routing => Bearing::Running,
            _ => Bearing::Standing,
        };
        self.note(
            unit,
            Sighting {
                zone,
                turn,
                men: if gone { 0 } else { estimate },
                clarity,
                bearing,
                source: Source::Word,
                mounted: info.mounted,
                lost: false,
            },
        );
    }

    /// Whether the word of own unit `idx` is read as it is now: word of
    /// this turn from his own eyes at the last look, not a text's (which is
    /// of it as it was when told), nor word of a unit he has lost sight of
    /// since (what befell it after is not known till word of it comes).
    pub fn word_is_now(&self, idx: usize) -> bool {
        self.own
            .get(idx)
            .and_then(Option::as_ref)
            .is_some_and(|w| w.turn == self.turn)
            && self.heard_now.get(idx).copied().unwrap_or(false)
            && !self.units_told.contains(&idx)
    }

    /// Whether the word of own unit `idx` is of this turn and not a text's
    /// (from his eyes at this turn's first look, say, out of sight since).
    fn word_of_this_turn(&self, idx: usize) -> bool {
        self.own
            .get(idx)
            .and_then(Option::as_ref)
            .is_some_and(|w| w.turn == self.turn)
            && !self.units_told.contains(&idx)
    }

    /// Whether the unit is seen (or reported) as it is this very turn: not
    /// only felt in the smoke.
    pub fn seen_now(&self, unit: usize) -> bool {
        self.enemy
            .get(unit)
            .copied()
            .flatten()
            .is_some_and(|s| s.turn == self.turn && !s.lost && s.clarity != Clarity::Felt)
    }

    /// The latest sighting of an enemy unit, if any reached the commander.
    pub fn sighting(&self, unit: usize) -> Option<&Sighting> {
        self.enemy.get(unit).and_then(Option::as_ref)
    }
}

/// What a reckoning is of: a whole side (whose size a commander knows
/// roughly before the battle) or one unit (unknown until seen).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    Side,
    Unit,
}

/// A figure as the played side can give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reckoning {
    /// Estimated from what was seen well.
    About(u32),
    /// A rough idea: far off, in smoke, by report, or from before the battle.
    Rough(u32),
    /// Nothing to go on.
    Unknown,
}

impl Picture {
    /// Whether the commander sees (or has word of) the zone as it is now.
    pub fn watches(&self, zone: usize) -> bool {
        self.seen_now.get(zone).copied().unwrap_or(false)
            || self.sees.get(zone).copied().unwrap_or(false)
    }

    /// How many men the commander reckons the enemy units `of` hold: his
    /// estimates of those he has seen, and for a body of several units
    /// (a side) the strength each unseen one was reputed to have before the
    /// battle (what a commander knows of the army he faces).
    pub fn reckon(
        &self,
        field: &Field,
        body: Body,
        of: impl Fn(usize, &UnitSpec) -> bool,
    ) -> Reckoning {
        let (mut seen, mut unseen, mut matched, mut worst) = (0u32, 0u32, 0usize, Clarity::Close);
        let mut any_seen = false;
        for (idx, info) in field.units.iter().enumerate() {
            if !of(idx, info) {
                continue;
            }
            matched += 1;
            match self.sighting(idx) {
                Some(s) if s.bearing == Bearing::Broken => any_seen = true,
                Some(s) => {
                    any_seen = true;
                    seen = seen.saturating_add(s.men);
                    worst = worst.max(s.clarity);
                }
                None => unseen = unseen.saturating_add(info.start_men),
            }
        }
        match (any_seen, body) {
            (false, _) if matched == 0 => Reckoning::Unknown,
            (false, Body::Unit) => Reckoning::Unknown,
            (false, Body::Side) => Reckoning::Rough(unseen),
            (true, _) if unseen == 0 && worst <= Clarity::Near => Reckoning::About(seen),
            (true, _) => Reckoning::Rough(seen.saturating_add(unseen)),
        }
    }

    /// How many men the commander reckons the enemy units `of` have lost:
    /// the men he saw fall, as he reckoned them.
    pub fn reckon_losses(&self, field: &Field, of: impl Fn(usize, &UnitSpec) -> bool) -> Reckoning {
        let mut lost = 0u32;
        let mut any = false;
        for (idx, info) in field.units.iter().enumerate() {
            if !of(idx, info) || self.first.get(idx).copied().flatten().is_none() {
                continue;
            }
            any = true;
            lost = lost.saturating_add(self.seen_lost.get(idx).copied().unwrap_or(0));
        }
        if any {
            Reckoning::Rough(lost)
        } else {
            Reckoning::Unknown
        }
    }

    /// The enemy men of `side` the commander reckons to be in `zone`.
    pub fn reckon_in(&self, field: &Field, side: usize, zone: usize) -> Reckoning {
        let mut men = 0u32;
        let mut worst = Clarity::Close;
        for (idx, s) in self.enemy.iter().enumerate() {
            let Some(s) = s else { continue };
            let of = field.units.get(idx).is_some_and(|u| u.side == side);
            if !of || s.zone != zone || s.lost || s.bearing == Bearing::Broken {
                continue;
            }
            men = men.saturating_add(s.men);
            worst = worst.max(s.clarity);
        }
        match (self.watches(zone), men) {
            (true, _) if worst <= Clarity::Near => Reckoning::About(men),
            (_, 0) if !self.watches(zone) => Reckoning::Unknown,
            _ => Reckoning::Rough(men),
        }
    }
}

/// A steady error factor for an estimate, keyed (seed, side, unit, clarity):
/// log-normal with the clarity's spread, from a hash, not a stream.
fn error(seed: u64, side: usize, unit: usize, clarity: Clarity) -> f64 {
    use std::cell::Cell;
    const CLARITIES: usize = Clarity::Felt as usize + 1;
    /// Units whose errors are kept (a scene with more draws the rest afresh).
    const KEPT: usize = 256 * CLARITIES;
    /// Per unit and clarity, the last error drawn: for which seed and side
    /// (side + 1; 0: none yet). A look draws the same ones turn after turn.
    struct Drawn {
        seed: [Cell<u64>; KEPT],
        side: [Cell<usize>; KEPT],
        error: [Cell<f64>; KEPT],
    }
    thread_local! {
        static DRAWN: Drawn = const {
            Drawn {
                seed: [const { Cell::new(0) }; KEPT],
                side: [const { Cell::new(0) }; KEPT],
                error: [const { Cell::new(0.0) }; KEPT],
            }
        };
    }
    let slot = unit
        .saturating_mul(CLARITIES)
        .saturating_add(clarity as usize);
    if slot >= KEPT || side == usize::MAX {
        return draw_error(seed, side, unit, clarity);
    }
    DRAWN.with(|drawn| {
        if drawn.seed[slot].get() == seed && drawn.side[slot].get() == side.wrapping_add(1) {
            return drawn.error[slot].get();
        }
        let error = draw_error(seed, side, unit, clarity);
        drawn.seed[slot].set(seed);
        drawn.side[slot].set(side.wrapping_add(1));
        drawn.error[slot].set(error);
        error
    })
}

/// [`error`] drawn afresh.
fn draw_error(seed: u64, side: usize, unit: usize, clarity: Clarity) -> f64 {
    let mut h = seed ^ 0x5049_4354_5552_4531; // "PICTURE1"
    for part in [side as u64, unit as u64, clarity as u64] {
        h = splitmix(h ^ part.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    }
    // A sum of four uniforms, centred: near enough a normal draw.
    let mut sum = 0.0;
    for k in 0..4u64 {
        let bits = splitmix(h.wrapping_add(k));
        sum += (bits >> 11) as f64 / (1u64 << 53) as f64;
    }
    let z = (sum - 2.0) * (3.0f64).sqrt();
    // Within half to twice the truth, however bad the sight.
    (z * clarity.spread()).exp().clamp(0.5, 2.0)
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The view model: everything a view may print, and nothing else. Own units
/// as the commander last heard of them, the other side only as the picture
/// holds it, the weather and the field as they can be seen.
#[derive(Debug, Clone)]
pub struct Known {
    pub side: usize,
    pub turn: u32,
    pub weather: Weather,
    /// Each zone's smoke, fire, passage and haze (smoke and fire are seen
    /// from afar).
    pub zones: Vec<ZoneRecord>,
    /// Per unit: the side it fights for, as far as anyone can tell (the
    /// scene's side; a change of side is told by the story).
    pub unit_side: Vec<usize>,
    /// Per unit: own units' last word (None for the enemy's).
    pub own: Vec<Option<OwnWord>>,
    /// Commanders of the own side as last heard of, and the other side's
    /// when seen or fallen (a commander's fall is told).
    pub commanders: Vec<Option<CommanderState>>,
    /// The picture it was made of, shared.
    pub picture: Arc<Picture>,
}

impl Known {
    /// What the picture's side knows now, from the world and its picture.
    pub fn of(field: &Field, world: &WorldState, picture: &Arc<Picture>) -> Known {
        let side = picture.side;
        let unit_side = world
            .units
            .iter()
            .zip(&field.units)
            .map(|(r, info)| r.side(info))
            .collect::<Vec<_>>();
        // Own commanders as last heard of; the other side's when seen now,
        // or fallen where the side saw it or a text told it (known from
        // then on).
        let commanders = world
            .commanders
            .iter()
            .enumerate()
            .map(|(idx, c)| {
                if c.side == side {
                    let word = picture.chiefs.get(idx).and_then(Option::as_ref);
                    return Some(word.map_or_else(|| c.clone(), |w| w.state.clone()));
                }
                let shown = (c.fallen.is_some() && picture.fall_known(idx))
                    || picture.seen_now.get(c.zone).copied().unwrap_or(false);
                shown.then(|| c.clone())
            })
            .collect();
        // Own units whose word is now read as they are now (an order given
        // since the picture's last look shows at once).
        let own = picture
            .own
            .iter()
            .enumerate()
            .map(|(idx, word)| {
                let word = word.as_ref()?;
                let record = match world.units.get(idx) {
                    Some(now) if picture.word_is_now(idx) => now.clone(),
                    // Word of this turn of a unit out of his sight since:
                    // as that word has it, but for the orders he gave it
                    // since (a choice's orders are his own).
                    Some(now) if picture.word_of_this_turn(idx) => UnitRecord {
                        orders: now.orders,
                        ..word.record.clone()
                    },
                    _ => word.record.clone(),
                };
                Some(OwnWord {
                    turn: word.turn,
                    record,
                })
            })
            .collect();
        Known {
            side,
            turn: world.turn,
            weather: world.weather,
            zones: world.zones.clone(),
            unit_side,
            own,
            commanders,
            picture: Arc::clone(picture),
        }
    }

    /// What `side` would know of `world` with no commander (its units'
    /// sight its own at once): for tests of the views.
    #[cfg(test)]
    pub fn without_commander(
        scene: &Scene,
        field: &Field,
        world: &WorldState,
        side: usize,
    ) -> Known {
        let mut picture = Picture::new(scene, side);
        picture.look(scene, field, world, 0, None);
        Known::of(field, world, &Arc::new(picture))
    }

    /// The last word of an own unit.
    pub fn own_unit(&self, unit: usize) -> Option<&UnitRecord> {
        self.own
            .get(unit)
            .and_then(Option::as_ref)
            .map(|w| &w.record)
    }

    /// Whether word of own unit `unit` reaches him this turn as things
    /// happen: word of this turn, not brought by a text alone (a text
    /// told is the word of what befell it: `Picture::units_told`).
    pub fn heard_now(&self, unit: usize) -> bool {
        self.own
            .get(unit)
            .and_then(Option::as_ref)
            .is_some_and(|word| word.turn == self.picture.turn)
            && !self.picture.units_told.contains(&unit)
    }

    /// Men of the own side now (as last heard).
    pub fn own_men(&self) -> u32 {
        self.own
            .iter()
            .flatten()
            .filter(|w| w.record.location.present && w.record.location.state().can_fight_or_flee())
            .map(|w| w.record.men)
            .sum()
    }

    /// Own men in a zone (as last heard).
    pub fn own_men_in(&self, zone: usize) -> u32 {
        self.own
            .iter()
            .flatten()
            .filter(|w| {
                w.record.location.present
                    && w.record.location.zone() == zone
                    && w.record.location.state().can_fight_or_flee()
            })
            .map(|w| w.record.men)
            .sum()
    }

    /// Whether the other side is known to stand in the zone now.
    pub fn enemy_in(&self, zone: usize) -> bool {
        self.picture.enemy.iter().flatten().any(|s| {
            s.zone == zone && s.turn == self.picture.turn && !s.lost && s.bearing != Bearing::Broken
        })
    }
}

/// After the ending: the picture set against the truth ("What you did not
/// know"). The only place the other side's true figures are given to a
/// view, and only once the battle is over.
#[derive(Debug, Clone, PartialEq)]
pub struct Reveal {
    pub side: usize,
    pub others: Vec<SideTruth>,
    /// The other side's units, in the scene's order.
    pub units: Vec<UnitTruth>,
    pub cries: Vec<CryTruth>,
}

/// One other side as it really was, and as the commander reckoned it.
#[derive(Debug, Clone, PartialEq)]
pub struct SideTruth {
    pub side: usize,
    pub brought: u32,
    pub lost: u32,
    pub standing: u32,
    pub reckoned: Reckoning,
}

/// One enemy unit: where it really was and what it really held, against
/// the last the commander knew of it.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitTruth {
    pub unit: usize,
    pub zone: usize,
    pub men: u32,
    /// On the field at the end (not yet come, gone, broken or given up: not).
    pub standing: bool,
    pub known: Option<Sighting>,
}

/// A cry the commander's men believed, and whether it was true then.
#[derive(Debug, Clone, PartialEq)]
pub struct CryTruth {
    pub about: usize,
    pub routed: bool,
    /// The words of the cry, as raised (None for a cry raised with none
    /// known to the picture).
    pub words: Option<crate::scene::Text>,
    pub turn: u32,
    pub believers: usize,
    pub true_then: bool,
}

impl Reveal {
    /// The reveal of a finished battle, from the world and the picture.
    pub fn of(field: &Field, world: &WorldState, picture: &Picture) -> Reveal {
        let side = picture.side;
        let mut others = Vec::new();
        for other in (0..field.n_sides).filter(|&s| s != side) {
            // Of the units that came to the field (so brought = lost + standing).
            let brought = world.side_start_men(field, other);
            others.push(SideTruth {
                side: other,
                brought,
                lost: world.side_losses(field, other),
                standing: world.side_men(field, other),
                reckoned: picture.reckon(field, Body::Side, |_, u| u.side == other),
            });
        }
        let units = world
            .units
            .iter()
            .zip(&field.units)
            .enumerate()
            .filter(|(_, (r, info))| r.side(info) != side)
            .map(|(unit, (r, _))| UnitTruth {
                unit,
                zone: r.location.zone(),
                men: if r.location.state().can_fight_or_flee() {
                    r.men
                } else {
                    0
                },
                standing: r.location.present && r.location.state().can_fight_or_flee(),
                known: picture.sighting(unit).copied(),
            })
            .collect();
        let cries = picture
            .cries
            .iter()
            .map(|c| CryTruth {
                about: c.about,
                routed: c.routed,
                words: (picture.cry_words.iter())
                    .find(|(a, r, _)| (*a, *r) == (c.about, c.routed))
                    .map(|(_, _, words)| words.clone()),
                turn: c.turn,
                believers: c.believers,
                true_then: c.true_then,
            })
            .collect();
        Reveal {
            side,
            others,
            units,
            cries,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Fate;

    #[test]
    fn kept_errors_are_the_errors_drawn_afresh() {
        // Games of other seeds and sides in turn on one thread: each error
        // is the one drawn for its own seed, side, unit and clarity.
        let clarities = [
            Clarity::Close,
            Clarity::Near,
            Clarity::Far,
            Clarity::Dim,
            Clarity::Felt,
        ];
        for round in 0..3u64 {
            for seed in [1u64, 2, 0, u64::MAX, 1] {
                for side in [0usize, 1, 2, usize::MAX] {
                    for unit in (0..40).chain([255, 256, 300, usize::MAX]) {
                        for clarity in clarities {
                            let kept = error(seed, side, unit, clarity);
                            let drawn = draw_error(seed, side, unit, clarity);
                            assert_eq!(
                                kept.to_bits(),
                                drawn.to_bits(),
                                "{round} {seed} {side} {unit}"
                            );
                            assert!((0.5..=2.0).contains(&kept));
                        }
                    }
                }
            }
        }
        // Not all the same: the cache does not hand one game's to another.
        assert_ne!(
            draw_error(1, 0, 3, Clarity::Far),
            draw_error(2, 0, 3, Clarity::Far)
        );
    }

    /// The small world with a second Ming commander at the ford, which is
    /// blind with smoke: out of Zhang's sight, a rider two turns away.
    fn two_chiefs() -> (Scene, Field, WorldState) {
        let scene = crate::sim::testing::small_scene(|raw| raw);
        let mut battle = crate::sim::Battle::new(&scene, 7);
        let field = battle.field().clone();
        let mut world = battle.state();
        let mut second = world.commanders[0].clone();
        second.idx = world.commanders.len();
        second.zone = 1;
        world.commanders.push(second);
        world.vision.blind = vec![false, true, false, false];
        (scene, field, world)
    }

    /// Turns 1 to 6 of Zhang's picture, the second commander falling in a
    /// fight at turn 2, a text told that turn saying so if `told`: per
    /// turn, whether his word says he fell, and whether he is among
    /// `falls_heard` and `falls_told`.
    fn turns(told: bool) -> Vec<(bool, bool, bool)> {
        let (scene, field, mut world) = two_chiefs();
        let mut picture = Picture::new(&scene, 0);
        let mut seen = Vec::new();
        for turn in 1..=6 {
            world.turn = turn;
            if turn == 2 {
                world.commanders[2].fallen = Some(Fate::Killed);
            }
            picture.look(&scene, &field, &world, 7, Some(0));
            if turn == 2 && told {
                picture.hear_fall(&world, 2);
                // The look after the turn's events, as the game makes it.
                picture.look(&scene, &field, &world, 7, Some(0));
            }
            let word = picture.chiefs[2].as_ref().expect("word of him");
            seen.push((
                word.state.fallen.is_some(),
                picture.falls_heard.contains(&2),
                picture.falls_told.contains(&2),
            ));
        }
        seen
    }

    #[test]
    fn a_text_that_says_a_commander_fell_is_the_word_of_his_fall() {
        // Untold, his fall comes by a rider two turns later, as word late.
        let rider = turns(false);
        assert_eq!(rider[..3], [(false, false, false); 3], "{rider:?}");
        assert_eq!(rider[3], (true, true, false), "{rider:?}");
        assert_eq!(rider[4..], [(true, false, false); 2], "{rider:?}");
        // Told at turn 2: known then, never again as word come late, and
        // the chronicle told to leave it to the text that turn only.
        let told = turns(true);
        assert_eq!(told[0], (false, false, false), "{told:?}");
        assert_eq!(told[1], (true, false, true), "{told:?}");
        assert_eq!(told[2..], [(true, false, false); 4], "{told:?}");
    }

    /// The small world's Ming foot cut off in the Khan's tent (the
    /// banner holds the north bank between): Zhang on the south bank has
    /// no word of it until he rides up to the north bank at turn 4 and
    /// sees it.
    fn cut_off() -> (Scene, Field, WorldState) {
        let scene = crate::sim::testing::small_scene(|raw| raw);
        let mut battle = crate::sim::Battle::new(&scene, 7);
        let field = battle.field().clone();
        let mut world = battle.state();
        world.units[0].location = crate::sim::components::Location::new(3, true);
        world.vision.blind = vec![false; 4];
        (scene, field, world)
    }

    /// A word of an own unit, as (its turn, the unit's state).
    type Said = (u32, MoraleState);

    /// Turns 1 to 4 of Zhang's picture of the foot: it wavers at turn 2,
    /// and the story then makes it `then` — by the effect of the item
    /// whose text told of it if `own`, else by a later one (a choice's);
    /// at turn 3 it is `later`. A text told at each of the turns `told`
    /// (after the turn's look) says what state it is in. Per turn, the word
    /// of it (turn, state) and whether it is among `units_told`; and the
    /// turn-4 word come again, as (turn, state) of the word before it.
    fn unit_turns(
        told: &[u32],
        then: MoraleState,
        own: bool,
        later: MoraleState,
    ) -> (Vec<(u32, MoraleState, bool)>, Vec<Said>) {
        let (scene, field, mut world) = cut_off();
        let mut picture = Picture::new(&scene, 0);
        let mut seen = Vec::new();
        for turn in 1..=4 {
            world.turn = turn;
            match turn {
                2 => world.units[0].location.set_state(MoraleState::Wavering),
                3 => world.units[0].location.set_state(later),
                4 => world.commanders[0].zone = 2,
                _ => {}
            }
            picture.look(&scene, &field, &world, 7, Some(0));
            if told.contains(&turn) {
                picture.hear_unit(&field, &world, 0);
            }
            if turn == 2 {
                world.units[0].location.set_state(then);
                if own {
                    picture.hear_effects(&field, &world, 0);
                }
                // The look after the turn's events, as the game makes it.
                picture.look(&scene, &field, &world, 7, Some(0));
            }
            let word = picture.own[0].as_ref().expect("word of it");
            seen.push((
                word.turn,
                word.record.location.state(),
                picture.units_told.contains(&0),
            ));
        }
        let again = picture
            .word_again
            .iter()
            .map(|(_, w)| (w.turn, w.record.location.state()))
            .collect();
        (seen, again)
    }

    #[test]
    fn a_text_that_says_an_own_units_state_is_the_word_of_it() {
        use MoraleState::{Steady, Surrendered, Wavering};
        // Untold, its surrender comes at turn 4 as word at last, against
        // the word of turn 1.
        let (seen, again) = unit_turns(&[], Surrendered, false, Surrendered);
        assert_eq!(
            seen,
            [
                (1, Steady, false),
                (1, Steady, false),
                (1, Steady, false),
                (4, Surrendered, false)
            ],
            "{seen:?}"
        );
        assert_eq!(again, [(1, Steady)]);
        // Told at turn 2 (wavering), then the text's own event surrenders
        // it: the text tells what its event does, so it is known at once as
        // the event leaves it, and the word at turn 4 is set against that,
        // which it does not change: nothing to tell.
        let (seen, again) = unit_turns(&[2], Surrendered, true, Surrendered);
        assert_eq!(
            seen,
            [
                (1, Steady, false),
                (2, Surrendered, true),
                (2, Surrendered, false),
                (4, Surrendered, false)
            ],
            "{seen:?}"
        );
        assert_eq!(again, [(2, Surrendered)]);
        // Told at turn 2 (wavering), then something after the text's item
        // surrenders it (a choice's effect): the text is the word of it as
        // it was told, and the surrender, out of his sight, is not known
        // until word of it comes at last at turn 4.
        let (seen, again) = unit_turns(&[2], Surrendered, false, Surrendered);
        assert_eq!(
            seen,
            [
                (1, Steady, false),
                (2, Wavering, true),
                (2, Wavering, false),
                (4, Surrendered, false)
            ],
            "{seen:?}"
        );
        assert_eq!(again, [(2, Wavering)]);
        // Told it wavers, it surrenders at turn 3: the word at turn 4 tells
        // that change.
        let (seen, again) = unit_turns(&[2], Wavering, false, Surrendered);
        assert_eq!(seen[1], (2, Wavering, true), "{seen:?}");
        assert_eq!(seen[3], (4, Surrendered, false), "{seen:?}");
        assert_eq!(again, [(2, Wavering)]);
        // Word at last that comes the turn a text tells of it: the text is
        // the word, told alone.
        let (seen, again) = unit_turns(&[4], Surrendered, false, Surrendered);
        assert_eq!(seen[3], (4, Surrendered, true), "{seen:?}");
        assert_eq!(again, []);
    }

    /// Brings Zhang's picture to the next turn, and returns whether a
    /// second look at the same world changed it.
    fn look_twice(scene: &Scene, field: &Field, world: &WorldState, picture: &mut Picture) -> bool {
        picture.look(scene, field, world, 7, Some(0));
        let once = picture.clone();
        picture.look(scene, field, world, 7, Some(0));
        *picture != once
    }

    #[test]
    fn a_change_after_a_texts_word_comes_as_a_rider_brings_it() {
        // The foot at the ford, blind with smoke: a rider two turns away.
        let (scene, field, mut world) = cut_off();
        world.units[0].location = crate::sim::components::Location::new(1, true);
        world.vision.blind = vec![false, true, false, false];
        let mut picture = Picture::new(&scene, 0);
        world.turn = 1;
        assert!(!look_twice(&scene, &field, &world, &mut picture));
        // Turn 2: it wavers; a text says so (the word of it now), then a
        // choice's effect costs it 500 men.
        world.turn = 2;
        world.units[0].location.set_state(MoraleState::Wavering);
        assert!(!look_twice(&scene, &field, &world, &mut picture));
        picture.hear_unit(&field, &world, 0);
        let told = world.units[0].clone();
        world.units[0].men -= 500;
        assert!(!look_twice(&scene, &field, &world, &mut picture));
        // He knows it as the text told it, in the picture and in the view.
        let word = picture.own[0].clone().expect("word of it");
        assert_eq!((word.turn, &word.record), (2, &told));
        let known = Known::of(&field, &world, &Arc::new(picture.clone()));
        assert_eq!(known.own_unit(0).map(|r| r.men), Some(told.men));
        assert!(!known.heard_now(0));
        // A rider is on his way with it as it is now.
        let due = (picture.own_pending.iter())
            .find(|(_, u, w)| *u == 0 && w.turn == 2)
            .map(|(at, _, w)| (*at, w.record.men));
        let Some((due, men)) = due else {
            panic!("no rider: {:?}", picture.own_pending)
        };
        assert_eq!(men, told.men - 500);
        assert!(due > 3, "{due}");
        // Till he comes, nothing; then he is told as a rider's report set
        // against the text's word.
        for turn in 3..due {
            world.turn = turn;
            assert!(!look_twice(&scene, &field, &world, &mut picture));
            let word = picture.own[0].as_ref().map(|w| (w.turn, w.record.men));
            assert_eq!(word, Some((2, told.men)), "turn {turn}");
            assert_eq!(picture.word_again, [], "turn {turn}");
        }
        world.turn = due;
        assert!(!look_twice(&scene, &field, &world, &mut picture));
        let word = picture.own[0].clone().expect("word of it");
        assert_eq!((word.turn, word.record.men), (2, told.men - 500));
        assert_eq!(picture.by_rider, vec![0]);
        assert_eq!(
            picture.word_again,
            vec![(
                0,
                OwnWord {
                    turn: 2,
                    record: told
                }
            )]
        );
    }

    #[test]
    fn a_text_told_again_after_a_change_is_word_of_it_as_it_is_then() {
        let (scene, field, mut world) = cut_off();
        let mut picture = Picture::new(&scene, 0);
        world.turn = 1;
        picture.look(&scene, &field, &world, 7, Some(0));
        world.turn = 2;
        world.units[0].location.set_state(MoraleState::Wavering);
        picture.look(&scene, &field, &world, 7, Some(0));
        picture.hear_unit(&field, &world, 0);
        world.units[0].location.set_state(MoraleState::Routing);
        picture.look(&scene, &field, &world, 7, Some(0));
        let state = |p: &Picture| p.own[0].as_ref().map(|w| w.record.location.state());
        assert_eq!(state(&picture), Some(MoraleState::Wavering));
        picture.hear_unit(&field, &world, 0);
        assert_eq!(state(&picture), Some(MoraleState::Routing));
        assert_eq!(picture.units_told, vec![0]);
    }

    #[test]
    fn an_enemy_seen_moving_is_moving_at_every_look_of_the_turn() {
        let (scene, field, mut world) = cut_off();
        let mut picture = Picture::new(&scene, 0);
        // The banner at the ford, in Zhang's sight; then on the south bank.
        world.vision.blind = vec![false; 4];
        world.units[1].location = crate::sim::components::Location::new(1, true);
        world.turn = 1;
        assert!(!look_twice(&scene, &field, &world, &mut picture));
        world.turn = 2;
        world.units[1].location = crate::sim::components::Location::new(0, true);
        world.units[0].location = crate::sim::components::Location::new(1, true);
        assert!(!look_twice(&scene, &field, &world, &mut picture));
        assert_eq!(
            picture.sighting(1).map(|s| (s.zone, s.bearing)),
            Some((0, Bearing::Moving))
        );
    }

    #[test]
    fn the_enemys_fallen_commander_is_known_only_once_his_fall_is_seen_or_told() {
        // The Khan falls in his tent, two zones beyond Zhang's sight.
        let (scene, field, mut world) = two_chiefs();
        world.vision.blind = vec![false; 4];
        world.commanders[1].fallen = Some(Fate::Killed);
        let mut picture = Picture::new(&scene, 0);
        world.turn = 1;
        assert!(!look_twice(&scene, &field, &world, &mut picture));
        let khan = |p: &Picture, w: &WorldState| {
            Known::of(&field, w, &Arc::new(p.clone())).commanders[1].is_some()
        };
        assert!(!khan(&picture, &world), "a fall nobody saw");
        // Zhang rides up to the north bank and sees the tent: known from
        // then on, back on the south bank too.
        world.turn = 2;
        world.commanders[0].zone = 2;
        assert!(!look_twice(&scene, &field, &world, &mut picture));
        assert!(khan(&picture, &world));
        world.turn = 3;
        world.commanders[0].zone = 0;
        assert!(!look_twice(&scene, &field, &world, &mut picture));
        assert!(khan(&picture, &world));
        // Or a text tells it, unseen.
        let mut told = Picture::new(&scene, 0);
        world.turn = 1;
        told.look(&scene, &field, &world, 7, Some(0));
        assert!(!khan(&told, &world));
        told.hear_fall(&world, 1);
        assert!(khan(&told, &world));
        told.look(&scene, &field, &world, 7, Some(0));
        assert!(khan(&told, &world));
    }

    #[test]
    fn a_text_is_word_of_an_own_unit_not_heard_of_as_it_is() {
        let (scene, field, mut world) = cut_off();
        let mut picture = Picture::new(&scene, 0);
        world.turn = 1;
        picture.look(&scene, &field, &world, 7, Some(0));
        world.turn = 2;
        // On the south bank, in his sight: heard of as it is, nothing new.
        world.units[0].location = crate::sim::components::Location::new(0, true);
        picture.look(&scene, &field, &world, 7, Some(0));
        let before = picture.clone();
        picture.hear_unit(&field, &world, 0);
        assert_eq!(picture, before);
        // The enemy's banner, or no such unit: nothing either.
        picture.hear_unit(&field, &world, 1);
        picture.hear_unit(&field, &world, 9);
        assert_eq!(picture, before);
        // A rider's word on its way (the foot at the ford, which the smoke
        // blinds: two turns' ride) is dropped once a text tells of it.
        world.turn = 3;
        world.units[0].location = crate::sim::components::Location::new(1, true);
        world.vision.blind = vec![false, true, false, false];
        picture.look(&scene, &field, &world, 7, Some(0));
        assert!(picture.own_pending.iter().any(|(_, u, _)| *u == 0));
        assert_eq!(picture.own[0].as_ref().map(|w| w.turn), Some(2));
        picture.hear_unit(&field, &world, 0);
        assert!(!picture.own_pending.iter().any(|(_, u, _)| *u == 0));
        assert_eq!(picture.own[0].as_ref().map(|w| w.turn), Some(3));
        assert_eq!(picture.units_told, vec![0]);
        // Told twice the same turn: noted once.
        picture.hear_unit(&field, &world, 0);
        assert_eq!(picture.units_told, vec![0]);
    }

    #[test]
    fn a_text_is_word_only_of_a_fall_that_happened() {
        let (scene, field, mut world) = two_chiefs();
        let mut picture = Picture::new(&scene, 0);
        world.turn = 1;
        picture.look(&scene, &field, &world, 7, Some(0));
        // Standing: nothing is heard.
        let before = picture.clone();
        picture.hear_fall(&world, 2);
        assert_eq!(picture, before);
        // No such commander: nothing either.
        picture.hear_fall(&world, 9);
        assert_eq!(picture, before);
        // The enemy's Khan fallen: the chronicle leaves it to the text; the
        // picture keeps no word of the enemy's commanders.
        world.commanders[1].fallen = Some(Fate::Captured);
        picture.hear_fall(&world, 1);
        assert_eq!(picture.falls_told, vec![1]);
        assert_eq!(picture.chiefs[1], None);
        // Told twice the same turn: noted once.
        picture.hear_fall(&world, 1);
        assert_eq!(picture.falls_told, vec![1]);
    }
}
