//! Playing weaker on purpose: `Skill Level` 0 to 20 and `UCI_LimitStrength` with
//! `UCI_Elo`, on one mechanism, Stockfish's. A weakened search looks at several
//! MultiPV lines (four up to level 10, fewer above, as the weakness fades), stops
//! deepening at a depth set by the level, and plays one of its lines picked with a
//! random term that grows with the weakness: the mistakes are second- and third-best
//! moves a few plies deep, the inaccuracies of a weaker player, never a random move.
//! Below level 20 the search ends at that depth, so it plays fast.
//!
//! `UCI_Elo` maps onto a (fractional) level through a table measured against
//! Stockfish 15.1 at the same `UCI_Elo` (docs/playing.md has the matches).

use super::root::Line;
use super::selfplay::Rng;

/// The weakest `UCI_Elo` offered.
pub const MIN_ELO: u32 = 1320;
/// The strongest `UCI_Elo` offered: full strength.
pub const MAX_ELO: u32 = 2400;
/// The full-strength level.
pub const MAX_LEVEL: u32 = 20;

/// `(UCI_Elo, level)`: the level that plays at that Elo, measured; levels between two
/// rows are interpolated.
const ELO_LEVELS: [(u32, f64); 7] = [
    (MIN_ELO, 3.1),
    (1400, 3.5),
    (1600, 5.5),
    (1800, 7.6),
    (2000, 12.5),
    (2200, 18.5),
    (MAX_ELO, 20.0),
];

/// The least time (ms) a weakened search keeps in reserve per move (it also budgets
/// as if it had only a share of its clock and increment: [`Skill::clock_share`]).
pub const OVERHEAD_MS: u64 = 100;

/// How many lines the weak levels (up to 10) look at, at least.
pub const LINES: usize = 4;
/// The random term's scale: the spread of the lines' scores, at most this (cp):
/// Stockfish's cap, its middlegame pawn (126 of its internal units, 208 to 100 cp).
const DELTA_MAX: i64 = 60;

/// A strength setting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// 0 (weakest) to 20 (full strength), fractional for `UCI_Elo`.
    level: f64,
}

impl Default for Skill {
    fn default() -> Self {
        Self::FULL
    }
}

impl Skill {
    /// Full strength.
    pub const FULL: Self = Self {
        level: MAX_LEVEL as f64,
    };

    /// `Skill Level` (0 to 20; more counts as 20).
    pub fn from_level(level: u32) -> Self {
        Self {
            level: f64::from(level.min(MAX_LEVEL)),
        }
    }

    /// `UCI_Elo` with `UCI_LimitStrength` (clamped to [`MIN_ELO`]..=[`MAX_ELO`]).
    pub fn from_elo(elo: u32) -> Self {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        let level =
            ELO_LEVELS
                .windows(2)
                .find(|w| elo <= w[1].0)
                .map_or(f64::from(MAX_LEVEL), |w| {
                    let ((e0, l0), (e1, l1)) = (w[0], w[1]);
                    l0 + (l1 - l0) * f64::from(elo - e0) / f64::from(e1 - e0)
                });
        Self { level }
    }

    /// The level, 0 to 20.
    pub fn level(&self) -> f64 {
        self.level
    }

    /// Whether the engine plays weaker than it can.
    pub fn enabled(&self) -> bool {
        self.level < f64::from(MAX_LEVEL)
    }

    /// The deepest iteration a weakened search runs: `1 + level`, the fraction of a
    /// fractional level being the chance of one ply more (level 3.5 searches 4 plies
    /// half the time and 5 the other half), so that `UCI_Elo` moves the strength
    /// smoothly, not in steps of a ply.
    pub fn depth(&self, rng: &mut Rng) -> i32 {
        let whole = self.level.floor();
        let deeper = (rng.below(1000) as f64) < (self.level - whole) * 1000.0;
        1 + whole as i32 + i32::from(deeper)
    }

    /// How many lines a weakened search looks at, at least: [`LINES`] up to level 10,
    /// then fewer as the [`Skill::weakness`] falls (still 4 up to level 13.3, then 3
    /// up to 16.7, 2 below 20, 1 at 20). Every line costs search time (four lines
    /// take about twice the nodes of one to reach the same depth) and lines the pick
    /// would hardly ever play are not worth it: with four lines up to the last
    /// level, the strength fell by about a ply's worth from level 20 to level 19.9.
    pub fn lines(&self) -> usize {
        if self.level <= 10.0 {
            LINES
        } else {
            let fading = (LINES - 1) as f64 * (f64::from(MAX_LEVEL) - self.level) / 10.0;
            1 + fading.ceil() as usize
        }
    }

    /// How much the pick may stray from the best line: Stockfish's `120 - 2 x level`
    /// up to level 10, then falling to 0 at level 20, so that the strength rises
    /// smoothly to full strength (with Stockfish's rule level 19 still strays by 82,
    /// and the last step to full strength is a jump).
    pub fn weakness(&self) -> f64 {
        if self.level <= 10.0 {
            120.0 - 2.0 * self.level
        } else {
            100.0 * (f64::from(MAX_LEVEL) - self.level) / 10.0
        }
    }

