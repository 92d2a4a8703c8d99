//! The scene as the engine reads it at run time: every id resolved once, at
//! load, to a typed index, and every reference table built then.
//!
//! The raw serde model ([`super::raw`]) stays what a file says (parsing,
//! diagnostics with positions, the texts); this is what conditions, effects
//! and targets become after validation. A resolved value cannot name a
//! missing thing: a reference that does not resolve is a problem of the file,
//! reported at load, never a silent fallback to index 0 at run time.

use super::Scene;
use super::raw::RawScene;
use super::raw::{Claim, Cmp, Compass, Condition, Effect, Fate, MoraleState, Order, Prose, Target};
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

/// A condition with its ids resolved ([`Condition`] as the engine reads it).
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

/// An effect with its ids resolved ([`Effect`] as the engine applies it).
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
    /// Per variant, its placeholders resolved ([`slots`]).
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

/// The placeholders of `text`, resolved against `scene`.
pub fn slots(scene: &Scene, text: &super::Text) -> Slots {
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
            let slot = Placeholder::parse(inside).and_then(|p| slot(scene, p));
            out.push((inside.to_string(), slot));
        }
    }
    out
}

/// One placeholder resolved; None when it names what the scene lacks.
fn slot(scene: &Scene, placeholder: super::placeholder::Placeholder) -> Option<Slot> {
    use super::placeholder::Placeholder as P;
    let side = |id: &str| scene.side_idx(id).map(SideId::at);
    let zone = |id: &str| scene.zone_idx(id).map(ZoneId::at);
    let whose = |id: &str| {
        side(id)
            .map(Whose::Side)
            .or_else(|| scene.unit_idx(id).map(|u| Whose::Unit(UnitId::at(u))))
    };
    Some(match placeholder {
        P::Turn => Slot::Turn,
        P::Time => Slot::Time,
        P::Men(id) => Slot::Men(whose(id)?),
        P::Losses(id) => Slot::Losses(whose(id)?),
        P::MenIn(s, z) => Slot::MenIn(side(s)?, zone(z)?),
        P::Crossed(s, z) => Slot::Crossed(side(s)?, zone(z)?),
        P::Holder(z) => Slot::Holder(zone(z)?),
        P::Name(id) => Slot::Name(
            side(id)
                .map(Named::Side)
                .or_else(|| zone(id).map(Named::Zone))
                .or_else(|| scene.unit_idx(id).map(|u| Named::Unit(UnitId::at(u))))
                .or_else(|| {
                    (scene.commander_idx(id)).map(|c| Named::Commander(CommanderId::at(c)))
                })?,
        ),
        P::At(commander) => Slot::At(CommanderId::at(scene.commander_idx(commander)?)),
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
    pub(crate) flag_index: HashMap<String, FlagId>,
    pub(crate) tp_index: HashMap<String, TpId>,
    pub(crate) event_index: HashMap<String, EventId>,
    pub(crate) ending_index: HashMap<String, EndingId>,
    watch_index: HashMap<String, WatchId>,
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

/// The ids a scene mentions that did not resolve (none after validation).
pub type Unresolved = Vec<String>;

/// Resolves `scene`'s raw model. `scene` has its id indexes built; its
/// `resolved` is filled from the result.
pub(crate) fn resolve(scene: &Scene) -> Result<Resolved, Unresolved> {
    let raw = &scene.raw;
    let mut r = Resolver {
        scene,
        missing: Vec::new(),
        out: Resolved::default(),
    };
    r.index(raw);
    let out = &mut r.out;
    out.roles = raw
        .meta
        .playable
        .iter()
        .map(|role| r_commander(scene, role, &mut r.missing))
        .collect();
    r.out.timeout = match r.out.ending_index.get(&raw.meta.timeout_ending) {
        Some(ending) => *ending,
        None => {
            r.missing
                .push(format!("ending \"{}\"", raw.meta.timeout_ending));
            EndingId(u32::MAX)
        }
    };
    let events = raw
        .events
        .iter()
        .map(|event| REvent {
            when: r.cond(&event.when),
            text: event.text.as_ref().map(|p| r.prose(p)),
            effects: r.acts(&event.effects),
        })
        .collect();
    let turning_points = raw
        .turning_points
        .iter()
        .map(|tp| RTurningPoint {
            when: r.cond(&tp.when),
            role: r_commander(scene, &tp.role, &mut r.missing),
            situation: r.prose(&tp.situation),
            options: tp
                .options
                .iter()
                .map(|o| RChoice {
                    claims: o.claims.iter().map(|c| r.cond(c)).collect(),
                    narration: r.prose(&o.narration),
                    perceived: o.perceived.as_ref().map(|p| r.prose(p)),
                    effects: r.acts(&o.effects),
                })
                .collect(),
            historical: tp.options.iter().position(|o| o.historical).unwrap_or(0),
        })
        .collect();
    let endings = raw
        .endings
        .iter()
        .map(|e| REnding {
            when: r.cond(&e.when),
            text: r.prose(&e.text),
            summary: r.prose(&e.summary),
            history: e.history.as_ref().map(|p| r.prose(p)),
        })
        .collect();
    let atmosphere = raw.atmosphere.iter().map(|v| r.cond(&v.when)).collect();
    let atmosphere_claims = raw
        .atmosphere
        .iter()
        .map(|v| v.claims.iter().map(|c| r.cond(c)).collect())
        .collect();
    let prelude = raw.prelude.as_ref().map(|p| RPrelude {
        text: p.text.as_ref().map(|t| r.prose(t)),
        effects: r.acts(&p.effects),
    });
    r.out.events = events;
    r.out.turning_points = turning_points;
    r.out.endings = endings;
    r.out.atmosphere = atmosphere;
    r.out.atmosphere_claims = atmosphere_claims;
    r.out.atmosphere_slots = (raw.atmosphere.iter())
        .map(|v| slots(scene, &v.text))
        .collect();
    r.out.prelude = prelude;
    if r.missing.is_empty() {
        Ok(r.out)
    } else {
        Err(r.missing)
    }
}

fn r_zone(scene: &Scene, id: &str, missing: &mut Unresolved) -> ZoneId {
    scene.zone_idx(id).map(ZoneId::at).unwrap_or_else(|| {
        missing.push(format!("zone \"{id}\""));
        ZoneId(u32::MAX)
    })
}
fn r_side(scene: &Scene, id: &str, missing: &mut Unresolved) -> SideId {
    scene.side_idx(id).map(SideId::at).unwrap_or_else(|| {
        missing.push(format!("side \"{id}\""));
        SideId(u32::MAX)
    })
}
fn r_unit(scene: &Scene, id: &str, missing: &mut Unresolved) -> UnitId {
    scene.unit_idx(id).map(UnitId::at).unwrap_or_else(|| {
        missing.push(format!("unit \"{id}\""));
        UnitId(u32::MAX)
    })
}
fn r_commander(scene: &Scene, id: &str, missing: &mut Unresolved) -> CommanderId {
    scene
        .commander_idx(id)
        .map(CommanderId::at)
        .unwrap_or_else(|| {
            missing.push(format!("commander \"{id}\""));
            CommanderId(u32::MAX)
        })
}
fn r_order(scene: &Scene, order: &Order, missing: &mut Unresolved) -> ROrder {
    match order {
        Order::Hold => ROrder::Hold,
        Order::MoveTo(zone) => ROrder::MoveTo(r_zone(scene, zone, missing)),
        Order::Pursue => ROrder::Pursue,
    }
}

struct Resolver<'a> {
    scene: &'a Scene,
    missing: Unresolved,
    out: Resolved,
}

impl Resolver<'_> {
    /// The story's own ids: turning points, events, endings, flags and
    /// what `TurnsSince` watches.
    fn index(&mut self, raw: &RawScene) {
        let out = &mut self.out;
        for (idx, tp) in raw.turning_points.iter().enumerate() {
            out.tp_index.entry(tp.id.clone()).or_insert(TpId::at(idx));
        }
        for (idx, event) in raw.events.iter().enumerate() {
            out.event_index
                .entry(event.id.clone())
                .or_insert(EventId::at(idx));
        }
        for (idx, ending) in raw.endings.iter().enumerate() {
            out.ending_index
                .entry(ending.id.clone())
                .or_insert(EndingId::at(idx));
        }
        let mut flags: Vec<String> = Vec::new();
        let mut watched: Vec<String> = Vec::new();
        for_each_condition_of(raw, &mut |c| names(c, &mut flags, &mut watched));
        for_each_effect_of(raw, &mut |effect| {
            if let Effect::SetFlag(flag) | Effect::ClearFlag(flag) = effect {
                flags.push(flag.clone());
            }
        });
        flags.sort_unstable();
        flags.dedup();
        watched.sort_unstable();
        watched.dedup();
        let mut stamped: Vec<String> = Vec::new();
        let mut no_flags = Vec::new();
        for tp in &raw.turning_points {
            names(&tp.when, &mut no_flags, &mut stamped);
        }
        for event in &raw.events {
            names(&event.when, &mut no_flags, &mut stamped);
        }
        for ending in &raw.endings {
            names(&ending.when, &mut no_flags, &mut stamped);
        }
        for (idx, flag) in flags.iter().enumerate() {
            out.flag_index.insert(flag.clone(), FlagId::at(idx));
        }
        out.flags = flags;
        out.watched = watched
            .into_iter()
            .enumerate()
            .map(|(idx, id)| {
                out.watch_index.insert(id.clone(), WatchId::at(idx));
                Watch {
                    stamped: stamped.contains(&id),
                    event: out.event_index.get(&id).copied(),
                    tp: out.tp_index.get(&id).copied(),
                    flag: out.flag_index.get(&id).copied(),
                    id,
                }
            })
            .collect();
    }

    fn prose(&mut self, prose: &Prose) -> Variants {
        match prose {
            Prose::One(text) => Variants::always(slots(self.scene, text)),
            Prose::Variants(items) => Variants {
                when: items.iter().map(|v| self.cond(&v.when)).collect(),
                claims: items
                    .iter()
                    .map(|v| v.claims.iter().map(|c| self.cond(c)).collect())
                    .collect(),
                slots: items.iter().map(|v| slots(self.scene, &v.text)).collect(),
            },
        }
    }

    fn zone(&mut self, id: &str) -> ZoneId {
        r_zone(self.scene, id, &mut self.missing)
    }
    fn side(&mut self, id: &str) -> SideId {
        r_side(self.scene, id, &mut self.missing)
    }
    fn unit(&mut self, id: &str) -> UnitId {
        r_unit(self.scene, id, &mut self.missing)
    }
    fn commander(&mut self, id: &str) -> CommanderId {
        r_commander(self.scene, id, &mut self.missing)
    }
    fn obscurant(&mut self, id: &str) -> ObscurantId {
        self.scene
            .obscurant_idx(id)
            .map(ObscurantId::at)
            .unwrap_or_else(|| {
                self.missing.push(format!("obscurant \"{id}\""));
                ObscurantId(u32::MAX)
            })
    }
    fn tp(&mut self, id: &str) -> TpId {
        self.out.tp(id).unwrap_or_else(|| {
            self.missing.push(format!("turning point \"{id}\""));
            TpId(u32::MAX)
        })
    }
    fn flag(&mut self, id: &str) -> FlagId {
        self.out.flag(id).unwrap_or_else(|| {
            self.missing.push(format!("flag \"{id}\""));
            FlagId(u32::MAX)
        })
    }

    pub(crate) fn cond(&mut self, condition: &Condition) -> Cond {
        match condition {
            Condition::Always => Cond::Always,
            Condition::Never => Cond::Never,
            Condition::All(items) => Cond::All(items.iter().map(|c| self.cond(c)).collect()),
            Condition::Any(items) => Cond::Any(items.iter().map(|c| self.cond(c)).collect()),
            Condition::Not(item) => Cond::Not(Box::new(self.cond(item))),
            Condition::Turn(cmp) => Cond::Turn(*cmp),
            Condition::Minute(cmp) => Cond::Minute(*cmp),
            Condition::Chosen { tp, option } => {
                let id = self.tp(tp);
                let found = self
                    .scene
                    .raw
                    .turning_points
                    .get(id.idx())
                    .and_then(|t| t.options.iter().position(|o| o.id == *option));
                match found {
                    Some(found) => Cond::Chosen {
                        tp: id,
                        option: u32::try_from(found).unwrap_or(u32::MAX),
                    },
                    None => {
                        self.missing
                            .push(format!("option \"{option}\" of \"{tp}\""));
                        Cond::Never
                    }
                }
            }
            Condition::Reached(tp) => Cond::Reached(self.tp(tp)),
            Condition::Happened(event) => match self.out.event(event) {
                Some(id) => Cond::Happened(id),
                None => {
                    self.missing.push(format!("event \"{event}\""));
                    Cond::Never
                }
            },
            Condition::Flag(flag) => Cond::Flag(self.flag(flag)),
            Condition::UnitState { unit, is } => Cond::UnitState {
                unit: self.unit(unit),
                is: is.clone(),
            },
            Condition::UnitIn { unit, zone } => Cond::UnitIn {
                unit: self.unit(unit),
                zone: self.zone(zone),
            },
            Condition::UnitMen { unit, cmp } => Cond::UnitMen {
                unit: self.unit(unit),
                cmp: *cmp,
            },
            Condition::UnitMorale { unit, cmp } => Cond::UnitMorale {
                unit: self.unit(unit),
                cmp: *cmp,
            },
            Condition::CommanderIn { commander, zone } => Cond::CommanderIn {
                commander: self.commander(commander),
                zone: self.zone(zone),
            },
            Condition::SideStrength { side, cmp } => Cond::SideStrength {
                side: self.side(side),
                cmp: *cmp,
            },
            Condition::SideLosses { side, cmp } => Cond::SideLosses {
                side: self.side(side),
                cmp: *cmp,
            },
            Condition::SideRouting { side, cmp } => Cond::SideRouting {
                side: self.side(side),
                cmp: *cmp,
            },
            Condition::SideMenIn { side, zone, cmp } => Cond::SideMenIn {
                side: self.side(side),
                zone: self.zone(zone),
                cmp: *cmp,
            },
            Condition::SideCrossed { side, zone, cmp } => Cond::SideCrossed {
                side: self.side(side),
                zone: self.zone(zone),
                cmp: *cmp,
            },
            Condition::Smoke { zone, cmp } => Cond::Smoke {
                zone: self.zone(zone),
                cmp: *cmp,
            },
            Condition::Fire { zone, cmp } => Cond::Fire {
                zone: self.zone(zone),
                cmp: *cmp,
            },
            Condition::Wind(cmp) => Cond::Wind(*cmp),
            Condition::WindToward(points) => Cond::WindToward(
                points
                    .iter()
                    .fold(0, |mask, p| mask | 1 << p.clockwise_index()),
            ),
            Condition::WindFrom(points) => Cond::WindToward(
                points
                    .iter()
                    .fold(0, |mask, p| mask | 1 << p.opposite().clockwise_index()),
            ),
            Condition::Passable(zone) => Cond::Passable(self.zone(zone)),
            Condition::Playing(role) => {
                match self.scene.raw.meta.playable.iter().position(|r| r == role) {
                    Some(idx) => Cond::Playing(RoleId::at(idx)),
                    None => {
                        self.missing.push(format!("playable role \"{role}\""));
                        Cond::Never
                    }
                }
            }
            Condition::PlayerSide(side) => Cond::PlayerSide(self.side(side)),
            Condition::Sees { side, zone } => Cond::Sees {
                side: self.side(side),
                zone: self.zone(zone),
            },
            Condition::Fallen(commander) => Cond::Fallen(self.commander(commander)),
            Condition::TurnsSince(id, cmp) => match self.out.watch_index.get(id) {
                Some(watch) => Cond::TurnsSince(*watch, *cmp),
                None => {
                    self.missing
                        .push(format!("flag, event or turning point \"{id}\""));
                    Cond::Never
                }
            },
            Condition::Obscured { zone, by, cmp } => Cond::Obscured {
                zone: self.zone(zone),
                by: self.obscurant(by),
                cmp: *cmp,
            },
            Condition::Chance(p) => Cond::Chance(*p),
        }
    }

    fn targets(&mut self, target: &Target) -> Targets {
        match target {
            Target::Unit(unit) => Targets::Units(vec![self.unit(unit)]),
            Target::Units(units) => {
                let mut list: Vec<UnitId> = units.iter().map(|u| self.unit(u)).collect();
                list.sort_unstable();
                list.dedup();
                Targets::Units(list)
            }
            Target::Side(side) => Targets::Side(self.side(side)),
            Target::SideIn { side, zone } => Targets::SideIn {
                side: self.side(side),
                zone: self.zone(zone),
            },
            Target::Zone(zone) => Targets::Zone(self.zone(zone)),
        }
    }

    fn acts(&mut self, effects: &[Effect]) -> Vec<Act> {
        effects.iter().map(|e| self.act(e)).collect()
    }

    fn act(&mut self, effect: &Effect) -> Act {
        match effect {
            Effect::Order { target, order } => Act::Order {
                targets: self.targets(target),
                order: r_order(self.scene, order, &mut self.missing),
            },
            Effect::Morale { target, delta } => Act::Morale {
                targets: self.targets(target),
                delta: *delta,
            },
            Effect::Rumor {
                zone,
                claim,
                credibility,
                ..
            } => {
                let (Claim::Routed(side) | Claim::Victorious(side)) = claim;
                Act::Rumor {
                    zone: self.zone(zone),
                    about: self.side(side),
                    routed: matches!(claim, Claim::Routed(_)),
                    credibility: *credibility,
                }
            }
            Effect::Fire { zone, intensity } => Act::Fire {
                zone: self.zone(zone),
                intensity: *intensity,
            },
            Effect::Smoke { zone, level } => Act::Smoke {
                zone: self.zone(zone),
                level: *level,
            },
            Effect::Wind { strength, toward } => Act::Wind {
                strength: *strength,
                toward: *toward,
            },
            Effect::Drums { commander, turns } => Act::Drums {
                commander: self.commander(commander),
                turns: *turns,
            },
            Effect::CommanderTo { commander, zone } => Act::CommanderTo {
                commander: self.commander(commander),
                zone: self.zone(zone),
            },
            Effect::Casualties { target, share } => Act::Casualties {
                targets: self.targets(target),
                share: *share,
            },
            Effect::Surrender(unit) => Act::Surrender(self.unit(unit)),
            Effect::Destroy { zone, share } => Act::Destroy {
                zone: self.zone(zone),
                share: *share,
            },
            Effect::Arrive(unit) => Act::Arrive(self.unit(unit)),
            Effect::WetCloth(side) => Act::WetCloth(self.side(side)),
            Effect::SetFlag(flag) => Act::SetFlag(self.flag(flag)),
            Effect::ClearFlag(flag) => Act::ClearFlag(self.flag(flag)),
            Effect::Narrate(prose) => Act::Narrate(self.prose(prose)),
            Effect::Fall { commander, fate } => Act::Fall {
                commander: self.commander(commander),
                fate: *fate,
            },
            Effect::Obscure { zones, by, level } => Act::Obscure {
                zones: zones.iter().map(|z| self.zone(z)).collect(),
                by: self.obscurant(by),
                level: *level,
            },
            Effect::ChangeSide { who, side } => {
                let commander = self.scene.commander_idx(who).map(CommanderId::at);
                let unit = self.scene.unit_idx(who).map(UnitId::at);
                if commander.is_none() && unit.is_none() {
                    self.missing.push(format!("commander or unit \"{who}\""));
                }
                Act::ChangeSide {
                    commander,
                    unit,
                    side: self.side(side),
                }
            }
        }
    }
}

/// A condition written outside the scene (a test's, the REPL's), resolved
/// against the scene: None when it names something the scene lacks.
pub(crate) fn resolve_condition(scene: &Scene, condition: &Condition) -> Option<Cond> {
    let mut r = Resolver {
        scene,
        missing: Vec::new(),
        out: scene.resolved.clone_indexes(),
    };
    let cond = r.cond(condition);
    r.missing.is_empty().then_some(cond)
}

/// An effect written outside the scene, resolved against it.
pub(crate) fn resolve_effect(scene: &Scene, effect: &Effect) -> Option<Act> {
    let mut r = Resolver {
        scene,
        missing: Vec::new(),
        out: scene.resolved.clone_indexes(),
    };
    let act = r.act(effect);
    r.missing.is_empty().then_some(act)
}

impl Resolved {
    fn clone_indexes(&self) -> Resolved {
        Resolved {
            flag_index: self.flag_index.clone(),
            tp_index: self.tp_index.clone(),
            event_index: self.event_index.clone(),
            ending_index: self.ending_index.clone(),
            watch_index: self.watch_index.clone(),
            ..Resolved::default()
        }
    }
}

/// Every condition of the raw scene, including those inside text variants.
fn for_each_condition_of(raw: &RawScene, f: &mut dyn FnMut(&Condition)) {
    let prose = |p: &Prose, f: &mut dyn FnMut(&Condition)| {
        if let Prose::Variants(items) = p {
            for v in items {
                f(&v.when);
                v.claims.iter().for_each(&mut *f);
            }
        }
    };
    let effects = |effects: &[Effect], f: &mut dyn FnMut(&Condition)| {
        for effect in effects {
            if let Effect::Narrate(p) = effect {
                prose(p, f);
            }
        }
    };
    prose(&raw.meta.intro, f);
    for tp in &raw.turning_points {
        f(&tp.when);
        prose(&tp.situation, f);
        for option in &tp.options {
            option.claims.iter().for_each(&mut *f);
            prose(&option.narration, f);
            if let Some(p) = &option.perceived {
                prose(p, f);
            }
            effects(&option.effects, f);
        }
    }
    for event in &raw.events {
        f(&event.when);
        if let Some(p) = &event.text {
            prose(p, f);
        }
        effects(&event.effects, f);
    }
    for ending in &raw.endings {
        f(&ending.when);
        prose(&ending.text, f);
        prose(&ending.summary, f);
        if let Some(p) = &ending.history {
            prose(p, f);
        }
    }
    for v in &raw.atmosphere {
        f(&v.when);
        v.claims.iter().for_each(&mut *f);
    }
    if let Some(prelude) = &raw.prelude {
        if let Some(p) = &prelude.text {
            prose(p, f);
        }
        effects(&prelude.effects, f);
    }
}

fn for_each_effect_of(raw: &RawScene, f: &mut dyn FnMut(&Effect)) {
    for tp in &raw.turning_points {
        tp.options.iter().flat_map(|o| &o.effects).for_each(&mut *f);
    }
    raw.events.iter().flat_map(|e| &e.effects).for_each(&mut *f);
    if let Some(prelude) = &raw.prelude {
        prelude.effects.iter().for_each(&mut *f);
    }
}

/// Flag names and `TurnsSince` ids anywhere in a condition.
fn names(condition: &Condition, flags: &mut Vec<String>, watched: &mut Vec<String>) {
    match condition {
        Condition::Flag(flag) => flags.push(flag.clone()),
        Condition::TurnsSince(id, _) => {
            watched.push(id.clone());
            // A watched id that is neither an event nor a turning point is a flag.
            flags.push(id.clone());
        }
        Condition::All(items) | Condition::Any(items) => {
            items.iter().for_each(|c| names(c, flags, watched));
        }
        Condition::Not(item) => names(item, flags, watched),
        _ => {}
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
    }
}
