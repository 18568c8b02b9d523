//! Win, draw and loss chances from a score: the model behind `UCI_ShowWDL` and the terminal
//! game's win chances.
//!
//! `P(win) = 1 / (1 + exp((a − v) / b))` and `P(loss) = 1 / (1 + exp((a + v) / b))` for a score
//! `v` (centipawns, side to move), with `a` (the score that wins half the games) and `b` (how
//! fast the chances change) depending on the material left (pawn 1, minor 3, rook 5, queen 9,
//! both sides, clamped to 17..=78). The table was fitted to 583,058 positions (|score| ≤ 1000)
//! of 7,177 self-play games of the n2 net at 5,000 nodes a move (`data/n2-s1.bin`, see
//! `nets/README.md`) by `scripts/fit_wdl.py`:
//!
//! ```text
//! fianchetto datagen --convert data/n2-s1.bin --out n2.txt
//! python3 scripts/fit_wdl.py n2.txt
//! ```
//!
//! Refit it when the evaluation changes scale (a new net).

use super::score::Score;
use crate::chess::{Board, PieceKind};

/// `(a, b)` by material, from 17 (index 0: every lighter endgame too) to 78.
pub(crate) const TABLE: [(f64, f64); 62] = [
    (536.2, 189.8),
    (498.7, 177.0),
    (472.6, 167.4),
    (450.5, 162.7),
    (363.5, 137.7),
    (346.9, 134.5),
    (329.1, 132.1),
    (310.6, 129.2),
    (304.2, 129.9),
    (293.2, 131.6),
    (292.4, 133.1),
    (285.7, 134.3),
    (281.5, 133.0),
    (277.5, 131.9),
    (270.5, 131.2),
    (259.0, 132.4),
    (256.9, 134.3),
    (245.4, 132.3),
    (238.0, 128.0),
    (236.5, 130.6),
    (233.9, 131.4),
    (234.1, 134.8),
    (232.9, 133.2),
    (225.1, 131.4),
    (218.1, 131.8),
    (217.3, 133.6),
    (218.6, 134.1),
    (216.1, 131.9),
    (213.9, 130.2),
    (208.9, 128.6),
    (210.5, 131.3),
    (210.2, 130.4),
    (213.0, 135.1),
    (207.7, 136.3),
    (202.6, 137.5),
    (197.7, 137.9),
    (198.1, 142.5),
    (191.6, 142.1),
    (186.6, 142.5),
    (178.7, 142.4),
    (173.5, 139.9),
    (172.4, 140.4),
    (173.7, 144.4),
    (169.3, 144.6),
    (168.0, 142.6),
    (168.2, 145.6),
    (164.7, 141.8),
    (165.3, 143.0),
    (162.7, 143.2),
    (158.9, 141.4),
    (158.6, 143.5),
    (158.5, 147.7),
    (157.5, 149.2),
    (157.7, 151.3),
    (154.8, 149.8),
    (156.6, 152.6),
    (154.0, 150.7),
    (150.7, 148.5),
    (148.5, 146.8),
    (146.7, 143.6),
    (146.2, 143.3),
    (147.2, 145.7),
];

/// Chances in per mille that sum to 1000, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Win.
    pub win: u32,
    /// Draw.
    pub draw: u32,
    /// Loss.
    pub loss: u32,
}

/// The material count the model is indexed by: 1 per pawn, 3 per minor, 5 per rook, 9 per
/// queen, both sides.
pub fn material(board: &Board) -> i32 {
    [
        (PieceKind::Pawn, 1),
        (PieceKind::Knight, 3),
        (PieceKind::Bishop, 3),
        (PieceKind::Rook, 5),
        (PieceKind::Queen, 9),
    ]
    .iter()
    .map(|&(kind, value)| value * board.pieces(kind).count() as i32)
    .sum()
}

/// The chances of `score` (side to move's view) with `material` on the board. A mate score is
/// a certain win or loss.
pub fn wdl(score: Score, material: i32) -> Wdl {
    if let Some(n) = score.mate_moves() {
        return if n > 0 {
            Wdl {
                win: 1000,
                draw: 0,
                loss: 0,
            }
        } else {
            Wdl {
                win: 0,
                draw: 0,
                loss: 1000,
            }
        };
    }
    let (a, b) = TABLE[(material.clamp(17, 78) - 17) as usize];
    let v = f64::from(score.0);
    let chance = |x: f64| 1.0 / (1.0 + ((a - x) / b).exp());
    let win = (1000.0 * chance(v)).round() as u32;
    let loss = (1000.0 * chance(-v)).round() as u32;
    // Each is below 500 where the other is above it (a > 0), so the sum stays within 1000.
    debug_assert!(win + loss <= 1000);
    let loss = loss.min(1000 - win);
    Wdl {
        win,
        draw: 1000 - win - loss,
        loss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_sum_to_1000_rise_with_the_score_and_mirror() {
        for m in [0, 17, 30, 58, 78, 100] {
            let mut last_win = 0;
            for cp in (-3000..=3000).step_by(25) {
                let w = wdl(Score(cp), m);
                assert_eq!(w.win + w.draw + w.loss, 1000, "{cp} {m}");
                assert!(w.win >= last_win, "{cp} {m}");
                last_win = w.win;
                let mirror = wdl(Score(-cp), m);
                assert_eq!((w.win, w.loss), (mirror.loss, mirror.win), "{cp} {m}");
            }
        }
        // Level is mostly drawn; a rook up wins most games in a middlegame.
        let even = wdl(Score(0), 58);
        assert!(even.draw > even.win && even.win == even.loss, "{even:?}");
        assert!(wdl(Score(500), 58).win > 900);
        // The same score is worth less in a bare endgame.
        assert!(wdl(Score(300), 17).win < wdl(Score(300), 58).win);
        assert_eq!(wdl(Score::mate_in(3), 40).win, 1000);
        assert_eq!(wdl(Score::mated_in(2), 40).loss, 1000);
        assert_eq!(material(&Board::startpos()), 78);
    }
}
