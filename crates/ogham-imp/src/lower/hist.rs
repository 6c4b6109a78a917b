//! Core IR to kernels: the loop of a `hist` into scalar buckets.
//!
//! The kernel runs iterations `lo .. hi` of the histogram: it reads row `j`
//! of each input and runs the map function as a screma's kernel does
//! ([`super::screma_loop`]); then, for each operator, when the index `i`
//! it computed is in `0 .. buckets`, it loads bucket `i` of each of the
//! operator's destinations, combines the loaded values with the new ones by
//! the operator's statements, and stores the results back. An index out of
//! range is skipped, as the language says; an index `a mod w`, with `w`
//! the number of buckets, is in range exactly when `w > 0`, which is all
//! the kernel tests then.
//!
//! A destination is a [`ParamKind::Write`] pointer: the `hist` consumes
//! it, so nothing else the kernel reads reaches it. The caller says what it
//! is ([`Binding::Dest`]): the destination array itself, or a chunk's
//! private partial histogram on the multicore backend.
//!
//! Operators with one index are lowered: on scalar buckets, with
//! [`straight_line`] statements; or on row buckets, combining a row of an
//! input with the bucket's row element by element (`map2 op`, k-means'
//! centroid sums), in an `ivdep` loop over the row (the bucket is the
//! destination's, the values another array's). Others are left to the
//! caller.

use ogham_ir::{Exp as CExp, HistOp, Lambda, Operator, PrimType, PrimValue, Soac, SubExp, Type};

use super::{straight_line, Binding, Lowered, Lowerer, MapResult, ScremaLoop, View};
use crate::{BinOp, Block, CmpOp, Exp, Operand, ParamKind, Stm, Ty, Var};

/// The kernel of a `hist`'s loop: `s` gives its inputs and map function
/// (with no scans, reductions or outputs) and `ops` its operators. With
/// `atomic`, the buckets are shared with other tasks running the same
/// loop at the same time, and every update is a [`Stm::Atomic`] (scalar
/// buckets, one destination per operator).
pub fn hist_loop(s: &ScremaLoop, ops: &[HistOp], atomic: bool) -> Option<Lowered> {
    if !s.scans.is_empty() || !s.reduces.is_empty() || !s.outs.is_empty() {
        return None;
    }
    if !super::kernel_function(&s.map.body) {
        return None;
    }
    // Per operator: the element function of a row operator, else `None`.
    let mut rows = Vec::new();
    let mut pos = 0;
    for op in ops {
        let lam = &op.op.lambda;
        let row = row_op(&op.op);
        let scalar = lam.params.iter().all(|p| matches!(p.ty, Type::Prim(_)))
            && lam.ret.iter().all(|t| matches!(t, Type::Prim(_)));
        if op.shape.len() != 1 || !(scalar && straight_line(&lam.body) || row.is_some()) {
            return None;
        }
        if lam.ret.len() != op.dests.len() || atomic && (row.is_some() || op.dests.len() != 1) {
            return None;
        }
        let rank = if row.is_some() { 2 } else { 1 };
        for d in &op.dests {
            if !matches!((s.ty_of)(*d)?, Type::Array { ref shape, .. } if shape.len() == rank) {
                return None;
            }
        }
        // The map function gives the index, then values of the buckets' rank less one.
        let idx = s.map.ret.get(pos)?;
        let vals = s.map.ret.get(pos + 1..pos + 1 + op.dests.len())?;
        if !matches!(idx, Type::Prim(_)) || vals.iter().any(|t| t.rank() != rank - 1) {
            return None;
        }
        pos += 1 + op.dests.len();
        rows.push(row);
    }
    if pos != s.map.ret.len() {
        return None;
    }
    let mut l = Lowerer::new("hist", s);
    let lo = l.param("lo", Ty::Prim(PrimType::I64), ParamKind::Value, Binding::Lo);
    let hi = l.param("hi", Ty::Prim(PrimType::I64), ParamKind::Value, Binding::Hi);
    // Per operator: its bucket count and a view per destination.
    let mut dests: Vec<(Var, Vec<View>)> = Vec::new();
    let mut di = 0;
    for (oi, op) in ops.iter().enumerate() {
        let buckets = l.param("buckets", Ty::Prim(PrimType::I64), ParamKind::Value, Binding::Buckets(oi));
        let mut ds = Vec::new();
        for (t, d) in op.op.lambda.ret.iter().zip(&op.dests) {
            let base = l.base(*d);
            let ptr = l.param(&base, Ty::Ptr(t.elem()), ParamKind::Write, Binding::Dest(di));
            let rank = t.rank() + 1;
            let strides = (0..rank)
                .map(|k| {
                    let kind = if k + 1 == rank { ParamKind::Stride } else { ParamKind::Value };
                    let stride =
                        l.param(&format!("{base}_stride"), Ty::Prim(PrimType::I64), kind, Binding::DestStride(di, k));
                    Operand::Var(stride)
                })
                .collect();
            ds.push(View { ptr, elem: t.elem(), offset: Operand::Const(PrimValue::I64(0)), strides });
            di += 1;
        }
        dests.push((buckets, ds));
    }
    let j = l.k.fresh("j");
    let mut body = Vec::new();
    let results = l.map_results(j, &mut body)?;
    let mut pos = 0;
    for ((op, (buckets, ds)), row) in ops.iter().zip(&dests).zip(&rows) {
        let k = ds.len();
        let Some(MapResult::Scalar(idx)) = results.get(pos).cloned() else { return None };
        let news = results.get(pos + 1..pos + 1 + k)?.to_vec();
        let modulo = s.map.body.result.get(pos).is_some_and(|r| is_mod_of(s.map, r, &op.shape[0]));
        pos += 1 + k;
        let i64 = PrimType::I64;
        let zero = Operand::Const(PrimValue::I64(0));
        let inside = if modulo {
            // `a mod w` (rounding down: the sign of `w`) with `w` the
            // number of buckets is in `0 .. w` exactly when w > 0, a test
            // the same in every iteration (a histogram's `x % k` bins).
            let w = l.operand(&op.shape[0])?;
            l.let_("inside", PrimType::Bool, Exp::Cmp(CmpOp::Gt, i64, w, zero), &mut body)
        } else {
            let ge = l.let_("ge", PrimType::Bool, Exp::Cmp(CmpOp::Ge, i64, idx, zero), &mut body);
            let lt = l.let_("lt", PrimType::Bool, Exp::Cmp(CmpOp::Lt, i64, idx, Operand::Var(*buckets)), &mut body);
            l.let_("inside", PrimType::Bool, Exp::Bin(BinOp::LogAnd, PrimType::Bool, ge, lt), &mut body)
        };
        let mut update = Vec::new();
        let bucket: Vec<View> = ds.iter().map(|v| l.subview(v, &[idx], &mut update)).collect::<Option<_>>()?;
        match row {
            None => {
                let news: Vec<Operand> = news
                    .iter()
                    .map(|n| match n {
                        MapResult::Scalar(x) => Some(*x),
                        MapResult::Row(_) => None,
                    })
                    .collect::<Option<_>>()?;
                if atomic {
                    let ([v], [new]) = (bucket.as_slice(), news.as_slice()) else { return None };
                    let old = l.k.fresh("old");
                    let mut combine = Vec::new();
                    let r = *l.apply_values(&op.op, &[Operand::Var(old)], &[*new], &mut combine)?.first()?;
                    let body = Block { stms: combine };
                    if !body.computes_only() {
                        return None;
                    }
                    update.push(Stm::Atomic { ptr: v.ptr, index: v.offset, old, body, new: r });
                } else {
                    let olds: Vec<Operand> =
                        bucket.iter().map(|v| l.let_("old", v.elem, Exp::Load(v.ptr, v.offset), &mut update)).collect();
                    let results = l.apply_values(&op.op, &olds, &news, &mut update)?;
                    for (v, r) in bucket.iter().zip(results) {
                        update.push(Stm::Store { ptr: v.ptr, index: v.offset, value: r });
                    }
                }
            }
            Some((width, g)) => {
                // One destination, one row of values: element by element.
                let ([dest], [MapResult::Row(vals)]) = (bucket.as_slice(), news.as_slice()) else { return None };
                let width = l.operand(width)?;
                let c = l.k.fresh("c");
                let mut elems = Vec::new();
                let at = l.subview(dest, &[Operand::Var(c)], &mut elems)?;
                let from = l.subview(vals, &[Operand::Var(c)], &mut elems)?;
                let old = l.let_("old", at.elem, Exp::Load(at.ptr, at.offset), &mut elems);
                let new = l.let_("new", from.elem, Exp::Load(from.ptr, from.offset), &mut elems);
                let r = *l.apply_lambda(g, &[old, new], &mut elems)?.first()?;
                elems.push(Stm::Store { ptr: at.ptr, index: at.offset, value: r });
                // The destination's row is the hist's own (consumed), the
                // values another array's: no iteration reads another's element.
                update.push(Stm::For {
                    index: c,
                    lo: Operand::Const(PrimValue::I64(0)),
                    hi: width,
                    ivdep: true,
                    body: Block { stms: elems },
                });
            }
        }
        body.push(Stm::If { cond: inside, then_block: Block { stms: update }, else_block: Block::default() });
    }
    if pos != results.len() {
        return None;
    }
    let for_loop =
        Stm::For { index: j, lo: Operand::Var(lo), hi: Operand::Var(hi), ivdep: false, body: Block { stms: body } };
    l.k.body.stms.push(for_loop);
    Some((l.k, l.bindings, l.checks))
}

