//! The full-screen game's state and what each key, click and tick does to it. Nothing here
//! touches the terminal: `screen` feeds events in and `view` draws the state, so that tests can
//! drive a whole game without one.
//!
//! `setup` is the form before a game, `play` the game itself; this file holds what both share:
//! the app, the keys, the bot's replies and the passing of time.

use super::bot::{Bot, Job, Purpose, Reply};
use super::clock::Clocks;
use super::game::{
    data_dir, load_saved, new_autosave, write_atomic, Ending, Human, PlayError, PlayOptions,
    Record, Resume, Saved, Strength, TimeControl,
};
use crate::chess::{Board, Color, Game, Move, PieceKind, Square};
use crate::search::{Clock, Score};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The longest input line kept: a move or command is a few characters; a paste of a whole book
mod play;
mod setup;

pub use play::{Play, PromotionChoice, PROMOTIONS};
pub use setup::{Field, Setup};

/// is cut here rather than held.
pub const MAX_INPUT: usize = 200;

/// Bot vs bot: the slowest and fastest pace, and the default (about a second a move, so that a
/// person can follow the game).
pub const PACE_MS: (u64, u64, u64) = (0, 8_000, 1_000);

/// What the event loop should do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep going.
    Continue,
    /// Leave (the game is saved first).
    Quit,
}

/// A key, as the game reads it (the terminal layer maps crossterm's keys to these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A printable character.
    Char(char),
    /// Enter.
    Enter,
    /// Backspace.
    Backspace,
    /// Escape.
    Esc,
    /// Tab.
    Tab,
    /// An arrow.
    Up,
    /// An arrow.
    Down,
    /// An arrow.
    Left,
    /// An arrow.
    Right,
    /// Page Up: one move back in review.
    PageUp,
    /// Page Down: one move forward in review.
    PageDown,
    /// Home: the start of the game in review.
    Home,
    /// End: back to the game as it stands.
    End,
    /// Ctrl-C or Ctrl-Q: leave.
    Quit,
}
/// The whole full-screen game.
pub struct App {
    /// The setup form, or `None` once a game is on.
    pub setup: Option<Setup>,
    /// The game, once started.
    pub play: Option<Play>,
    /// The game left for the form by `new`: Esc on the form goes back to it.
    suspended: Option<Play>,
    /// The status line: what just happened, or what went wrong.
    pub message: String,
    /// The input line.
    pub input: String,
    /// The help overlay is shown.
    pub help: bool,
    /// An internal failure that ends the game (the screen loop leaves, saving it).
    pub fatal: Option<PlayError>,
    /// The evaluation panel is shown.
    pub show_eval: bool,
    /// Black at the bottom.
    pub flipped: bool,
    /// Colours (off with `NO_COLOR`).
    pub color: bool,
    /// Letters instead of piece glyphs (`--ascii`).
    pub ascii: bool,
    opts: PlayOptions,
    /// The form as it was last submitted: `new` starts from it.
    last_setup: Option<Setup>,
    bot: Bot,
    next_id: u64,
}

/// The help overlay's text.
pub const HELP: &str = "\
Moves: type them (e4, Nf3, O-O, e8=Q, or e2e4) and press Enter,
  or pick a piece and its square: arrow keys + Enter/Space, or the mouse.
Commands (type them): hint  undo  resign  draw  flip  fen  pgn [FILE]
  eval (show/hide the evaluation)  new (another game)  quit
Keys: Tab evaluation panel   PgUp/PgDn or [ ] step through the game
  Home/End start/now   Esc cancel   ? this help   Ctrl-C leave (saved)
Bot vs bot: Space pause   . one move   + faster   - slower";

impl App {
    /// A new app: the setup screen, or straight into the game when the command line said
    /// enough (a side and a strength, or `--resume`).
    pub fn new(opts: PlayOptions, color: bool) -> Result<App, PlayError> {
        let mut app = App {
            setup: None,
            play: None,
            suspended: None,
            message: String::new(),
            input: String::new(),
            help: false,
            fatal: None,
            show_eval: true,
            flipped: false,
            color,
            ascii: opts.ascii,
            opts,
            last_setup: None,
            bot: Bot::spawn(),
            next_id: 1,
        };
        if let Some(which) = app.opts.resume.clone() {
            let saved = load_saved(&which)?;
            app.start_saved(saved)?;
        } else if let (Some(human), Some(strength)) = (app.opts.human, app.opts.strength) {
            let board = app.start_board(None)?;
            app.start_game(
                Record::new(Game::new(board), human, strength),
                app.opts.time_control,
                None,
                None,
            );
        } else {
            // A bad --fen is an error at once, not after the form.
            app.start_board(None)?;
            app.setup = Some(Setup::new(&app.opts));
        }
        Ok(app)
    }

    fn start_board(&self, chess960: Option<u16>) -> Result<Board, PlayError> {
        if let Some(n) = chess960 {
            let fen = crate::chess::chess960::start_fen(n)?;
            return Ok(crate::command::board_or_start(Some(&fen))?);
        }
        Ok(crate::command::board_or_start(self.opts.fen.as_deref())?)
    }

