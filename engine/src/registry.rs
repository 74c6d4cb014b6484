//! The variants an engine knows: the built-in definitions embedded in the binary (built once,
//! lazily) and any loaded from user files at run time, which may inherit from them. It sits
//! above the board: a variant is built from its definition alone (`variant::builder`), then its
//! start position is set up on a board to see that the rules can play it.

use std::collections::BTreeMap;

use std::sync::Arc;

use once_cell::sync::{Lazy, OnceCell};

use crate::board::Position;
use crate::variant::builder::{build, VariantError};
use crate::variant::config::{
    parse_config, parse_config_sections, ConfigError, Dialect, SectionConfig, DIALECT_DIRECTIVE,
};
use crate::variant::diagram::parse_diagram;
use crate::variant::VariantRef;

/// The text of the built-in variant file.
pub const BUILTIN_INI: &str = include_str!("variant/builtin/variants.ini");

/// Fairy-Stockfish's built-in variants that Chimera plays in full, as data under their names.
pub const FSF_BUILTIN_INI: &str = include_str!("variant/builtin/fairy-stockfish.ini");

/// Fairy-Stockfish's built-in shogi variants, as data under their names.
pub const FSF_SHOGI_INI: &str = include_str!("variant/builtin/fsf-shogi.ini");
/// Fairy-Stockfish's built-ins of the drop/hand family and n-check (crazyhouse, bughouse,
/// placement, three-check, ...), as data under their names.
pub const FSF_HANDS_INI: &str = include_str!("variant/builtin/fsf-hands.ini");
/// Fairy-Stockfish's chess-like and atomic built-ins (Chess960, atomic, pseudo-royal men).
pub const FSF_CHESSLIKE_INI: &str = include_str!("variant/builtin/fsf-chesslike.ini");
/// Fairy-Stockfish's xiangqi and janggi family, as data under their names.
pub const FSF_XIANGQI_INI: &str = include_str!("variant/builtin/fsf-xiangqi.ini");
/// Fairy-Stockfish's board games (walls, duck, reversi and ataxx drops, connect games) as data.
pub const FSF_BOARDGAMES_INI: &str = include_str!("variant/builtin/fsf-boardgames.ini");
/// Fairy-Stockfish's built-ins of the makruk family (makruk, cambodian, asean, ...).
pub const FSF_MAKRUK_INI: &str = include_str!("variant/builtin/fsf-makruk.ini");

/// Other names accepted for built-in variants (GUIs use them).
const ALIASES: &[(&str, &str)] = &[
    ("standard", "chess"),
    ("normal", "chess"),
    ("fide", "chess"),
];

/// The built-in variant files, in reading order: a section may name a parent from an earlier file.
const BUILTIN_FILES: [(&str, &str); 8] = [
    (BUILTIN_INI, "built-in variants.ini"),
    (FSF_BUILTIN_INI, "built-in fairy-stockfish.ini"),
    (FSF_SHOGI_INI, "built-in fsf-shogi.ini"),
    (FSF_HANDS_INI, "built-in fsf-hands.ini"),
    (FSF_CHESSLIKE_INI, "built-in fsf-chesslike.ini"),
    (FSF_XIANGQI_INI, "built-in fsf-xiangqi.ini"),
    (FSF_BOARDGAMES_INI, "built-in fsf-boardgames.ini"),
    (FSF_MAKRUK_INI, "built-in fsf-makruk.ini"),
];

/// Chimera's own built-ins (chess, the seed games, the classic variants), read at start-up.
static CORE: Lazy<Registry> = Lazy::new(|| read_builtins(&BUILTIN_FILES[..1], None));

/// Fairy-Stockfish's built-ins, read the first time a name outside the core is asked for (or
/// the whole list is): a run that plays chess or a seed game does not parse six more files.
static FSF: Lazy<Registry> = Lazy::new(|| read_builtins(&BUILTIN_FILES[1..], Some(&CORE)));

/// Reads built-in files into a registry of their own sections, parents looked up in `below`
/// as well. Each variant is built the first time it is asked for: a run that plays chess does
/// not pay for building (and hashing) Vanguard's 16x16 board. Every built-in's build is tested
/// (`every_builtin_builds`).
fn read_builtins(files: &[(&str, &str)], below: Option<&Registry>) -> Registry {
    let mut r = Registry {
        configs: BTreeMap::new(),
        variants: BTreeMap::new(),
        order: Vec::new(),
    };
    for &(text, file) in files {
        let known = |name: &str| {
            r.configs
                .get(name)
                .or_else(|| below.and_then(|b| b.configs.get(name)))
                .cloned()
        };
        let (sections, errors) = parse_config_sections(text, file, &known);
        if !errors.is_empty() {
            let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            panic!("the built-in variant file is broken:\n{}", text.join("\n"));
        }
        for section in sections {
            let name = section.name.clone();
            r.order.push(name.clone());
            r.configs.insert(name.clone(), section);
            r.variants.insert(name, Slot::unbuilt("built-in"));
        }
    }
    r
}

