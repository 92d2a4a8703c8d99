//! The real binary, driven as a player or a script would: through a pipe, and
//! (the pseudo-terminal is in `terminal.rs`).

use crate::common;

use std::process::Output;

/// The binary with a save folder of its own, colour allowed (stdout is a pipe).
fn xiaoling(args: &[&str], input: &str) -> Output {
    let saves = common::temp_dir("cli");
    let mut args = args.to_vec();
    let folder = saves.display().to_string();
    args.extend(["--saves", &folder]);
    let mut output = common::run_env(&args, input.as_bytes(), &[]);
    let _ = std::fs::remove_dir_all(&saves);
    // The leaving line names the save folder, a new one each run.
    output.stdout = text(&output.stdout).replace(&folder, "SAVES").into_bytes();
    output
}

use common::text;

/// "1" answers a choice when one waits; Enter lets a turn pass.
fn choose_first_and_wait() -> String {
    "1\n\n".repeat(60)
}

#[test]
fn piped_choices_play_false_cry_to_an_ending_as_either_role() {
    for role in ["zhang-chun", "huang-taiji"] {
        let out = xiaoling(
            &[
                "play",
                "--scene",
                "false-cry",
                "--role",
                role,
                "--seed",
                "1",
            ],
            &choose_first_and_wait(),
        );
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{role}: {}", text(&out.stderr));
        assert!(
            stdout.contains("\nEnding: "),
            "{role} reaches an ending:\n{stdout}"
        );
        assert!(
            !stdout.contains('\u{1b}'),
            "no colour codes when stdout is a pipe"
        );
    }
}

#[test]
fn wait_and_next_after_the_ending_say_the_battle_is_over() {
    let mut input = "1\nwait\n".repeat(30);
    input.push_str("wait\nnext 3\n");
    let out = xiaoling(
        &[
            "play",
            "--scene",
            "false-cry",
            "--role",
            "huang-taiji",
            "--seed",
            "9",
        ],
        &input,
    );
    let stdout = text(&out.stdout);
    let after = stdout.split("\nEnding: ").nth(1).expect("an ending");
    let over = "The battle is over. You can `undo`, `load` or `quit`.";
    // Every `wait` and `next 3` typed after the ending is answered, not silent.
    let waits = after.matches("> wait\n").count() + after.matches("> next 3\n").count();
    assert!(waits >= 2, "{after}");
    assert_eq!(
        after.matches(over).count(),
        waits + after.matches("> 1\n").count(),
        "{after}"
    );
}

#[test]
fn the_same_seed_and_commands_give_the_same_transcript_byte_for_byte() {
    let args = [
        "play",
        "--scene",
        "false-cry",
        "--role",
        "zhang-chun",
        "--seed",
        "5",
    ];
    let first = xiaoling(&args, &choose_first_and_wait());
    let second = xiaoling(&args, &choose_first_and_wait());
    assert_eq!(first.stdout, second.stdout);
    let other_seed = xiaoling(
        &[
            "play",
            "--scene",
            "false-cry",
            "--role",
            "zhang-chun",
            "--seed",
            "6",
        ],
        &choose_first_and_wait(),
    );
    assert_ne!(
        first.stdout, other_seed.stdout,
        "another seed plays differently"
    );
}

