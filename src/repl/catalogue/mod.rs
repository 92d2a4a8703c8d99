//! The message catalogue: every word the interface says, per language.
//!
//! The REPL and the CLI never hold a sentence of their own: they name a
//! message, typed (a [`Ui`] phrase, a [`Msg`] with its values, a closed enum
//! such as [`Detail`] or [`MoraleState`]) and this module says it in the
//! reader's language. Each language is one file (`en.rs`, `zh.rs`) whose
//! functions `match` every message exhaustively, so a message added here
//! without a translation is a compile error, not an empty line. This is the
//! only place in `repl/` and `cli.rs` that asks which language the reader
//! reads (`Locale`); number words stay in `numbers.rs`, a language module
//! of its own.
//!
//! Traditional Chinese is not a file: it is the Simplified text converted
//! by OpenCC's tables (`scene/hant.rs`, with its Taiwan terms), each message
//! converting its fixed words and leaving the names and values it was given
//! as they came. A third language is a new file with the same functions and
//! an arm in each dispatch below (see ARCHITECTURE.md, *Localisation*).

mod en;
mod zh;

use crate::picture::Bearing;
use crate::scene::{Compass, Fate, Locale, MoraleState};
use crate::sim::morale::Modifier;

/// Declares a closed set of fixed phrases and the list of them all.
macro_rules! phrases {
    ($(#[$doc:meta])* pub enum $name:ident { $($(#[$vdoc:meta])* $variant:ident,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name { $($(#[$vdoc])* $variant,)* }
        impl $name {
            /// Every phrase, for the test that each is said in every language.
            pub const ALL: &[$name] = &[$($name::$variant,)*];
        }
    };
}

/// Why a run of turns (`next N`, `wait`) stops: something needs the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Alert {
    /// A bridge or ford destroyed.
    Destroyed,
    /// A commander of his side killed, wounded or taken in the fighting.
    CommanderFell,
    /// One of his units broke, shattered or surrendered.
    OwnBroke,
    /// His units are being attacked.
    Attacked,
    /// An enemy came into sight near his men.
    EnemySighted,
    /// One of his units arrived.
    Arrived,
    /// The story: a choice to make, an event told, the end.
    Story,
}

/// A command of the prompt (the command table, `commands.rs`, names its words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Look,
    Status,
    Map,
    Next,
    Wait,
    Report,
    Order,
    Orders,
    Log,
    Why,
    Save,
    Load,
    Saves,
    Undo,
    Reload,
    Redo,
    Sources,
    Lang,
    Help,
    Quit,
}

phrases! {
    /// Fixed phrases of the interface: headings, labels, separators.
    pub enum Ui {
        Turn,
        TurnSuffix,
        Choose,
        Ending,
        AfterAction,
        History,
        HistoryRecords,
        NotKnown,
        NoneSeen,
        YouAre,
        YourChoice,
        Novel,
        HistoryChoice,
        Men,
        NoWhy,
        /// In `why`, of a unit whose word came from a text alone: the text
        /// said how it stands, not what moved it.
        WhyToldOnly,
        NoLog,
        Seed,
        /// A number nobody knows, in story text.
        UnknownNumber,
        /// Nobody, in story text.
        Nobody,
        /// The player's side in a clash's losses.
        You,
        /// Between names in a list.
        ListSep,
        /// Between clauses of one line.
        ClauseSep,
        /// Between items that hold commas.
        ItemSep,
        /// After a label.
        Colon,
        OrdersInForce,
        RunningDeaf,
        OnTheirWay,
        NorthUp,
        Legend,
        Destroyed,
        /// A unit with no men left, in `status`.
        UnitDestroyed,
        /// Why a unit in `status` is not yet where its order sends it.
        StuckCourier,
        StuckCrowd,
        StuckDark,
        StuckDepth,
        /// On open water, a unit the boats have not all carried over yet.
        StuckBoats,
        StuckHeld,
        Fire,
        Unseen,
        NoOneInSight,
        UnknownNumbers,
        NotInField,
        YourSide,
        ThickSmoke,
        ThinSmoke,
        ClearAir,
        Unreadable,
        /// Before a unit's label in a list of zones' units.
        LabelGap,
        /// Between two sentences on one line.
        SentenceGap,
        /// Between the losses of a fight that goes on.
        LossesSep,
        /// Between the date and the place on the opening screen.
        DatePlaceSep,
        FirstHint,
        Cancelled,
        NotText,
        OrderUsage,
        OrdersChanged,
        NextTakesNumber,
        NothingToReport,
        NoSceneFolder,
        NothingToRedo,
        GivenBack,
        SoFar,
        ChooseBattle,
        ChooseCommander,
        /// Above the games left off in the save folder (`play` alone).
        GoOnWith,
        /// The last item of that menu.
        NewGame,
        /// That menu's prompt.
        ChooseGame,
        /// The game's name on the welcome screen.
        WelcomeTitle,
        WelcomeWhat,
        /// Between the parts of a battle's card in the menu.
        CardSep,
        /// Between the sides: "A against B".
        Against,
        /// Between the roles: "A or B".
        Or,
        /// Above the command list of `help`.
        HelpHead,
        /// Between the items of the drawn map's legend.
        LegendGap,
    }
}

