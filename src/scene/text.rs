//! Locales and localized text lookup.

use super::raw::Text;
use serde::{Deserialize, Serialize};

/// A locale the engine can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Locale {
    #[default]
    En,
    ZhHans,
    ZhHant,
}

impl Locale {
    pub const ALL: [Locale; 3] = [Locale::En, Locale::ZhHans, Locale::ZhHant];

    /// The tag used in scene files and on the command line.
    pub fn tag(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::ZhHans => "zh-Hans",
            Locale::ZhHant => "zh-Hant",
        }
    }

    pub fn parse(tag: &str) -> Option<Locale> {
        Locale::ALL
            .into_iter()
            .find(|locale| locale.tag().eq_ignore_ascii_case(tag))
    }

    pub fn is_chinese(self) -> bool {
        self != Locale::En
    }
}

impl Text {
    /// The text in `locale`: zh-Hant falls back to zh-Hans, anything to English,
    /// then to whatever is there.
    pub fn get(&self, locale: Locale) -> &str {
        match self {
            Text::Plain(text) => text,
            Text::Localized(map) => {
                let chain: &[&str] = match locale {
                    Locale::En => &["en"],
                    Locale::ZhHans => &["zh-Hans", "en"],
                    Locale::ZhHant => &["zh-Hant", "zh-Hans", "en"],
                };
                chain
                    .iter()
                    .find_map(|tag| map.get(*tag))
                    .or_else(|| map.values().next())
                    .map(String::as_str)
                    .unwrap_or("")
            }
        }
    }

    /// Whether the text is authored for `tag` (a plain string counts for every locale).
    pub fn has(&self, tag: &str) -> bool {
        match self {
            Text::Plain(_) => true,
            Text::Localized(map) => map.contains_key(tag),
        }
    }

    pub fn tags(&self) -> Vec<&str> {
        match self {
            Text::Plain(_) => Vec::new(),
            Text::Localized(map) => map.keys().map(String::as_str).collect(),
        }
    }
}
