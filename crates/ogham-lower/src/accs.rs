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
//! accumulators they get are those variables (see `call.rs`). A
//! `hist_stream` operator must combine each leaf by one primitive
//! operator (`+`, `*`, `min`, … ; elementwise for rows, as `map2 (+)`):
//! others are `not-supported-yet`.

use ogham_ir::builder::BodyBuilder;
use ogham_ir::{BinOp, DimIndex, Exp, Lambda, Param, Soac, SubExp, Type as IrType, VName};
use ogham_syntax::Span;

use crate::expr::{array_leaves, leaf};
use crate::value::Val;
use crate::{unsupported, LResult, Lowerer};

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
        let ops: Vec<Option<BinOp>> = match op {
            None => vec![None; dest_arrs.len()],
            Some((op, ne)) => {
                let value_types: Vec<IrType> = dest_arrs.iter().map(|d| self.types[d].row()).collect();
                // Calls inlined, so that an operator written as a named
                // function shows its primitive operators.
                let inline_calls = std::mem::replace(&mut self.inline_calls, true);
                let lambda = self.operator(b, op, ne, &value_types, span);
                self.inline_calls = inline_calls;
                let ops = leaf_operators(&lambda?).ok_or_else(|| {
                    unsupported(
                        span,
                        "`hist_stream` with an operator that does not combine each value by one primitive operator",
                    )
                })?;
                ops.into_iter().map(Some).collect()
            }
        };
        let w = self.outer_size(bs, None, span)?;
        let bs_arrs = array_leaves(bs, span)?;
        let dest_types: Vec<IrType> = dest_arrs.iter().map(|d| self.types[d].clone()).collect();
        let mut params: Vec<Param> = Vec::new();
        for (t, op) in dest_types.iter().zip(&ops) {
            let p = self.param("acc", t.clone());
            self.acc_ops.insert(p.name, *op);
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
        let exp = Exp::Soac(Soac::WithAcc { w, arrs: bs_arrs, accs: dest_arrs, map });
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
        let mut out = Vec::with_capacity(leaves.len());
        for (a, value) in leaves.into_iter().zip(values) {
            let SubExp::Var(a) = a else { return Err(unsupported(span, "writing to a constant accumulator")) };
            let Some(&op) = self.acc_ops.get(&a) else {
                return Err(unsupported(span, "an accumulator not made by `scatter_stream` or `hist_stream` here"));
            };
            let slice = vec![DimIndex::Fix(i)];
            let new = self.bind(b, "acc", self.types[&a].clone(), Exp::UpdAcc { acc: a, slice, value, op });
            self.acc_ops.insert(new, op);
            out.push(SubExp::Var(new));
        }
        Ok(acc.rebuild(&mut out.into_iter()))
    }

    /// Passes the operators of accumulator leaves `from` on to the
    /// variables `to` that take their values (a loop's parameters and
    /// results).
    pub(crate) fn pass_acc_ops(&mut self, from: &[SubExp], to: &[VName]) {
        for (f, t) in from.iter().zip(to) {
            if let SubExp::Var(f) = f {
                if let Some(&op) = self.acc_ops.get(f) {
                    self.acc_ops.insert(*t, op);
                }
            }
        }
    }
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
