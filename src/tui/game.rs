//! The game both front ends play: who plays which side, how strong the bot is, the clock's
//! settings, how a game ended, and the saved game (PGN with our tags) that `--resume` reads back.

use crate::chess::{Color, Game, Outcome};
use crate::search::{skill, Clock, Limits};
use std::path::{Path, PathBuf};

/// Who plays which side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Human {
    /// The person plays White.
    White,
    /// The person plays Black.
    Black,
    /// Bot against bot.
    Nobody,
}

impl Human {
    /// Whether the person plays `c`.
    pub fn plays(self, c: Color) -> bool {
        matches!(
            (self, c),
            (Human::White, Color::White) | (Human::Black, Color::Black)
        )
    }
}

/// How strong the bot is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// Fixed depth (the seed's 1-6).
    Depth(u32),
    /// Fixed time per move, milliseconds.
    Movetime(u64),
    /// A human-like player of this rating (UCI_Elo's scale, `skill::ELO_MIN..=ELO_MAX`).
    Elo(u32),
}

/// What the command line chose; `None` fields are asked in menus.
#[derive(Clone, Debug, Default)]
pub struct PlayOptions {
    /// Which side the person plays.
    pub human: Option<Human>,
    /// The bot's strength.
    pub strength: Option<Strength>,
    /// Start position.
    pub fen: Option<String>,
    /// Letters instead of glyphs.
    pub ascii: bool,
    /// Continue a saved game instead of starting one.
    pub resume: Option<Resume>,
    /// A Polyglot opening book (.bin) for the bot.
    pub book: Option<PathBuf>,
    /// A clock for both sides (full-screen game only); `None` asks (or plays untimed).
    pub time_control: Option<TimeControl>,
    /// The line-by-line game even in a terminal (screen readers, scripts).
    pub plain: bool,
}

/// Which saved game to continue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resume {
    /// The most recently saved game in the data folder.
    Last,
    /// A PGN file (its first game).
    File(PathBuf),
}

/// Where games are saved after every move: `$XDG_DATA_HOME/fianchetto`, else
/// `~/.local/share/fianchetto`; `None` when neither variable is set.
pub fn data_dir() -> Option<PathBuf> {
    let nonempty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    nonempty("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| nonempty("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .map(|d| d.join("fianchetto"))
}

/// Writes `text` to `path` so that a reader (or a crash) sees the old file or the new one, never
/// half of one: write a temporary file beside it, then rename it over.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    // Its own temporary file per writer: the signal handler may save while the game loop does.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = path.with_extension(format!("pgn.{}.{n}.tmp", std::process::id()));
    let written = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

impl Strength {
    /// `depth 4`, `movetime 1000` or `elo 1500`, as the saved game's tag writes it.
    pub fn tag(self) -> String {
        match self {
            Strength::Depth(d) => format!("depth {d}"),
            Strength::Movetime(ms) => format!("movetime {ms}"),
            Strength::Elo(elo) => format!("elo {elo}"),
        }
    }

    /// Reads a `FianchettoStrength` tag back (`None` for anything out of range).
    pub fn from_tag(t: &str) -> Option<Strength> {
        let (kind, n) = t.trim().split_once(' ')?;
        match kind {
            "depth" => n
                .parse()
                .ok()
                .filter(|d| (1..=64).contains(d))
                .map(Strength::Depth),
            "movetime" => n
                .parse()
                .ok()
                .filter(|ms| (1..=3_600_000).contains(ms))
                .map(Strength::Movetime),
            "elo" => n
                .parse()
                .ok()
                .filter(|e| (skill::ELO_MIN..=skill::ELO_MAX).contains(e))
                .map(Strength::Elo),
            _ => None,
        }
    }
}

impl Human {
    /// `white`, `black` or `none`, as the saved game's tag writes it.
    pub fn tag(self) -> &'static str {
        match self {
            Human::White => "white",
            Human::Black => "black",
            Human::Nobody => "none",
        }
    }

    /// Reads a `FianchettoSide` tag back.
    pub fn from_tag(t: &str) -> Option<Human> {
        match t {
            "white" => Some(Human::White),
            "black" => Some(Human::Black),
            "none" => Some(Human::Nobody),
            _ => None,
        }
    }
}

