//! The checker's state and the per-definition driver: environments, schemes
//! and instantiation, checking one top-level definition and finalising it
//! (defaulting overloaded types, resolving operators, exhaustiveness, entry
//! point restrictions, generalisation), and recording the results in
//! [`TypeInfo`].

use ogham_prim::PrimType;
use ogham_syntax::ast::{Binder, Literal, NodeId, Pat, PatKind, TypeDec, TypeParam, ValueDec};
use ogham_syntax::{Diagnostic, Span};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::info::{DefId, DefInfo, DefLoc, Instantiation, Resolution, TypeInfo};
use crate::ty::{self, contains_arrow, ArrowTy, Constraint, Dim, Names, Store, Ty};
use crate::CheckInput;

/// The size variables of `t` that occur outside function types.
pub(crate) fn dims_outside_functions(t: &Ty, out: &mut Vec<NodeId>) {
    match t {
        Ty::Array(elem, dims) => {
            for d in dims {
                if let Dim::Poly(p) = d {
                    out.extend(p.vars().filter(|v| !ty::is_unknown_var(*v)));
                }
            }
            dims_outside_functions(elem, out);
        }
        Ty::Record(fs) => fs.values().for_each(|t| dims_outside_functions(t, out)),
        Ty::Sum(cs) => cs.values().flatten().for_each(|t| dims_outside_functions(t, out)),
        Ty::Abstract(_, args) => args.iter().for_each(|t| dims_outside_functions(t, out)),
        Ty::Arrow(_) | Ty::Prim(_) | Ty::Param(_) | Ty::Var(_) | Ty::Error => {}
    }
}

/// Whether `t` has an existential (unknown) size outside its function types.
fn unknown_outside_functions(t: &Ty) -> bool {
    match t {
        Ty::Array(elem, dims) => dims.iter().any(Dim::has_unknown) || unknown_outside_functions(elem),
        Ty::Record(fs) => fs.values().any(unknown_outside_functions),
        Ty::Sum(cs) => cs.values().flatten().any(unknown_outside_functions),
        Ty::Abstract(_, args) => args.iter().any(unknown_outside_functions),
        Ty::Arrow(_) | Ty::Prim(_) | Ty::Param(_) | Ty::Var(_) | Ty::Error => false,
    }
}

/// Whether `==` is defined on values of type `t`: not on functions or on
/// values of a type parameter (whose instances could be functions).
fn supports_equality(t: &Ty) -> bool {
    match t {
        // Futhark does not compare values of abstract types either, but
        // accepting it is harmless: lowering sees the definition.
        Ty::Prim(_) | Ty::Error | Ty::Var(_) | Ty::Abstract(..) => true,
        Ty::Array(elem, _) => supports_equality(elem),
        Ty::Record(fs) => fs.values().all(supports_equality),
        Ty::Sum(cs) => cs.values().flatten().all(supports_equality),
        Ty::Arrow(_) | Ty::Param(_) => false,
    }
}

/// The message of `array-of-functions`, in Futhark's words.
pub fn array_of_functions_message(elem: &str) -> String {
    format!(
        "Cannot create array with elements of lifted type `{elem}` (might contain function): functional values and lifted type parameters cannot be array elements."
    )
}

/// A polymorphic type.
#[derive(Clone, Debug)]
pub struct Scheme {
    pub type_params: Vec<NodeId>,
    pub size_params: Vec<NodeId>,
    pub ty: Ty,
}

/// A top-level function as seen from its own body (Futhark 0.26's
/// recursion): monomorphic in its type parameters, polymorphic in its
/// explicit size parameters, with the declared return type (anonymous sizes
/// existential) or a type variable the body's type is later unified with.
#[derive(Clone, Debug)]
pub struct SelfRef {
    pub name: String,
    /// The id the definition gets once checked.
    pub def: DefId,
    pub scheme: Scheme,
    /// Per parameter: the binder of a parameter that is a plain name (`f`,
    /// `(f: t)`), to check that higher-order arguments are passed unchanged.
    pub params: Vec<(Option<NodeId>, Ty)>,
    /// Whether the body refers to the function.
    pub used: bool,
    /// What the name meant outside the definition (a global, and how many
    /// numeric modules were open): a local open inside the body that gives
    /// the name another meaning shadows the function.
    pub outer: (Option<DefId>, usize),
}

impl Scheme {
    pub fn mono(ty: Ty) -> Scheme {
        Scheme { type_params: Vec::new(), size_params: Vec::new(), ty }
    }
}

pub struct GlobalDef {
    pub binder: NodeId,
    pub scheme: Scheme,
    /// Set for a value seen through a module type (`M : S`): `scheme` is the
    /// specification's, and uses resolve to the definition itself.
    pub alias: Option<crate::modules::SpecAlias>,
}

/// A local binding in scope.
#[derive(Clone, Debug)]
pub struct Local {
    pub name: String,
    pub id: NodeId,
    pub ty: Ty,
    /// Present for local functions with explicit type or size parameters.
    pub scheme: Option<Scheme>,
}

/// A type abbreviation.
#[derive(Clone, Debug)]
pub struct TypeAbbrev {
    pub params: Vec<(NodeId, bool)>,
    pub ty: Ty,
    /// As declared (`type`, `type~`, `type^`).
    pub liftedness: ogham_syntax::ast::Liftedness,
}

/// One use of a polymorphic definition: the node, and what its type and
/// size parameters were instantiated with.
pub type PendingInst = (NodeId, Vec<(NodeId, Ty)>, Vec<(NodeId, Dim)>);

/// A size as written: the whole, whether it is a product (else a sum), and the two operands.
pub type SizeHint = (crate::size::Poly, bool, crate::size::Poly, crate::size::Poly);

/// Per-definition facts awaiting the final substitution.
#[derive(Default)]
pub struct Pending {
    pub expr_types: HashMap<NodeId, Ty>,
    /// Where each expression of `expr_types` is, for errors found once types are final.
    pub expr_spans: HashMap<NodeId, Span>,
    pub binding_types: HashMap<NodeId, Ty>,
    /// The bodies of local functions never used: what nothing determines
    /// there is not an error (Futhark's localfunction13).
    pub unused_local_functions: Vec<Span>,
    /// Local functions' size parameters found by generalisation
    /// (`TypeInfo::local_implicit_sizes`).
    pub local_implicit_sizes: Vec<(NodeId, Vec<NodeId>)>,
    /// The local names referred to so far.
    pub used_locals: HashSet<NodeId>,
    pub insts: Vec<PendingInst>,
    /// Built-in operators whose exact operation depends on the operand type.
    pub ops: Vec<(NodeId, String, Ty)>,
    pub literals: Vec<(Literal, bool, Ty, Span)>,
    pub matches: Vec<(Vec<Pat>, Ty, Span)>,
    pub irrefutable: Vec<Pat>,
    /// Instantiated size parameters that occur in no parameter type, which
    /// the context of their use must determine.
    /// With a description of the size for the error message.
    pub context_sizes: Vec<(Dim, Span, String)>,
    /// Types that may not be functions (or lifted type parameters, which
    /// may stand for functions): results of `if` and `match`, loop
    /// parameters. Checked once the definition's types are final.
    pub order_zero: Vec<(Ty, Span, OrderZero)>,
    /// An anonymous size of the declared return type was determined by
    /// nothing (see `infer_anonymous_returns`).
    pub undetermined_return: bool,
    /// The expression that computes each unknown size it creates (see
    /// `causality.rs`), by unknown size.
    pub unknown_sources: HashMap<u32, NodeId>,
    /// The instantiated type of the operator of a binary operation or an
    /// operator section, by the expression's node.
    pub op_types: HashMap<NodeId, Ty>,
}

/// Where a type must be of order zero (see `Pending::order_zero`).
#[derive(Clone, Copy, Debug)]
pub enum OrderZero {
    If,
    Match,
    Loop,
}

/// The names visible at a file's top level (see `Checker::check_files`).
#[derive(Clone)]
struct TopLevelScope {
    values: HashMap<String, DefId>,
    types: HashMap<String, TypeAbbrev>,
    mods: HashMap<String, crate::modules::Module>,
    sigs: HashMap<String, std::sync::Arc<crate::modules::SigClosure>>,
}

