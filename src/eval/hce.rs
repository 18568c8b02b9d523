//! The hand-crafted evaluation: material, piece placement, mobility, king safety, pawn
//! structure, threats and endgame scaling, tapered between midgame and endgame, its weights in
//! `params.rs`. The default evaluation is the network (`nnue`); this one is the fallback and
//! the reference (`Use NNUE` off, `--net hce`, the `eval` report).

use super::params::*;
use crate::chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks_set, queen_attacks, rook_attacks,
};
use crate::chess::{Bitboard, Board, Color, File, PieceKind, Square};

/// The terms of the evaluation, each from White's view, for the `eval` breakdown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    /// Material.
    pub material: S,
    /// Piece-square placement.
    pub placement: S,
    /// Pawn structure (doubled, isolated, backward, supported).
    pub pawns: S,
    /// Passed pawns.
    pub passed: S,
    /// Mobility.
    pub mobility: S,
    /// Bishop pair and rook files.
    pub pieces: S,
    /// King safety.
    pub king: S,
    /// Pieces attacked by lesser pieces or left hanging.
    pub threats: S,
    /// Tempo (side to move).
    pub tempo: S,
    /// Game phase, 24 (midgame) to 0 (endgame).
    pub phase: i32,
    /// Endgame scale factor out of 64 (drawish material lowers it).
    pub scale: i32,
}

