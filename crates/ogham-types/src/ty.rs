//! The checker's internal type representation: types with unification
//! variables, size variables inside size polynomials, and the substitution
//! store that unification extends. Also the conversion to the public
//! [`Type`](crate::info::Type) and the Futhark-notation pretty-printer used
//! in error messages.
//!
//! Size unification variables are encoded as [`NodeId`]s in a reserved range
//! ([`SVAR_BASE`]..) so that they can live inside [`Poly`] terms and reuse its
//! normalisation; they never escape into `TypeInfo`.

use rustc_hash::FxHashMap as HashMap;
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use ogham_prim::PrimType;
use ogham_syntax::ast::NodeId;

use crate::info::Type;
use crate::size::{Poly, Size};

/// First id of the range that encodes size unification variables.
pub const SVAR_BASE: u32 = 0xC000_0000;
/// First id of the range used for synthetic binders (implicit type and size
/// parameters, parameters of intrinsic signatures).
pub const SYNTHETIC_BASE: u32 = 0xE000_0000;

/// First id of the range of opaque size variables: one per distinct
/// non-polynomial size expression (`n/2`, `i64.i32 k`), equal only to
/// itself. Lowering does not know them and computes such sizes from the
/// arrays, as for unknown sizes.
pub const OPAQUE_BASE: u32 = 0xB000_0000;

pub fn is_opaque(id: NodeId) -> bool {
    (OPAQUE_BASE..SVAR_BASE).contains(&id.0)
}

pub fn is_svar(id: NodeId) -> bool {
    (SVAR_BASE..SYNTHETIC_BASE).contains(&id.0)
}

pub use crate::size::{is_unknown_var, unknown_of, unknown_var};

/// One array dimension during inference.
///
/// Invariant: a polynomial that is exactly one existential size is written
/// `Unknown`, never `Poly` of its [`unknown_var`] (so that equal sizes are
/// equal values); larger polynomials may mention existential sizes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    Poly(Poly),
    /// A rigid size not known statically; equal only to itself.
    Unknown(u32),
}

impl Dim {
    pub fn var(id: NodeId) -> Dim {
        Dim::from_poly(Poly::var(id))
    }
    /// The dimension a polynomial denotes, in the canonical form.
    pub fn from_poly(p: Poly) -> Dim {
        match p.as_var().and_then(unknown_of) {
            Some(u) => Dim::Unknown(u),
            None => Dim::Poly(p),
        }
    }
    /// The dimension as a polynomial, an existential size as its variable.
    pub fn to_poly(&self) -> Cow<'_, Poly> {
        match self {
            Dim::Poly(p) => Cow::Borrowed(p),
            Dim::Unknown(u) => Cow::Owned(Poly::var(unknown_var(*u))),
        }
    }
    /// The existential sizes this dimension mentions.
    pub fn unknowns(&self) -> impl Iterator<Item = u32> + '_ {
        let (lone, poly) = match self {
            Dim::Unknown(u) => (Some(*u), None),
            Dim::Poly(p) => (None, Some(p)),
        };
        lone.into_iter().chain(poly.into_iter().flat_map(|p| p.vars().filter_map(unknown_of)))
    }
    /// Whether this dimension is or mentions an existential size.
    pub fn has_unknown(&self) -> bool {
        self.unknowns().next().is_some()
    }
    pub fn constant(c: i64) -> Dim {
        Dim::Poly(Poly::constant(c))
    }
    /// The variable this dimension is exactly, if it is one.
    pub fn as_var(&self) -> Option<NodeId> {
        match self {
            Dim::Poly(p) => p.as_var(),
            Dim::Unknown(_) => None,
        }
    }
}

/// A function type's parameter side.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrowTy {
    /// The named parameter whose value may occur in sizes of `to`.
    pub param: Option<NodeId>,
    pub from: Ty,
    pub to: Ty,
    /// The parameter is consuming (`*t`).
    pub consumes: bool,
    /// The result (when `to` is not itself a function) is unique (`*t`).
    pub ret_unique: bool,
}

/// A type during inference.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Prim(PrimType),
    /// Element type is never an array; shape outermost first, never empty.
    Array(Box<Ty>, Vec<Dim>),
    Record(BTreeMap<String, Ty>),
    Sum(BTreeMap<String, Vec<Ty>>),
    Arrow(Box<ArrowTy>),
    Param(NodeId),
    /// An abstract type of a module (`M.t` where `M : {type t}`, or a type
    /// of a functor's parameter), applied to its arguments: equal only to
    /// itself. Size arguments are encoded as `[d]()`. The checker keeps
    /// each one's definition (`Checker::abstract_defs`) and expands it when
    /// recording types in `TypeInfo`, so lowering never sees one.
    Abstract(NodeId, Vec<Ty>),
    Var(u32),
    /// The type of an erroneous expression; unifies with everything so that one error does not cascade.
    Error,
}

