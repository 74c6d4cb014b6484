//! The evaluation's weights as one flat list of named numbers, so that a tuner can search over
//! them without knowing what each one means, and print what it found.

use std::fmt::Write;

use crate::tables::Weights;
use crate::terms::Terms;

/// One tunable number: an integer weight of the terms, or a real weight of the tables.
pub enum Knob<'a> {
    /// Centipawns or a percentage.
    Int(&'a mut i32),
    /// A factor of the table generation.
    Real(&'a mut f64),
}

impl Knob<'_> {
    /// The value as a real number.
    pub fn get(&self) -> f64 {
        match self {
            Knob::Int(v) => **v as f64,
            Knob::Real(v) => **v,
        }
    }

    /// Sets the value (rounded for an integer knob).
    pub fn set(&mut self, value: f64) {
        match self {
            Knob::Int(v) => **v = value.round() as i32,
            Knob::Real(v) => **v = value,
        }
    }

    /// The smallest change worth trying: one centipawn, or a fiftieth of a real weight.
    pub fn unit(&self) -> f64 {
        match self {
            Knob::Int(_) => 1.0,
            Knob::Real(v) => (v.abs() / 50.0).max(1e-4),
        }
    }
}

/// Everything the evaluation weighs: the table weights and the positional terms.
#[derive(Clone, Debug, Default)]
pub struct Params {
    /// How the tables (piece values, square tables, mobility) are generated.
    pub weights: Weights,
    /// The positional terms.
    pub terms: Terms,
}

impl Params {
    /// Every knob with its name. The pawn base and promotion share are left out: in a variant
    /// with one promotion target they only scale the pawn value, which the two pawn shares set.
    pub fn knobs(&mut self) -> Vec<(String, Knob<'_>)> {
        let mut out: Vec<(String, Knob<'_>)> = Vec::new();
        let w = &mut self.weights;
        for (name, v) in [
            ("rider", &mut w.rider),
            ("leaper", &mut w.leaper),
            ("square", &mut w.square),
            ("pawn_mg_share", &mut w.pawn_mg_share),
            ("pawn_eg_share", &mut w.pawn_eg_share),
            ("centre_mg", &mut w.centre_mg),
            ("centre_eg", &mut w.centre_eg),
            ("pawn_advance_mg", &mut w.pawn_advance_mg),
            ("pawn_advance_eg", &mut w.pawn_advance_eg),
            ("royal_home_mg", &mut w.royal_home_mg),
        ] {
            out.push((name.to_string(), Knob::Real(v)));
        }
        let t = &mut self.terms;
        for (name, v) in [
            ("mobility_leaper", &mut w.mobility_leaper),
            ("mobility_rider", &mut w.mobility_rider),
            ("tempo", &mut t.tempo),
            ("pair", &mut t.pair),
            ("passed", &mut t.passed),
            ("doubled", &mut t.doubled),
            ("isolated", &mut t.isolated),
            ("connected_base", &mut t.connected_base),
            ("connected_gain", &mut t.connected_gain),
            ("threat_by_pawn", &mut t.threat_by_pawn),
            ("threat_by_lesser", &mut t.threat_by_lesser),
            ("hanging", &mut t.hanging),
            ("rook_half_open", &mut t.rook_half_open),
            ("rook_open", &mut t.rook_open),
            ("rook_seventh", &mut t.rook_seventh),
            ("passer_free", &mut t.passer_free),
            ("passer_safe_step", &mut t.passer_safe_step),
        ] {
            out.push((format!("{name}.mg"), Knob::Int(&mut v.0)));
            out.push((format!("{name}.eg"), Knob::Int(&mut v.1)));
        }
        out.push(("shield.near".to_string(), Knob::Int(&mut t.shield.0)));
        out.push(("shield.far".to_string(), Knob::Int(&mut t.shield.1)));
        for (name, v) in [
            ("blocked_passer_share", &mut t.blocked_passer_share),
            ("passer_enemy_king", &mut t.passer_enemy_king),
            ("passer_own_king", &mut t.passer_own_king),
            ("royal_attack", &mut t.royal_attack),
            ("royal_attack_max", &mut t.royal_attack_max),
            ("threat_margin", &mut t.threat_margin),
        ] {
            out.push((name.to_string(), Knob::Int(v)));
        }
        out
    }

    /// The knobs as `name value` lines.
    pub fn to_text(&mut self) -> String {
        let mut s = String::new();
        for (name, knob) in self.knobs() {
            let _ = match knob {
                Knob::Int(v) => writeln!(s, "{name} {v}"),
                Knob::Real(v) => writeln!(s, "{name} {v:.4}"),
            };
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knobs_change_the_weights_they_name() {
        let mut p = Params::default();
        let before = p.terms.passed.1;
        for (name, mut knob) in p.knobs() {
            if name == "passed.eg" {
                knob.set(knob.get() + 7.0);
            }
        }
        assert_eq!(p.terms.passed.1, before + 7);
        let names: Vec<String> = p.knobs().into_iter().map(|(n, _)| n).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        assert!(p.to_text().contains("passed.eg"));
    }
}
