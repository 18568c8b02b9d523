//! UCI input parsed once into a typed command.

use crate::chess::{Board, Game};
use crate::search::{Clock, Limits};
use thiserror::Error;

/// One line from the GUI.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `uci`
    Uci,
    /// `isready`
    IsReady,
    /// `ucinewgame`
    NewGame,
    /// `position …`, already applied to a fresh game: every legal move of the list up to the
    /// first that is not, which `problem` then names (the rest of the list is ignored).
    Position(Box<Game>, Option<UciError>),
    /// `go …`
    Go(Box<GoArgs>),
    /// `go perft N`
    Perft(u32),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `quit`
    Quit,
    /// `setoption name N [value V]`
    SetOption {
        /// The option name as sent.
        name: String,
        /// The value, if any.
        value: Option<String>,
    },
    /// `debug on|off`
    Debug(bool),
    /// `d`: show the board.
    Display,
    /// `eval`: show the evaluation.
    Eval,
    /// `bench [depth [threads]]`
    Bench(Option<u32>, Option<usize>),
    /// `spsa`: the tunable search constants in OpenBench's SPSA input format.
    Spsa,
    /// An empty line.
    Empty,
}

/// The arguments of `go`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GoArgs {
    /// Search limits (without the clock, which depends on the side to move).
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Mate-in-N.
    pub mate: Option<u32>,
    /// Fixed time.
    pub movetime: Option<i64>,
    /// White's clock.
    pub wtime: Option<i64>,
    /// Black's clock.
    pub btime: Option<i64>,
    /// White's increment.
    pub winc: Option<i64>,
    /// Black's increment.
    pub binc: Option<i64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// `go infinite`.
    pub infinite: bool,
    /// `go ponder`.
    pub ponder: bool,
    /// Root moves to restrict the search to, as sent.
    pub searchmoves: Vec<String>,
    /// What was ignored (unknown parameters, numbers that are not numbers), to report with
    /// `info string`: a `go` always searches and always answers `bestmove`.
    pub ignored: Vec<String>,
}

impl GoArgs {
    /// The `searchmoves` legal in `board`, and the ones that are not (as sent). When none is
    /// legal, the list is empty, which means every move.
    pub fn legal_searchmoves(&self, board: &Board) -> (Vec<crate::chess::Move>, Vec<String>) {
        let mut legal = Vec::new();
        let mut bad = Vec::new();
        for m in &self.searchmoves {
            match board.parse_uci(m) {
                Ok(mv) if !legal.contains(&mv) => legal.push(mv),
                Ok(_) => {}
                Err(_) => bad.push(m.clone()),
            }
        }
        (legal, bad)
    }

    /// The search limits for `board` (clock of its side to move), `multipv` lines.
    pub fn limits(&self, board: &Board, multipv: usize) -> Limits {
        let white = board.side_to_move() == crate::chess::Color::White;
        let (time, inc) = if white {
            (self.wtime, self.winc)
        } else {
            (self.btime, self.binc)
        };
        let clock = time.map(|t| Clock {
            time_ms: t,
            inc_ms: inc.unwrap_or(0),
            moves_to_go: self.movestogo.filter(|&m| m > 0),
        });
        let searchmoves = self.legal_searchmoves(board).0;
        // With no limit at all, `go` searches until `stop`, as Stockfish does.
        let nothing = self.depth.is_none()
            && self.nodes.is_none()
            && self.mate.is_none()
            && self.movetime.is_none()
            && clock.is_none();
        Limits {
            depth: self
                .depth
                .map(|d| d.clamp(1, 127))
                .or(self.mate.map(|m| (2 * m).clamp(1, 127))),
            nodes: self.nodes.map(|n| n.max(1)),
            movetime: self.movetime.map(|t| t.max(1) as u64),
            clock,
            infinite: self.infinite || nothing,
            mate: self.mate.map(|m| m.max(1)),
            searchmoves,
            multipv,
            // The engine sets the strength options after reading the command.
            skill: None,
            random: 0,
        }
    }
}

/// Why a line could not be understood.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum UciError {
    /// The first word is not a command.
    #[error("unknown command: {0}")]
    Unknown(String),
    /// `position` with a bad FEN.
    #[error("bad FEN: {0}")]
    Fen(String),
    /// `position` with an illegal or malformed move: the moves before it were played.
    #[error("illegal move {mv} (move {index} of the list) in position {fen}; the moves before it were played, the rest ignored")]
    Move {
        /// The move as sent.
        mv: String,
        /// Its 1-based index.
        index: usize,
        /// The position it was tried in.
        fen: String,
    },
    /// Anything else malformed.
    #[error("{0}")]
    Syntax(String),
}

