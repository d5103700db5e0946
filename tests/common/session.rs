//! One UCI script run both ways a script or a GUI meets the engine: **interactively**
//! (the input kept open, every answer awaited, then `quit`) and through a **closed pipe**
//! (all of the input at once, then end of file, as `printf ... | rookling` or
//! `subprocess.run(input=...)` give it). [`both`] runs a script in the two modes and
//! checks that they answer alike: the same `readyok`s, `uciok`s, perft divides and
//! totals, one legal `bestmove` per `go`, and the same other lines (errors, `d`).

use super::{GUARD, Uci};
use rookling::board::Position;
use rookling::movegen::parse_move;
use rookling::uci::{Command, command::Start, parse};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

/// How a script reaches the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Line by line, input kept open until every answer has come, then `quit`.
    Interactive,
    /// All at once through a pipe closed at the end: no `quit` unless the script has one.
    Piped,
}

/// What the engine printed for a script, and how it exited.
#[derive(Debug)]
pub struct Transcript {
    /// The mode it ran in.
    pub mode: Mode,
    /// Every line printed, in order (line breaks and a trailing `\r` removed).
    pub lines: Vec<String>,
    /// The exit status.
    pub status: ExitStatus,
    /// The position each `go` (not `go perft`) was sent for, in order.
    searched: Vec<Position>,
}

/// One `go perft` answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerftAnswer {
    /// The divide lines (`move: count`, in the order printed) and the total.
    Counted(Vec<String>, u128),
    /// `info string perft stopped`.
    Stopped,
}

/// What a script asks of the engine before any `quit`.
#[derive(Debug, Default)]
struct Owed {
    uciok: usize,
    readyok: usize,
    perfts: usize,
    searches: usize,
    quits: bool,
    /// The position of each `go`, worked out with the library.
    searched: Vec<Position>,
}

impl Owed {
    /// Reads the script with the engine's own parser and the library's rules.
    fn of(script: &[&str]) -> Self {
        let mut owed = Self::default();
        let mut pos = Position::startpos();
        // The option, and whether the last position's FEN asked for Chess960 itself
        // (Shredder-FEN letters): the engine keeps the two apart.
        let (mut chess960, mut fen960) = (false, false);
        for line in script {
            match parse(line) {
                Ok(Command::Uci) => owed.uciok += 1,
                Ok(Command::IsReady) => owed.readyok += 1,
                Ok(Command::Perft(_) | Command::PerftStats(..)) => owed.perfts += 1,
                Ok(Command::Go { .. }) => {
                    owed.searches += 1;
                    owed.searched.push(pos.clone());
                }
                Ok(Command::Quit) => {
                    owed.quits = true;
                    break;
                }
                Ok(Command::UciNewGame) => {
                    pos = Position::startpos();
                    pos.set_chess960(chess960);
                    fen960 = false;
                }
                Ok(Command::SetOption { name, value })
                    if name.eq_ignore_ascii_case("UCI_Chess960") =>
                {
                    match value.as_deref().map(str::to_ascii_lowercase).as_deref() {
                        Some("true") => chess960 = true,
                        Some("false") => chess960 = false,
                        _ => {}
                    }
                    pos.set_chess960(chess960 || fen960);
                }
                Ok(Command::Position { start, moves }) => {
                    if let Some((next, asked)) = position(&start, &moves, chess960) {
                        (pos, fen960) = (next, asked);
                    }
                }
                _ => {}
            }
        }
        owed
    }

    /// [`Owed::of`] lines that need not be UTF-8 (read as the engine reads them).
    fn of_bytes(script: &[Vec<u8>]) -> Self {
        let text: Vec<String> = script
            .iter()
            .map(|l| {
                String::from_utf8_lossy(l)
                    .trim_end_matches('\r')
                    .to_string()
            })
            .collect();
        Self::of(&text.iter().map(String::as_str).collect::<Vec<_>>())
    }

