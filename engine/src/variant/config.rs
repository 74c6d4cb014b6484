//! The text layer of variant definition files: it owns the INI syntax (sections, `key = value`
//! lines, comments), inheritance between sections (`[child:parent]`), the source location of
//! every value, the tracking of which keys a builder has read, and the small typed value
//! parsers (booleans, numbers, files, ranks, square lists, piece sets, game values). It knows
//! nothing about what a key means; turning a [`SectionConfig`] into a variant is the builder's job.
//!
//! # Syntax
//!
//! The format follows the `variants.ini` files of Fairy-Stockfish:
//!
//! ```text
//! # a comment            ; also a comment
//! [mychess:chess]        # section `mychess`, inheriting every key of `chess`
//! maxFile = 10
//! startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
//! ```
//!
//! * A line whose first non-blank character is `#` or `;` is a comment; blank lines are ignored.
//!   As in Fairy-Stockfish, a comment takes a whole line: a `#` after a value is part of the
//!   value (`maxFile = 10 # ten` has the value `10 # ten`, which the typed parsers then reject
//!   naming the bad token). Only a section header may carry a trailing comment.
//! * `[name]` or `[name:parent]` opens a section. Variant names are case-insensitive: they are
//!   stored in lower case and may use ASCII letters, digits, `-` and `_`, starting with a letter
//!   or digit (`3check-crazyhouse` is a valid name).
//! * `key = value`: the key is everything before the first `=`, the value everything after it,
//!   both trimmed; the value may be empty. Keys are case-sensitive (`maxFile`, not `maxfile`)
//!   and made of ASCII letters, digits and `_`.
//! * A key given twice in one section: the later line wins, silently, as in Fairy-Stockfish
//!   (its own `variants.ini` relies on this).
//! * Every other line is an error, as is a key before the first section header and a section
//!   name defined twice in one file.
//!
//! # Inheritance
//!
//! `[child:parent]` starts from every key of `parent` and then applies the child's own keys,
//! which override. The parent is looked up first among the sections of the same file (in any
//! order), then through the `known` lookup given to [`parse_config`] (built-in or previously
//! loaded variants). Chains are resolved to any depth; an unknown parent or a cycle is an error.
//! Inherited entries keep the file and line where they were written, so an error about an
//! inherited value points at the parent's definition. Defining a section whose name is already
//! known is not an error at this layer: the caller decides whether a file may replace a variant.
//!
//! # Meaning
//!
//! This layer knows no key. The builder's first stage (`spec`) walks every entry of a resolved
//! section and binds it to the field its key names; an entry whose key it does not know is an
//! "unknown key" at its own `file:line`.

use std::collections::HashMap;
use std::fmt;

use crate::types::MAX_BOARD_SIDE;

/// The largest number of characters of an offending line quoted in an error message.
const QUOTE_LIMIT: usize = 48;

/// One `key = value` line of a section, with where it was written.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The key, exactly as written (case-sensitive).
    pub key: String,
    /// The value, trimmed; may be empty.
    pub value: String,
    /// The file the line is in (as named by the caller of [`parse_config`]).
    pub file: String,
    /// The 1-based line number in that file.
    pub line: usize,
    /// The (lower-case) name of the section that wrote this line; for an inherited entry, the
    /// ancestor it comes from.
    pub section: String,
    /// The dialect of the file that wrote the line: an inherited line keeps the meaning it has
    /// in its parent.
    pub dialect: Dialect,
}

impl Entry {
    fn new(key: &str, value: &str, file: &str, line: usize, section: &str) -> Entry {
        Entry {
            key: key.to_string(),
            value: value.to_string(),
            file: file.to_string(),
            line,
            section: section.to_string(),
            dialect: Dialect::default(),
        }
    }

    /// An error located at this entry: `file:line: key 'key': message`.
    pub fn error(&self, message: impl Into<String>) -> ConfigError {
        ConfigError {
            file: self.file.clone(),
            line: self.line,
            key: Some(self.key.clone()),
            message: message.into(),
        }
    }
}

/// One resolved section (one variant definition): its own keys plus every inherited key.
#[derive(Clone, Debug)]
pub struct SectionConfig {
    /// The variant name, lower case.
    pub name: String,
    /// The declared parent, lower case, if the header was `[name:parent]`.
    pub parent: Option<String>,
    /// The file holding the section header.
    pub file: String,
    /// The 1-based line of the section header.
    pub line: usize,
    /// Effective entries: inherited ones not overridden (in the parent's order), then the
    /// section's own (in file order). Each key appears once.
    entries: Vec<Entry>,
    /// The dialect of the file that wrote this section: its own lines are read in it, and
    /// rules that no line decides follow it. Inherited lines keep their writer's dialect
    /// ([`Entry::dialect`]): a child means what its parent means, plus its own lines.
    pub dialect: Dialect,
    /// The dialect of the chain's first section (the one with no parent).
    pub root_dialect: Dialect,
    /// Entries of ancestors that a descendant overrode, each with the section that wrote it:
    /// what an inherited value meant where it was written (a piece letter names the piece its
    /// section gave that letter).
    pub shadowed: Vec<Entry>,
    /// This section's name, then its parent's, and so on up the chain.
    pub lineage: Vec<String>,
    /// The file of the chain's first section, the one with no parent (`built-in ...` for
    /// Chimera's own files): Fairy-Stockfish starts a file's section with no parent from no
    /// pieces, and its built-ins from chess's.
    pub root_file: String,
}

/// Which meanings a definition file gives its keys and Betza strings. The two readings differ
/// in a few rules (see `docs/variant-files.md`, "Dialects"); a file names its dialect with a
/// comment line `# chimera-dialect: chimera` or `# chimera-dialect: fairy-stockfish`, which
/// Fairy-Stockfish reads as a comment. Without one, a file is read as Fairy-Stockfish reads it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// Fairy-Stockfish's meanings (the default for files).
    #[default]
    FairyStockfish,
    /// Chimera's own meanings (its built-in file, Interactive Diagram lines).
    Chimera,
}

impl Dialect {
    /// The name the directive gives the dialect.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::FairyStockfish => "fairy-stockfish",
            Dialect::Chimera => "chimera",
        }
    }
}

/// The directive comment that names a file's dialect.
pub const DIALECT_DIRECTIVE: &str = "chimera-dialect:";

/// The dialect a comment line names, if it is the directive: `Err` for an unknown name.
fn dialect_directive(comment: &str) -> Option<Result<Dialect, String>> {
    let body = comment.trim_start_matches(['#', ';']).trim();
    let name = body.strip_prefix(DIALECT_DIRECTIVE)?.trim();
    Some(match name {
        "chimera" => Ok(Dialect::Chimera),
        "fairy-stockfish" => Ok(Dialect::FairyStockfish),
        other => Err(format!(
            "unknown dialect '{}' (chimera, fairy-stockfish)",
            quote(other)
        )),
    })
}

