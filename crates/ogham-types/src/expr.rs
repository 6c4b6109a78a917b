//! Checking expressions, patterns and type expressions.
//!
//! Every expression check records and returns its type. Consumption and
//! aliasing are checked afterwards, by `consume.rs`.

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

use ogham_prim::ops::{BinOp, CmpOp};
use ogham_prim::PrimType;
use ogham_syntax::ast::{
    Binder, DimIndex, Expr, ExprKind, Literal, LoopForm, Name, NodeId, Pat, PatKind, QualName, RangeEnd, RecordField,
    SizeExp, TypeArg, TypeExp, TypeParam,
};
use ogham_syntax::Span;

use crate::builtins::{intrinsic_signature, Builtin};
use crate::checker::{Checker, Local, Scheme};
use crate::info::Resolution;
use crate::size::Poly;
use crate::ty::{self, contains_arrow, ArrowTy, Constraint, Dim, Ty};
use crate::unify::SizeMode;

/// What an anonymous size `[]` means where a type expression occurs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum AnonMode {
    /// A fresh size variable, solved by unification (ascriptions, local parameters).
    Fresh,
    /// An existential size (return types).
    Unknown,
    /// A new implicit size parameter of a built-in signature (rigid).
    Implicit,
    /// A size to be inferred in a top-level definition's parameters: a size
    /// variable that unification may equate with other sizes of the header;
    /// whatever stays unsolved becomes an implicit size parameter.
    Inferred,
}

/// The names of the built-in infix operators.
pub const BUILTIN_OPS: &[&str] = &[
    "+", "-", "*", "/", "%", "//", "%%", "**", "&", "|", "^", "<<", ">>", ">>>", "==", "!=", "<", "<=", ">", ">=",
    "&&", "||",
];

pub fn is_unique_type_exp(t: &TypeExp) -> bool {
    match t {
        TypeExp::Unique(..) => true,
        TypeExp::Tuple(items, _) => items.iter().any(is_unique_type_exp),
        TypeExp::Record(fs, _) => fs.iter().any(|(_, t)| is_unique_type_exp(t)),
        TypeExp::Existential(_, t, _) => is_unique_type_exp(t),
        _ => false,
    }
}

fn pat_is_unique(p: &Pat) -> bool {
    match &p.kind {
        PatKind::Ascribe(_, t) => is_unique_type_exp(t),
        PatKind::Attr(_, p) => pat_is_unique(p),
        PatKind::Tuple(ps) => ps.iter().any(pat_is_unique),
        PatKind::Record(fs) => fs.iter().any(|(_, p)| pat_is_unique(p)),
        _ => false,
    }
}

/// The variable a parameter pattern names directly, if any (`x`, `(x: t)`).
fn pat_var(p: &Pat) -> Option<NodeId> {
    match &p.kind {
        PatKind::Var(_) => Some(p.id),
        PatKind::Ascribe(p, _) | PatKind::Attr(_, p) => pat_var(p),
        _ => None,
    }
}

/// Which built-in a primitive operator is, given its (resolved) operand type.
pub fn resolve_builtin_op(op: &str, operand: &Ty) -> Builtin {
    let prim = matches!(operand, Ty::Prim(_));
    match op {
        "+" => Builtin::BinOp(BinOp::Add),
        "-" => Builtin::BinOp(BinOp::Sub),
        "*" => Builtin::BinOp(BinOp::Mul),
        "/" => Builtin::BinOp(BinOp::Div),
        "%" => Builtin::BinOp(BinOp::Mod),
        "//" => Builtin::BinOp(BinOp::Quot),
        "%%" => Builtin::BinOp(BinOp::Rem),
        "**" => Builtin::BinOp(BinOp::Pow),
        "&" => Builtin::BinOp(BinOp::And),
        "|" => Builtin::BinOp(BinOp::Or),
        "^" => Builtin::BinOp(BinOp::Xor),
        "<<" => Builtin::BinOp(BinOp::Shl),
        ">>" => Builtin::BinOp(BinOp::Shr),
        ">>>" => Builtin::BinOp(BinOp::UShr),
        "==" if prim => Builtin::CmpOp(CmpOp::Eq),
        "!=" if prim => Builtin::CmpOp(CmpOp::Ne),
        "==" => Builtin::Equal,
        "!=" => Builtin::NotEqual,
        "<" => Builtin::CmpOp(CmpOp::Lt),
        "<=" => Builtin::CmpOp(CmpOp::Le),
        ">" => Builtin::CmpOp(CmpOp::Gt),
        ">=" => Builtin::CmpOp(CmpOp::Ge),
        "&&" => Builtin::LogAnd,
        "||" => Builtin::LogOr,
        "neg" => Builtin::Neg,
        _ => Builtin::Not,
    }
}

/// Futhark's opening for a loop body whose result does not fit the loop parameter.
const LOOP_BODY_MISMATCH: &str = "Loop body does not have expected type.";

/// The operand constraint and whether the result is `bool`, for a built-in operator.
pub(crate) fn op_shape(op: &str) -> Option<(Constraint, bool)> {
    Some(match op {
        "+" | "-" | "*" | "/" | "%" | "//" | "%%" | "**" => (Constraint::Num, false),
        "&" | "|" | "^" => (Constraint::IntOrBool, false),
        "<<" | ">>" | ">>>" => (Constraint::Int, false),
        "==" | "!=" => (Constraint::Eq, true),
        "<" | "<=" | ">" | ">=" => (Constraint::Prim, true),
        "&&" | "||" => (Constraint::None, true),
        _ => return None,
    })
}

/// The polynomial an expression denotes as a size, if it is one (constants,
/// `i64` variables in scope, `+ - *` of those).
impl Checker {
    pub fn size_poly_of(&self, e: &Expr) -> Option<Poly> {
        self.size_poly_arith(e).or_else(|| {
            // A non-polynomial part registered by `register_opaque_sizes`.
            let (key, _) = self.size_term(e)?;
            self.size_terms.get(&key).map(|id| Poly::var(*id))
        })
    }

    fn size_poly_arith(&self, e: &Expr) -> Option<Poly> {
        match &e.kind {
            ExprKind::Literal(Literal::Int { value, .. }) => i64::try_from(*value).ok().map(Poly::constant),
            ExprKind::Parens(inner) => self.size_poly_of(inner),
            ExprKind::Var(q) if q.quals.is_empty() => {
                if let Some(l) = self.lookup_local(&q.name) {
                    return (self.store.resolve(&l.ty) == Ty::i64()).then(|| Poly::var(l.id));
                }
                let def = self.global_names.get(&q.name)?;
                let g = &self.globals[def.0 as usize];
                (g.scheme.ty == Ty::i64()).then(|| Poly::var(g.binder))
            }
            ExprKind::Var(q) => self.module_value_size(q).map(Poly::var),
            ExprKind::BinOp { op, backquoted: false, lhs, rhs } if op.quals.is_empty() && !self.user_op(&op.name) => {
                let a = self.size_poly_of(lhs)?;
                let b = self.size_poly_of(rhs)?;
                match op.name.as_str() {
                    "+" => Some(a.add(&b)),
                    "-" => Some(a.sub(&b)),
                    "*" => a.checked_mul(&b),
                    _ => None,
                }
            }
            ExprKind::Negate(inner) => self.size_poly_of(inner).map(|p| p.neg()),
            // `assert c n` and `#[unsafe] n` are the size `n` (Futhark's rule).
            ExprKind::Attr(_, inner) | ExprKind::Assert { body: inner, .. } => self.size_poly_of(inner),
            _ => None,
        }
    }

    fn user_op(&self, name: &str) -> bool {
        self.lookup_local(name).is_some() || self.global_names.contains_key(name)
    }

    fn record(&mut self, e: &Expr, ty: &Ty) {
        self.pending.expr_types.insert(e.id, ty.clone());
        self.pending.expr_spans.insert(e.id, e.span);
    }

    // ---------------------------------------------------------------- types

    pub fn type_exp(&mut self, te: &TypeExp, mode: AnonMode) -> Ty {
        let t = self.type_exp_inner(te, mode);
        self.limit_type_size(t, &HashMap::default(), te.span())
    }

    /// `t`, or `Ty::Error` after a `type-too-large` error at `span` if `t`
    /// (with the type parameters replaced by types of the sizes in
    /// `params`) has more than [`ty::MAX_TYPE_SIZE`] nodes.
    fn limit_type_size(&mut self, t: Ty, params: &HashMap<NodeId, usize>, span: Span) -> Ty {
        if ty::size_capped(&t, params, ty::MAX_TYPE_SIZE) > ty::MAX_TYPE_SIZE {
            self.too_large_error(span);
            return Ty::Error;
        }
        t
    }

