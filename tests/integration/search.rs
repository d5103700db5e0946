//! The search through the library: mates found, draws and mates recognised, every
//! limit of `go` obeyed, and bench's node count repeatable.

use crate::common;

use common::bound;
use rookling::board::{Move, Position};
use rookling::movegen::{legal_moves, parse_move, play_moves};
use rookling::search::{Control, Limits, SearchResult, Searcher};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("valid FEN")
}

fn mv(p: &Position, s: &str) -> Move {
    parse_move(p, s).expect("legal move")
}

/// Runs one search; returns the result and the info lines.
fn go(p: &Position, history: &[u64], limits: Limits) -> (SearchResult, Vec<String>) {
    let mut searcher = Searcher::new(16);
    let control = Control::default();
    let mut lines = Vec::new();
    let result = searcher.go(p, history, &limits, &control, &mut |l| lines.push(l));
    (result, lines)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Default::default()
    }
}

/// The score of the last info line (`cp X` or `mate M`).
fn last_score(lines: &[String]) -> String {
    let line = lines.last().expect("an info line");
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words
        .iter()
        .position(|w| *w == "score")
        .expect("a score in the info line");
    format!("{} {}", words[i + 1], words[i + 2])
}

#[test]
fn finds_mates_in_one_two_and_three() {
    for (fen, best, mate) in [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 1),
        ("1k6/ppp5/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 1),
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            "d5f6",
            2,
        ),
        (
            "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
            "g2g1",
            2,
        ),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "f6a6", 3),
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            "f8c5",
            3,
        ),
    ] {
        let p = pos(fen);
        let (result, lines) = go(&p, &[], depth(10));
        assert_eq!(result.best, Some(mv(&p, best)), "{fen}: {lines:?}");
        assert_eq!(last_score(&lines), format!("mate {mate}"), "{fen}");
        // `go mate N` stops once the mate is found.
        let (result, lines) = go(
            &p,
            &[],
            Limits {
                mate: Some(mate),
                ..Default::default()
            },
        );
        assert_eq!(result.best, Some(mv(&p, best)), "{fen}: {lines:?}");
        assert_eq!(last_score(&lines), format!("mate {mate}"), "{fen}");
    }
}

#[test]
fn getting_mated_is_a_negative_mate_score() {
    // Black to move is mated next move whatever it does.
    let p = pos("k7/8/1K6/8/8/8/8/7R b - - 0 1");
    let (result, lines) = go(&p, &[], depth(6));
    assert!(result.best.is_some());
    assert_eq!(last_score(&lines), "mate -1", "{lines:?}");
}

#[test]
fn no_legal_move_gives_no_best_move() {
    for (fen, score) in [
        ("3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", "mate 0"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "cp 0"),
    ] {
        let (result, lines) = go(&pos(fen), &[], depth(5));
        assert_eq!(result.best, None, "{fen}");
        assert_eq!(result.ponder, None, "{fen}");
        assert_eq!(last_score(&lines), score, "{fen}");
    }
}

#[test]
fn perpetual_check_is_a_draw() {
    // A queen and rook down, white draws only by checking forever.
    let p = pos("6k1/5p1p/8/8/8/rq6/6PP/3Q3K w - - 0 1");
    let (result, lines) = go(&p, &[], depth(10));
    assert_eq!(result.best, Some(mv(&p, "d1d8")), "{lines:?}");
    assert_eq!(last_score(&lines), "cp 0", "{lines:?}");
}

/// The history and the position after the knights' shuffle
/// `1. Nf3 Nf6 2. Ng1 Ng8` played `times` times from the start.
fn shuffled(times: usize) -> (Position, Vec<u64>) {
    let mut p = Position::startpos();
    let mut history = Vec::new();
    for _ in 0..times {
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            history.push(p.key());
            let m = mv(&p, m);
            p.play(m);
        }
    }
    (p, history)
}