impl Ty {
    pub fn unit() -> Ty {
        Ty::Record(BTreeMap::new())
    }
    pub fn tuple(items: Vec<Ty>) -> Ty {
        if items.len() == 1 {
            return items.into_iter().next().unwrap_or(Ty::Error);
        }
        Ty::Record(items.into_iter().enumerate().map(|(i, t)| (i.to_string(), t)).collect())
    }
    pub fn arrow(from: Ty, to: Ty) -> Ty {
        Ty::Arrow(Box::new(ArrowTy { param: None, from, to, consumes: false, ret_unique: false }))
    }
    /// `[d]t`, flattening nested arrays so the element is never an array.
    pub fn array_of(elem: Ty, dim: Dim) -> Ty {
        match elem {
            Ty::Array(inner, mut shape) => {
                shape.insert(0, dim);
                Ty::Array(inner, shape)
            }
            other => Ty::Array(Box::new(other), vec![dim]),
        }
    }
    pub fn bool() -> Ty {
        Ty::Prim(PrimType::Bool)
    }
    pub fn i64() -> Ty {
        Ty::Prim(PrimType::I64)
    }
}

/// What is known about an unresolved type variable.
#[derive(Clone, Debug, PartialEq)]
pub enum Constraint {
    None,
    /// Any numeric type (integer literals, `+`).
    Num,
    /// Any integral type (`&`, `<<`).
    Int,
    /// Any signed integral type (array indices).
    SignedInt,
    /// Any float type (decimal literals).
    Float,
    /// Integral or bool (`!`, `&`, `|`, `^`).
    IntOrBool,
    /// Any primitive (`<`).
    Prim,
    /// Any non-function type (`==`).
    Eq,
    /// A record with at least these fields (projection on an unknown type).
    Record(BTreeMap<String, Ty>),
    /// A sum type with at least these constructors.
    Sum(BTreeMap<String, Vec<Ty>>),
}

impl Constraint {
    pub fn describe(&self) -> &'static str {
        match self {
            Constraint::None => "any type",
            Constraint::Num => "a numeric type",
            Constraint::Int => "an integral type",
            Constraint::SignedInt => "a signed integral type",
            Constraint::Float => "a floating-point type",
            Constraint::IntOrBool => "an integral type or bool",
            Constraint::Prim => "a primitive type",
            Constraint::Eq => "a type supporting equality",
            Constraint::Record(_) => "a record type",
            Constraint::Sum(_) => "a sum type",
        }
    }

    /// Whether a primitive type satisfies the constraint.
    pub fn allows_prim(&self, p: PrimType) -> bool {
        match self {
            Constraint::None | Constraint::Prim | Constraint::Eq => true,
            Constraint::Num => p.is_numeric(),
            Constraint::Int => p.is_int(),
            Constraint::SignedInt => p.is_signed_int(),
            Constraint::Float => p.is_float(),
            Constraint::IntOrBool => p.is_int() || p == PrimType::Bool,
            Constraint::Record(_) | Constraint::Sum(_) => false,
        }
    }
}

#[derive(Clone, Debug)]
pub struct VarInfo {
    pub binding: Option<Ty>,
    pub constraint: Constraint,
    /// Where the constraint came from, for messages.
    pub origin: ogham_syntax::Span,
}

/// The most nodes (primitive types, arrays, records, sums, functions,
/// parameters) a type may have once type abbreviations and variables are
/// expanded. Types in real programs have at most a few hundred; the limit
/// stops types that double at each abbreviation or polymorphic application
/// (`type t1 = (t0, t0)`, `def f1 x = f0 (f0 x)`) before they exhaust
/// memory (`type-too-large`).
pub const MAX_TYPE_SIZE: usize = 20_000;

/// The number of nodes of `ty` (variables not followed), or `cap + 1` if
/// there are more than `cap`; a type parameter counts as the size `params`
/// gives it (what it will be replaced by), else 1.
pub fn size_capped(ty: &Ty, params: &HashMap<NodeId, usize>, cap: usize) -> usize {
    fn go(ty: &Ty, params: &HashMap<NodeId, usize>, left: &mut usize) -> bool {
        let own = match ty {
            Ty::Param(p) => params.get(p).copied().unwrap_or(1),
            _ => 1,
        };
        if own > *left {
            *left = 0;
            return false;
        }
        *left -= own;
        match ty {
            Ty::Array(e, _) => go(e, params, left),
            Ty::Record(fs) => fs.values().all(|t| go(t, params, left)),
            Ty::Sum(cs) => cs.values().flatten().all(|t| go(t, params, left)),
            Ty::Arrow(a) => go(&a.from, params, left) && go(&a.to, params, left),
            Ty::Abstract(_, args) => args.iter().all(|t| go(t, params, left)),
            _ => true,
        }
    }
    let mut left = cap;
    if go(ty, params, &mut left) {
        cap - left
    } else {
        cap + 1
    }
}

/// The substitution built by unification, and the counters for fresh names.
///
/// Type variables form chains of variable-to-variable bindings (unifying
/// two variables binds the newer to the older); [`Store::shallow`]
/// remembers where each chain it followed ends, so that following a long
/// chain again costs one step. Changes can be undone back to a
/// [`Snapshot`] (a loop checked a second time with generalised sizes).
#[derive(Default, Debug)]
pub struct Store {
    vars: Vec<VarInfo>,
    svars: Vec<Option<Dim>>,
    pub next_unknown: u32,
    pub next_synthetic: u32,
    /// For each type variable, a variable its chain of bindings reaches
    /// (itself when none is known), valid while its epoch is `epoch`.
    shortcuts: Vec<Cell<(u32, u32)>>,
    /// Bumped when changes are undone: the links a shortcut skipped may be gone.
    epoch: u32,
    /// Variables that may have to be defaulted when the definition ends:
    /// those given a constraint other than `Constraint::None`.
    defaultable: Vec<u32>,
    /// The earlier states of what changed since the oldest open snapshot.
    trail: Vec<Undo>,
    open_snapshots: u32,
    /// Set when a type too large to resolve was met.
    too_large: Cell<bool>,
}

