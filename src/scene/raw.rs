//! The raw scene types: exactly what a `.ron` file says, as serde reads it.
//!
//! Every struct rejects unknown fields, so a typo in a scene is an error with a
//! position instead of a silently ignored line. Nothing here is checked beyond
//! its shape; `validate` turns a `RawScene` into a `Scene` that is valid by
//! construction. The authoring guide (`scenes/README.md`) documents each field.

use super::rules::KindRules;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Text shown to the player: one string for every locale, or a map by locale
/// (`"en"`, `"zh-Hans"`, optionally `"zh-Hant"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Text {
    Plain(String),
    Localized(super::text::LocaleMap),
}

impl Default for Text {
    fn default() -> Self {
        Text::Plain(String::new())
    }
}

/// Story text: what situations, narrations, events and endings tell. Either
/// one [`Text`] (a string or a map by locale), told whenever the item is, or
/// a list of variants tried in order: the first whose `when` holds is told,
/// and if none holds nothing is told. Any of them may hold `{placeholders}`
/// filled from the world when the text is told (see the guide, "Story text").
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Prose {
    One(Text),
    Variants(Vec<Variant>),
}

impl Default for Prose {
    fn default() -> Self {
        Prose::One(Text::default())
    }
}

impl From<Text> for Prose {
    fn from(text: Text) -> Self {
        Prose::One(text)
    }
}

impl Prose {
    /// Every text this prose may tell, with the condition it is told under
    /// (`Always` for a single text).
    pub fn variants(&self) -> Vec<(&Condition, &Text)> {
        static ALWAYS: Condition = Condition::Always;
        match self {
            Prose::One(text) => vec![(&ALWAYS, text)],
            Prose::Variants(items) => items.iter().map(|v| (&v.when, &v.text)).collect(),
        }
    }

    /// The claims of each variant, in order (none for a single text).
    pub fn claims(&self) -> Vec<&[Condition]> {
        match self {
            Prose::One(_) => vec![&[]],
            Prose::Variants(items) => items.iter().map(|v| v.claims.as_slice()).collect(),
        }
    }

    pub fn texts_mut(&mut self) -> Vec<&mut Text> {
        match self {
            Prose::One(text) => vec![text],
            Prose::Variants(items) => items.iter_mut().map(|v| &mut v.text).collect(),
        }
    }
}

/// One variant of a [`Prose`]: told when `when` holds (always, if left out).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    #[serde(default = "always")]
    pub when: Condition,
    pub text: Text,
    /// What the text states about the world: each must hold whenever the
    /// text is told. `when` chooses a variant; `claims` says what must be
    /// true of it (`check --play` reports every telling where one did not).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<Condition>,
}

fn always() -> Condition {
    Condition::Always
}