#[test]
fn game_history_counts_for_repetition_the_third_time() {
    // After the shuffle twice, 3. Nf3 brings back the position after 1. Nf3 for
    // the third time: a draw. After it once, the second time: the game goes on (Stockfish's
    // rule; black may still avoid the next repetition), so the score is not a draw's.
    let only_nf3 = |p: &Position, d| Limits {
        depth: Some(d),
        searchmoves: vec![mv(p, "g1f3")],
        ..Default::default()
    };
    let (p, history) = shuffled(2);
    let (result, lines) = go(&p, &history, only_nf3(&p, 6));
    assert_eq!(result.best, Some(mv(&p, "g1f3")));
    assert_eq!(last_score(&lines), "cp 0", "{lines:?}");
    let (p, history) = shuffled(1);
    let (_, lines) = go(&p, &history, only_nf3(&p, 6));
    assert_ne!(last_score(&lines), "cp 0", "{lines:?}");
    // Without the game's history the same move is no draw either.
    let (_, lines) = go(&p, &[], only_nf3(&p, 6));
    assert_ne!(last_score(&lines), "cp 0", "{lines:?}");
}

/// Plays `fen` out with Rookling on both sides, `nodes` a move, for at most `plies`
/// plies; returns the final position and the moves played (UCI).
fn self_play(fen: &str, nodes: u64, plies: usize) -> (Position, Vec<String>) {
    let mut p = pos(fen);
    let mut history = Vec::new();
    let mut moves = Vec::new();
    let mut searcher = Searcher::new(16);
    for _ in 0..plies {
        let limits = Limits {
            nodes: Some(nodes),
            ..Default::default()
        };
        let result = searcher.go(&p, &history, &limits, &Control::default(), &mut |_| {});
        let Some(best) = result.best else { break };
        history.push(p.key());
        moves.push(best.to_uci(false));
        p.play(best);
    }
    (p, moves)
}

#[test]
fn king_bishop_and_knight_mate_a_lone_king() {
    // The lone king starts in a corner the bishop cannot mate in (first and last) or in
    // the centre, and defends with the same search; the mate must come before the
    // fifty-move rule.
    for fen in [
        "k7/8/8/8/8/8/8/2B1KN2 w - - 0 1",
        "8/8/8/3k4/8/8/8/1N2KB2 w - - 0 1",
        "7K/8/8/8/2bn4/8/8/k7 b - - 0 1",
    ] {
        let (end, moves) = self_play(fen, 100_000, 100);
        assert!(
            end.in_check() && legal_moves(&end).is_empty(),
            "{fen}: no mate after {}",
            moves.join(" ")
        );
    }
}

#[test]
fn depth_and_node_limits_are_obeyed() {
    let p = Position::startpos();
    let (result, lines) = go(&p, &[], depth(4));
    assert!(result.best.is_some());
    let last = lines.last().expect("info");
    assert!(last.starts_with("info depth 4 "), "{last}");
    assert!(
        lines
            .iter()
            .all(|l| l.contains(" score ") && l.contains(" pv "))
    );

    let (result, lines) = go(
        &p,
        &[],
        Limits {
            nodes: Some(5000),
            ..Default::default()
        },
    );
    assert!(result.best.is_some());
    let nodes: u64 = lines
        .last()
        .and_then(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let i = w.iter().position(|x| *x == "nodes")?;
            w[i + 1].parse().ok()
        })
        .expect("nodes in info");
    assert!(nodes <= 5000 + 64, "{nodes}");
}

#[test]
fn searchmoves_restricts_the_root() {
    let p = Position::startpos();
    let a3 = mv(&p, "a2a3");
    let h3 = mv(&p, "h2h3");
    let (result, _) = go(
        &p,
        &[],
        Limits {
            depth: Some(5),
            searchmoves: vec![a3, h3],
            ..Default::default()
        },
    );
    assert!(result.best == Some(a3) || result.best == Some(h3));
}

#[test]
fn movetime_is_obeyed() {
    movetime_case(false);
}

#[test]
#[ignore = "latency: idle machine only (cargo test --release -- --ignored latency)"]
fn latency_movetime_is_obeyed() {
    movetime_case(true);
}

