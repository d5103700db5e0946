//! Syzygy endgame tablebases: the exact result (win, draw or loss) of positions with few
//! pieces, and the distance to the next capture or pawn move that keeps it.
//!
//! Probing is done by the `pyrrhic-rs` crate (pure Rust, MIT, a translation of the C
//! prober Fathom), which takes the engine's attack sets (`adapter.rs`); the files are
//! found and checked here (`files`). The prober keeps its tables in process-wide
//! state, so the tables are too: [`load`] replaces them for the whole process, and the
//! probes read them under a lock that only [`load`] takes for writing.
//!
//! Values are from the side to move's point of view. A WDL probe gives the result as if
//! the position had just been reached by a capture or pawn move (half-move clock 0);
//! [`probe_root`] takes the position's clock into account.

mod adapter;
pub mod files;

use crate::board::{Color, Move, PieceType, Position, Square};
use crate::movegen::legal_moves;
use adapter::Adapter;
pub use files::Found;
use pyrrhic_rs::{DtzProbeValue, TableBases, WdlProbeResult};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, RwLock};

/// A game-theoretic result, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost.
    Loss,
    /// Lost, but the fifty-move rule saves it: a draw.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but the fifty-move rule comes first: a draw.
    CursedWin,
    /// Won.
    Win,
}

impl Wdl {
    /// -2 (loss) to 2 (win).
    pub const fn signed(self) -> i32 {
        self as i32 - 2
    }

    /// The name Fathom prints (`Win`, `CursedWin`, `Draw`, `BlessedLoss`, `Loss`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Loss => "Loss",
            Self::BlessedLoss => "BlessedLoss",
            Self::Draw => "Draw",
            Self::CursedWin => "CursedWin",
            Self::Win => "Win",
        }
    }

    fn from_probe(value: WdlProbeResult) -> Self {
        match value {
            WdlProbeResult::Loss => Self::Loss,
            WdlProbeResult::BlessedLoss => Self::BlessedLoss,
            WdlProbeResult::Draw => Self::Draw,
            WdlProbeResult::CursedWin => Self::CursedWin,
            WdlProbeResult::Win => Self::Win,
        }
    }

    /// The sign of a distance with this result: 1 for wins, -1 for losses, 0 for draws.
    const fn sign(self) -> i32 {
        match self {
            Self::Loss | Self::BlessedLoss => -1,
            Self::Draw => 0,
            Self::CursedWin | Self::Win => 1,
        }
    }
}

/// A result and its distance to zeroing, in plies: positive when winning, negative when
/// losing, 0 when drawn (as Fathom and Stockfish count it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dtz {
    /// The result, the half-move clock taken into account.
    pub wdl: Wdl,
    /// Plies to the next capture or pawn move of the best play (signed; see above).
    pub dtz: i32,
}

/// The DTZ probe of a root position: its own result and each legal move's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootProbe {
    /// The position's result and distance.
    pub position: Dtz,
    /// Every legal move with the result and distance after it, counted from the root
    /// (the move's ply included; a mating move has distance 1).
    pub moves: Vec<(Move, Dtz)>,
}

/// The tables in use.
struct Loaded {
    prober: TableBases<Adapter>,
    /// The material signatures of the tables with a WDL file, both colourings.
    materials: HashSet<u64>,
}

/// The tables in use (`None`: no tables).
static TABLES: RwLock<Option<Loaded>> = RwLock::new(None);
/// The most pieces of a loaded table (0: none), read without the lock.
static LARGEST: AtomicU32 = AtomicU32::new(0);
/// Root probes one at a time: the prober does not promise they may run concurrently.
static ROOT_PROBE: Mutex<()> = Mutex::new(());

/// Replaces the tables in use by those in the directories of `path` (`:`-separated on
/// Unix, `;` on Windows; empty or `<empty>` for none) and says what was found. Probes
/// wait while the tables change; a directory that cannot be used is left out, and the
/// others are still used.
pub fn load(path: &str) -> Found {
    let mut found = files::scan(path);
    let mut tables = TABLES.write().unwrap_or_else(|e| e.into_inner());
    LARGEST.store(0, Ordering::Release);
    // The prober allows one instance: the old tables go before the new ones come.
    *tables = None;
    if found.dirs.is_empty() || found.wdl_count() == 0 {
        return found;
    }
    match TableBases::<Adapter>::new(found.dirs.join(":")) {
        Ok(prober) => {
            let materials = found
                .tables
                .values()
                .filter(|(_, f)| f.wdl)
                .flat_map(|(m, _)| [signature(m[0], m[1]), signature(m[1], m[0])])
                .collect();
            *tables = Some(Loaded { prober, materials });
            LARGEST.store(found.largest(), Ordering::Release);
        }
        Err(e) => {
            found
                .problems
                .push(format!("the tablebase prober could not start ({e:?})"));
            found.tables.clear();
            found.dirs.clear();
        }
    }
    found
}

