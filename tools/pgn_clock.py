#!/usr/bin/env python3
"""How each engine of a match spent its clock, from the `{Nms, Nms left}` comments that
`chimera match` writes after every move of a timed game.

Per engine and per stretch of the game (its own moves 1-10, 11-20, 21-40, 41-80, 81 on): the
mean time a move took, the mean share of the clock (what was on it before the move) that the
move took, and the least time it ever had left. A time manager that spends too much early shows
a share far above the optimum (about 1/32 of the clock plus the increment, at sudden death with
an increment) in the first stretches and little left later.

usage: tools/pgn_clock.py GAMES.pgn [GAMES.pgn ...]
"""

import re
import sys
from collections import defaultdict

STRETCHES = [(1, 10), (11, 20), (21, 40), (41, 80), (81, 10**9)]
TAG = re.compile(r'\[(\w+) "([^"]*)"\]')
CLOCK = re.compile(r"\{(\d+)ms, (\d+)ms left\}")


def games(paths):
    """Yields (white, black, [(side, spent_ms, left_ms), ...] in the order the moves were
    made), side 0 for White and 1 for Black; moves without a clock comment (the random
    opening) are left out."""
    token = re.compile(r"\{[^}]*\}|\d+\.\.\.|\d+\.|[^\s{}]+")
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for chunk in re.split(r"\n(?=\[Event )", text):
            tags = dict(TAG.findall(chunk))
            if "White" not in tags:
                continue
            moves = []
            side = 0
            last = None
            for tok in token.findall(TAG.sub("", chunk)):
                if tok.endswith("..."):
                    side = 1
                elif tok.endswith(".") and tok[:-1].isdigit():
                    side = 0
                elif tok.startswith("{"):
                    clock = CLOCK.match(tok)
                    if clock and last is not None:
                        moves.append((last, int(clock.group(1)), int(clock.group(2))))
                elif tok in ("1-0", "0-1", "1/2-1/2", "*"):
                    break
                else:
                    last = side
                    side ^= 1
            yield tags["White"], tags["Black"], moves


def stretch_of(n):
    for i, (lo, hi) in enumerate(STRETCHES):
        if lo <= n <= hi:
            return i
    return len(STRETCHES) - 1


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    # engine -> stretch -> [count, spent sum, share sum]; engine -> least time left
    table = defaultdict(lambda: [[0, 0, 0.0] for _ in STRETCHES])
    least = {}
    count = 0
    for white, black, moves in games(sys.argv[1:]):
        count += 1
        seen = [0, 0]
        for side, spent, left in moves:
            engine = (white, black)[side]
            seen[side] += 1
            n = seen[side]
            row = table[engine][stretch_of(n)]
            before = spent + left
            row[0] += 1
            row[1] += spent
            row[2] += spent / before if before else 0.0
            least[engine] = min(least.get(engine, left), left)
    print(f"{count} games")
    head = "engine".ljust(24) + "".join(
        f"{f'{lo}-{hi}' if hi < 10**9 else f'{lo}+':>18}" for lo, hi in STRETCHES
    )
    print(head + "   least left")
    for engine, rows in sorted(table.items()):
        cells = ""
        for n, spent, share in rows:
            cells += f"{'-':>18}" if n == 0 else f"{spent / n:9.0f}ms {100 * share / n:5.1f}%"
        print(engine.ljust(24) + cells + f"   {least[engine]} ms")


if __name__ == "__main__":
    main()
