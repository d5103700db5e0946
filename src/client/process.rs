//! [`UciProcess`]: a child process spoken to line by line, where every wait has a
//! deadline and what is kept of the output is bounded.
//!
//! A reader thread cuts the child's stdout into lines (invalid UTF-8 replaced, each
//! line cut at [`Limits::max_line_bytes`]) and queues them on a channel of
//! [`Limits::max_queued_lines`]; when the queue is full the thread stops reading, so a
//! child that prints without end waits on its pipe instead of filling memory. Reads
//! take a deadline that holds however fast lines arrive.

use super::group;
use super::locate::EngineSpec;
use crate::lines::{self, Line};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded, unbounded};
use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How much of a child's output is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest line kept, in bytes; the rest of a longer line is dropped and a marker
    /// ([`CUT_MARKER`]) appended, so a cut line never reads as a whole one.
    pub max_line_bytes: usize,
    /// Lines queued before the reader stops reading (`None`: no limit, for tests that
    /// queue many commands to Rookling before reading the answers).
    pub max_queued_lines: Option<usize>,
}

impl Limits {
    /// For other engines: 4 KiB lines (a perft or `option` line is under 200 bytes),
    /// 1,024 queued lines, so at most about 4 MB held.
    pub const ENGINE: Self = Self {
        max_line_bytes: 4096,
        max_queued_lines: Some(1024),
    };
}

/// Appended to a line cut at [`Limits::max_line_bytes`].
pub const CUT_MARKER: &str = " [line cut]";

/// How long `quit` is given before the process is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

/// What a read gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Received {
    /// A line, without its line ending.
    Line(String),
    /// The child closed its output (it exited, most likely).
    Closed,
    /// The deadline passed.
    TimedOut,
}

/// A running child process with piped stdin and stdout (stderr discarded), leading a
/// process group of its own ([`group`]): ending it ends whatever it started.
pub struct UciProcess {
    child: Child,
    /// Its exit status, once it has been reaped.
    status: Option<ExitStatus>,
    input: Option<ChildStdin>,
    output: Receiver<String>,
    closed: bool,
    last: Option<String>,
}

impl UciProcess {
    /// Starts `spec`'s command with extra environment variables `env`.
    pub fn spawn(spec: &EngineSpec, env: &[(&str, &str)], limits: Limits) -> std::io::Result<Self> {
        let Some((program, args)) = spec.command.split_first() else {
            return Err(std::io::Error::other("empty command line"));
        };
        let mut command = Command::new(program);
        command
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.working_dir {
            command.current_dir(dir);
        }
        let mut child = group::spawn(&mut command)?;
        let (Some(input), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            group::end(&mut child);
            return Err(std::io::Error::other("no pipes to the process"));
        };
        let (sender, output) = match limits.max_queued_lines {
            Some(n) => bounded(n.max(1)),
            None => unbounded(),
        };
        let max = limits.max_line_bytes.max(1);
        std::thread::spawn(move || read_lines(stdout, max, &sender));
        Ok(Self {
            child,
            status: None,
            input: Some(input),
            output,
            closed: false,
            last: None,
        })
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        self.send_bytes(format!("{line}\n").as_bytes())
    }

    /// Sends raw bytes (not necessarily UTF-8, not necessarily a whole line).
    pub fn send_bytes(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let Some(input) = self.input.as_mut() else {
            return Err(std::io::Error::other("input already closed"));
        };
        input.write_all(bytes)?;
        input.flush()
    }

    /// Closes the child's input (end of file).
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// The next line, unless the deadline has passed or the output is closed. A
    /// deadline in the past gives [`Received::TimedOut`] even when lines are waiting.
    pub fn read_line(&mut self, deadline: Instant) -> Received {
        if self.closed {
            return Received::Closed;
        }
        let now = Instant::now();
        if now >= deadline {
            return Received::TimedOut;
        }
        match self.output.recv_timeout(deadline - now) {
            Ok(line) => {
                log::debug!("> {line}");
                self.last = Some(line.clone());
                Received::Line(line)
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Received::Closed
            }
            Err(RecvTimeoutError::Timeout) => Received::TimedOut,
        }
    }

