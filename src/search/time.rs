//! Time management: from the `go` limits, a soft limit (do not start another iteration
//! past it) and a hard limit (abort the search), both counted from the moment the clock
//! runs: the `go` itself, or `ponderhit` when pondering.

use super::{Control, Limits};
use crate::board::Color;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The clock of one search.
pub struct Clock {
    /// When `go` arrived (for `info time` and nps).
    started: Instant,
    /// When the limits started to count (`None` while pondering).
    running_since: Option<Instant>,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

/// Moves assumed left in the game when the GUI does not say (`movestogo`).
const DEFAULT_MOVES_TO_GO: u64 = 15;
/// More moves to go than this are budgeted as this many.
const MAX_MOVES_TO_GO: u64 = 50;

/// The default of the UCI option `Move Overhead`, ms: time kept in reserve per move
/// for the GUI and the link.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;

impl Clock {
    /// The clock for a search by `us` under `limits` whose `go` arrived at `received`,
    /// keeping `overhead_ms` per move in reserve for the GUI and the link.
    pub fn new(limits: &Limits, us: Color, overhead_ms: u64, received: Instant) -> Self {
        let (soft, hard) = budget(limits, us, overhead_ms);
        Self {
            started: received,
            running_since: (!limits.ponder).then_some(received),
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
        }
    }

    /// Time since `go`.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Starts the limits once pondering has ended (`ponderhit`); true while pondering.
    fn pondering(&mut self, control: &Control) -> bool {
        if self.running_since.is_some() {
            return false;
        }
        if control.pondering.load(Ordering::Relaxed) && !control.stopped() {
            return true;
        }
        self.running_since = Some(Instant::now());
        false
    }

    /// Whether the search must end now (`stop`, or past the hard limit).
    pub fn must_stop(&mut self, control: &Control) -> bool {
        if control.stopped() {
            return true;
        }
        if self.pondering(control) {
            return false;
        }
        match (self.hard, self.running_since) {
            (Some(hard), Some(since)) => since.elapsed() >= hard,
            _ => false,
        }
    }

    /// Whether another iteration should not be started: past `fraction` of the soft
    /// limit (another iteration usually takes longer than all before it).
    pub fn should_not_deepen(&mut self, control: &Control, fraction: f64) -> bool {
        if self.must_stop(control) {
            return true;
        }
        match (self.soft, self.running_since) {
            (Some(soft), Some(since)) => {
                since.elapsed().as_secs_f64() >= soft.as_secs_f64() * fraction
            }
            _ => false,
        }
    }

    /// Whether the search runs against a clock or `movetime` (so an only move can be
    /// played at once).
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }
}

/// How much of the soft limit may be spent before another iteration is not started,
/// after iteration `depth`: half of it, less when the best move has stayed the same
/// for `stable_iterations` iterations and took most of the root's nodes (`share`), more
/// when it keeps changing or the search spreads over other moves.
pub fn deepen_fraction(depth: i32, stable_iterations: usize, share: f64) -> f64 {
    /// By how many iterations in a row the best move has not changed.
    const STABILITY: [f64; 5] = [1.8, 1.3, 1.05, 0.9, 0.8];
    if depth < 6 {
        return 0.5;
    }
    let stability = STABILITY[stable_iterations.min(STABILITY.len() - 1)];
    let spread = ((1.5 - share) * 1.35).clamp(0.5, 2.0);
    0.5 * (stability * spread).clamp(0.4, 2.5)
}

/// How much longer to think when the score has fallen from `earlier` (an iteration a
/// few plies shallower) to `now`: one more tenth of the budget per 10 centipawns
/// lost, at most half as much again; never less. A falling score is a threat found
/// late, when more depth pays most. Mate scores leave the budget as it is.
pub fn falling_score_factor(earlier: i32, now: i32, mate_bound: i32) -> f64 {
    if earlier.abs() >= mate_bound || now.abs() >= mate_bound {
        return 1.0;
    }
    (1.0 + f64::from(earlier - now) / 100.0).clamp(1.0, 1.5)
}

