//! The field: what does not change during a battle — the zone graph, the
//! rules, the units' fixed traits — held as a resource for every system.

use super::components::UnitSpec;
use crate::scene::{Crossing, Lost, Rules, Scene};
use bevy_ecs::prelude::*;
use std::collections::VecDeque;
use std::sync::Arc;

/// What the model needs of an obscurant (its name is the scene's, for messages).
#[derive(Debug, Clone, PartialEq)]
pub struct ObscurantInfo {
    pub id: String,
    pub blind_at: f64,
    pub chokes: bool,
    pub decay: f64,
    pub carry: f64,
}

#[derive(Debug, Clone)]
pub struct ZoneInfo {
    /// How men get over it (its kind's): at will, afoot, or by boat.
    pub crossing: Crossing,
    /// How men lost in a press in it die (its kind's).
    pub lost: Lost,
    /// Its kind's mark on the map.
    pub mark: Option<char>,
    pub at: (i32, i32),
    pub width_m: f64,
    pub length_m: f64,
    pub depth_m: f64,
    pub cover: f64,
    /// Open water: men the boats carry across per 刻.
    pub boats: f64,
}

impl ZoneInfo {
    /// Fords, bridges and open water (any kind the rules make a crossing)
    /// pass only so many men per turn.
    pub fn is_crossing(&self) -> bool {
        self.crossing != Crossing::Open
    }

    /// Crossed by boat (open water): its boats, not its width, set the pace.
    pub fn by_boat(&self) -> bool {
        self.crossing == Crossing::Boats
    }

    /// Men lost in a press here drown (they are not trampled).
    pub fn drowns(&self) -> bool {
        self.lost == Lost::Drowned
    }
}

/// The field as a resource: a shared handle, so the battle reads it without
/// asking the world (and clones of it cost a count).
#[derive(Resource, Debug, Clone)]
pub struct Field(Arc<FieldData>);

impl Field {
    /// Whether `other` is this very field (a clone of it), not only an equal one.
    pub fn same_as(&self, other: &Field) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for Field {
    type Target = FieldData;
    fn deref(&self) -> &FieldData {
        &self.0
    }
}

#[derive(Debug, Clone)]
pub struct FieldData {
    pub rules: Rules,
    /// Turn length over the 15 minutes the rates are given for.
    pub turn_scale: f64,
    pub turn_seconds: f64,
    /// Sub-steps of a turn: combat, crossings, morale and rout run this
    /// many times a turn, each over at most one 刻 (15 minutes), so a rule
    /// means the same at any turn length (a two-hour turn: 8 steps).
    pub substeps: u32,
    /// The length of one sub-step in 刻 (`turn_scale ÷ substeps`): what the
    /// rates given per 刻 are multiplied by each sub-step.
    pub step_scale: f64,
    pub zones: Vec<ZoneInfo>,
    pub neighbours: Vec<Vec<usize>>,
    pub units: Vec<UnitSpec>,
    /// Per unit (by index): which of `kind_rules` is its kind's, looked up
    /// once, not by name each turn (an index, not a copy of the rules for
    /// each of a million units).
    kinds: Vec<u32>,
    /// The rules of each kind the scene's units are of.
    kind_rules: Vec<crate::scene::KindRules>,
    /// Per unit (by index): its morale at the opening, what recovery and a
    /// leader lift it toward (read by morale's walk, in index order: a
    /// column of its own, not in the world's `UnitInfo`, which every walk
    /// streams).
    pub(crate) start_morale: Vec<f64>,
    /// Per unit (by index): the men it brought onto the field (read by
    /// walks over every unit: a column of its own, as `start_morale`).
    start_men: Vec<u32>,
    pub n_sides: usize,
    /// Per side: the zone its routing units run to (none: they stand).
    pub retreat: Vec<Option<usize>>,
    /// Per unit (by index): the zone it runs to when the scene gives it
    /// one of its own (a column's way home), else none (its side's).
    unit_retreat: Vec<Option<usize>>,
    /// The scene's obscurants besides smoke, in the scene's order.
    pub obscurants: Vec<ObscurantInfo>,
}

impl FieldData {
    /// The rules of unit `idx`'s kind (none for an index the scene has not).
    pub fn kind_rules(&self, idx: usize) -> Option<crate::scene::KindRules> {
        let kind = *self.kinds.get(idx)?;
        self.kind_rules.get(kind as usize).copied()
    }

