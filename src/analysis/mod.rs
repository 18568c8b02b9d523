//! Game analysis as lichess does it: every position of a game searched, each move judged by how
//! much winning chance it gave away, per-player accuracy, an annotated PGN, JSON and a graph.
//!
//! The work is split in three: [`analyse_positions`] searches (the only slow part, on one or
//! more threads), [`GameReport::new`] applies lichess's formulas to the evaluations, and
//! [`annotate`] / [`graph`] turn a report into PGN or a picture.

pub mod graph;
pub mod lichess;
pub mod openings;
pub mod run;

use crate::chess::pgn::{PgnGame, PgnMove, Variation};
use crate::chess::{Board, Color, Game, Move, Outcome};
use crate::search::{Limits, Report, Score, Searcher};
use lichess::{Advice, Eval, Judgement};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// How to analyse.
#[derive(Clone, Debug)]
pub struct Options {
    /// The limit of each position's search (depth, nodes or movetime; `multipv` lines).
    pub limits: Limits,
    /// Searches run at once, each on its own stretch of the game with its own hash table.
    pub threads: usize,
    /// Hash table of each searcher, MiB.
    pub hash_mib: usize,
    /// The evaluation: a network, or `None` for the hand-crafted one.
    pub net: Option<Arc<crate::eval::nnue::Network>>,
    /// Endgame tablebases: positions they hold are judged by them.
    pub tablebases: Option<crate::search::TablebaseConfig>,
}

/// Nodes per position when no limit is given: the smallest budget measured to meet precision
/// and recall 0.75 / 0.80 against Stockfish 15.1 at depth 20 with margin (0.85 / 0.85 on the 26
/// games of `tests/data/ladder.pgn`, `scripts/agreement.py`; depth 12 gave 0.81 / 0.82) while a
/// 90-move game takes about a minute on two cores (docs/measurements.md, the analysis tables).
pub const DEFAULT_NODES: u64 = 1_000_000;

/// Searchers `analyze` runs when not told: one per core, as the stretches of a game are
/// independent work (measured faster than one Lazy SMP searcher with every thread, see docs/measurements.md).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(256))
}

/// One line of a position's analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line's evaluation, White's view.
    pub eval: Eval,
    /// Its moves, from the position.
    pub moves: Vec<Move>,
}

/// What the search found in one position of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionInfo {
    /// The position's evaluation with best play, White's view.
    pub eval: Eval,
    /// The best lines, best first (empty when the game is over in this position).
    pub lines: Vec<Line>,
    /// The depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

fn to_eval(score: Score, side: Color) -> Eval {
    match score.mate_moves() {
        Some(n) => {
            let mover_mates = n > 0;
            let winner = if mover_mates { side } else { !side };
            Eval::Mate {
                winner,
                moves: n.unsigned_abs(),
            }
        }
        // A tablebase win or loss is as decided as a mate without a distance: the most
        // centipawns the formulas count (lichess's ceiling).
        None if score.is_decisive() => Eval::Cp(match (side, score.0 > 0) {
            (Color::White, true) | (Color::Black, false) => lichess::CP_CEILING,
            _ => -lichess::CP_CEILING,
        }),
        None => Eval::Cp(match side {
            Color::White => score.0,
            Color::Black => -score.0,
        }),
    }
}

/// The evaluation of a position where the game has ended, without searching.
fn final_eval(game: &Game) -> Option<Eval> {
    match game.outcome()? {
        Outcome::Checkmate { winner } => Some(Eval::Mate { winner, moves: 0 }),
        _ => Some(Eval::Cp(0)),
    }
}

