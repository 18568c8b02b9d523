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

pub use game::{Human, PlayOptions, Resume, Strength, TimeControl};

/// Runs the terminal game: full-screen when standard input and output are a terminal that
/// can draw one, else (and with `--plain`) line by line.
pub fn run(opts: PlayOptions) -> Result<(), String> {
    use std::io::IsTerminal;
    let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
    let terminal = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
    if opts.plain || dumb || !terminal {
        return line::run(opts);
    }
    let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    screen::run(opts, color)
}
