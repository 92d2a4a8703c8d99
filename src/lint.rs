//! The scene lint's play-throughs (`check --play N`): many games of every
//! role, each told in full as a player would read it, checking what the
//! texts say against the battle as it is.
//!
//! Each game is played by a driver mixing the policies (random, greedy, the
//! novel's line) and, in some games, random orders between the turning
//! points. An audited [`Game`] notes every text it tells and each claim
//! of a text that was false when it was told (`Audit`); the driver notes
//! what a player would see (a unit with no men left on the field). The
//! findings are folded into a [`Lint`], in game order, so the report is the
//! same whatever the number of threads. No IO: the CLI prints it.

use crate::scene::{Prose, Scene, UnitId, ZoneId};
use crate::sim::rng::BattleRng;
use crate::story::{Game, Policy, StoryError, UnitCommand, text_id};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// Keys the driver's stream of random orders apart from the game's.
const ORDERS_STREAM: u64 = 0x0dde_5eed_1e55;

/// Two options "make no difference" when the endings they lead to differ
/// by less than this total variation…
const SAME_ENDINGS: f64 = 0.15;
/// …and the chooser's mean losses by less than this share.
const SAME_LOSSES: f64 = 0.15;
/// Options taken fewer times than this are not compared.
const MIN_COMPARED: u32 = 8;

/// How the player's side is played in one game of the lint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Driver {
    #[serde(serialize_with = "policy_name")]
    pub player: Policy,
    #[serde(serialize_with = "policy_name")]
    pub other: Policy,
    /// Random orders to the player's units between turning points.
    pub orders: bool,
}

fn policy_name<S: serde::Serializer>(p: &Policy, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(p.name())
}

impl Driver {
    /// The driver of the `run`th game of a role: the novel's line first,
    /// then a rotation of the policies, half of them with random orders.
    pub fn of_run(run: u32) -> Driver {
        use Policy::*;
        if run == 0 {
            return Driver {
                player: Historical,
                other: Historical,
                orders: false,
            };
        }
        let (player, other) = match run % 5 {
            0 => (Greedy, Historical),
            1 => (Random, Historical),
            2 => (Random, Random),
            3 => (Historical, Random),
            _ => (Random, Greedy),
        };
        Driver {
            player,
            other,
            orders: run % 2 == 1,
        }
    }
}

/// Where a finding was seen: enough to play it again.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Example {
    pub role: String,
    pub seed: u64,
    pub turn: u32,
    pub driver: Driver,
    /// The commands a player types to reach it (`next`, an option's
    /// number, `order …`), in order.
    pub commands: Vec<String>,
}

/// A text told while one of its claims was false, and how often.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimFailure {
    pub text: String,
    pub claim: String,
    /// In how many games it was seen.
    pub games: u32,
    pub first: Example,
}

/// Something told that a reader would find wrong, not tied to a claim.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Oddity {
    pub what: String,
    pub games: u32,
    pub first: Example,
}

/// Two options of a turning point whose games end alike.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SamePair {
    pub turning_point: String,
    pub options: (String, String),
    /// Total variation between their endings' shares.
    pub endings_apart: f64,
    /// The relative difference of the chooser's mean losses.
    pub losses_apart: f64,
    pub games: (u32, u32),
}

/// The longest run of turns a role played without a decision of his.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stretch {
    pub role: String,
    pub turns: u32,
    pub minutes: u32,
    pub seed: u64,
}

/// What the play-throughs of one scene found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lint {
    pub scene: String,
    pub games: u32,
    /// Errors: texts told while a claim of theirs was false.
    pub claim_failures: Vec<ClaimFailure>,
    /// Texts (by id) no game told.
    pub never_told: Vec<String>,
    /// Options (`tp/option`) no game offered or took.
    pub never_taken: Vec<String>,
    pub endings_never_reached: Vec<String>,
    pub longest_without_decision: Vec<Stretch>,
    pub same_options: Vec<SamePair>,
    /// A unit with no men left shown on the field; a placeholder that
    /// printed nothing.
    pub oddities: Vec<Oddity>,
}

