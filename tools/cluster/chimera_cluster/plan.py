"""The datagen shard plan: which seed each shard gets and how many shards a run keeps.

A shard is one `chimera datagen --threads 1 --games G --seed S` run into a file of its own.
Its bytes depend only on the settings and its seed (a fixed node count makes the search
deterministic, and one thread writes the games in order), so the output, the shards
concatenated in shard order, depends only on the seeds and never on how many workers made it
or in which order they finished.

Shard k's seed is a bijective mix of the base seed and k: distinct shards of one run always get
distinct seeds (so their openings differ), and runs with nearby base seeds do not share shards
the way `base + k` would (base 1's shard 1 would be base 2's shard 0).
"""

MASK = (1 << 64) - 1


def mix64(x: int) -> int:
    """SplitMix64's finaliser: a bijection of 64-bit integers that scatters nearby inputs."""
    x &= MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def shard_seed(base: int, shard: int) -> int:
    """The `--seed` of shard `shard` of a run with base seed `base`.

    For a fixed base this is a bijection of the shard number (mix, xor a constant, mix), so
    two shards of one run never share a seed.
    """
    return mix64((base & MASK) ^ mix64(shard))


def shards_wanted(finished_positions, known_shard_sizes, target, in_flight, capacity):
    """How many more shards to start now: enough that the shards finished (holding
    `finished_positions`) and the `in_flight` ones under way are expected to reach `target`
    positions, never more than `capacity` at once.

    The expectation uses the mean size of the shards seen so far (none seen: fill the
    capacity, the first shards measure it). A shard started and then not needed is not lost:
    it stays on disk for the next run of the same output.
    """
    missing = target - finished_positions
    if missing <= 0:
        return 0
    free = max(0, capacity - in_flight)
    if not known_shard_sizes:
        return free
    mean = max(1.0, sum(known_shard_sizes) / len(known_shard_sizes))
    # Round up: a last shard short of the target would only leave the run waiting for one more.
    needed = int(-(-missing // mean)) - in_flight
    return max(0, min(free, needed))
