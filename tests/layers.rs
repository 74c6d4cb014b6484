//! The import graph of the source tree, read from the code itself: within the engine crate
//! every reference from one top-level module to another (`crate::x`, or `super::` paths that
//! climb out of a module) points down the layer order below, so no circle can form and no
//! lower layer reaches into a higher one; within the other crates (eval, protocol, cli,
//! matchplay, nnue) no two modules refer to each other, directly or round a longer circle. Comments
//! are not read. Between crates, Cargo itself forbids circles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The engine's layers, lowest first: a module may refer only to modules before it.
const ENGINE_LAYERS: &[&str] = &[
    "types", "variant", "board", "movegen", "rules", "registry", "search",
];

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
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("a file of the crate");
    let mut parts: Vec<String> = rel
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

/// The code of a file without its comments (line comments, doc comments included).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifier-like words of `s`, each with what follows it, as `a::b::c` paths.
fn paths(s: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        if word(bytes[i]) && (i == 0 || !word(bytes[i - 1]) && bytes[i - 1] != b':') {
            let mut path = Vec::new();
            let mut j = i;
            loop {
                let start = j;
                while j < bytes.len() && word(bytes[j]) {
                    j += 1;
                }
                path.push(s[start..j].to_string());
                if s[j..].starts_with("::") && bytes.get(j + 2).is_some_and(|&b| word(b)) {
                    j += 2;
                } else {
                    break;
                }
            }
            // A group `a::{b, c}`: its members are paths below `a`.
            if s[j..].starts_with("::{") {
                let close = s[j..].find('}').map_or(s.len(), |c| c + j);
                for member in s[j + 3..close].split(',') {
                    let mut p = path.clone();
                    p.extend(member.trim().split("::").map(|w| w.trim().to_string()));
                    out.push(p);
                }
            }
            if path.len() > 1 {
                out.push(path);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The top-level modules each top-level module of the crate at `src` refers to.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = rust_files(src);
    // Only these are modules: a path that resolves to an item of the crate root (a `super`
    // chain counted from inside an inline `mod tests`, say) is not a reference to a module.
    let tops: BTreeSet<String> = files
        .iter()
        .filter_map(|f| module_path(src, f).first().cloned())
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let here = module_path(src, &file);
        let Some(top) = here.first().cloned() else {
            continue; // lib.rs declares the modules
        };
        let text = code(&std::fs::read_to_string(&file).expect("readable source"));
        for path in paths(&text) {
            let target = match path[0].as_str() {
                "crate" => path.get(1).cloned(),
                "super" => {
                    // A `mod.rs` file's own module is its folder; any other file's is itself.
                    let mut at = here.clone();
                    let mut rest = path.as_slice();
                    while rest.first().is_some_and(|w| w == "super") {
                        at.pop();
                        rest = &rest[1..];
                    }
                    at.extend(rest.iter().cloned());
                    at.first().cloned()
                }
                _ => None,
            };
            if let Some(t) = target.filter(|t| *t != top && tops.contains(t)) {
                graph.entry(top.clone()).or_default().insert(t);
            }
        }
    }
    graph
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

fn crate_src(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(name)
        .join("src")
}

#[test]
fn the_engine_refers_only_down_its_layers() {
    let graph = module_graph(&crate_src("engine"));
    let rank = |m: &str| ENGINE_LAYERS.iter().position(|l| *l == m);
    let mut wrong = Vec::new();
    for (from, targets) in &graph {
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
fn the_reader_finds_references_and_circles() {
    let found = paths("use crate::{board::fen, types::Square};\nlet x = super::super::a::b(1);");
    assert!(found.contains(&vec!["crate".into(), "board".into(), "fen".into()]));
    assert!(found.contains(&vec!["crate".into(), "types".into(), "Square".into()]));
    assert!(found.contains(&vec![
        "super".into(),
        "super".into(),
        "a".into(),
        "b".into()
    ]));
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        g.entry(a.into()).or_default().insert(b.into());
    }
    let c = circles(&g);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].len(), 3);
}

#[test]
fn the_other_crates_have_no_circles() {
    for name in ["eval", "protocol", "cli", "matchplay", "nnue"] {
        let c = circles(&module_graph(&crate_src(name)));
        assert!(c.is_empty(), "circles in {name}: {c:?}");
    }
}
