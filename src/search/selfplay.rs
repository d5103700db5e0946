//! Self-play games for training data: random openings, then a fixed node budget per
//! move, adjudicated early when the outcome is clear. No I/O: a game comes back as the
//! positions worth learning from, each with its search score, and the result.

use super::{Control, Limits, Searcher, is_mate_score};
use crate::board::{Color, Position};
use crate::movegen::legal_moves;
use crate::search::draw::insufficient_material;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random plies played from the start position before the engine takes over.
    pub random_plies: u32,
    /// Openings whose score after the random plies is beyond this (centipawns) are
    /// thrown away: lopsided games teach little.
    pub max_opening_score: i32,
    /// A game is adjudicated won once both sides' scores agree on at least this much...
    pub win_score: i32,
    /// ...for this many plies in a row.
    pub win_plies: u32,
    /// A game is adjudicated drawn from this ply on...
    pub draw_after_ply: u32,
    /// ...once the score stays within this (centipawns)...
    pub draw_score: i32,
    /// ...for this many plies in a row.
    pub draw_plies: u32,
    /// A game that lasts this many plies is a draw.
    pub max_plies: u32,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        Self {
            nodes: 5_000,
            random_plies: 8,
            max_opening_score: 300,
            win_score: 2_000,
            win_plies: 4,
            draw_after_ply: 80,
            draw_score: 10,
            draw_plies: 12,
            max_plies: 400,
        }
    }
}

/// One position to learn from: quiet (not in check, best move neither a capture nor a
/// promotion) and not a mate score.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position.
    pub pos: Position,
    /// The search score, from white's point of view (centipawns).
    pub white_score: i32,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The positions worth learning from, in game order.
    pub samples: Vec<Sample>,
    /// The result from white's point of view: 1 win, 0.5 draw, 0 loss.
    pub white_result: f32,
}

/// The seeded generator self-play draws its openings from.
pub use crate::rng::Rng;

/// The generator of game `index` of a run started from `seed`. Each game has its own,
/// so a game depends only on the seed and its index: not on the thread that plays it
/// nor on the games before it (runs resume and split across machines exactly).
pub fn game_rng(seed: u64, index: u64) -> Rng {
    let base = Rng::new(seed).next_u64();
    Rng::new(Rng::new(base ^ index).next_u64())
}

/// The side's score turned to white's point of view.
fn for_white(pos: &Position, score: i32) -> i32 {
    if pos.side_to_move() == Color::White {
        score
    } else {
        -score
    }
}

/// A random opening: `config.random_plies` random legal moves from the start position,
/// kept only when some move remains and the engine finds it balanced. `None` when this
/// try failed (the caller tries again).
fn opening(
    searcher: &mut Searcher,
    rng: &mut Rng,
    config: &SelfPlayConfig,
) -> Option<(Position, Vec<u64>)> {
    let mut pos = Position::startpos();
    let mut keys = Vec::new();
    for _ in 0..config.random_plies {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            return None;
        }
        keys.push(pos.key());
        pos.play(moves[rng.below(moves.len())]);
    }
    if legal_moves(&pos).is_empty() {
        return None;
    }
    searcher.clear();
    let limits = Limits {
        nodes: Some(config.nodes),
        ..Default::default()
    };
    let result = searcher.go(&pos, &keys, &limits, &Control::default(), &mut |_| {});
    (result.score.abs() <= config.max_opening_score).then_some((pos, keys))
}

/// Plays one game with `searcher` (its table is cleared first).
pub fn play_game(searcher: &mut Searcher, rng: &mut Rng, config: &SelfPlayConfig) -> Game {
    let (mut pos, mut keys) = loop {
        if let Some(start) = opening(searcher, rng, config) {
            break start;
        }
    };
    searcher.clear();
    let limits = Limits {
        nodes: Some(config.nodes),
        ..Default::default()
    };
    let mut samples = Vec::new();
    let (mut winning_plies, mut drawn_plies) = (0, 0);
    let mut ply = 0;
    let white_result = loop {
        if legal_moves(&pos).is_empty() {
            break match (pos.in_check(), pos.side_to_move()) {
                (false, _) => 0.5,
                (true, Color::White) => 0.0,
                (true, Color::Black) => 1.0,
            };
        }
        let repeated = keys.iter().filter(|&&k| k == pos.key()).count() >= 2;
        if repeated
            || pos.halfmove_clock() >= 100
            || insufficient_material(&pos)
            || ply >= config.max_plies
        {
            break 0.5;
        }
        let result = searcher.go(&pos, &keys, &limits, &Control::default(), &mut |_| {});
        let Some(best) = result.best else {
            break 0.5;
        };
        let white_score = for_white(&pos, result.score);
        if white_score.abs() >= config.win_score {
            winning_plies += 1;
            if winning_plies >= config.win_plies {
                break if white_score > 0 { 1.0 } else { 0.0 };
            }
        } else {
            winning_plies = 0;
        }
        if ply >= config.draw_after_ply && white_score.abs() <= config.draw_score {
            drawn_plies += 1;
            if drawn_plies >= config.draw_plies {
                break 0.5;
            }
        } else {
            drawn_plies = 0;
        }
        let quiet = !pos.is_capture(best) && best.promotion_piece().is_none();
        if quiet && !pos.in_check() && !is_mate_score(result.score) {
            samples.push(Sample {
                pos: pos.clone(),
                white_score,
            });
        }
        keys.push(pos.key());
        pos.play(best);
        ply += 1;
    };
    Game {
        samples,
        white_result,
    }
}

/// Plays games with `rng` until one has a position to learn from (almost always the
/// first), so that every game of a data file leaves at least one record.
pub fn play_recorded_game(searcher: &mut Searcher, rng: &mut Rng, config: &SelfPlayConfig) -> Game {
    loop {
        let game = play_game(searcher, rng, config);
        if !game.samples.is_empty() {
            return game;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_end_with_a_result_and_quiet_samples() {
        let mut searcher = Searcher::new(1);
        let mut rng = Rng::new(7);
        let config = SelfPlayConfig {
            nodes: 300,
            max_plies: 60,
            ..Default::default()
        };
        let game = play_game(&mut searcher, &mut rng, &config);
        assert!([0.0, 0.5, 1.0].contains(&game.white_result));
        assert!(!game.samples.is_empty());
        for s in &game.samples {
            assert!(!s.pos.in_check());
            assert!(!is_mate_score(s.white_score));
        }
    }

    #[test]
    fn the_seed_decides_the_games() {
        let config = SelfPlayConfig {
            nodes: 200,
            max_plies: 30,
            ..Default::default()
        };
        let fens = |seed| {
            let game = play_game(&mut Searcher::new(1), &mut Rng::new(seed), &config);
            game.samples
                .iter()
                .map(|s| s.pos.to_fen())
                .collect::<Vec<_>>()
        };
        assert_eq!(fens(3), fens(3));
        assert_ne!(fens(3), fens(4));
    }

    #[test]
    fn every_game_of_a_run_has_its_own_generator() {
        let first: Vec<u64> = (0..64).map(|i| game_rng(9, i).next_u64()).collect();
        let mut distinct = first.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 64);
        assert_eq!(game_rng(9, 5).next_u64(), first[5]);
        assert_ne!(game_rng(10, 5).next_u64(), first[5]);
    }
}
