//! A game state's fingerprint without converting it: [`state`] walks the
//! engine's snapshot and makes the serializer calls that its
//! [`SavedState`](super::SavedState) would, its story's journal in texts
//! as formats 1 to 5 saved it, field by field, in the same order, with the
//! same lengths, variant indices and skipped fields, so the fingerprint is
//! the same number, bit for bit, as
//! `SavedState::of_form(.., JournalForm::Texts).fingerprint()` (formats 6
//! and 7, which save the journal by ids, kept these fingerprints, so those
//! of older saves still check). [`state_by_ids`] walks it with the journal
//! by ids as format 6 on saves it, for the fingerprints by ids this engine
//! writes (format 8 on), the same number as
//! `SavedState::of(..).fingerprint_by_ids()`. A test holds both to that on the
//! states of whole games of every battle, and to the same RON text. Nothing
//! is copied: names are the scene's own strings, told texts are read in
//! place, the random streams' keys are written in hex on the stack. The
//! writer thread fingerprints the state before every command; converting
//! each one to drop it at once was most of that work.
//!
//! A change to the save's types must be made here too, or the tests fail.

use super::hash;
use super::types::*;
use crate::scene::{Scene, Text};
use crate::sim::WorldState;
use crate::sim::rng::BattleRng;
use crate::story::{Arg, Courier, Snapshot, StoryState, Telling};
use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct, SerializeTuple, Serializer};

/// The fingerprint of the state a snapshot holds, as its save's checkpoints
/// hold it: 0 when it has no save (a random stream past what a save holds),
/// as [`super::fingerprint`] says then.
pub fn state(snapshot: &Snapshot, scene: &Scene) -> u64 {
    match view(snapshot, scene) {
        Some(view) => hash::fingerprint(&view),
        None => 0,
    }
}

/// The fingerprint by ids of the state a snapshot holds (format 8 on): the
/// state as its save of format 6 on holds it, its story's journal by the
/// scene's ids, hashed by [`hash::by_words`]; the same number, bit for bit,
/// as `hash::by_words(&SavedState::of(..))`. 0 when it has no save.
pub fn state_by_ids(snapshot: &Snapshot, scene: &Scene) -> u64 {
    match view_in(snapshot, scene, JournalForm::Ids) {
        Some(view) => hash::by_words(&view),
        None => 0,
    }
}

/// The state as its save would serialise it, its story's journal in
/// texts; None when it has no save.
pub fn view<'a>(snapshot: &'a Snapshot, scene: &'a Scene) -> Option<StateView<'a>> {
    view_in(snapshot, scene, JournalForm::Texts)
}

/// [`view`], its story's journal in `form`.
pub fn view_in<'a>(
    snapshot: &'a Snapshot,
    scene: &'a Scene,
    form: JournalForm,
) -> Option<StateView<'a>> {
    let fits = |rng: &BattleRng| u64::try_from(rng.0.get_word_pos()).is_ok();
    if !fits(&snapshot.world.rng) || !fits(&snapshot.policy_rng) {
        return None;
    }
    Some(StateView {
        world: &snapshot.world,
        story: &snapshot.story,
        policy_rng: &snapshot.policy_rng,
        scene,
        form,
    })
}

pub struct StateView<'a> {
    world: &'a WorldState,
    story: &'a StoryState,
    policy_rng: &'a BattleRng,
    scene: &'a Scene,
    form: JournalForm,
}

impl Serialize for StateView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("SavedState", 3)?;
        st.serialize_field("world", &World(self.world))?;
        st.serialize_field(
            "story",
            &Story {
                story: self.story,
                scene: self.scene,
                form: self.form,
            },
        )?;
        st.serialize_field("policy_rng", &Rng(self.policy_rng))?;
        st.end()
    }
}

/// A random stream as its [`super::RngPosition`].
struct Rng<'a>(&'a BattleRng);

