//! The battle's one random stream: ChaCha8 from the game seed, saved with the world.
//!
//! It is saved as its key, stream and position (the position split in two
//! 64-bit halves, since RON has no 128-bit integers), so a loaded game draws
//! exactly the numbers the saved one would have.

use bevy_ecs::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Resource, Debug, Clone, PartialEq)]
pub struct BattleRng(pub ChaCha8Rng);

/// The saved form of a stream.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RngState {
    key: [u8; 32],
    stream: u64,
    position_high: u64,
    position_low: u64,
}

impl Serialize for BattleRng {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let position = self.0.get_word_pos();
        RngState {
            key: self.0.get_seed(),
            stream: self.0.get_stream(),
            position_high: (position >> 64) as u64,
            position_low: position as u64,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for BattleRng {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let state = RngState::deserialize(deserializer)?;
        let mut rng = ChaCha8Rng::from_seed(state.key);
        rng.set_stream(state.stream);
        rng.set_word_pos((u128::from(state.position_high) << 64) | u128::from(state.position_low));
        Ok(BattleRng(rng))
    }
}

impl BattleRng {
    pub fn from_seed(seed: u64) -> BattleRng {
        BattleRng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A uniform draw in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.0.random::<f64>()
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
    fn a_saved_stream_goes_on_where_it_stopped() {
        let mut rng = BattleRng::from_seed(42);
        for _ in 0..17 {
            rng.unit();
        }
        let text = ron::to_string(&rng).expect("serializes");
        let mut loaded: BattleRng = ron::from_str(&text).expect("deserializes");
        assert_eq!(loaded, rng);
        assert_eq!(loaded.unit(), rng.unit());
    }
}
