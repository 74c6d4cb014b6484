//! Match statistics from the first engine's point of view: the score, the logistic Elo
//! difference with a 95% error bar (normal approximation over the trinomial win/draw/loss
//! distribution), and the sequential probability ratio test (GSPRT: the generalised
//! log-likelihood ratio of "Elo = elo1" against "Elo = elo0" over the trinomial itself, each
//! hypothesis taking the most likely win/draw/loss distribution with its expected score, with
//! Wald's bounds ln(beta/(1-alpha)) and ln((1-beta)/alpha)).
//!
//! The ratio is computed exactly rather than through the normal approximation because the
//! approximation takes the variance from the sample, which a lopsided start (11-0-1) makes
//! tiny: it then accepted H1 after a dozen games on evidence the exact ratio rates at a
//! third of the bound.

/// The two-sided 95% quantile of the standard normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

/// The expected score for an Elo difference (logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference for an expected score in (0, 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score per game (1 win, ½ draw), or `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games() as f64;
        (n > 0.0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n)
    }

    /// The variance of one game's score around the mean.
    fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        let sq = |x: f64| x * x;
        Some(
            (self.wins as f64 * sq(1.0 - s)
                + self.draws as f64 * sq(0.5 - s)
                + self.losses as f64 * sq(s))
                / n,
        )
    }

    /// The Elo difference, or `None` while the score is 0 or 1 (infinite).
    pub fn elo(&self) -> Option<f64> {
        self.score()
            .filter(|s| *s > 0.0 && *s < 1.0)
            .map(elo_from_score)
    }

    /// Half the width of the 95% confidence interval of the Elo difference, or `None` when it
    /// is unbounded (a score interval reaching 0 or 1) or cannot be estimated yet (every
    /// result the same).
    pub fn elo_error(&self) -> Option<f64> {
        let s = self.score()?;
        let var = self.variance().filter(|v| *v > 0.0)?;
        let se = (var / self.games() as f64).sqrt();
        let (lo, hi) = (s - Z_95 * se, s + Z_95 * se);
        (lo > 0.0 && hi < 1.0).then(|| (elo_from_score(hi) - elo_from_score(lo)) / 2.0)
    }
}

/// The largest Elo difference an SPRT hypothesis may name (an expected score of 0.9990).
const MAX_SPRT_ELO: f64 = 1200.0;

/// The SPRT's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo of the null hypothesis.
    pub elo0: f64,
    /// The Elo of the alternative.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// Keep playing.
    Continue,
    /// H0 accepted: not an improvement of elo1.
    AcceptH0,
    /// H1 accepted: an improvement.
    AcceptH1,
}

