//! Small additions to the standard library that every layer uses (after
//! rust-analyzer's `stdx`): one copy each, at the bottom of the crate, so
//! `scene`, `story`, `save`, the REPL and the CLI agree.

/// FNV-1a, 64 bits: stable across builds, platforms and Rust versions,
/// unlike `std::hash` (scene and rules hashes, save checksums, fingerprints,
/// the journal's sums, the telling's luck). Not meant to resist a forger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

/// "00" to "99", each number's two digits in turn.
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

impl Fnv {
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.0 = bytes.iter().fold(self.0, |hash, &byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
    }

    /// `n` in decimal, as `Display` writes it (no string made): two digits
    /// a division (a `Chance` condition's luck hashes three numbers of up
    /// to 20 digits each time it is read).
    pub fn number(&mut self, mut n: u64) {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        while n >= 100 {
            let pair = (n % 100) as usize * 2;
            n /= 100;
            at -= 2;
            digits[at] = DIGIT_PAIRS[pair];
            digits[at + 1] = DIGIT_PAIRS[pair + 1];
        }
        if n >= 10 {
            let pair = n as usize * 2;
            at -= 2;
            digits[at] = DIGIT_PAIRS[pair];
            digits[at + 1] = DIGIT_PAIRS[pair + 1];
        } else {
            at -= 1;
            digits[at] = b'0' + n as u8;
        }
        self.bytes(&digits[at..]);
    }
}

/// The FNV-1a of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = Fnv::default();
    hash.bytes(bytes);
    hash.0
}

/// Digits grouped by threes with commas: 25000 → "25,000".
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_gives_the_published_values() {
        // The FNV-1a 64 test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn a_number_hashes_as_its_decimal_text() {
        // Every length, and both sides of each power of ten (the digits
        // are written two at a time).
        let powers = (0..20).map(|k| 10u64.pow(k));
        let edges = powers.flat_map(|p| [p.saturating_sub(1), p, p + 1, p.saturating_mul(5)]);
        let odd = [
            0,
            7,
            10,
            12_345,
            0x3fd3_3333_3333_3333,
            u64::MAX - 1,
            u64::MAX,
        ];
        for n in edges.chain(odd) {
            let mut by_number = Fnv::default();
            by_number.number(n);
            assert_eq!(by_number.0, fnv1a(n.to_string().as_bytes()), "{n}");
        }
    }

    #[test]
    fn thousands_are_set_off_by_commas() {
        assert_eq!(group_thousands(0), "0");
        assert_eq!(group_thousands(12), "12");
        assert_eq!(group_thousands(999), "999");
        assert_eq!(group_thousands(1_000), "1,000");
        assert_eq!(group_thousands(1_234_567), "1,234,567");
        assert_eq!(group_thousands(u64::MAX), "18,446,744,073,709,551,615");
    }
}
