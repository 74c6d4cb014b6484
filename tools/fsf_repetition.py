#!/usr/bin/env python3
"""Writes tests/data/fsf/repetition.txt: move sequences of xiangqi and janggi (modern rules)
with Fairy-Stockfish's verdict on the position they reach, for tests/repetition_rules.rs.

Each record is `variant;fen;moves;ended;result`: pyffish's is_optional_game_end after the moves
(`ended` 0/1; `result` win, loss or draw for the side to move). Every shorter prefix of a
record's moves is not an optional game end in Fairy-Stockfish. Three kinds of sequences:
hand-built chases (a horse or cannon on an undefended or defended rook, mutual and double
chases), random repetition cycles (two moves of each side played forth and back twice from a
position of random play), and janggi men moved back and forth while the other side plays at
random. Needs pyffish (pip install pyffish; 0.0.90 was used)."""

import random
import sys

import pyffish as sf

HAND_BUILT = [
    # A horse chases an undefended rook on each of its moves: the horse's side loses.
    ("xiangqi", "5k3/9/9/9/r8/9/N8/9/9/3K5 w - - 0 1", "a4c5 a6b6 c5a4 b6a6"),
    # The rook, moving away, attacks the undefended horse on each of its moves: it loses.
    ("xiangqi", "5k3/9/9/9/9/r8/N8/9/9/3K5 w - - 0 1", "a4b2 a5b5 b2a4 b5a5"),
    # The same chase of a rook that a cannon defends... still a chase (stronger man).
    ("xiangqi", "5k3/9/9/9/r8/9/N8/9/9/c2K5 w - - 0 1", "a4c5 a6b6 c5a4 b6a6"),
    # A cannon chases an undefended rook over its screens; without a screen, no attack.
    ("xiangqi", "3k5/9/9/9/9/9/9/r8/pp7/1C2K4 w - - 0 1", "b1a1 a3b3 a1b1 b3a3"),
    ("xiangqi", "3k5/9/9/9/9/9/9/r8/9/2C1K4 w - - 0 1", "c1a1 a3b3 a1c1 b3a3"),
    # A rook chases an undefended horse; then a defended one (no chase).
    ("xiangqi", "3k5/9/9/9/9/9/n8/9/9/1R2K4 w - - 0 1", "b1a1 a4b2 a1b1 b2a4"),
    ("xiangqi", "3k5/9/9/9/9/r8/n8/9/9/1R2K4 w - - 0 1", "b1a1 a4b2 a1b1 b2a4"),
    # Rooks facing each other: mutual attacks are no chase.
    ("xiangqi", "3k5/9/9/9/9/r8/9/9/9/R3K4 w - - 0 1", "a1b1 a5b5 b1a1 b5a5"),
    # Perpetual check still comes first.
    ("xiangqi", "4k4/R8/9/9/9/9/9/9/4A4/3AK4 w - - 0 1", "a9a10 e10e9 a10a9 e9e10"),
]


def verdict(variant, fen, moves):
    ended, value = sf.is_optional_game_end(variant, fen, moves)
    return int(ended), "win" if value > 0 else "loss" if value < 0 else "draw"


def first_end(variant, fen, moves):
    """The shortest prefix that is an optional game end (or all of them)."""
    for n in range(1, len(moves) + 1):
        if sf.is_optional_game_end(variant, fen, moves[:n])[0]:
            return moves[:n]
    return moves


def random_position(rng, variant, plies):
    fen = sf.start_fen(variant)
    moves = []
    for _ in range(plies):
        legal = sf.legal_moves(variant, fen, moves)
        if not legal:
            return None
        moves.append(rng.choice(legal))
        if sf.is_optional_game_end(variant, fen, moves)[0]:
            return None
    return sf.get_fen(variant, fen, moves)


def square_split(m):
    # Squares like a10 are three characters: split at the second letter.
    i = next(k for k in range(1, len(m)) if m[k].isalpha())
    return m[:i], m[i:]


def rev(m):
    a, b = square_split(m)
    return b + a


def random_cycles(rng, count):
    out = []
    draws = 0
    while len(out) < count:
        fen = random_position(rng, "xiangqi", rng.randrange(6, 60))
        if fen is None:
            continue
        legal_a = sf.legal_moves("xiangqi", fen, [])
        if not legal_a:
            continue
        a = rng.choice(legal_a)
        legal_b = sf.legal_moves("xiangqi", fen, [a])
        if not legal_b:
            continue
        b = rng.choice(legal_b)
        seq = [a, b, rev(a), rev(b)]
        try:
            ok = rev(a) in sf.legal_moves("xiangqi", fen, [a, b]) and rev(b) in sf.legal_moves(
                "xiangqi", fen, [a, b, rev(a)]
            )
        except Exception:
            ok = False
        if not ok:
            continue
        # A capture cannot be taken back: the board would differ.
        if sf.get_fen("xiangqi", fen, seq).split()[0] != fen.split()[0]:
            continue
        moves = first_end("xiangqi", fen, seq * 2)
        decisive = sf.is_optional_game_end("xiangqi", fen, moves)[1] != 0
        # Most random cycles are draws: keep every decided one, and draws up to a third.
        if decisive or draws < count // 3:
            draws += not decisive
            out.append(("xiangqi", fen, " ".join(moves)))
    return out


def back_and_forth(rng, count):
    out = []
    while len(out) < count:
        fen = random_position(rng, "janggimodern", rng.randrange(4, 40))
        if fen is None:
            continue
        legal_a = sf.legal_moves("janggimodern", fen, [])
        if not legal_a:
            continue
        a = rng.choice(legal_a)
        if a[:2] == a[2:4] or "@" in a:
            continue
        moves = []
        ok = True
        for turn in range(12):
            mine = a if turn % 2 == 0 else rev(a)
            if mine not in sf.legal_moves("janggimodern", fen, moves):
                ok = False
                break
            moves.append(mine)
            if sf.is_optional_game_end("janggimodern", fen, moves)[0]:
                break
            theirs = sf.legal_moves("janggimodern", fen, moves)
            if not theirs:
                ok = False
                break
            moves.append(rng.choice(theirs))
            if sf.is_optional_game_end("janggimodern", fen, moves)[0]:
                break
        if ok:
            out.append(("janggimodern", fen, " ".join(first_end("janggimodern", fen, moves))))
    return out


def main():
    rng = random.Random(37)
    records = [(v, f, " ".join(first_end(v, f, m.split() * 3))) for v, f, m in HAND_BUILT]
    records += random_cycles(rng, 45)
    records += back_and_forth(rng, 30)
    path = sys.argv[1] if len(sys.argv) > 1 else "tests/data/fsf/repetition.txt"
    with open(path, "w") as f:
        f.write("# Generated by tools/fsf_repetition.py from pyffish %s: variant;fen;moves;"
                "ended;result (Fairy-Stockfish's is_optional_game_end after the moves).\n"
                % ".".join(map(str, sf.version())))
        for v, fen, moves in records:
            ended, result = verdict(v, fen, moves.split())
            f.write(f"{v};{fen};{moves};{ended};{result}\n")
    print(len(records), "records")


if __name__ == "__main__":
    main()
