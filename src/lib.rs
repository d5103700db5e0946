//! Rookling: a UCI chess engine whose first job is exact, fast perft.
//!
//! Dependencies point one way, each layer using only those before it:
//! [`types`] -> [`attacks`] -> [`board`] -> [`movegen`] -> [`perft`] -> [`eval`] /
//! [`search`] -> [`uci`] / [`cli`], with [`compare`] (driving other engines over UCI)
//! beside search. The core (types, attacks, board, movegen, perft) does no I/O.

#![warn(missing_docs)]

pub mod attacks;
pub mod board;
pub mod cli;
pub mod compare;
pub mod eval;
pub mod movegen;
pub mod perft;
pub mod search;
pub mod types;
pub mod uci;
