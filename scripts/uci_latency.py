#!/usr/bin/env python3
"""Measures how fast the engine answers `isready` and honours `stop` during `go infinite`.

    python3 scripts/uci_latency.py target/release/fianchetto [TRIALS]
"""
import statistics
import subprocess
import sys
import time

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/fianchetto"
TRIALS = int(sys.argv[2]) if len(sys.argv) > 2 else 20

p = subprocess.Popen([BIN, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(s):
    p.stdin.write(s + "\n")
    p.stdin.flush()


def wait_for(prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("engine closed its output")
        if line.startswith(prefix):
            return line


send("uci")
wait_for("uciok")
ready, stop = [], []
positions = ["startpos", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]
for i in range(TRIALS):
    send(f"position {positions[i % 2]}")
    send("go infinite")
    time.sleep(0.3 + 0.05 * (i % 5))
    t = time.perf_counter()
    send("isready")
    wait_for("readyok")
    ready.append((time.perf_counter() - t) * 1000)
    t = time.perf_counter()
    send("stop")
    wait_for("bestmove")
    stop.append((time.perf_counter() - t) * 1000)
send("quit")
p.wait(timeout=5)
for name, xs in (("isready", ready), ("stop", stop)):
    print(f"{name}: median {statistics.median(xs):.2f} ms, max {max(xs):.2f} ms over {len(xs)} searches")
