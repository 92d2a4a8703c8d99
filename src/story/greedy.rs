//! The greedy policy: at a turning point, play each option forward a few
//! times and take the one that leaves the deciding commander's side best off.
//!
//! - **Look-ahead.** For each option, up to `greedy_lookahead` games are
//!   played from a copy of the game as it stands, the option taken, to the
//!   ending (or the turn limit); after `greedy_min_lookahead` of them the
//!   race ([`Race::decided`]) stops as soon as the games so far settle the
//!   pick. Later decisions in them are taken by each side's
//!   own policy, a greedy one by the novel's choice (no look-ahead inside a
//!   look-ahead: the greedy side asks "what if I deviate here, and follow
//!   the chapters after?"); a side a person plays is played at random.
//!   (Played at random, the greedy side's own later points made the
//!   look-ahead judge an option by what random play does after it: on the
//!   shipped battles its picks then did worse, in losses and endings, than
//!   with the novel's continuation.)
//! - **Luck of its own.** Look-ahead game `j` runs on a seed derived from the
//!   game's seed, the turn, the turning point and `j` (battle stream, policy
//!   stream and `Chance` conditions alike): it never draws from the game's
//!   own streams, never peeks at the luck the real game will have, and the
//!   options are compared under the same luck (game `j` of every option
//!   shares its seed), so the difference is the option's, not the dice's.
//! - **Score.** From the world at the end, for the deciding side `s`:
//!   `(the enemy's men out of hand − s's men out of hand)`, each as a share of
//!   the men the side brought (out of hand: lost, or running), plus
//!   `greedy_commander_weight × (the enemy's fallen commanders − s's)`, each
//!   as a share of the side's commanders (killed or taken 1, wounded ½).
//!   Endings do not say whom they favour, and need not: an ending is a
//!   condition over the same world, and the score reads the world directly,
//!   for every scene, including ones whose endings are all "draws".
//! - **Choice.** The best mean score; ties go to the historical option,
//!   then to the first. Deterministic from the seed and the state, so a
//!   replay, an undo and a save take the same option, and simulate gives the
//!   same report on any number of threads.
//!
//! It starts from the world as it is, hidden parts and all, as the scripted
//! side's conditions do: a policy to measure a scene by (which option a side
//! that looks ahead would take, and whether one dominates), not a fair
//! opponent who knows only what he sees. What the scene keeps from his side
//! (its `secrets`: whether a surrender is feigned, an allegiance true) he
//! does not read: in each look-ahead game such a flag is set with the
//! chance his side gives it (`belief`), drawn for game `j` the same for
//! every option, whatever it is in truth. So trusting and refusing are
//! weighed over what he believes, and a scene makes trust matter by what
//! each costs when the flag is one way or the other.
//!
//! The copy is one extra game kept by the game (built at the first greedy
//! decision, restored from a snapshot for each look-ahead), so simulate's
//! workers each keep their own.

use super::{Game, POLICY_STREAM, Policy, new_log_epoch};
use crate::scene::{Fate, RSecret, TpId};
use crate::sim::rng::BattleRng;
use std::sync::Arc;

