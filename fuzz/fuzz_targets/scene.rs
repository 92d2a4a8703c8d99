//! A scene file: parsed and validated against the shipped rules; a rules
//! file too. Every input must give a scene or diagnostics, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiaoling::scene::{EMBEDDED_RULES, parse_rules, parse_scene};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(rules) = parse_rules("rules.ron", EMBEDDED_RULES.1) else {
        return;
    };
    if let Ok(scene) = parse_scene("fuzz.ron", text, &rules) {
        // A valid scene plays: a few turns of it, by the policies.
        for role in scene.meta().playable.clone() {
            let Ok((mut game, _)) =
                xiaoling::story::Game::new(std::sync::Arc::new(scene.clone()), &role, 1)
            else {
                continue;
            };
            for _ in 0..8 {
                if game.is_over() || game.auto_step().is_err() {
                    break;
                }
            }
        }
    }
    let _ = parse_rules("fuzz-rules.ron", text);
});
