//! Training data: self-play games in a compact binary form, and the `FEN | score | result` text
//! form that tuners and other trainers read.
//!
//! # The binary game format (`.fgd`, "Fianchetto game data")
//! A file is a sequence of game records, little-endian, with no file header, so that a run can
//! append whole games and a killed run leaves every finished game readable:
//!
//! | bytes | field |
//! | --- | --- |
//! | 2 | magic `b"FG"` |
//! | 1 | `L`, the length of the start FEN |
//! | L | the start position as FEN (ASCII) |
//! | 1 | result from White's view: 0 loss, 1 draw, 2 win |
//! | 2 | `n`, the number of plies that follow |
//! | 4·n | each ply: the move played (`Move::bits`, u16) and the search score before it (i16, centipawns, White's view; mates as ±32000-distance) |
//!
//! A game of 100 plies takes about 470 bytes: 4.7 bytes a ply. The moves are replayed and checked
//! for legality when read, so a corrupt record is an error naming its offset, never a wrong
//! position. Every ply is stored; which positions a trainer sees is decided when reading
//! (`GameRecord::samples`), so the filter can change without regenerating data.

use crate::chess::{Board, Color, Move};
use crate::search::score::MATE_BOUND;
use std::fmt;
use std::io::{BufRead, Write};
use std::path::Path;
use thiserror::Error;

/// A game's result from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhiteResult {
    /// Black won.
    Loss,
    /// Drawn.
    Draw,
    /// White won.
    Win,
}

impl WhiteResult {
    /// 0.0, 0.5 or 1.0.
    pub fn value(self) -> f32 {
        match self {
            WhiteResult::Loss => 0.0,
            WhiteResult::Draw => 0.5,
            WhiteResult::Win => 1.0,
        }
    }
    fn code(self) -> u8 {
        self as u8
    }
    fn from_code(c: u8) -> Option<WhiteResult> {
        match c {
            0 => Some(WhiteResult::Loss),
            1 => Some(WhiteResult::Draw),
            2 => Some(WhiteResult::Win),
            _ => None,
        }
    }
    /// The result seen from `side`'s view (1.0 = `side` won).
    pub fn for_side(self, side: Color) -> f32 {
        match side {
            Color::White => self.value(),
            Color::Black => 1.0 - self.value(),
        }
    }
}

impl fmt::Display for WhiteResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WhiteResult::Loss => "0.0",
            WhiteResult::Draw => "0.5",
            WhiteResult::Win => "1.0",
        })
    }
}

/// One training position: the board, the search score and the game result, both White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position.
    pub board: Board,
    /// The search score in centipawns, White's view.
    pub score: i16,
    /// The game's result, White's view.
    pub result: WhiteResult,
}

impl Sample {
    /// The text form: `FEN | score | result`.
    pub fn to_text(&self) -> String {
        format!("{} | {} | {}", self.board.to_fen(), self.score, self.result)
    }
}

/// A self-play game: where it started, every ply with its score, and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The position the record starts from (after any random opening plies).
    pub start: Board,
    /// Each ply: the move played and the search score of the position before it (White's view).
    pub plies: Vec<(Move, i16)>,
    /// The result, White's view.
    pub result: WhiteResult,
}

/// Why data could not be read.
#[derive(Debug, Error)]
pub enum DataError {
    /// The file could not be opened or read.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// The system's error.
        source: std::io::Error,
    },
    /// Not a regular file (a device, a FIFO, a directory).
    #[error("{0}")]
    File(Box<crate::files::FileError>),
    /// A binary record is malformed.
    #[error("{file}: byte offset {offset}: {what}")]
    Record {
        /// The file.
        file: String,
        /// Where the bad record starts.
        offset: u64,
        /// What is wrong.
        what: String,
    },
    /// A text line is malformed.
    #[error("{file}: line {line}: {what}")]
    Line {
        /// The file.
        file: String,
        /// The 1-based line number.
        line: u64,
        /// What is wrong.
        what: String,
    },
}

/// The game-record magic.
const MAGIC: [u8; 2] = *b"FG";

/// Positions from this ply of the game on are kept (the opening is the book's, not ours).
pub const MIN_PLY: u32 = 16;

