//! AFL++ target: see [`rookling_fuzz::checks::uci_line`].

fn main() {
    afl::fuzz!(|data: &[u8]| rookling_fuzz::checks::uci_line(data));
}
