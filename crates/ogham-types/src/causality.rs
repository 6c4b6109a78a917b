//! Futhark's causality restriction: a size must be computed before a value
//! whose type needs it is constructed. Also the scope rules for names in
//! sizes and types that Futhark enforces with levels: a parameter's type
//! may not mention a later parameter (`check_param_scope`), and a local
//! function's type parameters and parameter names may not escape into the
//! types of variables bound outside it (`check_escape`).
//!
//! Inference records which expression computes each unknown size it
//! creates (`Pending::unknown_sources`: the existential sizes of a
//! function's result at the use of the function, sizes of arguments that
//! are not size expressions at the application, branches whose sizes
//! differ, loop-variant sizes, slices, ranges, sizes going out of scope).
//! Once the definition's types are final, this pass walks its body in
//! Futhark's evaluation order, keeping the set of sizes computed so far,
//! and rejects the first construct that needs one that is not yet known:
//! a variable or section whose parameter types mention it, the parameters
//! of a lambda, an empty array literal, a hole, or a sum constructor (which
//! must know the sizes of its other constructors' payloads).
//!
//! The order is Futhark's: a `let`'s value before its body, a function's
//! arguments last to first and then the function, the left operand of an
//! operator before the right and both before the operator, a constructor's
//! payload left to right, a `match`'s scrutinee before its cases. Sizes
//! computed inside a function's body are not known outside it, except
//! those in the type of an application's result, which the application
//! computes (an existential result). Unknown sizes not listed (declared
//! existentials, rigid sizes of parameters) are always known.

use ogham_syntax::ast::{DimIndex, Expr, ExprKind, LoopForm, NodeId, Pat, PatKind, RecordField, TypeParam};
use ogham_syntax::{Diagnostic, Span};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::checker::Checker;
use crate::ty::{self, Constraint, Dim, Ty};

/// The names a pattern binds, with their binder ids.
fn pat_binders(p: &Pat, out: &mut Vec<(NodeId, String)>) {
    match &p.kind {
        PatKind::Var(name) => out.push((p.id, name.text.clone())),
        PatKind::Wildcard | PatKind::Literal(_) => {}
        PatKind::Tuple(items) | PatKind::Constructor(_, items) => items.iter().for_each(|q| pat_binders(q, out)),
        PatKind::Record(fields) => fields.iter().for_each(|(_, q)| pat_binders(q, out)),
        PatKind::Ascribe(q, _) | PatKind::Attr(_, q) => pat_binders(q, out),
    }
}

/// Futhark's scope rule for parameters: the type of a parameter may not
/// mention a name that a later parameter binds (it is not in scope when the
/// earlier parameter is introduced), as when `def f xs n = zip xs (iota n)`
/// infers `xs: [n]a`. `fun_ty` is the function's type, its arrows in the
/// order of `params`.
pub(crate) fn check_param_scope(c: &mut Checker, params: &[Pat], fun_ty: &Ty) {
    let fun_ty = c.store.resolve(fun_ty);
    let mut from = Vec::new();
    let mut t = &fun_ty;
    for _ in params {
        let Ty::Arrow(a) = t else { return };
        from.push(&a.from);
        t = &a.to;
    }
    let mut later: Vec<(NodeId, String)> = Vec::new();
    for (i, p) in params.iter().enumerate().rev() {
        let mut vars = Vec::new();
        ty::dim_vars(from[i], &mut vars);
        if let Some((_, name)) = later.iter().find(|(id, _)| vars.contains(id)) {
            let shown = c.show(from[i]);
            let mut own = Vec::new();
            pat_binders(p, &mut own);
            let what = own.first().map_or_else(|| "the parameter".to_string(), |(_, n)| format!("\"{n}\""));
            let name = name.clone();
            c.error(
                "scope-violation",
                p.span,
                format!(
                    "Cannot link the size of {what} (inferred as `{shown}`) to \"{name}\" (scope-violation): \"{name}\" is a later parameter, not in scope when {what} is introduced."
                ),
            );
            return;
        }
        pat_binders(p, &mut later);
    }
}

