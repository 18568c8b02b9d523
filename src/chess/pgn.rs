//! Portable Game Notation: reading files of many games (tags, comments, NAGs, variations) and
//! writing them back, wrapped at 80 columns.
//!
//! The reader is forgiving where people are sloppy (missing results, `1.e4` without a space,
//! `0-0`, suffix annotations glued to moves, a BOM, CRLF) and strict where a mistake would change
//! the game: an illegal or ambiguous move is an error that names the game, the line and column,
//! the move number and the position. A bad game does not stop the games after it from being read.

use super::board::Board;
use super::fen::FenError;
use super::game::Game;
use super::moves::Move;
use super::san::SanError;
use super::square::Color;
use thiserror::Error;

/// A game as read from PGN: tags, start position, the main line with its annotations, result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in the order they were read.
    pub tags: Vec<(String, String)>,
    /// The start position (from the `FEN` tag, else the standard one).
    pub start: Board,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The main line.
    pub moves: Vec<PgnMove>,
    /// The termination marker: `1-0`, `0-1`, `1/2-1/2` or `*` (also when the file had none).
    pub result: String,
}

/// One move of a line, with what was written after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnMove {
    /// The move.
    pub mv: Move,
    /// Numeric annotation glyphs (`$2`, or `?` read as 2).
    pub nags: Vec<u8>,
    /// Comments after the move, whitespace runs collapsed to one space.
    pub comments: Vec<String>,
    /// Alternatives to this move, each starting from the position before it.
    pub variations: Vec<Variation>,
}

/// A recursive annotation variation: another line from the position before a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variation {
    /// Comments before the variation's first move.
    pub comments: Vec<String>,
    /// The variation's moves.
    pub moves: Vec<PgnMove>,
}

