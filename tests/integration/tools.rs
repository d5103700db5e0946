//! The programs some tests need: Stockfish (the reference perft and UCI behaviour), GNU
//! parallel (distributed perft) and Fathom (the Syzygy prober tablebase probes are
//! checked against). `build.rs` looks for them and sets `has_stockfish`, `has_parallel`
//! and `has_fathom`; tests that need one are ignored without it. Under CI (`CI` set) a
//! missing program is a failure here, so CI never passes with those tests ignored.

/// The `cfg`s reach the integration tests and say what is really there (each is set
/// exactly when the program can be found now); under CI every program must be there.
#[test]
fn tool_cfgs_match_the_machine() {
    let found = |program: &str, extra: &[&str]| {
        let on_path = std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()));
        on_path
            || extra
                .iter()
                .any(|d| std::path::Path::new(d).join(program).is_file())
    };
    assert_eq!(
        cfg!(has_stockfish),
        found("stockfish", &["/usr/games"]),
        "has_stockfish is stale: rebuild"
    );
    assert_eq!(
        cfg!(has_parallel),
        found("parallel", &[]),
        "has_parallel is stale: rebuild"
    );
    assert_eq!(
        cfg!(has_fathom),
        found("fathom", &["/usr/games"]),
        "has_fathom is stale: rebuild"
    );
    if std::env::var_os("CI").is_some() {
        let (stockfish, parallel, fathom) =
            (cfg!(has_stockfish), cfg!(has_parallel), cfg!(has_fathom));
        assert!(
            stockfish,
            "CI: Stockfish not found on PATH or in /usr/games"
        );
        assert!(parallel, "CI: GNU parallel not found on PATH");
        assert!(fathom, "CI: fathom not found on PATH or in /usr/games");
    }
}
