//! The property each fuzz target checks, one function per target, taking the raw input.
//! A failed property panics with the case (FEN, move, line) it failed on. The same
//! functions replay the committed corpus in the main crate's tests
//! (`tests/integration/fuzz_corpus.rs`).

use super::decode;
use super::reference::{Board, RefMove};
use rookling::board::{Color, Position};
use rookling::movegen::{count_legal, legal_moves, parse_move, tactical_moves};
use rookling::perft::epd::parse_epd;
use rookling::perft::units::{Merger, Origin, Split, Unit, UnitResult, split};
use rookling::perft::{PerftOptions, divide, divide_with, perft};
use rookling::uci::command::Start;
use rookling::uci::{Command, Engine, parse};
use std::cell::RefCell;
use std::sync::atomic::AtomicBool;

/// Inputs longer than this are cut (longer ones only slow the fuzzer down).
const MAX_INPUT: usize = 4096;

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(&data[..data.len().min(MAX_INPUT)]).into_owned()
}

/// `fen`: a FEN the parser accepts describes the position written (placement, side,
/// counters, castling rights, en passant kept exactly when a pawn can take), prints
/// back to a FEN that parses to the same position and key, and has consistent move
/// counts.
pub fn fen(data: &[u8]) {
    let text = text(data);
    let pos = match Position::from_fen(&text) {
        Ok(pos) => pos,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    prints_back(&pos);
    let fields: Vec<&str> = text.split_whitespace().collect();
    let mut rank = 7i32;
    let mut file = 0i32;
    for c in fields[0].chars() {
        match c {
            '/' => {
                rank -= 1;
                file = 0;
            }
            '1'..='8' => file += c as i32 - '0' as i32,
            _ => {
                let sq = rookling::board::Square::from_coords(file as u8, rank as u8);
                let piece = pos.piece_on(sq);
                assert!(!piece.is_none() && piece.char() == c, "{text}: {c} on {sq}");
                file += 1;
            }
        }
    }
    assert_eq!(
        pos.occupied().count() as usize,
        fields[0].chars().filter(char::is_ascii_alphabetic).count(),
        "{text}"
    );
    let side = if fields[1] == "w" {
        Color::White
    } else {
        Color::Black
    };
    assert_eq!(pos.side_to_move(), side, "{text}");
    let rights = if fields[2] == "-" { 0 } else { fields[2].len() };
    assert_eq!(
        pos.castling().bits().count_ones() as usize,
        rights,
        "{text}"
    );
    let board = Board::of(&pos);
    let ep = rookling::board::Square::parse(fields[3]).filter(|&ep| {
        let behind = if side == Color::White { -8 } else { 8 };
        [-1i8, 1].iter().any(|&df| {
            let f = ep.file() as i8 + df;
            (0..8).contains(&f)
                && board.squares[(ep.index() as i8 + behind + df) as usize]
                    == Some((side, rookling::board::PieceType::Pawn))
        })
    });
    assert_eq!(pos.en_passant(), ep, "{text}");
    if let Some(halfmove) = fields.get(4) {
        assert_eq!(halfmove.parse().ok(), Some(pos.halfmove_clock()), "{text}");
    }
    if let Some(fullmove) = fields.get(5) {
        let n: u64 = fullmove
            .parse()
            .unwrap_or_else(|e| panic!("{text}: accepted fullmove: {e}"));
        assert_eq!(n.max(1), u64::from(pos.fullmove_number()), "{text}");
    }
    assert_eq!(count_legal(&pos), legal_moves(&pos).len() as u64, "{text}");
}

/// `pos` prints to a FEN that parses back to the same position (key included), which
/// prints to the same FEN; its key is the one computed from scratch.
fn prints_back(pos: &Position) {
    let printed = pos.to_fen();
    assert_eq!(pos.key(), pos.compute_key(), "{printed}: incremental key");
    let again = Position::from_fen(&printed)
        .unwrap_or_else(|e| panic!("{printed}: printed FEN refused: {e}"));
    assert!(
        same(&again, pos),
        "{printed}: printed FEN parses to another position"
    );
    assert_eq!(again.to_fen(), printed);
}

/// Whether `a` and `b` are the same position as far as anything can tell: pieces, side,
/// castling rights and their rooks, en passant, counters, key, and castling spelling
/// while there is castling to spell (a FEN without rights cannot say it). (`Position`'s derived `==` also compares what its castling tables keep for rights
/// no longer held, which no move or count depends on.)
pub fn same(a: &Position, b: &Position) -> bool {
    let spelling = a.castling().bits() == 0 || a.is_chess960() == b.is_chess960();
    Board::of(a) == Board::of(b) && a.key() == b.key() && spelling
}

/// Every check of one position's moves: the generator agrees with the reference (every
/// generated move is legal, every legal move generated, no duplicates), the counter and
/// the tactical generator agree with the list, each move reads back from its UCI
/// spelling, and make plays exactly the reference's move and unmake restores all.
pub fn moves_of(pos: &Position) {
    let fen = pos.to_fen();
    let board = Board::of(pos);
    let list = legal_moves(pos);
    let mut ours: Vec<RefMove> = list.iter().map(|&mv| RefMove::of(mv)).collect();
    ours.sort();
    let mut reference = board.legal_moves();
    reference.sort();
    if ours != reference {
        let extra: Vec<_> = ours.iter().filter(|m| !reference.contains(m)).collect();
        let missing: Vec<_> = reference.iter().filter(|m| !ours.contains(m)).collect();
        panic!("{fen}: generated but illegal {extra:?}; legal but not generated {missing:?}");
    }
    assert!(ours.windows(2).all(|w| w[0] != w[1]), "{fen}: a move twice");
    assert_eq!(count_legal(pos), list.len() as u64, "{fen}: count_legal");
    assert_eq!(pos.in_check(), board.in_check(), "{fen}: in_check");

    let theirs = pos.color(pos.side_to_move().flip());
    let tactical: Vec<_> = list
        .iter()
        .copied()
        .filter(|mv| {
            let capture = theirs.has(mv.to()) || RefMove::of(*mv).en_passant;
            let promotion = mv.promotion_piece();
            capture || promotion == Some(rookling::board::PieceType::Queen)
        })
        .collect();
    let mut got: Vec<_> = tactical_moves(pos).iter().copied().collect();
    got.sort_by_key(|m| m.bits());
    let mut want = tactical;
    want.sort_by_key(|m| m.bits());
    assert_eq!(got, want, "{fen}: tactical moves");

    let chess960 = pos.is_chess960();
    for &mv in list.iter() {
        let uci = mv.to_uci(chess960);
        assert_eq!(
            parse_move(pos, &uci),
            Ok(mv),
            "{fen}: {uci} does not read back"
        );
        let mut next = pos.clone();
        let undo = next.make(mv);
        assert_eq!(next.key(), next.compute_key(), "{fen}: key after {uci}");
        assert_eq!(
            Board::of(&next),
            board.play(RefMove::of(mv)),
            "{fen}: position after {uci}"
        );
        next.unmake(mv, &undo);
        assert_eq!(&next, pos, "{fen}: unmake {uci}");
    }
}

/// `movegen`: along a walk of up to 12 plies from the decoded start, every position
/// prints back ([`prints_back`]) and passes [`moves_of`].
pub fn movegen(data: &[u8]) {
    let Some((pos, choices)) = decode::start(data) else {
        return;
    };
    decode::walk(pos, choices, 12, |pos| {
        prints_back(pos);
        moves_of(pos);
    });
}

/// `perft_modes`: perft of depth 1 to 3 of a decoded position agrees between plain,
/// threads, hash and threads with hash (divide by divide), with `perft`, and (to depth
/// 2) with the reference generator.
pub fn perft_modes(data: &[u8]) {
    let Some((start, rest)) = decode::start(data) else {
        return;
    };
    let (&depth, choices) = rest.split_first().unwrap_or((&0, &[]));
    let depth = 1 + u32::from(depth % 3);
    let mut pos = start;
    decode::walk(pos.clone(), choices, 16, |p| pos = p.clone());
    let fen = pos.to_fen();
    let mut plain = divide(&pos, depth);
    plain.sort_by_key(|(mv, _)| mv.bits());
    let total: u128 = plain.iter().map(|(_, n)| n).sum();
    assert_eq!(perft(&pos, depth), total, "{fen} depth {depth}");
    let never = AtomicBool::new(false);
    for (threads, hash_mb) in [(2, 0), (1, 1), (2, 1)] {
        let options = PerftOptions { threads, hash_mb };
        let mut other = divide_with(&pos, depth, &options, &never)
            .unwrap_or_else(|| panic!("{fen}: stopped without a stop"));
        other.sort_by_key(|(mv, _)| mv.bits());
        assert_eq!(
            other, plain,
            "{fen} depth {depth}, {threads} threads, {hash_mb} MB"
        );
    }
    if depth <= 2 {
        assert_eq!(
            u128::from(Board::of(&pos).perft(depth)),
            total,
            "{fen} depth {depth}: reference"
        );
    }
}

/// A line that parses to `command`, for the commands whose spelling is unambiguous.
fn spell(command: &Command) -> Option<String> {
    Some(match command {
        Command::Uci => "uci".into(),
        Command::Debug(on) => format!("debug {}", if *on { "on" } else { "off" }),
        Command::IsReady => "isready".into(),
        Command::UciNewGame => "ucinewgame".into(),
        Command::Stop => "stop".into(),
        Command::PonderHit => "ponderhit".into(),
        Command::Quit => "quit".into(),
        Command::Display => "d".into(),
        Command::Perft(depth) => format!("go perft {depth}"),
        Command::PerftStats(depth, columns) => format!("go perft {depth} stats {columns}"),
        Command::Position { start, moves } => {
            let mut line = match start {
                Start::StartPos => "position startpos".to_string(),
                Start::Fen(fen) => format!("position fen {fen}"),
            };
            if !moves.is_empty() {
                line = format!("{line} moves {}", moves.join(" "));
            }
            line
        }
        _ => return None,
    })
}

/// `uci_line`: parsing never panics and is a function of the line; a parsed command's
/// FEN and moves are single words as the GUI wrote them; a command spelled back
/// ([`spell`]) parses to itself; a refusal says something.
pub fn uci_line(data: &[u8]) {
    for line in text(data).lines() {
        let parsed = parse(line);
        assert_eq!(parse(line), parsed, "{line:?}: parsed twice differently");
        match &parsed {
            Err(e) => assert!(
                line.trim().is_empty() || !e.to_string().is_empty(),
                "{line:?}: silent refusal"
            ),
            Ok(command) => {
                if let Command::Position { start, moves } = command {
                    if let Start::Fen(fen) = start {
                        assert_eq!(fen.split_whitespace().collect::<Vec<_>>().join(" "), *fen);
                        assert!(!fen.is_empty(), "{line:?}: empty FEN");
                    }
                    assert!(
                        moves
                            .iter()
                            .all(|m| !m.is_empty() && !m.contains(char::is_whitespace))
                    );
                }
                if let Some(spelled) = spell(command) {
                    assert_eq!(
                        parse(&spelled).as_ref(),
                        Ok(command),
                        "{line:?} spelled {spelled:?}"
                    );
                }
            }
        }
    }
}

thread_local! {
    /// One engine per fuzzing process: starting its worker for every input would
    /// cost more than the input itself.
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

/// What the engine's position must be, worked out apart from the engine.
struct Model {
    pos: Position,
    chess960_option: bool,
    fen_chess960: bool,
}

impl Model {
    /// The position `position` names, or `None` when it must be refused.
    fn position(&self, start: &Start, moves: &[String]) -> Option<(Position, bool)> {
        let mut pos = match start {
            Start::StartPos => Position::startpos(),
            Start::Fen(fen) => Position::from_fen(fen).ok()?,
        };
        let fen_chess960 = pos.is_chess960();
        pos.set_chess960(fen_chess960 || self.chess960_option);
        for text in moves {
            let mv = parse_move(&pos, &text.to_ascii_lowercase()).ok()?;
            pos.play(mv);
        }
        Some((pos, fen_chess960))
    }
}

/// `uci_session`: lines applied in order to one engine state (searches, perfts, `quit`
/// and the options that size tables or threads are left out: they do not touch the
/// position and would only slow the fuzzer); after each, the engine's position is the
/// one worked out independently: a refused `position` leaves the previous one, an
/// accepted one is exactly the FEN plus the moves, `ucinewgame` is the start position,
/// `UCI_Chess960` switches castling spelling only.
///
/// Then the same lines go through the whole UCI loop as a closed pipe gives them (all
/// at once, then end of input), with searches made short (`go depth 1`, keeping their
/// place) and perfts shallow (at most 2 plies), and every answer owed must come: one
/// `uciok` per `uci`, one `readyok` per `isready`, one `bestmove` per `go`, one count
/// (or `perft stopped`, after a `stop`) per `go perft`.
pub fn uci_session(data: &[u8]) {
    positions_follow_the_model(data);
    piped_input_is_answered(data);
}

/// The lines of `data`, made quick to answer, and what they are owed: (`uciok`,
/// `readyok`, `bestmove`, perft answers). `quit` and the options that size tables or
/// threads are left out.
fn quick_script(data: &[u8]) -> (String, [usize; 4]) {
    let mut script = String::new();
    let mut owed = [0; 4];
    for line in text(data).lines().take(64) {
        let line = match parse(line) {
            Ok(Command::Quit) => continue,
            Ok(Command::SetOption { name, .. }) if heavy(&name) => continue,
            Ok(Command::Uci) => {
                owed[0] += 1;
                line.to_string()
            }
            Ok(Command::IsReady) => {
                owed[1] += 1;
                line.to_string()
            }
            Ok(Command::Go { .. }) => {
                owed[2] += 1;
                "go depth 1".to_string()
            }
            Ok(Command::Perft(depth)) => {
                owed[3] += 1;
                format!("go perft {}", depth.min(2))
            }
            Ok(Command::PerftStats(depth, columns)) => {
                owed[3] += 1;
                format!("go perft {} stats {columns}", depth.min(2))
            }
            _ => line.to_string(),
        };
        script.push_str(&line);
        script.push('\n');
    }
    (script, owed)
}

/// Whether setting option `name` allocates a table or starts threads.
fn heavy(name: &str) -> bool {
    let name = name.trim();
    ["Hash", "Threads", "PerftHash", "Clear Hash"]
        .iter()
        .any(|h| h.eq_ignore_ascii_case(name))
}

/// The piped half of [`uci_session`].
fn piped_input_is_answered(data: &[u8]) {
    let (script, owed) = quick_script(data);
    let captured = rookling::uci::Captured::default();
    rookling::uci::run(
        std::io::Cursor::new(script.clone().into_bytes()),
        rookling::uci::Output::new(captured.clone()),
    );
    let text = captured.text();
    let count = |f: &dyn Fn(&str) -> bool| text.lines().filter(|l| f(l)).count();
    let got = [
        count(&|l| l == "uciok"),
        count(&|l| l == "readyok"),
        count(&|l| l.starts_with("bestmove ")),
        count(&|l| l.starts_with("Nodes searched: ") || l == "info string perft stopped"),
    ];
    assert_eq!(
        got, owed,
        "answers (uciok, readyok, bestmove, perft) to {script:?}:\n{text}"
    );
}

/// The in-process half of [`uci_session`].
fn positions_follow_the_model(data: &[u8]) {
    ENGINE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let engine = match &mut *slot {
            Some(engine) => engine,
            None => slot.insert(
                Engine::new(rookling::uci::Output::new(std::io::sink())).expect("a worker thread"),
            ),
        };
        let reset = [
            "position startpos",
            "setoption name UCI_Chess960 value false",
        ];
        for line in reset {
            engine.handle(parse(line).expect("a valid command"));
        }
        let mut model = Model {
            pos: Position::startpos(),
            chess960_option: false,
            fen_chess960: false,
        };
        for line in text(data).lines().take(64) {
            let command = match parse(line) {
                Ok(command) => command,
                Err(e) => {
                    engine.refuse(&e);
                    assert!(same(engine.position(), &model.pos), "{line:?}");
                    continue;
                }
            };
            match &command {
                Command::Go { .. }
                | Command::Perft(_)
                | Command::PerftStats(..)
                | Command::Quit => {
                    continue;
                }
                Command::SetOption { name, value } => {
                    let name = name.trim();
                    if heavy(name) {
                        continue;
                    }
                    if name.eq_ignore_ascii_case("UCI_Chess960") {
                        match value.as_deref().map(str::trim) {
                            Some(v) if v.eq_ignore_ascii_case("true") => {
                                model.chess960_option = true
                            }
                            Some(v) if v.eq_ignore_ascii_case("false") => {
                                model.chess960_option = false
                            }
                            _ => {}
                        }
                        model
                            .pos
                            .set_chess960(model.chess960_option || model.fen_chess960);
                    }
                }
                Command::UciNewGame => {
                    model.pos = Position::startpos();
                    model.pos.set_chess960(model.chess960_option);
                    model.fen_chess960 = false;
                }
                Command::Position { start, moves } => {
                    if let Some((pos, fen_chess960)) = model.position(start, moves) {
                        model.pos = pos;
                        model.fen_chess960 = fen_chess960;
                    }
                }
                _ => {}
            }
            engine.handle(command);
            let pos = engine.position();
            assert!(
                same(pos, &model.pos),
                "after {line:?}: {} instead of {}",
                pos.to_fen(),
                model.pos.to_fen()
            );
            assert_eq!(pos.key(), pos.compute_key(), "after {line:?}");
        }
    });
}