impl SectionConfig {
    /// Reads the section's own lines (and, where it has no parent, its defaults) in `dialect`:
    /// for a section made from something other than a file (an Interactive Diagram line).
    pub fn set_dialect(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        if self.parent.is_none() {
            self.root_dialect = dialect;
        }
        let name = self.name.clone();
        for entry in self.entries.iter_mut().filter(|e| e.section == name) {
            entry.dialect = dialect;
        }
    }

    /// The entry for `key`; `None` when the key is not set.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }

    /// The value of `key`.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.get(key).map(|e| e.value.as_str())
    }

    /// Reads `key` and parses its value with `parse`, turning a parse
    /// failure into a [`ConfigError`] at the entry's location. `Ok(None)` when the key is unset.
    pub fn get_with<T, F>(&self, key: &str, parse: F) -> Result<Option<T>, ConfigError>
    where
        F: FnOnce(&str) -> Result<T, String>,
    {
        match self.get(key) {
            None => Ok(None),
            Some(entry) => parse(&entry.value)
                .map(Some)
                .map_err(|reason| entry.error(reason)),
        }
    }

    /// True when `key` is set (own or inherited).
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// All effective entries, inherited first.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The keys of all effective entries, in the order of [`SectionConfig::entries`].
    pub fn keys(&self) -> impl Iterator<Item = &str> + '_ {
        self.entries.iter().map(|e| e.key.as_str())
    }

    /// The number of effective entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the section sets no key at all, own or inherited.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// An error located at the section header, with no key: `file:line: message`.
    pub fn error(&self, message: impl Into<String>) -> ConfigError {
        ConfigError {
            file: self.file.clone(),
            line: self.line,
            key: None,
            message: message.into(),
        }
    }
}

/// A located problem in a variant definition file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The file name.
    pub file: String,
    /// The 1-based line number.
    pub line: usize,
    /// The key concerned, if the problem is about one value.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.key {
            Some(key) => write!(
                f,
                "{}:{}: key '{}': {}",
                self.file, self.line, key, self.message
            ),
            None => write!(f, "{}:{}: {}", self.file, self.line, self.message),
        }
    }
}

impl std::error::Error for ConfigError {}

/// A game result as variant files write it (`win`, `loss`, `draw`, `none`), from the point of
/// view of the side the rule applies to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameValue {
    /// `win`.
    Win,
    /// `loss`.
    Loss,
    /// `draw`.
    Draw,
    /// `none`: the rule does not end the game.
    None,
}

/// Checks and normalises a variant name: trimmed, lower-cased, made of ASCII letters, digits,
/// `-` and `_`, starting with a letter or digit. The error names the bad name.
pub fn normalize_variant_name(raw: &str) -> Result<String, String> {
    let name = raw.trim();
    if name.is_empty() {
        return Err("empty variant name".to_string());
    }
    let first_ok = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric());
    let all_ok = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !first_ok || !all_ok {
        return Err(format!(
            "bad variant name '{}': use letters, digits, '-' and '_', starting with a letter or digit",
            quote(name)
        ));
    }
    Ok(name.to_ascii_lowercase())
}

/// A section as read from the file, before inheritance.
struct RawSection {
    name: String,
    parent: Option<String>,
    line: usize,
    /// Own entries, one per key, the later line having replaced the earlier.
    entries: Vec<Entry>,
}

/// Where `key = value` lines go while reading.
enum Target {
    /// Before the first header: such lines are errors.
    Nowhere,
    /// After a broken or duplicate header: lines are checked but dropped (the header already
    /// produced an error).
    Discard,
    /// Into this section of the list.
    Section(usize),
}

/// Parses one variant definition file and resolves inheritance.
///
/// `file_name` is used only in locations. `known` looks up variants defined elsewhere (built-in
/// or loaded before) by lower-case name; it is asked only for parents not defined in this file.
/// Returns the sections in file order, each with its inherited entries, or every error found
/// (syntax errors and inheritance errors, ordered by line).
pub fn parse_config(
    text: &str,
    file_name: &str,
    known: &dyn Fn(&str) -> Option<SectionConfig>,
) -> Result<Vec<SectionConfig>, Vec<ConfigError>> {
    let (sections, errors) = parse_config_sections(text, file_name, known);
    if errors.is_empty() {
        Ok(sections)
    } else {
        Err(errors)
    }
}

