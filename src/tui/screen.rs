//! The full-screen game's terminal: the alternate screen in raw mode with the mouse, the loop
//! that reads keys, clicks, pastes and resizes into `App` and redraws, and leaving cleanly on
//! quit, a signal or a panic (the terminal restored, the game saved).

use super::app::{App, Flow, Key};
use super::game::{write_atomic, PlayOptions};
use super::view;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event, KeyCode, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::Terminal;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the screen redraws while nothing happens (the clocks' tenths of a second).
const FRAME: Duration = Duration::from_millis(50);

/// Puts the terminal back as it was: main screen, cooked mode, no mouse reports.
fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        std::io::stdout(),
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
}

/// Maps a crossterm key to the game's; `None` for keys it does not use.
fn key(code: KeyCode, mods: KeyModifiers) -> Option<Key> {
    if mods.contains(KeyModifiers::CONTROL) {
        return match code {
            KeyCode::Char('c' | 'q' | 'd') => Some(Key::Quit),
            _ => None,
        };
    }
    Some(match code {
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Esc => Key::Esc,
        KeyCode::Tab => Key::Tab,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        _ => return None,
    })
}

/// Runs the full-screen game until the person leaves or a signal comes.
pub fn run(opts: PlayOptions, color: bool) -> Result<(), String> {
    // Everything that can fail on bad options fails here, before the screen changes.
    let mut app = App::new(opts, color)?;
    let signalled = Arc::new(AtomicBool::new(false));
    {
        // SIGINT, SIGTERM, SIGHUP: the loop sees the flag within a frame and leaves cleanly.
        let signalled = Arc::clone(&signalled);
        let _ = ctrlc::set_handler(move || signalled.store(true, Ordering::SeqCst));
    }
    enable_raw_mode().map_err(|e| format!("cannot use this terminal: {e}"))?;
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        hook(info);
    }));
    let _ = execute!(
        std::io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    );
    let result = event_loop(&mut app, &signalled);
    let now = Instant::now();
    restore();
    // Save the final state (the clocks' time too) and say where the game is.
    let mut out = std::io::stdout();
    if let Some((record, path)) = app.snapshot(now) {
        if !record.game.moves().is_empty() {
            let _ = match &path {
                Some(p) => match write_atomic(p, &record.to_pgn()) {
                    Ok(()) => writeln!(
                        out,
                        "Game saved to {}; resume with 'fianchetto play --resume'",
                        p.display()
                    ),
                    Err(e) => writeln!(out, "Could not save the game to {}: {e}", p.display()),
                },
                None => {
                    let name = format!("fianchetto-{}.pgn", std::process::id());
                    match std::fs::write(&name, record.to_pgn()) {
                        Ok(()) => writeln!(
                            out,
                            "No data folder (HOME is not set): game saved to {name}"
                        ),
                        Err(e) => writeln!(out, "Could not save the game: {e}"),
                    }
                }
            };
        }
    }
    let _ = out.flush();
    result
}

fn event_loop(app: &mut App, signalled: &AtomicBool) -> Result<(), String> {
    let backend = CrosstermBackend::new(std::io::stdout());
    let mut terminal = Terminal::new(backend).map_err(|e| e.to_string())?;
    let _ = terminal.clear();
    loop {
        let now = Instant::now();
        app.tick(now);
        // A terminal that went away (a hang-up) cannot be drawn on: leave, the game is saved.
        if terminal.draw(|f| view::draw(f, app, now)).is_err() {
            return Ok(());
        }
        if signalled.load(Ordering::SeqCst) {
            return Ok(());
        }
        match event::poll(FRAME) {
            Ok(true) => {}
            Ok(false) => continue,
            Err(_) => return Ok(()),
        }
        let Ok(ev) = event::read() else {
            return Ok(());
        };
        let now = Instant::now();
        let flow = match ev {
            Event::Key(k) if k.kind != KeyEventKind::Release => match key(k.code, k.modifiers) {
                Some(key) => app.on_key(key, now),
                None => Flow::Continue,
            },
            Event::Paste(text) => {
                app.on_paste(&text);
                Flow::Continue
            }
            Event::Mouse(m) => {
                let size = terminal.size().map_err(|e| e.to_string())?;
                let area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
                let square =
                    view::geometry(area).and_then(|g| g.square_at(m.column, m.row, app.flipped));
                match (m.kind, square) {
                    (MouseEventKind::Down(MouseButton::Left), Some(sq)) if app.setup.is_none() => {
                        app.pick(Some(sq), now)
                    }
                    (MouseEventKind::Up(MouseButton::Left), Some(sq)) if app.setup.is_none() => {
                        app.release(sq, now)
                    }
                    _ => Flow::Continue,
                }
            }
            Event::Resize(..) => {
                let _ = terminal.autoresize();
                Flow::Continue
            }
            _ => Flow::Continue,
        };
        if flow == Flow::Quit {
            return Ok(());
        }
    }
}
