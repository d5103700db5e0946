//! `rookling datagen` as a trainer reads its output: `FEN | SCORE | RESULT` lines, every
//! FEN valid, every result one of the three, the same result for all lines of a game,
//! appended run after run, and the same games for the same seed.

mod common;

use common::run::rookling;
use rookling::board::Position;

fn datagen(out: &std::path::Path, seed: &str) {
    let path = out.to_str().expect("UTF-8 path");
    let run = rookling(&[
        "datagen", "--out", path, "--games", "3", "--nodes", "300", "--seed", seed,
    ]);
    assert!(run.status.success(), "{run:?}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.starts_with("3 games, "), "{stdout}");
}

fn read(path: &std::path::Path) -> Vec<(String, i32, String)> {
    std::fs::read_to_string(path)
        .expect("written")
        .lines()
        .map(|line| {
            let parts: Vec<&str> = line.split(" | ").collect();
            assert_eq!(parts.len(), 3, "{line}");
            Position::from_fen(parts[0]).expect("a valid FEN");
            let score = parts[1].parse().expect("an integer score");
            assert!(["0.0", "0.5", "1.0"].contains(&parts[2]), "{line}");
            (parts[0].to_string(), score, parts[2].to_string())
        })
        .collect()
}

#[test]
fn writes_trainer_lines_appends_and_repeats_with_a_seed() {
    let dir = std::env::temp_dir().join(format!("rookling-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    datagen(&a, "5");
    let first = read(&a);
    assert!(first.len() > 10, "{} positions", first.len());
    assert!(first.iter().all(|(_, score, _)| score.abs() < 20_000));
    datagen(&a, "6");
    let both = read(&a);
    assert!(both.len() > first.len());
    assert_eq!(&both[..first.len()], &first[..]);
    datagen(&b, "5");
    assert_eq!(read(&b), first);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_file_is_one_line_and_status_2() {
    let run = rookling(&["datagen", "--out", "/nonexistent/dir/x.txt", "--games", "1"]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.starts_with("rookling: cannot open /nonexistent/dir/x.txt: "),
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
