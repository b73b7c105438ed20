//! Iterative deepening, principal-variation alpha-beta with aspiration windows and a
//! transposition table (probed and written by the quiescence search too); quiescence over
//! captures that do not lose by SEE; extension of checks whose move does not lose by SEE,
//! mate distance pruning, reverse futility, null move (reduced more the deeper the node and
//! the further above beta, a ply less in sho), ProbCut (captures that clear beta by a margin
//! in a shallow search), internal iterative reduction (two plies at the expected cut nodes
//! of shogi and sho from depth 6), futility, late move pruning (to depth 8 in shogi), and SEE
//! pruning of losing captures and of quiet moves that lose their exchange;
//! reverse futility, null move, futility and the quiescence stand pat judge the static score
//! replaced by the hash score where that bounds it from the right side (`refined`). Late
//! move reductions from a log table (a little deeper in sho; checks too, one ply less),
//! adjusted by history, by whether the static score is improving, at expected cut nodes and
//! after a capturing hash move. Move ordering by hash move, SEE-sound captures (by victim,
//! attacker and capture history), killers (the newer first), counter move, and history with
//! gravity (bonuses of Stockfish's size) plus continuation history (after the previous move
//! and the one before; `conthist.rs`), in `ordering.rs`, with the tables' updates at
//! cutoffs; a node that fails low rewards the opponent's quiet move that led to it.
//! Repetitions score as draws, or as a mate against the side that gave check with every
//! move of the cycle (perpetual check); mate scores. The static evaluation is read at the
//! variant's search scale (`Params::search_scale`: shogi's weights are fitted on a wider
//! scale than the margins here are set in, sho's on a narrower one). A small per-thread
//! cache keeps static evaluations by hash; a correction history (`corr.rs`) adds to them how
//! far searches found similar positions' static scores off. The soft time limit stretches
//! when the best move keeps changing or the score falls (`time.rs`).
//!
//! The search never prints: it reports each completed iteration through a callback, and
//! stops on the shared stop flag, a node limit, or the clock.
//!
//! Lazy SMP ([`search_threads`]): N searchers over clones of the root share the lockless
//! transposition table, the stop flag and the node counter; each keeps its own histories,
//! killers and stacks. Helpers start on alternate depths and report nothing; the main thread
//! owns the clock and stops the helpers when it finishes, and the result of the thread that
//! completed the deepest iteration is played. Each thread's histories and counter moves
//! ([`Learned`]) outlive the search: the next search of the game starts from them.

mod conthist;
mod corr;
pub mod mate;
mod ordering;
mod smp;
mod table_mem;
mod time;
pub mod tt;

use crate::game::Outcome;
use crate::moves::{Move, MoveList};
use crate::nnue::Base;
use crate::piece::{Color, kind_of};
use crate::position::Position;
use crate::variant::{RoyalRule, Variant};
use conthist::{ContHist, NO_MOVE};
use corr::CorrHist;
use ordering::{Exchange, LATE_PICKS, TAIL_PICKS};
pub use smp::{Workers, search_threads};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use table_mem::Block;
pub use time::allot_time;
use time::{Stability, soft_limit_reached};
use tt::{Bound, Tt};

/// Largest search depth in plies.
pub const MAX_PLY: usize = 128;
/// Score of a mate at the root.
pub const MATE: i32 = 30_000;
const INF: i32 = 32_000;
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Quiescence plies after which only the static evaluation counts.
const MAX_QDEPTH: u32 = 8;
/// Slack for delta pruning in quiescence.
const DELTA_MARGIN: i32 = 200;
/// Deepest node where late move pruning applies; in drop variants without hoppers (shogi),
/// whose move lists are long with drops, [`LMP_DEPTH_DROPS`].
const LMP_DEPTH: i32 = 3;
/// See [`LMP_DEPTH`].
const LMP_DEPTH_DROPS: i32 = 8;
/// Depth from which internal iterative reduction takes a second ply at expected cut nodes,
/// in variants whose attacks are plain, without hoppers or lion moves (shogi and sho;
/// elsewhere one ply at every node type).
const IIR_CUT_DEPTH: i32 = 6;
/// Deepest node where quiet moves that lose their exchange are pruned.
const QUIET_SEE_DEPTH: i32 = 8;
/// Quiet SEE pruning threshold per squared reduced depth, in centipawns.
const QUIET_SEE_MARGIN: i32 = 25;
/// Bound of history scores.
const HISTORY_MAX: i32 = 16_384;
/// ProbCut's margin above beta (less 44 when the static score is improving).
const PROBCUT_MARGIN: i32 = 250;
/// Largest history bonus of one cutoff (reached from depth 9).
const HISTORY_BONUS_MAX: i32 = 2_500;
/// Futility margin per ply of remaining depth.
const FUTILITY_MARGIN: i32 = 175;
/// Entries of the per-thread evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 18;
/// Reverse futility margin per ply of remaining depth.
const RFP_MARGIN: i32 = 120;
/// The same in variants with drops (about two pawns: a capture also puts the piece in hand,
/// so scores swing further than the static score suggests).
const RFP_MARGIN_DROPS: i32 = 200;
/// In variants with drops, how far the static score must stand above beta before a null
/// move is tried, less [`NULL_MARGIN_PER_PLY`] per ply of depth: passing hands the opponent
/// a free drop, so near the leaves only a clearly winning position may pass. (Without drops
/// the margin is zero.)
const NULL_MARGIN_DROPS: i32 = 350;
/// See [`NULL_MARGIN_DROPS`].
const NULL_MARGIN_PER_PLY: i32 = 20;
/// The null move's reduction at shallow depth and at beta: `NULL_REDUCTION + depth / 3`,
/// plus up to three plies more the further the static score stands above beta.
const NULL_REDUCTION: i32 = 3;
/// The same in sho (no drops, plain attacks): one ply less (twenty-sixth session: +28.4
/// +/- 17.8 over 600 games of sho self-play, `docs/strength-log.md`).
const NULL_REDUCTION_SHO: i32 = 2;