    /// The child's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The last line read, if any.
    pub fn last_line(&self) -> Option<&str> {
        self.last.as_deref()
    }

    /// Waits up to `timeout` for the process to exit (then ends what it left running
    /// in its process group); its status, or `None`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        if let Some(status) = self.status {
            return Some(status);
        }
        self.status = group::wait(&mut self.child, timeout, Duration::from_millis(5));
        self.status
    }

    /// Sends `quit`, gives the process `grace` to exit, then ends it and its whole
    /// process group ([`group::end`]).
    pub fn quit(&mut self, grace: Duration) {
        if self.status.is_some() {
            return;
        }
        let _ = self.send("quit");
        self.close_input();
        if self.wait_exit(grace).is_none() {
            self.status = group::end(&mut self.child);
        }
    }
}

impl Drop for UciProcess {
    /// Says `quit`, then kills the process if it has not left within [`QUIT_GRACE`].
    fn drop(&mut self) {
        self.quit(QUIT_GRACE);
    }
}

/// The moment `timeout` after `start`; a timeout too long to add (`--timeout 1e19`)
/// gives a deadline a century away instead of a panic.
pub fn deadline(start: Instant, timeout: Duration) -> Instant {
    const CENTURY: Duration = Duration::from_secs(100 * 365 * 24 * 3600);
    start
        .checked_add(timeout)
        .or_else(|| start.checked_add(CENTURY))
        .unwrap_or(start)
}

/// The reader thread: lines of `stdout`, each cut at `max` bytes (invalid UTF-8
/// replaced, a cut line marked with [`CUT_MARKER`]), sent until the output ends, it
/// cannot be read or nobody listens.
fn read_lines(stdout: impl Read, max: usize, sender: &Sender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        let cut = match lines::read_line(&mut reader, max, &mut line) {
            Ok(Line::End) | Err(_) => return,
            Ok(Line::Whole) => false,
            Ok(Line::Long) => true,
        };
        let mut text = String::from_utf8_lossy(&line).into_owned();
        if cut {
            text.push_str(CUT_MARKER);
        }
        if sender.send(text).is_err() || (cut && lines::skip_line(&mut reader).is_err()) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_timeout_gives_a_deadline() {
        let now = Instant::now();
        assert_eq!(
            deadline(now, Duration::from_secs(3)),
            now + Duration::from_secs(3)
        );
        for huge in [Duration::MAX, Duration::from_secs(u64::MAX / 2)] {
            assert!(deadline(now, huge) > now + Duration::from_secs(1 << 31));
        }
    }

    fn lines(input: &[u8], max: usize) -> Vec<String> {
        let (sender, receiver) = unbounded();
        read_lines(input, max, &sender);
        drop(sender);
        receiver.iter().collect()
    }

    #[test]
    fn cuts_long_lines_and_keeps_the_rest() {
        assert_eq!(lines(b"ab\r\ncd\n\nef", 10), ["ab", "cd", "", "ef"]);
        let long = format!("{}\nok\n", "x".repeat(100));
        assert_eq!(
            lines(long.as_bytes(), 8),
            [format!("xxxxxxxx{CUT_MARKER}"), "ok".to_string()]
        );
        assert_eq!(lines(b"\xff\xfe\n", 10), ["\u{fffd}\u{fffd}"]);
    }

    #[test]
    fn deadline_holds_while_lines_keep_coming() {
        let spec = EngineSpec::program(std::path::Path::new("yes"));
        let spec = EngineSpec {
            command: vec![
                super::super::locate::find_program("yes", None)
                    .expect("yes on PATH")
                    .to_string_lossy()
                    .into_owned(),
            ],
            ..spec
        };
        let mut process = UciProcess::spawn(&spec, &[], Limits::ENGINE).expect("starts");
        let deadline = Instant::now() + Duration::from_millis(200);
        let mut count = 0u64;
        while let Received::Line(_) = process.read_line(deadline) {
            count += 1;
        }
        assert!(Instant::now() >= deadline, "ended before the deadline");
        assert!(count > 0);
        assert_eq!(process.read_line(deadline), Received::TimedOut);
    }
}
