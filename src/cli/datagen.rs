//! `rookling datagen`: self-play games ([`crate::search::selfplay`]) written as training
//! data for the evaluation network, one position a line: `FEN | SCORE | RESULT`, the
//! search score in centipawns and the game's result (1.0, 0.5, 0.0), both from white's
//! point of view. Lines are appended, so runs add up; the format is the plain-text one
//! common NNUE trainers read.

use super::CliError;
use crate::search::Searcher;
use crate::search::selfplay::{Game, Rng, SelfPlayConfig, play_game};
use clap::Args;
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `rookling datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// The file the positions are appended to.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Games to play (over all threads).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Nodes searched per move.
    #[arg(long, value_name = "N", default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Random plies before the engine takes over.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub random_plies: u32,
    /// Games played at once, one thread each.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Seed of the random openings (thread `i` uses seed + i); the same seed, node
    /// budget and thread count give the same games.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
}

/// One finished game as text lines.
fn lines(game: &Game) -> String {
    let mut text = String::new();
    for sample in &game.samples {
        text.push_str(&format!(
            "{} | {} | {:.1}\n",
            sample.pos.to_fen(),
            sample.white_score,
            game.white_result
        ));
    }
    text
}

/// How many of `games` thread `t` of `threads` plays: as many as the others, give or
/// take one (the first `games % threads` threads play one more), whatever the count.
fn share(games: u64, threads: u64, t: u64) -> u64 {
    games / threads + u64::from(t < games % threads)
}

/// Runs `rookling datagen`.
pub fn run(args: DatagenArgs) -> Result<ExitCode, CliError> {
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(CliError::file(&args.out, "open"))?;
    let mut out = BufWriter::new(file);
    let config = SelfPlayConfig {
        nodes: args.nodes,
        random_plies: args.random_plies,
        ..Default::default()
    };
    let threads = u64::from(args.threads);
    let (sender, receiver) = crossbeam_channel::bounded::<Game>(64);
    let start = Instant::now();
    let bar = super::progress_bar(args.games, "games");
    let (mut games, mut positions) = (0u64, 0u64);
    let mut score = [0u64; 3];
    std::thread::scope(|scope| -> Result<(), CliError> {
        for t in 0..threads {
            let sender = sender.clone();
            let config = config.clone();
            let share = share(args.games, threads, t);
            let seed = args.seed.wrapping_add(t);
            scope.spawn(move || {
                let mut searcher = Searcher::new(16);
                let mut rng = Rng::new(seed);
                for _ in 0..share {
                    if sender
                        .send(play_game(&mut searcher, &mut rng, &config))
                        .is_err()
                    {
                        return;
                    }
                }
            });
        }
        drop(sender);
        let written = |e| CliError::file(&args.out, "write")(e);
        for game in receiver {
            out.write_all(lines(&game).as_bytes()).map_err(written)?;
            games += 1;
            positions += game.samples.len() as u64;
            score[(game.white_result * 2.0) as usize] += 1;
            bar.inc(1);
            bar.set_message(format!(
                "{positions} positions ({:.0}/s); white +{} ={} -{}",
                positions as f64 / start.elapsed().as_secs_f64().max(1e-9),
                score[2],
                score[1],
                score[0]
            ));
            if games.is_multiple_of(100) {
                out.flush().map_err(written)?;
            }
        }
        out.flush().map_err(written)?;
        Ok(())
    })?;
    bar.finish_and_clear();
    writeln!(
        std::io::stdout().lock(),
        "{games} games, {positions} positions appended to {} (white +{} ={} -{})",
        args.out.display(),
        score[2],
        score[1],
        score[0]
    )?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::share;

    #[test]
    fn games_are_shared_out_whole_and_without_overflow() {
        for (games, threads) in [(u64::MAX, 2), (u64::MAX, 256), (7, 3), (1, 4), (5, 1)] {
            let shares: Vec<u64> = (0..threads).map(|t| share(games, threads, t)).collect();
            let total: u128 = shares.iter().map(|&n| u128::from(n)).sum();
            assert_eq!(total, u128::from(games), "{games} over {threads}");
            let (min, max) = (shares.iter().min(), shares.iter().max());
            assert!(max.zip(min).is_some_and(|(a, b)| a - b <= 1), "{shares:?}");
        }
        assert_eq!(share(u64::MAX, 2, 1), u64::MAX / 2);
    }
}
