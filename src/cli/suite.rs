//! `rookling suite FILE.epd`: every position of a perft suite at each depth within a
//! node budget, counted by Rookling in this process and checked against the file (or
//! against a reference engine's `go perft`).

use super::CliError;
use super::compare::{engine_specs, timeout};
use crate::client::Engine;
use crate::compare::config::read_text;
use crate::perft::epd::{EpdEntry, parse_epd};
use crate::perft::{MAX_DEPTH, PerftOptions, perft_with};
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `rookling suite`.
#[derive(Args, Debug)]
pub struct SuiteArgs {
    /// The suite: one `FEN ;D1 n ;D2 n ...` a line.
    pub file: PathBuf,
    /// Skip the counts above this many nodes (and deeper ones).
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    pub max_nodes: u64,
    /// Run no depth beyond this one (required with --reference for lines without counts).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub depth: Option<u32>,
    /// Take the expected counts from this engine's `go perft` instead of the file.
    #[arg(long, value_name = "ENGINE")]
    pub reference: Option<String>,
    /// Engines file in Cutechess's format [default: ./engines.json when present].
    #[arg(long, value_name = "FILE")]
    pub engines: Option<PathBuf>,
    /// Seconds the reference engine has to answer each request (the handshake,
    /// `isready`, one whole `go perft`), however much it prints meanwhile.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Threads for Rookling's perft.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
}

/// One count that came out wrong.
#[derive(Serialize, Debug)]
struct Failure {
    line: usize,
    fen: String,
    depth: u32,
    expected: u128,
    actual: u128,
    compare: String,
}

/// What `--json` prints.
#[derive(Serialize, Debug)]
struct Summary {
    file: String,
    positions: usize,
    runs: usize,
    /// Counts not run: above `--max-nodes`, or deeper than `--depth`.
    skipped: usize,
    /// Positions of which no count was run.
    unchecked_positions: usize,
    nodes: u128,
    seconds: f64,
    nodes_per_second: u64,
    failures: Vec<Failure>,
}

/// The largest suite file read (a 960-position suite is 100 KB): reading something
/// endless (`/dev/zero`) whole would exhaust the memory.
const MAX_SUITE_FILE: u64 = 64 << 20;

