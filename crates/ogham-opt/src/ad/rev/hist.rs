//! The return sweep of `hist` (`reduce_by_index`) with any operator
//! (seed 004 §4.4, the general rule): every value's adjoint needs the
//! combination of everything else that landed in its bucket, so the
//! values are sorted by bucket (a stable radix sort on the flat bucket
//! number, the out-of-range ones last), segmented exclusive scans from
//! both ends give each value the combination of its bucket's values before
//! and after it, and the value's adjoint is the operator's return sweep in
//! `(dest ⊙ before) ⊙ x ⊙ after`. That order makes ties under `min` and
//! `max` go to the destination first, then to the first occurrence, as
//! `reduce` does. The destination's adjoint comes from `dest ⊙ all`, with
//! `all` the bucket's combination (a `hist` from the neutral element).
//! Multi-dimensional histograms are flattened first. `+` keeps its
//! special rule (a gather of the result's adjoint), in `rev.rs`.
//!
//! A one-dimensional `hist` of a few values (a constant number, at most
//! [`FEW_WRITES`]) saves only the destination's elements at its indices,
//! as `hist (+)` does ([`few_values`]), and its return sweep combines the
//! values pairwise instead of sorting them ([`Ad::rev_hist_few`]): each
//! value's `before` is the destination's element combined with the values
//! of its bucket before it, its `after` those after it (combined with it
//! only where there are any: never the neutral element, which would take
//! the adjoint on a tie), in index order, and its bucket's first
//! value also gives the destination's element its adjoint, written into
//! the result's adjoint in place (the other buckets' pass through). Work
//! O(values²) instead of O(buckets + values): in a loop, `reduce_by_index`
//! with `*` of two values into n buckets per iteration ran its return
//! sweep in O(n) per iteration.
//!
//! [`FEW_WRITES`]: super::scatter::FEW_WRITES

use ogham_ir::{
    BinOp, Body, CmpOp, ConvOp, DimIndex, Exp, HistOp, Lambda, LoopForm, Operator, Param, PrimType, Soac, Stm, SubExp,
    Type, UnOp, VName,
};

use super::scatter::FEW_WRITES;
use super::{Adjoints, Checkpoints, R};
use crate::ad::{internal, Ad};

/// Whether a `hist` saves the destination's elements at its indices
/// (before it) rather than a copy of the destination, its return sweep
/// needing no more ([`Ad::rev_hist_few`], for every operator):
/// one-dimensional, of one operator, of a constant number of values, at
/// most [`FEW_WRITES`].
pub(super) fn few_values(w: &SubExp, ops: &[HistOp]) -> bool {
    matches!(w, SubExp::Const(ogham_ir::PrimValue::I64(k)) if *k <= FEW_WRITES)
        && matches!(ops, [op] if op.shape.len() == 1)
}

