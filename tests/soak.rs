//! Soak test: thousands of random UCI command sequences against one engine process,
//! every answer checked.
//!
//! Commands: `position` (valid, bad FEN, illegal move), `go` (depth, nodes, movetime,
//! clock, infinite), `go perft` (short, and long ones that must be stopped), `stop`,
//! `isready`, `setoption` (valid and refused values), `ucinewgame`, in random order
//! with random pauses, then `quit`. Checked: every `go` gets exactly one `bestmove`,
//! legal in the position it was sent for (Rookling's own generator); every `go perft`
//! its exact divide and total (the library's plain perft, in this process) or
//! `info string perft stopped` after a `stop`; each `stop` ends one job (k jobs that
//! only a stop ends, then k `stop`s: all k end); every `isready` its `readyok`; no
//! line that is not valid UCI at that point; exit status 0 after `quit`.
//!
//! Also checked: the only `info string error: ...` lines are those of the refused
//! `position`s and `setoption`s, in order, and no other `info string` comes unasked.
//!
//! Then the same sequences (same seed, same number) go through a closed pipe: all of
//! the input at once, then end of file (no `quit`), as a script sends them. Every answer
//! is checked the same way, and the two runs must agree: as many `bestmove`s,
//! `readyok`s, refusals and `go perft` answers. Two things differ by design: a job
//! only `stop` ends may be stopped by the end of the input instead (a search) and a
//! `stop` may reach a job queued earlier that interactively had finished already, so
//! the piped run's long perft is one that ends by itself (perft 5), and a stopped
//! search needs no `stop` of its own there.
//!
//! It runs for `SOAK_SECONDS` (default 20) and at least `SOAK_SEQUENCES` sequences
//! (default 2,000), and until every kind of check above has happened, whichever is
//! last (failing if that takes ten times `SOAK_SECONDS`, at least 300 s);
//! `SOAK_SEED` sets the seed (printed, so a failure replays with
//! `SOAK_SEED=<seed> cargo test --release --test soak`).

mod common;

use common::Uci;
use common::session::Mode;
use rookling::board::{Position, START_FEN};
use rookling::movegen::{legal_moves, parse_move};
use rookling::perft::divide;
use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::time::{Duration, Instant};

/// How long the engine may take for anything it owes before the test fails: a hang
/// guard far above the slowest answer seen (a `go perft 4` on a loaded machine).
const PATIENCE: Duration = Duration::from_secs(60);

/// Positions the random walks start from.
const STARTS: [&str; 6] = [
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
];

/// splitmix64: small, seedable, good enough to choose commands.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A job the engine owes an answer for, in the order sent (the worker runs them in
/// that order).
#[derive(Debug)]
struct Job {
    /// What was sent, for messages.
    command: String,
    kind: Kind,
    /// `stop`s sent before this job: a stopped answer needs one sent after.
    stops_before: usize,
}

#[derive(Debug)]
enum Kind {
    /// `go ...`: ends with `bestmove`; `needs_stop` for `go infinite`.
    Search { pos: Position, needs_stop: bool },
    /// `go perft N`; `needs_stop` for one too long to finish; `divide` collects the
    /// `move: count` lines, `total` is set by `Nodes searched`.
    Perft {
        pos: Position,
        depth: u32,
        needs_stop: bool,
        divide: Vec<(String, u128)>,
        total: Option<u128>,
    },
}

/// The engine's position as this test works it out, and everything still owed.
struct Session {
    engine: Uci,
    mode: Mode,
    /// Piped: every line sent, written at once at the end.
    input: String,
    /// Piped: the `uci` handshake's lines are still coming.
    handshake: bool,
    pos: Position,
    chess960_option: bool,
    fen_chess960: bool,
    pending: VecDeque<Job>,
    stops: usize,
    /// Answers that needed a stop (stopped perfts, ended infinite searches).
    stopped: usize,
    readies_sent: usize,
    readies_got: usize,
    /// The `info string error: ...` lines owed, oldest first: the start of each (a
    /// refused `position`, a refused `setoption`). Any other error is a failure.
    errors_owed: VecDeque<&'static str>,
    /// The last commands and lines, for failure messages.
    log: VecDeque<String>,
    seed: u64,
    checks: Counts,
}