    /// The components of a tuple, record or sum type, stopping at the
    /// first that makes the whole too large.
    fn component_types<'t>(&mut self, items: impl Iterator<Item = &'t TypeExp>, mode: AnonMode) -> Option<Vec<Ty>> {
        let mut total = 0;
        let mut out = Vec::new();
        for te in items {
            let t = self.type_exp(te, mode);
            total += ty::size_capped(&t, &HashMap::default(), ty::MAX_TYPE_SIZE);
            if total > ty::MAX_TYPE_SIZE {
                self.too_large_error(te.span());
                return None;
            }
            out.push(t);
        }
        Some(out)
    }

    fn type_exp_inner(&mut self, te: &TypeExp, mode: AnonMode) -> Ty {
        match te {
            TypeExp::Var(q) => self.type_name(q, &[], te.span(), mode),
            TypeExp::Tuple(items, _) => match self.component_types(items.iter(), mode) {
                Some(tys) => Ty::tuple(tys),
                None => Ty::Error,
            },
            TypeExp::Record(fields, _) => {
                let Some(tys) = self.component_types(fields.iter().map(|(_, t)| t), mode) else { return Ty::Error };
                let mut out = BTreeMap::new();
                for ((name, _), ty) in fields.iter().zip(tys) {
                    if out.insert(name.text.clone(), ty).is_some() {
                        self.error(
                            "duplicate-field",
                            name.span,
                            format!("Duplicate field \"{}\" in record type.", name.text),
                        );
                    }
                }
                Ty::Record(out)
            }
            TypeExp::Array(size, elem, span) => {
                let dim = self.size_exp(size, mode);
                let elem_ty = self.type_exp(elem, mode);
                let mut head: &TypeExp = elem;
                while let TypeExp::Apply(f, _, _) = head {
                    head = f;
                }
                if let TypeExp::Var(q) = head {
                    let shadowed = self.local_types.iter().any(|(n, _)| *n == q.name);
                    if q.quals.is_empty() && !shadowed && self.lifted_abbrevs.contains(&q.name) {
                        self.error(
                            "array-of-functions",
                            *span,
                            format!(
                                "Cannot create array with elements of lifted type \"{}\" (might contain function): a type declared `type^` or `type~` cannot be an array element.",
                                q.name
                            ),
                        );
                        return Ty::Error;
                    }
                }
                if let Some(msg) = self.abstract_elem_error(&elem_ty) {
                    self.error("array-of-functions", *span, msg);
                    return Ty::Error;
                }
                if contains_arrow(&self.store.resolve(&elem_ty)) || self.is_lifted_param(&elem_ty) {
                    let shown = self.show(&elem_ty);
                    self.error("array-of-functions", *span, crate::checker::array_of_functions_message(&shown));
                    return Ty::Error;
                }
                Ty::array_of(elem_ty, dim)
            }
            TypeExp::Unique(t, _) => self.type_exp(t, mode),
            TypeExp::Arrow { param, from, to, .. } => {
                let from_ty = self.type_exp(from, mode);
                let consumes = is_unique_type_exp(from);
                let saved = self.locals.len();
                let param_id = param.as_ref().map(|n| {
                    let id = self.store.fresh_synthetic();
                    self.push_size_binder(&Binder { name: n.clone(), id });
                    id
                });
                // Every parameter of a curried signature (`t -> t -> t`)
                // gets implicit sizes; the final result existential ones.
                let to_mode = match mode {
                    AnonMode::Implicit if matches!(**to, TypeExp::Arrow { .. }) => AnonMode::Implicit,
                    AnonMode::Implicit | AnonMode::Inferred => AnonMode::Unknown,
                    other => other,
                };
                let to_ty = self.type_exp(to, to_mode);
                self.locals.truncate(saved);
                let ret_unique = is_unique_type_exp(to);
                Ty::Arrow(Box::new(ArrowTy { param: param_id, from: from_ty, to: to_ty, consumes, ret_unique }))
            }
            TypeExp::Sum(cons, span) => {
                if cons.len() >= 256 {
                    self.error(
                        "too-many-constructors",
                        *span,
                        format!("Sum types must have less than 256 constructors (this one has {}).", cons.len()),
                    );
                }
                let Some(mut all) = self.component_types(cons.iter().flat_map(|(_, ts)| ts.iter()), mode) else {
                    return Ty::Error;
                };
                let mut out = BTreeMap::new();
                for (name, ts) in cons {
                    let tys: Vec<Ty> = all.drain(..ts.len()).collect();
                    if out.insert(name.text.clone(), tys).is_some() {
                        self.error(
                            "duplicate-field",
                            name.span,
                            format!("Duplicate constructor \"#{}\" in sum type.", name.text),
                        );
                    }
                }
                Ty::Sum(out)
            }
            TypeExp::Apply(..) => {
                let mut args = Vec::new();
                let mut head = te;
                while let TypeExp::Apply(f, arg, _) = head {
                    args.push(arg.as_ref());
                    head = f;
                }
                args.reverse();
                match head {
                    TypeExp::Var(q) => self.type_name(q, &args, te.span(), mode),
                    _ => {
                        self.error("unknown-type", te.span(), "Only named types can be applied to arguments.");
                        Ty::Error
                    }
                }
            }
            TypeExp::Existential(binders, t, _) => {
                let saved = self.locals.len();
                let mut sizes = HashMap::default();
                for b in binders {
                    self.push_size_binder(b);
                    // At the top of a parameter's type (`(xs: ?[n].[n]t)`)
                    // the size is whatever the argument's is, like `[]`
                    // but not rigid.
                    let d = match mode {
                        AnonMode::Fresh => self.store.fresh_svar(),
                        AnonMode::Inferred => self.anon_size(mode),
                        _ => self.store.fresh_unknown(),
                    };
                    sizes.insert(b.id, d);
                }
                let inner = self.type_exp(t, mode);
                self.locals.truncate(saved);
                // A size mentioning an existential is a polynomial of
                // existential sizes (`?[n][m].[n+m]t`).
                ty::subst_sizes(&inner, &sizes)
            }
        }
    }

    fn type_name(&mut self, q: &QualName, args: &[&TypeArg], span: Span, mode: AnonMode) -> Ty {
        if q.quals.is_empty() {
            if let Some((_, t)) = self.local_types.iter().rev().find(|(n, _)| *n == q.name) {
                let t = t.clone();
                if !args.is_empty() {
                    self.error(
                        "unknown-type",
                        span,
                        format!("Type parameter `{}` cannot be applied to arguments.", q.name),
                    );
                }
                return t;
            }
            if let Some(abbrev) = self.types.get(&q.name).cloned() {
                return self.apply_abbrev(q, abbrev, args, span, mode);
            }
            if let Some(p) = PrimType::from_name(&q.name) {
                if args.is_empty() {
                    return Ty::Prim(p);
                }
            }
        } else if q.quals.len() == 1 && q.quals[0] == "intrinsics" && q.name == "acc" {
            // `intrinsics.acc t`, the accumulator of the `scatter_stream`
            // and `hist_stream` intrinsics: a record of one field no
            // program can name, so that it is a type of its own (an
            // accumulator cannot be indexed), whose values are `t`'s.
            if let [TypeArg::Type(t)] = args {
                let t = self.type_exp(t, mode);
                return ty::acc_of(t);
            }
            self.error("arity-mismatch", span, "Type `intrinsics.acc` expects 1 argument.");
            return Ty::Error;
        } else {
            match self.lookup_module_path(&q.quals) {
                Some(crate::modules::Module::Prim(p)) => {
                    if let Some(t) = crate::modules::prim_type_member(p, &q.name) {
                        return t;
                    }
                }
                Some(crate::modules::Module::Struct(env)) => {
                    if let Some(abbrev) = env.types.get(&q.name).cloned() {
                        return self.apply_abbrev(q, abbrev, args, span, mode);
                    }
                }
                _ => {}
            }
        }
        self.error("unknown-type", q.span, format!("Unknown type \"{q}\"."));
        Ty::Error
    }

    /// A use of a type abbreviation with its arguments.
    fn apply_abbrev(
        &mut self,
        q: &QualName,
        abbrev: crate::checker::TypeAbbrev,
        args: &[&TypeArg],
        span: Span,
        mode: AnonMode,
    ) -> Ty {
        {
            {
                if abbrev.params.len() != args.len() {
                    self.error(
                        "arity-mismatch",
                        span,
                        format!(
                            "Type `{}` expects {} arguments but was given {}.",
                            q.name,
                            abbrev.params.len(),
                            args.len()
                        ),
                    );
                    return Ty::Error;
                }
                let mut types = HashMap::default();
                let mut sizes = HashMap::default();
                for ((pid, is_size), arg) in abbrev.params.iter().zip(args) {
                    match (is_size, arg) {
                        (true, TypeArg::Size(s)) => {
                            sizes.insert(*pid, self.size_exp(s, mode));
                        }
                        (false, TypeArg::Type(t)) => {
                            types.insert(*pid, self.type_exp(t, mode));
                        }
                        // `t n` where `n` was parsed as a type name but a size is expected.
                        (true, TypeArg::Type(TypeExp::Var(name))) => {
                            let e = Expr { id: NodeId(0), kind: ExprKind::Var(name.clone()), span: name.span };
                            let d = match self.size_poly_of(&e) {
                                Some(p) => Dim::Poly(p),
                                None => {
                                    self.error("unknown-name", name.span, format!("Unknown size \"{name}\"."));
                                    self.store.fresh_unknown()
                                }
                            };
                            sizes.insert(*pid, d);
                        }
                        _ => {
                            self.error("type-mismatch", span, format!("Wrong kind of argument to type `{}`.", q.name));
                            return Ty::Error;
                        }
                    }
                }
                // A parametric abbreviation can double its argument (`type
                // pair 'a = (a, a)`): the size is checked before the copy.
                let param_sizes: HashMap<NodeId, usize> = types
                    .iter()
                    .map(|(p, t)| (*p, ty::size_capped(t, &HashMap::default(), ty::MAX_TYPE_SIZE)))
                    .collect();
                if ty::size_capped(&abbrev.ty, &param_sizes, ty::MAX_TYPE_SIZE) > ty::MAX_TYPE_SIZE {
                    self.too_large_error(span);
                    return Ty::Error;
                }
                // Copied only where something changes: abbreviations can be large.
                let mut t = abbrev.ty;
                if !types.is_empty() {
                    t = ty::subst_params(&t, &types);
                }
                if !sizes.is_empty() {
                    t = self.subst_sizes_in_terms(&t, &sizes);
                }
                if !ty::has_unknown_dims(&t) {
                    return t;
                }
                // Existential sizes inside an abbreviation are fresh at each use.
                let mut fresh: HashMap<u32, Dim> = HashMap::default();
                // In a top-level parameter (`type~ t = #v []i32`, `def f (x: t)`)
                // such a size means what `[]` written there means: a size
                // parameter of the function, not an existential.
                ty::map_unknowns(&t, &mut |u| Some(fresh.entry(u).or_insert_with(|| self.anon_size(mode)).clone()))
            }
        }
    }

    /// The size that an anonymous `[]` stands for where `mode` applies.
    fn anon_size(&mut self, mode: AnonMode) -> Dim {
        match mode {
            AnonMode::Fresh => self.store.fresh_svar(),
            AnonMode::Unknown => self.store.fresh_unknown(),
            AnonMode::Implicit => {
                let id = self.store.fresh_synthetic();
                self.names.insert(id, format!("d{}", self.implicit_sizes.as_ref().map_or(0, |v| v.len())));
                match &mut self.implicit_sizes {
                    Some(v) => {
                        v.push(id);
                        Dim::var(id)
                    }
                    None => self.store.fresh_svar(),
                }
            }
            AnonMode::Inferred => {
                let d = self.store.fresh_svar();
                if let Some(v) = d.as_var() {
                    self.names.insert(v, format!("d{}", self.inferred_sizes.len()));
                    self.inferred_sizes.push(v);
                }
                d
            }
        }
    }

    pub fn size_exp(&mut self, s: &SizeExp, mode: AnonMode) -> Dim {
        match s {
            SizeExp::Anonymous(_) => self.anon_size(mode),
            SizeExp::Expr(e) => {
                let t = self.expr(e);
                if !self.unify_at(&Ty::i64(), &t, e.span) {
                    return self.store.fresh_unknown();
                }
                self.size_of_expr(e)
            }
        }
    }

    /// The size an (already checked) `i64` expression denotes: a polynomial
    /// if it is one; otherwise a size that equals only the same expression
    /// over the same variables (`[n/2]` and `[n/2]` are one size, as in
    /// Futhark); otherwise a fresh unknown size.
    pub fn size_of_expr(&mut self, e: &Expr) -> Dim {
        self.register_opaque_sizes(e);
        match self.size_poly_of(e) {
            Some(p) => {
                self.remember_size_spelling(e);
                Dim::Poly(p)
            }
            None => self.store.fresh_unknown(),
        }
    }

    /// Remembers how sums and products in a size were written (`[k + (n -
    /// k)]`, `[2 * m]`, `take (8*6)`, `k * n * m`), so that `[n+m]` (`split`)
    /// and `[n*m]`, `[n*m*l]` (`unflatten`) can be solved the way the program
    /// spelled them.
    fn remember_size_spelling(&mut self, e: &Expr) {
        if let ExprKind::BinOp { op, lhs, rhs, backquoted: false } = &strip_parens(e).kind {
            if (op.name == "+" || op.name == "*") && op.quals.is_empty() {
                if let (Some(whole), Some(a), Some(b)) =
                    (self.size_poly_of(e), self.size_poly_of(lhs), self.size_poly_of(rhs))
                {
                    self.spellings.entry(whole.clone()).or_insert_with(|| (op.name == "*", a.clone(), b.clone()));
                    self.sum_hints.push((whole, op.name == "*", a, b));
                    self.remember_size_spelling(lhs);
                    self.remember_size_spelling(rhs);
                }
            }
        }
    }

    /// Gives every maximal non-polynomial part of a size expression (`n/8`
    /// in `n/8*8`, `i64.i32 n`) an opaque size variable, the same for the
    /// same expression over the same variables, so that it takes part in
    /// size arithmetic like a name (see `ty::is_opaque`).
    fn register_opaque_sizes(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Parens(inner) | ExprKind::Negate(inner) => self.register_opaque_sizes(inner),
            ExprKind::BinOp { op, lhs, rhs, backquoted: false }
                if op.quals.is_empty() && !self.user_op(&op.name) && matches!(op.name.as_str(), "+" | "-" | "*") =>
            {
                self.register_opaque_sizes(lhs);
                self.register_opaque_sizes(rhs);
            }
            ExprKind::Literal(_) | ExprKind::Var(_) if self.size_poly_of(e).is_some() => {}
            _ => {
                if self.size_poly_of(e).is_some() {
                    return;
                }
                if let Some((key, shown)) = self.size_term(e) {
                    if !self.size_terms.contains_key(&key) {
                        let id = NodeId(ty::OPAQUE_BASE + self.size_terms.len() as u32);
                        self.names.insert(id, shown);
                        self.size_term_keys.insert(id, key.clone());
                        self.size_terms.insert(key, id);
                        self.info.opaque_sizes.insert(id, e.clone());
                    }
                }
            }
        }
    }

    /// A canonical text for a size expression built from literals, names
    /// (by the binding they refer to), applications and operators, and how
    /// to show it; `None` for anything else (which may have effects or
    /// differ between uses).
    fn size_term(&self, e: &Expr) -> Option<(String, String)> {
        Some(match &e.kind {
            ExprKind::Literal(Literal::Int { value, .. }) => (value.to_string(), value.to_string()),
            ExprKind::Parens(inner) => return self.size_term(inner),
            ExprKind::Var(q) if q.quals.is_empty() => match self.lookup_local(&q.name) {
                Some(l) => (format!("l{}", l.id.0), q.name.clone()),
                None => (format!("g{}", self.global_names.get(&q.name)?.0), q.name.clone()),
            },
            // `s.0` where `s` is a local: a field of that binding. A module's
            // value (`G.n`): the same term as its definition's name.
            ExprKind::Var(q) => match self.lookup_local(&q.quals[0]) {
                Some(l) => (
                    format!("(. l{} {})", l.id.0, [&q.quals[1..], std::slice::from_ref(&q.name)].concat().join(".")),
                    q.to_string(),
                ),
                None => match self.module_value_def(q) {
                    Some(def) => (format!("g{}", def.0), q.to_string()),
                    None => (format!("q{q}"), q.to_string()),
                },
            },
            ExprKind::Apply(f, args) => {
                let (mut k, mut s) = self.size_term(f)?;
                k = format!("({k}");
                for a in args {
                    let (ak, as_) = self.size_term(a)?;
                    k.push(' ');
                    k.push_str(&ak);
                    s.push(' ');
                    s.push_str(&as_);
                }
                k.push(')');
                (k, format!("({s})"))
            }
            ExprKind::BinOp { op, lhs, rhs, .. } => {
                let (lk, ls) = self.size_term(lhs)?;
                let (rk, rs) = self.size_term(rhs)?;
                (format!("({lk} {op} {rk})"), format!("{ls}{op}{rs}"))
            }
            ExprKind::Negate(inner) => {
                let (k, s) = self.size_term(inner)?;
                (format!("(- {k})"), format!("-{s}"))
            }
            // `reduce (+) 0 xs`, `map (* 2) xs`: an operator is the same
            // function wherever it is written with the same name.
            ExprKind::OpSection(op, _) if !self.user_op(&op.name) => (format!("(op {op})"), format!("({op})")),
            ExprKind::LeftSection { op, lhs, .. } if !self.user_op(&op.name) => {
                let (k, s) = self.size_term(lhs)?;
                (format!("(lsec {op} {k})"), format!("({s} {op})"))
            }
            ExprKind::RightSection { op, rhs, .. } if !self.user_op(&op.name) => {
                let (k, s) = self.size_term(rhs)?;
                (format!("(rsec {op} {k})"), format!("({op} {s})"))
            }
            _ => return None,
        })
    }

    // ------------------------------------------------------------ functions

    /// Checks a function's parameters, return type and body in a new scope.
    /// Returns its type and its explicit type and size parameter ids.
    pub fn check_function(
        &mut self,
        type_params: &[TypeParam],
        params: &[Pat],
        ret: Option<&ogham_syntax::ast::TypeExp>,
        body: &Expr,
        name_span: Span,
    ) -> (Ty, Vec<NodeId>, Vec<NodeId>) {
        let saved_locals = self.locals.len();
        let saved_types = self.local_types.len();
        let mut explicit_types = Vec::new();
        let mut explicit_sizes = Vec::new();
        self.check_duplicate_type_params(type_params);
        for tp in type_params {
            match tp {
                TypeParam::Size(b) => {
                    self.push_size_binder(b);
                    explicit_sizes.push(b.id);
                }
                TypeParam::Type(b, l) => {
                    self.note_name(b);
                    self.local_types.push((b.name.text.clone(), Ty::Param(b.id)));
                    explicit_types.push(b.id);
                    if *l != ogham_syntax::ast::Liftedness::Lifted {
                        self.no_function_params.insert(b.id);
                    }
                    if *l != ogham_syntax::ast::Liftedness::Unlifted {
                        self.lifted_params.insert(b.id);
                    }
                }
            }
        }
        let top_level_header = std::mem::take(&mut self.top_level_header);
        let mode = if top_level_header { AnonMode::Inferred } else { AnonMode::Fresh };
        let mut param_tys = Vec::new();
        // A value parameter may not reuse a size parameter's name either.
        let mut seen: Vec<Name> = type_params
            .iter()
            .filter_map(|tp| match tp {
                TypeParam::Size(b) => Some(b.name.clone()),
                TypeParam::Type(..) => None,
            })
            .collect();
        let mut self_params = Vec::new();
        // Names bound inside a parameter's pattern (`(n, x)`), which the
        // function's type cannot refer to.
        let mut hidden: Vec<(Name, NodeId)> = Vec::new();
        for p in params {
            let t = self.fresh_var(p.span);
            let mut bound = Vec::new();
            self.pat(p, &t, mode, &mut bound);
            self.require_irrefutable(p);
            if pat_var(p).is_none() {
                hidden.extend(bound.iter().cloned());
            }
            let unique = pat_is_unique(p);
            let plain = pat_var(p).and_then(|_| (bound.len() == 1).then(|| bound[0].1));
            self_params.push((plain, t.clone()));
            for (name, id) in bound {
                if let Some(prev) = seen.iter().find(|n| n.text == name.text) {
                    self.diags.push(
                        ogham_syntax::Diagnostic::error(
                            "duplicate-binding",
                            name.span,
                            format!("Name \"{}\" also bound in an earlier parameter.", name.text),
                        )
                        .with_label(prev.span, "also bound here"),
                    );
                }
                seen.push(name.clone());
                self.bind_local(&name, id);
            }
            param_tys.push((t, unique, pat_var(p)));
        }
        if top_level_header {
            // Inferred sizes may only be equated with names visible here.
            self.header_scope = self.locals.iter().map(|l| l.id).collect();
        }
        let (ret_ty, ret_unique) = match ret {
            Some(r) => {
                if let TypeExp::Existential(..) = r {
                } else if contains_existential(r) {
                    let names: Vec<String> =
                        existential_names(r).iter().map(|n| format!("Existential size \"{n}\"")).collect();
                    self.error(
                        "existential-param-ret",
                        r.span(),
                        format!("{}: existential sizes may only appear at the top of a return type.", names.join(", ")),
                    );
                }
                // A definition without parameters whose type is a function
                // type (`def main : []f32 -> []f32 = f`): its type is read as
                // a value specification's, where anonymous sizes in the
                // parameters are implicit size parameters.
                let as_spec = params.is_empty() && top_level_header && matches!(r, TypeExp::Arrow { .. });
                if let Some(span) = anon_in_returned_param(r).filter(|_| !as_spec) {
                    self.error(
                        "existential-param-ret",
                        span,
                        "An anonymous size in a parameter of a returned function would be existential; name the size with a size parameter.",
                    );
                }
                let unknowns_before = self.store.next_unknown;
                let t = self.type_exp(r, if as_spec { AnonMode::Implicit } else { AnonMode::Fresh });
                // Read as a specification, the result's anonymous sizes are
                // existential: the body may give any size there.
                let t = if as_spec {
                    let mut fresh: HashMap<u32, Dim> = HashMap::default();
                    ty::map_unknowns(&t, &mut |u| {
                        (u > unknowns_before).then(|| fresh.entry(u).or_insert_with(|| self.store.fresh_svar()).clone())
                    })
                } else {
                    t
                };
                let mut used = Vec::new();
                ty::dim_vars(&self.store.resolve(&t), &mut used);
                if let Some((name, _)) = hidden.iter().find(|(_, id)| used.contains(id)) {
                    self.error(
                        "return-refers-to-inner-name",
                        r.span(),
                        format!(
                            "The return type annotation refers to the name \"{}\" which is bound to an inner component of a function parameter.",
                            name.text
                        ),
                    );
                }
                (Some(t), is_unique_type_exp(r))
            }
            None => (None, false),
        };
        // A top-level function is in scope of its own body (recursion).
        let self_ret = if top_level_header && !params.is_empty() {
            self.current_def.clone().map(|name| {
                let ret_for_self = match ret {
                    Some(te) => self.type_exp_quiet(te),
                    None => self.fresh_var(body.span),
                };
                let ps = param_tys.iter().map(|(t, u, n)| (self.store.resolve(t), *u, *n)).collect();
                let ty = self.curry(ps, ret_for_self.clone(), ret_unique);
                let outer = (self.global_names.get(&name).copied(), self.modules.opened_prims.len());
                self.current_self = Some(crate::checker::SelfRef {
                    outer,
                    name,
                    def: crate::info::DefId(self.globals.len() as u32),
                    scheme: Scheme { type_params: Vec::new(), size_params: explicit_sizes.clone(), ty },
                    params: std::mem::take(&mut self_params),
                    used: false,
                });
                ret_for_self
            })
        } else {
            None
        };
        let body_ty = self.expr(body);
        for (sid, b) in explicit_sizes.iter().zip(type_params.iter().filter_map(|tp| match tp {
            TypeParam::Size(b) => Some(b),
            _ => None,
        })) {
            // A size used inside an opaque size (`[2 ** k]`) is used too.
            let mut used = Vec::new();
            for (t, _, _) in &param_tys {
                self.size_names_in(&self.store.resolve(t), &mut used);
            }
            // A size used only in the return type is determined by the context
            // of each use (`rep`); without a declared return type, the body's
            // type is the return type.
            match &ret_ty {
                Some(r) => self.size_names_in(&self.store.resolve(r), &mut used),
                None => self.size_names_in(&self.store.resolve(&body_ty), &mut used),
            }
            if !used.contains(sid) {
                let what = if params.is_empty() {
                    " (a size-polymorphic value binding must use its sizes in its type)"
                } else {
                    ""
                };
                self.error(
                    "unused-size",
                    b.name.span,
                    format!(
                        "Size parameter \"{}\" is not used in any parameter or return type, so it cannot be inferred{what}.",
                        b.name.text
                    ),
                );
            }
        }
        let result = match &ret_ty {
            Some(r) => {
                // An existential return's sizes are whatever the body produces.
                let existential = matches!(ret, Some(TypeExp::Existential(..)));
                let mode = if existential { SizeMode::Ignore } else { SizeMode::Exact };
                let before = self.diags.len();
                self.unify_mode_at(r, &body_ty, body.span, mode);
                // A function that consumes its argument is not one that
                // only observes it (`*[]f32 -> f32` for `[]f32 -> f32`).
                if self.diags.len() == before {
                    let (want, got) = (self.store.resolve(r), self.store.resolve(&body_ty));
                    if !crate::modules::uniqueness_fits(&want, &got) {
                        let (w, g) = (self.show(&want), self.show(&got));
                        self.error(
                            "type-mismatch",
                            body.span,
                            format!(
                                "Type mismatch: expected `{w}`, but got `{g}`: the uniqueness of the types differs."
                            ),
                        );
                    }
                }
                self.prefix_mismatches(before, "Function body does not have expected type.");
                // The declared type, with anonymous sizes existential.
                match ret {
                    Some(te) => {
                        let declared = self.type_exp_quiet(te);
                        // Only for top-level definitions: a local function's
                        // result could then alias what the declared `[]` hid.
                        let declared = if existential || !top_level_header {
                            declared
                        } else {
                            let mut in_params = Vec::new();
                            for (t, _, _) in &param_tys {
                                ty::dim_vars(&self.store.resolve(t), &mut in_params);
                            }
                            self.infer_anonymous_returns(&declared, r, &in_params)
                        };
                        let _ = self.unify(&declared, &body_ty, SizeMode::Ignore, body.span);
                        declared
                    }
                    None => body_ty.clone(),
                }
            }
            None => body_ty.clone(),
        };
        if let Some(self_ret) = self_ret {
            if ret.is_none() {
                let _ = self.unify(&self_ret, &result, SizeMode::Ignore, body.span);
            }
            let recursive = self.current_self.as_ref().is_some_and(|s| s.used);
            if recursive && contains_arrow(&self.store.resolve(&result)) {
                let name = self.current_def.clone().unwrap_or_default();
                let shown = self.show(&self.store.resolve(&result));
                self.error(
                    "recursive-higher-order-return",
                    name_span,
                    format!("Recursive function \"{name}\" has return type {shown}, which is not first-order: a recursive function may not return a function (add parameters instead)."),
                );
            }
        }
        // Without a declared return type, whether the result is unique is
        // inferred by the consumption check (`consume.rs`).
        // Resolved, so that a result size solved to a parameter (`\k -> iota k`)
        // makes the arrow dependent on it.
        // Resolved, so that `curry` sees a named parameter used in the size
        // of a later parameter (`(n: i64) (xs: [n]i32)`) and makes it dependent.
        let param_tys = param_tys.into_iter().map(|(t, u, n)| (self.store.resolve(&t), u, n)).collect();
        let fun_ty = self.curry(param_tys, self.store.resolve(&result), ret_unique);
        self.locals.truncate(saved_locals);
        self.local_types.truncate(saved_types);
        (fun_ty, explicit_types, explicit_sizes)
    }

    /// The anonymous sizes of a declared return type (unknown in
    /// `declared`), as the body determined them (in `inferred`, the same
    /// type checked with those sizes as variables): a size known from the
    /// parameters stays that size, and anonymous sizes the body made equal
    /// are one existential size, so `: ([]i64, []i64)` returning two arrays
    /// of one size lets callers `zip` them (Futhark 0.27's rule).
    /// An anonymous size that nothing determined (neither the body nor
    /// the parameters, `in_params`) is noted in `pending.undetermined_return`:
    /// Futhark makes it a size parameter used only by the result, which an
    /// entry point may not have.
    fn infer_anonymous_returns(&mut self, declared: &Ty, inferred: &Ty, in_params: &[NodeId]) -> Ty {
        let dims_of = |t: &Ty| {
            let mut out = Vec::new();
            ty::map_dims(t, &mut |d| {
                out.push(d.clone());
                d.clone()
            });
            out
        };
        let found = dims_of(&self.store.resolve(inferred));
        let declared_dims = dims_of(declared);
        if declared_dims.len() != found.len() {
            return declared.clone();
        }
        // A parameter's anonymous size (still a size variable here) becomes
        // a size parameter of the function, so a result of that size keeps it
        // (`(m: *[]bool) : *[]bool = scatter m …` returns `[d]bool` for `[d]`).
        let visible = |v: NodeId| {
            (ty::is_svar(v) && in_params.contains(&v))
                || (!ty::is_svar(v)
                    && !ty::is_opaque(v)
                    && (self.locals.contains_id(v) || self.global_binders.contains(&v)))
        };
        // Anonymous sizes the body made one size share one existential.
        let mut same: Vec<(Dim, Dim)> = Vec::new();
        let mut mapped = Vec::with_capacity(found.len());
        for (d, here) in declared_dims.into_iter().zip(found) {
            if matches!(d, Dim::Unknown(_)) && here.as_var().is_some_and(|v| ty::is_svar(v) && !in_params.contains(&v))
            {
                self.pending.undetermined_return = true;
            }
            let m = match (&d, &here) {
                (Dim::Unknown(_), Dim::Poly(p)) if p.vars().all(visible) => here,
                (Dim::Unknown(_), _) => match same.iter().find(|(k, _)| *k == here) {
                    Some((_, v)) => v.clone(),
                    None => {
                        same.push((here, d.clone()));
                        d
                    }
                },
                _ => d,
            };
            mapped.push(m);
        }
        let mut next = mapped.into_iter();
        ty::map_dims(declared, &mut |d| next.next().unwrap_or_else(|| d.clone()))
    }

    /// Converts a type expression a second time without reporting errors (they were reported the first time).
    fn type_exp_quiet(&mut self, te: &TypeExp) -> Ty {
        let n = self.diags.len();
        let saved = std::mem::take(&mut self.pending.expr_types);
        let t = self.type_exp(te, AnonMode::Unknown);
        let mut discarded = std::mem::replace(&mut self.pending.expr_types, saved);
        for (k, v) in discarded.drain() {
            self.pending.expr_types.entry(k).or_insert(v);
        }
        self.diags.truncate(n);
        t
    }

    /// Replaces sizes that mention locals bound after `mark` (going out of
    /// scope) by unknown sizes; parameters of the function itself are kept when `keep_params`.
    fn forget_local_sizes(&mut self, t: &Ty, mark: usize, keep_params: bool) -> Ty {
        let t = self.store.resolve(t);
        let out_of_scope: Vec<NodeId> = self.locals[mark.min(self.locals.len())..].iter().map(|l| l.id).collect();
        if out_of_scope.is_empty() {
            return t;
        }
        let _ = keep_params;
        let mut mapping: HashMap<Poly, Dim> = HashMap::default();
        let mut bound_params = Vec::new();
        if keep_params {
            let mut tt = &t;
            while let Ty::Arrow(a) = tt {
                bound_params.extend(a.param);
                tt = &a.to;
            }
        }
        let mut fresh = Vec::new();
        let result = ty::map_dims(&t, &mut |d| match d {
            Dim::Poly(p) if p.vars().any(|v| out_of_scope.contains(&v) && !bound_params.contains(&v)) => {
                let n = mapping.len();
                mapping
                    .entry(p.clone())
                    .or_insert_with(|| {
                        fresh.push(n);
                        Dim::Unknown(u32::MAX - n as u32)
                    })
                    .clone()
            }
            other => other.clone(),
        });
        // Allocate real unknown ids for the placeholders.
        let mut real: HashMap<u32, Dim> = HashMap::default();
        ty::map_dims(&result, &mut |d| match d {
            Dim::Unknown(u) if *u > u32::MAX - 1_000_000 => {
                real.entry(*u).or_insert_with(|| self.store.fresh_unknown()).clone()
            }
            other => other.clone(),
        })
    }

    pub fn bind_local(&mut self, name: &Name, id: NodeId) {
        self.names.insert(id, name.text.clone());
        let ty = self.pending.binding_types.get(&id).cloned().unwrap_or(Ty::Error);
        self.locals.push(Local { name: name.text.clone(), id, ty, scheme: None });
    }

    // ------------------------------------------------------------- patterns

    /// Checks a pattern against `expected`, recording binding types; the
    /// variables it binds are appended to `bound` (not yet in scope).
    /// The sizes that the type ascriptions of a `let` pattern leave open
    /// (`[]`, a size-lifted abbreviation's existentials) are the bound
    /// value's: one that nothing determines (the payload of a constructor
    /// the value does not use) is ambiguous, as in Futhark.
    fn ascription_sizes(&mut self, p: &Pat, first_svar: usize) {
        let mut ascribed = Vec::new();
        collect_ascriptions(p, &mut ascribed);
        for (id, span) in ascribed {
            let Some(t) = self.pending.binding_types.get(&id).cloned() else { continue };
            let mut vars = Vec::new();
            crate::checker::dims_outside_functions(&t, &mut vars);
            vars.sort();
            vars.dedup();
            for v in vars {
                if ty::is_svar(v) && (v.0 - ty::SVAR_BASE) as usize >= first_svar {
                    self.pending.context_sizes.push((
                        Dim::var(v),
                        span,
                        "Ambiguous size arising from explicit type ascription: the bound value's size".to_string(),
                    ));
                }
            }
        }
    }

    pub fn pat(&mut self, p: &Pat, expected: &Ty, mode: AnonMode, bound: &mut Vec<(Name, NodeId)>) {
        self.pending.binding_types.insert(p.id, expected.clone());
        match &p.kind {
            PatKind::Var(name) => {
                if bound.iter().any(|(n, _)| n.text == name.text) {
                    self.error(
                        "duplicate-binding",
                        name.span,
                        format!("Variable \"{}\" also bound earlier in this pattern.", name.text),
                    );
                }
                bound.push((name.clone(), p.id));
            }
            PatKind::Wildcard => {}
            PatKind::Tuple(items) => {
                let tys: Vec<Ty> = items.iter().map(|q| self.fresh_var(q.span)).collect();
                let tuple = Ty::tuple(tys.clone());
                self.unify_at(&tuple, expected, p.span);
                for (q, t) in items.iter().zip(&tys) {
                    self.pat(q, t, mode, bound);
                }
            }
            PatKind::Record(fields) => {
                let mut tys = BTreeMap::new();
                for (name, q) in fields {
                    if tys.insert(name.text.clone(), self.fresh_var(q.span)).is_some() {
                        self.error(
                            "duplicate-field",
                            name.span,
                            format!("Duplicate fields in record pattern: field \"{}\" appears twice.", name.text),
                        );
                    }
                }
                self.unify_at(&Ty::Record(tys.clone()), expected, p.span);
                for (name, q) in fields {
                    let t = tys.get(&name.text).cloned().unwrap_or(Ty::Error);
                    self.pat(q, &t, mode, bound);
                }
            }
            PatKind::Ascribe(inner, te) => {
                // `?[n].` at the top of a pattern's type is allowed, as in
                // Futhark: the size is then the value's.
                let below = match te {
                    TypeExp::Existential(_, t, _) => &**t,
                    other => other,
                };
                if existential_outside_results(below) {
                    self.error(
                        "existential-param-ret",
                        te.span(),
                        "Existential sizes are not allowed in parameter or pattern types.",
                    );
                }
                let t = self.type_exp(te, mode);
                self.unify_at(&t, expected, p.span);
                self.pending.binding_types.insert(p.id, t.clone());
                self.pat(inner, &t, mode, bound);
            }
            PatKind::Literal(lit) => {
                let t = self.literal_type(lit, false, p.span);
                self.unify_at(expected, &t, p.span);
            }
            PatKind::Constructor(name, args) => {
                if let Ty::Sum(cs) = self.store.shallow(expected) {
                    if let Some(payload) = cs.get(&name.text).filter(|ts| ts.len() != args.len()) {
                        self.error(
                            "arity-mismatch",
                            p.span,
                            format!(
                                "Constructor `#{}` has {} payload values, but the pattern gives {}: the constructors differ in arity.",
                                name.text,
                                payload.len(),
                                args.len()
                            ),
                        );
                        for q in args {
                            self.pat(q, &Ty::Error, mode, bound);
                        }
                        return;
                    }
                }
                let tys: Vec<Ty> = args.iter().map(|q| self.fresh_var(q.span)).collect();
                let sum =
                    self.store.fresh_var(Constraint::Sum(BTreeMap::from([(name.text.clone(), tys.clone())])), p.span);
                self.unify_at(expected, &sum, p.span);
                for (q, t) in args.iter().zip(&tys) {
                    self.pat(q, t, mode, bound);
                }
            }
            PatKind::Attr(_, inner) => self.pat(inner, expected, mode, bound),
        }
    }

    fn literal_type(&mut self, lit: &Literal, negated: bool, span: Span) -> Ty {
        match lit {
            Literal::Int { suffix: Some(p), .. } | Literal::Float { suffix: Some(p), .. } => {
                let t = Ty::Prim(*p);
                self.pending.literals.push((lit.clone(), negated, t.clone(), span));
                t
            }
            Literal::Int { .. } => {
                let t = self.store.fresh_var(Constraint::Num, span);
                self.pending.literals.push((lit.clone(), negated, t.clone(), span));
                t
            }
            Literal::Float { .. } => {
                let t = self.store.fresh_var(Constraint::Float, span);
                self.pending.literals.push((lit.clone(), negated, t.clone(), span));
                t
            }
            Literal::Bool(_) => Ty::bool(),
            Literal::String(bytes) => Ty::array_of(Ty::Prim(PrimType::U8), Dim::constant(bytes.len() as i64)),
        }
    }

    // ---------------------------------------------------------- expressions

    pub fn expr(&mut self, e: &Expr) -> Ty {
        let t = self.expr_inner(e);
        self.record(e, &t);
        // A type resolved while checking `e` was too large, or `e`'s is: it
        // does not flow further (unifying it would take as long as
        // expanding it).
        if self.store.take_too_large() || self.store.too_large(&t) {
            self.too_large_error(e.span);
            self.record(e, &Ty::Error);
            return Ty::Error;
        }
        t
    }

    fn expr_inner(&mut self, e: &Expr) -> Ty {
        match &e.kind {
            ExprKind::Literal(lit) => self.literal_type(lit, false, e.span),
            ExprKind::Var(q) => self.var(e.id, q),
            ExprKind::Parens(inner) => self.expr(inner),
            ExprKind::Attr(_, inner) => self.expr(inner),
            ExprKind::Tuple(items) => {
                let tys = items.iter().map(|i| self.expr(i)).collect();
                Ty::tuple(tys)
            }
            ExprKind::Record(fields) => {
                let mut out = BTreeMap::new();
                for f in fields {
                    let (name, t) = match f {
                        RecordField::Explicit(name, value) => (name, self.expr(value)),
                        RecordField::Pun(name, id) => {
                            let t = self.var(*id, &QualName::unqualified(name.text.clone(), name.span));
                            self.pending.expr_types.insert(*id, t.clone());
                            (name, t)
                        }
                    };
                    if out.insert(name.text.clone(), t).is_some() {
                        self.error(
                            "duplicate-field",
                            name.span,
                            format!("Field \"{}\" previously defined in this record: duplicate field.", name.text),
                        );
                    }
                }
                Ty::Record(out)
            }
            ExprKind::ArrayLit(items) => {
                let elem = self.fresh_var(e.span);
                for i in items {
                    let t = self.expr(i);
                    self.unify_at(&elem, &t, i.span);
                }
                if contains_arrow(&self.store.resolve(&elem)) || self.is_lifted_param(&elem) {
                    let shown = self.show(&elem);
                    self.error("array-of-functions", e.span, crate::checker::array_of_functions_message(&shown));
                }
                Ty::array_of(elem, Dim::constant(items.len() as i64))
            }
            ExprKind::Range { start, second, end, kind } => {
                let t = self.store.fresh_var(Constraint::Int, e.span);
                for part in std::iter::once(start).chain(second.iter()).chain(std::iter::once(end)) {
                    let pt = self.expr(part);
                    self.unify_at(&t, &pt, part.span);
                }
                // Futhark knows a range's length only without a second
                // element (`a..<b`, `a...b`) or with the default stride
                // written out from literal starts (`0..1..<n`, `1..2...n`);
                // a downward range (`a..>b`) and any other stride have an
                // unknown length.
                let literal = |x: &Expr| match &x.kind {
                    ExprKind::Literal(Literal::Int { value, .. }) => Some(*value),
                    _ => None,
                };
                let known = match (second, kind) {
                    (None, RangeEnd::UpToExclusive | RangeEnd::ToInclusive) => true,
                    (Some(s), RangeEnd::UpToExclusive) => literal(start) == Some(0) && literal(s) == Some(1),
                    (Some(s), RangeEnd::ToInclusive) => literal(start) == Some(1) && literal(s) == Some(2),
                    (_, RangeEnd::DownToExclusive) => false,
                };
                let sizes = match (self.size_poly_of(start), self.size_poly_of(end)) {
                    (Some(a), Some(b)) if known && self.store.resolve(&t) == Ty::i64() => Some((a, b)),
                    _ => None,
                };
                let unknowns_before = self.store.next_unknown;
                let dim = match sizes {
                    Some((a, b)) => Dim::Poly(match kind {
                        RangeEnd::ToInclusive => b.sub(&a).add(&Poly::constant(1)),
                        _ => b.sub(&a),
                    }),
                    None => {
                        let d = self.store.fresh_unknown();
                        if let Dim::Unknown(u) = d {
                            self.unknown_origins.insert(u, "unknown length of range");
                        }
                        d
                    }
                };
                self.produced_by(e.id, unknowns_before);
                Ty::array_of(t, dim)
            }
            ExprKind::Project(inner, field) => {
                let t = self.expr(inner);
                self.project(&t, &field.text, field.span)
            }
            ExprKind::Index(arr, idx) => {
                let t = self.expr(arr);
                self.index_type(&t, arr, idx, e.id, e.span)
            }
            ExprKind::Apply(f, args) => {
                self.recursive_call(f, args);
                let ft = self.expr(f);
                self.self_applied = false;
                let args: Vec<&Expr> = args.iter().collect();
                let before = self.diags.len();
                let pending_before = self.pending_sizes.len();
                let out = self.apply(ft, &args, e.id, f.span);
                self.name_application(before, Some(f), &args);
                self.name_deferred_application(pending_before, Some(f), &args);
                out
            }
            ExprKind::BinOp { op, backquoted, lhs, rhs } => {
                let ft = self.operator(e.id, op, *backquoted, e.span);
                self.pending.op_types.insert(e.id, ft.clone());
                // Borrowed, not cloned: cloning both operand trees at every operator made long chains quadratic.
                let args = [lhs.as_ref(), rhs.as_ref()];
                let before = self.diags.len();
                let t = self.apply(ft, &args, e.id, op.span);
                self.name_application(before, None, &args);
                if let Some(d) = self.diags.get_mut(before..).and_then(|ds| ds.first_mut()) {
                    if d.message.starts_with("Cannot apply function") {
                        d.message = d.message.replacen("function", &format!("\"{}\"", op.name), 1);
                    }
                }
                t
            }
            ExprKind::Negate(inner) => {
                if let ExprKind::Literal(lit @ Literal::Int { .. }) = &inner.kind {
                    let t = self.literal_type(lit, true, inner.span);
                    // Checked with its sign, so that `-128i8` is in bounds.
                    self.record(inner, &t);
                    self.record_resolution(e.id, Resolution::Builtin(Builtin::Neg));
                    return t;
                }
                let t = self.expr(inner);
                let c = self.store.fresh_var(Constraint::Num, e.span);
                self.unify_at(&c, &t, inner.span);
                self.record_resolution(e.id, Resolution::Builtin(Builtin::Neg));
                t
            }
            ExprKind::Not(inner) => {
                let t = self.expr(inner);
                let c = self.store.fresh_var(Constraint::IntOrBool, e.span);
                self.unify_at(&c, &t, inner.span);
                self.record_resolution(e.id, Resolution::Builtin(Builtin::Not));
                t
            }
            ExprKind::OpSection(op, backquoted) => self.operator(e.id, op, *backquoted, e.span),
            ExprKind::LeftSection { op, backquoted, lhs } => {
                let ft = self.operator(e.id, op, *backquoted, e.span);
                self.pending.op_types.insert(e.id, ft.clone());
                self.apply(ft, &[lhs.as_ref()], e.id, op.span)
            }
            ExprKind::RightSection { op, backquoted, rhs } => {
                let ft = self.operator(e.id, op, *backquoted, e.span);
                self.pending.op_types.insert(e.id, ft.clone());
                let a = self.fresh_var(e.span);
                let b = self.fresh_var(e.span);
                let c = self.fresh_var(e.span);
                self.unify_at(&Ty::arrow(a.clone(), Ty::arrow(b.clone(), c.clone())), &ft, op.span);
                let rt = self.expr(rhs);
                self.unify_at(&b, &rt, rhs.span);
                Ty::arrow(a, c)
            }
            ExprKind::ProjectSection(fields) => {
                let r = self.fresh_var(e.span);
                let mut t = r.clone();
                for f in fields {
                    t = self.project(&t, &f.text, f.span);
                }
                Ty::arrow(r, t)
            }
            ExprKind::IndexSection(idx) => {
                let a = self.fresh_var(e.span);
                let dummy = Expr { id: NodeId(0), kind: ExprKind::Hole, span: e.span };
                let t = self.index_type(&a, &dummy, idx, e.id, e.span);
                Ty::arrow(a, t)
            }
            ExprKind::If { cond, then_branch, else_branch } => {
                let ct = self.expr(cond);
                self.unify_at(&Ty::bool(), &ct, cond.span);
                let tt = self.expr(then_branch);
                let et = self.expr(else_branch);
                let unknowns_before = self.store.next_unknown;
                let t = self.join(&tt, &et, else_branch.span);
                self.produced_by(e.id, unknowns_before);
                self.pending.order_zero.push((t.clone(), e.span, crate::checker::OrderZero::If));
                t
            }
            ExprKind::Match { scrutinee, cases } => {
                let st = self.expr(scrutinee);
                let result = self.fresh_var(e.span);
                let mut first = true;
                let mut joined = result.clone();
                for case in cases {
                    let saved = self.locals.len();
                    let mut bound = Vec::new();
                    self.pat(&case.pat, &st, AnonMode::Fresh, &mut bound);
                    for (name, id) in bound {
                        self.bind_local(&name, id);
                    }
                    let bt = self.expr(&case.body);
                    let unknowns_before = self.store.next_unknown;
                    let bt = self.forget_local_sizes(&bt, saved, false);
                    self.locals.truncate(saved);
                    joined = if first { bt } else { self.join(&joined, &bt, case.body.span) };
                    self.produced_by(e.id, unknowns_before);
                    first = false;
                }
                self.unify_at(&result, &joined, e.span);
                self.pending.order_zero.push((result.clone(), e.span, crate::checker::OrderZero::Match));
                self.pending.matches.push((cases.iter().map(|c| c.pat.clone()).collect(), st, e.span));
                result
            }
            ExprKind::Let { sizes, pat, value, body } => self.let_expr(e.id, sizes, pat, value, body),
            ExprKind::LetFun { name, type_params, params, ret, value, body } => {
                self.note_name(name);
                self.defining_locals.push(name.name.text.clone());
                let svars_before = self.store.svar_count();
                let (ft, explicit_types, mut explicit_sizes) =
                    self.check_function(type_params, params, ret.as_ref(), value, name.name.span);
                self.defining_locals.pop();
                crate::causality::check_escape(self, type_params, params);
                let implicit = self.generalise_local_sizes(&ft, svars_before);
                if !implicit.is_empty() {
                    explicit_sizes.extend(implicit.iter().copied());
                    self.pending.local_implicit_sizes.push((name.id, implicit));
                }
                self.pending.binding_types.insert(name.id, ft.clone());
                let scheme = (!explicit_types.is_empty() || !explicit_sizes.is_empty()).then(|| Scheme {
                    type_params: explicit_types,
                    size_params: explicit_sizes,
                    // Resolved, so that instantiation sees the type parameters
                    // behind the parameters' unification variables.
                    ty: self.store.resolve(&ft),
                });
                let saved = self.locals.len();
                self.locals.push(Local { name: name.name.text.clone(), id: name.id, ty: ft, scheme });
                let bt = self.expr(body);
                if !self.pending.used_locals.contains(&name.id) {
                    self.pending.unused_local_functions.push(value.span);
                }
                let unknowns_before = self.store.next_unknown;
                let bt = self.forget_local_sizes(&bt, saved, false);
                self.produced_by(e.id, unknowns_before);
                self.locals.truncate(saved);
                bt
            }
            ExprKind::Update { array, index, value } => {
                let at = self.expr(array);
                let slice = self.index_type(&at, array, index, e.id, e.span);
                let vt = self.expr(value);
                // A slice's size is often known only at run time (`[i:j]`,
                // `[::2]`); lowering checks that the value's shape fits.
                self.unify_mode_at(&slice, &vt, value.span, SizeMode::Ignore);
                at
            }
            ExprKind::RecordUpdate { record, fields, value } => {
                let rt = self.expr(record);
                let mut t = rt.clone();
                for f in fields {
                    t = self.project(&t, &f.text, f.span);
                }
                let vt = self.expr(value);
                let before = self.diags.len();
                // The new value may have other sizes (Futhark's record5).
                self.unify_mode_at(&t, &vt, value.span, SizeMode::Ignore);
                let path: Vec<&str> = fields.iter().map(|f| f.text.as_str()).collect();
                self.prefix_mismatches(before, &format!("Cannot update record field \"{}\".", path.join(".")));
                if self.diags.len() > before {
                    return rt;
                }
                let (rt, vt) = (self.store.resolve(&rt), self.store.resolve(&vt));
                replace_field(&rt, &path, &vt).unwrap_or(rt)
            }
            ExprKind::Lambda { params, ret, body } => {
                let (t, _, _) = self.check_function(&[], params, ret.as_ref(), body, e.span);
                crate::causality::check_param_scope(self, params, &t);
                t
            }
            ExprKind::Loop { pat, init, form, body } => self.loop_expr(e, pat, init.as_deref(), form, body),
            ExprKind::Ascribe(inner, te) => {
                let t = self.expr(inner);
                let want = self.type_exp(te, AnonMode::Fresh);
                let before = self.diags.len();
                self.unify_at(&want, &t, inner.span);
                self.prefix_mismatches(before, "Expression does not have expected type.");
                want
            }
            ExprKind::Coerce(inner, te) => {
                let t = self.expr(inner);
                let want = self.type_exp(te, AnonMode::Unknown);
                // The expression keeps its own sizes, which the coercion
                // does not determine: each size of the target stands for a
                // fresh size of the expression, ambiguous if nothing else
                // (its own type, usually) determines it.
                let mut fresh = Vec::new();
                let own = crate::ty::map_dims(&want, &mut |d| {
                    let s = self.store.fresh_svar();
                    if matches!(d, Dim::Poly(_)) {
                        fresh.push(s.clone());
                    }
                    s
                });
                if self.unify_mode_at(&own, &t, inner.span, SizeMode::Exact) {
                    for d in fresh {
                        self.pending.context_sizes.push((
                            d,
                            e.span,
                            "Ambiguous size \"coerce\" arising from a size coercion: the underlying expression's size"
                                .to_string(),
                        ));
                    }
                }
                want
            }
            ExprKind::Assert { cond, body } => {
                let ct = self.expr(cond);
                self.unify_at(&Ty::bool(), &ct, cond.span);
                self.expr(body)
            }
            ExprKind::Constructor(name, args) => {
                let tys = args.iter().map(|a| self.expr(a)).collect();
                self.store.fresh_var(Constraint::Sum(BTreeMap::from([(name.text.clone(), tys)])), e.span)
            }
            ExprKind::Hole => self.fresh_var(e.span),
            ExprKind::OpenIn(q, inner) => self.open_in(q, inner),
        }
    }

    /// Joins the types of two branches: sizes that differ become unknown.
    fn join(&mut self, a: &Ty, b: &Ty, span: Span) -> Ty {
        if !self.unify_mode_at(a, b, span, SizeMode::Ignore) {
            return Ty::Error;
        }
        let ra = self.store.resolve(a);
        let rb = self.store.resolve(b);
        self.join_dims(&ra, &rb, &mut Vec::new())
    }

    /// `seen` pairs the sizes that differ between the branches with the
    /// existential size of the result: the same pair is the same size
    /// (`if c then (xs3, ys3) else (xs2, ys2)` gives `([k]t, [k]t)`).
    fn join_dims(&mut self, a: &Ty, b: &Ty, seen: &mut Vec<(Dim, Dim, Dim)>) -> Ty {
        match (a, b) {
            (Ty::Array(ea, sa), Ty::Array(eb, sb)) if sa.len() == sb.len() => {
                let elem = self.join_dims(ea, eb, seen);
                let mut out = elem;
                for (da, db) in sa.iter().zip(sb).rev() {
                    let d = if da == db {
                        da.clone()
                    } else if self.unify_dims_quiet(da, db) {
                        self.store.resolve_dim(da)
                    } else {
                        let (ra, rb) = (self.store.resolve_dim(da), self.store.resolve_dim(db));
                        match seen.iter().find(|(x, y, _)| *x == ra && *y == rb) {
                            Some((_, _, d)) => d.clone(),
                            None => {
                                let d = self.store.fresh_unknown();
                                if let Dim::Unknown(u) = d {
                                    let shown = (self.show_dim(&ra), self.show_dim(&rb));
                                    self.branch_sizes.insert(u, shown);
                                }
                                seen.push((ra, rb, d.clone()));
                                d
                            }
                        }
                    };
                    out = Ty::array_of(out, d);
                }
                out
            }
            (Ty::Record(fa), Ty::Record(fb)) => Ty::Record(
                fa.iter()
                    .map(|(k, t)| (k.clone(), fb.get(k).map(|u| self.join_dims(t, u, seen)).unwrap_or(t.clone())))
                    .collect(),
            ),
            _ => a.clone(),
        }
    }

    /// Unifies two sizes only when one side is an unsolved size variable.
    fn unify_dims_quiet(&mut self, a: &Dim, b: &Dim) -> bool {
        let a = self.store.resolve_dim(a);
        let b = self.store.resolve_dim(b);
        let is_var = |d: &Dim| matches!(d, Dim::Poly(p) if p.as_var().is_some_and(ty::is_svar));
        // The anonymous size of a parameter is not a branch's existential
        // size: the branches then differ, and the result's size is unknown.
        let param_size =
            |d: &Dim| matches!(d, Dim::Poly(p) if p.as_var().is_some_and(|v| self.inferred_sizes.contains(&v)));
        // Nor is any other size (`length s + 1`, a constant, another
        // parameter's size), as in Futhark, where it is a size parameter of
        // its own; only a size still to be inferred in the branch takes it.
        let other = |d: &Dim| !is_var(d) || param_size(d);
        if (param_size(&a) && other(&b)) || (param_size(&b) && other(&a)) {
            return false;
        }
        if is_var(&a) || is_var(&b) {
            return self.unify_dims(&a, &b, Span::DUMMY).is_ok();
        }
        false
    }

    fn let_expr(&mut self, node: NodeId, sizes: &[Binder], pat: &Pat, value: &Expr, body: &Expr) -> Ty {
        let vt = self.expr(value);
        let vt = self.store.resolve(&vt);
        let saved = self.locals.len();
        // `let m = n + 1 in iota m` has type `[n+1]i64`, as in Futhark: a
        // name bound to a size expression stands for it when it goes out
        // of scope.
        let alias = match single_var(pat) {
            Some(id) if sizes.is_empty() && vt == Ty::i64() => self.size_poly_of(value).map(|p| (id, p)),
            _ => None,
        };
        let mut bound = Vec::new();
        if sizes.is_empty() {
            let first_svar = self.store.svar_count();
            self.pat(pat, &vt, AnonMode::Fresh, &mut bound);
            self.ascription_sizes(pat, first_svar);
        } else {
            self.let_sizes(sizes, pat, &vt, &mut bound);
        }
        self.require_irrefutable(pat);
        for (name, id) in bound {
            self.bind_local(&name, id);
        }
        let bt = self.expr(body);
        let bt = match alias {
            Some((id, p)) => ty::subst_sizes(&self.store.resolve(&bt), &HashMap::from_iter([(id, Dim::Poly(p))])),
            None => bt,
        };
        let unknowns_before = self.store.next_unknown;
        let bt = self.forget_local_sizes(&bt, saved, false);
        self.produced_by(node, unknowns_before);
        self.locals.truncate(saved);
        bt
    }

    /// `let [n]... p = e`, as in Futhark: each size name stands for an
    /// unknown size while the pattern's type is matched against the value's,
    /// so it may become any size there, an existential one (which the name
    /// then denotes in the value's type too) or a known one (`let [m] (ys:
    /// [m]i32) = xs ++ xs`); one that nothing determines is ambiguous. In
    /// the body the name is a size of its own, its value the array's.
    fn let_sizes(&mut self, sizes: &[Binder], pat: &Pat, vt: &Ty, bound: &mut Vec<(Name, NodeId)>) {
        let mut binders = Vec::new();
        for b in sizes {
            self.push_size_binder(b);
            // Futhark's rules: the pattern must use the size, as the
            // size of a value that is not a function, and may not bind
            // a variable of the same name.
            let (used, concrete) = size_use_in_pat(pat, &b.name.text);
            if pat_binds(pat, &b.name.text) {
                self.error(
                    "duplicate-binding",
                    b.name.span,
                    format!("Name \"{}\" also bound by the pattern of this let.", b.name.text),
                );
            } else if !used {
                self.error("unused-size", b.name.span, format!("Size [{}] unused in pattern.", b.name.text));
            } else if !concrete {
                self.error(
                    "unused-size",
                    b.name.span,
                    format!(
                        "Cannot bind [{}] as it is never used as the size of a concrete (non-function) value.",
                        b.name.text
                    ),
                );
            } else {
                binders.push(b);
            }
        }
        let pv = self.fresh_var(pat.span);
        self.pat(pat, &pv, AnonMode::Fresh, bound);
        let pt = self.store.resolve(&pv);
        // A name whose place in the value's type is an existential size
        // denotes that size wherever the value's type has it.
        let ids: Vec<NodeId> = binders.iter().map(|b| b.id).collect();
        let mut named = HashMap::default();
        name_unknowns(&pt, vt, &ids, &mut named);
        let vt = ty::map_unknowns(vt, &mut |u| named.get(&u).map(|id| Dim::var(*id)));
        let mut open = HashMap::default();
        for b in &binders {
            if !named.values().any(|id| *id == b.id) {
                open.insert(b.id, self.store.fresh_svar());
            }
        }
        let pt = if open.is_empty() { pt } else { ty::subst_sizes(&pt, &open) };
        let before = self.diags.len();
        if !self.unify_at(&pt, &vt, pat.span) {
            let shown = self.show(&vt);
            for d in self.diags.iter_mut().skip(before) {
                d.message = format!("Pattern cannot match value of type `{shown}`. {}", d.message);
            }
            return;
        }
        for b in &binders {
            if let Some(d) = open.get(&b.id) {
                if self.store.resolve_dim(d).as_var().is_some_and(ty::is_svar) {
                    self.error(
                        "ambiguous-size",
                        b.name.span,
                        format!(
                            "Ambiguous size \"{}\". Nothing in the type of the bound value determines it; add a type ascription to the value.",
                            b.name.text
                        ),
                    );
                }
            }
        }
    }

    fn loop_expr(&mut self, e: &Expr, pat: &Pat, init: Option<&Expr>, form: &LoopForm, body: &Expr) -> Ty {
        let it = match init {
            Some(i) => self.expr(i),
            None => self.pattern_as_expr(pat),
        };
        let before = self.diags.len();
        let out = self.loop_expr_inner(e, pat, it, form, body);
        // Futhark's wording for mismatches between the loop parameter and
        // the body's result (at the pattern or at the body's final value).
        let mut tail = body;
        loop {
            match &tail.kind {
                ExprKind::Parens(x) | ExprKind::Attr(_, x) => tail = x,
                ExprKind::Let { body, .. } | ExprKind::LetFun { body, .. } => tail = body,
                _ => break,
            }
        }
        let mut at_tail = vec![tail.span];
        if let ExprKind::Tuple(items) = &tail.kind {
            at_tail.extend(items.iter().map(|i| i.span));
        }
        let inside = |s: Span, outer: Span| s.file == outer.file && s.start >= outer.start && s.end <= outer.end;
        for d in self.diags.iter_mut().skip(before) {
            if (d.name == "type-mismatch" || d.name == "size-mismatch")
                && (inside(d.span, pat.span) || at_tail.contains(&d.span))
                && !d.message.starts_with(LOOP_BODY_MISMATCH)
            {
                d.message = format!("{LOOP_BODY_MISMATCH} {}", d.message);
            }
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn loop_expr_inner(&mut self, e: &Expr, pat: &Pat, it: Ty, form: &LoopForm, body: &Expr) -> Ty {
        let it = self.store.resolve(&it);
        let saved = self.locals.len();
        // First attempt with the initial sizes; if the body changes them, redo with unknown sizes.
        let snapshot = (self.store.snapshot(), self.diags.len());
        let pending_snapshot = (
            self.pending.insts.len(),
            self.pending.ops.len(),
            self.pending.literals.len(),
            self.pending.matches.len(),
            self.pending.irrefutable.len(),
            self.pending.order_zero.len(),
            self.pending.context_sizes.len(),
        );
        let mut snapshot = snapshot;
        let mut first = self.loop_attempt(e, pat, &it, form, body, saved, SizeMode::Ignore);
        // Whether the body checks with the initial sizes: then any size
        // error with the generalised sizes is the body's result not fitting
        // the parameter (Futhark's "Loop body does not have expected type").
        let first_clean = self.diags.len() == snapshot.1;
        let mut param_ty = self.store.resolve(&first.0);
        let mut body_ty = self.store.resolve(&first.1);
        let mut changed = !self.same_dims(&param_ty, &body_ty, &[]);
        // Sizes written in the parameter's type (`loop (xs: [n]t)`) do not vary.
        let fixed = dim_flags(&loop_fixed_skeleton(pat, &param_ty));
        // Futhark gives each initial size a fresh variable, so a constant
        // initial size that the body happens to reproduce (`xs ++ xs` of an
        // empty array) still varies. Probe once with the constants rigid.
        let mut probe_sizes: Vec<(Dim, Dim)> = Vec::new();
        let has_constant = {
            let mut found = false;
            ty::for_each_dim(&it, &mut |d| found |= matches!(d, Dim::Poly(p) if p.as_constant().is_some()));
            found
        };
        if !changed && has_constant {
            self.undo_loop_attempt(snapshot, pending_snapshot);
            snapshot = (self.store.snapshot(), self.diags.len());
            let probe_it = ty::map_dims(&it, &mut |d| match d {
                Dim::Poly(p) if p.as_constant().is_some() => {
                    let u = Dim::var(self.store.fresh_synthetic());
                    probe_sizes.push((u.clone(), d.clone()));
                    u
                }
                other => other.clone(),
            });
            let probe = self.loop_attempt(e, pat, &probe_it, form, body, saved, SizeMode::Ignore);
            let probe_param = self.store.resolve(&probe.0);
            let probe_body = reproduced_constants(&probe_param, &self.store.resolve(&probe.1), &probe_sizes);
            if self.diags.len() == snapshot.1 && !self.same_dims(&probe_param, &probe_body, &[]) {
                changed = true;
                param_ty = probe_param;
                body_ty = probe_body;
            } else {
                // Inconclusive (the body needs the constant) or invariant:
                // the attempt with the initial sizes stands.
                probe_sizes.clear();
                self.undo_loop_attempt(snapshot, pending_snapshot);
                snapshot = (self.store.snapshot(), self.diags.len());
                first = self.loop_attempt(e, pat, &it, form, body, saved, SizeMode::Ignore);
                param_ty = self.store.resolve(&first.0);
                body_ty = self.store.resolve(&first.1);
                changed = !self.same_dims(&param_ty, &body_ty, &[]);
            }
        }
        let (param_ty, body_ty) = if changed {
            // Each attempt may make more sizes existential (`loop (a, b) =
            // (xs, ys) ... do (a', a)`: `b` gets `a`'s sizes); repeat until
            // the body changes no size that is still fixed.
            let (mut param_ty, mut body_ty) = (param_ty, body_ty);
            let mut existential = Vec::new();
            let mut rounds = 0;
            loop {
                self.undo_loop_attempt(snapshot, pending_snapshot);
                let unknowns_before = self.store.next_unknown;
                let generalised = self.generalise_changed(&param_ty, &body_ty, &existential, &fixed);
                // Sizes the probe made rigid that the body keeps are the constants.
                let generalised = ty::map_dims(&generalised, &mut |d| {
                    probe_sizes.iter().find(|(u, _)| u == d).map_or_else(|| d.clone(), |(_, c)| c.clone())
                });
                let generalised = self.tie_loop_sizes(e, pat, &generalised, &it, form, body, saved, pending_snapshot);
                self.produced_by(e.id, unknowns_before);
                ty::for_each_dim(&generalised, &mut |d| existential.extend(d.unknowns()));
                snapshot = (self.store.snapshot(), self.diags.len());
                let (p, b) = self.loop_attempt(e, pat, &generalised, form, body, saved, SizeMode::Ignore);
                rounds += 1;
                let (rp, rb) = (self.store.resolve(&p), self.store.resolve(&b));
                if let Some((dp, db)) = fixed_mismatch(&rp, &rb, &fixed) {
                    let (sp, sb, tp, tb) = (self.show_dim(&dp), self.show_dim(&db), self.show(&rp), self.show(&rb));
                    self.error(
                        "size-mismatch",
                        pat.span,
                        format!(
                            "{LOOP_BODY_MISMATCH} Sizes \"{sp}\" and \"{sb}\" do not match (expected `{tp}`, but got `{tb}`)."
                        ),
                    );
                    break (p, b);
                }
                if rounds >= 8 || self.same_dims(&rp, &rb, &existential) {
                    self.unify_mode_at(&generalised, &it, e.span, SizeMode::Ignore);
                    if first_clean {
                        self.prefix_mismatches(snapshot.1, LOOP_BODY_MISMATCH);
                    }
                    break (p, b);
                }
                (param_ty, body_ty) = (rp, rb);
            }
        } else {
            self.store.commit(snapshot.0);
            let (p, b) = first;
            self.unify_at(&p, &it, e.span);
            (p, b)
        };
        let _ = body_ty;
        self.pending.order_zero.push((param_ty.clone(), pat.span, crate::checker::OrderZero::Loop));
        let unknowns_before = self.store.next_unknown;
        let out = self.forget_local_sizes(&param_ty, saved, false);
        self.produced_by(e.id, unknowns_before);
        out
    }

    /// Futhark checks the body with a flexible size per varying position of
    /// the loop parameter, so the body may make two of them one size (it
    /// passes both arrays to a function that wants them equal, as knn's
    /// `iterationSorted` does with its `[n]` queries and results). Probes
    /// the body once with each existential size of `generalised` made a
    /// flexible size variable, and gives the positions the body unified one
    /// existential size; their initial sizes (in `initial`) must then be
    /// one size too. Positions the body tied to a size from outside the
    /// loop stay apart, and the real attempt reports the mismatch.
    #[allow(clippy::too_many_arguments)]
    fn tie_loop_sizes(
        &mut self,
        e: &Expr,
        pat: &Pat,
        generalised: &Ty,
        initial: &Ty,
        form: &LoopForm,
        body: &Expr,
        saved: usize,
        pending: (usize, usize, usize, usize, usize, usize, usize),
    ) -> Ty {
        let mut flexible: Vec<(u32, Dim)> = Vec::new();
        let probe_ty = ty::map_unknowns(generalised, &mut |u| match flexible.iter().find(|(k, _)| *k == u) {
            Some((_, v)) => Some(v.clone()),
            None => {
                let v = self.store.fresh_svar();
                flexible.push((u, v.clone()));
                Some(v)
            }
        });
        if flexible.is_empty() {
            return generalised.clone();
        }
        let snapshot = (self.store.snapshot(), self.diags.len());
        let unknowns_before = self.store.next_unknown;
        // Like a parameter's size, a loop parameter's flexible size is not
        // taken by a branch join's existential size (`if c then filter p
        // xs else xs` has a size of its own).
        let inferred_before = self.inferred_sizes.len();
        self.inferred_sizes.extend(flexible.iter().filter_map(|(_, v)| v.as_var()));
        self.loop_attempt(e, pat, &probe_ty, form, body, saved, SizeMode::Ignore);
        self.inferred_sizes.truncate(inferred_before);
        // A parameter's size that the body equates with a size the body
        // itself creates (`zip (filter p ys) xs`) cannot be right before
        // the first iteration (Futhark's check, #2144).
        let impossible = flexible.iter().find_map(|(_, v)| match self.store.resolve_dim(v) {
            Dim::Unknown(k) if k >= unknowns_before => Some(self.show(&self.store.resolve(&probe_ty))),
            _ => None,
        });
        let classes: Vec<(u32, Option<NodeId>)> = flexible
            .iter()
            .map(|(u, v)| {
                let r = self.store.resolve_dim(v).as_var().filter(|w| ty::is_svar(*w));
                (*u, r)
            })
            .collect();
        self.undo_loop_attempt(snapshot, pending);
        if let Some(shown) = impossible {
            self.error(
                "loop-size-from-body",
                pat.span,
                format!("Inferred type for loop parameter is `{shown}`, but one of its sizes is an existential size created inside the loop body."),
            );
            return generalised.clone();
        }
        let mut rename: Vec<(u32, u32)> = Vec::new();
        for (i, (u, class)) in classes.iter().enumerate() {
            if let Some(c) = class {
                if let Some((first, _)) = classes[..i].iter().find(|(_, k)| k.as_ref() == Some(c)) {
                    rename.push((*u, *first));
                }
            }
        }
        if rename.is_empty() {
            return generalised.clone();
        }
        // One size for the body means one size for the initial values too
        // (Futhark matches them against the pattern after the body).
        let mut gen_dims = Vec::new();
        ty::for_each_dim(generalised, &mut |d| gen_dims.push(d.clone()));
        let mut init_dims = Vec::new();
        ty::for_each_dim(initial, &mut |d| init_dims.push(d.clone()));
        if gen_dims.len() == init_dims.len() {
            let target = |u: u32| rename.iter().find(|(k, _)| *k == u).map_or(u, |(_, t)| *t);
            let mut first_initial: Vec<(u32, Dim)> = Vec::new();
            for (g, i) in gen_dims.iter().zip(&init_dims) {
                let Dim::Unknown(u) = g else { continue };
                let t = target(*u);
                match first_initial.iter().find(|(k, _)| *k == t) {
                    None => first_initial.push((t, i.clone())),
                    Some((_, d)) => {
                        let d = d.clone();
                        if self.unify_dims(&d, i, e.span).is_err() {
                            let (x, y) = (self.show_dim(&d), self.show_dim(i));
                            self.error(
                                "size-mismatch",
                                e.span,
                                format!("Initial loop values do not have expected type: the loop body uses two parameters' sizes as one size, but their initial sizes \"{x}\" and \"{y}\" do not match."),
                            );
                            return generalised.clone();
                        }
                    }
                }
            }
        }
        ty::map_unknowns(generalised, &mut |u| rename.iter().find(|(k, _)| *k == u).map(|(_, to)| Dim::Unknown(*to)))
    }

    /// Undoes a loop attempt: variables it created stay allocated (stale
    /// types may still mention them); the older ones get their earlier
    /// state back.
    fn undo_loop_attempt(
        &mut self,
        snapshot: (crate::ty::Snapshot, usize),
        pending: (usize, usize, usize, usize, usize, usize, usize),
    ) {
        self.store.rollback(snapshot.0);
        self.diags.truncate(snapshot.1);
        self.pending.insts.truncate(pending.0);
        self.pending.ops.truncate(pending.1);
        self.pending.literals.truncate(pending.2);
        self.pending.matches.truncate(pending.3);
        self.pending.irrefutable.truncate(pending.4);
        self.pending.order_zero.truncate(pending.5);
        self.pending.context_sizes.truncate(pending.6);
    }

    /// One check of a loop body. Returns the parameter type and the body type.
    #[allow(clippy::too_many_arguments)]
    fn loop_attempt(
        &mut self,
        _e: &Expr,
        pat: &Pat,
        init_ty: &Ty,
        form: &LoopForm,
        body: &Expr,
        saved: usize,
        _mode: SizeMode,
    ) -> (Ty, Ty) {
        let param_ty = init_ty.clone();
        // A `for` loop's bound and a `for-in` loop's array are evaluated
        // before the loop, where its parameters are not in scope (they may
        // shadow the names the bound uses).
        let outside = match form {
            LoopForm::For { bound, .. } => Some(self.expr(bound)),
            LoopForm::ForIn { array, .. } => Some(self.expr(array)),
            LoopForm::While(_) => None,
        };
        let mut bound = Vec::new();
        self.pat(pat, &param_ty, AnonMode::Fresh, &mut bound);
        self.require_irrefutable(pat);
        for (name, id) in bound {
            self.bind_local(&name, id);
        }
        match (form, outside) {
            (LoopForm::For { var, bound }, Some(bt)) => {
                let c = self.store.fresh_var(Constraint::Int, bound.span);
                self.unify_at(&c, &bt, bound.span);
                let mut vb = Vec::new();
                self.pat(var, &bt, AnonMode::Fresh, &mut vb);
                for (name, id) in vb {
                    self.bind_local(&name, id);
                }
            }
            (LoopForm::ForIn { pat: elem_pat, array }, Some(at)) => {
                let elem = self.fresh_var(array.span);
                let row = Ty::array_of(elem.clone(), self.store.fresh_svar());
                self.unify_mode_at(&row, &at, array.span, SizeMode::Ignore);
                let elem = self.row_type(&at).unwrap_or(elem);
                let mut vb = Vec::new();
                self.pat(elem_pat, &elem, AnonMode::Fresh, &mut vb);
                for (name, id) in vb {
                    self.bind_local(&name, id);
                }
            }
            (LoopForm::While(cond), _) => {
                let ct = self.expr(cond);
                self.unify_at(&Ty::bool(), &ct, cond.span);
            }
            // The bound was checked above for both `for` forms.
            (LoopForm::For { .. } | LoopForm::ForIn { .. }, None) => {}
        }
        let bt = self.expr(body);
        self.unify_mode_at(&param_ty, &bt, body.span, SizeMode::Ignore);
        self.locals.truncate(saved);
        (param_ty, bt)
    }

    fn row_type(&self, t: &Ty) -> Option<Ty> {
        match self.store.resolve(t) {
            Ty::Array(elem, shape) if shape.len() > 1 => Some(Ty::Array(elem, shape[1..].to_vec())),
            Ty::Array(elem, _) => Some(*elem),
            _ => None,
        }
    }

    /// Whether `b` has `a`'s sizes, except where `a` has one of the
    /// existential sizes `free`.
    fn same_dims(&self, a: &Ty, b: &Ty, free: &[u32]) -> bool {
        let mut da = Vec::new();
        let mut db = Vec::new();
        ty::map_dims(a, &mut |d| {
            da.push(self.store.resolve_dim(d));
            d.clone()
        });
        ty::map_dims(b, &mut |d| {
            db.push(self.store.resolve_dim(d));
            d.clone()
        });
        da.len() == db.len()
            && da.iter().zip(&db).all(|(x, y)| x == y || matches!(x, Dim::Unknown(u) if free.contains(u)))
    }

    /// The loop parameter type with every size the body changes replaced by
    /// a fresh unknown (those already existential, `keep`, stay).
    fn generalise_changed(&mut self, param: &Ty, body: &Ty, keep: &[u32], fixed: &[bool]) -> Ty {
        let mut db = Vec::new();
        ty::map_dims(body, &mut |d| {
            db.push(d.clone());
            d.clone()
        });
        let mut i = 0;
        let mut out_dims = Vec::new();
        ty::map_dims(param, &mut |d| {
            out_dims.push((d.clone(), db.get(i).cloned()));
            i += 1;
            d.clone()
        });
        let mut fresh = Vec::new();
        for (i, (d, b)) in out_dims.iter().enumerate() {
            let kept = Some(d) == b.as_ref()
                || matches!(d, Dim::Unknown(u) if keep.contains(u))
                || fixed.get(i).copied().unwrap_or(false);
            fresh.push(if kept { d.clone() } else { self.store.fresh_unknown() });
        }
        let mut j = 0;
        ty::map_dims(param, &mut |d| {
            let r = fresh.get(j).cloned().unwrap_or(d.clone());
            j += 1;
            r
        })
    }

    /// `loop (x, y) for ...` without `= init`: the pattern's variables are the initial values.
    fn pattern_as_expr(&mut self, p: &Pat) -> Ty {
        match &p.kind {
            PatKind::Var(name) => {
                // The resolution of the implied initial value is keyed by the
                // pattern variable's own id (lowering looks it up there).
                let q = QualName::unqualified(name.text.clone(), name.span);
                self.var(p.id, &q)
            }
            PatKind::Record(fields) => {
                let mut tys = BTreeMap::new();
                for (n, q) in fields {
                    let t = self.pattern_as_expr(q);
                    tys.insert(n.text.clone(), t);
                }
                Ty::Record(tys)
            }
            PatKind::Tuple(items) => {
                let tys = items.iter().map(|i| self.pattern_as_expr(i)).collect();
                Ty::tuple(tys)
            }
            PatKind::Ascribe(inner, _) | PatKind::Attr(_, inner) => self.pattern_as_expr(inner),
            _ => {
                self.error("parse-error", p.span, "A loop without an initial value needs a pattern of variables.");
                Ty::Error
            }
        }
    }

    pub(crate) fn project(&mut self, t: &Ty, field: &str, span: Span) -> Ty {
        match self.store.shallow(t) {
            Ty::Record(fs) => match fs.get(field) {
                Some(ft) => ft.clone(),
                None => {
                    let shown = self.show(t);
                    self.error("unknown-field", span, format!("Type `{shown}` has no field `{field}`."));
                    Ty::Error
                }
            },
            Ty::Var(_) => {
                let ft = self.fresh_var(span);
                let c =
                    self.store.fresh_var(Constraint::Record(BTreeMap::from([(field.to_string(), ft.clone())])), span);
                self.unify_at(&c, t, span);
                ft
            }
            Ty::Error => Ty::Error,
            _ => {
                let shown = self.show(t);
                self.error(
                    "unknown-field",
                    span,
                    format!("Type `{shown}` is not a record and has no field `{field}`."),
                );
                Ty::Error
            }
        }
    }

    /// The type of `arr[idx]`; checks the indices.
    fn index_type(&mut self, t: &Ty, arr: &Expr, idx: &[DimIndex], node: NodeId, span: Span) -> Ty {
        let resolved = self.store.resolve(t);
        let (elem, shape) = match resolved {
            Ty::Array(elem, shape) => (*elem, shape),
            Ty::Error => return Ty::Error,
            Ty::Var(_) => {
                let elem = self.fresh_var(span);
                let shape: Vec<Dim> = idx.iter().map(|_| self.store.fresh_svar()).collect();
                let arr_ty = Ty::Array(Box::new(elem.clone()), shape.clone());
                self.unify_at(&arr_ty, t, span);
                (elem, shape)
            }
            other => {
                let shown = ty::show_ty(&other, &self.names);
                self.error(
                    "type-mismatch",
                    arr.span,
                    format!("Cannot index a value of type `{shown}`; it is not an array."),
                );
                return Ty::Error;
            }
        };
        if idx.len() > shape.len() {
            let shown = self.show(t);
            self.error(
                "type-mismatch",
                span,
                format!("Too many indices ({}) for a value of type `{shown}`.", idx.len()),
            );
            return Ty::Error;
        }
        let mut out_dims = Vec::new();
        for (d, i) in shape.iter().zip(idx) {
            match i {
                DimIndex::Index(e) => {
                    // An index may be of any signed integer type (as in
                    // Futhark); slice bounds are `i64`.
                    let it = self.expr(e);
                    let signed = self.store.fresh_var(Constraint::SignedInt, e.span);
                    self.unify_at(&signed, &it, e.span);
                }
                DimIndex::Slice { start, end, stride } => {
                    for part in [start, end, stride].into_iter().flatten() {
                        let pt = self.expr(part);
                        self.unify_at(&Ty::i64(), &pt, part.span);
                    }
                    // As in Futhark, `xs[a:b]` has size `b - a` whatever
                    // expressions `a` and `b` are: two slices with the same
                    // operands have the same size.
                    let unit_stride = stride.as_ref().is_none_or(|s| self.size_poly_of(s) == Some(Poly::constant(1)));
                    if unit_stride {
                        for part in [start, end].into_iter().flatten() {
                            if self.size_poly_of(part).is_none() {
                                self.register_opaque_sizes(part);
                            }
                        }
                    }
                    let start_p = match start {
                        None => Some(Poly::constant(0)),
                        Some(s) => self.size_poly_of(s),
                    };
                    let stride_one = match stride {
                        None => true,
                        Some(s) => self.size_poly_of(s) == Some(Poly::constant(1)),
                    };
                    // As in Futhark, `xs[:e]` (and `xs[0:e]`) has size `e`
                    // whatever expression `e` is: two slices `[:i64.i32 m]`
                    // have the same size.
                    if let (Some(e_end), true) = (end, stride_one && start_p == Some(Poly::constant(0))) {
                        if self.size_poly_of(e_end).is_none() {
                            self.register_opaque_sizes(e_end);
                        }
                    }
                    let end_p = match end {
                        None => match self.store.resolve_dim(d) {
                            Dim::Poly(p) => Some(p),
                            Dim::Unknown(_) => None,
                        },
                        Some(s) => self.size_poly_of(s),
                    };
                    let reverse = start.is_none()
                        && end.is_none()
                        && stride.as_ref().and_then(|s| self.size_poly_of(s)) == Some(Poly::constant(-1));
                    let unknowns_before = self.store.next_unknown;
                    let dim = match (start_p, end_p) {
                        _ if reverse => d.clone(),
                        (Some(a), Some(b)) if stride_one => {
                            if start.is_none() && end.is_none() {
                                d.clone()
                            } else {
                                Dim::Poly(b.sub(&a))
                            }
                        }
                        _ => self.store.fresh_unknown(),
                    };
                    self.produced_by(node, unknowns_before);
                    out_dims.push(dim);
                }
            }
        }
        out_dims.extend(shape[idx.len()..].iter().cloned());
        if out_dims.is_empty() {
            elem
        } else {
            Ty::Array(Box::new(elem), out_dims)
        }
    }

    /// Whether `t` is a type parameter declared lifted (`'^a`) or size-lifted
    /// (`'~a`), which Futhark does not allow as an array element.
    fn is_lifted_param(&self, t: &Ty) -> bool {
        matches!(self.store.resolve(t), Ty::Param(p) if self.lifted_params.contains(&p))
    }

    /// Prefixes the type and size mismatches reported since `before` with
    /// Futhark's description of what was being checked.
    fn prefix_mismatches(&mut self, before: usize, what: &str) {
        for d in self.diags.iter_mut().skip(before) {
            if (d.name == "type-mismatch" || d.name == "size-mismatch") && !d.message.starts_with(what) {
                d.message = format!("{what} {}", d.message);
            }
        }
    }

    /// Prefixes the type and size mismatches that `apply` reported at an
    /// argument (diagnostics from `before` on) with Futhark's
    /// `Cannot apply "f" to "x".`, naming the function and argument where
    /// they are variables.
    fn name_application(&mut self, before: usize, f: Option<&Expr>, args: &[&Expr]) {
        let var_name = |e: &Expr| match &strip_parens(e).kind {
            ExprKind::Var(q) => Some(q.to_string()),
            _ => None,
        };
        let fname = f.and_then(var_name).map(|n| format!("\"{n}\"")).unwrap_or_else(|| "function".to_string());
        for d in self.diags.iter_mut().skip(before) {
            if d.name != "type-mismatch" && d.name != "size-mismatch" && d.name != "existential-param-ret" {
                continue;
            }
            let Some(arg) = args.iter().find(|a| a.span == d.span) else { continue };
            let what = var_name(arg).map(|n| format!("\"{n}\"")).unwrap_or_else(|| "this argument".to_string());
            d.message = format!("Cannot apply {fname} to {what}. {}", d.message);
        }
    }

    /// The spellings of the sums and products among the sizes of `t` (`[n +
    /// m]`), with `sizes` substituted (`2 + 3`), for solving `?a + ?b`
    /// against the substituted sizes the way the function spelled them.
    /// `t` is resolved.
    pub(crate) fn respell_sizes(&mut self, t: &Ty, sizes: &HashMap<NodeId, Dim>) {
        if self.spellings.is_empty() {
            return;
        }
        // An opaque size mentioning the names (`i64.sum ks`) becomes the
        // opaque size of the substituted term, as `subst_sizes_in_terms`
        // makes it.
        let all = self.with_derived_opaque(t, sizes);
        let sizes = all.as_ref().unwrap_or(sizes);
        let mut polys = Vec::new();
        ty::for_each_dim(t, &mut |d| {
            if let Dim::Poly(q) = d {
                if q.vars().any(|v| sizes.contains_key(&v)) {
                    polys.push(q.clone());
                }
            }
        });
        let mut depth = 0;
        while let Some(q) = polys.pop() {
            depth += 1;
            let Some((product, a, b)) = self.spellings.get(&q).cloned() else { continue };
            if depth > 64 {
                break;
            }
            let subst = |x: &Poly| Some(ty::subst_dim(&Dim::from_poly(x.clone()), sizes).to_poly().into_owned());
            if let (Some(w), Some(a2), Some(b2)) = (subst(&q), subst(&a), subst(&b)) {
                // Kept for later applications too (`g 2` then `3`); a
                // spelling in fresh size variables is only this use's.
                if !w.vars().any(ty::is_svar) {
                    self.spellings.entry(w.clone()).or_insert_with(|| (product, a2.clone(), b2.clone()));
                }
                self.sum_hints.push((w, product, a2, b2));
            }
            polys.push(a);
            polys.push(b);
        }
    }

    /// Keeps the spellings of the current definition's sums and products
    /// whose size variables are now solved (`flatten`'s `[?n*?m]` with
    /// `?n = i64.sum ks`, `?m = 2`), so that a use of the definition
    /// respells its result's sizes the same way (`seeds ks` of
    /// `[i64.sum ks * 2]` still `i64.sum ks` rows of 2 for `unflatten`).
    pub(crate) fn keep_spellings(&mut self) {
        let resolve = |c: &Self, x: &Poly| c.store.resolve_dim(&Dim::from_poly(x.clone())).to_poly().into_owned();
        for i in 0..self.sum_hints.len() {
            let (whole, product, a, b) = &self.sum_hints[i];
            let (product, w, a, b) = (*product, resolve(self, whole), resolve(self, a), resolve(self, b));
            if w.vars().chain(a.vars()).chain(b.vars()).any(ty::is_svar) {
                continue;
            }
            self.spellings.entry(w).or_insert((product, a, b));
        }
    }

    /// Remembers `Cannot apply "f" to "x".` for the size equations that
    /// `apply` deferred (from `pending_before` on) at an argument, for when
    /// they turn out to have no solution.
    fn name_deferred_application(&mut self, pending_before: usize, f: Option<&Expr>, args: &[&Expr]) {
        let var_name = |e: &Expr| match &strip_parens(e).kind {
            ExprKind::Var(q) => Some(format!("\"{q}\"")),
            _ => None,
        };
        let fname = f.and_then(var_name).unwrap_or_else(|| "function".to_string());
        let spans: Vec<Span> = self.pending_sizes.iter().skip(pending_before).map(|(_, _, s)| *s).collect();
        for span in spans {
            if let Some(arg) = args.iter().find(|a| a.span == span) {
                let what = var_name(arg).unwrap_or_else(|| "this argument".to_string());
                self.size_contexts.push((span, format!("Cannot apply {fname} to {what}.")));
            }
        }
    }

    /// Applies a function of type `ft` to arguments, left to right.
    /// `node` is the application's expression (which computes the sizes of
    /// arguments that are not size expressions).
    pub fn apply(&mut self, ft: Ty, args: &[&Expr], node: NodeId, fspan: Span) -> Ty {
        let mut t = ft;
        let mut bound_in_args: Vec<NodeId> = Vec::new();
        for (i, arg) in args.iter().enumerate() {
            let shallow = self.store.shallow(&t);
            let arrow = match shallow {
                Ty::Arrow(a) => *a,
                Ty::Var(_) => {
                    let from = self.fresh_var(arg.span);
                    let to = self.fresh_var(arg.span);
                    self.unify_at(&t, &Ty::arrow(from.clone(), to.clone()), fspan);
                    ArrowTy { param: None, from, to, consumes: false, ret_unique: false }
                }
                Ty::Error => {
                    for a in &args[i..] {
                        self.expr(a);
                    }
                    return Ty::Error;
                }
                other => {
                    let shown = ty::show_ty(&self.store.resolve(&other), &self.names);
                    if i == 0 {
                        self.error(
                            "not-a-function",
                            fspan,
                            format!("Cannot apply expression as function: it has type `{shown}`."),
                        );
                    } else {
                        self.error(
                            "arity-mismatch",
                            arg.span,
                            format!(
                                "Function applied to too many arguments: it takes {i} argument{}, but is given {} (result type `{shown}`).",
                                if i == 1 { "" } else { "s" },
                                args.len()
                            ),
                        );
                    }
                    for a in &args[i..] {
                        self.expr(a);
                    }
                    return Ty::Error;
                }
            };
            let at = self.expr(arg);
            if let (Ty::Arrow(pa), Ty::Arrow(aa_ty)) = (self.store.resolve(&arrow.from), self.store.resolve(&at)) {
                if aa_ty.consumes && !pa.consumes {
                    self.error(
                        "consuming-argument",
                        arg.span,
                        "A function that consumes its argument cannot be passed where a non-consuming function is expected.",
                    );
                }
            }
            let before = self.diags.len();
            // The names of the argument's own dependent parameters (`iota`'s
            // `n`): sizes only they name cannot appear in what the
            // application returns, except as existential sizes.
            let mut bound_here = Vec::new();
            self.store.arrow_params(&at, &mut bound_here);
            self.unify_at(&arrow.from, &at, arg.span);
            if self.diags.len() == before && !bound_here.is_empty() {
                self.check_escaped_in_params(&arrow.to, &bound_here, arg.span);
                bound_in_args.extend(bound_here);
            }
            t = match arrow.param {
                Some(p) => {
                    let unknowns_before = self.store.next_unknown;
                    let d = self.size_of_expr(arg);
                    self.produced_by(node, unknowns_before);
                    let sizes = HashMap::from_iter([(p, d)]);
                    self.respell_sizes(&self.store.resolve(&arrow.to), &sizes);
                    self.subst_sizes_in_terms(&arrow.to, &sizes)
                }
                None => arrow.to,
            };
        }
        if !bound_in_args.is_empty() {
            // `x |> iota`: the result's size is iota's `n`, which is
            // existential here.
            let resolved = self.store.resolve(&t);
            t = self.existential_for(&resolved, &bound_in_args);
        }
        t
    }

    /// `t` with each free occurrence of one of `names` (parameters of
    /// dependent functions, out of scope here) made an existential size,
    /// one per name.
    pub(crate) fn existential_for(&mut self, t: &Ty, names: &[NodeId]) -> Ty {
        let mut fresh: Vec<(NodeId, Dim)> = Vec::new();
        let store = &mut self.store;
        ty::replace_free_names(t, names, &mut |v| match fresh.iter().find(|(k, _)| *k == v) {
            Some((_, u)) => u.clone(),
            None => {
                let u = store.fresh_unknown();
                fresh.push((v, u.clone()));
                u
            }
        })
    }

    /// After an application: a size that only a dependent function
    /// argument's parameter names (`iota`'s `n`, taken by `compose`'s `'^b`)
    /// may not be the size of a parameter of a function in the result
    /// (Futhark: "Existential size would appear in function parameter of
    /// return type"), as no caller could supply an array of that size.
    fn check_escaped_in_params(&mut self, result: &Ty, bound: &[NodeId], span: Span) {
        let mut t = self.store.resolve(result);
        while let Ty::Arrow(a) = t {
            // Free in the parameter's type (not bound by a function type
            // inside it, as `k` in `{sum: (k: i64) -> [k]f64 -> f64}`).
            if ty::mentions_free_name(&a.from, bound) {
                let shown = self.show(&self.store.resolve(result));
                self.error(
                    "existential-param-ret",
                    span,
                    format!("Existential size would appear in function parameter of return type: `{shown}`. This is usually because a higher-order function is used with functional arguments that return existential sizes or locally named sizes, which are then used as parameters of other function arguments."),
                );
                return;
            }
            t = a.to;
        }
    }

    /// The type of an operator used infix or in a section; records its resolution.
    fn operator(&mut self, node: NodeId, op: &QualName, backquoted: bool, span: Span) -> Ty {
        if backquoted || !op.quals.is_empty() || self.user_op(&op.name) || op_shape(&op.name).is_none() {
            return self.var(node, op);
        }
        // Inside `f64.(…)`, an operator is the opened module's.
        if op.name != "&&" && op.name != "||" {
            if let Some(t) = self.opened_prim_member(node, &op.name, span) {
                return t;
            }
        }
        let (constraint, to_bool) = op_shape(&op.name).unwrap_or((Constraint::None, false));
        let t = if op.name == "&&" || op.name == "||" {
            let res = if op.name == "&&" { Builtin::LogAnd } else { Builtin::LogOr };
            self.record_resolution(node, Resolution::Builtin(res));
            Ty::bool()
        } else {
            let t = self.store.fresh_var(constraint, span);
            self.pending.ops.push((node, op.name.clone(), t.clone()));
            t
        };
        let ret = if to_bool { Ty::bool() } else { t.clone() };
        Ty::arrow(t.clone(), Ty::arrow(t, ret))
    }

    /// A name in expression position.
    pub fn var(&mut self, node: NodeId, q: &QualName) -> Ty {
        if q.name.len() > 1 && q.name.starts_with('_') {
            self.error(
                "underscore-use",
                q.span,
                format!("Use of \"{q}\": variables prefixed with underscore may not be accessed."),
            );
        }
        if q.quals.is_empty() {
            return self.simple_var(node, &q.name, q.span);
        }
        let head = &q.quals[0];
        // A local record shadows a module; a module shadows a top-level value.
        let module_prefix = if self.lookup_local(head).is_some() { 0 } else { self.module_prefix(&q.quals) };
        if module_prefix > 0 {
            return self.module_path_var(node, q, module_prefix);
        }
        let is_value = self.lookup_local(head).is_some() || self.global_names.contains_key(head);
        if is_value {
            let head_span = Span { end: q.span.start + head.len() as u32, ..q.span };
            let insts_before = self.pending.insts.len();
            let unknowns_before = self.store.next_unknown;
            let mut t = self.simple_var(NodeId(0), head, head_span);
            for u in unknowns_before + 1..=self.store.next_unknown {
                if let Some(src) = self.pending.unknown_sources.get_mut(&u).filter(|n| **n == NodeId(0)) {
                    *src = node;
                }
            }
            let head_res = self.info.resolutions.remove(&NodeId(0)).unwrap_or(Resolution::Local(NodeId(0)));
            let mut fields: Vec<String> = q.quals[1..].to_vec();
            fields.push(q.name.clone());
            for f in &fields {
                t = self.project(&t, f, q.span);
            }
            // Only the head's own instantiation (searching all of them made
            // long definitions quadratic).
            let insts_before = insts_before.min(self.pending.insts.len());
            if let Some(inst) = self.pending.insts[insts_before..].iter_mut().find(|(n, _, _)| *n == NodeId(0)) {
                inst.0 = node;
            }
            self.record_resolution(node, Resolution::Projection { head: Box::new(head_res), fields });
            return t;
        }
        if q.quals.len() == 1 && head == "intrinsics" {
            let Some(sig) = intrinsic_signature(&q.name) else {
                self.error("unknown-name", q.span, format!("Unknown intrinsic `{q}`."));
                return Ty::Error;
            };
            let t = self.builtin_signature(sig, node, q.span);
            self.record_resolution(node, Resolution::Builtin(Builtin::Intrinsic(q.name.clone())));
            return t;
        }
        self.error("unknown-name", q.span, format!("Unknown name \"{q}\"."));
        Ty::Error
    }

    fn simple_var(&mut self, node: NodeId, name: &str, span: Span) -> Ty {
        if let Some(local) = self.lookup_local(name).cloned() {
            self.pending.used_locals.insert(local.id);
            self.record_resolution(node, Resolution::Local(local.id));
            let t = match &local.scheme {
                Some(s) => self.instantiate(s, node, span),
                None => local.ty.clone(),
            };
            return t;
        }
        if self.is_self_reference(name) {
            return self.recursive_use(node, name, span);
        }
        if let Some(def) = self.global_names.get(name).copied() {
            if self.current_def.as_deref() == Some(name) {
                self.error(
                    "not-supported-yet",
                    span,
                    format!("`{name}` refers to itself: recursion is not supported yet."),
                );
                return Ty::Error;
            }
            let before = self.pending.context_sizes.len();
            let out = self.global_value(node, def, span);
            for c in &mut self.pending.context_sizes[before..] {
                c.2 = format!("{} of \"{name}\"", c.2);
            }
            return out;
        }
        if let Some(found) = self.opened_prim_member(node, name, span) {
            return found;
        }
        if self.current_def.as_deref() == Some(name) || self.defining_locals.iter().any(|n| n == name) {
            self.error(
                "not-supported-yet",
                span,
                format!("`{name}` refers to itself: recursion is not supported yet."),
            );
        } else if BUILTIN_OPS.contains(&name) {
            // An operator used as a name, e.g. `(+)` reached through a backquote.
            let t = self.operator(node, &QualName::unqualified(name, span), false, span);
            return t;
        } else {
            self.error("unknown-name", span, format!("Unknown name \"{name}\"."));
        }
        Ty::Error
    }

    /// Whether a name (not a local) refers to the function being defined.
    fn is_self_reference(&self, name: &str) -> bool {
        let Some(me) = self.current_self.as_ref().filter(|s| s.name == name) else { return false };
        let (global, prims) = me.outer;
        self.global_names.get(name).copied() == global
            && !self.modules.opened_prims[prims.min(self.modules.opened_prims.len())..]
                .iter()
                .any(|p| crate::modules::prim_provides(*p, name))
    }

    /// A reference of a top-level function to itself, inside its own body.
    fn recursive_use(&mut self, node: NodeId, name: &str, span: Span) -> Ty {
        let applied = std::mem::take(&mut self.self_applied);
        let Some(me) = self.current_self.as_mut() else { return Ty::Error };
        me.used = true;
        let (def, scheme) = (me.def, me.scheme.clone());
        let higher_order = me.params.clone().iter().any(|(_, t)| self.is_higher_order(t));
        if higher_order && !applied {
            self.error(
                "recursive-higher-order-use",
                span,
                format!("Recursive function \"{name}\" has a higher-order parameter, so inside its own body it may only be applied to all its arguments."),
            );
        }
        self.record_resolution(node, Resolution::Def(def));
        self.info.recursive_uses.insert(node);
        self.instantiate(&scheme, node, span)
    }

    /// Whether a parameter type is higher-order for the recursion rules: it
    /// contains a function, or a lifted type parameter (which may be one).
    fn is_higher_order(&self, t: &Ty) -> bool {
        let t = self.store.resolve(t);
        let mut params = Vec::new();
        ty::type_params_in(&t, &mut params);
        contains_arrow(&t) || params.iter().any(|p| self.lifted_params.contains(p))
    }

    /// Checks an application of the function being defined to itself
    /// (Futhark's recursion restrictions): a function with higher-order
    /// parameters must be applied to all its parameters, and its higher-order
    /// arguments must be the parameters themselves, passed unchanged.
    fn recursive_call(&mut self, f: &Expr, args: &[Expr]) {
        let ExprKind::Var(q) = &f.kind else { return };
        if !q.quals.is_empty() || self.lookup_local(&q.name).is_some() {
            return;
        }
        if !self.is_self_reference(&q.name) {
            return;
        }
        let Some(me) = self.current_self.as_ref() else { return };
        let params = me.params.clone();
        let name = q.name.clone();
        self.self_applied = true;
        let higher_order: Vec<bool> = params.iter().map(|(_, t)| self.is_higher_order(t)).collect();
        if !higher_order.contains(&true) {
            return;
        }
        if args.len() < params.len() {
            self.error(
                "recursive-call-unsaturated",
                f.span.to(args.last().map_or(f.span, |a| a.span)),
                format!(
                    "Recursive call of \"{name}\" is not fully saturated: it is applied to {} of its {} arguments, and a recursive function with a higher-order parameter must be applied to all of them.",
                    args.len(),
                    params.len()
                ),
            );
            return;
        }
        for (i, ((binder, _), arg)) in params.iter().zip(args).enumerate() {
            if !higher_order[i] {
                continue;
            }
            let mut bare = arg;
            while let ExprKind::Parens(inner) = &bare.kind {
                bare = inner;
            }
            let unchanged = match (&bare.kind, binder) {
                (ExprKind::Var(a), Some(b)) if a.quals.is_empty() => {
                    self.lookup_local(&a.name).is_some_and(|l| l.id == *b)
                }
                _ => false,
            };
            if !unchanged {
                self.error(
                    "recursive-call-changed-argument",
                    arg.span,
                    format!("Argument {} of the recursive call of \"{name}\" is higher-order, so it must be the function's own parameter passed unchanged.", i + 1),
                );
            }
        }
    }

    /// Types a built-in from its signature string, instantiated at `node`.
    pub fn builtin_signature(&mut self, sig: &str, node: NodeId, span: Span) -> Ty {
        let key = sig.to_string();
        let scheme = match self.builtin_schemes.get(&key) {
            Some(s) => s.clone(),
            None => {
                let s = self.scheme_of_signature(sig);
                self.builtin_schemes.insert(key, s.clone());
                s
            }
        };
        self.instantiate(&scheme, node, span)
    }

    fn scheme_of_signature(&mut self, sig: &str) -> Scheme {
        let mut ids = Vec::new();
        let parsed = {
            let store = &mut self.store;
            crate::sig::parse_signature(sig, &mut || {
                let id = store.fresh_synthetic();
                ids.push(id);
                id
            })
        };
        let Ok(parsed) = parsed else { return Scheme::mono(Ty::Error) };
        // Built-in signatures are checked in an empty scope, silently and separately from user code.
        self.in_empty_scope(|c| {
            let errors = c.diags.len();
            let (type_params, mut size_params) = c.bind_type_params(&parsed.type_params);
            let mut params = Vec::new();
            for (name, id, te) in &parsed.params {
                let t = c.type_exp(te, AnonMode::Implicit);
                let unique = is_unique_type_exp(te);
                c.names.insert(*id, name.clone());
                c.locals.push(Local { name: name.clone(), id: *id, ty: t.clone(), scheme: None });
                params.push((t, unique, Some(*id)));
            }
            let ret = c.type_exp(&parsed.ret, AnonMode::Unknown);
            let ty = c.curry(params, ret, is_unique_type_exp(&parsed.ret));
            size_params.extend(c.implicit_sizes.take().unwrap_or_default());
            c.diags.truncate(errors);
            Scheme { type_params, size_params, ty }
        })
    }

    /// Runs `f` with no local names in scope and fresh per-definition facts
    /// (a signature checked apart from the definition around it), then
    /// restores them.
    pub fn in_empty_scope<T>(&mut self, f: impl FnOnce(&mut Checker) -> T) -> T {
        let saved_locals = std::mem::take(&mut self.locals);
        let saved_types = std::mem::take(&mut self.local_types);
        let saved_pending = std::mem::take(&mut self.pending);
        let saved_implicit = self.implicit_sizes.replace(Vec::new());
        let r = f(self);
        self.locals = saved_locals;
        self.local_types = saved_types;
        self.pending = saved_pending;
        self.implicit_sizes = saved_implicit;
        r
    }

    /// Brings explicit type and size parameters into scope; returns the
    /// ids of the type parameters and of the size parameters.
    pub fn bind_type_params(&mut self, tps: &[TypeParam]) -> (Vec<NodeId>, Vec<NodeId>) {
        let mut types = Vec::new();
        let mut sizes = Vec::new();
        for tp in tps {
            match tp {
                TypeParam::Size(b) => {
                    self.push_size_binder(b);
                    sizes.push(b.id);
                }
                TypeParam::Type(b, _) => {
                    self.note_name(b);
                    self.local_types.push((b.name.text.clone(), Ty::Param(b.id)));
                    types.push(b.id);
                }
            }
        }
        (types, sizes)
    }
}

/// A copy of a loop parameter's type `ty` whose dimensions say which sizes
/// the pattern's ascriptions write out (`[n]`, `[3]`: the constant 1) and
/// which they leave to the loop (`[]`, or no ascription: unknown 0).
fn loop_fixed_skeleton(pat: &Pat, ty: &Ty) -> Ty {
    let free = |t: &Ty| ty::map_dims(t, &mut |_| Dim::Unknown(0));
    match (&pat.kind, ty) {
        (PatKind::Ascribe(_, te), _) => ascribed_skeleton(te, ty),
        (PatKind::Attr(_, p), _) => loop_fixed_skeleton(p, ty),
        (PatKind::Tuple(ps), Ty::Record(fs)) if ps.len() == fs.len() && ps.len() != 1 => Ty::Record(
            fs.iter()
                .map(|(k, t)| {
                    let p = k.parse::<usize>().ok().and_then(|i| ps.get(i));
                    (k.clone(), p.map_or_else(|| free(t), |p| loop_fixed_skeleton(p, t)))
                })
                .collect(),
        ),
        (PatKind::Record(pfs), Ty::Record(fs)) => Ty::Record(
            fs.iter()
                .map(|(k, t)| {
                    let p = pfs.iter().find(|(n, _)| n.text == *k).map(|(_, p)| p);
                    (k.clone(), p.map_or_else(|| free(t), |p| loop_fixed_skeleton(p, t)))
                })
                .collect(),
        ),
        _ => free(ty),
    }
}

/// `loop_fixed_skeleton` under an ascription `te` of type `ty`.
fn ascribed_skeleton(te: &TypeExp, ty: &Ty) -> Ty {
    let free = |t: &Ty| ty::map_dims(t, &mut |_| Dim::Unknown(0));
    match (te, ty) {
        (TypeExp::Unique(t, _), _) => ascribed_skeleton(t, ty),
        (TypeExp::Array(..), Ty::Array(elem, dims)) => {
            let mut sizes = Vec::new();
            let mut t = te;
            while let TypeExp::Array(s, inner, _) = t {
                sizes.push(s);
                t = inner;
            }
            if sizes.len() != dims.len() {
                return free(ty);
            }
            let flags = sizes
                .iter()
                .map(|s| match s {
                    SizeExp::Expr(_) => Dim::Poly(Poly::constant(1)),
                    SizeExp::Anonymous(_) => Dim::Unknown(0),
                })
                .collect();
            Ty::Array(Box::new(ascribed_skeleton(t, elem)), flags)
        }
        (TypeExp::Tuple(ts, _), Ty::Record(fs)) if ts.len() == fs.len() && ts.len() != 1 => Ty::Record(
            fs.iter()
                .map(|(k, t)| {
                    let te = k.parse::<usize>().ok().and_then(|i| ts.get(i));
                    (k.clone(), te.map_or_else(|| free(t), |te| ascribed_skeleton(te, t)))
                })
                .collect(),
        ),
        (TypeExp::Record(tfs, _), Ty::Record(fs)) => Ty::Record(
            fs.iter()
                .map(|(k, t)| {
                    let te = tfs.iter().find(|(n, _)| n.text == *k).map(|(_, te)| te);
                    (k.clone(), te.map_or_else(|| free(t), |te| ascribed_skeleton(te, t)))
                })
                .collect(),
        ),
        _ => free(ty),
    }
}

/// The dimensions of a skeleton, in `ty::map_dims` order: true where fixed.
fn dim_flags(skeleton: &Ty) -> Vec<bool> {
    let mut out = Vec::new();
    ty::map_dims(skeleton, &mut |d| {
        out.push(matches!(d, Dim::Poly(_)));
        d.clone()
    });
    out
}

/// `body` (a loop body's result type, position by position like `param`)
/// with every size that is the constant a probe variable of `param`
/// replaced (in `probes`, variable and constant) at the same position
/// replaced by that variable: the body reproduces the initial size, which
/// Futhark counts as invariant (`loop y = x do [y[1], y[0]]` with `x:
/// [2]f64`), unlike a size computed from the parameter's (`xs ++ xs` of an
/// empty array).
fn reproduced_constants(param: &Ty, body: &Ty, probes: &[(Dim, Dim)]) -> Ty {
    let mut dp = Vec::new();
    ty::map_dims(param, &mut |d| {
        dp.push(d.clone());
        d.clone()
    });
    let mut i = 0;
    ty::map_dims(body, &mut |d| {
        let at = dp.get(i);
        i += 1;
        match at.and_then(|u| probes.iter().find(|(v, _)| v == u)) {
            Some((u, c)) if d == c => u.clone(),
            _ => d.clone(),
        }
    })
}

/// The first fixed dimension (by `dim_flags`) where `param` and `body` differ.
fn fixed_mismatch(param: &Ty, body: &Ty, fixed: &[bool]) -> Option<(Dim, Dim)> {
    let dims = |t: &Ty| {
        let mut out = Vec::new();
        ty::map_dims(t, &mut |d| {
            out.push(d.clone());
            d.clone()
        });
        out
    };
    let (dp, db) = (dims(param), dims(body));
    if dp.len() != db.len() || dp.len() != fixed.len() {
        return None;
    }
    (0..dp.len()).find(|&i| fixed[i] && dp[i] != db[i]).map(|i| (dp[i].clone(), db[i].clone()))
}

/// `ty` (a record) with the field at `path` replaced by `new`.
fn replace_field(ty: &Ty, path: &[&str], new: &Ty) -> Option<Ty> {
    let Some((first, rest)) = path.split_first() else { return Some(new.clone()) };
    let Ty::Record(fs) = ty else { return None };
    let mut fs = fs.clone();
    let inner = replace_field(fs.get(*first)?, rest, new)?;
    fs.insert(first.to_string(), inner);
    Some(Ty::Record(fs))
}

fn strip_parens(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Parens(inner) => strip_parens(inner),
        _ => e,
    }
}