phrases! {
    /// The detailed chronicle's templates (`report`), one per kind of entry,
    /// with `{name}` placeholders.
    pub enum Detail {
        Wind,
        FireStarts,
        FireSpreads,
        FireOut,
        SmokeThick,
        SmokeClears,
        RumorLost,
        RumorWon,
        RumorDoubted,
        Moves,
        Crossed,
        Trampled,
        Drowned,
        Burned,
        Clash,
        ClashSide,
        Casualties,
        Wavers,
        Steadies,
        Routs,
        Cascade,
        Shattered,
        Drums,
        DrumsFar,
        DrumsHeard,
        Rallies,
        Surrenders,
        Officers,
        Arrives,
        GHeartened,
        GShaken,
        GDoubted,
        GMoves,
        GCrossed,
        GWavers,
        GSteadies,
        GRouts,
        GCascade,
        GShattered,
        GDrumsHeard,
        GRallies,
        Destroyed,
        Obscured,
        Unobscured,
        YouKilled,
        YouWounded,
        YouCaptured,
        Killed,
        Wounded,
        Captured,
        /// An own commander's fall, by word that came after its turn.
        KilledHeard,
        WoundedHeard,
        CapturedHeard,
    }
}

impl Detail {
    /// A commander's fall: to the played commander himself, or to anyone.
    pub fn fall(fate: Fate, yours: bool) -> Detail {
        match (fate, yours) {
            (Fate::Killed, true) => Detail::YouKilled,
            (Fate::Wounded, true) => Detail::YouWounded,
            (Fate::Captured, true) => Detail::YouCaptured,
            (Fate::Killed, false) => Detail::Killed,
            (Fate::Wounded, false) => Detail::Wounded,
            (Fate::Captured, false) => Detail::Captured,
        }
    }

    /// An own commander's fall, told when word of it comes after its turn.
    pub fn fall_heard(fate: Fate) -> Detail {
        match fate {
            Fate::Killed => Detail::KilledHeard,
            Fate::Wounded => Detail::WoundedHeard,
            Fate::Captured => Detail::CapturedHeard,
        }
    }
}

phrases! {
    /// The turn's prose (`chronicle.rs`): a sentence template, `{list}` taking
    /// names, the rest as named.
    pub enum Say {
        Destroyed,
        /// A blast whose dead include the player's men: `{own}` of `{men}`.
        DestroyedOwn,
        /// A blast whose dead are (nearly) all the player's.
        DestroyedAllOwn,
        DestroyedEmpty,
        OwnRout,
        OwnRoutMany,
        SeenRout,
        SeenRoutMany,
        Shattered,
        ShatteredMany,
        /// His own units with no men left.
        UnitDestroyed,
        UnitDestroyedMany,
        Surrender,
        SurrenderMany,
        Officers,
        Arrive,
        ArriveMany,
        Fight,
        FightOwnOnly,
        FightSeenOnly,
        FightGoesOn,
        FightHeard,
        Trampled,
        TrampledOwn,
        /// A crush of both sides: `{men}` in all, `{own}` of them his.
        TrampledBoth,
        /// A crush on open water: the men drown.
        Drowned,
        DrownedOwn,
        DrownedBoth,
        /// Men killed by a fire where they stand.
        Burned,
        BurnedOwn,
        BurnedBoth,
        LossOwn,
        LossSeen,
        Rally,
        RallyMany,
        RoutRallied,
        RoutRalliedMany,
        News,
        NewsMany,
        NewsLost,
        NewsLostMany,
        /// Riders' reports of own units out of the commander's sight, per
        /// place and hour.
        Rider,
        RiderMany,
        RiderLost,
        RiderLostMany,
        Drums,
        DrumsYours,
        DrumsHeardFar,
        Shaken,
        ShakenMany,
        Heartened,
        HeartenedMany,
        Doubted,
        Waver,
        WaverMany,
        Steady,
        SteadyMany,
        March,
        MarchMany,
        Flee,
        FleeMany,
        Cross,
        CrossMany,
        /// Own units that came into a place where there is fighting this
        /// turn: the march and the fight in one sentence (`{losses}` as in
        /// `FightGoesOn`), so the fight is not told before they came.
        MarchFight,
        MarchFightMany,
        CrossFight,
        CrossFightMany,
        EnemyComes,
        EnemyAppears,
        EnemyAppearsAgain,
        FireStarts,
        FireSpreads,
        FireOut,
        SmokeThick,
        SmokeClears,
        WindNow,
        /// The wind turned clockwise by itself: `{from}` the point it now
        /// comes from.
        WindVeers,
        /// The wind turned anticlockwise by itself.
        WindBacks,
        Others,
    }
}

