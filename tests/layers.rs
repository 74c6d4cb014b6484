//! The import graph of the source tree, read from the code itself. Two rules hold:
//! - within the engine crate every reference from one top-level module to another points down
//!   the layer order below, so no lower layer reaches into a higher one;
//! - within every crate no two modules with the same parent refer to each other, directly or
//!   round a longer circle (`engine::variant::hands` may use `engine::variant::conclude`, or be
//!   used by it, not both). A reference counts for the two modules just below the parent its
//!   two ends share: `variant::hands::tests` naming `variant::spec::Located` is `hands -> spec`
//!   among the children of `variant`.
//!
//! A reference is a path as the code writes it: `crate::a::b`, `super::x` and `self::x` (from
//! the module the path stands in, inline `mod` blocks included), a child's name (`tables::X`
//! in `variant`), and each member of a `use` group, groups nested at any depth
//! (`use super::{a::{b, c}, d}`). It names the deepest module the path reaches, so a name a
//! parent re-exports counts as the parent's. Comments, strings and character literals are not
//! read. Between crates, Cargo itself forbids circles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The engine's layers, lowest first: a module may refer only to modules before it.
const ENGINE_LAYERS: &[&str] = &[
    "types", "variant", "board", "movegen", "rules", "registry", "search",
];

/// Every crate of the workspace, by folder.
const CRATES: &[&str] = &[
    "engine",
    "eval",
    "protocol",
    "cli",
    "matchplay",
    "nnue",
    "web",
];

/// A module's path inside its crate: `variant/hands.rs` is `["variant", "hands"]`, the crate
/// root `[]`.
type ModPath = Vec<String>;

/// Among the children of each module (the key), which refers to which.
type SiblingGraphs = BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>>;

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("readable source folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The module path of a file below a crate's `src`: `board/fen.rs` is `[board, fen]`,
/// `search/mod.rs` is `[search]`, `lib.rs` is `[]`.
fn module_path(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).expect("a file of the crate");
    let mut parts: ModPath = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The pieces of code the reader tells apart.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    /// An identifier or keyword (`crate`, `super`, `self`, `mod`, `as` ...).
    Word(String),
    /// `::`
    PathSep,
    /// `{`
    Open,
    /// `}`
    Close,
    /// `,`
    Comma,
    /// `*`
    Star,
    /// Anything else, which ends a path.
    Other,
}

/// The tokens of `text`, without comments (line, block and doc comments), strings (plain,
/// byte and raw) and character literals, whose braces and words are not code.
fn tokens(text: &str) -> Vec<Token> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            // Block comments nest.
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if let Some(hashes) = raw_string_start(rest) {
            // `r"..."`, `r#"..."#`, `br"..."`: no escapes, ended by the quote and the hashes.
            let open = rest.find('"').expect("a raw string's quote") + 1;
            let close = format!("\"{}", "#".repeat(hashes));
            i += open
                + rest[open..]
                    .find(&close)
                    .map_or(rest.len() - open, |e| e + close.len());
            out.push(Token::Other);
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(Token::Other);
        } else if b[i] == b'\'' {
            // A character literal (`'{'`, `'\''`, `'\u{7b}'`), or else a lifetime (`'a`), whose
            // name is read on as a word.
            let body = &rest[1..];
            let end = if body.starts_with('\\') {
                body.get(2..).and_then(|e| e.find('\'')).map(|e| e + 2)
            } else {
                body.find('\'').filter(|&e| body[..e].chars().count() == 1)
            };
            i += end.map_or(1, |e| e + 2);
            out.push(Token::Other);
        } else if word(b[i]) {
            let start = i;
            while i < b.len() && word(b[i]) {
                i += 1;
            }
            out.push(Token::Word(text[start..i].to_string()));
        } else if rest.starts_with("::") {
            out.push(Token::PathSep);
            i += 2;
        } else {
            let c = rest.chars().next().expect("a character");
            i += c.len_utf8();
            out.push(match c {
                '{' => Token::Open,
                '}' => Token::Close,
                ',' => Token::Comma,
                '*' => Token::Star,
                c if c.is_whitespace() => continue,
                _ => Token::Other,
            });
        }
    }
    out
}

/// The number of `#` of a raw string starting `text` (`r"`, `r#"`, `br##"` ...), if one does.
fn raw_string_start(text: &str) -> Option<usize> {
    let after_r = text.strip_prefix("br").or_else(|| text.strip_prefix('r'))?;
    let hashes = after_r.len() - after_r.trim_start_matches('#').len();
    after_r[hashes..].starts_with('"').then_some(hashes)
}

