//! The evaluation: a small efficiently updatable neural network (NNUE), trained on
//! Rookling's own self-play games (`rookling datagen`, then `examples/train.rs`; see
//! docs/nnue.md for how the network in `nets/` was made).
//!
//! Shape: 768 inputs per side's view ([`features`]) -> [`HIDDEN`] neurons per view (the
//! [`Accumulator`], updated move by move) -> squared clipped ReLU -> one output, the side
//! to move's view first. Integer arithmetic: the first layer in units of 1/[`QA`], the
//! output weights in 1/[`QB`]; the output scaled to centipawns by [`SCALE`].
//!
//! The network in use ([`network`]) is the one built in (`nets/default.nnue`) unless
//! [`set_network`] put another in its place (UCI `EvalFile`); each search keeps the one
//! it started with.

mod accumulator;
pub mod features;
mod network;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use network::{
    HIDDEN, HIDDEN_STEP, MAX_BUCKETS, Network, NetworkError, QA, QB, SCALE, built_in_network,
    network, network_id, output_bucket, set_network, use_built_in_network,
};

use crate::board::Position;

/// The evaluation of `pos` for the side to move (centipawns) by the network in use
/// ([`network`]), computed from scratch.
pub fn evaluate(pos: &Position) -> i32 {
    let net = network();
    net.evaluate(
        &Accumulator::new(&net, pos),
        pos.side_to_move(),
        pos.occupied().count(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position with colours swapped and the board flipped, the other side to move.
    fn mirror(fen: &str) -> String {
        let parts: Vec<&str> = fen.split(' ').collect();
        let swap = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        let board: Vec<String> = parts[0]
            .split('/')
            .rev()
            .map(|row| row.chars().map(swap).collect())
            .collect();
        let side = if parts[1] == "w" { "b" } else { "w" };
        let mut castling: Vec<char> = parts[2].chars().map(swap).collect();
        castling.sort();
        let castling: String = castling.into_iter().collect();
        format!("{} {side} {castling} - 0 1", board.join("/"))
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in [
            crate::board::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
        ] {
            let a = Position::from_fen(fen).expect("valid FEN");
            let b = Position::from_fen(&mirror(fen)).expect("valid mirrored FEN");
            assert_eq!(evaluate(&a), evaluate(&b), "{fen}");
        }
    }

    #[test]
    fn material_counts_and_the_start_is_balanced() {
        let start = evaluate(&Position::startpos());
        assert!(start.abs() < 60, "start {start}");
        for (fen, least) in [
            (
                "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                150,
            ),
            (
                "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                500,
            ),
            (
                "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1",
                300,
            ),
        ] {
            let pos = Position::from_fen(fen).expect("valid FEN");
            assert!(evaluate(&pos) > least, "{fen}: {}", evaluate(&pos));
        }
    }
}
