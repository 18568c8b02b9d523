//! `train`: fits the (768 → H) × 2 → 1 SCReLU network (with B output buckets chosen by the
//! piece count) to self-play data on the CPU.
//!
//! Target `λ·result + (1−λ)·σ(score/400)`, loss `(σ(output) − target)²` (the output times 400
//! is centipawns), AdamW with a cosine learning-rate decay to 1 % of the start, weights clipped
//! to ±1.98 so that the quantised net cannot overflow (see `eval::nnue`). Batches are split over
//! threads, each with its own gradient, summed in thread order, so a run is reproducible for the
//! same data, flags and thread count.

use super::data::{read_samples, Sample};
use super::datagen::SplitMix;
use crate::chess::{Board, Color, Square};
use crate::eval::nnue::{king_mirrors, output_bucket, shape_problem, Network, INPUTS, QA, QB};
use std::io::Write;
use std::time::Instant;

/// Weights are kept within ±this, so that 255·w fits the quantised output layer's 16-bit
/// products (|w·QB| ≤ 127) and 32 feature weights plus a bias cannot overflow an i16 accumulator.
pub const WEIGHT_CLIP: f32 = 1.98;

/// What a training run does.
#[derive(Clone, Debug)]
pub struct TrainArgs {
    /// Data files (binary games, text or gzipped text).
    pub data: Vec<String>,
    /// Where the quantised net goes (and `<out>.ckpt`, the checkpoint).
    pub out: String,
    /// Hidden layer size.
    pub hidden: usize,
    /// Output buckets by piece count (1: one output layer).
    pub buckets: usize,
    /// Passes over the training set.
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Starting learning rate.
    pub lr: f32,
    /// λ: the weight of the game result in the target (the rest is the search score).
    pub wdl: f32,
    /// Threads that split each batch.
    pub threads: usize,
    /// Seed for initialisation, the validation split and shuffling.
    pub seed: u64,
    /// A checkpoint to continue from.
    pub resume: Option<String>,
    /// Skip malformed data instead of failing.
    pub skip_bad: bool,
    /// Show a progress bar.
    pub progress: bool,
    /// Fraction of the data held out for validation.
    pub validation: f64,
    /// End this call after this many epochs (as an interruption would); `None`: run them all.
    pub stop_after: Option<usize>,
    /// Add every training position mirrored left to right.
    pub mirror: bool,
    /// King-mirrored inputs: each side's view is mirrored left to right while its king is on
    /// the e–h files (see `eval::nnue`).
    pub king_mirror: bool,
}

/// A training position packed into 32 bytes: occupancy, one nibble a piece, side, score, result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packed {
    occ: u64,
    pieces: [u8; 16],
    stm: Color,
    /// Search score, side to move's view.
    score: i16,
    /// Result from the side to move's view: 0 loss, 1 draw, 2 win.
    result: u8,
}

impl Packed {
    /// Packs a sample.
    pub fn new(s: &Sample) -> Packed {
        let b = &s.board;
        let mut pieces = [0u8; 16];
        let mut occ = 0u64;
        for (i, sq) in b.occupied().into_iter().take(32).enumerate() {
            // An occupied square holds a piece.
            let p = b.piece_at(sq).map_or(0, |p| p.index() as u8);
            pieces[i / 2] |= p << (4 * (i % 2));
            occ |= 1 << sq.index();
        }
        let stm = b.side_to_move();
        let (score, result) = match stm {
            Color::White => (s.score, s.result.for_side(Color::White)),
            Color::Black => (s.score.saturating_neg(), s.result.for_side(Color::Black)),
        };
        Packed {
            occ,
            pieces,
            stm,
            score,
            result: (result * 2.0).round() as u8,
        }
    }

