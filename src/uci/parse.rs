//! `parse`: one line of input to a [`Command`], a pure function.
//!
//! The pre-parser (`preparse`) reads `d`, `position`, `go` and `register`,
//! which vampirc-uci cannot read (or not completely); vampirc-uci parses every other
//! command from the original line.

use super::command::{Command, ParseError};
use super::preparse::{Route, quote, route};
use vampirc_uci::UciMessage;

/// Parses one line (without its line break).
pub fn parse(line: &str) -> Result<Command, ParseError> {
    match route(line) {
        Route::Done(result) => result,
        Route::Vampirc(command) => {
            from_vampirc(vampirc_uci::parse_one(line)).ok_or_else(|| ParseError::Malformed {
                command,
                why: format!("cannot read '{}'", quote(line.trim())),
            })
        }
    }
}

/// The command for a message vampirc parsed; `None` for one the engine does not take.
fn from_vampirc(message: UciMessage) -> Option<Command> {
    Some(match message {
        UciMessage::Uci => Command::Uci,
        UciMessage::Debug(on) => Command::Debug(on),
        UciMessage::IsReady => Command::IsReady,
        UciMessage::SetOption { name, value } => Command::SetOption { name, value },
        UciMessage::UciNewGame => Command::UciNewGame,
        UciMessage::Stop => Command::Stop,
        UciMessage::PonderHit => Command::PonderHit,
        UciMessage::Quit => Command::Quit,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;
    use crate::uci::command::Start;
    use proptest::prelude::*;

    fn go(line: &str) -> Limits {
        match parse(line) {
            Ok(Command::Go { limits, .. }) => limits,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Ok(Command::Uci));
        assert_eq!(parse("  isready \t"), Ok(Command::IsReady));
        assert_eq!(parse("ucinewgame"), Ok(Command::UciNewGame));
        assert_eq!(parse("stop"), Ok(Command::Stop));
        assert_eq!(parse("quit"), Ok(Command::Quit));
        assert_eq!(parse("ponderhit"), Ok(Command::PonderHit));
        assert_eq!(parse("debug on"), Ok(Command::Debug(true)));
        assert_eq!(parse("d"), Ok(Command::Display));
        assert_eq!(parse(""), Err(ParseError::Empty));
        assert!(matches!(parse("uciok"), Err(ParseError::Unknown(_))));
        assert!(matches!(parse("hello"), Err(ParseError::Unknown(_))));
    }

    #[test]
    fn setoption_names_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert!(parse("setoption").is_err());
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Command::Position {
                start: Start::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(
            parse("position fen 4k3/8/8/8/8/8/8/4K2R w K - moves e1g1"),
            Ok(Command::Position {
                start: Start::Fen("4k3/8/8/8/8/8/8/4K2R w K -".into()),
                moves: vec!["e1g1".into()]
            })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position startpos e2e4").is_err());
        assert!(parse("position middlegame").is_err());
    }

    #[test]
    fn go_parameters() {
        let p = go("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 30");
        assert_eq!(
            (p.wtime, p.btime, p.winc, p.binc, p.movestogo),
            (Some(1000), Some(2000), Some(10), Some(20), Some(30))
        );
        match parse("go depth 7 nodes 5000 searchmoves e2e4 d2d4") {
            Ok(Command::Go {
                limits,
                searchmoves,
                ..
            }) => {
                assert_eq!((limits.depth, limits.nodes), (Some(7), Some(5000)));
                assert_eq!(searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);
            }
            other => panic!("{other:?}"),
        }
        assert!(go("go infinite").infinite);
        assert!(go("go ponder").ponder);
        assert_eq!(go("go movetime 500").movetime, Some(500));
        assert_eq!(go("go mate 3").mate, Some(3));
        assert_eq!(go("go depth 1000").depth, Some(1000));
        // vampirc keeps one of ponder / infinite / movetime / clock times; all are kept.
        let p = go("go ponder wtime 100 btime 200 movetime 50 infinite depth 4");
        assert!(p.ponder && p.infinite);
        assert_eq!(
            (p.wtime, p.btime, p.movetime, p.depth),
            (Some(100), Some(200), Some(50), Some(4))
        );
        assert_eq!(go("go"), Limits::default());
        match parse("go depth 3 sideways 4") {
            Ok(Command::Go {
                limits, ignored, ..
            }) => {
                assert_eq!(limits.depth, Some(3));
                assert_eq!(ignored, vec!["sideways".to_string(), "4".to_string()]);
            }
            other => panic!("{other:?}"),
        }
    }

    proptest! {
        #[test]
        fn never_panics(line in "\\PC{0,200}") {
            // And blanks and tabs around a line change nothing.
            let padded = parse(&format!(" \t{line} \t"));
            prop_assert_eq!(parse(&line).ok(), padded.ok());
        }

        #[test]
        fn go_words_never_panic(words in proptest::collection::vec(
            prop_oneof![
                Just("wtime".to_string()), Just("btime".to_string()), Just("depth".to_string()),
                Just("movestogo".to_string()), Just("nodes".to_string()), Just("mate".to_string()),
                Just("searchmoves".to_string()), Just("infinite".to_string()),
                Just("perft".to_string()), "-?[0-9]{1,25}", "[a-h][1-8][a-h][1-8]", "[a-z]{1,6}",
            ], 0..12)) {
            let line = format!("go {}", words.join(" "));
            let perft = words.iter().any(|w| w == "perft");
            // A `go` line is a search, or (only with `perft`) a perft or an error; every
            // token it skips is one of the line's.
            match parse(&line) {
                Ok(Command::Go { ignored, .. }) => {
                    prop_assert!(ignored.iter().all(|t| words.contains(t)), "{:?}", ignored);
                }
                Ok(Command::Perft(_) | Command::PerftStats(..)) | Err(_) => {
                    prop_assert!(perft, "{}", line)
                }
                Ok(other) => prop_assert!(false, "{} read as {:?}", line, other),
            }
        }

        #[test]
        fn fen_tokens_survive(fen in "[pnbrqkPNBRQK1-8/]{1,40} [wb] [KQkqA-Ha-h-]{1,4} [a-h1-8-]{1,2}( [0-9]{1,3} [0-9]{1,3})?",
                              moves in proptest::collection::vec("[a-h][1-8][a-h][1-8][qrbn]?", 0..5)) {
            let line = if moves.is_empty() {
                format!("position fen {fen}")
            } else {
                format!("position fen {fen} moves {}", moves.join(" "))
            };
            prop_assert_eq!(
                parse(&line),
                Ok(Command::Position { start: Start::Fen(fen.clone()), moves: moves.clone() })
            );
        }

        #[test]
        fn perft_depths(depth in any::<u32>()) {
            let parsed = parse(&format!("go perft {depth}"));
            if depth <= super::super::preparse::MAX_PERFT_DEPTH {
                prop_assert_eq!(parsed, Ok(Command::Perft(depth)));
            } else {
                prop_assert!(parsed.is_err());
            }
        }
    }
}
