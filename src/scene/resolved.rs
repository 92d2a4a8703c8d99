//! The scene as the engine reads it at run time: every id resolved once, at
//! load, to a typed index, and every reference table built then.
//!
//! The raw serde model ([`super::raw`]) stays what a file says (parsing,
//! diagnostics with positions, the texts); this is what conditions, effects,
//! targets and placeholders become, made by the lowering's one walk
//! (`super::lower`), which checks each reference where it resolves it. A
//! resolved value cannot name a missing thing: a reference that does not
//! resolve is a problem of the file, reported at load with its place, never
//! a silent fallback to index 0 at run time.

use super::Scene;
use super::raw::{Cmp, Compass, Fate, MoraleState};
use std::collections::HashMap;

macro_rules! ids {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $name {
            /// Its place in the scene's list.
            pub fn idx(self) -> usize {
                self.0 as usize
            }
            pub(crate) fn at(idx: usize) -> $name {
                $name(u32::try_from(idx).unwrap_or(u32::MAX))
            }
        }
    )*};
}

ids!(
    /// A zone, by its place in `zones`.
    ZoneId,
    /// A unit, by its place in `units`.
    UnitId,
    /// A commander, by its place in `commanders`.
    CommanderId,
    /// A side, by its place in `sides`.
    SideId,
    /// A turning point, by its place in `turning_points`.
    TpId,
    /// An event, by its place in `events`.
    EventId,
    /// An ending, by its place in `endings`.
    EndingId,
    /// A flag, by its place in [`Resolved::flags`] (every flag name the scene
    /// sets, clears or reads).
    FlagId,
    /// One of the scene's obscurants, by its place in id order.
    ObscurantId,
    /// A playable role, by its place in `meta.playable`.
    RoleId,
    /// An id `TurnsSince` watches, by its place in [`Resolved::watched`].
    WatchId,
);

/// A typed id and the name the scene file gives it ([`Scene::id_of`],
/// [`Scene::find`]): the two ways across the edge where words meet ids.
pub trait FileId: Copy + Sized {
    /// The file's name for it; None for an id of another scene.
    fn file_id(self, scene: &Scene) -> Option<&str>;
    /// The id the file names `name`, if the scene has one.
    fn named(scene: &Scene, name: &str) -> Option<Self>;
}

macro_rules! file_ids {
    ($($name:ident => |$scene:ident, $i:ident| $get:expr, |$s:ident, $n:ident| $find:expr;)*) => {$(
        impl FileId for $name {
            fn file_id(self, $scene: &Scene) -> Option<&str> {
                let $i = self.idx();
                $get
            }
            fn named($s: &Scene, $n: &str) -> Option<Self> {
                $find
            }
        }
    )*};
}

file_ids!(
    ZoneId => |scene, i| scene.zones().get(i).map(|z| z.id.as_str()),
        |s, n| s.zone_idx(n).map(ZoneId::at);
    UnitId => |scene, i| scene.units().get(i).map(|u| u.id.as_str()),
        |s, n| s.unit_idx(n).map(UnitId::at);
    CommanderId => |scene, i| scene.commanders().get(i).map(|c| c.id.as_str()),
        |s, n| s.commander_idx(n).map(CommanderId::at);
    SideId => |scene, i| scene.sides().get(i).map(|s| s.id.as_str()),
        |s, n| s.side_idx(n).map(SideId::at);
    TpId => |scene, i| scene.turning_points().get(i).map(|tp| tp.id.as_str()),
        |s, n| s.resolved().tp(n);
    EventId => |scene, i| scene.events().get(i).map(|e| e.id.as_str()),
        |s, n| s.resolved().event(n);
    EndingId => |scene, i| scene.endings().get(i).map(|e| e.id.as_str()),
        |s, n| s.resolved().ending(n);
    FlagId => |scene, i| scene.resolved().flags.get(i).map(String::as_str),
        |s, n| s.resolved().flag(n);
    WatchId => |scene, i| scene.resolved().watched.get(i).map(|w| w.id.as_str()),
        |s, n| s.resolved().watch(n);
    RoleId => |scene, i| scene.meta().playable.get(i).map(String::as_str),
        |s, n| s.meta().playable.iter().position(|r| r == n).map(RoleId::at);
);