/// Parses a definition file as [`parse_config`] does, but keeps going past bad sections: the
/// sections that parsed and resolved cleanly, in file order, and every error found (ordered by
/// line). A section with a bad line, an unknown parent or a cycle is left out; a section
/// inheriting from a section with a bad line inherits the lines that were read.
pub fn parse_config_sections(
    text: &str,
    file_name: &str,
    known: &dyn Fn(&str) -> Option<SectionConfig>,
) -> (Vec<SectionConfig>, Vec<ConfigError>) {
    let mut errors: Vec<ConfigError> = Vec::new();
    let mut sections: Vec<RawSection> = Vec::new();
    let mut by_name: HashMap<String, usize> = HashMap::new();
    let mut target = Target::Nowhere;
    // Every header line, good or bad: where each section's lines end.
    let mut header_lines: Vec<usize> = Vec::new();
    // The file's dialect (a directive anywhere in the file names it for every section).
    let mut dialect = Dialect::default();

    let err = |line: usize, key: Option<&str>, message: String| ConfigError {
        file: file_name.to_string(),
        line,
        key: key.map(str::to_string),
        message,
    };

    for (index, raw_line) in text.lines().enumerate() {
        let line_no = index + 1;
        let raw_line = if index == 0 {
            raw_line.strip_prefix('\u{feff}').unwrap_or(raw_line)
        } else {
            raw_line
        };
        let line = raw_line.trim();
        if line.starts_with('#') || line.starts_with(';') {
            match dialect_directive(line) {
                Some(Ok(d)) => dialect = d,
                Some(Err(message)) => errors.push(err(line_no, None, message)),
                None => {}
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }

        if let Some(rest) = line.strip_prefix('[') {
            // Section header.
            header_lines.push(line_no);
            target = Target::Discard;
            let Some(close) = rest.find(']') else {
                errors.push(err(
                    line_no,
                    None,
                    format!("section header without ']': '{}'", quote(line)),
                ));
                continue;
            };
            let inside = &rest[..close];
            let after = rest[close + 1..].trim();
            if !(after.is_empty() || after.starts_with('#') || after.starts_with(';')) {
                errors.push(err(
                    line_no,
                    None,
                    format!("unexpected text after section header: '{}'", quote(after)),
                ));
                continue;
            }
            let (name_text, parent_text) = match inside.find(':') {
                Some(colon) => (&inside[..colon], Some(&inside[colon + 1..])),
                None => (inside, None),
            };
            if name_text.trim().is_empty() {
                errors.push(err(
                    line_no,
                    None,
                    "section without a variant name".to_string(),
                ));
                continue;
            }
            let name = match normalize_variant_name(name_text) {
                Ok(n) => n,
                Err(reason) => {
                    errors.push(err(line_no, None, reason));
                    continue;
                }
            };
            let parent = match parent_text {
                None => None,
                Some(p) if p.trim().is_empty() => {
                    errors.push(err(
                        line_no,
                        None,
                        format!("section '{name}': empty parent name after ':'"),
                    ));
                    continue;
                }
                Some(p) => match normalize_variant_name(p) {
                    Ok(n) => Some(n),
                    Err(reason) => {
                        errors.push(err(
                            line_no,
                            None,
                            format!("section '{name}': parent: {reason}"),
                        ));
                        continue;
                    }
                },
            };
            if let Some(&first) = by_name.get(&name) {
                errors.push(err(
                    line_no,
                    None,
                    format!(
                        "variant '{name}' is already defined in this file at line {}",
                        sections[first].line
                    ),
                ));
                continue;
            }
            by_name.insert(name.clone(), sections.len());
            target = Target::Section(sections.len());
            sections.push(RawSection {
                name,
                parent,
                line: line_no,
                entries: Vec::new(),
            });
            continue;
        }

        let Some(eq) = line.find('=') else {
            errors.push(err(
                line_no,
                None,
                format!(
                    "not a section header, comment or 'key = value' line: '{}'",
                    quote(line)
                ),
            ));
            continue;
        };
        let key = line[..eq].trim();
        let value = line[eq + 1..].trim();
        if key.is_empty() {
            errors.push(err(line_no, None, "missing key before '='".to_string()));
            continue;
        }
        if !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            errors.push(err(
                line_no,
                None,
                format!(
                    "malformed key '{}': use letters, digits and '_'",
                    quote(key)
                ),
            ));
            continue;
        }
        match target {
            Target::Nowhere => {
                errors.push(err(
                    line_no,
                    Some(key),
                    "outside of any [section]".to_string(),
                ));
            }
            Target::Discard => {}
            Target::Section(i) => {
                let section = &mut sections[i];
                section.entries.retain(|e| e.key != key);
                section
                    .entries
                    .push(Entry::new(key, value, file_name, line_no, &section.name));
            }
        }
    }

    // Every line of this file is read in the file's dialect (the directive may come last).
    for entry in sections.iter_mut().flat_map(|s| s.entries.iter_mut()) {
        entry.dialect = dialect;
    }
    // A section is bad when a line between its header and the next header is bad.
    let syntax_errors: Vec<usize> = errors.iter().map(|e| e.line).collect();
    let resolved = resolve(&sections, &by_name, known, file_name, &mut errors);
    let mut out = Vec::with_capacity(sections.len());
    for (raw, entries) in sections.iter().zip(resolved) {
        let end = header_lines
            .iter()
            .copied()
            .find(|&l| l > raw.line)
            .unwrap_or(usize::MAX);
        let bad = syntax_errors.iter().any(|&l| l > raw.line && l < end);
        if let (Some(resolved), false) = (entries, bad) {
            out.push(SectionConfig {
                name: raw.name.clone(),
                parent: raw.parent.clone(),
                file: file_name.to_string(),
                line: raw.line,
                entries: resolved.entries,
                dialect,
                root_dialect: resolved.root_dialect.unwrap_or(dialect),
                shadowed: resolved.shadowed,
                lineage: resolved.lineage,
                root_file: if resolved.root_file.is_empty() {
                    file_name.to_string()
                } else {
                    resolved.root_file
                },
            });
        }
    }
    errors.sort_by_key(|e| e.line);
    (out, errors)
}

/// A section's inheritance resolved: its effective entries, the ancestors' entries they hide,
/// and its chain of names.
#[derive(Clone, Default)]
struct Resolved {
    entries: Vec<Entry>,
    shadowed: Vec<Entry>,
    lineage: Vec<String>,
    /// The file of the chain's first section; empty while it is this file's.
    root_file: String,
    /// The dialect of the chain's first section; `None` while it is this file's.
    root_dialect: Option<Dialect>,
}

/// The resolution state of one section.
#[derive(Clone)]
enum State {
    Pending,
    Done(Resolved),
    Failed,
}

/// Resolves inheritance for every section: `Some(entries)` per section, or `None` for a section
/// whose chain failed (an error has been pushed for the root cause).
fn resolve(
    sections: &[RawSection],
    by_name: &HashMap<String, usize>,
    known: &dyn Fn(&str) -> Option<SectionConfig>,
    file_name: &str,
    errors: &mut Vec<ConfigError>,
) -> Vec<Option<Resolved>> {
    let mut state: Vec<State> = vec![State::Pending; sections.len()];
    let mut on_path: Vec<bool> = vec![false; sections.len()];
    let mut known_cache: HashMap<String, Option<Resolved>> = HashMap::new();

    for start in 0..sections.len() {
        if !matches!(state[start], State::Pending) {
            continue;
        }
        // Walk up the chain until a resolved base, the top, or a failure.
        let mut path: Vec<usize> = Vec::new();
        let mut current = start;
        let base: Option<Resolved> = loop {
            path.push(current);
            on_path[current] = true;
            let section = &sections[current];
            let Some(parent) = &section.parent else {
                break Some(Resolved::default());
            };
            if let Some(&p) = by_name.get(parent) {
                match &state[p] {
                    State::Done(entries) => break Some(entries.clone()),
                    State::Failed => break None,
                    State::Pending if on_path[p] => {
                        let from = path.iter().position(|&i| i == p).unwrap_or(0);
                        let mut names: Vec<&str> = path[from..]
                            .iter()
                            .map(|&i| sections[i].name.as_str())
                            .collect();
                        names.push(sections[p].name.as_str());
                        errors.push(ConfigError {
                            file: file_name.to_string(),
                            line: sections[p].line,
                            key: None,
                            message: format!("inheritance cycle: {}", names.join(" -> ")),
                        });
                        break None;
                    }
                    State::Pending => {
                        current = p;
                        continue;
                    }
                }
            }
            let found = known_cache
                .entry(parent.clone())
                .or_insert_with(|| {
                    known(parent).map(|s| Resolved {
                        entries: s.entries,
                        shadowed: s.shadowed,
                        lineage: s.lineage,
                        root_file: s.root_file,
                        root_dialect: Some(s.root_dialect),
                    })
                })
                .clone();
            match found {
                Some(entries) => break Some(entries),
                None => {
                    errors.push(ConfigError {
                        file: file_name.to_string(),
                        line: section.line,
                        key: None,
                        message: format!(
                            "variant '{}': unknown parent variant '{}'",
                            section.name, parent
                        ),
                    });
                    break None;
                }
            }
        };

        // Unwind: each section on the path inherits from the one above it.
        let mut base = base;
        for &i in path.iter().rev() {
            on_path[i] = false;
            base = base.map(|inherited| merge(&inherited, &sections[i]));
            state[i] = match &base {
                Some(entries) => State::Done(entries.clone()),
                None => State::Failed,
            };
        }
    }

    state
        .into_iter()
        .map(|s| match s {
            State::Done(entries) => Some(entries),
            _ => None,
        })
        .collect()
}

