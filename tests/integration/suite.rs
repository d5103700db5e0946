//! `rookling suite` through the built binary: a small suite with one deliberately wrong
//! count, the reference-engine mode, and the errors that name the file and line.

use crate::common;

use common::run::{rookling, stdout};

use serde_json::Value;

const ONE_WRONG: &str = "tests/data/one_wrong_count.epd";

#[test]
fn wrong_count_is_listed_with_a_compare_command() {
    let out = rookling(&["suite", ONE_WRONG, "--max-nodes", "1000000"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = stdout(&out);
    for expected in [
        "tests/data/one_wrong_count.epd: 4 positions, 16 perft runs checked against the file",
        "failures: 1",
        "line 4: r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "depth 3: expected 97863, got 97862",
        "drill down: rookling compare --depth 3 --fen \
         'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'",
    ] {
        assert!(text.contains(expected), "'{expected}' in:\n{text}");
    }
    assert!(text.contains("nodes: 1366841 in"), "{text}");
}

#[test]
fn json_summary() {
    let out = rookling(&["suite", ONE_WRONG, "--depth", "2", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let json: Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    assert_eq!(json["positions"], 4);
    assert_eq!(json["runs"], 8);
    assert_eq!(json["nodes"], 20 + 400 + 48 + 2039 + 14 + 191 + 21 + 528);
    assert_eq!(json["failures"], serde_json::json!([]));

    let out = rookling(&["suite", ONE_WRONG, "--max-nodes", "100000", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let json: Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    let failures = json["failures"].as_array().expect("a list");
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0]["line"], 4);
    assert_eq!(failures[0]["depth"], 3);
    assert_eq!(failures[0]["expected"], 97_863);
    assert_eq!(failures[0]["actual"], 97_862);
}

/// With --reference the file's counts are not used: Stockfish is right where the file
/// is wrong.
#[test]
#[cfg_attr(
    not(has_stockfish),
    ignore = "needs stockfish (apt-get install stockfish)"
)]
fn reference_engine_gives_the_expected_counts() {
    let stockfish = common::stockfish();
    let stockfish = stockfish.display().to_string();
    let out = rookling(&[
        "suite",
        ONE_WRONG,
        "--depth",
        "3",
        "--reference",
        &stockfish,
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = stdout(&out);
    assert!(
        text.contains("4 positions, 12 perft runs checked against the reference engine"),
        "{text}"
    );
    assert!(text.contains("failures: 0"), "{text}");
}

#[test]
fn unreadable_file_and_bad_line() {
    let out = rookling(&["suite", "tests/data/no-such-suite.epd"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot read tests/data/no-such-suite.epd"),
        "{stderr}"
    );

    let dir = std::env::temp_dir().join(format!("rookling-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("bad.epd");
    let text = "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 x\n";
    std::fs::write(&file, text).expect("written");
    let name = file.display().to_string();
    let out = rookling(&["suite", &name]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("{name}:3: 'D1 x'")), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `rookling suite` on `text` written to a temporary file: (status, stderr, the
/// file's name).
fn suite_on(name: &str, text: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let dir = std::env::temp_dir().join(format!("rookling-suite-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("{name}.epd"));
    std::fs::write(&file, text).expect("written");
    let path = file.display().to_string();
    let mut all = vec!["suite", path.as_str()];
    all.extend_from_slice(args);
    let out = rookling(&all);
    let _ = std::fs::remove_dir_all(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), stderr, path)
}

#[test]
fn a_suite_that_checks_nothing_is_an_error() {
    for (name, text) in [
        ("empty", ""),
        ("blank", "\n  \r\n\t\n"),
        ("comments", "# a suite\n\n# nothing else\r\n"),
    ] {
        let (status, stderr, path) = suite_on(name, text, &[]);
        assert_eq!(status, Some(2), "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("{path}: no positions")),
            "{stderr}"
        );
    }
    // Every count above the budget, or deeper than --depth: nothing would be verified.
    let text = "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D2 66 ;D3 1197\n";
    for args in [&["--max-nodes", "10"][..], &["--depth", "1"][..]] {
        let (status, stderr, _) = suite_on("budget", text, args);
        assert_eq!(status, Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("no count checked"), "{stderr}");
    }
}

#[test]
fn two_counts_for_one_depth_are_an_error() {
    let text = "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n\
                4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;d1 16\n";
    let (status, stderr, path) = suite_on("twice", text, &[]);
    assert_eq!(status, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(&format!("{path}:2: ")), "{stderr}");
    assert!(stderr.contains("depth 1"), "{stderr}");
}

/// `--candidate`: another engine's counts checked, each wrong count drilled down against
/// the built-in reference to the failing position and move, failures grouped by the
/// kind of that move.
#[test]
fn candidate_failures_are_drilled_down_and_grouped() {
    let candidate = common::perftree_script("no-underpromotion", "none");
    let args = [
        "suite",
        "tests/data/standard.epd",
        "--max-nodes",
        "3000",
        "--candidate",
        &candidate,
    ];
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let out = rookling(&json_args);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let json: Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    let failures = json["failures"].as_array().expect("a list");
    assert!(!failures.is_empty());
    let drilled: Vec<&Value> = failures.iter().filter(|f| f["tag"].is_string()).collect();
    assert!(!drilled.is_empty(), "{json}");
    for f in &drilled {
        assert_eq!(f["tag"], "promotion_knight", "{f}");
        let missing = f["missing"].as_array().expect("missing moves");
        assert!(!missing.is_empty(), "{f}");
        for mv in missing {
            let mv = mv.as_str().expect("a move");
            assert!(["n", "b", "r"].iter().any(|p| mv.ends_with(p)), "{mv}");
        }
        let compare = f["compare"].as_str().expect("a command");
        assert!(
            compare.contains("--reference rookling --candidate "),
            "{compare}"
        );
    }
    let groups = json["groups"].as_array().expect("groups");
    assert_eq!(groups[0]["tag"], "promotion_knight", "{json}");

    let out = rookling(&args);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    for expected in [
        "candidate: ",
        "(perftree script)",
        "== promotion to a knight: ",
        "  also wrong: depth 2 (expected ",
        "  Verdict: the engines differ",
        "  tag:     promotion to a knight",
        "   +---+---+---+---+---+---+---+---+",
    ] {
        assert!(text.contains(expected), "'{expected}' in:\n{text}");
    }
}

/// An exact candidate on a suite with a wrong count: the drill-down finds every move
/// the same, and says the expected count is in doubt.
#[test]
fn a_wrong_count_in_the_file_is_not_blamed_on_the_candidate() {
    let candidate = common::buggy_engine("none", "none");
    let out = rookling(&[
        "suite",
        ONE_WRONG,
        "--max-nodes",
        "100000",
        "--candidate",
        &candidate,
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = stdout(&out);
    assert!(
        text.contains("depth 3: expected 97863, got 97862"),
        "{text}"
    );
    assert!(text.contains("is the expected count right?"), "{text}");
}