/// (soft, hard) limits in milliseconds; `None` when no time limit applies.
fn budget(limits: &Limits, us: Color, overhead: u64) -> (Option<u64>, Option<u64>) {
    if limits.infinite {
        return (None, None);
    }
    if let Some(mt) = limits.movetime {
        // "Search exactly this long": no soft limit, deepen until the hard one.
        let t = mt.saturating_sub(overhead).max(1);
        return (None, Some(t));
    }
    if limits.wtime.is_none() && limits.btime.is_none() {
        return (None, None);
    }
    // A clock is given: ours, if missing, is empty (as in Stockfish), so the search
    // answers after its first iteration.
    let (time, inc) = match us {
        Color::White => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    };
    let time = time.unwrap_or(0);
    let inc = inc.unwrap_or(0);
    let avail = time.saturating_sub(overhead).max(1);
    // `movestogo 0` means "not given" (as in Stockfish).
    let mtg = limits
        .movestogo
        .filter(|&m| m > 0)
        .map_or(DEFAULT_MOVES_TO_GO, |m| u64::from(m).min(MAX_MOVES_TO_GO));
    // With few moves to go the whole remaining time may be spent, never all of it.
    let cap = if mtg == 1 { avail * 4 / 5 } else { avail / 2 };
    let base = avail / mtg + inc;
    let soft = base.min(cap).max(1);
    let hard = (soft * 4).min(cap).max(soft);
    (Some(soft), Some(hard))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_the_clock() {
        let l = Limits {
            wtime: Some(1000),
            winc: Some(10),
            ..Default::default()
        };
        let (soft, hard) = budget(&l, Color::White, 10);
        let (soft, hard) = (soft.expect("timed"), hard.expect("timed"));
        assert!(soft <= hard && hard <= 500, "{soft} {hard}");
        let l = Limits {
            btime: Some(30),
            movestogo: Some(1),
            ..Default::default()
        };
        let (_, hard) = budget(&l, Color::Black, 10);
        assert!(hard.expect("timed") <= 20);
        let l = Limits {
            movetime: Some(200),
            ..Default::default()
        };
        assert_eq!(budget(&l, Color::White, 10), (None, Some(190)));
        assert_eq!(budget(&Limits::default(), Color::White, 10), (None, None));
    }

    #[test]
    fn a_settled_best_move_stops_sooner_than_a_changing_one() {
        let settled = deepen_fraction(12, 6, 0.95);
        let changing = deepen_fraction(12, 0, 0.3);
        assert!(settled < 0.5 && changing > 0.5, "{settled} {changing}");
        assert!(changing <= 1.25);
        assert_eq!(deepen_fraction(3, 0, 0.0), 0.5);
    }

    #[test]
    fn a_missing_own_clock_means_no_time() {
        let only_black = Limits {
            btime: Some(60_000),
            ..Default::default()
        };
        let (soft, hard) = budget(&only_black, Color::White, 10);
        assert_eq!((soft, hard), (Some(1), Some(1)));
        let (soft, _) = budget(&only_black, Color::Black, 10);
        assert!(soft.expect("timed") > 1000);
    }

    #[test]
    fn a_falling_score_buys_time_and_a_rising_one_costs_none() {
        assert_eq!(falling_score_factor(50, 50, 30_000), 1.0);
        assert_eq!(falling_score_factor(50, 100, 30_000), 1.0);
        assert!((falling_score_factor(50, 20, 30_000) - 1.3).abs() < 1e-9);
        assert_eq!(falling_score_factor(50, -500, 30_000), 1.5);
        assert_eq!(falling_score_factor(50, -30_000, 30_000), 1.0);
    }

    #[test]
    fn movestogo_zero_is_not_given() {
        let clock = |movestogo| Limits {
            wtime: Some(60_000),
            movestogo,
            ..Default::default()
        };
        assert_eq!(
            budget(&clock(Some(0)), Color::White, 10),
            budget(&clock(None), Color::White, 10)
        );
    }
}
