//! The full-screen terminal game driven as a person would: the real binary in a
//! pseudo-terminal, keys, pastes and mouse clicks sent as the terminal would send them, and the
//! screen read back through a terminal emulator (vt100) to check what a person sees.

use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// How long a test waits for something that should happen (a screen, a move, the program's
/// end) before it fails: generous, because a loaded machine is slow, and only a hang should
/// fail. No test here says how fast anything is; the app's own tests time it with a clock they
/// hold.
const LIVENESS: Duration = Duration::from_secs(30);

/// A test's own folder (its `data` folder inside), removed when the test ends.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("fianchetto-screen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

/// A size for the emulator (at least 1).
fn nz(n: u16) -> std::num::NonZero<u16> {
    std::num::NonZero::new(n.max(1)).expect("at least 1")
}

/// The game on a pseudo-terminal and what its screen shows.
struct Screen {
    master: Box<dyn MasterPty + Send>,
    child: Box<dyn Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    output: Receiver<Vec<u8>>,
    /// Everything written after the last screen was read (what `finish` returns).
    tail: Vec<u8>,
    vt: vt100::Parser,
}

impl Screen {
    /// Starts `fianchetto ARGS` on a `cols`×`rows` terminal, without colour (the text is what
    /// is checked), saving into `dir/data`.
    fn start(dir: &Path, args: &[&str], cols: u16, rows: u16) -> Screen {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pty");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_fianchetto"));
        cmd.args(args);
        cmd.cwd(dir);
        cmd.env("TERM", "xterm-256color");
        cmd.env("NO_COLOR", "1");
        cmd.env("XDG_DATA_HOME", dir.join("data"));
        let child = pair.slave.spawn_command(cmd).expect("spawn in a pty");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("a reader");
        let (tx, output) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let writer = pair.master.take_writer().expect("a writer");
        Screen {
            master: pair.master,
            child,
            writer,
            output,
            tail: Vec::new(),
            vt: vt100::Parser::new(nz(rows), nz(cols), 0),
        }
    }

    /// Feeds everything the game wrote so far to the emulator.
    fn pump(&mut self) {
        while let Ok(bytes) = self.output.try_recv() {
            self.vt.process(&bytes);
            self.tail.extend_from_slice(&bytes);
        }
    }

    fn text(&mut self) -> String {
        self.pump();
        self.tail.clear();
        self.vt.screen().contents()
    }

    /// Waits until the screen shows `what`, and returns the screen.
    fn wait_for(&mut self, what: &str) -> String {
        self.wait_until(&format!("{what:?}"), |t| t.contains(what))
    }

    /// Waits until the screen satisfies `ok` (described as `what` if it never does), and
    /// returns the screen. The limit is only for liveness: a loaded machine may be slow, so it
    /// is generous, and nothing is claimed about how fast the game is.
    fn wait_until(&mut self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let until = Instant::now() + LIVENESS;
        loop {
            let t = self.text();
            if ok(&t) {
                return t;
            }
            if Instant::now() > until {
                panic!("the screen never showed {what}; it shows:\n{t}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn send(&mut self, bytes: &str) {
        self.writer.write_all(bytes.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    /// Types `text` and Enter.
    fn enter(&mut self, text: &str) {
        self.send(text);
        self.send("\r");
    }

    /// A left click (press and release) at a 0-based screen cell, as xterm's SGR mouse mode
    /// reports it.
    fn click(&mut self, col: u16, row: u16) {
        self.send(&format!("\x1b[<0;{};{}M", col + 1, row + 1));
        self.send(&format!("\x1b[<0;{};{}m", col + 1, row + 1));
    }

    /// Changes the terminal's size as a window manager would (the kernel sends SIGWINCH).
    fn resize(&mut self, cols: u16, rows: u16) {
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        // The emulator cannot be 0×0; the game sees the real size.
        self.vt.set_size(nz(rows), nz(cols));
    }

    fn pid(&self) -> String {
        self.child
            .process_id()
            .expect("a running child")
            .to_string()
    }

    /// Waits for the program to end and returns what it printed after the last screen read.
    fn finish(&mut self) -> String {
        let until = Instant::now() + LIVENESS;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                // 0 on quitting, 130 on a signal (the shells' 128 + SIGINT).
                assert!(
                    status.success() || status.exit_code() == 130,
                    "exit status {status:?}"
                );
                break;
            }
            assert!(Instant::now() < until, "the game did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
        // Everything it wrote, up to the pty's end (the reader thread then drops its sender).
        let until = Instant::now() + LIVENESS;
        loop {
            match self.output.recv_timeout(Duration::from_millis(100)) {
                Ok(bytes) => {
                    self.vt.process(&bytes);
                    self.tail.extend_from_slice(&bytes);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) if Instant::now() > until => break,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            }
        }
        assert!(
            !self.vt.screen().alternate_screen(),
            "the terminal is back on its main screen"
        );
        String::from_utf8_lossy(&self.tail).into_owned()
    }
}

/// The saved games in `dir`.
fn pgn_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|x| x == "pgn"))
                .map(|e| std::fs::read_to_string(e.path()).unwrap())
                .collect()
        })
        .unwrap_or_default()
}

