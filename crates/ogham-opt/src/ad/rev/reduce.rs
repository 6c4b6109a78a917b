//! The special cases of `reduce`'s reverse rule (seed 004 §4.1) for
//! operators with a cheaper rule than the general one (exclusive scans
//! from both ends):
//!
//! - `min` and `max`: only the first element equal to the result gets
//!   the result's adjoint (the one the reduction picked, ties going to
//!   the first occurrence). When the elements are the results of a `map`
//!   of the same scope (`f32.minimum (map (dist p) centres)`), only the
//!   map's function at that element contributes, so the rule runs the
//!   return sweep of the function at that one element
//!   ([`Ad::rev_extreme_of_map`]) instead of passing a one-hot adjoint
//!   array back through the whole map's;
//! - `*` on floats: with `p` the product of the non-zero elements and
//!   `z` the number of zeros, x̄ᵢ = ȳ·p/xᵢ when there is no zero; when
//!   there is one, only the zero element gets ȳ·p; with more, every
//!   adjoint is zero. When there is no zero and that product is out of
//!   the normal range (overflowed or underflowed), the general rule runs
//!   instead, chosen at run time. (Integer products may wrap, so they take
//!   the general rule.)

use ogham_ir::{
    BinOp, Body, CmpOp, DimIndex, Exp, Lambda, Operator, PrimType, Soac, Span, Stm, StmAttrs, SubExp, Type, UnOp, VName,
};

use super::{Adjoints, Checkpoints, R};
use crate::ad::rules::konst;
use crate::ad::Ad;

/// The one scalar operation a function of two scalars (an operator of one
/// value, a `map2`'s function) applies to its parameters (in either
/// order), if that is all it does.
pub(super) fn single_binop(lam: &Lambda) -> Option<(BinOp, PrimType)> {
    let ([a, x], [s], [r]) = (&lam.params[..], &lam.body.stms[..], &lam.body.result[..]) else { return None };
    let Exp::BinOp(bop, t, SubExp::Var(p), SubExp::Var(q)) = &s.exp else { return None };
    let pair = (*p == a.name && *q == x.name) || (*p == x.name && *q == a.name);
    (pair && s.pat.len() == 1 && *r == SubExp::Var(s.pat[0].name)).then_some((*bop, *t))
}

