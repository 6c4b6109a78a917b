//! Fuzz target: the lexer and parser must never panic, hang or overflow the
//! stack on any UTF-8 input, and every diagnostic span must lie in the text.
//! Run with `cargo fuzz run parse` from the repository root.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ogham_syntax::ast::NodeIds;
use ogham_syntax::parser::{parse_expr, parse_program, parse_type};
use ogham_syntax::FileId;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut ids = NodeIds::default();
    let (_, diagnostics) = parse_program(FileId(0), text, &mut ids);
    for d in &diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end as usize <= text.len());
    }
    let _ = parse_expr(FileId(0), text, &mut ids);
    let _ = parse_type(FileId(0), text, &mut ids);
});
