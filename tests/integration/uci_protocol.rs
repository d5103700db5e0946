//! The UCI front end as a GUI or a script meets it: handshake, `go perft` output line by
//! line, `isready`/`stop`/`quit` during a long perft, options, `d`. Every fixed
//! script runs both interactively and through a closed pipe
//! ([`common::session::both`]); the tests that time answers or wait between commands
//! run interactively, and their scripts also through a pipe.

use crate::common;

use common::session::{PerftAnswer, Transcript, both};
use common::{GUARD, Uci, bound};
use std::path::Path;
use std::time::{Duration, Instant};

/// The divide lines and total of each `go perft` in `t` that counted.
fn counted(t: &Transcript) -> Vec<(Vec<String>, u128)> {
    t.perfts()
        .into_iter()
        .filter_map(|a| match a {
            PerftAnswer::Counted(lines, total) => Some((lines, total)),
            PerftAnswer::Stopped => None,
        })
        .collect()
}

/// Checks a counted answer against `expected` (as a set: the order is Stockfish's,
/// checked elsewhere).
fn check_counted((lines, total): &(Vec<String>, u128), expected: &[(&str, u64)]) {
    let sum: u64 = expected.iter().map(|(_, c)| c).sum();
    assert_eq!(*total, u128::from(sum));
    let mut got = lines.clone();
    let mut want: Vec<String> = expected.iter().map(|(m, c)| format!("{m}: {c}")).collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
}

/// The lines of the `d` board in `t` (from the first board line to `Checkers:`).
fn boards(t: &Transcript) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut board: Option<Vec<String>> = None;
    for line in &t.lines {
        if line.starts_with(" +---") && board.is_none() {
            board = Some(Vec::new());
        }
        if let Some(b) = board.as_mut() {
            b.push(line.trim_end().to_string());
            if line.starts_with("Checkers:") {
                found.extend(board.take());
            }
        }
    }
    found
}

fn rookling() -> Uci {
    Uci::start(Path::new(env!("CARGO_BIN_EXE_rookling")))
}

/// `go perft depth` in the current position: every line up to and including the blank
/// line after `Nodes searched`.
fn perft_lines(engine: &mut Uci, depth: u32) -> Vec<String> {
    engine.send(&format!("go perft {depth}"));
    let mut lines = engine.read_until(|l| l.starts_with("Nodes searched:"));
    lines.extend(engine.read_until(|_| true));
    lines
}

/// Checks the divide format and compares it (as a set) with `expected`.
fn check_divide(lines: &[String], expected: &[(&str, u64)]) {
    let n = lines.len();
    assert!(n >= 3, "{lines:?}");
    assert_eq!(lines[n - 3], "", "a blank line before the total: {lines:?}");
    assert_eq!(lines[n - 1], "", "a blank line after the total: {lines:?}");
    let total: u64 = expected.iter().map(|(_, c)| c).sum();
    assert_eq!(lines[n - 2], format!("Nodes searched: {total}"));
    let mut got: Vec<String> = lines[..n - 3].to_vec();
    let mut want: Vec<String> = expected.iter().map(|(m, c)| format!("{m}: {c}")).collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
}

/// "a2a3: 380 a2a4: 420 ..." as pairs.
fn pairs(text: &str) -> Vec<(&str, u64)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .chunks(2)
        .map(|w| (w[0].trim_end_matches(':'), w[1].parse().expect("a count")))
        .collect()
}

#[test]
fn handshake() {
    for t in both(&["uci", "isready"]) {
        assert_eq!(t.lines.last().map(String::as_str), Some("readyok"));
        handshake_lines(&t.lines[..t.lines.len() - 1]);
    }
}