impl Say {
    pub fn get(self, locale: Locale) -> &'static str {
        match locale {
            Locale::En => en::say(self),
            Locale::ZhHans | Locale::ZhHant => locale.zh(zh::say(self)),
        }
    }
}

phrases! {
    /// `help order` and `help VERB`: the orders, and what `order` does.
    pub enum OrderHelp {
        Intro,
        Hold,
        Advance,
        Attack,
        Withdraw,
        Rally,
    }
}

phrases! {
    /// The drawn map's legend, item by item, in this order (`InABox` only
    /// under the full drawing).
    pub enum MapKey {
        Legend,
        You,
        YourMen,
        EnemyNow,
        EnemyEarlier,
        Unseen,
        ThinSmoke,
        ThickSmoke,
        Fire,
        Roads,
        InABox,
    }
}

/// What kind of enemy troops could be made out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Troops {
    Horse,
    Foot,
    /// Only shapes: horse or foot, nobody could tell.
    Troops,
}

/// An order as the player gave it, its place already named.
#[derive(Debug, Clone, Copy)]
pub enum Order<'a> {
    Hold,
    Advance(&'a str),
    Attack(&'a str),
    Withdraw,
    Rally,
}

/// What a unit's standing order has it do, its goal already named.
#[derive(Debug, Clone, Copy)]
pub enum Doing<'a> {
    Hold,
    MoveTo(&'a str),
    Pursue,
    RallyTo(&'a str),
}

/// How a `reload` went, for [`SessionMsg::Reloaded`].
#[derive(Debug, Clone, Copy)]
pub enum Reload<'a> {
    /// A command (counted from 1) could not run on the new version.
    Failed { command: usize, why: &'a str },
    /// The new version plays differently from this turn on.
    PartsAt { turn: u32 },
    /// The same game: only the texts are new.
    Same,
    /// The commands end in another state, `describe`d.
    Differs { describe: &'a str },
}

/// An order, its rider, and what a unit is doing, said.
#[derive(Debug, Clone, Copy)]
pub enum OrderMsg<'a> {
    Order(Order<'a>),
    /// The order taken at once (`plural`: the unit's English name is plural).
    OrderedNow {
        unit: &'a str,
        what: &'a str,
        plural: bool,
    },
    /// A rider sent, due at `minute`.
    OrderedRider {
        unit: &'a str,
        what: &'a str,
        plural: bool,
        minute: u32,
    },
    OrderDelivered {
        unit: &'a str,
    },
    OrderLost {
        unit: &'a str,
    },
    Doing(Doing<'a>),
    /// What a unit does, and when it should be there.
    DoingThereBy {
        doing: &'a str,
        at: &'a str,
    },
    /// A line of `orders`.
    OrdersLine {
        unit: &'a str,
        id: &'a str,
        at: &'a str,
        doing: &'a str,
    },
    /// An order on its way in `orders`.
    CourierLine {
        unit: &'a str,
        what: &'a str,
        minute: u32,
    },
    ChangedOrder {
        unit: &'a str,
        was: &'a str,
        now: &'a str,
    },
    CalledBack {
        unit: &'a str,
        what: &'a str,
    },
}

/// A line of the views (`status`, `map`, `report`, `saves`): what is seen,
/// where and when.
#[derive(Debug, Clone, Copy)]
pub enum ViewMsg<'a> {
    /// A commander's drums; `yours` when he is the played one.
    DrumsOf {
        yours: bool,
        commander: &'a str,
    },
    /// An enemy body nobody could name: "a body of {side} horse".
    Body {
        side: &'a str,
        troops: Troops,
    },
    /// Enemy bodies in a list: "{side} horse".
    Troops {
        side: &'a str,
        troops: Troops,
    },
    TurnHeader {
        turn: u32,
        minute: u32,
        wind: &'a str,
    },
    TurnsHeader {
        first: u32,
        last: u32,
        from: u32,
        to: u32,
        wind: &'a str,
    },
    /// A figure of men in `status`'s list form.
    MenCell {
        men: &'a str,
    },
    /// A zone's marks on `map list`: fire, smoke, destroyed.
    Marks {
        marks: &'a [String],
    },
    /// An own unit's label in a list of a zone's units.
    UnitLabel {
        id: &'a str,
    },
    /// An enemy body seen in a zone (`men` empty when not said).
    SeenInZone {
        name: &'a str,
        men: &'a str,
        bearing: &'a str,
    },
    /// The same, seen (or, `reported`, heard of by report) at `at`: the
    /// one wording of a sighting's time, as `status` words it too.
    SeenAt {
        line: &'a str,
        at: &'a str,
        reported: bool,
    },
    /// A state or place with the age of the word that gave it.
    Stale {
        what: &'a str,
        at: &'a str,
    },
    /// An enemy seen somewhere but gone from there since.
    PlaceGone {
        zone: &'a str,
        zone_cap: &'a str,
        at: &'a str,
    },
    /// Where an enemy was reported, and when (as [`ViewMsg::SeenAt`]).
    PlaceReported {
        zone: &'a str,
        at: &'a str,
    },
    /// Where an enemy was seen, and when (as [`ViewMsg::SeenAt`]).
    PlaceSeen {
        zone: &'a str,
        at: &'a str,
    },
    /// Where the commander stands and what he sees from there.
    Whereabouts {
        here: &'a str,
        blind: bool,
        smoky: bool,
        seen: &'a [String],
    },
    /// A list cut short: "and 3 more".
    AndMore {
        more: usize,
    },
    WeatherLine {
        wind: &'a str,
        zone: &'a str,
        smoke: &'a str,
    },
    SavesIn {
        dir: &'a str,
    },
    SaveTurn {
        turn: &'a str,
    },
}

/// The reckoning of the enemy and the reveal: losses, what was believed
/// against what was so, the cries heard.
#[derive(Debug, Clone, Copy)]
pub enum RevealMsg<'a> {
    OwnLosses {
        side: &'a str,
        lost: &'a str,
        left: &'a str,
    },
    TheirReckoning {
        side: &'a str,
        men: Option<&'a str>,
    },
    /// The reveal: a side's truth against the reckoning.
    RevealSide {
        side: &'a str,
        brought: &'a str,
        lost: &'a str,
        standing: &'a str,
        guess: Option<&'a str>,
    },
    UnseenUnit {
        unit: &'a str,
        men: &'a str,
        zone: &'a str,
    },
    NeverSeen {
        items: &'a str,
    },
    MovedUnit {
        unit: &'a str,
        at: &'a str,
        was: &'a str,
        is: &'a str,
    },
    NotWhereThought {
        items: &'a str,
    },
    WrongUnit {
        unit: &'a str,
        guess: &'a str,
        truth: &'a str,
    },
    ReckonedWrong {
        items: &'a str,
    },
    /// A cry heard: what it claimed of a side.
    Claim {
        side: &'a str,
        routed: bool,
    },
    Cry {
        claim: &'a str,
        believers: usize,
        at: &'a str,
        true_then: bool,
    },
    /// A cry named by its words, as it was raised and heard.
    CryHeard {
        words: &'a str,
        believers: usize,
        at: &'a str,
        true_then: bool,
    },
}

/// What the prompt says of a command it cannot take.
#[derive(Debug, Clone, Copy)]
pub enum PromptMsg<'a> {
    /// No unit (or, `zone`, no place) is called `words`.
    NotFound {
        words: &'a str,
        near: Option<&'a str>,
        zone: bool,
    },
    /// `words` could name several units (or, `zone`, places): by their
    /// beginning, or as near a typo of each.
    Several {
        words: &'a str,
        several: &'a [&'a str],
        zone: bool,
    },
    /// `order` with no verb, one of its words near one: `advnce`.
    NotAnOrder {
        word: &'a str,
        near: &'a str,
        usage: &'a str,
    },
    StdinBroken {
        why: &'a str,
    },
    TooLong {
        size: &'a str,
        max: &'a str,
    },
    ChooseOption {
        count: usize,
    },
    TooLarge {
        number: &'a str,
        max: Option<usize>,
    },
    SlotOneWord {
        command: &'a str,
        extra: &'a str,
        max: usize,
    },
    ExtraWords {
        command: &'a str,
        usage: &'a str,
        extra: &'a str,
    },
    OrderNamesUnit {
        example: &'a str,
    },
    UnknownCommand {
        word: &'a str,
        suggestion: Option<&'a str>,
    },
    NoHelp {
        topic: &'a str,
    },
    MapTakesList {
        word: &'a str,
    },
    /// `sources` with a word other than on or off.
    SourcesTakes {
        word: &'a str,
    },
    UnknownLanguage {
        tag: &'a str,
        tags: &'a [&'a str],
    },
}