    /// Whether `lines` hold every answer owed.
    fn met_by(&self, lines: &[String]) -> bool {
        let mut got = Answers::default();
        lines.iter().for_each(|l| got.add(l));
        got.cover(self)
    }
}

/// The answers counted so far (`uciok`, `readyok`, perft answers, `bestmove`s).
#[derive(Default)]
struct Answers([usize; 4]);

impl Answers {
    /// Counts `line` if it ends an answer.
    fn add(&mut self, line: &str) {
        let kind = match line {
            "uciok" => 0,
            "readyok" => 1,
            "info string perft stopped" => 2,
            l if l.starts_with("Nodes searched: ") => 2,
            l if l.starts_with("bestmove ") => 3,
            _ => return,
        };
        self.0[kind] += 1;
    }

    /// Whether these are at least the answers `owed`.
    fn cover(&self, owed: &Owed) -> bool {
        let [uciok, readyok, perfts, searches] = self.0;
        uciok >= owed.uciok
            && readyok >= owed.readyok
            && perfts >= owed.perfts
            && searches >= owed.searches
    }
}

/// The position a `position` command sets up and whether its FEN asked for Chess960,
/// or `None` if the engine must refuse it.
fn position(start: &Start, moves: &[String], chess960: bool) -> Option<(Position, bool)> {
    let mut pos = match start {
        Start::StartPos => Position::startpos(),
        Start::Fen(fen) => Position::from_fen(fen).ok()?,
    };
    let fen_chess960 = pos.is_chess960();
    pos.set_chess960(fen_chess960 || chess960);
    for text in moves {
        let mv = parse_move(&pos, &text.to_ascii_lowercase()).ok()?;
        pos.play(mv);
    }
    Some((pos, fen_chess960))
}

/// Runs `script` (one command a line) in `mode` and returns what came back.
pub fn run(mode: Mode, script: &[&str]) -> Transcript {
    run_with(mode, script, &[])
}

/// [`run`] with environment variables `env` for the engine.
pub fn run_with(mode: Mode, script: &[&str], env: &[(&str, &str)]) -> Transcript {
    run_bytes(mode, &as_bytes(script), env)
}

/// `script`'s lines as bytes.
fn as_bytes(script: &[&str]) -> Vec<Vec<u8>> {
    script.iter().map(|l| l.as_bytes().to_vec()).collect()
}

/// [`run`] for lines that need not be UTF-8 (each without its line break).
pub fn run_bytes(mode: Mode, script: &[Vec<u8>], env: &[(&str, &str)]) -> Transcript {
    let owed = Owed::of_bytes(script);
    let program = Path::new(env!("CARGO_BIN_EXE_rookling"));
    let (lines, status) = match mode {
        Mode::Interactive => interactive(program, script, env, &owed),
        Mode::Piped => piped(program, script, env),
    };
    Transcript {
        mode,
        lines,
        status,
        searched: owed.searched,
    }
}

/// Sends the lines one by one, waits for everything owed, then sends `quit` (unless the
/// script had one) and reads the rest.
fn interactive(
    program: &Path,
    script: &[Vec<u8>],
    env: &[(&str, &str)],
    owed: &Owed,
) -> (Vec<String>, ExitStatus) {
    let mut engine = Uci::spawn(program, env);
    for line in script {
        engine.send_bytes(&[line.as_slice(), b"\n"].concat());
    }
    let mut lines = Vec::new();
    if !owed.quits {
        // A hang guard: the engine must keep answering, however long the script.
        let mut got = Answers::default();
        while !got.cover(owed) {
            match engine.next_line(GUARD * 2) {
                Some(line) => {
                    got.add(&line);
                    lines.push(line);
                }
                None => panic!("interactive: answers missing: {lines:?}"),
            }
        }
        engine.send("quit");
    }
    lines.extend(engine.read_until_closed());
    let status = engine
        .wait_exit(GUARD)
        .unwrap_or_else(|| panic!("interactive: no exit after quit"));
    (lines, status)
}

