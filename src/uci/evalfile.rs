//! `setoption name EvalFile`: reads a network file (as `examples/train.rs` writes it)
//! before the next command is read, so before `readyok`, and says which network `eval`
//! and the searches from the next `go` on evaluate with. A file that cannot be used is
//! reported and the network stays as it was.

use super::options::EvalFile;
use crate::nnue::{HIDDEN, MAX_BUCKETS, Network, NetworkError, built_in_network};
use std::fmt;
use std::io::Read;
use std::sync::Arc;

/// The size of the largest network file this build reads: [`HIDDEN`] neurons and
/// [`MAX_BUCKETS`] output buckets. A larger file is refused unread.
const MAX_FILE_BYTES: usize = Network::file_bytes(HIDDEN, MAX_BUCKETS);

/// Why a network file was not loaded.
#[derive(Debug)]
pub enum LoadError {
    /// It could not be opened or read.
    Read {
        /// The path as given.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// It is not a regular file (a directory, a pipe, a device).
    NotAFile(String),
    /// It is larger than any network file this build reads.
    TooLarge(String),
    /// Its contents are not a network this build reads.
    Network {
        /// The path as given.
        path: String,
        /// What is wrong with it.
        error: NetworkError,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read { path, error } => write!(f, "cannot read '{path}': {error}"),
            Self::NotAFile(path) => write!(f, "'{path}' is not a file"),
            Self::TooLarge(path) => write!(
                f,
                "'{path}' is larger than any network file ({MAX_FILE_BYTES} bytes)"
            ),
            Self::Network { path, error } => write!(f, "'{path}': {error}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// The network `choice` names, and the `info string` text that says which it is and
/// its shape.
pub fn load(choice: &EvalFile) -> Result<(Arc<Network>, String), LoadError> {
    let (net, name) = match choice {
        EvalFile::BuiltIn => (built_in_network(), "the built-in network".to_string()),
        EvalFile::File(path) => (Arc::from(read(path)?), format!("'{path}'")),
    };
    let text = format!("EvalFile: evaluating with {name} ({})", shape(&net));
    Ok((net, text))
}

/// `256 hidden neurons, 8 output buckets`.
fn shape(net: &Network) -> String {
    let buckets = net.buckets();
    let plural = if buckets == 1 { "" } else { "s" };
    format!(
        "{} hidden neurons, {buckets} output bucket{plural}",
        net.hidden()
    )
}

/// Reads the network file at `path`. Only a regular file is opened (a pipe would wait
/// for a writer), and only up to one byte more than the largest network file.
fn read(path: &str) -> Result<Box<Network>, LoadError> {
    let failed = |error| LoadError::Read {
        path: path.to_string(),
        error,
    };
    if !std::fs::metadata(path).map_err(failed)?.is_file() {
        return Err(LoadError::NotAFile(path.to_string()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes))
        .map_err(failed)?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(LoadError::TooLarge(path.to_string()));
    }
    Network::from_bytes(&bytes).map_err(|error| LoadError::Network {
        path: path.to_string(),
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of its own in the temporary directory, removed when dropped.
    struct TempFile(std::path::PathBuf);

    impl TempFile {
        fn new(name: &str, bytes: &[u8]) -> Self {
            let path = std::env::temp_dir()
                .join(format!("rookling-evalfile-{}-{name}", std::process::id()));
            std::fs::write(&path, bytes).expect("a temporary file");
            Self(path)
        }

        fn choice(&self) -> EvalFile {
            EvalFile::File(self.0.to_string_lossy().into_owned())
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    #[test]
    fn the_built_in_network_and_a_copy_of_it() {
        let (net, text) = load(&EvalFile::BuiltIn).expect("the built-in network");
        assert!(Arc::ptr_eq(&net, &built_in_network()));
        assert_eq!(
            text,
            format!(
                "EvalFile: evaluating with the built-in network ({})",
                shape(&net)
            )
        );
        let copy = TempFile::new("copy.nnue", &net.to_bytes());
        let (read, text) = load(&copy.choice()).expect("a copy reads");
        assert_eq!(read.to_bytes(), net.to_bytes());
        assert!(text.starts_with(&format!("EvalFile: evaluating with '{}'", copy.0.display())));
        assert!(text.ends_with(&format!(" ({})", shape(&read))), "{text}");
    }

    #[test]
    fn files_that_are_no_network_are_refused() {
        let missing = EvalFile::File("/no/such/rookling/net.nnue".into());
        let why = load(&missing).err().map(|e| e.to_string());
        assert!(
            why.as_deref()
                .is_some_and(|w| w.starts_with("cannot read '/no/such/rookling/net.nnue': ")),
            "{why:?}"
        );
        let dir = EvalFile::File(std::env::temp_dir().to_string_lossy().into_owned());
        assert!(matches!(load(&dir), Err(LoadError::NotAFile(_))));
        let bytes = built_in_network().to_bytes();
        let cut = TempFile::new("cut.nnue", &bytes[..bytes.len() - 3]);
        assert!(matches!(
            load(&cut.choice()),
            Err(LoadError::Network {
                error: NetworkError::WrongLength { .. },
                ..
            })
        ));
        let long = TempFile::new("long.nnue", &vec![0; MAX_FILE_BYTES + 1]);
        assert!(matches!(load(&long.choice()), Err(LoadError::TooLarge(_))));
        let mut wide = bytes.clone();
        wide[4..8].copy_from_slice(&(HIDDEN as u32 * 2).to_le_bytes());
        let wide = TempFile::new("wide.nnue", &wide);
        let why = load(&wide.choice()).err().map(|e| e.to_string());
        assert_eq!(
            why,
            Some(format!(
                "'{}': a network of {} hidden neurons, not a multiple of 16 up to {HIDDEN}",
                wide.0.display(),
                HIDDEN * 2
            ))
        );
    }
}
