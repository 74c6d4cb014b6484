#!/usr/bin/env python3
"""Reference data for Alice Chess from an independent generator: plays seeded random games with
pyffish-alice (PyPI package of Fairy-Stockfish's alice branch), takes positions along the way,
and prints each with its perft counts, counted by recursion over pyffish_alice.legal_moves, in
the format of tests/data/perft/*.epd (`<FEN> ;D1 n ;D2 n ...`).

usage: alice_random.py [GAMES] [DEPTH] [SEED] > tests/data/perft/alice-random.epd

The FENs are Fairy-Stockfish's (8x8 with `|` before a man on board B); Chimera reads them."""

import random
import sys

import pyffish_alice as sf

VARIANT = "alice"


def perft(fen, moves, depth):
    legal = sf.legal_moves(VARIANT, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(fen, moves + [m], depth - 1) for m in legal)


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 7)
    start = sf.start_fen(VARIANT)
    print("# Alice Chess positions from seeded random games, counted by pyffish-alice 0.0.3")
    print("# (Fairy-Stockfish alice branch) with tools/alice_random.py; FENs in its `|` form.")
    for _ in range(games):
        moves = []
        plies = rng.randint(6, 70)
        for _ in range(plies):
            legal = sf.legal_moves(VARIANT, start, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
        fen = sf.get_fen(VARIANT, start, moves)
        if not sf.legal_moves(VARIANT, fen, []):
            continue
        counts = [perft(fen, [], d) for d in range(1, depth + 1)]
        print(fen + "".join(f" ;D{d} {n}" for d, n in enumerate(counts, 1)), flush=True)


if __name__ == "__main__":
    main()
