//! Playing below full strength, the way a weaker player does: a smaller search (fewer nodes),
//! and a choice among the best few moves that favours the good ones, so that the mistakes are
//! plausible moves that lose a little, rarely a piece, never a random blunder.
//!
//! Level `MAX_LEVEL` is full strength. Below it, the search looks at `LINES` moves with a node
//! budget that halves every two levels, and picks line `i` with probability proportional to
//! `exp(−loss_i / T)`, where `loss_i` is how much worse than the best line it scored and the
//! temperature `T` grows as the level falls; lines that lose more than a level's cap are never
//! played. Levels are continuous (UCI `Skill Level` uses the whole numbers 0-20); `UCI_Elo`
//! picks the level whose measured strength is that Elo (`level_for_elo`).

use super::score::Score;
use super::types::{Limits, SearchResult};

/// Full strength.
pub const MAX_LEVEL: u8 = 20;
/// The weakest level, below `Skill Level` 0, for `UCI_Elo`'s lowest ratings.
pub const MIN_LEVEL: f64 = -1.0;
/// The lowest `UCI_Elo`.
pub const ELO_MIN: u32 = 1300;
/// The highest `UCI_Elo`.
pub const ELO_MAX: u32 = 2800;
/// Measured strength by level: (level, Elo on the ladder's scale), from matches at 5+0.05
/// against HoiChess (~1800), Sjeng (~2300) and GNU Chess (~2650), lower levels chained (docs/measurements.md,
/// "Strength levels"). A smoothed, increasing line through the measurements; between anchors
/// the Elo is interpolated. Above level 12 the levels gain less: at 5+0.05 their node budgets
/// exceed what the clock allows, so only the choice among lines still weakens them.
const ELO_BY_LEVEL: [(f64, f64); 8] = [
    (-1.0, 1120.0),
    (0.5, 1280.0),
    (3.0, 1590.0),
    (6.0, 1850.0),
    (10.0, 2330.0),
    (12.0, 2490.0),
    (18.0, 2740.0),
    (20.0, 3000.0),
];

/// Thinking time a move at a rating may take at most (terminal game and browser app): about
/// what a move gets at 5+0.05, the time control the ratings were measured at.
pub const ELO_MOVETIME_MS: u64 = 200;

/// The level that plays at `elo` on the ladder's scale (clamped to `ELO_MIN..=ELO_MAX`).
pub fn level_for_elo(elo: u32) -> f64 {
    let elo = f64::from(elo.clamp(ELO_MIN, ELO_MAX));
    let pairs = ELO_BY_LEVEL.windows(2);
    for w in pairs {
        let ((l0, e0), (l1, e1)) = (w[0], w[1]);
        if elo <= e1 {
            return (l0 + (elo - e0) / (e1 - e0) * (l1 - l0))
                .clamp(MIN_LEVEL, f64::from(MAX_LEVEL));
        }
    }
    f64::from(MAX_LEVEL)
}

/// The limits of a bot playing at `elo` (the terminal game and the browser app): the level for
/// the rating, and the thinking time the ratings were measured at, or `clock` when the game
/// has one (the level still limits the play). `random` draws among the candidate moves.
pub fn rated_limits(elo: u32, clock: Option<super::types::Clock>, random: u64) -> Limits {
    Limits {
        movetime: clock.is_none().then_some(ELO_MOVETIME_MS),
        clock,
        skill: Some(level_for_elo(elo)),
        random,
        multipv: 1,
        ..Limits::default()
    }
}

// The bot as an opponent, beyond its strength: hints and draw offers, the same in the
// terminal game and the browser.

/// Nodes for a hint and for judging a draw offer: a full-strength search with a fixed budget
/// and a fresh hash, so the same position always gets the same answer (about 0.3 s here).
pub const HINT_NODES: u64 = 300_000;

/// The limits of a hint or a draw-offer judgement (see `HINT_NODES`).
pub fn hint_limits() -> Limits {
    Limits {
        nodes: Some(HINT_NODES),
        multipv: 1,
        ..Limits::default()
    }
}

