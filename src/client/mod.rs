//! The one client for other programs: how Rookling starts, finds and talks to other
//! engines and perft programs (used by `compare`, `suite`, `perft-bench` and the
//! tests).
//!
//! - [`locate`]: what to start ([`EngineSpec`]) and where a program is (`PATH`, then
//!   `/usr/games`);
//! - [`group`]: every child leads a process group of its own, ended as a whole (and
//!   killed when a signal ends Rookling);
//! - [`process`]: a child process spoken to line by line, every wait with a deadline,
//!   its output kept within bounds;
//! - [`engine`]: a UCI engine driven for perft (handshake, options, synchronised
//!   `go perft`);
//! - [`perft_output`]: reading perft answers and program output, pure;
//! - [`run`]: a program run as a whole process, timed, with a deadline;
//! - [`script`]: a perftree script, run once per divide (`COMMAND DEPTH FEN [MOVES]`).
//!
//! It depends on nothing else in the crate: the tools above it use it, never the other
//! way round.

pub mod engine;
pub mod group;
pub mod locate;
pub mod perft_output;
pub mod process;
pub mod run;
pub mod script;

pub use engine::{Engine, EngineError, EngineErrorKind};
pub use locate::EngineSpec;
pub use perft_output::Divide;
pub use process::{Limits, Received, UciProcess};
pub use script::Script;
