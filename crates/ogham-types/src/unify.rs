//! Unification of types and sizes.
//!
//! Sizes unify modulo polynomial normalisation; an equation that still has
//! unsolved size variables on both sides is deferred and retried at the end of
//! the top-level definition. Failures are reported by the caller, which
//! knows the span and how to describe the two types.

use std::borrow::Cow;
use std::collections::BTreeMap;

use ogham_syntax::ast::NodeId;
use ogham_syntax::Span;

use crate::size::Poly;
use crate::ty::{is_svar, is_unknown_var, Constraint, Dim, Ty};

use crate::checker::Checker;

/// Why two types do not unify.
#[derive(Debug)]
pub enum Mismatch {
    /// The structures differ.
    Types,
    /// Two sizes differ (resolved dims).
    Sizes(Dim, Dim),
    Occurs,
    /// A size variable would equal a size containing it (`?d = ?d + ?d`).
    OccursSize(Dim, Dim),
    /// A type or size variable would stand for a type mentioning the
    /// named parameter of a dependent function (`b` in `a -> b` for
    /// `iota : (n: i64) -> [n]i64`): outside that function, the size is
    /// anonymous.
    BoundSize(Dim),
    /// A size of the expected type, from outside a function, would have
    /// to equal a size that names the function's own parameter (`[d][d]t`
    /// for `\n -> … [n+1][n+2]t`): the parameter and that size.
    ScopeViolation(Dim, Dim),
    /// A variable's constraint rules the type out; whether the variable
    /// is on the actual side (so the type is the expected one).
    Constraint(Constraint, Ty, bool),
    /// Two variables' constraints have nothing in common.
    Constraints(Constraint, Constraint),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SizeMode {
    Exact,
    /// Sizes are not compared (branches are joined separately; coercions are checked at run time).
    Ignore,
}

impl Checker {
    /// Unifies, reporting a `type-mismatch`/`size-mismatch` at `span` on failure.
    /// Returns false on failure.
    pub fn unify_at(&mut self, expected: &Ty, actual: &Ty, span: Span) -> bool {
        self.unify_mode_at(expected, actual, span, SizeMode::Exact)
    }

    pub fn unify_mode_at(&mut self, expected: &Ty, actual: &Ty, span: Span, mode: SizeMode) -> bool {
        match self.unify(expected, actual, mode, span) {
            Ok(()) => true,
            Err(m) => {
                self.report_mismatch(m, expected, actual, span);
                false
            }
        }
    }

