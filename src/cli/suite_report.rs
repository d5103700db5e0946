//! What `rookling suite` reports: the summary, each wrong count, and for a candidate's
//! wrong count the position and move the drill-down found, grouped by the kind of that
//! move; as text or as one JSON object.

use crate::board::Position;
use crate::compare::drill::{Ending, Outcome, Step, fen_after, position_after};
use crate::compare::html::{self, Drilled};
use crate::compare::report::write_verdict;
use crate::compare::tags::{Tag, first_tag};
use crate::perft::epd::EpdEntry;
use serde::Serialize;
use std::io::Write;

/// Where a candidate's wrong count goes wrong.
#[derive(Serialize, Debug)]
pub struct Difference {
    /// Moves from the suite's position to the position where the move lists differ.
    pub path: Vec<String>,
    /// That position.
    pub failing_fen: String,
    /// Its moves the candidate misses.
    pub missing: Vec<String>,
    /// Moves the candidate lists that it should not.
    pub extra: Vec<String>,
    /// The kind of the first of those moves ([`Tag::name`]); `None` when the reference
    /// and the candidate agree on every move there (the expected count is then in
    /// doubt, or an engine answers inconsistently).
    pub tag: Option<&'static str>,
    /// The drill-down, for the text report.
    #[serde(skip)]
    pub outcome: Outcome,
    /// Its steps, for the HTML report.
    #[serde(skip)]
    pub steps: Vec<Step>,
    /// The suite's position.
    #[serde(skip)]
    pub root: Position,
}

impl Difference {
    /// The difference a drill-down from `root` found.
    pub fn new(root: &Position, outcome: Outcome, steps: Vec<Step>) -> Self {
        let tag = position_after(root, &outcome.path)
            .ok()
            .and_then(|pos| first_tag(&pos, outcome.missing.iter().chain(&outcome.extra)));
        Self {
            path: outcome.path.clone(),
            failing_fen: fen_after(root, &outcome.path).unwrap_or_default(),
            missing: outcome.missing.clone(),
            extra: outcome.extra.clone(),
            tag: tag.map(Tag::name),
            outcome,
            steps,
            root: root.clone(),
        }
    }

    /// The tag, as a [`Tag`].
    fn kind(&self) -> Option<Tag> {
        Tag::ALL.into_iter().find(|t| Some(t.name()) == self.tag)
    }
}

/// One count that came out wrong.
#[derive(Serialize, Debug)]
pub struct Failure {
    /// The suite's line.
    pub line: usize,
    /// Its FEN.
    pub fen: String,
    /// The depth.
    pub depth: u32,
    /// The expected count.
    pub expected: u128,
    /// The count found.
    pub actual: u128,
    /// The `rookling compare` command that drills into it.
    pub compare: String,
    /// Where the candidate goes wrong (the first wrong count of a line only).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub difference: Option<Difference>,
}

impl Failure {
    /// The failure of `entry` at `depth`.
    pub fn new(
        entry: &EpdEntry,
        depth: u32,
        expected: u128,
        actual: u128,
        compare: String,
        difference: Option<Difference>,
    ) -> Self {
        Self {
            line: entry.line,
            fen: entry.fen.clone(),
            depth,
            expected,
            actual,
            compare,
            difference,
        }
    }
}

/// The failures of one kind of move.
#[derive(Serialize, Debug)]
pub struct Group {
    /// The tag ([`Tag::name`]), or `null` for counts not drilled into or drill-downs
    /// that found every move the same.
    pub tag: Option<&'static str>,
    /// The suite lines, in order.
    pub lines: Vec<usize>,
}

/// What `--json` prints.
#[derive(Serialize, Debug)]
pub struct Summary {
    /// The suite file.
    pub file: String,
    /// Positions in it.
    pub positions: usize,
    /// Counts checked.
    pub runs: usize,
    /// Counts not run: above `--max-nodes`, or deeper than `--depth`.
    pub skipped: usize,
    /// Positions of which no count was run.
    pub unchecked_positions: usize,
    /// Nodes counted.
    pub nodes: u128,
    /// Wall time.
    pub seconds: f64,
    /// Nodes per second.
    pub nodes_per_second: u64,
    /// The engine checked, when not Rookling itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidate: Option<String>,
    /// The failures by kind of move, most specific kind first.
    pub groups: Vec<Group>,
    /// Every wrong count.
    pub failures: Vec<Failure>,
}

/// The suite lines that failed, grouped by the tag of each line's drilled failure (its
/// first), in the order of [`Tag::ALL`], untagged last.
pub fn group(failures: &[Failure]) -> Vec<Group> {
    let mut lines: Vec<(usize, Option<Tag>)> = Vec::new();
    for f in failures {
        if !lines.iter().any(|l| l.0 == f.line) {
            lines.push((f.line, f.difference.as_ref().and_then(Difference::kind)));
        }
    }
    let mut kinds: Vec<Option<Tag>> = lines.iter().map(|l| l.1).collect();
    kinds.sort_by_key(|t| t.map_or(Tag::ALL.len(), |t| t as usize));
    kinds.dedup();
    kinds
        .into_iter()
        .map(|kind| Group {
            tag: kind.map(Tag::name),
            lines: lines.iter().filter(|l| l.1 == kind).map(|l| l.0).collect(),
        })
        .collect()
}

