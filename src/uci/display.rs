//! `d`: the board drawn as Stockfish 15.1 draws it ([`crate::board::diagram`]), then
//! `Fen:`, `Key:` and `Checkers:`.

use crate::board::{Position, diagram};

/// The lines `d` prints for `pos` (the first one empty, as in Stockfish).
pub fn display(pos: &Position) -> Vec<String> {
    let mut lines = vec![String::new()];
    lines.extend(diagram::diagram(pos, |_| None));
    lines.push(String::new());
    lines.push(format!("Fen: {}", pos.to_fen()));
    lines.push(format!("Key: {:016X}", pos.key()));
    let mut checkers = String::from("Checkers: ");
    for sq in pos.checkers() {
        checkers.push_str(&format!("{sq} "));
    }
    lines.push(checkers);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_like_stockfish() {
        let pos = Position::from_fen("4k3/8/8/8/8/5n2/8/4K2q w - - 0 1").expect("valid");
        let lines = display(&pos);
        assert_eq!(lines.len(), 23);
        assert_eq!(lines[0], "");
        assert_eq!(lines[1], " +---+---+---+---+---+---+---+---+");
        assert_eq!(lines[2], " |   |   |   |   | k |   |   |   | 8");
        assert_eq!(lines[16], " |   |   |   |   | K |   |   | q | 1");
        assert_eq!(lines[18], "   a   b   c   d   e   f   g   h");
        assert_eq!(lines[20], "Fen: 4k3/8/8/8/8/5n2/8/4K2q w - - 0 1");
        assert_eq!(lines[21], format!("Key: {:016X}", pos.key()));
        assert_eq!(lines[22], "Checkers: h1 f3 ");
    }
}
