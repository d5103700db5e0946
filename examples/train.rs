//! The trainer of Rookling's evaluation network, on data from `rookling datagen`.
//!
//! ```text
//! cargo run --release --example train -- --data FILE [--data FILE ...] --out nets/default.nnue
//!     [--epochs 40] [--lr 0.001] [--batch 16384] [--lambda 1.0] [--threads 2] [--seed 1]
//!     [--buckets 1] [--init NET] [--mirror] [--sigmoid-scale 400]
//! ```
//!
//! A data file holds 32-byte records (`rookling::data`, what `datagen` writes: only the
//! finished games of a file are read, so one still being written can be used) or the
//! older `FEN | SCORE | RESULT` lines (told apart by their first 32 bytes: a record's
//! last byte is 0 or 1, never text). Positions are kept as records, 32 bytes each, and
//! their inputs are found as they are trained on. The network (`rookling::nnue`: 768
//! inputs per view -> HIDDEN -> squared clipped ReLU -> 1 output from the weights of the
//! position's output bucket, `--buckets` of 1, 2, 4 or 8 by piece count) is trained in
//! f32 to predict
//! `lambda * sigmoid(SCORE / K) + (1 - lambda) * RESULT` for the side to move, with
//! mean squared error on `sigmoid(output * 400 / K)` (`K`, `--sigmoid-scale`, is 400
//! unless given: the centipawns that turn a score into odds; the output stays in
//! centipawns / 400), AdamW, the learning rate cut tenfold for
//! the last quarter of the epochs, and 1% of the positions held out to report a
//! validation loss. Output weights stay within +-1.98 so that the quantised network
//! (first layer x255, output x64) cannot overflow. The quantised network is written
//! after every epoch. `--init NET` starts from the weights of an existing network file
//! (dequantised, so that the first forward pass is that network's) instead of random
//! ones, to fine-tune it on new data; a one-bucket network's output layer starts every
//! bucket; a network of fewer neurons than `HIDDEN` fills the first ones and the others
//! start with random first-layer weights and zero output weights (so the first forward
//! pass is still that network's, and the new neurons learn from there). `--mirror`
//! trains on each position without castling rights as it is or as its mirror image
//! (files a to h swapped, which changes nothing in chess without castling), one or the
//! other by a hash of the position and the epoch: more positions seen for the same data.
//! The same data (in the same order), seed, thread count, options and starting network
//! give the same network, byte for byte.

use rookling::board::Color;
use rookling::data::{Record, TextPosition, file};
use rookling::nnue::features::{INPUTS, index};
use rookling::nnue::{HIDDEN, Network, QA, QB, SCALE, output_bucket};
use rookling::search::selfplay::Rng;
use std::io::{BufRead, Read};
use std::path::Path;
use std::time::Instant;

/// The most pieces on a board (the inputs active in one view).
const MAX_ACTIVE: usize = 32;
/// The largest output weight, so that `255 * round(w * 64)` fits an `i16`.
const OUT_CLIP: f32 = 1.98;

/// One training position, from the side to move's view.
struct Sample {
    /// Active inputs in the side to move's view (the other view is derived).
    features: [u16; MAX_ACTIVE],
    count: u8,
    /// The search score, centipawns, side to move.
    score: f32,
    /// The game result, side to move: 1, 0.5, 0.
    result: f32,
    /// The output bucket.
    bucket: u8,
}

impl Sample {
    /// The inputs and targets of `record` (a record holds at most 32 pieces), its files
    /// swapped (a to h) when `mirrored`.
    #[inline(always)]
    fn new(record: &Record, buckets: usize, mirrored: bool) -> Self {
        let file_flip = if mirrored { 7 } else { 0 };
        let stm = record.side_to_move();
        let (score, result) = (
            f32::from(record.white_score()),
            record.result().white_points(),
        );
        let mut sample = Sample {
            features: [0; MAX_ACTIVE],
            count: 0,
            score: if stm == Color::White { score } else { -score },
            result: if stm == Color::White {
                result
            } else {
                1.0 - result
            },
            bucket: 0,
        };
        for (sq, piece) in record.pieces().take(MAX_ACTIVE) {
            sample.features[usize::from(sample.count)] = (index(stm, piece, sq) ^ file_flip) as u16;
            sample.count += 1;
        }
        sample.bucket = output_bucket(u32::from(sample.count), buckets) as u8;
        sample
    }
}