    fn start_saved(&mut self, saved: Saved) -> Result<(), PlayError> {
        let human = self.opts.human.or(saved.human).unwrap_or(Human::White);
        let strength = self
            .opts
            .strength
            .or(saved.strength)
            .unwrap_or(Strength::Elo(1500));
        // A game resumed from the data folder goes on saving into its own file.
        let autosave = data_dir()
            .filter(|d| saved.path.starts_with(d))
            .map(|_| saved.path.clone());
        let message = format!(
            "Resumed the game of {} plies from {}.",
            saved.game.moves().len(),
            saved.path.display()
        );
        self.start_game(
            Record::new(saved.game, human, strength),
            saved.time_control,
            saved.clocks_ms,
            autosave,
        );
        self.message = message;
        Ok(())
    }

    fn start_game(
        &mut self,
        record: Record,
        time_control: Option<TimeControl>,
        clocks_ms: Option<(u64, u64)>,
        autosave: Option<PathBuf>,
    ) {
        let now = Instant::now();
        let book = self
            .opts
            .book
            .as_ref()
            .and_then(|p| crate::chess::polyglot::Book::load(p).ok());
        self.flipped = record.human == Human::Black;
        let clocks = time_control.map(|tc| match clocks_ms {
            Some((w, b)) => {
                let mut c = Clocks::with_left(tc, w as i64, b as i64);
                let plies = record.game.moves().len();
                c.set_presses(plies);
                // A resumed game's clock runs at once for the side to move.
                if plies >= 2 {
                    c.resume(record.game.board().side_to_move(), now);
                }
                c
            }
            None => Clocks::new(tc),
        });
        let mut record = record;
        record.time_control = time_control;
        // The king's pawn of the person's side: index 12 is e2, 52 is e7.
        let cursor =
            Square::new(if record.human == Human::Black { 52 } else { 12 }).unwrap_or(Square::E1);
        self.cancel_bot();
        self.play = Some(Play {
            record,
            clocks,
            autosave: autosave.or_else(new_autosave),
            evals: HashMap::new(),
            cursor,
            selected: None,
            promotion: None,
            review: None,
            hint: None,
            thinking: None,
            progress: None,
            judging: None,
            pending: None,
            last_move_at: now,
            pace_ms: PACE_MS.2,
            paused: false,
            step: false,
            book,
        });
        self.setup = None;
        self.input.clear();
        self.message =
            "Type a move, or pick a piece with the arrows or the mouse. ? for help.".to_string();
        self.check_ending(now);
        self.autosave(now);
    }

    fn cancel_bot(&mut self) {
        self.bot.cancel(self.next_id);
        if let Some(p) = &mut self.play {
            p.thinking = None;
            p.progress = None;
            p.judging = None;
            p.pending = None;
        }
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id - 1
    }

    /// Saves the game in the data folder (after every move and at the end).
    fn autosave(&mut self, now: Instant) {
        let Some(p) = &mut self.play else { return };
        p.record.clocks_ms = p.clocks.as_ref().map(|c| c.snapshot_ms(now));
        if p.game().moves().is_empty() && p.record.ending.is_none() {
            // Taken back to the start: nothing to resume.
            if let Some(path) = &p.autosave {
                let _ = std::fs::remove_file(path);
            }
            return;
        }
        if let Some(path) = &p.autosave {
            if let Err(e) = write_atomic(path, &p.record.to_pgn()) {
                self.message = format!("Could not autosave to {}: {e}", path.display());
            }
        }
    }

    /// The game as saved now, for the signal handler and for leaving.
    pub fn snapshot(&self, now: Instant) -> Option<(Record, Option<PathBuf>)> {
        let p = self.play.as_ref().or(self.suspended.as_ref())?;
        let mut r = p.record.clone();
        r.clocks_ms = p.clocks.as_ref().map(|c| c.snapshot_ms(now));
        Some((r, p.autosave.clone()))
    }

    /// Handles a pasted text: its printable characters go to the input line, up to the limit.
    pub fn on_paste(&mut self, text: &str) {
        for c in text.chars().filter(|c| !c.is_control()) {
            if self.input.chars().count() >= MAX_INPUT {
                self.message = format!("Input is limited to {MAX_INPUT} characters.");
                break;
            }
            self.input.push(c);
        }
    }

    /// Handles one key.
    pub fn on_key(&mut self, key: Key, now: Instant) -> Flow {
        if key == Key::Quit {
            return Flow::Quit;
        }
        if self.help {
            // Any key closes the help.
            self.help = false;
            return Flow::Continue;
        }
        if self.setup.is_some() {
            return self.on_setup_key(key);
        }
        self.on_game_key(key, now)
    }

