#!/usr/bin/env python3
"""Fixture generator: perft of Fairy-Stockfish's petrifying and exploding variants from
positions reached by seeded random play, counted by pyffish (Fairy-Stockfish's Python binding,
`pip install pyffish`), for tests/data/fsf/petrify.epd.

usage: petrify_fixtures.py SEED [VARIANT...] >> tests/data/fsf/petrify.epd
(the fixture: `petrify_fixtures.py 37 petrified nuclear` then `petrify_fixtures.py 37 atomicduck`;
one random stream per run, through the variants in the order given)

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


def board_of(fen):
    """The placement field of a FEN as a map from square names to piece letters."""
    board = {}
    rows = fen.split()[0].split("/")
    for r, row in enumerate(rows):
        rank = len(rows) - r
        f = 0
        num = ""
        for ch in row + " ":
            if ch.isdigit():
                num += ch
                continue
            if num:
                f += int(num)
                num = ""
            if ch in " ~":
                continue
            board[f"{chr(ord('a') + f)}{rank}"] = ch
            f += 1
    return board


def is_capture(fen, move):
    """True when `move` (UCI, with `,duck` after it) takes a man: an enemy man on its
    target square, or a pawn's move to the e.p. square."""
    fields = fen.split()
    board = board_of(fen)
    base = move.split(",")[0]
    frm, to = base[:2], base[2:4]
    mover, target = board.get(frm, ""), board.get(to, "")
    if target and target != "*" and target.isupper() != mover.isupper():
        return True
    # Fairy-Stockfish may name several e.p. squares in one field (`b3b4`).
    ep = fields[3] if len(fields) > 3 else "-"
    ep_squares = [ep[i:i + 2] for i in range(0, len(ep), 2)]
    return mover.lower() == "p" and to in ep_squares and frm[0] != to[0]


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
            caps = [m for m in legal if is_capture(fen, m)]
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
    chosen = sys.argv[2:] or [v for v, *_ in PLAN]
    with open(INI) as f:
        pyffish.load_variant_config(f.read())
    rng = random.Random(seed)
    print(f"# Perft from pyffish {'.'.join(map(str, pyffish.version()))} "
          f"(tools/petrify_fixtures.py {seed} {' '.join(chosen)})")
    for variant, count, depth, start_depth in PLAN:
        if variant not in chosen:
            continue
        start = pyffish.start_fen(variant)
        fens = [(start, start_depth)] + [(f, depth) for f in random_positions(variant, count, rng)]
        for fen, d in fens:
            counts = [perft(variant, fen, [], k) for k in range(1, d + 1)]
            print(f"{variant} {fen}" + "".join(f" ;D{k} {n}" for k, n in enumerate(counts, 1)),
                  flush=True)


if __name__ == "__main__":
    main()
