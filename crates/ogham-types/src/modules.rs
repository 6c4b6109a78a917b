//! The module language: module bindings, structures, functors, module
//! types (signatures), ascription, `open`, `local`, `import` as a module,
//! and qualified names (`M.N.x`, `M.t`, `M.+`, `M.(e)`).
//!
//! Modules are elaborated away during checking. A structure `{ decs }` is
//! checked declaration by declaration like a file; its value definitions
//! become ordinary top-level definitions ([`DefLoc::Generated`]) and the
//! structure is the table of names it exports ([`ModEnv`]). A functor is a
//! closure over its body and the scope it was defined in. Its body is
//! checked once where it is defined, against modules made from its
//! parameters' signatures (abstract types distinct, values of the specified
//! types; the definitions this makes are dropped again), so that errors in
//! a functor are found whether or not it is applied. Each application then
//! checks a fresh copy of the body (new node ids, see
//! `ogham_syntax::renumber`) with the parameters bound to the arguments, so
//! every definition in an applied functor is a plain monomorphic-per-use
//! definition that lowering inlines like any other.
//!
//! Signature matching checks that a module provides every specified type,
//! value and module, with compatible types, liftedness and uniqueness, and
//! restricts the module to what the signature names. Ascription (`M : S`,
//! a functor's result signature) seals: each abstract `type t` of `S` (not
//! refined by `with`) becomes a new [`Ty::Abstract`] type, equal only to
//! itself, and values are seen with the specification's types. Passing a
//! functor argument does not seal: inside the application the parameter's
//! types are the argument's (the generic check of the body made sure it
//! does not depend on them). Every abstract type's definition is kept
//! ([`AbstractType`]) and expanded when types are recorded in `TypeInfo`,
//! so lowering sees only concrete types. The numeric modules `i8`…`f64`
//! and `bool` are [`Module::Prim`], whose members are the built-ins of
//! `members.rs`.

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use ogham_prim::PrimType;
use ogham_syntax::ast::{
    Dec, Expr, Liftedness, ModExp, ModParam, NodeId, QualName, SigExp, SizeExp, Spec, TypeArg, TypeDec, TypeExp,
    TypeParam,
};
use ogham_syntax::Span;

use crate::builtins::Builtin;
use crate::checker::{Checker, Scheme, TypeAbbrev};
use crate::expr::{op_shape, AnonMode};
use crate::info::{DefId, DefInfo, DefLoc, Resolution};
use crate::ty::{Dim, Ty};
use crate::unify::{Mismatch, SizeMode};

/// The names a module (or a scope) binds, in each namespace.
#[derive(Clone, Default)]
pub struct ModEnv {
    pub values: HashMap<String, DefId>,
    pub types: HashMap<String, TypeAbbrev>,
    pub mods: HashMap<String, Module>,
    pub sigs: HashMap<String, Arc<SigClosure>>,
}

/// A module value.
#[derive(Clone)]
pub enum Module {
    Struct(Arc<ModEnv>),
    /// A numeric module (`f32`) or `bool`: members are built-ins.
    Prim(PrimType),
    Functor(Arc<Functor>),
}

/// A functor: its remaining parameters, result signature and body, closed
/// over the scope of its definition and the arguments applied so far.
pub struct Functor {
    pub params: Vec<ModParam>,
    pub ret: Option<SigExp>,
    pub body: ModExp,
    pub scope: ModEnv,
    pub args: Vec<(String, Module)>,
    /// Whether the body passed its check at the definition; if not, the
    /// errors were reported there and applications give nothing.
    pub ok: bool,
}

impl Functor {
    /// The scope its remaining parameters' signatures and its body are
    /// elaborated in: its definition's, with the arguments so far bound.
    fn scope_with_args(&self) -> ModEnv {
        let mut scope = self.scope.clone();
        for (name, m) in &self.args {
            scope.mods.insert(name.clone(), m.clone());
        }
        scope
    }
}

/// A value restricted to its specification (see `GlobalDef::alias`).
#[derive(Clone, Debug)]
pub struct SpecAlias {
    /// The definition.
    pub target: DefId,
    /// Its type parameters, in terms of the specification's.
    pub types: Vec<(NodeId, Ty)>,
    /// Its size parameters, in terms of the specification's (lowering needs
    /// those that no argument's shape gives, as in `[(n-1)/8+1]`).
    pub sizes: Vec<(NodeId, Dim)>,
}

/// A module type with the scope it was defined in.
pub struct SigClosure {
    pub sig: SigExp,
    pub scope: ModEnv,
    /// False if checking its declaration found errors (reported there).
    pub valid: bool,
}

/// An abstract type ([`Ty::Abstract`]): its parameters and the definition
/// it hides, for lowering.
pub struct AbstractType {
    pub params: Vec<(NodeId, bool)>,
    /// In terms of `params`; `None` for a functor parameter's type while
    /// the functor's body is checked at its definition.
    pub def: Option<Ty>,
    pub liftedness: Liftedness,
}

/// `with path params = te`, elaborated where it is written.
#[derive(Clone)]
struct Refinement {
    /// Relative to the module type it refines.
    path: QualName,
    abbrev: TypeAbbrev,
}

/// A signature reduced to its specifications, with the scope they are
/// elaborated in and the `with` refinements applied to it.
struct FlatSig {
    specs: Vec<Spec>,
    scope: ModEnv,
    refinements: Vec<Refinement>,
}

/// First id of the range used for nodes of elaborated functor bodies.
const CLONE_BASE: u32 = 0x8000_0000;

/// The module-language state of the checker.
pub struct ModState {
    pub mods: HashMap<String, Module>,
    pub sigs: HashMap<String, Arc<SigClosure>>,
    /// What each module body being checked exports (innermost last); the
    /// outermost is the current file.
    pub exports: Vec<ModEnv>,
    /// Nesting of `local` declarations: their names are not exported.
    pub local_depth: u32,
    /// The exports of each file already checked.
    pub file_envs: Vec<ModEnv>,
    /// The current file's imports: path as written → file index.
    pub imports: Vec<(String, usize)>,
    /// Numeric modules opened with `open f32` or `f32.(e)`: their members are in scope.
    pub opened_prims: Vec<PrimType>,
    /// Every abstract type made so far.
    pub abstracts: HashMap<NodeId, AbstractType>,
    /// Fully expanded definitions of the abstract types without parameters
    /// or anonymous sizes, filled by `expand_abstract` (abstract types are
    /// never changed once made, so an entry stays valid).
    pub expanded: HashMap<NodeId, Ty>,
    /// The abstract types made by the signature match in progress: value
    /// specifications are compared with these expanded.
    sealing: Vec<NodeId>,
    /// The names of the module bindings being checked (`M`, `M.N`), to name
    /// the abstract types they make.
    path: Vec<String>,
    /// Set when a module made from a signature lacks a functor it specifies.
    functor_spec: bool,
    /// How many applications of functors whose bodies were checked
    /// generically (against their parameters' signatures) are being
    /// checked: see [`Checker::in_checked_functor`].
    applying_checked: u32,
    next_clone_id: u32,
}

impl Default for ModState {
    fn default() -> Self {
        let mut mods = HashMap::default();
        for p in PrimType::ALL {
            mods.insert(p.name().to_string(), Module::Prim(p));
        }
        ModState {
            mods,
            sigs: HashMap::default(),
            exports: Vec::new(),
            local_depth: 0,
            file_envs: Vec::new(),
            imports: Vec::new(),
            opened_prims: Vec::new(),
            abstracts: HashMap::default(),
            expanded: HashMap::default(),
            sealing: Vec::new(),
            path: Vec::new(),
            functor_spec: false,
            applying_checked: 0,
            next_clone_id: CLONE_BASE,
        }
    }
}

/// The order of liftedness: a module may define a type at most as lifted as
/// its specification.
fn lift_rank(l: Liftedness) -> u8 {
    match l {
        Liftedness::Unlifted => 0,
        Liftedness::SizeLifted => 1,
        Liftedness::Lifted => 2,
    }
}

fn lift_mark(l: Liftedness) -> &'static str {
    match l {
        Liftedness::Unlifted => "",
        Liftedness::SizeLifted => "~",
        Liftedness::Lifted => "^",
    }
}

/// The arguments that apply an abbreviation's parameters to themselves.
fn param_args(params: &[(NodeId, bool)]) -> Vec<Ty> {
    params
        .iter()
        .map(
            |(id, is_size)| {
                if *is_size {
                    Ty::Array(Box::new(Ty::unit()), vec![Dim::var(*id)])
                } else {
                    Ty::Param(*id)
                }
            },
        )
        .collect()
}

/// `name.text` qualified by `quals` (`bar.x`).
fn qualified(quals: &[String], name: &str) -> String {
    let mut parts = quals.to_vec();
    parts.push(name.to_string());
    parts.join(".")
}

/// The refinements of a nested module `module`, relative to it.
fn inner_refinements(refs: &[Refinement], module: &str) -> Vec<Refinement> {
    refs.iter()
        .filter(|r| r.path.quals.first().map(String::as_str) == Some(module))
        .map(|r| {
            let mut r = r.clone();
            r.path.quals.remove(0);
            r
        })
        .collect()
}

/// Existential sizes (`Dim::Unknown`) outside function types.
pub(crate) fn top_level_unknowns(t: &Ty, out: &mut Vec<u32>) {
    match t {
        Ty::Array(elem, dims) => {
            out.extend(dims.iter().flat_map(Dim::unknowns));
            top_level_unknowns(elem, out);
        }
        Ty::Record(fs) => fs.values().for_each(|t| top_level_unknowns(t, out)),
        Ty::Sum(cs) => cs.values().flatten().for_each(|t| top_level_unknowns(t, out)),
        Ty::Abstract(_, args) => args.iter().for_each(|t| top_level_unknowns(t, out)),
        _ => {}
    }
}

/// Whether a function type of a specification is no more demanding about
/// uniqueness than the definition's: the definition may not consume a
/// parameter the specification does not, nor return a shared value where
/// the specification promises a unique one.
pub(crate) fn uniqueness_fits(spec: &Ty, def: &Ty) -> bool {
    match (spec, def) {
        (Ty::Arrow(s), Ty::Arrow(d)) => {
            if d.consumes && !s.consumes {
                return false;
            }
            if !matches!(s.to, Ty::Arrow(_)) && s.ret_unique && !d.ret_unique {
                return false;
            }
            uniqueness_fits(&s.to, &d.to)
        }
        _ => true,
    }
}

