//! Drawing the full-screen game with ratatui: the setup form, the board, the clocks, the
//! evaluation, the move list, the status and input lines, and the overlays. `geometry` also
//! maps a mouse click back to its square.

use super::app::{eval_text, white_score, App, Field, Play, PROMOTIONS};
use super::clock::format_clock;
use super::game::Human;
use crate::chess::{Color as Side, Piece, Square};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};
use ratatui::Frame;
use std::time::Instant;

/// The smallest terminal the game draws in (the small board and the lines under it).
pub const MIN_SIZE: (u16, u16) = (30, 12);

/// Square sizes tried from the largest (columns, rows per square).
const CELLS: [(u16, u16); 3] = [(7, 3), (5, 2), (3, 1)];

/// The side column's least useful width.
const SIDE_MIN: u16 = 16;

/// Where things are on the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// The board's squares (without the coordinates).
    pub squares: Rect,
    /// One square's size.
    pub cell: (u16, u16),
    /// The column beside the board (empty when the screen is too narrow).
    pub side: Rect,
    /// Status, input and key lines.
    pub status: Rect,
    /// The input line.
    pub input: Rect,
    /// The keys line.
    pub keys: Rect,
}

/// The layout for a terminal of `area`; `None` when it is too small to play in.
pub fn geometry(area: Rect) -> Option<Geometry> {
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return None;
    }
    // Two rows for the status when there is room (messages with a path run long).
    let status_rows = if area.height >= 16 { 2 } else { 1 };
    let rows = area.height - 2 - status_rows;
    let fits = |(cw, ch): (u16, u16), side: u16| 2 + 8 * cw + side <= area.width && 8 * ch < rows;
    let cell = CELLS
        .iter()
        .copied()
        .find(|&c| fits(c, SIDE_MIN + 1))
        .or_else(|| CELLS.iter().copied().find(|&c| fits(c, 0)))?;
    let squares = Rect::new(area.x + 2, area.y, 8 * cell.0, 8 * cell.1);
    let side_x = squares.right() + 1;
    let side = Rect::new(
        side_x,
        area.y,
        area.right().saturating_sub(side_x).min(44),
        8 * cell.1 + 1,
    );
    let y = area.bottom() - 2 - status_rows;
    Some(Geometry {
        squares,
        cell,
        side,
        status: Rect::new(area.x, y, area.width, status_rows),
        input: Rect::new(area.x, y + status_rows, area.width, 1),
        keys: Rect::new(area.x, y + status_rows + 1, area.width, 1),
    })
}

impl Geometry {
    /// The square under a screen position, as the board faces.
    pub fn square_at(&self, column: u16, row: u16, flipped: bool) -> Option<Square> {
        if !self.squares.contains(Position::new(column, row)) {
            return None;
        }
        let f = (column - self.squares.x) / self.cell.0;
        let r = (row - self.squares.y) / self.cell.1;
        let (file, rank) = if flipped { (7 - f, r) } else { (f, 7 - r) };
        Square::new((rank * 8 + file) as u8)
    }

    /// Where the promotion chooser is drawn: over the middle of the board.
    fn promotion_area(&self) -> Rect {
        let w = 26.min(self.squares.width + 2);
        Rect::new(
            self.squares.x + self.squares.width.saturating_sub(w) / 2,
            self.squares.y + self.squares.height.saturating_sub(3) / 2,
            w,
            3,
        )
    }

    /// The promotion choice (an index into `PROMOTIONS`) under a screen position.
    pub fn promotion_choice_at(&self, column: u16, row: u16) -> Option<usize> {
        let area = self.promotion_area();
        if row != area.y + 1 || column < area.x + 2 {
            return None;
        }
        // Each choice is drawn 3 wide at a 5-column pitch; the gap between counts as the left.
        let i = usize::from((column - area.x - 2) / 5);
        (i < PROMOTIONS.len() && (column - area.x - 2) % 5 < 3).then_some(i)
    }