/// What was checked, printed at the end.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
struct Counts {
    sequences: usize,
    commands: usize,
    bestmoves: usize,
    perfts_exact: usize,
    perfts_stopped: usize,
    readyoks: usize,
    positions_refused: usize,
    errors: usize,
}

impl Counts {
    /// Every kind of check happened (a run too short to check something is a failure,
    /// not a pass).
    fn all_checked(&self) -> bool {
        [
            self.bestmoves,
            self.perfts_exact,
            self.perfts_stopped,
            self.readyoks,
            self.positions_refused,
            self.errors,
        ]
        .iter()
        .all(|&n| n > 0)
    }
}

impl Session {
    fn fail(&self, why: &str) -> ! {
        let log: Vec<&String> = self.log.iter().collect();
        panic!(
            "seed {}: {why}\npending: {:?}\nlast lines (>> sent, << received):\n{}",
            self.seed,
            self.pending.iter().map(|j| &j.command).collect::<Vec<_>>(),
            log.iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }

    fn remember(&mut self, entry: String) {
        if self.log.len() == 400 {
            self.log.pop_front();
        }
        self.log.push_back(entry);
    }

    fn send(&mut self, line: &str) {
        self.checks.commands += 1;
        match self.mode {
            Mode::Interactive => {
                self.remember(format!(">> {line}"));
                self.engine.send(line);
            }
            Mode::Piped => {
                self.input.push_str(line);
                self.input.push('\n');
            }
        }
    }

    /// Reads and checks every line already available (interactive only).
    fn drain(&mut self) {
        if self.mode == Mode::Piped {
            return;
        }
        while let Some(line) = self.engine.next_line(Duration::ZERO) {
            self.check_line(line);
        }
    }

    /// Piped: writes all of the input at once, closes it, and checks every line until
    /// the engine exits by itself; everything owed must have come.
    fn end_of_input(&mut self) {
        let input = std::mem::take(&mut self.input);
        self.engine.send_bytes(input.as_bytes());
        self.engine.close_input();
        self.remember(format!(
            ">> ({} bytes of input, then end of file)",
            input.len()
        ));
        while let Some(line) = self.engine.next_line(PATIENCE) {
            self.check_line(line);
        }
        match self.engine.wait_exit(PATIENCE) {
            Some(status) if status.success() => {}
            other => self.fail(&format!("after the end of input: {other:?}")),
        }
        self.settle();
    }

    /// Reads and checks lines until everything owed has come (interactive; piped, only
    /// once the input has ended).
    fn settle(&mut self) {
        if self.mode == Mode::Piped && !self.input.is_empty() {
            return;
        }
        let deadline = Instant::now() + PATIENCE;
        while !self.pending.is_empty()
            || self.readies_got < self.readies_sent
            || !self.errors_owed.is_empty()
        {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.engine.next_line(left) {
                Some(line) => self.check_line(line),
                None => self.fail(&format!("nothing owed came within {PATIENCE:?}")),
            }
        }
    }

    fn check_line(&mut self, line: String) {
        self.remember(format!("<< {line}"));
        if self.handshake {
            if line == "uciok" {
                self.handshake = false;
            } else if !line.starts_with("id ") && !line.starts_with("option name ") {
                self.fail(&format!("'{line}' in the answer to uci"));
            }
            return;
        }
        if line == "readyok" {
            self.readies_got += 1;
            self.checks.readyoks += 1;
            if self.readies_got > self.readies_sent {
                self.fail("a readyok nobody asked for");
            }
            return;
        }
        if let Some(text) = line.strip_prefix("info string ") {
            if text.contains("internal error") {
                self.fail("an internal error (a panic) was reported");
            }
            if text == "perft stopped" {
                self.perft_stopped();
            } else if let Some(error) = text.strip_prefix("error: ") {
                match self.errors_owed.pop_front() {
                    Some(owed) if error.starts_with(owed) => self.checks.errors += 1,
                    owed => self.fail(&format!("'{line}' where {owed:?} was owed")),
                }
            } else {
                self.fail(&format!("'{line}': no command asked for it"));
            }
            return;
        }
        match self.pending.front_mut().map(|job| &mut job.kind) {
            Some(Kind::Search { .. }) => self.search_line(&line),
            Some(Kind::Perft { .. }) => self.perft_line(&line),
            None => self.fail(&format!("'{line}' with no job running")),
        }
    }

    fn search_line(&mut self, line: &str) {
        const INFO: [&str; 12] = [
            "depth",
            "seldepth",
            "score",
            "nodes",
            "nps",
            "time",
            "pv",
            "hashfull",
            "multipv",
            "currmove",
            "currmovenumber",
            "tbhits",
        ];
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["info", key, ..] if INFO.contains(key) => {}
            ["bestmove", best, rest @ ..] => {
                let job = self.pending.pop_front().expect("a pending search");
                let Kind::Search { pos, needs_stop } = &job.kind else {
                    unreachable!("search_line is called for a search")
                };
                self.check_bestmove(pos, best, rest, &job.command);
                // Piped, the end of the input may be what stopped it.
                if *needs_stop && self.mode == Mode::Interactive {
                    self.stopped_answer(&job);
                }
                self.checks.bestmoves += 1;
            }
            _ => self.fail(&format!("'{line}' is not UCI during a search")),
        }
    }

