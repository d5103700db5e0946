//! perftree scripts as engines (`perftree:COMMAND`) and the built-in reference
//! (`--reference rookling`), through the built binary: `examples/buggy_perft
//! --perftree` answers as a perftree script does, with its planted bugs.

use crate::common;

use common::run::{self, rookling_within};
use common::{buggy_engine, perftree_script};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const SEED_000: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn compare(depth: &str, fen: &str, reference: &str, candidate: &str) -> (Option<i32>, Value) {
    run::compare_json(&[
        "--depth",
        depth,
        "--fen",
        fen,
        "--reference",
        reference,
        "--candidate",
        candidate,
    ])
}

/// Seed 000's bug in a perftree script, against the built-in reference: the same path
/// and missing move as against Stockfish.
#[test]
fn seed_000_bug_in_a_script_against_the_builtin_reference() {
    let (code, json) = compare(
        "5",
        SEED_000,
        "rookling",
        &perftree_script("ep-in-check", "none"),
    );
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(json["path"], json!(["b4f4", "h4g5", "a5b4", "c7c5"]));
    assert_eq!(json["missing"], json!(["b5c6"]));
    assert_eq!(json["extra"], json!([]));
    assert_eq!(json["reference_nodes"], 674_624);
    assert_eq!(json["candidate_nodes"], 674_543);
    assert_eq!(json["fen"], "8/8/3p4/1Pp3kr/1K3R2/8/4P1P1/8 w - c6 0 3");
}

/// With no `--reference` and no Stockfish on `PATH` (even one in `/usr/games`, which
/// only `--reference stockfish` reaches), `compare` uses the built-in reference, says
/// so, and still finds seed 000's bug in a UCI engine: the same path and move as
/// against Stockfish.
#[test]
fn no_stockfish_on_path_means_the_builtin_reference() {
    let empty = std::env::temp_dir().join(format!("rookling-no-path-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("temp dir");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rookling"))
        .args(["compare", "--depth", "5", "--fen", SEED_000, "--candidate"])
        .arg(buggy_engine("ep-in-check", "none"))
        .env("PATH", &empty)
        .output()
        .expect("the binary runs");
    let _ = std::fs::remove_dir_all(&empty);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.starts_with("reference: rookling (built-in: this program's generator)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Verdict: the engines differ: 674624 (reference) vs 674543 (candidate)"),
        "{stdout}"
    );
    assert!(stdout.contains("  missing: b5c6\n"), "{stdout}");
    assert!(stdout.contains("  tag:     en passant\n"), "{stdout}");
}

/// A script may be the reference too; an exact script agrees with an exact UCI engine,
/// and the built-in reference names itself on the `reference:` line.
#[test]
fn scripts_uci_engines_and_the_builtin_reference_agree() {
    let (code, json) = compare(
        "3",
        KIWIPETE,
        &perftree_script("none", "none"),
        &buggy_engine("none", "none"),
    );
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(json["reference_nodes"], 97_862);
    let out = rookling_within(
        &[
            "compare",
            "--depth",
            "2",
            "--reference",
            "rookling",
            "--candidate",
            &perftree_script("none", "none"),
        ],
        Duration::from_secs(60),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout
            .starts_with("reference: rookling (built-in: this program's generator)\n"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("(perftree script)"), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("Verdict: the engines agree: 400 nodes at depth 2."),
        "{}",
        out.stdout
    );
}

/// Chess960 through a script: castling in king-takes-rook notation, as the FEN's
/// Shredder letters ask.
#[test]
fn chess960_castling_in_a_script() {
    let (code, json) = compare(
        "4",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "rookling",
        &perftree_script("no-castling", "none"),
    );
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(json["reference_nodes"], 326_672);
    assert_eq!(json["missing"], json!(["g8h8"]));
}

/// Each way a script fails is one line on stderr and exit status 2, within the timeout.
#[test]
fn failing_scripts_are_one_clear_line() {
    let cases = [
        (perftree_script("crash", "none"), "exit status: 101"),
        (perftree_script("hang", "none"), "did not finish"),
        (
            perftree_script("garbage", "none"),
            "line 1 'e2e4: lots', which is not 'MOVE COUNT'",
        ),
        (
            perftree_script("none", "bad-total"),
            "a divide that adds up to 8902, not the 8903 nodes it reported",
        ),
        (
            "perftree:echo hello".to_string(),
            "line 1 'hello 3 rnbqkbnr",
        ),
        ("perftree:false".to_string(), "exit status: 1"),
    ];
    for (candidate, expected) in cases {
        let start = Instant::now();
        let out = run::fails_clearly("rookling", &candidate, expected);
        assert!(start.elapsed() < Duration::from_secs(30), "{candidate}");
        if candidate.contains("crash") {
            assert!(
                out.stderr.contains("on stderr: 'planted crash"),
                "{}",
                out.stderr
            );
            assert!(out.stderr.contains("planted crash"), "{}", out.stderr);
        }
        // The message names the exact command line, ready to be run by hand.
        if candidate.contains("buggy_perft") {
            assert!(out.stderr.contains("--perftree 3 '"), "{}", out.stderr);
        }
    }
    let out = rookling_within(
        &[
            "compare",
            "--depth",
            "1",
            "--reference",
            "rookling",
            "--candidate",
            "perftree:./no/such/script",
        ],
        Duration::from_secs(30),
    );
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("no program './no/such/script'"),
        "{}",
        out.stderr
    );
}

/// In an engines file, a script is named by its `perftree:` command or by
/// `"protocol": "perftree"`; `suite --reference` takes a script too.
#[test]
fn scripts_in_an_engines_file_and_as_suite_reference() {
    let dir = std::env::temp_dir().join(format!("rookling-perftree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("engines.json");
    let exe = common::buggy_perft().display().to_string();
    let list = json!([
        {"name": "exact script", "command": format!("{exe} --perftree"), "protocol": "perftree"},
        {"name": "no castling", "command": format!("perftree:{exe} --bug no-castling --perftree")}
    ]);
    std::fs::write(&file, list.to_string()).expect("written");
    let file = file.display().to_string();
    let (code, json) = run::compare_json(&[
        "--depth",
        "3",
        "--fen",
        KIWIPETE,
        "--engines",
        &file,
        "--reference",
        "exact script",
        "--candidate",
        "no castling",
    ]);
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(json["missing"], json!(["e1c1", "e1g1"]));
    assert_eq!(json["path"], json!([]));
    let out = rookling_within(
        &[
            "suite",
            "tests/data/one_wrong_count.epd",
            "--depth",
            "3",
            "--engines",
            &file,
            "--reference",
            "exact script",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(out.code, Some(0), "{} {}", out.stdout, out.stderr);
    assert!(out.stdout.contains("failures: 0"), "{}", out.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The text verdict draws the failing position, the missing move marked, and tags it.
#[test]
fn text_verdict_draws_the_failing_position() {
    let out = rookling_within(
        &[
            "compare",
            "--depth",
            "5",
            "--fen",
            SEED_000,
            "--reference",
            "rookling",
            "--candidate",
            &perftree_script("ep-in-check", "none"),
        ],
        Duration::from_secs(120),
    );
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    for expected in [
        "  missing: b5c6\n",
        "  tag:     en passant\n",
        " |   |   |[ ]| p |   |   |   |   | 6\n",
        " |   |(P)| p |   |   |   | k | r | 5\n",
        "   a   b   c   d   e   f   g   h\n",
    ] {
        assert!(
            out.stdout.contains(expected),
            "'{expected}' in:\n{}",
            out.stdout
        );
    }
}