/// Searches one position: the end of `game`, whose earlier positions count for repetitions.
pub fn analyse_position(searcher: &mut Searcher, game: &Game, limits: &Limits) -> PositionInfo {
    if let Some(eval) = final_eval(game) {
        return PositionInfo {
            eval,
            lines: Vec::new(),
            depth: 0,
            nodes: 0,
        };
    }
    let side = game.board().side_to_move();
    let multipv = limits.multipv.max(1);
    let mut last: Vec<Option<(u32, Score, Vec<Move>)>> = vec![None; multipv];
    let result = searcher.search(game, limits, &mut |r| {
        if let Report::Iteration(info) = r {
            if info.bound.is_none() && (1..=multipv).contains(&info.multipv) && !info.pv.is_empty()
            {
                last[info.multipv - 1] = Some((info.depth, info.score, info.pv.clone()));
            }
        }
    });
    let mut lines = vec![Line {
        eval: to_eval(result.score, side),
        moves: result.pv.clone(),
    }];
    if lines[0].moves.is_empty() {
        lines[0].moves.extend(result.best);
    }
    // Further lines from the deepest iteration that reported them.
    for (score, pv) in last.iter().skip(1).flatten().map(|(_, s, pv)| (s, pv)) {
        if pv.first() != lines[0].moves.first() {
            lines.push(Line {
                eval: to_eval(*score, side),
                moves: pv.clone(),
            });
        }
    }
    PositionInfo {
        eval: lines[0].eval,
        lines,
        depth: result.depth,
        nodes: result.nodes,
    }
}

