//! `rookling perft-bench`: over UCI against Stockfish, and `--peer` against any perft
//! program run as a whole process, with its counts checked.

use crate::common;

use common::run::rookling;

/// Rows of the table whose position name starts with `name`.
fn row<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("a row for {name} in:\n{text}"))
}

#[test]
fn peer_runs_are_checked_and_timed() {
    let exe = env!("CARGO_BIN_EXE_rookling");
    // Rookling itself as the peer: every count right, every row in the mean.
    let peer = format!("{exe} perft {{depth}} --fen {{fen}}");
    let out = rookling(&[
        "perft-bench",
        "--repeat",
        "2",
        "--depths",
        "2,2,2,2,2",
        "--peer",
        &peer,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(row(&text, "Kiwipete").contains(" 2039 "), "{text}");
    assert!(
        text.contains("geometric mean of the ratios (5 of 5 positions)"),
        "{text}"
    );

    // A peer with a wrong count, one with none: said on each row, left out, status 1.
    for (script, problem) in [
        (
            "echo 'Result: 5'",
            "peer counted 5 nodes, Rookling 400 (left out)",
        ),
        ("echo hello", "peer printed no node count (left out)"),
        ("exit 3", "peer failed (exit status: 3) (left out)"),
    ] {
        let peer = format!("sh -c \"{script}\" {{fen}} {{depth}}");
        let out = rookling(&[
            "perft-bench",
            "--repeat",
            "1",
            "--depths",
            "2,2,2,2,2",
            "--peer",
            &peer,
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(row(&text, "start position").contains(problem), "{text}");
        assert!(text.contains("no position counted"), "{text}");
    }

    // A command line without {depth} is refused in one line.
    let out = rookling(&["perft-bench", "--peer", "ls {fen}"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

/// A peer that hangs is ended with everything it started: no `sleep` of its outlives
/// `perft-bench` (only the direct child used to be killed).
#[cfg(target_os = "linux")]
#[test]
fn a_hung_peer_leaves_nothing_running() {
    // A duration no other process on the machine is likely to sleep.
    let marker = format!("7.{}", std::process::id());
    let peer = format!("sh -c 'sleep {marker}; echo 20' {{fen}} {{depth}}");
    let out = rookling(&[
        "perft-bench",
        "--repeat",
        "1",
        "--depths",
        "1,1,1,1,1",
        "--timeout",
        "0.3",
        "--peer",
        &peer,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("still running after 0.3 s"), "{text}");
    let sleeping: Vec<String> = std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.starts_with("sleep ") && c.contains(&marker))
        .collect();
    assert!(sleeping.is_empty(), "left running: {sleeping:?}");
}

#[test]
#[cfg_attr(
    not(has_stockfish),
    ignore = "needs stockfish (apt-get install stockfish)"
)]
fn over_uci_against_stockfish() {
    let stockfish = common::stockfish();
    let stockfish = stockfish.display().to_string();
    let out = rookling(&[
        "perft-bench",
        "--repeat",
        "2",
        "--depths",
        "3,2,3,2,2",
        "--threads",
        "2",
        "--hash",
        "1",
        "--stockfish",
        &stockfish,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text} {:?}", out.stderr);
    assert!(text.contains("over UCI"), "{text}");
    assert!(row(&text, "start position").contains(" 8902 "), "{text}");
    assert!(text.contains("geometric mean of the ratios"), "{text}");
}
