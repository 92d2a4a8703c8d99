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
}

pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "look",
        aliases: &["l"],
        usage: "look",
        help_en: "the situation now, and the choice if one is waiting",
        help_zh: "眼下的局势，以及待决的抉择",
        action: Action::Look,
    },
    CommandSpec {
        name: "status",
        aliases: &["s", "st"],
        usage: "status",
        help_en: "the units you can see: men, state, morale",
        help_zh: "可见各部：兵力、状态、士气",
        action: Action::Status,
    },
    CommandSpec {
        name: "map",
        aliases: &["m"],
        usage: "map",
        help_en: "the field: zones, smoke, fire and the units you can see",
        help_zh: "战场：各处地段、烟火与可见部队",
        action: Action::Map,
    },
    CommandSpec {
        name: "next",
        aliases: &["n"],
        usage: "next [N]",
        help_en: "let a turn pass (so does Enter), or N turns, stopping early if something needs you",
        help_zh: "静待一回合，或N回合（有事即停）；回车亦可",
        action: Action::Next,
    },
    CommandSpec {
        name: "wait",
        aliases: &[],
        usage: "wait",
        help_en: "let turns pass until something needs you: a choice, word from the field, your men attacked or breaking, the enemy in sight",
        help_zh: "静待，直到有事：待决之事、军情、我军遇袭或溃散、发现敌军",
        action: Action::Wait,
    },
    CommandSpec {
        name: "order",
        aliases: &["o"],
        usage: "order UNIT hold|advance ZONE|attack ZONE|withdraw|rally",
        help_en: "send an order to a unit of yours (by its id or name); a courier carries it unless you stand with it",
        help_zh: "向本部某营下令（用编号或名称）：坚守、前进 某地、进攻 某地、撤退、收拢；不在身边者由传令兵送达",
        action: Action::Order,
    },
    CommandSpec {
        name: "orders",
        aliases: &[],
        usage: "orders",
        help_en: "what each of your units is doing, and the orders still on their way",
        help_zh: "各部现行军令与在途军令",
        action: Action::Orders,
    },
    CommandSpec {
        name: "report",
        aliases: &["r"],
        usage: "report",
        help_en: "the last turn in full: every unit that moved, fought, wavered",
        help_zh: "上一回合详报：各部的行止、交战与士气",
        action: Action::Report,
    },
    CommandSpec {
        name: "log",
        aliases: &[],
        usage: "log",
        help_en: "the choices and events so far",
        help_zh: "至今的抉择与事件",
        action: Action::Log,
    },
    CommandSpec {
        name: "why",
        aliases: &["w"],
        usage: "why",
        help_en: "what moved your units' morale last turn",
        help_zh: "上一刻各部士气起落之因",
        action: Action::Why,
    },
    CommandSpec {
        name: "save",
        aliases: &[],
        usage: "save [slot]",
        help_en: "save the game (default slot: quick)",
        help_zh: "存档（默认槽位 quick）",
        action: Action::Save,
    },
    CommandSpec {
        name: "load",
        aliases: &[],
        usage: "load [slot]",
        help_en: "load a saved game",
        help_zh: "读档",
        action: Action::Load,
    },
    CommandSpec {
        name: "saves",
        aliases: &[],
        usage: "saves",
        help_en: "list saved games",
        help_zh: "列出存档",
        action: Action::Saves,
    },
    CommandSpec {
        name: "undo",
        aliases: &["u"],
        usage: "undo",
        help_en: "take back the last turn or choice",
        help_zh: "悔一步",
        action: Action::Undo,
    },
    CommandSpec {
        name: "lang",
        aliases: &[],
        usage: "lang [en|zh-Hans|zh-Hant]",
        help_en: "show or change the language",
        help_zh: "查看或切换语言",
        action: Action::Lang,
    },
    CommandSpec {
        name: "help",
        aliases: &["h", "?"],
        usage: "help",
        help_en: "this list",
        help_zh: "本帮助",
        action: Action::Help,
    },
    CommandSpec {
        name: "quit",
        aliases: &["q", "exit"],
        usage: "quit",
        help_en: "leave the game (it is autosaved)",
        help_zh: "退出（自动存档）",
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
}

pub fn parse(line: &str) -> Parsed {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Parsed::Empty;
    };
    let args: Vec<String> = words.map(str::to_string).collect();
    if let Ok(number) = first.parse::<usize>() {
        return Parsed::Number(number);
    }
    let lower = first.to_lowercase();
    if let Some(spec) = COMMANDS
        .iter()
        .find(|c| c.name == lower || c.aliases.contains(&lower.as_str()))
    {
        return Parsed::Command(spec.action, args);
    }
    // A unique prefix is enough ("sta" → status).
    let matches: Vec<&CommandSpec> = COMMANDS
        .iter()
        .filter(|c| c.name.starts_with(&lower))
        .collect();
    if matches.len() == 1 {
        return Parsed::Command(matches[0].action, args);
    }
    Parsed::Unknown {
        word: first.to_string(),
        suggestion: closest(&lower, COMMANDS.iter().map(|c| c.name)),
    }
}

pub fn help_text(locale: Locale) -> String {
    let width = COMMANDS.iter().map(|c| c.usage.len()).max().unwrap_or(0);
    let mut out = String::new();
    out.push_str(match locale {
        Locale::En => "Type a number to choose an option. Commands:\n",
        _ => locale.zh("输入数字作出抉择。命令：\n"),
    });
    for spec in COMMANDS {
        let help = if locale == Locale::En {
            spec.help_en
        } else {
            locale.zh(spec.help_zh)
        };
        out.push_str(&format!("  {:width$}  {help}\n", spec.usage));
    }
    out
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