// Written by hand rather than `#[serde(untagged)]`: an untagged enum buffers
// its input, and RON then loses the variant names of the conditions inside
// (`Turn(AtLeast(3))`). Dispatching on the first token keeps them, and the
// error names what an author may write.
impl<'de> Deserialize<'de> for Prose {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ProseVisitor;
        impl<'de> serde::de::Visitor<'de> for ProseVisitor {
            type Value = Prose;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a text (\"...\" or {\"en\": \"...\", \"zh-Hans\": \"...\"}) or a list of variants [(when: ..., text: ...)]",
                )
            }
            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Prose, E> {
                Ok(Prose::One(Text::Plain(value.to_string())))
            }
            fn visit_string<E: serde::de::Error>(self, value: String) -> Result<Prose, E> {
                Ok(Prose::One(Text::Plain(value)))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Prose, A::Error> {
                // As a map of tag to text (a tag written twice keeps its last text).
                let texts = super::text::LocaleMap::read_map(map)?;
                Ok(Prose::One(Text::Localized(texts)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Prose, A::Error> {
                let mut out = Vec::new();
                while let Some(variant) = seq.next_element::<Variant>()? {
                    out.push(variant);
                }
                Ok(Prose::Variants(out))
            }
        }
        deserializer.deserialize_any(ProseVisitor)
    }
}

/// A whole battle: one file in `scenes/`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScene {
    pub meta: Meta,
    pub sides: Vec<Side>,
    pub zones: Vec<Zone>,
    pub commanders: Vec<Commander>,
    pub units: Vec<Unit>,
    #[serde(default)]
    pub turning_points: Vec<TurningPoint>,
    #[serde(default)]
    pub events: Vec<Event>,
    pub endings: Vec<Ending>,
    /// Lines for a quiet turn, when nothing in the chronicle is worth a
    /// sentence: the variants whose `when` holds take turns.
    #[serde(default)]
    pub atmosphere: Vec<Variant>,
    /// Overrides of `scenes/rules.ron`, by rule name.
    #[serde(default)]
    pub rules: BTreeMap<String, f64>,
    /// Told and done before turn 0, after the intro.
    #[serde(default)]
    pub prelude: Option<Prelude>,
    /// Kinds of unit of this battle, added to (or replacing) the rules' kinds.
    #[serde(default)]
    pub kinds: BTreeMap<UnitKind, KindRules>,
    /// Kinds of zone of this battle, added to (or replacing) the rules' zone kinds.
    #[serde(default, skip_serializing_if = "super::rules::ZoneKinds::is_empty")]
    pub zone_kinds: super::rules::ZoneKinds,
    /// What else than smoke can hide a zone in this battle (dust, fog, night…), by id.
    #[serde(default)]
    pub obscurants: BTreeMap<String, Obscurant>,
    /// Flags some sides cannot know: what a feigned surrender or a hidden
    /// allegiance is in truth. A side that looks ahead plans on what it
    /// believes of them, not on the truth.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<Secret>,
}

/// A flag kept from some sides (`secrets`): a commander of those sides who
/// weighs his options by playing them forward (the `greedy` policy) takes
/// the flag as set with the chance `belief`, whatever it is in truth.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Secret {
    /// The flag (one an effect sets).
    pub id: String,
    /// The sides that do not know it.
    pub hidden_from: Vec<String>,
    /// 0..1: the chance those sides give the flag being set.
    pub belief: f64,
}

/// Something that hides a zone, declared by the scene: its level in a zone
/// (0..1) is set by `Obscure`, carried by the wind and thins by itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Obscurant {
    /// What the player reads ("dust", "fog").
    pub name: Text,
    /// At or above this level the zone is blind (like thick smoke).
    #[serde(default = "half")]
    pub blind_at: f64,
    /// Weighs on morale as smoke does.
    #[serde(default)]
    pub chokes: bool,
    /// Share of it that thins away each turn (of 15 minutes).
    #[serde(default)]
    pub decay: f64,
    /// Share of it the wind carries downwind each turn, at full wind.
    #[serde(default)]
    pub carry: f64,
}

fn half() -> f64 {
    0.5
}

/// What happens before the battle's first turn: a text, then effects.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prelude {
    /// Story text, read by every role.
    #[serde(default)]
    pub text: Option<Prose>,
    #[serde(default)]
    pub effects: Vec<Effect>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    pub id: String,
    pub title: Text,
    pub date: Text,
    pub place: Text,
    /// One line that makes a player want to play it, shown in the battle
    /// menu (optional).
    #[serde(default)]
    pub hook: Option<Text>,
    #[serde(default)]
    pub sources: Vec<Source>,
    /// Shown once when the battle opens.
    pub intro: Prose,
    /// Minutes of battle time in one turn (a 刻 is 15).
    pub turn_minutes: u32,
    /// Clock time of turn 0, in minutes after midnight (e.g. 900 = 15:00).
    #[serde(default)]
    pub start_minute: u32,
    /// The battle ends with `timeout_ending` after this many turns.
    pub max_turns: u32,
    pub timeout_ending: String,
    /// Commander ids the player may take.
    pub playable: Vec<String>,
    /// Whether `undo` is allowed (false = ironman).
    #[serde(default = "yes")]
    pub undo: bool,
    /// The wind at the opening (default: light, blowing north).
    #[serde(default)]
    pub wind: Option<StartWind>,
    /// Words the automatic Simplified → Traditional conversion gets wrong for
    /// this battle, with how to write them (`{"凌河": "凌河"}`): applied to every
    /// text that has no authored "zh-Hant".
    #[serde(default)]
    pub zh_hant_terms: BTreeMap<String, String>,
}

