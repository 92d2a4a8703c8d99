//! Golden transcripts: whole play-throughs, commands in, screen text out.
//! Run with `UPDATE_GOLDEN=1 cargo test --test golden` to rewrite them after
//! an intended change, and read the diff before committing.

mod common;

use xiaoling::scene::Locale;

fn golden(name: &str, scene: &str, role: &str, seed: u64, locale: Locale, choices: &[usize]) {
    let transcript = common::play(scene, role, seed, locale, choices);
    compare(name, &transcript, locale);
}

fn compare(name: &str, transcript: &str, locale: Locale) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, transcript).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "missing {}; run UPDATE_GOLDEN=1 cargo test --test golden",
            path.display()
        )
    });
    if transcript != expected {
        let line = transcript
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "{name}: transcript differs from {} at line {}:\n  got:      {:?}\n  expected: {:?}\n(UPDATE_GOLDEN=1 to accept)",
            path.display(),
            line + 1,
            transcript.lines().nth(line).unwrap_or(""),
            expected.lines().nth(line).unwrap_or("")
        );
    }
    let ending = if locale == Locale::En {
        "Ending: "
    } else {
        "结局："
    };
    assert!(transcript.contains(ending), "{name} plays to an ending");
}

#[test]
fn false_cry_as_zhang_chun_in_english() {
    golden(
        "false-cry-zhang-chun-en",
        "false-cry",
        "zhang-chun",
        1,
        Locale::En,
        &[1, 1, 1, 1, 1],
    );
}

#[test]
fn false_cry_as_zhang_chun_in_chinese() {
    golden(
        "false-cry-zhang-chun-zh",
        "false-cry",
        "zhang-chun",
        1,
        Locale::ZhHans,
        &[1, 1, 1, 1, 1],
    );
}

#[test]
fn false_cry_as_zhang_chun_holding_the_wagon_lines() {
    golden(
        "false-cry-zhang-chun-hold-en",
        "false-cry",
        "zhang-chun",
        3,
        Locale::En,
        &[2, 1, 1, 1, 1],
    );
}

#[test]
fn false_cry_as_huang_taiji_in_english() {
    golden(
        "false-cry-huang-taiji-en",
        "false-cry",
        "huang-taiji",
        2,
        Locale::En,
        &[1, 1, 1],
    );
}

#[test]
fn false_cry_as_huang_taiji_committing_the_bayara_in_chinese() {
    golden(
        "false-cry-huang-taiji-bayara-zh",
        "false-cry",
        "huang-taiji",
        2,
        Locale::ZhHans,
        &[2, 2, 2],
    );
}

#[test]
fn broken_bridge_as_huang_taiji_in_english() {
    golden(
        "broken-bridge-huang-taiji-en",
        "broken-bridge",
        "huang-taiji",
        1,
        Locale::En,
        &[1, 1, 1, 1, 1],
    );
}

#[test]
fn broken_bridge_as_huang_taiji_searching_the_bridge() {
    golden(
        "broken-bridge-huang-taiji-search-en",
        "broken-bridge",
        "huang-taiji",
        1,
        Locale::En,
        &[1, 2, 1, 1, 1],
    );
}

#[test]
fn broken_bridge_as_hong_chengchou_in_chinese() {
    golden(
        "broken-bridge-hong-chengchou-zh",
        "broken-bridge",
        "hong-chengchou",
        4,
        Locale::ZhHans,
        &[1, 1, 1, 1, 1],
    );
}

fn ending_of(transcript: &str) -> String {
    transcript
        .lines()
        .find(|l| l.starts_with("Ending: ") || l.starts_with("结局："))
        .unwrap_or("no ending")
        .to_string()
}

#[test]
fn different_choices_and_seeds_reach_different_endings() {
    let plays: &[(&str, &[&str])] = &[
        ("false-cry", &["zhang-chun", "huang-taiji"]),
        ("broken-bridge", &["huang-taiji", "hong-chengchou"]),
    ];
    for (scene, roles) in plays {
        let mut all = std::collections::BTreeSet::new();
        for role in *roles {
            let mut endings = std::collections::BTreeSet::new();
            for seed in 1..=3 {
                for first in 1..=4 {
                    for later in 1..=3 {
                        let choices = [first, later, later, later, later, later];
                        let transcript = common::play(scene, role, seed, Locale::En, &choices);
                        endings.insert(ending_of(&transcript));
                    }
                }
            }
            assert!(
                !endings.contains("no ending"),
                "{scene}/{role}: every game ends: {endings:?}"
            );
            assert!(
                endings.len() >= 2,
                "{scene}/{role}: choices change the ending: {endings:?}"
            );
            all.extend(endings);
        }
        assert!(
            all.len() >= 3,
            "{scene}: at least three endings reached, got {all:?}"
        );
    }
}

/// A game won by orders the novel never gave: Zhang Chun holds the wagon
/// lines (without orders this seed ends with the relief army destroyed),
/// then sends the units on the bank back to the camp by courier, and the
/// battle ends in a night with neither army broken.
#[test]
fn false_cry_as_zhang_chun_saved_by_orders() {
    let mut script = String::from(
        "2\norder man-ku withdraw\norder wang-zhiku withdraw\norder zuo withdraw\n\
         order left-foot withdraw\norder relief-cavalry withdraw\norders\n",
    );
    for _ in 0..30 {
        script.push_str("wait\n");
    }
    let transcript = common::play_script("false-cry", "zhang-chun", 1, Locale::En, &script);
    assert!(
        transcript.contains("Ending: Night on the Xiaoling"),
        "{transcript}"
    );
    compare("false-cry-zhang-chun-orders-en", &transcript, Locale::En);
    let without = common::play_script(
        "false-cry",
        "zhang-chun",
        1,
        Locale::En,
        "2\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
    );
    assert!(
        without.contains("Ending: The relief army destroyed"),
        "without the orders the same seed ends otherwise:\n{without}"
    );
}
