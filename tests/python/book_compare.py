#!/usr/bin/env python3
"""Our Polyglot reader against python-chess's (chess.polyglot), a reader none of us wrote.

Run by .ci/run with Debian's public-domain gnuchess book:
    python3 tests/python/book_compare.py target/release/fianchetto /usr/share/games/gnuchess/book.bin
Walks 300 positions by drawing book moves at random (seeded) and compares, in each, the moves
and weights that `fianchetto book` lists with python-chess's. Exits non-zero on any difference.
"""
import random
import subprocess
import sys

import chess
import chess.polyglot

BIN, BOOK = sys.argv[1], sys.argv[2]
POSITIONS = 300


def ours(board):
    out = subprocess.run([BIN, "book", BOOK, "--fen", board.fen()],
                         capture_output=True, text=True, check=True).stdout
    lines = out.strip().splitlines()
    moves = {(line.split()[1], int(line.split()[3])) for line in lines[:-1]}
    key = lines[-1].split("key ")[1]
    return moves, key


rng = random.Random(2026)
checked, differ = 0, 0
with chess.polyglot.open_reader(BOOK) as reader:
    board = chess.Board()
    while checked < POSITIONS:
        theirs = {(e.move.uci(), e.weight) for e in reader.find_all(board)}
        mine, key = ours(board)
        checked += 1
        if key != f"{chess.polyglot.zobrist_hash(board):016x}":
            differ += 1
            print(f"FAIL key {board.fen()}: ours {key}")
        if mine != theirs:
            differ += 1
            print(f"FAIL moves {board.fen()}: ours {sorted(mine)} theirs {sorted(theirs)}")
        entries = list(reader.find_all(board))
        if entries and board.fullmove_number < 20:
            board.push(rng.choices([e.move for e in entries], [e.weight for e in entries])[0])
        else:
            # Out of book: start a new line, a few random moves in for variety now and then.
            board = chess.Board()
            for _ in range(rng.choice([0, 0, 1, 2])):
                board.push(rng.choice(list(board.legal_moves)))
print(f"{checked} positions compared, {differ} differences")
sys.exit(1 if differ else 0)
