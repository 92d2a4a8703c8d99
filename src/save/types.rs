//! The save format's own types, all the way down: no simulation component or
//! story type is serialised directly, so a change to the engine's state is a
//! compile error in the conversions here rather than a silent change of
//! format. Field and variant names are those of format 1 (whose files these
//! types read as they are).
//!
//! Conversions go both ways. The simulation's plain values convert with
//! `From` (`from` when saving, `into` when restoring a saved state that its
//! log does not reproduce). What holds the scene's ids converts with the
//! scene at hand, ids becoming the file's words and back (`SavedStory::of`
//! and `to_story`, `SavedCommand::of` and `to_command`, …): a word the
//! scene lacks refuses the state, with the word named.

use crate::scene::raw::Prose;
use crate::scene::resolved::{FileId, Named, Slot, Slots};
use crate::scene::{
    Compass, EventId, Fate, MoraleState, Scene, SideId, Text, TpId, UnitId, ZoneId,
};
use crate::sim::CommanderState;
use crate::sim::haze::Haze;
use crate::sim::morale::{Modifier, Morale};
use crate::sim::movement::{Location, Orders, UnitOrder};
use crate::sim::perception::Vision;
use crate::sim::rumor::{Rumor, Rumors};
use crate::sim::state::{UnitRecord, ZoneRecord};
use crate::sim::weather::{Burning, Passage, Weather};
use crate::story::{Arg, Command, Courier, Policy, StoryError, StoryState, Telling, UnitCommand};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Generates a field-less enum of the save's own and its two conversions;
/// the matches are exhaustive, so a new engine variant must be named here.
macro_rules! mirror_enum {
    ($(#[$meta:meta])* $saved:ident <=> $engine:ty { $($variant:ident),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
        pub enum $saved {
            $($variant),+
        }
        impl From<$engine> for $saved {
            fn from(value: $engine) -> Self {
                match value {
                    $(<$engine>::$variant => $saved::$variant),+
                }
            }
        }
        impl From<$saved> for $engine {
            fn from(value: $saved) -> Self {
                match value {
                    $($saved::$variant => <$engine>::$variant),+
                }
            }
        }
    };
}

mirror_enum!(
    /// Who decides for a side: the novel's choice, chance, or look-ahead.
    SavedPolicy <=> Policy { Historical, Random, Greedy }
);
mirror_enum!(SavedCompass <=> Compass { North, South, East, West, NorthEast, SouthEast, SouthWest, NorthWest });
mirror_enum!(SavedMoraleState <=> MoraleState {
    Steady, Wavering, Routing, Rallied, Surrendered, Shattered
});
mirror_enum!(SavedModifier <=> Modifier {
    Casualties, Outnumbered, Contagion, Leader, Rumor, Smoke, Trapped, Drums,
    Recovery, Orders, CommanderFell, Withdrawal, Event, Charged
});
mirror_enum!(SavedFate <=> Fate { Killed, Wounded, Captured });

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedWeather {
    pub wind: f64,
    pub toward: SavedCompass,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedLocation {
    pub zone: usize,
    pub present: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum SavedUnitOrder {
    Hold,
    MoveTo(usize),
    Pursue,
    RallyTo(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedOrders {
    pub order: SavedUnitOrder,
    pub progress: f64,
    pub came_from: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedMorale {
    pub value: f64,
    pub state: SavedMoraleState,
    pub last: Vec<(SavedModifier, f64)>,
    pub believes_lost: bool,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fear: f64,
}

fn is_zero(value: &f64) -> bool {
    *value == 0.0
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedUnit {
    pub men: u32,
    pub lost_this_turn: u32,
    pub location: SavedLocation,
    pub orders: SavedOrders,
    pub morale: SavedMorale,
    /// The side it fights for, when the story moved it from its scene side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedCommander {
    pub idx: usize,
    pub side: usize,
    pub leadership: f64,
    pub zone: usize,
    pub drums_left: u32,
    #[serde(default)]
    pub placed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallen: Option<SavedFate>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedBurning {
    pub fire: f64,
    pub fuel: f64,
    pub smoke: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedPassage {
    pub intact: bool,
    pub crossed: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedHaze {
    pub levels: Vec<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedZone {
    pub burning: SavedBurning,
    pub passage: SavedPassage,
    #[serde(default, skip_serializing_if = "is_clear")]
    pub haze: SavedHaze,
}

fn is_clear(haze: &SavedHaze) -> bool {
    haze.levels.is_empty()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedRumor {
    pub about: usize,
    pub routed: bool,
    pub credibility: f64,
    pub reached: Vec<bool>,
    pub believers: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedRumors {
    pub active: Vec<SavedRumor>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedVision {
    pub blind: Vec<bool>,
    pub sees: Vec<Vec<bool>>,
}

/// Story text as told: one string, or a map by locale.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SavedText {
    Plain(String),
    Localized(BTreeMap<String, String>),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SavedArg {
    Count(u32),
    About(u32),
    Rough(u32),
    Unknown,
    Name(SavedText),
    Clock(u32),
    Turn(u32),
    Nobody,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedTold {
    pub text: SavedText,
    pub args: Vec<(String, SavedArg)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SavedUnitCommand {
    Hold,
    Advance(String),
    Attack(String),
    Withdraw,
    Rally,
}

/// A command of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SavedCommand {
    Next,
    Choose {
        tp: String,
        option: String,
    },
    Order {
        unit: String,
        order: SavedUnitCommand,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedCourier {
    pub unit: String,
    pub order: SavedUnitCommand,
    pub arrives: u32,
}

/// A told text's value by the scene's ids (format 6 on): numbers as they
/// are, a name by the id of what it names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SavedValue {
    Count(u32),
    About(u32),
    Rough(u32),
    Unknown,
    Side(String),
    Zone(String),
    Unit(String),
    Commander(String),
    Clock(u32),
    Turn(u32),
    Nobody,
}

/// An event's text as told, by the scene's ids (format 6 on): the event,
/// which of its text's variants (counted from 0, in the scene's order), and
/// the value of each placeholder, named as the text writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedTelling {
    pub turn: u32,
    pub event: String,
    pub variant: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<(String, SavedValue)>,
}

/// How a story's journal is written: by the scene's ids (format 6 on), or
/// as the texts told, in every language (formats 1 to 5, and the state a
/// fingerprint by texts hashes; one by ids hashes the state as saved).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JournalForm {
    Ids,
    Texts,
}

impl JournalForm {
    /// The form `story` holds its journal in (texts when it tells nothing:
    /// both forms are alike then but for the empty `journal` written).
    pub fn of(story: &SavedStory) -> JournalForm {
        if story.told.is_empty() {
            JournalForm::Texts
        } else {
            JournalForm::Ids
        }
    }
}

/// The story's state: decisions, events, flags, the journal, couriers.
///
/// The journal is `journal` (texts, formats 1 to 5) or `told` (ids, format
/// 6 on), never both. Written by hand so that a story in texts serialises
/// (and hashes: [`super::hash`]) field for field as formats 1 to 5 did,
/// `told` left out, and a story in ids leaves out the empty `journal`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedStory {
    pub chosen: Vec<(String, String)>,
    pub happened: Vec<String>,
    pub flags: BTreeSet<String>,
    pub pending: Option<String>,
    pub ended: Option<String>,
    /// The journal as texts told (formats 1 to 5).
    #[serde(default)]
    pub journal: Vec<(u32, SavedTold)>,
    #[serde(default)]
    pub couriers: Vec<SavedCourier>,
    #[serde(default)]
    pub since: BTreeMap<String, u32>,
    /// Orders of the side nobody plays on their way (its doctrine).
    #[serde(default)]
    pub answers: Vec<SavedCourier>,
    /// The journal by the scene's ids (format 6 on).
    #[serde(default)]
    pub told: Vec<SavedTelling>,
}

impl Serialize for SavedStory {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let SavedStory {
            chosen,
            happened,
            flags,
            pending,
            ended,
            journal,
            couriers,
            since,
            answers,
            told,
        } = self;
        let by_ids = !told.is_empty();
        let len = 6
            + usize::from(!by_ids)
            + usize::from(!since.is_empty())
            + usize::from(!answers.is_empty())
            + usize::from(by_ids);
        let mut st = s.serialize_struct("SavedStory", len)?;
        st.serialize_field("chosen", chosen)?;
        st.serialize_field("happened", happened)?;
        st.serialize_field("flags", flags)?;
        st.serialize_field("pending", pending)?;
        st.serialize_field("ended", ended)?;
        if by_ids {
            st.skip_field("journal")?;
        } else {
            st.serialize_field("journal", journal)?;
        }
        st.serialize_field("couriers", couriers)?;
        if since.is_empty() {
            st.skip_field("since")?;
        } else {
            st.serialize_field("since", since)?;
        }
        if answers.is_empty() {
            st.skip_field("answers")?;
        } else {
            st.serialize_field("answers", answers)?;
        }
        // Nothing at all when empty: a story in texts ends as before.
        if by_ids {
            st.serialize_field("told", told)?;
        }
        st.end()
    }
}

// ------------------------------------------------------------ conversions

impl From<&Weather> for SavedWeather {
    fn from(w: &Weather) -> Self {
        let Weather { wind, toward } = *w;
        SavedWeather {
            wind,
            toward: toward.into(),
        }
    }
}

impl From<&SavedWeather> for Weather {
    fn from(w: &SavedWeather) -> Self {
        Weather {
            wind: w.wind,
            toward: w.toward.into(),
        }
    }
}

impl From<UnitOrder> for SavedUnitOrder {
    fn from(order: UnitOrder) -> Self {
        match order {
            UnitOrder::Hold => SavedUnitOrder::Hold,
            UnitOrder::MoveTo(z) => SavedUnitOrder::MoveTo(z),
            UnitOrder::Pursue => SavedUnitOrder::Pursue,
            UnitOrder::RallyTo(c) => SavedUnitOrder::RallyTo(c),
        }
    }
}

impl From<SavedUnitOrder> for UnitOrder {
    fn from(order: SavedUnitOrder) -> Self {
        match order {
            SavedUnitOrder::Hold => UnitOrder::Hold,
            SavedUnitOrder::MoveTo(z) => UnitOrder::MoveTo(z),
            SavedUnitOrder::Pursue => UnitOrder::Pursue,
            SavedUnitOrder::RallyTo(c) => UnitOrder::RallyTo(c),
        }
    }
}

impl From<&UnitRecord> for SavedUnit {
    fn from(unit: &UnitRecord) -> Self {
        let UnitRecord {
            men,
            lost_this_turn,
            location,
            orders,
            morale,
            side,
        } = unit;
        let Morale {
            value,
            believes_lost,
            fear,
            ..
        } = morale;
        let last = morale.last();
        SavedUnit {
            men: *men,
            lost_this_turn: *lost_this_turn,
            location: SavedLocation {
                zone: location.zone(),
                present: location.present,
            },
            orders: SavedOrders {
                order: orders.order().into(),
                progress: orders.progress,
                came_from: orders.came_from(),
            },
            morale: SavedMorale {
                value: *value,
                state: location.state().into(),
                last: last.iter().map(|(m, d)| ((*m).into(), *d)).collect(),
                believes_lost: *believes_lost,
                fear: *fear,
            },
            side: *side,
        }
    }
}

impl From<&SavedUnit> for UnitRecord {
    fn from(unit: &SavedUnit) -> Self {
        let m = &unit.morale;
        UnitRecord {
            men: unit.men,
            lost_this_turn: unit.lost_this_turn,
            location: Location::with_state(
                unit.location.zone,
                unit.location.present,
                m.state.into(),
            ),
            orders: Orders::new(
                unit.orders.order.into(),
                unit.orders.progress,
                unit.orders.came_from,
            ),
            morale: Morale::from_parts(
                m.value,
                &m.last
                    .iter()
                    .map(|(k, d)| ((*k).into(), *d))
                    .collect::<Vec<_>>(),
                m.believes_lost,
                m.fear,
            ),
            side: unit.side,
        }
    }
}

impl From<&CommanderState> for SavedCommander {
    fn from(c: &CommanderState) -> Self {
        let CommanderState {
            idx,
            side,
            leadership,
            zone,
            drums_left,
            placed,
            fallen,
        } = c;
        SavedCommander {
            idx: *idx,
            side: *side,
            leadership: *leadership,
            zone: *zone,
            drums_left: *drums_left,
            placed: *placed,
            fallen: fallen.map(Into::into),
        }
    }
}

impl From<&SavedCommander> for CommanderState {
    fn from(c: &SavedCommander) -> Self {
        CommanderState {
            idx: c.idx,
            side: c.side,
            leadership: c.leadership,
            zone: c.zone,
            drums_left: c.drums_left,
            placed: c.placed,
            fallen: c.fallen.map(Into::into),
        }
    }
}

impl From<&ZoneRecord> for SavedZone {
    fn from(zone: &ZoneRecord) -> Self {
        let ZoneRecord {
            burning: Burning { fire, fuel, smoke },
            passage: Passage { intact, crossed },
            haze: Haze { levels },
        } = zone;
        SavedZone {
            burning: SavedBurning {
                fire: *fire,
                fuel: *fuel,
                smoke: *smoke,
            },
            passage: SavedPassage {
                intact: *intact,
                crossed: crossed.clone(),
            },
            haze: SavedHaze {
                levels: levels.clone(),
            },
        }
    }
}

impl From<&SavedZone> for ZoneRecord {
    fn from(zone: &SavedZone) -> Self {
        let b = &zone.burning;
        ZoneRecord {
            burning: Burning {
                fire: b.fire,
                fuel: b.fuel,
                smoke: b.smoke,
            },
            passage: Passage {
                intact: zone.passage.intact,
                crossed: zone.passage.crossed.clone(),
            },
            haze: Haze {
                levels: zone.haze.levels.clone(),
            },
        }
    }
}

impl From<&Rumors> for SavedRumors {
    fn from(rumors: &Rumors) -> Self {
        SavedRumors {
            active: rumors
                .active
                .iter()
                .map(|r| {
                    let Rumor {
                        about,
                        routed,
                        credibility,
                        reached,
                        believers,
                    } = r;
                    SavedRumor {
                        about: *about,
                        routed: *routed,
                        credibility: *credibility,
                        reached: reached.clone(),
                        believers: believers.clone(),
                    }
                })
                .collect(),
        }
    }
}

impl From<&SavedRumors> for Rumors {
    fn from(rumors: &SavedRumors) -> Self {
        Rumors {
            active: rumors
                .active
                .iter()
                .map(|r| Rumor {
                    about: r.about,
                    routed: r.routed,
                    credibility: r.credibility,
                    reached: r.reached.clone(),
                    believers: r.believers.clone(),
                })
                .collect(),
        }
    }
}

impl From<&Vision> for SavedVision {
    fn from(vision: &Vision) -> Self {
        let Vision { blind, sees } = vision;
        SavedVision {
            blind: blind.clone(),
            sees: sees.clone(),
        }
    }
}

impl From<&SavedVision> for Vision {
    fn from(vision: &SavedVision) -> Self {
        Vision {
            blind: vision.blind.clone(),
            sees: vision.sees.clone(),
        }
    }
}

impl From<&Text> for SavedText {
    fn from(text: &Text) -> Self {
        match text {
            Text::Plain(s) => SavedText::Plain(s.clone()),
            Text::Localized(map) => SavedText::Localized(map.to_map()),
        }
    }
}

impl From<&SavedText> for Text {
    fn from(text: &SavedText) -> Self {
        match text {
            SavedText::Plain(s) => Text::Plain(s.clone()),
            SavedText::Localized(map) => Text::Localized(map.into()),
        }
    }
}

impl SavedArg {
    fn of(arg: &Arg, scene: &Scene) -> Option<SavedArg> {
        Some(match arg {
            Arg::Count(n) => SavedArg::Count(*n),
            Arg::About(n) => SavedArg::About(*n),
            Arg::Rough(n) => SavedArg::Rough(*n),
            Arg::Unknown => SavedArg::Unknown,
            Arg::Name(named) => SavedArg::Name(scene.name(*named)?.into()),
            Arg::Clock(m) => SavedArg::Clock(*m),
            Arg::Turn(t) => SavedArg::Turn(*t),
            Arg::Nobody => SavedArg::Nobody,
        })
    }

    /// The value, for a placeholder that is `slot`: a name is found among
    /// the names that placeholder can take.
    fn to_arg(&self, slot: Option<Slot>, scene: &Scene) -> Result<Arg, String> {
        Ok(match self {
            SavedArg::Count(n) => Arg::Count(*n),
            SavedArg::About(n) => Arg::About(*n),
            SavedArg::Rough(n) => Arg::Rough(*n),
            SavedArg::Unknown => Arg::Unknown,
            SavedArg::Name(text) => Arg::Name(named_by(text, slot, scene)?),
            SavedArg::Clock(m) => Arg::Clock(*m),
            SavedArg::Turn(t) => Arg::Turn(*t),
            SavedArg::Nobody => Arg::Nobody,
        })
    }
}

/// What a saved name names, for a placeholder that is `slot`: the thing it
/// names (`{name:ID}`), the side that holds a place, or the zone a
/// commander stands in.
fn named_by(text: &SavedText, slot: Option<Slot>, scene: &Scene) -> Result<Named, String> {
    let is = |name: &Text| same_text(&name.into(), text);
    let found = match slot {
        Some(Slot::Name(named)) => scene.name(named).filter(|name| is(name)).map(|_| named),
        Some(Slot::Holder(_)) => (scene.sides().iter())
            .position(|side| is(&side.name))
            .map(|idx| Named::Side(SideId::at(idx))),
        Some(Slot::At(_)) => (scene.zones().iter())
            .position(|zone| is(&zone.name))
            .map(|idx| Named::Zone(ZoneId::at(idx))),
        _ => None,
    };
    found.ok_or_else(|| "its journal names something its text's placeholder cannot".to_string())
}

/// Two texts alike but for a zh-Hant made from the zh-Hans (which format 1
/// stored converted, and this engine converts when read).
fn same_text(a: &SavedText, b: &SavedText) -> bool {
    let strip = |text: &SavedText| {
        let mut text = text.clone();
        if let SavedText::Localized(map) = &mut text
            && map.contains_key("zh-Hans")
        {
            map.remove("zh-Hant");
        }
        text
    };
    strip(a) == strip(b)
}

impl SavedTold {
    /// An event's text as told, in the scene's words: None for a telling of
    /// another scene.
    fn of(telling: &Telling, scene: &Scene) -> Option<SavedTold> {
        let told = telling.told(scene)?;
        Some(SavedTold {
            text: (&told.text).into(),
            args: (told.args.iter())
                .map(|(k, a)| Some((k.clone(), SavedArg::of(a, scene)?)))
                .collect::<Option<_>>()?,
        })
    }

    /// The telling this is, among the events that happened from the
    /// `next`th on (the journal tells them in the order they happened):
    /// the first whose text has a variant of these words.
    fn to_telling(
        &self,
        turn: u32,
        happened: &[EventId],
        next: &mut usize,
        scene: &Scene,
    ) -> Result<Telling, String> {
        for (at, &event) in happened.iter().enumerate().skip(*next) {
            let Some(prose) = scene
                .events()
                .get(event.idx())
                .and_then(|e| e.text.as_ref())
            else {
                continue;
            };
            let Some(k) = (prose.variants().into_iter())
                .position(|(_, text)| same_text(&text.into(), &self.text))
            else {
                continue;
            };
            let slots = (scene.resolved().events.get(event.idx()))
                .and_then(|e| e.text.as_ref())
                .and_then(|v| v.slots.get(k))
                .map_or(&[][..], Vec::as_slice);
            let values = (self.args.iter())
                .map(|(inside, arg)| {
                    let slot =
                        (slots.iter().position(|(name, _)| name == inside)).ok_or_else(|| {
                            format!("its journal fills a placeholder `{{{inside}}}` its text lacks")
                        })?;
                    let value = arg.to_arg(slots[slot].1, scene)?;
                    Ok((u32::try_from(slot).unwrap_or(u32::MAX), value))
                })
                .collect::<Result<_, String>>()?;
            *next = at + 1;
            return Ok(Telling {
                turn,
                event,
                variant: u32::try_from(k).unwrap_or(u32::MAX),
                values,
            });
        }
        Err("its journal tells a text that no event that happened has".to_string())
    }
}

impl SavedValue {
    /// The value by the scene's ids: None for a name of another scene.
    fn of(arg: &Arg, scene: &Scene) -> Option<SavedValue> {
        let id = |named: Named| -> Option<String> {
            let id = match named {
                Named::Side(id) => id.file_id(scene),
                Named::Zone(id) => id.file_id(scene),
                Named::Unit(id) => id.file_id(scene),
                Named::Commander(id) => id.file_id(scene),
            };
            id.map(str::to_string)
        };
        Some(match arg {
            Arg::Count(n) => SavedValue::Count(*n),
            Arg::About(n) => SavedValue::About(*n),
            Arg::Rough(n) => SavedValue::Rough(*n),
            Arg::Unknown => SavedValue::Unknown,
            Arg::Name(named @ Named::Side(_)) => SavedValue::Side(id(*named)?),
            Arg::Name(named @ Named::Zone(_)) => SavedValue::Zone(id(*named)?),
            Arg::Name(named @ Named::Unit(_)) => SavedValue::Unit(id(*named)?),
            Arg::Name(named @ Named::Commander(_)) => SavedValue::Commander(id(*named)?),
            Arg::Clock(m) => SavedValue::Clock(*m),
            Arg::Turn(t) => SavedValue::Turn(*t),
            Arg::Nobody => SavedValue::Nobody,
        })
    }

    /// The value, for the placeholder `inside`, which is `slot`: a name
    /// must be one the scene has and the placeholder can take.
    fn to_arg(&self, inside: &str, slot: Option<Slot>, scene: &Scene) -> Result<Arg, String> {
        let find = |what: &str, id: &str, found: Option<Named>| -> Result<Arg, String> {
            let named = found.ok_or_else(|| unknown(what, id))?;
            let fits = match slot {
                Some(Slot::Name(wanted)) => wanted == named,
                Some(Slot::Holder(_)) => matches!(named, Named::Side(_)),
                Some(Slot::At(_)) => matches!(named, Named::Zone(_)),
                _ => false,
            };
            if !fits {
                return Err(format!(
                    "its journal fills the placeholder `{{{inside}}}` with {what} `{id}`, which it cannot name"
                ));
            }
            Ok(Arg::Name(named))
        };
        Ok(match self {
            SavedValue::Count(n) => Arg::Count(*n),
            SavedValue::About(n) => Arg::About(*n),
            SavedValue::Rough(n) => Arg::Rough(*n),
            SavedValue::Unknown => Arg::Unknown,
            SavedValue::Side(id) => find("a side", id, scene.find(id).map(Named::Side))?,
            SavedValue::Zone(id) => find("a zone", id, scene.find(id).map(Named::Zone))?,
            SavedValue::Unit(id) => find("a unit", id, scene.find(id).map(Named::Unit))?,
            SavedValue::Commander(id) => {
                find("a commander", id, scene.find(id).map(Named::Commander))?
            }
            SavedValue::Clock(m) => Arg::Clock(*m),
            SavedValue::Turn(t) => Arg::Turn(*t),
            SavedValue::Nobody => Arg::Nobody,
        })
    }
}

/// The placeholders of the text `telling` told: None when the scene has no
/// such event, text or variant (a telling of another scene).
pub(super) fn told_slots<'a>(telling: &Telling, scene: &'a Scene) -> Option<&'a Slots> {
    let k = telling.variant as usize;
    let prose = scene.events().get(telling.event.idx())?.text.as_ref()?;
    let has_variant = match prose {
        Prose::One(_) => k == 0,
        Prose::Variants(items) => k < items.len(),
    };
    let variants = (scene.resolved().events.get(telling.event.idx()))?
        .text
        .as_ref()?;
    has_variant.then_some(variants.slots.get(k)?)
}

impl SavedTelling {
    /// A telling by the scene's ids: None for a telling of another scene
    /// (left out, as [`SavedTold::of`] leaves it out).
    fn of(telling: &Telling, scene: &Scene) -> Option<SavedTelling> {
        let slots = told_slots(telling, scene)?;
        Some(SavedTelling {
            turn: telling.turn,
            event: telling.event.file_id(scene)?.to_string(),
            variant: telling.variant,
            args: (telling.values.iter())
                .map(|(slot, arg)| {
                    let (inside, _) = slots.get(*slot as usize)?;
                    Some((inside.clone(), SavedValue::of(arg, scene)?))
                })
                .collect::<Option<_>>()?,
        })
    }

    /// The telling, its ids found in `scene`: an event, variant, placeholder
    /// or name the scene lacks refuses it.
    fn to_telling(&self, scene: &Scene) -> Result<Telling, String> {
        let event = (scene.resolved().event(&self.event))
            .ok_or_else(|| unknown("an event", &self.event))?;
        let mut telling = Telling {
            turn: self.turn,
            event,
            variant: self.variant,
            values: Vec::with_capacity(self.args.len()),
        };
        let slots = told_slots(&telling, scene).ok_or_else(|| {
            unknown(
                "a text",
                &format!("{}`, variant `{}", self.event, self.variant),
            )
        })?;
        for (inside, value) in &self.args {
            let slot = (slots.iter().position(|(name, _)| name == inside)).ok_or_else(|| {
                format!(
                    "its journal fills a placeholder `{{{inside}}}` the text of `{}` lacks",
                    self.event
                )
            })?;
            let arg = value.to_arg(inside, slots[slot].1, scene)?;
            telling
                .values
                .push((u32::try_from(slot).unwrap_or(u32::MAX), arg));
        }
        Ok(telling)
    }
}

// The story's ids are typed in the engine and named in the file: these
// conversions need the scene, and reading names the scene lacks is refused.

/// What a save refuses in a story's ids: the kind of thing and its name.
fn unknown(what: &str, id: &str) -> String {
    format!("it names {what} `{id}`, which the battle does not have")
}

impl SavedUnitCommand {
    pub fn of(order: &UnitCommand, scene: &Scene) -> SavedUnitCommand {
        match *order {
            UnitCommand::Hold => SavedUnitCommand::Hold,
            UnitCommand::Advance(z) => SavedUnitCommand::Advance(scene.id_of(z).to_string()),
            UnitCommand::Attack(z) => SavedUnitCommand::Attack(scene.id_of(z).to_string()),
            UnitCommand::Withdraw => SavedUnitCommand::Withdraw,
            UnitCommand::Rally => SavedUnitCommand::Rally,
        }
    }

    /// The order, its zone found in `scene`.
    pub fn to_order(&self, scene: &Scene) -> Result<UnitCommand, StoryError> {
        let zone = |id: &str| {
            scene
                .zone_idx(id)
                .map(ZoneId::at)
                .ok_or_else(|| StoryError::NoSuchZone(id.to_string()))
        };
        Ok(match self {
            SavedUnitCommand::Hold => UnitCommand::Hold,
            SavedUnitCommand::Advance(z) => UnitCommand::Advance(zone(z)?),
            SavedUnitCommand::Attack(z) => UnitCommand::Attack(zone(z)?),
            SavedUnitCommand::Withdraw => UnitCommand::Withdraw,
            SavedUnitCommand::Rally => UnitCommand::Rally,
        })
    }
}

impl SavedCommand {
    pub fn of(command: &Command, scene: &Scene) -> SavedCommand {
        match command {
            Command::Next => SavedCommand::Next,
            Command::Choose { tp, option } => SavedCommand::Choose {
                tp: scene.id_of(*tp).to_string(),
                option: option_id(scene, *tp, *option).to_string(),
            },
            Command::Order { unit, order } => SavedCommand::Order {
                unit: scene.id_of(*unit).to_string(),
                order: SavedUnitCommand::of(order, scene),
            },
        }
    }

    /// The command, its ids found in `scene`; the error is the one the game
    /// gives a command it cannot run (a replay stops there).
    pub fn to_command(&self, scene: &Scene) -> Result<Command, StoryError> {
        Ok(match self {
            SavedCommand::Next => Command::Next,
            SavedCommand::Choose { tp, option } => {
                let (tp, option) = option_of(scene, tp, option)?;
                Command::Choose { tp, option }
            }
            SavedCommand::Order { unit, order } => Command::Order {
                unit: scene
                    .unit_idx(unit)
                    .map(UnitId::at)
                    .ok_or_else(|| StoryError::NoSuchUnit(unit.clone()))?,
                order: order.to_order(scene)?,
            },
        })
    }
}

/// The file's name of option `option` of `tp`.
fn option_id(scene: &Scene, tp: TpId, option: u32) -> &str {
    scene
        .turning_points()
        .get(tp.idx())
        .and_then(|tp| tp.options.get(option as usize))
        .map_or("", |o| o.id.as_str())
}

/// The turning point and option a file names.
fn option_of(scene: &Scene, tp: &str, option: &str) -> Result<(TpId, u32), StoryError> {
    let id = scene.resolved().tp(tp).ok_or(StoryError::NothingToChoose)?;
    let place = (scene.turning_points().get(id.idx()))
        .and_then(|tp| tp.options.iter().position(|o| o.id == option))
        .and_then(|o| u32::try_from(o).ok())
        .ok_or_else(|| StoryError::NoOptionNamed(option.to_string()))?;
    Ok((id, place))
}

impl SavedCourier {
    pub fn of(c: &Courier, scene: &Scene) -> SavedCourier {
        SavedCourier {
            unit: scene.id_of(c.unit).to_string(),
            order: SavedUnitCommand::of(&c.order, scene),
            arrives: c.arrives,
        }
    }

    pub fn to_courier(&self, scene: &Scene) -> Result<Courier, String> {
        Ok(Courier {
            unit: scene
                .unit_idx(&self.unit)
                .map(UnitId::at)
                .ok_or_else(|| unknown("a unit", &self.unit))?,
            order: self.order.to_order(scene).map_err(|e| e.to_string())?,
            arrives: self.arrives,
        })
    }
}

impl SavedStory {
    /// The story as this engine saves it: its journal by the scene's ids.
    pub fn of(story: &StoryState, scene: &Scene) -> SavedStory {
        SavedStory::of_form(story, scene, JournalForm::Ids)
    }

    /// The story with its journal in `form`.
    pub fn of_form(story: &StoryState, scene: &Scene, form: JournalForm) -> SavedStory {
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
        } = story;
        let name = |id: &str| id.to_string();
        SavedStory {
            chosen: chosen
                .iter()
                .map(|&(tp, option)| {
                    (
                        scene.id_of(tp).to_string(),
                        option_id(scene, tp, option).to_string(),
                    )
                })
                .collect(),
            happened: happened.iter().map(|&e| name(scene.id_of(e))).collect(),
            flags: flags.iter().map(|&f| name(scene.id_of(f))).collect(),
            pending: pending.map(|tp| name(scene.id_of(tp))),
            ended: ended.map(|e| name(scene.id_of(e))),
            journal: match form {
                JournalForm::Texts => (journal.iter())
                    .filter_map(|telling| Some((telling.turn, SavedTold::of(telling, scene)?)))
                    .collect(),
                JournalForm::Ids => Vec::new(),
            },
            couriers: couriers
                .iter()
                .map(|c| SavedCourier::of(c, scene))
                .collect(),
            since: since
                .iter()
                .map(|(&w, &turn)| (name(scene.id_of(w)), turn))
                .collect(),
            answers: answers.iter().map(|c| SavedCourier::of(c, scene)).collect(),
            told: match form {
                JournalForm::Ids => (journal.iter())
                    .filter_map(|telling| SavedTelling::of(telling, scene))
                    .collect(),
                JournalForm::Texts => Vec::new(),
            },
        }
    }

    /// The story, its ids found in `scene`: an id the scene lacks refuses it.
    pub fn to_story(&self, scene: &Scene) -> Result<StoryState, String> {
        let resolved = scene.resolved();
        let event = |id: &String| resolved.event(id).ok_or_else(|| unknown("an event", id));
        let tp = |id: &String| {
            resolved
                .tp(id)
                .ok_or_else(|| unknown("a turning point", id))
        };
        let ending = |id: &String| resolved.ending(id).ok_or_else(|| unknown("an ending", id));
        let flag = |id: &String| resolved.flag(id).ok_or_else(|| unknown("a flag", id));
        let watch = |id: &String| {
            resolved
                .watch(id)
                .ok_or_else(|| unknown("a watched id", id))
        };
        Ok(StoryState {
            chosen: self
                .chosen
                .iter()
                .map(|(tp, option)| {
                    option_of(scene, tp, option)
                        .map_err(|_| unknown("the choice", &format!("{tp}`/`{option}")))
                })
                .collect::<Result<_, _>>()?,
            happened: self.happened.iter().map(event).collect::<Result<_, _>>()?,
            flags: self.flags.iter().map(flag).collect::<Result<_, _>>()?,
            pending: self.pending.as_ref().map(tp).transpose()?,
            ended: self.ended.as_ref().map(ending).transpose()?,
            journal: if !self.told.is_empty() {
                if !self.journal.is_empty() {
                    return Err("it holds its journal both by ids and as texts".to_string());
                }
                (self.told.iter())
                    .map(|telling| telling.to_telling(scene))
                    .collect::<Result<_, _>>()?
            } else {
                let happened: Vec<EventId> =
                    self.happened.iter().map(event).collect::<Result<_, _>>()?;
                let mut next = 0;
                (self.journal.iter())
                    .map(|(turn, told)| told.to_telling(*turn, &happened, &mut next, scene))
                    .collect::<Result<_, _>>()?
            },
            couriers: (self.couriers.iter())
                .map(|c| c.to_courier(scene))
                .collect::<Result<_, _>>()?,
            since: (self.since.iter())
                .map(|(id, &turn)| watch(id).map(|w| (w, turn)))
                .collect::<Result<_, _>>()?,
            answers: (self.answers.iter())
                .map(|c| c.to_courier(scene))
                .collect::<Result<_, _>>()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::save::SavedState;
    use crate::sim::testing::small_scene;
    use crate::story::Game;
    use std::sync::Arc;

    /// A unit's morale state, kept in its `Location` in the world, is saved
    /// with its morale as ever (`morale: (state: …)`), and read back into
    /// its `Location`.
    #[test]
    fn a_units_state_is_saved_with_its_morale_and_read_back_into_its_location() {
        let scene = small_scene(|raw| raw);
        let mut battle = crate::sim::Battle::new(&scene, 7);
        let opening = battle.state().units[0].clone();
        for state in MoraleState::ALL {
            let mut record = opening.clone();
            record.location.set_state(state);
            let saved = SavedUnit::from(&record);
            assert_eq!(MoraleState::from(saved.morale.state), state);
            let text = ron::to_string(&saved).expect("a unit serializes");
            assert!(
                text.contains(&format!("state:{state:?}")),
                "{state:?} in its morale: {text}"
            );
            let back: SavedUnit = ron::from_str(&text).expect("the unit reads back");
            assert_eq!(UnitRecord::from(&back), record, "{state:?}");
        }
    }

    #[test]
    fn a_journal_with_names_reads_back_to_what_each_name_names() {
        let scene = Arc::new(small_scene(|mut raw| {
            let event = "(id: \"word\", when: Turn(AtLeast(0.0)), effects: [], text: Some([(text: \
                \"{name:banner} faces {holder:north-bank}; Zhang is at {at:zhang}, turn {turn}.\")]))";
            raw.events
                .push(ron::from_str(event).expect("the event parses"));
            raw
        }));
        let (mut game, _) = Game::new(Arc::clone(&scene), "zhang", 1).expect("game");
        game.next().expect("a turn");
        let snapshot = game.snapshot();
        let journal = &snapshot.story.journal;
        assert_eq!(journal.len(), 1);
        let names = (journal[0].values.iter())
            .filter(|(_, arg)| matches!(arg, Arg::Name(_)))
            .count();
        assert_eq!(names, 3, "{journal:?}");
        // By ids, as this engine saves it: every name by what it names.
        let by_ids = SavedState::of(&snapshot, &scene).expect("state");
        let values = &by_ids.story.told[0].args;
        let kinds = (values.iter())
            .filter(|(_, v)| {
                matches!(
                    v,
                    SavedValue::Unit(_) | SavedValue::Side(_) | SavedValue::Zone(_)
                )
            })
            .count();
        assert_eq!(kinds, 3, "{values:?}");
        let back = by_ids.to_snapshot(0, &scene).expect("reads back");
        assert_eq!(back.story.journal, *journal);
        // A zone the battle lacks, and a unit where a zone must be.
        let at = |value: SavedValue| {
            let mut edited = by_ids.clone();
            for (key, arg) in &mut edited.story.told[0].args {
                if key == "at:zhang" {
                    *arg = value.clone();
                }
            }
            edited.to_snapshot(0, &scene).expect_err("refused")
        };
        let lacking = at(SavedValue::Zone("no-such-zone".into()));
        assert!(lacking.contains("a zone `no-such-zone`"), "{lacking}");
        let unit = scene.units()[0].id.clone();
        let cannot = at(SavedValue::Unit(unit));
        assert!(cannot.ends_with("which it cannot name"), "{cannot}");
        // As texts, as formats 1 to 5 saved it.
        let state = SavedState::of_form(&snapshot, &scene, JournalForm::Texts).expect("state");
        let (_, told) = &state.story.journal[0];
        assert!(told.args.iter().any(|(key, arg)| key == "at:zhang"
            && *arg == SavedArg::Name(SavedText::Plain("South bank".into()))));
        let back = state.to_snapshot(0, &scene).expect("reads back");
        assert_eq!(back.story.journal, *journal);
        // A name the placeholder cannot take is refused.
        let mut edited = state.clone();
        for (key, arg) in &mut edited.story.journal[0].1.args {
            if key == "at:zhang" {
                *arg = SavedArg::Name(SavedText::Plain("Banner".into()));
            }
        }
        let refused = edited
            .to_snapshot(0, &scene)
            .expect_err("a unit for a zone");
        assert!(refused.contains("cannot"), "{refused}");
    }
}
