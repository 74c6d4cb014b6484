//! The table of engine options: the one place an option is declared. An entry names the
//! option, gives its kind and range, the fronts that offer it, how to read its value in the
//! [`EngineState`] and what setting it does; the dialects and the web board do the rest
//! (docs/options.md). The order of [`OPTIONS`] is the order both dialects announce them in.

use super::{EngineOption, Fronts, Kind, Notes, TextForm};
use crate::facts::variant_facts;
use crate::state::{EngineState, MAX_HASH_MB, MAX_THREADS};
use chimera_engine::search::{skill, Skill};

/// Every option, in the order they are announced.
pub const OPTIONS: &[EngineOption] = &[
    HASH,
    THREADS,
    MULTIPV,
    PONDER,
    UCI_CHESS960,
    MOVE_OVERHEAD,
    SKILL_LEVEL,
    UCI_LIMIT_STRENGTH,
    UCI_ELO,
    SKILL_SEED,
    RANK_BASE,
    UCI_VARIANT,
    VARIANT_PATH,
    EVAL_FILE,
    USE_NNUE,
    CLEAR_HASH,
    UCI_ANALYSE_MODE,
    UCI_SHOW_WDL,
];

/// The table size in MB. XBoard sets it with its `memory` command instead.
pub const HASH: EngineOption = EngineOption {
    name: "Hash",
    fronts: Fronts::UCI,
    kind: Kind::Spin {
        min: 1,
        max: MAX_HASH_MB as i64,
        get: |s| s.options.hash_mb as i64,
        set: |s, mb| s.set_hash(mb as usize),
    },
};

/// Search threads. XBoard sets them with its `cores` command instead.
pub const THREADS: EngineOption = EngineOption {
    name: "Threads",
    fronts: Fronts::UCI,
    kind: Kind::Spin {
        min: 1,
        max: MAX_THREADS as i64,
        get: |s| s.options.threads as i64,
        set: |s, n| s.set_threads(n as usize),
    },
};

/// How many best lines a search reports; also the web board's analysis lines.
pub const MULTIPV: EngineOption = EngineOption {
    name: "MultiPV",
    fronts: Fronts::UCI.and(Fronts::XBOARD).and(Fronts::WEB),
    kind: Kind::Spin {
        min: 1,
        max: 256,
        get: |s| i64::from(s.options.multipv),
        set: |s, n| {
            s.options.multipv = n as u32;
            Ok(())
        },
    },
};

/// Whether the GUI may ask for pondering. XBoard says so with `hard` and `easy`.
pub const PONDER: EngineOption = EngineOption {
    name: "Ponder",
    fronts: Fronts::UCI,
    kind: Kind::Check {
        get: |s| s.options.ponder,
        set: |s, on| {
            s.options.ponder = on;
            Ok(())
        },
    },
};

/// Castling written king-takes-rook. XBoard has the variant `fischerandom` for it.
pub const UCI_CHESS960: EngineOption = EngineOption {
    name: "UCI_Chess960",
    fronts: Fronts::UCI,
    kind: Kind::Check {
        get: |s| s.options.chess960,
        set: |s, on| {
            s.options.chess960 = on;
            Ok(())
        },
    },
};

/// Milliseconds kept back on every clock decision.
pub const MOVE_OVERHEAD: EngineOption = EngineOption {
    name: "Move Overhead",
    fronts: Fronts::UCI.and(Fronts::XBOARD),
    kind: Kind::Spin {
        min: 0,
        max: 5000,
        get: |s| s.options.move_overhead as i64,
        set: |s, ms| {
            s.options.move_overhead = ms as u64;
            Ok(())
        },
    },
};

/// The playing strength of the engine's moves, 0 (weakest) to 20 (full strength): a smaller
/// search and a random choice among its best lines (engine/src/search/skill.rs). Analysis is
/// always at full strength.
pub const SKILL_LEVEL: EngineOption = EngineOption {
    name: "Skill Level",
    fronts: Fronts::UCI.and(Fronts::XBOARD).and(Fronts::WEB),
    kind: Kind::Spin {
        min: 0,
        max: Skill::FULL as i64,
        get: |s| i64::from(s.options.skill_level),
        set: |s, level| {
            s.options.skill_level = level as u8;
            Ok(())
        },
    },
};

/// Plays at the level of `UCI_Elo` instead of `Skill Level` (UCI's standard pair).
pub const UCI_LIMIT_STRENGTH: EngineOption = EngineOption {
    name: "UCI_LimitStrength",
    fronts: Fronts::UCI.and(Fronts::XBOARD),
    kind: Kind::Check {
        get: |s| s.options.limit_strength,
        set: |s, on| {
            s.options.limit_strength = on;
            Ok(())
        },
    },
};

/// The Elo to play at with `UCI_LimitStrength`: the strongest level measured at or below it
/// (the table in docs/results.md, "Skill levels").
pub const UCI_ELO: EngineOption = EngineOption {
    name: "UCI_Elo",
    fronts: Fronts::UCI.and(Fronts::XBOARD),
    kind: Kind::Spin {
        min: skill::MIN_ELO as i64,
        max: skill::MAX_ELO as i64,
        get: |s| i64::from(s.options.elo),
        set: |s, elo| {
            s.options.elo = elo as i32;
            Ok(())
        },
    },
};

