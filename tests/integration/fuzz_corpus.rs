//! Replays the fuzz corpus (`fuzz/corpus/<target>/`, the inputs AFL++ found that reach
//! new code, minimised) through the same property checks the fuzz targets run, so that
//! `cargo test` keeps every case the fuzzer ever found interesting passing without
//! the fuzzer installed. See `docs/fuzzing.md`.

#[path = "../../fuzz/src/checks.rs"]
mod checks;
#[path = "../../fuzz/src/decode.rs"]
mod decode;
#[path = "../../fuzz/src/reference.rs"]
mod reference;

use std::path::{Path, PathBuf};

/// Runs `check` on every file of `fuzz/corpus/<target>/`, naming the file that fails.
fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "{}: only {} inputs",
        dir.display(),
        files.len()
    );
    for file in &files {
        let data = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let outcome = std::panic::catch_unwind(|| check(&data));
        assert!(
            outcome.is_ok(),
            "{}: property failed (message above)",
            file.display()
        );
    }
}

#[test]
fn fen() {
    replay("fen", checks::fen);
}

#[test]
fn uci_line() {
    replay("uci_line", checks::uci_line);
}

#[test]
fn movegen() {
    replay("movegen", checks::movegen);
}

#[test]
fn perft_modes() {
    replay("perft_modes", checks::perft_modes);
}

#[test]
fn epd() {
    replay("epd", checks::epd);
}

#[test]
fn units() {
    replay("units", checks::units);
}

#[test]
fn merge() {
    replay("merge", checks::merge);
}

/// The engine's answers go to a buffer (the in-process half) or are captured (the
/// piped half), never to the test's stdout.
#[test]
fn uci_session() {
    replay("uci_session", checks::uci_session);
}