/// `epd`: a suite the reader accepts names real lines, in order, whose FEN parses to
/// the entry's position; depths are at least 1 and no depth has two counts; written
/// back as text it reads to the same entries; an error names a line of the text.
pub fn epd(data: &[u8]) {
    let text = text(data);
    let lines: Vec<&str> = text.lines().collect();
    let entries = match parse_epd(&text) {
        Ok(entries) => entries,
        Err(e) => {
            // An error without a line is a text that holds no position at all.
            if let Some(line) = e.line() {
                assert!((1..=lines.len()).contains(&line), "{text:?}: {e}");
            }
            assert!(e.at("suite.epd").starts_with("suite.epd:"), "{text:?}: {e}");
            return;
        }
    };
    assert!(
        !entries.is_empty(),
        "{text:?}: a suite with nothing to check accepted"
    );
    let mut previous = 0;
    let mut written = String::new();
    for entry in &entries {
        assert!(
            entry.line > previous && entry.line <= lines.len(),
            "{text:?}"
        );
        previous = entry.line;
        assert!(
            lines[entry.line - 1].trim().starts_with(&entry.fen),
            "{text:?}"
        );
        let pos = Position::from_fen(&entry.fen).expect("an accepted FEN");
        assert_eq!(pos, entry.position, "{text:?}");
        for (i, &(depth, count)) in entry.counts.iter().enumerate() {
            assert!(depth >= 1, "{text:?}");
            let conflict = entry.counts[..i]
                .iter()
                .any(|&(d, c)| d == depth && c != count);
            assert!(
                !conflict,
                "{text:?}: depth {depth} with two counts accepted"
            );
        }
        written += &entry.fen;
        for (depth, count) in &entry.counts {
            written += &format!(" ;D{depth} {count}");
        }
        written.push('\n');
    }
    let again = parse_epd(&written).unwrap_or_else(|e| panic!("{written:?}: {e}"));
    let strip = |e: &Vec<_>| -> Vec<_> {
        e.iter()
            .map(|x: &rookling::perft::epd::EpdEntry| {
                (x.fen.clone(), x.position.clone(), x.counts.clone())
            })
            .collect()
    };
    assert_eq!(strip(&again), strip(&entries), "{text:?}");
}