/// A condition with its ids resolved ([`super::Condition`] as the engine reads it).
#[derive(Debug, Clone, PartialEq)]
pub enum Cond {
    Always,
    Never,
    All(Vec<Cond>),
    Any(Vec<Cond>),
    Not(Box<Cond>),
    Turn(Cmp),
    Minute(Cmp),
    Chosen {
        tp: TpId,
        option: u32,
    },
    Reached(TpId),
    Happened(EventId),
    Flag(FlagId),
    UnitState {
        unit: UnitId,
        is: Vec<MoraleState>,
    },
    UnitIn {
        unit: UnitId,
        zone: ZoneId,
    },
    UnitMen {
        unit: UnitId,
        cmp: Cmp,
    },
    UnitMorale {
        unit: UnitId,
        cmp: Cmp,
    },
    CommanderIn {
        commander: CommanderId,
        zone: ZoneId,
    },
    SideStrength {
        side: SideId,
        cmp: Cmp,
    },
    SideLosses {
        side: SideId,
        cmp: Cmp,
    },
    SideRouting {
        side: SideId,
        cmp: Cmp,
    },
    SideMenIn {
        side: SideId,
        zone: ZoneId,
        cmp: Cmp,
    },
    SideCrossed {
        side: SideId,
        zone: ZoneId,
        cmp: Cmp,
    },
    Smoke {
        zone: ZoneId,
        cmp: Cmp,
    },
    Fire {
        zone: ZoneId,
        cmp: Cmp,
    },
    Wind(Cmp),
    /// The wind blows toward one of the points in this mask (bit `i`: the
    /// point `i` eighths clockwise from north). `WindFrom` is resolved to
    /// the opposite points.
    WindToward(u8),
    Passable(ZoneId),
    Playing(RoleId),
    PlayerSide(SideId),
    Sees {
        side: SideId,
        zone: ZoneId,
    },
    Fallen(CommanderId),
    TurnsSince(WatchId, Cmp),
    Obscured {
        zone: ZoneId,
        by: ObscurantId,
        cmp: Cmp,
    },
    Chance(f64),
}

/// The units an effect is aimed at.
#[derive(Debug, Clone, PartialEq)]
pub enum Targets {
    /// These units, ascending, once each (`Unit` and `Units`).
    Units(Vec<UnitId>),
    /// Every unit fighting for the side when the effect happens.
    Side(SideId),
    /// Every present unit of the side in the zone.
    SideIn { side: SideId, zone: ZoneId },
    /// Every present unit in the zone.
    Zone(ZoneId),
}

/// A standing order with its zone resolved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ROrder {
    Hold,
    MoveTo(ZoneId),
    Pursue,
}

/// An effect with its ids resolved ([`super::Effect`] as the engine applies it).
/// Story-only effects (flags, narration) are the story's.
#[derive(Debug, Clone, PartialEq)]
pub enum Act {
    Order {
        targets: Targets,
        order: ROrder,
    },
    Morale {
        targets: Targets,
        delta: f64,
    },
    Rumor {
        zone: ZoneId,
        about: SideId,
        routed: bool,
        credibility: f64,
    },
    Fire {
        zone: ZoneId,
        intensity: f64,
    },
    Smoke {
        zone: ZoneId,
        level: f64,
    },
    Wind {
        strength: f64,
        toward: Compass,
    },
    Drums {
        commander: CommanderId,
        turns: u32,
    },
    CommanderTo {
        commander: CommanderId,
        zone: ZoneId,
    },
    Casualties {
        targets: Targets,
        share: f64,
    },
    Surrender(UnitId),
    Destroy {
        zone: ZoneId,
        share: f64,
    },
    Arrive(UnitId),
    WetCloth(SideId),
    Fall {
        commander: CommanderId,
        fate: Fate,
    },
    /// `zones` empty: every zone.
    Obscure {
        zones: Vec<ZoneId>,
        by: ObscurantId,
        level: f64,
    },
    /// The commander (with the units he leads) or the unit `who` names.
    ChangeSide {
        commander: Option<CommanderId>,
        unit: Option<UnitId>,
        side: SideId,
    },
    SetFlag(FlagId),
    ClearFlag(FlagId),
    /// Narration: the story tells the raw effect's prose by these variants.
    Narrate(Variants),
}

