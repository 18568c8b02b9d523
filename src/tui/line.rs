//! The line-by-line game (`play --plain`, and whenever standard output is not a terminal):
//! menus, moves and commands typed at a prompt, the board printed after each move. Screen
//! readers, pipes and scripts use it; the full-screen game is `screen`.

use super::game::{
    data_dir, load_saved, new_autosave, save_on_leaving, write_atomic, Ending, Human, PlayError,
    PlayOptions, Record, Strength,
};
use super::render::{screen, Style};
use crate::chess::{Board, Color, Game, Move};
use crate::search::skill::{accepts_draw, hint_limits};
use crate::search::{skill, Report, Score, Searcher};
use std::collections::HashMap;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

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

/// What the signal handler needs to save the game in play.
#[derive(Clone)]
struct Shared {
    record: Record,
    autosave: Option<PathBuf>,
}

struct Session {
    record: Record,
    style: Style,
    searcher: Searcher,
    /// Hints and draw offers: full strength, a fresh hash each time (`game::hint_limits`).
    judge: Searcher,
    shared: Arc<Mutex<Shared>>,
    autosave: Option<PathBuf>,
    /// Evaluations in centipawns from White's view, by ply: the panel shows the one of the
    /// position on the board, so an undo shows the evaluation of the position it returns to.
    evals: HashMap<usize, i32>,
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
  hint            the best move by a full-strength search (the same for the same position)
  resign          give up the game
  draw            offer a draw (the bot accepts when its evaluation says so)
  flip            turn the board around
  pgn             print the game as PGN
  pgn FILE        write the game as PGN to FILE
  exit, quit      leave (the game stays in the data folder: 'fianchetto play --resume')";

/// Centipawns from the side to move's view turned to White's view.
fn white_view(cp: i32, side: Color) -> i32 {
    if side == Color::White {
        cp
    } else {
        -cp
    }
}

impl Session {
    fn game(&self) -> &Game {
        &self.record.game
    }

    fn human(&self) -> Human {
        self.record.human
    }

    /// Shares the game with the signal handler and saves it in the data folder, after every
    /// move and command, so that even `kill -9` loses at most the move being made.
    fn sync(&self) {
        if let Ok(mut s) = self.shared.lock() {
            *s = self.snapshot();
        }
        if let Some(path) = &self.autosave {
            if self.game().moves().is_empty() {
                // Taken back to the start: nothing to resume.
                let _ = std::fs::remove_file(path);
            } else if let Err(e) = write_atomic(path, &self.record.to_pgn()) {
                outln!("Could not autosave to {}: {e}", path.display());
            }
        }
    }

    fn show(&self) {
        outln!();
        let ply = self.game().moves().len();
        let eval = self.evals.get(&ply).copied();
        out!("{}", screen(self.game(), eval, self.style));
        let _ = std::io::stdout().flush();
    }

    /// The bot thinks and returns its move (None when there is no legal move).
    fn think(&mut self) -> Option<(Move, String)> {
        let limits = self.record.strength.limits(None);
        let start = Instant::now();
        let side = self.game().board().side_to_move();
        outln!("Fianchetto is thinking...");
        let game = self.record.game.clone();
        let r = self.searcher.search(&game, &limits, &mut |rep| {
            if let Report::Iteration(info) = rep {
                if info.time_ms >= 1000 && info.bound.is_none() {
                    outln!(
                        "  depth {:>2}  score {}  nodes {}",
                        info.depth,
                        crate::format::pawns(white_view(info.score.0, side)),
                        info.nodes
                    );
                }
            }
        });
        let m = r.best?;
        let secs = start.elapsed().as_secs_f64();
        let nps = (r.nodes as f64 / secs.max(1e-6)) as u64;
        let score = describe_score(r.score, side);
        if !r.score.is_mate() {
            // The position searched and the one the move leads to (on the line it expects).
            let ply = game.moves().len();
            let cp = white_view(r.score.0, side);
            self.evals.insert(ply, cp);
            self.evals.insert(ply + 1, cp);
        }
        let san = game.board().san(m);
        let text = format!(
            "{san} (score {score}, depth {}, {} nodes, {secs:.2} s, {} nps)",
            r.depth,
            crate::format::thousands(r.nodes),
            crate::format::thousands(nps)
        );
        Some((m, text))
    }

