//! The line-by-line terminal game run in a real pseudo-terminal, typed at as a person would
//! (`TERM=dumb` picks it, as `--plain` does; the full-screen game has `tests/screen.rs`).

use rexpect::session::{spawn_command, PtySession};
use std::path::PathBuf;
use std::process::Command;

/// A test's own folder (and its `-data` sibling for autosaves), removed when the test ends.
struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl AsRef<std::path::Path> for TempDir {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        let _ = std::fs::remove_dir_all(format!("{}-data", self.0.display()));
    }
}

fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("fianchetto-tui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

fn start(dir: &PathBuf, args: &[&str]) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fianchetto"));
    // Autosaves go beside the test's folder, never into the real home.
    let data = PathBuf::from(format!("{}-data", dir.display()));
    cmd.args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("TERM", "dumb")
        .env("XDG_DATA_HOME", data);
    spawn_command(cmd, Some(20_000)).expect("spawn in a pty")
}

/// Types `line` at the game and waits until it answers with `answer` (a failure names the
/// caller's line).
#[track_caller]
fn say(p: &mut PtySession, line: &str, answer: &str) {
    p.send_line(line).unwrap();
    p.exp_string(answer).unwrap();
}

fn finish(p: &mut PtySession) {
    p.exp_eof().expect("program ends");
}

