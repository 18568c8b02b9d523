#!/usr/bin/env python3
"""Runs any UCI engine on an EPD test suite the way `fianchetto epd` runs ours, so that a
suite's score can be put next to a reference engine's on the same machine.

    python3 scripts/epd_uci.py ENGINE SUITE.epd [MOVETIME_MS] [--threads N] [--hash MIB]

One line per position (ok/MISS, the move played, the expected moves), then `solved N/M`.
A position counts as solved when the move played is among its `bm` moves, or, with only `am`
given, is none of them. The hash is cleared before every position. Needs python-chess.
"""
import argparse

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("suite")
    ap.add_argument("movetime_ms", nargs="?", type=int, default=1000)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16)
    args = ap.parse_args()

    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    options = {"Threads": args.threads, "Hash": args.hash}
    engine.configure({k: v for k, v in options.items() if k in engine.options})
    solved = total = 0
    try:
        with open(args.suite) as suite:
            for line in suite:
                if not line.strip():
                    continue
                board, ops = chess.Board.from_epd(line)
                best, avoid = ops.get("bm", []), ops.get("am", [])
                if "Clear Hash" in engine.options:
                    engine.configure({"Clear Hash": None})
                limit = chess.engine.Limit(time=args.movetime_ms / 1000)
                played = engine.play(board, limit, game=object()).move
                ok = played in best if best else played not in avoid
                solved += ok
                total += 1
                expected = " ".join(board.san(m) for m in best) or "not " + " ".join(
                    board.san(m) for m in avoid
                )
                print(f"{'ok  ' if ok else 'MISS'} {ops.get('id', '?'):<16} "
                      f"played {board.san(played):<8} bm {expected}", flush=True)
    finally:
        engine.quit()
    print(f"solved {solved}/{total}")


if __name__ == "__main__":
    main()
