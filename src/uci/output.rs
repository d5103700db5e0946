//! [`Output`]: the one place protocol lines are written, stdout for `rookling`, a
//! buffer for tests and fuzz targets. Lines are written in groups under a lock, flushed,
//! and logged.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where the loop and the worker write their lines (cloned into both; one lock).
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Lines go to standard output.
    pub fn stdout() -> Self {
        Self::new(std::io::stdout())
    }

    /// Lines go to `sink`.
    pub fn new(sink: impl Write + Send + 'static) -> Self {
        Self {
            sink: Arc::new(Mutex::new(Box::new(sink))),
        }
    }

    /// Writes `lines` together (no other output in between), each followed by a line
    /// break, then flushes. A closed output is ignored: the input side decides when to
    /// quit.
    pub fn send_all<S: AsRef<str>>(&self, lines: &[S]) {
        // A panic while writing (a bug) cannot leave half a line that matters more than
        // the lines after it: keep writing.
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        for line in lines {
            let line = line.as_ref();
            log::debug!(">> {line}");
            if writeln!(sink, "{line}").is_err() {
                log::warn!("the output is closed");
                return;
            }
        }
        let _ = sink.flush();
    }

    /// Writes one line (see [`Output::send_all`]).
    pub fn send(&self, line: &str) {
        self.send_all(&[line]);
    }

    /// Writes `info string <text>`.
    pub fn info(&self, text: &str) {
        self.send(&format!("info string {text}"));
    }
}

/// A buffer that several threads may write to and one may read at the end: the sink
/// of an [`Output`] in tests and fuzz targets.
#[derive(Clone, Default)]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    /// Everything written so far, as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