impl PgnMove {
    /// A move with no annotation.
    pub fn new(mv: Move) -> PgnMove {
        PgnMove {
            mv,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// Where a PGN went wrong: which game (1-based), line and column (1-based), and what.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("game {game}, line {line}, column {column}: {kind}")]
pub struct PgnError {
    /// The game's number in the file, counting from 1.
    pub game: usize,
    /// The line of the offending token.
    pub line: usize,
    /// The column (in characters) of the offending token.
    pub column: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// The kinds of PGN error.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PgnErrorKind {
    /// A move that is not legal (or not a move) in its position.
    #[error("move {number}{san}: {reason} (position {fen})")]
    IllegalMove {
        /// The move number as PGN writes it (`12.` or `12...`).
        number: String,
        /// The move as written.
        san: String,
        /// Why it was refused.
        reason: SanError,
        /// The position it was played in.
        fen: String,
    },
    /// The `FEN` tag does not hold a valid position.
    #[error("the FEN tag is not a valid position: {0}")]
    BadFen(FenError),
    /// A character or token that has no place where it stands.
    #[error("unexpected {0}")]
    Unexpected(String),
    /// A comment, string or tag that the file ends inside.
    #[error("the file ends inside {0}")]
    Unterminated(&'static str),
    /// A variation that opens before any move of its line.
    #[error("a variation '(' must follow a move")]
    VariationWithoutMove,
    /// A NAG whose number is not 0–255.
    #[error("{0} is not a NAG (they run from $0 to $255)")]
    BadNag(String),
    /// A null move (`--`, `Z0`) where the side to move is in check: passing would leave the king
    /// to be taken.
    #[error("null move {0} while in check")]
    NullMove(String),
    /// Variations inside variations deeper than [`MAX_VARIATION_DEPTH`]: every walk over a
    /// game's tree (writing, cloning, dropping) recurses once per level, so the depth is bounded
    /// where the tree is made.
    #[error("variations nested deeper than {MAX_VARIATION_DEPTH}")]
    TooDeep,
}

/// The deepest nesting of variations the reader accepts. Annotated master games rarely nest
/// beyond ten levels; a hundred keeps every recursive walk over the tree (the writer, `Clone`,
/// `Drop`) far inside the smallest thread stack it runs on (2 MiB for the web server's workers),
/// where a crafted file nesting 20,000 levels overflowed it.
pub const MAX_VARIATION_DEPTH: usize = 100;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    LBracket,
    RBracket,
    Str(String),
    Comment(String),
    LParen,
    RParen,
    Nag(u8),
    MoveNumber,
    Result(String),
    Symbol(String),
    /// Something the lexer could not make sense of: reported by the parser.
    /// Boxed: the error kind is several times the size of every other token, and a hostile
    /// file of 60,000 tokens would otherwise need 8 MB of them.
    Bad(Box<PgnErrorKind>),
}

struct Token {
    tok: Tok,
    line: usize,
    column: usize,
}

/// A PGN `Date` tag's value (YYYY.MM.DD) for `unix_secs` seconds after 1970-01-01 UTC.
pub fn date_tag(unix_secs: u64) -> String {
    let (y, m, d) = civil_from_days((unix_secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a calendar date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Splits the text into tokens with their positions. Never fails: bad input becomes `Tok::Bad`.
fn lex(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    // Advances over one character, keeping line and column.
    let step = |i: &mut usize, line: &mut usize, col: &mut usize| {
        if chars[*i] == '\n' {
            *line += 1;
            *col = 1;
        } else {
            *col += 1;
        }
        *i += 1;
    };
    let mut at_line_start = true;
    while i < chars.len() {
        let c = chars[i];
        let (tl, tc) = (line, col);
        if c == '%' && at_line_start {
            // An escape line: ignored up to its end.
            while i < chars.len() && chars[i] != '\n' {
                step(&mut i, &mut line, &mut col);
            }
            continue;
        }
        at_line_start = c == '\n';
        if c.is_whitespace() || c == '\u{feff}' {
            step(&mut i, &mut line, &mut col);
            continue;
        }
        let push = |out: &mut Vec<Token>, tok: Tok| {
            out.push(Token {
                tok,
                line: tl,
                column: tc,
            })
        };
        match c {
            '[' | ']' | '(' | ')' | '*' => {
                step(&mut i, &mut line, &mut col);
                let tok = match c {
                    '[' => Tok::LBracket,
                    ']' => Tok::RBracket,
                    '(' => Tok::LParen,
                    ')' => Tok::RParen,
                    _ => Tok::Result("*".to_string()),
                };
                push(&mut out, tok);
            }
            '{' => {
                step(&mut i, &mut line, &mut col);
                let mut s = String::new();
                while i < chars.len() && chars[i] != '}' {
                    s.push(chars[i]);
                    step(&mut i, &mut line, &mut col);
                }
                if i == chars.len() {
                    push(
                        &mut out,
                        Tok::Bad(Box::new(PgnErrorKind::Unterminated("a comment"))),
                    );
                } else {
                    step(&mut i, &mut line, &mut col);
                    push(&mut out, Tok::Comment(collapse(&s)));
                }
            }
            ';' => {
                let mut s = String::new();
                step(&mut i, &mut line, &mut col);
                while i < chars.len() && chars[i] != '\n' {
                    s.push(chars[i]);
                    step(&mut i, &mut line, &mut col);
                }
                push(&mut out, Tok::Comment(collapse(&s)));
            }
            '"' => {
                step(&mut i, &mut line, &mut col);
                let mut s = String::new();
                let mut closed = false;
                while i < chars.len() {
                    let d = chars[i];
                    step(&mut i, &mut line, &mut col);
                    match d {
                        '"' => {
                            closed = true;
                            break;
                        }
                        '\\' if i < chars.len() && matches!(chars[i], '"' | '\\') => {
                            s.push(chars[i]);
                            step(&mut i, &mut line, &mut col);
                        }
                        '\n' => break,
                        _ => s.push(d),
                    }
                }
                push(
                    &mut out,
                    if closed {
                        Tok::Str(s)
                    } else {
                        Tok::Bad(Box::new(PgnErrorKind::Unterminated("a string")))
                    },
                );
            }
            '$' => {
                step(&mut i, &mut line, &mut col);
                let mut s = String::from("$");
                while i < chars.len() && chars[i].is_ascii_digit() {
                    s.push(chars[i]);
                    step(&mut i, &mut line, &mut col);
                }
                let tok = match s[1..].parse::<u8>() {
                    Ok(n) => Tok::Nag(n),
                    Err(_) => Tok::Bad(Box::new(PgnErrorKind::BadNag(s))),
                };
                push(&mut out, tok);
            }
            '!' | '?' => {
                let mut s = String::new();
                while i < chars.len() && matches!(chars[i], '!' | '?') {
                    s.push(chars[i]);
                    step(&mut i, &mut line, &mut col);
                }
                let tok = match suffix_nag(&s) {
                    Some(n) => Tok::Nag(n),
                    None => Tok::Bad(Box::new(PgnErrorKind::Unexpected(format!(
                        "annotation {s:?}"
                    )))),
                };
                push(&mut out, tok);
            }
            c if c.is_ascii_alphanumeric() => {
                let mut s = String::new();
                while i < chars.len() && is_symbol_char(chars[i]) {
                    s.push(chars[i]);
                    step(&mut i, &mut line, &mut col);
                    // `12.` or `12...`: a move number, even when a move follows without a space.
                    if s.bytes().all(|b| b.is_ascii_digit()) && i < chars.len() && chars[i] == '.' {
                        while i < chars.len() && chars[i] == '.' {
                            step(&mut i, &mut line, &mut col);
                        }
                        s.clear();
                        break;
                    }
                }
                let tok = if s.is_empty() {
                    Tok::MoveNumber
                } else if matches!(s.as_str(), "1-0" | "0-1" | "1/2-1/2") {
                    Tok::Result(s)
                } else {
                    Tok::Symbol(s)
                };
                push(&mut out, tok);
            }
            '-' if chars.get(i + 1) == Some(&'-') => {
                step(&mut i, &mut line, &mut col);
                step(&mut i, &mut line, &mut col);
                push(&mut out, Tok::Symbol("--".to_string()));
            }
            '.' => {
                // Stray dots (`1. ... e5`): part of move numbering, nothing to read.
                step(&mut i, &mut line, &mut col);
            }
            _ => {
                step(&mut i, &mut line, &mut col);
                push(
                    &mut out,
                    Tok::Bad(Box::new(PgnErrorKind::Unexpected(format!(
                        "character {c:?}"
                    )))),
                );
            }
        }
    }
    out
}

fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '#' | '=' | ':' | '-' | '/' | '!' | '?')
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The NAG a suffix annotation stands for (PGN standard, section 8.2.4).
fn suffix_nag(s: &str) -> Option<u8> {
    Some(match s {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// The suffix annotation that writes a NAG, for the six that have one.
pub fn nag_suffix(nag: u8) -> Option<&'static str> {
    Some(match nag {
        1 => "!",
        2 => "?",
        3 => "!!",
        4 => "??",
        5 => "!?",
        6 => "?!",
        _ => return None,
    })
}

/// A line being read: its boards (before each move, and after the last) and moves.
struct Frame {
    comments: Vec<String>,
    moves: Vec<PgnMove>,
    boards: Vec<Board>,
}

impl Frame {
    fn new(start: Board) -> Frame {
        Frame {
            comments: Vec::new(),
            moves: Vec::new(),
            boards: vec![start],
        }
    }
}

/// Reads every game of a PGN text. Each game is read or reported on its own: an error in one
/// leaves the rest readable. Text without any game gives an empty list.
pub fn read_games(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    let toks = lex(text);
    let mut games = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let number = games.len() + 1;
        let (result, next) = read_game(&toks, i, number);
        games.push(result);
        debug_assert!(next > i, "the reader must advance");
        i = next.max(i + 1);
    }
    games
}

/// Reads PGN from bytes: a BOM is skipped and invalid UTF-8 is replaced, so that a stray
/// Latin-1 name does not cost the game (a binary file then fails on its first token).
pub fn read_games_bytes(bytes: &[u8]) -> Vec<Result<PgnGame, PgnError>> {
    read_games(&String::from_utf8_lossy(bytes))
}

/// Where the game after a bad one starts: the next result token ends the bad game; the next
/// tag section begins a new one.
fn skip_game(toks: &[Token], mut i: usize) -> usize {
    while i < toks.len() {
        match toks[i].tok {
            Tok::Result(_) => return i + 1,
            Tok::LBracket if i > 0 && toks[i].line > toks[i - 1].line => return i,
            _ => i += 1,
        }
    }
    i
}

fn read_game(toks: &[Token], start: usize, game: usize) -> (Result<PgnGame, PgnError>, usize) {
    let err = |t: &Token, kind: PgnErrorKind| PgnError {
        game,
        line: t.line,
        column: t.column,
        kind,
    };
    let fail = |i: usize, e: PgnError| (Err(e), skip_game(toks, i + 1));
    let mut i = start;
    let mut tags = Vec::new();
    let mut fen_at = None;
    // Tag section.
    while i < toks.len() && toks[i].tok == Tok::LBracket {
        let name = match toks.get(i + 1).map(|t| &t.tok) {
            Some(Tok::Symbol(s)) => s.clone(),
            _ => {
                let t = toks.get(i + 1).unwrap_or(&toks[i]);
                return fail(
                    i,
                    err(t, PgnErrorKind::Unexpected("tag without a name".into())),
                );
            }
        };
        let value = match toks.get(i + 2).map(|t| &t.tok) {
            Some(Tok::Str(s)) => s.clone(),
            Some(Tok::Bad(k)) => return fail(i, err(&toks[i + 2], (**k).clone())),
            _ => {
                let t = toks.get(i + 2).unwrap_or(&toks[i + 1]);
                return fail(
                    i,
                    err(
                        t,
                        PgnErrorKind::Unexpected(format!("tag {name} without a value")),
                    ),
                );
            }
        };
        match toks.get(i + 3).map(|t| &t.tok) {
            Some(Tok::RBracket) => {}
            _ => {
                let t = toks.get(i + 3).unwrap_or(&toks[i + 2]);
                return fail(
                    i,
                    err(
                        t,
                        PgnErrorKind::Unexpected(format!("tag {name}: no closing ']'")),
                    ),
                );
            }
        }
        if name.eq_ignore_ascii_case("FEN") {
            fen_at = Some((i, value.clone()));
        }
        tags.push((name, value));
        i += 4;
    }
    let start_board = match &fen_at {
        Some((at, fen)) => match Board::from_fen(fen) {
            Ok(b) => b,
            Err(e) => return fail(*at, err(&toks[*at], PgnErrorKind::BadFen(e))),
        },
        None => Board::startpos(),
    };
    let mut stack = vec![Frame::new(start_board)];
    let mut result = None;
    while i < toks.len() {
        let t = &toks[i];
        match &t.tok {
            Tok::Result(r) => {
                if stack.len() > 1 {
                    return fail(
                        i,
                        err(
                            t,
                            PgnErrorKind::Unexpected(format!("result {r} inside a variation")),
                        ),
                    );
                }
                result = Some(r.clone());
                i += 1;
                break;
            }
            // A tag section at the top level: the next game, this one had no result.
            Tok::LBracket if stack.len() == 1 => break,
            Tok::MoveNumber => i += 1,
            Tok::Comment(c) => {
                // `expect`: the stack never empties; ')' pops only above the main line.
                let top = stack
                    .last_mut()
                    .expect("the main line is always on the stack");
                match top.moves.last_mut() {
                    Some(m) => m.comments.push(c.clone()),
                    None => top.comments.push(c.clone()),
                }
                i += 1;
            }
            Tok::Nag(n) => {
                let top = stack
                    .last_mut()
                    .expect("the main line is always on the stack");
                match top.moves.last_mut() {
                    Some(m) => m.nags.push(*n),
                    None => {
                        return fail(
                            i,
                            err(
                                t,
                                PgnErrorKind::Unexpected("annotation before any move".into()),
                            ),
                        )
                    }
                }
                i += 1;
            }
            Tok::LParen => {
                let top = stack.last().expect("the main line is always on the stack");
                let n = top.moves.len();
                if n == 0 {
                    return fail(i, err(t, PgnErrorKind::VariationWithoutMove));
                }
                if stack.len() > MAX_VARIATION_DEPTH {
                    return fail(i, err(t, PgnErrorKind::TooDeep));
                }
                let before = top.boards[n - 1];
                stack.push(Frame::new(before));
                i += 1;
            }
            Tok::RParen => {
                if stack.len() == 1 {
                    return fail(
                        i,
                        err(
                            t,
                            PgnErrorKind::Unexpected("')' outside a variation".into()),
                        ),
                    );
                }
                let done = stack.pop().expect("checked: more than the main line");
                let parent = stack.last_mut().expect("checked: more than the main line");
                let anchor = parent
                    .moves
                    .last_mut()
                    .expect("a variation opens only after a move");
                anchor.variations.push(Variation {
                    comments: done.comments,
                    moves: done.moves,
                });
                i += 1;
            }
            Tok::Symbol(s) => {
                let top = stack
                    .last_mut()
                    .expect("the main line is always on the stack");
                let board = *top.boards.last().expect("a frame holds at least its start");
                let core = s.trim_end_matches(['!', '?']);
                let suffix = &s[core.len()..];
                // A null move (a pass, as ChessBase and annotators write "--" or "Z0") is kept so
                // that the moves after it read; it is not a move a player made on the board.
                let null = core == "--" || core == "Z0";
                if null && board.in_check() {
                    return fail(i, err(t, PgnErrorKind::NullMove(core.to_string())));
                }
                let parsed = if null {
                    Ok(Move::NULL)
                } else {
                    board.parse_san(core)
                };
                let mv = match parsed {
                    Ok(m) => m,
                    Err(reason) => {
                        let number = if board.side_to_move() == Color::White {
                            format!("{}. ", board.fullmove_number())
                        } else {
                            format!("{}... ", board.fullmove_number())
                        };
                        let kind = PgnErrorKind::IllegalMove {
                            number,
                            san: s.clone(),
                            reason,
                            fen: board.to_fen(),
                        };
                        return fail(i, err(t, kind));
                    }
                };
                let mut pm = PgnMove::new(mv);
                if !suffix.is_empty() {
                    match suffix_nag(suffix) {
                        Some(n) => pm.nags.push(n),
                        None => {
                            return fail(
                                i,
                                err(
                                    t,
                                    PgnErrorKind::Unexpected(format!(
                                        "annotation {suffix:?} after {core}"
                                    )),
                                ),
                            )
                        }
                    }
                }
                top.boards.push(board.after(mv));
                top.moves.push(pm);
                i += 1;
            }
            Tok::Bad(kind) => return fail(i, err(t, (**kind).clone())),
            Tok::LBracket | Tok::RBracket | Tok::Str(_) => {
                let what = match &t.tok {
                    Tok::Str(s) => format!("string {s:?}"),
                    Tok::RBracket => "']'".to_string(),
                    _ => "'[' inside a variation".to_string(),
                };
                return fail(i, err(t, PgnErrorKind::Unexpected(what)));
            }
        }
    }
    if stack.len() > 1 {
        let t = toks.get(i.min(toks.len() - 1)).unwrap_or(&toks[start]);
        return (Err(err(t, PgnErrorKind::Unterminated("a variation"))), i);
    }
    let main = stack.pop().expect("the main line is always on the stack");
    let game_out = PgnGame {
        tags,
        start: main.boards[0],
        comments: main.comments,
        moves: main.moves,
        result: result.unwrap_or_else(|| "*".to_string()),
    };
    (Ok(game_out), i)
}

impl PgnGame {
    /// A game of the given start and main-line moves, with no tags.
    pub fn from_game(game: &Game) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            start: *game.start(),
            comments: Vec::new(),
            moves: game.moves().iter().map(|&m| PgnMove::new(m)).collect(),
            result: game.outcome().map_or("*", |o| o.result()).to_string(),
        }
    }

    /// The value of a tag (names compared without case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing any of the same name.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Whether the main line holds a null move (`--`), which only analysis can step over.
    pub fn has_null_move(&self) -> bool {
        self.moves.iter().any(|m| m.mv == Move::NULL)
    }

    /// The main line as a `Game` (history, outcome).
    pub fn main_line(&self) -> Game {
        let mut g = Game::new(self.start);
        for m in &self.moves {
            // The reader only stores moves legal in their position and null moves where the side
            // to move is not in check, so this cannot fail.
            g.push_or_pass(m.mv)
                .expect("PGN moves were checked when read");
        }
        g
    }

    /// The game as PGN text, movetext wrapped at 80 columns.
    pub fn to_pgn(&self) -> String {
        let mut s = String::new();
        let mut tags = self.tags.clone();
        if self.start != Board::startpos() && self.tag("FEN").is_none() {
            // Readers that know Chess960 (lichess, python-chess, cutechess) need the tag to read
            // its castling rights and moves.
            if self.start.is_chess960() && self.tag("Variant").is_none() {
                tags.push(("Variant".into(), "Chess960".into()));
            }
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), self.start.to_fen()));
        }
        for (n, v) in &tags {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            s.push_str(&format!("[{n} \"{v}\"]\n"));
        }
        if !tags.is_empty() {
            s.push('\n');
        }
        let mut words = Vec::new();
        comment_words(&self.comments, &mut words);
        line_words(&self.start, &self.moves, &mut words);
        words.push(self.result.clone());
        let mut line = String::new();
        for w in words {
            // A line that began with '%' would be read as an escape line: such a word stays on
            // the line before, however long.
            if !line.is_empty()
                && line.chars().count() + 1 + w.chars().count() > 79
                && !w.starts_with('%')
            {
                s.push_str(&line);
                s.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
            // A `;` comment runs to the end of its line.
            if w.starts_with(';') {
                s.push_str(&line);
                s.push('\n');
                line.clear();
            }
        }
        s.push_str(&line);
        s.push('\n');
        s
    }
}

fn comment_words(comments: &[String], out: &mut Vec<String>) {
    for c in comments {
        if c.contains('}') {
            // A brace comment cannot hold '}' (a `;` comment read it): write it as one again,
            // and the writer ends the line after it.
            out.push(format!(";{c}"));
            continue;
        }
        // Words to wrap between, except inside a `[%command …]`, which stays on one line for
        // readers that look for it with a simple pattern.
        let mut atoms: Vec<String> = Vec::new();
        let mut open = false;
        for w in c.split_whitespace() {
            match atoms.last_mut() {
                Some(last) if open => {
                    last.push(' ');
                    last.push_str(w);
                }
                _ => atoms.push(w.to_string()),
            }
            if w.starts_with("[%") {
                open = true;
            }
            if w.ends_with(']') {
                open = false;
            }
        }
        // `{ text }` with spaces inside the braces, as lichess writes comments.
        match atoms.len() {
            0 => out.push("{ }".into()),
            n => {
                atoms[0].insert_str(0, "{ ");
                atoms[n - 1].push_str(" }");
                out.extend(atoms);
            }
        }
    }
}

/// The words of a line: move numbers, SAN, NAGs, comments and variations, in PGN's order.
fn line_words(start: &Board, moves: &[PgnMove], out: &mut Vec<String>) {
    let mut board = *start;
    // A black move needs its number at the start of a line and after a comment or variation.
    let mut need_number = true;
    for m in moves {
        // The number and its move are one unit, never split over two lines.
        let white = board.side_to_move() == Color::White;
        let mut san = if white {
            format!("{}. ", board.fullmove_number())
        } else if need_number {
            format!("{}... ", board.fullmove_number())
        } else {
            String::new()
        };
        san.push_str(&board.san(m.mv));
        let mut rest = Vec::new();
        for (k, &n) in m.nags.iter().enumerate() {
            match nag_suffix(n) {
                // A first glyph among the six common ones is written as people write it: `Qxd4??`.
                Some(sfx) if k == 0 => san.push_str(sfx),
                _ => rest.push(format!("${n}")),
            }
        }
        out.push(san);
        out.extend(rest);
        comment_words(&m.comments, out);
        for v in &m.variations {
            let mut inner = Vec::new();
            comment_words(&v.comments, &mut inner);
            line_words(&board, &v.moves, &mut inner);
            // Parentheses join their neighbours, except a `;` comment's: it must stay first on
            // its word and its line must end with it.
            match inner.first_mut() {
                Some(w) if !w.starts_with(';') => w.insert(0, '('),
                _ => inner.insert(0, "(".into()),
            }
            match inner.last_mut() {
                Some(w) if !w.starts_with(';') && w != "(" => w.push(')'),
                Some(w) if w == "(" => w.push(')'),
                _ => inner.push(")".into()),
            }
            out.extend(inner);
        }
        need_number = !m.comments.is_empty() || !m.variations.is_empty();
        board = board.after(m.mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_as_pgn_writes_them() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_424), (2025, 12, 2));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(date_tag(0), "1970.01.01");
        assert_eq!(date_tag(951_782_400), "2000.02.29");
    }

    fn one(text: &str) -> PgnGame {
        let mut g = read_games(text);
        assert_eq!(g.len(), 1, "{g:?}");
        g.remove(0).unwrap()
    }

    #[test]
    fn tags_moves_comments_and_result() {
        let g = one("[Event \"Test \\\"quoted\\\"\"]\n[White \"A\"]\n\n1. e4 {best by test} e5 2. Nf3 $1 Nc6! 1-0\n");
        assert_eq!(g.tag("event"), Some("Test \"quoted\""));
        assert_eq!(g.moves.len(), 4);
        assert_eq!(g.moves[0].comments, vec!["best by test".to_string()]);
        assert_eq!(g.moves[2].nags, vec![1]);
        assert_eq!(g.moves[3].nags, vec![1]);
        assert_eq!(g.result, "1-0");
    }

    #[test]
    fn sloppy_forms() {
        let g = one("1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6 4.0-0 Nxe4?!");
        assert_eq!(g.moves.len(), 8);
        assert_eq!(g.result, "*");
        assert_eq!(g.moves[7].nags, vec![6]);
        assert_eq!(g.main_line().board().fullmove_number(), 5);
    }

    #[test]
    fn null_moves_are_passes_and_round_trip() {
        // "--" and "Z0" both read as a pass; the side to move changes and the game goes on.
        let g = one("1. e4 -- 2. d4 Z0 3. Nf3 e5 *");
        assert_eq!(g.moves.len(), 6);
        assert!(g.has_null_move());
        assert_eq!(g.moves[1].mv, Move::NULL);
        assert_eq!(g.moves[3].mv, Move::NULL);
        let line = g.main_line();
        assert_eq!(
            line.board().to_fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4"
        );
        let text = g.to_pgn();
        assert!(text.contains("1. e4 -- 2. d4 -- 3. Nf3 e5"), "{text}");
        let again = one(&text);
        assert_eq!(again.main_line().moves(), line.moves());
        assert!(!one("1. e4 e5 *").has_null_move());
    }

    #[test]
    fn a_null_move_in_check_is_refused_where_it_stands() {
        let e = read_games("1. e4 f5 2. Qh5+ -- 3. Qxf5 *")
            .remove(0)
            .unwrap_err();
        assert_eq!(e.kind, PgnErrorKind::NullMove("--".to_string()));
        assert_eq!((e.line, e.column), (1, 18));
    }

    #[test]
    fn variations_are_not_main_line() {
        let g = one("1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... c5 (1... e5 2. Nf3) 2. Nf3 *");
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.moves[0].variations.len(), 1);
        assert_eq!(g.moves[0].variations[0].moves.len(), 3);
        assert_eq!(
            g.moves[0].variations[0].moves[1].variations[0].moves.len(),
            2
        );
        assert_eq!(g.moves[1].variations[0].moves.len(), 2);
        assert_eq!(
            g.main_line().board().to_fen(),
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
    }

    #[test]
    fn round_trip() {
        let text = "[Event \"x\"]\n\n{start} 1. e4 $14 {a long comment that goes on and on and on so that it needs to be wrapped somewhere} (1. d4 {queen} d5) 1... e5!! 2. Nf3 ; rest of line\n Nc6 $200 1/2-1/2";
        let g = one(text);
        let out = g.to_pgn();
        assert!(out.lines().all(|l| l.chars().count() <= 79), "{out}");
        assert_eq!(one(&out), g);
    }

    #[test]
    fn a_rest_of_line_comment_with_braces_round_trips() {
        // Found by fuzzing: written as a brace comment, its '}' ended it early.
        let g = one("1. e4 ; a {braced} remark\n e5 *");
        assert_eq!(g.moves[0].comments, vec!["a {braced} remark".to_string()]);
        assert_eq!(one(&g.to_pgn()), g);
    }

    #[test]
    fn line_comments_in_variations_and_percent_words_round_trip() {
        // Found by fuzzing: a variation's `;` comment got the variation's parentheses glued on.
        let g = one("1. e4 (; a {b} c\n 1. d4 ; end of it}\n) (; only}\n) e5 *");
        assert_eq!(g.moves[0].variations.len(), 2);
        assert_eq!(one(&g.to_pgn()), g);
        let long = format!("1. e4 {{ {} %not-an-escape }} e5 *", "word ".repeat(15));
        let g = one(&long);
        let text = g.to_pgn();
        assert!(text.lines().all(|l| !l.starts_with('%')), "{text}");
        assert_eq!(one(&text), g);
    }

    #[test]
    fn errors_name_the_place_and_later_games_still_read() {
        let text = "[Event \"a\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n";
        let games = read_games(text);
        assert_eq!(games.len(), 2);
        let e = games[0].as_ref().unwrap_err();
        assert_eq!((e.game, e.line, e.column), (1, 3, 13));
        let msg = e.to_string();
        assert!(
            msg.contains("2. Ke3")
                && msg.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
            "{msg}"
        );
        assert_eq!(games[1].as_ref().unwrap().moves.len(), 2);
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            "\u{feff}",
            "((((",
            "}{",
            "[",
            "[Event",
            "[Event \"x",
            "1. e4 (",
            "$999",
            "?? e4",
            "\0\u{1}\u{2}",
            "1-0 1-0",
            "e4 )",
        ] {
            let _ = read_games(text);
        }
        assert!(read_games("").is_empty());
        assert!(read_games("hello world").iter().all(|g| g.is_err()));
    }

