//! The module graph of `src/`: no import cycle, and the layers point one way.
//!
//! Every path through `crate::`, `super::` or `self::` in a file (a `use` or a path in
//! the code, braces expanded) is an edge from the file's module to the deepest module the
//! path names. Edges between a module and its own ancestors are left out: a folder's
//! `mod.rs` and its files are one module tree (the files use what `mod.rs` declares, and
//! it uses theirs). Every other edge must leave the graph without a cycle, and an edge
//! between two top-level modules must point down the layers of `docs/architecture.md`
//! ([`LAYERS`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level modules, lowest layer first: a module may import only modules of
/// lower layers (modules on one line are beside each other and import none of each
/// other). As in `docs/architecture.md`.
const LAYERS: &[&[&str]] = &[
    &["types", "memory", "threads", "lines", "rng"],
    &["attacks"],
    &["board"],
    &["movegen", "data"],
    &["perft", "syzygy"],
    &["nnue", "client"],
    &["search", "compare"],
    &["uci"],
    &["cli"],
];

/// Module path (`search::smp`; the crate root is `""`) to its source text.
type Sources = BTreeMap<String, String>;

/// The `.rs` files under `dir`, by module path.
fn read_sources(dir: &Path, prefix: &[String], out: &mut Sources) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("UTF-8 file names")
            .to_string();
        if path.is_dir() {
            let mut inner = prefix.to_vec();
            inner.push(name);
            read_sources(&path, &inner, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut module = prefix.to_vec();
            if name == "main" {
                continue; // the binary: a crate of its own, using the library by name
            }
            if !matches!(name.as_str(), "mod" | "lib") {
                module.push(name);
            }
            let text = std::fs::read_to_string(&path).expect("source is readable");
            out.insert(module.join("::"), text);
        }
    }
}

/// `text` without comments, string and character literals (which may hold paths that
/// are not imports).
fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |end| end + 2);
        } else if rest.starts_with('"') {
            let mut j = 1;
            while j < rest.len() && rest.as_bytes()[j] != b'"' {
                j += if rest.as_bytes()[j] == b'\\' { 2 } else { 1 };
            }
            i += (j + 1).min(rest.len());
            out.push_str("\"\"");
        } else if rest.starts_with("r#\"") || rest.starts_with("r\"") {
            let hashes = rest[1..].chars().take_while(|&c| c == '#').count();
            let close = format!("\"{}", "#".repeat(hashes));
            let start = 2 + hashes;
            i += rest[start..]
                .find(&close)
                .map_or(rest.len(), |end| start + end + close.len());
            out.push_str("\"\"");
        } else if let Some(tail) = rest.strip_prefix('\'') {
            // A character literal ('x', '\n', '\u{1F}') or a lifetime ('a: no quote
            // right after its first character).
            let first = tail.chars().next().unwrap_or(' ');
            let literal = match tail.strip_prefix('\\') {
                Some(escaped) => escaped.get(1..).and_then(|e| e.find('\'')).map(|e| e + 4),
                None => tail
                    .get(first.len_utf8()..)
                    .is_some_and(|t| t.starts_with('\''))
                    .then_some(2 + first.len_utf8()),
            };
            match literal {
                Some(len) => {
                    i += len;
                    out.push_str("' '");
                }
                None => {
                    i += 1;
                    out.push('\'');
                }
            }
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Every path starting with `crate::`, `super::` or `self::` in `code`, braces expanded
/// (`crate::a::{b, c::d}` gives `crate::a::b` and `crate::a::c::d`), as segment lists.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start).map(|p| p + from) {
            from = at + start.len();
            let before = at.checked_sub(1).map(|b| bytes[b]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue; // part of a longer path or name (`$crate::`, `super::super::`)
            }
            let head = start.trim_end_matches("::").to_string();
            expand(&code[from..], vec![head], &mut found);
        }
    }
    found
}

/// Reads the rest of a path after `prefix::` from `rest`, pushing each full path.
fn expand(rest: &str, prefix: Vec<String>, found: &mut Vec<Vec<String>>) {
    let rest = rest.trim_start();
    if let Some(inner) = rest.strip_prefix('{') {
        let mut depth = 0;
        let mut part_start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    expand(&inner[part_start..i], prefix.clone(), found);
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&inner[part_start..i], prefix.clone(), found);
                    part_start = i + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let mut path = prefix;
    if name.is_empty() {
        found.push(path);
        return;
    }
    path.push(name.clone());
    match rest[name.len()..].strip_prefix("::") {
        Some(more) => expand(more, path, found),
        None => found.push(path),
    }
}

/// The module `path` (from `crate`, `super` or `self` in module `from`) leads to: the
/// deepest existing module it names.
fn target(path: &[String], from: &str, modules: &BTreeSet<String>) -> Option<String> {
    let mut base: Vec<String> = if from.is_empty() {
        Vec::new()
    } else {
        from.split("::").map(String::from).collect()
    };
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => base.clear(),
        Some("self") => {}
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                base.pop()?;
                rest = &rest[1..];
            }
            base.extend(rest.iter().cloned());
            return deepest(&base, modules);
        }
        _ => return None,
    }
    base.extend(rest[1..].iter().cloned());
    deepest(&base, modules)
}