/// The same input seen from the other side: colours swapped, board flipped.
#[inline(always)]
fn other_view(i: usize) -> usize {
    let (kind, sq) = (i / 64, i % 64);
    let flipped = if kind < 6 { kind + 6 } else { kind - 6 };
    flipped * 64 + (sq ^ 56)
}

/// The bound of a random first-layer weight: `1 / sqrt(inputs)`.
fn ft_bound() -> f32 {
    1.0 / (INPUTS as f32).sqrt()
}

/// A random number in `[-scale, scale)`, from 53 bits of `rng`.
fn uniform(rng: &mut Rng, scale: f32) -> f32 {
    let u = (rng.next_u64() >> 11) as f32 / (1u64 << 53) as f32;
    (2.0 * u - 1.0) * scale
}

/// The network in f32.
#[derive(Clone)]
struct Params {
    ft_w: Vec<[f32; HIDDEN]>,
    ft_b: [f32; HIDDEN],
    /// Each output bucket's weights: side to move's view, then the other's.
    out_w: Vec<[[f32; HIDDEN]; 2]>,
    /// Each output bucket's bias.
    out_b: Vec<f32>,
}

impl Params {
    fn zeros(buckets: usize) -> Self {
        Self {
            ft_w: vec![[0.0; HIDDEN]; INPUTS],
            ft_b: [0.0; HIDDEN],
            out_w: vec![[[0.0; HIDDEN]; 2]; buckets],
            out_b: vec![0.0; buckets],
        }
    }

    fn buckets(&self) -> usize {
        self.out_b.len()
    }

    fn random(rng: &mut Rng, buckets: usize) -> Self {
        let mut p = Self::zeros(buckets);
        let ft = ft_bound();
        for row in p.ft_w.iter_mut() {
            for w in row.iter_mut() {
                *w = uniform(rng, ft);
            }
        }
        let out = 1.0 / ((2 * HIDDEN) as f32).sqrt();
        for row in p.out_w.iter_mut().flatten() {
            for w in row.iter_mut() {
                *w = uniform(rng, out);
            }
        }
        p
    }

