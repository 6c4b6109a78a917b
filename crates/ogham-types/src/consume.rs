//! Consumption and aliasing ("uniqueness") checking, with Futhark's rules:
//! a separate pass over one top-level definition once its types are known.
//!
//! Every value is given an *alias type* ([`At`]): the shape of its type with,
//! at each array (or abstract, or function) component, the set of variables
//! that component may share memory with. Variables are locals (by binder
//! id), top-level definitions, and artificial names for the results of
//! applications and loops. An alias whose variable has gone out of scope is
//! kept, marked free, so that consuming one of two values that aliased the
//! same (now gone) variable still makes the other unusable.
//!
//! The pass reports: uses of consumed values (`use-after-consume`),
//! consumption of what may not be consumed (`not-consumable`), self-aliased
//! or overlapping arguments of consuming calls, consumption hidden in
//! function values (`contains-consumption`, `consuming-argument`), unique
//! results aliasing parameters, globals or each other, the loop-parameter
//! rules, and in-place updates whose value aliases the updated array. It
//! also infers whether a definition without a declared return type returns
//! a unique value. Only the first error of a definition is reported, as
//! Futhark does.

use rustc_hash::FxHashMap as HashMap;
use std::collections::{BTreeMap, BTreeSet};

use ogham_syntax::ast::{DimIndex, Expr, ExprKind, LoopForm, NodeId, Pat, PatKind, RecordField, SizeExp, TypeExp};
use ogham_syntax::{Diagnostic, Span};

use crate::checker::Checker;
use crate::info::{DefId, Resolution};
use crate::ty::{self, Ty};

/// Something a value may alias.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Var {
    Local(NodeId),
    Global(DefId),
    /// The result of an application or a loop (an index into `Pass::results`).
    Result(u32),
}

/// One alias: a variable (or a record field path of it), bound or out of scope.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Alias {
    free: bool,
    var: Var,
    path: Vec<String>,
}

type Als = BTreeSet<Alias>;

/// An alias type: a value's type shape with the aliases of each component.
#[derive(Clone, Debug)]
enum At {
    Prim,
    /// An array, or a value of an abstract type (`abstract`: a type
    /// parameter, which may stand for anything).
    Leaf(Als, bool),
    Rec(BTreeMap<String, At>),
    Sum(BTreeMap<String, Vec<At>>),
    /// A function value: what its closure aliases, and, when known better
    /// than its type says, whether its final result is unique.
    Fun(Als, Option<bool>),
}

impl At {
    fn from_ty(t: &Ty, als: &Als) -> At {
        match t {
            Ty::Prim(_) | Ty::Error => At::Prim,
            Ty::Array(..) => At::Leaf(als.clone(), false),
            Ty::Param(_) | Ty::Var(_) | Ty::Abstract(..) => At::Leaf(als.clone(), true),
            Ty::Record(fs) => At::Rec(fs.iter().map(|(k, t)| (k.clone(), At::from_ty(t, als))).collect()),
            Ty::Sum(cs) => At::Sum(
                cs.iter().map(|(k, ts)| (k.clone(), ts.iter().map(|t| At::from_ty(t, als)).collect())).collect(),
            ),
            Ty::Arrow(_) => At::Fun(als.clone(), None),
        }
    }

    /// Adds `var` (with the field path of each component) to every component.
    fn insert_self(&mut self, var: Var, path: &mut Vec<String>) {
        match self {
            At::Prim => {}
            At::Leaf(als, _) | At::Fun(als, _) => {
                als.insert(Alias { free: false, var, path: path.clone() });
            }
            At::Rec(fs) => {
                for (k, f) in fs.iter_mut() {
                    path.push(k.clone());
                    f.insert_self(var, path);
                    path.pop();
                }
            }
            At::Sum(cs) => cs.values_mut().flatten().for_each(|t| t.insert_self(var, path)),
        }
    }

    fn self_alias(var: Var, t: &Ty) -> At {
        let mut at = At::from_ty(t, &Als::new());
        at.insert_self(var, &mut Vec::new());
        at
    }

    fn collect(&self, out: &mut Als, functions: bool) {
        match self {
            At::Prim => {}
            At::Leaf(als, _) => out.extend(als.iter().cloned()),
            At::Fun(als, _) => {
                if functions {
                    out.extend(als.iter().cloned())
                }
            }
            At::Rec(fs) => fs.values().for_each(|f| f.collect(out, functions)),
            At::Sum(cs) => cs.values().flatten().for_each(|t| t.collect(out, functions)),
        }
    }

    fn aliases(&self) -> Als {
        let mut out = Als::new();
        self.collect(&mut out, true);
        out
    }

    /// The aliases of the array (not function) components.
    fn array_aliases(&self) -> Als {
        let mut out = Als::new();
        self.collect(&mut out, false);
        out
    }

    fn map_als(&self, f: &mut impl FnMut(&Als) -> Als) -> At {
        match self {
            At::Prim => At::Prim,
            At::Leaf(als, a) => At::Leaf(f(als), *a),
            At::Fun(als, u) => At::Fun(f(als), *u),
            At::Rec(fs) => At::Rec(fs.iter().map(|(k, t)| (k.clone(), t.map_als(f))).collect()),
            At::Sum(cs) => {
                At::Sum(cs.iter().map(|(k, ts)| (k.clone(), ts.iter().map(|t| t.map_als(f)).collect())).collect())
            }
        }
    }

    fn cleared(&self) -> At {
        self.map_als(&mut |_| Als::new())
    }

    /// Marks the aliases of the given variables as out of scope.
    fn unscope(&self, ids: &[NodeId]) -> At {
        self.map_als(&mut |als| {
            als.iter()
                .map(|a| match a.var {
                    Var::Local(id) if !a.free && ids.contains(&id) => Alias { free: true, ..a.clone() },
                    _ => a.clone(),
                })
                .collect()
        })
    }

    fn without(&self, vars: &HashMap<Var, Span>) -> At {
        self.map_als(&mut |als| als.iter().filter(|a| !vars.contains_key(&a.var)).cloned().collect())
    }

    fn with_added(&self, extra: &Als) -> At {
        self.map_als(&mut |als| als.union(extra).cloned().collect())
    }

    fn project(&self, field: &str) -> Option<At> {
        match self {
            At::Rec(fs) => fs.get(field).cloned(),
            _ => None,
        }
    }

    /// The alias sets of the components, records flattened.
    fn parts(&self, out: &mut Vec<Als>) {
        match self {
            At::Rec(fs) => fs.values().for_each(|f| f.parts(out)),
            other => out.push(other.aliases()),
        }
    }

    /// The aliases of two values one of which is the result (of a branch).
    fn combine(a: &At, b: &At) -> At {
        match (a, b) {
            (At::Prim, _) => At::Prim,
            (At::Leaf(x, abs), _) => At::Leaf(x.union(&b.aliases()).cloned().collect(), *abs),
            (_, At::Leaf(y, abs)) => At::Leaf(y.union(&a.aliases()).cloned().collect(), *abs),
            (At::Rec(f1), At::Rec(f2)) if f1.len() == f2.len() && f1.keys().all(|k| f2.contains_key(k)) => {
                At::Rec(f1.iter().map(|(k, t)| (k.clone(), At::combine(t, &f2[k]))).collect())
            }
            (At::Sum(c1), At::Sum(c2)) if c1.len() == c2.len() && c1.keys().all(|k| c2.contains_key(k)) => At::Sum(
                c1.iter()
                    .map(|(k, ts)| (k.clone(), ts.iter().zip(&c2[k]).map(|(x, y)| At::combine(x, y)).collect()))
                    .collect(),
            ),
            (At::Fun(x, u1), At::Fun(y, u2)) => At::Fun(
                x.union(y).cloned().collect(),
                match (u1, u2) {
                    (Some(p), Some(q)) => Some(*p && *q),
                    _ => None,
                },
            ),
            _ => a.with_added(&b.aliases()),
        }
    }

