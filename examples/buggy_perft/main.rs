//! A minimal perft engine built on Rookling's move generator, with a bug planted on
//! purpose, for testing `rookling compare`, `suite` and `hunt`. It speaks UCI, or, with
//! `--perftree`, answers once as a perftree script does.
//!
//! `buggy_perft [--bug BUG] [--quirk QUIRK]` (UCI on stdin/stdout), or
//! `buggy_perft [--bug BUG] [--quirk QUIRK] --perftree DEPTH FEN [MOVES]`.
//!
//! Bugs (`--bug`, see `bugs.rs`): `none` (exact), `ep-in-check` (drops en passant
//! captures while in check, seed 000's Bitbishop bug), `no-castling`, `extra-castling`
//! (may castle out of check), `no-knight-promotion`, `no-underpromotion` (queens only),
//! `no-promotion-capture`, `castling-rights-kept` (a castling right survives the
//! capture of its rook on its square), `ep-rank-pin` (en passant that exposes the king
//! along the rank), `chess960-castling-occupied` (Chess960 castling when only the
//! squares between king and rook are empty), `pinned-piece` (pinned pieces leave the
//! pin line), `king-along-ray` (the king steps back along a checking slider's ray),
//! `double-check` (blocks or captures one checker of a double check), `crash` (dies in
//! the middle of an answer), `hang` (never answers), `garbage` (answers with lines that
//! are not perft output).
//!
//! A quirk is a protocol misbehaviour on top of the bug (the counts stay the bug's):
//! - `twice`: prints each `go perft` answer twice;
//! - `chatty`: 1,500 `info string` lines before each divide;
//! - `readyok-twice`: answers `isready` with two `readyok`;
//! - `noise`: a line of garbage between divide lines;
//! - `bad-total`: a total one more than its divide lines (UCI and perftree);
//! - `illegal-move`: an extra divide line `a1a1`-shaped but illegal (`h1h8: 1`), counted
//!   in the total;
//! - `no-readyok`: never answers `isready` after the handshake;
//! - `huge-line`: a 10 MB `info string` line before each divide;
//! - `flood`: answers `go perft` with `info` lines without end.
//!
//! As a perftree script it prints `MOVE COUNT` lines, an empty line and the total, and
//! exits 0; a bad position or move is a line on stderr and exit status 1.

mod bugs;
mod uci;

use bugs::{Bug, Generator, Ghosts};
use rookling::board::Position;
use rookling::movegen::parse_move;
use std::io::Write;

/// A protocol misbehaviour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Quirk {
    None,
    Twice,
    Chatty,
    ReadyokTwice,
    Noise,
    BadTotal,
    IllegalMove,
    NoReadyok,
    HugeLine,
    Flood,
}

impl Quirk {
    fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "none" => Self::None,
            "twice" => Self::Twice,
            "chatty" => Self::Chatty,
            "readyok-twice" => Self::ReadyokTwice,
            "noise" => Self::Noise,
            "bad-total" => Self::BadTotal,
            "illegal-move" => Self::IllegalMove,
            "no-readyok" => Self::NoReadyok,
            "huge-line" => Self::HugeLine,
            "flood" => Self::Flood,
            _ => return None,
        })
    }
}

/// The position `fen` then `moves` lead to, with the ghosts of castling rights the
/// generator keeps along the way; `chess960` forces king-takes-rook castling.
pub fn set_up<S: AsRef<str>>(
    generator: &Generator,
    fen: &str,
    moves: &[S],
    chess960: bool,
) -> Result<(Position, Ghosts), String> {
    let mut pos = Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
    pos.set_chess960(chess960 || pos.is_chess960());
    let mut ghosts = Ghosts::new();
    for text in moves {
        let mv = parse_move(&pos, text.as_ref()).map_err(|e| e.to_string())?;
        generator.play(&mut pos, &mut ghosts, mv);
    }
    Ok((pos, ghosts))
}

/// The divide lines (`move`, count) of `depth` at `pos`.
pub fn divide(
    generator: &Generator,
    pos: &mut Position,
    ghosts: &Ghosts,
    depth: u32,
) -> Vec<(String, u64)> {
    let chess960 = pos.is_chess960();
    generator
        .moves(pos, ghosts)
        .iter()
        .map(|g| {
            let text = match g {
                bugs::Gen::Legal(mv) => mv.to_uci(chess960),
                bugs::Gen::Bogus(text) => text.clone(),
            };
            let n = generator.subtree(pos, ghosts, g, depth.saturating_sub(1));
            (text, n)
        })
        .collect()
}

/// One answer as a perftree script: `args` are DEPTH FEN [MOVES].
fn perftree(generator: &Generator, quirk: Quirk, args: &[String]) -> i32 {
    let (depth, fen, moves) = match args {
        [depth, fen] => (depth, fen, ""),
        [depth, fen, moves] => (depth, fen, moves.as_str()),
        _ => {
            eprintln!("usage: buggy_perft [--bug BUG] --perftree DEPTH FEN [MOVES]");
            return 2;
        }
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("bad depth '{depth}'");
        return 2;
    };
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let (mut pos, ghosts) = match set_up(generator, fen, &moves, false) {
        Ok(set) => set,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    match generator.bug {
        Bug::Hang => loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        },
        Bug::Garbage => {
            println!("e2e4: lots\n\nNodes searched: banana");
            return 0;
        }
        _ => {}
    }
    let lines = divide(generator, &mut pos, &ghosts, depth);
    let mut out = std::io::stdout().lock();
    let mut total = 0;
    for (i, (mv, n)) in lines.iter().enumerate() {
        if generator.bug == Bug::Crash && i == 2 {
            let _ = out.flush();
            panic!("planted crash in the middle of a divide");
        }
        total += n;
        let _ = writeln!(out, "{mv} {n}");
    }
    if quirk == Quirk::BadTotal {
        total += 1;
    }
    let _ = writeln!(out, "\n{total}");
    0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut bug, mut quirk, mut rest) = (Some(Bug::None), Some(Quirk::None), None);
    let mut i = 0;
    while i < args.len() {
        match (args[i].as_str(), args.get(i + 1)) {
            ("--bug", Some(name)) => bug = bug.and(Bug::parse(name)),
            ("--quirk", Some(name)) => quirk = quirk.and(Quirk::parse(name)),
            ("--perftree", _) => {
                rest = Some(args[i + 1..].to_vec());
                break;
            }
            _ => bug = None,
        }
        i += 2;
    }
    let (Some(bug), Some(quirk)) = (bug, quirk) else {
        let names: Vec<&str> = Bug::NAMES.iter().map(|(n, _)| *n).collect();
        eprintln!(
            "usage: buggy_perft [--bug {}] [--quirk twice|chatty|readyok-twice|noise|\
             bad-total|illegal-move|no-readyok|huge-line|flood] [--perftree DEPTH FEN [MOVES]]",
            names.join("|")
        );
        std::process::exit(2);
    };
    let generator = Generator { bug };
    match rest {
        Some(args) => std::process::exit(perftree(&generator, quirk, &args)),
        None => uci::run(&generator, quirk),
    }
}
