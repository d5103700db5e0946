//! The UCI front end: `rookling` with no arguments speaks UCI on stdin/stdout.
//!
//! The loop thread ([`run`]) reads lines, parses them ([`parse`]: the pre-parser plus
//! vampirc-uci) and applies them to the [`engine::Engine`], which owns the position and
//! the options. Perft and search run on a worker thread ([`worker`]), so `isready`,
//! `stop` and `quit` are answered at once even while it counts.
//!
//! Files: `command` (what a line means), `preparse` (what vampirc-uci cannot parse),
//! `parse`, `engine` (state and commands), `worker`, `prepare` (hash tables allocated
//! off the loop thread, before `readyok`), `options`, `display` (`d`),
//! `stockfish_order` (root moves of `go perft` in Stockfish's order), `output` (every
//! line written to stdout).

pub mod command;
mod display;
pub(crate) mod divide;
mod engine;
mod options;
mod output;
pub mod parse;
mod prepare;
mod preparse;
mod stockfish_order;
mod worker;

pub use command::{Command, ParseError};
pub use parse::parse;

/// The loop's engine state, reachable for the fuzz targets (`fuzz/`) only: they apply
/// command sequences to it and check the position after each. Not a stable API.
#[doc(hidden)]
pub use engine::{Engine, Flow};
use std::io::{BufRead, Read};
use std::time::Duration;

/// Lines longer than this are refused (the rest of the line is skipped).
const MAX_LINE: u64 = 64 << 20;

/// At end of input, how long the jobs already sent may run before they are stopped:
/// long enough for a piped `go perft 6`, short enough to exit promptly.
const EOF_GRACE: Duration = Duration::from_millis(500);

/// Speaks UCI on stdin/stdout until `quit` or end of input (where the jobs already
/// sent get [`EOF_GRACE`] to finish).
pub fn run_stdio() {
    run(std::io::stdin().lock());
}

/// Speaks UCI reading `input` (answers go to stdout) until `quit` or end of input.
pub fn run<R: BufRead>(mut input: R) {
    let mut engine = match Engine::new() {
        Ok(engine) => engine,
        Err(e) => {
            log::error!("cannot start the worker thread: {e}");
            return;
        }
    };
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        let read = (&mut input).take(MAX_LINE).read_until(b'\n', &mut bytes);
        match read {
            Ok(0) => {
                log::debug!("end of input");
                engine.finish(EOF_GRACE);
                return;
            }
            Ok(_) => {}
            Err(e) => {
                log::error!("cannot read input: {e}");
                engine.finish(EOF_GRACE);
                return;
            }
        }
        if bytes.len() as u64 >= MAX_LINE && bytes.last() != Some(&b'\n') {
            skip_rest_of_line(&mut input);
            output::info(&format!(
                "error: a line longer than {MAX_LINE} bytes was ignored"
            ));
            continue;
        }
        let line = String::from_utf8_lossy(&bytes);
        let line = line.trim_end_matches(['\n', '\r']);
        log::debug!("<< {line}");
        // Nothing here should panic; if it ever does, the line is refused and the engine
        // (whose `position` is applied all or nothing) keeps serving.
        let handled =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match parse(line) {
                Ok(command) => engine.handle(command),
                Err(e) => {
                    engine.refuse(&e);
                    Flow::Continue
                }
            }));
        let flow = handled.unwrap_or_else(|_| {
            log::error!("a panic while handling a line");
            output::info("error: internal error, the line was ignored");
            Flow::Continue
        });
        if flow == Flow::Quit {
            break;
        }
    }
    engine.shut_down();
}

/// Reads and drops input up to the next line break.
fn skip_rest_of_line<R: BufRead>(input: &mut R) {
    loop {
        let (done, used) = match input.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (true, i + 1),
                None => (false, buf.len()),
            },
        };
        input.consume(used);
        if done {
            return;
        }
    }
}
