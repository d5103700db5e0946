//! The input thread: reads lines, parses them and hands them to the loop in order. It
//! also raises the quit signal as soon as it reads `quit`, so that a loop waiting for a
//! hash table (before `readyok` or a `go`) stops waiting and exits at once.

use super::command::{Command, ParseError};
use super::parse;
use crate::lines::{self, Line};
use crossbeam_channel::{Receiver, Sender, bounded};
use std::io::BufRead;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Lines longer than this are refused (the rest of the line is skipped).
pub const MAX_LINE: usize = 64 << 20;

/// Lines read ahead of the loop: past that the input thread waits, so input sent
/// while the loop waits (for a hash table) is held by the pipe, not in memory.
const READ_AHEAD: usize = 256;

/// What the input thread hands to the loop.
#[derive(Debug)]
pub enum Input {
    /// A line, parsed.
    Line(Result<Command, ParseError>),
    /// A line longer than [`MAX_LINE`], skipped.
    TooLong,
    /// A line whose parsing panicked (a bug): it is ignored.
    Broken,
    /// End of input (or a read error).
    End,
}

/// The loop's side of the input thread.
pub struct Lines {
    /// Parsed lines, in order.
    pub lines: Receiver<Input>,
    /// Receives a value once `quit` has been read (whatever still waits in `lines`).
    pub quit: Receiver<()>,
}

/// Starts the input thread on `input`; `None` if no thread can be started.
pub fn spawn<R: BufRead + Send + 'static>(input: R) -> Option<Lines> {
    let (sender, lines) = bounded(READ_AHEAD);
    let (quit_sender, quit) = bounded(1);
    let spawned = std::thread::Builder::new()
        .name("uci-input".into())
        .spawn(move || read(input, &sender, &quit_sender));
    match spawned {
        Ok(_) => Some(Lines { lines, quit }),
        Err(e) => {
            log::error!("cannot start the input thread: {e}");
            None
        }
    }
}

/// Reads `input` to its end, sending each line parsed; `quit` also raises the signal.
fn read<R: BufRead>(mut input: R, sender: &Sender<Input>, quit: &Sender<()>) {
    let mut bytes = Vec::new();
    loop {
        let item = match lines::read_line(&mut input, MAX_LINE, &mut bytes) {
            Ok(Line::End) => {
                log::debug!("end of input");
                Input::End
            }
            Err(e) => {
                log::error!("cannot read input: {e}");
                Input::End
            }
            Ok(Line::Long) => match lines::skip_line(&mut input) {
                Ok(()) => Input::TooLong,
                Err(e) => {
                    log::error!("cannot read input: {e}");
                    Input::End
                }
            },
            Ok(Line::Whole) => {
                let line = String::from_utf8_lossy(&bytes);
                let line = line.trim_end_matches('\r');
                log::debug!("<< {line}");
                match catch_unwind(AssertUnwindSafe(|| parse(line))) {
                    Ok(parsed) => {
                        if parsed == Ok(Command::Quit) {
                            let _ = quit.try_send(());
                        }
                        Input::Line(parsed)
                    }
                    Err(_) => {
                        log::error!("a panic while parsing a line");
                        Input::Broken
                    }
                }
            }
        };
        let end = matches!(item, Input::End);
        if sender.send(item).is_err() || end {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &'static [u8]) -> (Vec<String>, bool) {
        let lines = spawn(std::io::Cursor::new(text)).expect("a thread");
        let mut got = Vec::new();
        for item in lines.lines.iter() {
            match item {
                Input::Line(Ok(command)) => got.push(format!("{command:?}")),
                Input::Line(Err(e)) => got.push(e.to_string()),
                Input::TooLong => got.push("too long".into()),
                Input::Broken => got.push("broken".into()),
                Input::End => break,
            }
        }
        (got, lines.quit.try_recv().is_ok())
    }

    #[test]
    fn lines_come_parsed_in_order_and_quit_is_signalled() {
        let (got, quit) = all(b"isready\r\nfoo\n\nquit\nisready");
        assert_eq!(
            got,
            [
                "IsReady",
                "unknown command: foo",
                "empty line",
                "Quit",
                "IsReady"
            ]
        );
        assert!(quit);
        let (got, quit) = all(b"isready\n");
        assert_eq!(got, ["IsReady"]);
        assert!(!quit);
    }
}
