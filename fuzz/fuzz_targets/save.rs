//! A save file: parsed, restored (bounds checked, log replayed) on
//! the shipped scenes, then played on for a few turns and saved again.
//! Hand-edited numbers must give an error or a game, never a panic; and
//! every save the game writes must read back as written and load again (a
//! save the game cannot load is a lost game): the round trip fails the run.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};
use xiaoling::save::{self, SaveFile};
use xiaoling::scene::Scene;

fn scenes() -> &'static Vec<Arc<Scene>> {
    static SCENES: OnceLock<Vec<Arc<Scene>>> = OnceLock::new();
    SCENES.get_or_init(|| {
        xiaoling::scene::load_embedded()
            .map(|s| s.into_iter().map(Arc::new).collect())
            .unwrap_or_default()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(file) = ron::from_str::<SaveFile>(text) else {
        return;
    };
    let Ok(mut loaded) = save::restore("fuzz.ron", file, scenes()) else {
        return;
    };
    let game = &mut loaded.game;
    for _ in 0..6 {
        if game.is_over() || game.auto_step().is_err() {
            break;
        }
    }
    let _ = game.undo();
    let Ok(again) = save::save_file(game, &loaded.transcript) else {
        return;
    };
    let Ok(text) = save::to_text(&again) else {
        return;
    };
    let read = match ron::from_str::<SaveFile>(&text) {
        Ok(read) => read,
        Err(err) => panic!("a save the game wrote does not parse: {err}\n{text}"),
    };
    // The parse gives back what was written: what the writer's checks in
    // memory (`write_checked`) rest on instead of parsing each save back.
    match save::to_text(&read) {
        Ok(back) if back == text => {}
        Ok(back) => panic!("a save reads back otherwise than written:\n{text}\n{back}"),
        Err(err) => panic!("a save read back cannot be written again: {err}"),
    }
    if let Err(err) = save::restore("written.ron", read, scenes()) {
        panic!("a save the game wrote does not load: {err}");
    }
});
