//! AFL++ target: see [`rookling_fuzz::checks::units`].

fn main() {
    afl::fuzz!(|data: &[u8]| rookling_fuzz::checks::units(data));
}