/// The indices of the files that a file's `import "x"` declarations (at
/// its top level, `local` ones included) bring into scope.
fn direct_imports(decs: &[ogham_syntax::ast::Dec], imports: &[(String, usize)]) -> Vec<usize> {
    use ogham_syntax::ast::Dec;
    fn go(d: &Dec, imports: &[(String, usize)], out: &mut Vec<usize>) {
        match d {
            Dec::Import { path, .. } => {
                out.extend(imports.iter().filter(|(p, _)| p == path).map(|(_, i)| *i).take(1));
            }
            Dec::Local(inner, _) => go(inner, imports, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for d in decs {
        go(d, imports, &mut out);
    }
    out
}

pub struct Checker {
    pub store: Store,
    pub names: Names,
    pub diags: Vec<Diagnostic>,
    /// Warnings, kept apart from `diags` (whose length tells whether a
    /// check found errors); shown only with errors.
    pub warnings: Vec<Diagnostic>,
    pub info: TypeInfo,
    pub globals: Vec<GlobalDef>,
    /// The binders of `globals`, for the scope tests of sizes.
    pub global_binders: HashSet<NodeId>,
    /// The existential sizes of top-level values (not functions): each is
    /// one size, shared by every use (`Checker::instantiate`).
    pub value_sizes: HashSet<u32>,
    pub global_names: HashMap<String, DefId>,
    pub types: HashMap<String, TypeAbbrev>,
    pub locals: crate::locals::Locals,
    pub local_types: Vec<(String, Ty)>,
    pub pending: Pending,
    pub pending_sizes: Vec<(Dim, Dim, Span)>,
    /// Where a deferred size equation comes from an application's
    /// argument: the argument's span and `Cannot apply "f" to "x".`
    pub size_contexts: Vec<(Span, String)>,
    pub current_def: Option<String>,
    /// The top-level function whose body is being checked, as its own body
    /// sees it (see [`SelfRef`]).
    pub current_self: Option<SelfRef>,
    /// Set while checking the function of an application that is a
    /// recursive call checked as a whole (see `recursive_call`).
    pub self_applied: bool,
    /// Implicit size parameters created for anonymous sizes in the current definition's parameters.
    pub implicit_sizes: Option<Vec<NodeId>>,
    /// Schemes of built-ins, by signature text.
    pub builtin_schemes: HashMap<String, Scheme>,
    /// Set while checking a top-level definition's parameters, where anonymous sizes become implicit size parameters.
    pub top_level_header: bool,
    /// Local functions whose bodies are being checked (a use inside is recursion).
    pub defining_locals: Vec<String>,
    /// Size variables standing for anonymous sizes `[]` in the current
    /// top-level definition's parameters (see `AnonMode::Inferred`).
    pub inferred_sizes: Vec<NodeId>,
    /// The names bound by the current top-level definition's header (its
    /// size and value parameters): what an inferred size may be equated with.
    pub header_scope: Vec<NodeId>,
    /// Sizes written as a sum or product in a type expression (whether it
    /// is a product, and the two operands as written): `k + (n - k)`
    /// normalises to `n`, but an equation `?a + ?b = n` (from `split`) is
    /// solved by the summands; likewise `?a * ?b` (from `unflatten`).
    pub sum_hints: Vec<SizeHint>,
    /// How each sum or product in a size was spelled, over the whole
    /// program (`sum_hints` holds the current definition's): a dependent
    /// function's `[n + m]` keeps its spelling when applied (`g 2 3`).
    pub spellings: HashMap<crate::size::Poly, (bool, crate::size::Poly, crate::size::Poly)>,
    /// The existential size of a branch join whose branches' sizes
    /// differ, with those sizes as shown, for error messages.
    pub branch_sizes: HashMap<u32, (String, String)>,
    /// Type parameters declared without `^`: they may not be instantiated with a function type.
    pub no_function_params: HashSet<NodeId>,
    /// Type parameters declared with `^` or `~`: they may not be array elements.
    pub lifted_params: HashSet<NodeId>,
    /// The named parameters of dependent functions (`iota`'s `n` in `(n:
    /// i64) -> [n]i64`) whose result a type variable stood for: only a
    /// lifted type parameter may be instantiated with such a type.
    pub escaped_dependent: HashSet<NodeId>,
    /// Type abbreviations declared `type^` or `type~`: they may not be array elements.
    pub lifted_abbrevs: HashSet<String>,
    /// Modules, module types and what the module being checked exports.
    pub modules: crate::modules::ModState,
    /// The opaque size variable of each non-polynomial size expression, by
    /// its canonical text (see `Checker::register_opaque_sizes`).
    pub size_terms: HashMap<String, NodeId>,
    /// The canonical text of each opaque size variable (the inverse of `size_terms`).
    pub size_term_keys: HashMap<NodeId, String>,
    /// Opaque sizes made by substituting into another one (`inc n` at a
    /// use where `n` is `k+1`): the registered one whose expression computes
    /// it, and the sizes its names stand for (see `Checker::derive_opaque`).
    pub derived_terms: HashMap<NodeId, (NodeId, Vec<(NodeId, Dim)>)>,
    /// The derived opaque sizes not yet recorded in `TypeInfo`.
    pub new_derived: Vec<NodeId>,
    /// Whether a `type-too-large` error was reported in the current top-level declaration.
    pub too_large_reported: bool,
    /// Where some unknown sizes come from ("unknown length of range"), for
    /// the notes of size mismatches.
    pub unknown_origins: HashMap<u32, &'static str>,
}

impl Checker {
    pub fn new() -> Checker {
        Checker {
            store: Store::default(),
            names: Names::default(),
            diags: Vec::new(),
            warnings: Vec::new(),
            info: TypeInfo::default(),
            globals: Vec::new(),
            global_binders: HashSet::default(),
            value_sizes: HashSet::default(),
            global_names: HashMap::default(),
            types: HashMap::default(),
            locals: Default::default(),
            local_types: Vec::new(),
            pending: Pending::default(),
            pending_sizes: Vec::new(),
            size_contexts: Vec::new(),
            current_def: None,
            current_self: None,
            self_applied: false,
            implicit_sizes: None,
            builtin_schemes: HashMap::default(),
            top_level_header: false,
            defining_locals: Vec::new(),
            inferred_sizes: Vec::new(),
            header_scope: Vec::new(),
            sum_hints: Vec::new(),
            spellings: HashMap::default(),
            branch_sizes: HashMap::default(),
            no_function_params: HashSet::default(),
            escaped_dependent: HashSet::default(),
            lifted_params: HashSet::default(),
            lifted_abbrevs: HashSet::default(),
            modules: Default::default(),
            size_terms: HashMap::default(),
            size_term_keys: HashMap::default(),
            derived_terms: HashMap::default(),
            new_derived: Vec::new(),
            too_large_reported: false,
            unknown_origins: HashMap::default(),
        }
    }

    pub fn error(&mut self, name: &'static str, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(name, span, msg));
    }

    /// Reports a type with more than [`ty::MAX_TYPE_SIZE`] nodes, once per
    /// top-level definition (the same type is usually met again).
    pub fn too_large_error(&mut self, span: Span) {
        if self.too_large_reported {
            return;
        }
        self.too_large_reported = true;
        self.error(
            "type-too-large",
            span,
            format!(
                "Type is too large: it has more than {} parts once type abbreviations and inferred types are expanded (does a type abbreviation or polymorphic function double its argument's type at each use?).",
                ty::MAX_TYPE_SIZE
            ),
        );
    }

    /// Reports a type found too large by the store since the last check.
    pub fn check_too_large(&mut self, span: Span) {
        if self.store.take_too_large() {
            self.too_large_error(span);
        }
    }

    pub fn show(&self, ty: &Ty) -> String {
        ty::show_ty(&self.store.resolve(ty), &self.names)
    }

    pub fn show_dim(&self, d: &Dim) -> String {
        ty::show_dim(&self.store.resolve_dim(d), &self.names)
    }

    pub fn fresh_var(&mut self, span: Span) -> Ty {
        self.store.fresh_var(Constraint::None, span)
    }

    /// One file or module may not define the same value name (entry points included)
    /// or the same type name twice; a definition in a later file shadows an
    /// imported one. `&&` and `||` may not be redefined at all.
    pub(crate) fn check_duplicate_decs(&mut self, decs: &[ogham_syntax::ast::Dec]) {
        let mut seen: HashMap<(bool, &str), Span> = HashMap::default();
        for dec in decs {
            let (is_type, name) = match dec {
                ogham_syntax::ast::Dec::Value(vd) => (false, &vd.name.name),
                ogham_syntax::ast::Dec::Type(td) => (true, &td.name.name),
                _ => continue,
            };
            if !is_type && (name.text == "&&" || name.text == "||") {
                self.error(
                    "may-not-be-redefined",
                    name.span,
                    format!("The {} operator may not be redefined.", name.text),
                );
            }
            if let Some(prev) = seen.insert((is_type, name.text.as_str()), name.span) {
                let space = if is_type { "type" } else { "name" };
                self.diags.push(
                    Diagnostic::error(
                        "duplicate-definition",
                        name.span,
                        format!("Duplicate definition of {space} \"{}\", previously defined in this file.", name.text),
                    )
                    .with_label(prev, "previously defined here"),
                );
            }
        }
    }

    /// A type parameter declared without `^` may not be instantiated with a
    /// function type (Futhark's rule; `id` and `|>` are declared `'^a`).
    fn check_functional_instantiations(&mut self) {
        let mut bad: Option<(Span, NodeId, Ty)> = None;
        for (node, types, _) in &self.pending.insts {
            for (p, t) in types {
                if !self.no_function_params.contains(p) {
                    continue;
                }
                let t = self.store.resolve(t);
                if !contains_arrow(&t) {
                    continue;
                }
                if let Some(span) = self.pending.expr_spans.get(node) {
                    if bad.as_ref().is_none_or(|(f, _, _)| (span.start, span.end) < (f.start, f.end)) {
                        bad = Some((*span, *p, t));
                    }
                }
            }
        }
        if let Some((span, p, t)) = bad {
            let name = self.names.get(&p).cloned().unwrap_or_else(|| "a".to_string());
            let shown = self.show(&t);
            self.error(
                "higher-order-instantiation",
                span,
                format!(
                    "Cannot instantiate type parameter \"{name}\" with functional type `{shown}`; declare it lifted (`'^{name}`) to allow functions."
                ),
            );
        }
    }

    /// An unlifted type parameter (`'b` of `map`) may not be instantiated
    /// with the result type of a dependent function argument (`[n]i64` of
    /// `iota`), whose size is anonymous outside it (Futhark's rule; `'^b`
    /// of `apply` may).
    fn check_anonymous_instantiations(&mut self) {
        let mut bad: Option<(Span, NodeId, NodeId, NodeId)> = None;
        for (node, types, _) in &self.pending.insts {
            for (p, t) in types {
                if self.lifted_params.contains(p) {
                    continue;
                }
                let mut sizes = Vec::new();
                ty::dim_vars(&self.store.resolve(t), &mut sizes);
                let Some(q) = sizes.into_iter().find(|v| self.escaped_dependent.contains(v)) else { continue };
                let Some(span) = self.pending.expr_spans.get(node) else { continue };
                if bad.as_ref().is_none_or(|(f, ..)| (span.start, span.end) < (f.start, f.end)) {
                    bad = Some((*span, *node, *p, q));
                }
            }
        }
        if let Some((span, node, p, q)) = bad {
            let name = |c: &Checker, x: NodeId| c.names.get(&x).cloned().unwrap_or_else(|| "?".to_string());
            let fname = match self.info.resolutions.get(&node) {
                Some(Resolution::Def(d)) => name(self, self.globals[d.0 as usize].binder),
                _ => "function".to_string(),
            };
            let (pn, qn) = (name(self, p), name(self, q));
            self.error(
                "size-mismatch",
                span,
                format!("Cannot apply \"{fname}\": its type parameter \"{pn}\" would stand for the result type of a function whose result size is its own parameter \"{qn}\", a type containing anonymous sizes (a lifted `'^{pn}` may)."),
            );
        }
    }

    /// An unlifted type parameter (`'a`) may not be instantiated with a
    /// type mentioning a lifted type parameter (`'~b`, `'^b`) of the
    /// definition being checked, as its values may be array elements; a
    /// size-lifted one (`'~a`) not with one mentioning a `'^b`.
    fn check_lifted_instantiations(&mut self) {
        let mut bad: Option<(Span, NodeId, NodeId, bool)> = None;
        for (node, types, _) in &self.pending.insts {
            for (p, t) in types {
                if !self.no_function_params.contains(p) {
                    continue; // `'^a` permits anything
                }
                let p_unlifted = !self.lifted_params.contains(p);
                let t = self.store.resolve(t);
                let mut params = Vec::new();
                ty::type_params_in(&t, &mut params);
                let culprit = params
                    .into_iter()
                    .find(|q| self.lifted_params.contains(q) && (p_unlifted || !self.no_function_params.contains(q)));
                let (Some(q), Some(span)) = (culprit, self.pending.expr_spans.get(node)) else { continue };
                if bad.as_ref().is_none_or(|(f, ..)| (span.start, span.end) < (f.start, f.end)) {
                    bad = Some((*span, *p, q, p_unlifted));
                }
            }
        }
        if let Some((span, p, q, p_unlifted)) = bad {
            let name = |c: &Checker, x: NodeId| c.names.get(&x).cloned().unwrap_or_else(|| "?".to_string());
            let (pn, qn) = (name(self, p), name(self, q));
            let what = if p_unlifted { "cannot be an array element" } else { "may be a functional type" };
            self.error(
                "lifted-instantiation",
                span,
                format!("Type parameter \"{qn}\" is lifted and {what}. When instantiating type parameter \"{pn}\"."),
            );
        }
    }

    /// Type and size parameters of one definition must have distinct names.
    pub fn check_duplicate_type_params(&mut self, params: &[TypeParam]) {
        for (i, tp) in params.iter().enumerate() {
            let (TypeParam::Size(b) | TypeParam::Type(b, _)) = tp;
            let earlier = params[..i].iter().find_map(|q| match (q, tp) {
                (TypeParam::Size(c), TypeParam::Size(_)) | (TypeParam::Type(c, _), TypeParam::Type(..))
                    if c.name.text == b.name.text =>
                {
                    Some(c.name.span)
                }
                _ => None,
            });
            if let Some(prev) = earlier {
                let what = if matches!(tp, TypeParam::Size(_)) { "Size parameter" } else { "Type parameter" };
                self.diags.push(
                    Diagnostic::error(
                        "duplicate-binding",
                        b.name.span,
                        format!(
                            "{what} \"{}\" previously defined in this parameter list (also bound here).",
                            b.name.text
                        ),
                    )
                    .with_label(prev, "previously defined here"),
                );
            }
        }
    }

    pub fn note_name(&mut self, binder: &Binder) {
        self.names.insert(binder.id, binder.name.text.clone());
    }

    /// Adds a top-level value; its id is its position.
    pub fn push_global(&mut self, def: GlobalDef) {
        // Existential sizes inside functions (`{run: []t -> ?[k].[k]t}`)
        // stay one per call.
        let mut unknowns = Vec::new();
        crate::modules::top_level_unknowns(&def.scheme.ty, &mut unknowns);
        self.value_sizes.extend(unknowns);
        self.global_binders.insert(def.binder);
        self.globals.push(def);
    }

    pub fn lookup_local(&self, name: &str) -> Option<&Local> {
        self.locals.lookup(name)
    }

    /// Instantiates a scheme: fresh variables for type parameters, fresh size
    /// variables for size parameters, fresh unknown sizes for existentials.
    pub fn instantiate(&mut self, scheme: &Scheme, node: NodeId, span: Span) -> Ty {
        let mut types = HashMap::default();
        let mut inst_types = Vec::new();
        for p in &scheme.type_params {
            let v = self.store.fresh_var(Constraint::None, span);
            types.insert(*p, v.clone());
            inst_types.push((*p, v));
        }
        let mut sizes = HashMap::default();
        let mut inst_sizes = Vec::new();
        let mut in_params = Vec::new();
        let mut t = &scheme.ty;
        while let Ty::Arrow(a) = t {
            // A size used only inside a function-typed parameter (negative
            // position) is not determined by the arguments either.
            dims_outside_functions(&a.from, &mut in_params);
            t = &a.to;
        }
        for p in &scheme.size_params {
            let d = self.store.fresh_svar();
            if !in_params.contains(p) {
                // Only the context of this use can determine it (`rep`).
                let name = self.names.get(p).cloned().unwrap_or_else(|| "?".to_string());
                self.pending.context_sizes.push((
                    d.clone(),
                    span,
                    format!("Ambiguous size \"{name}\": the instantiated size parameter"),
                ));
            }
            sizes.insert(*p, d.clone());
            inst_sizes.push((*p, d));
        }
        let mut ty = if types.is_empty() { scheme.ty.clone() } else { ty::subst_params(&scheme.ty, &types) };
        if !sizes.is_empty() {
            // `flatten_3d`'s `[n*m*l]` stays `(?n*?m)*?l` for `unflatten`.
            self.respell_sizes(&ty, &sizes);
            // A size like `n/2` becomes `?n/2`, over this use's size
            // variables, so that an argument of the same shape solves them.
            ty = self.subst_sizes_in_terms(&ty, &sizes);
        }
        if !ty::has_unknown_dims(&ty) {
            if !inst_types.is_empty() || !inst_sizes.is_empty() {
                self.pending.insts.push((node, inst_types, inst_sizes));
            }
            return ty;
        }
        let mut existentials: HashMap<u32, Dim> = HashMap::default();
        let mut fresh_existentials = Vec::new();
        // A top-level value (not a function) with an existential size was
        // computed once, before this definition: every use has that one
        // size, no use computes it, and a function whose type mentions it
        // mentions that same size (Futhark's issue1501).
        let value_sizes = &self.value_sizes;
        let store = &mut self.store;
        ty = ty::map_unknowns(&ty, &mut |u| {
            if value_sizes.contains(&u) {
                return None;
            }
            let d = existentials.entry(u).or_insert_with(|| {
                let d = store.fresh_unknown();
                fresh_existentials.push(d.clone());
                d
            });
            Some(d.clone())
        });
        // The existential sizes of the result are computed by the
        // application of this use (the causality check).
        for d in fresh_existentials {
            if let Dim::Unknown(u) = d {
                self.pending.unknown_sources.entry(u).or_insert(node);
            }
        }
        if !inst_types.is_empty() || !inst_sizes.is_empty() {
            self.pending.insts.push((node, inst_types, inst_sizes));
        }
        ty
    }

    /// Registers the built-in type names' absence of definitions: nothing to do;
    /// primitive names are recognised directly.
    pub fn check_files(&mut self, files: &[CheckInput<'_>]) {
        // A file sees the prelude, the files it imports itself (`import
        // "x"` opens them locally, as in Futhark: their own imports are not
        // passed on) and its own declarations.
        let prelude_files = crate::prelude::PRELUDE.len();
        let mut after_prelude = None;
        for (file_index, file) in files.iter().enumerate() {
            if file_index == prelude_files && files.len() > prelude_files {
                after_prelude = Some(self.top_level_scope());
            }
            if let Some(scope) = &after_prelude {
                let direct = direct_imports(&file.program.decs, &file.imports);
                self.enter_file_scope(scope.clone(), &direct);
            }
            self.check_duplicate_decs(&file.program.decs);
            self.begin_file(&file.imports);
            for (dec_index, dec) in file.program.decs.iter().enumerate() {
                self.check_dec(dec, Some(DefLoc::File { file_index, dec_index }), file.is_main);
            }
            self.end_file();
        }
    }

    /// The names visible at the top level of a file.
    fn top_level_scope(&self) -> TopLevelScope {
        TopLevelScope {
            values: self.global_names.clone(),
            types: self.types.clone(),
            mods: self.modules.mods.clone(),
            sigs: self.modules.sigs.clone(),
        }
    }

    /// Starts a file's top-level scope: `base` (the prelude's names) and
    /// the exports of the files at `direct`, in order.
    fn enter_file_scope(&mut self, base: TopLevelScope, direct: &[usize]) {
        self.global_names = base.values;
        self.types = base.types;
        self.modules.mods = base.mods;
        self.modules.sigs = base.sigs;
        let envs = std::mem::take(&mut self.modules.file_envs);
        for env in direct.iter().filter_map(|&i| envs.get(i)) {
            self.add_to_scope(env);
        }
        self.modules.file_envs = envs;
    }

    pub fn check_type_dec(&mut self, td: &TypeDec) {
        // Size expressions in the definition (`[n/2]`) are expressions:
        // their facts are recorded like a definition's, for lowering to
        // compute such sizes where the abbreviation is used.
        let outer = std::mem::take(&mut self.pending);
        self.check_type_dec_body(td);
        self.finalise_definition(&[]);
        self.record_pending();
        self.pending = outer;
    }

    fn check_type_dec_body(&mut self, td: &TypeDec) {
        self.too_large_reported = false;
        self.note_name(&td.name);
        let saved_types = self.local_types.len();
        let saved_locals = self.locals.len();
        let mut params = Vec::new();
        self.check_duplicate_type_params(&td.params);
        for p in &td.params {
            match p {
                TypeParam::Size(b) => {
                    self.note_name(b);
                    self.push_size_binder(b);
                    params.push((b.id, true));
                }
                TypeParam::Type(b, l) => {
                    self.note_name(b);
                    if *l != ogham_syntax::ast::Liftedness::Unlifted {
                        self.lifted_params.insert(b.id);
                    }
                    self.local_types.push((b.name.text.clone(), Ty::Param(b.id)));
                    params.push((b.id, false));
                }
            }
        }
        let errors_before = self.diags.len();
        let ty = self.type_exp(&td.def, crate::expr::AnonMode::Unknown);
        let ty = self.store.resolve(&ty);
        self.check_too_large(td.def.span());
        if self.diags.len() == errors_before {
            self.check_abbrev_liftedness(td, &ty);
        }
        if self.diags.len() == errors_before {
            // An anonymous size only in a function's parameter type is not
            // determined by any value of the type (Futhark's rule).
            let (mut immediate, mut in_params) = (Vec::new(), Vec::new());
            unknown_uses(&ty, false, false, &mut in_params, &mut immediate);
            if in_params.iter().any(|u| !immediate.contains(u)) {
                self.error(
                    "anonymous-nonconstructive",
                    td.def.span(),
                    "Type abbreviation contains an anonymous size not used constructively as an array size.",
                );
            }
        }
        if self.diags.len() == errors_before {
            // Every size parameter must occur in the definition (Futhark's rule).
            let mut used = Vec::new();
            self.size_names_in(&ty, &mut used);
            let unused = td.params.iter().find_map(|p| match p {
                TypeParam::Size(b) if !used.contains(&b.id) => Some(b),
                _ => None,
            });
            if let Some(b) = unused {
                self.error("unused-size", b.name.span, format!("Size parameter \"[{}]\" unused.", b.name.text));
            }
        }
        self.local_types.truncate(saved_types);
        self.locals.truncate(saved_locals);
        if td.liftedness == ogham_syntax::ast::Liftedness::Unlifted {
            self.lifted_abbrevs.remove(&td.name.name.text);
        } else {
            self.lifted_abbrevs.insert(td.name.name.text.clone());
        }
        let abbrev = TypeAbbrev { params, ty, liftedness: td.liftedness };
        self.export_type(&td.name.name.text, &abbrev);
        self.types.insert(td.name.name.text.clone(), abbrev);
    }

    /// Records `node` as the expression that computes the unknown sizes
    /// created since the counter was `before` (those no inner expression
    /// claimed), for the causality check.
    pub fn produced_by(&mut self, node: NodeId, before: u32) {
        for u in before + 1..=self.store.next_unknown {
            self.pending.unknown_sources.entry(u).or_insert(node);
        }
    }

    /// A function the definition returns may not have a parameter whose
    /// size is unknown (computed inside the body), even where its result
    /// has that size too: no caller could supply an argument of that size
    /// ("Unknown size "n" in parameter of "f""; Futhark counts only the
    /// sizes of the value itself as produced, not those of a function's
    /// results).
    fn check_unknown_param_sizes(&mut self, vd: &ValueDec, fun_ty: &Ty) {
        let mut ret = fun_ty;
        for _ in &vd.params {
            match ret {
                Ty::Arrow(a) => ret = &a.to,
                _ => return,
            }
        }
        let mut in_params = Vec::new();
        let mut produced = Vec::new();
        unknown_uses(ret, false, false, &mut in_params, &mut produced);
        // What a function returns is its result, not a value it produces
        // (Futhark's `dimUses`: return positions count for neither).
        if !vd.params.is_empty() {
            produced.clear();
        }
        let Some(u) = in_params.into_iter().find(|u| !produced.contains(u)) else {
            return;
        };
        let size = self.show_dim(&Dim::Unknown(u));
        let shown = self.show(fun_ty);
        let name = &vd.name.name.text;
        self.error(
            "unknown-param-def",
            vd.name.name.span,
            format!("Cannot generalise type of \"{name}\". Unknown size \"{size}\" in parameter of \"{name}\", which is inferred as: `{shown}`. The size is computed inside the definition, so a caller cannot supply an argument of that size."),
        );
    }

    pub fn push_size_binder(&mut self, b: &Binder) {
        self.note_name(b);
        self.pending.binding_types.insert(b.id, Ty::i64());
        self.locals.push(Local { name: b.name.text.clone(), id: b.id, ty: Ty::i64(), scheme: None });
    }

    pub fn check_value_dec(&mut self, vd: &ValueDec, loc: DefLoc, is_main: bool) {
        self.note_name(&vd.name);
        self.too_large_reported = false;
        self.pending = Pending::default();
        self.pending_sizes.clear();
        self.size_contexts.clear();
        self.locals.clear();
        self.local_types.clear();
        // A definition without parameters is a value: its own name in its
        // body refers to an earlier definition (`def plus2 = plus2` in a
        // module), not to itself.
        self.current_def = (!vd.params.is_empty()).then(|| vd.name.name.text.clone());
        self.current_self = None;
        self.self_applied = false;
        self.implicit_sizes = Some(Vec::new());
        let errors_before = self.diags.len();
        self.top_level_header = true;
        self.inferred_sizes.clear();
        self.header_scope.clear();
        self.sum_hints.clear();

        let (fun_ty, explicit_types, explicit_sizes) =
            self.check_function(&vd.type_params, &vd.params, vd.ret.as_ref(), &vd.body, vd.name.name.span);
        let implicit_sizes = self.implicit_sizes.take().unwrap_or_default();

        // The type variables of the definition's own type: defaulting one
        // of them changes the definition's type, which Futhark warns about.
        let mut top_vars = Vec::new();
        ty::type_vars_in(&self.store.resolve(&fun_ty), &mut top_vars);
        self.finalise_definition(&top_vars);
        self.keep_spellings();
        let mut implicit_sizes = implicit_sizes;
        self.close_inferred_sizes(&mut implicit_sizes, vd.name.name.span);
        for (d, span, what) in std::mem::take(&mut self.pending.context_sizes) {
            if self.store.resolve_dim(&d).as_var().is_some_and(ty::is_svar) {
                self.error(
                    "ambiguous-size",
                    span,
                    format!("{what} cannot be determined from the arguments or the context; add a type ascription."),
                );
            }
        }
        let resolved = self.store.resolve(&fun_ty);
        self.check_too_large(vd.name.name.span);
        // Generalise over the remaining type variables.
        let mut type_params = explicit_types;
        let mut free = Vec::new();
        collect_vars(&self.store, &resolved, &mut free);
        if free.iter().any(|v| matches!(self.store.var(*v).constraint, Constraint::Eq)) {
            // Futhark does not generalise over types compared with `==`.
            self.error(
                "equality-not-supported",
                vd.name.name.span,
                "A value of an ambiguous type is compared with `==` or `!=`: a type parameter does not support equality; add a type annotation.",
            );
        }
        for v in free {
            let id = self.store.fresh_synthetic();
            self.names.insert(id, format!("'{}", (b'a' + (type_params.len() % 26) as u8) as char));
            self.store.set_binding(v, Ty::Param(id));
            type_params.push(id);
        }
        // Sizes of the arrows' parameters that nothing determined (`def f =
        // map g`: `[n]a -> [n]b`; `def bins k is = map (% k) is`) become
        // implicit size parameters too, determined at each use.
        // A value's type (no parameters) keeps no open size anywhere:
        // `def total = wrap prop` with `prop [n] : [n]f32 -> f32` is
        // `total [n] : {run: [n]f32 -> f32}`, a size instantiated at each use.
        let mut arrow_sizes = Vec::new();
        let mut t = &resolved;
        while let Ty::Arrow(a) = t {
            ty::dim_vars(&a.from, &mut arrow_sizes);
            t = &a.to;
        }
        if vd.params.is_empty() {
            ty::dim_vars(t, &mut arrow_sizes);
        }
        for w in arrow_sizes {
            if ty::is_svar(w) && self.store.resolve_dim(&Dim::var(w)).as_var() == Some(w) {
                let id = self.size_param_for(w, || format!("n{}", implicit_sizes.len()));
                implicit_sizes.push(id);
            }
        }
        // A size still open here is determined by nothing: Futhark makes it
        // a size parameter that only the result uses.
        let open_result = {
            let mut vars = Vec::new();
            ty::dim_vars(&self.store.resolve(&fun_ty), &mut vars);
            self.pending.undetermined_return
                || vars.into_iter().any(|v| ty::is_svar(v) && self.store.resolve_dim(&Dim::var(v)).as_var() == Some(v))
        };
        // Sizes left open only in a function's result are unknown at each
        // use, not shared between uses.
        if !vd.params.is_empty() {
            let mut everywhere = Vec::new();
            ty::dim_vars(&self.store.resolve(&fun_ty), &mut everywhere);
            for v in everywhere {
                if ty::is_svar(v) && self.store.resolve_dim(&Dim::var(v)).as_var() == Some(v) {
                    let u = self.store.fresh_unknown();
                    self.store.bind_svar(v, u);
                }
            }
        }
        let mut final_ty = self.store.resolve(&fun_ty);
        // Sizes named by a dependent function argument's parameter that the
        // type kept (`def g = uncurry f` for `f (n: i64) (m: i64) : [n][m]t`)
        // are existential outside it.
        if !self.escaped_dependent.is_empty() {
            let escaped: Vec<NodeId> = self.escaped_dependent.iter().copied().collect();
            final_ty = self.existential_for(&final_ty, &escaped);
        }
        let mut size_params = explicit_sizes;
        size_params.extend(implicit_sizes);
        if vd.params.is_empty() && !size_params.is_empty() && unknown_outside_functions(&final_ty) {
            // Each use would instantiate the sizes anew, but the value is
            // computed once: its existential sizes could not be shared.
            self.error(
                "size-polymorphic-value",
                vd.name.name.span,
                format!(
                    "A size-polymorphic value binding may not have a type with an existential size: \"{}\" has type `{}`.",
                    vd.name.name.text,
                    self.show(&final_ty)
                ),
            );
        }

        if self.diags.len() == errors_before {
            self.check_function_arrays();
        }
        self.check_order_zero();
        if self.diags.len() == errors_before {
            self.check_functional_instantiations();
        }
        if self.diags.len() == errors_before {
            self.check_lifted_instantiations();
        }
        if self.diags.len() == errors_before && !self.escaped_dependent.is_empty() {
            self.check_anonymous_instantiations();
        }
        if self.diags.len() == errors_before {
            self.check_abstract_instantiations();
        }
        if self.diags.len() == errors_before {
            self.check_ambiguous_types();
        }
        if self.diags.len() == errors_before {
            crate::causality::check_param_scope(self, &vd.params, &final_ty);
        }
        if self.diags.len() == errors_before {
            crate::causality::check_definition(self, &vd.body);
        }
        if self.diags.len() == errors_before && vd.ret.is_none() {
            self.check_unknown_param_sizes(vd, &final_ty);
        }
        if self.diags.len() == errors_before {
            let outcome =
                crate::consume::check_definition(self, &vd.params, vd.ret.as_ref(), &vd.body, vd.name.name.span);
            self.diags.extend(outcome.error);
            crate::consume::set_ret_unique(&mut final_ty, vd.params.len(), outcome.ret_unique);
        }
        let is_entry = is_main && (vd.entry || vd.name.name.text == "main");
        if is_entry {
            self.check_entry(vd, &final_ty, !type_params.is_empty(), open_result);
        }
        self.check_too_large(vd.name.name.span);
        self.record_pending();
        self.check_too_large(vd.name.name.span);

        let failed = self.diags.len() > errors_before;
        let scheme = if failed {
            Scheme::mono(Ty::Error)
        } else {
            Scheme { type_params, size_params: size_params.clone(), ty: final_ty.clone() }
        };
        let def_id = DefId(self.globals.len() as u32);
        let public_ty = self.public_type(&final_ty);
        self.info.defs.push(DefInfo {
            name: vd.name.name.text.clone(),
            loc,
            is_entry,
            ty: public_ty.clone(),
            size_params: size_params.clone(),
        });
        if is_entry {
            self.info.entries.push(def_id);
        }
        self.info.binding_types.insert(vd.name.id, std::sync::Arc::new(public_ty));
        self.push_global(GlobalDef { binder: vd.name.id, scheme, alias: None });
        self.global_names.insert(vd.name.name.text.clone(), def_id);
        self.export_value(&vd.name.name.text, def_id);
        self.current_def = None;
        self.current_self = None;
    }

    /// Turns the inferred sizes of the definition's parameters that nothing
    /// determined into implicit size parameters, and rejects those that were
    /// equated with a size the caller cannot know (a name bound in the body,
    /// an existential size).
    /// Makes the open size variable `w` a size parameter: a new name,
    /// spelled as `w` was (or `fallback`), that `w` is bound to.
    fn size_param_for(&mut self, w: NodeId, fallback: impl FnOnce() -> String) -> NodeId {
        let id = self.store.fresh_synthetic();
        let name = self.names.get(&w).cloned().unwrap_or_else(fallback);
        self.names.insert(id, name);
        self.store.bind_svar(w, Dim::var(id));
        id
    }

    /// A local function is polymorphic in the sizes of its parameters that
    /// were made while checking it and that nothing outside it determined
    /// (Futhark generalises a local function's sizes, not its types):
    /// `let mean xs = f32.sum xs / f32.i64 (length xs)` can be applied to
    /// arrays of different sizes, including ones computed later.
    pub fn generalise_local_sizes(&mut self, ft: &Ty, svars_before: usize) -> Vec<NodeId> {
        let resolved = self.store.resolve(ft);
        let mut dims = Vec::new();
        let mut t = &resolved;
        while let Ty::Arrow(a) = t {
            ty::dim_vars(&a.from, &mut dims);
            t = &a.to;
        }
        dims.retain(|w| {
            ty::is_svar(*w)
                && (w.0 - ty::SVAR_BASE) as usize >= svars_before
                && self.store.resolve_dim(&Dim::var(*w)).as_var() == Some(*w)
        });
        if dims.is_empty() {
            return Vec::new();
        }
        // A size that a variable in scope also has is not the function's
        // own (`let backward os = map2 (*) ps os` inside a function of `ps`).
        let mut in_scope = Vec::new();
        for l in self.locals.iter() {
            ty::dim_vars(&self.store.resolve(&l.ty), &mut in_scope);
        }
        let outer: HashSet<NodeId> = in_scope.into_iter().collect();
        let mut out = Vec::new();
        for w in dims {
            // A size met twice is bound the first time.
            if !outer.contains(&w) && self.store.resolve_dim(&Dim::var(w)).as_var() == Some(w) {
                let id = self.size_param_for(w, || format!("n{}", out.len()));
                out.push(id);
            }
        }
        out
    }

    fn close_inferred_sizes(&mut self, implicit: &mut Vec<NodeId>, span: Span) {
        for (i, v) in std::mem::take(&mut self.inferred_sizes).into_iter().enumerate() {
            let d = self.store.resolve_dim(&Dim::var(v));
            if let Some(w) = d.as_var().filter(|w| ty::is_svar(*w)) {
                let id = self.size_param_for(w, || format!("d{i}"));
                implicit.push(id);
                continue;
            }
            // A size variable that nothing determined inside a polynomial
            // the parameter's size became (`unflatten xs` for `xs: []t`
            // gives `[n * ?m]`) is a size parameter too, as in Futhark.
            let d = if let Dim::Poly(p) = &d {
                for w in p.vars().filter(|w| ty::is_svar(*w)).collect::<Vec<_>>() {
                    if self.store.resolve_dim(&Dim::var(w)).as_var() == Some(w) {
                        let id = self.size_param_for(w, || format!("d{i}_{}", w.0 - ty::SVAR_BASE));
                        implicit.push(id);
                    }
                }
                self.store.resolve_dim(&d)
            } else {
                d
            };
            let visible = |c: &Checker, x: NodeId| {
                c.header_scope.contains(&x) || implicit.contains(&x) || c.global_binders.contains(&x)
            };
            let ok = match &d {
                Dim::Poly(p) => p.vars().all(|x| visible(self, x)),
                Dim::Unknown(_) => false,
            };
            if !ok {
                let shown = match &d {
                    Dim::Unknown(_) => "a size computed in the body".to_string(),
                    _ => format!("\"{}\"", self.show_dim(&d)),
                };
                let name = self.names.get(&v).cloned().unwrap_or_else(|| format!("d{i}"));
                self.error(
                    "size-mismatch",
                    span,
                    format!(
                        "Sizes do not match: cannot link the anonymous size \"{name}\" of a parameter to {shown} (scope-violation): it is not in scope when the parameter is introduced; name the size or use a coercion `:>`."
                    ),
                );
            }
        }
    }

    /// No expression may have an array-of-functions type; instantiating a
    /// polymorphic function (`map` with a function-valued lambda) can produce
    /// one that no type expression spelled out.
    fn check_function_arrays(&mut self) {
        let mut first: Option<(Span, Ty)> = None;
        for (node, t) in &self.pending.expr_types {
            let t = self.store.resolve(t);
            if array_of_arrows(&t) {
                if let Some(span) = self.pending.expr_spans.get(node) {
                    if first.as_ref().is_none_or(|(f, _)| (span.start, span.end) < (f.start, f.end)) {
                        first = Some((*span, t));
                    }
                }
            }
        }
        if let Some((span, t)) = first {
            let mut elem = &t;
            while let Ty::Array(inner, _) = elem {
                elem = inner;
            }
            let shown = self.show(elem);
            self.error("array-of-functions", span, array_of_functions_message(&shown));
        }
    }

    /// Whether values of type `t` can never be functions: it contains no
    /// function type, no type parameter declared `'^`, and no lifted
    /// abstract type (Futhark's `orderZero`).
    pub fn is_order_zero(&self, t: &Ty) -> bool {
        let t = self.store.resolve(t);
        if contains_arrow(&t) {
            return false;
        }
        let mut params = Vec::new();
        ty::type_params_in(&t, &mut params);
        if params.iter().any(|p| self.lifted_params.contains(p) && !self.no_function_params.contains(p)) {
            return false;
        }
        !lifted_abstract(self, &t)
    }

    /// Results of `if` and `match` and loop parameters may not be
    /// functions; checked once inference is done, as a type variable may
    /// only later turn out to be a function.
    fn check_order_zero(&mut self) {
        let mut seen = HashSet::default();
        for (t, span, kind) in std::mem::take(&mut self.pending.order_zero) {
            if self.is_order_zero(&t) || !seen.insert((span.file, span.start, span.end)) {
                continue;
            }
            let shown = self.show(&t);
            let (name, msg) = match kind {
                OrderZero::If => (
                    "higher-order-branch",
                    format!("If-expression returns type `{shown}`, but if-results may not be of function type."),
                ),
                OrderZero::Match => (
                    "higher-order-branch",
                    format!("Match-expression returns type `{shown}`, but match-results may not be of function type."),
                ),
                OrderZero::Loop => (
                    "higher-order-loop",
                    format!("Loop parameter inferred to have type `{shown}`, but a loop parameter may not be of function type."),
                ),
            };
            self.error(name, span, msg);
        }
    }

    /// Every type variable left once the definition's own type has been
    /// generalised belongs to a subexpression whose type nothing determines
    /// (`length []`). As in Futhark, one that carries no constraint (or only
    /// equality) becomes the unit type; one that must be a record, a sum or
    /// a primitive type of some class has no single meaning, and the
    /// definition is rejected.
    fn check_ambiguous_types(&mut self) {
        let mut first: Option<(Span, Ty)> = None;
        let mut defaulted = Vec::new();
        for (node, t) in &self.pending.expr_types {
            let mut vars = Vec::new();
            collect_vars(&self.store, t, &mut vars);
            if vars.is_empty() {
                continue;
            }
            if vars.iter().all(|v| matches!(self.store.var(*v).constraint, Constraint::None | Constraint::Eq)) {
                defaulted.extend(vars);
                continue;
            }
            if let Some(span) = self.pending.expr_spans.get(node) {
                let inside = |f: &Span| f.file == span.file && f.start <= span.start && span.end <= f.end;
                if self.pending.unused_local_functions.iter().any(inside) {
                    continue;
                }
                if first.as_ref().is_none_or(|(f, _)| (span.start, span.end) < (f.start, f.end)) {
                    first = Some((*span, t.clone()));
                }
            }
        }
        for v in defaulted {
            if matches!(&*self.store.head(&Ty::Var(v)), Ty::Var(w) if *w == v) {
                self.store.set_binding(v, Ty::unit());
            }
        }
        if let Some((span, t)) = first {
            let shown = self.show(&t);
            self.error(
                "ambiguous-type",
                span,
                format!("Type is ambiguous: the type `{shown}` of this expression is not determined; add a type annotation."),
            );
        }
    }

    fn check_entry(&mut self, vd: &ValueDec, ty: &Ty, polymorphic: bool, open_result: bool) {
        let span = vd.name.name.span;
        if polymorphic {
            self.error(
                "polymorphic-entry",
                span,
                format!(
                    "Entry point functions may not be polymorphic (\"{}\" has type parameters).",
                    vd.name.name.text
                ),
            );
            return;
        }
        // A size parameter that no parameter mentions would have to come
        // from the caller's context, which an entry point does not have.
        // Abstract types are not seen through here: a size given to one
        // (`M.t [n]`) is mentioned, as in Futhark.
        let mut declared_params = Vec::new();
        let mut t = ty;
        while let Ty::Arrow(a) = t {
            declared_params.push(&a.from);
            t = &a.to;
        }
        let mut in_params = Vec::new();
        let mut witnessed = Vec::new();
        for p in &declared_params {
            ty::dim_vars(p, &mut in_params);
            ty::witnessed_sizes(p, &mut witnessed);
        }
        let size_params = vd.type_params.iter().filter_map(|tp| match tp {
            TypeParam::Size(b) => Some(b),
            TypeParam::Type(..) => None,
        });
        for b in size_params.clone() {
            if !in_params.contains(&b.id) {
                self.error(
                    "polymorphic-entry",
                    b.name.span,
                    format!(
                        "Entry point functions must not be size-polymorphic in their return type: no parameter determines the size \"{}\".",
                        b.name.text
                    ),
                );
                return;
            }
        }
        if open_result {
            self.error(
                "polymorphic-entry",
                span,
                format!(
                    "Entry point functions must not be size-polymorphic in their return type: a size in the result of \"{}\" is determined neither by its parameters nor by its body.",
                    vd.name.name.text
                ),
            );
            return;
        }
        // The caller passes arrays, not sizes: each size parameter must be
        // the whole size of some array among the inputs (`[x]`, not `[x+1]`).
        for b in size_params {
            if !witnessed.contains(&b.id) {
                self.error(
                    "nonconstructive-entry",
                    b.name.span,
                    format!(
                        "Entry point size parameter [{}] only used non-constructively: no input array has exactly this size, so a caller cannot determine it.",
                        b.name.text
                    ),
                );
                return;
            }
        }
        // Every arrow of the type is an input, declared parameter or not: an
        // entry point whose result is a first-order function (`def main =
        // map f32.acos`) takes all its arguments (lowering eta-expands it).
        // Abstract types are seen through: what matters is the representation.
        let mut t = self.expand_abstract(ty, None);
        let mut params = Vec::new();
        while let Ty::Arrow(a) = t {
            params.push(a.from.clone());
            t = a.to.clone();
        }
        if params.iter().any(contains_arrow) || contains_arrow(&t) {
            self.error(
                "higher-order-entry",
                span,
                format!(
                    "Entry point functions may not be higher-order (\"{}\" takes or returns a value of function type).",
                    vd.name.name.text
                ),
            );
        }
    }

    /// Prefixes the mismatches reported from `before` on for a deferred size
    /// equation at `span` with the application it came from, if any.
    fn prefix_size_context(&mut self, before: usize, span: Span) {
        let Some((_, what)) = self.size_contexts.iter().rev().find(|(s, _)| *s == span) else { return };
        let what = what.clone();
        for d in self.diags.iter_mut().skip(before) {
            if d.name == "size-mismatch" && !d.message.starts_with("Cannot apply") {
                d.message = format!("{what} {}", d.message);
            }
        }
    }

    /// Defaults overloaded types, checks literals, resolves operators and
    /// checks matches; run once per top-level definition. Defaulting one of
    /// `top_vars` (the variables of the definition's type) gives a warning.
    pub fn finalise_definition(&mut self, top_vars: &[u32]) {
        // Retry deferred size equations now that more is known.
        for _ in 0..3 {
            let eqs = std::mem::take(&mut self.pending_sizes);
            if eqs.is_empty() {
                break;
            }
            for (a, b, span) in eqs {
                if let Err(m) = self.unify_dims(&a, &b, span) {
                    let t = Ty::unit();
                    let before = self.diags.len();
                    self.report_mismatch(m, &t, &t, span);
                    self.prefix_size_context(before, span);
                }
            }
        }
        for (a, b, span) in std::mem::take(&mut self.pending_sizes) {
            let (sa, sb) = (self.show_dim(&a), self.show_dim(&b));
            let before = self.diags.len();
            self.error(
                "size-mismatch",
                span,
                format!("Sizes \"{sa}\" and \"{sb}\" do not match (cannot solve the size equation)."),
            );
            self.prefix_size_context(before, span);
        }
        // Default overloaded literals and operators.
        // Only variables given a constraint can have a default: the store
        // keeps a list of them, so that this does not visit every variable
        // of every earlier definition.
        for v in self.store.take_defaultable() {
            if self.store.var(v).binding.is_some() {
                continue;
            }
            let default = match self.store.var(v).constraint.clone() {
                Constraint::Num
                | Constraint::Int
                | Constraint::SignedInt
                | Constraint::IntOrBool
                | Constraint::Prim => Some(Ty::Prim(PrimType::I32)),
                Constraint::Float => Some(Ty::Prim(PrimType::F64)),
                // Futhark has no defaulting of constructors: a sum type
                // that only its uses constrain is ambiguous.
                Constraint::Sum(cs) => {
                    let origin = self.store.var(v).origin;
                    let shown = self.show(&Ty::Sum(cs));
                    self.error(
                        "ambiguous-sum-type",
                        origin,
                        format!(
                            "Type is ambiguous. Must be a sum type with constructors {shown}; add a type annotation."
                        ),
                    );
                    Some(Ty::Error)
                }
                Constraint::Record(_) => {
                    let origin = self.store.var(v).origin;
                    self.error(
                        "record-type-not-known",
                        origin,
                        "Full type of the record is ambiguous: it is not known at this point; add a type annotation.",
                    );
                    Some(Ty::Error)
                }
                Constraint::None | Constraint::Eq => None,
            };
            if let Some(t) = default {
                if let (Ty::Prim(p @ (PrimType::I32 | PrimType::F64)), true) = (&t, top_vars.contains(&v)) {
                    let origin = self.store.var(v).origin;
                    self.warnings.push(Diagnostic::warning(
                        "ambiguous-type-defaulted",
                        origin,
                        format!("Defaulting ambiguous type to {p}."),
                    ));
                }
                self.store.set_binding(v, t);
            }
        }
        for (lit, negated, ty, span) in std::mem::take(&mut self.pending.literals) {
            self.check_literal_bounds(&lit, negated, &ty, span);
        }
        for (node, op, operand) in std::mem::take(&mut self.pending.ops) {
            let operand = self.store.resolve(&operand);
            if (op == "==" || op == "!=") && !supports_equality(&operand) {
                if let Some(span) = self.pending.expr_spans.get(&node).copied() {
                    let shown = self.show(&operand);
                    self.error(
                        "equality-not-supported",
                        span,
                        format!("Comparing equality of values of type `{shown}`, which does not support equality."),
                    );
                }
            }
            let res = crate::expr::resolve_builtin_op(&op, &operand);
            self.info.resolutions.insert(node, Resolution::Builtin(res));
        }
        for (pats, ty, span) in std::mem::take(&mut self.pending.matches) {
            let ty = self.store.resolve(&ty);
            if matches!(ty, Ty::Error) {
                continue; // already reported (an ambiguous sum type)
            }
            let refs: Vec<&Pat> = pats.iter().collect();
            if let Some(missing) = crate::exhaust::missing_case(&refs, &ty) {
                self.error(
                    "unmatched-cases",
                    span,
                    format!("Unmatched cases in match expression: `{missing}` is not covered."),
                );
            }
        }
        for pat in std::mem::take(&mut self.pending.irrefutable) {
            let ty = self.pending.binding_types.get(&pat.id).map(|t| self.store.resolve(t)).unwrap_or(Ty::Error);
            if let Some(missing) = crate::exhaust::missing_case(&[&pat], &ty) {
                self.error(
                    "refutable-pattern",
                    pat.span,
                    format!("Refutable pattern not allowed here; `{missing}` is not matched. Use `match` instead."),
                );
            }
        }
    }

    fn check_literal_bounds(&mut self, lit: &Literal, negated: bool, ty: &Ty, span: Span) {
        let Ty::Prim(p) = self.store.resolve(ty) else { return };
        if let Literal::Float { value, .. } = lit {
            // A literal too large for its type would silently become infinite.
            let max = match p {
                PrimType::F16 => 65504.0,
                PrimType::F32 => f32::MAX as f64,
                _ => f64::MAX,
            };
            if value.is_finite() && value.abs() <= max {
                return;
            }
            let shown = if !value.is_finite() {
                "a float literal".to_string()
            } else if negated {
                format!("`-{value:e}`")
            } else {
                format!("`{value:e}`")
            };
            self.error(
                "literal-out-of-bounds",
                span,
                format!("Literal {shown} out of bounds for type `{}`.", p.name()),
            );
            return;
        }
        if let Literal::Int { value, suffix } = lit {
            let v = if negated { value.wrapping_neg() } else { *value };
            // A literal with a type suffix is taken modulo 2^bits, as in
            // Futhark (`255i8` is -1); only inferred types are range-checked.
            if suffix.is_some() && p.is_int() && (i64::MIN as i128..=u64::MAX as i128).contains(&v) {
                return;
            }
            let ok = match p {
                PrimType::I8 => (i8::MIN as i128..=i8::MAX as i128).contains(&v),
                PrimType::I16 => (i16::MIN as i128..=i16::MAX as i128).contains(&v),
                PrimType::I32 => (i32::MIN as i128..=i32::MAX as i128).contains(&v),
                PrimType::I64 => (i64::MIN as i128..=i64::MAX as i128).contains(&v),
                PrimType::U8 => (0..=u8::MAX as i128).contains(&v),
                PrimType::U16 => (0..=u16::MAX as i128).contains(&v),
                PrimType::U32 => (0..=u32::MAX as i128).contains(&v),
                PrimType::U64 => (0..=u64::MAX as i128).contains(&v),
                _ => true,
            };
            if !ok {
                self.error(
                    "literal-out-of-bounds",
                    span,
                    format!("Literal `{v}` out of bounds for type `{}`.", p.name()),
                );
            }
        }
    }

    /// Moves the current definition's facts, fully resolved, into `TypeInfo`.
    pub fn record_pending(&mut self) {
        // Many nodes have one type (a functor's copies above all): expand
        // each distinct one once.
        let mut public: HashMap<Ty, std::sync::Arc<crate::info::Type>> = HashMap::default();
        let mut to_public = |c: &mut Checker, t: &Ty| {
            let t = c.store.resolve(t);
            if let Some(p) = public.get(&t) {
                return p.clone();
            }
            let p = std::sync::Arc::new(c.public_type(&t));
            public.insert(t, p.clone());
            p
        };
        for (node, t) in std::mem::take(&mut self.pending.expr_types) {
            let t = to_public(self, &t);
            self.info.expr_types.insert(node, t);
        }
        for (node, t) in std::mem::take(&mut self.pending.binding_types) {
            let t = to_public(self, &t);
            self.info.binding_types.insert(node, t);
        }
        for (node, sizes) in std::mem::take(&mut self.pending.local_implicit_sizes) {
            self.info.local_implicit_sizes.insert(node, sizes);
        }
        for (node, types, sizes) in std::mem::take(&mut self.pending.insts) {
            let mut inst = Instantiation::default();
            for (p, t) in types {
                inst.types.insert(p, (*to_public(self, &t)).clone());
            }
            for (p, d) in sizes {
                let t = self.public_type(&Ty::Array(Box::new(Ty::unit()), vec![self.store.resolve_dim(&d)]));
                if let crate::info::Type::Array { shape, .. } = t {
                    if let Some(s) = shape.into_iter().next() {
                        inst.sizes.insert(p, s);
                    }
                }
            }
            self.info.instantiations.insert(node, inst);
        }
        for id in std::mem::take(&mut self.new_derived) {
            let Some((root, subst)) = self.derived_terms.get(&id).cloned() else { continue };
            let mut public = Vec::new();
            for (l, d) in subst {
                let t = self.public_type(&Ty::Array(Box::new(Ty::unit()), vec![self.store.resolve_dim(&d)]));
                if let crate::info::Type::Array { shape, .. } = t {
                    if let Some(s) = shape.into_iter().next() {
                        public.push((l, s));
                    }
                }
            }
            self.info.opaque_derived.insert(id, (root, public));
        }
        // NodeId(0) stands for implied expressions that have no node of their own.
        self.info.resolutions.remove(&NodeId(0));
        self.info.expr_types.remove(&NodeId(0));
        self.info.instantiations.remove(&NodeId(0));
    }

    pub fn record_resolution(&mut self, node: NodeId, res: Resolution) {
        self.info.resolutions.insert(node, res);
    }

    /// Builds the curried type of a function from parameter types and result.
    /// A named parameter stays named where the rest of the type mentions
    /// it, also inside an opaque size (`(n: i64) -> [n/2]i32`).
    pub fn curry(&self, params: Vec<(Ty, bool, Option<NodeId>)>, ret: Ty, ret_unique: bool) -> Ty {
        let mut out = ret;
        let n = params.len();
        for (i, (from, consumes, named)) in params.into_iter().enumerate().rev() {
            let mut vars = Vec::new();
            self.size_names_in(&out, &mut vars);
            let param = named.filter(|id| vars.contains(id));
            out = Ty::Arrow(Box::new(ArrowTy { param, from, to: out, consumes, ret_unique: ret_unique && i + 1 == n }));
        }
        out
    }

    /// Records that a pattern must be irrefutable (checked once types are final).
    pub fn require_irrefutable(&mut self, pat: &Pat) {
        if pat_may_be_refutable(pat) {
            self.pending.irrefutable.push(pat.clone());
        }
    }
}

fn pat_may_be_refutable(p: &Pat) -> bool {
    match &p.kind {
        PatKind::Literal(_) | PatKind::Constructor(..) => true,
        PatKind::Tuple(ps) => ps.iter().any(pat_may_be_refutable),
        PatKind::Record(fs) => fs.iter().any(|(_, p)| pat_may_be_refutable(p)),
        PatKind::Ascribe(p, _) | PatKind::Attr(_, p) => pat_may_be_refutable(p),
        PatKind::Var(_) | PatKind::Wildcard => false,
    }
}

/// Whether a resolved type contains an abstract type declared `type^`.
fn lifted_abstract(c: &Checker, t: &Ty) -> bool {
    match t {
        Ty::Abstract(id, args) => {
            c.modules.abstracts.get(id).is_some_and(|a| a.liftedness == ogham_syntax::ast::Liftedness::Lifted)
                || args.iter().any(|a| lifted_abstract(c, a))
        }
        Ty::Array(e, _) => lifted_abstract(c, e),
        Ty::Record(fs) => fs.values().any(|t| lifted_abstract(c, t)),
        Ty::Sum(cs) => cs.values().flatten().any(|t| lifted_abstract(c, t)),
        Ty::Arrow(a) => lifted_abstract(c, &a.from) || lifted_abstract(c, &a.to),
        _ => false,
    }
}

/// Whether a resolved type contains an array whose elements contain functions.
fn array_of_arrows(t: &Ty) -> bool {
    match t {
        Ty::Array(e, _) => contains_arrow(e),
        Ty::Record(fs) => fs.values().any(array_of_arrows),
        Ty::Sum(cs) => cs.values().flatten().any(array_of_arrows),
        Ty::Arrow(a) => array_of_arrows(&a.from) || array_of_arrows(&a.to),
        _ => false,
    }
}

/// The unresolved type variables of a resolved type, in order of appearance.
pub fn collect_vars(store: &Store, ty: &Ty, out: &mut Vec<u32>) {
    match &*store.head(ty) {
        Ty::Var(v) if !out.contains(v) => out.push(*v),
        Ty::Var(_) => {}
        Ty::Array(e, _) => collect_vars(store, e, out),
        Ty::Record(fs) => fs.values().for_each(|t| collect_vars(store, t, out)),
        Ty::Sum(cs) => cs.values().flatten().for_each(|t| collect_vars(store, t, out)),
        Ty::Arrow(a) => {
            collect_vars(store, &a.from, out);
            collect_vars(store, &a.to, out);
        }
        Ty::Abstract(_, args) => args.iter().for_each(|t| collect_vars(store, t, out)),
        _ => {}
    }
}

/// The unknown sizes of `t`, split into those in parameters of function
/// types and the others (those a value of the type carries). With
/// `results` false the sizes of a function type's final result are left
/// out: they are the result's own existentials (what a type abbreviation's
/// anonymous-size rule needs).
fn unknown_uses(t: &Ty, in_param: bool, results: bool, params: &mut Vec<u32>, produced: &mut Vec<u32>) {
    match t {
        Ty::Arrow(a) => {
            unknown_uses(&a.from, true, results, params, produced);
            if results || matches!(a.to, Ty::Arrow(_)) {
                unknown_uses(&a.to, in_param, results, params, produced);
            }
        }
        Ty::Array(elem, shape) => {
            for u in shape.iter().flat_map(Dim::unknowns) {
                if in_param {
                    params.push(u)
                } else {
                    produced.push(u)
                }
            }
            unknown_uses(elem, in_param, results, params, produced);
        }
        Ty::Record(fs) => fs.values().for_each(|t| unknown_uses(t, in_param, results, params, produced)),
        Ty::Sum(cs) => cs.values().flatten().for_each(|t| unknown_uses(t, in_param, results, params, produced)),
        Ty::Abstract(_, args) => args.iter().for_each(|t| unknown_uses(t, in_param, results, params, produced)),
        _ => {}
    }
}
