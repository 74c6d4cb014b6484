#!/usr/bin/env python3
"""Writes a mirror image of an EPD test suite (bm/am in SAN), so that a search change can be
judged on more than one suite: the mirrored positions hold the same tactics, but the engine
meets their men and moves in another order, so its tree, and the noise of any one budget's
count, differ. With `colors`, the board is turned upside down and the colours swapped (every
position has one); with `files`, the files are reversed (a-file to h-file), and positions that
still have a castling right are left out, since castling does not mirror that way. Each id gets
`-c` or `-f` appended.

usage: tools/epd_mirror.py SUITE colors|files > MIRRORED.epd
  e.g. tools/epd_mirror.py tests/data/wac.epd colors > /tmp/wac-colors.epd
needs: python-chess (`pip install chess`)
"""

import sys

import chess

import epd_read


def mirrored_move(move, flip):
    """The move `move` on the board mirrored by `flip` (a function of squares)."""
    return chess.Move(flip(move.from_square), flip(move.to_square), move.promotion)


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("colors", "files"):
        sys.exit(__doc__)
    path, mode = sys.argv[1], sys.argv[2]
    if mode == "colors":
        flip = chess.square_mirror
    else:
        flip = lambda s: chess.square(7 - chess.square_file(s), chess.square_rank(s))
    for number, board, ops in epd_read.positions(path):
        if mode == "colors":
            image = board.mirror()
        elif board.castling_rights:
            continue
        else:
            image = board.transform(chess.flip_horizontal)
        out = " ".join(image.fen().split()[:4])
        for code in ("bm", "am"):
            listed = [
                image.san(mirrored_move(board.parse_san(s), flip))
                for s in epd_read.moves(ops, code)
            ]
            if listed:
                out += f" {code} {' '.join(listed)};"
        print(f'{out} id "{epd_read.ident(ops, number)}-{mode[0]}";')

if __name__ == "__main__":
    main()
