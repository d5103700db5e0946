//! `rookling hunt`: finds a bug nobody pointed at. Seeded positions rich in every rule
//! ([`positions`]) are counted by the candidate and by the built-in reference at a
//! shallow depth; on the first difference the drill-down ([`drill`]) finds the
//! position whose move lists differ, and the path to it is shrunk: the drill-down is
//! tried again from each later position of the path, latest first, and the first that
//! still shows a difference gives the shortest path (a bug that needs the moves
//! played, such as castling rights kept after their rook was taken, keeps them).
//!
//! The depth follows the candidate's speed ([`Pace`]): from the times of its answers
//! the hunt learns what one run costs it (starting a script, say) and what a node
//! costs, and counts each position as deep (1 to 4) as fits in three times that fixed
//! cost or 50 ms, whichever is more. So a slow script still sees many positions, and a
//! fast engine deep trees.

pub mod positions;

use super::drill::{Outcome, Step, drill};
use super::engines::{Choice, PerftEngine};
use crate::board::Position;
use crate::client::{Divide, EngineError};
use positions::{Positions, Source};
use std::time::{Duration, Instant};

/// What to hunt with.
#[derive(Clone, Debug)]
pub struct Config {
    /// The seed of the positions.
    pub seed: u64,
    /// Stop after this long without a difference.
    pub time: Option<Duration>,
    /// Stop after this many positions without a difference.
    pub positions: Option<u64>,
    /// Whether to try Chess960 positions (`None`: if the candidate passes a simple
    /// Chess960 castling check).
    pub chess960: Option<bool>,
    /// A fixed depth instead of the adaptive one.
    pub depth: Option<u32>,
}

/// A difference found, drilled down and shrunk.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The position the (shrunk) drill-down started from.
    pub root: Position,
    /// Its outcome.
    pub outcome: Outcome,
    /// Its steps.
    pub steps: Vec<Step>,
    /// The number of the generated position that showed the difference (from 1).
    pub number: u64,
    /// Where that position came from.
    pub source: Source,
    /// The generated position itself, before shrinking.
    pub generated: Position,
    /// The length of the path before shrinking.
    pub unshrunk: usize,
}

/// How a hunt ended.
#[derive(Clone, Debug)]
pub enum Ending {
    /// No difference in every position tried.
    Clean,
    /// A difference.
    Found(Box<Finding>),
}

/// A hunt's result.
#[derive(Clone, Debug)]
pub struct Report {
    /// How it ended.
    pub ending: Ending,
    /// Positions tried.
    pub positions: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The smallest and largest depth used (0 when no position was tried).
    pub depths: (u32, u32),
    /// Whether Chess960 positions were tried.
    pub chess960: bool,
    /// Leaf nodes both engines counted, summed over the positions that agreed.
    pub nodes: u64,
}

/// The Chess960 positions a candidate must get right before the hunt tries Chess960:
/// castling on both sides with nothing in the way and nothing attacked.
const CHESS960_CHECK: [&str; 2] = [
    "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1",
    "1r4kr/p1pppp1p/8/8/8/8/P1PPPP1P/1R4KR w HBhb - 0 1",
];

/// The deepest the adaptive hunt counts.
const MAX_DEPTH: u32 = 4;

/// What the candidate's answers cost: a fixed part (the least time seen) and a part
/// per node (raised at once by a slower answer, lowered slowly by faster ones), in
/// seconds; and the deepest depth it has answered.
#[derive(Default)]
struct Pace {
    fixed: Option<f64>,
    per_node: f64,
    deepest: u32,
}

impl Pace {
    /// Learns from an answer at `depth` of `nodes` nodes that took `took`.
    fn observe(&mut self, depth: u32, nodes: u64, took: Duration) {
        let took = took.as_secs_f64();
        let fixed = self.fixed.map_or(took, |f| f.min(took));
        let per_node = (took - fixed).max(0.0) / nodes.max(1) as f64;
        self.per_node = match per_node > self.per_node {
            true => per_node,
            false => 0.8 * self.per_node + 0.2 * per_node,
        };
        self.fixed = Some(fixed);
        self.deepest = self.deepest.max(depth);
    }

    /// The depth to count `pos` at: the deepest whose answer should take at most
    /// three times the fixed cost or 50 ms, and at most one deeper than any answer so
    /// far (2 before any answer).
    fn depth(&self, pos: &Position) -> u32 {
        let Some(fixed) = self.fixed else {
            return 2;
        };
        let budget = (3.0 * fixed).max(0.05);
        let mut depth = 1;
        for d in 2..=MAX_DEPTH.min(self.deepest + 1) {
            let nodes = crate::perft::perft(pos, d) as f64;
            if fixed + nodes * self.per_node > budget {
                break;
            }
            depth = d;
        }
        depth
    }
}