/// Checks the answer to `uci`, up to `uciok`.
fn handshake_lines(lines: &[String]) {
    assert_eq!(lines.last().map(String::as_str), Some("uciok"));
    assert_eq!(
        lines[0],
        format!("id name Rookling {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    let options = &lines[2..lines.len() - 1];
    for name in [
        "Hash",
        "Threads",
        "UCI_Chess960",
        "PerftHash",
        "Move Overhead",
        "Ponder",
        "Clear Hash",
        "SyzygyPath",
        "EvalFile",
    ] {
        assert!(
            options
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name} missing from {options:?}"
        );
    }
    for line in options {
        let kind = line
            .split(" type ")
            .nth(1)
            .and_then(|t| t.split(' ').next());
        assert!(
            matches!(kind, Some("spin" | "check" | "button" | "string")),
            "{line}"
        );
        if kind == Some("spin") {
            let words: Vec<&str> = line.split(' ').collect();
            let after = |w: &str| {
                words
                    .iter()
                    .position(|x| *x == w)
                    .and_then(|i| words.get(i + 1))
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or_else(|| panic!("{line}: no {w}"))
            };
            assert!(after("min") <= after("default") && after("default") <= after("max"));
        }
    }
    assert!(
        options
            .iter()
            .any(|l| l == "option name Hash type spin default 16 min 1 max 33554432")
    );
}

#[test]
fn perft_divides_standard() {
    let script = [
        "position startpos",
        "go perft 3",
        "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
        "go perft 2",
        "go perft 0",
        "position startpos moves f2f3 e7e5 g2g4 d8h4",
        "go perft 1",
        "isready",
    ];
    for t in both(&script) {
        let blocks = blocks(&t);
        check_divide(
            &blocks[0],
            &pairs(
                "a2a3: 380 a2a4: 420 b1a3: 400 b1c3: 440 b2b3: 420 b2b4: 421 c2c3: 420 c2c4: 441 \
                 d2d3: 539 d2d4: 560 e2e3: 599 e2e4: 600 f2f3: 380 f2f4: 401 g1f3: 440 g1h3: 400 \
                 g2g3: 420 g2g4: 421 h2h3: 380 h2h4: 420",
            ),
        );
        check_divide(
            &blocks[1],
            &pairs(
                "a1b1: 43 a1c1: 43 a1d1: 43 a2a3: 44 a2a4: 44 b2b3: 42 c3a4: 42 c3b1: 42 c3b5: 39 \
                 c3d1: 42 d2c1: 43 d2e3: 43 d2f4: 43 d2g5: 42 d2h6: 41 d5d6: 41 d5e6: 46 e1c1: 43 \
                 e1d1: 43 e1f1: 43 e1g1: 43 e2a6: 36 e2b5: 39 e2c4: 41 e2d1: 44 e2d3: 42 e2f1: 44 \
                 e5c4: 42 e5c6: 41 e5d3: 43 e5d7: 45 e5f7: 44 e5g4: 44 e5g6: 42 f3d3: 42 f3e3: 43 \
                 f3f4: 43 f3f5: 45 f3f6: 39 f3g3: 43 f3g4: 43 f3h3: 43 f3h5: 43 g2g3: 42 g2g4: 42 \
                 g2h3: 43 h1f1: 43 h1g1: 43",
            ),
        );
        // perft 0 counts the position itself (Stockfish 15.1 prints nothing there).
        assert_eq!(blocks[2], ["", "Nodes searched: 1", ""], "{:?}", t.mode);
        // Mate: no move, nothing to count.
        assert_eq!(blocks[3], ["", "Nodes searched: 0", ""], "{:?}", t.mode);
        // Nothing else: the answers and one `readyok` (which a pipe may bring first).
        assert_eq!(t.count("readyok"), 1);
        let printed: usize = blocks.iter().map(Vec::len).sum();
        assert_eq!(t.lines.len(), printed + 1, "{:?}", t.lines);
    }
}

/// Each `go perft` answer in `t` as printed: the divide lines, the blank line, the
/// total and the blank line after it.
fn blocks(t: &Transcript) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut end = 0;
    for (i, line) in t.lines.iter().enumerate() {
        if !line.starts_with("Nodes searched: ") {
            continue;
        }
        let mut start = i;
        while start > end && {
            let l = &t.lines[start - 1];
            l.is_empty() || l.split_once(": ").is_some_and(|(m, _)| m.len() <= 5)
        } {
            start -= 1;
        }
        // The blank line ending the previous answer is not part of this one.
        if start < i && t.lines[start].is_empty() && start + 1 < i && t.lines[start + 1].is_empty()
        {
            start += 1;
        }
        end = (i + 2).min(t.lines.len());
        found.push(t.lines[start..end].to_vec());
    }
    found
}