    /// The weights of `net`, dequantised, with `buckets` output buckets: `net`'s own,
    /// or its single one copied into each.
    fn from_network(net: &Network, buckets: usize) -> Result<Self, String> {
        if net.buckets() != buckets && net.buckets() != 1 {
            return Err(format!(
                "--init: a network of {} output buckets cannot start one of {buckets}",
                net.buckets()
            ));
        }
        let mut p = Self::zeros(buckets);
        let (qa, qb) = (QA as f32, QB as f32);
        for (dst, src) in p.ft_w.iter_mut().zip(&net.ft_weights) {
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = f32::from(s) / qa;
            }
        }
        for (d, &s) in p.ft_b.iter_mut().zip(&net.ft_bias) {
            *d = f32::from(s) / qa;
        }
        for (b, (w, bias)) in p.out_w.iter_mut().zip(p.out_b.iter_mut()).enumerate() {
            let from = if net.buckets() == 1 { 0 } else { b };
            for (dst, src) in w.iter_mut().zip(&net.out_weights[from]) {
                for (d, &s) in dst.iter_mut().zip(src) {
                    *d = f32::from(s) / qb;
                }
            }
            *bias = net.out_bias[from] as f32 / (qa * qb);
        }
        Ok(p)
    }

    /// Gives the neurons from `hidden` on (zero in a network read from a narrower file)
    /// random first-layer weights, as [`random`](Self::random) would, and leaves their
    /// biases and output weights zero: the output is unchanged until they learn.
    fn widen_from(&mut self, hidden: usize, rng: &mut Rng) {
        if hidden >= HIDDEN {
            return;
        }
        let ft = ft_bound();
        for row in self.ft_w.iter_mut() {
            for w in &mut row[hidden..] {
                *w = uniform(rng, ft);
            }
        }
    }

    /// Every parameter as one flat slice of rows, for the optimiser.
    fn rows_mut(&mut self) -> impl Iterator<Item = &mut [f32]> {
        self.ft_w
            .iter_mut()
            .map(|r| &mut r[..])
            .chain(std::iter::once(&mut self.ft_b[..]))
            .chain(self.out_w.iter_mut().flatten().map(|r| &mut r[..]))
            .chain(std::iter::once(&mut self.out_b[..]))
    }

    fn add(&mut self, other: &Self) {
        for (a, b) in self.rows_mut().zip(other.rows()) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }

    fn rows(&self) -> impl Iterator<Item = &[f32]> {
        self.ft_w
            .iter()
            .map(|r| &r[..])
            .chain(std::iter::once(&self.ft_b[..]))
            .chain(self.out_w.iter().flatten().map(|r| &r[..]))
            .chain(std::iter::once(&self.out_b[..]))
    }

    fn clear(&mut self) {
        for row in self.rows_mut() {
            row.fill(0.0);
        }
    }

    fn quantise(&self) -> Box<Network> {
        // The bucket count was checked when the options were read.
        let mut net = Network::zeroed_with(self.buckets()).unwrap_or_else(Network::zeroed);
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32768.0, 32767.0) as i16;
        for (dst, src) in net.ft_weights.iter_mut().zip(&self.ft_w) {
            for (d, s) in dst.iter_mut().zip(src) {
                *d = q(*s, QA);
            }
        }
        for (d, s) in net.ft_bias.iter_mut().zip(&self.ft_b) {
            *d = q(*s, QA);
        }
        for (dst, src) in net
            .out_weights
            .iter_mut()
            .flatten()
            .zip(self.out_w.iter().flatten())
        {
            for (d, s) in dst.iter_mut().zip(src) {
                *d = q(*s, QB);
            }
        }
        for (d, s) in net.out_bias.iter_mut().zip(&self.out_b) {
            *d = (s * (QA * QB) as f32).round() as i32;
        }
        net
    }
}

/// The hidden layer of one view before activation.
#[inline(always)]
fn accumulate(p: &Params, features: impl Iterator<Item = usize>) -> [f32; HIDDEN] {
    let mut acc = p.ft_b;
    for i in features {
        for (a, w) in acc.iter_mut().zip(&p.ft_w[i]) {
            *a += w;
        }
    }
    acc
}

/// The output (a logit: centipawns / SCALE) of one sample, with both views' hidden
/// values before activation.
#[inline(always)]
fn forward(p: &Params, s: &Sample) -> ([f32; HIDDEN], [f32; HIDDEN], f32) {
    let feats = &s.features[..s.count as usize];
    let us = accumulate(p, feats.iter().map(|&i| i as usize));
    let them = accumulate(p, feats.iter().map(|&i| other_view(i as usize)));
    let bucket = usize::from(s.bucket);
    let mut out = p.out_b[bucket];
    for (view, w) in [&us, &them].into_iter().zip(&p.out_w[bucket]) {
        for (a, w) in view.iter().zip(w) {
            let h = a.clamp(0.0, 1.0);
            out += h * h * w;
        }
    }
    (us, them, out)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What the network is fitted to: `lambda * sigmoid(SCORE / scale) + (1 - lambda) *
/// RESULT`, predicted by `sigmoid(output * SCALE / scale)`. The output is in centipawns /
/// [`SCALE`] whatever `scale` is: `scale` only says how many centipawns turn a score into
/// the odds a result is mixed with (and so how the errors of large and small scores weigh).
#[derive(Clone, Copy)]
struct Target {
    lambda: f32,
    scale: f32,
}

impl Target {
    /// The output's logit per unit of output (1 when `scale` is [`SCALE`]).
    fn gain(self) -> f32 {
        SCALE as f32 / self.scale
    }

    /// The output (centipawns / [`SCALE`]) as the expected result.
    fn predict(self, out: f32) -> f32 {
        sigmoid(out * self.gain())
    }

    /// The expected result `s` is fitted to.
    fn of(self, s: &Sample) -> f32 {
        self.lambda * sigmoid(s.score / self.scale) + (1.0 - self.lambda) * s.result
    }

    /// The squared error of output `out` against the expected result `want`, and its
    /// derivative by `out`: the one loss training and validation both use.
    fn loss(self, out: f32, want: f32) -> (f32, f32) {
        let pred = self.predict(out);
        let err = pred - want;
        (err * err, 2.0 * err * pred * (1.0 - pred) * self.gain())
    }
}

/// Whether to train on `record`'s mirror image this epoch (`salt`; `None`: never): for
/// about half the positions without castling rights, chosen by a hash of the record so
/// that the choice does not depend on how the batch is split among threads.
fn mirrored(record: &Record, salt: Option<u64>) -> bool {
    let Some(salt) = salt else {
        return false;
    };
    let bytes = record.to_bytes();
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[i..i + 8]);
        u64::from_le_bytes(w)
    };
    let h = (word(0) ^ word(8).rotate_left(17) ^ word(16).rotate_left(31) ^ word(24) ^ salt)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h >> 63 == 1 && !record.may_castle()
}

