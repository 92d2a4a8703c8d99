//! The doctrine of the side nobody plays: besides its scripted choices, it
//! answers the player's orders it sees, by the same courier rules as his.
//!
//! When an order of the player's is put in force (at once, or when his
//! courier arrives):
//!
//! - **A thrust is met.** `advance` or `attack` into a zone where a side the
//!   player does not play has men, or next to one: that side's nearest
//!   fresh reserve within `doctrine_range` zones of it is sent there.
//! - **A withdrawal is pressed.** `withdraw` from a zone where that side has
//!   an unbroken unit: its nearest fresh mounted unit within range is sent
//!   to the zone the withdrawing unit falls back into.
//!
//! Only a move the side sees (the unit's zone or the zone it is sent to) is
//! answered, and only with chance `doctrine_chance`, drawn like a `Chance`
//! condition from the seed, the turn and the unit (no stream is moved, so
//! replays and undo stay exact). A fresh reserve is steady, not fighting
//! (no unbroken enemy in its zone), idle (holding, or arrived where it was
//! sent), has at least `doctrine_fresh` of its starting men, and is not
//! already answering; nearest by steps on the open zone graph, then by
//! index. The order is sent by the side's best standing commander who gives
//! orders (highest leadership, then first): at once if he stands with the
//! reserve, else by courier after [`Game::courier_turns_from`]. Answers on
//! their way are kept in [`StoryState::answers`](super::StoryState) (undone
//! and saved with the story) and never shown to the player: he sees the
//! reserve come, as far as he can see it. `doctrine_chance` 0 turns the
//! doctrine off (a scene's own `rules`).

use super::{Courier, Game, UnitCommand, UnitId, ZoneId, luck};
use crate::sim::movement::UnitOrder;
use std::sync::Arc;

impl Game {
    /// The side nobody plays answers the player's order to `unit`, just
    /// put in force.
    pub(super) fn answer(&mut self, unit: usize, order: &UnitCommand) {
        let scene = Arc::clone(&self.scene);
        let rules = scene.rules();
        if rules.doctrine_chance <= 0.0 {
            return;
        }
        let player = self.role_side();
        let world = self.battle.view();
        let wanted = wanted(&world, self.battle.field(), player, unit, order);
        let unit_id = scene.units()[unit].id.clone();
        for (side, to, riders) in wanted {
            let p = rules.doctrine_chance;
            if luck(
                self.seed,
                world.turn,
                &format!("doctrine:{unit_id}:{side}"),
                p,
            ) >= p
            {
                continue;
            }
            let Some(reserve) = self.reserve(side, to, riders) else {
                continue;
            };
            let Some(commander) = self.doctrine_commander(side) else {
                continue;
            };
            let Some(delay) = self.courier_turns_from(commander, reserve, &world) else {
                continue;
            };
            let go = UnitCommand::Advance(ZoneId::at(to));
            if delay == 0 {
                self.battle.order_unit(reserve, UnitOrder::MoveTo(to), 0.0);
            } else {
                self.story.answers.push(Courier {
                    unit: UnitId::at(reserve),
                    order: go,
                    arrives: world.turn.saturating_add(delay),
                });
            }
        }
    }

    /// Answers whose couriers have arrived are put in force; one finding its
    /// unit running or gone is lost.
    pub(super) fn deliver_answers(&mut self) {
        let now = self.turn();
        if self.story.answers.iter().all(|c| c.arrives > now) {
            return;
        }
        let (due, waiting): (Vec<Courier>, Vec<Courier>) = std::mem::take(&mut self.story.answers)
            .into_iter()
            .partition(|c| c.arrives <= now);
        self.story.answers = waiting;
        for courier in due {
            if let UnitCommand::Advance(zone) = courier.order {
                // `order_unit` refuses a unit that no longer obeys.
                self.battle
                    .order_unit(courier.unit.idx(), UnitOrder::MoveTo(zone.idx()), 0.0);
            }
        }
    }

