//! Finding where two engines disagree: drive UCI engines through `go perft`, drill
//! down to the position whose move lists differ, and report it.
//!
//! - [`config`]: which engine an ENGINE argument names (engines.json or a command line);
//! - [`drill`]: the drill-down itself, pure;
//! - [`report`]: the step-by-step human output and the `--json` object.
//!
//! The engines themselves are driven through [`crate::client`]. The command lines are
//! in `cli/compare.rs` and `cli/suite.rs`.

pub mod config;
pub mod drill;
pub mod report;
