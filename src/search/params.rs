//! The search's tunable constants, in one place beside `eval/params.rs`.
//!
//! Where the values come from: they were set by hand when each technique was added, inside
//! the ranges that open engines of this strength use (Ethereal, Viridithas, Carp and
//! Stockfish's older releases); none has been changed by an SPSA tune yet (docs/tuning.md says
//! how to run one and what the runs here found). Margins are in centipawns, depths in plies;
//! the few fractional constants are kept in hundredths so that every one is a whole number a
//! UCI spin option can carry.
//!
//! Each constant is a function. In the normal build it returns its constant and compiles to
//! it; in a build with the `tune` feature (`make TUNE=1`) it reads a value that `setoption`
//! may change, every constant is a UCI option of its own name, and `spsa` prints the list in
//! OpenBench's SPSA input format.

/// One tunable constant: its name (its UCI option's in a tuning build), default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// The name, as the function that reads it and the UCI option that sets it.
    pub name: &'static str,
    /// The hand-set value the normal build uses.
    pub default: i32,
    /// The least value a tune may try.
    pub min: i32,
    /// The greatest value a tune may try.
    pub max: i32,
}

impl Tunable {
    /// The constant's line in OpenBench's SPSA input format: `name, int, default, min, max,
    /// c_end, r_end`, with the final step `c_end` a twentieth of the range (at least 0.5, the
    /// least that still moves an integer) and OpenBench's customary `r_end` of 0.002.
    pub fn openbench_line(&self) -> String {
        let c_end = (f64::from(self.max - self.min) / 20.0).max(0.5);
        format!(
            "{}, int, {}, {}, {}, {c_end:.1}, 0.002",
            self.name, self.default, self.min, self.max
        )
    }
}

