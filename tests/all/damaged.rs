//! A damaged save as the player meets it: why it cannot be used, said
//! where and what in English and in Chinese words (no English reason in a
//! Chinese message), and which other saves to go on from.

use crate::common::{self, scenes, temp_dir};
use std::path::Path;
use xiaoling::repl::catalogue;
use xiaoling::save::{self, Damage, Flaw, Part, SaveError};
use xiaoling::scene::Locale;

/// A game of a few turns in `dir`, saved with `save mine` before it is
/// left: its resume point `false-cry-zhang-chun-5` and the slot `mine`.
fn game_with_a_named_save(dir: &Path) -> String {
    let args = common::play_args("false-cry", "zhang-chun", 5, dir);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = common::run_text(&args, "1\nwait\nsave mine\nwait\nquit\n");
    assert_eq!(code, 0, "{out}{err}");
    assert!(dir.join("false-cry-zhang-chun-5.ron").exists(), "{out}");
    std::fs::read_to_string(dir.join("mine.ron")).expect("mine")
}

/// `good` with a character no save has (`@`) in the middle of its state,
/// and the byte where it stands.
fn with_a_bad_byte(good: &str) -> (String, usize) {
    let state = good.find("world: (turn: ").expect("state") + "world: (turn: ".len();
    (format!("{}@{}", &good[..state], &good[state + 1..]), state)
}

/// Line and column (from 1, in characters) of byte `at` of `text`.
fn place(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = 1 + before.matches('\n').count();
    let column = 1 + before.rsplit('\n').next().unwrap_or("").chars().count();
    (line, column)
}

/// The Chinese message with the file's path taken out has no letter of
/// English but the engine's name.
fn assert_chinese(said: &str, path: &Path, near: &str) {
    // What it quotes of the file (its path, the words at the place) aside.
    let rest = said
        .replace(&path.display().to_string(), "")
        .replace(near, "")
        .replace("xiaoling", "");
    assert!(
        !rest.contains(|c: char| c.is_ascii_alphabetic()),
        "English in {said:?}"
    );
}

/// A damage done to a save: its name, the damaged text, the flaw found and
/// where (when the test knows it), and words of the English and the
/// Chinese message.
type Case<'a> = (
    &'a str,
    &'a str,
    Flaw,
    Option<(usize, usize)>,
    &'a str,
    &'a str,
);

#[test]
fn a_damaged_save_says_where_and_what_in_english_and_in_chinese() {
    let dir = temp_dir("damaged-where");
    let dir = dir.path();
    let good = game_with_a_named_save(dir);
    let path = dir.join("mine.ron");
    let scenes = scenes();
    // Cut short: a third of the file.
    let cut = &good[..good.len() / 3];
    let cut_at = place(cut, cut.trim_end().len());
    // A bad byte: a character no save has, in the middle of its state.
    let (bad, state) = with_a_bad_byte(&good);
    let bad_at = place(&bad, state);
    // A missing field: the seed's line taken out.
    let seed_line = good
        .lines()
        .find(|l| l.starts_with("    seed: "))
        .expect("seed");
    let missing = good.replacen(&format!("{seed_line}\n"), "", 1);
    let cases: [Case; 3] = [
        (
            "cut",
            cut,
            Flaw::CutShort,
            Some(cut_at),
            "stops before the save ends",
            "中断",
        ),
        (
            "bad byte",
            &bad,
            Flaw::Unexpected('@'),
            Some(bad_at),
            "'@'",
            "不该有的字符「@」",
        ),
        (
            "missing",
            &missing,
            Flaw::MissingField("seed".into()),
            None,
            "`seed`",
            "缺了存档必有的一项",
        ),
    ];
    for (name, text, flaw, at, en_what, zh_what) in cases {
        std::fs::write(&path, text).expect("write");
        let err = match save::load(dir, "mine", &scenes) {
            Err(err) => err,
            Ok(_) => panic!("{name}: loaded"),
        };
        let SaveError::Damaged(
            _,
            Damage::Text {
                at: got,
                flaw: got_flaw,
                part,
                near,
                ..
            },
        ) = &err
        else {
            panic!("{name}: {err:?}");
        };
        assert_eq!(got_flaw, &flaw, "{name}: {err}");
        let expect_part = if name == "missing" {
            Part::Contents
        } else {
            Part::Syntax
        };
        assert_eq!(*part, expect_part, "{name}: {err}");
        if let Some(at) = at {
            assert_eq!((got.line, got.column), at, "{name}: {err}");
        }
        let (line, column) = (got.line, got.column);
        // Where: the line and column, or (in a line too long to count
        // along) the line and the words there.
        let (en_at, zh_at) = if got.shows_column() {
            (
                format!("(line {line}, column {column}"),
                format!("第{line}行第{column}列"),
            )
        } else {
            assert!(!near.is_empty(), "{name}: {err}");
            (
                format!("(line {line}, near the text `{near}`)"),
                format!("第{line}行（“{near}”一带）"),
            )
        };
        // English: what and where.
        let en = catalogue::save_error(Locale::En, &err);
        assert!(en.contains(&en_at), "{en}");
        assert!(en.contains(en_what), "{name}: {en}");
        // Chinese: the same, in Chinese words only.
        for locale in [Locale::ZhHans, Locale::ZhHant] {
            let zh = catalogue::save_error(locale, &err);
            assert_chinese(&zh, &path, near);
            if locale == Locale::ZhHans {
                assert!(zh.contains(&zh_at), "{zh}");
            }
            if locale == Locale::ZhHans {
                assert!(zh.contains(zh_what), "{name}: {zh}");
            }
        }
        // Through the binary, at the prompt.
        let args = ["play", "--load", "false-cry-zhang-chun-5", "--saves"];
        let dir_arg = dir.display().to_string();
        let mut args = args.to_vec();
        args.extend([dir_arg.as_str(), "--lang", "zh-Hans"]);
        let (_, out, _) = common::run_text(&args, "load mine\nquit\n");
        let said = out
            .lines()
            .skip_while(|l| !l.contains("不是可用的"))
            .take_while(|l| !l.trim_start().starts_with("load "))
            .collect::<Vec<_>>()
            .join("");
        // (Wrapped: a line may break at a space of the words quoted.)
        let unspaced = |text: &str| text.replace(' ', "");
        assert!(unspaced(&said).contains(&unspaced(&zh_at)), "{name}: {out}");
    }
}

