//! Rookling's integration tests: one module a topic (the CLI, UCI, perft, the search,
//! the tools), built as one test binary. One binary links (with the release profile's
//! fat LTO) once instead of once a file, which takes minutes off `cargo test --release`.
//! Run one topic with its module name as the filter, e.g.
//! `cargo test --release --test integration uci_protocol::`.
//!
//! Three files stay binaries of their own: `perft_suites.rs` (CI also runs it alone on
//! the oldest supported Rust, without the default features), `params.rs` (also run with
//! `--features tune`) and `soak.rs` (30 s of random command sequences, kept apart from
//! the timing-sensitive tests here).

#[path = "../common/mod.rs"]
mod common;

mod cli_bench;
mod cli_data;
mod cli_datagen;
mod cli_limits;
mod cli_perft;
mod compare;
mod compare_hostile;
mod data_records;
mod docs;
mod fen_properties;
mod fuzz_corpus;
mod hunt;
mod modules;
mod perft_bench;
mod perft_gct;
mod perft_limits;
mod perft_modes;
mod perft_stats;
mod perft_units;
mod perftree;
mod search;
mod search_multipv;
mod search_uci;
mod suite;
mod syzygy;
mod syzygy_uci;
mod tools;
mod uci_bad_input;
mod uci_divide_order;
mod uci_evalfile;
mod uci_gui_faults;
mod uci_perft_suites;
mod uci_piped;
mod uci_protocol;
mod vs_stockfish;