    /// A full-strength search of the position with a fixed budget and a fresh hash, so that
    /// the same position always gets the same answer (hints, draw offers).
    fn judge(&mut self) -> Option<(Move, Score)> {
        self.judge.clear();
        let r = self
            .judge
            .search(&self.record.game, &hint_limits(), &mut |_| {});
        Some((r.best?, r.score))
    }

    fn bot_move(&mut self) {
        // Any number will do for the draw; the clock gives a different one each move.
        let from_book = self
            .book
            .as_ref()
            .and_then(|b| b.pick(self.game().board(), false, crate::rand::clock_random()));
        if let Some(m) = from_book {
            outln!("Fianchetto plays {} (book)", self.game().board().san(m));
            let _ = self.record.game.push(m);
            self.sync();
            return;
        }
        if let Some((m, text)) = self.think() {
            outln!("Fianchetto plays {text}");
            let _ = self.record.game.push(m);
            self.sync();
        }
    }

    fn announce(&self, ending: Ending) {
        let msg = match ending.winner() {
            Some(w) if self.human().plays(w) => format!("{} You win!", ending.describe()),
            Some(_) if self.human() != Human::Nobody => {
                format!("{} Fianchetto wins.", ending.describe())
            }
            _ => ending.describe(),
        };
        outln!("{msg} ({})", ending.result());
    }

    fn ending(&self) -> Option<Ending> {
        self.record
            .ending
            .or_else(|| self.game().outcome().map(Ending::Rule))
    }