/// The pruning scales that depend on whether the variant has drops (and hoppers), chosen once
/// per search.
#[derive(Clone, Copy)]
struct DropScales {
    /// Reverse futility margin per ply.
    rfp_margin: i32,
    /// Null-move margin above beta at depth 0 (see [`NULL_MARGIN_DROPS`]).
    null_margin: i32,
    /// Factor on a capture's board value for quiescence delta pruning: with drops a captured
    /// piece also goes to the capturer's hand, which the evaluation pays for about as much again.
    capture_gain: i32,
    /// Deepest node of late move pruning (see [`LMP_DEPTH`]).
    lmp_depth: i32,
    /// Depth from which an expected cut node without a hash move is reduced a second ply
    /// (see [`IIR_CUT_DEPTH`]; `i32::MAX`: never).
    iir_cut_depth: i32,
    /// The null move's base reduction ([`NULL_REDUCTION`], or [`NULL_REDUCTION_SHO`] in
    /// variants without drops whose attacks are plain).
    null_reduction: i32,
    /// Late move reductions ([`LMR`], or [`LMR_SHO`] in variants without drops whose attacks
    /// are plain).
    lmr: &'static LmrTable,
    /// Whether a node takes its static score before reading its hash entry (which the move
    /// into it prefetched): the entry then mostly arrives from memory meanwhile, at the cost of
    /// a score taken for nothing where the entry settles the node. Without drops (chu, cannon
    /// shosu, sho) that paid: chu after 450 plies 1,576,441 -> 1,767,046 nodes a second, after
    /// 300 1,375,294 -> 1,514,797 (medians of fixed-depth runs, forty-sixth session); with
    /// drops it did not (shogi after 110 plies 636,757 -> 595,514, cannon shogi even).
    eval_first: bool,
}

impl DropScales {
    fn new(v: &Variant) -> DropScales {
        let iir_cut_depth = if v.t.plain_attacks { IIR_CUT_DEPTH } else { i32::MAX };
        if v.drops {
            DropScales {
                rfp_margin: RFP_MARGIN_DROPS,
                null_margin: NULL_MARGIN_DROPS,
                capture_gain: 2,
                lmp_depth: if v.t.has_hoppers { LMP_DEPTH } else { LMP_DEPTH_DROPS },
                iir_cut_depth,
                null_reduction: NULL_REDUCTION,
                lmr: &LMR,
                eval_first: false,
            }
        } else {
            // Sho's own values: no drops and plain attacks (the chu pieces and hoppers are not).
            let sho = v.t.plain_attacks;
            DropScales {
                rfp_margin: RFP_MARGIN,
                null_margin: 0,
                capture_gain: 1,
                lmp_depth: LMP_DEPTH,
                iir_cut_depth,
                null_reduction: if sho { NULL_REDUCTION_SHO } else { NULL_REDUCTION },
                lmr: if sho { &LMR_SHO } else { &LMR },
                eval_first: true,
            }
        }
    }
}

/// Late move reductions by depth and move number (both clamped to 63).
type LmrTable = [[u8; 64]; 64];

/// The reduction table `0.75 + ln(depth) ln(number) / divisor`, rounded down.
fn lmr_table(divisor: f64) -> LmrTable {
    let mut t = [[0u8; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (d as f64).ln() * (i as f64).ln() / divisor) as u8;
        }
    }
    t
}

/// The reductions of most variants: divisor 2.25.
static LMR: std::sync::LazyLock<LmrTable> = std::sync::LazyLock::new(|| lmr_table(2.25));
/// Sho's (no drops, plain attacks): divisor 2.0, a little more reduction (twenty-fifth
/// session: +19.7 +/- 17.2 over 600 games of sho self-play, `docs/strength-log.md`).
static LMR_SHO: std::sync::LazyLock<LmrTable> = std::sync::LazyLock::new(|| lmr_table(2.0));

/// History bonus of a quiet cutoff at `depth`: Stockfish's `stat_bonus(depth + 1)`, at most
/// [`HISTORY_BONUS_MAX`]: from 267 at depth 1 (1.6% of [`HISTORY_MAX`]) to 2,500 (15%)
/// from depth 9. (It was `depth²`, at most 400: 1 at depth 1, 25 at depth 5.)
fn history_bonus(depth: i32) -> i32 {
    let d = depth + 1;
    (6 * d * d + 229 * d - 215).min(HISTORY_BONUS_MAX)
}

/// The reduction of move number `i` at `depth` in `table` ([`LMR`] or [`LMR_SHO`]).
fn lmr(table: &LmrTable, depth: i32, i: usize) -> i32 {
    table[(depth.max(0) as usize).min(63)][i.min(63)] as i32
}

/// A score as reported: centipawns, or a mate distance in plies (negative: being mated).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many plies (negative when the side to move is mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate(MATE - s)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s))
        } else {
            Score::Cp(s)
        }
    }
}

/// Whether a reported score is exact or only a bound.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ScoreBound {
    /// Exact.
    Exact,
    /// At least this (fail high).
    Lower,
    /// At most this (fail low).
    Upper,
}

/// Progress of one completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Nominal depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Line number (1 = best) with MultiPV.
    pub multipv: usize,
    /// Score.
    pub score: Score,
    /// Whether the score is exact or a bound (aspiration failure).
    pub bound: ScoreBound,
    /// Nodes searched.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition table use, permille.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// What limits a search. Times are in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<u64>,
    /// Remaining time of black and white.
    pub time: [Option<u64>; 2],
    /// Increment per move of black and white.
    pub inc: [u64; 2],
    /// Byoyomi per move.
    pub byoyomi: u64,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Number of principal variations to report (0 or 1: one).
    pub multipv: usize,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
}

/// State shared between the searching thread and the controller.
#[derive(Debug)]
pub struct Shared {
    /// Set to stop the search at once.
    pub stop: AtomicBool,
    /// While set, the clock is not watched (pondering).
    pub pondering: AtomicBool,
    /// When the clock started (reset on ponderhit).
    pub clock_start: Mutex<Instant>,
    /// Nodes counted by all threads (each flushes its own count now and then).
    pub nodes: AtomicU64,
    /// Set when the main thread is done, to stop the helpers.
    pub helpers_stop: AtomicBool,
    /// The NNUE network that evaluates instead of the handcrafted evaluation alone, if any
    /// (made for the root's variant: the searchers use it only then).
    pub net: Option<std::sync::Arc<crate::nnue::Network>>,
    /// Contempt in centipawns (the search's scale): a draw is worth this much less than 0 to
    /// the side to move at the root, and this much more to its opponent (0: a draw is 0).
    pub contempt: i32,
}

impl Default for Shared {
    fn default() -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            clock_start: Mutex::new(Instant::now()),
            nodes: AtomicU64::new(0),
            helpers_stop: AtomicBool::new(false),
            net: None,
            contempt: 0,
        }
    }
}