/// Parses `position …`: a bad start (no `startpos`, a bad FEN) is an error; an illegal move in
/// the list ends it there, as Stockfish does, and is returned beside the game.
fn parse_position(words: &[&str]) -> Result<(Game, Option<UciError>), UciError> {
    let moves_at = words.iter().position(|&w| w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let board = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => Board::startpos(),
        Some(&"fen") => {
            let fen = setup[1..].join(" ");
            Board::from_fen(&fen).map_err(|e| UciError::Fen(format!("{e} in {fen:?}")))?
        }
        _ => {
            return Err(UciError::Syntax(
                "position needs 'startpos' or 'fen <FEN>', optionally followed by 'moves ...'"
                    .to_string(),
            ))
        }
    };
    let mut game = Game::new(board);
    for (i, m) in moves.iter().enumerate() {
        // After mate or stalemate no move is legal, so the first move after the end stops
        // the list. (A draw by repetition or the 50-move rule is the players' to claim: GUIs
        // send the moves after it, and so they are played.)
        let Ok(mv) = game.board().parse_uci(m) else {
            let problem = UciError::Move {
                mv: m.to_string(),
                index: i + 1,
                fen: game.board().to_fen(),
            };
            return Ok((game, Some(problem)));
        };
        // parse_uci only returns legal moves, so push cannot fail here.
        let _ = game.push(mv);
    }
    Ok((game, None))
}

/// The words that start a `go` parameter.
const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// A whole number of any size, saturated into ±2^40 (times) or 0..2^40 (counts): a GUI that
/// sends `wtime 99999999999999999999` means "a lot", not an error. `None` if it is not a
/// number at all.
fn bounded(s: &str) -> Option<i64> {
    const LIMIT: i64 = crate::search::time::MAX_CLOCK_MS;
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.parse::<i64>().unwrap_or(i64::MAX).min(LIMIT);
    Some(if s.starts_with('-') {
        -magnitude
    } else {
        magnitude
    })
}

/// Parses `go …`. Only `go perft` with a bad depth is an error (it is not a search); anything
/// else unreadable is skipped and listed in `ignored`, so that every `go` gets its `bestmove`.
fn parse_go(words: &[&str]) -> Result<Command, UciError> {
    let mut g = GoArgs::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let val = words.get(i + 1).copied();
        match key {
            "perft" => {
                let d: u32 = val.and_then(|v| v.parse().ok()).ok_or_else(|| {
                    UciError::Syntax("go perft needs a depth (a whole number)".to_string())
                })?;
                return Ok(Command::Perft(d.min(12)));
            }
            "infinite" => g.infinite = true,
            "ponder" => g.ponder = true,
            // Every word up to the next parameter is a move: the illegal ones are reported
            // and skipped when the position is known.
            "searchmoves" => {
                while let Some(m) = words.get(i + 1).filter(|w| !GO_KEYWORDS.contains(w)) {
                    g.searchmoves.push(m.to_string());
                    i += 1;
                }
            }
            "depth" | "nodes" | "mate" | "movetime" | "wtime" | "btime" | "winc" | "binc"
            | "movestogo" => {
                let Some(n) = val.and_then(bounded) else {
                    match val.filter(|v| !GO_KEYWORDS.contains(v)) {
                        Some(v) => {
                            g.ignored
                                .push(format!("go {key} needs a number, not {v:?}"));
                            i += 1;
                        }
                        None => g.ignored.push(format!("go {key} needs a number")),
                    }
                    i += 1;
                    continue;
                };
                let pos = |n: i64| n.max(0) as u64;
                match key {
                    "depth" => g.depth = Some(pos(n).min(1000) as u32),
                    "nodes" => g.nodes = Some(pos(n)),
                    "mate" => g.mate = Some(pos(n).min(1000) as u32),
                    "movetime" => g.movetime = Some(n),
                    "wtime" => g.wtime = Some(n),
                    "btime" => g.btime = Some(n),
                    "winc" => g.winc = Some(n),
                    "binc" => g.binc = Some(n),
                    _ => g.movestogo = Some(pos(n).min(1000) as u32),
                }
                i += 1;
            }
            other => g.ignored.push(format!("unknown go parameter {other:?}")),
        }
        i += 1;
    }
    Ok(Command::Go(Box::new(g)))
}