/// A line of the session: the opening, leaving, saves and loads, the log.
#[derive(Debug, Clone, Copy)]
pub enum SessionMsg<'a> {
    /// The opening's role line.
    RoleLine {
        role: &'a str,
        seed: u64,
    },
    /// A cry heard nearby.
    CryNearby {
        cry: &'a str,
    },
    /// The game saved on leaving: its slot, the save folder when it was
    /// named (`--saves DIR`), and whether the battle was over.
    Left {
        slot: &'a str,
        saves: Option<&'a str>,
        over: bool,
    },
    LeaveFailed {
        err: &'a str,
    },
    /// Another game holds the save folder's lock.
    FolderBusy {
        folder: &'a str,
    },
    /// An error that ends the program, as `main` prints it.
    Fatal {
        err: &'a str,
    },
    /// `--scene` names no battle: the nearest id, if any, the battles
    /// there are, and whether it is an example shipped beside them.
    NoSuchBattle {
        id: &'a str,
        near: Option<&'a str>,
        list: &'a str,
        example: bool,
    },
    /// `--role` names no commander the battle lets one play.
    NoSuchRole {
        role: &'a str,
        battle: &'a str,
        near: Option<&'a str>,
        list: &'a str,
    },
    Stopped {
        reason: &'a str,
    },
    /// A run of turns stopped by a heavy loss (rule `stop_losses`): the
    /// turn's own dead, said, and their share of his men, in whole percent.
    StoppedLosses {
        men: &'a str,
        percent: u32,
        /// The turns the losses were counted over (those of the run so far).
        turns: u32,
    },
    /// Whether the options say which one the novel (or, for a battle from
    /// history, history) took; `label` is that mark's word.
    SourcesShown {
        on: bool,
    },
    /// A game left off, in the menu of `play` alone.
    ResumeItem {
        title: &'a str,
        who: &'a str,
        turn: u32,
        when: &'a str,
        slot: &'a str,
    },
    Saved {
        slot: &'a str,
        path: &'a str,
    },
    Loaded {
        slot: &'a str,
    },
    SceneProblems {
        count: usize,
    },
    NoBattleIn {
        id: &'a str,
        folder: &'a str,
    },
    CannotOpen {
        err: &'a str,
    },
    Reloaded {
        id: &'a str,
        how: Reload<'a>,
    },
    TakenBack {
        steps: u32,
    },
    /// A fallen commander's staff, who chose in his name.
    Staff {
        commander: &'a str,
    },
    /// Where a choice comes from, after it in the log.
    ChoiceSource {
        source: &'a str,
    },
    /// A log entry's turn (None: not known).
    LogTurn {
        turn: Option<u32>,
    },
    RecapLine {
        role: &'a str,
        side: &'a str,
        turn: u32,
        time: &'a str,
        seed: u64,
    },
    AutosaveFailed {
        err: &'a str,
    },
    /// After a slot of a game that does not load: the newest of the game's
    /// other slots that do (at the turn loading it reaches), and how to go
    /// on from it: `load` at the prompt, or the command line with the
    /// folder when one was named (`saves`). `more`: others of the game are
    /// listed by `saves` too.
    OtherSave {
        slot: &'a str,
        turn: u32,
        when: &'a str,
        more: bool,
        in_game: bool,
        saves: Option<&'a str>,
    },
    /// After a damaged slot whose game nothing tells: the folder's slots
    /// that load, newest first (`slot` at `turn`, saved `when`, then the
    /// names `next`; `more`: `saves` lists others), and how to go on from
    /// the newest (as [`SessionMsg::OtherSave`]).
    SavesHere {
        slot: &'a str,
        turn: u32,
        when: &'a str,
        next: &'a [&'a str],
        more: bool,
        in_game: bool,
        saves: Option<&'a str>,
    },
}

