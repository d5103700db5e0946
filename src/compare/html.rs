//! `--html FILE`: a drill-down as one self-contained HTML page (no script, no network):
//! for each step an SVG board with the move the drill-down plays next drawn as an arrow,
//! beside the two engines' divides, the differing rows marked; at the end the failing
//! position with its missing moves (green) and extra moves (red) drawn as arrows.

use super::drill::{Ending, Outcome, Step, position_after};
use super::tags::{self, first_tag};
use crate::board::{Color, PieceType, Position, Square};
use std::fmt::Write;

/// One drill-down for the page.
pub struct Drilled<'a> {
    /// Its heading.
    pub title: String,
    /// The position it started from.
    pub root: &'a Position,
    /// Its steps.
    pub steps: &'a [Step],
    /// How it ended.
    pub outcome: &'a Outcome,
}

/// The page: a title, facts listed at the top (label, text), then each drill-down.
pub fn page(title: &str, facts: &[(&str, String)], drilled: &[Drilled]) -> String {
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n<dl>\n",
        escape(title),
        escape(title)
    );
    for (label, text) in facts {
        let _ = writeln!(html, "<dt>{}</dt><dd>{}</dd>", escape(label), escape(text));
    }
    html.push_str("</dl>\n");
    for (n, d) in drilled.iter().enumerate() {
        section(&mut html, n, d);
    }
    html.push_str("</body>\n</html>\n");
    html
}

/// One drill-down: the verdict with the failing position, then every step.
fn section(html: &mut String, n: usize, d: &Drilled) {
    let o = d.outcome;
    let _ = writeln!(html, "<section>\n<h2>{}</h2>", escape(&d.title));
    let verdict = match o.ending {
        Ending::Agree => format!(
            "The engines agree: {} nodes at depth {}.",
            o.reference_nodes, o.depth
        ),
        Ending::MoveListsDiffer => format!(
            "The engines differ: {} (reference) vs {} (candidate) nodes at depth {}; \
             the move lists differ after {}.",
            o.reference_nodes,
            o.candidate_nodes,
            o.depth,
            moves_or_root(&o.path)
        ),
        Ending::Inconsistent => format!(
            "The engines differ ({} vs {} nodes at depth {}), but an engine answers \
             inconsistently after {}.",
            o.reference_nodes,
            o.candidate_nodes,
            o.depth,
            moves_or_root(&o.path)
        ),
    };
    let _ = writeln!(html, "<p class=\"verdict\">{}</p>", escape(&verdict));
    if o.ending != Ending::Agree
        && let Ok(pos) = position_after(d.root, &o.path)
    {
        let mut arrows: Vec<(String, &str)> = Vec::new();
        arrows.extend(o.missing.iter().map(|m| (m.clone(), "missing")));
        arrows.extend(o.extra.iter().map(|m| (m.clone(), "extra")));
        let _ = writeln!(html, "<div class=\"row\">");
        board(html, &format!("v{n}"), &pos, &arrows);
        let _ = writeln!(
            html,
            "<div>\n<p class=\"fen\">{}</p>",
            escape(&pos.to_fen())
        );
        let list = |name: &str, moves: &[String]| {
            let items: Vec<String> = moves
                .iter()
                .map(|m| format!("{m} ({})", tags::tag(&pos, m)))
                .collect();
            match items.is_empty() {
                true => format!("<p>{name}: (none)</p>"),
                false => format!("<p>{name}: <b>{}</b></p>", escape(&items.join(", "))),
            }
        };
        let _ = writeln!(html, "{}", list("Missing in the candidate", &o.missing));
        let _ = writeln!(html, "{}", list("Extra in the candidate", &o.extra));
        if let Some(tag) = first_tag(&pos, o.missing.iter().chain(&o.extra)) {
            let _ = writeln!(html, "<p>Tag: <b>{}</b></p>", escape(&tag.to_string()));
        }
        let _ = writeln!(html, "</div>\n</div>");
    }
    for (i, step) in d.steps.iter().enumerate() {
        step_html(html, &format!("s{n}_{i}"), i + 1, step, d.root);
    }
    html.push_str("</section>\n");
}

