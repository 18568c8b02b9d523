"""Time to depth with 1 and 2 threads: median of 3 runs on three middlegame positions.

Usage: python3 scripts/ttd.py [DEPTH] [ENGINE]   (defaults: 18, target/release/fianchetto)
"""
import subprocess, sys, time, statistics
D = int(sys.argv[1]) if len(sys.argv) > 1 else 18
B = sys.argv[2] if len(sys.argv) > 2 else "target/release/fianchetto"
fens = ["r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
        "r2q1rk1/pb1nbppp/1p2pn2/2pp4/3P4/1P1BPN2/PBPN1PPP/R2Q1RK1 w - - 0 10",
        "2rq1rk1/pp1bppbp/3p1np1/4n3/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 12"]
def run(fen, t):
    p = subprocess.Popen([B, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(f"setoption name Threads value {t}\nposition fen {fen}\ngo depth {D}\n"); p.stdin.flush()
    t0 = time.time()
    for line in p.stdout:
        if line.startswith("bestmove"):
            break
    el = time.time() - t0
    p.stdin.write("quit\n"); p.stdin.flush(); p.wait()
    return el
tot = {1: [], 2: []}
for fen in fens:
    med = {}
    for t in (1, 2):
        xs = [run(fen, t) for _ in range(3)]
        med[t] = statistics.median(xs)
        tot[t].append(med[t])
    print(f"{fen[:30]}  1T {med[1]:.2f}s  2T {med[2]:.2f}s  speedup {med[1]/med[2]:.2f}", flush=True)
print(f"total medians: 1T {sum(tot[1]):.2f}s 2T {sum(tot[2]):.2f}s speedup {sum(tot[1])/sum(tot[2]):.2f}")
