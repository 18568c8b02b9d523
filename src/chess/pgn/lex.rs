//! The PGN lexer: text to tokens with their line and column. It never fails: what it cannot
//! read becomes a `Tok::Bad` that the reader reports in its place.

use super::{PgnErrorKind, MAX_VARIATION_DEPTH};
use std::cmp::Ordering;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
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

pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) line: usize,
    pub(super) column: usize,
}

/// The tokens read so far, and how deep in variations they are.
#[derive(Default)]
struct Tokens {
    tokens: Vec<Token>,
    /// Variations open at this point of the text (a tag section starts again from none).
    depth: usize,
}

impl Tokens {
    /// Adds a token read at `line`:`column`. Variations nested deeper than
    /// [`MAX_VARIATION_DEPTH`] are kept out: their first '(' becomes a `TooDeep` error for the
    /// reader, and the tokens up to its ')' are dropped, so that a hostile text of 20,000
    /// nested variations costs no more memory than one of 100 (and the game after it is
    /// still read).
    fn push(&mut self, tok: Tok, line: usize, column: usize) {
        let tok = match tok {
            Tok::LParen => {
                self.depth += 1;
                match self.depth.cmp(&(MAX_VARIATION_DEPTH + 1)) {
                    Ordering::Less => Tok::LParen,
                    Ordering::Equal => Tok::Bad(Box::new(PgnErrorKind::TooDeep)),
                    Ordering::Greater => return,
                }
            }
            Tok::RParen if self.depth > MAX_VARIATION_DEPTH => {
                self.depth -= 1;
                return;
            }
            Tok::RParen => {
                self.depth = self.depth.saturating_sub(1);
                Tok::RParen
            }
            Tok::LBracket => {
                // Tags never stand inside a variation: a game left unbalanced ends here.
                self.depth = 0;
                Tok::LBracket
            }
            _ if self.depth > MAX_VARIATION_DEPTH => return,
            tok => tok,
        };
        self.tokens.push(Token { tok, line, column });
    }
}

/// Splits the text into tokens with their positions. Never fails: bad input becomes `Tok::Bad`.
///
/// Long on purpose: a single scanner over the characters, one arm per token kind (strings,
/// brace and rest-of-line comments, escapes, move numbers, results, symbols), sharing the
/// position it keeps; the helpers below hold what needs no position.
pub(super) fn lex(text: &str) -> Vec<Token> {
    let mut cur = Cursor::new(text);
    let mut out = Tokens::default();
    let mut at_line_start = true;
    while let Some(c) = cur.peek() {
        let (tl, tc) = (cur.line, cur.column);
        if c == '%' && at_line_start {
            // An escape line: ignored up to its end.
            cur.take_while(|d| d != '\n', |_| ());
            continue;
        }
        at_line_start = c == '\n';
        if c.is_whitespace() || c == '\u{feff}' {
            cur.bump();
            continue;
        }
        let push = |out: &mut Tokens, tok: Tok| out.push(tok, tl, tc);
        match c {
            '[' | ']' | '(' | ')' | '*' => {
                cur.bump();
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
                cur.bump();
                let mut s = String::new();
                cur.take_while(|d| d != '}', |d| s.push(d));
                if cur.bump().is_none() {
                    push(
                        &mut out,
                        Tok::Bad(Box::new(PgnErrorKind::Unterminated("a comment"))),
                    );
                } else {
                    push(&mut out, Tok::Comment(collapse(&s)));
                }
            }
            ';' => {
                cur.bump();
                let mut s = String::new();
                cur.take_while(|d| d != '\n', |d| s.push(d));
                push(&mut out, Tok::Comment(collapse(&s)));
            }
            '"' => {
                cur.bump();
                let mut s = String::new();
                let mut closed = false;
                while let Some(d) = cur.bump() {
                    match d {
                        '"' => {
                            closed = true;
                            break;
                        }
                        '\\' if matches!(cur.peek(), Some('"' | '\\')) => {
                            s.extend(cur.bump());
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
                cur.bump();
                let mut s = String::from("$");
                cur.take_while(|d| d.is_ascii_digit(), |d| s.push(d));
                let tok = match s[1..].parse::<u8>() {
                    Ok(n) => Tok::Nag(n),
                    Err(_) => Tok::Bad(Box::new(PgnErrorKind::BadNag(s))),
                };
                push(&mut out, tok);
            }
            '!' | '?' => {
                let mut s = String::new();
                cur.take_while(|d| matches!(d, '!' | '?'), |d| s.push(d));
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
                while let Some(d) = cur.peek().filter(|&d| is_symbol_char(d)) {
                    s.push(d);
                    cur.bump();
                    // `12.` or `12...`: a move number, even when a move follows without a space.
                    if s.bytes().all(|b| b.is_ascii_digit()) && cur.peek() == Some('.') {
                        cur.take_while(|d| d == '.', |_| ());
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
            '-' if cur.peek_second() == Some('-') => {
                cur.bump();
                cur.bump();
                push(&mut out, Tok::Symbol("--".to_string()));
            }
            '.' => {
                // Stray dots (`1. ... e5`): part of move numbering, nothing to read.
                cur.bump();
            }
            _ => {
                cur.bump();
                push(
                    &mut out,
                    Tok::Bad(Box::new(PgnErrorKind::Unexpected(format!(
                        "character {c:?}"
                    )))),
                );
            }
        }
    }
    out.tokens
}

/// The lexer's place in the text: the characters left and the line and column of the next.
/// It walks the text itself rather than a copy as characters (four bytes each), so reading
/// a request costs no memory beyond its tokens.
struct Cursor<'a> {
    rest: std::str::Chars<'a>,
    line: usize,
    column: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            rest: text.chars(),
            line: 1,
            column: 1,
        }
    }

    /// The next character, not consumed.
    fn peek(&self) -> Option<char> {
        self.rest.clone().next()
    }

    /// The character after the next, not consumed.
    fn peek_second(&self) -> Option<char> {
        self.rest.clone().nth(1)
    }

    /// Consumes the next character, keeping line and column.
    fn bump(&mut self) -> Option<char> {
        let c = self.rest.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    /// Consumes characters while `keep` holds, handing each to `each`.
    fn take_while(&mut self, keep: impl Fn(char) -> bool, mut each: impl FnMut(char)) {
        while let Some(c) = self.peek().filter(|&c| keep(c)) {
            each(c);
            self.bump();
        }
    }
}

pub(super) fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '#' | '=' | ':' | '-' | '/' | '!' | '?')
}

pub(super) fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The NAG a suffix annotation stands for (PGN standard, section 8.2.4).
pub(super) fn suffix_nag(s: &str) -> Option<u8> {
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
