//! The engine state that both GUI dialects (UCI and XBoard) drive: the known variants, the
//! current variant and position with its move history, the options, the output sink and the
//! searcher, which runs on a worker thread while the dialect keeps reading commands.

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chimera_engine::registry::{LoadReport, Registry};
use chimera_engine::search::{
    skill, Evaluator, Limits, SearchReport, SearchResult, Searcher, Skill, SEARCH_STACK_BYTES,
};
use chimera_engine::{Move, MoveError, Position, VariantRef};
use chimera_nnue::builtin::{self, Source};
use chimera_nnue::netfile::QuantNet;

use crate::report::perft_lines;

/// Where protocol lines go. Cloned into the search thread, so a line is written whole and
/// flushed at once whichever thread writes it; tests capture the lines instead of stdout.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

/// The lines written to a captured [`Output`].
#[derive(Clone, Default)]
pub struct Capture(Arc<Mutex<Vec<u8>>>);

struct CaptureWriter(Arc<Mutex<Vec<u8>>>);

impl Write for CaptureWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        v.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    /// Removes and returns the lines written so far.
    pub fn take(&self) -> Vec<String> {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let text = String::from_utf8_lossy(&v).into_owned();
        v.clear();
        text.lines().map(str::to_string).collect()
    }
}

impl Output {
    /// Lines go to `w`.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Lines go to standard output.
    pub fn stdout() -> Output {
        Output::new(std::io::stdout())
    }

    /// Lines are kept in memory, for tests.
    pub fn capture() -> (Output, Capture) {
        let c = Capture::default();
        (Output::new(CaptureWriter(c.0.clone())), c)
    }

    /// Writes one line and flushes it. A GUI that has gone away cannot be told anything, so
    /// write errors are dropped; the input side notices the closed pipe and ends the session.
    pub fn line(&self, s: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{s}").and_then(|_| w.flush());
    }
}

/// What the dialect's main loop receives: an input line, the end of input, or a finished
/// search.
pub enum Event {
    /// One line from the GUI.
    Line(String),
    /// A line that cannot be a command (not UTF-8, or far too long): what is wrong with it,
    /// for the dialect to report in its own form.
    Unreadable(String),
    /// The GUI closed its end.
    Eof,
    /// A search or another job finished (or was stopped).
    Done(Box<Finished>),
}

/// A finished job: a search, with the searcher handed back to the state, or a perft count,
/// which has written its own lines.
pub struct Finished {
    /// The job's number, to tell a current job from an abandoned one.
    id: u64,
    job: FinishedJob,
}

enum FinishedJob {
    Search(Box<SearchDone>),
    Perft,
}

/// A finished search: what it found, the position it searched, and the searcher.
struct SearchDone {
    result: SearchResult,
    root: Position,
    searcher: Searcher,
}

/// The values of the engine's options, which the options table (`crate::options`) declares
/// and sets (UCI `setoption`, XBoard `memory`/`cores`/`hard`/`option`, the web board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// How many best lines the search reports (UCI `MultiPV`).
    pub multipv: u32,
    /// UCI_Chess960: castling is written king-takes-rook.
    pub chess960: bool,
    /// Whether the GUI may ask for pondering.
    pub ponder: bool,
    /// Milliseconds kept back on every clock decision.
    pub move_overhead: u64,
    /// Variant files loaded through the option, as given.
    pub variant_path: String,
    /// The net file loaded (UCI `EvalFile`, XBoard `option EvalFile=`, `--net`), as given;
    /// empty for none.
    pub eval_file: String,
    /// Whether nets evaluate (UCI `Use NNUE`): off, the hand-made evaluation plays every
    /// variant, whatever nets there are.
    pub use_nets: bool,
    /// XBoard's number of the first rank on the wire (`RankBase`): 1, or 0 for XBoard's
    /// `-rankOffset 1`.
    pub rank_base: u8,
    /// `Skill Level`: 0 to 20, 20 being full strength (engine/src/search/skill.rs).
    pub skill_level: u8,
    /// `UCI_LimitStrength`: play at the level of `UCI_Elo` instead of `Skill Level`.
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength asked for when `limit_strength` is on.
    pub elo: i32,
    /// `Skill Seed`: the seed of a weakened search's random choices; 0 draws one at start-up.
    pub skill_seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            chess960: false,
            ponder: false,
            move_overhead: chimera_engine::search::time::DEFAULT_OVERHEAD_MS,
            variant_path: String::new(),
            eval_file: String::new(),
            use_nets: true,
            rank_base: 1,
            skill_level: Skill::FULL,
            limit_strength: false,
            elo: skill::MAX_ELO,
            skill_seed: 0,
        }
    }
}

