//! `eval`: the evaluation of a position: the network's score with what each piece contributes,
//! and the hand-crafted evaluation term by term.

use crate::chess::{Board, Color, File, Rank, Square};
use crate::chess::{Piece, PieceKind};
use crate::command::{board_or_start, BadFen, Outcome};
use crate::eval::nnue::{output_bucket, Accumulator, Network};
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

/// Each piece's contribution to the evaluation (White's view, centipawns): the evaluation minus
/// the evaluation without that piece, as Stockfish's `eval` shows it. Kings are not removable.
pub fn piece_contributions(net: &Network, board: &Board) -> Vec<(Square, Piece, i32)> {
    let white = |b: &Board| {
        let e = net.evaluate(b);
        if b.side_to_move() == Color::White {
            e
        } else {
            -e
        }
    };
    let base = white(board);
    let mut out = Vec::new();
    for sq in Square::all() {
        let Some(p) = board.piece_at(sq) else {
            continue;
        };
        if p.kind == PieceKind::King {
            continue;
        }
        let acc = Accumulator::refresh_without(net, board, sq);
        let us = board.side_to_move();
        let bucket = output_bucket(board.occupied().count() - 1, net.buckets());
        let e = net.output(acc.side(us), acc.side(!us), bucket);
        let e = if us == Color::White { e } else { -e };
        out.push((sq, p, base - e));
    }
    out
}

/// The `eval` command's flags.
#[derive(Debug, Clone, clap::Args)]
pub struct EvalFlags {
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// A net file to use instead of the embedded one.
    #[arg(long)]
    pub net: Option<String>,
}

/// Why `eval` could not report.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The net file could not be loaded.
    #[error("{path}: {source}")]
    Net {
        /// The file.
        path: String,
        /// Why.
        source: crate::eval::nnue::NetError,
    },
    /// The `--fen` position is not valid.
    #[error(transparent)]
    Fen(#[from] BadFen),
}

/// The `eval` command: the report for the position, through `out`.
pub fn command(flags: EvalFlags, out: &mut dyn FnMut(&str)) -> Result<Outcome, EvalError> {
    let net = match flags.net {
        Some(path) => match Network::load(&path) {
            Ok(n) => std::sync::Arc::new(n),
            Err(source) => return Err(EvalError::Net { path, source }),
        },
        None => crate::eval::nnue::default_net(),
    };
    let board = board_or_start(flags.fen.as_deref())?;
    for line in report(&board, Some(&net)).lines() {
        out(line);
    }
    Ok(Outcome::Success)
}
