//! The game loop: menus, human moves and commands, the bot's replies, game end and PGN saving.

use super::render::{screen, Style};
use crate::chess::{Board, Color, Game, Move, Outcome};
use crate::eval::evaluate;
use crate::search::{skill, Limits, Report, Searcher};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

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
    fn plays(self, c: Color) -> bool {
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
fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("pgn.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

impl Strength {
    /// `depth 4` or `movetime 1000`, as the saved game's tag writes it.
    fn tag(self) -> String {
        match self {
            Strength::Depth(d) => format!("depth {d}"),
            Strength::Movetime(ms) => format!("movetime {ms}"),
            Strength::Elo(elo) => format!("elo {elo}"),
        }
    }

    fn from_tag(t: &str) -> Option<Strength> {
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
    fn tag(self) -> &'static str {
        match self {
            Human::White => "white",
            Human::Black => "black",
            Human::Nobody => "none",
        }
    }

    fn from_tag(t: &str) -> Option<Human> {
        match t {
            "white" => Some(Human::White),
            "black" => Some(Human::Black),
            "none" => Some(Human::Nobody),
            _ => None,
        }
    }
}

/// A game read back for `--resume`: the moves, and the side and strength it was played with.
struct Saved {
    game: Game,
    human: Option<Human>,
    strength: Option<Strength>,
    path: PathBuf,
}

fn load_saved(which: &Resume) -> Result<Saved, String> {
    let path = match which {
        Resume::File(p) => p.clone(),
        Resume::Last => {
            let dir = data_dir().ok_or("no data folder (set HOME or XDG_DATA_HOME)")?;
            std::fs::read_dir(&dir)
                .map_err(|e| format!("{}: {e}", dir.display()))?
                .filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|x| x == "pgn"))
                .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
                .max()
                .map(|(_, p)| p)
                .ok_or_else(|| format!("no saved game in {}", dir.display()))?
        }
    };
    // A saved game is a few kilobytes; 16 MiB is far beyond any real one.
    let bytes =
        crate::files::read_bounded(&path, 16 << 20, "saved game").map_err(|e| e.to_string())?;
    let pgn = crate::chess::pgn::read_games_bytes(&bytes)
        .into_iter()
        .next()
        .ok_or_else(|| format!("{}: no game in the file", path.display()))?
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if pgn.has_null_move() {
        return Err(format!(
            "{}: the game holds a null move (--), which cannot be played on",
            path.display()
        ));
    }
    Ok(Saved {
        game: pgn.main_line(),
        human: pgn.tag("FianchettoSide").and_then(Human::from_tag),
        strength: pgn.tag("FianchettoStrength").and_then(Strength::from_tag),
        path,
    })
}

/// Line input with end-of-input reported as `None`.
struct Input<R: BufRead> {
    reader: R,
}

impl<R: BufRead> Input<R> {
    fn line(&mut self, prompt: &str) -> Option<String> {
        out!("{prompt}");
        let _ = std::io::stdout().flush();
        // Read bytes, not a String: a line that is not UTF-8 is an unknown command, not the end.
        let mut buf = Vec::new();
        match self.reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(String::from_utf8_lossy(&buf).trim().to_string()),
        }
    }
}

/// The date as PGN writes it (YYYY.MM.DD), from the system clock.
pub fn pgn_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a calendar date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn names(human: Human) -> (&'static str, &'static str) {
    match human {
        Human::White => ("Human", "Fianchetto"),
        Human::Black => ("Fianchetto", "Human"),
        Human::Nobody => ("Fianchetto", "Fianchetto"),
    }
}

/// The game as PGN, with the side and strength it is played with, so that `--resume` can
/// continue it as it was.
fn game_pgn(game: &Game, human: Human, strength: Strength) -> String {
    let (w, b) = names(human);
    let mut pgn = crate::chess::pgn::PgnGame::from_game(game);
    for (k, v) in [
        ("Event", "Fianchetto game".to_string()),
        ("Site", "?".to_string()),
        ("Date", pgn_date()),
        ("Round", "-".to_string()),
        ("White", w.to_string()),
        ("Black", b.to_string()),
        ("Result", pgn.result.clone()),
        ("FianchettoSide", human.tag().to_string()),
        ("FianchettoStrength", strength.tag()),
    ] {
        pgn.set_tag(k, &v);
    }
    pgn.to_pgn()
}

