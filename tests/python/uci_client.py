#!/usr/bin/env python3
"""python-chess drives the real binary: a client none of us wrote.

Run by .ci/run after `cargo test --release` (which builds the binary):
    python3 tests/python/uci_client.py target/release/fianchetto
Prints 'N passed, 0 failed' and exits non-zero on any failure.
"""
import sys
import chess
import chess.engine

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/fianchetto"
passed, failed = 0, 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


with chess.engine.SimpleEngine.popen_uci([BIN, "uci"]) as engine:
    check("id name", engine.id.get("name", "").startswith("Fianchetto"), engine.id)
    check("options", {"Hash", "MultiPV", "Threads", "Ponder", "Move Overhead"} <= set(engine.options), list(engine.options))
    engine.configure({"Hash": 32})

    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=3)
    check("analyse multipv 3", len(infos) == 3, infos)
    firsts = [i["pv"][0] for i in infos]
    check("multipv distinct moves", len(set(firsts)) == 3, firsts)
    check("multipv moves legal", all(m in board.legal_moves for m in firsts), firsts)
    check("scores ordered", infos[0]["score"].relative >= infos[1]["score"].relative >= infos[2]["score"].relative)

    mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    info = engine.analyse(mate, chess.engine.Limit(depth=5))
    check("mate score", info["score"].relative == chess.engine.Mate(1), info["score"])

    engine.configure({"UCI_ShowWDL": True})
    info = engine.analyse(board, chess.engine.Limit(depth=6))
    wdl = info.get("wdl")
    check("UCI_ShowWDL", wdl is not None and sum(wdl.relative) == 1000, info)
    info = engine.analyse(mate, chess.engine.Limit(depth=5))
    check("wdl of a mate", info.get("wdl") is not None and info["wdl"].relative.wins == 1000, info)
    engine.configure({"UCI_ShowWDL": False})

    # Chess960: python-chess sets UCI_Chess960 and sends castling as king-takes-rook.
    frc = chess.Board("2rkr3/2p1p3/8/8/8/8/PPP5/RK6 w A - 0 1", chess960=True)
    result = engine.play(frc, chess.engine.Limit(depth=4))
    check("Chess960 castling mate", result.move == chess.Move.from_uci("b1a1"), result)

    result = engine.play(board, chess.engine.Limit(time=0.2))
    check("play with time limit", result.move in board.legal_moves, result)
    result = engine.play(board, chess.engine.Limit(white_clock=3, black_clock=3, white_inc=0.05, black_inc=0.05))
    check("play with clock", result.move in board.legal_moves, result)

    # A short self-play game with a clock: every move legal, the game reaches an end or 60 plies.
    game = chess.Board()
    clocks = {chess.WHITE: 5.0, chess.BLACK: 5.0}
    ok = True
    while not game.is_game_over() and game.ply() < 60:
        r = engine.play(game, chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK], white_inc=0.05, black_inc=0.05))
        if r.move not in game.legal_moves:
            ok = False
            break
        game.push(r.move)
    check("self-play game legal", ok and game.ply() > 0, game.fen())

    stalemate = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    try:
        r = engine.play(stalemate, chess.engine.Limit(depth=3))
        check("no legal move gives no move", r.move is None, r)
    except chess.engine.EngineError as e:
        # The engine must answer `bestmove (none)`, which python-chess reads as no move; an
        # error here means it answered something else.
        check("no legal move gives no move", False, e)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
