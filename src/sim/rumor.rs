//! Rumor: cries that spread over the zone graph and move those who cannot see.
//!
//! A rumor claims that a side is routed (or has won). Each turn it reaches the
//! neighbours of the zones it has reached, losing `rumor_decay` of its
//! credibility. A unit in a reached zone that can *see* the side the rumor is
//! about, and sees it is not routing, does not believe it. A unit in thick
//! smoke, or that cannot see that side at all, believes it with probability
//! equal to the credibility: cheered if the claim favours its side, shaken if not.

/// The most cries abroad at once (a save with more is refused): a new one
/// past it drowns out the oldest.
pub const MAX_RUMORS: usize = 1_000;

use super::chronicle::{Chronicle, Entry};
use super::components::{Location, Modifier, Morale, UnitInfo, Vision};
use super::field::Field;

use super::order::{Rising, into_index_order};

use super::rng::BattleRng;
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, PartialEq, Serialize, Deserialize)]
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

impl Clone for Rumor {
    fn clone(&self) -> Self {
        Rumor {
            about: self.about,
            routed: self.routed,
            credibility: self.credibility,
            reached: self.reached.clone(),
            believers: self.believers.clone(),
        }
    }

    /// Field by field, into the lists' memory (a derived `clone_from` makes
    /// both lists anew): a restore writes the cries abroad over the world's.
    fn clone_from(&mut self, source: &Self) {
        // Destructured, so a field added to a cry cannot be forgotten here.
        let Rumor {
            about,
            routed,
            credibility,
            reached,
            believers,
        } = self;
        *about = source.about;
        *routed = source.routed;
        *credibility = source.credibility;
        reached.clone_from(&source.reached);
        believers.clone_from(&source.believers);
    }
}

#[derive(Resource, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Rumors {
    pub active: Vec<Rumor>,
}

impl Clone for Rumors {
    fn clone(&self) -> Self {
        Rumors {
            active: self.active.clone(),
        }
    }

    /// Into the cries' memory, each by [`Rumor::clone_from`] (a derived
    /// `clone_from` clones every list anew): what a capture of the world
    /// into a kept state does every look.
    fn clone_from(&mut self, source: &Self) {
        let Rumors { active } = self;
        active.clone_from(&source.active);
    }
}

/// The rumor step's working lists, kept between turns so a turn allocates
/// nothing once they have grown (per viewer and side: `viewer * sides + side`;
/// per side and zone: `side * zones + zone`), and what it noted of each cry.
#[derive(Default)]
pub struct RumorScratch {
    counts: Counts,
    newly: Vec<bool>,
    /// Per cry (in `Rumors::active` order), as the step left it.
    noted: Vec<Noted>,
    /// What was noted of spent cries, kept for the memory of its mask.
    spare_noted: Vec<Noted>,
    /// The emptied lists of believers of spent cries, kept for new cries.
    spare_believers: Vec<Vec<usize>>,
    /// The units on the field at the step's last run that left a cry
    /// settled, by index (rising).
    listened: Vec<usize>,
}

/// What each side sees of each side (per viewer and side: the units, and
/// those routing) and the units of each side in each zone (per side and
/// zone), counted in a run only once a unit is to make up its mind by them.
#[derive(Default)]
struct Counts {
    /// Per viewer and side, once counted in this run.
    seen: Vec<Option<(f64, f64)>>,
    men_in: Vec<f64>,
    routing_in: Vec<f64>,
    /// `men_in` and `routing_in` are this run's.
    zones_counted: bool,
}

/// What the rumor step noted of a cry at its last run.
#[derive(Debug, Default)]
struct Noted {
    /// Per unit (by index): has heard it (its believers, as a mask: one
    /// look per unit, not a scan of the list).
    heard: Vec<bool>,
    /// Every unit then on the field had heard it, the cry reaching every
    /// zone already: nobody on the field then is left to hear it, nor any
    /// zone to reach.
    settled: bool,
}