/// The span of an anonymous size `[]` in a parameter type of a function type
/// that a return type contains: in a return type `[]` means existential,
/// which a function parameter cannot be.
fn anon_in_returned_param(t: &TypeExp) -> Option<Span> {
    match t {
        TypeExp::Arrow { from, to, .. } => anonymous_size(from).or_else(|| anon_in_returned_param(to)),
        TypeExp::Tuple(items, _) => items.iter().find_map(anon_in_returned_param),
        TypeExp::Record(fs, _) => fs.iter().find_map(|(_, t)| anon_in_returned_param(t)),
        TypeExp::Existential(_, t, _) | TypeExp::Unique(t, _) => anon_in_returned_param(t),
        _ => None,
    }
}

/// The ascribed subpatterns (`p: t`) of a pattern, by node and span.
fn collect_ascriptions(p: &Pat, out: &mut Vec<(NodeId, Span)>) {
    match &p.kind {
        PatKind::Ascribe(q, _) => {
            out.push((p.id, p.span));
            collect_ascriptions(q, out);
        }
        PatKind::Tuple(ps) => ps.iter().for_each(|q| collect_ascriptions(q, out)),
        PatKind::Record(fs) => fs.iter().for_each(|(_, q)| collect_ascriptions(q, out)),
        PatKind::Constructor(_, ps) => ps.iter().for_each(|q| collect_ascriptions(q, out)),
        PatKind::Attr(_, q) => collect_ascriptions(q, out),
        _ => {}
    }
}