impl Serialize for Rng<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let rng = &self.0.0;
        let mut key = [0_u8; 64];
        for (i, b) in rng.get_seed().iter().enumerate() {
            key[2 * i] = DIGITS[usize::from(b >> 4)];
            key[2 * i + 1] = DIGITS[usize::from(b & 0xf)];
        }
        let key = std::str::from_utf8(&key).unwrap_or("");
        // Checked by `view`: a position past a u64 has no save.
        let word_pos = u64::try_from(rng.get_word_pos()).unwrap_or(u64::MAX);
        let mut st = s.serialize_struct("RngPosition", 3)?;
        st.serialize_field("key", key)?;
        st.serialize_field("stream", &rng.get_stream())?;
        st.serialize_field("word_pos", &word_pos)?;
        st.end()
    }
}

struct World<'a>(&'a WorldState);

impl Serialize for World<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let WorldState {
            turn,
            weather,
            rng,
            units,
            commanders,
            zones,
            rumors,
            vision,
            wet_cloth,
        } = self.0;
        let mut st = s.serialize_struct("SavedWorld", 9)?;
        st.serialize_field("turn", turn)?;
        st.serialize_field("weather", &SavedWeather::from(weather))?;
        st.serialize_field("rng", &Rng(rng))?;
        st.serialize_field("units", &Seq(units.len(), || units.iter().map(Unit)))?;
        st.serialize_field(
            "commanders",
            &Seq(commanders.len(), || {
                commanders.iter().map(SavedCommander::from)
            }),
        )?;
        st.serialize_field("zones", &Seq(zones.len(), || zones.iter().map(Zone)))?;
        st.serialize_field("rumors", &Rumors(rumors))?;
        st.serialize_field("vision", &Vision(vision))?;
        st.serialize_field("wet_cloth", wet_cloth)?;
        st.end()
    }
}

/// A sequence of `len` items, as a `Vec` of them serialises.
struct Seq<F>(usize, F);

impl<F, I, T> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: Iterator<Item = T>,
    T: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0))?;
        for item in (self.1)() {
            seq.serialize_element(&item)?;
        }
        seq.end()
    }
}

/// A pair, as a tuple `(A, B)` serialises.
struct Pair<A, B>(A, B);

impl<A: Serialize, B: Serialize> Serialize for Pair<A, B> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(&self.0)?;
        t.serialize_element(&self.1)?;
        t.end()
    }
}

struct Unit<'a>(&'a crate::sim::state::UnitRecord);

impl Serialize for Unit<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Destructured whole, so that a field added to the record is not
        // left out of the fingerprint unnoticed.
        let crate::sim::state::UnitRecord {
            men,
            lost_this_turn,
            location,
            orders,
            morale,
            side,
        } = self.0;
        let mut st = s.serialize_struct("SavedUnit", 6)?;
        st.serialize_field("men", men)?;
        st.serialize_field("lost_this_turn", lost_this_turn)?;
        st.serialize_field(
            "location",
            &SavedLocation {
                zone: location.zone(),
                present: location.present,
            },
        )?;
        st.serialize_field(
            "orders",
            &SavedOrders {
                order: orders.order().into(),
                progress: orders.progress,
                came_from: orders.came_from(),
            },
        )?;
        st.serialize_field("morale", &Morale(morale, location.state()))?;
        match side {
            Some(_) => st.serialize_field("side", side)?,
            None => st.skip_field("side")?,
        }
        st.end()
    }
}

/// A unit's morale as saved: its state (kept in its `Location`) with it.
struct Morale<'a>(&'a crate::sim::morale::Morale, crate::scene::MoraleState);

impl Serialize for Morale<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (m, state) = (self.0, self.1);
        let last = m.last();
        let mut st = s.serialize_struct("SavedMorale", 5)?;
        st.serialize_field("value", &m.value)?;
        st.serialize_field("state", &SavedMoraleState::from(state))?;
        st.serialize_field(
            "last",
            &Seq(last.len(), || {
                last.iter().map(|(k, d)| Pair(SavedModifier::from(*k), *d))
            }),
        )?;
        st.serialize_field("believes_lost", &m.believes_lost)?;
        if m.fear == 0.0 {
            st.skip_field("fear")?;
        } else {
            st.serialize_field("fear", &m.fear)?;
        }
        st.end()
    }
}

struct Zone<'a>(&'a crate::sim::state::ZoneRecord);

