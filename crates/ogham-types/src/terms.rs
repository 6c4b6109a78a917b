//! The structure of opaque sizes: sizes that are not polynomials (`2 ** k`,
//! `inc n`, `plus a b`), matched the way Futhark matches them, term by term.
//!
//! `Checker::register_opaque_sizes` gives each such size expression an
//! opaque size variable, named by a canonical text of the expression (its
//! key: `(g5 l77)` for `inc n`, `(2 ** (l12 + 1))`). A use of a definition
//! whose type has one (`def tail [n] (A: [inc n]t)`) cannot keep that
//! variable, which names the definition's own `n`: `Checker::instantiate`
//! gives it a fresh unknown size per use and records here the key with the
//! instantiated size parameters replaced by their size variables
//! (`(g5 ?17)`). Unifying that unknown size with an opaque size of the same
//! shape (`inc k`, key `(g5 l40)`) then solves the size variables (`?17 =
//! k`), which is how `tail (cons 2 xs)` finds its `n`.
//!
//! Keys are made of `(`, `)` and atoms: `l{id}` a local name, `g{def}` a
//! top-level one, `?{id}` a size variable, integer literals, operators and
//! the other atoms `size_term` writes.

use std::collections::HashMap;

use ogham_syntax::ast::NodeId;
use ogham_syntax::Span;

use crate::checker::Checker;
use crate::size::Poly;
use crate::ty::{self, Dim};
use crate::unify::Mismatch;

/// A key parsed into its tree.
#[derive(Clone, Debug, PartialEq)]
enum Term {
    Atom(String),
    Group(Vec<Term>),
}

fn parse(key: &str) -> Option<Term> {
    let mut stack: Vec<Vec<Term>> = vec![Vec::new()];
    let mut atom = String::new();
    let flush = |atom: &mut String, stack: &mut Vec<Vec<Term>>| {
        if !atom.is_empty() {
            if let Some(top) = stack.last_mut() {
                top.push(Term::Atom(std::mem::take(atom)));
            }
        }
    };
    for c in key.chars() {
        match c {
            '(' => {
                flush(&mut atom, &mut stack);
                stack.push(Vec::new());
            }
            ')' => {
                flush(&mut atom, &mut stack);
                let group = stack.pop()?;
                stack.last_mut()?.push(Term::Group(group));
            }
            c if c.is_whitespace() => flush(&mut atom, &mut stack),
            c => atom.push(c),
        }
    }
    flush(&mut atom, &mut stack);
    let mut top = stack.pop()?;
    (stack.is_empty() && top.len() == 1).then(|| top.remove(0))
}

fn render(t: &Term, out: &mut String) {
    match t {
        Term::Atom(a) => out.push_str(a),
        Term::Group(items) => {
            out.push('(');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                render(item, out);
            }
            out.push(')');
        }
    }
}

/// The local names (`l{id}` atoms) a key mentions.
pub fn key_locals(key: &str) -> Vec<NodeId> {
    key.split(|c: char| c == '(' || c == ')' || c.is_whitespace())
        .filter_map(|a| a.strip_prefix('l').and_then(|n| n.parse::<u32>().ok()))
        .map(NodeId)
        .collect()
}

/// `key` with each local name that `sizes` maps to a size variable replaced
/// by that variable; `None` when it mentions none of them.
pub fn instantiate_key(key: &str, sizes: &HashMap<NodeId, Dim>) -> Option<String> {
    let mut changed = false;
    let mut out = String::with_capacity(key.len());
    let mut atom = String::new();
    let mut emit = |atom: &mut String, out: &mut String| {
        if let Some(v) = atom.strip_prefix('l').and_then(|n| n.parse::<u32>().ok()) {
            if let Some(s) = sizes.get(&NodeId(v)).and_then(Dim::as_var).filter(|s| ty::is_svar(*s)) {
                out.push_str(&format!("?{}", s.0));
                changed = true;
                atom.clear();
                return;
            }
        }
        out.push_str(atom);
        atom.clear();
    };
    for c in key.chars() {
        if c == '(' || c == ')' || c.is_whitespace() {
            emit(&mut atom, &mut out);
            out.push(c);
        } else {
            atom.push(c);
        }
    }
    emit(&mut atom, &mut out);
    changed.then_some(out)
}

