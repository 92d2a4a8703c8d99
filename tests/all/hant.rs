//! Traditional Chinese: zh-Hant players read Traditional everywhere — the
//! scene's authored zh-Hant where there is one, else its zh-Hans converted,
//! and the interface's own strings converted too.

use crate::common;

use std::collections::BTreeSet;
use std::io::Cursor;
use xiaoling::repl::render::Style;
use xiaoling::repl::{Options, Piped, Session};
use xiaoling::scene::{Locale, hant};
use xiaoling::story::Game;

/// Simplified-only characters of the Simplified play-through below.
const SIMPLIFIED: &[char] = &[
    '张', '败', '军', '结', '这', '战', '听', '乱', '烟', '过', '马', '们',
];

fn assert_traditional(text: &str) {
    for c in SIMPLIFIED {
        assert!(!text.contains(*c), "Simplified {c} in:\n{text}");
    }
    let simplified: BTreeSet<char> = text
        .chars()
        .filter(|c| hant::is_simplified_only(*c))
        .collect();
    assert!(
        simplified.is_empty(),
        "Simplified-only characters {simplified:?} in:\n{text}"
    );
}

#[test]
fn false_cry_as_zhang_chun_reads_in_traditional() {
    let simplified = common::play(
        "false-cry",
        "zhang-chun",
        1,
        Locale::ZhHans,
        &[1, 1, 1, 1, 1],
    );
    for c in SIMPLIFIED {
        assert!(
            simplified.contains(*c),
            "{c} is not in the zh-Hans transcript"
        );
    }
    let traditional = common::play(
        "false-cry",
        "zhang-chun",
        1,
        Locale::ZhHant,
        &[1, 1, 1, 1, 1],
    );
    assert_traditional(&traditional);
    for expected in ["結局", "張春", "請抉擇 1-", "戰後", "小說中"] {
        assert!(
            traditional.contains(expected),
            "no {expected} in:\n{traditional}"
        );
    }
    // The title is authored in zh-Hant and shown as written: converting it
    // from Simplified would give 小淩河 (OpenCC's 凌河 → 淩河).
    assert!(
        traditional.starts_with("假捷·小凌河之夜\n"),
        "{traditional}"
    );
    // The same game, told in the other script.
    assert_eq!(
        simplified.matches("请抉择").count(),
        traditional.matches("請抉擇").count()
    );
}

#[test]
fn broken_bridge_shows_authored_traditional_as_written() {
    let traditional = common::play(
        "broken-bridge",
        "huang-taiji",
        1,
        Locale::ZhHant,
        &[1, 1, 1, 1, 1],
    );
    assert_traditional(&traditional);
    // Authored zh-Hant text, where OpenCC would write 淩.
    assert!(traditional.starts_with("小凌河斷橋\n"), "{traditional}");
    assert!(traditional.contains("小凌河"), "{traditional}");
}

#[test]
fn commands_answer_in_traditional_and_saves_keep_it() {
    let scenes = common::scenes();
    let scene = scenes
        .iter()
        .find(|s| s.id() == "false-cry")
        .cloned()
        .expect("scene");
    let (game, outputs) = Game::new(scene, "zhang-chun", 1).expect("game");
    let dir = common::temp_dir("hant-commands");
    let options = Options {
        locale: Locale::ZhHans,
        style: Style {
            colour: false,
            columns: 80,
        },
        saves_dir: dir.to_path_buf(),
    };
    let commands = [
        "lang zh-Hant",
        "help",
        "look",
        "status",
        "map",
        "",
        "next",
        "9",
        "1",
        "why",
        "log",
        "stauts",
        "xyzzy",
        "undo",
        "1",
        "save 后",
        "saves",
        "quit",
    ];
    let input = Cursor::new(commands.join("\n") + "\n");
    let mut out: Vec<u8> = Vec::new();
    let transcript = {
        let mut session = Session::new(game, options, scenes.clone(), &mut out);
        session.opening();
        session.show(&outputs);
        session.run(&mut Piped::new(input));
        session.transcript().to_string()
    };
    let shown = String::from_utf8(out).expect("utf-8");
    assert_eq!(shown, transcript, "the transcript is what was shown");

    let (before, after) = shown
        .split_once("\nzh-Hant\n")
        .expect("`lang zh-Hant` answers with the tag");
    assert!(before.contains("请抉择"), "{before}");
    assert_traditional(after);
    for expected in [
        // Taiwan terms: the Enter key, not 回車.
        "輸入數字作出抉擇；Enter 鍵靜待一回合。",
        "存檔（預設槽位 quick）",
        "讀檔",
        "請抉擇 1-",
        "沒有`xyzzy`這個命令。",
        "悔了一步（redo 可復原）。",
        "槽位",
        "戰役",
        // The slot is named as typed, not converted (to 後).
        "已存檔：后（",
    ] {
        assert!(after.contains(expected), "no {expected} in:\n{after}");
    }

    let saved = xiaoling::save::load(&dir, "后", &scenes).expect("load");
    assert!(shown.starts_with(&saved.transcript));
    assert!(
        saved.transcript.ends_with("save 后\n"),
        "{}",
        saved.transcript
    );
    let _ = std::fs::remove_dir_all(&dir);
}
