//! Control flow: `if`, `match` (chains of `if`) and `loop`.
//!
//! Branch and loop results are flattened into their leaves. Where the
//! shapes of array results are not the same variable on both sides (or
//! across iterations), the sizes become extra `i64` results bound in the
//! same pattern before the arrays, as the IR requires.

use ogham_ir::builder::BodyBuilder;
use ogham_ir::{Exp, LoopForm as IrLoopForm, Param, PrimType, PrimValue, SubExp, Type as IrType, VName};
use ogham_syntax::ast::{Case, Expr, LoopForm, Pat, PatKind};
use ogham_syntax::Span;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::expr::leaf;
use crate::types::array_type;
use crate::value::{Scope, Val};
use crate::{internal, unsupported, LResult, Lowerer};

/// The variables bound by the top-level statements of a body under construction.
fn bound_by(b: &BodyBuilder) -> HashSet<VName> {
    b.stms.iter().flat_map(|s| s.pat.iter().map(|p| p.name)).collect()
}

impl<'a> Lowerer<'a> {
    pub fn if_expr(
        &mut self,
        b: &mut BodyBuilder,
        sc: &Scope<'a>,
        cond: &'a Expr,
        then_branch: &'a Expr,
        else_branch: &'a Expr,
    ) -> LResult<Val<'a>> {
        let c = self.expr(b, sc, cond)?;
        let c = leaf(&c, cond.span)?;
        match c {
            SubExp::Const(PrimValue::Bool(true)) => return self.expr(b, sc, then_branch),
            SubExp::Const(PrimValue::Bool(false)) => return self.expr(b, sc, else_branch),
            _ => {}
        }
        let mut tb = self.sub_builder(b);
        let tv = self.expr(&mut tb, sc, then_branch)?;
        let mut eb = self.sub_builder(b);
        let ev = self.expr(&mut eb, sc, else_branch)?;
        self.merge_if(b, c, tb, tv, eb, ev)
    }

    /// Emits `if c then (tb; tv) else (eb; ev)` and returns its value, with
    /// existential sizes for array dimensions that are not the same
    /// variable (visible outside) in both branches.
    pub fn merge_if(
        &mut self,
        b: &mut BodyBuilder,
        c: SubExp,
        tb: BodyBuilder,
        tv: Val<'a>,
        eb: BodyBuilder,
        ev: Val<'a>,
    ) -> LResult<Val<'a>> {
        // A statically known condition needs no branch: splice the chosen side.
        if let SubExp::Const(PrimValue::Bool(which)) = c {
            let (chosen, v) = if which { (tb, tv) } else { (eb, ev) };
            b.stms.extend(chosen.stms);
            return Ok(v);
        }
        if tv.has_fun() || ev.has_fun() {
            return Err(unsupported(b.span, "a function returned from a branch"));
        }
        let tl = tv.leaves();
        let el = ev.leaves();
        if tl.len() != el.len() {
            return Err(internal(b.span, "branches of different structure"));
        }
        let (t_inner, e_inner) = (bound_by(&tb), bound_by(&eb));
        let visible = |x: &SubExp, inner: &HashSet<VName>| match x {
            SubExp::Var(v) => !inner.contains(v),
            SubExp::Const(_) => true,
        };
        let mut exts: Vec<(Param, SubExp, SubExp)> = Vec::new();
        let mut ext_index: HashMap<(String, String), usize> = HashMap::default();
        let mut leaf_types = Vec::with_capacity(tl.len());
        for (x, y) in tl.iter().zip(&el) {
            let (tx, ty) = (self.se_type(*x), self.se_type(*y));
            if tx.rank() != ty.rank() || tx.elem() != ty.elem() {
                return Err(internal(b.span, "branch results of different types"));
            }
            let mut shape = Vec::with_capacity(tx.rank());
            for (dx, dy) in tx.shape().iter().zip(ty.shape()) {
                if dx == dy && visible(dx, &t_inner) && visible(dy, &e_inner) {
                    shape.push(*dx);
                    continue;
                }
                let key = (format!("{dx:?}"), format!("{dy:?}"));
                let k = match ext_index.get(&key) {
                    Some(k) => *k,
                    None => {
                        let p = self.param("d", IrType::Prim(PrimType::I64));
                        exts.push((p, *dx, *dy));
                        ext_index.insert(key, exts.len() - 1);
                        exts.len() - 1
                    }
                };
                shape.push(SubExp::Var(exts[k].0.name));
            }
            leaf_types.push(array_type(tx.elem(), shape));
        }
        let mut pat: Vec<Param> = exts.iter().map(|(p, _, _)| p.clone()).collect();
        let leaf_params: Vec<Param> = leaf_types.into_iter().map(|t| self.param("br", t)).collect();
        let names: Vec<VName> = leaf_params.iter().map(|p| p.name).collect();
        self.pass_acc_ops(&tl, &names);
        pat.extend(leaf_params.iter().cloned());
        let then_res = exts.iter().map(|e| e.1).chain(tl).collect();
        let else_res = exts.iter().map(|e| e.2).chain(el).collect();
        let then_body = tb.finish(then_res);
        let else_body = eb.finish(else_res);
        b.push(pat, Exp::If { cond: c, then_body, else_body });
        Ok(tv.rebuild(&mut leaf_params.iter().map(|p| SubExp::Var(p.name))))
    }

    pub fn match_cases(
        &mut self,
        b: &mut BodyBuilder,
        sc: &Scope<'a>,
        v: &Val<'a>,
        cases: &'a [Case],
        span: Span,
    ) -> LResult<Val<'a>> {
        let Some((case, rest)) = cases.split_first() else {
            return Err(internal(span, "a match without cases"));
        };
        let cond = if rest.is_empty() { SubExp::Const(PrimValue::Bool(true)) } else { self.pat_test(b, &case.pat, v)? };
        match cond {
            SubExp::Const(PrimValue::Bool(true)) => {
                let scope = self.bind_pat(b, sc, &case.pat, v.clone())?;
                return self.expr(b, &scope, &case.body);
            }
            SubExp::Const(PrimValue::Bool(false)) => return self.match_cases(b, sc, v, rest, span),
            _ => {}
        }
        let mut tb = self.sub_builder(b);
        let scope = self.bind_pat(&mut tb, sc, &case.pat, v.clone())?;
        let tv = self.expr(&mut tb, &scope, &case.body)?;
        let mut eb = self.sub_builder(b);
        let ev = self.match_cases(&mut eb, sc, v, rest, span)?;
        self.merge_if(b, cond, tb, tv, eb, ev)
    }

    /// The current value of the variables of a pattern (for `loop (x)` without `= init`).
    fn pattern_current_value(&mut self, b: &mut BodyBuilder, sc: &Scope<'a>, pat: &'a Pat) -> LResult<Val<'a>> {
        match &pat.kind {
            // The checker resolved the implied initial value under the pattern's id.
            PatKind::Var(_) => self.reference(b, sc, pat.id, pat.span),
            PatKind::Tuple(items) => {
                let mut vals = Vec::new();
                for p in items {
                    vals.push(self.pattern_current_value(b, sc, p)?);
                }
                Ok(if vals.len() == 1 { vals.pop().unwrap_or_else(Val::unit) } else { Val::tuple(vals) })
            }
            PatKind::Record(fields) => {
                let mut out = std::collections::BTreeMap::new();
                for (n, p) in fields {
                    out.insert(n.text.clone(), self.pattern_current_value(b, sc, p)?);
                }
                Ok(Val::record(out))
            }
            PatKind::Ascribe(inner, _) | PatKind::Attr(_, inner) => self.pattern_current_value(b, sc, inner),
            _ => Err(unsupported(pat.span, "this loop pattern without an initial value")),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn loop_expr(
        &mut self,
        b: &mut BodyBuilder,
        sc: &Scope<'a>,
        pat: &'a Pat,
        init: Option<&'a Expr>,
        form: &'a LoopForm,
        body: &'a Expr,
        span: Span,
    ) -> LResult<Val<'a>> {
        let init_v = match init {
            Some(e) => self.expr(b, sc, e)?,
            None => self.pattern_current_value(b, sc, pat)?,
        };
        if init_v.has_fun() {
            return Err(unsupported(span, "a function-valued loop parameter"));
        }
        // Dimensions the checker proves invariant (a size in scope equal to
        // the initial value's) need no loop parameter of their own.
        let pat_t = self.binding_type(pat.id, pat.span)?;
        let pat_t = self.rtype(b, sc, pat_t, true)?;
        let mut expected = Vec::new();
        Self::leaf_shapes(&pat_t, &[], &mut expected);
        let init_leaves = init_v.leaves();
        if expected.len() != init_leaves.len() {
            expected =
                init_leaves.iter().map(|l| (self.se_type(*l).elem(), vec![None; self.se_type(*l).rank()])).collect();
        }

        let mut params: Vec<(Param, SubExp)> = Vec::new();
        // For while loops, the condition comes first.
        let while_cond = match form {
            LoopForm::While(cond) => {
                let scope = self.bind_pat(b, sc, pat, init_v.clone())?;
                let c0 = self.expr(b, &scope, cond)?;
                let c0 = leaf(&c0, cond.span)?;
                let p = self.param("cond", IrType::Prim(PrimType::Bool));
                params.push((p.clone(), c0));
                Some(p.name)
            }
            _ => None,
        };
        // (dimension parameter, index of leaf, dimension) for variant dimensions.
        let mut dim_params: Vec<(Param, usize, usize)> = Vec::new();
        let mut leaf_param_types = Vec::with_capacity(init_leaves.len());
        for (i, l) in init_leaves.iter().enumerate() {
            let t = self.se_type(*l);
            let mut shape = Vec::with_capacity(t.rank());
            // An accumulator is the same array in every iteration.
            let acc = matches!(l, SubExp::Var(v) if self.acc_ops.contains_key(v));
            for (k, d) in t.shape().iter().enumerate() {
                let invariant = acc || expected[i].1.get(k).copied().flatten() == Some(*d);
                if invariant {
                    shape.push(*d);
                } else {
                    let p = self.param("ld", IrType::Prim(PrimType::I64));
                    params.push((p.clone(), *d));
                    shape.push(SubExp::Var(p.name));
                    dim_params.push((p, i, k));
                }
            }
            leaf_param_types.push(array_type(t.elem(), shape));
        }
        let mut leaf_params = Vec::with_capacity(init_leaves.len());
        for (t, l) in leaf_param_types.into_iter().zip(&init_leaves) {
            let p = self.param("lp", t);
            let init = match l {
                SubExp::Var(v) => SubExp::Var(self.consumable(b, *v)),
                c => *c,
            };
            params.push((p.clone(), init));
            leaf_params.push(p);
        }
        let names: Vec<VName> = leaf_params.iter().map(|p| p.name).collect();
        self.pass_acc_ops(&init_leaves, &names);
        let state = init_v.rebuild(&mut leaf_params.iter().map(|p| SubExp::Var(p.name)));

        let mut bb = self.sub_builder(b);
        // `#[stripmine(k)]` is this loop's, not the loops inside it.
        bb.attrs.stripmine = None;
        let mut scope = self.bind_pat(&mut bb, sc, pat, state)?;
        let ir_form = match form {
            LoopForm::For { var, bound } => {
                let n = self.expr(b, sc, bound)?;
                let n = leaf(&n, bound.span)?;
                let t = self.se_type(n).elem();
                let n64 = self.to_i64(b, n);
                let i = self.names.fresh("i");
                self.types.insert(i, IrType::Prim(PrimType::I64));
                let iv = self.convert(&mut bb, PrimType::I64, t, SubExp::Var(i));
                scope = self.bind_pat(&mut bb, &scope, var, Val::Leaf(iv))?;
                IrLoopForm::For { i, bound: n64 }
            }
            LoopForm::ForIn { pat: xpat, array } => {
                let xs = self.expr(b, sc, array)?;
                let shape = self.outer_shape(&xs, array.span)?;
                let i = self.names.fresh("i");
                self.types.insert(i, IrType::Prim(PrimType::I64));
                let row = self.index_val(&mut bb, &xs, &[ogham_ir::DimIndex::Fix(SubExp::Var(i))], array.span)?;
                scope = self.bind_pat(&mut bb, &scope, xpat, row)?;
                IrLoopForm::For { i, bound: shape[0] }
            }
            LoopForm::While(_) => IrLoopForm::While { cond: while_cond.unwrap_or(VName(0)) },
        };
        let new_v = self.expr(&mut bb, &scope, body)?;
        let new_leaves = new_v.leaves();
        if new_leaves.len() != leaf_params.len() {
            return Err(internal(span, "loop body of a different structure than its parameters"));
        }
        let mut result = Vec::with_capacity(params.len());
        if let LoopForm::While(cond) = form {
            let scope = self.bind_pat(&mut bb, sc, pat, new_v.clone())?;
            let c = self.expr(&mut bb, &scope, cond)?;
            result.push(leaf(&c, cond.span)?);
        }
        for (_, i, k) in &dim_params {
            let t = self.se_type(new_leaves[*i]);
            result.push(*t.shape().get(*k).ok_or_else(|| internal(span, "loop result of a different rank"))?);
        }
        // A dimension taken as invariant must really be: check, and give the
        // new value the parameter's shape.
        let variant: HashSet<VName> = dim_params.iter().map(|(p, _, _)| p.name).collect();
        for (l, p) in new_leaves.iter().zip(&leaf_params) {
            let have = self.se_type(*l);
            let mut want = p.ty.shape().to_vec();
            let mut same = true;
            for (h, w) in have.shape().iter().zip(want.iter_mut()) {
                if matches!(w, SubExp::Var(v) if variant.contains(v)) {
                    // Variant: the body's size is returned as the next size.
                    *w = *h;
                } else if h != w {
                    let ok = self.cmp(&mut bb, ogham_ir::CmpOp::Eq, PrimType::I64, *h, *w);
                    self.assert(
                        &mut bb,
                        ok,
                        "Loop body changes the size of a loop parameter whose size its type fixes.",
                    );
                    same = false;
                }
            }
            if same {
                result.push(*l);
                continue;
            }
            let SubExp::Var(arr) = l else { return Err(internal(span, "a scalar loop result of array type")) };
            let ty = array_type(have.elem(), want.clone());
            result.push(SubExp::Var(self.bind(&mut bb, "sized", ty, Exp::Reshape { array: *arr, shape: want })));
        }
        let body = bb.finish(result);

        // The statement's pattern: one name per loop parameter, with array
        // shapes referring to the pattern's own size names.
        let mut renames: HashMap<VName, SubExp> = HashMap::default();
        let mut pat_params = Vec::with_capacity(params.len());
        for (p, _) in &params {
            let ty = match &p.ty {
                IrType::Array { elem, shape } => IrType::Array {
                    elem: *elem,
                    shape: shape
                        .iter()
                        .map(|d| match d {
                            SubExp::Var(v) => renames.get(v).copied().unwrap_or(*d),
                            c => *c,
                        })
                        .collect(),
                },
                t => t.clone(),
            };
            let np = self.param("loop", ty);
            renames.insert(p.name, SubExp::Var(np.name));
            pat_params.push(np);
        }
        let names: Vec<VName> = pat_params[pat_params.len() - leaf_params.len()..].iter().map(|p| p.name).collect();
        self.pass_acc_ops(&init_leaves, &names);
        let out_leaves: Vec<SubExp> = names.into_iter().map(SubExp::Var).collect();
        b.push(pat_params, Exp::Loop { params, form: ir_form, body });
        Ok(new_v.rebuild(&mut out_leaves.into_iter()))
    }
}