/// A time control: minutes for the game and seconds added per move, as lichess writes them
/// (`5+3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Each side's time at the start, milliseconds.
    pub base_ms: u64,
    /// Added to the mover's clock after each move, milliseconds.
    pub inc_ms: u64,
}

/// Why a time control could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Not `MINUTES+SECONDS`.
    #[error("{0:?} is not a time control: write minutes+seconds, e.g. 5+3 or 0.5+0")]
    Syntax(String),
    /// Out of range.
    #[error("{0:?} is out of range: 0.25 to 180 minutes, 0 to 60 seconds per move")]
    Range(String),
    /// Not whole seconds.
    #[error("{0:?} is not whole seconds: the game's time and the increment count in seconds")]
    Seconds(String),
}

impl TimeControl {
    /// Reads `5+3` (minutes + seconds per move) or `5` (no increment).
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let t = text.trim();
        let (m, s) = t.split_once('+').unwrap_or((t, "0"));
        let syntax = || TimeControlError::Syntax(t.to_string());
        let minutes: f64 = m.trim().parse().map_err(|_| syntax())?;
        let seconds: f64 = s.trim().parse().map_err(|_| syntax())?;
        if !(0.25..=180.0).contains(&minutes) || !(0.0..=60.0).contains(&seconds) {
            return Err(TimeControlError::Range(t.to_string()));
        }
        // Whole seconds, as PGN's TimeControl tag writes them (0.5 minutes is 30 s; 0.5 s is not).
        let base_s = minutes * 60.0;
        if base_s.fract() != 0.0 || seconds.fract() != 0.0 {
            return Err(TimeControlError::Seconds(t.to_string()));
        }
        Ok(TimeControl {
            base_ms: base_s as u64 * 1000,
            inc_ms: seconds as u64 * 1000,
        })
    }

    /// The PGN `TimeControl` tag: seconds + increment in seconds (`300+3`).
    pub fn pgn_tag(self) -> String {
        format!("{}+{}", self.base_ms / 1000, self.inc_ms / 1000)
    }

    /// Reads a PGN `TimeControl` tag back (`300+3`); `-` or anything else is `None`.
    pub fn from_pgn_tag(tag: &str) -> Option<TimeControl> {
        let (b, i) = tag.split_once('+').unwrap_or((tag, "0"));
        let base_s: u64 = b.trim().parse().ok()?;
        let inc_s: u64 = i.trim().parse().ok()?;
        (15..=10_800).contains(&base_s).then_some(())?;
        (inc_s <= 60).then_some(TimeControl {
            base_ms: base_s * 1000,
            inc_ms: inc_s * 1000,
        })
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let minutes = self.base_ms as f64 / 60_000.0;
        let seconds = self.inc_ms as f64 / 1000.0;
        write!(f, "{minutes}+{seconds}")
    }
}

/// How a game ended: by the rules on the board, or by the players and the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Checkmate, stalemate, or a draw by rule.
    Rule(Outcome),
    /// `loser` resigned.
    Resigned {
        /// Who resigned.
        loser: Color,
    },
    /// Both sides agreed to a draw.
    DrawAgreed,
    /// `loser`'s flag fell; a draw when the other side has no mating material (FIDE 6.9).
    Time {
        /// Whose time ran out.
        loser: Color,
        /// The other side cannot mate by any series of legal moves.
        draw: bool,
    },
}

impl Ending {
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self {
            Ending::Rule(o) => o.result(),
            Ending::DrawAgreed | Ending::Time { draw: true, .. } => "1/2-1/2",
            Ending::Resigned { loser } | Ending::Time { loser, .. } => match loser {
                Color::White => "0-1",
                Color::Black => "1-0",
            },
        }
    }

    /// The PGN `Termination` tag's value (the seven-tag roster's supplement).
    pub fn termination(self) -> &'static str {
        match self {
            Ending::Time { .. } => "time forfeit",
            _ => "normal",
        }
    }

    /// A sentence for people: `Black resigns.`, `White lost on time.`
    pub fn describe(self) -> String {
        match self {
            Ending::Rule(o) => format!("Game over: {o}."),
            Ending::Resigned { loser } => format!("{loser} resigns."),
            Ending::DrawAgreed => "Draw agreed.".to_string(),
            Ending::Time { loser, draw: false } => format!("{loser} lost on time."),
            Ending::Time { loser, draw: true } => {
                format!("{loser}'s flag fell, but {} cannot mate: draw.", !loser)
            }
        }
    }

    /// Who won, if anyone.
    pub fn winner(self) -> Option<Color> {
        match self.result() {
            "1-0" => Some(Color::White),
            "0-1" => Some(Color::Black),
            _ => None,
        }
    }
}