/// The span of the first anonymous size `[]` in a type expression.
fn anonymous_size(t: &TypeExp) -> Option<Span> {
    match t {
        TypeExp::Array(SizeExp::Anonymous(span), _, _) => Some(*span),
        TypeExp::Array(_, t, _) | TypeExp::Unique(t, _) | TypeExp::Existential(_, t, _) => anonymous_size(t),
        TypeExp::Tuple(items, _) => items.iter().find_map(anonymous_size),
        TypeExp::Record(fs, _) => fs.iter().find_map(|(_, t)| anonymous_size(t)),
        TypeExp::Arrow { from, to, .. } => anonymous_size(from).or_else(|| anonymous_size(to)),
        TypeExp::Sum(cs, _) => cs.iter().flat_map(|(_, ts)| ts).find_map(anonymous_size),
        TypeExp::Apply(f, a, _) => anonymous_size(f).or(match a.as_ref() {
            TypeArg::Type(t) => anonymous_size(t),
            TypeArg::Size(SizeExp::Anonymous(span)) => Some(*span),
            TypeArg::Size(_) => None,
        }),
        TypeExp::Var(_) => None,
    }
}

/// The unknown sizes of a type, each once, in order of appearance
/// (outermost dimension first).
/// The name a pattern binds if it is one name (possibly ascribed).
fn single_var(p: &Pat) -> Option<NodeId> {
    match &p.kind {
        PatKind::Var(_) => Some(p.id),
        PatKind::Ascribe(inner, _) | PatKind::Attr(_, inner) => single_var(inner),
        _ => None,
    }
}