#[derive(Debug)]
enum Undo {
    Var(u32, VarInfo),
    Svar(u32, Option<Dim>),
}

/// A point [`Store::rollback`] can return to.
#[derive(Clone, Copy, Debug)]
pub struct Snapshot {
    vars: usize,
    svars: usize,
    trail: usize,
}

impl Store {
    pub fn fresh_var(&mut self, constraint: Constraint, origin: ogham_syntax::Span) -> Ty {
        let v = self.vars.len() as u32;
        if constraint != Constraint::None {
            self.defaultable.push(v);
        }
        self.vars.push(VarInfo { binding: None, constraint, origin });
        self.shortcuts.push(Cell::new((v, self.epoch)));
        Ty::Var(v)
    }
    pub fn fresh_svar(&mut self) -> Dim {
        self.svars.push(None);
        Dim::var(NodeId(SVAR_BASE + self.svars.len() as u32 - 1))
    }
    /// How many size variables have been created so far.
    pub fn svar_count(&self) -> usize {
        self.svars.len()
    }
    pub fn fresh_unknown(&mut self) -> Dim {
        self.next_unknown += 1;
        Dim::Unknown(self.next_unknown)
    }
    pub fn fresh_synthetic(&mut self) -> NodeId {
        self.next_synthetic += 1;
        NodeId(SYNTHETIC_BASE + self.next_synthetic)
    }

    /// What is known about type variable `v`.
    pub fn var(&self, v: u32) -> &VarInfo {
        &self.vars[v as usize]
    }

    fn save_var(&mut self, v: u32) {
        if self.open_snapshots > 0 {
            if let Some(info) = self.vars.get(v as usize) {
                self.trail.push(Undo::Var(v, info.clone()));
            }
        }
    }

    /// Binds type variable `v` (unbound, or a generalised or defaulted one).
    pub fn set_binding(&mut self, v: u32, ty: Ty) {
        self.save_var(v);
        if let Some(info) = self.vars.get_mut(v as usize) {
            info.binding = Some(ty);
        }
    }

    pub fn set_constraint(&mut self, v: u32, constraint: Constraint) {
        self.save_var(v);
        if constraint != Constraint::None {
            self.defaultable.push(v);
        }
        if let Some(info) = self.vars.get_mut(v as usize) {
            info.constraint = constraint;
        }
    }

    /// The variables that may need a default type, in order of creation,
    /// each once; the list starts afresh.
    pub fn take_defaultable(&mut self) -> Vec<u32> {
        let mut vs = std::mem::take(&mut self.defaultable);
        vs.sort_unstable();
        vs.dedup();
        vs
    }

    /// Starts recording changes so that they can be undone.
    pub fn snapshot(&mut self) -> Snapshot {
        self.open_snapshots += 1;
        Snapshot { vars: self.vars.len(), svars: self.svars.len(), trail: self.trail.len() }
    }

    /// Keeps the changes made since `snap`.
    pub fn commit(&mut self, snap: Snapshot) {
        let _ = snap;
        self.close_snapshot();
    }

    /// Gives the variables that existed at `snap` their state then back;
    /// variables created since stay allocated as they are (stale types may
    /// still mention them).
    pub fn rollback(&mut self, snap: Snapshot) {
        while self.trail.len() > snap.trail {
            match self.trail.pop() {
                Some(Undo::Var(v, info)) if (v as usize) < snap.vars => self.vars[v as usize] = info,
                Some(Undo::Svar(v, b)) if (v as usize) < snap.svars => self.svars[v as usize] = b,
                _ => {}
            }
        }
        self.epoch += 1;
        self.close_snapshot();
    }

    fn close_snapshot(&mut self) {
        self.open_snapshots = self.open_snapshots.saturating_sub(1);
        if self.open_snapshots == 0 {
            self.trail.clear();
        }
    }

    fn svar_binding(&self, id: NodeId) -> Option<&Dim> {
        if !is_svar(id) {
            return None;
        }
        self.svars.get((id.0 - SVAR_BASE) as usize).and_then(|b| b.as_ref())
    }

    pub fn bind_svar(&mut self, id: NodeId, dim: Dim) {
        let i = (id.0.wrapping_sub(SVAR_BASE)) as usize;
        if self.open_snapshots > 0 {
            if let Some(old) = self.svars.get(i) {
                self.trail.push(Undo::Svar(i as u32, old.clone()));
            }
        }
        if let Some(slot) = self.svars.get_mut(i) {
            *slot = Some(dim);
        }
    }

    /// A dimension with every bound size variable substituted.
    pub fn resolve_dim(&self, dim: &Dim) -> Dim {
        self.resolve_dim_depth(dim, 0)
    }

    fn resolve_dim_depth(&self, dim: &Dim, depth: u32) -> Dim {
        let Dim::Poly(p) = dim else { return dim.clone() };
        if depth > 64 || !p.vars().any(|v| self.svar_binding(v).is_some()) {
            return dim.clone();
        }
        let out = subst_dim_with(dim, &mut |v| self.svar_binding(v).cloned());
        self.resolve_dim_depth(&out, depth + 1)
    }

