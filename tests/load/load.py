#!/usr/bin/env python3
"""Load on `fianchetto serve`: 50 concurrent clients playing games for a minute, 127.0.0.1 only.

    python3 tests/load/load.py target/release/fianchetto [CLIENTS] [SECONDS]

Each client starts a game, plays random legal moves, asks the engine for a reply (at 1300 Elo)
every other move, takes back now and then, and starts again when a game ends. Every answer must
be a success; the server's resident memory after the run may exceed the one after start-up by
at most 150 MiB (its searchers are allocated at start; games are capped at 1000). Prints
requests, errors and RSS before and after.
"""
import json
import random
import sys
import threading
import time
import urllib.error
import urllib.request

import server as serve

BIN = sys.argv[1]
CLIENTS = int(sys.argv[2]) if len(sys.argv) > 2 else 50
SECONDS = float(sys.argv[3]) if len(sys.argv) > 3 else 60
RSS_BOUND_MIB = 150

server, host, port = serve.start(BIN)
url = f"http://{host}:{port}/"


def call(path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path.lstrip("/"), data=data,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.loads(res.read())


lock = threading.Lock()
stats = {"requests": 0, "errors": 0, "games": 0}
errors = []


def client(seed):
    rng = random.Random(seed)
    deadline = time.time() + SECONDS
    game = None
    while time.time() < deadline:
        try:
            if game is None or game["status"] is not None:
                game = call("/api/games", {})
                with lock:
                    stats["games"] += 1
            elif rng.random() < 0.05 and game["moves"]:
                game = call(f"/api/games/{game['id']}/undo", {"plies": 1})
            elif game["turn"] == "black" or rng.random() < 0.1:
                game = call(f"/api/games/{game['id']}/bot", {"elo": 1300})
            else:
                move = rng.choice(game["legal"])["uci"]
                game = call(f"/api/games/{game['id']}/move", {"move": move})
            with lock:
                stats["requests"] += 1
        except (urllib.error.URLError, OSError, ValueError, KeyError) as e:
            with lock:
                stats["errors"] += 1
                errors.append(repr(e))
            game = None


time.sleep(0.5)
before = serve.rss_mib(server)
elapsed = serve.run_clients(client, CLIENTS)
after = serve.rss_mib(server)
alive = server.poll() is None
server.terminate()
print(f"{CLIENTS} clients for {elapsed:.0f} s: {stats['requests']} requests "
      f"({stats['requests'] / elapsed:.0f}/s), {stats['games']} games, {stats['errors']} errors; "
      f"RSS {before:.1f} MiB before, {after:.1f} MiB after (bound: +{RSS_BOUND_MIB} MiB)")
for e in errors[:10]:
    print("  error:", e)
ok = alive and stats["errors"] == 0 and stats["requests"] > 0 and after - before <= RSS_BOUND_MIB
print("load test passed" if ok else "load test FAILED")
sys.exit(0 if ok else 1)
