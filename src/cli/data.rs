//! `rookling data`: the training data's files ([`crate::data`]): convert the older text
//! lines to records, merge shards, count and check, print records as text.

use super::CliError;
use crate::data::{Reader, Record, TextPosition, file};
use clap::{Args, Subcommand};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `rookling data`.
#[derive(Args, Debug)]
pub struct DataArgs {
    #[command(subcommand)]
    command: DataCommand,
}

#[derive(Subcommand, Debug)]
enum DataCommand {
    /// Convert `FEN | SCORE | RESULT` lines to a new record file (lines that do not
    /// parse are skipped and counted; a game ends where the next line is not later in
    /// the game or has another result).
    Convert {
        /// The record file to write (must not exist).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Text files, read in order.
        #[arg(required = true, value_name = "TEXT")]
        inputs: Vec<PathBuf>,
    },
    /// Merge record files (shards) into a new one, in the order given: their finished
    /// games, each file checked (a game still being written at a file's end is left out).
    Merge {
        /// The record file to write (must not exist).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Record files.
        #[arg(required = true, value_name = "FILE")]
        inputs: Vec<PathBuf>,
    },
    /// Count and check record files: positions, games, results, scores.
    Stats {
        /// Also check that every position is legal (parses each as a FEN; slower).
        #[arg(long)]
        legal: bool,
        /// Record files.
        #[arg(required = true, value_name = "FILE")]
        inputs: Vec<PathBuf>,
    },
    /// Print records as `FEN | SCORE | RESULT` lines.
    Show {
        /// Records to skip first.
        #[arg(long, value_name = "N", default_value_t = 0)]
        skip: u64,
        /// Records to print (default: all).
        #[arg(long, value_name = "N")]
        count: Option<u64>,
        /// A record file.
        #[arg(value_name = "FILE")]
        input: PathBuf,
    },
}

/// Runs `rookling data`.
pub fn run(args: DataArgs) -> Result<ExitCode, CliError> {
    match args.command {
        DataCommand::Convert { out, inputs } => convert(&out, &inputs),
        DataCommand::Merge { out, inputs } => merge(&out, &inputs),
        DataCommand::Stats { legal, inputs } => stats(&inputs, legal),
        DataCommand::Show { skip, count, input } => show(&input, skip, count),
    }
}

fn data_error(e: crate::data::DataError) -> CliError {
    CliError::Other(e.to_string())
}

/// A new output file, written as `OUT.partial` and renamed when complete (a failed run
/// leaves neither a half-written `OUT` nor the `.partial` behind).
struct NewFile {
    path: PathBuf,
    partial: Unfinished,
    writer: BufWriter<File>,
}

/// A file removed when dropped, unless it was finished.
struct Unfinished {
    path: PathBuf,
    finished: bool,
}

