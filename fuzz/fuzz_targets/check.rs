//! Fuzz target: the type checker must never panic (or overflow the stack) on
//! any program that parses, and its diagnostics must point into the sources.
//! The prelude is loaded first and the input is the main file, as in the driver.
//! Run with `cargo fuzz run check` from the repository root (see fuzz/README.md).

#![no_main]

#[allow(dead_code)]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else { return };
    let _ = common::check(text);
});
