//! The surface syntax of ogham: source files, spans, diagnostics, the lexer,
//! the parser and the abstract syntax tree.
//!
//! Boundary: this crate knows nothing about types beyond what is written in
//! the source. It never panics on any input: every malformed program becomes
//! a list of [`Diagnostic`]s. The AST it produces is consumed by `ogham-types`
//! (checking) and `ogham-lower` (lowering to the core IR).

pub mod ast;
pub mod diagnostic;
pub mod lexer;
pub mod parser;
pub mod renumber;
pub mod source;

pub use diagnostic::{Diagnostic, Severity};
pub use source::{FileId, SourceMap, Span};