    pub fn report_mismatch(&mut self, m: Mismatch, expected: &Ty, actual: &Ty, span: Span) {
        let e = self.show(expected);
        let a = self.show(actual);
        match m {
            Mismatch::Types => {
                // Futhark names the fields or constructors the two sides do not share.
                let unshared = |x: Vec<String>, y: Vec<String>| {
                    let mut out: Vec<String> = x.iter().filter(|k| !y.contains(k)).cloned().collect();
                    out.extend(y.iter().filter(|k| !x.contains(k)).cloned());
                    out.sort();
                    out
                };
                let detail = match (self.store.resolve(expected), self.store.resolve(actual)) {
                    (Ty::Record(f1), Ty::Record(f2)) if f1.keys().ne(f2.keys()) => {
                        let u = unshared(f1.keys().cloned().collect(), f2.keys().cloned().collect());
                        format!(" Cannot unify record types with unshared fields: {}.", u.join(", "))
                    }
                    // Same fields: say which one differs, as Futhark's breadcrumbs do.
                    (Ty::Record(f1), Ty::Record(f2)) => f1
                        .iter()
                        .find(|(k, t)| self.show(t) != self.show(&f2[*k]))
                        .map(|(k, _)| format!(" When matching types of record field \"{k}\"."))
                        .unwrap_or_default(),
                    (Ty::Sum(c1), Ty::Sum(c2)) if c1.keys().ne(c2.keys()) => {
                        let u = unshared(c1.keys().cloned().collect(), c2.keys().cloned().collect());
                        let u: Vec<String> = u.iter().map(|k| format!("#{k}")).collect();
                        format!(" Cannot unify sum types. Unshared constructors: {}.", u.join(", "))
                    }
                    _ => String::new(),
                };
                self.error("type-mismatch", span, format!("Type mismatch: expected `{e}`, but got `{a}`.{detail}"))
            }
            Mismatch::Sizes(d1, d2) => {
                let s1 = self.show_dim(&d1);
                let s2 = self.show_dim(&d2);
                // Say where an existential size comes from: a conditional's
                // branches, or an expression whose value no type can know.
                let mut why = String::new();
                for (d, s) in [(&d1, &s1), (&d2, &s2)] {
                    if let Some((x, y)) = if let Dim::Unknown(u) = d { self.branch_sizes.get(u) } else { None } {
                        why.push_str(&format!(
                            " \"{s}\" is the size of a conditional whose branches have sizes [{x}] and [{y}]."
                        ));
                    } else if let Dim::Unknown(u) = self.store.resolve_dim(d) {
                        if let Some(origin) = self.unknown_origins.get(&u) {
                            why.push_str(&format!(" \"?k{u}\" is {origin}."));
                        }
                    }
                }
                self.error(
                    "size-mismatch",
                    span,
                    format!("Sizes \"{s1}\" and \"{s2}\" do not match (expected `{e}`, but got `{a}`).{why}"),
                )
            }
            Mismatch::BoundSize(d) => {
                let s = self.show_dim(&d);
                self.error(
                    "size-mismatch",
                    span,
                    format!("Sizes \"{s}\" and \"{s}\" do not match (expected `{e}`, but got `{a}`): \"{s}\" is the parameter of a function whose result size depends on it. This is because a type parameter would be instantiated with a type containing anonymous sizes."),
                )
            }
            Mismatch::ScopeViolation(param, inner) => {
                let (p, i) = (self.show_dim(&param), self.show_dim(&inner));
                self.error(
                    "scope-violation",
                    span,
                    format!("Cannot link a size of the expected type to \"{i}\" (scope-violation): \"{p}\" is a parameter of the function, not in scope outside it (expected `{e}`, but got `{a}`)."),
                )
            }
            Mismatch::Occurs => self.error(
                "occurs-check",
                span,
                format!("Occurs check: cannot construct the infinite type `{e}` = `{a}`."),
            ),
            Mismatch::OccursSize(v, d) => {
                let v = self.show_dim(&v);
                let d = self.show_dim(&d);
                self.error(
                    "occurs-check",
                    span,
                    format!("Occurs check: cannot instantiate \"{v}\" with \"{d}\" (expected `{e}`, but got `{a}`)."),
                )
            }
            Mismatch::Constraint(c, t, on_actual) => {
                // "expected a sum type, but got `#a i32 | #b`" would not say what
                // is wrong; name the constructor or field that does not fit.
                let shallow = self.store.shallow(&t);
                let detail = match (&c, &shallow) {
                    (Constraint::Sum(cons), Ty::Sum(actual)) => cons
                        .iter()
                        .find(|(k, ts)| actual.get(*k).is_none_or(|us| us.len() != ts.len()))
                        .map(|(k, ts)| {
                            let n = ts.len();
                            format!(" with a constructor `#{k}` taking {n} payload{}", if n == 1 { "" } else { "s" })
                        }),
                    (Constraint::Record(fields), Ty::Record(actual)) => {
                        fields.keys().find(|k| !actual.contains_key(*k)).map(|k| format!(" with a field `{k}`"))
                    }
                    (Constraint::Record(fields), _) => fields.keys().next().map(|k| format!(" with a field `{k}`")),
                    _ => None,
                };
                // Futhark's wording for the same failures, so that its tests match.
                let why = match (&c, &shallow) {
                    (Constraint::Sum(cons), Ty::Sum(actual)) => {
                        let u: Vec<String> =
                            cons.keys().filter(|k| !actual.contains_key(*k)).map(|k| format!("#{k}")).collect();
                        if u.is_empty() {
                            " Cannot unify sum types: the constructors differ in arity.".to_string()
                        } else {
                            format!(" Cannot unify sum types. Unshared constructors: {}.", u.join(", "))
                        }
                    }
                    (Constraint::Sum(_), _) => " Cannot unify type with constructors.".to_string(),
                    (Constraint::Record(_), Ty::Record(_)) => " Cannot unify record type.".to_string(),
                    (Constraint::Record(fields), _) => {
                        format!(
                            " Cannot unify record type with fields {} with type `{}`.",
                            field_list(fields),
                            self.show(&t)
                        )
                    }
                    _ => String::new(),
                };
                let t = self.show(&t);
                let constrained = format!("{}{}", c.describe(), detail.unwrap_or_default());
                let msg = if on_actual {
                    format!("Type mismatch: expected `{t}`, but got {constrained}.{why}")
                } else {
                    format!("Type mismatch: expected {constrained}, but got `{t}`.{why}")
                };
                self.error("type-mismatch", span, msg)
            }
            Mismatch::Constraints(c1, c2) => {
                // In Futhark's words (its tests match them); the two sides
                // are not told apart as expected and actual, as a variable
                // may have been reached from either.
                let why = match (&c1, &c2) {
                    (Constraint::Record(fs), Constraint::Sum(cs)) | (Constraint::Sum(cs), Constraint::Record(fs)) => {
                        format!(
                            "Cannot unify record type with fields {} with type with constructors {}.",
                            field_list(fs),
                            constructor_list(cs)
                        )
                    }
                    (Constraint::Sum(c1), Constraint::Sum(c2)) => format!(
                        "Cannot unify type with constructors {} with type with constructors {}: a constructor takes a different number of payloads.",
                        constructor_list(c1),
                        constructor_list(c2)
                    ),
                    (Constraint::Record(_), p) | (p, Constraint::Record(_)) => format!(
                        "Cannot unify type that must be one of {} with type that must be a record.",
                        prim_list(p)
                    ),
                    (Constraint::Sum(cs), p) | (p, Constraint::Sum(cs)) => format!(
                        "Cannot unify type that must be one of {} with type with constructors {}: a sum type cannot be one of these.",
                        prim_list(p),
                        constructor_list(cs)
                    ),
                    (p1, p2) => format!(
                        "Cannot unify type that must be one of {} with type that must be one of {}.",
                        prim_list(p1),
                        prim_list(p2)
                    ),
                };
                self.error(
                    "type-mismatch",
                    span,
                    format!("Type mismatch: {} and {} have nothing in common. {why}", c1.describe(), c2.describe()),
                )
            }
        }
    }

