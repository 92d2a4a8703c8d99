//! Locales and localized text lookup.

use super::hant;
use super::raw::Text;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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

    /// A fixed interface string, written in English or Simplified Chinese, as
    /// this locale shows it: Traditional for zh-Hant (with the interface's
    /// Taiwan terms, `scene/hant/InterfaceTerms.txt`), else unchanged.
    pub fn zh(self, text: &'static str) -> &'static str {
        match self {
            Locale::ZhHant => hant::to_traditional_static(text),
            _ => text,
        }
    }

    /// [`Locale::zh`] for a message put together at run time.
    pub fn zh_string(self, text: String) -> String {
        match self {
            Locale::ZhHant => hant::interface_text(&text),
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
                    .find_map(|tag| map.get(tag))
                    .or_else(|| map.values().next())
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
            Text::Localized(map) => map.keys().collect(),
        }
    }
}

/// The texts of a [`Text`] by locale tag, in the order of their tags (as a
/// `BTreeMap<String, String>` keeps them, and read and written as one), held
/// in two allocations whatever the number of locales: every tag and text one
/// after another in one string, and where each ends. A unit's name in two
/// locales takes about fifty bytes so, where a map took over five hundred.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct LocaleMap {
    /// Tag, text, tag, text, … with nothing between them.
    chars: Box<str>,
    /// Where each tag and each text ends in `chars`: two to an entry.
    ends: Box<[u32]>,
}

impl LocaleMap {
    /// The entries of `entries` (tags sorted, each once), in one block.
    fn from_sorted<'a>(entries: impl Iterator<Item = (&'a str, &'a str)> + Clone) -> LocaleMap {
        let len = entries
            .clone()
            .map(|(tag, text)| tag.len() + text.len())
            .sum();
        let mut chars = String::with_capacity(len);
        let mut ends = Vec::with_capacity(2 * entries.clone().count());
        for (tag, text) in entries {
            for part in [tag, text] {
                chars.push_str(part);
                // Texts come from files read with a cap far below 4 GiB; an
                // end past it would only make the lookups below find nothing.
                ends.push(u32::try_from(chars.len()).unwrap_or(u32::MAX));
            }
        }
        LocaleMap {
            chars: chars.into_boxed_str(),
            ends: ends.into_boxed_slice(),
        }
    }

    /// Tag and text of each entry, tags in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + Clone + '_ {
        self.ends.chunks_exact(2).scan(0, |start, ends| {
            let (tag_end, end) = (ends[0] as usize, ends[1] as usize);
            let tag = self.chars.get(*start..tag_end).unwrap_or("");
            let text = self.chars.get(tag_end..end).unwrap_or("");
            *start = end;
            Some((tag, text))
        })
    }

    pub fn len(&self) -> usize {
        self.ends.len() / 2
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> + '_ {
        self.iter().map(|(tag, _)| tag)
    }

    pub fn values(&self) -> impl Iterator<Item = &str> + '_ {
        self.iter().map(|(_, text)| text)
    }

    /// The text for `tag`.
    pub fn get(&self, tag: &str) -> Option<&str> {
        self.iter().find(|(t, _)| *t == tag).map(|(_, text)| text)
    }

    pub fn contains_key(&self, tag: &str) -> bool {
        self.get(tag).is_some()
    }

    /// Sets the text for `tag` (replacing the one there).
    pub fn insert(&mut self, tag: &str, text: &str) {
        let mut map = self.to_map();
        map.insert(tag.to_string(), text.to_string());
        *self = LocaleMap::from(&map);
    }

    /// Reads the entries of `map` as a `BTreeMap<String, String>` would
    /// (the same strings taken, a tag written twice keeping its last text).
    pub fn read_map<'de, A: serde::de::MapAccess<'de>>(map: A) -> Result<LocaleMap, A::Error> {
        serde::de::Visitor::visit_map(Entries, map)
    }

    /// The same entries as a map.
    pub fn to_map(&self) -> BTreeMap<String, String> {
        self.iter()
            .map(|(tag, text)| (tag.to_string(), text.to_string()))
            .collect()
    }
}

impl From<&BTreeMap<String, String>> for LocaleMap {
    fn from(map: &BTreeMap<String, String>) -> Self {
        LocaleMap::from_sorted(map.iter().map(|(tag, text)| (tag.as_str(), text.as_str())))
    }
}

impl From<BTreeMap<String, String>> for LocaleMap {
    fn from(map: BTreeMap<String, String>) -> Self {
        LocaleMap::from(&map)
    }
}

/// As the map it stands for: `{"en": "…", "zh-Hans": "…"}`.
impl std::fmt::Debug for LocaleMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// As the map it stands for.
impl Serialize for LocaleMap {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

/// Read as a map of tag to text, as a `BTreeMap<String, String>` reads
/// (the same values taken, a tag written twice keeping its last text), but
/// into the block at once: no map, no string for each tag and text.
impl<'de> Deserialize<'de> for LocaleMap {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(Entries)
    }
}