impl Strength {
    /// The bot's search limits at this strength; with a clock it manages its own time (depth
    /// and rating still limit its play; a time per move stays, within what the clock allows).
    pub fn limits(self, clock: Option<Clock>) -> Limits {
        let fixed = |l: Limits| Limits {
            multipv: 1,
            clock,
            ..l
        };
        match self {
            Strength::Depth(d) => fixed(Limits {
                depth: Some(d),
                ..Limits::default()
            }),
            // Its time per move, but never more than the clock allows for a move.
            Strength::Movetime(ms) => fixed(Limits {
                movetime: Some(clock.map_or(ms, |c| {
                    let allowed = crate::search::TimeBudget::from_clock(c, 0).hard;
                    ms.min(allowed.as_millis() as u64).max(1)
                })),
                ..Limits::default()
            }),
            Strength::Elo(elo) => skill::rated_limits(elo, clock, crate::rand::clock_random()),
        }
    }
}

impl std::fmt::Display for Strength {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Strength::Depth(d) => write!(f, "depth {d}"),
            Strength::Movetime(ms) => write!(f, "{} s per move", ms as f64 / 1000.0),
            Strength::Elo(e) => write!(f, "rated {e}"),
        }
    }
}

/// A game as it is saved: the moves, who played what at which strength, the clock, how it
/// ended. `--resume` reads all of it back.
#[derive(Clone, Debug)]
pub struct Record {
    /// The moves from the start position.
    pub game: Game,
    /// Which side the person plays.
    pub human: Human,
    /// The bot's strength.
    pub strength: Strength,
    /// The clock's settings, if the game is timed.
    pub time_control: Option<TimeControl>,
    /// Time left on both clocks (White, Black), milliseconds, for resuming a timed game.
    pub clocks_ms: Option<(u64, u64)>,
    /// How it ended, if it has.
    pub ending: Option<Ending>,
}

impl Record {
    /// A new game record.
    pub fn new(game: Game, human: Human, strength: Strength) -> Record {
        Record {
            game,
            human,
            strength,
            time_control: None,
            clocks_ms: None,
            ending: None,
        }
    }

    /// The game as PGN with the seven tags, the time control, the termination and ours.
    pub fn to_pgn(&self) -> String {
        let (w, b) = names(self.human);
        let mut pgn = crate::chess::pgn::PgnGame::from_game(&self.game);
        if let Some(e) = self.ending {
            pgn.result = e.result().to_string();
        }
        let mut tags = vec![
            ("Event", "Fianchetto game".to_string()),
            ("Site", "?".to_string()),
            ("Date", pgn_date()),
            ("Round", "-".to_string()),
            ("White", w.to_string()),
            ("Black", b.to_string()),
            ("Result", pgn.result.clone()),
            (
                "TimeControl",
                self.time_control
                    .map_or("-".to_string(), TimeControl::pgn_tag),
            ),
        ];
        if let Some(e) = self.ending {
            tags.push(("Termination", e.termination().to_string()));
        }
        tags.push(("FianchettoSide", self.human.tag().to_string()));
        tags.push(("FianchettoStrength", self.strength.tag()));
        if let Some((w, b)) = self.clocks_ms.filter(|_| self.ending.is_none()) {
            tags.push(("FianchettoClock", format!("{w} {b}")));
        }
        for (k, v) in tags {
            pgn.set_tag(k, &v);
        }
        pgn.to_pgn()
    }
}

