//! The story's types: what is told and how (`Told`, `Arg`, `Output`), the
//! commands a game is made of and their errors, the story's state and the
//! undo snapshot.

use super::*;

/// Story text as it was told: the scene's text and the values its
/// placeholders had at that moment, kept apart so the REPL can write them in
/// the reader's language (numbers grouped, names and the clock localized).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Told {
    pub text: Text,
    pub args: Vec<(String, Arg)>,
}

/// What a game's telling showed of its scene's texts, for the scene
/// checker (`check --play`): kept only for a game opened with
/// [`Game::audited`]. Texts are named by [`Audit`]'s ids: `ITEM.FIELD`,
/// with `[k]` for the `k`th variant of a list (`tp-id/option-id` for an
/// option's texts; `atmosphere[k]` for the scene's atmosphere).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Audit {
    /// The ids of every text told.
    pub told: BTreeSet<String>,
    /// Each telling of a text while one of its claims did not hold.
    pub false_claims: Vec<FalseClaim>,
    /// Each placeholder that printed nothing: (text id, placeholder, turn).
    pub empty_placeholders: Vec<(String, String, u32)>,
}

/// A text told while something it claims was false.
#[derive(Debug, Clone, PartialEq)]
pub struct FalseClaim {
    /// The text's id (see [`Audit`]).
    pub text: String,
    /// The claim, as the scene writes it.
    pub claim: String,
    pub turn: u32,
}

/// The value of a placeholder when its text was told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// A number of men the teller counted (his own): said round in prose.
    Count(u32),
    /// A number of men the teller estimated from what was seen.
    About(u32),
    /// A number of men the teller has only a rough idea of (far off, in
    /// smoke, by report, before the battle).
    Rough(u32),
    /// A number nobody on the teller's side could know.
    Unknown,
    /// A name from the scene: what is named, its name read in the scene.
    Name(Named),
    /// Clock minutes after midnight of the first day.
    Clock(u32),
    /// A turn number.
    Turn(u32),
    /// Nobody holds the place.
    Nobody,
}

/// An event's text as it was told, for the `log`: the event, which of its
/// text's variants, and the values its placeholders had, each by its place
/// in the variant's placeholders (`Variants::slots`). The words are the
/// scene's: [`Telling::told`] reads them back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Telling {
    pub turn: u32,
    pub event: EventId,
    pub variant: u32,
    pub values: Vec<(u32, Arg)>,
}

impl Telling {
    /// The text told, with its values: None for a telling of another
    /// scene (an event, variant or placeholder this one lacks).
    pub fn told(&self, scene: &Scene) -> Option<Told> {
        let k = self.variant as usize;
        let prose = scene.events().get(self.event.idx())?.text.as_ref()?;
        let (_, text) = prose.variants().into_iter().nth(k)?;
        let variants = scene
            .resolved()
            .events
            .get(self.event.idx())?
            .text
            .as_ref()?;
        let slots = variants.slots.get(k)?;
        let args = (self.values.iter())
            .map(|(slot, arg)| Some((slots.get(*slot as usize)?.0.clone(), arg.clone())))
            .collect::<Option<Vec<_>>>()?;
        Some(Told {
            text: text.clone(),
            args,
        })
    }
}

/// What the story tells; the REPL renders each in the player's language.
/// Everything here is already seen from the player's side: text of the side
/// nobody plays reaches him only as what that side let him perceive.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// A new turn begins.
    Turn { turn: u32, minute: u32 },
    /// Something the simulation reports.
    Chronicle(Entry),
    /// An event fired; its text, if the player is told anything of it.
    Event { id: EventId, text: Option<Told> },
    /// Story text: a narration, what was perceived of a choice.
    Narrate(Told),
    /// The player sent an order: obeyed at once (`arrives` None) or carried
    /// by a courier who should reach the unit by the turn `arrives`.
    Ordered {
        unit: usize,
        order: UnitCommand,
        arrives: Option<u32>,
    },
    /// A courier reached his unit: the order is in force.
    OrderArrived { unit: usize },
    /// A courier found his unit broken or gone: the order is lost.
    OrderLost { unit: usize },
    /// A rumor's cry heard nearby (the side that raised it by a choice
    /// reads it in the choice's narration).
    Cry(Told),
    /// The player must choose at this turning point.
    Situation { tp: TpId },
    /// A turning point was decided (by the player or the policy). The REPL
    /// names the choice only when the player made it.
    Decided {
        tp: TpId,
        /// The option's place in the turning point's `options`.
        option: u32,
        by_player: bool,
    },
    /// The battle is over.
    Ending {
        id: EndingId,
        text: Option<Told>,
        summary: Option<Told>,
        history: Option<Told>,
    },
}

