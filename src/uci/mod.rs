//! The UCI front end: `rookling` with no arguments speaks UCI on stdin/stdout.
//!
//! An input thread reads lines and parses them ([`parse()`]: the pre-parser plus
//! vampirc-uci); the loop thread ([`run`]) applies them to the [`engine::Engine`], which
//! owns the position and the options. Perft and search run on a worker thread (`worker`), so `isready`,
//! `stop` and `quit` are answered at once even while it counts.
//!
//! Files: `command` (what a line means), `preparse` (what vampirc-uci cannot parse),
//! `parse`, `input` (the thread that reads and parses lines), `engine` (state and
//! commands), `worker`, `prepare` (hash tables allocated off the loop thread, before
//! `readyok`), `options`, `tablebases` (`SyzygyPath`: loading the tables and saying
//! what was found), `evalfile` (`EvalFile`: reading a network file and saying which
//! network is in use), `display` (`d`), `eval` (`eval`), `stockfish_order` (root moves of
//! `go perft` in Stockfish's order), `output` (every line written to stdout).

pub mod command;
mod display;
pub(crate) mod divide;
mod engine;
mod eval;
mod evalfile;
mod input;
mod options;
pub mod output;
pub mod parse;
mod prepare;
mod preparse;
mod stockfish_order;
mod tablebases;
mod worker;

pub use command::{Command, ParseError};
pub use parse::parse;

/// The loop's engine state, reachable for the fuzz targets (`fuzz/`) only: they apply
/// command sequences to it and check the position after each. Not a stable API.
#[doc(hidden)]
pub use engine::{Engine, Flow};
use input::Input;
use input::MAX_LINE;
pub use output::{Captured, Output};
use std::io::BufRead;

/// Speaks UCI on stdin/stdout until `quit` or end of input (where every command read
/// is still answered: see [`Engine::finish`]).
pub fn run_stdio() {
    run(std::io::BufReader::new(std::io::stdin()), Output::stdout());
}

/// Speaks UCI reading `input` and answering on `out`, until `quit` or end of input.
///
/// An input thread (`input`) reads and parses the lines; this thread applies them
/// in order. Meanwhile it also passes on a hash table as soon as it is ready (so a
/// refused `PerftHash` is reported at once), and a `quit` read while it waits for a
/// table ends that wait. End of input is not `quit`: every command read before it is
/// answered ([`Engine::finish`]).
pub fn run<R: BufRead + Send + 'static>(input: R, out: Output) {
    let mut engine = match Engine::new(out.clone()) {
        Ok(engine) => engine,
        Err(e) => {
            log::error!("cannot start the worker thread: {e}");
            return;
        }
    };
    let Some(input) = input::spawn(input) else {
        return;
    };
    engine.watch_quit(input.quit.clone());
    loop {
        let prepared = engine.preparation();
        let item = crossbeam_channel::select! {
            recv(input.lines) -> item => item.unwrap_or(Input::End),
            recv(prepared) -> ready => {
                engine.prepared(ready.ok());
                continue;
            }
        };
        let line = match item {
            Input::Line(line) => line,
            Input::End => {
                engine.finish();
                return;
            }
            Input::TooLong => {
                out.info(&format!(
                    "error: a line longer than {MAX_LINE} bytes was ignored"
                ));
                continue;
            }
            Input::Broken => {
                out.info("error: internal error, the line was ignored");
                continue;
            }
        };
        // Nothing here should panic; if it ever does, the line is refused and the engine
        // (whose `position` is applied all or nothing) keeps serving.
        let handled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match line {
            Ok(command) => engine.handle(command),
            Err(e) => {
                engine.refuse(&e);
                Flow::Continue
            }
        }));
        let flow = handled.unwrap_or_else(|_| {
            log::error!("a panic while handling a line");
            out.info("error: internal error, the line was ignored");
            Flow::Continue
        });
        if flow == Flow::Quit {
            break;
        }
    }
    engine.shut_down();
}
