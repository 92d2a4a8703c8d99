//! Rumor: cries that spread over the zone graph and move those who cannot see.
//!
//! A rumor claims that a side is routed (or has won). Each turn it reaches the
//! neighbours of the zones it has reached, losing `rumor_decay` of its
//! credibility. A unit in a reached zone that can *see* the side the rumor is
//! about, and sees it is not routing, does not believe it. A unit in thick
//! smoke, or that cannot see that side at all, believes it with probability
//! equal to the credibility: cheered if the claim favours its side, shaken if not.

use super::UnitInfo;
use super::chronicle::{Chronicle, Entry};
use super::field::Field;
use super::morale::{Modifier, Morale};
use super::movement::Location;
use super::perception::Vision;
use super::rng::BattleRng;
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rumor {
    /// The side the cry is about.
    pub about: usize,
    /// True: "they are routed"; false: "they have won".
    pub routed: bool,
    pub credibility: f64,
    /// Per zone: the cry has been heard there.
    pub reached: Vec<bool>,
    /// Units that have already made up their minds about it.
    pub believers: Vec<usize>,
}

#[derive(Resource, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Rumors {
    pub active: Vec<Rumor>,
}

pub fn rumor_system(
    field: Res<Field>,
    vision: Res<Vision>,
    mut rumors: ResMut<Rumors>,
    mut rng: ResMut<BattleRng>,
    mut chronicle: ResMut<Chronicle>,
    mut units: Query<(&UnitInfo, &Location, &mut Morale)>,
) {
    let rules = &field.rules;
    // What each side can see of each side: routing share of visible men.
    let mut seen_men = vec![vec![0.0_f64; field.n_sides]; field.n_sides];
    let mut seen_routing = vec![vec![0.0_f64; field.n_sides]; field.n_sides];
    for (info, location, morale) in units.iter() {
        if !location.present || !morale.state.can_fight_or_flee() {
            continue;
        }
        for viewer in 0..field.n_sides {
            if vision.side_sees(viewer, location.zone) {
                seen_men[viewer][info.side] += 1.0;
                if morale.state.is_broken() {
                    seen_routing[viewer][info.side] += 1.0;
                }
            }
        }
    }
    let mut all: Vec<_> = units.iter_mut().collect();
    all.sort_by_key(|(info, _, _)| info.idx);
    for rumor in rumors.active.iter_mut() {
        let mut newly = rumor.reached.clone();
        for (zone, reached) in rumor.reached.iter().enumerate() {
            if *reached {
                for &next in &field.neighbours[zone] {
                    newly[next] = true;
                }
            }
        }
        // Who heard it already, as a mask: one look per unit, not a scan of the list.
        let mut heard = vec![false; field.units.len()];
        for &unit in &rumor.believers {
            if let Some(slot) = heard.get_mut(unit) {
                *slot = true;
            }
        }
        for (info, location, morale) in all.iter_mut() {
            if !location.present
                || !morale.state.can_fight_or_flee()
                || !rumor.reached.get(location.zone).copied().unwrap_or(false)
                || heard.get(info.idx).copied().unwrap_or(false)
            {
                continue;
            }
            rumor.believers.push(info.idx);
            let men_seen = seen_men[info.side][rumor.about];
            let truth_seen = men_seen > 0.0 && !vision.is_blind(location.zone);
            let actually_routed =
                men_seen > 0.0 && seen_routing[info.side][rumor.about] / men_seen >= 0.5;
            let believes = if truth_seen {
                actually_routed == rumor.routed
            } else {
                rng.chance(rumor.credibility)
            };
            if !believes {
                chronicle.push(Entry::RumorDoubted { unit: info.idx });
                continue;
            }
            let good_news = (info.side == rumor.about) != rumor.routed;
            let delta = rules.rumor_morale * rumor.credibility * if good_news { 1.0 } else { -1.0 };
            morale.value = (morale.value + delta).clamp(0.0, 100.0);
            morale.push(Modifier::Rumor, delta);
            morale.believes_lost = !good_news;
            chronicle.push(Entry::RumorBelieved {
                unit: info.idx,
                about: rumor.about,
                routed: rumor.routed,
            });
        }
        rumor.reached = newly;
        rumor.credibility = (rumor.credibility * (1.0 - rules.rumor_decay)).max(0.0);
    }
    rumors.active.retain(|rumor| rumor.credibility >= 0.05);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::{morale_of, small_world, spread_rumor, unit_zone_smoke};

    #[test]
    fn a_unit_in_thick_smoke_believes_we_are_lost_but_one_that_sees_does_not() {
        // Unit 1 (jin) stands on the north bank (zone 2); unit 0 (ming) on the south bank.
        let mut lost_blind = 0;
        let mut lost_seeing = 0;
        for seed in 0..40 {
            let (mut world, mut schedule) = small_world(|scene| scene);
            world.insert_resource(BattleRng::from_seed(seed));
            unit_zone_smoke(&mut world, 2, 1.0);
            spread_rumor(&mut world, 2, 1, true, 0.9);
            let before = morale_of(&mut world, 1);
            schedule.run(&mut world);
            if morale_of(&mut world, 1) < before {
                lost_blind += 1;
            }
            let (mut world, mut schedule) = small_world(|scene| scene);
            world.insert_resource(BattleRng::from_seed(seed));
            spread_rumor(&mut world, 2, 1, true, 0.9);
            schedule.run(&mut world);
            let rumor_moved =
                world
                    .query::<(&UnitInfo, &Morale)>()
                    .iter(&world)
                    .any(|(info, morale)| {
                        info.idx == 1 && morale.last.iter().any(|(m, _)| *m == Modifier::Rumor)
                    });
            if rumor_moved {
                lost_seeing += 1;
            }
        }
        assert!(
            lost_blind >= 30,
            "blind unit lost morale in {lost_blind}/40"
        );
        assert_eq!(
            lost_seeing, 0,
            "a unit that sees its own side standing never believes"
        );
    }
}