/// What one game showed.
struct Played {
    role: String,
    seed: u64,
    driver: Driver,
    told: BTreeSet<String>,
    /// (text, claim) → (turn, commands up to then).
    false_claims: Vec<(String, String, u32, usize)>,
    oddities: Vec<(String, u32, usize)>,
    commands: Vec<String>,
    ending: Option<String>,
    /// (tp index, option index).
    chosen: Vec<(usize, usize)>,
    /// The chooser's losses, per side.
    losses: Vec<u32>,
    /// The longest stretch without a decision of the player: turns, minutes.
    stretch: (u32, u32),
}

/// Plays `games` games of every playable role of `scene` from `seed` on,
/// over all the pool's threads, adding one to `played` as each ends.
pub fn play(
    scene: &Arc<Scene>,
    games: u32,
    seed: u64,
    played: &AtomicU32,
) -> Result<Lint, StoryError> {
    use rayon::prelude::*;
    let roles = scene.meta().playable.clone();
    let jobs: Vec<(usize, u32)> = (0..roles.len())
        .flat_map(|r| (0..games).map(move |run| (r, run)))
        .collect();
    let results: Vec<Result<Played, StoryError>> = jobs
        .par_iter()
        .map(|&(r, run)| {
            let out = play_one(scene, &roles[r], seed.wrapping_add(u64::from(run)), run);
            played.fetch_add(1, Ordering::Relaxed);
            out
        })
        .collect();
    let mut all = Vec::with_capacity(results.len());
    for result in results {
        all.push(result?);
    }
    Ok(fold(scene, &all))
}

/// How many games [`play`] plays for `games` per role.
pub fn total_games(scene: &Scene, games: u32) -> u32 {
    games.saturating_mul(u32::try_from(scene.meta().playable.len()).unwrap_or(u32::MAX))
}

fn play_one(scene: &Arc<Scene>, role: &str, seed: u64, run: u32) -> Result<Played, StoryError> {
    let driver = Driver::of_run(run);
    let (mut game, _) = Game::audited(Arc::clone(scene), role, seed, driver.other, None)?;
    game.keep_undo(false);
    let _ = game.tell_intro();
    let mut rng = BattleRng::from_seed(seed ^ ORDERS_STREAM ^ u64::from(run));
    let mut commands: Vec<String> = Vec::new();
    let mut oddities: Vec<(String, u32, usize)> = Vec::new();
    let limit = scene.meta().max_turns.saturating_add(5);
    let (mut last_decision, mut longest) = (0u32, 0u32);
    let stuck = |game: &Game, error: StoryError| StoryError::Stuck {
        seed: game.seed(),
        turn: game.turn(),
        error: Box::new(error),
    };
    // Per finding of the audit, how many commands had been typed when it
    // was told: the line that shows it plays those.
    let (mut claims_at, mut empty_at) = (Vec::new(), Vec::new());
    let stamp =
        |game: &Game, typed: usize, claims_at: &mut Vec<usize>, empty_at: &mut Vec<usize>| {
            if let Some(audit) = game.audit() {
                claims_at.resize(audit.false_claims.len(), typed);
                empty_at.resize(audit.empty_placeholders.len(), typed);
            }
        };
    stamp(&game, 0, &mut claims_at, &mut empty_at);
    while !game.is_over() && game.turn() <= limit {
        if game.pending().is_some() {
            let _ = game.situation();
            stamp(&game, commands.len(), &mut claims_at, &mut empty_at);
            let n = game.policy_choice(driver.player).unwrap_or(1);
            longest = longest.max(game.turn().saturating_sub(last_decision));
            last_decision = game.turn();
            game.choose(n).map_err(|e| stuck(&game, e))?;
            commands.push(n.to_string());
        } else {
            if driver.orders
                && rng.chance(0.35)
                && let Some((unit, order, typed)) = random_order(&mut game, &mut rng)
                && game.order(unit, order).is_ok()
            {
                commands.push(typed);
            }
            let _ = game.atmosphere();
            stamp(&game, commands.len(), &mut claims_at, &mut empty_at);
            game.next().map_err(|e| stuck(&game, e))?;
            commands.push("next".to_string());
        }
        stamp(&game, commands.len(), &mut claims_at, &mut empty_at);
        note_oddities(&mut game, commands.len(), &mut oddities);
    }
    longest = longest.max(game.turn().saturating_sub(last_decision));
    let audit = game.audit().cloned().unwrap_or_default();
    let false_claims = audit
        .false_claims
        .iter()
        .zip(&claims_at)
        .map(|(f, at)| (f.text.clone(), f.claim.clone(), f.turn, *at))
        .collect();
    for ((text, placeholder, turn), at) in audit.empty_placeholders.iter().zip(&empty_at) {
        oddities.push((
            format!("{placeholder} in `{text}` printed nothing"),
            *turn,
            *at,
        ));
    }
    let minutes = scene.meta().turn_minutes;
    Ok(Played {
        role: role.to_string(),
        seed,
        driver,
        told: audit.told,
        false_claims,
        oddities,
        ending: game.story().ended.map(|e| scene.id_of(e).to_string()),
        chosen: game.decided().collect(),
        losses: (0..scene.sides().len())
            .map(|s| game.side_losses(s))
            .collect(),
        stretch: (longest, longest.saturating_mul(minutes)),
        commands,
    })
}

