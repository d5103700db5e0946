//! Every pruning, reduction and window constant of the search, in one place, named, for
//! tuning. Depths are in plies, margins in centipawns (the evaluation's unit).
//!
//! The values are hand-set (issue 6); changing one changes the bench signature
//! (`rookling bench`), which a test pins.

/// Reverse futility pruning (static null move): a node is cut when its static
/// evaluation beats beta by a margin that grows with the depth left, up to this depth.
pub const RFP_MAX_DEPTH: i32 = 7;
/// Reverse futility margin per ply of depth left.
pub const RFP_MARGIN: i32 = 80;
/// Taken off the reverse futility margin (per ply) when the evaluation is improving.
pub const RFP_IMPROVING_BONUS: i32 = 20;

/// Null move pruning: the least depth left at which a null move is tried.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null move base reduction (plies).
pub const NMP_BASE: i32 = 3;
/// One more ply of null move reduction per this many plies of depth left.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// One more ply of null move reduction per this many centipawns above beta...
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// ...up to this many plies.
pub const NMP_EVAL_MAX: i32 = 3;

/// Razoring: up to this depth, a node whose evaluation is far below alpha goes
/// straight to quiescence.
pub const RAZOR_MAX_DEPTH: i32 = 2;
/// Razoring margin per ply of depth left.
pub const RAZOR_MARGIN: i32 = 250;

/// ProbCut: from this depth left, a non-PV node is cut when a capture beats beta by
/// [`PROBCUT_MARGIN`] in quiescence and then in a search [`PROBCUT_REDUCTION`] plies
/// shallower.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// See [`PROBCUT_MIN_DEPTH`] (centipawns above beta).
pub const PROBCUT_MARGIN: i32 = 200;
/// See [`PROBCUT_MIN_DEPTH`] (plies).
pub const PROBCUT_REDUCTION: i32 = 4;

/// Internal iterative reduction: a node this deep without a hash move is searched one
/// ply shallower (it is cheap to redo once the table knows a move).
pub const IIR_MIN_DEPTH: i32 = 5;

/// Captures losing material by static exchange are pruned up to this depth...
pub const SEE_PRUNE_MAX_DEPTH: i32 = 6;
/// ...when they lose more than this many centipawns per ply of depth left.
pub const SEE_PRUNE_MARGIN: i32 = 100;

/// Late move pruning: up to this depth, quiet moves after the first
/// `(LMP_BASE + depth²) / (2 - improving)` are skipped.
pub const LMP_MAX_DEPTH: i32 = 6;
/// Late move pruning base count.
pub const LMP_BASE: i32 = 3;

/// Futility pruning of quiet moves: up to this depth...
pub const FUTILITY_MAX_DEPTH: i32 = 5;
/// ...a quiet move is skipped when the evaluation plus this base...
pub const FUTILITY_BASE: i32 = 100;
/// ...plus this much per ply of depth left stays at or below alpha.
pub const FUTILITY_MARGIN: i32 = 90;

/// Late move reductions apply from this depth left.
pub const LMR_MIN_DEPTH: i32 = 3;
/// LMR table: reduction = `LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR`.
pub const LMR_BASE: f64 = 0.75;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.25;
/// One ply less reduction per this much history score of a quiet move.
pub const LMR_HISTORY_DIVISOR: i32 = 12000;

/// Quiescence delta pruning: a capture is skipped when even winning its victim (plus
/// the promotion) and this margin cannot lift the evaluation above alpha.
pub const QS_DELTA_MARGIN: i32 = 200;

/// Aspiration windows are used from this depth.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// The first aspiration half-window; it grows by half on every failure.
pub const ASPIRATION_DELTA: i32 = 25;
/// Past this half-window the search falls back to a full window.
pub const ASPIRATION_MAX_DELTA: i32 = 1000;

/// Singular extensions: from this depth left...
pub const SE_MIN_DEPTH: i32 = 8;
/// ...when the hash entry is at most this many plies shallower than the node...
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// ...the other moves must stay below the hash score minus this many centipawns per
/// 8 plies of depth for the hash move to be extended.
pub const SE_MARGIN: i32 = 16;

/// Double extensions: a singular hash move at a non-PV node is extended two plies when
/// the other moves fall this many centipawns below the singular beta...
pub const DE_MARGIN: i32 = 20;
/// ...at most this many times on one path (so the search still ends).
pub const DE_MAX: i32 = 6;
