//! Surrender: a unit that may surrender, wavering or worse, with an enemy in
//! its zone and no exit it can use (every neighbour closed, held by a stronger
//! enemy, or a crossing jammed past its capacity), gives up with
//! `surrender_chance` per turn. Its officers who refuse — `officer_refusal`
//! of its men — are cut down by their own men.

use super::chronicle::{Chronicle, Entry};
use super::field::Field;
use super::morale::Morale;
use super::movement::{Location, room};
use super::order::Rising;
use super::perception::Vision;
use super::rng::BattleRng;
use super::weather::Passage;
use super::{Strength, UnitInfo, ZoneIdx};
use crate::scene::MoraleState;
use bevy_ecs::prelude::*;

/// The surrender system's working lists, kept between turns (per side and
/// zone: `side * zones + zone`).
#[derive(Default)]
pub struct SurrenderScratch {
    open: Vec<bool>,
    men: Vec<f64>,
    crowd: Vec<f64>,
    /// The units that may give up this turn, in unit-index order.
    candidates: Vec<Entity>,
}

/// A unit as the surrender system reads it.
type UnitItem<'a> = (Entity, &'a UnitInfo, &'a Strength, &'a Location, &'a Morale);

#[allow(clippy::too_many_arguments)]
pub fn surrender_system(
    mut scratch: Local<SurrenderScratch>,
    field: Res<Field>,
    vision: Res<Vision>,
    mut rng: ResMut<BattleRng>,
    mut chronicle: ResMut<Chronicle>,
    zones: Query<(&ZoneIdx, &Passage)>,
    mut units: Query<(Entity, &UnitInfo, &mut Strength, &Location, &mut Morale)>,
) {
    let rules = &field.rules;
    let n = field.zones.len();
    // Only a broken or wavering unit that may surrender can: most turns
    // there is none, and one read-only look (in any order; a fold, which
    // walks the query's tables without a check per unit) ends the turn's
    // surrenders.
    let candidate = |info: &UnitInfo, location: &Location, morale: &Morale| {
        info.may_surrender
            && location.present
            && matches!(morale.state, MoraleState::Wavering | MoraleState::Routing)
    };
    let any_candidate = units
        .iter()
        .fold(false, |any, (_, info, _, location, morale)| {
            any || candidate(info, location, morale)
        });
    if !any_candidate {
        return;
    }
    let SurrenderScratch {
        open,
        men,
        crowd,
        candidates,
    } = &mut *scratch;
    open.clear();
    open.resize(n, true);
    for (idx, passage) in zones.iter() {
        if idx.0 < n {
            open[idx.0] = passage.intact;
        }
    }
    // The men of each side in each zone and each zone's crowd, summed in
    // unit-index order, and the units that may give up listed in that order:
    // as the units are stored (a fold over the tables), checked on the way;
    // when the world holds them otherwise, the pass is made again, sorted.
    let add = |men: &mut Vec<f64>,
               crowd: &mut Vec<f64>,
               candidates: &mut Vec<Entity>,
               (entity, info, strength, location, morale): UnitItem| {
        if location.present && morale.state.can_fight_or_flee() {
            men[info.side * n + location.zone] += f64::from(strength.men);
            crowd[location.zone] += room(&field, info, strength.men);
        }
        if candidate(info, location, morale) {
            candidates.push(entity);
        }
    };
    let zero = |men: &mut Vec<f64>, crowd: &mut Vec<f64>, candidates: &mut Vec<Entity>| {
        men.clear();
        men.resize(n * field.n_sides, 0.0);
        crowd.clear();
        crowd.resize(n, 0.0);
        candidates.clear();
    };
    zero(men, crowd, candidates);
    let mut order = Rising::default();
    units.iter().for_each(|item| {
        order.see(item.1.idx);
        add(men, crowd, candidates, item);
    });
    if !order.rose() {
        zero(men, crowd, candidates);
        units
            .iter()
            .sort_by_key::<&UnitInfo, _>(|info| info.idx)
            .for_each(|item| add(men, crowd, candidates, item));
    }
    let jammed = |zone: usize| {
        field.zones[zone].is_crossing() && crowd[zone] > field.capacity(zone, vision.is_blind(zone))
    };
    // Each unit that may give up, in unit-index order (a unit's surrender
    // changes no other's case: the sums above stand).
    for &entity in candidates.iter() {
        let Ok((_, info, mut strength, location, mut morale)) = units.get_mut(entity) else {
            continue;
        };
        let zone = location.zone;
        let side = info.side;
        let enemy_here = (0..field.n_sides).any(|s| s != side && men[s * n + zone] > 0.0);
        let no_exit = field.neighbours[zone].iter().all(|&z| {
            !open[z] || jammed(z) || (0..field.n_sides).any(|s| s != side && men[s * n + z] > 0.0)
        });
        if enemy_here && no_exit && rng.chance(rules.surrender_chance) {
            let officers = (f64::from(strength.men) * rules.officer_refusal).round() as u32;
            let officers = officers.min(strength.men);
            strength.men -= officers;
            strength.lost_this_turn += officers;
            morale.state = MoraleState::Surrendered;
            chronicle.push(Entry::Surrenders {
                unit: info.idx,
                men: strength.men,
                officers,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::{set_state, small_world, state_of};

    #[test]
    fn trapped_han_banner_foot_surrender() {
        let mut surrendered = 0;
        for seed in 0..20 {
            let (mut world, mut schedule) = small_world(|mut scene| {
                // Han foot (unit 2) on the north bank, Ming on it and at the tent: no way out.
                scene.units[2].zone = "north-bank".into();
                scene.units[0].zone = "north-bank".into();
                scene.units[0].men = 8_000;
                scene.units[1].zone = "tent".into();
                scene.units[1].side = "ming".into();
                scene.units[1].leader = None;
                scene
            });
            world.insert_resource(BattleRng::from_seed(seed));
            set_state(&mut world, 2, MoraleState::Routing);
            for _ in 0..3 {
                schedule.run(&mut world);
            }
            if state_of(&mut world, 2) == MoraleState::Surrendered {
                surrendered += 1;
            }
        }
        assert!(surrendered >= 15, "surrendered in {surrendered}/20");
    }
}
