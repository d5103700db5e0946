//! `rookling perft DEPTH --stats` through the built binary, against the figures of
//! `shared/perft/stats.md` (the chessprogramming wiki's table for the start position).

use std::process::Command;

/// The breakdown rows `perft --stats` prints after the divide: label and count.
fn stats(args: &[&str]) -> Vec<(String, u64)> {
    let out = Command::new(env!("CARGO_BIN_EXE_rookling"))
        .arg("perft")
        .args(args)
        .arg("--stats")
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (divide, table) = text.split_once("\n\n").expect("divide, then the total");
    assert!(divide.lines().all(|l| l.contains(": ")), "{divide}");
    let (total, table) = table.split_once("\n\n").expect("total, then the table");
    assert!(total.starts_with("Nodes searched: "), "{total}");
    table
        .lines()
        .map(|line| {
            let (label, count) = line.rsplit_once(' ').expect("label and count");
            (label.trim().to_string(), count.parse().expect("a count"))
        })
        .collect()
}

fn expected(counts: [u64; 9]) -> Vec<(String, u64)> {
    let labels = [
        "nodes",
        "captures",
        "en passant",
        "castles",
        "promotions",
        "checks",
        "discovered checks",
        "double checks",
        "checkmates",
    ];
    labels.iter().map(|l| l.to_string()).zip(counts).collect()
}

#[test]
fn start_position_depth_5() {
    assert_eq!(
        stats(&["5"]),
        expected([4_865_609, 82_719, 258, 0, 0, 27_351, 6, 0, 347])
    );
}

#[test]
fn kiwipete_depth_4() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(
        stats(&["4", "--fen", fen]),
        expected([
            4_085_603, 757_163, 1_929, 128_013, 15_172, 25_523, 42, 6, 43
        ])
    );
}

/// Chess960 castling (king-takes-rook) is a castle, and a rook check from it is direct;
/// figures from python-chess.
#[test]
fn chess960_position_depth_3() {
    let fen = "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9";
    assert_eq!(
        stats(&["3", "--fen", fen]),
        expected([10_471, 235, 1, 455, 0, 22, 0, 0, 0])
    );
}

// The fast walk against the definition (`reference`: every last-ply move made), on every
// position of the suites in tests/data/, on positions reached from them by play (not in
// the repository), and with threads and hash tables.

use proptest::prelude::*;
use rookling::board::Position;
use rookling::movegen::legal_moves;
use rookling::perft::PerftOptions;
use rookling::perft::epd::parse_epd;
use rookling::perft::stats::{Stats, divide_with, reference, stats as fast, stats_with};
use std::sync::atomic::AtomicBool;

/// Threads and table sizes: 2 threads; a 16 MB table; both; a 1 MB table that fills at
/// once (replacement, threads overwriting each other's entries); and 4 threads.
const MODES: [(usize, usize); 5] = [(2, 0), (1, 16), (2, 16), (2, 1), (4, 1)];

/// The positions of a suite file with their perft counts.
fn suite(path: &str) -> Vec<(Position, Vec<(u32, u128)>)> {
    let text = std::fs::read_to_string(path).expect("suite file is in the repository");
    let entries = parse_epd(&text).unwrap_or_else(|e| panic!("{}", e.at(path)));
    entries
        .into_iter()
        .map(|e| (e.position, e.counts))
        .collect()
}

/// The position after following `choices` (each picks one legal move) from `pos`.
fn play(pos: &Position, choices: &[usize]) -> Position {
    let mut pos = pos.clone();
    for &choice in choices {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        pos.play(moves[choice % moves.len()]);
    }
    pos
}

/// The deepest depth whose perft, as `counts` give it, is at most `budget` (at least 1).
fn depth_within(counts: &[(u32, u128)], budget: u128) -> u32 {
    counts
        .iter()
        .filter(|&&(_, n)| n <= budget)
        .map(|&(d, _)| d)
        .max()
        .unwrap_or(1)
}

/// The fast walk agrees with the definition, and with the suite's node count.
fn check_against_reference(path: &str, budget: u128) -> usize {
    let mut checked = 0;
    for (pos, counts) in suite(path) {
        let depth = depth_within(&counts, budget);
        let fast = fast(&pos, depth);
        assert_eq!(
            fast,
            reference::stats(&pos, depth),
            "{} depth {depth}",
            pos.to_fen()
        );
        if let Some(&(_, nodes)) = counts.iter().find(|&&(d, _)| d == depth) {
            assert_eq!(fast.nodes, nodes, "{} depth {depth}", pos.to_fen());
        }
        checked += 1;
    }
    checked
}

#[test]
fn fast_walk_is_the_definition_on_the_standard_suite() {
    assert_eq!(
        check_against_reference("tests/data/standard.epd", 400_000),
        128
    );
}

#[test]
fn fast_walk_is_the_definition_on_the_fischer_suite() {
    assert_eq!(
        check_against_reference("tests/data/fischer.epd", 15_000),
        960
    );
}

