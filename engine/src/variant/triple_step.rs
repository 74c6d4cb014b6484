//! Fairy-Stockfish's pawn triple step (`tripleStepRegionWhite` / `tripleStepRegionBlack`,
//! wildebeest): a pawn in its colour's region may step three squares straight ahead over two
//! empty squares, and each square it passed where an enemy man could capture e.p. becomes an
//! e.p. square (Fairy-Stockfish allows both). The step is one more ray of the predefined pawn;
//! the e.p. captures of such a variant go through the general rays, which know the second
//! e.p. square, so that the fast path of every other variant stays as it is.

use super::resolve::region_table;
use super::spec::VariantError;
use super::spec::VariantSpec;
use super::tables::{HopKind, Ray, Route, EN_PASSANT, QUIET};
use super::PieceDef;
use crate::types::Geometry;

/// The regions of `tripleStepRegion*`, per colour, with the triple step added to the
/// predefined pawn's moves and every e.p. capture turned into a general ray; `None` (and
/// nothing changed) when no region is given or the variant has no predefined pawn.
pub(crate) fn conclude_triple_steps(
    spec: &VariantSpec,
    g: &Geometry,
    pieces: &mut [PieceDef],
    errs: &mut Vec<VariantError>,
) -> Option<[Vec<bool>; 2]> {
    if spec.triple_step_region_by_color.iter().all(Option::is_none) {
        return None;
    }
    let regions = [0, 1].map(|c| match &spec.triple_step_region_by_color[c] {
        Some(given) => region_table(given, g, errs),
        None => vec![false; g.num_cells()],
    });
    // Fairy-Stockfish's triple step belongs to its pawn type: the predefined pawn only.
    let predefined_pawn = |p: &&PieceDef| {
        p.name == "pawn"
            && spec
                .pieces
                .iter()
                .any(|s| s.name == "pawn" && s.letter == p.letter && s.betza.is_none())
    };
    let pawn = pieces.iter().position(|p| predefined_pawn(&p))?;
    if regions.iter().all(|r| !r.contains(&true)) {
        return None;
    }
    for (c, region) in regions.iter().enumerate() {
        if !region.contains(&true) {
            continue;
        }
        let forward = g.delta(0, if c == 0 { 1 } else { -1 });
        pieces[pawn].moves[c].rays.push(Ray {
            delta: 3 * forward,
            max: 1,
            mode: QUIET,
            initial: true,
            triple_step: true,
            hop: HopKind::None,
            skip_first: false,
            must_jump: false,
            routes: [Route::new(&[forward, 2 * forward])].into_iter().collect(),
        });
        // The generator's fast path for single legs knows no triple steps (a test for them
        // there slowed chess perft by 0.6%): the pawn's moves go the deduplicating way.
        pieces[pawn].moves[c].overlapping = true;
    }
    // E.p. captures as general rays (the plain leaps keep their captures): the fast path
    // compares with the first e.p. square only.
    for p in pieces.iter_mut() {
        for m in p.moves.iter_mut() {
            let mut ep_rays = Vec::new();
            for l in m.leaps.iter_mut().filter(|l| l.mode & EN_PASSANT != 0) {
                l.mode &= !EN_PASSANT;
                ep_rays.push(Ray {
                    delta: l.delta,
                    max: 1,
                    mode: EN_PASSANT,
                    initial: false,
                    triple_step: false,
                    hop: HopKind::None,
                    skip_first: false,
                    must_jump: false,
                    routes: Default::default(),
                });
            }
            m.leaps.retain(|l| l.mode != 0);
            m.rays.extend(ep_rays);
        }
    }
    Some(regions)
}
