//! Files of records: nothing but [`Record`]s back to back, games whole and in order (the
//! last record of each game flagged), so files merge by concatenation and a file cut
//! short by a crash or a kill is recovered by dropping its unfinished last game.

use super::record::{RECORD_BYTES, Record, RecordError};
use std::fmt;
use std::fs::File;
use std::io::{BufReader, ErrorKind, Read};
use std::path::{Path, PathBuf};

/// A failure to read or write a data file, naming it.
#[derive(Debug)]
pub struct DataError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub kind: DataErrorKind,
}

/// What went wrong with a data file.
#[derive(Debug)]
pub enum DataErrorKind {
    /// The system refused to `action` ("open", "read", ...) it.
    Io(&'static str, std::io::Error),
    /// Record number `index` (from 0) is malformed.
    Record(u64, RecordError),
    /// It does not end on a finished game (`records` records after the last one).
    Unfinished(u64),
    /// Its length is not a whole number of records (`bytes` left over).
    PartialRecord(u64),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.kind {
            DataErrorKind::Io(action, e) => write!(f, "cannot {action} {path}: {e}"),
            DataErrorKind::Record(i, e) => write!(
                f,
                "{path}: record {i} (byte {}) is not a training position: {e}",
                i * RECORD_BYTES as u64
            ),
            DataErrorKind::Unfinished(n) => write!(
                f,
                "{path}: ends inside a game ({n} records after the last finished game)"
            ),
            DataErrorKind::PartialRecord(n) => write!(
                f,
                "{path}: ends with {n} bytes of a record ({RECORD_BYTES} bytes each)"
            ),
        }
    }
}

impl std::error::Error for DataError {}

impl DataError {
    /// A failure to `action` the file at `path`.
    pub fn io(path: &Path, action: &'static str) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.to_path_buf();
        move |e| Self {
            path,
            kind: DataErrorKind::Io(action, e),
        }
    }
}

/// What a file holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    /// Records in finished games.
    pub records: u64,
    /// Finished games.
    pub games: u64,
    /// Records after the last finished game (a game cut short).
    pub unfinished: u64,
    /// Bytes after the last whole record.
    pub partial_bytes: u64,
}

impl Scan {
    /// The length of the file's finished games, in bytes.
    pub fn finished_bytes(&self) -> u64 {
        self.records * RECORD_BYTES as u64
    }

    /// Whether the file ends exactly on a finished game.
    pub fn is_whole(&self) -> bool {
        self.unfinished == 0 && self.partial_bytes == 0
    }
}

/// Reads the records of a file in order, checking each.
pub struct Reader {
    path: PathBuf,
    input: BufReader<File>,
    index: u64,
    /// Bytes after the last whole record, once the end is reached.
    partial_bytes: u64,
}

impl Reader {
    /// Opens `path`.
    pub fn open(path: &Path) -> Result<Self, DataError> {
        let file = File::open(path).map_err(DataError::io(path, "open"))?;
        Ok(Self {
            path: path.to_path_buf(),
            input: BufReader::with_capacity(1 << 20, file),
            index: 0,
            partial_bytes: 0,
        })
    }