    /// The nearest fresh reserve of `side` to `to` (see the module's note),
    /// mounted ones only if `riders`.
    fn reserve(&mut self, side: usize, to: usize, riders: bool) -> Option<usize> {
        let world = self.battle.view();
        let field = self.battle.field();
        let rules = self.scene.rules();
        let range = rules.doctrine_range.round() as usize;
        let open = |zone: usize| world.zones.get(zone).is_some_and(|z| z.passage.intact);
        let distance = field.distances(to, open);
        let mut unbroken = vec![vec![false; field.zones.len()]; field.n_sides];
        for (unit, info) in world.units.iter().zip(&field.units) {
            if unit.location.present && unit.location.state().obeys() && unit.men > 0 {
                unbroken[unit.side(info)][unit.location.zone()] = true;
            }
        }
        let answering = |unit: usize| self.story.answers.iter().any(|c| c.unit.idx() == unit);
        world
            .units
            .iter()
            .zip(&field.units)
            .enumerate()
            .filter(|(idx, (unit, info))| {
                let zone = unit.location.zone();
                let idle = match unit.orders.order() {
                    UnitOrder::Hold => true,
                    UnitOrder::MoveTo(goal) => goal == zone,
                    UnitOrder::Pursue | UnitOrder::RallyTo(_) => false,
                };
                let fighting =
                    (0..field.n_sides).any(|other| other != side && unbroken[other][zone]);
                unit.side(info) == side
                    && unit.location.present
                    && unit.location.state() == crate::scene::MoraleState::Steady
                    && idle
                    && !fighting
                    && (!riders || info.mounted)
                    && f64::from(unit.men) >= rules.doctrine_fresh * f64::from(info.start_men)
                    && unit.men > 0
                    && (1..=range).contains(&distance[zone])
                    && !answering(*idx)
            })
            .min_by_key(|(idx, (unit, _))| (distance[unit.location.zone()], *idx))
            .map(|(idx, _)| idx)
    }

    /// The zone of the commander of `side` who sends its answers: the best
    /// standing one who gives orders.
    fn doctrine_commander(&mut self, side: usize) -> Option<usize> {
        let world = self.battle.view();
        let scene = &self.scene;
        world
            .commanders
            .iter()
            .filter(|c| {
                c.side == side
                    && c.rallies()
                    && scene
                        .commanders()
                        .get(c.idx)
                        .is_some_and(|s| s.gives_orders)
            })
            .max_by(|a, b| {
                a.leadership
                    .total_cmp(&b.leadership)
                    .then(b.idx.cmp(&a.idx))
            })
            .map(|c| c.zone)
    }
}

/// The answers a player's `order` to `unit` calls for: (side, the zone the
/// answer goes to, whether only riders may go), before chance and reserves.
fn wanted(
    world: &crate::sim::WorldState,
    field: &crate::sim::Field,
    player: usize,
    unit: usize,
    order: &UnitCommand,
) -> Vec<(usize, usize, bool)> {
    let Some(record) = world.units.get(unit) else {
        return Vec::new();
    };
    let from = record.location.zone();
    let open = |zone: usize| world.zones.get(zone).is_some_and(|z| z.passage.intact);
    let mut wanted = Vec::new();
    for side in (0..field.n_sides).filter(|s| *s != player) {
        let men_in = |zone: usize| world.side_men_in(field, side, zone) > 0;
        match order {
            UnitCommand::Advance(zone) | UnitCommand::Attack(zone) => {
                let to = zone.idx();
                let near = men_in(to) || field.neighbours[to].iter().any(|z| men_in(*z));
                let seen = world.vision.side_sees(side, from) || world.vision.side_sees(side, to);
                if near && seen {
                    wanted.push((side, to, false));
                }
            }
            UnitCommand::Withdraw => {
                let contact = world.units.iter().zip(&field.units).any(|(u, info)| {
                    u.side(info) == side
                        && u.location.present
                        && u.location.zone() == from
                        && u.location.state().obeys()
                        && u.men > 0
                });
                let back = field.retreat_of(unit, player).unwrap_or(from);
                let to = field.next_hop(from, back, open).unwrap_or(from);
                if contact && world.vision.side_sees(side, from) {
                    wanted.push((side, to, true));
                }
            }
            UnitCommand::Hold | UnitCommand::Rally => {}
        }
    }
    wanted
}

