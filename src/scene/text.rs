//! Locales and localized text lookup.

use super::hant;
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

    /// A fixed interface string, written in English or Simplified Chinese, as
    /// this locale shows it: Traditional for zh-Hant, else unchanged.
    pub fn zh(self, text: &'static str) -> &'static str {
        match self {
            Locale::ZhHant => hant::to_traditional_static(text),
            _ => text,
        }
    }

    /// [`Locale::zh`] for a message put together at run time.
    pub fn zh_string(self, text: String) -> String {
        match self {
            Locale::ZhHant => hant::to_traditional(&text),
            _ => text,
        }
    }
}

impl Text {
    /// The text in `locale`. zh-Hant is the authored Traditional text, else the
    /// zh-Hans text converted to Traditional ([`super::hant`]); any locale
    /// falls back to English, then to whatever is there.
    pub fn get(&self, locale: Locale) -> &str {
        match self {
            Text::Plain(text) if locale == Locale::ZhHant && !text.is_ascii() => {
                hant::to_traditional_cached(text)
            }
            Text::Plain(text) => text,
            Text::Localized(map) => {
                if locale == Locale::ZhHant {
                    if let Some(text) = map.get("zh-Hant") {
                        return text;
                    }
                    if let Some(text) = map.get("zh-Hans") {
                        return hant::scene_text(text);
                    }
                }
                let chain: &[&str] = match locale {
                    Locale::En | Locale::ZhHant => &["en"],
                    Locale::ZhHans => &["zh-Hans", "en"],
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
