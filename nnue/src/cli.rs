//! `chimera datagen` and `chimera train`: their options, parsed and run (the rest of the
//! command line lives in chimera-cli, which hands these two over).

use std::sync::Arc;

use chimera_engine::registry::Registry;
use chimera_engine::search::Evaluator;
use chimera_engine::VariantRef;

use std::time::Instant;

use crate::builtin::{self, HAND};
use crate::datagen::{self, DatagenConfig};
use crate::features::{turned_view_fits, Layout, MAX_MATERIAL_BUCKETS};
use crate::netfile::QuantNet;
use crate::network::FloatNet;
use crate::train::{held_out, mean_loss, train, Dataset, TrainConfig};
use crate::transfer::transfer;

/// Options as `--name value` pairs, with a clear error for anything else.
struct Options {
    pairs: Vec<(String, String)>,
}

impl Options {
    fn parse(args: &[String], known: &[&str]) -> Result<Options, String> {
        let mut pairs = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let name = args[i].as_str();
            if !known.contains(&name) {
                return Err(format!("unknown option or argument '{name}'"));
            }
            let value = args
                .get(i + 1)
                .ok_or_else(|| format!("{name} needs a value"))?;
            pairs.push((name.to_string(), value.clone()));
            i += 2;
        }
        Ok(Options { pairs })
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn all(&self, name: &str) -> Vec<String> {
        self.pairs
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .collect()
    }

    fn number<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| format!("bad {name} '{v}'")),
        }
    }
}

/// The registry with the `--variants` files loaded.
fn registry_of(opts: &Options) -> Result<Registry, String> {
    let mut registry = Registry::new();
    for file in opts.all("--variants") {
        let report = registry.load_file(&file);
        if report.loaded.is_empty() && !report.errors.is_empty() {
            let texts: Vec<String> = report.errors.iter().map(|e| e.to_string()).collect();
            return Err(texts.join("; "));
        }
    }
    Ok(registry)
}

/// The variant asked for (or `default`), from the registry with the `--variants` files.
fn variant_of(opts: &Options, default: &str) -> Result<VariantRef, String> {
    let registry = registry_of(opts)?;
    let name = opts.get("--variant").unwrap_or(default);
    registry
        .get(name)
        .ok_or_else(|| format!("unknown variant '{name}' (see 'chimera variants')"))
}

/// The number of cores, the default thread count of `datagen`.
fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `chimera datagen`; returns the exit code.
pub fn datagen_main(args: &[String]) -> i32 {
    match datagen_run(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("chimera: datagen: {e} (see 'chimera help')");
            1
        }
    }
}

fn datagen_run(args: &[String]) -> Result<(), String> {
    let opts = Options::parse(
        args,
        &[
            "--out",
            "--variant",
            "--variants",
            "--nodes",
            "--games",
            "--threads",
            "--random-plies",
            "--seed",
            "--max-plies",
            "--net",
            "--hash",
        ],
    )?;
    let out = opts.get("--out").ok_or("--out FILE is needed")?.to_string();
    let variant = variant_of(&opts, "chess")?;
    // The games are played with what the engine would play the variant with, unless told.
    let (eval, played_by): (Arc<dyn Evaluator + Send + Sync>, String) = match opts.get("--net") {
        Some(path) if path != HAND => (
            Arc::new(crate::eval::NetEval::load(path, &variant)?),
            format!("the net {path}"),
        ),
        // No --net: the built-in nets where there are; --net hand: none.
        absent_or_hand => {
            let builtin_nets = absent_or_hand.is_none();
            let c = builtin::choose(&variant, None, builtin_nets);
            (c.eval, c.source.describe())
        }
    };
    eprintln!(
        "chimera: datagen: {} plays with {played_by}",
        variant.name()
    );
    let cfg = DatagenConfig {
        eval,
        nodes: opts.number("--nodes", 5000u64)?.max(1),
        games: opts.number("--games", 100u64)?,
        threads: opts.number("--threads", all_cores())?.clamp(1, 256),
        random_plies: opts.number("--random-plies", 8usize)?,
        seed: opts.number("--seed", 1u64)?,
        max_plies: opts.number("--max-plies", 400usize)?.max(1),
        hash_mb: opts.number("--hash", 16usize)?.clamp(1, 4096),
        variant,
    };
    let s = datagen::run(&cfg, &out, true)?;
    eprintln!(
        "chimera: datagen: {} games, {} positions added to {out} ({} games there before)",
        s.games, s.positions, s.games_before
    );
    Ok(())
}

