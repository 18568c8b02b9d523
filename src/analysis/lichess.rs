//! lichess's analysis formulas: win percentage, move and game accuracy, move judgements.
//!
//! Each function follows lila's published definitions (`WinPercent.scala`,
//! `AccuracyPercent.scala`, `Advice.scala`, `Accuracy.scala`), so a game analysed here reads the
//! same as on lichess given the same evaluations.

use crate::chess::Color;

/// Centipawns beyond this count as this much (lichess's `Cp.CEILING`).
pub const CP_CEILING: i32 = 1000;
/// The evaluation lichess assumes for the standard start position (`Cp.initial`).
pub const CP_INITIAL: i32 = 15;

/// An evaluation from White's view: centipawns, or a forced mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns, White's view.
    Cp(i32),
    /// A forced mate by `winner` in `moves` moves (0: the position is checkmate).
    Mate {
        /// Who mates.
        winner: Color,
        /// Full moves to mate.
        moves: u32,
    },
}

impl Eval {
    /// Centipawns for the win-percentage formulas: capped at ±1000, a mate counting as ±1000.
    pub fn ceiled_cp(self) -> i32 {
        match self {
            Eval::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
            Eval::Mate { winner, .. } => match winner {
                Color::White => CP_CEILING,
                Color::Black => -CP_CEILING,
            },
        }
    }

    /// The mate, if any, as a signed move count (positive: White mates).
    pub fn mate(self) -> Option<i32> {
        match self {
            Eval::Cp(_) => None,
            Eval::Mate { winner, moves } => Some(match winner {
                Color::White => moves as i32,
                Color::Black => -(moves as i32),
            }),
        }
    }

    /// The `[%eval …]` text lichess exports: `0.17`, `-1.50`, `#3`, `#-2`.
    pub fn pgn_text(self) -> String {
        match self {
            Eval::Cp(cp) => format!("{:.2}", cp as f64 / 100.0),
            Eval::Mate { winner, moves } => match winner {
                Color::White => format!("#{moves}"),
                Color::Black => format!("#-{moves}"),
            },
        }
    }
}

/// lichess's winning chances in [−1, 1] for a centipawn score (White's view).
pub fn winning_chances(cp: i32) -> f64 {
    let cp = cp.clamp(-CP_CEILING, CP_CEILING) as f64;
    // The slope was fitted by lichess to its players' results (WinPercent.scala).
    2.0 / (1.0 + (-0.00368208 * cp).exp()) - 1.0
}

/// Win percentage (0–100) of an evaluation, from White's view.
pub fn win_percent(e: Eval) -> f64 {
    50.0 + 50.0 * winning_chances(e.ceiled_cp())
}

/// The accuracy (0–100) of a move that took the mover's win percentage from `before` to `after`.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    // lichess's fit, plus its "uncertainty bonus" of 1 for imperfect analysis.
    let raw =
        103.1668100711649 * (-0.04354415386753951 * (before - after)).exp() - 3.166924740191411;
    (raw + 1.0).clamp(0.0, 100.0)
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Population standard deviation.
fn std_dev(xs: &[f64]) -> f64 {
    let m = mean(xs);
    (xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / xs.len() as f64).sqrt()
}

/// Harmonic mean as lila computes it: values below 1 count as 1, so one 0 does not zero it.
fn harmonic_mean(xs: &[f64]) -> f64 {
    xs.len() as f64 / xs.iter().map(|x| 1.0 / x.max(1.0)).sum::<f64>()
}

/// Per-colour game accuracy (lichess): the mean of a volatility-weighted mean and the harmonic
/// mean of the move accuracies. `evals[0]` is the start position, `evals[i]` the position after
/// ply `i`, all from White's view; `first` moves first. `None` for a colour without moves.
pub fn game_accuracy(first: Color, evals: &[Eval]) -> [Option<f64>; 2] {
    game_accuracy_skipping(first, evals, &[])
}

/// [`game_accuracy`] leaving out the moves `i` where `skip[i]` is set (null moves: a pass is no
/// move of the player's), which still count in the volatility windows around them.
pub fn game_accuracy_skipping(first: Color, evals: &[Eval], skip: &[bool]) -> [Option<f64>; 2] {
    if evals.len() < 2 {
        return [None, None];
    }
    let wins: Vec<f64> = evals.iter().map(|&e| win_percent(e)).collect();
    let plies = wins.len() - 1;
    let window = (plies / 10).clamp(2, 8);
    // lila pads the front with copies of the first window so every move has one.
    let mut windows: Vec<&[f64]> = Vec::with_capacity(plies);
    let first_window = &wins[..window.min(wins.len())];
    for _ in 0..window.saturating_sub(2) {
        windows.push(first_window);
    }
    for w in wins.windows(window) {
        windows.push(w);
    }
    let mut per = [Vec::new(), Vec::new()];
    for (i, pair) in wins.windows(2).enumerate() {
        if skip.get(i) == Some(&true) {
            continue;
        }
        let weight = windows.get(i).map_or(0.5, |w| std_dev(w).clamp(0.5, 12.0));
        let color = if i % 2 == 0 { first } else { !first };
        let (before, after) = match color {
            Color::White => (pair[0], pair[1]),
            Color::Black => (100.0 - pair[0], 100.0 - pair[1]),
        };
        per[color as usize].push((move_accuracy(before, after), weight));
    }
    per.map(|moves| {
        if moves.is_empty() {
            return None;
        }
        let weighted = moves.iter().map(|(a, w)| a * w).sum::<f64>()
            / moves.iter().map(|(_, w)| w).sum::<f64>();
        let accs: Vec<f64> = moves.iter().map(|(a, _)| *a).collect();
        Some((weighted + harmonic_mean(&accs)) / 2.0)
    })
}

