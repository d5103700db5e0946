//! `rookling params`: the search's tunable parameters as SPSA input, one OpenBench line
//! each (`name, int, default, min, max, c_end, r_end`), for `scripts/spsa.py` or an
//! OpenBench tune. The names are the UCI options of a tuning build (`--features tune`).

use super::CliError;
use crate::search::params::TABLE;
use std::io::Write;
use std::process::ExitCode;

/// Prints every parameter's SPSA line.
pub fn run() -> Result<ExitCode, CliError> {
    let mut out = std::io::stdout().lock();
    for param in TABLE {
        writeln!(out, "{param}")?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