#[test]
fn a_resume_point_rebuilt_from_its_journal_says_why_in_chinese() {
    let dir = temp_dir("damaged-rebuilt");
    let dir = dir.path();
    // A game left before its first checkpoint: its journal holds it whole.
    let args = common::play_args("false-cry", "zhang-chun", 5, dir);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, err) = common::run_text(&args, "1\nwait\nquit\n");
    assert_eq!(code, 0, "{err}");
    let path = dir.join("false-cry-zhang-chun-5.ron");
    let text = std::fs::read_to_string(&path).expect("resume point");
    std::fs::write(&path, &text[..text.len() / 2]).expect("cut");
    let loaded = save::load(dir, "false-cry-zhang-chun-5", &scenes()).expect("rebuilt");
    let notice = loaded.notice.expect("notice");
    assert!(
        matches!(
            &notice,
            save::LoadNotice::Rebuilt {
                why: Damage::Text {
                    flaw: Flaw::CutShort,
                    ..
                },
                ..
            }
        ),
        "{notice:?}"
    );
    let near = match &notice {
        save::LoadNotice::Rebuilt {
            why: Damage::Text { near, .. },
            ..
        } => &**near,
        _ => "",
    };
    let zh = catalogue::load_notice(Locale::ZhHans, &notice);
    assert_chinese(&zh, &path, near);
    assert!(zh.contains("行") && zh.contains("中断"), "{zh}");
    let en = catalogue::load_notice(Locale::En, &notice);
    assert!(en.contains("stops before the save ends (line "), "{en}");
}

#[test]
fn a_damaged_named_save_names_the_games_other_saves_or_the_folders() {
    let dir = temp_dir("damaged-others");
    let dir = dir.path();
    let good = game_with_a_named_save(dir);
    let path = dir.join("mine.ron");
    let dir_arg = dir.display().to_string();
    let load = |lang: &str| {
        let args = [
            "play", "--load", "mine", "--saves", &dir_arg, "--lang", lang,
        ];
        let (code, _, err) = common::run_text(&args, "");
        assert_eq!(code, 2, "{err}");
        err
    };
    let game = "false-cry-zhang-chun-5";
    let command = format!("xiaoling play --load {game} --saves {dir_arg}");
    // Damaged inside: the game it names, near its end, is read.
    std::fs::write(&path, with_a_bad_byte(&good).0).expect("bad");
    let err = load("en");
    assert!(
        err.contains(&format!("Another save of this game loads: `{game}`")),
        "{err}"
    );
    assert!(err.contains(&command), "{err}");
    // Cut short, its game's name lost: its battle, role and seed tell it.
    std::fs::write(&path, &good[..good.len() / 3]).expect("cut");
    let err = load("zh-Hans");
    assert!(err.contains(&format!("本局另有存档可读：{game}")), "{err}");
    // In the language it was played in.
    let zh_command = format!("xiaoling play --load {game} --lang zh-Hans --saves {dir_arg}");
    assert!(err.contains(&zh_command), "{err}");
    // Nothing left to tell: the folder's saves that load, newest first.
    std::fs::write(&path, "(\n    form").expect("cut");
    let err = load("en");
    assert!(
        err.contains(&format!(
            "Which game it was of cannot be read. Saves in this folder that load, newest first: `{game}`"
        )),
        "{err}"
    );
    assert!(err.contains(&command), "{err}");
    let err = load("zh-Hans");
    assert!(err.contains("读不出它是哪一局的存档"), "{err}");
    assert!(err.contains(&zh_command), "{err}");
    // A slot that is missing, not damaged, is not answered with the folder.
    let args = ["play", "--load", "nothing", "--saves", &dir_arg];
    let (code, _, err) = common::run_text(&args, "");
    assert_eq!(code, 2);
    assert!(!err.contains("Saves in this folder"), "{err}");
}