    pub fn unify(&mut self, t1: &Ty, t2: &Ty, mode: SizeMode, span: Span) -> Result<(), Mismatch> {
        // Only a variable's binding is copied (out of the store, which
        // unifying changes); a type given here is looked into in place, so
        // that unifying nested types does not copy each level again.
        let a = match t1 {
            Ty::Var(_) => Cow::Owned(self.store.shallow(t1)),
            _ => Cow::Borrowed(t1),
        };
        let b = match t2 {
            Ty::Var(_) => Cow::Owned(self.store.shallow(t2)),
            _ => Cow::Borrowed(t2),
        };
        match (&*a, &*b) {
            (Ty::Error, _) | (_, Ty::Error) => Ok(()),
            (Ty::Var(x), Ty::Var(y)) if x == y => Ok(()),
            (Ty::Var(x), _) => self.bind_var(*x, &b, mode, span),
            (_, Ty::Var(y)) => self.bind_var(*y, &a, mode, span).map_err(|m| match m {
                Mismatch::Constraint(c, t, _) => Mismatch::Constraint(c, t, true),
                other => other,
            }),
            (Ty::Prim(p), Ty::Prim(q)) if p == q => Ok(()),
            (Ty::Param(p), Ty::Param(q)) if p == q => Ok(()),
            (Ty::Abstract(p, xs), Ty::Abstract(q, ys)) if p == q && xs.len() == ys.len() => {
                for (x, y) in xs.iter().zip(ys) {
                    self.unify(x, y, mode, span)?;
                }
                Ok(())
            }
            (Ty::Array(e1, s1), Ty::Array(e2, s2)) => {
                if s1.len() == s2.len() {
                    self.unify(e1, e2, mode, span)?;
                    if mode == SizeMode::Exact {
                        for (d1, d2) in s1.iter().zip(s2) {
                            self.unify_dims(d1, d2, span)?;
                        }
                    }
                    return Ok(());
                }
                // Ranks differ: the element type of the lower-rank side may be a variable
                // standing for an array.
                let (short, se, long, le) = if s1.len() < s2.len() { (s1, e1, s2, e2) } else { (s2, e2, s1, e1) };
                if mode == SizeMode::Exact {
                    for (d1, d2) in short.iter().zip(long.iter()) {
                        self.unify_dims(d1, d2, span)?;
                    }
                }
                let rest = Ty::Array(le.clone(), long[short.len()..].to_vec());
                self.unify(se, &rest, mode, span)
            }
            (Ty::Record(f1), Ty::Record(f2)) => {
                if f1.len() != f2.len() || f1.keys().any(|k| !f2.contains_key(k)) {
                    return Err(Mismatch::Types);
                }
                for (k, t) in f1 {
                    self.unify(t, &f2[k], mode, span)?;
                }
                Ok(())
            }
            (Ty::Sum(c1), Ty::Sum(c2)) => {
                if c1.len() != c2.len() || c1.keys().any(|k| !c2.contains_key(k)) {
                    return Err(Mismatch::Types);
                }
                for (k, ts) in c1 {
                    let us = &c2[k];
                    if ts.len() != us.len() {
                        return Err(Mismatch::Types);
                    }
                    for (t, u) in ts.iter().zip(us) {
                        self.unify(t, u, mode, span)?;
                    }
                }
                Ok(())
            }
            (Ty::Arrow(x), Ty::Arrow(y)) => {
                self.unify(&x.from, &y.from, mode, span)?;
                // Named parameters are renamed so that dependent result sizes line up.
                let yto = match (x.param, y.param) {
                    (Some(p), Some(q)) if p != q => {
                        self.subst_sizes_in_terms(&y.to, &rustc_hash::FxHashMap::from_iter([(q, Dim::var(p))]))
                    }
                    _ => y.to.clone(),
                };
                // Existential sizes of two results (`a -> ?[k].[k]b`) are
                // alpha-equivalent: each application has its own. A size
                // that depends on a parameter (`(n: i64) -> [n]t`, `\(k, x)
                // -> replicate k x`) or a constant one is an existential one
                // seen from outside.
                let params: Vec<NodeId> = [x.param, y.param].into_iter().flatten().collect();
                let implicit = self.implicit_sizes.as_deref().unwrap_or(&[]);
                let in_scope = |v: NodeId| {
                    !params.contains(&v)
                        && (is_svar(v)
                            || implicit.contains(&v)
                            || self.locals.contains_id(v)
                            || self.global_binders.contains(&v))
                };
                // The expected result's own existential sizes (written in
                // it, not reached through a size variable bound elsewhere)
                // admit any size: the function returns an array of some
                // size.
                let mut own = Vec::new();
                literal_unknowns(&x.to, &mut own);
                let (xto, yto) =
                    same_existentials(&self.store.resolve(&x.to), &self.store.resolve(&yto), &in_scope, &own, &params);
                // The variables of the side whose parameter is unnamed, and
                // the other side's parameter name.
                let mut type_vars = Vec::new();
                let mut size_vars = Vec::new();
                let bound = match (x.param, y.param) {
                    (None, Some(q)) => {
                        crate::ty::type_vars_in(&xto, &mut type_vars);
                        Some(q)
                    }
                    (Some(p), None) => {
                        crate::ty::type_vars_in(&yto, &mut type_vars);
                        crate::ty::dim_vars(&yto, &mut size_vars);
                        size_vars.retain(|v| is_svar(*v));
                        Some(p)
                    }
                    _ => None,
                };
                if let Err(e) = self.unify(&xto, &yto, mode, span) {
                    // Whether one of the expected result's sizes was first
                    // linked to a size of the actual function's own
                    // parameter: Futhark reports that (out of scope outside
                    // the function), not what follows. (`xto` still holds
                    // the sizes as they were; the store, what they became.)
                    if let (None, Some(q)) = (x.param, y.param) {
                        let mut linked = None;
                        crate::ty::for_each_dim(&xto, &mut |d| {
                            let now = self.store.resolve_dim(d);
                            if linked.is_none() && now != *d && matches!(&now, Dim::Poly(p) if p.vars().any(|w| w == q))
                            {
                                linked = Some(now);
                            }
                        });
                        if let Some(now) = linked {
                            return Err(Mismatch::ScopeViolation(Dim::var(q), now));
                        }
                    }
                    return Err(e);
                }
                // A function whose result size is its argument (`iota`)
                // where one whose result is some type to be inferred is
                // expected (`map`'s `a -> b`): `b` cannot name that size
                // unless it is lifted.
                // (An anonymous size of the expected result, `i64 -> []t`,
                // is existential and may.) Likewise a function with an
                // unnamed parameter (`\_ xs -> ...`) where a dependent one
                // is expected (`(k: i64) -> [k]i32 -> i64`): the size of
                // its `xs` cannot be the `k` it does not name.
                if let Some(q) = bound {
                    let mentions = |this: &Self, t: &Ty| {
                        let mut sizes = Vec::new();
                        crate::ty::dim_vars(&this.store.resolve(t), &mut sizes);
                        sizes.contains(&q)
                    };
                    // A type variable may stand for such a type if it
                    // instantiates a lifted type parameter (`apply 'a '^b`):
                    // which it instantiates is known once the definition is
                    // checked (`Checker::check_anonymous_instantiations`).
                    if type_vars.iter().any(|v| mentions(self, &Ty::Var(*v))) {
                        self.escaped_dependent.insert(q);
                    }
                    let size_escapes = size_vars.iter().any(
                        |v| matches!(self.store.resolve_dim(&Dim::var(*v)), Dim::Poly(p) if p.vars().any(|w| w == q)),
                    );
                    if size_escapes {
                        return Err(Mismatch::BoundSize(Dim::var(q)));
                    }
                }
                Ok(())
            }
            _ => Err(Mismatch::Types),
        }
    }