/// The section of a built-in variant, by exact name.
fn builtin_config(name: &str) -> Option<&'static SectionConfig> {
    CORE.configs.get(name).or_else(|| FSF.configs.get(name))
}

/// A variant of a registry: built, or a built-in that is built when first asked for.
#[derive(Clone, Debug)]
struct Slot {
    source: &'static str,
    built: Arc<OnceCell<VariantRef>>,
}

impl Slot {
    fn unbuilt(source: &'static str) -> Slot {
        Slot {
            source,
            built: Arc::new(OnceCell::new()),
        }
    }

    fn built(variant: VariantRef) -> Slot {
        Slot {
            source: "",
            built: Arc::new(OnceCell::with_value(variant)),
        }
    }
}

/// A built-in variant by name (or alias), case-insensitive.
pub fn builtin(name: &str) -> Option<VariantRef> {
    Registry::new().get(name)
}

/// The names of the built-in variants, in file order.
pub fn builtin_names() -> Vec<String> {
    Registry::new().names()
}

/// Builds the variant of `section` and sets up its start position, which must be one the
/// rules can play (a FEN error there is reported at the `startFen` line that gave it).
fn build_playable(section: &SectionConfig, source: &str) -> Result<VariantRef, Vec<VariantError>> {
    let variant = build(section, source)?;
    if let Err(e) = Position::from_fen(&variant, variant.start_fen()) {
        let error = match section.get("startFen") {
            Some(entry) => entry.error(e.to_string()),
            None => section.error(format!("start position: {e}")),
        };
        return Err(vec![error]);
    }
    Ok(variant)
}

/// What loading a definition file did: the variants loaded, and every problem of the sections
/// that were not (each located at its file, line and key). A bad section does not keep the
/// others out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// The names of the variants loaded, in file order.
    pub loaded: Vec<String>,
    /// Every problem found, ordered by file and line.
    pub errors: Vec<VariantError>,
    /// What loaded but may not mean what the writer thought: a section inheriting lines
    /// written in another dialect, which keep their writer's meaning.
    pub warnings: Vec<VariantError>,
}

impl LoadReport {
    /// Every problem, one per line of text, joined by `separator`.
    pub fn errors_text(&self, separator: &str) -> String {
        let lines: Vec<String> = self.errors.iter().map(|e| e.to_string()).collect();
        lines.join(separator)
    }

    /// The names loaded when there was no problem at all, else the problems.
    pub fn into_result(self) -> Result<Vec<String>, Vec<VariantError>> {
        if self.errors.is_empty() {
            Ok(self.loaded)
        } else {
            Err(self.errors)
        }
    }
}

/// A set of known variants: the built-ins, and those loaded here with their resolved sections
/// (so later files can inherit from them). A loaded variant of a built-in's name hides it.
#[derive(Clone, Debug)]
pub struct Registry {
    configs: BTreeMap<String, SectionConfig>,
    variants: BTreeMap<String, Slot>,
    order: Vec<String>,
}

impl Default for Registry {
    fn default() -> Self {
        Registry::new()
    }
}

impl Registry {
    /// The built-in variants (and nothing loaded yet).
    pub fn new() -> Registry {
        Registry {
            configs: BTreeMap::new(),
            variants: BTreeMap::new(),
            order: Vec::new(),
        }
    }

    /// Looks a variant up by name or alias, case-insensitive: those loaded here first, then
    /// the built-ins.
    pub fn get(&self, name: &str) -> Option<VariantRef> {
        let lower = name.trim().to_ascii_lowercase();
        let key = ALIASES
            .iter()
            .find(|(a, _)| *a == lower)
            .map_or(lower.as_str(), |(_, n)| n);
        self.get_own(key)
            .or_else(|| CORE.get_own(key))
            .or_else(|| FSF.get_own(key))
    }

