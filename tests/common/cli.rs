//! The binary run once from the command line (shared by tests/cli.rs and tests/promises.rs).

use std::process::{Command, Output};

/// Runs `fianchetto` with `args` to its end.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fianchetto"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// What a run printed on standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}
