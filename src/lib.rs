//! Rookling: a UCI chess engine whose first job is exact, fast perft.
//!
//! Dependencies point one way: [`board`] -> [`movegen`] -> [`perft`] -> search ->
//! UCI / CLI, and [`compare`] (finding where two engines disagree) beside them on
//! [`client`] (the one client for other engines and programs). The core (board,
//! movegen, perft) does no I/O.

#![warn(missing_docs)]

pub mod board;
pub mod cli;
pub mod client;
pub mod compare;
pub mod eval;
pub mod movegen;
pub mod perft;
pub mod search;
pub mod uci;
