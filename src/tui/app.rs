//! The full-screen game's state and what each key, click and tick does to it. Nothing here
//! touches the terminal: `screen` feeds events in and `view` draws the state, so that tests can
//! drive a whole game without one.

use super::bot::{Bot, Job, Purpose, Reply};
use super::clock::Clocks;
use super::game::{
    accepts_draw, can_mate, data_dir, load_saved, new_autosave, write_atomic, Ending, Human,
    PlayOptions, Record, Resume, Saved, Strength, TimeControl,
};
use crate::chess::{Board, Color, Game, Move, PieceKind, Square};
use crate::search::{Clock, Score};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The longest input line kept: a move or command is a few characters; a paste of a whole book
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

/// One choice on the setup screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Continue the last saved game.
    Resume,
    /// Which side the person plays.
    Side,
    /// Rating, depth or time per move.
    StrengthKind,
    /// Its value.
    StrengthValue,
    /// The clock.
    Clock,
    /// The start position.
    Start,
}

/// Side choices on the setup screen.
const SIDES: [&str; 4] = ["White", "Black", "Random", "Bot vs bot"];
/// Strength kinds on the setup screen.
const KINDS: [&str; 3] = ["Rating", "Depth", "Time per move"];
/// Depths offered.
const DEPTHS: [u32; 10] = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16];
/// Times per move offered, milliseconds.
const MOVETIMES: [u64; 6] = [100, 500, 1000, 2000, 5000, 10_000];
/// Clocks offered (minutes, seconds); the last entry of the list is "custom".
const CLOCKS: [(u64, u64); 9] = [
    (1, 0),
    (3, 0),
    (3, 2),
    (5, 0),
    (5, 3),
    (10, 0),
    (10, 5),
    (15, 10),
    (30, 0),
];

/// The setup screen: the menus of the line mode as one keyboard-driven form.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The field with the focus.
    pub focus: Field,
    /// Index into `SIDES`.
    pub side: usize,
    /// Index into `KINDS`.
    pub kind: usize,
    /// The rating (1300-2800 in steps of 100).
    pub elo: u32,
    /// Index into `DEPTHS`.
    pub depth: usize,
    /// Index into `MOVETIMES`.
    pub movetime: usize,
    /// 0 untimed, 1..=9 `CLOCKS`, 10 custom.
    pub clock: usize,
    /// The custom clock as typed.
    pub custom_clock: String,
    /// 0 the standard position (or `--fen`), 1 Chess960 random, 2 Chess960 number `n960`.
    pub start: usize,
    /// The Chess960 position number as typed.
    pub n960: String,
    /// The last saved game, if there is one, and what it is.
    pub resumable: Option<(PathBuf, String)>,
    /// A problem with the form, shown under it.
    pub error: Option<String>,
}

impl Setup {
    fn new(opts: &PlayOptions) -> Setup {
        let resumable = load_saved(&Resume::Last).ok().map(|s| {
            let p = s.path.clone();
            let side = match s.human {
                Some(Human::White) => "you play White",
                Some(Human::Black) => "you play Black",
                Some(Human::Nobody) => "bot vs bot",
                None => "side unknown",
            };
            let n = s.game.moves().len();
            let strength = s.strength.map_or(String::new(), |st| format!(", {st}"));
            let moves = match n {
                1 => "1 ply".to_string(),
                n => format!("{n} plies"),
            };
            (p, format!("{moves}, {side}{strength}"))
        });
        let mut s = Setup {
            focus: if resumable.is_some() {
                Field::Resume
            } else {
                Field::Side
            },
            side: 0,
            kind: 0,
            elo: 1500,
            depth: 3,
            movetime: 2,
            clock: 0,
            custom_clock: String::new(),
            start: 0,
            n960: String::new(),
            resumable,
            error: None,
        };
        match opts.human {
            Some(Human::Black) => s.side = 1,
            Some(Human::Nobody) => s.side = 3,
            _ => {}
        }
        match opts.strength {
            Some(Strength::Elo(e)) => s.elo = e,
            Some(Strength::Depth(d)) => {
                s.kind = 1;
                s.depth = DEPTHS
                    .iter()
                    .position(|&x| x >= d)
                    .unwrap_or(DEPTHS.len() - 1);
            }
            Some(Strength::Movetime(ms)) => {
                s.kind = 2;
                s.movetime = MOVETIMES
                    .iter()
                    .position(|&x| x >= ms)
                    .unwrap_or(MOVETIMES.len() - 1);
            }
            None => {}
        }
        if let Some(tc) = opts.time_control {
            s.clock = 10;
            s.custom_clock = tc.to_string();
        }
        s
    }

    /// The fields in screen order (Resume only when there is a game to resume).
    pub fn fields(&self) -> Vec<Field> {
        let mut f = Vec::new();
        if self.resumable.is_some() {
            f.push(Field::Resume);
        }
        f.extend([
            Field::Side,
            Field::StrengthKind,
            Field::StrengthValue,
            Field::Clock,
            Field::Start,
        ]);
        f
    }

