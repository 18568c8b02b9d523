"""`fianchetto analyze --syzygy`: positions in the tables are judged by them.

    python3 tests/python/analyze_syzygy.py BIN TABLE_DIR

A few endgames are played out (each with a move that throws away a tablebase win, and the capture
that follows), analysed with `--syzygy`, and every position's evaluation is compared with
python-chess's own probe of the same tables (an independent reader): a win reads +10.00 or a
mate for the winner, a draw 0.00, a loss the opposite; the move that gave the win away is a
blunder.
"""
import json
import subprocess
import sys
import tempfile

import chess
import chess.pgn
import chess.syzygy

BIN, TB = sys.argv[1], sys.argv[2]
tables = chess.syzygy.open_tablebase(TB)

# Start positions with White winning: White at once lets Black take the piece (a draw), Black
# takes, and two quiet king moves follow in the drawn ending.
STARTS = [
    "8/8/8/4k3/8/8/3Q4/4K3 w - - 0 1",
    "8/8/3k4/8/8/8/8/2R1K3 w - - 0 1",
    "8/8/8/8/2k5/8/8/Q3K3 w - - 0 1",
]


def white_wdl(board):
    wdl = tables.probe_wdl(board)
    return wdl if board.turn == chess.WHITE else -wdl


def blunder(board):
    """A White move that lets Black capture into a draw, and that capture."""
    for m in board.legal_moves:
        board.push(m)
        for r in [r for r in board.legal_moves if board.is_capture(r)]:
            board.push(r)
            drawn = white_wdl(board) == 0
            board.pop()
            if drawn:
                board.pop()
                return [m, r]
        board.pop()
    raise SystemExit(f"no blunder found in {board.fen()}")


pgn = []
for fen in STARTS:
    board = chess.Board(fen)
    assert white_wdl(board) == 2, fen
    game = chess.pgn.Game()
    game.setup(board)
    node = game
    moves = blunder(board)
    for m in moves:
        board.push(m)
    for _ in range(2):
        moves.append(next(iter(board.legal_moves)))
        board.push(moves[-1])
    for m in moves:
        node = node.add_variation(m)
    pgn.append(str(game))

with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
    f.write("\n\n".join(pgn) + "\n")
    path = f.name
done = subprocess.run([BIN, "analyze", path, "--json", "--depth", "6", "--syzygy", TB],
                      capture_output=True, text=True, check=False)
assert done.returncode == 0, done.stderr
report = json.loads(done.stdout)
checked = 0
for g, text in zip(report["games"], pgn):
    game = chess.pgn.read_game(__import__("io").StringIO(text))
    board = game.board()
    positions = [board.copy()]
    for m in game.mainline_moves():
        board.push(m)
        positions.append(board.copy())
    for ply, (b, ev) in enumerate(zip(positions, g["evals"])):
        wdl = white_wdl(b)
        if wdl == 2:
            ok = ev == "10.00" or (ev.startswith("#") and not ev.startswith("#-"))
        elif wdl == -2:
            ok = ev == "-10.00" or ev.startswith("#-")
        elif wdl == 0:
            ok = ev == "0.00"
        else:
            ok = True  # cursed wins and blessed losses: small scores either way
        assert ok, f"game {g['game']} ply {ply} {b.fen()}: tables say {wdl}, analyze {ev}"
        checked += 1
    thrown = g["moves"][0]
    assert thrown["judgement"] == "blunder", (g["game"], thrown)
print(f"analyze --syzygy: {checked} positions agree with python-chess's probe; "
      f"{len(pgn)} thrown-away wins judged blunders")
