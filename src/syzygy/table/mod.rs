//! One Syzygy table file (`.rtbw` or `.rtbz`): its header, the index of a position, and the
//! decompression of the value stored at that index.
//!
//! The format (Ronald de Man's, as his generator writes it and Fathom reads it):
//!
//! ```text
//! u32 magic | u8 flags (bit 0: both sides stored) |
//! per file group t (1 without pawns, 4 with: the leading pawn on files a-d):
//!     one order byte (two with pawns on both sides), then one nibble per piece
//!     (low nibble: white to move's table, high nibble: black to move's) |
//! pad to 2 | per group (and side): the compression parameters and symbol tree |
//! DTZ only: per group, four value maps (u8 or u16) | pad to 2 |
//! per group (and side): index table (6 bytes per 2^idx_bits positions) |
//! per group (and side): block sizes (u16 per block) |
//! per group (and side): the compressed blocks, each group's aligned to 64 bytes
//! ```
//!
//! Everything here reads through bounds-checked slices or positioned reads that report short
//! files, so a corrupt table is an `Err`, never a crash or an endless loop.

mod index;
mod pairs;

use super::TableError;
use index::*;
pub use index::{file_group, flap, Indices};
use pairs::*;
use std::fs::File;
use std::path::{Path, PathBuf};

/// The most pieces a table can have.
pub const MAX_PIECES: usize = 7;
/// The file magic of WDL tables (little-endian u32).
pub const WDL_MAGIC: u32 = 0x5d23_e871;
/// The file magic of DTZ tables.
pub const DTZ_MAGIC: u32 = 0xa50c_66d7;
/// The header bytes read into memory at most: every table's header, symbol trees and DTZ maps
/// fit (the generator caps symbols at 4,096, three bytes each, per group and side).
const HEADER_LIMIT: u64 = 4 << 20;

/// Which of the two kinds of table a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Win/draw/loss, with the 50-move rule's cursed wins and blessed losses.
    Wdl,
    /// Distance to zeroing the 50-move counter.
    Dtz,
}

/// How a group's positions are numbered: the piece order and the size of each slot.
#[derive(Clone, Debug, Default)]
pub struct EncInfo {
    /// Piece codes in the table's order (1-6 white pawn..king, 9-14 black).
    pub pieces: [u8; MAX_PIECES],
    /// Pieces in each slot, at the slot's first piece.
    norm: [u8; MAX_PIECES],
    /// The multiplier of each slot, at the slot's first piece.
    factor: [u64; MAX_PIECES],
}

/// A parsed table file: its encodings and compressed groups; values are read from the file on
/// demand.
pub struct TableFile {
    file: File,
    len: u64,
    path: PathBuf,
    /// Per group, and for WDL per side (`[t]` white to move, `[groups + t]` black to move).
    pub enc: Vec<EncInfo>,
    pairs: Vec<Option<Pairs>>,
    /// Per group: whether the table has the side split (WDL) or which side it stores (DTZ).
    pub split: bool,
    /// DTZ per group: bit 0 the side stored, bit 1 values mapped, bit 2/3 wins/losses in plies,
    /// bit 4 the maps are u16.
    pub dtz_flags: Vec<u8>,
    /// DTZ per group: four maps (by win/loss and cursed), the stored value's index into each.
    dtz_maps: Vec<[Vec<u16>; 4]>,
}

/// What the name of a table says about it.
#[derive(Clone, Debug)]
pub struct Material {
    /// All pieces.
    pub count: usize,
    /// No pawns and every piece but the kings comes in twos or more: two kings lead.
    pub kk_enc: bool,
    /// Pawns of the leading colour (the side with fewer, White on a tie), then the other's.
    pub pawns: [u8; 2],
}

