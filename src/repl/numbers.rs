//! Numbers as people say them (issue 20): a commander or a chronicler does
//! not say "24,989 men" or 「24,989名」, he says "some 25,000" or 约两万五千.
//! Every figure that reaches prose goes through [`men_en`] / [`men_zh`],
//! which round it to what the speaker could know ([`Sure`]) and say it in
//! the words of each language:
//!
//! | size              | English                              | 简体                         |
//! |-------------------|--------------------------------------|------------------------------|
//! | a few hundred     | about 300; a few hundred             | 三百来; 数百                 |
//! | around a thousand | some 1,000; a thousand or so         | 千把; 一千余                 |
//! | several thousand  | some 4,000; four or five thousand    | 约四千; 四五千               |
//! | near ten thousand | nearly ten thousand                  | 近万                         |
//! | tens of thousands | some 25,000; twenty or thirty thousand | 约两万五千; 两三万           |
//!
//! English never shows more than two significant figures; Chinese is said
//! in Chinese numerals ([`zh_numeral`]) and never holds an Arabic digit.
//! The Chinese forms are bare quantities: the caller's template adds
//! 人, 骑, 名 and so on. [`has_exact_big_figure`] lets tests check that
//! prose holds no spreadsheet figure.

/// How sure the speaker is of a figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sure {
    /// Counted: his own men, a muster. Said round but close ("some 15,000",
    /// 约一万五千; under 100 exact-ish: "about 60" / 六十来人).
    Counted,
    /// Seen and estimated: one or two significant figures ("some 4,000",
    /// 约四千; "nearly ten thousand", 近万; "over ten thousand", 万余).
    Estimated,
    /// Only a rough idea (far off, in smoke or night, by report): an order of
    /// size ("a few hundred", 数百; "several thousand", 数千; "tens of
    /// thousands", 数万; "some ten thousand", 万余 or 近万).
    Rough,
}

/// A number of men as said in English prose, e.g. "some 25,000", "nearly
/// ten thousand", "about 300", "a few hundred". Never more than two
/// significant figures; 1 to 10 are words ("seven"); 0 is "none".
#[must_use]
pub fn men_en(n: u32, sure: Sure) -> String {
    said(u64::from(n), sure).en()
}

/// The same in Simplified Chinese, as a bare quantity to be followed by
/// 人/骑/名 etc. by the caller's template, e.g. "约两万五千", "近万",
/// "三百来", "一千余", "四五千", "数万". Never contains an ASCII digit;
/// 0 is "零".
#[must_use]
pub fn men_zh(n: u32, sure: Sure) -> String {
    said(u64::from(n), sure).zh()
}

/// Chinese numerals for a figure, grouped by 万 and 亿: 25000 -> "两万五千",
/// 10000 -> "一万", 300 -> "三百", 1200 -> "一千二百", 45000 -> "四万五千",
/// 120000 -> "十二万", 10500 -> "一万零五百", 2 -> "两", 20 -> "二十",
/// 0 -> "零". A leading 2 before 百/千/万/亿 is 两 (两千, 两万); elsewhere
/// 二 (二十, 一万二千). Used by [`men_zh`]; public for other callers (e.g. a
/// turn count).
#[must_use]
pub fn zh_numeral(n: u32) -> String {
    numeral(u64::from(n))
}

/// Chinese numerals for an ordinal or a count of things (第二刻, 等两部 is
/// [`zh_numeral`]'s): as [`zh_numeral`], but a leading 2 is 二 (第二, 第二百).
#[must_use]
pub fn zh_ordinal(n: u32) -> String {
    let said = zh_numeral(n);
    match said.strip_prefix('两') {
        Some(rest) => format!("二{rest}"),
        None => said,
    }
}

/// Whether a text written for a reader (prose) holds an exact figure of five
/// or more digits ("24,989", "24989", "12,345", 「24,989名」) — for tests
/// that check prose. A figure is exact when it has three or more significant
/// digits: "25,000" is round and passes, "24,900" does not. Grouping commas
/// and full-width digits are understood; decimals ("1.2 million") and short
/// figures ("turn 12", "1644") are not exact big figures.
#[must_use]
pub fn has_exact_big_figure(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let digit_at = |k: usize| chars.get(k).copied().and_then(digit_value);
    let mut i = 0;
    while i < chars.len() {
        if digit_at(i).is_none() {
            i += 1;
            continue;
        }
        let mut digits: Vec<u32> = Vec::new();
        let mut j = i;
        loop {
            while let Some(d) = digit_at(j) {
                digits.push(d);
                j += 1;
            }
            // A grouping comma: exactly three digits follow it.
            let grouped = chars.get(j) == Some(&',')
                && (1..=3).all(|k| digit_at(j + k).is_some())
                && digit_at(j + 4).is_none();
            if !grouped {
                break;
            }
            j += 1;
        }
        // A decimal part belongs to this figure, not a new one.
        if chars.get(j) == Some(&'.') && digit_at(j + 1).is_some() {
            j += 1;
            while digit_at(j).is_some() {
                j += 1;
            }
        }
        if is_exact_big(&digits) {
            return true;
        }
        i = j;
    }
    false
}

