//! The accumulator intrinsics: `scatter_stream`, `hist_stream` and
//! `acc_write` (Futhark's `tests/accs/intrinsics.fut` wraps them), lowered
//! to the core IR's accumulators, [`Soac::WithAcc`] and [`Exp::UpdAcc`].
//!
//! `scatter_stream dest f bs` is a `withacc` over the rows of `bs` whose
//! accumulators are `dest`'s arrays; its lambda applies `f` to the
//! accumulator (a value of type `intrinsics.acc t`, a record of one field
//! that the checker gives no name a program can write, so its leaves are
//! `dest`'s) and the row. `hist_stream dest op ne f bs` is the same, each
//! write combined by `op`. `acc_write acc i v` is one `updacc` per leaf.
//!
//! An `updacc` carries its operator, while the source names it only where
//! the accumulator is made: the lowerer keeps the operator of every
//! variable holding an accumulator leaf ([`Lowerer::acc_ops`]), set for
//! the `withacc`'s parameters and passed on to what an update or a loop
//! makes of them. Functions taking accumulators are inlined, so that the
//! accumulators they get are those variables (see `call.rs`).
//!
//! An `updacc` combines by one primitive operator per leaf (`+`, `*`,
//! `min`, … ; elementwise for rows, as `map2 (+)`). A `hist_stream` whose
//! operator is anything else (an arg-max over pairs, say) is lowered
//! without accumulators, as a sequential loop over `bs` that threads
//! `dest`'s arrays through `f`; each `acc_write` in it reads the old
//! element, applies the operator to it and the value, and updates the
//! array in place (nothing where the index is out of bounds).

use std::rc::Rc;

use ogham_ir::builder::BodyBuilder;
use ogham_ir::{BinOp, DimIndex, Exp, Lambda, LoopForm, Param, PrimType, Soac, SubExp, Type as IrType, VName};
use ogham_syntax::Span;

use crate::expr::{array_leaves, leaf};
use crate::value::Val;
use crate::{unsupported, LResult, Lowerer};

/// How writes to an accumulator leaf combine.
#[derive(Clone)]
pub(crate) enum AccOp<'a> {
    /// By the IR's `updacc` with this operator (`None`: writes overwrite).
    Ir(Option<BinOp>),
    /// By applying `hist_stream`'s operator (and neutral element, which
    /// gives the value's shape) to the old element and the value: the
    /// leaves are plain arrays threaded through a sequential loop.
    General(Rc<(Val<'a>, Val<'a>)>),
}

