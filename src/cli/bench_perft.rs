//! `rookling perft-bench`: Rookling's perft timed side by side with Stockfish's
//! `go perft`, in one run on the same machine, both warm.
//!
//! Stockfish runs as one UCI process for the whole benchmark; Rookling counts in this
//! process. For each position the two take turns, `--repeat` times each, so that a busy
//! machine slows both alike; the median times give the ratio (Stockfish's time over
//! Rookling's), and the geometric mean of the ratios sums the run up. Both counts must
//! agree, or the command fails.

use super::CliError;
use crate::board::Position;
use crate::perft::{PerftOptions, perft_with, uses_modern_cpu};
use clap::Args;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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
    /// Timed runs per position and engine (the median counts).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,
    /// Rookling's threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Rookling's perft hash table in MB (0 = none).
    #[arg(long = "hash", default_value_t = 0, value_name = "MB",
          value_parser = clap::value_parser!(u32).range(0..=1 << 20))]
    pub hash_mb: u32,
    /// Depths of the five positions, comma-separated (the same for both engines).
    #[arg(long, value_delimiter = ',', default_values_t = POSITIONS.map(|p| p.2),
          value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depths: Vec<u32>,
    /// The Stockfish binary (default: `stockfish` on PATH, else /usr/games/stockfish).
    #[arg(long, value_name = "PATH")]
    pub stockfish: Option<PathBuf>,
}

/// Runs `rookling perft-bench`.
pub fn run(args: BenchArgs) -> Result<ExitCode, CliError> {
    if args.depths.len() != POSITIONS.len() {
        return Err(CliError::Other(format!(
            "--depths needs {} depths, got {}",
            POSITIONS.len(),
            args.depths.len()
        )));
    }
    let path = match args.stockfish {
        Some(path) => path,
        None => find_stockfish().ok_or_else(|| {
            CliError::Other("Stockfish not found: install it or pass --stockfish PATH".into())
        })?,
    };
    crate::attacks::init();
    let mut stockfish = Stockfish::start(&path)?;
    let options = PerftOptions {
        threads: usize::from(args.threads),
        hash_mb: args.hash_mb as usize,
    };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "rookling perft-bench: threads {}, hash {} MB, median of {} (walk for {} x86-64, {} sliders)",
        options.threads,
        options.hash_mb,
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
    )?;
    writeln!(
        out,
        "{:<22} {:>5} {:>13} {:>12} {:>12} {:>8}",
        "position", "depth", "nodes", "stockfish s", "rookling s", "ratio"
    )?;
    let never = AtomicBool::new(false);
    let mut log_sum = 0.0;
    for ((name, fen, _), &depth) in POSITIONS.iter().zip(&args.depths) {
        let pos = Position::from_fen(fen)?;
        let (mut sf_times, mut rl_times) = (Vec::new(), Vec::new());
        for _ in 0..args.repeat {
            let (sf_nodes, sf_time) = stockfish.perft(fen, depth)?;
            let start = Instant::now();
            let nodes = perft_with(&pos, depth, &options, &never).unwrap_or(0);
            rl_times.push(start.elapsed());
            sf_times.push(sf_time);
            if nodes != u128::from(sf_nodes) {
                return Err(CliError::Other(format!(
                    "counts differ on {name} depth {depth}: Stockfish {sf_nodes}, Rookling {nodes}"
                )));
            }
        }
        let (sf, rl) = (median(&mut sf_times), median(&mut rl_times));
        let ratio = sf.as_secs_f64() / rl.as_secs_f64().max(1e-9);
        log_sum += ratio.ln();
        writeln!(
            out,
            "{:<22} {:>5} {:>13} {:>12.4} {:>12.4} {:>7.2}x",
            name,
            depth,
            stockfish.last_nodes,
            sf.as_secs_f64(),
            rl.as_secs_f64(),
            ratio
        )?;
        out.flush()?;
    }
    let geomean = (log_sum / POSITIONS.len() as f64).exp();
    writeln!(out, "geometric mean of the ratios: {geomean:.2}x")?;
    Ok(ExitCode::SUCCESS)
}

/// The middle value (the upper one of an even count).
fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

/// `stockfish` on PATH, else Debian's `/usr/games/stockfish`.
fn find_stockfish() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("stockfish"))
            .find(|p| p.is_file())
    });
    on_path.or_else(|| {
        let debian = PathBuf::from("/usr/games/stockfish");
        debian.is_file().then_some(debian)
    })
}

/// One warm Stockfish process spoken to over UCI.
struct Stockfish {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    last_nodes: u64,
}

impl Stockfish {
    /// Starts the engine and completes the handshake.
    fn start(path: &Path) -> Result<Self, CliError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| CliError::Other(format!("cannot start {}: {e}", path.display())))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(CliError::Other("no pipes to Stockfish".into()));
        };
        let mut sf = Self {
            child,
            input,
            output: BufReader::new(output),
            last_nodes: 0,
        };
        sf.send("uci")?;
        sf.read_until(|l| l == "uciok")?;
        sf.send("isready")?;
        sf.read_until(|l| l == "readyok")?;
        Ok(sf)
    }

    fn send(&mut self, line: &str) -> Result<(), CliError> {
        writeln!(self.input, "{line}")?;
        self.input.flush()?;
        Ok(())
    }

    /// Reads lines until one satisfies `last`; returns that line.
    fn read_until(&mut self, last: impl Fn(&str) -> bool) -> Result<String, CliError> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line)? == 0 {
                return Err(CliError::Other("Stockfish closed its output".into()));
            }
            if last(line.trim_end()) {
                return Ok(line.trim_end().to_string());
            }
        }
    }

    /// Stockfish's `go perft` count on `fen` and the time from the command to the total.
    fn perft(&mut self, fen: &str, depth: u32) -> Result<(u64, Duration), CliError> {
        self.send(&format!("position fen {fen}"))?;
        self.send("isready")?;
        self.read_until(|l| l == "readyok")?;
        let start = Instant::now();
        self.send(&format!("go perft {depth}"))?;
        let line = self.read_until(|l| l.starts_with("Nodes searched:"))?;
        let elapsed = start.elapsed();
        let nodes = line["Nodes searched:".len()..]
            .trim()
            .parse()
            .map_err(|_| CliError::Other(format!("unexpected Stockfish output: {line}")))?;
        self.last_nodes = nodes;
        Ok((nodes, elapsed))
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}