/// A line of the command line's menus and battle cards, said.
#[derive(Debug, Clone, Copy)]
pub enum MenuMsg<'a> {
    /// A commander in the menu of roles.
    RoleItem {
        name: &'a str,
        id: &'a str,
        side: &'a str,
    },
    /// A role on a battle's card, with its side.
    RoleWithSide {
        name: &'a str,
        side: &'a str,
    },
    /// How long a battle may last.
    BattleLength {
        max_turns: u32,
        turn_minutes: u32,
    },
    CardWhen {
        date: &'a str,
        place: &'a str,
    },
    CardWho {
        sides: &'a [String],
        roles: &'a [String],
        length: &'a str,
    },
    /// What a menu takes (`asked`: the player typed `help`).
    PickHelp {
        n: usize,
        asked: bool,
    },
}

/// A message with values: names (already painted), figures (already said),
/// times (clock minutes, said here). Messages come in groups by where the
/// interface says them, each its own enum and, in each language, its own
/// function; [`msg`] takes any of them.
#[derive(Debug, Clone, Copy)]
pub enum Msg<'a> {
    Order(OrderMsg<'a>),
    View(ViewMsg<'a>),
    Reveal(RevealMsg<'a>),
    Prompt(PromptMsg<'a>),
    Session(SessionMsg<'a>),
    Menu(MenuMsg<'a>),
}

/// Each group of messages is a [`Msg`].
macro_rules! msg_groups {
    ($($group:ident => $variant:ident),*) => {
        $(impl<'a> From<$group<'a>> for Msg<'a> {
            fn from(message: $group<'a>) -> Msg<'a> {
                Msg::$variant(message)
            }
        })*
    };
}
msg_groups!(
    OrderMsg => Order,
    ViewMsg => View,
    RevealMsg => Reveal,
    PromptMsg => Prompt,
    SessionMsg => Session,
    MenuMsg => Menu
);

/// Why a run of turns stops, in words.
pub fn alert(locale: Locale, alert: Alert) -> &'static str {
    match locale {
        Locale::En => en::alert(alert),
        Locale::ZhHans | Locale::ZhHant => locale.zh(zh::alert(alert)),
    }
}

/// Names in a list of `total` units, `shown` of them named: "A, B, C and
/// 3 more"; 「甲、乙、丙等五部」.
pub fn name_list(locale: Locale, shown: Vec<String>, total: usize) -> String {
    let rest = total - shown.len();
    let others = |n: usize| {
        crate::scene::placeholder::fill(Say::Others.get(locale), |inside| {
            (inside == "n").then(|| match locale {
                Locale::En => n.to_string(),
                // 等五部: a count in Chinese prose is said.
                Locale::ZhHans | Locale::ZhHant => locale.zh_string(super::numbers::zh_numeral(
                    u32::try_from(n).unwrap_or(u32::MAX),
                )),
            })
        })
    };
    match locale {
        Locale::ZhHans | Locale::ZhHant => {
            let mut out = shown.join("、");
            if rest > 0 {
                out.push_str(&others(total));
            }
            out
        }
        Locale::En => {
            let mut items = shown;
            if rest > 0 {
                items.push(others(rest));
            }
            en::and_list(&items)
        }
    }
}

/// A story error as the player reads it (`StoryError`'s own `Display` is
/// the library's English, for the CLI and `simulate`).
pub fn story_error(locale: Locale, err: &crate::story::StoryError) -> String {
    match locale {
        Locale::En => en::story_error(err),
        Locale::ZhHans | Locale::ZhHant => zh::story_error(locale, err),
    }
}

/// A save or load that failed, as the player reads it. English is the
/// library's own words (`SaveError`'s `Display`); Chinese says the same
/// frame in its own words, and why a file is damaged by its kind and place
/// ([`crate::save::Damage`]). What the file system said inside it (an OS
/// error) stays as it came.
pub fn save_error(locale: Locale, err: &crate::save::SaveError) -> String {
    match locale {
        Locale::En => err.to_string(),
        Locale::ZhHans | Locale::ZhHant => zh::save_error(locale, err),
    }
}

/// Why a slot cannot be read, in a few words for the `saves` table.
pub fn short_reason(locale: Locale, err: &crate::save::SaveError) -> String {
    match locale {
        Locale::En => crate::save::short_reason(err),
        Locale::ZhHans | Locale::ZhHant => zh::short_reason(locale, err),
    }
}

/// What the player is told of a save that loaded, but not as it was written.
pub fn load_notice(locale: Locale, notice: &crate::save::LoadNotice) -> String {
    match locale {
        Locale::En => notice.to_string(),
        Locale::ZhHans | Locale::ZhHant => zh::load_notice(locale, notice),
    }
}

/// Why a unit refused an order, and what would work instead; None for an
/// error that is not about the unit ([`story_error`] says it).
pub fn order_refused(locale: Locale, unit: &str, err: &crate::story::StoryError) -> Option<String> {
    match locale {
        Locale::En => en::order_refused(unit, err),
        Locale::ZhHans | Locale::ZhHant => zh::order_refused(locale, unit, err),
    }
}

/// A command's line in `help`.
pub fn command_help(locale: Locale, action: Action) -> &'static str {
    match locale {
        Locale::En => en::command_help(action),
        Locale::ZhHans | Locale::ZhHant => locale.zh(zh::command_help(action)),
    }
}

/// What an order does, for `help order` (not converted: the caller
/// converts the whole text, as the help always has).
pub fn order_help(locale: Locale, key: OrderHelp) -> &'static str {
    match locale {
        Locale::En => en::order_help(key),
        Locale::ZhHans | Locale::ZhHant => zh::order_help(key),
    }
}

/// An item of the drawn map's legend.
pub fn map_key(locale: Locale, key: MapKey) -> &'static str {
    match locale {
        Locale::En => en::map_key(key),
        Locale::ZhHans | Locale::ZhHant => locale.zh(zh::map_key(key)),
    }
}

/// A fixed phrase in `locale`.
pub fn ui(locale: Locale, phrase: Ui) -> &'static str {
    match locale {
        Locale::En => en::ui(phrase),
        Locale::ZhHans | Locale::ZhHant => locale.zh(zh::ui(phrase)),
    }
}