/// A prose's variants' conditions, in order (`[Always]` for a single text),
/// what each variant claims of the world when told, and its placeholders.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Variants {
    pub when: Vec<Cond>,
    pub claims: Vec<Vec<Cond>>,
    /// Per variant, its placeholders resolved.
    pub slots: Vec<Slots>,
}

/// A placeholder with its ids resolved: what the story fills it with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Slot {
    Turn,
    Time,
    /// Men still on the field.
    Men(Whose),
    /// Men lost.
    Losses(Whose),
    MenIn(SideId, ZoneId),
    Crossed(SideId, ZoneId),
    Holder(ZoneId),
    Name(Named),
    At(CommanderId),
}

/// The side or unit a count is of.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Whose {
    Side(SideId),
    Unit(UnitId),
}

/// What a `{name:ID}` names (a side first, then a zone, a unit, a commander).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    Side(SideId),
    Zone(ZoneId),
    Unit(UnitId),
    Commander(CommanderId),
}

/// A text's placeholders, each once, in the order the telling fills them
/// (English, then zh-Hans, then zh-Hant): the inside of its braces, as the
/// text writes it (how a told text's values are named), and what it asks
/// for (None: no placeholder of this scene, which prints nothing).
pub type Slots = Vec<(String, Option<Slot>)>;

/// Where the ids of the four tables are looked up: the file's rows while
/// the scene is lowered, the scene's own tables after (a condition or effect
/// written outside the file, by a test or a tool). Either way the lowering
/// does the looking, so a reference is resolved one way only.
pub(crate) trait Lookup {
    /// The index in its table of the item `id`.
    fn find(&self, table: Table, id: &str) -> Option<usize>;
    /// Every id of `table`, in no set order (for a hint).
    fn ids(&self, table: Table) -> Vec<&str>;
    /// The zone's kind (None for an index past the table).
    fn zone_kind(&self, zone: usize) -> Option<&super::ZoneKind>;
    /// What a kind of zone does (None for a kind neither the rules nor the
    /// scene declares).
    fn kind_rules(&self, kind: &super::ZoneKind) -> Option<&super::rules::ZoneKindRules>;
    /// The id of the commander's side.
    fn commander_side(&self, commander: usize) -> Option<&str>;
    /// Whether the commander has drums to beat.
    fn drums(&self, commander: usize) -> bool;
}

/// The four tables whose ids a scene refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Table {
    Zone,
    Side,
    Unit,
    Commander,
}

impl Table {
    /// The table's word in a diagnostic ("unknown zone `x`").
    pub(crate) fn word(self) -> &'static str {
        match self {
            Table::Zone => "zone",
            Table::Side => "side",
            Table::Unit => "unit",
            Table::Commander => "commander",
        }
    }
}

/// The placeholders of `text`, resolved against `names`.
pub(crate) fn slots(names: &dyn Lookup, text: &super::Text) -> Slots {
    use super::placeholder::{Placeholder, spans};
    let mut out: Slots = Vec::new();
    for tag in ["en", "zh-Hans", "zh-Hant"] {
        let template = match text {
            super::Text::Plain(s) => Some(s.as_str()),
            super::Text::Localized(map) => map.get(tag),
        };
        for (_, inside) in spans(template.unwrap_or("")) {
            if out.iter().any(|(seen, _)| seen == inside) {
                continue;
            }
            let slot = Placeholder::parse(inside).and_then(|p| slot(names, p));
            out.push((inside.to_string(), slot));
        }
    }
    out
}