impl GameRecord {
    /// Appends the binary form of this game to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let fen = self.start.to_fen();
        // A FEN is at most ~90 bytes (64 squares and the fields); the limit is a u8.
        debug_assert!(fen.len() <= 255);
        out.extend_from_slice(&MAGIC);
        out.push(fen.len().min(255) as u8);
        out.extend_from_slice(&fen.as_bytes()[..fen.len().min(255)]);
        out.push(self.result.code());
        let n = self.plies.len().min(u16::MAX as usize);
        out.extend_from_slice(&(n as u16).to_le_bytes());
        for &(m, s) in &self.plies[..n] {
            out.extend_from_slice(&m.bits().to_le_bytes());
            out.extend_from_slice(&s.to_le_bytes());
        }
    }

    /// Decodes one record from the front of `bytes`; returns it and the bytes it used.
    pub fn decode(bytes: &[u8]) -> Result<(GameRecord, usize), String> {
        let need = |n: usize| {
            if bytes.len() < n {
                Err(format!(
                    "truncated record ({} bytes left, {n} needed)",
                    bytes.len()
                ))
            } else {
                Ok(())
            }
        };
        need(3)?;
        if bytes[..2] != MAGIC {
            return Err(format!(
                "not a game record (magic {:02x} {:02x})",
                bytes[0], bytes[1]
            ));
        }
        let l = bytes[2] as usize;
        need(3 + l + 3)?;
        let fen = std::str::from_utf8(&bytes[3..3 + l]).map_err(|_| "start FEN is not text")?;
        let start = Board::from_fen(fen).map_err(|e| format!("bad start FEN {fen:?}: {e}"))?;
        let result = WhiteResult::from_code(bytes[3 + l])
            .ok_or_else(|| format!("bad result code {}", bytes[3 + l]))?;
        let n = u16::from_le_bytes([bytes[4 + l], bytes[5 + l]]) as usize;
        let body = 6 + l;
        need(body + 4 * n)?;
        let mut plies = Vec::with_capacity(n);
        let mut board = start;
        for i in 0..n {
            let o = body + 4 * i;
            let m = Move::from_bits(u16::from_le_bytes([bytes[o], bytes[o + 1]]));
            let s = i16::from_le_bytes([bytes[o + 2], bytes[o + 3]]);
            if !board.is_legal(m) {
                return Err(format!(
                    "ply {}: move {m} is not legal in {}",
                    i + 1,
                    board.to_fen()
                ));
            }
            board.play(m);
            plies.push((m, s));
        }
        Ok((
            GameRecord {
                start,
                plies,
                result,
            },
            body + 4 * n,
        ))
    }

    /// The positions a trainer should see: not in check, a quiet move played (the search's best),
    /// no mate score, at least `MIN_PLY` plies into the game.
    pub fn samples(&self) -> Vec<Sample> {
        let mut out = Vec::with_capacity(self.plies.len());
        let mut board = self.start;
        for &(m, score) in &self.plies {
            let ply = 2 * (board.fullmove_number() as u32).saturating_sub(1)
                + (board.side_to_move() == Color::Black) as u32;
            if ply >= MIN_PLY
                && !board.in_check()
                && !m.is_noisy()
                && (score as i32).abs() < MATE_BOUND
            {
                out.push(Sample {
                    board,
                    score,
                    result: self.result,
                });
            }
            board.play(m);
        }
        out
    }
}

/// Reads every game record of a binary file's bytes; `skip_bad` stops at the first bad record
/// instead of failing (a record's length is only known once it parses, so nothing after a bad
/// one can be trusted). Returns the games and the number of bad records met (0 or 1).
pub fn decode_games(
    bytes: &[u8],
    file: &str,
    skip_bad: bool,
) -> Result<(Vec<GameRecord>, usize), DataError> {
    let mut games = Vec::new();
    let mut at = 0usize;
    while at < bytes.len() {
        match GameRecord::decode(&bytes[at..]) {
            Ok((g, used)) => {
                games.push(g);
                at += used;
            }
            Err(what) if skip_bad => {
                let _ = what;
                return Ok((games, 1));
            }
            Err(what) => {
                return Err(DataError::Record {
                    file: file.to_string(),
                    offset: at as u64,
                    what,
                })
            }
        }
    }
    Ok((games, 0))
}

/// Parses one `FEN | score | result` line (result `1.0`/`0.5`/`0.0`, or `1-0`/`1/2-1/2`/`0-1`).
pub fn parse_text_line(line: &str) -> Result<Sample, String> {
    let mut parts = line.split('|').map(str::trim);
    let (Some(fen), Some(score), Some(result), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("expected `FEN | score | result`".to_string());
    };
    let board = Board::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
    let score: i32 = score
        .parse()
        .map_err(|_| format!("score {score:?} is not a whole number"))?;
    let score = i16::try_from(score).map_err(|_| format!("score {score} is out of range"))?;
    let result = match result {
        "1.0" | "1" | "1-0" => WhiteResult::Win,
        "0.5" | "1/2-1/2" => WhiteResult::Draw,
        "0.0" | "0" | "0-1" => WhiteResult::Loss,
        r => return Err(format!("result {r:?} is not 1.0, 0.5 or 0.0")),
    };
    Ok(Sample {
        board,
        score,
        result,
    })
}

