//! The transposition table: a fixed-size hash of search results, in 64-byte buckets of four,
//! shared by all search threads without locks.
//!
//! Each entry is two atomic words, `key ^ data` and `data`. Threads read and write them with
//! relaxed ordering, so one thread may read the first word of one write and the second of
//! another; the stored key then no longer matches and the torn entry is a miss. The moves a hit
//! gives only order moves generated legally (or are checked with `is_legal`), so even a
//! key collision cannot lead to an illegal move.

use super::score::Score;
use crate::chess::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score (a PV node).
    Exact,
    /// The true score is at least this (a beta cutoff).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One stored search result, packed into two words: the full key, and
/// move (16) | score (16) | eval (16) | depth (8) | flags (8), where flags hold the bound in
/// bits 0-1 (0 = empty) and the generation in bits 2-7.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    flags: u8,
}

impl Entry {
    fn unpack(key: u64, data: u64) -> Entry {
        Entry {
            key,
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            flags: (data >> 56) as u8,
        }
    }

    fn pack(self) -> [u64; 2] {
        let data = u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.flags) << 56;
        [self.key, data]
    }
}

/// A probe hit.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// The stored best move (may be `Move::NULL`); check it with `is_legal` before use.
    pub mv: Move,
    /// The stored score, already converted to root-relative.
    pub score: Score,
    /// The static evaluation stored with it.
    pub eval: Score,
    /// The depth searched.
    pub depth: i32,
    /// The bound type.
    pub bound: Bound,
}

