//! The UCI options, declared once: the `uci` reply lists this table, and `setoption` finds
//! the option here, checks its value against the declared type and range, and refuses the
//! ones that cannot change during a search.

use crate::search::skill::{ELO_MAX, ELO_MIN, MAX_LEVEL};

/// Which option (what `setoption` acts on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Id {
    /// `Hash`: transposition table MiB.
    Hash,
    /// `Clear Hash`: forget everything learnt.
    ClearHash,
    /// `Threads`: search threads.
    Threads,
    /// `MultiPV`: lines reported.
    MultiPv,
    /// `Ponder`: the GUI may ask us to ponder.
    Ponder,
    /// `Move Overhead`: milliseconds kept back per move.
    MoveOverhead,
    /// `EvalFile`: the network file.
    EvalFile,
    /// `Use NNUE`: the network, or the hand-crafted evaluation.
    UseNnue,
    /// `UCI_Chess960`: how castling is written.
    Chess960,
    /// `UCI_ShowWDL`: win/draw/loss after the score.
    ShowWdl,
    /// `OwnBook`: play from the book.
    OwnBook,
    /// `BookFile`: the Polyglot book.
    BookFile,
    /// `BookBestMove`: the book's heaviest move rather than one drawn by weight.
    BookBestMove,
    /// `Skill Level`: 0 (weakest) to 20 (full strength).
    SkillLevel,
    /// `UCI_LimitStrength`: play at `UCI_Elo`.
    LimitStrength,
    /// `UCI_Elo`: the rating played at.
    Elo,
    /// `SyzygyPath`: tablebase folders.
    SyzygyPath,
    /// `SyzygyProbeDepth`: the least depth probed at with the largest tables.
    SyzygyProbeDepth,
    /// `SyzygyProbeLimit`: the most pieces probed.
    SyzygyProbeLimit,
    /// `Syzygy50MoveRule`: cursed wins are draws.
    Syzygy50MoveRule,
}

/// An option's UCI type, with its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Spin {
        /// The default.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// The default.
        default: bool,
    },
    /// An action with no value.
    Button,
    /// Free text (a path).
    Text {
        /// The default as the `uci` reply shows it.
        default: &'static str,
    },
}

/// One option: its name as GUIs show it, its type, and whether a search must be over first.
#[derive(Clone, Copy, Debug)]
pub struct UciOption {
    /// What it is.
    pub id: Id,
    /// Its name (matched without regard to case, as the protocol asks).
    pub name: &'static str,
    /// Its type, default and range.
    pub kind: Kind,
    /// Changing it replaces state a running search uses (the table, the threads, the net, the
    /// tablebases), so it waits for the search to end.
    pub not_while_searching: bool,
}

const fn spin(id: Id, name: &'static str, default: i64, min: i64, max: i64) -> UciOption {
    UciOption {
        id,
        name,
        kind: Kind::Spin { default, min, max },
        not_while_searching: false,
    }
}

const fn check(id: Id, name: &'static str, default: bool) -> UciOption {
    UciOption {
        id,
        name,
        kind: Kind::Check { default },
        not_while_searching: false,
    }
}

const fn text(id: Id, name: &'static str, default: &'static str) -> UciOption {
    UciOption {
        id,
        name,
        kind: Kind::Text { default },
        not_while_searching: false,
    }
}

impl UciOption {
    const fn locked(mut self) -> UciOption {
        self.not_while_searching = true;
        self
    }
}

/// Every option, in the order the `uci` reply lists them. Ranges: `Hash` up to 64 GiB and
/// `Threads` up to `MAX_THREADS` as Stockfish allows; `MultiPV` up to 218, the most legal moves
/// a position has; `SyzygyProbeLimit` up to 7, the largest tables there are.
pub const OPTIONS: &[UciOption] = &[
    spin(Id::Hash, "Hash", 16, 1, 65536).locked(),
    UciOption {
        id: Id::ClearHash,
        name: "Clear Hash",
        kind: Kind::Button,
        not_while_searching: true,
    },
    spin(
        Id::Threads,
        "Threads",
        1,
        1,
        crate::search::MAX_THREADS as i64,
    )
    .locked(),
    spin(Id::MultiPv, "MultiPV", 1, 1, 218),
    check(Id::Ponder, "Ponder", false),
    spin(Id::MoveOverhead, "Move Overhead", 10, 0, 5000),
    text(Id::EvalFile, "EvalFile", "<embedded>").locked(),
    check(Id::UseNnue, "Use NNUE", true).locked(),
    check(Id::Chess960, "UCI_Chess960", false),
    check(Id::ShowWdl, "UCI_ShowWDL", false),
    check(Id::OwnBook, "OwnBook", false),
    text(Id::BookFile, "BookFile", "<empty>"),
    check(Id::BookBestMove, "BookBestMove", false),
    spin(
        Id::SkillLevel,
        "Skill Level",
        MAX_LEVEL as i64,
        0,
        MAX_LEVEL as i64,
    ),
    check(Id::LimitStrength, "UCI_LimitStrength", false),
    spin(
        Id::Elo,
        "UCI_Elo",
        ELO_MAX as i64,
        ELO_MIN as i64,
        ELO_MAX as i64,
    ),
    text(Id::SyzygyPath, "SyzygyPath", "<empty>").locked(),
    spin(Id::SyzygyProbeDepth, "SyzygyProbeDepth", 1, 1, 100).locked(),
    spin(Id::SyzygyProbeLimit, "SyzygyProbeLimit", 7, 0, 7).locked(),
    check(Id::Syzygy50MoveRule, "Syzygy50MoveRule", true).locked(),
];

