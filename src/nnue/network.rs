//! The network's weights: their file format, loading, and the output layer.

use super::features::INPUTS;
use crate::board::Color;
use std::fmt;
use std::sync::{Arc, LazyLock, RwLock};

/// Neurons per side's view in the hidden layer.
pub const HIDDEN: usize = 256;
/// Network files are read in whole multiples of this many neurons (a file of fewer than
/// [`HIDDEN`] is read into the first ones, the others zero).
pub const HIDDEN_STEP: usize = 16;
/// The first layer's quantisation: weights and biases in units of `1 / QA`; activations
/// are clipped to `[0, QA]`.
pub const QA: i32 = 255;
/// The output weights' quantisation: units of `1 / QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output: the trainer fits `sigmoid(output)` to
/// `sigmoid(score / SCALE)`.
pub const SCALE: i32 = 400;

/// The first bytes of a one-bucket file (the format since the first network):
/// `RKNN`, the hidden size (`u32`), then the weights.
const MAGIC: &[u8; 4] = b"RKNN";
/// The first bytes of a file with output buckets: `RKNB`, the hidden size and the
/// bucket count (`u32` each), then the weights.
const MAGIC_BUCKETS: &[u8; 4] = b"RKNB";
/// The most output buckets a network may have.
pub const MAX_BUCKETS: usize = 8;
/// The network every build plays with.
const DEFAULT: &[u8] = include_bytes!("../../nets/default.nnue");

/// The output bucket of a position with `pieces` pieces (kings included) in a network of
/// `buckets` output buckets (1, 2, 4 or 8): the pieces beyond the two kings, in groups
/// of `32 / buckets` (with 8: 2-5 pieces bucket 0, ..., 30-32 bucket 7). Shared with
/// the trainer, so the two cannot disagree.
#[inline(always)]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let shift = 5 - buckets.trailing_zeros();
    ((pieces.saturating_sub(2) >> shift) as usize).min(buckets - 1)
}

/// The weights, quantised.
#[repr(C, align(64))]
pub struct Network {
    /// The first layer: one row of `HIDDEN` per input.
    pub ft_weights: [[i16; HIDDEN]; INPUTS],
    /// The first layer's biases.
    pub ft_bias: [i16; HIDDEN],
    /// The output weights of each bucket: the side to move's `HIDDEN` first, then the
    /// other side's. Only the first [`buckets`](Self::buckets) are used.
    pub out_weights: [[[i16; HIDDEN]; 2]; MAX_BUCKETS],
    /// The output bias of each bucket, in units of `1 / (QA * QB)`.
    pub out_bias: [i32; MAX_BUCKETS],
    /// How many output buckets are used: 1, 2, 4 or 8.
    buckets: usize,
    /// How many neurons the file had: [`HIDDEN`], or fewer, the others being zero.
    hidden: usize,
}

