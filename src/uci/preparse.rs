//! The pre-parser: the one place that reads what vampirc-uci 0.11 cannot.
//!
//! vampirc-uci's grammar knows neither `go perft N` nor `d`; its FEN rule demands the
//! move counters and `KQkq` castling (no Shredder-FEN, no X-FEN files); its `go` keeps
//! only one of `ponder`, `infinite`, `movetime` and the clocks, reads at most 12 digits,
//! panics on `depth`, `mate` or `movestogo` above 255, and rejects a whole `go` for one
//! unknown word; `register name X` without a code panics inside it. So [`route`] reads
//! `d`, `eval`, `position`, `go` and `register` completely here, and hands every other command
//! to vampirc as the original line (each line is read by exactly one of the two).

use super::command::{Command, ParseError, Start};
use crate::perft::stats::Columns;
use crate::search::Limits;

/// Longest piece of a bad line quoted back in an error.
const QUOTE_MAX: usize = 60;

/// Who parses a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Route {
    /// Parsed here.
    Done(Result<Command, ParseError>),
    /// A command vampirc-uci parses from the original line (the lower-cased word).
    Vampirc(&'static str),
}

/// Commands vampirc parses for us (the first word, lower case).
const VAMPIRC_COMMANDS: [&str; 8] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "ucinewgame",
    "stop",
    "ponderhit",
    "quit",
];

/// `text` cut to [`QUOTE_MAX`] characters (with `...` when cut), for error messages.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_MAX) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

/// Decides who parses `line` and parses it if it is ours (see the module documentation).
pub fn route(line: &str) -> Route {
    let line = line.trim();
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = tokens.first() else {
        return Route::Done(Err(ParseError::Empty));
    };
    let word = first.to_ascii_lowercase();
    match word.as_str() {
        "d" => Route::Done(Ok(Command::Display)),
        "eval" => Route::Done(Ok(Command::Eval)),
        // Rookling needs no registration: any `register` line is accepted and ignored.
        "register" => Route::Done(Ok(Command::Register)),
        "position" => Route::Done(position(&tokens[1..])),
        "go" => Route::Done(go(&tokens[1..])),
        _ => match VAMPIRC_COMMANDS.iter().find(|c| **c == word) {
            Some(command) => Route::Vampirc(command),
            None => Route::Done(Err(ParseError::Unknown(quote(line)))),
        },
    }
}

fn malformed(command: &'static str, why: String) -> ParseError {
    ParseError::Malformed { command, why }
}

/// `position startpos|fen FEN [moves ...]` (the words after `position`).
fn position(args: &[&str]) -> Result<Command, ParseError> {
    let is = |t: &&str, w: &str| t.eq_ignore_ascii_case(w);
    let (start, rest) = match args.first() {
        Some(t) if is(t, "startpos") => (Start::StartPos, &args[1..]),
        Some(t) if is(t, "fen") => {
            let end = args
                .iter()
                .position(|t| is(t, "moves"))
                .unwrap_or(args.len());
            let fen = &args[1..end];
            if fen.is_empty() {
                return Err(malformed(
                    "position",
                    "'fen' must be followed by a FEN".into(),
                ));
            }
            (Start::Fen(fen.join(" ")), &args[end..])
        }
        Some(t) => {
            return Err(malformed(
                "position",
                format!("expected 'startpos' or 'fen', found '{}'", quote(t)),
            ));
        }
        None => {
            return Err(malformed(
                "position",
                "expected 'startpos' or 'fen' after 'position'".into(),
            ));
        }
    };
    let moves = match rest.first() {
        None => Vec::new(),
        Some(t) if is(t, "moves") => rest[1..].iter().map(|m| m.to_string()).collect(),
        Some(t) => {
            return Err(malformed(
                "position",
                format!("expected 'moves', found '{}'", quote(t)),
            ));
        }
    };
    Ok(Command::Position { start, moves })
}

