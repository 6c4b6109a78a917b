//! The module language: module bindings, structures, functors, module
//! types (signatures), ascription, `open`, `local`, `import` as a module,
//! and qualified names (`M.N.x`, `M.t`, `M.+`, `M.(e)`).
//!
//! Modules are elaborated away during checking. A structure `{ decs }` is
//! checked declaration by declaration like a file; its value definitions
//! become ordinary top-level definitions ([`DefLoc::Generated`]) and the
//! structure is the table of names it exports ([`ModEnv`]). A functor is a
//! closure over its body and the scope it was defined in; each
//! application checks a fresh copy of the body (new node ids, see
//! `ogham_syntax::renumber`) with the parameters bound to the arguments, so
//! every definition in an applied functor is a plain monomorphic-per-use
//! definition that lowering inlines like any other.
//!
//! Signature matching checks that a module provides every specified type,
//! value and module, with compatible types, and restricts the module to
//! what the signature names. Types stay transparent: a sealed abstract type
//! is its definition (Futhark would hide it; a program Futhark accepts is
//! accepted here too). The numeric modules `i8`…`f64` and `bool` are
//! [`Module::Prim`], whose members are the built-ins of `members.rs`.

use std::collections::HashMap;
use std::rc::Rc;

use ogham_prim::PrimType;
use ogham_syntax::ast::{Dec, Expr, ModExp, ModParam, NodeId, QualName, SigExp, Spec, TypeParam};
use ogham_syntax::Span;

use crate::builtins::Builtin;
use crate::checker::{Aliases, Checker, Scheme, TypeAbbrev, GLOBAL_ALIAS};
use crate::expr::{op_shape, AnonMode};
use crate::info::{DefId, DefLoc, Resolution};
use crate::ty::Ty;
use crate::unify::SizeMode;

/// The names a module (or a scope) binds, in each namespace.
#[derive(Clone, Default)]
pub struct ModEnv {
    pub values: HashMap<String, DefId>,
    pub types: HashMap<String, TypeAbbrev>,
    pub mods: HashMap<String, Module>,
    pub sigs: HashMap<String, Rc<SigClosure>>,
}

/// A module value.
#[derive(Clone)]
pub enum Module {
    Struct(Rc<ModEnv>),
    /// A numeric module (`f32`) or `bool`: members are built-ins.
    Prim(PrimType),
    Functor(Rc<Functor>),
}

/// A functor: its remaining parameters, result signature and body, closed
/// over the scope of its definition and the arguments applied so far.
pub struct Functor {
    pub params: Vec<ModParam>,
    pub ret: Option<SigExp>,
    pub body: ModExp,
    pub scope: ModEnv,
    pub args: Vec<(String, Module)>,
}

/// A value restricted to its specification (see `GlobalDef::alias`).
#[derive(Clone, Debug)]
pub struct SpecAlias {
    /// The definition.
    pub target: DefId,
    /// Its type parameters, in terms of the specification's.
    pub types: Vec<(NodeId, Ty)>,
}

/// A module type with the scope it was defined in.
pub struct SigClosure {
    pub sig: SigExp,
    pub scope: ModEnv,
}

/// A signature reduced to its specifications, with the scope they are
/// elaborated in and the `with` refinements applied to it.
struct FlatSig {
    specs: Vec<Spec>,
    scope: ModEnv,
    /// `with t = te`: the type path and `te` elaborated where the `with` is
    /// written (`None` for refinements with type parameters, not compared).
    refinements: Vec<(QualName, Option<Ty>)>,
}

/// First id of the range used for nodes of elaborated functor bodies.
const CLONE_BASE: u32 = 0x8000_0000;

/// The module-language state of the checker.
pub struct ModState {
    pub mods: HashMap<String, Module>,
    pub sigs: HashMap<String, Rc<SigClosure>>,
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
    next_clone_id: u32,
}

