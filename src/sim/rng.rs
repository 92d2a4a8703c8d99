//! The battle's one random stream: ChaCha8 from the game seed, saved with the world.

use bevy_ecs::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

#[derive(Resource, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleRng(pub ChaCha8Rng);

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

    /// Position in the stream, for reports and save checks.
    pub fn word_pos(&self) -> u128 {
        self.0.get_word_pos()
    }
}