/// The value of an ASCII or full-width decimal digit.
fn digit_value(c: char) -> Option<u32> {
    match c {
        '0'..='9' => c.to_digit(10),
        '０'..='９' => Some(u32::from(c) - u32::from('０')),
        _ => None,
    }
}

/// Five or more digits (leading zeros aside) with three or more significant.
fn is_exact_big(digits: &[u32]) -> bool {
    let Some(first) = digits.iter().position(|&d| d != 0) else {
        return false;
    };
    let digits = &digits[first..];
    let last = digits.iter().rposition(|&d| d != 0).unwrap_or(0);
    digits.len() >= 5 && last + 1 >= 3
}

/// How a figure is said: one choice, rendered in either language, so the
/// English and the Chinese always agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Said {
    /// No one.
    Nothing,
    /// The figure itself (already round or small): "seven", "4,500"; 七.
    Exact(u64),
    /// Round and hedged: "about 60", "some 15,000"; 六十来, 约一万五千.
    /// `guess` (an estimate, not a count) allows 千把.
    About { v: u64, guess: bool },
    /// Just under a round figure: "nearly ten thousand"; 近万.
    Nearly(u64),
    /// Just over a round figure: "over ten thousand"; 万余.
    Over(u64),
    /// Between two leading digits: "four or five thousand"; 四五千.
    OrNext { low: u64, unit: u64 },
    /// Under ten, roughly: "a handful"; 数.
    Handful,
    /// Ten to twenty, roughly: "a dozen or so"; 十来.
    Dozen,
    /// Twenty to ninety, roughly: "a few dozen"; 数十.
    Dozens,
    /// Near a power of ten `p`, roughly: "a thousand or so"; 千把.
    Around { p: u64, n: u64 },
    /// Several times a power of ten `p`: "several thousand"; 数千.
    Several { p: u64, few: bool, n: u64 },
}

/// Chooses how to say `n` men known this surely.
fn said(n: u64, sure: Sure) -> Said {
    match sure {
        Sure::Counted => counted(n),
        Sure::Estimated => estimated(n),
        Sure::Rough => rough(n),
    }
}

/// A count: exact when small, else two significant figures (nearest ten
/// under 100).
fn counted(n: u64) -> Said {
    match n {
        0 => Said::Nothing,
        1..=19 => Said::Exact(n),
        20..=99 if n.is_multiple_of(10) => Said::Exact(n),
        20..=99 => Said::About {
            v: round_to(n, 10),
            guess: false,
        },
        _ => {
            let v = round_sig(n, 2);
            if v == n {
                Said::Exact(n)
            } else {
                Said::About { v, guess: false }
            }
        }
    }
}

/// An estimate: "nearly" just under a round figure, "over" just above one,
/// else one or two significant figures (two when the figure starts with 1,
/// half steps of the leading digit from 2 to 8, whole steps at 9).
fn estimated(n: u64) -> Said {
    if n == 0 {
        return Said::Nothing;
    }
    if n <= 10 {
        return Said::Exact(n);
    }
    let unit = pow10(digits(n) - 1);
    let lead = n / unit;
    if !n.is_multiple_of(unit) {
        let next = (lead + 1) * unit;
        // 9,300–9,999 is nearly ten thousand; 19,000–19,999 nearly 20,000.
        let band = if lead == 9 { unit * 7 / 10 } else { unit / 10 };
        if next - n <= band {
            return Said::Nearly(next);
        }
    }
    let floor = lead * unit;
    if unit >= 100 {
        // 10,100–10,900 is over ten thousand (third figure 1 to 9 once
        // rounded, second figure 0).
        let third = unit / 100;
        let above = n - floor;
        if 2 * above >= third && 2 * above < 19 * third {
            return Said::Over(floor);
        }
    }
    if n < 100 {
        return Said::About {
            v: round_to(n, 10),
            guess: true,
        };
    }
    let step = match lead {
        1 => unit / 10,
        9 => unit,
        _ => unit / 2,
    };
    let v = round_to(n, step);
    let half = v % unit == unit / 2;
    if half && (unit == 100 || unit == 1000) && (2..=8).contains(&lead) {
        return Said::OrNext {
            low: v / unit,
            unit,
        };
    }
    Said::About { v, guess: true }
}

/// A rough idea: only the order of size.
fn rough(n: u64) -> Said {
    match n {
        0 => Said::Nothing,
        1 => Said::Exact(1),
        2..=9 => Said::Handful,
        10..=19 => Said::Dozen,
        20..=89 => Said::Dozens,
        _ => {
            // The power p with 0.9p <= n < 9p: near it below 1.5p, else
            // several times it.
            let mut p = 100;
            while n >= 9 * p {
                p *= 10;
            }
            if 2 * n < 3 * p {
                Said::Around { p, n }
            } else {
                Said::Several {
                    p,
                    few: n < 4 * p,
                    n,
                }
            }
        }
    }
}

