//! Drawing the board and the side panel as text, with or without ANSI colour.

use crate::chess::{Board, Color, File, Game, Move, Piece, Rank, Square};

/// How to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours (off for `NO_COLOR` or when output is not a terminal).
    pub color: bool,
    /// Letters instead of Unicode glyphs.
    pub ascii: bool,
    /// Black at the bottom.
    pub flipped: bool,
}

const RESET: &str = "\x1b[0m";
const LIGHT: &str = "\x1b[48;5;180m";
const DARK: &str = "\x1b[48;5;137m";
const LIGHT_HI: &str = "\x1b[48;5;186m";
const DARK_HI: &str = "\x1b[48;5;143m";
const WHITE_FG: &str = "\x1b[1;97m";
const BLACK_FG: &str = "\x1b[1;30m";

/// How a piece is drawn: a letter with `ascii`; with `color` the solid glyph for both sides (the
/// colour tells them apart); else White's hollow glyphs and Black's solid ones.
pub fn piece_char(p: Piece, ascii: bool, color: bool) -> char {
    if ascii {
        p.fen_char()
    } else if color {
        // With colour, both sides use the solid glyphs and the colour tells them apart.
        Piece::new(Color::Black, p.kind).glyph()
    } else {
        p.glyph()
    }
}

/// The board as lines: rank labels on the left, file labels below, seen from White unless flipped.
pub fn board_lines(board: &Board, last: Option<Move>, style: Style) -> Vec<String> {
    let mut lines = Vec::with_capacity(10);
    let ranks: Vec<Rank> = if style.flipped {
        Rank::all().collect()
    } else {
        Rank::all().rev().collect()
    };
    let files: Vec<File> = if style.flipped {
        File::all().rev().collect()
    } else {
        File::all().collect()
    };
    let highlighted = |sq: Square| last.is_some_and(|m| m.from() == sq || m.to() == sq);
    for &rank in &ranks {
        let mut line = format!(" {} ", rank.to_char());
        for &file in &files {
            let sq = Square::from_coords(file, rank);
            let light = (file.index() + rank.index()) % 2 == 1;
            let piece = board.piece_at(sq);
            if style.color {
                let bg = match (light, highlighted(sq)) {
                    (true, false) => LIGHT,
                    (false, false) => DARK,
                    (true, true) => LIGHT_HI,
                    (false, true) => DARK_HI,
                };
                line.push_str(bg);
                match piece {
                    Some(p) => {
                        let fg = if p.color == Color::White {
                            WHITE_FG
                        } else {
                            BLACK_FG
                        };
                        line.push_str(&format!(
                            "{fg} {} ",
                            piece_char(p, style.ascii, style.color)
                        ));
                    }
                    None => line.push_str("   "),
                }
                line.push_str(RESET);
            } else {
                let empty = if highlighted(sq) {
                    '*'
                } else if light {
                    ' '
                } else {
                    '.'
                };
                match piece {
                    Some(p) => {
                        line.push_str(&format!(" {} ", piece_char(p, style.ascii, style.color)))
                    }
                    None => line.push_str(&format!(" {empty} ")),
                }
            }
        }
        lines.push(line);
    }
    let mut footer = String::from("   ");
    for &file in &files {
        footer.push_str(&format!(" {} ", file.to_char()));
    }
    lines.push(footer);
    lines
}