impl Serialize for Zone<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let crate::sim::state::ZoneRecord {
            burning,
            passage,
            haze,
        } = self.0;
        let mut st = s.serialize_struct("SavedZone", 3)?;
        st.serialize_field(
            "burning",
            &SavedBurning {
                fire: burning.fire,
                fuel: burning.fuel,
                smoke: burning.smoke,
            },
        )?;
        st.serialize_field("passage", &Passage(passage))?;
        if haze.levels.is_empty() {
            st.skip_field("haze")?;
        } else {
            st.serialize_field("haze", &Haze(&haze.levels))?;
        }
        st.end()
    }
}

struct Passage<'a>(&'a crate::sim::weather::Passage);

impl Serialize for Passage<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("SavedPassage", 2)?;
        st.serialize_field("intact", &self.0.intact)?;
        st.serialize_field("crossed", &self.0.crossed)?;
        st.end()
    }
}

struct Haze<'a>(&'a [f64]);

impl Serialize for Haze<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("SavedHaze", 1)?;
        st.serialize_field("levels", self.0)?;
        st.end()
    }
}

struct Rumors<'a>(&'a crate::sim::rumor::Rumors);

impl Serialize for Rumors<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let active = &self.0.active;
        let mut st = s.serialize_struct("SavedRumors", 1)?;
        st.serialize_field("active", &Seq(active.len(), || active.iter().map(Rumor)))?;
        st.end()
    }
}

struct Rumor<'a>(&'a crate::sim::rumor::Rumor);

impl Serialize for Rumor<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let crate::sim::rumor::Rumor {
            about,
            routed,
            credibility,
            reached,
            believers,
        } = self.0;
        let mut st = s.serialize_struct("SavedRumor", 5)?;
        st.serialize_field("about", about)?;
        st.serialize_field("routed", routed)?;
        st.serialize_field("credibility", credibility)?;
        st.serialize_field("reached", reached)?;
        st.serialize_field("believers", believers)?;
        st.end()
    }
}

struct Vision<'a>(&'a crate::sim::perception::Vision);

impl Serialize for Vision<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("SavedVision", 2)?;
        st.serialize_field("blind", &self.0.blind)?;
        st.serialize_field("sees", &self.0.sees)?;
        st.end()
    }
}

struct Story<'a> {
    story: &'a StoryState,
    scene: &'a Scene,
    form: JournalForm,
}

impl Serialize for Story<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
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
        } = self.story;
        let scene = self.scene;
        let mut st = s.serialize_struct("SavedStory", 9)?;
        st.serialize_field(
            "chosen",
            &Seq(chosen.len(), || {
                chosen
                    .iter()
                    .map(|&(tp, option)| Pair(scene.id_of(tp), option_id(scene, tp, option)))
            }),
        )?;
        st.serialize_field(
            "happened",
            &Seq(happened.len(), || happened.iter().map(|&e| scene.id_of(e))),
        )?;
        // A set of names: in the names' order, each once.
        let mut names: Vec<&str> = flags.iter().map(|&f| scene.id_of(f)).collect();
        names.sort_unstable();
        names.dedup();
        st.serialize_field("flags", &names)?;
        st.serialize_field("pending", &pending.map(|tp| scene.id_of(tp)))?;
        st.serialize_field("ended", &ended.map(|e| scene.id_of(e)))?;
        // Tellings of another scene are left out, as `SavedStory::of` does.
        // By ids (`SavedStory`'s `told`, written last), converted as the
        // save does: a few short names each, against every language's text.
        let by_ids = match self.form {
            JournalForm::Ids => (journal.iter())
                .filter(|t| TellingView::of(t, scene).is_some())
                .count(),
            JournalForm::Texts => 0,
        };
        if by_ids > 0 {
            st.skip_field("journal")?;
        } else if self.form == JournalForm::Ids {
            // The empty `journal` a story by ids writes when it told nothing.
            let none: &[u32] = &[];
            st.serialize_field("journal", none)?;
        } else {
            let kept = journal.iter().filter(|t| told(t, scene).is_some()).count();
            st.serialize_field(
                "journal",
                &Seq(kept, || {
                    (journal.iter()).filter_map(|t| Some(Pair(t.turn, told(t, scene)?)))
                }),
            )?;
        }
        st.serialize_field("couriers", &Couriers(couriers, scene))?;
        if since.is_empty() {
            st.skip_field("since")?;
        } else {
            let mut named: Vec<(&str, u32)> = (since.iter())
                .map(|(&w, &turn)| (scene.id_of(w), turn))
                .collect();
            named.sort_by(|a, b| a.0.cmp(b.0));
            named.dedup_by(|b, a| {
                // A map keeps the last value of a key given twice.
                if a.0 == b.0 {
                    a.1 = b.1;
                    true
                } else {
                    false
                }
            });
            st.serialize_field("since", &Map(&named))?;
        }
        if answers.is_empty() {
            st.skip_field("answers")?;
        } else {
            st.serialize_field("answers", &Couriers(answers, scene))?;
        }
        if by_ids > 0 {
            st.serialize_field(
                "told",
                &Seq(by_ids, || {
                    (journal.iter()).filter_map(|t| TellingView::of(t, scene))
                }),
            )?;
        }
        st.end()
    }
}

