//! The pre-parser: the one place that handles what vampirc-uci 0.11 does not.
//!
//! vampirc-uci's grammar knows neither `go perft N` nor `d`; its FEN rule demands the
//! move counters and `KQkq` castling (no Shredder-FEN, no X-FEN files); its `go` numbers
//! are at most 12 digits (3 for `depth`, `mate`, `movestogo`, which it stores in a `u8`
//! with an `unwrap` that panics above 255), and one unknown word makes it reject a whole
//! `go`. So [`route`] looks at each line first and either answers it itself (`d`,
//! `position`, `go perft`, unknown words) or hands vampirc a line it can parse (a `go`
//! rewritten with clamped numbers and without the words it would choke on).

use super::command::{Command, GoParams, ParseError, Start};

/// Longest piece of a bad line quoted back in an error.
const QUOTE_MAX: usize = 60;

/// Largest number vampirc reads for times and nodes (12 digits).
const MAX_12_DIGITS: u64 = 999_999_999_999;

/// Largest number vampirc stores for `depth`, `mate` and `movestogo` (a `u8`).
const MAX_U8: u64 = 255;

/// What to do with a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Route {
    /// Parsed here.
    Done(Result<Command, ParseError>),
    /// For vampirc-uci: a line its grammar accepts, and the `go` words dropped from it.
    Vampirc {
        /// The line to give vampirc.
        line: String,
        /// The lower-cased command word.
        command: &'static str,
        /// Words of a `go` that were ignored.
        ignored: Vec<String>,
        /// `go` parameters read here: vampirc keeps only one of `ponder`, `infinite`,
        /// `movetime` and the clock times (one enum), so these three never reach it.
        preset: GoParams,
    },
}

/// Commands vampirc parses for us (the first word, lower case).
const VAMPIRC_COMMANDS: [&str; 9] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
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

/// Decides who parses `line` (see the module documentation).
pub fn route(line: &str) -> Route {
    let line = line.trim();
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = tokens.first() else {
        return Route::Done(Err(ParseError::Empty));
    };
    let word = first.to_ascii_lowercase();
    match word.as_str() {
        "d" => Route::Done(Ok(Command::Display)),
        "position" => Route::Done(position(&tokens[1..])),
        "go" => go(&tokens[1..]),
        _ => match VAMPIRC_COMMANDS.iter().find(|c| **c == word) {
            Some(command) => Route::Vampirc {
                line: line.to_string(),
                command,
                ignored: Vec::new(),
                preset: GoParams::default(),
            },
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

/// `go ...` (the words after `go`): `perft N` here, the rest rewritten for vampirc.
fn go(args: &[&str]) -> Route {
    if let Some(i) = args.iter().position(|t| t.eq_ignore_ascii_case("perft")) {
        return Route::Done(perft(args.get(i + 1).copied()));
    }
    let mut line = String::from("go");
    let mut ignored = Vec::new();
    let mut preset = GoParams::default();
    let mut i = 0;
    while i < args.len() {
        let word = args[i].to_ascii_lowercase();
        i += 1;
        let max = match word.as_str() {
            "infinite" => {
                preset.infinite = true;
                continue;
            }
            "ponder" => {
                preset.ponder = true;
                continue;
            }
            "searchmoves" => {
                let start = i;
                while i < args.len() && is_move_shaped(args[i]) {
                    i += 1;
                }
                if i == start {
                    ignored.push(word);
                } else {
                    line.push_str(" searchmoves");
                    for mv in &args[start..i] {
                        line.push(' ');
                        line.push_str(&mv.to_ascii_lowercase());
                    }
                }
                continue;
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" => Some(MAX_12_DIGITS),
            "nodes" => Some(MAX_12_DIGITS),
            "depth" | "mate" | "movestogo" => Some(MAX_U8),
            _ => None,
        };
        let Some(max) = max else {
            ignored.push(quote(args[i - 1]));
            continue;
        };
        let value = args.get(i).and_then(|v| number(v, &word));
        match value {
            Some(n) if word == "movetime" => {
                i += 1;
                preset.movetime = Some(n);
            }
            Some(n) => {
                i += 1;
                line.push_str(&format!(" {word} {}", n.min(max)));
            }
            // Not a number: only the keyword is dropped; the next word is read on its own
            // (it may be the next keyword: `go wtime depth 2`).
            None => ignored.push(word),
        }
    }
    Route::Vampirc {
        line,
        command: "go",
        ignored,
        preset,
    }
}

/// A `go` number: digits of any length (saturating); a negative time counts as 0.
fn number(text: &str, word: &str) -> Option<u64> {
    let is_time = matches!(word, "wtime" | "btime" | "winc" | "binc" | "movetime");
    let (negative, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if negative {
        return is_time.then_some(0);
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}

/// Whether `text` looks like a UCI move (vampirc's `a_move`).
fn is_move_shaped(text: &str) -> bool {
    let b = text.to_ascii_lowercase().into_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
}

/// The deepest `go perft` accepted. Deeper counts could never finish, and the recursion
/// (one stack frame per ply, depth first) would overflow the thread's stack within a
/// second; depths above about 20 are accepted only to run until `stop`.
pub const MAX_PERFT_DEPTH: u32 = crate::perft::MAX_DEPTH;

/// The depth of `go perft`.
fn perft(depth: Option<&str>) -> Result<Command, ParseError> {
    let Some(text) = depth else {
        return Err(malformed(
            "go perft",
            "a depth is needed: go perft N".into(),
        ));
    };
    match text.parse::<u32>() {
        Ok(depth) if depth <= MAX_PERFT_DEPTH => Ok(Command::Perft(depth)),
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

    fn vampirc_line(line: &str) -> (String, Vec<String>) {
        match route(line) {
            Route::Vampirc { line, ignored, .. } => (line, ignored),
            other => panic!("{line}: routed to {other:?}"),
        }
    }

    #[test]
    fn go_is_rewritten_for_vampirc() {
        let (line, ignored) =
            vampirc_line("go wtime -5 btime 12345678901234567890 depth 999 foo movestogo x");
        assert_eq!(line, "go wtime 0 btime 999999999999 depth 255");
        assert_eq!(
            ignored,
            vec!["foo".to_string(), "movestogo".to_string(), "x".to_string()]
        );
        let (line, ignored) = vampirc_line("go wtime depth 2");
        assert_eq!(line, "go depth 2");
        assert_eq!(ignored, vec!["wtime".to_string()]);
        let (line, ignored) = vampirc_line("GO Infinite searchmoves E2E4 d2d4 bogus");
        assert_eq!(line, "go searchmoves e2e4 d2d4");
        assert_eq!(ignored, vec!["bogus".to_string()]);
    }

    #[test]
    fn routes_our_commands() {
        assert_eq!(route(" \t "), Route::Done(Err(ParseError::Empty)));
        assert_eq!(route("d"), Route::Done(Ok(Command::Display)));
        assert_eq!(route("go perft 0"), Route::Done(Ok(Command::Perft(0))));
        assert!(matches!(route("go perft -1"), Route::Done(Err(_))));
        assert!(matches!(route("go perft"), Route::Done(Err(_))));
        assert!(matches!(route("go perft 99999999999"), Route::Done(Err(_))));
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