    fn occurs(&self, v: u32, ty: &Ty) -> bool {
        match &*self.store.head(ty) {
            Ty::Var(w) => *w == v,
            Ty::Array(e, _) => self.occurs(v, e),
            Ty::Record(fs) => fs.values().any(|t| self.occurs(v, t)),
            Ty::Sum(cs) => cs.values().flatten().any(|t| self.occurs(v, t)),
            Ty::Arrow(a) => self.occurs(v, &a.from) || self.occurs(v, &a.to),
            Ty::Abstract(_, args) => args.iter().any(|t| self.occurs(v, t)),
            _ => false,
        }
    }

    fn bind_var(&mut self, v: u32, ty: &Ty, mode: SizeMode, span: Span) -> Result<(), Mismatch> {
        if self.occurs(v, ty) {
            return Err(Mismatch::Occurs);
        }
        let constraint = self.store.var(v).constraint.clone();
        if *ty == Ty::Var(v) {
            return Ok(());
        }
        if let Ty::Var(w) = ty {
            // Merge constraints into the surviving variable: the older one,
            // so that chains of variables (the elements of a long array
            // literal) stay one link deep instead of growing with each
            // unification, which made checking them quadratic.
            let other = self.store.var(*w).constraint.clone();
            let merged = self.merge_constraints(constraint, other, mode, span)?;
            let (keep, bind) = if *w < v { (*w, v) } else { (v, *w) };
            self.store.set_constraint(keep, merged);
            self.store.set_binding(bind, Ty::Var(keep));
            return Ok(());
        }
        self.check_constraint(&constraint, ty, mode, span)?;
        self.store.set_binding(v, ty.clone());
        Ok(())
    }