    /// The screen rectangle of a square.
    fn cell_rect(&self, sq: Square, flipped: bool) -> Rect {
        let (f, r) = (sq.file().index() as u16, sq.rank().index() as u16);
        let (col, row) = if flipped { (7 - f, r) } else { (f, 7 - r) };
        Rect::new(
            self.squares.x + col * self.cell.0,
            self.squares.y + row * self.cell.1,
            self.cell.0,
            self.cell.1,
        )
    }
}

/// The board's colours (lichess's brown board; the tints for the last move, the selection,
/// the targets, the hint, the cursor and check).
mod palette {
    use ratatui::style::Color;
    pub const LIGHT: Color = Color::Rgb(240, 217, 181);
    pub const DARK: Color = Color::Rgb(181, 136, 99);
    pub const LAST_LIGHT: Color = Color::Rgb(205, 210, 106);
    pub const LAST_DARK: Color = Color::Rgb(170, 162, 58);
    pub const SELECTED: Color = Color::Rgb(100, 150, 80);
    pub const TARGET: Color = Color::Rgb(120, 170, 100);
    pub const HINT: Color = Color::Rgb(110, 150, 200);
    pub const CURSOR: Color = Color::Rgb(90, 130, 220);
    pub const CHECK: Color = Color::Rgb(220, 70, 60);
    pub const WHITE_PIECE: Color = Color::Rgb(255, 255, 255);
    pub const BLACK_PIECE: Color = Color::Rgb(0, 0, 0);
}

/// The few non-letter symbols, with plain ASCII stand-ins for `--ascii`.
struct Symbols {
    to_move: &'static str,
    dot: &'static str,
    bar: (char, char),
    cursor: &'static str,
    left: &'static str,
    right: &'static str,
    /// An empty dark square without colour.
    dark: &'static str,
}

/// `--ascii` spells the keys lines' separators and arrows in ASCII.
fn ascii_keys(app: &App, text: &str) -> String {
    if app.ascii {
        text.replace(" · ", " | ")
            .replace("↑↓", "Up/Down")
            .replace("←→", "Left/Right")
    } else {
        text.to_string()
    }
}

fn symbols(app: &App) -> Symbols {
    if app.ascii {
        Symbols {
            to_move: ">",
            dot: ".",
            bar: ('#', '.'),
            cursor: "_",
            left: "<",
            right: ">",
            dark: ".",
        }
    } else {
        Symbols {
            to_move: "▶",
            dot: "•",
            bar: ('█', '░'),
            cursor: "█",
            left: "◀",
            right: "▶",
            dark: "·",
        }
    }
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App, now: Instant) {
    let area = frame.area();
    let buf = frame.buffer_mut();
    render(app, area, buf, now);
}

/// Draws the whole screen into a buffer (the tests' entry point too).
pub fn render(app: &App, area: Rect, buf: &mut Buffer, now: Instant) {
    let Some(g) = geometry(area) else {
        let text = format!(
            "Make the window larger: at least {}x{} (now {}x{}). Ctrl-C leaves; the game is saved.",
            MIN_SIZE.0, MIN_SIZE.1, area.width, area.height
        );
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .render(area, buf);
        return;
    };
    if let Some(setup) = &app.setup {
        draw_setup(app, setup, area, buf);
    } else if let Some(p) = &app.play {
        draw_board(app, p, &g, buf);
        draw_side(app, p, &g, buf, now);
        draw_lines(app, p, &g, buf, now);
        if let Some(choice) = p.promotion {
            draw_promotion(app, p, choice.index, &g, buf);
        }
    }
    if app.help {
        draw_help(area, buf);
    }
}

fn piece_char(app: &App, p: Piece) -> char {
    super::render::piece_char(p, app.ascii, app.color)
}

