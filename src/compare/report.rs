//! What `rookling compare` prints: the drill-down step by step and a verdict with the
//! failing position drawn, or one JSON object.

use super::drill::{Ending, Outcome, Step, fen_after, position_after};
use super::tags::{self, first_tag};
use crate::board::Position;
use crate::board::diagram::{Mark, diagram};
use serde::Serialize;
use std::io::{self, Write};

/// The `--json` object; these keys and no others.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct JsonReport {
    /// Whether the engines agree.
    pub agree: bool,
    /// The root depth.
    pub depth: u32,
    /// Moves from the root to the position where the engines differ.
    pub path: Vec<String>,
    /// The FEN of that position (of the root when they agree).
    pub fen: String,
    /// Moves of that position the candidate misses.
    pub missing: Vec<String>,
    /// Moves of that position the candidate has in excess.
    pub extra: Vec<String>,
    /// The reference engine's root total.
    pub reference_nodes: u64,
    /// The candidate engine's root total.
    pub candidate_nodes: u64,
}

impl JsonReport {
    /// The report of `outcome`, from the root position `root`.
    pub fn new(root: &Position, outcome: &Outcome) -> Self {
        Self {
            agree: outcome.agree(),
            depth: outcome.depth,
            path: outcome.path.clone(),
            fen: fen_or_reason(root, &outcome.path),
            missing: outcome.missing.clone(),
            extra: outcome.extra.clone(),
            reference_nodes: outcome.reference_nodes,
            candidate_nodes: outcome.candidate_nodes,
        }
    }
}

/// The `hunt --json` object: the keys of `compare --json`, the position the
/// drill-down started from, and the tag of the difference.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct HuntJson {
    /// The drill-down, as `compare --json` reports it.
    #[serde(flatten)]
    pub compare: JsonReport,
    /// The FEN the drill-down started from (empty when no difference was found).
    pub root: String,
    /// The tag of the difference ([`super::tags::Tag::name`]), if any.
    pub tag: Option<String>,
}

/// The FEN after `path`, or why Rookling cannot play it (both engines listed the moves).
fn fen_or_reason(root: &Position, path: &[String]) -> String {
    match fen_after(root, path) {
        Ok(fen) => fen,
        Err(e) => {
            log::warn!("Rookling cannot follow the path: {e}");
            String::new()
        }
    }
}

/// Whether the side to move is in check after `path`.
fn in_check(root: &Position, path: &[String]) -> bool {
    let mut pos = root.clone();
    crate::movegen::play_moves(&mut pos, path).is_ok() && pos.in_check()
}

/// A list of moves, or `(none)`.
fn moves(list: &[String]) -> String {
    if list.is_empty() {
        "(none)".to_string()
    } else {
        list.join(" ")
    }
}

/// Names of the two engines, for the human report.
pub struct Names {
    /// The reference engine.
    pub reference: String,
    /// The candidate engine.
    pub candidate: String,
}

/// Prints which engine is which.
pub fn write_header(out: &mut impl Write, names: &Names) -> io::Result<()> {
    writeln!(out, "reference: {}", names.reference)?;
    writeln!(out, "candidate: {}\n", names.candidate)
}

/// Prints step number `number` of the drill-down.
pub fn write_step(
    out: &mut impl Write,
    number: usize,
    step: &Step,
    root: &Position,
) -> io::Result<()> {
    match step.path.is_empty() {
        true => writeln!(out, "Step {number}: perft {} at the root", step.depth)?,
        false => writeln!(
            out,
            "Step {number}: perft {} after {}",
            step.depth,
            step.path.join(" ")
        )?,
    }
    let check = match in_check(root, &step.path) {
        true => " (in check)",
        false => "",
    };
    writeln!(
        out,
        "  position: {}{check}",
        fen_or_reason(root, &step.path)
    )?;
    let (r, c) = (&step.reference, &step.candidate);
    writeln!(
        out,
        "  nodes:    {} reference, {} candidate",
        r.total, c.total
    )?;
    writeln!(
        out,
        "  moves:    {} reference, {} candidate",
        r.moves.len(),
        c.moves.len()
    )?;
    if let Some((r, c)) = step.expected
        && (r, c) != (step.reference.total, step.candidate.total)
    {
        writeln!(
            out,
            "  warning: one ply up the engines counted {r} and {c} nodes here"
        )?;
    }
    if !step.missing.is_empty() || !step.extra.is_empty() {
        writeln!(out, "  missing in candidate: {}", moves(&step.missing))?;
        writeln!(out, "  extra in candidate:   {}", moves(&step.extra))?;
    }
    if !step.differing.is_empty() {
        writeln!(
            out,
            "  counts differ on {} of {} moves (reference vs candidate):",
            step.differing.len(),
            step.reference.moves.len()
        )?;
        for (mv, r, c) in &step.differing {
            writeln!(out, "    {mv}: {r} vs {c}")?;
        }
    }
    if let Some(next) = &step.next {
        writeln!(out, "  -> {next}, the smallest subtree that differs")?;
    }
    writeln!(out)
}

