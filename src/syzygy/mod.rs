//! Syzygy endgame tablebases: an own reader of the `.rtbw` (win/draw/loss) and `.rtbz`
//! (distance to zeroing) files, and the probes a search needs.
//!
//! A table stores each position of one material balance without castling rights, seen with
//! the side to move; captures and en passant are resolved here by a small search over
//! captures, as the format expects (a table may hold any value where a capture is best).
//! Tables are found by name (`KRvK.rtbw`) in the folders of a path, opened on first use and
//! read on demand, so that large sets cost no memory up front. A table that turns out broken
//! is reported once and then treated as missing.

mod table;

use crate::chess::{Board, Color, Move, PieceKind};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use table::{Indices, Kind, Material, TableFile, MAX_PIECES};
use thiserror::Error;

/// Why a table could not be used.
#[derive(Debug, Error)]
pub enum TableError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The file is not a table of the kind and material its name says.
    #[error("{path} is corrupt: {why}")]
    Corrupt {
        /// The file.
        path: String,
        /// What is wrong.
        why: String,
    },
}

/// Why a tablebase path was refused.
#[derive(Debug, Error)]
pub enum PathError {
    /// None of the folders exists.
    #[error("no folder of {0:?} exists")]
    NoFolder(String),
}

/// A position's value with perfect play, from the side to move's view, the 50-move rule
/// included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost.
    Loss = -2,
    /// Lost without the 50-move rule, drawn with it.
    BlessedLoss = -1,
    /// Drawn.
    Draw = 0,
    /// Won without the 50-move rule, drawn with it.
    CursedWin = 1,
    /// Won.
    Win = 2,
}

impl Wdl {
    /// From the format's -2..=2.
    fn from_i32(v: i32) -> Wdl {
        match v {
            ..=-2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            _ => Wdl::Win,
        }
    }
}

/// One root move ranked by the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Higher is better: 1000 a win within the 50-move rule, 0 a draw, -1000 a loss; between
    /// them wins and losses that the 50-move rule may turn into draws.
    pub rank: i32,
    /// Its distance to zeroing from the root in plies (positive: the mover wins), if DTZ
    /// tables ranked it; 0 for a draw.
    pub dtz: i32,
}

/// The root moves ranked by the tables, and by which tables.
#[derive(Clone, Debug)]
pub struct RootRanking {
    /// Every legal move with its rank.
    pub moves: Vec<RootMove>,
    /// Ranked by DTZ (else by WDL alone, which keeps a win but may not make progress).
    pub by_dtz: bool,
}

/// A material balance's tables.
struct Entry {
    /// The name with White first as the files name it (`KQvKR`).
    name: String,
    material: Material,
    /// Both sides have the same pieces.
    symmetric: bool,
    wdl_path: PathBuf,
    dtz_path: Option<PathBuf>,
    wdl: OnceLock<Option<TableFile>>,
    dtz: OnceLock<Option<TableFile>>,
}

/// What went wrong in a probe.
enum Fail {
    /// No (working) table for a position reached.
    Missing,
    /// The DTZ table stores the other side to move: look one move ahead.
    OtherSide,
}

/// A set of Syzygy tables, shared by all search threads.
pub struct Tablebases {
    entries: Vec<Entry>,
    /// Material name (side to move irrelevant) to the entry and whether colours are swapped.
    by_name: HashMap<String, (usize, bool)>,
    indices: Indices,
    max_pieces: usize,
    /// Problems not yet reported (a table found broken).
    problems: Mutex<Vec<String>>,
    /// Successful table reads, for `info tbhits`.
    hits: AtomicU64,
    /// Every problem reported since the path was set (so each is reported once).
    broken: Mutex<Vec<String>>,
}

/// The letters of a side's pieces, king first: `KRP`.
fn side_name(board: &Board, color: Color) -> String {
    let mut s = String::from("K");
    for (kind, c) in [
        (PieceKind::Queen, 'Q'),
        (PieceKind::Rook, 'R'),
        (PieceKind::Bishop, 'B'),
        (PieceKind::Knight, 'N'),
        (PieceKind::Pawn, 'P'),
    ] {
        for _ in 0..board.pieces_of(color, kind).count() {
            s.push(c);
        }
    }
    s
}