#[test]
fn perft_divides_chess960() {
    let script = [
        "setoption name UCI_Chess960 value true",
        "position fen 1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        "go perft 2",
        "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "go perft 3",
        // Castling in, king takes rook: the position after it is the right one.
        "position fen 1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1 moves e1b1 g8g2 g1g2 e8e7",
        "d",
    ];
    let expected = pairs(
        "b1a1: 25 b1b2: 24 b1b3: 23 b1b4: 22 b1b5: 21 b1b6: 20 b1b7: 16 b1b8: 3 b1c1: 24 \
         b1d1: 22 e1b1: 22 e1d1: 25 e1d2: 25 e1e2: 25 e1f1: 25 e1f2: 25 g1f1: 23 g1g2: 24 \
         g1g3: 23 g1g4: 22 g1g5: 21 g1g6: 20 g1g7: 16 g1g8: 3 g1h1: 26",
    );
    for t in both(&script) {
        let answers = counted(&t);
        check_counted(&answers[0], &expected);
        assert_eq!(answers[1].1, 12_189);
        assert!(
            t.lines
                .contains(&"Fen: 1r6/4k3/8/8/8/8/6R1/2KR4 w - - 1 3".to_string()),
            "{:?}",
            t.lines
        );
    }
}

#[test]
fn isready_and_stop_during_a_long_perft() {
    isready_and_stop_case(false);
}

#[test]
#[ignore = "latency: idle machine only (cargo test --release -- --ignored latency)"]
fn latency_isready_and_stop_during_a_long_perft() {
    isready_and_stop_case(true);
}

fn isready_and_stop_case(latency: bool) {
    let mut engine = rookling();
    engine.send("position startpos");
    engine.send("go perft 12");
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    assert!(engine.sync().is_empty());
    let answered = asked.elapsed();
    assert!(answered < bound(300, latency), "readyok took {answered:?}");
    let asked = Instant::now();
    engine.send("stop");
    let line = engine.next_line(bound(500, latency));
    assert_eq!(line.as_deref(), Some("info string perft stopped"));
    assert!(asked.elapsed() < bound(500, latency));
    // The deepest perft accepted runs until `stop` too (depth first: no stack overflow).
    engine.send("setoption name Threads value 2");
    engine.send("setoption name PerftHash value 16");
    engine.send("go perft 255");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("stop");
    let line = engine.next_line(bound(500, latency));
    assert_eq!(line.as_deref(), Some("info string perft stopped"));
    // Still usable, and `stop` when idle is ignored.
    engine.send("stop");
    let lines = perft_lines(&mut engine, 3);
    assert_eq!(lines[lines.len() - 2], "Nodes searched: 8902");
}

/// The same commands through a pipe: `readyok` comes during the perft (before it is
/// stopped), and so do the answers after it.
#[test]
fn isready_and_stop_during_a_long_perft_piped() {
    let script = [
        "position startpos",
        "go perft 12",
        "isready",
        "stop",
        "setoption name Threads value 2",
        "setoption name PerftHash value 16",
        "go perft 255",
        "stop",
        "stop",
        "go perft 3",
    ];
    for t in both(&script) {
        let ready = t.lines.iter().position(|l| l == "readyok");
        let stopped = t
            .lines
            .iter()
            .position(|l| l == "info string perft stopped");
        assert!(
            ready.zip(stopped).is_some_and(|(r, s)| r < s),
            "{:?}",
            t.lines
        );
        let answers = t.perfts();
        assert_eq!(answers.len(), 3, "{:?}", t.lines);
        assert_eq!(answers[..2], [PerftAnswer::Stopped, PerftAnswer::Stopped]);
        assert_eq!(t.totals(), [8_902]);
    }
}

#[test]
fn quit_during_a_long_perft_exits_at_once() {
    quit_case(false);
}

#[test]
#[ignore = "latency: idle machine only (cargo test --release -- --ignored latency)"]
fn latency_quit_during_a_long_perft_exits_at_once() {
    quit_case(true);
}

fn quit_case(latency: bool) {
    let mut engine = rookling();
    engine.send("go perft 12");
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    engine.send("quit");
    let status = engine.wait_exit(bound(2000, latency)).expect("exits");
    assert!(status.success(), "{status:?}");
    assert!(asked.elapsed() < bound(1000, latency));
}

/// End of input during a job only `stop` ends (`go infinite`) after a long perft that
/// was stopped: the search is stopped too, answers, and the engine exits.
#[test]
fn end_of_input_stops_what_only_stop_ends() {
    let mut engine = rookling();
    engine.send("go perft 12");
    engine.send("stop");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.close_input();
    let status = engine.wait_exit(GUARD).expect("exits");
    assert!(status.success(), "{status:?}");
    let lines = engine.read_until_closed();
    assert_eq!(
        lines.first().map(String::as_str),
        Some("info string perft stopped")
    );
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
}

