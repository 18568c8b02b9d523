//! The terminal game: play White, play Black, or watch the bot play itself — full-screen in a
//! terminal (`screen`), line by line for pipes, scripts and screen readers (`line`).

/// `println!` that never panics: when standard output is gone (a closed pipe, `| head`), the
/// game goes on without it instead of aborting.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `print!` that never panics (see `outln!`).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout();
        let _ = write!(stdout, $($arg)*);
        let _ = stdout.flush();
    }};
}

pub mod app;
pub mod bot;
pub mod clock;
pub mod game;
pub mod keys;
pub mod line;
pub mod render;
pub mod screen;
pub mod view;

pub use game::{Human, PlayError, PlayOptions, Resume, SavedError, Strength, TimeControl};

/// Runs the terminal game: full-screen when standard input and output are a terminal that
/// can draw one, else (and with `--plain`) line by line.
pub fn run(opts: PlayOptions) -> Result<(), PlayError> {
    use std::io::IsTerminal;
    let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
    let terminal = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
    if opts.plain || dumb || !terminal {
        return line::run(opts);
    }
    let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    screen::run(opts, color)
}

/// `--clock`'s reader.
fn parse_time_control(text: &str) -> Result<TimeControl, game::TimeControlError> {
    TimeControl::parse(text)
}

/// The `play` command's flags (the setup form asks for anything not given).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PlayFlags {
    /// Your side: white, black, or none (bot vs bot).
    #[arg(long = "as", value_parser = ["white", "black", "none"])]
    pub side: Option<String>,
    /// Bot search depth (1-64).
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Bot time per move in milliseconds.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub movetime: Option<u64>,
    /// Bot plays like a player of this rating (1300-2800, the scale of UCI_Elo).
    #[arg(long, conflicts_with_all = ["depth", "movetime"], value_parser = clap::value_parser!(u32).range(1300..=2800))]
    pub elo: Option<u32>,
    /// Start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Play Chess960 from start position N (0-959; 518 is the standard one), or a random
    /// one without N.
    #[arg(long = "960", value_name = "N", num_args = 0..=1, conflicts_with = "fen",
          value_parser = clap::value_parser!(u16).range(0..960))]
    #[allow(clippy::option_option)]
    pub chess960: Option<Option<u16>>,
    /// Draw pieces as letters instead of Unicode glyphs.
    #[arg(long)]
    pub ascii: bool,
    /// A Polyglot opening book (.bin) the bot plays from while it has a move.
    #[arg(long, value_name = "FILE")]
    pub book: Option<std::path::PathBuf>,
    /// Continue a saved game: FILE.pgn, or without a value the last game saved after a move.
    #[arg(long, value_name = "FILE", conflicts_with = "fen")]
    #[allow(clippy::option_option)]
    pub resume: Option<Option<std::path::PathBuf>>,
    /// A clock for both sides: minutes+seconds per move (5+3, 10+5, 0.5+0); untimed without.
    #[arg(long, value_name = "M+S", value_parser = parse_time_control)]
    pub clock: Option<TimeControl>,
    /// The line-by-line game even in a terminal (for screen readers and scripts; the
    /// default when standard output is not a terminal or TERM=dumb).
    #[arg(long)]
    pub plain: bool,
}

impl PlayFlags {
    /// The options the flags give; a random Chess960 start is drawn here and named through
    /// `out`.
    pub fn options(self, out: &mut dyn FnMut(&str)) -> Result<PlayOptions, PlayError> {
        let fen = match self.chess960 {
            Some(n) => {
                // Any of the 960 will do without a number.
                let n = n.unwrap_or_else(|| {
                    let count = u64::from(crate::chess::chess960::POSITIONS);
                    (crate::rand::clock_random() % count) as u16
                });
                out(&format!("Chess960 start position {n}"));
                Some(crate::chess::chess960::start_fen(n)?)
            }
            None => self.fen,
        };
        let human = self.side.map(|s| match s.as_str() {
            "white" => Human::White,
            "black" => Human::Black,
            _ => Human::Nobody,
        });
        let strength = self
            .depth
            .map(Strength::Depth)
            .or(self.movetime.map(Strength::Movetime))
            .or(self.elo.map(Strength::Elo));
        Ok(PlayOptions {
            human,
            strength,
            fen,
            ascii: self.ascii,
            resume: self.resume.map(|p| p.map_or(Resume::Last, Resume::File)),
            book: self.book,
            time_control: self.clock,
            plain: self.plain,
        })
    }
}

/// The `play` command (and what a bare `fianchetto` in a terminal runs).
pub fn command(
    flags: PlayFlags,
    out: &mut dyn FnMut(&str),
) -> Result<crate::command::Outcome, PlayError> {
    run(flags.options(out)?)?;
    Ok(crate::command::Outcome::Success)
}
