//! The engine API that both protocol front ends drive: variant, position, options, and an
//! asynchronous search that reports through a callback. It never prints.
//!
//! Invariant: at most one search thread runs; every public method that changes state first
//! waits for (or stops) that thread.

use crate::book::Book;
use crate::moves::Move;
use crate::nnue::{BUILTIN, NetError, Network, SettingError};
use crate::position::Position;
use crate::search::mate::{MateResult, MateSearch};
use crate::search::tt::Tt;
use crate::search::{Info, Limits, Shared, Workers, search_threads};
use crate::variant::Variant;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What a search reports.
#[derive(Clone, Debug)]
pub enum Event {
    /// A completed iteration.
    Info(Info),
    /// The search ended: the move to play (`None`: no legal move, resign) and a ponder move.
    BestMove {
        /// Best move.
        best: Option<Move>,
        /// Expected reply.
        ponder: Option<Move>,
    },
}

/// Most search threads accepted (USI `Threads`, XBoard `cores`).
pub const MAX_THREADS: usize = 256;

/// Engine options shared by the front ends.
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Milliseconds kept in reserve per move for transmission delays.
    pub move_overhead: u64,
    /// Chu: Okazaki rule (counter-strike allowed against an unprotected lion).
    pub okazaki: bool,
    /// Sho, chu: bare-king rule.
    pub bare_king: bool,
    /// Principal variations to report.
    pub multipv: usize,
    /// Play from the opening book when the position is in it.
    pub own_book: bool,
    /// Contempt in centipawns: how much less than even a draw is worth to the engine's side
    /// (negative: more); see [`crate::search::Shared::contempt`].
    pub contempt: i32,
}

/// Largest contempt accepted, either way (USI and XBoard `Contempt`).
pub const MAX_CONTEMPT: i32 = 1000;

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mib: 64,
            move_overhead: 100,
            okazaki: false,
            bare_king: false,
            multipv: 1,
            own_book: true,
            contempt: 0,
        }
    }
}

/// Locks the workers; a poisoned lock is taken over (their tables are only hints).
fn lock(workers: &Mutex<Workers>) -> MutexGuard<'_, Workers> {
    workers.lock().unwrap_or_else(|e| e.into_inner())
}

/// The engine.
pub struct Engine {
    variant: &'static Variant,
    root: Position,
    options: Options,
    tt: Arc<Tt>,
    /// The search threads and their learned tables, kept between the searches of a game.
    workers: Arc<Mutex<Workers>>,
    shared: Arc<Shared>,
    worker: Option<JoinHandle<()>>,
    book: Book,
    book_file: String,
    /// The `EvalFile` setting (`""`: none, [`BUILTIN`]: the built-in networks, else a file)
    /// and the network it gives for the current variant.
    eval_file: String,
    net: Option<Arc<Network>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine set to standard shogi at the start position.
    pub fn new() -> Engine {
        let variant = Variant::by_name("shogi").expect("shogi is built in");
        let options = Options::default();
        Engine {
            variant,
            root: Position::startpos(variant),
            tt: Arc::new(Tt::new(options.hash_mib)),
            workers: Arc::new(Mutex::new(Workers::new(1))),
            options,
            shared: Arc::new(Shared::default()),
            worker: None,
            book: Book::builtin(),
            book_file: String::new(),
            eval_file: BUILTIN.to_string(),
            net: crate::nnue::builtin(variant),
        }
    }

    /// The current variant.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }
    /// The current root position.
    pub fn position(&self) -> &Position {
        &self.root
    }
    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Switches variant (and resets the position to its start).
    pub fn set_variant(&mut self, name: &str) -> Result<(), String> {
        let v = Variant::by_name(name).ok_or_else(|| format!("unknown variant '{name}'; valid: {}", Variant::names().join(", ")))?;
        self.stop();
        self.variant = v;
        // A network made for another variant is set aside until that variant comes back.
        if let Err(e) = self.load_net() {
            log::info!("{e}");
        }
        self.root = Position::startpos(v);
        self.root.set_okazaki(self.options.okazaki);
        self.root.set_bare_king(self.options.bare_king);
        Ok(())
    }

