//! Bad input never crashes, hangs or half-applies: each fault gets one `info string`
//! line (or none, for blank lines) and the previous position stays.

mod common;

use common::Uci;
use std::path::Path;

fn rookling() -> Uci {
    Uci::start(Path::new(env!("CARGO_BIN_EXE_rookling")))
}

/// The FEN `d` shows.
fn fen(engine: &mut Uci) -> String {
    engine.send("d");
    let lines = engine.read_until(|l| l.starts_with("Checkers:"));
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .expect("a Fen line")
        .to_string()
}

/// Sends `line` and returns what came back before `readyok`.
fn answer(engine: &mut Uci, line: &str) -> Vec<String> {
    engine.send(line);
    engine.sync()
}

const BEFORE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn bad_positions_keep_the_previous_one() {
    let mut engine = rookling();
    let cases = [
        // Malformed FENs.
        "position fen",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
        "position fen rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999999",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 e2e4",
        // Impossible positions.
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4KK2 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        "position fen 4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
        "position fen 4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1",
        // Illegal or malformed moves (the error names the move and its index).
        "position startpos moves e2e5",
        "position startpos moves e2e4 e7e5 e1g1",
        "position startpos moves e2e4 zz",
        "position startpos moves e2e4 e7e5 g1f3 b8c6 e2e4",
        "position startpos moves e7e5",
        "position startpos moves e2e4 e7e5 e4e5",
        "position startpos moves e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7 e8f7",
        "position startpos moves e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7 a7a6",
        "position startpos moves a2a4 b7b5 a4b5 c7c5 b5c6 d7d6 c6c7 d8d7 c7b8 d7d8",
        "position startpos moves a2a4 b7b5 a4b5 c7c5 b5c6 d7d6 c6c7 d8d7 c7b8k",
        "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1c1",
        "position startpos moves",
        // Malformed commands.
        "position",
        "position startpos e2e4",
        "position somewhere",
        "position fen moves e2e4",
    ];
    for case in cases {
        engine.send(&format!("position fen {BEFORE}"));
        let lines = answer(&mut engine, case);
        if case == "position startpos moves" {
            assert!(lines.is_empty(), "{case}: {lines:?}");
            assert_eq!(fen(&mut engine), common_start());
            continue;
        }
        assert_eq!(lines.len(), 1, "{case}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: "),
            "{case}: {lines:?}"
        );
        assert_eq!(fen(&mut engine), BEFORE, "{case}");
    }
    // The faulty move is named, with its place in the list.
    let lines = answer(&mut engine, "position startpos moves e2e4 e7e5 e4e5");
    assert!(
        lines[0].contains("move 3") && lines[0].contains("e4e5"),
        "{lines:?}"
    );
}

fn common_start() -> String {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string()
}

#[test]
fn unusual_but_valid_positions_are_accepted() {
    let mut engine = rookling();
    let cases = [
        // No move counters.
        (
            "position fen 4k3/8/8/8/8/8/8/4K2R w K -",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ),
        // Shredder-FEN castling turns Chess960 spelling on for the position.
        (
            "position fen 1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1 moves e1b1",
            "1r2k1r1/8/8/8/8/8/8/2KR2R1 b gb - 1 1",
        ),
        // Tabs, extra spaces, upper-case keywords.
        (
            "  position\tstartpos   MOVES\te2e4  ",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ),
        // Castling written king-takes-rook in standard mode, and e1g1.
        (
            "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1 e8c8",
            "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2",
        ),
        // Moves in upper case, promotion letter included.
        (
            "position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves A7A8Q",
            "Q3k3/8/8/8/8/8/8/4K3 b - - 0 1",
        ),
        // Windows line ending.
        (
            "position startpos moves d2d4\r",
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        ),
    ];
    for (line, want) in cases {
        assert!(answer(&mut engine, line).is_empty(), "{line}");
        assert_eq!(fen(&mut engine), want, "{line}");
    }
}

