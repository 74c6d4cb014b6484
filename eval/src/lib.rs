//! Chimera's evaluation crate: per-variant piece values and square tables behind the
//! evaluator trait of the engine. It holds no evaluator yet; the search that will call one is
//! built on top of the rules core.
