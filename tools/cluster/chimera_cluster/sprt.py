"""Match statistics, the same formulas as `chimera match` (matchplay/src/stats.rs), so that a
match played on a cluster stops where the one-machine runner would: the logistic Elo with a 95%
error bar, and the GSPRT: the generalised log-likelihood ratio over the win/draw/loss trinomial,
each hypothesis taking the most likely distribution with its expected score, against Wald's
bounds ln(beta/(1-alpha)) and ln((1-beta)/alpha).

Written again in Python rather than asked of the binary because the driver needs the ratio
after every game; `tests/play/cluster.rs` checks it against the Rust code on a grid of results.
"""

import math

Z_95 = 1.959963984540054
MAX_SPRT_ELO = 1200.0
OUTCOME_SCORES = (1.0, 0.5, 0.0)
# As in stats.rs: keeps an outcome not seen yet possible, so every hypothesis has a
# distribution, while too small to move the ratio once games come in.
PSEUDO_COUNT = 1e-3


def expected_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score: float) -> float:
    return -400.0 * math.log10(1.0 / score - 1.0)


class Tally:
    """Wins, draws and losses of the first engine."""

    def __init__(self, wins=0, draws=0, losses=0):
        self.wins, self.draws, self.losses = wins, draws, losses

    def games(self):
        return self.wins + self.draws + self.losses

    def add(self, points: float):
        """Counts one game scored `points` (1, 0.5, 0) for the first engine."""
        if points == 1.0:
            self.wins += 1
        elif points == 0.0:
            self.losses += 1
        else:
            self.draws += 1

    def score(self):
        n = self.games()
        return None if n == 0 else (self.wins + self.draws / 2.0) / n

    def elo(self):
        s = self.score()
        return elo_from_score(s) if s is not None and 0.0 < s < 1.0 else None

    def elo_error(self):
        s = self.score()
        if s is None:
            return None
        n = self.games()
        var = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s ** 2) / n
        if var <= 0.0:
            return None
        se = math.sqrt(var / n)
        lo, hi = s - Z_95 * se, s + Z_95 * se
        if not (lo > 0.0 and hi < 1.0):
            return None
        return (elo_from_score(hi) - elo_from_score(lo)) / 2.0

    def __repr__(self):
        return f"{self.wins}-{self.draws}-{self.losses}"


def signed(x: float) -> str:
    """`+1.5`, `-0.3`, never `-0.0`: the Rust runner's format."""
    x = 0.0 if x == 0.0 else x
    return f"{'+' if x >= 0 else ''}{x:.1f}"


def result_line(t: Tally) -> str:
    """The last line of `chimera match`'s summary, word for word, for scripts that read it."""
    e, err = t.elo(), t.elo_error()
    if e is None:
        elo, err_text = "n/a", "inf"
    else:
        elo, err_text = signed(e), ("inf" if err is None else f"{err:.1f}")
    score = 100.0 * (t.score() or 0.0)
    return (f"Result: {t.wins}-{t.draws}-{t.losses} {t.games()} games, score {score:.1f}%, "
            f"Elo {elo} +/- {err_text}")


def most_likely_trinomial(counts, score):
    """The win/draw/loss probabilities of greatest likelihood for `counts` among those with
    expected score `score`: p_i = f_i / (1 + lambda (x_i - score)), lambda by bisection on the
    interval that keeps every denominator positive (see stats.rs for the derivation)."""
    smoothed = [c + PSEUDO_COUNT for c in counts]
    total = sum(smoothed)
    freq = [c / total for c in smoothed]
    dev = [x - score for x in OUTCOME_SCORES]

    def excess(lam):
        return sum(freq[i] * dev[i] / (1.0 + lam * dev[i]) for i in range(3))

    lo, hi = -1.0 / dev[0], -1.0 / dev[2]
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if excess(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    lam = 0.5 * (lo + hi)
    return [freq[i] / (1.0 + lam * dev[i]) for i in range(3)]


class Sprt:
    """The SPRT's hypotheses and error rates, read from `elo0=X elo1=Y [alpha=A] [beta=B]`."""

    def __init__(self, elo0, elo1, alpha=0.05, beta=0.05):
        if not elo1 > elo0:
            raise ValueError("--sprt: elo1 must be greater than elo0")
        if abs(elo0) > MAX_SPRT_ELO or abs(elo1) > MAX_SPRT_ELO:
            raise ValueError(f"--sprt: elo0 and elo1 must lie within +/-{MAX_SPRT_ELO:.0f}")
        if not (0.0 < alpha < 0.5 and 0.0 < beta < 0.5):
            raise ValueError("--sprt: alpha and beta must lie between 0 and 0.5")
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta

    @staticmethod
    def parse(words):
        """From `chimera match`'s words: `["elo0=0", "elo1=5", "alpha=0.05"]`."""
        values = {"alpha": 0.05, "beta": 0.05}
        for word in words:
            key, eq, value = word.partition("=")
            if not eq:
                raise ValueError(f"--sprt: '{word}' is not key=value")
            if key not in ("elo0", "elo1", "alpha", "beta"):
                raise ValueError(f"--sprt: unknown key '{key}'")
            try:
                values[key] = float(value)
            except ValueError:
                raise ValueError(f"--sprt: bad number in '{word}'") from None
            if not math.isfinite(values[key]):
                raise ValueError(f"--sprt: bad number in '{word}'")
        if "elo0" not in values or "elo1" not in values:
            raise ValueError("--sprt needs elo0=X elo1=Y")
        return Sprt(values["elo0"], values["elo1"], values["alpha"], values["beta"])

    def bounds(self):
        return (math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha))

    def llr(self, t: Tally) -> float:
        if t.games() == 0:
            return 0.0
        counts = [float(t.wins), float(t.draws), float(t.losses)]
        h0 = most_likely_trinomial(counts, expected_score(self.elo0))
        h1 = most_likely_trinomial(counts, expected_score(self.elo1))
        return sum(counts[i] * math.log(h1[i] / h0[i]) for i in range(3))

    def verdict(self, t: Tally) -> str:
        """`H1`, `H0` or `continue`."""
        llr = self.llr(t)
        lo, hi = self.bounds()
        if llr >= hi:
            return "H1"
        if llr <= lo:
            return "H0"
        return "continue"

    def describe(self):
        return f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g}"
