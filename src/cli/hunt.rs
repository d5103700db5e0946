//! `rookling hunt --candidate ENGINE`: seeded positions rich in every rule, counted by
//! the candidate and by the built-in reference until they differ; the difference is
//! drilled down, shrunk and reported with its tag (see [`crate::compare::hunt`]).

use super::CliError;
use super::compare::{engine_choices, timeout};
use crate::compare::drill::position_after;
use crate::compare::engines::PerftEngine;
use crate::compare::html::{self, Drilled};
use crate::compare::hunt::{self, Config, Finding, Report};
use crate::compare::report::{HuntJson, JsonReport, write_step, write_verdict};
use crate::compare::tags::first_tag;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `rookling hunt`.
#[derive(Args, Debug)]
pub struct HuntArgs {
    /// The engine under test: a name from the engines file, a UCI command line or
    /// `perftree:COMMAND` (a perftree script).
    #[arg(long, value_name = "ENGINE")]
    pub candidate: String,
    /// The seed of the positions [default: from the clock; the report says which].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop after this many seconds without a difference [default: 60, unless
    /// --positions is given].
    #[arg(long, value_name = "S")]
    pub seconds: Option<f64>,
    /// Stop after this many positions without a difference.
    #[arg(long, value_name = "N")]
    pub positions: Option<u64>,
    /// Count every position at this depth [default: 1 to 4, following the candidate's
    /// speed].
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=8))]
    pub depth: Option<u32>,
    /// Try Chess960 positions whatever the candidate does with a simple Chess960
    /// castling [default: only if it gets that right].
    #[arg(long, conflicts_with = "no_chess960")]
    pub chess960: bool,
    /// Never try Chess960 positions.
    #[arg(long)]
    pub no_chess960: bool,
    /// Engines file in Cutechess's format [default: ./engines.json when present].
    #[arg(long, value_name = "FILE")]
    pub engines: Option<PathBuf>,
    /// Seconds the candidate has to answer each request.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    pub json: bool,
    /// Also write the difference found as a self-contained HTML page.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// How long a hunt runs when neither --seconds nor --positions is given.
const DEFAULT_SECONDS: f64 = 60.0;

/// Runs `rookling hunt`: exit status 0 when no difference was found, 1 when one was.
pub fn run(args: HuntArgs) -> Result<ExitCode, CliError> {
    let timeout = timeout(args.timeout)?;
    let seconds = match (args.seconds, args.positions) {
        (None, Some(_)) => None,
        (s, _) => Some(s.unwrap_or(DEFAULT_SECONDS)),
    };
    let time = seconds
        .map(|s| {
            Duration::try_from_secs_f64(s).map_err(|_| {
                CliError::Other(format!("--seconds {s}: expected a number of seconds"))
            })
        })
        .transpose()?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let (_, choice) = engine_choices(
        Some("rookling"),
        Some(&args.candidate),
        args.engines.as_deref(),
    )?;
    let mut candidate = PerftEngine::start(&choice, false, timeout)?;
    let config = Config {
        seed,
        time,
        positions: args.positions,
        chess960: match (args.chess960, args.no_chess960) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        depth: args.depth,
    };
    let bar = super::progress_bar(args.positions.unwrap_or(0), "positions");
    let report = hunt::hunt(&mut candidate, &config, &mut |n| bar.set_position(n))?;
    bar.finish_and_clear();
    if let (Some(path), hunt::Ending::Found(finding)) = (&args.html, &report.ending) {
        let facts = [
            ("candidate", candidate.label()),
            (
                "reference",
                "rookling (built-in: this program's generator)".to_string(),
            ),
            ("seed", seed.to_string()),
            ("generated position", finding.generated.to_fen()),
            ("root", finding.root.to_fen()),
        ];
        let drilled = [Drilled {
            title: format!(
                "position {} ({}), perft {} of the root",
                finding.number, finding.source, finding.outcome.depth
            ),
            root: &finding.root,
            steps: &finding.steps,
            outcome: &finding.outcome,
        }];
        super::compare::write_html(path, &html::page("rookling hunt", &facts, &drilled))?;
    }
    let mut out = std::io::stdout().lock();
    match args.json {
        true => {
            let json = serde_json::to_string(&json(&report))
                .map_err(|e| CliError::Other(e.to_string()))?;
            writeln!(out, "{json}")?;
        }
        false => write_text(&mut out, &report, &candidate, seed)?,
    }
    Ok(ExitCode::from(match report.ending {
        hunt::Ending::Clean => 0,
        hunt::Ending::Found(_) => 1,
    }))
}

