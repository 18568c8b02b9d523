//! cozy-chess's perft, written the way its own benchmark does (bulk counting at the last ply),
//! shared by the `movegen` benchmark and the `cozy_perft` example.

/// The number of leaf nodes `depth` plies below `board`, by cozy-chess's move generator.
pub fn perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}