/// For each token, the inline modules (`mod tests { ... }`) it stands in, outermost first.
fn inline_modules(tokens: &[Token]) -> Vec<ModPath> {
    let mut out = Vec::with_capacity(tokens.len());
    // The open inline modules, each with the brace depth inside it.
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    for (i, t) in tokens.iter().enumerate() {
        match t {
            Token::Open => depth += 1,
            Token::Close => {
                if open.last().is_some_and(|(_, d)| *d == depth) {
                    open.pop();
                }
                depth -= 1;
            }
            Token::Word(w) if w == "mod" => {
                if let (Some(Token::Word(name)), Some(Token::Open)) =
                    (tokens.get(i + 1), tokens.get(i + 2))
                {
                    open.push((name.clone(), depth + 1));
                }
            }
            _ => {}
        }
        out.push(open.iter().map(|(n, _)| n.clone()).collect());
    }
    out
}

/// The paths written in `tokens`, each with the index of its first token: `a::b::c`, and for
/// a group `a::{b, c::{d, e}}` each member below its prefix (`a::b`, `a::c::d`, `a::c::e`;
/// `self` in a group is the prefix itself).
fn paths(tokens: &[Token]) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let starts =
            matches!(tokens[i], Token::Word(_)) && (i == 0 || tokens[i - 1] != Token::PathSep);
        if starts {
            let at = i;
            let mut found = Vec::new();
            i = path_tree(tokens, i, Vec::new(), &mut found);
            out.extend(found.into_iter().map(|p| (at, p)));
        } else {
            i += 1;
        }
    }
    out
}

/// Reads one path (or `use` tree) from `tokens[i]` below `prefix`, adding what it names to
/// `out`; returns the index after it.
fn path_tree(
    tokens: &[Token],
    mut i: usize,
    prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    let mut path = prefix;
    while let Some(Token::Word(w)) = tokens.get(i) {
        if w != "self" || path.is_empty() {
            path.push(w.clone());
        }
        i += 1;
        if tokens.get(i) == Some(&Token::PathSep)
            && matches!(tokens.get(i + 1), Some(Token::Word(_)))
        {
            i += 1;
        } else {
            break;
        }
    }
    if tokens.get(i) == Some(&Token::PathSep) && tokens.get(i + 1) == Some(&Token::Open) {
        // A group: its members, each a tree of its own, up to the matching brace.
        i += 2;
        loop {
            match tokens.get(i) {
                Some(Token::Word(_)) => i = path_tree(tokens, i, path.clone(), out),
                // A glob names the module it reads.
                Some(Token::Star) => {
                    out.push(path.clone());
                    i += 1;
                }
                Some(Token::Close) => return i + 1,
                Some(_) => i += 1,
                None => return i,
            }
            // `x as y`: the alias is no path.
            if tokens.get(i) == Some(&Token::Word("as".into())) {
                i += 2;
            }
        }
    }
    out.push(path);
    i
}

/// Where `path`, written in module `here`, points: the module it names, or `None` when it
/// starts with no module of the crate (a local, a type, another crate).
fn resolve(here: &[String], path: &[String], modules: &BTreeSet<ModPath>) -> Option<ModPath> {
    let mut at: ModPath = match path[0].as_str() {
        "crate" => Vec::new(),
        "super" | "self" => here.to_vec(),
        child => {
            let mut own = here.to_vec();
            own.push(child.to_string());
            modules.contains(&own).then_some(here.to_vec())?
        }
    };
    let mut rest = match path[0].as_str() {
        "crate" | "self" => &path[1..],
        _ => path,
    };
    while rest.first().is_some_and(|w| w == "super") {
        at.pop()?;
        rest = &rest[1..];
    }
    // The deepest module the path reaches; what follows names an item in it.
    for w in rest {
        at.push(w.clone());
        if !modules.contains(&at) {
            at.pop();
            break;
        }
    }
    Some(at)
}

/// The references between sibling modules of the crate at `src`, by parent.
fn sibling_graphs(src: &Path) -> SiblingGraphs {
    let files: Vec<(ModPath, Vec<Token>)> = rust_files(src)
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).expect("readable source");
            (module_path(src, &f), tokens(&text))
        })
        .collect();
    // Every module: one per file, and the inline ones.
    let mut modules: BTreeSet<ModPath> = BTreeSet::new();
    let mut inline = Vec::new();
    for (file, toks) in &files {
        let inner = inline_modules(toks);
        for m in &inner {
            let mut whole = file.clone();
            for part in m {
                whole.push(part.clone());
                modules.insert(whole.clone());
            }
        }
        let mut up = file.clone();
        loop {
            modules.insert(up.clone());
            if up.pop().is_none() {
                break;
            }
        }
        inline.push(inner);
    }
    let mut graphs = SiblingGraphs::new();
    for ((file, toks), inner) in files.iter().zip(&inline) {
        for (at, path) in paths(toks) {
            let mut here = file.clone();
            here.extend(inner[at].iter().cloned());
            let Some(target) = resolve(&here, &path, &modules) else {
                continue;
            };
            // The parent both ends share, and the child of it on each side.
            let shared = here.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if let (Some(from), Some(to)) = (here.get(shared), target.get(shared)) {
                graphs
                    .entry(here[..shared].to_vec())
                    .or_default()
                    .entry(from.clone())
                    .or_default()
                    .insert(to.clone());
            }
        }
    }
    graphs
}