    /// The next variable on `v`'s chain: a valid shortcut, or the variable it is bound to.
    fn next_on_chain(&self, v: u32) -> Option<u32> {
        let (to, epoch) = self.shortcuts.get(v as usize)?.get();
        if epoch == self.epoch && to != v {
            return Some(to);
        }
        match &self.vars.get(v as usize)?.binding {
            Some(Ty::Var(w)) => Some(*w),
            _ => None,
        }
    }

    /// The last variable of `v`'s chain of variable-to-variable bindings:
    /// unbound, or bound to a type that is not a variable.
    pub fn chain_end(&self, v: u32) -> u32 {
        let mut end = v;
        let mut steps = 0usize;
        // Chains have no cycles (a variable is bound only to an older
        // one or to a type it does not occur in); the bound is a guard.
        while let Some(next) = self.next_on_chain(end) {
            end = next;
            steps += 1;
            if steps > self.vars.len() {
                return end;
            }
        }
        if steps > 1 {
            let mut x = v;
            for _ in 0..steps {
                let Some(next) = self.next_on_chain(x) else { break };
                self.shortcuts[x as usize].set((end, self.epoch));
                x = next;
            }
        }
        end
    }

    /// Follows variable bindings at the top of a type.
    pub fn shallow(&self, ty: &Ty) -> Ty {
        self.head(ty).into_owned()
    }

    /// Follows variable bindings at the top of a type without copying it:
    /// `ty` itself, the type its chain of variables is bound to, or the
    /// unbound variable that ends the chain.
    pub fn head<'a>(&'a self, ty: &'a Ty) -> Cow<'a, Ty> {
        let Ty::Var(v) = ty else { return Cow::Borrowed(ty) };
        let end = self.chain_end(*v);
        match self.vars.get(end as usize).and_then(|i| i.binding.as_ref()) {
            Some(b) => Cow::Borrowed(b),
            None => Cow::Owned(Ty::Var(end)),
        }
    }

    /// The names of the named parameters of the function types in `ty`
    /// (`n` of `(n: i64) -> [n]i64`), nested ones too, looked up through
    /// bound variables without building the resolved type.
    pub fn arrow_params(&self, ty: &Ty, out: &mut Vec<NodeId>) {
        match &*self.head(ty) {
            Ty::Arrow(a) => {
                out.extend(a.param);
                self.arrow_params(&a.from, out);
                self.arrow_params(&a.to, out);
            }
            Ty::Array(e, _) => self.arrow_params(e, out),
            Ty::Record(fs) => fs.values().for_each(|t| self.arrow_params(t, out)),
            Ty::Sum(cs) => cs.values().flatten().for_each(|t| self.arrow_params(t, out)),
            Ty::Abstract(_, args) => args.iter().for_each(|t| self.arrow_params(t, out)),
            Ty::Var(_) | Ty::Param(_) | Ty::Prim(_) | Ty::Error => {}
        }
    }

    /// The type with every bound variable substituted, arrays re-flattened.
    ///
    /// A type whose expansion has more than [`MAX_TYPE_SIZE`] nodes (a
    /// polymorphic function that doubles its argument's type, applied to
    /// its own result) resolves to `Ty::Error`, and the store remembers it
    /// until [`Store::take_too_large`] so that the checker reports it.
    pub fn resolve(&self, ty: &Ty) -> Ty {
        let mut budget = MAX_TYPE_SIZE + 1;
        let out = self.resolve_depth(ty, 0, &mut budget);
        if budget == 0 {
            self.too_large.set(true);
            return Ty::Error;
        }
        out
    }

    /// Whether `ty` has more than [`MAX_TYPE_SIZE`] nodes once its
    /// variables are expanded (counted without building it).
    pub fn too_large(&self, ty: &Ty) -> bool {
        fn go(store: &Store, ty: &Ty, left: &mut usize, depth: u32) -> bool {
            if *left == 0 || depth > 500 {
                return false;
            }
            *left -= 1;
            match &*store.head(ty) {
                Ty::Array(e, _) => go(store, e, left, depth + 1),
                Ty::Record(fs) => fs.values().all(|t| go(store, t, left, depth + 1)),
                Ty::Sum(cs) => cs.values().flatten().all(|t| go(store, t, left, depth + 1)),
                Ty::Arrow(a) => go(store, &a.from, left, depth + 1) && go(store, &a.to, left, depth + 1),
                Ty::Abstract(_, args) => args.iter().all(|t| go(store, t, left, depth + 1)),
                _ => true,
            }
        }
        let mut left = MAX_TYPE_SIZE + 1;
        !go(self, ty, &mut left, 0) && left == 0
    }

    /// Whether a type resolved since the last call was too large.
    pub fn take_too_large(&self) -> bool {
        self.too_large.replace(false)
    }

