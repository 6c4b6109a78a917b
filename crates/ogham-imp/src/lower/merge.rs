//! Core IR to kernels: folding parallel chunks' partial results into the
//! destination, the second pass of a parallel `hist`.
//!
//! Each chunk of the first pass filled partial histograms of its own
//! (starting from the operator's neutral element): element `[c, b]` of a
//! destination's partials is chunk `c`'s bucket `b` (`[c, b, e]` for row
//! buckets, element `e` of the row). The kernel runs buckets `lo .. hi`
//! and folds the chunks' partials into each bucket in chunk order, by the
//! operator's own statements. Buckets are independent, so the caller may
//! run ranges of them in parallel; the chunks are folded in order, so the
//! result is the same for every split (the operator is associative and
//! commutative, so it is also the sequential loop's, up to float rounding).
//!
//! Scalar buckets, of an operator on any number of components: each
//! bucket is loaded into a `mut` variable per destination, the chunks'
//! values folded in, the results stored. Row buckets, of an operator that
//! combines rows element by element (`map2 g`, k-means' centroid sums, see
//! [`super::hist`]): per chunk, an `ivdep` loop over the row combines the
//! chunk's row into the destination's (the destination is the `hist`'s
//! own, the partials another array).
//!
//! A destination is a [`ParamKind::Write`] pointer with its strides
//! ([`Binding::Dest`], [`Binding::DestStride`]): the `hist` consumed it.
//! The partials are [`ParamKind::Read`] pointers ([`Binding::Partial`])
//! with their strides ([`Binding::PartialStride`]: between chunks, buckets
//! and row elements), and the number of chunks is [`Binding::Chunks`].

use ogham_ir::{Operator, PrimType, PrimValue, Type};

use super::hist::row_op;
use super::{straight_line, Binding, Lowered, Lowerer, ScremaLoop};
use crate::passes::let_;
use crate::{Block, Exp, Operand, ParamKind, Stm, Ty, Var};