#[test]
fn chinese_ending_screen_is_headed_jieju() {
    let out = xiaoling(
        &[
            "play",
            "--scene",
            "false-cry",
            "--role",
            "huang-taiji",
            "--seed",
            "2",
            "--lang",
            "zh-Hans",
        ],
        &choose_first_and_wait(),
    );
    assert!(
        text(&out.stdout).contains("\n结局："),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_mistyped_order_verb_names_the_one_meant() {
    let out = xiaoling(
        &[
            "play", "--scene", "sarhu", "--role", "du-song", "--seed", "1",
        ],
        "order west-camp advnce B\norder west-camp\n",
    );
    let stdout = text(&out.stdout).replace('\n', " ");
    assert!(
        stdout.contains("`advnce` is not an order. Did you mean `advance`? Usage: order UNIT"),
        "{stdout}"
    );
    // No verb and nothing near one: just the form.
    assert_eq!(stdout.matches("Usage: order UNIT").count(), 2, "{stdout}");
    assert_eq!(stdout.matches("is not an order").count(), 1, "{stdout}");
}

#[test]
fn typos_and_bad_numbers_get_one_short_line_and_the_same_prompt() {
    let out = xiaoling(
        &[
            "play",
            "--scene",
            "false-cry",
            "--role",
            "zhang-chun",
            "--seed",
            "1",
        ],
        "stauts\n9\nxyzzy\n",
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Unknown command `stauts`. Did you mean `status`?"),
        "{stdout}"
    );
    assert!(
        stdout.contains("There is no option 9; choose 1 to 4."),
        "{stdout}"
    );
    assert!(
        stdout.contains("Unknown command `xyzzy`. Type `help` for the list."),
        "{stdout}"
    );
    assert_eq!(
        stdout.matches("Choose 1-4> ").count(),
        3,
        "the prompt again after each: {stdout}"
    );
    assert!(out.status.success(), "end of input ends cleanly");
}

#[test]
fn without_arguments_it_offers_both_battles_and_their_roles() {
    let out = xiaoling(&[], "2\n1\n");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("The False Cry on the Xiaoling River (false-cry)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("The Broken Bridge on the Xiaoling River (broken-bridge)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Huang Taiji (huang-taiji)") && stdout.contains("(hong-chengchou)"),
        "{stdout}"
    );
    assert!(stdout.contains("You are Huang Taiji"), "{stdout}");
}

#[test]
fn scenes_lists_every_battle_with_its_roles() {
    let out = xiaoling(&["scenes"], "");
    let stdout = text(&out.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("false-cry\t") && l.ends_with("zhang-chun, huang-taiji")),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("broken-bridge\t") && l.contains("huang-taiji")),
        "{stdout}"
    );
    assert!(
        stdout.contains("小凌河断桥"),
        "Simplified by default: {stdout}"
    );
    // In the script asked for.
    let hant = text(&xiaoling(&["scenes", "--lang", "zh-Hant"], "").stdout);
    assert!(hant.contains("小凌河斷橋"), "{hant}");
    assert!(!hant.contains("断桥"), "{hant}");
    let bad = xiaoling(&["scenes", "--lang", "fr"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("unknown language `fr`"));
}

#[test]
fn unknown_scene_and_role_list_the_valid_ones() {
    let out = xiaoling(&["play", "--scene", "nope"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no battle `nope`; battles: false-cry, broken-bridge"),
        "{}",
        text(&out.stderr)
    );
    assert!(!text(&out.stderr).contains("hint"), "{}", text(&out.stderr));
    // An example that comes with the engine (the tests run in its folder).
    let out = xiaoling(&["play", "--scene", "red-cliffs"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(
            "hint: `red-cliffs` is an example in scenes/examples: add `--scenes scenes/examples` before the command"
        ),
        "{}",
        text(&out.stderr)
    );
    let out = xiaoling(&["play", "--scene", "false-cry", "--role", "nobody"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("roles: zhang-chun, huang-taiji"),
        "{}",
        text(&out.stderr)
    );
    assert!(!text(&out.stderr).contains("did you mean"));
    // A typo gets the near name.
    let out = xiaoling(&["play", "--scene", "sarhuu"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no battle `sarhuu`; did you mean `sarhu`? battles:"),
        "{}",
        text(&out.stderr)
    );
    let out = xiaoling(&["play", "--scene", "sarhu", "--role", "du-songg"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no role `du-songg` in `sarhu`; did you mean `du-song`? roles:"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn check_passes_the_shipped_scenes_and_fails_a_broken_one_with_positions() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = xiaoling(
        &[
            "check",
            &format!("{root}/scenes"),
            &format!("{root}/scenes/examples"),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dir = common::temp_dir("check");
    let broken = dir.join("broken.ron");
    let source =
        std::fs::read_to_string(format!("{root}/scenes/examples/tutorial-skirmish.ron")).unwrap();
    let zone_line = source
        .lines()
        .position(|l| l.trim() == "zone: \"north-bank\",")
        .expect("a unit on the north bank")
        + 1;
    let source = source.replacen("zone: \"north-bank\",", "zone: \"nort-bank\",", 1);
    std::fs::write(&broken, source).unwrap();
    let out = xiaoling(&["check", broken.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("error: unknown zone `nort-bank`"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("broken.ron:{zone_line}:")),
        "line {zone_line}: {stderr}"
    );
    assert!(stderr.contains("did you mean \"north-bank\"?"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn simulate_takes_a_policy_per_side_and_refuses_a_shorthand_that_contradicts_them() {
    let args = |policies: &[&'static str]| {
        let mut args = vec![
            "simulate",
            "--scene",
            "false-cry",
            "--role",
            "zhang-chun",
            "--runs",
            "2",
            "--json",
        ];
        args.extend_from_slice(policies);
        args
    };
    let out = xiaoling(
        &args(&["--policy-player", "random", "--policy-other", "greedy"]),
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["policies"]["player"], "random");
    assert_eq!(json["policies"]["other"], "greedy");
    // One side given: the other stays historical; `--policy` sets both.
    let out = xiaoling(&args(&["--policy-other", "random"]), "");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["policies"]["player"], "historical");
    let out = xiaoling(&args(&["--policy", "random"]), "");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["policies"]["player"], "random");
    assert_eq!(json["policies"]["other"], "random");
    // The shorthand with a per-side policy: clap says which clash.
    let out = xiaoling(
        &args(&["--policy", "random", "--policy-other", "greedy"]),
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--policy <P>") && stderr.contains("--policy-other <P>"),
        "{stderr}"
    );
}

#[test]
fn simulate_on_one_thread_or_two_prints_the_same_report_and_says_how_fast_on_stderr() {
    let run = |threads: &'static str| {
        let out = xiaoling(
            &[
                "simulate",
                "--scene",
                "false-cry",
                "--role",
                "huang-taiji",
                "--runs",
                "40",
                "--policy",
                "random",
                "--threads",
                threads,
            ],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        out
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(text(&one.stdout), text(&two.stdout));
    assert!(text(&one.stdout).contains("40 runs from seed 1"));
    // stderr is a pipe here: no progress bar, only the closing line.
    let stderr = text(&one.stderr);
    assert!(
        stderr.starts_with("40 games in ") && stderr.contains(" s on 1 thread: "),
        "{stderr}"
    );
    assert!(stderr.trim_end().ends_with(" per thread"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(text(&two.stderr).contains(" s on 2 threads: "));
    // No threads at all is refused by the parser, naming the flag.
    let out = xiaoling(
        &[
            "simulate",
            "--scene",
            "false-cry",
            "--role",
            "huang-taiji",
            "--threads",
            "0",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--threads <N>"));
}

#[test]
fn play_takes_the_other_sides_policy_and_its_transcript_says_how_to_play_it_again() {
    let dir = common::temp_dir("policy-other");
    let transcript = dir.join("game.txt");
    let out = xiaoling(
        &[
            "play",
            "--scene",
            "false-cry",
            "--role",
            "huang-taiji",
            "--seed",
            "2",
            "--policy-other",
            "random",
            "--transcript",
            &transcript.display().to_string(),
        ],
        "quit\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let head = std::fs::read_to_string(&transcript).expect("a transcript");
    assert!(
        head.contains("--seed 2 --lang en --policy-other random\n"),
        "{head}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_battle_written_from_history_says_history_not_the_novel() {
    let input = format!("{}log\n", choose_first_and_wait());
    let out = xiaoling(
        &[
            "play", "--scene", "sarhu", "--role", "nurhaci", "--seed", "1",
        ],
        &input,
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("\nHistory\n"), "{stdout}");
    assert!(stdout.contains("(as in history)"), "{stdout}");
    assert!(!stdout.contains("novel"), "{stdout}");
    // A battle told from the novel says so.
    let out = xiaoling(
        &[
            "play",
            "--scene",
            "false-cry",
            "--role",
            "zhang-chun",
            "--seed",
            "1",
        ],
        &choose_first_and_wait(),
    );
    assert!(text(&out.stdout).contains("What the novel tells"));
}

#[test]
fn an_order_verb_alone_is_told_the_order_it_needs_and_help_keeps_its_column() {
    let out = xiaoling(
        &[
            "play", "--scene", "sarhu", "--role", "du-song", "--seed", "1",
        ],
        "rally\nattack sarhu\nhelp\n",
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("`order UNIT rally`"), "{stdout}");
    assert!(stdout.contains("`order UNIT attack sarhu`"), "{stdout}");
    // The long usage of `order` stands on a line of its own; the others keep
    // their descriptions beside them, in a column that leaves them room.
    assert!(
        stdout.contains("\n  order UNIT hold|advance ZONE|attack ZONE|withdraw|rally\n"),
        "{stdout}"
    );
    let look = stdout
        .lines()
        .find(|line| line.starts_with("  look "))
        .expect("help lists look");
    assert!(look.contains("the situation now, and the choice"), "{look}");
}

/// A run of quiet turns told after the turn that ends it keeps the line of
/// atmosphere of its own time: the broken bridge is not described before it
/// is blown.
#[test]
fn a_quiet_run_is_told_as_it_was_not_as_the_turn_after_it_left_the_world() {
    let out = xiaoling(
        &[
            "play",
            "--scene",
            "broken-bridge",
            "--role",
            "hong-chengchou",
            "--seed",
            "1",
        ],
        &"1\nwait\n".repeat(40),
    );
    let stdout = text(&out.stdout);
    let blown = stdout
        .find("three explosions")
        .expect("the bridge is blown");
    if let Some(stumps) = stdout.find("like stumps") {
        assert!(stumps > blown, "{stdout}");
    }
}

/// A choice made after the commander fell is his staff's, in the log.
#[test]
fn the_log_credits_the_staff_with_choices_made_after_the_commander_fell() {
    let out = xiaoling(
        &[
            "play", "--scene", "sarhu", "--role", "du-song", "--seed", "3",
        ],
        // Waits and first options until the battle is over (Du Song falls
        // somewhere on the way with seed 3; with seeds 1 and 2 he rides off
        // with his running vanguard since the charge at 25 and 1), then the
        // log.
        &format!("{}log\n", "wait\n1\n".repeat(25)),
    );
    let stdout = text(&out.stdout);
    let log = &stdout[stdout.rfind("> log").expect("the log")..];
    assert!(log.contains("★ Du Song: Cross now"), "{log}");
    assert!(log.contains("★ Du Song's staff: "), "{log}");
}

#[test]
fn sources_on_marks_the_novels_option_and_is_kept_with_the_save() {
    let saves = common::temp_dir("sources-setting");
    let folder = saves.path().display().to_string();
    let args = [
        "play",
        "--scene",
        "false-cry",
        "--role",
        "zhang-chun",
        "--seed",
        "3",
        "--saves",
        &folder,
    ];
    // Off at first: the options say nothing of the novel.
    let (_, plain, _) = common::run_text(&args, "look\nquit\n");
    assert!(!plain.contains("(the novel's choice)"), "{plain}");
    let (_, shown, err) = common::run_text(&args, "sources on\nsave mine\nquit\n");
    assert!(
        shown.contains("An option the novel or history took now says so before you choose"),
        "{shown}{err}"
    );
    let marked = shown.split("sources on").nth(1).expect("after the command");
    assert!(marked.contains("(the novel's choice)"), "{shown}");
    // A later game loads the save: the setting came with it.
    let load = ["play", "--load", "mine", "--saves", &folder];
    let (_, loaded, err) = common::run_text(&load, "look\nsources\nsources off\nlook\nquit\n");
    let (before, after) = loaded
        .split_once("> sources off")
        .expect("the command echoed");
    assert!(before.contains("(the novel's choice)"), "{loaded}{err}");
    assert!(before.contains("now says so"), "{loaded}");
    assert!(!after.contains("(the novel's choice)"), "{loaded}");
    // A word it does not know is said, and changes nothing.
    let (_, typo, _) = common::run_text(&args, "sources maybe\nquit\n");
    assert!(
        typo.contains("`sources` takes `on` or `off`, not `maybe`."),
        "{typo}"
    );
}

/// A failed save or load is said in the player's language: at the prompt
/// (a missing slot, a bad slot name) and from the command line
/// (`play --load` of a missing slot, exit 2).
#[test]
fn save_and_load_errors_are_said_in_chinese() {
    let out = xiaoling(
        &[
            "play",
            "--scene",
            "false-cry",
            "--role",
            "zhang-chun",
            "--seed",
            "1",
            "--lang",
            "zh-Hans",
        ],
        "load nosuch\nsave .hidden\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("没有名为「nosuch」的存档"), "{stdout}");
    assert!(
        stdout.contains("存档名「.hidden」不可用：名字不能以点开头"),
        "{stdout}"
    );
    assert!(!stdout.contains("no save in slot"), "{stdout}");
    assert!(!stdout.contains("not a valid slot name"), "{stdout}");

    let out = xiaoling(&["play", "--load", "nosuch", "--lang", "zh-Hant"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("沒有名為「nosuch」的存檔"), "{stderr}");
}
