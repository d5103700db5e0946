//! `rookling compare` run as a user runs it, against Stockfish and against
//! `examples/buggy_perft` (a UCI perft engine with planted bugs).

use crate::common;

use common::run::{rookling, strings};

use rookling::board::{MoveKind, Position};
use rookling::movegen::legal_moves;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const SEED_000: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

/// The buggy engine's command line with `bug`.
fn engine(bug: &str) -> String {
    common::buggy_engine(bug, "none")
}

/// Rookling itself (the default candidate, speaking UCI) against Stockfish (the
/// default reference when it is on PATH; here given explicitly).
fn rookling_vs_stockfish(fen: &str, depth: &str, nodes: u64) {
    let stockfish = common::stockfish();
    let stockfish = stockfish.display().to_string();
    let (code, json) =
        common::run::compare_json(&["--depth", depth, "--fen", fen, "--reference", &stockfish]);
    assert_eq!(code, Some(0), "{fen}: {json}");
    assert_eq!(json["agree"], true);
    assert_eq!(json["reference_nodes"], nodes);
    assert_eq!(json["candidate_nodes"], nodes);
    assert_eq!(json["path"], serde_json::json!([]));
}

#[test]
#[cfg_attr(
    not(has_stockfish),
    ignore = "needs stockfish (apt-get install stockfish)"
)]
fn kiwipete_depth_4_agrees_with_stockfish() {
    rookling_vs_stockfish(KIWIPETE, "4", 4_085_603);
}

#[test]
#[cfg_attr(
    not(has_stockfish),
    ignore = "needs stockfish (apt-get install stockfish)"
)]
fn hard_positions_agree_with_stockfish() {
    for (fen, depth, nodes) in [
        (SEED_000, "5", 674_624),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "4",
            422_333,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "3",
            62_379,
        ),
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "4",
            326_672,
        ),
    ] {
        rookling_vs_stockfish(fen, depth, nodes);
    }
}

/// Seed 000: the en passant capture out of check, dropped by the candidate, is found
/// at the end of the drill-down.
#[test]
#[cfg_attr(
    not(has_stockfish),
    ignore = "needs stockfish (apt-get install stockfish)"
)]
fn en_passant_in_check_bug_is_caught_like_seed_000() {
    let stockfish = common::stockfish();
    let stockfish = stockfish.display().to_string();
    let candidate = engine("ep-in-check");
    let args = [
        "--depth",
        "5",
        "--fen",
        SEED_000,
        "--reference",
        &stockfish,
        "--candidate",
        &candidate,
    ];
    let (code, json) = common::run::compare_json(&args);
    assert_eq!(code, Some(1), "{json}");
    let keys: Vec<&String> = json.as_object().expect("an object").keys().collect();
    let mut expected_keys = [
        "agree",
        "depth",
        "path",
        "fen",
        "missing",
        "extra",
        "reference_nodes",
        "candidate_nodes",
    ];
    expected_keys.sort_unstable();
    assert_eq!(keys, expected_keys);
    assert_eq!(json["agree"], false);
    assert_eq!(json["depth"], 5);
    assert_eq!(json["reference_nodes"], 674_624);
    assert_eq!(json["candidate_nodes"], 674_543);
    assert_eq!(strings(&json["path"]), ["b4f4", "h4g5", "a5b4", "c7c5"]);
    let fen = json["fen"].as_str().expect("a FEN");
    assert_eq!(fen, "8/8/3p4/1Pp3kr/1K3R2/8/4P1P1/8 w - c6 0 3");
    let leaf = Position::from_fen(fen).expect("valid FEN");
    assert!(leaf.in_check());
    let en_passant: Vec<String> = legal_moves(&leaf)
        .iter()
        .filter(|m| m.kind() == MoveKind::EnPassant)
        .map(|m| m.to_uci(false))
        .collect();
    assert_eq!(strings(&json["missing"]), en_passant);
    assert_eq!(json["extra"], serde_json::json!([]));

    // The human report walks the same path step by step.
    let mut human = vec!["compare", "--timeout", "20"];
    human.extend_from_slice(&args);
    let out = rookling(&human);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "Step 1: perft 5 at the root",
        "b4f4: 10776 vs 10774",
        "-> b4f4, the smallest subtree that differs",
        "Step 5: perft 1 after b4f4 h4g5 a5b4 c7c5",
        "position: 8/8/3p4/1Pp3kr/1K3R2/8/4P1P1/8 w - c6 0 3 (in check)",
        "missing in candidate: b5c6",
        "Verdict: the engines differ: 674624 (reference) vs 674543 (candidate)",
    ] {
        assert!(text.contains(expected), "'{expected}' in:\n{text}");
    }
}

