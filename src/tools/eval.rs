//! `eval`: the evaluation of a position: the network's score with what each piece contributes,
//! and the hand-crafted evaluation term by term.

use crate::chess::{Board, Color, File, Rank, Square};
use crate::eval::nnue::{piece_contributions, Network};
use crate::eval::{breakdown, evaluate, taper};

/// The report: with a network, its score and a board of piece contributions first; then the
/// hand-crafted breakdown (White's view) with its total from both views.
pub fn report(board: &Board, net: Option<&Network>) -> String {
    let mut s = String::new();
    if let Some(net) = net {
        s.push_str(&network_report(board, net));
        s.push('\n');
    }
    s.push_str(&hand_crafted_report(board));
    s
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The network's view: each piece's value (the evaluation minus the evaluation without it, in
/// pawns, White's view) on a board, then the total.
fn network_report(board: &Board, net: &Network) -> String {
    let contrib = piece_contributions(net, board);
    let mut s = format!(
        "NNUE ({}) piece values, pawns, White's view (the evaluation minus the evaluation without the piece):\n",
        net.describe()
    );
    let sep = format!("{}+\n", "+--------".repeat(8));
    s.push_str(&sep);
    for rank in Rank::all().rev() {
        let mut pieces = String::new();
        let mut values = String::new();
        for file in File::all() {
            let sq = Square::from_coords(file, rank);
            let p = board.piece_at(sq);
            pieces.push_str(&format!("|    {}   ", p.map_or(' ', |p| p.fen_char())));
            let v = contrib.iter().find(|(q, _, _)| *q == sq).map(|c| c.2);
            values.push_str(&match v {
                Some(v) => format!("| {:+6.2} ", v as f64 / 100.0),
                None => "|        ".to_string(),
            });
        }
        s.push_str(&format!("{pieces}|\n{values}|\n{sep}"));
    }
    let stm = net.evaluate(board);
    let us = board.side_to_move();
    let white = if us == Color::White { stm } else { -stm };
    s.push_str(&format!(
        "NNUE evaluation: {:+.2} (White's view), {stm} cp for the side to move ({})\n",
        white as f64 / 100.0,
        side_name(us)
    ));
    s
}

/// The hand-crafted evaluation term by term.
fn hand_crafted_report(board: &Board) -> String {
    let b = breakdown(board);
    let mut s = String::new();
    s.push_str("Hand-crafted term |   MG    EG  | blended (White's view, cp)\n");
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
    s.push_str(&format!(
        "Total (side to move, {}): {stm} cp\n",
        side_name(board.side_to_move())
    ));
    s
}
