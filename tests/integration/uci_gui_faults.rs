//! Engine faults a GUI met (issue 11, defects 5, 6, 7, 9 and 11), each checked through
//! the real binary: a hash table allocated after `readyok` (a loss on time on move 1)
//! or one that cannot be had, `quit` during an allocation,
//! `go` forms that searched until a `stop` that never comes, a mate scored as a
//! fifty-move draw, `stop`s lost on queued jobs, and a move counter that wrapped.

use crate::common;

use common::Uci;
use common::session::{PerftAnswer, both};
use std::path::Path;
use std::time::{Duration, Instant};

fn rookling() -> Uci {
    Uci::start(Path::new(env!("CARGO_BIN_EXE_rookling")))
}

/// A generous bound for an answer that takes milliseconds on an idle machine. The test
/// machine is a loaded 2-core VM, so the bound is loose; what it catches is a table
/// allocated (and its pages faulted in) after `readyok`, which took 3.6 s for 1 GB
/// (`go wtime 100`) and 10.7 s for a 2 GB perft table (`go perft 5`) here before the fix.
const FAST: Duration = Duration::from_millis(1500);

/// Waits for `readyok` (allocating a large table may take long on a loaded machine);
/// returns the lines before it.
fn sync_slow(engine: &mut Uci) -> Vec<String> {
    engine.send("isready");
    let mut lines = Vec::new();
    loop {
        match engine.next_line(Duration::from_secs(180)) {
            Some(line) if line == "readyok" => return lines,
            Some(line) => lines.push(line),
            None => panic!("no readyok after {lines:?}"),
        }
    }
}

/// Sends `go` and returns the bestmove line and how long it took.
fn timed_go(engine: &mut Uci, go: &str) -> (String, Duration) {
    let asked = Instant::now();
    engine.send(go);
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    let took = asked.elapsed();
    (lines.last().cloned().unwrap_or_default(), took)
}

/// Defect 5: the search table is allocated and touched before `readyok`, after
/// `setoption name Hash`, `ucinewgame` and `Clear Hash` alike.
#[test]
fn hash_tables_are_ready_before_readyok() {
    let mut engine = rookling();
    engine.send("setoption name Hash value 1024");
    sync_slow(&mut engine);
    let (best, took) = timed_go(&mut engine, "go wtime 100 btime 100");
    assert!(best.starts_with("bestmove "), "{best}");
    assert!(took < FAST, "first go after Hash 1024 took {took:?}");
    for clear in ["ucinewgame", "setoption name Clear Hash"] {
        engine.send(clear);
        sync_slow(&mut engine);
        engine.send("position startpos moves e2e4");
        let (_, took) = timed_go(&mut engine, "go wtime 100 btime 100");
        assert!(took < FAST, "first go after {clear} took {took:?}");
    }
}

/// Defect 5: the same for `PerftHash`.
#[test]
fn perft_hash_is_ready_before_readyok() {
    let mut engine = rookling();
    engine.send("setoption name PerftHash value 2048");
    assert_eq!(sync_slow(&mut engine), Vec::<String>::new());
    let asked = Instant::now();
    engine.send("go perft 5");
    let lines = engine.read_until(|l| l.starts_with("Nodes searched"));
    let took = asked.elapsed();
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 4865609")
    );
    assert!(
        took < FAST,
        "first go perft 5 after PerftHash 2048 took {took:?}"
    );
}

/// Rookling under a 2 GB address-space limit (`ulimit -v`), so that a 4 GB table cannot
/// be had on any machine, however much memory it has.
fn rookling_in_2_gb() -> Uci {
    let exe = env!("CARGO_BIN_EXE_rookling");
    let mut engine = Uci::spawn_command(&["sh", "-c", "ulimit -v 2000000 && exec \"$0\"", exe]);
    engine.send("uci");
    engine.read_until(|l| l == "uciok");
    engine
}