    /// Sets the root: an SFEN (or the start position for `None`) followed by USI moves.
    /// On error the previous position is kept.
    pub fn set_position(&mut self, sfen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        self.stop();
        let mut pos = match sfen {
            None => Position::startpos(self.variant),
            Some(s) => Position::from_sfen(self.variant, s).map_err(|e| format!("bad SFEN: {e}"))?,
        };
        pos.set_okazaki(self.options.okazaki);
        pos.set_bare_king(self.options.bare_king);
        for m in moves {
            let mv = pos.parse_usi_move(m).ok_or_else(|| format!("illegal or unparsable move '{m}'"))?;
            pos.make(mv);
        }
        self.root = pos;
        Ok(())
    }

    /// Resizes the transposition table.
    pub fn set_hash(&mut self, mib: usize) {
        self.stop();
        self.options.hash_mib = mib;
        self.tt = Arc::new(Tt::new(mib));
    }

    /// Switches the Okazaki rule (chu) for the current and later positions.
    pub fn set_okazaki(&mut self, on: bool) {
        self.stop();
        self.options.okazaki = on;
        self.root.set_okazaki(on);
    }

    /// Switches the bare-king rule (sho, chu) for the current and later positions.
    pub fn set_bare_king(&mut self, on: bool) {
        self.stop();
        self.options.bare_king = on;
        self.root.set_bare_king(on);
    }

    /// Plays from the opening book (when the root is in it) or not.
    pub fn set_own_book(&mut self, on: bool) {
        self.options.own_book = on;
    }

    /// Loads the opening book from a file (`""` or `<builtin>`: the built-in book). On error
    /// the previous book is kept.
    pub fn set_book_file(&mut self, path: &str) -> Result<(), String> {
        let book = if path.is_empty() || path == "<builtin>" {
            Book::builtin()
        } else {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read book file '{path}': {e}"))?;
            Book::parse(&text).map_err(|e| format!("book file '{path}': {e}"))?
        };
        self.book = book;
        self.book_file = path.to_string();
        Ok(())
    }

    /// Sets the NNUE network file: `<builtin>` (the default) the network built in for the
    /// variant if there is one (shogi, cannonshogi, shoshogi), `""` or `<none>` the
    /// handcrafted evaluation, else a file from `shishi train`. A file made for another
    /// variant is kept (an error says so) and read again when that variant is chosen; an
    /// unreadable or malformed file leaves the previous setting.
    pub fn set_eval_file(&mut self, path: &str) -> Result<(), String> {
        self.stop();
        match crate::nnue::from_setting(path, self.variant) {
            Ok(net) => {
                self.eval_file = path.to_string();
                self.net = net;
                Ok(())
            }
            Err(SettingError::Net(why, NetError::Variant { .. })) => {
                self.eval_file = path.to_string();
                self.net = None;
                Err(why)
            }
            Err(e) => Err(e.to_string()),
        }
    }

    /// Reads `eval_file` for the current variant (none where it gives none).
    fn load_net(&mut self) -> Result<(), SettingError> {
        self.net = None;
        self.net = crate::nnue::from_setting(&self.eval_file, self.variant)?;
        Ok(())
    }

    /// The network's score of the root (side to move, search scale; for a residual network
    /// the handcrafted evaluation included), when a network evaluates the current variant.
    pub fn net_eval(&self) -> Option<i32> {
        self.net.as_ref().map(|n| n.evaluate(&self.root))
    }

    /// Whether an NNUE network evaluates the current variant.
    pub fn uses_net(&self) -> bool {
        self.net.is_some()
    }

    /// The opening book.
    pub fn book(&self) -> &Book {
        &self.book
    }

    /// A book move for the root when the book is on and the root is in it.
    pub fn book_move(&mut self) -> Option<Move> {
        if !self.options.own_book {
            return None;
        }
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let random = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (seed >> 29);
        self.book.pick(&mut self.root, random)
    }

    /// Sets the number of principal variations reported (1 = normal play).
    pub fn set_multipv(&mut self, n: usize) {
        self.options.multipv = n.max(1);
    }

    /// Sets the number of search threads (at least one). The count lives only in the
    /// engine's `Workers`, which the next search reads.
    pub fn set_threads(&mut self, n: usize) {
        self.stop();
        self.workers().threads = n.max(1);
    }

    /// The number of search threads the next search runs (waits for a running search, which
    /// holds the workers).
    pub fn threads(&self) -> usize {
        self.workers().threads
    }