/// Where the pattern type `pt` has one of the size names `ids` and the
/// value's type `vt` an existential size, that size is the name.
fn name_unknowns(pt: &Ty, vt: &Ty, ids: &[NodeId], out: &mut HashMap<u32, NodeId>) {
    match (pt, vt) {
        (Ty::Array(pe, ps), Ty::Array(ve, vs)) => {
            for (p, v) in ps.iter().zip(vs) {
                if let (Some(id), Dim::Unknown(u)) = (p.as_var(), v) {
                    if ids.contains(&id) {
                        out.entry(*u).or_insert(id);
                    }
                }
            }
            if ps.len() == vs.len() {
                name_unknowns(pe, ve, ids, out);
            }
        }
        (Ty::Record(pf), Ty::Record(vf)) => {
            for (k, p) in pf {
                if let Some(v) = vf.get(k) {
                    name_unknowns(p, v, ids, out);
                }
            }
        }
        (Ty::Sum(pc), Ty::Sum(vc)) => {
            for (k, ps) in pc {
                if let Some(vs) = vc.get(k) {
                    for (p, v) in ps.iter().zip(vs) {
                        name_unknowns(p, v, ids, out);
                    }
                }
            }
        }
        _ => {}
    }
}

/// Whether a parameter or pattern type has an existential size other than
/// at the top of the result of a function type (`f: a -> ?[k].[k]b` is fine).
fn existential_outside_results(t: &TypeExp) -> bool {
    match t {
        TypeExp::Arrow { from, to, .. } => {
            let to = match &**to {
                TypeExp::Existential(_, inner, _) => inner,
                other => other,
            };
            existential_outside_results(from) || existential_outside_results(to)
        }
        TypeExp::Tuple(items, _) => items.iter().any(existential_outside_results),
        TypeExp::Record(fs, _) => fs.iter().any(|(_, t)| existential_outside_results(t)),
        TypeExp::Array(_, t, _) | TypeExp::Unique(t, _) => existential_outside_results(t),
        other => contains_existential(other),
    }
}