/// The longest prefix of `segments` that is a module.
fn deepest(segments: &[String], modules: &BTreeSet<String>) -> Option<String> {
    (0..=segments.len())
        .rev()
        .map(|n| segments[..n].join("::"))
        .find(|m| modules.contains(m))
}

/// Whether `a` is `b`, or one is inside the other.
fn same_tree(a: &str, b: &str) -> bool {
    a == b
        || a.is_empty()
        || b.is_empty()
        || a.starts_with(&format!("{b}::"))
        || b.starts_with(&format!("{a}::"))
}

/// The import edges between modules, each with the path that makes it.
fn edges(sources: &Sources) -> BTreeMap<String, BTreeMap<String, String>> {
    let modules: BTreeSet<String> = sources.keys().cloned().collect();
    let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (module, text) in sources {
        let out = graph.entry(module.clone()).or_default();
        for path in paths(&code_only(text)) {
            if let Some(to) = target(&path, module, &modules)
                && !same_tree(module, &to)
            {
                out.entry(to).or_insert_with(|| path.join("::"));
            }
        }
    }
    graph
}

/// A cycle of the graph, as the modules along it (the first repeated at the end), if
/// there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Open,
        Done,
    }
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeMap<String, String>>,
        state: &mut BTreeMap<String, State>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), State::Open);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flat_map(|e| e.keys()) {
            match state.get(next).copied().unwrap_or(State::New) {
                State::Open => {
                    let at = stack.iter().position(|m| m == next).unwrap_or(0);
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                State::New => {
                    if let Some(cycle) = visit(next, graph, state, stack) {
                        return Some(cycle);
                    }
                }
                State::Done => {}
            }
        }
        stack.pop();
        state.insert(node.to_string(), State::Done);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node).copied().unwrap_or(State::New) == State::New
            && let Some(cycle) = visit(node, graph, &mut state, &mut Vec::new())
        {
            return Some(cycle);
        }
    }
    None
}

/// The layer of a top-level module (`None` for one [`LAYERS`] does not list).
fn layer(module: &str) -> Option<usize> {
    let top = module.split("::").next().unwrap_or("");
    LAYERS.iter().position(|layer| layer.contains(&top))
}

fn sources() -> Sources {
    let mut sources = Sources::new();
    read_sources(Path::new("src"), &[], &mut sources);
    sources
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let mut graph = edges(&sources());
    let mut cycles = Vec::new();
    // Every cycle is reported: each found is broken at its last edge and the search
    // goes on.
    while let Some(cycle) = find_cycle(&graph) {
        let steps: Vec<String> = cycle
            .windows(2)
            .map(|w| format!("{} uses {}", w[0], graph[&w[0]][&w[1]]))
            .collect();
        cycles.push(steps.join("; "));
        let [.., from, to] = &cycle[..] else { break };
        let (from, to) = (from.clone(), to.clone());
        graph.entry(from).or_default().remove(&to);
    }
    assert!(
        cycles.is_empty(),
        "module import cycles:\n{}",
        cycles.join("\n")
    );
}

#[test]
fn imports_point_down_the_layers() {
    let sources = sources();
    let graph = edges(&sources);
    let mut wrong = Vec::new();
    for module in sources.keys().filter(|m| !m.is_empty()) {
        let Some(from) = layer(module) else {
            wrong.push(format!("{module} is in no layer of LAYERS"));
            continue;
        };
        let top = module.split("::").next();
        for (to, path) in &graph[module] {
            if to.split("::").next() == top {
                continue; // within one top-level module: the cycle check covers it
            }
            if layer(to).is_none_or(|l| l >= from) {
                wrong.push(format!("{module} uses {path}, which is not below it"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The check finds what it looks for: a cycle between two files of one folder (through
/// `super::`, in braces), none once the edge is gone, and none for a module using its
/// parent or its children.
#[test]
fn the_check_sees_cycles() {
    let mut sources = Sources::new();
    sources.insert(String::new(), "pub mod a; pub mod b;".into());
    sources.insert("a".into(), "mod x; mod y; use x::X; pub struct A;".into());
    sources.insert(
        "a::x".into(),
        "use super::{y::{self, Y}, A}; // crate::b".into(),
    );
    sources.insert(
        "a::y".into(),
        "pub fn f() { super::x::g(); let _ = \"crate::b\"; }".into(),
    );
    sources.insert("b".into(), "use crate::a::A;".into());
    let cycle = find_cycle(&edges(&sources)).expect("a::x and a::y use each other");
    assert_eq!(cycle.len(), 3, "{cycle:?}");
    sources.insert("a::y".into(), "pub fn f() {}".into());
    assert_eq!(find_cycle(&edges(&sources)), None);
    sources.insert("a".into(), "use crate::b::B;".into());
    assert!(
        find_cycle(&edges(&sources)).is_some(),
        "a and b use each other"
    );
}
