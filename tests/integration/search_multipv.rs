//! What a GUI's analysis and strength settings see through the binary: `MultiPV` lines
//! (count, distinct legal first moves, order, `bestmove` = line 1) with threads,
//! `searchmoves`, few legal moves, mates and clocks; `UCI_ShowWDL`; weakened play
//! (`Skill Level`, `UCI_LimitStrength`/`UCI_Elo`); and `eval`.

use crate::common;

use common::Uci;
use rookling::board::Position;
use rookling::movegen::{legal_moves, parse_move};
use std::path::Path;

fn rookling() -> Uci {
    Uci::start(Path::new(env!("CARGO_BIN_EXE_rookling")))
}

/// One `info ... multipv K score ...` line, read.
#[derive(Debug)]
struct Info {
    depth: u32,
    multipv: usize,
    /// Centipawns; mate in n as 100000 - n (getting mated: negative).
    score: i64,
    bound: bool,
    wdl: Option<[u32; 3]>,
    pv: Vec<String>,
}

fn parse_info(line: &str) -> Option<Info> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") || !words.contains(&"multipv") {
        return None;
    }
    let after = |key: &str| {
        let i = words.iter().position(|w| *w == key)?;
        words.get(i + 1).copied()
    };
    let number = |key: &str| after(key).and_then(|v| v.parse::<i64>().ok());
    let score_at = words.iter().position(|w| *w == "score")?;
    let value: i64 = words[score_at + 2].parse().ok()?;
    let score = match words[score_at + 1] {
        "cp" => value,
        "mate" if value > 0 => 100_000 - value,
        "mate" => -100_000 - value,
        _ => return None,
    };
    let wdl = words.iter().position(|w| *w == "wdl").map(|i| {
        let n = |k: usize| words[i + k].parse::<u32>().expect("wdl number");
        [n(1), n(2), n(3)]
    });
    let pv_at = words.iter().position(|w| *w == "pv")?;
    Some(Info {
        depth: number("depth")? as u32,
        multipv: number("multipv")? as usize,
        score,
        bound: words.contains(&"lowerbound") || words.contains(&"upperbound"),
        wdl,
        pv: words[pv_at + 1..].iter().map(|w| w.to_string()).collect(),
    })
}

/// Sends `go`, reads to `bestmove`: the info lines and the move.
fn search(engine: &mut Uci, go: &str) -> (Vec<Info>, String) {
    engine.send(go);
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    let best = lines.last().expect("bestmove").split_whitespace().nth(1);
    let infos = lines.iter().filter_map(|l| parse_info(l)).collect();
    (infos, best.expect("a move").to_string())
}

/// The last report: the final run of lines numbered 1, 2, ... before `bestmove`.
fn last_report(infos: &[Info]) -> &[Info] {
    let start = infos
        .iter()
        .rposition(|i| i.multipv == 1)
        .expect("a line 1");
    &infos[start..]
}

/// Checks every complete report of a search of `pos` (lines 1..=n, each once, at one
/// depth, distinct legal first moves, best first, no bounds) and that `bestmove` is
/// the last report's line 1; returns the last report's first moves.
fn check_reports(pos: &Position, infos: &[Info], best: &str, n: usize) -> Vec<String> {
    let legal = legal_moves(pos);
    let mut i = 0;
    while i < infos.len() {
        assert_eq!(
            infos[i].multipv, 1,
            "a report starts with line 1: {infos:?}"
        );
        let report = &infos[i..(i + n).min(infos.len())];
        assert_eq!(report.len(), n, "{n} lines per report: {infos:?}");
        let firsts: Vec<&String> = report.iter().map(|l| &l.pv[0]).collect();
        for (k, line) in report.iter().enumerate() {
            assert_eq!(line.multipv, k + 1);
            assert_eq!(line.depth, report[0].depth, "one depth per report");
            assert!(!line.bound, "a complete report has no bounds: {line:?}");
            let mv = parse_move(pos, &line.pv[0]).expect("first move legal");
            assert!(legal.contains(&mv));
            assert_eq!(firsts.iter().filter(|m| **m == &line.pv[0]).count(), 1);
            if k > 0 {
                assert!(line.score <= report[k - 1].score, "best first: {report:?}");
            }
        }
        i += n;
    }
    let last = last_report(infos);
    assert_eq!(last[0].pv[0], best, "bestmove is line 1");
    last.iter().map(|l| l.pv[0].clone()).collect()
}

