//! The command table: one list drives parsing, `help`, Tab completion and hints.

use crate::scene::Locale;
use crate::scene::diag::closest;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Look,
    Status,
    Map,
    Next,
    Wait,
    Report,
    Order,
    Orders,
    Log,
    Why,
    Save,
    Load,
    Saves,
    Undo,
    Reload,
    Redo,
    Sources,
    Lang,
    Help,
    Quit,
}

pub struct CommandSpec {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub usage: &'static str,
    pub help_en: &'static str,
    pub help_zh: &'static str,
    pub action: Action,
    /// How many words may follow the command.
    pub max_args: usize,
}

pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "look",
        aliases: &["l"],
        usage: "look",
        help_en: "the situation now, and the choice if one is waiting",
        help_zh: "眼下的局势，以及待决的抉择",
        max_args: 0,
        action: Action::Look,
    },
    CommandSpec {
        name: "status",
        aliases: &["s", "st"],
        usage: "status",
        help_en: "the units you can see: men, state, morale",
        help_zh: "可见各部：兵力、状态、士气",
        max_args: 0,
        action: Action::Status,
    },
    CommandSpec {
        name: "map",
        aliases: &["m"],
        usage: "map [list]",
        help_en: "the field drawn: roads, rivers, smoke, fire, your men and the enemy as you know him; `map list` lists it",
        help_zh: "战场图：道路、河流、烟火、我军与所知敌情；map list 逐处列出",
        max_args: 1,
        action: Action::Map,
    },
    CommandSpec {
        name: "next",
        aliases: &["n"],
        usage: "next [N]",
        help_en: "let a turn pass (so does Enter), or N turns, stopping early if something needs you",
        help_zh: "静待一回合，或N回合（有事即停）；回车亦可",
        max_args: 1,
        action: Action::Next,
    },
    CommandSpec {
        name: "wait",
        aliases: &[],
        usage: "wait",
        help_en: "let turns pass until something needs you: a choice, word from the field, your men attacked or breaking, the enemy in sight",
        help_zh: "静待，直到有事：待决之事、军情、我军遇袭或溃散、发现敌军",
        action: Action::Wait,
        max_args: 0,
    },
    CommandSpec {
        name: "order",
        aliases: &["o"],
        usage: "order UNIT hold|advance ZONE|attack ZONE|withdraw|rally",
        help_en: "send an order to a unit of yours (by its id or name); a courier carries it unless you stand with it",
        help_zh: "向本部某营下令（用编号或名称）：坚守、前进 某地、进攻 某地、撤退、收拢；不在身边者由传令兵送达",
        action: Action::Order,
        max_args: usize::MAX,
    },
    CommandSpec {
        name: "orders",
        aliases: &[],
        usage: "orders",
        help_en: "what each of your units is doing, and the orders still on their way",
        help_zh: "各部现行军令与在途军令",
        action: Action::Orders,
        max_args: 0,
    },
    CommandSpec {
        name: "report",
        aliases: &["r"],
        usage: "report",
        help_en: "the last turn in full: every unit that moved, fought, wavered",
        help_zh: "上一回合详报：各部的行止、交战与士气",
        action: Action::Report,
        max_args: 0,
    },
    CommandSpec {
        name: "log",
        aliases: &[],
        usage: "log",
        help_en: "the choices and events so far",
        help_zh: "至今的抉择与事件",
        max_args: 0,
        action: Action::Log,
    },
    CommandSpec {
        name: "why",
        aliases: &["w"],
        usage: "why",
        help_en: "what moved your units' morale last turn",
        help_zh: "上一回合各部士气起落之因",
        max_args: 0,
        action: Action::Why,
    },
    CommandSpec {
        name: "save",
        aliases: &[],
        usage: "save [slot]",
        help_en: "save the game (default slot: quick)",
        help_zh: "存档（默认槽位 quick）",
        max_args: 1,
        action: Action::Save,
    },
    CommandSpec {
        name: "load",
        aliases: &[],
        usage: "load [slot]",
        help_en: "load a saved game",
        help_zh: "读档",
        max_args: 1,
        action: Action::Load,
    },
    CommandSpec {
        name: "saves",
        aliases: &[],
        usage: "saves",
        help_en: "list saved games",
        help_zh: "列出存档",
        max_args: 0,
        action: Action::Saves,
    },
    CommandSpec {
        name: "reload",
        aliases: &[],
        usage: "reload",
        help_en: "for scene authors: read the battle's file again and replay this game's commands on it",
        help_zh: "供剧本作者：重读本战剧本文件，并在新版上重演本局的指令",
        max_args: 0,
        action: Action::Reload,
    },
    CommandSpec {
        name: "undo",
        aliases: &["u"],
        usage: "undo",
        help_en: "take back the last command (a turn, `next 5` or `wait` whole, a choice, an order)",
        help_zh: "悔一步：收回上一条命令（一回合、整个 next 5 或 wait、一次抉择、一道军令）",
        max_args: 0,
        action: Action::Undo,
    },
    CommandSpec {
        name: "redo",
        aliases: &[],
        usage: "redo",
        help_en: "give back what `undo` took back",
        help_zh: "复原：重做刚悔掉的那一步",
        max_args: 0,
        action: Action::Redo,
    },
    CommandSpec {
        name: "sources",
        aliases: &[],
        usage: "sources [on|off]",
        help_en: "whether each option says which one the novel or history took, before you choose (off at first; kept with the game)",
        help_zh: "抉择前是否在选项后标出书中之选或史实之选（起初不标；随本局存档）",
        max_args: 1,
        action: Action::Sources,
    },
    CommandSpec {
        name: "lang",
        aliases: &[],
        usage: "lang [en|zh-Hans|zh-Hant]",
        help_en: "show or change the language",
        help_zh: "查看或切换语言",
        max_args: 1,
        action: Action::Lang,
    },
    CommandSpec {
        name: "help",
        aliases: &["h", "?"],
        usage: "help [COMMAND|ORDER]",
        help_en: "this list; `help order`, `help rally`, `help map`… say more",
        help_zh: "本帮助；help order、help rally、help map 等详述",
        max_args: 1,
        action: Action::Help,
    },
    CommandSpec {
        name: "quit",
        aliases: &["q", "exit"],
        usage: "quit",
        help_en: "leave the game (it is autosaved)",
        help_zh: "退出（自动存档）",
        max_args: 0,
        action: Action::Quit,
    },
];

