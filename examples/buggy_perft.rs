//! A minimal UCI perft engine built on Rookling's move generator, with a bug planted on
//! purpose, for testing `rookling compare` and `rookling suite`.
//!
//! `buggy_perft [--bug none|ep-in-check|no-castling|extra-castling|no-knight-promotion|crash|hang|garbage]
//! [--quirk twice|chatty|readyok-twice|noise|bad-total|illegal-move|no-readyok|huge-line|flood]`
//!
//! - `none`: exact (Rookling's generator);
//! - `ep-in-check`: drops en passant captures while in check (seed 000's Bitbishop bug);
//! - `no-castling`: never castles;
//! - `extra-castling`: may castle out of check (when the squares the king crosses and
//!   reaches are safe and the path is free), which is illegal;
//! - `no-knight-promotion`: never under-promotes to a knight;
//! - `crash`: dies (panics) in the middle of answering `go perft`;
//! - `hang`: answers the handshake, then never answers `go perft`;
//! - `garbage`: answers `go perft` with lines that are not perft output.
//!
//! A quirk is a protocol misbehaviour on top of the bug (the counts stay the bug's):
//! - `twice`: prints each `go perft` answer twice;
//! - `chatty`: 1,500 `info string` lines before each divide;
//! - `readyok-twice`: answers `isready` with two `readyok`;
//! - `noise`: a line of garbage between divide lines;
//! - `bad-total`: a total one more than its divide lines;
//! - `illegal-move`: an extra divide line `a1a1`-shaped but illegal (`h1h8: 1`), counted
//!   in the total;
//! - `no-readyok`: never answers `isready` after the handshake;
//! - `huge-line`: a 10 MB `info string` line before each divide;
//! - `flood`: answers `go perft` with `info` lines without end.
//!
//! It speaks just enough UCI: `uci`, `isready`, `setoption name UCI_Chess960 value ...`,
//! `ucinewgame`, `position startpos|fen FEN [moves ...]`, `go perft N` (Stockfish's
//! divide format) and `quit`.

use rookling::attacks;
use rookling::board::{Bitboard, CastleSide, Move, MoveKind, PieceType, Position};
use rookling::movegen::{legal_moves, parse_move};
use std::io::{BufRead, Write};

/// The planted bug.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bug {
    None,
    EpInCheck,
    NoCastling,
    ExtraCastling,
    NoKnightPromotion,
    Crash,
    Hang,
    Garbage,
}

impl Bug {
    fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "none" => Self::None,
            "ep-in-check" => Self::EpInCheck,
            "no-castling" => Self::NoCastling,
            "extra-castling" => Self::ExtraCastling,
            "no-knight-promotion" => Self::NoKnightPromotion,
            "crash" => Self::Crash,
            "hang" => Self::Hang,
            "garbage" => Self::Garbage,
            _ => return None,
        })
    }
}

/// A protocol misbehaviour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Quirk {
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

/// The moves this engine believes legal in `pos`.
fn moves(pos: &Position, bug: Bug) -> Vec<Move> {
    let mut list: Vec<Move> = legal_moves(pos).iter().copied().collect();
    match bug {
        Bug::EpInCheck if pos.in_check() => list.retain(|m| m.kind() != MoveKind::EnPassant),
        Bug::NoCastling => list.retain(|m| m.kind() != MoveKind::Castling),
        Bug::NoKnightPromotion => list.retain(|m| m.promotion_piece() != Some(PieceType::Knight)),
        Bug::ExtraCastling if pos.in_check() => list.extend(castling_out_of_check(pos)),
        _ => {}
    }
    list
}

/// Castling moves that would be legal if the king were not in check: the squares
/// between king and rook and their targets are free, the squares the king crosses and
/// reaches are not attacked.
fn castling_out_of_check(pos: &Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let ksq = pos.king(us);
    let mut out = Vec::new();
    for side in CastleSide::ALL {
        if !pos.castling().has(us, side) {
            continue;
        }
        let rook = pos.castling().rook(us, side);
        let king_to = Move::castling_king_to(ksq, rook);
        let rook_to = Move::castling_rook_to(ksq, rook);
        let movers = Bitboard::from(ksq) | Bitboard::from(rook);
        let occ = pos.occupied() ^ movers;
        let king_path = attacks::between(ksq, king_to) | Bitboard::from(king_to);
        let rook_path = attacks::between(rook, rook_to) | Bitboard::from(rook_to);
        let free = ((king_path | rook_path) & occ).is_empty();
        let safe = king_path
            .into_iter()
            .all(|sq| (pos.attackers_to(sq, occ) & pos.color(us.flip())).is_empty());
        if free && safe {
            out.push(Move::castling(ksq, rook));
        }
    }
    out
}

