//! From a resolved INI section to a built [`Variant`], in three stages: `spec::read` reads
//! every key into a plain [`VariantSpec`](super::spec::VariantSpec), `conclude` resolves it into
//! [`Rules`], and [`Tables::compile`] derives the lookup tables that move generation and the
//! check tests use. All errors name the file, line and key.

use std::sync::Arc;

use super::conclude::{conclude, Rules};
use super::config::SectionConfig;
use super::setup::{self, Setup};
use super::spec;
use super::tables::{AttackTables, CheckReach, GeneralReach, PieceMask, EN_PASSANT};
use super::zobrist::Zobrist;
use super::{PieceDef, Variant, VariantRef};
use crate::types::{Cell, Color};

pub use super::spec::VariantError;

/// Builds a variant from its resolved section. `source` names where it came from.
pub fn build(section: &SectionConfig, source: &str) -> Result<VariantRef, Vec<VariantError>> {
    let (spec, mut errors) = spec::read(section);
    let rules = conclude(&spec, source);
    let variant = match rules {
        Ok(rules) if errors.is_empty() => start_position(Variant::compile(rules), &spec),
        Ok(_) => Err(Vec::new()),
        Err(more) => Err(more),
    };
    // A key that other keys make meaningless is reported too, but only when nothing else went
    // wrong (an error elsewhere may be why the key looks meaningless).
    let variant = variant.and_then(|v| {
        let idle = spec::ineffective_keys(&spec, section);
        if idle.is_empty() {
            Ok(v)
        } else {
            Err(idle)
        }
    });
    match variant {
        Ok(v) => Ok(Arc::new(v)),
        Err(more) => {
            errors.extend(more);
            errors.sort_by_key(|e| (e.file.clone(), e.line));
            Err(errors)
        }
    }
}

/// Reads the start position's men into the variant. The registry then sets the position up on
/// a board, to see that the rules can play it.
fn start_position(
    mut variant: Variant,
    spec: &spec::VariantSpec,
) -> Result<Variant, Vec<VariantError>> {
    let placement =
        Setup::parse(&variant.rules.start_fen).and_then(|setup| setup::placement(&variant, &setup));
    match placement {
        Ok((men, _, walls)) => {
            let mut board = variant.tables.empty_board.clone();
            for (sq, piece) in men {
                board[sq.index()] = Cell::new(piece, false);
            }
            for sq in walls {
                board[sq.index()] = Cell::WALL;
            }
            variant.tables.start_board = board;
            Ok(variant)
        }
        Err(e) => Err(vec![match &spec.start_fen {
            Some(fen) => fen.at.error(e.to_string()),
            None => spec.header.error(format!("start position: {e}")),
        }]),
    }
}

