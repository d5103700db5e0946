//! The command line at the edges of its arguments and inputs: a `--timeout` too long to
//! add to the clock, files that never end, a `--hash` larger than the machine. Each is
//! refused with one line on stderr and exit status 2 (or runs as asked), in bounded
//! memory; never a panic, and never a process killed for lack of memory.

use crate::common;

use common::run::{Run, rookling_within};
use std::time::Duration;

/// A hang guard: each case here takes well under a second.
const LIMIT: Duration = Duration::from_secs(60);

/// Far below what reading an endless file whole takes (it grew by gigabytes a second).
const BOUNDED_KB: u64 = 300_000;

fn refused(args: &[&str], expected: &str) -> Run {
    let run = rookling_within(args, LIMIT);
    assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
    run
}

/// `--timeout 1e19` is a valid number of seconds that no clock can add: it used to
/// panic (`overflow when adding duration to instant`, exit status 101). Now it is a
/// deadline a century away; the engine here dies at once, which ends the run.
#[test]
fn a_timeout_too_long_to_add_is_no_panic() {
    for timeout in ["1e19", "1.8e19"] {
        refused(
            &[
                "compare",
                "--depth",
                "1",
                "--candidate",
                "false",
                "--timeout",
                timeout,
            ],
            "engine 'false' died while answering 'uci'",
        );
        refused(
            &[
                "suite",
                "tests/data/standard.epd",
                "--reference",
                "false",
                "--timeout",
                timeout,
            ],
            "engine 'false' died while answering 'uci'",
        );
        let args = [
            "perft-bench",
            "--peer",
            "false {fen} {depth}",
            "--depths",
            "1,1,1,1,1",
            "--repeat",
            "1",
            "--timeout",
            timeout,
        ];
        let run = rookling_within(&args, LIMIT);
        assert_eq!(
            run.code,
            Some(1),
            "no right count from the peer: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
}

/// A file that never ends (`/dev/zero`) named as results, suite or engines file used
/// to be read whole: memory grew until the process was killed. Each is now read up to
/// a bound and refused.
#[test]
fn endless_files_are_refused_in_bounded_memory() {
    for (args, expected) in [
        (
            &["perft", "--merge", "/dev/zero"][..],
            "/dev/zero:1: a line longer than 65536 bytes: not a result line",
        ),
        (
            &["suite", "/dev/zero"],
            "cannot read /dev/zero: larger than 67108864 bytes",
        ),
        (
            &["compare", "--depth", "1", "--engines", "/dev/zero"],
            "cannot read /dev/zero: larger than 1048576 bytes",
        ),
    ] {
        let run = refused(args, expected);
        assert!(
            run.peak_rss_kb < BOUNDED_KB,
            "{args:?}: {} kB",
            run.peak_rss_kb
        );
    }
}

/// A `--hash` table larger than the memory available is refused as UCI refuses such a
/// `PerftHash`: filled by a deep count, it would get the process killed instead.
#[cfg(target_os = "linux")]
#[test]
fn a_hash_table_larger_than_the_memory_is_refused() {
    let unit = "rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/R1BQKBNR b KQkq - 1 1;2;1;\
                split 150a1a653f91fdee depth 3 ply 1;unit 1 of 20;check dc8d089c16ae0cc8";
    for args in [
        &["perft", "3", "--hash", "1048576"][..],
        &["perft", "3", "--stats", "--hash", "1048576"],
        &["perft", "--unit", unit, "--hash", "1048576"],
    ] {
        refused(args, "--hash 1048576: 1048576 MB is more than 90% of the");
    }
    let run = rookling_within(&["perft", "3", "--hash", "16"], LIMIT);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.ends_with("Nodes searched: 8902\n"),
        "{}",
        run.stdout
    );
}
