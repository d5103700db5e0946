//! Fuzz bytes to chess positions: a start (a seed position, or a placement the bytes
//! describe and the FEN parser accepts) and then a walk of moves chosen by the bytes.

use rookling::board::{Position, START_FEN};
use rookling::movegen::legal_moves;

/// Where walks start: the standard position, the perft suites' tricky ones (castling
/// through attacks, promotions, en passant pins) and Chess960 starts.
pub const SEEDS: [&str; 12] = [
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
    "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1",
];

/// Piece letters a placement byte chooses from (kings are placed separately).
const PIECES: &[u8; 10] = b"PNBRQpnbrq";

/// The position `data` starts from, and the bytes left for choosing moves; `None` when
/// the placement the bytes describe is not a legal position.
///
/// The first byte chooses: even, a seed ([`SEEDS`], by the second byte); odd, a
/// placement: side and castling flags, en passant file, Chess960 rook files, the two
/// kings' squares, then up to 32 (square, piece) pairs.
pub fn start(data: &[u8]) -> Option<(Position, &[u8])> {
    let (&mode, rest) = data.split_first()?;
    if mode & 1 == 0 {
        let (&seed, rest) = rest.split_first().unwrap_or((&0, &[]));
        let pos = Position::from_fen(SEEDS[usize::from(seed) % SEEDS.len()]).ok()?;
        return Some((pos, rest));
    }
    let [
        flags,
        ep_file,
        files_lo,
        files_hi,
        white_king,
        black_king,
        count,
        rest @ ..,
    ] = rest
    else {
        return None;
    };
    let count = usize::from(*count % 33);
    let (pairs, rest) = rest.split_at(rest.len().min(2 * count));
    let mut board = [b'.'; 64];
    for pair in pairs.chunks_exact(2) {
        board[usize::from(pair[0] % 64)] = PIECES[usize::from(pair[1]) % PIECES.len()];
    }
    board[usize::from(*white_king % 64)] = b'K';
    board[usize::from(*black_king % 64)] = b'k';

    let side = if flags & 1 == 0 { "w" } else { "b" };
    let rook_files = u16::from(*files_lo) | u16::from(*files_hi) << 8;
    let mut castling = String::new();
    for (i, letter) in "KQkq".chars().enumerate() {
        if flags >> (1 + i) & 1 == 0 {
            continue;
        }
        if flags & 0x20 == 0 {
            castling.push(letter);
        } else {
            let file = (b'a' + (rook_files >> (3 * i) & 7) as u8) as char;
            castling.push(if i < 2 {
                file.to_ascii_uppercase()
            } else {
                file
            });
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let ep = if flags & 0x40 == 0 {
        "-".to_string()
    } else {
        let rank = if side == "w" { '6' } else { '3' };
        format!("{}{rank}", (b'a' + ep_file % 8) as char)
    };
    let placement = placement(&board);
    // The bytes' rights or en passant square may not fit the placement: try without.
    [
        format!("{placement} {side} {castling} {ep} 0 1"),
        format!("{placement} {side} - {ep} 0 1"),
        format!("{placement} {side} {castling} - 0 1"),
        format!("{placement} {side} - - 0 1"),
    ]
    .iter()
    .find_map(|fen| Position::from_fen(fen).ok())
    .map(|pos| (pos, rest))
}

/// The FEN placement field of `board` (index 0 = a1; `.` for an empty square).
fn placement(board: &[u8; 64]) -> String {
    let mut text = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                b'.' => empty += 1,
                piece => {
                    if empty > 0 {
                        text.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    text.push(char::from(piece));
                }
            }
        }
        if empty > 0 {
            text.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            text.push('/');
        }
    }
    text
}

/// Plays the move each byte of `choices` picks (by index, modulo the number of legal
/// moves), calling `visit` on every position on the way, the start included; stops at
/// the first position without moves or after `max_plies` moves.
pub fn walk(mut pos: Position, choices: &[u8], max_plies: usize, mut visit: impl FnMut(&Position)) {
    visit(&pos);
    for &choice in choices.iter().take(max_plies) {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            return;
        }
        pos.play(moves[usize::from(choice) % moves.len()]);
        visit(&pos);
    }
}