    fn check_bestmove(&self, pos: &Position, best: &str, rest: &[&str], command: &str) {
        let moves = legal_moves(pos);
        if *best == *"(none)" {
            if !moves.is_empty() || !rest.is_empty() {
                self.fail(&format!("bestmove (none) for '{command}' with legal moves"));
            }
            return;
        }
        let Ok(mv) = parse_move(pos, best) else {
            self.fail(&format!(
                "bestmove {best} is not legal for '{command}' in {}",
                pos.to_fen()
            ));
        };
        match rest {
            [] => {}
            ["ponder", reply] => {
                let mut next = pos.clone();
                next.play(mv);
                if parse_move(&next, reply).is_err() {
                    self.fail(&format!("ponder move {reply} is not legal after {best}"));
                }
            }
            _ => self.fail(&format!("'bestmove {best} {}' is not UCI", rest.join(" "))),
        }
    }

    fn perft_line(&mut self, line: &str) {
        let Some(Job {
            kind: Kind::Perft { divide, total, .. },
            ..
        }) = self.pending.front_mut()
        else {
            unreachable!("perft_line is called for a perft")
        };
        if let Some(count) = line.strip_prefix("Nodes searched: ") {
            match count.parse() {
                Ok(n) if total.is_none() => *total = Some(n),
                _ => self.fail(&format!("'{line}' is not a total")),
            }
            return;
        }
        if line.is_empty() {
            // The blank line after the total ends the answer (the one before it is
            // part of the format and carries nothing).
            if total.is_some() {
                let job = self.pending.pop_front().expect("a pending perft");
                self.check_perft(job);
            }
            return;
        }
        let parsed = line
            .split_once(": ")
            .and_then(|(mv, n)| Some((mv.to_string(), n.parse().ok()?)));
        match parsed {
            Some(pair) if total.is_none() => divide.push(pair),
            _ => self.fail(&format!("'{line}' is not UCI during a perft")),
        }
    }

    fn check_perft(&mut self, job: Job) {
        let Kind::Perft {
            pos,
            depth,
            divide: got,
            total,
            needs_stop,
        } = &job.kind
        else {
            unreachable!("check_perft is called for a perft")
        };
        if *needs_stop {
            self.fail(&format!(
                "'{}' finished: it was meant to need a stop",
                job.command
            ));
        }
        let mut want: HashMap<String, u128> = HashMap::new();
        for (mv, n) in divide(pos, *depth) {
            want.insert(mv.to_uci(pos.is_chess960()), n);
        }
        let mut seen: HashMap<String, u128> = HashMap::new();
        for (text, n) in got {
            let Ok(mv) = parse_move(pos, text) else {
                self.fail(&format!(
                    "'{text}' in the divide of '{}' is not legal",
                    job.command
                ));
            };
            if seen.insert(mv.to_uci(pos.is_chess960()), *n).is_some() {
                self.fail(&format!(
                    "'{text}' twice in the divide of '{}'",
                    job.command
                ));
            }
        }
        let want_total: u128 = want.values().sum();
        if seen != want || *total != Some(want_total) {
            self.fail(&format!(
                "'{}' on {}: total {total:?}, expected {want_total}; divide {seen:?}, expected {want:?}",
                job.command,
                pos.to_fen()
            ));
        }
        self.checks.perfts_exact += 1;
    }

