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
