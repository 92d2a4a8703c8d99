//! The battle's one random stream: ChaCha8 from the game seed, saved with the world.
//!
//! Saves store it as its key, stream and position (`save::RngPosition`), so
//! a loaded game draws exactly the numbers the saved one would have.

use bevy_ecs::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The generator is boxed: bevy keeps each resource in a column made with
/// room for 64 values, and ChaCha8's state with its block buffer is about
/// 300 bytes, so an unboxed stream would hold 19 KB in every battle (2 % of
/// a thousand-unit battle) for one value.
#[derive(Resource, Debug, PartialEq)]
pub struct BattleRng(pub Box<ChaCha8Rng>);

impl Clone for BattleRng {
    fn clone(&self) -> BattleRng {
        BattleRng(self.0.clone())
    }

    /// Into the box already there: a restart copies the stream without
    /// allocating.
    fn clone_from(&mut self, source: &BattleRng) {
        self.0.clone_from(&source.0);
    }
}

/// The first uniform draw in [0, 1) of the stream of `seed`: what
/// `BattleRng::from_seed(seed).unit()` gives, without boxing a stream.
pub fn first_unit(seed: u64) -> f64 {
    ChaCha8Rng::seed_from_u64(seed).random::<f64>()
}

impl BattleRng {
    pub fn new(rng: ChaCha8Rng) -> BattleRng {
        BattleRng(Box::new(rng))
    }

    pub fn from_seed(seed: u64) -> BattleRng {
        BattleRng::new(ChaCha8Rng::seed_from_u64(seed))
    }

    /// Starts the stream again from `seed`, in the box already there.
    pub fn reseed(&mut self, seed: u64) {
        *self.0 = ChaCha8Rng::seed_from_u64(seed);
    }

    /// A uniform draw in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.0.random::<f64>()
    }

    /// A factor of mean 1 for luck of spread `spread` (0-1): `1 - spread`
    /// plus `spread` times an exponential draw of mean 1 — mostly a little
    /// under the mean, now and then well over it (a volley that tells, a
    /// horse that goes down and takes the file behind with it). Its
    /// standard deviation is `spread`.
    pub fn luck(&mut self, spread: f64) -> f64 {
        let u = self.unit();
        (1.0 - spread) + spread * -(1.0 - u).ln()
    }

    /// True with probability `p` (clamped to [0, 1]; NaN counts as 0).
    pub fn chance(&mut self, p: f64) -> bool {
        let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
        self.unit() < p
    }

    /// A uniform index in `0..n` (0 when n is 0).
    pub fn index(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { self.0.random_range(0..n) }
    }

    /// Position in the stream, for reports and save checks.
    pub fn word_pos(&self) -> u128 {
        self.0.get_word_pos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_unit_is_the_boxed_streams_first_draw() {
        for seed in [0, 1, 2, 0xdead_beef, u64::MAX] {
            let first = BattleRng::from_seed(seed).unit();
            assert_eq!(first_unit(seed).to_bits(), first.to_bits(), "seed {seed}");
        }
    }
}
