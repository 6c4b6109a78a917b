//! Lowering expressions to static values, emitting IR statements on the way;
//! name resolution, closures and (inlined) function application.

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;
use std::rc::Rc;

use ogham_ir::builder::BodyBuilder;
use ogham_ir::{CmpOp, DimIndex as IrDimIndex, Exp, PrimType, PrimValue, SubExp, Type as IrType, UnOp, VName};
use ogham_syntax::ast::{DimIndex, Expr, ExprKind, Literal, NodeId, Pat, RecordField, TypeParam};
use ogham_syntax::Span;
use ogham_types::{Builtin, DefId, Resolution};

use crate::arith::Msg;
use crate::types::array_type;
use crate::value::{FunVal, RType, Scope, Val};
use crate::{internal, unsupported, LResult, Lowerer, MAX_INLINE_DEPTH};

impl<'a> Lowerer<'a> {
    /// Lowers an expression to its static value.
    pub fn expr(&mut self, b: &mut BodyBuilder, sc: &Scope<'a>, e: &'a Expr) -> LResult<Val<'a>> {
        let saved_span = b.span;
        if !e.span.is_dummy() {
            b.span = e.span;
        }
        let result = self.expr_kind(b, sc, e);
        b.span = saved_span;
        result
    }

    fn expr_kind(&mut self, b: &mut BodyBuilder, sc: &Scope<'a>, e: &'a Expr) -> LResult<Val<'a>> {
        match &e.kind {
            ExprKind::Literal(lit) => self.literal(b, sc, e, lit),
            ExprKind::Var(_) => self.reference(b, sc, e.id, e.span),
            ExprKind::Parens(inner) => self.expr(b, sc, inner),
            ExprKind::Tuple(items) => {
                let mut vals = Vec::with_capacity(items.len());
                for item in items {
                    vals.push(self.expr(b, sc, item)?);
                }
                Ok(Val::tuple(vals))
            }
            ExprKind::Record(fields) => {
                let mut out = BTreeMap::new();
                for f in fields {
                    match f {
                        RecordField::Explicit(name, value) => {
                            out.insert(name.text.clone(), self.expr(b, sc, value)?);
                        }
                        RecordField::Pun(name, id) => {
                            out.insert(name.text.clone(), self.reference(b, sc, *id, name.span)?);
                        }
                    }
                }
                Ok(Val::record(out))
            }
            ExprKind::ArrayLit(items) => self.array_literal(b, sc, e, items),
            ExprKind::Range { start, second, end, kind } => self.range(b, sc, e, start, second.as_deref(), end, *kind),
            ExprKind::Project(inner, name) => {
                let v = self.expr(b, sc, inner)?;
                project(v, &name.text, name.span)
            }
            ExprKind::Index(array, dims) => {
                let v = self.expr(b, sc, array)?;
                self.index_expr(b, sc, v, dims, e.span)
            }
            ExprKind::Apply(f, args) => {
                // The arguments first: the function may be instantiated at
                // their existential sizes (`f (filter p xs)` with `f [n] [m]
                // (xs: [n + m]t)` and `m` known).
                let mut vals = Vec::with_capacity(args.len());
                let mut scope = sc.clone();
                for a in args {
                    let v = self.expr(b, sc, a)?;
                    scope = self.knowing_sizes_of(&scope, self.expr_type(a.id, a.span)?, &v);
                    vals.push(v);
                }
                let fv = self.expr(b, &scope, f)?;
                self.apply(b, fv, vals, e.span)
            }
            ExprKind::BinOp { lhs, rhs, .. } => self.binop_expr(b, sc, e, lhs, rhs),
            ExprKind::Negate(x) | ExprKind::Not(x) => self.unop_expr(b, sc, e, x),
            ExprKind::OpSection(..) => self.operator_value(b, sc, e, 0),
            ExprKind::LeftSection { lhs, .. } => {
                let op = self.operator_value(b, sc, e, 1)?;
                let l = self.expr(b, sc, lhs)?;
                self.apply(b, op, vec![l], e.span)
            }
            ExprKind::RightSection { rhs, .. } => {
                let op = self.operator_value(b, sc, e, 2)?;
                let r = self.expr(b, sc, rhs)?;
                Ok(Val::Fun(Rc::new(FunVal::RightSection { op, rhs: r })))
            }
            ExprKind::ProjectSection(names) => {
                Ok(Val::Fun(Rc::new(FunVal::Project(names.iter().map(|n| n.text.clone()).collect()))))
            }
            ExprKind::IndexSection(dims) => {
                Ok(Val::Fun(Rc::new(FunVal::IndexSection { dims, scope: sc.clone(), span: e.span })))
            }
            ExprKind::If { cond, then_branch, else_branch } => self.if_expr(b, sc, cond, then_branch, else_branch),
            ExprKind::Let { sizes, pat, value, body } => {
                let v = self.expr(b, sc, value)?;
                let mut scope = sc.clone();
                if !sizes.is_empty() {
                    let mut found = HashMap::default();
                    self.match_sizes(self.binding_type(pat.id, pat.span)?, &v, 0, &mut found);
                    for s in sizes {
                        let size = match found.get(&s.id) {
                            Some(d) => *d,
                            None => {
                                return Err(unsupported(s.name.span, "cannot determine this size from the bound value"))
                            }
                        };
                        scope = scope.bind(s.id, Val::Leaf(size));
                    }
                }
                let scope = self.bind_pat(b, &scope, pat, v)?;
                self.expr(b, &scope, body)
            }
            ExprKind::LetFun { name, type_params, params, value, body, .. } => {
                let mut sizes = size_params(type_params);
                sizes.extend(self.info.local_implicit_sizes.get(&name.id).into_iter().flatten().copied());
                let f = FunVal::Closure {
                    params,
                    body: value,
                    scope: sc.clone(),
                    size_params: sizes,
                    applied: Vec::new(),
                    def: None,
                };
                let scope = sc.bind(name.id, Val::Fun(Rc::new(f)));
                self.expr(b, &scope, body)
            }
            ExprKind::Update { array, index, value } => {
                // The value first, as Futhark does: in `(xs with [1] = xs[0])
                // with [1] = xs[1]`, `xs[1]` is read before the inner update
                // consumes `xs`.
                let v = self.expr(b, sc, value)?;
                let arr = self.expr(b, sc, array)?;
                self.update(b, sc, arr, index, v, e.span)
            }
            ExprKind::RecordUpdate { record, fields, value } => {
                let r = self.expr(b, sc, record)?;
                let v = self.expr(b, sc, value)?;
                let path: Vec<&str> = fields.iter().map(|f| f.text.as_str()).collect();
                record_update(r, &path, v, e.span)
            }
            ExprKind::Lambda { params, body, .. } => Ok(Val::Fun(Rc::new(FunVal::Closure {
                params,
                body,
                scope: sc.clone(),
                size_params: Vec::new(),
                applied: Vec::new(),
                def: None,
            }))),
            ExprKind::Loop { pat, init, form, body } => self.loop_expr(b, sc, pat, init.as_deref(), form, body, e.span),
            ExprKind::Match { scrutinee, cases } => {
                let v = self.expr(b, sc, scrutinee)?;
                self.match_cases(b, sc, &v, cases, e.span)
            }
            ExprKind::Ascribe(inner, _) | ExprKind::Coerce(inner, _) => {
                let v = self.expr(b, sc, inner)?;
                let target = self.expr_type(e.id, e.span)?;
                let target = self.rtype(b, sc, target, true)?;
                self.coerce(b, v, &target, e)
            }
            ExprKind::Assert { cond, body } => {
                let c = self.expr(b, sc, cond)?;
                let c = leaf(&c, cond.span)?;
                let message = format!("Assertion is false: {}", crate::entry::show_expr(cond));
                if c == SubExp::Const(ogham_ir::PrimValue::Bool(true)) {
                    return self.expr(b, sc, body);
                }
                // The check binds a certificate, and the body's values are
                // rebound under it: the assertion lasts as long as they are
                // used (`let _ = assert c ()` checks nothing, as in Futhark).
                let saved = b.span;
                b.span = e.span;
                let at = b.stms.len();
                let cert = self.bind(
                    b,
                    "assert_c",
                    ogham_ir::Type::Prim(ogham_ir::PrimType::Bool),
                    Exp::Assert { cond: c, message, args: Vec::new() },
                );
                b.span = saved;
                let v = self.expr(b, sc, body)?;
                if v.has_fun() {
                    // A function's closure is not among the leaves: the
                    // check stands.
                    b.stms[at].pat.clear();
                    return Ok(v);
                }
                let values = v.leaves();
                if values.is_empty() {
                    return Ok(v);
                }
                let tys = values.iter().map(|&se| self.se_type(se)).collect();
                let rebound = self.bind_many(b, "certified", tys, Exp::Certify { cert, values });
                Ok(v.rebuild(&mut rebound.into_iter().map(SubExp::Var)))
            }
            ExprKind::Constructor(name, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.expr(b, sc, a)?);
                }
                let t = self.expr_type(e.id, e.span)?;
                let t = self.rtype(b, sc, t, true)?;
                self.construct(b, &t, &name.text, vals, e.span)
            }
            ExprKind::Attr(attr, inner) => {
                let saved = b.attrs;
                match attr.name.as_str() {
                    "unsafe" => b.attrs.unsafe_ = true,
                    "sequential" | "sequential_outer" | "sequential_inner" => b.attrs.sequential = true,
                    // `#[stripmine(k)]` with a depth of at least 1.
                    "stripmine" => {
                        if let [depth] = &attr.args[..] {
                            b.attrs.stripmine = depth.name.parse::<u8>().ok().filter(|&k| k >= 1);
                        }
                    }
                    _ => {}
                }
                let result = self.expr(b, sc, inner);
                b.attrs = saved;
                // `#[param(name)] e` of type i64 is tuning parameter `name`, `e` its default (as in Futhark).
                if let (Ok(Val::Leaf(default)), "param", [tag]) = (&result, attr.name.as_str(), &attr.args[..]) {
                    if tag.args.is_empty() && self.se_type(*default) == IrType::Prim(PrimType::I64) {
                        let exp = Exp::UserParam { name: tag.name.clone(), default: *default };
                        let v = self.bind(b, "param", IrType::Prim(PrimType::I64), exp);
                        return Ok(Val::Leaf(SubExp::Var(v)));
                    }
                }
                result
            }
            ExprKind::Hole => Err(unsupported(e.span, "a typed hole (???) cannot be run")),
            ExprKind::OpenIn(_, inner) => self.expr(b, sc, inner),
        }
    }

    fn literal(&mut self, b: &mut BodyBuilder, sc: &Scope<'a>, e: &'a Expr, lit: &Literal) -> LResult<Val<'a>> {
        if let Literal::String(bytes) = lit {
            let elems: Vec<SubExp> = bytes.iter().map(|x| SubExp::Const(PrimValue::U8(*x))).collect();
            let ty = IrType::Array { elem: PrimType::U8, shape: vec![SubExp::i64(bytes.len() as i64)] };
            let v = self.bind(b, "str", ty, Exp::ArrayLit { elems, elem_ty: IrType::Prim(PrimType::U8) });
            return Ok(Val::Leaf(SubExp::Var(v)));
        }
        let t = self.expr_type(e.id, e.span)?;
        let t = match self.rtype(b, sc, t, false)? {
            RType::Prim(p) => p,
            _ => return Err(internal(e.span, "a literal of non-primitive type")),
        };
        Ok(Val::Leaf(SubExp::Const(literal_value(lit, t))))
    }

    /// The value a name refers to at expression node `node`.
    pub fn reference(&mut self, b: &mut BodyBuilder, sc: &Scope<'a>, node: NodeId, span: Span) -> LResult<Val<'a>> {
        let res = self.info.resolutions.get(&node).ok_or_else(|| internal(span, "a name without a resolution"))?;
        self.resolution_value(b, sc, node, res, span)
    }

    fn resolution_value(
        &mut self,
        b: &mut BodyBuilder,
        sc: &Scope<'a>,
        node: NodeId,
        res: &'a Resolution,
        span: Span,
    ) -> LResult<Val<'a>> {
        match res {
            Resolution::Local(id) => {
                let v = match sc.env.get(*id) {
                    Some(v) => v.clone(),
                    // A size parameter that no argument given so far
                    // determines (only a later application, or an
                    // existential size, does): not computed yet.
                    None if self.info.defs.iter().any(|d| d.size_params.contains(id)) => {
                        return Err(unsupported(
                            span,
                            "this size parameter is only determined by a later argument or an existential size, which lowering cannot compute yet",
                        ))
                    }
                    None => return Err(internal(span, "a local name with no value in scope")),
                };
                // A polymorphic local function is instantiated at each use.
                if let Val::Fun(f) = &v {
                    if let FunVal::Closure { params, body, scope, size_params, applied, def } = &**f {
                        if self.info.instantiations.contains_key(&node) {
                            let scope = self.instantiate(b, sc, scope, node)?;
                            return Ok(Val::Fun(Rc::new(FunVal::Closure {
                                params,
                                body,
                                scope,
                                size_params: size_params.clone(),
                                applied: applied.clone(),
                                def: *def,
                            })));
                        }
                    }
                }
                Ok(v)
            }
            Resolution::Def(def) => self.def_value(b, sc, *def, node, span),
            Resolution::Builtin(builtin) => {
                let t = self.expr_type(node, span)?;
                let ty = self.rtype(b, sc, t, true)?;
                self.builtin_value(b, builtin.clone(), ty, span)
            }
            Resolution::Projection { head, fields } => {
                let mut v = self.resolution_value(b, sc, node, head, span)?;
                for f in fields {
                    v = project(v, f, span)?;
                }
                Ok(v)
            }
        }
    }

    /// A built-in as a value: constants are evaluated, functions wait for their arguments.
    pub fn builtin_value(&mut self, b: &mut BodyBuilder, builtin: Builtin, ty: RType, span: Span) -> LResult<Val<'a>> {
        if matches!(ty, RType::Arrow(..)) {
            Ok(Val::Fun(Rc::new(FunVal::Builtin { builtin, ty, applied: Vec::new(), span })))
        } else {
            self.apply_builtin(b, &builtin, &ty, Vec::new(), span)
        }
    }

    /// The value of the operator of an operator node (`BinOp`, sections).
    /// `given` says which operand the node supplies (0: none, 1: left, 2:
    /// right), to rebuild the operator's full type from the node's type.
    fn operator_value(&mut self, b: &mut BodyBuilder, sc: &Scope<'a>, e: &'a Expr, given: u8) -> LResult<Val<'a>> {
        let res =
            self.info.resolutions.get(&e.id).ok_or_else(|| internal(e.span, "an operator without a resolution"))?;
        match res {
            Resolution::Builtin(builtin) => {
                let node_ty = self.expr_type(e.id, e.span)?;
                let node_ty = self.rtype(b, sc, node_ty, true)?;
                let ty = match (given, &e.kind) {
                    (1, ExprKind::LeftSection { lhs, .. }) => {
                        let lt = self.expr_type(lhs.id, lhs.span)?;
                        RType::Arrow(Box::new(self.rtype(b, sc, lt, true)?), Box::new(node_ty))
                    }
                    (2, ExprKind::RightSection { rhs, .. }) => {
                        let rt = self.expr_type(rhs.id, rhs.span)?;
                        let rt = self.rtype(b, sc, rt, true)?;
                        match node_ty {
                            RType::Arrow(x, res) => RType::Arrow(x, Box::new(RType::Arrow(Box::new(rt), res))),
                            other => other,
                        }
                    }
                    _ => node_ty,
                };
                Ok(Val::Fun(Rc::new(FunVal::Builtin {
                    builtin: builtin.clone(),
                    ty,
                    applied: Vec::new(),
                    span: e.span,
                })))
            }
            other => self.resolution_value(b, sc, e.id, other, e.span),
        }
    }

    /// A top-level definition as a value. Constants (no parameters) are
    /// evaluated here; functions become closures instantiated for this use.
    fn def_value(
        &mut self,
        b: &mut BodyBuilder,
        sc: &Scope<'a>,
        def: DefId,
        node: NodeId,
        span: Span,
    ) -> LResult<Val<'a>> {
        let dec = self.dec(def).ok_or_else(|| internal(span, "a reference to a missing definition"))?;
        // Recursion is monomorphic: a function's use of itself keeps the
        // enclosing instantiation's types.
        let base = if self.info.recursive_uses.contains(&node) {
            Scope { env: Default::default(), subst: sc.subst.clone() }
        } else {
            Scope::default()
        };
        if dec.params.is_empty() && !self.info.instantiations.contains_key(&node) {
            if let Some(v) = self.global_constant(def)? {
                return Ok(v);
            }
        }
        let scope = self.instantiate(b, sc, &base, node)?;
        if dec.params.is_empty() {
            return self.inline_body(b, &scope, &dec.body, span);
        }
        Ok(Val::Fun(Rc::new(FunVal::Closure {
            params: &dec.params,
            body: &dec.body,
            scope,
            size_params: self.info.defs.get(def.0 as usize).map(|d| d.size_params.clone()).unwrap_or_default(),
            applied: Vec::new(),
            def: Some(def),
        })))
    }

    /// The value of a parameterless top-level definition (used for sizes named by a constant).
    pub fn def_constant(&mut self, b: &mut BodyBuilder, def: DefId) -> LResult<Option<Val<'a>>> {
        let Some(dec) = self.dec(def) else { return Ok(None) };
        if !dec.params.is_empty() || !dec.type_params.is_empty() {
            return Ok(None);
        }
        if let Some(v) = self.global_constant(def)? {
            return Ok(Some(v));
        }
        self.inline_body(b, &Scope::default(), &dec.body, dec.span).map(Some)
    }

    /// A top-level constant (a definition without parameters, type
    /// parameters or sizes to instantiate) as a program constant: its
    /// statements go to the program's constants, run once when the program
    /// starts, the first time it is used, and every use shares its value.
    /// `None` when its value holds a function, which must be inlined at
    /// each use instead.
    pub(crate) fn global_constant(&mut self, def: DefId) -> LResult<Option<Val<'a>>> {
        if let Some(v) = self.constants.get(&def) {
            return Ok(v.clone());
        }
        let Some(dec) = self.dec(def) else { return Ok(None) };
        let polymorphic = !dec.type_params.is_empty()
            || self.info.defs.get(def.0 as usize).is_some_and(|d| !d.size_params.is_empty());
        if !dec.params.is_empty() || polymorphic || self.recursive.contains(&def) {
            return Ok(None);
        }
        let mut b = BodyBuilder::new(dec.span);
        let irregular = std::mem::take(&mut self.irregular);
        let v = self.inline_body(&mut b, &Scope::default(), &dec.body, dec.span);
        self.irregular = irregular;
        let v = v?;
        if v.has_fun() {
            self.constants.insert(def, None);
            return Ok(None);
        }
        self.consts.append(&mut b.stms);
        // Every use shares the value: consuming it needs a copy.
        for leaf in v.leaves() {
            if let SubExp::Var(x) = leaf {
                if self.se_type(leaf).rank() > 0 {
                    self.shared.insert(x);
                }
            }
        }
        self.constants.insert(def, Some(v.clone()));
        Ok(Some(v))
    }

    pub(crate) fn inline_body(
        &mut self,
        b: &mut BodyBuilder,
        scope: &Scope<'a>,
        body: &'a Expr,
        span: Span,
    ) -> LResult<Val<'a>> {
        if self.depth >= MAX_INLINE_DEPTH {
            return Err(unsupported(span, "calls nest too deeply to be inlined"));
        }
        self.depth += 1;
        let result = self.expr(b, scope, body);
        self.depth -= 1;
        result
    }

    /// Extends `base` with the instantiation recorded at `node`: type
    /// arguments resolved and sizes evaluated in the caller's scope `sc`.
    fn instantiate(
        &mut self,
        b: &mut BodyBuilder,
        sc: &Scope<'a>,
        base: &Scope<'a>,
        node: NodeId,
    ) -> LResult<Scope<'a>> {
        let Some(inst) = self.info.instantiations.get(&node) else { return Ok(base.clone()) };
        let mut subst = (*base.subst).clone();
        for (id, t) in &inst.types {
            let rt = self.rtype(b, sc, t, true)?;
            subst.insert(*id, rt);
        }
        let mut env = base.env.clone();
        for (id, s) in &inst.sizes {
            if let Some(v) = self.eval_size(b, sc, s)? {
                env = env.with(*id, Val::Leaf(v));
            }
        }
        Ok(Scope { env, subst: Rc::new(subst) })
    }

    /// Applies a function value to arguments, inlining it once it has all of them.
    pub fn apply(&mut self, b: &mut BodyBuilder, f: Val<'a>, args: Vec<Val<'a>>, span: Span) -> LResult<Val<'a>> {
        if args.is_empty() {
            return Ok(f);
        }
        // A well-typed program applies only functions (an inactive
        // constructor's function payload is `FunVal::Blank`).
        let Val::Fun(fun) = f else {
            return Err(internal(span, "applying a value that is not a function"));
        };
        let arity = match &*fun {
            FunVal::Closure { params, applied, .. } => params.len() - applied.len().min(params.len()),
            FunVal::Builtin { ty, applied, .. } => arrow_count(ty) - applied.len().min(arrow_count(ty)),
            FunVal::RightSection { .. } | FunVal::Project(_) | FunVal::IndexSection { .. } | FunVal::Blank(_) => 1,
        };
        let mut args = args;
        if args.len() < arity {
            return Ok(Val::Fun(Rc::new(match &*fun {
                FunVal::Closure { params, body, scope, size_params, applied, def } => FunVal::Closure {
                    params,
                    body,
                    scope: scope.clone(),
                    size_params: size_params.clone(),
                    applied: applied.iter().cloned().chain(args).collect(),
                    def: *def,
                },
                FunVal::Builtin { builtin, ty, applied, span } => FunVal::Builtin {
                    builtin: builtin.clone(),
                    ty: ty.clone(),
                    applied: applied.iter().cloned().chain(args).collect(),
                    span: *span,
                },
                _ => return Err(internal(span, "partial application of a section")),
            })));
        }
        let rest = args.split_off(arity);
        let result = match &*fun {
            FunVal::Closure { params, body, scope, size_params, applied, def } => {
                let all: Vec<Val<'a>> = applied.iter().cloned().chain(args).collect();
                match def {
                    Some(def) if self.callable(*def, params, body, &all) => {
                        let f = crate::call::Callee { def: *def, params, body, scope, size_params };
                        self.call(b, f, all, span)?
                    }
                    Some(_) => {
                        // A top-level function's statements keep the call.
                        let at = b.stms.len();
                        let v = self.inline_closure(b, params, body, scope, size_params, all, span)?;
                        let mut memo = HashMap::default();
                        ogham_ir::relocate(&mut b.stms[at..], span, Some(body.span), &mut self.inlined, &mut memo);
                        v
                    }
                    None => self.inline_closure(b, params, body, scope, size_params, all, span)?,
                }
            }
            FunVal::Builtin { builtin, ty, applied, span: bspan } => {
                let all: Vec<Val<'a>> = applied.iter().cloned().chain(args).collect();
                let saved = b.span;
                if b.span.is_dummy() {
                    b.span = *bspan;
                }
                let r = self.apply_builtin(b, builtin, ty, all, span);
                b.span = saved;
                r?
            }
            FunVal::RightSection { op, rhs } => {
                let x = args.into_iter().next().unwrap_or_else(Val::unit);
                self.apply(b, op.clone(), vec![x, rhs.clone()], span)?
            }
            FunVal::Project(fields) => {
                let mut v = args.into_iter().next().unwrap_or_else(Val::unit);
                for f in fields {
                    v = project(v, f, span)?;
                }
                v
            }
            FunVal::IndexSection { dims, scope, span: ispan } => {
                let v = args.into_iter().next().unwrap_or_else(Val::unit);
                self.index_expr(b, scope, v, dims, *ispan)?
            }
            FunVal::Blank(to) => self.blank(b, to),
        };
        if rest.is_empty() {
            Ok(result)
        } else {
            self.apply(b, result, rest, span)
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn inline_closure(
        &mut self,
        b: &mut BodyBuilder,
        params: &'a [Pat],
        body: &'a Expr,
        scope: &Scope<'a>,
        size_params: &[NodeId],
        args: Vec<Val<'a>>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let mut scope = scope.clone();
        for (id, d) in self.size_param_values(b, &scope.clone(), params, &args, size_params)? {
            scope = scope.bind(id, Val::Leaf(d));
        }
        for (p, a) in params.iter().zip(args) {
            scope = self.bind_pat(b, &scope, p, a)?;
        }
        self.inline_body(b, &scope, body, span)
    }

    fn binop_expr(
        &mut self,
        b: &mut BodyBuilder,
        sc: &Scope<'a>,
        e: &'a Expr,
        lhs: &'a Expr,
        rhs: &'a Expr,
    ) -> LResult<Val<'a>> {
        let res =
            self.info.resolutions.get(&e.id).ok_or_else(|| internal(e.span, "an operator without a resolution"))?;
        match res {
            Resolution::Builtin(Builtin::LogAnd) | Resolution::Builtin(Builtin::LogOr) => {
                let is_and = matches!(res, Resolution::Builtin(Builtin::LogAnd));
                let l = self.expr(b, sc, lhs)?;
                let l = leaf(&l, lhs.span)?;
                // Short-circuit: the right operand is only evaluated when it matters.
                match (l, is_and) {
                    (SubExp::Const(PrimValue::Bool(false)), true) | (SubExp::Const(PrimValue::Bool(true)), false) => {
                        return Ok(Val::Leaf(l))
                    }
                    (SubExp::Const(PrimValue::Bool(_)), _) => return self.expr(b, sc, rhs),
                    _ => {}
                }
                let mut rb = self.sub_builder(b);
                let r = self.expr(&mut rb, sc, rhs)?;
                let short = self.sub_builder(b);
                let short_val = Val::Leaf(SubExp::Const(PrimValue::Bool(!is_and)));
                if is_and {
                    self.merge_if(b, l, rb, r, short, short_val)
                } else {
                    self.merge_if(b, l, short, short_val, rb, r)
                }
            }
            Resolution::Builtin(builtin) => {
                let l = self.expr(b, sc, lhs)?;
                let r = self.expr(b, sc, rhs)?;
                let lt = self.expr_type(lhs.id, lhs.span)?;
                let lt = self.rtype(b, sc, lt, false)?;
                let rt = self.expr_type(rhs.id, rhs.span)?;
                let rt = self.rtype(b, sc, rt, false)?;
                let res_t = self.expr_type(e.id, e.span)?;
                let res_t = self.rtype(b, sc, res_t, false)?;
                let ty = RType::Arrow(Box::new(lt), Box::new(RType::Arrow(Box::new(rt), Box::new(res_t))));
                self.apply_builtin(b, builtin, &ty, vec![l, r], e.span)
            }
            _ => {
                // The right operand may be a function instantiated at the
                // left one's existential sizes (`filter p xs |> f g`).
                let l = self.expr(b, sc, lhs)?;
                let scope = self.knowing_sizes_of(sc, self.expr_type(lhs.id, lhs.span)?, &l);
                let op = self.operator_value(b, &scope, e, 0)?;
                let r = self.expr(b, &scope, rhs)?;
                self.apply(b, op, vec![l, r], e.span)
            }
        }
    }

    fn unop_expr(&mut self, b: &mut BodyBuilder, sc: &Scope<'a>, e: &'a Expr, x: &'a Expr) -> LResult<Val<'a>> {
        let v = self.expr(b, sc, x)?;
        match self.info.resolutions.get(&e.id) {
            Some(Resolution::Builtin(builtin)) => {
                let t = self.expr_type(x.id, x.span)?;
                let t = self.rtype(b, sc, t, false)?;
                let ty = RType::Arrow(Box::new(t.clone()), Box::new(t));
                self.apply_builtin(b, builtin, &ty, vec![v], e.span)
            }
            Some(_) => {
                let op = self.operator_value(b, sc, e, 0)?;
                self.apply(b, op, vec![v], e.span)
            }
            None => {
                // Without a resolution the operator is the built-in one.
                let se = leaf(&v, x.span)?;
                let t = self.se_type(se).elem();
                let op = if matches!(e.kind, ExprKind::Not(_)) { UnOp::Not } else { UnOp::Neg };
                Ok(Val::Leaf(SubExp::Var(self.bind(b, "un", IrType::Prim(t), Exp::UnOp(op, t, se)))))
            }
        }
    }

    /// `[a, b, c]`: one array literal per leaf.
    fn array_literal(
        &mut self,
        b: &mut BodyBuilder,
        sc: &Scope<'a>,
        e: &'a Expr,
        items: &'a [Expr],
    ) -> LResult<Val<'a>> {
        if items.is_empty() {
            let t = self.expr_type(e.id, e.span)?;
            let t = self.rtype(b, sc, t, true)?;
            return Ok(self.blank(b, &t));
        }
        let mut vals = Vec::with_capacity(items.len());
        for item in items {
            vals.push(self.expr(b, sc, item)?);
        }
        let n = SubExp::i64(vals.len() as i64);
        let columns: Vec<Vec<SubExp>> = vals.iter().map(Val::leaves).collect();
        let mut results = Vec::new();
        for k in 0..columns[0].len() {
            let elems: Vec<SubExp> = columns.iter().map(|c| c.get(k).copied().unwrap_or(SubExp::i64(0))).collect();
            let elem_ty = self.se_type(elems[0]);
            let ty = elem_ty.array_of(n);
            results.push(SubExp::Var(self.bind(b, "arr", ty, Exp::ArrayLit { elems, elem_ty })));
        }
        Ok(vals[0].rebuild(&mut results.into_iter()))
    }

    #[allow(clippy::too_many_arguments)]
    fn range(
        &mut self,
        b: &mut BodyBuilder,
        sc: &Scope<'a>,
        e: &'a Expr,
        start: &'a Expr,
        second: Option<&'a Expr>,
        end: &'a Expr,
        kind: ogham_syntax::ast::RangeEnd,
    ) -> LResult<Val<'a>> {
        use ogham_syntax::ast::RangeEnd;
        let s = self.expr(b, sc, start)?;
        let s = leaf(&s, start.span)?;
        let t = self.se_type(s).elem();
        let second = match second {
            Some(x) => {
                let v = self.expr(b, sc, x)?;
                Some(leaf(&v, x.span)?)
            }
            None => None,
        };
        let en = self.expr(b, sc, end)?;
        let en = leaf(&en, end.span)?;
        let step = match second {
            Some(x) => self.binop(b, ogham_ir::BinOp::Sub, t, x, s),
            None => SubExp::Const(PrimValue::from_i64(t, if kind == RangeEnd::DownToExclusive { -1 } else { 1 })),
        };
        let s64 = self.to_i64(b, s);
        let step64 = self.to_i64(b, step);
        let e64 = self.to_i64(b, en);
        // Futhark's message, with the values: `Range 1..1...5 is invalid.`
        let mut msg = Msg::default();
        msg.text("Range ");
        msg.val(s64);
        if let Some(x) = second {
            msg.text("..");
            let x64 = self.to_i64(b, x);
            msg.val(x64);
        }
        msg.text(match kind {
            RangeEnd::UpToExclusive => "..<",
            RangeEnd::DownToExclusive => "..>",
            RangeEnd::ToInclusive => "...",
        });
        msg.val(e64);
        msg.text(" is invalid.");
        let saved = b.span;
        b.span = e.span;
        let len = self.range_len(b, s64, step64, e64, kind, msg);
        b.span = saved;
        let ty = IrType::Array { elem: t, shape: vec![len] };
        Ok(Val::Leaf(SubExp::Var(self.bind(b, "range", ty, Exp::Iota { n: len, start: s, step, elem: t }))))
    }

    /// Converts source index/slice expressions for an array value.
    fn dim_indices(
        &mut self,
        b: &mut BodyBuilder,
        sc: &Scope<'a>,
        shape: &[SubExp],
        dims: &'a [DimIndex],
        span: Span,
    ) -> LResult<Vec<IrDimIndex>> {
        let mut out = Vec::with_capacity(dims.len());
        // The validity of the whole index and its message, checked at once
        // when it has a slice (as Futhark does).
        let mut ok = SubExp::Const(PrimValue::Bool(true));
        let mut parts = Vec::with_capacity(dims.len());
        for (k, d) in dims.iter().enumerate() {
            let n = *shape.get(k).ok_or_else(|| internal(span, "more indices than dimensions"))?;
            match d {
                DimIndex::Index(i) => {
                    let v = self.expr(b, sc, i)?;
                    let v = leaf(&v, i.span)?;
                    let i = self.to_i64(b, v);
                    out.push(IrDimIndex::Fix(i));
                    parts.push(Msg::default());
                }
                DimIndex::Slice { start, end, stride } => {
                    let part = |this: &mut Self, b: &mut BodyBuilder, x: &'a Option<Expr>| -> LResult<Option<SubExp>> {
                        match x {
                            Some(x) => {
                                let v = this.expr(b, sc, x)?;
                                let v = leaf(&v, x.span)?;
                                Ok(Some(this.to_i64(b, v)))
                            }
                            None => Ok(None),
                        }
                    };
                    let s = part(self, b, start)?;
                    let en = part(self, b, end)?;
                    let st = part(self, b, stride)?;
                    let (d, d_ok, part) = self.slice_dim(b, n, s, en, st);
                    out.push(d);
                    ok = self.and(b, ok, d_ok);
                    parts.push(part);
                }
            }
        }
        if out.iter().any(|d| matches!(d, IrDimIndex::Slice { .. })) {
            for (k, (d, part)) in out.iter().zip(parts.iter_mut()).enumerate() {
                if let IrDimIndex::Fix(i) = d {
                    part.val(*i);
                    let in_bounds = self.in_bounds(b, *i, shape[k]);
                    ok = self.and(b, ok, in_bounds);
                }
            }
            self.index_check(b, ok, parts, &shape[..out.len()]);
        }
        Ok(out)
    }

    pub fn index_expr(
        &mut self,
        b: &mut BodyBuilder,
        sc: &Scope<'a>,
        v: Val<'a>,
        dims: &'a [DimIndex],
        span: Span,
    ) -> LResult<Val<'a>> {
        let shape = self.outer_shape(&v, span)?;
        let slice = self.dim_indices(b, sc, &shape, dims, span)?;
        self.index_val(b, &v, &slice, span)
    }

    /// The shape of the leaves' common outer dimensions (taken from the first leaf).
    pub fn outer_shape(&self, v: &Val<'a>, span: Span) -> LResult<Vec<SubExp>> {
        match v.leaves().first() {
            Some(se) => Ok(self.se_type(*se).shape().to_vec()),
            None => Err(unsupported(span, "indexing an array whose elements have no data (e.g. unit)")),
        }
    }

    /// Indexes/slices every leaf of an array value.
    pub fn index_val(
        &mut self,
        b: &mut BodyBuilder,
        v: &Val<'a>,
        slice: &[IrDimIndex],
        span: Span,
    ) -> LResult<Val<'a>> {
        let mut results = Vec::new();
        for l in v.leaves() {
            let SubExp::Var(arr) = l else { return Err(internal(span, "indexing a scalar")) };
            let ty = self.types.get(&arr).cloned().ok_or_else(|| internal(span, "an array of unknown type"))?;
            let rt = index_result_type(&ty, slice);
            results.push(SubExp::Var(self.bind(b, "idx", rt, Exp::Index { array: arr, slice: slice.to_vec() })));
        }
        Ok(v.rebuild(&mut results.into_iter()))
    }

    fn update(
        &mut self,
        b: &mut BodyBuilder,
        sc: &Scope<'a>,
        arr: Val<'a>,
        index: &'a [DimIndex],
        v: Val<'a>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let shape = self.outer_shape(&arr, span)?;
        let slice = self.dim_indices(b, sc, &shape, index, span)?;
        let values = v.leaves();
        let mut results = Vec::new();
        for (k, l) in arr.leaves().into_iter().enumerate() {
            let SubExp::Var(a) = l else { return Err(internal(span, "updating a scalar")) };
            let a = self.consumable(b, a);
            let ty = self.types[&a].clone();
            let value = *values.get(k).ok_or_else(|| internal(span, "update value of the wrong structure"))?;
            results.push(SubExp::Var(self.bind(b, "upd", ty, Exp::Update { array: a, slice: slice.clone(), value })));
        }
        Ok(arr.rebuild(&mut results.into_iter()))
    }

    /// `#c args` of sum type `t`.
    pub fn construct(
        &mut self,
        b: &mut BodyBuilder,
        t: &RType,
        name: &str,
        args: Vec<Val<'a>>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let RType::Sum(cs) = t else { return Err(internal(span, "a constructor of non-sum type")) };
        let mut payloads = Vec::with_capacity(cs.len());
        let mut tag = None;
        let mut args = Some(args);
        for (i, (c, ts)) in cs.iter().enumerate() {
            if c == name {
                tag = Some(i);
                payloads.push(args.take().unwrap_or_default());
            } else {
                payloads.push(ts.iter().map(|t| self.blank(b, t)).collect());
            }
        }
        let tag = tag.ok_or_else(|| internal(span, "a constructor not in its type"))?;
        Ok(Val::Sum { tag: SubExp::Const(PrimValue::I8(tag as i8)), payloads })
    }

    /// `e : t` and `e :> t`: checks at run time that every known dimension
    /// of `t` matches the value's, and gives the value those dimensions.
    fn coerce(&mut self, b: &mut BodyBuilder, v: Val<'a>, target: &RType, e: &'a Expr) -> LResult<Val<'a>> {
        let mut shapes = Vec::new();
        Self::leaf_shapes(target, &[], &mut shapes);
        let leaves = v.leaves();
        if shapes.len() != leaves.len() {
            return Ok(v);
        }
        // Futhark's message, with the sizes of the value and of the type:
        // `Value of (desugared) shape [2][2] cannot match shape of type "[1][4]i32".`
        let mut target_msg = Msg::default();
        rtype_msg(target, &mut target_msg);
        let mut results = Vec::with_capacity(leaves.len());
        let mut changed = false;
        for (l, (_, want)) in leaves.iter().zip(&shapes) {
            let ty = self.se_type(*l);
            let have = ty.shape().to_vec();
            if have.len() != want.len() || have.is_empty() {
                results.push(*l);
                continue;
            }
            let mut new_shape = have.clone();
            let mut leaf_changed = false;
            let mut ok = SubExp::Const(PrimValue::Bool(true));
            for (k, w) in want.iter().enumerate() {
                if let Some(w) = w {
                    if *w != have[k] {
                        let eq = self.cmp(b, CmpOp::Eq, PrimType::I64, have[k], *w);
                        ok = self.and(b, ok, eq);
                        new_shape[k] = *w;
                        leaf_changed = true;
                    }
                }
            }
            if leaf_changed {
                let mut msg = Msg::default();
                msg.text("Value of (desugared) shape ");
                for d in &have {
                    msg.text("[");
                    msg.val(*d);
                    msg.text("]");
                }
                msg.text(" cannot match shape of type \"");
                msg.append(target_msg.clone());
                msg.text("\".");
                self.assert_msg(b, ok, msg);
            }
            if leaf_changed {
                changed = true;
                let SubExp::Var(arr) = l else { return Err(internal(e.span, "reshaping a scalar")) };
                let nt = array_type(ty.elem(), new_shape.clone());
                results.push(SubExp::Var(self.bind(b, "coerced", nt, Exp::Reshape { array: *arr, shape: new_shape })));
            } else {
                results.push(*l);
            }
        }
        if !changed {
            return Ok(v);
        }
        Ok(v.rebuild(&mut results.into_iter()))
    }
}

