//! Core IR to kernels: folding parallel chunks' partial results into the
//! destination, the second pass of a parallel `hist` into scalar buckets.
//!
//! Each chunk of the first pass filled partial histograms of its own
//! (starting from the operator's neutral element); chunk `c`'s bucket `b`
//! of destination `i` is element `c * pitch + b` of that destination's
//! partials. The kernel runs buckets `lo .. hi`: it loads the bucket of
//! every destination into a `mut` variable, folds in the chunks' partials
//! in chunk order with the operator's own statements, and stores the
//! results back. Buckets are independent, so the caller may run ranges of
//! them in parallel; the chunks are folded in order, so the result is the
//! same for every split (the operator is associative and commutative, so
//! it is also the sequential loop's, up to float rounding).
//!
//! A destination is a [`ParamKind::Write`] pointer with its stride
//! ([`Binding::Dest`], [`Binding::DestStride`]): the `hist` consumed it.
//! The partials are [`ParamKind::Read`] pointers ([`Binding::Partial`])
//! with the distance between chunks ([`Binding::PartialPitch`]), and the
//! number of chunks is [`Binding::Chunks`].

use ogham_ir::{Operator, PrimType, PrimValue, Type};

use super::{straight_line, Binding, Lowered, Lowerer, ScremaLoop};
use crate::{Block, Exp, Operand, ParamKind, Stm, Ty};

/// The merge of a `hist` operator's partial histograms into its
/// destinations: `op` on scalars, its lambda straight-line code that
/// cannot fail. `s` describes the surroundings (the types and names of the
/// operator's free variables); its inputs and map function are not used.
pub fn fold_partials(s: &ScremaLoop, op: &Operator) -> Option<Lowered> {
    let lam = &op.lambda;
    let k = op.neutral.len();
    let scalar = lam.params.iter().all(|p| matches!(p.ty, Type::Prim(_)));
    if k == 0 || lam.params.len() != 2 * k || lam.ret.len() != k || !scalar || !straight_line(&lam.body) {
        return None;
    }
    let elems: Vec<PrimType> = lam.params[..k].iter().map(|p| p.ty.elem()).collect();
    let i64 = PrimType::I64;
    let mut l = Lowerer::new("merge", s);
    let lo = l.param("lo", Ty::Prim(i64), ParamKind::Value, Binding::Lo);
    let hi = l.param("hi", Ty::Prim(i64), ParamKind::Value, Binding::Hi);
    let chunks = l.param("chunks", Ty::Prim(i64), ParamKind::Value, Binding::Chunks);
    let mut comps = Vec::new();
    for (i, t) in elems.iter().enumerate() {
        let dest = l.param("dest", Ty::Ptr(*t), ParamKind::Write, Binding::Dest(i));
        let stride = l.param("dest_stride", Ty::Prim(i64), ParamKind::Stride, Binding::DestStride(i, 0));
        let part = l.param("part", Ty::Ptr(*t), ParamKind::Read, Binding::Partial(i));
        let pitch = l.param("pitch", Ty::Prim(i64), ParamKind::Value, Binding::PartialPitch(i));
        comps.push((dest, stride, part, pitch));
    }
    let b = l.k.fresh("b");
    let c = l.k.fresh("c");
    let mut body = Vec::new();
    let mut at = Vec::new();
    let mut accs = Vec::new();
    for (&(dest, stride, ..), t) in comps.iter().zip(&elems) {
        let o = l.scaled(Operand::Var(b), Operand::Var(stride), &mut body);
        let old = l.let_("old", *t, Exp::Load(dest, o), &mut body);
        let acc = l.k.fresh("acc");
        body.push(Stm::Mut { var: acc, ty: *t, init: old });
        at.push(o);
        accs.push(acc);
    }
    let mut fold = Vec::new();
    let mut news = Vec::new();
    for (&(_, _, part, pitch), t) in comps.iter().zip(&elems) {
        let base = l.scaled(Operand::Var(c), Operand::Var(pitch), &mut fold);
        let o = l.offset_add(base, Operand::Var(b), &mut fold);
        news.push(l.let_("x", *t, Exp::Load(part, o), &mut fold));
    }
    l.apply(op, &accs, &news, &mut fold)?;
    let zero = Operand::Const(PrimValue::I64(0));
    body.push(Stm::For { index: c, lo: zero, hi: Operand::Var(chunks), ivdep: false, body: Block { stms: fold } });
    for ((&(dest, ..), o), acc) in comps.iter().zip(at).zip(&accs) {
        body.push(Stm::Store { ptr: dest, index: o, value: Operand::Var(*acc) });
    }
    let for_loop =
        Stm::For { index: b, lo: Operand::Var(lo), hi: Operand::Var(hi), ivdep: false, body: Block { stms: body } };
    l.k.body.stms.push(for_loop);
    Some((l.k, l.bindings, l.checks))
}