/// Which form a data file is in, by its name: `.txt` (or `.txt.gz`, `.epd`) is text, else binary.
pub fn is_text(path: &str) -> bool {
    let p = path.strip_suffix(".gz").unwrap_or(path);
    p.ends_with(".txt") || p.ends_with(".epd")
}

/// Counts of what a reader met.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadCounts {
    /// Games read (binary files only).
    pub games: u64,
    /// Positions delivered.
    pub positions: u64,
    /// Bad lines or records skipped (with `skip_bad`).
    pub skipped: u64,
}

/// Reads every sample of a data file (text, gzipped text or binary), handing each to `sink`.
pub fn read_samples(
    path: &str,
    skip_bad: bool,
    sink: &mut dyn FnMut(Sample),
) -> Result<ReadCounts, DataError> {
    read_samples_while(path, skip_bad, &mut |s| {
        sink(s);
        true
    })
}

/// Like [`read_samples`], but stops reading (and checking) the file as soon as `sink` returns
/// false.
pub fn read_samples_while(
    path: &str,
    skip_bad: bool,
    sink: &mut dyn FnMut(Sample) -> bool,
) -> Result<ReadCounts, DataError> {
    let io = |source| DataError::Io {
        file: path.to_string(),
        source,
    };
    let mut counts = ReadCounts::default();
    let file = crate::files::open_regular(Path::new(path), u64::MAX, "data file")
        .map_err(|e| DataError::File(Box::new(e)))?
        .0;
    if is_text(path) {
        let reader: Box<dyn BufRead> = if path.ends_with(".gz") {
            Box::new(std::io::BufReader::new(flate2::read::MultiGzDecoder::new(
                file,
            )))
        } else {
            Box::new(std::io::BufReader::new(file))
        };
        for (i, line) in reader.split(b'\n').enumerate() {
            let line = line.map_err(io)?;
            let text = String::from_utf8_lossy(&line);
            let text = text.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            match parse_text_line(text) {
                Ok(s) => {
                    counts.positions += 1;
                    if !sink(s) {
                        break;
                    }
                }
                Err(_) if skip_bad => counts.skipped += 1,
                Err(what) => {
                    return Err(DataError::Line {
                        file: path.to_string(),
                        line: i as u64 + 1,
                        what,
                    })
                }
            }
        }
    } else {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::BufReader::new(file), &mut bytes).map_err(io)?;
        let (games, bad) = decode_games(&bytes, path, skip_bad)?;
        counts.skipped = bad as u64;
        'games: for g in &games {
            counts.games += 1;
            for s in g.samples() {
                counts.positions += 1;
                if !sink(s) {
                    break 'games;
                }
            }
        }
    }
    Ok(counts)
}

/// Writes samples in the text form, one a line.
pub fn write_text(out: &mut dyn Write, samples: &[Sample]) -> std::io::Result<()> {
    for s in samples {
        writeln!(out, "{}", s.to_text())?;
    }
    Ok(())
}

/// Summary statistics of a data file: counts, result mix and a score histogram.
pub fn stats(path: &str, skip_bad: bool) -> Result<String, DataError> {
    let mut results = [0u64; 3];
    // Buckets of |score|: 0-50, 50-100, 100-200, 200-400, 400-800, 800-1600, 1600+.
    const EDGES: [i32; 6] = [50, 100, 200, 400, 800, 1600];
    let mut hist = [0u64; 7];
    let counts = read_samples(path, skip_bad, &mut |s| {
        results[s.result.code() as usize] += 1;
        let a = (s.score as i32).abs();
        let b = EDGES.iter().position(|&e| a < e).unwrap_or(EDGES.len());
        hist[b] += 1;
    })?;
    let n = counts.positions.max(1) as f64;
    let pct = |x: u64| 100.0 * x as f64 / n;
    let mut s = String::new();
    if counts.games > 0 {
        s += &format!("games      {}\n", counts.games);
    }
    s += &format!("positions  {}\n", counts.positions);
    if counts.skipped > 0 {
        s += &format!("skipped    {}\n", counts.skipped);
    }
    s += &format!(
        "results    White wins {:.1} %, draws {:.1} %, Black wins {:.1} %\n",
        pct(results[2]),
        pct(results[1]),
        pct(results[0])
    );
    s += "|score|    positions\n";
    let labels = [
        "0-49", "50-99", "100-199", "200-399", "400-799", "800-1599", "1600+",
    ];
    for (label, &c) in labels.iter().zip(&hist) {
        s += &format!(
            "{label:>9}  {c:>10}  {:5.1} %  {}\n",
            pct(c),
            "#".repeat((pct(c) / 2.0) as usize)
        );
    }
    Ok(s)
}