impl Game {
    /// The option (0-based) the greedy policy takes at turning point `tp_id`.
    pub(super) fn greedy_option(&mut self, tp_id: TpId) -> usize {
        let scene = Arc::clone(&self.scene);
        let resolved = scene.resolved();
        let (Some(tp), Some(r_tp)) = (
            scene.turning_points().get(tp_id.idx()),
            resolved.turning_points.get(tp_id.idx()),
        ) else {
            return 0;
        };
        let historical = r_tp.historical;
        let games = scene.rules().greedy_lookahead.round() as u32;
        let side = (scene.commanders().get(r_tp.role.idx())).map(|c| c.side.idx());
        let (Some(side), true) = (side, tp.options.len() > 1 && games > 0) else {
            return historical;
        };
        // The copy tells no story: it keeps no picture, and copies none.
        let mut start = super::Snapshot {
            world: Arc::new(self.battle.state()),
            story: self.story.clone(),
            policy_rng: self.policy_rng.clone(),
            log_len: self.log.len(),
            picture: Arc::default(),
        };
        start.story.pending = None;
        // Later decisions in a look-ahead: each side's own policy, greedy
        // by the novel's choice; a person's side played at random.
        let plain = |policy: Policy| match policy {
            Policy::Greedy => Policy::Historical,
            other => other,
        };
        let others = plain(self.policy);
        let player = plain(self.player_policy.unwrap_or(Policy::Random));
        let mut copy = match self.lookahead.take() {
            Some(copy) => copy,
            None => match Game::with_policies(
                Arc::clone(&scene),
                self.role(),
                self.seed,
                others,
                Some(player),
            ) {
                Ok((copy, _)) => Box::new(copy),
                Err(_) => return historical,
            },
        };
        copy.keep_undo(false);
        // Only its outcome is read: no text told.
        copy.tell_story(false);
        copy.policy = others;
        copy.player_policy = Some(player);
        let limit = scene.meta().max_turns.saturating_add(5);
        let at_least = (scene.rules().greedy_min_lookahead.round() as u32).clamp(1, games);
        let mut race = Race::new(
            tp.options.len(),
            historical,
            scene.rules().greedy_indifference,
        );
        for game in 0..games {
            let key = crate::scene::content_hash(&format!(
                "greedy:{}:{}:{}:{game}",
                self.seed, start.world.turn, tp.id
            ));
            // Each round starts from the game as it stands but for what
            // `key` sets anew, all of it (the battle's stream reseeded, each
            // secret flag set or cleared by its own draw): the one start is
            // written over, not copied for every round.
            Arc::make_mut(&mut start.world).rng.reseed(key);
            believe(&mut start.story, &resolved.secrets, side, key);
            // The verdicts its games open with, read by the first.
            let mut round = None;
            for option in 0..tp.options.len() {
                copy.look_ahead(&start, key, tp_id, option, limit, &mut round);
                race.score(option, copy.side_score(side));
            }
            if game + 1 >= at_least && race.decided() {
                break;
            }
        }
        self.lookahead = Some(copy);
        race.leader()
    }

    /// Plays one look-ahead game on this copy: `start` restored, every
    /// stream keyed by `key`, `option` taken at `tp_id`, then on to the end.
    /// `round`: the verdicts the round's games open with
    /// ([`Game::round_verdicts`]), kept by its first.
    fn look_ahead(
        &mut self,
        start: &super::Snapshot,
        key: u64,
        tp_id: TpId,
        option: usize,
        limit: u32,
        round: &mut Option<super::verdicts::Verdicts>,
    ) {
        // `start` restored as `Game::restore_snapshot` does, but for the
        // picture: the copy tells no story, so its picture is never read
        // (nor looked at), and is not made anew for every game.
        self.battle.restore(&start.world);
        self.story.clone_from(&start.story);
        self.marks.set_to(&self.scene, &self.story);
        self.seed = key;
        self.policy_rng.reseed(key ^ POLICY_STREAM);
        self.log.clear();
        self.log_epoch = new_log_epoch();
        self.round_verdicts(round);
        let mut out = Vec::new();
        self.decide(tp_id.idx(), option, false, &mut out);
        self.settle(&mut out);
        while !self.is_over() && self.turn() <= limit {
            if self.auto_step().is_err() {
                break;
            }
        }
    }

    /// How well `side` stands now (see the module's note): higher is better,
    /// within −(1 + w) and 1 + w.
    fn side_score(&mut self, side: usize) -> f64 {
        // Read from the world in place (no copy of it is made): per side,
        // then summed into the side's and the enemy's standing. (Sums of
        // whole men and of halves: the same in any order.)
        let n_sides = self.battle.field().n_sides;
        let (mut brought, mut in_hand) = (vec![0; n_sides], vec![0; n_sides]);
        self.battle.hands_into(&mut brought, &mut in_hand);
        let weight = self.scene.rules().greedy_commander_weight;
        let mut own = Standing::default();
        let mut enemy = Standing::default();
        for other in 0..n_sides {
            let standing = if other == side { &mut own } else { &mut enemy };
            standing.brought += brought[other];
            standing.in_hand += in_hand[other];
        }
        self.battle.commander_fates(|other, fate| {
            if other < n_sides {
                let standing = if other == side { &mut own } else { &mut enemy };
                standing.fell(fate);
            }
        });
        (enemy.out_of_hand() - own.out_of_hand())
            + weight * (enemy.fallen_share() - own.fallen_share())
    }
}

