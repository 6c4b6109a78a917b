//! Calls of top-level functions as IR functions.
//!
//! A saturated application of a top-level function whose arguments and
//! result hold no functions becomes an [`Exp::Apply`] of an IR function
//! instead of an inlined copy of its body. There is one IR function per
//! *instantiation*: the definition, the concrete types its type parameters
//! stand for, the structure and element types of the arguments, which
//! argument dimensions are equal at the call, and the statement attributes
//! (`#[unsafe]`) in force. Instantiations are memoised by a key made of
//! those, so a function called many times (or from many functions) is
//! lowered once, and a recursive function calls itself: its entry exists
//! before its body is lowered.
//!
//! Calling convention (lowering's, documented in `ogham-ir`): the IR
//! function's parameters are the distinct argument dimensions (`i64`),
//! then the instantiation's size bindings that no argument dimension gives
//! (explicit size parameters only the context determines), then the
//! argument leaves. Its results are first one `i64` per result dimension
//! that the parameters do not determine (existential sizes), then the
//! result leaves, whose types name those sizes by fresh names that are
//! bound nowhere (the caller binds them in the pattern of its `Apply`).
//!
//! Function-valued arguments (higher-order functions) are still inlined:
//! defunctionalisation happens by static evaluation (see `value.rs`).

use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use ogham_ir::builder::BodyBuilder;
use ogham_ir::{Exp, FunDef, Param, PrimType, SubExp, Type as IrType, VName};
use ogham_syntax::ast::{Expr, NodeId, Pat, PatKind, TypeExp};
use ogham_syntax::Span;
use ogham_types::{DefId, Type};

use crate::entry::shape_template;
use crate::types::array_type;
use crate::value::{Env, FunVal, RType, Scope, Val};
use crate::{internal, LResult, Lowerer};

/// A top-level function about to be called.
pub(crate) struct Callee<'a, 'b> {
    pub def: DefId,
    pub params: &'a [Pat],
    pub body: &'a Expr,
    pub scope: &'b Scope<'a>,
    pub size_params: &'b [NodeId],
}

/// An instantiation lowered (or being lowered) to an IR function.
pub(crate) struct Outlined<'a> {
    name: String,
    /// The structure of the result; its leaves are placeholders.
    result: Val<'a>,
    /// The IR function's parameters, in order.
    params: Vec<VName>,
    /// Its results: existential sizes first, then the result leaves.
    ret: Vec<IrType>,
    /// The names the result types give the existential sizes, in the order
    /// of the size results (bound nowhere; each call binds its own).
    ext: Vec<VName>,
    /// Per result leaf: whether it may share memory with another value the
    /// checker considers distinct (so it is copied before being consumed).
    /// `None` while the body is being lowered (a recursive call): all may.
    shared: Option<Vec<bool>>,
    /// Variables of the first caller that closures passed as arguments
    /// use: extra parameters, passed by every call (with these names, which
    /// the enclosing function renames if it captured them in turn).
    captured: Vec<VName>,
    /// The closures passed as arguments, kept alive so that their addresses
    /// (in the memoisation key) stay theirs.
    _closures: Vec<Rc<FunVal<'a>>>,
}

/// What one call passes, in the IR function's parameter order.
struct CallInputs {
    key: String,
    /// The distinct argument dimensions.
    dims: Vec<SubExp>,
    /// The other sizes the instantiation uses: size bindings of its scope
    /// and sizes in the types its type parameters stand for.
    extra: Vec<SubExp>,
    /// The scope's size bindings, each an index into `dims` then `extra`.
    env: Vec<(NodeId, usize)>,
    /// The argument leaves, and whether each belongs to a consumed parameter.
    leaves: Vec<(SubExp, bool)>,
}

