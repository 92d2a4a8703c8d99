//! Times saving and loading a mid-game and a late-game battle 1 (false-cry),
//! and reports the save's size. No criterion: `Instant` and `black_box`.
//! Run with `cargo bench --bench save`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};
use xiaoling::save;
use xiaoling::story::Game;

#[path = "../tests/common/mod.rs"]
mod common;

fn time(label: &str, runs: u32, mut f: impl FnMut()) -> Duration {
    f();
    let start = Instant::now();
    for _ in 0..runs {
        f();
    }
    let each = start.elapsed() / runs;
    println!("{label:<44} {:>10.3} ms", each.as_secs_f64() * 1000.0);
    each
}

fn main() {
    let scenes = common::scenes();
    let scene = common::find(&scenes, "false-cry");
    let dir = common::temp_dir("bench");
    for (label, steps) in [("mid-game", 8_usize), ("late-game", 60)] {
        let Ok((mut game, _)) = Game::new(Arc::clone(&scene), "zhang-chun", 1) else {
            return;
        };
        let mut taken = 0;
        while taken < steps && !game.is_over() {
            if game.auto_step().is_err() {
                break;
            }
            taken += 1;
        }
        let transcript = "x".repeat(400 * taken);
        let Ok(file) = save::save_file(&mut game, &transcript) else {
            return;
        };
        let Ok(text) = save::to_text(&file) else {
            return;
        };
        let state_bytes = file.state.text().len();
        println!(
            "{label}: turn {}, {} commands, save {} bytes (state {} bytes, transcript {} bytes)",
            game.turn(),
            game.log().len(),
            text.len(),
            state_bytes,
            transcript.len()
        );
        println!(
            "  the undo history stored whole would add about {} bytes",
            state_bytes * game.undo_history().len()
        );
        let runs = 20;
        // What the save writer does for each undo state: its fingerprint,
        // by texts (formats 2 to 7) and by ids (what is written now).
        let snapshot = game.snapshot();
        time(
            &format!("  fingerprint by texts ({label})"),
            runs * 10,
            || {
                let _ = black_box(save::fingerprint(&snapshot, &scene));
            },
        );
        time(
            &format!("  fingerprint by ids ({label})"),
            runs * 10,
            || {
                let _ = black_box(save::fingerprint_by_ids(&snapshot, &scene));
            },
        );
        time(&format!("  save ({label}, to file, fsync)"), runs, || {
            let _ = black_box(save::save(&dir, "bench", &mut game, &transcript));
        });
        time(
            &format!("  load ({label}, read, parse, replay)"),
            runs,
            || {
                let _ = black_box(save::load(&dir, "bench", &scenes).map(|l| l.game.turn()));
            },
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
