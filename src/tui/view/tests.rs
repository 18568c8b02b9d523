//! The drawing checked against stored screens (tests/data/screens/).
use super::*;
use crate::tui::app::Key;
use crate::tui::game::{PlayOptions, Strength};

fn app(human: Human, fen: Option<&str>) -> App {
    std::env::set_var(
        "XDG_DATA_HOME",
        std::env::temp_dir().join(format!("fianchetto-app-tests-{}", std::process::id())),
    );
    App::new(
        PlayOptions {
            human: Some(human),
            strength: Some(Strength::Depth(1)),
            fen: fen.map(str::to_string),
            ..PlayOptions::default()
        },
        false,
    )
    .unwrap()
}

fn text(app: &App, w: u16, h: u16) -> Vec<String> {
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    render(app, area, &mut buf, Instant::now());
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

#[test]
fn the_start_position_on_a_large_screen() {
    let a = app(Human::White, None);
    let screen = text(&a, 100, 32);
    // Large squares: 7 columns, 3 rows; Black's back rank on top, rank labels at the left.
    assert!(
        screen[1].starts_with("8    ♜      ♞      ♝      ♛      ♚      ♝      ♞      ♜"),
        "{screen:#?}"
    );
    assert!(
        screen[22].starts_with("1    ♖      ♘      ♗      ♕      ♔      ♗      ♘      ♖"),
        "{screen:#?}"
    );
    assert!(screen[24].contains("a      b      c"), "{screen:#?}");
    // The cursor on e2 is marked without colour.
    assert!(screen[19].contains("[♙]"), "{screen:#?}");
    assert!(screen[0].contains("Black: Fianchetto (depth 1)"));
    assert!(screen[24].contains("White: You"), "{screen:#?}");
    assert!(screen[30].starts_with("your move>"));
}

#[test]
fn the_board_shrinks_and_a_tiny_screen_asks_for_room() {
    let a = app(Human::Black, None);
    let small = text(&a, 40, 20);
    // Small squares, Black at the bottom: the first row is White's first rank, h to a.
    assert!(
        small[0].starts_with("1  ♖  ♘  ♗  ♔  ♕  ♗  ♘  ♖"),
        "{small:#?}"
    );
    assert!(
        small[7].starts_with("8  ♜  ♞  ♝  ♚  ♛  ♝  ♞  ♜"),
        "{small:#?}"
    );
    assert!(
        small[8].starts_with("   h  g  f  e  d  c  b  a"),
        "{small:#?}"
    );
    assert!(small[0].contains("White: Bot"), "{small:#?}");
    let tiny = text(&a, 20, 5);
    assert!(
        tiny.join(" ").contains("Make the window larger"),
        "{tiny:#?}"
    );
    let none = text(&a, 0, 0);
    assert!(none.is_empty());
    // The smallest size has no side column: a timed game's clocks lead the status line.
    let mut timed = App::new(
        PlayOptions {
            human: Some(Human::White),
            strength: Some(Strength::Depth(1)),
            time_control: Some(crate::tui::game::TimeControl {
                base_ms: 300_000,
                inc_ms: 0,
            }),
            ..PlayOptions::default()
        },
        false,
    )
    .unwrap();
    timed.message = "ready".into();
    let smallest = text(&timed, MIN_SIZE.0, MIN_SIZE.1);
    assert!(
        smallest
            .iter()
            .any(|l| l.starts_with("W 5:00 B 5:00 | ready")),
        "{smallest:#?}"
    );
}

#[test]
fn the_move_list_keeps_the_newest_move_in_view() {
    let mut a = app(Human::White, None);
    let now = Instant::now();
    // 40 plies of knights going back and forth: far more rows than the list has.
    if let Some(p) = &mut a.play {
        p.record.human = Human::Nobody;
        for san in "Nf3 Nf6 Ng1 Ng8 ".repeat(10).split_whitespace() {
            p.record.game.push_text(san).unwrap();
        }
    }
    let screen = text(&a, 100, 32).join("\n");
    assert!(screen.contains(" 20. Ng1"), "{screen}");
    assert!(!screen.contains("  1. Nf3"), "{screen}");
    a.on_key(Key::Home, now);
    let screen = text(&a, 100, 32).join("\n");
    assert!(screen.contains("  1. Nf3      Nf6"), "{screen}");
    assert!(!screen.contains(" 20. Ng1"), "{screen}");
}

#[test]
fn ascii_means_ascii() {
    let mut a = app(Human::White, None);
    a.ascii = true;
    let now = Instant::now();
    a.pick("g1".parse().ok(), now);
    let screen = text(&a, 100, 32).join("\n");
    assert!(screen.is_ascii(), "{screen}");
    assert!(screen.contains("N") && screen.contains("n"), "{screen}");
}

#[test]
fn a_click_maps_to_its_square_either_way_up() {
    let g = geometry(Rect::new(0, 0, 100, 32)).unwrap();
    assert_eq!(g.cell, (7, 3));
    // The top-left square is a8 from White's side and h1 from Black's.
    assert_eq!(g.square_at(2, 0, false), "a8".parse().ok());
    assert_eq!(g.square_at(2, 0, true), "h1".parse().ok());
    assert_eq!(g.square_at(2 + 4 * 7, 6 * 3 + 1, false), "e2".parse().ok());
    assert_eq!(
        g.square_at(0, 0, false),
        None,
        "the rank labels are not squares"
    );
    assert_eq!(g.square_at(99, 31, false), None);
}

/// Compares a screen with its snapshot in `tests/data/screens/NAME.txt`; with
/// `FIANCHETTO_UPDATE_SNAPSHOTS=1` it writes the snapshot instead (then look at it).
fn snapshot(name: &str, screen: &[String]) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/screens")
        .join(format!("{name}.txt"));
    let text = screen.join("\n") + "\n";
    if std::env::var_os("FIANCHETTO_UPDATE_SNAPSHOTS").is_some_and(|v| !v.is_empty()) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        want == text,
        "{name} differs from {}:\n{text}",
        path.display()
    );
}

#[test]
fn snapshots_of_the_main_screens() {
    // The setup form (as a first-time user sees it: nothing to resume).
    let mut a = App::new(PlayOptions::default(), false).unwrap();
    if let Some(s) = &mut a.setup {
        s.resumable = None;
        s.focus = Field::Side;
    }
    snapshot("setup-60x20", &text(&a, 60, 20));
    // A game with a piece picked up, in review and live, and the help.
    let mut a = app(Human::White, None);
    let now = Instant::now();
    if let Some(p) = &mut a.play {
        for san in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
            p.record.game.push_text(san).unwrap();
        }
        p.record.human = Human::Black;
    }
    a.flipped = false;
    a.message = "Fianchetto plays Bb5.".into();
    a.pick("a7".parse().ok(), now);
    snapshot("game-80x24", &text(&a, 80, 24));
    a.on_key(Key::Char('?'), now);
    snapshot("help-80x24", &text(&a, 80, 24));
    a.on_key(Key::Esc, now);
    a.on_key(Key::PageUp, now);
    snapshot("review-44x20", &text(&a, 44, 20));
}