/// Runs `rookling suite`: exit status 0 when every count agrees, 1 on any mismatch.
pub fn run(args: SuiteArgs) -> Result<ExitCode, CliError> {
    let name = args.file.display().to_string();
    let text = read_text(&args.file, MAX_SUITE_FILE)
        .map_err(|e| CliError::Other(format!("cannot read {name}: {e}")))?;
    let suite = parse_epd(&text).map_err(|e| CliError::Other(e.at(&name)))?;
    if let (Some(path), None) = (&args.engines, &args.reference) {
        // A file the user named must be valid even when no name from it is used.
        crate::compare::config::load(Some(path))?;
    }
    let mut reference = match &args.reference {
        Some(arg) => {
            let (spec, _) = engine_specs(Some(arg), None, args.engines.as_deref())?;
            Some(Engine::start(&spec, false, timeout(args.timeout)?)?)
        }
        None => None,
    };
    if let Some(entry) = suite.iter().find(|e| e.counts.is_empty()) {
        if reference.is_none() {
            return Err(CliError::Other(format!(
                "{name}:{}: no ';Dk n' counts to check",
                entry.line
            )));
        }
        if args.depth.is_none() {
            return Err(CliError::Other(format!(
                "{name}:{}: no counts: give --depth to say how deep to go",
                entry.line
            )));
        }
    }

    let bar = super::progress_bar(suite.len() as u64, "positions");
    let options = PerftOptions {
        threads: usize::from(args.threads),
        hash_mb: 0,
    };
    let never = AtomicBool::new(false);
    let start = Instant::now();
    let max_nodes = u128::from(args.max_nodes);
    let (mut runs, mut skipped, mut unchecked) = (0, 0, 0);
    let (mut nodes, mut failures) = (0u128, Vec::new());
    for entry in &suite {
        bar.set_message(entry.fen.clone());
        let runs_before = runs;
        for depth in depths(entry, args.depth) {
            let written = entry.counts.iter().find(|c| c.0 == depth).map(|c| c.1);
            if written.is_some_and(|n| n > max_nodes) {
                break;
            }
            let expected = match reference.as_mut() {
                Some(engine) => {
                    engine.set_chess960(entry.position.is_chess960())?;
                    u128::from(engine.perft(&entry.fen, &[], depth)?.total)
                }
                None => written.unwrap_or_default(),
            };
            if expected > max_nodes {
                break;
            }
            let actual = perft_with(&entry.position, depth, &options, &never)
                .ok_or_else(|| CliError::Other("perft stopped".into()))?;
            runs += 1;
            nodes = nodes.saturating_add(actual);
            if actual != expected {
                let compare = compare_command(entry, depth, args.reference.as_deref());
                bar.suspend(|| {
                    log::warn!(
                        "{name}:{}: perft {depth} is {actual}, expected {expected}",
                        entry.line
                    )
                });
                failures.push(Failure {
                    line: entry.line,
                    fen: entry.fen.clone(),
                    depth,
                    expected,
                    actual,
                    compare,
                });
            }
        }
        let planned = match entry.counts.len() {
            0 => args.depth.unwrap_or_default() as usize,
            n => n,
        };
        skipped += planned.saturating_sub(runs - runs_before);
        unchecked += usize::from(runs == runs_before);
        bar.inc(1);
    }
    bar.finish_and_clear();
    if runs == 0 {
        // Nothing was verified: that is not a pass.
        let depth = args.depth.map(|d| format!(" or deeper than --depth {d}"));
        return Err(CliError::Other(format!(
            "{name}: no count checked: every count is above --max-nodes {}{}",
            args.max_nodes,
            depth.unwrap_or_default()
        )));
    }
    let seconds = start.elapsed().as_secs_f64();
    let summary = Summary {
        file: name,
        positions: suite.len(),
        runs,
        skipped,
        unchecked_positions: unchecked,
        nodes,
        seconds,
        nodes_per_second: (nodes as f64 / seconds.max(1e-9)) as u64,
        failures,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        let json = serde_json::to_string(&summary).map_err(|e| CliError::Other(e.to_string()))?;
        writeln!(out, "{json}")?;
    } else {
        write_summary(&mut out, &summary, args.reference.is_some())?;
    }
    Ok(ExitCode::from(if summary.failures.is_empty() {
        0
    } else {
        1
    }))
}

/// The depths to run for `entry`: those written in the file (up to `max`), or, for a
/// line without counts, 1 to `max`.
fn depths(entry: &EpdEntry, max: Option<u32>) -> Vec<u32> {
    let max = max.unwrap_or(u32::MAX);
    if entry.counts.is_empty() {
        return (1..=max).collect();
    }
    let mut depths: Vec<u32> = entry
        .counts
        .iter()
        .map(|c| c.0)
        .filter(|&d| d <= max)
        .collect();
    depths.sort_unstable();
    depths.dedup();
    depths
}

/// The `rookling compare` command line that drills into a failure.
fn compare_command(entry: &EpdEntry, depth: u32, reference: Option<&str>) -> String {
    let quote = |s: &str| {
        shlex::try_quote(s)
            .map(|q| q.into_owned())
            .unwrap_or_default()
    };
    let mut line = format!(
        "rookling compare --depth {depth} --fen {}",
        quote(&entry.fen)
    );
    if entry.position.is_chess960() {
        line.push_str(" --chess960");
    }
    if let Some(reference) = reference {
        line.push_str(&format!(" --reference {}", quote(reference)));
    }
    line
}

fn write_summary(out: &mut impl Write, s: &Summary, reference: bool) -> std::io::Result<()> {
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
    for f in &s.failures {
        writeln!(out, "\nline {}: {}", f.line, f.fen)?;
        writeln!(
            out,
            "  depth {}: expected {}, got {}",
            f.depth, f.expected, f.actual
        )?;
        writeln!(out, "  drill down: {}", f.compare)?;
    }
    Ok(())
}