/// The wind when the battle opens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartWind {
    /// 0 (still) to 1 (a gale).
    pub strength: f64,
    pub toward: Compass,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// A file in `seeds/`.
    pub seed: String,
    /// Which part of it, in words ("the fire to the drums").
    #[serde(default)]
    pub part: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Colour {
    Red,
    Yellow,
    Blue,
    White,
    Green,
    Cyan,
    Magenta,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    pub id: String,
    pub name: Text,
    pub colour: Colour,
    /// Where its routing units run to; by default, where its first commander stands.
    #[serde(default)]
    pub retreat: Option<String>,
    /// Whether English puts "the" before its name in a sentence ("the Ming
    /// lose 300 men"). A name that opens with an article of its own ("the
    /// allies", "a rabble") is written as it is, whatever this says; `false`
    /// for a name that takes none ("Lord Wen's army").
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub article: bool,
}

fn is_yes(value: &bool) -> bool {
    *value
}

/// A kind of zone, written as a bare word (`kind: Ford`): one of the kinds
/// the rules declare (`zone_kinds` in `rules.ron`: banks, fords, bridges,
/// open water, camps…) or the scene's own `zone_kinds`. What a kind does
/// (whether it is a crossing and how men get over it, how men lost in a
/// press there die, its mark on the map) is the kind's, in the rules.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ZoneKind(std::sync::Arc<str>);

/// The eight points of the compass. The four cardinal points were the
/// only ones before; the four between them come after, so a save or a
/// fingerprint that names a cardinal point reads as it always did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Compass {
    North,
    South,
    East,
    West,
    NorthEast,
    SouthEast,
    SouthWest,
    NorthWest,
}

impl Compass {
    /// The points clockwise from north.
    pub const CLOCKWISE: [Compass; 8] = [
        Compass::North,
        Compass::NorthEast,
        Compass::East,
        Compass::SouthEast,
        Compass::South,
        Compass::SouthWest,
        Compass::West,
        Compass::NorthWest,
    ];

    /// Its place clockwise from north (0 north, 2 east, 4 south, 6 west).
    pub fn clockwise_index(self) -> usize {
        match self {
            Compass::North => 0,
            Compass::NorthEast => 1,
            Compass::East => 2,
            Compass::SouthEast => 3,
            Compass::South => 4,
            Compass::SouthWest => 5,
            Compass::West => 6,
            Compass::NorthWest => 7,
        }
    }

    /// The point `steps` eighths of a turn clockwise from this one
    /// (negative: anticlockwise).
    pub fn turned(self, steps: i32) -> Compass {
        let at = self.clockwise_index() as i32 + steps;
        Compass::CLOCKWISE[at.rem_euclid(8) as usize]
    }

