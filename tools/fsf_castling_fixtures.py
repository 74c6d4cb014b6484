#!/usr/bin/env python3
"""Writes tests/data/fsf/castling-keys.txt: positions of three sections of Fairy-Stockfish's
variants.ini (wildebeest: pawn triple steps and their e.p. squares; castle: castlingWins;
opposite-castling: oppositeCastling), each reached by moves from the start position, with the
FEN, the game end and the perft counts that pyffish (Fairy-Stockfish's Python binding,
`pip install pyffish`) gives. tests/fsf_castling.rs replays the moves in Chimera and checks all
three.

usage: fsf_castling_fixtures.py [VARIANTS_INI] > tests/data/fsf/castling-keys.txt

Positions: hand-picked lines where the rule matters, then seeded random games of which those
positions are kept where the rule shows (an e.p. square after a triple step; castling rights of
one side only, or a castling move available). Perft stops at the first depth above CAP nodes (twice that from the start
position: depth 4 of castle and opposite-castling).

Line format: variant;moves;FEN;end;counts, where moves are the UCI moves from the start
(space-separated, `-` for none), end is `-` while the game goes on or `win`/`loss`/`draw` for the
side to move when the position ends the game, counts are the perft counts from depth 1 on,
space-separated."""

import random
import re
import sys

import pyffish

CAP = 20_000
MAX_DEPTH = 4

# Lines where the rules matter (UCI moves from each variant's start position).
LINES = {
    "wildebeest": [
        # A triple step past a pawn that can take e.p. on the near square only.
        "a2a3 e9e6 a3a4 e6e5 a4a5 e5e4 d2d5",
        "a2a3 e9e6 a3a4 e6e5 a4a5 e5e4 f2f5",
        # Past two pawns: one takes e.p. on the near square, one on the far square.
        "d2d4 e9e7 d4d5 e7e6 d5d6 k9k8 k2k3 f9f6 k3k4 f6f5 k4k5 f5f4 g2g5",
        # Black triple steps past white pawns (both squares passed can be taken).
        "d2d5 a9a8 d5d6 a8a7 f2f4 a7a6 f4f5 a6a5 f5f6 a5a4 d6d7 e9e6",
        "d2d5 a9a8 d5d6 a8a7 f2f4 a7a6 f4f5 a6a5 f5f6 a5a4 d6d7 g9g6",
        # A double step from the third rank (in doubleStepRegion, not in tripleStepRegion).
        "e2e3 d9d6 e3e5 d6d5",
        "e2e3 d9d6 e3e5",
    ],
    "castle": [
        # White castles: no win (castlingWins = q is Black's queenside castling only).
        "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1",
        # Black castles kingside and so loses its queenside right: Black loses.
        "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1 e8g8",
        # Black castles queenside: Black wins.
        "d2d4 d7d5 c1f4 c8f5 b1c3 b8c6 d1d2 d8d7 e1c1 e8c8",
        "d2d4 d7d5 c1f4 c8f5 b1c3 b8c6 d1d2 d8d7 e1c1",
        # Black's queen's rook moves: Black loses.
        "a2a4 a7a5 a1a3 a8a6",
        # Black's king moves: Black loses.
        "e2e4 e7e5 d2d4 e8e7",
        # White's king moves: White had no winning right, the game goes on.
        "e2e4 e7e5 e1e2",
        "e2e4 e7e5 e1e2 b8c6",
    ],
    "opposite-castling": [
        # White castles kingside: Black may castle queenside only.
        "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1",
        "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1 b8c6 d2d3 d7d6 c1g5 c8g4 b1c3 d8d7",
        # White castles queenside: Black may castle kingside only.
        "d2d4 d7d5 c1f4 c8f5 b1c3 b8c6 d1d2 d8d7 e1c1",
        "d2d4 d7d5 c1f4 c8f5 b1c3 b8c6 d1d2 d8d7 e1c1 e7e6 g1f3 g8f6",
        # Black castles first.
        "g1f3 e7e5 g2g3 g8f6 f1g2 f8c5 d2d3 e8g8",
        "g1f3 e7e5 g2g3 g8f6 f1g2 f8c5 d2d3 e8g8 b1c3 d7d6 c1e3",
    ],
}


def perft(variant, fen, moves, depth):
    legal = pyffish.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)


def counts(variant, fen, cap):
    out = []
    for d in range(1, MAX_DEPTH + 1):
        n = perft(variant, fen, [], d)
        out.append(n)
        if n > cap or n == 0:
            break
    return out


def end(variant, start, moves):
    """The game end for the side to move, from the moves (a winning castling shows only in the
    move played, not in the FEN)."""
    over, _ = pyffish.is_immediate_game_end(variant, start, moves)
    if not over and pyffish.legal_moves(variant, start, moves):
        return "-"
    value = pyffish.game_result(variant, start, moves)
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def interesting(variant, fen):
    """True when the rule shows in the position."""
    fields = fen.split()
    if variant == "wildebeest":
        return fields[3] != "-"
    rights = fields[2]
    one_sided = rights != "-" and (rights.isupper() or rights.islower())
    return one_sided or rights in ("Kq", "Qk", "kQ", "qK")


def castles_or_steps(variant, move):
    """True for a king's move of two files or more from e1/e8 (castling), and in wildebeest
    for a move of three ranks (a pawn's triple step, or a piece that leaps as far)."""
    m = re.fullmatch(r"([a-z])(\d+)([a-z])(\d+)", move)
    if not m:
        return False
    f1, r1, f2, r2 = m.group(1), int(m.group(2)), m.group(3), int(m.group(4))
    if variant == "wildebeest":
        return f1 == f2 and abs(r1 - r2) == 3
    return move[:2] in ("e1", "e8") and abs(ord(f1) - ord(f2)) >= 2


def random_lines(variant, games, seed):
    rng = random.Random(seed)
    start = pyffish.start_fen(variant)
    found = []
    for _ in range(games):
        moves = []
        for _ in range(rng.randint(8, 60)):
            legal = pyffish.legal_moves(variant, start, moves)
            if not legal:
                break
            # Favour castling and pawn steps, where these rules live.
            special = [m for m in legal if castles_or_steps(variant, m)]
            pick = rng.choice(sorted(special)) if special and rng.random() < 0.7 else rng.choice(sorted(legal))
            moves.append(pick)
            fen = pyffish.get_fen(variant, start, moves)
            if interesting(variant, fen):
                found.append(list(moves))
                break
    return found


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "tests/data/fsf/variants.ini"
    with open(path) as f:
        pyffish.load_variant_config(f.read())
    print("# Positions of Fairy-Stockfish's wildebeest, castle and opposite-castling (its variants.ini)")
    print("# reached by the moves given, with the FEN, game end and perft that pyffish 0.0.90 (Fairy-")
    print("# Stockfish's Python binding, GPL-3.0) gives; figures kept as facts. Written by")
    print("# tools/fsf_castling_fixtures.py. Format: variant;moves;FEN;end;perft counts from depth 1.")
    for variant in ("wildebeest", "castle", "opposite-castling"):
        start = pyffish.start_fen(variant)
        lines = [[]] + [l.split() for l in LINES[variant]]
        lines += random_lines(variant, 12, 37)
        for moves in lines:
            fen = pyffish.get_fen(variant, start, moves)
            # Depth 4 from the start position, smaller counts elsewhere.
            c = counts(variant, fen, CAP if moves else 2 * CAP)
            text = " ".join(moves) if moves else "-"
            print(f"{variant};{text};{fen};{end(variant, start, moves)};{' '.join(map(str, c))}", flush=True)


if __name__ == "__main__":
    main()