/// The default table size in MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// The largest table size accepted, in MB.
pub const MAX_HASH_MB: usize = 65536;
/// The most search threads accepted.
pub const MAX_THREADS: usize = 256;

/// What a search is for: a move to play, at the strength the skill options set, or analysis,
/// always at full strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchFor {
    /// The engine's move in a game (pondering included).
    Move,
    /// Lines for a person to read (UCI `go infinite`, XBoard `analyze`, the web board's
    /// analysis and review).
    Analysis,
}

/// The search (or perft count) that is running, as the dialect sees it.
#[derive(Clone, Debug)]
pub struct Running {
    /// Its number.
    pub id: u64,
    /// `go infinite`, `go ponder` or analysis: the result is held back until it is stopped.
    pub open_ended: bool,
    /// A stop was requested.
    pub stopped: bool,
    /// The dialect will ignore the result (the game moved on while it ran).
    pub discard: bool,
}

/// The state shared by both dialects.
pub struct EngineState {
    /// Every known variant.
    pub registry: Registry,
    /// The current variant.
    pub variant: VariantRef,
    /// The evaluator of the current variant ([`builtin::choose`]): the loaded net when it
    /// was made for the variant, else the variant's built-in net, else the hand-made
    /// evaluation.
    pub eval: Arc<dyn Evaluator + Send + Sync>,
    /// Whether `eval` is a net (a loaded one or a built-in one).
    eval_is_net: bool,
    /// The net loaded, kept across variant changes: it plays the variant it was made for.
    net: Option<Arc<QuantNet>>,
    /// The current position; its move history is the game so far.
    pub position: Position,
    /// The options.
    pub options: Options,
    /// Where the lines go.
    pub out: Output,
    /// The search in progress, if any.
    pub running: Option<Running>,
    searcher: Option<Searcher>,
    stop: Arc<AtomicBool>,
    generation: Arc<AtomicU64>,
    hash_dirty: bool,
    /// The evaluator changed while a search held the searcher: its cached evaluations are
    /// forgotten when it comes back.
    eval_dirty: bool,
    events: Sender<Event>,
    /// The seed of weakened searches when `Skill Seed` is 0, drawn when the state is made.
    drawn_seed: u64,
    /// How the dialect writes an error line (UCI `info string error: ...`, XBoard
    /// `Error (...): ...`), for the errors found away from a command: a table size that could
    /// not be had once a search ended, a job that failed.
    pub error_line: fn(&str) -> String,
}

/// A seed for the random choices of weakened searches that differs from run to run: the
/// clock's nanoseconds and the process id (never 0).
fn drawn_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ u64::from(std::process::id()).rotate_left(32)) | 1
}

/// The UCI form of an error line, the default [`EngineState::error_line`].
pub fn uci_error_line(text: &str) -> String {
    format!("info string error: {text}")
}

