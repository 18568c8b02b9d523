#!/usr/bin/env python3
"""Fits the win-draw-loss model that UCI_ShowWDL reports, to our own self-play games.

    python3 scripts/fit_wdl.py DATA.txt [DATA.txt ...]

DATA is datagen's text form (`FEN | score | result`, score and result from White's view), e.g.
`fianchetto datagen --convert data/n2-s1.bin --out n2.txt`. No dependencies beyond Python.

The model is Stockfish's shape: with material m (pawns 1, minors 3, rooks 5, queens 9, both
sides, clamped to 17..78),

    P(win)  = 1 / (1 + exp((a(m) - v) / b(m)))
    P(loss) = 1 / (1 + exp((a(m) + v) / b(m)))
    P(draw) = 1 - P(win) - P(loss)

for a score v in centipawns from the side to move's view. Unlike Stockfish, a and b are not
cubics in m but a table by material count (17..78): a cubic could not follow both the bare
endgames, where a = 900 (a big score there is often still a draw), and the rest, where a falls
from 400 to 150. a and b are fitted by maximum likelihood for each material count, then
smoothed over neighbouring counts. Prints the table as `src/search/wdl.rs` holds it.
"""
import math
import sys
from collections import defaultdict

VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9}
BIN = 10  # centipawns per score bin
MAX_SCORE = 1000  # beyond this the game is decided; such positions say little about a and b


def material(fen):
    return sum(VALUES.get(c.lower(), 0) for c in fen.split()[0])


def load(paths):
    # counts[m][score bin] = [losses, draws, wins] from White's view
    counts = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    n = 0
    for path in paths:
        with open(path) as f:
            for line in f:
                parts = line.split("|")
                if len(parts) != 3:
                    continue
                score, result = int(parts[1]), float(parts[2])
                if abs(score) > MAX_SCORE:
                    continue
                m = min(78, max(17, material(parts[0])))
                outcome = 2 if result > 0.75 else 0 if result < 0.25 else 1
                counts[m][round(score / BIN)][outcome] += 1
                n += 1
    return counts, n


def sigmoid(z):
    if z < -50:
        return 0.0
    if z > 50:
        return 1.0
    return 1.0 / (1.0 + math.exp(-z))


def fit_one(bins):
    """a and b maximising the likelihood of one material count's results (Rprop ascent: the
    step grows while the gradient keeps its sign and halves when it flips)."""
    a, b = 100.0, 100.0
    step, prev = [10.0, 10.0], [0.0, 0.0]
    total = sum(sum(c) for c in bins.values())
    for _ in range(300):
        ga = gb = 0.0
        for k, (nl, nd, nw) in bins.items():
            v = k * BIN
            sw = sigmoid((v - a) / b)
            sl = sigmoid((-v - a) / b)
            pw, pl = max(sw, 1e-12), max(sl, 1e-12)
            pd = max(1.0 - sw - sl, 1e-12)
            dw_da, dw_db = sw * (1 - sw) * (-1 / b), sw * (1 - sw) * (-(v - a) / b ** 2)
            dl_da, dl_db = sl * (1 - sl) * (-1 / b), sl * (1 - sl) * ((v + a) / b ** 2)
            ga += nw * dw_da / pw + nl * dl_da / pl - nd * (dw_da + dl_da) / pd
            gb += nw * dw_db / pw + nl * dl_db / pl - nd * (dw_db + dl_db) / pd
        for i, g in enumerate((ga, gb)):
            step[i] = step[i] * (1.2 if g * prev[i] > 0 else 0.5 if g * prev[i] < 0 else 1.0)
            step[i] = min(max(step[i], 1e-3), 50.0)
            prev[i] = g
        a += math.copysign(step[0], ga) if ga else 0.0
        b = max(10.0, b + (math.copysign(step[1], gb) if gb else 0.0))
    return a, b, total


def main():
    counts, n = load(sys.argv[1:])
    print(f"{n} positions with |score| <= {MAX_SCORE}", file=sys.stderr)
    fits = {}
    for m in sorted(counts):
        a, b, total = fit_one(counts[m])
        print(f"material {m:2}: a {a:7.1f} b {b:6.1f}  ({total} positions)", file=sys.stderr)
        fits[m] = (a, b, total)
    # Smoothed: each entry is the position-weighted mean of the fits within 3 material units,
    # weights capped at 10,000 (the clamped bucket 17 holds every bare endgame, a third of
    # the data, and must not swamp its neighbours).
    table = []
    for m in range(17, 79):
        near = [fits[k] for k in range(m - 3, m + 4) if k in fits]
        w = [min(t, 10_000) for _, _, t in near]
        if not near:
            sys.exit(f"no positions near material {m}")
        a = sum(x[0] * wi for x, wi in zip(near, w)) / sum(w)
        b = sum(x[1] * wi for x, wi in zip(near, w)) / sum(w)
        table.append((a, b))
    print("pub const TABLE: [(f64, f64); 62] = [")
    for i in range(0, 62, 4):
        print("    " + " ".join(f"({a:.1f}, {b:.1f})," for a, b in table[i:i + 4]))
    print("];")


if __name__ == "__main__":
    main()