/// One placeholder resolved; None when it names what the scene lacks.
pub(crate) fn slot(
    names: &dyn Lookup,
    placeholder: super::placeholder::Placeholder,
) -> Option<Slot> {
    use super::placeholder::Placeholder as P;
    let side = |id: &str| names.find(Table::Side, id).map(SideId::at);
    let zone = |id: &str| names.find(Table::Zone, id).map(ZoneId::at);
    let unit = |id: &str| names.find(Table::Unit, id).map(UnitId::at);
    let commander = |id: &str| names.find(Table::Commander, id).map(CommanderId::at);
    let whose = |id: &str| (side(id).map(Whose::Side)).or_else(|| unit(id).map(Whose::Unit));
    Some(match placeholder {
        P::Turn => Slot::Turn,
        P::Time => Slot::Time,
        P::Men(id) => Slot::Men(whose(id)?),
        P::Losses(id) => Slot::Losses(whose(id)?),
        P::MenIn(s, z) => Slot::MenIn(side(s)?, zone(z)?),
        P::Crossed(s, z) => Slot::Crossed(side(s)?, zone(z)?),
        P::Holder(z) => Slot::Holder(zone(z)?),
        P::Name(id) => Slot::Name(
            (side(id).map(Named::Side))
                .or_else(|| zone(id).map(Named::Zone))
                .or_else(|| unit(id).map(Named::Unit))
                .or_else(|| commander(id).map(Named::Commander))?,
        ),
        P::At(c) => Slot::At(commander(c)?),
    })
}

impl Variants {
    /// One text told always, claiming nothing, its placeholders `slots`.
    pub fn always(slots: Slots) -> Variants {
        Variants {
            when: vec![Cond::Always],
            claims: vec![Vec::new()],
            slots: vec![slots],
        }
    }
}

#[derive(Debug, Clone)]
pub struct RChoice {
    /// What the option's text claims when it is offered.
    pub claims: Vec<Cond>,
    pub narration: Variants,
    pub perceived: Option<Variants>,
    pub effects: Vec<Act>,
}

#[derive(Debug, Clone)]
pub struct RTurningPoint {
    pub when: Cond,
    pub role: CommanderId,
    pub situation: Variants,
    pub options: Vec<RChoice>,
    /// The novel's option (the first if none is marked).
    pub historical: usize,
}

#[derive(Debug, Clone)]
pub struct REvent {
    pub when: Cond,
    pub text: Option<Variants>,
    pub effects: Vec<Act>,
}

#[derive(Debug, Clone)]
pub struct REnding {
    pub when: Cond,
    pub text: Variants,
    pub summary: Variants,
    pub history: Option<Variants>,
}

#[derive(Debug, Clone)]
pub struct RPrelude {
    pub text: Option<Variants>,
    pub effects: Vec<Act>,
}

/// What `TurnsSince` may name: a flag, an event or a turning point (an id
/// may be more than one of them).
#[derive(Debug, Clone)]
pub struct Watch {
    pub id: String,
    pub event: Option<EventId>,
    pub tp: Option<TpId>,
    pub flag: Option<FlagId>,
    /// Named in the `when` of a turning point, event or ending: the story
    /// notes the turn it happened (`StoryState::since`). One named only in
    /// text variants is read without a note (true in the turn it happens).
    pub stamped: bool,
}

