//! Make/unmake and `gives_check` checked over every legal move: the board's own tests,
//! kept here because they need the generator to list the moves (the board does not
//! import movegen).

use crate::board::{Color, PieceType, Position, START_FEN};
use crate::movegen::legal_moves;
use crate::rng::Rng;

/// What `make_lite` must update: the bitboards, en passant and castling rights.
fn lite_fields(pos: &Position) -> ([u64; 6], [u64; 2], Option<String>, String) {
    let kinds = PieceType::ALL.map(|kind| pos.pieces(kind).0);
    let colors = Color::ALL.map(|color| pos.color(color).0);
    let ep = pos.en_passant().map(|sq| format!("{sq:?}"));
    (kinds, colors, ep, format!("{:?}", pos.castling()))
}

/// Every move of every position reachable in two plies restores the position exactly.
fn check_restores(fen: &str) {
    let mut pos = Position::from_fen(fen).expect("valid FEN");
    let before = pos.clone();
    for mv in legal_moves(&pos).iter().copied() {
        let undo = pos.make(mv);
        assert_eq!(pos.key(), pos.compute_key(), "key after {mv:?} in {fen}");
        let inner = pos.clone();
        for reply in legal_moves(&pos).iter().copied() {
            let u2 = pos.make(reply);
            assert_eq!(pos.key(), pos.compute_key(), "key after {mv:?} {reply:?}");
            pos.unmake(reply, &u2);
            assert_eq!(pos, inner);
        }
        pos.unmake(mv, &undo);
        assert_eq!(pos, before, "unmake of {mv:?} in {fen}");
        let lite = pos.make_lite(mv);
        assert_eq!(
            lite_fields(&inner),
            lite_fields(&pos),
            "make_lite of {mv:?} in {fen}"
        );
        pos.unmake_lite(mv, &lite);
        assert_eq!(pos, before, "unmake_lite of {mv:?} in {fen}");
    }
}

#[test]
fn make_unmake_restores_every_field() {
    for fen in [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/3p4/1Pp4r/1K5k/5p2/4P1P1/1R6 w - c6 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "1r2k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    ] {
        check_restores(fen);
    }
}

/// Every legal move of every position two plies deep from positions rich in
/// checks, discovered checks, promotions, en passant and castling (standard and
/// Chess960): `gives_check` and `gives_check_with` say what making the move says.
#[test]
fn gives_check_agrees_with_making_the_move() {
    for fen in [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/8/8/2k5/3Pp3/8/8/4KQ2 b - d3 0 1",
        "2r1k2r/8/8/8/8/8/8/R3K1R1 w Qk - 0 1",
        "1rk3r1/8/8/8/8/8/8/1R1K2R1 b GBgb - 0 1",
        "4k3/1P6/8/8/8/8/8/4K2R w K - 0 1",
    ] {
        let root = Position::from_fen(fen).expect("valid FEN");
        let mut checked = 0;
        for first in legal_moves(&root).iter().copied() {
            let mut pos = root.clone();
            pos.play(first);
            let check = pos.check_squares();
            for mv in legal_moves(&pos).iter().copied() {
                let mut after = pos.clone();
                after.play(mv);
                assert_eq!(
                    pos.gives_check(mv),
                    after.in_check(),
                    "{fen} {first:?} {mv:?}"
                );
                assert_eq!(
                    pos.gives_check_with(&check, mv),
                    after.in_check(),
                    "with check squares: {fen} {first:?} {mv:?}"
                );
                checked += 1;
            }
        }
        assert!(checked > 0, "{fen}");
    }
}

/// `gives_check_with` against making the move, for every legal move along random games
/// (the crate's seeded [`Rng`]) from openings, middlegames and Chess960 starts: positions
/// full of pins, discovered checks and promotions that the hand-picked ones may miss.
#[test]
fn check_squares_agree_with_making_the_move_along_random_games() {
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let mut checked = 0u32;
    for fen in [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R b KQ - 0 8",
    ] {
        for _ in 0..40 {
            let mut pos = Position::from_fen(fen).expect("valid FEN");
            for _ in 0..160 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let check = pos.check_squares();
                for mv in moves.iter().copied() {
                    let mut after = pos.clone();
                    after.play(mv);
                    assert_eq!(
                        pos.gives_check_with(&check, mv),
                        after.in_check(),
                        "{} {mv:?}",
                        pos.to_fen()
                    );
                    checked += 1;
                }
                let pick = rng.pick(&moves).copied();
                pos.play(pick.expect("a legal move"));
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}