/// `units`: a unit or result line that parses prints back to a line that parses to the
/// same thing; a result's nodes are a multiple of its multiplicity; the merger sums
/// exactly the lines it accepts and refuses the same line twice.
pub fn units(data: &[u8]) {
    let text = text(data);
    let mut merger = Merger::new();
    let mut sum: u128 = 0;
    let mut accepted = 0;
    for (i, line) in text.lines().enumerate() {
        if let Ok((unit, pos)) = Unit::parse(line) {
            let again = Unit::parse(&unit.line()).unwrap_or_else(|e| panic!("{line:?}: {e}"));
            assert_eq!(again, (unit.clone(), pos.clone()), "{line:?}");
            assert_eq!(Position::from_fen(&unit.fen).ok(), Some(pos), "{line:?}");
        }
        let parsed = UnitResult::parse(line);
        if let Ok(result) = &parsed {
            assert_eq!(
                UnitResult::parse(&result.line()).as_ref(),
                Ok(result),
                "{line:?}"
            );
            assert_eq!(
                result.nodes % u128::from(result.unit.multiplicity),
                0,
                "{line:?}"
            );
        }
        let origin = Origin {
            source: "fuzz".to_string(),
            line: i + 1,
        };
        if merger.add(line, origin.clone()).is_ok() && !line.trim().is_empty() {
            let result = parsed.unwrap_or_else(|e| panic!("{line:?}: merged but {e}"));
            sum += result.nodes;
            accepted += 1;
            assert!(merger.add(line, origin).is_err(), "{line:?}: merged twice");
        }
    }
    // A merge gives a total only for a whole split; then it is exactly what was accepted.
    match merger.finish() {
        Ok(merged) => assert_eq!(merged.total, sum, "{text:?}"),
        Err(_) => assert!(accepted == 0 || merger.units() == accepted, "{text:?}"),
    }
    assert_eq!(merger.units(), accepted, "{text:?}");
}