impl Default for ModState {
    fn default() -> Self {
        let mut mods = HashMap::new();
        for p in PrimType::ALL {
            mods.insert(p.name().to_string(), Module::Prim(p));
        }
        ModState {
            mods,
            sigs: HashMap::new(),
            exports: Vec::new(),
            local_depth: 0,
            file_envs: Vec::new(),
            imports: Vec::new(),
            opened_prims: Vec::new(),
            next_clone_id: CLONE_BASE,
        }
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

    fn set_scope(&mut self, env: ModEnv) {
        self.global_names = env.values;
        self.types = env.types;
        self.modules.mods = env.mods;
        self.modules.sigs = env.sigs;
    }

    /// Adds every name of `env` to the current scope (and, unless `local`,
    /// to the current module's exports).
    fn bring_into_scope(&mut self, env: &ModEnv) {
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

    /// Checks one declaration. `loc` is where a value declaration lives
    /// (`None` inside a module body, whose declarations are copied into
    /// `TypeInfo::generated`).
    pub fn check_dec(&mut self, dec: &Dec, loc: Option<DefLoc>, is_main: bool) {
        match dec {
            Dec::Value(vd) => {
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
                let module = if mb.params.is_empty() {
                    let m = self.eval_mod(&mb.body);
                    match (&mb.sig, m) {
                        (Some(sig), Some(m)) => self.match_sig(&m, sig, mb.span),
                        (_, m) => m,
                    }
                } else {
                    Some(Module::Functor(Rc::new(Functor {
                        params: mb.params.clone(),
                        ret: mb.sig.clone(),
                        body: mb.body.clone(),
                        scope: self.scope(),
                        args: Vec::new(),
                    })))
                };
                if let Some(m) = module {
                    self.modules.mods.insert(mb.name.text.clone(), m.clone());
                    if let Some(ex) = self.exporting() {
                        ex.mods.insert(mb.name.text.clone(), m);
                    }
                }
            }
            Dec::ModType { name, sig, .. } => {
                let clo = Rc::new(SigClosure { sig: sig.clone(), scope: self.scope() });
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
            self.error("unknown-name", q.span, format!("Unknown module `{q}`."));
        }
        m
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
                Some(Module::Struct(Rc::new(env)))
            }
            ModExp::Import(path, span) => {
                let index = self.modules.imports.iter().find(|(p, _)| p == path).map(|(_, i)| *i);
                match index.and_then(|i| self.modules.file_envs.get(i)) {
                    Some(env) => Some(Module::Struct(Rc::new(env.clone()))),
                    None => {
                        self.error("import-not-found", *span, format!("The file \"{path}\" is not imported here."));
                        None
                    }
                }
            }
            ModExp::Ascribe(m, sig, span) => {
                let m = self.eval_mod(m)?;
                self.match_sig(&m, sig, *span)
            }
            ModExp::Apply(f, arg, span) => {
                let f = self.eval_mod(f)?;
                let arg = self.eval_mod(arg)?;
                self.apply_functor(&f, arg, *span)
            }
            ModExp::Lambda(param, ret, body, _) => Some(Module::Functor(Rc::new(Functor {
                params: vec![param.clone()],
                ret: ret.clone(),
                body: (**body).clone(),
                scope: self.scope(),
                args: Vec::new(),
            }))),
        }
    }

    fn apply_functor(&mut self, f: &Module, arg: Module, span: Span) -> Option<Module> {
        let Module::Functor(fun) = f else {
            self.error("module-mismatch", span, "Cannot apply a module that is not parametric.");
            return None;
        };
        let param = &fun.params[fun.args.len()];
        // The parameter's signature is elaborated in the functor's scope,
        // with the earlier parameters bound.
        let saved = self.scope();
        let mut scope = fun.scope.clone();
        for (name, m) in &fun.args {
            scope.mods.insert(name.clone(), m.clone());
        }
        self.set_scope(scope.clone());
        let matched = self.match_sig(&arg, &param.sig, span);
        self.set_scope(saved);
        let matched = matched?;
        let mut args = fun.args.clone();
        args.push((param.name.text.clone(), matched.clone()));
        if args.len() < fun.params.len() {
            return Some(Module::Functor(Rc::new(Functor {
                params: fun.params.clone(),
                ret: fun.ret.clone(),
                body: fun.body.clone(),
                scope: fun.scope.clone(),
                args,
            })));
        }
        let saved = self.scope();
        let opened = self.modules.opened_prims.len();
        scope.mods.insert(param.name.text.clone(), matched);
        self.set_scope(scope);
        let mut body = fun.body.clone();
        let mut ret = fun.ret.clone();
        let next = &mut self.modules.next_clone_id;
        let mut fresh = || {
            *next += 1;
            NodeId(*next)
        };
        ogham_syntax::renumber::renumber_mod_exp(&mut body, &mut fresh);
        if let Some(r) = &mut ret {
            ogham_syntax::renumber::renumber_sig_exp(r, &mut fresh);
        }
        let exports = std::mem::take(&mut self.modules.exports);
        let local_depth = std::mem::take(&mut self.modules.local_depth);
        self.modules.exports = vec![ModEnv::default()];
        let result = self.eval_mod(&body);
        let result = match (result, &ret) {
            (Some(m), Some(r)) => self.match_sig(&m, r, span),
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
                self.with_scope(clo.scope.clone(), |c| c.flatten_sig(&clo.sig))
            }
            SigExp::Specs(specs, _) => {
                Some(FlatSig { specs: specs.clone(), scope: self.scope(), refinements: Vec::new() })
            }
            SigExp::With { sig, path, params, def, .. } => {
                let mut flat = self.flatten_sig(sig)?;
                let ty = params.is_empty().then(|| self.type_exp(def, AnonMode::Fresh));
                flat.refinements.push((path.clone(), ty));
                Some(flat)
            }
            SigExp::Arrow { span, .. } => {
                self.error("module-mismatch", *span, "A parametric module type is not supported here.");
                None
            }
        }
    }