impl Noted {
    /// Noted afresh from the cry itself: who has heard it (`units`: how
    /// many units the field has).
    fn of(&mut self, rumor: &Rumor, units: usize) {
        refill(&mut self.heard, units, false);
        for &unit in &rumor.believers {
            if let Some(slot) = self.heard.get_mut(unit) {
                *slot = true;
            }
        }
        self.settled = false;
    }
}

/// A unit on the field (there, not surrendered or shattered) as the turn's
/// first steps read it, once: perception, where each side stands; the rumor
/// step, who hears a cry.
#[derive(Debug, Clone, Copy)]
pub struct Listener {
    pub entity: Entity,
    pub side: usize,
    pub zone: usize,
    /// Routing or shattered: counted as routing by whoever sees it.
    pub broken: bool,
}

/// The units the rumor step reads and moves.
pub type Listeners<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static UnitInfo,
        &'static Location,
        &'static mut Morale,
    ),
>;

/// The units on the field, in unit-index order (index first), into
/// `listeners`: read in one fold over the tables, put in index order after
/// when the world holds them otherwise. The turn's first walk over the
/// units: each one's notes of the last turn are forgotten on the way
/// (`perception::opening`).
pub fn listeners_into(units: &mut Listeners, listeners: &mut Vec<(usize, Listener)>) {
    let mut order = Rising::default();
    listeners.clear();
    units
        .iter_mut()
        .for_each(|(entity, info, location, mut morale)| {
            super::perception::opening(&mut morale);
            order.see(info.idx());
            if location.stands() {
                let listener = Listener {
                    entity,
                    side: info.side(),
                    zone: location.zone(),
                    broken: location.state().is_broken(),
                };
                listeners.push((info.idx(), listener));
            }
        });
    into_index_order(listeners, order.rose());
}

/// Empties `list` and fills it with `len` copies of `value`, keeping its memory.
fn refill<T: Clone>(list: &mut Vec<T>, len: usize, value: T) {
    list.clear();
    list.resize(len, value);
}

impl Counts {
    /// Starts a run: nothing counted yet.
    fn begin(&mut self, n_sides: usize) {
        refill(&mut self.seen, n_sides * n_sides, None);
        self.zones_counted = false;
    }

    /// The units of `side` (all, and those routing) that `viewer` sees,
    /// from the units on the field (`listeners`) as they stood at the start
    /// of the turn: those in a zone it sees, and any off the map (seen by
    /// every side, as `side_sees` says of a zone it does not know). Counts
    /// of whole units: the same in any order. Counted once a run.
    fn seen(
        &mut self,
        listeners: &[(usize, Listener)],
        vision: &Vision,
        (n_sides, n): (usize, usize),
        (viewer, side): (usize, usize),
    ) -> (f64, f64) {
        *self.seen[viewer * n_sides + side].get_or_insert_with(|| {
            let row = vision.sees.get(viewer);
            let sees = |zone: usize| {
                zone >= n || row.is_none_or(|row| row.get(zone).copied().unwrap_or(true))
            };
            listeners
                .iter()
                .filter(|(_, unit)| unit.side == side && sees(unit.zone))
                .fold((0.0, 0.0), |(men, routing), (_, unit)| {
                    (men + 1.0, if unit.broken { routing + 1.0 } else { routing })
                })
        })
    }

    /// The units of each side in each zone (all, and those routing: per
    /// side and zone), from the units on the field; counted once a run.
    fn zones(
        &mut self,
        listeners: &[(usize, Listener)],
        (n_sides, n): (usize, usize),
    ) -> (&[f64], &[f64]) {
        if !self.zones_counted {
            refill(&mut self.men_in, n * n_sides, 0.0);
            refill(&mut self.routing_in, n * n_sides, 0.0);
            for (_, unit) in listeners {
                if unit.zone < n {
                    self.men_in[unit.side * n + unit.zone] += 1.0;
                    if unit.broken {
                        self.routing_in[unit.side * n + unit.zone] += 1.0;
                    }
                }
            }
            self.zones_counted = true;
        }
        (&self.men_in, &self.routing_in)
    }
}