/// The text report.
pub fn write_summary(out: &mut impl Write, s: &Summary, reference: bool) -> std::io::Result<()> {
    let source = if reference {
        "the reference engine"
    } else {
        "the file"
    };
    writeln!(
        out,
        "{}: {} positions, {} perft runs checked against {source}",
        s.file, s.positions, s.runs
    )?;
    if let Some(candidate) = &s.candidate {
        writeln!(out, "candidate: {candidate}")?;
    }
    writeln!(
        out,
        "nodes: {} in {:.2} s ({:.1} Mnodes/s)",
        s.nodes,
        s.seconds,
        s.nodes_per_second as f64 / 1e6
    )?;
    if s.skipped > 0 {
        writeln!(
            out,
            "skipped: {} counts above --max-nodes or --depth ({} positions not checked at all)",
            s.skipped, s.unchecked_positions
        )?;
    }
    writeln!(out, "failures: {}", s.failures.len())?;
    let grouped = s.candidate.is_some() && !s.failures.is_empty();
    for g in &s.groups {
        if grouped {
            let kind = Tag::ALL.into_iter().find(|t| Some(t.name()) == g.tag);
            let title = kind.map_or("no move found wrong".to_string(), |t| t.to_string());
            let n = g.lines.len();
            let plural = if n == 1 { "" } else { "s" };
            writeln!(out, "\n== {title}: {n} position{plural}")?;
        }
        for &line in &g.lines {
            let of_line: Vec<&Failure> = s.failures.iter().filter(|f| f.line == line).collect();
            write_line(out, &of_line, grouped)?;
        }
    }
    Ok(())
}

/// The HTML report: every drill-down, grouped as in the text.
pub fn html_page(s: &Summary) -> String {
    let mut facts = vec![
        ("suite", s.file.clone()),
        (
            "checked",
            format!("{} positions, {} perft runs", s.positions, s.runs),
        ),
        ("failures", s.failures.len().to_string()),
    ];
    if let Some(candidate) = &s.candidate {
        facts.push(("candidate", candidate.clone()));
    }
    let mut drilled = Vec::new();
    for g in &s.groups {
        let kind = Tag::ALL.into_iter().find(|t| Some(t.name()) == g.tag);
        for f in s.failures.iter().filter(|f| g.lines.contains(&f.line)) {
            if let Some(d) = &f.difference {
                let what = kind.map_or("no move found wrong".to_string(), |t| t.to_string());
                drilled.push(Drilled {
                    title: format!(
                        "{what}: line {}, depth {} (expected {}, got {})",
                        f.line, f.depth, f.expected, f.actual
                    ),
                    root: &d.root,
                    steps: &d.steps,
                    outcome: &d.outcome,
                });
            }
        }
    }
    html::page("rookling suite", &facts, &drilled)
}

/// The wrong counts of one suite line: with a candidate, the first in full with its
/// drill-down and the deeper ones in a line; else each in full.
fn write_line(out: &mut impl Write, failures: &[&Failure], grouped: bool) -> std::io::Result<()> {
    let Some((first, deeper)) = failures.split_first() else {
        return Ok(());
    };
    if !grouped {
        for f in failures {
            write_failure(out, f)?;
        }
        return Ok(());
    }
    write_failure(out, first)?;
    if !deeper.is_empty() {
        let list: Vec<String> = deeper
            .iter()
            .map(|f| {
                format!(
                    "depth {} (expected {}, got {})",
                    f.depth, f.expected, f.actual
                )
            })
            .collect();
        writeln!(out, "  also wrong: {}", list.join(", "))?;
    }
    Ok(())
}

/// One wrong count, with its drill-down when there is one.
fn write_failure(out: &mut impl Write, f: &Failure) -> std::io::Result<()> {
    writeln!(out, "\nline {}: {}", f.line, f.fen)?;
    writeln!(
        out,
        "  depth {}: expected {}, got {}",
        f.depth, f.expected, f.actual
    )?;
    if let Some(d) = &f.difference {
        if d.outcome.ending == Ending::Agree {
            writeln!(
                out,
                "  the reference and the candidate agree on every move here: is the \
                 expected count right?"
            )?;
        } else {
            let mut text = Vec::new();
            write_verdict(&mut text, &d.outcome, &d.root)?;
            for line in String::from_utf8_lossy(&text).lines() {
                match line.is_empty() {
                    true => writeln!(out)?,
                    false => writeln!(out, "  {line}")?,
                }
            }
        }
    }
    writeln!(out, "  drill down: {}", f.compare)
}
