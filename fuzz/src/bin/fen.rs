//! AFL++ target: see [`rookling_fuzz::checks::fen`].

fn main() {
    afl::fuzz!(|data: &[u8]| rookling_fuzz::checks::fen(data));
}