/// One step: the board with the next move, and the divides side by side.
fn step_html(html: &mut String, id: &str, number: usize, step: &Step, root: &Position) {
    let where_ = match step.path.is_empty() {
        true => "at the root".to_string(),
        false => format!("after {}", step.path.join(" ")),
    };
    let _ = writeln!(
        html,
        "<h3>Step {number}: perft {} {}</h3>\n<div class=\"row\">",
        step.depth,
        escape(&where_)
    );
    if let Ok(pos) = position_after(root, &step.path) {
        let mut arrows: Vec<(String, &str)> = Vec::new();
        if let Some(next) = &step.next {
            arrows.push((next.clone(), "next"));
        }
        arrows.extend(step.missing.iter().map(|m| (m.clone(), "missing")));
        arrows.extend(step.extra.iter().map(|m| (m.clone(), "extra")));
        board(html, id, &pos, &arrows);
    }
    let (r, c) = (&step.reference, &step.candidate);
    let _ = writeln!(
        html,
        "<table>\n<tr><th>move</th><th>reference</th><th>candidate</th></tr>"
    );
    let mut moves: Vec<&String> = r.moves.keys().chain(c.moves.keys()).collect();
    moves.sort();
    moves.dedup();
    let cell = |n: Option<&u64>| n.map_or("&mdash;".to_string(), u64::to_string);
    for mv in moves {
        let (a, b) = (r.moves.get(mv), c.moves.get(mv));
        let class = match (a, b) {
            (Some(_), None) => " class=\"missing\"",
            (None, Some(_)) => " class=\"extra\"",
            (Some(x), Some(y)) if x != y => " class=\"differ\"",
            _ => "",
        };
        let class = match step.next.as_deref() == Some(mv.as_str()) {
            true => " class=\"next\"",
            false => class,
        };
        let _ = writeln!(
            html,
            "<tr{class}><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(mv),
            cell(a),
            cell(b)
        );
    }
    let _ = writeln!(
        html,
        "<tr class=\"total\"><td>total</td><td>{}</td><td>{}</td></tr>\n</table>\n</div>",
        r.total, c.total
    );
}

/// Size of a square, in SVG units.
const SQ: i32 = 44;
/// Room for the coordinates around the board.
const EDGE: i32 = 18;

/// An SVG board of `pos` (white at the bottom) with `arrows` (UCI move, kind: `next`,
/// `missing` or `extra`); `id` makes its arrowheads' ids unique in the page.
fn board(html: &mut String, id: &str, pos: &Position, arrows: &[(String, &str)]) {
    let size = 8 * SQ + 2 * EDGE;
    let _ = write!(
        html,
        "<svg class=\"board\" width=\"{size}\" \
         height=\"{size}\" viewBox=\"0 0 {size} {size}\" role=\"img\" aria-label=\"{}\">\n<defs>",
        escape(&pos.to_fen())
    );
    for kind in ["next", "missing", "extra"] {
        let _ = write!(
            html,
            "<marker id=\"{id}-{kind}\" viewBox=\"0 0 10 10\" refX=\"6\" refY=\"5\" \
             markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\">\
             <path d=\"M0,0 L10,5 L0,10 z\" class=\"head-{kind}\"/></marker>"
        );
    }
    html.push_str("</defs>\n");
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let (x, y) = corner(Square::from_coords(file, rank));
            let shade = if (file + rank) % 2 == 0 {
                "dark"
            } else {
                "light"
            };
            let _ = write!(
                html,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{SQ}\" height=\"{SQ}\" class=\"{shade}\"/>"
            );
        }
    }
    for (mv, kind) in arrows {
        if let Some((from, to, _)) = tags::squares(mv) {
            for sq in [from, to] {
                let (x, y) = corner(sq);
                let _ = write!(
                    html,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{SQ}\" height=\"{SQ}\" class=\"mark-{kind}\"/>"
                );
            }
        }
    }
    for i in 0..8u8 {
        let x = EDGE + i32::from(i) * SQ + SQ / 2;
        let y = EDGE + i32::from(7 - i) * SQ + SQ / 2;
        let (file, rank) = ((b'a' + i) as char, i + 1);
        let bottom = size - EDGE / 3;
        let _ = write!(
            html,
            "<text x=\"{x}\" y=\"{bottom}\" class=\"coord\">{file}</text>\
             <text x=\"{}\" y=\"{y}\" class=\"coord\" dominant-baseline=\"central\">{rank}</text>",
            EDGE / 2
        );
    }
    html.push('\n');
    for sq in (0..64u8).map(Square::new) {
        let piece = pos.piece_on(sq);
        if piece.is_none() {
            continue;
        }
        let (x, y) = corner(sq);
        let class = match piece.color() {
            Color::White => "white",
            Color::Black => "black",
        };
        let _ = write!(
            html,
            "<text x=\"{}\" y=\"{}\" class=\"piece {class}\">{}</text>",
            x + SQ / 2,
            y + SQ / 2,
            glyph(piece.kind())
        );
    }
    for (mv, kind) in arrows {
        if let Some((from, to, _)) = tags::squares(mv) {
            let (a, b) = (centre(from), centre(to));
            let _ = write!(
                html,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"arrow-{kind}\" \
                 marker-end=\"url(#{id}-{kind})\"><title>{}</title></line>",
                a.0,
                a.1,
                b.0,
                b.1,
                escape(&format!("{kind}: {mv}"))
            );
        }
    }
    html.push_str("\n</svg>\n");
}

/// The top left corner of `sq` (white at the bottom).
fn corner(sq: Square) -> (i32, i32) {
    (
        EDGE + i32::from(sq.file()) * SQ,
        EDGE + i32::from(7 - sq.rank()) * SQ,
    )
}

/// The centre of `sq`.
fn centre(sq: Square) -> (i32, i32) {
    let (x, y) = corner(sq);
    (x + SQ / 2, y + SQ / 2)
}