impl<'a> Lowerer<'a> {
    /// Whether an application of a top-level function with these arguments
    /// can be a call of an IR function: saturated, and no function passed or returned.
    /// Function arguments are allowed for recursive functions only (their
    /// instantiation is then per closure, which Futhark's rule that
    /// higher-order arguments are passed unchanged makes finite); other
    /// higher-order functions are inlined, and so are functions taking
    /// accumulators (whose updates need their operators, see `accs.rs`),
    /// and every function an accumulator's operator calls.
    pub(crate) fn callable(&self, def: DefId, params: &'a [Pat], body: &'a Expr, args: &[Val<'a>]) -> bool {
        !self.inline_calls
            && args.len() == params.len()
            && (self.recursive.contains(&def) || !args.iter().any(Val::has_fun))
            && !args.iter().any(Val::has_acc)
            && self.info.expr_types.get(&body.id).is_some_and(|t| !has_arrow(t))
    }

    /// Lowers a saturated application of a top-level function as a call.
    pub(crate) fn call(
        &mut self,
        b: &mut BodyBuilder,
        f: Callee<'a, '_>,
        args: Vec<Val<'a>>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let Some(inputs) = self.call_inputs(b, &f, &args) else {
            return self.inline_closure(b, f.params, f.body, f.scope, f.size_params, args, span);
        };
        let index = match self.memo.get(&inputs.key) {
            Some(&i) => i,
            None => self.outline(b, &f, &args, &inputs, span)?,
        };
        let mut call_args: Vec<SubExp> = inputs.dims.clone();
        call_args.extend(inputs.extra.iter().copied());
        for (leaf, consumed) in &inputs.leaves {
            call_args.push(match leaf {
                SubExp::Var(v) if *consumed && self.se_type(*leaf).rank() > 0 => SubExp::Var(self.consumable(b, *v)),
                other => *other,
            });
        }
        let out = &self.outlined[index];
        // The caller's variables that closures passed to the function use.
        call_args.extend(out.captured.iter().map(|v| SubExp::Var(*v)));
        let (name, result) = (out.name.clone(), out.result.clone());
        let n_ext = out.ext.len();
        let shared = out.shared.clone();
        let subst: HashMap<VName, SubExp> = out.params.iter().copied().zip(call_args.iter().copied()).collect();
        let (ret, ext_names) = (out.ret.clone(), out.ext.clone());
        let mut pat: Vec<Param> = Vec::with_capacity(ret.len());
        let mut ext: HashMap<VName, SubExp> = HashMap::default();
        for (t, v) in ret[..n_ext].iter().zip(ext_names) {
            let p = self.param("size", t.clone());
            ext.insert(v, SubExp::Var(p.name));
            pat.push(p);
        }
        for t in &ret[n_ext..] {
            let shape: Vec<SubExp> = t
                .shape()
                .iter()
                .map(|d| match d {
                    SubExp::Var(v) => subst.get(v).or_else(|| ext.get(v)).copied().unwrap_or(*d),
                    c => *c,
                })
                .collect();
            pat.push(self.param("res", array_type(t.elem(), shape)));
        }
        let leaves: Vec<SubExp> = pat[n_ext..].iter().map(|p| SubExp::Var(p.name)).collect();
        for (k, p) in pat[n_ext..].iter().enumerate() {
            let may_share = shared.as_ref().is_none_or(|s| s.get(k).copied().unwrap_or(true));
            if may_share && p.ty.rank() > 0 {
                self.shared.insert(p.name);
            }
        }
        b.push(pat, Exp::Apply { func: name, args: call_args });
        Ok(result.rebuild(&mut leaves.into_iter()))
    }

