#!/usr/bin/env python3
"""How far `fianchetto analyze` agrees with Stockfish on the judgement of moves.

    python3 scripts/agreement.py GAMES.pgn [--budget depth=12 --budget nodes=1000000 ...]
        [--threads 1 --threads 2] [--stockfish /usr/games/stockfish] [--oracle-depth 20]
        [--reference] [--cache FILE] [--json FILE]

Stockfish (run as a separate program: an oracle, not a dependency) evaluates every position of
every game at `--oracle-depth` (20), once; its answers are cached in `--cache` so that the next
run only times our engine. For each of our budgets, `fianchetto analyze --json` analyses the whole
file and is timed. Both series of evaluations go through the same formulas (lichess's): win% from
centipawns capped at ±1000, a mate counting as ±1000; a move that drops its mover's win% by 5, 10
or 15 points is an inaccuracy, a mistake or a blunder. Printed per budget:

- precision: of our mistakes and blunders, the share the oracle flags at least as an inaccuracy;
- recall: of the oracle's mistakes and blunders, the share we flag at all;
- the mean absolute difference of White's win% over all positions;
- moves per second (wall clock, the whole file).

`--reference` adds Stockfish itself at each budget (a fresh engine per game, positions from the
last to the first with its hash kept, as `analyze` does): what the budget allows a far stronger
engine, next to what it allows ours.

Needs python-chess (`pip install chess`).
"""

import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import time

import chess
import chess.engine
import chess.pgn

CEILING = 1000


def win_percent(cp):
    """lichess's win% (0-100, White's view) of a centipawn score, capped at ±1000."""
    cp = max(-CEILING, min(CEILING, cp))
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def score_cp(score):
    """A python-chess PovScore as White-view centipawns, a mate as ±1000."""
    w = score.white()
    if w.is_mate():
        return CEILING if w.mate() > 0 else -CEILING
    return max(-CEILING, min(CEILING, w.score()))


def eval_text_cp(text):
    """`analyze --json`'s evaluation text (`0.17`, `#3`, `#-2`, `#-0`) as centipawns."""
    if text.startswith("#"):
        return -CEILING if text.startswith("#-") else CEILING
    return max(-CEILING, min(CEILING, round(float(text) * 100)))


def judgements(cps, first_mover_white):
    """Per move: 0 none, 1 inaccuracy, 2 mistake, 3 blunder, from the mover's win% drop."""
    out = []
    white = first_mover_white
    for before, after in zip(cps, cps[1:]):
        drop = win_percent(before) - win_percent(after)
        if not white:
            drop = -drop
        out.append(3 if drop >= 15 else 2 if drop >= 10 else 1 if drop >= 5 else 0)
        white = not white
    return out


def read_games(path):
    """Each readable game: its start board and main-line moves (games with no moves are skipped)."""
    games = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                break
            if g.errors:
                print(f"skipping a game with errors: {g.errors[0]}", file=sys.stderr)
                continue
            moves = list(g.mainline_moves())
            if moves:
                games.append((g.board(), moves, g.headers.get("Event", "?")))
    return games


def position_key(start, moves):
    text = start.fen() + " " + " ".join(m.uci() for m in moves)
    return hashlib.sha1(text.encode()).hexdigest()


def stockfish_series(sf, start, moves, limit, cache=None):
    """Stockfish's White-view cp for every position of one game, last to first. The hash is kept
    within a game and cleared between games (`game=start` makes python-chess send ucinewgame)."""
    cps = [None] * (len(moves) + 1)
    for ply in range(len(moves), -1, -1):
        key = position_key(start, moves[:ply])
        if cache is not None and key in cache:
            cps[ply] = cache[key]
            continue
        board = start.copy()
        for m in moves[:ply]:
            board.push(m)
        outcome = board.outcome(claim_draw=False)
        if outcome is not None:
            cp = 0 if outcome.winner is None else (CEILING if outcome.winner else -CEILING)
        else:
            info = sf.analyse(board, limit, game=start)
            cp = score_cp(info["score"])
        cps[ply] = cp
        if cache is not None:
            cache[key] = cp
    return cps


def by_group(games, series, oracle):
    """`compare` for each group of games (their Event tag)."""
    out = {}
    for event in dict.fromkeys(g[2] for g in games):
        pick = [i for i, g in enumerate(games) if g[2] == event]
        out[event] = compare([games[i] for i in pick], [series[i] for i in pick],
                             [oracle[i] for i in pick])
    return out


def limit_of(budget):
    kind, value = budget.split("=")
    if kind == "depth":
        return chess.engine.Limit(depth=int(value))
    if kind == "nodes":
        return chess.engine.Limit(nodes=int(value))
    if kind == "movetime":
        return chess.engine.Limit(time=int(value) / 1000)
    raise SystemExit(f"--budget {budget}: depth=D, nodes=N or movetime=MS")


def ours(engine, pgn, budget, threads, hash_mib, save=None):
    """Our White-view cp series per game, and the wall time. With `save`, a finished run is kept
    there (as `budget-threads.json`) and read back next time instead of run again."""
    kept = os.path.join(save, f"{budget.replace('=', '-')}-t{threads}.json") if save else None
    if kept and os.path.exists(kept):
        with open(kept) as f:
            doc = json.load(f)
        return doc["series"], doc["seconds"]
    kind, value = budget.split("=")
    cmd = [engine, "analyze", "--json", f"--{kind}", value, "--threads", str(threads)]
    if hash_mib:
        cmd += ["--hash", str(hash_mib)]
    t0 = time.monotonic()
    done = subprocess.run(cmd + [pgn], capture_output=True, text=True, check=False)
    wall = time.monotonic() - t0
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.strip()}")
    report = json.loads(done.stdout)
    series = [[eval_text_cp(e) for e in g["evals"]] for g in report["games"]]
    if kept:
        os.makedirs(save, exist_ok=True)
        with open(kept, "w") as f:
            json.dump({"series": series, "seconds": wall}, f)
    return series, wall


