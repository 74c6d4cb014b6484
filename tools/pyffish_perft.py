#!/usr/bin/env python3
"""Cross-check tool: reads FENs (one per line) on stdin and prints each with its perft counts
from Fairy-Stockfish's Python binding (pyffish, `pip install pyffish`), in the format of
tests/data/perft/*.epd (`<FEN> ;D1 n ;D2 n ...`). Leaves are counted as the number of legal
moves one ply above them, as Fairy-Stockfish's `go perft` does.

usage: pyffish_perft.py VARIANT MAXDEPTH [VARIANTS_INI] < fens.txt"""

import sys

import pyffish


def perft(variant, fen, depth):
    moves = pyffish.legal_moves(variant, fen, [])
    if depth == 1:
        return len(moves)
    return sum(perft(variant, pyffish.get_fen(variant, fen, [m]), depth - 1) for m in moves)


def main():
    variant, depth = sys.argv[1], int(sys.argv[2])
    if len(sys.argv) > 3:
        with open(sys.argv[3]) as f:
            pyffish.load_variant_config(f.read())
    for fen in sys.stdin:
        fen = fen.strip()
        if not fen or fen.startswith("#"):
            continue
        counts = [perft(variant, fen, d) for d in range(1, depth + 1)]
        print(fen + "".join(f" ;D{d} {n}" for d, n in enumerate(counts, 1)), flush=True)


if __name__ == "__main__":
    main()
