//! Input that ends is not `quit`: a script that pipes its commands and closes the input
//! (`printf '...' | rookling`, a here-document, `subprocess.run(input=...)`) gets every
//! answer it asked for, in order, as it does interactively and as Stockfish gives it.
//! Each script runs both ways ([`common::session::both`]).

use crate::common;

use common::session::{Mode, PerftAnswer, both, run};
use std::time::{Duration, Instant};

/// The sequences that printed nothing through a pipe when an option that allocates a
/// table (or starts threads) came first.
#[test]
fn options_first_then_every_answer() {
    let [_, piped] = both(&[
        "setoption name Threads value 2",
        "position startpos",
        "go perft 5",
    ]);
    assert_eq!(piped.totals(), [4_865_609]);
    let [_, piped] = both(&[
        "setoption name PerftHash value 64",
        "position startpos",
        "go perft 5",
    ]);
    assert_eq!(piped.totals(), [4_865_609]);
    let [_, piped] = both(&[
        "setoption name Hash value 16",
        "position startpos",
        "go depth 5",
    ]);
    assert_eq!(piped.bestmoves().len(), 1);
    let [_, piped] = both(&[
        "uci",
        "ucinewgame",
        "isready",
        "position startpos",
        "go depth 5",
    ]);
    assert_eq!((piped.count("uciok"), piped.count("readyok")), (1, 1));
    assert_eq!(piped.bestmoves().len(), 1);
    let [_, piped] = both(&["setoption name Clear Hash", "isready", "isready", "isready"]);
    assert_eq!(piped.count("readyok"), 3);
    let [_, piped] = both(&[
        "position startpos",
        "go perft 3",
        "setoption name Threads value 2",
        "go perft 3",
    ]);
    assert_eq!(piped.totals(), [8_902, 8_902]);
}

/// Every allocating option, then one of each answer, in order.
#[test]
fn every_kind_of_answer_after_every_allocation() {
    for option in [
        "setoption name Hash value 64",
        "setoption name PerftHash value 32",
        "setoption name Clear Hash",
        "ucinewgame",
        "setoption name Threads value 3",
    ] {
        let [_, piped] = both(&[
            option,
            "isready",
            "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "go perft 3",
            "go nodes 3000",
            "go movetime 50",
            "go depth 3",
            "go perft 2 stats",
            "isready",
        ]);
        assert_eq!(piped.count("readyok"), 2, "{option}");
        assert_eq!(piped.totals(), [97_862, 2_039], "{option}");
        assert_eq!(piped.bestmoves().len(), 3, "{option}");
        assert!(
            piped
                .info_strings()
                .iter()
                .any(|l| l.starts_with("perft stats: nodes 2039,")),
            "{option}: {:?}",
            piped.lines
        );
    }
}

/// A search that only `stop` could end is stopped at the end of the input and answers
/// with a legal move (as Stockfish does); jobs queued behind it still run.
#[test]
fn endless_searches_end_with_the_input() {
    for go in [
        "go infinite",
        "go ponder",
        "go",
        "go ponder wtime 1000 btime 1000",
    ] {
        let piped = run(
            Mode::Piped,
            &["position startpos moves e2e4", go, "isready", "go perft 2"],
        );
        assert!(piped.status.success(), "{go}: {:?}", piped.status);
        assert_eq!(piped.count("readyok"), 1, "{go}");
        piped.check_bestmoves();
        assert_eq!(piped.totals(), [600], "{go}");
    }
    // `ponderhit` before the end: the search goes on to its own end, not stopped.
    let [_, piped] = both(&["go ponder depth 4", "ponderhit"]);
    assert_eq!(piped.bestmoves().len(), 1);
}

/// A perft that ends by itself is counted to its end, however long after the input
/// ended (here a second or more; a stop or quit would cut it short).
#[test]
fn a_long_perft_is_counted_whole() {
    let start = Instant::now();
    let piped = run(Mode::Piped, &["go perft 6", "isready"]);
    assert!(piped.status.success());
    assert_eq!(piped.totals(), [119_060_324]);
    assert_eq!(piped.count("readyok"), 1);
    eprintln!(
        "perft 6 through a pipe: {:.2} s",
        start.elapsed().as_secs_f64()
    );
}

/// `quit` still ends everything at once, also while a table is being allocated and
/// through a pipe: nothing after it is answered, the count is cut short.
#[test]
fn quit_ends_everything_at_once() {
    let start = Instant::now();
    let piped = run(
        Mode::Piped,
        &["go perft 12", "isready", "quit", "go perft 1"],
    );
    assert!(piped.status.success());
    assert_eq!(piped.count("readyok"), 1);
    assert!(piped.totals().is_empty(), "{:?}", piped.lines);
    assert!(start.elapsed() < Duration::from_secs(10));
    // During an allocation: `isready` waits for the table, `quit` ends the wait.
    let piped = run(
        Mode::Piped,
        &[
            "setoption name Hash value 4096",
            "isready",
            "quit",
            "isready",
        ],
    );
    assert!(piped.status.success());
    assert_eq!(piped.count("readyok"), 0, "{:?}", piped.lines);
}

/// `go ... searchmoves` skips the words that are not legal moves and reads on.
#[test]
fn searchmoves_skip_what_is_not_legal() {
    let [interactive, piped] = both(&[
        "position startpos",
        "go depth 4 searchmoves e2e5 zzzz e7e5 g1f3 a1a1",
        "go searchmoves e2e5 zzzz depth 2",
        "go searchmoves b1c3 d2d4 depth 3 nodes 50000",
    ]);
    for t in [&interactive, &piped] {
        let best = t.bestmoves();
        assert_eq!(
            best[0].split_whitespace().nth(1),
            Some("g1f3"),
            "{:?}",
            t.lines
        );
        let second = best[2].split_whitespace().nth(1);
        assert!(matches!(second, Some("b1c3" | "d2d4")), "{best:?}");
        let said = t.info_strings();
        assert!(
            said.contains(&"go: searchmoves: 4 not legal here, skipped: e2e5 zzzz e7e5 a1a1"),
            "{said:?}"
        );
        assert!(
            said.contains(
                &"go: searchmoves: 2 not legal here, skipped: e2e5 zzzz; none is left: every move is searched"
            ),
            "{said:?}"
        );
    }
}

/// A stopped job answers alike both ways: the `stop` reaches the job it was meant for.
#[test]
fn stops_and_positions_during_jobs() {
    let [_, piped] = both(&[
        "go perft 12",
        "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "stop",
        "go infinite",
        "stop",
        "go perft 2",
        "go perft 1",
    ]);
    assert_eq!(piped.perfts()[0], PerftAnswer::Stopped);
    assert_eq!(piped.totals(), [66, 15]);
    assert_eq!(piped.bestmoves().len(), 1);
}