impl Breakdown {
    /// The terms by name, for printing.
    pub fn terms(&self) -> [(&'static str, S); 9] {
        [
            ("Material", self.material),
            ("Placement", self.placement),
            ("Pawn structure", self.pawns),
            ("Passed pawns", self.passed),
            ("Mobility", self.mobility),
            ("Pieces", self.pieces),
            ("King safety", self.king),
            ("Threats", self.threats),
            ("Tempo", self.tempo),
        ]
    }

    /// The sum of the terms, blended by phase and scaled, from White's view.
    pub fn white_score(&self) -> i32 {
        let total = self.terms().iter().fold(S(0, 0), |a, (_, s)| a + *s);
        taper(total, self.phase, self.scale)
    }
}

/// Blends a pair by game phase: `phase` 24 is all midgame, 0 all endgame.
pub fn taper(s: S, phase: i32, scale: i32) -> i32 {
    let eg = s.eg() * scale / 64;
    (s.mg() * phase + eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL
}

/// Steps from the centre: 0 on d4/e4/d5/e5 up to 3 in the corners' rings.
fn centre_distance(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    let df = (2 * f - 7).abs() / 2;
    let dr = (2 * r - 7).abs() / 2;
    df.max(dr)
}

/// The placement bonus of a piece of `kind` on `sq`, seen from its own side (`sq` relative).
pub fn placement(kind: PieceKind, sq: Square) -> S {
    let rank = sq.rank().index();
    let file = sq.file().index();
    let central = CENTRALISATION[kind.index()].times(3 - centre_distance(sq));
    let rim = file == 0 || file == 7 || rank == 0 || rank == 7;
    match kind {
        PieceKind::Pawn => {
            let mut s = PAWN_ADVANCE[rank];
            if file == 3 || file == 4 {
                s += PAWN_CENTER[rank];
            }
            s
        }
        PieceKind::Knight | PieceKind::Bishop => central + if rim { MINOR_RIM } else { S(0, 0) },
        PieceKind::Rook => central + if rank == 6 { ROOK_SEVENTH } else { S(0, 0) },
        PieceKind::Queen => central,
        PieceKind::King => S(KING_FILE_MG[file] + KING_RANK_MG[rank], central.eg()),
    }
}

/// Everything the terms need about one side.
struct SideInfo {
    pawn_attacks: Bitboard,
    king_zone: Bitboard,
}

fn side_info(board: &Board, color: Color) -> SideInfo {
    let king = board.king_square(color);
    SideInfo {
        pawn_attacks: pawn_attacks_set(color, board.pieces_of(color, PieceKind::Pawn)),
        king_zone: king_attacks(king).with(king),
    }
}

fn file_mask(f: usize) -> Bitboard {
    Bitboard(Bitboard::FILE_A.0 << f)
}

fn adjacent_files(f: usize) -> Bitboard {
    let mut m = Bitboard::EMPTY;
    if f > 0 {
        m |= file_mask(f - 1);
    }
    if f < 7 {
        m |= file_mask(f + 1);
    }
    m
}

/// Squares in front of `sq` (towards promotion for `color`) on its file.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let file = file_mask(sq.file().index());
    let r = sq.rank().index();
    let ahead = match color {
        Color::White => Bitboard(if r >= 7 { 0 } else { !0u64 << (8 * (r + 1)) }),
        Color::Black => Bitboard(if r == 0 { 0 } else { !0u64 >> (8 * (8 - r)) }),
    };
    file & ahead
}

fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

/// Squares one side's pieces attack, gathered by `evaluate_side` for the threat terms.
#[derive(Default)]
struct Attacks {
    /// By knights and bishops.
    minor: Bitboard,
    /// By rooks.
    rook: Bitboard,
    /// By any piece, pawns and king included.
    all: Bitboard,
}

/// One side's terms of the hand-crafted evaluation: material and placement, mobility, king
/// safety, pieces, passed pawns and threats.
///
/// Long on purpose: the terms one after another, each a few lines, all reading the attack
/// maps computed once at the top; split, every helper would take the same seven arguments.
fn evaluate_side(
    board: &Board,
    us: Color,
    me: &SideInfo,
    them_info: &SideInfo,
    pawns: &PawnEntry,
    out: &mut Breakdown,
    sign: i32,
) -> Attacks {
    let them = !us;
    let occ = board.occupied();
    let own = board.color(us);
    let our_pawns = board.pieces_of(us, PieceKind::Pawn);
    let their_pawns = board.pieces_of(them, PieceKind::Pawn);
    let add = |acc: &mut S, s: S| *acc += if sign > 0 { s } else { -s };

    let mut phase = 0;
    let table = placement_table();
    for kind in PieceKind::ALL {
        let set = board.pieces_of(us, kind);
        let n = set.count() as i32;
        add(&mut out.material, MATERIAL[kind.index()].times(n));
        phase += PHASE[kind.index()] * n;
        for sq in set {
            add(
                &mut out.placement,
                table[kind.index()][sq.relative(us).index()],
            );
        }
    }
    out.phase += phase;

    // Passed pawns: the pawn-only part comes from the pawn cache; the free path and the
    // kings' distances depend on the other pieces.
    for sq in pawns.passers & our_pawns {
        let rel_rank = sq.rank().relative(us).index();
        let front = front_span(us, sq);
        let mut s = S(0, 0);
        if (front & occ).is_empty() {
            s += PASSED_FREE[rel_rank];
        }
        // The square just ahead of the pawn: the lowest of its front span for White.
        let stop_sq = match us {
            Color::White => front.first(),
            Color::Black => front.last(),
        }
        .unwrap_or(sq);
        let kd =
            distance(board.king_square(them), stop_sq) - distance(board.king_square(us), stop_sq);
        s += S(0, kd * PASSED_KING_DISTANCE * rel_rank as i32 / 2);
        add(&mut out.passed, s);
    }

    // Pieces: mobility, king attacks, rook files.
    let safe = !own & !them_info.pawn_attacks;
    let mut attacks = Attacks {
        all: me.pawn_attacks | king_attacks(board.king_square(us)),
        ..Attacks::default()
    };
    let mut attack_weight = 0;
    let mut attackers = 0;
    for kind in [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        for sq in board.pieces_of(us, kind) {
            let att = match kind {
                PieceKind::Knight => knight_attacks(sq),
                PieceKind::Bishop => bishop_attacks(sq, occ),
                PieceKind::Rook => rook_attacks(sq, occ),
                _ => queen_attacks(sq, occ),
            };
            attacks.all |= att;
            match kind {
                PieceKind::Knight | PieceKind::Bishop => attacks.minor |= att,
                PieceKind::Rook => attacks.rook |= att,
                _ => {}
            }
            let mob = (att & safe).count() as i32 - MOBILITY_BASE[kind.index()];
            add(&mut out.mobility, MOBILITY[kind.index()].times(mob));
            let zone_hits = (att & them_info.king_zone).count() as i32;
            if zone_hits > 0 {
                attackers += 1;
                attack_weight += KING_ATTACK_WEIGHT[kind.index()] * zone_hits;
            }
            if kind == PieceKind::Rook {
                let file = file_mask(sq.file().index());
                if (file & (our_pawns | their_pawns)).is_empty() {
                    add(&mut out.pieces, ROOK_OPEN);
                } else if (file & our_pawns).is_empty() {
                    add(&mut out.pieces, ROOK_SEMI_OPEN);
                }
            }
        }
    }
    if board.pieces_of(us, PieceKind::Bishop).more_than_one() {
        add(&mut out.pieces, BISHOP_PAIR);
    }
    // Our attack on their king counts against them.
    if attackers >= 2 {
        add(
            &mut out.king,
            S(attack_weight * attack_weight * KING_ATTACK_SCALE / 16, 0),
        );
    }

    // Our own king's shelter.
    let king = board.king_square(us);
    let kf = king.file().index();
    let mut shelter = 0;
    for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
        let pawns_on_file = file_mask(f) & our_pawns;
        // The best shield pawn on the file counts, whichever order the squares come in.
        let best = pawns_on_file
            .into_iter()
            .filter_map(|p| {
                let ahead =
                    p.rank().relative(us).index() as i32 - king.rank().relative(us).index() as i32;
                (ahead == 1 || ahead == 2).then(|| PAWN_SHIELD[(ahead - 1) as usize])
            })
            .max();
        let found = best.is_some();
        shelter += best.unwrap_or(0);
        if !found && pawns_on_file.is_empty() {
            shelter += KING_OPEN_FILE;
        }
    }
    add(&mut out.king, S(shelter, 0));
    attacks
}