    /// The active features from the side to move's view and the other side's, king-mirrored
    /// if `king_mirror`; returns how many.
    #[inline]
    pub fn features(&self, us: &mut [u16; 32], them: &mut [u16; 32], king_mirror: bool) -> usize {
        // One pass with unmirrored squares that also finds the kings; a view to be mirrored then
        // has its features xored with 7 (a feature is a multiple of 64 plus the square, so this
        // mirrors the square's file alone).
        let (mut white_king, mut black_king) = (None, None);
        let mut occ = self.occ;
        let mut n = 0;
        while occ != 0 && n < 32 {
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let p = (self.pieces[n / 2] >> (4 * (n % 2))) & 15;
            match p {
                5 => white_king = Some(sq),
                11 => black_king = Some(sq),
                _ => {}
            }
            let (color, kind) = ((p / 6) as usize, (p % 6) as usize);
            let white = color * 384 + kind * 64 + sq;
            let black = (1 - color) * 384 + kind * 64 + (sq ^ 56);
            let (u, t) = match self.stm {
                Color::White => (white, black),
                Color::Black => (black, white),
            };
            us[n] = u as u16;
            them[n] = t as u16;
            n += 1;
        }
        if king_mirror {
            debug_assert!(
                white_king.is_some() && black_king.is_some(),
                "a packed position comes from a legal board, which has both kings"
            );
            let mirrors = |k: Option<usize>| {
                k.and_then(|k| Square::new(k as u8))
                    .is_some_and(king_mirrors)
            };
            let (w, b) = (mirrors(white_king), mirrors(black_king));
            let (flip_us, flip_them) = match self.stm {
                Color::White => (w, b),
                Color::Black => (b, w),
            };
            for (views, flip) in [(&mut us[..n], flip_us), (&mut them[..n], flip_them)] {
                if flip {
                    views.iter_mut().for_each(|f| *f ^= 7);
                }
            }
        }
        n
    }

    /// The same position mirrored left to right (a↔h). The network does not see castling
    /// rights, so to it this is an equally valid sample: a free doubling of the data.
    pub fn mirrored(&self) -> Packed {
        let mut list = [(0u8, 0u8); 32];
        let mut n = 0;
        let mut occ = self.occ;
        while occ != 0 && n < 32 {
            let sq = occ.trailing_zeros() as u8;
            occ &= occ - 1;
            list[n] = (sq ^ 7, (self.pieces[n / 2] >> (4 * (n % 2))) & 15);
            n += 1;
        }
        list[..n].sort_unstable();
        let mut out = Packed {
            occ: 0,
            pieces: [0; 16],
            ..*self
        };
        for (i, &(sq, p)) in list[..n].iter().enumerate() {
            out.occ |= 1 << sq;
            out.pieces[i / 2] |= p << (4 * (i % 2));
        }
        out
    }

    /// The number of pieces on the board, kings included.
    #[inline]
    pub fn pieces(&self) -> u32 {
        self.occ.count_ones()
    }

    /// The training target for weight `wdl` on the result.
    #[inline]
    pub fn target(&self, wdl: f32) -> f32 {
        wdl * (self.result as f32 / 2.0) + (1.0 - wdl) * sigmoid(self.score as f32 / 400.0)
    }
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

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