fn movetime_case(latency: bool) {
    let p = pos("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8");
    let start = Instant::now();
    let (result, lines) = go(
        &p,
        &[],
        Limits {
            movetime: Some(200),
            ..Default::default()
        },
    );
    let elapsed = start.elapsed();
    assert!(result.best.is_some() && !lines.is_empty());
    assert!(elapsed < bound(450, latency), "{elapsed:?}");
}

#[test]
fn clock_limits_are_obeyed() {
    clock_limits_case(false);
}

#[test]
#[ignore = "latency: idle machine only (cargo test --release -- --ignored latency)"]
fn latency_clock_limits_are_obeyed() {
    clock_limits_case(true);
}

fn clock_limits_case(latency: bool) {
    let p = pos("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R b KQ - 0 8");
    for limits in [
        Limits {
            wtime: Some(1000),
            btime: Some(1000),
            winc: Some(10),
            binc: Some(10),
            ..Default::default()
        },
        Limits {
            wtime: Some(60_000),
            btime: Some(300),
            movestogo: Some(1),
            ..Default::default()
        },
    ] {
        let start = Instant::now();
        let (result, lines) = go(&p, &[], limits.clone());
        let elapsed = start.elapsed();
        assert!(result.best.is_some() && !lines.is_empty());
        assert!(elapsed < bound(400, latency), "{limits:?}: {elapsed:?}");
    }
}

#[test]
fn stop_ends_an_infinite_search() {
    stop_case(false);
}

#[test]
#[ignore = "latency: idle machine only (cargo test --release -- --ignored latency)"]
fn latency_stop_ends_an_infinite_search_promptly() {
    stop_case(true);
}

fn stop_case(latency: bool) {
    let p = Position::startpos();
    let control = Control::default();
    let mut searcher = Searcher::new(16);
    let limits = Limits {
        infinite: true,
        ..Default::default()
    };
    let stopped_at = std::thread::scope(|s| {
        let stopper = s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            control.stop.store(true, Ordering::Relaxed);
            Instant::now()
        });
        let mut lines = Vec::new();
        let result = searcher.go(&p, &[], &limits, &control, &mut |l| lines.push(l));
        let returned = Instant::now();
        let stopped = stopper.join().expect("stopper thread");
        assert!(result.best.is_some() && !lines.is_empty());
        assert!(returned >= stopped, "returned before stop");
        returned - stopped
    });
    assert!(stopped_at < bound(100, latency), "{stopped_at:?}");
}

#[test]
fn pondering_waits_for_ponderhit_then_uses_the_clock() {
    ponder_case(false);
}

#[test]
#[ignore = "latency: idle machine only (cargo test --release -- --ignored latency)"]
fn latency_pondering_waits_for_ponderhit_then_uses_the_clock() {
    ponder_case(true);
}

fn ponder_case(latency: bool) {
    let p = Position::startpos();
    let control = Control::default();
    control.pondering.store(true, Ordering::Relaxed);
    let mut searcher = Searcher::new(16);
    let limits = Limits {
        ponder: true,
        movetime: Some(100),
        ..Default::default()
    };
    std::thread::scope(|s| {
        let hit = s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            control.pondering.store(false, Ordering::Relaxed);
            Instant::now()
        });
        let result = searcher.go(&p, &[], &limits, &control, &mut |_| {});
        let returned = Instant::now();
        let hit_at = hit.join().expect("ponderhit thread");
        assert!(result.best.is_some());
        assert!(returned >= hit_at, "returned before ponderhit");
        assert!(returned - hit_at < bound(350, latency));
    });
}

#[test]
fn a_stop_before_the_search_still_gives_a_legal_move_and_a_score() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let control = Control::default();
    control.stop.store(true, Ordering::Relaxed);
    let mut searcher = Searcher::new(1);
    let mut lines = Vec::new();
    let result = searcher.go(&p, &[], &Limits::default(), &control, &mut |l| {
        lines.push(l)
    });
    let best = result.best.expect("a move");
    assert!(legal_moves(&p).contains(&best));
    assert!(lines.iter().any(|l| l.contains(" score ")), "{lines:?}");
}

