//! The game being played: its state, and what keys, clicks and typed lines do to it (moves,
//! promotions, review, the commands, undo, the end of the game).

use super::*;

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

    pub(super) fn human_to_move(&self) -> bool {
        self.record.human.plays(self.game().board().side_to_move())
    }
}

impl App {
    pub(super) fn on_game_key(&mut self, key: Key, now: Instant) -> Flow {
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

    pub(super) fn review_step(&mut self, delta: i64) {
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

    pub(super) fn promote(&mut self, choice: PromotionChoice, now: Instant) -> Flow {
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
    pub(super) fn play_human(&mut self, m: Move, now: Instant) -> Flow {
        let Some(p) = &mut self.play else {
            return Flow::Continue;
        };
        let san = p.game().board().san(m);
        self.message = format!("You played {san}.");
        self.push(m, now);
        Flow::Continue
    }

    /// Any move onto the board: the clocks, the autosave, the end of the game.
    pub(super) fn push(&mut self, m: Move, now: Instant) {
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

    pub(super) fn check_ending(&mut self, now: Instant) {
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

    pub(super) fn end(&mut self, ending: Ending, now: Instant) {
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
    pub(super) fn submit(&mut self, line: &str, now: Instant) -> Flow {
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

    pub(super) fn undo(&mut self, now: Instant) {
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
}