/// An engine that castles out of check: the extra moves are the castling moves.
#[test]
fn extra_castling_is_caught() {
    let reference = engine("none");
    let candidate = engine("extra-castling");
    let (code, json) = common::run::compare_json(&[
        "--depth",
        "4",
        "--fen",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "--reference",
        &reference,
        "--candidate",
        &candidate,
    ]);
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(strings(&json["path"]), ["a1a7", "h8f8", "a7e7"]);
    assert_eq!(json["fen"], "r3kr2/4R3/8/8/8/8/8/4K2R b Kq - 3 2");
    assert_eq!(strings(&json["extra"]), ["e8c8"]);
    assert_eq!(json["missing"], serde_json::json!([]));
    assert_eq!(json["reference_nodes"], 314_346);

    // Kiwipete: both castling moves out of a bishop check.
    let (code, json) = common::run::compare_json(&[
        "--depth",
        "4",
        "--fen",
        KIWIPETE,
        "--reference",
        &reference,
        "--candidate",
        &candidate,
    ]);
    assert_eq!(code, Some(1), "{json}");
    let fen = json["fen"].as_str().expect("a FEN");
    assert!(Position::from_fen(fen).expect("valid FEN").in_check());
    assert_eq!(strings(&json["extra"]), ["e8c8", "e8g8"]);
}

/// Chess960: UCI_Chess960 on both engines, castling compared as king-takes-rook.
#[test]
fn chess960_missing_castling_in_king_takes_rook_notation() {
    let reference = engine("none");
    let candidate = engine("no-castling");
    let (code, json) = common::run::compare_json(&[
        "--depth",
        "4",
        "--fen",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "--reference",
        &reference,
        "--candidate",
        &candidate,
    ]);
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(json["reference_nodes"], 326_672);
    assert_eq!(strings(&json["missing"]), ["g8h8"]);
    assert_eq!(
        json["fen"],
        "bqnbr1kr/pp3ppp/3ppn2/2p5/2P2P2/P2P4/1P2P1PP/BQNBNRKR b HFh - 0 10"
    );
}

/// A difference in the root's move list: the path is empty.
#[test]
fn missing_knight_promotions_at_the_root() {
    let reference = engine("none");
    let candidate = engine("no-knight-promotion");
    let (code, json) = common::run::compare_json(&[
        "--depth",
        "2",
        "--fen",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
        "--reference",
        &reference,
        "--candidate",
        &candidate,
    ]);
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(json["path"], serde_json::json!([]));
    assert_eq!(strings(&json["missing"]), ["b7a8n", "b7b8n", "b7c8n"]);
}

/// Engines named in a Cutechess engines file; --moves before the root.
#[test]
fn engines_file_and_moves() {
    let dir = std::env::temp_dir().join(format!("rookling-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("engines.json");
    let list = serde_json::json!([
        {"name": "good", "command": engine("none"), "workingDirectory": "", "protocol": "uci"},
        {"name": "no castling", "command": engine("no-castling"), "protocol": "uci"}
    ]);
    std::fs::write(&file, list.to_string()).expect("written");
    let file = file.display().to_string();
    let (code, json) = common::run::compare_json(&[
        "--depth",
        "3",
        "--moves",
        "e2e4",
        "e7e5",
        "g1f3",
        "b8c6",
        "f1c4",
        "g8f6",
        "--engines",
        &file,
        "--reference",
        "good",
        "--candidate",
        "no castling",
    ]);
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(strings(&json["missing"]), ["e1g1"]);
    assert_eq!(json["path"], serde_json::json!([]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Exit status 2 and one line on stderr naming the engine and what it did, within
/// the timeout.
fn fails_clearly(candidate: &str, expected: &str) {
    common::run::fails_clearly(&engine("none"), candidate, expected);
}

#[test]
fn crashing_engine() {
    fails_clearly(&engine("crash"), "died while answering 'go perft 3'");
}

#[test]
fn hanging_engine() {
    fails_clearly(
        &engine("hang"),
        "did not finish answering 'go perft 3' within 2 s",
    );
}

#[test]
fn garbage_engine() {
    fails_clearly(
        &engine("garbage"),
        "answered 'go perft 3' with 'e2e4: lots'",
    );
}

#[test]
fn not_an_engine() {
    fails_clearly("cat", "does not speak UCI");
    fails_clearly("true", "died while answering 'uci'");
    fails_clearly(
        "echo hello",
        "does not speak UCI: it exited (exit status: 0) without 'uciok', it printed 'hello'",
    );
    fails_clearly("sleep 30", "did not finish answering 'uci' within 2 s");
}

#[test]
fn missing_engine() {
    let reference = engine("none");
    let out = rookling(&[
        "compare",
        "--depth",
        "1",
        "--reference",
        &reference,
        "--candidate",
        "no-such-engine-here",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("engine 'no-such-engine-here' not found"),
        "{stderr}"
    );
}