/// A message with values in `locale`.
pub fn msg<'a>(locale: Locale, message: impl Into<Msg<'a>>) -> String {
    let message = message.into();
    match locale {
        Locale::En => en::msg(message),
        Locale::ZhHans | Locale::ZhHant => zh::msg(locale, message),
    }
}

/// A `report` template for `locale`.
pub fn template(locale: Locale, key: Detail) -> &'static str {
    match locale {
        Locale::En => en::template(key),
        Locale::ZhHans | Locale::ZhHant => locale.zh(zh::template(key)),
    }
}

/// The template for one unit whose English name is plural (`plural: true`
/// in the scene: "the Grey Companies break and run!"), where the verb
/// differs; None where it does not, or the language has no plural verbs.
pub fn plural_template(locale: Locale, key: Detail) -> Option<&'static str> {
    match locale {
        Locale::En => en::plural_template(key),
        Locale::ZhHans | Locale::ZhHant => None,
    }
}

/// Whether the language writes a capital at a sentence's start and "The"
/// in names that open one (lower-cased mid-sentence).
pub fn capitalizes(locale: Locale) -> bool {
    match locale {
        Locale::En => true,
        Locale::ZhHans | Locale::ZhHant => false,
    }
}

pub fn state_name(locale: Locale, state: MoraleState) -> &'static str {
    match locale {
        Locale::En => en::state_name(state),
        Locale::ZhHans | Locale::ZhHant => locale.zh(zh::state_name(state)),
    }
}

