//! Checkpoints (the float net and the optimiser, to resume a run) and the net file written
//! after every epoch.

use super::model::FloatNet;
use super::optim::Adam;
use super::TrainError;
use crate::eval::nnue::{shape_problem, Network, INPUTS};
use std::io::Write;

/// Checkpoint magic.
pub(super) const CKPT_MAGIC: &[u8; 8] = b"FIANCKP3";
/// The magic of the checkpoint format before king mirroring (no flag: plain inputs), still read.
pub(super) const CKPT2_MAGIC: &[u8; 8] = b"FIANCKP2";
/// The magic of the checkpoint format before output buckets (no bucket field), refused by name.
pub(super) const OLD_CKPT_MAGIC: &[u8; 8] = b"FIANCKPT";
/// Magic, then hidden, buckets, epochs done, optimiser steps, seed and king mirroring (0 or 1)
/// as u64 (the `CKPT2_MAGIC` format lacks the last).
pub(super) const CKPT_HEADER: usize = 8 + 6 * 8;

pub(super) fn write_floats(out: &mut Vec<u8>, xs: &[f32]) {
    for x in xs {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

pub(super) fn save_checkpoint(
    path: &str,
    net: &FloatNet,
    adam: &Adam,
    epoch: usize,
    seed: u64,
) -> Result<(), TrainError> {
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
    std::fs::write(&tmp, &b).map_err(|e| write_error(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| write_error(path, e))
}

/// Loads a checkpoint: the net, the optimiser, the epochs done and the run's seed.
pub(super) fn load_checkpoint(path: &str) -> Result<(FloatNet, Adam, usize, u64), TrainError> {
    let b = crate::files::read_bounded(std::path::Path::new(path), u64::MAX, "checkpoint")?;
    let bad = |what: String| TrainError::Checkpoint {
        path: path.to_string(),
        what,
    };
    if b.len() >= 8 && &b[..8] == OLD_CKPT_MAGIC {
        return Err(bad(
            "a checkpoint from a build before output buckets; start the run again".to_string(),
        ));
    }
    let header = match b.get(..8) {
        Some(m) if m == CKPT_MAGIC => CKPT_HEADER,
        Some(m) if m == CKPT2_MAGIC => CKPT_HEADER - 8,
        _ => return Err(bad("not a training checkpoint".to_string())),
    };
    if b.len() < header {
        return Err(bad("not a training checkpoint".to_string()));
    }
    let u = |i: usize| u64::from_le_bytes(b[8 + 8 * i..16 + 8 * i].try_into().unwrap_or([0; 8]));
    let (hidden, buckets, epoch, step, seed) =
        (u(0) as usize, u(1) as usize, u(2) as usize, u(3), u(4));
    let king_mirror = header == CKPT_HEADER && u(5) == 1;
    if let Some(why) = shape_problem(hidden, buckets) {
        return Err(bad(why));
    }
    let per = INPUTS * hidden + hidden + 2 * hidden * buckets + buckets;
    if b.len() != header + 3 * 4 * per {
        return Err(bad(format!(
            "{} bytes, a hidden-{hidden} {buckets}-bucket checkpoint has {}",
            b.len(),
            header + 12 * per
        )));
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

/// Writes a net file (via a temporary file, so a kill never leaves half a net).
pub fn write_net(path: &str, net: &Network) -> Result<(), TrainError> {
    let tmp = format!("{path}.tmp");
    let mut f = std::fs::File::create(&tmp).map_err(|e| write_error(&tmp, e))?;
    f.write_all(&net.to_bytes())
        .and_then(|()| f.sync_all())
        .map_err(|e| write_error(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| write_error(path, e))
}

fn write_error(path: &str, source: std::io::Error) -> TrainError {
    TrainError::Write {
        path: path.to_string(),
        source,
    }
}
