//! The drill-down, as seed 000 does by hand: compare two engines' divides; while the
//! move lists agree but some counts differ, play the differing move with the smallest
//! subtree and compare again one ply shallower; stop at the position whose move lists
//! differ.
//!
//! Pure logic: the engines are two functions from (moves from the root, depth) to a
//! [`Divide`], so the tests drive it with fake engines.

use crate::board::Position;
use crate::movegen::{MoveError, play_moves};

pub use crate::client::Divide;

/// One position of the drill-down and what the two engines said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Moves from the root to this position.
    pub path: Vec<String>,
    /// The perft depth asked for.
    pub depth: u32,
    /// The reference engine's divide.
    pub reference: Divide,
    /// The candidate engine's divide.
    pub candidate: Divide,
    /// The counts the previous step's divides gave this position (reference,
    /// candidate); an engine that now reports another total is inconsistent.
    pub expected: Option<(u64, u64)>,
    /// Moves the candidate misses.
    pub missing: Vec<String>,
    /// Moves the candidate has that the reference does not.
    pub extra: Vec<String>,
    /// Moves both have, with different counts: move, reference count, candidate count.
    pub differing: Vec<(String, u64, u64)>,
    /// The move the drill-down plays next, if it goes on.
    pub next: Option<String>,
}

/// How a drill-down ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The engines agree on every move at the root.
    Agree,
    /// The move lists differ at the last position of the path.
    MoveListsDiffer,
    /// The counts differed one ply up but the divides of this position agree (or, at
    /// depth 1, a move counts other than 1): an engine answers inconsistently.
    Inconsistent,
}

/// The result of a drill-down.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// How it ended.
    pub ending: Ending,
    /// The root depth.
    pub depth: u32,
    /// Moves from the root to the position where the engines differ (empty at the root).
    pub path: Vec<String>,
    /// Moves of that position the candidate misses.
    pub missing: Vec<String>,
    /// Moves of that position the candidate has in excess.
    pub extra: Vec<String>,
    /// The reference engine's root total.
    pub reference_nodes: u64,
    /// The candidate engine's root total.
    pub candidate_nodes: u64,
}

impl Outcome {
    /// Whether the engines agree.
    pub fn agree(&self) -> bool {
        self.ending == Ending::Agree
    }
}

/// A source of divides: (moves from the root, depth) to a divide, or an error.
pub type DivideFn<'a, E> = dyn FnMut(&[String], u32) -> Result<Divide, E> + 'a;

/// Drills down from the root at `depth` (at least 1), calling `on_step` after each
/// position is compared.
pub fn drill<E>(
    depth: u32,
    reference: &mut DivideFn<'_, E>,
    candidate: &mut DivideFn<'_, E>,
    on_step: &mut dyn FnMut(&Step),
) -> Result<Outcome, E> {
    let mut path = Vec::new();
    let mut d = depth.max(1);
    let mut expected = None;
    let mut roots = None;
    loop {
        let r = reference(&path, d)?;
        let c = candidate(&path, d)?;
        let (reference_nodes, candidate_nodes) = *roots.get_or_insert((r.total, c.total));
        let mut step = compare(&path, d, r, c, expected);
        let ending = if !step.missing.is_empty() || !step.extra.is_empty() {
            Some(Ending::MoveListsDiffer)
        } else if step.differing.is_empty() && step.reference.total == step.candidate.total {
            Some(match path.is_empty() {
                true => Ending::Agree,
                false => Ending::Inconsistent,
            })
        } else if d == 1 || step.differing.is_empty() {
            Some(Ending::Inconsistent)
        } else {
            None
        };
        if let Some(ending) = ending {
            on_step(&step);
            return Ok(Outcome {
                ending,
                depth,
                path,
                missing: step.missing,
                extra: step.extra,
                reference_nodes,
                candidate_nodes,
            });
        }
        let (mv, r_count, c_count) = step
            .differing
            .iter()
            .min_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)))
            .cloned()
            .unwrap_or_default();
        step.next = Some(mv.clone());
        on_step(&step);
        path.push(mv);
        expected = Some((r_count, c_count));
        d -= 1;
    }
}

/// The comparison of two divides of one position.
fn compare(
    path: &[String],
    depth: u32,
    reference: Divide,
    candidate: Divide,
    expected: Option<(u64, u64)>,
) -> Step {
    let missing = reference
        .moves
        .keys()
        .filter(|m| !candidate.moves.contains_key(*m))
        .cloned()
        .collect();
    let extra = candidate
        .moves
        .keys()
        .filter(|m| !reference.moves.contains_key(*m))
        .cloned()
        .collect();
    let differing = reference
        .moves
        .iter()
        .filter_map(|(mv, &r)| match candidate.moves.get(mv) {
            Some(&c) if c != r => Some((mv.clone(), r, c)),
            _ => None,
        })
        .collect();
    Step {
        path: path.to_vec(),
        depth,
        reference,
        candidate,
        expected,
        missing,
        extra,
        differing,
        next: None,
    }
}

/// The position `path` leads to from `root`.
pub fn position_after(root: &Position, path: &[String]) -> Result<Position, MoveError> {
    let mut pos = root.clone();
    play_moves(&mut pos, path)?;
    Ok(pos)
}

