//! Rookling: a UCI chess engine whose first job is exact, fast perft.
//!
//! Dependencies point one way: [`board`] -> [`movegen`] -> [`perft`] -> search ->
//! UCI / CLI, and [`compare`] (driving other engines) beside them. The core (board,
//! movegen, perft) does no I/O.

#![warn(missing_docs)]

pub mod board;
pub mod cli;
pub mod compare;
pub mod eval;
pub mod movegen;
pub mod perft;
pub mod search;
pub mod uci;