/// How the side nobody plays (and the auto-player) decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Policy {
    /// The novel's choice.
    #[default]
    Historical,
    /// Any option, drawn from the policy's own seeded stream.
    Random,
    /// The option with the best expected result for the deciding
    /// commander's side over a few look-ahead games (`greedy.rs`).
    Greedy,
}

impl Policy {
    /// The policy's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Historical => "historical",
            Policy::Random => "random",
            Policy::Greedy => "greedy",
        }
    }
}

/// A player's command, as kept in the command log for saves and replay
/// (which name its ids: `save::SavedCommand`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Let a turn pass.
    Next,
    /// Take option `option` (its place in the point's `options`) at
    /// turning point `tp`.
    Choose { tp: TpId, option: u32 },
    /// Send an order to one of the player's units.
    Order { unit: UnitId, order: UnitCommand },
}

/// The most commands a game's log holds (and a save's): turns and choices
/// (each battle bounds them: at most 1,000 turns and
/// [`crate::scene::MAX_TURNING_POINTS`] choices) always fit; orders fill
/// the rest ([`order_room`]).
pub const MAX_LOG: usize = 20_000;

/// The log's length past which no order is taken in `scene`: what is left
/// is kept for every turn and choice the battle can still take, so no game
/// logs more than [`MAX_LOG`] commands.
pub fn order_room(scene: &Scene) -> usize {
    let turns_and_choices = (scene.meta().max_turns as usize)
        .saturating_add(1)
        .saturating_add(scene.turning_points().len());
    MAX_LOG.saturating_sub(turns_and_choices)
}

/// An order the player gives a unit of his own (`order UNIT …`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitCommand {
    /// Stand and fight where it is.
    Hold,
    /// Go to the zone by the shortest way, fighting what it meets.
    Advance(ZoneId),
    /// Go to the zone to fight there, with the drums beating the charge.
    Attack(ZoneId),
    /// Fall back to the side's line of retreat.
    Withdraw,
    /// Fall back on the commander who sent the order.
    Rally,
}

/// An order on its way to a unit by courier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Courier {
    pub unit: UnitId,
    pub order: UnitCommand,
    /// Delivered at the end of this turn, in force for the turns after it.
    pub arrives: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoryError {
    #[error("a choice is waiting: pick an option by its number")]
    ChoicePending,
    #[error("there is nothing to choose now")]
    NothingToChoose,
    #[error("there is no option {0}; choose 1 to {1}")]
    NoSuchOption(usize, usize),
    /// A logged choice (a save, a replay) names an option the turning point
    /// does not have.
    #[error("the choice has no option `{0}`")]
    NoOptionNamed(String),
    #[error("the battle is over")]
    Ended,
    #[error("no such role `{0}`; playable roles: {1}")]
    NoSuchRole(String, String),
    #[error("undo is not allowed in this battle (ironman)")]
    UndoForbidden,
    #[error("nothing to undo: this is the start of the battle")]
    NothingToUndo,
    #[error("{0} gives no orders in this battle: he decides only at the turning points")]
    NoOrders(String),
    #[error("no unit of yours is called `{0}`")]
    NoSuchUnit(String),
    #[error("there is no place called `{0}` on this field")]
    NoSuchZone(String),
    #[error("that unit is not on the field")]
    NotOnField,
    #[error("that unit is running and will not listen until it is rallied")]
    WillNotListen,
    #[error("no road leads from you to that unit: no rider can reach it")]
    NoRoad,
    /// The log holds as many orders as a save keeps: only turns and choices
    /// (which the battle bounds) go on.
    #[error(
        "you have given {0} orders, as many as a saved game can hold: no more orders this battle, but the turns and choices go on (`next`)"
    )]
    TooManyOrders(usize),
    /// A game `simulate` played stopped on an error of its own: a fault
    /// of the engine, reported with the seed that shows it.
    #[error("the game with seed {seed} stopped at turn {turn}: {error}")]
    Stuck {
        seed: u64,
        turn: u32,
        error: Box<StoryError>,
    },
}

