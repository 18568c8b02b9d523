//! A group's compression: the canonical Huffman code over symbols, each symbol a value or a
//! pair of symbols, and the checks that keep a corrupt table from looping.

use super::{u16_at, u8_at, Kind};

/// A group's compressed values: a canonical Huffman code over symbols, each symbol a value or a
/// pair of symbols.
#[derive(Clone, Debug)]
pub struct Pairs {
    /// A table that holds one value everywhere (no blocks).
    pub(super) constant: Option<[u8; 2]>,
    pub(super) block_size: u32,
    pub(super) idx_bits: u32,
    pub(super) min_len: u32,
    /// Entries of the size table, padding included.
    pub(super) num_blocks: u64,
    /// Size-table entries beyond the blocks that hold data.
    pub(super) padding: u64,
    /// The first code of each length, left-aligned in 64 bits.
    pub(super) base: Vec<u64>,
    /// The first symbol of each length.
    pub(super) offset: Vec<u16>,
    /// How many values each symbol stands for, less one.
    pub(super) sym_len: Vec<u32>,
    /// Each symbol's two halves (or its value): 3 bytes.
    pub(super) sym_pat: Vec<[u8; 3]>,
    pub(super) index_table: u64,
    pub(super) size_table: u64,
    pub(super) data: u64,
    /// How many positions the group indexes.
    pub(super) table_size: u64,
}

impl Pairs {
    /// Blocks that hold data (the rest of `num_blocks` are padding entries of the size table).
    pub(super) fn real_blocks(&self) -> u64 {
        self.num_blocks - self.padding
    }
}

/// Reads one group's compression parameters at `*at` and moves past them.
pub(super) fn setup_pairs(
    h: &[u8],
    at: &mut usize,
    table_size: u64,
    kind: Kind,
) -> Result<(Pairs, u8), String> {
    let flags = u8_at(h, *at)?;
    let mut p = Pairs {
        constant: None,
        block_size: 0,
        idx_bits: 0,
        min_len: 0,
        num_blocks: 0,
        padding: 0,
        base: Vec::new(),
        offset: Vec::new(),
        sym_len: Vec::new(),
        sym_pat: Vec::new(),
        index_table: 0,
        size_table: 0,
        data: 0,
        table_size,
    };
    if flags & 0x80 != 0 {
        let v = if kind == Kind::Wdl {
            u8_at(h, *at + 1)?
        } else {
            0
        };
        p.constant = Some([v, 0]);
        *at += 2;
        return Ok((p, flags));
    }
    let a = *at;
    p.block_size = u32::from(u8_at(h, a + 1)?);
    p.idx_bits = u32::from(u8_at(h, a + 2)?);
    p.padding = u64::from(u8_at(h, a + 3)?);
    let real = u64::from(u16_at(h, a + 4)?) | u64::from(u16_at(h, a + 6)?) << 16;
    p.num_blocks = real + p.padding;
    let max_len = u32::from(u8_at(h, a + 8)?);
    p.min_len = u32::from(u8_at(h, a + 9)?);
    if p.block_size > 24 || p.idx_bits == 0 || p.idx_bits > 40 {
        return Err(format!(
            "block size 2^{} or index step 2^{} out of range",
            p.block_size, p.idx_bits
        ));
    }
    if p.min_len == 0 || max_len < p.min_len || max_len > 63 {
        return Err(format!(
            "code lengths {}..{max_len} out of range",
            p.min_len
        ));
    }
    let lens = (max_len - p.min_len + 1) as usize;
    for i in 0..lens {
        p.offset.push(u16_at(h, a + 10 + 2 * i)?);
    }
    let num_syms = u16_at(h, a + 10 + 2 * lens)? as usize;
    let pat_at = a + 12 + 2 * lens;
    for s in 0..num_syms {
        let b = h
            .get(pat_at + 3 * s..pat_at + 3 * s + 3)
            .ok_or("header ends in the symbol table")?;
        p.sym_pat.push([b[0], b[1], b[2]]);
    }
    *at = pat_at + 3 * num_syms + (num_syms & 1);
    p.sym_len = symbol_lengths(&p.sym_pat)?;
    // base[i]: the first code of length min_len + i, computed from the longest down.
    let mut base = vec![0u64; lens];
    for i in (0..lens.saturating_sub(1)).rev() {
        base[i] = base[i + 1]
            .wrapping_add(u64::from(p.offset[i]))
            .wrapping_sub(u64::from(p.offset[i + 1]))
            / 2;
    }
    for (i, b) in base.iter_mut().enumerate() {
        *b <<= 64 - (p.min_len as usize + i);
    }
    p.base = base;
    // Every symbol a code can reach must exist: offset + codes of that length.
    if p.offset.iter().any(|&o| usize::from(o) > num_syms) {
        return Err("a code length's first symbol beyond the symbols".into());
    }
    Ok((p, flags))
}

/// How many values each symbol expands to, less one; pairs that refer to missing symbols or
/// to themselves (a cycle) make the table corrupt.
pub(super) fn symbol_lengths(pat: &[[u8; 3]]) -> Result<Vec<u32>, String> {
    const UNKNOWN: u32 = u32::MAX;
    let mut len = vec![UNKNOWN; pat.len()];
    let halves = |s: usize| {
        let w = pat[s];
        let left = (usize::from(w[1] & 0xf) << 8) | usize::from(w[0]);
        let right = (usize::from(w[2]) << 4) | usize::from(w[1] >> 4);
        (left, right)
    };
    for start in 0..pat.len() {
        // Depth-first, a symbol revisited once its halves are known. Without a cycle the stack
        // holds at most two entries per level of a tree of at most `pat.len()` levels.
        let mut stack = vec![start];
        while let Some(&s) = stack.last() {
            if len[s] != UNKNOWN {
                stack.pop();
                continue;
            }
            let (left, right) = halves(s);
            if right == 0xfff {
                len[s] = 0;
                stack.pop();
                continue;
            }
            if left >= pat.len() || right >= pat.len() {
                return Err("a symbol made of symbols that do not exist".into());
            }
            if len[left] != UNKNOWN && len[right] != UNKNOWN {
                len[s] = len[left].saturating_add(len[right]).saturating_add(1);
                stack.pop();
            } else {
                stack.extend([left, right].into_iter().filter(|&c| len[c] == UNKNOWN));
                if stack.len() > 2 * pat.len() + 2 {
                    return Err("symbols defined in a cycle".into());
                }
            }
        }
    }
    Ok(len)
}
