//! Finding where two engines disagree: drive engines (UCI, perftree scripts, or
//! Rookling's own generator), drill down to the position whose move lists differ, and
//! report it.
//!
//! - [`config`]: which engine an ENGINE argument names (engines.json or a command line);
//! - [`engines`]: the engines themselves, one question each (a divide);
//! - [`html`]: a drill-down as a self-contained HTML page with SVG boards;
//! - [`hunt`]: generated positions until the candidate and the built-in reference
//!   differ;
//! - [`drill`]: the drill-down itself, pure;
//! - [`report`]: the step-by-step human output and the `--json` object;
//! - [`tags`]: what kind of move a difference is about.
//!
//! The engines themselves are driven through [`crate::client`]. The command lines are
//! in `cli/compare.rs` and `cli/suite.rs`.

pub mod config;
pub mod drill;
pub mod engines;
pub mod html;
pub mod hunt;
pub mod report;
pub mod tags;
