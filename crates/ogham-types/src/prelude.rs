//! The prelude's source text, compiled into the binary. The driver parses
//! and checks these files, in this order, before the user's program.

/// `(file name, text)` in load order.
pub const PRELUDE: &[(&str, &str)] = &[("prelude.fut", include_str!("../../../prelude/prelude.fut"))];
