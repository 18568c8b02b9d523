"""Time to depth with 1 and 2 threads on eight middlegame positions.

Usage: python3 scripts/ttd.py [DEPTH] [ENGINE] [--runs N] [--hash MIB] [--option NAME=VALUE ...]
(defaults: 18, target/release/fianchetto, 3 runs, 16 MiB; --option sets a UCI option for every
run, e.g. one of a tuning build's search constants)

Each position is searched `go depth DEPTH` from a fresh process, one thread and two threads in
turn (1, 2, 1, 2, ...), so that a slow spell of the machine falls on both alike; the single
thread's time varied by a third from run to run on the development machine when the runs were
not interleaved. Prints each position's median times and speedup, the ratio of the summed
medians (the figure reported before 2026-12-06) and the geometric mean of the speedups.
"""
import argparse, math, statistics, subprocess, time

FENS = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
    "r2q1rk1/pb1nbppp/1p2pn2/2pp4/3P4/1P1BPN2/PBPN1PPP/R2Q1RK1 w - - 0 10",
    "2rq1rk1/pp1bppbp/3p1np1/4n3/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 12",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp2ppbp/2np2pn/8/2PNP3/2N5/PP2BPPP/R1BQ1RK1 w - - 5 9",
    "r1bqkb1r/1p1n1ppp/p3pn2/2p5/2NP4/3BPN2/PP3PPP/R1BQ1RK1 w kq - 0 9",
    "r1b2rk1/pp2bppp/2n1pn2/q5B1/2BP4/2N2N2/PP2QPPP/2R2RK1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
]


def run(engine, fen, threads, depth, hash_mib, options=()):
    p = subprocess.Popen([engine, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(f"setoption name Threads value {threads}\nsetoption name Hash value {hash_mib}\n"
                  + "".join(f"setoption name {n} value {v}\n" for n, v in options)
                  + "isready\n")
    p.stdin.flush()
    for line in p.stdout:
        if line.startswith("readyok"):
            break
    p.stdin.write(f"position fen {fen}\ngo depth {depth}\n")
    p.stdin.flush()
    t0 = time.time()
    for line in p.stdout:
        if line.startswith("bestmove"):
            break
    elapsed = time.time() - t0
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("depth", nargs="?", type=int, default=18)
    ap.add_argument("engine", nargs="?", default="target/release/fianchetto")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    a = ap.parse_args()
    options = [o.split("=", 1) for o in a.option]
    sums = {1: 0.0, 2: 0.0}
    ratios = []
    for fen in FENS:
        times = {1: [], 2: []}
        for _ in range(a.runs):
            for t in (1, 2):
                times[t].append(run(a.engine, fen, t, a.depth, a.hash, options))
        med = {t: statistics.median(xs) for t, xs in times.items()}
        for t in (1, 2):
            sums[t] += med[t]
        ratios.append(med[1] / med[2])
        print(f"{fen[:36]:36}  1T {med[1]:6.2f}s  2T {med[2]:6.2f}s  speedup {ratios[-1]:.2f}",
              flush=True)
    geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f"depth {a.depth}, hash {a.hash} MiB, {a.runs} runs: summed medians 1T {sums[1]:.2f}s "
          f"2T {sums[2]:.2f}s speedup {sums[1] / sums[2]:.2f}; geometric mean {geo:.2f}")


if __name__ == "__main__":
    main()
