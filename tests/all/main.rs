//! The integration tests in one binary, a module a file: each test binary
//! links the whole engine and its dependencies again, so one binary instead
//! of a dozen saves most of a fresh `cargo test`'s link time (as ripgrep
//! does). Run one file's tests with `cargo test --test all saves::`.
//!
//! Two stay binaries of their own: `golden` (`cargo test --test golden`,
//! the whole play-throughs) and `lazy_hant`, which needs a process whose
//! conversion tables nobody has built yet.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod damaged;
mod decisions;
mod hant;
mod hardening;
mod lint;
mod model;
mod picture;
mod prompt;
mod saves;
mod scenes;
mod simulate;
mod story;
mod terminal;
mod views;
mod water;