/// Centipawns a move lost (lichess's ACPL term): the mover's drop, capped scores, never negative.
pub fn cp_loss(mover: Color, before: Eval, after: Eval) -> i32 {
    let d = after.ceiled_cp() - before.ceiled_cp();
    match mover {
        Color::White => (-d).max(0),
        Color::Black => d.max(0),
    }
}

/// How bad a move was, by lichess's thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Lost 10–20 points of winning chances (or let a far-off mate go / walked into one).
    Inaccuracy,
    /// Lost 20–30 points.
    Mistake,
    /// Lost 30 points or more.
    Blunder,
}

impl Judgement {
    /// The NAG lichess writes: `?!` 6, `?` 2, `??` 4.
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The word lichess uses.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// Why a move was judged: a loss of winning chances, or a change in a forced mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advice {
    /// Winning chances dropped.
    Chances(Judgement),
    /// The mover now gets mated by force (and was not before).
    MateCreated(Judgement),
    /// The mover had a forced mate and let it go.
    MateLost(Judgement),
}

impl Advice {
    /// The judgement behind the advice.
    pub fn judgement(self) -> Judgement {
        match self {
            Advice::Chances(j) | Advice::MateCreated(j) | Advice::MateLost(j) => j,
        }
    }

    /// The sentence lichess writes before "X was best.".
    pub fn text(self) -> &'static str {
        match self {
            Advice::Chances(j) => j.name(),
            Advice::MateCreated(_) => "Checkmate is now unavoidable",
            Advice::MateLost(_) => "Lost forced checkmate sequence",
        }
    }
}

