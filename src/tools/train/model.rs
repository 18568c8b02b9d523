//! The network in floating point as it is trained, and its quantisation for inference.

use super::packed::Packed;
use crate::chess::Board;
use crate::eval::nnue::{output_bucket, Network, INPUTS, QA, QB};
use crate::rand::SplitMix;
use crate::tools::data::Sample;

/// Weights are kept within ±this, so that 255·w fits the quantised output layer's 16-bit
/// products (|w·QB| ≤ 127) and 32 feature weights plus a bias cannot overflow an i16 accumulator.
pub const WEIGHT_CLIP: f32 = 1.98;

/// The network in floating point, as trained.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Hidden layer size.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// King-mirrored inputs.
    pub king_mirror: bool,
    /// Feature weights, `INPUTS` rows of `hidden`.
    pub ft_w: Vec<f32>,
    /// Feature biases.
    pub ft_b: Vec<f32>,
    /// Output weights, a row of `2 · hidden` per bucket (side to move, then other).
    pub out_w: Vec<f32>,
    /// Output biases, one per bucket.
    pub out_b: Vec<f32>,
}

impl FloatNet {
    /// A randomly initialised net: uniform in ±1/√fan-in.
    pub fn new(hidden: usize, buckets: usize, seed: u64) -> FloatNet {
        let mut rng = SplitMix::new(seed);
        let mut uniform = |scale: f32| {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * scale
        };
        let a = 1.0 / (INPUTS as f32).sqrt();
        let o = 1.0 / (2.0 * hidden as f32).sqrt();
        let ft_w = (0..INPUTS * hidden).map(|_| uniform(a)).collect();
        // One bucket's weights are drawn first, so a one-bucket net is what it was before buckets.
        let mut out_w: Vec<f32> = (0..2 * hidden).map(|_| uniform(o)).collect();
        out_w.extend((0..2 * hidden * (buckets - 1)).map(|_| uniform(o)));
        FloatNet {
            hidden,
            buckets,
            king_mirror: false,
            ft_w,
            ft_b: vec![0.0; hidden],
            out_w,
            out_b: vec![0.0; buckets],
        }
    }

    /// The float net that quantises to `net` (each weight divided by its quantisation
    /// factor), from which training can go on: a fine-tune of a net on new data.
    pub fn from_network(net: &Network) -> FloatNet {
        let (ft_w, ft_b, out_w, out_b) = net.layers();
        let deq = |v: &[i16], s: i32| v.iter().map(|&w| f32::from(w) / s as f32).collect();
        FloatNet {
            hidden: net.hidden(),
            buckets: net.buckets(),
            king_mirror: net.king_mirrored(),
            ft_w: deq(ft_w, QA),
            ft_b: deq(ft_b, QA),
            out_w: deq(out_w, QB),
            out_b: out_b.iter().map(|&b| b as f32 / (QA * QB) as f32).collect(),
        }
    }

    pub(super) fn zeros(hidden: usize, buckets: usize) -> FloatNet {
        FloatNet {
            hidden,
            buckets,
            king_mirror: false,
            ft_w: vec![0.0; INPUTS * hidden],
            ft_b: vec![0.0; hidden],
            out_w: vec![0.0; 2 * hidden * buckets],
            out_b: vec![0.0; buckets],
        }
    }

    /// The output weights (side to move, then other) and bias of bucket `k`.
    #[inline]
    pub(super) fn head(&self, k: usize) -> (&[f32], f32) {
        let h2 = 2 * self.hidden;
        (&self.out_w[k * h2..(k + 1) * h2], self.out_b[k])
    }

    pub(super) fn accumulate(&self, feats: &[u16], acc: &mut [f32]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.ft_b);
        for &f in feats {
            let row = &self.ft_w[f as usize * h..(f as usize + 1) * h];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The raw output (centipawns / 400) for the side to move, from output bucket `bucket`.
    pub fn forward(&self, us: &[u16], them: &[u16], bucket: usize) -> f32 {
        let h = self.hidden;
        let (w, bias) = self.head(bucket);
        let (mut a, mut b) = (vec![0.0; h], vec![0.0; h]);
        self.accumulate(us, &mut a);
        self.accumulate(them, &mut b);
        let screlu = |x: f32| {
            let c = x.clamp(0.0, 1.0);
            c * c
        };
        let mut out = bias;
        for j in 0..h {
            out += screlu(a[j]) * w[j] + screlu(b[j]) * w[h + j];
        }
        out
    }

    /// The evaluation of a board in centipawns, side to move's view (floating point).
    pub fn evaluate(&self, board: &Board) -> f32 {
        let p = Packed::new(&Sample {
            board: *board,
            score: 0,
            result: crate::tools::data::WhiteResult::Draw,
        });
        let (mut us, mut them) = ([0u16; 32], [0u16; 32]);
        let n = p.features(&mut us, &mut them, self.king_mirror);
        let bucket = output_bucket(p.pieces(), self.buckets);
        self.forward(&us[..n], &them[..n], bucket) * 400.0
    }

    /// The quantised network for inference.
    pub fn quantise(&self) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        let ft_w = self.ft_w.iter().map(|&w| q(w, QA)).collect();
        let ft_b = self.ft_b.iter().map(|&w| q(w, QA)).collect();
        let out_w = self.out_w.iter().map(|&w| q(w, QB)).collect();
        let out_b = self
            .out_b
            .iter()
            .map(|&b| (b * (QA * QB) as f32).round() as i32)
            .collect();
        // Sizes follow `hidden` and `buckets` (both checked before training) and clipping keeps
        // |out_w·QB| ≤ 127, so this cannot fail.
        Network::from_parts(self.hidden, self.buckets, ft_w, ft_b, out_w, out_b)
            .expect("a trained net quantises")
            .with_king_mirror(self.king_mirror)
    }

    /// The weights that AdamW decays and clips (the output biases are plain offsets).
    pub(super) fn params_mut(&mut self) -> [&mut [f32]; 3] {
        [&mut self.ft_w, &mut self.ft_b, &mut self.out_w]
    }
}