/// A unit of `side` believes `rumor`: its morale moves by the cry's
/// credibility, up for good tidings, down for bad, and it believes (or no
/// longer believes) its side lost; with the rule `rumor_fear`, bad tidings
/// leave a fear that outlasts the truth and good ones lift it.
fn believe(morale: &mut Morale, rumor: &Rumor, side: usize, rules: &crate::scene::Rules) {
    let good_news = (side == rumor.about) != rumor.routed;
    let delta = rules.rumor_morale * rumor.credibility * if good_news { 1.0 } else { -1.0 };
    morale.value = (morale.value + delta).clamp(0.0, 100.0);
    morale.push(Modifier::Rumor, delta);
    morale.believes_lost = !good_news;
    if rules.rumor_fear > 0.0 {
        morale.fear = if good_news {
            0.0
        } else {
            morale.fear.max(rumor.credibility)
        };
    }
}

/// Whether every listener now (in rising index order) is in `before` (the
/// indices of the last run's, rising too).
fn all_listened_before(now: &[(usize, Listener)], before: &[usize]) -> bool {
    if now.len() == before.len() {
        // As many (most turns): the same units, index by index.
        return now.iter().zip(before).all(|((idx, _), b)| idx == b);
    }
    let mut before = before.iter();
    now.iter().all(|(idx, _)| before.any(|b| b == idx))
}

impl RumorScratch {
    /// What was noted of each cry at the last run holds while nothing else
    /// has touched the cries (`kept`); otherwise it is noted afresh.
    /// Whether it was kept.
    fn note(&mut self, rumors: &Rumors, field: &Field, kept: bool) -> bool {
        let kept = kept && self.noted.len() == rumors.active.len();
        if !kept {
            let RumorScratch {
                noted, spare_noted, ..
            } = self;
            spare_noted.extend(noted.drain(rumors.active.len().min(noted.len())..));
            while noted.len() < rumors.active.len() {
                noted.push(spare_noted.pop().unwrap_or_default());
            }
            for (noted, rumor) in self.noted.iter_mut().zip(&rumors.active) {
                noted.of(rumor, field.units.len());
            }
        }
        #[cfg(debug_assertions)]
        for (noted, rumor) in self.noted.iter().zip(&rumors.active) {
            let mut afresh = Noted::default();
            afresh.of(rumor, field.units.len());
            debug_assert_eq!(noted.heard, afresh.heard, "a kept mask of who heard a cry");
        }
        kept
    }

    /// Who was on the field, when a cry is left settled (read at the next
    /// run only then): written unless it is already the list (every unit on
    /// the field now was on it at the last run (`same`), and as many).
    fn note_listeners(&mut self, listeners: &[(usize, Listener)], same: bool) {
        let listened_now = same && listeners.len() == self.listened.len();
        if !listened_now && self.noted.iter().any(|noted| noted.settled) {
            self.listened.clear();
            self.listened.extend(listeners.iter().map(|&(idx, _)| idx));
        }
    }

    /// Spent cries are dropped, with what was noted of them (the cries left
    /// in their order); the memory of their lists is kept for new cries.
    fn drop_spent(&mut self, rumors: &mut Rumors) {
        let mut left = 0;
        for cry in 0..rumors.active.len() {
            if rumors.active[cry].credibility >= 0.05 {
                if left != cry {
                    rumors.active.swap(left, cry);
                    self.noted.swap(left, cry);
                }
                left += 1;
            }
        }
        if left < rumors.active.len() {
            for mut spent in rumors.active.drain(left..) {
                // Only memory worth keeping: no more lists kept than there have
                // been cries at once.
                if spent.believers.capacity() > 0 {
                    spent.believers.clear();
                    self.spare_believers.push(spent.believers);
                }
            }
            self.spare_noted.extend(self.noted.drain(left..));
        }
    }
}

