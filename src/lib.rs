//! Rookling: a UCI chess engine whose first job is exact, fast perft, and its core as a
//! library.
//!
//! **The core** (always built): [`types`] -> [`attacks`] -> [`board`] -> [`movegen`] ->
//! [`perft`] (threads, hash table, work units, statistics) -> [`nnue`] / [`search`], with
//! [`syzygy`] (endgame tablebases) on movegen, below search, and [`data`] (the training
//! positions' file format) on board. [`memory`] (the large tables' memory and how much
//! a table may take), [`threads`] (how many threads, their stack) and [`rng`] (a seeded
//! random generator) use no other module. The core does no I/O but reading
//! `/proc/meminfo`, tablebase and training-data files and the CPU's features; it depends
//! on std, `libc` and `pyrrhic-rs` only. As another crate's perft oracle:
//!
//! ```toml
//! rookling = { version = "0.1", default-features = false }
//! ```
//!
//! ```
//! use rookling::board::Position;
//! use rookling::perft::{divide, perft, stats::stats};
//!
//! let mut pos = Position::startpos();
//! pos.try_play("e2e4")?;
//! assert_eq!(perft(&pos, 3), 13_160);
//! assert_eq!(divide(&pos, 2).len(), 20);
//! assert_eq!(stats(&pos, 2).nodes, 600);
//! # Ok::<(), rookling::movegen::MoveError>(())
//! ```
//!
//! **The engine** (feature `cli`, on by default): `uci` (the UCI loop and its worker
//! thread), `cli` (the `rookling` command line), `client` (the one client for other
//! engines and programs) and `compare` (where two engines disagree), on top of the core;
//! it adds clap, crossbeam-channel, env_logger, indicatif, serde, serde_json, shlex and
//! vampirc-uci. Feature `log` (part of `cli`) passes the core's few warnings to the `log`
//! facade. Dependencies point one way, each layer using only those before it
//! (`tests/integration/modules.rs` checks it; `docs/architecture.md` draws the layers).

#![deny(missing_docs)]

/// A warning through the `log` facade when the `log` feature is on (as it is in the
/// engine); dropped otherwise, so the core needs no logging crate.
macro_rules! log_warn {
    ($($arg:tt)+) => {{
        #[cfg(feature = "log")]
        log::warn!($($arg)+);
        #[cfg(not(feature = "log"))]
        let _ = format_args!($($arg)+);
    }};
}
pub(crate) use log_warn;

pub mod attacks;
pub mod board;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod client;
#[cfg(feature = "cli")]
pub(crate) mod compare;
pub mod data;
#[cfg(feature = "cli")]
pub(crate) mod lines;
pub mod memory;
pub mod movegen;
pub mod nnue;
pub mod perft;
pub mod rng;
pub mod search;
pub mod syzygy;
pub mod threads;
pub mod types;
#[cfg(feature = "cli")]
pub mod uci;