/// The story's own state: everything besides the world that a save must
/// hold, by the scene's typed ids (a save names them: `save::SavedStory`).
#[derive(Debug, PartialEq, Eq, Default)]
pub struct StoryState {
    /// (turning point, option) in the order they were decided.
    pub chosen: Vec<(TpId, u32)>,
    /// The events that fired, in the order they fired.
    pub happened: Vec<EventId>,
    pub flags: BTreeSet<FlagId>,
    pub pending: Option<TpId>,
    pub ended: Option<EndingId>,
    /// The events the player was told of, as told: the `log`.
    pub journal: Vec<Telling>,
    /// Orders on their way to the player's units.
    pub couriers: Vec<Courier>,
    /// The turn each flag was set, event happened or turning point was
    /// decided, for `TurnsSince`: kept only for the ids a scene's
    /// `TurnsSince` conditions name (so saves of other scenes are as before).
    pub since: BTreeMap<WatchId, u32>,
    /// Orders of the side nobody plays on their way to its units, answering
    /// the player's (its doctrine, `doctrine.rs`); never shown to him.
    pub answers: Vec<Courier>,
}

/// World and story together: what undo rewinds and a save stores.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// Shared: the battle's view of the world it was taken from, which the
    /// undo history, the writer and the battle hold alike while it stands
    /// (the battle captures its next view into new memory then).
    pub world: Arc<WorldState>,
    pub story: StoryState,
    pub policy_rng: BattleRng,
    pub log_len: usize,
    /// The played side's picture (`picture.rs`); empty in a snapshot made
    /// from a save file, rebuilt from the world when restored. Shared with
    /// the game while it stands.
    pub picture: Arc<Picture>,
}

impl Clone for StoryState {
    fn clone(&self) -> Self {
        StoryState {
            chosen: self.chosen.clone(),
            happened: self.happened.clone(),
            flags: self.flags.clone(),
            pending: self.pending,
            ended: self.ended,
            journal: self.journal.clone(),
            couriers: self.couriers.clone(),
            since: self.since.clone(),
            answers: self.answers.clone(),
        }
    }

    /// Field by field, into the lists' memory (a derived `clone_from`
    /// makes every list anew): each look-ahead game of the greedy policy
    /// starts with one. The sets and maps are copied only when they differ.
    fn clone_from(&mut self, source: &Self) {
        // Destructured, so a field added to the story cannot be forgotten here.
        let StoryState {
            chosen,
            happened,
            flags,
            pending,
            ended,
            journal,
            couriers,
            since,
            answers,
        } = self;
        chosen.clone_from(&source.chosen);
        happened.clone_from(&source.happened);
        if *flags != source.flags {
            flags.clone_from(&source.flags);
        }
        *pending = source.pending;
        *ended = source.ended;
        journal.clone_from(&source.journal);
        couriers.clone_from(&source.couriers);
        if *since != source.since {
            since.clone_from(&source.since);
        }
        answers.clone_from(&source.answers);
    }
}

impl StoryState {
    /// Empties the story (a new game), keeping its lists' memory.
    pub(super) fn clear(&mut self) {
        // Destructured, so a field added to the story cannot be forgotten here.
        let StoryState {
            chosen,
            happened,
            flags,
            pending,
            ended,
            journal,
            couriers,
            since,
            answers,
        } = self;
        chosen.clear();
        happened.clear();
        flags.clear();
        *pending = None;
        *ended = None;
        journal.clear();
        couriers.clear();
        since.clear();
        answers.clear();
    }
}
