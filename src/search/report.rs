//! The `info` lines a search prints, one per MultiPV line, in Stockfish's format:
//! `info depth D seldepth S multipv K score cp X|mate M [lowerbound|upperbound]
//! [wdl W D L] nodes N nps P hashfull H tbhits B time T pv ...`.

use super::root::{Line, ScoreBound};
use super::score::{MATE, MATE_BOUND};
use super::tablebase::{self, RootRanking};
use super::wdl;
use crate::board::Position;
use crate::movegen::legal_moves;
use std::time::Duration;

/// What every line of one report shares: the search's counters and the root.
pub struct Report<'a> {
    /// The root position (the PV is checked against it; the WDL model reads its material).
    pub root: &'a Position,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Time since `go`.
    pub elapsed: Duration,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// Tablebase hits of all threads.
    pub tbhits: u64,
    /// Whether to add `wdl W D L` (UCI_ShowWDL).
    pub show_wdl: bool,
    /// The root's tablebase ranking: a line shows its move's tablebase score unless
    /// the search found a mate (as Stockfish shows it).
    pub tablebase: Option<&'a RootRanking>,
}

/// `cp X` or `mate M` (M moves, negative when getting mated).
pub fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

impl Report<'_> {
    /// The `info` line of MultiPV line `multipv` (from 1). The PV is cut at the first
    /// move that is not legal (a defence against hash collisions).
    pub fn line(&self, line: &Line, multipv: usize) -> String {
        let ms = self.elapsed.as_millis() as u64;
        let nps = (self.nodes as u128 * 1_000_000 / self.elapsed.as_micros().max(1)) as u64;
        let mut pos = self.root.clone();
        let mut pv = String::new();
        for &mv in &line.pv {
            if !legal_moves(&pos).contains(&mv) {
                break;
            }
            pv.push(' ');
            pv.push_str(&mv.uci(pos.is_chess960()).to_string());
            pos.play(mv);
        }
        let bound = match line.bound {
            ScoreBound::Exact => "",
            ScoreBound::Lower => " lowerbound",
            ScoreBound::Upper => " upperbound",
        };
        let score = line.pv.first().map_or(line.score, |&mv| {
            tablebase::shown_score(self.tablebase, mv, line.score)
        });
        let wdl = if self.show_wdl {
            let [w, d, l] = wdl::wdl(score, wdl::material(self.root));
            format!(" wdl {w} {d} {l}")
        } else {
            String::new()
        };
        format!(
            "info depth {} seldepth {} multipv {multipv} score {}{bound}{wdl} nodes {} nps {nps} hashfull {} tbhits {} time {ms} pv{pv}",
            line.depth.max(1),
            line.seldepth.max(1),
            score_text(score),
            self.nodes,
            self.hashfull,
            self.tbhits,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::movegen::parse_move;

    #[test]
    fn lines_have_stockfish_s_fields_in_order() {
        let root = Position::startpos();
        let e4 = parse_move(&root, "e2e4").expect("legal");
        let report = Report {
            root: &root,
            nodes: 2000,
            elapsed: Duration::from_millis(2),
            hashfull: 3,
            tbhits: 4,
            show_wdl: true,
            tablebase: None,
        };
        let line = Line {
            depth: 7,
            seldepth: 9,
            score: 25,
            bound: ScoreBound::Lower,
            pv: vec![e4],
        };
        let text = report.line(&line, 2);
        let [w, d, l] = wdl::wdl(25, wdl::material(&root));
        assert_eq!(
            text,
            format!(
                "info depth 7 seldepth 9 multipv 2 score cp 25 lowerbound wdl {w} {d} {l} nodes 2000 nps 1000000 hashfull 3 tbhits 4 time 2 pv e2e4"
            )
        );
        assert_eq!(score_text(MATE - 3), "mate 2");
        assert_eq!(score_text(-MATE + 2), "mate -1");
    }
}