/// The chess glyph of `kind` (the solid one: white pieces are filled white by the
/// style sheet, outlined in black).
fn glyph(kind: PieceType) -> char {
    match kind {
        PieceType::King => '\u{265A}',
        PieceType::Queen => '\u{265B}',
        PieceType::Rook => '\u{265C}',
        PieceType::Bishop => '\u{265D}',
        PieceType::Knight => '\u{265E}',
        PieceType::Pawn => '\u{265F}',
    }
}

/// `moves` joined, or "the root".
fn moves_or_root(moves: &[String]) -> String {
    match moves.is_empty() {
        true => "the root".to_string(),
        false => moves.join(" "),
    }
}

/// `text` with the characters HTML gives a meaning escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page's style sheet.
const STYLE: &str = "
body { font-family: 'DejaVu Sans', 'Noto Sans', Arial, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.2em; border-top: 2px solid #888; padding-top: .6em; }
h3 { font-size: 1em; margin-bottom: .3em; }
dl { display: grid; grid-template-columns: max-content auto; gap: .2em 1em; }
dt { font-weight: bold; } dd { margin: 0; font-family: monospace; }
.row { display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }
.verdict { font-weight: bold; } .fen { font-family: monospace; }
table { border-collapse: collapse; font-family: monospace; font-size: .9em; }
th, td { border: 1px solid #bbb; padding: .1em .6em; text-align: right; }
th { background: #eee; } td:first-child { text-align: left; }
tr.differ td { background: #fff2b3; } tr.next td { background: #cfe3ff; font-weight: bold; }
tr.missing td { background: #c9f0c9; } tr.extra td { background: #f8c7c7; }
tr.total td { font-weight: bold; background: #f4f4f4; }
.light { fill: #eeeed2; } .dark { fill: #b58863; }
.mark-next { fill: #3b7ddd; fill-opacity: .35; } .mark-missing { fill: #2e9e44; fill-opacity: .4; }
.mark-extra { fill: #d33; fill-opacity: .4; }
.coord { font-size: 11px; fill: #555; text-anchor: middle; }
.piece { font-size: 38px; text-anchor: middle; dominant-baseline: central;
  font-family: 'DejaVu Sans', 'Noto Sans Symbols2', 'Segoe UI Symbol', sans-serif; }
.piece.white { fill: #fff; stroke: #000; stroke-width: 1.3px; paint-order: stroke; }
.piece.black { fill: #000; stroke: #000; stroke-width: .5px; }
line { stroke-width: 7; stroke-linecap: round; opacity: .8; }
.arrow-next { stroke: #2060c0; } .head-next { fill: #2060c0; }
.arrow-missing { stroke: #1e8a36; } .head-missing { fill: #1e8a36; }
.arrow-extra { stroke: #c02020; } .head-extra { fill: #c02020; }
";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::drill::Divide;

    fn step(path: &[&str], missing: &[&str], next: Option<&str>) -> Step {
        let mut reference = Divide::default();
        reference.moves.insert("b5c6".into(), 1);
        reference.moves.insert("b4a4".into(), 1);
        reference.total = 2;
        let mut candidate = reference.clone();
        candidate.moves.remove("b5c6");
        candidate.total = 1;
        Step {
            path: path.iter().map(|s| s.to_string()).collect(),
            depth: 1,
            reference,
            candidate,
            expected: None,
            missing: missing.iter().map(|s| s.to_string()).collect(),
            extra: Vec::new(),
            differing: Vec::new(),
            next: next.map(str::to_string),
        }
    }

    #[test]
    fn a_self_contained_page() {
        let root = Position::from_fen("8/8/3p4/1Pp3kr/1K3R2/8/4P1P1/8 w - c6 0 3").expect("valid");
        let steps = [step(&[], &["b5c6"], None)];
        let outcome = Outcome {
            ending: Ending::MoveListsDiffer,
            depth: 1,
            path: Vec::new(),
            missing: vec!["b5c6".into()],
            extra: Vec::new(),
            reference_nodes: 2,
            candidate_nodes: 1,
        };
        let drilled = [Drilled {
            title: "x <y> & \"z\"".into(),
            root: &root,
            steps: &steps,
            outcome: &outcome,
        }];
        let html = page("compare", &[("candidate", "a<b".into())], &drilled);
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(!html.contains("<script"));
        assert!(
            !html.contains("http") && !html.contains("src="),
            "nothing fetched"
        );
        assert!(html.contains("x &lt;y&gt; &amp; &quot;z&quot;"));
        assert!(html.contains("a&lt;b"));
        assert_eq!(
            html.matches("<svg").count(),
            2,
            "the failing position and one step"
        );
        assert!(html.contains("class=\"arrow-missing\""));
        assert!(
            html.contains("<tr class=\"missing\"><td>b5c6</td><td>1</td><td>&mdash;</td></tr>")
        );
        assert!(html.contains("b5c6 (en passant)"));
        // Every marker id is unique in the page.
        let ids: Vec<&str> = html
            .match_indices("<marker id=\"")
            .map(|(i, _)| &html[i..i + 30])
            .collect();
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(ids.len(), unique.len());
    }
}
