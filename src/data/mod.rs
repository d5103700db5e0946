//! Training data for the evaluation network: self-play positions with their search
//! score and game result, as 32-byte [`Record`]s in files that outlive a machine
//! (`rookling datagen` writes them, `rookling data` converts, merges and inspects them,
//! `examples/train.rs` learns from them; see docs/nnue.md).
//!
//! [`record`] packs a position (no I/O); [`file`](mod@file) reads, checks and recovers
//! files of records; [`text`] reads the older `FEN | SCORE | RESULT` lines.

pub mod file;
pub mod record;
pub mod text;

pub use file::{DataError, DataErrorKind, Reader, Scan};
pub use record::{GameResult, RECORD_BYTES, Record, RecordError};
pub use text::{TextError, TextPosition};
