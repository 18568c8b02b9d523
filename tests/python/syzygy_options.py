#!/usr/bin/env python3
"""The Syzygy options do what README says, checked against python-chess's probe of the tables.

    python3 tests/python/syzygy_options.py target/release/fianchetto TABLE_DIR

- `tbhits`: a search of a position in the tables reports table reads; with
  `SyzygyProbeLimit 0` (no position is probed) it reports none, and `SyzygyProbeLimit 3` probes
  a three-piece position but not a four-piece one.
- `Syzygy50MoveRule`: in a KRvK position that the tables win in more moves than the 50-move
  counter leaves (distance to zeroing + counter > 100: a win the rule turns into a draw), the
  engine scores a draw with the rule on and a win with it off.
Exits non-zero on a failure.
"""
import random
import sys

import chess
import chess.engine
import chess.syzygy
from tb_positions import place_pieces

BIN, DIR = sys.argv[1], sys.argv[2]
rng = random.Random(7)
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def analyse(engine, board, options, depth=6):
    engine.configure(options)
    return engine.analyse(board, chess.engine.Limit(depth=depth), options={"Clear Hash": None})


def position(tb, white, black, want_wdl, dtz_at_least=0):
    """A legal position, White to move, of `white` v `black` with that WDL and |DTZ|."""
    for _ in range(200_000):
        board = place_pieces(rng, white, black)
        if not board.is_valid() or board.is_game_over():
            continue
        if tb.probe_wdl(board) == want_wdl and abs(tb.probe_dtz(board)) >= dtz_at_least:
            return board
    raise SystemExit(f"no {white}v{black} position found")


with chess.syzygy.open_tablebase(DIR) as tb, chess.engine.SimpleEngine.popen_uci(BIN) as engine:
    three = position(tb, "KR", "K", 2)
    four = position(tb, "KQ", "KR", 2)
    base = {"SyzygyPath": DIR, "SyzygyProbeDepth": 1, "Syzygy50MoveRule": True}

    info = analyse(engine, three, {**base, "SyzygyProbeLimit": 7})
    check(info.get("tbhits", 0) > 0, f"tbhits reported with the tables ({info.get('tbhits')}) in {three.fen()}")
    info = analyse(engine, three, {**base, "SyzygyProbeLimit": 0})
    check(info.get("tbhits", 0) == 0, f"no tbhits with SyzygyProbeLimit 0 ({info.get('tbhits')})")
    info = analyse(engine, three, {**base, "SyzygyProbeLimit": 3})
    check(info.get("tbhits", 0) > 0, f"a 3-piece position probed under SyzygyProbeLimit 3 ({info.get('tbhits')})")
    info = analyse(engine, four, {**base, "SyzygyProbeLimit": 3}, depth=2)
    check(info.get("tbhits", 0) == 0, f"a 4-piece position not probed under SyzygyProbeLimit 3 ({info.get('tbhits')}) in {four.fen()}")

    # A won KRvK position far enough from zeroing that the counter, set high, makes it a draw by
    # the 50-move rule: python-chess's DTZ (plies to a capture or pawn move, here to mate) plus
    # the counter exceeds 100.
    won = position(tb, "KR", "K", 2, dtz_at_least=20)
    dtz = abs(tb.probe_dtz(won))
    won.halfmove_clock = 100 - dtz // 2
    check(dtz + won.halfmove_clock > 100, f"DTZ {dtz} + counter {won.halfmove_clock} > 100 in {won.fen()}")
    on = analyse(engine, won, {**base, "SyzygyProbeLimit": 7, "Syzygy50MoveRule": True})["score"].white()
    off = analyse(engine, won, {**base, "SyzygyProbeLimit": 7, "Syzygy50MoveRule": False})["score"].white()
    check(on.score() is not None and abs(on.score()) < 100, f"rule on: a draw ({on})")
    check(off.is_mate() or (off.score() or 0) > 1000, f"rule off: a win ({off})")

if failures:
    print(f"{len(failures)} Syzygy option checks failed")
    sys.exit(1)
print("Syzygy options agree with the tables")
