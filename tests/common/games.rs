//! Games the server tests play or analyse (shared by tests/web.rs and tests/web_server.rs).

use fianchetto::chess::{Board, Game};
use fianchetto::rand::SplitMix;

/// A game of `plies` moves none of whose positions is over by rule (mate, stalemate, too little
/// material, a threefold repetition or fifty moves), so that its analysis searches every
/// position for its whole movetime. ("1. Nf3 Nf6 2. Ng1 Ng8" repeated is over by repetition
/// from its ninth position on, and those positions are answered without a search.) The moves
/// are picked among the legal ones by a fixed pseudo-random rule.
pub fn long_game(plies: usize) -> String {
    let mut game = Game::new(Board::startpos());
    let mut rng = SplitMix::new(0x2545_f491_4f6c_dd1d);
    while game.moves().len() < plies {
        let legal = game.board().legal_moves();
        let n = legal.len();
        let first = rng.below(n as u64) as usize;
        let playable = (0..n)
            .map(|k| legal[(k + first) % n])
            .find(|&m| {
                game.push(m).expect("a legal move");
                let over = game.outcome().is_some();
                game.pop();
                !over
            })
            .expect("a move that does not end the game");
        game.push(playable).expect("a legal move");
    }
    game.san_moves()
}