/// lichess's judgement of a move by `mover` that took the evaluation (White's view) from
/// `before` to `after`; `None` for a good enough move.
pub fn advice(mover: Color, before: Eval, after: Eval) -> Option<Advice> {
    let sign = if mover == Color::White { 1 } else { -1 };
    match (before, after) {
        (Eval::Cp(b), Eval::Cp(a)) => {
            let delta = sign as f64 * (winning_chances(b) - winning_chances(a));
            [
                (0.3, Judgement::Blunder),
                (0.2, Judgement::Mistake),
                (0.1, Judgement::Inaccuracy),
            ]
            .into_iter()
            .find(|(t, _)| delta >= *t)
            .map(|(_, j)| Advice::Chances(j))
        }
        _ => {
            // From the mover's view: positive mates are the mover's.
            let prev_mate = before.mate().map(|m| m * sign);
            let next_mate = after.mate().map(|m| m * sign);
            let prev_cp = match before {
                Eval::Cp(c) => c * sign,
                _ => 0,
            };
            let next_cp = match after {
                Eval::Cp(c) => c * sign,
                _ => 0,
            };
            let grade = |cp: i32| {
                if cp > 999 {
                    Judgement::Inaccuracy
                } else if cp > 700 {
                    Judgement::Mistake
                } else {
                    Judgement::Blunder
                }
            };
            match (prev_mate, next_mate) {
                // Being mated where the position was not lost by force before.
                (None, Some(n)) if n < 0 => Some(Advice::MateCreated(grade(-prev_cp))),
                (Some(p), None) if p > 0 => Some(Advice::MateLost(grade(next_cp))),
                (Some(p), Some(n)) if p > 0 && n < 0 => Some(Advice::MateLost(grade(next_cp))),
                _ => None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn win_percent_by_hand() {
        // 50 + 50·(2/(1+e^(−0.00368208·cp)) − 1), worked out by hand:
        // cp 0 → 50; cp 100: e^−0.368208 = 0.691947, 2/1.691947 = 1.182070 → 59.1035;
        // cp 300: e^−1.104624 = 0.331338, 2/1.331338 = 1.502249 → 75.1124.
        assert!(close(win_percent(Eval::Cp(0)), 50.0, 1e-9));
        assert!(close(win_percent(Eval::Cp(100)), 59.1035, 1e-3));
        assert!(close(win_percent(Eval::Cp(-100)), 40.8965, 1e-3));
        assert!(close(win_percent(Eval::Cp(300)), 75.1124, 1e-3));
        // Capped at 1000 cp, and a mate counts as that cap.
        assert_eq!(win_percent(Eval::Cp(5000)), win_percent(Eval::Cp(1000)));
        let mate = Eval::Mate {
            winner: Color::Black,
            moves: 3,
        };
        assert_eq!(win_percent(mate), win_percent(Eval::Cp(-1000)));
        // cp 1000: e^−3.68208 = 0.0251695, 2/1.0251695 = 1.9508949 → 97.5447.
        assert!(close(win_percent(Eval::Cp(1000)), 97.5447, 1e-3));
    }

    #[test]
    fn move_accuracy_by_hand() {
        // No drop: 100. A drop of 10 points: 103.1668·e^−0.4354415 − 3.1669 + 1
        // = 103.1668·0.647018 − 2.1669 = 66.7508 − 2.1669 = 64.584.
        assert_eq!(move_accuracy(60.0, 60.0), 100.0);
        assert_eq!(move_accuracy(40.0, 55.0), 100.0);
        assert!(close(move_accuracy(60.0, 50.0), 64.584, 1e-2));
        // A tiny drop can exceed 100 before clamping.
        assert_eq!(move_accuracy(50.0, 49.99), 100.0);
        // A drop of 100 points is beyond the fit: clamped to 0.
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn game_accuracy_by_hand() {
        // Two plies from 15 cp: White keeps 15 (100 %), Black drops to +100 from White's view.
        // Window 2 (clamp(2/10, 2, 8)), no padding; weights are the windows' deviations,
        // one move each, so each colour's weighted mean is its accuracy: Black's drop is
        // 59.1035 − 51.3803 = 7.7232 points of its own chances → 103.1668·e^−0.336296 − 2.1669.
        let evals = [Eval::Cp(15), Eval::Cp(15), Eval::Cp(100)];
        let [w, b] = game_accuracy(Color::White, &evals);
        assert!(close(w.unwrap(), 100.0, 1e-9));
        let wp15 = win_percent(Eval::Cp(15));
        assert!(close(wp15, 51.3803, 1e-3));
        let expect_b = 103.1668100711649 * (-0.04354415386753951 * (59.1035 - 51.3803f64)).exp()
            - 3.166924740191411
            + 1.0;
        assert!(close(b.unwrap(), expect_b, 1e-2), "{b:?} vs {expect_b}");
        assert_eq!(game_accuracy(Color::White, &evals[..1]), [None, None]);
    }

    #[test]
    fn judgements_follow_the_thresholds() {
        let j = |b, a| advice(Color::White, Eval::Cp(b), Eval::Cp(a)).map(|a| a.judgement());
        // winning chances: 0 → 0, −56 → −0.1027, −115 → −0.2098, −175 → −0.3130.
        assert_eq!(j(0, -40), None);
        assert_eq!(j(0, -56), Some(Judgement::Inaccuracy));
        assert_eq!(j(0, -115), Some(Judgement::Mistake));
        assert_eq!(j(0, -175), Some(Judgement::Blunder));
        // For Black the signs turn.
        let k = advice(Color::Black, Eval::Cp(0), Eval::Cp(175)).map(|a| a.judgement());
        assert_eq!(k, Some(Judgement::Blunder));
        assert_eq!(advice(Color::Black, Eval::Cp(0), Eval::Cp(-175)), None);
        // Mates: walking into one from an equal position is a blunder, from a lost one an
        // inaccuracy; letting one go while still +8 is a mistake.
        let mated = Eval::Mate {
            winner: Color::Black,
            moves: 2,
        };
        assert_eq!(
            advice(Color::White, Eval::Cp(0), mated),
            Some(Advice::MateCreated(Judgement::Blunder))
        );
        assert_eq!(
            advice(Color::White, Eval::Cp(-1200), mated),
            Some(Advice::MateCreated(Judgement::Inaccuracy))
        );
        let mating = Eval::Mate {
            winner: Color::White,
            moves: 4,
        };
        assert_eq!(
            advice(Color::White, mating, Eval::Cp(800)),
            Some(Advice::MateLost(Judgement::Mistake))
        );
        assert_eq!(advice(Color::White, mating, mating), None);
    }

    #[test]
    fn cp_loss_caps_and_floors() {
        assert_eq!(cp_loss(Color::White, Eval::Cp(50), Eval::Cp(-30)), 80);
        assert_eq!(cp_loss(Color::White, Eval::Cp(50), Eval::Cp(90)), 0);
        assert_eq!(cp_loss(Color::Black, Eval::Cp(50), Eval::Cp(90)), 40);
        let m = Eval::Mate {
            winner: Color::White,
            moves: 1,
        };
        assert_eq!(cp_loss(Color::Black, Eval::Cp(2000), m), 0);
        assert_eq!(cp_loss(Color::Black, Eval::Cp(0), m), 1000);
    }
}
