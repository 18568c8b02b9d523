//! The optimiser (AdamW, weights clipped to `WEIGHT_CLIP`) and the learning-rate schedule.

use super::model::{FloatNet, WEIGHT_CLIP};

/// AdamW state: first and second moments of every parameter.
pub(super) struct Adam {
    /// First moments (running mean of the gradient).
    pub(super) m: FloatNet,
    /// Second moments (running mean of its square).
    pub(super) v: FloatNet,
    /// Optimiser steps taken (for the bias correction).
    pub(super) step: u64,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPS: f32 = 1e-8;
/// Decoupled weight decay (AdamW's usual 0.01).
const DECAY: f32 = 0.01;

impl Adam {
    pub(super) fn new(h: usize, buckets: usize) -> Adam {
        Adam {
            m: FloatNet::zeros(h, buckets),
            v: FloatNet::zeros(h, buckets),
            step: 0,
        }
    }

    pub(super) fn update(&mut self, net: &mut FloatNet, grad: &FloatNet, lr: f32, scale: f32) {
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

/// The learning rate at `step` of `total_steps`: a cosine decay from `start` to 1 % of it.
pub(super) fn learning_rate(start: f32, step: f64, total_steps: f64) -> f32 {
    start * (0.01 + 0.99 * 0.5 * (1.0 + (std::f64::consts::PI * step / total_steps).cos())) as f32
}