/// A little-endian u16 at `at`.
fn u16_at(buf: &[u8], at: usize) -> Result<u16, String> {
    buf.get(at..at + 2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .ok_or_else(|| format!("header ends at byte {at}"))
}

/// A byte at `at`.
fn u8_at(buf: &[u8], at: usize) -> Result<u8, String> {
    buf.get(at)
        .copied()
        .ok_or_else(|| format!("header ends at byte {at}"))
}

impl TableFile {
    /// Opens and parses a table of `material` in `kind`.
    pub fn open(
        path: &Path,
        kind: Kind,
        material: &Material,
        ix: &Indices,
    ) -> Result<TableFile, TableError> {
        let corrupt = |why: String| TableError::Corrupt {
            path: path.display().to_string(),
            why,
        };
        // A FIFO or device named like a table must not be opened (a FIFO blocks the open).
        let (file, len) = match crate::files::open_regular(path, u64::MAX, "Syzygy table") {
            Ok(opened) => opened,
            Err(crate::files::FileError::Io { source, .. }) => {
                return Err(TableError::Io {
                    path: path.display().to_string(),
                    source,
                })
            }
            Err(e) => return Err(corrupt(e.to_string())),
        };
        if len % 64 != 16 {
            return Err(corrupt(format!(
                "{len} bytes: incomplete (a table's size is 16 more than a multiple of 64)"
            )));
        }
        let mut header = vec![0u8; len.min(HEADER_LIMIT) as usize];
        read_exact_at(&file, &mut header, 0).map_err(|e| TableError::Io {
            path: path.display().to_string(),
            source: e,
        })?;
        let mut t = TableFile {
            file,
            len,
            path: path.to_path_buf(),
            enc: Vec::new(),
            pairs: Vec::new(),
            split: false,
            dtz_flags: Vec::new(),
            dtz_maps: Vec::new(),
        };
        t.parse(&header, kind, material, ix).map_err(corrupt)?;
        Ok(t)
    }

    /// Reads the header: encodings, compression parameters, maps, and where the data lies.
    fn parse(&mut self, h: &[u8], kind: Kind, m: &Material, ix: &Indices) -> Result<(), String> {
        let magic = u16_at(h, 0)? as u32 | (u16_at(h, 2)? as u32) << 16;
        let want = match kind {
            Kind::Wdl => WDL_MAGIC,
            Kind::Dtz => DTZ_MAGIC,
        };
        if magic != want {
            return Err(format!("magic {magic:#010x}, expected {want:#010x}"));
        }
        let has_pawns = m.pawns[0] > 0;
        self.split = kind == Kind::Wdl && u8_at(h, 4)? & 1 != 0;
        let groups = if has_pawns { 4 } else { 1 };
        let sides = if self.split { 2 } else { 1 };
        let mut at = 5usize;
        let more_pawns = has_pawns && m.pawns[1] > 0;
        self.enc = vec![EncInfo::default(); groups * sides];
        let mut sizes = vec![0u64; groups * sides];
        for g in 0..groups {
            for side in 0..sides {
                let bytes = h
                    .get(at..at + m.count + 1 + usize::from(more_pawns))
                    .ok_or("header ends in the piece list")?;
                let (enc, size) = enc_info(bytes, 4 * side as u32, g, m, ix)?;
                self.enc[side * groups + g] = enc;
                sizes[side * groups + g] = size;
            }
            at += m.count + 1 + usize::from(more_pawns);
        }
        at += at & 1;
        self.pairs = vec![None; groups * sides];
        self.dtz_flags = vec![0; groups];
        for g in 0..groups {
            for side in 0..sides {
                let (pairs, flags) = setup_pairs(h, &mut at, sizes[side * groups + g], kind)?;
                if kind == Kind::Dtz {
                    self.dtz_flags[g] = flags;
                }
                self.pairs[side * groups + g] = Some(pairs);
            }
        }
        if kind == Kind::Dtz {
            for g in 0..groups {
                let mut maps: [Vec<u16>; 4] = Default::default();
                if self.dtz_flags[g] & 2 != 0 {
                    let wide = self.dtz_flags[g] & 16 != 0;
                    if wide {
                        at += at & 1;
                    }
                    for map in maps.iter_mut() {
                        if wide {
                            let n = u16_at(h, at)? as usize;
                            at += 2;
                            for i in 0..n {
                                map.push(u16_at(h, at + 2 * i)?);
                            }
                            at += 2 * n;
                        } else {
                            let n = u8_at(h, at)? as usize;
                            at += 1;
                            for i in 0..n {
                                map.push(u16::from(u8_at(h, at + i)?));
                            }
                            at += n;
                        }
                    }
                }
                self.dtz_maps.push(maps);
            }
            at += at & 1;
        }
        // Index tables, then size tables, then the data, each in group-then-side order.
        let mut pos = at as u64;
        for g in 0..groups {
            for side in 0..sides {
                if let Some(p) = self.pairs[side * groups + g].as_mut() {
                    p.index_table = pos;
                    if p.constant.is_none() {
                        pos += 6 * p.table_size.div_ceil(1u64 << p.idx_bits);
                    }
                }
            }
        }
        for g in 0..groups {
            for side in 0..sides {
                if let Some(p) = self.pairs[side * groups + g].as_mut() {
                    p.size_table = pos;
                    if p.constant.is_none() {
                        pos += 2 * p.num_blocks;
                    }
                }
            }
        }
        for g in 0..groups {
            for side in 0..sides {
                if let Some(p) = self.pairs[side * groups + g].as_mut() {
                    if p.constant.is_none() {
                        pos = pos.div_ceil(64) * 64;
                        p.data = pos;
                        pos += p.real_blocks() << p.block_size;
                    }
                }
            }
        }
        if pos > self.len {
            return Err(format!(
                "the data runs to byte {pos}, past the file's end at {}",
                self.len
            ));
        }
        Ok(())
    }

    /// The index of the position whose pieces stand on `p` (in `enc`'s piece order) in group `g`.
    pub fn encode(
        &self,
        p: &mut [usize],
        enc: &EncInfo,
        m: &Material,
        ix: &Indices,
    ) -> Result<u64, String> {
        let n = m.count;
        let p = &mut p[..n];
        if p[0] & 4 != 0 {
            p.iter_mut().for_each(|s| *s ^= 7);
        }
        let mut idx;
        let mut k;
        if m.pawns[0] == 0 {
            if p[0] & 0x20 != 0 {
                p.iter_mut().for_each(|s| *s ^= 0x38);
            }
            let lead = if m.kk_enc { 2 } else { 3 };
            for i in 0..n {
                let d = off_diag(p[i]);
                if d != 0 {
                    if d > 0 && i < lead {
                        p.iter_mut().for_each(|s| *s = flip_diag(*s));
                    }
                    break;
                }
            }
            if m.kk_enc {
                let v = ix.kk[triangle(p[0])][p[1]];
                if v < 0 {
                    return Err("kings on impossible squares".into());
                }
                idx = v as u64;
                k = 2;
            } else {
                let s1 = usize::from(p[1] > p[0]);
                let s2 = usize::from(p[2] > p[0]) + usize::from(p[2] > p[1]);
                idx = if off_diag(p[0]) != 0 {
                    triangle(p[0]) * 63 * 62 + (p[1] - s1) * 62 + (p[2] - s2)
                } else if off_diag(p[1]) != 0 {
                    6 * 63 * 62 + diag(p[0]) * 28 * 62 + lower(p[1]) * 62 + p[2] - s2
                } else if off_diag(p[2]) != 0 {
                    6 * 63 * 62
                        + 4 * 28 * 62
                        + diag(p[0]) * 7 * 28
                        + (diag(p[1]) - s1) * 28
                        + lower(p[2])
                } else {
                    6 * 63 * 62
                        + 4 * 28 * 62
                        + 4 * 7 * 28
                        + diag(p[0]) * 7 * 6
                        + (diag(p[1]) - s1) * 6
                        + (diag(p[2]) - s2)
                } as u64;
                k = 3;
            }
            idx = idx.wrapping_mul(enc.factor[0]);
        } else {
            k = m.pawns[0] as usize;
            p[1..k].sort_unstable_by_key(|&s| std::cmp::Reverse(pawn_twist(s)));
            idx = ix.pawn_idx[k - 1][flap(p[0])];
            for (i, &sq) in p.iter().enumerate().take(k).skip(1) {
                idx += ix.binomial[k - i][pawn_twist(sq)];
            }
            idx = idx.wrapping_mul(enc.factor[0]);
            if m.pawns[1] > 0 {
                let t = k + m.pawns[1] as usize;
                p[k..t].sort_unstable();
                let mut s = 0u64;
                for i in k..t {
                    let sq = p[i];
                    let skips = p[..k].iter().filter(|&&q| sq > q).count();
                    let slot = (sq - skips)
                        .checked_sub(8)
                        .ok_or("a pawn on the first or last rank")?;
                    s += ix.binomial[i - k + 1][slot];
                }
                idx = idx.wrapping_add(s.wrapping_mul(enc.factor[k]));
                k = t;
            }
        }
        while k < n {
            let t = k + enc.norm[k] as usize;
            if enc.norm[k] == 0 || t > n {
                return Err("a piece group of no pieces".into());
            }
            p[k..t].sort_unstable();
            let mut s = 0u64;
            for i in k..t {
                let sq = p[i];
                let skips = p[..k].iter().filter(|&&q| sq > q).count();
                s += ix.binomial[i - k + 1][sq - skips];
            }
            idx = idx.wrapping_add(s.wrapping_mul(enc.factor[k]));
            k = t;
        }
        Ok(idx)
    }

    /// The stored value (two bytes; WDL uses the first) at `idx` of group-and-side `slot`.
    pub fn value(&self, slot: usize, idx: u64) -> Result<[u8; 2], String> {
        let d = self
            .pairs
            .get(slot)
            .and_then(Option::as_ref)
            .ok_or("the table does not store this side")?;
        if let Some(c) = d.constant {
            return Ok(c);
        }
        if idx >= d.table_size {
            return Err(format!("index {idx} beyond the table's {}", d.table_size));
        }
        let main = idx >> d.idx_bits;
        let half = 1i64 << (d.idx_bits - 1);
        let mut lit = (idx & ((1u64 << d.idx_bits) - 1)) as i64 - half;
        let mut entry = [0u8; 6];
        self.read(&mut entry, d.index_table + 6 * main)?;
        let mut block = u64::from(u32::from_le_bytes([entry[0], entry[1], entry[2], entry[3]]));
        lit += i64::from(u16::from_le_bytes([entry[4], entry[5]]));
        let block_len = |b: u64| -> Result<i64, String> {
            if b >= d.num_blocks {
                return Err(format!("block {b} beyond the table's {}", d.num_blocks));
            }
            let mut two = [0u8; 2];
            self.read(&mut two, d.size_table + 2 * b)?;
            Ok(i64::from(u16::from_le_bytes(two)))
        };
        if lit < 0 {
            while lit < 0 {
                block = block.checked_sub(1).ok_or("a block before the first")?;
                lit += block_len(block)? + 1;
            }
        } else {
            loop {
                let size = block_len(block)?;
                if lit <= size {
                    break;
                }
                lit -= size + 1;
                block += 1;
            }
        }
        if block >= d.real_blocks() {
            return Err(format!("block {block} beyond the data"));
        }
        let mut bytes = vec![0u8; (1usize << d.block_size) + 8];
        let start = d.data + (block << d.block_size);
        let avail = self
            .len
            .checked_sub(start)
            .ok_or("a block beyond the file's end")?
            .min(1u64 << d.block_size) as usize;
        self.read(&mut bytes[..avail], start)?;
        // A 64-bit window on the bit stream, refilled 32 bits at a time.
        let word = |i: usize| -> u64 {
            let mut b = [0u8; 4];
            if let Some(s) = bytes.get(i..i + 4) {
                b.copy_from_slice(s);
            }
            u64::from(u32::from_be_bytes(b))
        };
        let mut code = (word(0) << 32) | word(4);
        let mut next = 8usize;
        let mut bits = 0u32;
        let max_len = d.min_len as usize + d.base.len() - 1;
        let mut sym;
        loop {
            let mut l = d.min_len as usize;
            while code < d.base[l - d.min_len as usize] {
                l += 1;
                if l > max_len {
                    return Err("a code longer than the longest".into());
                }
            }
            let i = l - d.min_len as usize;
            sym = usize::from(d.offset[i]) + ((code - d.base[i]) >> (64 - l)) as usize;
            let len = i64::from(*d.sym_len.get(sym).ok_or("a symbol beyond the table")?);
            if lit < len + 1 {
                break;
            }
            lit -= len + 1;
            code <<= l;
            bits += l as u32;
            if bits >= 32 {
                bits -= 32;
                if next > bytes.len() {
                    return Err("a block's codes run past its end".into());
                }
                code |= word(next) << bits;
                next += 4;
            }
        }
        // Descend the pair tree to the value.
        while d.sym_len[sym] != 0 {
            let w = d.sym_pat[sym];
            let left = (usize::from(w[1] & 0xf) << 8) | usize::from(w[0]);
            let left_len = i64::from(d.sym_len[left]);
            if lit < left_len + 1 {
                sym = left;
            } else {
                lit -= left_len + 1;
                sym = (usize::from(w[2]) << 4) | usize::from(w[1] >> 4);
            }
        }
        let w = d.sym_pat[sym];
        Ok([w[0], w[1]])
    }

    /// DTZ: the value through group `g`'s map `m`, if the group maps its values.
    pub fn dtz_map(&self, g: usize, m: usize, v: usize) -> Result<u16, String> {
        self.dtz_maps
            .get(g)
            .and_then(|maps| maps[m].get(v))
            .copied()
            .ok_or_else(|| format!("DTZ value {v} beyond its map"))
    }

    /// Reads `buf.len()` bytes at `offset`.
    fn read(&self, buf: &mut [u8], offset: u64) -> Result<(), String> {
        read_exact_at(&self.file, buf, offset).map_err(|e| {
            format!(
                "{}: reading {} bytes at {offset}: {e}",
                self.path.display(),
                buf.len()
            )
        })
    }
}

/// Reads a group's encoding from its piece bytes (`shift` picks the side's nibble) and returns it
/// with the number of positions it indexes.
fn enc_info(
    tb: &[u8],
    shift: u32,
    group: usize,
    m: &Material,
    ix: &Indices,
) -> Result<(EncInfo, u64), String> {
    let has_pawns = m.pawns[0] > 0;
    let more_pawns = has_pawns && m.pawns[1] > 0;
    let mut e = EncInfo::default();
    for i in 0..m.count {
        e.pieces[i] = (tb[i + 1 + usize::from(more_pawns)] >> shift) & 0x0f;
    }
    let order = usize::from((tb[0] >> shift) & 0x0f);
    let order2 = if more_pawns {
        usize::from((tb[1] >> shift) & 0x0f)
    } else {
        0x0f
    };
    let mut k = if has_pawns {
        m.pawns[0] as usize
    } else if m.kk_enc {
        2
    } else {
        3
    };
    e.norm[0] = k as u8;
    if more_pawns {
        e.norm[k] = m.pawns[1];
        k += m.pawns[1] as usize;
    }
    let mut i = k;
    while i < m.count {
        let mut j = i;
        while j < m.count && e.pieces[j] == e.pieces[i] {
            e.norm[i] += 1;
            j += 1;
        }
        i += e.norm[i] as usize;
    }
    let mut n = 64usize.checked_sub(k).ok_or("too many pieces")?;
    let mut f = 1u64;
    let mut i = 0;
    while k < m.count || i == order || i == order2 {
        if i > MAX_PIECES + 1 {
            return Err("a piece order beyond the pieces".into());
        }
        if i == order {
            e.factor[0] = f;
            f = f.saturating_mul(if has_pawns {
                ix.pawn_factor[usize::from(e.norm[0]) - 1][group]
            } else if m.kk_enc {
                462
            } else {
                31_332
            });
        } else if i == order2 {
            let lead = usize::from(e.norm[0]);
            e.factor[lead] = f;
            f = f.saturating_mul(subfactor(u64::from(e.norm[lead]), (48 - lead) as u64));
        } else {
            if k >= m.count || e.norm[k] == 0 {
                return Err("a piece order beyond the pieces".into());
            }
            e.factor[k] = f;
            f = f.saturating_mul(subfactor(u64::from(e.norm[k]), n as u64));
            n = n.saturating_sub(usize::from(e.norm[k]));
            k += usize::from(e.norm[k]);
        }
        i += 1;
    }
    // The pieces must be the table's: each code a piece (1-6 or 9-14).
    if e.pieces[..m.count]
        .iter()
        .any(|&c| !(1..=6).contains(&(c & 7)) || c & 7 == 7)
    {
        return Err("an unknown piece code in the piece list".into());
    }
    Ok((e, f))
}

/// The placements of `k` like pieces on `n` squares: n choose k.
fn subfactor(k: u64, n: u64) -> u64 {
    let (mut f, mut l) = (n, 1u64);
    for i in 1..k {
        f = f.saturating_mul(n.saturating_sub(i));
        l *= i + 1;
    }
    f / l
}

/// Reads exactly `buf.len()` bytes at `offset` without moving a shared cursor.
#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset)
}

