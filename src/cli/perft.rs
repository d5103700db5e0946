//! `rookling perft`: divide output in Stockfish's format; with `--split`, `--unit` and
//! `--merge`, the same count cut into work units for other processes or machines (see
//! [`crate::perft::units`] for the line formats).

use super::CliError;
use crate::board::{Position, START_FEN};
use crate::lines::{self, Line};
use crate::memory;
use crate::movegen::play_moves;
use crate::perft::stats::{self, Columns};
use crate::perft::units::{self, Merger, Origin, Unit, UnitResult};
use crate::perft::{MAX_DEPTH, PerftOptions, divide_with, perft_with};
use crate::uci::divide::{RootOrder, divide_lines};
use clap::Args;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// Arguments of `rookling perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Plies to count (0 counts the position itself: 1 node).
    #[arg(required_unless_present_any = ["unit", "merge"])]
    pub depth: Option<u32>,
    /// The position, as FEN (move counters optional; `KQkq`, X-FEN or Shredder-FEN castling).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Moves to play from the FEN first, in UCI notation (`e2e4 e7e5 ...`).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Chess960: castling written king-takes-rook (`e1h1`). Shredder-FEN castling letters
    /// turn this on by themselves.
    #[arg(long)]
    pub chess960: bool,
    /// Then break the count down by kind of last-ply move (captures, en passant, castles,
    /// promotions, checks, discovered and double checks, checkmates).
    #[arg(long)]
    pub stats: bool,
    /// The breakdown's columns (implies --stats): `classic` (the chessprogramming wiki's,
    /// the default) or `gct` (The Grand Chess Tree's: checks and mates each split into
    /// direct, single discovered, direct discovered and double discovered, checks
    /// counted apart from mates).
    #[arg(long, value_name = "COLUMNS", conflicts_with_all = ["unit", "split", "merge"])]
    pub stats_columns: Option<Columns>,
    /// Threads counting at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Perft hash table size in MB (0 = none).
    #[arg(long = "hash", default_value_t = 0, value_name = "MB",
          value_parser = clap::value_parser!(u32).range(0..=1 << 20))]
    pub hash_mb: u32,
    /// Instead of counting, print the work units PLY plies below the position, one line
    /// each: `FEN;DEPTH;MULTIPLICITY;split ...;unit I of N;check ...` (transpositions
    /// merged; see docs/distributed.md).
    #[arg(long, value_name = "PLY", conflicts_with = "stats")]
    pub split: Option<u32>,
    /// Count one work unit line; prints `NODES;` and the unit line (NODES = the unit's
    /// perft times its multiplicity); with `--stats`, `stats N1 ... N9;` and the unit line
    /// (the breakdown, each count times the multiplicity).
    #[arg(long, value_name = "LINE",
          conflicts_with_all = ["depth", "fen", "moves", "split", "merge"])]
    pub unit: Option<String>,
    /// Sum the unit results in FILES (`-` = standard input) exactly; prints the total
    /// (and the breakdown, if the results carry one). Refuses results of another split,
    /// a unit counted twice, missing units, results with and without statistics mixed,
    /// and an empty merge.
    #[arg(long, num_args = 1.., value_name = "FILES",
          conflicts_with_all = ["depth", "fen", "moves", "split", "stats"])]
    pub merge: Vec<PathBuf>,
}

/// Builds the position a command names: FEN, then the moves, with Chess960 spelling
/// if asked for.
pub fn setup(fen: &str, moves: &[String], chess960: bool) -> Result<Position, CliError> {
    let mut pos = Position::from_fen(fen)?;
    if chess960 {
        pos.set_chess960(true);
    }
    play_moves(&mut pos, moves)?;
    Ok(pos)
}

