//! The neural network evaluation (NNUE): (768 → H) × 2 → 1 with SCReLU, optionally with the
//! output layer chosen from B buckets by the number of pieces on the board.
//!
//! Inputs are the 768 (colour × kind × square) piece features seen from each side: from Black's
//! side the board is flipped vertically and the colours swapped, so one set of weights serves
//! both. A king-mirrored net (architecture 2) also flips each side's view left to right while
//! that side's king stands on the e–h files, so its king is always on a–d: a position and its
//! mirror image share every feature, and the weights need not learn each pattern twice (the
//! accumulator of a side whose king crosses between the d and e files is rebuilt). The side to
//! move's accumulator comes first in the output layer. Integer inference with the trainer's
//! quantisation: first layer ×`QA`, output weights ×`QB`. The net file is described in `file`.

pub mod accumulator;
pub mod features;
pub mod file;
pub mod simd;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use features::{feature, king_mirrors, output_bucket, INPUTS};
pub use file::{fnv1a, shape_problem, NetError};

use crate::chess::{Board, Square};
use file::check_shape;
use std::sync::{Arc, OnceLock};

/// First-layer quantisation: activations are clipped to `[0, QA]`.
pub const QA: i32 = 255;
/// Output-layer quantisation.
pub const QB: i32 = 64;
/// Output scale: the net's raw output times this is centipawns (the trainer's sigmoid(x/400)).
pub const SCALE: i32 = 400;
/// The largest hidden layer a file may declare (the kernels' i32 sums are proved safe up to it).
pub const MAX_HIDDEN: usize = 4096;
/// The most output buckets a file may declare (one per possible piece count and then some).
pub const MAX_BUCKETS: usize = 32;

/// A quantised network ready for inference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    buckets: usize,
    /// Whether each side's view is mirrored left to right while its king is on the e–h files.
    mirrored: bool,
    /// Feature weights, `INPUTS` rows of `hidden`.
    ft_weights: Vec<i16>,
    ft_bias: Vec<i16>,
    /// Output weights, one row of `2 · hidden` per bucket: side to move's half, then the other's.
    out_weights: Vec<i16>,
    /// Output biases, one per bucket.
    out_bias: Vec<i32>,
}

impl Network {
    /// A network from its parts (the trainer's quantised output). Lengths must match `hidden`
    /// and `buckets`.
    pub fn from_parts(
        hidden: usize,
        buckets: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
    ) -> Result<Network, NetError> {
        check_shape(hidden, buckets)?;
        if ft_weights.len() != INPUTS * hidden
            || ft_bias.len() != hidden
            || out_weights.len() != 2 * hidden * buckets
            || out_bias.len() != buckets
        {
            return Err(NetError::Header("layer sizes do not match".to_string()));
        }
        if out_weights.iter().any(|w| w.unsigned_abs() > 127) {
            // The SCReLU kernel computes v·w in 16 bits: |w| ≤ 127 keeps 255·w in range.
            return Err(NetError::Header("an output weight beyond ±127".to_string()));
        }
        Ok(Network {
            hidden,
            buckets,
            mirrored: false,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        })
    }

    /// The same weights read as a king-mirrored net (`true`) or a plain one.
    pub fn with_king_mirror(mut self, on: bool) -> Network {
        self.mirrored = on;
        self
    }

    /// Whether the net's inputs are king-mirrored.
    pub fn king_mirrored(&self) -> bool {
        self.mirrored
    }

    /// Whether a side's features are mirrored left to right while its king stands on `king`.
    #[inline]
    pub fn flips(&self, king: Square) -> bool {
        self.mirrored && king_mirrors(king)
    }

    /// The hidden layer's size.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The number of output buckets (1: a single output layer).
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The shape in words, as `info string` and `eval` show it: "768x128x2 network", plus
    /// king mirroring and the output buckets where the net has them.
    pub fn describe(&self) -> String {
        let mut s = format!("768x{}x2 network", self.hidden);
        if self.mirrored {
            s.push_str(", king-mirrored inputs");
        }
        if self.buckets > 1 {
            s.push_str(&format!(", {} output buckets", self.buckets));
        }
        s
    }

    /// The output bucket `board` uses.
    #[inline]
    pub fn bucket_of(&self, board: &Board) -> usize {
        output_bucket(board.occupied().count(), self.buckets)
    }