/// The resolved scene: reference tables by index, and the story's
/// conditions and effects in the raw model's order (the `n`th event here is
/// the `n`th event of the file).
#[derive(Debug, Clone, Default)]
pub struct Resolved {
    /// Per playable role, its commander.
    pub roles: Vec<CommanderId>,
    /// The ending when the turns run out (`meta.timeout_ending`).
    pub timeout: EndingId,
    pub flags: Vec<String>,
    pub watched: Vec<Watch>,
    pub events: Vec<REvent>,
    pub turning_points: Vec<RTurningPoint>,
    pub endings: Vec<REnding>,
    pub atmosphere: Vec<Cond>,
    /// Per atmosphere line, what it claims when told.
    pub atmosphere_claims: Vec<Vec<Cond>>,
    /// Per atmosphere line, its placeholders.
    pub atmosphere_slots: Vec<Slots>,
    pub prelude: Option<RPrelude>,
    /// The scene's introduction (`meta.intro`).
    pub intro: Variants,
    /// The flags kept from some sides, and what those sides believe of them.
    pub secrets: Vec<RSecret>,
    pub(crate) flag_index: HashMap<String, FlagId>,
    pub(crate) tp_index: HashMap<String, TpId>,
    pub(crate) event_index: HashMap<String, EventId>,
    pub(crate) ending_index: HashMap<String, EndingId>,
    pub(crate) watch_index: HashMap<String, WatchId>,
}

/// A flag some sides cannot know, resolved (see `Secret`).
#[derive(Debug, Clone, PartialEq)]
pub struct RSecret {
    pub flag: FlagId,
    pub hidden_from: Vec<SideId>,
    pub belief: f64,
}

impl RSecret {
    /// Whether the side `side` (its index) does not know the flag.
    pub fn kept_from(&self, side: usize) -> bool {
        self.hidden_from.iter().any(|s| s.idx() == side)
    }
}

impl Resolved {
    pub fn flag(&self, id: &str) -> Option<FlagId> {
        self.flag_index.get(id).copied()
    }
    pub fn tp(&self, id: &str) -> Option<TpId> {
        self.tp_index.get(id).copied()
    }
    pub fn event(&self, id: &str) -> Option<EventId> {
        self.event_index.get(id).copied()
    }
    pub fn ending(&self, id: &str) -> Option<EndingId> {
        self.ending_index.get(id).copied()
    }
    pub fn watch(&self, id: &str) -> Option<WatchId> {
        self.watch_index.get(id).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Cmp, Condition, Effect, Target};
    use crate::sim::testing::small_scene;

    #[test]
    fn conditions_and_targets_resolve_to_indices_and_misses_to_nothing() {
        let scene = small_scene(|raw| raw);
        let cond = scene.resolve_condition(&Condition::UnitIn {
            unit: "banner".into(),
            zone: "ford".into(),
        });
        assert_eq!(
            cond,
            Some(Cond::UnitIn {
                unit: UnitId(1),
                zone: ZoneId(1)
            })
        );
        assert_eq!(
            scene.resolve_condition(&Condition::SideLosses {
                side: "nobody".into(),
                cmp: Cmp::AtLeast(1.0),
            }),
            None,
            "a side the scene lacks does not fall back to side 0"
        );
        let act = scene.resolve_effect(&Effect::Morale {
            target: Target::Units(vec![
                "han-foot".into(),
                "ming-foot".into(),
                "han-foot".into(),
            ]),
            delta: 5.0,
        });
        assert_eq!(
            act,
            Some(Act::Morale {
                targets: Targets::Units(vec![UnitId(0), UnitId(2)]),
                delta: 5.0
            })
        );
        assert_eq!(scene.resolve_effect(&Effect::Arrive("ghost".into())), None);
        // Written outside the file, a condition goes through the walk that
        // lowers the file's own: what a text may say is allowed, what the
        // file could not hold is not.
        let ming = scene.find::<SideId>("ming").expect("a ming side");
        assert_eq!(
            scene.resolve_condition(&Condition::PlayerSide("ming".into())),
            Some(Cond::PlayerSide(ming))
        );
        for refused in [
            Condition::Flag("never-set".into()),
            Condition::TurnsSince("nothing".into(), Cmp::AtLeast(1.0)),
            Condition::Chance(1.5),
            Condition::Turn(Cmp::AtLeast(f64::NAN)),
        ] {
            assert_eq!(scene.resolve_condition(&refused), None, "{refused:?}");
        }
        assert_eq!(
            scene.resolve_effect(&Effect::Morale {
                target: Target::Side("ming".into()),
                delta: 500.0,
            }),
            None,
            "a morale change out of range"
        );
    }
}