/// What a line typed at the prompt means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    Empty,
    Number(usize),
    Command(Action, Vec<String>),
    Unknown {
        word: String,
        suggestion: Option<&'static str>,
    },
    /// Digits, but too many to be an option.
    BadNumber(String),
    /// A command (or a number) followed by words it does not take.
    ExtraWords {
        command: String,
        usage: &'static str,
        extra: String,
    },
}

/// Words longer than this get no "did you mean": no command is near them,
/// and comparing a huge word would take long.
pub const MAX_SUGGEST_CHARS: usize = 16;

/// The line as typed, made safe to parse and to show: escape sequences and
/// other control characters removed, full-width digits and letters (as a
/// Chinese keyboard types them) made ASCII, the full-width space a space.
pub fn clean(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => {
                // CSI (ESC [ … final) or a two-character escape: drop it whole.
                if chars.next_if_eq(&'[').is_some() {
                    for c in chars.by_ref() {
                        if ('\u{40}'..='\u{7e}').contains(&c) {
                            break;
                        }
                    }
                } else {
                    chars.next();
                }
            }
            '\t' => out.push(' '),
            '\u{3000}' => out.push(' '),
            c if c.is_control() => {}
            // Full-width ASCII (！ to ～) to ASCII: ｓａｖｅ １ → save 1.
            c @ '\u{ff01}'..='\u{ff5e}' => {
                out.push(char::from_u32(c as u32 - 0xfee0).unwrap_or(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// A word as it may be shown back: at most `max` characters, then "…".
pub fn shorten(word: &str, max: usize) -> String {
    let mut chars = word.chars();
    let shown: String = chars.by_ref().take(max).collect();
    if chars.next().is_some() {
        format!("{shown}…")
    } else {
        shown
    }
}

pub fn parse(line: &str) -> Parsed {
    let line = clean(line);
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Parsed::Empty;
    };
    let args: Vec<String> = words.map(str::to_string).collect();
    let extra = |command: &str, usage: &'static str, allowed: usize| {
        (args.len() > allowed).then(|| Parsed::ExtraWords {
            command: command.to_string(),
            usage,
            extra: shorten(&args[allowed..].join(" "), 30),
        })
    };
    if first.chars().all(|c| c.is_ascii_digit()) {
        if let Some(parsed) = extra(first, "NUMBER", 0) {
            return parsed;
        }
        return match first.parse::<usize>() {
            Ok(number) => Parsed::Number(number),
            Err(_) => Parsed::BadNumber(shorten(first, 24)),
        };
    }
    let lower = first.to_lowercase();
    let spec = COMMANDS
        .iter()
        .find(|c| c.name == lower || c.aliases.contains(&lower.as_str()))
        .or_else(|| {
            // A unique prefix is enough ("sta" → status).
            let mut matches = COMMANDS.iter().filter(|c| c.name.starts_with(&lower));
            match (matches.next(), matches.next()) {
                (Some(only), None) => Some(only),
                _ => None,
            }
        });
    if let Some(spec) = spec {
        if let Some(parsed) = extra(spec.name, spec.usage, spec.max_args) {
            return parsed;
        }
        return Parsed::Command(spec.action, args);
    }
    let suggestion = if lower.chars().count() <= MAX_SUGGEST_CHARS {
        closest(&lower, COMMANDS.iter().map(|c| c.name))
    } else {
        None
    };
    Parsed::Unknown {
        word: shorten(first, 24),
        suggestion,
    }
}

/// The command list, wrapped to `columns`: the help of a command that does
/// not fit beside its usage goes on the lines below it.
pub fn help_text(locale: Locale, columns: usize) -> String {
    // The descriptions stand in a column after the usual usages; a usage
    // longer than USAGE_COLUMN (`order UNIT hold|advance ZONE|…`) has its
    // description on the lines below it, so that it does not squeeze every
    // other description into a narrow strip.
    const USAGE_COLUMN: usize = 24;
    let width = COMMANDS
        .iter()
        .map(|c| c.usage.len())
        .filter(|len| *len <= USAGE_COLUMN)
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    let head = match locale {
        Locale::En => {
            "Type a number to choose an option; Enter lets a turn pass. Commands (`help COMMAND` says more):"
        }
        _ => locale.zh("输入数字作出抉择；回车静待一回合。命令（help 命令名 详述）："),
    };
    out.push_str(&super::wrap::wrap(head, columns, ""));
    out.push('\n');
    let beside = 2 + width + 2;
    for spec in COMMANDS {
        let help = if locale == Locale::En {
            spec.help_en
        } else {
            locale.zh(spec.help_zh)
        };
        if beside + 20 <= columns {
            let wrapped = super::wrap::wrap(help, columns, &" ".repeat(beside));
            if spec.usage.len() > width {
                out.push_str(&super::wrap::wrap(spec.usage, columns, "  "));
                out.push_str(&format!("\n{wrapped}\n"));
                continue;
            }
            out.push_str(&format!(
                "  {:width$}  {}\n",
                spec.usage,
                wrapped.trim_start()
            ));
        } else {
            out.push_str(&super::wrap::wrap(spec.usage, columns, "  "));
            out.push('\n');
            out.push_str(&super::wrap::wrap(help, columns, "      "));
            out.push('\n');
        }
    }
    out
}

/// What `help TOPIC` says: an order (`hold`, `advance`, …, or `order`
/// for them all) or a command. None for a topic it does not know.
pub fn help_topic(locale: Locale, topic: &str, columns: usize) -> Option<String> {
    let zh = locale.is_chinese();
    let topic = clean(topic).to_lowercase();
    let orders_en: &[(&str, &str)] = &[
        (
            "hold",
            "`order UNIT hold`: stay where it stands and fight there; in cover (reeds, wagons, walls) it loses fewer men. Refused by a unit that is running.",
        ),
        (
            "advance",
            "`order UNIT advance PLACE`: march to the place by the shortest road, a zone a turn, fighting what it meets on the way; fords and bridges pass only so many men a turn. Refused by a unit that is running.",
        ),
        (
            "attack",
            "`order UNIT attack PLACE`: as `advance`, but the men go in with their blood up (their morale rises), and the enemy, if he sees the thrust, sends his nearest fresh reserve to meet it. Refused by a unit that is running.",
        ),
        (
            "withdraw",
            "`order UNIT withdraw`: fall back to your side's camp (where routed men run to) by the shortest road; if the enemy is on it, his horse may press the retreat. Refused by a unit that is running.",
        ),
        (
            "rally",
            "`order UNIT rally`: a steady or wavering unit falls back on you, wherever your commander stands, and stays by him. A unit that is already running will not listen to any order: it is rallied only by drums it can hear (a commander with drums nearby) or when it gets its breath back out of the fight.",
        ),
    ];
    let orders_zh: &[(&str, &str)] = &[
        (
            "hold",
            "order 营 hold（坚守）：原地不动，就地接战；有掩蔽（芦苇、车营、城墙）之处折损较少。正在溃逃的部队不听此令。",
        ),
        (
            "advance",
            "order 营 advance 地点（前进）：循最近的道路开往该地，每回合走一段，途中遇敌即战；渡口与桥每回合只能过有限的人。正在溃逃的部队不听此令。",
        ),
        (
            "attack",
            "order 营 attack 地点（进攻）：与前进相同，但全军鼓勇而进（士气上升）；敌军若看见这一击，会派最近的生力军来迎。正在溃逃的部队不听此令。",
        ),
        (
            "withdraw",
            "order 营 withdraw（撤退）：循最近的道路退回本方大营（溃兵奔逃之处）；若与敌军相接，敌骑可能追击。正在溃逃的部队不听此令。",
        ),
        (
            "rally",
            "order 营 rally（收拢）：严整或动摇的部队向你靠拢，到你所在之处，留在你身边。已在溃逃的部队什么命令都不听：只有听得见鼓声（附近有带鼓的主将）或脱离战斗喘过气来，才能收拢。",
        ),
    ];
    let orders = if zh { orders_zh } else { orders_en };
    let verb = match topic.as_str() {
        "坚守" | "堅守" => "hold",
        "前进" | "前進" | "进至" | "進至" => "advance",
        "进攻" | "進攻" => "attack",
        "撤退" => "withdraw",
        "收拢" | "收攏" => "rally",
        other => other,
    };
    let say = |text: &str| super::wrap::wrap(&locale.zh_string(text.to_string()), columns, "");
    if let Some((_, text)) = orders.iter().find(|(v, _)| *v == verb) {
        return Some(say(text));
    }
    if verb == "order" {
        let intro = if zh {
            "order 营 命令 [地点]：向本部某营下令。营可用标签（orders 与地图在名字后列出）或名字，中英文皆可；地点可用地图上的字母（A、B……）、编号或名字。你所在之处的部队立即奉令；别处的由传令兵送去，要走几回合（经浓烟更慢，部队动摇时再慢一回合），送到之前部队若已溃逃，命令作废。orders 列出各营现行军令、在途军令与预计到达的回合。"
        } else {
            "`order UNIT VERB [PLACE]` sends an order to a unit of yours. UNIT is the unit's label (shown after its name in `orders` and on the map) or its name, in any language; PLACE is the letter the map prints (A, B, …), its id or its name. Units where your commander stands obey at once; the others when a courier reaches them, which takes turns (longer through thick smoke, a turn more for a wavering unit); a unit that breaks before the courier arrives never gets the order. `orders` shows each unit's order, the orders on their way and when they arrive. The orders:"
        };
        let mut out = vec![say(intro)];
        for (_, text) in orders {
            out.push(super::drawn::hang(
                &locale.zh_string(text.to_string()),
                columns,
                "  ",
                "    ",
            ));
        }
        return Some(out.join("\n"));
    }
    let spec = COMMANDS
        .iter()
        .find(|c| c.name == verb || c.aliases.contains(&verb))?;
    let help = if zh {
        locale.zh(spec.help_zh)
    } else {
        spec.help_en
    };
    let mut out = super::wrap::wrap(spec.usage, columns, "");
    out.push('\n');
    out.push_str(&super::wrap::wrap(&capitalize_first(help), columns, "  "));
    if spec.action == Action::Order {
        return help_topic(locale, "order", columns);
    }
    Some(out)
}

fn capitalize_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => format!("{}{}", c.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

/// The usage line of the command the line starts with, for hints.
pub fn usage_for(line: &str) -> Option<&'static str> {
    let word = line.split_whitespace().next()?;
    COMMANDS
        .iter()
        .find(|c| c.name == word || c.aliases.contains(&word))
        .map(|c| c.usage)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_numbers_commands_prefixes_and_typos() {
        assert_eq!(parse("  "), Parsed::Empty);
        assert_eq!(parse("2"), Parsed::Number(2));
        assert_eq!(
            parse("save slot1"),
            Parsed::Command(Action::Save, vec!["slot1".into()])
        );
        assert_eq!(parse("sta"), Parsed::Command(Action::Status, vec![]));
        assert_eq!(parse("STATUS"), Parsed::Command(Action::Status, vec![]));
        assert_eq!(
            parse("stauts"),
            Parsed::Unknown {
                word: "stauts".into(),
                suggestion: Some("status")
            }
        );
        assert_eq!(
            parse("xyzzy"),
            Parsed::Unknown {
                word: "xyzzy".into(),
                suggestion: None
            }
        );
    }

    #[test]
    fn input_rules_extra_words_numbers_and_control_characters() {
        assert_eq!(
            parse("save my slot"),
            Parsed::ExtraWords {
                command: "save".into(),
                usage: "save [slot]",
                extra: "slot".into()
            }
        );
        assert!(matches!(parse("save a b"), Parsed::ExtraWords { .. }));
        assert!(matches!(parse("look around"), Parsed::ExtraWords { .. }));
        assert!(matches!(parse("2 3"), Parsed::ExtraWords { .. }));
        assert_eq!(parse("１"), Parsed::Number(1));
        assert_eq!(parse("　２　"), Parsed::Number(2));
        assert_eq!(
            parse("99999999999999999999"),
            Parsed::BadNumber("99999999999999999999".into())
        );
        assert!(matches!(parse("+1"), Parsed::Unknown { .. }));
        assert!(matches!(parse("-1"), Parsed::Unknown { .. }));
        assert_eq!(
            parse("\u{1b}[31mlook\u{1b}[0m"),
            Parsed::Command(Action::Look, vec![])
        );
        assert_eq!(parse("lo\u{7}ok"), Parsed::Command(Action::Look, vec![]));
        assert_eq!(clean("a\u{1b}[2Jb\u{0}c\u{1b}Od"), "abcd");
        // A huge word gets no suggestion and is shown cut short.
        let huge = "x".repeat(10_000_000);
        match parse(&huge) {
            Parsed::Unknown { word, suggestion } => {
                assert_eq!(suggestion, None);
                assert_eq!(word.chars().count(), 25);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_command_has_help_in_both_languages() {
        for spec in COMMANDS {
            assert!(
                !spec.help_en.is_empty() && !spec.help_zh.is_empty(),
                "{}",
                spec.name
            );
        }
    }
}