/// Whether pattern `p` binds a variable `name`.
fn pat_binds(p: &Pat, name: &str) -> bool {
    match &p.kind {
        PatKind::Var(n) => n.text == name,
        PatKind::Tuple(ps) | PatKind::Constructor(_, ps) => ps.iter().any(|q| pat_binds(q, name)),
        PatKind::Record(fs) => fs.iter().any(|(_, q)| pat_binds(q, name)),
        PatKind::Ascribe(q, _) | PatKind::Attr(_, q) => pat_binds(q, name),
        PatKind::Wildcard | PatKind::Literal(_) => false,
    }
}

/// Whether the type annotations in pattern `p` use the size `name` at all,
/// and whether they use it outside function types.
fn size_use_in_pat(p: &Pat, name: &str) -> (bool, bool) {
    match &p.kind {
        PatKind::Ascribe(q, te) => {
            let (a, b) = size_use_in_type(te, name, false);
            let (c, d) = size_use_in_pat(q, name);
            (a || c, b || d)
        }
        PatKind::Tuple(ps) | PatKind::Constructor(_, ps) => {
            ps.iter().map(|q| size_use_in_pat(q, name)).fold((false, false), |x, y| (x.0 || y.0, x.1 || y.1))
        }
        PatKind::Record(fs) => {
            fs.iter().map(|(_, q)| size_use_in_pat(q, name)).fold((false, false), |x, y| (x.0 || y.0, x.1 || y.1))
        }
        PatKind::Attr(_, q) => size_use_in_pat(q, name),
        PatKind::Var(_) | PatKind::Wildcard | PatKind::Literal(_) => (false, false),
    }
}