/// What `us` threatens: their pieces attacked by our pawns or by lesser pieces, and their
/// pieces we attack that nothing defends. Added to `out.threats` with `sign`.
fn threats(
    board: &Board,
    us: Color,
    me: &SideInfo,
    ours: &Attacks,
    theirs: &Attacks,
    out: &mut Breakdown,
    sign: i32,
) {
    let them = !us;
    let pieces = |k: PieceKind| board.pieces_of(them, k);
    let minors = pieces(PieceKind::Knight) | pieces(PieceKind::Bishop);
    let rooks = pieces(PieceKind::Rook);
    let queens = pieces(PieceKind::Queen);
    let non_pawn = minors | rooks | queens;
    let mut s = THREAT_BY_PAWN.times((me.pawn_attacks & non_pawn).count() as i32);
    s += THREAT_BY_MINOR.times((ours.minor & (rooks | queens)).count() as i32);
    s += THREAT_BY_ROOK.times((ours.rook & queens).count() as i32);
    s += HANGING.times((ours.all & non_pawn & !theirs.all).count() as i32);
    out.threats += if sign > 0 { s } else { -s };
}

/// The pawn-only terms of one side: structure, and the rank bonus of its passed pawns.
fn pawn_terms(board: &Board, us: Color, entry: &mut PawnEntry) {
    let them = !us;
    let our_pawns = board.pieces_of(us, PieceKind::Pawn);
    let their_pawns = board.pieces_of(them, PieceKind::Pawn);
    let our_attacks = pawn_attacks_set(us, our_pawns);
    let their_attacks = pawn_attacks_set(them, their_pawns);
    let sign = if us == Color::White { 1 } else { -1 };
    let mut structure = S(0, 0);
    let mut passed = S(0, 0);
    for sq in our_pawns {
        let f = sq.file().index();
        let rel_rank = sq.rank().relative(us).index();
        let front = front_span(us, sq);
        if (front & our_pawns).any() {
            structure += DOUBLED;
        }
        let neighbours = adjacent_files(f) & our_pawns;
        if neighbours.is_empty() {
            structure += ISOLATED;
        } else {
            let one = Bitboard::from_square(sq);
            let stop = if us == Color::White {
                one.north()
            } else {
                one.south()
            };
            let behind_all = neighbours
                .into_iter()
                .all(|n| n.rank().relative(us) > sq.rank().relative(us));
            if behind_all && (stop & their_attacks).any() {
                structure += BACKWARD;
            }
        }
        if our_attacks.has(sq) {
            structure += SUPPORTED;
        }
        let blockers = front | adjacent_span(us, sq);
        if (blockers & their_pawns).is_empty() && (front & our_pawns).is_empty() {
            passed += PASSED[rel_rank];
            entry.passers = entry.passers.with(sq);
        }
    }
    entry.structure += structure.times(sign);
    entry.passed += passed.times(sign);
}