    /// The feature-weight row of feature `f`.
    #[inline]
    pub(crate) fn row(&self, f: usize) -> &[i16] {
        &self.ft_weights[f * self.hidden..(f + 1) * self.hidden]
    }

    /// The feature biases.
    pub(crate) fn bias(&self) -> &[i16] {
        &self.ft_bias
    }

    /// Every layer as stored: feature weights, feature biases, output weights, output biases
    /// (what `from_parts` takes), for the trainer to start from this net.
    pub(crate) fn layers(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (
            &self.ft_weights,
            &self.ft_bias,
            &self.out_weights,
            &self.out_bias,
        )
    }

    /// The output of bucket `bucket` from two accumulators, in centipawns from the side to
    /// move's view.
    #[inline]
    pub fn output(&self, stm: &[i16], other: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let qa = QA as i16;
        debug_assert!(bucket < self.buckets);
        let w = &self.out_weights[2 * h * bucket..2 * h * (bucket + 1)];
        let sum = simd::screlu_dot(stm, &w[..h], qa) + simd::screlu_dot(other, &w[h..], qa);
        let v = (sum / i64::from(QA) + i64::from(self.out_bias[bucket])) * i64::from(SCALE)
            / i64::from(QA * QB);
        // Bounded by the weights: far inside i32, and clamped below mate scores by the caller.
        v.clamp(-20_000, 20_000) as i32
    }

    /// Evaluates `board` from scratch (no incremental state): centipawns, side to move's view.
    pub fn evaluate(&self, board: &Board) -> i32 {
        let acc = Accumulator::refresh(self, board);
        let us = board.side_to_move();
        self.output(acc.side(us), acc.side(!us), self.bucket_of(board))
    }
}

/// The net compiled into the binary (`nets/default.fnn`; `nets/README.md` says how it was made).
static DEFAULT_NET_BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/default.fnn"));

