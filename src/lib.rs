//! Fianchetto: a bitboard chess engine with a terminal game and the UCI protocol.
//!
//! `chess` knows the rules; `eval` scores positions; `search` chooses moves; `uci` and `tui`
//! talk to programs and people.
#![warn(missing_docs)]
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod analysis;
pub mod chess;
pub mod command;
pub mod eval;
pub mod files;
pub mod format;
pub mod rand;
pub mod search;
pub mod syzygy;
pub mod tools;
pub mod tui;
pub mod uci;
pub mod web;
