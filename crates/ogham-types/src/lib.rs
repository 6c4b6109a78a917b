//! The type checker: name resolution, Hindley–Milner inference with
//! Futhark's rules, size types (normalised to polynomials), consumption
//! checking, exhaustiveness of `match`, and the restrictions on higher-order
//! functions and entry points.
//!
//! Input: the parsed files of one compilation (prelude first, the main file
//! last). Output: a [`TypeInfo`] describing the program, or every independent
//! error found. Boundary: no IO, no lowering; the AST is not rewritten.
//!
//! Synthetic ids: implicit type parameters (generalised type variables) and
//! implicit size parameters (anonymous sizes `[]` in a top-level definition's
//! parameters) get [`NodeId`](ogham_syntax::ast::NodeId)s from
//! `0xE000_0000` upwards; they appear as `Type::Param` and as keys of
//! `Instantiation` like ordinary binder ids. A top-level `i64` constant used
//! as a size is the variable of its definition's binder id. Existential sizes
//! are variables from `0xF000_0000` upwards inside larger polynomials
//! ([`size::unknown_var`]), so `?k + n` stays a sum of its own.

pub mod builtins;
mod causality;
mod checker;
mod consume;
mod exhaust;
mod expr;
pub mod info;
mod locals;
mod members;
mod modules;
pub mod prelude;
mod sig;
pub mod size;
mod terms;
mod ty;
mod unify;

#[cfg(test)]
mod tests;

pub use builtins::Builtin;
pub use info::{DefId, DefInfo, DefLoc, Instantiation, Resolution, Type, TypeInfo};
pub use size::{Poly, Size};
pub use ty::ACC_FIELD;

use ogham_syntax::ast::Program;
use ogham_syntax::Diagnostic;

/// One parsed file handed to the checker.
pub struct CheckInput<'a> {
    pub program: &'a Program,
    /// Whether this is the main file (its `entry` declarations and `main` are entry points).
    pub is_main: bool,
    /// The files this one imports: the path as written in `import "path"`
    /// and the index of that file in the list given to the checker.
    pub imports: Vec<(String, usize)>,
}

/// Checks the files in order; a file sees the prelude, the files it imports
/// directly and its own names (see `Checker::check_files`).
/// Returns the facts about the program, or all errors found.
pub fn check(files: &[CheckInput<'_>]) -> Result<TypeInfo, Vec<Diagnostic>> {
    let mut checker = checker::Checker::new();
    checker.check_files(files);
    if checker.diags.iter().any(|d| d.severity == ogham_syntax::Severity::Error) {
        // Warnings (Futhark prints them too) after the errors, which matter more.
        let mut diags = checker.diags;
        diags.extend(checker.warnings);
        Err(diags)
    } else {
        let info = std::mem::take(&mut checker.info);
        // The checker's own tables (module environments, caches of expanded
        // types) are about as large as the type information for programs with
        // many functor applications: free them on another thread, which a
        // process that exits first does not wait for.
        let _ = std::thread::Builder::new().name("ogham-free".into()).spawn(move || drop(checker));
        Ok(info)
    }
}

/// Pretty-prints a checked type in Futhark notation (`[n][2]f32`,
/// `{x: f64, y: f64}`, `(i32, bool)`, `#a i32 | #b`); size variables and
/// type parameters are shown by id unless `names` gives them a name.
pub fn show_type(ty: &Type, names: &rustc_hash::FxHashMap<ogham_syntax::ast::NodeId, String>) -> String {
    ty::show_ty(&ty::from_public(ty), names)
}