/// Every mode gives the single-thread breakdown, divide included, on a sample of both
/// suites.
#[test]
fn every_mode_gives_the_same_breakdown() {
    let never = AtomicBool::new(false);
    let mut positions = suite("tests/data/standard.epd");
    positions.extend(suite("tests/data/fischer.epd").into_iter().step_by(40));
    for (pos, counts) in positions {
        let depth = depth_within(&counts, 300_000);
        let one = divide_with(&pos, depth, &PerftOptions::default(), &never);
        let one = one.expect("not stopped");
        for (threads, hash_mb) in MODES {
            let options = PerftOptions { threads, hash_mb };
            let fen = pos.to_fen();
            let got = divide_with(&pos, depth, &options, &never);
            assert_eq!(
                got.as_ref(),
                Some(&one),
                "{fen} {depth}: {threads}t {hash_mb} MB"
            );
        }
    }
}

/// Deeper with a table that is reused many times: Kiwipete 5 (193,690,690 nodes) would be
/// slow, so position 3 at depth 6 (11,030,083 nodes), in every mode, against the
/// published figures.
#[test]
fn position_3_depth_6_in_every_mode() {
    let pos = Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").expect("FEN");
    let published = [
        11_030_083, 940_350, 33_325, 0, 7_552, 452_473, 26_067, 0, 2_733,
    ];
    let never = AtomicBool::new(false);
    let want: Stats = fast(&pos, 6);
    assert_eq!(want.classic_counts(), published);
    for (threads, hash_mb) in MODES {
        let options = PerftOptions { threads, hash_mb };
        assert_eq!(
            stats_with(&pos, 6, &options, &never),
            Some(want),
            "{threads}t {hash_mb} MB"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Positions reached by play from the suites' positions (so not in the repository):
    /// the fast walk is the definition, and threads and tables change nothing.
    #[test]
    fn positions_reached_by_play(
        start in 0usize..1088,
        choices in proptest::collection::vec(0usize..256, 0..12),
        depth in 1u32..=3,
    ) {
        let mut starts = suite("tests/data/standard.epd");
        starts.extend(suite("tests/data/fischer.epd"));
        let pos = play(&starts[start % starts.len()].0, &choices);
        let fast = fast(&pos, depth);
        prop_assert_eq!(fast, reference::stats(&pos, depth), "{}", pos.to_fen());
        let never = AtomicBool::new(false);
        for (threads, hash_mb) in [(2, 1), (1, 1)] {
            let options = PerftOptions { threads, hash_mb };
            prop_assert_eq!(stats_with(&pos, depth, &options, &never), Some(fast));
        }
    }
}

/// `go perft N stats` over UCI: the same divide and total as `go perft N`, then one
/// `info string perft stats:` line with the breakdown; a GUI that ignores `info` lines
/// sees Stockfish's output.
#[test]
fn uci_go_perft_stats() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_rookling"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut answer = |input: &mut std::process::ChildStdin, command: &str, last: &str| {
        writeln!(input, "{command}").expect("command sent");
        let mut got = Vec::new();
        for line in lines.by_ref() {
            let line = line.expect("a line");
            let done = line.starts_with(last);
            got.push(line);
            if done {
                break;
            }
        }
        got
    };
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    writeln!(input, "position fen {kiwipete}").expect("command sent");
    let plain = answer(&mut input, "go perft 3", "Nodes searched");
    // From the blank line that ends the first answer to the info line.
    let mut stats = answer(&mut input, "go perft 3 stats", "info string perft stats");
    let info = stats.pop().unwrap_or_default();
    assert_eq!(stats.first().map(String::as_str), Some(""), "{stats:?}");
    assert_eq!(stats.last().map(String::as_str), Some(""), "{stats:?}");
    assert_eq!(&stats[1..stats.len() - 1], &plain[..]);
    assert_eq!(
        info,
        "info string perft stats: nodes 97862, captures 17102, en passant 45, castles 3162, \
         promotions 0, checks 993, discovered checks 0, double checks 0, checkmates 1"
    );
    // The Grand Chess Tree's columns: the same divide, its figures for Kiwipete depth 3.
    let mut gct = answer(
        &mut input,
        "go perft 3 stats gct",
        "info string perft stats",
    );
    let info = gct.pop().unwrap_or_default();
    assert_eq!(gct.pop().as_deref(), Some(""));
    assert_eq!(gct, plain);
    assert_eq!(
        info,
        "info string perft stats: nodes 97862, captures 17102, en passant 45, castles 3162, \
         promotions 0, direct checks 992, single discovered checks 0, direct discovered \
         checks 0, double discovered checks 0, total checks 992, direct mates 1, single \
         discovered mates 0, direct discovered mates 0, double discovered mates 0, total \
         mates 1"
    );
    // A word after `stats` that names no columns is refused, and the engine goes on.
    let refused = answer(&mut input, "go perft 1 stats wiki", "info string");
    assert_eq!(
        refused.last().map(String::as_str),
        Some(
            "info string error: go perft: unknown statistics columns 'wiki': expected 'classic' or 'gct'"
        )
    );
    writeln!(input, "quit").expect("command sent");
    drop(input);
    assert!(child.wait().expect("the engine ends").success());
}