impl Counts {
    /// Men and routing men a unit of `side` in `here` judges a cry about
    /// side `about` by (it stands where it can see): about its own side, by
    /// the rule `rumor_own_front`, only the fighting it sees from where it
    /// stands; else all it sees of that side.
    #[allow(clippy::too_many_arguments)]
    fn judged_by(
        &mut self,
        listeners: &[(usize, Listener)],
        field: &Field,
        vision: &Vision,
        by_front: bool,
        side: usize,
        here: usize,
        about: usize,
    ) -> (f64, f64) {
        let (n_sides, n) = (field.n_sides, field.zones.len());
        if by_front && side == about {
            // About its own side: only the fighting it sees from
            // where it stands tells it the truth.
            let (men_in, routing_in) = self.zones(listeners, (n_sides, n));
            let front = |zone: usize| {
                men_in[side * n + zone] > 0.0
                    && (0..n_sides).any(|other| other != side && men_in[other * n + zone] > 0.0)
            };
            std::iter::once(here)
                .chain(field.neighbours[here].iter().copied())
                .filter(|&z| !vision.is_blind(z) && front(z))
                .fold((0.0, 0.0), |(men, routing), z| {
                    (
                        men + men_in[side * n + z],
                        routing + routing_in[side * n + z],
                    )
                })
        } else {
            self.seen(listeners, vision, (n_sides, n), (side, about))
        }
    }
}