    fn resolve_depth(&self, ty: &Ty, depth: u32, budget: &mut usize) -> Ty {
        if depth > 500 || *budget == 0 {
            return Ty::Error;
        }
        *budget -= 1;
        match &*self.head(ty) {
            Ty::Array(elem, shape) => {
                let elem = self.resolve_depth(elem, depth + 1, budget);
                let mut out = elem;
                for d in shape.iter().rev() {
                    out = Ty::array_of(out, self.resolve_dim(d));
                }
                out
            }
            Ty::Record(fs) => {
                Ty::Record(fs.iter().map(|(k, t)| (k.clone(), self.resolve_depth(t, depth + 1, budget))).collect())
            }
            Ty::Sum(cs) => Ty::Sum(
                cs.iter()
                    .map(|(k, ts)| (k.clone(), ts.iter().map(|t| self.resolve_depth(t, depth + 1, budget)).collect()))
                    .collect(),
            ),
            Ty::Arrow(a) => Ty::Arrow(Box::new(ArrowTy {
                param: a.param,
                from: self.resolve_depth(&a.from, depth + 1, budget),
                to: self.resolve_depth(&a.to, depth + 1, budget),
                consumes: a.consumes,
                ret_unique: a.ret_unique,
            })),
            Ty::Abstract(id, args) => {
                Ty::Abstract(*id, args.iter().map(|t| self.resolve_depth(t, depth + 1, budget)).collect())
            }
            other => other.clone(),
        }
    }
}

/// Substitutes variables of a polynomial by polynomials.
pub fn subst_poly(p: &Poly, f: &mut dyn FnMut(NodeId) -> Option<Poly>) -> Poly {
    let mut terms: Vec<Poly> = Vec::with_capacity(p.terms().len());
    for (mono, coeff) in p.terms() {
        let mut term = Poly::constant(*coeff);
        for v in mono {
            let factor = f(*v).unwrap_or_else(|| Poly::var(*v));
            term = term.mul(&factor);
        }
        terms.push(term);
    }
    Poly::sum(terms)
}

/// Applies `f` to every dimension in a type (structure-preserving).
pub fn map_dims(ty: &Ty, f: &mut dyn FnMut(&Dim) -> Dim) -> Ty {
    match ty {
        Ty::Array(elem, shape) => {
            let elem = map_dims(elem, f);
            let mut out = elem;
            for d in shape.iter().rev() {
                out = Ty::array_of(out, f(d));
            }
            out
        }
        Ty::Record(fs) => Ty::Record(fs.iter().map(|(k, t)| (k.clone(), map_dims(t, f))).collect()),
        Ty::Sum(cs) => {
            Ty::Sum(cs.iter().map(|(k, ts)| (k.clone(), ts.iter().map(|t| map_dims(t, f)).collect())).collect())
        }
        Ty::Arrow(a) => Ty::Arrow(Box::new(ArrowTy {
            param: a.param,
            from: map_dims(&a.from, f),
            to: map_dims(&a.to, f),
            consumes: a.consumes,
            ret_unique: a.ret_unique,
        })),
        Ty::Abstract(id, args) => Ty::Abstract(*id, args.iter().map(|t| map_dims(t, f)).collect()),
        other => other.clone(),
    }
}

/// Whether some dimension of a type satisfies `pred`.
pub fn any_dim(ty: &Ty, pred: &dyn Fn(&Dim) -> bool) -> bool {
    match ty {
        Ty::Array(elem, shape) => shape.iter().any(pred) || any_dim(elem, pred),
        Ty::Record(fs) => fs.values().any(|t| any_dim(t, pred)),
        Ty::Sum(cs) => cs.values().flatten().any(|t| any_dim(t, pred)),
        Ty::Arrow(a) => any_dim(&a.from, pred) || any_dim(&a.to, pred),
        Ty::Abstract(_, args) => args.iter().any(|t| any_dim(t, pred)),
        _ => false,
    }
}

/// Whether a type has an unknown (existential) dimension.
pub fn has_unknown_dims(ty: &Ty) -> bool {
    any_dim(ty, &|d| d.has_unknown())
}

/// Substitutes type parameters.
pub fn subst_params(ty: &Ty, params: &HashMap<NodeId, Ty>) -> Ty {
    match ty {
        Ty::Param(p) => params.get(p).cloned().unwrap_or(Ty::Param(*p)),
        Ty::Array(elem, shape) => {
            let mut out = subst_params(elem, params);
            for d in shape.iter().rev() {
                out = Ty::array_of(out, d.clone());
            }
            out
        }
        Ty::Record(fs) => Ty::Record(fs.iter().map(|(k, t)| (k.clone(), subst_params(t, params))).collect()),
        Ty::Sum(cs) => Ty::Sum(
            cs.iter().map(|(k, ts)| (k.clone(), ts.iter().map(|t| subst_params(t, params)).collect())).collect(),
        ),
        Ty::Arrow(a) => Ty::Arrow(Box::new(ArrowTy {
            param: a.param,
            from: subst_params(&a.from, params),
            to: subst_params(&a.to, params),
            consumes: a.consumes,
            ret_unique: a.ret_unique,
        })),
        Ty::Abstract(id, args) => Ty::Abstract(*id, args.iter().map(|t| subst_params(t, params)).collect()),
        other => other.clone(),
    }
}

/// Substitutes size variables in every dimension of a type.
pub fn subst_sizes(ty: &Ty, sizes: &HashMap<NodeId, Dim>) -> Ty {
    if sizes.is_empty() {
        return ty.clone();
    }
    map_dims(ty, &mut |d| subst_dim(d, sizes))
}

pub fn subst_dim(d: &Dim, sizes: &HashMap<NodeId, Dim>) -> Dim {
    subst_dim_with(d, &mut |v| sizes.get(&v).cloned())
}