/// A shell script pipes its commands and closes the input at once
/// (`printf 'position ...\ngo perft 4\n' | rookling`): the count is still printed, as
/// Stockfish prints it, and the engine exits.
#[test]
fn piped_commands_finish_their_perft() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_rookling"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let mut stdin = child.stdin.take().expect("stdin is piped");
            stdin.write_all(
                b"position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n\
                  go perft 3\nposition startpos\ngo perft 4\n",
            )?;
            drop(stdin);
            child.wait_with_output()
        })
        .expect("runs");
    assert!(output.status.success(), "{:?}", output.status);
    let text = String::from_utf8_lossy(&output.stdout);
    let totals: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("Nodes searched"))
        .collect();
    assert_eq!(totals, ["Nodes searched: 97862", "Nodes searched: 197281"]);
}

#[test]
fn position_during_a_job_applies_to_the_next_one() {
    let script = [
        "go perft 12",
        "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "stop",
        "go perft 2",
    ];
    for t in both(&script) {
        assert_eq!(t.perfts()[0], PerftAnswer::Stopped);
        assert_eq!(t.totals(), [66]);
    }
}

#[test]
fn options_in_and_out_of_range() {
    let good = [
        "setoption name Hash value 1",
        "setoption name Hash value 64",
        "setoption name hash value 32",
        "setoption name Threads value 2",
        "setoption name PerftHash value 0",
        "setoption name PerftHash value 16",
        "setoption name Move Overhead value 0",
        "setoption name move overhead value 5000",
        "setoption name Ponder value true",
        "setoption name UCI_Chess960 value false",
        "setoption name Clear Hash",
    ];
    let bad = [
        "setoption name Hash value 0",
        "setoption name Hash value 33554433",
        "setoption name Hash value -5",
        "setoption name Hash value lots",
        "setoption name Hash value 99999999999999999999999",
        "setoption name Hash",
        "setoption name Threads value 0",
        "setoption name Threads value 1025",
        "setoption name PerftHash value 65537",
        "setoption name Move Overhead value 5001",
        "setoption name UCI_Chess960 value maybe",
        "setoption name NoSuchOption value 3",
        "setoption name",
        "setoption",
    ];
    let mut script = Vec::new();
    for line in good.iter().chain(&bad) {
        script.push(*line);
        script.push("isready");
    }
    // The refused values changed nothing: perft with 2 threads, 16 MB table still counts.
    script.extend(["position startpos", "go perft 4"]);
    for t in both(&script) {
        // Between two `readyok`s: nothing for a good value, one `info string` for a bad.
        let mut answers = t.lines.split(|l| l == "readyok");
        for line in good {
            let said = answers.next().expect("an answer");
            assert!(said.is_empty(), "{line}: {said:?}");
        }
        for line in bad {
            let said = answers.next().expect("an answer");
            assert_eq!(said.len(), 1, "{line}: {said:?}");
            assert!(said[0].starts_with("info string "), "{line}: {said:?}");
        }
        assert_eq!(t.totals(), [197_281]);
    }
}

#[test]
fn chess960_option_spells_castling() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let script = [
        format!("position fen {fen}"),
        "go perft 1".into(),
        "setoption name UCI_Chess960 value true".into(),
        "go perft 1".into(),
        format!("position fen {fen} moves e1a1"),
        "d".into(),
    ];
    let script: Vec<&str> = script.iter().map(String::as_str).collect();
    for t in both(&script) {
        let answers = counted(&t);
        assert!(answers[0].0.contains(&"e1g1: 1".to_string()), "{answers:?}");
        assert!(answers[1].0.contains(&"e1h1: 1".to_string()), "{answers:?}");
        assert!(
            !answers[1].0.contains(&"e1g1: 1".to_string()),
            "{answers:?}"
        );
        let board = &boards(&t)[0];
        assert!(
            board.contains(&"Fen: r3k2r/8/8/8/8/8/8/2KR3R b ha - 1 1".to_string()),
            "{board:?}"
        );
    }
}

#[test]
fn display_draws_the_board() {
    let script = ["position fen 4k3/8/8/8/8/5n2/8/4K2q w - - 0 1", "d"];
    for t in both(&script) {
        assert_eq!(t.lines[0], "", "{:?}", t.lines);
        let d = &boards(&t)[0];
        assert_eq!(d.len(), 22, "{d:?}");
        assert_eq!(d[0], " +---+---+---+---+---+---+---+---+");
        assert_eq!(d[1], " |   |   |   |   | k |   |   |   | 8");
        assert_eq!(d[15], " |   |   |   |   | K |   |   | q | 1");
        assert_eq!(d[17], "   a   b   c   d   e   f   g   h");
        assert_eq!(d[19], "Fen: 4k3/8/8/8/8/5n2/8/4K2q w - - 0 1");
        assert!(
            d[20].len() == 21
                && d[20][5..]
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_lowercase()),
            "{}",
            d[20]
        );
        // Stockfish writes a trailing space; `boards` trims it.
        assert_eq!(d[21], "Checkers: h1 f3");
        assert_eq!(t.lines[t.lines.len() - 1], "Checkers: h1 f3 ");
    }
}

