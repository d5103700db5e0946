//! Playing through the binary, as a GUI or an engine-match runner drives it: every `go`
//! form, `stop` and `ponderhit`, an `info ... score` line before every `bestmove`, and
//! fast self-play games in which every move is legal and the game ends correctly.

use crate::common;

use common::session::both;
use common::{GUARD, Uci, bound};
use rookling::board::{Position, START_FEN};
use rookling::movegen::{legal_moves, parse_move};
use rookling::search::draw::insufficient_material;
use std::path::Path;
use std::time::{Duration, Instant};

fn rookling() -> Uci {
    Uci::start(Path::new(env!("CARGO_BIN_EXE_rookling")))
}

/// Sends `go ...` and reads up to `bestmove`; checks that an info line with a score
/// came first. Returns the bestmove line's words after `bestmove`.
fn go(engine: &mut Uci, go: &str) -> Vec<String> {
    engine.send(go);
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info") && l.contains(" score ")),
        "no info score before bestmove: {lines:?}"
    );
    let last = lines.last().expect("bestmove line");
    last.split_whitespace().skip(1).map(String::from).collect()
}

fn check_legal(fen: &str, moves: &[String], reply: &[String]) {
    let mut pos = Position::from_fen(fen).expect("valid FEN");
    for m in moves {
        let mv = parse_move(&pos, m).expect("game move");
        pos.play(mv);
    }
    let best = parse_move(&pos, &reply[0]).unwrap_or_else(|e| panic!("{reply:?}: {e}"));
    if reply.len() == 3 {
        assert_eq!(reply[1], "ponder");
        pos.play(best);
        parse_move(&pos, &reply[2]).unwrap_or_else(|e| panic!("ponder {reply:?}: {e}"));
    }
}

#[test]
fn every_go_form_answers_a_legal_move() {
    let forms = [
        "go wtime 2000 btime 2000 winc 20 binc 20",
        "go wtime 2000 btime 2000 movestogo 5",
        "go depth 5",
        "go nodes 20000",
        "go movetime 100",
        "go depth 4 searchmoves a7a6 h7h6",
    ];
    let mut script = vec![
        "ucinewgame",
        "isready",
        "position startpos moves e2e4 c7c5 g1f3",
    ];
    script.extend(forms);
    // `go mate` searches until it finds the mate (Legal's mate here).
    script.extend([
        "position fen r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        "go mate 2",
    ]);
    for t in both(&script) {
        // `both` checked that each bestmove is legal where its go was sent.
        let best = t.bestmoves();
        assert_eq!(best.len(), forms.len() + 1, "{:?}", t.lines);
        let searchmoves = best[forms.len() - 1].split_whitespace().nth(1);
        assert!(matches!(searchmoves, Some("a7a6" | "h7h6")), "{best:?}");
        assert_eq!(best[forms.len()].split_whitespace().nth(1), Some("d5f6"));
        // An `info ... score` line before every bestmove.
        let mut scored = false;
        for line in &t.lines {
            if line.starts_with("info") && line.contains(" score ") {
                scored = true;
            } else if line.starts_with("bestmove") {
                assert!(scored, "no info score before {line}");
                scored = false;
            }
        }
    }
}

#[test]
fn stop_ends_a_search_with_a_scored_bestmove() {
    stop_case(false);
}

#[test]
#[ignore = "latency: idle machine only (cargo test --release -- --ignored latency)"]
fn latency_stop_ends_a_search_with_a_scored_bestmove() {
    stop_case(true);
}

fn stop_case(latency: bool) {
    let mut engine = rookling();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    // isready is answered during the search.
    engine.send("isready");
    engine.read_until(|l| l == "readyok");
    let start = Instant::now();
    let reply = go(&mut engine, "stop");
    assert!(start.elapsed() < bound(500, latency));
    check_legal(START_FEN, &[], &reply);
}

#[test]
fn ponderhit_turns_pondering_into_a_timed_search() {
    ponderhit_case(false);
}

#[test]
#[ignore = "latency: idle machine only (cargo test --release -- --ignored latency)"]
fn latency_ponderhit_turns_pondering_into_a_timed_search() {
    ponderhit_case(true);
}

fn ponderhit_case(latency: bool) {
    let mut engine = rookling();
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        engine
            .next_line(Duration::from_millis(1))
            .is_none_or(|l| !l.starts_with("bestmove")),
        "bestmove while pondering"
    );
    let start = Instant::now();
    let reply = go(&mut engine, "ponderhit");
    assert!(start.elapsed() < bound(800, latency));
    check_legal(START_FEN, &["e2e4".into(), "e7e5".into()], &reply);
}

