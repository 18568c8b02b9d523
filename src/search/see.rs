//! Static exchange evaluation: the material result of a capture sequence on one square.

use crate::chess::attacks::{bishop_attacks, rook_attacks};
use crate::chess::{Bitboard, Board, Move, PieceKind};

/// Piece values used by SEE and move ordering.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// Whether the exchange started by `m` gains at least `threshold` centipawns for the mover.
pub fn see_ge(board: &Board, m: Move, threshold: i32) -> bool {
    if m.is_castle() {
        return 0 >= threshold;
    }
    let (from, to) = (m.from(), m.to());
    let mut gain = if m.is_en_passant() {
        SEE_VALUE[0]
    } else {
        board.piece_at(to).map_or(0, |p| SEE_VALUE[p.kind.index()])
    };
    let mut next_victim = board.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
    if let Some(p) = m.promotion() {
        gain += SEE_VALUE[p.index()] - SEE_VALUE[0];
        next_victim = p;
    }
    // After our capture the balance is `gain`; if even losing the capturer keeps us at the
    // threshold we are done, and if we are below it already we fail.
    let mut balance = gain - threshold;
    if balance < 0 {
        return false;
    }
    balance -= SEE_VALUE[next_victim.index()];
    if balance >= 0 {
        return true;
    }
    let mut occ = board.occupied().without(from).with(to);
    if m.is_en_passant() {
        occ = occ.without(crate::chess::Square::from_coords(to.file(), from.rank()));
    }
    let bishops = board.pieces(PieceKind::Bishop) | board.pieces(PieceKind::Queen);
    let rooks = board.pieces(PieceKind::Rook) | board.pieces(PieceKind::Queen);
    let mut attackers = board.attackers_to(to, occ) & occ;
    let mut side = !board.side_to_move();
    loop {
        let ours = attackers & board.color(side);
        if ours.is_empty() {
            break;
        }
        // The least valuable attacker captures next.
        let mut kind = PieceKind::King;
        let mut sq_bb = Bitboard::EMPTY;
        for k in PieceKind::ALL {
            let set = ours & board.pieces(k);
            if let Some(s) = set.first() {
                kind = k;
                sq_bb = Bitboard::from_square(s);
                break;
            }
        }
        side = !side;
        balance = -balance - 1 - SEE_VALUE[kind.index()];
        if balance >= 0 {
            // A king may only capture last: if the other side still has attackers, it cannot.
            if kind == PieceKind::King && (attackers & board.color(side) & occ & !sq_bb).any() {
                side = !side;
            }
            break;
        }
        occ ^= sq_bb;
        if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
            attackers |= bishop_attacks(to, occ) & bishops;
        }
        if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
            attackers |= rook_attacks(to, occ) & rooks;
        }
        attackers &= occ;
    }
    side != board.side_to_move()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, t: i32) -> bool {
        let b = Board::from_fen(fen).unwrap();
        see_ge(&b, b.parse_uci(mv).unwrap(), t)
    }

    #[test]
    fn exchanges() {
        // Pawn takes undefended knight.
        assert!(see("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 300));
        // Queen takes pawn defended by pawn: loses.
        assert!(!see("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5", 0));
        // Rook takes rook defended by rook, backed by our rook: even.
        assert!(see("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 0));
        assert!(!see("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 1));
        // A quiet knight move to a square a pawn attacks loses the knight.
        assert!(!see("4k3/8/3p4/8/4N3/8/8/4K3 w - - 0 1", "e4c5", 0));
    }
}
