//! `rookling compare`: where two engines' perft disagree, found by drill-down.

use super::CliError;
use super::perft::setup;
use crate::board::START_FEN;
use crate::client::EngineError;
use crate::compare::config::{self, EngineEntry};
use crate::compare::drill::{Step, drill};
use crate::compare::engines::{Choice, PerftEngine};
use crate::compare::html::{self, Drilled};
use crate::compare::report::{JsonReport, Names, write_header, write_step, write_verdict};
use crate::perft::MAX_DEPTH;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `rookling compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Perft depth at the root (1 to 255, the deepest perft runs).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub depth: u32,
    /// The root position, as FEN.
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Moves from the FEN to the root, in UCI notation.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// The engine trusted to be right: `rookling` (this program's generator, in
    /// process), a name from the engines file, a UCI command line or
    /// `perftree:COMMAND` [default: stockfish on PATH, else rookling].
    #[arg(long, value_name = "ENGINE")]
    pub reference: Option<String>,
    /// The engine under test: a name from the engines file, a UCI command line or
    /// `perftree:COMMAND` (a perftree script) [default: this Rookling, over UCI].
    #[arg(long, value_name = "ENGINE")]
    pub candidate: Option<String>,
    /// Engines file in Cutechess's format [default: ./engines.json when present]; a file
    /// given here must be readable even when no name from it is used.
    #[arg(long, value_name = "FILE")]
    pub engines: Option<PathBuf>,
    /// Chess960: sets UCI_Chess960 on both engines; castling is king-takes-rook.
    /// Shredder-FEN castling letters turn this on by themselves.
    #[arg(long)]
    pub chess960: bool,
    /// Print one JSON object instead of the step-by-step report.
    #[arg(long)]
    pub json: bool,
    /// Also write the drill-down as a self-contained HTML page (SVG boards, arrows,
    /// the divides side by side).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Seconds an engine has to answer each request (the handshake, `isready`, one
    /// whole `go perft`), however much it prints meanwhile.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub timeout: f64,
}

/// The reference (`None`: Stockfish, else the built-in reference) and candidate
/// (`None`: Rookling over UCI) engines. An engines file named by the user is read (and
/// must be valid) even when no name from it is used; the default one only when a name
/// is looked up.
pub fn engine_choices(
    reference: Option<&str>,
    candidate: Option<&str>,
    engines_file: Option<&std::path::Path>,
) -> Result<(Choice, Choice), CliError> {
    let mut entries: Option<Vec<EngineEntry>> = match engines_file {
        Some(path) => Some(config::load(Some(path))?),
        None => None,
    };
    let mut named = |arg: &str| -> Result<Choice, CliError> {
        if arg == crate::compare::engines::BUILTIN {
            return Ok(Choice::Builtin);
        }
        if entries.is_none() {
            entries = Some(config::load(engines_file)?);
        }
        Ok(config::choose(arg, entries.as_deref().unwrap_or_default())?)
    };
    let reference = match reference {
        Some(arg) => named(arg)?,
        None => config::default_reference(),
    };
    let candidate = match candidate {
        Some(arg) => named(arg)?,
        None => Choice::Uci(config::rookling_itself()?),
    };
    Ok((reference, candidate))
}

/// Writes the HTML report `page` to `path`.
pub fn write_html(path: &std::path::Path, page: &str) -> Result<(), CliError> {
    std::fs::write(path, page)
        .map_err(|e| CliError::Other(format!("cannot write {}: {e}", path.display())))
}

/// `--timeout` as a duration, refusing what is not a positive number of seconds.
pub fn timeout(secs: f64) -> Result<Duration, CliError> {
    match Duration::try_from_secs_f64(secs) {
        Ok(d) if !d.is_zero() => Ok(d),
        _ => Err(CliError::Other(format!(
            "--timeout {secs}: expected a positive number of seconds"
        ))),
    }
}

/// Runs `rookling compare`: exit status 0 when the engines agree, 1 when they differ.
pub fn run(args: CompareArgs) -> Result<ExitCode, CliError> {
    let root = setup(&args.fen, &args.moves, args.chess960)?;
    let chess960 = root.is_chess960();
    let timeout = timeout(args.timeout)?;
    let (reference, candidate) = engine_choices(
        args.reference.as_deref(),
        args.candidate.as_deref(),
        args.engines.as_deref(),
    )?;
    let mut reference = PerftEngine::start(&reference, chess960, timeout)?;
    let mut candidate = PerftEngine::start(&candidate, chess960, timeout)?;
    let names = Names {
        reference: reference.label(),
        candidate: candidate.label(),
    };
    let fen = args.fen.trim().to_string();
    let prefix = args.moves.clone();
    let ask = |engine: &mut PerftEngine, path: &[String], depth: u32| {
        let moves: Vec<String> = prefix.iter().chain(path).cloned().collect();
        engine.perft(&fen, &moves, depth)
    };
    let mut out = std::io::stdout().lock();
    if !args.json {
        write_header(&mut out, &names)?;
    }
    let mut number = 0;
    let mut written = Ok(());
    let mut steps = Vec::new();
    let mut on_step = |step: &Step| {
        number += 1;
        if !args.json && written.is_ok() {
            written = write_step(&mut out, number, step, &root).and_then(|()| out.flush());
        }
        steps.push(step.clone());
    };
    let outcome = drill::<EngineError>(
        args.depth,
        &mut |path, depth| ask(&mut reference, path, depth),
        &mut |path, depth| ask(&mut candidate, path, depth),
        &mut on_step,
    )?;
    written?;
    if let Some(path) = &args.html {
        let facts = [
            ("reference", names.reference.clone()),
            ("candidate", names.candidate.clone()),
            ("root", root.to_fen()),
        ];
        let drilled = [Drilled {
            title: format!("perft {} of the root", args.depth),
            root: &root,
            steps: &steps,
            outcome: &outcome,
        }];
        write_html(path, &html::page("rookling compare", &facts, &drilled))?;
    }
    if args.json {
        let json = serde_json::to_string(&JsonReport::new(&root, &outcome))
            .map_err(|e| CliError::Other(e.to_string()))?;
        writeln!(out, "{json}")?;
    } else {
        write_verdict(&mut out, &outcome, &root)?;
    }
    Ok(ExitCode::from(if outcome.agree() { 0 } else { 1 }))
}