    /// The workers, locked (see [`lock`]).
    fn workers(&self) -> MutexGuard<'_, Workers> {
        lock(&self.workers)
    }

    /// Sets the contempt in centipawns (clamped to ±[`MAX_CONTEMPT`]).
    pub fn set_contempt(&mut self, cp: i32) {
        self.options.contempt = cp.clamp(-MAX_CONTEMPT, MAX_CONTEMPT);
    }

    /// Sets the move overhead in ms.
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.options.move_overhead = ms;
    }

    /// Clears what was learned (transposition table, the threads' histories) for a new game.
    pub fn new_game(&mut self) {
        self.stop();
        self.tt.clear();
        self.workers().forget();
    }

    /// Starts searching the root in the background; `on_event` receives infos and exactly one
    /// best move. With `ponder`, the clock is ignored until [`Engine::ponderhit`].
    pub fn go(&mut self, limits: Limits, ponder: bool, on_event: impl FnMut(Event) + Send + 'static) {
        self.stop();
        let mut limits = limits;
        if limits.multipv == 0 {
            limits.multipv = self.options.multipv;
        }
        let mut on_event = on_event;
        // A timed game move from the book is answered at once.
        if !ponder
            && !limits.infinite
            && limits.searchmoves.is_empty()
            && limits.multipv <= 1
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && let Some(m) = self.book_move()
        {
            on_event(Event::BestMove { best: Some(m), ponder: None });
            return;
        }
        let shared = Arc::new(Shared {
            net: self.net.clone(),
            contempt: self.options.contempt,
            ..Shared::default()
        });
        // An infinite search, like a ponder search, holds its best move until stop.
        shared.pondering.store(ponder || limits.infinite, Ordering::SeqCst);
        self.shared = shared.clone();
        let tt = self.tt.clone();
        let workers = self.workers.clone();
        let root = self.root.clone();
        let overhead = self.options.move_overhead;
        let handle = std::thread::Builder::new().name("search".into()).stack_size(64 << 20).spawn(move || {
            let mut workers = lock(&workers);
            let (best, ponder_move) = search_threads(&root, &tt, &shared, limits, overhead, &mut workers, &mut |info: &Info| {
                on_event(Event::Info(info.clone()))
            });
            drop(workers);
            // While pondering (or infinite), the best move waits for stop / ponderhit.
            while shared.pondering.load(Ordering::SeqCst) && !shared.stop.load(Ordering::SeqCst) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            on_event(Event::BestMove { best, ponder: ponder_move });
        });
        match handle {
            Ok(h) => self.worker = Some(h),
            Err(e) => log::error!("could not start the search thread: {e}"),
        }
    }

    /// Starts a mate search of the root in the background (`limit`: time allowed, `None`: until
    /// stopped); `on_result` receives its one result.
    pub fn go_mate(&mut self, limit: Option<Duration>, on_result: impl FnOnce(MateResult) + Send + 'static) {
        self.stop();
        let shared = Arc::new(Shared::default());
        self.shared = shared.clone();
        let root = self.root.clone();
        let handle = std::thread::Builder::new().name("mate".into()).stack_size(64 << 20).spawn(move || {
            let result = MateSearch::new(root, &shared, limit).run();
            on_result(result);
        });
        match handle {
            Ok(h) => self.worker = Some(h),
            Err(e) => log::error!("could not start the mate search thread: {e}"),
        }
    }

    /// The opponent played the expected move: start watching the clock.
    pub fn ponderhit(&mut self) {
        if let Ok(mut start) = self.shared.clock_start.lock() {
            *start = Instant::now();
        }
        self.shared.pondering.store(false, Ordering::SeqCst);
    }

    /// Stops the search (if any) and waits for its best move to be reported.
    pub fn stop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.wait();
    }

    /// Waits for the running search to finish by itself.
    pub fn wait(&mut self) {
        if let Some(h) = self.worker.take() {
            let _ = h.join();
        }
    }

    /// Whether a search thread is running.
    pub fn is_searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|h| !h.is_finished())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thread_count_is_set_once_and_survives_a_new_game() {
        let mut e = Engine::new();
        assert_eq!(e.threads(), 1);
        e.set_threads(3);
        assert_eq!(e.threads(), 3);
        e.new_game();
        assert_eq!(e.threads(), 3, "a new game forgets histories, not the option");
        e.set_threads(0);
        assert_eq!(e.threads(), 1, "at least one thread runs");
    }
}