/// A `Hash` the machine cannot give is refused under the same rule as `PerftHash`
/// (never silently smaller), and the search keeps the table it has; a fresh table for
/// `ucinewgame` that cannot be had beside the old one leaves the old one cleared.
#[test]
fn a_search_hash_that_cannot_be_had_is_refused_and_the_old_one_kept() {
    let mut engine = rookling_in_2_gb();
    engine.send("setoption name Hash value 4096");
    let line = engine
        .next_line(Duration::from_secs(20))
        .unwrap_or_default();
    assert!(
        line.starts_with("info string error: setoption: Hash 4096: ")
            && line.ends_with("; Hash stays 16 MB"),
        "{line:?}"
    );
    assert_eq!(engine.sync(), Vec::<String>::new());
    // 1200 MB fits in 2 GB, but not twice: the fresh table for `ucinewgame` cannot be
    // had while the old one is held, so the old one is cleared, without a word.
    engine.send("setoption name Hash value 1200");
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("ucinewgame");
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("position startpos");
    engine.send("go depth 6");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.contains(" depth 6 ")), "{lines:?}");
}

/// Defect 5: a `PerftHash` the machine cannot give says so (at once, before any other
/// command), and perft goes on with no table instead of being killed for lack of
/// memory. (The refusal used to wait for the next command to be printed.)
#[test]
fn a_perft_hash_that_cannot_be_had_is_refused_at_once() {
    let mut engine = rookling_in_2_gb();
    engine.send("setoption name PerftHash value 4096");
    let line = engine
        .next_line(Duration::from_secs(20))
        .unwrap_or_default();
    assert!(
        line.starts_with("info string error: setoption: PerftHash 4096: ")
            && line.ends_with("; PerftHash is now 0 (no table)"),
        "{line:?}"
    );
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("go perft 4");
    let lines = engine.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 197281")
    );
    // The statistics walk allocates a table of that size beside perft's: when it cannot
    // be had either, the count goes on without it.
    engine.send("setoption name PerftHash value 1000");
    engine.sync();
    engine.send("go perft 3 stats");
    let lines = engine.read_until(|l| l.starts_with("info string perft stats"));
    assert!(
        lines.contains(&"Nodes searched: 8902".to_string()),
        "{lines:?}"
    );
}

/// `quit` while a table is being allocated ends the wait for it (before `readyok`, a
/// `go`, a `go perft`): the engine exits at once, status 0, answering nothing more.
/// (It used to read nothing until the table was ready, so `quit` waited for it.)
#[test]
fn quit_ends_a_wait_for_a_hash_table() {
    for waits in ["isready", "go perft 1", "go depth 1"] {
        let mut engine = rookling();
        // 4 GB to allocate and touch: far longer than the engine takes to read the next
        // two lines (on a machine with less than 4.5 GB free, refused).
        engine.send("setoption name Hash value 4096");
        engine.send(waits);
        engine.send("quit");
        let status = engine.wait_exit(Duration::from_secs(60));
        assert!(status.is_some_and(|s| s.success()), "{waits}: {status:?}");
        let lines = engine.read_until_closed();
        assert!(
            lines
                .iter()
                .all(|l| l.starts_with("info string error: setoption: Hash 4096:")),
            "{waits}: answered after quit: {lines:?}"
        );
    }
}

/// Defect 6: every `go` that names a limit ends by itself, whatever its values; only
/// `go infinite`, `go ponder` and a bare `go` wait for `stop`.
#[test]
fn every_bounded_go_ends_by_itself() {
    let cases = [
        ("position startpos", "go btime 1000"),
        ("position startpos moves e2e4", "go wtime 1000"),
        ("position startpos moves e2e4", "go wtime 1000 winc 100000"),
        ("position startpos", "go depth -5"),
        ("position startpos", "go depth 0"),
        ("position startpos", "go nodes 0"),
        ("position startpos", "go nodes -3"),
        ("position startpos", "go mate 0"),
        ("position startpos", "go mate -1"),
        ("position startpos", "go movetime 0"),
        ("position startpos", "go movetime -100"),
        ("position startpos", "go wtime 0 btime 0"),
        ("position startpos", "go depth abc"),
        ("position startpos", "go wtime x btime y"),
        ("position startpos", "go movestogo 0 wtime 50 btime 50"),
    ];
    let script: Vec<&str> = cases.iter().flat_map(|(p, g)| [*p, *g]).collect();
    // `both` fails the test if a bestmove does not come (interactively within 20 s).
    for t in both(&script) {
        assert_eq!(t.bestmoves().len(), cases.len());
        // An unreadable limit is reported, and the search then stops at depth 1.
        assert!(
            t.info_strings()
                .contains(&"go: ignored 'depth abc'; nothing else limits this search: depth 1"),
            "{:?}",
            t.lines
        );
    }
}