    /// How often each variable occurs in distinct components; an abstract
    /// component counts twice, as it may hold several arrays.
    fn occurrences(&self, out: &mut HashMap<Var, u32>) {
        match self {
            At::Rec(fs) => fs.values().for_each(|f| f.occurrences(out)),
            At::Leaf(als, true) => {
                for v in als.iter().map(|a| a.var).collect::<BTreeSet<_>>() {
                    *out.entry(v).or_default() += 2;
                }
            }
            other => {
                for v in other.aliases().iter().map(|a| a.var).collect::<BTreeSet<_>>() {
                    *out.entry(v).or_default() += 1;
                }
            }
        }
    }

    /// The components of a result, for inferring its uniqueness.
    fn leaves<'a>(&'a self, out: &mut Vec<&'a At>) {
        match self {
            At::Rec(fs) => fs.values().for_each(|f| f.leaves(out)),
            At::Sum(cs) => cs.values().flatten().for_each(|t| t.leaves(out)),
            other => out.push(other),
        }
    }
}

/// Uniqueness as written in a type expression: per record field, or for a whole value.
enum Uniq {
    Leaf(bool),
    Rec(BTreeMap<String, Uniq>),
}

impl Uniq {
    fn of(te: &TypeExp) -> Uniq {
        match te {
            TypeExp::Unique(..) => Uniq::Leaf(true),
            TypeExp::Tuple(items, _) if items.len() != 1 => {
                Uniq::Rec(items.iter().enumerate().map(|(i, t)| (i.to_string(), Uniq::of(t))).collect())
            }
            TypeExp::Tuple(items, _) => items.first().map(Uniq::of).unwrap_or(Uniq::Leaf(false)),
            TypeExp::Record(fs, _) => Uniq::Rec(fs.iter().map(|(n, t)| (n.text.clone(), Uniq::of(t))).collect()),
            TypeExp::Existential(_, t, _) => Uniq::of(t),
            _ => Uniq::Leaf(false),
        }
    }

    fn any(&self) -> bool {
        match self {
            Uniq::Leaf(u) => *u,
            Uniq::Rec(fs) => fs.values().any(Uniq::any),
        }
    }
}

/// Why a variable in scope may not be consumed.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Consumable,
    /// A parameter (of a function or loop) without a unique type.
    NonuniqueParam,
    /// A local function.
    Function,
}

struct Entry {
    id: NodeId,
    at: At,
    kind: Kind,
}

struct Pass<'a> {
    c: &'a Checker,
    vtable: Vec<Entry>,
    /// Entries below this index are bound outside the function or loop
    /// being checked, and so cannot be consumed.
    barrier: usize,
    consumed: HashMap<Var, Span>,
    diags: Vec<Diagnostic>,
    /// What each `Var::Result` is, and where.
    results: Vec<(String, Span)>,
    /// Every local observed, in order (to find what an expression uses).
    observed: Vec<NodeId>,
}

/// The outcome for one definition: its first consumption error, if any, and
/// whether its result is unique.
pub struct Outcome {
    pub error: Option<Diagnostic>,
    pub ret_unique: bool,
}

/// Checks one top-level definition (`params`, declared return type `ret`, `body`).
pub fn check_definition(c: &Checker, params: &[Pat], ret: Option<&TypeExp>, body: &Expr, span: Span) -> Outcome {
    let mut pass = Pass {
        c,
        vtable: Vec::new(),
        barrier: 0,
        consumed: HashMap::default(),
        diags: Vec::new(),
        results: Vec::new(),
        observed: Vec::new(),
    };
    if let Some(r) = ret.filter(|r| params.is_empty() && Uniq::of(r).any()) {
        pass.error("unique-constant", r.span(), "A top-level constant cannot have a unique type.");
    }
    let ret_unique = match pass.function(params, ret, body, span) {
        At::Fun(_, Some(u)) => u,
        _ => false,
    };
    let ret_unique = if params.is_empty() { false } else { ret_unique };
    Outcome { error: pass.diags.into_iter().next(), ret_unique }
}

/// Whether a type has no function components.
fn order_zero(t: &Ty) -> bool {
    !ty::contains_arrow(t)
}

fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Parens(x) | ExprKind::Attr(_, x) => strip(x),
        _ => e,
    }
}

/// The variables a pattern binds, with the diet (consuming or not) fixed by
/// a type ascription above them (`None` where no ascription says).
fn pat_vars(p: &Pat, fixed: Option<bool>, out: &mut Vec<(NodeId, Option<bool>)>) {
    match &p.kind {
        PatKind::Var(_) => out.push((p.id, fixed)),
        PatKind::Wildcard | PatKind::Literal(_) => {}
        PatKind::Tuple(ps) | PatKind::Constructor(_, ps) => ps.iter().for_each(|q| pat_vars(q, fixed, out)),
        PatKind::Record(fs) => fs.iter().for_each(|(_, q)| pat_vars(q, fixed, out)),
        PatKind::Attr(_, q) => pat_vars(q, fixed, out),
        PatKind::Ascribe(q, te) => {
            let mut inner = Vec::new();
            pat_uniq(q, &Uniq::of(te), &mut inner);
            for (id, u) in inner {
                out.push((id, Some(fixed.unwrap_or(false) || u)));
            }
        }
    }
}

/// Distributes the uniqueness of a type ascription over the variables of a pattern.
fn pat_uniq(p: &Pat, u: &Uniq, out: &mut Vec<(NodeId, bool)>) {
    match (&p.kind, u) {
        (PatKind::Var(_), u) => out.push((p.id, u.any())),
        (PatKind::Tuple(ps), Uniq::Rec(fs)) => {
            for (i, q) in ps.iter().enumerate() {
                pat_uniq(q, fs.get(&i.to_string()).unwrap_or(&Uniq::Leaf(false)), out);
            }
        }
        (PatKind::Record(ps), Uniq::Rec(fs)) => {
            for (n, q) in ps {
                pat_uniq(q, fs.get(&n.text).unwrap_or(&Uniq::Leaf(false)), out);
            }
        }
        (PatKind::Ascribe(q, te), u) => {
            let inner = Uniq::of(te);
            let mut vs = Vec::new();
            pat_uniq(q, &inner, &mut vs);
            out.extend(vs.into_iter().map(|(id, b)| (id, b || matches!(u, Uniq::Leaf(true)))));
        }
        (PatKind::Attr(_, q), u) => pat_uniq(q, u, out),
        (PatKind::Tuple(ps) | PatKind::Constructor(_, ps), u) => ps.iter().for_each(|q| pat_uniq(q, u, out)),
        (PatKind::Record(ps), u) => ps.iter().for_each(|(_, q)| pat_uniq(q, u, out)),
        (PatKind::Wildcard | PatKind::Literal(_), _) => {}
    }
}

/// The diet of each part of a loop parameter pattern.
enum Diet {
    Leaf(bool),
    Rec(BTreeMap<String, Diet>),
}

