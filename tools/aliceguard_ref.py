#!/usr/bin/env python3
"""An independent, deliberately plain move generator for Alice Guard Chess, written from
docs/rules.md §2 alone (it shares no code or tables with Chimera), used to make reference
perft counts: it plays seeded random games, takes positions along the way, and prints each with
its counts in the format of tests/data/perft/*.epd (`<FEN> ;D1 n ;D2 n ...`), FENs in Chimera's
wide 24x8 form (see docs/rules.md §2.10: boards w, g, b = files a-h, i-p, q-x; Home set
K Q R B N P, Guard set G D T L S F; side field `w`/`b` Home part, `w1`/`b1` Guard part, `w2`
White's first turn).

usage: aliceguard_ref.py [GAMES] [DEPTH] [SEED] > tests/data/perft/aliceguard-random.epd

Conventions matching Chimera's (documented there): perft counts plies (turn parts); a Home part
is legal only if some Guard part follows it; after a King is taken, the side without its King
has no moves."""

import random
import sys

HOME, GUARD = "KQRBNP", "GDTLSF"
# The moves of each letter (upper case), by the orthodox piece it moves like.
LIKE = {"K": "K", "G": "K", "Q": "Q", "D": "Q", "R": "R", "T": "R", "B": "B", "L": "B",
        "N": "N", "S": "N", "P": "P", "F": "P"}
ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
PROMO = {"P": "QRBN", "F": "DTLSG"}
START = ("8tsldglstrnbqkbnr/8ffffffffpppppppp/24/24/24/24/"
         "PPPPPPPPFFFFFFFF8/RNBQKBNRTSLDGLST8 w2 - - 0 1")