    /// The label and the value shown for a field.
    pub fn row(&self, field: Field) -> (&'static str, String) {
        match field {
            Field::Resume => (
                "Resume",
                self.resumable
                    .as_ref()
                    .map_or(String::new(), |(_, d)| format!("last game ({d})")),
            ),
            Field::Side => ("You play", SIDES[self.side].to_string()),
            Field::StrengthKind => ("Bot strength", KINDS[self.kind].to_string()),
            Field::StrengthValue => ("", self.strength().to_string()),
            Field::Clock => (
                "Clock",
                match self.clock {
                    0 => "untimed".to_string(),
                    10 if self.custom_clock.is_empty() => "custom: type minutes+seconds".into(),
                    10 => format!("custom: {}", self.custom_clock),
                    i => format!("{}+{}", CLOCKS[i - 1].0, CLOCKS[i - 1].1),
                },
            ),
            Field::Start => (
                "Start",
                match self.start {
                    0 => "standard position".to_string(),
                    1 => "Chess960, a random one of the 960".to_string(),
                    _ if self.n960.is_empty() => "Chess960 number: type 0-959".to_string(),
                    _ => format!("Chess960 number {}", self.n960),
                },
            ),
        }
    }

    fn strength(&self) -> Strength {
        match self.kind {
            0 => Strength::Elo(self.elo),
            1 => Strength::Depth(DEPTHS[self.depth]),
            _ => Strength::Movetime(MOVETIMES[self.movetime]),
        }
    }

    fn time_control(&self) -> Result<Option<TimeControl>, String> {
        match self.clock {
            0 => Ok(None),
            10 => TimeControl::parse(&self.custom_clock)
                .map(Some)
                .map_err(|e| e.to_string()),
            i => Ok(Some(TimeControl {
                base_ms: CLOCKS[i - 1].0 * 60_000,
                inc_ms: CLOCKS[i - 1].1 * 1000,
            })),
        }
    }

    /// Moves the focused field's value one step (`delta` is -1 or +1).
    fn change(&mut self, delta: i64) {
        let step = |v: usize, n: usize| (v as i64 + delta).rem_euclid(n as i64) as usize;
        match self.focus {
            Field::Resume => {}
            Field::Side => self.side = step(self.side, SIDES.len()),
            Field::StrengthKind => self.kind = step(self.kind, KINDS.len()),
            Field::StrengthValue => match self.kind {
                0 => {
                    let e = self.elo as i64 + 100 * delta;
                    self.elo = e.clamp(
                        i64::from(crate::search::skill::ELO_MIN),
                        i64::from(crate::search::skill::ELO_MAX),
                    ) as u32;
                }
                // Strengths stop at their ends: one key too many must not wrap to the other.
                1 => {
                    self.depth =
                        (self.depth as i64 + delta).clamp(0, DEPTHS.len() as i64 - 1) as usize
                }
                _ => {
                    self.movetime =
                        (self.movetime as i64 + delta).clamp(0, MOVETIMES.len() as i64 - 1) as usize
                }
            },
            Field::Clock => self.clock = step(self.clock, CLOCKS.len() + 2),
            Field::Start => self.start = step(self.start, 3),
        }
        self.error = None;
    }

    /// Typing into the custom clock or the Chess960 number.
    fn type_char(&mut self, c: char) {
        match self.focus {
            Field::Clock if c.is_ascii_digit() || c == '+' || c == '.' => {
                if self.clock != 10 {
                    self.clock = 10;
                    self.custom_clock.clear();
                }
                if self.custom_clock.len() < 12 {
                    self.custom_clock.push(c);
                }
            }
            Field::Start if c.is_ascii_digit() => {
                if self.start != 2 {
                    self.start = 2;
                    self.n960.clear();
                }
                if self.n960.len() < 3 {
                    self.n960.push(c);
                }
            }
            _ => {}
        }
        self.error = None;
    }

    /// Whether the focused field is one being typed into (a custom clock, a Chess960 number).
    fn typing(&self) -> bool {
        (self.focus == Field::Clock && self.clock == 10)
            || (self.focus == Field::Start && self.start == 2)
    }

    fn backspace(&mut self) {
        match self.focus {
            Field::Clock if self.clock == 10 => {
                self.custom_clock.pop();
            }
            Field::Start if self.start == 2 => {
                self.n960.pop();
            }
            _ => {}
        }
    }
}

/// A promotion waiting for the person to pick the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PromotionChoice {
    /// The pawn's square.
    pub from: Square,
    /// Where it promotes.
    pub to: Square,
    /// Index into `PROMOTIONS` of the highlighted piece.
    pub index: usize,
}

/// The pieces a pawn can become, in the chooser's order.
pub const PROMOTIONS: [PieceKind; 4] = [
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
];