/// `go ...` (the words after `go`): `perft N` (`perft N stats [classic|gct]`), or a
/// search.
///
/// Every number may have any length (it saturates); a negative one counts as 0.
/// `movestogo 0` means "not given", as in Stockfish. A keyword without a number, and
/// any word `go` does not know, is skipped and listed in `ignored`; the word after a
/// keyword that has no number is read on its own (it may be the next keyword:
/// `go wtime depth 2`).
fn go(args: &[&str]) -> Result<Command, ParseError> {
    if let Some(i) = args.iter().position(|t| t.eq_ignore_ascii_case("perft")) {
        let stats = args
            .get(i + 2)
            .is_some_and(|w| w.eq_ignore_ascii_case("stats"));
        let columns = match (stats, args.get(i + 3)) {
            (false, _) => None,
            (true, None) => Some(Columns::default()),
            (true, Some(word)) => Some(
                word.parse::<Columns>()
                    .map_err(|e| malformed("go perft", e.to_string()))?,
            ),
        };
        return perft(args.get(i + 1).copied(), columns);
    }
    let mut limits = Limits::default();
    let mut searchmoves = Vec::new();
    let mut ignored = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let word = args[i].to_ascii_lowercase();
        i += 1;
        match word.as_str() {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                // Every word up to the next keyword is meant as a move: those that are
                // not legal are skipped later, and the list goes on after them, as in
                // Stockfish (`searchmoves e2e5 zzzz g1f3` searches g1f3).
                let start = i;
                while i < args.len()
                    && !GO_KEYWORDS.contains(&args[i].to_ascii_lowercase().as_str())
                {
                    i += 1;
                }
                if i == start {
                    ignored.push(word);
                }
                searchmoves.extend(args[start..i].iter().map(|m| m.to_ascii_lowercase()));
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" | "nodes" | "depth" | "mate"
            | "movestogo" => {
                let Some(n) = args.get(i).and_then(|v| number(v)) else {
                    ignored.push(word);
                    continue;
                };
                i += 1;
                let small = u32::try_from(n).unwrap_or(u32::MAX);
                match word.as_str() {
                    "wtime" => limits.wtime = Some(n),
                    "btime" => limits.btime = Some(n),
                    "winc" => limits.winc = Some(n),
                    "binc" => limits.binc = Some(n),
                    "movetime" => limits.movetime = Some(n),
                    "nodes" => limits.nodes = Some(n),
                    "depth" => limits.depth = Some(small),
                    "mate" => limits.mate = Some(small),
                    _ => limits.movestogo = (small > 0).then_some(small),
                }
            }
            _ => ignored.push(quote(args[i - 1])),
        }
    }
    Ok(Command::Go {
        limits,
        searchmoves,
        ignored,
    })
}

/// The words `go` knows: each ends a `searchmoves` list.
const GO_KEYWORDS: [&str; 12] = [
    "searchmoves",
    "infinite",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movetime",
    "nodes",
    "depth",
    "mate",
    "movestogo",
];

/// A `go` number: digits of any length (saturating at `u64::MAX`), negative ones as 0.
fn number(text: &str) -> Option<u64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if negative {
        return Some(0);
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}

/// The deepest `go perft` accepted. Deeper counts could never finish, and the recursion
/// (one stack frame per ply, depth first) would overflow the thread's stack within a
/// second; depths above about 20 are accepted only to run until `stop`.
pub const MAX_PERFT_DEPTH: u32 = crate::perft::MAX_DEPTH;

