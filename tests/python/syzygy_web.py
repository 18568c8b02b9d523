#!/usr/bin/env python3
"""`serve --syzygy`'s `/api/tablebase` agrees with python-chess's probe of the same tables.

    python3 tests/python/syzygy_web.py target/release/fianchetto TABLE_DIR [POSITIONS]

For random legal 3-4-piece positions of every table's material (seeded), either side to move:
the position's WDL and DTZ are python-chess's; every legal move is listed once, with the WDL
python-chess gives the position after it (from the mover's side) and a DTZ one ply more than
the child's (or ±1 / ±101 for a capture or pawn move that wins); the list is best first (the
better result first, among wins the mates and then the shortest DTZ). Also: positions with more
pieces or castling rights are not covered; a win the position's 50-move counter leaves too few
plies for reads as a cursed win; mate and stalemate are said; bad FENs answer 400 with
a JSON error; a server without tables answers `max_pieces: 0`. Exits non-zero on a failure.
"""
import json
import os
import random
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

import chess
import chess.syzygy
from tb_positions import place_pieces

BIN, DIR = sys.argv[1], sys.argv[2]
COUNT = int(sys.argv[3]) if len(sys.argv) > 3 else 400
rng = random.Random(2026)
failures = []
NAMES = {2: "win", 1: "cursed-win", 0: "draw", -1: "blessed-loss", -2: "loss"}


def check(ok, what):
    if not ok:
        print("FAIL " + what)
        failures.append(what)


def start(args):
    server = subprocess.Popen([BIN, "serve", "--port", "0", *args], stdout=subprocess.PIPE, text=True)
    lines = []
    for line in server.stdout:
        lines.append(line)
        m = re.search(r"http://[\d.]+:\d+/", line)
        if m:
            return server, m.group(0), "".join(lines)
    raise SystemExit(f"the server said no URL: {''.join(lines)}")


def get(base, fen):
    url = base + "api/tablebase?fen=" + urllib.parse.quote(fen)
    try:
        with urllib.request.urlopen(url, timeout=30) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def expected_move_dtz(tb, child):
    """The DTZ of a move from before it, as the tables' root ranking counts it."""
    if child.halfmove_clock == 0:
        return [-1, -101, 0, 101, 1][-tb.probe_wdl(child) + 2]
    d = -tb.probe_dtz(child)
    return d + (d > 0) - (d < 0)


