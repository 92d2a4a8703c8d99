//! `simulate`: many games played automatically, and what they tell an
//! author — how often each ending comes, what it costs each side, and for
//! every option of every turning point where the games that took it ended.
//!
//! The report is typed and serializable: `simulate --json` prints it as it
//! is, and other tools (tests/all/decisions.rs) read that JSON. Its shape keeps at
//! least `{"runs": n, "endings": {"id": n}, "options": [{"turning_point",
//! "option", "games", "endings": {"id": n}, "mean_losses": {"side": x}}]}`.
//! Means are kept exact here and rounded only when serialized.

use crate::scene::Scene;
use crate::story::{Game, Policy, StoryError};
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// Who decides for each side: the player's role and the side nobody plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Policies {
    #[serde(serialize_with = "policy_name")]
    pub player: Policy,
    #[serde(serialize_with = "policy_name")]
    pub other: Policy,
}

impl Policies {
    /// The same policy for both sides (`--policy P`).
    pub fn both(policy: Policy) -> Policies {
        Policies {
            player: policy,
            other: policy,
        }
    }
}

/// Outcome counts of automatic play-throughs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub scene: String,
    pub role: String,
    pub runs: u32,
    /// The first seed; the games use `seed..seed + runs` (wrapping).
    pub seed: u64,
    pub policies: Policies,
    #[serde(serialize_with = "round2")]
    pub mean_turns: f64,
    /// Games by ending id.
    pub endings: BTreeMap<String, u32>,
    /// The same, with each share and its 95 % interval.
    pub ending_shares: Vec<Share>,
    /// The first seed that reached each ending (`play --seed` replays it).
    pub first_seed: BTreeMap<String, u64>,
    /// Mean losses by side id.
    #[serde(serialize_with = "round1_map")]
    pub mean_losses: BTreeMap<String, f64>,
    /// How often each option was taken, in (turning point, option) order.
    pub choices: Vec<Choice>,
    /// The games that took each option, in (turning point, option) order.
    pub options: Vec<OptionReport>,
}

/// An ending's share of some games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Share {
    pub id: String,
    pub count: u32,
    #[serde(serialize_with = "round4")]
    pub share: f64,
    /// Half the width of the 95 % interval of `share`.
    #[serde(serialize_with = "round4")]
    pub interval95: f64,
}

/// How often one option was taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Choice {
    pub tp: String,
    pub option: String,
    pub count: u32,
}

/// The games that took one option: where they ended and what they cost, so
/// an author sees which option leads where.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OptionReport {
    pub turning_point: String,
    pub option: String,
    pub games: u32,
    /// Games by ending id.
    pub endings: BTreeMap<String, u32>,
    /// The same, with each share and its 95 % interval.
    pub ending_shares: Vec<Share>,
    /// The first seed whose game took this option and reached each ending.
    pub first_seed: BTreeMap<String, u64>,
    /// Mean losses by side id, over these games.
    #[serde(serialize_with = "round1_map")]
    pub mean_losses: BTreeMap<String, f64>,
}

impl Report {
    /// The report of one option, if any game took it.
    pub fn option(&self, tp: &str, option: &str) -> Option<&OptionReport> {
        self.options
            .iter()
            .find(|o| o.turning_point == tp && o.option == option)
    }

    /// The share of games that reached `ending`.
    pub fn share(&self, ending: &str) -> f64 {
        share(self.endings.get(ending).copied().unwrap_or(0), self.runs)
    }
}

/// Half the width of a 95 % interval for a share `hits / games` (normal
/// approximation with a continuity floor), as a share.
pub fn interval95(hits: u32, games: u32) -> f64 {
    if games == 0 {
        return 0.0;
    }
    let n = f64::from(games);
    let p = f64::from(hits) / n;
    1.96 * (p * (1.0 - p) / n).sqrt() + 0.5 / n
}

fn share(hits: u32, games: u32) -> f64 {
    if games == 0 {
        0.0
    } else {
        f64::from(hits) / f64::from(games)
    }
}

fn shares(endings: &BTreeMap<String, u32>, games: u32) -> Vec<Share> {
    endings
        .iter()
        .map(|(id, &count)| Share {
            id: id.to_string(),
            count,
            share: share(count, games),
            interval95: interval95(count, games),
        })
        .collect()
}

/// What one game contributes to the report.
struct Outcome {
    /// None: the game did not finish.
    ending: Option<crate::scene::EndingId>,
    losses: Vec<f64>,
    /// The options taken, as (turning point, option) indices in the scene:
    /// named only when folded, not copied per game.
    chosen: Vec<(usize, usize)>,
    turns: u32,
}

