//! The PGN lexer: text to tokens with their line and column. It never fails: what it cannot
//! read becomes a `Tok::Bad` that the reader reports in its place.

use super::PgnErrorKind;

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

/// Splits the text into tokens with their positions. Never fails: bad input becomes `Tok::Bad`.
///
/// Long on purpose: a single scanner over the characters, one arm per token kind (strings,
/// brace and rest-of-line comments, escapes, move numbers, results, symbols), sharing the
/// position it keeps; the helpers below hold what needs no position.
pub(super) fn lex(text: &str) -> Vec<Token> {
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
