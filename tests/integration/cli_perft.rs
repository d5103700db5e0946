//! `rookling perft` run as a user runs it: the built binary, its output line by line.

use crate::common;

use common::run::{rookling, stdout};

#[test]
fn perft_3_prints_stockfish_divide_format() {
    let out = rookling(&["perft", "3"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let mut divide: Vec<&str> = lines[..20].to_vec();
    divide.sort_unstable();
    let expected = [
        "a2a3: 380",
        "a2a4: 420",
        "b1a3: 400",
        "b1c3: 440",
        "b2b3: 420",
        "b2b4: 421",
        "c2c3: 420",
        "c2c4: 441",
        "d2d3: 539",
        "d2d4: 560",
        "e2e3: 599",
        "e2e4: 600",
        "f2f3: 380",
        "f2f4: 401",
        "g1f3: 440",
        "g1h3: 400",
        "g2g3: 420",
        "g2g4: 421",
        "h2h3: 380",
        "h2h4: 420",
    ];
    assert_eq!(divide, expected);
    assert_eq!(&lines[20..], ["", "Nodes searched: 8902"]);
    assert!(out.stderr.is_empty(), "nothing on stderr");
}

#[test]
fn perft_with_fen_and_moves() {
    // Seed 000's leaf: en passant out of check must be generated.
    let out = rookling(&[
        "perft",
        "1",
        "--fen",
        "8/8/3p4/1Pp4r/1K5k/5p2/4P1P1/1R6 w - c6 0 1",
    ]);
    let text = stdout(&out);
    assert!(text.lines().any(|l| l == "b5c6: 1"), "{text}");
    assert!(text.ends_with("Nodes searched: 7\n"));
    let out = rookling(&["perft", "2", "--moves", "e2e4", "e7e5"]);
    assert!(
        stdout(&out).ends_with("Nodes searched: 835\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn perft_zero_counts_the_position() {
    let out = rookling(&["perft", "0"]);
    assert_eq!(stdout(&out), "\nNodes searched: 1\n");
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let text = stdout(&rookling(&["perft", "2", "--fen", fen]));
    assert!(text.ends_with("Nodes searched: 528\n"), "{text}");
    // Standard castling, spelled both ways.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let text = stdout(&rookling(&["perft", "1", "--fen", kiwipete]));
    assert!(
        text.contains("e1g1: 1") && text.contains("e1c1: 1"),
        "{text}"
    );
    let text = stdout(&rookling(&["perft", "1", "--fen", kiwipete, "--chess960"]));
    assert!(
        text.contains("e1h1: 1") && text.contains("e1a1: 1"),
        "{text}"
    );
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    for args in [
        &["perft", "3", "--fen", "not a fen"][..],
        &["perft", "3", "--fen", "4k3/8/8/8/8/8/8/4K2R w Q - 0 1"],
        &["perft", "3", "--fen", "8/8/8/8/8/8/8/4K3 w - - 0 1"],
        &["perft", "3", "--moves", "e2e5"],
        &["perft", "3", "--moves", "e2e4", "xx"],
        &["perft", "many"],
    ] {
        let out = rookling(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.trim().is_empty(), "{args:?}: an error message");
        assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if args[1] != "many" {
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        }
    }
}

#[test]
fn help_explains_every_flag() {
    let text = stdout(&rookling(&["perft", "--help"]));
    for flag in [
        "--fen",
        "--moves",
        "--chess960",
        "--threads",
        "--hash",
        "--split",
        "--unit",
        "--merge",
        "[DEPTH]",
    ] {
        assert!(text.contains(flag), "{flag} in {text}");
    }
    assert!(stdout(&rookling(&["--help"])).contains("perft"));
}

/// A reader that closes the pipe early (`rookling perft 4 --split 3 | head -1`) ends
/// Rookling quietly, killed by SIGPIPE as `cat` would be: no error on stderr.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::BufRead;
    use std::os::unix::process::ExitStatusExt;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rookling"))
        .args(["perft", "4", "--split", "3"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("rookling runs");
    let stdout = child.stdout.take().expect("piped");
    let mut first = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut first)
        .expect("a line");
    assert!(first.contains(";split "), "{first}");
    // The reader is gone (dropped with the line read).
    let out = child.wait_with_output().expect("it ends");
    assert_eq!(out.status.signal(), Some(13), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