def compare(games, series, oracle):
    ours_mb = ours_mb_hit = oracle_mb = oracle_mb_hit = 0
    diffs = []
    for (start, *_), mine, ref in zip(games, series, oracle):
        white_first = start.turn == chess.WHITE
        a, b = judgements(mine, white_first), judgements(ref, white_first)
        for x, y in zip(a, b):
            if x >= 2:
                ours_mb += 1
                ours_mb_hit += y >= 1
            if y >= 2:
                oracle_mb += 1
                oracle_mb_hit += x >= 1
        diffs += [abs(win_percent(p) - win_percent(q)) for p, q in zip(mine, ref)]
    return {
        "precision": ours_mb_hit / ours_mb if ours_mb else float("nan"),
        "recall": oracle_mb_hit / oracle_mb if oracle_mb else float("nan"),
        "ours_mb": ours_mb,
        "oracle_mb": oracle_mb,
        "mean_win_diff": sum(diffs) / len(diffs),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--engine", default="target/release/fianchetto")
    ap.add_argument("--budget", action="append",
                    help="depth=D, nodes=N or movetime=MS, optionally :THREADS")
    ap.add_argument("--threads", action="append", type=int, help="analyze --threads (repeatable)")
    ap.add_argument("--hash", type=int, default=0, help="analyze --hash, MiB (default: its own)")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--oracle-depth", type=int, default=20)
    ap.add_argument("--reference", action="store_true", help="also time Stockfish at each budget")
    ap.add_argument("--reference-budget", action="append",
                    help="Stockfish's budgets when they should differ from ours (implies --reference)")
    ap.add_argument("--cache", help="JSON file for the oracle's evaluations")
    ap.add_argument("--json", help="write the rows here as JSON")
    ap.add_argument("--save", help="folder keeping each of our runs, reused when present")
    ap.add_argument("--ours-only", action="store_true",
                    help="only run our budgets (into --save), no oracle and no table")
    args = ap.parse_args()
    budgets = args.budget or ["depth=12"]
    threads = args.threads or [1]

    games = read_games(args.pgn)
    if args.ours_only:
        for spec in budgets:
            budget, _, pinned = spec.partition(":")
            for t in [int(pinned)] if pinned else threads:
                _, wall = ours(args.engine, args.pgn, budget, t, args.hash, args.save)
                print(f"  Fianchetto {budget} threads {t}: {wall:.0f} s", file=sys.stderr)
        return
    moves = sum(len(g[1]) for g in games)
    print(f"{len(games)} games, {moves} moves, oracle: Stockfish depth {args.oracle_depth}",
          file=sys.stderr)
    cache = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as f:
            cache = json.load(f)
    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    sf.configure({"Threads": 1, "Hash": 64})
    oracle = []
    t0 = time.monotonic()
    for i, (start, mv, _) in enumerate(games):
        oracle.append(stockfish_series(sf, start, mv, chess.engine.Limit(depth=args.oracle_depth), cache))
        if args.cache:
            with open(args.cache, "w") as f:
                json.dump(cache, f)
        print(f"  oracle: game {i + 1}/{len(games)} ({time.monotonic() - t0:.0f} s)", file=sys.stderr)

    rows = []
    for spec in budgets:
        # `depth=12:2` pins the thread count of one budget; without it, every --threads.
        budget, _, pinned = spec.partition(":")
        for t in [int(pinned)] if pinned else threads:
            series, wall = ours(args.engine, args.pgn, budget, t, args.hash, args.save)
            row = {"engine": "Fianchetto", "budget": budget, "threads": t, "seconds": wall,
                   "moves_per_s": moves / wall, **compare(games, series, oracle),
                   "groups": by_group(games, series, oracle)}
            rows.append(row)
            print(f"  {row['engine']} {budget} threads {t}: {wall:.0f} s", file=sys.stderr)
    for budget in (args.reference_budget or (budgets if args.reference else [])):
        t0 = time.monotonic()
        series = [stockfish_series(sf, s, m, limit_of(budget)) for s, m, _ in games]
        wall = time.monotonic() - t0
        rows.append({"engine": "Stockfish 15.1", "budget": budget, "threads": 1,
                     "seconds": wall, "moves_per_s": moves / wall,
                     **compare(games, series, oracle),
                     "groups": by_group(games, series, oracle)})
        print(f"  Stockfish {budget}: {wall:.0f} s", file=sys.stderr)
    sf.quit()

    print(f"| engine | budget | threads | precision | recall | mean win% diff | moves/s |")
    print(f"| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['engine']} | {r['budget']} | {r['threads']} | {r['precision']:.2f} "
              f"({r['ours_mb']}) | {r['recall']:.2f} ({r['oracle_mb']}) | "
              f"{r['mean_win_diff']:.1f} | {r['moves_per_s']:.1f} |")
    print()
    print("| engine | budget | games | precision | recall | mean win% diff |")
    print("| --- | --- | --- | --- | --- | --- |")
    for r in rows:
        for event, g in r["groups"].items():
            print(f"| {r['engine']} | {r['budget']} | {event} | {g['precision']:.2f} "
                  f"({g['ours_mb']}) | {g['recall']:.2f} ({g['oracle_mb']}) | "
                  f"{g['mean_win_diff']:.1f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
