//! The command table: one list drives parsing, `help`, Tab completion and hints.

use super::catalogue::{OrderHelp, Ui, command_help, order_help, ui};
use crate::scene::Locale;
use crate::scene::diag::closest;

pub use super::catalogue::Action;

pub struct CommandSpec {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub usage: &'static str,
    pub action: Action,
    /// How many words may follow the command.
    pub max_args: usize,
}

pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "look",
        aliases: &["l"],
        usage: "look",
        max_args: 0,
        action: Action::Look,
    },
    CommandSpec {
        name: "status",
        aliases: &["s", "st"],
        usage: "status",
        max_args: 0,
        action: Action::Status,
    },
    CommandSpec {
        name: "map",
        aliases: &["m"],
        usage: "map [list]",
        max_args: 1,
        action: Action::Map,
    },
    CommandSpec {
        name: "next",
        aliases: &["n"],
        usage: "next [N]",
        max_args: 1,
        action: Action::Next,
    },
    CommandSpec {
        name: "wait",
        aliases: &[],
        usage: "wait",
        action: Action::Wait,
        max_args: 0,
    },
    CommandSpec {
        name: "order",
        aliases: &["o"],
        usage: "order UNIT hold|advance ZONE|attack ZONE|withdraw|rally",
        action: Action::Order,
        max_args: usize::MAX,
    },
    CommandSpec {
        name: "orders",
        aliases: &[],
        usage: "orders",
        action: Action::Orders,
        max_args: 0,
    },
    CommandSpec {
        name: "report",
        aliases: &["r"],
        usage: "report",
        action: Action::Report,
        max_args: 0,
    },
    CommandSpec {
        name: "log",
        aliases: &[],
        usage: "log",
        max_args: 0,
        action: Action::Log,
    },
    CommandSpec {
        name: "why",
        aliases: &["w"],
        usage: "why",
        max_args: 0,
        action: Action::Why,
    },
    CommandSpec {
        name: "save",
        aliases: &[],
        usage: "save [slot]",
        max_args: 1,
        action: Action::Save,
    },
    CommandSpec {
        name: "load",
        aliases: &[],
        usage: "load [slot]",
        max_args: 1,
        action: Action::Load,
    },
    CommandSpec {
        name: "saves",
        aliases: &[],
        usage: "saves",
        max_args: 0,
        action: Action::Saves,
    },
    CommandSpec {
        name: "reload",
        aliases: &[],
        usage: "reload",
        max_args: 0,
        action: Action::Reload,
    },
    CommandSpec {
        name: "undo",
        aliases: &["u"],
        usage: "undo",
        max_args: 0,
        action: Action::Undo,
    },
    CommandSpec {
        name: "redo",
        aliases: &[],
        usage: "redo",
        max_args: 0,
        action: Action::Redo,
    },
    CommandSpec {
        name: "sources",
        aliases: &[],
        usage: "sources [on|off]",
        max_args: 1,
        action: Action::Sources,
    },
    CommandSpec {
        name: "lang",
        aliases: &[],
        usage: "lang [en|zh-Hans|zh-Hant]",
        max_args: 1,
        action: Action::Lang,
    },
    CommandSpec {
        name: "help",
        aliases: &["h", "?"],
        usage: "help [COMMAND|ORDER]",
        max_args: 1,
        action: Action::Help,
    },
    CommandSpec {
        name: "quit",
        aliases: &["q", "exit"],
        usage: "quit",
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
    let head = ui(locale, Ui::HelpHead);
    out.push_str(&super::wrap::wrap(head, columns, ""));
    out.push('\n');
    let beside = 2 + width + 2;
    for spec in COMMANDS {
        let help = command_help(locale, spec.action);
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
    let topic = clean(topic).to_lowercase();
    let verb = match topic.as_str() {
        "坚守" | "堅守" => "hold",
        "前进" | "前進" | "进至" | "進至" => "advance",
        "进攻" | "進攻" => "attack",
        "撤退" => "withdraw",
        "收拢" | "收攏" => "rally",
        other => other,
    };
    let say = |text: &str| super::wrap::wrap(&locale.zh_string(text.to_string()), columns, "");
    let orders = [
        ("hold", OrderHelp::Hold),
        ("advance", OrderHelp::Advance),
        ("attack", OrderHelp::Attack),
        ("withdraw", OrderHelp::Withdraw),
        ("rally", OrderHelp::Rally),
    ];
    if let Some((_, key)) = orders.iter().find(|(v, _)| *v == verb) {
        return Some(say(order_help(locale, *key)));
    }
    if verb == "order" {
        let intro = order_help(locale, OrderHelp::Intro);
        let mut out = vec![say(intro)];
        for (_, key) in orders {
            out.push(super::drawn::hang(
                &locale.zh_string(order_help(locale, key).to_string()),
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
    let help = command_help(locale, spec.action);
    let mut out = super::wrap::wrap(spec.usage, columns, "");
    out.push('\n');
    out.push_str(&super::wrap::wrap(
        &super::wrap::capitalize(help),
        columns,
        "  ",
    ));
    if spec.action == Action::Order {
        return help_topic(locale, "order", columns);
    }
    Some(out)
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
    fn every_command_has_help_in_every_language() {
        for spec in COMMANDS {
            for locale in Locale::ALL {
                assert!(
                    !command_help(locale, spec.action).is_empty(),
                    "{} in {locale:?}",
                    spec.name
                );
            }
        }
    }
}