/// The screen cell at the centre of a square on a 100×32 terminal (7×3 squares, White below).
fn cell(square: &str) -> (u16, u16) {
    let b = square.as_bytes();
    let file = u16::from(b[0] - b'a');
    let rank = u16::from(b[1] - b'1');
    (2 + file * 7 + 3, (7 - rank) * 3 + 1)
}

#[test]
fn setup_then_typed_arrow_key_and_mouse_moves() {
    let dir = temp_dir("moves");
    let mut s = Screen::start(&dir.0, &["play"], 100, 32);
    s.wait_for("Fianchetto: a new game");
    // Strength: depth (Down to the kind, Right once), then depth 1 (Down, Left x3 from 4).
    s.send("\x1b[B\x1b[C\x1b[B\x1b[D\x1b[D\x1b[D");
    s.wait_for("depth 1");
    s.send("\r");
    s.wait_for("your move>");
    s.enter("e4");
    s.wait_for("1. e4");
    s.wait_for("Fianchetto plays");
    // Arrow keys: the cursor starts on e2; left to d2, pick it, up twice to d4, put it down.
    s.send("\x1b[D\r\x1b[A\x1b[A ");
    s.wait_for("2. d4");
    s.wait_for("Fianchetto plays");
    // The mouse: g1, then f3.
    let (c, r) = cell("g1");
    s.click(c, r);
    let (c, r) = cell("f3");
    s.click(c, r);
    let screen = s.wait_for("3. Nf3");
    assert!(screen.contains("White: You"), "{screen}");
    s.send("\x03");
    let after = s.finish();
    assert!(after.contains("Game saved to"), "{after}");
    let saved = pgn_files(&dir.0.join("data/fianchetto"));
    assert_eq!(saved.len(), 1);
    assert!(
        saved[0].contains("1. e4 ") && saved[0].contains("3. Nf3 "),
        "{}",
        saved[0]
    );
    assert!(
        pgn_files(&dir.0).is_empty(),
        "nothing in the current folder"
    );
}