#[test]
fn multipv_reports_distinct_lines_best_first_with_one_or_two_threads() {
    let mut engine = rookling();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let pos = Position::from_fen(fen).expect("valid");
    engine.send("setoption name MultiPV value 4");
    engine.send(&format!("position fen {fen}"));
    let (infos, best) = search(&mut engine, "go depth 9");
    check_reports(&pos, &infos, &best, 4);
    assert_eq!(last_report(&infos)[0].depth, 9);
    engine.send("setoption name Threads value 2");
    let (infos, best) = search(&mut engine, "go depth 9");
    check_reports(&pos, &infos, &best, 4);
    // A clock: the last report is a complete iteration too.
    let (infos, best) = search(&mut engine, "go wtime 3000 btime 3000 winc 30 binc 30");
    check_reports(&pos, &infos, &best, 4);
    engine.send("setoption name Threads value 1");
    let (infos, best) = search(&mut engine, "go movetime 300");
    check_reports(&pos, &infos, &best, 4);
}

#[test]
fn multipv_after_stop_repeats_the_last_complete_iteration() {
    let mut engine = rookling();
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos moves d2d4");
    engine.send("go infinite");
    engine.read_until(|l| l.starts_with("info depth 6 ") && l.contains(" multipv 3 "));
    std::thread::sleep(std::time::Duration::from_millis(100));
    let (infos, best) = search(&mut engine, "stop");
    let pos = {
        let mut p = Position::startpos();
        p.play(parse_move(&p, "d2d4").expect("legal"));
        p
    };
    let last = last_report(&infos);
    assert_eq!(last.len(), 3, "{infos:?}");
    assert!(last.iter().all(|l| l.depth == last[0].depth && !l.bound));
    assert_eq!(last[0].pv[0], best);
    assert!(parse_move(&pos, &best).is_ok());
}

#[test]
fn multipv_lines_are_capped_by_searchmoves_and_legal_moves() {
    let mut engine = rookling();
    engine.send("setoption name MultiPV value 5");
    engine.send("position startpos");
    let (infos, best) = search(&mut engine, "go depth 6 searchmoves e2e4 d2d4 g1f3");
    let firsts = check_reports(&Position::startpos(), &infos, &best, 3);
    let mut sorted = firsts.clone();
    sorted.sort();
    assert_eq!(sorted, ["d2d4", "e2e4", "g1f3"]);
    // One legal move (the king takes the checking queen), then two (the king in check
    // from the rook has two squares).
    let fen = "7k/8/8/8/8/8/6q1/7K w - - 0 1";
    let pos = Position::from_fen(fen).expect("valid");
    assert_eq!(legal_moves(&pos).len(), 1);
    engine.send(&format!("position fen {fen}"));
    let (infos, best) = search(&mut engine, "go depth 5");
    check_reports(&pos, &infos, &best, 1);
    let fen = "k7/8/8/8/8/8/8/K6r w - - 0 1";
    let pos = Position::from_fen(fen).expect("valid");
    assert_eq!(legal_moves(&pos).len(), 2);
    engine.send(&format!("position fen {fen}"));
    let (infos, best) = search(&mut engine, "go depth 5");
    check_reports(&pos, &infos, &best, legal_moves(&pos).len());
}

