#!/usr/bin/env python3
"""The engine with tables converts won endgames and holds drawn ones, against a perfect
opponent.

    python3 tests/python/syzygy_play.py target/release/fianchetto TABLE_DIR [GAMES_EACH]

Won positions of KRvK, KQvKR and KPvK (random, seeded, any distance to zeroing): the engine
plays the winning side at 50 ms a move through UCI with `SyzygyPath`; the defender plays the
tables' best defence (python-chess: the move that keeps the longest distance to zeroing). Every
game must end in mate with the 50-move counter never reaching 100. Drawn positions of KPvK and
KQvKQ: the engine plays the side the tables say draws, the other side tries to win by the
tables; after every engine move the position must still be drawn. Exits non-zero on a failure.
"""
import random
import sys

import chess
import chess.engine
import chess.syzygy
from tb_positions import place_pieces

BIN, DIR = sys.argv[1], sys.argv[2]
GAMES = int(sys.argv[3]) if len(sys.argv) > 3 else 4
rng = random.Random(50)


def random_position(white, black, tb, want):
    """A legal position with `white` vs `black` and White to move, whose WDL is `want`."""
    while True:
        board = place_pieces(rng, white, black)
        if board.is_valid() and not board.is_game_over() and tb.probe_wdl(board) == want:
            return board


def best_for_opponent(board, tb):
    """The tables' best move for the side to move: win fastest, or lose slowest."""
    def key(move):
        board.push(move)
        try:
            if board.is_checkmate():
                return (3, 0)
            wdl, dtz = -tb.probe_wdl(board), -tb.probe_dtz(board)
            zeroing = board.halfmove_clock == 0
        finally:
            board.pop()
        if wdl > 0:
            return (wdl, -abs(dtz) if not zeroing else 0)
        return (wdl, abs(dtz) + (1000 if zeroing else 0) if wdl < 0 else 0)
    return max(board.legal_moves, key=key)


failures = 0
with chess.syzygy.open_tablebase(DIR) as tb, chess.engine.SimpleEngine.popen_uci(BIN) as engine:
    engine.configure({"SyzygyPath": DIR})
    for white, black in (("KR", "K"), ("KQ", "KR"), ("KP", "K")):
        for _ in range(GAMES):
            board = random_position(white, black, tb, 2)
            start, start_dtz = board.fen(), tb.probe_dtz(board)
            while not board.is_game_over(claim_draw=False) and board.halfmove_clock < 100:
                if board.turn == chess.WHITE:
                    board.push(engine.play(board, chess.engine.Limit(time=0.05)).move)
                else:
                    board.push(best_for_opponent(board, tb))
            ok = board.is_checkmate() and board.turn == chess.BLACK
            failures += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {white}v{black} from {start} (DTZ {start_dtz}): "
                  f"{board.result()} after {len(board.move_stack)} plies")
    for white, black in (("KP", "K"), ("KQ", "KQ")):
        for _ in range(GAMES):
            # The engine plays Black in a draw; White (the tables) tries to win.
            board = random_position(white, black, tb, 0)
            start, held = board.fen(), True
            for _ in range(60):
                if board.is_game_over(claim_draw=True):
                    break
                if board.turn == chess.WHITE:
                    board.push(best_for_opponent(board, tb))
                else:
                    board.push(engine.play(board, chess.engine.Limit(time=0.05)).move)
                    if not board.is_game_over() and tb.probe_wdl(board) != 0:
                        held = False
                        break
            failures += not held
            print(f"{'ok  ' if held else 'FAIL'} {white}v{black} draw from {start}: "
                  f"{'held' if held else 'spoilt at ' + board.fen()} over {len(board.move_stack)} plies")
print(f"{failures} failures")
sys.exit(1 if failures else 0)