    fn check_constraint(&mut self, c: &Constraint, ty: &Ty, mode: SizeMode, span: Span) -> Result<(), Mismatch> {
        let fail = || Err(Mismatch::Constraint(c.clone(), ty.clone(), false));
        match (c, ty) {
            (Constraint::None, _) => Ok(()),
            (_, Ty::Error) => Ok(()),
            (Constraint::Eq, t) => {
                if crate::ty::contains_arrow(&self.store.resolve(t)) {
                    fail()
                } else {
                    Ok(())
                }
            }
            (Constraint::Record(fields), Ty::Record(actual)) => {
                for (k, t) in fields {
                    match actual.get(k) {
                        Some(u) => self.unify(t, u, mode, span)?,
                        None => return fail(),
                    }
                }
                Ok(())
            }
            (Constraint::Sum(cons), Ty::Sum(actual)) => {
                for (k, ts) in cons {
                    match actual.get(k) {
                        Some(us) if us.len() == ts.len() => {
                            for (t, u) in ts.iter().zip(us) {
                                self.unify(t, u, mode, span)?;
                            }
                        }
                        _ => return fail(),
                    }
                }
                Ok(())
            }
            (c, Ty::Prim(p)) if c.allows_prim(*p) => Ok(()),
            _ => fail(),
        }
    }

    fn merge_constraints(
        &mut self,
        a: Constraint,
        b: Constraint,
        mode: SizeMode,
        span: Span,
    ) -> Result<Constraint, Mismatch> {
        use Constraint::*;
        let prim_rank = |c: &Constraint| match c {
            Float => Some(0),
            Int | SignedInt => Some(0),
            IntOrBool => Some(1),
            Num => Some(1),
            Prim => Some(2),
            Eq => Some(3),
            None => Some(4),
            _ => Option::None,
        };
        Ok(match (a, b) {
            (None, c) | (c, None) => c,
            (Record(mut f1), Record(f2)) => {
                for (k, t) in f2 {
                    if let Some(u) = f1.get(&k).cloned() {
                        self.unify(&u, &t, mode, span)?;
                    } else {
                        f1.insert(k, t);
                    }
                }
                Record(f1)
            }
            (Sum(mut c1), Sum(c2)) => {
                for (k, ts) in c2 {
                    if let Some(us) = c1.get(&k).cloned() {
                        if us.len() != ts.len() {
                            let mut c2 = BTreeMap::new();
                            c2.insert(k, ts);
                            return Err(Mismatch::Constraints(Sum(c1), Sum(c2)));
                        }
                        for (t, u) in ts.iter().zip(&us) {
                            self.unify(t, u, mode, span)?;
                        }
                    } else {
                        c1.insert(k, ts);
                    }
                }
                Sum(c1)
            }
            (Eq, c @ (Record(_) | Sum(_))) | (c @ (Record(_) | Sum(_)), Eq) => c,
            (x, y) => match (prim_rank(&x), prim_rank(&y)) {
                (Some(_), Some(_)) => {
                    // Intersect the sets of primitive types each allows.
                    let allowed: Vec<_> = ogham_prim::PrimType::ALL
                        .into_iter()
                        .filter(|p| x.allows_prim(*p) && y.allows_prim(*p))
                        .collect();
                    if allowed.is_empty() {
                        return Err(Mismatch::Constraints(x, y));
                    }
                    let candidates = [Float, SignedInt, Int, IntOrBool, Num, Prim, Eq];
                    candidates
                        .into_iter()
                        .find(|c| {
                            ogham_prim::PrimType::ALL.into_iter().all(|p| c.allows_prim(p) == allowed.contains(&p))
                        })
                        .unwrap_or(if allowed.iter().all(|p| p.is_int()) { Int } else { Num })
                }
                _ => return Err(Mismatch::Constraints(x, y)),
            },
        })
    }