impl Sprt {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in text.split_whitespace() {
            let (k, v) = word
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{word}' is not key=value"))?;
            let v: f64 = v
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| format!("--sprt: bad number in '{word}'"))?;
            match k {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                _ => return Err(format!("--sprt: unknown key '{k}'")),
            }
        }
        if s.elo0.is_nan() || s.elo1.is_nan() {
            return Err("--sprt needs elo0=X elo1=Y".into());
        }
        if s.elo1 <= s.elo0 {
            return Err("--sprt: elo1 must be greater than elo0".into());
        }
        // Beyond this a hypothesis's expected score rounds to 0 or 1, where no win/draw/loss
        // distribution but a certain one has it and the ratio is not defined.
        if s.elo0.abs() > MAX_SPRT_ELO || s.elo1.abs() > MAX_SPRT_ELO {
            return Err(format!(
                "--sprt: elo0 and elo1 must lie within +/-{MAX_SPRT_ELO}"
            ));
        }
        if !(0.0 < s.alpha && s.alpha < 0.5 && 0.0 < s.beta && s.beta < 0.5) {
            return Err("--sprt: alpha and beta must lie between 0 and 0.5".into());
        }
        Ok(s)
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for `t` (0 before the first game).
    pub fn llr(&self, t: &Tally) -> f64 {
        if t.games() == 0 {
            return 0.0;
        }
        let counts = [t.wins as f64, t.draws as f64, t.losses as f64];
        let h0 = most_likely_trinomial(counts, expected_score(self.elo0));
        let h1 = most_likely_trinomial(counts, expected_score(self.elo1));
        (0..3).map(|i| counts[i] * (h1[i] / h0[i]).ln()).sum()
    }

    /// Whether a bound has been crossed.
    pub fn verdict(&self, t: &Tally) -> SprtVerdict {
        let llr = self.llr(t);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtVerdict::AcceptH1
        } else if llr <= lo {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

/// The scores of a win, a draw and a loss.
const OUTCOME_SCORES: [f64; 3] = [1.0, 0.5, 0.0];

/// Added to every count so that an outcome not seen yet keeps a little probability: without
/// it a hypothesis whose score lies outside the observed outcomes' range (every game won) has
/// no distribution at all. Small enough not to move the ratio once games come in.
const PSEUDO_COUNT: f64 = 1e-3;

/// The win/draw/loss probabilities of greatest likelihood for the observed `counts` among
/// those whose expected score is `score` (0 < score < 1).
///
/// By Lagrange, the maximiser is `p_i = f_i / (1 + lambda (x_i - score))`, with `f_i` the
/// observed frequencies and `x_i` the outcome scores, where `lambda` makes the expected score
/// come out right. That condition is monotone in `lambda` on the interval keeping every
/// denominator positive, so bisection finds it.
fn most_likely_trinomial(counts: [f64; 3], score: f64) -> [f64; 3] {
    let smoothed = counts.map(|c| c + PSEUDO_COUNT);
    let total: f64 = smoothed.iter().sum();
    let freq = smoothed.map(|c| c / total);
    let dev = OUTCOME_SCORES.map(|x| x - score);
    // Sum of f_i d_i / (1 + lambda d_i): decreasing in lambda.
    let excess = |lambda: f64| -> f64 {
        (0..3)
            .map(|i| freq[i] * dev[i] / (1.0 + lambda * dev[i]))
            .sum()
    };
    // The denominators stay positive for lambda in (-1 / max d, -1 / min d).
    let (mut lo, mut hi) = (-1.0 / dev[0], -1.0 / dev[2]);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if excess(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    std::array::from_fn(|i| freq[i] / (1.0 + lambda * dev[i]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn elo_and_error_bar_match_hand_computed_values() {
        // 10-20-10: score 0.5, per-game variance 0.125, standard error sqrt(0.125/40).
        let t = Tally {
            wins: 10,
            draws: 20,
            losses: 10,
        };
        assert!(close(t.elo().unwrap(), 0.0));
        assert!(
            close(t.elo_error().unwrap(), 77.388_743_909),
            "{:?}",
            t.elo_error()
        );
        // 30-10-10: score 0.7 = +147.19 Elo.
        let t = Tally {
            wins: 30,
            draws: 10,
            losses: 10,
        };
        assert!(close(t.score().unwrap(), 0.7));
        assert!(close(t.elo().unwrap(), 147.190_714_118));
        assert!(close(t.elo_error().unwrap(), 95.138_954_258));
        // All wins: no finite Elo.
        let t = Tally {
            wins: 3,
            draws: 0,
            losses: 0,
        };
        assert_eq!((t.elo(), t.elo_error()), (None, None));
        assert_eq!(Tally::default().score(), None);
        let same = Tally {
            wins: 0,
            draws: 4,
            losses: 0,
        };
        assert_eq!((same.elo(), same.elo_error()), (Some(0.0), None));
    }

    #[test]
    fn llr_and_bounds_match_hand_computed_values() {
        let sprt = Sprt::parse("elo0=0 elo1=5").unwrap();
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944_438_979) && close(hi, 2.944_438_979));
        // 60-20-20: score 0.7, variance 0.16; s0 = 0.5, s1 = 1/(1+10^(-5/400)).
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        // Hand-computed separately: each hypothesis's distribution by the Lagrange condition,
        // then sum of n_i ln(p1_i / p0_i).
        assert!(close(sprt.llr(&t), 0.707_247_348), "{}", sprt.llr(&t));
        assert_eq!(sprt.verdict(&t), SprtVerdict::Continue);
        let many = Tally {
            wins: 600,
            draws: 200,
            losses: 200,
        };
        assert_eq!(sprt.verdict(&many), SprtVerdict::AcceptH1);
        let bad = Tally {
            wins: 200,
            draws: 200,
            losses: 600,
        };
        assert_eq!(sprt.verdict(&bad), SprtVerdict::AcceptH0);
        // Five draws lean, a little, towards the hypothesis nearer a score of one half.
        let draws = sprt.llr(&Tally {
            wins: 0,
            draws: 5,
            losses: 0,
        });
        assert!(draws < 0.0 && draws > lo, "{draws}");
        assert_eq!(sprt.llr(&Tally::default()), 0.0);
    }

    #[test]
    fn most_likely_distribution_has_the_hypothesis_score() {
        for (counts, score) in [
            ([60.0, 20.0, 20.0], 0.5),
            ([13.0, 0.0, 1.0], 0.64),
            ([0.0, 7.0, 0.0], 0.3),
            ([5.0, 0.0, 0.0], 0.57),
        ] {
            let p = most_likely_trinomial(counts, score);
            let mean: f64 = (0..3).map(|i| p[i] * OUTCOME_SCORES[i]).sum();
            assert!(close(p.iter().sum(), 1.0) && close(mean, score), "{p:?}");
            assert!(p.iter().all(|x| *x > 0.0), "{p:?}");
        }
        // Frequencies that already score 0.6 are their own most likely distribution.
        let p = most_likely_trinomial([50.0, 20.0, 30.0], 0.6);
        assert!(
            p.iter()
                .zip([0.5, 0.2, 0.3])
                .all(|(a, b)| (a - b).abs() < 1e-4),
            "{p:?}"
        );
    }

    #[test]
    fn a_lopsided_start_is_not_enough_for_a_verdict() {
        // The normal approximation said H1 at 11-0-1 (LLR 3.36) and 13-0-1 (4.67); the exact
        // ratios are about 1.07 and 1.30, far inside the bounds.
        let sprt = Sprt::parse("elo0=50 elo1=100").unwrap();
        for (wins, losses, llr) in [(11, 1, 1.072_614), (13, 1, 1.299_354)] {
            let t = Tally {
                wins,
                draws: 0,
                losses,
            };
            assert!((sprt.llr(&t) - llr).abs() < 1e-4, "{}", sprt.llr(&t));
            assert_eq!(sprt.verdict(&t), SprtVerdict::Continue);
        }
        // The same rate kept up long enough does decide.
        let t = Tally {
            wins: 39,
            draws: 0,
            losses: 3,
        };
        assert_eq!(sprt.verdict(&t), SprtVerdict::AcceptH1, "{}", sprt.llr(&t));
    }

    #[test]
    fn rejects_bad_sprt_parameters() {
        for bad in [
            "",
            "elo0=0",
            "elo0=5 elo1=0",
            "elo0=0 elo1=5 alpha=0.7",
            "elo0=x elo1=1",
            "elo0=0 elo1=100000",
            "elo0=-5000 elo1=0",
            "foo=1",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
    }
}