/// Defect 7: a mate given on the hundredth half-move wins; the fifty-move rule draws
/// only positions where the side to move is not mated.
#[test]
fn a_mate_beats_the_fifty_move_rule() {
    for t in both(&[
        "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 200",
        "go depth 5",
    ]) {
        let best = t.bestmoves();
        assert_eq!(best[0].split(' ').nth(1), Some("a1a8"), "{best:?}");
    }
}

/// Defect 9: each `stop` ends one job, the oldest not yet told to stop.
#[test]
fn each_stop_ends_one_job() {
    let mut engine = rookling();
    for _ in 0..3 {
        engine.send("go infinite");
    }
    for n in 1..=3 {
        engine.send("stop");
        engine.read_until(|l| l.starts_with("bestmove"));
        if n < 3 {
            // The jobs not stopped yet are still searching: nothing more comes.
            let lines = engine.sync();
            assert!(
                lines.iter().all(|l| l.starts_with("info ")),
                "after stop {n}: {lines:?}"
            );
        }
    }
    for _ in 0..2 {
        engine.send("go perft 12");
    }
    engine.send("go perft 2");
    engine.send("stop");
    engine.send("stop");
    assert_eq!(engine.read_until(|_| true), ["info string perft stopped"]);
    assert_eq!(engine.read_until(|_| true), ["info string perft stopped"]);
    let lines = engine.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 400")
    );
}

/// The same through a pipe: three stops end the three endless searches, two more the
/// two endless perfts, and the perft queued behind them is counted.
#[test]
fn each_stop_ends_one_job_piped() {
    let script = [
        "go infinite",
        "go infinite",
        "go infinite",
        "stop",
        "stop",
        "stop",
        "go perft 12",
        "go perft 12",
        "go perft 2",
        "stop",
        "stop",
    ];
    for t in both(&script) {
        assert_eq!(t.bestmoves().len(), 3);
        assert_eq!(
            t.perfts()[..2],
            [PerftAnswer::Stopped, PerftAnswer::Stopped]
        );
        assert_eq!(t.totals(), [400]);
    }
}

/// A `stop` sent as soon as the previous job's answer has been read belongs to the next
/// job. It was lost on the finished job in about 1 case in 100 (the job counted as
/// finished only after its answer was printed; found by the soak test, seed 6), and the
/// next `go perft 12` then ran on: a GUI waiting for its answer would hang.
#[test]
fn a_stop_after_an_answer_goes_to_the_next_job() {
    let mut engine = rookling();
    for round in 0..600 {
        engine.send("go perft 1");
        engine.read_until(|l| l.starts_with("Nodes searched"));
        engine.send("go perft 12");
        engine.send("stop");
        let answer = engine.read_until(|l| l.starts_with("info string"));
        assert_eq!(
            answer.last().map(String::as_str),
            Some("info string perft stopped"),
            "round {round}: {answer:?}"
        );
    }
}

/// Defect 11: the move counters stay exact past 16 bits; a FEN counter too large is
/// refused and the position kept.
#[test]
fn move_counters_stay_exact() {
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = shuffle.iter().copied().cycle().take(140_000).collect();
    let long = format!("position startpos moves {}", moves.join(" "));
    let script = [
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 65535 moves e1e2 e8e7 e2e1 e7e8",
        "d",
        &long,
        "d",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 2147483648",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 2147483648 1",
        "d",
    ];
    for t in both(&script) {
        let fens: Vec<&str> = t
            .lines
            .iter()
            .filter_map(|l| l.strip_prefix("Fen: "))
            .collect();
        let shuffled = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 140000 70001";
        // The last one: a refused FEN keeps the position.
        assert_eq!(
            fens,
            ["4k3/8/8/8/8/8/8/4K3 w - - 4 65537", shuffled, shuffled]
        );
        let refused = t.info_strings();
        assert_eq!(refused.len(), 2, "{refused:?}");
        assert!(
            refused
                .iter()
                .all(|l| l.starts_with("error: position: invalid FEN: bad ")),
            "{refused:?}"
        );
    }
}