    /// Unifies two sizes; defers equations that cannot be solved yet.
    pub fn unify_dims(&mut self, d1: &Dim, d2: &Dim, span: Span) -> Result<(), Mismatch> {
        let a = self.store.resolve_dim(d1);
        let b = self.store.resolve_dim(d2);
        if a == b {
            return Ok(());
        }
        match (&a, &b) {
            (Dim::Poly(p), other) | (other, Dim::Poly(p)) if p.as_var().is_some_and(is_svar) => {
                let v = p.as_var().unwrap_or(NodeId(0));
                // Futhark links a size variable to a size expression
                // only if the expression does not mention it.
                if other.to_poly().vars().any(|w| w == v) {
                    return Err(Mismatch::OccursSize(Dim::var(v), other.clone()));
                }
                self.store.bind_svar(v, other.clone());
                Ok(())
            }
            _ => {
                // Existential sizes take part as variables that equal only
                // themselves: `?x + ?y = ?k + n`.
                let (p, q) = (a.to_poly(), b.to_poly());
                if p.vars().chain(q.vars()).any(is_svar) {
                    let diff = p.sub(&q);
                    // An existential size is matched as a whole, as Futhark
                    // does: `?n + 1` is not solved against `?k` (`?n = ?k -
                    // 1` would also accept a `?k` of 0).
                    let whole =
                        |value: &Poly| !value.vars().any(is_unknown_var) || value.terms().iter().all(|(_, c)| *c > 0);
                    if let Some((v, value)) = solve_linear(&diff).filter(|(_, value)| whole(value)) {
                        self.store.bind_svar(v, Dim::from_poly(value));
                        return Ok(());
                    }
                    if let Some((x, y, xv, yv)) = self.split_by_hint(&p, &q).or_else(|| self.split_by_hint(&q, &p)) {
                        self.store.bind_svar(x, Dim::from_poly(xv));
                        self.store.bind_svar(y, Dim::from_poly(yv));
                        return Ok(());
                    }
                    if self.solve_product_by_hint(&p, &q)
                        || self.solve_product_by_hint(&q, &p)
                        || self.solve_sum_by_hint(&p, &q)
                        || self.solve_sum_by_hint(&q, &p)
                    {
                        return Ok(());
                    }
                    if diff.vars().any(is_svar) {
                        self.pending_sizes.push((a.clone(), b.clone(), span));
                        return Ok(());
                    }
                }
                match self.unify_opaque_terms(&a, &b, span) {
                    Some(r) => r,
                    None => Err(Mismatch::Sizes(a, b)),
                }
            }
        }
    }
}

impl Checker {
    /// `?x + ?y = p` where `p` was written as a sum `a + b`: `?x = a`, `?y = b`
    /// (the size variables in order of creation, which is the order of the
    /// size parameters they instantiate); likewise `?x * ?y = p` for a
    /// product.
    /// `?x * ?y * ?z = p` where `p` was written `(a * b) * c`: `?z = c`
    /// and `?x * ?y = a * b`, recursively, for products of any number of
    /// size variables.
    fn solve_product_by_hint(&mut self, lhs: &Poly, p: &Poly) -> bool {
        if p.vars().any(|v| lhs.vars().any(|w| w == v)) || lhs.terms().len() != 1 {
            return false;
        }
        let Some((mono, 1)) = lhs.terms().first().map(|(m, c)| (m.clone(), *c)) else { return false };
        if mono.len() < 3 || !mono.iter().all(|v| is_svar(*v)) || mono.windows(2).any(|w| w[0] == w[1]) {
            return false;
        }
        let Some((a, b)) = self.hint_for(p, true) else {
            return false;
        };
        let mut vars = mono.clone();
        vars.sort();
        let last = vars.pop().unwrap_or(NodeId(0));
        let rest = vars.iter().fold(Poly::constant(1), |acc, v| acc.mul(&Poly::var(*v)));
        if rest.terms().first().map(|(m, _)| m.len()) == Some(2) {
            match self.split_by_hint(&rest, &a) {
                Some((x, y, xv, yv)) => {
                    self.store.bind_svar(x, Dim::from_poly(xv));
                    self.store.bind_svar(y, Dim::from_poly(yv));
                }
                None => return false,
            }
        } else if !self.solve_product_by_hint(&rest, &a) {
            return false;
        }
        self.store.bind_svar(last, Dim::from_poly(b));
        true
    }