/// What a search thread learns: quiet-move history, counter moves, continuation history and
/// the correction history of static scores. Kept from one search to the next within a game
/// (each thread its own), cleared for a new game; made for one variant.
pub struct Learned {
    variant: &'static Variant,
    history: Block<i32>,
    /// Quiet move that refuted each previous move (by the previous move's history index).
    counter: Block<Move>,
    /// Continuation history (quiet moves after the previous move and the one before).
    cont: ContHist,
    /// Capture history: how well each capture did, by its piece-to index (see
    /// [`ContHist::index`]) and the kind it captures; within `±HISTORY_MAX` (gravity).
    capt: Block<i16>,
    /// Correction history of the static evaluation.
    corr: CorrHist,
}

impl Learned {
    /// Empty tables for the variant of `pos`.
    pub fn new(pos: &Position) -> Learned {
        let v = pos.variant();
        let kinds = v.pieces.len();
        Learned {
            variant: v,
            history: Block::new(ordering::HIST_SIZE),
            counter: Block::new(ordering::HIST_SIZE),
            cont: ContHist::new(pos),
            capt: Block::new(2 * kinds * kinds * v.width * v.height),
            corr: CorrHist::default(),
        }
    }

    /// Whether these tables were made for the variant of `pos`.
    pub fn fits(&self, pos: &Position) -> bool {
        std::ptr::eq(self.variant, pos.variant())
    }
}

/// One search over a root position.
pub struct Searcher<'a> {
    pos: Position,
    tt: &'a Tt,
    shared: &'a Shared,
    limits: Limits,
    budget: Option<(u64, u64)>,
    /// 0 for the main thread; helpers neither report nor watch the soft time limit.
    id: usize,
    nodes: u64,
    /// Part of `nodes` already added to `shared.nodes`.
    flushed: u64,
    /// Deepest completed iteration: (depth, score, best move, expected reply).
    completed: Option<(u32, i32, Move, Option<Move>)>,
    root_depth: u32,
    /// The side to move at the root (whom [`Shared::contempt`] is for).
    root_side: Color,
    seldepth: usize,
    aborted: bool,
    killers: [[Move; 2]; MAX_PLY + 1],
    /// Histories, counter moves and corrections, possibly learned by earlier searches.
    learned: Learned,
    /// Piece-to index (see [`ContHist::index`]) of the move made at each ply.
    moved: [u32; MAX_PLY + 2],
    /// Pruning scales of the variant (wider with drops).
    scales: DropScales,
    /// Static evaluation per ply (`-INF` when in check or not computed).
    evals: [i32; MAX_PLY + 2],
    /// Evaluation cache: the hash's upper 48 bits and the score (16 bits) per slot.
    eval_cache: Block<u64>,
    /// The shared NNUE network when it is made for this variant, and this thread's
    /// accumulators for it.
    nn: Option<(std::sync::Arc<crate::nnue::Network>, crate::nnue::Stack)>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Per ply, the sort keys of the tail of the node's move list (see `score_tail`).
    tail: Vec<Vec<(i64, Move)>>,
}

