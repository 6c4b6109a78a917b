//! Fuzz target: the module language. The input bytes are choices for the
//! generator in `modgen.rs` (module types, structures, functors, partial
//! applications, ascriptions, `open`/`local`/`include`, local opens); the
//! program it builds goes through the same checks as `pipeline`: the checker
//! and lowering never panic or report an internal error, diagnostics point
//! into the source, the IR verifies and entry points run.
//! Run with `cargo fuzz run modules` from the repository root (see fuzz/README.md).

#![no_main]

mod common;
mod modgen;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = modgen::program(&mut modgen::Choices::new(data));
    common::lower_and_run(&text);
});
