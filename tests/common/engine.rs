//! The real binary driven through pipes as a GUI drives it: shared by the UCI test files.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// How long a test waits for a reply that must come: long enough that a loaded 2-core machine
/// never trips it (a reply that never comes still fails). Latencies are measured by
/// scripts/uci_latency.py, not asserted in tests.
pub const LIVENESS: Duration = Duration::from_secs(30);

pub struct Engine {
    pub child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<String>,
    /// Every line read so far.
    pub seen: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_fianchetto"));
        command.arg("uci");
        Engine::start_as(command)
    }

    /// The engine started by `command` (the binary, or a wrapper that runs it).
    pub fn start_as(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
        }
    }

    pub fn send(&mut self, s: &str) {
        writeln!(self.stdin, "{s}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The `uci` handshake, asserting that each of `options` begins one of the `option name`
    /// lines the engine declared.
    #[track_caller]
    pub fn handshake_declaring(&mut self, options: &[&str]) {
        self.send("uci");
        self.expect("uciok", LIVENESS);
        for option in options {
            assert!(
                self.seen
                    .iter()
                    .any(|l| l.starts_with(&format!("option name {option}"))),
                "{option}"
            );
        }
    }

    /// Reads lines until one starts with `prefix`; returns it and the time it took.
    pub fn expect(&mut self, prefix: &str, within: Duration) -> (String, Duration) {
        self.expect_line(|l| l.starts_with(prefix), within)
    }

    /// Reads lines until one satisfies `wanted`; returns it and the time it took.
    pub fn expect_line(
        &mut self,
        wanted: impl Fn(&str) -> bool,
        within: Duration,
    ) -> (String, Duration) {
        let start = Instant::now();
        loop {
            let left = within.checked_sub(start.elapsed()).unwrap_or_default();
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    if wanted(&l) {
                        return (l, start.elapsed());
                    }
                }
                Err(_) => panic!("no expected line within {within:?}; saw {:?}", self.seen),
            }
        }
    }

    /// Everything said from now until the `readyok` answering an `isready` sent now.
    pub fn sync(&mut self) -> Vec<String> {
        let before = self.seen.len();
        self.send("isready");
        self.expect("readyok", LIVENESS);
        self.seen[before..self.seen.len() - 1].to_vec()
    }

    /// Sends `go`, waits for its `bestmove`; returns the move and the lines said meanwhile.
    pub fn go(&mut self, go: &str) -> (String, Vec<String>) {
        let before = self.seen.len();
        self.send(go);
        let (best, _) = self.expect("bestmove", LIVENESS);
        let mv = best
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string();
        (mv, self.seen[before..].to_vec())
    }

    pub fn quit(mut self) {
        self.send("quit");
        let start = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(start.elapsed() < LIVENESS, "engine did not quit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
