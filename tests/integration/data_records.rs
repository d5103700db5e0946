//! Every position packs into a 32-byte training record and comes back exactly: the 128
//! standard and 960 Chess960 suite positions, every position two plies from each, and
//! random games played out from each (castling rights lost one by one, en passant,
//! promotions), with scores and results of every kind.

use rookling::board::{CastleSide, Color, Position, Square};
use rookling::data::{GameResult, Record};
use rookling::movegen::legal_moves;
use rookling::perft::epd::parse_epd;
use rookling::search::selfplay::Rng;

fn suite(path: &str) -> Vec<Position> {
    let text = std::fs::read_to_string(path).expect("suite file is in the repository");
    let entries = parse_epd(&text).unwrap_or_else(|e| panic!("{}", e.at(path)));
    entries.into_iter().map(|e| e.position).collect()
}

/// Packs `pos` with a score and a result drawn from `rng`, and checks that everything
/// comes back: the fields, the board square by square, castling rights and their rooks,
/// en passant, the counters, the key, the legal moves, and the FEN (castling spelt as
/// `pos` spells it).
fn check(pos: &Position, rng: &mut Rng) {
    let score = (rng.next_u64() % 70_001) as i32 - 35_000;
    let result = [GameResult::BlackWin, GameResult::Draw, GameResult::WhiteWin][rng.below(3)];
    let end = rng.below(2) == 0;
    let record = Record::new(pos, score, result, end);
    let read =
        Record::from_bytes(record.to_bytes()).unwrap_or_else(|e| panic!("{}: {e}", pos.to_fen()));
    assert_eq!(read, record);
    assert_eq!(read.white_score(), score.clamp(-32_768, 32_767) as i16);
    assert_eq!((read.result(), read.ends_game()), (result, end));
    assert_eq!(read.side_to_move(), pos.side_to_move());
    assert_eq!(u32::from(read.halfmove_clock()), pos.halfmove_clock());
    assert_eq!(u32::from(read.fullmove_number()), pos.fullmove_number());
    assert_eq!(read.occupancy(), pos.occupied());
    for (sq, piece) in read.pieces() {
        assert_eq!(piece, pos.piece_on(sq), "{} on {sq}", pos.to_fen());
    }
    let mut back = read
        .to_position()
        .unwrap_or_else(|e| panic!("{}: {e}", pos.to_fen()));
    // Each right and its rook (what `Castling` keeps of rights already lost may differ).
    for color in Color::ALL {
        for side in CastleSide::ALL {
            let (has, had) = (
                back.castling().has(color, side),
                pos.castling().has(color, side),
            );
            assert_eq!(has, had, "{}", pos.to_fen());
            if has {
                let rook = back.castling().rook(color, side);
                assert_eq!(rook, pos.castling().rook(color, side), "{}", pos.to_fen());
            }
        }
    }
    let moves = |p: &Position| {
        let mut moves: Vec<String> = legal_moves(p).iter().map(|m| m.to_uci(true)).collect();
        moves.sort();
        moves
    };
    assert_eq!(moves(&back), moves(pos), "{}", pos.to_fen());
    assert_eq!(back.en_passant(), pos.en_passant(), "{}", pos.to_fen());
    assert_eq!(back.key(), pos.key(), "{}", pos.to_fen());
    back.set_chess960(pos.is_chess960());
    assert_eq!(back.to_fen(), pos.to_fen());
}

/// Every position within `depth` plies of `pos`.
fn walk(pos: &Position, depth: u32, rng: &mut Rng, seen: &mut u64) {
    check(pos, rng);
    *seen += 1;
    if depth == 0 {
        return;
    }
    for &mv in &legal_moves(pos) {
        let mut next = pos.clone();
        next.play(mv);
        walk(&next, depth - 1, rng, seen);
    }
}

/// A random game from `pos`, to mate, stalemate, the fifty-move rule or 300 plies.
fn play_out(pos: &Position, rng: &mut Rng, seen: &mut u64) {
    let mut pos = pos.clone();
    for _ in 0..300 {
        check(&pos, rng);
        *seen += 1;
        let moves = legal_moves(&pos);
        if moves.is_empty() || pos.halfmove_clock() >= 100 {
            return;
        }
        pos.play(moves[rng.below(moves.len())]);
    }
}

#[test]
fn standard_positions_and_their_neighbours_survive_packing() {
    let mut rng = Rng::new(35);
    let mut seen = 0;
    for pos in suite("tests/data/standard.epd") {
        walk(&pos, 2, &mut rng, &mut seen);
        for _ in 0..4 {
            play_out(&pos, &mut rng, &mut seen);
        }
    }
    assert!(seen > 100_000, "{seen} positions");
}

#[test]
fn chess960_positions_and_their_neighbours_survive_packing() {
    let mut rng = Rng::new(960);
    let mut seen = 0;
    for pos in suite("tests/data/fischer.epd") {
        walk(&pos, 2, &mut rng, &mut seen);
        play_out(&pos, &mut rng, &mut seen);
    }
    assert!(seen > 900_000, "{seen} positions");
}

/// The counters saturate rather than wrap: a half-move clock past 255 (a FEN may say
/// so) reads 255, a move number past 65,535 reads 65,535.
#[test]
fn counters_saturate() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 300 70000").expect("valid");
    let read = Record::new(&pos, 0, GameResult::Draw, true);
    assert_eq!(
        (read.halfmove_clock(), read.fullmove_number()),
        (255, 65_535)
    );
    assert_eq!(read.side_to_move(), Color::Black);
    let back = read.to_position().expect("legal");
    assert_eq!(back.king(Color::White), Square::from_coords(4, 0));
}
