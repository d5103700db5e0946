//! `rookling perft-bench`: Rookling's perft timed side by side with another program's,
//! in one run on the same machine.
//!
//! - Against Stockfish (the default), both over UCI as a GUI or script meets them: one
//!   warm process each, options set and `readyok` received before the clock starts,
//!   `go perft N` timed to its total line.
//! - Against any perft program (`--peer 'CMD {fen} {depth}'`), both as whole
//!   processes, timed from start to exit: Rookling runs as `rookling perft`.
//!
//! For each position the two take turns (which goes first alternates), `--repeat`
//! times each, so a busy machine slows both alike; the median times give the ratio
//! (the other program's time over Rookling's), and the geometric mean of the ratios
//! sums the run up. Over UCI both counts must agree, or the command fails; a peer's
//! wrong or missing count is reported on its row and left out of the mean.

use super::CliError;
use crate::client::locate::{self, EngineSpec};
use crate::client::perft_output::find_total;
use crate::client::run::{Finished, run_to_end};
use crate::client::{Engine, EngineError};
use crate::perft::uses_modern_cpu;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The benchmark positions: name, FEN, default depth.
const POSITIONS: [(&str, &str, u32); 5] = [
    (
        "start position",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
    ),
    (
        "Kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    (
        "endgame (seed 000)",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        7,
    ),
    (
        "promotions",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        5,
    ),
    (
        "promotions, castling",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        5,
    ),
];

/// Arguments of `rookling perft-bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Timed runs per position and program (the median counts).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,
    /// Rookling's threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Rookling's perft hash table in MB (0 = none).
    #[arg(long = "hash", default_value_t = 0, value_name = "MB",
          value_parser = clap::value_parser!(u32).range(0..=1 << 16))]
    pub hash_mb: u32,
    /// Depths of the five positions, comma-separated (the same for both programs).
    #[arg(long, value_delimiter = ',', default_values_t = POSITIONS.map(|p| p.2),
          value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depths: Vec<u32>,
    /// The Stockfish binary (default: `stockfish` on PATH, else /usr/games/stockfish).
    #[arg(long, value_name = "PATH", conflicts_with = "peer")]
    pub stockfish: Option<PathBuf>,
    /// Time another perft program instead of Stockfish, as whole processes: a command
    /// line in which `{fen}` and `{depth}` are replaced (each stays one argument), for
    /// example 'taskset -c 0 ./perft {fen} {depth}'. Its node total is read from a line
    /// `Nodes searched: N`, `Nodes: N`, `Total: N` or `Result: N`, or a line that is
    /// only a number.
    #[arg(long, value_name = "COMMAND")]
    pub peer: Option<String>,
    /// Seconds any one run may take.
    #[arg(long, value_name = "SECS", default_value_t = 600.0)]
    pub timeout: f64,
}

/// Runs `rookling perft-bench`: status 0, or 1 when a peer's count was wrong or
/// missing on some position.
pub fn run(args: BenchArgs) -> Result<ExitCode, CliError> {
    if args.depths.len() != POSITIONS.len() {
        return Err(CliError::Other(format!(
            "--depths needs {} depths, got {}",
            POSITIONS.len(),
            args.depths.len()
        )));
    }
    let timeout = super::compare::timeout(args.timeout)?;
    match &args.peer {
        Some(peer) => run_peer(&args, peer, timeout),
        None => run_uci(&args, timeout),
    }
}

/// The first line: what Rookling runs with.
fn header(out: &mut impl Write, args: &BenchArgs, how: &str) -> std::io::Result<()> {
    // The engine runs are this executable, so they choose as this process does.
    crate::attacks::init();
    writeln!(
        out,
        "rookling perft-bench: threads {}, hash {} MB, median of {}, {how} \
         (walk for {} x86-64, {} sliders)",
        args.threads,
        args.hash_mb,
        args.repeat,
        if uses_modern_cpu() {
            "BMI2/POPCNT"
        } else {
            "baseline"
        },
        if crate::attacks::uses_pext() {
            "PEXT"
        } else {
            "magic"
        },
    )
}