fn draw_board(app: &App, p: &Play, g: &Geometry, buf: &mut Buffer) {
    let board = p.shown_board();
    let last = p.shown_last_move();
    let live = p.review.is_none();
    let targets: Vec<(Square, bool)> = match p.selected.filter(|_| live) {
        Some(from) => board
            .legal_moves()
            .iter()
            .filter(|m| m.from() == from)
            .map(|m| (m.to(), board.piece_at(m.to()).is_some()))
            .collect(),
        None => Vec::new(),
    };
    let check = board
        .in_check()
        .then(|| board.king_square(board.side_to_move()));
    let hint = p.hint.filter(|_| live);
    for sq in Square::all() {
        let rect = g.cell_rect(sq, app.flipped);
        let light = (sq.file().index() + sq.rank().index()) % 2 == 1;
        let is_last = last.is_some_and(|m| m.from() == sq || m.to() == sq);
        let target = targets.iter().find(|t| t.0 == sq);
        let cursor = live
            && sq == p.cursor
            && app
                .play
                .as_ref()
                .is_some_and(|_| p.record.human != Human::Nobody);
        let selected = live && p.selected == Some(sq);
        let is_hint = hint.is_some_and(|m| m.from() == sq || m.to() == sq);
        let mut style = Style::default();
        if app.color {
            let bg = if selected {
                palette::SELECTED
            } else if cursor {
                palette::CURSOR
            } else if target.is_some_and(|t| t.1) {
                palette::TARGET
            } else if check == Some(sq) {
                palette::CHECK
            } else if is_hint {
                palette::HINT
            } else if is_last {
                if light {
                    palette::LAST_LIGHT
                } else {
                    palette::LAST_DARK
                }
            } else if light {
                palette::LIGHT
            } else {
                palette::DARK
            };
            style = style.bg(bg);
        }
        buf.set_style(rect, style);
        // Without colour, dark squares are dotted and marks stand beside the piece.
        let mid = rect.y + rect.height / 2;
        let centre = rect.x + rect.width / 2;
        if !app.color {
            let marks = if selected {
                Some(('<', '>'))
            } else if cursor {
                Some(('[', ']'))
            } else if target.is_some() {
                Some(('(', ')'))
            } else if check == Some(sq) {
                Some(('!', '!'))
            } else if is_hint {
                Some(('?', '?'))
            } else if is_last {
                Some(('*', '*'))
            } else {
                None
            };
            if let Some((l, r)) = marks {
                buf.set_string(centre - 1, mid, l.to_string(), Style::default());
                buf.set_string(centre + 1, mid, r.to_string(), Style::default());
            }
        }
        match board.piece_at(sq) {
            Some(pc) => {
                let mut s = Style::default().add_modifier(Modifier::BOLD);
                if app.color {
                    s = s.fg(if pc.color == Side::White {
                        palette::WHITE_PIECE
                    } else {
                        palette::BLACK_PIECE
                    });
                }
                buf.set_string(centre, mid, piece_char(app, pc).to_string(), s);
            }
            None if target.is_some() => {
                let s = if app.color {
                    Style::default().fg(palette::SELECTED)
                } else {
                    Style::default()
                };
                buf.set_string(centre, mid, symbols(app).dot, s);
            }
            None if !app.color => {
                let fill = if light { " " } else { symbols(app).dark };
                buf.set_string(centre, mid, fill, Style::default());
            }
            None => {}
        }
    }
    // Coordinates: ranks on the left, files under the board.
    let dim = Style::default().add_modifier(Modifier::DIM);
    for i in 0..8u16 {
        let rank = if app.flipped { i + 1 } else { 8 - i };
        let y = g.squares.y + i * g.cell.1 + g.cell.1 / 2;
        buf.set_string(g.squares.x - 2, y, rank.to_string(), dim);
        let file = if app.flipped { 7 - i } else { i };
        let x = g.squares.x + i * g.cell.0 + g.cell.0 / 2;
        let letter = char::from(b'a' + file as u8);
        buf.set_string(x, g.squares.bottom(), letter.to_string(), dim);
    }
}