    fn nested(depth: usize) -> String {
        format!(
            "1. e4 {}{} e5 *",
            "(1. d4 ".repeat(depth),
            ")".repeat(depth)
        )
    }

    #[test]
    fn nesting_is_bounded_with_a_typed_error() {
        // The deepest accepted tree round-trips through the (recursive) writer.
        let game = one(&nested(MAX_VARIATION_DEPTH));
        let mut depth = 0;
        let mut moves = &game.moves;
        while let Some(v) = moves[0].variations.first() {
            depth += 1;
            moves = &v.moves;
        }
        assert_eq!(depth, MAX_VARIATION_DEPTH);
        assert_eq!(one(&game.to_pgn()), game);
        // One level more is refused by name, and the game after it is still read.
        for depth in [MAX_VARIATION_DEPTH + 1, 20_000] {
            let text = format!("{}\n\n[Event \"next\"]\n\n1. d4 *", nested(depth));
            let games = read_games(&text);
            assert_eq!(games.len(), 2, "depth {depth}");
            let e = games[0].as_ref().unwrap_err();
            assert_eq!(e.kind, PgnErrorKind::TooDeep, "depth {depth}");
            assert_eq!(
                e.column,
                7 + 7 * MAX_VARIATION_DEPTH,
                "the first '(' too many"
            );
            assert!(e.to_string().contains("nested deeper than 100"), "{e}");
            assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("next"));
        }
    }
}
