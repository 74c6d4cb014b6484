#!/usr/bin/env python3
"""Fixture generator: perft of Fairy-Stockfish's petrifying and exploding variants from
positions reached by seeded random play, counted by pyffish (Fairy-Stockfish's Python binding,
`pip install pyffish`), for tests/data/fsf/petrify.epd.

usage: petrify_fixtures.py [SEED] > tests/data/fsf/petrify.epd

Variants: the built-in `petrified`, and `nuclear` and `atomicduck` from
tests/data/fsf/variants.ini. Random games prefer captures, so that most positions come right
after a petrification or an explosion (next to the duck in atomicduck); each position is
kept with its perft to depth 3 (2 with the duck, whose moves are many), the start positions
to depth 4 (2 with the duck). Output lines: `<variant> <FEN> ;D1 n ;D2 n ...`."""

import os
import random
import sys

import pyffish

HERE = os.path.dirname(os.path.abspath(__file__))
INI = os.path.join(HERE, "..", "tests", "data", "fsf", "variants.ini")

# Variant, positions from random play, perft depth of those, perft depth of the start.
PLAN = [("petrified", 14, 3, 4), ("nuclear", 14, 3, 4), ("atomicduck", 10, 2, 2)]


def perft(variant, fen, moves, depth):
    legal = pyffish.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)


def is_capture(variant, fen, move):
    return pyffish.get_san(variant, fen, move).find("x") >= 0


def random_positions(variant, count, rng):
    """Positions just after a capture (a petrification or an explosion), from random games
    that take a capture with probability 0.7 whenever there is one."""
    start = pyffish.start_fen(variant)
    out = []
    tries = 0
    while len(out) < count and tries < count * 20:
        tries += 1
        moves = []
        fen = start
        plies = rng.randint(4, 50)
        captured_last = False
        for _ in range(plies):
            legal = sorted(pyffish.legal_moves(variant, start, moves))
            if not legal:
                break
            caps = [m for m in legal if is_capture(variant, fen, m)]
            if caps and rng.random() < 0.7:
                mv = rng.choice(caps)
                captured_last = True
            else:
                mv = rng.choice(legal)
                captured_last = mv in caps
            moves.append(mv)
            fen = pyffish.get_fen(variant, start, moves)
        if not captured_last or not pyffish.legal_moves(variant, fen, []):
            continue
        if fen not in out:
            out.append(fen)
    return out


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 37
    with open(INI) as f:
        pyffish.load_variant_config(f.read())
    rng = random.Random(seed)
    print(f"# Perft from pyffish {'.'.join(map(str, pyffish.version()))} "
          f"(tools/petrify_fixtures.py {seed}); variants.ini sections: nuclear, atomicduck.")
    for variant, count, depth, start_depth in PLAN:
        start = pyffish.start_fen(variant)
        fens = [(start, start_depth)] + [(f, depth) for f in random_positions(variant, count, rng)]
        for fen, d in fens:
            counts = [perft(variant, fen, [], k) for k in range(1, d + 1)]
            print(f"{variant} {fen}" + "".join(f" ;D{k} {n}" for k, n in enumerate(counts, 1)),
                  flush=True)


if __name__ == "__main__":
    main()