    /// Unit `idx`'s morale at the opening (none for an index the scene
    /// has not).
    #[inline]
    pub fn start_morale(&self, idx: usize) -> Option<f64> {
        self.start_morale.get(idx).copied()
    }

    /// The men unit `idx` brought onto the field (none for an index the
    /// scene has not).
    #[inline]
    pub fn start_men(&self, idx: usize) -> Option<u32> {
        self.start_men.get(idx).copied()
    }

    /// Where unit `idx`, fighting for `side`, runs to when it breaks or
    /// withdraws: its own way home while it fights for the side the scene
    /// gives it, else the side's `retreat` (none: it stands).
    pub fn retreat_of(&self, idx: usize, side: usize) -> Option<usize> {
        let own = self
            .units
            .get(idx)
            .filter(|info| info.side == side)
            .and_then(|_| self.unit_retreat.get(idx).copied().flatten());
        own.or_else(|| self.retreat.get(side).copied().flatten())
    }
}

/// A crowd's free walking pace, metres a second (Weidmann 1993: 1.34).
pub const WALKING_M_S: f64 = 1.34;

/// Sub-steps of a turn of `minutes`: one per 刻 (15 minutes) or part of one.
pub fn substeps_of(minutes: u32) -> u32 {
    minutes.div_ceil(15).max(1)
}

/// A chance given per 刻, over a sub-step of `scale` 刻: `p` itself for a
/// whole 刻 (so a 15-minute turn draws as it always did).
pub fn per_step(p: f64, scale: f64) -> f64 {
    if scale == 1.0 || p <= 0.0 {
        p
    } else if p >= 1.0 {
        1.0
    } else {
        1.0 - (1.0 - p).powf(scale)
    }
}

impl Field {
    pub fn new(scene: &Scene) -> Field {
        let rules = scene.rules().clone();
        let zones = scene
            .zones()
            .iter()
            .map(|zone| {
                let kind = rules.zone_kinds.get(&zone.kind);
                ZoneInfo {
                    crossing: kind.map_or(Crossing::Open, |k| k.crossing),
                    lost: kind.map_or(Lost::Trampled, |k| k.lost),
                    mark: kind.and_then(|k| k.mark()),
                    at: zone.at,
                    width_m: zone.width_m,
                    length_m: zone.length_m,
                    depth_m: zone.depth_m,
                    cover: zone.cover,
                    boats: zone.boats,
                }
            })
            .collect();
        let neighbours = (0..scene.zones().len())
            .map(|zone| scene.neighbours(zone))
            .collect();
        let units: Vec<UnitSpec> = scene
            .units()
            .iter()
            .enumerate()
            .map(|(idx, unit)| UnitSpec {
                idx,
                side: unit.side.idx(),
                kind: unit.kind.clone(),
                quality: unit.quality,
                start_men: unit.men,
                start_morale: unit.morale,
                may_surrender: unit.may_surrender,
                mounted: rules.kind(&unit.kind).mounted,
                leader: unit.leader.map(|c| c.idx()),
                precedence: unit.precedence,
            })
            .collect();
        let mut kind_rules = Vec::new();
        let mut kind_at = std::collections::HashMap::new();
        let kinds = scene
            .units()
            .iter()
            .map(|unit| {
                *kind_at.entry(&unit.kind).or_insert_with(|| {
                    kind_rules.push(rules.kind(&unit.kind));
                    u32::try_from(kind_rules.len() - 1).unwrap_or(u32::MAX)
                })
            })
            .collect();
        let start_morale = units.iter().map(|spec| spec.start_morale).collect();
        let start_men = units.iter().map(|spec| spec.start_men).collect();
        let retreat = (scene.sides().iter())
            .map(|side| side.retreat.map(|z| z.idx()))
            .collect();
        let unit_retreat = (scene.units().iter())
            .map(|unit| unit.retreat.map(|z| z.idx()))
            .collect();
        let minutes = f64::from(scene.meta().turn_minutes);
        let substeps = substeps_of(scene.meta().turn_minutes);
        Field(Arc::new(FieldData {
            rules,
            turn_scale: minutes / 15.0,
            turn_seconds: minutes * 60.0,
            substeps,
            step_scale: minutes / 15.0 / f64::from(substeps),
            zones,
            neighbours,
            units,
            kinds,
            kind_rules,
            start_morale,
            start_men,
            n_sides: scene.sides().len(),
            retreat,
            unit_retreat,
            obscurants: scene
                .obscurants()
                .map(|(id, o)| ObscurantInfo {
                    id: id.clone(),
                    blind_at: o.blind_at,
                    chokes: o.chokes,
                    decay: o.decay,
                    carry: o.carry,
                })
                .collect(),
        }))
    }