impl fmt::Debug for Network {
    /// The shape only: the weights are far too many to print.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &self.hidden)
            .field("buckets", &self.buckets)
            .finish_non_exhaustive()
    }
}

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// It does not start with the magic bytes `RKNN` or `RKNB`.
    NotANetwork,
    /// Its hidden layer is wider than [`HIDDEN`] or not a multiple of [`HIDDEN_STEP`].
    WrongShape(u32),
    /// Its bucket count is not 1, 2, 4 or 8.
    WrongBuckets(u32),
    /// Its length is not the one its shape needs.
    WrongLength {
        /// The file's length.
        len: usize,
        /// The length its header's shape needs.
        expected: usize,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotANetwork => f.write_str("not a Rookling network (no RKNN or RKNB header)"),
            Self::WrongShape(h) => write!(
                f,
                "a network of {h} hidden neurons, not a multiple of {HIDDEN_STEP} up to {HIDDEN}"
            ),
            Self::WrongBuckets(b) => {
                write!(f, "a network of {b} output buckets, not 1, 2, 4 or 8")
            }
            Self::WrongLength { len, expected } => {
                write!(f, "a network file of {len} bytes, not {expected}")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

impl Network {
    /// The size of a network file of `hidden` neurons and `buckets` output buckets:
    /// header, then every weight little-endian in field order (the first layer, its
    /// biases, each bucket's output weights, then each bucket's output bias).
    pub const fn file_bytes(hidden: usize, buckets: usize) -> usize {
        let header = if buckets == 1 { 8 } else { 12 };
        header + 2 * (INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
    }

    /// Reads a network file: `RKNN` (one output bucket) or `RKNB` (several). A file of
    /// fewer than [`HIDDEN`] neurons fills the first ones and leaves the others zero,
    /// which adds nothing to the output: the network plays exactly as it was trained.
    pub fn from_bytes(bytes: &[u8]) -> Result<Box<Self>, NetworkError> {
        let word = |at: usize| {
            bytes
                .get(at..at + 4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        };
        let (buckets, header) = match bytes.get(..4) {
            Some(m) if m == MAGIC => (1, 8),
            Some(m) if m == MAGIC_BUCKETS => (word(8).ok_or(NetworkError::NotANetwork)?, 12),
            _ => return Err(NetworkError::NotANetwork),
        };
        let width = word(4).ok_or(NetworkError::NotANetwork)?;
        let hidden = width as usize;
        if hidden == 0 || hidden > HIDDEN || !hidden.is_multiple_of(HIDDEN_STEP) {
            return Err(NetworkError::WrongShape(width));
        }
        let mut net =
            Self::zeroed_with(buckets as usize).ok_or(NetworkError::WrongBuckets(buckets))?;
        net.hidden = hidden;
        let expected = Self::file_bytes(hidden, net.buckets);
        if bytes.len() != expected {
            return Err(NetworkError::WrongLength {
                len: bytes.len(),
                expected,
            });
        }
        let mut words = bytes[header..]
            .chunks_exact(2)
            .map(|w| i16::from_le_bytes([w[0], w[1]]));
        let mut fill = |row: &mut [i16]| {
            for w in &mut row[..hidden] {
                *w = words.next().unwrap_or(0);
            }
        };
        for row in net.ft_weights.iter_mut() {
            fill(row);
        }
        fill(&mut net.ft_bias);
        let n = net.buckets;
        for row in net.out_weights[..n].iter_mut().flatten() {
            fill(row);
        }
        let biases = bytes[expected - 4 * n..].chunks_exact(4);
        for (b, w) in net.out_bias.iter_mut().zip(biases) {
            *b = i32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        }
        Ok(net)
    }

    /// Writes the network in the format [`from_bytes`](Self::from_bytes) reads: `RKNN`
    /// for one output bucket, `RKNB` for more, as many neurons as it was read with (so
    /// a file reads and writes back byte for byte).
    pub fn to_bytes(&self) -> Vec<u8> {
        let (n, hidden) = (self.buckets, self.hidden);
        let mut out = Vec::with_capacity(Self::file_bytes(hidden, n));
        out.extend_from_slice(if n == 1 { MAGIC } else { MAGIC_BUCKETS });
        out.extend_from_slice(&(hidden as u32).to_le_bytes());
        if n > 1 {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        let rows = self
            .ft_weights
            .iter()
            .chain(std::iter::once(&self.ft_bias))
            .chain(self.out_weights[..n].iter().flatten());
        for row in rows {
            for w in &row[..hidden] {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in &self.out_bias[..n] {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// How many output buckets the network uses.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// How many neurons its file had: [`HIDDEN`], or fewer (the others are zero).
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// A network of zeros with one output bucket, on the heap (it is too big for some
    /// threads' stacks).
    pub fn zeroed() -> Box<Self> {
        let layout = std::alloc::Layout::new::<Self>();
        // SAFETY: the layout is the non-zero-sized `Network`'s; every field is an integer
        // (array), for which all-zero bytes are a valid value, so the zeroed allocation is
        // a valid `Network` and `Box` may own it with the same layout.
        let mut net = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout).cast::<Self>();
            if ptr.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            Box::from_raw(ptr)
        };
        net.buckets = 1;
        net.hidden = HIDDEN;
        net
    }

    /// A network of zeros with `buckets` output buckets; `None` unless that is 1, 2, 4
    /// or 8.
    pub fn zeroed_with(buckets: usize) -> Option<Box<Self>> {
        if !buckets.is_power_of_two() || buckets > MAX_BUCKETS {
            return None;
        }
        let mut net = Self::zeroed();
        net.buckets = buckets;
        Some(net)
    }

    /// The output for `stm` to move with `pieces` pieces on the board, in centipawns,
    /// from both views' accumulators.
    #[inline]
    pub fn evaluate(&self, acc: &super::Accumulator, stm: Color, pieces: u32) -> i32 {
        let bucket = output_bucket(pieces, self.buckets);
        #[cfg(target_arch = "x86_64")]
        if has_avx512() {
            // SAFETY: the CPU supports AVX-512 F and BW, the features `output_avx512` is
            // compiled for.
            return unsafe { self.output_avx512(acc, stm, bucket) };
        } else if has_avx2() {
            // SAFETY: the CPU supports AVX2, the only feature `output_avx2` is compiled for.
            return unsafe { self.output_avx2(acc, stm, bucket) };
        }
        self.output(acc, stm, bucket)
    }

    /// [`output`](Self::output) compiled for AVX-512 (thirty-two 16-bit lanes at a time).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn output_avx512(&self, acc: &super::Accumulator, stm: Color, bucket: usize) -> i32 {
        let [(us, w_us), (them, w_them)] = self.views(acc, stm, bucket);
        let sum = screlu_dot_avx512(us, w_us) + screlu_dot_avx512(them, w_them);
        self.scale_output(sum, bucket)
    }

    /// [`output`](Self::output) compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn output_avx2(&self, acc: &super::Accumulator, stm: Color, bucket: usize) -> i32 {
        self.output(acc, stm, bucket)
    }

    /// The output layer of `bucket`. Each view's dot fits an `i32` (see
    /// [`screlu_dot`]); their sum and the scaling need not, so they are done in `i64`
    /// and the result saturates.
    #[inline(always)]
    fn output(&self, acc: &super::Accumulator, stm: Color, bucket: usize) -> i32 {
        let [(us, w_us), (them, w_them)] = self.views(acc, stm, bucket);
        let sum = screlu_dot(us, w_us) + screlu_dot(them, w_them);
        self.scale_output(sum, bucket)
    }

    /// Each view's accumulator beside its output weights of `bucket`: the side to
    /// move's first, then the other side's (every output path pairs them so).
    #[inline(always)]
    fn views<'a>(
        &'a self,
        acc: &'a super::Accumulator,
        stm: Color,
        bucket: usize,
    ) -> [(&'a [i16; HIDDEN], &'a [i16; HIDDEN]); 2] {
        let weights = &self.out_weights[bucket];
        [
            (&acc.values[stm.index()], &weights[0]),
            (&acc.values[stm.flip().index()], &weights[1]),
        ]
    }

    /// The output in centipawns from the two views' dots summed (`sum`), saturated.
    #[inline(always)]
    fn scale_output(&self, sum: i64, bucket: usize) -> i32 {
        let out = (sum / i64::from(QA) + i64::from(self.out_bias[bucket])) * i64::from(SCALE)
            / i64::from(QA * QB);
        out.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }
}

/// `sum(clamp(x, 0, QA)^2 * w)`: the squared clipped ReLU of a view, dotted with its
/// output weights. `clamp(x) * w` fits an `i16` (the trainer keeps `|w| < 2 QB`), so the
/// products vectorise as 16-bit multiplies widened once.
/// Each term is below `2^15 * QA` in size, so [`DOT_CHUNK`] of them fit an `i32`; the
/// chunks' sums are added in `i64`.
#[inline(always)]
fn screlu_dot(values: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i64 {
    let mut total = 0i64;
    for (xs, ws) in values
        .chunks_exact(DOT_CHUNK)
        .zip(weights.chunks_exact(DOT_CHUNK))
    {
        let mut sum = 0i32;
        for (&x, &w) in xs.iter().zip(ws) {
            let c = x.clamp(0, QA as i16);
            sum += i32::from(c.wrapping_mul(w)) * i32::from(c);
        }
        total += i64::from(sum);
    }
    total
}

/// [`screlu_dot`] in AVX-512 registers, thirty-two neurons at a time (the compiler keeps
/// to 256-bit ones on its own): the same products, summed in `i32` lanes, the same total.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn screlu_dot_avx512(values: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i64 {
    use std::arch::x86_64::*;
    const LANES: usize = 32;
    let zero = _mm512_setzero_si512();
    let qa = _mm512_set1_epi16(QA as i16);
    let mut total = 0i64;
    for (xs, ws) in values
        .chunks_exact(DOT_CHUNK)
        .zip(weights.chunks_exact(DOT_CHUNK))
    {
        let mut sum = _mm512_setzero_si512();
        for (x, w) in xs.chunks_exact(LANES).zip(ws.chunks_exact(LANES)) {
            // SAFETY: each chunk holds 32 `i16`, the 64 bytes an unaligned load reads.
            let (x, w) = unsafe {
                (
                    _mm512_loadu_si512(x.as_ptr().cast()),
                    _mm512_loadu_si512(w.as_ptr().cast()),
                )
            };
            let c = _mm512_min_epi16(_mm512_max_epi16(x, zero), qa);
            sum = _mm512_add_epi32(sum, _mm512_madd_epi16(_mm512_mullo_epi16(c, w), c));
        }
        total += i64::from(_mm512_reduce_add_epi32(sum));
    }
    total
}

/// Neurons whose output terms are summed in one `i32`.
const DOT_CHUNK: usize = 256;

/// Whether the CPU has AVX2 (asked once; the answer is cached by the standard library).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// Whether the CPU has AVX-512 with 16-bit lanes (F and BW; asked once, as
/// [`has_avx2`]).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn has_avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
}

const _: () = assert!((1 << 15) * QA as i64 * DOT_CHUNK as i64 <= i32::MAX as i64);
const _: () = assert!(HIDDEN.is_multiple_of(DOT_CHUNK) && HIDDEN.is_multiple_of(HIDDEN_STEP));

/// The built-in network, read once.
static BUILT_IN: LazyLock<Arc<Network>> = LazyLock::new(|| match Network::from_bytes(DEFAULT) {
    Ok(net) => Arc::from(net),
    // The built-in file is checked by a test; a broken one cannot play at all.
    Err(e) => panic!("the built-in network nets/default.nnue is broken: {e}"),
});

/// The network in use: the built-in one until [`set_network`] replaces it.
static CURRENT: LazyLock<RwLock<Arc<Network>>> =
    LazyLock::new(|| RwLock::new(Arc::clone(&BUILT_IN)));

/// The network in use: the built-in one, or the one [`set_network`] put in its place.
/// A copy of the `Arc` is taken when a searcher is made (and by [`super::evaluate`]);
/// a search's threads evaluate with their searcher's to the end, never taking the lock.
pub fn network() -> Arc<Network> {
    Arc::clone(&CURRENT.read().unwrap_or_else(|e| e.into_inner()))
}

/// The network built into the binary (`nets/default.nnue`).
pub fn built_in_network() -> Arc<Network> {
    Arc::clone(&BUILT_IN)
}

/// Makes `net` the network [`network`] returns (UCI `EvalFile`). A searcher made
/// before keeps the one it has until it is given another (the UCI worker gives it
/// `net` in the order of the jobs, so a search already sent keeps its network).
pub fn set_network(net: Arc<Network>) {
    *CURRENT.write().unwrap_or_else(|e| e.into_inner()) = net;
}

/// Makes the built-in network the one [`network`] returns again.
pub fn use_built_in_network() {
    set_network(built_in_network());
}

/// A name for the built-in network: the FNV-1a hash of `nets/default.nnue`, 16 hex
/// digits (training data records which network played its games). It names the
/// built-in network whatever [`set_network`] has put in its place: `rookling datagen`
/// plays with the built-in one.
pub fn network_id() -> String {
    let hash = DEFAULT.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_network_reads_and_writes_back_unchanged() {
        let net = Network::from_bytes(DEFAULT).expect("nets/default.nnue reads");
        assert_eq!(net.to_bytes(), DEFAULT);
    }

    /// A network set in place of the built-in one is the one in use until the built-in
    /// one is restored. (The copy has the built-in weights, so that the other tests,
    /// which run meanwhile, evaluate as ever.)
    #[test]
    fn the_network_in_use_can_be_replaced_and_restored() {
        let copy: Arc<Network> = Arc::from(Network::from_bytes(DEFAULT).expect("reads"));
        set_network(Arc::clone(&copy));
        assert!(Arc::ptr_eq(&network(), &copy));
        assert!(!Arc::ptr_eq(&network(), &built_in_network()));
        use_built_in_network();
        assert!(Arc::ptr_eq(&network(), &built_in_network()));
        let shape = (copy.hidden(), copy.buckets());
        assert_eq!(
            format!("{copy:?}"),
            format!(
                "Network {{ hidden: {}, buckets: {}, .. }}",
                shape.0, shape.1
            )
        );
    }

    #[test]
    fn broken_files_are_refused() {
        assert_eq!(
            Network::from_bytes(b"").err(),
            Some(NetworkError::NotANetwork)
        );
        assert_eq!(
            Network::from_bytes(b"RKNB\x00\x01").err(),
            Some(NetworkError::NotANetwork)
        );
        let net = Network::from_bytes(DEFAULT).expect("nets/default.nnue reads");
        let full = Network::file_bytes(net.hidden(), net.buckets());
        let mut bytes = DEFAULT.to_vec();
        bytes.pop();
        assert_eq!(
            Network::from_bytes(&bytes).err(),
            Some(NetworkError::WrongLength {
                len: full - 1,
                expected: full
            })
        );
        for width in [7, 0, HIDDEN + HIDDEN_STEP, HIDDEN_STEP + 1] {
            bytes = DEFAULT.to_vec();
            bytes[4..8].copy_from_slice(&(width as u32).to_le_bytes());
            assert_eq!(
                Network::from_bytes(&bytes).err(),
                Some(NetworkError::WrongShape(width as u32)),
                "{width} neurons"
            );
        }
    }

    /// A network with `buckets` output buckets and every weight of its own, from the
    /// built-in one.
    fn bucketed(buckets: usize) -> Box<Network> {
        let one = Network::from_bytes(DEFAULT).expect("nets/default.nnue reads");
        let mut net = Network::zeroed_with(buckets).expect("a valid bucket count");
        net.ft_weights = one.ft_weights;
        net.ft_bias = one.ft_bias;
        for b in 0..buckets {
            for (v, view) in net.out_weights[b].iter_mut().enumerate() {
                for (i, w) in view.iter_mut().enumerate() {
                    *w = one.out_weights[0][v][i].wrapping_add((b * 3 + i % 5) as i16);
                }
            }
            net.out_bias[b] = one.out_bias[0] - 1000 * b as i32;
        }
        net
    }

    #[test]
    fn bucketed_networks_write_and_read_back_unchanged() {
        for buckets in [2, 4, 8] {
            let net = bucketed(buckets);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), Network::file_bytes(HIDDEN, buckets));
            assert_eq!(&bytes[..4], MAGIC_BUCKETS);
            let back = Network::from_bytes(&bytes).expect("a written network reads");
            assert_eq!(back.buckets(), buckets);
            assert_eq!(back.to_bytes(), bytes);
            assert!(back.out_weights == net.out_weights && back.out_bias == net.out_bias);
        }
    }

    #[test]
    fn bucketed_files_of_a_wrong_shape_are_refused() {
        let good = bucketed(8).to_bytes();
        for count in [0u32, 3, 16, u32::MAX] {
            let mut bytes = good.clone();
            bytes[8..12].copy_from_slice(&count.to_le_bytes());
            assert_eq!(
                Network::from_bytes(&bytes).err(),
                Some(NetworkError::WrongBuckets(count)),
                "{count} buckets"
            );
        }
        // A header saying 4 buckets over the weights of 8, and a file cut short.
        let mut bytes = good.clone();
        bytes[8] = 4;
        assert_eq!(
            Network::from_bytes(&bytes).err(),
            Some(NetworkError::WrongLength {
                len: good.len(),
                expected: Network::file_bytes(HIDDEN, 4)
            })
        );
        assert!(matches!(
            Network::from_bytes(&good[..good.len() - 2]),
            Err(NetworkError::WrongLength { .. })
        ));
        assert!(matches!(
            Network::from_bytes(&good[..10]),
            Err(NetworkError::NotANetwork)
        ));
        let message = Network::from_bytes(&good[..good.len() - 2])
            .err()
            .map(|e| e.to_string());
        let full = Network::file_bytes(HIDDEN, 8);
        assert_eq!(
            message,
            Some(format!("a network file of {} bytes, not {full}", full - 2))
        );
    }

    /// A file of fewer neurons is read into the first ones and evaluates every position
    /// as the same network with the others zero; it writes back as it was.
    #[test]
    fn a_narrower_network_plays_as_it_was_trained() {
        use crate::board::Position;
        let half = HIDDEN / 2;
        let mut wide = bucketed(8);
        for row in wide.ft_weights.iter_mut() {
            row[half..].fill(0);
        }
        wide.ft_bias[half..].fill(0);
        for view in wide.out_weights.iter_mut().flatten() {
            view[half..].fill(0);
        }
        let mut narrow = bucketed(8);
        narrow.hidden = half;
        let bytes = narrow.to_bytes();
        assert_eq!(bytes.len(), Network::file_bytes(half, 8));
        let back = Network::from_bytes(&bytes).expect("a narrower network reads");
        assert_eq!(back.hidden(), half);
        assert_eq!(back.to_bytes(), bytes);
        for fen in [
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 5 4",
        ] {
            let pos = Position::from_fen(fen).expect("valid FEN");
            let (a, b) = (
                super::super::Accumulator::new(&wide, &pos),
                super::super::Accumulator::new(&back, &pos),
            );
            let stm = pos.side_to_move();
            let pieces = pos.occupied().count();
            assert_eq!(
                wide.evaluate(&a, stm, pieces),
                back.evaluate(&b, stm, pieces),
                "{fen}"
            );
        }
    }

    #[test]
    fn buckets_follow_the_piece_count() {
        let eight: Vec<usize> = (2..=32).map(|p| output_bucket(p, 8)).collect();
        assert_eq!(&eight[..5], &[0, 0, 0, 0, 1]);
        assert_eq!(eight[30], 7);
        assert!(eight.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        assert!((0..=40).all(|p| output_bucket(p, 1) == 0));
        assert_eq!(output_bucket(32, 2), 1);
        assert_eq!(output_bucket(17, 2), 0);
        assert_eq!(output_bucket(32, 4), 3);
    }

    /// Each bucket's weights are the ones used for positions with its piece count.
    #[test]
    fn a_position_is_evaluated_with_its_bucket() {
        use crate::board::Position;
        let net = bucketed(8);
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").expect("valid FEN");
        let acc = super::super::Accumulator::new(&net, &pos);
        let stm = pos.side_to_move();
        let mut only = Network::zeroed_with(8).expect("8 buckets");
        only.ft_weights = net.ft_weights;
        only.ft_bias = net.ft_bias;
        only.out_weights[0] = net.out_weights[0];
        only.out_bias[0] = net.out_bias[0];
        assert_eq!(net.evaluate(&acc, stm, 3), only.evaluate(&acc, stm, 3));
        assert_ne!(net.evaluate(&acc, stm, 3), net.evaluate(&acc, stm, 32));
        only.out_weights[0] = net.out_weights[7];
        only.out_bias[0] = net.out_bias[7];
        assert_eq!(net.evaluate(&acc, stm, 32), only.evaluate(&acc, stm, 3));
    }

    /// A network whose buckets all hold the one-bucket network's output layer (how the
    /// trainer's `--init` starts them) evaluates every position exactly as that network.
    #[test]
    fn copied_buckets_evaluate_as_one() {
        use crate::board::Position;
        // A one-bucket network: the built-in first layer and its first output bucket.
        let built_in = Network::from_bytes(DEFAULT).expect("nets/default.nnue reads");
        let mut one = Network::zeroed_with(1).expect("1 bucket");
        one.ft_weights = built_in.ft_weights;
        one.ft_bias = built_in.ft_bias;
        one.out_weights[0] = built_in.out_weights[0];
        one.out_bias[0] = built_in.out_bias[0];
        let mut eight = Network::zeroed_with(8).expect("8 buckets");
        eight.ft_weights = one.ft_weights;
        eight.ft_bias = one.ft_bias;
        eight.out_weights = [one.out_weights[0]; MAX_BUCKETS];
        eight.out_bias = [one.out_bias[0]; MAX_BUCKETS];
        for fen in [
            crate::board::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R b KQ - 0 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).expect("valid FEN");
            let acc = super::super::Accumulator::new(&one, &pos);
            let (stm, pieces) = (pos.side_to_move(), pos.occupied().count());
            assert_eq!(
                eight.evaluate(&acc, stm, pieces),
                one.evaluate(&acc, stm, pieces),
                "{fen}"
            );
        }
    }

    /// Every SIMD path the CPU has gives the plain code's output, to the centipawn, on
    /// accumulators beyond both ends of the activation's clip and the extreme weights.
    #[test]
    fn each_simd_output_equals_the_plain_one() {
        let mut net = Network::from_bytes(DEFAULT).expect("nets/default.nnue reads");
        let mut rng = crate::rng::Rng::new(35);
        let mut acc = super::super::Accumulator {
            values: [[0; HIDDEN]; 2],
        };
        // The largest output weights the trainer writes (`|w| < 2 QB`), in the last bucket.
        for (i, w) in net.out_weights[7].iter_mut().flatten().enumerate() {
            *w = if i % 2 == 0 { 127 } else { -127 };
        }
        for round in 0..200 {
            for v in acc.values.iter_mut().flatten() {
                *v = match round {
                    0 => QA as i16,
                    1 => i16::MAX,
                    _ => rng.below(1200) as i16 - 400,
                };
            }
            for bucket in 0..MAX_BUCKETS {
                for stm in Color::ALL {
                    let plain = net.output(&acc, stm, bucket);
                    #[cfg(target_arch = "x86_64")]
                    {
                        if has_avx2() {
                            // SAFETY: the CPU supports AVX2.
                            let avx2 = unsafe { net.output_avx2(&acc, stm, bucket) };
                            assert_eq!(avx2, plain, "AVX2, round {round}, bucket {bucket}");
                        }
                        if has_avx512() {
                            // SAFETY: the CPU supports AVX-512 F and BW.
                            let avx512 = unsafe { net.output_avx512(&acc, stm, bucket) };
                            assert_eq!(avx512, plain, "AVX-512, round {round}, bucket {bucket}");
                        }
                    }
                }
            }
        }
    }
}
