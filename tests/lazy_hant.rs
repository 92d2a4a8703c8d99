//! zh-Hant is made only when asked for: loading the battles and playing in
//! English or Simplified never builds the conversion tables (they are most of
//! the start's time and memory otherwise), and the first zh-Hant reader gets
//! the same text as ever, each scene's own terms kept.
//!
//! One test in its own binary: the tables are built once per process.

mod common;

use xiaoling::scene::{Locale, hant};

#[test]
fn traditional_is_built_on_first_use_only() {
    let scenes = common::scenes();
    assert!(!hant::tables_built(), "parsing the scenes built them");
    for locale in [Locale::En, Locale::ZhHans] {
        let text = common::play("false-cry", "zhang-chun", 1, locale, &[1, 1, 1]);
        assert!(!text.is_empty());
        let text = common::play("broken-bridge", "huang-taiji", 1, locale, &[1, 1]);
        assert!(!text.is_empty());
    }
    assert!(
        !hant::tables_built(),
        "playing in {:?} built them",
        Locale::ZhHans
    );
    // Asked for, zh-Hant converts the Simplified text with the scene's terms:
    // false-cry keeps 凌河 (OpenCC alone writes 淩河).
    let false_cry = scenes
        .iter()
        .find(|s| s.id() == "false-cry")
        .expect("false-cry");
    let traditional: Vec<&str> = false_cry
        .zones()
        .iter()
        .map(|z| z.name.get(Locale::ZhHant))
        .collect();
    assert!(hant::tables_built());
    let simplified: Vec<&str> = false_cry
        .zones()
        .iter()
        .map(|z| z.name.get(Locale::ZhHans))
        .collect();
    for (s, t) in simplified.iter().zip(&traditional) {
        assert_eq!(
            *t,
            hant::to_traditional_with(s, &false_cry.meta().zh_hant_terms),
            "{s}"
        );
    }
    assert!(
        traditional.iter().any(|t| t.contains("凌河")),
        "{traditional:?}"
    );
    assert!(
        traditional.iter().all(|t| !t.contains("淩")),
        "{traditional:?}"
    );
}
