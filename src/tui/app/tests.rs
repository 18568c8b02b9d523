//! The full-screen game driven without a terminal.

use super::*;

fn opts(human: Human, strength: Strength) -> PlayOptions {
    // Autosaves go to a scratch folder, never into the real data folder.
    std::env::set_var(
        "XDG_DATA_HOME",
        std::env::temp_dir().join(format!("fianchetto-app-tests-{}", std::process::id())),
    );
    PlayOptions {
        human: Some(human),
        strength: Some(strength),
        ..PlayOptions::default()
    }
}

fn typed(app: &mut App, text: &str, now: Instant) {
    for c in text.chars() {
        app.on_key(Key::Char(c), now);
    }
    app.on_key(Key::Enter, now);
}

/// Ticks until the bot has moved (20 seconds at most).
fn wait_for_bot(app: &mut App, plies: usize) {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        app.tick(Instant::now());
        if app.play.as_ref().unwrap().game().moves().len() >= plies {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the bot did not move");
}

#[test]
fn typed_and_picked_moves_both_play() {
    let now = Instant::now();
    let mut app = App::new(opts(Human::White, Strength::Depth(1)), false).unwrap();
    typed(&mut app, "e4", now);
    assert_eq!(app.play.as_ref().unwrap().game().moves().len(), 1);
    wait_for_bot(&mut app, 2);
    // d2 to d4 with the cursor: the cursor starts on e2.
    app.on_key(Key::Left, now);
    app.on_key(Key::Enter, now);
    assert_eq!(app.play.as_ref().unwrap().selected, "d2".parse().ok());
    app.on_key(Key::Up, now);
    app.on_key(Key::Up, now);
    app.on_key(Key::Char(' '), now);
    let p = app.play.as_ref().unwrap();
    assert_eq!(p.game().moves()[2].to_string(), "d2d4", "{}", app.message);
}

#[test]
fn a_move_from_an_empty_square_is_explained_and_changes_nothing() {
    let now = Instant::now();
    let mut app = App::new(opts(Human::White, Strength::Depth(1)), false).unwrap();
    app.pick("e4".parse().ok(), now);
    assert_eq!(app.message, "e4 is empty: pick one of your pieces.");
    typed(&mut app, "e3e4", now);
    assert!(app.message.contains("no piece on e3"), "{}", app.message);
    assert!(app.play.as_ref().unwrap().game().moves().is_empty());
}

#[test]
fn promotion_asks_for_the_piece() {
    let now = Instant::now();
    let mut o = opts(Human::White, Strength::Depth(1));
    o.fen = Some("7k/P7/8/8/8/8/8/K7 w - - 0 1".into());
    let mut app = App::new(o, false).unwrap();
    app.pick("a7".parse().ok(), now);
    app.pick("a8".parse().ok(), now);
    assert!(app.play.as_ref().unwrap().promotion.is_some());
    app.on_key(Key::Char('n'), now);
    let p = app.play.as_ref().unwrap();
    assert_eq!(p.game().moves()[0].to_string(), "a7a8n");
}

#[test]
fn a_flag_fall_ends_the_game_for_the_side_whose_clock_ran() {
    let now = Instant::now();
    let mut o = opts(Human::White, Strength::Depth(1));
    o.time_control = Some(TimeControl {
        base_ms: 15_000,
        inc_ms: 0,
    });
    let mut app = App::new(o, false).unwrap();
    typed(&mut app, "e4", now);
    wait_for_bot(&mut app, 2);
    // The person's clock runs now; 16 s later it has fallen.
    let later = Instant::now() + Duration::from_secs(16);
    app.tick(later);
    let p = app.play.as_ref().unwrap();
    assert_eq!(
        p.ending(),
        Some(Ending::Time {
            loser: Color::White,
            draw: false
        })
    );
    assert!(p.record.to_pgn().contains("[Termination \"time forfeit\"]"));
    assert!(
        app.message.contains("White lost on time"),
        "{}",
        app.message
    );
}

#[test]
fn review_steps_back_without_undoing() {
    let now = Instant::now();
    let mut app = App::new(opts(Human::White, Strength::Depth(1)), false).unwrap();
    typed(&mut app, "e4", now);
    wait_for_bot(&mut app, 2);
    app.on_key(Key::PageUp, now);
    app.on_key(Key::PageUp, now);
    let p = app.play.as_ref().unwrap();
    assert_eq!((p.shown_ply(), p.game().moves().len()), (0, 2));
    assert_eq!(p.shown_board(), &Board::startpos());
    app.on_key(Key::End, now);
    assert_eq!(app.play.as_ref().unwrap().review, None);
}

#[test]
fn the_same_position_gets_the_same_hint() {
    let mut hints = Vec::new();
    for _ in 0..2 {
        let now = Instant::now();
        let mut app = App::new(opts(Human::White, Strength::Elo(1300)), false).unwrap();
        typed(&mut app, "hint", now);
        let until = Instant::now() + Duration::from_secs(30);
        while app.play.as_ref().unwrap().hint.is_none() && Instant::now() < until {
            app.tick(Instant::now());
            std::thread::sleep(Duration::from_millis(5));
        }
        hints.push(app.play.as_ref().unwrap().hint);
    }
    assert!(hints[0].is_some());
    assert_eq!(hints[0], hints[1]);
}

#[test]
fn resigning_records_the_result() {
    let now = Instant::now();
    let mut app = App::new(opts(Human::Black, Strength::Depth(1)), false).unwrap();
    wait_for_bot(&mut app, 1);
    typed(&mut app, "resign", now);
    let p = app.play.as_ref().unwrap();
    assert_eq!(
        p.ending(),
        Some(Ending::Resigned {
            loser: Color::Black
        })
    );
    assert!(p.record.to_pgn().contains("[Result \"1-0\"]"));
}

#[test]
fn mate_scores_read_from_whites_side() {
    use crate::search::score::MATE;
    // White to move mates in 2 (3 plies); Black to move is mated in 1 (2 plies).
    assert_eq!(eval_text(Score(MATE - 3), Color::White), "#2");
    assert_eq!(eval_text(Score(-(MATE - 2)), Color::Black), "#1");
    assert_eq!(eval_text(Score(MATE - 1), Color::Black), "#-1");
    assert_eq!(eval_text(Score(-35), Color::Black), "+0.35");
}

#[test]
fn esc_on_the_new_game_form_returns_to_the_game() {
    let now = Instant::now();
    let mut app = App::new(opts(Human::White, Strength::Depth(1)), false).unwrap();
    typed(&mut app, "e4", now);
    typed(&mut app, "new", now);
    assert!(app.setup.is_some() && app.play.is_none());
    assert!(
        app.snapshot(now).is_some(),
        "the left game is still saved on leaving"
    );
    assert_eq!(app.on_key(Key::Esc, now), Flow::Continue);
    let p = app.play.as_ref().expect("back in the game");
    assert_eq!(p.game().moves()[0].to_string(), "e2e4");
    // A second Esc on a form with no game behind it leaves.
    typed(&mut app, "new", now);
    app.on_key(Key::Enter, now);
    assert!(app.play.is_some());
    typed(&mut app, "new", now);
    app.on_key(Key::Esc, now);
    assert!(app.play.is_some());
}

#[test]
fn pasted_text_is_bounded() {
    let mut app = App::new(opts(Human::White, Strength::Depth(1)), false).unwrap();
    app.on_paste(&"x\u{1b}[A".repeat(1000));
    assert_eq!(app.input.chars().count(), MAX_INPUT);
    assert!(!app.input.contains('\u{1b}'));
}
