//! The battle's tables as the engine reads them: its sides, zones, units
//! and commanders, each reference to another one a typed id. The scene
//! file's rows (`raw`) name what they refer to by its id's word; the rows
//! here are made from them once, at load (`lower`), moving their names and
//! texts rather than copying them, and the file's rows are not kept.

use super::raw::RawScene;
use super::resolved::{CommanderId, ROrder, SideId, ZoneId};
use super::{Colour, Text, UnitKind, ZoneKind};

#[derive(Debug, Clone)]
pub struct Side {
    pub id: String,
    pub name: Text,
    pub colour: Colour,
    /// Where its routing units run to: the scene's `retreat`, else where
    /// its first commander stands (None: it has neither).
    pub retreat: Option<ZoneId>,
    /// Whether English puts "the" before its name (see the file's `Side`).
    pub article: bool,
}

#[derive(Debug, Clone)]
pub struct Zone {
    pub id: String,
    pub name: Text,
    pub kind: ZoneKind,
    /// Grid position (x grows east, y grows north).
    pub at: (i32, i32),
    /// Width of the passage in metres (fords and bridges).
    pub width_m: f64,
    /// Length in metres (fords, bridges).
    pub length_m: f64,
    /// Water depth in metres at the deepest point (fords).
    pub depth_m: f64,
    /// 0..1: how much the ground hides and protects.
    pub cover: f64,
    /// 0..1: fire burning at the start.
    pub fire: f64,
    /// 0..1: smoke at the start.
    pub smoke: f64,
    /// 0..1: how much there is to burn.
    pub fuel: f64,
    /// Open water: the men the boats on it carry across per 刻.
    pub boats: f64,
}

#[derive(Debug, Clone)]
pub struct Unit {
    pub id: String,
    pub name: Text,
    pub side: SideId,
    pub kind: UnitKind,
    /// Strength in men.
    pub men: u32,
    /// 0..1: training and cohesion.
    pub quality: f64,
    /// 0..100 at the start.
    pub morale: f64,
    pub zone: ZoneId,
    pub leader: Option<CommanderId>,
    pub may_surrender: bool,
    pub order: ROrder,
    /// False: not on the field until an `Arrive` effect brings it.
    pub present: bool,
    /// Its English name is plural.
    pub plural: bool,
    /// Its place in the queue at a crossing (0 for everyone: all share alike).
    pub precedence: u32,
    /// Where it runs to when it breaks, when not its side's `retreat`.
    pub retreat: Option<ZoneId>,
}

#[derive(Debug, Clone)]
pub struct Commander {
    pub id: String,
    pub name: Text,
    pub side: SideId,
    /// 0..10: how much his presence steadies men.
    pub leadership: f64,
    pub zone: ZoneId,
    pub playable: bool,
    /// Has drums and a banner to beat a rally with.
    pub drums: bool,
    /// Played, he may order his units between turning points.
    pub gives_orders: bool,
}

/// The four tables, lowered.
pub(super) struct Tables {
    pub sides: Vec<Side>,
    pub zones: Vec<Zone>,
    pub units: Vec<Unit>,
    pub commanders: Vec<Commander>,
}

/// The rows' references, resolved by the lowering's walk, in the rows'
/// order.
#[derive(Debug, Default)]
pub(super) struct Refs {
    pub side_retreat: Vec<Option<ZoneId>>,
    pub commander_side: Vec<SideId>,
    pub commander_zone: Vec<ZoneId>,
    pub unit_side: Vec<SideId>,
    pub unit_zone: Vec<ZoneId>,
    pub unit_order: Vec<ROrder>,
    pub unit_leader: Vec<Option<CommanderId>>,
    pub unit_retreat: Vec<Option<ZoneId>>,
}

/// Lowers the file's sides, zones, units and commanders into the tables,
/// taking them out of `raw`, with the references the walk resolved.
pub(super) fn lower(raw: &mut RawScene, refs: Refs) -> Tables {
    let Refs {
        side_retreat: retreats,
        commander_side: commander_sides,
        commander_zone: commander_zones,
        unit_side: unit_sides,
        unit_zone: unit_zones,
        unit_order: unit_orders,
        unit_leader: leaders,
        unit_retreat: unit_retreats,
    } = refs;
    let sides = (std::mem::take(&mut raw.sides).into_iter().zip(retreats))
        .map(|(s, retreat)| Side {
            id: s.id,
            name: s.name,
            colour: s.colour,
            retreat,
            article: s.article,
        })
        .collect();
    let zones = (std::mem::take(&mut raw.zones).into_iter())
        .map(|z| Zone {
            id: z.id,
            name: z.name,
            kind: z.kind,
            at: z.at,
            width_m: z.width_m,
            length_m: z.length_m,
            depth_m: z.depth_m,
            cover: z.cover,
            fire: z.fire,
            smoke: z.smoke,
            fuel: z.fuel,
            boats: z.boats,
        })
        .collect();
    let units = (std::mem::take(&mut raw.units).into_iter())
        .zip(unit_sides.into_iter().zip(unit_zones))
        .zip(unit_orders.into_iter().zip(leaders))
        .zip(unit_retreats)
        .map(|(((u, (side, zone)), (order, leader)), retreat)| Unit {
            id: u.id,
            name: u.name,
            side,
            kind: u.kind,
            men: u.men,
            quality: u.quality,
            morale: u.morale,
            zone,
            leader,
            may_surrender: u.may_surrender,
            order,
            present: u.present,
            plural: u.plural,
            precedence: u.precedence,
            retreat,
        })
        .collect();
    let commanders = (std::mem::take(&mut raw.commanders).into_iter())
        .zip(commander_sides.into_iter().zip(commander_zones))
        .map(|(c, (side, zone))| Commander {
            id: c.id,
            name: c.name,
            side,
            leadership: c.leadership,
            zone,
            playable: c.playable,
            drums: c.drums,
            gives_orders: c.gives_orders,
        })
        .collect();
    Tables {
        sides,
        zones,
        units,
        commanders,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::{SMALL_SCENE, small_scene};

    #[test]
    fn the_tables_name_what_the_file_names() {
        let file: RawScene = ron::from_str(SMALL_SCENE).expect("the small scene parses");
        let scene = small_scene(|raw| raw);
        let zone = |id: ZoneId| scene.zones()[id.idx()].id.as_str();
        let side = |id: SideId| scene.sides()[id.idx()].id.as_str();
        assert_eq!(scene.units().len(), file.units.len());
        for (unit, written) in scene.units().iter().zip(&file.units) {
            assert_eq!(unit.id, written.id);
            assert_eq!(side(unit.side), written.side);
            assert_eq!(zone(unit.zone), written.zone);
            let leader = unit.leader.map(|c| scene.commanders()[c.idx()].id.as_str());
            assert_eq!(leader, written.leader.as_deref());
        }
        assert_eq!(scene.commanders().len(), file.commanders.len());
        for (commander, written) in scene.commanders().iter().zip(&file.commanders) {
            assert_eq!(side(commander.side), written.side);
            assert_eq!(zone(commander.zone), written.zone);
        }
        // Jin names no retreat: its first commander's zone (the tent).
        let jin = scene.side_idx("jin").expect("jin");
        assert_eq!(scene.sides()[jin].retreat.map(zone), Some("tent"));
    }
}