/// Writes the game as PGN to `path` (or a fresh timestamped file) and returns the path.
fn save_pgn(
    game: &Game,
    human: Human,
    strength: Strength,
    path: Option<&str>,
) -> std::io::Result<String> {
    let path = match path {
        Some(p) => p.to_string(),
        None => {
            let secs = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            format!(
                "fianchetto-{}-{}.pgn",
                pgn_date().replace('.', ""),
                secs % 86_400
            )
        }
    };
    std::fs::write(&path, game_pgn(game, human, strength))?;
    Ok(path)
}

/// What the signal handler and the autosave need to know about the game in play.
#[derive(Clone)]
struct Shared {
    game: Game,
    human: Human,
    strength: Strength,
    autosave: Option<PathBuf>,
}

struct Session {
    game: Game,
    human: Human,
    strength: Strength,
    style: Style,
    searcher: Searcher,
    shared: Arc<Mutex<Shared>>,
    autosave: Option<PathBuf>,
    last_eval: Option<i32>,
    /// The bot's opening book: it plays from it, moves drawn by weight, while it has a move.
    book: Option<crate::chess::polyglot::Book>,
}

const HELP: &str = "\
Enter a move as SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4, e7e8q), or a command:
  help            this text
  fen             print the position as FEN
  setfen <FEN>    start from another position
  legal           list the legal moves
  reset           start a new game
  undo            take back your last move (and the bot's reply)
  hint            ask the bot for a move
  flip            turn the board around
  pgn [FILE]      save the game as PGN
  exit, quit      leave (the game is saved as PGN)";

impl Session {
    fn limits(&self) -> Limits {
        let mut l = Limits {
            multipv: 1,
            ..Limits::default()
        };
        match self.strength {
            Strength::Depth(d) => l.depth = Some(d),
            Strength::Movetime(ms) => l.movetime = Some(ms),
            Strength::Elo(elo) => {
                l.movetime = Some(skill::ELO_MOVETIME_MS);
                l.skill = Some(skill::level_for_elo(elo));
                l.random = crate::tools::clock_random();
            }
        }
        l
    }

    /// Shares the game with the signal handler and saves it in the data folder, after every
    /// move and command, so that even `kill -9` loses at most the move being made.
    fn sync(&self) {
        if let Ok(mut s) = self.shared.lock() {
            *s = self.snapshot();
        }
        if let Some(path) = &self.autosave {
            if !self.game.moves().is_empty() {
                let text = game_pgn(&self.game, self.human, self.strength);
                if let Err(e) = write_atomic(path, &text) {
                    outln!("Could not autosave to {}: {e}", path.display());
                }
            }
        }
    }

    fn show(&self) {
        outln!();
        out!("{}", screen(&self.game, self.last_eval, self.style));
        let _ = std::io::stdout().flush();
    }

    fn white_view(&self, cp_side_to_move: i32, side: Color) -> i32 {
        if side == Color::White {
            cp_side_to_move
        } else {
            -cp_side_to_move
        }
    }

    /// The bot thinks and returns its move (None when there is no legal move).
    fn think(&mut self, announce: bool) -> Option<(Move, String)> {
        let limits = self.limits();
        let start = Instant::now();
        let side = self.game.board().side_to_move();
        if announce {
            outln!("Fianchetto is thinking...");
        }
        let r = self.searcher.search(&self.game, &limits, &mut |rep| {
            if let Report::Iteration(info) = rep {
                if announce && info.time_ms >= 1000 && info.bound.is_none() {
                    outln!(
                        "  depth {:>2}  score {}  nodes {}",
                        info.depth,
                        info.score,
                        info.nodes
                    );
                }
            }
        });
        let m = r.best?;
        let secs = start.elapsed().as_secs_f64();
        let nps = (r.nodes as f64 / secs.max(1e-6)) as u64;
        let score = match r.score.mate_moves() {
            Some(n) => format!("mate {n}"),
            None => crate::tools::format::pawns(self.white_view(r.score.0, side)),
        };
        if !r.score.is_mate() {
            self.last_eval = Some(self.white_view(r.score.0, side));
        }
        let san = self.game.board().san(m);
        let text = format!(
            "{san} (score {score}, depth {}, {} nodes, {secs:.2} s, {} nps)",
            r.depth,
            crate::tools::format::thousands(r.nodes),
            crate::tools::format::thousands(nps)
        );
        Some((m, text))
    }

    fn bot_move(&mut self) {
        // Any number will do for the draw; the clock gives a different one each move.
        let from_book = self
            .book
            .as_ref()
            .and_then(|b| b.pick(self.game.board(), false, crate::tools::clock_random()));
        if let Some(m) = from_book {
            outln!("Fianchetto plays {} (book)", self.game.board().san(m));
            let _ = self.game.push(m);
            self.sync();
            return;
        }
        if let Some((m, text)) = self.think(true) {
            outln!("Fianchetto plays {text}");
            let _ = self.game.push(m);
            self.sync();
        }
    }

    fn announce(&self, outcome: Outcome) {
        let msg = match outcome {
            Outcome::Checkmate { winner } => {
                let who = if self.human.plays(winner) {
                    "You win!".to_string()
                } else if self.human == Human::Nobody {
                    format!("{winner} wins.")
                } else {
                    "Fianchetto wins.".to_string()
                };
                format!("Checkmate! {who}")
            }
            other => format!("Game over: {other}."),
        };
        outln!("{msg} ({})", outcome.result());
    }

    /// Handles a command; returns Some(true) to keep playing, Some(false) to quit, None if it was not a command.
    fn command(&mut self, line: &str) -> Option<bool> {
        let (word, arg) = match line.split_once(char::is_whitespace) {
            Some((w, a)) => (w, a.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "help" | "?" => outln!("{HELP}"),
            "fen" => outln!("{}", self.game.board().to_fen()),
            "setfen" => match Board::from_fen(arg) {
                Ok(b) => {
                    self.game = Game::new(b);
                    self.last_eval = None;
                    self.sync();
                    self.show();
                }
                Err(e) => outln!("Bad FEN: {e}. The game goes on unchanged."),
            },
            "legal" => {
                let b = self.game.board();
                let sans: Vec<String> = b.legal_moves().iter().map(|&m| b.san(m)).collect();
                outln!("Legal moves ({}): {}", sans.len(), sans.join(" "));
            }
            "reset" => {
                self.game = Game::default();
                self.last_eval = None;
                self.sync();
                self.show();
            }
            "undo" => {
                if self.game.moves().is_empty() {
                    outln!("Nothing to undo.");
                } else {
                    self.game.pop();
                    if !self.human.plays(self.game.board().side_to_move())
                        && !self.game.moves().is_empty()
                    {
                        self.game.pop();
                    }
                    self.sync();
                    self.show();
                }
            }
            "hint" => match self.think(false) {
                Some((_, text)) => outln!("Hint: {text}"),
                None => outln!("There is no legal move."),
            },
            "flip" => {
                self.style.flipped = !self.style.flipped;
                self.show();
            }
            "pgn" => match save_pgn(
                &self.game,
                self.human,
                self.strength,
                (!arg.is_empty()).then_some(arg),
            ) {
                Ok(p) => outln!("Game saved to {p}"),
                Err(e) => outln!("Could not save the game: {e}"),
            },
            "exit" | "quit" => return Some(false),
            _ => return None,
        }
        Some(true)
    }

    /// Plays until the game ends or the person leaves. Returns false when input ended or the person quit.
    fn play<R: BufRead>(&mut self, input: &mut Input<R>) -> bool {
        self.show();
        loop {
            if let Some(outcome) = self.game.outcome() {
                self.announce(outcome);
                return true;
            }
            let side = self.game.board().side_to_move();
            if !self.human.plays(side) {
                self.bot_move();
                self.show();
                continue;
            }
            let prompt = format!("{} to move> ", side);
            let Some(line) = input.line(&prompt) else {
                return false;
            };
            if line.is_empty() {
                continue;
            }
            match self.command(&line) {
                Some(true) => continue,
                Some(false) => return false,
                None => {}
            }
            match self.game.board().parse_move(&line) {
                Ok(m) => {
                    let _ = self.game.push(m);
                    self.last_eval = Some(
                        evaluate(self.game.board())
                            * if self.game.board().side_to_move() == Color::White {
                                1
                            } else {
                                -1
                            },
                    );
                    self.sync();
                    if self.game.outcome().is_some() || self.human == Human::Nobody {
                        self.show();
                    }
                }
                Err(e) => outln!("{e}. Type 'help' for how to enter moves."),
            }
        }
    }
}

fn choose_side<R: BufRead>(input: &mut Input<R>) -> Option<Human> {
    outln!("1. Play as White\n2. Play as Black\n3. Bot vs Bot");
    loop {
        match input.line("Choose [1-3]: ")?.as_str() {
            "1" | "" => return Some(Human::White),
            "2" => return Some(Human::Black),
            "3" => return Some(Human::Nobody),
            other => outln!("{other:?} is not a choice; type 1, 2 or 3."),
        }
    }
}

fn choose_strength<R: BufRead>(input: &mut Input<R>) -> Option<Strength> {
    outln!(
        "Bot strength:\n  1-6. search depth 1 to 6\n  7. 0.1 s per move\n  8. 1 s per move\n  9. 10 s per move\n  \
         or a rating from {} to {} (e.g. 1500): plays like a player of that strength",
        skill::ELO_MIN,
        skill::ELO_MAX
    );
    loop {
        let answer = input.line("Choose [1-9 or a rating] (default 4): ")?;
        if let Ok(elo) = answer.parse::<u32>() {
            if (skill::ELO_MIN..=skill::ELO_MAX).contains(&elo) {
                return Some(Strength::Elo(elo));
            }
        }
        match answer.as_str() {
            "" => return Some(Strength::Depth(4)),
            d @ ("1" | "2" | "3" | "4" | "5" | "6") => {
                return Some(Strength::Depth(d.parse().unwrap_or(4)))
            }
            "7" => return Some(Strength::Movetime(100)),
            "8" => return Some(Strength::Movetime(1000)),
            "9" => return Some(Strength::Movetime(10_000)),
            other => outln!(
                "{other:?} is not a choice; type a number from 1 to 9, or a rating from {} to {}.",
                skill::ELO_MIN,
                skill::ELO_MAX
            ),
        }
    }
}

/// A fresh autosave file in the data folder (created if needed), or `None` when there is none.
fn new_autosave() -> Option<PathBuf> {
    let dir = data_dir()?;
    std::fs::create_dir_all(&dir).ok()?;
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    Some(dir.join(format!(
        "game-{}-{}-{}.pgn",
        pgn_date().replace('.', ""),
        secs % 86_400,
        std::process::id()
    )))
}

/// Runs the terminal game on standard input and output. Returns an error message for a bad `--fen`
/// or a saved game that cannot be read.
pub fn run(opts: PlayOptions) -> Result<(), String> {
    let saved = opts.resume.as_ref().map(load_saved).transpose()?;
    let book = opts
        .book
        .as_ref()
        .map(crate::chess::polyglot::Book::load)
        .transpose()
        .map_err(|e| e.to_string())?;
    let start = match (&saved, &opts.fen) {
        (Some(s), _) => *s.game.start(),
        (None, Some(f)) => Board::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
        (None, None) => Board::startpos(),
    };
    let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::io::stdout().is_terminal();
    let shared = Arc::new(Mutex::new(Shared {
        game: Game::new(start),
        human: Human::White,
        strength: Strength::Depth(4),
        autosave: None,
    }));
    {
        // Ctrl-C, SIGTERM, SIGHUP: save what was played so far, restore the terminal's colours,
        // and leave. After a hang-up the terminal is gone: nothing here may fail on writing.
        let shared = Arc::clone(&shared);
        let _ = ctrlc::set_handler(move || {
            if let Ok(s) = shared.lock() {
                save_on_exit(&s);
            }
            std::process::exit(130);
        });
    }
    let stdin = std::io::stdin();
    let mut input = Input {
        reader: stdin.lock(),
    };
    outln!("=== Fianchetto ===");
    if let Some(s) = &saved {
        outln!(
            "Resuming {} ({} moves played).",
            s.path.display(),
            s.game.moves().len()
        );
    }
    let human = opts.human.or(saved.as_ref().and_then(|s| s.human));
    let Some(human) = human.or_else(|| choose_side(&mut input)) else {
        return Ok(());
    };
    let strength = opts.strength.or(saved.as_ref().and_then(|s| s.strength));
    let Some(strength) = strength.or_else(|| choose_strength(&mut input)) else {
        return Ok(());
    };
    // A game resumed from the data folder goes on saving into its own file.
    let autosave = match &saved {
        Some(s) if data_dir().is_some_and(|d| s.path.starts_with(d)) => Some(s.path.clone()),
        _ => new_autosave(),
    };
    let mut session = Session {
        game: saved.map_or_else(|| Game::new(start), |s| s.game),
        human,
        strength,
        style: Style {
            color,
            ascii: opts.ascii,
            flipped: human == Human::Black,
        },
        searcher: Searcher::new(16),
        shared,
        autosave,
        last_eval: None,
        book,
    };
    session.sync();
    outln!("Type 'help' for commands.");
    loop {
        if !session.play(&mut input) {
            save_on_exit(&session.snapshot());
            return Ok(());
        }
        match input.line("Save the game as PGN? [y/N] ") {
            None => {
                save_on_exit(&session.snapshot());
                return Ok(());
            }
            Some(a) if a.eq_ignore_ascii_case("y") || a.eq_ignore_ascii_case("yes") => {
                match save_pgn(&session.game, human, strength, None) {
                    Ok(p) => outln!("Game saved to {p}"),
                    Err(e) => outln!("Could not save the game: {e}"),
                }
            }
            Some(_) => {}
        }
        match input.line("Play again? [y/N] ") {
            Some(a) if a.eq_ignore_ascii_case("y") || a.eq_ignore_ascii_case("yes") => {
                session.game = Game::new(start);
                session.last_eval = None;
                session.autosave = new_autosave();
                session.searcher.clear();
                session.sync();
            }
            _ => {
                outln!("Goodbye.");
                return Ok(());
            }
        }
    }
}

impl Session {
    fn snapshot(&self) -> Shared {
        Shared {
            game: self.game.clone(),
            human: self.human,
            strength: self.strength,
            autosave: self.autosave.clone(),
        }
    }
}

/// Saves an unfinished game on leaving so that nothing is lost, and says where. Saving comes
/// first and nothing panics on a closed terminal (after SIGHUP every write fails).
fn save_on_exit(s: &Shared) {
    let mut out = std::io::stdout();
    if s.game.moves().is_empty() {
        let _ = writeln!(out, "\nGoodbye.");
        return;
    }
    let saved = save_pgn(&s.game, s.human, s.strength, None);
    if out.is_terminal() {
        // Leave the terminal in its default colours whatever was drawn last.
        let _ = write!(out, "\x1b[0m");
    }
    let _ = match saved {
        Ok(p) => writeln!(out, "\nGame saved to {p}"),
        Err(e) => writeln!(out, "\nCould not save the game: {e}"),
    };
    if let Some(a) = &s.autosave {
        let _ = writeln!(
            out,
            "(also kept in {}; resume with 'fianchetto play --resume')",
            a.display()
        );
    }
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_424), (2025, 12, 2));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