/// Keys whose lines add to the inherited ones instead of replacing them, as in
/// Fairy-Stockfish (each `promotedPieceType` line sets only the types it names).
const ACCUMULATING: &[&str] = &["promotedPieceType"];

/// Inherited entries not overridden (or accumulating), then the section's own; the overridden
/// ones are kept aside as shadowed.
fn merge(inherited: &Resolved, section: &RawSection) -> Resolved {
    let own = &section.entries;
    let (mut entries, hidden): (Vec<Entry>, Vec<Entry>) =
        inherited.entries.iter().cloned().partition(|e| {
            ACCUMULATING.contains(&e.key.as_str()) || !own.iter().any(|o| o.key == e.key)
        });
    entries.extend(own.iter().cloned());
    let mut shadowed = inherited.shadowed.clone();
    shadowed.extend(hidden);
    let mut lineage = vec![section.name.clone()];
    lineage.extend(inherited.lineage.iter().cloned());
    Resolved {
        entries,
        shadowed,
        lineage,
        root_file: inherited.root_file.clone(),
        root_dialect: inherited.root_dialect,
    }
}

/// At most [`QUOTE_LIMIT`] characters of `text`, with `...` when cut.
fn quote(text: &str) -> String {
    if text.chars().count() <= QUOTE_LIMIT {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(QUOTE_LIMIT).collect();
        s.push_str("...");
        s
    }
}

// ---------------------------------------------------------------------------------------------
// Typed value parsers. Each returns a reason naming the bad token; attach a location with
// `Entry::error` or `SectionConfig::get_with`.
// ---------------------------------------------------------------------------------------------

/// `true` or `false` (exactly, as Fairy-Stockfish reads `[bool]`).
pub fn parse_bool(value: &str) -> Result<bool, String> {
    match value.trim() {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(format!(
            "expected 'true' or 'false', found '{}'",
            quote(other)
        )),
    }
}

/// A decimal integer, optionally signed (`-3`, `+5`, `50`); nothing may follow it.
pub fn parse_int(value: &str) -> Result<i64, String> {
    let v = value.trim();
    v.parse::<i64>()
        .map_err(|_| format!("'{}' is not an integer", quote(v)))
}

/// A non-negative decimal integer that fits in 32 bits (counts such as `nMoveRule`).
pub fn parse_uint(value: &str) -> Result<u32, String> {
    let v = value.trim();
    if v.starts_with('-') {
        return Err(format!(
            "'{}' is negative; a count of 0 or more is needed",
            quote(v)
        ));
    }
    v.parse::<u32>()
        .map_err(|_| format!("'{}' is not a non-negative integer", quote(v)))
}

/// A 1-based number `1..=16` written without leading zeros, as its 0-based index.
fn board_number(text: &str) -> Option<usize> {
    let ok = !text.is_empty()
        && text.len() <= 2
        && text.bytes().all(|b| b.is_ascii_digit())
        && !text.starts_with('0');
    if !ok {
        return None;
    }
    let n: usize = text.parse().ok()?;
    (1..=MAX_BOARD_SIDE).contains(&n).then(|| n - 1)
}

/// A file letter `a..p` (either case) as its 0-based index.
fn file_letter(c: char) -> Option<usize> {
    let lower = c.to_ascii_lowercase();
    if lower.is_ascii_lowercase() {
        let index = (lower as u8 - b'a') as usize;
        (index < MAX_BOARD_SIDE).then_some(index)
    } else {
        None
    }
}

/// A Fairy-Stockfish `[File]`: a 1-based number (`1..=16`) or a letter (`a..p`, either case), as
/// a 0-based index. `10` and `j` both give 9. The board size is not checked here.
pub fn parse_file_letter_or_number(value: &str) -> Result<usize, String> {
    let v = value.trim();
    if v.starts_with(|c: char| c.is_ascii_digit()) {
        return board_number(v).ok_or_else(|| {
            format!(
                "file '{}' is not a number from 1 to {MAX_BOARD_SIDE}",
                quote(v)
            )
        });
    }
    let mut chars = v.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => {
            file_letter(c).ok_or_else(|| format!("file '{}' is not a letter from a to p", quote(v)))
        }
        _ => Err(format!(
            "file '{}' is neither a number from 1 to {MAX_BOARD_SIDE} nor a letter from a to p",
            quote(v)
        )),
    }
}

/// A Fairy-Stockfish `[Rank]`: a 1-based number (`1..=16`), as a 0-based index. The board size is
/// not checked here.
pub fn parse_rank(value: &str) -> Result<usize, String> {
    let v = value.trim();
    board_number(v).ok_or_else(|| {
        format!(
            "rank '{}' is not a number from 1 to {MAX_BOARD_SIDE}",
            quote(v)
        )
    })
}