fn perft(pos: &mut Position, depth: u32, bug: Bug) -> u64 {
    let list = moves(pos, bug);
    if depth <= 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for mv in list {
        let undo = pos.make(mv);
        nodes += perft(pos, depth - 1, bug);
        pos.unmake(mv, &undo);
    }
    nodes
}

/// The position a `position ...` command names, or why it cannot be set up.
fn set_position(args: &[&str], chess960: bool) -> Result<Position, String> {
    let (mut pos, rest) = match args.split_first() {
        Some((&"startpos", rest)) => (Position::startpos(), rest),
        Some((&"fen", rest)) => {
            let end = rest
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(rest.len());
            let fen = rest[..end].join(" ");
            let pos = Position::from_fen(&fen).map_err(|e| format!("bad FEN: {e}"))?;
            (pos, &rest[end..])
        }
        _ => return Err("expected startpos or fen".to_string()),
    };
    pos.set_chess960(chess960 || pos.is_chess960());
    if let Some((&"moves", list)) = rest.split_first() {
        for text in list {
            let mv = parse_move(&pos, text).map_err(|e| e.to_string())?;
            pos.play(mv);
        }
    }
    Ok(pos)
}

/// Answers `go perft depth` in Stockfish's format, or misbehaves as the bug and the
/// quirk say.
fn go_perft(
    out: &mut impl Write,
    pos: &Position,
    depth: u32,
    bug: Bug,
    quirk: Quirk,
) -> std::io::Result<()> {
    match bug {
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
    let chess960 = pos.is_chess960();
    let mut answer = String::new();
    let mut total = 0;
    for (i, mv) in moves(&pos, bug).into_iter().enumerate() {
        if bug == Bug::Crash && i == 2 {
            out.write_all(answer.as_bytes())?;
            out.flush()?;
            panic!("planted crash while answering go perft");
        }
        let undo = pos.make(mv);
        let nodes = if depth <= 1 {
            1
        } else {
            perft(&mut pos, depth - 1, bug)
        };
        pos.unmake(mv, &undo);
        total += nodes;
        answer.push_str(&format!("{}: {nodes}\n", mv.uci(chess960)));
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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut bug, mut quirk) = (Some(Bug::None), Some(Quirk::None));
    for pair in args.chunks(2) {
        match pair {
            [flag, name] if flag == "--bug" => bug = bug.and(Bug::parse(name)),
            [flag, name] if flag == "--quirk" => quirk = quirk.and(Quirk::parse(name)),
            _ => bug = None,
        }
    }
    let (Some(bug), Some(quirk)) = (bug, quirk) else {
        eprintln!(
            "usage: buggy_perft [--bug none|ep-in-check|no-castling|extra-castling|\
             no-knight-promotion|crash|hang|garbage] [--quirk twice|chatty|readyok-twice|\
             noise|bad-total|illegal-move|no-readyok|huge-line|flood]"
        );
        std::process::exit(2);
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut chess960 = false;
    let mut pos = Position::startpos();
    let mut handshake_done = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let result = match tokens.as_slice() {
            ["uci"] => writeln!(
                out,
                "id name BuggyPerft {bug:?}\nid author Rookling tests\n\
                 option name UCI_Chess960 type check default false\nuciok"
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
                pos.set_chess960(chess960);
                Ok(())
            }
            ["position", rest @ ..] => match set_position(rest, chess960) {
                Ok(p) => {
                    pos = p;
                    Ok(())
                }
                Err(e) => writeln!(out, "info string {e}"),
            },
            ["go", "perft", depth] => match depth.parse() {
                Ok(depth) => go_perft(&mut out, &pos, depth, bug, quirk),
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