#[test]
fn garbage_lines_are_answered_and_survived() {
    let mut engine = rookling();
    engine.send(&format!("position fen {BEFORE}"));
    for blank in ["", "   ", "\t\t", " \t \t "] {
        assert!(answer(&mut engine, blank).is_empty(), "{blank:?}");
    }
    for unknown in ["hello", "uciok", "bestmove e2e4", "xyzzy 1 2 3", "perft 3"] {
        let lines = answer(&mut engine, unknown);
        assert_eq!(lines, [format!("info string unknown command: {unknown}")]);
    }
    for bad in [
        "go perft",
        "go perft -1",
        "go perft x",
        "go perft 256",
        "go perft 4294967295",
        "go perft 4294967296",
        "go perft 99999999999999999999999999",
    ] {
        let lines = answer(&mut engine, bad);
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: "),
            "{bad}: {lines:?}"
        );
    }
    // Bytes that are not UTF-8, inside and instead of a command.
    engine.send_bytes(b"\xff\xfe\xfd\n");
    assert_eq!(engine.sync().len(), 1);
    engine.send_bytes(b"position startpos moves e2e4 \xc3\x28\n");
    let lines = engine.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(fen(&mut engine), BEFORE);
    // A 1 MB line.
    let long = "x".repeat(1 << 20);
    let lines = answer(&mut engine, &long);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].len() < 200, "the error quotes the line short");
    let long_moves = format!(
        "position startpos moves {}",
        "g1f3 g8f6 f3g1 f6g8 ".repeat(16_000)
    );
    assert!(answer(&mut engine, &long_moves).is_empty());
    assert_eq!(
        fen(&mut engine),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 64000 32001"
    );
    // `go` with words it does not know: the known ones still count, the rest is reported.
    engine.send("position startpos");
    engine.send("go depth 1 sideways 3");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert!(lines[0].starts_with("info string "), "{lines:?}");
    assert!(lines.last().is_some_and(|l| l.len() > "bestmove ".len()));
    engine.send("go perft 1");
    let lines = engine.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.len(), 22, "{lines:?}");
    assert_eq!(lines[21], "Nodes searched: 20");
}

/// A small deterministic generator (no dependency needed for a stress test).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.next() as usize % items.len()]
    }
}

#[test]
fn thousands_of_random_lines_then_a_correct_perft() {
    let words = [
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "perft",
        "stop",
        "isready",
        "d",
        "setoption",
        "name",
        "value",
        "Hash",
        "Threads",
        "UCI_Chess960",
        "PerftHash",
        "Move",
        "Overhead",
        "Clear",
        "true",
        "false",
        "ucinewgame",
        "ponderhit",
        "debug",
        "on",
        "wtime",
        "btime",
        "depth",
        "nodes",
        "movetime",
        "infinite",
        "searchmoves",
        "e2e4",
        "e7e5",
        "e1g1",
        "a7a8q",
        "0",
        "1",
        "2",
        "-1",
        "99999999999999999999",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "w",
        "b",
        "KQkq",
        "-",
        "HAha",
        "4k3/8/8/8/8/8/8/4K2R",
        "8/8/8/8/8/8/8/8",
        "\t",
        "uci",
        "register",
        "later",
    ];
    let mut rng = Lcg(0x5eed_0004);
    let mut engine = rookling();
    for _ in 0..3000 {
        let mut line = Vec::new();
        for _ in 0..rng.next() % 9 {
            if rng.next().is_multiple_of(10) {
                // Random bytes, line breaks excluded.
                line.extend((0..rng.next() % 6).map(|_| (rng.next() % 255) as u8 + 1));
                line.retain(|&b| b != b'\n' && b != b'\r');
            } else {
                line.extend_from_slice(rng.pick(&words).as_bytes());
            }
            line.push(b' ');
        }
        let text = String::from_utf8_lossy(&line).to_ascii_lowercase();
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.first() {
            Some(&"quit") => continue,
            // `stop` ends the current job only: searches are kept short (no `infinite`,
            // no `ponder`, at most depth 2) so that none is left running at the end.
            Some(&"go") if !words.contains(&"perft") => {
                let kept: Vec<&str> = words
                    .iter()
                    .copied()
                    .filter(|w| !["infinite", "ponder", "depth"].contains(w))
                    .collect();
                line = format!("{} depth 2", kept.join(" ")).into_bytes();
            }
            _ => {}
        }
        line.push(b'\n');
        engine.send_bytes(&line);
        if rng.next().is_multiple_of(50) {
            engine.send("stop");
        }
    }
    engine.send("stop");
    engine.sync();
    engine.send("stop");
    engine.send("setoption name UCI_Chess960 value false");
    engine.send(&format!("position fen {BEFORE}"));
    engine.send("go perft 3");
    let lines = engine.read_until(|l| l == "Nodes searched: 97862");
    let divide: Vec<&String> = lines
        .iter()
        .rev()
        .skip(2)
        .take_while(|l| l.contains(": ") && !l.starts_with("info"))
        .collect();
    assert_eq!(divide.len(), 48, "{lines:?}");
    assert_eq!(fen(&mut engine), BEFORE);
}
