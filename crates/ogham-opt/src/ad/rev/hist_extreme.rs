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
//! [`FEW_WRITES`]) saves only the destination's elements at its indices,
//! as `hist (+)` does, not a copy of it ([`few_values`]), and its return
//! sweep works on the values alone: a value's adjoint is its bucket's
//! where it equals the result, the destination's element does not, and no
//! earlier value of the bucket does (compared pairwise); the destination's
//! adjoint is the result's with the buckets whose element was not kept
//! cleared in place. Work O(values²) instead of O(buckets): in a loop,
//! reduce_by_index of two values into n buckets per iteration ran the
//! return sweep in O(n) per iteration.
//!
//! [`FEW_WRITES`]: super::scatter::FEW_WRITES
//! [`few_values`]: super::hist::few_values

use ogham_ir::{
    BinOp, Body, CmpOp, DimIndex, Exp, HistOp, Lambda, Operator, PrimType, Soac, Span, Stm, StmAttrs, SubExp, Type,
    UnOp, VName,
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
        let Some(SubExp::Var(hbar)) = *hbar else { return Ok(true) };
        let (w, nb, span) = (*w, *nb, s.span);
        if let Some(&[(_, old)]) = ck.added.get(&s.pat[0].name).map(Vec::as_slice) {
            self.rev_few_extremes(s.pat[0].name, (*is, *vs, old), *dest, (w, nb, t), adj, out, span);
            return Ok(true);
        }
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
        let kept = self.cmp(&mut body, CmpOp::Eq, t, SubExp::Var(d.name), SubExp::Var(r.name), span);
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

    /// The return sweep of a [`few_values`](super::hist::few_values) `hist` with result `h`, from
    /// its indices, values and the destination's elements at its indices
    /// before it (`old`, zero out of range): see the module documentation.
    #[allow(clippy::too_many_arguments)]
    fn rev_few_extremes(
        &mut self,
        h: VName,
        (is, vs, old): (VName, VName, VName),
        dest: VName,
        (w, nb, t): (SubExp, SubExp, PrimType),
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
        span: Span,
    ) {
        let (i64t, tt, boolt) = (PrimType::I64, Type::Prim(t), Type::Prim(PrimType::Bool));
        let at = |a, i| Exp::Index { array: a, slice: vec![DimIndex::Fix(i)] };
        let hbar = self.owned_adjoint(out, adj, h, span);
        // Per value: whether it is its bucket's result where the
        // destination's element is not, the bucket's adjoint, and the
        // bucket to clear (-1: none).
        let (b, x, o) =
            (self.fresh_typed("b", &Type::Prim(i64t)), self.fresh_typed("x", &tt), self.fresh_typed("old", &tt));
        let mut body = Vec::new();
        let above = self.cmp(&mut body, CmpOp::Le, i64t, SubExp::i64(0), SubExp::Var(b.name), span);
        let below = self.cmp(&mut body, CmpOp::Lt, i64t, SubExp::Var(b.name), nb, span);
        let inside = self.bin(&mut body, BinOp::LogAnd, PrimType::Bool, above, below, span);
        let mut then = Vec::new();
        let result = self.bind(&mut then, "result", tt.clone(), at(h, SubExp::Var(b.name)), span);
        let grad = self.bind(&mut then, "dh", tt.clone(), at(hbar, SubExp::Var(b.name)), span);
        let kept = self.cmp(&mut then, CmpOp::Eq, t, SubExp::Var(o.name), SubExp::Var(result), span);
        let hit = self.cmp(&mut then, CmpOp::Eq, t, SubExp::Var(x.name), SubExp::Var(result), span);
        let lost = self.scalar(&mut then, PrimType::Bool, Exp::UnOp(UnOp::Not, PrimType::Bool, kept), span);
        let cand = self.bin(&mut then, BinOp::LogAnd, PrimType::Bool, hit, lost, span);
        let clear = self.select(&mut then, i64t, kept, SubExp::i64(-1), SubExp::Var(b.name), span);
        let (pc, pg, pk) = (
            self.fresh_typed("candidate", &boolt),
            self.fresh_typed("dh", &tt),
            self.fresh_typed("clear", &Type::Prim(i64t)),
        );
        body.push(Stm {
            pat: vec![pc.clone(), pg.clone(), pk.clone()],
            exp: Exp::If {
                cond: inside,
                then_body: Body { stms: then, result: vec![cand, SubExp::Var(grad), clear] },
                else_body: Body {
                    stms: Vec::new(),
                    result: vec![SubExp::Const(ogham_ir::PrimValue::Bool(false)), konst(t, 0.0), SubExp::i64(-1)],
                },
            },
            attrs: StmAttrs::default(),
            span,
        });
        let map = Lambda {
            params: vec![b, x, o],
            body: Body { stms: body, result: vec![SubExp::Var(pc.name), SubExp::Var(pg.name), SubExp::Var(pk.name)] },
            ret: vec![boolt.clone(), tt.clone(), Type::Prim(i64t)],
        };
        let (cands, grads, clears) = (
            self.fresh_typed("candidates", &boolt.array_of(w)),
            self.fresh_typed("dhs", &tt.array_of(w)),
            self.fresh_typed("clears", &Type::Prim(i64t).array_of(w)),
        );
        out.push(Stm {
            pat: vec![cands.clone(), grads.clone(), clears.clone()],
            exp: Exp::Soac(Soac::Screma { w, arrs: vec![is, vs, old], scans: vec![], reduces: vec![], map }),
            attrs: StmAttrs::default(),
            span,
        });
        // A candidate's adjoint, unless an earlier value of its bucket is
        // one (ties: the first occurrence).
        let iota = self.indices(out, w, span);
        let (j, bj, cj, gj) = (
            self.fresh_typed("j", &Type::Prim(i64t)),
            self.fresh_typed("b", &Type::Prim(i64t)),
            self.fresh_typed("candidate", &boolt),
            self.fresh_typed("dh", &tt),
        );
        let mut body = Vec::new();
        let earlier = self.fresh_typed("earlier", &boolt);
        let k = self.fresh_typed("k", &Type::Prim(i64t));
        let mut step = Vec::new();
        let before = self.cmp(&mut step, CmpOp::Lt, i64t, SubExp::Var(k.name), SubExp::Var(j.name), span);
        let bk = self.bind(&mut step, "other", Type::Prim(i64t), at(is, SubExp::Var(k.name)), span);
        let same = self.cmp(&mut step, CmpOp::Eq, i64t, SubExp::Var(bk), SubExp::Var(bj.name), span);
        let ck = self.bind(&mut step, "other", boolt.clone(), at(cands.name, SubExp::Var(k.name)), span);
        let both = self.bin(&mut step, BinOp::LogAnd, PrimType::Bool, before, same, span);
        let taken = self.bin(&mut step, BinOp::LogAnd, PrimType::Bool, both, SubExp::Var(ck), span);
        let any = self.bin(&mut step, BinOp::LogOr, PrimType::Bool, SubExp::Var(earlier.name), taken, span);
        let found = self.fresh_typed("earlier", &boolt);
        body.push(Stm {
            pat: vec![found.clone()],
            exp: Exp::Loop {
                params: vec![(earlier, SubExp::Const(ogham_ir::PrimValue::Bool(false)))],
                form: ogham_ir::LoopForm::For { i: k.name, bound: w },
                body: Body { stms: step, result: vec![any] },
            },
            attrs: StmAttrs::default(),
            span,
        });
        let free =
            self.scalar(&mut body, PrimType::Bool, Exp::UnOp(UnOp::Not, PrimType::Bool, SubExp::Var(found.name)), span);
        let first = self.bin(&mut body, BinOp::LogAnd, PrimType::Bool, SubExp::Var(cj.name), free, span);
        let dv = self.select(&mut body, t, first, SubExp::Var(gj.name), konst(t, 0.0), span);
        let map =
            Lambda { params: vec![j, bj, cj, gj], body: Body { stms: body, result: vec![dv] }, ret: vec![tt.clone()] };
        let exp = Exp::Soac(Soac::Screma {
            w,
            arrs: vec![iota, is, cands.name, grads.name],
            scans: vec![],
            reduces: vec![],
            map,
        });
        let dvs = self.bind(out, "dvs", tt.array_of(w), exp, span);
        // The destination's adjoint: the result's, cleared where the
        // destination's element was not kept.
        let zeros = self.zero(out, &tt.array_of(w), span);
        let cleared = self.scatter_nd(out, hbar, &[clears.name], zeros, w, &tt.array_of(nb), span);
        adj.owned.insert(cleared);
        adj.of.remove(&h);
        self.add(out, adj, dest, SubExp::Var(cleared), span);
        self.add(out, adj, vs, SubExp::Var(dvs), span);
    }
}
