#!/usr/bin/env python3
"""Compare nets' evaluation scales, and write a copy of a net with its output scaled.

A fine-tuned net can read positions more decisively than its parent (n13b: 5 % larger
evaluations). The search's margins are in centipawns, so such a net plays worse until its
scale is corrected (nets/README.md, n13b).

    net_scale.py measure --data POSITIONS.txt [--every N] [--exe FIANCHETTO] NET...
        mean |NNUE evaluation| in centipawns of each net over every Nth line of a text data file
        (`FEN | score | result`, as `fianchetto datagen --convert` writes it)
    net_scale.py scale NET FACTOR OUT
        OUT = NET with its output weights and biases times FACTOR (a version-2 .fnn file; the
        checksum is written anew)
"""
import argparse
import re
import struct
import subprocess
import sys

INPUTS = 768
HEADER = 8 + 7 * 4  # magic, then version, architecture, hidden, QA, QB, scale, buckets


def fnv1a(data):
    h = 0xCBF29CE484222325
    for x in data:
        h = ((h ^ x) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def scale(net, factor, out):
    b = bytearray(open(net, "rb").read())
    if b[:8] != b"FIANNUE\0":
        sys.exit(f"{net}: not a Fianchetto net")
    version, _arch, hidden, _qa, _qb, _scale, buckets = struct.unpack_from("<7I", b, 8)
    if version != 2:
        sys.exit(f"{net}: net file version {version}, this script reads version 2")
    at = HEADER + 2 * (INPUTS * hidden + hidden)
    n = 2 * hidden * buckets
    if len(b) != at + 2 * n + 4 * buckets + 8:
        sys.exit(f"{net}: {len(b)} bytes, not the size its header declares")
    weights = struct.unpack_from(f"<{n}h", b, at)
    struct.pack_into(f"<{n}h", b, at, *[max(-32768, min(32767, round(w * factor))) for w in weights])
    biases = struct.unpack_from(f"<{buckets}i", b, at + 2 * n)
    struct.pack_into(f"<{buckets}i", b, at + 2 * n, *[round(x * factor) for x in biases])
    struct.pack_into("<Q", b, len(b) - 8, fnv1a(b[:-8]))
    open(out, "wb").write(b)


def measure(exe, nets, data, every):
    fens = [line.split("|")[0].strip() for i, line in enumerate(open(data)) if (i + 1) % every == 0]
    if not fens:
        sys.exit(f"{data}: fewer than {every} lines")
    for net in nets:
        total = 0.0
        for fen in fens:
            out = subprocess.run([exe, "eval", "--fen", fen, "--net", net],
                                 capture_output=True, text=True, check=True).stdout
            m = re.search(r"NNUE evaluation: ([-+0-9.]+) \(White's view\)", out)
            if not m:
                sys.exit(f"no NNUE evaluation for {fen} with {net}")
            total += abs(float(m.group(1))) * 100
        print(f"{net}: mean |evaluation| {total / len(fens):.1f} cp over {len(fens)} positions")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure")
    m.add_argument("--data", required=True)
    m.add_argument("--every", type=int, default=2500)
    m.add_argument("--exe", default="target/release/fianchetto")
    m.add_argument("nets", nargs="+")
    s = sub.add_parser("scale")
    s.add_argument("net")
    s.add_argument("factor", type=float)
    s.add_argument("out")
    a = p.parse_args()
    if a.cmd == "measure":
        measure(a.exe, a.nets, a.data, max(1, a.every))
    else:
        scale(a.net, a.factor, a.out)


if __name__ == "__main__":
    main()