/// A game read back for `--resume`.
#[derive(Debug)]
pub struct Saved {
    /// The game as it was saved (its side and strength `None` when the tags are missing).
    pub game: Game,
    /// The side from the `FianchettoSide` tag.
    pub human: Option<Human>,
    /// The strength from the `FianchettoStrength` tag.
    pub strength: Option<Strength>,
    /// The clock from the `TimeControl` tag.
    pub time_control: Option<TimeControl>,
    /// Both clocks' time left from the `FianchettoClock` tag.
    pub clocks_ms: Option<(u64, u64)>,
    /// Where it was read from.
    pub path: PathBuf,
}

/// Saves the game on leaving, in its autosave file, or without a data folder (no HOME) in the
/// current folder, the one place left; returns the sentence that says where (or what failed).
pub fn save_on_leaving(record: &Record, autosave: Option<&Path>) -> String {
    match autosave {
        Some(p) => match write_atomic(p, &record.to_pgn()) {
            Ok(()) if record.ending.is_some() => format!("Game saved to {}", p.display()),
            Ok(()) => format!(
                "Game saved to {}; resume with 'fianchetto play --resume'",
                p.display()
            ),
            Err(e) => format!("Could not save the game to {}: {e}", p.display()),
        },
        None => {
            let name = format!("fianchetto-{}.pgn", std::process::id());
            match std::fs::write(&name, record.to_pgn()) {
                Ok(()) => format!("No data folder (HOME is not set): game saved to {name}"),
                Err(e) => format!("Could not save the game: {e}"),
            }
        }
    }
}

