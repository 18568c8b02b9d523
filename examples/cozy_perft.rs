//! Times cozy-chess perft, for the speed table in docs/measurements.md: `cargo run --release --example cozy_perft -- DEPTH [FEN]`.

use std::time::Instant;

fn perft(board: &cozy_chess::Board, depth: u32) -> u64 {
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(6);
    let board = match args.get(2) {
        Some(fen) => cozy_chess::Board::from_fen(fen, false).expect("valid FEN"),
        None => cozy_chess::Board::default(),
    };
    let start = Instant::now();
    let nodes = perft(&board, depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "cozy-chess perft {depth}: {nodes} nodes {secs:.3}s ({:.1} Mnps)",
        nodes as f64 / secs / 1e6
    );
}