    fn perft_stopped(&mut self) {
        let Some(job) = self.pending.pop_front() else {
            self.fail("'perft stopped' with no job running");
        };
        match &job.kind {
            Kind::Perft { divide, total, .. } if divide.is_empty() && total.is_none() => {}
            _ => self.fail(&format!(
                "'perft stopped' as the answer to '{}'",
                job.command
            )),
        }
        self.stopped_answer(&job);
        self.checks.perfts_stopped += 1;
    }

    /// An answer that only a stop could bring: a stop must have been sent after the job,
    /// and no stop ends two jobs.
    fn stopped_answer(&mut self, job: &Job) {
        self.stopped += 1;
        if self.stops <= job.stops_before {
            self.fail(&format!(
                "'{}' ended as stopped before any stop",
                job.command
            ));
        }
        if self.stopped > self.stops {
            self.fail(&format!(
                "{} jobs ended by {} stops",
                self.stopped, self.stops
            ));
        }
    }

    fn queue(&mut self, command: String, kind: Kind) {
        self.send(&command);
        self.pending.push_back(Job {
            command,
            kind,
            stops_before: self.stops,
        });
    }

    fn stop(&mut self) {
        self.send("stop");
        self.stops += 1;
    }

    fn isready(&mut self) {
        self.send("isready");
        self.readies_sent += 1;
    }
}

/// The random commands (see the module documentation).
impl Session {
    /// A `position` command: a random walk from a start, sometimes spoiled (a bad FEN,
    /// an illegal move) so that it must be refused and leave the position unchanged.
    fn position(&mut self, rng: &mut Rng) {
        let start = STARTS[rng.below(STARTS.len() as u64) as usize];
        let mut pos = Position::from_fen(start).expect("a valid start");
        let fen_chess960 = pos.is_chess960();
        pos.set_chess960(fen_chess960 || self.chess960_option);
        let mut moves = Vec::new();
        for _ in 0..rng.below(12) {
            let list = legal_moves(&pos);
            if list.is_empty() {
                break;
            }
            let mv = list[rng.below(list.len() as u64) as usize];
            moves.push(mv.to_uci(pos.is_chess960()));
            pos.play(mv);
        }
        let mut fen = start.to_string();
        let spoil = rng.below(10);
        if spoil == 0 {
            fen = fen.replacen('k', "", 1);
        } else if spoil == 1 {
            moves.push(["e2e5", "a1a1", "zz", "e7e8q"][rng.below(4) as usize].to_string());
        }
        let head = if fen == START_FEN && rng.chance(50) {
            "position startpos".to_string()
        } else {
            format!("position fen {fen}")
        };
        let line = if moves.is_empty() {
            head
        } else {
            format!("{head} moves {}", moves.join(" "))
        };
        // Whether it must be accepted is decided by the library, independently of the
        // engine: the FEN parses and each move is legal in turn.
        // A "spoiling" move may happen to be legal (e2e5 often is): then the position
        // is the one after it.
        let after = Position::from_fen(&fen).ok().and_then(|mut check| {
            check.set_chess960(fen_chess960 || self.chess960_option);
            for m in &moves {
                let mv = parse_move(&check, m).ok()?;
                check.play(mv);
            }
            Some(check)
        });
        self.send(&line);
        if let Some(after) = after {
            self.pos = after;
            self.fen_chess960 = fen_chess960;
        } else {
            self.checks.positions_refused += 1;
            self.errors_owed.push_back("position: ");
        }
    }

    fn setoption(&mut self, rng: &mut Rng) {
        let line = match rng.below(9) {
            0 => format!("setoption name Hash value {}", 1 + rng.below(16)),
            1 => format!("setoption name Threads value {}", 1 + rng.below(3)),
            2 => format!("setoption name PerftHash value {}", rng.below(9)),
            3 => {
                let on = rng.chance(50);
                self.chess960_option = on;
                self.pos.set_chess960(on || self.fen_chess960);
                format!("setoption name UCI_Chess960 value {on}")
            }
            4 => format!("setoption name Move Overhead value {}", rng.below(50)),
            5 => "setoption name Clear Hash".to_string(),
            refused => {
                self.errors_owed.push_back("setoption: ");
                match refused {
                    6 => "setoption name Hash value 0",
                    7 => "setoption name Threads value many",
                    _ => "setoption name NoSuchOption value 3",
                }
                .to_string()
            }
        };
        self.send(&line);
    }

