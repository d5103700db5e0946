//! Perft across processes as the README shows it: `rookling perft --split` writes work
//! units, GNU parallel counts each with `rookling perft --unit`, and
//! `rookling perft --merge` sums the results; the total must be exact.

use rookling::board::Position;
use rookling::perft::perft;
use std::path::Path;
use std::process::Command;

const ROOKLING: &str = env!("CARGO_BIN_EXE_rookling");

/// Runs split -> parallel -> merge in `dir`; returns (units, total printed by merge).
fn split_parallel_merge(dir: &Path, fen: &str, depth: u32, ply: u32) -> (usize, String) {
    let units = dir.join("units.txt");
    let results = dir.join("results.txt");
    let split = Command::new(ROOKLING)
        .args([
            "perft",
            &depth.to_string(),
            "--fen",
            fen,
            "--split",
            &ply.to_string(),
        ])
        .output()
        .expect("rookling runs");
    assert!(split.status.success(), "split: {split:?}");
    std::fs::write(&units, &split.stdout).expect("write units");
    let count = String::from_utf8_lossy(&split.stdout).lines().count();
    let parallel = Command::new("parallel")
        .args([
            "--will-cite",
            "--halt",
            "now,fail=1",
            "-j2",
            ROOKLING,
            "perft",
            "--unit",
            "{}",
        ])
        .arg("::::")
        .arg(&units)
        .output()
        .expect("parallel runs");
    assert!(parallel.status.success(), "parallel: {parallel:?}");
    std::fs::write(&results, &parallel.stdout).expect("write results");
    let merge = Command::new(ROOKLING)
        .args(["perft", "--merge"])
        .arg(&results)
        .output()
        .expect("rookling runs");
    assert!(merge.status.success(), "merge: {merge:?}");
    (
        count,
        String::from_utf8_lossy(&merge.stdout).trim().to_string(),
    )
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rookling-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
#[cfg_attr(
    not(has_parallel),
    ignore = "needs GNU parallel (apt-get install parallel)"
)]
fn split_parallel_merge_is_exact() {
    let dir = temp_dir("units");
    // Kiwipete: 48 units of depth 3 (castling, en passant and promotions below).
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (units, total) = split_parallel_merge(&dir, kiwipete, 4, 1);
    assert_eq!((units, total.as_str()), (48, "Nodes searched: 4085603"));

    // A small endgame cut 3 plies down, where king moves transpose: fewer units than move
    // sequences, and multiplicities carry the difference.
    let endgame = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let mut pos = Position::from_fen(endgame).expect("valid FEN");
    let sequences = perft(&mut pos, 3) as usize;
    let expected = perft(&mut pos, 7);
    let (units, total) = split_parallel_merge(&dir, endgame, 7, 3);
    assert!(units < sequences, "{units} units for {sequences} sequences");
    assert_eq!(total, format!("Nodes searched: {expected}"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_names_the_bad_line() {
    let dir = temp_dir("merge");
    let good = dir.join("good.txt");
    let bad = dir.join("bad.txt");
    std::fs::write(&good, format!("20;{};1;1\n", rookling::board::START_FEN)).expect("write");
    std::fs::write(&bad, "\nnot a result\n").expect("write");
    let merge = Command::new(ROOKLING)
        .args(["perft", "--merge"])
        .args([&good, &bad])
        .output()
        .expect("rookling runs");
    assert_eq!(merge.status.code(), Some(2));
    assert!(merge.stdout.is_empty());
    let err = String::from_utf8_lossy(&merge.stderr);
    assert!(err.contains(&format!("{}:2:", bad.display())), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
