//! The divide printer: `go perft` and `rookling perft` both print through it, in
//! Stockfish's format, each front end choosing the order of the root moves.

use super::stockfish_order::stockfish_order;
use crate::board::{Move, Position};

/// The order of the root moves in a divide.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RootOrder {
    /// As Rookling's generator lists them (`rookling perft`).
    Generator,
    /// As Stockfish 15.1 lists them (`go perft`, so the two outputs can be diffed).
    Stockfish,
}

/// One `move: count` line per root move of `divide` (the divide of `pos` at `depth`) in
/// `order`, a blank line, then `Nodes searched: N` (1 at depth 0, as `perft 0` counts
/// the position itself).
pub fn divide_lines(
    pos: &Position,
    depth: u32,
    divide: &[(Move, u128)],
    order: RootOrder,
) -> Vec<String> {
    let total: u128 = if depth == 0 {
        1
    } else {
        divide.iter().map(|(_, nodes)| nodes).sum()
    };
    let ordered: Vec<(Move, u128)> = match order {
        RootOrder::Generator => divide.to_vec(),
        RootOrder::Stockfish => {
            let moves: Vec<Move> = divide.iter().map(|&(mv, _)| mv).collect();
            stockfish_order(pos, &moves)
                .into_iter()
                .filter_map(|mv| divide.iter().find(|(m, _)| *m == mv).copied())
                .collect()
        }
    };
    let chess960 = pos.is_chess960();
    let mut lines: Vec<String> = ordered
        .iter()
        .map(|(mv, nodes)| format!("{}: {nodes}", mv.uci(chess960)))
        .collect();
    lines.push(String::new());
    lines.push(format!("Nodes searched: {total}"));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::divide;

    #[test]
    fn both_orders_list_the_same_lines() {
        let pos = Position::startpos();
        let counts = divide(&pos, 2);
        let generator = divide_lines(&pos, 2, &counts, RootOrder::Generator);
        let stockfish = divide_lines(&pos, 2, &counts, RootOrder::Stockfish);
        assert_eq!(generator.len(), 22);
        assert_eq!(generator[20..], ["", "Nodes searched: 400"]);
        assert_eq!(stockfish[0], "a2a3: 20");
        let (mut a, mut b) = (generator.clone(), stockfish.clone());
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert_eq!(
            divide_lines(&pos, 0, &[], RootOrder::Stockfish),
            ["", "Nodes searched: 1"]
        );
    }
}