impl<'a> Searcher<'a> {
    /// Prepares a search; `overhead` is the move overhead in ms.
    pub fn new(pos: Position, tt: &'a Tt, shared: &'a Shared, limits: Limits, overhead: u64) -> Searcher<'a> {
        let learned = Learned::new(&pos);
        Searcher::with_learned(pos, tt, shared, limits, overhead, learned)
    }

    /// [`Searcher::new`] that starts from tables learned by earlier searches (made for the same
    /// variant: see [`Learned::fits`]).
    fn with_learned(mut pos: Position, tt: &'a Tt, shared: &'a Shared, limits: Limits, overhead: u64, learned: Learned) -> Searcher<'a> {
        debug_assert!(learned.fits(&pos));
        let net = shared.net.as_ref().filter(|n| n.variant == pos.variant().name);
        // A network over another base than the whole handcrafted evaluation reads no mobility sums.
        if net.is_some_and(|n| !n.base.reads_mobility_sums()) {
            pos.stop_keeping_mobility();
        }
        let budget = allot_time(&limits, pos.side_to_move().idx(), overhead);
        Searcher {
            scales: DropScales::new(pos.variant()),
            tt,
            shared,
            limits,
            budget,
            id: 0,
            nodes: 0,
            flushed: 0,
            completed: None,
            root_depth: 0,
            root_side: pos.side_to_move(),
            seldepth: 0,
            aborted: false,
            killers: [[Move::NONE; 2]; MAX_PLY + 1],
            learned,
            moved: [NO_MOVE; MAX_PLY + 2],
            evals: [-INF; MAX_PLY + 2],
            eval_cache: Block::new(EVAL_CACHE),
            nn: net.map(|n| {
                let stack = crate::nnue::Stack::new(n.hidden, MAX_PLY + 2);
                (n.clone(), stack)
            }),
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            tail: vec![Vec::new(); MAX_PLY + 2],
            pos,
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.shared.clock_start.lock().map(|s| s.elapsed().as_millis() as u64).unwrap_or(0)
    }

    /// All threads' nodes (this thread's unflushed count included).
    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed
    }

    fn check_stop(&mut self) {
        self.shared.nodes.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
        let helper_done = self.id != 0 && self.shared.helpers_stop.load(Ordering::Relaxed);
        if helper_done || self.shared.stop.load(Ordering::Relaxed) || self.limits.nodes.is_some_and(|n| self.total_nodes() >= n) {
            self.aborted = true;
            return;
        }
        if let Some((_, hard)) = self.budget
            && !self.shared.pondering.load(Ordering::Relaxed)
            && self.elapsed_ms() >= hard
        {
            self.aborted = true;
        }
    }

    /// Runs iterative deepening; calls `report` after each completed iteration (one call per
    /// line with MultiPV, and one per aspiration failure with its bound) and returns the best
    /// move and the expected reply (`None` when there is no legal move).
    pub fn think(&mut self, report: &mut dyn FnMut(&Info)) -> (Option<Move>, Option<Move>) {
        let start = Instant::now();
        let mut root_moves = self.pos.legal_moves();
        if !self.limits.searchmoves.is_empty() {
            root_moves.retain(|m| self.limits.searchmoves.contains(m));
        }
        if root_moves.is_empty() {
            return (None, None);
        }
        let mut best = (Some(root_moves[0]), None);
        let max_depth = self.limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        let lines = self.limits.multipv.clamp(1, root_moves.len());
        // Score and PV of each line at the last completed depth.
        let mut prev: Vec<(i32, Vec<Move>)> = Vec::new();
        // Helpers with odd ids search one ply deeper than the main thread from the start.
        let first = 1 + (self.id % 2) as u32;
        // Stretch of the soft time limit (main thread) by the stability of the search.
        let mut stability = Stability::default();
        let mut scale = 1.0;
        'deepen: for depth in first.min(max_depth)..=max_depth {
            self.seldepth = 0;
            self.root_depth = depth;
            let mut done: Vec<(i32, Vec<Move>)> = Vec::new();
            for line in 0..lines {
                let excluded: Vec<Move> = done.iter().filter_map(|(_, pv)| pv.first().copied()).collect();
                let mut moves = root_moves.clone();
                moves.retain(|m| !excluded.contains(m));
                let hint = prev.get(line).and_then(|(_, pv)| pv.first().copied());
                // Aspiration window around the previous score of this line.
                let mut delta = 40;
                let (mut alpha, mut beta) = match prev.get(line) {
                    Some(&(s, _)) if depth >= 4 && s.abs() < MATE_BOUND => (s - delta, s + delta),
                    _ => (-INF, INF),
                };
                let mut result;
                loop {
                    result = self.root(depth as i32, &moves, hint, alpha, beta);
                    if self.aborted {
                        break;
                    }
                    let (score, ref pv) = result;
                    let bound = if score <= alpha {
                        ScoreBound::Upper
                    } else if score >= beta {
                        ScoreBound::Lower
                    } else {
                        break;
                    };
                    let shown = if pv.is_empty() {
                        prev.get(line).map(|p| p.1.clone()).unwrap_or_default()
                    } else {
                        pv.clone()
                    };
                    if self.id == 0 {
                        report(&self.info(depth, line + 1, score, bound, shown, start));
                    }
                    delta *= 3;
                    if bound == ScoreBound::Upper {
                        alpha = if delta > 1000 { -INF } else { (score - delta).max(-INF) };
                    } else {
                        beta = if delta > 1000 { INF } else { (score + delta).min(INF) };
                    }
                }
                if self.aborted {
                    // A move of the unfinished iteration that completed with a score above
                    // alpha (the root sets its PV only then) is the better guess.
                    if line == 0 && lines == 1 && !result.1.is_empty() {
                        best = (Some(result.1[0]), result.1.get(1).copied());
                    }
                    break 'deepen;
                }
                done.push(result);
            }
            done.sort_by_key(|(s, _)| std::cmp::Reverse(*s));
            if self.id == 0 {
                for (i, (score, pv)) in done.iter().enumerate() {
                    report(&self.info(depth, i + 1, *score, ScoreBound::Exact, pv.clone(), start));
                }
            }
            if let Some((score, pv)) = done.first()
                && let Some(&m) = pv.first()
            {
                best = (Some(m), pv.get(1).copied());
                self.completed = Some((depth, *score, m, pv.get(1).copied()));
                scale = stability.scale(m, *score);
            }
            prev = done;
            if self.id == 0
                && let Some((soft, hard)) = self.budget
                && !self.shared.pondering.load(Ordering::Relaxed)
                && soft_limit_reached(self.elapsed_ms(), soft, hard, scale)
            {
                break;
            }
        }
        self.shared.nodes.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
        best
    }

    fn info(&self, depth: u32, multipv: usize, score: i32, bound: ScoreBound, pv: Vec<Move>, start: Instant) -> Info {
        Info {
            depth,
            seldepth: self.seldepth as u32,
            multipv,
            score: Score::from_internal(score),
            bound,
            nodes: self.total_nodes(),
            time: start.elapsed(),
            hashfull: self.tt.hashfull(),
            pv,
        }
    }

    /// Searches the root moves in the window (alpha, beta); returns the best score and its PV
    /// (empty when no move beat alpha). `hint` is tried first.
    fn root(&mut self, depth: i32, root_moves: &MoveList, hint: Option<Move>, mut alpha: i32, beta: i32) -> (i32, Vec<Move>) {
        let mut moves = root_moves.clone();
        let tt_move = self.tt.probe(self.pos.hash()).map(|e| e.mv).unwrap_or(Move::NONE);
        self.order(&mut moves, hint.unwrap_or(tt_move), 0);
        let mut best = -INF;
        let mut pv = Vec::new();
        self.pv_len[0] = 0;
        self.evals[0] = if self.check_matters() && self.pos.in_check() { -INF } else { self.eval(0) };
        for (i, &m) in moves.iter().enumerate() {
            self.play(m, 0);
            let score = if i == 0 {
                -self.search(depth - 1, -beta, -alpha, 1, false)
            } else {
                let s = -self.search(depth - 1, -alpha - 1, -alpha, 1, true);
                if s > alpha && !self.aborted {
                    -self.search(depth - 1, -beta, -alpha, 1, false)
                } else {
                    s
                }
            };
            self.pos.unmake();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                self.set_pv(0, m);
                pv = self.pv[0][..self.pv_len[0]].to_vec();
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        if !self.aborted && !pv.is_empty() && self.limits.multipv <= 1 {
            let bound = if best >= beta { Bound::Lower } else { Bound::Exact };
            self.tt.store(self.pos.hash(), pv[0], best, depth as i16, bound);
        }
        (best, pv)
    }

    fn set_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = m;
        let n = self.pv_len[ply + 1].min(MAX_PLY - 1);
        for i in 0..n {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = n + 1;
    }

    /// Whether the move that led to this node (at `ply`, side to move in check) earns the
    /// check extension: it must not lose material by SEE. The root's moves are not tested.
    fn check_is_sound(&mut self, ply: usize) -> bool {
        let Some(m) = self.pos.history().last().map(|u| u.mv).filter(|&m| ply >= 2 && m != Move::NONE) else {
            return true;
        };
        self.pos.unmake();
        let sound = self.pos.see_ge(m, 0);
        self.pos.make(m);
        sound
    }

    /// Static evaluation in the search's scale (see `Params::search_scale`): with an NNUE
    /// network (whose output is in that scale already), from the accumulators of `ply` plus its
    /// base's score; otherwise the handcrafted evaluation. Without drops, a network's whole
    /// score comes through the per-thread cache; a node scored from it leaves its accumulators
    /// unmade, and a child that needs them makes them from an earlier ply's by the moves since
    /// (`nnue::acc::Stack::output`), which without drops the history holds in full. Otherwise
    /// the handcrafted evaluation, alone or as a network's base (whole or without mobility),
    /// comes through [`Self::cached_base`].
    fn eval(&mut self, ply: usize) -> i32 {
        let whole = self.nn.is_some() && !self.pos.variant().drops;
        let key = self.pos.hash();
        if whole && let Some(e) = self.cache_get(key) {
            return e;
        }
        let e = if let Some((net, stack)) = &mut self.nn {
            let (out, base) = (stack.output(net, &self.pos, ply), net.base);
            out + if base.walks_the_board() && !whole {
                self.cached_base(base)
            } else {
                base.score(&self.pos)
            }
        } else {
            self.cached_base(Base::Handcrafted)
        };
        let e = e.clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        if whole {
            self.cache_put(key, e);
        }
        e
    }

    /// The score of `base` ([`Base::score`]: the handcrafted evaluation, whole or without its
    /// mobility) in the search's scale, through the per-thread cache keyed by the position
    /// hash (the evaluation reads only the position, never the history; a search reads one
    /// base).
    fn cached_base(&mut self, base: Base) -> i32 {
        let key = self.pos.hash();
        if let Some(e) = self.cache_get(key) {
            return e;
        }
        let e = base.score(&self.pos);
        self.cache_put(key, e);
        e
    }

    /// The score the evaluation cache holds for the position with hash `key`, if any.
    #[inline]
    fn cache_get(&self, key: u64) -> Option<i32> {
        let slot = self.eval_cache[key as usize & (EVAL_CACHE - 1)];
        (slot >> 16 == key >> 16 && slot != 0).then_some(slot as u16 as i16 as i32)
    }

    /// Keeps `e` as the score of the position with hash `key` (a score outside the 16 bits
    /// of a slot is not kept).
    #[inline]
    fn cache_put(&mut self, key: u64, e: i32) {
        if let Ok(x) = i16::try_from(e) {
            self.eval_cache[key as usize & (EVAL_CACHE - 1)] = (key & !0xFFFF) | x as u16 as u64;
        }
    }

    /// Internal iterative reduction: without a hash move, a node from depth 4 was never
    /// searched deeply; it is searched a ply shallower first (the next iteration revisits it
    /// with a move), and in shogi and sho an expected cut node from depth 6 two plies
    /// shallower.
    fn iir_depth(&self, depth: i32, tt_move: Move, cut: bool) -> i32 {
        if depth < 4 || tt_move != Move::NONE {
            depth
        } else if cut && depth >= self.scales.iir_cut_depth {
            depth - 2
        } else {
            depth - 1
        }
    }

    /// The static evaluation `raw` corrected by the correction history at `slots` (those of
    /// the current position).
    fn corrected(&self, raw: i32, slots: corr::Slots) -> i32 {
        (raw + self.learned.corr.correction(slots)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Whether the side to move has something besides its royals and unpromoted pawns (on the
    /// board or in hand), so that passing is not a zugzwang escape.
    fn has_pieces(&self) -> bool {
        let us = self.pos.side_to_move();
        let t = &self.pos.variant().t;
        t.hand_kinds.iter().any(|&k| self.pos.hand(us, k) > 0)
            || self.pos.occupied(us).iter().any(|s| {
                let k = kind_of(self.pos.piece_at(s));
                t.royal_mask >> k & 1 == 0 && k != t.pawn_kind
            })
    }

    fn lost_royals(&self) -> bool {
        let v = self.pos.variant();
        v.royal_rule == RoyalRule::Capture && self.pos.royals(self.pos.side_to_move()).is_empty()
    }

    /// Alpha-beta search of the node at `ply`. `cut` marks an expected cut node, where late
    /// moves are reduced more: the null-window searches of a node's later moves are expected
    /// to fail high; below an expected node the roles alternate (the first move of a cut node
    /// leads to an expected all node, and that node's moves to cut nodes again).
    fn search(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize, cut: bool) -> i32 {
        self.pv_len[ply] = 0;
        if self.lost_royals() {
            return -MATE + ply as i32;
        }
        let repeated = self.pos.earlier_occurrences().next();
        if let Some(plies) = repeated {
            return self.repetition_score(plies, ply);
        }
        if self.pos.bare_king()
            && let Some(o) = self.pos.bare_king_settled()
        {
            // Settled verdicts are a draw or a win for the side to move.
            return if matches!(o, Outcome::Win(..)) {
                MATE - ply as i32
            } else {
                self.draw_score()
            };
        }
        if ply >= MAX_PLY - 1 {
            return self.eval(ply);
        }
        let in_check = self.check_matters() && self.pos.in_check();
        // Check extension, limited so that checking sequences cannot run far past the nominal depth.
        let depth = if in_check && ply < self.root_depth as usize && self.check_is_sound(ply) {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }
        if !self.enter_node(ply) {
            return 0;
        }
        // Mate distance pruning: no line from here beats a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let key = self.pos.hash();
        // The static score before the hash entry is read, where that pays (as in `qsearch`).
        let early = (self.scales.eval_first && !in_check).then(|| self.eval(ply));
        let mut tt_move = Move::NONE;
        let tt_entry = self.tt.probe(key);
        if let Some(e) = tt_entry {
            tt_move = e.mv;
            let s = score_from_tt(e.score, ply);
            if e.depth as i32 >= depth && beta - alpha == 1 && settles(e.bound, s, alpha, beta) {
                return s;
            }
        }
        let pv_node = beta - alpha > 1;
        let depth = self.iir_depth(depth, tt_move, cut);
        // The static score, corrected by the correction history (not by the hash score); the
        // node's correction slots (none in check) serve the update at its end too.
        let (raw_eval, corr_slots) = if in_check {
            (-INF, None)
        } else {
            let (e, at) = (early.unwrap_or_else(|| self.eval(ply)), corr::slots(&self.pos));
            (self.corrected(e, at), Some(at))
        };
        self.evals[ply] = raw_eval;
        // Whether our static score rose since our previous move (prune and reduce less if so).
        let improving = !in_check && ply >= 2 && raw_eval > self.evals[ply - 2];
        // For pruning, a stored score bounding the static one from the right side is the better
        // estimate (the pruning below compares it with beta and alpha).
        let static_eval = if in_check { raw_eval } else { refined(raw_eval, tt_entry) };
        // Reverse futility: far enough above beta near the leaves, the opponent's best reply
        // is not expected to bring the score back down.
        if !pv_node && !in_check && depth <= 6 && beta.abs() < MATE_BOUND && static_eval - self.scales.rfp_margin * depth >= beta {
            return static_eval;
        }
        // Null-move pruning: if passing still holds beta, a real move will too. Not in check,
        // not twice in a row, only with pieces besides pawns (zugzwang guard), and only with
        // the static score well above beta (less so the deeper the node). The reduction grows
        // with depth and with the margin above beta.
        if !pv_node
            && !in_check
            && depth >= 3
            && static_eval >= beta + (self.scales.null_margin - NULL_MARGIN_PER_PLY * depth).max(0)
            && beta.abs() < MATE_BOUND
            && self.pos.history().last().is_none_or(|u| u.mv != Move::NONE)
            && self.has_pieces()
        {
            let r = self.scales.null_reduction + depth / 3 + ((static_eval - beta) / 200).clamp(0, 3);
            self.moved[ply] = NO_MOVE;
            if let Some((_, stack)) = &mut self.nn {
                stack.invalidate(ply + 1);
            }
            self.pos.make_null();
            self.tt.prefetch(self.pos.hash());
            let s = -self.search(depth - 1 - r, -beta, -beta + 1, ply + 1, !cut);
            self.pos.unmake_null();
            if self.aborted {
                return 0;
            }
            if s >= beta {
                return if s >= MATE_BOUND { beta } else { s };
            }
        }
        // ProbCut: a capture that clears beta by a margin in a shallow search (a quiescence
        // search first, then depth - 4) is taken to refute this node; skipped when the hash
        // already holds a deep enough score below that margin.
        if !pv_node && !in_check && depth > 4 && beta.abs() < MATE_BOUND {
            let pc_beta = beta + PROBCUT_MARGIN - 44 * improving as i32;
            let tt_below = tt_entry.is_some_and(|e| e.depth as i32 >= depth - 3 && score_from_tt(e.score, ply) < pc_beta);
            if !tt_below && let Some(s) = self.probcut(pc_beta, static_eval, tt_move, depth, ply, cut) {
                return s;
            }
        }
        // The hash move is tried before any generation, so a node whose hash move cuts off
        // never generates; the others follow in the usual order, without the hash move. The
        // captures are generated first, the other moves only once the leading captures are
        // done, so a capture that cuts off spares their generation (the order is the same).
        let mut moves = MoveList::new();
        let tt_first = tt_move != Move::NONE && self.pos.is_legal(tt_move);
        if tt_first {
            moves.push(tt_move);
        }
        // How far the generation has come (see `Stage`).
        let mut stage = Stage::HashMove;
        let tt_capture = tt_first && self.pos.is_capture(tt_move);
        // Futility: near the leaves, quiet moves cannot lift a hopeless static score to alpha.
        let futile = !pv_node && !in_check && depth <= 2 && alpha.abs() < MATE_BOUND && static_eval + FUTILITY_MARGIN * depth <= alpha;
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Move::NONE;
        // Late move pruning: near the leaves (to depth 8 in shogi: there after 132 quiet moves,
        // or 66 when not improving), quiet moves far down the ordered list are skipped.
        let late_limit = if !pv_node && !in_check && depth <= self.scales.lmp_depth {
            (4 + 2 * depth * depth) >> !improving as u32
        } else {
            i32::MAX
        } as usize;
        let mut quiets_tried: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let mut captures_tried: arrayvec::ArrayVec<Move, 32> = arrayvec::ArrayVec::new();
        let mut next = 0;
        // The end of the leading captures not yet tested by exchange (see `order_lazy`), the
        // end of the moves after them (the losing captures follow), and whether those are
        // placed yet (see `score_tail`; `placed_end` is the end of those placed).
        let mut good_end = 0;
        let mut quiet_end = 0;
        // The killers and counter move placed after the leading captures, and where the
        // ordered tail starts after them.
        let mut refuters = arrayvec::ArrayVec::<Move, 3>::new();
        let mut tail_start = 0;
        let mut placed_end = 0;
        // How many moves of the tail are placed by picking, and whether its quiet moves are
        // to be dropped once late move pruning is reached (see below).
        let mut picks = TAIL_PICKS;
        let mut drop_late = false;
        loop {
            if stage == Stage::HashMove && next == moves.len() {
                stage = Stage::Captures;
                let mut captures = MoveList::new();
                self.pos.legal_captures_into(&mut captures);
                good_end = moves.len() + self.order_lazy(&mut captures, tt_move, ply);
                for &m in captures.iter() {
                    if !(tt_first && m == tt_move) {
                        moves.push(m);
                    }
                }
                quiet_end = moves.len();
            }
            // The leading captures done, the killers and the counter move come next (those
            // legal here), before the other moves are generated: a cutoff among them spares
            // the generation.
            if stage == Stage::Captures && next == good_end {
                stage = Stage::Refuters;
                refuters = self.refuters(tt_move, ply);
                for (j, &m) in refuters.iter().enumerate() {
                    moves.insert(good_end + j, m);
                }
                tail_start = good_end + refuters.len();
                quiet_end += refuters.len();
            }
            // Then the other moves join the promotions that lost their exchange test, before
            // the captures that lost theirs, and this tail is ordered. Where late move pruning
            // will skip the quiet moves unmade from a few places on, those places are filled
            // by picking the best left, and there the quiet moves left are dropped unsorted
            // (the same moves are searched in the same order).
            if stage == Stage::Refuters && next == tail_start {
                stage = Stage::Rest;
                let mut quiets = MoveList::new();
                self.pos.legal_quiets_into(&mut quiets);
                // Where the pruning below would skip every quiet move unmade (checks are of no
                // account, a line has escaped mate, and every one would come late enough for
                // late move pruning, or futility prunes them all), only the promotions are
                // kept: the rest need no ordering.
                let only_promotions = !self.check_matters() && best > -MATE_BOUND && tail_start > 0 && (futile || tail_start >= late_limit);
                let before = moves.len();
                for &m in quiets.iter() {
                    let searched = (tt_first && m == tt_move) || refuters.contains(&m);
                    if !searched && (!only_promotions || m.is_promotion()) {
                        moves.push(m);
                    }
                }
                let added = moves.len() - before;
                moves[quiet_end..].rotate_right(added);
                quiet_end += added;
                if moves.is_empty() {
                    return -MATE + ply as i32;
                }
                self.score_tail(&moves[tail_start..quiet_end], ply);
                placed_end = tail_start;
                drop_late = !self.check_matters() && late_limit > tail_start && late_limit - tail_start <= LATE_PICKS;
                picks = if drop_late { late_limit - tail_start } else { TAIL_PICKS };
            }
            if drop_late && next == late_limit && next == placed_end && best > -MATE_BOUND {
                drop_late = false;
                let kept = self.drop_quiet_tail(ply, next - tail_start);
                moves.drain(next + kept..quiet_end);
                quiet_end = next + kept;
            }
            if next == moves.len() {
                break;
            }
            if stage == Stage::Rest && next == placed_end && next < quiet_end {
                placed_end = tail_start + self.place_tail(&mut moves[tail_start..quiet_end], ply, next - tail_start, picks);
            }
            let (i, m) = (next, moves[next]);
            // A leading capture that loses its exchange goes after all the other moves.
            // (The hash move and promotions were placed after their test, if any.)
            let placed = (tt_first && i == 0) || m.is_promotion();
            if i < good_end && !placed && !self.pos.see_ge(m, 0) {
                moves.remove(i);
                moves.push(m);
                good_end -= 1;
                quiet_end -= 1;
                continue;
            }
            next += 1;
            let capture = self.pos.is_capture(m);
            let quiet = !capture && !m.is_promotion();
            let killer = self.killers[ply].contains(&m);
            // Captures that lose material in the exchange are not worth a look near the leaves.
            if !pv_node && !in_check && i > 0 && depth <= 3 && capture && best > -MATE_BOUND && !self.pos.see_ge(m, -120 * depth) {
                continue;
            }
            // A quiet move after the first, once a line has escaped mate: the pruning below may
            // skip it (unless it gives check).
            let late_quiet = quiet && i > 0 && best > -MATE_BOUND;
            let mut prunable = late_quiet && (futile || i >= late_limit);
            // Quiet moves (drops too) that lose material in the exchange on their square, near
            // the leaves; the margin grows with the depth left after a late move's reduction.
            if !prunable && late_quiet && !in_check && depth <= QUIET_SEE_DEPTH {
                let lmr_depth = (depth - 1 - lmr(self.scales.lmr, depth, i)).max(0);
                prunable = !self.pos.see_ge(m, -QUIET_SEE_MARGIN * lmr_depth * lmr_depth);
            }
            // A pruned move that cannot check is not even made: where checks do not matter
            // (royals are captured), or where the check test can be made before the move.
            if prunable && (!self.check_matters() || self.pos.gives_check(m) == Some(false)) {
                continue;
            }
            self.play(m, ply);
            let reducible = depth >= 3 && i >= 3 && quiet && !killer && !in_check;
            // Whether the move gives check is asked only of the quiet moves that pruning or
            // reduction could touch (the attack test is the costliest part of a node): pruning
            // spares checks, and they are reduced one ply less.
            let gives_check = (prunable || reducible) && self.check_matters() && self.pos.in_check();
            if prunable && !gives_check {
                self.pos.unmake();
                continue;
            }
            if quiet && !quiets_tried.is_full() {
                quiets_tried.push(m);
            }
            if capture && !captures_tried.is_full() {
                captures_tried.push(m);
            }
            let score = if i == 0 {
                -self.search(depth - 1, -beta, -alpha, ply + 1, !pv_node && !cut)
            } else {
                // Late move reductions for quiet moves searched after the first few, checks
                // included (one ply less).
                let mut s = alpha + 1;
                if reducible {
                    let mut r = lmr(self.scales.lmr, depth, i) - gives_check as i32;
                    r -= pv_node as i32;
                    r += !improving as i32;
                    // More at expected cut nodes, and where the hash move is a capture (quiet
                    // moves rarely beat a capture that already refuted this node).
                    r += 2 * cut as i32 + tt_capture as i32;
                    // The move is made: its piece-to index is the one kept for this ply, and its side
                    // is no longer the side to move.
                    r -= self.quiet_stat(m, self.moved[ply], ply, self.stm() ^ 1) / (3 * HISTORY_MAX / 2);
                    let d = (depth - 1 - r.max(1)).max(1);
                    s = -self.search(d, -alpha - 1, -alpha, ply + 1, true);
                }
                if s > alpha && !self.aborted {
                    s = -self.search(depth - 1, -alpha - 1, -alpha, ply + 1, !cut);
                }
                if s > alpha && s < beta && !self.aborted {
                    -self.search(depth - 1, -beta, -alpha, ply + 1, false)
                } else {
                    s
                }
            };
            self.pos.unmake();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if alpha >= beta {
                        if quiet {
                            if quiets_tried.is_full() {
                                quiets_tried.pop();
                                quiets_tried.push(m);
                            }
                            self.reward_quiet(m, &quiets_tried, depth, ply);
                        }
                        self.reward_captures(m, capture, &captures_tried, depth);
                        break;
                    }
                }
            }
        }
        let bound = bound_of(best, orig_alpha, beta);
        // The correction history learns (out of check, from scores short of mate) from results
        // that the bound shows to differ from the static score, except where a capture or
        // promotion was best (the static score was not expected to see those).
        let informative = match bound {
            Bound::Lower => best > raw_eval,
            Bound::Upper => best < raw_eval,
            _ => true,
        };
        if let Some(at) = corr_slots
            && informative
            && best.abs() < MATE_BOUND
            && (bound == Bound::Upper || !self.pos.is_capture(best_move) && !best_move.is_promotion())
        {
            self.learned.corr.update(at, best, raw_eval, depth);
        }
        // A node that fails low rewards the opponent's quiet move that led to it.
        if bound == Bound::Upper && ply >= 2 {
            self.reward_prior(depth, ply);
        }
        self.tt.store(key, best_move, score_to_tt(best, ply), depth as i16, bound);
        best
    }

    /// ProbCut's captures at a node of `depth`: at most two (four at an expected cut node) of
    /// those whose exchange alone reaches `pc_beta` from the static score, in victim order;
    /// returns the score of the first one whose searches hold `pc_beta` (and stores it as a
    /// lower bound at `depth - 3`), or `Some(0)` once the search is aborted (the caller
    /// returns it, as every aborted node returns 0).
    fn probcut(&mut self, pc_beta: i32, static_eval: i32, tt_move: Move, depth: i32, ply: usize, cut: bool) -> Option<i32> {
        let mut caps = MoveList::new();
        self.pos.legal_captures_into(&mut caps);
        self.order_with(&mut caps, tt_move, ply, Exchange::Skip);
        let mut tried = 0;
        for &m in caps.iter() {
            if tried >= 2 + 2 * cut as usize {
                break;
            }
            if !self.pos.see_ge(m, pc_beta - static_eval) {
                continue;
            }
            tried += 1;
            self.play(m, ply);
            let mut v = -self.qsearch(-pc_beta, -pc_beta + 1, ply + 1, 0);
            if v >= pc_beta && !self.aborted {
                v = -self.search(depth - 4, -pc_beta, -pc_beta + 1, ply + 1, !cut);
            }
            self.pos.unmake();
            if self.aborted {
                return Some(0);
            }
            if v >= pc_beta {
                self.tt.store(self.pos.hash(), m, score_to_tt(v, ply), (depth - 3) as i16, Bound::Lower);
                return Some(v);
            }
        }
        None
    }

    /// Makes `m` in the search, keeping its piece-to index as the move of `slot` (the ply,
    /// capped for quiescence) and starting to load the child's hash bucket and evaluation
    /// cache slot.
    fn play(&mut self, m: Move, slot: usize) {
        self.moved[slot] = self.learned.cont.index(&self.pos, m);
        if let Some((_, stack)) = &mut self.nn {
            stack.invalidate(slot + 1);
        }
        // The hash entry and the evaluation cache's slot start loading before the move is
        // made (which takes long enough to hide part of the wait).
        let key = self.pos.key_after(m);
        self.tt.prefetch(key);
        table_mem::prefetch(&self.eval_cache[key as usize & (EVAL_CACHE - 1)]);
        self.pos.make(m);
    }

    /// Counts a node, polls the stop conditions now and then, and tracks the selective depth;
    /// `false` once the search is aborted.
    fn enter_node(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_stop();
        }
        self.seldepth = self.seldepth.max(ply);
        !self.aborted
    }

    /// The score of a position repeated `plies` plies back: a draw, unless one side gave check
    /// with every one of its moves in the cycle, who then loses (shogi and sho; in chu that
    /// move is forbidden, which costs the checker the same). Scored at the first repetition,
    /// like a draw: a side that can repeat can go on repeating. The loss is a mate score at
    /// this ply, so a perpetual shows as a mate in the reported score.
    fn repetition_score(&mut self, plies: usize, ply: usize) -> i32 {
        match self.pos.perpetual_checker(plies) {
            Some(c) if c == self.pos.side_to_move() => -MATE + ply as i32,
            Some(_) => MATE - ply as i32,
            None => self.draw_score(),
        }
    }

    /// The score of a draw for the side to move: 0, less the contempt for the root's side to
    /// move, plus it for the other side ([`Shared::contempt`]).
    fn draw_score(&self) -> i32 {
        if self.pos.side_to_move() == self.root_side {
            -self.shared.contempt
        } else {
            self.shared.contempt
        }
    }

    /// Whether being in check restricts moves (not in chu, where moving into check is legal).
    fn check_matters(&self) -> bool {
        self.pos.variant().royal_rule == RoyalRule::LastRoyal
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qdepth: u32) -> i32 {
        if !self.enter_node(ply) {
            return 0;
        }
        if self.lost_royals() {
            return -MATE + ply as i32;
        }
        let key = self.pos.hash();
        // Evasions are searched in full only near the horizon; deeper, checks are ignored.
        let in_check = qdepth < 2 && self.check_matters() && self.pos.in_check();
        // Out of check, where it pays, the static score is taken before the hash entry is
        // read (though a stored bound may settle the node without it): the entry, prefetched
        // as the move here was made, mostly has to come from memory, and arrives meanwhile
        // (see `DropScales::eval_first`).
        let early = (self.scales.eval_first && !in_check).then(|| self.eval(ply));
        let mut tt_move = Move::NONE;
        let tt_entry = self.tt.probe(key);
        if let Some(e) = tt_entry {
            let s = score_from_tt(e.score, ply);
            if settles(e.bound, s, alpha, beta) {
                return s;
            }
            tt_move = e.mv;
        }
        let orig_alpha = alpha;
        let mut best_move = Move::NONE;
        let mut moves = MoveList::new();
        let mut best = -INF;
        if in_check {
            self.pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
        } else {
            // The stand pat: the corrected static score, or a stored score that bounds it from
            // the right side (as for the main search's pruning).
            let e = early.unwrap_or_else(|| self.eval(ply));
            let stand = refined(self.corrected(e, corr::slots(&self.pos)), tt_entry);
            if stand >= beta || ply >= MAX_PLY - 1 {
                if ply < MAX_PLY - 1 {
                    self.tt.store(key, Move::NONE, score_to_tt(stand, ply), 0, Bound::Lower);
                }
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            if qdepth >= MAX_QDEPTH {
                return stand;
            }
            // Captures only, only those that could lift the score to alpha (delta pruning),
            // and none that loses material in the exchange (SEE).
            self.pos.legal_captures_into(&mut moves);
            let margin = alpha - stand - DELTA_MARGIN;
            let gain = self.scales.capture_gain;
            moves.retain(|m| m.is_promotion() || gain * self.pos.captured_value(*m) >= margin);
        }
        // Out of check the captures are ordered by victim and attacker and each is tested by
        // exchange evaluation only when its turn comes (a cutoff spares the rest the test).
        self.order_with(&mut moves, tt_move, ply.min(MAX_PLY), if in_check { Exchange::All } else { Exchange::Skip });
        for &m in moves.iter() {
            if !in_check && !self.pos.see_ge(m, 0) {
                continue;
            }
            self.play(m, ply.min(MAX_PLY + 1));
            let score = -self.qsearch(-beta, -alpha, ply + 1, qdepth + 1);
            self.pos.unmake();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if best > -INF {
            self.tt.store(key, best_move, score_to_tt(best, ply), 0, bound_of(best, orig_alpha, beta));
        }
        best
    }

    /// Nodes searched so far by this thread.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// How far a node of the main search has generated its moves: the hash move alone, then the
/// captures, then the killers and counter move after the leading captures, then the rest.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    HashMove,
    Captures,
    Refuters,
    Rest,
}

/// Whether a stored score `s` of bound `bound` decides a search in the window (`alpha`, `beta`):
/// it is exact, a lower bound at or above beta, or an upper bound at or below alpha (the
/// reverse of [`bound_of`]).
fn settles(bound: Bound, s: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
        Bound::None => false,
    }
}

/// The bound a search result `best` in the window (`alpha`, `beta`) is.
fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// The static score `eval` refined by a hash entry: a stored score short of mate that bounds
/// `eval` from the right side (a lower bound above it, an upper bound below it) is the
/// better estimate of the node's value.
fn refined(eval: i32, entry: Option<tt::Entry>) -> i32 {
    match entry {
        Some(e) if e.score.abs() < MATE_BOUND && settles(e.bound, e.score, eval, eval) => e.score,
        _ => eval,
    }
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

#[cfg(test)]
mod tests;