impl Diet {
    fn of(p: &Pat, diets: &HashMap<NodeId, bool>) -> Diet {
        match &p.kind {
            PatKind::Var(_) => Diet::Leaf(diets.get(&p.id).copied().unwrap_or(false)),
            PatKind::Tuple(ps) => {
                Diet::Rec(ps.iter().enumerate().map(|(i, q)| (i.to_string(), Diet::of(q, diets))).collect())
            }
            PatKind::Record(fs) => Diet::Rec(fs.iter().map(|(n, q)| (n.text.clone(), Diet::of(q, diets))).collect()),
            PatKind::Ascribe(q, _) | PatKind::Attr(_, q) => Diet::of(q, diets),
            _ => Diet::Leaf(false),
        }
    }

    fn any(&self) -> bool {
        match self {
            Diet::Leaf(d) => *d,
            Diet::Rec(fs) => fs.values().any(Diet::any),
        }
    }
}

impl Pass<'_> {
    // ------------------------------------------------------------ lookups

    fn ty_of(&self, e: &Expr) -> Ty {
        self.c.pending.expr_types.get(&e.id).map(|t| self.c.store.resolve(t)).unwrap_or(Ty::Error)
    }

    fn binding_ty(&self, id: NodeId) -> Ty {
        self.c.pending.binding_types.get(&id).map(|t| self.c.store.resolve(t)).unwrap_or(Ty::Error)
    }

    fn entry(&self, id: NodeId) -> Option<(usize, &Entry)> {
        self.vtable.iter().enumerate().rev().find(|(_, e)| e.id == id)
    }

    fn local_name(&self, id: NodeId) -> String {
        self.c.names.get(&id).cloned().unwrap_or_else(|| "?".to_string())
    }

    fn global_name(&self, d: DefId) -> String {
        let full = self.c.info.defs.get(d.0 as usize).map(|i| i.name.as_str()).unwrap_or("?");
        full.rsplit('.').next().unwrap_or(full).to_string()
    }

    fn var_name(&self, v: Var) -> String {
        match v {
            Var::Local(id) => self.local_name(id),
            Var::Global(d) => self.global_name(d),
            Var::Result(i) => self.results.get(i as usize).map(|r| r.0.clone()).unwrap_or_default(),
        }
    }

    /// `variable "x"`, or what an artificial name stands for.
    fn describe(&self, v: Var) -> String {
        match v {
            Var::Result(i) => self.results.get(i as usize).map(|r| r.0.clone()).unwrap_or_default(),
            _ => format!("variable \"{}\"", self.var_name(v)),
        }
    }

    fn new_result(&mut self, what: String, span: Span) -> Var {
        self.results.push((what, span));
        Var::Result(self.results.len() as u32 - 1)
    }

    fn error(&mut self, name: &'static str, span: Span, message: impl Into<String>) {
        self.diags.push(Diagnostic::error(name, span, message));
    }

    /// Consumption that happened since `before`.
    fn consumed_since(&self, before: &HashMap<Var, Span>) -> HashMap<Var, Span> {
        self.consumed.iter().filter(|(v, _)| !before.contains_key(v)).map(|(v, s)| (*v, *s)).collect()
    }

    // -------------------------------------------------------- consumption

    /// Reports a use of something consumed; `used` is the variable written, if any.
    fn check_if_consumed(&mut self, span: Span, als: &Als, used: Option<NodeId>) {
        let mut hits: Vec<(Var, Span)> = Vec::new();
        for a in als {
            if let Some(at) = self.consumed.get(&a.var) {
                if !hits.iter().any(|(v, _)| *v == a.var) {
                    hits.push((a.var, *at));
                }
            }
        }
        let Some(&(first, at)) = hits.first() else { return };
        let message = match used {
            Some(id) => {
                let through: Vec<String> =
                    hits.iter().filter(|(v, _)| *v != Var::Local(id)).map(|(v, _)| self.describe(*v)).collect();
                let via =
                    if through.is_empty() { String::new() } else { format!(", which aliases {}", through.join(", ")) };
                format!(
                    "Using variable \"{}\"{via}, but this was consumed.  (Possibly through aliases.)",
                    self.local_name(id)
                )
            }
            None => format!("Using {}, but this was consumed.  (Possibly through aliases.)", self.describe(first)),
        };
        let mut d = Diagnostic::error("use-after-consume", span, message).with_label(at, "consumed here");
        for (v, _) in &hits {
            if let Var::Result(i) = v {
                if let Some((what, s)) = self.results.get(*i as usize) {
                    d = d.with_label(*s, what.clone());
                }
            }
        }
        self.diags.push(d);
    }

    /// Consumes `als` at `span`, reporting what may not be consumed.
    fn consume(&mut self, span: Span, als: &Als) {
        for a in als.iter().filter(|a| !a.free) {
            let why = match a.var {
                Var::Global(_) => Some(" It is a top-level definition; consume a `copy` of it."),
                Var::Local(id) => match self.entry(id) {
                    None => Some(""),
                    Some((i, e)) => match e.kind {
                        Kind::NonuniqueParam => Some(" Declare the parameter with a unique type (`*t`)."),
                        Kind::Function => Some(""),
                        Kind::Consumable if i < self.barrier => {
                            Some(" It is bound outside the function or loop that consumes it.")
                        }
                        Kind::Consumable => None,
                    },
                },
                Var::Result(_) => None,
            };
            if let Some(why) = why {
                let what = self.describe(a.var);
                self.error("not-consumable", span, format!("Consuming {what}, which is not consumable.{why}"));
            }
        }
        self.check_if_consumed(span, als, None);
        for a in als {
            self.consumed.entry(a.var).or_insert(span);
        }
    }

    fn no_self_aliases(&mut self, span: Span, at: &At) {
        let mut parts = Vec::new();
        at.parts(&mut parts);
        let mut seen = Als::new();
        for p in parts {
            if p.iter().any(|a| seen.contains(a)) {
                self.error("self-aliasing-arg", span, "Argument passed for consuming parameter is self-aliased.");
                return;
            }
            seen.extend(p);
        }
    }

    // ---------------------------------------------------------- variables

    /// The alias type of a global of type `t`: its arrays alias it, unless
    /// it is size-polymorphic (then each use is a fresh instance).
    fn global_at(&self, d: DefId, t: &Ty, path: &mut Vec<String>) -> At {
        let poly = self.c.globals.get(d.0 as usize).is_some_and(|g| !g.scheme.size_params.is_empty());
        if poly {
            return At::from_ty(t, &Als::new());
        }
        match t {
            Ty::Array(..) => {
                At::Leaf(Als::from([Alias { free: false, var: Var::Global(d), path: path.clone() }]), false)
            }
            Ty::Record(fs) => At::Rec(
                fs.iter()
                    .map(|(k, t)| {
                        path.push(k.clone());
                        let at = self.global_at(d, t, path);
                        path.pop();
                        (k.clone(), at)
                    })
                    .collect(),
            ),
            Ty::Sum(cs) => At::Sum(
                cs.iter().map(|(k, ts)| (k.clone(), ts.iter().map(|t| self.global_at(d, t, path)).collect())).collect(),
            ),
            other => At::from_ty(other, &Als::new()),
        }
    }

    fn resolved_at(&mut self, res: Option<&Resolution>, t: &Ty, span: Span) -> At {
        match res {
            Some(Resolution::Local(id)) => {
                let id = *id;
                let Some((_, e)) = self.entry(id) else { return At::from_ty(t, &Als::new()) };
                let at = e.at.clone();
                self.observed.push(id);
                self.check_if_consumed(span, &at.aliases(), Some(id));
                at
            }
            Some(Resolution::Def(d)) => {
                let at = self.global_at(*d, t, &mut Vec::new());
                self.check_if_consumed(span, &at.aliases(), None);
                at
            }
            Some(Resolution::Projection { head, fields }) => {
                match head.as_ref() {
                    Resolution::Def(d) => {
                        let mut path = fields.clone();
                        let at = self.global_at(*d, t, &mut path);
                        self.check_if_consumed(span, &at.aliases(), None);
                        at
                    }
                    Resolution::Local(_) => {
                        // The head's type is not at hand: project its alias type.
                        let mut at = self.resolved_at(Some(head), &Ty::Error, span);
                        for f in fields {
                            at = match at.project(f) {
                                Some(x) => x,
                                None => At::from_ty(t, &at.aliases()),
                            };
                        }
                        at
                    }
                    _ => At::from_ty(t, &Als::new()),
                }
            }
            _ => At::from_ty(t, &Als::new()),
        }
    }

    fn observe(&mut self, node: NodeId, t: &Ty, span: Span) -> At {
        let res = self.c.info.resolutions.get(&node).cloned();
        self.resolved_at(res.as_ref(), t, span)
    }

    // ----------------------------------------------------------- bindings

    fn bind(&mut self, id: NodeId, at: At, kind: Kind) {
        self.vtable.push(Entry { id, at, kind });
    }

    /// Binds the variables of `p` to the parts of a value with alias type `at`.
    fn bind_pat(&mut self, p: &Pat, at: &At, bound: &mut Vec<NodeId>) {
        match (&p.kind, at) {
            (PatKind::Var(_), _) => {
                let mut at = at.clone();
                at.insert_self(Var::Local(p.id), &mut Vec::new());
                self.bind(p.id, at, Kind::Consumable);
                bound.push(p.id);
            }
            (PatKind::Ascribe(q, _) | PatKind::Attr(_, q), _) => self.bind_pat(q, at, bound),
            (PatKind::Tuple(ps), At::Rec(fs)) if fs.len() == ps.len() => {
                for (i, q) in ps.iter().enumerate() {
                    let part = fs.get(&i.to_string()).cloned().unwrap_or(At::Prim);
                    self.bind_pat(q, &part, bound);
                }
            }
            (PatKind::Record(ps), At::Rec(fs)) => {
                for (n, q) in ps {
                    let part = fs.get(&n.text).cloned().unwrap_or(At::Prim);
                    self.bind_pat(q, &part, bound);
                }
            }
            (PatKind::Constructor(n, ps), At::Sum(cs)) if cs.get(&n.text).is_some_and(|ts| ts.len() == ps.len()) => {
                for (q, part) in ps.iter().zip(cs[&n.text].clone()) {
                    self.bind_pat(q, &part, bound);
                }
            }
            (PatKind::Wildcard | PatKind::Literal(_), _) => {}
            _ => {
                // The shapes differ (an abstract value taken apart): every
                // variable may alias all of it.
                let all = at.aliases();
                let mut vars = Vec::new();
                pat_vars(p, None, &mut vars);
                for (id, _) in vars {
                    let mut part = At::from_ty(&self.binding_ty(id), &all);
                    part.insert_self(Var::Local(id), &mut Vec::new());
                    self.bind(id, part, Kind::Consumable);
                    bound.push(id);
                }
            }
        }
    }

    /// Checks the size expressions in the type ascriptions of a parameter
    /// pattern; nothing may be consumed there.
    fn param_sizes(&mut self, p: &Pat) {
        match &p.kind {
            PatKind::Ascribe(q, te) => {
                self.param_sizes(q);
                self.type_sizes(te);
            }
            PatKind::Tuple(ps) | PatKind::Constructor(_, ps) => ps.iter().for_each(|q| self.param_sizes(q)),
            PatKind::Record(fs) => fs.iter().for_each(|(_, q)| self.param_sizes(q)),
            PatKind::Attr(_, q) => self.param_sizes(q),
            PatKind::Var(_) | PatKind::Wildcard | PatKind::Literal(_) => {}
        }
    }

    fn type_sizes(&mut self, te: &TypeExp) {
        match te {
            TypeExp::Array(size, inner, _) => {
                if let SizeExp::Expr(e) = size {
                    if self.c.pending.expr_types.contains_key(&e.id) {
                        self.expr(e);
                    }
                }
                self.type_sizes(inner);
            }
            TypeExp::Tuple(ts, _) => ts.iter().for_each(|t| self.type_sizes(t)),
            TypeExp::Record(fs, _) => fs.iter().for_each(|(_, t)| self.type_sizes(t)),
            TypeExp::Unique(t, _) | TypeExp::Existential(_, t, _) => self.type_sizes(t),
            TypeExp::Arrow { from, to, .. } => {
                self.type_sizes(from);
                self.type_sizes(to);
            }
            _ => {}
        }
    }

    // ---------------------------------------------------------- functions

    /// Checks a function (top-level, local, or anonymous) and returns its
    /// alias type: what its closure aliases, and whether its result is unique.
    fn function(&mut self, params: &[Pat], ret: Option<&TypeExp>, body: &Expr, span: Span) -> At {
        let saved_barrier = self.barrier;
        let scope = self.vtable.len();
        self.barrier = scope;
        let mut param_vars: Vec<(NodeId, bool)> = Vec::new();
        for p in params {
            // Size expressions see the earlier parameters, none consumable.
            self.barrier = self.vtable.len();
            self.param_sizes(p);
            self.barrier = scope;
            let mut vars = Vec::new();
            pat_vars(p, None, &mut vars);
            for (id, diet) in vars {
                let diet = diet.unwrap_or(false);
                let at = At::self_alias(Var::Local(id), &self.binding_ty(id));
                self.bind(id, at, if diet { Kind::Consumable } else { Kind::NonuniqueParam });
                param_vars.push((id, diet));
            }
        }
        let before = self.consumed.clone();
        let start = self.observed.len();
        let body_at = self.expr(body);
        // What the body consumed can only be the parameters.
        self.consumed = before;
        if let Some(ret) = ret {
            self.check_return_alias(span, &param_vars, &Uniq::of(ret), &body_at);
        }
        if !params.is_empty() {
            self.check_global_aliases(span, &body_at);
        }
        let ret_unique = match ret {
            Some(r) => crate::expr::is_unique_type_exp(r),
            None => !params.is_empty() && infer_unique(&param_vars, &body_at),
        };
        let mut closure = Als::new();
        let mut seen = BTreeSet::new();
        for id in self.observed[start..].iter().copied() {
            if seen.insert(id) {
                if let Some((_, e)) = self.entry(id) {
                    closure.extend(e.at.aliases());
                }
            }
        }
        self.vtable.truncate(scope);
        self.barrier = saved_barrier;
        let ids: Vec<NodeId> = param_vars.iter().map(|(id, _)| *id).collect();
        At::Fun(closure, Some(ret_unique)).unscope(&ids)
    }

    fn check_return_alias(&mut self, span: Span, params: &[(NodeId, bool)], ret: &Uniq, body: &At) {
        let mut pairs = Vec::new();
        return_parts(ret, body, &mut pairs);
        let mut seen: Vec<(bool, Alias)> = Vec::new();
        for (unique, als) in pairs {
            if unique {
                if als.iter().any(|a| seen.iter().any(|(_, s)| s == a)) {
                    self.unique_return_aliased(span);
                }
                for (id, diet) in params {
                    let consumable = *diet || !ty::may_alias(&self.binding_ty(*id));
                    if !consumable && als.iter().any(|a| a.var == Var::Local(*id)) {
                        let name = self.local_name(*id);
                        self.error(
                            "return-aliased",
                            span,
                            format!("Unique-typed return value is aliased to \"{name}\", which is not consumable."),
                        );
                        break;
                    }
                }
            } else if als.iter().any(|a| seen.iter().any(|(u, s)| *u && s == a)) {
                self.unique_return_aliased(span);
            }
            seen.extend(als.into_iter().map(|a| (unique, a)));
        }
    }

    fn unique_return_aliased(&mut self, span: Span) {
        self.error(
            "unique-return-aliased",
            span,
            "A unique-typed component of the return value is aliased to some other component.",
        );
    }

    fn check_global_aliases(&mut self, span: Span, body: &At) {
        if self.c.in_checked_functor() {
            return;
        }
        for a in body.array_aliases() {
            if let (false, Var::Global(d)) = (a.free, a.var) {
                let name = self.global_name(d);
                self.error(
                    "alias-free-variable",
                    span,
                    format!(
                        "Function result aliases the free variable \"{name}\".  Use \"copy\" to break the aliasing."
                    ),
                );
                return;
            }
        }
    }

    // -------------------------------------------------------- expressions

    fn expr(&mut self, e: &Expr) -> At {
        let none = Als::new;
        match &e.kind {
            ExprKind::Literal(_) | ExprKind::Hole | ExprKind::ProjectSection(_) => At::from_ty(&self.ty_of(e), &none()),
            ExprKind::Var(q) => {
                let t = self.ty_of(e);
                self.observe(e.id, &t, q.span)
            }
            ExprKind::Parens(x) | ExprKind::Attr(_, x) | ExprKind::OpenIn(_, x) => self.expr(x),
            ExprKind::Ascribe(x, _) | ExprKind::Coerce(x, _) => self.expr(x),
            ExprKind::Tuple(items) => {
                if items.len() == 1 {
                    return self.expr(&items[0]);
                }
                At::Rec(items.iter().enumerate().map(|(i, x)| (i.to_string(), self.expr(x))).collect())
            }
            ExprKind::Record(fields) => {
                let mut out = BTreeMap::new();
                for f in fields {
                    match f {
                        RecordField::Explicit(n, x) => {
                            let at = self.expr(x);
                            out.insert(n.text.clone(), at);
                        }
                        RecordField::Pun(n, id) => {
                            let t =
                                self.c.pending.expr_types.get(id).map(|t| self.c.store.resolve(t)).unwrap_or(Ty::Error);
                            let at = self.observe(*id, &t, n.span);
                            out.insert(n.text.clone(), at);
                        }
                    }
                }
                At::Rec(out)
            }
            ExprKind::ArrayLit(items) => {
                for i in items {
                    self.expr(i);
                }
                At::from_ty(&self.ty_of(e), &none())
            }
            ExprKind::Range { start, second, end, .. } => {
                self.expr(start);
                if let Some(s) = second {
                    self.expr(s);
                }
                self.expr(end);
                At::from_ty(&self.ty_of(e), &none())
            }
            ExprKind::Project(x, f) => {
                let at = self.expr(x);
                at.project(&f.text).unwrap_or_else(|| At::from_ty(&self.ty_of(e), &at.aliases()))
            }
            ExprKind::Index(x, idx) => {
                let at = self.expr(x);
                self.indices(idx);
                At::from_ty(&self.ty_of(e), &at.aliases())
            }
            ExprKind::IndexSection(idx) => {
                self.indices(idx);
                At::from_ty(&self.ty_of(e), &none())
            }
            ExprKind::Apply(f, args) => {
                let fat = self.expr(f);
                let ft = self.ty_of(f);
                let fname = match &strip(f).kind {
                    ExprKind::Var(q) => Some(q.name.clone()),
                    _ => None,
                };
                let args: Vec<&Expr> = args.iter().collect();
                let rt = self.ty_of(e);
                self.apply(fat, &ft, fname, &args, true, e.span, &rt)
            }
            ExprKind::BinOp { op, lhs, rhs, .. } => {
                let res = self.c.info.resolutions.get(&e.id).cloned();
                let rt = self.ty_of(e);
                match &res {
                    Some(Resolution::Def(d)) if op.quals.is_empty() && self.is_prelude_pipe(*d, &op.name) => {
                        // `x |> f` is `f x`.
                        let (f, x) = if op.name == "|>" { (rhs, lhs) } else { (lhs, rhs) };
                        let fat = self.expr(f);
                        let ft = self.ty_of(f);
                        self.apply(fat, &ft, None, &[x.as_ref()], false, e.span, &rt)
                    }
                    Some(Resolution::Def(d)) => {
                        let ft = self.c.globals.get(d.0 as usize).map(|g| g.scheme.ty.clone()).unwrap_or(Ty::Error);
                        let fat = At::Fun(none(), None);
                        self.apply(fat, &ft, Some(op.name.clone()), &[lhs.as_ref(), rhs.as_ref()], false, e.span, &rt)
                    }
                    Some(Resolution::Local(id)) => {
                        let ft = self.binding_ty(*id);
                        let fat = self.observe(e.id, &ft, op.span);
                        self.apply(fat, &ft, Some(op.name.clone()), &[lhs.as_ref(), rhs.as_ref()], false, e.span, &rt)
                    }
                    _ => {
                        self.expr(lhs);
                        self.expr(rhs);
                        At::from_ty(&rt, &none())
                    }
                }
            }
            ExprKind::Negate(x) | ExprKind::Not(x) => {
                self.expr(x);
                At::from_ty(&self.ty_of(e), &none())
            }
            ExprKind::OpSection(op, _) => {
                let t = self.ty_of(e);
                self.observe(e.id, &t, op.span)
            }
            ExprKind::LeftSection { op, lhs: x, .. } | ExprKind::RightSection { op, rhs: x, .. } => {
                let t = self.ty_of(e);
                let op_at = self.observe(e.id, &t, op.span);
                let x_at = self.expr(x);
                let mut als = op_at.aliases();
                als.extend(x_at.aliases());
                At::Fun(als, None)
            }
            ExprKind::If { cond, then_branch, else_branch } => {
                self.expr(cond);
                let before = self.consumed.clone();
                let ta = self.expr(then_branch);
                let then_cons = self.consumed_since(&before);
                self.consumed = before.clone();
                let ea = self.expr(else_branch);
                let mut all = self.consumed_since(&before);
                for (v, s) in then_cons {
                    all.entry(v).or_insert(s);
                }
                let result = At::combine(&ta, &ea).without(&all);
                self.consumed = before;
                self.consumed.extend(all);
                result
            }
            ExprKind::Match { scrutinee, cases } => {
                let sa = self.expr(scrutinee);
                let before = self.consumed.clone();
                let mut all: HashMap<Var, Span> = HashMap::default();
                let mut result: Option<At> = None;
                for case in cases {
                    self.consumed = before.clone();
                    let scope = self.vtable.len();
                    let mut bound = Vec::new();
                    self.bind_pat(&case.pat, &sa, &mut bound);
                    let b = self.expr(&case.body).unscope(&bound);
                    self.vtable.truncate(scope);
                    for (v, s) in self.consumed_since(&before) {
                        all.entry(v).or_insert(s);
                    }
                    result = Some(match result {
                        None => b,
                        Some(r) => At::combine(&r, &b),
                    });
                }
                self.consumed = before;
                let result = result.unwrap_or_else(|| At::from_ty(&self.ty_of(e), &none())).without(&all);
                self.consumed.extend(all);
                result
            }
            ExprKind::Let { pat, value, body, .. } => {
                let before = self.consumed.clone();
                let va = self.expr(value);
                let vt = self.ty_of(value);
                if !order_zero(&vt) && !self.consumed_since(&before).is_empty() {
                    let shown = ty::show_ty(&vt, &self.c.names);
                    self.error(
                        "contains-consumption",
                        value.span,
                        format!("Let-bound expression of higher-order type `{shown}` contains consumption, which is not allowed."),
                    );
                }
                let scope = self.vtable.len();
                let mut bound = Vec::new();
                self.bind_pat(pat, &va, &mut bound);
                let r = self.expr(body);
                self.vtable.truncate(scope);
                r.unscope(&bound)
            }
            ExprKind::LetFun { name, params, ret, value, body, .. } => {
                let fat = self.function(params, ret.as_ref(), value, name.name.span);
                self.bind(name.id, fat, Kind::Function);
                let r = self.expr(body);
                self.vtable.pop();
                r
            }
            ExprKind::Lambda { params, ret, body } => self.function(params, ret.as_ref(), body, e.span),
            ExprKind::Update { array, index, value } if self.is_path_update(array, value) => {
                // `a with [i][j] = v` is `a with [i] = (a[i] with [j] = v)`:
                // the value updates part of `a` in place, and the whole
                // then consumes what is left of `a`.
                self.indices(index);
                let sa = self.expr(array);
                let before = self.consumed.clone();
                self.expr(value);
                let gone = self.consumed_since(&before);
                let rest: Als = sa.aliases().into_iter().filter(|a| !gone.contains_key(&a.var)).collect();
                self.consume(e.span, &rest);
                sa.cleared()
            }
            ExprKind::Update { array, index, value } => {
                self.indices(index);
                let va = self.expr(value);
                let sa = self.expr(array);
                let src = sa.aliases();
                if va.aliases().iter().any(|a| src.contains(a)) {
                    self.error(
                        "in-place-alias",
                        value.span,
                        "Source array for in-place update might alias update value.  Hint: use \"copy\" to remove aliases from the value.",
                    );
                }
                self.consume(e.span, &src);
                sa.cleared()
            }
            ExprKind::RecordUpdate { record, fields, value } => {
                let before = self.consumed.clone();
                let ra = self.expr(record);
                let va = self.expr(value);
                // `r with a[i] = v` is `r with a = (r.a with [i] = v)`: what
                // the value consumed, the result does not alias.
                let gone = self.consumed_since(&before);
                update_path(&ra, fields.iter().map(|f| f.text.as_str()).collect::<Vec<_>>().as_slice(), &va)
                    .without(&gone)
            }
            ExprKind::Loop { pat, init, form, body } => self.loop_expr(e, pat, init.as_deref(), form, body),
            ExprKind::Assert { cond, body } => {
                self.expr(cond);
                self.expr(body)
            }
            ExprKind::Constructor(name, args) => {
                let ats: Vec<At> = args.iter().map(|a| self.expr(a)).collect();
                match self.ty_of(e) {
                    Ty::Sum(cs) => {
                        let mut out: BTreeMap<String, Vec<At>> = cs
                            .iter()
                            .map(|(k, ts)| (k.clone(), ts.iter().map(|t| At::from_ty(t, &none())).collect()))
                            .collect();
                        out.insert(name.text.clone(), ats);
                        At::Sum(out)
                    }
                    t => {
                        let mut all = Als::new();
                        ats.iter().for_each(|a| all.extend(a.aliases()));
                        At::from_ty(&t, &all)
                    }
                }
            }
        }
    }

    /// The local variable an access path (`x`, `x[i]`, `x.a[i]`) starts at.
    fn path_root(&self, e: &Expr) -> Option<NodeId> {
        match &e.kind {
            ExprKind::Parens(x) | ExprKind::Index(x, _) | ExprKind::Project(x, _) => self.path_root(x),
            ExprKind::Var(_) => match self.c.info.resolutions.get(&e.id)? {
                Resolution::Local(id) => Some(*id),
                Resolution::Projection { head, .. } => match head.as_ref() {
                    Resolution::Local(id) => Some(*id),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether `array with [...] = value` is one step of a longer update
    /// path: `value` updates a part of the same variable.
    fn is_path_update(&self, array: &Expr, value: &Expr) -> bool {
        let target = match &strip(value).kind {
            ExprKind::Update { array: t, .. } | ExprKind::RecordUpdate { record: t, .. } => t,
            _ => return false,
        };
        let root = match &strip(array).kind {
            ExprKind::Var(_) => self.path_root(array),
            _ => None,
        };
        root.is_some() && !matches!(strip(target).kind, ExprKind::Var(_)) && self.path_root(target) == root
    }

    fn indices(&mut self, idx: &[DimIndex]) {
        for d in idx {
            match d {
                DimIndex::Index(x) => {
                    self.expr(x);
                }
                DimIndex::Slice { start, end, stride } => {
                    for x in [start, end, stride].into_iter().flatten() {
                        self.expr(x);
                    }
                }
            }
        }
    }

    fn is_prelude_pipe(&self, d: DefId, name: &str) -> bool {
        (name == "|>" || name == "<|")
            && self
                .c
                .info
                .defs
                .get(d.0 as usize)
                .is_some_and(|i| matches!(i.loc, crate::info::DefLoc::File { file_index: 0, .. }))
    }

    /// Checks one argument for a parameter that consumes it (or not);
    /// `earlier` are the arguments checked before it.
    fn arg(&mut self, earlier: &[(At, Span)], consumes: bool, e: &Expr) -> At {
        let before = self.consumed.clone();
        let at = self.expr(e);
        let t = self.ty_of(e);
        if !order_zero(&t) && !self.consumed_since(&before).is_empty() {
            let shown = ty::show_ty(&t, &self.c.names);
            self.error(
                "consuming-argument",
                e.span,
                format!("Argument of functional type `{shown}` contains consumption, which is not allowed."),
            );
        }
        if consumes {
            self.no_self_aliases(e.span, &at);
            self.consume(e.span, &at.aliases());
            let mine: BTreeSet<Var> = at.aliases().iter().filter(|a| !a.free).map(|a| a.var).collect();
            for (other, span) in earlier {
                if let Some(v) = other.aliases().iter().find(|a| !a.free && mine.contains(&a.var)) {
                    let what = self.describe(v.var);
                    let d = Diagnostic::error(
                        "consuming-argument",
                        e.span,
                        format!("Argument is consumed, but aliases {what}, which is also aliased by another argument."),
                    )
                    .with_label(*span, "the other argument");
                    self.diags.push(d);
                    break;
                }
            }
        }
        at
    }

    /// Applies a function value (alias type `fat`, type `ft`) to arguments.
    /// Futhark checks the arguments of an application right to left, and
    /// the operands of an operator left to right.
    #[allow(clippy::too_many_arguments)]
    fn apply(
        &mut self,
        fat: At,
        ft: &Ty,
        fname: Option<String>,
        args: &[&Expr],
        right_to_left: bool,
        span: Span,
        result_ty: &Ty,
    ) -> At {
        // The diet of each parameter and the function type after each argument.
        let mut steps: Vec<(bool, Option<Ty>, bool)> = Vec::new();
        let mut t = ft.clone();
        for _ in args {
            match self.c.store.resolve(&t) {
                Ty::Arrow(a) => {
                    let to = self.c.store.resolve(&a.to);
                    steps.push((a.consumes, Some(to.clone()), a.ret_unique));
                    t = to;
                }
                _ => {
                    steps.push((false, None, false));
                    t = Ty::Error;
                }
            }
        }
        let n = args.len();
        let order: Vec<usize> = if right_to_left { (0..n).rev().collect() } else { (0..n).collect() };
        let mut checked: Vec<Option<(At, Span)>> = vec![None; n];
        for i in order {
            let earlier: Vec<(At, Span)> = checked.iter().flatten().cloned().collect();
            let at = self.arg(&earlier, steps[i].0, args[i]);
            checked[i] = Some((at, args[i].span));
        }
        let what = match &fname {
            Some(f) => format!("result of applying \"{f}\""),
            None => "result of application".to_string(),
        };
        let v = self.new_result(what, span);
        let (mut closure, override_unique) = match &fat {
            At::Fun(als, u) => (als.clone(), *u),
            other => (other.aliases(), None),
        };
        closure.insert(Alias { free: true, var: v, path: Vec::new() });
        for (i, (consumes, to, ret_unique)) in steps.into_iter().enumerate() {
            let arg = checked[i].as_ref().map(|(a, _)| a.aliases()).unwrap_or_default();
            if !consumes {
                closure.extend(arg);
            }
            match to {
                Some(Ty::Arrow(_)) if i + 1 < n => {}
                Some(Ty::Arrow(_)) => return At::Fun(closure, override_unique),
                Some(to) => {
                    let unique = override_unique.unwrap_or(ret_unique);
                    return if unique { At::from_ty(&to, &Als::new()) } else { At::from_ty(&to, &closure) };
                }
                None => {
                    for (a, _) in checked[i + 1..].iter().flatten() {
                        closure.extend(a.aliases());
                    }
                    return At::from_ty(result_ty, &closure);
                }
            }
        }
        At::from_ty(result_ty, &closure)
    }

    // -------------------------------------------------------------- loops

    fn loop_expr(&mut self, e: &Expr, pat: &Pat, init: Option<&Expr>, form: &LoopForm, body: &Expr) -> At {
        match form {
            LoopForm::For { bound, .. } => {
                self.expr(bound);
            }
            LoopForm::ForIn { array, .. } => {
                self.expr(array);
            }
            LoopForm::While(_) => {}
        }
        let mut vars = Vec::new();
        pat_vars(pat, None, &mut vars);
        let ids: Vec<NodeId> = vars.iter().map(|(id, _)| *id).collect();

        // The body, with every parameter not declared otherwise consumable.
        let saved_barrier = self.barrier;
        let scope = self.vtable.len();
        self.barrier = scope;
        for (id, fixed) in &vars {
            let at = At::self_alias(Var::Local(*id), &self.binding_ty(*id));
            self.bind(*id, at, if fixed.unwrap_or(true) { Kind::Consumable } else { Kind::NonuniqueParam });
        }
        let mut form_ids = Vec::new();
        match form {
            LoopForm::For { var, .. } | LoopForm::ForIn { pat: var, .. } => {
                let mut vs = Vec::new();
                pat_vars(var, None, &mut vs);
                for (id, _) in vs {
                    let at = At::self_alias(Var::Local(id), &self.binding_ty(id));
                    self.bind(id, at, Kind::NonuniqueParam);
                    form_ids.push(id);
                }
            }
            LoopForm::While(_) => {}
        }
        let cond_start = self.observed.len();
        if let LoopForm::While(cond) = form {
            self.expr(cond);
        }
        let body_start = self.observed.len();
        let before = self.consumed.clone();
        let body_at = self.expr(body);
        let body_end = self.observed.len();
        let body_cons: BTreeSet<Var> = self.consumed_since(&before).into_keys().collect();
        self.consumed = before;
        self.vtable.truncate(scope);
        self.barrier = saved_barrier;
        let mut all_ids = ids.clone();
        all_ids.extend(&form_ids);
        let body_at = body_at.unscope(&all_ids);

        // Which parameters are consumed: those consumed in the body, and
        // those whose new value aliases a consumed one, until nothing changes.
        let mut cons_vars = body_cons;
        let mut diets: HashMap<NodeId, bool> = HashMap::default();
        for _ in 0..=vars.len() + 1 {
            diets = vars
                .iter()
                .map(|(id, fixed)| (*id, fixed.unwrap_or_else(|| cons_vars.contains(&Var::Local(*id)))))
                .collect();
            let mut state = (Als::new(), Als::new());
            self.merge_return(e.span, pat, &body_at, &diets, &ids, &mut state);
            let before = cons_vars.len();
            cons_vars.extend(state.0.iter().map(|a| a.var));
            if cons_vars.len() == before {
                break;
            }
        }
        let diet = Diet::of(pat, &diets);

        // The initial value, consumed where the parameters are.
        let before = self.consumed.clone();
        let init_at = match init {
            Some(i) => self.expr(i),
            None => self.implicit_init(pat),
        };
        let init_span = init.map(|i| i.span).unwrap_or(pat.span);
        if diet.any() {
            self.no_self_aliases(init_span, &init_at);
            let mut als = Als::new();
            consumed_parts(&diet, &init_at, &mut als);
            self.consume(init_span, &als);
        }
        let arg_cons = self.consumed_since(&before);

        // Nothing the loop uses may alias what its initial value consumed.
        let check_free = |pass: &mut Pass, range: std::ops::Range<usize>, what: &str| {
            let mut seen = BTreeSet::new();
            for id in pass.observed[range].iter().copied() {
                if !seen.insert(id) {
                    continue;
                }
                let Some((_, entry)) = pass.entry(id) else { continue };
                if entry.at.aliases().iter().any(|a| !a.free && arg_cons.contains_key(&a.var)) {
                    let name = pass.local_name(id);
                    pass.error(
                        "use-after-consume",
                        e.span,
                        format!("{what} uses variable \"{name}\" (or an alias), but this is consumed by the initial loop argument."),
                    );
                    return;
                }
            }
        };
        check_free(self, body_start..body_end, "Loop body");
        if let LoopForm::While(_) = form {
            check_free(self, cond_start..body_start, "Loop condition");
        }

        let v = self.new_result("result of loop".to_string(), e.span);
        let fresh = Als::from([Alias { free: true, var: v, path: Vec::new() }]);
        let loop_at = self.loop_result(pat, &diets, &init_at, &fresh);
        At::combine(&loop_at, &body_at)
    }

    /// Checks the values the body returns for the loop parameters (Futhark's
    /// rules): a consumed parameter's new value may not alias anything bound
    /// outside the loop, nor any value returned for an earlier parameter,
    /// and no value may alias one returned for a consumed parameter.
    /// `state` is (aliases returned for consumed parameters, for the others).
    fn merge_return(
        &mut self,
        span: Span,
        p: &Pat,
        at: &At,
        diets: &HashMap<NodeId, bool>,
        params: &[NodeId],
        state: &mut (Als, Als),
    ) {
        match (&p.kind, at) {
            (PatKind::Var(_), _) => {
                let consumed = diets.get(&p.id).copied().unwrap_or(false);
                let name = self.local_name(p.id);
                let als = at.aliases();
                if consumed {
                    let outside: Vec<Var> = als
                        .iter()
                        .filter(|a| !a.free && !matches!(a.var, Var::Local(id) if params.contains(&id)))
                        .map(|a| a.var)
                        .collect();
                    if let Some(v) = outside.first() {
                        let other = self.var_name(*v);
                        self.error(
                            "consuming-loop-param-aliases",
                            span,
                            format!("Return value for consuming loop parameter \"{name}\" aliases \"{other}\" (consuming-loop-param-aliases)."),
                        );
                    }
                }
                if als.iter().any(|a| state.0.contains(a)) {
                    self.error(
                        "loop-parameter-aliases-other",
                        span,
                        format!("Return value for loop parameter \"{name}\" aliases other consumed loop parameter (loop-parameter-aliases-other)."),
                    );
                }
                if consumed && als.iter().any(|a| state.0.contains(a) || state.1.contains(a)) {
                    self.error(
                        "aliases-previously-returned",
                        span,
                        format!(
                            "Return value for consuming loop parameter \"{name}\" aliases previously returned value."
                        ),
                    );
                }
                if consumed {
                    state.0.extend(als);
                } else {
                    state.1.extend(als);
                }
            }
            (PatKind::Ascribe(q, _) | PatKind::Attr(_, q), _) => self.merge_return(span, q, at, diets, params, state),
            (PatKind::Tuple(ps), At::Rec(fs)) => {
                for (i, q) in ps.iter().enumerate() {
                    if let Some(part) = fs.get(&i.to_string()) {
                        self.merge_return(span, q, part, diets, params, state);
                    }
                }
            }
            (PatKind::Record(ps), At::Rec(fs)) => {
                let mut sorted: Vec<&(ogham_syntax::ast::Name, Pat)> = ps.iter().collect();
                sorted.sort_by(|a, b| a.0.text.cmp(&b.0.text));
                for (n, q) in sorted {
                    if let Some(part) = fs.get(&n.text) {
                        self.merge_return(span, q, part, diets, params, state);
                    }
                }
            }
            _ => {}
        }
    }

    /// `loop p for ...`: the initial value is the variables of `p` in scope.
    fn implicit_init(&mut self, p: &Pat) -> At {
        match &p.kind {
            PatKind::Var(name) => {
                let t = self.binding_ty(p.id);
                self.observe(p.id, &t, name.span)
            }
            PatKind::Tuple(ps) if ps.len() != 1 => {
                At::Rec(ps.iter().enumerate().map(|(i, q)| (i.to_string(), self.implicit_init(q))).collect())
            }
            PatKind::Tuple(ps) => ps.first().map(|q| self.implicit_init(q)).unwrap_or(At::Prim),
            PatKind::Record(fs) => At::Rec(fs.iter().map(|(n, q)| (n.text.clone(), self.implicit_init(q))).collect()),
            PatKind::Ascribe(q, _) | PatKind::Attr(_, q) => self.implicit_init(q),
            _ => At::Prim,
        }
    }

    /// What a loop's result aliases through its parameters: nothing for a
    /// consumed one, its initial value and the loop itself for the others.
    fn loop_result(&self, p: &Pat, diets: &HashMap<NodeId, bool>, init: &At, fresh: &Als) -> At {
        match (&p.kind, init) {
            (PatKind::Var(_), _) => {
                let t = self.binding_ty(p.id);
                if diets.get(&p.id).copied().unwrap_or(false) {
                    At::from_ty(&t, &Als::new())
                } else {
                    At::from_ty(&t, &init.aliases().union(fresh).cloned().collect())
                }
            }
            (PatKind::Ascribe(q, _) | PatKind::Attr(_, q), _) => self.loop_result(q, diets, init, fresh),
            (PatKind::Tuple(ps), At::Rec(fs)) if ps.len() == fs.len() => At::Rec(
                ps.iter()
                    .enumerate()
                    .map(|(i, q)| {
                        let part = fs.get(&i.to_string()).cloned().unwrap_or(At::Prim);
                        (i.to_string(), self.loop_result(q, diets, &part, fresh))
                    })
                    .collect(),
            ),
            (PatKind::Record(ps), At::Rec(fs)) => At::Rec(
                ps.iter()
                    .map(|(n, q)| {
                        let part = fs.get(&n.text).cloned().unwrap_or(At::Prim);
                        (n.text.clone(), self.loop_result(q, diets, &part, fresh))
                    })
                    .collect(),
            ),
            _ => {
                let t = self.binding_ty(p.id);
                At::from_ty(&t, &init.aliases().union(fresh).cloned().collect())
            }
        }
    }
}

/// The aliases of the parts of `at` that a consuming diet consumes.
fn consumed_parts(diet: &Diet, at: &At, out: &mut Als) {
    match (diet, at) {
        (Diet::Rec(ds), At::Rec(fs)) => {
            for (k, d) in ds {
                if let Some(part) = fs.get(k) {
                    consumed_parts(d, part, out);
                }
            }
        }
        (d, at) => {
            if d.any() {
                out.extend(at.aliases());
            }
        }
    }
}

/// The (uniqueness, aliases) of each component of a returned value, by the
/// declared return type's record structure.
fn return_parts(ret: &Uniq, at: &At, out: &mut Vec<(bool, Als)>) {
    match (ret, at) {
        (Uniq::Rec(us), At::Rec(fs)) => {
            for (k, u) in us {
                if let Some(part) = fs.get(k) {
                    return_parts(u, part, out);
                }
            }
        }
        (u, at) => out.push((u.any(), at.aliases())),
    }
}

/// `r with a.b = v`: the record's aliases with those of the field replaced.
fn update_path(r: &At, fields: &[&str], v: &At) -> At {
    match (fields.split_first(), r) {
        (None, _) => v.clone(),
        (Some((f, rest)), At::Rec(fs)) => {
            let mut fs = fs.clone();
            if let Some(part) = fs.get(*f).cloned() {
                fs.insert(f.to_string(), update_path(&part, rest, v));
            }
            At::Rec(fs)
        }
        _ => At::combine(r, v),
    }
}

/// Whether a function's result is unique: every component aliases only
/// consumed parameters (or nothing in scope), and no variable is shared
/// between components.
fn infer_unique(params: &[(NodeId, bool)], body: &At) -> bool {
    let mut counts = HashMap::default();
    body.occurrences(&mut counts);
    let mut leaves = Vec::new();
    body.leaves(&mut leaves);
    leaves.iter().all(|leaf| {
        leaf.array_aliases()
            .iter()
            .filter(|a| !a.free)
            .all(|a| matches!(a.var, Var::Local(id) if params.iter().any(|(p, d)| *p == id && *d)))
            && leaf.aliases().iter().all(|a| counts.get(&a.var).copied().unwrap_or(0) <= 1)
    })
}

/// Records the inferred uniqueness of a definition's result in its type
/// (the arrow of its last parameter), so that callers may consume it.
pub fn set_ret_unique(t: &mut Ty, nparams: usize, unique: bool) {
    let mut t = t;
    for i in 0..nparams {
        let Ty::Arrow(a) = t else { return };
        if i + 1 == nparams {
            if !matches!(a.to, Ty::Arrow(_)) {
                a.ret_unique = unique;
            }
            return;
        }
        t = &mut a.to;
    }
}