#[test]
fn the_clock_runs_and_a_flag_fall_ends_the_game() {
    let dir = temp_dir("flag");
    let mut s = Screen::start(
        &dir.0,
        &["play", "--as", "white", "--depth", "1", "--clock", "0.25+0"],
        100,
        32,
    );
    // Both clocks show the full 15 seconds (that none runs before the first moves is the app's
    // own test, on a clock it holds).
    let screen = s.wait_for("your move>");
    assert_eq!(screen.matches("0:15").count(), 2, "{screen}");
    s.enter("e4");
    s.wait_for("Fianchetto plays");
    // The person's clock runs: it comes down to the last ten seconds, shown in tenths.
    s.wait_until("White's clock under ten seconds", |t| {
        t.lines()
            .any(|l| l.contains("White: You") && shows_tenths(l))
    });
    // The person's 15 seconds run out.
    let screen = s.wait_for("White lost on time");
    assert!(screen.contains("(0-1)"), "{screen}");
    s.enter("quit");
    s.finish();
    let saved = pgn_files(&dir.0.join("data/fianchetto"));
    assert_eq!(saved.len(), 1);
    assert!(
        saved[0].contains("[Termination \"time forfeit\"]"),
        "{}",
        saved[0]
    );
    assert!(saved[0].contains("[TimeControl \"15+0\"]"), "{}", saved[0]);
    assert!(saved[0].contains("[Result \"0-1\"]"), "{}", saved[0]);
}

#[test]
fn resizing_shrinks_the_board_or_asks_for_room() {
    let dir = temp_dir("resize");
    let mut s = Screen::start(&dir.0, &["play", "--as", "white", "--depth", "1"], 100, 32);
    s.wait_for("your move>");
    assert!(s.text().contains("♖      ♘"), "large squares: {}", s.text());
    s.resize(40, 20);
    s.wait_for("♖  ♘  ♗");
    s.resize(20, 8);
    s.wait_for("Make the window");
    s.resize(0, 0);
    std::thread::sleep(Duration::from_millis(300));
    s.resize(100, 32);
    s.wait_for("♖      ♘");
    // Still playing after all that.
    s.enter("d4");
    s.wait_for("1. d4");
    s.send("\x03");
    s.finish();
}

