//! AFL++ target: see [`rookling_fuzz::checks::perft_modes`].

fn main() {
    afl::fuzz!(|data: &[u8]| rookling_fuzz::checks::perft_modes(data));
}