/// Adds the gradient of the loss over `batch` to `grad`, each record mirrored or not as
/// [`mirrored`] says for `salt`; the summed loss.
fn backward(
    p: &Params,
    batch: &[Record],
    target: Target,
    salt: Option<u64>,
    grad: &mut Params,
) -> f32 {
    let mut loss = 0.0;
    for record in batch {
        let s = &Sample::new(record, p.buckets(), mirrored(record, salt));
        let bucket = usize::from(s.bucket);
        let (us, them, out) = forward(p, s);
        let (err2, d_out) = target.loss(out, target.of(s));
        loss += err2;
        grad.out_b[bucket] += d_out;
        let feats = &s.features[..s.count as usize];
        for (v, view) in [&us, &them].into_iter().enumerate() {
            let mut d_acc = [0.0f32; HIDDEN];
            for j in 0..HIDDEN {
                let a = view[j];
                let h = a.clamp(0.0, 1.0);
                grad.out_w[bucket][v][j] += d_out * h * h;
                d_acc[j] = if a > 0.0 && a < 1.0 {
                    d_out * p.out_w[bucket][v][j] * 2.0 * a
                } else {
                    0.0
                };
            }
            for (g, d) in grad.ft_b.iter_mut().zip(&d_acc) {
                *g += d;
            }
            for &i in feats {
                let i = if v == 0 {
                    i as usize
                } else {
                    other_view(i as usize)
                };
                for (g, d) in grad.ft_w[i].iter_mut().zip(&d_acc) {
                    *g += d;
                }
            }
        }
    }
    loss
}

/// AdamW state.
struct Adam {
    m: Params,
    v: Params,
    t: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const DECAY: f32 = 0.01;

    fn step(&mut self, p: &mut Params, grad: &Params, lr: f32, scale: f32) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        let rows = p
            .rows_mut()
            .zip(grad.rows())
            .zip(self.m.rows_mut().zip(self.v.rows_mut()));
        for ((pr, gr), (mr, vr)) in rows {
            for i in 0..pr.len() {
                let g = gr[i] * scale;
                mr[i] = Self::BETA1 * mr[i] + (1.0 - Self::BETA1) * g;
                vr[i] = Self::BETA2 * vr[i] + (1.0 - Self::BETA2) * g * g;
                let update = (mr[i] / c1) / ((vr[i] / c2).sqrt() + 1e-8);
                pr[i] -= lr * (update + Self::DECAY * pr[i]);
            }
        }
        for row in p.out_w.iter_mut().flatten() {
            for w in row.iter_mut() {
                *w = w.clamp(-OUT_CLIP, OUT_CLIP);
            }
        }
    }
}

/// Whether the file at `path` holds text lines rather than records: its first 32 bytes
/// (or fewer, in a short file) are printable ASCII.
fn is_text(path: &Path) -> Result<bool, String> {
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(32).read_to_end(&mut head))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(head
        .iter()
        .all(|&b| b.is_ascii_graphic() || b.is_ascii_whitespace()))
}

