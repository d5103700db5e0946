//! The search parameters as a tuner meets them: `rookling params` prints SPSA input
//! lines that parse; only a tuning build (`--features tune`) offers them as UCI options,
//! where `setoption` changes the next search and a bad value is refused with the
//! previous one kept.

mod common;

use common::Uci;
use common::run::{rookling, stdout};
use std::path::Path;

/// One parsed SPSA line: name, default, min, max, c_end, r_end.
type SpsaLine = (String, i64, i64, i64, f64, f64);

/// Parses OpenBench's `name, int, default, min, max, c_end, r_end`.
fn parse_spsa(line: &str) -> Option<SpsaLine> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let [name, "int", default, min, max, c_end, r_end] = fields[..] else {
        return None;
    };
    let int = |s: &str| s.parse::<i64>().ok();
    let real = |s: &str| s.parse::<f64>().ok();
    Some((
        name.to_string(),
        int(default)?,
        int(min)?,
        int(max)?,
        real(c_end)?,
        real(r_end)?,
    ))
}

fn spsa_lines() -> Vec<SpsaLine> {
    let out = rookling(&["params"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    text.lines()
        .map(|l| parse_spsa(l).unwrap_or_else(|| panic!("not an SPSA line: {l:?}")))
        .collect()
}

#[test]
fn params_prints_spsa_input_that_parses() {
    let lines = spsa_lines();
    assert_eq!(lines.len(), 34);
    let mut names: Vec<&str> = lines.iter().map(|l| l.0.as_str()).collect();
    for (name, default, min, max, c_end, r_end) in &lines {
        assert!(min <= default && default <= max, "{name}");
        assert!(*c_end > 0.0 && *r_end > 0.0 && *r_end < 1.0, "{name}");
        assert!(
            name.chars().all(|c| c.is_ascii_uppercase() || c == '_'),
            "{name}"
        );
    }
    assert!(lines.contains(&("RFP_MARGIN".into(), 82, 30, 160, 8.0, 0.002)));
    assert!(lines.contains(&("LMR_BASE".into(), 64, 0, 150, 8.0, 0.002)));
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 34, "names are unique");
}

#[test]
fn spsa_parser_refuses_other_lines() {
    assert!(parse_spsa("RFP_MARGIN, float, 80, 30, 160, 8, 0.002").is_none());
    assert!(parse_spsa("RFP_MARGIN, int, 80, 30, 160, 8").is_none());
    assert!(parse_spsa("RFP_MARGIN, int, x, 30, 160, 8, 0.002").is_none());
}

#[cfg(feature = "tune")]
fn engine() -> Uci {
    Uci::start(Path::new(env!("CARGO_BIN_EXE_rookling")))
}

#[cfg(feature = "tune")]
/// The nodes a fresh `go depth 9` from the start position searches.
fn nodes(uci: &mut Uci) -> u64 {
    uci.send("ucinewgame");
    uci.send("position startpos");
    uci.send("go depth 9");
    let lines = uci.read_until(|l| l.starts_with("bestmove"));
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let mut words = l.split_whitespace();
            words.find(|&w| w == "nodes")?;
            words.next()?.parse().ok()
        })
        .expect("an info line with nodes")
}

/// The `info string` lines answering `setoption name NAME value VALUE`.
fn set(uci: &mut Uci, name: &str, value: &str) -> Vec<String> {
    uci.send(&format!("setoption name {name} value {value}"));
    uci.sync()
}

#[cfg(not(feature = "tune"))]
#[test]
fn a_default_build_offers_no_tuning_options() {
    let mut uci = Uci::spawn(Path::new(env!("CARGO_BIN_EXE_rookling")), &[]);
    uci.send("uci");
    let declared = uci.read_until(|l| l == "uciok");
    assert!(
        declared.iter().all(|l| !l.contains("RFP_MARGIN")),
        "{declared:?}"
    );
    assert!(declared.len() < 25, "{declared:?}");
    let answer = set(&mut uci, "RFP_MARGIN", "100");
    assert_eq!(
        answer,
        ["info string error: setoption: no such option: 'RFP_MARGIN'"]
    );
}

#[cfg(feature = "tune")]
#[test]
fn a_tuning_build_declares_every_parameter() {
    let mut uci = Uci::spawn(Path::new(env!("CARGO_BIN_EXE_rookling")), &[]);
    uci.send("uci");
    let declared = uci.read_until(|l| l == "uciok");
    for (name, default, min, max, ..) in spsa_lines() {
        let line = format!("option name {name} type spin default {default} min {min} max {max}");
        assert!(declared.contains(&line), "{line} in {declared:?}");
    }
}

#[cfg(feature = "tune")]
#[test]
fn a_tuning_build_changes_the_next_search_and_refuses_bad_values() {
    let mut uci = engine();
    let default = nodes(&mut uci);
    assert_eq!(
        nodes(&mut uci),
        default,
        "a fresh search repeats its node count"
    );

    // The LMR table is rebuilt for the next search; lower case names work as in UCI.
    assert!(set(&mut uci, "lmr_base", "150").is_empty());
    let reduced = nodes(&mut uci);
    assert_ne!(reduced, default);
    assert!(set(&mut uci, "LMR_BASE", "64").is_empty());
    assert_eq!(nodes(&mut uci), default);

    assert!(set(&mut uci, "RFP_MARGIN", "30").is_empty());
    let pruned = nodes(&mut uci);
    assert_ne!(pruned, default);

    // Refused: out of range, not a number, no value. RFP_MARGIN stays 30.
    for (value, shown) in [("161", "'161'"), ("29", "'29'"), ("8O", "'8O'"), ("", "''")] {
        let answer = set(&mut uci, "RFP_MARGIN", value);
        let expected = format!(
            "info string error: setoption: option RFP_MARGIN: {shown} is not a whole number \
             from 30 to 160, value unchanged"
        );
        if value.is_empty() {
            assert_eq!(answer.len(), 1, "{answer:?}");
        } else {
            assert_eq!(answer, [expected]);
        }
    }
    uci.send("setoption name RFP_MARGIN");
    let answer = uci.sync();
    assert_eq!(
        answer,
        ["info string error: setoption: option RFP_MARGIN needs a value"]
    );
    assert_eq!(nodes(&mut uci), pruned, "the previous value is kept");
    assert!(set(&mut uci, "RFP_MARGIN", "82").is_empty());
    assert_eq!(nodes(&mut uci), default);
}
