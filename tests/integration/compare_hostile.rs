//! `rookling compare` against engines that misbehave on the protocol (the quirks of
//! `examples/buggy_perft`, and `yes`): every case ends in the right verdict or in one
//! line on stderr with exit status 2, within the timeout, and never in a wrong
//! agreement or unbounded memory.

use crate::common;

use common::buggy_engine;
use common::run::{self, Run, rookling_within};
use serde_json::Value;
use std::time::Duration;

const SEED_000: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

/// `compare --json` of the exact engine against `candidate`: the exit status and the
/// JSON object.
fn compare_json(candidate: &str, fen: &str, depth: &str) -> (Option<i32>, Value) {
    let reference = buggy_engine("none", "none");
    run::compare_json(&[
        "--depth",
        depth,
        "--fen",
        fen,
        "--reference",
        &reference,
        "--candidate",
        candidate,
    ])
}

/// Exit status 2 and one line on stderr naming `candidate`, containing `expected`.
fn fails_clearly(candidate: &str, expected: &str) -> Run {
    run::fails_clearly(&buggy_engine("none", "none"), candidate, expected)
}

/// Issue 11 defect 3: an engine that prints each answer twice. Each request is
/// synchronised, so the stale copy is never read as the next step's answer: the
/// drill-down finds seed 000's missing en passant capture, as with a clean engine.
#[test]
fn answers_printed_twice_do_not_shift_the_drill_down() {
    for quirk in ["twice", "readyok-twice"] {
        let (code, json) = compare_json(&buggy_engine("ep-in-check", quirk), SEED_000, "5");
        assert_eq!(code, Some(1), "{quirk}: {json}");
        assert_eq!(
            json["path"],
            serde_json::json!(["b4f4", "h4g5", "a5b4", "c7c5"])
        );
        assert_eq!(json["missing"], serde_json::json!(["b5c6"]), "{quirk}");
        assert_eq!(json["extra"], serde_json::json!([]), "{quirk}");
        assert_eq!(json["candidate_nodes"], 674_543, "{quirk}");
    }
    let (code, json) = compare_json(&buggy_engine("none", "twice"), SEED_000, "4");
    assert_eq!(code, Some(0), "{json}");
}

/// Issue 11 defect 13: `info` lines (1,500 before each divide), a 10 MB info line and
/// garbage lines between divide lines are skipped: the engines agree.
#[test]
fn info_chatter_and_noise_are_skipped() {
    for quirk in ["chatty", "huge-line", "noise"] {
        let (code, json) = compare_json(&buggy_engine("none", quirk), SEED_000, "3");
        assert_eq!(code, Some(0), "{quirk}: {json}");
        assert_eq!(json["agree"], true);
        assert_eq!(json["candidate_nodes"], 2_812);
    }
}

/// Issue 11 defect 12: `yes` as an engine, and an engine that floods `info` lines in
/// answer to `go perft`: the deadline holds while lines keep coming, and memory stays
/// bounded (it grew past 1.5 GB).
#[test]
fn flooding_engines_end_within_the_timeout_in_bounded_memory() {
    for (candidate, expected) in [
        (
            "yes".to_string(),
            "does not speak UCI: no 'uciok' within 2 s",
        ),
        (
            buggy_engine("none", "flood"),
            "did not finish answering 'go perft 3' within 2 s",
        ),
    ] {
        let run = fails_clearly(&candidate, expected);
        assert!(
            run.peak_rss_kb < 200_000,
            "{candidate}: {} kB resident",
            run.peak_rss_kb
        );
    }
}

/// A total that does not match the divide, a silent `isready`, an illegal move: an
/// error or a difference, never an agreement.
#[test]
fn inconsistent_answers_are_never_an_agreement() {
    fails_clearly(
        &buggy_engine("none", "bad-total"),
        "answered 'go perft 3' with a divide that adds up to 8902, not the 8903",
    );
    fails_clearly(
        &buggy_engine("none", "no-readyok"),
        "did not finish answering 'isready' within 2 s",
    );
    let (code, json) = compare_json(&buggy_engine("none", "illegal-move"), SEED_000, "3");
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(json["extra"], serde_json::json!(["h1h8"]));
    assert_eq!(json["path"], serde_json::json!([]));
}

/// Issue 11 defect 14: an engines file named with `--engines` must be readable and
/// valid even when no name from it is used (here the default engines are used).
#[test]
fn named_engines_file_must_be_readable() {
    let dir = std::env::temp_dir().join(format!("rookling-engines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{ not json").expect("written");
    let bad = bad.display().to_string();
    for (file, expected) in [
        ("/nonexistent.json", "cannot read /nonexistent.json"),
        (bad.as_str(), "is not a Cutechess engines list"),
    ] {
        for command in ["compare", "suite"] {
            let target = if command == "compare" {
                "--depth"
            } else {
                "tests/data/standard.epd"
            };
            let args = [command, target, "1", "--engines", file];
            let args = if command == "compare" {
                &args[..]
            } else {
                &[command, target, "--engines", file][..]
            };
            let run = rookling_within(args, Duration::from_secs(60));
            assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
            assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
            assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