/// Reads the records of `path` (its finished games), or its `FEN | SCORE | RESULT`
/// lines, onto `out`; how many lines were skipped (malformed, or a last line without
/// its end).
fn load(path: &Path, out: &mut Vec<Record>) -> Result<u64, String> {
    if !is_text(path)? {
        let scan = file::read_finished(path, out).map_err(|e| e.to_string())?;
        return Ok(scan.unfinished);
    }
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut input = std::io::BufReader::with_capacity(1 << 20, file);
    let (mut line, mut skipped) = (String::new(), 0);
    loop {
        line.clear();
        let n = input
            .read_line(&mut line)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if n == 0 {
            return Ok(skipped);
        }
        let parsed = line
            .strip_suffix('\n')
            .and_then(|l| TextPosition::parse(l.trim_end()).ok());
        match parsed {
            Some(p) => out.push(p.record(false)),
            None => skipped += 1,
        }
    }
}

struct Options {
    data: Vec<String>,
    out: String,
    epochs: usize,
    lr: f32,
    batch: usize,
    lambda: f32,
    /// Centipawns per unit of the sigmoid's argument (`--sigmoid-scale`).
    sigmoid_scale: f32,
    threads: usize,
    seed: u64,
    /// Output buckets; `None`: the `--init` network's, else 1.
    buckets: Option<usize>,
    /// A network file to start from.
    init: Option<String>,
    /// Train on mirror images too (`--mirror`).
    mirror: bool,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        data: Vec::new(),
        out: "nets/default.nnue".into(),
        epochs: 40,
        lr: 0.001,
        batch: 16_384,
        lambda: 1.0,
        sigmoid_scale: SCALE as f32,
        threads: 2,
        seed: 1,
        buckets: None,
        init: None,
        mirror: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if flag == "--mirror" {
            o.mirror = true;
            continue;
        }
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |_| format!("{flag}: not a number: {value}");
        match flag.as_str() {
            "--data" => o.data.push(value.clone()),
            "--out" => o.out = value.clone(),
            "--epochs" => o.epochs = value.parse().map_err(bad)?,
            "--lr" => o.lr = value.parse().map_err(|_| format!("{flag}: {value}"))?,
            "--batch" => o.batch = value.parse().map_err(bad)?,
            "--lambda" => o.lambda = value.parse().map_err(|_| format!("{flag}: {value}"))?,
            "--sigmoid-scale" => {
                o.sigmoid_scale = value.parse().map_err(|_| format!("{flag}: {value}"))?;
            }
            "--threads" => o.threads = value.parse().map_err(bad)?,
            "--seed" => o.seed = value.parse().map_err(bad)?,
            "--buckets" => o.buckets = Some(value.parse().map_err(bad)?),
            "--init" => o.init = Some(value.clone()),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if o.data.is_empty() {
        return Err("no --data FILE".into());
    }
    if o.batch == 0 || o.threads == 0 || o.epochs == 0 {
        return Err("--batch, --threads and --epochs must be positive".into());
    }
    if !(0.0..=1.0).contains(&o.lambda) {
        return Err(format!("--lambda {}: must be from 0 to 1", o.lambda));
    }
    if !(o.sigmoid_scale.is_finite() && o.sigmoid_scale > 0.0) {
        return Err(format!(
            "--sigmoid-scale {}: must be a positive number of centipawns",
            o.sigmoid_scale
        ));
    }
    if let Some(b) = o.buckets
        && Network::zeroed_with(b).is_none()
    {
        return Err(format!(
            "--buckets {b}: the bucket count must be 1, 2, 4 or 8"
        ));
    }
    Ok(o)
}

/// Mean loss of `samples` (in parallel).
fn validate(p: &Params, samples: &[Record], target: Target, threads: usize) -> f32 {
    if samples.is_empty() {
        return 0.0;
    }
    let chunk = samples.len().div_ceil(threads);
    let total: f32 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|r| {
                            let s = Sample::new(r, p.buckets(), false);
                            target.loss(forward(p, &s).2, target.of(&s)).0
                        })
                        .sum::<f32>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    total / samples.len() as f32
}