/// A game in progress (or over, and still on screen).
pub struct Play {
    /// The game, who plays it, and how it ended.
    pub record: Record,
    /// The clocks, when the game is timed.
    pub clocks: Option<Clocks>,
    /// Where the game is saved after every move (the data folder).
    pub autosave: Option<PathBuf>,
    /// Evaluations by ply: the score of that position and the side to move there.
    pub evals: HashMap<usize, (Score, Color)>,
    /// The square under the keyboard cursor.
    pub cursor: Square,
    /// The piece picked up, if any.
    pub selected: Option<Square>,
    /// A promotion waiting for its piece.
    pub promotion: Option<PromotionChoice>,
    /// The ply shown while reviewing (`None`: the game as it stands).
    pub review: Option<usize>,
    /// The last hint, shown on the board until the next move.
    pub hint: Option<Move>,
    /// The move search in flight: its job number and when it started.
    pub thinking: Option<u64>,
    /// The deepest iteration of the search in flight: depth and score.
    pub progress: Option<(u32, Score)>,
    /// A judgement in flight: its job, why, and the ply it judges.
    pub judging: Option<(u64, Purpose, usize)>,
    /// A bot move found but held back until the pace allows it (bot vs bot).
    pub pending: Option<Move>,
    /// When the last move was played.
    pub last_move_at: Instant,
    /// Bot vs bot: milliseconds per move at least.
    pub pace_ms: u64,
    /// Bot vs bot: paused.
    pub paused: bool,
    /// Bot vs bot: play one move while paused.
    pub step: bool,
    /// The bot's opening book.
    pub book: Option<crate::chess::polyglot::Book>,
}

impl Play {
    /// The game.
    pub fn game(&self) -> &Game {
        &self.record.game
    }

    /// The ply on the board: the one reviewed, or the last.
    pub fn shown_ply(&self) -> usize {
        self.review.unwrap_or(self.game().moves().len())
    }

    /// The position on the board.
    pub fn shown_board(&self) -> &Board {
        &self.game().positions()[self.shown_ply()]
    }

    /// The move that led to the shown position.
    pub fn shown_last_move(&self) -> Option<Move> {
        let ply = self.shown_ply();
        (ply > 0).then(|| self.game().moves()[ply - 1])
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.record.ending
    }