    /// The next record; `None` at the end (a partial record there is counted, not read).
    pub fn next_record(&mut self) -> Result<Option<Record>, DataError> {
        let mut bytes = [0u8; RECORD_BYTES];
        let mut filled = 0;
        while filled < RECORD_BYTES {
            match self.input.read(&mut bytes[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(DataError::io(&self.path, "read")(e)),
            }
        }
        if filled < RECORD_BYTES {
            self.partial_bytes = filled as u64;
            return Ok(None);
        }
        let record = Record::from_bytes(bytes).map_err(|e| DataError {
            path: self.path.clone(),
            kind: DataErrorKind::Record(self.index, e),
        })?;
        self.index += 1;
        Ok(Some(record))
    }

    /// Bytes after the last whole record (known once `next_record` returned `None`).
    pub fn partial_bytes(&self) -> u64 {
        self.partial_bytes
    }
}

/// Reads `path` through, checking every record, and says what it holds. With
/// `legal`, also checks that every position is legal (slower: a FEN is parsed).
pub fn scan(path: &Path, legal: bool) -> Result<Scan, DataError> {
    scan_records(path, legal, u64::MAX)
}

/// [`scan`] of the first `limit` records only.
fn scan_records(path: &Path, legal: bool, limit: u64) -> Result<Scan, DataError> {
    let mut reader = Reader::open(path)?;
    let mut scan = Scan::default();
    let mut index = 0;
    while index < limit
        && let Some(record) = reader.next_record()?
    {
        if legal && let Err(e) = record.to_position() {
            return Err(DataError {
                path: path.to_path_buf(),
                kind: DataErrorKind::Record(index, e),
            });
        }
        index += 1;
        scan.unfinished += 1;
        if record.ends_game() {
            scan.records += scan.unfinished;
            scan.unfinished = 0;
            scan.games += 1;
        }
    }
    scan.partial_bytes = reader.partial_bytes();
    Ok(scan)
}

/// Whether every byte of `path` from `offset` on is zero.
fn zeros_from(path: &Path, offset: u64) -> Result<bool, DataError> {
    let mut file = File::open(path).map_err(DataError::io(path, "open"))?;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(offset))
        .map_err(DataError::io(path, "read"))?;
    let mut input = BufReader::with_capacity(1 << 16, file);
    let mut chunk = [0u8; 1 << 16];
    loop {
        match input.read(&mut chunk) {
            Ok(0) => return Ok(true),
            Ok(n) if chunk[..n].iter().any(|&b| b != 0) => return Ok(false),
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(DataError::io(path, "read")(e)),
        }
    }
}

/// Cuts `path` back to its last finished game and says what is left. What a killed
/// `datagen` leaves is an unfinished game at most; a crash of the machine can also
/// leave zero bytes where the last writes were lost, and those are cut too. Any other
/// malformed record is an error and nothing is cut.
pub fn recover(path: &Path) -> Result<Scan, DataError> {
    let (found, cut) = match scan(path, false) {
        Ok(found) => (found, !found.is_whole()),
        Err(DataError {
            kind: DataErrorKind::Record(index, _),
            ..
        }) if zeros_from(path, index * RECORD_BYTES as u64)? => {
            (scan_records(path, false, index)?, true)
        }
        Err(e) => return Err(e),
    };
    if cut {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(DataError::io(path, "open"))?;
        file.set_len(found.finished_bytes())
            .map_err(DataError::io(path, "truncate"))?;
        file.sync_all().map_err(DataError::io(path, "write"))?;
    }
    Ok(Scan {
        unfinished: 0,
        partial_bytes: 0,
        ..found
    })
}