/// The file's name of option `option` of `tp` (as the save's types name it).
fn option_id(scene: &Scene, tp: crate::scene::TpId, option: u32) -> &str {
    scene
        .turning_points()
        .get(tp.idx())
        .and_then(|tp| tp.options.get(option as usize))
        .map_or("", |o| o.id.as_str())
}

/// Names and numbers, in the names' order, as a map serialises.
struct Map<'a>(&'a [(&'a str, u32)]);

impl Serialize for Map<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

struct Couriers<'a>(&'a [Courier], &'a Scene);

impl Serialize for Couriers<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Few and small: converted as the save does.
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for c in self.0 {
            seq.serialize_element(&SavedCourier::of(c, self.1))?;
        }
        seq.end()
    }
}

/// A telling as its [`SavedTold`]: the text told and its values, read in
/// the scene; None for a telling of another scene (see [`Telling::told`]).
struct Told<'a> {
    text: &'a Text,
    telling: &'a Telling,
    slots: &'a [(String, Option<crate::scene::resolved::Slot>)],
    scene: &'a Scene,
}

fn told<'a>(telling: &'a Telling, scene: &'a Scene) -> Option<Told<'a>> {
    use crate::scene::raw::Prose;
    let k = telling.variant as usize;
    let prose = scene.events().get(telling.event.idx())?.text.as_ref()?;
    let text = match prose {
        Prose::One(text) => (k == 0).then_some(text)?,
        Prose::Variants(items) => &items.get(k)?.text,
    };
    let variants = (scene.resolved().events.get(telling.event.idx()))?
        .text
        .as_ref()?;
    let slots = variants.slots.get(k)?;
    for (slot, arg) in &telling.values {
        slots.get(*slot as usize)?;
        if let Arg::Name(named) = arg {
            scene.name(*named)?;
        }
    }
    Some(Told {
        text,
        telling,
        slots,
        scene,
    })
}

impl Serialize for Told<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let values = &self.telling.values;
        let mut st = s.serialize_struct("SavedTold", 2)?;
        st.serialize_field("text", &TextView(self.text))?;
        st.serialize_field(
            "args",
            &Seq(values.len(), || {
                values.iter().map(|(slot, arg)| {
                    let key = self
                        .slots
                        .get(*slot as usize)
                        .map_or("", |(k, _)| k.as_str());
                    Pair(key, ArgView(arg, self.scene))
                })
            }),
        )?;
        st.end()
    }
}

/// A text as its [`SavedText`] (untagged: a string, or a map by locale).
struct TextView<'a>(&'a Text);

impl Serialize for TextView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Text::Plain(text) => s.serialize_str(text),
            Text::Localized(map) => {
                // As a `BTreeMap<String, String>`: its length told first.
                let mut out = s.serialize_map(Some(map.len()))?;
                for (tag, text) in map.iter() {
                    out.serialize_entry(tag, text)?;
                }
                out.end()
            }
        }
    }
}

/// A value as its [`SavedArg`].
struct ArgView<'a>(&'a Arg, &'a Scene);