/// Futhark's levels: a local function's type parameters and the names its
/// parameters bind exist only inside it, so the type of a variable bound
/// outside it (in scope now) may not come to mention them, as when
/// `let g 'b (y: b) = if true then y else x` makes `x` of type `b`.
pub(crate) fn check_escape(c: &mut Checker, type_params: &[TypeParam], params: &[Pat]) {
    let mut inner: Vec<(NodeId, String)> = Vec::new();
    for tp in type_params {
        match tp {
            TypeParam::Size(b) | TypeParam::Type(b, _) => inner.push((b.id, b.name.text.clone())),
        }
    }
    for p in params {
        pat_binders(p, &mut inner);
    }
    if inner.is_empty() {
        return;
    }
    let mut hit = None;
    for l in c.locals.iter() {
        let t = c.store.resolve(&l.ty);
        let mut ids = Vec::new();
        mentioned(c, &t, &mut ids, 0);
        if let Some((_, name)) = inner.iter().find(|(id, _)| ids.contains(id)) {
            hit = Some((l.name.clone(), name.clone(), t));
            break;
        }
    }
    let Some((outer, name, t)) = hit else { return };
    let span = type_params
        .iter()
        .map(|tp| match tp {
            TypeParam::Size(b) | TypeParam::Type(b, _) => (b.name.text.clone(), b.name.span),
        })
        .find(|(n, _)| *n == name)
        .map(|(_, s)| s)
        .or_else(|| params.first().map(|p| p.span));
    let Some(span) = span else { return };
    let shown = c.show(&t);
    c.error(
        "scope-violation",
        span,
        format!(
            "Cannot unify \"{name}\" with the type of \"{outer}\", which is bound outside the scope of \"{name}\" (scope-violation): \"{outer}\" would have type `{shown}`."
        ),
    );
}

/// The type parameters and size variables a (resolved) type mentions,
/// also in the fields or constructors an unresolved variable must have.
fn mentioned(c: &Checker, t: &Ty, out: &mut Vec<NodeId>, depth: usize) {
    if depth > 64 {
        return;
    }
    ty::dim_vars(t, out);
    let mut vars = Vec::new();
    ty_parts(t, out, &mut vars);
    for v in vars {
        let parts: Vec<Ty> = match &c.store.var(v).constraint {
            Constraint::Record(fs) => fs.values().cloned().collect(),
            Constraint::Sum(cs) => cs.values().flatten().cloned().collect(),
            _ => Vec::new(),
        };
        for p in parts {
            let p = c.store.resolve(&p);
            mentioned(c, &p, out, depth + 1);
        }
    }
}

/// The type parameters of a resolved type, and its unresolved variables.
fn ty_parts(t: &Ty, out: &mut Vec<NodeId>, vars: &mut Vec<u32>) {
    match t {
        Ty::Param(id) => out.push(*id),
        Ty::Var(v) => vars.push(*v),
        Ty::Array(elem, _) => ty_parts(elem, out, vars),
        Ty::Record(fs) => fs.values().for_each(|t| ty_parts(t, out, vars)),
        Ty::Sum(cs) => cs.values().flatten().for_each(|t| ty_parts(t, out, vars)),
        Ty::Arrow(a) => {
            ty_parts(&a.from, out, vars);
            ty_parts(&a.to, out, vars);
        }
        Ty::Abstract(_, args) => args.iter().for_each(|t| ty_parts(t, out, vars)),
        _ => {}
    }
}

/// Checks the body of one top-level definition, after inference.
pub(crate) fn check_definition(c: &mut Checker, body: &Expr) {
    if c.pending.unknown_sources.is_empty() {
        return;
    }
    let mut by_node: HashMap<NodeId, Vec<u32>> = HashMap::default();
    for (u, node) in &c.pending.unknown_sources {
        by_node.entry(*node).or_default().push(*u);
    }
    let mut w = Walker { c, by_node, known: HashSet::default(), lambda_results: Vec::new(), error: None };
    w.exp(body);
    if let Some(d) = w.error {
        c.diags.push(d);
    }
}

