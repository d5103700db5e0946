//! Finding Syzygy table files: the directories of a `SyzygyPath`, the tables in each
//! (named as the generator names them, with the right size and magic number), and the
//! directories the prober may be given.
//!
//! The prober (pyrrhic-rs 0.2) cannot be trusted to count tables itself: it reports every
//! table name as present, even in an empty directory, and maps a truncated file it would
//! then read past. So the tables are counted here, and a directory holding a file that is
//! not a complete table is not given to the prober at all.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The two files of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `.rtbw`: win, draw or loss, read during the search.
    Wdl,
    /// `.rtbz`: distance to zeroing (the next capture or pawn move), read at the root.
    Dtz,
}

impl Kind {
    /// The file name's extension.
    pub const fn extension(self) -> &'static str {
        match self {
            Self::Wdl => "rtbw",
            Self::Dtz => "rtbz",
        }
    }

    /// The first four bytes of every file of this kind.
    const fn magic(self) -> [u8; 4] {
        match self {
            Self::Wdl => 0x5d23_e871_u32.to_le_bytes(),
            Self::Dtz => 0xa50c_66d7_u32.to_le_bytes(),
        }
    }
}

/// Pieces in the order table names list them.
const PIECE_ORDER: [char; 5] = ['Q', 'R', 'B', 'N', 'P'];

/// The most pieces a Syzygy table has.
pub const MAX_PIECES: u32 = 7;

/// A table's material, `[white or first side, second side]`, each as counts of queens,
/// rooks, bishops, knights and pawns (kings left out).
pub type Material = [[u8; 5]; 2];

/// The material of a table named `name` (`KQvKR`), if it is a table name as the generator
/// writes it: each side a king then its pieces from queen to pawn, the stronger side
/// first (more pieces; with as many, the higher piece first), 3 to 7 pieces in all.
pub fn parse_name(name: &str) -> Option<Material> {
    let (first, second) = name.split_once('v')?;
    let side = |text: &str| -> Option<[u8; 5]> {
        let pieces = text.strip_prefix('K')?;
        let mut counts = [0u8; 5];
        let mut last = 0;
        for c in pieces.chars() {
            let i = PIECE_ORDER.iter().position(|&p| p == c)?;
            if i < last {
                return None;
            }
            last = i;
            counts[i] += 1;
        }
        Some(counts)
    };
    let material = [side(first)?, side(second)?];
    let total: u32 = material
        .iter()
        .flatten()
        .map(|&n| u32::from(n))
        .sum::<u32>()
        + 2;
    let strength = |counts: &[u8; 5]| {
        let pieces: u8 = counts.iter().sum();
        (pieces, *counts)
    };
    ((3..=MAX_PIECES).contains(&total) && strength(&material[0]) >= strength(&material[1]))
        .then_some(material)
}

/// The number of pieces, kings included, of a table's material.
pub fn piece_count(material: &Material) -> u32 {
    material
        .iter()
        .flatten()
        .map(|&n| u32::from(n))
        .sum::<u32>()
        + 2
}

/// Which files of one table were found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Files {
    /// The `.rtbw` file.
    pub wdl: bool,
    /// The `.rtbz` file.
    pub dtz: bool,
}

/// What the directories of a `SyzygyPath` hold.
#[derive(Debug, Default)]
pub struct Found {
    /// The directories that hold tables and may be given to the prober, in the path's
    /// order, each as the prober must be given it.
    pub dirs: Vec<String>,
    /// Every table found, by name (`KQvKR`), with its material and files.
    pub tables: BTreeMap<String, (Material, Files)>,
    /// Why a directory of the path is not used, one sentence each.
    pub problems: Vec<String>,
}

impl Found {
    /// Tables with a WDL file.
    pub fn wdl_count(&self) -> usize {
        self.tables.values().filter(|(_, f)| f.wdl).count()
    }

    /// Tables with a DTZ file.
    pub fn dtz_count(&self) -> usize {
        self.tables.values().filter(|(_, f)| f.dtz).count()
    }

    /// The most pieces of a table with a WDL file (0 without tables).
    pub fn largest(&self) -> u32 {
        self.tables
            .values()
            .filter(|(_, f)| f.wdl)
            .map(|(m, _)| piece_count(m))
            .max()
            .unwrap_or(0)
    }
}

