//! What a player meets at the prompt, in both languages: the near name of
//! a unit mistyped, errors that end the program, his own losses said
//! exactly, a choice not told again after `undo`, and a sighting's time
//! worded one way in `status` and on the map.

use crate::common;
use xiaoling::scene::Locale;

/// The text between `from` and the next prompt after it.
fn answer<'a>(transcript: &'a str, from: &str) -> &'a str {
    let start = transcript.find(from).unwrap_or_else(|| panic!("{from}"));
    let rest = &transcript[start + from.len()..];
    let end = rest.find("\n[").unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn a_mistyped_unit_is_told_the_near_one_by_its_name_in_either_language() {
    // A typo of a Chinese name (the ids alone were compared before).
    let script = "order 满库车营兵丁 hold\nquit\n";
    let en = common::play_script("false-cry", "zhang-chun", 1, Locale::En, script);
    let said = answer(&en, "order 满库车营兵丁 hold");
    assert!(said.contains("Did you mean `man-ku-wagons`?"), "{said}");
    let zh = common::play_script("false-cry", "zhang-chun", 1, Locale::ZhHans, script);
    let said = answer(&zh, "order 满库车营兵丁 hold");
    assert!(said.contains("是不是“man-ku-wagons”？"), "{said}");
    // A typo of the beginning two units share: both are named.
    let script = "order plian-blue hold\norder plain-blue hold\nquit\n";
    let en = common::play_script("false-cry", "huang-taiji", 1, Locale::En, script);
    for typed in ["order plian-blue hold", "order plain-blue hold"] {
        let said = answer(&en, typed).replace('\n', " ");
        assert!(
            said.contains("could be `plain-blue-manggultai` or `plain-blue-degelei`"),
            "{said}"
        );
    }
    let zh = common::play_script("false-cry", "huang-taiji", 1, Locale::ZhHans, script);
    let said = answer(&zh, "order plian-blue hold").replace('\n', "");
    assert!(
        said.contains("可能是“plain-blue-manggultai”或“plain-blue-degelei”"),
        "{said}"
    );
    // Words near nothing get no guess.
    let en = common::play_script(
        "false-cry",
        "zhang-chun",
        1,
        Locale::En,
        "order qqqqqq hold\n",
    );
    let said = answer(&en, "order qqqqqq hold");
    assert!(said.contains("No unit of yours") && !said.contains("Did you mean"));
}

#[test]
fn an_error_that_ends_the_program_speaks_the_language_asked_for() {
    let (code, _, err) = common::run_text(&["play", "--scene", "nope", "--lang", "zh-Hans"], "");
    assert_eq!(code, 2);
    assert!(err.starts_with("错误：没有名为“nope”的战役。"), "{err}");
    assert!(!err.contains("error"), "{err}");
    let args = [
        "play",
        "--scene",
        "false-cry",
        "--role",
        "zhang-chn",
        "--lang",
        "zh-Hans",
    ];
    let (code, _, err) = common::run_text(&args, "");
    assert_eq!(code, 2);
    assert!(
        err.starts_with("错误：战役“false-cry”中没有可扮演的“zhang-chn”。"),
        "{err}"
    );
    assert!(err.contains("是不是“zhang-chun”？"), "{err}");
    let (_, _, err) = common::run_text(&["play", "--scene", "nope", "--lang", "zh-Hant"], "");
    assert!(err.starts_with("錯誤："), "{err}");
    // English as before.
    let (code, _, err) = common::run_text(&["play", "--scene", "flase-cry"], "");
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: no battle `flase-cry`; did you mean `false-cry`?"),
        "{err}"
    );
}

/// Each figure of own losses in Chinese prose (我军折损…人): the words
/// between.
fn own_losses_zh(transcript: &str) -> Vec<&str> {
    transcript
        .split("我军折损")
        .skip(1)
        .filter_map(|rest| rest.split('人').next())
        .collect()
}

