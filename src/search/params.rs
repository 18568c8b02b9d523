//! Tunable search constants.