def parse(fen):
    """(men: {(board, file, rank): letter}, white_to_move, phase)."""
    fields = fen.split()
    men = {}
    for row, text in enumerate(fields[0].split("/")):
        rank, col, i = 7 - row, 0, 0
        while i < len(text):
            if text[i].isdigit():
                j = i
                while j < len(text) and text[j].isdigit():
                    j += 1
                col += int(text[i:j])
                i = j
            else:
                men[(col // 8, col % 8, rank)] = text[i]
                col += 1
                i += 1
    side = fields[1]
    return men, side[0] == "w", int(side[1:] or 0)


def fen(men, white, phase):
    rows = []
    for rank in range(7, -1, -1):
        text, empty = "", 0
        for col in range(24):
            m = men.get((col // 8, col % 8, rank))
            if m is None:
                empty += 1
            else:
                text += (str(empty) if empty else "") + m
                empty = 0
        rows.append(text + (str(empty) if empty else ""))
    side = ("w" if white else "b") + (str(phase) if phase else "")
    return "/".join(rows) + " " + side + " - - 0 1"


def is_white(m):
    return m.isupper()


def targets(men, sq, m):
    """One-board moves of the man m on sq: (file, rank, captures)."""
    b, f, r = sq
    kind, white = LIKE[m.upper()], is_white(m)
    out = []

    def at(ff, rr):
        return men.get((b, ff, rr))

    def inside(ff, rr):
        return 0 <= ff < 8 and 0 <= rr < 8

    if kind == "P":
        d = 1 if white else -1
        if inside(f, r + d) and at(f, r + d) is None:
            out.append((f, r + d, False))
            start = 1 if white else 6
            if r == start and at(f, r + 2 * d) is None:
                out.append((f, r + 2 * d, False))
        for df in (-1, 1):
            ff, rr = f + df, r + d
            if inside(ff, rr) and at(ff, rr) is not None and is_white(at(ff, rr)) != white:
                out.append((ff, rr, True))
        return out
    steps = {"K": ORTH + DIAG, "N": KNIGHT, "R": ORTH, "B": DIAG, "Q": ORTH + DIAG}[kind]
    slides = kind in "RBQ"
    for df, dr in steps:
        ff, rr = f + df, r + dr
        while inside(ff, rr):
            there = at(ff, rr)
            if there is None:
                out.append((ff, rr, False))
            else:
                if is_white(there) != white:
                    out.append((ff, rr, True))
                break
            if not slides:
                break
            ff, rr = ff + df, rr + dr
    return out


def defended(men, board, f, r, white):
    """A Home man of `white`'s side on `board` attacks (f, r) by his ordinary move."""
    for (b, ff, rr), m in men.items():
        if b != board or is_white(m) != white or m.upper() not in HOME:
            continue
        kind = LIKE[m.upper()]
        if kind == "P":
            d = 1 if white else -1
            if rr + d == r and abs(ff - f) == 1:
                return True
            continue
        if kind == "N":
            if (f - ff, r - rr) in KNIGHT:
                return True
            continue
        if kind == "K":
            if max(abs(f - ff), abs(r - rr)) == 1:
                return True
            continue
        df, dr = f - ff, r - rr
        if (df, dr) == (0, 0):
            continue
        straight = df == 0 or dr == 0
        diagonal = abs(df) == abs(dr)
        if not (straight and kind in "RQ" or diagonal and kind in "BQ"):
            continue
        sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
        cf, cr, clear = ff + sf, rr + sr, True
        while (cf, cr) != (f, r):
            if (board, cf, cr) in men:
                clear = False
                break
            cf, cr = cf + sf, cr + sr
        if clear:
            return True
    return False


def part_moves(men, white, phase):
    """Pseudo-legal moves of the part: (from, to, promotion letter or None)."""
    letters = HOME if phase == 0 else GUARD
    out = []
    for sq, m in list(men.items()):
        if is_white(m) != white or m.upper() not in letters:
            continue
        b = sq[0]
        dests = [1] if b in (0, 2) else [0, 2]
        for f, r, captures in targets(men, sq, m):
            if captures and m.upper() in HOME:
                continue
            for d in dests:
                if (d, f, r) in men:
                    continue
                if captures and not defended(men, d, f, r, white):
                    continue
                last = 7 if white else 0
                if m.upper() in PROMO and r == last:
                    for p in PROMO[m.upper()]:
                        out.append((sq, (d, f, r), p if white else p.lower()))
                else:
                    out.append((sq, (d, f, r), None))
    return out


def play(men, white, phase, mv):
    frm, to, promo = mv
    new = dict(men)
    m = new.pop(frm)
    new.pop((frm[0], to[1], to[2]), None)  # the capture, on the origin board
    new[to] = promo or m
    if phase == 0:
        return new, white, 1
    return new, not white, 0


def king_lost(men, white):
    return ("K" if white else "k") not in men.values()


def legal(men, white, phase):
    if king_lost(men, white):
        return []
    moves = part_moves(men, white, phase)
    if phase != 0:
        return moves
    # A Home part must leave a Guard part.
    return [mv for mv in moves if part_moves(*play(men, white, phase, mv))]


def perft(men, white, phase, depth):
    moves = legal(men, white, phase)
    if depth == 1:
        return len(moves)
    return sum(perft(*play(men, white, phase, mv), depth - 1) for mv in moves)


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 11)
    print("# Alice Guard positions from seeded random games, counted by tools/aliceguard_ref.py,")
    print("# an independent generator written from docs/rules.md section 2 (perft counts turn parts).")
    for _ in range(games):
        state = parse(START)
        for _ in range(rng.randint(4, 80)):
            moves = legal(*state)
            if not moves:
                break
            # Prefer captures now and then, so that the positions hold some.
            caps = [mv for mv in moves if (mv[0][0], mv[1][1], mv[1][2]) in state[0]]
            pick = rng.choice(caps) if caps and rng.random() < 0.5 else rng.choice(moves)
            state = play(*state, pick)
        if not legal(*state):
            continue
        counts = [perft(*state, d) for d in range(1, depth + 1)]
        print(fen(*state) + "".join(f" ;D{d} {n}" for d, n in enumerate(counts, 1)), flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--start":
        s = parse(START)
        print([perft(*s, d) for d in range(1, int(sys.argv[2]) + 1)])
    else:
        main()
