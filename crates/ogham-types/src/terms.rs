//! The structure of opaque sizes: sizes that are not polynomials (`2 ** k`,
//! `inc n`, `plus a b`), matched the way Futhark matches them, term by term.
//!
//! `Checker::register_opaque_sizes` gives each such size expression an
//! opaque size variable, named by a canonical text of the expression (its
//! key: `(g5 l77)` for `inc n`, `(2 ** (l12 + 1))`). Wherever names are
//! replaced by sizes (a use of a definition, a type abbreviation applied to
//! sizes, a dependent function applied to an argument), an opaque size
//! that mentions them becomes the opaque size of the substituted term
//! (`Checker::derive_opaque`): `def tail [n] (A: [inc n]t)` used once is
//! `[inc ?17]` (key `(g5 ?17)`). Unifying it with an opaque size of the
//! same shape (`inc k`, key `(g5 l40)`) solves the size variables (`?17 =
//! k`), which is how `tail (cons 2 xs)` finds its `n`. Lowering computes a
//! derived opaque size as the original expression with its names bound to
//! the substituted sizes (`TypeInfo::opaque_derived`).
//!
//! Keys are made of `(`, `)` and atoms: `l{id}` a local name, `g{def}` a
//! top-level one, `?{id}` a size variable, integer literals, operators and
//! the other atoms `size_term` writes.

use ogham_syntax::ast::NodeId;
use ogham_syntax::Span;
use rustc_hash::FxHashMap as HashMap;

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

