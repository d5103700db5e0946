//! `rookling datagen` as a long run across machines needs it: 32-byte records of whole
//! games, every position legal, the same file for the same seed whatever the thread
//! count, a killed run resumed by the same command to the same bytes, other settings
//! and a second writer refused.

use crate::common;

use common::run::{datagen, rookling};
use rookling::data::{RECORD_BYTES, Record};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    common::run::fresh_folder("datagen", name)
}

fn succeeds(run: std::process::Output) -> String {
    assert!(run.status.success(), "{run:?}");
    String::from_utf8_lossy(&run.stdout).into_owned()
}

/// The file's records, each checked and its position legal; games whole.
fn records(path: &Path) -> Vec<Record> {
    let bytes = std::fs::read(path).expect("written");
    assert_eq!(bytes.len() % RECORD_BYTES, 0);
    let records: Vec<Record> = bytes
        .chunks(RECORD_BYTES)
        .map(|chunk| {
            let record = Record::from_bytes(chunk.try_into().expect("32 bytes")).expect("valid");
            record.to_position().expect("a legal position");
            assert!(record.white_score().abs() < 20_000, "{record:?}");
            record
        })
        .collect();
    assert!(records.last().is_some_and(Record::ends_game));
    // Every position of a game has the game's result.
    for game in records.split_inclusive(Record::ends_game) {
        assert!(game.iter().all(|r| r.result() == game[0].result()));
    }
    records
}

fn games(records: &[Record]) -> usize {
    records.iter().filter(|r| r.ends_game()).count()
}

#[test]
fn the_same_seed_gives_the_same_file_on_any_thread_count() {
    let dir = folder("threads");
    let (one, two) = (dir.join("one.bin"), dir.join("two.bin"));
    let said = succeeds(datagen(&one, "6", "5", "1"));
    assert!(said.starts_with("6 games, "), "{said}");
    let first = records(&one);
    assert_eq!(games(&first), 6);
    assert!(first.len() > 30, "{} positions", first.len());
    succeeds(datagen(&two, "6", "5", "2"));
    assert_eq!(std::fs::read(&two).ok(), std::fs::read(&one).ok());
    // Another seed is another shard: other games.
    let other = dir.join("other.bin");
    succeeds(datagen(&other, "6", "6", "2"));
    assert_ne!(records(&other), first);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_cut_anywhere_resumes_to_the_same_bytes() {
    let dir = folder("resume");
    let (whole, cut) = (dir.join("whole.bin"), dir.join("cut.bin"));
    succeeds(datagen(&whole, "5", "7", "1"));
    let expected = std::fs::read(&whole).expect("written");
    // A run stopped after 2 games, then the same command asking for 5.
    succeeds(datagen(&cut, "2", "7", "1"));
    let said = succeeds(datagen(&cut, "5", "7", "2"));
    assert!(
        said.starts_with("3 games, ") && said.contains("it holds 5 games"),
        "{said}"
    );
    assert_eq!(std::fs::read(&cut).ok().as_ref(), Some(&expected));
    // Cut inside a record, inside a game, and just after a game's last record.
    let game_ends: Vec<usize> = records(&whole)
        .iter()
        .enumerate()
        .filter(|(_, r)| r.ends_game())
        .map(|(i, _)| (i + 1) * RECORD_BYTES)
        .collect();
    for length in [
        expected.len() - 13,
        game_ends[2] + 3 * RECORD_BYTES,
        game_ends[1],
        7,
    ] {
        std::fs::write(&cut, &expected[..length]).expect("cut");
        succeeds(datagen(&cut, "5", "7", "1"));
        assert_eq!(
            std::fs::read(&cut).ok().as_ref(),
            Some(&expected),
            "cut at {length}"
        );
    }
    // A file that already holds the games asked for is left as it is.
    let said = succeeds(datagen(&cut, "3", "7", "1"));
    assert!(
        said.starts_with("0 games, ") && said.contains("it holds 5 games"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn other_settings_and_other_files_are_refused() {
    let dir = folder("refused");
    let data = dir.join("data.bin");
    succeeds(datagen(&data, "1", "3", "1"));
    let before = std::fs::read(&data).expect("written");
    let run = datagen(&data, "2", "4", "1");
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("other settings (seed 3 (this run: 4))"),
        "{stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert_eq!(std::fs::read(&data).ok(), Some(before));
    // A file datagen did not start is not touched.
    let stranger = dir.join("stranger.bin");
    std::fs::write(&stranger, b"not records").expect("write");
    let run = datagen(&stranger, "1", "3", "1");
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("not a datagen file to resume"), "{stderr}");
    assert_eq!(std::fs::read(&stranger).ok(), Some(b"not records".to_vec()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two runs on one file (the same command started twice) would cut and interleave each
/// other's games: the second stops before it touches the file.
#[test]
fn a_second_run_on_a_file_being_written_is_refused() {
    let dir = folder("lock");
    let data = dir.join("data.bin");
    let mut first = Command::new(env!("CARGO_BIN_EXE_rookling"))
        .args([
            "datagen",
            "--out",
            data.to_str().expect("UTF-8"),
            "--games",
            "100000",
        ])
        .args(["--nodes", "300", "--seed", "9"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    while std::fs::metadata(&data).map_or(0, |m| m.len()) == 0 {
        assert!(start.elapsed() < Duration::from_secs(60), "no game written");
        std::thread::sleep(Duration::from_millis(20));
    }
    let run = datagen(&data, "100000", "9", "1");
    let _ = first.kill();
    let _ = first.wait();
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("is being written by another run"),
        "{stderr}"
    );
    // Once the first is gone (killed mid-game), the same command resumes.
    let said = succeeds(datagen(&data, "1", "9", "1"));
    assert!(said.starts_with("0 games, "), "{said}");
    records(&data);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_file_is_one_line_and_status_2() {
    let run = rookling(&["datagen", "--out", "/nonexistent/dir/x.bin", "--games", "1"]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.starts_with("rookling: cannot open /nonexistent/dir/x.bin: "),
        "{stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
}

/// A write that fails names the file too, not only the error.
#[test]
fn a_failed_write_names_the_file() {
    let run = rookling(&[
        "datagen",
        "--out",
        "/dev/full",
        "--games",
        "2",
        "--nodes",
        "200",
    ]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        stderr.trim_end(),
        "rookling: cannot write /dev/full: No space left on device (os error 28)"
    );
}

#[test]
fn zero_games_is_refused() {
    let run = rookling(&["datagen", "--out", "/dev/null", "--games", "0"]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("--games"), "{stderr}");
}
