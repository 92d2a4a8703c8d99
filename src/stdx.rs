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

impl Fnv {
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.0 = bytes.iter().fold(self.0, |hash, &byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
    }

    /// `n` in decimal, as `Display` writes it (no string made).
    pub fn number(&mut self, mut n: u64) {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
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
        for n in [0, 7, 10, 12_345, u64::MAX] {
            let mut by_number = Fnv::default();
            by_number.number(n);
            assert_eq!(by_number.0, fnv1a(n.to_string().as_bytes()));
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