impl<'a> Lowerer<'a> {
    /// `scatter_stream dest f bs` (`op` is `None`) or `hist_stream dest op
    /// ne f bs` (`op` is `Some((op, ne))`).
    pub(crate) fn acc_stream(
        &mut self,
        b: &mut BodyBuilder,
        dest: &Val<'a>,
        op: Option<(&Val<'a>, &Val<'a>)>,
        f: &Val<'a>,
        bs: &Val<'a>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let dest_arrs: Vec<VName> = array_leaves(dest, span)?.into_iter().map(|d| self.consumable(b, d)).collect();
        if dest_arrs.is_empty() {
            return Ok(dest.clone());
        }
        let ops: Vec<AccOp<'a>> = match op {
            None => vec![AccOp::Ir(None); dest_arrs.len()],
            Some((op, ne)) => {
                let value_types: Vec<IrType> = dest_arrs.iter().map(|d| self.types[d].row()).collect();
                // Calls inlined, so that an operator written as a named
                // function shows its primitive operators.
                let inline_calls = std::mem::replace(&mut self.inline_calls, true);
                let lambda = self.operator(b, op, ne, &value_types, span);
                self.inline_calls = inline_calls;
                match leaf_operators(&lambda?) {
                    Some(ops) => ops.into_iter().map(|op| AccOp::Ir(Some(op))).collect(),
                    None => vec![AccOp::General(Rc::new((op.clone(), ne.clone()))); dest_arrs.len()],
                }
            }
        };
        let general = ops.iter().any(|op| matches!(op, AccOp::General(_)));
        let w = self.outer_size(bs, None, span)?;
        let bs_arrs = array_leaves(bs, span)?;
        let dest_types: Vec<IrType> = dest_arrs.iter().map(|d| self.types[d].clone()).collect();
        let mut params: Vec<Param> = Vec::new();
        for (t, op) in dest_types.iter().zip(ops) {
            let p = self.param("acc", t.clone());
            self.acc_ops.insert(p.name, op);
            params.push(p);
        }
        let acc = dest.rebuild(&mut params.iter().map(|p| SubExp::Var(p.name)));
        let acc = Val::Record(std::iter::once((ogham_types::ACC_FIELD.to_string(), acc)).collect());
        let mut rows = Vec::new();
        for a in &bs_arrs {
            let p = self.param("row", self.types[a].row());
            rows.push(p.clone());
            params.push(p);
        }
        let row = bs.rebuild(&mut rows.iter().map(|p| SubExp::Var(p.name)));
        // The accumulators come back with `dest`'s shapes (the function may
        // compute them anew: `acc ([T * R]f32)`).
        let shapes = dest_types.iter().map(|t| Some(t.shape().iter().map(|s| Some(*s)).collect())).collect();
        let (map, _) = self.lambda_with_shapes(b, f, params, vec![acc, row], shapes, span)?;
        if map.ret.len() != dest_arrs.len() {
            return Err(unsupported(span, "an accumulator function whose result is not its accumulator"));
        }
        // A function that does nothing leaves `dest` as it is (a `withacc`
        // returning its accumulator parameters unchanged is not valid IR).
        let untouched =
            map.body.stms.is_empty() && map.body.result.iter().zip(&map.params).all(|(r, p)| *r == SubExp::Var(p.name));
        if untouched {
            return Ok(dest.rebuild(&mut dest_arrs.into_iter().map(SubExp::Var)));
        }
        let exp = if general {
            sequential_stream(self, w, bs_arrs, dest_arrs, map, span)
        } else {
            Exp::Soac(Soac::WithAcc { w, arrs: bs_arrs, accs: dest_arrs, map })
        };
        let names = self.bind_many(b, "withacc", dest_types, exp);
        Ok(dest.rebuild(&mut names.into_iter().map(SubExp::Var)))
    }

    /// `acc_write acc i v`: `v` written (or combined by the accumulator's
    /// operator) at `i`; nothing where `i` is out of bounds.
    pub(crate) fn acc_write(
        &mut self,
        b: &mut BodyBuilder,
        acc: &Val<'a>,
        i: &Val<'a>,
        v: &Val<'a>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let i = leaf(i, span)?;
        let (leaves, values) = (acc.leaves(), v.leaves());
        if let Some(AccOp::General(g)) = leaves.first().and_then(|a| a.as_var()).and_then(|a| self.acc_ops.get(&a)) {
            return self.combine_in_place(b, acc, i, v, g.clone(), span);
        }
        let mut out = Vec::with_capacity(leaves.len());
        for (a, value) in leaves.into_iter().zip(values) {
            let SubExp::Var(a) = a else { return Err(unsupported(span, "writing to a constant accumulator")) };
            let Some(AccOp::Ir(op)) = self.acc_ops.get(&a).cloned() else {
                return Err(unsupported(span, "an accumulator not made by `scatter_stream` or `hist_stream` here"));
            };
            let slice = vec![DimIndex::Fix(i)];
            let new = self.bind(b, "acc", self.types[&a].clone(), Exp::UpdAcc { acc: a, slice, value, op });
            self.acc_ops.insert(new, AccOp::Ir(op));
            out.push(SubExp::Var(new));
        }
        Ok(acc.rebuild(&mut out.into_iter()))
    }

    /// `acc_write acc i v` on the arrays of a general `hist_stream`
    /// ([`AccOp::General`]): where `i` is in bounds, each array's element
    /// at `i` replaced by the operator applied to the old elements and
    /// `v`; elsewhere the arrays as they are.
    fn combine_in_place(
        &mut self,
        b: &mut BodyBuilder,
        acc: &Val<'a>,
        i: SubExp,
        v: &Val<'a>,
        g: Rc<(Val<'a>, Val<'a>)>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let (op, ne) = &*g;
        let mut leaves = Vec::new();
        for a in acc.leaves() {
            let SubExp::Var(a) = a else { return Err(unsupported(span, "writing to a constant accumulator")) };
            leaves.push(a);
        }
        let types: Vec<IrType> = leaves.iter().map(|a| self.types[a].clone()).collect();
        let n = types[0].shape()[0];
        let ok = self.in_bounds(b, i, n);
        let mut tb = self.sub_builder(b);
        // An old row is copied: the operator may return it, and the
        // update must not write a value that shares memory with its array.
        let olds: Vec<SubExp> = leaves
            .iter()
            .zip(&types)
            .map(|(a, t)| {
                let exp = Exp::Index { array: *a, slice: vec![DimIndex::Fix(i)] };
                let old = self.bind(&mut tb, "old", t.row(), exp);
                let old = if t.rank() > 1 { self.bind(&mut tb, "old", t.row(), Exp::Copy(old)) } else { old };
                SubExp::Var(old)
            })
            .collect();
        let old = ne.rebuild(&mut olds.into_iter());
        let combined = self.apply(&mut tb, op.clone(), vec![old, v.clone()], span)?;
        let mut updated = Vec::new();
        for ((a, t), value) in leaves.iter().zip(&types).zip(combined.leaves()) {
            let exp = Exp::Update { array: *a, slice: vec![DimIndex::Fix(i)], value };
            updated.push(SubExp::Var(self.bind(&mut tb, "acc", t.clone(), exp)));
        }
        let then_body = tb.finish(updated);
        let else_body = self.sub_builder(b).finish(leaves.iter().map(|a| SubExp::Var(*a)).collect());
        let names = self.bind_many(b, "acc", types, Exp::If { cond: ok, then_body, else_body });
        for n in &names {
            self.acc_ops.insert(*n, AccOp::General(g.clone()));
        }
        Ok(acc.rebuild(&mut names.into_iter().map(SubExp::Var)))
    }

    /// Passes the operators of accumulator leaves `from` on to the
    /// variables `to` that take their values (a loop's parameters and
    /// results).
    pub(crate) fn pass_acc_ops(&mut self, from: &[SubExp], to: &[VName]) {
        for (f, t) in from.iter().zip(to) {
            if let SubExp::Var(f) = f {
                if let Some(op) = self.acc_ops.get(f).cloned() {
                    self.acc_ops.insert(*t, op);
                }
            }
        }
    }
}

