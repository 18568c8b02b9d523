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
    /// `position …`, already applied to a fresh game.
    Position(Box<Game>),
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
}

impl GoArgs {
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
        let searchmoves = self
            .searchmoves
            .iter()
            .filter_map(|m| board.parse_uci(m).ok())
            .collect();
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
    /// `position` with an illegal or malformed move.
    #[error("illegal move {mv} (move {index} of the list) in position {fen}; position unchanged")]
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

fn parse_position(words: &[&str]) -> Result<Game, UciError> {
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
        let mv = game.board().parse_uci(m).map_err(|_| UciError::Move {
            mv: m.to_string(),
            index: i + 1,
            fen: game.board().to_fen(),
        })?;
        // parse_uci only returns legal moves, so push cannot fail here.
        let _ = game.push(mv);
    }
    Ok(game)
}

fn number<T: std::str::FromStr>(key: &str, v: Option<&&str>) -> Result<T, UciError> {
    v.and_then(|s| s.parse().ok())
        .ok_or_else(|| UciError::Syntax(format!("go {key} needs a number")))
}

/// A whole number of any size, saturated into ±2^40 (times) or 0..2^40 (counts): a GUI that
/// sends `wtime 99999999999999999999` means "a lot", not an error.
fn bounded(key: &str, v: Option<&&str>) -> Result<i64, UciError> {
    const LIMIT: i64 = crate::search::time::MAX_CLOCK_MS;
    let s = v.ok_or_else(|| UciError::Syntax(format!("go {key} needs a number")))?;
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(UciError::Syntax(format!(
            "go {key} needs a number, not {s:?}"
        )));
    }
    let magnitude = digits.parse::<i64>().unwrap_or(i64::MAX).min(LIMIT);
    Ok(if s.starts_with('-') {
        -magnitude
    } else {
        magnitude
    })
}

fn parse_go(words: &[&str]) -> Result<Command, UciError> {
    let mut g = GoArgs::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let val = words.get(i + 1);
        match key {
            "perft" => {
                let d: u32 = number(key, val)?;
                return Ok(Command::Perft(d.min(12)));
            }
            "infinite" => g.infinite = true,
            "ponder" => g.ponder = true,
            "searchmoves" => {
                while let Some(m) = words.get(i + 1) {
                    if m.len() < 4 || m.len() > 5 || !m.as_bytes()[1].is_ascii_digit() {
                        break;
                    }
                    g.searchmoves.push(m.to_string());
                    i += 1;
                }
            }
            "depth" | "nodes" | "mate" | "movetime" | "wtime" | "btime" | "winc" | "binc"
            | "movestogo" => {
                let n = bounded(key, val)?;
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
            other => return Err(UciError::Syntax(format!("unknown go parameter {other:?}"))),
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
        "position" => parse_position(rest).map(|g| Command::Position(Box::new(g))),
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
            Ok(Command::Position(g)) => assert_eq!(g.moves().len(), 2),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse("position startpos moves e2e4 e2e4"),
            Err(UciError::Move { index: 2, .. })
        ));
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
        assert!(matches!(parse("go depth x"), Err(UciError::Syntax(_))));
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
