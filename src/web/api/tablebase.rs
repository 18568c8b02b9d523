//! `GET /api/tablebase?fen=`: what the server's Syzygy tables say of a position and of each of
//! its moves, for the page's tablebase panel (as lichess's shows: win, draw or loss, and the
//! distance to zeroing, best move first).

use super::{bad, parse_fen, ApiResult, Shared};
use crate::chess::Board;
use crate::syzygy::{Tablebases, Wdl};
use axum::extract::rejection::QueryRejection;
use axum::extract::Query;
use axum::Json;
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub(super) struct TablebaseQuery {
    fen: String,
}

/// The tables' verdict on a position.
#[derive(Serialize, Debug)]
pub(super) struct TablebaseView {
    /// The most pieces the server's tables hold: the page asks only about positions with as
    /// few.
    max_pieces: usize,
    /// Whether the tables answer for this position (few enough pieces, no castling rights).
    covered: bool,
    /// `win`, `cursed-win`, `draw`, `blessed-loss` or `loss`, for the side to move.
    #[serde(skip_serializing_if = "Option::is_none")]
    wdl: Option<&'static str>,
    /// Plies to the next capture or pawn move with best play (positive: the side to move
    /// wins), when the DTZ tables are there.
    #[serde(skip_serializing_if = "Option::is_none")]
    dtz: Option<i32>,
    /// `checkmate` or `stalemate` when the game is over here.
    #[serde(skip_serializing_if = "Option::is_none")]
    over: Option<&'static str>,
    /// Every legal move, best first for the side to move.
    moves: Vec<TablebaseMove>,
}

/// One move and where it leads.
#[derive(Serialize, Debug)]
pub(super) struct TablebaseMove {
    uci: String,
    san: String,
    /// The result for the side that plays it: `win` … `loss`.
    wdl: &'static str,
    /// Plies from before the move to the next zeroing move with best play, positive when
    /// the mover wins (as lichess's tablebase counts); `null` without DTZ tables.
    dtz: Option<i32>,
    /// The move mates.
    checkmate: bool,
    /// The move captures or moves a pawn (so it resets the 50-move count).
    zeroing: bool,
}

/// The name the page shows for a result.
fn wdl_name(w: Wdl) -> &'static str {
    match w {
        Wdl::Win => "win",
        Wdl::CursedWin => "cursed-win",
        Wdl::Draw => "draw",
        Wdl::BlessedLoss => "blessed-loss",
        Wdl::Loss => "loss",
    }
}

/// The same result for the other side.
fn flip(w: Wdl) -> Wdl {
    match w {
        Wdl::Win => Wdl::Loss,
        Wdl::CursedWin => Wdl::BlessedLoss,
        Wdl::Draw => Wdl::Draw,
        Wdl::BlessedLoss => Wdl::CursedWin,
        Wdl::Loss => Wdl::Win,
    }
}

/// A win or loss the 50-move rule spoils from here: `plies` to the next capture or pawn move
/// with best play, on top of the `clock` already run, pass the rule's 100 plies.
fn under_rule50(w: Wdl, plies: Option<i32>, clock: i32) -> Wdl {
    match (w, plies) {
        (Wdl::Win, Some(d)) if d.abs() + clock > 100 => Wdl::CursedWin,
        (Wdl::Loss, Some(d)) if d.abs() + clock > 100 => Wdl::BlessedLoss,
        _ => w,
    }
}

