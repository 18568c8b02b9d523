//! Every evaluation weight in one place, as (midgame, endgame) pairs in centipawns, so that a
//! tuner can rewrite this file. Piece-square tables are built from a few shape parameters
//! (centralisation, advancement, king shelter) rather than typed in square by square.

/// A midgame/endgame pair of weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct S(pub i32, pub i32);

impl S {
    /// Midgame part.
    pub const fn mg(self) -> i32 {
        self.0
    }
    /// Endgame part.
    pub const fn eg(self) -> i32 {
        self.1
    }
    /// Both parts multiplied by `n`.
    pub const fn times(self, n: i32) -> S {
        S(self.0 * n, self.1 * n)
    }
}

impl std::ops::Add for S {
    type Output = S;
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl std::ops::AddAssign for S {
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::Sub for S {
    type Output = S;
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl std::ops::SubAssign for S {
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}
impl std::ops::Neg for S {
    type Output = S;
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

/// Material per piece kind (pawn, knight, bishop, rook, queen, king).
pub const MATERIAL: [S; 6] = [
    S(90, 125),
    S(330, 310),
    S(345, 330),
    S(470, 560),
    S(1000, 1040),
    S(0, 0),
];

/// Game-phase weight per piece kind; the start position sums to `PHASE_TOTAL`.
pub const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of a full board: 24 means pure midgame, 0 pure endgame.
pub const PHASE_TOTAL: i32 = 24;

/// Pawn advancement bonus per relative rank (index 0 = rank 1).
pub const PAWN_ADVANCE: [S; 8] = [
    S(0, 0),
    S(0, 0),
    S(-2, -4),
    S(2, 0),
    S(8, 10),
    S(20, 30),
    S(40, 60),
    S(0, 0),
];
/// Extra for pawns on the d and e files by relative rank (occupying the centre early).
pub const PAWN_CENTER: [S; 8] = [
    S(0, 0),
    S(-6, 0),
    S(4, 0),
    S(16, 2),
    S(20, 4),
    S(10, 4),
    S(0, 0),
    S(0, 0),
];
/// Centralisation weight per piece kind: bonus per step closer to the centre (0..3 steps).
pub const CENTRALISATION: [S; 6] = [S(0, 0), S(10, 8), S(6, 5), S(2, 2), S(2, 8), S(0, 14)];
/// Knight and bishop on the rim (a/h files, ranks 1/8): extra penalty.
pub const MINOR_RIM: S = S(-12, -10);
/// King on the back rank and away from the centre files, in the midgame, per file.
pub const KING_FILE_MG: [i32; 8] = [20, 28, 8, -10, -10, 8, 28, 20];
/// King advancing from its back rank, in the midgame, per relative rank.
pub const KING_RANK_MG: [i32; 8] = [0, -18, -40, -55, -65, -70, -70, -70];
/// Rook on the seventh rank.
pub const ROOK_SEVENTH: S = S(18, 22);

/// Two bishops.
pub const BISHOP_PAIR: S = S(28, 55);
/// Passed pawn by relative rank.
pub const PASSED: [S; 8] = [
    S(0, 0),
    S(2, 8),
    S(4, 12),
    S(10, 22),
    S(25, 45),
    S(50, 90),
    S(80, 140),
    S(0, 0),
];
/// Passed pawn whose path to promotion is empty, by relative rank.
pub const PASSED_FREE: [S; 8] = [
    S(0, 0),
    S(0, 2),
    S(0, 4),
    S(2, 8),
    S(6, 18),
    S(12, 38),
    S(20, 70),
    S(0, 0),
];
/// Endgame bonus per square of distance between the enemy king and our passer's stop square,
/// minus the same for our own king, scaled by the passer's rank.
pub const PASSED_KING_DISTANCE: i32 = 4;
/// Two or more pawns of one side on a file (per extra pawn).
pub const DOUBLED: S = S(-8, -20);
/// A pawn with no friendly pawn on the adjacent files.
pub const ISOLATED: S = S(-10, -12);
/// A pawn behind its neighbours whose advance square is attacked by an enemy pawn.
pub const BACKWARD: S = S(-6, -8);
/// A pawn defended by another pawn.
pub const SUPPORTED: S = S(6, 6);

/// Mobility per reachable square (not own piece, not attacked by enemy pawns), minus a baseline.
pub const MOBILITY: [S; 6] = [S(0, 0), S(5, 5), S(5, 5), S(3, 5), S(2, 4), S(0, 0)];
/// Squares of mobility considered "normal" per piece kind; fewer is penalised, more rewarded.
pub const MOBILITY_BASE: [i32; 6] = [0, 4, 6, 6, 12, 0];

/// Rook on a file without pawns.
pub const ROOK_OPEN: S = S(28, 8);
/// Rook on a file without own pawns.
pub const ROOK_SEMI_OPEN: S = S(12, 8);

/// Attack weight on the king zone per piece kind (a queen attack counts most).
pub const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];
/// Midgame penalty = weight² × this / 16, once two or more pieces attack the zone.
pub const KING_ATTACK_SCALE: i32 = 6;
/// Midgame bonus for each own pawn directly in front of the king (one or two ranks ahead).
pub const PAWN_SHIELD: [i32; 2] = [14, 7];
/// Midgame penalty for an open file (no own pawn) next to or on the king's file.
pub const KING_OPEN_FILE: i32 = -14;

/// Per enemy knight, bishop, rook or queen attacked by one of our pawns.
pub const THREAT_BY_PAWN: S = S(45, 40);
/// Per enemy rook or queen attacked by one of our knights or bishops.
pub const THREAT_BY_MINOR: S = S(30, 25);
/// Per enemy queen attacked by one of our rooks.
pub const THREAT_BY_ROOK: S = S(30, 15);
/// Per enemy piece (not pawn or king) we attack and nothing of theirs defends.
pub const HANGING: S = S(20, 15);

/// Bonus for the side to move.
pub const TEMPO: S = S(12, 6);
