//! The special rule for the return sweep of `hist` with `min` or `max`
//! on floats (seed 004 §4.4): each bucket's result is one of its values,
//! or the destination's element, so its adjoint goes to that one alone.
//!
//! The return sweep finds, for every bucket, the first value equal to the
//! bucket's result (a `hist` with `min` on the values' positions, `w`
//! where a value is not its bucket's result or its index is out of range),
//! then per bucket gives the result's adjoint to the destination's element
//! when that equals the result (ties go to the destination first, then to
//! the first occurrence, as in the general rule and in `reduce`) and
//! otherwise scatters it to the value found. Work O(n + buckets), and one
//! index per value, where the general rule ([`super::hist`]) sorts the
//! values and scans them from both ends.
//!
//! A `hist` of a few values (a constant number, at most
//! [`FEW_WRITES`]) is left to the general rule's pairwise sweep
//! ([`few_values`](super::hist::few_values)), which works on the values alone
//! and needs no copy of the destination.
//!
//! [`FEW_WRITES`]: super::scatter::FEW_WRITES

use ogham_ir::{
    BinOp, Body, CmpOp, DimIndex, Exp, HistOp, Lambda, Operator, PrimType, Soac, Stm, StmAttrs, SubExp, Type,
};

use super::reduce::single_binop;
use super::{Adjoints, Checkpoints, R};
use crate::ad::rules::konst;
use crate::ad::{internal, Ad};

