//! [`Script`]: a perft program driven as perftree (github `agausmann/perftree`) drives
//! its "perft script", so a move generator without a UCI loop can be compared.
//!
//! For each divide the program is run once, as `COMMAND DEPTH FEN [MOVES]`: three
//! arguments, `MOVES` the moves from the FEN as one space-separated string, left out
//! when there are none, `DEPTH` the depth still to count at the position they reach.
//! No shell is involved, so the FEN needs no quoting. It prints one `MOVE COUNT` line
//! per legal move, one empty line, then the total alone on a line ([`parse_output`]).
//! A run that exits with a non-zero status, is still running at the deadline (it is
//! then killed), or prints anything else is an error naming the script and the exact
//! command line, so the user can run it by hand.

use super::engine::{EngineError, EngineErrorKind};
use super::locate::EngineSpec;
use super::perft_output::{Divide, is_move, shorten};
use super::run::{MAX_OUTPUT_BYTES, RunError, run_to_end};
use std::time::Duration;

/// A perftree script, ready to be run for each divide.
#[derive(Clone, Debug)]
pub struct Script {
    spec: EngineSpec,
    timeout: Duration,
}

impl Script {
    /// The script `spec` (its program and any arguments of its own), each run given
    /// `timeout` to finish.
    pub fn new(spec: EngineSpec, timeout: Duration) -> Self {
        Self { spec, timeout }
    }

    /// The name the user gave the script.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// The script's divide of `depth` (at least 1) at the position `moves` lead to from
    /// `fen`.
    pub fn perft(&self, fen: &str, moves: &[String], depth: u32) -> Result<Divide, EngineError> {
        let mut spec = self.spec.clone();
        spec.command.push(depth.to_string());
        spec.command.push(fen.to_string());
        if !moves.is_empty() {
            spec.command.push(moves.join(" "));
        }
        let command = spec.command_line();
        log::debug!("{} < {command}", self.spec.name);
        let error = |kind| EngineError {
            engine: self.spec.name.clone(),
            kind,
        };
        let finished = run_to_end(&spec, self.timeout).map_err(|e| match e {
            RunError::Spawn(e) => error(EngineErrorKind::Spawn(e)),
            RunError::TimedOut(timeout) => error(EngineErrorKind::Killed {
                command: command.clone(),
                timeout,
            }),
            RunError::StatusLost => error(EngineErrorKind::Died {
                command: command.clone(),
                status: None,
            }),
        })?;
        if !finished.status.success() {
            return Err(error(EngineErrorKind::Exited {
                command,
                status: finished.status,
                stderr: last_words(&finished.stderr),
            }));
        }
        if finished.truncated {
            return Err(error(EngineErrorKind::Garbage {
                command,
                problem: format!("more than {MAX_OUTPUT_BYTES} bytes of output"),
            }));
        }
        parse_output(&finished.output, depth)
            .map_err(|problem| error(EngineErrorKind::Garbage { command, problem }))
    }
}

/// The line of `stderr` that best says why a program failed: a Rust panic's message
/// (the line after `thread '...' panicked at ...`, before any backtrace), else the last
/// line that is not empty and not a `note:` (Python's exception ends its traceback).
fn last_words(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let panic = lines.iter().position(|l| l.contains("panicked at"));
    let line = match panic {
        Some(i) => lines.get(i + 1).or(lines.get(i)),
        None => lines.iter().rfind(|l| !l.starts_with("note: ")),
    };
    line.map(|l| shorten(l))
}