/// The visitor of [`LocaleMap`]'s reading.
struct Entries;

impl<'de> serde::de::Visitor<'de> for Entries {
    type Value = LocaleMap;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<LocaleMap, A::Error> {
        let mut chars = String::with_capacity(64);
        // Per entry as read: where its tag starts, where its text starts, where it ends.
        let mut read: Vec<[usize; 3]> = Vec::with_capacity(3);
        loop {
            let start = chars.len();
            if map.next_key_seed(Append(&mut chars))?.is_none() {
                break;
            }
            let tag_end = chars.len();
            map.next_value_seed(Append(&mut chars))?;
            read.push([start, tag_end, chars.len()]);
        }
        let tag = |[start, end, _]: [usize; 3]| chars.get(start..end).unwrap_or("");
        let in_order = read.windows(2).all(|pair| tag(pair[0]) < tag(pair[1]));
        if !in_order {
            // Tags out of order or written twice (rare): sorted by a map.
            let mut sorted = BTreeMap::new();
            for entry in &read {
                let [_, tag_end, end] = *entry;
                sorted.insert(tag(*entry), chars.get(tag_end..end).unwrap_or(""));
            }
            return Ok(LocaleMap::from_sorted(sorted.iter().map(|(t, x)| (*t, *x))));
        }
        let ends = read
            .iter()
            .flat_map(|&[_, tag_end, end]| [tag_end, end])
            .map(|end| u32::try_from(end).unwrap_or(u32::MAX))
            .collect();
        Ok(LocaleMap {
            chars: chars.into_boxed_str(),
            ends,
        })
    }
}

/// Reads a string as serde reads a `String` (text, or bytes that are
/// UTF-8) onto the end of the one given.
struct Append<'a>(&'a mut String);

impl<'de> serde::de::DeserializeSeed<'de> for Append<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_string(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Append<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<(), E> {
        self.0.push_str(text);
        Ok(())
    }

    fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<(), E> {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.visit_str(text),
            Err(_) => Err(E::invalid_value(serde::de::Unexpected::Bytes(bytes), &self)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(source: &str) -> Result<Text, ron::error::SpannedError> {
        ron::from_str(source)
    }

    fn map(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
        entries
            .iter()
            .map(|(tag, text)| (tag.to_string(), text.to_string()))
            .collect()
    }

    #[test]
    fn a_text_by_locale_reads_as_the_map_did() {
        for (source, entries) in [
            (
                r#"{"en": "Ford", "zh-Hans": "渡口"}"#,
                &[("en", "Ford"), ("zh-Hans", "渡口")][..],
            ),
            // Out of order, and a tag written twice: sorted, the last kept.
            (
                r#"{"zh-Hans": "渡口", "en": "Ford", "en": "The ford"}"#,
                &[("en", "The ford"), ("zh-Hans", "渡口")][..],
            ),
            (r#"{"en": ""}"#, &[("en", "")][..]),
            ("{}", &[][..]),
        ] {
            let expected = map(entries);
            let Ok(Text::Localized(read)) = text(source) else {
                panic!("{source} reads as a map");
            };
            assert_eq!(read.to_map(), expected, "{source}");
            assert_eq!(read, LocaleMap::from(&expected));
            assert_eq!(read.len(), expected.len());
            assert_eq!(
                read.keys().collect::<Vec<_>>(),
                expected.keys().collect::<Vec<_>>()
            );
            assert_eq!(format!("{read:?}"), format!("{expected:?}"));
            assert_eq!(
                ron::to_string(&read).ok(),
                ron::to_string(&expected).ok(),
                "{source} is written as the map was"
            );
            for (tag, value) in &expected {
                assert_eq!(read.get(tag), Some(value.as_str()));
            }
            assert_eq!(read.get("fr"), None);
        }
    }

    #[test]
    fn a_text_that_is_neither_form_is_refused_as_before() {
        for source in [r#"{"en": 3}"#, "3", r#"{"en": ["a"]}"#, r#"{1: "a"}"#] {
            let err = text(source).err().map(|err| err.code.to_string());
            assert_eq!(
                err.as_deref(),
                Some("data did not match any variant of untagged enum Text"),
                "{source}"
            );
        }
        assert_eq!(text(r#""Ford""#).ok(), Some(Text::Plain("Ford".into())));
    }

    #[test]
    fn an_insert_keeps_the_tags_in_order() {
        let mut read = LocaleMap::from(map(&[("en", "Ford"), ("zh-Hans", "渡口")]));
        read.insert("zh-Hant", "渡口");
        read.insert("en", "The ford");
        assert_eq!(
            read.to_map(),
            map(&[("en", "The ford"), ("zh-Hans", "渡口"), ("zh-Hant", "渡口")])
        );
    }
}