/// Prints the verdict.
pub fn write_verdict(out: &mut impl Write, outcome: &Outcome, root: &Position) -> io::Result<()> {
    let (r, c, depth) = (
        outcome.reference_nodes,
        outcome.candidate_nodes,
        outcome.depth,
    );
    match outcome.ending {
        Ending::Agree => {
            return writeln!(
                out,
                "Verdict: the engines agree: {r} nodes at depth {depth}."
            );
        }
        Ending::MoveListsDiffer => writeln!(
            out,
            "Verdict: the engines differ: {r} (reference) vs {c} (candidate) nodes at depth {depth}."
        )?,
        Ending::Inconsistent => writeln!(
            out,
            "Verdict: the engines differ ({r} vs {c} nodes at depth {depth}), but an engine \
             answers inconsistently: its counts for the last position change when asked \
             from there (a bug in handling 'position ... moves', or a hash collision?)."
        )?,
    }
    writeln!(out, "  path:    {}", moves(&outcome.path))?;
    writeln!(out, "  fen:     {}", fen_or_reason(root, &outcome.path))?;
    writeln!(out, "  missing: {}", moves(&outcome.missing))?;
    writeln!(out, "  extra:   {}", moves(&outcome.extra))?;
    let Ok(pos) = position_after(root, &outcome.path) else {
        return Ok(());
    };
    if let Some(tag) = first_tag(&pos, outcome.missing.iter().chain(&outcome.extra)) {
        writeln!(out, "  tag:     {tag}")?;
    }
    writeln!(out)?;
    for line in board_lines(&pos, &outcome.missing, &outcome.extra) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// `pos` drawn as `d` draws it, the squares of the `missing` and `extra` moves marked,
/// with a legend when a square is marked.
pub fn board_lines(pos: &Position, missing: &[String], extra: &[String]) -> Vec<String> {
    let ends =
        |list: &[String]| -> Vec<_> { list.iter().filter_map(|m| tags::squares(m)).collect() };
    let (missing, extra) = (ends(missing), ends(extra));
    let mut lines = diagram(pos, |sq| {
        let (open, close) = if missing.iter().any(|m| m.1 == sq) {
            ('[', ']')
        } else if extra.iter().any(|m| m.1 == sq) {
            ('<', '>')
        } else if missing.iter().chain(&extra).any(|m| m.0 == sq) {
            ('(', ')')
        } else {
            return None;
        };
        Some(Mark { open, close })
    });
    if !missing.is_empty() || !extra.is_empty() {
        lines.push(
            "  ( ) a differing move starts here, [ ] a missing move ends here, < > an extra one"
                .to_string(),
        );
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_has_exactly_the_keys() {
        let root =
            Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").expect("valid FEN");
        let outcome = Outcome {
            ending: Ending::MoveListsDiffer,
            depth: 5,
            path: ["b4f4", "h4g5", "a5b4", "c7c5"].map(String::from).to_vec(),
            missing: vec!["b5c6".to_string()],
            extra: vec![],
            reference_nodes: 674_624,
            candidate_nodes: 674_543,
        };
        let json = serde_json::to_value(JsonReport::new(&root, &outcome)).expect("serialises");
        let expected = serde_json::json!({
            "agree": false,
            "depth": 5,
            "path": ["b4f4", "h4g5", "a5b4", "c7c5"],
            "fen": "8/8/3p4/1Pp3kr/1K3R2/8/4P1P1/8 w - c6 0 3",
            "missing": ["b5c6"],
            "extra": [],
            "reference_nodes": 674624,
            "candidate_nodes": 674543
        });
        assert_eq!(json, expected);
        let mut text = Vec::new();
        write_verdict(&mut text, &outcome, &root).expect("writes");
        let text = String::from_utf8(text).expect("UTF-8");
        assert!(text.contains("missing: b5c6"), "{text}");
        assert!(text.contains("extra:   (none)"), "{text}");
        assert!(text.contains("tag:     en passant"), "{text}");
        // The failing position drawn: the pawn on b5 takes en passant on c6.
        assert!(
            text.contains(" |   |   |[ ]| p |   |   |   |   | 6"),
            "{text}"
        );
        assert!(
            text.contains(" |   |(P)| p |   |   |   | k | r | 5"),
            "{text}"
        );
    }
}