impl EngineState {
    /// A state playing chess from the start, writing to `out`; finished searches are sent
    /// to `events`, the channel the dialect's loop reads.
    pub fn new(registry: Registry, out: Output, events: Sender<Event>) -> EngineState {
        let variant = registry
            .get("chess")
            .or_else(|| registry.names().first().and_then(|n| registry.get(n)))
            .expect("the registry holds the built-in variants");
        let options = Options::default();
        let searcher = Searcher::new(options.hash_mb, options.threads);
        let stop = searcher.stop_handle();
        let choice = builtin::choose(&variant, None, options.use_nets);
        EngineState {
            eval: choice.eval,
            eval_is_net: choice.source != Source::Hand,
            net: None,
            position: Position::startpos(&variant),
            variant,
            registry,
            options,
            out,
            running: None,
            searcher: Some(searcher),
            stop,
            generation: Arc::new(AtomicU64::new(0)),
            hash_dirty: false,
            eval_dirty: false,
            events,
            drawn_seed: drawn_seed(),
            error_line: uci_error_line,
        }
    }

    /// Switches to the variant `name` (or an alias) at its start position.
    pub fn set_variant(&mut self, name: &str) -> Result<(), String> {
        let v = self
            .registry
            .get(name)
            .ok_or_else(|| format!("unknown variant '{name}'"))?;
        let changed = !Arc::ptr_eq(&v, &self.variant);
        let was_net = self.eval_is_net;
        self.position = Position::startpos(&v);
        self.variant = v;
        if changed {
            // A loaded net made for another variant was said so when it was loaded.
            let _ = self.rebuild_eval();
            // A net's evaluations in the table would mislead the next evaluator; the
            // hand-made evaluation's, kept by variant, may stay (as between games).
            if was_net || self.eval_is_net {
                self.forget_evaluations();
            }
        }
        Ok(())
    }

    /// The evaluator for the current variant ([`builtin::choose`]), with an error saying why
    /// the loaded net does not play it.
    fn rebuild_eval(&mut self) -> Result<(), String> {
        let choice = builtin::choose(&self.variant, self.net.as_ref(), self.options.use_nets);
        self.eval = choice.eval;
        self.eval_is_net = choice.source != Source::Hand;
        choice.note.map_or(Ok(()), Err)
    }

    /// Turns the nets on or off (UCI `Use NNUE`); off, the hand-made evaluation plays.
    pub fn set_use_nets(&mut self, on: bool) {
        if on != self.options.use_nets {
            self.options.use_nets = on;
            self.forget_evaluations();
            let _ = self.rebuild_eval();
        }
    }

    /// The variant the loaded net was made for, if a net is loaded.
    pub fn net_variant(&self) -> Option<&str> {
        self.net.as_ref().map(|n| n.variant.as_str())
    }

    /// The searcher caches evaluations by position (and scores in its table): when the
    /// evaluator changes, the old one's are forgotten (now, or when the search that holds the
    /// searcher ends).
    fn forget_evaluations(&mut self) {
        match self.searcher.as_mut() {
            Some(s) => s.clear(),
            None => self.eval_dirty = true,
        }
    }

