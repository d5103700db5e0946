//! Draws the search recognises without searching: repetition, the fifty-move rule and
//! material with which no mate is possible.

use crate::board::{Bitboard, PieceType, Position};

/// Whether the position at `ply` is a draw by repetition, by Stockfish's rule: it
/// repeats a position of the search path after the root, or a position of the game
/// (the root included) that had itself occurred before, so that this is its third
/// time. A repetition of a game position only once, which the side to move there may
/// still avoid the next time, is not a draw. `keys` holds the keys of the positions
/// before this one, oldest first: the game's, then the path's; the search compares
/// only those from index `floor` on (the positions after the path's last null move,
/// which no real game could repeat through) and since the last capture or pawn move.
#[inline]
pub fn is_repetition(pos: &Position, keys: &[u64], ply: usize, floor: usize) -> bool {
    let key = pos.key();
    let reach = (pos.halfmove_clock() as usize).min(keys.len().saturating_sub(floor));
    let mut back = 2;
    let mut seen = false;
    while back <= reach {
        if keys[keys.len() - back] == key {
            if back < ply || seen {
                return true;
            }
            seen = true;
        }
        back += 2;
    }
    false
}

/// Whether neither side can ever mate: kings with at most one minor piece, or kings and
/// bishops all on squares of one colour.
pub fn insufficient_material(pos: &Position) -> bool {
    let heavy =
        pos.pieces(PieceType::Pawn) | pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
    if heavy.any() {
        return false;
    }
    let knights = pos.pieces(PieceType::Knight);
    let bishops = pos.pieces(PieceType::Bishop);
    let minors = knights | bishops;
    if !minors.more_than_one() {
        return true;
    }
    let dark = Bitboard::DARK_SQUARES;
    knights.is_empty() && ((bishops & dark).is_empty() || (bishops & !dark).is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys of the positions before `moves` are made from `fen`, and the position
    /// after them.
    fn walk(fen: &str, moves: &[&str]) -> (Position, Vec<u64>) {
        let mut pos = Position::from_fen(fen).expect("valid FEN");
        let mut keys = Vec::new();
        for text in moves {
            keys.push(pos.key());
            pos.try_play(text).expect("legal move");
        }
        (pos, keys)
    }

    const SHUFFLE: [&str; 8] = [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ];

    #[test]
    fn a_repetition_inside_the_search_is_a_draw() {
        // The position after two plies again after six.
        let (pos, keys) = walk(crate::board::START_FEN, &SHUFFLE[..6]);
        // The root after the first ply: the earlier one is on the search path.
        assert!(is_repetition(&pos, &keys, 5, 0));
        // The root after two plies is the position itself: once repeated, not a draw
        // (Stockfish's rule too).
        assert!(!is_repetition(&pos, &keys, 4, 0));
        // The root after three plies: a game position, repeated once.
        assert!(!is_repetition(&pos, &keys, 3, 0));
    }

    #[test]
    fn a_game_position_repeated_once_is_not_a_draw_but_twice_is() {
        // Four plies played in the game, the root; two more plies searched.
        let (pos, keys) = walk(crate::board::START_FEN, &SHUFFLE[..4]);
        assert!(
            !is_repetition(&pos, &keys, 2, 0),
            "second time: the game goes on"
        );
        let (pos, keys) = walk(crate::board::START_FEN, &SHUFFLE[..8]);
        assert!(is_repetition(&pos, &keys, 2, 0), "third time: a draw");
    }

    #[test]
    fn nothing_before_the_floor_or_the_last_irreversible_move_counts() {
        let (pos, keys) = walk(crate::board::START_FEN, &SHUFFLE[..6]);
        assert!(is_repetition(&pos, &keys, 5, 0));
        assert!(
            !is_repetition(&pos, &keys, 5, 3),
            "the ply-2 position is below the floor"
        );
        // The same position eight plies back: beyond reach with six plies since the
        // last capture or pawn move, within it with eight.
        assert_eq!(pos.halfmove_clock(), 6);
        let keys: Vec<u64> = std::iter::once(pos.key()).chain(1..=7).collect();
        assert!(!is_repetition(&pos, &keys, 100, 0));
        let (pos, _) = walk(crate::board::START_FEN, &SHUFFLE[..8]);
        let keys: Vec<u64> = std::iter::once(pos.key()).chain(1..=7).collect();
        assert!(is_repetition(&pos, &keys, 100, 0));
    }

    #[test]
    fn dead_positions() {
        for (fen, dead) in [
            ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", true),
            ("8/8/4k3/8/8/3KN3/8/8 w - - 0 1", true),
            ("8/8/4kb2/8/8/3KB3/8/8 w - - 0 1", true),
            ("8/8/4k1b1/8/8/3KB3/8/8 w - - 0 1", false),
            ("8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", false),
            ("8/8/4k3/8/8/3KP3/8/8 w - - 0 1", false),
        ] {
            let pos = Position::from_fen(fen).expect("valid FEN");
            assert_eq!(insufficient_material(&pos), dead, "{fen}");
        }
    }
}
