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

use ogham_ir::{
    BinOp, Body, CmpOp, ConvOp, DimIndex, Exp, HistOp, Lambda, LoopForm, Operator, Param, PrimType, Soac, Stm, SubExp,
    Type, UnOp, VName,
};

use super::{Adjoints, Checkpoints, R};
use crate::ad::{internal, Ad};

impl Ad {
    pub(super) fn rev_hist_general(
        &mut self,
        s: &Stm,
        bars: &[Option<SubExp>],
        ck: &Checkpoints,
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<()> {
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
        let mut fwd = Vec::new();
        let xv: Vec<SubExp> = xs.iter().map(|p| SubExp::Var(p.name)).collect();
        let t1 = self.apply_op(&mut fwd, &op.op, &dv, &lv, &elems, span);
        let t2 = self.apply_op(&mut fwd, &op.op, &t1, &xv, &elems, span);
        let t3 = self.apply_op(&mut fwd, &op.op, &t2, &rv, &elems, span);
        then.extend(fwd.clone());
        let mut inner = Adjoints::default();
        for ((t, hb), e) in t3.iter().zip(&hbars).zip(&elems) {
            if let (SubExp::Var(t), Some(hb)) = (t, hb) {
                let b = self.bind(&mut then, "dhist", e.clone(), at(*hb, key), span);
                self.add(&mut then, &mut inner, *t, SubExp::Var(b), span);
            }
        }
        self.reverse(&fwd, &Checkpoints::default(), &mut inner, &mut then)?;
        let mut found = Vec::new();
        for x in &xs {
            found.push(self.adjoint_or_zero(&mut then, &inner, x.name, span));
        }
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
        let mut fwd = Vec::new();
        let dv: Vec<SubExp> = ds.iter().map(|p| SubExp::Var(p.name)).collect();
        let av: Vec<SubExp> = alls.iter().map(|p| SubExp::Var(p.name)).collect();
        let t = self.apply_op(&mut fwd, &op.op, &dv, &av, &elems, span);
        let mut body = fwd.clone();
        let mut inner = Adjoints::default();
        for (t, hp) in t.iter().zip(&hps) {
            if let (SubExp::Var(t), Some(hp)) = (t, hp) {
                self.add(&mut body, &mut inner, *t, SubExp::Var(hp.name), span);
            }
        }
        self.reverse(&fwd, &Checkpoints::default(), &mut inner, &mut body)?;
        let mut results = Vec::new();
        for d in &ds {
            results.push(self.adjoint_or_zero(&mut body, &inner, d.name, span));
        }
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