/// The options' look-ahead scores, game by game: every option's `j`th game
/// is played under the same luck (common random numbers), so the options
/// are compared pair by pair, game by game.
struct Race {
    /// Per option, its score in each game played so far.
    scores: Vec<Vec<f64>>,
    historical: usize,
    /// A gap in mean score below this is no gap worth more games.
    indifference: f64,
}

impl Race {
    fn new(options: usize, historical: usize, indifference: f64) -> Race {
        Race {
            scores: vec![Vec::new(); options],
            historical,
            indifference,
        }
    }

    fn score(&mut self, option: usize, score: f64) {
        if let Some(games) = self.scores.get_mut(option) {
            games.push(score);
        }
    }

    /// The best mean score; ties go to the historical option, then to the
    /// first.
    fn leader(&self) -> usize {
        let total = |games: &Vec<f64>| games.iter().sum::<f64>();
        let best = (self.scores.iter().map(total)).fold(f64::NEG_INFINITY, f64::max);
        if self.scores.get(self.historical).map(total) == Some(best) {
            self.historical
        } else {
            (self.scores.iter().position(|games| total(games) == best)).unwrap_or(self.historical)
        }
    }

    /// Whether more games would not change the pick, as far as the games so
    /// far can tell: the leader beats every other option, game for game, by
    /// more than the spread of those differences leaves in doubt (a paired
    /// one-sided Student's t at 95 %), or every option has scored the same
    /// in every game (what was chosen changed nothing the score reads).
    fn decided(&self) -> bool {
        let leader = self.leader();
        let Some(lead) = self.scores.get(leader) else {
            return true;
        };
        let n = lead.len();
        if n < 2 {
            return false;
        }
        let same = (self.scores.iter()).all(|games| games == lead);
        if same {
            return n >= 3;
        }
        self.scores
            .iter()
            .enumerate()
            .filter(|(option, _)| *option != leader)
            .all(|(_, games)| {
                let gaps: Vec<f64> = lead.iter().zip(games).map(|(a, b)| a - b).collect();
                let mean = gaps.iter().sum::<f64>() / n as f64;
                let var = gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
                let doubt = student_t95(n - 1) * (var / n as f64).sqrt();
                (mean > 0.0 && mean > doubt) || mean.abs() + doubt < self.indifference
            })
    }
}

/// The one-sided 95 % point of Student's t with `df` degrees of freedom.
fn student_t95(df: usize) -> f64 {
    const T: [f64; 10] = [
        6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812,
    ];
    T.get(df.saturating_sub(1)).copied().unwrap_or(1.645)
}

/// What a side (or the sides against it) has left.
#[derive(Default)]
struct Standing {
    /// Men brought onto the field.
    brought: u32,
    /// Of them, still in ranks and taking orders.
    in_hand: u32,
    commanders: u32,
    fallen: f64,
}

impl Standing {
    /// One commander of the side, and his fate (none: standing).
    fn fell(&mut self, fate: Option<Fate>) {
        self.commanders += 1;
        self.fallen += match fate {
            None => 0.0,
            Some(Fate::Wounded) => 0.5,
            Some(Fate::Killed | Fate::Captured) => 1.0,
        };
    }

    fn out_of_hand(&self) -> f64 {
        if self.brought == 0 {
            return 0.0;
        }
        1.0 - f64::from(self.in_hand.min(self.brought)) / f64::from(self.brought)
    }

    fn fallen_share(&self) -> f64 {
        if self.commanders == 0 {
            0.0
        } else {
            self.fallen / f64::from(self.commanders)
        }
    }
}