impl Ad {
    pub(super) fn rev_hist_general(
        &mut self,
        s: &Stm,
        bars: &[Option<SubExp>],
        ck: &Checkpoints,
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<()> {
        if let Some(saved) = ck.added.get(&s.pat[0].name) {
            let olds: Vec<VName> = saved.iter().map(|(_, o)| *o).collect();
            return self.rev_hist_few(s, bars, &olds, adj, out);
        }
        let Exp::Soac(Soac::Hist { w, arrs, ops, .. }) = &s.exp else { return Ok(()) };
        let (w, span) = (*w, s.span);
        let op = &ops[0];
        let (r, k) = (op.shape.len(), op.dests.len());
        let (is, vs) = (&arrs[..r], &arrs[r..]);
        let Some(saved) = ck.dests.get(&s.pat[0].name).cloned() else {
            return Err(internal(span, "a histogram's destination was not saved".into()));
        };
        let i64t = Type::Prim(PrimType::I64);
        let mut nb = SubExp::i64(1);
        for d in &op.shape {
            nb = self.bin(out, BinOp::Mul, PrimType::I64, nb, *d, span);
        }
        let elems: Vec<Type> = vs.iter().map(|v| self.types[v].row()).collect();
        let flat_tys: Vec<Type> = elems.iter().map(|t| t.array_of(nb)).collect();
        let mut dests = Vec::new();
        for ((_, d), t) in saved.iter().zip(&flat_tys) {
            dests.push(self.flat(out, *d, t, r, span));
        }
        let mut hbars = Vec::new();
        for (b, t) in bars.iter().zip(&flat_tys) {
            hbars.push(match b {
                Some(SubExp::Var(b)) => Some(self.flat(out, *b, t, r, span)),
                _ => None,
            });
        }
        let keys = self.bucket_keys(out, w, is, &op.shape, nb, span);
        let (sorted, perm) = self.radix_sort(out, w, keys, nb, span);
        let iota = self.indices(out, w, span);
        let scratch =
            self.bind(out, "inv", i64t.array_of(w), Exp::Scratch { elem: PrimType::I64, shape: vec![w] }, span);
        let inv = self.scatter_into(out, scratch, perm, SubExp::Var(iota), w, &i64t.array_of(w), span);
        let mut svs = Vec::new();
        for (v, t) in vs.iter().zip(&elems) {
            svs.push(self.gather(out, *v, perm, w, t, span));
        }
        // Where each bucket's run starts and ends in sorted order.
        let starts = self.run_edges(out, w, sorted, false, span);
        let ends = self.run_edges(out, w, sorted, true, span);
        let mut left_in = vec![starts];
        left_in.extend(&svs);
        let seg = self.segmented(op, &elems, false);
        let left = self.scan_with(out, w, &left_in, &seg, false, span);
        let mut right_in = vec![self.reversed(out, ends, &Type::Prim(PrimType::Bool).array_of(w), w, span)];
        for (v, t) in svs.iter().zip(&elems) {
            right_in.push(self.reversed(out, *v, &t.array_of(w), w, span));
        }
        let seg = self.segmented(op, &elems, true);
        let right = self.scan_with(out, w, &right_in, &seg, false, span);
        // Per value, in its original position.
        let kp = self.fresh_typed("key", &i64t);
        let pp = self.fresh_typed("pos", &i64t);
        let xs: Vec<Param> = elems.iter().map(|t| self.fresh_typed("x", t)).collect();
        let mut body = Vec::new();
        let inside = self.scalar(
            &mut body,
            PrimType::Bool,
            Exp::CmpOp(CmpOp::Lt, PrimType::I64, SubExp::Var(kp.name), nb),
            span,
        );
        let mut then = Vec::new();
        let at = |v: VName, i: SubExp| Exp::Index { array: v, slice: vec![DimIndex::Fix(i)] };
        let key = SubExp::Var(kp.name);
        let pos = SubExp::Var(pp.name);
        let mut dv = Vec::new();
        for (d, t) in dests.iter().zip(&elems) {
            dv.push(SubExp::Var(self.bind(&mut then, "dst", t.clone(), at(*d, key), span)));
        }
        let first = self.bind(&mut then, "first", Type::Prim(PrimType::Bool), at(starts, pos), span);
        let prev = self.bin(&mut then, BinOp::Sub, PrimType::I64, pos, SubExp::i64(1), span);
        let lv = self.read_or_neutral(&mut then, first, &left[1..], prev, &op.op.neutral, &elems, span);
        let last = self.bind(&mut then, "last", Type::Prim(PrimType::Bool), at(ends, pos), span);
        let wm2 = self.bin(&mut then, BinOp::Sub, PrimType::I64, w, SubExp::i64(2), span);
        let next = self.bin(&mut then, BinOp::Sub, PrimType::I64, wm2, pos, span);
        let rv = self.read_or_neutral(&mut then, last, &right[1..], next, &op.op.neutral, &elems, span);
        let xv: Vec<SubExp> = xs.iter().map(|p| SubExp::Var(p.name)).collect();
        let mut hbs = Vec::new();
        for (hb, e) in hbars.iter().zip(&elems) {
            hbs.push(hb.map(|hb| SubExp::Var(self.bind(&mut then, "dhist", e.clone(), at(hb, key), span))));
        }
        let wrt: Vec<VName> = xs.iter().map(|p| p.name).collect();
        let found = self.op_sweep(&mut then, &op.op, (&[&dv, &lv, &xv, &rv], None), &hbs, &wrt, &elems, span)?;
        let mut other = Vec::new();
        let mut zeros = Vec::new();
        for t in &elems {
            zeros.push(self.zero(&mut other, t, span));
        }
        let xbars: Vec<Param> = elems.iter().map(|t| self.fresh_typed("dx", t)).collect();
        body.push(Stm {
            pat: xbars.clone(),
            exp: Exp::If {
                cond: inside,
                then_body: Body { stms: then, result: found },
                else_body: Body { stms: other, result: zeros },
            },
            attrs: Default::default(),
            span,
        });
        let mut params = vec![kp, pp];
        params.extend(xs);
        let lam = Lambda {
            params,
            body: Body { stms: body, result: xbars.iter().map(|p| SubExp::Var(p.name)).collect() },
            ret: elems.clone(),
        };
        let mut in_arrs = vec![keys, inv];
        in_arrs.extend(vs);
        let exp = Exp::Soac(Soac::Screma { w, arrs: in_arrs, scans: vec![], reduces: vec![], map: lam });
        let pat: Vec<Param> = elems.iter().map(|t| self.fresh_typed("dvs", &t.array_of(w))).collect();
        out.push(Stm { pat: pat.clone(), exp, attrs: s.attrs, span });
        for (v, p) in vs.iter().zip(&pat) {
            self.add(out, adj, *v, SubExp::Var(p.name), span);
        }
        // The destination: d̄ = ∂(d ⊙ all)/∂d · h̄, per bucket.
        if hbars.iter().all(Option::is_none) {
            return Ok(());
        }
        let all = self.combine_buckets(out, w, keys, vs, op, &elems, nb, span);
        let ds: Vec<Param> = elems.iter().map(|t| self.fresh_typed("d", t)).collect();
        let alls: Vec<Param> = elems.iter().map(|t| self.fresh_typed("all", t)).collect();
        let mut hps = Vec::new();
        let mut in_arrs: Vec<VName> = dests.clone();
        in_arrs.extend(&all);
        for (hb, t) in hbars.iter().zip(&elems) {
            if let Some(hb) = hb {
                let p = self.fresh_typed("dh", t);
                in_arrs.push(*hb);
                hps.push(Some(p));
            } else {
                hps.push(None);
            }
        }
        let dv: Vec<SubExp> = ds.iter().map(|p| SubExp::Var(p.name)).collect();
        let av: Vec<SubExp> = alls.iter().map(|p| SubExp::Var(p.name)).collect();
        let hbs: Vec<Option<SubExp>> = hps.iter().map(|hp| hp.as_ref().map(|p| SubExp::Var(p.name))).collect();
        let wrt: Vec<VName> = ds.iter().map(|p| p.name).collect();
        let mut body = Vec::new();
        let results = self.op_sweep(&mut body, &op.op, (&[&dv, &av], None), &hbs, &wrt, &elems, span)?;
        let mut params = ds;
        params.extend(alls);
        params.extend(hps.into_iter().flatten());
        let lam = Lambda { params, body: Body { stms: body, result: results }, ret: elems.clone() };
        let exp = Exp::Soac(Soac::Screma { w: nb, arrs: in_arrs, scans: vec![], reduces: vec![], map: lam });
        let pat: Vec<Param> = flat_tys.iter().map(|t| self.fresh_typed("ddst", t)).collect();
        out.push(Stm { pat: pat.clone(), exp, attrs: s.attrs, span });
        for (d, p) in op.dests.iter().zip(&pat) {
            let ty = self.types[d].clone();
            let back = if r == 1 {
                SubExp::Var(p.name)
            } else {
                self.reshaped(out, SubExp::Var(p.name), ty.shape().to_vec(), ty, span)
            };
            self.add(out, adj, *d, back, span);
        }
        let _ = k;
        Ok(())
    }

    /// The return sweep of a [`few_values`] `hist` of any operator, from
    /// the destination's elements at its indices before it (`olds`, one
    /// array per destination): see the module documentation.
    fn rev_hist_few(
        &mut self,
        s: &Stm,
        bars: &[Option<SubExp>],
        olds: &[VName],
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<()> {
        let Exp::Soac(Soac::Hist { w, arrs, ops, .. }) = &s.exp else { return Ok(()) };
        let (w, span) = (*w, s.span);
        let op = &ops[0];
        let nb = op.shape[0];
        let (is, vs) = (arrs[0], &arrs[1..]);
        let i64t = Type::Prim(PrimType::I64);
        let elems: Vec<Type> = vs.iter().map(|v| self.types[v].row()).collect();
        let at = |v: VName, i: SubExp| Exp::Index { array: v, slice: vec![DimIndex::Fix(i)] };
        let mut hbars = Vec::new();
        for (p, b) in s.pat.iter().zip(bars) {
            hbars.push(b.is_some().then(|| self.owned_adjoint(out, adj, p.name, span)));
        }
        // Per value j, in bucket b: its adjoint, the adjoint of the
        // destination's element (from the bucket's first value), and the
        // bucket to write it into (-1: none).
        let (jp, bp) = (self.fresh_typed("j", &i64t), self.fresh_typed("b", &i64t));
        let xs: Vec<Param> = elems.iter().map(|t| self.fresh_typed("x", t)).collect();
        let os: Vec<Param> = elems.iter().map(|t| self.fresh_typed("old", t)).collect();
        let (j, b) = (SubExp::Var(jp.name), SubExp::Var(bp.name));
        let mut body = Vec::new();
        let above = self.cmp(&mut body, CmpOp::Le, PrimType::I64, SubExp::i64(0), b, span);
        let below = self.cmp(&mut body, CmpOp::Lt, PrimType::I64, b, nb, span);
        let inside = self.bin(&mut body, BinOp::LogAnd, PrimType::Bool, above, below, span);
        let mut then = Vec::new();
        let mut hbs = Vec::new();
        for (hb, e) in hbars.iter().zip(&elems) {
            hbs.push(hb.map(|hb| SubExp::Var(self.bind(&mut then, "dhist", e.clone(), at(hb, b), span))));
        }
        let ov: Vec<SubExp> = os.iter().map(|p| SubExp::Var(p.name)).collect();
        let xv: Vec<SubExp> = xs.iter().map(|p| SubExp::Var(p.name)).collect();
        // The value's adjoint: the operator's return sweep in
        // `(before ⊙ x) ⊙ after`, as the histogram combined them: `before`
        // from the destination's element and `⊙ after` only where values
        // follow, never the neutral element, which could take the
        // adjoint on a tie (min with ∞: `min ∞ ∞` is its first operand's).
        let before = self.fold_bucket(&mut then, op, (is, vs), b, (j, CmpOp::Lt), (&elems, Some(&ov)), span);
        let mut after = self.fold_bucket(&mut then, op, (is, vs), b, (j, CmpOp::Gt), (&elems, None), span);
        // Whether any value follows: the flag of the fold from the first.
        let follow = after.pop();
        let wrt: Vec<VName> = xs.iter().map(|p| p.name).collect();
        let chain = [&before[..], &xv, &after];
        let mut results = self.op_sweep(&mut then, &op.op, (&chain, follow), &hbs, &wrt, &elems, span)?;
        // The destination's element's: the return sweep in
        // `(old ⊙ x) ⊙ after` for the bucket's first value `x`, which
        // writes it.
        let earlier = self.fold_bucket(&mut then, op, (is, &[]), b, (j, CmpOp::Lt), (&[], None), span);
        let first = self.cmp(&mut then, CmpOp::Eq, PrimType::I64, earlier[0], SubExp::i64(0), span);
        let wrt: Vec<VName> = os.iter().map(|p| p.name).collect();
        let chain = [&ov[..], &xv, &after];
        results.extend(self.op_sweep(&mut then, &op.op, (&chain, follow), &hbs, &wrt, &elems, span)?);
        let to = self.select(&mut then, PrimType::I64, first, b, SubExp::i64(-1), span);
        results.push(to);
        let mut other = Vec::new();
        let mut zeros = Vec::new();
        for t in elems.iter().chain(&elems) {
            zeros.push(self.zero(&mut other, t, span));
        }
        zeros.push(SubExp::i64(-1));
        let mut tys: Vec<Type> = elems.iter().chain(&elems).cloned().collect();
        tys.push(i64t.clone());
        let pat: Vec<Param> = tys.iter().map(|t| self.fresh_typed("dv", t)).collect();
        body.push(Stm {
            pat: pat.clone(),
            exp: Exp::If {
                cond: inside,
                then_body: Body { stms: then, result: results },
                else_body: Body { stms: other, result: zeros },
            },
            attrs: Default::default(),
            span,
        });
        let mut params = vec![jp, bp];
        params.extend(xs);
        params.extend(os);
        let lam = Lambda {
            params,
            body: Body { stms: body, result: pat.iter().map(|p| SubExp::Var(p.name)).collect() },
            ret: tys.clone(),
        };
        let iota = self.indices(out, w, span);
        let mut in_arrs = vec![iota, is];
        in_arrs.extend(vs);
        in_arrs.extend(olds);
        let outs: Vec<Param> = tys.iter().map(|t| self.fresh_typed("dvs", &t.array_of(w))).collect();
        let exp = Exp::Soac(Soac::Screma { w, arrs: in_arrs, scans: vec![], reduces: vec![], map: lam });
        out.push(Stm { pat: outs.clone(), exp, attrs: s.attrs, span });
        let n = elems.len();
        for (v, p) in vs.iter().zip(&outs[..n]) {
            self.add(out, adj, *v, SubExp::Var(p.name), span);
        }
        let to = outs[2 * n].name;
        for (((p, d), hb), dd) in s.pat.iter().zip(&op.dests).zip(&hbars).zip(&outs[n..2 * n]) {
            let Some(hb) = hb else { continue };
            let written = self.scatter_into(out, *hb, to, SubExp::Var(dd.name), w, &p.ty, span);
            adj.owned.insert(written);
            adj.of.remove(&p.name);
            self.add(out, adj, *d, SubExp::Var(written), span);
        }
        Ok(())
    }

    /// The operator's return sweep in `c₀ ⊙ c₁ ⊙ …` (the `chain`, each
    /// of the operator's `k` values, combined from the left; the last
    /// combination only where `last` holds, if given), pushed to `out`
    /// after the combination itself: the adjoints of `wrt` (zero where
    /// none) when the result's are `hbs` (none: zero).
    #[allow(clippy::too_many_arguments)]
    fn op_sweep(
        &mut self,
        out: &mut Vec<Stm>,
        op: &Operator,
        (chain, last): (&[&[SubExp]], Option<SubExp>),
        hbs: &[Option<SubExp>],
        wrt: &[VName],
        elems: &[Type],
        span: Span,
    ) -> R<Vec<SubExp>> {
        let mut fwd = Vec::new();
        let mut t = chain[0].to_vec();
        for (i, c) in chain.iter().enumerate().skip(1) {
            match last {
                Some(cond) if i + 1 == chain.len() => {
                    let mut then = Vec::new();
                    let combined = self.apply_op(&mut then, op, &t, c, elems, span);
                    let pat: Vec<Param> = elems.iter().map(|ty| self.fresh_typed("op", ty)).collect();
                    fwd.push(Stm {
                        pat: pat.clone(),
                        exp: Exp::If {
                            cond,
                            then_body: Body { stms: then, result: combined },
                            else_body: Body { stms: Vec::new(), result: t },
                        },
                        attrs: Default::default(),
                        span,
                    });
                    t = pat.iter().map(|p| SubExp::Var(p.name)).collect();
                }
                _ => t = self.apply_op(&mut fwd, op, &t, c, elems, span),
            }
        }
        out.extend(fwd.clone());
        let mut inner = Adjoints::default();
        for (t, hb) in t.iter().zip(hbs) {
            if let (SubExp::Var(t), Some(hb)) = (t, hb) {
                self.add(out, &mut inner, *t, *hb, span);
            }
        }
        self.reverse(&fwd, &Checkpoints::default(), &mut inner, out)?;
        let mut adjoints = Vec::new();
        for v in wrt {
            adjoints.push(self.adjoint_or_zero(out, &inner, *v, span));
        }
        Ok(adjoints)
    }

    /// The combination, by `op`, of the values `vs` (one array per
    /// operand, of types `elems`) at the positions `k` of bucket `b` with
    /// `k cmp j`, in index order, from `init`, or from the first such value
    /// where there is no `init` (`elems`' neutral element where there is
    /// none at all), then whether there was one: a loop over the `w`
    /// positions. With no values, how many such positions there are.
    #[allow(clippy::too_many_arguments)]
    fn fold_bucket(
        &mut self,
        out: &mut Vec<Stm>,
        op: &HistOp,
        (is, vs): (VName, &[VName]),
        b: SubExp,
        (j, cmp): (SubExp, CmpOp),
        (elems, init): (&[Type], Option<&[SubExp]>),
        span: Span,
    ) -> Vec<SubExp> {
        let (w, i64t, boolt) = (self.types[&is].shape()[0], Type::Prim(PrimType::I64), Type::Prim(PrimType::Bool));
        let from_first = !vs.is_empty() && init.is_none();
        let mut tys: Vec<Type> = if vs.is_empty() { vec![i64t.clone()] } else { elems.to_vec() };
        if from_first {
            tys.push(boolt.clone());
        }
        let k = self.fresh_typed("k", &i64t);
        let accs: Vec<Param> = tys.iter().map(|t| self.fresh_typed("acc", t)).collect();
        let mut body = Vec::new();
        let at = |v: VName| Exp::Index { array: v, slice: vec![DimIndex::Fix(SubExp::Var(k.name))] };
        let bk = self.bind(&mut body, "other", i64t.clone(), at(is), span);
        let same = self.cmp(&mut body, CmpOp::Eq, PrimType::I64, SubExp::Var(bk), b, span);
        let order = self.cmp(&mut body, cmp, PrimType::I64, SubExp::Var(k.name), j, span);
        let take = self.bin(&mut body, BinOp::LogAnd, PrimType::Bool, same, order, span);
        let av: Vec<SubExp> = accs.iter().map(|p| SubExp::Var(p.name)).collect();
        let mut then = Vec::new();
        let combined = if vs.is_empty() {
            vec![self.bin(&mut then, BinOp::Add, PrimType::I64, av[0], SubExp::i64(1), span)]
        } else {
            let mut xv = Vec::new();
            for (v, t) in vs.iter().zip(elems) {
                xv.push(SubExp::Var(self.bind(&mut then, "other", t.clone(), at(*v), span)));
            }
            let n = elems.len();
            if from_first {
                // The first value taken as it is: combined with the
                // neutral element, a NaN would be lost (`min ∞ nan` is ∞).
                let mut both = Vec::new();
                let c = self.apply_op(&mut both, &op.op, &av[..n], &xv, elems, span);
                let pat: Vec<Param> = elems.iter().map(|t| self.fresh_typed("acc", t)).collect();
                then.push(Stm {
                    pat: pat.clone(),
                    exp: Exp::If {
                        cond: av[n],
                        then_body: Body { stms: both, result: c },
                        else_body: Body { stms: Vec::new(), result: xv },
                    },
                    attrs: Default::default(),
                    span,
                });
                let mut r: Vec<SubExp> = pat.iter().map(|p| SubExp::Var(p.name)).collect();
                r.push(SubExp::Const(ogham_ir::PrimValue::Bool(true)));
                r
            } else {
                self.apply_op(&mut then, &op.op, &av, &xv, elems, span)
            }
        };
        let next: Vec<Param> = tys.iter().map(|t| self.fresh_typed("acc", t)).collect();
        body.push(Stm {
            pat: next.clone(),
            exp: Exp::If {
                cond: take,
                then_body: Body { stms: then, result: combined },
                else_body: Body { stms: Vec::new(), result: av },
            },
            attrs: Default::default(),
            span,
        });
        let mut inits: Vec<SubExp> = match init {
            _ if vs.is_empty() => vec![SubExp::i64(0)],
            Some(init) => init.to_vec(),
            None => op.op.neutral.clone(),
        };
        if from_first {
            inits.push(SubExp::Const(ogham_ir::PrimValue::Bool(false)));
        }
        let found: Vec<Param> = tys.iter().map(|t| self.fresh_typed("folded", t)).collect();
        out.push(Stm {
            pat: found.clone(),
            exp: Exp::Loop {
                params: accs.into_iter().zip(inits).collect(),
                form: LoopForm::For { i: k.name, bound: w },
                body: Body { stms: body, result: next.iter().map(|p| SubExp::Var(p.name)).collect() },
            },
            attrs: Default::default(),
            span,
        });
        found.into_iter().map(|p| SubExp::Var(p.name)).collect()
    }

    /// `a` (a histogram's destination or its adjoint, `r` bucket
    /// dimensions) with its bucket dimensions flattened to one.
    fn flat(&mut self, out: &mut Vec<Stm>, a: VName, flat_ty: &Type, r: usize, span: Span) -> VName {
        if r == 1 {
            return a;
        }
        let shape = flat_ty.shape().to_vec();
        self.bind(out, "flat", flat_ty.clone(), Exp::Reshape { array: a, shape }, span)
    }

    /// Each row's flat bucket number (row-major), or `nb` when an index is
    /// out of range.
    fn bucket_keys(
        &mut self,
        out: &mut Vec<Stm>,
        w: SubExp,
        is: &[VName],
        shape: &[SubExp],
        nb: SubExp,
        span: Span,
    ) -> VName {
        let i64t = Type::Prim(PrimType::I64);
        let ps: Vec<Param> = is.iter().map(|_| self.fresh_typed("i", &i64t)).collect();
        let mut body = Vec::new();
        let mut flat = SubExp::i64(0);
        let mut ok = SubExp::Const(ogham_ir::PrimValue::Bool(true));
        for (p, d) in ps.iter().zip(shape) {
            let i = SubExp::Var(p.name);
            let ge =
                self.scalar(&mut body, PrimType::Bool, Exp::CmpOp(CmpOp::Le, PrimType::I64, SubExp::i64(0), i), span);
            let lt = self.scalar(&mut body, PrimType::Bool, Exp::CmpOp(CmpOp::Lt, PrimType::I64, i, *d), span);
            let both = self.bin(&mut body, BinOp::LogAnd, PrimType::Bool, ge, lt, span);
            ok = self.bin(&mut body, BinOp::LogAnd, PrimType::Bool, ok, both, span);
            let scaled = self.bin(&mut body, BinOp::Mul, PrimType::I64, flat, *d, span);
            flat = self.bin(&mut body, BinOp::Add, PrimType::I64, scaled, i, span);
        }
        let key = self.select(&mut body, PrimType::I64, ok, flat, nb, span);
        let lam = Lambda { params: ps, body: Body { stms: body, result: vec![key] }, ret: vec![i64t.clone()] };
        let exp = Exp::Soac(Soac::Screma { w, arrs: is.to_vec(), scans: vec![], reduces: vec![], map: lam });
        self.bind(out, "keys", i64t.array_of(w), exp, span)
    }

    /// A stable least-significant-digit radix sort of `keys` (each in
    /// `[0, nb]`), one bit per pass: the sorted keys and, per sorted
    /// position, the original one.
    fn radix_sort(&mut self, out: &mut Vec<Stm>, w: SubExp, keys: VName, nb: SubExp, span: Span) -> (VName, VName) {
        let i64t = Type::Prim(PrimType::I64);
        let arr = i64t.array_of(w);
        let clz = self.scalar(out, PrimType::I32, Exp::UnOp(UnOp::Clz, PrimType::I64, nb), span);
        let clz = self.scalar(out, PrimType::I64, Exp::Conv(ConvOp::Convert, PrimType::I32, PrimType::I64, clz), span);
        let bits = self.bin(out, BinOp::Sub, PrimType::I64, SubExp::i64(64), clz, span);
        let iota = self.indices(out, w, span);
        let (ks, ps) = (self.fresh_typed("ks", &arr), self.fresh_typed("ps", &arr));
        let b = self.fresh_typed("bit", &i64t);
        let mut body = Vec::new();
        // The bit, and whether it is zero, per key.
        let kp = self.fresh_typed("k", &i64t);
        let mut mb = Vec::new();
        let sh = self.bin(&mut mb, BinOp::Shr, PrimType::I64, SubExp::Var(kp.name), SubExp::Var(b.name), span);
        let f = self.bin(&mut mb, BinOp::And, PrimType::I64, sh, SubExp::i64(1), span);
        let z = self.bin(&mut mb, BinOp::Sub, PrimType::I64, SubExp::i64(1), f, span);
        let lam = Lambda { params: vec![kp], body: Body { stms: mb, result: vec![f, z] }, ret: vec![i64t.clone(); 2] };
        let exp = Exp::Soac(Soac::Screma { w, arrs: vec![ks.name], scans: vec![], reduces: vec![], map: lam });
        let (fs, zs) = (self.fresh_typed("ones", &arr), self.fresh_typed("zeros", &arr));
        body.push(Stm { pat: vec![fs.clone(), zs.clone()], exp, attrs: Default::default(), span });
        let plus = self.sum_operator(&mut body, &i64t, span);
        let zinc = self.scan_with(&mut body, w, &[zs.name], &plus, false, span)[0];
        // The number of zeros.
        let nonempty =
            self.scalar(&mut body, PrimType::Bool, Exp::CmpOp(CmpOp::Lt, PrimType::I64, SubExp::i64(0), w), span);
        let mut then = Vec::new();
        let wm1 = self.bin(&mut then, BinOp::Sub, PrimType::I64, w, SubExp::i64(1), span);
        let total =
            self.bind(&mut then, "nz", i64t.clone(), Exp::Index { array: zinc, slice: vec![DimIndex::Fix(wm1)] }, span);
        let nz = self.scalar(
            &mut body,
            PrimType::I64,
            Exp::If {
                cond: nonempty,
                then_body: Body { stms: then, result: vec![SubExp::Var(total)] },
                else_body: Body { stms: vec![], result: vec![SubExp::i64(0)] },
            },
            span,
        );
        // Zeros keep their order at the front, ones after them.
        let (ip, fp, zp) = (self.fresh_typed("i", &i64t), self.fresh_typed("f", &i64t), self.fresh_typed("z", &i64t));
        let mut mb = Vec::new();
        let is_one = self.scalar(
            &mut mb,
            PrimType::Bool,
            Exp::CmpOp(CmpOp::Eq, PrimType::I64, SubExp::Var(fp.name), SubExp::i64(1)),
            span,
        );
        let zero_at = self.bin(&mut mb, BinOp::Sub, PrimType::I64, SubExp::Var(zp.name), SubExp::i64(1), span);
        let ones_before =
            self.bin(&mut mb, BinOp::Sub, PrimType::I64, SubExp::Var(ip.name), SubExp::Var(zp.name), span);
        let one_at = self.bin(&mut mb, BinOp::Add, PrimType::I64, nz, ones_before, span);
        let at = self.select(&mut mb, PrimType::I64, is_one, one_at, zero_at, span);
        let lam =
            Lambda { params: vec![ip, fp, zp], body: Body { stms: mb, result: vec![at] }, ret: vec![i64t.clone()] };
        let exp =
            Exp::Soac(Soac::Screma { w, arrs: vec![iota, fs.name, zinc], scans: vec![], reduces: vec![], map: lam });
        let dest = self.bind(&mut body, "to", arr.clone(), exp, span);
        let mut next = Vec::new();
        for src in [ks.name, ps.name] {
            let scratch =
                self.bind(&mut body, "sorted", arr.clone(), Exp::Scratch { elem: PrimType::I64, shape: vec![w] }, span);
            next.push(SubExp::Var(self.scatter_into(&mut body, scratch, dest, SubExp::Var(src), w, &arr, span)));
        }
        let (rk, rp) = (self.fresh_typed("sorted_keys", &arr), self.fresh_typed("perm", &arr));
        let exp = Exp::Loop {
            params: vec![(ks, SubExp::Var(keys)), (ps, SubExp::Var(iota))],
            form: LoopForm::For { i: b.name, bound: bits },
            body: Body { stms: body, result: next },
        };
        out.push(Stm { pat: vec![rk.clone(), rp.clone()], exp, attrs: Default::default(), span });
        (rk.name, rp.name)
    }

    /// Whether each position of the sorted `keys` starts its run of equal
    /// keys (with `at_end`: ends it).
    fn run_edges(&mut self, out: &mut Vec<Stm>, w: SubExp, keys: VName, at_end: bool, span: Span) -> VName {
        let i64t = Type::Prim(PrimType::I64);
        let (ip, kp) = (self.fresh_typed("i", &i64t), self.fresh_typed("k", &i64t));
        let mut body = Vec::new();
        let i = SubExp::Var(ip.name);
        let (edge, other) = if at_end {
            let wm1 = self.bin(&mut body, BinOp::Sub, PrimType::I64, w, SubExp::i64(1), span);
            (wm1, self.bin(&mut body, BinOp::Add, PrimType::I64, i, SubExp::i64(1), span))
        } else {
            (SubExp::i64(0), self.bin(&mut body, BinOp::Sub, PrimType::I64, i, SubExp::i64(1), span))
        };
        let at_edge = self.scalar(&mut body, PrimType::Bool, Exp::CmpOp(CmpOp::Eq, PrimType::I64, i, edge), span);
        let mut differs = Vec::new();
        let nk = self.bind(
            &mut differs,
            "nk",
            i64t.clone(),
            Exp::Index { array: keys, slice: vec![DimIndex::Fix(other)] },
            span,
        );
        let ne = self.scalar(
            &mut differs,
            PrimType::Bool,
            Exp::CmpOp(CmpOp::Ne, PrimType::I64, SubExp::Var(nk), SubExp::Var(kp.name)),
            span,
        );
        let flag = self.scalar(
            &mut body,
            PrimType::Bool,
            Exp::If {
                cond: at_edge,
                then_body: Body { stms: vec![], result: vec![SubExp::Const(ogham_ir::PrimValue::Bool(true))] },
                else_body: Body { stms: differs, result: vec![ne] },
            },
            span,
        );
        let lam = Lambda {
            params: vec![ip, kp],
            body: Body { stms: body, result: vec![flag] },
            ret: vec![Type::Prim(PrimType::Bool)],
        };
        let iota = self.indices(out, w, span);
        let exp = Exp::Soac(Soac::Screma { w, arrs: vec![iota, keys], scans: vec![], reduces: vec![], map: lam });
        self.bind(out, if at_end { "ends" } else { "starts" }, Type::Prim(PrimType::Bool).array_of(w), exp, span)
    }

    /// The segmented form of `op` on (flag, values…): a set flag starts a
    /// new segment. With `flipped`, the values combine as `new ⊙ acc` (for
    /// a scan from the end).
    fn segmented(&mut self, op: &HistOp, elems: &[Type], flipped: bool) -> Operator {
        let bool_t = Type::Prim(PrimType::Bool);
        let (f1, f2) = (self.fresh_typed("f", &bool_t), self.fresh_typed("f", &bool_t));
        let x1: Vec<Param> = elems.iter().map(|t| self.fresh_typed("a", t)).collect();
        let x2: Vec<Param> = elems.iter().map(|t| self.fresh_typed("b", t)).collect();
        let v1: Vec<SubExp> = x1.iter().map(|p| SubExp::Var(p.name)).collect();
        let v2: Vec<SubExp> = x2.iter().map(|p| SubExp::Var(p.name)).collect();
        let span = Default::default();
        let mut body = Vec::new();
        let f = self.bin(&mut body, BinOp::LogOr, PrimType::Bool, SubExp::Var(f1.name), SubExp::Var(f2.name), span);
        let mut combine = Vec::new();
        let c = if flipped {
            self.apply_op(&mut combine, &op.op, &v2, &v1, elems, span)
        } else {
            self.apply_op(&mut combine, &op.op, &v1, &v2, elems, span)
        };
        let rs: Vec<Param> = elems.iter().map(|t| self.fresh_typed("seg", t)).collect();
        body.push(Stm {
            pat: rs.clone(),
            exp: Exp::If {
                cond: SubExp::Var(f2.name),
                then_body: Body { stms: vec![], result: v2 },
                else_body: Body { stms: combine, result: c },
            },
            attrs: Default::default(),
            span,
        });
        let mut params = vec![f1];
        params.extend(x1);
        params.push(f2);
        params.extend(x2);
        let mut result = vec![f];
        result.extend(rs.iter().map(|p| SubExp::Var(p.name)));
        let mut ret = vec![bool_t];
        ret.extend(elems.iter().cloned());
        let mut neutral = vec![SubExp::Const(ogham_ir::PrimValue::Bool(false))];
        neutral.extend(&op.op.neutral);
        Operator { lambda: Lambda { params, body: Body { stms: body, result }, ret }, neutral, commutative: false }
    }

    /// `if flag then ne else scanned[i]`, per component.
    #[allow(clippy::too_many_arguments)]
    fn read_or_neutral(
        &mut self,
        out: &mut Vec<Stm>,
        flag: VName,
        scanned: &[VName],
        i: SubExp,
        ne: &[SubExp],
        elems: &[Type],
        span: Span,
    ) -> Vec<SubExp> {
        let mut read = Vec::new();
        let mut got = Vec::new();
        for (a, t) in scanned.iter().zip(elems) {
            got.push(SubExp::Var(self.bind(
                &mut read,
                "got",
                t.clone(),
                Exp::Index { array: *a, slice: vec![DimIndex::Fix(i)] },
                span,
            )));
        }
        let ps: Vec<Param> = elems.iter().map(|t| self.fresh_typed("side", t)).collect();
        out.push(Stm {
            pat: ps.clone(),
            exp: Exp::If {
                cond: SubExp::Var(flag),
                then_body: Body { stms: vec![], result: ne.to_vec() },
                else_body: Body { stms: read, result: got },
            },
            attrs: Default::default(),
            span,
        });
        ps.into_iter().map(|p| SubExp::Var(p.name)).collect()
    }

    /// Each bucket's combination of its values, from the neutral element:
    /// `hist op ne nb keys vs` (out-of-range keys are `nb`, ignored).
    #[allow(clippy::too_many_arguments)]
    fn combine_buckets(
        &mut self,
        out: &mut Vec<Stm>,
        w: SubExp,
        keys: VName,
        vs: &[VName],
        op: &HistOp,
        elems: &[Type],
        nb: SubExp,
        span: Span,
    ) -> Vec<VName> {
        let mut dests = Vec::new();
        for (ne, t) in op.op.neutral.iter().zip(elems) {
            dests.push(self.bind(out, "ne", t.array_of(nb), Exp::Replicate { shape: vec![nb], value: *ne }, span));
        }
        let lam = crate::inline::fresh_lambda(&op.op.lambda, &mut self.names);
        crate::ad::collect_types_lambda(&lam, &mut self.types);
        let hop = HistOp {
            shape: vec![nb],
            dests,
            op: Operator { lambda: lam, neutral: op.op.neutral.clone(), commutative: op.op.commutative },
        };
        let mut tys = vec![Type::Prim(PrimType::I64)];
        tys.extend(elems.iter().cloned());
        let map = self.identity_lambda(&tys);
        let mut arrs = vec![keys];
        arrs.extend(vs);
        let exp = Exp::Soac(Soac::Hist { w, arrs, ops: vec![hop], map });
        let pat: Vec<Param> = elems.iter().map(|t| self.fresh_typed("all", &t.array_of(nb))).collect();
        out.push(Stm { pat: pat.clone(), exp, attrs: Default::default(), span });
        pat.into_iter().map(|p| p.name).collect()
    }
}

use ogham_ir::Span;