/// Writes every line at once and closes the input; reads everything until the engine
/// exits (failing the test if it has not within the guard).
fn piped(program: &Path, script: &[Vec<u8>], env: &[(&str, &str)]) -> (Vec<String>, ExitStatus) {
    let mut command = std::process::Command::new(program);
    command
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = rookling::client::group::spawn(&mut command).expect("the engine starts");
    let mut input = child.stdin.take().expect("piped stdin");
    let text: Vec<u8> = script
        .iter()
        .flat_map(|l| [l.as_slice(), b"\n"].concat())
        .collect();
    // Written from a thread: a long script must not wait on a full pipe while the
    // engine waits for its output to be read.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&text);
    });
    let mut stdout = child.stdout.take().expect("piped stdout");
    let (sender, chunks) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buffer = [0u8; 1 << 16];
        while let Ok(n @ 1..) = stdout.read(&mut buffer) {
            if sender.send(buffer[..n].to_vec()).is_err() {
                return;
            }
        }
    });
    // A hang guard: the engine must keep printing until it closes its output.
    let mut all = Vec::new();
    loop {
        match chunks.recv_timeout(GUARD * 2) {
            Ok(chunk) => all.extend(chunk),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                rookling::client::group::end(&mut child);
                panic!("piped: nothing printed for {:?}", GUARD * 2);
            }
        }
    }
    let Some(status) =
        rookling::client::group::wait(&mut child, GUARD * 2, Duration::from_millis(2))
    else {
        rookling::client::group::end(&mut child);
        panic!(
            "piped: still running {:?} after closing its output",
            GUARD * 2
        );
    };
    let _ = writer.join();
    let lines = String::from_utf8_lossy(&all)
        .lines()
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect();
    (lines, status)
}

impl Transcript {
    /// How many lines equal `line`.
    pub fn count(&self, line: &str) -> usize {
        self.lines.iter().filter(|l| *l == line).count()
    }

    /// The `go perft` answers, in order.
    pub fn perfts(&self) -> Vec<PerftAnswer> {
        let mut answers = Vec::new();
        let mut divide = Vec::new();
        for line in &self.lines {
            if line == "info string perft stopped" {
                answers.push(PerftAnswer::Stopped);
                divide.clear();
            } else if let Some(total) = line.strip_prefix("Nodes searched: ") {
                let total = total.parse().expect("a total");
                answers.push(PerftAnswer::Counted(std::mem::take(&mut divide), total));
            } else if is_divide_line(line) {
                divide.push(line.clone());
            }
        }
        answers
    }

    /// The totals of the `go perft` answers that counted.
    pub fn totals(&self) -> Vec<u128> {
        self.perfts()
            .into_iter()
            .filter_map(|a| match a {
                PerftAnswer::Counted(_, total) => Some(total),
                PerftAnswer::Stopped => None,
            })
            .collect()
    }

    /// The `bestmove` lines, in order.
    pub fn bestmoves(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter(|l| l.starts_with("bestmove "))
            .map(String::as_str)
            .collect()
    }

    /// The `info string` lines, in order.
    pub fn info_strings(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter_map(|l| l.strip_prefix("info string "))
            .collect()
    }