fn run() -> Result<(), String> {
    let o = options()?;
    let target = Target {
        lambda: o.lambda,
        scale: o.sigmoid_scale,
    };
    let start = Instant::now();
    let mut samples = Vec::new();
    for path in &o.data {
        let skipped = load(Path::new(path), &mut samples)?;
        eprintln!(
            "{path}: {} positions so far ({skipped} lines or records of an unfinished game skipped)",
            samples.len()
        );
    }
    if samples.is_empty() {
        return Err("no training positions in the data".into());
    }
    let mut rng = Rng::new(o.seed);
    for i in (1..samples.len()).rev() {
        samples.swap(i, rng.below(i + 1));
    }
    let held = samples.len() / 100;
    let (valid, train) = samples.split_at_mut(held);
    let valid: &[Record] = valid;
    eprintln!(
        "{} training, {} validation positions, loaded in {:.0} s",
        train.len(),
        valid.len(),
        start.elapsed().as_secs_f64()
    );
    let mut params = match &o.init {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("--init {path}: {e}"))?;
            let net = Network::from_bytes(&bytes).map_err(|e| format!("--init {path}: {e}"))?;
            let mut p = Params::from_network(&net, o.buckets.unwrap_or(net.buckets()))?;
            p.widen_from(net.hidden(), &mut rng);
            eprintln!(
                "starting from {path} ({} output buckets, now {}; {} neurons, now {HIDDEN}): \
                 validation loss {:.6}",
                net.buckets(),
                p.buckets(),
                net.hidden(),
                validate(&p, valid, target, o.threads)
            );
            p
        }
        None => Params::random(&mut rng, o.buckets.unwrap_or(1)),
    };
    let buckets = params.buckets();
    let mut adam = Adam {
        m: Params::zeros(buckets),
        v: Params::zeros(buckets),
        t: 0,
    };
    let mut grads: Vec<Params> = (0..o.threads).map(|_| Params::zeros(buckets)).collect();
    for epoch in 0..o.epochs {
        let lr = if epoch >= o.epochs * 3 / 4 {
            o.lr / 10.0
        } else {
            o.lr
        };
        for i in (1..train.len()).rev() {
            train.swap(i, rng.below(i + 1));
        }
        let salt = o.mirror.then(|| rng.next_u64());
        let mut loss = 0.0f64;
        for batch in train.chunks(o.batch) {
            let part = batch.len().div_ceil(o.threads);
            let p = &params;
            // Every gradient is cleared, also those a short last batch leaves idle.
            for grad in grads.iter_mut() {
                grad.clear();
            }
            let losses: Vec<f32> = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(part)
                    .zip(grads.iter_mut())
                    .map(|(chunk, grad)| {
                        scope.spawn(move || backward(p, chunk, target, salt, grad))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(0.0))
                    .collect()
            });
            loss += losses.iter().map(|&l| f64::from(l)).sum::<f64>();
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter() {
                first[0].add(g);
            }
            adam.step(&mut params, &first[0], lr, 1.0 / batch.len() as f32);
        }
        let net = params.quantise();
        std::fs::write(&o.out, net.to_bytes()).map_err(|e| format!("{}: {e}", o.out))?;
        eprintln!(
            "epoch {:>3}: train loss {:.6}, validation loss {:.6}, lr {lr}, {:.0} s",
            epoch + 1,
            loss / train.len() as f64,
            validate(&params, valid, target, o.threads),
            start.elapsed().as_secs_f64()
        );
    }
    println!("wrote {}", o.out);
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("train: {e}");
        std::process::exit(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rookling::board::Position;
    use rookling::data::GameResult;

    fn record(fen: &str) -> Record {
        let pos = Position::from_fen(fen).expect("valid FEN");
        Record::new(&pos, 87, GameResult::WhiteWin, false)
    }

    fn inputs(s: &Sample) -> Vec<u16> {
        let mut v = s.features[..usize::from(s.count)].to_vec();
        v.sort_unstable();
        v
    }

    /// A network whose output is the data's score (in centipawns / SCALE) fits a
    /// `lambda 1` target exactly at any sigmoid scale, and the gradient is the loss's
    /// derivative (checked against a finite difference).
    #[test]
    fn the_sigmoid_scale_changes_the_odds_not_the_output_units() {
        let s = Sample::new(&record(rookling::board::START_FEN), 8, false);
        for scale in [150.0, 250.0, 400.0, 600.0] {
            let t = Target { lambda: 1.0, scale };
            let out = s.score / SCALE as f32;
            assert!((t.predict(out) - t.of(&s)).abs() < 1e-6, "{scale}");
            let mixed = Target { lambda: 0.5, scale };
            assert!((mixed.of(&s) - (0.5 * t.of(&s) + 0.5 * s.result)).abs() < 1e-6);
            let loss = |o: f32| t.loss(o, 0.9).0;
            let (o, h) = (0.3f32, 1e-3f32);
            assert_eq!(loss(o), (t.predict(o) - 0.9).powi(2), "{scale}");
            let numeric = (loss(o + h) - loss(o - h)) / (2.0 * h);
            let analytic = t.loss(o, 0.9).1;
            assert!(
                (numeric - analytic).abs() < 1e-3,
                "{scale}: {numeric} {analytic}"
            );
        }
        let default = Target {
            lambda: 1.0,
            scale: SCALE as f32,
        };
        assert_eq!(default.gain(), 1.0);
        assert_eq!(default.predict(0.7), sigmoid(0.7));
    }

    #[test]
    fn a_mirrored_sample_is_the_mirror_image_position() {
        let fen = "r5k1/pp3pbp/2n3p1/8/3P4/2N1B3/PP3PPP/R5K1 b - - 0 1";
        let image = "1k5r/pbp3pp/1p3n2/8/4P3/3B1N2/PPP3PP/1K5R b - - 0 1";
        let (a, b) = (
            Sample::new(&record(fen), 8, true),
            Sample::new(&record(image), 8, false),
        );
        assert_eq!(inputs(&a), inputs(&b));
        assert_ne!(inputs(&a), inputs(&Sample::new(&record(fen), 8, false)));
        assert_eq!((a.score, a.result, a.bucket), (b.score, b.result, b.bucket));
        assert_eq!((a.score, a.result), (-87.0, 0.0));
    }

    #[test]
    fn about_half_are_mirrored_and_never_one_that_may_castle() {
        let open = record("r5k1/pp3pbp/2n3p1/8/3P4/2N1B3/PP3PPP/R5K1 b - - 0 1");
        let castling = record(rookling::board::START_FEN);
        let mirrored_of = |r: &Record| (0..1000u64).filter(|&s| mirrored(r, Some(s))).count();
        let n = mirrored_of(&open);
        assert!((400..=600).contains(&n), "{n} of 1000 salts mirror it");
        assert_eq!(mirrored_of(&castling), 0);
        assert!(!mirrored(&open, None));
    }

    /// The new neurons of a widened network start with first-layer weights of their own
    /// and no say in the output: the first forward pass is the narrower network's.
    #[test]
    fn a_widened_network_starts_as_the_narrower_one() {
        let half = HIDDEN / 2;
        let mut rng = Rng::new(5);
        let mut narrow = Params::random(&mut rng, 8);
        for row in narrow.ft_w.iter_mut() {
            row[half..].fill(0.0);
        }
        narrow.ft_b[half..].fill(0.0);
        for view in narrow.out_w.iter_mut().flatten() {
            view[half..].fill(0.0);
        }
        let mut wide = narrow.clone();
        wide.widen_from(half, &mut rng);
        let kept = wide.ft_w.iter().zip(&narrow.ft_w);
        assert!(kept.clone().all(|(w, n)| w[..half] == n[..half]));
        assert!(
            kept.clone()
                .all(|(w, _)| w[half..].iter().any(|&x| x != 0.0))
        );
        assert!(wide.out_w == narrow.out_w && wide.ft_b == narrow.ft_b);
        let sample = Sample::new(&record(rookling::board::START_FEN), 8, false);
        let (_, _, a) = forward(&narrow, &sample);
        let (_, _, b) = forward(&wide, &sample);
        assert!((a - b).abs() < 1e-6, "{a} {b}");
        let mut full = narrow.clone();
        full.widen_from(HIDDEN, &mut rng);
        assert!(full.ft_w == narrow.ft_w);
    }
}