    /// The same field (not an equal one): what a system's kept work was made on.
    pub fn same(&self, other: &Field) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// Steps from `from` to every zone, moving only through zones `open` allows
    /// (the start is always allowed). `usize::MAX` where unreachable.
    pub fn distances(&self, from: usize, open: impl Fn(usize) -> bool) -> Vec<usize> {
        let mut distance = vec![usize::MAX; self.zones.len()];
        let mut queue = VecDeque::new();
        if from < distance.len() {
            distance[from] = 0;
            queue.push_back(from);
        }
        while let Some(zone) = queue.pop_front() {
            for &next in &self.neighbours[zone] {
                if distance[next] == usize::MAX && open(next) {
                    distance[next] = distance[zone] + 1;
                    queue.push_back(next);
                }
            }
        }
        distance
    }

    /// The neighbour of `from` on a shortest open path to `to`, lowest index first.
    pub fn next_hop(&self, from: usize, to: usize, open: impl Fn(usize) -> bool) -> Option<usize> {
        if from == to {
            return None;
        }
        let back = self.distances(to, &open);
        self.next_hop_by(from, to, &back, open)
    }

    /// [`Field::next_hop`] given `back`, the steps from `to` to every zone
    /// (`self.distances(to, open)`), computed once for every unit bound there.
    pub fn next_hop_by(
        &self,
        from: usize,
        to: usize,
        back: &[usize],
        open: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        if from == to {
            return None;
        }
        self.neighbours[from]
            .iter()
            .copied()
            .filter(|&n| back[n] != usize::MAX && (open(n) || n == to))
            .min_by_key(|&n| (back[n], n))
    }

    /// Room (in men; a horse counts as several) a crossing holds at once
    /// before those on its banks must wait to step in: its length × width
    /// at `crossing_m2_per_man` (0: it takes anyone; a crossing of no length
    /// or width holds any number).
    pub fn holds(&self, zone: usize) -> f64 {
        let per_man = self.rules.crossing_m2_per_man;
        match self.zones.get(zone) {
            Some(info) if per_man > 0.0 && info.length_m > 0.0 && info.width_m > 0.0 => {
                info.length_m * info.width_m / per_man
            }
            _ => f64::INFINITY,
        }
    }

    /// Room (in men; a horse counts as several) on a crossing's span at
    /// once: its length × width at the density of a moving column, the
    /// flow per metre of width over a walking pace (flow = density × speed:
    /// 1.3 men/m/s at 1.34 m/s is about one man a square metre; Fruin,
    /// Weidmann). A crossing of no length or width holds any number.
    pub fn span_room(&self, zone: usize) -> f64 {
        let Some(info) = self.zones.get(zone) else {
            return f64::INFINITY;
        };
        if info.length_m <= 0.0 || info.width_m <= 0.0 || info.by_boat() {
            return f64::INFINITY;
        }
        info.length_m * info.width_m * self.rules.flow_per_m_s / WALKING_M_S
    }

    /// Men that can pass the crossing this turn, in man-room (a horse counts as several).
    pub fn capacity(&self, zone: usize, thick_smoke: bool) -> f64 {
        let info = &self.zones[zone];
        let rules = &self.rules;
        let smoke = if thick_smoke { rules.smoke_flow } else { 1.0 };
        if info.by_boat() {
            // The boats carry their load each 刻, whatever the depth.
            return (info.boats * self.turn_scale * smoke).max(0.0);
        }
        let speed = 1.0 / (1.0 + info.depth_m * rules.depth_slow);
        (info.width_m * rules.flow_per_m_s * self.turn_seconds * speed * smoke).max(0.0)
    }
}