/// An order to one of the player's units, drawn from the driver's stream:
/// (unit id, order, as typed).
fn random_order(game: &mut Game, rng: &mut BattleRng) -> Option<(UnitId, UnitCommand, String)> {
    let units = game.player_units();
    if units.is_empty() {
        return None;
    }
    let scene = game.scene_arc();
    let unit = UnitId::at(units[rng.index(units.len())]);
    let zone = ZoneId::at(rng.index(scene.zones().len()));
    let zone_id = scene.id_of(zone);
    let (order, typed) = match rng.index(5) {
        0 => (UnitCommand::Hold, "hold".to_string()),
        1 => (UnitCommand::Attack(zone), format!("attack {zone_id}")),
        2 => (UnitCommand::Withdraw, "withdraw".to_string()),
        3 => (UnitCommand::Rally, "rally".to_string()),
        _ => (UnitCommand::Advance(zone), format!("advance {zone_id}")),
    };
    let typed = format!("order {} {typed}", scene.id_of(unit));
    Some((unit, order, typed))
}

/// What the views would show that cannot be: a unit of the player's with
/// no men left still on the field, an enemy seen at no strength.
fn note_oddities(game: &mut Game, at: usize, out: &mut Vec<(String, u32, usize)>) {
    let known = game.known();
    let scene = game.scene_arc();
    let turn = game.turn();
    for (idx, word) in known.own.iter().enumerate() {
        let Some(word) = word else { continue };
        let record = &word.record;
        if record.location.present && record.men == 0 && record.location.state().can_fight_or_flee()
        {
            let id = scene.units().get(idx).map_or("?", |u| u.id.as_str());
            out.push((
                format!("unit `{id}` is shown on the field with no men left"),
                turn,
                at,
            ));
        }
    }
    for (idx, seen) in known.picture.enemy.iter().enumerate() {
        let Some(seen) = seen else { continue };
        // A broken body of men is told as broken, with no strength.
        let broken = seen.bearing == crate::picture::Bearing::Broken;
        if !seen.lost && !broken && seen.men == 0 && seen.turn == turn {
            let id = scene.units().get(idx).map_or("?", |u| u.id.as_str());
            out.push((format!("enemy unit `{id}` is seen with no men"), turn, at));
        }
    }
}

/// Every text of the scene a game may tell, by its audit id (texts
/// written empty are never told, and left out).
pub fn text_ids(scene: &Scene) -> Vec<String> {
    let mut out = Vec::new();
    let mut prose = |item: &str, field: &str, p: &Prose| {
        for (k, (_, text)) in p.variants().into_iter().enumerate() {
            if !(text.get(crate::scene::Locale::En).is_empty() && text.tags().is_empty()) {
                out.push(text_id(item, field, p, k));
            }
        }
    };
    let narrates = |item: &str,
                    effects: &[crate::scene::Effect],
                    prose: &mut dyn FnMut(&str, &str, &Prose)| {
        for effect in effects {
            if let crate::scene::Effect::Narrate(p) = effect {
                prose(item, "Narrate", p);
            }
        }
    };
    prose("meta", "intro", &scene.meta().intro);
    if let Some(prelude) = scene.prelude() {
        if let Some(p) = &prelude.text {
            prose("prelude", "text", p);
        }
        narrates("prelude", &prelude.effects, &mut prose);
    }
    for tp in scene.turning_points() {
        prose(&tp.id, "situation", &tp.situation);
        for option in &tp.options {
            let item = format!("{}/{}", tp.id, option.id);
            prose(&item, "narration", &option.narration);
            if let Some(p) = &option.perceived {
                prose(&item, "perceived", p);
            }
            narrates(&item, &option.effects, &mut prose);
        }
    }
    for event in scene.events() {
        if let Some(p) = &event.text {
            prose(&event.id, "text", p);
        }
        narrates(&event.id, &event.effects, &mut prose);
    }
    for ending in scene.endings() {
        prose(&ending.id, "text", &ending.text);
        prose(&ending.id, "summary", &ending.summary);
        if let Some(p) = &ending.history {
            prose(&ending.id, "history", p);
        }
    }
    for (i, _) in scene.atmosphere().iter().enumerate() {
        out.push(format!("atmosphere[{i}]"));
    }
    out
}

