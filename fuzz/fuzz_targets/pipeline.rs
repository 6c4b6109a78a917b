//! Fuzz target: the whole pipeline. Programs that parse and type-check are
//! lowered; lowering must not panic, must report failures only as user-facing
//! diagnostics (never `internal-error`), and must produce IR that passes
//! `ogham_ir::verify`. Every entry point whose inputs are all scalars is then
//! run on the interpreter with fixed small arguments; it must not panic and
//! must return one value per declared output.
//!
//! The interpreter has no step limit, so programs containing `while` are not
//! run (valid programs can loop forever); `for` loops with huge bounds still
//! show up as timeouts and must be triaged by hand.
//! Run with `cargo fuzz run pipeline` from the repository root (see fuzz/README.md).

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else { return };
    common::lower_and_run(text);
});