impl Said {
    /// In English prose.
    fn en(self) -> String {
        match self {
            Said::Nothing => "none".to_string(),
            Said::Exact(v) => en_figure(v),
            Said::About { v, .. } if v < 1000 => format!("about {}", en_figure(v)),
            Said::About { v, .. } => format!("some {}", en_figure(v)),
            Said::Nearly(r) => format!("nearly {}", en_round(r)),
            Said::Over(r) => format!("over {}", en_round(r)),
            Said::OrNext { low, unit } => format!(
                "{} or {} {}",
                en_word(low),
                en_word(low + 1),
                if unit == 100 { "hundred" } else { "thousand" }
            ),
            Said::Handful => "a few".to_string(),
            Said::Dozen => "a dozen or so".to_string(),
            Said::Dozens => "a few dozen".to_string(),
            Said::Around { p: 10_000, .. } => "some ten thousand".to_string(),
            Said::Around { p, .. } => format!("{} or so", en_round(p)),
            Said::Several { p, few, n } => en_several(p, few, n),
        }
    }

    /// In Chinese prose, as a bare quantity.
    fn zh(self) -> String {
        match self {
            Said::Nothing => "零".to_string(),
            Said::Exact(v) => numeral(v),
            Said::About { v, guess } => {
                let single = single_figure(v);
                if v < 1000 && single {
                    format!("{}来", numeral(v))
                } else if guess && v == 1000 {
                    "千把".to_string()
                } else {
                    format!("约{}", numeral(v))
                }
            }
            Said::Nearly(r) => format!("近{}", zh_round(r)),
            Said::Over(r) => zh_over(r),
            Said::OrNext { low, unit } => format!(
                "{}{}{}",
                zh_digit_head(low),
                zh_digit_head(low + 1),
                if unit == 100 { "百" } else { "千" }
            ),
            Said::Handful => "数".to_string(),
            Said::Dozen => "十来".to_string(),
            Said::Dozens => "数十".to_string(),
            Said::Around { p: 100, .. } => "百来".to_string(),
            Said::Around { p: 1000, n } if n < 1100 => "千把".to_string(),
            Said::Around { p: 1000, .. } => "一千余".to_string(),
            Said::Around { p: 10_000, n } if n < 10_000 => "近万".to_string(),
            Said::Around { p: 10_000, .. } => "万余".to_string(),
            // "About ten times as many" reads 十万左右 before a noun too
            // badly (十万上下人): said as a round figure instead.
            Said::Around { p, .. } => format!("约{}", numeral(p)),
            // Tens of thousands as a pair of figures (两三万, 十几万), which
            // go before 人 as they stand.
            Said::Several { p: 10_000, n, .. } => match n / 10_000 {
                0 | 1 => "一两万".to_string(),
                9.. => "近十万".to_string(),
                lead => format!("{}{}万", zh_digit_head(lead), zh_digit_head(lead + 1)),
            },
            Said::Several { p: 100_000, n, .. } => match n / 100_000 {
                0 | 1 => "十几万".to_string(),
                9.. => "近百万".to_string(),
                lead => format!("{}{}十万", zh_digit_head(lead), zh_digit_head(lead + 1)),
            },
            Said::Several { p, .. } => format!("数{}", zh_round(p)),
        }
    }
}