    /// The share of its clock and increment a weakened search budgets as if it were
    /// all it had: half up to level 10 (those levels end at their depth long before
    /// the clock matters, and a clock that grows with the increments never runs down
    /// to where a loaded machine makes it flag), then rising with the level to the
    /// whole clock at level 20, so that, as with [`Skill::weakness`], the strong
    /// levels rise smoothly to full strength instead of playing on half the time
    /// full strength has.
    pub fn clock_share(&self) -> f64 {
        if self.level <= 10.0 {
            0.5
        } else {
            0.5 + 0.5 * (self.level - 10.0) / 10.0
        }
    }

    /// The line to play among `lines` (best first, all of one iteration, at least
    /// one): Stockfish's rule. Every line's score gets a push towards the best one,
    /// larger for weaker levels, plus a random term up to the spread of the scores
    /// (at most `DELTA_MAX`, 60 cp) scaled by the [`Skill::weakness`]; the highest total is
    /// played.
    pub fn pick(&self, lines: &[Line], rng: &mut Rng) -> usize {
        let Some(top) = lines.first().map(|l| i64::from(l.score)) else {
            return 0;
        };
        let last = lines.last().map_or(top, |l| i64::from(l.score));
        let delta = (top - last).clamp(0, DELTA_MAX);
        let weakness = self.weakness();
        let mut best = (i64::MIN, 0);
        for (i, line) in lines.iter().enumerate() {
            let score = i64::from(line.score);
            let random = rng.below((weakness as usize).max(1)) as i64;
            let push = ((weakness * (top - score) as f64) as i64 + delta * random) / 128;
            if score + push >= best.0 {
                best = (score + push, i);
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::root::ScoreBound;

    fn lines(scores: &[i32]) -> Vec<Line> {
        scores
            .iter()
            .map(|&score| Line {
                depth: 5,
                seldepth: 5,
                score,
                bound: ScoreBound::Exact,
                pv: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn elo_maps_onto_levels_in_order() {
        assert_eq!(Skill::from_elo(MAX_ELO), Skill::FULL);
        assert!(!Skill::from_elo(3000).enabled());
        assert_eq!(Skill::from_elo(0), Skill::from_elo(MIN_ELO));
        let mut last = -1.0;
        for elo in (MIN_ELO..=MAX_ELO).step_by(20) {
            let level = Skill::from_elo(elo).level();
            assert!(level > last || elo == MIN_ELO, "{elo}");
            last = level;
        }
        assert_eq!(Skill::from_level(25), Skill::FULL);
        let mut rng = Rng::new(1);
        assert_eq!(Skill::from_level(3).depth(&mut rng), 4);
    }

    #[test]
    fn a_fractional_level_searches_one_ply_deeper_as_often_as_its_fraction() {
        let mut rng = Rng::new(5);
        let skill = Skill { level: 3.25 };
        let depths: Vec<i32> = (0..4000).map(|_| skill.depth(&mut rng)).collect();
        assert!(depths.iter().all(|d| (4..=5).contains(d)));
        let deeper = depths.iter().filter(|&&d| d == 5).count();
        assert!((850..1150).contains(&deeper), "{deeper} of 4000");
    }

    #[test]
    fn lines_fall_from_four_to_one_as_the_weakness_fades() {
        let lines = |level: f64| Skill { level }.lines();
        assert_eq!(lines(0.0), LINES);
        assert_eq!(lines(10.0), LINES);
        assert_eq!(lines(12.0), LINES);
        assert_eq!(lines(15.0), 3);
        assert_eq!(lines(18.5), 2);
        assert_eq!(Skill::FULL.lines(), 1);
        let mut last = LINES;
        for tenth in 0..=200 {
            let now = lines(f64::from(tenth) / 10.0);
            assert!(now <= last, "{tenth}");
            last = now;
        }
    }

    #[test]
    fn clock_share_is_half_for_weak_levels_and_rises_to_the_whole_clock() {
        assert_eq!(Skill::from_level(0).clock_share(), 0.5);
        assert_eq!(Skill::from_level(10).clock_share(), 0.5);
        assert_eq!(Skill::from_level(15).clock_share(), 0.75);
        assert_eq!(Skill::FULL.clock_share(), 1.0);
    }

    #[test]
    fn weak_levels_pick_worse_lines_and_far_worse_ones_rarely() {
        let mut rng = Rng::new(7);
        let close = lines(&[30, 20, 10, 0]);
        let far = lines(&[300, -200, -400, -600]);
        let count = |skill: Skill, l: &[Line], rng: &mut Rng| {
            (0..1000).filter(|_| skill.pick(l, rng) != 0).count()
        };
        let weak = count(Skill::from_level(0), &close, &mut rng);
        let strong = count(Skill::from_level(18), &close, &mut rng);
        assert!(weak > strong, "{weak} {strong}");
        assert!(weak > 300, "{weak}");
        // A line 5 pawns worse: level 0 (about 1320 Elo) plays it now and then, less
        // often than a close one; level 15 never.
        let blunders = count(Skill::from_level(0), &far, &mut rng);
        assert!(blunders < weak, "{blunders} {weak}");
        assert_eq!(count(Skill::from_level(15), &far, &mut rng), 0);
    }
}