impl Serialize for ArgView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        const NAME: &str = "SavedArg";
        match self.0 {
            Arg::Count(n) => s.serialize_newtype_variant(NAME, 0, "Count", n),
            Arg::About(n) => s.serialize_newtype_variant(NAME, 1, "About", n),
            Arg::Rough(n) => s.serialize_newtype_variant(NAME, 2, "Rough", n),
            Arg::Unknown => s.serialize_unit_variant(NAME, 3, "Unknown"),
            Arg::Name(named) => match self.1.name(*named) {
                Some(text) => s.serialize_newtype_variant(NAME, 4, "Name", &TextView(text)),
                // Checked by `told`: never reached.
                None => s.serialize_unit_variant(NAME, 3, "Unknown"),
            },
            Arg::Clock(m) => s.serialize_newtype_variant(NAME, 5, "Clock", m),
            Arg::Turn(t) => s.serialize_newtype_variant(NAME, 6, "Turn", t),
            Arg::Nobody => s.serialize_unit_variant(NAME, 7, "Nobody"),
        }
    }
}

/// A telling as its [`SavedTelling`] (by the scene's ids), read in place:
/// None for one [`SavedTelling::of`] leaves out (of another scene).
struct TellingView<'a> {
    telling: &'a Telling,
    event: &'a str,
    slots: &'a crate::scene::resolved::Slots,
    scene: &'a Scene,
}

impl<'a> TellingView<'a> {
    fn of(telling: &'a Telling, scene: &'a Scene) -> Option<TellingView<'a>> {
        use crate::scene::resolved::FileId;
        let slots = told_slots(telling, scene)?;
        let event = telling.event.file_id(scene)?;
        for (slot, arg) in &telling.values {
            slots.get(*slot as usize)?;
            if let Arg::Name(named) = arg {
                name_id(*named, scene)?;
            }
        }
        Some(TellingView {
            telling,
            event,
            slots,
            scene,
        })
    }
}

/// The id a name is written by in a save (as [`SavedValue`]'s).
fn name_id(named: crate::scene::resolved::Named, scene: &Scene) -> Option<&str> {
    use crate::scene::resolved::{FileId, Named};
    match named {
        Named::Side(id) => id.file_id(scene),
        Named::Zone(id) => id.file_id(scene),
        Named::Unit(id) => id.file_id(scene),
        Named::Commander(id) => id.file_id(scene),
    }
}

impl Serialize for TellingView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Telling {
            turn,
            variant,
            values,
            ..
        } = self.telling;
        let mut st = s.serialize_struct("SavedTelling", 3 + usize::from(!values.is_empty()))?;
        st.serialize_field("turn", turn)?;
        st.serialize_field("event", self.event)?;
        st.serialize_field("variant", variant)?;
        if values.is_empty() {
            st.skip_field("args")?;
        } else {
            st.serialize_field(
                "args",
                &Seq(values.len(), || {
                    values.iter().map(|(slot, arg)| {
                        let inside =
                            (self.slots.get(*slot as usize)).map_or("", |(k, _)| k.as_str());
                        Pair(inside, ValueView(arg, self.scene))
                    })
                }),
            )?;
        }
        st.end()
    }
}

/// A value as its [`SavedValue`].
struct ValueView<'a>(&'a Arg, &'a Scene);

impl Serialize for ValueView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use crate::scene::resolved::Named;
        const NAME: &str = "SavedValue";
        match self.0 {
            Arg::Count(n) => s.serialize_newtype_variant(NAME, 0, "Count", n),
            Arg::About(n) => s.serialize_newtype_variant(NAME, 1, "About", n),
            Arg::Rough(n) => s.serialize_newtype_variant(NAME, 2, "Rough", n),
            Arg::Unknown => s.serialize_unit_variant(NAME, 3, "Unknown"),
            Arg::Name(named) => {
                // Checked by `TellingView::of`: always found.
                let id = name_id(*named, self.1).unwrap_or("");
                match named {
                    Named::Side(_) => s.serialize_newtype_variant(NAME, 4, "Side", id),
                    Named::Zone(_) => s.serialize_newtype_variant(NAME, 5, "Zone", id),
                    Named::Unit(_) => s.serialize_newtype_variant(NAME, 6, "Unit", id),
                    Named::Commander(_) => s.serialize_newtype_variant(NAME, 7, "Commander", id),
                }
            }
            Arg::Clock(m) => s.serialize_newtype_variant(NAME, 8, "Clock", m),
            Arg::Turn(t) => s.serialize_newtype_variant(NAME, 9, "Turn", t),
            Arg::Nobody => s.serialize_unit_variant(NAME, 10, "Nobody"),
        }
    }
}
