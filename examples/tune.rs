//! Texel tuning of the evaluation's scalar weights on positions from Rookling's own
//! self-play games (no outside data).
//!
//! ```text
//! cargo run --release --example tune -- selfplay GAMES NODES OUT [SEED]
//! cargo run --release --example tune -- tune DATA [PASSES]
//! ```
//! `selfplay` plays GAMES games at NODES nodes per move from random 8-ply openings and
//! writes `FEN;result` lines (result for white: 1, 0.5, 0) for quiet positions.
//! `tune` fits the logistic scale K, then moves each scalar weight up or down while the
//! mean squared error of `sigmoid(eval)` against the results falls, and prints the new
//! `WEIGHTS` source.

use rookling::board::Position;
use rookling::eval::{WEIGHTS, Weights, evaluate_with};
use rookling::movegen::legal_moves;
use rookling::search::draw::insufficient_material;
use rookling::search::{Control, Limits, Searcher};
use std::io::{BufRead, BufWriter, Write};

/// A small xorshift generator (the openings only need variety).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("selfplay") if args.len() >= 4 => selfplay(&args[1..]),
        Some("tune") if args.len() >= 2 => tune(&args[1..]),
        _ => Err("usage: tune selfplay GAMES NODES OUT [SEED] | tune DATA [PASSES]".into()),
    };
    if let Err(e) = result {
        eprintln!("tune: {e}");
        std::process::exit(2);
    }
}

fn num<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("not a number: {s}"))
}

/// The score of an info line from the mover's side: centipawns, mates as ±100000.
fn info_score(line: &str) -> Option<i32> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let i = w.iter().position(|x| *x == "score")?;
    let v: i32 = w.get(i + 2)?.parse().ok()?;
    match w[i + 1] {
        "cp" => Some(v),
        "mate" if v > 0 => Some(100_000),
        "mate" => Some(-100_000),
        _ => None,
    }
}

fn selfplay(args: &[String]) -> Result<(), String> {
    let games: usize = num(&args[0])?;
    let nodes: u64 = num(&args[1])?;
    let out = std::fs::File::create(&args[2]).map_err(|e| e.to_string())?;
    let mut out = BufWriter::new(out);
    let mut rng = Rng(args.get(3).map_or(Ok(0x9E37_79B9_7F4A_7C15), |s| num(s))? | 1);
    let control = Control::default();
    let limits = Limits {
        nodes: Some(nodes),
        ..Default::default()
    };
    let mut searcher = Searcher::new(16);
    let mut written = 0usize;
    for game in 0..games {
        let mut pos = Position::startpos();
        let mut keys = Vec::new();
        for _ in 0..8 {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            keys.push(pos.key());
            pos.play(moves[(rng.next() % moves.len() as u64) as usize]);
        }
        searcher.clear();
        let mut fens = Vec::new();
        let mut decisive_plies = 0;
        let white_result;
        loop {
            let moves = legal_moves(&pos);
            let repeats = keys.iter().filter(|&&k| k == pos.key()).count();
            if moves.is_empty() {
                white_result = match (pos.in_check(), pos.side_to_move()) {
                    (false, _) => 0.5,
                    (true, rookling::board::Color::White) => 0.0,
                    (true, rookling::board::Color::Black) => 1.0,
                };
                break;
            }
            if repeats >= 2
                || pos.halfmove_clock() >= 100
                || insufficient_material(&pos)
                || keys.len() > 300
            {
                white_result = 0.5;
                break;
            }
            let mut last = String::new();
            let result = searcher.go(&pos, &keys, &limits, &control, &mut |l| last = l);
            let Some(best) = result.best else {
                return Err("no move in a position with legal moves".into());
            };
            let score = info_score(&last).unwrap_or(0);
            let white_score = if pos.side_to_move() == rookling::board::Color::White {
                score
            } else {
                -score
            };
            if score.abs() >= 1000 {
                decisive_plies += 1;
                if decisive_plies >= 6 {
                    white_result = if white_score > 0 { 1.0 } else { 0.0 };
                    break;
                }
            } else {
                decisive_plies = 0;
            }
            let quiet = !pos.is_capture(best) && best.promotion_piece().is_none();
            if !pos.in_check() && quiet && score.abs() < 1000 {
                fens.push(pos.to_fen());
            }
            keys.push(pos.key());
            pos.play(best);
        }
        for fen in &fens {
            writeln!(out, "{fen};{white_result}").map_err(|e| e.to_string())?;
        }
        written += fens.len();
        if (game + 1) % 10 == 0 {
            eprintln!("{} games, {written} positions", game + 1);
            out.flush().map_err(|e| e.to_string())?;
        }
    }
    out.flush().map_err(|e| e.to_string())
}

/// Mean squared error of the predicted against the actual results.
fn error(data: &[(Position, f64)], w: &Weights, k: f64) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|(pos, result)| {
            let e = evaluate_with(pos, w) as f64;
            let white = if pos.side_to_move() == rookling::board::Color::White {
                e
            } else {
                -e
            };
            let p = 1.0 / (1.0 + 10f64.powf(-k * white / 400.0));
            (result - p).powi(2)
        })
        .sum();
    sum / data.len() as f64
}

fn tune(args: &[String]) -> Result<(), String> {
    let file = std::fs::File::open(&args[0]).map_err(|e| e.to_string())?;
    let passes: usize = args.get(1).map_or(Ok(4), |s| num(s))?;
    let mut data = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|e| e.to_string())?;
        let Some((fen, result)) = line.rsplit_once(';') else {
            continue;
        };
        let pos = Position::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
        data.push((pos, num::<f64>(result)?));
    }
    eprintln!("{} positions", data.len());
    let mut w = WEIGHTS.clone();
    let mut k = 1.0;
    let mut best_k_err = f64::MAX;
    for i in 0..=30 {
        let kk = 0.5 + i as f64 * 0.05;
        let e = error(&data, &w, kk);
        if e < best_k_err {
            best_k_err = e;
            k = kk;
        }
    }
    eprintln!("K = {k:.2}, error {best_k_err:.6}");
    let mut best = best_k_err;
    let n = w.scalars_mut().len();
    for pass in 0..passes {
        let step = [8, 4, 2, 1].get(pass).copied().unwrap_or(1);
        let mut improved = 0;
        for i in 0..n {
            for delta in [step, -step] {
                *w.scalars_mut()[i] += delta;
                let e = error(&data, &w, k);
                if e < best {
                    best = e;
                    improved += 1;
                    break;
                }
                *w.scalars_mut()[i] -= delta;
            }
        }
        eprintln!("pass {pass} (step {step}): error {best:.6}, {improved} weights moved");
    }
    println!("{}", w.to_rust());
    Ok(())
}
