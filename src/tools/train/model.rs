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

    /// This net with its hidden layer widened to `hidden` neurons, computing the same function:
    /// the old neurons keep their weights, the new ones get random feature weights (from
    /// `seed`) and output weights of zero, so they start silent and training brings them in.
    /// How a wider net starts from a trained narrower one (net2net) instead of from scratch.
    pub fn widened(&self, hidden: usize, seed: u64) -> FloatNet {
        debug_assert!(hidden >= self.hidden, "widening never narrows");
        let (h0, h) = (self.hidden, hidden);
        let mut wide = FloatNet::new(h, self.buckets, seed);
        wide.king_mirror = self.king_mirror;
        for (new_row, old_row) in wide.ft_w.chunks_mut(h).zip(self.ft_w.chunks(h0)) {
            new_row[..h0].copy_from_slice(old_row);
        }
        wide.ft_b[..h0].copy_from_slice(&self.ft_b);
        wide.out_w.fill(0.0);
        for (new_head, old_head) in wide.out_w.chunks_mut(2 * h).zip(self.out_w.chunks(2 * h0)) {
            // Side to move's half, then the other side's.
            new_head[..h0].copy_from_slice(&old_head[..h0]);
            new_head[h..h + h0].copy_from_slice(&old_head[h0..]);
        }
        wide.out_b.copy_from_slice(&self.out_b);
        wide
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widening_keeps_the_function() {
        // A net with non-trivial weights everywhere: random, with random biases too.
        let mut narrow = FloatNet::new(16, 3, 7);
        narrow.king_mirror = true;
        for (i, b) in narrow.ft_b.iter_mut().enumerate() {
            *b = 0.01 * (i as f32 - 8.0);
        }
        narrow.out_b = vec![0.1, -0.2, 0.3];
        let wide = narrow.widened(48, 11);
        assert_eq!((wide.hidden, wide.buckets, wide.king_mirror), (48, 3, true));
        // The new neurons have feature weights (so they can learn) but no say yet.
        assert!(wide
            .ft_w
            .chunks(48)
            .any(|row| row[16..].iter().any(|&w| w != 0.0)));
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        ];
        for fen in fens {
            let board = Board::from_fen(fen).unwrap();
            // Exactly equal: the extra terms are all +0.0.
            assert_eq!(wide.evaluate(&board), narrow.evaluate(&board), "{fen}");
            assert_eq!(
                wide.quantise().evaluate(&board),
                narrow.quantise().evaluate(&board),
                "{fen}"
            );
        }
        // Widening to the same size is the same net.
        assert_eq!(narrow.widened(16, 11), narrow);
    }
}
