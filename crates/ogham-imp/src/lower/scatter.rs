//! Core IR to kernels: the loop of a `scatter`.
//!
//! The kernel runs iterations `lo .. hi` of the scatter: it reads row `j`
//! of each input and runs the map function as a screma's kernel does
//! ([`super::screma_loop`]); then, for each destination, when every index
//! it computed is inside the destination's shape (and a row value's length
//! is the length of the destination's rows), it stores the value there, an
//! element or a row element by element. An index out of range is skipped,
//! as the language says. Where several iterations write one element, the
//! last in the loop's order wins; the language leaves it unspecified.
//!
//! A destination is a [`ParamKind::Write`] pointer: the `scatter` consumes
//! it, so nothing else the kernel reads reaches it. Its strides and shape
//! are parameters too ([`Binding::DestStride`], [`Binding::DestShape`]).
//! Values of rank 0 and 1 are lowered; others are left to the caller.

use ogham_ir::{PrimType, PrimValue, Type};

use super::{Binding, Lowered, Lowerer, MapResult, ScremaLoop, View};
use crate::{BinOp, Block, CmpOp, Exp, Operand, ParamKind, Stm, Ty};

/// The kernel of a `scatter`'s loop: `s` gives its inputs and map function
/// (with no scans, reductions or outputs), `dests` the destinations and
/// `counts` how many indices each takes (the map function returns, per
/// destination, its indices and then its value).
pub fn scatter_loop(s: &ScremaLoop, dests: &[ogham_ir::VName], counts: &[usize]) -> Option<Lowered> {
    if !s.scans.is_empty() || !s.reduces.is_empty() || !s.outs.is_empty() || dests.len() != counts.len() {
        return None;
    }
    if !super::kernel_function(&s.map.body) {
        return None;
    }
    // Per destination: its type, and the type of its value.
    let mut types = Vec::with_capacity(dests.len());
    let mut pos = 0;
    for (d, &n) in dests.iter().zip(counts) {
        let dest = (s.ty_of)(*d)?;
        let idx = s.map.ret.get(pos..pos + n)?;
        let value = s.map.ret.get(pos + n)?;
        let elementwise = value.rank() + n == dest.rank() && value.rank() <= 1 && value.elem() == dest.elem();
        if n == 0 || !elementwise || idx.iter().any(|t| *t != Type::Prim(PrimType::I64)) {
            return None;
        }
        types.push((dest, value.clone()));
        pos += n + 1;
    }
    if pos != s.map.ret.len() {
        return None;
    }
    let mut l = Lowerer::new("scatter", s);
    let i64 = PrimType::I64;
    let lo = l.param("lo", Ty::Prim(i64), ParamKind::Value, Binding::Lo);
    let hi = l.param("hi", Ty::Prim(i64), ParamKind::Value, Binding::Hi);
    // Per destination: a view of it and its shape.
    let mut views: Vec<(View, Vec<Operand>)> = Vec::with_capacity(dests.len());
    for (i, (d, (dest, _))) in dests.iter().zip(&types).enumerate() {
        let base = l.base(*d);
        let ptr = l.param(&base, Ty::Ptr(dest.elem()), ParamKind::Write, Binding::Dest(i));
        let rank = dest.rank();
        let mut strides = Vec::with_capacity(rank);
        let mut shape = Vec::with_capacity(rank);
        for k in 0..rank {
            let kind = if k + 1 == rank { ParamKind::Stride } else { ParamKind::Value };
            let stride = l.param(&format!("{base}_stride"), Ty::Prim(i64), kind, Binding::DestStride(i, k));
            strides.push(Operand::Var(stride));
            let size = l.param(&format!("{base}_size"), Ty::Prim(i64), ParamKind::Value, Binding::DestShape(i, k));
            shape.push(Operand::Var(size));
        }
        views.push((View { ptr, elem: dest.elem(), offset: Operand::Const(PrimValue::I64(0)), strides }, shape));
    }
    let j = l.k.fresh("j");
    let mut body = Vec::new();
    let results = l.map_results(j, &mut body)?;
    let zero = Operand::Const(PrimValue::I64(0));
    let mut pos = 0;
    for ((&n, (view, shape)), (_, value_ty)) in counts.iter().zip(&views).zip(&types) {
        let idxs: Vec<Operand> = results
            .get(pos..pos + n)?
            .iter()
            .map(|r| match r {
                MapResult::Scalar(x) => Some(*x),
                MapResult::Row(_) => None,
            })
            .collect::<Option<_>>()?;
        let value = results.get(pos + n)?.clone();
        pos += n + 1;
        // Every index inside the destination's shape, and a row as long as
        // the destination's rows.
        let mut inside = Operand::Const(PrimValue::Bool(true));
        for (idx, size) in idxs.iter().zip(shape) {
            let ge = l.let_("ge", PrimType::Bool, Exp::Cmp(CmpOp::Ge, i64, *idx, zero), &mut body);
            let lt = l.let_("lt", PrimType::Bool, Exp::Cmp(CmpOp::Lt, i64, *idx, *size), &mut body);
            let both = l.let_("in", PrimType::Bool, Exp::Bin(BinOp::LogAnd, PrimType::Bool, ge, lt), &mut body);
            inside = l.let_("inside", PrimType::Bool, Exp::Bin(BinOp::LogAnd, PrimType::Bool, inside, both), &mut body);
        }
        let mut store = Vec::new();
        let at = l.subview(view, &idxs, &mut store)?;
        match value {
            MapResult::Scalar(x) => store.push(Stm::Store { ptr: at.ptr, index: at.offset, value: x }),
            MapResult::Row(row) => {
                let width = l.operand(value_ty.shape().first()?)?;
                let same = l.let_("same", PrimType::Bool, Exp::Cmp(CmpOp::Eq, i64, width, *shape.get(n)?), &mut body);
                inside =
                    l.let_("inside", PrimType::Bool, Exp::Bin(BinOp::LogAnd, PrimType::Bool, inside, same), &mut body);
                let c = l.k.fresh("c");
                let mut elems = Vec::new();
                let to = l.subview(&at, &[Operand::Var(c)], &mut elems)?;
                let from = l.subview(&row, &[Operand::Var(c)], &mut elems)?;
                let x = l.let_("x", from.elem, Exp::Load(from.ptr, from.offset), &mut elems);
                elems.push(Stm::Store { ptr: to.ptr, index: to.offset, value: x });
                // The destination is the scatter's own (consumed), the
                // row another array's: no element of one is read after
                // the other's is written.
                store.push(Stm::For { index: c, lo: zero, hi: width, ivdep: true, body: Block { stms: elems } });
            }
        }
        body.push(Stm::If { cond: inside, then_block: Block { stms: store }, else_block: Block::default() });
    }
    let for_loop =
        Stm::For { index: j, lo: Operand::Var(lo), hi: Operand::Var(hi), ivdep: false, body: Block { stms: body } };
    l.k.body.stms.push(for_loop);
    Some((l.k, l.bindings, l.checks))
}
