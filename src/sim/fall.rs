//! Commanders who fall: killed, wounded or captured, by a scene's `Fall`
//! effect or in a losing fight (`commander_fall_chance`, drawn in combat).
//!
//! A fallen commander gives his side no sight (unless only wounded), beats
//! no drums and steadies no routing men; his leadership is gone (a wounded
//! one leads at `wounded_leadership`). The units he leads take `fall_shock`
//! at once (half when he is wounded). The checks live where each effect is
//! felt: `CommanderState::standing`, `rallies` and `leading`, read by
//! perception, rally, morale and movement.

use super::chronicle::Entry;
use super::components::{CommanderState, Location, Morale, UnitInfo};
use super::field::Field;
use super::morale;

use crate::scene::Fate;
use bevy_ecs::prelude::*;

/// The queries a fall walks, kept by the battle (a query made anew for each
/// fall was most of its cost): the commanders, and the units with where they
/// stand and their morale.
pub type FallQueries<'a> = (
    &'a mut QueryState<&'static mut CommanderState>,
    &'a mut QueryState<(&'static UnitInfo, &'static Location, &'static mut Morale)>,
);

/// A commander falls: he is marked, and the units he leads that are on the
/// field take the shock (half of it when he is only wounded). A fall never
/// gets better: a wounded commander may still be killed or taken, a dead one
/// stays dead.
pub fn fall(
    world: &mut World,
    (commanders, units): FallQueries,
    commander: usize,
    fate: Fate,
    entries: &mut Vec<Entry>,
) {
    let field = world.resource::<Field>().clone();
    let shock = field.rules.fall_shock;
    let mut fell = false;
    for mut state in commanders.iter_mut(world) {
        if state.idx == commander && matches!(state.fallen, None | Some(Fate::Wounded)) {
            if state.fallen == Some(fate) {
                continue;
            }
            state.fallen = Some(fate);
            state.drums_left = 0;
            fell = true;
            entries.push(Entry::CommanderFalls { commander, fate });
        }
    }
    if !fell {
        return;
    }
    let delta = if fate == Fate::Wounded {
        -shock / 2.0
    } else {
        -shock
    };
    for (info, location, mut morale) in units.iter_mut(world) {
        if field.units.get(info.idx()).and_then(|spec| spec.leader) == Some(commander)
            && location.stands()
        {
            morale.value = (morale.value + delta).clamp(0.0, 100.0);
            morale.push(morale::Modifier::CommanderFell, delta);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::{Effect, Fate, MoraleState};
    use crate::sim::chronicle::Entry;
    use crate::sim::morale::{Modifier, Morale};
    use crate::sim::testing::{morale_of, set_state, small_scene};
    use crate::sim::{Battle, UnitInfo};

    /// The small world with Zhang leading the Ming foot beside him, at morale
    /// 40 (so his presence lifts it), and Zhang's drums.
    fn zhang_leads() -> crate::scene::Scene {
        small_scene(|mut raw| {
            raw.units[0].leader = Some("zhang".into());
            raw.units[0].morale = 40.0;
            raw
        })
    }

    fn fall(battle: &mut Battle, scene: &crate::scene::Scene, fate: Fate) -> Vec<Entry> {
        battle.apply(
            scene,
            &Effect::Fall {
                commander: "zhang".into(),
                fate,
            },
        )
    }

    fn last(battle: &mut Battle, unit: usize) -> Vec<(Modifier, f64)> {
        let mut query = battle.world.query::<(&UnitInfo, &Morale)>();
        query
            .iter(&battle.world)
            .find(|(info, _)| info.idx() == unit)
            .map(|(_, morale)| morale.last().to_vec())
            .unwrap_or_default()
    }

    #[test]
    fn his_units_take_the_shock_and_he_leads_no_more() {
        let scene = zhang_leads();
        // Standing: he lifts the foot by 1.5 × 5.
        let mut battle = Battle::new(&scene, 7);
        battle.step();
        assert!(last(&mut battle, 0).contains(&(Modifier::Leader, 7.5)));
        // Killed: 15 at once, and no lift after.
        let mut battle = Battle::new(&scene, 7);
        let entries = fall(&mut battle, &scene, Fate::Killed);
        assert_eq!(
            entries,
            vec![Entry::CommanderFalls {
                commander: 0,
                fate: Fate::Killed
            }]
        );
        assert_eq!(morale_of(&mut battle.world, 0), 25.0);
        battle.step();
        assert!(
            !last(&mut battle, 0)
                .iter()
                .any(|(m, _)| *m == Modifier::Leader)
        );
        // Wounded: half the shock, half the lift.
        let mut battle = Battle::new(&scene, 7);
        fall(&mut battle, &scene, Fate::Wounded);
        assert_eq!(morale_of(&mut battle.world, 0), 32.5);
        battle.step();
        assert!(last(&mut battle, 0).contains(&(Modifier::Leader, 3.75)));
        // A dead man does not fall again; a wounded one may still die.
        assert!(fall(&mut battle, &scene, Fate::Wounded).is_empty());
        assert_eq!(fall(&mut battle, &scene, Fate::Killed).len(), 1);
        assert!(fall(&mut battle, &scene, Fate::Captured).is_empty());
    }

    #[test]
    fn a_fallen_commander_gives_no_sight() {
        // Zhang alone at the tent, beside the north bank: the Ming see both.
        let scene = small_scene(|mut raw| {
            raw.commanders[0].zone = "tent".into();
            raw
        });
        let (tent, north) = (3, 2);
        for (fate, sees) in [
            (None, true),
            (Some(Fate::Wounded), true),
            (Some(Fate::Killed), false),
            (Some(Fate::Captured), false),
        ] {
            let mut battle = Battle::new(&scene, 7);
            if let Some(fate) = fate {
                fall(&mut battle, &scene, fate);
            }
            battle.step();
            let vision = battle.state().vision;
            assert_eq!(vision.side_sees(0, tent), sees, "{fate:?}");
            assert_eq!(vision.side_sees(0, north), sees, "{fate:?}");
        }
    }

    #[test]
    fn a_fallen_commander_rallies_nobody() {
        let scene = zhang_leads();
        for fate in [None, Some(Fate::Wounded)] {
            let mut battle = Battle::new(&scene, 7);
            battle.apply(
                &scene,
                &Effect::Drums {
                    commander: "zhang".into(),
                    turns: 4,
                },
            );
            if let Some(fate) = fate {
                fall(&mut battle, &scene, fate);
            }
            set_state(&mut battle.world, 0, MoraleState::Routing);
            let entries = battle.step();
            let heard = entries
                .iter()
                .any(|e| matches!(e, Entry::DrumsHeard { .. }));
            assert_eq!(heard, fate.is_none(), "{fate:?}");
        }
    }

    #[test]
    fn a_commander_may_fall_in_a_losing_fight_when_the_rule_is_on() {
        // Zhang and 1 000 foot against 4 000 riders on the south bank.
        let losing = |chance: f64| {
            small_scene(move |mut raw| {
                raw.units[0].men = 1_000;
                raw.units[0].leader = Some("zhang".into());
                raw.units[1].zone = "south-bank".into();
                raw.rules.insert("commander_fall_chance".into(), chance);
                raw
            })
        };
        let falls = |scene: &crate::scene::Scene| {
            let mut battle = Battle::new(scene, 7);
            (0..3)
                .flat_map(|_| battle.step())
                .filter(|e| matches!(e, Entry::CommanderFalls { commander: 0, .. }))
                .count()
        };
        assert_eq!(falls(&losing(1.0)), 1, "he falls once, in the first turn");
        assert_eq!(falls(&losing(0.0)), 0, "never with the rule off");
        // The winning side's commander is never at risk: the Khan at the
        // tent is not in the fight, and no Jin commander falls.
        let mut battle = Battle::new(&losing(1.0), 7);
        let entries: Vec<Entry> = (0..3).flat_map(|_| battle.step()).collect();
        assert!(
            !entries
                .iter()
                .any(|e| matches!(e, Entry::CommanderFalls { commander: 1, .. }))
        );
    }
}
