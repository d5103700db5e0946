//! The documentation says what the program does: every UCI option `uci` prints is in
//! docs/uci.md's option table, and the README's commands run and print what it shows.

use std::io::Write;
use std::process::{Command, Stdio};

const ROOKLING: &str = env!("CARGO_BIN_EXE_rookling");

fn read(path: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs a shell command line with `target/release/rookling` meaning the binary under test.
fn shell(line: &str) -> String {
    let line = line.replace("target/release/rookling", ROOKLING);
    let out = Command::new("sh")
        .args(["-c", &line])
        .output()
        .expect("sh runs");
    assert!(out.status.success(), "{line}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_uci_option_is_documented() {
    let mut child = Command::new(ROOKLING)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(b"uci\nquit\n")
        .expect("write");
    let out = child.wait_with_output().expect("exits");
    let text = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|l| l.split(" type ").next().unwrap_or(l))
        .collect();
    assert!(names.len() >= 5, "{text}");
    let doc = read("docs/uci.md");
    for name in names {
        assert!(
            doc.lines().any(|l| l.starts_with(&format!("| `{name}` |"))),
            "option '{name}' is not in docs/uci.md's option table"
        );
    }
}

/// The README's set-up commands, and its first one's result.
#[test]
fn readme_setup_commands_run() {
    let readme = read("README.md");
    let block: Vec<&str> = readme
        .split("```sh\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a sh block")
        .lines()
        .collect();
    assert_eq!(
        block,
        ["cargo run --release -- perft 6", "cargo test --release"]
    );
    // `cargo run --release -- perft 6` is this binary's `perft 6` (the second command is
    // this run); the README quotes its last line.
    let out = shell("target/release/rookling perft 6");
    let last = out.lines().last().expect("output");
    assert_eq!(last, "Nodes searched: 119060324");
    assert!(
        readme.contains(&format!("`{last}`")),
        "the README quotes {last}"
    );
}

/// Every `$ command` in the README's text blocks prints the lines shown under it (`...`
/// stands for lines left out).
#[test]
fn readme_examples_print_what_they_show() {
    let readme = read("README.md");
    let mut checked = 0;
    for block in readme.split("```text\n").skip(1) {
        let block = block.split("```").next().unwrap_or_default();
        let mut lines = block.lines().peekable();
        while let Some(line) = lines.next() {
            let Some(command) = line.strip_prefix("$ ") else {
                continue;
            };
            let mut expected = Vec::new();
            while let Some(next) = lines.next_if(|l| !l.starts_with("$ ")) {
                expected.push(next);
            }
            let actual = shell(command);
            let actual: Vec<&str> = actual.lines().collect();
            let mut at = 0;
            let mut skipping = false;
            for want in expected {
                if want == "..." {
                    skipping = true;
                    continue;
                }
                while skipping && at < actual.len() && actual[at] != want {
                    at += 1;
                }
                assert_eq!(actual.get(at).copied(), Some(want), "{command}: {actual:?}");
                at += 1;
                skipping = false;
            }
            checked += 1;
        }
    }
    assert!(checked >= 2, "no examples found");
}