/// `key` with each atom that `f` gives a replacement for replaced; `None`
/// when nothing changed.
fn map_atoms(key: &str, f: &mut dyn FnMut(&str) -> Option<String>) -> Option<String> {
    let mut changed = false;
    let mut out = String::with_capacity(key.len());
    let mut atom = String::new();
    let mut emit = |atom: &mut String, out: &mut String| {
        match f(atom) {
            Some(r) => {
                out.push_str(&r);
                changed = true;
            }
            None => out.push_str(atom),
        }
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

fn local_atom(atom: &str) -> Option<NodeId> {
    atom.strip_prefix('l').and_then(|n| n.parse::<u32>().ok()).map(NodeId)
}

impl Checker {
    /// The size variables of `ty`, also those inside its opaque sizes
    /// (`n` in `[n/2]`): the names a type mentions.
    pub(crate) fn size_names_in(&self, ty: &ty::Ty, out: &mut Vec<NodeId>) {
        let start = out.len();
        ty::dim_vars(ty, out);
        let inner: Vec<NodeId> =
            out[start..].iter().filter_map(|v| self.size_term_keys.get(v)).flat_map(|k| key_locals(k)).collect();
        out.extend(inner);
    }

    /// How a size is written as an atom of a key: a size variable `?{id}`,
    /// a name `l{id}`, an opaque size's own key, a literal, or sums and
    /// products of those in the polynomial's order.
    fn dim_atom(&self, d: &Dim) -> String {
        let p = match self.store.resolve_dim(d) {
            Dim::Unknown(u) => return format!("u{u}"),
            Dim::Poly(p) => p,
        };
        if let Some(v) = p.as_var() {
            if ty::is_svar(v) {
                return format!("?{}", v.0);
            }
            if let Some(k) = self.size_term_keys.get(&v) {
                return k.clone();
            }
            return format!("l{}", v.0);
        }
        if let Some(c) = p.as_constant() {
            return c.to_string();
        }
        let mut out = String::new();
        for (i, (mono, c)) in p.terms().iter().enumerate() {
            let mut term = if *c == 1 && !mono.is_empty() { String::new() } else { c.to_string() };
            for v in mono {
                let a = self.dim_atom(&Dim::var(*v));
                term = if term.is_empty() { a } else { format!("({term} * {a})") };
            }
            out = if i == 0 { term } else { format!("({out} + {term})") };
        }
        out
    }

    /// The opaque size that `v` becomes when the names in `sizes` are
    /// replaced by their sizes (`inc n` with `n = k+1` is `inc (k+1)`):
    /// the one registered for that term if there is one, else a new opaque
    /// size that lowering computes as `v`'s expression with those names
    /// bound to those sizes. `None` when `v` mentions none of them.
    pub(crate) fn derive_opaque(&mut self, v: NodeId, sizes: &HashMap<NodeId, Dim>) -> Option<NodeId> {
        let key = self.size_term_keys.get(&v)?.clone();
        let locals = key_locals(&key);
        if !locals.iter().any(|l| sizes.contains_key(l)) {
            return None;
        }
        let new_key = map_atoms(&key, &mut |a| local_atom(a).and_then(|l| sizes.get(&l)).map(|d| self.dim_atom(d)))?;
        if let Some(id) = self.size_terms.get(&new_key) {
            return Some(*id);
        }
        // The original expression, and the names it mentions with the sizes
        // they now stand for.
        let (root, mut subst) = match self.derived_terms.get(&v) {
            Some((root, s)) => (*root, s.iter().map(|(l, d)| (*l, ty::subst_dim(d, sizes))).collect::<Vec<_>>()),
            None => (v, Vec::new()),
        };
        for l in locals {
            if let Some(d) = sizes.get(&l) {
                if !subst.iter().any(|(k, _)| *k == l) {
                    subst.push((l, d.clone()));
                }
            }
        }
        let id = NodeId(ty::OPAQUE_BASE + self.size_terms.len() as u32);
        let shown = self.show_key(&new_key);
        self.names.insert(id, shown);
        self.size_term_keys.insert(id, new_key.clone());
        self.size_terms.insert(new_key, id);
        self.derived_terms.insert(id, (root, subst));
        self.new_derived.push(id);
        Some(id)
    }

    /// `ty` with the names in `sizes` replaced by their sizes, also inside
    /// the opaque sizes that mention them.
    pub(crate) fn subst_sizes_in_terms(&mut self, ty: &ty::Ty, sizes: &HashMap<NodeId, Dim>) -> ty::Ty {
        if sizes.is_empty() {
            return ty.clone();
        }
        match self.with_derived_opaque(ty, sizes) {
            Some(all) => ty::subst_sizes(ty, &all),
            None => ty::subst_sizes(ty, sizes),
        }
    }

    /// `sizes` and, for each opaque size of `ty` that mentions their
    /// names, the opaque size it becomes ([`Checker::derive_opaque`]);
    /// `None` when `ty` has no opaque size (most types: no copy of
    /// `sizes` for them).
    pub(crate) fn with_derived_opaque(
        &mut self,
        ty: &ty::Ty,
        sizes: &HashMap<NodeId, Dim>,
    ) -> Option<HashMap<NodeId, Dim>> {
        let mut vars = Vec::new();
        ty::dim_vars(ty, &mut vars);
        if !vars.iter().any(|v| ty::is_opaque(*v)) {
            return None;
        }
        let mut all = sizes.clone();
        for v in vars {
            if ty::is_opaque(v) && !all.contains_key(&v) {
                if let Some(d) = self.derive_opaque(v, sizes) {
                    all.insert(v, Dim::var(d));
                }
            }
        }
        Some(all)
    }

    /// A key as a size is shown in messages (`inc n`, `(n-1)/nbs`).
    fn show_key(&self, key: &str) -> String {
        fn go(c: &Checker, t: &Term, top: bool) -> String {
            match t {
                Term::Atom(a) => {
                    let id = a
                        .strip_prefix('l')
                        .or_else(|| a.strip_prefix('?'))
                        .and_then(|n| n.parse::<u32>().ok())
                        .map(NodeId);
                    if let Some(g) = a.strip_prefix('g').and_then(|n| n.parse::<usize>().ok()) {
                        if let Some(def) = c.globals.get(g) {
                            if let Some(n) = c.names.get(&def.binder) {
                                return n.clone();
                            }
                        }
                    }
                    match id.and_then(|id| c.names.get(&id)) {
                        Some(n) => n.clone(),
                        None if a.starts_with('?') => "?".to_string(),
                        None => a.clone(),
                    }
                }
                Term::Group(items) => {
                    let inner = match items.as_slice() {
                        [x, Term::Atom(op), y] if !op.chars().any(|ch| ch.is_alphanumeric()) => {
                            format!("{}{op}{}", go(c, x, false), go(c, y, false))
                        }
                        [Term::Atom(op), x] if op == "op" => format!("({})", go(c, x, false)),
                        _ => items.iter().map(|i| go(c, i, false)).collect::<Vec<_>>().join(" "),
                    };
                    if top {
                        inner
                    } else {
                        format!("({inner})")
                    }
                }
            }
        }
        match parse(key) {
            Some(t) => go(self, &t, true),
            None => key.to_string(),
        }
    }

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
                if let Some(n) = a.strip_prefix('u').and_then(|n| n.parse::<u32>().ok()) {
                    return Some(Dim::Unknown(n));
                }
                if let Some(d) = a.strip_prefix('g').and_then(|n| n.parse::<u32>().ok()) {
                    let g = self.globals.get(d as usize)?;
                    return (g.scheme.ty == ty::Ty::i64()).then(|| Dim::var(g.binder));
                }
                a.parse::<i64>().ok().map(|c| Dim::Poly(Poly::constant(c)))
            }
            Term::Group(items) => {
                let poly = |d: Option<Dim>| Some(d?.to_poly().into_owned());
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
                    return Some(Dim::from_poly(p));
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

    /// The structural key of an opaque size variable.
    fn structural_key(&self, d: &Dim) -> Option<&str> {
        match d {
            Dim::Unknown(_) => None,
            Dim::Poly(p) => {
                p.as_var().filter(|v| ty::is_opaque(*v)).and_then(|v| self.size_term_keys.get(&v)).map(String::as_str)
            }
        }
    }

    /// Unifies two sizes that are different opaque sizes, or polynomials
    /// that differ only in one opaque size each (`?o + 1` and `o + 1`), term
    /// by term: `Some(Ok)` when
    /// they are the same term once their size variables are solved, `None`
    /// when this rule does not apply (at least one side has no size
    /// variables to solve, or their shapes differ).
    pub(crate) fn unify_opaque_terms(&mut self, a: &Dim, b: &Dim, span: Span) -> Option<Result<(), Mismatch>> {
        if let (Dim::Poly(p), Dim::Poly(q)) = (a, b) {
            let diff = p.sub(q);
            if let [(m1, c1), (m2, c2)] = diff.terms() {
                if m1.len() == 1
                    && m2.len() == 1
                    && c1 + c2 == 0
                    && c1.abs() == 1
                    && (p.as_var().is_none() || q.as_var().is_none())
                {
                    let (x, y) = (Dim::var(m1[0]), Dim::var(m2[0]));
                    return self.unify_opaque_terms(&x, &y, span);
                }
            }
        }
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
