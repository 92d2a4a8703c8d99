//! xiaoling: a text-adventure engine for the battles of the Xiaoling River (小凌河).
//!
//! The pipeline, in the order data flows through it:
//!
//! - [`scene`]: RON files → raw serde types → validation → a [`scene::Scene`]
//!   that is valid by construction, or every problem found with its position.
//! - [`sim`]: the bevy_ecs world of units, commanders and zones, and the ordered
//!   turn schedule (weather, perception, rumor, movement, combat, morale, rally,
//!   surrender). No IO, no printing.
//! - [`story`]: turning points, events, endings and the policy of the side
//!   nobody plays; drives the simulation and records what happened.
//! - [`save`]: the versioned save file.
//! - [`simulate`]: many games played automatically and the typed report of
//!   where they end (`simulate`); [`graph`]: the choice graph (`graph`).
//! - [`repl`]: the only layer that prints: rendering, wrapping, colour, commands.
//! - [`cli`]: command-line parsing and the subcommands.

pub mod cli;
pub mod files;
pub mod graph;
pub mod lint;
pub mod picture;
pub mod repl;
pub mod save;
pub mod scene;
pub mod sim;
pub mod simulate;
pub mod stdx;
pub mod story;