/// A game for `simulate`, to be [`Game::restart`]ed before it is played:
/// both sides decided by the policies from the restart's opening (so a
/// point put before the first turn is decided by them too), no undo kept,
/// no text told. Opened by the novel's choices, the policies set after: the
/// opening itself is never played (a greedy side would play its look-ahead
/// at an opening point for nothing).
fn open(scene: &Arc<Scene>, role: &str, seed: u64, policies: Policies) -> Result<Game, StoryError> {
    let (mut game, _) = Game::with_policies(
        Arc::clone(scene),
        role,
        seed,
        Policy::Historical,
        Some(Policy::Historical),
    )?;
    game.set_policies(policies.other, Some(policies.player));
    game.keep_undo(false);
    game.tell_story(false);
    Ok(game)
}

/// Plays one game to its end (or the turn limit) from where `game` stands.
/// A step that fails is a fault of the engine (the policies only choose
/// what is offered): it fails the run, with the seed, rather than being
/// counted as a game left unfinished.
fn play_out(game: &mut Game, scene: &Scene) -> Result<Outcome, StoryError> {
    let limit = scene.meta().max_turns.saturating_add(5);
    while !game.is_over() && game.turn() <= limit {
        if let Err(error) = game.auto_step() {
            return Err(StoryError::Stuck {
                seed: game.seed(),
                turn: game.turn(),
                error: Box::new(error),
            });
        }
    }
    Ok(Outcome {
        ending: game.story().ended,
        losses: (0..scene.sides().len())
            .map(|side| f64::from(game.side_losses(side)))
            .collect(),
        chosen: game.decided().collect(),
        turns: game.turn(),
    })
}

/// Plays `runs` games of `scene` as `role`, seeds `seed..seed+runs`, each
/// side by its policy.
///
/// The runs are shared out over all cores (rayon); each worker plays its runs
/// in one game restarted per seed (world and schedule reused, no undo). The
/// outcomes are folded in run order, so the report is the same, to the last
/// bit of every mean, whatever the number of threads.
pub fn simulate_games(
    scene: &Arc<Scene>,
    role: &str,
    runs: u32,
    seed: u64,
    policies: Policies,
) -> Result<Report, StoryError> {
    simulate_counted(scene, role, runs, seed, policies, &AtomicU32::new(0))
}

/// [`simulate_games`], adding one to `played` as each game ends, so that
/// a caller on another thread can show how far the run has come. The count
/// only reports: the games and the report are the same without it.
pub fn simulate_counted(
    scene: &Arc<Scene>,
    role: &str,
    runs: u32,
    seed: u64,
    policies: Policies,
    played: &AtomicU32,
) -> Result<Report, StoryError> {
    use rayon::prelude::*;

    // Refuse a bad role before any worker starts.
    open(scene, role, seed, policies)?;
    // The games are played a chunk at a time and each chunk folded in run
    // order before the next is played, so memory stays the same at a
    // thousand runs or a million, and the sums are the same (to the last
    // bit) on any number of threads.
    let mut tally = Tally::default();
    let mut start = 0u32;
    while start < runs {
        let end = start.saturating_add(CHUNK).min(runs);
        let outcomes: Vec<Result<Outcome, StoryError>> = (start..end)
            .into_par_iter()
            .map_init(
                || open(scene, role, seed, policies),
                |game, run| {
                    let game = game.as_mut().map_err(|e| e.clone())?;
                    game.restart(seed.wrapping_add(u64::from(run)));
                    let outcome = play_out(game, scene)?;
                    played.fetch_add(1, Ordering::Relaxed);
                    Ok(outcome)
                },
            )
            .collect();
        for (run, outcome) in (start..end).zip(outcomes) {
            tally.add(scene, seed.wrapping_add(u64::from(run)), &outcome?);
        }
        start = end;
    }
    Ok(tally.report(scene, role, seed, policies, runs))
}

/// Games played before their outcomes are folded: enough to keep every
/// core busy, few enough that their outcomes take a few hundred KB.
const CHUNK: u32 = 4096;

/// Sums of the games that took one option, or of all games.
#[derive(Default)]
struct Sums {
    games: u32,
    endings: BTreeMap<String, u32>,
    first_seed: BTreeMap<String, u64>,
    losses: BTreeMap<String, f64>,
}