/// The seed of a weakened search's random choices, for repeatable games and tests; 0 (the
/// default) draws one when the engine starts. Accepted, not announced.
pub const SKILL_SEED: EngineOption = EngineOption {
    name: "Skill Seed",
    fronts: Fronts::UCI.and(Fronts::XBOARD).and(Fronts::UNLISTED),
    kind: Kind::Spin {
        min: 0,
        max: i32::MAX as i64,
        get: |s| s.options.skill_seed as i64,
        set: |s, seed| {
            s.options.skill_seed = seed as u64;
            Ok(())
        },
    },
};

/// XBoard's number of the first rank: 0 for XBoard started with `-rankOffset 1`, which
/// 16-rank boards need (xboard/session.rs). UCI's squares have no such choice.
pub const RANK_BASE: EngineOption = EngineOption {
    name: "RankBase",
    fronts: Fronts::XBOARD,
    kind: Kind::Spin {
        min: 0,
        max: 1,
        get: |s| i64::from(s.options.rank_base),
        set: |s, base| {
            s.options.rank_base = base as u8;
            Ok(())
        },
    },
};

/// The variant. XBoard has its `variants` feature and `variant` command for it.
pub const UCI_VARIANT: EngineOption = EngineOption {
    name: "UCI_Variant",
    fronts: Fronts::UCI,
    kind: Kind::Combo {
        choices: variant_choices,
        get: |s| s.variant.name().to_string(),
        set: choose_variant,
    },
};

/// Variant files to load, a path list.
pub const VARIANT_PATH: EngineOption = EngineOption {
    name: "VariantPath",
    fronts: Fronts::UCI.and(Fronts::XBOARD),
    kind: Kind::Text {
        form: TextForm::File,
        get: |s| s.options.variant_path.clone(),
        set: load_variant_path,
    },
};

/// The net file (empty: none; the built-in net or the hand-made evaluation plays).
pub const EVAL_FILE: EngineOption = EngineOption {
    name: "EvalFile",
    fronts: Fronts::UCI.and(Fronts::XBOARD),
    kind: Kind::Text {
        form: TextForm::File,
        get: |s| s.options.eval_file.clone(),
        set: |s, path, _| s.set_eval_file(path),
    },
};

/// Whether nets evaluate; off, the hand-made evaluation plays every variant.
pub const USE_NNUE: EngineOption = EngineOption {
    name: "Use NNUE",
    fronts: Fronts::UCI.and(Fronts::XBOARD),
    kind: Kind::Check {
        get: |s| s.options.use_nets,
        set: |s, on| {
            s.set_use_nets(on);
            Ok(())
        },
    },
};

/// Forgets what earlier searches stored in the table.
pub const CLEAR_HASH: EngineOption = EngineOption {
    name: "Clear Hash",
    fronts: Fronts::UCI.and(Fronts::XBOARD),
    kind: Kind::Button {
        press: |s| s.new_game(),
    },
};

/// Sent by UCI GUIs unasked; the search is the same whether a person analyses or not.
pub const UCI_ANALYSE_MODE: EngineOption = EngineOption {
    name: "UCI_AnalyseMode",
    fronts: Fronts::UCI.and(Fronts::UNLISTED),
    kind: Kind::Check {
        get: |_| false,
        set: |_, _| Ok(()),
    },
};

/// Sent by UCI GUIs unasked; Chimera reports no win/draw/loss figures.
pub const UCI_SHOW_WDL: EngineOption = EngineOption {
    name: "UCI_ShowWDL",
    fronts: Fronts::UCI.and(Fronts::UNLISTED),
    kind: Kind::Check {
        get: |_| false,
        set: |_, _| Ok(()),
    },
};

/// Every known variant, with Fairy-Stockfish's names of chess after it (`standard`, which
/// Cute Chess sends, and `normal`).
fn variant_choices(state: &EngineState) -> Vec<String> {
    let mut choices = Vec::new();
    for name in state.registry.names() {
        let chess = name == "chess";
        choices.push(name);
        if chess {
            choices.extend(["standard".to_string(), "normal".to_string()]);
        }
    }
    choices
}

/// Switches to the variant `name` and tells its facts. `chess960` is chess with
/// king-takes-rook castling (Fairy-Stockfish's `fischerandom` writes its castling so itself).
fn choose_variant(state: &mut EngineState, name: &str, notes: &mut Notes) -> Result<(), String> {
    let name = name.to_ascii_lowercase();
    let random = name == "chess960";
    state.set_variant(if random { "chess" } else { &name })?;
    if random {
        state.options.chess960 = true;
    }
    notes.push(variant_facts(&state.variant));
    Ok(())
}

/// Loads the variant files of a path list; the variants that loaded are told even when
/// another file or section failed.
fn load_variant_path(state: &mut EngineState, list: &str, notes: &mut Notes) -> Result<(), String> {
    let report = state.load_variant_path(list);
    if !report.loaded.is_empty() {
        notes.push(format!("loaded variants: {}", report.loaded.join(" ")));
    }
    if report.errors.is_empty() {
        Ok(())
    } else {
        Err(report.errors_text("; "))
    }
}