    /// `?x + ?y + ?z = p` where `p` was written as a sum of three terms
    /// (`(n + m) + l`, its parts' spellings followed down): the size
    /// variables in order of creation get the terms in the order written,
    /// as Futhark's syntactic unification of `(?x + ?y) + ?z` with `(n +
    /// m) + l` would.
    fn solve_sum_by_hint(&mut self, lhs: &Poly, p: &Poly) -> bool {
        if lhs.terms().len() < 3 || p.vars().any(|v| lhs.vars().any(|w| w == v)) {
            return false;
        }
        let mut vars = Vec::new();
        for (mono, coeff) in lhs.terms() {
            match mono.as_slice() {
                [v] if *coeff == 1 && is_svar(*v) && !vars.contains(v) => vars.push(*v),
                _ => return false,
            }
        }
        let mut parts = Vec::new();
        self.summands(p, 0, &mut parts);
        if parts.len() != vars.len() {
            return false;
        }
        vars.sort();
        for (v, part) in vars.into_iter().zip(parts) {
            self.store.bind_svar(v, Dim::from_poly(part));
        }
        true
    }

    /// The terms of `p` as its spelling as a sum wrote them, each followed
    /// down to its own spelling.
    fn summands(&self, p: &Poly, depth: usize, out: &mut Vec<Poly>) {
        match self.hint_for(p, false).filter(|_| depth < 16) {
            Some((a, b)) => {
                self.summands(&a, depth + 1, out);
                self.summands(&b, depth + 1, out);
            }
            None => out.push(p.clone()),
        }
    }

    fn split_by_hint(&self, lhs: &Poly, p: &Poly) -> Option<(NodeId, NodeId, Poly, Poly)> {
        // `p` may still have size variables of its own (a parameter's
        // anonymous sizes), but not those being solved.
        if p.vars().any(|v| lhs.vars().any(|w| w == v)) {
            return None;
        }
        let mut vars = Vec::new();
        for (mono, coeff) in lhs.terms() {
            if *coeff != 1 || !mono.iter().all(|v| is_svar(*v)) {
                return None;
            }
            vars.extend(mono.iter().copied());
        }
        let product = match (lhs.terms().len(), lhs.terms().first().map(|(m, _)| m.len())) {
            (2, _) if lhs.terms().iter().all(|(m, _)| m.len() == 1) => false,
            (1, Some(2)) => true,
            _ => return None,
        };
        if vars.len() != 2 || vars[0] == vars[1] {
            return None;
        }
        vars.sort();
        let (a, b) = self.hint_for(p, product)?;
        Some((vars[0], vars[1], a, b))
    }

