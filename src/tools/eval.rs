//! `eval`: the evaluation of a position, term by term.

use crate::chess::{Board, Color};
use crate::eval::{breakdown, evaluate, taper};

/// The breakdown as a table, from White's view, with the final score from both views.
pub fn report(board: &Board) -> String {
    let b = breakdown(board);
    let mut s = String::new();
    s.push_str("Term              |   MG    EG  | blended (White's view, cp)\n");
    s.push_str("------------------+-------------+-----------\n");
    for (name, v) in b.terms() {
        s.push_str(&format!(
            "{name:<18}| {:>5} {:>5} | {:>6}\n",
            v.mg(),
            v.eg(),
            taper(v, b.phase, b.scale)
        ));
    }
    s.push_str("------------------+-------------+-----------\n");
    s.push_str(&format!(
        "Phase {} / 24, endgame scale {} / 64\n",
        b.phase, b.scale
    ));
    let white = b.white_score();
    s.push_str(&format!(
        "Total (White's view): {:+.2}\n",
        white as f64 / 100.0
    ));
    let stm = evaluate(board);
    let side = if board.side_to_move() == Color::White {
        "White"
    } else {
        "Black"
    };
    s.push_str(&format!("Total (side to move, {side}): {stm} cp\n"));
    s
}