/// Stockfish and Rookling over UCI, one warm process each.
fn run_uci(args: &BenchArgs, timeout: Duration) -> Result<ExitCode, CliError> {
    let path = match &args.stockfish {
        Some(path) => path.clone(),
        None => locate::stockfish().ok_or_else(|| {
            CliError::Other("Stockfish not found: install it or pass --stockfish PATH".into())
        })?,
    };
    let mut stockfish = Engine::start(&EngineSpec::program(&path), false, timeout)?;
    let mut rookling = Engine::start(&locate::rookling_itself()?, false, timeout)?;
    rookling.set_option("Threads", &args.threads.to_string())?;
    rookling.set_option("PerftHash", &args.hash_mb.to_string())?;
    let mut out = std::io::stdout().lock();
    header(&mut out, args, "over UCI")?;
    writeln!(
        out,
        "{:<22} {:>5} {:>13} {:>12} {:>12} {:>8}",
        "position", "depth", "nodes", "stockfish s", "rookling s", "ratio"
    )?;
    let mut ratios = Vec::new();
    for ((name, fen, _), &depth) in POSITIONS.iter().zip(&args.depths) {
        let (mut sf_times, mut rl_times, mut nodes) = (Vec::new(), Vec::new(), 0);
        for round in 0..args.repeat {
            // Which engine goes first alternates from round to round.
            let ((sf_nodes, sf_time), (rl_nodes, rl_time)) = if round % 2 == 0 {
                let sf = timed(&mut stockfish, fen, depth)?;
                (sf, timed(&mut rookling, fen, depth)?)
            } else {
                let rl = timed(&mut rookling, fen, depth)?;
                (timed(&mut stockfish, fen, depth)?, rl)
            };
            if sf_nodes != rl_nodes {
                return Err(CliError::Other(format!(
                    "counts differ on {name} depth {depth}: Stockfish {sf_nodes}, Rookling {rl_nodes}"
                )));
            }
            nodes = sf_nodes;
            sf_times.push(sf_time);
            rl_times.push(rl_time);
        }
        let (sf, rl) = (median(&mut sf_times), median(&mut rl_times));
        let ratio = sf.as_secs_f64() / rl.as_secs_f64().max(1e-9);
        ratios.push(ratio);
        writeln!(
            out,
            "{:<22} {:>5} {:>13} {:>12.4} {:>12.4} {:>7.2}x",
            name,
            depth,
            nodes,
            sf.as_secs_f64(),
            rl.as_secs_f64(),
            ratio
        )?;
        out.flush()?;
    }
    writeln!(
        out,
        "geometric mean of the ratios: {:.2}x",
        geomean(&ratios)
    )?;
    Ok(ExitCode::SUCCESS)
}

/// One timed `go perft` after `ucinewgame` (so no hash entry survives from the
/// previous run): the total and the time.
fn timed(engine: &mut Engine, fen: &str, depth: u32) -> Result<(u64, Duration), EngineError> {
    engine.new_game()?;
    let (divide, time) = engine.timed_perft(fen, &[], depth)?;
    Ok((divide.total, time))
}

