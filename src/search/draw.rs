//! Draws the search recognises without searching: repetition, the fifty-move rule and
//! material with which no mate is possible.

use crate::board::{Bitboard, PieceType, Position};

/// Whether the position repeats one in `keys` (the keys of the positions before it,
/// oldest first), looking back only as far as the last capture or pawn move.
#[inline]
pub fn is_repetition(pos: &Position, keys: &[u64]) -> bool {
    let key = pos.key();
    let reach = (pos.halfmove_clock() as usize).min(keys.len());
    let mut back = 2;
    while back <= reach {
        if keys[keys.len() - back] == key {
            return true;
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
