//! `rookling perft`: divide output in Stockfish's format.

use super::CliError;
use crate::board::{Position, START_FEN};
use crate::movegen::play_moves;
use crate::perft::{PerftOptions, divide_with};
use clap::Args;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// Arguments of `rookling perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Plies to count (0 counts the position itself: 1 node).
    pub depth: u32,
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
    /// Threads counting at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Perft hash table size in MB (0 = none).
    #[arg(long = "hash", default_value_t = 0, value_name = "MB",
          value_parser = clap::value_parser!(u32).range(0..=1 << 20))]
    pub hash_mb: u32,
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
    let pos = setup(&args.fen, &args.moves, args.chess960)?;
    let chess960 = pos.is_chess960();
    let options = PerftOptions {
        threads: usize::from(args.threads),
        hash_mb: args.hash_mb as usize,
    };
    let never = AtomicBool::new(false);
    let divide = divide_with(&pos, args.depth, &options, &never).unwrap_or_default();
    let total = if args.depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    };
    let mut out = std::io::stdout().lock();
    for (mv, nodes) in divide {
        writeln!(out, "{}: {nodes}", mv.uci(chess960))?;
    }
    writeln!(out, "\nNodes searched: {total}")?;
    if args.stats {
        write!(out, "\n{}", crate::perft::stats::stats(&pos, args.depth))?;
    }
    Ok(ExitCode::SUCCESS)
}