/// Cries spread a zone; the units on the field (`listeners`, from
/// [`listeners_into`] on `units` in the same run) they reach make up their minds, given what `vision`
/// lets them see. Run by the perception system, right after it has found
/// what each side sees. `kept`: the cries are as this step left them at its
/// last run (nothing else has touched them since: no new cry, no restore),
/// so what it noted of them then (`scratch`) still holds.
#[allow(clippy::too_many_arguments)]
pub fn spread(
    scratch: &mut RumorScratch,
    listeners: &[(usize, Listener)],
    field: &Field,
    vision: &Vision,
    rumors: &mut Rumors,
    kept: bool,
    rng: &mut BattleRng,
    chronicle: &mut Chronicle,
    units: &mut Listeners,
) {
    // No cry abroad: nothing to hear.
    if rumors.active.is_empty() {
        return;
    }
    let rules = &field.rules;
    let n_sides = field.n_sides;
    let by_front = rules.rumor_own_front > 0.5;
    // What was noted of each cry at the last run holds while nothing else
    // has touched the cries; otherwise it is noted afresh.
    let kept = scratch.note(rumors, field, kept);
    // A cry that had reached every zone and every unit then on the field at
    // the last run has nobody to move now when nobody has come onto the
    // field since (most of a cry's turns): it only fades. Whether anybody
    // has is found once, when a cry is settled.
    let mut same_listeners = None;
    // What each side sees is counted only once a unit is to make up its
    // mind (most turns a cry has been heard by all it reaches).
    let mut counted = false;
    for (cry, rumor) in rumors.active.iter_mut().enumerate() {
        if scratch.noted[cry].settled
            && *same_listeners
                .get_or_insert_with(|| kept && all_listened_before(listeners, &scratch.listened))
        {
            debug_assert!(
                listeners
                    .iter()
                    .all(|(idx, _)| rumor.believers.contains(idx)),
                "a settled cry has a listener who has not heard it"
            );
            rumor.credibility = (rumor.credibility * (1.0 - rules.rumor_decay)).max(0.0);
            continue;
        }
        // A cry heard in every zone reaches no further (most of its turns):
        // its reach is not made again.
        let spreading = !rumor.reached.iter().all(|&reached| reached);
        // Whether every listener has heard it by the end of this run.
        let mut all_heard = true;
        if spreading {
            let newly = &mut scratch.newly;
            newly.clear();
            newly.extend_from_slice(&rumor.reached);
            for (zone, reached) in rumor.reached.iter().enumerate() {
                if *reached {
                    for &next in &field.neighbours[zone] {
                        newly[next] = true;
                    }
                }
            }
        }
        let noted = &mut scratch.noted[cry];
        for &(idx, unit) in listeners.iter() {
            if noted.heard.get(idx).copied().unwrap_or(false) {
                continue;
            }
            if !rumor.reached.get(unit.zone).copied().unwrap_or(false) {
                all_heard = false;
                continue;
            }
            if !counted {
                scratch.counts.begin(n_sides);
                counted = true;
            }
            // A new cry's list takes the memory of a spent one's, if any;
            // else room for every listener at once: one allocation a cry,
            // not one a doubling.
            if rumor.believers.capacity() == 0
                && let Some(spare) = scratch.spare_believers.pop()
            {
                rumor.believers = spare;
            }
            if rumor.believers.len() == rumor.believers.capacity() {
                rumor.believers.reserve(listeners.len());
            }
            rumor.believers.push(idx);
            match noted.heard.get_mut(idx) {
                Some(heard) => *heard = true,
                // Beyond the mask (no unit of the field's): heard again
                // each turn, as a mask made from the believers says.
                None => all_heard = false,
            }
            let (side, here) = (unit.side, unit.zone);
            // In thick smoke a unit sees nothing to judge the cry by: what
            // it could see is not counted for it.
            let blind_here = vision.is_blind(here);
            let (men_seen, routing_seen) = if blind_here {
                (0.0, 0.0)
            } else {
                scratch.counts.judged_by(
                    listeners,
                    field,
                    vision,
                    by_front,
                    side,
                    here,
                    rumor.about,
                )
            };
            let truth_seen = men_seen > 0.0 && !blind_here;
            let actually_routed = men_seen > 0.0 && routing_seen / men_seen >= 0.5;
            let believes = if truth_seen {
                actually_routed == rumor.routed
            } else {
                rng.chance(rumor.credibility)
            };
            if !believes {
                chronicle.push(Entry::RumorDoubted { unit: idx });
                continue;
            }
            // Only a unit that believes is moved, and so looked up (every
            // listener was read from `units` in this run: it is there).
            let Ok((_, _, _, mut morale)) = units.get_mut(unit.entity) else {
                debug_assert!(false, "a listener missing from the units");
                continue;
            };
            believe(&mut morale, rumor, side, rules);
            chronicle.push(Entry::RumorBelieved {
                unit: idx,
                about: rumor.about,
                routed: rumor.routed,
            });
        }
        if spreading {
            // The reached zones take the new list; the old one's memory is kept for the next.
            std::mem::swap(&mut rumor.reached, &mut scratch.newly);
        }
        noted.settled = !spreading && all_heard;
        rumor.credibility = (rumor.credibility * (1.0 - rules.rumor_decay)).max(0.0);
    }
    scratch.drop_spent(rumors);
    scratch.note_listeners(listeners, same_listeners == Some(true));
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
                        info.idx() == 1 && morale.last().iter().any(|(m, _)| *m == Modifier::Rumor)
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

    #[test]
    fn a_world_put_back_hears_its_cry_as_a_fresh_battle_does() {
        // What the rumor step keeps from turn to turn (who has heard a cry,
        // whether it is settled) must not outlive a restore: a battle that
        // played on until everybody had heard, then was put back, goes on
        // as a fresh battle put in the same state does.
        use crate::scene::{Claim, Effect, Text};
        use crate::sim::Battle;
        use crate::sim::testing::small_scene;
        let scene = small_scene(|raw| raw);
        let cry = Effect::Rumor {
            zone: "south-bank".into(),
            claim: Claim::Routed("jin".into()),
            credibility: 0.9,
            cry: Text::Plain("The Jin are routed!".into()),
        };
        let mut played = Battle::new(&scene, 5);
        played.apply(&scene, &cry);
        played.step();
        let early = played.state();
        for _ in 0..6 {
            played.step();
        }
        played.restore(&early);
        let mut fresh = Battle::new(&scene, 5);
        fresh.restore(&early);
        for _ in 0..4 {
            assert_eq!(played.step(), fresh.step());
            assert_eq!(played.state(), fresh.state());
        }
    }

    fn rumor_moved(world: &mut World, unit: usize) -> bool {
        world
            .query::<(&UnitInfo, &Morale)>()
            .iter(world)
            .any(|(info, morale)| {
                info.idx() == unit && morale.last().iter().any(|(m, _)| *m == Modifier::Rumor)
            })
    }

    #[test]
    fn a_cry_of_defeat_in_ones_own_rear_is_believed_by_men_who_cannot_see_the_front() {
        // "The Ming are routed!" cried on the south bank, where the Ming foot
        // stand; no fighting anywhere (the front rule on), or the Jin banner
        // beside them (they see their own side hold).
        let believers = |own_front: f64, contact: bool| {
            (0..40)
                .filter(|&seed| {
                    let (mut world, mut schedule) = small_world(|mut scene| {
                        scene.rules.insert("rumor_own_front".into(), own_front);
                        if contact {
                            scene.units[1].zone = "south-bank".into();
                        }
                        scene
                    });
                    world.insert_resource(BattleRng::from_seed(seed));
                    spread_rumor(&mut world, 0, 0, true, 0.9);
                    schedule.run(&mut world);
                    rumor_moved(&mut world, 0)
                })
                .count()
        };
        assert_eq!(
            believers(0.0, false),
            0,
            "shipped rule: they see their own side"
        );
        let rear = believers(1.0, false);
        assert!(rear >= 30, "in the rear most believe: {rear}/40");
        assert_eq!(believers(1.0, true), 0, "at the front they see the truth");
    }

    #[test]
    fn fear_outlasts_the_truth_and_fades_by_rule() {
        // The Jin banner on the north bank hears "the Jin are routed" in
        // thick smoke; the smoke is then cleared at once.
        let contagion = |fear: f64| {
            let (mut world, mut schedule) = small_world(|mut scene| {
                scene.rules.insert("rumor_fear".into(), fear);
                scene.rules.insert("rumor_decay".into(), 1.0);
                // The banner alone on its side: no real contagion.
                scene.units.truncate(2);
                scene
            });
            world.insert_resource(BattleRng::from_seed(3));
            unit_zone_smoke(&mut world, 2, 1.0);
            spread_rumor(&mut world, 2, 1, true, 1.0);
            let mut felt = Vec::new();
            for _ in 0..4 {
                for mut morale in world.query::<&mut Morale>().iter_mut(&mut world) {
                    morale.set_last(&[]);
                }
                schedule.run(&mut world);
                unit_zone_smoke(&mut world, 2, 0.0);
                let last: Vec<(Modifier, f64)> = world
                    .query::<(&UnitInfo, &Morale)>()
                    .iter(&world)
                    .find(|(info, _)| info.idx() == 1)
                    .map(|(_, morale)| morale.last().to_vec())
                    .unwrap_or_default();
                felt.push(
                    last.iter()
                        .filter(|(m, _)| *m == Modifier::Contagion)
                        .map(|(_, d)| -d)
                        .sum::<f64>(),
                );
            }
            felt
        };
        // Shipped: felt only while blind (the first turn).
        let off = contagion(0.0);
        assert!(
            off[0] > 0.0 && off[1..].iter().all(|f| *f == 0.0),
            "{off:?}"
        );
        // On: felt in clear air too, less each turn.
        let on = contagion(1.0);
        assert!(on[1] > 0.0, "{on:?}");
        assert!(on.windows(2).skip(1).all(|w| w[1] < w[0]), "{on:?}");
    }
}