/// The embedded default network, parsed once.
pub fn default_net() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        // The embedded file is `nets/default.fnn`, written by `train` and checked by a test that
        // parses it, so a bad one cannot pass CI; or a net `make EVALFILE=` loaded before
        // embedding it (build.rs, Makefile).
        Arc::new(Network::from_bytes(DEFAULT_NET_BYTES).expect("embedded net is valid"))
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::file::{read_u32, HEADER_V1};
    use super::*;
    use crate::chess::{Color, Piece};

    #[test]
    fn the_embedded_net_parses_and_round_trips() {
        let net = default_net();
        let bytes = net.to_bytes();
        assert_eq!(bytes, DEFAULT_NET_BYTES);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), *net);
    }

    #[test]
    fn corrupt_or_mismatched_files_are_refused() {
        let good = default_net().to_bytes();
        assert_eq!(Network::from_bytes(b"hello"), Err(NetError::Magic));
        let mut v = good.clone();
        v[8] = 9;
        assert_eq!(Network::from_bytes(&v), Err(NetError::Version(9)));
        let mut a = good.clone();
        a[12] = 7;
        assert_eq!(Network::from_bytes(&a), Err(NetError::Architecture(7)));
        assert!(matches!(
            Network::from_bytes(&good[..good.len() - 1]),
            Err(NetError::Size { .. })
        ));
        let mut h = good.clone();
        h[16] = h[16].wrapping_add(16);
        assert!(matches!(
            Network::from_bytes(&h),
            Err(NetError::Size { .. })
        ));
        let mut big = good.clone();
        big[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&big),
            Err(NetError::Header(_))
        ));
        let mut c = good.clone();
        let mid = c.len() / 2;
        c[mid] ^= 1;
        assert_eq!(Network::from_bytes(&c), Err(NetError::Checksum));
        let mut q = good;
        q[20] = 1;
        assert!(matches!(Network::from_bytes(&q), Err(NetError::Header(_))));
        assert!(matches!(
            Network::load("/nonexistent/net.fnn"),
            Err(NetError::Io(_))
        ));
    }

    /// A net whose output is its bucket's bias alone: bucket k answers k · 100 cp.
    fn bias_only_net(buckets: usize) -> Network {
        let h = 16;
        let bias = (0..buckets as i32).map(|k| k * QA * QB / 4).collect();
        Network::from_parts(
            h,
            buckets,
            vec![1; INPUTS * h],
            vec![0; h],
            vec![0; 2 * h * buckets],
            bias,
        )
        .unwrap()
    }

    #[test]
    fn output_buckets_follow_the_piece_count() {
        assert_eq!(output_bucket(32, 8), 7);
        assert_eq!(output_bucket(2, 8), 0);
        assert_eq!(output_bucket(6, 8), 1);
        assert_eq!(output_bucket(17, 8), 3);
        assert!((2..=32).all(|n| output_bucket(n, 1) == 0));
        assert!((2..32).all(|n| output_bucket(n, 8) <= output_bucket(n + 1, 8)));
        let net = bias_only_net(8);
        let start = Board::startpos();
        assert_eq!(net.evaluate(&start), 700);
        let rook_ending = Board::from_fen("8/8/4k3/8/8/8/R7/4K3 w - - 0 1").unwrap();
        assert_eq!(net.evaluate(&rook_ending), 0);
        // The incremental path picks the same bucket as a refresh, captures included.
        let mut stack = AccumulatorStack::new(Arc::new(net.clone()), 8);
        let mut b = Board::from_fen("4k3/8/8/3p4/4P3/8/PP6/4K3 w - - 0 1").unwrap();
        stack.reset(&b);
        assert_eq!(stack.evaluate(&b, 0), 100);
        let m = b.parse_uci("e4d5").unwrap();
        stack.push(1, &b, m);
        b.play(m);
        assert_eq!(stack.evaluate(&b, 1), 0);
    }

    #[test]
    fn bucketed_nets_round_trip_and_bad_shapes_are_refused() {
        let net = bias_only_net(8);
        let bytes = net.to_bytes();
        assert_eq!(read_u32(&bytes, 8), 2);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        // A one-bucket net keeps the version-1 layout that older builds read.
        let one = bias_only_net(1).to_bytes();
        assert_eq!(read_u32(&one, 8), 1);
        assert_eq!(one.len(), bytes.len() - 4 - 14 * 16 * 2 - 7 * 4);
        let with_buckets = |k: u32| {
            let mut b = bytes.clone();
            b[HEADER_V1..HEADER_V1 + 4].copy_from_slice(&k.to_le_bytes());
            Network::from_bytes(&b)
        };
        assert!(matches!(with_buckets(0), Err(NetError::Header(_))));
        assert!(matches!(with_buckets(33), Err(NetError::Header(_))));
        assert!(matches!(with_buckets(7), Err(NetError::Size { .. })));
        assert!(matches!(
            Network::from_bytes(&bytes[..HEADER_V1 + 2]),
            Err(NetError::Size { .. })
        ));
        assert!(Network::from_parts(
            16,
            2,
            vec![0; INPUTS * 16],
            vec![0; 16],
            vec![0; 32],
            vec![0; 2]
        )
        .is_err());
    }

    #[test]
    fn king_mirrored_nets_say_so_in_their_file() {
        let net = bias_only_net(1).with_king_mirror(true);
        let bytes = net.to_bytes();
        // Version 2 even with one bucket, architecture 2.
        assert_eq!((read_u32(&bytes, 8), read_u32(&bytes, 12)), (2, 2));
        let back = Network::from_bytes(&bytes).unwrap();
        assert!(back.king_mirrored());
        assert_eq!(back, net);
        assert!(net.describe().contains("king-mirrored"));
        assert!(!bias_only_net(8).describe().contains("king-mirrored"));
        // A version-1 header cannot claim the mirrored architecture.
        let mut v1 = bias_only_net(1).to_bytes();
        v1[12..16].copy_from_slice(&2u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&v1), Err(NetError::Architecture(2)));
        // Flipping is by the king's file: a–d plain, e–h mirrored.
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert!(!net.flips(sq("d1")) && net.flips(sq("e1")) && net.flips(sq("h8")));
        assert!(!bias_only_net(1).flips(sq("h8")));
    }

    #[test]
    fn features_mirror_between_views() {
        let p = Piece::new(Color::White, crate::chess::PieceKind::Knight);
        let q = Piece::new(Color::Black, crate::chess::PieceKind::Knight);
        let sq = Square::new(6).unwrap();
        assert_eq!(
            feature(Color::White, p, sq, false),
            feature(Color::Black, q, sq.flip(), false)
        );
        assert!(feature(Color::Black, p, sq, false) >= 384);
        // Flipping mirrors the file only: g1 becomes b1.
        assert_eq!(
            feature(Color::White, p, sq, true),
            feature(Color::White, p, Square::new(1).unwrap(), false)
        );
    }
}
