//! The nets built into the binary, and the one rule that says what evaluates a variant: the
//! user's net when it was made for the variant, else the built-in net of that variant, else a
//! built-in net lent to it by transfer from a variant won the same way whose men it shares
//! (zero-shot: Gothic plays with Capablanca's net), else the hand-made evaluation.
//!
//! A built-in net is found by the exact variant name its file records, not by its input
//! layout: chess, king of the hill, three-check, losers and antichess share chess's layout but
//! not its goal, and a chess net would misjudge them all.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chimera_engine::registry;
use chimera_engine::search::Evaluator;
use chimera_engine::{Variant, VariantRef};
use chimera_eval::VariantEval;
use once_cell::sync::Lazy;

use crate::eval::NetEval;
use crate::features::Layout;
use crate::netfile::QuantNet;
use crate::network::FloatNet;
use crate::transfer::transfer;

/// The `--net` value (command line, `datagen`) that asks for the hand-made evaluation in
/// every variant, with no net.
pub const HAND: &str = "hand";

/// A file of `nets/`, by its name once: the name (for messages) and its bytes.
macro_rules! net_file {
    ($name:literal) => {
        ($name, include_bytes!(concat!("../../nets/", $name)))
    };
}

/// The net files compiled in. Each must beat in games the hand-made evaluation and the net it
/// replaces before it is added here (docs/nnue.md, "When a net is built in").
const FILES: &[(&str, &[u8])] = &[
    net_file!("chess-gen10.nnue"),
    net_file!("capablanca-gen5.nnue"),
    net_file!("grand-gen1.nnue"),
    net_file!("pioneer-gen1.nnue"),
    net_file!("pawnvault-gen1.nnue"),
    net_file!("aliceguard-gen1.nnue"),
    net_file!("crazyhouse-gen3.nnue"),
    net_file!("seirawan-gen2.nnue"),
    net_file!("atomic-gen1.nnue"),
    net_file!("makruk-gen1.nnue"),
    net_file!("xiangqi-gen3.nnue"),
    net_file!("janggi-gen2.nnue"),
    net_file!("shogi-gen5.nnue"),
];

/// The built-in nets, read once. A file that does not read is a build defect, caught by the
/// tests, so it panics with the file's name rather than playing on without its net.
static NETS: Lazy<Vec<Arc<QuantNet>>> = Lazy::new(|| {
    FILES
        .iter()
        .map(|(name, bytes)| {
            let net = QuantNet::from_bytes(bytes)
                .unwrap_or_else(|e| panic!("built-in net {name} does not read: {e}"));
            Arc::new(net)
        })
        .collect()
});

/// The built-in net made for the variant called `variant`, if there is one.
pub fn net_for(variant: &str) -> Option<Arc<QuantNet>> {
    NETS.iter().find(|n| n.variant == variant).cloned()
}

/// The names of the variants that have a built-in net.
pub fn variants() -> Vec<&'static str> {
    NETS.iter().map(|n| n.variant.as_str()).collect()
}

/// A built-in net lent to a variant without one: made by transfer, and where from.
#[derive(Clone)]
struct Lent {
    net: Arc<QuantNet>,
    from: &'static str,
}

/// How many files, and how many ranks, a variant's board may differ from a net's own for the
/// net to be lent to it. A net's inputs learn what a square means on its board (the king's
/// corner, the promotion zone, the distance to the edge); the transfer maps squares by place,
/// which keeps that meaning on a board a file or two wider (Capablanca's 10x8 net plays S-Chess
/// on 8x8 far better than the hand-made evaluation) but not on one half the size: shogi's 9x9
/// net lent to minishogi's 5x5 lost to the hand-made evaluation (docs/results.md, "Lent nets").
const MAX_LEND_SIZE_GAP: i32 = 2;

/// The nets lent so far, by variant name and input layout (a variant file may reuse a name
/// for other men): a transfer takes milliseconds, but a GUI may choose the variant often.
type LentByVariant = HashMap<(String, u64), Option<Lent>>;
static LENT: Lazy<Mutex<LentByVariant>> = Lazy::new(Default::default);

