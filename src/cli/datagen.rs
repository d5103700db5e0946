//! `rookling datagen`: self-play games ([`crate::search::selfplay`]) written as training
//! data for the evaluation network, in 32-byte records ([`crate::data::Record`]): each
//! quiet position with its search score and its game's result.
//!
//! Game `i` of a run is played from its own random generator (`game_rng(seed, i)`) and
//! the games are written whole and in order, so the file holds games `0..n` of the
//! seed whatever the thread count, and a run killed at any moment resumes exactly: the
//! same command cuts the file back to its last finished game and plays on from there
//! (no game lost, none twice). Runs with other seeds are independent shards, merged
//! with `rookling data merge`. The settings of a file's games are kept beside it in
//! `FILE.info`, and a resume with other settings is refused.

use super::CliError;
use crate::data::{GameResult, Record, file};
use crate::search::Searcher;
use crate::search::selfplay::{Game, SelfPlayConfig, game_rng, play_recorded_game};
use clap::Args;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Arguments of `rookling datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// The data file (32-byte records); an existing one made with the same settings is
    /// resumed.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Games the file holds when the run ends (games already in it count).
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
    /// The run's seed: game `i` is the same game for the same seed, node budget and
    /// network; another seed gives other games (a shard).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
}

/// The settings every game of a file was played with, kept in `FILE.info`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RunInfo {
    lines: Vec<(String, String)>,
}

impl RunInfo {
    const HEADER: &str = "rookling datagen: every game of the data file was played with";

    fn new(args: &DatagenArgs) -> Self {
        let lines = [
            ("seed", args.seed.to_string()),
            ("nodes", args.nodes.to_string()),
            ("random-plies", args.random_plies.to_string()),
            ("network", crate::nnue::network_id()),
        ];
        Self {
            lines: lines.map(|(k, v)| (k.to_string(), v)).to_vec(),
        }
    }

    fn path(data: &Path) -> PathBuf {
        let mut name = data.as_os_str().to_owned();
        name.push(".info");
        PathBuf::from(name)
    }

    fn to_text(&self) -> String {
        let mut text = format!("{}\n", Self::HEADER);
        for (k, v) in &self.lines {
            text += &format!("{k} {v}\n");
        }
        text
    }

    fn parse(text: &str) -> Option<Self> {
        let mut lines = text.lines();
        if lines.next()? != Self::HEADER {
            return None;
        }
        let lines = lines
            .map(|l| {
                l.split_once(' ')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Self { lines })
    }

    /// How the settings of this run differ from those a file was made with (`file`), as
    /// `name FILE'S (this run: THIS RUN'S)`.
    fn differences(&self, file: &Self) -> Vec<String> {
        let value = |info: &Self, key: &str| {
            let found = info.lines.iter().find(|(k, _)| k == key);
            found.map_or("missing", |(_, v)| v.as_str()).to_string()
        };
        let mut keys: Vec<&String> = self.lines.iter().map(|(k, _)| k).collect();
        for (k, _) in &file.lines {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        keys.into_iter()
            .filter(|k| value(self, k) != value(file, k))
            .map(|k| format!("{k} {} (this run: {})", value(file, k), value(self, k)))
            .collect()
    }
}

/// Makes `out` ready to take more games: a new file gets its `.info`; an existing one
/// must have been made with the same settings, and is cut back to its last finished
/// game. What the file holds. A device or a pipe is only written to.
fn prepare(out: &Path, info: &RunInfo) -> Result<file::Scan, CliError> {
    let info_path = RunInfo::path(out);
    let meta = std::fs::metadata(out).ok();
    if meta.as_ref().is_some_and(|m| !m.is_file()) {
        return Ok(file::Scan::default());
    }
    if meta.is_none_or(|m| m.len() == 0) {
        std::fs::write(&info_path, info.to_text()).map_err(CliError::file(&info_path, "write"))?;
        return Ok(file::Scan::default());
    }
    let text = std::fs::read_to_string(&info_path).map_err(|_| {
        CliError::Other(format!(
            "{} exists without {}: not a datagen file to resume; give another --out",
            out.display(),
            info_path.display()
        ))
    })?;
    let found = RunInfo::parse(&text).ok_or_else(|| {
        CliError::Other(format!(
            "{}: not a datagen settings file",
            info_path.display()
        ))
    })?;
    let differences = info.differences(&found);
    if !differences.is_empty() {
        return Err(CliError::Other(format!(
            "{} was made with other settings ({}): resume it with the same ones or give another --out",
            out.display(),
            differences.join(", ")
        )));
    }
    file::recover(out).map_err(|e| CliError::Other(e.to_string()))
}

/// Locks the data file `out` for this run (until the process ends), so that a second
/// run on the same file, started by mistake beside a running one, stops with an error
/// before it cuts or writes anything. Only regular files are locked.
#[cfg(unix)]
fn lock(out: &File, path: &Path) -> Result<(), CliError> {
    use std::os::unix::io::AsRawFd;
    if !out.metadata().is_ok_and(|m| m.is_file()) {
        return Ok(());
    }
    // SAFETY: `flock` only reads the descriptor of `out`, which stays open as long as
    // the run: the lock goes when the file is closed or the process ends.
    if unsafe { libc::flock(out.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(());
    }
    let error = std::io::Error::last_os_error();
    if error.kind() == std::io::ErrorKind::WouldBlock {
        return Err(CliError::Other(format!(
            "{} is being written by another run: wait for it to end or give another --out",
            path.display()
        )));
    }
    Err(CliError::file(path, "lock")(error))
}

/// No locking where `flock` does not exist.
#[cfg(not(unix))]
fn lock(_out: &File, _path: &Path) -> Result<(), CliError> {
    Ok(())
}

/// A game as records, the last one flagged.
fn records(game: &Game) -> Vec<u8> {
    let result = GameResult::from_white_points(game.white_result).unwrap_or(GameResult::Draw);
    let last = game.samples.len().saturating_sub(1);
    game.samples
        .iter()
        .enumerate()
        .flat_map(|(i, s)| Record::new(&s.pos, s.white_score, result, i == last).to_bytes())
        .collect()
}

/// Runs `rookling datagen`.
pub fn run(args: DatagenArgs) -> Result<ExitCode, CliError> {
    let info = RunInfo::new(&args);
    let mut out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(CliError::file(&args.out, "open"))?;
    lock(&out, &args.out)?;
    let before = prepare(&args.out, &info)?;
    let config = SelfPlayConfig {
        nodes: args.nodes,
        random_plies: args.random_plies,
        ..Default::default()
    };
    let next = AtomicU64::new(before.games);
    let (sender, receiver) = crossbeam_channel::bounded::<(u64, Game)>(64);
    let start = Instant::now();
    let bar = super::progress_bar(args.games, "games");
    bar.set_position(before.games.min(args.games));
    let (mut games, mut positions) = (0u64, 0u64);
    let mut score = [0u64; 3];
    std::thread::scope(|scope| -> Result<(), CliError> {
        for _ in 0..args.threads {
            let sender = sender.clone();
            let (config, next) = (config.clone(), &next);
            scope.spawn(move || {
                let mut searcher = Searcher::new(16);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= args.games {
                        return;
                    }
                    let mut rng = game_rng(args.seed, index);
                    let game = play_recorded_game(&mut searcher, &mut rng, &config);
                    if sender.send((index, game)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        let written = |e| CliError::file(&args.out, "write")(e);
        let mut waiting = BTreeMap::new();
        let mut to_write = before.games;
        for (index, game) in receiver {
            waiting.insert(index, game);
            while let Some(game) = waiting.remove(&to_write) {
                out.write_all(&records(&game)).map_err(written)?;
                to_write += 1;
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
            }
        }
        out.sync_data().map_err(written)?;
        Ok(())
    })?;
    bar.finish_and_clear();
    writeln!(
        std::io::stdout().lock(),
        "{games} games, {positions} positions written to {} (white +{} ={} -{}); it holds {} games, {} positions",
        args.out.display(),
        score[2],
        score[1],
        score[0],
        before.games + games,
        before.records + positions,
    )?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::RunInfo;

    #[test]
    fn settings_read_back_and_differences_are_named() {
        let info = RunInfo {
            lines: vec![("seed".into(), "5".into()), ("nodes".into(), "300".into())],
        };
        let read = RunInfo::parse(&info.to_text());
        assert_eq!(read.as_ref(), Some(&info));
        let other = RunInfo {
            lines: vec![("seed".into(), "6".into()), ("nodes".into(), "300".into())],
        };
        assert_eq!(other.differences(&info), ["seed 5 (this run: 6)"]);
        let fewer = RunInfo {
            lines: vec![("seed".into(), "5".into())],
        };
        assert_eq!(fewer.differences(&info), ["nodes 300 (this run: missing)"]);
        assert_eq!(info.differences(&fewer), ["nodes missing (this run: 300)"]);
        assert!(info.differences(&info).is_empty());
        assert_eq!(RunInfo::parse("something else\nseed 5\n"), None);
    }
}