#[test]
fn own_losses_are_said_exactly_in_chinese_as_in_english() {
    let script = "2\n\n\n\n\n\nquit\n";
    let zh = common::play_script("false-cry", "zhang-chun", 30, Locale::ZhHans, script);
    let said = own_losses_zh(&zh);
    assert!(!said.is_empty(), "{zh}");
    for figure in &said {
        let figure = figure.replace(['\n', ' '], "");
        assert!(
            !figure.contains(['来', '约', '余', '多', '近', '数', '把']),
            "{figure} is rounded:\n{zh}"
        );
    }
    let en = common::play_script("false-cry", "zhang-chun", 30, Locale::En, script);
    // The same figures: 302 men is 三百零二人.
    let en_figures: Vec<u32> = en
        .split("ou lose ")
        .skip(1)
        .filter_map(|rest| rest.split(' ').next())
        .filter_map(|n| n.replace(',', "").parse().ok())
        .collect();
    assert!(!en_figures.is_empty(), "{en}");
    for n in en_figures.iter().filter(|n| **n < 10_000) {
        let words = xiaoling::repl::numbers::zh_numeral(*n);
        assert!(
            said.iter().any(|s| s.replace('\n', "") == words),
            "{n}: {said:?}"
        );
    }
}

#[test]
fn the_after_action_headline_gives_own_losses_exactly() {
    // The count below ("  Ming: 5,850 men lost", 「明军：折损五千八百五十人」)
    // is the figure above ("The Ming lost 5,850 and", 「明军折损五千八百五十人」).
    let cases = [
        (Locale::En, " ", "  Ming: ", ' ', "The Ming lost {} "),
        (Locale::ZhHans, "", "  明军：折损", '人', "明军折损{}人"),
    ];
    for (locale, joint, counted_at, end, headline) in cases {
        let text = common::play("false-cry", "zhang-chun", 1, locale, &[1, 1, 1, 1, 1]);
        let flat = text.replace('\n', joint);
        let counted = (flat.split(counted_at).nth(1))
            .and_then(|rest| rest.split(end).next())
            .expect("own losses counted");
        let headline = headline.replace("{}", counted);
        assert!(flat.contains(&headline), "{headline}: {text}");
    }
}

#[test]
fn undo_back_to_a_choice_shows_its_options_not_its_situation_again() {
    for locale in [Locale::En, Locale::ZhHans] {
        let script = "2\n\nundo\nundo\nlook\nquit\n";
        let out = common::play_script("false-cry", "zhang-chun", 30, locale, script);
        // The situation's first line, as the opening tells it after ★.
        let lines: Vec<&str> = out.lines().collect();
        let star = lines.iter().position(|l| *l == "★").expect("a choice");
        let situation = lines[star + 1];
        let told = out.matches(situation).count();
        // At the opening and at `look`, not at the undo between them;
        // its options at all three.
        assert_eq!(told, 2, "{out}");
        assert_eq!(out.matches("\n  2. ").count(), 3, "{out}");
    }
}

#[test]
fn a_sighting_by_report_is_timed_alike_in_status_and_on_the_map() {
    let script = "2\n\n\n\n\nstatus\nmap\nquit\n";
    for (locale, mark) in [(Locale::En, "(reported "), (Locale::ZhHans, "探报）")] {
        let out = common::play_script("false-cry", "zhang-chun", 30, locale, script);
        let status = answer(&out, "> status");
        let map = answer(&out, "> map").replace('\n', "");
        // The key's sightings, not the legend under them (「◇ 敌军（先前所见或探报）」).
        let map = map.split("图例").next().unwrap_or(&map).to_string();
        let times = |text: &str| -> Vec<String> {
            let pieces: Vec<&str> = text.split(mark).collect();
            match locale {
                // "(reported 16:00)": the time after the mark.
                Locale::En => pieces[1..]
                    .iter()
                    .map(|p| p.split(')').next().unwrap_or("").to_string())
                    .collect(),
                // 「（16:00探报）」: the time before it.
                _ => pieces[..pieces.len() - 1]
                    .iter()
                    .map(|p| p.rsplit('（').next().unwrap_or("").to_string())
                    .collect(),
            }
        };
        let in_status = times(status);
        assert!(!in_status.is_empty(), "{status}");
        for time in &in_status {
            assert!(
                time.len() == 5 && time.as_bytes()[2] == b':',
                "{time:?} in {status}"
            );
        }
        assert_eq!(times(&map), in_status, "{map}");
    }
}