/// The option called `name` (any case), if there is one.
pub fn find(name: &str) -> Option<&'static UciOption> {
    OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// A `setoption` value read by its option's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A spin's number, clamped into its range.
    Number(i64),
    /// A check's value.
    Flag(bool),
    /// A string's text, trimmed (empty: none).
    Text(String),
    /// A button was pressed.
    Press,
}

/// A `setoption` value that its option's type cannot take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// A spin without a whole number.
    #[error("option {name} needs a number from {min} to {max}")]
    Number {
        /// The name as sent.
        name: String,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// A check without `true` or `false`.
    #[error("option {0} needs true or false")]
    Flag(&'static str),
}

impl UciOption {
    /// The `uci` reply's line for this option.
    pub fn declaration(&self) -> String {
        let name = self.name;
        match self.kind {
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => format!("option name {name} type check default {default}"),
            Kind::Button => format!("option name {name} type button"),
            Kind::Text { default } => format!("option name {name} type string default {default}"),
        }
    }

    /// Reads `value` as this option's type; `sent` is the name as the GUI wrote it. A number
    /// out of range is clamped, and the second element says so.
    pub fn read(
        &self,
        sent: &str,
        value: Option<&str>,
    ) -> Result<(Value, Option<String>), ValueError> {
        match self.kind {
            Kind::Spin { min, max, .. } => {
                read_spin(sent, value, min, max).map(|(v, note)| (Value::Number(v), note))
            }
            Kind::Check { .. } => match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
                Some("true") => Ok((Value::Flag(true), None)),
                Some("false") => Ok((Value::Flag(false), None)),
                _ => Err(ValueError::Flag(self.name)),
            },
            Kind::Button => Ok((Value::Press, None)),
            Kind::Text { .. } => Ok((Value::Text(value.unwrap_or("").trim().to_string()), None)),
        }
    }
}

/// Reads a spin option's `value` (`sent`: its name as the GUI wrote it): a whole number,
/// clamped into `min..=max`, with a note saying so when it was out of range.
pub fn read_spin(
    sent: &str,
    value: Option<&str>,
    min: i64,
    max: i64,
) -> Result<(i64, Option<String>), ValueError> {
    let v: i64 = value
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| ValueError::Number {
            name: sent.to_string(),
            min,
            max,
        })?;
    let clamped = v.clamp(min, max);
    let note = (clamped != v).then(|| format!("{sent} {v} out of range, using {clamped}"));
    Ok((clamped, note))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_defaults_in_range() {
        for (i, o) in OPTIONS.iter().enumerate() {
            assert!(
                OPTIONS[i + 1..]
                    .iter()
                    .all(|p| !p.name.eq_ignore_ascii_case(o.name) && p.id != o.id),
                "{} twice",
                o.name
            );
            if let Kind::Spin { default, min, max } = o.kind {
                assert!(min <= default && default <= max, "{}", o.name);
            }
        }
        assert_eq!(find("hash").map(|o| o.id), Some(Id::Hash));
        assert_eq!(find("CLEAR HASH").map(|o| o.id), Some(Id::ClearHash));
        assert!(find("Hashes").is_none());
    }

    #[test]
    fn values_are_read_by_type() {
        let hash = find("Hash").unwrap();
        assert_eq!(
            hash.read("hash", Some(" 64 ")).unwrap(),
            (Value::Number(64), None)
        );
        let (v, note) = hash.read("hash", Some("0")).unwrap();
        assert_eq!(v, Value::Number(1));
        assert_eq!(note.as_deref(), Some("hash 0 out of range, using 1"));
        assert_eq!(
            hash.read("hash", Some("lots")).unwrap_err().to_string(),
            "option hash needs a number from 1 to 65536"
        );
        let ponder = find("ponder").unwrap();
        assert_eq!(
            ponder.read("ponder", Some("TRUE")).unwrap().0,
            Value::Flag(true)
        );
        assert_eq!(
            ponder.read("ponder", Some("yes")).unwrap_err().to_string(),
            "option Ponder needs true or false"
        );
        assert_eq!(
            hash.declaration(),
            "option name Hash type spin default 16 min 1 max 65536"
        );
    }
}
