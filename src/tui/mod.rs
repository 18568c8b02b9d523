//! The interactive terminal game: play White, play Black, or watch the bot play itself.

pub mod play;
pub mod render;

pub use play::{run, PlayOptions};