    fn ucinewgame(&mut self) {
        self.send("ucinewgame");
        self.pos = Position::startpos();
        self.pos.set_chess960(self.chess960_option);
        self.fen_chess960 = false;
    }

    /// A search that ends by itself.
    fn go(&mut self, rng: &mut Rng) {
        let command = match rng.below(5) {
            0 => format!("go depth {}", 1 + rng.below(4)),
            1 => format!("go nodes {}", 1 + rng.below(20_000)),
            2 => format!("go movetime {}", 1 + rng.below(25)),
            3 => {
                let (w, b) = (20 + rng.below(400), 20 + rng.below(400));
                format!(
                    "go wtime {w} btime {b} winc {} binc {}",
                    rng.below(20),
                    rng.below(20)
                )
            }
            _ => format!("go depth {} movetime 30", 1 + rng.below(6)),
        };
        let pos = self.pos.clone();
        self.queue(
            command,
            Kind::Search {
                pos,
                needs_stop: false,
            },
        );
    }

    /// A perft that ends by itself.
    fn perft(&mut self, rng: &mut Rng) {
        let depth = 1 + rng.below(4) as u32;
        let kind = Kind::Perft {
            pos: self.pos.clone(),
            depth,
            needs_stop: false,
            divide: Vec::new(),
            total: None,
        };
        self.queue(format!("go perft {depth}"), kind);
    }

    /// A job only a stop ends: `go infinite`, or a perft of the start position far too
    /// deep to finish (it is queued from there whatever the current position is).
    fn endless(&mut self, rng: &mut Rng) {
        if rng.chance(60) {
            let pos = self.pos.clone();
            self.queue(
                "go infinite".into(),
                Kind::Search {
                    pos,
                    needs_stop: true,
                },
            );
        } else {
            self.send("position startpos");
            self.pos = Position::startpos();
            self.pos.set_chess960(self.chess960_option);
            self.fen_chess960 = false;
            // Piped, its `stop` may reach a job queued before it: it must end by itself.
            let depth = match self.mode {
                Mode::Interactive => 12,
                Mode::Piped => 5,
            };
            let kind = Kind::Perft {
                pos: self.pos.clone(),
                depth,
                needs_stop: self.mode == Mode::Interactive,
                divide: Vec::new(),
                total: None,
            };
            self.queue(format!("go perft {depth}"), kind);
        }
    }

    fn pause(&mut self, rng: &mut Rng) {
        // Drawn in both modes, so that both send the same commands.
        let pause = match rng.below(4) {
            0 => Duration::ZERO,
            1 => Duration::from_micros(rng.below(500)),
            _ => Duration::from_millis(rng.below(4)),
        };
        if self.mode == Mode::Interactive {
            std::thread::sleep(pause);
        }
        self.drain();
    }

    /// A command that is not a job (any of them may come between jobs).
    fn other(&mut self, rng: &mut Rng) {
        match rng.below(10) {
            0..=3 => self.position(rng),
            4 | 5 => self.isready(),
            6 | 7 => self.setoption(rng),
            _ => self.ucinewgame(),
        }
    }

    /// One sequence. Either jobs that end by themselves, mixed with other commands and
    /// `stop`s at random moments (a stopped perft must say so, a stopped search still
    /// gives a legal move); or first k jobs only a stop ends, then the same mix of
    /// self-ending jobs and other commands, with exactly k `stop`s among them (the j-th
    /// after the j-th endless job): since each stop ends the oldest job not yet told to
    /// stop, all k end and nothing else is stopped.
    fn sequence(&mut self, rng: &mut Rng) {
        let length = 1 + rng.below(8);
        if rng.chance(70) {
            for _ in 0..length {
                match rng.below(10) {
                    0..=2 => self.go(rng),
                    3..=5 => self.perft(rng),
                    6 => self.stop(),
                    _ => self.other(rng),
                }
                self.pause(rng);
            }
        } else {
            let endless = 1 + rng.below(3);
            let mut stops_owed = 0;
            for _ in 0..endless {
                self.endless(rng);
                stops_owed += 1;
                if rng.chance(30) {
                    self.pause(rng);
                    self.stop();
                    stops_owed -= 1;
                }
                if rng.chance(40) {
                    self.other(rng);
                }
                self.pause(rng);
            }
            for _ in 0..length {
                match rng.below(10) {
                    0..=2 => self.go(rng),
                    3 | 4 => self.perft(rng),
                    5 | 6 if stops_owed > 0 => {
                        self.stop();
                        stops_owed -= 1;
                    }
                    _ => self.other(rng),
                }
                self.pause(rng);
            }
            for _ in 0..stops_owed {
                self.stop();
            }
        }
        if rng.chance(50) {
            self.isready();
        }
        self.settle();
        self.checks.sequences += 1;
    }
}

