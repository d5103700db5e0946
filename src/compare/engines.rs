//! The engines the tools compare: a UCI engine, a perftree script, or Rookling's own
//! generator in this process (the built-in reference, exact and always there). Each
//! answers one question, the divide of a depth at a position given as a FEN and moves.

use crate::board::{MoveKind, Position};
use crate::client::{Divide, Engine, EngineError, EngineErrorKind, EngineSpec, Script};
use crate::movegen::{parse_move, play_moves};
use std::time::Duration;

/// The name that selects the built-in reference (`--reference rookling`).
pub const BUILTIN: &str = "rookling";

/// Which engine an ENGINE argument names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Rookling's generator, in this process.
    Builtin,
    /// A program speaking UCI (`go perft`).
    Uci(EngineSpec),
    /// A perftree script (`perftree:COMMAND`), run once per divide.
    Perftree(EngineSpec),
}

/// A started engine, and whether castling is written king-takes-rook.
pub struct PerftEngine {
    engine: Running,
    chess960: bool,
}

/// The engine itself.
enum Running {
    /// Rookling's generator, in this process.
    Builtin,
    /// A UCI engine.
    Uci(Engine),
    /// A perftree script.
    Script(Script),
}

impl PerftEngine {
    /// Starts the engine `choice` names (for UCI: the handshake, `UCI_Chess960` set to
    /// `chess960`), each request given `timeout`.
    pub fn start(choice: &Choice, chess960: bool, timeout: Duration) -> Result<Self, EngineError> {
        let engine = match choice {
            Choice::Builtin => Running::Builtin,
            Choice::Uci(spec) => Running::Uci(Engine::start(spec, chess960, timeout)?),
            Choice::Perftree(spec) => Running::Script(Script::new(spec.clone(), timeout)),
        };
        Ok(Self { engine, chess960 })
    }

    /// The engine as reports name it: the name the user gave, with the name a UCI
    /// engine gave itself.
    pub fn label(&self) -> String {
        match &self.engine {
            Running::Builtin => format!("{BUILTIN} (built-in: this program's generator)"),
            Running::Uci(engine) => match engine.id() {
                Some(id) if id != engine.name() => format!("{} ({id})", engine.name()),
                _ => engine.name().to_string(),
            },
            Running::Script(script) => format!("{} (perftree script)", script.name()),
        }
    }

    /// The name the user gave the engine.
    pub fn name(&self) -> &str {
        match &self.engine {
            Running::Builtin => BUILTIN,
            Running::Uci(engine) => engine.name(),
            Running::Script(script) => script.name(),
        }
    }

    /// Switches Chess960 castling notation on or off (UCI: `UCI_Chess960`). A perftree
    /// script has no such setting: it reads the castling field of the FEN.
    pub fn set_chess960(&mut self, on: bool) -> Result<(), EngineError> {
        if let Running::Uci(engine) = &mut self.engine {
            engine.set_chess960(on)?;
        }
        self.chess960 = on;
        Ok(())
    }

    /// The divide of `depth` (at least 1) at the position `moves` lead to from `fen`.
    /// Castling an engine spells in the other notation (`e1g1` where `e1h1` is
    /// expected, as perftree scripts checked against Stockfish do in Chess960) is
    /// renamed, so that only a real difference in the moves is reported.
    pub fn perft(
        &mut self,
        fen: &str,
        moves: &[String],
        depth: u32,
    ) -> Result<Divide, EngineError> {
        let divide = match &mut self.engine {
            Running::Builtin => return builtin_divide(fen, moves, depth, self.chess960),
            Running::Uci(engine) => engine.perft(fen, moves, depth)?,
            Running::Script(script) => script.perft(fen, moves, depth)?,
        };
        Ok(normalize_castling(divide, fen, moves, self.chess960))
    }
}

/// `divide` with castling moves written in the notation of the position (king-takes-rook
/// in Chess960, else the king's two-square move). Moves that are not legal, and
/// renamings that would collide, are left as they are.
fn normalize_castling(mut divide: Divide, fen: &str, moves: &[String], chess960: bool) -> Divide {
    let Ok(mut pos) = Position::from_fen(fen) else {
        return divide;
    };
    pos.set_chess960(chess960 || pos.is_chess960());
    if play_moves(&mut pos, moves).is_err() {
        return divide;
    }
    let chess960 = pos.is_chess960();
    let renames: Vec<(String, String)> = divide
        .moves
        .keys()
        .filter_map(|text| {
            let mv = parse_move(&pos, text).ok()?;
            let canonical = mv.to_uci(chess960);
            (mv.kind() == MoveKind::Castling && canonical != *text)
                .then(|| (text.clone(), canonical))
        })
        .collect();
    for (text, canonical) in renames {
        if !divide.moves.contains_key(&canonical)
            && let Some(count) = divide.moves.remove(&text)
        {
            divide.moves.insert(canonical, count);
        }
    }
    divide
}

/// The built-in reference's divide: Rookling's perft, castling spelt king-takes-rook
/// when `chess960` is set or the FEN asks for it.
fn builtin_divide(
    fen: &str,
    moves: &[String],
    depth: u32,
    chess960: bool,
) -> Result<Divide, EngineError> {
    let refuse = |reason: String| EngineError {
        engine: BUILTIN.to_string(),
        kind: EngineErrorKind::Refused {
            command: format!("perft {depth}"),
            reason,
        },
    };
    let mut pos = Position::from_fen(fen).map_err(|e| refuse(format!("invalid FEN: {e}")))?;
    if chess960 {
        pos.set_chess960(true);
    }
    play_moves(&mut pos, moves).map_err(|e| refuse(e.to_string()))?;
    let chess960 = pos.is_chess960();
    let mut divide = Divide::default();
    for (mv, count) in crate::perft::divide(&pos, depth) {
        let count = u64::try_from(count).map_err(|_| refuse("a count past 2^64".into()))?;
        divide.moves.insert(mv.to_uci(chess960), count);
        divide.total += count;
    }
    Ok(divide)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_divides_in_either_notation() {
        let mut engine = PerftEngine::start(&Choice::Builtin, false, Duration::from_secs(1))
            .expect("always starts");
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let divide = engine.perft(fen, &[], 2).expect("valid");
        assert_eq!(divide.total, 568);
        assert!(divide.moves.contains_key("e1g1"));
        engine.set_chess960(true).expect("in process");
        let divide = engine.perft(fen, &["e1h1".into()], 1).expect("valid");
        // White castled short: the rook on f1 bars black's short castling, not the long.
        assert!(divide.moves.contains_key("e8a8"), "{divide:?}");
        assert!(!divide.moves.contains_key("e8h8"), "{divide:?}");
        let e = engine.perft(fen, &["e1e3".into()], 1).expect_err("illegal");
        assert!(e.to_string().contains("illegal move 'e1e3'"), "{e}");
        assert!(engine.label().starts_with("rookling (built-in"));
    }

    #[test]
    fn castling_in_the_other_notation_is_renamed() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let mut divide = Divide::default();
        divide.moves.insert("e1g1".to_string(), 5);
        divide.moves.insert("e1f1".to_string(), 6);
        let renamed = normalize_castling(divide, fen, &[], true);
        assert_eq!(renamed.moves.get("e1h1"), Some(&5));
        assert_eq!(renamed.moves.get("e1f1"), Some(&6));
        let back = normalize_castling(renamed, fen, &[], false);
        assert_eq!(back.moves.get("e1g1"), Some(&5));
    }
}
