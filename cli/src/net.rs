//! The evaluator a command-line tool searches with: the net given with `--net` for the
//! variant it was made for, the hand-made evaluation otherwise (and for every variant when no
//! net is given).

use std::sync::Arc;

use chimera_engine::search::Evaluator;
use chimera_engine::VariantRef;
use chimera_eval::VariantEval;
use chimera_nnue::eval::NetEval;
use chimera_nnue::netfile::QuantNet;

/// Reads the `--net` file; a file that is not a net is reported on standard error and the
/// tools go on with the hand-made evaluation.
pub(crate) fn load(path: Option<&str>) -> Option<Arc<QuantNet>> {
    match QuantNet::load(path?) {
        Ok(n) => Some(Arc::new(n)),
        Err(e) => {
            eprintln!("chimera: --net: {e}; the hand-made evaluation plays");
            None
        }
    }
}

/// The evaluator for `variant`: the net when it was made for it.
pub(crate) fn evaluator(
    variant: &VariantRef,
    net: Option<&Arc<QuantNet>>,
) -> Box<dyn Evaluator + Send + Sync> {
    match net.map(|n| NetEval::new(n.clone(), variant)) {
        Some(Ok(e)) => Box::new(e),
        _ => Box::new(VariantEval::new(variant)),
    }
}

/// Like [`evaluator`], but says on standard error when the net does not fit `variant`.
pub(crate) fn evaluator_noisy(
    variant: &VariantRef,
    net: Option<&Arc<QuantNet>>,
) -> Box<dyn Evaluator + Send + Sync> {
    if let Some(Err(e)) = net.map(|n| NetEval::new(n.clone(), variant)) {
        eprintln!("chimera: --net: {e}; the hand-made evaluation plays");
    }
    evaluator(variant, net)
}
