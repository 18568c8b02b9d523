//! Zobrist keys, generated at compile time from a fixed seed so that hashes are reproducible.

use super::piece::Piece;
use super::square::{File, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const PIECE_KEYS: usize = 12 * 64;
const CASTLE_KEYS: usize = 16;
const EP_KEYS: usize = 8;
const TOTAL: usize = PIECE_KEYS + CASTLE_KEYS + EP_KEYS + 1;

const fn keys() -> [u64; TOTAL] {
    let mut out = [0u64; TOTAL];
    let mut state = 0x00F1_A7C4_E770_2024u64;
    let mut i = 0;
    while i < TOTAL {
        let (s, k) = splitmix(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
}

static KEYS: [u64; TOTAL] = keys();
static CASTLE: [u64; 16] = castle_keys();

/// One key per set of castling rights: the xor of the keys of the rights it holds, so the
/// empty set hashes to zero and rights can be changed with a single xor.
const fn castle_keys() -> [u64; 16] {
    let base = keys();
    let mut out = [0u64; 16];
    let mut c = 0;
    while c < 16 {
        let mut k = 0u64;
        let mut bit = 0;
        while bit < 4 {
            if c & (1 << bit) != 0 {
                k ^= base[PIECE_KEYS + bit];
            }
            bit += 1;
        }
        out[c] = k;
        c += 1;
    }
    out
}

/// The key for `piece` standing on `sq`.
#[inline]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS[piece.index() * 64 + sq.index()]
}

/// The key for a set of castling rights (given as their 4-bit mask).
#[inline]
pub fn castling(bits: u8) -> u64 {
    CASTLE[(bits & 15) as usize]
}

/// The key for an en-passant capture being possible on `file`.
#[inline]
pub fn en_passant(file: File) -> u64 {
    KEYS[PIECE_KEYS + CASTLE_KEYS + file.index()]
}

/// The key xored in when Black is to move.
#[inline]
pub fn side() -> u64 {
    KEYS[PIECE_KEYS + CASTLE_KEYS + EP_KEYS]
}