/// A Fairy-Stockfish `[Bitboard]`: space-separated squares on a board of `files` x `ranks`, as
/// 0-based `(file, rank)` pairs in order of first mention, without repeats.
///
/// A square is a file letter (`a..p`, either case) and a rank number (`1..=16`): `d4`, `j10`.
/// `*N` is the whole rank N (`*1` is the first rank) and `x*` the whole file x (`a*`), as in
/// Fairy-Stockfish. An empty value or a lone `-` is the empty set. A square off the board, a
/// bare `*` or any other token is an error naming the token.
pub fn parse_square_list(
    value: &str,
    files: usize,
    ranks: usize,
) -> Result<Vec<(usize, usize)>, String> {
    let v = value.trim();
    let mut out: Vec<(usize, usize)> = Vec::new();
    if v.is_empty() || v == "-" {
        return Ok(out);
    }
    let files = files.min(MAX_BOARD_SIDE);
    let ranks = ranks.min(MAX_BOARD_SIDE);
    let push = |sq: (usize, usize), out: &mut Vec<(usize, usize)>| {
        if !out.contains(&sq) {
            out.push(sq);
        }
    };
    for token in v.split_whitespace() {
        let shown = quote(token);
        if token == "-" {
            return Err("'-' (no squares) must stand alone".to_string());
        }
        if token == "*" {
            return Err("'*' needs a rank after it ('*1') or a file before it ('a*')".to_string());
        }
        if let Some(rank_text) = token.strip_prefix('*') {
            let rank = board_number(rank_text).ok_or_else(|| {
                format!("'{shown}': '*' must be followed by a rank 1 to {MAX_BOARD_SIDE}")
            })?;
            if rank >= ranks {
                return Err(format!(
                    "'{shown}': rank {} is beyond the {ranks} ranks of the board",
                    rank + 1
                ));
            }
            for file in 0..files {
                push((file, rank), &mut out);
            }
            continue;
        }
        let mut chars = token.chars();
        let first = chars.next().unwrap_or(' ');
        let rest = chars.as_str();
        let file = file_letter(first).ok_or_else(|| {
            format!("'{shown}' is not a square: expected a file letter a to p first")
        })?;
        if file >= files {
            return Err(format!(
                "'{shown}': file '{first}' is beyond the {files} files of the board"
            ));
        }
        if rest == "*" {
            for rank in 0..ranks {
                push((file, rank), &mut out);
            }
            continue;
        }
        let rank = board_number(rest).ok_or_else(|| {
            format!(
                "'{shown}' is not a square: expected a rank 1 to {MAX_BOARD_SIDE} after the file"
            )
        })?;
        if rank >= ranks {
            return Err(format!(
                "'{shown}': rank {} is beyond the {ranks} ranks of the board",
                rank + 1
            ));
        }
        push((file, rank), &mut out);
    }
    Ok(out)
}

/// A Fairy-Stockfish `[PieceSet]`: piece letters such as `nbrq` (spaces allowed between them),
/// returned lower-cased in order of first mention without repeats. `*` (all pieces) is kept
/// as the character `'*'` for the builder to expand. An empty value or a lone `-` is no piece.
pub fn parse_piece_letters(value: &str) -> Result<Vec<char>, String> {
    let v = value.trim();
    let mut out: Vec<char> = Vec::new();
    if v.is_empty() || v == "-" {
        return Ok(out);
    }
    for c in v.chars().filter(|c| !c.is_whitespace()) {
        let letter = if c == '*' {
            '*'
        } else if c.is_ascii_alphabetic() {
            c.to_ascii_lowercase()
        } else if c == '-' {
            return Err(format!(
                "'-' (no pieces) must stand alone, found in '{}'",
                quote(v)
            ));
        } else {
            return Err(format!("'{c}' is not a piece letter (in '{}')", quote(v)));
        };
        if !out.contains(&letter) {
            out.push(letter);
        }
    }
    Ok(out)
}

/// The parent variants XBoard knows, the values `variantTemplate` may take: XBoard takes the
/// board, holdings and move rules of an engine-defined variant from this parent (the protocol
/// sends it in `setup (...) FxR+N_<parent>`), so a name it does not know breaks the game there.
pub const XBOARD_PARENTS: &[&str] = &[
    "fairy",
    "normal",
    "wildcastle",
    "nocastle",
    "fischerandom",
    "bughouse",
    "crazyhouse",
    "losers",
    "suicide",
    "giveaway",
    "twokings",
    "kriegspiel",
    "atomic",
    "3check",
    "threecheck",
    "shatranj",
    "courier",
    "gothic",
    "capablanca",
    "caparandom",
    "knightmate",
    "cylinder",
    "falcon",
    "berolina",
    "janus",
    "super",
    "great",
    "twilight",
    "makruk",
    "asean",
    "seirawan",
    "grand",
    "spartan",
    "xiangqi",
    "janggi",
    "shogi",
    "chu",
    "lion",
    "elven",
    "duck",
];

/// A `variantTemplate`: one of [`XBOARD_PARENTS`], written as XBoard writes it (lower case).
pub fn parse_template(value: &str) -> Result<String, String> {
    let v = value.trim();
    if XBOARD_PARENTS.contains(&v) {
        Ok(v.to_string())
    } else {
        Err(format!(
            "unknown XBoard parent variant '{}': expected one of {}",
            quote(v),
            XBOARD_PARENTS.join(", ")
        ))
    }
}

/// A Fairy-Stockfish `[Value]`: `win`, `loss`, `draw` or `none`.
pub fn parse_value(value: &str) -> Result<GameValue, String> {
    match value.trim() {
        "win" => Ok(GameValue::Win),
        "loss" => Ok(GameValue::Loss),
        "draw" => Ok(GameValue::Draw),
        "none" => Ok(GameValue::None),
        other => Err(format!(
            "expected 'win', 'loss', 'draw' or 'none', found '{}'",
            quote(other)
        )),
    }
}

/// Splits `x:rest` tokens of a space-separated list into the lower-cased piece letter and the
/// text after the colon.
fn letter_pairs(value: &str) -> Result<Vec<(char, &str, &str)>, String> {
    let v = value.trim();
    let mut out = Vec::new();
    if v.is_empty() || v == "-" {
        return Ok(out);
    }
    for token in v.split_whitespace() {
        let Some((letter, rest)) = token.split_once(':') else {
            return Err(format!(
                "'{}' is not of the form letter:value",
                quote(token)
            ));
        };
        let mut chars = letter.chars();
        let c = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_lowercase(),
            _ => {
                return Err(format!(
                    "'{}': '{}' is not a piece letter",
                    quote(token),
                    quote(letter)
                ))
            }
        };
        out.push((c, rest, token));
    }
    Ok(out)
}

/// A list of piece values such as `p:150 n:800` (the syntax of `pieceValueMg`), as lower-cased
/// letters with their values in order of first mention. A letter given twice keeps its later
/// value, as in Fairy-Stockfish. An empty value or a lone `-` is the empty list.
pub fn parse_piece_value_list(value: &str) -> Result<Vec<(char, i32)>, String> {
    let mut out: Vec<(char, i32)> = Vec::new();
    for (letter, number, token) in letter_pairs(value)? {
        let n: i32 = number
            .parse()
            .map_err(|_| format!("'{}': '{}' is not an integer", quote(token), quote(number)))?;
        match out.iter_mut().find(|(c, _)| *c == letter) {
            Some(slot) => slot.1 = n,
            None => out.push((letter, n)),
        }
    }
    Ok(out)
}