    fn human_to_move(&self) -> bool {
        self.record.human.plays(self.game().board().side_to_move())
    }
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
    pub fatal: Option<String>,
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
    pub fn new(opts: PlayOptions, color: bool) -> Result<App, String> {
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

    fn start_board(&self, chess960: Option<u16>) -> Result<Board, String> {
        if let Some(n) = chess960 {
            let fen = crate::chess::chess960::start_fen(n).map_err(|e| e.to_string())?;
            return Board::from_fen(&fen).map_err(|e| format!("bad FEN: {e}"));
        }
        match &self.opts.fen {
            Some(f) => Board::from_fen(f).map_err(|e| format!("bad FEN: {e}")),
            None => Ok(Board::startpos()),
        }
    }

    fn start_saved(&mut self, saved: Saved) -> Result<(), String> {
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

    fn on_setup_key(&mut self, key: Key) -> Flow {
        let Some(s) = &mut self.setup else {
            return Flow::Continue;
        };
        let fields = s.fields();
        let at = fields.iter().position(|&f| f == s.focus).unwrap_or(0);
        match key {
            Key::Up => s.focus = fields[(at + fields.len() - 1) % fields.len()],
            Key::Down | Key::Tab => s.focus = fields[(at + 1) % fields.len()],
            Key::Left => s.change(-1),
            Key::Right => s.change(1),
            Key::Char(' ') if !s.typing() => s.change(1),
            Key::Backspace => s.backspace(),
            // Back to the game that `new` left, else leave.
            Key::Esc if self.suspended.is_some() => {
                self.play = self.suspended.take();
                self.setup = None;
                self.message = "Back to the game.".into();
            }
            Key::Esc => return Flow::Quit,
            Key::Char('q') if !s.typing() => return Flow::Quit,
            Key::Char('?') => self.help = true,
            Key::Char(c) => s.type_char(c),
            Key::Enter => self.submit_setup(),
            _ => {}
        }
        Flow::Continue
    }

    fn submit_setup(&mut self) {
        let Some(s) = self.setup.clone() else { return };
        // The game `new` left is saved; a new one replaces it.
        self.suspended = None;
        self.last_setup = Some(s.clone());
        if s.focus == Field::Resume {
            if let Some((path, _)) = &s.resumable {
                match load_saved(&Resume::File(path.clone())).and_then(|g| self.start_saved(g)) {
                    Ok(()) => {}
                    Err(e) => self.set_setup_error(e),
                }
            }
            return;
        }
        let time_control = match s.time_control() {
            Ok(tc) => tc,
            Err(e) => return self.set_setup_error(e),
        };
        let chess960 = match s.start {
            0 => None,
            1 => {
                let n = crate::tools::clock_random() % u64::from(crate::chess::chess960::POSITIONS);
                Some(n as u16)
            }
            _ => match s.n960.parse::<u16>() {
                Ok(n) if n < crate::chess::chess960::POSITIONS => Some(n),
                _ => return self.set_setup_error("type a Chess960 number from 0 to 959".into()),
            },
        };
        let board = match self.start_board(chess960) {
            Ok(b) => b,
            Err(e) => return self.set_setup_error(e),
        };
        let human = match s.side {
            0 => Human::White,
            1 => Human::Black,
            2 if crate::tools::clock_random().is_multiple_of(2) => Human::White,
            2 => Human::Black,
            _ => Human::Nobody,
        };
        self.start_game(
            Record::new(Game::new(board), human, s.strength()),
            time_control,
            None,
            None,
        );
        if let Some(n) = chess960 {
            self.message = format!("Chess960 start position {n}. {}", self.message);
        }
    }

    fn set_setup_error(&mut self, e: String) {
        if let Some(s) = &mut self.setup {
            s.error = Some(e);
        }
    }

    fn on_game_key(&mut self, key: Key, now: Instant) -> Flow {
        let Some(p) = &mut self.play else {
            return Flow::Continue;
        };
        // The promotion chooser takes the keys while it is open.
        if let Some(mut choice) = p.promotion {
            match key {
                Key::Left | Key::Up => choice.index = (choice.index + 3) % 4,
                Key::Right | Key::Down => choice.index = (choice.index + 1) % 4,
                Key::Char(c) => {
                    if let Some(i) = "qrbn".find(c.to_ascii_lowercase()) {
                        choice.index = i;
                        p.promotion = None;
                        return self.promote(choice, now);
                    }
                }
                Key::Enter => {
                    p.promotion = None;
                    return self.promote(choice, now);
                }
                Key::Esc => {
                    p.promotion = None;
                    p.selected = None;
                    self.message = "Promotion cancelled.".into();
                    return Flow::Continue;
                }
                _ => {}
            }
            p.promotion = Some(choice);
            return Flow::Continue;
        }
        let input_empty = self.input.is_empty();
        let bots = p.record.human == Human::Nobody;
        match key {
            Key::Enter if !input_empty => {
                let line = std::mem::take(&mut self.input);
                return self.submit(line.trim(), now);
            }
            Key::Enter | Key::Char(' ') if input_empty && !bots => return self.pick(None, now),
            Key::Char(' ') if input_empty && p.ending().is_some() => {}
            Key::Char(' ') if input_empty => {
                p.paused = !p.paused;
                self.message = if p.paused {
                    "Paused: Space goes on, . plays one move.".into()
                } else {
                    "Playing.".into()
                };
            }
            Key::Char('.') if input_empty && bots => {
                p.step = true;
                p.paused = true;
            }
            Key::Char('+') if input_empty && bots => {
                p.pace_ms = (p.pace_ms / 2).max(PACE_MS.0);
                self.message = format!("Pace: {:.2} s per move.", p.pace_ms as f64 / 1000.0);
            }
            Key::Char('-') if input_empty && bots => {
                p.pace_ms = (p.pace_ms * 2).clamp(250, PACE_MS.1);
                self.message = format!("Pace: {:.2} s per move.", p.pace_ms as f64 / 1000.0);
            }
            Key::Char('?') if input_empty => self.help = true,
            Key::Char('[') if input_empty => self.review_step(-1),
            Key::Char(']') if input_empty => self.review_step(1),
            Key::PageUp => self.review_step(-1),
            Key::PageDown => self.review_step(1),
            Key::Home => {
                p.review = Some(0);
            }
            Key::End => {
                p.review = None;
            }
            Key::Tab => self.show_eval = !self.show_eval,
            Key::Esc => {
                if !input_empty {
                    self.input.clear();
                } else if p.selected.is_some() {
                    p.selected = None;
                } else if p.review.is_some() {
                    p.review = None;
                }
            }
            Key::Backspace => {
                self.input.pop();
            }
            Key::Char(c) if !c.is_control() => {
                if self.input.chars().count() < MAX_INPUT {
                    self.input.push(c);
                } else {
                    self.message = format!("Input is limited to {MAX_INPUT} characters.");
                }
            }
            Key::Up | Key::Down | Key::Left | Key::Right => {
                // Up is up on the screen, whichever way the board faces.
                let (df, dr) = match key {
                    Key::Up => (0, 1),
                    Key::Down => (0, -1),
                    Key::Left => (-1, 0),
                    _ => (1, 0),
                };
                let (df, dr) = if self.flipped { (-df, -dr) } else { (df, dr) };
                let f = (p.cursor.file().index() as i32 + df).clamp(0, 7);
                let r = (p.cursor.rank().index() as i32 + dr).clamp(0, 7);
                if let Some(sq) = Square::new((r * 8 + f) as u8) {
                    p.cursor = sq;
                }
            }
            _ => {}
        }
        Flow::Continue
    }

    fn review_step(&mut self, delta: i64) {
        let Some(p) = &mut self.play else { return };
        let last = p.game().moves().len() as i64;
        let at = (p.shown_ply() as i64 + delta).clamp(0, last);
        p.review = (at < last).then_some(at as usize);
        p.selected = None;
    }

    /// A click on `square` (or Enter/Space at the cursor when `None`): pick up a piece, put it
    /// down on a target, or change the piece picked.
    pub fn pick(&mut self, square: Option<Square>, now: Instant) -> Flow {
        let Some(p) = &mut self.play else {
            return Flow::Continue;
        };
        let sq = square.unwrap_or(p.cursor);
        p.cursor = sq;
        if p.review.is_some() {
            p.review = None;
            self.message = "Back to the game as it stands.".into();
            return Flow::Continue;
        }
        if p.ending().is_some() {
            self.message = "The game is over: type 'new' for another, or 'quit'.".into();
            return Flow::Continue;
        }
        if !p.human_to_move() {
            self.message = "Wait for the bot's move.".into();
            return Flow::Continue;
        }
        let board = *p.game().board();
        let own = |s: Square| {
            board
                .piece_at(s)
                .is_some_and(|pc| pc.color == board.side_to_move())
        };
        match p.selected {
            Some(from) if from == sq => {
                p.selected = None;
            }
            Some(from) => {
                let text = format!("{from}{sq}");
                if let Ok(m) = board.parse_uci(&text) {
                    return self.play_human(m, now);
                }
                if board.parse_uci(&format!("{text}q")).is_ok() {
                    p.promotion = Some(PromotionChoice {
                        from,
                        to: sq,
                        index: 0,
                    });
                    self.message =
                        "Promote to: q queen, r rook, b bishop, n knight (Enter picks).".into();
                } else if own(sq) {
                    p.selected = Some(sq);
                } else {
                    let piece = board.piece_at(from).map_or("piece", |pc| pc.kind.name());
                    self.message = format!("The {piece} on {from} cannot go to {sq}.");
                    p.selected = None;
                }
            }
            None if own(sq) => {
                if board.legal_moves().iter().any(|m| m.from() == sq) {
                    p.selected = Some(sq);
                } else {
                    self.message = format!("The piece on {sq} has no legal move.");
                }
            }
            None => {
                self.message = match board.piece_at(sq) {
                    None => format!("{sq} is empty: pick one of your pieces."),
                    Some(pc) => format!("The {} on {sq} is not yours.", pc.kind.name()),
                };
            }
        }
        Flow::Continue
    }

    /// The promotion chooser's piece `index` (into `PROMOTIONS`) was clicked.
    pub fn choose_promotion(&mut self, index: usize, now: Instant) -> Flow {
        let Some(p) = &mut self.play else {
            return Flow::Continue;
        };
        match p.promotion.take() {
            Some(mut choice) if index < PROMOTIONS.len() => {
                choice.index = index;
                self.promote(choice, now)
            }
            other => {
                p.promotion = other;
                Flow::Continue
            }
        }
    }

    /// A mouse button released on `square`: a drag from the picked piece ends there.
    pub fn release(&mut self, square: Square, now: Instant) -> Flow {
        let dragged = self
            .play
            .as_ref()
            .is_some_and(|p| p.selected.is_some_and(|s| s != square) && p.promotion.is_none());
        if dragged {
            return self.pick(Some(square), now);
        }
        Flow::Continue
    }

    fn promote(&mut self, choice: PromotionChoice, now: Instant) -> Flow {
        let Some(p) = &self.play else {
            return Flow::Continue;
        };
        if p.ending().is_some() {
            return Flow::Continue;
        }
        let letter = ['q', 'r', 'b', 'n'][choice.index];
        match p
            .game()
            .board()
            .parse_uci(&format!("{}{}{letter}", choice.from, choice.to))
        {
            Ok(m) => self.play_human(m, now),
            Err(e) => {
                self.message = e.to_string();
                Flow::Continue
            }
        }
    }

    /// Plays the person's move.
    fn play_human(&mut self, m: Move, now: Instant) -> Flow {
        let Some(p) = &mut self.play else {
            return Flow::Continue;
        };
        let san = p.game().board().san(m);
        self.message = format!("You played {san}.");
        self.push(m, now);
        Flow::Continue
    }

    /// Any move onto the board: the clocks, the autosave, the end of the game.
    fn push(&mut self, m: Move, now: Instant) {
        let Some(p) = &mut self.play else { return };
        if p.record.ending.is_some() {
            // Every path to here checks that the game goes on.
            debug_assert!(false, "a move after the end: {m}");
            return;
        }
        let mover = p.game().board().side_to_move();
        if p.record.game.push(m).is_err() {
            // Every caller passes a legal move of this position.
            debug_assert!(false, "an illegal move reached the game: {m}");
            return;
        }
        if let Some(c) = &mut p.clocks {
            c.press(mover, now);
        }
        p.selected = None;
        p.hint = None;
        // A hint or a draw offer was about the position before this move.
        p.judging = None;
        // The person's move returns to the game; the bot's leaves a review where it is.
        if p.record.human.plays(mover) {
            p.review = None;
        }
        p.last_move_at = now;
        self.check_ending(now);
        self.autosave(now);
    }

    fn check_ending(&mut self, now: Instant) {
        let Some(p) = &mut self.play else { return };
        if p.record.ending.is_none() {
            if let Some(o) = p.game().outcome() {
                p.record.ending = Some(crate::tui::game::Ending::Rule(o));
            }
        }
        if let Some(e) = p.record.ending {
            if let Some(c) = &mut p.clocks {
                c.stop(now);
            }
            let who = match e.winner() {
                Some(w) if p.record.human.plays(w) => " You win!",
                Some(_) if p.record.human != Human::Nobody => " Fianchetto wins.",
                _ => "",
            };
            self.message = format!(
                "{}{who} ({}) Type 'new' for another game, [ ] to review.",
                e.describe(),
                e.result()
            );
        }
    }

    fn end(&mut self, ending: Ending, now: Instant) {
        self.cancel_bot();
        if let Some(p) = &mut self.play {
            p.record.ending = Some(ending);
            p.promotion = None;
            p.selected = None;
        }
        self.check_ending(now);
        self.autosave(now);
    }

    /// The input line, entered: a command or a move.
    fn submit(&mut self, line: &str, now: Instant) -> Flow {
        let (word, arg) = match line.split_once(char::is_whitespace) {
            Some((w, a)) => (w, a.trim()),
            None => (line, ""),
        };
        let Some(p) = &mut self.play else {
            return Flow::Continue;
        };
        let over = p.ending().is_some();
        let human_to_move = p.human_to_move();
        let bots = p.record.human == Human::Nobody;
        match word.to_ascii_lowercase().as_str() {
            "quit" | "exit" => return Flow::Quit,
            "help" => self.help = true,
            "flip" => self.flipped = !self.flipped,
            "eval" | "panel" => self.show_eval = !self.show_eval,
            "fen" => self.message = p.shown_board().to_fen(),
            "new" => {
                self.cancel_bot();
                self.suspended = self.play.take();
                let fresh = Setup::new(&self.opts);
                // The last form's choices, with what can be resumed now.
                self.setup = Some(match self.last_setup.clone() {
                    Some(mut s) => {
                        s.focus = Field::Side;
                        s.resumable = fresh.resumable;
                        s.error = None;
                        s
                    }
                    None => fresh,
                });
                self.message.clear();
            }
            "pgn" if arg.is_empty() => {
                self.message = match &p.autosave {
                    Some(path) => format!(
                        "The game is saved in {} after every move; 'pgn FILE' writes a copy.",
                        path.display()
                    ),
                    None => "No data folder (HOME is not set): 'pgn FILE' writes the game.".into(),
                }
            }
            "pgn" => {
                let mut r = p.record.clone();
                r.clocks_ms = p.clocks.as_ref().map(|c| c.snapshot_ms(now));
                self.message = match std::fs::write(arg, r.to_pgn()) {
                    Ok(()) => format!("Game written to {arg}"),
                    Err(e) => format!("Could not write {arg}: {e}"),
                };
            }
            "undo" | "takeback" => self.undo(now),
            "hint" | "draw" if over => self.message = "The game is over.".into(),
            "hint" | "draw" if bots => self.message = "The bots play on their own.".into(),
            "hint" | "draw" if !human_to_move => {
                self.message = format!("Wait for the bot's move, then ask for a {word}.")
            }
            "hint" | "draw" => {
                let purpose = if word.eq_ignore_ascii_case("hint") {
                    Purpose::Hint
                } else {
                    Purpose::DrawOffer
                };
                let id = self.id();
                let Some(p) = &mut self.play else {
                    return Flow::Continue;
                };
                p.judging = Some((id, purpose, p.record.game.moves().len()));
                self.bot.send(Job::Judge {
                    id,
                    game: p.record.game.clone(),
                    purpose,
                });
                self.message = match purpose {
                    Purpose::Hint => "Looking for the best move...".into(),
                    Purpose::DrawOffer => "You offer a draw...".into(),
                };
            }
            "resign" if over => self.message = "The game is over.".into(),
            "resign" if bots => self.message = "The bots play on their own.".into(),
            "resign" => {
                let loser = if p.record.human == Human::White {
                    Color::White
                } else {
                    Color::Black
                };
                self.end(Ending::Resigned { loser }, now);
            }
            _ if over => {
                self.message = format!("{line:?}: the game is over. Type 'new' or 'quit'.");
            }
            _ if !human_to_move => {
                self.message = format!("{line:?}: it is the bot's move; wait for it.");
            }
            _ => match p.game().board().parse_move(line) {
                Ok(m) => return self.play_human(m, now),
                Err(e) => self.message = format!("{e}. Type ? for help."),
            },
        }
        Flow::Continue
    }

    fn undo(&mut self, now: Instant) {
        let Some(p) = &self.play else { return };
        if p.record.human == Human::Nobody {
            self.message = "The bots play on their own: no takebacks.".into();
            return;
        }
        if let Some(e) = p.ending() {
            self.message = format!("The game is over ({}): 'new' starts another.", e.result());
            return;
        }
        if p.game().moves().is_empty() {
            self.message = "Nothing to undo.".into();
            return;
        }
        self.cancel_bot();
        let Some(p) = &mut self.play else { return };
        p.record.ending = None;
        p.record.game.pop();
        while !p.human_to_move() && !p.game().moves().is_empty() {
            p.record.game.pop();
        }
        p.review = None;
        p.selected = None;
        p.hint = None;
        p.last_move_at = now;
        // Scores of the line taken back must not show for the line played next.
        let len = p.record.game.moves().len();
        p.evals.retain(|&k, _| k <= len);
        if let Some(c) = &mut p.clocks {
            c.stop(now);
            let plies = p.record.game.moves().len();
            c.set_presses(plies);
            if plies >= 2 {
                c.resume(p.record.game.board().side_to_move(), now);
            }
        }
        self.message = "Took back your last move.".into();
        self.autosave(now);
    }

    /// Time passes: replies from the bot, clocks and flags, the bot's turn, the pace.
    pub fn tick(&mut self, now: Instant) {
        loop {
            match self.bot.replies.try_recv() {
                Ok(reply) => self.on_reply(reply, now),
                Err(std::sync::mpsc::TryRecvError::Empty) => break,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    // The bot's thread ended, which only a panic in it can do.
                    self.fatal = Some("the bot's thread stopped (an internal error)".into());
                    return;
                }
            }
        }
        let Some(p) = &mut self.play else { return };
        if p.ending().is_some() {
            return;
        }
        if let Some(flagged) = p.clocks.as_ref().and_then(|c| c.flagged(now)) {
            let draw = !can_mate(p.game().board(), !flagged);
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
        let random = crate::tools::clock_random();
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
                        if accepts_draw(Score(-score.0), ply) {
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
        None => crate::tools::format::pawns(white_score(s, side).0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(human: Human, strength: Strength) -> PlayOptions {
        // Autosaves go to a scratch folder, never into the real data folder.
        std::env::set_var(
            "XDG_DATA_HOME",
            std::env::temp_dir().join(format!("fianchetto-app-tests-{}", std::process::id())),
        );
        PlayOptions {
            human: Some(human),
            strength: Some(strength),
            ..PlayOptions::default()
        }
    }

    fn typed(app: &mut App, text: &str, now: Instant) {
        for c in text.chars() {
            app.on_key(Key::Char(c), now);
        }
        app.on_key(Key::Enter, now);
    }

    /// Ticks until the bot has moved (20 seconds at most).
    fn wait_for_bot(app: &mut App, plies: usize) {
        let until = Instant::now() + Duration::from_secs(20);
        while Instant::now() < until {
            app.tick(Instant::now());
            if app.play.as_ref().unwrap().game().moves().len() >= plies {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("the bot did not move");
    }

    #[test]
    fn typed_and_picked_moves_both_play() {
        let now = Instant::now();
        let mut app = App::new(opts(Human::White, Strength::Depth(1)), false).unwrap();
        typed(&mut app, "e4", now);
        assert_eq!(app.play.as_ref().unwrap().game().moves().len(), 1);
        wait_for_bot(&mut app, 2);
        // d2 to d4 with the cursor: the cursor starts on e2.
        app.on_key(Key::Left, now);
        app.on_key(Key::Enter, now);
        assert_eq!(app.play.as_ref().unwrap().selected, "d2".parse().ok());
        app.on_key(Key::Up, now);
        app.on_key(Key::Up, now);
        app.on_key(Key::Char(' '), now);
        let p = app.play.as_ref().unwrap();
        assert_eq!(p.game().moves()[2].to_string(), "d2d4", "{}", app.message);
    }

    #[test]
    fn a_move_from_an_empty_square_is_explained_and_changes_nothing() {
        let now = Instant::now();
        let mut app = App::new(opts(Human::White, Strength::Depth(1)), false).unwrap();
        app.pick("e4".parse().ok(), now);
        assert_eq!(app.message, "e4 is empty: pick one of your pieces.");
        typed(&mut app, "e3e4", now);
        assert!(app.message.contains("no piece on e3"), "{}", app.message);
        assert!(app.play.as_ref().unwrap().game().moves().is_empty());
    }

    #[test]
    fn promotion_asks_for_the_piece() {
        let now = Instant::now();
        let mut o = opts(Human::White, Strength::Depth(1));
        o.fen = Some("7k/P7/8/8/8/8/8/K7 w - - 0 1".into());
        let mut app = App::new(o, false).unwrap();
        app.pick("a7".parse().ok(), now);
        app.pick("a8".parse().ok(), now);
        assert!(app.play.as_ref().unwrap().promotion.is_some());
        app.on_key(Key::Char('n'), now);
        let p = app.play.as_ref().unwrap();
        assert_eq!(p.game().moves()[0].to_string(), "a7a8n");
    }

    #[test]
    fn a_flag_fall_ends_the_game_for_the_side_whose_clock_ran() {
        let now = Instant::now();
        let mut o = opts(Human::White, Strength::Depth(1));
        o.time_control = Some(TimeControl {
            base_ms: 15_000,
            inc_ms: 0,
        });
        let mut app = App::new(o, false).unwrap();
        typed(&mut app, "e4", now);
        wait_for_bot(&mut app, 2);
        // The person's clock runs now; 16 s later it has fallen.
        let later = Instant::now() + Duration::from_secs(16);
        app.tick(later);
        let p = app.play.as_ref().unwrap();
        assert_eq!(
            p.ending(),
            Some(Ending::Time {
                loser: Color::White,
                draw: false
            })
        );
        assert!(p.record.to_pgn().contains("[Termination \"time forfeit\"]"));
        assert!(
            app.message.contains("White lost on time"),
            "{}",
            app.message
        );
    }

    #[test]
    fn review_steps_back_without_undoing() {
        let now = Instant::now();
        let mut app = App::new(opts(Human::White, Strength::Depth(1)), false).unwrap();
        typed(&mut app, "e4", now);
        wait_for_bot(&mut app, 2);
        app.on_key(Key::PageUp, now);
        app.on_key(Key::PageUp, now);
        let p = app.play.as_ref().unwrap();
        assert_eq!((p.shown_ply(), p.game().moves().len()), (0, 2));
        assert_eq!(p.shown_board(), &Board::startpos());
        app.on_key(Key::End, now);
        assert_eq!(app.play.as_ref().unwrap().review, None);
    }

    #[test]
    fn the_same_position_gets_the_same_hint() {
        let mut hints = Vec::new();
        for _ in 0..2 {
            let now = Instant::now();
            let mut app = App::new(opts(Human::White, Strength::Elo(1300)), false).unwrap();
            typed(&mut app, "hint", now);
            let until = Instant::now() + Duration::from_secs(30);
            while app.play.as_ref().unwrap().hint.is_none() && Instant::now() < until {
                app.tick(Instant::now());
                std::thread::sleep(Duration::from_millis(5));
            }
            hints.push(app.play.as_ref().unwrap().hint);
        }
        assert!(hints[0].is_some());
        assert_eq!(hints[0], hints[1]);
    }

    #[test]
    fn resigning_records_the_result() {
        let now = Instant::now();
        let mut app = App::new(opts(Human::Black, Strength::Depth(1)), false).unwrap();
        wait_for_bot(&mut app, 1);
        typed(&mut app, "resign", now);
        let p = app.play.as_ref().unwrap();
        assert_eq!(
            p.ending(),
            Some(Ending::Resigned {
                loser: Color::Black
            })
        );
        assert!(p.record.to_pgn().contains("[Result \"1-0\"]"));
    }

    #[test]
    fn mate_scores_read_from_whites_side() {
        use crate::search::score::MATE;
        // White to move mates in 2 (3 plies); Black to move is mated in 1 (2 plies).
        assert_eq!(eval_text(Score(MATE - 3), Color::White), "#2");
        assert_eq!(eval_text(Score(-(MATE - 2)), Color::Black), "#1");
        assert_eq!(eval_text(Score(MATE - 1), Color::Black), "#-1");
        assert_eq!(eval_text(Score(-35), Color::Black), "+0.35");
    }

    #[test]
    fn esc_on_the_new_game_form_returns_to_the_game() {
        let now = Instant::now();
        let mut app = App::new(opts(Human::White, Strength::Depth(1)), false).unwrap();
        typed(&mut app, "e4", now);
        typed(&mut app, "new", now);
        assert!(app.setup.is_some() && app.play.is_none());
        assert!(
            app.snapshot(now).is_some(),
            "the left game is still saved on leaving"
        );
        assert_eq!(app.on_key(Key::Esc, now), Flow::Continue);
        let p = app.play.as_ref().expect("back in the game");
        assert_eq!(p.game().moves()[0].to_string(), "e2e4");
        // A second Esc on a form with no game behind it leaves.
        typed(&mut app, "new", now);
        app.on_key(Key::Enter, now);
        assert!(app.play.is_some());
        typed(&mut app, "new", now);
        app.on_key(Key::Esc, now);
        assert!(app.play.is_some());
    }

    #[test]
    fn pasted_text_is_bounded() {
        let mut app = App::new(opts(Human::White, Strength::Depth(1)), false).unwrap();
        app.on_paste(&"x\u{1b}[A".repeat(1000));
        assert_eq!(app.input.chars().count(), MAX_INPUT);
        assert!(!app.input.contains('\u{1b}'));
    }
}