/// A type as Futhark writes it in run-time errors: known sizes as their
/// values, unknown ones as `[]`.
fn rtype_msg(t: &RType, msg: &mut Msg) {
    match t {
        RType::Prim(p) => msg.text(p.name()),
        RType::Array { elem, shape } => {
            for d in shape {
                msg.text("[");
                if let Some(d) = d {
                    msg.val(*d);
                }
                msg.text("]");
            }
            rtype_msg(elem, msg);
        }
        RType::Record(fields) => {
            let tuple = fields.len() != 1 && (0..fields.len()).all(|i| fields.contains_key(&i.to_string()));
            if tuple {
                msg.text("(");
                for i in 0..fields.len() {
                    if i > 0 {
                        msg.text(", ");
                    }
                    if let Some(f) = fields.get(&i.to_string()) {
                        rtype_msg(f, msg);
                    }
                }
                msg.text(")");
            } else {
                msg.text("{");
                for (k, (name, f)) in fields.iter().enumerate() {
                    if k > 0 {
                        msg.text(", ");
                    }
                    msg.text(name);
                    msg.text(": ");
                    rtype_msg(f, msg);
                }
                msg.text("}");
            }
        }
        RType::Sum(cs) => {
            for (k, (name, ts)) in cs.iter().enumerate() {
                if k > 0 {
                    msg.text(" | ");
                }
                msg.text("#");
                msg.text(name);
                for t in ts {
                    msg.text(" ");
                    rtype_msg(t, msg);
                }
            }
        }
        RType::Arrow(..) => msg.text("#<fun>"),
    }
}