    /// A variant of this registry's own (not looking further), built when first asked for.
    fn get_own(&self, key: &str) -> Option<VariantRef> {
        let slot = self.variants.get(key)?;
        let section = &self.configs[key];
        Some(
            slot.built
                .get_or_init(|| {
                    build_playable(section, slot.source).unwrap_or_else(|errors| {
                        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                        panic!("the built-in variant {key} is broken:\n{}", text.join("\n"))
                    })
                })
                .clone(),
        )
    }

    /// The names of all variants, built-ins first (in file order), then in loading order.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = CORE.order.iter().chain(&FSF.order).cloned().collect();
        let builtins = names.len();
        for name in &self.order {
            if !names[..builtins].contains(name) {
                names.push(name.clone());
            }
        }
        names
    }

    /// Loads every good variant of a definition file; the report names them and every problem
    /// of the others.
    pub fn load_file(&mut self, path: &str) -> LoadReport {
        match read_definition_file(path) {
            Ok(text) => self.load_text(&text, path, path),
            Err(message) => LoadReport {
                loaded: Vec::new(),
                errors: vec![ConfigError {
                    file: path.to_string(),
                    line: 0,
                    key: None,
                    message,
                }],
                warnings: Vec::new(),
            },
        }
    }

    /// Loads every good variant of a definition text (`file` names it in errors; `source` is
    /// what the variants say they came from). A section with a problem is left out and the
    /// others load.
    pub fn load_text(&mut self, text: &str, file: &str, source: &str) -> LoadReport {
        let known = |name: &str| {
            self.configs
                .get(name)
                .or_else(|| builtin_config(name))
                .cloned()
        };
        let (sections, mut errors) = parse_config_sections(text, file, &known);
        let mut built = Vec::new();
        for section in &sections {
            if section.get("diagram").is_some() {
                match self.diagram_section(section) {
                    Ok(s) => match build_playable(&s, source) {
                        Ok(v) => built.push((s, v)),
                        Err(e) => errors.extend(e),
                    },
                    Err(e) => errors.push(e),
                }
                continue;
            }
            match build_playable(section, source) {
                Ok(v) => built.push((section.clone(), v)),
                Err(e) => errors.extend(e),
            }
        }
        errors.sort_by_key(|e| (e.file.clone(), e.line));
        let warnings = sections.iter().filter_map(mixed_dialects).collect();
        let mut names = Vec::new();
        for (section, variant) in built {
            let name = section.name.clone();
            if !self.order.contains(&name) {
                self.order.push(name.clone());
            }
            self.configs.insert(name.clone(), section);
            self.variants.insert(name.clone(), Slot::built(variant));
            names.push(name);
        }
        LoadReport {
            loaded: names,
            errors,
            warnings,
        }
    }

    /// Loads an Interactive Diagram parameter line as the variant `name`.
    pub fn load_diagram(&mut self, name: &str, line: &str) -> Result<String, Vec<VariantError>> {
        let fail = |message: String| {
            vec![ConfigError {
                file: "diagram".into(),
                line: 1,
                key: None,
                message,
            }]
        };
        let ini = parse_diagram(line)
            .and_then(|d| d.to_ini(name))
            .map_err(fail)?;
        // A diagram means what the Interactive Diagram means.
        let ini = format!("# {DIALECT_DIRECTIVE} chimera\n{ini}");
        let names = self.load_text(&ini, "diagram", "diagram").into_result()?;
        Ok(names.into_iter().next().unwrap_or_default())
    }

    /// A section `[name]` whose only key is `diagram = <parameter line>`, as the section the
    /// diagram stands for.
    fn diagram_section(&self, section: &SectionConfig) -> Result<SectionConfig, VariantError> {
        let entry = section.get("diagram").expect("checked by the caller");
        if let Some(other) = section.entries().iter().find(|e| e.key != "diagram") {
            return Err(other.error("a section with a diagram takes no other keys"));
        }
        let ini = parse_diagram(&entry.value)
            .and_then(|d| d.to_ini(&section.name))
            .map_err(|m| entry.error(m))?;
        let none = |_: &str| None;
        let mut parsed = parse_config(&ini, &entry.file, &none).map_err(|mut e| e.remove(0))?;
        let mut section = parsed.remove(0);
        section.set_dialect(Dialect::Chimera);
        Ok(section)
    }

    /// Parses and builds a definition text without keeping anything: what would load, and
    /// every problem found.
    pub fn check_text(&self, text: &str, file: &str) -> LoadReport {
        self.clone().load_text(text, file, file)
    }
}