/// What `tables` say of `board`; `covered: false` when they cannot say (too many pieces,
/// castling rights, a table missing). Results count the 50-move rule from the position's own
/// counter: a table win that the counter leaves too few plies for reads as a cursed win.
pub(super) fn view(tables: &Tablebases, board: &Board) -> TablebaseView {
    let mut out = TablebaseView {
        max_pieces: tables.max_pieces(),
        covered: false,
        wdl: None,
        dtz: None,
        over: None,
        moves: Vec::new(),
    };
    let legal = board.legal_moves();
    if legal.is_empty() {
        // Mate and stalemate need no table, but are only shown where the tables would be.
        if tables.covers(board) {
            out.covered = true;
            let mated = board.in_check();
            out.over = Some(if mated { "checkmate" } else { "stalemate" });
            out.wdl = Some(wdl_name(if mated { Wdl::Loss } else { Wdl::Draw }));
        }
        return out;
    }
    let Some(wdl) = tables.probe_wdl(board) else {
        return out;
    };
    let clock = i32::from(board.halfmove_clock());
    // Without the 50-move rule's ranks the order would not tell a quick win from a slow one.
    let ranking = tables.rank_root_moves(board, true, false);
    let mut moves = Vec::with_capacity(legal.len());
    for &mv in legal.iter() {
        let child = board.make_move(mv);
        let Some(child_wdl) = tables.probe_wdl(&child).or_else(|| {
            // The child may be mate or stalemate, which the tables need not store.
            child.legal_moves().is_empty().then(|| {
                if child.in_check() {
                    Wdl::Loss
                } else {
                    Wdl::Draw
                }
            })
        }) else {
            // A table missing for a capture's material: the answer would be partial.
            return out;
        };
        let ranked = ranking
            .as_ref()
            .filter(|r| r.by_dtz)
            .and_then(|r| r.moves.iter().find(|m| m.mv == mv));
        let child_wdl = if child.halfmove_clock() == 0 {
            child_wdl
        } else {
            // The mover's result under the rule, counted from before the move.
            flip(under_rule50(flip(child_wdl), ranked.map(|m| m.dtz), clock))
        };
        moves.push((
            ranked.map_or(0, |m| m.rank),
            TablebaseMove {
                uci: board.uci_move(mv, false),
                san: board.san(mv),
                wdl: wdl_name(flip(child_wdl)),
                dtz: ranked.map(|m| m.dtz),
                checkmate: child.is_checkmate(),
                zeroing: child.halfmove_clock() == 0,
            },
            flip(child_wdl),
        ));
    }
    // Best first: the better result; among wins the shortest way to zeroing (mates first),
    // among losses the longest; the tables' rank orders by the 50-move rule as well.
    moves.sort_by_key(|(rank, m, w)| {
        let dtz = m.dtz.unwrap_or(0);
        let within = if *w > Wdl::Draw {
            i32::from(!m.checkmate) * 10_000 + dtz.abs()
        } else {
            -dtz.abs()
        };
        (std::cmp::Reverse(*w), std::cmp::Reverse(*rank), within)
    });
    out.covered = true;
    out.dtz = ranking
        .filter(|r| r.by_dtz)
        .and_then(|_| tables.probe_dtz(board));
    out.wdl = Some(wdl_name(under_rule50(wdl, out.dtz, clock)));
    out.moves = moves.into_iter().map(|(_, m, _)| m).collect();
    out
}

/// `GET /api/tablebase?fen=`: the tables' verdict on the position and its moves. A server
/// started without `--syzygy` answers `max_pieces: 0, covered: false`: the page asks once, and
/// a missing feature is not an error for its console.
pub(super) async fn tablebase(
    state: Shared,
    query: Result<Query<TablebaseQuery>, QueryRejection>,
) -> ApiResult<TablebaseView> {
    let Query(q) = query?;
    // A FEN is under 100 bytes; a longer one is not worth parsing.
    if q.fen.len() > 200 {
        return Err(bad("bad FEN: longer than any position's"));
    }
    let board = parse_fen(&q.fen)?;
    Ok(Json(match state.tablebases.as_ref() {
        Some(tables) => {
            // Waiting for the turn is async; the probe itself holds this worker thread.
            let _turn = state
                .tablebase_turn
                .acquire()
                .await
                .map_err(|_| super::ApiError::internal("the tablebase queue is closed"))?;
            view(tables, &board)
        }
        None => TablebaseView {
            max_pieces: 0,
            covered: false,
            wdl: None,
            dtz: None,
            over: None,
            moves: Vec::new(),
        },
    }))
}
