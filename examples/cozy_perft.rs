//! Times cozy-chess perft, for the speed table in docs/measurements.md: `cargo run --release --example cozy_perft -- DEPTH [FEN]`.

#[path = "../benches/common/cozy.rs"]
mod cozy;

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(6);
    let board = match args.get(2) {
        Some(fen) => match cozy_chess::Board::from_fen(fen, false) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("cozy_perft: bad FEN {fen:?}: {e:?}");
                std::process::exit(2);
            }
        },
        None => cozy_chess::Board::default(),
    };
    let start = Instant::now();
    let nodes = cozy::perft(&board, depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "cozy-chess perft {depth}: {nodes} nodes {secs:.3}s ({:.1} Mnps)",
        nodes as f64 / secs / 1e6
    );
}