    /// The point opposite: where a wind blowing toward this one comes from.
    pub fn opposite(self) -> Compass {
        self.turned(4)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    pub id: String,
    pub name: Text,
    pub kind: ZoneKind,
    /// Grid position (x grows east, y grows north): says which zone is downwind.
    pub at: (i32, i32),
    /// Ids of zones one can move to from here (edges are made both ways).
    pub adjacent: Vec<String>,
    /// Width of the passage in metres (fords and bridges).
    #[serde(default)]
    pub width_m: f64,
    /// Length in metres (fords, bridges).
    #[serde(default)]
    pub length_m: f64,
    /// Water depth in metres at the deepest point (fords).
    #[serde(default)]
    pub depth_m: f64,
    /// 0..1: how much the ground hides and protects (reeds, wagons, walls).
    #[serde(default)]
    pub cover: f64,
    /// 0..1: fire burning at the start.
    #[serde(default)]
    pub fire: f64,
    /// 0..1: smoke at the start.
    #[serde(default)]
    pub smoke: f64,
    /// 0..1: how much there is to burn (grass, tents, wagons).
    #[serde(default)]
    pub fuel: f64,
    /// Open water (`Water`): the men the boats on it carry across per 刻
    /// (15 minutes), in men (a horse takes the room of `horse_men`).
    #[serde(default)]
    pub boats: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Commander {
    pub id: String,
    pub name: Text,
    pub side: String,
    /// 0..10: how much his presence steadies men.
    pub leadership: f64,
    pub zone: String,
    #[serde(default)]
    pub playable: bool,
    /// Has drums and a banner to beat a rally with.
    #[serde(default)]
    pub drums: bool,
    /// Played, he may order his units between turning points (`order`);
    /// false for a commander who can only decide at the turning points.
    #[serde(default = "yes")]
    pub gives_orders: bool,
}

/// A kind's name as a type: made from its word, shared (see
/// [`shared_name`]), and written as the bare word it is read from (RON
/// writes a unit variant so).
macro_rules! kind_word {
    ($name:ident, $expecting:literal) => {
        impl $name {
            pub fn new(name: &str) -> $name {
                $name(shared_name(name))
            }
            pub fn name(&self) -> &str {
                &self.0
            }
        }

        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_unit_variant(stringify!($name), 0, intern(&self.0))
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Word;
                impl serde::de::Visitor<'_> for Word {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<E: serde::de::Error>(self, word: &str) -> Result<$name, E> {
                        Ok($name::new(word))
                    }
                }
                deserializer.deserialize_identifier(Word)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

/// A kind of unit, written as a bare word (`kind: MingFoot`): one of the
/// kinds the rules declare (`kinds` in `rules.ron`) or the scene's own
/// `kinds`. The shipped rules declare the kinds of the Ming–Jin wars; a
/// battle of another age declares its own.
///
/// Its name is shared: every unit of a kind holds the same one (the scene,
/// the field and each unit's component), not a copy of its own.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitKind(std::sync::Arc<str>);

kind_word!(
    UnitKind,
    "a unit kind, written as a bare word like `MingFoot`"
);
kind_word!(ZoneKind, "a zone kind, written as a bare word like `Ford`");

/// The shared copy of a kind's name: the first [`KEPT_KINDS`] names asked
/// for are kept for the life of the program and handed out again; past
/// them (a file of made-up kinds) each name is its own.
fn shared_name(name: &str) -> std::sync::Arc<str> {
    use std::sync::{Arc, Mutex};
    static NAMES: Mutex<Vec<Arc<str>>> = Mutex::new(Vec::new());
    let mut names = NAMES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(found) = names.iter().find(|kept| ***kept == *name) {
        return Arc::clone(found);
    }
    let made: Arc<str> = Arc::from(name);
    if names.len() < KEPT_KINDS {
        names.push(Arc::clone(&made));
    }
    made
}

/// How many kinds' names [`shared_name`] keeps (the shipped rules declare
/// nine; a scene may declare a few of its own).
const KEPT_KINDS: usize = 64;

/// A `'static` copy of a kind's name, for serde's unit variants: each
/// distinct name is kept once for the life of the program (kinds are few).
fn intern(name: &str) -> &'static str {
    use std::collections::BTreeSet;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<BTreeSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(found) = names.get(name) {
        return found;
    }
    let kept: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(kept);
    kept
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Order {
    /// Stay and fight where it stands.
    Hold,
    /// Go to a zone by the shortest path, fighting what it meets.
    MoveTo(String),
    /// Follow the nearest routing enemy.
    Pursue,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub id: String,
    pub name: Text,
    pub side: String,
    pub kind: UnitKind,
    /// Strength in men.
    pub men: u32,
    /// 0..1: training and cohesion; the morale roll is tested against it.
    pub quality: f64,
    /// 0..100 at the start.
    pub morale: f64,
    pub zone: String,
    /// Commander id.
    #[serde(default)]
    pub leader: Option<String>,
    #[serde(default)]
    pub may_surrender: bool,
    #[serde(default = "hold")]
    pub order: Order,
    /// False: not on the field until an `Arrive` effect brings it.
    #[serde(default = "yes")]
    pub present: bool,
    /// Its English name is plural ("the Grey Companies"): the chronicle
    /// says "the Grey Companies break and run", not "breaks".
    #[serde(default, skip_serializing_if = "is_false")]
    pub plural: bool,
    /// Its place in the queue at a crossing: the boats, the ford or the
    /// bridge serve higher precedence first (a commander's guard before
    /// the crowd); units of equal precedence share what is left by the
    /// room they take. 0 for everyone: all share alike.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub precedence: u32,
    /// Where it runs to when it breaks (a zone id): its own column's way
    /// home, when it is not its side's `retreat`. None: its side's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreat: Option<String>,
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

fn is_false(value: &bool) -> bool {
    !*value
}

fn hold() -> Order {
    Order::Hold
}

/// A comparison against a number.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Cmp {
    AtLeast(f64),
    AtMost(f64),
    Above(f64),
    Below(f64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoraleState {
    Steady,
    Wavering,
    Routing,
    Rallied,
    Surrendered,
    Shattered,
}

/// A typed condition; no scripting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Condition {
    Always,
    Never,
    All(Vec<Condition>),
    Any(Vec<Condition>),
    Not(Box<Condition>),
    /// The turn number (0 = the opening).
    Turn(Cmp),
    /// Clock minutes after midnight (may pass 1440 into the next day).
    Minute(Cmp),
    /// The option `option` was taken at turning point `tp`.
    Chosen {
        tp: String,
        option: String,
    },
    /// The turning point was reached (whichever option was taken).
    Reached(String),
    /// The event has happened.
    Happened(String),
    Flag(String),
    /// The unit is in one of these states.
    UnitState {
        unit: String,
        is: Vec<MoraleState>,
    },
    UnitIn {
        unit: String,
        zone: String,
    },
    UnitMen {
        unit: String,
        cmp: Cmp,
    },
    UnitMorale {
        unit: String,
        cmp: Cmp,
    },
    CommanderIn {
        commander: String,
        zone: String,
    },
    /// Men of the side still on the field, as a share of its men at the start.
    SideStrength {
        side: String,
        cmp: Cmp,
    },
    /// Men the side has lost (killed, trampled, drowned, surrendered).
    SideLosses {
        side: String,
        cmp: Cmp,
    },
    /// Share of the side's men on the field that are routing or shattered.
    SideRouting {
        side: String,
        cmp: Cmp,
    },
    /// Men of the side standing in the zone.
    SideMenIn {
        side: String,
        zone: String,
        cmp: Cmp,
    },
    /// Men of the side that have passed through the zone (a ford, a bridge).
    SideCrossed {
        side: String,
        zone: String,
        cmp: Cmp,
    },
    Smoke {
        zone: String,
        cmp: Cmp,
    },
    Fire {
        zone: String,
        cmp: Cmp,
    },
    Wind(Cmp),
    /// The wind blows toward one of these points (the way smoke and fire
    /// go): `WindToward([NorthWest])` for a south-east wind.
    WindToward(Vec<Compass>),
    /// The wind comes from one of these points, as a sailor names it:
    /// `WindFrom([SouthEast])`.
    WindFrom(Vec<Compass>),
    /// The bridge or ford still passes men.
    Passable(String),
    /// The player plays this role. For story text only (variants): the battle
    /// itself runs the same whoever plays it.
    Playing(String),
    /// The player's commander is on this side. For story text only.
    PlayerSide(String),
    /// The side sees the zone now: a unit of its own there or next to it, and
    /// the smoke thin enough (the simulation's perception).
    Sees {
        side: String,
        zone: String,
    },
    /// The commander has fallen (killed, wounded or captured).
    Fallen(String),
    /// Turns since the flag was set, the event happened or the turning point
    /// was decided (0 in the turn it happens); false before it.
    TurnsSince(String, Cmp),
    /// Level (0..1) of one of the scene's obscurants in a zone.
    Obscured {
        zone: String,
        by: String,
        cmp: Cmp,
    },
    /// True with this probability (0..1), drawn once per turn for the item
    /// whose condition it is, from the game's seed: the same seed gives the
    /// same luck, and it is the same however often the condition is read.
    Chance(f64),
}

/// Who an effect applies to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Target {
    Unit(String),
    Units(Vec<String>),
    Side(String),
    /// Every unit of the side in the zone.
    SideIn {
        side: String,
        zone: String,
    },
    /// Every unit in the zone.
    Zone(String),
}

/// What a rumor claims.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Claim {
    /// "The (side) are routed!": cheers that side's enemies, shakes that side.
    Routed(String),
    /// "(side) has won!"
    Victorious(String),
}

/// A closed set of things that can happen to the world.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Effect {
    /// Give units an order.
    Order {
        target: Target,
        order: Order,
    },
    Morale {
        target: Target,
        delta: f64,
    },
    /// A cry that spreads from a zone.
    Rumor {
        zone: String,
        claim: Claim,
        credibility: f64,
        cry: Text,
    },
    Fire {
        zone: String,
        intensity: f64,
    },
    Smoke {
        zone: String,
        level: f64,
    },
    Wind {
        strength: f64,
        toward: Compass,
    },
    /// The commander stands and beats the drums for `turns` turns.
    Drums {
        commander: String,
        turns: u32,
    },
    /// Move a commander.
    CommanderTo {
        commander: String,
        zone: String,
    },
    /// Kill a share (0..1) of the target's men.
    Casualties {
        target: Target,
        share: f64,
    },
    Surrender(String),
    /// The bridge or ford passes no one from now on; `share` of the men on it die.
    Destroy {
        zone: String,
        share: f64,
    },
    /// A unit not yet present arrives at its zone.
    Arrive(String),
    /// The side wets cloth against the smoke.
    WetCloth(String),
    SetFlag(String),
    ClearFlag(String),
    Narrate(Prose),
    /// The commander falls: from now on he gives no sight, rallies nobody and
    /// leads nobody (a wounded one leads at `wounded_leadership`); the units
    /// he leads take a morale shock.
    Fall {
        commander: String,
        fate: Fate,
    },
    /// Sets one of the scene's obscurants to `level` in these zones (every
    /// zone when the list is empty: the night, a fog over the field).
    Obscure {
        zones: Vec<String>,
        by: String,
        level: f64,
    },
    /// A unit, or a commander with the units he leads, goes over to `side`
    /// (a hidden allegiance revealed, a defection); they stop and hold.
    ChangeSide {
        who: String,
        side: String,
    },
}

