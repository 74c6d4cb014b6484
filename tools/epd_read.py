"""The EPD reading that the Python tools share: each position of a suite as a python-chess
board with its operations left as text, since python-chess's own EPD parser rejects some
operations the suites hold (Win At Chess's pv, for one), and the few operations the tools
read."""

import re

import chess


def positions(path):
    """Yields (line number, board, operations text) for each EPD line of `path`."""
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split(None, 4)
            board = chess.Board(" ".join(fields[:4]) + " 0 1")
            yield number, board, fields[4] if len(fields) > 4 else ""


def moves(ops, code):
    """The SAN moves of operation `code` (bm, am) in `ops`; empty when it is absent."""
    found = re.search(r"\b" + code + r" ([^;]*);", ops)
    return found.group(1).split() if found else []


def ident(ops, number):
    """The id of a position, or its line number."""
    found = re.search(r'\bid "([^"]*)"', ops)
    return found.group(1) if found else f"line {number}"
