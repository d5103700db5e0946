//! AFL++ target: see [`rookling_fuzz::checks::epd`].

fn main() {
    afl::fuzz!(|data: &[u8]| rookling_fuzz::checks::epd(data));
}