/// The FEN of the position `path` leads to from `root`, as Rookling sees it.
pub fn fen_after(root: &Position, path: &[String]) -> Result<String, MoveError> {
    position_after(root, path).map(|pos| pos.to_fen())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, MoveKind};
    use crate::movegen::legal_moves;
    use std::convert::Infallible;

    /// A fake engine on Rookling's generator, dropping the moves `drop` refuses.
    fn engine(
        root: &str,
        drop: fn(&Position, Move) -> bool,
    ) -> impl FnMut(&[String], u32) -> Result<Divide, Infallible> {
        let root = Position::from_fen(root).expect("valid FEN");
        move |path, depth| {
            let mut pos = root.clone();
            play_moves(&mut pos, path).expect("legal path");
            let mut divide = Divide::default();
            for mv in legal_moves(&pos).iter().copied() {
                if drop(&pos, mv) {
                    continue;
                }
                let undo = pos.make(mv);
                let n = count(&mut pos, depth - 1, drop);
                pos.unmake(mv, &undo);
                divide.moves.insert(mv.to_uci(false), n);
                divide.total += n;
            }
            Ok(divide)
        }
    }

    fn count(pos: &mut Position, depth: u32, drop: fn(&Position, Move) -> bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        for mv in legal_moves(pos).iter().copied() {
            if !drop(pos, mv) {
                let undo = pos.make(mv);
                n += count(pos, depth - 1, drop);
                pos.unmake(mv, &undo);
            }
        }
        n
    }

    fn exact(_: &Position, _: Move) -> bool {
        false
    }

    fn ep_in_check(pos: &Position, mv: Move) -> bool {
        mv.kind() == MoveKind::EnPassant && pos.in_check()
    }

    const SEED_000: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

    #[test]
    fn finds_seed_000_bug() {
        let mut steps = Vec::new();
        let outcome = drill(
            5,
            &mut engine(SEED_000, exact),
            &mut engine(SEED_000, ep_in_check),
            &mut |s: &Step| steps.push(s.clone()),
        )
        .expect("no engine error");
        assert_eq!(outcome.ending, Ending::MoveListsDiffer);
        assert_eq!(outcome.missing.len(), 1);
        assert!(outcome.extra.is_empty());
        assert_eq!(outcome.reference_nodes, 674_624);
        assert_eq!(outcome.candidate_nodes, 674_543);
        assert_eq!(outcome.path, ["b4f4", "h4g5", "a5b4", "c7c5"]);
        let root = Position::from_fen(SEED_000).expect("valid FEN");
        let mut leaf = Position::from_fen(&fen_after(&root, &outcome.path).expect("legal"))
            .expect("valid FEN");
        assert!(leaf.in_check());
        leaf.set_chess960(false);
        let ep: Vec<String> = legal_moves(&leaf)
            .iter()
            .filter(|m| m.kind() == MoveKind::EnPassant)
            .map(|m| m.to_uci(false))
            .collect();
        assert_eq!(outcome.missing, ep);
        // Each step descends into the differing move with the smallest subtree.
        for s in &steps[..steps.len() - 1] {
            let next = s.next.as_deref().expect("goes on");
            let smallest = s.differing.iter().map(|d| d.1).min();
            assert_eq!(s.reference.moves.get(next).copied(), smallest);
        }
        assert_eq!(steps.len(), outcome.path.len() + 1);
    }

    #[test]
    fn agreeing_engines() {
        let outcome = drill(
            3,
            &mut engine(SEED_000, exact),
            &mut engine(SEED_000, exact),
            &mut |_: &Step| {},
        )
        .expect("no engine error");
        assert!(outcome.agree());
        assert_eq!(outcome.reference_nodes, 2_812);
        assert_eq!(outcome.candidate_nodes, 2_812);
        assert!(outcome.path.is_empty() && outcome.missing.is_empty());
    }

    #[test]
    fn difference_at_the_root_has_an_empty_path() {
        let fen = "8/8/3p4/1Pp3kr/1K3R2/8/4P1P1/8 w - c6 0 3";
        let outcome = drill(
            2,
            &mut engine(fen, exact),
            &mut engine(fen, ep_in_check),
            &mut |_: &Step| {},
        )
        .expect("no engine error");
        assert_eq!(outcome.ending, Ending::MoveListsDiffer);
        assert!(outcome.path.is_empty());
        assert_eq!(outcome.missing, ["b5c6"]);
    }

    #[test]
    fn inconsistent_engine_is_reported() {
        // The candidate adds one node to every root total but not to its divide lines'
        // positions when asked for them directly.
        let mut reference = engine(SEED_000, exact);
        let mut inner = engine(SEED_000, exact);
        let mut candidate = |path: &[String], depth: u32| {
            let mut d = inner(path, depth)?;
            if path.is_empty() {
                if let Some(n) = d.moves.get_mut("a5a4") {
                    *n += 1;
                }
                d.total += 1;
            }
            Ok::<_, Infallible>(d)
        };
        let outcome =
            drill(3, &mut reference, &mut candidate, &mut |_: &Step| {}).expect("no engine error");
        assert_eq!(outcome.ending, Ending::Inconsistent);
        assert_eq!(outcome.path, ["a5a4"]);
    }
}
