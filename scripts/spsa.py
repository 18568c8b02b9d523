#!/usr/bin/env python3
"""A small, resumable SPSA tuner for the search constants of a tuning build.

    make TUNE=1 EXE=data/fianchetto-tune
    python3 scripts/spsa.py --engine data/fianchetto-tune --state data/spsa/state.json \\
        --match ../shared/tools/match.py --openings ../shared/data/openings/8mvs_+90_+99.epd \\
        --nodes 20000 --iterations 2000 [--pairs 1] [--params a,b,...] [--exclude a,b,...]

What it does, as OpenBench's SPSA does: the engine's `spsa` command lists every constant as
`name, int, default, min, max, c_end, r_end`. Iteration k draws a random sign for each constant,
plays `--pairs` game pairs (one opening, both colours) between the engine set to theta + c_k·sign
and the engine set to theta - c_k·sign (match.py, a separate program, plays them), and moves
theta by r_k·c_k·(wins - losses)·sign. The gains follow Spall's schedule, fixed so that the last
iteration steps by c_end and learns at r_end:

    c_k = c / k^0.101,  a_k = a / (A + k)^0.602,  r_k = a_k / c_k²,  A = iterations / 10,
    c = c_end · N^0.101,  a = r_end · c_end² · (A + N)^0.602.

The state (iteration, theta, the running game count, each iteration's result) is written to
`--state` after every iteration, so a stopped run resumes where it was; `--iterations` may be
raised on a later run (the schedule keeps its first N, recorded in the state). `--report` prints
theta against the defaults, and `--options` prints them as `setoption` lines.

Tuned values are candidates only: they are kept when they win an SPRT at 5+0.05 against the
untuned build (docs/tuning.md).
"""

import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import time

ALPHA = 0.602
GAMMA = 0.101
# Time management and the tablebase bonus do nothing in fixed-node games; leave them out unless
# named with --params.
NOT_AT_FIXED_NODES = {
    "stability_change", "stability_max", "stability_keep", "stability_min",
    "score_drop", "score_drop_factor", "tb_depth_bonus",
    # Switches and the time manager's node share, tested by SPRT rather than tuned (a 0/1
    # switch has no gradient; Lazy SMP voting needs threads).
    "node_tm", "node_tm_min_depth", "node_tm_base", "node_tm_scale", "smp_vote",
}


def read_tunables(engine):
    """The engine's `spsa` list: {name: (default, min, max, c_end, r_end)}, in its order."""
    out = subprocess.run([engine], input="spsa\nquit\n", capture_output=True, text=True,
                         timeout=30).stdout
    if "cannot set these" in out:
        sys.exit(f"{engine} is not a tuning build (make TUNE=1)")
    params = {}
    for line in out.splitlines():
        f = [x.strip() for x in line.split(",")]
        if len(f) == 7 and f[1] == "int":
            params[f[0]] = (int(f[2]), int(f[3]), int(f[4]), float(f[5]), float(f[6]))
    if not params:
        sys.exit(f"{engine} printed no SPSA lines")
    return params


def load_state(path, params, chosen, iterations):
    if os.path.exists(path):
        with open(path) as f:
            state = json.load(f)
        missing = [n for n in state["theta"] if n not in params]
        if missing:
            sys.exit(f"{path}: the engine has no {', '.join(missing)}")
        return state
    return {
        "k": 0,
        "iterations": iterations,
        "theta": {n: float(params[n][0]) for n in chosen},
        "games": 0,
        "history": [],
    }


def save_state(path, state):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)