/// Runs `rookling perft`.
pub fn run(args: PerftArgs) -> Result<ExitCode, CliError> {
    let options = PerftOptions {
        threads: usize::from(args.threads),
        hash_mb: args.hash_mb as usize,
    };
    if let Some(line) = &args.unit {
        return count_unit(line, &options, args.stats);
    }
    if !args.merge.is_empty() {
        return merge(&args.merge);
    }
    let depth = args.depth.unwrap_or(0);
    check_depth(depth)?;
    let pos = setup(&args.fen, &args.moves, args.chess960)?;
    if let Some(ply) = args.split {
        return split(&pos, depth, ply);
    }
    check_hash(&options)?;
    let never = AtomicBool::new(false);
    let columns = args.stats_columns;
    let (divide, stats) = if args.stats || columns.is_some() {
        let parts = stats::divide_with(&pos, depth, &options, &never).unwrap_or_default();
        let total = stats::sum(&parts, depth);
        let divide = parts.iter().map(|&(mv, s)| (mv, s.nodes)).collect();
        (divide, Some(total))
    } else {
        (
            divide_with(&pos, depth, &options, &never).unwrap_or_default(),
            None,
        )
    };
    let mut out = std::io::stdout().lock();
    for line in divide_lines(&pos, depth, &divide, RootOrder::Generator) {
        writeln!(out, "{line}")?;
    }
    if let Some(stats) = stats {
        write!(out, "\n{}", stats.table(columns.unwrap_or_default()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Refuses a depth deeper than the walk runs (the same limit as UCI `go perft`).
fn check_depth(depth: u32) -> Result<(), CliError> {
    if depth > MAX_DEPTH {
        return Err(CliError::Other(format!(
            "the depth must be at most {MAX_DEPTH}, not {depth}"
        )));
    }
    Ok(())
}

/// Refuses a `--hash` table the machine does not have the memory for (as UCI
/// `PerftHash` is refused): filling it would get the process killed, not an error.
fn check_hash(options: &PerftOptions) -> Result<(), CliError> {
    let mb = options.hash_mb;
    memory::check_table(mb).map_err(|e| CliError::Other(format!("--hash {mb}: {e}")))
}

/// `--split PLY`: the work units, one line each, on stdout.
fn split(pos: &Position, depth: u32, ply: u32) -> Result<ExitCode, CliError> {
    if ply > depth {
        return Err(CliError::Other(format!(
            "--split {ply} is deeper than the depth {depth}"
        )));
    }
    let units = units::split(pos, depth, ply).map_err(|e| CliError::Other(e.to_string()))?;
    if units.is_empty() {
        // No result could ever be merged: say the answer instead of an empty split.
        return Err(CliError::Other(format!(
            "no position {ply} plies below the root (perft {ply} is 0, so perft {depth} \
             is 0): nothing to split"
        )));
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for unit in &units {
        writeln!(out, "{}", unit.line())?;
    }
    out.flush()?;
    let paths: u64 = units.iter().map(|u| u.multiplicity).sum();
    log::info!("{} units from {paths} move sequences", units.len());
    Ok(ExitCode::SUCCESS)
}

/// `--unit LINE`: counts one unit (with statistics if `with_stats`), prints its result
/// line.
fn count_unit(line: &str, options: &PerftOptions, with_stats: bool) -> Result<ExitCode, CliError> {
    let bad = |e: units::UnitError| CliError::Other(format!("bad unit '{}': {e}", line.trim()));
    let (unit, pos) = Unit::parse(line).map_err(bad)?;
    check_depth(unit.depth)?;
    check_hash(options)?;
    let never = AtomicBool::new(false);
    let stopped = || CliError::Other("perft stopped".into());
    let result = if with_stats {
        let stats = stats::stats_with(&pos, unit.depth, options, &never).ok_or_else(stopped)?;
        UnitResult::with_stats(unit, &stats)
    } else {
        let nodes = perft_with(&pos, unit.depth, options, &never).ok_or_else(stopped)?;
        UnitResult::new(unit, nodes)
    }
    .map_err(bad)?;
    writeln!(std::io::stdout().lock(), "{}", result.line())?;
    Ok(ExitCode::SUCCESS)
}

/// The longest line `--merge` reads: a result line is a few hundred bytes; anything
/// much longer is not one, and reading it whole could exhaust the memory.
const MAX_RESULT_LINE: usize = 64 << 10;

/// The next line of `reader` (without its line break), `None` at the end; a line
/// longer than [`MAX_RESULT_LINE`] or not UTF-8 is an error at `origin`.
fn read_result_line(reader: &mut dyn BufRead, origin: &Origin) -> Result<Option<String>, CliError> {
    let fail = |why: String| CliError::Other(format!("{origin}: {why}"));
    let mut bytes = Vec::new();
    match lines::read_line(reader, MAX_RESULT_LINE, &mut bytes).map_err(|e| fail(e.to_string()))? {
        Line::End => Ok(None),
        Line::Long => Err(fail(format!(
            "a line longer than {MAX_RESULT_LINE} bytes: not a result line"
        ))),
        Line::Whole => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| fail("not UTF-8 text: not a result line".into())),
    }
}

/// `--merge FILES`: the exact sum of the result lines in `files`, which must be the
/// results of every unit of one split, each once.
fn merge(files: &[PathBuf]) -> Result<ExitCode, CliError> {
    let mut merger = Merger::new();
    for file in files {
        let source = file.display().to_string();
        let reader: Box<dyn BufRead> = if source == "-" {
            Box::new(std::io::stdin().lock())
        } else {
            let f = File::open(file).map_err(CliError::file(file, "open"))?;
            Box::new(BufReader::new(f))
        };
        let mut reader = reader;
        for number in 1.. {
            let origin = Origin {
                source: source.clone(),
                line: number,
            };
            let Some(line) = read_result_line(&mut reader, &origin)? else {
                break;
            };
            merger
                .add(&line, origin)
                .map_err(|e| CliError::Other(e.to_string()))?;
        }
    }
    let merged = merger
        .finish()
        .map_err(|e| CliError::Other(e.to_string()))?;
    log::info!("merged {} units of {}", merger.units(), merged.split);
    let mut out = std::io::stdout().lock();
    writeln!(out, "Nodes searched: {}", merged.total)?;
    if let Some(stats) = merged.stats {
        write!(out, "\n{stats}")?;
    }
    Ok(ExitCode::SUCCESS)
}
