//! The static evaluation of one position as the search's leaves see it (UCI `eval`):
//! the network's output, and the endgame rule that replaces it, if one applies. The
//! search adds a correction history learnt while searching, which is not part of it.

pub use super::endgame::Rule;
use super::endgame::known_rule;
use super::score::MATE_BOUND;
use crate::board::{Color, Position};
use crate::nnue;

/// A position's static evaluation, side to move's view, in centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaticEval {
    /// The network's output.
    pub network: i32,
    /// The endgame rule that replaces it, and the rule's score.
    pub rule: Option<(Rule, i32)>,
    /// What the search uses: the rule's score if there is one, else the network's,
    /// kept below the mate scores.
    pub eval: i32,
    /// The side to move.
    pub side_to_move: Color,
}

impl StaticEval {
    /// `score` (side to move's view) from White's view.
    pub fn white(&self, score: i32) -> i32 {
        match self.side_to_move {
            Color::White => score,
            Color::Black => -score,
        }
    }
}

/// The static evaluation of `pos`.
pub fn static_eval(pos: &Position) -> StaticEval {
    let network = nnue::evaluate(pos);
    let rule = known_rule(pos);
    let eval = rule.map_or(network, |(_, score)| score);
    StaticEval {
        network,
        rule,
        eval: eval.clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
        side_to_move: pos.side_to_move(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_replaces_the_network_and_views_agree() {
        let kbnk = Position::from_fen("8/8/8/3k4/8/8/8/2B1KN2 b - - 0 1").expect("valid");
        let e = static_eval(&kbnk);
        let (rule, score) = e.rule.expect("KBNK rule");
        assert_eq!(rule, Rule::Kbnk);
        assert_eq!(e.eval, score);
        assert!(e.white(e.eval) > 0 && e.eval < 0);
        let start = static_eval(&Position::startpos());
        assert_eq!(start.rule, None);
        assert_eq!(start.eval, start.network);
        assert_eq!(start.white(start.eval), start.eval);
    }
}
