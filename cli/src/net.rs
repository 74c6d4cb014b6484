//! The evaluation a command-line tool searches with, by the engine's rule
//! ([`builtin::choose`]): the net given with `--net` in the variant it was made for, else the
//! variant's built-in net, else the hand-made evaluation; `--net hand` asks for the hand-made
//! evaluation in every variant.

use std::sync::Arc;

use chimera_engine::search::Evaluator;
use chimera_engine::VariantRef;
use chimera_nnue::builtin::{self, HAND};
use chimera_nnue::netfile::QuantNet;

/// The nets a tool may evaluate with.
#[derive(Clone)]
pub struct Nets {
    /// The user's net (`--net FILE`).
    user: Option<Arc<QuantNet>>,
    /// False with `--net hand`.
    use_nets: bool,
}

impl Default for Nets {
    /// The built-in nets, and the hand-made evaluation for the other variants.
    fn default() -> Nets {
        Nets {
            user: None,
            use_nets: true,
        }
    }
}

impl Nets {
    /// The nets for the `--net` value: a net file, `hand`, or nothing. A file that is not a
    /// net is reported on standard error and the tools go on without it.
    pub fn from_arg(arg: Option<&str>) -> Nets {
        let user = match arg {
            None => None,
            Some(HAND) => {
                return Nets {
                    user: None,
                    use_nets: false,
                }
            }
            Some(path) => match QuantNet::load(path) {
                Ok(n) => Some(Arc::new(n)),
                Err(e) => {
                    eprintln!("chimera: --net: {e}; it is not used");
                    None
                }
            },
        };
        Nets {
            user,
            use_nets: true,
        }
    }

    /// The evaluator for `variant`.
    pub fn evaluator(&self, variant: &VariantRef) -> Arc<dyn Evaluator + Send + Sync> {
        builtin::choose(variant, self.user.as_ref(), self.use_nets).eval
    }

    /// Like [`Nets::evaluator`], but says on standard error when the user's net does not fit
    /// `variant`, and what plays instead.
    pub fn evaluator_noisy(&self, variant: &VariantRef) -> Arc<dyn Evaluator + Send + Sync> {
        let choice = builtin::choose(variant, self.user.as_ref(), self.use_nets);
        if let Some(note) = choice.note {
            eprintln!("chimera: --net: {note}");
        }
        choice.eval
    }
}
