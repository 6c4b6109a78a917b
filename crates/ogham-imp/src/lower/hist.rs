//! Core IR to kernels: the loop of a `hist` into scalar buckets.
//!
//! The kernel runs iterations `lo .. hi` of the histogram: it reads row `j`
//! of each input and runs the map function as a screma's kernel does
//! ([`super::screma_loop`]); then, for each operator, when the index `i`
//! it computed is in `0 .. buckets`, it loads bucket `i` of each of the
//! operator's destinations, combines the loaded values with the new ones by
//! the operator's statements, and stores the results back. An index out of
//! range is skipped, as the language says.
//!
//! A destination is a [`ParamKind::Write`] pointer: the `hist` consumes
//! it, so nothing else the kernel reads reaches it. The caller says what it
//! is ([`Binding::Dest`]): the destination array itself, or a chunk's
//! private partial histogram on the multicore backend.
//!
//! Only operators with one index, scalar buckets and [`straight_line`]
//! statements are lowered; others are left to the caller.

use ogham_ir::{HistOp, PrimType, PrimValue, Type};

use super::{straight_line, Binding, Lowered, Lowerer, ScremaLoop};
use crate::{BinOp, Block, CmpOp, Exp, Operand, ParamKind, Stm, Ty, Var};

/// The kernel of a `hist`'s loop: `s` gives its inputs and map function
/// (with no scans, reductions or outputs) and `ops` its operators.
pub fn hist_loop(s: &ScremaLoop, ops: &[HistOp]) -> Option<Lowered> {
    if !s.scans.is_empty() || !s.reduces.is_empty() || !s.outs.is_empty() {
        return None;
    }
    if !s.map.ret.iter().all(|t| matches!(t, Type::Prim(_))) || !super::kernel_function(&s.map.body) {
        return None;
    }
    for op in ops {
        let lam = &op.op.lambda;
        let scalar = lam.params.iter().all(|p| matches!(p.ty, Type::Prim(_)))
            && lam.ret.iter().all(|t| matches!(t, Type::Prim(_)));
        if op.shape.len() != 1 || !scalar || !straight_line(&lam.body) || lam.ret.len() != op.dests.len() {
            return None;
        }
        for d in &op.dests {
            if !matches!((s.ty_of)(*d)?, Type::Array { ref shape, .. } if shape.len() == 1) {
                return None;
            }
        }
    }
    let mut l = Lowerer::new("hist", s);
    let lo = l.param("lo", Ty::Prim(PrimType::I64), ParamKind::Value, Binding::Lo);
    let hi = l.param("hi", Ty::Prim(PrimType::I64), ParamKind::Value, Binding::Hi);
    // Per operator: its bucket count and (pointer, stride) per destination.
    let mut dests: Vec<(Var, Vec<(Var, Var)>)> = Vec::new();
    let mut di = 0;
    for (oi, op) in ops.iter().enumerate() {
        let buckets = l.param("buckets", Ty::Prim(PrimType::I64), ParamKind::Value, Binding::Buckets(oi));
        let mut ds = Vec::new();
        for (t, d) in op.op.lambda.ret.iter().zip(&op.dests) {
            let base = l.base(*d);
            let ptr = l.param(&base, Ty::Ptr(t.elem()), ParamKind::Write, Binding::Dest(di));
            let stride =
                l.param(&format!("{base}_stride"), Ty::Prim(PrimType::I64), ParamKind::Stride, Binding::DestStride(di));
            ds.push((ptr, stride));
            di += 1;
        }
        dests.push((buckets, ds));
    }
    let j = l.k.fresh("j");
    let mut body = Vec::new();
    let results = l.map_function(j, &mut body)?;
    let mut pos = 0;
    for (op, (buckets, ds)) in ops.iter().zip(&dests) {
        let k = ds.len();
        let idx = *results.get(pos)?;
        let news = results.get(pos + 1..pos + 1 + k)?.to_vec();
        pos += 1 + k;
        let i64 = PrimType::I64;
        let ge =
            l.let_("ge", PrimType::Bool, Exp::Cmp(CmpOp::Ge, i64, idx, Operand::Const(PrimValue::I64(0))), &mut body);
        let lt = l.let_("lt", PrimType::Bool, Exp::Cmp(CmpOp::Lt, i64, idx, Operand::Var(*buckets)), &mut body);
        let inside = l.let_("inside", PrimType::Bool, Exp::Bin(BinOp::LogAnd, PrimType::Bool, ge, lt), &mut body);
        let mut update = Vec::new();
        let mut at = Vec::new();
        let mut olds = Vec::new();
        for (t, (ptr, stride)) in op.op.lambda.ret.iter().zip(ds) {
            let o = l.scaled(idx, Operand::Var(*stride), &mut update);
            olds.push(l.let_("old", t.elem(), Exp::Load(*ptr, o), &mut update));
            at.push(o);
        }
        let results = l.apply_values(&op.op, &olds, &news, &mut update)?;
        for (((ptr, _), o), r) in ds.iter().zip(at).zip(results) {
            update.push(Stm::Store { ptr: *ptr, index: o, value: r });
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
