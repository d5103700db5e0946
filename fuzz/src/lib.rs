//! Rookling's fuzz targets: each binary in `src/bin/` feeds AFL++'s inputs to one
//! function of [`checks`], which checks properties (not only "no panic") and panics on
//! a failure. See `docs/fuzzing.md`; run with `fuzz/fuzz.sh`.

pub mod checks;
pub mod decode;
pub mod reference;

/// A target's check: panics when a property fails for the input.
pub type Check = fn(&[u8]);

/// The targets, by name: the binary `src/bin/NAME.rs` and the corpus `corpus/NAME/`.
pub const TARGETS: [(&str, Check); 8] = [
    ("fen", checks::fen),
    ("uci_line", checks::uci_line),
    ("uci_session", checks::uci_session),
    ("movegen", checks::movegen),
    ("perft_modes", checks::perft_modes),
    ("epd", checks::epd),
    ("units", checks::units),
    ("merge", checks::merge),
];
