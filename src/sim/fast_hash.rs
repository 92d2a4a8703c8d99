//! A fast hasher for the systems' small integer keys (zone and side
//! indices): the multiply-and-rotate hash rustc uses (FxHash), in place of
//! SipHash, which guards against keys chosen by an attacker — nothing here
//! takes keys from outside. Deterministic: no random seed. No result depends
//! on the order a map is walked in (the maps are only looked up).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// FxHash: each word folded in with a rotate, xor and multiply.
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A map hashed with [`FxHasher`].
pub type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_keys_hash_the_same_in_every_map() {
        let hash = |key: (usize, usize)| {
            use std::hash::{BuildHasher, BuildHasherDefault};
            BuildHasherDefault::<FxHasher>::default().hash_one(key)
        };
        assert_eq!(hash((3, 7)), hash((3, 7)));
        assert_ne!(hash((3, 7)), hash((7, 3)));
        let mut map: FxHashMap<usize, usize> = FxHashMap::default();
        for zone in 0..1_000 {
            map.insert(zone, zone * 2);
        }
        assert!((0..1_000).all(|zone| map.get(&zone) == Some(&(zone * 2))));
    }
}