/// `d` and `go perft` against Stockfish's own (the key is ours, so it is left out).
#[test]
#[cfg_attr(
    not(has_stockfish),
    ignore = "needs stockfish (apt-get install stockfish)"
)]
fn display_and_divide_match_stockfish() {
    let stockfish = common::stockfish();
    let mut sf = Uci::start(&stockfish);
    let mut engine = rookling();
    let positions = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            3,
            false,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            2,
            false,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, false),
        ("8/8/3p4/1Pp4r/1K5k/5p2/4P1P1/1R6 w - c6 0 1", 3, false),
        (
            "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
            2,
            true,
        ),
        (
            "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
            3,
            true,
        ),
    ];
    for (fen, depth, chess960) in positions {
        assert_eq!(
            engine.perft(fen, depth, chess960),
            sf.perft(fen, depth, chess960),
            "{fen}"
        );
        for e in [&mut sf, &mut engine] {
            e.send("d");
        }
        let ours = engine.read_until(|l| l.starts_with("Checkers:"));
        let theirs = sf.read_until(|l| l.starts_with("Checkers:"));
        let without_key = |d: Vec<String>| -> Vec<String> {
            d.into_iter()
                .filter(|l| !l.starts_with("Key:") && !l.trim().is_empty())
                .collect()
        };
        assert_eq!(without_key(ours), without_key(theirs), "{fen}");
    }
}

#[test]
fn search_go_stop_ponderhit() {
    go_stop_ponderhit_case(false);
}

#[test]
#[ignore = "latency: idle machine only (cargo test --release -- --ignored latency)"]
fn latency_search_go_stop_ponderhit() {
    go_stop_ponderhit_case(true);
}

fn go_stop_ponderhit_case(latency: bool) {
    let mut engine = rookling();
    engine.send("position startpos moves e2e4");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    assert!(engine.sync().iter().all(|l| l.starts_with("info ")));
    let asked = Instant::now();
    engine.send("stop");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert!(asked.elapsed() < bound(500, latency));
    let best = lines
        .last()
        .expect("bestmove")
        .split(' ')
        .nth(1)
        .map(String::from);
    engine.send("go perft 1");
    let divide = engine.read_until(|l| l.starts_with("Nodes searched"));
    let best = best.expect("a move");
    assert!(
        divide.iter().any(|l| l.starts_with(&format!("{best}: "))),
        "{best} is legal"
    );

    // While pondering there is no bestmove until `ponderhit` (or `stop`).
    engine.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(200));
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    engine.send("ponderhit");
    engine.read_until(|l| l.starts_with("bestmove"));

    // No legal move: bestmove (none). Illegal searchmoves are reported and skipped.
    engine.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    engine.send("go depth 1");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
    engine.send("position startpos");
    engine.send("go depth 1 searchmoves e2e4 e7e5");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert!(
        lines[0].starts_with("info string ") && lines[0].contains("e7e5"),
        "{lines:?}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("bestmove e2e4"));
}

/// The same commands, sent at once, both ways: each `go` gets one legal `bestmove`.
#[test]
fn search_go_stop_ponderhit_as_a_script() {
    let script = [
        "position startpos moves e2e4",
        "go infinite",
        "stop",
        "go perft 1",
        "go ponder wtime 1000 btime 1000",
        "ponderhit",
        "position startpos moves f2f3 e7e5 g2g4 d8h4",
        "go depth 1",
        "position startpos",
        "go depth 1 searchmoves e2e4 e7e5",
    ];
    for t in both(&script) {
        let best = t.bestmoves();
        assert_eq!(best.len(), 4, "{:?}", t.lines);
        assert_eq!(best[2], "bestmove (none)");
        assert_eq!(best[3], "bestmove e2e4");
        assert_eq!(t.totals(), [20]);
    }
}

#[test]
fn stop_ends_the_current_job_only() {
    for t in both(&["go perft 12", "go perft 2", "stop"]) {
        assert_eq!(t.perfts()[0], PerftAnswer::Stopped);
        assert_eq!(t.totals(), [400]);
        assert_eq!(t.lines[0], "info string perft stopped");
    }
}