/// The directories of `path`, separated as the platform separates `PATH` (`:` on Unix,
/// `;` on Windows); an empty path or `<empty>` (Stockfish's default) names none.
pub fn split(path: &str) -> Vec<PathBuf> {
    let path = path.trim();
    if path.is_empty() || path == "<empty>" {
        return Vec::new();
    }
    std::env::split_paths(path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .collect()
}

/// Finds the tables in the directories of `path` (see [`split`]).
pub fn scan(path: &str) -> Found {
    let mut found = Found::default();
    for dir in split(path) {
        match scan_dir(&dir) {
            Ok(tables) if tables.is_empty() => found.problems.push(format!(
                "no Syzygy tables (*.rtbw, *.rtbz) in '{}'",
                dir.display()
            )),
            Ok(tables) => match prober_dir(&dir) {
                Ok(text) => {
                    if found.dirs.contains(&text) {
                        continue;
                    }
                    found.dirs.push(text);
                    for (name, material, files) in tables {
                        let entry = found
                            .tables
                            .entry(name)
                            .or_insert((material, Files::default()));
                        entry.1.wdl |= files.wdl;
                        entry.1.dtz |= files.dtz;
                    }
                }
                Err(why) => found.problems.push(why),
            },
            Err(why) => found.problems.push(why),
        }
    }
    found
}

/// The tables in `dir`; an error (and the directory not used) when it cannot be read or
/// holds a table file that is not complete (wrong size or magic number).
fn scan_dir(dir: &Path) -> Result<Vec<(String, Material, Files)>, String> {
    let shown = dir.display();
    if !dir.is_dir() {
        return Err(format!("'{shown}' is not a directory"));
    }
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read '{shown}': {e}"))?;
    let mut tables: BTreeMap<String, (Material, Files)> = BTreeMap::new();
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some((stem, kind)) = file_name.to_str().and_then(table_file) else {
            continue;
        };
        let Some(material) = parse_name(stem) else {
            continue;
        };
        let path = entry.path();
        check_file(&path, kind).map_err(|why| {
            format!(
                "'{}' is not a complete Syzygy table ({why}); '{shown}' is not used",
                path.display()
            )
        })?;
        let files = &mut tables
            .entry(stem.to_string())
            .or_insert((material, Files::default()))
            .1;
        match kind {
            Kind::Wdl => files.wdl = true,
            Kind::Dtz => files.dtz = true,
        }
    }
    Ok(tables
        .into_iter()
        .map(|(name, (material, files))| (name, material, files))
        .collect())
}

/// The table name and kind of a file name (`KQvKR.rtbw`), if it is one.
fn table_file(name: &str) -> Option<(&str, Kind)> {
    let (stem, extension) = name.rsplit_once('.')?;
    let kind = [Kind::Wdl, Kind::Dtz]
        .into_iter()
        .find(|k| k.extension() == extension)?;
    Some((stem, kind))
}

/// Whether `path` looks like a complete table file of `kind`: the generator writes
/// 64-byte blocks plus 16 bytes, starting with the kind's magic number.
fn check_file(path: &Path, kind: Kind) -> Result<(), String> {
    // Not opened unless a regular file: opening a FIFO would wait for a writer.
    let meta = fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let mut file = fs::File::open(path).map_err(|e| e.to_string())?;
    let size = meta.len();
    if size % 64 != 16 {
        return Err(format!("{size} bytes, not 64 x N + 16"));
    }
    let mut magic = [0u8; 4];
    file.read_exact(&mut magic).map_err(|e| e.to_string())?;
    if magic != kind.magic() {
        return Err("wrong magic number".into());
    }
    Ok(())
}

/// `dir` as the prober must be given it: pyrrhic-rs separates directories with `:` on
/// every platform, so a directory whose name holds one cannot be given to it.
#[cfg(not(windows))]
fn prober_dir(dir: &Path) -> Result<String, String> {
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    match absolute.to_str() {
        Some(text) if !text.contains(':') => Ok(text.to_string()),
        _ => Err(format!(
            "'{}': the tablebase prober cannot open a directory whose name holds ':' or is not UTF-8",
            dir.display()
        )),
    }
}