names = sorted({f[:-5] for f in os.listdir(DIR) if f.endswith(".rtbw")})
server, base, said = start(["--syzygy", DIR])
plain, plain_base, _ = start([])
try:
    check(re.search(r"Tablebases: \d+ tables, up to 4 pieces", said) is not None, f"startup line: {said!r}")
    checked = moves_checked = 0
    with chess.syzygy.open_tablebase(DIR) as tb:
        while checked < COUNT:
            white, black = rng.choice(names).split("v")
            board = place_pieces(rng, white, black)
            board.turn = rng.random() < 0.5
            if not board.is_valid() or board.is_game_over():
                continue
            checked += 1
            fen = board.fen()
            status, view = get(base, fen)
            if status != 200 or not view.get("covered"):
                check(False, f"{fen}: {status} {view}")
                continue
            check(view["wdl"] == NAMES[tb.probe_wdl(board)], f"{fen}: wdl {view['wdl']} vs {tb.probe_wdl(board)}")
            check(view.get("dtz") == tb.probe_dtz(board), f"{fen}: dtz {view.get('dtz')} vs {tb.probe_dtz(board)}")
            listed = [m["uci"] for m in view["moves"]]
            check(sorted(listed) == sorted(m.uci() for m in board.legal_moves), f"{fen}: moves {listed}")
            ranks = []
            for m in view["moves"]:
                child = board.copy()
                child.push_uci(m["uci"])
                moves_checked += 1
                if child.is_checkmate():
                    want, mate = "win", True
                elif child.is_stalemate():
                    want, mate = "draw", False
                else:
                    want, mate = NAMES[-tb.probe_wdl(child)], False
                check(m["wdl"] == want, f"{fen} {m['uci']}: wdl {m['wdl']} vs {want}")
                check(m["checkmate"] == mate, f"{fen} {m['uci']}: checkmate {m['checkmate']}")
                check(m["san"] == board.san(chess.Move.from_uci(m["uci"])), f"{fen} {m['uci']}: san {m['san']}")
                if not mate and not child.is_stalemate():
                    want_dtz = expected_move_dtz(tb, child)
                    check(m["dtz"] == want_dtz, f"{fen} {m['uci']}: dtz {m['dtz']} vs {want_dtz}")
                order = {"win": 4, "cursed-win": 3, "draw": 2, "blessed-loss": 1, "loss": 0}[m["wdl"]]
                within = (0 if mate else 1, abs(m["dtz"])) if m["wdl"] == "win" else (0, 0)
                ranks.append((-order, within))
            check(ranks == sorted(ranks), f"{fen}: not best first: {listed}")
            check(not view["moves"] or view["moves"][0]["wdl"] == view["wdl"], f"{fen}: the first move keeps the result")
    print(f"{checked} positions, {moves_checked} moves agree with python-chess" if not failures else "")

    # The server's engine plays by the tables: in won 3-4-piece positions, with a 20 ms move,
    # its move keeps the win every time (the tables filter its root moves).
    def post(path, body):
        req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as res:
            return json.loads(res.read())
    kept = 0
    with chess.syzygy.open_tablebase(DIR) as tb:
        while kept < 12:
            white, black = rng.choice(["KQvK", "KRvK", "KPvK", "KRPvK", "KQvKR"]).split("v")
            board = place_pieces(rng, white, black)
            if not board.is_valid() or board.is_game_over() or tb.probe_wdl(board) != 2:
                continue
            game = post("api/games", {"fen": board.fen(), "human": "black"})
            bot = post(f"api/games/{game['id']}/bot", {"movetime": 20})["bot"]
            after = board.copy()
            after.push_uci(bot["uci"])
            won = after.is_checkmate() or tb.probe_wdl(after) == -2
            check(won, f"{board.fen()}: the engine's {bot['uci']} gives up the tables' win")
            kept += 1

    # What the tables cannot say, and what needs no table.
    for fen, what in [("8/8/8/4k3/8/2p5/3KP3/7N w - - 0 1", "5 pieces"),
                      ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "castling rights")]:
        status, view = get(base, fen)
        check(status == 200 and view["covered"] is False and view["max_pieces"] == 4, f"{what}: {status} {view}")
    # The 50-move rule from the position's own counter: a win 25 plies from zeroing is a win
    # with the counter at 0 and a cursed win (the rule draws it) with 99 plies already run.
    _, fresh = get(base, "8/8/8/4k3/8/8/3K4/7R w - - 0 80")
    _, late = get(base, "8/8/8/4k3/8/8/3K4/7R w - - 99 80")
    check(fresh["wdl"] == "win" and fresh["moves"][0]["wdl"] == "win", f"counter 0: {fresh['wdl']}")
    check(late["wdl"] == "cursed-win" and all(m["wdl"] != "win" for m in late["moves"]),
          f"counter 99: {late['wdl']} {[m['wdl'] for m in late['moves']][:5]}")
    status, view = get(base, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    check(status == 200 and view.get("over") == "checkmate" and view.get("wdl") == "loss", f"mate: {view}")
    status, view = get(base, "7k/8/6QK/8/8/8/8/8 b - - 0 1")
    check(status == 200 and view.get("over") == "stalemate" and view.get("wdl") == "draw", f"stalemate: {view}")
    for bad in ["garbage", "8/8/8/8/8/8/8/8 w - - 0 1", "x" * 5000, "\u00ff\u0000"]:
        status, view = get(base, bad)
        check(status == 400 and "error" in view, f"bad FEN {bad[:20]!r}: {status} {view}")
    status, view = get(plain_base, "8/8/8/4k3/8/8/3K4/7R w - - 0 1")
    check(status == 200 and view["max_pieces"] == 0 and view["covered"] is False, f"no tables: {status} {view}")
    # A folder without tables is refused at startup, with the reason.
    empty = subprocess.run([BIN, "serve", "--port", "0", "--syzygy", "/"], capture_output=True, text=True, timeout=30)
    check(empty.returncode != 0 and "no tables found" in empty.stderr, f"--syzygy /: {empty.returncode} {empty.stderr!r}")
finally:
    server.kill()
    plain.kill()

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("tablebase API agrees with python-chess")
