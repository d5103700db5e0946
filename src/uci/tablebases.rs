//! `setoption name SyzygyPath`: loads the tables (before the next command is read, so
//! before `readyok`) and says what was found, in Stockfish's words.

use crate::syzygy::{self, Found};

/// Loads the tables in `path` and returns the `info string` texts to print: one per
/// directory that could not be used, then how many tables were found and the most
/// pieces, or that there are none (the engine then plays without them).
pub fn load(path: &str) -> Vec<String> {
    report(path, &syzygy::load(path))
}

/// The texts for what `path` held.
fn report(path: &str, found: &Found) -> Vec<String> {
    let mut lines: Vec<String> = found
        .problems
        .iter()
        .map(|why| format!("SyzygyPath: {why}"))
        .collect();
    if found.wdl_count() > 0 {
        lines.push(format!(
            "Found {} WDL and {} DTZ tablebase files (up to {}-man).",
            found.wdl_count(),
            found.dtz_count(),
            found.largest()
        ));
    } else if !syzygy::files::split(path).is_empty() {
        lines.push("SyzygyPath: no tablebases found; playing without them".to_string());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_path_is_reported() {
        let found = syzygy::files::scan("/no/such/rookling/dir");
        let lines = report("/no/such/rookling/dir", &found);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("SyzygyPath: '/no/such/rookling/dir' is not a directory"));
        assert_eq!(
            lines[1],
            "SyzygyPath: no tablebases found; playing without them"
        );
        assert!(report("<empty>", &Found::default()).is_empty());
    }
}