/// The lookup tables compiled from a variant's rules.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    /// Attack tables per colour (how that colour attacks a square).
    pub attacks: [AttackTables; 2],
    /// Per colour: (offset from the e.p. square to a capturer, types that capture e.p. that way).
    pub ep_attacks: [Vec<(i16, PieceMask)>; 2],
    /// True when e.p. needs both squares in FEN (double steps that are not straight ahead).
    pub ep_two_squares: bool,
    /// True when every capture of every piece is a plain leap or slide.
    pub simple_attacks: bool,
    /// Per colour, the filter of moves that cannot give check, where it applies.
    pub check_reach: Option<[CheckReach; 2]>,
    /// Per colour, where the men of the general attack test could attack from (one board,
    /// some general types; see [`Variant::general_reach`]).
    pub general_reach: Option<[GeneralReach; 2]>,
    /// The empty mailbox: [`Cell::OFF`] on the border, [`Cell::EMPTY`] on real squares.
    pub empty_board: Vec<Cell>,
    /// The men of the start position, per mailbox cell (never-moved flags clear).
    pub start_board: Vec<Cell>,
    /// Hash keys.
    pub zobrist: Zobrist,
    /// True when some legal moves are struck off after generation (see
    /// [`Variant::has_move_filters`]); worked out once, as legal generation asks at every node.
    pub move_filters: bool,
    /// True when the position alone may end the game (see [`Variant::has_position_ends`]).
    pub position_ends: bool,
    /// True when moves do more after the mover lands (see [`Variant::has_after_move_rules`]).
    pub after_move: bool,
    /// True when generation must take the general path for boards, turn parts or capture
    /// restrictions (see [`Variant::needs_board_rules`]).
    pub board_rules: bool,
    /// True when legal generation has more to do than the moves' own legality (see
    /// [`Variant::special_legality`]).
    pub special_legality: bool,
    /// True when one man's moves may be listed alone and each judged by itself (see
    /// [`Variant::moves_judged_man_by_man`]).
    pub man_by_man: bool,
    /// True when a move has more to do under the makruk family's rules (see
    /// [`Variant::has_makruk_rules`]).
    pub makruk_rules: bool,
    /// True when the legality test sees through the wall a move made (explosions with
    /// petrification or with the duck, as Fairy-Stockfish's test does).
    pub sees_through_walls: bool,
    /// True when the general attack test bounds a man's attacks by his mobility region (see
    /// [`Variant::has_regional_attacks`]).
    pub regional_attacks: bool,
}

