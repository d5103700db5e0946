//! Property tests for the FEN parser and the UCI line parser: no input makes them panic,
//! and every position reached by legal play survives FEN and `position fen` round trips.

use proptest::prelude::*;
use rookling::board::Position;
use rookling::movegen::legal_moves;
use rookling::uci::command::Start;
use rookling::uci::{Command, parse};

/// The position after following `choices` (each picks one legal move) from `fen`.
fn walk(fen: &str, choices: &[usize]) -> Position {
    let mut pos = Position::from_fen(fen).expect("valid start");
    for &choice in choices {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let mv = moves[choice % moves.len()];
        pos.play(mv);
    }
    pos
}

/// Same position as far as play goes: FEN, key and legal moves. (Derived equality also
/// compares the castling tables of rights already lost, and the Chess960 spelling, which
/// a FEN without castling rights cannot carry.)
fn same(a: &Position, b: &Position) -> bool {
    let moves = |p: &Position| {
        let mut m: Vec<String> = legal_moves(p).iter().map(|m| m.to_uci(true)).collect();
        m.sort();
        m
    };
    a.to_fen() == b.to_fen() && a.key() == b.key() && moves(a) == moves(b)
}

const STARTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// A FEN placement from 64 squares (`.` empty), with the two kings put on `wk` and `bk`.
fn placement(squares: &[char], wk: usize, bk: usize) -> String {
    let mut board: Vec<char> = squares.to_vec();
    board[wk] = 'K';
    board[bk] = 'k';
    let mut ranks = Vec::new();
    for rank in board.chunks(8) {
        let mut text = String::new();
        let mut empty = 0;
        for &c in rank {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(c);
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    ranks.join("/")
}

proptest! {
    #[test]
    fn random_boards_are_accepted_or_refused_and_counted(
        squares in proptest::collection::vec(
            prop_oneof![8 => Just('.'), 1 => proptest::sample::select(vec!['p', 'n', 'b', 'r', 'q', 'P', 'N', 'B', 'R', 'Q'])],
            64),
        kings in (0usize..64, 0usize..64).prop_filter("two squares", |(a, b)| a != b),
        side in prop_oneof![Just("w"), Just("b")],
        castling in "(-|K?Q?k?q?|[A-H]{0,2}[a-h]{0,2})",
        ep in prop_oneof![Just("-".to_string()), "[a-h][36]"],
    ) {
        let castling = if castling.is_empty() { "-".to_string() } else { castling };
        let fen = format!("{} {side} {castling} {ep}", placement(&squares, kings.0, kings.1));
        if let Ok(pos) = Position::from_fen(&fen) {
            let back = Position::from_fen(&pos.to_fen()).expect("our own FEN is valid");
            prop_assert!(same(&back, &pos), "{}", fen);
            let _ = rookling::perft::perft(&pos, 2);
        }
    }

    #[test]
    fn any_text_is_accepted_or_refused(text in "\\PC{0,120}") {
        match Position::from_fen(&text) {
            // Accepted: a position whose own FEN reads back the same, with a right key.
            Ok(pos) => {
                let back = Position::from_fen(&pos.to_fen()).expect("our own FEN is valid");
                prop_assert!(same(&back, &pos), "{}", text);
                prop_assert_eq!(pos.key(), pos.compute_key());
            }
            // Refused: one line saying why.
            Err(e) => {
                let message = e.to_string();
                prop_assert!(!message.is_empty() && !message.contains('\n'), "{:?}", message);
            }
        }
        // A `position fen` line is a position command or an error, never another command.
        if let Ok(command) = parse(&format!("position fen {text}")) {
            prop_assert!(matches!(command, Command::Position { .. }), "{:?}", command);
        }
    }

    #[test]
    fn fen_shaped_text_is_accepted_or_refused(
        fen in "([pnbrqkPNBRQK1-8]{1,8}/){7}[pnbrqkPNBRQK1-8]{1,8} [wb] [KQkqA-Ha-h-]{1,4} [a-h36-]{1,2}( [0-9]{1,6}){0,2}"
    ) {
        if let Ok(pos) = Position::from_fen(&fen) {
            // Whatever is accepted is a position whose own FEN reads back the same.
            let back = Position::from_fen(&pos.to_fen()).expect("our own FEN is valid");
            prop_assert!(same(&back, &pos));
            prop_assert_eq!(pos.key(), pos.compute_key());
            // And the generator copes with it (odd castling rights, en passant, checks).
            let _ = rookling::perft::perft(&pos, 2);
        }
    }

    #[test]
    fn played_positions_round_trip(start in 0..STARTS.len(), choices in proptest::collection::vec(any::<usize>(), 0..60)) {
        let pos = walk(STARTS[start], &choices);
        let fen = pos.to_fen();
        let back = Position::from_fen(&fen).expect("our own FEN is valid");
        prop_assert!(same(&back, &pos), "{}", fen);
        prop_assert_eq!(
            parse(&format!("position fen {fen}")),
            Ok(Command::Position { start: Start::Fen(fen.clone()), moves: Vec::new() })
        );
        // Without the move counters, only the counters change.
        let short: Vec<&str> = fen.split(' ').take(4).collect();
        let short = Position::from_fen(&short.join(" ")).expect("counters are optional");
        prop_assert_eq!(short.key(), pos.key());
    }
}
