"""PGN as `chimera match` writes it, read just enough to gather games: split a file into games
and read each game's tags. Moves are never interpreted here; the referee is Chimera itself,
and the cluster test replays the gathered file with an independent one (python-chess).
"""

import re

TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$')


def split_games(text: str):
    """The games of a PGN text, each as its own text ending in a blank line, in file order.

    A game starts at a tag line that follows a movetext (or the file's start); `chimera match`
    writes the tags, a blank line, the movetext and a blank line per game.
    """
    games = []
    current = []
    in_moves = False
    for line in text.splitlines():
        is_tag = TAG.match(line) is not None
        if is_tag and in_moves:
            games.append(current)
            current = []
            in_moves = False
        elif not is_tag and line.strip():
            in_moves = True
        current.append(line)
    if current and any(l.strip() for l in current):
        games.append(current)
    return ["\n".join(g).rstrip("\n") + "\n\n" for g in games]


def tags(game_text: str) -> dict:
    """The tags of one game's text."""
    out = {}
    for line in game_text.splitlines():
        m = TAG.match(line)
        if m:
            out[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
        elif line.strip():
            break
    return out


def game_number(game_tags: dict) -> int:
    """The game's number in the match, 0-based (its Round tag less one)."""
    return int(game_tags["Round"]) - 1


def first_engine_points(game_tags: dict):
    """The first engine's points in a game (1, 0.5, 0); None for an unfinished game (`*`).

    The first engine has White in the even games (0-based) of a match: the runner's rule
    (matchplay/src/runner.rs), read from the Round tag because both engines may have one name.
    """
    result = game_tags.get("Result", "*")
    if result == "1/2-1/2":
        return 0.5
    if result not in ("1-0", "0-1"):
        return None
    first_white = game_number(game_tags) % 2 == 0
    return 1.0 if (result == "1-0") == first_white else 0.0