/// The warning for a section that inherits lines whose meaning differs between the dialects
/// from a section written in another dialect than its own: those lines keep their writer's
/// meaning, only the section's own are read in its file's.
fn mixed_dialects(section: &SectionConfig) -> Option<VariantError> {
    let parents = crate::variant::other_dialect_parents(section);
    let (name, dialect) = parents.first()?;
    Some(section.error(format!(
        "warning: variant '{}' is read in the {} dialect but inherits from '{}', written in \
         the {} dialect: the inherited lines keep their {} meaning, only this section's own \
         lines are read as {} reads them",
        section.name,
        section.dialect.name(),
        name,
        dialect.name(),
        dialect.name(),
        section.dialect.name(),
    )))
}

/// The largest variant file read, in bytes: Fairy-Stockfish's own file of 143 variants is
/// about 50 KB; a path a GUI passes that names something far larger (or endless) is refused
/// rather than read until the memory runs out.
pub const MAX_DEFINITION_BYTES: u64 = 8 << 20;

/// The text of a variant definition file: a regular file (not a directory, pipe or device,
/// which could block the reader or never end) of at most [`MAX_DEFINITION_BYTES`], in UTF-8.
pub fn read_definition_file(path: &str) -> Result<String, String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if !meta.is_file() {
        return Err("cannot read: not a regular file".to_string());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_DEFINITION_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_DEFINITION_BYTES {
        return Err(format!(
            "cannot read: larger than {} MB",
            MAX_DEFINITION_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "cannot read: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    /// The general attack test without the reach filter: every man of a general type runs
    /// his captures forwards.
    fn attacked_unfiltered(pos: &Position, sq: crate::types::Square, by: Color) -> bool {
        let mask = pos.variant.attacks()[by.index()].general;
        pos.squares_of(by).iter().any(|&from| {
            let cell = pos.cell_fast(from);
            mask & (1 << cell.id().0) != 0 && pos.general_attack_reaches(from, cell, by, sq)
        })
    }

    /// The attack test's reach filter (`variant::tables::GeneralReach`) only skips men that
    /// cannot attack: on every square of random games of every built-in variant that has
    /// one, the filtered test agrees with the unfiltered.
    #[test]
    fn the_reach_filter_never_skips_an_attacker() {
        let mut tested = 0;
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for name in builtin_names() {
            let variant = builtin(&name).unwrap();
            if variant.general_reach().is_none() {
                continue;
            }
            tested += 1;
            for _game in 0..2 {
                let mut pos = Position::startpos(&variant);
                for _ply in 0..60 {
                    for by in [Color::White, Color::Black] {
                        let mask = variant.attacks()[by.index()].general;
                        for sq in variant.geometry().squares() {
                            assert_eq!(
                                pos.attacked_by_general(sq, by, mask),
                                attacked_unfiltered(&pos, sq, by),
                                "{name}: {sq:?} by {by:?} in {}",
                                pos.fen()
                            );
                        }
                    }
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed = seed
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let mv = moves[(seed >> 33) as usize % moves.len()];
                    pos.make_move(mv);
                }
            }
        }
        // Xiangqi, janggi and the other hopper and lame-leaper games.
        assert!(tested >= 10, "only {tested} variants have a reach filter");
    }

    /// The built-ins are built lazily, so a broken one would only show when asked for: build
    /// each here.
    #[test]
    fn every_builtin_builds() {
        let r = Registry::new();
        for name in builtin_names() {
            assert!(r.get(&name).is_some(), "{name}");
        }
    }

    /// A loaded file may take parents from any built-in file, and a loaded variant of a
    /// built-in's name hides the built-in, listed once in its place.
    #[test]
    fn loaded_variants_inherit_from_and_hide_builtins() {
        let mut r = Registry::new();
        let text = "[myshogi:shogi]\n[crazyhouse:chess]\npieceDrops = false\n";
        let report = r.load_text(text, "test.ini", "test.ini");
        assert_eq!(report.loaded, ["myshogi", "crazyhouse"], "{report:?}");
        let mine = r.get("myshogi").unwrap();
        assert_eq!(mine.start_fen(), builtin("shogi").unwrap().start_fen());
        let house = r.get("crazyhouse").unwrap();
        assert!(!house.start_fen().contains('['), "{}", house.start_fen());
        assert!(builtin("crazyhouse").unwrap().start_fen().contains('['));
        let names = r.names();
        assert_eq!(names.iter().filter(|n| *n == "crazyhouse").count(), 1);
        assert_eq!(names.last().map(String::as_str), Some("myshogi"));
        assert_eq!(names.len(), builtin_names().len() + 1);
    }
}