impl Ad {
    /// The special-case return sweep of `y = reduce op ne xs` with result
    /// adjoint `ybar`, when `op` has one: whether it applied.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn rev_reduce_special(
        &mut self,
        op: &Operator,
        w: SubExp,
        xs: VName,
        y: VName,
        ybar: SubExp,
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
        span: Span,
    ) -> R<bool> {
        let Some((bop, t)) = single_binop(&op.lambda) else { return Ok(false) };
        let xbar = match bop {
            BinOp::Min | BinOp::Max => self.first_equal_gets(w, xs, y, ybar, t, out, span),
            BinOp::Mul if t.is_float() => self.product_adjoints(op, w, xs, ybar, t, out, span)?,
            _ => return Ok(false),
        };
        self.add(out, adj, xs, SubExp::Var(xbar), span);
        Ok(true)
    }

    /// The return sweep of `y = min xs` or `max xs` with adjoint `ybar`
    /// when `xs` is result `r` of a `map f arrs` of the scope being
    /// reversed: with `first` the first index whose element equals `y`, it
    /// is the return sweep of `if first < w then f(arrs[first])[r] else
    /// ne`, which re-executes `f` at that one element and adds its
    /// contributions (to the rows of `arrs` at `first`, and to `f`'s free
    /// variables); `xs` gets no adjoint from `y`. Whether it applied.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn rev_extreme_of_map(
        &mut self,
        op: &Operator,
        w: SubExp,
        xs: VName,
        y: VName,
        ybar: SubExp,
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
        span: Span,
    ) -> R<bool> {
        let Some((BinOp::Min | BinOp::Max, t)) = single_binop(&op.lambda) else { return Ok(false) };
        let Some((def, r)) = self.rev_maps.get(&xs).cloned() else { return Ok(false) };
        let Exp::Soac(Soac::Screma { w: mw, arrs, map, .. }) = &def.exp else { return Ok(false) };
        let consumes = map.body.stms.iter().any(|s| !ogham_ir::visit::consumed_deep(&s.exp).is_empty());
        if *mw != w || consumes || map.params.len() != arrs.len() {
            return Ok(false);
        }
        let first = self.first_equal(w, xs, y, t, out, span).1;
        let mut stms = Vec::new();
        for (p, a) in map.params.iter().zip(arrs) {
            let slice = vec![DimIndex::Fix(SubExp::Var(first))];
            let attrs = StmAttrs { unsafe_: true, ..Default::default() };
            stms.push(Stm { pat: vec![p.clone()], exp: Exp::Index { array: *a, slice }, attrs, span });
        }
        stms.extend(map.body.stms.iter().cloned());
        let then_body = Body { stms, result: vec![map.body.result[r]] };
        let else_body = Body { stms: Vec::new(), result: vec![op.neutral[0]] };
        let cond = self.cmp(out, CmpOp::Lt, PrimType::I64, SubExp::Var(first), w, span);
        let picked = self.fresh_typed("picked", &Type::Prim(t));
        let s =
            Stm { pat: vec![picked], exp: Exp::If { cond, then_body, else_body }, attrs: StmAttrs::default(), span };
        // The branch consumes nothing, so it needs no checkpoints.
        self.rev_if(&s, &Checkpoints::default(), &[Some(ybar)], adj, out)?;
        Ok(true)
    }

    /// The iota of `w` and the first index whose element of `xs` is `y`
    /// (`w` if none is).
    #[allow(clippy::too_many_arguments)]
    fn first_equal(
        &mut self,
        w: SubExp,
        xs: VName,
        y: VName,
        t: PrimType,
        out: &mut Vec<Stm>,
        span: Span,
    ) -> (VName, VName) {
        let i64t = PrimType::I64;
        let iota = self.indices(out, w, span);
        let (i, x) = (self.fresh_typed("i", &Type::Prim(i64t)), self.fresh_typed("x", &Type::Prim(t)));
        let mut body = Vec::new();
        let hit = self.cmp(&mut body, CmpOp::Eq, t, SubExp::Var(x.name), SubExp::Var(y), span);
        let idx = self.select(&mut body, i64t, hit, SubExp::Var(i.name), w, span);
        let map = Lambda {
            params: vec![i.clone(), x],
            body: Body { stms: body, result: vec![idx] },
            ret: vec![Type::Prim(i64t)],
        };
        let min = self.scalar_operator(BinOp::Min, i64t);
        let exp = Exp::Soac(Soac::Screma {
            w,
            arrs: vec![iota, xs],
            scans: vec![],
            reduces: vec![Operator { lambda: min, neutral: vec![w], commutative: true }],
            map,
        });
        (iota, self.bind(out, "first", Type::Prim(i64t), exp, span))
    }

    /// x̄s with ȳ at the first element equal to `y`, zero elsewhere.
    #[allow(clippy::too_many_arguments)]
    fn first_equal_gets(
        &mut self,
        w: SubExp,
        xs: VName,
        y: VName,
        ybar: SubExp,
        t: PrimType,
        out: &mut Vec<Stm>,
        span: Span,
    ) -> VName {
        let i64t = PrimType::I64;
        let (iota, first) = self.first_equal(w, xs, y, t, out, span);
        // ȳ there, zero elsewhere.
        let j = self.fresh_typed("j", &Type::Prim(i64t));
        let mut body = Vec::new();
        let here = self.cmp(&mut body, CmpOp::Eq, i64t, SubExp::Var(j.name), SubExp::Var(first), span);
        let v = self.select(&mut body, t, here, ybar, konst(t, 0.0), span);
        let map = Lambda { params: vec![j], body: Body { stms: body, result: vec![v] }, ret: vec![Type::Prim(t)] };
        let exp = Exp::Soac(Soac::Screma { w, arrs: vec![iota], scans: vec![], reduces: vec![], map });
        self.bind(out, "dxs", Type::Prim(t).array_of(w), exp, span)
    }

    /// x̄s of a product of floats, from the product of the non-zero
    /// elements and the number of zeros; when there is no zero and that
    /// product is out of the normal range (it overflowed to ±∞ or
    /// underflowed, while the products of all elements but one may not
    /// have), the general rule's exclusive scans instead, chosen at run
    /// time.
    #[allow(clippy::too_many_arguments)]
    fn product_adjoints(
        &mut self,
        op: &Operator,
        w: SubExp,
        xs: VName,
        ybar: SubExp,
        t: PrimType,
        out: &mut Vec<Stm>,
        span: Span,
    ) -> R<VName> {
        let i64t = PrimType::I64;
        let zero = konst(t, 0.0);
        let one = konst(t, 1.0);
        // (product of non-zeros, zeros) by one reduction.
        let x = self.fresh_typed("x", &Type::Prim(t));
        let mut body = Vec::new();
        let is_zero = self.cmp(&mut body, CmpOp::Eq, t, SubExp::Var(x.name), zero, span);
        let f = self.select(&mut body, t, is_zero, one, SubExp::Var(x.name), span);
        let c = self.select(&mut body, i64t, is_zero, SubExp::i64(1), SubExp::i64(0), span);
        let map = Lambda {
            params: vec![x],
            body: Body { stms: body, result: vec![f, c] },
            ret: vec![Type::Prim(t), Type::Prim(i64t)],
        };
        let (a1, a2, b1, b2) = (
            self.fresh_typed("a", &Type::Prim(t)),
            self.fresh_typed("a", &Type::Prim(i64t)),
            self.fresh_typed("b", &Type::Prim(t)),
            self.fresh_typed("b", &Type::Prim(i64t)),
        );
        let mut ob = Vec::new();
        let p = self.bin(&mut ob, BinOp::Mul, t, SubExp::Var(a1.name), SubExp::Var(b1.name), span);
        let n = self.bin(&mut ob, BinOp::Add, i64t, SubExp::Var(a2.name), SubExp::Var(b2.name), span);
        let lambda = Lambda {
            params: vec![a1, a2, b1, b2],
            body: Body { stms: ob, result: vec![p, n] },
            ret: vec![Type::Prim(t), Type::Prim(i64t)],
        };
        let product = Operator { lambda, neutral: vec![one, SubExp::i64(0)], commutative: true };
        let (prod, zeros) =
            (self.fresh_typed("nonzero_product", &Type::Prim(t)), self.fresh_typed("zeros", &Type::Prim(i64t)));
        out.push(Stm {
            pat: vec![prod.clone(), zeros.clone()],
            exp: Exp::Soac(Soac::Screma { w, arrs: vec![xs], scans: vec![], reduces: vec![product], map }),
            attrs: Default::default(),
            span,
        });
        // Whether the quotient rule holds: a zero, or a product in the
        // normal range (NaN too, which every rule propagates).
        let (max, min_normal) = match t {
            PrimType::F16 => (65504.0, 6.103515625e-5),
            PrimType::F32 => (f32::MAX as f64, f32::MIN_POSITIVE as f64),
            _ => (f64::MAX, f64::MIN_POSITIVE),
        };
        let size = self.un(out, UnOp::Abs, t, SubExp::Var(prod.name), span);
        let overflowed = self.cmp(out, CmpOp::Gt, t, size, konst(t, max), span);
        let underflowed = self.cmp(out, CmpOp::Lt, t, size, konst(t, min_normal), span);
        let outside = self.bin(out, BinOp::LogOr, PrimType::Bool, overflowed, underflowed, span);
        let no_zero = self.cmp(out, CmpOp::Eq, i64t, SubExp::Var(zeros.name), SubExp::i64(0), span);
        let general = self.bin(out, BinOp::LogAnd, PrimType::Bool, no_zero, outside, span);
        // x̄ᵢ by the number of zeros: ȳ·(p/xᵢ) without one, ȳ·p at the one
        // zero, 0 with more.
        let mut quotient_rule = Vec::new();
        let scaled = self.bin(&mut quotient_rule, BinOp::Mul, t, ybar, SubExp::Var(prod.name), span);
        let x = self.fresh_typed("x", &Type::Prim(t));
        let mut body = Vec::new();
        let single = self.cmp(&mut body, CmpOp::Eq, i64t, SubExp::Var(zeros.name), SubExp::i64(1), span);
        let this_zero = self.cmp(&mut body, CmpOp::Eq, t, SubExp::Var(x.name), zero, span);
        let others = self.bin(&mut body, BinOp::Div, t, SubExp::Var(prod.name), SubExp::Var(x.name), span);
        let quotient = self.bin(&mut body, BinOp::Mul, t, ybar, others, span);
        let at_zero = self.select(&mut body, t, this_zero, scaled, zero, span);
        let one_zero = self.select(&mut body, t, single, at_zero, zero, span);
        let dx = self.select(&mut body, t, no_zero, quotient, one_zero, span);
        let map = Lambda { params: vec![x], body: Body { stms: body, result: vec![dx] }, ret: vec![Type::Prim(t)] };
        let exp = Exp::Soac(Soac::Screma { w, arrs: vec![xs], scans: vec![], reduces: vec![], map });
        let quick = self.bind(&mut quotient_rule, "dxs", Type::Prim(t).array_of(w), exp, span);
        let mut scans = Vec::new();
        let tys = [Type::Prim(t)];
        let slow =
            self.reduce_adjoints_general(&mut scans, w, &[xs], op, &tys, &[Some(ybar)], Default::default(), span)?;
        let exp = Exp::If {
            cond: general,
            then_body: Body { stms: scans, result: vec![SubExp::Var(slow[0])] },
            else_body: Body { stms: quotient_rule, result: vec![SubExp::Var(quick)] },
        };
        Ok(self.bind(out, "dxs", Type::Prim(t).array_of(w), exp, span))
    }

    /// `\a b -> a op b` on scalars of type `t`.
    pub(super) fn scalar_operator(&mut self, op: BinOp, t: PrimType) -> Lambda {
        let (a, b) = (self.fresh_typed("a", &Type::Prim(t)), self.fresh_typed("b", &Type::Prim(t)));
        let r = self.fresh_typed("r", &Type::Prim(t));
        let s = Stm {
            pat: vec![r.clone()],
            exp: Exp::BinOp(op, t, SubExp::Var(a.name), SubExp::Var(b.name)),
            attrs: Default::default(),
            span: Span::default(),
        };
        Lambda {
            params: vec![a, b],
            body: Body { stms: vec![s], result: vec![SubExp::Var(r.name)] },
            ret: vec![Type::Prim(t)],
        }
    }
}