pub fn modifier_name(locale: Locale, modifier: Modifier) -> &'static str {
    match locale {
        Locale::En => en::modifier_name(modifier),
        Locale::ZhHans | Locale::ZhHant => locale.zh(zh::modifier_name(modifier)),
    }
}

/// How an enemy body behaves, as seen.
pub fn bearing(locale: Locale, bearing: Bearing) -> &'static str {
    match locale {
        Locale::En => en::bearing(bearing),
        Locale::ZhHans | Locale::ZhHant => locale.zh(zh::bearing(bearing)),
    }
}

/// `status`'s column heads.
pub fn status_head(locale: Locale) -> [&'static str; 5] {
    match locale {
        Locale::En => ["unit", "where", "men", "morale", "state"],
        Locale::ZhHans | Locale::ZhHant => {
            ["部队", "所在", "兵力", "士气", "状态"].map(|h| locale.zh(h))
        }
    }
}

/// The `saves` table's column heads.
pub fn saves_head(locale: Locale) -> [&'static str; 5] {
    match locale {
        Locale::En => ["slot", "battle", "role", "turn", "saved at (UTC)"],
        Locale::ZhHans | Locale::ZhHant => {
            ["槽位", "战役", "角色", "回合", "存于（UTC）"].map(|h| locale.zh(h))
        }
    }
}