impl Tables {
    /// Compiles the tables of `rules` (the start board is filled in afterwards).
    pub(crate) fn compile(r: &Rules) -> Tables {
        let white: Vec<_> = r.pieces.iter().map(|p| &p.moves[0]).collect();
        let black: Vec<_> = r.pieces.iter().map(|p| &p.moves[1]).collect();
        let mut attacks = [AttackTables::build(&white), AttackTables::build(&black)];
        if let Some(palace) = &r.palace {
            // Their attacks are judged by the palace rules (in the general attack test), which
            // know the mobility regions too.
            for a in attacks.iter_mut() {
                a.hand_over(palace.attackers, palace.replaced);
            }
        } else {
            // Fairy-Stockfish's men attack only inside their mobility regions (chak's promoted
            // pawn stays on ranks 5-9, so a king may step beside him elsewhere): the plain
            // tables cannot say where a man may go, the general attack test asks his region.
            for (c, a) in attacks.iter_mut().enumerate() {
                let confined = r
                    .mobility
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| m[c].is_some())
                    .fold(0 as PieceMask, |m, (i, _)| m | 1 << i);
                a.confine(confined);
            }
        }
        let regional_attacks = r.palace.is_some() || attacks.iter().any(|a| a.confined != 0);
        // Explosions, petrification, pseudo-royal men and immunities make a capture more than
        // a plain leap or slide: no pins walked from the royal man, no exchange evaluation.
        let chesslike = r.chesslike.blast.is_some()
            || r.petrify.is_some()
            || r.chesslike.pseudo_royal.is_some()
            || r.chesslike.mutually_immune != 0;
        let simple_attacks = attacks.iter().all(|a| a.general == 0) && !chesslike;
        // Checks are judged by the mover's type and squares only where attacks are plain leaps
        // and slides on one board and no rule adds to what a move does (succession does: a
        // capture may turn an enemy man into a type with other attacks).
        let g = &r.geometry;
        let board_rules = r.transfer.is_some() || r.turns.is_some() || r.captures.restricted();
        let unmade_checks = simple_attacks && r.checking && g.boards == 1 && !board_rules;
        let check_reach = if unmade_checks && r.succession.is_empty() && !chesslike {
            CheckReach::build(&attacks[0], g)
                .zip(CheckReach::build(&attacks[1], g))
                .map(|(w, b)| [w, b])
        } else {
            None
        };
        let general_reach = if g.boards == 1 && attacks.iter().any(|a| a.general != 0) {
            // The palace rules' own moves: along the diagonals, and the soldiers' steps.
            let palace = r
                .palace
                .as_ref()
                .map_or((0, 0), |p| (p.diagonal_movers, p.soldiers));
            GeneralReach::build(&white, attacks[0].general, palace, g)
                .zip(GeneralReach::build(&black, attacks[1].general, palace, g))
                .map(|(w, b)| [w, b])
        } else {
            None
        };
        let ep_attacks = [
            ep_attack_table(&r.pieces, Color::White),
            ep_attack_table(&r.pieces, Color::Black),
        ];
        let ep_two_squares = r.pieces.iter().enumerate().any(|(i, p)| {
            r.ep_types & (1 << i) != 0
                && p.moves[0]
                    .double_steps
                    .iter()
                    .any(|d| d.delta % g.stride() as i16 != 0)
        });
        // Either side may pass somewhere: a pass is struck off where it is not allowed, and
        // two passes in a row end the game.
        let passes = r.pass.iter().chain(&r.pass_on_stalemate).any(|&p| p);
        let move_filters = r.hands.filters()
            || r.forbid_checks
            || !r.drops.checks
            || r.must_capture
            || r.flying_general
            || r.palace.is_some()
            || r.makpong
            || r.cambodian
            || passes
            || r.drops.region.iter().any(Option::is_some)
            || r.mobility.iter().flatten().any(Option::is_some);
        let ends = &r.ends;
        let bikjang = r.palace.as_ref().is_some_and(|p| p.bikjang);
        let position_ends = r.hands.check_counting
            || ends.flag.is_some()
            || ends.extinction.is_some()
            || ends.connect.is_some()
            || passes
            || bikjang
            || ends.adjudicate_full_board
            || r.castle_rules.wins != 0;
        let special_legality = move_filters
            || r.castle_rules.wins != 0
            || r.hands.check_counting
            || ends.flag.is_some()
            || ends.extinction.is_some()
            || ends.connect.is_some()
            || chesslike
            || r.walls.is_some()
            || r.enclosing.is_some()
            || ends.adjudicate_full_board;
        let blast = r.chesslike.blast.is_some();
        // One test on make's common path for every rule that acts after the move itself.
        let after_move = r.reserve.is_some()
            || r.enclosing.is_some()
            || r.counting.is_some()
            || r.cambodian
            || r.petrify.is_some()
            || blast;
        let mut empty_board = vec![Cell::OFF; g.num_cells()];
        for sq in g.squares() {
            empty_board[sq.index()] = Cell::EMPTY;
        }
        Tables {
            attacks,
            ep_attacks,
            ep_two_squares,
            simple_attacks,
            check_reach,
            general_reach,
            start_board: Vec::new(),
            empty_board,
            zobrist: Zobrist::new(g.num_cells()),
            move_filters,
            position_ends,
            after_move,
            board_rules,
            special_legality,
            man_by_man: !board_rules
                && r.walls.is_none()
                && r.enclosing.is_none()
                && !r.must_capture
                && !r.hands.must_drop,
            makruk_rules: r.counting.is_some() || r.cambodian,
            sees_through_walls: blast && (r.petrify.is_some() || r.walls.is_some()),
            regional_attacks,
        }
    }
}

/// Where `color`'s e.p. capturers stand relative to the e.p. square, per piece type.
fn ep_attack_table(pieces: &[PieceDef], color: Color) -> Vec<(i16, PieceMask)> {
    let mut out: Vec<(i16, PieceMask)> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let m = &p.moves[color.index()];
        let deltas = m
            .leaps
            .iter()
            .filter(|l| l.mode & EN_PASSANT != 0)
            .map(|l| l.delta)
            .chain(
                m.rays
                    .iter()
                    .filter(|r| r.mode & EN_PASSANT != 0 && r.max == 1)
                    .map(|r| r.delta),
            );
        for d in deltas {
            match out.iter_mut().find(|e| e.0 == -d) {
                Some(e) => e.1 |= 1 << i,
                None => out.push((-d, 1 << i)),
            }
        }
    }
    out
}
