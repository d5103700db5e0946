//! `go perft 1` through UCI, line for line (order included) against Stockfish 15.1, on
//! the suite positions and on positions reached from them by seeded random play biased
//! towards captures, promotions and checks (evasions, en passant, castling rights lost).

use crate::common;

use common::Uci;
use rookling::board::Position;
use rookling::movegen::legal_moves;
use rookling::perft::epd::parse_epd;
use std::path::Path;

/// A seeded generator (64-bit LCG), so a failure can be replayed.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// The FENs of a suite file, read by the library's EPD reader.
fn suite(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("suite file");
    let suite = parse_epd(&text).unwrap_or_else(|e| panic!("{}", e.at(name)));
    suite.into_iter().map(|entry| entry.fen).collect()
}

/// Positions every `step` plies along a random game of `plies` from `fen`.
fn walk(fen: &str, rng: &mut Lcg, plies: usize, step: usize) -> Vec<String> {
    let mut pos = Position::from_fen(fen).expect("suite FEN");
    let mut fens = vec![pos.to_fen()];
    for ply in 1..=plies {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        // Prefer captures and promotions half of the time.
        let forcing: Vec<_> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m) || m.promotion_piece().is_some())
            .collect();
        let mv = if !forcing.is_empty() && rng.below(2) == 0 {
            forcing[rng.below(forcing.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        pos.play(mv);
        if ply % step == 0 {
            fens.push(pos.to_fen());
        }
    }
    fens
}

/// The lines of `go perft 1` up to and including `Nodes searched`, in order.
fn divide_lines(engine: &mut Uci, fen: &str) -> Vec<String> {
    engine.send(&format!("position fen {fen}"));
    engine.send("go perft 1");
    let lines = engine.read_until(|l| l.starts_with("Nodes searched:"));
    assert_eq!(
        engine.read_until(|_| true),
        [""],
        "a blank line after the total"
    );
    lines
}

fn compare(fens: &[String], chess960: bool) {
    let stockfish = common::stockfish();
    let mut sf = Uci::start(&stockfish);
    let mut ours = Uci::start(Path::new(env!("CARGO_BIN_EXE_rookling")));
    for engine in [&mut sf, &mut ours] {
        engine.send(&format!("setoption name UCI_Chess960 value {chess960}"));
    }
    let mut rng = Lcg(0x0004_0de5);
    let mut checked = 0;
    for start in fens {
        for fen in walk(start, &mut rng, 36, 6) {
            assert_eq!(
                divide_lines(&mut ours, &fen),
                divide_lines(&mut sf, &fen),
                "{fen}"
            );
            checked += 1;
        }
    }
    eprintln!("{checked} positions, same divide lines in the same order");
}

#[test]
#[cfg_attr(
    not(has_stockfish),
    ignore = "needs stockfish (apt-get install stockfish)"
)]
fn divide_order_matches_stockfish_standard() {
    compare(&suite("standard.epd"), false);
}

#[test]
#[cfg_attr(
    not(has_stockfish),
    ignore = "needs stockfish (apt-get install stockfish)"
)]
fn divide_order_matches_stockfish_chess960() {
    let fens = suite("fischer.epd");
    let sample: Vec<String> = fens.iter().step_by(4).cloned().collect();
    compare(&sample, true);
}