/// `dir` as the prober must be given it: pyrrhic-rs separates directories with `:` on
/// every platform, so `C:\tables` is given as `\tables`, which Windows reads on the
/// drive of the working directory; a directory on another drive cannot be given.
#[cfg(windows)]
fn prober_dir(dir: &Path) -> Result<String, String> {
    use std::path::{Component, Prefix};
    let drive = |path: &Path| match path.components().next() {
        Some(Component::Prefix(prefix)) => match prefix.kind() {
            Prefix::Disk(d) | Prefix::VerbatimDisk(d) => Some(d.to_ascii_uppercase()),
            _ => None,
        },
        _ => None,
    };
    let refuse = |why: &str| Err(format!("'{}': {why}", dir.display()));
    let Some(text) = dir.to_str() else {
        return refuse("the tablebase prober cannot open a directory whose name is not UTF-8");
    };
    let rest = match drive(dir) {
        None => text,
        Some(d) => {
            let here = std::env::current_dir().ok();
            if here.as_deref().and_then(drive) != Some(d) {
                return refuse(
                    "the tablebase prober can only open tables on the drive of the engine's working directory",
                );
            }
            // `C:\tables` (or `\\?\C:\tables`) without its drive: `\tables`.
            match text.split_once(':') {
                Some((_, rest)) if rest.starts_with(['\\', '/']) => rest,
                _ => return refuse("give the tables' directory as a full path (C:\\...)"),
            }
        }
    };
    if rest.contains(':') {
        return refuse("the tablebase prober cannot open a directory whose name holds ':'");
    }
    Ok(rest.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_read_as_the_generator_writes_them() {
        assert_eq!(parse_name("KQvK"), Some([[1, 0, 0, 0, 0], [0; 5]]));
        assert_eq!(
            parse_name("KRvKB"),
            Some([[0, 1, 0, 0, 0], [0, 0, 1, 0, 0]])
        );
        assert_eq!(parse_name("KBNvK"), Some([[0, 0, 1, 1, 0], [0; 5]]));
        assert_eq!(
            parse_name("KPvKP"),
            Some([[0, 0, 0, 0, 1], [0, 0, 0, 0, 1]])
        );
        assert!(parse_name("KRPvKR").is_some());
        assert!(parse_name("KQRvKQ").is_some());
        assert!(parse_name("KQRBNPPvK").is_none(), "8 pieces");
        // The weaker side first, pieces out of order, no king, not a table at all.
        for name in [
            "KRvKQ", "KvKQ", "KNBvK", "QvK", "KQ", "KvK", "KXvK", "readme",
        ] {
            assert_eq!(parse_name(name), None, "{name}");
        }
        // With as many pieces, the higher piece first: KRNvKRB, not KRBvKRN.
        assert!(parse_name("KRBvKRN").is_some());
        assert!(parse_name("KRNvKRB").is_none());
    }

    #[test]
    fn paths_split_as_the_platform_splits_path() {
        assert!(split("").is_empty());
        assert!(split("<empty>").is_empty());
        let sep = if cfg!(windows) { ';' } else { ':' };
        let dirs = split(&format!("a{sep}{sep}b"));
        assert_eq!(dirs, vec![PathBuf::from("a"), PathBuf::from("b")]);
    }

    #[test]
    fn missing_and_empty_directories_are_reported() {
        let found = scan("/no/such/directory/for/rookling");
        assert_eq!(found.largest(), 0);
        assert_eq!(found.problems.len(), 1, "{:?}", found.problems);
        assert!(found.problems[0].contains("not a directory"));
        let empty = std::env::temp_dir().join(format!("rookling-tb-empty-{}", std::process::id()));
        fs::create_dir_all(&empty).expect("temp dir");
        let found = scan(&empty.to_string_lossy());
        assert!(found.dirs.is_empty() && found.tables.is_empty());
        assert!(
            found.problems[0].contains("no Syzygy tables"),
            "{:?}",
            found.problems
        );
        // A truncated table keeps the whole directory from the prober.
        fs::write(empty.join("KQvK.rtbw"), [0x71, 0xe8, 0x23, 0x5d, 0, 0, 0]).expect("write");
        let found = scan(&empty.to_string_lossy());
        assert!(found.dirs.is_empty());
        assert!(
            found.problems[0].contains("not a complete Syzygy table"),
            "{:?}",
            found.problems
        );
        let _ = fs::remove_dir_all(&empty);
    }
}
