//! Shishi: a shogi-family engine (shogi, sho, cannon shogi in two readings, Cannon Shosu,
//! Chu). This crate holds the rules core: variant descriptions, positions, SFEN, move
//! generation and perft.
#![deny(missing_docs)]

pub mod attack;
pub mod bench;
pub mod book;
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod legal;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod search;
pub mod see;
pub mod tournament;
pub mod tune;
pub mod usi;
pub mod variant;
pub mod xboard;
pub mod zobrist;

pub use moves::Move;
pub use position::Position;
pub use variant::Variant;
