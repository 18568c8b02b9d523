#!/usr/bin/env python3
"""Soak `fianchetto serve`: clients that play, analyse and vanish at random moments.

    python3 tests/load/soak.py target/release/fianchetto [CLIENTS] [SECONDS]

Each client loops over random actions: a move, an engine move (a rating or a short movetime),
a take-back, a live analysis stream closed after a random moment, a whole-game analysis whose
client hangs up at a random moment, a hostile request (a PGN nested 20,000 deep, a slow
half-sent request). "Busy" answers (429, 503) are fair under load; a 500, a connection refused or
reset, or a server that dies is a failure. Afterwards the server must be whole: an engine move of
1 s thinks for its whole second (a stop flag left set by a vanished client ended every later
search at once), and resident memory is back within 20 % of what it was at the start, once
every kind of request had been served (the first use of each reads its code from disk and gives
a thread its allocator arena: 42 -> 47 MiB, growth no request keeps). What requests leave
behind was cut to that: a 20,000-deep PGN is lexed in the tokens of 100 levels, and stored
games keep their moves, not a position per ply.
"""
import json
import random
import socket
import sys
import threading
import time
import urllib.error
import urllib.request

import server as serve

BIN = sys.argv[1]
CLIENTS = int(sys.argv[2]) if len(sys.argv) > 2 else 50
SECONDS = float(sys.argv[3]) if len(sys.argv) > 3 else 600
RSS_GROWTH = 0.20
midway = {}

server, HOST, PORT = serve.start(BIN)
BASE = f"http://{HOST}:{PORT}/"
GAME = " ".join(f"{i + 1}. Nf3 Nf6 {i + 2}. Ng1 Ng8" for i in range(0, 60, 2)) + " *"
DEEP = "1. e4 " + "(1. d4 " * 20000 + ")" * 20000 + " e5 *"


def call(path, body=None, timeout=60):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path.lstrip("/"), data=data,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            return res.status, json.loads(res.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def raw(request, hang_up_after):
    """Sends raw bytes and hangs up after `hang_up_after` seconds, whatever came back."""
    s = socket.create_connection((HOST, PORT), timeout=10)
    try:
        s.sendall(request)
        s.settimeout(max(hang_up_after, 0.01))
        end = time.time() + hang_up_after
        while time.time() < end:
            try:
                if not s.recv(4096):
                    break
            except socket.timeout:
                break
    finally:
        s.close()


def post_bytes(path, body):
    b = json.dumps(body).encode()
    return (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(b)}\r\n\r\n").encode() + b


lock = threading.Lock()
stats = {"actions": 0, "busy": 0, "failures": 0}
failures = []


def fail(what):
    with lock:
        stats["failures"] += 1
        failures.append(what)


def act(roll, rng, game):
    """One action, chosen by `roll` in [0, 1): returns its status and the game played on."""
    if game is None or game.get("status") is not None:
        return call("/api/games", {})
    if roll < 0.45:
        move = rng.choice(game["legal"])["uci"]
        return call(f"/api/games/{game['id']}/move", {"move": move})
    if roll < 0.65:
        body = {"elo": rng.choice([1300, 2000])} if rng.random() < 0.5 \
            else {"movetime": rng.choice([50, 200, 500])}
        status, answer = call(f"/api/games/{game['id']}/bot", body)
        return status, answer if status == 200 else game
    if roll < 0.70:
        return call(f"/api/games/{game['id']}/undo", {"plies": 1})
    if roll < 0.82:
        fen = game["fen"].replace(" ", "%20")
        raw(f"GET /api/analysis?fen={fen}&movetime=5000 HTTP/1.1\r\nHost: x\r\n\r\n"
            .encode(), rng.uniform(0.0, 2.0))
    elif roll < 0.92:
        raw(post_bytes("/api/analyse-pgn", {"pgn": GAME, "movetime": 500}),
            rng.uniform(0.0, 3.0))
    elif roll < 0.96:
        status, answer = call("/api/pgn", {"pgn": DEEP})
        if status != 400 or "nested deeper" not in answer.get("error", ""):
            fail(f"deep PGN: {status} {answer}")
    else:
        raw(b"GET / HTTP/1.1\r\nHo", rng.uniform(0.0, 1.0))
    return 200, game


# One roll from each action's share, to warm up.
EVERY_ACTION = [0.2, 0.5, 0.67, 0.75, 0.87, 0.94, 0.98]


def client(seed):
    rng = random.Random(seed)
    deadline = time.time() + SECONDS
    game = None
    while time.time() < deadline:
        try:
            status, game = act(rng.random(), rng, game)
            with lock:
                stats["actions"] += 1
                if status in (429, 503):
                    stats["busy"] += 1
            if status >= 500 and status != 503:
                fail(f"status {status}")
            if status in (404, 409):
                game = None  # evicted, or the engine still thinks in it
        except (urllib.error.URLError, OSError, ValueError, KeyError, TypeError) as e:
            fail(repr(e))
            game = None


# The memory the server starts from is measured once every kind of request has been served:
# the first use reads the program's code for it from disk and gives each thread its allocator
# arena, which is growth that is not kept by the requests.
time.sleep(0.5)
fresh = serve.rss_mib(server)
rng0 = random.Random(0)
warm = call("/api/games", {})[1]
for roll in EVERY_ACTION:
    _, g = act(roll, rng0, warm)
    warm = g if isinstance(g, dict) and "legal" in g else warm
time.sleep(3)
before = serve.rss_mib(server)
before_anon = serve.rss_mib(server, "RssAnon")


def measure_midway():
    time.sleep(SECONDS / 2)
    midway["rss"] = serve.rss_mib(server)


elapsed = serve.run_clients(client, CLIENTS, measure_midway)
# Cancelled work ends at once; give it a moment, then check that nothing was left crippled.
time.sleep(3)
alive = server.poll() is None
status, g = call("/api/games", {})
t0 = time.time()
status, answer = call(f"/api/games/{g['id']}/bot", {"movetime": 1000})
took = time.time() - t0
depth = answer.get("bot", {}).get("depth") if isinstance(answer, dict) else None
after = serve.rss_mib(server)
after_anon = serve.rss_mib(server, "RssAnon")
server.terminate()
print(f"{CLIENTS} clients for {elapsed:.0f} s: {stats['actions']} actions, {stats['busy']} busy "
      f"answers, {stats['failures']} failures; afterwards a 1 s engine move took {took:.2f} s "
      f"(depth {depth}, status {status}); RSS {fresh:.1f} MiB fresh, {before:.1f} MiB at the "
      f"start (every request served once), {midway['rss']:.1f} MiB halfway, {after:.1f} MiB "
      f"after; allocated (RssAnon) {before_anon:.1f} MiB at the start, {after_anon:.1f} after")
for f in failures[:10]:
    print("  failure:", f)
ok = (alive and stats["failures"] == 0 and status == 200 and took >= 0.9
      and after <= before * (1 + RSS_GROWTH))
print("soak passed" if ok else "soak FAILED")
sys.exit(0 if ok else 1)