/// The clock as the reader reckons it: "16:45" in English; in Chinese the
/// double hours by day (申正三刻（16:45）) and the night watches by night
/// (三更（23:30）), with the clock after.
pub fn time_words(locale: Locale, minute: u32) -> String {
    match locale {
        Locale::En => crate::story::clock(minute),
        Locale::ZhHans | Locale::ZhHant => zh::time_words(locale, minute),
    }
}

/// The wind in words: "a light wind from the south", 「微微南风」. Still air
/// has no direction; `band` is `render::wind_band`'s.
pub fn wind_phrase(locale: Locale, band: u8, toward: Compass) -> String {
    match locale {
        Locale::En => en::wind_phrase(band, toward),
        Locale::ZhHans | Locale::ZhHant => locale.zh_string(zh::wind_phrase(band, toward)),
    }
}

/// The point a wind blowing `toward` comes from, as a name: "south-east",
/// 「东南」.
pub fn wind_from(locale: Locale, toward: Compass) -> String {
    match locale {
        Locale::En => en::point(toward.opposite()).to_string(),
        Locale::ZhHans | Locale::ZhHant => {
            locale.zh_string(zh::point(toward.opposite()).to_string())
        }
    }
}

/// A count of men or units told exactly: "11,415" in English figures,
/// in Chinese numerals 一万一千四百一十五.
pub fn count(locale: Locale, n: u32) -> String {
    match locale {
        Locale::En => crate::story::group_thousands(n),
        Locale::ZhHans | Locale::ZhHant => locale.zh_string(super::numbers::zh_numeral(n)),
    }
}

/// A small count said in running text: "3" in English, 三 in Chinese.
pub fn small_count(locale: Locale, n: usize) -> String {
    match locale {
        Locale::En => n.to_string(),
        Locale::ZhHans | Locale::ZhHant => {
            super::numbers::zh_numeral(u32::try_from(n).unwrap_or(u32::MAX))
        }
    }
}

/// `count` enemy bodies of one label (made by [`ViewMsg::Body`]): "a body of …
/// horse" ×3 is "3 bodies of … horse", 「一队…」 ×3 「三队…」.
pub fn bodies(locale: Locale, name: &str, count: usize) -> String {
    if count < 2 {
        return name.to_string();
    }
    match locale {
        Locale::En => en::bodies(name, count),
        Locale::ZhHans | Locale::ZhHant => zh::bodies(locale, name, count),
    }
}

/// Names as a list that offers one of them: each between `open` and
/// `close`, `sep` between all but the last two, `or` between those
/// ("`a`, `b` or `c`"; “a”、“b”或“c”).
pub(super) fn or_list(names: &[&str], (open, close): (&str, &str), sep: &str, or: &str) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{open}{n}{close}")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{}{or}{last}", rest.join(sep)),
        None => String::new(),
    }
}

/// An estimate as said in prose: "about 300", 「三百来」.
pub fn men_said(locale: Locale, men: u32, sure: super::numbers::Sure) -> String {
    match locale {
        Locale::En => super::numbers::men_en(men, sure),
        Locale::ZhHans | Locale::ZhHant => locale.zh_string(super::numbers::men_zh(men, sure)),
    }
}

/// Men said in a template just before `rest`: as [`men_said`], but in
/// English a count of none before its noun is "no" ("the allies lost no
/// men", not "none men"; "lost none" where the noun is left out).
pub fn men_said_before(locale: Locale, men: u32, sure: super::numbers::Sure, rest: &str) -> String {
    match locale {
        Locale::En if men == 0 && rest.starts_with(" men") => "no".to_string(),
        _ => men_said(locale, men, sure),
    }
}

#[cfg(test)]
mod tests;