/// Futhark notation for a type as written (`[n]i32 -> ?[d].*[d]i32`), for
/// messages that quote a specification.
fn show_type_exp(te: &TypeExp) -> String {
    fn size(s: &SizeExp) -> String {
        match s {
            SizeExp::Anonymous(_) => String::new(),
            SizeExp::Expr(e) => match &e.kind {
                ogham_syntax::ast::ExprKind::Var(q) => q.to_string(),
                ogham_syntax::ast::ExprKind::Literal(ogham_syntax::ast::Literal::Int { value, .. }) => {
                    value.to_string()
                }
                _ => "…".to_string(),
            },
        }
    }
    fn atomic(te: &TypeExp) -> String {
        match te {
            TypeExp::Arrow { .. } | TypeExp::Apply(..) | TypeExp::Sum(..) | TypeExp::Existential(..) => {
                format!("({})", show_type_exp(te))
            }
            _ => show_type_exp(te),
        }
    }
    match te {
        TypeExp::Var(q) => q.to_string(),
        TypeExp::Tuple(items, _) => format!("({})", items.iter().map(show_type_exp).collect::<Vec<_>>().join(", ")),
        TypeExp::Record(fs, _) => format!(
            "{{{}}}",
            fs.iter().map(|(n, t)| format!("{}: {}", n.text, show_type_exp(t))).collect::<Vec<_>>().join(", ")
        ),
        TypeExp::Array(s, elem, _) => format!("[{}]{}", size(s), atomic(elem)),
        TypeExp::Unique(t, _) => format!("*{}", atomic(t)),
        TypeExp::Arrow { param, from, to, .. } => {
            let from = match param {
                Some(p) => format!("({}: {})", p.text, show_type_exp(from)),
                None if matches!(**from, TypeExp::Arrow { .. }) => format!("({})", show_type_exp(from)),
                None => show_type_exp(from),
            };
            format!("{from} -> {}", show_type_exp(to))
        }
        TypeExp::Sum(cs, _) => cs
            .iter()
            .map(|(n, ts)| {
                let mut s = format!("#{}", n.text);
                for t in ts {
                    s.push(' ');
                    s.push_str(&atomic(t));
                }
                s
            })
            .collect::<Vec<_>>()
            .join(" | "),
        TypeExp::Apply(f, arg, _) => {
            let arg = match &**arg {
                TypeArg::Type(t) => atomic(t),
                TypeArg::Size(s) => format!("[{}]", size(s)),
            };
            format!("{} {arg}", show_type_exp(f))
        }
        TypeExp::Existential(bs, t, _) => {
            let names: String = bs.iter().map(|b| format!("[{}]", b.name.text)).collect();
            format!("?{names}.{}", show_type_exp(t))
        }
    }
}

fn show_type_params(tps: &[TypeParam]) -> String {
    tps.iter()
        .map(|tp| match tp {
            TypeParam::Size(b) => format!(" [{}]", b.name.text),
            TypeParam::Type(b, l) => format!(" '{}{}", lift_mark(*l), b.name.text),
        })
        .collect()
}

/// The first named parameter of a function type that an enclosing arrow
/// already names (`(x: i32) -> (x: i32) -> i32`).
fn duplicate_param_name(te: &TypeExp, seen: &mut Vec<String>) -> Option<(String, Span)> {
    match te {
        TypeExp::Arrow { param, from, to, .. } => {
            if let Some(p) = param {
                if seen.contains(&p.text) {
                    return Some((p.text.clone(), p.span));
                }
                seen.push(p.text.clone());
            }
            let mut inner = seen.clone();
            duplicate_param_name(from, &mut inner).or_else(|| duplicate_param_name(to, seen))
        }
        _ => None,
    }
}

/// The span of an anonymous size `[]` that is not in the result of a
/// function type (a `val` specification may not have one).
fn anonymous_param_size(te: &TypeExp) -> Option<Span> {
    fn any(te: &TypeExp) -> Option<Span> {
        match te {
            TypeExp::Array(SizeExp::Anonymous(s), _, _) => Some(*s),
            TypeExp::Array(_, t, _) | TypeExp::Unique(t, _) | TypeExp::Existential(_, t, _) => any(t),
            TypeExp::Tuple(items, _) => items.iter().find_map(any),
            TypeExp::Record(fs, _) => fs.iter().find_map(|(_, t)| any(t)),
            TypeExp::Sum(cs, _) => cs.iter().flat_map(|(_, ts)| ts.iter()).find_map(any),
            TypeExp::Apply(f, arg, _) => any(f).or_else(|| match &**arg {
                TypeArg::Type(t) => any(t),
                TypeArg::Size(SizeExp::Anonymous(s)) => Some(*s),
                TypeArg::Size(_) => None,
            }),
            TypeExp::Arrow { from, to, .. } => any(from).or_else(|| result(to)),
            TypeExp::Var(_) => None,
        }
    }
    // In a function's result, `[]` is an existential size.
    fn result(te: &TypeExp) -> Option<Span> {
        match te {
            TypeExp::Arrow { from, to, .. } => any(from).or_else(|| result(to)),
            _ => None,
        }
    }
    match te {
        TypeExp::Arrow { .. } => result(te),
        other => any(other),
    }
}

impl Checker {
    /// The current scope's names, for a closure or to restore later.
    fn scope(&self) -> ModEnv {
        ModEnv {
            values: self.global_names.clone(),
            types: self.types.clone(),
            mods: self.modules.mods.clone(),
            sigs: self.modules.sigs.clone(),
        }
    }

    /// Makes a signature's scope the current one, keeping visible the
    /// modules of the current scope that it lacks (module parameters bound
    /// since the signature was declared); returns the scope to restore.
    fn enter_sig_scope(&mut self, sig_scope: &ModEnv) -> ModEnv {
        let saved = self.scope();
        let mut scope = sig_scope.clone();
        for (k, v) in &saved.mods {
            scope.mods.entry(k.clone()).or_insert_with(|| v.clone());
        }
        self.set_scope(scope);
        saved
    }

    /// Makes the names of `env` visible in the current scope (without
    /// exporting them).
    pub(crate) fn add_to_scope(&mut self, env: &ModEnv) {
        for (k, v) in &env.values {
            self.global_names.insert(k.clone(), *v);
        }
        for (k, v) in &env.types {
            self.types.insert(k.clone(), v.clone());
        }
        for (k, v) in &env.mods {
            self.modules.mods.insert(k.clone(), v.clone());
        }
        for (k, v) in &env.sigs {
            self.modules.sigs.insert(k.clone(), v.clone());
        }
    }

    fn set_scope(&mut self, env: ModEnv) {
        self.global_names = env.values;
        self.types = env.types;
        self.modules.mods = env.mods;
        self.modules.sigs = env.sigs;
    }

