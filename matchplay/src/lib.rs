//! `chimera match`: engine-against-engine games between any two UCI or XBoard engines, with
//! Chimera's rules as the referee. One module per job: the engine process (`process`), the two
//! protocol drivers behind one [`player::Player`] trait (`uci_player`, `xboard_player`), the
//! time control and clocks (`clock`), the game loop and adjudication (`referee`), the openings
//! (`openings`), PGN (`pgn`, written in the engine's SAN, `chimera_engine::movegen::san`), the
//! statistics and SPRT (`stats`), the command line (`config`) and the match itself with its
//! progress lines (`runner`).
//!
//! The crate depends on the engine only, never on `chimera-protocol`: it talks to engines
//! (Chimera included) as separate processes, so it must not share code with the engine side
//! of the protocols it drives.

pub mod clock;
pub mod config;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod process;
pub mod referee;
pub mod runner;
pub mod stats;
pub mod uci_player;
pub mod xboard_player;

use chimera_engine::registry::Registry;

/// Loads the variant files named on the command line into a registry.
fn registry_with(files: &[String]) -> Result<Registry, String> {
    let mut registry = Registry::new();
    for file in files {
        // A match plays one variant: a problem anywhere in its file is worth stopping for.
        let report = registry.load_file(file);
        if !report.errors.is_empty() {
            return Err(report.errors_text("\n"));
        }
    }
    Ok(registry)
}

/// `chimera match ...`: returns the process exit code.
pub fn run(args: &[String]) -> i32 {
    match run_inner(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("chimera match: {e}");
            1
        }
    }
}

fn run_inner(args: &[String]) -> Result<(), String> {
    let config = config::parse(args)?;
    let registry = registry_with(&config.variant_files)?;
    let variant = registry.get(&config.variant).ok_or_else(|| {
        format!(
            "unknown variant '{}' (see 'chimera variants')",
            config.variant
        )
    })?;
    let openings = openings::Openings::new(&config.openings, &variant, config.tc[0], config.seed)?;
    let mut config = config;
    // Engines are told the variant's own name, not an alias the user typed.
    config.variant = variant.name().to_string();
    let stdout = std::io::stdout();
    runner::run_match(config, openings, &mut stdout.lock())
}

/// `chimera pgn-check FILE [--variants F]`: replays every game of a PGN file through the rules.
pub fn check_pgn(args: &[String]) -> i32 {
    let mut files = Vec::new();
    let mut variant_files = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--variants" {
            i += 1;
            match args.get(i) {
                Some(f) => variant_files.push(f.clone()),
                None => {
                    eprintln!("chimera pgn-check: --variants needs a value");
                    return 2;
                }
            }
        } else {
            files.push(args[i].clone());
        }
        i += 1;
    }
    if files.is_empty() {
        eprintln!("chimera pgn-check: name a PGN file");
        return 2;
    }
    let registry = match registry_with(&variant_files) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("chimera pgn-check: {e}");
            return 1;
        }
    };
    let mut code = 0;
    for f in &files {
        match pgn::check_file(&registry, f) {
            Ok(report) => println!("{report}"),
            Err(e) => {
                eprintln!("chimera pgn-check: {e}");
                code = 1;
            }
        }
    }
    code
}