/// Writes every position of the data file `input` in the text form to `output`; returns the
/// count.
pub fn convert_to_text(input: &str, output: &str, skip_bad: bool) -> Result<u64, DataError> {
    use std::io::Write;
    let io = |source| DataError::Io {
        file: output.to_string(),
        source,
    };
    let file = std::fs::File::create(output).map_err(io)?;
    let mut w = std::io::BufWriter::new(file);
    let mut err = None;
    let counts = read_samples(input, skip_bad, &mut |s| {
        if err.is_none() {
            if let Err(e) = writeln!(w, "{}", s.to_text()) {
                err = Some(e);
            }
        }
    })?;
    if let Some(e) = err {
        return Err(io(e));
    }
    w.flush().map_err(io)?;
    Ok(counts.positions)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_game() -> GameRecord {
        let start =
            Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        let mut b = start;
        let mut plies = Vec::new();
        // A deterministic walk: always the first legal move, with made-up scores.
        for i in 0..40 {
            let moves = b.legal_moves();
            let Some(&m) = moves.as_slice().first() else {
                break;
            };
            plies.push((m, (i * 7 - 100) as i16));
            b.play(m);
        }
        GameRecord {
            start,
            plies,
            result: WhiteResult::Draw,
        }
    }

    #[test]
    fn binary_round_trip() {
        let g = sample_game();
        let mut bytes = Vec::new();
        g.encode(&mut bytes);
        g.encode(&mut bytes);
        let (games, bad) = decode_games(&bytes, "mem", false).unwrap();
        assert_eq!(bad, 0);
        assert_eq!(games, vec![g.clone(), g]);
    }

    #[test]
    fn corrupt_records_are_errors_with_offsets() {
        let g = sample_game();
        let mut bytes = Vec::new();
        g.encode(&mut bytes);
        let one = bytes.len();
        g.encode(&mut bytes);
        // Truncated second record.
        let err = decode_games(&bytes[..bytes.len() - 3], "f", false).unwrap_err();
        assert!(err.to_string().contains(&format!("offset {one}")), "{err}");
        // With skip_bad, the good first game survives.
        let (games, bad) = decode_games(&bytes[..bytes.len() - 3], "f", true).unwrap();
        assert_eq!((games.len(), bad), (1, 1));
        // A move that is not legal.
        let mut broken = bytes.clone();
        let fen_len = broken[2] as usize;
        let first_move = 6 + fen_len;
        broken[first_move] ^= 0x3f;
        broken[first_move + 1] ^= 0x0f;
        let err = decode_games(&broken, "f", false).unwrap_err();
        assert!(err.to_string().contains("offset 0"), "{err}");
        // Garbage.
        assert!(decode_games(b"hello world", "f", false).is_err());
    }

    #[test]
    fn text_round_trip_and_errors() {
        for s in sample_game().samples() {
            assert_eq!(parse_text_line(&s.to_text()).unwrap(), s);
        }
        assert!(parse_text_line("8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 0.5").is_err());
        assert!(parse_text_line(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | x | 0.5"
        )
        .is_err());
        assert!(parse_text_line(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 99999 | 0.5"
        )
        .is_err());
        assert!(parse_text_line(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 5 | 2"
        )
        .is_err());
        assert!(
            parse_text_line("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 5")
                .is_err()
        );
        let s =
            parse_text_line("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | -12 | 1-0")
                .unwrap();
        assert_eq!((s.score, s.result), (-12, WhiteResult::Win));
    }

    #[test]
    fn samples_follow_the_filter() {
        // The Opera game (Morphy v Duke Karl / Count Isouard, Paris 1858). Counted with
        // python-chess 1.11.2, not with this filter: from ply 16 on, the positions not in check
        // whose move is not a capture or promotion are those before Bg5, b5, O-O-O, Rd8, Rd1,
        // Qe6, Qb8+ and Rd8# (8). Rd1 is given a mate score, which keeps it out too.
        let sans = "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 \
                    cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#";
        let start = Board::startpos();
        let mut b = start;
        let mut plies = Vec::new();
        for san in sans.split_whitespace() {
            let m = b.parse_move(san).unwrap();
            let score = if san == "Rd1" { MATE_BOUND as i16 } else { 0 };
            plies.push((m, score));
            b.play(m);
        }
        let g = GameRecord {
            start,
            plies,
            result: WhiteResult::Win,
        };
        let s = g.samples();
        let kept: Vec<String> = s.iter().map(|x| x.board.to_fen()).collect();
        assert_eq!(s.len(), 7, "{kept:?}");
        // The first kept position is the one before 9.Bg5 (ply 16).
        assert_eq!(s[0].board.fullmove_number(), 9);
        assert!(s.iter().all(|x| !x.board.in_check()));
    }
}