def play(args, plus, minus, openings, rng):
    """Plays the iteration's game pairs; returns (wins, draws, losses) of the plus side."""
    # match.py reads every opening of the file it is given, which takes longer than a game at a
    # few thousand nodes: hand it only this iteration's openings.
    chosen = os.path.splitext(os.path.abspath(args.state))[0] + ".openings.epd"
    with open(chosen, "w") as f:
        f.write("".join(rng.choice(openings) for _ in range(args.pairs)))
    cmd = [sys.executable, args.match,
           "--engine", f"plus={args.engine}", "--engine", f"minus={args.engine}",
           "--nodes", str(args.nodes), "--games", str(2 * args.pairs),
           "--openings", chosen, "--concurrency", str(args.concurrency)]
    for name, value in plus.items():
        cmd += ["--option", f"plus:{name}={value}"]
    for name, value in minus.items():
        cmd += ["--option", f"minus:{name}={value}"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    out = done.stdout
    found = re.findall(r"W (\d+) D (\d+) L (\d+)", out)
    if done.returncode != 0 or not found:
        raise RuntimeError(f"match.py ended with status {done.returncode}:\n"
                           + (out + done.stderr)[-2000:])
    w, d, l = (int(x) for x in found[-1])
    return w, d, l


def report(state, params):
    print(f"iteration {state['k']} of {state['iterations']}, {state['games']} games")
    for name, value in state["theta"].items():
        default = params[name][0]
        moved = value - default
        print(f"  {name:24s} {default:6d} -> {value:9.2f}  ({moved:+.2f})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True, help="a tuning build (make TUNE=1)")
    ap.add_argument("--state", required=True, help="JSON file the run keeps its state in")
    ap.add_argument("--match", default="../shared/tools/match.py")
    ap.add_argument("--openings", default="../shared/data/openings/8mvs_+90_+99.epd")
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--iterations", type=int,
                    help="iterations in all (a new run: 2000; a resumed run keeps its own unless "
                         "this raises it)")
    ap.add_argument("--pairs", type=int, default=1, help="game pairs an iteration")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--params", help="only these constants (comma-separated)")
    ap.add_argument("--exclude", help="not these constants (comma-separated)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--r-end", type=float,
                    help="the last learning rate for every constant instead of the engine's "
                         "(OpenBench's 0.002 suits tens of thousands of pairs; a short run here "
                         "needs more to move at all)")
    ap.add_argument("--stop-after", type=float, help="stop after this many minutes")
    ap.add_argument("--report", action="store_true", help="print theta and stop")
    ap.add_argument("--options", action="store_true", help="print theta as setoption lines")
    args = ap.parse_args()

    params = read_tunables(args.engine)
    if args.params:
        chosen = [n.strip() for n in args.params.split(",")]
    else:
        chosen = [n for n in params if n not in NOT_AT_FIXED_NODES]
    if args.exclude:
        chosen = [n for n in chosen if n not in {x.strip() for x in args.exclude.split(",")}]
    unknown = [n for n in chosen if n not in params]
    if unknown:
        sys.exit(f"no such constants: {', '.join(unknown)}")
    os.makedirs(os.path.dirname(os.path.abspath(args.state)), exist_ok=True)
    state = load_state(args.state, params, chosen, args.iterations or 2000)
    state["iterations"] = max(state["iterations"], args.iterations or 0)
    if args.r_end is not None:
        state["r_end"] = args.r_end
    if set(chosen) != set(state["theta"]):
        print(f"note: {args.state} tunes {len(state['theta'])} constants; --params and --exclude "
              "apply to new runs only", file=sys.stderr)
    if args.report:
        report(state, params)
        return
    if args.options:
        for name, value in state["theta"].items():
            print(f"setoption name {name} value {math.floor(value + 0.5)}")
        return

    with open(args.openings) as f:
        openings = [line for line in f if line.strip() and not line.startswith("#")]
    n = state.get("schedule_n", state["iterations"])
    state["schedule_n"] = n
    big_a = n / 10
    started = time.time()
    while state["k"] < state["iterations"]:
        if args.stop_after and time.time() - started > 60 * args.stop_after:
            break
        k = state["k"] + 1
        rng = random.Random(args.seed * 1_000_003 + k)
        plus, minus, signs, cks = {}, {}, {}, {}
        for name, value in state["theta"].items():
            default, lo, hi, c_end, r_end = params[name]
            c = c_end * n ** GAMMA
            # As OpenBench: an integer's step never falls below half a unit, or the two
            # engines could round to the same value and the update be pure noise.
            ck = max(c / k ** GAMMA, 0.5)
            sign = rng.choice((-1, 1))
            signs[name], cks[name] = sign, ck
            plus[name] = min(hi, max(lo, math.floor(value + ck * sign + 0.5)))
            minus[name] = min(hi, max(lo, math.floor(value - ck * sign + 0.5)))
        w, d, l = play(args, plus, minus, openings, rng)
        for name in state["theta"]:
            default, lo, hi, c_end, r_end = params[name]
            r_end = state.get("r_end", r_end)
            a = r_end * c_end ** 2 * (big_a + n) ** ALPHA
            ak = a / (big_a + k) ** ALPHA
            rk = ak / cks[name] ** 2
            moved = state["theta"][name] + rk * cks[name] * (w - l) * signs[name]
            state["theta"][name] = min(hi, max(lo, moved))
        state["k"] = k
        state["games"] += w + d + l
        state["history"].append([w, d, l])
        save_state(args.state, state)
        print(f"iteration {k}: W {w} D {d} L {l} ({state['games']} games)", flush=True)
    report(state, params)


if __name__ == "__main__":
    main()