/// The net lent to `variant`, built once: the transfer of the built-in net whose variant is
/// won the same way (`Variant::same_objective`) and in which every one of `variant`'s men has
/// a counterpart (`Transfer::covers_every_type`); of several, the one with the most men of
/// exactly the same moves, then the nearest board size. None when no built-in net qualifies.
fn lent_net(variant: &Variant) -> Option<Lent> {
    let key = (variant.name().to_string(), Layout::of(variant).hash());
    if let Some(known) = LENT.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return known.clone();
    }
    let size = |v: &Variant| {
        let g = v.geometry();
        (g.files as i32, g.ranks as i32)
    };
    let mut best: Option<((usize, i32), Lent)> = None;
    for donor_net in NETS.iter() {
        if donor_net.variant == variant.name() {
            continue;
        }
        let Some(donor) = registry::builtin(&donor_net.variant) else {
            continue;
        };
        if !donor.same_objective(variant) {
            continue;
        }
        let Ok(from) = donor_net.layout_for(donor.name(), &Layout::of(&donor)) else {
            continue;
        };
        // The transfer maps squares as each side sees them, so the borrower sees Black's
        // side the way the donor's net was trained to.
        let to = Layout::of(variant)
            .with_material_buckets(from.material_buckets())
            .with_turned_view(from.turned());
        let t = transfer(
            &FloatNet::from_quant(donor_net),
            &donor,
            &from,
            variant,
            &to,
        );
        if !t.covers_every_type() {
            continue;
        }
        let ((f0, r0), (f1, r1)) = (size(&donor), size(variant));
        let (file_gap, rank_gap) = ((f0 - f1).abs(), (r0 - r1).abs());
        if file_gap > MAX_LEND_SIZE_GAP || rank_gap > MAX_LEND_SIZE_GAP {
            continue;
        }
        let score = (t.exact_types(), -(file_gap + rank_gap));
        if best.as_ref().is_some_and(|(s, _)| *s >= score) {
            continue;
        }
        let net = t
            .net
            .quantise_with_scale(variant.name(), &to, donor_net.scale);
        let from: &'static str = donor_net.variant.as_str();
        best = Some((
            score,
            Lent {
                net: Arc::new(net),
                from,
            },
        ));
    }
    let lent = best.map(|(_, l)| l);
    LENT.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, lent.clone());
    lent
}

/// Where the evaluation of a variant comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The net the user loaded (`EvalFile`, `--net`).
    UserNet,
    /// The net built in for the variant.
    BuiltinNet,
    /// The built-in net of the named variant, transferred to this one (zero-shot).
    LentNet(&'static str),
    /// The hand-made evaluation.
    Hand,
}

impl Source {
    /// The evaluation in words, for messages ("the built-in net plays chess").
    pub fn describe(self) -> String {
        match self {
            Source::UserNet => "the loaded net".into(),
            Source::BuiltinNet => "the built-in net".into(),
            Source::LentNet(from) => format!("{from}'s net, lent"),
            Source::Hand => "the hand-made evaluation".into(),
        }
    }
}

/// What evaluates a variant, and, when the user's net was passed over, why.
pub struct Choice {
    pub eval: Arc<dyn Evaluator + Send + Sync>,
    pub source: Source,
    /// Set when the user's net does not fit the variant: the reason, and what plays instead.
    pub note: Option<String>,
}

/// The evaluation of `variant`: the user's net `user` when it was made for the variant, else
/// the variant's built-in net, else the hand-made evaluation. With `use_nets` false the
/// hand-made evaluation plays whatever nets there are (UCI `Use NNUE`, `--net hand`).
pub fn choose(variant: &VariantRef, user: Option<&Arc<QuantNet>>, use_nets: bool) -> Choice {
    let hand = || -> Arc<dyn Evaluator + Send + Sync> { Arc::new(VariantEval::new(variant)) };
    if !use_nets {
        return Choice {
            eval: hand(),
            source: Source::Hand,
            note: None,
        };
    }
    let mut refused = None;
    if let Some(net) = user {
        match NetEval::new(net.clone(), variant) {
            Ok(e) => {
                return Choice {
                    eval: Arc::new(e),
                    source: Source::UserNet,
                    note: None,
                }
            }
            Err(e) => refused = Some(e),
        }
    }
    // A variant file may reuse a built-in name for other pieces: the layout check keeps the
    // built-in net out of such a game.
    let builtin = net_for(variant.name()).and_then(|n| NetEval::new(n, variant).ok());
    let lent = || {
        let l = lent_net(variant)?;
        Some((NetEval::new(l.net, variant).ok()?, l.from))
    };
    let (eval, source): (Arc<dyn Evaluator + Send + Sync>, _) = match builtin {
        Some(e) => (Arc::new(e), Source::BuiltinNet),
        None => match lent() {
            Some((e, from)) => (Arc::new(e), Source::LentNet(from)),
            None => (hand(), Source::Hand),
        },
    };
    Choice {
        eval,
        source,
        note: refused.map(|e| format!("{e}; {} plays {}", source.describe(), variant.name())),
    }
}