/// The panel beside the board: side to move, move number, evaluation, castling, en passant,
/// check, and the last moves in SAN.
pub fn panel_lines(game: &Game, eval_white_cp: Option<i32>) -> Vec<String> {
    let b = game.board();
    let mut lines = Vec::new();
    lines.push(format!("To move:    {}", b.side_to_move()));
    lines.push(format!("Move:       {}", b.fullmove_number()));
    lines.push(match eval_white_cp {
        Some(cp) => format!("Eval:       {:+.2} (White's view)", cp as f64 / 100.0),
        None => "Eval:       -".to_string(),
    });
    // The model is symmetric, so White's score gives White's chances.
    if let Some(cp) = eval_white_cp {
        let w = crate::search::wdl::wdl(
            crate::search::Score(cp),
            crate::search::wdl::material(game.board()),
        );
        lines.push(format!(
            "Chances:    White {}% draw {}% Black {}%",
            (w.win + 5) / 10,
            (w.draw + 5) / 10,
            (w.loss + 5) / 10
        ));
    }
    // The FEN field, so that Chess960 rights name their rook files where they must.
    lines.push(format!("Castling:   {}", b.castling_fen()));
    lines.push(format!(
        "En passant: {}",
        b.legal_en_passant()
            .map_or("-".to_string(), |s| s.to_string())
    ));
    if b.is_checkmate() {
        lines.push("CHECKMATE".to_string());
    } else if b.in_check() {
        lines.push("CHECK!".to_string());
    } else {
        lines.push(String::new());
    }
    lines.push("Last moves:".to_string());
    let sans = game.san_moves();
    let words: Vec<&str> = sans.split_whitespace().collect();
    // The last few full moves, wrapped onto two lines.
    let tail: Vec<&str> = words.iter().rev().take(12).rev().copied().collect();
    let tail = tail.join(" ");
    let (a, rest) = split_at_width(&tail, 30);
    lines.push(format!("  {a}"));
    if !rest.is_empty() {
        lines.push(format!("  {rest}"));
    }
    lines
}

fn split_at_width(s: &str, width: usize) -> (String, String) {
    let mut first = String::new();
    let mut rest = String::new();
    for w in s.split_whitespace() {
        if rest.is_empty() && first.len() + w.len() < width {
            if !first.is_empty() {
                first.push(' ');
            }
            first.push_str(w);
        } else {
            if !rest.is_empty() {
                rest.push(' ');
            }
            rest.push_str(w);
        }
    }
    (first, rest)
}

/// The board and the panel side by side.
pub fn screen(game: &Game, eval_white_cp: Option<i32>, style: Style) -> String {
    let board = board_lines(game.board(), game.moves().last().copied(), style);
    let panel = panel_lines(game, eval_white_cp);
    let mut out = String::new();
    for (i, line) in board.iter().enumerate() {
        out.push_str(line);
        if let Some(p) = panel.get(i) {
            out.push_str("    ");
            out.push_str(p);
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Style = Style {
        color: false,
        ascii: true,
        flipped: false,
    };

    #[test]
    fn start_position_plain() {
        let lines = board_lines(&Board::startpos(), None, PLAIN);
        assert_eq!(lines[0], " 8  r  n  b  q  k  b  n  r ");
        assert_eq!(lines[7], " 1  R  N  B  Q  K  B  N  R ");
        assert_eq!(lines[3], " 5  .     .     .     .    ");
        assert_eq!(lines[8], "    a  b  c  d  e  f  g  h ");
    }

    #[test]
    fn flipped_puts_black_at_the_bottom() {
        let lines = board_lines(
            &Board::startpos(),
            None,
            Style {
                flipped: true,
                ..PLAIN
            },
        );
        assert_eq!(lines[0], " 1  R  N  B  K  Q  B  N  R ");
        assert_eq!(lines[7], " 8  r  n  b  k  q  b  n  r ");
        assert_eq!(lines[8], "    h  g  f  e  d  c  b  a ");
    }

    #[test]
    fn glyphs_and_colour() {
        let unicode = board_lines(
            &Board::startpos(),
            None,
            Style {
                ascii: false,
                ..PLAIN
            },
        );
        assert!(unicode[0].contains('♜') && unicode[7].contains('♔'));
        let coloured = board_lines(
            &Board::startpos(),
            None,
            Style {
                color: true,
                ascii: false,
                flipped: false,
            },
        );
        assert!(coloured[0].contains("\x1b[48;5;"));
        assert!(!unicode[0].contains('\x1b'));
    }

    #[test]
    fn last_move_highlighted() {
        let mut g = Game::default();
        g.push_text("e4").unwrap();
        let lines = board_lines(g.board(), g.moves().last().copied(), PLAIN);
        assert_eq!(lines[6], " 2  P  P  P  P  *  P  P  P ");
        let panel = panel_lines(&g, Some(25));
        assert!(panel.iter().any(|l| l.contains("1. e4")));
        assert!(panel[2].contains("+0.25"));
    }
}