fn example(game: &Played, turn: u32, upto: usize) -> Example {
    Example {
        role: game.role.clone(),
        seed: game.seed,
        turn,
        driver: game.driver,
        commands: game.commands[..upto.min(game.commands.len())].to_vec(),
    }
}

fn fold(scene: &Scene, games: &[Played]) -> Lint {
    // Claim failures, by (text, claim), first seen kept.
    let mut failures: BTreeMap<(String, String), ClaimFailure> = BTreeMap::new();
    let mut oddities: BTreeMap<String, Oddity> = BTreeMap::new();
    let mut told: BTreeSet<&str> = BTreeSet::new();
    for game in games {
        told.extend(game.told.iter().map(String::as_str));
        let mut seen_here = BTreeSet::new();
        for (text, claim, turn, upto) in &game.false_claims {
            let key = (text.clone(), claim.clone());
            let first_here = seen_here.insert(key.clone());
            let entry = failures.entry(key).or_insert_with(|| ClaimFailure {
                text: text.clone(),
                claim: claim.clone(),
                games: 0,
                first: example(game, *turn, *upto),
            });
            if first_here {
                entry.games += 1;
            }
        }
        let mut odd_here = BTreeSet::new();
        for (what, turn, upto) in &game.oddities {
            let first_here = odd_here.insert(what.clone());
            let entry = oddities.entry(what.clone()).or_insert_with(|| Oddity {
                what: what.clone(),
                games: 0,
                first: example(game, *turn, *upto),
            });
            if first_here {
                entry.games += 1;
            }
        }
    }
    let never_told = text_ids(scene)
        .into_iter()
        .filter(|id| !told.contains(id.as_str()))
        .collect();
    let taken: BTreeSet<(usize, usize)> = games
        .iter()
        .flat_map(|g| g.chosen.iter().copied())
        .collect();
    let mut never_taken = Vec::new();
    for (t, tp) in scene.turning_points().iter().enumerate() {
        for (o, option) in tp.options.iter().enumerate() {
            let offered = told.contains(format!("{}/{}.text", tp.id, option.id).as_str());
            if !offered && !taken.contains(&(t, o)) {
                never_taken.push(format!("{}/{}", tp.id, option.id));
            }
        }
    }
    let reached: BTreeSet<&str> = games.iter().filter_map(|g| g.ending.as_deref()).collect();
    let endings_never_reached = scene
        .endings()
        .iter()
        .filter(|e| !reached.contains(e.id.as_str()))
        .map(|e| e.id.clone())
        .collect();
    let mut longest: BTreeMap<&str, Stretch> = BTreeMap::new();
    for game in games {
        let entry = longest.entry(game.role.as_str()).or_insert(Stretch {
            role: game.role.clone(),
            turns: 0,
            minutes: 0,
            seed: game.seed,
        });
        if game.stretch.0 > entry.turns {
            *entry = Stretch {
                role: game.role.clone(),
                turns: game.stretch.0,
                minutes: game.stretch.1,
                seed: game.seed,
            };
        }
    }
    let longest_without_decision = scene
        .meta()
        .playable
        .iter()
        .filter_map(|r| longest.remove(r.as_str()))
        .collect();
    Lint {
        scene: scene.id().to_string(),
        games: u32::try_from(games.len()).unwrap_or(u32::MAX),
        claim_failures: failures.into_values().collect(),
        never_told,
        never_taken,
        endings_never_reached,
        longest_without_decision,
        same_options: same_options(scene, games),
        oddities: oddities.into_values().collect(),
    }
}