/// The circles of a graph: each strongly connected set of more than one node.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let nodes: BTreeSet<&String> = graph.keys().chain(graph.values().flatten()).collect();
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(n) = stack.pop() {
            for m in graph.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    stack.push(m.clone());
                }
            }
        }
        seen
    };
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for n in &nodes {
        let set: BTreeSet<String> = reach(n)
            .into_iter()
            .filter(|m| m != *n && reach(m).contains(*n))
            .chain(std::iter::once((*n).clone()))
            .collect();
        if set.len() > 1 && !out.contains(&set) {
            out.push(set);
        }
    }
    out
}

/// Every circle among siblings in the crate at `src`, as `parent: {a, b}` lines.
fn sibling_circles(name: &str, src: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for (parent, graph) in sibling_graphs(src) {
        for c in circles(&graph) {
            let at = std::iter::once(name.replace('-', "_"))
                .chain(parent.iter().cloned())
                .collect::<Vec<_>>()
                .join("::");
            out.push(format!("{at}: {c:?}"));
        }
    }
    out
}

fn crate_src(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(name)
        .join("src")
}

#[test]
fn the_engine_refers_only_down_its_layers() {
    let graphs = sibling_graphs(&crate_src("engine"));
    let graph = &graphs[&Vec::new()];
    let rank = |m: &str| ENGINE_LAYERS.iter().position(|l| *l == m);
    let mut wrong = Vec::new();
    for (from, targets) in graph {
        let Some(f) = rank(from) else {
            wrong.push(format!("module '{from}' is in no layer"));
            continue;
        };
        for to in targets {
            match rank(to) {
                Some(t) if t < f => {}
                _ => wrong.push(format!("{from} -> {to}")),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "references up or across the layers {ENGINE_LAYERS:?}:\n{}",
        wrong.join("\n")
    );
    // The reader sees the references that are there.
    assert!(graph["board"].contains("variant") && graph["search"].contains("movegen"));
}

#[test]
fn no_sibling_modules_refer_to_each_other() {
    let mut found = Vec::new();
    for name in CRATES {
        found.extend(sibling_circles(name, &crate_src(name)));
    }
    assert!(
        found.is_empty(),
        "modules with the same parent that refer to each other:\n{}",
        found.join("\n")
    );
    // The reader sees references between siblings deep inside the crates.
    let variant = &sibling_graphs(&crate_src("engine"))[&vec!["variant".to_string()]];
    assert!(variant["conclude"].contains("hands"));
}

#[test]
fn the_reader_finds_references() {
    let text = "use crate::{board::fen, types::{Square, self}};\n\
                // crate::commented::out\n\
                let s = \"crate::quoted::{\"; let c = '{'; let l: &'a str = x;\n\
                let x = super::super::a::b(1);\n\
                use self::inner::{deep::{one as two, three}, *};";
    let found: Vec<Vec<String>> = paths(&tokens(text)).into_iter().map(|(_, p)| p).collect();
    let has = |p: &str| found.contains(&p.split("::").map(String::from).collect());
    assert!(has("crate::board::fen") && has("crate::types::Square") && has("crate::types"));
    assert!(has("super::super::a::b"));
    assert!(has("self::inner::deep::one") && has("self::inner::deep::three"));
    assert!(has("self::inner"));
    assert!(!found
        .iter()
        .flatten()
        .any(|w| w == "commented" || w == "quoted" || w == "two"));

    // Paths resolve from the module they stand in, inline modules included.
    let text = "mod tests { use super::super::spec::X; }\nfn f() { tables::Y; self::tables::Z; }";
    let toks = tokens(text);
    let inner = inline_modules(&toks);
    let modules: BTreeSet<ModPath> = [
        vec![],
        vec!["variant"],
        vec!["variant", "hands"],
        vec!["variant", "hands", "tests"],
        vec!["variant", "hands", "tables"],
        vec!["variant", "spec"],
    ]
    .into_iter()
    .map(|m| m.into_iter().map(String::from).collect())
    .collect();
    let file: ModPath = vec!["variant".into(), "hands".into()];
    let resolved: Vec<ModPath> = paths(&toks)
        .into_iter()
        .filter_map(|(at, p)| {
            let mut here = file.clone();
            here.extend(inner[at].iter().cloned());
            resolve(&here, &p, &modules)
        })
        .collect();
    let spec: ModPath = vec!["variant".into(), "spec".into()];
    let tables: ModPath = vec!["variant".into(), "hands".into(), "tables".into()];
    assert_eq!(resolved, vec![spec, tables.clone(), tables]);
}

#[test]
fn the_reader_finds_circles() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        g.entry(a.into()).or_default().insert(b.into());
    }
    let c = circles(&g);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].len(), 3);
}
