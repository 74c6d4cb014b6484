//! The learned evaluation end to end: data generation, training, incremental accumulators and
//! the nets built into the binary, in one test binary (each file was once a binary of its own).

mod datagen;
mod incremental;
mod lent_nets;
mod shipped_nets;
mod train;
