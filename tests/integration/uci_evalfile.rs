//! `setoption name EvalFile` through the real binary: a copy of the built-in network
//! evaluates as the built-in one; a network whose output biases are raised by 100 cp
//! raises every network evaluation by 100 cp; a missing or truncated file is reported
//! and the network stays; `<built-in>` brings the built-in one back; and a search
//! already running or queued when the option arrives keeps the network it started with.

use crate::common;

use common::Uci;
use common::run::fresh_folder;
use rookling::nnue::{Network, QA, QB, SCALE};
use std::path::{Path, PathBuf};

/// The built-in network's file.
const DEFAULT: &[u8] = include_bytes!("../../nets/default.nnue");

/// Positions without an endgame rule, either side to move.
const POSITIONS: [&str; 3] = [
    "startpos",
    "fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 5 4",
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

/// How much the raised network adds to every evaluation, side to move's view.
const RAISE_CP: i32 = 100;

fn engine() -> Uci {
    Uci::start(Path::new(env!("CARGO_BIN_EXE_rookling")))
}

/// The built-in network with every output bias raised by [`RAISE_CP`] centipawns.
fn raised() -> Vec<u8> {
    let mut net = Network::from_bytes(DEFAULT).expect("nets/default.nnue reads");
    for bias in net.out_bias.iter_mut() {
        // The output is `(dot / QA + bias) * SCALE / (QA * QB)`.
        *bias += RAISE_CP * QA * QB / SCALE;
    }
    net.to_bytes()
}

/// `bytes` written as `name` in a folder of this test's own.
fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = fresh_folder("evalfile", name).join(format!("{name}.nnue"));
    std::fs::write(&path, bytes).expect("write a network file");
    path
}

/// Sets `EvalFile` and returns the lines before `readyok`.
fn set(uci: &mut Uci, value: &str) -> Vec<String> {
    uci.send(&format!("setoption name EvalFile value {value}"));
    uci.sync()
}

/// The `eval` lines of every position of [`POSITIONS`].
fn evals(uci: &mut Uci) -> Vec<Vec<String>> {
    POSITIONS
        .iter()
        .map(|pos| {
            uci.send(&format!("position {pos}"));
            uci.send("eval");
            uci.read_until(|l| l.starts_with("Final evaluation: "))
        })
        .collect()
}

/// The side to move's score on the `Network evaluation` line of one `eval` answer.
fn network_cp(lines: &[String]) -> i32 {
    let line = &lines[0];
    line.strip_prefix("Network evaluation: white ")
        .and_then(|rest| rest.split(", side to move ").nth(1))
        .and_then(|cp| cp.strip_suffix(" cp"))
        .and_then(|cp| cp.parse().ok())
        .unwrap_or_else(|| panic!("not a network evaluation: {line}"))
}

/// `info string EvalFile: evaluating with NAME (SHAPE)` for `bytes`' shape.
fn loaded(name: &str, bytes: &[u8]) -> String {
    let net = Network::from_bytes(bytes).expect("a network");
    format!(
        "info string EvalFile: evaluating with {name} ({} hidden neurons, {} output buckets)",
        net.hidden(),
        net.buckets()
    )
}

