//! Rookling's perft against Stockfish's `go perft` on positions that are in no file:
//! random games from the start position, from Chess960 starting arrays and from the
//! suite's tricky positions, biased towards captures, promotions and checks.

use crate::common;

use rookling::board::{Position, START_FEN};
use rookling::movegen::legal_moves;
use rookling::perft::divide;
use rookling::perft::epd::parse_epd;

/// xorshift64: a seeded generator, so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The Chess960 starting position numbered `n` (0..960, Scharnagl's numbering).
fn chess960_start(mut n: usize) -> String {
    let mut rank = [' '; 8];
    rank[(n % 4) * 2 + 1] = 'b';
    n /= 4;
    rank[(n % 4) * 2] = 'b';
    n /= 4;
    let free = |rank: &[char; 8]| (0..8).filter(|&f| rank[f] == ' ').collect::<Vec<_>>();
    rank[free(&rank)[n % 6]] = 'q';
    n /= 6;
    let knights = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = knights[n];
    let empty = free(&rank);
    rank[empty[a]] = 'n';
    rank[empty[b]] = 'n';
    let rest = free(&rank);
    rank[rest[0]] = 'r';
    rank[rest[1]] = 'k';
    rank[rest[2]] = 'r';
    let black: String = rank.iter().collect();
    let rooks: String = [rest[2], rest[0]]
        .iter()
        .map(|&f| (b'a' + f as u8) as char)
        .collect();
    format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{} w {}{rooks} - 0 1",
        black.to_uppercase(),
        rooks.to_uppercase()
    )
}

/// Plays up to `plies` random legal moves, preferring captures and promotions half the time.
fn random_game(pos: &mut Position, plies: usize, rng: &mut Rng) {
    for _ in 0..plies {
        let moves = legal_moves(pos);
        if moves.is_empty() {
            return;
        }
        let forcing: Vec<_> = moves
            .iter()
            .filter(|&&m| pos.is_capture(m) || m.promotion_piece().is_some())
            .collect();
        let mv = if !forcing.is_empty() && rng.below(2) == 0 {
            *forcing[rng.below(forcing.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        pos.play(mv);
    }
}

#[test]
#[cfg_attr(
    not(has_stockfish),
    ignore = "needs stockfish (apt-get install stockfish)"
)]
fn random_positions_match_stockfish() {
    let stockfish = common::stockfish();
    let mut sf = common::Uci::start(&stockfish);
    let suite = std::fs::read_to_string("tests/data/standard.epd").expect("suite file");
    let suite = parse_epd(&suite).unwrap_or_else(|e| panic!("{}", e.at("standard.epd")));
    let tricky: Vec<&str> = suite.iter().map(|entry| entry.fen.as_str()).collect();
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut checked = 0;
    for game in 0..600 {
        let start = match game % 3 {
            0 => START_FEN.to_string(),
            1 => chess960_start(rng.below(960)),
            _ => tricky[rng.below(tricky.len())].to_string(),
        };
        let mut pos = Position::from_fen(&start).expect("valid start");
        random_game(&mut pos, rng.below(70), &mut rng);
        if legal_moves(&pos).is_empty() {
            continue;
        }
        let chess960 = pos.is_chess960();
        let fen = pos.to_fen();
        let depth = if legal_moves(&pos).len() > 30 { 3 } else { 4 };
        let mut mine = divide(&pos, depth);
        let total: u128 = mine.iter().map(|(_, n)| n).sum();
        let (theirs, sf_total) = sf.perft(&fen, depth, chess960);
        if total != u128::from(sf_total) {
            let mut lines: Vec<String> = mine
                .drain(..)
                .map(|(m, n)| format!("{}: {n}", m.uci(chess960)))
                .collect();
            lines.sort();
            panic!(
                "perft {depth} of {fen}: {total} vs Stockfish {sf_total}\n{lines:?}\n{theirs:?}"
            );
        }
        checked += 1;
    }
    assert!(checked > 500, "only {checked} positions checked");
}

#[test]
fn chess960_numbering() {
    assert_eq!(
        chess960_start(518),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
}
