//! The PGN reader: tokens to games, each move checked against the rules as it is read.

use super::lex::{lex, suffix_nag, Tok, Token};
use super::*;

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

/// Reads the game whose tokens start at `start` (game number `game`); returns it or the error
/// that stopped it, and where the next game's tokens start.
///
/// Long on purpose: one pass over the tokens with a match on each kind (tags, move numbers,
/// moves, comments, NAGs, variations opening and closing, the result), all updating the same
/// stack of lines being read; split, each arm would need the whole stack passed to it.
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