impl Ad {
    /// The return sweep of a one-dimensional `hist` of one float array
    /// with `min` or `max`: whether it applied.
    pub(super) fn rev_hist_extreme(
        &mut self,
        s: &Stm,
        bars: &[Option<SubExp>],
        ck: &Checkpoints,
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<bool> {
        let Exp::Soac(Soac::Hist { w, arrs, ops, .. }) = &s.exp else { return Ok(false) };
        let ([op], [is, vs], [hbar]) = (ops.as_slice(), arrs.as_slice(), bars) else { return Ok(false) };
        let Some((BinOp::Min | BinOp::Max, t)) = single_binop(&op.op.lambda) else { return Ok(false) };
        let ([nb], [dest], true) = (op.shape.as_slice(), op.dests.as_slice(), t.is_float()) else { return Ok(false) };
        if ck.added.contains_key(&s.pat[0].name) {
            // A few values: the general rule's pairwise sweep, which
            // works on the values alone.
            return Ok(false);
        }
        let Some(SubExp::Var(hbar)) = *hbar else { return Ok(true) };
        let (w, nb, span) = (*w, *nb, s.span);
        let Some(saved) = ck.dests.get(&s.pat[0].name).and_then(|d| d.first()).map(|(_, c)| *c) else {
            return Err(internal(span, "a histogram's destination was not saved".into()));
        };
        let h = s.pat[0].name;
        let (i64t, tt) = (PrimType::I64, Type::Prim(t));
        let at = |a, i| Exp::Index { array: a, slice: vec![DimIndex::Fix(i)] };
        // Each value's position if it is its bucket's result, else `w`.
        let iota = self.indices(out, w, span);
        let (b, x, i) = (
            self.fresh_typed("b", &Type::Prim(i64t)),
            self.fresh_typed("x", &tt),
            self.fresh_typed("i", &Type::Prim(i64t)),
        );
        let mut body = Vec::new();
        let above = self.cmp(&mut body, CmpOp::Le, i64t, SubExp::i64(0), SubExp::Var(b.name), span);
        let below = self.cmp(&mut body, CmpOp::Lt, i64t, SubExp::Var(b.name), nb, span);
        let inside =
            self.scalar(&mut body, PrimType::Bool, Exp::BinOp(BinOp::LogAnd, PrimType::Bool, above, below), span);
        let mut then = Vec::new();
        let result = self.bind(&mut then, "result", tt.clone(), at(h, SubExp::Var(b.name)), span);
        let hit = self.cmp(&mut then, CmpOp::Eq, t, SubExp::Var(x.name), SubExp::Var(result), span);
        let own = self.select(&mut then, i64t, hit, SubExp::Var(i.name), w, span);
        let cand = self.fresh_typed("candidate", &Type::Prim(i64t));
        body.push(Stm {
            pat: vec![cand.clone()],
            exp: Exp::If {
                cond: inside,
                then_body: Body { stms: then, result: vec![own] },
                else_body: Body { stms: Vec::new(), result: vec![w] },
            },
            attrs: StmAttrs::default(),
            span,
        });
        let map = Lambda {
            params: vec![b, x, i],
            body: Body { stms: body, result: vec![SubExp::Var(cand.name)] },
            ret: vec![Type::Prim(i64t)],
        };
        let exp = Exp::Soac(Soac::Screma { w, arrs: vec![*is, *vs, iota], scans: vec![], reduces: vec![], map });
        let cands = self.bind(out, "candidates", Type::Prim(i64t).array_of(w), exp, span);
        let none =
            self.bind(out, "none", Type::Prim(i64t).array_of(nb), Exp::Replicate { shape: vec![nb], value: w }, span);
        let min = self.scalar_operator(BinOp::Min, i64t);
        let hop = HistOp {
            shape: vec![nb],
            dests: vec![none],
            op: Operator { lambda: min, neutral: vec![w], commutative: true },
        };
        let identity = self.identity_lambda(&[Type::Prim(i64t), Type::Prim(i64t)]);
        let exp = Exp::Soac(Soac::Hist { w, arrs: vec![*is, cands], ops: vec![hop], map: identity });
        let first = self.bind(out, "first", Type::Prim(i64t).array_of(nb), exp, span);
        // Per bucket: the destination's adjoint, and where the value's goes.
        let (d, r, hb, f) = (
            self.fresh_typed("d", &tt),
            self.fresh_typed("r", &tt),
            self.fresh_typed("dh", &tt),
            self.fresh_typed("first", &Type::Prim(i64t)),
        );
        let mut body = Vec::new();
        // Kept where the result is the destination's element, NaN
        // included (a bucket no value reaches, or whose values are all
        // NaN: the destination's, as `f64.min nan nan` is its first
        // operand's).
        let same = self.cmp(&mut body, CmpOp::Eq, t, SubExp::Var(d.name), SubExp::Var(r.name), span);
        let dnan = self.cmp(&mut body, CmpOp::Ne, t, SubExp::Var(d.name), SubExp::Var(d.name), span);
        let rnan = self.cmp(&mut body, CmpOp::Ne, t, SubExp::Var(r.name), SubExp::Var(r.name), span);
        let both = self.bin(&mut body, BinOp::LogAnd, PrimType::Bool, dnan, rnan, span);
        let kept = self.bin(&mut body, BinOp::LogOr, PrimType::Bool, same, both, span);
        let dd = self.select(&mut body, t, kept, SubExp::Var(hb.name), konst(t, 0.0), span);
        let to = self.select(&mut body, i64t, kept, w, SubExp::Var(f.name), span);
        let map = Lambda {
            params: vec![d, r, hb, f],
            body: Body { stms: body, result: vec![dd, to] },
            ret: vec![tt.clone(), Type::Prim(i64t)],
        };
        let (ddest, targets) =
            (self.fresh_typed("ddest", &tt.array_of(nb)), self.fresh_typed("to", &Type::Prim(i64t).array_of(nb)));
        out.push(Stm {
            pat: vec![ddest.clone(), targets.clone()],
            exp: Exp::Soac(Soac::Screma {
                w: nb,
                arrs: vec![saved, h, hbar, first],
                scans: vec![],
                reduces: vec![],
                map,
            }),
            attrs: StmAttrs::default(),
            span,
        });
        let zero = konst(t, 0.0);
        let zeros = self.bind(out, "dvs", tt.array_of(w), Exp::Replicate { shape: vec![w], value: zero }, span);
        let dvs = self.scatter_into(out, zeros, targets.name, SubExp::Var(hbar), nb, &tt.array_of(w), span);
        self.add(out, adj, *dest, SubExp::Var(ddest.name), span);
        self.add(out, adj, *vs, SubExp::Var(dvs), span);
        Ok(true)
    }
}
