//! `rookling hunt` through the built binary: every bug planted in
//! `examples/buggy_perft` (run as a perftree script) is found, drilled down, shrunk and
//! tagged within a minute, and an exact engine passes.

use crate::common;

use common::perftree_script;
use common::run::{rookling_within, strings};
use rookling::board::Position;
use rookling::movegen::{legal_moves, play_moves};
use serde_json::Value;
use std::time::{Duration, Instant};

/// `hunt --json` of `candidate` with `args`: the exit status, the object and the time.
fn hunt(candidate: &str, args: &[&str]) -> (Option<i32>, Value, Duration) {
    let mut all = vec!["hunt", "--json", "--candidate", candidate];
    all.extend_from_slice(args);
    let start = Instant::now();
    let run = rookling_within(&all, Duration::from_secs(150));
    let json = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("one JSON object ({e}): {} / {}", run.stdout, run.stderr));
    (run.code, json, start.elapsed())
}

/// Each planted bug and the tags its difference may carry.
const BUGS: [(&str, &[&str]); 12] = [
    ("ep-in-check", &["en_passant"]),
    ("no-castling", &["castling", "chess960_castling"]),
    ("extra-castling", &["castling", "chess960_castling"]),
    ("no-knight-promotion", &["promotion_knight"]),
    ("no-underpromotion", &["promotion_knight"]),
    ("no-promotion-capture", &["promotion_knight"]),
    ("castling-rights-kept", &["castling", "chess960_castling"]),
    ("ep-rank-pin", &["en_passant"]),
    ("chess960-castling-occupied", &["chess960_castling"]),
    ("pinned-piece", &["pinned_piece"]),
    ("king-along-ray", &["king_onto_attacked_square"]),
    ("double-check", &["out_of_check"]),
];

/// The difference reported is real: from `root` along `path`, the missing moves are
/// legal and the extra ones are not.
fn check_difference(json: &Value) {
    let root = json["root"].as_str().expect("a root FEN");
    let mut pos = Position::from_fen(root).expect("valid root");
    play_moves(&mut pos, &strings(&json["path"])).expect("a legal path");
    assert_eq!(json["fen"], pos.to_fen());
    let chess960 = pos.is_chess960();
    let legal: Vec<String> = legal_moves(&pos)
        .iter()
        .map(|m| m.to_uci(chess960))
        .collect();
    let (missing, extra) = (strings(&json["missing"]), strings(&json["extra"]));
    assert!(!missing.is_empty() || !extra.is_empty(), "{json}");
    for mv in &missing {
        assert!(legal.contains(mv), "missing {mv} is legal: {json}");
    }
    for mv in &extra {
        assert!(!legal.contains(mv), "extra {mv} is illegal: {json}");
    }
}

#[test]
fn finds_every_planted_bug_within_a_minute() {
    for (bug, tags) in BUGS {
        let (code, json, took) = hunt(&perftree_script(bug, "none"), &["--seed", "1"]);
        assert_eq!(code, Some(1), "{bug}: {json}");
        assert_eq!(json["agree"], false, "{bug}");
        let tag = json["tag"].as_str().expect("a tag");
        assert!(tags.contains(&tag), "{bug}: tag {tag} in {json}");
        check_difference(&json);
        let keys: Vec<&String> = json.as_object().expect("an object").keys().collect();
        assert_eq!(keys.len(), 10, "{keys:?}");
        assert!(took < Duration::from_secs(60), "{bug}: {took:?}");
        println!("{bug}: {tag} in {:.1} s", took.as_secs_f64());
    }
}

/// Another seed finds them too (the positions do not depend on one lucky seed).
#[test]
fn other_seeds_find_the_stateful_and_chess960_bugs() {
    for seed in ["7", "2024"] {
        for bug in [
            "castling-rights-kept",
            "chess960-castling-occupied",
            "ep-rank-pin",
        ] {
            let (code, json, took) = hunt(&perftree_script(bug, "none"), &["--seed", seed]);
            assert_eq!(code, Some(1), "{bug} seed {seed}: {json}");
            check_difference(&json);
            assert!(
                took < Duration::from_secs(60),
                "{bug} seed {seed}: {took:?}"
            );
        }
    }
}

/// Castling rights kept after their rook was taken need the capture played: the shrunk
/// path keeps it.
#[test]
fn a_stateful_bug_keeps_its_path() {
    let (code, json, _) = hunt(
        &perftree_script("castling-rights-kept", "none"),
        &["--seed", "1"],
    );
    assert_eq!(code, Some(1), "{json}");
    assert!(!strings(&json["path"]).is_empty(), "{json}");
}

#[test]
fn an_exact_engine_passes() {
    let (code, json, _) = hunt(
        &perftree_script("none", "none"),
        &["--seed", "5", "--positions", "150"],
    );
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(json["agree"], true);
    assert_eq!(json["tag"], Value::Null);
    // Over UCI too, and the text report says so.
    let run = rookling_within(
        &[
            "hunt",
            "--candidate",
            &common::buggy_engine("none", "none"),
            "--positions",
            "60",
            "--seed",
            "9",
        ],
        Duration::from_secs(120),
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("No difference: 60 positions"),
        "{}",
        run.stdout
    );
}

/// The text report: the seed, the failing position drawn with its moves marked, and a
/// compare command that shows it again.
#[test]
fn text_report() {
    let run = rookling_within(
        &[
            "hunt",
            "--candidate",
            &common::buggy_engine("ep-in-check", "none"),
            "--seed",
            "3",
        ],
        Duration::from_secs(120),
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    for expected in [
        "seed 3: position ",
        "Verdict: the engines differ",
        "tag:     en passant",
        " +---+---+---+---+---+---+---+---+",
        "[ ]",
        "again: rookling compare --depth ",
    ] {
        assert!(
            run.stdout.contains(expected),
            "'{expected}' in:\n{}",
            run.stdout
        );
    }
}

#[test]
fn a_failing_candidate_is_an_error() {
    let run = rookling_within(
        &[
            "hunt",
            "--candidate",
            &perftree_script("crash", "none"),
            "--seconds",
            "5",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("planted crash"), "{}", run.stderr);
}