/// Hunts for a difference between `candidate` and the built-in reference; `tick` is
/// called after each position (with the number tried).
pub fn hunt(
    candidate: &mut PerftEngine,
    config: &Config,
    tick: &mut dyn FnMut(u64),
) -> Result<Report, EngineError> {
    let start = Instant::now();
    let mut reference = PerftEngine::start(&Choice::Builtin, false, Duration::MAX)?;
    let chess960 = match config.chess960 {
        Some(on) => on,
        None => plays_chess960(candidate)?,
    };
    if !chess960 {
        log::info!("hunt: Chess960 positions left out");
    }
    let mut positions = Positions::new(config.seed, chess960);
    let mut pace = Pace::default();
    let mut depths = (u32::MAX, 0);
    let (mut tried, mut nodes) = (0u64, 0u64);
    loop {
        let out_of_time = config.time.is_some_and(|t| start.elapsed() >= t);
        let out_of_positions = config.positions.is_some_and(|n| tried >= n);
        if out_of_time || out_of_positions {
            break;
        }
        let (pos, source) = positions.next_position();
        tried += 1;
        let depth = config.depth.unwrap_or_else(|| pace.depth(&pos));
        depths = (depths.0.min(depth), depths.1.max(depth));
        let fen = pos.to_fen();
        for engine in [&mut reference, &mut *candidate] {
            engine.set_chess960(pos.is_chess960())?;
        }
        let asked = Instant::now();
        let theirs = candidate.perft(&fen, &[], depth)?;
        let took = asked.elapsed();
        let ours = reference.perft(&fen, &[], depth)?;
        if theirs != ours {
            let finding = pin_down(&mut reference, candidate, pos, depth, tried, source)?;
            return Ok(Report {
                ending: Ending::Found(Box::new(finding)),
                positions: tried,
                elapsed: start.elapsed(),
                depths,
                chess960,
                nodes,
            });
        }
        nodes = nodes.saturating_add(ours.total);
        pace.observe(depth, ours.total, took);
        tick(tried);
    }
    Ok(Report {
        ending: Ending::Clean,
        positions: tried,
        elapsed: start.elapsed(),
        depths: (depths.0.min(depths.1), depths.1),
        chess960,
        nodes,
    })
}

/// Whether `candidate` castles as Rookling does in simple Chess960 positions (an engine
/// that does not play Chess960 would otherwise be reported for that alone).
fn plays_chess960(candidate: &mut PerftEngine) -> Result<bool, EngineError> {
    candidate.set_chess960(true)?;
    for fen in CHESS960_CHECK {
        let ours = builtin(fen, 2)?;
        match candidate.perft(fen, &[], 2) {
            Ok(theirs) if theirs == ours => {}
            Ok(_) => {
                log::info!("hunt: the candidate does not castle as in Chess960 in {fen}");
                return Ok(false);
            }
            Err(e) => {
                log::info!("hunt: the candidate cannot count Chess960 position {fen}: {e}");
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// The built-in reference's divide of `fen` at `depth`.
fn builtin(fen: &str, depth: u32) -> Result<Divide, EngineError> {
    PerftEngine::start(&Choice::Builtin, true, Duration::MAX)?.perft(fen, &[], depth)
}

/// The drill-down from `generated` at `depth`, then shrunk.
fn pin_down(
    reference: &mut PerftEngine,
    candidate: &mut PerftEngine,
    generated: Position,
    depth: u32,
    number: u64,
    source: Source,
) -> Result<Finding, EngineError> {
    let (outcome, steps) = drill_from(reference, candidate, &generated, depth)?;
    let unshrunk = outcome.path.len();
    let mut finding = Finding {
        root: generated.clone(),
        outcome,
        steps,
        number,
        source,
        generated,
        unshrunk,
    };
    // Latest position of the path first: the first that still differs is the shortest.
    for keep in (1..=unshrunk).rev() {
        let mut root = finding.generated.clone();
        if crate::movegen::play_moves(&mut root, &finding.outcome.path[..keep]).is_err() {
            continue;
        }
        let depth = (unshrunk - keep + 1) as u32;
        let (outcome, steps) = drill_from(reference, candidate, &root, depth)?;
        if !outcome.agree() {
            finding.root = root;
            finding.outcome = outcome;
            finding.steps = steps;
            break;
        }
    }
    Ok(finding)
}

/// The drill-down from `root` at `depth`: its outcome and steps.
fn drill_from(
    reference: &mut PerftEngine,
    candidate: &mut PerftEngine,
    root: &Position,
    depth: u32,
) -> Result<(Outcome, Vec<Step>), EngineError> {
    let fen = root.to_fen();
    let mut steps = Vec::new();
    let outcome = drill::<EngineError>(
        depth,
        &mut |path, d| reference.perft(&fen, path, d),
        &mut |path, d| candidate.perft(&fen, path, d),
        &mut |step: &Step| steps.push(step.clone()),
    )?;
    Ok((outcome, steps))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pace_picks_the_depth_that_fits() {
        let pos = Position::startpos();
        let mut pace = Pace::default();
        assert_eq!(pace.depth(&pos), 2, "before any answer");
        // A script that takes 100 ms to start and 10 µs a node: perft 2 (400 nodes,
        // 104 ms) fits in 300 ms, perft 3 (8,902 nodes, 189 ms) too, perft 4 not.
        pace.observe(2, 400, Duration::from_millis(104));
        assert_eq!(pace.depth(&pos), 3, "one deeper than the deepest so far");
        pace.observe(3, 8_902, Duration::from_millis(189));
        assert_eq!(pace.depth(&pos), 3);
        // A slower answer raises the cost per node at once.
        pace.observe(3, 8_902, Duration::from_millis(900));
        assert_eq!(pace.depth(&pos), 2);
        // A fast engine: everything up to 4 within 50 ms.
        let mut fast = Pace::default();
        fast.observe(2, 400, Duration::from_micros(300));
        fast.observe(3, 8_902, Duration::from_micros(900));
        assert_eq!(fast.depth(&pos), 4);
    }
}