/// The flags kept from `side` as it believes them, in a look-ahead game
/// keyed by `key`: each set with its `belief`, by a draw of its own (from
/// the key and the secret's place, so game `j` of every option believes
/// alike and the game's own streams are untouched).
fn believe(story: &mut super::StoryState, secrets: &[RSecret], side: usize, key: u64) {
    for (at, secret) in secrets.iter().enumerate() {
        if !secret.kept_from(side) {
            continue;
        }
        let mut draw = BattleRng::from_seed(key ^ SECRET_STREAM ^ (at as u64).wrapping_mul(GOLDEN));
        if draw.chance(secret.belief) {
            story.flags.insert(secret.flag);
        } else {
            story.flags.remove(&secret.flag);
        }
    }
}

/// The stream of the beliefs' draws (apart from the battle's and the policy's).
const SECRET_STREAM: u64 = 0x5EC2_E7B1_1EF0_0D42;
/// Spreads the secrets' places over the key (2^64 / φ).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

#[cfg(test)]
mod tests {
    use super::super::{Command, Game, Policy};
    use super::Race;
    use std::sync::Arc;

    /// The small world with the same choice for each commander, Zhang at
    /// the opening and the Khan at turn 1: `bleed-own` (the novel's) costs
    /// the chooser's side a tenth of its men, `nothing` does nothing, and
    /// `bleed-enemy` costs the other side a tenth of theirs. `rules` are the
    /// scene's own.
    fn scene(rules: &[(&str, f64)]) -> Arc<crate::scene::Scene> {
        Arc::new(crate::sim::testing::small_scene(|mut raw| {
            raw.meta.playable.push("khan".into());
            raw.commanders[1].playable = true;
            raw.meta.max_turns = 6;
            let point = |id: &str, role: &str, when: &str, own: &str, enemy: &str| {
                ron::from_str(&format!(
                    r#"(id: "{id}", role: "{role}", when: {when}, situation: "", options: [
                        (id: "bleed-own", text: "-", narration: "", historical: true,
                         effects: [Casualties(target: Side("{own}"), share: 0.1)]),
                        (id: "nothing", text: "-", narration: "", effects: [SetFlag("{id}-nothing")]),
                        (id: "bleed-enemy", text: "-", narration: "",
                         effects: [Casualties(target: Side("{enemy}"), share: 0.1)]),
                    ])"#
                ))
                .expect("a turning point")
            };
            raw.turning_points = vec![
                point("ming-choice", "zhang", "Always", "ming", "jin"),
                point("jin-choice", "khan", "Turn(AtLeast(1))", "jin", "ming"),
            ];
            for (name, value) in rules {
                raw.rules.insert(name.to_string(), *value);
            }
            raw
        }))
    }

    fn chosen(game: &Game, tp: &str) -> Option<String> {
        let scene = game.scene();
        let tp = scene.resolved().tp(tp)?;
        game.story()
            .chosen
            .iter()
            .find(|(t, _)| *t == tp)
            .map(|&(_, option)| {
                scene.turning_points()[tp.idx()].options[option as usize]
                    .id
                    .clone()
            })
    }

    /// Zhang's choice by `player`, the Khan's by `other`, through turn 1.
    fn played(seed: u64, other: Policy, rules: &[(&str, f64)]) -> Game {
        let (mut game, _) =
            Game::with_policies(scene(rules), "zhang", seed, other, None).expect("game");
        game.choose(3).expect("Zhang bleeds the Jin");
        game.next().expect("turn 1");
        game
    }

    /// The Khan, at turn 1, is offered a surrender: letting the ships in
    /// costs the Jin half their men if it is feigned and costs the Ming
    /// 0.3 of theirs if it is true (they come over); keeping them off costs
    /// the Ming 0.05 if feigned (the fire-ships burn short) and the Jin 0.1
    /// if true (a friend turned away). It is feigned when `feigned`; kept
    /// from the Jin with `belief` when given.
    fn surrender_scene(feigned: bool, belief: Option<f64>) -> Arc<crate::scene::Scene> {
        Arc::new(crate::sim::testing::small_scene(|mut raw| {
            raw.meta.playable.push("khan".into());
            raw.commanders[1].playable = true;
            raw.meta.max_turns = 4;
            raw.turning_points = vec![
                ron::from_str(
                    r#"(id: "the-ships-come", role: "khan", when: Turn(AtLeast(1)), situation: "", options: [
                        (id: "let-them-come", text: "-", narration: "", historical: true, effects: [SetFlag("let-in")]),
                        (id: "keep-them-off", text: "-", narration: "", effects: [SetFlag("kept-off")]),
                    ])"#,
                )
                .expect("a turning point"),
            ];
            let event = |id: &str, when: &str, effect: &str| {
                ron::from_str(&format!(
                    r#"(id: "{id}", when: {when}, effects: [{effect}])"#
                ))
                .expect("an event")
            };
            let truth = if feigned { "feigned" } else { "meant" };
            raw.events = vec![
                event("the-letter", "Always", &format!(r#"SetFlag("{truth}")"#)),
                event(
                    "fire",
                    r#"All([Flag("let-in"), Flag("feigned")])"#,
                    r#"Casualties(target: Side("jin"), share: 0.5)"#,
                ),
                event(
                    "come-over",
                    r#"All([Flag("let-in"), Not(Flag("feigned"))])"#,
                    r#"Casualties(target: Side("ming"), share: 0.3)"#,
                ),
                event(
                    "turned-away",
                    r#"All([Flag("kept-off"), Not(Flag("feigned"))])"#,
                    r#"Casualties(target: Side("jin"), share: 0.1)"#,
                ),
                event(
                    "burn-short",
                    r#"All([Flag("kept-off"), Flag("feigned")])"#,
                    r#"Casualties(target: Side("ming"), share: 0.05)"#,
                ),
            ];
            raw.secrets = belief
                .map(|belief| crate::scene::raw::Secret {
                    id: "feigned".into(),
                    hidden_from: vec!["jin".into()],
                    belief,
                })
                .into_iter()
                .collect();
            raw
        }))
    }

    /// What the greedy Khan does with the offer, over seeds 1..=8.
    fn khan_answers(feigned: bool, belief: Option<f64>) -> Vec<String> {
        (1..=8)
            .map(|seed| {
                let scene = surrender_scene(feigned, belief);
                let (mut game, _) =
                    Game::with_policies(scene, "zhang", seed, Policy::Greedy, None).expect("game");
                game.next().expect("turn 1");
                chosen(&game, "the-ships-come").unwrap_or_default()
            })
            .collect()
    }

    #[test]
    fn a_secret_is_weighed_by_what_the_side_believes_not_by_the_truth() {
        let all = |answers: Vec<String>, option: &str| answers.iter().all(|a| a == option);
        // Knowing the truth, the look-ahead refuses a feigned surrender and
        // takes a true one: trust would not matter.
        assert!(all(khan_answers(true, None), "keep-them-off"));
        assert!(all(khan_answers(false, None), "let-them-come"));
        // Kept from him, it is what he believes that counts: a trusting
        // Khan (one in ten that it is feigned) lets feigned ships in; a
        // doubting one (nine in ten) keeps true ones off.
        assert!(all(khan_answers(true, Some(0.1)), "let-them-come"));
        assert!(all(khan_answers(false, Some(0.1)), "let-them-come"));
        assert!(all(khan_answers(true, Some(0.9)), "keep-them-off"));
        assert!(all(khan_answers(false, Some(0.9)), "keep-them-off"));
        // The belief is only the look-ahead's: the battle itself is the
        // truth's (the feigned ships burn the Jin who let them in).
        let scene = surrender_scene(true, Some(0.1));
        let (mut game, _) =
            Game::with_policies(Arc::clone(&scene), "zhang", 1, Policy::Greedy, None)
                .expect("game");
        game.next().expect("turn 1");
        let fire = scene.resolved().event("fire").expect("the fire");
        assert!(game.story().happened.contains(&fire));
    }

    #[test]
    fn greedy_takes_the_best_for_the_deciding_side() {
        let game = played(4, Policy::Greedy, &[]);
        assert_eq!(chosen(&game, "jin-choice").as_deref(), Some("bleed-enemy"));
        // The player's role by the greedy auto-player: the same, for the Ming.
        let (game, _) = Game::with_policies(
            scene(&[]),
            "zhang",
            4,
            Policy::Historical,
            Some(Policy::Greedy),
        )
        .expect("game");
        assert_eq!(chosen(&game, "ming-choice").as_deref(), Some("bleed-enemy"));
    }

    #[test]
    fn the_look_ahead_draws_nothing_from_the_games_own_streams() {
        // The same game with the Khan taking the novel's option: a choice's
        // effects draw nothing either, so the streams must stand where they do.
        let mut greedy = played(4, Policy::Greedy, &[]);
        let mut historical = played(4, Policy::Historical, &[]);
        assert_eq!(greedy.world().rng, historical.world().rng);
        assert_eq!(
            greedy.snapshot().policy_rng,
            historical.snapshot().policy_rng
        );
        assert_eq!(greedy.world().turn, 1);
    }

    #[test]
    fn greedy_is_the_same_on_replay_and_after_undo() {
        let mut game = played(9, Policy::Greedy, &[]);
        for _ in 0..3 {
            game.next().expect("a turn");
        }
        let log = game.log().to_vec();
        let snapshot = game.snapshot();
        let (mut replayed, _) =
            Game::with_policies(scene(&[]), "zhang", 9, Policy::Greedy, None).expect("game");
        for command in &log {
            replayed.run(command).expect("replays");
        }
        assert_eq!(replayed.snapshot(), snapshot);
        for _ in 0..4 {
            game.undo().expect("undo");
        }
        for command in &log[1..] {
            game.run(command).expect("again");
        }
        assert_eq!(game.snapshot(), snapshot);
        assert!(matches!(log[0], Command::Choose { .. }));
    }

    #[test]
    fn without_look_ahead_greedy_takes_the_novels_option() {
        let game = played(4, Policy::Greedy, &[("greedy_lookahead", 0.0)]);
        assert_eq!(chosen(&game, "jin-choice").as_deref(), Some("bleed-own"));
    }

    /// A race over `games`, a list of per-option scores game by game.
    fn race(games: &[&[f64]], historical: usize, indifference: f64) -> Race {
        let mut race = Race::new(games[0].len(), historical, indifference);
        for game in games {
            for (option, score) in game.iter().enumerate() {
                race.score(option, *score);
            }
        }
        race
    }

    #[test]
    fn the_race_stops_on_a_clear_lead_and_not_on_a_doubtful_one() {
        // Option 1 beats option 0 by 0.3 in both games: no spread, decided.
        let clear = race(&[&[0.1, 0.4], &[0.2, 0.5]], 0, 0.0);
        assert_eq!((clear.leader(), clear.decided()), (1, true));
        // By 0.3 and then by 0.01: the spread leaves it in doubt after two.
        let doubtful = race(&[&[0.1, 0.4], &[0.2, 0.21]], 0, 0.0);
        assert_eq!((doubtful.leader(), doubtful.decided()), (1, false));
        // One game decides nothing.
        assert!(!race(&[&[0.0, 1.0]], 0, 0.0).decided());
    }

    #[test]
    fn the_race_stops_when_the_options_are_alike() {
        // The same scores: the historical option, decided after three.
        let same: &[&[f64]] = &[&[0.3, 0.3, 0.3], &[0.1, 0.1, 0.1]];
        assert_eq!(race(same, 2, 0.0).leader(), 2);
        assert!(!race(same, 2, 0.0).decided(), "two games are not enough");
        let three = race(&[same[0], same[1], same[0]], 2, 0.0);
        assert!(three.decided());
        // Within the indifference, not a clear lead: stops only with it.
        let close: &[&[f64]] = &[&[0.300, 0.305], &[0.100, 0.096], &[0.2, 0.204]];
        assert!(!race(close, 0, 0.0).decided());
        assert!(race(close, 0, 0.02).decided());
    }
}