/// Substitutes what `f` gives for the variables of a dimension (names,
/// size variables, existential sizes as their [`unknown_var`]s).
pub fn subst_dim_with(d: &Dim, f: &mut dyn FnMut(NodeId) -> Option<Dim>) -> Dim {
    let p = d.to_poly();
    if let Some(v) = p.as_var() {
        return f(v).unwrap_or_else(|| d.clone());
    }
    Dim::from_poly(subst_poly(&p, &mut |v| f(v).map(|r| r.to_poly().into_owned())))
}

/// Replaces existential sizes, alone or inside a polynomial, by what `f`
/// gives for them.
pub fn map_unknowns(ty: &Ty, f: &mut dyn FnMut(u32) -> Option<Dim>) -> Ty {
    map_dims(ty, &mut |d| {
        if d.has_unknown() {
            subst_dim_with(d, &mut |v| unknown_of(v).and_then(&mut *f))
        } else {
            d.clone()
        }
    })
}

/// Visits every dimension of a type in the order [`map_dims`] does
/// (an array's element first, then its shape innermost first), without
/// building a new type.
pub fn for_each_dim(ty: &Ty, f: &mut dyn FnMut(&Dim)) {
    match ty {
        Ty::Array(elem, shape) => {
            for_each_dim(elem, f);
            shape.iter().rev().for_each(&mut *f);
        }
        Ty::Record(fs) => fs.values().for_each(|t| for_each_dim(t, f)),
        Ty::Sum(cs) => cs.values().flatten().for_each(|t| for_each_dim(t, f)),
        Ty::Arrow(a) => {
            for_each_dim(&a.from, f);
            for_each_dim(&a.to, f);
        }
        Ty::Abstract(_, args) => args.iter().for_each(|t| for_each_dim(t, f)),
        _ => {}
    }
}

/// Every size variable occurring in a type's dimensions.
pub fn dim_vars(ty: &Ty, out: &mut Vec<NodeId>) {
    for_each_dim(ty, &mut |d| {
        if let Dim::Poly(p) = d {
            out.extend(p.vars());
        }
    });
}

/// The size variables a type witnesses (Futhark's "constructive" uses): those
/// that are a whole dimension (`[n]`, not `[n+1]`) of an array outside any
/// function type, or a whole size argument of an abstract type. A value of
/// the type determines them; sizes used only otherwise must come from
/// elsewhere.
pub fn witnessed_sizes(ty: &Ty, out: &mut Vec<NodeId>) {
    match ty {
        Ty::Array(elem, shape) => {
            out.extend(shape.iter().filter_map(Dim::as_var));
            witnessed_sizes(elem, out);
        }
        Ty::Record(fs) => fs.values().for_each(|t| witnessed_sizes(t, out)),
        Ty::Sum(cs) => cs.values().flatten().for_each(|t| witnessed_sizes(t, out)),
        Ty::Abstract(_, args) => {
            for a in args {
                // A size argument is encoded as `[d]()`; type arguments do
                // not witness their sizes (the definition may drop them).
                if let Ty::Array(elem, shape) = a {
                    if shape.len() == 1 && **elem == Ty::unit() {
                        out.extend(shape[0].as_var());
                    }
                }
            }
        }
        Ty::Arrow(_) | Ty::Param(_) | Ty::Var(_) | Ty::Prim(_) | Ty::Error => {}
    }
}

/// Visits a type and every type inside it (element types, fields,
/// payloads, both sides of function types, abstract types' arguments),
/// outermost first.
pub fn for_each_type(ty: &Ty, f: &mut dyn FnMut(&Ty)) {
    f(ty);
    match ty {
        Ty::Array(e, _) => for_each_type(e, f),
        Ty::Record(fs) => fs.values().for_each(|t| for_each_type(t, f)),
        Ty::Sum(cs) => cs.values().flatten().for_each(|t| for_each_type(t, f)),
        Ty::Arrow(a) => {
            for_each_type(&a.from, f);
            for_each_type(&a.to, f);
        }
        Ty::Abstract(_, args) => args.iter().for_each(|t| for_each_type(t, f)),
        Ty::Param(_) | Ty::Var(_) | Ty::Prim(_) | Ty::Error => {}
    }
}

/// The type parameters occurring in a type.
pub fn type_params_in(ty: &Ty, out: &mut Vec<NodeId>) {
    for_each_type(ty, &mut |t| {
        if let Ty::Param(p) = t {
            out.push(*p);
        }
    });
}

/// The sizes of `ty` that mention one of `names` where no enclosing
/// function type binds it as its parameter (`k` is free in `[k]f64`, not
/// in `(k: i64) -> [k]f64`), each replaced by what `f` gives for it.
pub fn replace_free_names(ty: &Ty, names: &[NodeId], f: &mut dyn FnMut(NodeId) -> Dim) -> Ty {
    fn go(ty: &Ty, names: &[NodeId], bound: &mut Vec<NodeId>, f: &mut dyn FnMut(NodeId) -> Dim) -> Ty {
        match ty {
            Ty::Array(e, shape) => {
                let shape = shape
                    .iter()
                    .map(|d| match d {
                        Dim::Poly(p) => match p.vars().find(|v| names.contains(v) && !bound.contains(v)) {
                            Some(v) => f(v),
                            None => d.clone(),
                        },
                        Dim::Unknown(_) => d.clone(),
                    })
                    .collect();
                Ty::Array(Box::new(go(e, names, bound, f)), shape)
            }
            Ty::Record(fs) => Ty::Record(fs.iter().map(|(k, t)| (k.clone(), go(t, names, bound, f))).collect()),
            Ty::Sum(cs) => Ty::Sum(
                cs.iter().map(|(k, ts)| (k.clone(), ts.iter().map(|t| go(t, names, bound, f)).collect())).collect(),
            ),
            Ty::Arrow(a) => {
                let from = go(&a.from, names, bound, f);
                bound.extend(a.param);
                let to = go(&a.to, names, bound, f);
                if a.param.is_some() {
                    bound.pop();
                }
                Ty::Arrow(Box::new(ArrowTy { from, to, ..(**a).clone() }))
            }
            Ty::Abstract(n, args) => Ty::Abstract(*n, args.iter().map(|t| go(t, names, bound, f)).collect()),
            other => other.clone(),
        }
    }
    go(ty, names, &mut Vec::new(), f)
}

