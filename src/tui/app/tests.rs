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
fn the_clock_waits_for_both_first_moves_then_runs_for_the_side_to_move() {
    let mut o = opts(Human::White, Strength::Depth(1));
    o.time_control = Some(TimeControl {
        base_ms: 15_000,
        inc_ms: 0,
    });
    let mut app = App::new(o, false).unwrap();
    let t0 = Instant::now();
    let at = |ms: u64| t0 + Duration::from_millis(ms);
    let left = |app: &App, color: Color, now: Instant| {
        let c = app.play.as_ref().unwrap().clocks.as_ref().unwrap();
        (c.running(), c.left_ms(color, now))
    };
    // An hour at the board before the first move: no flag, the full 15 seconds, and none runs.
    app.tick(at(3_600_000));
    assert_eq!(app.play.as_ref().unwrap().ending(), None);
    assert_eq!(left(&app, Color::White, at(3_600_000)), (None, 15_000));
    // White's first move is not timed, nor Black's, however long the bot takes over it.
    typed(&mut app, "e4", at(3_600_000));
    assert_eq!(left(&app, Color::White, at(3_600_000)), (None, 15_000));
    let reply = at(3_610_000);
    let until = Instant::now() + Duration::from_secs(20);
    while app.play.as_ref().unwrap().game().moves().len() < 2 {
        assert!(Instant::now() < until, "the bot did not move");
        app.tick(reply);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        left(&app, Color::Black, reply),
        (Some(Color::White), 15_000)
    );
    // From the bot's reply on, White's clock runs: 15 seconds later it has fallen.
    let reply_plus = |ms: u64| reply + Duration::from_millis(ms);
    assert_eq!(
        left(&app, Color::White, reply_plus(10_000)),
        (Some(Color::White), 5_000)
    );
    app.tick(reply_plus(14_999));
    assert_eq!(app.play.as_ref().unwrap().ending(), None);
    app.tick(reply_plus(15_000));
    assert_eq!(
        app.play.as_ref().unwrap().ending(),
        Some(Ending::Time {
            loser: Color::White,
            draw: false
        })
    );
}

/// Bot vs bot: ticks at the fixed time `at` until the bot's move is found and held back (20
/// seconds of real time at most: the search runs on its own thread, and this waits only for it).
fn wait_for_held_move(app: &mut App, at: Instant) {
    let until = Instant::now() + Duration::from_secs(20);
    while app.play.as_ref().unwrap().pending.is_none() {
        assert!(Instant::now() < until, "the bot found no move");
        app.tick(at);
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn plies(app: &App) -> usize {
    app.play.as_ref().unwrap().game().moves().len()
}

#[test]
fn bot_vs_bot_plays_a_move_a_pace_apart() {
    let mut app = App::new(opts(Human::Nobody, Strength::Depth(1)), false).unwrap();
    let t0 = app.play.as_ref().unwrap().last_move_at;
    let at = |ms: u64| t0 + Duration::from_millis(ms);
    // The first move, found at once, waits for the pace: a second by default.
    assert_eq!(PACE_MS.2, 1_000);
    wait_for_held_move(&mut app, t0);
    app.tick(at(999));
    assert_eq!(plies(&app), 0, "a move before the pace allows it");
    app.tick(at(1_000));
    assert_eq!(plies(&app), 1);
    // The next one a second after that move.
    wait_for_held_move(&mut app, at(1_000));
    app.tick(at(1_999));
    assert_eq!(plies(&app), 1, "a move before the pace allows it");
    app.tick(at(2_000));
    assert_eq!(plies(&app), 2);
    // + halves the pace, - doubles it.
    app.on_key(Key::Char('+'), at(2_000));
    wait_for_held_move(&mut app, at(2_000));
    app.tick(at(2_499));
    assert_eq!(plies(&app), 2, "a move before the pace allows it");
    app.tick(at(2_500));
    assert_eq!(plies(&app), 3);
    app.on_key(Key::Char('-'), at(2_500));
    app.on_key(Key::Char('-'), at(2_500));
    wait_for_held_move(&mut app, at(2_500));
    app.tick(at(4_499));
    assert_eq!(plies(&app), 3, "a move before the pace allows it");
    app.tick(at(4_500));
    assert_eq!(plies(&app), 4);
}

#[test]
fn bot_vs_bot_paused_plays_nothing_until_a_step_plays_one_move() {
    let mut app = App::new(opts(Human::Nobody, Strength::Depth(1)), false).unwrap();
    let t0 = app.play.as_ref().unwrap().last_move_at;
    let hours = |h: u64| t0 + Duration::from_secs(h * 3600);
    let idle = |app: &App| {
        let p = app.play.as_ref().unwrap();
        p.paused && !p.step && p.thinking.is_none() && p.pending.is_none()
    };
    // A move is in hand when Space pauses: it is held, however long the pause.
    wait_for_held_move(&mut app, t0);
    app.on_key(Key::Char(' '), t0);
    assert!(app.message.starts_with("Paused"), "{}", app.message);
    app.tick(hours(1));
    assert_eq!(plies(&app), 0, "a move while paused");
    assert!(app.play.as_ref().unwrap().pending.is_some());
    // A step plays it, and only it: no search starts for the next move.
    app.on_key(Key::Char('.'), hours(1));
    app.tick(hours(1));
    assert_eq!(plies(&app), 1);
    assert!(idle(&app), "after a step the bots wait");
    app.tick(hours(2));
    assert_eq!(plies(&app), 1, "a move while paused");
    assert!(idle(&app), "after a step the bots wait");
    // A step with no move in hand searches and plays the one move found, then waits again.
    app.on_key(Key::Char('.'), hours(2));
    let until = Instant::now() + Duration::from_secs(20);
    while plies(&app) < 2 {
        assert!(Instant::now() < until, "the step played nothing");
        app.tick(hours(2));
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(plies(&app), 2);
    assert!(idle(&app), "after a step the bots wait");
    app.tick(hours(3));
    assert_eq!(plies(&app), 2, "a move while paused");
    assert!(idle(&app), "after a step the bots wait");
    // Space goes on: the next move as soon as found (the last was long ago), then at the pace.
    app.on_key(Key::Char(' '), hours(3));
    assert_eq!(app.message, "Playing.");
    let until = Instant::now() + Duration::from_secs(20);
    while plies(&app) < 3 {
        assert!(Instant::now() < until, "the bots did not go on");
        app.tick(hours(3));
        std::thread::sleep(Duration::from_millis(5));
    }
    let after = |ms: u64| hours(3) + Duration::from_millis(ms);
    wait_for_held_move(&mut app, hours(3));
    app.tick(after(999));
    assert_eq!(plies(&app), 3, "a move before the pace allows it");
    app.tick(after(1_000));
    assert_eq!(plies(&app), 4);
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
