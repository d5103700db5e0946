//! Rookling used as a perft oracle from another crate: a stand-in generator checked
//! against `perft`, `divide` and the statistics, and a planted bug found by the drill.

use rookling::board::{MoveKind, Position};
use rookling::movegen::legal_moves;
use rookling::perft::stats::{Columns, stats};
use rookling::perft::{PerftOptions, divide, perft, perft_with};
use rookling_oracle_example::{Difference, Divide, first_difference};
use std::sync::atomic::AtomicBool;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const CHESS960: &str = "1rk3r1/8/8/8/8/8/8/1R1K2R1 b GBgb - 0 1";

/// A stand-in for a user's own generator: a plain recursive perft over Rookling's legal
/// moves, with make/unmake. `skip_en_passant` plants a bug.
struct Naive {
    skip_en_passant: bool,
}

impl Naive {
    fn moves(&self, pos: &Position) -> Vec<rookling::board::Move> {
        legal_moves(pos)
            .iter()
            .copied()
            .filter(|mv| !(self.skip_en_passant && mv.kind() == MoveKind::EnPassant))
            .collect()
    }

    fn perft(&self, pos: &mut Position, depth: u32) -> u128 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        for mv in self.moves(pos) {
            let undo = pos.make(mv);
            nodes += self.perft(pos, depth - 1);
            pos.unmake(mv, &undo);
        }
        nodes
    }
}

impl Divide for Naive {
    fn divide(&self, fen: &str, depth: u32) -> Vec<(String, u128)> {
        let mut pos = Position::from_fen(fen).expect("a valid FEN");
        let chess960 = pos.is_chess960();
        self.moves(&pos)
            .into_iter()
            .map(|mv| {
                let undo = pos.make(mv);
                let nodes = self.perft(&mut pos, depth - 1);
                pos.unmake(mv, &undo);
                (mv.to_uci(chess960), nodes)
            })
            .collect()
    }
}

#[test]
fn perft_and_divide_are_exact() {
    let start = Position::startpos();
    assert_eq!(perft(&start, 5), 4_865_609);
    let kiwipete = Position::from_fen(KIWIPETE).expect("Kiwipete");
    assert_eq!(perft(&kiwipete, 4), 4_085_603);
    let split = divide(&kiwipete, 3);
    assert_eq!(split.len(), 48);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u128>(), 97_862);
    // Threads and a hash table give the same count.
    let options = PerftOptions {
        threads: 2,
        hash_mb: 16,
    };
    let count = perft_with(&kiwipete, 4, &options, &AtomicBool::new(false));
    assert_eq!(count, Some(4_085_603));
}

#[test]
fn a_correct_generator_agrees_everywhere() {
    let mine = Naive {
        skip_en_passant: false,
    };
    for (fen, depth) in [
        (rookling::board::START_FEN, 4),
        (KIWIPETE, 3),
        (POSITION_3, 5),
        (CHESS960, 3),
    ] {
        assert_eq!(first_difference(&mine, fen, depth), Ok(None), "{fen}");
    }
}

#[test]
fn a_planted_bug_is_found_to_the_move() {
    let buggy = Naive {
        skip_en_passant: true,
    };
    let found = first_difference(&buggy, POSITION_3, 4)
        .expect("a valid FEN")
        .expect("en passant is missed somewhere below");
    let Difference {
        fen,
        depth,
        mv,
        expected,
        found,
    } = found;
    // The drill stops where the generator lists no such move: the count Rookling has
    // below it is all that is missing.
    assert!(depth < 4, "the drill went down from the root");
    assert!(
        expected > 0 && found == 0,
        "{mv} missing in {fen} at depth {depth}"
    );
    let mut pos = Position::from_fen(&fen).expect("the drill's FEN");
    let played = pos.try_play(&mv).expect("Rookling's own move is legal");
    assert_eq!(played.kind(), MoveKind::EnPassant, "{fen} {mv}");
}

#[test]
fn the_statistics_break_the_count_down() {
    // Kiwipete at depth 3, as the chessprogramming wiki gives it.
    let kiwipete = Position::from_fen(KIWIPETE).expect("Kiwipete");
    let table = stats(&kiwipete, 3);
    // nodes, captures, en passant, castles, promotions, checks, discovered checks,
    // double checks, checkmates
    let expected = [97_862, 17_102, 45, 3_162, 0, 993, 0, 0, 1];
    assert_eq!(table.classic_counts(), expected);
    let labels = table.rows(Columns::Classic);
    assert_eq!(labels.len(), 9);
    assert_eq!(labels[0], ("nodes", 97_862));
}

#[test]
fn bad_moves_are_refused_and_change_nothing() {
    let mut pos = Position::startpos();
    let before = pos.to_fen();
    assert!(pos.try_play("e2e5").is_err(), "illegal");
    assert!(pos.try_play("e9e4").is_err(), "not a move");
    assert!(pos.try_play("").is_err(), "empty");
    assert_eq!(pos.to_fen(), before);
    pos.try_play("e2e4").expect("legal");
    assert_ne!(pos.to_fen(), before);
}