/// Why a saved game cannot be resumed.
#[derive(Debug, thiserror::Error)]
pub enum SavedError {
    /// Neither `XDG_DATA_HOME` nor `HOME` is set.
    #[error("no data folder (set HOME or XDG_DATA_HOME)")]
    NoDataFolder,
    /// The data folder cannot be listed.
    #[error("{path}: {source}")]
    Folder {
        /// The folder.
        path: String,
        /// The system's error.
        source: std::io::Error,
    },
    /// The data folder holds no game that is still going on.
    #[error("no unfinished game in {0}")]
    NoneUnfinished(String),
    /// The file cannot be read.
    #[error(transparent)]
    Read(#[from] crate::files::FileError),
    /// The file holds no game.
    #[error("{0}: no game in the file")]
    Empty(String),
    /// The file's first game is not PGN that can be read.
    #[error("{path}: {source}")]
    Pgn {
        /// The file.
        path: String,
        /// What is wrong (boxed: it is large, and rare).
        source: Box<crate::chess::pgn::PgnError>,
    },
    /// The game has a result.
    #[error("{path}: that game is over ({result}); there is nothing to resume")]
    Over {
        /// The file.
        path: String,
        /// Its result.
        result: String,
    },
    /// The game holds a null move.
    #[error("{0}: the game holds a null move (--), which cannot be played on")]
    NullMove(String),
}

/// Why the terminal game could not be played.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The Chess960 start position does not exist.
    #[error(transparent)]
    Chess960(#[from] crate::chess::chess960::StartPositionError),
    /// `--fen` is not a position.
    #[error(transparent)]
    Fen(#[from] crate::command::BadFen),
    /// The saved game cannot be resumed.
    #[error(transparent)]
    Saved(#[from] SavedError),
    /// `--book` cannot be read.
    #[error(transparent)]
    Book(#[from] crate::chess::polyglot::BookError),
    /// A timed game resumed in the line mode, which has no clock.
    #[error("that game is played with a clock ({0}), which the line-by-line game does not have: resume it without --plain, in a terminal")]
    TimedResume(TimeControl),
    /// `--clock` in the line mode.
    #[error("the line-by-line game (--plain, TERM=dumb, or no terminal) has no clock: play in a terminal without --plain, or leave out --clock")]
    ClockInLineMode,
    /// The terminal cannot be put into the full-screen game's mode, or drawn on.
    #[error("cannot use this terminal: {0}")]
    Terminal(#[from] std::io::Error),
    /// The bot's search thread ended (a panic in it).
    #[error("the bot's thread stopped (an internal error)")]
    BotStopped,
}

/// The saved games in the data folder, the most recent first.
fn saved_paths() -> Result<Vec<PathBuf>, SavedError> {
    let dir = data_dir().ok_or(SavedError::NoDataFolder)?;
    let mut games: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(&dir)
        .map_err(|source| SavedError::Folder {
            path: dir.display().to_string(),
            source,
        })?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "pgn"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    games.sort_by(|a, b| b.cmp(a));
    Ok(games.into_iter().map(|(_, p)| p).collect())
}

/// Reads a saved game back: the most recent unfinished one in the data folder, or a file
/// given by name.
pub fn load_saved(which: &Resume) -> Result<Saved, SavedError> {
    match which {
        Resume::File(p) => load_file(p.clone()),
        Resume::Last => {
            let paths = saved_paths()?;
            let none =
                || SavedError::NoneUnfinished(data_dir().unwrap_or_default().display().to_string());
            paths
                .into_iter()
                .find_map(|p| load_file(p).ok())
                .ok_or_else(none)
        }
    }
}

fn load_file(path: PathBuf) -> Result<Saved, SavedError> {
    // A saved game is a few kilobytes; 16 MiB is far beyond any real one.
    let bytes = crate::files::read_bounded(&path, 16 << 20, "saved game")?;
    let shown = path.display().to_string();
    let pgn = crate::chess::pgn::read_games_bytes(&bytes)
        .into_iter()
        .next()
        .ok_or_else(|| SavedError::Empty(shown.clone()))?
        .map_err(|source| SavedError::Pgn {
            path: shown.clone(),
            source: Box::new(source),
        })?;
    if pgn.result != "*" {
        return Err(SavedError::Over {
            path: shown,
            result: pgn.result,
        });
    }
    if pgn.has_null_move() {
        return Err(SavedError::NullMove(shown));
    }
    // Time left, up to a day: anything else in the tag is not a clock we wrote.
    let clock_ms = |t: &str| t.parse::<u64>().ok().filter(|&ms| ms <= 86_400_000);
    let clocks_ms = pgn.tag("FianchettoClock").and_then(|t| {
        let (w, b) = t.split_once(' ')?;
        Some((clock_ms(w)?, clock_ms(b)?))
    });
    Ok(Saved {
        game: pgn.main_line(),
        human: pgn.tag("FianchettoSide").and_then(Human::from_tag),
        strength: pgn.tag("FianchettoStrength").and_then(Strength::from_tag),
        time_control: pgn.tag("TimeControl").and_then(TimeControl::from_pgn_tag),
        clocks_ms,
        path,
    })
}

/// The date as PGN writes it (YYYY.MM.DD), today by the system clock.
pub fn pgn_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    crate::chess::pgn::date_tag(secs)
}

/// The PGN player names for a game in which the person plays `human`.
pub fn names(human: Human) -> (&'static str, &'static str) {
    match human {
        Human::White => ("Human", "Fianchetto"),
        Human::Black => ("Fianchetto", "Human"),
        Human::Nobody => ("Fianchetto", "Fianchetto"),
    }
}

/// A fresh autosave file in the data folder (created if needed), or `None` when there is none.
pub fn new_autosave() -> Option<PathBuf> {
    let dir = data_dir()?;
    std::fs::create_dir_all(&dir).ok()?;
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let stem = format!(
        "game-{}-{}-{}",
        pgn_date().replace('.', ""),
        secs % 86_400,
        std::process::id()
    );
    // Two games started in the same second ("new" at once) must not share a file.
    (1..1000)
        .map(|n| match n {
            1 => dir.join(format!("{stem}.pgn")),
            n => dir.join(format!("{stem}-{n}.pgn")),
        })
        .find(|p| !p.exists())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::can_mate;
    use crate::search::skill::accepts_draw;
    use crate::search::Score;

    #[test]
    fn time_controls_read_and_write() {
        let tc = TimeControl::parse("5+3").unwrap();
        assert_eq!((tc.base_ms, tc.inc_ms), (300_000, 3_000));
        assert_eq!(tc.pgn_tag(), "300+3");
        assert_eq!(TimeControl::from_pgn_tag("300+3"), Some(tc));
        assert_eq!(tc.to_string(), "5+3");
        assert_eq!(TimeControl::parse("10").unwrap().inc_ms, 0);
        assert_eq!(TimeControl::parse(" 0.5 + 0 ").unwrap().base_ms, 30_000);
        for bad in ["", "x+1", "5+", "+3", "5+3+1"] {
            assert!(
                matches!(TimeControl::parse(bad), Err(TimeControlError::Syntax(_))),
                "{bad}"
            );
        }
        for far in ["0+0", "181+0", "5+61", "-1+0", "inf+0", "nan+0"] {
            assert!(TimeControl::parse(far).is_err(), "{far}");
        }
        assert_eq!(TimeControl::from_pgn_tag("-"), None);
        assert!(matches!(
            TimeControl::parse("3+0.5"),
            Err(TimeControlError::Seconds(_))
        ));
        assert!(matches!(
            TimeControl::parse("0.3333+0"),
            Err(TimeControlError::Seconds(_))
        ));
    }

    #[test]
    fn endings_give_the_pgn_result() {
        assert_eq!(
            Ending::Resigned {
                loser: Color::White
            }
            .result(),
            "0-1"
        );
        assert_eq!(
            Ending::Resigned {
                loser: Color::Black
            }
            .result(),
            "1-0"
        );
        assert_eq!(Ending::DrawAgreed.result(), "1/2-1/2");
        let flag = Ending::Time {
            loser: Color::Black,
            draw: false,
        };
        assert_eq!((flag.result(), flag.termination()), ("1-0", "time forfeit"));
        assert_eq!(
            Ending::Time {
                loser: Color::Black,
                draw: true
            }
            .result(),
            "1/2-1/2"
        );
    }

    #[test]
    fn mating_material_for_a_flag_fall() {
        let b = |f: &str| crate::chess::Board::from_fen(f).unwrap();
        // FIDE 6.9: K+N cannot mate, K+N+N can (helpmate), a pawn can promote.
        assert!(!can_mate(
            &b("4k3/8/8/8/8/8/8/3NK3 w - - 0 1"),
            Color::White
        ));
        assert!(can_mate(
            &b("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1"),
            Color::White
        ));
        assert!(can_mate(&b("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"), Color::White));
        assert!(!can_mate(
            &b("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"),
            Color::Black
        ));
    }

    #[test]
    fn a_time_per_move_stays_within_the_clock() {
        let clock = |ms| Clock {
            time_ms: ms,
            inc_ms: 1000,
            moves_to_go: None,
        };
        assert_eq!(Strength::Movetime(1000).limits(None).movetime, Some(1000));
        assert_eq!(
            Strength::Movetime(1000)
                .limits(Some(clock(120_000)))
                .movetime,
            Some(1000)
        );
        let short = Strength::Movetime(10_000)
            .limits(Some(clock(5_000)))
            .movetime;
        assert!(short.is_some_and(|ms| ms < 5_000), "{short:?}");
        assert_eq!(Strength::Depth(3).limits(Some(clock(5_000))).depth, Some(3));
    }

    #[test]
    fn draw_offers() {
        assert!(accepts_draw(Score(-80), 10));
        assert!(!accepts_draw(Score(0), 10), "level early: play on");
        assert!(accepts_draw(Score(5), 80), "level late: take it");
        assert!(!accepts_draw(Score(120), 80));
    }

    #[test]
    fn a_record_round_trips_through_pgn() {
        let mut game = Game::default();
        game.push_text("e4").unwrap();
        let mut r = Record::new(game, Human::Black, Strength::Elo(1500));
        r.time_control = Some(TimeControl::parse("3+2").unwrap());
        r.clocks_ms = Some((170_000, 181_500));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.pgn");
        write_atomic(&path, &r.to_pgn()).unwrap();
        let back = load_saved(&Resume::File(path.clone())).unwrap();
        assert_eq!(back.game, r.game);
        assert_eq!(back.human, Some(Human::Black));
        assert_eq!(back.strength, Some(Strength::Elo(1500)));
        assert_eq!(back.time_control, r.time_control);
        assert_eq!(back.clocks_ms, Some((170_000, 181_500)));
        r.ending = Some(Ending::Resigned {
            loser: Color::Black,
        });
        let text = r.to_pgn();
        assert!(
            text.contains("[Result \"1-0\"]") && text.ends_with("1-0\n"),
            "{text}"
        );
        assert!(
            !text.contains("FianchettoClock"),
            "a finished game has no clock to resume"
        );
    }
}