    /// Whether a module type is that of a functor (`(P: S) -> R`, possibly by name).
    fn is_functor_sig(&self, sig: &SigExp) -> bool {
        let mut sig = sig.clone();
        for _ in 0..64 {
            match sig {
                SigExp::Arrow { .. } => return true,
                SigExp::With { sig: inner, .. } => sig = *inner,
                SigExp::Var(q) if q.quals.is_empty() => match self.modules.sigs.get(&q.name) {
                    Some(clo) => sig = clo.sig.clone(),
                    None => return false,
                },
                _ => return false,
            }
        }
        false
    }

    fn lookup_sig(&mut self, q: &QualName) -> Option<Rc<SigClosure>> {
        let found = if q.quals.is_empty() {
            self.modules.sigs.get(&q.name).cloned()
        } else {
            match self.lookup_module_path(&q.quals) {
                Some(Module::Struct(env)) => env.sigs.get(&q.name).cloned(),
                _ => None,
            }
        };
        if found.is_none() {
            self.error("unknown-name", q.span, format!("Unknown module type `{q}`."));
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
    /// restricted to the specified names.
    pub fn match_sig(&mut self, m: &Module, sig: &SigExp, span: Span) -> Option<Module> {
        if self.is_functor_sig(sig) {
            return match m {
                Module::Functor(_) => Some(m.clone()),
                _ => {
                    self.error("module-mismatch", span, "Module is not parametric, but the module type is.");
                    None
                }
            };
        }
        if let Module::Functor(_) = m {
            self.error(
                "module-mismatch",
                span,
                "Cannot match a parametric module with a module type that is not parametric.",
            );
            return None;
        }
        let flat = self.flatten_sig(sig)?;
        let saved = self.scope();
        let mut scope = flat.scope.clone();
        // Names of the enclosing scope that the signature's own scope lacks
        // (module parameters bound since) stay visible.
        for (k, v) in &saved.mods {
            scope.mods.entry(k.clone()).or_insert_with(|| v.clone());
        }
        self.set_scope(scope);
        let errors = self.diags.len();
        let mut out = ModEnv::default();
        self.match_specs(m, &flat.specs, &flat.refinements, &mut out, span);
        self.set_scope(saved);
        if self.diags.len() > errors {
            return None;
        }
        match m {
            Module::Prim(_) => Some(m.clone()),
            _ => Some(Module::Struct(Rc::new(out))),
        }
    }

    fn match_specs(
        &mut self,
        m: &Module,
        specs: &[Spec],
        refinements: &[(QualName, Option<Ty>)],
        out: &mut ModEnv,
        span: Span,
    ) {
        for spec in specs {
            match spec {
                Spec::Type { name, params, def, .. } => {
                    let actual = match m {
                        Module::Struct(env) => env.types.get(&name.name.text).cloned(),
                        Module::Prim(p) => {
                            prim_type_member(*p, &name.name.text).map(|ty| TypeAbbrev { params: Vec::new(), ty })
                        }
                        _ => None,
                    };
                    let Some(actual) = actual else {
                        self.error(
                            "module-mismatch",
                            span,
                            format!(
                                "Module does not define a type named `{}` required by its module type.",
                                name.name.text
                            ),
                        );
                        continue;
                    };
                    if actual.params.len() != params.len() {
                        self.error(
                            "module-mismatch",
                            span,
                            format!(
                                "Type `{}` is declared with {} parameters, but the module type requires {}.",
                                name.name.text,
                                actual.params.len(),
                                params.len()
                            ),
                        );
                        continue;
                    }
                    let refined = refinements
                        .iter()
                        .find(|(q, _)| q.quals.is_empty() && q.name == name.name.text)
                        .and_then(|(_, t)| t.clone());
                    let expected = match (def, refined) {
                        (_, Some(t)) => Some(t),
                        (Some(def), None) if params.is_empty() => Some(self.type_exp(def, AnonMode::Fresh)),
                        _ => None,
                    };
                    if let Some(expected) = expected {
                        {
                            if self.unify(&expected, &actual.ty, SizeMode::Ignore, span).is_err() {
                                let (e, a) = (self.show(&expected), self.show(&actual.ty));
                                self.error(
                                    "module-mismatch",
                                    span,
                                    format!("Type `{}` is `{a}`, but the module type requires `{e}`.", name.name.text),
                                );
                            }
                        }
                    }
                    self.types.insert(name.name.text.clone(), actual.clone());
                    out.types.insert(name.name.text.clone(), actual);
                }
                Spec::Val { name, type_params, ty, .. } => match m {
                    Module::Prim(p) => {
                        let known = crate::members::member_signature(*p, &name.text).is_some()
                            || crate::expr::BUILTIN_OPS.contains(&name.text.as_str());
                        if !known {
                            self.missing_value(&name.text, span);
                        }
                    }
                    Module::Struct(env) => match env.values.get(&name.text).copied() {
                        Some(def) => {
                            let def = self.check_val_spec(def, &name.text, type_params, ty, span);
                            // Later specifications may use it as a size (`val n: i64`, `[n]t`).
                            self.global_names.insert(name.text.clone(), def);
                            out.values.insert(name.text.clone(), def);
                        }
                        None => self.missing_value(&name.text, span),
                    },
                    Module::Functor(_) => {}
                },
                Spec::Module { name, sig, .. } => {
                    let inner = match m {
                        Module::Struct(env) => env.mods.get(&name.text).cloned(),
                        _ => None,
                    };
                    match inner {
                        Some(inner) => {
                            if let Some(r) = self.match_sig(&inner, sig, span) {
                                self.modules.mods.insert(name.text.clone(), r.clone());
                                out.mods.insert(name.text.clone(), r);
                            }
                        }
                        None => self.error(
                            "module-mismatch",
                            span,
                            format!(
                                "Module does not define a module named `{}` required by its module type.",
                                name.text
                            ),
                        ),
                    }
                }
                Spec::Include(sig, _) => {
                    if let Some(flat) = self.flatten_sig(sig) {
                        let mut refs = refinements.to_vec();
                        refs.extend(flat.refinements);
                        self.match_specs(m, &flat.specs, &refs, out, span);
                    }
                }
            }
        }
    }

    fn missing_value(&mut self, name: &str, span: Span) {
        self.error(
            "module-mismatch",
            span,
            format!("Module does not define a value named `{name}` required by its module type."),
        );
    }

    /// Checks that definition `def` can have the type a `val` spec gives it;
    /// returns the value as the module type shows it (a [`SpecAlias`] with
    /// the specification's type), or `def` itself if that is the same.
    fn check_val_spec(
        &mut self,
        def: DefId,
        name: &str,
        type_params: &[TypeParam],
        te: &ogham_syntax::ast::TypeExp,
        span: Span,
    ) -> DefId {
        let g = &self.globals[def.0 as usize];
        // An already restricted value (a sealed module matched again) is kept.
        if g.scheme.ty == Ty::Error || g.alias.is_some() {
            return def;
        }
        let scheme = g.scheme.clone();
        self.in_empty_scope(|c| {
            let (spec_types, mut spec_sizes) = c.bind_type_params(type_params);
            let errors = c.diags.len();
            let expected = c.type_exp(te, AnonMode::Implicit);
            spec_sizes.extend(c.implicit_sizes.take().unwrap_or_default());
            if c.diags.len() > errors {
                return def;
            }
            let actual = c.instantiate(&scheme, NodeId(0), span);
            if c.unify(&expected, &actual, SizeMode::Ignore, span).is_err() {
                let (e, a) = (c.show(&expected), c.show(&actual));
                c.error(
                    "module-mismatch",
                    span,
                    format!("Value `{name}` has type `{a}`, but the module type requires `{e}`."),
                );
                return def;
            }
            let types: Vec<(NodeId, Ty)> = c
                .pending
                .insts
                .iter()
                .flat_map(|(_, ts, _)| ts.iter())
                .map(|(p, v)| (*p, c.store.resolve(v)))
                .collect();
            let exact = types.iter().all(|(_, t)| matches!(t, Ty::Param(_)))
                && scheme.type_params.len() == spec_types.len()
                && scheme.size_params.len() == spec_sizes.len();
            if exact {
                return def;
            }
            let spec_scheme =
                Scheme { type_params: spec_types, size_params: spec_sizes, ty: c.store.resolve(&expected) };
            c.spec_alias(def, spec_scheme, types)
        })
    }

    /// A new global standing for `target` with the specification's type.
    fn spec_alias(&mut self, target: DefId, scheme: Scheme, types: Vec<(NodeId, Ty)>) -> DefId {
        let id = DefId(self.globals.len() as u32);
        let binder = self.globals[target.0 as usize].binder;
        let mut info = self.info.defs[target.0 as usize].clone();
        info.ty = crate::ty::to_public(&scheme.ty);
        info.size_params = scheme.size_params.clone();
        info.is_entry = false;
        self.info.defs.push(info);
        self.push_global(crate::checker::GlobalDef { binder, scheme, alias: Some(SpecAlias { target, types }) });
        id
    }

    /// How many leading qualifiers of a name form a module path (`M.N` in
    /// `M.N.x.f`), 0 if the first is not a module.
    pub fn module_prefix(&self, quals: &[String]) -> usize {
        (1..=quals.len()).rev().find(|&i| self.lookup_module_path(&quals[..i]).is_some()).unwrap_or(0)
    }

    /// `M.N.x` or `M.x.f.g` (a module member followed by record fields),
    /// where the first `prefix` qualifiers name a module.
    pub fn module_path_var(&mut self, node: NodeId, q: &QualName, prefix: usize) -> (Ty, Aliases) {
        let Some(m) = self.lookup_module_path(&q.quals[..prefix]) else {
            return (Ty::Error, Aliases::new());
        };
        if prefix == q.quals.len() {
            return self.module_member(node, m, q);
        }
        let member = QualName { quals: q.quals[..prefix].to_vec(), name: q.quals[prefix].clone(), span: q.span };
        let (mut t, a) = self.module_member(NodeId(0), m, &member);
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
        (t, a)
    }

    /// A use of a top-level definition (or of a value seen through a module
    /// type): its type instantiated at `node`.
    pub fn global_value(&mut self, node: NodeId, def: DefId, span: Span) -> (Ty, Aliases) {
        let g = &self.globals[def.0 as usize];
        let scheme = g.scheme.clone();
        let Some(alias) = g.alias.clone() else {
            self.record_resolution(node, Resolution::Def(def));
            let t = self.instantiate(&scheme, node, span);
            return (t, Aliases::from([GLOBAL_ALIAS]));
        };
        let insts_before = self.pending.insts.len();
        let t = self.instantiate(&scheme, node, span);
        // The definition's own type parameters, in terms of this use's
        // instantiation of the specification's (just recorded: searching
        // every earlier one made long definitions quadratic).
        let spec_inst: HashMap<NodeId, Ty> =
            match self.pending.insts[insts_before..].iter().position(|(n, _, _)| *n == node) {
                Some(i) => self.pending.insts.remove(insts_before + i).1.into_iter().collect(),
                None => HashMap::new(),
            };
        let def_types: Vec<(NodeId, Ty)> =
            alias.types.iter().map(|(p, term)| (*p, crate::ty::subst_params(term, &spec_inst))).collect();
        if !def_types.is_empty() {
            self.pending.insts.push((node, def_types, Vec::new()));
        }
        self.record_resolution(node, Resolution::Def(alias.target));
        (t, Aliases::from([GLOBAL_ALIAS]))
    }

    /// `M.x` where `M` names module `m`.
    pub fn module_member(&mut self, node: NodeId, m: Module, q: &QualName) -> (Ty, Aliases) {
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
        (Ty::Error, Aliases::new())
    }

    /// A member of a numeric module: a built-in function or constant, or an
    /// operator at the module's type (`f32.+`, `i32.<`).
    fn prim_member(&mut self, node: NodeId, p: PrimType, name: &str, span: Span) -> Option<(Ty, Aliases)> {
        if let Some((_, to_bool)) = op_shape(name).filter(|_| name != "&&" && name != "||") {
            let t = Ty::Prim(p);
            self.pending.ops.push((node, name.to_string(), t.clone()));
            let ret = if to_bool { Ty::bool() } else { t.clone() };
            return Some((Ty::arrow(t.clone(), Ty::arrow(t, ret)), Aliases::new()));
        }
        let sig = crate::members::member_signature(p, name)?;
        let t = self.builtin_signature(&sig, node, span);
        self.record_resolution(node, Resolution::Builtin(Builtin::ModuleMember { module: p, name: name.to_string() }));
        Some((t, Aliases::new()))
    }

    /// Brings a numeric module's members into scope: they shadow top-level
    /// definitions of the same names (a user-defined `+` included).
    fn open_prim(&mut self, p: PrimType) {
        self.global_names.retain(|name, _| !prim_provides(p, name));
        self.modules.opened_prims.push(p);
    }

    /// A name that is a member of a numeric module opened in scope.
    pub fn opened_prim_member(&mut self, node: NodeId, name: &str, span: Span) -> Option<(Ty, Aliases)> {
        let prims: Vec<PrimType> = self.modules.opened_prims.iter().rev().copied().collect();
        prims.into_iter().find_map(|p| self.prim_member(node, p, name, span))
    }

    /// `M.(e)`: `e` checked with the names of `M` in scope.
    pub fn open_in(&mut self, q: &QualName, inner: &Expr) -> (Ty, Aliases) {
        let Some(m) = self.lookup_qual_module(q) else {
            return (Ty::Error, Aliases::new());
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
        let r = self.expr(inner);
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
fn prim_provides(p: PrimType, name: &str) -> bool {
    (op_shape(name).is_some() && name != "&&" && name != "||") || crate::members::member_signature(p, name).is_some()
}
