//! AFL++ target: see [`rookling_fuzz::checks::uci_session`].

fn main() {
    afl::fuzz!(|data: &[u8]| rookling_fuzz::checks::uci_session(data));
}