/// Reads a perftree script's output: `MOVE COUNT` lines (a move in UCI notation, any
/// case, and a whole number, separated by white space), one line that is truly empty,
/// then the total alone on a line; what follows the total is ignored, as perftree
/// ignores it. At `depth` 1 and more the counts must add up to the total. Errors are
/// phrased to follow "answered ... with".
pub fn parse_output(text: &str, depth: u32) -> Result<Divide, String> {
    let mut divide = Divide::default();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    loop {
        let Some((number, line)) = lines.next() else {
            return Err(match divide.moves.is_empty() {
                true => "no output (expected 'MOVE COUNT' lines, an empty line and the total)"
                    .to_string(),
                false => "output that ends before the empty line and the total".to_string(),
            });
        };
        if line.is_empty() {
            break;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (mv, count) = match fields.as_slice() {
            [mv, count] if is_move(mv) => (mv.to_ascii_lowercase(), count),
            _ => {
                return Err(format!(
                    "line {number} '{}', which is not 'MOVE COUNT' (such as 'e2e4 20')",
                    shorten(line)
                ));
            }
        };
        let Some(count) = whole_number(count) else {
            return Err(format!(
                "line {number} '{}', whose count is not a whole number",
                shorten(line)
            ));
        };
        if divide.moves.insert(mv.clone(), count).is_some() {
            return Err(format!("the move {mv} twice"));
        }
    }
    let Some((number, line)) = lines.next() else {
        return Err("output that ends after the empty line, without the total".to_string());
    };
    let Some(total) = whole_number(line.trim()) else {
        return Err(format!(
            "line {number} '{}' where the total should be",
            shorten(line)
        ));
    };
    let sum: u128 = divide.moves.values().map(|&n| u128::from(n)).sum();
    if depth > 0 && sum != u128::from(total) {
        return Err(format!(
            "a divide that adds up to {sum}, not the {total} nodes it reported"
        ));
    }
    divide.total = total;
    Ok(divide)
}

/// `text` as a count: decimal digits only (no sign, no separators).
fn whole_number(text: &str) -> Option<u64> {
    match text.bytes().all(|b| b.is_ascii_digit()) {
        true => text.parse().ok(),
        false => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::locate::find_program;

    /// The perftree README's example output, perft 3 of the start position.
    const README: &str = "a2a3 380\nb2b3 420\nc2c3 420\nd2d3 539\ne2e3 599\nf2f3 380\n\
        g2g3 420\nh2h3 380\na2a4 420\nb2b4 421\nc2c4 441\nd2d4 560\ne2e4 600\nf2f4 401\n\
        g2g4 421\nh2h4 420\nb1c3 440\ng1h3 400\nb1a3 400\ng1f3 440\n\n8902\n";

    #[test]
    fn reads_the_readme_example() {
        let divide = parse_output(README, 3).expect("perftree's own example");
        assert_eq!(divide.total, 8902);
        assert_eq!(divide.moves.len(), 20);
        assert_eq!(divide.moves["e2e4"], 600);
    }

    #[test]
    fn reads_like_perftree() {
        // CRLF line ends, upper-case promotions, tabs, text after the total.
        let divide = parse_output("a7b8Q\t3\r\na7a8q  4\r\n\r\n7\r\nbye\n", 2).expect("valid");
        assert_eq!(divide.moves["a7b8q"], 3);
        assert_eq!(divide.total, 7);
        assert_eq!(parse_output("\n1\n", 0).expect("depth 0").total, 1);
        assert_eq!(parse_output("\n0\n", 1).expect("mate").total, 0);
    }

    #[test]
    fn refuses_what_perftree_refuses() {
        let cases = [
            ("", "no output"),
            ("e2e4 1\n", "ends before the empty line"),
            ("e2e4 1\n\n", "without the total"),
            (
                "e2e4: 1\n\n1\n",
                "line 1 'e2e4: 1', which is not 'MOVE COUNT'",
            ),
            ("e2e4 1 2\n\n1\n", "which is not 'MOVE COUNT'"),
            ("Perft 1\ne2e4 1\n\n1\n", "line 1 'Perft 1'"),
            ("e2e4 1\n \n1\n", "line 2 ' '"),
            ("e2e4 x\n\n1\n", "whose count is not a whole number"),
            ("e2e4 -1\n\n1\n", "whose count is not a whole number"),
            ("e2e4 1\ne2e4 1\n\n2\n", "the move e2e4 twice"),
            (
                "e2e4 1\n\nNodes: 1\n",
                "line 3 'Nodes: 1' where the total should be",
            ),
            ("e2e4 1\nd2d4 1\n\n3\n", "adds up to 2, not the 3 nodes"),
        ];
        for (text, expected) in cases {
            let problem = parse_output(text, 1).expect_err(text);
            assert!(problem.contains(expected), "{text:?}: {problem}");
        }
    }

    fn sh(name: &str, script: &str) -> Script {
        let sh = find_program("sh", None).expect("sh on PATH");
        let spec = EngineSpec {
            name: name.into(),
            command: vec![
                sh.display().to_string(),
                "-c".into(),
                script.into(),
                "sh".into(),
            ],
            working_dir: None,
        };
        Script::new(spec, Duration::from_secs(5))
    }

    #[test]
    fn runs_with_three_arguments() {
        // Echoes its arguments back as a one-move divide whose count is the depth.
        let echo = sh(
            "echo",
            "[ $# -eq 3 ] && [ \"$3\" = 'e2e4 e7e5' ] || exit 9; printf 'e2e4 %s\\n\\n%s\\n' $1 $1",
        );
        let divide = echo
            .perft("8/8/8 w - - 0 1", &["e2e4".into(), "e7e5".into()], 3)
            .expect("three arguments");
        assert_eq!(divide.total, 3);
        let no_moves = sh("count", "printf 'e2e4 %s\\n\\n%s\\n' $# $#");
        assert_eq!(no_moves.perft("a fen", &[], 1).expect("two").total, 2);
    }

    #[test]
    fn failures_are_one_clear_line() {
        let failing = sh(
            "bad",
            "echo 'Traceback:' >&2; echo 'ValueError: oops' >&2; exit 3",
        );
        let e = failing.perft("fen", &[], 2).expect_err("fails").to_string();
        assert!(e.starts_with("engine 'bad' failed on '"), "{e}");
        assert!(e.contains("exit status: 3"), "{e}");
        assert!(e.contains("on stderr: 'ValueError: oops'"), "{e}");
        let rust =
            "thread 'main' panicked at src/main.rs:3:5:\nbad FEN\nstack backtrace:\n  0: x\n";
        assert_eq!(last_words(rust).as_deref(), Some("bad FEN"));
        assert_eq!(last_words("a\n\nnote: run with\n").as_deref(), Some("a"));
        let mut slow = sh("slow", "sleep 20");
        slow.timeout = Duration::from_millis(300);
        let start = std::time::Instant::now();
        let e = slow
            .perft("fen", &[], 2)
            .expect_err("times out")
            .to_string();
        assert!(e.contains("did not finish") && e.contains("0.3 s"), "{e}");
        assert!(start.elapsed() < Duration::from_secs(5));
        let garbage = sh("garbage", "echo hello");
        let e = garbage
            .perft("fen", &[], 2)
            .expect_err("garbage")
            .to_string();
        assert!(
            e.contains("line 1 'hello', which is not 'MOVE COUNT'"),
            "{e}"
        );
        assert_eq!(e.lines().count(), 1);
    }
}