    /// The inputs of a call and its memoisation key; `None` when the call
    /// must be inlined (a binding of the function's scope that is not a size).
    fn call_inputs(&mut self, b: &BodyBuilder, f: &Callee<'a, '_>, args: &[Val<'a>]) -> Option<CallInputs> {
        let mut key = format!("{}|", f.def.0);
        let mut dims: Vec<SubExp> = Vec::new();
        let mut leaves = Vec::new();
        for (p, a) in f.params.iter().zip(args) {
            let consumed = pat_consumes(p);
            shape_key(a, &mut key);
            for leaf in a.leaves() {
                let t = self.se_type(leaf);
                key.push_str(&format!("{}:", t.elem()));
                for d in t.shape() {
                    let i = dims.iter().position(|x| x == d).unwrap_or_else(|| {
                        dims.push(*d);
                        dims.len() - 1
                    });
                    key.push_str(&format!("{i},"));
                }
                key.push(';');
                leaves.push((leaf, consumed));
            }
            key.push('|');
        }
        let mut extra: Vec<SubExp> = Vec::new();
        let mut size_input = |se: SubExp, key: &mut String| {
            let i = match dims.iter().position(|d| *d == se) {
                Some(i) => i,
                None => {
                    dims.len()
                        + extra.iter().position(|d| *d == se).unwrap_or_else(|| {
                            extra.push(se);
                            extra.len() - 1
                        })
                }
            };
            key.push_str(&format!("{i};"));
            i
        };
        let mut env = Vec::new();
        // The innermost binding of each name, in the order of the names, so
        // that the key does not depend on the order the sizes were bound in.
        // (`env` iterates innermost first and the sort is stable.)
        let mut visible: Vec<(NodeId, &Val<'a>)> = f.scope.env.iter().collect();
        visible.sort_by_key(|(id, _)| *id);
        visible.dedup_by_key(|(id, _)| *id);
        for (id, v) in visible {
            let Val::Leaf(se) = v else { return None };
            if self.se_type(*se) != IrType::Prim(PrimType::I64) {
                return None;
            }
            key.push_str(&format!("e{}=", id.0));
            env.push((id, size_input(*se, &mut key)));
        }
        let mut subst: Vec<_> = f.scope.subst.iter().collect();
        subst.sort_by_key(|(id, _)| **id);
        for (id, t) in subst {
            key.push_str(&format!("|t{}={:?}:", id.0, erase_sizes(t)));
            for d in rtype_dims(t) {
                size_input(d, &mut key);
            }
        }
        key.push_str(&format!("|{:?}", b.attrs));
        Some(CallInputs { key, dims, extra, env, leaves })
    }

    /// Lowers the instantiation described by `inputs` to a new IR function.
    fn outline(
        &mut self,
        b: &BodyBuilder,
        f: &Callee<'a, '_>,
        args: &[Val<'a>],
        inputs: &CallInputs,
        span: Span,
    ) -> LResult<usize> {
        let mut fb = BodyBuilder::new(f.body.span);
        fb.attrs = b.attrs;
        // Parameters: the dimensions, the other sizes, the leaves.
        let mut to_callee: Vec<(SubExp, SubExp)> = Vec::new();
        let mut params: Vec<Param> = Vec::new();
        for d in &inputs.dims {
            let p = self.param("size", IrType::Prim(PrimType::I64));
            to_callee.push((*d, SubExp::Var(p.name)));
            params.push(p);
        }
        let dim_params: Vec<SubExp> = params.iter().map(|p| SubExp::Var(p.name)).collect();
        for d in &inputs.extra {
            let p = self.param("size", IrType::Prim(PrimType::I64));
            to_callee.push((*d, SubExp::Var(p.name)));
            params.push(p);
        }
        let mut env = Env::default();
        for (id, i) in &inputs.env {
            env = env.with(*id, Val::Leaf(SubExp::Var(params[*i].name)));
        }
        let mut leaf_params = Vec::new();
        for (leaf, _) in &inputs.leaves {
            let t = self.se_type(*leaf);
            let shape: Vec<SubExp> =
                t.shape().iter().map(|d| dim_params[inputs.dims.iter().position(|x| x == d).unwrap_or(0)]).collect();
            let p = self.param("arg", array_type(t.elem(), shape));
            leaf_params.push(SubExp::Var(p.name));
            params.push(p);
        }
        let mut leaf_iter = leaf_params.into_iter();
        let callee_args: Vec<Val<'a>> = args.iter().map(|a| a.rebuild(&mut leaf_iter)).collect();
        let subst = f.scope.subst.iter().map(|(id, t)| (*id, map_sizes(t, &to_callee))).collect();
        let mut scope = Scope { env, subst: Rc::new(subst) };
        for (id, d) in self.size_param_values(&mut fb, &scope.clone(), f.params, &callee_args, f.size_params)? {
            scope = scope.bind(id, Val::Leaf(d));
        }
        for (p, a) in f.params.iter().zip(callee_args) {
            scope = self.bind_pat(&mut fb, &scope, p, a)?;
        }

        // The result's layout and which of its dimensions the parameters fix.
        let body_t = self.expr_type(f.body.id, f.body.span)?;
        let rt = self.rtype(&mut fb, &scope, body_t, true)?;
        let template = shape_template(&rt);
        let mut shapes = Vec::new();
        Self::leaf_shapes(&rt, &[], &mut shapes);
        let param_names: Vec<VName> = params.iter().map(|p| p.name).collect();
        let fixed = |d: &Option<SubExp>| match d {
            Some(SubExp::Const(c)) => Some(SubExp::Const(*c)),
            Some(SubExp::Var(v)) if param_names.contains(v) => Some(SubExp::Var(*v)),
            _ => None,
        };
        let mut ret: Vec<IrType> = Vec::new();
        let mut ext_slots: Vec<(usize, usize)> = Vec::new();
        let mut ext_names = Vec::new();
        let mut leaf_ret = Vec::new();
        for (k, (elem, dims)) in shapes.iter().enumerate() {
            let mut shape = Vec::with_capacity(dims.len());
            for (j, d) in dims.iter().enumerate() {
                match fixed(d) {
                    Some(se) => shape.push(se),
                    None => {
                        ext_slots.push((k, j));
                        let v = self.names.fresh("ext");
                        ext_names.push(v);
                        shape.push(SubExp::Var(v));
                    }
                }
            }
            leaf_ret.push(array_type(*elem, shape));
        }
        for _ in &ext_slots {
            ret.push(IrType::Prim(PrimType::I64));
        }
        ret.extend(leaf_ret);
        let name = self.fresh_fun_name(f.def);
        let index = self.outlined.len();
        self.outlined.push(Outlined {
            name: name.clone(),
            result: template,
            params: param_names.clone(),
            ret: ret.clone(),
            ext: ext_names,
            shared: None,
            captured: Vec::new(),
            _closures: args.iter().flat_map(closures).collect(),
        });
        self.memo.insert(inputs.key.clone(), index);

        let saved_irregular = std::mem::take(&mut self.irregular);
        let v = self.inline_body(&mut fb, &scope, f.body, span);
        self.irregular = saved_irregular;
        let v = v?;
        if v.has_fun() {
            return Err(internal(span, "a first-order function returned a function"));
        }
        let leaves = v.leaves();
        if leaves.len() != shapes.len() {
            return Err(internal(span, "a function's result does not have its type's layout"));
        }
        let mut result = Vec::with_capacity(ext_slots.len() + leaves.len());
        for (k, j) in &ext_slots {
            let t = self.se_type(leaves[*k]);
            match t.shape().get(*j) {
                Some(d) => result.push(*d),
                None => return Err(internal(span, "a function's result has a lower rank than its type")),
            }
        }
        let shared: Vec<bool> = leaves.iter().map(|l| matches!(l, SubExp::Var(v) if self.shared.contains(v))).collect();
        result.extend(leaves);
        let mut body = fb.finish(result);
        let captured = self.capture(&mut body, &mut params, &name)?;
        if !captured.is_empty() && !args.iter().any(Val::has_fun) {
            return Err(internal(span, "a first-order function uses variables of its caller"));
        }
        self.funs.push(FunDef { name, params, ret, body, entry: None, span: f.body.span });
        self.outlined[index].shared = Some(shared);
        self.outlined[index].captured = captured;
        Ok(index)
    }

    /// Makes the variables that `body` uses but does not bind (those of the
    /// caller that closures passed as arguments refer to, and the sizes in
    /// their types) extra parameters: renamed inside, appended to `params`
    /// and to the body's own recursive calls of `name`. Returns them as the
    /// caller knows them.
    fn capture(&mut self, body: &mut ogham_ir::Body, params: &mut Vec<Param>, name: &str) -> LResult<Vec<VName>> {
        // The program's constants are in scope in every function.
        let bound: rustc_hash::FxHashSet<VName> =
            params.iter().chain(self.consts.iter().flat_map(|s| &s.pat)).map(|p| p.name).collect();
        let mut free: Vec<VName> =
            ogham_ir::visit::free_vars_body(body).into_iter().filter(|v| !bound.contains(v)).collect();
        // The sizes in the types of captured arrays are captured too.
        let mut k = 0;
        while k < free.len() {
            let t = self.types.get(&free[k]).cloned().unwrap_or(IrType::Prim(PrimType::I64));
            for v in ogham_ir::visit::type_vars(&t) {
                if !bound.contains(&v) && !free.contains(&v) {
                    free.push(v);
                }
            }
            k += 1;
        }
        if free.is_empty() {
            return Ok(free);
        }
        // Scalars first, so that array parameters' sizes are bound before them.
        free.sort_by_key(|v| (self.se_type(SubExp::Var(*v)).rank() > 0, v.0));
        patch_calls(body, name, &free);
        let mut renamed: HashMap<VName, VName> = HashMap::default();
        for v in &free {
            let base = self.names.base(*v).to_string();
            let w = self.names.fresh(&base);
            renamed.insert(*v, w);
        }
        ogham_ir::visit::rename_uses(body, &|v| renamed.get(&v).copied());
        for v in &free {
            let mut t = self.se_type(SubExp::Var(*v));
            if let IrType::Array { shape, .. } = &mut t {
                for d in shape {
                    if let SubExp::Var(x) = d {
                        if let Some(y) = renamed.get(x) {
                            *x = *y;
                        }
                    }
                }
            }
            let w = renamed[v];
            self.types.insert(w, t.clone());
            params.push(Param { name: w, ty: t });
        }
        Ok(free)
    }

    /// A name for a new IR function: the definition's, made an identifier, numbered.
    fn fresh_fun_name(&mut self, def: DefId) -> String {
        let base = self.info.defs.get(def.0 as usize).map_or("f", |d| d.name.as_str());
        let clean: String = base.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
        let clean = if clean.starts_with(|c: char| c.is_ascii_alphabetic()) { clean } else { format!("f{clean}") };
        loop {
            let name = format!("{clean}_{}", self.outlined.len() + self.fun_name_bump);
            if !self.info.defs.iter().any(|d| d.name == name) {
                return name;
            }
            self.fun_name_bump += 1;
        }
    }
}

/// Appends the structure of a value (not its leaves) to a key.
fn shape_key(v: &Val<'_>, key: &mut String) {
    if let Val::Fun(f) = v {
        key.push_str(&format!("F{:p}", Rc::as_ptr(f)));
        return;
    }
    match v {
        Val::Leaf(_) => key.push('.'),
        Val::Record(fields) => {
            key.push('{');
            for (k, f) in fields {
                key.push_str(k);
                key.push('=');
                shape_key(f, key);
            }
            key.push('}');
        }
        Val::Sum { payloads, .. } => {
            key.push('<');
            for p in payloads {
                p.iter().for_each(|v| shape_key(v, key));
                key.push('|');
            }
            key.push('>');
        }
        Val::Fun(_) => {}
    }
}

/// Whether a parameter pattern is (or contains) a consuming `*t`.
pub(crate) fn pat_consumes(p: &Pat) -> bool {
    fn te_unique(t: &TypeExp) -> bool {
        match t {
            TypeExp::Unique(..) => true,
            TypeExp::Tuple(ts, _) => ts.iter().any(te_unique),
            TypeExp::Record(fs, _) => fs.iter().any(|(_, t)| te_unique(t)),
            _ => false,
        }
    }
    match &p.kind {
        PatKind::Ascribe(inner, t) => te_unique(t) || pat_consumes(inner),
        PatKind::Attr(_, inner) => pat_consumes(inner),
        PatKind::Tuple(ps) => ps.iter().any(pat_consumes),
        PatKind::Record(fs) => fs.iter().any(|(_, p)| pat_consumes(p)),
        PatKind::Constructor(_, ps) => ps.iter().any(pat_consumes),
        _ => false,
    }
}

/// Whether a checked type contains a function.
fn has_arrow(t: &Type) -> bool {
    match t {
        Type::Arrow { .. } => true,
        Type::Array { elem, .. } => has_arrow(elem),
        Type::Record(fs) => fs.values().any(has_arrow),
        Type::Sum(cs) => cs.values().flatten().any(has_arrow),
        Type::Prim(_) | Type::Param(_) => false,
    }
}

/// A type with every size forgotten (for memoisation keys).
fn erase_sizes(t: &RType) -> RType {
    map_sizes(t, &[])
}

/// A type with its sizes translated through `to`; sizes not in `to` are forgotten.
fn map_sizes(t: &RType, to: &[(SubExp, SubExp)]) -> RType {
    match t {
        RType::Prim(p) => RType::Prim(*p),
        RType::Array { elem, shape } => RType::Array {
            elem: Box::new(map_sizes(elem, to)),
            shape: shape.iter().map(|d| d.and_then(|d| to.iter().find(|(k, _)| *k == d).map(|(_, v)| *v))).collect(),
        },
        RType::Record(fs) => RType::Record(fs.iter().map(|(k, t)| (k.clone(), map_sizes(t, to))).collect()),
        RType::Sum(cs) => {
            RType::Sum(cs.iter().map(|(k, ts)| (k.clone(), ts.iter().map(|t| map_sizes(t, to)).collect())).collect())
        }
        RType::Arrow(a, r) => RType::Arrow(Box::new(map_sizes(a, to)), Box::new(map_sizes(r, to))),
    }
}

/// The closures in a value.
fn closures<'a>(v: &Val<'a>) -> Vec<Rc<FunVal<'a>>> {
    match v {
        Val::Fun(f) => vec![f.clone()],
        Val::Leaf(_) => Vec::new(),
        Val::Record(fs) => fs.values().flat_map(closures).collect(),
        Val::Sum { payloads, .. } => payloads.iter().flatten().flat_map(closures).collect(),
    }
}

/// Appends `extra` to the arguments of every call of `name` in `body`, at any depth.
fn patch_calls(body: &mut ogham_ir::Body, name: &str, extra: &[VName]) {
    for stm in &mut body.stms {
        match &mut stm.exp {
            Exp::Apply { func, args } if func == name => args.extend(extra.iter().map(|v| SubExp::Var(*v))),
            Exp::If { then_body, else_body, .. } => {
                patch_calls(then_body, name, extra);
                patch_calls(else_body, name, extra);
            }
            Exp::Loop { body, .. } => patch_calls(body, name, extra),
            Exp::Soac(soac) => {
                let lambdas = ogham_ir::visit::soac_lambdas_mut(soac);
                for l in lambdas {
                    patch_calls(&mut l.body, name, extra);
                }
            }
            Exp::Ad { lambda, .. } => patch_calls(&mut lambda.body, name, extra),
            _ => {}
        }
    }
}

/// The sizes known in a type, outermost first.
fn rtype_dims(t: &RType) -> Vec<SubExp> {
    fn go(t: &RType, out: &mut Vec<SubExp>) {
        match t {
            RType::Prim(_) => {}
            RType::Array { elem, shape } => {
                out.extend(shape.iter().flatten().copied());
                go(elem, out);
            }
            RType::Record(fs) => fs.values().for_each(|t| go(t, out)),
            RType::Sum(cs) => cs.values().flatten().for_each(|t| go(t, out)),
            RType::Arrow(a, r) => {
                go(a, out);
                go(r, out);
            }
        }
    }
    let mut out = Vec::new();
    go(t, &mut out);
    out
}
