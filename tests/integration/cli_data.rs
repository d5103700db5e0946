//! `rookling data`: text converted to records and printed back, shards merged in order
//! with unfinished games left out, files counted, and bad input refused with one line
//! and status 2, leaving no output behind.

use crate::common;

use common::run::{datagen, fresh_folder, rookling, stdout};
use std::path::{Path, PathBuf};

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    fresh_folder("data", name)
}

fn text(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

fn run_ok(args: &[&str]) -> String {
    let run = rookling(args);
    assert!(run.status.success(), "{args:?}: {run:?}");
    stdout(&run)
}

/// A shard of `games` games from `seed`, at 300 nodes a move: the file's bytes.
fn shard(path: &Path, games: &str, seed: &str) -> Vec<u8> {
    let run = datagen(path, games, seed, "1");
    assert!(run.status.success(), "{run:?}");
    std::fs::read(path).expect("written")
}

/// Fails with status 2 and one line on stderr containing `expected`.
fn fails(args: &[&str], expected: &str) {
    let run = rookling(args);
    assert_eq!(run.status.code(), Some(2), "{args:?}: {run:?}");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(expected), "'{expected}' in {stderr}");
}

#[test]
fn records_print_as_text_and_convert_back_to_the_same_bytes() {
    let dir = folder("convert");
    let (bin, txt, back) = (dir.join("a.bin"), dir.join("a.txt"), dir.join("back.bin"));
    let bytes = shard(&bin, "4", "11");
    let lines = run_ok(&["data", "show", text(&bin)]);
    assert_eq!(lines.lines().count(), bytes.len() / 32);
    for line in lines.lines() {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        rookling::board::Position::from_fen(fields[0]).expect("a valid FEN");
        assert!(["0.0", "0.5", "1.0"].contains(&fields[2]), "{line}");
    }
    std::fs::write(&txt, &lines).expect("write");
    let said = run_ok(&["data", "convert", "--out", text(&back), text(&txt)]);
    let n = bytes.len() / 32;
    assert_eq!(
        said,
        format!(
            "{n} positions in 4 games written to {}; 0 lines skipped\n",
            back.display()
        )
    );
    assert_eq!(std::fs::read(&back).ok(), Some(bytes));
    // --skip and --count pick lines out.
    let some = run_ok(&["data", "show", "--skip", "2", "--count", "3", text(&bin)]);
    let expected: Vec<&str> = lines.lines().skip(2).take(3).collect();
    assert_eq!(some.lines().collect::<Vec<_>>(), expected);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn convert_skips_and_counts_bad_lines() {
    let dir = folder("skips");
    let (txt, out) = (dir.join("in.txt"), dir.join("out.bin"));
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    std::fs::write(
        &txt,
        format!(
            "{fen} | 35 | 0.5\nnot a line\n{fen} | 35 | 0.7\n8/8/8/8/8/8/8/8 w - - | 0 | 1.0\n\
             {fen} | -12 | 1.0\n{fen} | 40 | 0.0"
        ),
    )
    .expect("write");
    let said = run_ok(&["data", "convert", "--out", text(&out), text(&txt)]);
    // The last line has no end of line: a line still being written is left out.
    assert!(
        said.starts_with("2 positions in 2 games written to ") && said.contains("4 lines skipped"),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "first skipped line: {}:2: 1 fields",
            txt.display()
        )),
        "{said}"
    );
    let shown = run_ok(&["data", "show", text(&out)]);
    assert_eq!(shown, format!("{fen} | 35 | 0.5\n{fen} | -12 | 1.0\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_merge_in_order_without_their_unfinished_games() {
    let dir = folder("merge");
    let (a, b, all) = (dir.join("a.bin"), dir.join("b.bin"), dir.join("all.bin"));
    let first = shard(&a, "3", "21");
    let mut second = shard(&b, "3", "22");
    // The second shard was copied while its run was writing: 2 records and 5 bytes of
    // its fourth game.
    let whole = second.clone();
    second.extend_from_slice(&shard(&dir.join("c.bin"), "1", "23")[..69]);
    std::fs::write(&b, &second).expect("write");
    let said = run_ok(&["data", "merge", "--out", text(&all), text(&a), text(&b)]);
    assert!(
        said.contains(&format!("{}: 3 games\n", a.display())),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "{}: 3 games (left out: 2 records of an unfinished game, 5 bytes of a record)\n",
            b.display()
        )),
        "{said}"
    );
    let n = (first.len() + whole.len()) / 32;
    assert!(said.ends_with(&format!(
        "{n} positions in 6 games written to {}\n",
        all.display()
    )));
    assert_eq!(std::fs::read(&all).ok(), Some([first, whole].concat()));
    // stats counts the merged file and each input.
    let stats = run_ok(&["data", "stats", "--legal", text(&all), text(&b)]);
    let lines: Vec<&str> = stats.lines().collect();
    assert_eq!(lines.len(), 3, "{stats}");
    assert!(
        lines[0].contains(&format!(": {n} positions, 6 games")),
        "{stats}"
    );
    assert!(
        lines[1].ends_with("; then 2 records of an unfinished game and 5 bytes of a record"),
        "{stats}"
    );
    assert!(lines[2].starts_with("all: "), "{stats}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused_and_leaves_nothing_behind() {
    let dir = folder("bad");
    let (a, out) = (dir.join("a.bin"), dir.join("out.bin"));
    let mut bytes = shard(&a, "2", "31");
    // An existing output is never overwritten.
    fails(
        &["data", "merge", "--out", text(&a), text(&a)],
        "exists: give a new file",
    );
    fails(
        &["data", "convert", "--out", text(&a), "/nonexistent.txt"],
        "exists: give a new file",
    );
    // A missing input, a malformed record: named, and no output nor .partial left.
    fails(
        &["data", "merge", "--out", text(&out), "/nonexistent.bin"],
        "cannot open /nonexistent.bin",
    );
    bytes[32 + 30] = 7;
    std::fs::write(&a, &bytes).expect("write");
    fails(
        &["data", "merge", "--out", text(&out), text(&a)],
        &format!(
            "{}: record 1 (byte 32) is not a training position: result 7",
            a.display()
        ),
    );
    fails(&["data", "stats", text(&a)], "record 1 (byte 32)");
    fails(&["data", "show", text(&a)], "record 1 (byte 32)");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("folder")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}"); // a.bin and a.bin.info
    // A legal-looking record whose position is not legal: found by --legal only.
    bytes[32 + 30] = 1;
    bytes[24] = 28; // en passant on e4, white to move
    std::fs::write(&a, &bytes).expect("write");
    run_ok(&["data", "stats", text(&a)]);
    fails(&["data", "stats", "--legal", text(&a)], "record 0");
    let _ = std::fs::remove_dir_all(&dir);
}