/// The bot takes a draw when its own full-strength evaluation (side to move's view after
/// `plies` half-moves) says it is worse by half a pawn, or the game is level after move 30. A
/// level position earlier is played on: a person offering a draw at move 5 gets a game.
pub fn accepts_draw(bot_view: Score, plies: usize) -> bool {
    const WORSE_CP: i32 = -50;
    const LEVEL_CP: i32 = 15;
    const LEVEL_AFTER_PLIES: usize = 60;
    if bot_view.is_mate() {
        return bot_view.0 < 0;
    }
    bot_view.0 <= WORSE_CP || (bot_view.0.abs() <= LEVEL_CP && plies >= LEVEL_AFTER_PLIES)
}

/// How many moves a weakened search considers.
pub const LINES: usize = 4;
/// Nodes a move at level 0; each two levels double it (level 19: about 2.9 million).
const BASE_NODES: u64 = 5_000;
/// The temperature at level 0, in centipawns: a move 1.5 pawns worse than the best is
/// played a third as often as the best.
const MAX_TEMPERATURE: f64 = 150.0;
/// The largest loss a move may have to be played at level 0 (a piece and a half)…
const MAX_LOSS_CAP: i32 = 450;
/// …and at the top weakened level (a fraction of a pawn).
const MIN_LOSS_CAP: i32 = 30;

/// The node budget of `level`: `BASE_NODES` at level 0, doubling every two levels.
fn node_budget(level: f64) -> u64 {
    let level = level.clamp(MIN_LEVEL, f64::from(MAX_LEVEL));
    (BASE_NODES as f64 * 2f64.powf(level / 2.0)) as u64
}

/// The limits of a search at `level` (below `MAX_LEVEL`): at least `LINES` lines and at most
/// the level's node budget, on top of what the caller asked.
pub fn limits(limits: &Limits, level: f64) -> Limits {
    let budget = node_budget(level);
    Limits {
        multipv: limits.multipv.max(LINES),
        nodes: Some(limits.nodes.map_or(budget, |n| n.min(budget))),
        ..limits.clone()
    }
}

/// How far below full strength `level` is, from 0 (full) to 1 (level 0) and a little beyond.
fn weakness(level: f64) -> f64 {
    let level = level.clamp(MIN_LEVEL, f64::from(MAX_LEVEL));
    (f64::from(MAX_LEVEL) - level) / f64::from(MAX_LEVEL)
}