#[test]
fn menu_then_mate_by_the_human() {
    let dir = temp_dir("menu");
    let mut p = start(&dir, &[]);
    p.exp_string("=== Fianchetto ===").unwrap();
    p.exp_string("1. Play as White").unwrap();
    p.exp_string("3. Bot vs Bot").unwrap();
    p.exp_string("Choose [1-3]").unwrap();
    say(&mut p, "1", "Bot strength");
    say(&mut p, "1", "White to move>");
    // Force the bot into a lost position, then mate it.
    say(
        &mut p,
        "setfen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "White to move>",
    );
    say(
        &mut p,
        "Ra8#",
        "Game over: checkmate, White wins. You win! (1-0)",
    );
    p.exp_string("The game is saved in ").unwrap();
    p.exp_string("Write a copy as PGN?").unwrap();
    say(&mut p, "mate.pgn", "Game written to mate.pgn");
    p.exp_string("Play again? [y/N]").unwrap();
    say(&mut p, "n", "Goodbye.");
    finish(&mut p);
    let pgn: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .collect();
    assert_eq!(pgn.len(), 1);
    let text = std::fs::read_to_string(pgn[0].path()).unwrap();
    assert!(text.contains("1. Ra8# 1-0"), "{text}");
    assert!(text.contains("[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"]"));
}

#[test]
fn playing_black_flips_the_board_and_bot_moves_first() {
    let dir = temp_dir("black");
    let mut p = start(&dir, &["play", "--as", "black", "--depth", "1", "--ascii"]);
    p.exp_string("Fianchetto plays").unwrap();
    p.exp_string("    h  g  f  e  d  c  b  a").unwrap();
    p.exp_string("Black to move>").unwrap();
    say(&mut p, "quit", "Game saved to");
    finish(&mut p);
}

#[test]
fn promotion_both_ways() {
    for (i, input) in ["a7a8q", "a8=Q"].iter().enumerate() {
        let dir = temp_dir(&format!("promo{i}"));
        let mut p = start(
            &dir,
            &[
                "play",
                "--as",
                "white",
                "--depth",
                "1",
                "--ascii",
                "--fen",
                "8/P7/8/8/8/8/k7/4K3 w - - 0 1",
            ],
        );
        p.exp_string("White to move>").unwrap();
        p.send_line(input).unwrap();
        p.exp_string("Fianchetto plays").unwrap();
        p.exp_string("White to move>").unwrap();
        p.send_line("fen").unwrap();
        p.exp_regex(r"Q[0-9]?/8/8/8/8/8/").unwrap();
        p.send_line("exit").unwrap();
        finish(&mut p);
    }
}

#[test]
fn bad_input_explains_and_keeps_the_position() {
    let dir = temp_dir("bad");
    let mut p = start(&dir, &["play", "--as", "white", "--depth", "1", "--ascii"]);
    p.exp_string("White to move>").unwrap();
    say(
        &mut p,
        "Nf4",
        "Nf4 is not legal here: no knight can reach f4",
    );
    say(&mut p, "e9", "e9 is not a square");
    say(&mut p, "hello", "\"hello\" is not a move");
    say(
        &mut p,
        "setfen 4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1",
        "White to move>",
    );
    say(&mut p, "Nd2", "Nd2 is ambiguous: Nbd2 or Nfd2");
    say(&mut p, "setfen not a fen", "Bad FEN:");
    p.exp_string("The game goes on unchanged.").unwrap();
    say(&mut p, "fen", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    p.send_line("quit").unwrap();
    finish(&mut p);
}

#[test]
fn undo_takes_back_a_move_pair() {
    let dir = temp_dir("undo");
    let mut p = start(&dir, &["play", "--as", "white", "--depth", "1", "--ascii"]);
    p.exp_string("White to move>").unwrap();
    say(&mut p, "e4", "Fianchetto plays");
    p.exp_string("White to move>").unwrap();
    say(&mut p, "undo", "White to move>");
    say(
        &mut p,
        "fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    say(&mut p, "undo", "Nothing to undo.");
    say(&mut p, "legal", "Legal moves (20)");
    say(&mut p, "hint", "Hint: ");
    say(&mut p, "help", "setfen <FEN>");
    p.send_line("exit").unwrap();
    finish(&mut p);
}

#[test]
fn bot_vs_bot_plays_to_the_end() {
    let dir = temp_dir("bots");
    let mut p = start(
        &dir,
        &[
            "play",
            "--as",
            "none",
            "--depth",
            "1",
            "--ascii",
            "--fen",
            "8/8/8/4k3/8/8/3pK3/8 w - - 0 1",
        ],
    );
    p.exp_string("Game over: draw by insufficient material. (1/2-1/2)")
        .unwrap();
    p.exp_string("Write a copy as PGN?").unwrap();
    say(&mut p, "", "Play again? [y/N]");
    p.send_line("").unwrap();
    finish(&mut p);
}

#[test]
fn end_of_input_saves_the_game() {
    let dir = temp_dir("eof");
    let mut p = start(&dir, &["play", "--as", "white", "--depth", "1", "--ascii"]);
    p.exp_string("White to move>").unwrap();
    say(&mut p, "d4", "Fianchetto plays");
    p.exp_string("White to move>").unwrap();
    p.send_control('d').unwrap();
    p.exp_string("Game saved to ").unwrap();
    p.exp_string("resume with 'fianchetto play --resume'")
        .unwrap();
    finish(&mut p);
    // Nothing is left in the current folder: the game is in the data folder only.
    assert!(pgn_files(&dir).is_empty());
    let saved = pgn_files(std::path::Path::new(&format!(
        "{}-data/fianchetto",
        dir.display()
    )));
    assert_eq!(saved.len(), 1);
    let text = &saved[0];
    assert!(text.starts_with("[Event"));
    assert!(text.contains("1. d4 "), "{text}");
    assert!(text.contains("[Result \"*\"]"));
}

#[test]
fn bad_fen_flag_is_one_error_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_fianchetto"))
        .args(["play", "--fen", "garbage"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: bad FEN"), "{err}");
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn ctrl_c_saves_the_game() {
    let dir = temp_dir("ctrlc");
    let mut p = start(&dir, &["play", "--as", "white", "--depth", "1", "--ascii"]);
    p.exp_string("White to move>").unwrap();
    say(&mut p, "e4", "Fianchetto plays");
    p.exp_string("White to move>").unwrap();
    p.send_control('c').unwrap();
    p.exp_string("Game saved to ").unwrap();
    finish(&mut p);
    assert!(pgn_files(&dir).is_empty(), "nothing in the current folder");
    let saved = pgn_files(std::path::Path::new(&format!(
        "{}-data/fianchetto",
        dir.display()
    )));
    assert_eq!(saved.len(), 1);
}

fn start_with_data(dir: &PathBuf, data: &PathBuf, args: &[&str]) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fianchetto"));
    cmd.args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("TERM", "dumb")
        .env("XDG_DATA_HOME", data);
    spawn_command(cmd, Some(20_000)).expect("spawn in a pty")
}

fn signal(p: &PtySession, sig: &str) {
    let pid = p.process.child_pid.to_string();
    let ok = Command::new("kill").args([sig, &pid]).status().unwrap();
    assert!(ok.success());
}

fn pgn_files(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|x| x == "pgn"))
                .map(|e| std::fs::read_to_string(e.path()).unwrap())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn hangup_and_terminate_save_the_game() {
    for sig in ["-HUP", "-TERM", "-INT"] {
        let dir = temp_dir(&format!("sig{}", &sig[1..]));
        let data = dir.join("data");
        let mut p = start_with_data(&dir, &data, &["play", "--as", "white", "--depth", "1"]);
        p.exp_string("White to move>").unwrap();
        say(&mut p, "e4", "Fianchetto plays");
        p.exp_string("White to move>").unwrap();
        signal(&p, sig);
        if sig != "-HUP" {
            // After a hang-up nobody reads the terminal; otherwise the path is shown.
            p.exp_string("Game saved to").unwrap();
        }
        finish(&mut p);
        assert!(
            pgn_files(&dir).is_empty(),
            "{sig}: nothing in the current folder"
        );
        let auto = pgn_files(&data.join("fianchetto"));
        assert_eq!(auto.len(), 1, "{sig}");
        assert!(auto[0].contains("1. e4 "), "{sig}: {}", auto[0]);
        assert!(auto[0].contains("[FianchettoSide \"white\"]"));
    }
}

#[test]
fn kill_9_loses_nothing_and_resume_continues() {
    let dir = temp_dir("resume");
    let data = dir.join("data");
    let mut p = start_with_data(&dir, &data, &["play", "--as", "black", "--depth", "1"]);
    p.exp_string("Fianchetto plays").unwrap();
    p.exp_string("Black to move>").unwrap();
    say(&mut p, "e5", "Fianchetto plays");
    p.exp_string("Black to move>").unwrap();
    signal(&p, "-KILL");
    let _ = p.exp_eof();
    let auto = pgn_files(&data.join("fianchetto"));
    assert_eq!(auto.len(), 1);
    assert!(
        auto[0].contains("[FianchettoStrength \"depth 1\"]"),
        "{}",
        auto[0]
    );
    assert!(auto[0].contains(" e5 2. "), "{}", auto[0]);
    // `--resume` alone picks that game up with the same side and strength: no menus.
    let mut p = start_with_data(&dir, &data, &["play", "--resume"]);
    p.exp_string("(3 moves played)").unwrap();
    p.exp_string("Black to move>").unwrap();
    say(&mut p, "Nc6", "Fianchetto plays");
    p.exp_string("Black to move>").unwrap();
    p.send_line("quit").unwrap();
    finish(&mut p);
    let auto = pgn_files(&data.join("fianchetto"));
    assert_eq!(auto.len(), 1, "the resumed game keeps its file");
    assert!(
        auto[0].contains(" e5 2. ") && auto[0].contains(" Nc6 3. "),
        "{}",
        auto[0]
    );
    // A file given by name resumes too; a broken one is refused with a message.
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "1. e4 e5 2. Ke3").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_fianchetto"))
        .args(["play", "--resume", bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Ke3"));
}

#[test]
fn a_rating_from_the_strength_menu_sets_a_human_like_bot() {
    let dir = temp_dir("elo");
    let data = dir.join("data");
    let mut p = start_with_data(&dir, &data, &["play"]);
    p.exp_string("Choose [1-3]").unwrap();
    say(&mut p, "2", "or a rating from 1300 to 2800");
    // Out of range: explained, asked again.
    say(&mut p, "900", "is not a choice");
    say(&mut p, "1500", "Fianchetto plays");
    p.exp_string("Black to move>").unwrap();
    p.send_line("quit").unwrap();
    finish(&mut p);
    let auto = pgn_files(&data.join("fianchetto"));
    assert_eq!(auto.len(), 1);
    assert!(
        auto[0].contains("[FianchettoStrength \"elo 1500\"]"),
        "{}",
        auto[0]
    );
}

#[test]
fn plain_mode_in_a_real_terminal_hints_resigns_and_prints_the_pgn() {
    let dir = temp_dir("plain");
    let data = dir.join("data");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fianchetto"));
    cmd.args([
        "play", "--plain", "--as", "white", "--elo", "1300", "--ascii",
    ])
    .current_dir(&dir)
    .env("NO_COLOR", "1")
    .env("TERM", "xterm-256color")
    .env("XDG_DATA_HOME", &data);
    let mut p = spawn_command(cmd, Some(30_000)).expect("spawn in a pty");
    p.exp_string("White to move>").unwrap();
    // The hint is a full-strength search with a fixed budget: the same move every time, even
    // with a weakened bot (the issue saw five different hints in six at 1300).
    let mut hints = Vec::new();
    for _ in 0..3 {
        p.send_line("hint").unwrap();
        let (_, m) = p.exp_regex(r"Hint: [A-Za-z0-9+#=-]+").unwrap();
        hints.push(m);
        p.exp_string("White to move>").unwrap();
    }
    assert!(hints.iter().all(|h| h == &hints[0]), "{hints:?}");
    say(&mut p, "e4", "White to move>");
    // e2 is empty now: the message says so rather than blaming e4.
    say(
        &mut p,
        "e2e4",
        "e2e4 is not legal here: there is no piece on e2",
    );
    say(&mut p, "pgn", "[FianchettoStrength \"elo 1300\"]");
    say(&mut p, "resign", "White resigns. Fianchetto wins. (0-1)");
    p.exp_string("Write a copy as PGN?").unwrap();
    say(&mut p, "", "Play again? [y/N]");
    p.send_line("n").unwrap();
    finish(&mut p);
    assert!(pgn_files(&dir).is_empty());
    let auto = pgn_files(&data.join("fianchetto"));
    assert_eq!(auto.len(), 1);
    assert!(auto[0].contains("[Result \"0-1\"]"), "{}", auto[0]);
    assert!(auto[0].contains("[Termination \"normal\"]"), "{}", auto[0]);
}

#[test]
fn a_draw_offer_in_a_lost_position_is_accepted() {
    let dir = temp_dir("draw");
    // The bot (Black) has a lone king against a queen: it takes the draw.
    let mut p = start(
        &dir,
        &[
            "play",
            "--as",
            "white",
            "--depth",
            "1",
            "--ascii",
            "--fen",
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        ],
    );
    p.exp_string("White to move>").unwrap();
    say(&mut p, "draw", "Fianchetto accepts the draw.");
    p.exp_string("Draw agreed. (1/2-1/2)").unwrap();
    p.exp_string("Write a copy as PGN?").unwrap();
    say(&mut p, "", "Play again? [y/N]");
    p.send_line("").unwrap();
    finish(&mut p);
    // And in the start position (level, move 1) it plays on.
    let mut p = start(&dir, &["play", "--as", "white", "--depth", "1", "--ascii"]);
    p.exp_string("White to move>").unwrap();
    say(&mut p, "draw", "Fianchetto declines the draw and plays on.");
    p.send_line("quit").unwrap();
    finish(&mut p);
}