impl Sums {
    fn add(&mut self, scene: &Scene, game_seed: u64, outcome: &Outcome) {
        self.games += 1;
        let ending = outcome.ending.map_or("unfinished", |e| scene.id_of(e));
        match self.endings.get_mut(ending) {
            Some(count) => *count += 1,
            None => {
                self.endings.insert(ending.to_string(), 1);
                self.first_seed.insert(ending.to_string(), game_seed);
            }
        }
        for (side, lost) in scene.sides().iter().zip(&outcome.losses) {
            match self.losses.get_mut(side.id.as_str()) {
                Some(total) => *total += lost,
                None => {
                    self.losses.insert(side.id.clone(), *lost);
                }
            }
        }
    }

    fn means(&self) -> BTreeMap<String, f64> {
        let games = f64::from(self.games.max(1));
        self.losses
            .iter()
            .map(|(side, total)| (side.clone(), total / games))
            .collect()
    }
}

/// The games folded so far, in run order.
#[derive(Default)]
struct Tally {
    all: Sums,
    /// By (turning point, option) index in the scene.
    by_option: BTreeMap<(usize, usize), Sums>,
    turns: f64,
}

impl Tally {
    fn add(&mut self, scene: &Scene, game_seed: u64, outcome: &Outcome) {
        self.all.add(scene, game_seed, outcome);
        for &(tp, option) in &outcome.chosen {
            let known = scene
                .turning_points()
                .get(tp)
                .is_some_and(|tp| option < tp.options.len());
            if known {
                self.by_option
                    .entry((tp, option))
                    .or_default()
                    .add(scene, game_seed, outcome);
            }
        }
        self.turns += f64::from(outcome.turns);
    }

    fn report(self, scene: &Scene, role: &str, seed: u64, policies: Policies, runs: u32) -> Report {
        // Options in the order of their ids, as the report lists them.
        let mut by_option: Vec<(&str, &str, Sums)> = self
            .by_option
            .into_iter()
            .filter_map(|((tp, option), sums)| {
                let tp = scene.turning_points().get(tp)?;
                Some((tp.id.as_str(), tp.options.get(option)?.id.as_str(), sums))
            })
            .collect();
        by_option.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        let all = self.all;
        Report {
            scene: scene.id().to_string(),
            role: role.to_string(),
            runs,
            seed,
            policies,
            mean_turns: self.turns / f64::from(runs.max(1)),
            ending_shares: shares(&all.endings, runs),
            mean_losses: all.means(),
            choices: by_option
                .iter()
                .map(|(tp, option, sums)| Choice {
                    tp: tp.to_string(),
                    option: option.to_string(),
                    count: sums.games,
                })
                .collect(),
            options: by_option
                .iter()
                .map(|(tp, option, sums)| OptionReport {
                    turning_point: tp.to_string(),
                    option: option.to_string(),
                    games: sums.games,
                    ending_shares: shares(&sums.endings, sums.games),
                    first_seed: sums.first_seed.clone(),
                    mean_losses: sums.means(),
                    endings: sums.endings.clone(),
                })
                .collect(),
            endings: all.endings,
            first_seed: all.first_seed,
        }
    }
}

fn policy_name<S: Serializer>(policy: &Policy, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(policy.name())
}

