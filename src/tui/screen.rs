//! The full-screen game's terminal: the alternate screen in raw mode with the mouse, the loop
//! that reads keys, clicks, pastes and resizes into `App` and redraws, and leaving cleanly on
//! quit, a signal or a panic (the terminal restored, the game saved).

use super::app::{App, Flow};
use super::game::Record;
use super::game::{save_on_leaving, write_atomic, PlayError, PlayOptions};
use super::keys::{Button, Input, Parser};
use super::view;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::Terminal;
use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the screen redraws while nothing happens (the clocks' tenths of a second).
const FRAME: Duration = Duration::from_millis(50);

/// Puts the terminal back as it was: main screen, cooked mode, no mouse reports.
fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        std::io::stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
}

/// The game as it stands, for the signal handler.
type Snapshot = Arc<Mutex<Option<(Record, Option<PathBuf>)>>>;

/// Saves the game on leaving and says where (nothing when no move was played). After a
/// hang-up the terminal is gone: nothing here may fail on writing.
fn save_and_say(snapshot: Option<(Record, Option<PathBuf>)>) {
    let mut out = std::io::stdout();
    let Some((record, path)) = snapshot else {
        return;
    };
    if record.game.moves().is_empty() {
        return;
    }
    let _ = writeln!(out, "{}", save_on_leaving(&record, path.as_deref()));
    let _ = out.flush();
}

/// Runs the full-screen game until the person leaves or a signal comes.
pub fn run(opts: PlayOptions, color: bool) -> Result<(), PlayError> {
    // Everything that can fail on bad options fails here, before the screen changes.
    let mut app = App::new(opts, color)?;
    let snapshot: Snapshot = Arc::new(Mutex::new(None));
    {
        // SIGINT, SIGTERM, SIGHUP: restore the terminal, save, leave, from the handler's own
        // thread. The loop may never see a flag: after a hang-up the terminal's input reads as
        // end-of-file, which the event reader retries without returning.
        let snapshot = Arc::clone(&snapshot);
        let _ = ctrlc::set_handler(move || {
            // Save first: writing to a terminal that is gone or full may block.
            let s = snapshot.lock().ok().and_then(|mut s| s.take());
            if let Some((record, Some(path))) = &s {
                let _ = write_atomic(path, &record.to_pgn());
            }
            restore();
            save_and_say(s);
            std::process::exit(130);
        });
    }
    enable_raw_mode()?;
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        hook(info);
    }));
    // No bracketed paste: a paste-start that never ends would hold every key, Ctrl-C too.
    let _ = execute!(std::io::stdout(), EnterAlternateScreen, EnableMouseCapture);
    let result = event_loop(&mut app, &snapshot);
    let now = Instant::now();
    // Only one of us saves: taking the handler's copy leaves it nothing to write.
    if let Ok(mut s) = snapshot.lock() {
        s.take();
    }
    restore();
    save_and_say(app.snapshot(now));
    match app.fatal.take() {
        Some(why) => Err(why),
        None => result,
    }
}

fn event_loop(app: &mut App, snapshot: &Snapshot) -> Result<(), PlayError> {
    let backend = CrosstermBackend::new(std::io::stdout());
    let mut terminal = Terminal::new(backend)?;
    let _ = terminal.clear();
    // The terminal's bytes, read on their own thread; its end (a hang-up, end of input) closes
    // the channel, and the loop leaves.
    let (tx, bytes) = std::sync::mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        use std::io::Read;
        let mut stdin = std::io::stdin().lock();
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdin.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut parser = Parser::default();
    loop {
        let now = Instant::now();
        app.tick(now);
        if app.fatal.is_some() {
            return Ok(());
        }
        // The signal handler's copy, clocks and all, at most a frame old.
        if let Ok(mut s) = snapshot.lock() {
            *s = app.snapshot(now);
        }
        // A terminal that went away cannot be drawn on (ratatui also follows resizes here).
        if terminal.draw(|f| view::draw(f, app, now)).is_err() {
            return Ok(());
        }
        // Everything that arrived is handled before the next drawing (a long paste arrives as
        // thousands of keys), for a frame at most: a flood must not stop the clocks and the bot.
        let batch = Instant::now();
        let mut inputs = match bytes.recv_timeout(FRAME) {
            Ok(b) => parser.feed(&b),
            Err(RecvTimeoutError::Timeout) => parser.flush(),
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        };
        while batch.elapsed() < FRAME {
            match bytes.try_recv() {
                Ok(b) => inputs.extend(parser.feed(&b)),
                Err(_) => break,
            }
        }
        for input in inputs {
            if handle(app, &mut terminal, input)? == Flow::Quit {
                return Ok(());
            }
        }
    }
}

/// One key or click.
fn handle(
    app: &mut App,
    terminal: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
    input: Input,
) -> Result<Flow, PlayError> {
    let now = Instant::now();
    let (button, column, row) = match input {
        Input::Key(key) => return Ok(app.on_key(key, now)),
        Input::Mouse {
            button,
            column,
            row,
        } => (button, column, row),
    };
    let size = terminal.size()?;
    let area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
    let Some(g) = view::geometry(area) else {
        return Ok(Flow::Continue);
    };
    if app.setup.is_some() {
        return Ok(Flow::Continue);
    }
    let promoting = app.play.as_ref().is_some_and(|p| p.promotion.is_some());
    if promoting {
        // Only the chooser takes clicks while it is open.
        return Ok(match (button, g.promotion_choice_at(column, row)) {
            (Button::Down, Some(i)) => app.choose_promotion(i, now),
            _ => Flow::Continue,
        });
    }
    Ok(match (button, g.square_at(column, row, app.flipped)) {
        (Button::Down, Some(sq)) => app.pick(Some(sq), now),
        (Button::Up, Some(sq)) => app.release(sq, now),
        _ => Flow::Continue,
    })
}