/// The most leaves a `merge` split may cut the tree at: its units (at most this many)
/// can then each be chosen by an input byte, and every input stays quick.
const MERGE_UNITS: u128 = 32;

/// The most positions the whole count of a `merge` input may visit above its last ply
/// (perft's work: the last ply is counted, not made).
const MERGE_WORK: u128 = 2_000;

/// `merge`: a split of a decoded position (depth 1 to 4, ply 0 to 3, so transposed
/// units with a multiplicity above 1 occur) is counted unit by unit; the bytes then
/// choose the result lines the merger gets: all of them in order or not, some left out,
/// some twice, some spelled otherwise (move counters, blanks around fields, upper-case
/// digests, CRLF), blank lines, and results of two other splits of the same position
/// (the same cut with one more ply to count below it; the cut one ply higher). The merge gives a total exactly
/// when the lines are one whole split, each of its units once and nothing else (the
/// merger follows the first line's split and refuses any other): for this split that
/// total is the position's perft; for another one (its lines count 0) it is 0.
///
/// The depth and the ply asked for are lowered until the count visits at most
/// [`MERGE_WORK`] positions and the cut has at most [`MERGE_UNITS`] leaves: a few
/// thousand executions a second, each split small enough for every unit to be chosen.
pub fn merge(data: &[u8]) {
    let Some((pos, rest)) = decode::start(data) else {
        return;
    };
    let (&shape, choices) = rest.split_first().unwrap_or((&0, &[]));
    // perfts[k] is the perft of depth k; each is computed only while the one before it
    // (the positions its count visits above the last ply) is within the work limit.
    let mut perfts = vec![1u128];
    let wanted = 1 + usize::from(shape % 4);
    while perfts.len() <= wanted && perfts[perfts.len() - 1] <= MERGE_WORK {
        perfts.push(perft(&pos, perfts.len() as u32));
    }
    let depth = (perfts.len() - 1).min(wanted);
    let mut ply = usize::from(shape >> 2 & 3).min(depth);
    while perfts[ply] > MERGE_UNITS {
        ply -= 1;
    }
    let (depth, ply) = (depth as u32, ply as u32);
    let fen = pos.to_fen();
    let units = split(&pos, depth, ply).unwrap_or_else(|e| panic!("{fen}: split: {e}"));
    if units.is_empty() {
        return;
    }
    let results: Vec<String> = units
        .iter()
        .map(|unit| {
            let (parsed, at) =
                Unit::parse(&unit.line()).unwrap_or_else(|e| panic!("{fen}: unit: {e}"));
            assert_eq!(&parsed, unit, "{fen}: a unit line reads back");
            let nodes = perft(&at, unit.depth);
            let result = UnitResult::new(parsed, nodes).expect("no overflow at depth 4");
            result.line()
        })
        .collect();
    // Other splits of the same position (small: at most MERGE_UNITS units each), made
    // only when a byte asks for their lines (count 0, a multiple of any multiplicity),
    // which must never join this split. A byte picks one of the first 32 lines: a shape
    // bit decides which split comes first, so every unit of either can be picked.
    let others = if choices.iter().take(64).any(|b| b & 7 == 6) {
        let deeper = split(&pos, depth + 1, ply).unwrap_or_default();
        let higher = match ply {
            0 => Vec::new(),
            _ => split(&pos, depth, ply - 1).unwrap_or_default(),
        };
        let (first, second) = if shape & 0x10 == 0 {
            (deeper, higher)
        } else {
            (higher, deeper)
        };
        first.into_iter().chain(second).collect()
    } else {
        Vec::new()
    };
    let mut given = vec![0usize; units.len()];
    let mut given_others = vec![0usize; others.len()];
    let mut lines = Vec::new();
    if shape & 0x80 != 0 {
        lines.extend(results.iter().cloned());
        given.iter_mut().for_each(|n| *n += 1);
    }
    for &b in choices.iter().take(64) {
        let i = usize::from(b >> 3) % units.len();
        match b & 7 {
            0..=3 => {
                lines.push(results[i].clone());
                given[i] += 1;
            }
            4 | 5 => {
                lines.push(respell(&results[i], b));
                given[i] += 1;
            }
            6 if !others.is_empty() => {
                let j = usize::from(b >> 3) % others.len();
                lines.push(format!("0;{}", others[j].line()));
                given_others[j] += 1;
            }
            _ => lines.push(["", "  ", "\t", "\r"][usize::from(b >> 3) % 4].to_string()),
        }
    }
    let mut merger = Merger::new();
    let accepted = lines.iter().enumerate().all(|(n, line)| {
        let origin = Origin {
            source: "fuzz".to_string(),
            line: n + 1,
        };
        merger.add(line, origin).is_ok()
    });
    // How often each unit of each split came; the merge must give a total exactly when
    // the lines are one whole split, each unit once. That is this split (its total is
    // the perft) or, given alone, another one (its lines count 0): the merger cannot
    // know which split was meant, only that one came whole.
    let mut splits = vec![(units[0].split, given)];
    for (unit, &n) in others.iter().zip(&given_others) {
        match splits.iter_mut().find(|(split, _)| *split == unit.split) {
            Some((_, times)) => times.push(n),
            None => splits.push((unit.split, vec![n])),
        }
    }
    let came: Vec<&(Split, Vec<usize>)> = splits
        .iter()
        .filter(|(_, times)| times.iter().any(|&n| n > 0))
        .collect();
    let whole = match came[..] {
        [(split, times)] if times.iter().all(|&n| n == 1) => Some(*split),
        _ => None,
    };
    // The case, described only when a property fails.
    let what = || {
        let odd: Vec<&String> = lines.iter().filter(|l| !results.contains(l)).collect();
        let given: Vec<String> = splits
            .iter()
            .map(|(split, times)| format!("{split}: {times:?}"))
            .collect();
        format!(
            "{fen} depth {depth} ply {ply}: {} lines for {} units, given {given:?}, \
             besides the exact results {odd:?}",
            lines.len(),
            units.len()
        )
    };
    match merger.finish().ok().filter(|_| accepted) {
        Some(merged) => {
            let Some(split) = whole else {
                panic!("{}: merged although no split came whole, once", what());
            };
            assert_eq!(merged.split, split, "{}", what());
            let total = if split == units[0].split {
                perfts[depth as usize]
            } else {
                0
            };
            assert_eq!(merged.total, total, "{}", what());
        }
        None => assert!(whole.is_none(), "{}: a whole split, refused", what()),
    }
}

/// `line` (a result line) spelled another way that means the same: other move counters
/// or none, blanks around the fields, upper-case digests, a CR at the end (by `how`).
fn respell(line: &str, how: u8) -> String {
    let fields: Vec<&str> = line.split(';').collect();
    let mut out: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
    if how & 0x08 != 0 {
        let words: Vec<&str> = fields[1].split_whitespace().collect();
        out[1] = if how & 0x10 != 0 {
            words[..4].join(" ")
        } else {
            let fullmove = u32::from(how) * 7 + 1;
            format!("{} {how} {fullmove}", words[..4].join(" "))
        };
    }
    if how & 0x20 != 0 {
        // The digests (16 hex digits) in upper case.
        for field in &mut out[4..] {
            let words: Vec<String> = field
                .split(' ')
                .map(|w| {
                    let digest = w.len() == 16 && w.bytes().all(|b| b.is_ascii_hexdigit());
                    if digest {
                        w.to_uppercase()
                    } else {
                        w.to_string()
                    }
                })
                .collect();
            *field = words.join(" ");
        }
    }
    let separator = if how & 0x40 != 0 { " ; " } else { ";" };
    let mut text = out.join(separator);
    if how & 0x80 != 0 {
        text.push('\r');
    }
    text
}