/// Whether some size of `ty` mentions one of `names` where no enclosing
/// function type binds it (see [`replace_free_names`]).
pub fn mentions_free_name(ty: &Ty, names: &[NodeId]) -> bool {
    let mut found = false;
    replace_free_names(ty, names, &mut |_| {
        found = true;
        Dim::Unknown(0)
    });
    found
}

/// The type variables occurring in a (resolved) type.
pub fn type_vars_in(ty: &Ty, out: &mut Vec<u32>) {
    for_each_type(ty, &mut |t| {
        if let Ty::Var(v) = t {
            out.push(*v);
        }
    });
}

pub fn contains_arrow(ty: &Ty) -> bool {
    match ty {
        Ty::Arrow(_) => true,
        Ty::Array(e, _) => contains_arrow(e),
        Ty::Record(fs) => fs.values().any(contains_arrow),
        Ty::Sum(cs) => cs.values().flatten().any(contains_arrow),
        Ty::Abstract(_, args) => args.iter().any(contains_arrow),
        _ => false,
    }
}

/// Whether a type mentions an abstract type.
pub fn contains_abstract(ty: &Ty) -> bool {
    match ty {
        Ty::Abstract(..) => true,
        Ty::Array(e, _) => contains_abstract(e),
        Ty::Record(fs) => fs.values().any(contains_abstract),
        Ty::Sum(cs) => cs.values().flatten().any(contains_abstract),
        Ty::Arrow(a) => contains_abstract(&a.from) || contains_abstract(&a.to),
        _ => false,
    }
}

/// Whether values of this (resolved) type can share memory with others; primitives cannot.
pub fn may_alias(ty: &Ty) -> bool {
    match ty {
        Ty::Prim(_) => false,
        Ty::Record(fs) => fs.values().any(may_alias),
        Ty::Sum(cs) => cs.values().flatten().any(may_alias),
        _ => true,
    }
}

/// Converts a resolved internal type to the public representation.
pub fn to_public(ty: &Ty) -> Type {
    match ty {
        Ty::Prim(p) => Type::Prim(*p),
        Ty::Array(elem, shape) => Type::Array {
            elem: Box::new(to_public(elem)),
            shape: shape
                .iter()
                .map(|d| match d {
                    Dim::Poly(p) if !p.vars().any(is_svar) => Size::Poly(p.clone()),
                    // Unresolved size variables are not known statically.
                    Dim::Poly(p) => Size::Unknown(
                        0x8000_0000 | p.vars().find(|v| is_svar(*v)).map(|v| v.0 - SVAR_BASE).unwrap_or(0),
                    ),
                    Dim::Unknown(u) => Size::Unknown(*u),
                })
                .collect(),
        },
        Ty::Record(fs) => Type::Record(fs.iter().map(|(k, t)| (k.clone(), to_public(t))).collect()),
        Ty::Sum(cs) => Type::Sum(cs.iter().map(|(k, ts)| (k.clone(), ts.iter().map(to_public).collect())).collect()),
        Ty::Arrow(a) => {
            Type::Arrow { param: a.param, from: Box::new(to_public(&a.from)), to: Box::new(to_public(&a.to)) }
        }
        Ty::Param(p) => Type::Param(*p),
        // Expanded by the checker before conversion; one left is in an
        // unused position of an erroneous or generic (functor) check.
        Ty::Abstract(..) => Type::unit(),
        // Unresolved variables only remain in erroneous programs or unused
        // positions; unit is a harmless stand-in.
        Ty::Var(_) | Ty::Error => Type::unit(),
    }
}

/// The field of the record that stands for `intrinsics.acc t` (see
/// [`acc_of`]): a name no program can write.
pub const ACC_FIELD: &str = "#acc";

/// `intrinsics.acc t`: an accumulator over arrays of type `t`, a record of
/// one [`ACC_FIELD`] field of type `t` (its values are `t`'s; the type is
/// distinct from `t`).
pub fn acc_of(t: Ty) -> Ty {
    Ty::Record(std::iter::once((ACC_FIELD.to_string(), t)).collect())
}

/// Names for printing: binder ids to source names.
pub type Names = HashMap<NodeId, String>;

