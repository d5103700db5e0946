//! AFL++ target: see [`rookling_fuzz::checks::merge`].

fn main() {
    afl::fuzz!(|data: &[u8]| rookling_fuzz::checks::merge(data));
}
