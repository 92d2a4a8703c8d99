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
        const PRIME: u64 = 0x0100_0000_01b3;
        let step = |hash: u64, byte: u8| (hash ^ u64::from(byte)).wrapping_mul(PRIME);
        // Eight bytes a round: the same steps in the same order, a third
        // fewer instructions than a byte a round (the loop's own).
        let mut chunks = bytes.chunks_exact(8);
        let mut hash = self.0;
        for c in &mut chunks {
            hash = step(hash, c[0]);
            hash = step(hash, c[1]);
            hash = step(hash, c[2]);
            hash = step(hash, c[3]);
            hash = step(hash, c[4]);
            hash = step(hash, c[5]);
            hash = step(hash, c[6]);
            hash = step(hash, c[7]);
        }
        self.0 = chunks.remainder().iter().fold(hash, |h, &b| step(h, b));
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

/// `n` in decimal at the end of `digits`, as `Display` writes it; where its
/// first digit is.
pub fn decimal(mut n: u64, digits: &mut [u8; 20]) -> usize {
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return at;
        }
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
        // Past a round of eight bytes, and split anywhere: a byte a step.
        let text: Vec<u8> = (0..40_u8).map(|b| b.wrapping_mul(37)).collect();
        for len in 0..text.len() {
            let by_byte = (text[..len].iter()).fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
            assert_eq!(fnv1a(&text[..len]), by_byte, "{len}");
            for cut in 0..=len {
                let mut split = Fnv::default();
                split.bytes(&text[..cut]);
                split.bytes(&text[cut..len]);
                assert_eq!(split.0, by_byte, "{len} {cut}");
            }
        }
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