/// The merge of a `hist` operator's partial histograms into its
/// destinations: `op` on scalars, its lambda straight-line code that
/// cannot fail, or on rows combined element by element by such code. `s`
/// describes the surroundings (the types and names of the operator's free
/// variables); its inputs and map function are not used.
pub fn fold_partials(s: &ScremaLoop, op: &Operator) -> Option<Lowered> {
    let lam = &op.lambda;
    let k = op.neutral.len();
    if k == 0 || lam.params.len() != 2 * k || lam.ret.len() != k {
        return None;
    }
    let row = row_op(op);
    let scalar = lam.params.iter().all(|p| matches!(p.ty, Type::Prim(_))) && straight_line(&lam.body);
    if !scalar && row.is_none() {
        return None;
    }
    let rank = if row.is_some() { 2 } else { 1 };
    let elems: Vec<PrimType> = lam.params[..k].iter().map(|p| p.ty.elem()).collect();
    let i64 = PrimType::I64;
    let mut l = Lowerer::new("merge", s);
    let lo = l.param("lo", Ty::Prim(i64), ParamKind::Value, Binding::Lo);
    let hi = l.param("hi", Ty::Prim(i64), ParamKind::Value, Binding::Hi);
    let chunks = l.param("chunks", Ty::Prim(i64), ParamKind::Value, Binding::Chunks);
    // Per destination: its pointer and strides, its partials' pointer and strides.
    let strides = |l: &mut Lowerer, base: &str, n: usize, bind: &dyn Fn(usize) -> Binding| -> Vec<Operand> {
        (0..n)
            .map(|d| {
                let kind = if d + 1 == n { ParamKind::Stride } else { ParamKind::Value };
                Operand::Var(l.param(base, Ty::Prim(i64), kind, bind(d)))
            })
            .collect()
    };
    let mut comps: Vec<(Var, Vec<Operand>, Var, Vec<Operand>)> = Vec::new();
    for (i, t) in elems.iter().enumerate() {
        let dest = l.param("dest", Ty::Ptr(*t), ParamKind::Write, Binding::Dest(i));
        let ds = strides(&mut l, "dest_stride", rank, &|d| Binding::DestStride(i, d));
        let part = l.param("part", Ty::Ptr(*t), ParamKind::Read, Binding::Partial(i));
        let ps = strides(&mut l, "part_stride", rank + 1, &|d| Binding::PartialStride(i, d));
        comps.push((dest, ds, part, ps));
    }
    let (b, c) = (l.k.fresh("b"), l.k.fresh("c"));
    let zero = Operand::Const(PrimValue::I64(0));
    let mut body = Vec::new();
    match row {
        None => {
            let mut at = Vec::new();
            let mut accs = Vec::new();
            for ((dest, ds, ..), t) in comps.iter().zip(&elems) {
                let o = l.scaled(Operand::Var(b), ds[0], &mut body);
                let old = l.let_("old", *t, Exp::Load(*dest, o), &mut body);
                let acc = l.k.fresh("acc");
                body.push(Stm::Mut { var: acc, ty: *t, init: old });
                at.push(o);
                accs.push(acc);
            }
            let mut fold = Vec::new();
            let mut news = Vec::new();
            for ((.., part, ps), t) in comps.iter().zip(&elems) {
                let o = offset(&mut l, &[(c, ps[0]), (b, ps[1])], &mut fold);
                news.push(l.let_("x", *t, Exp::Load(*part, o), &mut fold));
            }
            l.apply(op, &accs, &news, &mut fold)?;
            body.push(Stm::For {
                index: c,
                lo: zero,
                hi: Operand::Var(chunks),
                ivdep: false,
                body: Block { stms: fold },
            });
            for ((dest, ..), (o, acc)) in comps.iter().zip(at.into_iter().zip(accs)) {
                body.push(Stm::Store { ptr: *dest, index: o, value: Operand::Var(acc) });
            }
        }
        Some((width, g)) => {
            let [(dest, ds, part, ps)] = comps.as_slice() else { return None };
            let width = l.operand(width)?;
            let e = l.k.fresh("e");
            let mut elem = Vec::new();
            let at = offset(&mut l, &[(b, ds[0]), (e, ds[1])], &mut elem);
            let from = offset(&mut l, &[(c, ps[0]), (b, ps[1]), (e, ps[2])], &mut elem);
            let old = l.let_("old", elems[0], Exp::Load(*dest, at), &mut elem);
            let new = l.let_("x", elems[0], Exp::Load(*part, from), &mut elem);
            let r = *l.apply_lambda(g, &[old, new], &mut elem)?.first()?;
            elem.push(Stm::Store { ptr: *dest, index: at, value: r });
            let row = Stm::For { index: e, lo: zero, hi: width, ivdep: true, body: Block { stms: elem } };
            body.push(Stm::For {
                index: c,
                lo: zero,
                hi: Operand::Var(chunks),
                ivdep: false,
                body: Block { stms: vec![row] },
            });
        }
    }
    let for_loop =
        Stm::For { index: b, lo: Operand::Var(lo), hi: Operand::Var(hi), ivdep: false, body: Block { stms: body } };
    l.k.body.stms.push(for_loop);
    Some((l.k, l.bindings, l.checks))
}

/// `Σ index * stride` over `terms`.
fn offset(l: &mut Lowerer, terms: &[(Var, Operand)], out: &mut Vec<Stm>) -> Operand {
    let mut sum: Option<Operand> = None;
    for &(i, stride) in terms {
        let term = l.scaled(Operand::Var(i), stride, out);
        sum = Some(match sum {
            None => term,
            Some(s) => l.offset_add(s, term, out),
        });
    }
    sum.unwrap_or(Operand::Const(PrimValue::I64(0)))
}

