//! Bad input never crashes, hangs or half-applies: each fault gets one `info string`
//! line (or none, for blank lines) and the previous position stays. Every script runs
//! interactively and through a closed pipe ([`common::session::both`]).

use crate::common;

use common::session::{PerftAnswer, Transcript, both, both_with_stops};

/// For each `line` of `cases`, sent as `prefix`, `line`, `isready`, `d`: what came back
/// before `readyok` and the FEN `d` showed after it.
fn per_case(cases: &[&str], prefix: &[&str]) -> [Vec<(Vec<String>, String)>; 2] {
    let mut script = Vec::new();
    for case in cases {
        script.extend_from_slice(prefix);
        script.extend([*case, "isready", "d"]);
    }
    both(&script).map(|t| answers(&t))
}

/// The (lines before `readyok`, FEN of the next `d`) pairs of a transcript.
fn answers(t: &Transcript) -> Vec<(Vec<String>, String)> {
    let mut found = Vec::new();
    let mut said = Vec::new();
    // Collecting what a case said, or inside the board of the `d` after it.
    let mut in_board = false;
    for line in &t.lines {
        if line == "readyok" {
            in_board = true;
        } else if !in_board {
            said.push(line.clone());
        } else if let Some(fen) = line.strip_prefix("Fen: ") {
            found.push((std::mem::take(&mut said), fen.to_string()));
        } else if line.starts_with("Checkers:") {
            in_board = false;
        }
    }
    found
}

const BEFORE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn bad_positions_keep_the_previous_one() {
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
    let before = format!("position fen {BEFORE}");
    for run in per_case(&cases, &[&before]) {
        assert_eq!(run.len(), cases.len());
        for (case, (lines, fen)) in cases.iter().zip(run) {
            if *case == "position startpos moves" {
                assert!(lines.is_empty(), "{case}: {lines:?}");
                assert_eq!(fen, common_start());
                continue;
            }
            assert_eq!(lines.len(), 1, "{case}: {lines:?}");
            assert!(
                lines[0].starts_with("info string error: "),
                "{case}: {lines:?}"
            );
            assert_eq!(fen, BEFORE, "{case}");
            // The faulty move is named, with its place in the list.
            if *case == "position startpos moves e2e4 e7e5 e4e5" {
                assert!(
                    lines[0].contains("move 3") && lines[0].contains("e4e5"),
                    "{lines:?}"
                );
            }
        }
    }
}

fn common_start() -> String {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string()
}

#[test]
fn unusual_but_valid_positions_are_accepted() {
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
    let lines: Vec<&str> = cases.iter().map(|(line, _)| *line).collect();
    for run in per_case(&lines, &[]) {
        for ((line, want), (said, fen)) in cases.iter().zip(run) {
            assert!(said.is_empty(), "{line}: {said:?}");
            assert_eq!(fen, *want, "{line}");
        }
    }
}

#[test]
fn garbage_lines_are_answered_and_survived() {
    let before = format!("position fen {BEFORE}");
    let blanks = ["", "   ", "\t\t", " \t \t "];
    let unknown = ["hello", "uciok", "bestmove e2e4", "xyzzy 1 2 3", "perft 3"];
    let bad_perfts = [
        "go perft",
        "go perft -1",
        "go perft x",
        "go perft 256",
        "go perft 4294967295",
        "go perft 4294967296",
        "go perft 99999999999999999999999999",
    ];
    let long = "x".repeat(1 << 20);
    let long_moves = format!(
        "position startpos moves {}",
        "g1f3 g8f6 f3g1 f6g8 ".repeat(16_000)
    );
    // Each case followed by `isready`, then `d` where the position matters.
    let mut script: Vec<Vec<u8>> = vec![before.clone().into_bytes()];
    let mut add = |line: &[u8]| {
        script.push(line.to_vec());
        script.push(b"isready".to_vec());
    };
    for line in blanks.iter().chain(&unknown).chain(&bad_perfts) {
        add(line.as_bytes());
    }
    // Bytes that are not UTF-8, instead of and inside a command.
    add(b"\xff\xfe\xfd");
    add(b"position startpos moves e2e4 \xc3\x28");
    add(b"d");
    // A 1 MB line, then a long but valid one.
    add(long.as_bytes());
    add(long_moves.as_bytes());
    add(b"d");
    // `go` with words it does not know: the known ones still count, the rest is reported.
    add(b"position startpos");
    add(b"go depth 1 sideways 3");
    add(b"go perft 1");
    for t in both_with_stops(&script) {
        let mut chunks = t.lines.split(|l| l == "readyok");
        for blank in blanks {
            assert_eq!(chunks.next(), Some(&[][..]), "{blank:?}");
        }
        for word in unknown {
            let said = chunks.next().expect("an answer");
            assert_eq!(said, [format!("info string unknown command: {word}")]);
        }
        for bad in bad_perfts {
            let said = chunks.next().expect("an answer");
            assert_eq!(said.len(), 1, "{bad}: {said:?}");
            assert!(
                said[0].starts_with("info string error: "),
                "{bad}: {said:?}"
            );
        }
        assert_eq!(chunks.next().map(<[String]>::len), Some(1), "not UTF-8");
        assert_eq!(
            chunks.next().map(<[String]>::len),
            Some(1),
            "not UTF-8 inside"
        );
        let board = chunks.next().expect("d");
        assert!(board.contains(&format!("Fen: {BEFORE}")), "{board:?}");
        let said = chunks.next().expect("an answer");
        assert_eq!(said.len(), 1, "the 1 MB line");
        assert!(said[0].len() < 200, "the error quotes the line short");
        assert_eq!(chunks.next(), Some(&[][..]), "the long valid line");
        let board = chunks.next().expect("d");
        assert!(
            board.contains(
                &"Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 64000 32001"
                    .to_string()
            ),
            "{board:?}"
        );
        let ignored = t.info_strings();
        assert!(
            ignored
                .iter()
                .any(|l| l.starts_with("go: ignored 'sideways 3'")),
            "{ignored:?}"
        );
        assert_eq!(t.bestmoves().len(), 1);
        assert_eq!(t.totals(), [20]);
    }
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
    let mut script: Vec<Vec<u8>> = Vec::new();
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
        script.push(line);
        if rng.next().is_multiple_of(50) {
            script.push(b"stop".to_vec());
        }
    }
    for line in [
        "stop".to_string(),
        "isready".into(),
        "stop".into(),
        "setoption name UCI_Chess960 value false".into(),
        format!("position fen {BEFORE}"),
        "go perft 3".into(),
        "d".into(),
    ] {
        script.push(line.into_bytes());
    }
    for t in both_with_stops(&script) {
        let last = t.perfts().pop();
        match last {
            Some(PerftAnswer::Counted(divide, 97_862)) => assert_eq!(divide.len(), 48),
            other => panic!("{:?}: the last perft: {other:?}", t.mode),
        }
        assert!(t.lines.contains(&format!("Fen: {BEFORE}")), "{:?}", t.mode);
    }
}
