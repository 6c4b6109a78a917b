//! The prelude's source text, compiled into the binary, and which of its
//! definitions a program can need. The driver parses the prelude, keeps
//! the value definitions [`prune`] leaves, and checks it before the user's
//! files.
//!
//! Pruning is by spelling, so that it is never wrong: a definition stays
//! when its name occurs as a name, operator or backquoted name anywhere in
//! the program's own files or in a definition that stays. A local variable
//! that happens to share a definition's name keeps that definition, which
//! costs time and never meaning. The checker resolves no prelude name that
//! the source does not spell (lowering and the checker name only
//! intrinsics and built-ins), so a pruned program has the same meaning as
//! the whole one. Type abbreviations and module types always stay.
//!
//! Checking the whole prelude took four fifths of the front end for a
//! one-line program (42 of 51 million instructions); the checker's own
//! tests check all of it.

use rustc_hash::FxHashSet as HashSet;

use ogham_syntax::ast::{Dec, Program};
use ogham_syntax::lexer::{lex, TokenKind};
use ogham_syntax::source::FileId;

/// `(file name, text)` in load order.
pub const PRELUDE: &[(&str, &str)] = &[("prelude.fut", include_str!("../../../prelude/prelude.fut"))];

/// Removes from `prelude` (the parse of `text`, file `file`) the value
/// definitions that neither `program_texts` (the program's own files) nor
/// the definitions kept can name.
pub fn prune<'a>(prelude: &mut Program, file: FileId, text: &str, program_texts: impl IntoIterator<Item = &'a str>) {
    let mut wanted: HashSet<String> = HashSet::default();
    for t in program_texts {
        spelled_names(&lex(FileId(u32::MAX), t).tokens, &mut wanted);
    }
    // The names each value definition spells, from the tokens within its span.
    let tokens = lex(file, text).tokens;
    let mut at = 0;
    let mut spells: Vec<Option<HashSet<String>>> = Vec::with_capacity(prelude.decs.len());
    for dec in &prelude.decs {
        let span = dec.span();
        while at < tokens.len() && tokens[at].span.start < span.start {
            at += 1;
        }
        let from = at;
        while at < tokens.len() && tokens[at].span.end <= span.end {
            at += 1;
        }
        spells.push(matches!(dec, Dec::Value(_)).then(|| {
            let mut names = HashSet::default();
            spelled_names(&tokens[from..at], &mut names);
            names
        }));
    }
    let mut keep: Vec<bool> = spells.iter().map(Option::is_none).collect();
    loop {
        let mut grew = false;
        for (i, dec) in prelude.decs.iter().enumerate() {
            if keep[i] {
                continue;
            }
            if let Dec::Value(v) = dec {
                if wanted.contains(&v.name.name.text) {
                    keep[i] = true;
                    grew = true;
                    wanted.extend(spells[i].take().into_iter().flatten());
                }
            }
        }
        if !grew {
            break;
        }
    }
    let mut i = 0;
    prelude.decs.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}

/// Adds to `out` every name, operator and backquoted name the tokens
/// spell, with their qualifiers (`M.f` may be `open`ed as `f`). The names
/// after `intrinsics.` are built-ins, not definitions.
fn spelled_names(tokens: &[ogham_syntax::lexer::Token], out: &mut HashSet<String>) {
    for t in tokens {
        match &t.kind {
            TokenKind::Name(n) => {
                out.insert(n.clone());
            }
            TokenKind::QualName(quals, n) | TokenKind::Symbol(quals, n) | TokenKind::Backquoted(quals, n) => {
                if quals.len() == 1 && quals[0] == "intrinsics" {
                    continue;
                }
                out.extend(quals.iter().cloned());
                out.insert(n.clone());
            }
            _ => {}
        }
    }
}
