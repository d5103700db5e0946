//! The one place that writes protocol lines to stdout: under a lock, flushed, logged.

use std::io::Write;

/// Writes `lines` together (no other output in between), each followed by a line break,
/// then flushes. A closed stdout is ignored: the input side decides when to quit.
pub fn send_all<S: AsRef<str>>(lines: &[S]) {
    // The stdout lock keeps the loop's and the worker's groups of lines apart.
    let mut out = std::io::stdout().lock();
    for line in lines {
        let line = line.as_ref();
        log::debug!(">> {line}");
        if writeln!(out, "{line}").is_err() {
            log::warn!("stdout is closed");
            return;
        }
    }
    let _ = out.flush();
}

/// Writes one line (see [`send_all`]).
pub fn send(line: &str) {
    send_all(&[line]);
}

/// Writes `info string <text>`.
pub fn info(text: &str) {
    send(&format!("info string {text}"));
}
