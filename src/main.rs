//! The `chimera` binary: hands the command line to the command-line crate.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(chimera_cli::run(&args));
}