/// A list of piece-to-piece pairs such as `p:g s:g` (the syntax of `promotedPieceType`), as
/// lower-cased letter pairs in order of first mention; a letter given twice keeps its later
/// partner. An empty value or a lone `-` is the empty list.
pub fn parse_piece_char_map(value: &str) -> Result<Vec<(char, char)>, String> {
    let mut out: Vec<(char, char)> = Vec::new();
    for (letter, target, token) in letter_pairs(value)? {
        let mut chars = target.chars();
        let t = match (chars.next(), chars.next()) {
            (Some(t), None) if t.is_ascii_alphabetic() => t.to_ascii_lowercase(),
            _ => {
                return Err(format!(
                    "'{}': '{}' is not a piece letter",
                    quote(token),
                    quote(target)
                ))
            }
        };
        match out.iter_mut().find(|(c, _)| *c == letter) {
            Some(slot) => slot.1 = t,
            None => out.push((letter, t)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &str) -> Option<SectionConfig> {
        None
    }

    fn parse_ok(text: &str) -> Vec<SectionConfig> {
        match parse_config(text, "test.ini", &none) {
            Ok(s) => s,
            Err(e) => panic!(
                "unexpected errors: {:?}",
                e.iter().map(|e| e.to_string()).collect::<Vec<_>>()
            ),
        }
    }

    fn parse_err(text: &str) -> Vec<ConfigError> {
        match parse_config(text, "test.ini", &none) {
            Ok(_) => panic!("expected errors"),
            Err(e) => e,
        }
    }

    fn builtin_chess() -> SectionConfig {
        let text = "[chess]\nmaxFile = 8\nmaxRank = 8\ncastling = true\n";
        parse_config(text, "<builtin>", &none).unwrap().remove(0)
    }

    #[test]
    fn basic_section_and_values() {
        let s =
            parse_ok("# header\n\n[MyChess]\nmaxFile = 10\nstartFen=8/8 w - - 0 1\n  empty =  \n");
        assert_eq!(s.len(), 1);
        let sec = &s[0];
        assert_eq!(sec.name, "mychess");
        assert_eq!(sec.parent, None);
        assert_eq!((sec.file.as_str(), sec.line), ("test.ini", 3));
        assert_eq!(sec.value("maxFile"), Some("10"));
        assert_eq!(sec.value("startFen"), Some("8/8 w - - 0 1"));
        assert_eq!(sec.value("empty"), Some(""));
        assert_eq!(sec.get("maxFile").map(|e| e.line), Some(4));
        // Keys are case-sensitive.
        assert!(sec.get("maxfile").is_none());
        assert_eq!(
            sec.keys().collect::<Vec<_>>(),
            vec!["maxFile", "startFen", "empty"]
        );
    }

    #[test]
    fn three_level_chain_with_override() {
        let text = "\
[grandchild:child]
c = 3
a = 30

[base]
a = 1
b = 1

[child:base]
b = 2
";
        let s = parse_ok(text);
        assert_eq!(
            s.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
            vec!["grandchild", "base", "child"]
        );
        let gc = &s[0];
        assert_eq!(gc.parent.as_deref(), Some("child"));
        let a = gc.get("a").unwrap();
        assert_eq!(
            (a.value.as_str(), a.line, a.section.as_str()),
            ("30", 3, "grandchild")
        );
        let b = gc.get("b").unwrap();
        assert_eq!(
            (b.value.as_str(), b.line, b.section.as_str()),
            ("2", 10, "child")
        );
        let c = gc.get("c").unwrap();
        assert_eq!((c.value.as_str(), c.line), ("3", 2));
        assert_eq!(gc.len(), 3);
        // Inherited first (parent order), then own in file order.
        assert_eq!(gc.keys().collect::<Vec<_>>(), vec!["b", "c", "a"]);
        let child = &s[2];
        assert_eq!(child.value("a"), Some("1"));
        assert_eq!(child.value("b"), Some("2"));
        assert_eq!(child.get("a").unwrap().line, 6);
    }

    #[test]
    fn child_of_known_variant() {
        let chess = builtin_chess();
        let known = move |name: &str| (name == "chess").then(|| chess.clone());
        let s = parse_config("[big:Chess]\nmaxFile = 10\nnew = x\n", "user.ini", &known).unwrap();
        let big = &s[0];
        assert_eq!(big.parent.as_deref(), Some("chess"));
        let mf = big.get("maxFile").unwrap();
        assert_eq!(
            (mf.value.as_str(), mf.file.as_str(), mf.line),
            ("10", "user.ini", 2)
        );
        let mr = big.get("maxRank").unwrap();
        assert_eq!(
            (
                mr.value.as_str(),
                mr.file.as_str(),
                mr.line,
                mr.section.as_str()
            ),
            ("8", "<builtin>", 3, "chess")
        );
        assert_eq!(big.len(), 4);
    }

    #[test]
    fn file_section_shadows_known() {
        let chess = builtin_chess();
        let known = move |name: &str| (name == "chess").then(|| chess.clone());
        let s = parse_config("[x:chess]\n", "u.ini", &known).unwrap();
        assert!(s[0].contains_key("maxFile"));
        let s = parse_config("[x:chess]\n[chess]\nonly = 1\n", "u.ini", &known).unwrap();
        assert_eq!(s[0].keys().collect::<Vec<_>>(), vec!["only"]);
    }

    #[test]
    fn comments() {
        let text = "\
# leading comment
; semicolon comment
[v] # comment after header
   # indented comment
a = 1
;a = 2
#a = 3
b = x # not a comment
";
        let s = parse_ok(text);
        assert_eq!(s[0].value("a"), Some("1"));
        // As in Fairy-Stockfish, '#' after a value belongs to the value.
        assert_eq!(s[0].value("b"), Some("x # not a comment"));
        assert!(parse_bool(s[0].value("b").unwrap()).is_err());
    }

    #[test]
    fn crlf_and_bom() {
        let s = parse_ok("\u{feff}[v]\r\na = 1\r\n\r\nb = 2\r\n");
        assert_eq!(s[0].value("a"), Some("1"));
        assert_eq!(s[0].get("b").unwrap().line, 4);
    }

    #[test]
    fn duplicate_key_later_wins() {
        let s = parse_ok("[v]\ncastling = true\nx = 1\ncastling = false\n");
        let e = s[0].get("castling").unwrap();
        assert_eq!((e.value.as_str(), e.line), ("false", 4));
        assert_eq!(s[0].len(), 2);
    }

    #[test]
    fn error_bad_line() {
        let e = parse_err("[v]\na = 1\nthis is junk\n");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].line, 3);
        assert_eq!(e[0].key, None);
        assert!(
            e[0].to_string()
                .starts_with("test.ini:3: not a section header"),
            "{}",
            e[0]
        );
    }

    #[test]
    fn error_section_without_name() {
        for text in ["[]\n", "[ ]\n", "[:chess]\n"] {
            let e = parse_err(text);
            assert_eq!(e.len(), 1, "{text}");
            assert_eq!(
                e[0].to_string(),
                "test.ini:1: section without a variant name"
            );
        }
        let e = parse_err("[v:]\n");
        assert!(e[0].message.contains("empty parent"));
        let e = parse_err("[v\n");
        assert!(e[0].message.contains("without ']'"));
        let e = parse_err("[bad name]\n");
        assert!(e[0].message.contains("bad variant name 'bad name'"));
        let e = parse_err("[v] junk\n");
        assert!(e[0].message.contains("after section header"));
    }

    #[test]
    fn error_lines_after_broken_header_do_not_cascade() {
        let e = parse_err("[bad name]\na = 1\nb = 2\n");
        assert_eq!(e.len(), 1);
    }

    #[test]
    fn error_unknown_parent() {
        let e = parse_err("[a]\nx = 1\n[b:nosuch]\ny = 2\n[c:b]\n");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(
            e[0].to_string(),
            "test.ini:3: variant 'b': unknown parent variant 'nosuch'"
        );
    }

    #[test]
    fn error_cycle() {
        let e = parse_err("[a:b]\n[b:c]\n[c:a]\n[d:a]\n");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].message.starts_with("inheritance cycle: "), "{}", e[0]);
        assert!(e[0].message.contains("a -> b -> c -> a"), "{}", e[0]);
        let e = parse_err("[self:self]\n");
        assert_eq!(e[0].message, "inheritance cycle: self -> self");
    }

    #[test]
    fn error_key_outside_section() {
        let e = parse_err("maxFile = 8\n[v]\n");
        assert_eq!(e.len(), 1);
        assert_eq!(
            e[0].to_string(),
            "test.ini:1: key 'maxFile': outside of any [section]"
        );
    }

    #[test]
    fn error_duplicate_section() {
        let e = parse_err("[v]\na = 1\n[V]\nb = 2\n");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].line, 3);
        assert!(e[0]
            .message
            .contains("already defined in this file at line 1"));
    }

    #[test]
    fn error_malformed_key_and_missing_key() {
        let e = parse_err("[v]\nmax file = 3\n= 4\n");
        assert_eq!(e.len(), 2);
        assert!(e[0].message.contains("malformed key 'max file'"));
        assert!(e[1].message.contains("missing key"));
    }

    #[test]
    fn all_errors_reported_in_line_order() {
        let e = parse_err("junk\n[v:missing]\nmore junk\n[v]\n");
        let lines: Vec<usize> = e.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![1, 2, 3, 4]);
    }

    #[test]
    fn inherited_and_own_entries_keep_their_lines() {
        let chess = builtin_chess();
        let known = move |name: &str| (name == "chess").then(|| chess.clone());
        let s = parse_config(
            "[v:chess]\nmaxFile = 10\nbogusKey = 1\n",
            "user.ini",
            &known,
        )
        .unwrap();
        let v = &s[0];
        assert_eq!(
            v.get_with("maxFile", parse_file_letter_or_number),
            Ok(Some(9))
        );
        assert!(v.get("maxRank").is_some());
        assert_eq!(v.get_with("nothing", parse_int), Ok(None));
        let at: Vec<String> = v
            .entries()
            .iter()
            .map(|e| format!("{}:{}: {}", e.file, e.line, e.key))
            .collect();
        assert_eq!(
            at,
            vec![
                "<builtin>:3: maxRank".to_string(),
                "<builtin>:4: castling".to_string(),
                "user.ini:2: maxFile".to_string(),
                "user.ini:3: bogusKey".to_string()
            ]
        );
    }

    #[test]
    fn get_with_reports_location() {
        let s = parse_ok("[v]\n\ncastling = yes\n");
        let e = s[0].get_with("castling", parse_bool).unwrap_err();
        assert_eq!(
            e.to_string(),
            "test.ini:3: key 'castling': expected 'true' or 'false', found 'yes'"
        );
        assert_eq!(
            s[0].error("bad variant").to_string(),
            "test.ini:1: bad variant"
        );
    }

    #[test]
    fn bool_parser() {
        assert_eq!(parse_bool("true"), Ok(true));
        assert_eq!(parse_bool(" false "), Ok(false));
        for bad in ["True", "1", "", "yes", "true false"] {
            assert!(parse_bool(bad).is_err(), "{bad}");
        }
        assert!(parse_bool("maybe").unwrap_err().contains("'maybe'"));
    }

    #[test]
    fn int_parsers() {
        assert_eq!(parse_int("50"), Ok(50));
        assert_eq!(parse_int(" -3 "), Ok(-3));
        assert_eq!(parse_int("+7"), Ok(7));
        for bad in ["", "x", "1.5", "10 # c", "99999999999999999999"] {
            assert!(parse_int(bad).is_err(), "{bad}");
        }
        assert!(parse_int("abc").unwrap_err().contains("'abc'"));
        assert_eq!(parse_uint("0"), Ok(0));
        assert_eq!(parse_uint("100"), Ok(100));
        assert!(parse_uint("-1").unwrap_err().contains("'-1'"));
        assert!(parse_uint("5000000000").is_err());
    }

    #[test]
    fn file_parser() {
        assert_eq!(parse_file_letter_or_number("1"), Ok(0));
        assert_eq!(parse_file_letter_or_number("10"), Ok(9));
        assert_eq!(parse_file_letter_or_number("16"), Ok(15));
        assert_eq!(parse_file_letter_or_number("a"), Ok(0));
        assert_eq!(parse_file_letter_or_number("j"), Ok(9));
        assert_eq!(parse_file_letter_or_number("P"), Ok(15));
        for bad in ["0", "17", "q", "aa", "", "01", "-1", "1a", "é"] {
            assert!(parse_file_letter_or_number(bad).is_err(), "{bad}");
        }
        assert!(parse_file_letter_or_number("q")
            .unwrap_err()
            .contains("'q'"));
    }

    #[test]
    fn rank_parser() {
        assert_eq!(parse_rank("1"), Ok(0));
        assert_eq!(parse_rank("8"), Ok(7));
        assert_eq!(parse_rank(" 16 "), Ok(15));
        for bad in ["0", "17", "a", "", "08", "1 2"] {
            assert!(parse_rank(bad).is_err(), "{bad}");
        }
        assert!(parse_rank("17").unwrap_err().contains("'17'"));
    }

    #[test]
    fn square_list_parser() {
        assert_eq!(
            parse_square_list("d4 e4 d5 e5", 8, 8),
            Ok(vec![(3, 3), (4, 3), (3, 4), (4, 4)])
        );
        assert_eq!(parse_square_list("", 8, 8), Ok(vec![]));
        assert_eq!(parse_square_list(" - ", 8, 8), Ok(vec![]));
        let first_rank = parse_square_list("*1", 8, 8).unwrap();
        assert_eq!(first_rank, (0..8).map(|f| (f, 0)).collect::<Vec<_>>());
        let a_file = parse_square_list("a*", 8, 10).unwrap();
        assert_eq!(a_file, (0..10).map(|r| (0, r)).collect::<Vec<_>>());
        assert_eq!(
            parse_square_list("j10 P16 p16", 16, 16),
            Ok(vec![(9, 9), (15, 15)])
        );
        assert_eq!(parse_square_list("*10", 10, 10).unwrap().len(), 10);
        // Repeats are dropped.
        assert_eq!(parse_square_list("a1 *1", 2, 2), Ok(vec![(0, 0), (1, 0)]));
        for bad in [
            "i1", "a9", "*9", "i*", "*", "**", "*0", "a0", "a17", "4", "d", "d4x", "- a1", "a01",
            "é1", "*é",
        ] {
            assert!(parse_square_list(bad, 8, 8).is_err(), "{bad}");
        }
        let err = parse_square_list("d4 z9", 8, 8).unwrap_err();
        assert!(err.contains("'z9'"), "{err}");
        let err = parse_square_list("i1", 8, 8).unwrap_err();
        assert!(err.contains("'i1'") && err.contains("8 files"), "{err}");
    }

    #[test]
    fn piece_letter_parser() {
        assert_eq!(parse_piece_letters("nbrq"), Ok(vec!['n', 'b', 'r', 'q']));
        assert_eq!(parse_piece_letters("N b  R"), Ok(vec!['n', 'b', 'r']));
        assert_eq!(parse_piece_letters("qq"), Ok(vec!['q']));
        assert_eq!(parse_piece_letters("-"), Ok(vec![]));
        assert_eq!(parse_piece_letters(""), Ok(vec![]));
        assert_eq!(parse_piece_letters("*"), Ok(vec!['*']));
        for bad in ["n-", "n1", "n:b", "é"] {
            assert!(parse_piece_letters(bad).is_err(), "{bad}");
        }
        assert!(parse_piece_letters("nb1").unwrap_err().contains("'1'"));
    }

    #[test]
    fn value_parser() {
        assert_eq!(parse_value("win"), Ok(GameValue::Win));
        assert_eq!(parse_value("loss"), Ok(GameValue::Loss));
        assert_eq!(parse_value(" draw "), Ok(GameValue::Draw));
        assert_eq!(parse_value("none"), Ok(GameValue::None));
        for bad in ["Win", "lose", "", "1"] {
            assert!(parse_value(bad).is_err(), "{bad}");
        }
        assert!(parse_value("lose").unwrap_err().contains("'lose'"));
    }

    #[test]
    fn piece_value_list_parser() {
        assert_eq!(
            parse_piece_value_list("p:150 n:800"),
            Ok(vec![('p', 150), ('n', 800)])
        );
        assert_eq!(parse_piece_value_list("R:1276"), Ok(vec![('r', 1276)]));
        assert_eq!(
            parse_piece_value_list("p:1 n:2 p:3"),
            Ok(vec![('p', 3), ('n', 2)])
        );
        assert_eq!(parse_piece_value_list("q:-5"), Ok(vec![('q', -5)]));
        assert_eq!(parse_piece_value_list(""), Ok(vec![]));
        assert_eq!(parse_piece_value_list("-"), Ok(vec![]));
        for bad in [
            "p150",
            "p:",
            ":5",
            "pp:5",
            "1:5",
            "p:x",
            "p:1.5",
            "p:99999999999",
        ] {
            assert!(parse_piece_value_list(bad).is_err(), "{bad}");
        }
        assert!(parse_piece_value_list("p:1 n:x")
            .unwrap_err()
            .contains("'n:x'"));
    }

    #[test]
    fn piece_char_map_parser() {
        assert_eq!(
            parse_piece_char_map("p:g s:G"),
            Ok(vec![('p', 'g'), ('s', 'g')])
        );
        assert_eq!(parse_piece_char_map("-"), Ok(vec![]));
        for bad in ["p", "p:", "p:gg", "p:1", "1:g"] {
            assert!(parse_piece_char_map(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn variant_names() {
        assert_eq!(
            normalize_variant_name(" 3Check-Crazyhouse "),
            Ok("3check-crazyhouse".to_string())
        );
        assert_eq!(normalize_variant_name("my_var"), Ok("my_var".to_string()));
        for bad in ["", "-x", "a b", "a.b", "é"] {
            assert!(normalize_variant_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn error_display_and_trait() {
        let e = ConfigError {
            file: "f.ini".into(),
            line: 7,
            key: Some("k".into()),
            message: "bad".into(),
        };
        assert_eq!(e.to_string(), "f.ini:7: key 'k': bad");
        let e2 = ConfigError { key: None, ..e };
        assert_eq!(e2.to_string(), "f.ini:7: bad");
        let boxed: Box<dyn std::error::Error> = Box::new(e2);
        assert_eq!(boxed.to_string(), "f.ini:7: bad");
    }

    #[test]
    fn section_config_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<SectionConfig>();
        check::<ConfigError>();
    }

    /// A small deterministic generator, enough for junk input.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn random_junk_never_panics() {
        let chess = builtin_chess();
        let known = move |name: &str| (name == "chess").then(|| chess.clone());
        let alphabet: Vec<char> = "[]:=#; \t\n\r-_*abcpqAZ0123456789é\u{feff}\u{0}ß漢/"
            .chars()
            .collect();
        let fragments = [
            "[a]",
            "[b:a]",
            "[a:b]",
            "[c:chess]",
            "[d:c]",
            "[x:nope]",
            "[",
            "]",
            "[:]",
            "k = v",
            "maxFile = 8",
            "=",
            "# c",
            "; c",
            "\n",
            "\r\n",
            " ",
            "*1",
            "a*",
            "é",
            "[A]",
            "k=",
            "==",
            "[e:e]",
        ];
        let mut rng = Lcg(0x5eed);
        for round in 0..3000 {
            let mut text = String::new();
            if round % 2 == 0 {
                for _ in 0..rng.below(200) {
                    text.push(alphabet[rng.below(alphabet.len())]);
                }
            } else {
                for _ in 0..rng.below(30) {
                    text.push_str(fragments[rng.below(fragments.len())]);
                    if rng.below(3) == 0 {
                        text.push('\n');
                    }
                }
            }
            if let Ok(sections) = parse_config(&text, "junk.ini", &known) {
                for s in &sections {
                    for e in s.entries() {
                        let _ = s.get_with(&e.key, parse_bool);
                    }
                }
            }
            let token: String = text.chars().take(12).collect();
            let _ = parse_bool(&token);
            let _ = parse_int(&token);
            let _ = parse_uint(&token);
            let _ = parse_file_letter_or_number(&token);
            let _ = parse_rank(&token);
            let _ = parse_square_list(&token, rng.below(20), rng.below(20));
            let _ = parse_piece_letters(&token);
            let _ = parse_value(&token);
            let _ = parse_piece_value_list(&token);
            let _ = parse_piece_char_map(&token);
            let _ = normalize_variant_name(&token);
        }
    }
}