/// Parses a table name (`KQPvKR`) into its material, if it is one.
fn parse_name(name: &str) -> Option<Material> {
    let (white, black) = name.split_once('v')?;
    let order = "KQRBNP";
    let mut pieces = [[0u8; 6]; 2];
    for (side, part) in [white, black].iter().enumerate() {
        if !part.starts_with('K') || part[1..].contains('K') {
            return None;
        }
        let mut last = 0;
        for c in part.chars() {
            let i = order.find(c)?;
            if i < last {
                return None;
            }
            last = i;
            pieces[side][i] += 1;
        }
    }
    let count: usize = pieces.iter().flatten().map(|&n| usize::from(n)).sum();
    if !(3..=MAX_PIECES).contains(&count) {
        return None;
    }
    let (wp, bp) = (pieces[0][5], pieces[1][5]);
    let pawns = if bp > 0 && (wp == 0 || wp > bp) {
        [bp, wp]
    } else {
        [wp, bp]
    };
    let unique = pieces.iter().flatten().filter(|&&n| n == 1).count();
    Some(Material {
        count,
        kk_enc: wp + bp == 0 && unique == 2,
        pawns,
    })
}

/// The value of a WDL result as a DTZ when the move that reaches it zeroes the counter.
const WDL_TO_DTZ: [i32; 5] = [-1, -101, 0, 101, 1];

impl Tablebases {
    /// Finds the tables in the folders of `path` (separated by `:`, or `;` on Windows).
    /// Returns the set and the problems found while looking (unreadable folders, incomplete
    /// files), which the caller reports.
    pub fn open(path: &str) -> Result<(Tablebases, Vec<String>), PathError> {
        let sep = if cfg!(windows) { ';' } else { ':' };
        let mut warnings = Vec::new();
        let mut wdl: HashMap<String, PathBuf> = HashMap::new();
        let mut dtz: HashMap<String, PathBuf> = HashMap::new();
        let mut any_folder = false;
        for dir in path.split(sep).filter(|d| !d.trim().is_empty()) {
            let read = match std::fs::read_dir(dir) {
                Ok(r) => r,
                Err(e) => {
                    warnings.push(format!("cannot read folder {dir}: {e}"));
                    continue;
                }
            };
            any_folder = true;
            for item in read.flatten() {
                let file = item.path();
                let (Some(stem), Some(ext)) = (
                    file.file_stem().and_then(|s| s.to_str()),
                    file.extension().and_then(|s| s.to_str()),
                ) else {
                    continue;
                };
                let map = match ext {
                    "rtbw" => &mut wdl,
                    "rtbz" => &mut dtz,
                    _ => continue,
                };
                if parse_name(stem).is_none() {
                    continue;
                }
                match std::fs::metadata(&file) {
                    Ok(m) if m.len() % 64 == 16 => {
                        map.entry(stem.to_string()).or_insert(file);
                    }
                    Ok(m) => warnings.push(format!(
                        "{} is incomplete ({} bytes) and is ignored",
                        file.display(),
                        m.len()
                    )),
                    Err(e) => warnings.push(format!("cannot read {}: {e}", file.display())),
                }
            }
        }
        if !any_folder {
            return Err(PathError::NoFolder(path.to_string()));
        }
        let mut names: Vec<&String> = wdl.keys().collect();
        names.sort();
        let mut tb = Tablebases {
            entries: Vec::new(),
            by_name: HashMap::new(),
            indices: Indices::new(),
            max_pieces: 0,
            problems: Mutex::new(Vec::new()),
            hits: AtomicU64::new(0),
            broken: Mutex::new(Vec::new()),
        };
        for name in names {
            let Some(material) = parse_name(name) else {
                continue;
            };
            let (white, black) = name.split_once('v').unwrap_or((name, ""));
            let mirrored = format!("{black}v{white}");
            let index = tb.entries.len();
            tb.max_pieces = tb.max_pieces.max(material.count);
            tb.by_name.insert(name.clone(), (index, false));
            if mirrored != *name {
                tb.by_name.insert(mirrored, (index, true));
            }
            tb.entries.push(Entry {
                name: name.clone(),
                symmetric: white == black,
                material,
                wdl_path: wdl[name].clone(),
                dtz_path: dtz.get(name).cloned(),
                wdl: OnceLock::new(),
                dtz: OnceLock::new(),
            });
        }
        Ok((tb, warnings))
    }