#[cfg(test)]
mod tests {
    use super::super::{Command, Game, UnitCommand};
    use crate::sim::movement::UnitOrder;
    use crate::sim::testing::Ids;
    use std::sync::Arc;

    /// The small world (Zhang's foot on the south bank, the Banner holding
    /// the north bank across the ford, the Khan and the Han foot in the
    /// tent behind it), with a second Jin horse `reserve` in `reserve_at`
    /// if given; `rules` are the scene's own.
    fn scene(rules: &[(&str, f64)], reserve_at: Option<&str>) -> Arc<crate::scene::Scene> {
        Arc::new(crate::sim::testing::small_scene(|mut raw| {
            if let Some(zone) = reserve_at {
                let mut reserve = raw.units[1].clone();
                reserve.id = "reserve".into();
                reserve.zone = zone.into();
                reserve.men = 2000;
                raw.units.push(reserve);
            }
            for (name, value) in rules {
                raw.rules.insert(name.to_string(), *value);
            }
            raw
        }))
    }

    fn order_of(game: &mut Game, unit: &str) -> UnitOrder {
        let idx = game.scene().unit_idx(unit).expect("a unit");
        game.world().units[idx].orders.order()
    }

    fn zone(game: &Game, id: &str) -> usize {
        game.scene().zone_idx(id).expect("a zone")
    }

    /// Zhang orders his foot to attack the ford, at `seed`.
    fn attacked(rules: &[(&str, f64)], seed: u64) -> Game {
        let (mut game, _) = Game::new(scene(rules, None), "zhang", seed).expect("game");
        game.order(
            game.unit("ming-foot"),
            UnitCommand::Attack(game.zone("ford")),
        )
        .expect("an order");
        game
    }

    /// The first seed on which the Khan answers that attack (he may let a
    /// move pass, at `doctrine_chance`).
    fn answered_seed() -> u64 {
        (1..50)
            .find(|seed| !attacked(&[], *seed).story().answers.is_empty())
            .expect("answered on some seed")
    }

    #[test]
    fn an_attack_next_to_the_enemy_is_met_by_the_nearest_fresh_unit_by_courier() {
        let seed = answered_seed();
        let mut game = attacked(&[], seed);
        let ford = zone(&game, "ford");
        // The Banner is nearest the ford; the Khan in the tent sends a rider
        // one zone: ten minutes, one turn.
        let answer = game.story().answers[0];
        assert_eq!(answer.unit, game.unit("banner"));
        assert_eq!(answer.order, UnitCommand::Advance(game.zone("ford")));
        assert_eq!(answer.arrives, 1);
        assert_eq!(order_of(&mut game, "banner"), UnitOrder::Hold, "not yet");
        let out = game.next().expect("turn 1");
        assert_eq!(order_of(&mut game, "banner"), UnitOrder::MoveTo(ford));
        assert!(game.story().answers.is_empty());
        // Nothing of it is told to the player but what he sees.
        assert!(!format!("{out:?}").contains("answer"));
        // The answer is a matter of chance: on some seeds the Khan lets it pass.
        assert!((1..50).any(|seed| attacked(&[], seed).story().answers.is_empty()));
    }