    /// Checks that every `bestmove` (one per `go`) is legal in the position its `go`
    /// was sent for, and its ponder move legal after it.
    pub fn check_bestmoves(&self) {
        let best = self.bestmoves();
        assert_eq!(
            best.len(),
            self.searched.len(),
            "{:?}: one bestmove per go: {:?}",
            self.mode,
            self.lines
        );
        for (line, pos) in best.iter().zip(&self.searched) {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["bestmove", "(none)"] => assert!(
                    rookling::movegen::legal_moves(pos).is_empty(),
                    "{line} with legal moves in {}",
                    pos.to_fen()
                ),
                ["bestmove", mv, rest @ ..] => {
                    let played = parse_move(pos, mv)
                        .unwrap_or_else(|e| panic!("{line} in {}: {e}", pos.to_fen()));
                    if let ["ponder", reply] = rest {
                        let mut after = pos.clone();
                        after.play(played);
                        assert!(parse_move(&after, reply).is_ok(), "{line}: ponder move");
                    } else {
                        assert!(rest.is_empty(), "{line}");
                    }
                }
                _ => panic!("not a bestmove line: {line}"),
            }
        }
    }

    /// The lines that do not depend on a search's course (its `info` lines and the
    /// moves it chose), sorted: what both modes must print alike. With
    /// `stops_may_differ`, the perft answers are left out too.
    fn steady_lines(&self, stops_may_differ: bool) -> Vec<&str> {
        let perft = |l: &str| {
            l == "info string perft stopped"
                || l.starts_with("Nodes searched: ")
                || l.starts_with("info string perft stats: ")
                || l.is_empty()
                || is_divide_line(l)
        };
        let mut lines: Vec<&str> = self
            .lines
            .iter()
            .map(String::as_str)
            .filter(|l| {
                let search_info = l.starts_with("info ") && !l.starts_with("info string ");
                let course = l.starts_with("bestmove ") || search_info;
                let left_out = course || (stops_may_differ && perft(l));
                !left_out
            })
            .collect();
        lines.sort_unstable();
        lines
    }
}

/// `move: count`, as a divide prints it.
fn is_divide_line(line: &str) -> bool {
    line.split_once(": ").is_some_and(|(mv, n)| {
        (4..=5).contains(&mv.len())
            && mv.bytes().all(|b| b.is_ascii_alphanumeric())
            && !n.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Runs `script` interactively and through a closed pipe, checks that both exit with
/// status 0 and answer alike (see the module documentation), and returns both
/// transcripts (interactive first) for the test's own checks.
pub fn both(script: &[&str]) -> [Transcript; 2] {
    compare(&as_bytes(script), &[], false)
}

/// [`both`] with environment variables `env` for the engine.
pub fn both_with(script: &[&str], env: &[(&str, &str)]) -> [Transcript; 2] {
    compare(&as_bytes(script), env, false)
}

/// [`both`] for lines that need not be UTF-8, where `stop`s come at moments that may
/// reach a job in one mode that has finished in the other: each `go perft` may then be
/// answered `perft stopped` in one mode and counted in the other (a count must still be
/// the same in both).
pub fn both_with_stops(script: &[Vec<u8>]) -> [Transcript; 2] {
    compare(script, &[], true)
}

/// Runs `script` both ways and checks the answers (see [`both`]).
fn compare(script: &[Vec<u8>], env: &[(&str, &str)], stops_may_differ: bool) -> [Transcript; 2] {
    let owed = Owed::of_bytes(script);
    let runs = [Mode::Interactive, Mode::Piped].map(|mode| run_bytes(mode, script, env));
    for t in &runs {
        assert!(
            t.status.success(),
            "{:?}: {:?} {:?}",
            t.mode,
            t.status,
            t.lines
        );
        if !owed.quits {
            assert!(
                owed.met_by(&t.lines),
                "{:?}: answers missing: {:?}",
                t.mode,
                t.lines
            );
        }
        t.check_bestmoves();
    }
    let [interactive, piped] = &runs;
    let (a, b) = (interactive.perfts(), piped.perfts());
    assert_eq!(a.len(), b.len(), "as many perft answers");
    for (a, b) in a.iter().zip(&b) {
        let stopped = *a == PerftAnswer::Stopped || *b == PerftAnswer::Stopped;
        assert!(
            a == b || (stops_may_differ && stopped),
            "perft answers differ: {a:?} / {b:?}"
        );
    }
    assert_eq!(
        interactive.steady_lines(stops_may_differ),
        piped.steady_lines(stops_may_differ),
        "the two modes printed different lines"
    );
    runs
}
