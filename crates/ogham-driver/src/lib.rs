//! The compiler's pipelines and the commands built on them.
//!
//! This crate wires the phases together (load sources and imports, parse,
//! check, lower, verify) and implements what the `ogham` binary offers:
//! running an entry point on values read from standard input, and the test
//! runner for `-- ==` blocks. It is the only library crate that touches the
//! file system; the phases themselves are pure.

pub mod bench;
mod gradcheck;
pub mod native;
pub mod pipeline;
pub mod run;
pub mod test_runner;

pub use pipeline::{compile_file, compile_source, CompileError, Compiled};