/// The type of `array[slice]`.
pub fn index_result_type(ty: &IrType, slice: &[IrDimIndex]) -> IrType {
    let shape = ty.shape();
    let mut out = Vec::new();
    for (k, d) in slice.iter().enumerate() {
        if let IrDimIndex::Slice { len, .. } = d {
            out.push(*len);
        }
        let _ = k;
    }
    out.extend(shape.iter().skip(slice.len()).copied());
    array_type(ty.elem(), out)
}

/// The single operand of a scalar or array-of-scalar value.
pub fn leaf(v: &Val<'_>, span: Span) -> LResult<SubExp> {
    match v {
        Val::Leaf(se) => Ok(*se),
        _ => Err(internal(span, "expected a primitive value or array")),
    }
}

pub fn project<'a>(v: Val<'a>, field: &str, span: Span) -> LResult<Val<'a>> {
    match v {
        Val::Record(mut fields) => fields.remove(field).ok_or_else(|| internal(span, format!("no field {field}"))),
        _ => Err(internal(span, format!("projecting field {field} of a non-record"))),
    }
}

fn record_update<'a>(r: Val<'a>, path: &[&str], v: Val<'a>, span: Span) -> LResult<Val<'a>> {
    let Some((first, rest)) = path.split_first() else { return Ok(v) };
    match r {
        Val::Record(mut fields) => {
            let old = fields.remove(*first).ok_or_else(|| internal(span, format!("no field {first}")))?;
            fields.insert(first.to_string(), record_update(old, rest, v, span)?);
            Ok(Val::Record(fields))
        }
        _ => Err(internal(span, "updating a field of a non-record")),
    }
}

