#!/usr/bin/env python3
"""Our Syzygy reader against python-chess's (chess.syzygy), a prober none of us wrote.

    python3 tests/python/syzygy_compare.py target/release/fianchetto TABLE_DIR [POSITIONS]

TABLE_DIR holds the 3-4-piece tables that ship in python-chess's source distribution
(.ci/run fetches them into a cache). Draws random legal 3-4-piece positions (seeded): random
placements of every table's material with either side to move, plus positions one random move
after them, which include en passant rights and captures into smaller tables. Compares WDL and
DTZ of every position; exits non-zero on any difference.
"""
import os
import random
import tempfile
import subprocess
import sys

import chess
import chess.syzygy
from tb_positions import place_pieces

BIN, DIR = sys.argv[1], sys.argv[2]
POSITIONS = int(sys.argv[3]) if len(sys.argv) > 3 else 4000

rng = random.Random(1931)
names = sorted({f[:-5] for f in os.listdir(DIR) if f.endswith(".rtbw")})
assert names, f"no tables in {DIR}"


def random_position(name):
    """A legal position of the table's material (either colour arrangement), or None."""
    white, black = name.split("v")
    if rng.random() < 0.5:
        white, black = black, white
    board = place_pieces(rng, white, black)
    board.turn = rng.random() < 0.5
    return board if board.is_valid() else None


def en_passant_position():
    """KPvKP just after a double push beside the other pawn: en passant is possible."""
    board = chess.Board(None)
    mover = rng.random() < 0.5  # the side that pushes
    file = rng.randrange(8)
    beside = file + rng.choice([-1, 1])
    if not 0 <= beside < 8:
        return None
    start = chess.square(file, 6 if mover == chess.BLACK else 1)
    board.set_piece_at(start, chess.Piece(chess.PAWN, mover))
    board.set_piece_at(chess.square(beside, 4 if mover == chess.BLACK else 3),
                       chess.Piece(chess.PAWN, not mover))
    for color in (chess.WHITE, chess.BLACK):
        free = [s for s in chess.SQUARES if board.piece_at(s) is None]
        board.set_piece_at(rng.choice(free), chess.Piece(chess.KING, color))
    board.turn = mover
    push = chess.Move(start, start + (16 if mover == chess.WHITE else -16))
    if not board.is_valid() or push not in board.legal_moves:
        return None
    board.push(push)
    return board if board.is_valid() and board.has_legal_en_passant() else None


positions = []
while len(positions) < POSITIONS // 10:
    board = en_passant_position()
    if board is not None:
        positions.append(board)
while len(positions) < POSITIONS:
    board = random_position(rng.choice(names))
    if board is None:
        continue
    positions.append(board)
    # One move on: double pawn pushes give en passant rights, captures smaller tables.
    moves = list(board.legal_moves)
    doubles = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN
               and abs(m.to_square - m.from_square) == 16]
    if moves and rng.random() < 0.3:
        child = board.copy(stack=False)
        child.push(rng.choice(doubles or moves))
        if child.is_valid() and not child.is_game_over():
            positions.append(child)

fens = [b.fen() for b in positions]
out = subprocess.run([BIN, "syzygy", "--path", DIR], input="\n".join(fens) + "\n",
                     capture_output=True, text=True, check=True)
if out.stderr.strip():
    print("stderr:", out.stderr.strip())
lines = out.stdout.strip().splitlines()
assert len(lines) == len(fens), f"{len(lines)} answers for {len(fens)} positions"

differ = ep_count = 0
with chess.syzygy.open_tablebase(DIR) as tb:
    for board, line in zip(positions, lines):
        fen, wdl, dtz = (x.strip() for x in line.split("|"))
        assert fen == board.fen(), (fen, board.fen())
        want_wdl, want_dtz = tb.probe_wdl(board), tb.probe_dtz(board)
        ep_count += board.ep_square is not None and board.has_legal_en_passant()
        if wdl != str(want_wdl) or dtz != str(want_dtz):
            differ += 1
            if differ <= 20:
                print(f"FAIL {fen}: ours wdl {wdl} dtz {dtz}, python-chess wdl {want_wdl} dtz {want_dtz}")
print(f"{len(fens)} positions compared ({ep_count} with en passant), {differ} differences")

# Broken tables: truncated files and random bytes overwritten. The prober must answer every
# line (a value or `-`), report the broken tables, and never crash.
with tempfile.TemporaryDirectory() as broken:
    for i, name in enumerate(sorted(os.listdir(DIR))):
        data = bytearray(open(os.path.join(DIR, name), "rb").read())
        if i % 5 == 0:
            data = data[: rng.randrange(len(data))]
        else:
            for _ in range(rng.randrange(1, 40)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        open(os.path.join(broken, name), "wb").write(bytes(data))
    sample = fens[:3000]
    out = subprocess.run([BIN, "syzygy", "--path", broken], input="\n".join(sample) + "\n",
                         capture_output=True, text=True, timeout=600)
    answered = [l for l in out.stdout.splitlines() if l.count("|") == 2]
    reported = len(out.stderr.strip().splitlines())
    print(f"broken tables: exit {out.returncode}, {len(answered)} of {len(sample)} answered, "
          f"{reported} problems reported")
    if out.returncode != 0 or len(answered) != len(sample) or reported == 0:
        print(out.stderr[-2000:])
        differ += 1
sys.exit(1 if differ else 0)