/// A peer perft program and `rookling perft`, as whole processes.
fn run_peer(args: &BenchArgs, peer: &str, timeout: Duration) -> Result<ExitCode, CliError> {
    let template = match shlex::split(peer) {
        Some(words) if !words.is_empty() => words,
        _ => {
            return Err(CliError::Other(format!(
                "--peer '{peer}': not a command line"
            )));
        }
    };
    for field in ["{fen}", "{depth}"] {
        if !template.iter().any(|w| w.contains(field)) {
            return Err(CliError::Other(format!(
                "--peer '{peer}': no {field} in the command line"
            )));
        }
    }
    let program = locate::find_program(&template[0], None)
        .ok_or_else(|| CliError::Other(format!("--peer: no program '{}' found", template[0])))?;
    let rookling = locate::rookling_itself()?;
    let mut out = std::io::stdout().lock();
    header(&mut out, args, "whole processes")?;
    writeln!(out, "peer: {peer}")?;
    writeln!(
        out,
        "{:<22} {:>5} {:>13} {:>12} {:>12} {:>8}",
        "position", "depth", "nodes", "peer s", "rookling s", "ratio"
    )?;
    let (mut ratios, mut excluded) = (Vec::new(), 0);
    for ((name, fen, _), &depth) in POSITIONS.iter().zip(&args.depths) {
        let mut peer_spec = EngineSpec {
            name: "peer".into(),
            command: template
                .iter()
                .map(|w| {
                    w.replace("{fen}", fen)
                        .replace("{depth}", &depth.to_string())
                })
                .collect(),
            working_dir: None,
        };
        peer_spec.command[0] = program.to_string_lossy().into_owned();
        let mut ours = rookling.clone();
        ours.command.extend(
            [
                "perft",
                &depth.to_string(),
                "--fen",
                fen,
                "--threads",
                &args.threads.to_string(),
                "--hash",
                &args.hash_mb.to_string(),
            ]
            .map(String::from),
        );
        let (mut peer_times, mut rl_times) = (Vec::new(), Vec::new());
        let (mut nodes, mut fault) = (0, None);
        for round in 0..args.repeat {
            // Rookling goes first in the first round, so every peer count is checked.
            let mut runs = [(&ours, false), (&peer_spec, true)];
            if round % 2 == 1 {
                runs.reverse();
            }
            for (spec, is_peer) in runs {
                let finished = run_to_end(spec, timeout);
                if is_peer {
                    match check_peer(finished, nodes) {
                        Ok(time) => peer_times.push(time),
                        Err(problem) => fault = fault.or(Some(problem)),
                    }
                    continue;
                }
                let done = finished.map_err(|e| CliError::Other(format!("rookling perft {e}")))?;
                let total = find_total(&done.output).filter(|_| done.status.success());
                let total = total.ok_or_else(|| {
                    CliError::Other(format!("rookling perft failed on {name} ({})", done.status))
                })?;
                if round > 0 && total != nodes {
                    return Err(CliError::Other(format!(
                        "rookling perft counted {total} then {nodes} on {name}"
                    )));
                }
                nodes = total;
                rl_times.push(done.elapsed);
            }
        }
        let rl = median(&mut rl_times);
        let row = format!("{:<22} {:>5} {:>13}", name, depth, nodes);
        match fault {
            None if peer_times.len() == rl_times.len() => {
                let peer = median(&mut peer_times);
                let ratio = peer.as_secs_f64() / rl.as_secs_f64().max(1e-9);
                ratios.push(ratio);
                writeln!(
                    out,
                    "{row} {:>12.4} {:>12.4} {:>7.2}x",
                    peer.as_secs_f64(),
                    rl.as_secs_f64(),
                    ratio
                )?;
            }
            problem => {
                excluded += 1;
                let problem = problem.unwrap_or_else(|| "runs missing".into());
                writeln!(
                    out,
                    "{row} {:>12} {:>12.4}  peer {problem} (left out)",
                    "-",
                    rl.as_secs_f64()
                )?;
            }
        }
        out.flush()?;
    }
    let counted = ratios.len();
    if counted > 0 {
        writeln!(
            out,
            "geometric mean of the ratios ({counted} of {} positions): {:.2}x",
            POSITIONS.len(),
            geomean(&ratios)
        )?;
    } else {
        writeln!(out, "no position counted: the peer gave no right count")?;
    }
    Ok(ExitCode::from(if excluded == 0 { 0 } else { 1 }))
}

/// A peer run's time if it exited successfully with `expected` nodes (Rookling's
/// count), else what was wrong.
fn check_peer(
    finished: Result<Finished, crate::client::run::RunError>,
    expected: u64,
) -> Result<Duration, String> {
    let done = finished.map_err(|e| e.to_string())?;
    if !done.status.success() {
        return Err(format!("failed ({})", done.status));
    }
    match find_total(&done.output) {
        None => Err("printed no node count".into()),
        Some(n) if n != expected => Err(format!("counted {n} nodes, Rookling {expected}")),
        Some(_) => Ok(done.elapsed),
    }
}

/// The middle value (the upper one of an even count).
fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

/// The geometric mean of `ratios` (1 for none).
fn geomean(ratios: &[f64]) -> f64 {
    let n = ratios.len().max(1) as f64;
    (ratios.iter().map(|r| r.ln()).sum::<f64>() / n).exp()
}
