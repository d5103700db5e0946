//! AFL++ target: see [`rookling_fuzz::checks::movegen`].

fn main() {
    afl::fuzz!(|data: &[u8]| rookling_fuzz::checks::movegen(data));
}
