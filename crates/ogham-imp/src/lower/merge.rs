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
    let mut comps: Vec<(Var, Vec<Operand>, Var, Vec<Operand>)> = Vec::new();
    for (i, t) in elems.iter().enumerate() {
        let dest = l.param("dest", Ty::Ptr(*t), ParamKind::Write, Binding::Dest(i));
        let strides = |l: &mut Lowerer, base: &str, n: usize, bind: &dyn Fn(usize) -> Binding| -> Vec<Operand> {
            (0..n)
                .map(|d| {
                    let kind = if d + 1 == n { ParamKind::Stride } else { ParamKind::Value };
                    Operand::Var(l.param(base, Ty::Prim(i64), kind, bind(d)))
                })
                .collect()
        };
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