#[test]
fn a_network_file_replaces_the_built_in_one_until_it_is_asked_back() {
    let mut uci = engine();
    let built_in = evals(&mut uci);

    // A copy of the built-in network evaluates exactly as the built-in one.
    let copy = file("copy", DEFAULT);
    let name = format!("'{}'", copy.display());
    assert_eq!(
        set(&mut uci, &copy.to_string_lossy()),
        [loaded(&name, DEFAULT)]
    );
    assert_eq!(evals(&mut uci), built_in);

    // Raised biases raise every network evaluation by 100 cp (within the output's
    // rounding towards zero), for the side to move.
    let raised_bytes = raised();
    let raised = file("raised", &raised_bytes);
    let name = format!("'{}'", raised.display());
    assert_eq!(
        set(&mut uci, &raised.to_string_lossy()),
        [loaded(&name, &raised_bytes)]
    );
    let raised_evals = evals(&mut uci);
    for ((pos, before), after) in POSITIONS.iter().zip(&built_in).zip(&raised_evals) {
        let (before, after) = (network_cp(before), network_cp(after));
        assert!(
            (after - before - RAISE_CP).abs() <= 1,
            "{pos}: {before} cp, then {after} cp"
        );
    }

    // A missing file and a truncated one are reported; the network stays.
    let missing = raised.with_file_name("missing.nnue");
    let lines = set(&mut uci, &missing.to_string_lossy());
    let prefix = format!(
        "info string error: EvalFile: cannot read '{}': ",
        missing.display()
    );
    assert!(
        lines.len() == 1 && lines[0].starts_with(&prefix),
        "{lines:?}"
    );
    assert_eq!(evals(&mut uci), raised_evals);
    let cut = file("cut", &raised_bytes[..raised_bytes.len() - 1]);
    assert_eq!(
        set(&mut uci, &cut.to_string_lossy()),
        [format!(
            "info string error: EvalFile: '{}': a network file of {} bytes, not {}",
            cut.display(),
            raised_bytes.len() - 1,
            raised_bytes.len()
        )]
    );
    assert_eq!(evals(&mut uci), raised_evals);

    // `<built-in>` brings the built-in network back.
    assert_eq!(
        set(&mut uci, "<built-in>"),
        [loaded("the built-in network", DEFAULT)]
    );
    assert_eq!(evals(&mut uci), built_in);
    for path in [copy, raised, cut] {
        if let Some(dir) = path.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// The depth of the searches that tell the networks apart: long enough (30 ms on an
/// idle machine) for the lines sent after its `go` to arrive while it runs.
const DEPTH: u32 = 14;

/// `go depth DEPTH` from the start position, then the lines `then`: the search's
/// nodes, and the lines up to `bestmove`.
fn search(uci: &mut Uci, then: &[&str]) -> (u64, Vec<String>) {
    uci.send("position startpos");
    uci.send(&format!("go depth {DEPTH}"));
    for line in then {
        uci.send(line);
    }
    let lines = uci.read_until(|l| l.starts_with("bestmove"));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with(&format!("info depth {DEPTH} ")))
        .unwrap_or_else(|| panic!("no depth {DEPTH} in {lines:?}"));
    let words: Vec<&str> = last.split(' ').collect();
    let nodes = words
        .iter()
        .position(|w| *w == "nodes")
        .and_then(|i| words.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no nodes in {last}"));
    (nodes, lines)
}

/// `EvalFile` sent right after a `go` (while its search is queued or running) is used
/// by `eval` at once and by the next search; the search sent before it keeps the
/// network it was sent with, as searches keep every option sent after them. Searches
/// of one thread from a fresh hash table are repeatable, so node counts tell the
/// networks apart.
#[test]
fn a_search_keeps_the_network_it_started_with() {
    let raised_bytes = raised();
    let raised = file("search", &raised_bytes);
    let path = raised.to_string_lossy().into_owned();
    let (built_in_nodes, _) = search(&mut engine(), &[]);
    let mut fresh = engine();
    set(&mut fresh, &path);
    let (raised_nodes, _) = search(&mut fresh, &[]);
    assert_ne!(
        built_in_nodes, raised_nodes,
        "the two networks search different trees"
    );

    let mut uci = engine();
    let set_then_eval = [
        format!("setoption name EvalFile value {path}"),
        "eval".to_string(),
    ];
    let set_then_eval: Vec<&str> = set_then_eval.iter().map(String::as_str).collect();
    let (nodes, mut after) = search(&mut uci, &set_then_eval);
    assert_eq!(
        nodes, built_in_nodes,
        "the search sent first keeps its network"
    );
    // The option and `eval` are answered at once (before `bestmove` unless the
    // search was over first), `eval` with the new network.
    after.extend(uci.sync());
    let name = format!("'{}'", raised.display());
    assert!(after.contains(&loaded(&name, &raised_bytes)), "{after:?}");
    let network = after
        .iter()
        .position(|l| l.starts_with("Network evaluation: "))
        .map(|i| network_cp(&after[i..]))
        .unwrap_or_else(|| panic!("no eval answer in {after:?}"));
    let mut check = engine();
    let built_in_cp = network_cp(&evals(&mut check)[0]);
    assert!(
        (network - built_in_cp - RAISE_CP).abs() <= 1,
        "eval with the new network: {network} cp, built-in {built_in_cp} cp"
    );

    // The next search uses it: from a fresh table, as the fresh engine's.
    uci.send("ucinewgame");
    let (nodes, _) = search(&mut uci, &[]);
    assert_eq!(nodes, raised_nodes, "the next search uses the new network");
    if let Some(dir) = raised.parent() {
        let _ = std::fs::remove_dir_all(dir);
    }
}
