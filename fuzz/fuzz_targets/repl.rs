//! Lines typed at the prompt: any bytes, one command a line, through the
//! session as a pipe feeds it (menus aside). Saves go to a folder that cannot
//! be made, so `save` fails fast and nothing is written.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};
use xiaoling::repl::render::Style;
use xiaoling::repl::{Options, Piped, Session};
use xiaoling::scene::{Locale, Scene};
use xiaoling::story::Game;

fn scenes() -> &'static Vec<Arc<Scene>> {
    static SCENES: OnceLock<Vec<Arc<Scene>>> = OnceLock::new();
    SCENES.get_or_init(|| {
        xiaoling::scene::load_embedded()
            .map(|s| s.into_iter().map(Arc::new).collect())
            .unwrap_or_default()
    })
}

fuzz_target!(|data: &[u8]| {
    let scenes = scenes();
    let Some(first) = data.first() else {
        return;
    };
    // The first byte picks the battle, role, language and width.
    let scene = &scenes[usize::from(*first) % scenes.len()];
    let roles = &scene.meta().playable;
    let role = &roles[usize::from(*first / 2) % roles.len()];
    let locale = Locale::ALL[usize::from(*first / 4) % Locale::ALL.len()];
    let columns = [20, 60, 80, 100][usize::from(*first / 16) % 4];
    let Ok((game, outputs)) = Game::new(Arc::clone(scene), role, u64::from(*first)) else {
        return;
    };
    let options = Options {
        locale,
        style: Style {
            colour: first % 2 == 0,
            columns,
        },
        saves_dir: "/dev/null/xiaoling-fuzz".into(),
    };
    let mut out = std::io::sink();
    let mut session = Session::new(game, options, scenes.clone(), &mut out);
    session.opening();
    session.show(&outputs);
    // At most 24 lines: a turn each at worst.
    let lines: Vec<&[u8]> = data[1..].split(|b| *b == b'\n').take(24).collect();
    let input = lines.join(&b'\n');
    session.run(&mut Piped::new(&input[..]));
    let _ = session.ending();
});