/// The most pieces of a table in use (0 when none is loaded).
#[inline]
pub fn largest() -> u32 {
    LARGEST.load(Ordering::Relaxed)
}

/// A material signature: the counts of queens to pawns of white, then of black.
fn signature(white: [u8; 5], black: [u8; 5]) -> u64 {
    white
        .iter()
        .chain(black.iter())
        .fold(0, |key, &n| key << 4 | u64::from(n))
}

/// The counts of queens, rooks, bishops, knights and pawns of `color`.
fn counts(pos: &Position, color: Color) -> [u8; 5] {
    [
        PieceType::Queen,
        PieceType::Rook,
        PieceType::Bishop,
        PieceType::Knight,
        PieceType::Pawn,
    ]
    .map(|kind| pos.colored(color, kind).count().min(15) as u8)
}

/// The position's bitboards in the prober's order, when a loaded table covers it: no
/// castling rights, few enough pieces, its material among the tables.
fn boards(pos: &Position, loaded: &Loaded) -> Option<[u64; 8]> {
    if pos.castling().bits() != 0 || pos.occupied().count() > largest() {
        return None;
    }
    let key = signature(counts(pos, Color::White), counts(pos, Color::Black));
    if !loaded.materials.contains(&key) {
        return None;
    }
    let kind = |k| pos.pieces(k).0;
    Some([
        pos.color(Color::White).0,
        pos.color(Color::Black).0,
        kind(PieceType::King),
        kind(PieceType::Queen),
        kind(PieceType::Rook),
        kind(PieceType::Bishop),
        kind(PieceType::Knight),
        kind(PieceType::Pawn),
    ])
}

/// A DTZ probe's value as a result and a signed distance, with the move it is for.
fn dtz(value: &DtzProbeValue) -> Option<(pyrrhic_rs::DtzResult, Dtz)> {
    match value {
        DtzProbeValue::DtzResult(d) => {
            let wdl = Wdl::from_probe(d.wdl);
            let dtz = wdl.sign() * i32::from(d.dtz);
            Some((*d, Dtz { wdl, dtz }))
        }
        _ => None,
    }
}

/// The en passant square as the prober takes it (0: none).
fn ep(pos: &Position) -> u32 {
    pos.en_passant().map_or(0, |sq| sq.index() as u32)
}

/// The WDL value of `pos` as if its half-move clock were 0; `None` when no loaded table
/// covers it (or the probe fails).
pub fn probe_wdl(pos: &Position) -> Option<Wdl> {
    if largest() == 0 {
        return None;
    }
    let tables = TABLES.read().unwrap_or_else(|e| e.into_inner());
    let loaded = tables.as_ref()?;
    let [w, b, k, q, r, bi, n, p] = boards(pos, loaded)?;
    let white = pos.side_to_move() == Color::White;
    let result = loaded
        .prober
        .probe_wdl(w, b, k, q, r, bi, n, p, ep(pos), white)
        .ok()?;
    Some(Wdl::from_probe(result))
}

/// The DTZ probe of `pos` and of each of its legal moves, the half-move clock taken
/// into account; `None` when no loaded table covers it, a DTZ file is missing, or `pos`
/// has no legal move.
pub fn probe_root(pos: &Position) -> Option<RootProbe> {
    if largest() == 0 {
        return None;
    }
    let legal = legal_moves(pos);
    if legal.is_empty() {
        return None;
    }
    let tables = TABLES.read().unwrap_or_else(|e| e.into_inner());
    let loaded = tables.as_ref()?;
    let [w, b, k, q, r, bi, n, p] = boards(pos, loaded)?;
    let white = pos.side_to_move() == Color::White;
    let clock = pos.halfmove_clock().min(255);
    let result = {
        let _one = ROOT_PROBE.lock().unwrap_or_else(|e| e.into_inner());
        loaded
            .prober
            .probe_root(w, b, k, q, r, bi, n, p, clock, ep(pos), white)
            .ok()?
    };
    let (_, position) = dtz(&result.root)?;
    let mut moves = Vec::with_capacity(legal.len());
    for value in result.moves.iter().take(result.num_moves) {
        let (d, after) = dtz(value)?;
        let (from, to) = (
            Square::new(d.from_square & 63),
            Square::new(d.to_square & 63),
        );
        let promotion = match d.promotion {
            pyrrhic_rs::Piece::Queen => Some(PieceType::Queen),
            pyrrhic_rs::Piece::Rook => Some(PieceType::Rook),
            pyrrhic_rs::Piece::Bishop => Some(PieceType::Bishop),
            pyrrhic_rs::Piece::Knight => Some(PieceType::Knight),
            _ => None,
        };
        let mv = legal
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && m.promotion_piece() == promotion)?;
        moves.push((mv, after));
    }
    // Every legal move, each once: otherwise the prober and the engine disagree on the
    // position, and nothing it says is used.
    let distinct: HashSet<Move> = moves.iter().map(|&(mv, _)| mv).collect();
    (moves.len() == legal.len() && distinct.len() == legal.len())
        .then_some(RootProbe { position, moves })
}