impl Drop for Unfinished {
    fn drop(&mut self) {
        if !self.finished {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl NewFile {
    fn create(path: &Path, inputs: &[PathBuf]) -> Result<Self, CliError> {
        if path.exists() {
            return Err(CliError::Other(format!(
                "{} exists: give a new file (data is never overwritten)",
                path.display()
            )));
        }
        let mut partial = path.as_os_str().to_owned();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        if inputs.contains(&partial) {
            return Err(CliError::Other(format!(
                "{} is an input: give another output file",
                partial.display()
            )));
        }
        let file = File::create(&partial).map_err(CliError::file(&partial, "create"))?;
        Ok(Self {
            path: path.to_path_buf(),
            partial: Unfinished {
                path: partial,
                finished: false,
            },
            writer: BufWriter::with_capacity(1 << 20, file),
        })
    }

    fn write(&mut self, record: &Record) -> Result<(), CliError> {
        self.writer
            .write_all(&record.to_bytes())
            .map_err(CliError::file(&self.partial.path, "write"))
    }

    fn finish(mut self) -> Result<(), CliError> {
        let partial = &self.partial.path;
        let file = self
            .writer
            .into_inner()
            .map_err(|e| CliError::file(partial, "write")(e.into_error()))?;
        file.sync_all().map_err(CliError::file(partial, "write"))?;
        std::fs::rename(partial, &self.path).map_err(CliError::file(&self.path, "create"))?;
        self.partial.finished = true;
        Ok(())
    }
}

fn convert(out: &Path, inputs: &[PathBuf]) -> Result<ExitCode, CliError> {
    let mut output = NewFile::create(out, inputs)?;
    let (mut written, mut games, mut skipped) = (0u64, 0u64, 0u64);
    let mut first_skip = None;
    for path in inputs {
        let input = File::open(path).map_err(CliError::file(path, "open"))?;
        let mut reader = BufReader::with_capacity(1 << 20, input);
        let mut previous: Option<TextPosition> = None;
        let (mut line, mut number) = (String::new(), 0u64);
        loop {
            line.clear();
            let n = reader
                .read_line(&mut line)
                .map_err(CliError::file(path, "read"))?;
            if n == 0 {
                break;
            }
            number += 1;
            let parsed = if line.ends_with('\n') {
                TextPosition::parse(line.trim_end()).map_err(|e| e.to_string())
            } else {
                Err("no end of line (a line still being written?)".to_string())
            };
            let current = match parsed {
                Ok(current) => current,
                Err(why) => {
                    skipped += 1;
                    first_skip.get_or_insert_with(|| format!("{}:{number}: {why}", path.display()));
                    continue;
                }
            };
            if let Some(prev) = previous.take() {
                let ends = prev.starts_another_game(&current);
                output.write(&prev.record(ends))?;
                written += 1;
                games += u64::from(ends);
            }
            previous = Some(current);
        }
        if let Some(last) = previous {
            output.write(&last.record(true))?;
            written += 1;
            games += 1;
        }
    }
    output.finish()?;
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "{written} positions in {games} games written to {}; {skipped} lines skipped",
        out.display()
    )?;
    if let Some(first) = first_skip {
        writeln!(stdout, "first skipped line: {first}")?;
    }
    Ok(ExitCode::SUCCESS)
}

fn merge(out: &Path, inputs: &[PathBuf]) -> Result<ExitCode, CliError> {
    let mut output = NewFile::create(out, inputs)?;
    let (mut written, mut games) = (0u64, 0u64);
    let mut stdout = std::io::stdout().lock();
    for path in inputs {
        let mut reader = Reader::open(path).map_err(data_error)?;
        let mut game = Vec::new();
        let mut file_games = 0u64;
        while let Some(record) = reader.next_record().map_err(data_error)? {
            game.push(record);
            if record.ends_game() {
                for r in &game {
                    output.write(r)?;
                }
                written += game.len() as u64;
                file_games += 1;
                game.clear();
            }
        }
        games += file_games;
        write!(stdout, "{}: {file_games} games", path.display())?;
        if !game.is_empty() || reader.partial_bytes() > 0 {
            write!(
                stdout,
                " (left out: {} records of an unfinished game, {} bytes of a record)",
                game.len(),
                reader.partial_bytes()
            )?;
        }
        writeln!(stdout)?;
    }
    output.finish()?;
    writeln!(
        stdout,
        "{written} positions in {games} games written to {}",
        out.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// What `stats` counts.
#[derive(Default)]
struct Tally {
    positions: u64,
    games: u64,
    /// Games by white's result: black won, draw, white won.
    results: [u64; 3],
    abs_score: u64,
    within_100: u64,
    pieces: u64,
}

impl Tally {
    fn add(&mut self, record: &Record) {
        self.positions += 1;
        let score = i64::from(record.white_score()).unsigned_abs();
        self.abs_score += score;
        self.within_100 += u64::from(score <= 100);
        self.pieces += u64::from(record.occupancy().count());
        if record.ends_game() {
            self.games += 1;
            self.results[record.result() as usize] += 1;
        }
    }

    fn line(&self, name: &str, scan: Option<&file::Scan>) -> String {
        let per = |x: u64| x as f64 / self.positions.max(1) as f64;
        let mut line = format!(
            "{name}: {} positions, {} games ({:.1} positions a game); white +{} ={} -{}; \
             mean |score| {:.0} cp, {:.1}% within 100 cp; {:.1} pieces a position",
            self.positions,
            self.games,
            self.positions as f64 / self.games.max(1) as f64,
            self.results[2],
            self.results[1],
            self.results[0],
            per(self.abs_score),
            100.0 * per(self.within_100),
            per(self.pieces),
        );
        if let Some(scan) = scan.filter(|s| !s.is_whole()) {
            line += &format!(
                "; then {} records of an unfinished game and {} bytes of a record",
                scan.unfinished, scan.partial_bytes
            );
        }
        line
    }
}

fn stats(inputs: &[PathBuf], legal: bool) -> Result<ExitCode, CliError> {
    let mut total = Tally::default();
    let mut stdout = std::io::stdout().lock();
    for path in inputs {
        let mut tally = Tally::default();
        let mut reader = Reader::open(path).map_err(data_error)?;
        let mut unfinished = 0;
        while let Some(record) = reader.next_record().map_err(data_error)? {
            if legal && let Err(e) = record.to_position() {
                return Err(CliError::Other(format!(
                    "{}: record {}: {e}",
                    path.display(),
                    tally.positions
                )));
            }
            tally.add(&record);
            total.add(&record);
            unfinished = if record.ends_game() {
                0
            } else {
                unfinished + 1
            };
        }
        let scan = file::Scan {
            records: tally.positions - unfinished,
            games: tally.games,
            unfinished,
            partial_bytes: reader.partial_bytes(),
        };
        writeln!(
            stdout,
            "{}",
            tally.line(&path.display().to_string(), Some(&scan))
        )?;
    }
    if inputs.len() > 1 {
        writeln!(stdout, "{}", total.line("all", None))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn show(input: &Path, skip: u64, count: Option<u64>) -> Result<ExitCode, CliError> {
    let mut reader = Reader::open(input).map_err(data_error)?;
    let mut stdout = BufWriter::new(std::io::stdout().lock());
    let (mut index, mut shown) = (0u64, 0u64);
    while count.is_none_or(|c| shown < c) {
        let Some(record) = reader.next_record().map_err(data_error)? else {
            break;
        };
        index += 1;
        if index > skip {
            writeln!(stdout, "{}", TextPosition::line(&record))?;
            shown += 1;
        }
    }
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}
