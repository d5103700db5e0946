//! Running the `rookling` binary from a test: bounded in time, its memory watched, and
//! the two shapes `compare` tests need (a JSON verdict, a clean failure).

use rookling::client::group;
use serde_json::Value;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a bounded run of `rookling` gave.
pub struct Run {
    /// The exit status (`None` if a signal ended it).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// The largest resident set seen while it ran, in kB.
    pub peak_rss_kb: u64,
}

/// Runs `rookling args` with no stdin, ending it and whatever it started (and failing
/// the test) after `limit`, sampling its memory as it runs.
pub fn rookling_within(args: &[&str], limit: Duration) -> Run {
    let mut child = group::spawn(
        Command::new(env!("CARGO_BIN_EXE_rookling"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .expect("the binary runs");
    let status_file = format!("/proc/{}/status", child.id());
    let start = Instant::now();
    let mut peak_rss_kb = 0;
    // Its output is read as it comes, so that a chatty run never waits on a full pipe.
    let (mut out, mut err) = (child.stdout.take(), child.stderr.take());
    let stdout = std::thread::spawn(move || read_all(out.as_mut()));
    let stderr = std::thread::spawn(move || read_all(err.as_mut()));
    loop {
        if group::exited(&mut child) {
            break;
        }
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            let rss = text
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
            peak_rss_kb = peak_rss_kb.max(rss.unwrap_or(0));
        }
        if start.elapsed() > limit {
            group::end(&mut child);
            panic!("rookling {args:?} still running after {limit:?} ({peak_rss_kb} kB)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = group::reap(&mut child).expect("an exit status");
    Run {
        code: status.code(),
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
        peak_rss_kb,
    }
}

/// Everything `pipe` gives until it closes, as text.
fn read_all(pipe: Option<&mut impl Read>) -> String {
    let mut bytes = Vec::new();
    if let Some(pipe) = pipe {
        let _ = pipe.read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A hang guard for `compare` runs, not a latency figure: far above the engines'
/// own timeouts, so a loaded machine passes while an engine waited on forever does not.
const COMPARE_LIMIT: Duration = Duration::from_secs(120);

/// `rookling compare --json --timeout 20 args`: the exit status and the JSON object.
pub fn compare_json(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["compare", "--json", "--timeout", "20"];
    all.extend_from_slice(args);
    let run = rookling_within(&all, COMPARE_LIMIT);
    let json = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("one JSON object ({e}): {} / {}", run.stdout, run.stderr));
    (run.code, json)
}

/// A JSON array of strings (a verdict's move list, tags, ...) as `Vec<String>`.
pub fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().expect("a string").to_string())
        .collect()
}

/// `compare --depth 3 --timeout 2` of `reference` against `candidate` fails cleanly:
/// exit status 2 and one line on stderr naming the candidate and containing
/// `expected`.
pub fn fails_clearly(reference: &str, candidate: &str, expected: &str) -> Run {
    let args = [
        "compare",
        "--depth",
        "3",
        "--timeout",
        "2",
        "--reference",
        reference,
        "--candidate",
        candidate,
    ];
    let run = rookling_within(&args, Duration::from_secs(60));
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("engine '{candidate}'")),
        "the candidate named in {}",
        run.stderr
    );
    assert!(
        run.stderr.contains(expected),
        "'{expected}' in {}",
        run.stderr
    );
    run
}

/// A fresh, empty folder for one test: `rookling-GROUP-PID-NAME` in the temporary
/// directory.
pub fn fresh_folder(group: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rookling-{group}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `rookling datagen` writing `out`: `games` games from `seed` on `threads` threads, at
/// 300 nodes a move (small enough for a test).
pub fn datagen(
    out: &std::path::Path,
    games: &str,
    seed: &str,
    threads: &str,
) -> std::process::Output {
    let path = out.to_str().expect("UTF-8 path");
    rookling(&[
        "datagen",
        "--out",
        path,
        "--games",
        games,
        "--nodes",
        "300",
        "--seed",
        seed,
        "--threads",
        threads,
    ])
}

/// Runs `rookling args` to the end and returns what it printed.
pub fn rookling(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rookling"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A run's standard output, as text.
pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}