#[test]
fn random_command_sequences() {
    let seed = std::env::var("SOAK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_261_123);
    let seconds: u64 = std::env::var("SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let sequences: usize = std::env::var("SOAK_SEQUENCES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000);
    eprintln!(
        "soak: seed {seed}, {seconds} s and at least {sequences} sequences \
         (SOAK_SEED / SOAK_SECONDS / SOAK_SEQUENCES to change)"
    );
    let interactive = soak(Mode::Interactive, seed, seconds, sequences);
    assert!(interactive.sequences >= sequences && interactive.all_checked());
    let piped = soak(Mode::Piped, seed, 0, interactive.sequences);
    assert_eq!(piped.sequences, interactive.sequences);
    // The same commands, so the same answers (a job a stop reached in one run may have
    // finished in the other, but it answered once either way).
    let same = |c: &Counts| {
        (
            c.commands,
            c.bestmoves,
            c.perfts_exact + c.perfts_stopped,
            c.readyoks,
            c.positions_refused,
            c.errors,
        )
    };
    assert_eq!(
        same(&piped),
        same(&interactive),
        "{piped:?} / {interactive:?}"
    );
}

/// Runs the soak in `mode`: interactively for at least `seconds` and `sequences` (and
/// until every kind of check happened), then a `quit` during a job; piped, exactly
/// `sequences`, then the end of the input. The checks made (commands counted before
/// the last job and `quit`).
fn soak(mode: Mode, seed: u64, seconds: u64, sequences: usize) -> Counts {
    let mut rng = Rng(seed);
    let program = Path::new(env!("CARGO_BIN_EXE_rookling"));
    let engine = match mode {
        Mode::Interactive => Uci::start(program),
        Mode::Piped => Uci::spawn(program, &[]),
    };
    let mut session = Session {
        engine,
        mode,
        input: String::new(),
        handshake: mode == Mode::Piped,
        pos: Position::startpos(),
        chess960_option: false,
        fen_chess960: false,
        pending: VecDeque::new(),
        stops: 0,
        stopped: 0,
        readies_sent: 0,
        readies_got: 0,
        errors_owed: VecDeque::new(),
        log: VecDeque::new(),
        seed,
        checks: Counts::default(),
    };
    if mode == Mode::Piped {
        session.input.push_str("uci\n");
    }
    let start = Instant::now();
    // Interactive: until both the time and the number of sequences are reached, and every
    // kind of check has happened at least once: a loaded machine runs longer, not less.
    // But not forever: a kind of check that never happens is a failure, not a hang.
    let limit = Duration::from_secs(seconds.saturating_mul(10).max(300));
    let more = |s: &Session| match mode {
        Mode::Interactive => {
            start.elapsed() < Duration::from_secs(seconds)
                || s.checks.sequences < sequences
                || !s.checks.all_checked()
        }
        Mode::Piped => s.checks.sequences < sequences,
    };
    while more(&session) {
        if mode == Mode::Interactive && start.elapsed() > limit {
            session.fail(&format!(
                "after {} s, still not every check done: {:?}",
                limit.as_secs(),
                session.checks
            ));
        }
        session.sequence(&mut rng);
    }
    let checks = match mode {
        Mode::Interactive => {
            let checks = session.checks.clone();
            // Quit with a job running: the process must end promptly, with status 0.
            session.endless(&mut rng);
            session.send("quit");
            match session.engine.wait_exit(Duration::from_secs(5)) {
                Some(status) if status.success() => {}
                other => session.fail(&format!("after quit: {other:?}")),
            }
            checks
        }
        Mode::Piped => {
            session.end_of_input();
            session.checks.clone()
        }
    };
    eprintln!(
        "soak ({mode:?}): {:?} in {:.1} s",
        session.checks,
        start.elapsed().as_secs_f64()
    );
    checks
}
