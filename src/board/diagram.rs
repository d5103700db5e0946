//! The board drawn in text as Stockfish 15.1's `d` draws it (UCI `d`, and the failing
//! position in the tools' verdicts), each square optionally marked by the characters
//! around its piece.

use super::{Position, Square};

/// The rule between two ranks.
const RULE: &str = " +---+---+---+---+---+---+---+---+";

/// How a square is marked: the characters written left and right of its piece, in place
/// of the two spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Left of the piece.
    pub open: char,
    /// Right of the piece.
    pub close: char,
}

/// The 18 lines of the board, rank 8 first, then the file letters; `mark` says how to
/// mark each square (`None`: as `d` draws it).
pub fn diagram(pos: &Position, mark: impl Fn(Square) -> Option<Mark>) -> Vec<String> {
    let mut lines = vec![RULE.to_string()];
    for rank in (0..8u8).rev() {
        let mut row = String::from(" |");
        for file in 0..8u8 {
            let sq = Square::from_coords(file, rank);
            let Mark { open, close } = mark(sq).unwrap_or(Mark {
                open: ' ',
                close: ' ',
            });
            row.push(open);
            row.push(pos.piece_on(sq).char());
            row.push(close);
            row.push('|');
        }
        row.push_str(&format!(" {}", rank + 1));
        lines.push(row);
        lines.push(RULE.to_string());
    }
    lines.push("   a   b   c   d   e   f   g   h".to_string());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_squares() {
        let pos = Position::from_fen("4k3/8/8/8/8/5n2/8/4K2q w - - 0 1").expect("valid");
        let e1 = Square::from_coords(4, 0);
        let lines = diagram(&pos, |sq| {
            (sq == e1).then_some(Mark {
                open: '[',
                close: ']',
            })
        });
        assert_eq!(lines.len(), 18);
        assert_eq!(lines[1], " |   |   |   |   | k |   |   |   | 8");
        assert_eq!(lines[15], " |   |   |   |   |[K]|   |   | q | 1");
        assert_eq!(lines[17], "   a   b   c   d   e   f   g   h");
    }
}
