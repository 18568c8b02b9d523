//! Training positions packed into 32 bytes, and the network's input features read from them.

use crate::chess::{Color, Square};
use crate::eval::nnue::king_mirrors;
use crate::tools::data::Sample;

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

/// The logistic function: a score (centipawns / 400) as an expected result in 0..1.
#[inline]
pub(super) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}