    /// Time passes: replies from the bot, clocks and flags, the bot's turn, the pace.
    pub fn tick(&mut self, now: Instant) {
        loop {
            match self.bot.replies.try_recv() {
                Ok(reply) => self.on_reply(reply, now),
                Err(std::sync::mpsc::TryRecvError::Empty) => break,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    // The bot's thread ended, which only a panic in it can do.
                    self.fatal = Some(PlayError::BotStopped);
                    return;
                }
            }
        }
        let Some(p) = &mut self.play else { return };
        if p.ending().is_some() {
            return;
        }
        if let Some(flagged) = p.clocks.as_ref().and_then(|c| c.flagged(now)) {
            let draw = !crate::chess::can_mate(p.game().board(), !flagged);
            self.end(
                Ending::Time {
                    loser: flagged,
                    draw,
                },
                now,
            );
            return;
        }
        if p.human_to_move() {
            return;
        }
        let bots = p.record.human == Human::Nobody;
        // Bot vs bot waits for the pace, unless paused (then for a step).
        let ready = !bots
            || ((!p.paused || p.step)
                && (p.clocks.is_some()
                    || now.saturating_duration_since(p.last_move_at)
                        >= Duration::from_millis(p.pace_ms)));
        if let Some(m) = p.pending {
            if ready {
                p.pending = None;
                p.step = false;
                let san = p.game().board().san(m);
                self.message = format!("Fianchetto plays {san}.");
                self.push(m, now);
            }
            return;
        }
        if p.thinking.is_some() || (bots && p.paused && !p.step) {
            return;
        }
        // The book answers at once.
        let random = crate::rand::clock_random();
        if let Some(m) = p
            .book
            .as_ref()
            .and_then(|b| b.pick(p.game().board(), false, random))
        {
            p.pending = Some(m);
            return;
        }
        let side = p.game().board().side_to_move();
        let clock = p.clocks.as_ref().map(|c| Clock {
            time_ms: c.left_ms(side, now),
            inc_ms: c.control.inc_ms as i64,
            moves_to_go: None,
        });
        let limits = p.record.strength.limits(clock);
        let game = p.record.game.clone();
        let id = self.id();
        if let Some(p) = &mut self.play {
            p.thinking = Some(id);
            p.progress = None;
        }
        self.bot.send(Job::Move { id, game, limits });
    }

    fn on_reply(&mut self, reply: Reply, now: Instant) {
        let Some(p) = &mut self.play else { return };
        let ply = p.game().moves().len();
        let side = p.game().board().side_to_move();
        match reply {
            Reply::Progress { id, depth, score } if p.thinking == Some(id) => {
                p.progress = Some((depth, score));
            }
            Reply::Moved { id, result } if p.thinking == Some(id) => {
                p.thinking = None;
                p.progress = None;
                // The position searched, and the one its move leads to, on the line expected.
                p.evals.insert(ply, (result.score, side));
                p.evals.insert(ply + 1, (result.score, side));
                if let Some(m) = result.best {
                    p.pending = Some(m);
                    self.tick(now);
                }
            }
            Reply::Judged {
                id,
                purpose,
                best,
                score,
            } if p.judging.is_some_and(|(j, _, at)| j == id && at == ply) => {
                p.judging = None;
                p.evals.insert(ply, (score, side));
                match purpose {
                    Purpose::Hint => {
                        p.hint = best;
                        self.message = match best {
                            Some(m) => format!(
                                "Hint: {} ({}).",
                                p.game().board().san(m),
                                eval_text(score, side)
                            ),
                            None => "There is no legal move.".into(),
                        };
                    }
                    Purpose::DrawOffer => {
                        // The judgement is from the person's side: the bot's is the other.
                        if crate::search::skill::accepts_draw(Score(-score.0), ply) {
                            self.message = "Fianchetto accepts the draw.".into();
                            self.end(Ending::DrawAgreed, now);
                        } else {
                            self.message = "Fianchetto declines the draw and plays on.".into();
                        }
                    }
                }
            }
            // A reply to a job that an undo, a new game or the end made moot.
            _ => {}
        }
    }

    /// The bot's move search in flight, for the status: depth and score from White's view.
    pub fn thinking(&self) -> Option<(u32, Option<Score>)> {
        let p = self.play.as_ref()?;
        p.thinking?;
        Some(p.progress.map_or((0, None), |(d, s)| {
            let side = p.game().board().side_to_move();
            (d, Some(white_score(s, side)))
        }))
    }
}

/// A score from the side to move's view, turned to White's.
pub fn white_score(s: Score, side: Color) -> Score {
    if side == Color::White {
        s
    } else {
        Score(-s.0)
    }
}

/// A score for people, from White's view: `+0.35`, `#3` (White mates in 3), `#-3` (Black
/// does). `s` is from the view of `side`, the side to move.
pub fn eval_text(s: Score, side: Color) -> String {
    match s.mate_moves() {
        Some(n) => {
            // Positive: the side to move mates in n; otherwise it is mated in -n of its moves,
            // which the winner completes in as many.
            let (winner, moves) = if n > 0 {
                (side, n)
            } else {
                (!side, (-n).max(1))
            };
            let sign = if winner == Color::White { "" } else { "-" };
            format!("#{sign}{moves}")
        }
        None => crate::format::pawns(white_score(s, side).0),
    }
}

#[cfg(test)]
mod tests;