macro_rules! tunables {
    ($( $(#[doc = $doc:expr])* $name:ident: $default:expr, $min:expr, $max:expr; )*) => {
        /// Each constant's place in `TUNABLES` (and in a tuning build's table of values).
        #[allow(non_camel_case_types, dead_code)]
        #[derive(Clone, Copy)]
        enum Slot { $($name,)* }

        $(
            $(#[doc = $doc])*
            #[inline(always)]
            pub fn $name() -> i32 {
                #[cfg(feature = "tune")]
                {
                    tuned::get(Slot::$name as usize)
                }
                #[cfg(not(feature = "tune"))]
                {
                    $default
                }
            }
        )*

        /// Every tunable constant, in the order of this file.
        pub const TUNABLES: &[Tunable] = &[
            $( Tunable { name: stringify!($name), default: $default, min: $min, max: $max }, )*
        ];
    };
}

tunables! {
    /// Reverse futility pruning: at most this depth…
    rfp_max_depth: 7, 2, 12;
    /// …a node whose static evaluation beats beta by this much per ply is assumed to hold.
    rfp_margin: 75, 30, 150;
    /// The margin is this much smaller when the evaluation is improving (the node is likelier
    /// to hold than its margin says).
    rfp_improving: 50, 0, 120;

    /// Null-move pruning from this depth on.
    nmp_min_depth: 3, 1, 6;
    /// Null-move reduction: this base…
    nmp_base: 3, 1, 6;
    /// …plus one ply per this many plies of depth…
    nmp_depth_divisor: 4, 2, 8;
    /// …plus one ply per this many centipawns the evaluation beats beta by…
    nmp_eval_divisor: 200, 80, 400;
    /// …of which at most this many.
    nmp_eval_max: 3, 0, 6;

    /// Internal iterative reduction: from this depth on, a PV or cut node without a hash move
    /// is searched one ply shallower.
    iir_min_depth: 4, 2, 8;

    /// Singular extensions from this depth on…
    se_min_depth: 8, 4, 12;
    /// …when the hash entry was searched to at most this much less than the node's depth…
    se_tt_depth_margin: 3, 1, 6;
    /// …and every other move fails below the hash score less this much per ply of depth.
    se_margin_per_ply: 2, 1, 6;

    /// Move-count, futility and SEE pruning of moves up to this depth.
    prune_max_depth: 8, 4, 12;
    /// Late-move pruning: quiet moves after the first `lmp_base + depth²` (half that when the
    /// evaluation is not improving) are skipped.
    lmp_base: 3, 0, 10;
    /// Futility pruning: a quiet move is skipped when the static evaluation plus this…
    futility_base: 100, 0, 250;
    /// …plus this per ply cannot reach alpha.
    futility_per_ply: 90, 30, 180;
    /// SEE pruning: a quiet move that loses more than this per ply of depth in exchanges is
    /// skipped…
    see_quiet_per_ply: 40, 10, 120;
    /// …and a capture that loses more than this per ply.
    see_noisy_per_ply: 90, 30, 200;

    /// Late-move reductions from this depth on…
    lmr_min_depth: 3, 1, 6;
    /// …for moves after this many have been searched.
    lmr_min_moves: 2, 1, 6;
    /// The reduction table is `lmr_base + ln(depth)·ln(move number) / lmr_divisor` (both in
    /// hundredths here), the shape most engines use.
    lmr_base: 80, 0, 200;
    /// See `lmr_base`.
    lmr_divisor: 220, 120, 400;
    /// One ply less reduction per this much history a quiet move has (more for a bad one).
    lmr_history_divisor: 8000, 2000, 20000;

    /// History bonus of a quiet move that cut off: `history_bonus_scale · depth²` plus
    /// `history_bonus_linear · depth`, at most `history_bonus_max`.
    history_bonus_scale: 8, 2, 32;
    /// See `history_bonus_scale`. The linear part gives shallow cutoffs weight: with the square
    /// alone a depth-3 cutoff moved history by 72 of its ±16,384, a tenth of what Stockfish's
    /// bonus gives on its scale.
    history_bonus_linear: 120, 0, 400;
    /// The most a cutoff's history bonus may be (reached from depth 9 with the defaults).
    history_bonus_max: 1600, 400, 4000;

    /// Quiescence delta pruning: a capture that cannot lift the stand-pat score to alpha even
    /// with this much to spare is skipped.
    qs_delta_margin: 200, 50, 500;

    /// Aspiration windows from this depth on…
    aspiration_min_depth: 5, 2, 10;
    /// …starting this wide on each side of the last score, doubling on every failure.
    aspiration_delta: 18, 5, 60;

    /// Soft time limit scaling, in hundredths: when the best move changes, the budget grows by
    /// this factor…
    stability_change: 150, 100, 250;
    /// …up to this multiple of the soft limit…
    stability_max: 250, 120, 400;
    /// …and while it stays, shrinks by this factor…
    stability_keep: 90, 50, 100;
    /// …down to this multiple.
    stability_min: 60, 20, 100;
    /// A score this much below the last iteration's…
    score_drop: 30, 5, 100;
    /// …buys at least this multiple of the soft limit (hundredths, before `node_tm`'s scale),
    /// to look for a way out.
    score_drop_factor: 140, 100, 250;

    /// Node-based time management, 1 to use it: from `node_tm_min_depth` on, the soft limit is
    /// also scaled by `(node_tm_base - share) · node_tm_scale` (hundredths), where `share` is
    /// the fraction of the search's root nodes so far spent on the best move: a move that took
    /// most of the effort is clear, one that took little is contested. Stockfish and most
    /// strong engines do this; off until an SPRT at 5+0.05 accepts it (issue 31), so that the
    /// tuning build can test it with `setoption`.
    node_tm: 0, 0, 1;
    /// See `node_tm`.
    node_tm_min_depth: 6, 1, 20;
    /// See `node_tm` (hundredths).
    node_tm_base: 150, 100, 250;
    /// See `node_tm` (hundredths).
    node_tm_scale: 135, 50, 250;

    /// Lazy SMP best-thread voting, 1 to use it: a search with helpers and no depth limit plays
    /// the move its threads vote for (each thread's move gets `(score - lowest + 14) · depth`
    /// votes, the form of Stockfish's rule) rather than always the main thread's. Off until an SPRT
    /// with 2 threads a side accepts it (issue 31).
    smp_vote: 0, 0, 1;

    /// Plies added to a tablebase result's depth in the hash table, so that no search replaces
    /// an exact verdict with a guess (Stockfish stores them 6 plies deeper).
    tb_depth_bonus: 6, 0, 12;
}

/// A constant in hundredths as the fraction it stands for.
pub const fn hundredths(v: i32) -> f64 {
    v as f64 / 100.0
}

/// The slot in `TUNABLES` of the constant called `name` (any case).
pub fn find(name: &str) -> Option<usize> {
    TUNABLES
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name))
}

/// The values a tuning build searches with, as offsets from the defaults (so that the table
/// starts zeroed at the defaults), and `setoption`'s way in.
#[cfg(feature = "tune")]
pub mod tuned {
    use super::TUNABLES;
    use std::sync::atomic::{AtomicI32, Ordering};

    static OFFSETS: [AtomicI32; TUNABLES.len()] = [const { AtomicI32::new(0) }; TUNABLES.len()];

    /// The value of the constant in slot `i`.
    #[inline]
    pub(super) fn get(i: usize) -> i32 {
        TUNABLES[i].default + OFFSETS[i].load(Ordering::Relaxed)
    }

    /// Sets the constant in slot `i` of `TUNABLES` to `value` clamped into its range, and
    /// returns the value set. A search already running may see the new value part-way.
    pub fn set(i: usize, value: i64) -> i32 {
        let t = TUNABLES[i];
        let v = value.clamp(i64::from(t.min), i64::from(t.max)) as i32;
        OFFSETS[i].store(v - t.default, Ordering::Relaxed);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert!(t.min < t.max, "{t:?} cannot move");
            assert!(
                TUNABLES[..i].iter().all(|u| u.name != t.name),
                "{} twice",
                t.name
            );
        }
    }

    #[cfg(not(feature = "tune"))]
    #[test]
    fn functions_return_their_defaults() {
        assert_eq!(rfp_margin(), TUNABLES[1].default);
        assert_eq!(tb_depth_bonus(), TUNABLES.last().map_or(0, |t| t.default));
    }

    #[test]
    fn openbench_lines_have_seven_fields() {
        let line = TUNABLES[1].openbench_line();
        assert_eq!(line, "rfp_margin, int, 75, 30, 150, 6.0, 0.002");
        let fields: Vec<&str> = line.split(", ").collect();
        assert_eq!(fields.len(), 7);
        assert_eq!(
            TUNABLES[0].openbench_line(),
            "rfp_max_depth, int, 7, 2, 12, 0.5, 0.002"
        );
    }

    /// On the tablebase bonus, which no other test's search uses (they run beside this one
    /// in the same process and read the same table).
    #[cfg(feature = "tune")]
    #[test]
    fn set_clamps_into_range() {
        let i = find("TB_DEPTH_BONUS").expect("listed");
        assert_eq!(tuned::set(i, 100_000), 12);
        assert_eq!(tb_depth_bonus(), 12);
        assert_eq!(tuned::set(i, -5), 0);
        assert_eq!(tb_depth_bonus(), 0);
        assert_eq!(tuned::set(i, 6), 6);
        assert_eq!(find("no_such_constant"), None);
    }
}