/// Pairs of options of one turning point whose games end alike: endings'
/// shares within [`SAME_ENDINGS`] and the chooser's mean losses within
/// [`SAME_LOSSES`] of each other.
fn same_options(scene: &Scene, games: &[Played]) -> Vec<SamePair> {
    let resolved = scene.resolved();
    let mut out = Vec::new();
    for (t, tp) in scene.turning_points().iter().enumerate() {
        let chooser = resolved
            .turning_points
            .get(t)
            .and_then(|r| scene.commanders().get(r.role.idx()))
            .map(|c| c.side)
            .map_or(0, |s| s.idx());
        // Per option: games, endings' counts, the chooser's losses.
        let per: Vec<(u32, BTreeMap<&str, u32>, f64)> = (0..tp.options.len())
            .map(|o| {
                let mut n = 0;
                let mut endings: BTreeMap<&str, u32> = BTreeMap::new();
                let mut losses = 0.0;
                for game in games.iter().filter(|g| g.chosen.contains(&(t, o))) {
                    n += 1;
                    *endings
                        .entry(game.ending.as_deref().unwrap_or("unfinished"))
                        .or_default() += 1;
                    losses += f64::from(game.losses.get(chooser).copied().unwrap_or(0));
                }
                (n, endings, if n > 0 { losses / f64::from(n) } else { 0.0 })
            })
            .collect();
        for a in 0..per.len() {
            for b in a + 1..per.len() {
                let ((na, ea, la), (nb, eb, lb)) = (&per[a], &per[b]);
                if *na < MIN_COMPARED || *nb < MIN_COMPARED {
                    continue;
                }
                let keys: BTreeSet<&&str> = ea.keys().chain(eb.keys()).collect();
                let share = |m: &BTreeMap<&str, u32>, k: &str, n: u32| {
                    f64::from(m.get(k).copied().unwrap_or(0)) / f64::from(n)
                };
                let tv = keys
                    .iter()
                    .map(|k| (share(ea, k, *na) - share(eb, k, *nb)).abs())
                    .sum::<f64>()
                    / 2.0;
                let apart = (la - lb).abs() / la.max(*lb).max(1.0);
                if tv < SAME_ENDINGS && apart < SAME_LOSSES {
                    out.push(SamePair {
                        turning_point: tp.id.clone(),
                        options: (tp.options[a].id.clone(), tp.options[b].id.clone()),
                        endings_apart: (tv * 1000.0).round() / 1000.0,
                        losses_apart: (apart * 1000.0).round() / 1000.0,
                        games: (*na, *nb),
                    });
                }
            }
        }
    }
    out
}

/// The line that plays an example again: its commands piped into `play`.
/// `scenes` is the folder the scene was read from, if not the shipped one.
pub fn again(scene: &str, example: &Example, scenes: Option<&str>) -> String {
    let typed: Vec<&str> = example.commands.iter().map(String::as_str).collect();
    let others = match example.driver.other {
        Policy::Historical => String::new(),
        other => format!(" --policy-other {}", other.name()),
    };
    let folder = scenes.map_or_else(String::new, |dir| format!(" --scenes {dir}"));
    format!(
        "printf '{}\\nstatus\\nmap\\n' | xiaoling play --scene {scene} --role {} --seed {}{others}{folder}",
        typed.join("\\n"),
        example.role,
        example.seed,
    )
}

