//! `rookling suite FILE.epd`: every position of a perft suite at each depth within a
//! node budget, counted by Rookling in this process (or by a `--candidate` engine) and
//! checked against the file (or against a reference engine). A candidate's wrong count
//! is drilled down to the position and move where it goes wrong, and the failures are
//! grouped by the kind of that move.

use super::CliError;
use super::compare::{engine_choices, timeout};
use super::suite_report::{Difference, Failure, Summary, group, html_page, write_summary};
use crate::client::EngineError;
use crate::compare::config::read_text;
use crate::compare::drill::{Step, drill};
use crate::compare::engines::{Choice, PerftEngine};
use crate::perft::epd::{EpdEntry, parse_epd};
use crate::perft::{MAX_DEPTH, PerftOptions, perft_with};
use clap::Args;
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
    /// Take the expected counts from this engine instead of the file (`rookling`, a
    /// name from the engines file, a UCI command line or `perftree:COMMAND`); with
    /// --candidate, it also drills down into wrong counts [default: rookling].
    #[arg(long, value_name = "ENGINE")]
    pub reference: Option<String>,
    /// Check this engine's counts instead of Rookling's (a name from the engines file,
    /// a UCI command line or `perftree:COMMAND`), drilling down into each wrong one.
    #[arg(long, value_name = "ENGINE")]
    pub candidate: Option<String>,
    /// Engines file in Cutechess's format [default: ./engines.json when present].
    #[arg(long, value_name = "FILE")]
    pub engines: Option<PathBuf>,
    /// Seconds an engine has to answer each request (the handshake, `isready`, one
    /// whole `go perft` or script run), however much it prints meanwhile.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Threads for Rookling's perft.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Also write the drill-downs of a candidate's wrong counts as a self-contained
    /// HTML page.
    #[arg(long, value_name = "FILE", requires = "candidate")]
    pub html: Option<PathBuf>,
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
    if let (Some(path), None, None) = (&args.engines, &args.reference, &args.candidate) {
        // A file the user named must be valid even when no name from it is used.
        crate::compare::config::load(Some(path))?;
    }
    let timeout = timeout(args.timeout)?;
    let start_engine = |arg: &str| -> Result<PerftEngine, CliError> {
        let (choice, _) = engine_choices(Some(arg), None, args.engines.as_deref())?;
        Ok(PerftEngine::start(&choice, false, timeout)?)
    };
    let mut reference = args.reference.as_deref().map(start_engine).transpose()?;
    let mut candidate = match &args.candidate {
        Some(arg) => {
            let (_, choice) = engine_choices(None, Some(arg), args.engines.as_deref())?;
            Some(PerftEngine::start(&choice, false, timeout)?)
        }
        None => None,
    };
    // The engine a candidate's wrong count is drilled down against.
    let mut driller = match (&candidate, &args.reference) {
        (Some(_), None) => Some(PerftEngine::start(&Choice::Builtin, false, timeout)?),
        _ => None,
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
            let chess960 = entry.position.is_chess960();
            for engine in [&mut reference, &mut candidate, &mut driller]
                .into_iter()
                .flatten()
            {
                engine.set_chess960(chess960)?;
            }
            let expected = match reference.as_mut() {
                Some(engine) => u128::from(engine.perft(&entry.fen, &[], depth)?.total),
                None => written.unwrap_or_default(),
            };
            if expected > max_nodes {
                break;
            }
            let actual = match candidate.as_mut() {
                Some(engine) => u128::from(engine.perft(&entry.fen, &[], depth)?.total),
                None => perft_with(&entry.position, depth, &options, &never)
                    .ok_or_else(|| CliError::Other("perft stopped".into()))?,
            };
            runs += 1;
            nodes = nodes.saturating_add(actual);
            if actual != expected {
                let compare = compare_command(entry, depth, &args);
                bar.suspend(|| {
                    log::warn!(
                        "{name}:{}: perft {depth} is {actual}, expected {expected}",
                        entry.line
                    )
                });
                let first = !failures.iter().any(|f: &Failure| f.line == entry.line);
                let difference = match (candidate.as_mut(), first) {
                    (Some(candidate), true) => {
                        let drill_with = match reference.as_mut() {
                            Some(engine) => engine,
                            None => driller.as_mut().ok_or_else(|| {
                                CliError::Other("no engine to drill down with".into())
                            })?,
                        };
                        Some(drill_down(drill_with, candidate, entry, depth)?)
                    }
                    _ => None,
                };
                failures.push(Failure::new(
                    entry, depth, expected, actual, compare, difference,
                ));
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
        candidate: candidate.as_ref().map(PerftEngine::label),
        groups: group(&failures),
        failures,
    };
    if let Some(path) = &args.html {
        super::compare::write_html(path, &html_page(&summary))?;
    }
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

/// The drill-down of the candidate's wrong count of `entry` at `depth`, against
/// `reference`.
fn drill_down(
    reference: &mut PerftEngine,
    candidate: &mut PerftEngine,
    entry: &EpdEntry,
    depth: u32,
) -> Result<Difference, CliError> {
    let mut steps = Vec::new();
    let outcome = drill::<EngineError>(
        depth,
        &mut |path, d| reference.perft(&entry.fen, path, d),
        &mut |path, d| candidate.perft(&entry.fen, path, d),
        &mut |step: &Step| steps.push(step.clone()),
    )?;
    Ok(Difference::new(&entry.position, outcome, steps))
}

/// The `rookling compare` command line that drills into a failure.
fn compare_command(entry: &EpdEntry, depth: u32, args: &SuiteArgs) -> String {
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
    let reference = match (&args.reference, &args.candidate) {
        (Some(reference), _) => Some(reference.as_str()),
        (None, Some(_)) => Some("rookling"),
        _ => None,
    };
    if let Some(reference) = reference {
        line.push_str(&format!(" --reference {}", quote(reference)));
    }
    if let Some(candidate) = &args.candidate {
        line.push_str(&format!(" --candidate {}", quote(candidate)));
    }
    if let Some(engines) = &args.engines {
        line.push_str(&format!(
            " --engines {}",
            quote(&engines.display().to_string())
        ));
    }
    line
}