#[test]
fn no_legal_move_answers_bestmove_none() {
    let script = [
        "position fen 3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
        "go wtime 1000 btime 1000",
        "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "go wtime 1000 btime 1000",
    ];
    for t in both(&script) {
        assert_eq!(t.bestmoves(), ["bestmove (none)", "bestmove (none)"]);
    }
}

/// How a self-play game ended.
#[derive(Debug, PartialEq)]
enum End {
    Checkmate,
    Draw,
    PlyLimit,
}

/// Plays one game of the engine against itself from `fen` (clocks or movetime);
/// every reply is checked legal. At the end, a `go` must answer `bestmove (none)` if
/// and only if there is no legal move.
fn self_play(fen: &str, max_plies: usize, go_cmd: &str) -> End {
    let mut engine = rookling();
    engine.send("ucinewgame");
    let mut pos = Position::from_fen(fen).expect("valid FEN");
    let mut moves: Vec<String> = Vec::new();
    let mut keys = vec![pos.key()];
    loop {
        let legal = legal_moves(&pos);
        let three_fold = keys.iter().filter(|&&k| k == pos.key()).count() >= 3;
        let draw = pos.halfmove_clock() >= 100 || insufficient_material(&pos) || three_fold;
        let over = legal.is_empty() || draw || moves.len() >= max_plies;
        engine.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        let reply = go(&mut engine, go_cmd);
        if legal.is_empty() {
            assert_eq!(reply, ["(none)"]);
            return if pos.in_check() {
                End::Checkmate
            } else {
                End::Draw
            };
        }
        check_legal(fen, &moves, &reply);
        if over {
            return if draw { End::Draw } else { End::PlyLimit };
        }
        let mv = parse_move(&pos, &reply[0]).expect("checked legal");
        pos.play(mv);
        keys.push(pos.key());
        moves.push(reply[0].clone());
    }
}

#[test]
fn self_play_games_are_legal_and_end_correctly() {
    let start = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let end = self_play(start, 40, "go movetime 25");
    assert_ne!(
        end,
        End::Checkmate,
        "a short balanced game should not be mate"
    );
    let sicilian = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    self_play(sicilian, 40, "go wtime 3000 btime 3000 winc 30 binc 30");
    // King, queen and rook against a bare king: the engine must mate itself out.
    let end = self_play("8/8/8/4k3/8/8/8/R3K2Q w - - 0 1", 40, "go movetime 25");
    assert_eq!(end, End::Checkmate);
}

/// The number of threads of process `pid`.
fn thread_count(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .expect("/proc/PID/task")
        .count()
}

/// Waits (up to [`GUARD`]) for process `pid` to have `n` threads; the last count seen.
fn settle_threads(pid: u32, n: usize) -> usize {
    let start = Instant::now();
    loop {
        let count = thread_count(pid);
        if count == n || start.elapsed() > GUARD {
            return count;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "counts threads in /proc")]
fn threads_run_during_a_search_and_end_with_it() {
    let mut engine = rookling();
    engine.sync();
    let pid = engine.id();
    let idle = thread_count(pid);
    let moves: Vec<String> = ["d2d4", "g8f6"].map(String::from).to_vec();
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    // `Threads` changes between searches, up and down.
    for threads in [2, 4, 1, 3] {
        engine.send(&format!("setoption name Threads value {threads}"));
        engine.send("go infinite");
        engine.read_until(|l| l.starts_with("info depth 2 "));
        // At most one search thread per core.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let searching = threads.min(cores);
        assert_eq!(thread_count(pid), idle + searching - 1, "{threads} threads");
        let reply = go(&mut engine, "stop");
        check_legal(START_FEN, &moves, &reply);
        assert_eq!(settle_threads(pid, idle), idle, "after {threads} threads");
        check_legal(START_FEN, &moves, &go(&mut engine, "go movetime 50"));
    }
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "counts threads in /proc")]
fn no_thread_outlives_many_go_stop_cycles() {
    let mut engine = rookling();
    engine.sync();
    let pid = engine.id();
    let idle = thread_count(pid);
    engine.send("setoption name Threads value 4");
    engine.send("position startpos moves e2e4");
    for i in 0..40 {
        let reply = if i % 2 == 0 {
            engine.send("go infinite");
            go(&mut engine, "stop")
        } else {
            go(&mut engine, "go wtime 500 btime 500 winc 5 binc 5")
        };
        check_legal(START_FEN, &["e2e4".into()], &reply);
    }
    engine.sync();
    assert_eq!(settle_threads(pid, idle), idle);
}