#[test]
fn multipv_finds_the_mate_first_and_scores_the_others() {
    let mut engine = rookling();
    engine.send("setoption name MultiPV value 3");
    // Mate in 2 by Nf6+ (Legal's mate); the other lines are real scores, below it.
    let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    let pos = Position::from_fen(fen).expect("valid");
    engine.send(&format!("position fen {fen}"));
    let (infos, best) = search(&mut engine, "go mate 2");
    check_reports(&pos, &infos, &best, 3);
    let last = last_report(&infos);
    assert_eq!(best, "d5f6");
    assert_eq!(last[0].score, 100_000 - 2);
    assert!(last[1].score < last[0].score);
}

#[test]
fn wdl_is_per_mille_and_agrees_with_the_score() {
    let mut engine = rookling();
    engine.send("setoption name UCI_ShowWDL value true");
    engine.send("setoption name MultiPV value 3");
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "8/8/4k3/8/8/3QK3/8/8 b - - 0 1",
        "7k/8/6K1/8/8/8/8/R7 w - - 0 1",
    ] {
        engine.send(&format!("position fen {fen}"));
        let (infos, _) = search(&mut engine, "go depth 7");
        assert!(!infos.is_empty());
        for info in &infos {
            let [w, d, l] = info.wdl.unwrap_or_else(|| panic!("no wdl: {info:?}"));
            assert_eq!(w + d + l, 1000, "{info:?}");
            if info.score > 0 {
                assert!(w >= l, "{info:?}");
            } else if info.score < 0 {
                assert!(w <= l, "{info:?}");
            } else {
                assert_eq!(w, l, "{info:?}");
            }
            if info.score >= 100_000 - 300 {
                assert_eq!(w, 1000, "a mate is a win: {info:?}");
            }
        }
    }
    engine.send("setoption name UCI_ShowWDL value false");
    let (infos, _) = search(&mut engine, "go depth 3");
    assert!(infos.iter().all(|i| i.wdl.is_none()));
}

#[test]
fn weakened_play_is_legal_fast_and_reports_the_move_it_plays() {
    let mut engine = rookling();
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"];
    let mut pos = Position::startpos();
    for m in moves {
        let mv = parse_move(&pos, m).expect("legal");
        pos.play(mv);
    }
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    for setting in [
        "setoption name Skill Level value 0",
        "setoption name Skill Level value 10",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1800",
        "setoption name UCI_Elo value 2200",
    ] {
        engine.send(setting);
        for _ in 0..3 {
            let start = std::time::Instant::now();
            let (infos, best) = search(&mut engine, "go wtime 60000 btime 60000");
            assert!(start.elapsed().as_secs() < 5, "{setting}: plays fast");
            assert!(parse_move(&pos, &best).is_ok(), "{setting}: {best}");
            let last = last_report(&infos);
            assert_eq!(last[0].pv[0], best, "{setting}: bestmove is line 1");
            assert!(
                infos.iter().all(|i| i.multipv == 1),
                "MultiPV 1 shows one line"
            );
        }
    }
}

#[test]
fn eval_prints_both_views_and_the_rule() {
    let mut engine = rookling();
    engine.send("position fen 8/8/8/3k4/8/8/8/2B1KN2 b - - 0 1");
    engine.send("eval");
    let lines = engine.sync();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].starts_with("Network evaluation: white "),
        "{lines:?}"
    );
    assert!(lines[1].starts_with("Endgame rule: KBNvK, white +"));
    let number = |line: &str, key: &str| -> i32 {
        let rest = &line[line.find(key).expect(key) + key.len()..];
        rest.split_whitespace()
            .next()
            .expect("n")
            .parse()
            .expect("cp")
    };
    let white = number(&lines[2], "white ");
    let stm = number(&lines[2], "side to move ");
    assert!(white > 900 && stm == -white, "{lines:?}");
    engine.send("position startpos");
    engine.send("eval");
    let lines = engine.sync();
    assert_eq!(lines[1], "Endgame rule: none");
    assert_eq!(number(&lines[0], "white "), number(&lines[2], "white "));
}
