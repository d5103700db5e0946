//! The UCI side of `buggy_perft`: just enough UCI for perft (`uci`, `isready`,
//! `setoption name UCI_Chess960 value ...`, `ucinewgame`, `position startpos|fen FEN
//! [moves ...]`, `go perft N` in Stockfish's divide format, `quit`), with the quirks.

use crate::bugs::{Bug, Generator, Ghosts};
use crate::{Quirk, divide, set_up};
use rookling::board::{Position, START_FEN};
use std::io::{BufRead, Write};

/// The position a `position ...` command names, with its ghosts, or why it cannot be
/// set up.
fn set_position(
    generator: &Generator,
    args: &[&str],
    chess960: bool,
) -> Result<(Position, Ghosts), String> {
    let (fen, rest) = match args.split_first() {
        Some((&"startpos", rest)) => (START_FEN.to_string(), rest),
        Some((&"fen", rest)) => {
            let end = rest
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(rest.len());
            (rest[..end].join(" "), &rest[end..])
        }
        _ => return Err("expected startpos or fen".to_string()),
    };
    let moves = match rest.split_first() {
        Some((&"moves", list)) => list,
        _ => &[],
    };
    set_up(generator, &fen, moves, chess960)
}

/// Answers `go perft depth` in Stockfish's format, or misbehaves as the bug and the
/// quirk say.
fn go_perft(
    out: &mut impl Write,
    generator: &Generator,
    (pos, ghosts): &(Position, Ghosts),
    depth: u32,
    quirk: Quirk,
) -> std::io::Result<()> {
    match generator.bug {
        Bug::Hang => loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        },
        Bug::Garbage => {
            out.write_all(b"\xff\xfe\x00 perft? what perft?\n")?;
            writeln!(out, "e2e4: lots")?;
            writeln!(out, "\nNodes searched: banana\n")?;
            return out.flush();
        }
        _ => {}
    }
    match quirk {
        Quirk::Flood => loop {
            writeln!(out, "info string still thinking")?;
        },
        Quirk::Chatty => {
            for i in 0..1500 {
                writeln!(out, "info string warming up {i}")?;
            }
        }
        Quirk::HugeLine => writeln!(out, "info string {}", "x".repeat(10 << 20))?,
        _ => {}
    }
    let mut pos = pos.clone();
    let mut answer = String::new();
    let mut total = 0;
    for (i, (mv, nodes)) in divide(generator, &mut pos, ghosts, depth)
        .into_iter()
        .enumerate()
    {
        if generator.bug == Bug::Crash && i == 2 {
            out.write_all(answer.as_bytes())?;
            out.flush()?;
            panic!("planted crash while answering go perft");
        }
        total += nodes;
        answer.push_str(&format!("{mv}: {nodes}\n"));
        if quirk == Quirk::Noise {
            answer.push_str("~~ not a perft line ~~\n");
        }
    }
    match quirk {
        Quirk::BadTotal => total += 1,
        Quirk::IllegalMove => {
            answer.push_str("h1h8: 1\n");
            total += 1;
        }
        _ => {}
    }
    answer.push_str(&format!("\nNodes searched: {total}\n\n"));
    out.write_all(answer.as_bytes())?;
    if quirk == Quirk::Twice {
        out.write_all(answer.as_bytes())?;
    }
    out.flush()
}

/// The UCI loop on stdin and stdout, until `quit` or the end of input.
pub fn run(generator: &Generator, quirk: Quirk) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut chess960 = false;
    let mut position = (Position::startpos(), Ghosts::new());
    let mut handshake_done = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let result = match tokens.as_slice() {
            ["uci"] => writeln!(
                out,
                "id name BuggyPerft {:?}\nid author Rookling tests\n\
                 option name UCI_Chess960 type check default false\nuciok",
                generator.bug
            ),
            ["isready"] => match quirk {
                Quirk::NoReadyok if handshake_done => Ok(()),
                Quirk::ReadyokTwice => writeln!(out, "readyok\nreadyok"),
                _ => {
                    handshake_done = true;
                    writeln!(out, "readyok")
                }
            },
            ["ucinewgame"] => Ok(()),
            ["setoption", "name", "UCI_Chess960", "value", value] => {
                chess960 = *value == "true";
                position.0.set_chess960(chess960);
                Ok(())
            }
            ["position", rest @ ..] => match set_position(generator, rest, chess960) {
                Ok(p) => {
                    position = p;
                    Ok(())
                }
                Err(e) => writeln!(out, "info string {e}"),
            },
            ["go", "perft", depth] => match depth.parse() {
                Ok(depth) => go_perft(&mut out, generator, &position, depth, quirk),
                Err(_) => writeln!(out, "info string bad depth '{depth}'"),
            },
            ["quit"] => break,
            [] => Ok(()),
            _ => writeln!(out, "info string unknown command '{line}'"),
        };
        if result.and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
