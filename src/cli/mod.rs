//! The command line: `rookling` alone speaks UCI; subcommands run perft and the tools.

mod bench;
mod bench_perft;
mod compare;
mod data;
mod datagen;
mod error;
mod hunt;
mod params;
mod perft;
mod suite;
mod suite_report;

pub use error::CliError;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Rookling: a UCI chess engine with an exact, fast perft.
///
/// Run without a subcommand to speak UCI on stdin/stdout (as a GUI expects).
#[derive(Parser, Debug)]
#[command(name = "rookling", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaf nodes of the legal move tree, divided by root move (Stockfish's format).
    Perft(perft::PerftArgs),
    /// Find where two UCI engines' perft disagree: drill down to the position whose move
    /// lists differ (exit status 0 agree, 1 differ, 2 error).
    Compare(compare::CompareArgs),
    /// Run every position of an EPD perft suite within a node budget (exit status 0 all
    /// agree, 1 a count is wrong, 2 error).
    Suite(suite::SuiteArgs),
    /// Find a bug nobody pointed at: seeded positions rich in every rule, counted by the
    /// candidate and the built-in reference, the first difference drilled down and
    /// shrunk (exit status 0 none found, 1 found, 2 error).
    Hunt(hunt::HuntArgs),
    /// Time Rookling's perft against Stockfish's `go perft`, side by side.
    PerftBench(bench_perft::BenchArgs),
    /// Search built-in positions to a fixed depth; prints `Nodes searched` and
    /// `Nodes/second` last, as Stockfish's bench does.
    Bench(bench::BenchArgs),
    /// Play self-play games and write their quiet positions, with search score and
    /// result, as training data for the evaluation network (32-byte records; a killed
    /// run resumes with the same command).
    Datagen(datagen::DatagenArgs),
    /// Convert, merge, count and print training data files.
    Data(data::DataArgs),
    /// Print the search's tunable parameters as SPSA input (OpenBench's format).
    Params,
}

/// Parses the arguments and runs the command; the exit status to return.
pub fn main() -> ExitCode {
    // Diagnostics go to stderr only; `RUST_LOG=debug` shows every UCI line in and out.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match cli.command {
        None => {
            crate::uci::run_stdio();
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::Compare(args)) => compare::run(args),
        Some(Command::Suite(args)) => suite::run(args),
        Some(Command::Hunt(args)) => hunt::run(args),
        Some(Command::PerftBench(args)) => bench_perft::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Datagen(args)) => datagen::run(args),
        Some(Command::Data(args)) => data::run(args),
        Some(Command::Params) => params::run(),
    };
    match result {
        Ok(code) => code,
        Err(e) if e.is_broken_pipe() => end_as_by_sigpipe(),
        Err(e) => {
            eprintln!("rookling: {e}");
            ExitCode::from(2)
        }
    }
}

/// Ends Rookling as a closed pipe ends `cat` or `grep` (`rookling perft 4 --split 3 |
/// head`): quietly, killed by SIGPIPE on Unix (status 141 in a shell). Rookling
/// ignores SIGPIPE while it runs (so a closed pipe to another engine is an error it
/// reports, not its end); this restores the default only for its own stdout.
fn end_as_by_sigpipe() -> ExitCode {
    #[cfg(unix)]
    // SAFETY: signal() and raise() only change and deliver a signal; with the default
    // action restored, SIGPIPE ends the process here.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
    ExitCode::from(141)
}

/// A progress bar on stderr counting `len` `unit`s, drawn only when stderr is a terminal.
fn progress_bar(len: u64, unit: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let template = format!("{{bar:30}} {{pos}}/{{len}} {unit}, {{elapsed}} {{wide_msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}