/// A general `hist_stream` as a sequential loop over the rows of `bs`:
/// `map`'s accumulator parameters (`dest`'s arrays, as plain arrays) are
/// the loop's, its row parameters are bound to the iteration's rows, and
/// its body, whose writes [`Lowerer::combine_in_place`] made, is the
/// loop's body.
fn sequential_stream(
    lw: &mut Lowerer<'_>,
    w: SubExp,
    bs: Vec<VName>,
    dest: Vec<VName>,
    map: Lambda,
    span: Span,
) -> Exp {
    let j = lw.param("j", IrType::Prim(PrimType::I64)).name;
    let k = dest.len();
    let params: Vec<(Param, SubExp)> = map.params[..k].iter().cloned().zip(dest.into_iter().map(SubExp::Var)).collect();
    let mut stms = Vec::new();
    for (p, a) in map.params[k..].iter().zip(bs) {
        let exp = Exp::Index { array: a, slice: vec![DimIndex::Fix(SubExp::Var(j))] };
        stms.push(ogham_ir::Stm { pat: vec![p.clone()], exp, attrs: Default::default(), span });
    }
    stms.extend(map.body.stms);
    let body = ogham_ir::Body { stms, result: map.body.result };
    Exp::Loop { params, form: LoopForm::For { i: j, bound: w }, body }
}

/// The primitive operator of each leaf of `op` (whose parameters are the
/// leaves of two values, its results those of one): result `i` is `x_i ⊕
/// y_i` by one statement, or, for rows, one `map` of such a statement over
/// the two rows.
fn leaf_operators(op: &Lambda) -> Option<Vec<BinOp>> {
    let k = op.ret.len();
    if op.params.len() != 2 * k || op.body.result.len() != k {
        return None;
    }
    (0..k)
        .map(|i| {
            let SubExp::Var(r) = op.body.result[i] else { return None };
            let stm = op.body.stms.iter().find(|s| s.pat.iter().any(|p| p.name == r))?;
            let (x, y) = (op.params[i].name, op.params[k + i].name);
            match &stm.exp {
                Exp::BinOp(bop, _, SubExp::Var(a), SubExp::Var(c)) => {
                    ((*a == x && *c == y) || (*a == y && *c == x)).then_some(*bop)
                }
                Exp::Soac(Soac::Screma { arrs, scans, reduces, map, .. })
                    if scans.is_empty() && reduces.is_empty() && arrs.len() == 2 && stm.pat.len() == 1 =>
                {
                    let ops = leaf_operators(map)?;
                    let (a, c) = (zipped(op, arrs[0]), zipped(op, arrs[1]));
                    let same = (a == x && c == y) || (a == y && c == x);
                    (same && ops.len() == 1).then(|| ops[0])
                }
                _ => None,
            }
        })
        .collect()
}

/// The array `v` stands for in `op`'s body: the argument it is a result
/// of, where a call of the prelude's `zip` (which returns its arrays as
/// they are: `map2 f xs ys` maps over `zip xs ys`) binds it; else `v`.
fn zipped(op: &Lambda, v: VName) -> VName {
    for s in &op.body.stms {
        let Exp::Apply { func, args, .. } = &s.exp else { continue };
        let Some(k) = s.pat.iter().position(|p| p.name == v) else { continue };
        if !func.starts_with("zip") || args.len() < s.pat.len() {
            return v;
        }
        // The arrays are the last arguments, after the sizes.
        return match args[args.len() - s.pat.len() + k] {
            SubExp::Var(a) => a,
            SubExp::Const(_) => v,
        };
    }
    v
}
