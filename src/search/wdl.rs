//! The win/draw/loss model behind `UCI_ShowWDL`: from a search score and the material
//! on the board, the chances (per mille) that the side to move wins, draws or loses.
//!
//! The shape is Stockfish's: the side to move wins with probability
//! `1 / (1 + exp((a - s) / b))` for a score of `s` centipawns, loses with the same
//! formula at `-s`, and draws otherwise; `a` (the score that wins half the games) and
//! `b` (how quickly the chances change with the score) are cubic polynomials in the
//! material. The coefficients were fitted by `scripts/wdl_fit.py` to Rookling's own
//! self-play games (`rookling datagen`); the data, the fit and a plot are in
//! docs/playing.md.

use super::score::MATE_BOUND;
use crate::board::{PieceType, Position};

/// `a(m)`'s coefficients, highest power first, `m` = [`material`] / [`MATERIAL_NORM`].
const A: [f64; 4] = [482.832, -394.710, -874.406, 881.825];
/// `b(m)`'s coefficients, highest power first.
const B: [f64; 4] = [210.866, -201.827, -255.927, 343.922];
/// The material the polynomials are normalised by (the start position's is 78).
pub const MATERIAL_NORM: f64 = 58.0;
/// Material counts outside this range are read as its ends (the fit saw too few
/// positions there).
pub const MATERIAL_RANGE: (u32, u32) = (17, 78);

/// The material on the board: pawns 1, knights and bishops 3, rooks 5, queens 9, both
/// sides together (78 at the start).
pub fn material(pos: &Position) -> u32 {
    let count = |kind| pos.pieces(kind).count();
    count(PieceType::Pawn)
        + 3 * (count(PieceType::Knight) + count(PieceType::Bishop))
        + 5 * count(PieceType::Rook)
        + 9 * count(PieceType::Queen)
}

/// `a` and `b` at `material`.
fn parameters(material: u32) -> (f64, f64) {
    let m = f64::from(material.clamp(MATERIAL_RANGE.0, MATERIAL_RANGE.1)) / MATERIAL_NORM;
    let poly = |c: &[f64; 4]| ((c[0] * m + c[1]) * m + c[2]) * m + c[3];
    (poly(&A), poly(&B))
}

/// The chance (0 to 1) that the side to move wins with `score` at `material`.
fn win_rate(score: f64, material: u32) -> f64 {
    let (a, b) = parameters(material);
    1.0 / (1.0 + ((a - score) / b).exp())
}

/// Win, draw and loss per mille for the side to move (summing to 1000) at `score`
/// (centipawns or a mate score) and `material` ([`material`]). A mate found is a
/// certain win or loss.
pub fn wdl(score: i32, material: u32) -> [u32; 3] {
    if score >= MATE_BOUND {
        return [1000, 0, 0];
    }
    if score <= -MATE_BOUND {
        return [0, 0, 1000];
    }
    let s = f64::from(score);
    let w = (win_rate(s, material) * 1000.0).round() as u32;
    let l = (win_rate(-s, material) * 1000.0).round() as u32;
    // The two tails never overlap for a sensible fit (a > 0); if rounding makes them
    // exceed 1000 the draw share is what gives.
    let (w, l) = (w.min(1000), l.min(1000 - w.min(1000)));
    [w, 1000 - w - l, l]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_sum_to_1000_and_follow_the_score() {
        for material in [0, 17, 40, 58, 78, 100] {
            let mut last = [0, 0, 1000];
            for score in (-2000..=2000).step_by(10) {
                let [w, d, l] = wdl(score, material);
                assert_eq!(w + d + l, 1000, "{score} {material}");
                assert!(w >= last[0] && l <= last[2], "{score} {material}");
                if score > 0 {
                    assert!(w >= l, "{score} {material}");
                }
                if score == 0 {
                    assert_eq!(w, l);
                }
                last = [w, d, l];
            }
        }
        assert_eq!(wdl(MATE_BOUND, 40), [1000, 0, 0]);
        assert_eq!(wdl(-MATE_BOUND - 5, 40), [0, 0, 1000]);
    }

    #[test]
    fn material_counts_both_sides() {
        assert_eq!(material(&Position::startpos()), 78);
        let kq = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").expect("valid");
        assert_eq!(material(&kq), 9);
    }
}