/// The index of the line to play among `lines` (best first) at `level`, drawn with `random`.
pub fn pick(lines: &[(Score, Vec<crate::chess::Move>)], level: f64, random: u64) -> Option<usize> {
    let best = lines.first()?.0;
    let w = weakness(level);
    let temperature = (MAX_TEMPERATURE * w).max(1.0);
    let cap = MIN_LOSS_CAP + ((MAX_LOSS_CAP - MIN_LOSS_CAP) as f64 * w) as i32;
    // A winning mate is never thrown away, and a line that walks into a mate is beyond every
    // cap.
    let winning_mate = best.is_mate() && best > Score::DRAW;
    let weights: Vec<f64> = lines
        .iter()
        .map(|(score, pv)| {
            let loss = (best - *score).max(0);
            let allowed = !pv.is_empty() && (loss == 0 || (loss <= cap && !winning_mate));
            if allowed {
                (-(f64::from(loss)) / temperature).exp()
            } else {
                0.0
            }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return Some(0);
    }
    // A uniform number in [0, total) from the top 53 bits.
    let mut r = (random >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (i, w) in weights.iter().enumerate() {
        if r < *w {
            return Some(i);
        }
        r -= w;
    }
    Some(0)
}

/// Replaces the result's move with the one a player of `level` would choose among its lines.
pub fn choose(result: &mut SearchResult, level: f64, random: u64) {
    let Some(i) = pick(&result.lines, level, random) else {
        return;
    };
    let (score, pv) = result.lines[i].clone();
    if let Some(&first) = pv.first() {
        result.best = Some(first);
        result.ponder = pv.get(1).copied();
        result.score = score;
        result.pv = pv;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rating_thinks_for_its_measured_time_unless_a_clock_runs() {
        let untimed = rated_limits(1500, None, 7);
        assert_eq!(untimed.movetime, Some(ELO_MOVETIME_MS));
        assert_eq!(untimed.skill, Some(level_for_elo(1500)));
        assert!(untimed.skill.is_some_and(|l| l < f64::from(MAX_LEVEL)));
        let clock = crate::search::Clock {
            time_ms: 60_000,
            inc_ms: 0,
            moves_to_go: None,
        };
        let timed = rated_limits(1500, Some(clock), 7);
        assert_eq!((timed.movetime, timed.clock), (None, Some(clock)));
        assert_eq!(timed.skill, untimed.skill);
    }

    #[test]
    fn elo_maps_onto_levels_monotonically_and_within_range() {
        assert_eq!(node_budget(0.0), BASE_NODES);
        assert_eq!(node_budget(2.0), 2 * BASE_NODES);
        let mut last = f64::MIN;
        for elo in (ELO_MIN..=ELO_MAX).step_by(50) {
            let level = level_for_elo(elo);
            assert!(level > last && (MIN_LEVEL..f64::from(MAX_LEVEL)).contains(&level));
            last = level;
        }
        // Out-of-range ratings are clamped, never beyond the scale.
        assert_eq!(level_for_elo(0), level_for_elo(ELO_MIN));
        assert_eq!(level_for_elo(9999), level_for_elo(ELO_MAX));
    }
    use crate::chess::Move;
    use crate::chess::{Board, Game};
    use crate::search::Searcher;

    fn lines(scores: &[i32]) -> Vec<(Score, Vec<Move>)> {
        let b = Board::startpos();
        let moves = b.legal_moves();
        scores
            .iter()
            .zip(moves.iter())
            .map(|(&s, &m)| (Score(s), vec![m]))
            .collect()
    }

    /// How often each line is chosen in 4000 draws.
    fn histogram(l: &[(Score, Vec<Move>)], level: f64) -> Vec<u32> {
        let mut counts = vec![0; l.len()];
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..4000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            counts[pick(l, level, x).unwrap()] += 1;
        }
        counts
    }

    #[test]
    fn weaker_levels_choose_worse_moves_more_often_but_never_beyond_the_cap() {
        let l = lines(&[50, 20, -60, -900]);
        let strong = histogram(&l, 19.0);
        let weak = histogram(&l, 0.0);
        // Both prefer the best move; the weak level spreads more.
        assert!(
            strong[0] > strong[1] && weak[0] > weak[1],
            "{strong:?} {weak:?}"
        );
        assert!(
            weak[1] + weak[2] > strong[1] + strong[2],
            "{strong:?} {weak:?}"
        );
        // Losing a queen is beyond every level's cap; a move 1.1 pawns worse is beyond a
        // strong level's.
        assert_eq!(strong[3] + weak[3], 0, "{strong:?} {weak:?}");
        assert_eq!(strong[2], 0, "{strong:?}");
        // A mate is never given away.
        let mate = lines(&[Score::mate_in(3).0, 300, 200]);
        assert_eq!(histogram(&mate, 0.0), vec![4000, 0, 0]);
        assert_eq!(pick(&[], 5.0, 1), None);
    }

    #[test]
    fn a_weakened_search_plays_a_legal_move_from_its_lines() {
        let game = Game::new(
            Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap(),
        );
        let mut s = Searcher::new(4);
        for random in 0..6u64 {
            let limits = Limits {
                skill: Some(3.0),
                random: random.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                multipv: 1,
                ..Limits::default()
            };
            let r = s.search(&game, &limits, &mut |_| {});
            let best = r.best.unwrap();
            assert!(game.board().is_legal(best));
            assert!(r.lines.len() >= LINES);
            assert!(r.lines.iter().any(|(_, pv)| pv.first() == Some(&best)));
            // The node budget of level 3 (about 14,000) holds, give or take the last check.
            assert!(r.nodes < 16_000, "{}", r.nodes);
        }
    }
}
