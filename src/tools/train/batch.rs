//! Forward and backward passes over a batch, split over threads: the gradient and the loss.

use super::model::FloatNet;
use super::packed::{sigmoid, Packed};
use crate::eval::nnue::output_bucket;

/// Per-thread scratch: gradients and activations.
pub(super) struct Scratch {
    /// The gradient summed over this thread's share of the batch.
    pub(super) grad: FloatNet,
    acc_us: Vec<f32>,
    acc_them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
    loss: f64,
}

impl Scratch {
    pub(super) fn new(h: usize, buckets: usize) -> Scratch {
        Scratch {
            grad: FloatNet::zeros(h, buckets),
            acc_us: vec![0.0; h],
            acc_them: vec![0.0; h],
            d_us: vec![0.0; h],
            d_them: vec![0.0; h],
            loss: 0.0,
        }
    }
    pub(super) fn clear(&mut self) {
        for p in self.grad.params_mut() {
            p.fill(0.0);
        }
        self.grad.out_b.fill(0.0);
        self.loss = 0.0;
    }
}

/// Adds the gradient of the loss over `batch` to `s.grad` (or only the loss, if not `learn`).
pub(super) fn run_batch(net: &FloatNet, batch: &[Packed], wdl: f32, s: &mut Scratch, learn: bool) {
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

/// Splits `batch` over `scratch.len()` threads and sums their gradients into `scratch[0]`.
pub(super) fn parallel_batch(
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
