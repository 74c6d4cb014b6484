"""Chimera on a Ray cluster: `chimera datagen` and `chimera match` spread over many machines.

The package drives Chimera's own commands as Ray tasks rather than reimplementing them: a
datagen shard is one `chimera datagen --threads 1` run, a match task is one game pair played by
`chimera match --first-pair K --games 2`. Ray does the scheduling; this package decides what
the work is (`plan`), gathers it into one file in a fixed order (`datafile`, `pgn`), and keeps
the statistics (`sprt`). Only `tasks`, `datagen` and `match` import Ray, so the pure parts and
their unit tests run without it.
"""

__version__ = "0.1.0"