/// Runs `chimera train`; returns the exit code.
pub fn train_main(args: &[String]) -> i32 {
    match train_run(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("chimera: train: {e} (see 'chimera help')");
            1
        }
    }
}

fn train_run(args: &[String]) -> Result<(), String> {
    let opts = Options::parse(
        args,
        &[
            "--data",
            "--out",
            "--variant",
            "--variants",
            "--hidden",
            "--epochs",
            "--lr",
            "--final-lr",
            "--batch",
            "--lambda",
            "--score-scale",
            "--seed",
            "--threads",
            "--mirror",
            "--init",
            "--buckets",
            "--royal-buckets",
            "--view",
        ],
    )?;
    let files = opts.all("--data");
    let first = files.first().ok_or("--data FILE is needed")?;
    let out = opts.get("--out").ok_or("--out NET is needed")?.to_string();
    let named = crate::data::variant_of_file(first)?;
    let variant = variant_of(&opts, &named)?;
    let variant_layout = Layout::of(&variant);
    let defaults = TrainConfig::default();
    let lr = opts.number("--lr", defaults.lr)?;
    // The net to start from, in the layout it was trained with.
    let mut from_same_variant = false;
    let start = match opts.get("--init") {
        None => None,
        Some(file) => {
            let q = QuantNet::load(file)?;
            if q.variant != variant.name() {
                // Another variant's net: its men's knowledge is carried over where the
                // new variant has the same or compound men (see `transfer`).
                let unknown = || {
                    let v = &q.variant;
                    format!(
                        "--init {file}: a net of the unknown variant '{v}' \
                         (load it with --variants)"
                    )
                };
                let old = registry_of(&opts)?.get(&q.variant).ok_or_else(unknown)?;
                let from = q
                    .layout_for(old.name(), &Layout::of(&old))
                    .map_err(|e| format!("--init {file}: {e}"))?;
                let to = variant_layout.with_material_buckets(from.material_buckets());
                let t = transfer(&FloatNet::from_quant(&q), &old, &from, &variant, &to);
                eprintln!(
                    "chimera: train: starting from {}'s net {file}: {}",
                    old.name(),
                    t.describe()
                );
                Some((t.net, to))
            } else {
                from_same_variant = true;
                let from = q
                    .layout_for(variant.name(), &variant_layout)
                    .map_err(|e| format!("--init {file}: {e}"))?;
                Some((FloatNet::from_quant(&q), from))
            }
        }
    };
    // Material buckets: as asked, else the starting net's, else none; a starting net with
    // other buckets has its outputs spread over the new ones.
    let material = opts.number(
        "--buckets",
        start
            .as_ref()
            .map_or(1, |(_, from)| from.material_buckets()),
    )?;
    if !(1..=MAX_MATERIAL_BUCKETS).contains(&material) {
        return Err(format!(
            "bad --buckets {material} (1 to {MAX_MATERIAL_BUCKETS})"
        ));
    }
    // Royal buckets likewise: a starting net with fewer has its inputs copied to each.
    let royal = opts.number(
        "--royal-buckets",
        start.as_ref().map_or(1, |(_, from)| from.royal_buckets()),
    )?;
    // Black's view: as asked, else a starting net's of this variant (a net trained on is
    // read as it was made), else the one that fits the variant's start.
    let turned = match opts.get("--view") {
        Some("turned") => true,
        Some("mirrored") => false,
        Some(other) => return Err(format!("bad --view {other} (turned or mirrored)")),
        None => match &start {
            Some((_, from)) if from_same_variant => from.turned(),
            _ => turned_view_fits(&variant),
        },
    };
    let layout = variant_layout
        .with_material_buckets(material)
        .with_royal_buckets(royal)
        .map_err(|e| format!("bad --royal-buckets: {e}"))?
        .with_turned_view(turned);
    let start = start.map(|(net, from)| net.rebucketed(&from, &layout));
    let cfg = TrainConfig {
        hidden: match (&start, opts.get("--hidden")) {
            (Some(net), None) => net.hidden,
            (Some(net), Some(h)) => {
                return Err(format!(
                    "--hidden {h} with --init: the net to start from has hidden {}",
                    net.hidden
                ))
            }
            (None, _) => opts
                .number("--hidden", layout.default_hidden())?
                .clamp(16, 4096),
        },
        epochs: opts.number("--epochs", defaults.epochs)?,
        lr,
        final_lr: opts.number("--final-lr", lr * defaults.final_lr / defaults.lr)?,
        batch: opts.number("--batch", defaults.batch)?.max(1),
        lambda: opts.number("--lambda", defaults.lambda)?.clamp(0.0, 1.0),
        seed: opts.number("--seed", defaults.seed)?,
        validation: defaults.validation,
        mirror: match opts.get("--mirror").unwrap_or("off") {
            "on" => true,
            "off" => false,
            other => return Err(format!("bad --mirror {other} (on or off)")),
        },
        start,
    };
    if cfg.epochs == 0 {
        return Err("bad --epochs 0 (at least 1)".into());
    }
    if !(cfg.lr > 0.0 && cfg.lr < 1.0) {
        return Err(format!("bad --lr {} (between 0 and 1)", cfg.lr));
    }
    if !(cfg.final_lr > 0.0 && cfg.final_lr <= cfg.lr) {
        return Err(format!(
            "bad --final-lr {} (above 0, at most --lr {})",
            cfg.final_lr, cfg.lr
        ));
    }
    let threads: usize = opts.number("--threads", 0)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut data = Dataset::default();
    let mut full = false;
    for f in &files {
        let skipped = crate::data::for_each_position(f, &variant, |pos, s| {
            full |= !data.push(&layout, pos, s);
        })?;
        if skipped > 0 {
            eprintln!(
                "chimera: train: {f}: {skipped} lines left out (not positions of {})",
                variant.name()
            );
        }
    }
    let auto_scale = data.auto_score_scale();
    // 400 unless asked: `auto` is sound on paper (wide-scoring variants' targets saturate)
    // but has not yet won games (docs/results.md, "Alice Guard").
    match opts.get("--score-scale").unwrap_or("400") {
        "auto" => data.set_score_scale(auto_scale),
        other => match other.parse::<i32>() {
            Ok(s) if (10..=100_000).contains(&s) => data.set_score_scale(s),
            _ => return Err(format!("bad --score-scale {other} (auto, or 10 to 100000)")),
        },
    }
    if full {
        eprintln!("chimera: train: the data holds more features than a dataset can index; the first {} positions are used", data.len());
    }
    eprintln!(
        "chimera: train: {} positions of {} read in {:.1} s; {} inputs ({} royal buckets, \
         Black's view {}), hidden {}, {} output buckets, {} epochs, score scale {} (auto \
         {auto_scale})",
        data.len(),
        variant.name(),
        start.elapsed().as_secs_f64(),
        layout.num_features(),
        layout.royal_buckets(),
        if layout.turned() {
            "turned"
        } else {
            "mirrored"
        },
        cfg.hidden,
        layout.buckets(),
        cfg.epochs,
        data.score_scale()
    );
    if let Some(net) = &cfg.start {
        let held: Vec<u32> = held_out(&data, &cfg).collect();
        if !held.is_empty() {
            let loss = pool.install(|| mean_loss(net, &data, &held, cfg.lambda));
            eprintln!("the --init net: validation {loss:.6}");
        }
    }
    let name = variant.name().to_string();
    let scale = data.score_scale();
    pool.install(|| {
        train(&layout, &data, &cfg, |r, net| {
            let val = r
                .validation_loss
                .map_or(String::new(), |v| format!(", validation {v:.6}"));
            eprintln!(
                "epoch {}/{}: loss {:.6}{val}, {:.0} positions/s",
                r.epoch, cfg.epochs, r.train_loss, r.positions_per_second
            );
            // Each epoch's net is a checkpoint: an interrupted run keeps the last one.
            net.quantise_with_scale(&name, &layout, scale).save(&out)
        })
    })?;
    eprintln!("chimera: train: net written to {out}");
    Ok(())
}
