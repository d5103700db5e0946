//! Every pruning, reduction and window constant of the search, in one place, named, with
//! the range and steps SPSA tunes it within. Depths are in plies, margins in centipawns
//! (the evaluation's unit).
//!
//! One table, [`TABLE`], names each parameter with its default, range and SPSA steps
//! (OpenBench's `c_end` and `r_end`); `rookling params` prints it as SPSA input. The
//! search reads each value through its accessor (`rfp_margin()` for [`RFP_MARGIN`]):
//! in the default build the accessor returns the constant, so the compiler folds it as
//! before; in a tuning build (cargo feature `tune`) it reads a value that `setoption`
//! changes, each parameter being a UCI `spin` option named as its constant.
//!
//! The defaults are SPSA run 2's values (docs/tuning.md: 5,696 games at 20,000 nodes a
//! move from run 1's values, rounded), which beat run 1's by 34 +/- 24 Elo at 20,000
//! nodes (run 1's had beaten the hand-set ones of issue 6 by 38 +/- 26); changing one
//! changes the bench signature (`rookling bench`), which a test pins.

use std::fmt;
#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable search parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// Its name: the constant's, and the UCI option's in a tuning build.
    pub name: &'static str,
    /// The value the search uses unless told otherwise.
    pub default: i32,
    /// The least value allowed.
    pub min: i32,
    /// The greatest value allowed.
    pub max: i32,
    /// SPSA's perturbation at the last iteration (OpenBench's `c_end`).
    pub c_end: f64,
    /// SPSA's learning rate at the last iteration (OpenBench's `r_end`).
    pub r_end: f64,
}

/// The SPSA input line OpenBench reads: `name, int, default, min, max, c_end, r_end`.
impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, int, {}, {}, {}, {}, {}",
            self.name, self.default, self.min, self.max, self.c_end, self.r_end
        )
    }
}

/// The learning rate every parameter ends with (OpenBench's usual `r_end`).
const R_END: f64 = 0.002;