/// The fold of a parallel `withacc`'s partial accumulators into the
/// accumulator, elements `lo .. hi` of it in row-major order: per chunk,
/// in chunk order, `dest[e] = dest[e] op part[c * pitch + e]`, in an
/// `ivdep` loop over the elements (the destination is the `withacc`'s own,
/// the partials another array). A destination of `rank` dimensions is
/// addressed through its shape and strides ([`Binding::DestShape`],
/// [`Binding::DestStride`]); the caller passes a contiguous one as one
/// dimension of stride 1. `op` is [`reassociable`](crate::reassociable).
pub fn fold_elements(op: crate::BinOp, t: PrimType, rank: usize) -> Option<Lowered> {
    if !crate::reassociable(op, t) || rank == 0 {
        return None;
    }
    let i64 = PrimType::I64;
    let mut k = crate::Kernel::new("fold");
    let mut bindings = Vec::new();
    let mut param = |k: &mut crate::Kernel, base: &str, ty: Ty, kind: ParamKind, b: Binding| {
        bindings.push(b);
        k.param(base, ty, kind)
    };
    let lo = param(&mut k, "lo", Ty::Prim(i64), ParamKind::Value, Binding::Lo);
    let hi = param(&mut k, "hi", Ty::Prim(i64), ParamKind::Value, Binding::Hi);
    let chunks = param(&mut k, "chunks", Ty::Prim(i64), ParamKind::Value, Binding::Chunks);
    let dest = param(&mut k, "dest", Ty::Ptr(t), ParamKind::Write, Binding::Dest(0));
    let mut dims = Vec::new();
    for d in 0..rank {
        let kind = if d + 1 == rank { ParamKind::Stride } else { ParamKind::Value };
        let stride = param(&mut k, "dest_stride", Ty::Prim(i64), kind, Binding::DestStride(0, d));
        let shape = param(&mut k, "dest_shape", Ty::Prim(i64), ParamKind::Value, Binding::DestShape(0, d));
        dims.push((stride, shape));
    }
    let part = param(&mut k, "part", Ty::Ptr(t), ParamKind::Read, Binding::Partial(0));
    let pitch = param(&mut k, "pitch", Ty::Prim(i64), ParamKind::Value, Binding::PartialStride(0, 0));
    let (c, e) = (k.fresh("c"), k.fresh("e"));
    let mut body = Vec::new();
    // The element's offset in the destination: its row-major index split
    // into one index per dimension, innermost first.
    let mut rest = Operand::Var(e);
    let mut at: Option<Operand> = None;
    for (d, &(stride, shape)) in dims.iter().enumerate().rev() {
        let index = if d == 0 {
            rest
        } else {
            let i = let_(&mut k, &mut body, "i", i64, Exp::Bin(crate::BinOp::Rem, i64, rest, Operand::Var(shape)));
            rest = let_(&mut k, &mut body, "rest", i64, Exp::Bin(crate::BinOp::Quot, i64, rest, Operand::Var(shape)));
            i
        };
        let term = let_(&mut k, &mut body, "o", i64, Exp::Bin(crate::BinOp::Mul, i64, index, Operand::Var(stride)));
        at = Some(match at {
            None => term,
            Some(a) => let_(&mut k, &mut body, "o", i64, Exp::Bin(crate::BinOp::Add, i64, a, term)),
        });
    }
    let at = at?;
    let base =
        let_(&mut k, &mut body, "base", i64, Exp::Bin(crate::BinOp::Mul, i64, Operand::Var(c), Operand::Var(pitch)));
    let from = let_(&mut k, &mut body, "from", i64, Exp::Bin(crate::BinOp::Add, i64, base, Operand::Var(e)));
    let old = let_(&mut k, &mut body, "old", t, Exp::Load(dest, at));
    let x = let_(&mut k, &mut body, "x", t, Exp::Load(part, from));
    let new = let_(&mut k, &mut body, "new", t, Exp::Bin(op, t, old, x));
    body.push(Stm::Store { ptr: dest, index: at, value: new });
    let elements =
        Stm::For { index: e, lo: Operand::Var(lo), hi: Operand::Var(hi), ivdep: true, body: Block { stms: body } };
    let zero = Operand::Const(PrimValue::I64(0));
    k.body.stms.push(Stm::For {
        index: c,
        lo: zero,
        hi: Operand::Var(chunks),
        ivdep: false,
        body: Block { stms: vec![elements] },
    });
    Some((k, bindings, Vec::new()))
}

/// Elements `lo .. hi` of a `write` pointer ([`Binding::Dest`]) set to
/// `value`: a partial result's neutral element before a chunk starts.
pub fn fill(value: PrimValue) -> Lowered {
    let (i64, t) = (PrimType::I64, value.prim_type());
    let mut k = crate::Kernel::new("fill");
    let lo = k.param("lo", Ty::Prim(i64), ParamKind::Value);
    let hi = k.param("hi", Ty::Prim(i64), ParamKind::Value);
    let dest = k.param("dest", Ty::Ptr(t), ParamKind::Write);
    let e = k.fresh("e");
    let store = Stm::Store { ptr: dest, index: Operand::Var(e), value: Operand::Const(value) };
    k.body.stms.push(Stm::For {
        index: e,
        lo: Operand::Var(lo),
        hi: Operand::Var(hi),
        ivdep: true,
        body: Block { stms: vec![store] },
    });
    (k, vec![Binding::Lo, Binding::Hi, Binding::Dest(0)], Vec::new())
}