/// The player line: name, strength, clock.
fn player_line(app: &App, p: &Play, side: Side, now: Instant, width: u16) -> (String, Style) {
    let name = if p.record.human.plays(side) {
        "You".to_string()
    } else if width < 30 {
        "Bot".to_string()
    } else {
        format!("Fianchetto ({})", p.record.strength)
    };
    let to_move = p.game().board().side_to_move() == side && p.ending().is_none();
    let mut style = Style::default();
    if to_move {
        style = style.add_modifier(Modifier::BOLD);
    }
    let clock = match &p.clocks {
        Some(c) => {
            let ms = c.left_ms(side, now);
            if app.color && ms < 10_000 && to_move {
                style = style.fg(Color::Red);
            }
            format_clock(ms)
        }
        None => String::new(),
    };
    let marker = if to_move { symbols(app).to_move } else { " " };
    let left = format!("{marker} {side}: {name}");
    let w = width as usize;
    let room = w.saturating_sub(clock.chars().count() + 1);
    let left: String = left.chars().take(room).collect();
    let pad = w.saturating_sub(left.chars().count() + clock.chars().count());
    (format!("{left}{}{clock}", " ".repeat(pad)), style)
}

fn draw_side(app: &App, p: &Play, g: &Geometry, buf: &mut Buffer, now: Instant) {
    let s = g.side;
    if s.width < 10 {
        return;
    }
    let (top, bottom) = if app.flipped {
        (Side::White, Side::Black)
    } else {
        (Side::Black, Side::White)
    };
    let (text, style) = player_line(app, p, top, now, s.width);
    buf.set_string(s.x, s.y, text, style);
    let (text, style) = player_line(app, p, bottom, now, s.width);
    buf.set_string(s.x, s.bottom() - 1, text, style);
    let mut y = s.y + 1;
    if app.show_eval && s.height >= 9 {
        for line in eval_lines(app, p, s.width) {
            buf.set_string(s.x, y, line, Style::default());
            y += 1;
        }
    }
    let list = Rect::new(s.x, y, s.width, s.bottom().saturating_sub(y + 1));
    draw_moves(app, p, list, buf);
}

/// The evaluation panel: the score of the shown position, chances, and the bot's thinking.
fn eval_lines(app: &App, p: &Play, width: u16) -> Vec<String> {
    let ply = p.shown_ply();
    let board = p.shown_board();
    let mut lines = Vec::new();
    if board.legal_moves().is_empty() {
        let (what, result) = if board.in_check() {
            let winner = !board.side_to_move();
            (
                "Checkmate",
                if winner == Side::White { "1-0" } else { "0-1" },
            )
        } else {
            ("Stalemate", "1/2-1/2")
        };
        return vec![
            format!("{what} ({result})"),
            String::new(),
            String::new(),
            String::new(),
        ];
    }
    match p.evals.get(&ply) {
        Some(&(score, side)) => {
            let w = white_score(score, side);
            lines.push(format!("Eval {}", eval_text(score, side)));
            let wdl = crate::search::wdl::wdl(w, crate::search::wdl::material(board));
            lines.push(format!(
                "W {}% D {}% B {}%",
                (wdl.win + 5) / 10,
                (wdl.draw + 5) / 10,
                (wdl.loss + 5) / 10
            ));
            // White's share of the bar: its expected score.
            let share = (f64::from(wdl.win) + f64::from(wdl.draw) / 2.0) / 1000.0;
            let n = usize::from(width.saturating_sub(2)).min(30);
            let white = ((share * n as f64).round() as usize).min(n);
            let (fill, empty) = symbols(app).bar;
            lines.push(format!(
                "{}{}",
                fill.to_string().repeat(white),
                empty.to_string().repeat(n - white)
            ));
        }
        None => {
            lines.push("Eval -".to_string());
            lines.push(String::new());
            lines.push(String::new());
        }
    }
    lines.push(match app.thinking() {
        Some((0, _)) => "Thinking...".to_string(),
        Some((d, Some(s))) => format!("Thinking: depth {d}, {}", eval_text(s, Side::White)),
        Some((d, None)) => format!("Thinking: depth {d}"),
        None => String::new(),
    });
    lines
}