/// Searches every position of the game's main line (start, and after each move). Positions are
/// cut into `threads` stretches, each analysed from its end backwards with one searcher whose
/// hash is kept, so that what a later position taught is found again earlier. `progress` is
/// called after each position; `stop` ends the work early, leaving `None` where nothing was
/// found.
pub fn analyse_positions(
    game: &PgnGame,
    opts: &Options,
    stop: &AtomicBool,
    controls: &Mutex<Vec<Arc<crate::search::SearchControl>>>,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Option<PositionInfo>> {
    analyse_positions_with(game, opts, &mut Vec::new(), stop, controls, &|_, _| {
        progress(1)
    })
}

/// [`analyse_positions`] with searchers kept by the caller from game to game: making one
/// (allocating and faulting in its hash) costs more than analysing a short game, which a file
/// of many small games felt (1,323 games took 42 s, nearly all of it allocating). They are
/// cleared before each game, so that every game is analysed as if alone; missing ones are made.
/// `found(ply, info)` hears of each position as it is analysed (the page draws its graph as
/// they come).
pub fn analyse_positions_with(
    game: &PgnGame,
    opts: &Options,
    searchers: &mut Vec<Searcher>,
    stop: &AtomicBool,
    controls: &Mutex<Vec<Arc<crate::search::SearchControl>>>,
    found: &(dyn Fn(usize, &PositionInfo) + Sync),
) -> Vec<Option<PositionInfo>> {
    let line = game.main_line();
    let n = line.moves().len() + 1;
    let threads = opts.threads.clamp(1, 256).min(n);
    while searchers.len() < threads {
        let mut searcher = Searcher::new(opts.hash_mib.max(1));
        searcher.set_net(opts.net.clone());
        searchers.push(searcher);
    }
    for s in searchers.iter_mut() {
        s.tablebases = opts.tablebases.clone();
    }
    let results: Mutex<Vec<Option<PositionInfo>>> = Mutex::new(vec![None; n]);
    let chunk = n.div_ceil(threads);
    // One stretch, positions `lo..hi`, analysed from its end backwards by `searcher`.
    let stretch = |searcher: &mut Searcher, lo: usize, hi: usize| {
        searcher.clear();
        let control = searcher.control();
        control.reset();
        if let Ok(mut c) = controls.lock() {
            c.push(control);
        }
        for ply in (lo..hi).rev() {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let mut g = Game::new(*line.start());
            for &m in &line.moves()[..ply] {
                // A prefix of a game whose moves were all legal (or passes not in check).
                g.push_or_pass(m).expect("moves of a read game are legal");
            }
            let info = analyse_position(searcher, &g, &opts.limits);
            // A search cut short by Ctrl-C is incomplete: leave the position unknown.
            if stop.load(Ordering::Relaxed) {
                break;
            }
            found(ply, &info);
            if let Ok(mut r) = results.lock() {
                r[ply] = Some(info);
            }
        }
    };
    if threads == 1 {
        // On the caller's thread: the web server calls this from its pool of blocking threads,
        // and a new thread per analysis left its touched stack in glibc's cache of thread
        // stacks (a soak's resident memory grew by it).
        stretch(&mut searchers[0], 0, n);
    } else {
        std::thread::scope(|scope| {
            for (t, searcher) in searchers.iter_mut().take(threads).enumerate() {
                let (lo, hi) = (t * chunk, ((t + 1) * chunk).min(n));
                let stretch = &stretch;
                scope.spawn(move || stretch(searcher, lo, hi));
            }
        });
    }
    results.into_inner().unwrap_or_default()
}

/// One move's analysis.
#[derive(Clone, Debug, Serialize)]
pub struct MoveReport {
    /// Half-move index from the start of the game, 1-based.
    pub ply: usize,
    /// The move number as PGN writes it.
    pub number: u16,
    /// `white` or `black`.
    pub color: &'static str,
    /// The move played, SAN.
    pub san: String,
    /// The move played, UCI.
    pub uci: String,
    /// Evaluation before the move (best play), White's view, in pawns or `#n`.
    pub eval_before: Option<String>,
    /// Evaluation after the move, White's view.
    pub eval_after: Option<String>,
    /// Centipawns before, White's view, capped at ±1000 (a mate counts as ±1000).
    pub cp_before: Option<i32>,
    /// Centipawns after, White's view, capped.
    pub cp_after: Option<i32>,
    /// The mover's win percentage before the move.
    pub win_before: Option<f64>,
    /// The mover's win percentage after the move.
    pub win_after: Option<f64>,
    /// lichess's move accuracy, 0–100.
    pub accuracy: Option<f64>,
    /// Centipawns lost (capped scores).
    pub cp_loss: Option<i32>,
    /// `inaccuracy`, `mistake`, `blunder` or none.
    pub judgement: Option<&'static str>,
    /// The comment lichess writes for a judged move.
    pub comment: Option<String>,
    /// The engine's best move in the position before, SAN.
    pub best: Option<String>,
    /// The engine's principal variation from the position before, SAN.
    pub best_line: Vec<String>,
    /// Further lines (MultiPV) from the position before: evaluation and SAN moves.
    pub other_lines: Vec<(String, Vec<String>)>,
    /// Depth of the search before the move.
    pub depth: Option<u32>,
    #[serde(skip)]
    advice: Option<Advice>,
    #[serde(skip)]
    before: Option<Eval>,
    #[serde(skip)]
    after: Option<Eval>,
    #[serde(skip)]
    mover: Color,
    #[serde(skip)]
    best_move: Option<Move>,
    #[serde(skip)]
    best_pv: Vec<Move>,
}

/// A player's summary.
#[derive(Clone, Debug, Serialize, Default)]
pub struct PlayerReport {
    /// The name from the tags.
    pub name: String,
    /// lichess game accuracy, 0–100.
    pub accuracy: Option<f64>,
    /// Average centipawn loss.
    pub acpl: Option<f64>,
    /// Moves judged inaccuracies.
    pub inaccuracies: u32,
    /// Moves judged mistakes.
    pub mistakes: u32,
    /// Moves judged blunders.
    pub blunders: u32,
}

impl PlayerReport {
    /// `1 inaccuracy, 0 mistakes, 2 blunders`.
    pub fn counts(&self) -> String {
        let n = |k: u32, one: &str| format!("{k} {one}{}", if k == 1 { "" } else { "s" });
        let inacc = match self.inaccuracies {
            1 => "1 inaccuracy".to_string(),
            k => format!("{k} inaccuracies"),
        };
        format!(
            "{inacc}, {}, {}",
            n(self.mistakes, "mistake"),
            n(self.blunders, "blunder")
        )
    }
}

/// A whole game's analysis.
#[derive(Clone, Debug, Serialize)]
pub struct GameReport {
    /// The game's number in its file, 1-based.
    pub game: usize,
    /// The start position.
    pub start_fen: String,
    /// The result marker.
    pub result: String,
    /// The opening (ECO code and lichess's name) of the deepest named position reached.
    pub opening: Option<openings::Opening>,
    /// Whether every position was analysed (false after Ctrl-C).
    pub complete: bool,
    /// Evaluations of every position, White's view (start, then after each move).
    pub evals: Vec<Option<String>>,
    /// Per move.
    pub moves: Vec<MoveReport>,
    /// White's summary.
    pub white: PlayerReport,
    /// Black's summary.
    pub black: PlayerReport,
    #[serde(skip)]
    win_percents: Vec<Option<f64>>,
}

impl GameReport {
    /// Applies lichess's formulas to the evaluations of `game`'s positions. With `side`, only
    /// that side's moves are judged and summarised.
    ///
    /// Long on purpose: one walk over the moves that carries what lichess's formulas need from
    /// move to move (the previous evaluation, the accuracy windows, the opening reached); the
    /// formulas themselves are the small functions of `lichess.rs`.
    pub fn new(
        number: usize,
        game: &PgnGame,
        infos: &[Option<PositionInfo>],
        side: Option<Color>,
    ) -> GameReport {
        let line = game.main_line();
        let boards = line.positions();
        let evals: Vec<Option<Eval>> = infos.iter().map(|i| i.as_ref().map(|i| i.eval)).collect();
        let mut moves = Vec::new();
        for (i, &mv) in line.moves().iter().enumerate() {
            let board = &boards[i];
            let mover = board.side_to_move();
            let (before, after) = (evals[i], evals.get(i + 1).copied().flatten());
            let info = infos[i].as_ref();
            let best_pv = info
                .and_then(|p| p.lines.first())
                .map(|l| l.moves.clone())
                .unwrap_or_default();
            let best_move = best_pv.first().copied();
            // A null move is a pass, not the player's choice: nothing to judge or count.
            let null = mv == Move::NULL;
            let judged = side.is_none_or(|s| s == mover) && !null;
            let advice = match (before, after) {
                (Some(b), Some(a)) if judged && best_move != Some(mv) => {
                    lichess::advice(mover, b, a)
                }
                _ => None,
            };
            let win = |e: Option<Eval>| {
                e.map(|e| match mover {
                    Color::White => lichess::win_percent(e),
                    Color::Black => 100.0 - lichess::win_percent(e),
                })
            };
            let (win_before, win_after) = (win(before), win(after));
            let best_san = best_move.map(|m| board.san(m));
            let comment = advice.map(|a| match &best_san {
                Some(b) => format!("{}. {b} was best.", a.text()),
                None => format!("{}.", a.text()),
            });
            moves.push(MoveReport {
                ply: i + 1,
                number: board.fullmove_number(),
                color: if mover == Color::White {
                    "white"
                } else {
                    "black"
                },
                san: board.san(mv),
                uci: mv.to_uci(),
                eval_before: before.map(Eval::pgn_text),
                eval_after: after.map(Eval::pgn_text),
                cp_before: before.map(Eval::ceiled_cp),
                cp_after: after.map(Eval::ceiled_cp),
                win_before,
                win_after,
                accuracy: win_before
                    .zip(win_after)
                    .filter(|_| !null)
                    .map(|(b, a)| lichess::move_accuracy(b, a)),
                cp_loss: before
                    .zip(after)
                    .filter(|_| !null)
                    .map(|(b, a)| lichess::cp_loss(mover, b, a)),
                judgement: advice.map(|a| match a.judgement() {
                    Judgement::Inaccuracy => "inaccuracy",
                    Judgement::Mistake => "mistake",
                    Judgement::Blunder => "blunder",
                }),
                comment,
                best: best_san,
                best_line: board.san_line(&best_pv),
                other_lines: info
                    .map(|p| {
                        p.lines
                            .iter()
                            .skip(1)
                            .map(|l| (l.eval.pgn_text(), board.san_line(&l.moves)))
                            .collect()
                    })
                    .unwrap_or_default(),
                depth: info.map(|p| p.depth),
                advice,
                before,
                after,
                mover,
                best_move,
                best_pv,
            });
        }
        let name = |tag: &str| game.tag(tag).unwrap_or("?").to_string();
        let mut white = PlayerReport {
            name: name("White"),
            ..PlayerReport::default()
        };
        let mut black = PlayerReport {
            name: name("Black"),
            ..PlayerReport::default()
        };
        let complete = evals.iter().all(Option::is_some);
        if complete {
            // lichess starts the standard game from its fixed estimate, not an analysed one.
            let mut all: Vec<Eval> = evals.iter().flatten().copied().collect();
            if game.start == Board::startpos() {
                all[0] = Eval::Cp(lichess::CP_INITIAL);
            }
            let first = game.start.side_to_move();
            let passes: Vec<bool> = line.moves().iter().map(|&m| m == Move::NULL).collect();
            let acc = lichess::game_accuracy_skipping(first, &all, &passes);
            white.accuracy = acc[Color::White.index()];
            black.accuracy = acc[Color::Black.index()];
        }
        for (p, color) in [(&mut white, Color::White), (&mut black, Color::Black)] {
            let mine: Vec<&MoveReport> = moves.iter().filter(|m| m.mover == color).collect();
            let losses: Vec<i32> = mine.iter().filter_map(|m| m.cp_loss).collect();
            if !losses.is_empty() {
                p.acpl = Some(losses.iter().sum::<i32>() as f64 / losses.len() as f64);
            }
            for m in mine {
                match m.advice.map(Advice::judgement) {
                    Some(Judgement::Inaccuracy) => p.inaccuracies += 1,
                    Some(Judgement::Mistake) => p.mistakes += 1,
                    Some(Judgement::Blunder) => p.blunders += 1,
                    None => {}
                }
            }
            if side.is_some_and(|s| s != color) {
                *p = PlayerReport {
                    name: p.name.clone(),
                    ..PlayerReport::default()
                };
            }
        }
        GameReport {
            game: number,
            start_fen: game.start.to_fen(),
            result: game.result.clone(),
            opening: openings::of_game(boards),
            complete,
            evals: evals.iter().map(|e| e.map(Eval::pgn_text)).collect(),
            moves,
            white,
            black,
            win_percents: evals.iter().map(|e| e.map(lichess::win_percent)).collect(),
        }
    }

    /// White's win percentage at each position (start, then after each move).
    pub fn win_percents(&self) -> &[Option<f64>] {
        &self.win_percents
    }

    /// One line a player: accuracy, ACPL and the counts of judged moves.
    pub fn summary(&self) -> String {
        let one = |label: &str, p: &PlayerReport| {
            let acc = p.accuracy.map_or("-".to_string(), |a| format!("{a:.0}%"));
            let acpl = p.acpl.map_or("-".to_string(), |a| format!("{a:.0}"));
            format!(
                "  {label} {}: accuracy {acc}, ACPL {acpl}, {}",
                p.name,
                p.counts()
            )
        };
        let opening = self
            .opening
            .as_ref()
            .map_or(String::new(), |o| format!(" ({} {})", o.eco, o.name));
        format!(
            "Game {}{opening}{}:\n{}\n{}",
            self.game,
            if self.complete { "" } else { " (incomplete)" },
            one("White", &self.white),
            one("Black", &self.black)
        )
    }
}

/// The game with the analysis written in, as lichess exports it: `[%eval]` after every move, the
/// judgement as a NAG with a comment (`Blunder. Nxd4 was best.`) and the better line as a
/// variation; accuracy and ACPL as tags and a comment before the first move.
pub fn annotate(game: &PgnGame, report: &GameReport, annotator: &str) -> PgnGame {
    let mut out = game.clone();
    out.set_tag("Annotator", annotator);
    // The game's own opening tags, if it has them, are kept.
    if let Some(o) = &report.opening {
        if out.tag("ECO").is_none() {
            out.set_tag("ECO", o.eco);
        }
        if out.tag("Opening").is_none() {
            out.set_tag("Opening", o.name);
        }
    }
    for (color, p) in [("White", &report.white), ("Black", &report.black)] {
        if let Some(a) = p.accuracy {
            out.set_tag(&format!("{color}Accuracy"), &format!("{a:.1}"));
        }
        if let Some(a) = p.acpl {
            out.set_tag(&format!("{color}ACPL"), &format!("{a:.0}"));
        }
    }
    let counts = |p: &PlayerReport| p.counts();
    out.comments.push(format!(
        "{annotator}: White {}; Black {}",
        counts(&report.white),
        counts(&report.black)
    ));
    let mut board = game.start;
    for (pm, r) in out.moves.iter_mut().zip(&report.moves) {
        annotate_move(pm, r, &board);
        board = board.after(pm.mv);
    }
    out
}

fn annotate_move(pm: &mut PgnMove, r: &MoveReport, board: &Board) {
    // Mate on the board needs no evaluation.
    if let Some(after) = r.after.filter(|e| {
        *e != Eval::Mate {
            winner: r.mover,
            moves: 0,
        }
    }) {
        pm.comments.push(format!("[%eval {}]", after.pgn_text()));
    }
    let Some(advice) = r.advice else { return };
    pm.nags.retain(|n| !(1..=6).contains(n));
    pm.nags.insert(0, advice.judgement().nag());
    let (b, a) = (
        r.before.map_or(String::new(), Eval::pgn_text),
        r.after.map_or(String::new(), Eval::pgn_text),
    );
    if let Some(c) = &r.comment {
        pm.comments.push(format!("({b} → {a}) {c}"));
    }
    if !r.best_pv.is_empty() && r.best_move.is_some() {
        let mut moves: Vec<PgnMove> = r.best_pv.iter().map(|&m| PgnMove::new(m)).collect();
        // The PV came from a search of this very position, so it is legal from here.
        debug_assert!(board.legal_moves().contains(moves[0].mv));
        moves.truncate(12);
        pm.variations.push(Variation {
            comments: Vec::new(),
            moves,
        });
    }
}

/// What went wrong in `analyze` as a whole (a bad game is reported and skipped, not this).
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// The PGN file could not be read (missing, not a regular file, too large).
    #[error(transparent)]
    Read(#[from] crate::files::FileError),
    /// An output could not be written.
    #[error("cannot write {path}: {reason}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// The file is not PGN text at all.
    #[error("{path} is not a PGN file: {why}")]
    NotPgn {
        /// The file.
        path: String,
        /// The evidence.
        why: String,
    },
    /// The file holds no game at all.
    #[error("{0}: no game found")]
    NoGames(String),
    /// `--game N` names a game the file does not have.
    #[error("--game {n}: the file has {count} games")]
    NoSuchGame {
        /// The number asked for.
        n: usize,
        /// How many there are.
        count: usize,
    },
    /// A flag value that cannot be used.
    #[error("{0}")]
    Usage(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyse(pgn: &str, depth: u32) -> (PgnGame, GameReport) {
        let game = crate::chess::pgn::read_games(pgn).remove(0).unwrap();
        let opts = Options {
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            threads: 2,
            hash_mib: 8,
            net: None,
            tablebases: None,
        };
        let stop = AtomicBool::new(false);
        let infos = analyse_positions(&game, &opts, &stop, &Mutex::new(Vec::new()), &|_| {});
        let report = GameReport::new(1, &game, &infos, None);
        (game, report)
    }

    #[test]
    fn a_hung_queen_is_a_blunder_and_the_other_side_is_more_accurate() {
        // 2. Qg4?? puts the queen where the bishop on c8 takes it.
        let pgn =
            "[White \"Hanger\"]\n[Black \"Taker\"]\n\n1. e4 d6 2. Qg4?? Bxg4 3. d4 Nf6 4. Nc3 e6 *";
        let (game, report) = analyse(pgn, 8);
        assert!(report.complete);
        let qg4 = &report.moves[2];
        assert_eq!(qg4.san, "Qg4");
        assert_eq!(qg4.judgement, Some("blunder"), "{qg4:?}");
        assert_eq!(report.moves[3].judgement, None);
        let (w, b) = (
            report.white.accuracy.unwrap(),
            report.black.accuracy.unwrap(),
        );
        assert!(b > w, "white {w} black {b}");
        assert!(report.white.blunders >= 1);
        let annotated = annotate(&game, &report, "Fianchetto").to_pgn();
        assert!(annotated.contains("Qg4??"), "{annotated}");
        assert!(annotated.contains("[%eval "), "{annotated}");
        assert!(annotated.contains("Blunder."), "{annotated}");
        // The annotated game reads back with the same moves.
        let again = crate::chess::pgn::read_games(&annotated).remove(0).unwrap();
        assert_eq!(again.main_line().moves(), game.main_line().moves());
        assert_eq!(again.moves[2].variations.len(), 1);
    }

    #[test]
    fn a_mate_on_the_board_is_scored_without_search() {
        let (_, report) = analyse("1. f3 e5 2. g4 Qh4# 0-1", 4);
        assert_eq!(report.evals.last().unwrap().as_deref(), Some("#-0"));
        assert_eq!(report.moves[2].judgement, Some("blunder"));
        assert!(report.moves[3].best_line.len() <= 1);
    }

    #[test]
    fn scores_turn_into_white_view_evaluations() {
        assert_eq!(to_eval(Score(35), Color::Black), Eval::Cp(-35));
        assert_eq!(
            to_eval(Score::mate_in(3), Color::Black),
            Eval::Mate {
                winner: Color::Black,
                moves: 2
            }
        );
        assert_eq!(
            to_eval(Score::mated_in(2), Color::White),
            Eval::Mate {
                winner: Color::Black,
                moves: 1
            }
        );
    }
}