/// Every record of `path`'s finished games, checked, in order (what comes after the
/// last finished game is left out: a file still being written can be read). Appends to
/// `out` and returns the scan.
pub fn read_finished(path: &Path, out: &mut Vec<Record>) -> Result<Scan, DataError> {
    let start = out.len();
    let mut reader = Reader::open(path)?;
    let mut scan = Scan::default();
    while let Some(record) = reader.next_record()? {
        out.push(record);
        scan.unfinished += 1;
        if record.ends_game() {
            scan.records += scan.unfinished;
            scan.unfinished = 0;
            scan.games += 1;
        }
    }
    scan.partial_bytes = reader.partial_bytes();
    out.truncate(start + scan.records as usize);
    Ok(scan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::data::GameResult;
    use std::io::Write;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("rookling-data-{}-{name}", std::process::id()))
    }

    fn game(n: usize) -> Vec<u8> {
        let pos = Position::startpos();
        (0..n)
            .flat_map(|i| Record::new(&pos, i as i32, GameResult::Draw, i + 1 == n).to_bytes())
            .collect()
    }

    #[test]
    fn a_cut_file_is_recovered_to_its_last_finished_game() {
        let path = temp("recover");
        let mut bytes = [game(3), game(2), game(4)].concat();
        bytes.truncate(bytes.len() - 40);
        std::fs::write(&path, &bytes).expect("write");
        let found = scan(&path, true).expect("scan");
        assert_eq!((found.records, found.games), (5, 2));
        assert_eq!((found.unfinished, found.partial_bytes), (2, 24));
        let left = recover(&path).expect("recover");
        assert!(left.is_whole());
        assert_eq!(std::fs::metadata(&path).map(|m| m.len()).ok(), Some(5 * 32));
        let mut records = Vec::new();
        let again = read_finished(&path, &mut records).expect("read");
        assert_eq!((again.records, again.games, records.len()), (5, 2, 5));
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_malformed_record_is_named_and_nothing_is_cut() {
        let path = temp("malformed");
        let mut bytes = [game(2), game(2)].concat();
        bytes[32 + 30] = 9;
        let mut file = File::create(&path).expect("create");
        file.write_all(&bytes).expect("write");
        drop(file);
        let error = recover(&path).expect_err("a bad result byte");
        let text = error.to_string();
        assert!(
            text.contains("record 1 (byte 32)") && text.contains("result 9"),
            "{text}"
        );
        assert_eq!(std::fs::metadata(&path).map(|m| m.len()).ok(), Some(128));
        // Zeros after a malformed record do not make it a lost write.
        bytes.extend([0; 100]);
        std::fs::write(&path, &bytes).expect("write");
        assert!(recover(&path).is_err());
        assert_eq!(std::fs::metadata(&path).map(|m| m.len()).ok(), Some(228));
        let _ = std::fs::remove_file(&path);
    }

    /// A crash of the machine can leave the file's last blocks as zeros.
    #[test]
    fn a_tail_of_zeros_is_cut_back_to_the_last_finished_game() {
        let path = temp("zeros");
        let mut bytes = [game(3), game(2)].concat();
        bytes.truncate(4 * RECORD_BYTES); // the second game cut short...
        bytes.extend([0; 3 * RECORD_BYTES + 7]); // ...then lost writes
        std::fs::write(&path, &bytes).expect("write");
        let error = scan(&path, false).expect_err("zeros are no record");
        assert!(error.to_string().contains("record 4 (byte 128)"), "{error}");
        let left = recover(&path).expect("recover");
        assert_eq!((left.records, left.games), (3, 1));
        assert_eq!(std::fs::metadata(&path).map(|m| m.len()).ok(), Some(96));
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_whole_file_is_left_as_it_is() {
        let path = temp("whole");
        let bytes = [game(1), game(5)].concat();
        std::fs::write(&path, &bytes).expect("write");
        let left = recover(&path).expect("recover");
        assert_eq!((left.records, left.games), (6, 2));
        assert_eq!(std::fs::read(&path).ok(), Some(bytes));
        std::fs::write(&path, []).expect("write");
        assert_eq!(recover(&path).expect("empty"), Scan::default());
        let _ = std::fs::remove_file(&path);
    }

    /// A file read while `datagen` writes it: only its finished games.
    #[test]
    fn only_finished_games_are_read() {
        let path = temp("finished");
        let mut bytes = [game(2), game(3)].concat();
        bytes.truncate(bytes.len() - RECORD_BYTES);
        std::fs::write(&path, &bytes).expect("write");
        let mut records = vec![Record::new(
            &Position::startpos(),
            7,
            GameResult::Draw,
            true,
        )];
        let found = read_finished(&path, &mut records).expect("read");
        assert_eq!((found.records, found.unfinished), (2, 2));
        assert_eq!(records.len(), 3);
        assert_eq!(records[0].white_score(), 7);
        assert!(records[2].ends_game() && !records[1].ends_game());
        let _ = std::fs::remove_file(&path);
    }
}