/// The value of a literal at type `t`.
pub fn literal_value(lit: &Literal, t: PrimType) -> PrimValue {
    match lit {
        Literal::Int { value, .. } => {
            if t.is_float() {
                PrimValue::from_f64(t, *value as f64)
            } else {
                PrimValue::from_i64(t, *value as i64)
            }
        }
        Literal::Float { value, .. } => PrimValue::from_f64(t, *value),
        Literal::Bool(x) => PrimValue::Bool(*x),
        Literal::String(_) => PrimValue::zero(t),
    }
}

/// The binder ids of the size parameters among type parameters.
pub fn size_params(tps: &[TypeParam]) -> Vec<NodeId> {
    tps.iter()
        .filter_map(|tp| match tp {
            TypeParam::Size(b) => Some(b.id),
            TypeParam::Type(..) => None,
        })
        .collect()
}

/// The number of arguments an arrow type takes.
pub fn arrow_count(t: &RType) -> usize {
    match t {
        RType::Arrow(_, to) => 1 + arrow_count(to),
        _ => 0,
    }
}

/// The array leaves of a value as variables.
pub fn array_leaves(v: &Val<'_>, span: Span) -> LResult<Vec<VName>> {
    v.leaves().into_iter().map(|l| l.as_var().ok_or_else(|| internal(span, "expected an array"))).collect()
}