/// A seed from the clock, for a hunt that was given none.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_000)
}

/// The `--json` object.
fn json(report: &Report) -> HuntJson {
    match &report.ending {
        hunt::Ending::Clean => HuntJson {
            compare: JsonReport {
                agree: true,
                depth: report.depths.1,
                path: Vec::new(),
                fen: String::new(),
                missing: Vec::new(),
                extra: Vec::new(),
                reference_nodes: report.nodes,
                candidate_nodes: report.nodes,
            },
            root: String::new(),
            tag: None,
        },
        hunt::Ending::Found(finding) => HuntJson {
            compare: JsonReport::new(&finding.root, &finding.outcome),
            root: finding.root.to_fen(),
            tag: tag(finding).map(|t| t.name().to_string()),
        },
    }
}

/// The tag of a finding's difference.
fn tag(finding: &Finding) -> Option<crate::compare::tags::Tag> {
    let pos = position_after(&finding.root, &finding.outcome.path).ok()?;
    let o = &finding.outcome;
    first_tag(&pos, o.missing.iter().chain(&o.extra))
}

/// The text report.
fn write_text(
    out: &mut impl Write,
    report: &Report,
    candidate: &PerftEngine,
    seed: u64,
) -> std::io::Result<()> {
    writeln!(out, "candidate: {}", candidate.label())?;
    writeln!(
        out,
        "reference: rookling (built-in: this program's generator)"
    )?;
    let (low, high) = report.depths;
    let depths = match low == high {
        true => format!("perft {low}"),
        false => format!("perft {low} to {high}"),
    };
    let chess960 = match report.chess960 {
        true => "",
        false => ", Chess960 left out",
    };
    let finding = match &report.ending {
        hunt::Ending::Clean => {
            return writeln!(
                out,
                "\nNo difference: {} positions in {:.1} s (seed {seed}, {depths}{chess960}).",
                report.positions,
                report.elapsed.as_secs_f64()
            );
        }
        hunt::Ending::Found(finding) => finding,
    };
    writeln!(
        out,
        "seed {seed}: position {} ({}) differs, found in {:.1} s ({depths}{chess960})",
        finding.number,
        finding.source,
        report.elapsed.as_secs_f64()
    )?;
    if finding.unshrunk != finding.outcome.path.len() {
        writeln!(out, "  generated: {}", finding.generated.to_fen())?;
        writeln!(
            out,
            "  shrunk:    from a path of {} moves to {}",
            finding.unshrunk,
            finding.outcome.path.len()
        )?;
    }
    writeln!(out, "  root:      {}\n", finding.root.to_fen())?;
    for (i, step) in finding.steps.iter().enumerate() {
        write_step(out, i + 1, step, &finding.root)?;
    }
    write_verdict(out, &finding.outcome, &finding.root)?;
    let chess960 = if finding.root.is_chess960() {
        " --chess960"
    } else {
        ""
    };
    let quote = |s: &str| {
        shlex::try_quote(s)
            .map(|q| q.into_owned())
            .unwrap_or_default()
    };
    writeln!(
        out,
        "\nagain: rookling compare --depth {} --fen {}{chess960} --reference rookling --candidate {}",
        finding.outcome.depth,
        quote(&finding.root.to_fen()),
        quote(candidate.name())
    )?;
    Ok(())
}
