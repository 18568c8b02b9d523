//! Perft: counting the leaf nodes of the legal move tree, the standard move-generator check.

use super::board::Board;
use super::moves::Move;
use thiserror::Error;

/// Leaf nodes at `depth`, bulk-counted at the last ply.
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_legal_moves(),
        _ => {
            // Visiting moves as they are generated saves building a list at every inner node.
            let mut total = 0;
            board.for_each_legal_move(|m| total += perft(&board.make_move(m), depth - 1));
            total
        }
    }
}

/// Perft that gives up (`None`) soon after `stopped` says so; it is asked at nodes three or
/// more plies from the leaves, often enough to stop within milliseconds and rarely enough to
/// cost nothing measurable.
pub fn perft_until(board: &Board, depth: u32, stopped: &dyn Fn() -> bool) -> Option<u64> {
    if depth < 3 {
        return Some(perft(board, depth));
    }
    if stopped() {
        return None;
    }
    let mut total = Some(0u64);
    board.for_each_legal_move(|m| {
        if let Some(t) = total {
            total = perft_until(&board.make_move(m), depth - 1, stopped).map(|n| t + n);
        }
    });
    total
}

/// Perft per root move, in generation order.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    board
        .legal_moves()
        .iter()
        .map(|&m| (m, perft(&board.make_move(m), depth.saturating_sub(1))))
        .collect()
}

/// Perft that splits the root moves over `threads` threads.
pub fn perft_parallel(board: &Board, depth: u32, threads: usize) -> u64 {
    if depth < 2 || threads <= 1 {
        return perft(board, depth);
    }
    let moves: Vec<Move> = board.legal_moves().iter().copied().collect();
    let chunk = moves.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = moves
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|&m| perft(&board.make_move(m), depth - 1))
                        .sum::<u64>()
                })
            })
            .collect();
        // A perft thread only counts; it cannot panic unless the generator has a bug, which
        // we would rather surface loudly than hide as a wrong count.
        handles
            .into_iter()
            .map(|h| h.join().expect("perft thread"))
            .sum()
    })
}

/// The incremental hash disagreed with a full recomputation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("hash mismatch after {mv} from {fen}: incremental {incremental:016x}, recomputed {recomputed:016x}")]
pub struct HashMismatch {
    /// The position before the move.
    pub fen: String,
    /// The move played.
    pub mv: Move,
    /// The hash `make_move` produced.
    pub incremental: u64,
    /// The hash computed from scratch.
    pub recomputed: u64,
}

/// Perft that recomputes the hash after every move and fails on the first mismatch.
pub fn perft_check_hash(board: &Board, depth: u32) -> Result<u64, HashMismatch> {
    if depth == 0 {
        return Ok(1);
    }
    let mut total = 0;
    for &m in board.legal_moves().iter() {
        let next = board.make_move(m);
        let recomputed = next.compute_hash();
        if next.hash() != recomputed {
            return Err(HashMismatch {
                fen: board.to_fen(),
                mv: m,
                incremental: next.hash(),
                recomputed,
            });
        }
        total += perft_check_hash(&next, depth - 1)?;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_shallow() {
        let b = Board::startpos();
        assert_eq!(perft(&b, 1), 20);
        assert_eq!(perft(&b, 3), 8902);
        assert_eq!(perft_check_hash(&b, 3), Ok(8902));
        assert_eq!(perft_parallel(&b, 4, 2), 197_281);
        assert_eq!(divide(&b, 2).iter().map(|d| d.1).sum::<u64>(), 400);
    }
}
