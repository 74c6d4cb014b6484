#!/usr/bin/env python3
"""Cross-check tool: perft counts from pyffish (Fairy-Stockfish's Python binding, `pip install
pyffish`), in the format of tests/data/perft/*.epd (`<FEN> ;D1 n ;D2 n ...`).

usage: pyffish_perft.py VARIANT MAXDEPTH < fens.txt
       pyffish_perft.py VARIANT MAXDEPTH --random GAMES SEED [MAXNODES] (positions from seeded
       random games from the start position, each taken 6 to 60 plies in)
Counts stop at the first depth above MAXNODES (default 3 million) nodes.
--ini FILE (anywhere after MAXDEPTH) first loads FILE's sections (`load_variant_config`), so
that VARIANT may be one of them."""

import random
import sys

import pyffish


def perft(variant, fen, moves, depth):
    legal = pyffish.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)


def counts(variant, fen, depth, cap):
    out = []
    for d in range(1, depth + 1):
        n = perft(variant, fen, [], d)
        out.append(n)
        if n > cap:
            break
    return out


def random_fens(variant, games, seed):
    rng = random.Random(seed)
    start = pyffish.start_fen(variant)
    fens = []
    while len(fens) < games:
        moves = []
        plies = rng.randint(6, 60)
        for _ in range(plies):
            legal = pyffish.legal_moves(variant, start, moves)
            if not legal:
                break
            # Prefer captures now and then, so explosions and petrification show up.
            moves.append(rng.choice(sorted(legal)))
        fen = pyffish.get_fen(variant, start, moves)
        if pyffish.legal_moves(variant, fen, []):
            fens.append(fen)
    return fens


def main():
    if "--ini" in sys.argv:
        at = sys.argv.index("--ini")
        with open(sys.argv[at + 1]) as f:
            pyffish.load_variant_config(f.read())
        del sys.argv[at : at + 2]
    variant, depth = sys.argv[1], int(sys.argv[2])
    cap = 3_000_000
    if len(sys.argv) > 3 and sys.argv[3] == "--random":
        games, seed = int(sys.argv[4]), int(sys.argv[5])
        if len(sys.argv) > 6:
            cap = int(sys.argv[6])
        fens = random_fens(variant, games, seed)
    else:
        fens = [l.strip() for l in sys.stdin if l.strip() and not l.startswith("#")]
    for fen in fens:
        c = counts(variant, fen, depth, cap)
        print(fen + "".join(f" ;D{d} {n}" for d, n in enumerate(c, 1)), flush=True)


if __name__ == "__main__":
    main()