impl TtHit {
    /// Whether the stored bound alone settles a node searched with window (`alpha`, `beta`).
    ///
    /// An entry scored exactly a draw never does: such a score mostly comes from a repetition
    /// on the path that stored it, which another path to this position need not allow
    /// (graph-history interaction). Cutting on it let one position's drawn line turn a winning
    /// position of another search into 0.00, first through the main search and then, in a game
    /// analysed backwards, through quiescence (tests/analyze.rs,
    /// `evaluations_do_not_depend_on_the_order_of_analysis`). A tablebase draw's entry does not
    /// cut either: the main search probes the tables again, quiescence (which does not probe
    /// them) searches the captures from the static evaluation.
    pub fn cuts(&self, alpha: Score, beta: Score) -> bool {
        if self.score == Score::DRAW {
            return false;
        }
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

const BUCKET: usize = 4;

/// The table. Never cleared wholesale when full: old and shallow entries are replaced first.
pub struct TransTable {
    /// Two words per entry, `BUCKET` entries (64 bytes) per bucket, from `offset` on.
    words: Vec<AtomicU64>,
    /// Where the first bucket starts in `words`: chosen so that every bucket lies on one
    /// 64-byte cache line (a probe then costs one memory access, not two).
    offset: usize,
    buckets: usize,
    generation: u8,
}

/// Memory the system can give without swapping (Linux's `MemAvailable`), in MiB; `None` where
/// it cannot be read.
pub fn available_mib() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

impl TransTable {
    /// A table of about `mib` mebibytes, or `None` if the memory cannot be had.
    pub fn try_new(mib: usize) -> Option<TransTable> {
        // The allocator would grant more than the machine has (pages are only taken when
        // touched), and filling it would then get the process killed: refuse it up front.
        if available_mib().is_some_and(|avail| mib > avail) {
            return None;
        }
        let bytes = mib.clamp(1, 1 << 16) * 1024 * 1024;
        let buckets = (bytes / (BUCKET * 16)).max(1);
        // Seven spare words leave room to align the first bucket.
        let words = buckets * BUCKET * 2 + 7;
        // Ask first, so that an impossible size is refused instead of aborting the process.
        let mut table: Vec<AtomicU64> = Vec::new();
        table.try_reserve_exact(words).ok()?;
        table.extend((0..words).map(|_| AtomicU64::new(0)));
        let words = table;
        let misalign = words.as_ptr() as usize % 64;
        let offset = (64 - misalign) % 64 / 8;
        Some(TransTable {
            words,
            offset,
            buckets,
            generation: 0,
        })
    }

    /// A table of about `mib` mebibytes, halving the size until the memory can be had.
    pub fn new(mib: usize) -> TransTable {
        let mut m = mib.clamp(1, 1 << 16);
        loop {
            if let Some(t) = TransTable::try_new(m) {
                return t;
            }
            if m == 1 {
                // One MiB is always available to a running process; fail loudly if not.
                return TransTable::try_new(1).expect("1 MiB for the hash table");
            }
            m /= 2;
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for w in &mut self.words {
            *w.get_mut() = 0;
        }
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    fn bucket(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the bucket count without a modulo.
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    fn entry(&self, i: usize) -> Entry {
        let w = self.offset + 2 * i;
        let data = self.words[w + 1].load(Ordering::Relaxed);
        Entry::unpack(self.words[w].load(Ordering::Relaxed) ^ data, data)
    }

    /// Looks up `key`; scores are converted from node-relative at `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let b = self.bucket(key);
        (b..b + BUCKET)
            .map(|i| self.entry(i))
            .find(|e| e.key == key && e.flags & 3 != 0)
            .map(|e| TtHit {
                mv: Move::from_bits(e.mv),
                score: Score(i32::from(e.score)).from_tt(ply),
                eval: Score(i32::from(e.eval)),
                depth: i32::from(e.depth),
                bound: match e.flags & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
            })
    }

    /// Stores a result. Replaces the same position, else the entry that is oldest and shallowest.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Move,
        score: Score,
        eval: Score,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let b = self.bucket(key);
        let generation = self.generation;
        let age = |e: &Entry| i32::from((generation.wrapping_sub(e.flags >> 2)) & 63);
        let bucket: [Entry; BUCKET] = std::array::from_fn(|i| self.entry(b + i));
        let slot = match bucket.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => {
                let mut best = 0;
                let mut worst_value = i32::MAX;
                for (i, e) in bucket.iter().enumerate() {
                    if e.flags & 3 == 0 {
                        best = i;
                        break;
                    }
                    let value = i32::from(e.depth) - 8 * age(e);
                    if value < worst_value {
                        worst_value = value;
                        best = i;
                    }
                }
                best
            }
        };
        let e = bucket[slot];
        // Keep a deeper result for the same position unless the new one is exact or the old is stale.
        if e.key == key
            && e.flags & 3 != 0
            && bound != Bound::Exact
            && depth + 3 < i32::from(e.depth)
            && age(&e) == 0
        {
            return;
        }
        let mv_bits = if mv == Move::NULL && e.key == key {
            e.mv
        } else {
            mv.bits()
        };
        let new = Entry {
            key,
            mv: mv_bits,
            score: score.to_tt(ply).0.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            eval: eval.0.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, 255) as u8,
            flags: (generation << 2)
                | match bound {
                    Bound::Exact => 1,
                    Bound::Lower => 2,
                    Bound::Upper => 3,
                },
        };
        let [k, d] = new.pack();
        let w = self.offset + 2 * (b + slot);
        self.words[w].store(k ^ d, Ordering::Relaxed);
        self.words[w + 1].store(d, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = (self.buckets * BUCKET).min(1000);
        let used = (0..n)
            .map(|i| self.entry(i))
            .filter(|e| e.flags & 3 != 0 && e.flags >> 2 == self.generation)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes_with_mate_conversion() {
        let mut tt = TransTable::new(1);
        let m = Move::from_bits(0x1234);
        tt.store(42, m, Score::mate_in(5), Score(10), 7, Bound::Exact, 2);
        let hit = tt.probe(42, 4).unwrap();
        assert_eq!(hit.mv, m);
        assert_eq!(hit.score, Score::mate_in(7));
        assert_eq!(hit.depth, 7);
        assert!(tt.probe(43, 0).is_none());
        tt.clear();
        assert!(tt.probe(42, 0).is_none());
    }

    #[test]
    fn full_table_keeps_working() {
        let tt = TransTable::new(1);
        for k in 0..200_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                Move::NULL,
                Score(1),
                Score(0),
                (k % 20) as i32,
                Bound::Lower,
                0,
            );
        }
        let last = 199_999u64.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        assert!(tt.probe(last, 0).is_some());
        assert!(tt.hashfull() > 900);
    }

    #[test]
    fn a_size_beyond_free_memory_is_refused_not_fatal() {
        // More than the machine has free is refused up front (an allocation the system would
        // grant lazily and then kill the process for when it is filled).
        let avail = available_mib().expect("MemAvailable is readable on the Linux test machines");
        assert!(
            TransTable::try_new(avail + 1024).is_none(),
            "{avail} MiB free"
        );
        let small = TransTable::try_new(2).expect("2 MiB can be had");
        assert!(small.probe(1, 0).is_none());
    }

    #[test]
    fn racing_threads_never_read_a_torn_entry() {
        // Every writer stores a move and scores derived from the key: a hit whose fields do not
        // match its key would be a torn or foreign entry.
        let tt = TransTable::new(1);
        let fields = |k: u64| (Move::from_bits(k as u16 | 1), (k >> 20) as i16 as i32 / 4);
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let tt = &tt;
                scope.spawn(move || {
                    let mut x = t.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                    for _ in 0..200_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // Few distinct keys, so that threads keep hitting the same buckets.
                        let key = (x % 5_000).wrapping_mul(0xD6E8_FEB8_6659_FD93);
                        let (mv, v) = fields(key);
                        if let Some(hit) = tt.probe(key, 0) {
                            assert_eq!(hit.mv, mv, "torn entry for key {key:#x}");
                            assert_eq!(hit.score, Score(v));
                            assert_eq!(hit.eval, Score(v));
                        }
                        tt.store(key, mv, Score(v), Score(v), 3, Bound::Lower, 0);
                    }
                });
            }
        });
    }
}