    #[test]
    fn the_answer_is_the_same_on_replay_and_undone_with_the_order() {
        let seed = answered_seed();
        let (mut game, _) = Game::new(scene(&[], None), "zhang", seed).expect("game");
        let before = game.snapshot();
        game.order(
            game.unit("ming-foot"),
            UnitCommand::Attack(game.zone("ford")),
        )
        .expect("an order");
        assert!(!game.story().answers.is_empty());
        game.undo().expect("undo");
        assert_eq!(game.snapshot(), before, "undo takes the answer back too");
        game.order(
            game.unit("ming-foot"),
            UnitCommand::Attack(game.zone("ford")),
        )
        .expect("an order");
        for _ in 0..4 {
            game.next().expect("a turn");
        }
        let (mut replayed, _) = Game::new(scene(&[], None), "zhang", seed).expect("game");
        for command in game.log().to_vec() {
            replayed.run(&command).expect("replays");
        }
        assert_eq!(replayed.snapshot(), game.snapshot());
    }

    #[test]
    fn a_commander_with_the_unit_sends_it_at_once() {
        let seed = answered_seed();
        let (mut game, _) = Game::new(scene(&[], None), "zhang", seed).expect("game");
        let scene = game.scene_arc();
        game.battle.apply(
            &scene,
            &crate::scene::Effect::CommanderTo {
                commander: "khan".into(),
                zone: "north-bank".into(),
            },
        );
        game.order(
            game.unit("ming-foot"),
            UnitCommand::Attack(game.zone("ford")),
        )
        .expect("an order");
        let ford = zone(&game, "ford");
        assert_eq!(order_of(&mut game, "banner"), UnitOrder::MoveTo(ford));
        assert!(game.story().answers.is_empty());
    }

    #[test]
    fn a_withdrawal_under_contact_is_pressed_by_horse() {
        // Zhang's foot and the Banner meet in the ford; fresh horse wait on
        // the north bank. The foot fall back to the south bank: the horse follow.
        let (mut game, _) = Game::new(scene(&[], Some("north-bank")), "zhang", 1).expect("game");
        let scene = game.scene_arc();
        let ford = zone(&game, "ford");
        let mut world = game.world();
        for unit in ["ming-foot", "banner"] {
            world.units[scene.unit_idx(unit).expect("unit")]
                .location
                .set_zone(ford);
        }
        game.battle.restore(&world);
        // Zhang stands in the ford with his foot: the order holds at once.
        let effect = crate::scene::Effect::CommanderTo {
            commander: "zhang".into(),
            zone: "ford".into(),
        };
        game.battle.apply(&scene, &effect);
        let south = zone(&game, "south-bank");
        let pressed = (1..50).any(|seed| {
            game.seed = seed;
            let before = game.snapshot();
            game.order(game.unit("ming-foot"), UnitCommand::Withdraw)
                .expect("an order");
            let answers = game.story().answers.clone();
            game.restore_snapshot(&before);
            answers.first().is_some_and(|a| {
                a.unit == game.unit("reserve")
                    && a.order == UnitCommand::Advance(game.zone("south-bank"))
            })
        });
        assert!(pressed, "the horse press the foot on some seed");
        assert_ne!(south, ford);
    }

    #[test]
    fn no_answer_when_the_scene_turns_the_doctrine_off() {
        for seed in 1..30 {
            let mut game = attacked(&[("doctrine_chance", 0.0)], seed);
            assert!(game.story().answers.is_empty());
            game.next().expect("a turn");
            assert_eq!(order_of(&mut game, "banner"), UnitOrder::Hold);
        }
    }

    #[test]
    fn a_move_away_from_the_enemy_or_a_hold_is_not_answered() {
        for seed in 1..30 {
            let (mut game, _) =
                Game::new(scene(&[("doctrine_chance", 1.0)], None), "zhang", seed).expect("game");
            game.order(game.unit("ming-foot"), UnitCommand::Hold)
                .expect("an order");
            game.order(
                game.unit("ming-foot"),
                UnitCommand::Advance(game.zone("south-bank")),
            )
            .expect("an order");
            assert!(game.story().answers.is_empty());
            assert!(matches!(game.log()[0], Command::Order { .. }));
        }
    }
}