    fn zeros(hidden: usize, buckets: usize) -> FloatNet {
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
    fn head(&self, k: usize) -> (&[f32], f32) {
        let h2 = 2 * self.hidden;
        (&self.out_w[k * h2..(k + 1) * h2], self.out_b[k])
    }

    fn accumulate(&self, feats: &[u16], acc: &mut [f32]) {
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
            result: super::data::WhiteResult::Draw,
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
    fn params_mut(&mut self) -> [&mut [f32]; 3] {
        [&mut self.ft_w, &mut self.ft_b, &mut self.out_w]
    }
}

/// Per-thread scratch: gradients and activations.
struct Scratch {
    grad: FloatNet,
    acc_us: Vec<f32>,
    acc_them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
    loss: f64,
}

impl Scratch {
    fn new(h: usize, buckets: usize) -> Scratch {
        Scratch {
            grad: FloatNet::zeros(h, buckets),
            acc_us: vec![0.0; h],
            acc_them: vec![0.0; h],
            d_us: vec![0.0; h],
            d_them: vec![0.0; h],
            loss: 0.0,
        }
    }
    fn clear(&mut self) {
        for p in self.grad.params_mut() {
            p.fill(0.0);
        }
        self.grad.out_b.fill(0.0);
        self.loss = 0.0;
    }
}

/// Adds the gradient of the loss over `batch` to `s.grad` (or only the loss, if not `learn`).
fn run_batch(net: &FloatNet, batch: &[Packed], wdl: f32, s: &mut Scratch, learn: bool) {
    let h = net.hidden;
    let (mut us, mut them) = ([0u16; 32], [0u16; 32]);
    for p in batch {
        let n = p.features(&mut us, &mut them, net.king_mirror);
        net.accumulate(&us[..n], &mut s.acc_us);
        net.accumulate(&them[..n], &mut s.acc_them);
        let k = output_bucket(p.pieces(), net.buckets);
        let (ow, bias) = net.head(k);
        let mut out = bias;
        for j in 0..h {
            let a = s.acc_us[j].clamp(0.0, 1.0);
            let b = s.acc_them[j].clamp(0.0, 1.0);
            out += a * a * ow[j] + b * b * ow[h + j];
        }
        let pred = sigmoid(out);
        let err = pred - p.target(wdl);
        s.loss += f64::from(err * err);
        if !learn {
            continue;
        }
        let g = 2.0 * err * pred * (1.0 - pred);
        s.grad.out_b[k] += g;
        let (gw_us, gw_them) = s.grad.out_w[2 * h * k..2 * h * (k + 1)].split_at_mut(h);
        for j in 0..h {
            let (x, y) = (s.acc_us[j], s.acc_them[j]);
            let (a, b) = (x.clamp(0.0, 1.0), y.clamp(0.0, 1.0));
            gw_us[j] += g * a * a;
            gw_them[j] += g * b * b;
            // d(clamp(x)²)/dx = 2x inside (0, 1), else 0.
            s.d_us[j] = if x > 0.0 && x < 1.0 {
                g * ow[j] * 2.0 * x
            } else {
                0.0
            };
            s.d_them[j] = if y > 0.0 && y < 1.0 {
                g * ow[h + j] * 2.0 * y
            } else {
                0.0
            };
            s.grad.ft_b[j] += s.d_us[j] + s.d_them[j];
        }
        for (feats, d) in [(&us[..n], &s.d_us), (&them[..n], &s.d_them)] {
            for &f in feats {
                let row = &mut s.grad.ft_w[f as usize * h..(f as usize + 1) * h];
                for (r, &x) in row.iter_mut().zip(d.iter()) {
                    *r += x;
                }
            }
        }
    }
}

/// AdamW state: first and second moments of every parameter.
struct Adam {
    m: FloatNet,
    v: FloatNet,
    step: u64,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPS: f32 = 1e-8;
/// Decoupled weight decay (AdamW's usual 0.01).
const DECAY: f32 = 0.01;

impl Adam {
    fn new(h: usize, buckets: usize) -> Adam {
        Adam {
            m: FloatNet::zeros(h, buckets),
            v: FloatNet::zeros(h, buckets),
            step: 0,
        }
    }

    fn update(&mut self, net: &mut FloatNet, grad: &FloatNet, lr: f32, scale: f32) {
        self.step += 1;
        let t = self.step as i32;
        let c1 = 1.0 - BETA1.powi(t);
        let c2 = 1.0 - BETA2.powi(t);
        let step = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
            let g = g * scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let upd = (*m / c1) / ((*v / c2).sqrt() + EPS);
            *w -= lr * (upd + DECAY * *w);
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        };
        let grads = [&grad.ft_w[..], &grad.ft_b[..], &grad.out_w[..]];
        let [pm, pb, po] = self.m.params_mut();
        let ms = [pm, pb, po];
        let [vm, vb, vo] = self.v.params_mut();
        let vs = [vm, vb, vo];
        for (((w, g), m), v) in net.params_mut().into_iter().zip(grads).zip(ms).zip(vs) {
            for i in 0..w.len() {
                step(&mut w[i], g[i], &mut m[i], &mut v[i]);
            }
        }
        // The output biases are not decayed or clipped: they are plain offsets.
        for k in 0..net.out_b.len() {
            let g = grad.out_b[k] * scale;
            let (m, v) = (&mut self.m.out_b[k], &mut self.v.out_b[k]);
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            net.out_b[k] -= lr * (*m / c1) / ((*v / c2).sqrt() + EPS);
        }
    }
}

/// Splits `batch` over `scratch.len()` threads and sums their gradients into `scratch[0]`.
fn parallel_batch(
    net: &FloatNet,
    batch: &[Packed],
    wdl: f32,
    scratch: &mut [Scratch],
    learn: bool,
) -> f64 {
    let threads = scratch.len();
    let chunk = batch.len().div_ceil(threads).max(1);
    std::thread::scope(|sc| {
        for (s, part) in scratch.iter_mut().zip(batch.chunks(chunk)) {
            sc.spawn(move || {
                s.clear();
                run_batch(net, part, wdl, s, learn);
            });
        }
    });
    let used = batch.len().div_ceil(chunk);
    for s in scratch.iter_mut().skip(used) {
        s.clear();
    }
    let (first, rest) = scratch.split_at_mut(1);
    let total = &mut first[0];
    for s in rest.iter() {
        total.loss += s.loss;
        if learn {
            for (a, &b) in total.grad.out_b.iter_mut().zip(&s.grad.out_b) {
                *a += b;
            }
            for (t, x) in total.grad.params_mut().into_iter().zip([
                &s.grad.ft_w[..],
                &s.grad.ft_b[..],
                &s.grad.out_w[..],
            ]) {
                for (a, &b) in t.iter_mut().zip(x) {
                    *a += b;
                }
            }
        }
    }
    total.loss
}

/// The mean loss of `net` over `data`.
pub fn loss(net: &FloatNet, data: &[Packed], wdl: f32, threads: usize) -> f64 {
    let mut scratch: Vec<Scratch> = (0..threads.max(1))
        .map(|_| Scratch::new(net.hidden, net.buckets))
        .collect();
    let mut total = 0.0;
    for b in data.chunks(65536) {
        total += parallel_batch(net, b, wdl, &mut scratch, false);
    }
    total / data.len().max(1) as f64
}

/// Checkpoint magic.
const CKPT_MAGIC: &[u8; 8] = b"FIANCKP3";
/// The magic of the checkpoint format before king mirroring (no flag: plain inputs), still read.
const CKPT2_MAGIC: &[u8; 8] = b"FIANCKP2";
/// The magic of the checkpoint format before output buckets (no bucket field), refused by name.
const OLD_CKPT_MAGIC: &[u8; 8] = b"FIANCKPT";
/// Magic, then hidden, buckets, epochs done, optimiser steps, seed and king mirroring (0 or 1)
/// as u64 (the `CKPT2_MAGIC` format lacks the last).
const CKPT_HEADER: usize = 8 + 6 * 8;

fn write_floats(out: &mut Vec<u8>, xs: &[f32]) {
    for x in xs {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

fn save_checkpoint(
    path: &str,
    net: &FloatNet,
    adam: &Adam,
    epoch: usize,
    seed: u64,
) -> Result<(), String> {
    let mut b = Vec::new();
    b.extend_from_slice(CKPT_MAGIC);
    for v in [
        net.hidden as u64,
        net.buckets as u64,
        epoch as u64,
        adam.step,
        seed,
        u64::from(net.king_mirror),
    ] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for n in [net, &adam.m, &adam.v] {
        write_floats(&mut b, &n.ft_w);
        write_floats(&mut b, &n.ft_b);
        write_floats(&mut b, &n.out_w);
        write_floats(&mut b, &n.out_b);
    }
    // Write then rename, so that a kill mid-write leaves the previous checkpoint whole.
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, &b).map_err(|e| format!("{tmp}: {e}"))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{path}: {e}"))
}

/// Loads a checkpoint: the net, the optimiser, the epochs done and the run's seed.
fn load_checkpoint(path: &str) -> Result<(FloatNet, Adam, usize, u64), String> {
    let b = crate::files::read_bounded(std::path::Path::new(path), u64::MAX, "checkpoint")
        .map_err(|e| e.to_string())?;
    if b.len() >= 8 && &b[..8] == OLD_CKPT_MAGIC {
        return Err(format!(
            "{path}: a checkpoint from a build before output buckets; start the run again"
        ));
    }
    let header = match b.get(..8) {
        Some(m) if m == CKPT_MAGIC => CKPT_HEADER,
        Some(m) if m == CKPT2_MAGIC => CKPT_HEADER - 8,
        _ => return Err(format!("{path}: not a training checkpoint")),
    };
    if b.len() < header {
        return Err(format!("{path}: not a training checkpoint"));
    }
    let u = |i: usize| u64::from_le_bytes(b[8 + 8 * i..16 + 8 * i].try_into().unwrap_or([0; 8]));
    let (hidden, buckets, epoch, step, seed) =
        (u(0) as usize, u(1) as usize, u(2) as usize, u(3), u(4));
    let king_mirror = header == CKPT_HEADER && u(5) == 1;
    if let Some(why) = shape_problem(hidden, buckets) {
        return Err(format!("{path}: {why}"));
    }
    let per = INPUTS * hidden + hidden + 2 * hidden * buckets + buckets;
    if b.len() != header + 3 * 4 * per {
        return Err(format!(
            "{path}: {} bytes, a hidden-{hidden} {buckets}-bucket checkpoint has {}",
            b.len(),
            header + 12 * per
        ));
    }
    let mut at = header;
    let mut take = |n: usize| {
        let v: Vec<f32> = b[at..at + 4 * n]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        at += 4 * n;
        v
    };
    let mut nets = Vec::new();
    for _ in 0..3 {
        let ft_w = take(INPUTS * hidden);
        let ft_b = take(hidden);
        let out_w = take(2 * hidden * buckets);
        let out_b = take(buckets);
        nets.push(FloatNet {
            hidden,
            buckets,
            king_mirror,
            ft_w,
            ft_b,
            out_w,
            out_b,
        });
    }
    let v = nets
        .pop()
        .unwrap_or_else(|| FloatNet::zeros(hidden, buckets));
    let m = nets
        .pop()
        .unwrap_or_else(|| FloatNet::zeros(hidden, buckets));
    let net = nets
        .pop()
        .unwrap_or_else(|| FloatNet::zeros(hidden, buckets));
    Ok((net, Adam { m, v, step }, epoch, seed))
}

/// Reads and packs every position of the data files.
pub fn load_data(
    files: &[String],
    skip_bad: bool,
    out: &mut dyn FnMut(&str),
) -> Result<Vec<Packed>, String> {
    let mut all = Vec::new();
    for f in files {
        let before = all.len();
        let counts = read_samples(f, skip_bad, &mut |s| all.push(Packed::new(&s)))
            .map_err(|e| e.to_string())?;
        out(&format!(
            "{f}: {} positions{}",
            all.len() - before,
            if counts.skipped > 0 {
                format!(" ({} bad skipped)", counts.skipped)
            } else {
                String::new()
            }
        ));
    }
    Ok(all)
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct TrainSummary {
    /// The trained net (floating point).
    pub net: FloatNet,
    /// Validation loss after each epoch run by this call.
    pub validation: Vec<f64>,
    /// Training positions per second (all threads).
    pub positions_per_s: f64,
}

/// Trains on `data` (already loaded); writes the net and checkpoint after every epoch.
pub fn train(
    args: &TrainArgs,
    mut data: Vec<Packed>,
    out: &mut dyn FnMut(&str),
) -> Result<TrainSummary, String> {
    if let Some(why) = shape_problem(args.hidden, args.buckets) {
        return Err(format!(
            "--hidden {} --buckets {}: {why}",
            args.hidden, args.buckets
        ));
    }
    if args.batch == 0 || args.epochs == 0 {
        return Err("--batch and --epochs must be at least 1".to_string());
    }
    if !(0.0..=1.0).contains(&args.wdl) {
        return Err(format!("--wdl {} is outside 0..1", args.wdl));
    }
    // Hold out a validation set chosen by the seed: shuffle once, take the tail.
    let mut rng = SplitMix::new(args.seed ^ 0x5EED_DA7A);
    shuffle(&mut data, &mut rng);
    let n_val = (data.len() as f64 * args.validation).floor() as usize;
    if n_val == 0 {
        return Err(format!(
            "{} positions give an empty validation split ({:.1} %): more data is needed",
            data.len(),
            args.validation * 100.0
        ));
    }
    let val = data.split_off(data.len() - n_val);
    if args.mirror {
        // After the split, so that no mirror image of a validation position is trained on.
        let mirrored: Vec<Packed> = data.iter().map(Packed::mirrored).collect();
        data.extend(mirrored);
    }
    if data.len() < args.batch {
        return Err(format!(
            "{} training positions are fewer than one batch of {}",
            data.len(),
            args.batch
        ));
    }
    let (mut net, mut adam, done) = match &args.resume {
        Some(path) => {
            let (net, adam, done, seed) = load_checkpoint(path)?;
            if net.hidden != args.hidden || net.buckets != args.buckets {
                return Err(format!(
                    "{path}: hidden size {} with {} buckets, but --hidden {} --buckets {}",
                    net.hidden, net.buckets, args.hidden, args.buckets
                ));
            }
            if net.king_mirror != args.king_mirror {
                return Err(format!(
                    "{path}: {} inputs, but --king-mirror {}",
                    if net.king_mirror {
                        "king-mirrored"
                    } else {
                        "plain"
                    },
                    if args.king_mirror {
                        "given"
                    } else {
                        "not given"
                    }
                ));
            }
            if seed != args.seed {
                return Err(format!(
                    "{path}: made with --seed {seed}, not {}",
                    args.seed
                ));
            }
            out(&format!("resuming from {path} after epoch {done}"));
            (net, adam, done)
        }
        None => (
            FloatNet {
                king_mirror: args.king_mirror,
                ..FloatNet::new(args.hidden, args.buckets, args.seed)
            },
            Adam::new(args.hidden, args.buckets),
            0,
        ),
    };
    let threads = args.threads.clamp(1, 256);
    let mut scratch: Vec<Scratch> = (0..threads)
        .map(|_| Scratch::new(args.hidden, args.buckets))
        .collect();
    let batches_per_epoch = data.len() / args.batch;
    let total_steps = (batches_per_epoch * args.epochs) as f64;
    out(&format!(
        "{} training positions, {} validation; hidden {}, {} output buckets, {} epochs of {} batches of {}, {} threads",
        data.len(),
        val.len(),
        args.hidden,
        args.buckets,
        args.epochs,
        batches_per_epoch,
        args.batch,
        threads
    ));
    let mut summary = TrainSummary {
        net: net.clone(),
        validation: Vec::new(),
        positions_per_s: 0.0,
    };
    let (mut seen, start) = (0u64, Instant::now());
    let ckpt = format!("{}.ckpt", args.out);
    let last = args
        .stop_after
        .map_or(args.epochs, |n| (done + n).min(args.epochs));
    for epoch in done..last {
        // Each epoch's order depends on the seed and the epoch alone, so a resumed run repeats it.
        let mut order = data.clone();
        shuffle(
            &mut order,
            &mut SplitMix::new(args.seed.wrapping_add(epoch as u64 + 1)),
        );
        let bar = if args.progress {
            let b = indicatif::ProgressBar::new(batches_per_epoch as u64);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "epoch {prefix} [{bar:30}] {pos}/{len} batches, {msg}, ETA {eta}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            b.set_prefix(format!("{}/{}", epoch + 1, args.epochs));
            b
        } else {
            indicatif::ProgressBar::hidden()
        };
        let epoch_start = Instant::now();
        let mut train_loss = 0.0;
        for (i, batch) in order.chunks_exact(args.batch).enumerate() {
            let step = (epoch * batches_per_epoch + i) as f64;
            let lr = args.lr
                * (0.01 + 0.99 * 0.5 * (1.0 + (std::f64::consts::PI * step / total_steps).cos()))
                    as f32;
            train_loss += parallel_batch(&net, batch, args.wdl, &mut scratch, true);
            adam.update(&mut net, &scratch[0].grad, lr, 1.0 / batch.len() as f32);
            seen += batch.len() as u64;
            if i % 16 == 0 {
                let rate = ((i + 1) * args.batch) as f64 / epoch_start.elapsed().as_secs_f64();
                bar.set_message(format!("{rate:.0} pos/s"));
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
        let train_loss = train_loss / (batches_per_epoch * args.batch) as f64;
        let val_loss = loss(&net, &val, args.wdl, threads);
        summary.validation.push(val_loss);
        let rate = (batches_per_epoch * args.batch) as f64 / epoch_start.elapsed().as_secs_f64();
        out(&format!(
            "epoch {:>3}/{}  train loss {train_loss:.6}  validation loss {val_loss:.6}  {rate:.0} pos/s ({:.0} per thread)",
            epoch + 1,
            args.epochs,
            rate / threads as f64
        ));
        save_checkpoint(&ckpt, &net, &adam, epoch + 1, args.seed)?;
        write_net(&args.out, &net.quantise())?;
    }
    summary.positions_per_s = seen as f64 / start.elapsed().as_secs_f64().max(1e-9);
    summary.net = net;
    Ok(summary)
}

/// Writes a net file (via a temporary file, so a kill never leaves half a net).
pub fn write_net(path: &str, net: &Network) -> Result<(), String> {
    let tmp = format!("{path}.tmp");
    let mut f = std::fs::File::create(&tmp).map_err(|e| format!("{tmp}: {e}"))?;
    f.write_all(&net.to_bytes())
        .and_then(|()| f.sync_all())
        .map_err(|e| format!("{tmp}: {e}"))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{path}: {e}"))
}

fn shuffle<T>(v: &mut [T], rng: &mut SplitMix) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::PieceKind;
    use crate::tools::data::WhiteResult;

    /// Random positions from random play, labelled by material alone (pawn 1, minor 3, rook 5,
    /// queen 9, in units of 100 cp, White's view).
    fn material_set(n: usize, seed: u64) -> Vec<Packed> {
        let mut rng = SplitMix::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut b = Board::startpos();
            for _ in 0..(20 + rng.below(100)) {
                let moves = b.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures, so that material varies.
                let caps: Vec<_> = moves.iter().filter(|m| m.is_capture()).copied().collect();
                let m = if !caps.is_empty() && rng.below(3) > 0 {
                    caps[rng.below(caps.len() as u64) as usize]
                } else {
                    moves.as_slice()[rng.below(moves.len() as u64) as usize]
                };
                b.play(m);
                let value = |c: Color| {
                    [1, 3, 3, 5, 9]
                        .iter()
                        .zip([
                            PieceKind::Pawn,
                            PieceKind::Knight,
                            PieceKind::Bishop,
                            PieceKind::Rook,
                            PieceKind::Queen,
                        ])
                        .map(|(v, k)| v * b.pieces_of(c, k).count() as i32)
                        .sum::<i32>()
                };
                let score = 100 * (value(Color::White) - value(Color::Black));
                out.push(Packed::new(&Sample {
                    board: b,
                    score: score as i16,
                    result: WhiteResult::Draw,
                }));
            }
        }
        out.truncate(n);
        out
    }

    fn args(hidden: usize, epochs: usize) -> TrainArgs {
        TrainArgs {
            data: Vec::new(),
            out: std::env::temp_dir()
                .join(format!("fian-train-{}-{hidden}.fnn", std::process::id()))
                .to_string_lossy()
                .to_string(),
            hidden,
            buckets: 1,
            epochs,
            batch: 256,
            lr: 0.01,
            wdl: 0.0,
            threads: 2,
            seed: 3,
            resume: None,
            skip_bad: false,
            progress: false,
            validation: 0.05,
            stop_after: None,
            mirror: false,
            king_mirror: false,
        }
    }

    #[test]
    fn mirroring_is_an_involution_that_mirrors_features() {
        for p in material_set(200, 8) {
            let m = p.mirrored();
            assert_eq!(m.mirrored(), p);
            let (mut a, mut b, mut c, mut d) = ([0u16; 32], [0u16; 32], [0u16; 32], [0u16; 32]);
            let n = p.features(&mut a, &mut b, false);
            assert_eq!(m.features(&mut c, &mut d, false), n);
            let mut want: Vec<u16> = a[..n].iter().map(|f| f ^ 7).collect();
            let mut got = c[..n].to_vec();
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want);
            // King-mirrored inputs cannot tell a position from its mirror image at all.
            let sorted = |x: &[u16]| {
                let mut v = x.to_vec();
                v.sort_unstable();
                v
            };
            p.features(&mut a, &mut b, true);
            m.features(&mut c, &mut d, true);
            assert_eq!(sorted(&a[..n]), sorted(&c[..n]));
            assert_eq!(sorted(&b[..n]), sorted(&d[..n]));
        }
    }

    #[test]
    fn a_tiny_net_learns_material_values() {
        let data = material_set(20_000, 1);
        let a = args(16, 12);
        let s = train(&a, data, &mut |_| {}).unwrap();
        assert!(
            s.validation.last() < s.validation.first(),
            "{:?}",
            s.validation
        );
        let q = s.net.quantise();
        // The start position without one of Black's pieces: the bigger the piece, the better
        // for White.
        let without = |fen: &str| q.evaluate(&Board::from_fen(fen).unwrap());
        let queen = without("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let rook = without("1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1");
        let knight = without("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let pawn = without("rnbqkbnr/pppp1ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(
            queen > rook && rook > knight && knight > pawn && pawn > 0,
            "Q {queen} R {rook} N {knight} P {pawn}"
        );
        let _ = std::fs::remove_file(&a.out);
        let _ = std::fs::remove_file(format!("{}.ckpt", a.out));
    }

    #[test]
    fn quantised_output_agrees_with_the_float_net() {
        // King-mirrored inputs too: the trainer's features and the engine's must agree.
        for (buckets, king_mirror) in [(1, false), (4, false), (4, true)] {
            quantised_agrees(buckets, king_mirror);
        }
    }

    fn quantised_agrees(buckets: usize, king_mirror: bool) {
        let data = material_set(4_000, 2);
        let mut a = args(32, 3);
        a.buckets = buckets;
        a.king_mirror = king_mirror;
        a.out = format!("{}-q{buckets}{king_mirror}.fnn", a.out);
        let net = train(&a, data, &mut |_| {}).unwrap().net;
        assert_eq!(net.out_b.len(), buckets);
        let q = net.quantise();
        assert_eq!(q.king_mirrored(), king_mirror);
        // The float net with every weight rounded to the quantisation grid (1/255 in the first
        // layer, 1/64 at the output): the integer pipeline must reproduce it up to its integer
        // divisions, 2 cp.
        let mut grid = net.clone();
        let round = |v: &mut Vec<f32>, s: f32| v.iter_mut().for_each(|w| *w = (*w * s).round() / s);
        round(&mut grid.ft_w, QA as f32);
        round(&mut grid.ft_b, QA as f32);
        round(&mut grid.out_w, QB as f32);
        round(&mut grid.out_b, (QA * QB) as f32);
        let (mut worst_grid, mut total, mut n) = (0.0f32, 0.0f32, 0);
        let mut rng = SplitMix::new(5);
        let mut b = Board::startpos();
        for _ in 0..400 {
            let moves = b.legal_moves();
            if moves.is_empty() {
                b = Board::startpos();
                continue;
            }
            b.play(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
            let i = q.evaluate(&b) as f32;
            worst_grid = worst_grid.max((grid.evaluate(&b) - i).abs());
            total += (net.evaluate(&b) - i).abs();
            n += 1;
        }
        assert!(worst_grid <= 2.0, "integer pipeline off by {worst_grid} cp");
        // Against the unrounded net, the output weights' 1/128 rounding error adds up over the
        // hidden layer: on average it stays within 12 cp for this 32-wide net.
        let mean = total / n as f32;
        assert!(mean <= 12.0, "mean quantisation error {mean} cp");
        let _ = std::fs::remove_file(&a.out);
        let _ = std::fs::remove_file(format!("{}.ckpt", a.out));
    }

    #[test]
    fn same_seed_same_net_and_resume_continues() {
        let data = material_set(3_000, 4);
        let mut a = args(8, 2);
        a.out = format!("{}-det.fnn", a.out);
        let n1 = train(&a, data.clone(), &mut |_| {}).unwrap().net;
        let n2 = train(&a, data.clone(), &mut |_| {}).unwrap().net;
        assert_eq!(n1, n2);
        // Interrupted after one epoch, then resumed: the same net as two epochs straight.
        let mut first = a.clone();
        first.stop_after = Some(1);
        let ckpt = format!("{}.ckpt", a.out);
        let half = train(&first, data.clone(), &mut |_| {}).unwrap().net;
        assert_ne!(half, n1);
        let mut resumed = a.clone();
        resumed.resume = Some(ckpt.clone());
        let n3 = train(&resumed, data.clone(), &mut |_| {}).unwrap().net;
        assert_eq!(n3, n1);
        // A checkpoint of another size or bucket count is refused.
        let mut other = resumed.clone();
        other.hidden = 16;
        assert!(train(&other, data.clone(), &mut |_| {}).is_err());
        let mut other = resumed.clone();
        other.buckets = 2;
        assert!(train(&other, data.clone(), &mut |_| {}).is_err());
        let mut other = resumed.clone();
        other.king_mirror = true;
        let e = train(&other, data.clone(), &mut |_| {}).unwrap_err();
        assert!(e.contains("--king-mirror"), "{e}");
        // A checkpoint of the format before king mirroring is read as plain inputs.
        let older = format!("{ckpt}.v2");
        let bytes = std::fs::read(&ckpt).unwrap();
        let mut v2 = CKPT2_MAGIC.to_vec();
        v2.extend_from_slice(&bytes[8..CKPT_HEADER - 8]);
        v2.extend_from_slice(&bytes[CKPT_HEADER..]);
        std::fs::write(&older, &v2).unwrap();
        let (net, _, epochs, _) = load_checkpoint(&older).unwrap();
        let (now, _, now_epochs, _) = load_checkpoint(&ckpt).unwrap();
        assert_eq!((net, epochs), (now, now_epochs));
        let _ = std::fs::remove_file(&older);
        // So is a checkpoint from before output buckets, with a message that says so.
        let old = format!("{ckpt}.old");
        let mut bytes = std::fs::read(&ckpt).unwrap();
        bytes[..8].copy_from_slice(OLD_CKPT_MAGIC);
        std::fs::write(&old, &bytes).unwrap();
        let mut before = resumed.clone();
        before.resume = Some(old.clone());
        let e = train(&before, data.clone(), &mut |_| {}).unwrap_err();
        assert!(e.contains("before output buckets"), "{e}");
        let _ = std::fs::remove_file(&old);
        let mut none = a.clone();
        none.buckets = 0;
        assert!(train(&none, data.clone(), &mut |_| {}).is_err());
        // Too little data, or an empty validation split, is an error.
        let mut big = a.clone();
        big.batch = 10_000;
        assert!(train(&big, data.clone(), &mut |_| {}).is_err());
        let mut noval = a.clone();
        noval.validation = 0.0;
        assert!(train(&noval, data, &mut |_| {}).is_err());
        let _ = std::fs::remove_file(&a.out);
        let _ = std::fs::remove_file(&ckpt);
    }
}