fn draw_moves(app: &App, p: &Play, area: Rect, buf: &mut Buffer) {
    if area.height == 0 {
        return;
    }
    let game = p.game();
    let sans = game.start().san_line(game.moves());
    let first_black = game.start().side_to_move() == Side::Black;
    let first_number = u32::from(game.start().fullmove_number());
    // Rows of (number, white ply, black ply) with plies 1-based (the position after it).
    let mut rows: Vec<(u32, Option<usize>, Option<usize>)> = Vec::new();
    let mut ply = 1;
    let mut number = first_number;
    if first_black && !sans.is_empty() {
        rows.push((number, None, Some(1)));
        ply = 2;
        number += 1;
    }
    while ply <= sans.len() {
        let black = (ply < sans.len()).then_some(ply + 1);
        rows.push((number, Some(ply), black));
        ply += 2;
        number += 1;
    }
    let shown = p.shown_ply();
    let shown_row = rows
        .iter()
        .position(|r| r.1 == Some(shown) || r.2 == Some(shown))
        .unwrap_or(0);
    let height = usize::from(area.height);
    let start = (shown_row + 1).saturating_sub(height);
    let col = (usize::from(area.width).saturating_sub(6) / 2).clamp(4, 9);
    for (i, row) in rows.iter().skip(start).take(height).enumerate() {
        let y = area.y + i as u16;
        buf.set_string(
            area.x,
            y,
            format!("{:>3}.", row.0),
            Style::default().add_modifier(Modifier::DIM),
        );
        for (k, ply) in [row.1, row.2].into_iter().enumerate() {
            let x = area.x + 5 + (k * col) as u16;
            if x >= area.right() {
                continue;
            }
            let text = match (ply, k) {
                (Some(n), _) => sans[n - 1].clone(),
                // A game that starts with Black's move: White's first slot is empty.
                (None, 0) => "...".to_string(),
                (None, _) => continue,
            };
            let mut style = Style::default();
            if ply == Some(shown) && shown > 0 {
                style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
            }
            let room = usize::from(area.right() - x);
            let text: String = text.chars().take(room).collect();
            buf.set_string(x, y, text, style);
        }
    }
    if sans.is_empty() {
        buf.set_string(
            area.x,
            area.y,
            "No moves yet.",
            Style::default().add_modifier(Modifier::DIM),
        );
    }
    let _ = app;
}

fn draw_lines(app: &App, p: &Play, g: &Geometry, buf: &mut Buffer, now: Instant) {
    // Too narrow for the side column: the clocks lead the status line instead.
    let clocks = match &p.clocks {
        Some(c) if g.side.width < 10 => format!(
            "W {} B {} | ",
            format_clock(c.left_ms(Side::White, now)),
            format_clock(c.left_ms(Side::Black, now))
        ),
        _ => String::new(),
    };
    let status = if let Some(ply) = p.review {
        format!(
            "Reviewing: after {} of {} plies. [ ] step, End back to the game.",
            ply,
            p.game().moves().len(),
        )
    } else {
        app.message.clone()
    };
    let status = format!("{clocks}{status}");
    let mut style = Style::default();
    if app.color {
        style = style.fg(Color::Yellow);
    }
    Paragraph::new(status)
        .style(style)
        .wrap(Wrap { trim: true })
        .render(g.status, buf);
    let prompt = if p.ending().is_some() {
        "game over> "
    } else if p.record.human == Human::Nobody {
        "bots> "
    } else if p.record.human.plays(p.game().board().side_to_move()) {
        "your move> "
    } else {
        "wait> "
    };
    // The end of a long input stays in view.
    let room = usize::from(g.input.width).saturating_sub(prompt.len() + 1);
    let chars: Vec<char> = app.input.chars().collect();
    let shown: String = chars[chars.len().saturating_sub(room)..].iter().collect();
    let line = format!("{prompt}{shown}{}", symbols(app).cursor);
    buf.set_stringn(
        g.input.x,
        g.input.y,
        line,
        usize::from(g.input.width),
        Style::default().add_modifier(Modifier::BOLD),
    );
    let keys = if p.ending().is_some() {
        "new: another game · [ ] review · ? help · Ctrl-C quit".to_string()
    } else if p.record.human == Human::Nobody {
        format!(
            "Space {} · . step · + faster · - slower ({:.2} s) · [ ] review · Tab eval · ? help · Ctrl-C quit",
            if p.paused { "go on" } else { "pause" },
            p.pace_ms as f64 / 1000.0
        )
    } else {
        "arrows+Enter or mouse: move · [ ] review · Tab eval · ? help · Ctrl-C quit".to_string()
    };
    buf.set_stringn(
        g.keys.x,
        g.keys.y,
        ascii_keys(app, &keys),
        usize::from(g.keys.width),
        Style::default().add_modifier(Modifier::DIM),
    );
}