/// As `size_use_in_pat`, for a type expression; `in_fun` is set below an arrow.
fn size_use_in_type(t: &TypeExp, name: &str, in_fun: bool) -> (bool, bool) {
    let or = |x: (bool, bool), y: (bool, bool)| (x.0 || y.0, x.1 || y.1);
    let size = |s: &SizeExp| match s {
        SizeExp::Expr(e) => {
            let hit = matches!(&strip_parens(e).kind, ExprKind::Var(q) if q.quals.is_empty() && q.name == name);
            (hit, hit && !in_fun)
        }
        SizeExp::Anonymous(_) => (false, false),
    };
    match t {
        TypeExp::Var(_) => (false, false),
        TypeExp::Array(s, t, _) => or(size(s), size_use_in_type(t, name, in_fun)),
        TypeExp::Unique(t, _) | TypeExp::Existential(_, t, _) => size_use_in_type(t, name, in_fun),
        TypeExp::Tuple(items, _) => items.iter().map(|t| size_use_in_type(t, name, in_fun)).fold((false, false), or),
        TypeExp::Record(fs, _) => fs.iter().map(|(_, t)| size_use_in_type(t, name, in_fun)).fold((false, false), or),
        TypeExp::Sum(cs, _) => {
            cs.iter().flat_map(|(_, ts)| ts).map(|t| size_use_in_type(t, name, in_fun)).fold((false, false), or)
        }
        TypeExp::Arrow { from, to, .. } => or(size_use_in_type(from, name, true), size_use_in_type(to, name, true)),
        TypeExp::Apply(f, a, _) => or(
            size_use_in_type(f, name, in_fun),
            match a.as_ref() {
                TypeArg::Type(t) => size_use_in_type(t, name, in_fun),
                TypeArg::Size(s) => size(s),
            },
        ),
    }
}