impl Checker {
    /// The size a subterm of a key denotes, if it can be said as a size:
    /// a name, a size variable, a literal, `+ - *` of those, or another
    /// opaque size's key.
    fn term_dim(&self, t: &Term) -> Option<Dim> {
        match t {
            Term::Atom(a) => {
                if let Some(n) = a.strip_prefix('?').and_then(|n| n.parse::<u32>().ok()) {
                    return Some(Dim::var(NodeId(n)));
                }
                if let Some(n) = a.strip_prefix('l').and_then(|n| n.parse::<u32>().ok()) {
                    return Some(Dim::var(NodeId(n)));
                }
                if let Some(d) = a.strip_prefix('g').and_then(|n| n.parse::<u32>().ok()) {
                    let g = self.globals.get(d as usize)?;
                    return (g.scheme.ty == ty::Ty::i64()).then(|| Dim::var(g.binder));
                }
                a.parse::<i64>().ok().map(|c| Dim::Poly(Poly::constant(c)))
            }
            Term::Group(items) => {
                let poly = |d: Option<Dim>| match d? {
                    Dim::Poly(p) => Some(p),
                    Dim::Unknown(_) => None,
                };
                let arith = match items.as_slice() {
                    [Term::Atom(m), x] if m == "-" => poly(self.term_dim(x)).map(|p| p.neg()),
                    [x, Term::Atom(op), y] if matches!(op.as_str(), "+" | "-" | "*") => {
                        let (a, b) = (poly(self.term_dim(x))?, poly(self.term_dim(y))?);
                        match op.as_str() {
                            "+" => Some(a.add(&b)),
                            "-" => Some(a.sub(&b)),
                            _ => a.checked_mul(&b),
                        }
                    }
                    _ => None,
                };
                if let Some(p) = arith {
                    return Some(Dim::Poly(p));
                }
                let mut key = String::new();
                render(t, &mut key);
                self.size_terms.get(&key).map(|id| Dim::var(*id))
            }
        }
    }

    /// Collects the equations that make `a` (with size variables) the same
    /// term as `b`; false where their shapes differ.
    fn match_terms(&self, a: &Term, b: &Term, eqs: &mut Vec<(Dim, Dim)>) -> bool {
        let svar = |t: &Term| match t {
            Term::Atom(s) => s.strip_prefix('?').and_then(|n| n.parse::<u32>().ok()).map(NodeId),
            Term::Group(_) => None,
        };
        if let Some(v) = svar(a) {
            return match self.term_dim(b) {
                Some(d) => {
                    eqs.push((Dim::var(v), d));
                    true
                }
                None => false,
            };
        }
        if svar(b).is_some() {
            return self.match_terms(b, a, eqs);
        }
        match (a, b) {
            (Term::Atom(x), Term::Atom(y)) => x == y,
            (Term::Group(xs), Term::Group(ys)) => {
                xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| self.match_terms(x, y, eqs))
            }
            _ => false,
        }
    }

    /// The structural key of an unknown size or an opaque size variable.
    fn structural_key(&self, d: &Dim) -> Option<&str> {
        match d {
            Dim::Unknown(u) => self.unknown_terms.get(u).map(String::as_str),
            Dim::Poly(p) => p.as_var().filter(|v| ty::is_opaque(*v)).and_then(|v| self.size_term_keys.get(&v)).map(String::as_str),
        }
    }

    /// Unifies two sizes that are different opaque sizes or unknown sizes
    /// standing for instantiated opaque ones, term by term: `Some(Ok)` when
    /// they are the same term once their size variables are solved, `None`
    /// when this rule does not apply (at least one side has no size
    /// variables to solve, or their shapes differ).
    pub(crate) fn unify_opaque_terms(&mut self, a: &Dim, b: &Dim, span: Span) -> Option<Result<(), Mismatch>> {
        let (ka, kb) = (self.structural_key(a)?, self.structural_key(b)?);
        if !ka.contains('?') && !kb.contains('?') {
            return None;
        }
        let (ta, tb) = (parse(ka)?, parse(kb)?);
        let mut eqs = Vec::new();
        if !self.match_terms(&ta, &tb, &mut eqs) {
            return None;
        }
        for (x, y) in eqs {
            if let Err(m) = self.unify_dims(&x, &y, span) {
                return Some(Err(m));
            }
        }
        Some(Ok(()))
    }
}
