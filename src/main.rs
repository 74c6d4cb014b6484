//! The `chimera` binary: hands the command line to the protocol crate.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(chimera_protocol::cli::run(&args));
}