/// The names bound by the existential quantifiers `?[n].` inside `t`.
fn existential_names(t: &TypeExp) -> Vec<String> {
    fn go(t: &TypeExp, out: &mut Vec<String>) {
        match t {
            TypeExp::Existential(bs, t, _) => {
                out.extend(bs.iter().map(|b| b.name.text.clone()));
                go(t, out);
            }
            TypeExp::Tuple(items, _) => items.iter().for_each(|t| go(t, out)),
            TypeExp::Record(fs, _) => fs.iter().for_each(|(_, t)| go(t, out)),
            TypeExp::Array(_, t, _) | TypeExp::Unique(t, _) => go(t, out),
            TypeExp::Arrow { from, to, .. } => {
                go(from, out);
                go(to, out);
            }
            TypeExp::Sum(cs, _) => cs.iter().flat_map(|(_, ts)| ts).for_each(|t| go(t, out)),
            TypeExp::Apply(f, a, _) => {
                go(f, out);
                if let TypeArg::Type(t) = a.as_ref() {
                    go(t, out);
                }
            }
            TypeExp::Var(_) => {}
        }
    }
    let mut out = Vec::new();
    go(t, &mut out);
    out
}

fn contains_existential(t: &TypeExp) -> bool {
    match t {
        TypeExp::Existential(..) => true,
        TypeExp::Tuple(items, _) => items.iter().any(contains_existential),
        TypeExp::Record(fs, _) => fs.iter().any(|(_, t)| contains_existential(t)),
        TypeExp::Array(_, t, _) | TypeExp::Unique(t, _) => contains_existential(t),
        TypeExp::Arrow { from, to, .. } => contains_existential(from) || contains_existential(to),
        TypeExp::Sum(cs, _) => cs.iter().flat_map(|(_, ts)| ts).any(contains_existential),
        TypeExp::Apply(f, a, _) => {
            contains_existential(f) || matches!(a.as_ref(), TypeArg::Type(t) if contains_existential(t))
        }
        TypeExp::Var(_) => false,
    }
}