/// English words for one to ten.
const EN_WORDS: [&str; 11] = [
    "none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];

/// The English word for 0 to 10 (digits beyond).
fn en_word(v: u64) -> String {
    usize::try_from(v)
        .ok()
        .and_then(|i| EN_WORDS.get(i))
        .map_or_else(|| v.to_string(), |w| (*w).to_string())
}

/// A round figure in English: words to ten, "1.2 million", else grouped
/// digits ("25,000").
fn en_figure(v: u64) -> String {
    if v <= 10 {
        return en_word(v);
    }
    for (scale, name) in [(1_000_000_000, "billion"), (1_000_000, "million")] {
        if v >= scale && v.is_multiple_of(scale / 10) {
            let whole = v / scale;
            let tenth = v % scale / (scale / 10);
            return if tenth == 0 {
                format!("{whole} {name}")
            } else {
                format!("{whole}.{tenth} {name}")
            };
        }
    }
    crate::stdx::group_thousands(v)
}

/// A round figure in English with powers of ten in words ("ten thousand",
/// "a hundred"), as after "nearly" or "over".
fn en_round(v: u64) -> String {
    let word = match v {
        10 => "ten",
        100 => "a hundred",
        1_000 => "a thousand",
        10_000 => "ten thousand",
        100_000 => "a hundred thousand",
        1_000_000 => "a million",
        10_000_000 => "ten million",
        100_000_000 => "a hundred million",
        1_000_000_000 => "a billion",
        10_000_000_000 => "ten billion",
        _ => return en_figure(v),
    };
    word.to_string()
}

/// "several thousand" and its kin for several times the power `p`. Tens
/// and hundreds of thousands are said as a pair of round figures ("twenty
/// or thirty thousand"), which, unlike "tens of thousands", go before a
/// noun and stand alone alike.
fn en_several(p: u64, few: bool, n: u64) -> String {
    const TENS: [&str; 10] = [
        "", "ten", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    const ONES: [&str; 10] = [
        "", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    let lead = usize::try_from((n / p.max(1)).clamp(1, 9)).unwrap_or(1);
    let pair = |words: &[&str; 10], big: &str| {
        if lead >= 9 {
            format!(
                "nearly {} {big}",
                if words == &TENS {
                    "a hundred"
                } else {
                    "a thousand"
                }
            )
        } else {
            format!("{} or {} {big}", words[lead], words[lead + 1])
        }
    };
    match (p, few) {
        (100, true) => "a few hundred".to_string(),
        (100, false) => "several hundred".to_string(),
        (1_000, true) => "a few thousand".to_string(),
        (1_000, false) => "several thousand".to_string(),
        (10_000, _) => pair(&TENS, "thousand"),
        (100_000, _) => pair(&ONES, "hundred thousand"),
        (1_000_000, true) => "a few million".to_string(),
        (1_000_000, false) => "several million".to_string(),
        (10_000_000, _) => pair(&TENS, "million"),
        (100_000_000, _) => pair(&ONES, "hundred million"),
        (1_000_000_000, true) => "a few billion".to_string(),
        (1_000_000_000, false) => "several billion".to_string(),
        _ => "billions".to_string(),
    }
}

/// Chinese digits.
const ZH_DIGITS: [&str; 10] = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// A Chinese digit (0 to 9).
fn zh_digit(d: u64) -> &'static str {
    usize::try_from(d)
        .ok()
        .and_then(|i| ZH_DIGITS.get(i))
        .copied()
        .unwrap_or("")
}

/// A Chinese digit at the head of a figure, where 2 is 两 (两三千).
fn zh_digit_head(d: u64) -> &'static str {
    if d == 2 { "两" } else { zh_digit(d) }
}

/// Chinese numerals for any figure (see [`zh_numeral`]).
fn numeral(n: u64) -> String {
    if n == 0 {
        "零".to_string()
    } else {
        grouped(n, true)
    }
}

/// Chinese numerals for `n` > 0 by 亿 and 万 groups; `head` when nothing is
/// said before it (so 两万, 十二万 rather than 二万, 一十二万).
fn grouped(n: u64, head: bool) -> String {
    for (size, name) in [(100_000_000, "亿"), (10_000, "万")] {
        if n >= size {
            let (hi, lo) = (n / size, n % size);
            let mut out = grouped(hi, head);
            out.push_str(name);
            if lo > 0 {
                // A zero at the head of the lower group is said once.
                if lo < size / 10 {
                    out.push('零');
                }
                out.push_str(&grouped(lo, false));
            }
            return out;
        }
    }
    section(n, head)
}

/// Chinese numerals for 1 to 9,999.
fn section(n: u64, head: bool) -> String {
    const UNITS: [&str; 4] = ["", "十", "百", "千"];
    let mut out = String::new();
    let mut started = false;
    let mut zero = false;
    for place in (0..4u32).rev() {
        let d = n / pow10(place) % 10;
        if d == 0 {
            zero = started;
            continue;
        }
        if zero {
            out.push('零');
            zero = false;
        }
        let first = head && !started;
        let digit = match (first, d, place) {
            (true, 2, 0 | 2 | 3) => "两",
            (true, 1, 1) => "",
            _ => zh_digit(d),
        };
        out.push_str(digit);
        out.push_str(UNITS.get(place as usize).copied().unwrap_or(""));
        started = true;
    }
    out
}

/// A round figure in Chinese with a bare power of ten for 近 and 数: 万,
/// 千, 百, 十万, 百万 (not 一万, 一千).
fn zh_round(v: u64) -> String {
    let said = numeral(v);
    if is_power_of_ten(v)
        && let Some(rest) = said.strip_prefix('一')
    {
        return rest.to_string();
    }
    said
}

/// "Over" a figure with one significant digit, 余 placed as Chinese places
/// it: 一千余, 万余, 两万余, 十余万, 百余万, 亿余, 十余亿.
fn zh_over(r: u64) -> String {
    let k = digits(r) - 1;
    match k {
        0..=3 => format!("{}余", numeral(r)),
        4 | 8 => {
            let (size, name) = if k == 4 {
                (10_000, "万")
            } else {
                (100_000_000, "亿")
            };
            let d = r / size;
            let lead = if d == 1 { String::new() } else { numeral(d) };
            format!("{lead}{name}余")
        }
        5..=7 => format!("{}余万", zh_round(r / 10_000)),
        _ => format!("{}余亿", zh_round(r / 100_000_000)),
    }
}

/// Number of decimal digits of `n` (1 for 0).
fn digits(n: u64) -> u32 {
    n.checked_ilog10().map_or(1, |l| l + 1)
}

/// Ten to the `k`.
fn pow10(k: u32) -> u64 {
    10u64.saturating_pow(k)
}

/// `n` rounded to the nearest multiple of `step` (halves up).
fn round_to(n: u64, step: u64) -> u64 {
    let step = step.max(1);
    n.saturating_add(step / 2) / step * step
}

/// `n` rounded to `sig` significant figures.
fn round_sig(n: u64, sig: u32) -> u64 {
    let len = digits(n);
    if len <= sig {
        n
    } else {
        round_to(n, pow10(len - sig))
    }
}

/// Whether `v` has a single non-zero digit (300, 20,000).
fn single_figure(v: u64) -> bool {
    v != 0 && v / pow10(digits(v) - 1) * pow10(digits(v) - 1) == v
}

/// Whether `v` is 1, 10, 100, ...
fn is_power_of_ten(v: u64) -> bool {
    v != 0 && pow10(digits(v) - 1) == v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn en(n: u32, sure: Sure) -> String {
        men_en(n, sure)
    }

    fn zh(n: u32, sure: Sure) -> String {
        men_zh(n, sure)
    }

    /// Significant digits among the ASCII digits of `s`.
    fn significant(s: &str) -> usize {
        let digits: String = s.chars().filter(char::is_ascii_digit).collect();
        digits.trim_start_matches('0').trim_end_matches('0').len()
    }

    fn sweep() -> impl Iterator<Item = u32> {
        (0..200_000u32).step_by(7).chain([
            0,
            1,
            2,
            9,
            10,
            11,
            19,
            20,
            99,
            100,
            101,
            999,
            1000,
            1001,
            9999,
            10_000,
            24_989,
            99_999,
            100_000,
            999_999,
            1_000_000,
            123_456_789,
            u32::MAX - 1,
            u32::MAX,
        ])
    }

    const ALL: [Sure; 3] = [Sure::Counted, Sure::Estimated, Sure::Rough];

    #[test]
    fn numerals_from_the_spec() {
        assert_eq!(zh_numeral(25_000), "两万五千");
        assert_eq!(zh_numeral(10_000), "一万");
        assert_eq!(zh_numeral(300), "三百");
        assert_eq!(zh_numeral(1_200), "一千二百");
        assert_eq!(zh_numeral(45_000), "四万五千");
        assert_eq!(zh_numeral(120_000), "十二万");
        assert_eq!(zh_numeral(2), "两");
        assert_eq!(zh_numeral(20), "二十");
        assert_eq!(zh_numeral(0), "零");
    }

    #[test]
    fn numerals_two_and_one() {
        assert_eq!(zh_numeral(200), "两百");
        assert_eq!(zh_numeral(2_000), "两千");
        assert_eq!(zh_numeral(2_200), "两千二百");
        assert_eq!(zh_numeral(12_000), "一万二千");
        assert_eq!(zh_numeral(22_000), "两万二千");
        assert_eq!(zh_numeral(200_000), "二十万");
        assert_eq!(zh_numeral(2_000_000), "两百万");
        assert_eq!(zh_numeral(20_000_000), "两千万");
        assert_eq!(zh_numeral(200_000_000), "两亿");
        assert_eq!(zh_numeral(12), "十二");
        assert_eq!(zh_numeral(22), "二十二");
        assert_eq!(zh_numeral(102), "一百零二");
        assert_eq!(zh_numeral(10), "十");
        assert_eq!(zh_numeral(11), "十一");
        assert_eq!(zh_numeral(110), "一百一十");
        assert_eq!(zh_numeral(1_100_000), "一百一十万");
        assert_eq!(zh_numeral(100_000), "十万");
    }

    #[test]
    fn numerals_zeros() {
        assert_eq!(zh_numeral(1_010), "一千零一十");
        assert_eq!(zh_numeral(10_010), "一万零一十");
        assert_eq!(zh_numeral(10_500), "一万零五百");
        assert_eq!(zh_numeral(1_005_000), "一百万五千");
        assert_eq!(zh_numeral(100_000_000), "一亿");
        assert_eq!(zh_numeral(100_000_500), "一亿零五百");
        assert_eq!(zh_numeral(100_050_000), "一亿零五万");
        assert_eq!(zh_numeral(150_000_500), "一亿五千万零五百");
        assert_eq!(zh_numeral(105_000_000), "一亿零五百万");
        assert_eq!(
            zh_numeral(u32::MAX),
            "四十二亿九千四百九十六万七千二百九十五"
        );
    }

    #[test]
    fn row_a_few_hundred() {
        assert_eq!(en(300, Sure::Estimated), "about 300");
        assert_eq!(zh(300, Sure::Estimated), "三百来");
        assert_eq!(en(300, Sure::Rough), "a few hundred");
        assert_eq!(zh(300, Sure::Rough), "数百");
        assert_eq!(en(700, Sure::Rough), "several hundred");
        assert_eq!(zh(700, Sure::Rough), "数百");
    }

    #[test]
    fn row_around_a_thousand() {
        assert_eq!(en(1_000, Sure::Estimated), "some 1,000");
        assert_eq!(zh(1_000, Sure::Estimated), "千把");
        assert_eq!(en(1_040, Sure::Estimated), "over a thousand");
        assert_eq!(zh(1_040, Sure::Estimated), "一千余");
        assert_eq!(en(1_050, Sure::Rough), "a thousand or so");
        assert_eq!(zh(1_050, Sure::Rough), "千把");
        assert_eq!(zh(1_300, Sure::Rough), "一千余");
        assert_eq!(en(1_000, Sure::Counted), "1,000");
        assert_eq!(zh(1_000, Sure::Counted), "一千");
        assert_eq!(en(1_020, Sure::Counted), "some 1,000");
        assert_eq!(zh(1_020, Sure::Counted), "约一千");
    }

    #[test]
    fn row_several_thousand() {
        assert_eq!(en(4_000, Sure::Estimated), "some 4,000");
        assert_eq!(zh(4_000, Sure::Estimated), "约四千");
        assert_eq!(en(4_500, Sure::Estimated), "four or five thousand");
        assert_eq!(zh(4_500, Sure::Estimated), "四五千");
        assert_eq!(zh(2_400, Sure::Estimated), "两三千");
        assert_eq!(en(450, Sure::Estimated), "four or five hundred");
        assert_eq!(zh(450, Sure::Estimated), "四五百");
        assert_eq!(en(4_000, Sure::Rough), "several thousand");
        assert_eq!(zh(4_000, Sure::Rough), "数千");
        assert_eq!(en(2_000, Sure::Rough), "a few thousand");
    }

    #[test]
    fn row_near_ten_thousand() {
        assert_eq!(en(9_800, Sure::Estimated), "nearly ten thousand");
        assert_eq!(zh(9_800, Sure::Estimated), "近万");
        assert_eq!(en(9_800, Sure::Rough), "some ten thousand");
        assert_eq!(zh(9_800, Sure::Rough), "近万");
        assert_eq!(zh(12_000, Sure::Rough), "万余");
        assert_eq!(en(9_800, Sure::Counted), "9,800");
        assert_eq!(en(9_830, Sure::Counted), "some 9,800");
        assert_eq!(zh(9_830, Sure::Counted), "约九千八百");
        assert_eq!(zh(9_800, Sure::Counted), "九千八百");
    }

    #[test]
    fn row_tens_of_thousands() {
        assert_eq!(en(24_989, Sure::Estimated), "some 25,000");
        assert_eq!(zh(24_989, Sure::Estimated), "约两万五千");
        assert_eq!(en(24_989, Sure::Counted), "some 25,000");
        assert_eq!(zh(24_989, Sure::Counted), "约两万五千");
        assert_eq!(en(24_989, Sure::Rough), "twenty or thirty thousand");
        assert_eq!(zh(24_989, Sure::Rough), "两三万");
        assert_eq!(en(20_000, Sure::Estimated), "some 20,000");
        assert_eq!(zh(20_000, Sure::Estimated), "约两万");
    }

    #[test]
    fn counted_two_figures() {
        assert_eq!(en(15_340, Sure::Counted), "some 15,000");
        assert_eq!(zh(15_340, Sure::Counted), "约一万五千");
        assert_eq!(en(8_260, Sure::Counted), "some 8,300");
        assert_eq!(zh(8_260, Sure::Counted), "约八千三百");
        assert_eq!(en(347, Sure::Counted), "about 350");
        assert_eq!(zh(347, Sure::Counted), "约三百五十");
        assert_eq!(en(302, Sure::Counted), "about 300");
        assert_eq!(zh(302, Sure::Counted), "三百来");
        assert_eq!(en(4_500, Sure::Counted), "4,500");
        assert_eq!(zh(4_500, Sure::Counted), "四千五百");
    }

    #[test]
    fn counted_small() {
        assert_eq!(en(7, Sure::Counted), "seven");
        assert_eq!(zh(7, Sure::Counted), "七");
        assert_eq!(en(2, Sure::Counted), "two");
        assert_eq!(zh(2, Sure::Counted), "两");
        assert_eq!(en(10, Sure::Counted), "ten");
        assert_eq!(en(14, Sure::Counted), "14");
        assert_eq!(zh(14, Sure::Counted), "十四");
        assert_eq!(en(60, Sure::Counted), "60");
        assert_eq!(zh(60, Sure::Counted), "六十");
        assert_eq!(en(64, Sure::Counted), "about 60");
        assert_eq!(zh(64, Sure::Counted), "六十来");
        assert_eq!(en(97, Sure::Counted), "about 100");
        assert_eq!(zh(97, Sure::Counted), "一百来");
    }

    #[test]
    fn estimated_small() {
        assert_eq!(en(7, Sure::Estimated), "seven");
        assert_eq!(en(12, Sure::Estimated), "about ten");
        assert_eq!(zh(12, Sure::Estimated), "十来");
        assert_eq!(en(19, Sure::Estimated), "nearly 20");
        assert_eq!(zh(19, Sure::Estimated), "近二十");
        assert_eq!(en(57, Sure::Estimated), "about 60");
        assert_eq!(zh(57, Sure::Estimated), "六十来");
        assert_eq!(en(92, Sure::Estimated), "about 90");
        assert_eq!(en(95, Sure::Estimated), "nearly a hundred");
        assert_eq!(zh(95, Sure::Estimated), "近百");
        assert_eq!(en(100, Sure::Estimated), "about 100");
        assert_eq!(zh(100, Sure::Estimated), "一百来");
        assert_eq!(en(105, Sure::Estimated), "over a hundred");
        assert_eq!(zh(105, Sure::Estimated), "一百余");
    }

    #[test]
    fn nearly_boundaries() {
        assert_eq!(en(9_299, Sure::Estimated), "some 9,000");
        assert_eq!(zh(9_299, Sure::Estimated), "约九千");
        assert_eq!(en(9_300, Sure::Estimated), "nearly ten thousand");
        assert_eq!(en(9_999, Sure::Estimated), "nearly ten thousand");
        assert_eq!(en(10_000, Sure::Estimated), "some 10,000");
        assert_eq!(zh(10_000, Sure::Estimated), "约一万");
        assert_eq!(en(18_999, Sure::Estimated), "some 19,000");
        assert_eq!(zh(18_999, Sure::Estimated), "约一万九千");
        assert_eq!(en(19_000, Sure::Estimated), "nearly 20,000");
        assert_eq!(zh(19_000, Sure::Estimated), "近两万");
        assert_eq!(en(19_999, Sure::Estimated), "nearly 20,000");
        assert_eq!(en(980, Sure::Estimated), "nearly a thousand");
        assert_eq!(zh(980, Sure::Estimated), "近千");
        assert_eq!(en(99_999, Sure::Estimated), "nearly a hundred thousand");
        assert_eq!(zh(99_999, Sure::Estimated), "近十万");
        assert_eq!(en(4_950, Sure::Estimated), "nearly 5,000");
        assert_eq!(zh(4_950, Sure::Estimated), "近五千");
    }

    #[test]
    fn over_boundaries() {
        assert_eq!(en(10_049, Sure::Estimated), "some 10,000");
        assert_eq!(en(10_050, Sure::Estimated), "over ten thousand");
        assert_eq!(en(10_100, Sure::Estimated), "over ten thousand");
        assert_eq!(zh(10_100, Sure::Estimated), "万余");
        assert_eq!(en(10_900, Sure::Estimated), "over ten thousand");
        assert_eq!(zh(10_900, Sure::Estimated), "万余");
        assert_eq!(en(10_950, Sure::Estimated), "some 11,000");
        assert_eq!(zh(10_950, Sure::Estimated), "约一万一千");
        assert_eq!(en(20_400, Sure::Estimated), "over 20,000");
        assert_eq!(zh(20_400, Sure::Estimated), "两万余");
        assert_eq!(en(100_500, Sure::Estimated), "over a hundred thousand");
        assert_eq!(zh(100_500, Sure::Estimated), "十余万");
        assert_eq!(zh(1_050_000, Sure::Estimated), "百余万");
        assert_eq!(zh(100_500_000, Sure::Estimated), "亿余");
        assert_eq!(zh(1_005_000_000, Sure::Estimated), "十余亿");
    }

    #[test]
    fn rough_orders_of_size() {
        assert_eq!(en(1, Sure::Rough), "one");
        assert_eq!(en(7, Sure::Rough), "a few");
        assert_eq!(zh(7, Sure::Rough), "数");
        assert_eq!(en(15, Sure::Rough), "a dozen or so");
        assert_eq!(zh(15, Sure::Rough), "十来");
        assert_eq!(en(40, Sure::Rough), "a few dozen");
        assert_eq!(zh(40, Sure::Rough), "数十");
        assert_eq!(en(120, Sure::Rough), "a hundred or so");
        assert_eq!(zh(120, Sure::Rough), "百来");
        assert_eq!(en(149, Sure::Rough), "a hundred or so");
        assert_eq!(en(150, Sure::Rough), "a few hundred");
        assert_eq!(en(899, Sure::Rough), "several hundred");
        assert_eq!(en(900, Sure::Rough), "a thousand or so");
        assert_eq!(en(14_999, Sure::Rough), "some ten thousand");
        assert_eq!(en(15_000, Sure::Rough), "ten or twenty thousand");
        assert_eq!(en(120_000, Sure::Rough), "a hundred thousand or so");
        assert_eq!(zh(120_000, Sure::Rough), "约十万");
        assert_eq!(en(500_000, Sure::Rough), "five or six hundred thousand");
        assert_eq!(zh(500_000, Sure::Rough), "五六十万");
        assert_eq!(zh(3_000_000, Sure::Rough), "数百万");
    }

    #[test]
    fn zero_and_extremes() {
        for sure in ALL {
            assert_eq!(en(0, sure), "none");
            assert_eq!(zh(0, sure), "零");
        }
        assert_eq!(en(u32::MAX, Sure::Counted), "some 4.3 billion");
        assert_eq!(zh(u32::MAX, Sure::Counted), "约四十三亿");
        assert_eq!(en(u32::MAX, Sure::Estimated), "some 4.5 billion");
        assert_eq!(zh(u32::MAX, Sure::Estimated), "约四十五亿");
        assert_eq!(en(u32::MAX, Sure::Rough), "several billion");
        assert_eq!(zh(u32::MAX, Sure::Rough), "数十亿");
        assert_eq!(en(1_200_000, Sure::Counted), "1.2 million");
        assert_eq!(en(99_999, Sure::Counted), "some 100,000");
        assert_eq!(zh(99_999, Sure::Counted), "约十万");
    }

    #[test]
    fn named_values_do_not_panic_and_say_something() {
        for n in [
            0,
            1,
            9,
            10,
            99,
            100,
            999,
            1000,
            9999,
            10_000,
            24_989,
            99_999,
            100_000,
            u32::MAX,
        ] {
            for sure in ALL {
                assert!(!en(n, sure).is_empty(), "{n} {sure:?}");
                assert!(!zh(n, sure).is_empty(), "{n} {sure:?}");
            }
        }
    }

    #[test]
    fn zh_never_has_ascii_digits() {
        for n in sweep() {
            for sure in ALL {
                let s = zh(n, sure);
                assert!(!s.is_empty(), "{n} {sure:?}");
                assert!(!s.chars().any(|c| c.is_ascii_digit()), "{n} {sure:?} {s}");
            }
        }
    }

    #[test]
    fn ordinals_say_two_as_er() {
        assert_eq!(zh_ordinal(2), "二");
        assert_eq!(zh_ordinal(9), "九");
        assert_eq!(zh_ordinal(16), "十六");
        assert_eq!(zh_ordinal(200), "二百");
        assert_eq!(zh_numeral(2), "两");
    }

    #[test]
    fn zh_numeral_never_has_ascii_digits() {
        for n in sweep() {
            let s = zh_numeral(n);
            assert!(!s.is_empty() && !s.chars().any(|c| c.is_ascii()), "{n} {s}");
        }
    }

    #[test]
    fn en_at_most_two_significant_figures() {
        for n in sweep() {
            for sure in ALL {
                let s = en(n, sure);
                assert!(significant(&s) <= 2, "{n} {sure:?} {s}");
                assert!(!has_exact_big_figure(&s), "{n} {sure:?} {s}");
            }
        }
    }

    #[test]
    fn deterministic() {
        for n in sweep().step_by(13) {
            for sure in ALL {
                assert_eq!(en(n, sure), en(n, sure));
                assert_eq!(zh(n, sure), zh(n, sure));
            }
        }
    }

    #[test]
    fn estimates_stay_near_the_figure() {
        // What is said never strays more than a third from the truth.
        for n in sweep().filter(|&n| n >= 11) {
            for sure in [Sure::Counted, Sure::Estimated] {
                let v = match said(u64::from(n), sure) {
                    Said::Exact(v) | Said::About { v, .. } | Said::Nearly(v) | Said::Over(v) => v,
                    Said::OrNext { low, unit } => low * unit + unit / 2,
                    other => panic!("{n} {sure:?} {other:?}"),
                };
                let n = u64::from(n);
                assert!(3 * v.abs_diff(n) <= n, "{n} {sure:?} {v}");
            }
        }
    }

    #[test]
    fn exact_big_figures() {
        assert!(has_exact_big_figure("24,989名八旗兵"));
        assert!(has_exact_big_figure("with 24989 men"));
        assert!(has_exact_big_figure("12,345"));
        assert!(has_exact_big_figure("some 24,900 men"));
        assert!(has_exact_big_figure("２４９８９名"));
        assert!(has_exact_big_figure("turn 3: 1,234,567 arrows"));
        assert!(!has_exact_big_figure("约两万五千"));
        assert!(!has_exact_big_figure("turn 12"));
        assert!(!has_exact_big_figure("some 25,000"));
        assert!(!has_exact_big_figure("in 1644, 1,200 men"));
        assert!(!has_exact_big_figure("1.2 million"));
        assert!(!has_exact_big_figure("0.12345"));
        assert!(!has_exact_big_figure("1,2,3,4,5"));
        assert!(!has_exact_big_figure("1,000,000 taels"));
        assert!(!has_exact_big_figure(""));
    }
}