    /// Adds every name of `env` to the current scope (and, unless `local`,
    /// to the current module's exports).
    fn bring_into_scope(&mut self, env: &ModEnv) {
        self.add_to_scope(env);
        if let Some(ex) = self.exporting() {
            ex.values.extend(env.values.iter().map(|(k, v)| (k.clone(), *v)));
            ex.types.extend(env.types.iter().map(|(k, v)| (k.clone(), v.clone())));
            ex.mods.extend(env.mods.iter().map(|(k, v)| (k.clone(), v.clone())));
            ex.sigs.extend(env.sigs.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
    }

    /// The exports of the module being checked, unless inside `local`.
    fn exporting(&mut self) -> Option<&mut ModEnv> {
        if self.modules.local_depth > 0 {
            return None;
        }
        self.modules.exports.last_mut()
    }

    pub fn export_value(&mut self, name: &str, def: DefId) {
        if let Some(ex) = self.exporting() {
            ex.values.insert(name.to_string(), def);
        }
    }

    pub fn export_type(&mut self, name: &str, abbrev: &TypeAbbrev) {
        if let Some(ex) = self.exporting() {
            ex.types.insert(name.to_string(), abbrev.clone());
        }
    }

    /// Starts checking a file: its imports, and a fresh export table.
    pub fn begin_file(&mut self, imports: &[(String, usize)]) {
        self.modules.imports = imports.to_vec();
        self.modules.exports = vec![ModEnv::default()];
        self.modules.opened_prims.clear();
    }

    pub fn end_file(&mut self) {
        let env = self.modules.exports.pop().unwrap_or_default();
        self.modules.file_envs.push(env);
    }

    // ------------------------------------------------------ abstract types

    /// A new abstract type named `name` (for messages).
    fn fresh_abstract(
        &mut self,
        name: String,
        params: Vec<(NodeId, bool)>,
        def: Option<Ty>,
        liftedness: Liftedness,
    ) -> TypeAbbrev {
        let id = self.store.fresh_synthetic();
        self.names.insert(id, name);
        let ty = Ty::Abstract(id, param_args(&params));
        self.modules.abstracts.insert(id, AbstractType { params: params.clone(), def, liftedness });
        TypeAbbrev { params, ty, liftedness }
    }

    /// `ty` with abstract types replaced by their definitions: all of them
    /// (`only` = `None`, for `TypeInfo`), or those of the signature match
    /// in progress. Existential sizes in a definition are fresh at each
    /// expansion, as at each use of an abbreviation.
    pub fn expand_abstract(&mut self, ty: &Ty, only: Option<&[NodeId]>) -> Ty {
        if self.modules.abstracts.is_empty() || !crate::ty::contains_abstract(ty) {
            return ty.clone();
        }
        self.expand_depth(ty, only, 0)
    }

    fn expand_depth(&mut self, ty: &Ty, only: Option<&[NodeId]>, depth: u32) -> Ty {
        if depth > 200 {
            return Ty::Error;
        }
        let go = |c: &mut Checker, t: &Ty| c.expand_depth(t, only, depth + 1);
        match ty {
            Ty::Abstract(id, args) => {
                if only.is_none() && args.is_empty() {
                    if let Some(t) = self.modules.expanded.get(id) {
                        return t.clone();
                    }
                }
                let args: Vec<Ty> = args.iter().map(|a| go(self, a)).collect();
                let allowed = only.is_none_or(|ids| ids.contains(id));
                if only.is_none() && args.is_empty() {
                    if let Some(def) = self.modules.abstracts.get(id).and_then(|a| a.def.clone()) {
                        if !crate::ty::has_unknown_dims(&def) {
                            let t = go(self, &def);
                            // Nested abstract types may bring fresh anonymous sizes.
                            if !crate::ty::has_unknown_dims(&t) {
                                self.modules.expanded.insert(*id, t.clone());
                            }
                            return t;
                        }
                    }
                }
                let found = self.modules.abstracts.get(id).filter(|_| allowed);
                let Some((params, Some(def))) = found.map(|a| (a.params.clone(), a.def.clone())) else {
                    return Ty::Abstract(*id, args);
                };
                let mut types = HashMap::default();
                let mut sizes = HashMap::default();
                for ((p, is_size), a) in params.iter().zip(&args) {
                    match (is_size, a) {
                        (true, Ty::Array(_, dims)) if dims.len() == 1 => {
                            sizes.insert(*p, dims[0].clone());
                        }
                        _ => {
                            types.insert(*p, a.clone());
                        }
                    }
                }
                let t = self.subst_sizes_in_terms(&crate::ty::subst_params(&def, &types), &sizes);
                let mut fresh: HashMap<u32, Dim> = HashMap::default();
                let store = &mut self.store;
                let t = crate::ty::map_unknowns(&t, &mut |u| {
                    Some(fresh.entry(u).or_insert_with(|| store.fresh_unknown()).clone())
                });
                go(self, &t)
            }
            Ty::Array(elem, dims) => {
                let mut out = go(self, elem);
                for d in dims.iter().rev() {
                    out = Ty::array_of(out, d.clone());
                }
                out
            }
            Ty::Record(fs) => Ty::Record(fs.iter().map(|(k, t)| (k.clone(), go(self, t))).collect()),
            Ty::Sum(cs) => {
                Ty::Sum(cs.iter().map(|(k, ts)| (k.clone(), ts.iter().map(|t| go(self, t)).collect())).collect())
            }
            Ty::Arrow(a) => {
                let mut a = (**a).clone();
                a.from = go(self, &a.from);
                a.to = go(self, &a.to);
                Ty::Arrow(Box::new(a))
            }
            other => other.clone(),
        }
    }

    /// A resolved type as `TypeInfo` records it: abstract types expanded.
    pub fn public_type(&mut self, ty: &Ty) -> crate::info::Type {
        if !crate::ty::contains_abstract(ty) {
            return crate::ty::to_public(ty);
        }
        let t = self.expand_abstract(ty, None);
        crate::ty::to_public(&t)
    }

    /// The liftedness of a type as written (Futhark's rule: a function type
    /// or anything lifted in it makes it lifted; an existential size or
    /// anything size-lifted makes it size-lifted). `own` gives the
    /// liftedness of the type parameters being declared.
    pub fn type_exp_liftedness(&self, te: &TypeExp, own: &[TypeParam]) -> Liftedness {
        let max = |a: Liftedness, b: Liftedness| if lift_rank(a) >= lift_rank(b) { a } else { b };
        match te {
            TypeExp::Var(q) => {
                if q.quals.is_empty() {
                    let param = own.iter().find_map(|tp| match tp {
                        TypeParam::Type(b, l) if b.name.text == q.name => Some(*l),
                        _ => None,
                    });
                    if let Some(l) = param {
                        return l;
                    }
                    if let Some((_, t)) = self.local_types.iter().rev().find(|(n, _)| *n == q.name) {
                        return match t {
                            Ty::Param(p) if self.lifted_params.contains(p) => Liftedness::Lifted,
                            _ => Liftedness::Unlifted,
                        };
                    }
                    return self.types.get(&q.name).map_or(Liftedness::Unlifted, |a| a.liftedness);
                }
                match self.lookup_module_path(&q.quals) {
                    Some(Module::Struct(env)) => env.types.get(&q.name).map_or(Liftedness::Unlifted, |a| a.liftedness),
                    _ => Liftedness::Unlifted,
                }
            }
            TypeExp::Tuple(items, _) => {
                items.iter().map(|t| self.type_exp_liftedness(t, own)).fold(Liftedness::Unlifted, max)
            }
            TypeExp::Record(fs, _) => {
                fs.iter().map(|(_, t)| self.type_exp_liftedness(t, own)).fold(Liftedness::Unlifted, max)
            }
            TypeExp::Sum(cs, _) => cs
                .iter()
                .flat_map(|(_, ts)| ts.iter())
                .map(|t| self.type_exp_liftedness(t, own))
                .fold(Liftedness::Unlifted, max),
            TypeExp::Array(..) => Liftedness::Unlifted,
            TypeExp::Unique(t, _) => self.type_exp_liftedness(t, own),
            TypeExp::Arrow { .. } => Liftedness::Lifted,
            TypeExp::Apply(f, arg, _) => {
                let a = match &**arg {
                    TypeArg::Type(t) => self.type_exp_liftedness(t, own),
                    TypeArg::Size(_) => Liftedness::Unlifted,
                };
                max(self.type_exp_liftedness(f, own), a)
            }
            TypeExp::Existential(_, t, _) => max(self.type_exp_liftedness(t, own), Liftedness::SizeLifted),
        }
    }

    /// A type abbreviation may be no more lifted than declared.
    pub fn check_abbrev_liftedness(&mut self, td: &TypeDec, ty: &Ty) {
        let mut l = self.type_exp_liftedness(&td.def, &td.params);
        if crate::ty::contains_arrow(ty) {
            l = Liftedness::Lifted;
        }
        let declared = lift_rank(td.liftedness);
        if l == Liftedness::Lifted && declared < 2 {
            self.error(
                "abbreviation-liftedness",
                td.span,
                format!(
                    "Non-lifted type abbreviations may not contain functions. Hint: consider using 'type^' for `{}`.",
                    td.name.name.text
                ),
            );
        } else if l == Liftedness::SizeLifted && declared < 1 {
            self.error(
                "abbreviation-liftedness",
                td.span,
                format!(
                    "Non-size-lifted type abbreviations may not contain size-lifted types. Hint: consider using 'type~' for `{}`.",
                    td.name.name.text
                ),
            );
        }
    }

    /// Why a type may not be an array element, if it is a lifted or
    /// size-lifted abstract type (Futhark's wording).
    pub fn abstract_elem_error(&self, t: &Ty) -> Option<String> {
        let Ty::Abstract(id, _) = self.store.resolve(t) else { return None };
        let shown = self.show(t);
        match self.modules.abstracts.get(&id)?.liftedness {
            Liftedness::Unlifted => None,
            Liftedness::SizeLifted => Some(format!(
                "Cannot create array with elements of size-lifted type \"{shown}\" (might cause irregular array)."
            )),
            Liftedness::Lifted => {
                Some(format!("Cannot create array with elements of lifted type \"{shown}\" (might contain function)."))
            }
        }
    }

    /// A type parameter declared `'a` may not be instantiated with a
    /// size-lifted or lifted abstract type, nor one declared `'~a` with a
    /// lifted one (`tabulate n P.f` where `P.f : i64 -> P.a`, `type~ a`).
    pub fn check_abstract_instantiations(&mut self) {
        fn worst(c: &Checker, t: &Ty) -> Option<(NodeId, Liftedness)> {
            match t {
                Ty::Abstract(id, args) => {
                    let own = c.modules.abstracts.get(id).map(|a| a.liftedness).unwrap_or(Liftedness::Unlifted);
                    let inner = args.iter().filter_map(|a| worst(c, a)).max_by_key(|(_, l)| lift_rank(*l));
                    match inner {
                        Some((i, l)) if lift_rank(l) > lift_rank(own) => Some((i, l)),
                        _ => Some((*id, own)),
                    }
                }
                Ty::Array(e, _) => worst(c, e),
                Ty::Record(fs) => fs.values().filter_map(|t| worst(c, t)).max_by_key(|(_, l)| lift_rank(*l)),
                Ty::Sum(cs) => cs.values().flatten().filter_map(|t| worst(c, t)).max_by_key(|(_, l)| lift_rank(*l)),
                _ => None,
            }
        }
        let mut bad = None;
        for (node, types, _) in &self.pending.insts {
            for (p, t) in types {
                if !self.no_function_params.contains(p) {
                    continue;
                }
                let allowed = if self.lifted_params.contains(p) { 1 } else { 0 };
                let t = self.store.resolve(t);
                if let Some((id, l)) = worst(self, &t).filter(|(_, l)| lift_rank(*l) > allowed) {
                    if let Some(span) = self.pending.expr_spans.get(node) {
                        bad = Some((*span, *p, id, l));
                        break;
                    }
                }
            }
        }
        if let Some((span, p, id, l)) = bad {
            let name = self.names.get(&p).cloned().unwrap_or_else(|| "a".to_string());
            let shown = self.names.get(&id).cloned().unwrap_or_default();
            let what = if l == Liftedness::Lifted { "lifted" } else { "size-lifted" };
            // Futhark's wording follows: an unlifted parameter's values may be array elements.
            let futhark = if self.lifted_params.contains(&p) {
                "is lifted and may be a functional type"
            } else {
                "is lifted and cannot be an array element"
            };
            self.error(
                "lifted-instantiation",
                span,
                format!(
                    "Cannot instantiate type parameter \"{name}\" with {what} type `{shown}`: it is not declared {what}. Type \"{shown}\" {futhark}."
                ),
            );
        }
    }

    // ------------------------------------------------------- declarations

    /// Checks one declaration. `loc` is where a value declaration lives
    /// (`None` inside a module body, whose declarations are copied into
    /// `TypeInfo::generated`).
    pub fn check_dec(&mut self, dec: &Dec, loc: Option<DefLoc>, is_main: bool) {
        match dec {
            Dec::Value(vd) => {
                if vd.entry && self.modules.exports.len() > 1 {
                    // Futhark's rule: only a file's top level has entry points.
                    self.error(
                        "nested-entry",
                        vd.name.name.span,
                        format!(
                            "Entry points may not be declared inside modules (\"{}\" is declared with `entry`).",
                            vd.name.name.text
                        ),
                    );
                }
                let loc = match loc {
                    Some(l) => l,
                    None => {
                        self.info.generated.push(vd.clone());
                        DefLoc::Generated(self.info.generated.len() - 1)
                    }
                };
                self.check_value_dec(vd, loc, is_main);
            }
            Dec::Type(td) => self.check_type_dec(td),
            Dec::Import { .. } => {}
            Dec::Module(mb) => {
                self.modules.path.push(mb.name.text.clone());
                let module = if mb.params.is_empty() {
                    let m = self.eval_mod(&mb.body);
                    match (&mb.sig, m) {
                        (Some(sig), Some(m)) => self.match_sig(&m, sig, mb.span, true),
                        (_, m) => m,
                    }
                } else {
                    let ok = self.check_functor_body(&mb.params, mb.sig.as_ref(), &mb.body, mb.span);
                    Some(Module::Functor(Arc::new(Functor {
                        params: mb.params.clone(),
                        ret: mb.sig.clone(),
                        body: mb.body.clone(),
                        scope: self.scope(),
                        args: Vec::new(),
                        ok,
                    })))
                };
                self.modules.path.pop();
                if let Some(m) = module {
                    self.modules.mods.insert(mb.name.text.clone(), m.clone());
                    if let Some(ex) = self.exporting() {
                        ex.mods.insert(mb.name.text.clone(), m);
                    }
                }
            }
            Dec::ModType { name, sig, .. } => {
                let valid = self.check_sig_dec(sig);
                let clo = Arc::new(SigClosure { sig: sig.clone(), scope: self.scope(), valid });
                self.modules.sigs.insert(name.text.clone(), clo.clone());
                if let Some(ex) = self.exporting() {
                    ex.sigs.insert(name.text.clone(), clo);
                }
            }
            Dec::Open(me, span) => match self.eval_mod(me) {
                Some(Module::Struct(env)) => self.bring_into_scope(&env),
                Some(Module::Prim(p)) => self.open_prim(p),
                Some(Module::Functor(_)) => self.error("module-mismatch", *span, "Cannot open a parametric module."),
                None => {}
            },
            Dec::Local(d, _) => {
                self.modules.local_depth += 1;
                self.check_dec(d, loc, is_main);
                self.modules.local_depth -= 1;
            }
        }
        self.check_too_large(dec.span());
    }

    /// The module a path names: `M`, `M.N`.
    pub fn lookup_module_path(&self, path: &[String]) -> Option<Module> {
        let (first, rest) = path.split_first()?;
        let mut m = self.modules.mods.get(first)?.clone();
        for name in rest {
            let next = match &m {
                Module::Struct(env) => env.mods.get(name)?.clone(),
                _ => return None,
            };
            m = next;
        }
        Some(m)
    }

    fn lookup_qual_module(&mut self, q: &QualName) -> Option<Module> {
        let mut path = q.quals.clone();
        path.push(q.name.clone());
        let m = self.lookup_module_path(&path);
        if m.is_none() {
            if q.quals.is_empty() && q.name == "intrinsics" {
                self.error(
                    "intrinsics-module",
                    q.span,
                    "The 'intrinsics' module may not be used in module expressions.",
                );
            } else {
                self.error("unknown-name", q.span, format!("Unknown module \"{q}\"."));
            }
        }
        m
    }

    /// `M.n` where `M` names a module whose value `n` is an `i64`: the
    /// size variable it stands for in types (`[G.size]u8`).
    pub fn module_value_size(&self, q: &QualName) -> Option<NodeId> {
        let g = &self.globals[self.module_value_def(q)?.0 as usize];
        (g.scheme.ty == Ty::i64()).then_some(g.binder)
    }

    /// The definition `M.x` names, where `M` is a module (not a local).
    pub fn module_value_def(&self, q: &QualName) -> Option<DefId> {
        if q.quals.is_empty() || self.lookup_local(&q.quals[0]).is_some() {
            return None;
        }
        match self.lookup_module_path(&q.quals) {
            Some(Module::Struct(env)) => env.values.get(&q.name).copied(),
            _ => None,
        }
    }

    /// Evaluates a module expression; errors are reported and give `None`.
    pub fn eval_mod(&mut self, me: &ModExp) -> Option<Module> {
        match me {
            ModExp::Var(q) => self.lookup_qual_module(q),
            ModExp::Struct(decs, _) => {
                let saved = self.scope();
                let opened = self.modules.opened_prims.len();
                self.modules.exports.push(ModEnv::default());
                let local_depth = std::mem::take(&mut self.modules.local_depth);
                self.check_duplicate_decs(decs);
                for d in decs {
                    self.check_dec(d, None, false);
                }
                self.modules.local_depth = local_depth;
                let env = self.modules.exports.pop().unwrap_or_default();
                self.modules.opened_prims.truncate(opened);
                self.set_scope(saved);
                Some(Module::Struct(Arc::new(env)))
            }
            ModExp::Import(path, span) => {
                let index = self.modules.imports.iter().find(|(p, _)| p == path).map(|(_, i)| *i);
                match index.and_then(|i| self.modules.file_envs.get(i)) {
                    Some(env) => Some(Module::Struct(Arc::new(env.clone()))),
                    None => {
                        self.error("import-not-found", *span, format!("The file \"{path}\" is not imported here."));
                        None
                    }
                }
            }
            ModExp::Ascribe(m, sig, span) => {
                let m = self.eval_mod(m)?;
                self.match_sig(&m, sig, *span, true)
            }
            ModExp::Apply(f, arg, span) => {
                let f = self.eval_mod(f)?;
                let arg = self.eval_mod(arg)?;
                self.apply_functor(&f, arg, *span)
            }
            ModExp::Lambda(param, ret, body, span) => {
                let params = vec![param.clone()];
                let ok = self.check_functor_body(&params, ret.as_ref(), body, *span);
                Some(Module::Functor(Arc::new(Functor {
                    params,
                    ret: ret.clone(),
                    body: (**body).clone(),
                    scope: self.scope(),
                    args: Vec::new(),
                    ok,
                })))
            }
        }
    }

    /// Whether the definitions being checked are in the application of a
    /// functor whose body was checked where it is defined, against its
    /// parameters' signatures. There, a parameter's value of an abstract
    /// type is not an array, so a function of the body may return it (as
    /// in Futhark, whose checker tracks no aliases through a type
    /// parameter); the application, where the type is the argument's
    /// array type, must not then reject the function for aliasing a
    /// top-level array (`alias-free-variable`).
    pub(crate) fn in_checked_functor(&self) -> bool {
        self.modules.applying_checked > 0
    }

    /// A copy of a functor body (and result signature) with fresh node ids.
    fn fresh_copy(&mut self, body: &ModExp, ret: Option<&SigExp>) -> (ModExp, Option<SigExp>) {
        let mut body = body.clone();
        let mut ret = ret.cloned();
        let next = &mut self.modules.next_clone_id;
        let mut fresh = || {
            *next += 1;
            NodeId(*next)
        };
        ogham_syntax::renumber::renumber_mod_exp(&mut body, &mut fresh);
        if let Some(r) = &mut ret {
            ogham_syntax::renumber::renumber_sig_exp(r, &mut fresh);
        }
        (body, ret)
    }

    /// Checks a functor's body at its definition, with each parameter bound
    /// to a module made from its signature (abstract types distinct,
    /// values of the specified types). The definitions this makes are
    /// dropped again; only the errors remain. Returns whether there were none.
    fn check_functor_body(&mut self, params: &[ModParam], ret: Option<&SigExp>, body: &ModExp, span: Span) -> bool {
        // A parameter that is itself a functor is only checked when applied.
        if params.iter().any(|p| self.is_functor_sig(&p.sig)) {
            return true;
        }
        self.checking_only(|c| {
            let opened = c.modules.opened_prims.len();
            let exports = std::mem::replace(&mut c.modules.exports, vec![ModEnv::default()]);
            let local_depth = std::mem::take(&mut c.modules.local_depth);
            let mut bound = true;
            let functor_spec = std::mem::take(&mut c.modules.functor_spec);
            for p in params {
                match c.param_module(&p.sig, std::slice::from_ref(&p.name.text)) {
                    Some(m) => {
                        c.modules.mods.insert(p.name.text.clone(), m);
                    }
                    None => bound = false,
                }
            }
            // Without a functor the parameter specifies, the body cannot be checked.
            let skip = std::mem::replace(&mut c.modules.functor_spec, functor_spec);
            if bound && !skip {
                let (body, ret) = c.fresh_copy(body, ret);
                let result = c.eval_mod(&body);
                if let (Some(m), Some(r)) = (result, &ret) {
                    c.match_sig(&m, r, span, true);
                }
            }
            c.modules.exports = exports;
            c.modules.local_depth = local_depth;
            c.modules.opened_prims.truncate(opened);
        })
    }

    /// Runs `f` for its errors only: the scope and the definitions it
    /// makes are dropped again. Returns whether it reported no error.
    fn checking_only(&mut self, f: impl FnOnce(&mut Checker)) -> bool {
        let errors = self.diags.len();
        let (globals, defs, generated) = (self.globals.len(), self.info.defs.len(), self.info.generated.len());
        let saved = self.scope();
        f(self);
        self.set_scope(saved);
        self.globals.truncate(globals);
        self.info.defs.truncate(defs);
        self.info.generated.truncate(generated);
        self.diags.len() == errors
    }

    /// Whether functor `f` accepts every module the parameter of the
    /// functor module type `sig` admits (parameters match contravariantly,
    /// as in Futhark: `(X: Const with t = i64) -> …` does not have type
    /// `(X: Const) -> …`). The module standing for the parameter is matched
    /// against `f`'s parameter signature in `f`'s scope; mismatches are
    /// reported as for any argument, qualified by `quals`.
    fn functor_admits(&mut self, f: &Functor, sig: &SigExp, quals: &[String], span: Span) -> bool {
        let Some((param, named)) = self.functor_sig_param(sig) else { return true };
        let Some(own) = f.params.get(f.args.len()) else { return true };
        if !f.ok || self.is_functor_sig(&param) {
            return true;
        }
        self.checking_only(|c| {
            if let Some(named) = named {
                c.set_scope(named.scope.clone());
            }
            let admitted = c.param_module(&param, quals);
            c.set_scope(f.scope_with_args());
            if let Some(admitted) = admitted {
                let base = c.modules.sealing.len();
                c.match_sig_in(&admitted, &own.sig, quals, &[], span, false);
                c.modules.sealing.truncate(base);
            }
        })
    }

    /// The parameter signature of a functor module type, with the named
    /// module type it came from, if any (whose scope it is read in).
    fn functor_sig_param(&self, sig: &SigExp) -> Option<(SigExp, Option<Arc<SigClosure>>)> {
        let mut sig = sig.clone();
        let mut named = None;
        for _ in 0..64 {
            match sig {
                SigExp::Arrow { from, .. } => return Some((*from, named)),
                SigExp::With { sig: inner, .. } => sig = *inner,
                SigExp::Var(q) if q.quals.is_empty() => {
                    let clo = self.modules.sigs.get(&q.name)?.clone();
                    sig = clo.sig.clone();
                    named = Some(clo);
                }
                _ => return None,
            }
        }
        None
    }

    /// Checks a module type where it is declared; returns whether it is valid.
    fn check_sig_dec(&mut self, sig: &SigExp) -> bool {
        if self.is_functor_sig(sig) {
            return true;
        }
        self.checking_only(|c| {
            c.param_module(sig, &[]);
            c.modules.functor_spec = false;
        })
    }

    /// The module a signature describes, standing for any module that
    /// matches it: abstract types are new, values are definitions without
    /// bodies. Only for checking (see `check_functor_body`).
    fn param_module(&mut self, sig: &SigExp, quals: &[String]) -> Option<Module> {
        let flat = self.flatten_sig(sig)?;
        let saved = self.enter_sig_scope(&flat.scope);
        let mut out = ModEnv::default();
        self.spec_module(&flat.specs, &flat.refinements, quals, &mut out);
        self.set_scope(saved);
        Some(Module::Struct(Arc::new(out)))
    }

    fn spec_module(&mut self, specs: &[Spec], refinements: &[Refinement], quals: &[String], out: &mut ModEnv) {
        for spec in specs {
            match spec {
                Spec::Type { name, liftedness, params, def, .. } => {
                    self.check_duplicate_type_params(params);
                    let refined = refinements.iter().find(|r| r.path.quals.is_empty() && r.path.name == name.name.text);
                    let abbrev = match (def, refined) {
                        (_, Some(r)) => r.abbrev.clone(),
                        (Some(d), None) => self.elaborate_abbrev(params, d, *liftedness),
                        (None, None) => {
                            let ps = params
                                .iter()
                                .map(|tp| match tp {
                                    TypeParam::Size(b) => (b.id, true),
                                    TypeParam::Type(b, _) => (b.id, false),
                                })
                                .collect();
                            self.fresh_abstract(qualified(quals, &name.name.text), ps, None, *liftedness)
                        }
                    };
                    self.types.insert(name.name.text.clone(), abbrev.clone());
                    out.types.insert(name.name.text.clone(), abbrev);
                }
                Spec::Val { name, type_params, ty, span } => {
                    if !self.check_val_spec_syntax(&name.text, type_params, ty, *span) {
                        continue;
                    }
                    let errors = self.diags.len();
                    let scheme = self.in_empty_scope(|c| {
                        let (types, mut sizes) = c.bind_type_params(type_params);
                        let t = c.type_exp(ty, AnonMode::Implicit);
                        sizes.extend(c.implicit_sizes.take().unwrap_or_default());
                        Scheme { type_params: types, size_params: sizes, ty: c.store.resolve(&t) }
                    });
                    if self.diags.len() > errors {
                        continue;
                    }
                    let id = DefId(self.globals.len() as u32);
                    let binder = self.store.fresh_synthetic();
                    self.names.insert(binder, qualified(quals, &name.text));
                    let ty = self.public_type(&scheme.ty);
                    self.info.defs.push(DefInfo {
                        name: name.text.clone(),
                        loc: DefLoc::Generated(usize::MAX),
                        is_entry: false,
                        ty,
                        size_params: scheme.size_params.clone(),
                    });
                    self.globals.push(crate::checker::GlobalDef { binder, scheme, alias: None });
                    self.global_names.insert(name.text.clone(), id);
                    out.values.insert(name.text.clone(), id);
                }
                Spec::Module { name, sig, .. } => {
                    if self.is_functor_sig(sig) {
                        // A functor cannot be made from its type: the
                        // generic check of a body using it is given up.
                        self.modules.functor_spec = true;
                        continue;
                    }
                    let mut inner_quals = quals.to_vec();
                    inner_quals.push(name.text.clone());
                    let inner_refs = inner_refinements(refinements, &name.text);
                    let Some(flat) = self.flatten_sig(sig) else { continue };
                    let saved = self.enter_sig_scope(&flat.scope);
                    let mut refs = inner_refs;
                    refs.extend(flat.refinements);
                    let mut inner = ModEnv::default();
                    self.spec_module(&flat.specs, &refs, &inner_quals, &mut inner);
                    self.set_scope(saved);
                    let m = Module::Struct(Arc::new(inner));
                    self.modules.mods.insert(name.text.clone(), m.clone());
                    out.mods.insert(name.text.clone(), m);
                }
                Spec::Include(sig, _) => {
                    if let Some(flat) = self.flatten_sig(sig) {
                        let mut refs = refinements.to_vec();
                        refs.extend(flat.refinements);
                        // The included specifications mean what they meant
                        // where their module type was declared (its imports,
                        // not this file's); what they declare is then in
                        // scope here too.
                        let saved = self.enter_sig_scope(&flat.scope);
                        self.spec_module(&flat.specs, &refs, quals, out);
                        self.set_scope(saved);
                        self.add_to_scope(out);
                    }
                }
            }
        }
    }

    /// The checks of a `val` specification that need no types: distinct
    /// type parameters and parameter names, no anonymous sizes. Returns
    /// whether it passed.
    fn check_val_spec_syntax(&mut self, name: &str, type_params: &[TypeParam], ty: &TypeExp, span: Span) -> bool {
        let errors = self.diags.len();
        self.check_duplicate_type_params(type_params);
        if let Some((dup, at)) = duplicate_param_name(ty, &mut Vec::new()) {
            self.error("duplicate-binding", at, format!("Name \"{dup}\" also bound earlier in the type of `{name}`."));
        }
        if anonymous_param_size(ty).is_some() {
            self.error(
                "anonymous-size-in-spec",
                span,
                format!(
                    "All function parameters must have non-anonymous sizes. Hint: add size parameters to \"{name}\"."
                ),
            );
        }
        self.diags.len() == errors
    }

    /// `type t params = def` as a specification or refinement gives it.
    fn elaborate_abbrev(&mut self, params: &[TypeParam], def: &TypeExp, liftedness: Liftedness) -> TypeAbbrev {
        self.in_empty_scope(|c| {
            let mut ps = Vec::new();
            for tp in params {
                match tp {
                    TypeParam::Size(b) => {
                        c.push_size_binder(b);
                        ps.push((b.id, true));
                    }
                    TypeParam::Type(b, _) => {
                        c.note_name(b);
                        c.local_types.push((b.name.text.clone(), Ty::Param(b.id)));
                        ps.push((b.id, false));
                    }
                }
            }
            // `[]` in a definition is existential, fresh at each use, as in
            // a type declaration.
            let t = c.type_exp(def, AnonMode::Unknown);
            TypeAbbrev { params: ps, ty: c.store.resolve(&t), liftedness }
        })
    }

    fn apply_functor(&mut self, f: &Module, arg: Module, span: Span) -> Option<Module> {
        let Module::Functor(fun) = f else {
            self.error("module-mismatch", span, "Cannot apply a module that is not parametric.");
            return None;
        };
        if !fun.ok {
            // Its errors were reported where it is defined.
            return None;
        }
        let param = &fun.params[fun.args.len()];
        // The parameter's signature is elaborated in the functor's scope,
        // with the earlier parameters bound.
        let saved = self.scope();
        let mut scope = fun.scope_with_args();
        self.set_scope(scope.clone());
        let matched = self.match_sig(&arg, &param.sig, span, false);
        self.set_scope(saved);
        let matched = matched?;
        let mut args = fun.args.clone();
        args.push((param.name.text.clone(), matched.clone()));
        if args.len() < fun.params.len() {
            return Some(Module::Functor(Arc::new(Functor {
                params: fun.params.clone(),
                ret: fun.ret.clone(),
                body: fun.body.clone(),
                scope: fun.scope.clone(),
                args,
                ok: fun.ok,
            })));
        }
        let saved = self.scope();
        let opened = self.modules.opened_prims.len();
        scope.mods.insert(param.name.text.clone(), matched);
        self.set_scope(scope);
        let (body, ret) = self.fresh_copy(&fun.body, fun.ret.as_ref());
        let exports = std::mem::take(&mut self.modules.exports);
        let local_depth = std::mem::take(&mut self.modules.local_depth);
        self.modules.exports = vec![ModEnv::default()];
        let generic = !fun.params.iter().any(|p| self.is_functor_sig(&p.sig));
        self.modules.applying_checked += generic as u32;
        let result = self.eval_mod(&body);
        self.modules.applying_checked -= generic as u32;
        let result = match (result, &ret) {
            (Some(m), Some(r)) => self.match_sig(&m, r, span, true),
            (m, _) => m,
        };
        self.modules.exports = exports;
        self.modules.local_depth = local_depth;
        self.modules.opened_prims.truncate(opened);
        self.set_scope(saved);
        result
    }

    /// Reduces a signature expression to specifications.
    fn flatten_sig(&mut self, sig: &SigExp) -> Option<FlatSig> {
        match sig {
            SigExp::Var(q) => {
                let clo = self.lookup_sig(q)?;
                if !clo.valid {
                    return None;
                }
                self.with_scope(clo.scope.clone(), |c| c.flatten_sig(&clo.sig))
            }
            SigExp::Specs(specs, _) => {
                Some(FlatSig { specs: specs.clone(), scope: self.scope(), refinements: Vec::new() })
            }
            SigExp::With { sig, path, params, def, span } => {
                let mut flat = self.flatten_sig(sig)?;
                let Some((spec_params, spec_lift)) = self.refinable(&flat, path) else {
                    self.error(
                        "invalid-refinement",
                        *span,
                        format!("\"{path}\" is not an abstract type in the module type."),
                    );
                    return None;
                };
                let matches = spec_params.len() == params.len()
                    && spec_params.iter().zip(params).all(|(s, p)| match (s, p) {
                        (TypeParam::Type(_, l1), TypeParam::Type(_, l2)) => lift_rank(*l1) <= lift_rank(*l2),
                        (TypeParam::Size(_), TypeParam::Size(_)) => true,
                        _ => false,
                    });
                if !matches {
                    let describe = |ps: &[TypeParam]| {
                        if ps.is_empty() {
                            "no type parameters".to_string()
                        } else {
                            format!("type parameters{}", show_type_params(ps))
                        }
                    };
                    self.error(
                        "invalid-refinement",
                        *span,
                        format!(
                            "Cannot refine a type having {} with a type having {}.",
                            describe(params),
                            describe(&spec_params)
                        ),
                    );
                    return None;
                }
                let abbrev = self.elaborate_abbrev(params, def, spec_lift);
                flat.refinements.push(Refinement { path: path.clone(), abbrev });
                Some(flat)
            }
            SigExp::Arrow { span, .. } => {
                self.error("module-mismatch", *span, "A parametric module type is not supported here.");
                None
            }
        }
    }

    /// The parameters and liftedness of the abstract type `path` of a
    /// signature, if it is one that no earlier `with` refined.
    fn refinable(&self, flat: &FlatSig, path: &QualName) -> Option<(Vec<TypeParam>, Liftedness)> {
        if flat.refinements.iter().any(|r| r.path.quals == path.quals && r.path.name == path.name) {
            return None;
        }
        let mut types = Vec::new();
        self.collect_type_specs(&flat.specs, &[], &mut types, 0);
        let mut full = path.quals.clone();
        full.push(path.name.clone());
        // An abstract specification of the name (an included one may be
        // refined to equal it).
        types.into_iter().find(|(q, _, _, has_def)| *q == full && !has_def).map(|(_, ps, l, _)| (ps, l))
    }

    /// The type specifications of a signature, `include`s and nested
    /// modules followed without elaborating anything: full path, parameters,
    /// liftedness, whether it has a definition.
    fn collect_type_specs(
        &self,
        specs: &[Spec],
        prefix: &[String],
        out: &mut Vec<(Vec<String>, Vec<TypeParam>, Liftedness, bool)>,
        depth: u32,
    ) {
        if depth > 32 {
            return;
        }
        for spec in specs {
            match spec {
                Spec::Type { name, params, def, liftedness, .. } => {
                    let mut full = prefix.to_vec();
                    full.push(name.name.text.clone());
                    out.push((full, params.clone(), *liftedness, def.is_some()));
                }
                Spec::Module { name, sig, .. } => {
                    let mut inner = prefix.to_vec();
                    inner.push(name.text.clone());
                    if let Some(specs) = self.raw_specs(sig, depth + 1) {
                        self.collect_type_specs(&specs, &inner, out, depth + 1);
                    }
                }
                Spec::Include(sig, _) => {
                    if let Some(specs) = self.raw_specs(sig, depth + 1) {
                        self.collect_type_specs(&specs, prefix, out, depth + 1);
                    }
                }
                Spec::Val { .. } => {}
            }
        }
    }

    /// The specifications of a signature expression, without elaborating them.
    fn raw_specs(&self, sig: &SigExp, depth: u32) -> Option<Vec<Spec>> {
        if depth > 32 {
            return None;
        }
        match sig {
            SigExp::Var(q) => {
                let clo = if q.quals.is_empty() {
                    self.modules.sigs.get(&q.name).cloned()
                } else {
                    match self.lookup_module_path(&q.quals) {
                        Some(Module::Struct(env)) => env.sigs.get(&q.name).cloned(),
                        _ => None,
                    }
                }?;
                self.raw_specs(&clo.sig, depth + 1)
            }
            SigExp::Specs(specs, _) => Some(specs.clone()),
            SigExp::With { sig, .. } => self.raw_specs(sig, depth + 1),
            SigExp::Arrow { .. } => None,
        }
    }

    /// Whether a module type is that of a functor (`(P: S) -> R`, possibly by name).
    fn is_functor_sig(&self, sig: &SigExp) -> bool {
        self.functor_sig_param(sig).is_some()
    }

    fn lookup_sig(&mut self, q: &QualName) -> Option<Arc<SigClosure>> {
        let found = if q.quals.is_empty() {
            self.modules.sigs.get(&q.name).cloned()
        } else {
            match self.lookup_module_path(&q.quals) {
                Some(Module::Struct(env)) => env.sigs.get(&q.name).cloned(),
                _ => None,
            }
        };
        if found.is_none() {
            self.error("unknown-name", q.span, format!("Unknown module type \"{q}\"."));
        }
        found
    }

    fn with_scope<T>(&mut self, scope: ModEnv, f: impl FnOnce(&mut Checker) -> T) -> T {
        let saved = self.scope();
        self.set_scope(scope);
        let r = f(self);
        self.set_scope(saved);
        r
    }

    /// Checks that `m` provides what `sig` specifies; the result is `m`
    /// restricted to the specified names, with the abstract types of `sig`
    /// made abstract if `seal` (ascription) or left as `m` defines them
    /// (a functor argument).
    pub fn match_sig(&mut self, m: &Module, sig: &SigExp, span: Span, seal: bool) -> Option<Module> {
        let base = self.modules.sealing.len();
        let r = self.match_sig_in(m, sig, &[], &[], span, seal);
        self.modules.sealing.truncate(base);
        r
    }

    fn match_sig_in(
        &mut self,
        m: &Module,
        sig: &SigExp,
        quals: &[String],
        outer_refinements: &[Refinement],
        span: Span,
        seal: bool,
    ) -> Option<Module> {
        if self.is_functor_sig(sig) {
            return match m {
                Module::Functor(f) => self.functor_admits(f, sig, quals, span).then(|| m.clone()),
                _ => {
                    self.error(
                        "module-mismatch",
                        span,
                        "Cannot match non-parametric module with parametric module type.",
                    );
                    None
                }
            };
        }
        if let Module::Functor(_) = m {
            self.error("module-mismatch", span, "Cannot match parametric module with non-parametric module type.");
            return None;
        }
        let flat = self.flatten_sig(sig)?;
        let saved = self.enter_sig_scope(&flat.scope);
        let errors = self.diags.len();
        let mut out = ModEnv::default();
        let mut refs = outer_refinements.to_vec();
        refs.extend(flat.refinements.iter().cloned());
        self.match_specs(m, &flat.specs, &refs, quals, &mut out, span, seal);
        self.set_scope(saved);
        if self.diags.len() > errors {
            return None;
        }
        match m {
            Module::Prim(_) => Some(m.clone()),
            _ => Some(Module::Struct(Arc::new(out))),
        }
    }

    /// `type t params = ty` in Futhark notation, for messages.
    fn show_abbrev(&self, name: &str, a: &TypeAbbrev) -> String {
        let mut s = format!("type{} {name}", lift_mark(a.liftedness));
        for (p, is_size) in &a.params {
            let n = self.names.get(p).cloned().unwrap_or_else(|| "?".to_string());
            if *is_size {
                s.push_str(&format!(" [{n}]"));
            } else {
                s.push_str(&format!(" '{n}"));
            }
        }
        format!("{s} = {}", self.show(&a.ty))
    }

    /// Whether two abbreviations with the same parameters define the same type.
    fn same_abbrev(&mut self, expected: &TypeAbbrev, actual: &TypeAbbrev, span: Span) -> bool {
        if expected.params.len() != actual.params.len()
            || expected.params.iter().zip(&actual.params).any(|(a, b)| a.1 != b.1)
        {
            return false;
        }
        let mut types = HashMap::default();
        let mut sizes = HashMap::default();
        for ((e, is_size), (a, _)) in expected.params.iter().zip(&actual.params) {
            if *is_size {
                sizes.insert(*a, Dim::var(*e));
            } else {
                types.insert(*a, Ty::Param(*e));
            }
        }
        let a = self.subst_sizes_in_terms(&crate::ty::subst_params(&actual.ty, &types), &sizes);
        self.unify(&expected.ty, &a, SizeMode::Ignore, span).is_ok()
    }

    #[allow(clippy::too_many_arguments)]
    fn match_specs(
        &mut self,
        m: &Module,
        specs: &[Spec],
        refinements: &[Refinement],
        quals: &[String],
        out: &mut ModEnv,
        span: Span,
        seal: bool,
    ) {
        for spec in specs {
            match spec {
                Spec::Type { name, liftedness, params, def, .. } => {
                    let text = &name.name.text;
                    let qname = qualified(quals, text);
                    self.check_duplicate_type_params(params);
                    let actual = match m {
                        Module::Struct(env) => env.types.get(text).cloned(),
                        Module::Prim(p) => prim_type_member(*p, text).map(|ty| TypeAbbrev {
                            params: Vec::new(),
                            ty,
                            liftedness: Liftedness::Unlifted,
                        }),
                        _ => None,
                    };
                    let Some(actual) = actual else {
                        self.error(
                            "module-mismatch",
                            span,
                            format!("Module does not define a type named \"{qname}\"."),
                        );
                        continue;
                    };
                    let refined = refinements.iter().find(|r| r.path.quals.is_empty() && r.path.name == *text);
                    let spec_abbrev = match (def, refined) {
                        (_, Some(r)) => Some(r.abbrev.clone()),
                        (Some(d), None) => Some(self.elaborate_abbrev(params, d, *liftedness)),
                        (None, None) => None,
                    };
                    let kinds_match = actual.params.len() == params.len()
                        && actual
                            .params
                            .iter()
                            .zip(params)
                            .all(|((_, is_size), tp)| *is_size == matches!(tp, TypeParam::Size(_)));
                    let spec_text = || format!("type{} {qname}{}", lift_mark(*liftedness), show_type_params(params));
                    if !kinds_match {
                        let a = self.show_abbrev(&qname, &actual);
                        self.error(
                            "module-mismatch",
                            span,
                            format!("Module defines `{a}`, but module type requires `{}`.", spec_text()),
                        );
                        continue;
                    }
                    // Refined by `with t = X`, the type must equal `X`
                    // (checked below), whatever liftedness it is declared with
                    // (`type~ ctx = P.ctx` for `mt with ctx = P.ctx`).
                    if def.is_none() && refined.is_none() {
                        if lift_rank(actual.liftedness) > lift_rank(*liftedness) {
                            let a = self.show_abbrev(&qname, &actual);
                            let what = match liftedness {
                                Liftedness::Unlifted => "a non-lifted type",
                                Liftedness::SizeLifted => "a size-lifted type",
                                Liftedness::Lifted => "a lifted type",
                            };
                            self.error(
                                "module-mismatch",
                                span,
                                format!("Module defines `{a}`, but module type requires {what}."),
                            );
                            continue;
                        }
                        let mut unknowns = Vec::new();
                        top_level_unknowns(&actual.ty, &mut unknowns);
                        if *liftedness == Liftedness::Unlifted && !unknowns.is_empty() {
                            let a = self.show_abbrev(&qname, &actual);
                            self.error(
                                "module-mismatch",
                                span,
                                format!("Module defines `{a}`, which contains anonymous sizes, but module type requires non-lifted type."),
                            );
                            continue;
                        }
                        if refined.is_none() {
                            let mut witnessed = Vec::new();
                            crate::ty::witnessed_sizes(&actual.ty, &mut witnessed);
                            let unused = actual
                                .params
                                .iter()
                                .find(|(p, is_size)| *is_size && !witnessed.contains(p))
                                .map(|(p, _)| *p);
                            if let Some(p) = unused {
                                let a = self.show_abbrev(&qname, &actual);
                                let n = self.names.get(&p).cloned().unwrap_or_default();
                                self.error(
                                    "module-mismatch",
                                    span,
                                    format!("Type `{a}` cannot be made abstract because size parameter \"{n}\" is not used constructively as an array size in the definition."),
                                );
                                continue;
                            }
                        }
                    }
                    // What a sealed module exposes for a transparent specification:
                    // the specification's type, so that `type t = u` with `u`
                    // made abstract by this match stays abstract.
                    let mut sealed_transparent = None;
                    if let Some(expected) = &spec_abbrev {
                        // Compared (and shown) with the abstract types of this match expanded.
                        let sealing = self.modules.sealing.clone();
                        let expanded = self.expand_abstract(&expected.ty, Some(&sealing));
                        if seal {
                            sealed_transparent = Some(expected.clone());
                        }
                        let expected = &TypeAbbrev { ty: expanded, ..expected.clone() };
                        if !self.same_abbrev(expected, &actual, span) {
                            let a = self.show_abbrev(&qname, &actual);
                            let e = self.show_abbrev(&qname, expected);
                            self.error(
                                "module-mismatch",
                                span,
                                format!("Module defines `{a}`, but module type requires `{e}`."),
                            );
                            continue;
                        }
                    }
                    let result = if seal && spec_abbrev.is_none() {
                        let mut path = self.modules.path.clone();
                        path.extend(quals.iter().cloned());
                        let abbrev = self.fresh_abstract(
                            qualified(&path, text),
                            actual.params.clone(),
                            Some(actual.ty.clone()),
                            *liftedness,
                        );
                        if let Ty::Abstract(id, _) = &abbrev.ty {
                            self.modules.sealing.push(*id);
                        }
                        abbrev
                    } else if let Some(spec) = sealed_transparent {
                        spec
                    } else {
                        actual
                    };
                    self.types.insert(text.clone(), result.clone());
                    out.types.insert(text.clone(), result);
                }
                Spec::Val { name, type_params, ty, span: spec_span } => match m {
                    Module::Prim(p) => {
                        let known = crate::members::member_signature(*p, &name.text).is_some()
                            || crate::expr::BUILTIN_OPS.contains(&name.text.as_str());
                        if !known {
                            self.missing_value(&qualified(quals, &name.text), span);
                        }
                    }
                    Module::Struct(env) => {
                        if !self.check_val_spec_syntax(&name.text, type_params, ty, *spec_span) {
                            continue;
                        }
                        match env.values.get(&name.text).copied() {
                            Some(def) => {
                                let qname = qualified(quals, &name.text);
                                let def = self.check_val_spec(def, &qname, type_params, ty, span);
                                // Later specifications may use it as a size (`val n: i64`, `[n]t`).
                                self.global_names.insert(name.text.clone(), def);
                                out.values.insert(name.text.clone(), def);
                            }
                            None => self.missing_value(&qualified(quals, &name.text), span),
                        }
                    }
                    Module::Functor(_) => {}
                },
                Spec::Module { name, sig, .. } => {
                    let inner = match m {
                        Module::Struct(env) => env.mods.get(&name.text).cloned(),
                        _ => None,
                    };
                    match inner {
                        Some(inner) => {
                            let mut inner_quals = quals.to_vec();
                            inner_quals.push(name.text.clone());
                            let refs = inner_refinements(refinements, &name.text);
                            if let Some(r) = self.match_sig_in(&inner, sig, &inner_quals, &refs, span, seal) {
                                self.modules.mods.insert(name.text.clone(), r.clone());
                                out.mods.insert(name.text.clone(), r);
                            }
                        }
                        None => self.error(
                            "module-mismatch",
                            span,
                            format!("Module does not define a module named \"{}\".", qualified(quals, &name.text)),
                        ),
                    }
                }
                Spec::Include(sig, _) => {
                    if let Some(flat) = self.flatten_sig(sig) {
                        let mut refs = refinements.to_vec();
                        refs.extend(flat.refinements);
                        // As in `spec_module`: elaborated in the module
                        // type's own scope.
                        let saved = self.enter_sig_scope(&flat.scope);
                        self.match_specs(m, &flat.specs, &refs, quals, out, span, seal);
                        self.set_scope(saved);
                        self.add_to_scope(out);
                    }
                }
            }
        }
    }

    fn missing_value(&mut self, name: &str, span: Span) {
        self.error("module-mismatch", span, format!("Module does not define a value named \"{name}\"."));
    }

    /// Checks that definition `def` can have the type a `val` spec gives it;
    /// returns the value as the module type shows it (a [`SpecAlias`] with
    /// the specification's type), or `def` itself if that is the same.
    fn check_val_spec(&mut self, def: DefId, name: &str, type_params: &[TypeParam], te: &TypeExp, span: Span) -> DefId {
        let g = &self.globals[def.0 as usize];
        if g.scheme.ty == Ty::Error {
            return def;
        }
        let scheme = g.scheme.clone();
        let sealing = self.modules.sealing.clone();
        let spec_text = || format!("val {name}{} : {}", show_type_params(type_params), show_type_exp(te));
        self.in_empty_scope(|c| {
            let (spec_types, mut spec_sizes) = c.bind_type_params(type_params);
            let errors = c.diags.len();
            // Anonymous sizes in a function's parameters are implicit size
            // parameters; elsewhere (`val x : t` with `type~ t = []i32`)
            // they are existential: the module chooses the size.
            let mode = if matches!(te, TypeExp::Arrow { .. }) { AnonMode::Implicit } else { AnonMode::Unknown };
            let sealed = c.type_exp(te, mode);
            spec_sizes.extend(c.implicit_sizes.take().unwrap_or_default());
            if c.diags.len() > errors {
                return def;
            }
            let sealed = c.store.resolve(&sealed);
            let expected = c.expand_abstract(&sealed, Some(&sealing));
            let actual = c.instantiate(&scheme, NodeId(0), span);
            let mut before = Vec::new();
            let mut after = Vec::new();
            top_level_unknowns(&sealed, &mut before);
            top_level_unknowns(&expected, &mut after);
            if after.len() > before.len() {
                let short = name.rsplit('.').next().unwrap_or(name);
                c.error(
                    "module-mismatch",
                    span,
                    format!("Type substitution in \"{short}\" results in a top-level size."),
                );
                return def;
            }
            let mismatch = |c: &mut Checker, problem: String| {
                let (spec_text, actual_text) = (spec_text(), format!("val {name} : {}", c.show(&actual)));
                c.error(
                    "module-mismatch",
                    span,
                    format!("Module type specifies `{spec_text}`, but module provides `{actual_text}`. {problem}"),
                );
            };
            if c.unify(&expected, &actual, SizeMode::Ignore, span).is_err() {
                let (e, a) = (c.show(&expected), c.show(&actual));
                mismatch(c, format!("Type mismatch: expected `{e}`, but got `{a}`."));
                return def;
            }
            // Sizes, separately: equations left open are not errors here.
            // An existential size of the specification admits any size.
            let mut flexible: HashMap<u32, Dim> = HashMap::default();
            let store = &mut c.store;
            let loose = crate::ty::map_unknowns(&expected, &mut |u| {
                Some(flexible.entry(u).or_insert_with(|| store.fresh_svar()).clone())
            });
            let pending = std::mem::take(&mut c.pending_sizes);
            let sized = c.unify(&loose, &actual, SizeMode::Exact, span);
            c.pending_sizes = pending;
            if let Err(Mismatch::Sizes(d1, d2)) = sized {
                let (s1, s2) = (c.show_dim(&d1), c.show_dim(&d2));
                mismatch(c, format!("Sizes \"{s1}\" and \"{s2}\" do not match."));
                return def;
            }
            // A type parameter of the definition may not stand for a more
            // lifted one of the specification (`'a` for `'^a`).
            let spec_lift: HashMap<NodeId, Liftedness> = type_params
                .iter()
                .filter_map(|tp| match tp {
                    TypeParam::Type(b, l) => Some((b.id, *l)),
                    TypeParam::Size(_) => None,
                })
                .collect();
            let too_lifted = c.pending.insts.iter().flat_map(|(_, ts, _)| ts.iter()).any(|(p, t)| {
                let own = if !c.no_function_params.contains(p) {
                    2
                } else if c.lifted_params.contains(p) {
                    1
                } else {
                    0
                };
                let mut params = Vec::new();
                crate::ty::type_params_in(&c.store.resolve(t), &mut params);
                params.iter().any(|q| spec_lift.get(q).is_some_and(|l| lift_rank(*l) > own))
            });
            if too_lifted {
                mismatch(c, "A type parameter is less lifted than the module type requires.".to_string());
                return def;
            }
            if !uniqueness_fits(&sealed, &actual) {
                mismatch(c, "The uniqueness of the types differs.".to_string());
                return def;
            }
            let mut types: Vec<(NodeId, Ty)> = Vec::new();
            let mut sizes: Vec<(NodeId, Dim)> = Vec::new();
            for (_, ts, ss) in &c.pending.insts {
                types.extend(ts.iter().map(|(p, v)| (*p, c.store.resolve(v))));
                sizes.extend(ss.iter().map(|(p, d)| (*p, c.store.resolve_dim(d))));
            }
            let exact = types.iter().all(|(_, t)| matches!(t, Ty::Param(_)))
                && scheme.type_params.len() == spec_types.len()
                && scheme.size_params.len() == spec_sizes.len()
                && sealed == expected;
            if exact {
                return def;
            }
            let spec_scheme = Scheme { type_params: spec_types, size_params: spec_sizes, ty: sealed };
            c.spec_alias(def, spec_scheme, types, sizes)
        })
    }

    /// A new global standing for `target` with the specification's type.
    fn spec_alias(
        &mut self,
        target: DefId,
        scheme: Scheme,
        types: Vec<(NodeId, Ty)>,
        sizes: Vec<(NodeId, Dim)>,
    ) -> DefId {
        // Restricting a restricted value (a sealed module sealed again):
        // the definition itself, its type and size parameters composed.
        let (target, types, sizes) = match self.globals[target.0 as usize].alias.clone() {
            Some(old) => {
                let inst: HashMap<NodeId, Ty> = types.into_iter().collect();
                let composed = old.types.iter().map(|(p, t)| (*p, crate::ty::subst_params(t, &inst))).collect();
                let size_inst: HashMap<NodeId, Dim> = sizes.into_iter().collect();
                let sizes = old.sizes.iter().map(|(p, d)| (*p, crate::ty::subst_dim(d, &size_inst))).collect();
                (old.target, composed, sizes)
            }
            None => (target, types, sizes),
        };
        let id = DefId(self.globals.len() as u32);
        let binder = self.globals[target.0 as usize].binder;
        let ty = self.public_type(&scheme.ty);
        let old = &self.info.defs[target.0 as usize];
        let info = crate::info::DefInfo {
            name: old.name.clone(),
            loc: old.loc.clone(),
            is_entry: false,
            ty,
            size_params: scheme.size_params.clone(),
        };
        self.info.defs.push(info);
        self.push_global(crate::checker::GlobalDef { binder, scheme, alias: Some(SpecAlias { target, types, sizes }) });
        id
    }

    /// How many leading qualifiers of a name form a module path (`M.N` in
    /// `M.N.x.f`), 0 if the first is not a module.
    pub fn module_prefix(&self, quals: &[String]) -> usize {
        (1..=quals.len()).rev().find(|&i| self.lookup_module_path(&quals[..i]).is_some()).unwrap_or(0)
    }

    /// `M.N.x` or `M.x.f.g` (a module member followed by record fields),
    /// where the first `prefix` qualifiers name a module.
    pub fn module_path_var(&mut self, node: NodeId, q: &QualName, prefix: usize) -> Ty {
        let Some(m) = self.lookup_module_path(&q.quals[..prefix]) else {
            return Ty::Error;
        };
        if prefix == q.quals.len() {
            return self.module_member(node, m, q);
        }
        let member = QualName { quals: q.quals[..prefix].to_vec(), name: q.quals[prefix].clone(), span: q.span };
        let mut t = self.module_member(NodeId(0), m, &member);
        let head_res = self.info.resolutions.remove(&NodeId(0)).unwrap_or(Resolution::Local(NodeId(0)));
        let mut fields: Vec<String> = q.quals[prefix + 1..].to_vec();
        fields.push(q.name.clone());
        for f in &fields {
            t = self.project(&t, f, q.span);
        }
        if let Some(inst) = self.pending.insts.iter_mut().find(|(n, _, _)| *n == NodeId(0)) {
            inst.0 = node;
        }
        self.record_resolution(node, Resolution::Projection { head: Box::new(head_res), fields });
        t
    }

    /// A use of a top-level definition (or of a value seen through a module
    /// type): its type instantiated at `node`.
    pub fn global_value(&mut self, node: NodeId, def: DefId, span: Span) -> Ty {
        let g = &self.globals[def.0 as usize];
        let scheme = g.scheme.clone();
        let Some(alias) = g.alias.clone() else {
            self.record_resolution(node, Resolution::Def(def));
            let t = self.instantiate(&scheme, node, span);
            return t;
        };
        let insts_before = self.pending.insts.len();
        let t = self.instantiate(&scheme, node, span);
        // The definition's own type parameters, in terms of this use's
        // instantiation of the specification's (just recorded: searching
        // every earlier one made long definitions quadratic).
        let (spec_inst, spec_sizes): (HashMap<NodeId, Ty>, HashMap<NodeId, Dim>) =
            match self.pending.insts[insts_before..].iter().position(|(n, _, _)| *n == node) {
                Some(i) => {
                    let (_, ts, ss) = self.pending.insts.remove(insts_before + i);
                    (ts.into_iter().collect(), ss.into_iter().collect())
                }
                None => (HashMap::default(), HashMap::default()),
            };
        // A type may mention the specification's sizes (`'a` is `[a +
        // b][b + a]()` for `val plus_comm [a] [b] : eq [a + b] [b + a]`).
        let def_types: Vec<(NodeId, Ty)> = alias
            .types
            .iter()
            .map(|(p, term)| (*p, crate::ty::subst_sizes(&crate::ty::subst_params(term, &spec_inst), &spec_sizes)))
            .collect();
        let def_sizes: Vec<(NodeId, Dim)> =
            alias.sizes.iter().map(|(p, d)| (*p, crate::ty::subst_dim(d, &spec_sizes))).collect();
        if !def_types.is_empty() || !def_sizes.is_empty() {
            self.pending.insts.push((node, def_types, def_sizes));
        }
        self.record_resolution(node, Resolution::Def(alias.target));
        t
    }

    /// `M.x` where `M` names module `m`.
    pub fn module_member(&mut self, node: NodeId, m: Module, q: &QualName) -> Ty {
        match m {
            Module::Prim(p) => {
                if let Some(found) = self.prim_member(node, p, &q.name, q.span) {
                    return found;
                }
            }
            Module::Struct(env) => {
                if let Some(def) = env.values.get(&q.name).copied() {
                    return self.global_value(node, def, q.span);
                }
            }
            Module::Functor(_) => {}
        }
        let module = q.quals.join(".");
        self.error("unknown-name", q.span, format!("Module `{module}` has no member `{}`.", q.name));
        Ty::Error
    }

    /// A member of a numeric module: a built-in function or constant, or an
    /// operator at the module's type (`f32.+`, `i32.<`).
    fn prim_member(&mut self, node: NodeId, p: PrimType, name: &str, span: Span) -> Option<Ty> {
        if let Some((_, to_bool)) = op_shape(name).filter(|_| name != "&&" && name != "||") {
            let t = Ty::Prim(p);
            self.pending.ops.push((node, name.to_string(), t.clone()));
            let ret = if to_bool { Ty::bool() } else { t.clone() };
            return Some(Ty::arrow(t.clone(), Ty::arrow(t, ret)));
        }
        let sig = crate::members::member_signature(p, name)?;
        let t = self.builtin_signature(&sig, node, span);
        self.record_resolution(node, Resolution::Builtin(Builtin::ModuleMember { module: p, name: name.to_string() }));
        Some(t)
    }

    /// Brings a numeric module's members into scope: they shadow top-level
    /// definitions of the same names (a user-defined `+` included).
    fn open_prim(&mut self, p: PrimType) {
        self.global_names.retain(|name, _| !prim_provides(p, name));
        self.modules.opened_prims.push(p);
    }

    /// A name that is a member of a numeric module opened in scope.
    pub fn opened_prim_member(&mut self, node: NodeId, name: &str, span: Span) -> Option<Ty> {
        let prims: Vec<PrimType> = self.modules.opened_prims.iter().rev().copied().collect();
        prims.into_iter().find_map(|p| self.prim_member(node, p, name, span))
    }

    /// `M.(e)`: `e` checked with the names of `M` in scope.
    pub fn open_in(&mut self, q: &QualName, inner: &Expr) -> Ty {
        let Some(m) = self.lookup_qual_module(q) else {
            return Ty::Error;
        };
        let saved = self.scope();
        let opened = self.modules.opened_prims.len();
        let local_depth = self.modules.local_depth;
        // Nothing opened here is exported.
        self.modules.local_depth = 1;
        match &m {
            Module::Struct(env) => self.bring_into_scope(env),
            Module::Prim(p) => self.open_prim(*p),
            Module::Functor(_) => self.error("module-mismatch", q.span, "Cannot open a parametric module."),
        }
        self.modules.local_depth = local_depth;
        // The module's names shadow the local variables in scope.
        let mut hidden = Vec::new();
        for i in 0..self.locals.len() {
            let name = &self.locals[i].name;
            let shadowed = match &m {
                Module::Struct(env) => env.values.contains_key(name),
                Module::Prim(p) => prim_provides(*p, name),
                Module::Functor(_) => false,
            };
            if shadowed {
                let name = self.locals.hide_name(i);
                hidden.push((i, name));
            }
        }
        // A name the module provides is the module's, not the definition
        // being checked (`def (+) a b = T.(a + b)`).
        let provides_current = match (&m, &self.current_def) {
            (Module::Struct(env), Some(cur)) => env.values.contains_key(cur),
            _ => false,
        };
        let current_def = if provides_current { self.current_def.take() } else { None };
        let r = self.expr(inner);
        if current_def.is_some() {
            self.current_def = current_def;
        }
        for (i, name) in hidden {
            self.locals.restore_name(i, name);
        }
        self.modules.opened_prims.truncate(opened);
        self.set_scope(saved);
        r
    }
}

/// The types a numeric module defines: `t`, and for floats `int_t` (the
/// unsigned type of the same width, that `to_bits` gives).
pub fn prim_type_member(p: PrimType, name: &str) -> Option<Ty> {
    match name {
        "t" => Some(Ty::Prim(p)),
        "int_t" if p.is_float() => Some(Ty::Prim(match p {
            PrimType::F16 => PrimType::U16,
            PrimType::F32 => PrimType::U32,
            _ => PrimType::U64,
        })),
        _ => None,
    }
}

/// Whether a numeric module has a member of this name (operators included).
pub(crate) fn prim_provides(p: PrimType, name: &str) -> bool {
    (op_shape(name).is_some() && name != "&&" && name != "||") || crate::members::member_signature(p, name).is_some()
}
