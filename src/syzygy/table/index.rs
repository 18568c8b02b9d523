//! The index scheme's geometry: where a position's pieces put it in a table (the kings'
//! triangle, the diagonal, the leading pawn's file and rank), in constant tables built once.

use super::MAX_PIECES;

/// Constant tables of the index scheme, computed once.
pub struct Indices {
    /// `binomial[k][n]` = n choose k.
    pub(super) binomial: [[u64; 64]; MAX_PIECES],
    /// The index of two kings, the first in the a1-d1-d4 triangle: 462 legal pairs.
    pub(super) kk: [[i16; 64]; 10],
    /// Per pawn count and leading-pawn slot (`flap`), the index where that slot starts.
    pub(super) pawn_idx: [[u64; 24]; 6],
    /// Per pawn count and file a-d, how many placements there are.
    pub(super) pawn_factor: [[u64; 4]; 6],
}

/// Which side of the a1-h8 diagonal a square is on: 0 on it, 1 above (rank > file), -1 below.
pub(super) fn off_diag(sq: usize) -> i32 {
    let (file, rank) = ((sq & 7) as i32, (sq >> 3) as i32);
    (rank - file).signum()
}

/// Mirrors a square in the a1-h8 diagonal.
pub(super) fn flip_diag(sq: usize) -> usize {
    ((sq & 7) << 3) | (sq >> 3)
}

/// The square's place in the a1-d1-d4 triangle after the board's symmetries: 0-5 off the
/// diagonal (b1 c1 d1 c2 d2 d3), 6-9 on it (a1 b2 c3 d4).
pub(super) fn triangle(sq: usize) -> usize {
    let (mut file, mut rank) = (sq & 7, sq >> 3);
    if file > 3 {
        file = 7 - file;
    }
    if rank > 3 {
        rank = 7 - rank;
    }
    if rank > file {
        std::mem::swap(&mut rank, &mut file);
    }
    match (file, rank) {
        (1, 0) => 0,
        (2, 0) => 1,
        (3, 0) => 2,
        (2, 1) => 3,
        (3, 1) => 4,
        (3, 2) => 5,
        (_, r) => 6 + r,
    }
}

/// The index of a square below the diagonal (or its mirror above): 0-27, on the diagonal 28-35.
pub(super) fn lower(sq: usize) -> usize {
    let (file, rank) = (sq & 7, sq >> 3);
    if file == rank {
        return 28 + rank;
    }
    let (lo, hi) = if file > rank {
        (rank, file)
    } else {
        (file, rank)
    };
    // Rows above `lo` hold 7, 6, 5… squares right of the diagonal.
    (0..lo).map(|r| 7 - r).sum::<usize>() + (hi - lo - 1)
}

/// The square's place on the two long diagonals: a1..h8 are 0-7, h1..a8 are 8-15, others 0.
pub(super) fn diag(sq: usize) -> usize {
    let (file, rank) = (sq & 7, sq >> 3);
    if file == rank {
        rank
    } else if file + rank == 7 {
        8 + rank
    } else {
        0
    }
}

/// The leading pawn's slot: 6 ranks of files a-d (mirrored for e-h); the pawn with the lowest
/// leads.
pub fn flap(sq: usize) -> usize {
    let (mut file, rank) = (sq & 7, sq >> 3);
    if file > 3 {
        file = 7 - file;
    }
    6 * file + rank.saturating_sub(1)
}

/// The file group (0-3: files a-d, e-h mirrored) of a leading pawn's square.
pub fn file_group(sq: usize) -> usize {
    let file = sq & 7;
    if file > 3 {
        7 - file
    } else {
        file
    }
}

/// The order in which the other pawns of the leading colour are ranked.
pub(super) fn pawn_twist(sq: usize) -> usize {
    let (file, rank) = (sq & 7, sq >> 3);
    let up = 6usize.saturating_sub(rank);
    if file >= 4 {
        12 * (file - 4) + 2 * up
    } else {
        12 * (3 - file) + 2 * up + 1
    }
}

/// Whether two squares are the same or a king's step apart.
pub(super) fn kings_touch(a: usize, b: usize) -> bool {
    let df = (a & 7).abs_diff(b & 7);
    let dr = (a >> 3).abs_diff(b >> 3);
    df <= 1 && dr <= 1
}

impl Indices {
    /// Computes the tables.
    pub fn new() -> Indices {
        let mut binomial = [[0u64; 64]; MAX_PIECES];
        for (k, row) in binomial.iter_mut().enumerate() {
            for (n, v) in row.iter_mut().enumerate() {
                let (mut f, mut l) = (1u64, 1u64);
                for i in 0..k as u64 {
                    f = f.saturating_mul((n as u64).saturating_sub(i));
                    l *= i + 1;
                }
                *v = f / l;
            }
        }
        // Two kings: the first on one of the triangle's 10 squares; pairs with both kings on
        // the diagonal come last, and with the first king on the diagonal the second is never
        // above it.
        let mut kk = [[-1i16; 64]; 10];
        let representatives = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];
        let mut code = 0i16;
        let mut both_on_diagonal = Vec::new();
        for (i, &s1) in representatives.iter().enumerate() {
            for (s2, slot) in kk[i].iter_mut().enumerate() {
                if kings_touch(s1, s2) || (off_diag(s1) == 0 && off_diag(s2) > 0) {
                    continue;
                }
                if off_diag(s1) == 0 && off_diag(s2) == 0 {
                    both_on_diagonal.push((i, s2));
                } else {
                    *slot = code;
                    code += 1;
                }
            }
        }
        for (i, s2) in both_on_diagonal {
            kk[i][s2] = code;
            code += 1;
        }
        debug_assert_eq!(code, 462);
        let mut pawn_idx = [[0u64; 24]; 6];
        let mut pawn_factor = [[0u64; 4]; 6];
        for i in 0..6 {
            let mut s = 0u64;
            for j in 0..24 {
                pawn_idx[i][j] = s;
                let sq = (1 + j % 6) * 8 + j / 6;
                s += binomial[i][pawn_twist(sq)];
                if (j + 1) % 6 == 0 {
                    pawn_factor[i][j / 6] = s;
                    s = 0;
                }
            }
        }
        Indices {
            binomial,
            kk,
            pawn_idx,
            pawn_factor,
        }
    }
}
