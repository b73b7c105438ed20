//! Mate search for USI `go mate`: iterative deepening over the AND/OR tree in which the attacker
//! plays only moves that check (or, under the capture rule, take the last royal) and the
//! defender plays every legal reply.
//!
//! Invariants: a result `Mate(pv)` is a forced mate of minimal length in attacker moves among
//! the depths tried, and `pv` is a legal line whose defender moves resist longest; `NoMate` is
//! returned only when an iteration ended without reaching its depth limit anywhere (the
//! attacker ran out of checks in every line), which proves that no mate exists; a position
//! that repeats inside the tree counts as an escape (perpetual check is not a mate).

use super::Shared;
use crate::moves::Move;
use crate::position::Position;
use crate::variant::RoyalRule;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Longest mate searched, in plies.
pub const MAX_MATE_PLY: u32 = 127;

/// What a mate search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A forced mate: the moves from the root, attacker first.
    Mate(Vec<Move>),
    /// Proven: no forced mate by checks exists.
    NoMate,
    /// The time ran out (or the search was stopped) before either was shown.
    Timeout,
}

/// One mate search.
pub struct MateSearch<'a> {
    pos: Position,
    shared: &'a Shared,
    deadline: Option<Instant>,
    nodes: u64,
    aborted: bool,
    hit_limit: bool,
    /// Or-nodes shown to have no mate within the stored number of plies.
    disproved: HashMap<u64, u32>,
    /// Best move at or-nodes (the mating move) and and-nodes (the longest defence).
    best: HashMap<u64, Move>,
}

impl<'a> MateSearch<'a> {
    /// A search of `pos` stopping at `limit` (or on the stop flag).
    pub fn new(pos: Position, shared: &'a Shared, limit: Option<Duration>) -> MateSearch<'a> {
        MateSearch {
            pos,
            shared,
            deadline: limit.map(|d| Instant::now() + d),
            nodes: 0,
            aborted: false,
            hit_limit: false,
            disproved: HashMap::new(),
            best: HashMap::new(),
        }
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Runs the search.
    pub fn run(&mut self) -> MateResult {
        let mut depth = 1;
        while depth <= MAX_MATE_PLY {
            self.hit_limit = false;
            let found = self.or_node(depth);
            if self.aborted {
                return MateResult::Timeout;
            }
            if found.is_some() {
                return MateResult::Mate(self.principal_line());
            }
            if !self.hit_limit {
                return MateResult::NoMate;
            }
            depth += 2;
        }
        MateResult::Timeout
    }

    fn poll(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && (self.shared.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)) {
            self.aborted = true;
        }
    }

    /// Whether the side to move has lost its royals (capture rule) or stands in check.
    fn defender_attacked(&self) -> bool {
        let us = self.pos.side_to_move();
        match self.pos.variant().royal_rule {
            RoyalRule::LastRoyal => self.pos.in_check(),
            RoyalRule::Capture => self.pos.royals(us).is_empty() || self.pos.royal_attacked(us),
        }
    }

    /// Attacker to move: the length in plies of the quickest mate found within `depth`.
    fn or_node(&mut self, depth: u32) -> Option<u32> {
        self.poll();
        if self.aborted {
            return None;
        }
        let key = self.pos.hash();
        if self.disproved.get(&key).is_some_and(|&d| d >= depth) {
            return None;
        }
        let moves = self.pos.legal_moves();
        for &m in moves.iter() {
            self.pos.make(m);
            let result = if !self.defender_attacked() || self.pos.is_repetition() {
                None
            } else {
                self.and_node(depth - 1).map(|d| d + 1)
            };
            self.pos.unmake();
            if self.aborted {
                return None;
            }
            if result.is_some() {
                self.best.insert(key, m);
                return result;
            }
        }
        self.disproved.insert(key, depth);
        None
    }

    /// Defender to move after a check: the longest resistance, if every reply is mated.
    fn and_node(&mut self, depth: u32) -> Option<u32> {
        self.poll();
        if self.aborted {
            return None;
        }
        let us = self.pos.side_to_move();
        if self.pos.royals(us).is_empty() {
            return Some(0);
        }
        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            return Some(0);
        }
        if depth == 0 {
            self.hit_limit = true;
            return None;
        }
        let mut longest: Option<(u32, Move)> = None;
        for &m in moves.iter() {
            self.pos.make(m);
            let r = if self.pos.is_repetition() { None } else { self.or_node(depth - 1) };
            self.pos.unmake();
            let d = r?;
            if longest.is_none_or(|(l, _)| d > l) {
                longest = Some((d, m));
            }
        }
        let (d, m) = longest?;
        self.best.insert(self.pos.hash(), m);
        Some(d + 1)
    }

    /// Replays the stored best moves from the root until the defender is mated.
    fn principal_line(&mut self) -> Vec<Move> {
        let mut line = Vec::new();
        let mut p = self.pos.clone();
        while line.len() < MAX_MATE_PLY as usize {
            let Some(&m) = self.best.get(&p.hash()) else { break };
            if !p.legal_moves().contains(&m) {
                break;
            }
            p.make(m);
            line.push(m);
        }
        line
    }
}