struct Walker<'c> {
    c: &'c mut Checker,
    /// The unknown sizes each expression computes.
    by_node: HashMap<NodeId, Vec<u32>>,
    /// The tracked sizes computed so far on the current path.
    known: HashSet<u32>,
    /// The sizes the last lambda's body computed that occur in its result
    /// type (existential sizes of its result).
    lambda_results: Vec<u32>,
    error: Option<Diagnostic>,
}

/// Which sizes of a type a construct needs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Need {
    /// Every size of the type.
    Whole,
    /// The sizes of the parameters of a function (its results are
    /// existential sizes computed by the application), or every size of a
    /// value that is not a function.
    Params,
}

impl Walker<'_> {
    fn own(&self, node: NodeId) -> Vec<u32> {
        self.by_node.get(&node).cloned().unwrap_or_default()
    }

    fn resolved(&self, node: NodeId) -> Option<Ty> {
        self.c.pending.expr_types.get(&node).map(|t| self.c.store.resolve(t))
    }

    /// Runs `f` with `extra` known in addition.
    fn with_known<T>(&mut self, extra: &[u32], f: impl FnOnce(&mut Self) -> T) -> T {
        let added: Vec<u32> = extra.iter().copied().filter(|u| self.known.insert(*u)).collect();
        let out = f(self);
        for u in added {
            self.known.remove(&u);
        }
        out
    }

    /// Reports the first tracked size of `t` (the part `need` says) that is
    /// neither known nor computed by the construct itself (`own`).
    fn need(&mut self, what: &str, t: &Ty, need: Need, own: &[u32], span: Span) {
        if self.error.is_some() {
            return;
        }
        let mut sizes = Vec::new();
        match need {
            Need::Whole => unknowns(t, &mut sizes),
            Need::Params => {
                let mut t = t;
                if !matches!(t, Ty::Arrow(_)) {
                    unknowns(t, &mut sizes);
                }
                while let Ty::Arrow(a) = t {
                    unknowns(&a.from, &mut sizes);
                    t = &a.to;
                }
            }
        }
        let Some(u) = sizes
            .into_iter()
            .find(|u| !self.known.contains(u) && !own.contains(u) && self.c.pending.unknown_sources.contains_key(u))
        else {
            return;
        };
        let size = self.c.show_dim(&Dim::Unknown(u));
        let shown = self.c.show(t);
        let mut d = Diagnostic::error(
            "causality-check",
            span,
            format!(
                "Causality check: size \"{size}\" needed for type of {what}: `{shown}`. But \"{size}\" is computed later, by the expression noted below. Hint: bind the expression producing \"{size}\" with 'let' beforehand."
            ),
        );
        let source = self.c.pending.unknown_sources.get(&u).and_then(|n| self.c.pending.expr_spans.get(n));
        if let Some(at) = source {
            d = d.with_label(*at, format!("\"{size}\" is computed here"));
        }
        self.error = Some(d);
    }

    /// Walks children that Futhark does not order (all with the same known
    /// sizes); returns what they compute.
    fn unordered<'e>(&mut self, children: impl IntoIterator<Item = &'e Expr>) -> Vec<u32> {
        let mut out = Vec::new();
        for e in children {
            out.extend(self.exp(e));
        }
        out
    }

    /// Walks children in order, each knowing what the earlier ones computed.
    fn ordered<'e>(&mut self, children: impl IntoIterator<Item = &'e Expr>) -> Vec<u32> {
        let mut out: Vec<u32> = Vec::new();
        for e in children {
            let new = self.with_known(&out.clone(), |w| w.exp(e));
            out.extend(new);
        }
        out
    }

    fn index_children(idx: &[DimIndex]) -> Vec<&Expr> {
        let mut out = Vec::new();
        for i in idx {
            match i {
                DimIndex::Index(e) => out.push(e),
                DimIndex::Slice { start, end, stride } => out.extend([start, end, stride].into_iter().flatten()),
            }
        }
        out
    }

    /// The tracked sizes of the (resolved) type of `node`.
    fn sizes_of(&self, node: NodeId) -> Vec<u32> {
        let mut out = Vec::new();
        if let Some(t) = self.resolved(node) {
            unknowns(&t, &mut out);
        }
        out.retain(|u| self.c.pending.unknown_sources.contains_key(u));
        out
    }

    /// Checks `e`; returns the tracked sizes it computes.
    fn exp(&mut self, e: &Expr) -> Vec<u32> {
        if self.error.is_some() {
            return Vec::new();
        }
        let own = self.own(e.id);
        let mut out = match &e.kind {
            ExprKind::Literal(_) | ExprKind::OpSection(..) => Vec::new(),
            ExprKind::Var(q) => {
                if let Some(t) = self.resolved(e.id) {
                    self.need(&format!("\"{q}\""), &t, Need::Params, &own, e.span);
                }
                Vec::new()
            }
            ExprKind::Hole => {
                if let Some(t) = self.resolved(e.id) {
                    self.need("hole", &t, Need::Whole, &own, e.span);
                }
                Vec::new()
            }
            ExprKind::ArrayLit(items) if items.is_empty() => {
                if let Some(t) = self.resolved(e.id) {
                    self.need("empty array", &t, Need::Whole, &own, e.span);
                }
                Vec::new()
            }
            ExprKind::ProjectSection(_) => {
                if let Some(t) = self.resolved(e.id) {
                    self.need("projection section", &t, Need::Params, &own, e.span);
                }
                Vec::new()
            }
            ExprKind::IndexSection(idx) => {
                if let Some(t) = self.resolved(e.id) {
                    self.need("projection section", &t, Need::Params, &own, e.span);
                }
                let children = Self::index_children(idx);
                self.unordered(children)
            }
            ExprKind::LeftSection { lhs: x, .. } | ExprKind::RightSection { rhs: x, .. } => {
                if let Some(t) = self.c.pending.op_types.get(&e.id).map(|t| self.c.store.resolve(t)) {
                    self.need("operator section", &t, Need::Params, &own, e.span);
                }
                self.exp(x)
            }
            ExprKind::Lambda { params, body, .. } => {
                if let Some(t) = self.resolved(e.id) {
                    let mut t = &t;
                    for p in params {
                        let Ty::Arrow(a) = t else { break };
                        self.need("lambda parameter", &a.from, Need::Whole, &own, p.span);
                        t = &a.to;
                    }
                }
                // What the body computes is not known outside it, but the
                // sizes of the result are existential: the function that
                // the lambda is passed to may have them in its type.
                let computed = self.exp(body);
                let mut results = Vec::new();
                if let Some(t) = self.resolved(e.id) {
                    let mut t = &t;
                    for _ in params {
                        let Ty::Arrow(a) = t else { break };
                        t = &a.to;
                    }
                    unknowns(t, &mut results);
                }
                results.retain(|u| computed.contains(u));
                self.lambda_results = results;
                Vec::new()
            }
            ExprKind::LetFun { value, body, .. } => {
                self.exp(value);
                self.exp(body)
            }
            ExprKind::Let { value, body, .. } => self.ordered([value.as_ref(), body.as_ref()]),
            ExprKind::Apply(f, args) => {
                let mut computed: Vec<u32> = Vec::new();
                let mut results: Vec<u32> = Vec::new();
                for arg in args.iter().rev() {
                    let new = self.with_known(&computed.clone(), |w| w.exp(arg));
                    computed.extend(new);
                    let mut bare = arg;
                    while let ExprKind::Parens(x) | ExprKind::Attr(_, x) = &bare.kind {
                        bare = x;
                    }
                    if matches!(bare.kind, ExprKind::Lambda { .. }) {
                        results.append(&mut self.lambda_results);
                    }
                }
                let mut for_f = computed.clone();
                for_f.extend(results);
                let by_f = self.with_known(&for_f, |w| w.exp(f));
                computed.extend(by_f);
                // The existential sizes of the result, also those of a
                // function whose body computes them, are computed here.
                computed.extend(self.sizes_of(e.id));
                computed
            }
            ExprKind::BinOp { op, lhs, rhs, .. } => {
                let mut computed = self.ordered([lhs.as_ref(), rhs.as_ref()]);
                if let Some(t) = self.c.pending.op_types.get(&e.id).map(|t| self.c.store.resolve(t)) {
                    let what = format!("\"{op}\"");
                    self.with_known(&computed.clone(), |w| w.need(&what, &t, Need::Params, &own, e.span));
                }
                computed.extend(self.sizes_of(e.id));
                computed
            }
            ExprKind::Constructor(name, args) => {
                let computed = self.ordered(args.iter());
                if let Some(t) = self.resolved(e.id) {
                    let what = format!("\"#{}\"", name.text);
                    self.with_known(&computed.clone(), |w| w.need(&what, &t, Need::Whole, &own, e.span));
                }
                computed
            }
            ExprKind::Match { scrutinee, cases } => {
                let mut computed = self.exp(scrutinee);
                let in_cases = self.with_known(&computed.clone(), |w| w.unordered(cases.iter().map(|c| &c.body)));
                computed.extend(in_cases);
                computed
            }
            ExprKind::Loop { init, form, body, .. } => {
                let mut computed = match init {
                    Some(i) => self.exp(i),
                    None => Vec::new(),
                };
                // The loop's own sizes (those of its parameters) and those
                // its initial value computed are known inside it.
                let known: Vec<u32> = own.iter().chain(&computed).copied().collect();
                let inside = self.with_known(&known, |w| {
                    let mut out = match form {
                        LoopForm::For { bound, .. } => w.exp(bound),
                        LoopForm::ForIn { array, .. } => w.exp(array),
                        LoopForm::While(cond) => w.exp(cond),
                    };
                    out.extend(w.exp(body));
                    out
                });
                computed.extend(inside);
                computed
            }
            ExprKind::Parens(x)
            | ExprKind::Attr(_, x)
            | ExprKind::Project(x, _)
            | ExprKind::Negate(x)
            | ExprKind::Not(x)
            | ExprKind::Ascribe(x, _)
            | ExprKind::Coerce(x, _)
            | ExprKind::OpenIn(_, x) => self.exp(x),
            ExprKind::Tuple(items) | ExprKind::ArrayLit(items) => self.unordered(items.iter()),
            ExprKind::Record(fields) => {
                let mut out = Vec::new();
                for f in fields {
                    match f {
                        RecordField::Explicit(_, x) => out.extend(self.exp(x)),
                        RecordField::Pun(name, id) => {
                            if let Some(t) = self.resolved(*id) {
                                let own = self.own(*id);
                                self.need(&format!("\"{}\"", name.text), &t, Need::Params, &own, name.span);
                            }
                        }
                    }
                }
                out
            }
            ExprKind::Range { start, second, end, .. } => {
                let children = std::iter::once(start.as_ref()).chain(second.as_deref()).chain([end.as_ref()]);
                self.unordered(children)
            }
            ExprKind::Index(arr, idx) => {
                let mut children = vec![arr.as_ref()];
                children.extend(Self::index_children(idx));
                self.unordered(children)
            }
            ExprKind::If { cond, then_branch, else_branch } => {
                self.unordered([cond.as_ref(), then_branch.as_ref(), else_branch.as_ref()])
            }
            ExprKind::Update { array, index, value } => {
                let mut children = vec![array.as_ref()];
                children.extend(Self::index_children(index));
                children.push(value.as_ref());
                self.unordered(children)
            }
            ExprKind::RecordUpdate { record, value, .. } => self.unordered([record.as_ref(), value.as_ref()]),
            ExprKind::Assert { cond, body } => self.unordered([cond.as_ref(), body.as_ref()]),
        };
        out.extend(own);
        out
    }
}

/// The unknown sizes of a type.
fn unknowns(t: &Ty, out: &mut Vec<u32>) {
    ty::for_each_dim(t, &mut |d| out.extend(d.unknowns()));
}