/// `go perft` of `depth`, with statistics in `columns` if any.
fn perft(depth: Option<&str>, columns: Option<Columns>) -> Result<Command, ParseError> {
    let Some(text) = depth else {
        return Err(malformed(
            "go perft",
            "a depth is needed: go perft N".into(),
        ));
    };
    match text.parse::<u32>() {
        Ok(depth) if depth <= MAX_PERFT_DEPTH => Ok(match columns {
            Some(columns) => Command::PerftStats(depth, columns),
            None => Command::Perft(depth),
        }),
        _ => Err(malformed(
            "go perft",
            format!(
                "the depth must be a whole number from 0 to {MAX_PERFT_DEPTH}, not '{}'",
                quote(text)
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limits, searchmoves and ignored words of a `go` line.
    fn go_line(line: &str) -> (Limits, Vec<String>, Vec<String>) {
        match route(line) {
            Route::Done(Ok(Command::Go {
                limits,
                searchmoves,
                ignored,
            })) => (limits, searchmoves, ignored),
            other => panic!("{line}: routed to {other:?}"),
        }
    }

    #[test]
    fn go_numbers_saturate_and_negatives_count_as_zero() {
        let (l, _, ignored) =
            go_line("go wtime -5 btime 123456789012345678901 depth 99999999999 foo movestogo x");
        assert_eq!(l.wtime, Some(0));
        assert_eq!(l.btime, Some(u64::MAX));
        assert_eq!(l.depth, Some(u32::MAX));
        assert_eq!(l.movestogo, None);
        assert_eq!(
            ignored,
            vec!["foo".to_string(), "movestogo".to_string(), "x".to_string()]
        );
        let (l, _, _) = go_line("go depth -5 nodes -1 mate -2 movestogo 0 movetime -3");
        assert_eq!(
            (l.depth, l.nodes, l.mate, l.movestogo, l.movetime),
            (Some(0), Some(0), Some(0), None, Some(0))
        );
        let (l, _, ignored) = go_line("go wtime depth 2");
        assert_eq!((l.wtime, l.depth), (None, Some(2)));
        assert_eq!(ignored, vec!["wtime".to_string()]);
    }

    #[test]
    fn go_keeps_every_word_vampirc_would_drop() {
        let (l, moves, ignored) =
            go_line("GO Infinite ponder movetime 50 wtime 100 searchmoves E2E4 d2d4 bogus");
        assert!(l.infinite && l.ponder);
        assert_eq!((l.movetime, l.wtime), (Some(50), Some(100)));
        assert_eq!(moves, ["e2e4", "d2d4", "bogus"]);
        assert!(ignored.is_empty());
        let (l, moves, ignored) = go_line("go searchmoves e2e5 zzzz e7e5 g1f3 a1a1 depth 4 x");
        assert_eq!(moves, ["e2e5", "zzzz", "e7e5", "g1f3", "a1a1"]);
        assert_eq!(l.depth, Some(4));
        assert_eq!(ignored, ["x"]);
        let (_, moves, ignored) = go_line("go searchmoves depth 3");
        assert!(moves.is_empty());
        assert_eq!(ignored, ["searchmoves"]);
    }

    #[test]
    fn routes_our_commands() {
        assert_eq!(route(" \t "), Route::Done(Err(ParseError::Empty)));
        assert_eq!(route("d"), Route::Done(Ok(Command::Display)));
        assert_eq!(route("EVAL"), Route::Done(Ok(Command::Eval)));
        assert_eq!(route("register name x"), Route::Done(Ok(Command::Register)));
        assert_eq!(route("go perft 0"), Route::Done(Ok(Command::Perft(0))));
        let stats = Route::Done(Ok(Command::PerftStats(3, Columns::Classic)));
        assert_eq!(route("go perft 3 stats"), stats);
        assert_eq!(route("go perft 3 STATS"), stats);
        assert_eq!(route("go perft 3 stats classic"), stats);
        let gct = Route::Done(Ok(Command::PerftStats(3, Columns::Gct)));
        assert_eq!(route("go perft 3 stats gct"), gct);
        assert_eq!(route("go perft 3 STATS GCT extra"), gct);
        assert!(matches!(
            route("go perft 3 stats wiki"),
            Route::Done(Err(ParseError::Malformed { why, .. })) if why.contains("'wiki'")
        ));
        assert_eq!(
            route("go perft 3 divide"),
            Route::Done(Ok(Command::Perft(3)))
        );
        assert!(matches!(route("go perft stats"), Route::Done(Err(_))));
        assert!(matches!(route("go perft -1"), Route::Done(Err(_))));
        assert!(matches!(route("go perft"), Route::Done(Err(_))));
        assert!(matches!(route("go perft 99999999999"), Route::Done(Err(_))));
        assert_eq!(route("IsReady"), Route::Vampirc("isready"));
        assert!(matches!(
            route("foo bar"),
            Route::Done(Err(ParseError::Unknown(_)))
        ));
    }

    #[test]
    fn long_lines_are_quoted_short() {
        let long = "x".repeat(1_000_000);
        match route(&long) {
            Route::Done(Err(ParseError::Unknown(q))) => assert!(q.len() < 100),
            other => panic!("{other:?}"),
        }
    }
}