/// Reads exactly `buf.len()` bytes at `offset` without moving a shared cursor.
#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        let n = file.seek_read(buf, offset)?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        buf = &mut buf[n..];
        offset += n as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_tables_have_the_formats_shape() {
        let ix = Indices::new();
        // 462 king pairs; the first king on b1 puts the second's first legal square on d1.
        assert_eq!(ix.kk[0][3], 0);
        assert_eq!(ix.kk[0][0], -1);
        // With the first king on a1, the pairs on the diagonal come last.
        assert_eq!(ix.kk[6][2], 339);
        assert_eq!(ix.kk[6][18], 441);
        assert_eq!(ix.kk[9][63], 461);
        let mut seen = [false; 462];
        for row in ix.kk {
            for v in row.into_iter().filter(|&v| v >= 0) {
                assert!(!seen[v as usize]);
                seen[v as usize] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
        // The triangle and its neighbours.
        assert_eq!(
            (triangle(1), triangle(0), triangle(27), triangle(62)),
            (0, 6, 9, 0)
        );
        assert_eq!(
            (lower(1), lower(8), lower(0), lower(7), lower(63)),
            (0, 0, 28, 6, 35)
        );
        assert_eq!((lower(10), lower(17), lower(19)), (7, 7, 13));
        assert_eq!((diag(0), diag(7), diag(56), diag(28)), (0, 8, 15, 11));
        assert_eq!(
            (
                pawn_twist(8),
                pawn_twist(12),
                pawn_twist(51),
                pawn_twist(15)
            ),
            (47, 10, 1, 46)
        );
        assert_eq!((flap(9), flap(11), flap(12), flap(48)), (6, 18, 18, 5));
        // Five pawn counts' placements over a file sum to the binomial's total.
        assert_eq!(ix.pawn_factor[0].iter().sum::<u64>(), 24);
    }

    #[test]
    fn a_cycle_of_symbols_is_an_error_not_a_hang() {
        // Symbol 0 = (1, 1), symbol 1 = (0, 0).
        let pat = [[1, 0x10, 0x00], [0, 0x00, 0x00]];
        assert!(symbol_lengths(&pat).is_err());
        // Symbol 0 a leaf, symbol 1 = (0, 0): two values.
        let pat = [[7, 0xf0, 0xff], [0, 0x00, 0x00]];
        assert_eq!(symbol_lengths(&pat).unwrap(), vec![0, 1]);
    }
}