/// Declares each parameter's constant, its accessor and its row in [`TABLE`] from one
/// line: `NAME, accessor: default, min..=max, c_end;`.
macro_rules! params {
    ($($(#[$doc:meta])* $name:ident, $get:ident: $default:literal, $min:literal..=$max:literal, $c_end:literal;)*) => {
        $($(#[$doc])* pub const $name: i32 = $default;)*

        /// Every parameter, in the order of this file.
        pub const TABLE: &[Param] = &[$(Param {
            name: stringify!($name),
            default: $name,
            min: $min,
            max: $max,
            c_end: $c_end as f64,
            r_end: R_END,
        },)*];

        /// Each parameter's name, constant and accessor, for the tests.
        #[cfg(test)]
        const ACCESSORS: &[(&str, i32, fn() -> i32)] = &[$((stringify!($name), $name, $get),)*];

        /// Each parameter's row in [`TABLE`].
        #[cfg(feature = "tune")]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy)]
        enum Row {
            $($name,)*
        }

        /// The values the search reads in a tuning build.
        #[cfg(feature = "tune")]
        static VALUES: [AtomicI32; TABLE.len()] = [$(AtomicI32::new($name),)*];

        $(
            #[doc = concat!("The value of [`", stringify!($name), "`] the search uses.")]
            #[inline(always)]
            pub fn $get() -> i32 {
                #[cfg(feature = "tune")]
                return VALUES[Row::$name as usize].load(Ordering::Relaxed);
                #[cfg(not(feature = "tune"))]
                $name
            }
        )*
    };
}

params! {
    /// Reverse futility pruning (static null move): a node is cut when its static
    /// evaluation beats beta by a margin that grows with the depth left, up to this depth.
    RFP_MAX_DEPTH, rfp_max_depth: 4, 3..=12, 1;
    /// Reverse futility margin per ply of depth left.
    RFP_MARGIN, rfp_margin: 82, 30..=160, 8;
    /// Taken off the reverse futility margin (per ply) when the evaluation is improving.
    RFP_IMPROVING_BONUS, rfp_improving_bonus: 24, 0..=60, 5;
    /// Null move pruning: the least depth left at which a null move is tried.
    NMP_MIN_DEPTH, nmp_min_depth: 4, 2..=6, 1;
    /// Null move base reduction (plies).
    NMP_BASE, nmp_base: 4, 1..=6, 1;
    /// One more ply of null move reduction per this many plies of depth left.
    NMP_DEPTH_DIVISOR, nmp_depth_divisor: 4, 2..=8, 1;
    /// One more ply of null move reduction per this many centipawns above beta...
    NMP_EVAL_DIVISOR, nmp_eval_divisor: 200, 80..=400, 20;
    /// ...up to this many plies.
    NMP_EVAL_MAX, nmp_eval_max: 2, 0..=6, 1;
    /// Razoring: up to this depth, a node whose evaluation is far below alpha goes
    /// straight to quiescence.
    RAZOR_MAX_DEPTH, razor_max_depth: 0, 0..=5, 1;
    /// Razoring margin per ply of depth left.
    RAZOR_MARGIN, razor_margin: 261, 100..=500, 25;
    /// ProbCut: from this depth left, a non-PV node is cut when a capture beats beta by
    /// [`PROBCUT_MARGIN`] in quiescence and then in a search [`PROBCUT_REDUCTION`] plies
    /// shallower.
    PROBCUT_MIN_DEPTH, probcut_min_depth: 6, 3..=10, 1;
    /// See [`PROBCUT_MIN_DEPTH`] (centipawns above beta).
    PROBCUT_MARGIN, probcut_margin: 203, 80..=400, 20;
    /// See [`PROBCUT_MIN_DEPTH`] (plies).
    PROBCUT_REDUCTION, probcut_reduction: 4, 2..=6, 1;
    /// Internal iterative reduction: a node this deep without a hash move is searched one
    /// ply shallower (it is cheap to redo once the table knows a move).
    IIR_MIN_DEPTH, iir_min_depth: 3, 2..=10, 1;
    /// Captures losing material by static exchange are pruned up to this depth...
    SEE_PRUNE_MAX_DEPTH, see_prune_max_depth: 6, 2..=10, 1;
    /// ...when they lose more than this many centipawns per ply of depth left.
    SEE_PRUNE_MARGIN, see_prune_margin: 96, 30..=200, 10;
    /// Late move pruning: up to this depth, quiet moves after the first
    /// `(LMP_BASE + depth²) / (2 - improving)` are skipped.
    LMP_MAX_DEPTH, lmp_max_depth: 5, 2..=10, 1;
    /// Late move pruning base count.
    LMP_BASE, lmp_base: 5, 0..=10, 1;
    /// Futility pruning of quiet moves: up to this depth...
    FUTILITY_MAX_DEPTH, futility_max_depth: 5, 2..=10, 1;
    /// ...a quiet move is skipped when the evaluation plus this base...
    FUTILITY_BASE, futility_base: 78, 0..=250, 12;
    /// ...plus this much per ply of depth left stays at or below alpha.
    FUTILITY_MARGIN, futility_margin: 111, 30..=200, 10;
    /// Late move reductions apply from this depth left.
    LMR_MIN_DEPTH, lmr_min_depth: 2, 2..=5, 1;
    /// LMR table: reduction = `LMR_BASE / 100 + ln(depth) * ln(move number) / (LMR_DIVISOR / 100)`
    /// (both in hundredths of a ply, so that they are integers to tune).
    LMR_BASE, lmr_base: 64, 0..=150, 8;
    /// See [`LMR_BASE`].
    LMR_DIVISOR, lmr_divisor: 218, 150..=350, 12;
    /// One ply less reduction per this much history score of a quiet move.
    LMR_HISTORY_DIVISOR, lmr_history_divisor: 11675, 4000..=24000, 1000;
    /// Quiescence delta pruning: a capture is skipped when even winning its victim (plus
    /// the promotion) and this margin cannot lift the evaluation above alpha.
    QS_DELTA_MARGIN, qs_delta_margin: 265, 50..=400, 20;
    /// Aspiration windows are used from this depth.
    ASPIRATION_MIN_DEPTH, aspiration_min_depth: 5, 2..=8, 1;
    /// The first aspiration half-window; it grows by half on every failure.
    ASPIRATION_DELTA, aspiration_delta: 19, 5..=60, 3;
    /// Past this half-window the search falls back to a full window.
    ASPIRATION_MAX_DELTA, aspiration_max_delta: 976, 300..=3000, 100;
    /// Singular extensions: from this depth left...
    SE_MIN_DEPTH, se_min_depth: 8, 4..=12, 1;
    /// ...when the hash entry is at most this many plies shallower than the node...
    SE_TT_DEPTH_MARGIN, se_tt_depth_margin: 2, 1..=6, 1;
    /// ...the other moves must stay below the hash score minus this many centipawns per
    /// 8 plies of depth for the hash move to be extended.
    SE_MARGIN, se_margin: 19, 4..=48, 3;
    /// Double extensions: a singular hash move at a non-PV node is extended two plies when
    /// the other moves fall this many centipawns below the singular beta...
    DE_MARGIN, de_margin: 19, 0..=60, 4;
    /// ...at most this many times on one path (so the search still ends).
    DE_MAX, de_max: 5, 0..=12, 1;
}

/// The parameter named `name` (case-insensitive, as UCI options are): its index in
/// [`TABLE`].
pub fn find(name: &str) -> Option<usize> {
    TABLE.iter().position(|p| p.name.eq_ignore_ascii_case(name))
}

/// The value the search uses for parameter `index` of [`TABLE`].
pub fn value(index: usize) -> i32 {
    #[cfg(feature = "tune")]
    return VALUES[index].load(Ordering::Relaxed);
    #[cfg(not(feature = "tune"))]
    TABLE[index].default
}

/// Sets parameter `index` of [`TABLE`] for the searches that start from now on; the
/// caller has checked the range.
#[cfg(feature = "tune")]
pub fn set(index: usize, value: i32) {
    VALUES[index].store(value, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_and_constants_agree() {
        assert_eq!(ACCESSORS.len(), TABLE.len());
        for (i, &(name, constant, read)) in ACCESSORS.iter().enumerate() {
            assert_eq!(TABLE[i].name, name);
            assert_eq!(TABLE[i].default, constant, "{name}");
            // A tuning build's tests may change values; the default build reads constants.
            #[cfg(not(feature = "tune"))]
            assert_eq!((read(), value(i)), (constant, constant), "{name}");
            let _ = read;
        }
        assert_eq!((RFP_MARGIN, DE_MAX), (82, 5));
        assert_eq!(
            (LMR_BASE, LMR_DIVISOR),
            (64, 218),
            "0.64 and 2.18 in hundredths"
        );
    }

    #[test]
    fn every_row_is_sound() {
        for (i, p) in TABLE.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(p.c_end > 0.0 && p.r_end > 0.0, "{}", p.name);
            assert_eq!(find(p.name), Some(i), "{} named once", p.name);
            assert_eq!(find(&p.name.to_lowercase()), Some(i));
        }
        assert_eq!(find("NO_SUCH"), None);
    }

    #[test]
    fn spsa_line() {
        let row = find("RFP_MARGIN").expect("in the table");
        assert_eq!(
            TABLE[row].to_string(),
            "RFP_MARGIN, int, 82, 30, 160, 8, 0.002"
        );
    }
}