fn draw_promotion(app: &App, p: &Play, index: usize, g: &Geometry, buf: &mut Buffer) {
    let side = p.game().board().side_to_move();
    let area = g.promotion_area();
    Clear.render(area, buf);
    Block::default()
        .borders(Borders::ALL)
        .title("Promote to")
        .render(area, buf);
    for (i, kind) in PROMOTIONS.iter().enumerate() {
        let pc = Piece::new(side, *kind);
        let text = format!(" {} ", piece_char(app, pc));
        let mut s = Style::default();
        if i == index {
            s = s.add_modifier(Modifier::REVERSED | Modifier::BOLD);
        }
        let x = area.x + 2 + (i as u16) * 5;
        if x + 3 < area.right() {
            buf.set_string(x, area.y + 1, text, s);
        }
    }
}

fn draw_help(area: Rect, buf: &mut Buffer) {
    let w = area.width.min(78);
    let h = area.height.min(12);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    Clear.render(r, buf);
    Paragraph::new(format!("{}\n\nAny key closes this.", super::app::HELP))
        .wrap(Wrap { trim: false })
        .block(Block::default().borders(Borders::ALL).title("Help"))
        .render(r, buf);
}

fn draw_setup(app: &App, setup: &super::app::Setup, area: Rect, buf: &mut Buffer) {
    let w = area.width.min(64);
    // The fields, a line after Resume, a blank and an error line, the keys, the border.
    let h = area.height.min(setup.fields().len() as u16 + 8);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    Block::default()
        .borders(Borders::ALL)
        .title(" Fianchetto: a new game ")
        .render(r, buf);
    let inner = Rect::new(
        r.x + 2,
        r.y + 1,
        r.width.saturating_sub(4),
        r.height.saturating_sub(2),
    );
    let mut y = inner.y;
    for field in setup.fields() {
        if y >= inner.bottom() {
            break;
        }
        let (label, value) = setup.row(field);
        let focused = setup.focus == field;
        let arrows = focused && field != Field::Resume;
        let sym = symbols(app);
        let text = if arrows {
            format!("{label:<13} {} {value} {}", sym.left, sym.right)
        } else if field == Field::Resume {
            format!("{label:<13} {value}")
        } else {
            format!("{label:<13}   {value}")
        };
        let mut style = Style::default();
        if focused {
            style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
        }
        buf.set_stringn(inner.x, y, text, usize::from(inner.width), style);
        y += if field == Field::Resume { 2 } else { 1 };
    }
    y += 1;
    if let Some(e) = &setup.error {
        let s = if app.color {
            Style::default().fg(Color::Red)
        } else {
            Style::default()
        };
        let rows = inner.bottom().saturating_sub(y + 1).min(2);
        Paragraph::new(e.as_str())
            .style(s)
            .wrap(Wrap { trim: true })
            .render(Rect::new(inner.x, y, inner.width, rows), buf);
    }
    let keys = if setup.focus == Field::Resume {
        "Enter resume · ↑↓ choose · q quit"
    } else {
        "↑↓ choose · ←→ change · Enter start · ? help · q quit"
    };
    if inner.bottom() > inner.y {
        buf.set_stringn(
            inner.x,
            inner.bottom() - 1,
            ascii_keys(app, keys),
            usize::from(inner.width),
            Style::default().add_modifier(Modifier::DIM),
        );
    }
}

#[cfg(test)]
mod tests;
