//! The network's weights: their file format, loading, and the output layer.

use super::features::INPUTS;
use crate::board::Color;
use std::fmt;
use std::sync::OnceLock;

/// Neurons per side's view in the hidden layer.
pub const HIDDEN: usize = 256;
/// The first layer's quantisation: weights and biases in units of `1 / QA`; activations
/// are clipped to `[0, QA]`.
pub const QA: i32 = 255;
/// The output weights' quantisation: units of `1 / QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output: the trainer fits `sigmoid(output)` to
/// `sigmoid(score / SCALE)`.
pub const SCALE: i32 = 400;

/// The file's first bytes.
const MAGIC: &[u8; 4] = b"RKNN";
/// The network every build plays with.
const DEFAULT: &[u8] = include_bytes!("../../nets/default.nnue");

/// The weights, quantised.
#[repr(C, align(64))]
pub struct Network {
    /// The first layer: one row of `HIDDEN` per input.
    pub ft_weights: [[i16; HIDDEN]; INPUTS],
    /// The first layer's biases.
    pub ft_bias: [i16; HIDDEN],
    /// The output weights: the side to move's `HIDDEN` first, then the other side's.
    pub out_weights: [[i16; HIDDEN]; 2],
    /// The output bias, in units of `1 / (QA * QB)`.
    pub out_bias: i32,
}

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// It does not start with the magic bytes `RKNN`.
    NotANetwork,
    /// It was made for another hidden layer size.
    WrongShape(u32),
    /// Its length is not the one its shape needs.
    WrongLength(usize),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotANetwork => f.write_str("not a Rookling network (no RKNN header)"),
            Self::WrongShape(h) => write!(f, "a network of {h} hidden neurons, not {HIDDEN}"),
            Self::WrongLength(n) => write!(
                f,
                "a network file of {n} bytes, not {}",
                Network::FILE_BYTES
            ),
        }
    }
}

impl std::error::Error for NetworkError {}

impl Network {
    /// The size of a network file: header, then every weight little-endian in field order.
    pub const FILE_BYTES: usize = 8 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

    /// Reads a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Box<Self>, NetworkError> {
        if bytes.len() < 8 || &bytes[..4] != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        let hidden = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
        if hidden as usize != HIDDEN {
            return Err(NetworkError::WrongShape(hidden));
        }
        if bytes.len() != Self::FILE_BYTES {
            return Err(NetworkError::WrongLength(bytes.len()));
        }
        let mut words = bytes[8..]
            .chunks_exact(2)
            .map(|w| i16::from_le_bytes([w[0], w[1]]));
        let mut net = Self::zeroed();
        let mut fill = |row: &mut [i16]| {
            for w in row {
                *w = words.next().unwrap_or(0);
            }
        };
        for row in net.ft_weights.iter_mut() {
            fill(row);
        }
        fill(&mut net.ft_bias);
        for row in net.out_weights.iter_mut() {
            fill(row);
        }
        let tail = &bytes[Self::FILE_BYTES - 4..];
        net.out_bias = i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        Ok(net)
    }

    /// Writes the network in the format [`from_bytes`](Self::from_bytes) reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::FILE_BYTES);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let rows = self
            .ft_weights
            .iter()
            .chain(std::iter::once(&self.ft_bias))
            .chain(self.out_weights.iter());
        for row in rows {
            for w in row {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        out
    }

    /// A network of zeros, on the heap (it is too big for some threads' stacks).
    pub fn zeroed() -> Box<Self> {
        let layout = std::alloc::Layout::new::<Self>();
        // SAFETY: the layout is the non-zero-sized `Network`'s; every field is an integer
        // (array), for which all-zero bytes are a valid value, so the zeroed allocation is
        // a valid `Network` and `Box` may own it with the same layout.
        unsafe {
            let ptr = std::alloc::alloc_zeroed(layout).cast::<Self>();
            if ptr.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            Box::from_raw(ptr)
        }
    }

    /// The output for `stm` to move, in centipawns, from both views' accumulators.
    #[inline]
    pub fn evaluate(&self, acc: &super::Accumulator, stm: Color) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the CPU supports AVX2, the only feature `output_avx2` is compiled for.
            return unsafe { self.output_avx2(acc, stm) };
        }
        self.output(acc, stm)
    }

    /// [`output`](Self::output) compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn output_avx2(&self, acc: &super::Accumulator, stm: Color) -> i32 {
        self.output(acc, stm)
    }

    /// The output layer. Each view's dot fits an `i32` (see [`screlu_dot`]); their sum
    /// and the scaling need not, so they are done in `i64` and the result saturates.
    #[inline(always)]
    fn output(&self, acc: &super::Accumulator, stm: Color) -> i32 {
        let us = &acc.values[stm.index()];
        let them = &acc.values[stm.flip().index()];
        let sum = i64::from(screlu_dot(us, &self.out_weights[0]))
            + i64::from(screlu_dot(them, &self.out_weights[1]));
        let out = (sum / i64::from(QA) + i64::from(self.out_bias)) * i64::from(SCALE)
            / i64::from(QA * QB);
        out.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }
}

/// `sum(clamp(x, 0, QA)^2 * w)`: the squared clipped ReLU of a view, dotted with its
/// output weights. `clamp(x) * w` fits an `i16` (the trainer keeps `|w| < 2 QB`), so the
/// products vectorise as 16-bit multiplies widened once.
/// The sum fits an `i32`: each term is below `2^15 * QA` in size, and `HIDDEN` of them
/// stay below `2^31`.
#[inline(always)]
fn screlu_dot(values: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in values.iter().zip(weights) {
        let c = x.clamp(0, QA as i16);
        sum += i32::from(c.wrapping_mul(w)) * i32::from(c);
    }
    sum
}

/// Whether the CPU has AVX2 (asked once; the answer is cached by the standard library).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

const _: () = assert!((1 << 15) * QA as i64 * HIDDEN as i64 <= i32::MAX as i64);

/// The network the engine plays with (the one built in, read once).
pub fn network() -> &'static Network {
    static NET: OnceLock<Box<Network>> = OnceLock::new();
    NET.get_or_init(|| match Network::from_bytes(DEFAULT) {
        Ok(net) => net,
        // The built-in file is checked by a test; a broken one cannot play at all.
        Err(e) => panic!("the built-in network nets/default.nnue is broken: {e}"),
    })
}

/// A name for the built-in network: the FNV-1a hash of `nets/default.nnue`, 16 hex
/// digits (training data records which network played its games).
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

    #[test]
    fn broken_files_are_refused() {
        assert_eq!(
            Network::from_bytes(b"").err(),
            Some(NetworkError::NotANetwork)
        );
        let mut bytes = DEFAULT.to_vec();
        bytes.pop();
        assert_eq!(
            Network::from_bytes(&bytes).err(),
            Some(NetworkError::WrongLength(Network::FILE_BYTES - 1))
        );
        bytes = DEFAULT.to_vec();
        bytes[4] = 7;
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetworkError::WrongShape(_))
        ));
    }
}
