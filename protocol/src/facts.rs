//! What both GUI dialects tell a GUI alike: the engine's name and authors, and the facts about
//! a variant that they put on the wire (the number of holdings slots, the summary UCI gives
//! when a variant is chosen). Kept apart from the dialects so that neither imports the other
//! for them, and so that the options table can tell a variant's facts.

/// The engine's name as GUIs show it.
pub const ENGINE_NAME: &str = concat!("Chimera ", env!("CARGO_PKG_VERSION"));
/// The authors, as GUIs show them.
pub const ENGINE_AUTHOR: &str = "the Chimera developers";

/// The holdings slots XBoard must show for `v`: `pocketSize` if the variant gives it, else one
/// per type that can be in hand (every non-royal type when captures go to hand, otherwise
/// the types in the start position's holdings), so that a variant with a hand never gets a
/// board without holdings.
pub fn holdings_slots(v: &chimera_engine::Variant) -> u32 {
    if v.pocket_size() > 0 || !v.has_hand() {
        return v.pocket_size();
    }
    if v.captures_to_hand() {
        return (0..v.pieces().len())
            .filter(|&i| !v.pieces()[i].royal)
            .count() as u32;
    }
    let holdings = v
        .start_fen()
        .split_whitespace()
        .next()
        .and_then(|board| board.split_once('['))
        .map_or("", |(_, rest)| rest.split(']').next().unwrap_or(""));
    let mut types: Vec<char> = holdings
        .chars()
        .filter(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_uppercase())
        .collect();
    types.sort_unstable();
    types.dedup();
    types.len() as u32
}

/// A variant's facts as one line's words: `variant NAME files F ranks R pocket P template T
/// startpos FEN`, what UCI tells (as `info string ...`) when `UCI_Variant` chooses it, as
/// Fairy-Stockfish does, so that a GUI can draw the board.
pub fn variant_facts(v: &chimera_engine::Variant) -> String {
    let template = if v.template().is_empty() {
        "fairy"
    } else {
        v.template()
    };
    format!(
        "variant {} files {} ranks {} pocket {} template {} startpos {}",
        v.name(),
        v.geometry().display_files(),
        v.geometry().ranks,
        holdings_slots(v),
        template,
        v.start_fen()
    )
}