#[test]
fn only_move_and_ponder_move_are_legal() {
    let mut p = Position::startpos();
    let moves: Vec<String> = ["e2e4", "f7f6", "d2d4", "g7g5"].map(String::from).to_vec();
    play_moves(&mut p, &moves).expect("legal moves");
    let (result, lines) = go(&p, &[], depth(8));
    assert_eq!(result.best, Some(mv(&p, "d1h5")), "{lines:?}");
    let p = pos("7k/8/8/8/8/8/1r6/K7 w - - 0 1");
    let (result, _) = go(
        &p,
        &[],
        Limits {
            wtime: Some(10_000),
            btime: Some(10_000),
            ..Default::default()
        },
    );
    let best = result.best.expect("the only move");
    assert_eq!(best, mv(&p, "a1b2"));
    if let Some(reply) = result.ponder {
        let mut after = p.clone();
        after.play(best);
        assert!(legal_moves(&after).contains(&reply));
    }
}

#[test]
fn fixed_depth_node_counts_repeat() {
    let p = pos("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8");
    let count = || {
        let mut searcher = Searcher::new(16);
        let control = Control::default();
        searcher.go(&p, &[], &depth(8), &control, &mut |_| {});
        searcher.last_nodes()
    };
    assert_eq!(count(), count());
}

/// A searcher with `threads` search threads.
fn searcher_with(threads: usize) -> Searcher {
    let mut searcher = Searcher::new(16);
    searcher.set_threads(threads);
    searcher
}

#[test]
fn more_threads_find_the_same_mate_and_legal_moves() {
    let mate = pos("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1");
    let middlegame = pos("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8");
    for threads in [2, 4] {
        let mut searcher = searcher_with(threads);
        let control = Control::default();
        let mut lines = Vec::new();
        let result = searcher.go(&mate, &[], &depth(6), &control, &mut |l| lines.push(l));
        assert_eq!(result.best, Some(mv(&mate, "d5f6")), "{threads}: {lines:?}");
        assert_eq!(last_score(&lines), "mate 2", "{threads}: {lines:?}");
        for limits in [
            depth(9),
            Limits {
                movetime: Some(100),
                ..Default::default()
            },
        ] {
            let control = Control::default();
            let result = searcher.go(&middlegame, &[], &limits, &control, &mut |_| {});
            let best = result.best.expect("a move");
            assert!(legal_moves(&middlegame).contains(&best), "{threads}");
            if let Some(reply) = result.ponder {
                let mut after = middlegame.clone();
                after.play(best);
                assert!(legal_moves(&after).contains(&reply), "{threads}");
            }
        }
    }
}

#[test]
fn stop_ends_every_thread() {
    let p = Position::startpos();
    let control = Control::default();
    let mut searcher = searcher_with(4);
    let limits = Limits {
        infinite: true,
        ..Default::default()
    };
    // `go` returns only once every helper thread has been joined.
    let after_stop = std::thread::scope(|s| {
        let stopper = s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            control.stop.store(true, Ordering::Relaxed);
            Instant::now()
        });
        let result = searcher.go(&p, &[], &limits, &control, &mut |_| {});
        let returned = Instant::now();
        assert!(result.best.is_some());
        returned - stopper.join().expect("stopper thread")
    });
    assert!(after_stop < common::GUARD, "{after_stop:?}");
}

#[test]
fn node_limit_and_node_count_cover_every_thread() {
    let p = pos("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8");
    let control = Control::default();
    let mut searcher = searcher_with(2);
    let limit = 300_000;
    let limits = Limits {
        nodes: Some(limit),
        ..Default::default()
    };
    let mut lines = Vec::new();
    searcher.go(&p, &[], &limits, &control, &mut |l| lines.push(l));
    let total = searcher.last_nodes();
    // Each thread looks at the others' counts every 1024 nodes: a few thousand over.
    assert!(
        (limit..limit + 10_000).contains(&total),
        "{total} nodes for a limit of {limit}"
    );
}