pub fn show_poly(p: &Poly, names: &Names) -> String {
    if p.terms().is_empty() {
        return "0".to_string();
    }
    let mut out = String::new();
    for (i, (mono, coeff)) in p.terms().iter().rev().enumerate() {
        let mut c = *coeff;
        if i > 0 {
            if c < 0 {
                out.push('-');
                c = -c;
            } else {
                out.push('+');
            }
        } else if c < 0 && !mono.is_empty() {
            out.push('-');
            c = -c;
        }
        let factors: Vec<String> = mono.iter().map(|v| show_size_var(*v, names)).collect();
        if mono.is_empty() {
            let _ = write!(out, "{c}");
        } else if c == 1 {
            out.push_str(&factors.join("*"));
        } else {
            let _ = write!(out, "{c}*{}", factors.join("*"));
        }
    }
    out
}

fn show_size_var(v: NodeId, names: &Names) -> String {
    if let Some(n) = names.get(&v) {
        return n.clone();
    }
    if is_svar(v) {
        return format!("?{}", v.0 - SVAR_BASE);
    }
    if let Some(u) = unknown_of(v) {
        return format!("?k{u}");
    }
    format!("d{}", v.0 & 0xffff)
}

pub fn show_dim(d: &Dim, names: &Names) -> String {
    match d {
        Dim::Poly(p) => show_poly(p, names),
        Dim::Unknown(u) => format!("?k{u}"),
    }
}

/// Futhark notation: `[n][2]f32`, `{x: f64, y: f64}`, `(i32, bool)`, `#a i32 | #b`.
pub fn show_ty(ty: &Ty, names: &Names) -> String {
    match ty {
        Ty::Prim(p) => p.name().to_string(),
        Ty::Array(elem, shape) => {
            let mut s = String::new();
            for d in shape {
                let _ = write!(s, "[{}]", show_dim(d, names));
            }
            s + &show_atomic(elem, names)
        }
        Ty::Record(fs) if fs.len() == 1 && fs.contains_key(ACC_FIELD) => {
            format!("acc {}", show_atomic(&fs[ACC_FIELD], names))
        }
        Ty::Record(fs) => {
            let tuple = (0..fs.len()).all(|i| fs.contains_key(&i.to_string())) && fs.len() != 1;
            if tuple {
                let items: Vec<String> = (0..fs.len()).map(|i| show_ty(&fs[&i.to_string()], names)).collect();
                format!("({})", items.join(", "))
            } else {
                let items: Vec<String> = fs.iter().map(|(k, t)| format!("{k}: {}", show_ty(t, names))).collect();
                format!("{{{}}}", items.join(", "))
            }
        }
        Ty::Sum(cs) => {
            let items: Vec<String> = cs
                .iter()
                .map(|(k, ts)| {
                    let mut s = format!("#{k}");
                    for t in ts {
                        s.push(' ');
                        s.push_str(&show_atomic(t, names));
                    }
                    s
                })
                .collect();
            items.join(" | ")
        }
        Ty::Arrow(a) => {
            let from = match (&a.param, &a.from) {
                (Some(p), f) if names.contains_key(p) => format!("({}: {})", names[p], show_ty(f, names)),
                (_, f @ Ty::Arrow(_)) => format!("({})", show_ty(f, names)),
                (_, f) => show_ty(f, names),
            };
            let star = if a.consumes { "*" } else { "" };
            format!("{star}{from} -> {}", show_ty(&a.to, names))
        }
        Ty::Param(p) => names.get(p).cloned().unwrap_or_else(|| format!("'t{}", p.0 & 0xffff)),
        Ty::Abstract(id, args) => {
            let mut s = names.get(id).cloned().unwrap_or_else(|| format!("'t{}", id.0 & 0xffff));
            for a in args {
                s.push(' ');
                match a {
                    Ty::Array(e, dims) if **e == Ty::unit() && dims.len() == 1 => {
                        let _ = write!(s, "[{}]", show_dim(&dims[0], names));
                    }
                    _ => s.push_str(&show_atomic(a, names)),
                }
            }
            s
        }
        Ty::Var(v) => format!("'a{v}"),
        Ty::Error => "?".to_string(),
    }
}

fn show_atomic(ty: &Ty, names: &Names) -> String {
    match ty {
        Ty::Abstract(_, args) if !args.is_empty() => format!("({})", show_ty(ty, names)),
        Ty::Arrow(_) | Ty::Sum(_) => format!("({})", show_ty(ty, names)),
        _ => show_ty(ty, names),
    }
}

/// Converts a public type back to the internal representation (for printing).
pub fn from_public(ty: &Type) -> Ty {
    match ty {
        Type::Prim(p) => Ty::Prim(*p),
        Type::Array { elem, shape } => {
            let mut out = from_public(elem);
            for s in shape.iter().rev() {
                out = Ty::array_of(
                    out,
                    match s {
                        Size::Poly(p) => Dim::from_poly(p.clone()),
                        Size::Unknown(u) => Dim::Unknown(*u),
                    },
                );
            }
            out
        }
        Type::Record(fs) => Ty::Record(fs.iter().map(|(k, t)| (k.clone(), from_public(t))).collect()),
        Type::Sum(cs) => Ty::Sum(cs.iter().map(|(k, ts)| (k.clone(), ts.iter().map(from_public).collect())).collect()),
        Type::Arrow { param, from, to } => Ty::Arrow(Box::new(ArrowTy {
            param: *param,
            from: from_public(from),
            to: from_public(to),
            consumes: false,
            ret_unique: false,
        })),
        Type::Param(p) => Ty::Param(*p),
    }
}
