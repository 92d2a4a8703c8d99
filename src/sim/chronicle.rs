//! The chronicle: typed events every system emits; the REPL turns them into
//! localized prose. Indices refer to the scene's units, zones, sides and commanders.

use crate::scene::{Compass, Fate};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Entry {
    Wind {
        strength: f64,
        toward: Compass,
    },
    /// The wind turned by itself (drift): `veers` clockwise (south to
    /// west), else backs; it now blows toward `toward` at `strength`.
    WindShifts {
        strength: f64,
        toward: Compass,
        veers: bool,
    },
    FireStarts {
        zone: usize,
    },
    FireSpreads {
        zone: usize,
    },
    FireOut {
        zone: usize,
    },
    SmokeThick {
        zone: usize,
    },
    SmokeClears {
        zone: usize,
    },
    RumorBelieved {
        unit: usize,
        about: usize,
        routed: bool,
    },
    RumorDoubted {
        unit: usize,
    },
    Moves {
        unit: usize,
        from: usize,
        to: usize,
    },
    Crossed {
        unit: usize,
        zone: usize,
        to: usize,
    },
    Jammed {
        zone: usize,
        men: u32,
    },
    /// Men knocked down in a crush (or drowned) in a crossing: all of
    /// them, and by side (the side each unit fights for).
    Trampled {
        zone: usize,
        men: u32,
        losses: Vec<(usize, u32)>,
    },
    Clash {
        zone: usize,
        losses: Vec<(usize, u32)>,
    },
    /// Men killed by the fire in a burning zone (rule `fire_casualties`):
    /// all of them, and by side.
    Burned {
        zone: usize,
        men: u32,
        losses: Vec<(usize, u32)>,
    },
    Casualties {
        unit: usize,
        men: u32,
    },
    Wavers {
        unit: usize,
    },
    Steadies {
        unit: usize,
    },
    Routs {
        unit: usize,
    },
    Cascade {
        unit: usize,
    },
    Shattered {
        unit: usize,
    },
    Drums {
        commander: usize,
        zone: usize,
    },
    DrumsHeard {
        unit: usize,
        commander: usize,
    },
    Rallies {
        unit: usize,
    },
    Surrenders {
        unit: usize,
        men: u32,
        officers: u32,
    },
    Arrives {
        unit: usize,
        zone: usize,
    },
    /// A crossing (or a zone) blown or broken: the men who went down with
    /// it, all of them and by unit (so each side is told its own dead).
    Destroyed {
        zone: usize,
        men: u32,
        hits: Vec<(usize, u32)>,
    },
    CommanderFalls {
        commander: usize,
        fate: Fate,
    },
    /// One of the scene's obscurants (by its index) now hides the zone.
    Obscured {
        zone: usize,
        by: usize,
    },
    /// It no longer does.
    Unobscured {
        zone: usize,
        by: usize,
    },
}

/// The entries of the turn being run (the turn's own, not the world's:
/// see [`super::TurnIo`]).
#[derive(Debug, Clone, Default)]
pub struct Chronicle {
    pub entries: Vec<Entry>,
    /// Nobody reads this turn's entries (a simulated game): none are kept.
    /// The systems never read the chronicle to decide anything, so the
    /// turn plays the same either way.
    pub off: bool,
}

impl Chronicle {
    #[inline]
    pub fn push(&mut self, entry: Entry) {
        if !self.off {
            self.entries.push(entry);
        }
    }

    /// One entry per zone where men died, from `dead` (zone-major, a count
    /// per side): `entry(zone, men, losses by side)`, losses only of the
    /// sides that lost any (the crush's and the fire's dead alike).
    pub fn push_losses_by_zone(
        &mut self,
        dead: &[u32],
        n_sides: usize,
        entry: impl Fn(usize, u32, Vec<(usize, u32)>) -> Entry,
    ) {
        if self.off {
            return;
        }
        for (zone, by_side) in dead.chunks(n_sides.max(1)).enumerate() {
            let men: u32 = by_side.iter().sum();
            if men > 0 {
                let losses = by_side
                    .iter()
                    .enumerate()
                    .filter(|(_, men)| **men > 0)
                    .map(|(side, men)| (side, *men))
                    .collect();
                self.push(entry(zone, men, losses));
            }
        }
    }
}
