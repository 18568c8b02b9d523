//! The binary run once from the command line (shared by tests/cli.rs, tests/promises.rs and
//! tests/uci.rs).

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

/// Runs the binary with `input` on standard input, which is then closed.
pub fn run_with_input(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fianchetto"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// The total of `bench`'s last line, `N nodes M nps`.
pub fn bench_nodes(out: &str) -> u64 {
    let last = out.lines().last().unwrap_or_default();
    let w: Vec<&str> = last.split_whitespace().collect();
    assert!(
        w.len() == 4 && w[1] == "nodes" && w[3] == "nps",
        "not a bench summary: {last:?}"
    );
    w[0].parse().unwrap()
}