    /// Handles a command; returns Some(true) to keep playing, Some(false) to quit, None if it was not a command.
    fn command(&mut self, line: &str) -> Option<bool> {
        let (word, arg) = match line.split_once(char::is_whitespace) {
            Some((w, a)) => (w, a.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "help" | "?" => outln!("{HELP}"),
            "fen" => outln!("{}", self.game().board().to_fen()),
            "setfen" => match Board::from_fen(arg) {
                Ok(b) => {
                    self.record.game = Game::new(b);
                    self.evals.clear();
                    self.sync();
                    self.show();
                }
                Err(e) => outln!("Bad FEN: {e}. The game goes on unchanged."),
            },
            "legal" => {
                let b = self.game().board();
                let sans: Vec<String> = b.legal_moves().iter().map(|&m| b.san(m)).collect();
                outln!("Legal moves ({}): {}", sans.len(), sans.join(" "));
            }
            "reset" => {
                self.record.game = Game::default();
                self.evals.clear();
                self.sync();
                self.show();
            }
            "undo" => {
                if self.game().moves().is_empty() {
                    outln!("Nothing to undo.");
                } else {
                    self.record.game.pop();
                    if !self.human().plays(self.game().board().side_to_move())
                        && !self.game().moves().is_empty()
                    {
                        self.record.game.pop();
                    }
                    self.sync();
                    self.show();
                }
            }
            "hint" => match self.judge() {
                Some((m, score)) => {
                    let side = self.game().board().side_to_move();
                    outln!(
                        "Hint: {} (score {})",
                        self.game().board().san(m),
                        describe_score(score, side)
                    );
                }
                None => outln!("There is no legal move."),
            },
            "resign" => {
                let side = self.game().board().side_to_move();
                self.record.ending = Some(Ending::Resigned { loser: side });
                self.sync();
            }
            "draw" => match self.judge() {
                _ if self.human() == Human::Nobody => outln!("The bots play on."),
                Some((_, score)) => {
                    // The judge searched from the person's side: the bot's view is the other.
                    let bot_view = Score(-score.0);
                    if accepts_draw(bot_view, self.game().moves().len()) {
                        outln!("Fianchetto accepts the draw.");
                        self.record.ending = Some(Ending::DrawAgreed);
                        self.sync();
                    } else {
                        outln!("Fianchetto declines the draw and plays on.");
                    }
                }
                None => outln!("The game is over."),
            },
            "flip" => {
                self.style.flipped = !self.style.flipped;
                self.show();
            }
            "pgn" if arg.is_empty() => out!("{}", self.record.to_pgn()),
            "pgn" => match std::fs::write(arg, self.record.to_pgn()) {
                Ok(()) => outln!("Game written to {arg}"),
                Err(e) => outln!("Could not write {arg}: {e}"),
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
            if let Some(ending) = self.ending() {
                self.record.ending = Some(ending);
                self.sync();
                self.announce(ending);
                return true;
            }
            let side = self.game().board().side_to_move();
            if !self.human().plays(side) {
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
            match self.game().board().parse_move(&line) {
                Ok(m) => {
                    let _ = self.record.game.push(m);
                    self.sync();
                    if self.game().outcome().is_some() || self.human() == Human::Nobody {
                        self.show();
                    }
                }
                Err(e) => outln!("{e}. Type 'help' for how to enter moves."),
            }
        }
    }

    fn snapshot(&self) -> Shared {
        Shared {
            record: self.record.clone(),
            autosave: self.autosave.clone(),
        }
    }
}

/// A score for people, from White's view: `+0.35`, `mate in 3 for White`.
fn describe_score(score: Score, side: Color) -> String {
    match score.mate_moves() {
        Some(n) => {
            let winner = if n > 0 { side } else { !side };
            format!("mate in {} for {winner}", n.abs())
        }
        None => crate::format::pawns(white_view(score.0, side)),
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

/// Runs the line-by-line game on standard input and output. Returns an error message for a
/// bad `--fen` or a saved game that cannot be read.
pub fn run(opts: PlayOptions) -> Result<(), PlayError> {
    let saved = opts.resume.as_ref().map(load_saved).transpose()?;
    if let Some(tc) = saved.as_ref().and_then(|s| s.time_control) {
        return Err(PlayError::TimedResume(tc));
    }
    let book = opts
        .book
        .as_ref()
        .map(crate::chess::polyglot::Book::load)
        .transpose()?;
    let start = match (&saved, &opts.fen) {
        (Some(s), _) => *s.game.start(),
        (None, Some(f)) => crate::command::board_or_start(Some(f))?,
        (None, None) => Board::startpos(),
    };
    if opts.time_control.is_some() {
        return Err(PlayError::ClockInLineMode);
    }
    let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::env::var("TERM").map_or(true, |t| t != "dumb")
        && std::io::stdout().is_terminal();
    let shared = Arc::new(Mutex::new(Shared {
        record: Record::new(Game::new(start), Human::White, Strength::Depth(4)),
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
    let game = saved.map_or_else(|| Game::new(start), |s| s.game);
    let mut session = Session {
        record: Record::new(game, human, strength),
        style: Style {
            color,
            ascii: opts.ascii,
            flipped: human == Human::Black,
        },
        searcher: Searcher::new(16),
        judge: Searcher::new(16),
        shared,
        autosave,
        evals: HashMap::new(),
        book,
    };
    session.sync();
    outln!("Type 'help' for commands.");
    loop {
        if !session.play(&mut input) {
            save_on_exit(&session.snapshot());
            return Ok(());
        }
        if let Some(p) = &session.autosave {
            outln!("The game is saved in {}.", p.display());
        }
        match input.line("Write a copy as PGN? Type a file name, or Enter to skip: ") {
            None => return Ok(()),
            Some(name) if !name.is_empty() => {
                match std::fs::write(&name, session.record.to_pgn()) {
                    Ok(()) => outln!("Game written to {name}"),
                    Err(e) => outln!("Could not write {name}: {e}"),
                }
            }
            Some(_) => {}
        }
        match input.line("Play again? [y/N] ") {
            Some(a) if a.eq_ignore_ascii_case("y") || a.eq_ignore_ascii_case("yes") => {
                session.record = Record::new(Game::new(start), human, strength);
                session.evals.clear();
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

/// Says where an unfinished game is kept on leaving: the data folder, saved after every move.
/// Without a data folder (no HOME) it is written to the current folder instead, the one place
/// left. Nothing panics on a closed terminal (after SIGHUP every write fails).
fn save_on_exit(s: &Shared) {
    let mut out = std::io::stdout();
    if out.is_terminal() {
        // Leave the terminal in its default colours whatever was drawn last.
        let _ = write!(out, "\x1b[0m");
    }
    if s.record.game.moves().is_empty() {
        let _ = writeln!(out, "\nGoodbye.");
        return;
    }
    let said = save_on_leaving(&s.record, s.autosave.as_deref());
    let _ = writeln!(out, "\n{said}");
    let _ = out.flush();
}