    /// Loads the net file at `path` (empty or `<empty>`: none; the built-in net or the
    /// hand-made evaluation plays). A file that cannot be read as a net is refused and what
    /// played before plays on; a net made for another variant than the current one is an
    /// error too, but is kept for when its variant is chosen (a GUI may set the file before
    /// the variant).
    pub fn set_eval_file(&mut self, path: &str) -> Result<(), String> {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            self.forget_evaluations();
            self.net = None;
            self.options.eval_file.clear();
            return self.rebuild_eval();
        }
        let net = QuantNet::load(path)?;
        self.forget_evaluations();
        self.net = Some(Arc::new(net));
        self.options.eval_file = path.to_string();
        self.rebuild_eval()
    }

    /// Sets up `fen` (or the start position) and plays `moves`. All or nothing: on an error
    /// the previous position is kept. Returns what is odd about the FEN's position, though
    /// playable ([`Position::oddities`]), for the dialect to pass on as warnings.
    pub fn set_position(
        &mut self,
        fen: Option<&str>,
        moves: &[&str],
    ) -> Result<Vec<String>, String> {
        let mut pos = match fen {
            Some(f) => Position::from_fen(&self.variant, f).map_err(|e| format!("bad FEN: {e}"))?,
            None => Position::startpos(&self.variant),
        };
        let oddities = if fen.is_some() {
            pos.oddities()
        } else {
            Vec::new()
        };
        for m in moves {
            pos.try_play(m).map_err(|e| e.to_string())?;
        }
        self.position = pos;
        Ok(oddities)
    }

    /// Plays one move on the current position.
    pub fn play(&mut self, text: &str) -> Result<Move, MoveError> {
        self.position.try_play(text)
    }

    /// Forgets what earlier games taught the searcher.
    pub fn new_game(&mut self) {
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
    }

    /// Applies the thread options to the searcher (now, or when it comes back from a running
    /// search).
    /// The strength that the skill options set for the engine's moves: `UCI_Elo`'s level when
    /// `UCI_LimitStrength` is on, else `Skill Level`; the seed is `Skill Seed`, or the one drawn
    /// when this state was made.
    pub fn skill(&self) -> Skill {
        let level = if self.options.limit_strength {
            skill::level_for_elo(self.options.elo)
        } else {
            self.options.skill_level
        };
        let seed = match self.options.skill_seed {
            0 => self.drawn_seed,
            s => s,
        };
        Skill { level, seed }
    }

    fn apply_options(&self, searcher: &mut Searcher) {
        searcher.set_threads(self.options.threads);
        searcher.move_overhead = self.options.move_overhead;
    }

    /// Gives `searcher` the table size of the options; if that size cannot be had, the table
    /// keeps its size, and so does the option.
    fn apply_hash(&mut self, searcher: &mut Searcher) -> Result<(), String> {
        let mb = self.options.hash_mb;
        searcher.set_hash(mb).map_err(|e| {
            self.options.hash_mb = searcher.hash_mb();
            format!(
                "table size {mb} MB: {e}; the table stays at {} MB",
                self.options.hash_mb
            )
        })
    }

    /// Sets the table size in MB (1 to [`MAX_HASH_MB`]). A size the machine cannot give is an
    /// error naming it, and the table stays as it was. While a search holds the searcher the
    /// new size is taken when it comes back, and an error then is reported as a line.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        if !(1..=MAX_HASH_MB).contains(&mb) {
            return Err(format!("table size {mb} MB is outside 1..{MAX_HASH_MB}"));
        }
        self.options.hash_mb = mb;
        let Some(mut searcher) = self.searcher.take() else {
            // The running search holds the searcher: resize when it comes back.
            self.hash_dirty = true;
            return Ok(());
        };
        let applied = self.apply_hash(&mut searcher);
        self.searcher = Some(searcher);
        applied
    }

    /// Sets the number of search threads (1 to [`MAX_THREADS`]).
    pub fn set_threads(&mut self, n: usize) -> Result<(), String> {
        if !(1..=MAX_THREADS).contains(&n) {
            return Err(format!("{n} threads is outside 1..{MAX_THREADS}"));
        }
        self.options.threads = n;
        if let Some(mut s) = self.searcher.take() {
            self.apply_options(&mut s);
            self.searcher = Some(s);
        }
        Ok(())
    }

    /// Loads variant files given as a path list (`:`-separated, `;` on Windows): every good
    /// section of every file loads, and the report names the problems of the others.
    pub fn load_variant_path(&mut self, list: &str) -> LoadReport {
        let sep = if cfg!(windows) { ';' } else { ':' };
        let mut all = LoadReport::default();
        for path in list.split(sep).map(str::trim).filter(|p| !p.is_empty()) {
            let report = self.registry.load_file(path);
            all.loaded.extend(report.loaded);
            all.errors.extend(report.errors);
            all.warnings.extend(report.warnings);
        }
        // A list that loaded nothing leaves the option as it was.
        if !all.loaded.is_empty() {
            self.options.variant_path = list.to_string();
        }
        all
    }

    /// Whether a search is running.
    pub fn searching(&self) -> bool {
        self.running.is_some()
    }

    /// Whether the dialect's loop should wait for the running search before reading on: it
    /// ends by itself, or it has been told to stop.
    pub fn should_wait(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.open_ended || r.stopped)
    }

    /// Starts searching the current position on a worker thread; the result comes back as
    /// [`Event::Done`]. Fails if a search is already running or no thread can be had.
    pub fn start_search(
        &mut self,
        limits: Limits,
        open_ended: bool,
        purpose: SearchFor,
        report: Box<dyn SearchReport + Send>,
    ) -> Result<(), String> {
        let root = self.position.clone();
        self.start_search_on(root, limits, open_ended, purpose, report)
    }

    /// Like [`EngineState::start_search`], but searches `root` instead of the current
    /// position (XBoard pondering searches the position after the expected reply).
    pub fn start_search_on(
        &mut self,
        root: Position,
        limits: Limits,
        open_ended: bool,
        purpose: SearchFor,
        report: Box<dyn SearchReport + Send>,
    ) -> Result<(), String> {
        if self.running.is_some() {
            return Err("a search is already running".into());
        }
        let Some(mut searcher) = self.searcher.take() else {
            return Err("a search is already running".into());
        };
        self.apply_options(&mut searcher);
        searcher.skill = match purpose {
            SearchFor::Move => self.skill(),
            SearchFor::Analysis => Skill::full(),
        };
        // Cleared here, on the dialect's thread: a stop read after this line reaches the
        // search even if its thread has not started yet.
        searcher.arm();
        let id = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        let job = (searcher, root, limits, report);
        let eval = self.eval.clone();
        let events = self.events.clone();
        let (out, error_line) = (self.out.clone(), self.error_line);
        let started = spawn_job(job, move |(mut searcher, root, limits, mut report)| {
            // A search that fails still answers, so that the GUI is not left waiting.
            let result = catch_unwind(AssertUnwindSafe(|| {
                searcher.search(&root, &limits, eval.as_ref(), report.as_mut())
            }))
            .unwrap_or_else(|panic| {
                out.line(&error_line(&format!(
                    "search failed: {}",
                    panic_text(&panic)
                )));
                fallback_result(&root)
            });
            let job = FinishedJob::Search(Box::new(SearchDone {
                result,
                root,
                searcher,
            }));
            let _ = events.send(Event::Done(Box::new(Finished { id, job })));
        });
        match started {
            Ok(()) => {
                self.running = Some(Running {
                    id,
                    open_ended,
                    stopped: false,
                    discard: false,
                });
                Ok(())
            }
            Err(((searcher, ..), e)) => {
                self.searcher = Some(searcher);
                Err(e)
            }
        }
    }

    /// Asks the running search to stop (its result still arrives as [`Event::Done`]).
    pub fn stop_search(&mut self) {
        if let Some(r) = self.running.as_mut() {
            r.stopped = true;
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Stops the running search after `after` unless another search has started by then
    /// (UCI `ponderhit`: the clock starts when the opponent has moved).
    pub fn stop_later(&self, after: Duration) {
        let Some(r) = &self.running else {
            return;
        };
        let (id, generation, stop) = (r.id, self.generation.clone(), self.stop.clone());
        std::thread::spawn(move || {
            std::thread::sleep(after);
            if generation.load(Ordering::SeqCst) == id {
                stop.store(true, Ordering::SeqCst);
            }
        });
    }

    /// Takes a finished job back: a search's searcher returns to the state. Returns the
    /// running search's record with the result, or `None` for a result nobody waits for and
    /// for a perft count (which has written its lines). A table size asked for during the
    /// search that could not be had is reported as an error line.
    pub fn finish(&mut self, f: Finished) -> Option<(Running, SearchResult, Position)> {
        let Finished { id, job } = f;
        let current = self.running.as_ref().is_some_and(|r| r.id == id);
        let found = match job {
            FinishedJob::Search(done) => {
                let SearchDone {
                    result,
                    root,
                    mut searcher,
                } = *done;
                self.apply_options(&mut searcher);
                if std::mem::take(&mut self.eval_dirty) {
                    searcher.clear();
                }
                if std::mem::take(&mut self.hash_dirty) {
                    if let Err(e) = self.apply_hash(&mut searcher) {
                        self.out.line(&(self.error_line)(&e));
                    }
                }
                self.searcher = Some(searcher);
                Some((result, root))
            }
            FinishedJob::Perft => None,
        };
        if !current {
            return None;
        }
        let r = self.running.take()?;
        found.map(|(result, root)| (r, result, root))
    }

    /// `go perft N` on a thread of its own, like a search: one `move: count` line per root
    /// move, an empty line, the total; or, when stopped, a line made by `stopped`. The input
    /// loop stays free meanwhile (`isready` answered, `stop` and `quit` obeyed), and its end
    /// comes back as [`Event::Done`]. Fails if a search or count is running or no thread can
    /// be had.
    pub fn start_perft(
        &mut self,
        depth: u32,
        castling: crate::wire::Castling,
        stopped: String,
    ) -> Result<(), String> {
        if self.running.is_some() {
            return Err("a search is already running".into());
        }
        self.stop.store(false, Ordering::SeqCst);
        let id = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        let (out, stop, events) = (self.out.clone(), self.stop.clone(), self.events.clone());
        let error_line = self.error_line;
        let started = spawn_job(self.position.clone(), move |pos| {
            let counted = catch_unwind(AssertUnwindSafe(|| {
                pos.clone().perft_divide_until(depth, false, &stop)
            }));
            match counted {
                Err(panic) => {
                    out.line(&error_line(&format!(
                        "perft failed: {}",
                        panic_text(&panic)
                    )));
                }
                Ok(Some(divide)) => {
                    for line in perft_lines(&pos, depth, &divide, castling).0 {
                        out.line(&line);
                    }
                }
                Ok(None) => out.line(&stopped),
            }
            let job = FinishedJob::Perft;
            let _ = events.send(Event::Done(Box::new(Finished { id, job })));
        });
        started.map_err(|(_, e)| e)?;
        self.running = Some(Running {
            id,
            open_ended: false,
            stopped: false,
            discard: false,
        });
        Ok(())
    }
}

/// Runs `run(job)` on a new thread with a search's stack ([`SEARCH_STACK_BYTES`]: perft recurses
/// like the search, a move list in every frame). The job is handed over only once
/// the thread exists, so that when none can be had the caller gets it back with the error
/// (the searcher it holds must not be lost).
fn spawn_job<T: Send + 'static>(
    job: T,
    run: impl FnOnce(T) + Send + 'static,
) -> Result<(), (T, String)> {
    let (tx, rx) = std::sync::mpsc::channel::<T>();
    let spawned = std::thread::Builder::new()
        .stack_size(SEARCH_STACK_BYTES)
        .spawn(move || {
            if let Ok(job) = rx.recv() {
                run(job);
            }
        });
    match spawned {
        Ok(_) => tx
            .send(job)
            .map_err(|e| (e.0, "the job thread ended".to_string())),
        Err(e) => Err((job, format!("cannot start a thread: {e}"))),
    }
}

/// The message a panic carried, for an error line.
pub fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown cause".to_string())
}

/// What a failed search answers: the first legal move of a one-part turn, else none.
fn fallback_result(root: &Position) -> SearchResult {
    let mut pos = root.clone();
    let best = catch_unwind(AssertUnwindSafe(|| pos.legal_moves().first().copied()))
        .ok()
        .flatten()
        .filter(|_| root.variant().turns().is_none());
    SearchResult {
        best,
        ponder: None,
        score: chimera_engine::search::Score::Cp(0),
        depth: 0,
        nodes: 0,
        time: Duration::ZERO,
        pv: best.into_iter().collect(),
        turn: best.into_iter().collect(),
    }
}