fn parse_setoption(words: &[&str]) -> Result<Command, UciError> {
    if words.first() != Some(&"name") {
        return Err(UciError::Syntax(
            "setoption needs 'name <Name> [value <v>]'".to_string(),
        ));
    }
    let rest = &words[1..];
    let value_at = rest.iter().position(|w| w.eq_ignore_ascii_case("value"));
    let (name, value) = match value_at {
        Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
        None => (rest.join(" "), None),
    };
    if name.is_empty() {
        return Err(UciError::Syntax(
            "setoption without an option name".to_string(),
        ));
    }
    Ok(Command::SetOption { name, value })
}

/// Parses one line. Words may be separated by any whitespace.
pub fn parse(line: &str) -> Result<Command, UciError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else {
        return Ok(Command::Empty);
    };
    match first {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::NewGame),
        "position" => {
            parse_position(rest).map(|(g, problem)| Command::Position(Box::new(g), problem))
        }
        "go" => parse_go(rest),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "setoption" => parse_setoption(rest),
        "debug" => match rest.first() {
            Some(&"on") => Ok(Command::Debug(true)),
            Some(&"off") => Ok(Command::Debug(false)),
            _ => Err(UciError::Syntax("debug needs 'on' or 'off'".to_string())),
        },
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        "bench" => Ok(Command::Bench(
            rest.first().and_then(|d| d.parse().ok()),
            rest.get(1).and_then(|t| t.parse().ok()),
        )),
        "spsa" => Ok(Command::Spsa),
        other => Err(UciError::Unknown(other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands() {
        assert_eq!(parse("  isready \t"), Ok(Command::IsReady));
        assert_eq!(parse(""), Ok(Command::Empty));
        assert!(matches!(parse("xyzzy"), Err(UciError::Unknown(_))));
        match parse("position startpos moves e2e4 e7e5") {
            Ok(Command::Position(g, None)) => assert_eq!(g.moves().len(), 2),
            other => panic!("{other:?}"),
        }
        // The legal prefix is played and the first illegal move named.
        match parse("position startpos moves e2e4 e2e4 e7e5") {
            Ok(Command::Position(g, Some(UciError::Move { index: 2, .. }))) => {
                assert_eq!(g.moves().len(), 1)
            }
            other => panic!("{other:?}"),
        }
        // A move after mate is refused even though it would be legal on the board.
        match parse("position startpos moves f2f3 e7e5 g2g4 d8h4 a2a3") {
            Ok(Command::Position(g, Some(UciError::Move { index: 5, mv, .. }))) => {
                assert_eq!(mv, "a2a3");
                assert_eq!(g.moves().len(), 4);
                assert!(g.outcome().is_some());
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse("position fen 8/8/8 w - - 0 1"),
            Err(UciError::Fen(_))
        ));
        assert!(matches!(parse("position"), Err(UciError::Syntax(_))));
        match parse("go wtime 1000 btime -5 winc 10 movestogo 3 searchmoves e2e4 d2d4") {
            Ok(Command::Go(g)) => {
                assert_eq!(g.wtime, Some(1000));
                assert_eq!(g.btime, Some(-5));
                assert_eq!(g.searchmoves, ["e2e4", "d2d4"]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(parse("go perft 3"), Ok(Command::Perft(3)));
        // Whatever cannot be read is ignored and named; the search still happens.
        match parse("go depth x nodes movetime 50 fast searchmoves e2e5 g1f3 xx wtime 9") {
            Ok(Command::Go(g)) => {
                assert_eq!((g.depth, g.nodes, g.movetime), (None, None, Some(50)));
                assert_eq!(g.wtime, Some(9));
                assert_eq!(g.searchmoves, ["e2e5", "g1f3", "xx"]);
                assert_eq!(
                    g.ignored,
                    [
                        "go depth needs a number, not \"x\"",
                        "go nodes needs a number",
                        "unknown go parameter \"fast\""
                    ]
                );
                let b = Board::startpos();
                let (legal, bad) = g.legal_searchmoves(&b);
                assert_eq!(legal, [b.parse_uci("g1f3").unwrap()]);
                assert_eq!(bad, ["e2e5", "xx"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(parse("go perft x"), Err(UciError::Syntax(_))));
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            })
        );
    }
}