/// The pawn-only part of the evaluation, from White's view: it depends on nothing but the
/// pawns, so the search caches it by pawn structure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnEntry {
    white: Bitboard,
    black: Bitboard,
    /// Doubled, isolated, backward and supported pawns.
    structure: S,
    /// The rank bonus of passed pawns.
    passed: S,
    /// Passed pawns of both colours.
    passers: Bitboard,
}

impl PawnEntry {
    /// Computes the entry for the pawns of `board`.
    fn compute(board: &Board) -> PawnEntry {
        let mut e = PawnEntry {
            white: board.pieces_of(Color::White, PieceKind::Pawn),
            black: board.pieces_of(Color::Black, PieceKind::Pawn),
            ..PawnEntry::default()
        };
        pawn_terms(board, Color::White, &mut e);
        pawn_terms(board, Color::Black, &mut e);
        e
    }
}

/// A cache of pawn-structure evaluations, indexed by the pawns of both sides.
pub struct PawnCache {
    entries: Vec<PawnEntry>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache::new()
    }
}

impl PawnCache {
    const BITS: u32 = 13;

    /// An empty cache (8192 entries, about 400 KiB).
    pub fn new() -> PawnCache {
        PawnCache {
            entries: vec![PawnEntry::default(); 1 << Self::BITS],
        }
    }

    /// The entry for `board`'s pawns, computed on a miss. Entries store both pawn sets, so a
    /// hit is exact, never a collision.
    pub fn probe(&mut self, board: &Board) -> PawnEntry {
        let w = board.pieces_of(Color::White, PieceKind::Pawn);
        let bl = board.pieces_of(Color::Black, PieceKind::Pawn);
        let idx = (board.pawn_key() >> (64 - Self::BITS)) as usize;
        // `idx` < 2^BITS = entries.len() by the shift above.
        let slot = &mut self.entries[idx];
        // The empty board's entry is all zero, which is also what a fresh slot holds.
        if slot.white != w || slot.black != bl {
            *slot = PawnEntry::compute(board);
        }
        *slot
    }
}

/// The placement bonus of every piece kind on every (relative) square, built once.
fn placement_table() -> &'static [[S; 64]; 6] {
    static TABLE: std::sync::OnceLock<[[S; 64]; 6]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[S(0, 0); 64]; 6];
        for kind in PieceKind::ALL {
            for sq in Square::all() {
                t[kind.index()][sq.index()] = placement(kind, sq);
            }
        }
        t
    })
}

/// Squares on the adjacent files in front of `sq` for `color`: enemy pawns there stop a passer.
fn adjacent_span(color: Color, sq: Square) -> Bitboard {
    let f = sq.file().index();
    let mut m = Bitboard::EMPTY;
    for af in [f.wrapping_sub(1), f + 1] {
        if af < 8 {
            if let Some(file) = File::new(af as u8) {
                let s = Square::from_coords(file, sq.rank());
                m |= front_span(color, s);
            }
        }
    }
    m
}

