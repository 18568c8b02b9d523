"""Time to depth with 1 and 2 threads on middlegame positions.

Usage: python3 scripts/ttd.py [DEPTH] [ENGINE] [--runs N] [--hash MIB] [--set classic|selfplay|all]
                              [--option NAME=VALUE ...]
(defaults: 18, target/release/fianchetto, 3 runs, 16 MiB, the classic set; --option sets a UCI
option for every run, e.g. one of a tuning build's search constants)

Sets: `classic`, the eight opening-to-middlegame positions every figure before the twenty-second
session (2026-12-08) used; `selfplay`, 24 more, White to move, from Fianchetto's own self-play
games (the held-out tail of data/n12-s1.bin: moves 12 to 25, 24 to 30 pieces, |score| at most
120 cp, at least 500 positions apart, drawn with seed 2207), because eight positions left a
difference of 0.15 between two runs; `all`, both (32).

Each position is searched `go depth DEPTH` from a fresh process, one thread and two threads in
turn (1, 2, 1, 2, ...), so that a slow spell of the machine falls on both alike; the single
thread's time varied by a third from run to run on the development machine when the runs were
not interleaved. Prints each position's median times and speedup, the ratio of the summed
medians (the figure reported before 2026-12-06) and the geometric mean of the speedups.
"""
import argparse, math, statistics, subprocess, time

CLASSIC = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
    "r2q1rk1/pb1nbppp/1p2pn2/2pp4/3P4/1P1BPN2/PBPN1PPP/R2Q1RK1 w - - 0 10",
    "2rq1rk1/pp1bppbp/3p1np1/4n3/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 12",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp2ppbp/2np2pn/8/2PNP3/2N5/PP2BPPP/R1BQ1RK1 w - - 5 9",
    "r1bqkb1r/1p1n1ppp/p3pn2/2p5/2NP4/3BPN2/PP3PPP/R1BQ1RK1 w kq - 0 9",
    "r1b2rk1/pp2bppp/2n1pn2/q5B1/2BP4/2N2N2/PP2QPPP/2R2RK1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
]

SELFPLAY = [
    "r1r3k1/ppqb1pbp/4pnp1/3p1n2/3P1P2/2NNP1P1/PP1B2BP/R2Q1RK1 w - - 6 16",
    "r3r1k1/1p2qpp1/1n3nbp/p1bpp3/P7/BP1PP1P1/2NNQPBP/R4RK1 w - - 2 20",
    "r4rk1/pp3pp1/1qn1b3/3p4/3P1BPp/7P/PP1Q1PB1/R4RK1 w - - 3 19",
    "r1bq1rk1/5ppp/pn1P1n2/2b5/2B5/1PN2N1P/P1P3P1/R1BQ1K1R w - - 1 17",
    "r2q1rk1/p1b1n1pp/1pp3b1/4p3/8/2P3N1/PP2QPPP/R1B1KB1R w KQ - 0 16",
    "rnb1k2r/ppp1n1q1/5p2/3pp2p/4P2P/P2PB3/PQP3P1/R3KBNR w KQkq - 0 12",
    "r4rk1/1pqn1pp1/p1p1bn1p/3pp3/N3P3/1P1P1P2/P1PB1QPP/R3KB1R w KQ - 0 14",
    "2kr1bnr/pppb2p1/2n2p2/7P/3p4/PN1P2N1/1PP3BP/R1B1K2R w - - 1 16",
    "r4rk1/3n1ppp/1qpb1n2/p2p4/8/4P2P/P1NPBP1P/R1BQ1R1K w - - 8 14",
    "rn1q1rk1/1b4bp/1p1ppnp1/p1p5/P3P3/N1P2N2/1PQ1BPPP/R1B2RK1 w - - 0 13",
    "rnb1k1nr/1pq1bpp1/p6p/3p4/P1NN2P1/2P2P2/1P2Q2P/R1B1KB1R w KQq - 2 13",
    "q3k2r/rppbp1bp/2np2pn/p6P/3PNP2/5N2/PPP1B1P1/R1BQK2R w KQk - 1 12",
    "r1bqk2r/1p2bnp1/p1n1pp2/3p4/P4P2/2N1PNPp/1BPPB2P/R2QK2R w KQkq - 0 13",
    "2kr1b1r/ppq2b1p/2p2n2/3p1p2/3P1P2/1P3N2/P1PBQN1P/R3K1R1 w Q - 0 20",
    "r2q1rk1/3b1pb1/p1p2np1/3p3p/P7/2P1B2P/NP2BPP1/R2Q1RK1 w - - 0 19",
    "r4rk1/pb3p1p/1p1p2pn/3Np1N1/4P3/P6P/1PP2PP1/R3K2R w - - 1 24",
    "1rbr2k1/4qpbp/p1p1p1p1/P2n4/2BPNP2/4B2P/1P4P1/R2Q1R1K w - - 6 20",
    "r1bqk2r/3nppbp/2p1n1p1/p2pP3/3P4/N1P2P2/P4NPP/R1BQKB1R w KQkq - 1 12",
    "1k1rr3/2pqn1pp/1p3p2/pPPppn1P/8/B2P2P1/PQ2PPB1/2R1K2R w - - 1 24",
    "r2q1rk1/1b2bpp1/1pn1pn2/2pp3p/8/P1BPPN2/2PNBPPP/R2Q1RK1 w - - 2 14",
    "r1b2rk1/pppp1p1p/2n3p1/q7/2P1P1n1/2PP1NP1/P3Q1BP/R1B2R1K w - - 1 16",
    "1r1q1rk1/ppp2ppp/2n1bn2/4p1B1/4P3/P1NP3P/P1P3P1/1R1QKB1R w K - 7 12",
    "r1b1r1k1/pp3ppp/1qp2bn1/4p3/P2NP3/1PN3PP/1BPQ2B1/R4RK1 w - - 0 18",
    "r2qrbk1/pb3pp1/1n1pp1p1/4P3/3N4/1PP2N1P/5PP1/R1BQR1K1 w - - 0 20",
]

SETS = {"classic": CLASSIC, "selfplay": SELFPLAY, "all": CLASSIC + SELFPLAY}


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
    ap.add_argument("--set", choices=sorted(SETS), default="classic")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    a = ap.parse_args()
    options = [o.split("=", 1) for o in a.option]
    sums = {1: 0.0, 2: 0.0}
    ratios = []
    for fen in SETS[a.set]:
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
    print(f"{a.set} set ({len(ratios)} positions), depth {a.depth}, hash {a.hash} MiB, "
          f"{a.runs} runs: summed medians 1T {sums[1]:.2f}s 2T {sums[2]:.2f}s "
          f"speedup {sums[1] / sums[2]:.2f}; geometric mean {geo:.2f}")


if __name__ == "__main__":
    main()
