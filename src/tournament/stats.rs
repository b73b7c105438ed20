//! Match statistics: Elo difference with a 95% interval from the per-game score variance,
//! and a sequential probability ratio test (the normal approximation of the generalised SPRT
//! used by fishtest and cutechess-style tools).

/// Wins, losses and draws of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub w: u32,
    /// Losses.
    pub l: u32,
    /// Draws.
    pub d: u32,
}

/// SPRT verdict.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// H1 (elo >= elo1) accepted.
    H1,
    /// H0 (elo <= elo0) accepted.
    H0,
    /// Not yet decided.
    Continue,
}

fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Wdl {
    /// Games played.
    pub fn n(&self) -> u32 {
        self.w + self.l + self.d
    }

    /// Mean score per game.
    pub fn score(&self) -> f64 {
        (self.w as f64 + self.d as f64 / 2.0) / self.n().max(1) as f64
    }

    fn variance(&self) -> f64 {
        let n = self.n().max(1) as f64;
        let p = self.score();
        (self.w as f64 * (1.0 - p).powi(2) + self.l as f64 * p.powi(2) + self.d as f64 * (0.5 - p).powi(2)) / n
    }

    /// Elo difference and the half-width of its 95% interval.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.n().max(1) as f64;
        let p = self.score();
        let sd = (self.variance() / n).sqrt();
        let lo = elo_of(p - 1.96 * sd);
        let hi = elo_of(p + 1.96 * sd);
        (elo_of(p), (hi - lo) / 2.0)
    }

    /// Log-likelihood ratio of H1 (elo1) against H0 (elo0).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let var = self.variance();
        if self.n() == 0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        let n = self.n() as f64;
        n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
    }

    /// SPRT verdict with error rates `alpha` and `beta`, and the LLR bounds.
    pub fn sprt(&self, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> (Verdict, f64, (f64, f64)) {
        let lower = (beta / (1.0 - alpha)).ln();
        let upper = ((1.0 - beta) / alpha).ln();
        let llr = self.llr(elo0, elo1);
        let v = if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        };
        (v, llr, (lower, upper))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_winning_scores() {
        let even = Wdl { w: 10, l: 10, d: 10 };
        assert!(even.elo().0.abs() < 1e-9);
        let good = Wdl { w: 75, l: 25, d: 0 };
        // 75% is about +191 Elo.
        assert!((good.elo().0 - 190.8).abs() < 0.5, "{:?}", good.elo());
        assert!(good.elo().1 > 0.0);
    }

    #[test]
    fn sprt_decides_clear_cases() {
        let strong = Wdl { w: 300, l: 100, d: 100 };
        assert_eq!(strong.sprt(0.0, 10.0, 0.05, 0.05).0, Verdict::H1);
        let weak = Wdl { w: 100, l: 300, d: 100 };
        assert_eq!(weak.sprt(0.0, 10.0, 0.05, 0.05).0, Verdict::H0);
        let few = Wdl { w: 2, l: 1, d: 1 };
        assert_eq!(few.sprt(0.0, 10.0, 0.05, 0.05).0, Verdict::Continue);
    }
}