fn rounded(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

fn round1_map<S: Serializer>(
    map: &BTreeMap<String, f64>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(map.iter().map(|(k, v)| (k, rounded(*v, 1))))
}

fn round2<S: Serializer>(x: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(rounded(*x, 2))
}

fn round4<S: Serializer>(x: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(rounded(*x, 4))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The small world with one turning point for Zhang at the opening:
    /// `cross` sends his foot over the ford at the Banner (the ending
    /// `broken` when they run), `stay` keeps them on the south bank; a
    /// Jin point for the Khan, `charge` or `wait`, at turn 1.
    fn scene() -> Arc<Scene> {
        Arc::new(crate::sim::testing::small_scene(|mut raw| {
            let parse = |text: &str| ron::from_str(text).expect("a turning point");
            raw.meta.playable.push("khan".into());
            raw.meta.max_turns = 8;
            raw.commanders[1].playable = true;
            raw.turning_points = vec![
                parse(
                    r#"(id: "at-the-ford", role: "zhang", when: Always, situation: "The ford.", options: [
                        (id: "cross", text: "Cross.", narration: "",
                         effects: [Order(target: Unit("ming-foot"), order: MoveTo("north-bank"))]),
                        (id: "stay", text: "Stay.", narration: "", effects: [SetFlag("stayed")], historical: true),
                    ])"#,
                ),
                parse(
                    r#"(id: "at-the-tent", role: "khan", when: Turn(AtLeast(1)), situation: "The banner.", options: [
                        (id: "charge", text: "Charge.", narration: "", historical: true,
                         effects: [Order(target: Unit("banner"), order: MoveTo("south-bank"))]),
                        (id: "wait", text: "Wait.", narration: "", effects: [SetFlag("waited")]),
                    ])"#,
                ),
            ];
            raw.endings.insert(
                0,
                ron::from_str(
                    r#"(id: "broken", title: "Broken", text: "", summary: "",
                        when: SideStrength(side: "ming", cmp: Below(0.9)))"#,
                )
                .expect("an ending"),
            );
            raw
        }))
    }

    #[test]
    fn counts_add_up_and_options_say_where_they_lead() {
        let scene = scene();
        let report = simulate_games(&scene, "zhang", 40, 1, Policies::both(Policy::Random))
            .expect("simulated");
        assert_eq!(report.runs, 40);
        assert_eq!(report.endings.values().sum::<u32>(), 40);
        for tp in ["at-the-ford", "at-the-tent"] {
            let games: u32 = report
                .options
                .iter()
                .filter(|o| o.turning_point == tp)
                .map(|o| o.games)
                .sum();
            assert_eq!(games, 40, "every game decides `{tp}` once");
        }
        for option in &report.options {
            assert_eq!(option.endings.values().sum::<u32>(), option.games);
            for (ending, seed) in &option.first_seed {
                // The first seed replays: that game took the option and ended there.
                let (mut game, _) = Game::with_policies(
                    Arc::clone(&scene),
                    "zhang",
                    *seed,
                    Policy::Random,
                    Some(Policy::Random),
                )
                .expect("game");
                let outcome = play_out(&mut game, &scene).expect("a legal game");
                let ended = outcome.ending.map(|e| scene.id_of(e));
                assert_eq!(ended, Some(ending.as_str()));
                let story = crate::save::SavedStory::of(game.story(), &scene);
                assert!(
                    story
                        .chosen
                        .contains(&(option.turning_point.clone(), option.option.clone()))
                );
                // The outcome names the same options by index.
                let named: Vec<(String, String)> = (outcome.chosen.iter())
                    .map(|&(tp, option)| {
                        let tp = &scene.turning_points()[tp];
                        (tp.id.clone(), tp.options[option].id.clone())
                    })
                    .collect();
                let mut decided = story.chosen.clone();
                decided.sort();
                let mut named_sorted = named;
                named_sorted.sort();
                assert_eq!(named_sorted, decided);
            }
        }
        // Staying behind the river keeps the Ming whole more often than crossing.
        let broken = |option: &str| {
            let o = report.option("at-the-ford", option).expect("taken");
            f64::from(o.endings.get("broken").copied().unwrap_or(0)) / f64::from(o.games)
        };
        assert!(broken("cross") > broken("stay"), "{report:#?}");
    }

    #[test]
    fn the_json_has_the_shape_other_tools_read() {
        let report = simulate_games(
            &scene(),
            "zhang",
            10,
            u64::MAX,
            Policies {
                player: Policy::Historical,
                other: Policy::Random,
            },
        )
        .expect("simulated");
        let json = serde_json::to_value(&report).expect("serializes");
        assert_eq!(json["runs"], 10);
        assert_eq!(json["seed"], u64::MAX);
        assert_eq!(json["policies"]["player"], "historical");
        assert_eq!(json["policies"]["other"], "random");
        assert!(json["endings"].is_object());
        assert!(json["mean_losses"]["ming"].is_number());
        let option = &json["options"][0];
        for key in ["turning_point", "option", "games", "endings", "mean_losses"] {
            assert!(!option[key].is_null(), "options[0] has `{key}`: {option}");
        }
        // Means are rounded for reading: a tenth of a man at most.
        let loss = json["mean_losses"]["ming"].as_f64().expect("a number");
        assert_eq!(loss, (loss * 10.0).round() / 10.0);
    }

    #[test]
    fn the_report_is_the_same_on_one_thread_and_on_two() {
        let scene = scene();
        let report = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a pool")
                .install(|| {
                    simulate_games(&scene, "zhang", 30, 5, Policies::both(Policy::Greedy))
                        .expect("simulated")
                })
        };
        assert_eq!(report(1), report(2));
    }

    #[test]
    fn a_role_nobody_may_play_is_refused() {
        let err = simulate_games(&scene(), "nobody", 1, 1, Policies::both(Policy::Historical));
        assert!(matches!(err, Err(StoryError::NoSuchRole(..))));
    }

    #[test]
    fn intervals_narrow_with_more_games() {
        assert_eq!(interval95(0, 0), 0.0);
        assert!(interval95(50, 100) > interval95(500, 1000));
        assert!((interval95(50, 100) - (0.098 + 0.005)).abs() < 1e-3);
    }
}