/// What becomes of a commander who falls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fate {
    Killed,
    Wounded,
    Captured,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    pub id: String,
    pub text: Text,
    pub effects: Vec<Effect>,
    /// Told to the chooser after the choice is made (his point of view).
    pub narration: Prose,
    /// Told to a player of the other side when the side nobody plays takes
    /// this option: only what he could see, hear or be told of it. Left out,
    /// he learns of it only through the simulation (the chronicle).
    #[serde(default)]
    pub perceived: Option<Prose>,
    /// The line the side nobody plays (and the `historical` policy) takes:
    /// the novel's choice where the novel tells one, else the scene's
    /// best guess of it. Exactly one option of a turning point has it.
    #[serde(default)]
    pub historical: bool,
    /// Where the option comes from: the chapter (`Novel`), the historical
    /// record (`History`), or the scene's own invention (the default).
    /// Only these are labelled "the novel's choice" / "as in history".
    #[serde(default, skip_serializing_if = "Origin::is_invented")]
    pub from: Origin,
    /// What the option's text states about the world: each must hold
    /// whenever the option is offered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<Condition>,
}

/// Where an option comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Origin {
    /// The scene's own invention.
    #[default]
    Invented,
    /// The chapter this scene is written from.
    Novel,
    /// The historical record.
    History,
}

impl Origin {
    pub fn is_invented(&self) -> bool {
        *self == Origin::Invented
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurningPoint {
    pub id: String,
    /// The playable commander who decides.
    pub role: String,
    pub when: Condition,
    pub situation: Prose,
    pub options: Vec<Choice>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    pub id: String,
    pub when: Condition,
    /// Told to the player when the event fires: every role reads it, so
    /// what one side cannot know goes in a variant guarded by `Playing`,
    /// `PlayerSide` or `Sees`.
    #[serde(default)]
    pub text: Option<Prose>,
    pub effects: Vec<Effect>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    pub id: String,
    pub title: Text,
    pub when: Condition,
    pub text: Prose,
    /// After-action summary, with placeholders (`{losses:SIDE}`, `{time}`…).
    pub summary: Prose,
    /// What the novel (or history) did, for the after-action report.
    #[serde(default)]
    pub history: Option<Prose>,
}
