//! The setup form: the fields, their choices, typing into the custom ones, and starting the
//! game it describes.

use super::*;

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
    pub(super) fn new(opts: &PlayOptions) -> Setup {
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

    pub(super) fn strength(&self) -> Strength {
        match self.kind {
            0 => Strength::Elo(self.elo),
            1 => Strength::Depth(DEPTHS[self.depth]),
            _ => Strength::Movetime(MOVETIMES[self.movetime]),
        }
    }

    pub(super) fn time_control(&self) -> Result<Option<TimeControl>, String> {
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
    pub(super) fn change(&mut self, delta: i64) {
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
    pub(super) fn type_char(&mut self, c: char) {
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
    pub(super) fn typing(&self) -> bool {
        (self.focus == Field::Clock && self.clock == 10)
            || (self.focus == Field::Start && self.start == 2)
    }

    pub(super) fn backspace(&mut self) {
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

impl App {
    pub(super) fn on_setup_key(&mut self, key: Key) -> Flow {
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

    pub(super) fn submit_setup(&mut self) {
        let Some(s) = self.setup.clone() else { return };
        // The game `new` left is saved; a new one replaces it.
        self.suspended = None;
        self.last_setup = Some(s.clone());
        if s.focus == Field::Resume {
            if let Some((path, _)) = &s.resumable {
                match load_saved(&Resume::File(path.clone()))
                    .map_err(PlayError::from)
                    .and_then(|g| self.start_saved(g))
                {
                    Ok(()) => {}
                    Err(e) => self.set_setup_error(e.to_string()),
                }
            }
            return;
        }
        let time_control = match s.time_control() {
            Ok(tc) => tc,
            Err(e) => return self.set_setup_error(e.to_string()),
        };
        let chess960 = match s.start {
            0 => None,
            1 => {
                let n = crate::rand::clock_random() % u64::from(crate::chess::chess960::POSITIONS);
                Some(n as u16)
            }
            _ => match s.n960.parse::<u16>() {
                Ok(n) if n < crate::chess::chess960::POSITIONS => Some(n),
                _ => return self.set_setup_error("type a Chess960 number from 0 to 959".into()),
            },
        };
        let board = match self.start_board(chess960) {
            Ok(b) => b,
            Err(e) => return self.set_setup_error(e.to_string()),
        };
        let human = match s.side {
            0 => Human::White,
            1 => Human::Black,
            2 if crate::rand::clock_random().is_multiple_of(2) => Human::White,
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

    pub(super) fn set_setup_error(&mut self, e: String) {
        if let Some(s) = &mut self.setup {
            s.error = Some(e);
        }
    }
}