#[test]
fn review_steps_through_the_game_without_undoing() {
    let dir = temp_dir("review");
    let mut s = Screen::start(&dir.0, &["play", "--as", "white", "--depth", "1"], 100, 32);
    s.wait_for("your move>");
    s.enter("e4");
    s.wait_for("Fianchetto plays");
    s.send("[[");
    s.wait_for("Reviewing: after 0 of 2 plies");
    s.send("]");
    s.wait_for("Reviewing: after 1 of 2 plies");
    s.send("\x1b[F"); // End
    let until = Instant::now() + LIVENESS;
    while s.text().contains("Reviewing") {
        assert!(
            Instant::now() < until,
            "End did not leave the review: {}",
            s.text()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Moves still play from the live position.
    s.enter("d4");
    s.wait_for("2. d4");
    s.send("\x03");
    s.finish();
}

/// Whether `line` shows a clock under ten seconds (`0:09.4`: tenths of a second).
fn shows_tenths(line: &str) -> bool {
    let b = line.as_bytes();
    b.windows(6).any(|w| {
        w.starts_with(b"0:0") && w[3].is_ascii_digit() && w[4] == b'.' && w[5].is_ascii_digit()
    })
}

/// Plies shown in the move list: its numbered rows, counted from the screen.
fn plies_on(screen: &str) -> usize {
    let re_rows: Vec<&str> = screen
        .lines()
        .filter_map(|l| l.split_once(". ").map(|(a, b)| (a.trim_end(), b)))
        .filter(|(a, _)| {
            a.rsplit(' ')
                .next()
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        })
        .map(|(_, b)| b)
        .collect();
    re_rows.iter().map(|r| r.split_whitespace().count()).sum()
}

#[test]
fn bot_vs_bot_plays_and_can_be_paused_stepped_and_resumed() {
    // The pace, and that nothing moves while paused, are timed in the app's own tests with a
    // clock they hold; here the keys reach the game and the moves reach the screen.
    let dir = temp_dir("bots");
    let mut s = Screen::start(&dir.0, &["play", "--as", "none", "--depth", "1"], 100, 32);
    s.wait_for("bots>");
    s.wait_until("a move played", |t| plies_on(t) >= 1);
    s.send(" ");
    let paused = plies_on(&s.wait_for("Paused"));
    s.send(".");
    // The first change on the screen is the step's one move (a paused game plays no other).
    let stepped = plies_on(&s.wait_until("the step's move", |t| plies_on(t) > paused));
    assert_eq!(stepped, paused + 1, "a step plays one move");
    s.send(" ");
    s.wait_for("Playing.");
    s.wait_until("a move after going on", |t| plies_on(t) > stepped);
    s.send("\x03");
    s.finish();
}

#[test]
fn resign_and_draw_offers_end_the_game_with_the_result_saved() {
    let dir = temp_dir("resign");
    let mut s = Screen::start(
        &dir.0,
        &[
            "play",
            "--as",
            "white",
            "--depth",
            "1",
            "--fen",
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        ],
        100,
        32,
    );
    s.wait_for("your move>");
    s.enter("draw");
    s.wait_for("Draw agreed");
    s.enter("new");
    s.wait_for("Fianchetto: a new game");
    s.send("\r");
    s.wait_for("your move>");
    s.enter("resign");
    s.wait_for("White resigns");
    s.enter("quit");
    s.finish();
    let mut results: Vec<String> = pgn_files(&dir.0.join("data/fianchetto"))
        .iter()
        .filter_map(|t| {
            t.lines()
                .find(|l| l.starts_with("[Result "))
                .map(str::to_string)
        })
        .collect();
    results.sort();
    assert_eq!(results, ["[Result \"0-1\"]", "[Result \"1/2-1/2\"]"]);
}

#[test]
fn closing_the_terminal_ends_the_game_and_saves_it() {
    let dir = temp_dir("hangup");
    let mut s = Screen::start(&dir.0, &["play", "--as", "white", "--depth", "1"], 100, 32);
    s.wait_for("your move>");
    s.enter("e4");
    s.wait_for("Fianchetto plays");
    // The window closes: the pty's master goes, the kernel hangs up the session.
    let Screen {
        mut child,
        master,
        writer,
        ..
    } = s;
    drop(writer);
    drop(master);
    let until = Instant::now() + LIVENESS;
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        if Instant::now() > until {
            let _ = child.kill();
            panic!("the game went on running after its terminal closed");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let saved = pgn_files(&dir.0.join("data/fianchetto"));
    assert_eq!(saved.len(), 1);
    assert!(
        saved[0].contains("1. e4 ") && !saved[0].contains(" 2. "),
        "{}",
        saved[0]
    );
}

#[test]
fn hostile_input_changes_nothing_and_signals_save_the_game() {
    let dir = temp_dir("hostile");
    let mut s = Screen::start(&dir.0, &["play", "--as", "white", "--depth", "1"], 100, 32);
    s.wait_for("your move>");
    s.enter("e4");
    s.wait_for("Fianchetto plays");
    // Escape sequences nobody sends, clicks outside the board, a huge paste, control bytes.
    s.send("\x1b[999~\x1b[<0;200;200M\x1b[<64;5;5M\x1bOZ\x1b[1;9Q\x07\x01\x1a");
    s.click(90, 30);
    // A paste of 3,000 characters: the input line keeps 200 and says so.
    s.send(&"Nf3 ".repeat(750));
    s.wait_for("Input is limited to 200 characters");
    // A bracketed-paste start that never ends holds nothing: the keys after it arrive.
    s.send(&"\x7f".repeat(200));
    s.send("\x1b[200~");
    std::thread::sleep(Duration::from_millis(200));
    s.enter("fen");
    s.wait_for("rnbqkbnr/pppp");
    let pid = s.pid();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let after = s.finish();
    assert!(after.contains("Game saved to"), "{after}");
    let saved = pgn_files(&dir.0.join("data/fianchetto"));
    assert_eq!(saved.len(), 1);
    // The junk played nothing: the game is still 1. e4 and the reply.
    assert!(
        saved[0].contains("1. e4 ") && !saved[0].contains(" 2. "),
        "{}",
        saved[0]
    );
}