/// Endgame scale (out of 64): lowered when the stronger side cannot win by material alone.
fn endgame_scale(board: &Board, white_eg_ahead: bool) -> i32 {
    let strong = if white_eg_ahead {
        Color::White
    } else {
        Color::Black
    };
    let weak = !strong;
    if board.pieces_of(strong, PieceKind::Pawn).any() {
        return 64;
    }
    let value = |c: Color| -> i32 {
        [
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ]
        .iter()
        .map(|&k| board.pieces_of(c, k).count() as i32 * MATERIAL[k.index()].eg())
        .sum()
    };
    let diff = value(strong) - value(weak);
    if diff <= MATERIAL[PieceKind::Bishop.index()].eg() {
        // A minor piece up (or less) without pawns is usually a draw.
        8
    } else {
        64
    }
}

/// The full breakdown of the evaluation, each term from White's view.
pub fn breakdown(board: &Board) -> Breakdown {
    breakdown_with(board, &PawnEntry::compute(board))
}

fn breakdown_with(board: &Board, pawns: &PawnEntry) -> Breakdown {
    let mut b = Breakdown {
        pawns: pawns.structure,
        passed: pawns.passed,
        ..Breakdown::default()
    };
    let white = side_info(board, Color::White);
    let black = side_info(board, Color::Black);
    let white_attacks = evaluate_side(board, Color::White, &white, &black, pawns, &mut b, 1);
    let black_attacks = evaluate_side(board, Color::Black, &black, &white, pawns, &mut b, -1);
    threats(
        board,
        Color::White,
        &white,
        &white_attacks,
        &black_attacks,
        &mut b,
        1,
    );
    threats(
        board,
        Color::Black,
        &black,
        &black_attacks,
        &white_attacks,
        &mut b,
        -1,
    );
    b.phase = b.phase.min(PHASE_TOTAL);
    b.tempo = if board.side_to_move() == Color::White {
        TEMPO
    } else {
        -TEMPO
    };
    let total = b.terms().iter().fold(S(0, 0), |a, (_, s)| a + *s);
    b.scale = endgame_scale(board, total.eg() > 0);
    b
}
/// The evaluation in centipawns from the side to move's view.
pub fn evaluate(board: &Board) -> i32 {
    from_side_to_move(board, breakdown(board).white_score())
}

/// `evaluate` with the pawn-structure terms taken from (and stored in) `cache`.
pub fn evaluate_cached(board: &Board, cache: &mut PawnCache) -> i32 {
    let pawns = cache.probe(board);
    from_side_to_move(board, breakdown_with(board, &pawns).white_score())
}

fn from_side_to_move(board: &Board, w: i32) -> i32 {
    if board.side_to_move() == Color::White {
        w
    } else {
        -w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        let b = Board::startpos();
        let s = evaluate(&b);
        assert!(s.abs() <= 30, "{s}");
    }

    #[test]
    fn material_matters() {
        let up_a_queen =
            Board::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(evaluate(&up_a_queen) > 700);
        let mirrored = up_a_queen.mirrored();
        assert_eq!(evaluate(&mirrored), evaluate(&up_a_queen));
    }

    #[test]
    fn passed_pawns_count() {
        let passer = Board::from_fen("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(breakdown(&passer).passed.eg() > 0);
        let blocked = Board::from_fen("4k3/3p4/8/3P4/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(breakdown(&blocked).passed, S(0, 0));
    }

    #[test]
    fn pawn_cache_agrees_with_a_fresh_evaluation() {
        // One shared cache over a two-ply tree: many hits, some slots overwritten.
        let mut cache = PawnCache::new();
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let root = Board::from_fen(fen).unwrap();
            for m in root.legal_moves().iter() {
                let b1 = root.make_move(*m);
                assert_eq!(evaluate_cached(&b1, &mut cache), evaluate(&b1));
                for m2 in b1.legal_moves().iter() {
                    let b2 = b1.make_move(*m2);
                    assert_eq!(
                        evaluate_cached(&b2, &mut cache),
                        evaluate(&b2),
                        "{}",
                        b2.to_fen()
                    );
                }
            }
        }
    }
}
