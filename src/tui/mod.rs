//! The interactive terminal game: play White, play Black, or watch the bot play itself.

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

pub mod play;
pub mod render;

pub use play::{run, PlayOptions};