    /// The latest spelling of `p` as a sum or product (`product`), with
    /// size variables solved since it was noted (an instantiated
    /// `[?n*?m*?l]` whose variables the argument then fixed).
    fn hint_for(&self, p: &Poly, product: bool) -> Option<(Poly, Poly)> {
        let resolve = |x: &Poly| self.store.resolve_dim(&Dim::from_poly(x.clone())).to_poly().into_owned();
        self.sum_hints.iter().rev().find_map(|(whole, is_product, a, b)| {
            let same = whole == p || (whole.vars().any(is_svar) && resolve(whole) == *p);
            (same && *is_product == product).then(|| (resolve(a), resolve(b)))
        })
    }
}

/// Two function results (resolved; `a` expected, `b` actual) with the same
/// existential size wherever one has an existential size and the other one
/// too or a size of names out of scope here (the function's own
/// parameters), and where `a` has one and `b` a constant (any size, where
/// `a`'s is one of `own`, the expected function type's own existentials).
/// An expected size that is one of the arrows' named parameters (`params`)
/// is not matched by an actual existential one: the caller relies on it.
fn same_existentials(a: &Ty, b: &Ty, in_scope: &dyn Fn(NodeId) -> bool, own: &[u32], params: &[NodeId]) -> (Ty, Ty) {
    let dependent = |d: &Dim| match d {
        Dim::Poly(p) => p.vars().any(|v| !in_scope(v)),
        Dim::Unknown(_) => true,
    };
    let constant = |d: &Dim| matches!(d, Dim::Poly(p) if p.vars().next().is_none());
    match (a, b) {
        (Ty::Array(ea, sa), Ty::Array(eb, sb)) => {
            // Ranks may differ (an element type variable stands for an
            // array); the outer dimensions line up.
            let (mut shape_a, mut shape_b) = (sa.clone(), sb.clone());
            for (da, db) in shape_a.iter_mut().zip(shape_b.iter_mut()) {
                match (&*da, &*db) {
                    // An expected existential size admits a constant one
                    // (any one when it is the function type's own), but
                    // not the other way round.
                    (Dim::Unknown(u), other) if own.contains(u) || dependent(other) || constant(other) => {
                        *db = da.clone()
                    }
                    // Not where the expected size is the function's own
                    // parameter (`(n: i64) -> [n]t`): a function returning
                    // some other size does not fit (Futhark's error4).
                    (other, Dim::Unknown(_))
                        if dependent(other)
                            && !matches!(other, Dim::Poly(p) if p.vars().any(|v| params.contains(&v))) =>
                    {
                        *da = db.clone()
                    }
                    _ => {}
                }
            }
            let (ea, eb) = if sa.len() == sb.len() {
                same_existentials(ea, eb, in_scope, own, params)
            } else {
                ((**ea).clone(), (**eb).clone())
            };
            (Ty::Array(Box::new(ea), shape_a), Ty::Array(Box::new(eb), shape_b))
        }
        (Ty::Record(fa), Ty::Record(fb)) if fa.len() == fb.len() => {
            let mut ra = fa.clone();
            let mut rb = fb.clone();
            for (k, ta) in fa {
                if let Some(tb) = fb.get(k) {
                    let (x, y) = same_existentials(ta, tb, in_scope, own, params);
                    ra.insert(k.clone(), x);
                    rb.insert(k.clone(), y);
                }
            }
            (Ty::Record(ra), Ty::Record(rb))
        }
        _ => (a.clone(), b.clone()),
    }
}

/// The existential sizes written in a type (not behind a type or size
/// variable), outside nested function types.
fn literal_unknowns(ty: &Ty, out: &mut Vec<u32>) {
    match ty {
        Ty::Array(e, shape) => {
            out.extend(shape.iter().flat_map(Dim::unknowns));
            literal_unknowns(e, out);
        }
        Ty::Record(fs) => fs.values().for_each(|t| literal_unknowns(t, out)),
        Ty::Sum(cs) => cs.values().flatten().for_each(|t| literal_unknowns(t, out)),
        _ => {}
    }
}

/// Solves `diff = 0` when exactly one size variable occurs, in one term
/// `c·m·v` (a constant, a monomial of other sizes and the variable), and
/// every other term is divisible by `c·m`: `2·?x = 2·s` gives `?x = s`,
/// `cols·?x = cols·rows` gives `?x = rows`.
fn solve_linear(diff: &Poly) -> Option<(NodeId, Poly)> {
    let with_svars: Vec<_> = diff.terms().iter().filter(|(m, _)| m.iter().any(|v| is_svar(*v))).collect();
    if with_svars.len() != 1 {
        return None;
    }
    let (mono, coeff) = with_svars[0];
    let svars: Vec<NodeId> = mono.iter().copied().filter(|v| is_svar(*v)).collect();
    if svars.len() != 1 || *coeff == 0 {
        return None;
    }
    let v = svars[0];
    // The factor multiplying `v`: the monomial without one occurrence of `v`.
    let mut factor = mono.clone();
    let at = factor.iter().position(|x| *x == v)?;
    factor.remove(at);
    // coeff·factor·v + rest = 0  =>  v = -(rest / (coeff·factor))
    let mut value = Vec::new();
    for (m, c) in diff.terms().iter().filter(|(m, _)| m != mono) {
        if c % coeff != 0 {
            return None;
        }
        let mut quotient = m.clone();
        for f in &factor {
            let i = quotient.iter().position(|x| x == f)?;
            quotient.remove(i);
        }
        value.push((quotient, -(c / coeff)));
    }
    Some((v, Poly::from_terms(value)))
}

/// `{a, b}`: the fields a record constraint requires.
fn field_list(fields: &BTreeMap<String, Ty>) -> String {
    format!("{{{}}}", fields.keys().cloned().collect::<Vec<_>>().join(", "))
}

/// `#a | #b`: the constructors a sum constraint requires.
fn constructor_list(cons: &BTreeMap<String, Vec<Ty>>) -> String {
    cons.keys().map(|k| format!("#{k}")).collect::<Vec<_>>().join(" | ")
}

/// `i8, i16, …`: the primitive types a constraint allows.
fn prim_list(c: &Constraint) -> String {
    ogham_prim::PrimType::ALL
        .into_iter()
        .filter(|p| c.allows_prim(*p))
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
