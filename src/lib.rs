//! Rookling: a UCI chess engine whose first job is exact, fast perft.
//!
//! Dependencies point one way, each layer using only those before it:
//! [`types`] -> [`attacks`] -> [`board`] -> [`movegen`] -> [`perft`] -> [`nnue`] /
//! [`search`] -> [`uci`] / [`cli`], with `compare` (finding where two engines
//! disagree) beside search, on [`client`] (the one client for other engines and
//! programs, which uses no other module but [`lines`]). The core (types, attacks, board,
//! movegen, perft) does no I/O; [`memory`] (how much memory a table may take, from
//! `/proc/meminfo`), [`rng`] (a seeded random generator) and [`lines`] (reading lines of
//! bounded length) use no other module. [`syzygy`] (endgame tablebases: finding the
//! files, probing them) sits on movegen, below search. [`data`] (the training
//! positions' file format) sits on board.

#![warn(missing_docs)]

pub mod attacks;
pub mod board;
pub mod cli;
pub mod client;
pub(crate) mod compare;
pub mod data;
pub mod lines;
pub mod memory;
pub mod movegen;
pub mod nnue;
pub mod perft;
pub mod rng;
pub mod search;
pub mod syzygy;
pub mod threads;
pub mod types;
pub mod uci;
