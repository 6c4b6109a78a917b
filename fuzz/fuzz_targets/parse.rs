//! Fuzz target: the lexer and parser must never panic, hang or overflow the
//! stack on any input, every diagnostic span must lie in the text on UTF-8
//! character boundaries, and every diagnostic must render.
//! Run with `cargo fuzz run parse` from the repository root (see fuzz/README.md).
//!
//! Input modes:
//! - valid UTF-8: parsed as a program, an expression and a type;
//! - invalid UTF-8: the longest valid prefix and the lossy decoding
//!   (U+FFFD replacement characters) are parsed instead, so inputs that end in
//!   the middle of a multi-byte character still reach the lexer;
//! - a leading 0xFF byte (never valid UTF-8) selects *amplification*: the rest,
//!   `[k, open.., 0, middle.., 0, close..]`, becomes `open×n middle close×n`
//!   with `n = 16·k` (up to 4080), which reaches deep nesting and huge
//!   literals without libFuzzer having to grow inputs to kilobytes.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ogham_syntax::ast::NodeIds;
use ogham_syntax::parser::{parse_expr, parse_program, parse_type};
use ogham_syntax::{Diagnostic, SourceMap};

fn check_diagnostics(sources: &SourceMap, text: &str, diagnostics: &[Diagnostic]) {
    for (i, d) in diagnostics.iter().enumerate() {
        for span in std::iter::once(d.span).chain(d.labels.iter().map(|(s, _)| *s)) {
            let (start, end) = (span.start as usize, span.end as usize);
            assert!(start <= end && end <= text.len(), "span {start}..{end} outside a text of {} bytes", text.len());
            assert!(
                text.is_char_boundary(start) && text.is_char_boundary(end),
                "span {start}..{end} splits a UTF-8 character"
            );
        }
        // Rendering copies the whole source line, so thousands of diagnostics on
        // one long line take quadratic time (reported); render a bounded number.
        if i < 64 {
            let _ = d.render(sources);
        }
    }
}

fn check(text: &str) {
    let mut sources = SourceMap::default();
    let file = sources.add("fuzz.fut", text);
    let mut ids = NodeIds::default();
    let (_, diagnostics) = parse_program(file, text, &mut ids);
    check_diagnostics(&sources, text, &diagnostics);
    if let Err(diagnostics) = parse_expr(file, text, &mut ids) {
        check_diagnostics(&sources, text, &diagnostics);
    }
    if let Err(diagnostics) = parse_type(file, text, &mut ids) {
        check_diagnostics(&sources, text, &diagnostics);
    }
}

fn amplify(rest: &[u8]) -> Option<String> {
    let (&k, rest) = rest.split_first()?;
    let mut parts = rest.splitn(3, |&b| b == 0);
    let open = std::str::from_utf8(parts.next()?).ok()?;
    let middle = std::str::from_utf8(parts.next().unwrap_or(b"")).ok()?;
    let close = std::str::from_utf8(parts.next().unwrap_or(b"")).ok()?;
    let n = 16 * k as usize;
    if (open.len() + close.len()) * n > 1 << 20 {
        return None;
    }
    Some(format!("{}{}{}", open.repeat(n), middle, close.repeat(n)))
}

fuzz_target!(|data: &[u8]| {
    if let Some((&0xFF, rest)) = data.split_first() {
        if let Some(text) = amplify(rest) {
            check(&text);
        }
        return;
    }
    match std::str::from_utf8(data) {
        Ok(text) => check(text),
        Err(e) => {
            check(std::str::from_utf8(&data[..e.valid_up_to()]).unwrap());
            check(&String::from_utf8_lossy(data));
        }
    }
});
