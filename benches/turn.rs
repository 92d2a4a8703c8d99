//! Timings of the battle model: one turn of battle 1, and a whole game.
//!
//! No framework: `std::time::Instant` around the work, `black_box` on the
//! results, the mean over many iterations. Run with `cargo bench --bench turn`.
//! Each turn is timed from the same restored state (the ford jam at turn 3 of
//! the novel's line), so every iteration does the same work.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};
use xiaoling::scene::Scene;
use xiaoling::sim::Battle;
use xiaoling::story::{Game, Policy};

#[path = "../tests/common/mod.rs"]
mod common;

fn false_cry() -> Arc<Scene> {
    common::scene("false-cry")
}

/// A game of the novel's line, played up to `turn`.
fn game_at(scene: &Arc<Scene>, turn: u32) -> Game {
    let (mut game, _) = Game::with_policies(
        Arc::clone(scene),
        "zhang-chun",
        1,
        Policy::Historical,
        Some(Policy::Historical),
    )
    .expect("playable");
    while game.turn() < turn && !game.is_over() {
        game.auto_step().expect("valid");
    }
    game
}

fn report(name: &str, iterations: u32, total: Duration) {
    let per = total / iterations.max(1);
    let (value, unit) = if per.as_micros() >= 10_000 {
        (per.as_secs_f64() * 1e3, "ms")
    } else if per.as_nanos() >= 10_000 {
        (per.as_secs_f64() * 1e6, "µs")
    } else {
        (per.as_secs_f64() * 1e9, "ns")
    };
    println!("{name:44} {value:10.1} {unit}/iter  ({iterations} iterations)");
}

fn main() {
    let scene = false_cry();
    let mut game = game_at(&scene, 3);

    // The simulation alone: one turn of the schedule, from a restored world.
    let world = game.world();
    let mut battle = Battle::new(&scene, 1);
    const TURNS: u32 = 2_000;
    let mut total = Duration::ZERO;
    for _ in 0..TURNS {
        battle.restore(&world);
        let start = Instant::now();
        black_box(battle.step());
        total += start.elapsed();
    }
    report("sim: one turn of false-cry (the ford jam)", TURNS, total);

    // One turn as the player sees it: the turn, then events, endings, choices.
    let snapshot = game.snapshot();
    let mut total = Duration::ZERO;
    for _ in 0..TURNS {
        game.restore_snapshot(&snapshot);
        let start = Instant::now();
        let out = if game.pending().is_some() {
            game.auto_step()
        } else {
            game.next()
        };
        black_box(out.ok());
        total += start.elapsed();
    }
    report("story: one turn of false-cry with the story", TURNS, total);

    // Snapshot and restore, what undo and saves cost.
    let mut total = Duration::ZERO;
    for _ in 0..TURNS {
        let start = Instant::now();
        let snapshot = black_box(game.snapshot());
        game.restore_snapshot(&snapshot);
        total += start.elapsed();
    }
    report("story: snapshot + restore", TURNS, total);

    // A whole game of the novel's line, from the opening to the ending.
    const GAMES: u32 = 50;
    let mut total = Duration::ZERO;
    for seed in 0..u64::from(GAMES) {
        let start = Instant::now();
        let (mut game, _) = Game::with_policies(
            Arc::clone(&scene),
            "zhang-chun",
            seed,
            Policy::Historical,
            Some(Policy::Historical),
        )
        .expect("playable");
        while !game.is_over() && game.turn() <= scene.meta().max_turns {
            black_box(game.auto_step().ok());
        }
        black_box(game.story().ended);
        total += start.elapsed();
    }
    report("game: a whole historical play-through", GAMES, total);
}
