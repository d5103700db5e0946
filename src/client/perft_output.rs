//! Reading what perft programs print: one line of a UCI `go perft` answer
//! ([`parse_perft_line`]), and the node total of a whole program's output
//! ([`find_total`]). Pure functions; every input is untrusted.

use std::collections::BTreeMap;

/// One engine's answer to `go perft`: the count under each move, and the total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Divide {
    /// Each move, in UCI notation as the engine printed it (lower case), with its count.
    pub moves: BTreeMap<String, u64>,
    /// The total the engine reported.
    pub total: u64,
}

/// What one line of a `go perft` answer is.
#[derive(Debug, PartialEq, Eq)]
pub enum PerftLine {
    /// UCI chatter (`info ...`) or a blank line: skipped without limit.
    Info,
    /// A line that is not perft output (a banner, a stray `readyok`): skipped, but an
    /// answer made of too many of them is refused.
    Other,
    /// `e2e4: 600`.
    Move(String, u64),
    /// `Nodes searched: 8902`: the end of the answer.
    Total(u64),
    /// A line that claims to be perft output but cannot be read.
    Bad(String),
}

/// Labels of a total line, compared ignoring case: Stockfish's `Nodes searched`, and
/// what other perft programs print.
const TOTAL_LABELS: [&str; 5] = ["nodes searched", "nodes", "total", "total nodes", "result"];

/// Whether `text` has the shape of a UCI move (`e2e4`, `e7e8q`).
pub fn is_move(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"nbrqNBRQ".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
}

/// Reads one line of Stockfish's `go perft` format (the total may also be written
/// `Nodes:`, `Total:`, `Total nodes:` or `Result:`, as other programs do).
pub fn parse_perft_line(line: &str) -> PerftLine {
    let line = line.trim();
    if line.is_empty() || line == "info" || line.starts_with("info ") {
        return PerftLine::Info;
    }
    let Some((head, count)) = line.split_once(':') else {
        return PerftLine::Other;
    };
    let (head, count) = (head.trim(), count.trim());
    let number = count.parse::<u64>();
    if TOTAL_LABELS.iter().any(|t| head.eq_ignore_ascii_case(t)) {
        return match number {
            Ok(n) => PerftLine::Total(n),
            Err(_) => PerftLine::Bad(format!("'{}', which has no node count", shorten(line))),
        };
    }
    if !is_move(head) {
        return PerftLine::Other;
    }
    match number {
        Ok(n) => PerftLine::Move(head.to_ascii_lowercase(), n),
        Err(_) => PerftLine::Bad(format!("'{}', which has no node count", shorten(line))),
    }
}

/// The node total in the whole output of a perft program, if exactly one figure is
/// given as a total: a line `LABEL: N` or `LABEL = N` where LABEL is one of
/// `Nodes searched`, `Nodes`, `Total`, `Total nodes`, `Result` (any case), or else a
/// line that is only a number. `None` when there is none, or several that differ.
pub fn find_total(output: &str) -> Option<u64> {
    let labelled = totals(output, |line| {
        let (head, value) = line.split_once([':', '='])?;
        let head = head.trim();
        TOTAL_LABELS
            .iter()
            .any(|t| head.eq_ignore_ascii_case(t))
            .then_some(value)
    });
    match labelled {
        Some(found) => found,
        None => totals(output, |line| line.parse::<u64>().is_ok().then_some(line)).flatten(),
    }
}

/// Among the lines where `value` finds a field, the one total they give: `None` when
/// no line has the field, `Some(None)` when a field is not a count or two differ.
fn totals<'a>(output: &'a str, value: impl Fn(&'a str) -> Option<&'a str>) -> Option<Option<u64>> {
    let mut found: Option<Option<u64>> = None;
    for field in output.lines().filter_map(|l| value(l.trim())) {
        let n = field.trim().replace([',', '_'], "").parse::<u64>().ok();
        found = match (found, n) {
            (None, n) => Some(n),
            (Some(Some(a)), Some(b)) if a == b => Some(Some(a)),
            _ => Some(None),
        };
    }
    found
}

/// A line cut to a readable length, control characters shown escaped.
pub fn shorten(line: &str) -> String {
    let mut text: String = line.chars().take(80).flat_map(char::escape_debug).collect();
    if line.chars().count() > 80 {
        text.push_str("...");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stockfish_lines() {
        assert_eq!(
            parse_perft_line("e2e4: 600"),
            PerftLine::Move("e2e4".into(), 600)
        );
        assert_eq!(
            parse_perft_line("a7a8q: 1"),
            PerftLine::Move("a7a8q".into(), 1)
        );
        assert_eq!(
            parse_perft_line("Nodes searched: 8902"),
            PerftLine::Total(8902)
        );
        assert_eq!(parse_perft_line("Total: 20"), PerftLine::Total(20));
        assert_eq!(parse_perft_line("nodes: 20"), PerftLine::Total(20));
        assert_eq!(parse_perft_line(""), PerftLine::Info);
        assert_eq!(
            parse_perft_line("info string NNUE evaluation using nn.nnue"),
            PerftLine::Info
        );
        assert_eq!(parse_perft_line("information: 3"), PerftLine::Other);
        assert_eq!(parse_perft_line("Stockfish 15.1 by ..."), PerftLine::Other);
        assert_eq!(parse_perft_line("readyok"), PerftLine::Other);
        assert!(matches!(parse_perft_line("e2e4: lots"), PerftLine::Bad(_)));
        assert!(matches!(
            parse_perft_line("Nodes searched: banana"),
            PerftLine::Bad(_)
        ));
        assert!(matches!(parse_perft_line("e2e4: -3"), PerftLine::Bad(_)));
        assert!(matches!(
            parse_perft_line("Nodes searched: 20 [line cut]"),
            PerftLine::Bad(_)
        ));
    }

    #[test]
    fn finds_a_total_in_program_output() {
        let ellxor = "Running multi-threaded perft on 1 threads.\n\nResult:            \
                      4865609\nTime taken:        0.016 seconds.\nNodes per second:  307 million.\n";
        assert_eq!(find_total(ellxor), Some(4_865_609));
        assert_eq!(find_total("e2e4: 1\n\nNodes searched: 20\n"), Some(20));
        assert_eq!(find_total("perft 5\n4865609\n"), Some(4_865_609));
        assert_eq!(find_total("total = 1,234\n"), Some(1234));
        assert_eq!(find_total("Nodes: 20\nTotal: 20\n"), Some(20));
        assert_eq!(find_total("Nodes: 20\nTotal: 21\n"), None, "two totals");
        assert_eq!(find_total("Result: many\n"), None);
        assert_eq!(find_total("no count here\n"), None);
        assert_eq!(find_total(""), None);
        assert_eq!(find_total("3\n4\n"), None, "two bare numbers");
    }

    #[test]
    fn shortens_and_escapes() {
        assert_eq!(shorten("a\u{0}b"), "a\\0b");
        assert_eq!(shorten(&"x".repeat(100)), format!("{}...", "x".repeat(80)));
    }
}