/// The report for people: errors first, then the warnings.
pub fn report_text(lint: &Lint, scenes: Option<&str>) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} games played; {} claim failure(s)",
        lint.scene,
        lint.games,
        lint.claim_failures.len()
    );
    for f in &lint.claim_failures {
        let _ = writeln!(
            out,
            "error: `{}` was told while its claim {} did not hold ({} game(s); first: {}, seed {}, turn {})",
            f.text, f.claim, f.games, f.first.role, f.first.seed, f.first.turn
        );
        let _ = writeln!(out, "  again: {}", again(&lint.scene, &f.first, scenes));
    }
    for o in &lint.oddities {
        let _ = writeln!(
            out,
            "warning: {} ({} game(s); first: {}, seed {}, turn {})",
            o.what, o.games, o.first.role, o.first.seed, o.first.turn
        );
        let _ = writeln!(out, "  again: {}", again(&lint.scene, &o.first, scenes));
    }
    let list = |out: &mut String, what: &str, items: &[String]| {
        if !items.is_empty() {
            let _ = writeln!(out, "warning: {} {what}:", items.len());
            for item in items {
                let _ = writeln!(out, "  {item}");
            }
        }
    };
    list(&mut out, "text(s) never told", &lint.never_told);
    list(
        &mut out,
        "option(s) never offered or taken",
        &lint.never_taken,
    );
    list(
        &mut out,
        "ending(s) never reached",
        &lint.endings_never_reached,
    );
    for pair in &lint.same_options {
        let _ = writeln!(
            out,
            "warning: options `{}` and `{}` of `{}` make little difference: endings {:.0} % apart, losses {:.0} % apart ({} and {} games)",
            pair.options.0,
            pair.options.1,
            pair.turning_point,
            pair.endings_apart * 100.0,
            pair.losses_apart * 100.0,
            pair.games.0,
            pair.games.1
        );
    }
    for s in &lint.longest_without_decision {
        let _ = writeln!(
            out,
            "note: {} goes at most {} turn(s) ({} min) without a decision (seed {})",
            s.role, s.turns, s.minutes, s.seed
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::Ids;

    /// The small world: Zhang may send his foot over the ford (where they
    /// may break) or keep them back; later he is offered an option whose
    /// text claims `claim` of the foot.
    fn scene(claim: &str) -> Arc<Scene> {
        Arc::new(crate::sim::testing::small_scene(|mut raw| {
            let parse = |text: &str| ron::from_str(text).expect("a turning point");
            raw.meta.max_turns = 12;
            raw.endings.push(
                ron::from_str(r#"(id: "never", title: "Never", when: All([Flag("pressed"), Flag("rested")]), text: "", summary: "")"#)
                    .expect("an ending"),
            );
            raw.turning_points = vec![
                parse(
                    r#"(id: "at-the-ford", role: "zhang", when: Always, situation: "The ford.", options: [
                        (id: "cross", text: "Cross.", narration: "They go.",
                         effects: [Order(target: Unit("ming-foot"), order: MoveTo("north-bank"))]),
                        (id: "stay", text: "Stay.", narration: "", effects: [SetFlag("stayed")], historical: true),
                    ])"#,
                ),
                parse(&format!(
                    r#"(id: "later", role: "zhang", when: Turn(AtLeast(6)), situation: "Later.", options: [
                        (id: "press", text: "Your foot stand whole: press on.", claims: [{claim}], narration: "",
                         effects: [SetFlag("pressed")], historical: true),
                        (id: "rest", text: "Rest.", narration: "", effects: [SetFlag("rested")]),
                    ])"#
                )),
            ];
            raw
        }))
    }

    #[test]
    fn a_stale_option_is_found_with_the_line_that_shows_it() {
        let scene = scene(r#"UnitState(unit: "ming-foot", is: [Steady, Wavering])"#);
        let lint = play(&scene, 60, 1, &AtomicU32::new(0)).expect("played");
        assert_eq!(lint.games, 60);
        let failure = lint
            .claim_failures
            .iter()
            .find(|f| f.text == "later/press.text")
            .expect("the stale option is found");
        assert!(failure.claim.contains("UnitState"), "{}", failure.claim);
        assert!(failure.games >= 1 && failure.games <= 60);
        // The example plays again: the same seed and commands reach the
        // point where the claim is false.
        let first = &failure.first;
        let (mut game, _) = Game::with_policies(
            Arc::clone(&scene),
            &first.role,
            first.seed,
            first.driver.other,
            None,
        )
        .expect("opened");
        for command in &first.commands {
            let words: Vec<&str> = command.split_whitespace().collect();
            let done = match words.as_slice() {
                ["next"] => game.next(),
                ["order", unit, rest @ ..] => {
                    let order = match rest {
                        ["hold"] => UnitCommand::Hold,
                        ["withdraw"] => UnitCommand::Withdraw,
                        ["rally"] => UnitCommand::Rally,
                        ["attack", zone] => UnitCommand::Attack(game.zone(zone)),
                        ["advance", zone] => UnitCommand::Advance(game.zone(zone)),
                        other => panic!("an order the lint gives: {other:?}"),
                    };
                    game.order(game.unit(unit), order)
                }
                [n] => game.choose(n.parse().expect("an option number")),
                other => panic!("a command the lint gives: {other:?}"),
            };
            done.expect("the command replays");
        }
        assert!(game.pending().is_some_and(|tp| tp.id == "later"));
        let foot = scene.unit_idx("ming-foot").expect("the foot");
        let state = game.world().units[foot].location.state();
        assert!(
            !matches!(
                state,
                crate::scene::MoraleState::Steady | crate::scene::MoraleState::Wavering
            ),
            "{state:?}"
        );
        let text = report_text(&lint, None);
        assert!(
            text.contains("error: `later/press.text` was told while its claim"),
            "{text}"
        );
        assert!(
            text.contains("| xiaoling play --scene small --role zhang --seed"),
            "{text}"
        );
    }

    #[test]
    fn a_claim_that_holds_is_no_failure_and_the_rest_is_reported() {
        let scene = scene(r#"Not(Fallen("zhang"))"#);
        let lint = play(&scene, 30, 1, &AtomicU32::new(0)).expect("played");
        assert!(lint.claim_failures.is_empty(), "{:?}", lint.claim_failures);
        // Every option is offered in 30 games; no narration is empty but
        // `cross`'s, which is told.
        assert!(lint.never_taken.is_empty(), "{:?}", lint.never_taken);
        assert!(
            lint.never_told.iter().all(|t| !t.contains("cross")),
            "{:?}",
            lint.never_told
        );
        assert_eq!(lint.longest_without_decision.len(), 1);
        assert_eq!(lint.longest_without_decision[0].role, "zhang");
        // `end` comes when the turns run out; `never` wants both options of one
        // turning point taken.
        assert_eq!(lint.endings_never_reached, ["never"]);
    }

    #[test]
    fn options_that_change_nothing_are_found_and_options_that_do_are_not() {
        // `press` and `rest` only set a flag nothing reads: the same
        // endings, the same losses. Crossing the ford and staying do not
        // end alike.
        let scene = scene(r#"Not(Fallen("zhang"))"#);
        let lint = play(&scene, 60, 1, &AtomicU32::new(0)).expect("played");
        let pair = lint
            .same_options
            .iter()
            .find(|p| p.turning_point == "later")
            .expect("press and rest are found alike");
        assert_eq!(pair.options, ("press".to_string(), "rest".to_string()));
        assert!(pair.endings_apart < SAME_ENDINGS && pair.losses_apart < SAME_LOSSES);
        assert!(pair.games.0 >= MIN_COMPARED && pair.games.1 >= MIN_COMPARED);
        assert!(
            lint.same_options
                .iter()
                .all(|p| p.turning_point != "at-the-ford"),
            "{:?}",
            lint.same_options
        );
        let text = report_text(&lint, None);
        assert!(text.contains("`press` and `rest`"), "{text}");
    }

    #[test]
    fn the_report_is_the_same_on_one_thread_and_on_two() {
        let scene = scene(r#"UnitState(unit: "ming-foot", is: [Steady])"#);
        let on = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a pool")
                .install(|| play(&scene, 20, 5, &AtomicU32::new(0)).expect("played"))
        };
        assert_eq!(on(1), on(2));
    }

    #[test]
    fn every_text_id_the_games_tell_is_one_of_the_scenes() {
        for scene in crate::scene::load_embedded().expect("shipped scenes") {
            let scene = Arc::new(scene);
            let ids: BTreeSet<String> = text_ids(&scene).into_iter().collect();
            for role in scene.meta().playable.clone() {
                for run in 0..3 {
                    let game = play_one(&scene, &role, 7 + u64::from(run), run).expect("played");
                    for told in &game.told {
                        if told.ends_with(".text") && told.contains('/') {
                            continue; // an option's text: offered, not a prose
                        }
                        assert!(
                            ids.contains(told),
                            "{}: {told} is not a text id",
                            scene.id()
                        );
                    }
                }
            }
        }
    }
}
