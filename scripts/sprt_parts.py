#!/usr/bin/env python3
"""One SPRT over the games of several PGN files: a test stopped at a session's end, continued.

    python3 scripts/sprt_parts.py --engine n10b --opponent n9km --sprt 0,10 \\
        data/n10/sprt-b.pgn data/n10/sprt-b2.pgn

A match on this two-core machine at 5+0.05 plays about 340 games an hour, so an SPRT between
close engines often outlasts a session. Stopping for the clock does not bias a sequential test
(the stop does not look at the score), and a second run with the same engines, options and time
control but a new opening seed continues it; this sums the parts from their PGNs (White, Black
and Result of every game between the two named engines) and prints W/D/L, the score, the Elo
difference with its 95 % interval, and the generalized log-likelihood ratio of the trinomial
model with its bounds, in the units `match.py` prints, so that the verdict reads the same.
"""

import argparse
import math
import re
import sys

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


def games(path):
    """Yields (white, black, result) for each game of a PGN file, from its tag pairs."""
    tags = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                tags[m.group(1)] = m.group(2)
            elif line.strip() and tags:
                if {"White", "Black", "Result"} <= tags.keys():
                    yield tags["White"], tags["Black"], tags["Result"]
                tags = {}
    if {"White", "Black", "Result"} <= tags.keys():
        yield tags["White"], tags["Black"], tags["Result"]


def count(path, engine, opponent):
    """Wins, draws and losses of `engine` against `opponent` in one PGN file."""
    w = d = l = 0
    for white, black, result in games(path):
        if {white, black} != {engine, opponent} or result not in ("1-0", "0-1", "1/2-1/2"):
            continue
        if result == "1/2-1/2":
            d += 1
        elif (result == "1-0") == (white == engine):
            w += 1
        else:
            l += 1
    return w, d, l


def elo(score):
    """The Elo difference that expects `score`."""
    return -400.0 * math.log10(1.0 / score - 1.0) if 0.0 < score < 1.0 else math.copysign(math.inf, score - 0.5)


def expected(elo_diff):
    """The score an Elo difference expects."""
    return 1.0 / (1.0 + 10.0 ** (-elo_diff / 400.0))


def interval(w, d, l):
    """Elo and the half width of its 95 % interval (normal approximation of the mean score)."""
    n = w + d + l
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    half = 1.959964 * math.sqrt(var / n)
    return elo(s), (elo(s + half) - elo(s - half)) / 2.0


def llr(w, d, l, elo0, elo1):
    """Log-likelihood ratio of elo1 against elo0, each hypothesis fitted by maximum likelihood.

    Under a hypothesised mean score m, the likeliest loss/draw/win distribution near the observed
    frequencies f is f_i / (1 + t (x_i - m)) for the outcome values x = 0, 1/2, 1, where t makes
    its mean m; t is found by bisection. An empty outcome counts as a thousandth of a game, as
    match.py counts it, so that the two agree to the printed digits.
    """
    counts = [c if c > 0 else 1e-3 for c in (l, d, w)]
    n = sum(counts)
    f = [c / n for c in counts]
    xs = (0.0, 0.5, 1.0)

    def fitted(m):
        lo, hi = -1.0 / (1.0 - m), 1.0 / m
        for _ in range(200):
            t = (lo + hi) / 2.0
            g = sum(fi * (x - m) / (1.0 + t * (x - m)) for fi, x in zip(f, xs))
            if g > 0:
                lo = t
            else:
                hi = t
        t = (lo + hi) / 2.0
        return [fi / (1.0 + t * (x - m)) for fi, x in zip(f, xs)]

    p0, p1 = fitted(expected(elo0)), fitted(expected(elo1))
    return n * sum(fi * (math.log(b) - math.log(a)) for fi, a, b in zip(f, p0, p1))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+", help="the PGN files of the test's parts")
    ap.add_argument("--engine", required=True, help="the engine under test (its PGN name)")
    ap.add_argument("--opponent", required=True, help="the engine it is tested against")
    ap.add_argument("--sprt", default="0,10", help="ELO0,ELO1 (default 0,10)")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    args = ap.parse_args(argv)
    try:
        elo0, elo1 = (float(x) for x in args.sprt.split(","))
    except ValueError:
        ap.error(f"--sprt {args.sprt!r}: expected two numbers, ELO0,ELO1")
    total = [0, 0, 0]
    for path in args.pgn:
        try:
            part = count(path, args.engine, args.opponent)
        except OSError as e:
            print(f"{path}: {e.strerror}", file=sys.stderr)
            return 1
        print(f"{path}: +{part[0]} ={part[1]} -{part[2]}")
        total = [a + b for a, b in zip(total, part)]
    w, d, l = total
    n = w + d + l
    if n == 0:
        print(f"no finished game between {args.engine} and {args.opponent}", file=sys.stderr)
        return 1
    e, half = interval(w, d, l)
    lower, upper = math.log(args.beta / (1 - args.alpha)), math.log((1 - args.beta) / args.alpha)
    ratio = llr(w, d, l, elo0, elo1)
    verdict = ("H1 accepted" if ratio >= upper else "H0 accepted" if ratio <= lower else "inconclusive")
    print(f"{args.engine} vs {args.opponent}: +{w} ={d} -{l} in {n} games, "
          f"score {100.0 * (w + 0.5 * d) / n:.1f}%, Elo {e:+.1f} +/- {half:.1f}, "
          f"LLR {ratio:.2f} [{lower:.2f}, {upper:.2f}] {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
