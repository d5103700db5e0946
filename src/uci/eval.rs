//! `eval`: the static evaluation of the current position, in a fixed format (each line
//! `Label: white +X cp, side to move +Y cp`, documented in docs/uci.md):
//!
//! ```text
//! Network evaluation: white +34 cp, side to move +34 cp
//! Endgame rule: none
//! Final evaluation: white +34 cp, side to move +34 cp
//! ```
//!
//! When a rule replaces the network, the second line names it and gives its score
//! (`Endgame rule: KBNvK, white +1170 cp, side to move -1170 cp`). In check, a fourth
//! line says that the search does not evaluate the position.

use crate::board::Position;
use crate::search::eval::static_eval;

/// `white +X cp, side to move +Y cp` for `score` from the side to move's view.
fn views(score: i32, white: i32) -> String {
    format!("white {white:+} cp, side to move {score:+} cp")
}

/// The lines `eval` prints for `pos`.
pub fn lines(pos: &Position) -> Vec<String> {
    let e = static_eval(pos);
    let rule = match e.rule {
        None => "none".to_string(),
        Some((rule, score)) => format!("{}, {}", rule.name(), views(score, e.white(score))),
    };
    let mut lines = vec![
        format!(
            "Network evaluation: {}",
            views(e.network, e.white(e.network))
        ),
        format!("Endgame rule: {rule}"),
        format!("Final evaluation: {}", views(e.eval, e.white(e.eval))),
    ];
    if pos.in_check() {
        lines.push("In check: the search tries every evasion instead of this evaluation".into());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_lines_with_both_views() {
        let pos = Position::from_fen("8/8/8/3k4/8/8/8/2B1KN2 b - - 0 1").expect("valid");
        let out = lines(&pos);
        assert_eq!(out.len(), 3);
        assert!(out[0].starts_with("Network evaluation: white "), "{out:?}");
        assert!(
            out[1].starts_with("Endgame rule: KBNvK, white +"),
            "{out:?}"
        );
        assert!(out[2].contains("side to move -"), "{out:?}");
        let check = Position::from_fen("4k3/8/8/8/8/8/4q3/4K1N1 w - - 0 1").expect("valid");
        let out = lines(&check);
        assert_eq!(out[1], "Endgame rule: none");
        assert_eq!(out.len(), 4);
        let lone = Position::from_fen("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1").expect("valid");
        let out = lines(&lone);
        assert!(
            out[1].starts_with("Endgame rule: lone king, white -"),
            "{out:?}"
        );
    }
}