    /// The most pieces (kings included) of any table found: 0 if none.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// How many tables (WDL files) were found.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no table was found.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Table reads so far.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// Problems found since the last call (each broken table once), for the caller to report.
    pub fn take_problems(&self) -> Vec<String> {
        self.problems
            .lock()
            .map(|mut p| std::mem::take(&mut *p))
            .unwrap_or_default()
    }

    /// Whether the tables can say anything about `board`: few enough pieces, no castling.
    pub fn covers(&self, board: &Board) -> bool {
        (board.occupied().count() as usize) <= self.max_pieces
            && board.castling() == crate::chess::board::CastlingRights::NONE
    }

    /// The position's value with perfect play, if the tables have it.
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        if !self.covers(board) {
            return None;
        }
        self.wdl(board).ok().map(|(v, _)| Wdl::from_i32(v))
    }

    /// The distance to zeroing the 50-move counter with perfect play, in plies, positive when
    /// the side to move wins (beyond 100: a win the 50-move rule spoils), negative when it
    /// loses, 0 for a draw; -1 when mated. May be one ply longer than the truth, as the
    /// format stores some values in moves.
    pub fn probe_dtz(&self, board: &Board) -> Option<i32> {
        if !self.covers(board) {
            return None;
        }
        self.dtz(board).ok()
    }

    /// Ranks the root moves by the tables so that the engine keeps a win within the 50-move
    /// rule (`rule50`) and never spoils a draw: DTZ where the tables have it, else WDL.
    /// `repeated`: the position has occurred before, so a win must make progress now.
    pub fn rank_root_moves(
        &self,
        board: &Board,
        rule50: bool,
        repeated: bool,
    ) -> Option<RootRanking> {
        if !self.covers(board) {
            return None;
        }
        if let Some(moves) = self.root_dtz(board, rule50, repeated) {
            return Some(RootRanking {
                moves,
                by_dtz: true,
            });
        }
        self.root_wdl(board, rule50).map(|moves| RootRanking {
            moves,
            by_dtz: false,
        })
    }

    fn root_dtz(&self, board: &Board, rule50: bool, repeated: bool) -> Option<Vec<RootMove>> {
        let cnt50 = i32::from(board.halfmove_clock());
        let mut out = Vec::new();
        for &mv in board.legal_moves().iter() {
            let child = board.make_move(mv);
            let mut v = if child.halfmove_clock() == 0 {
                let (w, _) = self.wdl(&child).ok()?;
                WDL_TO_DTZ[(-w + 2) as usize]
            } else {
                let d = -self.dtz(&child).ok()?;
                d + d.signum()
            };
            if v == 2 && child.is_checkmate() {
                v = 1;
            }
            let rank = if v > 0 {
                if v + cnt50 <= 99 && !repeated {
                    1000
                } else {
                    1000 - (v + cnt50)
                }
            } else if v < 0 {
                if -v * 2 + cnt50 < 100 {
                    -1000
                } else {
                    -1000 + (-v + cnt50)
                }
            } else {
                0
            };
            let rank = if rule50 {
                rank
            } else {
                // Without the rule every win is a win and every loss a loss.
                rank.signum() * 1000
            };
            out.push(RootMove { mv, rank, dtz: v });
        }
        Some(out)
    }

    fn root_wdl(&self, board: &Board, rule50: bool) -> Option<Vec<RootMove>> {
        const RANK: [i32; 5] = [-1000, -899, 0, 899, 1000];
        let mut out = Vec::new();
        for &mv in board.legal_moves().iter() {
            let (w, _) = self.wdl(&board.make_move(mv)).ok()?;
            let mut v = -w;
            if !rule50 {
                v = v.signum() * 2;
            }
            out.push(RootMove {
                mv,
                rank: RANK[(v + 2) as usize],
                dtz: 0,
            });
        }
        Some(out)
    }

    /// WDL with captures resolved: the value (-2..=2) and whether a capture (or an only en
    /// passant) decides it (the format's "success 2"), which DTZ needs.
    fn wdl(&self, board: &Board) -> Result<(i32, bool), Fail> {
        let mut best_cap = -3;
        let mut best_ep = -3;
        let moves = board.legal_moves();
        for &m in moves.iter().filter(|m| m.is_capture()) {
            let v = -self.capture_search(&board.make_move(m), -2, -best_cap)?;
            if v > best_cap {
                if v == 2 {
                    return Ok((2, true));
                }
                if !m.is_en_passant() {
                    best_cap = v;
                } else if v > best_ep {
                    best_ep = v;
                }
            }
        }
        let v = self.table_wdl(board)?;
        if best_ep > best_cap {
            if best_ep > v {
                return Ok((best_ep, true));
            }
            best_cap = best_ep;
        }
        if best_cap >= v {
            return Ok((best_cap, best_cap > 0));
        }
        // The table's draw may be the stalemate of the position without the en passant
        // right; with it, the capture is the only move.
        if best_ep > -3 && v == 0 && !board.in_check() && moves.iter().all(|m| m.is_en_passant()) {
            return Ok((best_ep, true));
        }
        Ok((v, false))
    }

    /// Alpha-beta over captures, then the table: the WDL value of a position after a capture.
    fn capture_search(&self, board: &Board, mut alpha: i32, beta: i32) -> Result<i32, Fail> {
        for &m in board.legal_moves().iter().filter(|m| m.is_capture()) {
            let v = -self.capture_search(&board.make_move(m), -beta, -alpha)?;
            if v > alpha {
                if v >= beta {
                    return Ok(v);
                }
                alpha = v;
            }
        }
        let v = self.table_wdl(board)?;
        Ok(alpha.max(v))
    }

    /// DTZ with captures and pawn moves resolved (the format's `probe_dtz`).
    fn dtz(&self, board: &Board) -> Result<i32, Fail> {
        let (wdl, decided) = self.wdl(board)?;
        if wdl == 0 {
            return Ok(0);
        }
        if decided {
            return Ok(WDL_TO_DTZ[(wdl + 2) as usize]);
        }
        let moves = board.legal_moves();
        if wdl > 0 {
            // A pawn move that keeps the win zeroes the counter at once.
            for &m in moves.iter() {
                let pawn = board
                    .piece_at(m.from())
                    .is_some_and(|p| p.kind == PieceKind::Pawn);
                if !pawn || m.is_capture() {
                    continue;
                }
                let (v, _) = self.wdl(&board.make_move(m))?;
                if -v == wdl {
                    return Ok(WDL_TO_DTZ[(wdl + 2) as usize]);
                }
            }
        }
        match self.table_dtz(board, wdl) {
            Ok(d) => return Ok(WDL_TO_DTZ[(wdl + 2) as usize] + if wdl > 0 { d } else { -d }),
            Err(Fail::OtherSide) => {}
            Err(e) => return Err(e),
        }
        // The table stores the other side to move: one ply of search.
        let mut best = if wdl > 0 {
            i32::MAX
        } else {
            WDL_TO_DTZ[(wdl + 2) as usize]
        };
        for &m in moves.iter() {
            let pawn = board
                .piece_at(m.from())
                .is_some_and(|p| p.kind == PieceKind::Pawn);
            if m.is_capture() || pawn {
                continue;
            }
            let child = board.make_move(m);
            let v = -self.dtz(&child)?;
            if v == 1 && child.is_checkmate() {
                best = 1;
            } else if wdl > 0 {
                if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            } else if v - 1 < best {
                best = v - 1;
            }
        }
        Ok(best)
    }

    /// Finds the entry of the board's material: the entry, whether colours are swapped, and
    /// the side-to-move's table (`bside`).
    fn entry(&self, board: &Board) -> Result<(&Entry, bool, usize), Fail> {
        let name = format!(
            "{}v{}",
            side_name(board, Color::White),
            side_name(board, Color::Black)
        );
        let &(index, swapped) = self.by_name.get(&name).ok_or(Fail::Missing)?;
        let entry = &self.entries[index];
        let white = board.side_to_move() == Color::White;
        let (flip, bside) = if entry.symmetric {
            (!white, 0)
        } else {
            (swapped, usize::from(white == swapped))
        };
        Ok((entry, flip, bside))
    }

    /// Opens a table on first use; a broken one is reported once and stays missing.
    fn load<'a>(&self, entry: &'a Entry, kind: Kind) -> Result<&'a TableFile, Fail> {
        let (cell, path) = match kind {
            Kind::Wdl => (&entry.wdl, Some(&entry.wdl_path)),
            Kind::Dtz => (&entry.dtz, entry.dtz_path.as_ref()),
        };
        let path = path.ok_or(Fail::Missing)?;
        cell.get_or_init(
            || match TableFile::open(path, kind, &entry.material, &self.indices) {
                Ok(t) => Some(t),
                Err(e) => {
                    self.report(format!("{e}; the table is ignored"));
                    None
                }
            },
        )
        .as_ref()
        .ok_or(Fail::Missing)
    }

    /// Records a problem for the caller to report, once per message.
    fn report(&self, message: String) {
        if let Ok(mut broken) = self.broken.lock() {
            if broken.contains(&message) {
                return;
            }
            broken.push(message.clone());
        }
        if let Ok(mut p) = self.problems.lock() {
            p.push(message);
        }
    }

    /// Writes the squares of the pieces `range` of a table's piece list into `p`, colours
    /// swapped by `flip` and squares mirrored by `mirror` (`0x38`: rank flip, or 0).
    fn squares(
        board: &Board,
        pieces: &[u8],
        (flip, mirror): (bool, usize),
        range: std::ops::Range<usize>,
        p: &mut [usize; MAX_PIECES],
    ) -> Result<usize, String> {
        let (mut i, to) = (range.start, range.end);
        while i < to {
            let code = pieces[i];
            let color = if (code >> 3 == 0) != flip {
                Color::White
            } else {
                Color::Black
            };
            let kind = match code & 7 {
                k @ 1..=6 => PieceKind::ALL[usize::from(k) - 1],
                _ => return Err(format!("unknown piece code {code}")),
            };
            let bb = board.pieces_of(color, kind);
            if bb.is_empty() {
                return Err("its piece list does not match its name".into());
            }
            for sq in bb {
                if i >= to {
                    return Err("its piece list does not match its name".into());
                }
                p[i] = sq.index() ^ mirror;
                i += 1;
            }
        }
        Ok(i)
    }

    /// The stored value for the board: WDL -2..=2, or the raw DTZ (plies) for `wdl`.
    fn table_value(&self, board: &Board, kind: Kind, wdl: i32) -> Result<i32, Fail> {
        if kind == Kind::Wdl && board.occupied().count() == 2 {
            return Ok(0);
        }
        let (entry, flip, bside) = self.entry(board)?;
        let table = self.load(entry, kind)?;
        let broken = |why: String| {
            self.report(format!(
                "{} is corrupt: {why}; the table is ignored",
                entry.name
            ));
            Fail::Missing
        };
        let m = &entry.material;
        let groups = if m.pawns[0] > 0 { 4 } else { 1 };
        let mut p = [0usize; MAX_PIECES];
        let mut group = 0;
        if m.pawns[0] > 0 {
            let mirror = if flip { 0x38 } else { 0 };
            let lead = usize::from(m.pawns[0]);
            let first = &table.enc[0];
            Self::squares(board, &first.pieces, (flip, mirror), 0..lead, &mut p).map_err(broken)?;
            // The leading pawn: the one nearest file a-d's edge ordering (lowest slot).
            for i in 1..lead {
                if table::flap(p[0]) > table::flap(p[i]) {
                    p.swap(0, i);
                }
            }
            group = table::file_group(p[0]);
        }
        let slot = match kind {
            Kind::Wdl => group + groups * bside,
            Kind::Dtz => group,
        };
        if kind == Kind::Dtz {
            let flags = table.dtz_flags.get(group).copied().unwrap_or(0);
            if usize::from(flags & 1) != bside && !entry.symmetric {
                return Err(Fail::OtherSide);
            }
        }
        let enc = table
            .enc
            .get(slot)
            .ok_or_else(|| broken("no encoding for this side".into()))?;
        let (mirror, start) = if m.pawns[0] > 0 {
            (if flip { 0x38 } else { 0 }, usize::from(m.pawns[0]))
        } else {
            (0, 0)
        };
        Self::squares(board, &enc.pieces, (flip, mirror), start..m.count, &mut p)
            .map_err(broken)?;
        let idx = table
            .encode(&mut p, enc, m, &self.indices)
            .map_err(broken)?;
        let w = table.value(slot, idx).map_err(broken)?;
        self.hits.fetch_add(1, Ordering::Relaxed);
        if kind == Kind::Wdl {
            if w[0] > 4 {
                return Err(broken(format!("WDL value {} out of range", w[0])));
            }
            return Ok(i32::from(w[0]) - 2);
        }
        let flags = table.dtz_flags[group];
        let mut v = i32::from(w[0]) + (i32::from(w[1] & 0x0f) << 8);
        if flags & 2 != 0 {
            let map = [1, 3, 0, 2, 0][(wdl + 2) as usize];
            v = i32::from(table.dtz_map(group, map, v as usize).map_err(broken)?);
        }
        let plies_flag = [8, 0, 0, 0, 4][(wdl + 2) as usize];
        if flags & plies_flag == 0 || wdl & 1 != 0 {
            v *= 2;
        }
        Ok(v)
    }

    fn table_wdl(&self, board: &Board) -> Result<i32, Fail> {
        self.table_value(board, Kind::Wdl, 0)
    }

    fn table_dtz(&self, board: &Board, wdl: i32) -> Result<i32, Fail> {
        self.table_value(board, Kind::Dtz, wdl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_parsed_by_the_formats_rules() {
        let m = parse_name("KQvKR").unwrap();
        assert_eq!((m.count, m.kk_enc, m.pawns), (4, false, [0, 0]));
        // When the kings are the only unique pieces, the two kings lead the index.
        assert!(parse_name("KRRvK").unwrap().kk_enc);
        // The side with fewer pawns leads; White on a tie.
        assert_eq!(parse_name("KPPvKP").unwrap().pawns, [1, 2]);
        assert_eq!(parse_name("KPvKP").unwrap().pawns, [1, 1]);
        assert_eq!(parse_name("KvKP").unwrap().pawns, [1, 0]);
        for bad in [
            "KQ",
            "QKvK",
            "KvK",
            "KRQvK",
            "KXvK",
            "KQvKvK",
            "KQQQQQQvK",
            "",
        ] {
            assert!(parse_name(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_path_without_folders_is_an_error_and_an_empty_folder_no_tables() {
        assert!(Tablebases::open("/no/such/folder").is_err());
        assert!(Tablebases::open("").is_err());
        let dir = std::env::temp_dir();
        let (tb, _) = Tablebases::open(dir.to_str().unwrap()).unwrap();
        let board = Board::from_fen("8/8/8/8/8/2k5/8/KR6 w - - 0 1").unwrap();
        assert_eq!(tb.probe_wdl(&board), None);
        assert_eq!(tb.max_pieces(), 0);
    }
}
