//! The nets built into the binary, and the one rule that says what evaluates a variant: the
//! user's net when it was made for the variant, else the built-in net of that variant, else
//! the hand-made evaluation.
//!
//! A built-in net is found by the exact variant name its file records, not by its input
//! layout: chess, king of the hill, three-check, losers and antichess share chess's layout but
//! not its goal, and a chess net would misjudge them all.

use std::sync::Arc;

use chimera_engine::search::Evaluator;
use chimera_engine::VariantRef;
use chimera_eval::VariantEval;
use once_cell::sync::Lazy;

use crate::eval::NetEval;
use crate::netfile::QuantNet;

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

/// Where the evaluation of a variant comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The net the user loaded (`EvalFile`, `--net`).
    UserNet,
    /// The net built in for the variant.
    BuiltinNet,
    /// The hand-made evaluation.
    Hand,
}

impl Source {
    /// The evaluation in words, for messages ("the built-in net plays chess").
    pub fn describe(self) -> &'static str {
        match self {
            Source::UserNet => "the loaded net",
            Source::BuiltinNet => "the built-in net",
            Source::Hand => "the hand-made evaluation",
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
    let (eval, source): (Arc<dyn Evaluator + Send + Sync>, _) = match builtin {
        Some(e) => (Arc::new(e), Source::BuiltinNet),
        None => (hand(), Source::Hand),
    };
    Choice {
        eval,
        source,
        note: refused.map(|e| format!("{e}; {} plays {}", source.describe(), variant.name())),
    }
}