/// Whether the map function's result `r` is `mod.i64 a w`, bound in its
/// body, with `w` the histogram's number of buckets.
fn is_mod_of(map: &Lambda, r: &SubExp, w: &SubExp) -> bool {
    let SubExp::Var(r) = r else { return false };
    map.body.stms.iter().any(|s| {
        s.pat.iter().any(|p| p.name == *r)
            && matches!(&s.exp, CExp::BinOp(ogham_ir::BinOp::Mod, PrimType::I64, _, d) if d == w)
    })
}

/// An operator that combines rows element by element,
/// `\(acc: [d]t, x: [d]t) -> map (g) acc x` with `g` scalar code that cannot
/// fail (k-means' `map2 (+)`): the row width `d` and `g`.
pub(crate) fn row_op(op: &Operator) -> Option<(&SubExp, &Lambda)> {
    let lam = &op.lambda;
    let [acc, x] = lam.params.as_slice() else { return None };
    if acc.ty.rank() != 1 || x.ty.rank() != 1 {
        return None;
    }
    let [stm] = lam.body.stms.as_slice() else { return None };
    let (CExp::Soac(Soac::Screma { w, arrs, scans, reduces, map: g }), [res]) = (&stm.exp, stm.pat.as_slice()) else {
        return None;
    };
    let in_order = arrs.as_slice() == [acc.name, x.name];
    if !in_order || !scans.is_empty() || !reduces.is_empty() || lam.body.result != [SubExp::Var(res.name)] {
        return None;
    }
    let scalar = g.params.iter().all(|p| p.ty.rank() == 0) && g.ret.len() == 1 && g.ret[0].rank() == 0;
    (scalar && straight_line(&g.body)).then_some((w, g))
}
