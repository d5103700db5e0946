//! Running a program as a whole process, timed from start to exit, with a deadline
//! and a bound on the output kept: how `perft-bench --peer` times another perft
//! program and Rookling side by side, and how a perftree script is asked for each
//! divide ([`super::script`]).

use super::group;
use super::locate::EngineSpec;
use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Most bytes of a program's output kept (the first ones; the rest is read and
/// dropped so the program never blocks on a full pipe).
pub const MAX_OUTPUT_BYTES: usize = 1 << 20;

/// Most bytes of a program's error output kept (the last ones: a panic message or a
/// traceback ends there).
pub const MAX_STDERR_BYTES: usize = 64 << 10;

/// A program that ran to its end.
#[derive(Debug)]
pub struct Finished {
    /// How it exited.
    pub status: ExitStatus,
    /// Its standard output (at most [`MAX_OUTPUT_BYTES`], invalid UTF-8 replaced).
    pub output: String,
    /// Whether the output was longer than [`MAX_OUTPUT_BYTES`] (the rest was dropped).
    pub truncated: bool,
    /// The end of its error output (at most [`MAX_STDERR_BYTES`], invalid UTF-8
    /// replaced).
    pub stderr: String,
    /// Wall time from start to exit.
    pub elapsed: Duration,
}

/// Why a run gave no result.
#[derive(Debug)]
pub enum RunError {
    /// It could not be started.
    Spawn(std::io::Error),
    /// It was still running at the deadline, and was killed.
    TimedOut(Duration),
    /// It exited, but its exit status was lost (reaped by someone else: Rookling was
    /// started with SIGCHLD ignored).
    StatusLost,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Spawn(e) => write!(f, "cannot be started: {e}"),
            Self::TimedOut(t) => write!(f, "still running after {} s", t.as_secs_f64()),
            Self::StatusLost => f.write_str("exited, but its exit status was lost"),
        }
    }
}

/// Runs `spec`'s command with no input and waits at most `timeout` for it to exit.
pub fn run_to_end(spec: &EngineSpec, timeout: Duration) -> Result<Finished, RunError> {
    let Some((program, args)) = spec.command.split_first() else {
        return Err(RunError::Spawn(std::io::Error::other("empty command line")));
    };
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = &spec.working_dir {
        command.current_dir(dir);
    }
    let start = Instant::now();
    let mut child = group::spawn(&mut command).map_err(RunError::Spawn)?;
    let (Some(mut stdout), Some(mut stderr)) = (child.stdout.take(), child.stderr.take()) else {
        group::end(&mut child);
        return Err(RunError::Spawn(std::io::Error::other(
            "no pipe to the process",
        )));
    };
    let (sender, receiver) = crossbeam_channel::bounded(1);
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        let mut truncated = false;
        loop {
            match stdout.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = MAX_OUTPUT_BYTES.saturating_sub(kept.len());
                    truncated |= n > room;
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        let _ = sender.send((kept, truncated));
    });
    let (err_sender, err_receiver) = crossbeam_channel::bounded(1);
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n @ 1..) = stderr.read(&mut buf) {
            kept.extend_from_slice(&buf[..n]);
            if kept.len() > 2 * MAX_STDERR_BYTES {
                kept.drain(..kept.len() - MAX_STDERR_BYTES);
            }
        }
        let start = kept.len().saturating_sub(MAX_STDERR_BYTES);
        let _ = err_sender.send(kept.split_off(start));
    });
    // The output ends when the program exits (or closes it on purpose); then its exit
    // is polled finely, so the time stays within a fraction of a millisecond, and what
    // it left running in its group is ended with it.
    let deadline = super::process::deadline(start, timeout);
    let timed_out = |child: &mut std::process::Child| {
        group::end(child);
        RunError::TimedOut(timeout)
    };
    let Ok((output, truncated)) = receiver.recv_timeout(timeout) else {
        return Err(timed_out(&mut child));
    };
    while !group::exited(&mut child) {
        if Instant::now() >= deadline {
            return Err(timed_out(&mut child));
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    let elapsed = start.elapsed();
    let status = group::reap(&mut child).ok_or(RunError::StatusLost)?;
    // The error output closes once the group is gone; a moment, never the deadline.
    let wait = deadline
        .saturating_duration_since(Instant::now())
        .min(Duration::from_millis(100));
    let stderr = err_receiver.recv_timeout(wait).unwrap_or_default();
    Ok(Finished {
        status,
        output: String::from_utf8_lossy(&output).into_owned(),
        truncated,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        elapsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::locate::find_program;

    fn sh(script: &str) -> EngineSpec {
        let sh = find_program("sh", None).expect("sh on PATH");
        EngineSpec {
            name: "sh".into(),
            command: vec![sh.display().to_string(), "-c".into(), script.into()],
            working_dir: None,
        }
    }

    #[test]
    fn runs_times_and_bounds() {
        let done = run_to_end(
            &sh("echo 'Result: 20'; echo oops >&2; exit 3"),
            Duration::from_secs(10),
        )
        .expect("runs");
        assert_eq!(done.output, "Result: 20\n");
        assert_eq!(done.stderr, "oops\n");
        assert!(!done.truncated);
        assert_eq!(done.status.code(), Some(3));
        let start = Instant::now();
        let hung = run_to_end(&sh("sleep 30"), Duration::from_millis(200));
        assert!(matches!(hung, Err(RunError::TimedOut(_))), "{hung:?}");
        assert!(start.elapsed() < Duration::from_secs(5));
        let chatty =
            run_to_end(&sh("yes | head -c 3000000"), Duration::from_secs(10)).expect("runs");
        assert_eq!(chatty.output.len(), MAX_OUTPUT_BYTES);
        assert!(chatty.truncated);
        let loud =
            run_to_end(&sh("yes | head -c 3000000 >&2"), Duration::from_secs(10)).expect("runs");
        assert_eq!(loud.stderr.len(), MAX_STDERR_BYTES);
    }
}
