//! The return sweep of `scan` with any operator (seed 004 §4.3), and the
//! rewrite that gives vectorised operators (`map2 op` on rows) to it one
//! column at a time.
//!
//! For `ys = scan ⊙ ne xs` on tuples of `k` floating-point scalars (and
//! any number of integers and booleans, such as a segmented scan's flags,
//! which steer the operator and get no adjoints; or, with no
//! floating-point component, of integers), let
//! `Bᵢ` be the transposed Jacobian of `ysᵢ ⊙ xsᵢ₊₁` in `ysᵢ` (a `k×k`
//! matrix, `Bᵢ[j][c] = ∂outᶜ/∂aⱼ`; zero for the last element). The
//! adjoints `rᵢ` of the `ysᵢ` as the whole scan uses them satisfy
//! `rᵢ = ȳᵢ + Bᵢ·rᵢ₊₁`, a linear recurrence solved from the end by a scan
//! of affine maps, `(c₁, B₁) ⊙ (c₂, B₂) = (c₂ + B₂·c₁, B₂·B₁)` with
//! neutral `(0, I)`. Then `x̄sᵢ` is the operator's return sweep in
//! `ysᵢ₋₁ ⊙ x` at `xsᵢ` with adjoint `rᵢ` (`ys₋₁ = ne`). The matrices are
//! `k²` scalars per element, so this is meant for small tuples (Futhark's
//! suite scans 4×4 matrix products). Floats of different types (an `f32`
//! beside an `f64`), or integers, are carried through the recurrence in the
//! widest of them, each `Bᵢ[j][c]` and `ȳ` converted to it and each `rᵢ`
//! back to its component's type.

use ogham_ir::{
    BinOp, Body, CmpOp, ConvOp, DimIndex, Exp, Lambda, Operator, Param, PrimType, Soac, Span, Stm, SubExp, Type, VName,
};

use super::{is_addition, is_identity, var_of, Adjoints, Checkpoints, R};
use crate::ad::Ad;

impl Ad {
    pub(super) fn rev_scan_general(
        &mut self,
        s: &Stm,
        bars: &[Option<SubExp>],
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<()> {
        let Exp::Soac(Soac::Screma { w, arrs, scans, .. }) = &s.exp else { return Ok(()) };
        let (w, span, op) = (*w, s.span, &scans[0]);
        // The floating-point components are differentiated; the others
        // (flags, counts) only steer the operator, with zero adjoints.
        // Without floats, the integers are differentiated, as forward mode
        // differentiates integer arithmetic, and booleans steer.
        let of = |keep: fn(PrimType) -> bool| (0..arrs.len()).filter(|&j| keep(s.pat[j].ty.elem())).collect::<Vec<_>>();
        let mut dc = of(PrimType::is_float);
        if dc.is_empty() {
            dc = of(PrimType::is_int);
        }
        // The recurrence's type: the widest of the floats, or of the
        // integers (whose arithmetic wraps: the low bits of a sum or
        // product of widened integers are those of the narrow one, so each
        // result converted back is exact). Booleans alone have no adjoints.
        let Some(t) = dc.iter().map(|&j| s.pat[j].ty.elem()).max_by_key(|t| t.bits()) else { return Ok(()) };
        if s.pat.iter().any(|p| p.ty.rank() != 1) {
            return self.rev_scan_sequential(s, bars, &dc, adj, out);
        }
        if dc.iter().all(|&j| bars[j].is_none()) {
            return Ok(());
        }
        let k = dc.len();
        let ty = Type::Prim(t);
        let arr_ty = ty.array_of(w);
        let zero = SubExp::Const(ogham_ir::PrimValue::zero(t));
        let ys: Vec<VName> = s.pat.iter().map(|p| p.name).collect();
        let tys: Vec<Type> = s.pat.iter().map(|p| Type::Prim(p.ty.elem())).collect();
        let i64t = Type::Prim(PrimType::I64);
        let iota = self.indices(out, w, span);
        // Bᵢ, per element (k² scalars, row-major).
        let i = self.fresh_typed("i", &i64t);
        let mut body = Vec::new();
        let last = self.bin(&mut body, BinOp::Sub, PrimType::I64, w, SubExp::i64(1), span);
        let inner = self.scalar(
            &mut body,
            PrimType::Bool,
            Exp::CmpOp(CmpOp::Lt, PrimType::I64, SubExp::Var(i.name), last),
            span,
        );
        let mut then = Vec::new();
        let next = self.bin(&mut then, BinOp::Add, PrimType::I64, SubExp::Var(i.name), SubExp::i64(1), span);
        let mut y_i = Vec::new();
        let mut x_next = Vec::new();
        for ((y, x), et) in ys.iter().zip(arrs).zip(&tys) {
            let at = |a: VName, j: SubExp| Exp::Index { array: a, slice: vec![DimIndex::Fix(j)] };
            y_i.push(SubExp::Var(self.bind(&mut then, "y", et.clone(), at(*y, SubExp::Var(i.name)), span)));
            x_next.push(SubExp::Var(self.bind(&mut then, "x", et.clone(), at(*x, next), span)));
        }
        let jac = self.op_jacobian(&mut then, op, &y_i, &x_next, &tys, &dc, span)?;
        let mut b_entries = Vec::new();
        for (row, &j) in jac.iter().zip(&dc) {
            for &d in row {
                b_entries.push(self.converted(&mut then, d, tys[j].elem(), t, span));
            }
        }
        let b_names: Vec<Param> = (0..k * k).map(|_| self.fresh_typed("b", &ty)).collect();
        body.push(Stm {
            pat: b_names.clone(),
            exp: Exp::If {
                cond: inner,
                then_body: Body { stms: then, result: b_entries },
                else_body: Body { stms: vec![], result: vec![zero; k * k] },
            },
            attrs: Default::default(),
            span,
        });
        let lam = Lambda {
            params: vec![i],
            body: Body { stms: body, result: b_names.iter().map(|p| SubExp::Var(p.name)).collect() },
            ret: vec![ty.clone(); k * k],
        };
        let exp = Exp::Soac(Soac::Screma { w, arrs: vec![iota], scans: vec![], reduces: vec![], map: lam });
        let bs: Vec<Param> = (0..k * k).map(|_| self.fresh_typed("bs", &arr_ty)).collect();
        out.push(Stm { pat: bs.clone(), exp, attrs: s.attrs, span });
        // The recurrence, from the end.
        let mut rev_in = Vec::new();
        for &j in &dc {
            let ybar = match bars[j] {
                Some(SubExp::Var(b)) => self.converted_array(out, b, tys[j].elem(), t, w, span),
                _ => var_of(self.zero(out, &arr_ty, span)),
            };
            rev_in.push(self.reversed(out, ybar, &arr_ty, w, span));
        }
        for b in &bs {
            rev_in.push(self.reversed(out, b.name, &arr_ty, w, span));
        }
        let affine = self.affine_operator(t, k);
        let rs = self.scan_with(out, w, &rev_in, &affine, false, span);
        let mut r = Vec::new();
        for x in &rs[..k] {
            r.push(self.reversed(out, *x, &arr_ty, w, span));
        }
        // x̄sᵢ: the return sweep of ysᵢ₋₁ ⊙ xsᵢ with adjoint rᵢ.
        let i = self.fresh_typed("i", &i64t);
        let xps: Vec<Param> = tys.iter().map(|et| self.fresh_typed("x", et)).collect();
        let rps: Vec<Param> = (0..k).map(|_| self.fresh_typed("r", &ty)).collect();
        let mut body = Vec::new();
        let mut prev = Vec::new();
        for ((y, ne), et) in ys.iter().zip(&op.neutral).zip(&tys) {
            prev.push(self.shifted_read(&mut body, *y, i.name, w, *ne, false, et, span));
        }
        let xv: Vec<SubExp> = xps.iter().map(|p| SubExp::Var(p.name)).collect();
        let mut fwd = Vec::new();
        let res = self.apply_op(&mut fwd, op, &prev, &xv, &tys, span);
        body.extend(fwd.clone());
        let mut inner = Adjoints::default();
        for (&j, rp) in dc.iter().zip(&rps) {
            if let SubExp::Var(v) = res[j] {
                let r = self.converted(&mut body, SubExp::Var(rp.name), t, tys[j].elem(), span);
                self.add(&mut body, &mut inner, v, r, span);
            }
        }
        self.reverse(&fwd, &Checkpoints::default(), &mut inner, &mut body)?;
        let mut results = Vec::new();
        for &j in &dc {
            results.push(self.adjoint_or_zero(&mut body, &inner, xps[j].name, span));
        }
        let mut params = vec![i];
        params.extend(xps);
        params.extend(rps);
        let ret: Vec<Type> = dc.iter().map(|&j| tys[j].clone()).collect();
        let pat: Vec<Param> = ret.iter().map(|et| self.fresh_typed("dxs", &et.array_of(w))).collect();
        let lam = Lambda { params, body: Body { stms: body, result: results }, ret };
        let mut in_arrs = vec![iota];
        in_arrs.extend(arrs);
        in_arrs.extend(&r);
        let exp = Exp::Soac(Soac::Screma { w, arrs: in_arrs, scans: vec![], reduces: vec![], map: lam });
        out.push(Stm { pat: pat.clone(), exp, attrs: s.attrs, span });
        for (&j, p) in dc.iter().zip(pat) {
            self.add(out, adj, arrs[j], SubExp::Var(p.name), span);
        }
        Ok(())
    }

    /// The return sweep of a scan whose elements are arrays (rows, matrices)
    /// with an operator that is not a vectorised scalar one (a matrix
    /// product, a rotation written with an array literal): the recurrence
    /// `rᵢ₋₁ = ȳᵢ₋₁ + ∂(ysᵢ₋₁ ⊙ xsᵢ)/∂ysᵢ₋₁ᵀ · rᵢ` run from the end by a
    /// sequential loop, each step the operator's return sweep at
    /// `ysᵢ₋₁ ⊙ xsᵢ` (`ne` for `i = 0`) with adjoint `rᵢ`, which also gives
    /// `x̄sᵢ`. The affine-map scan of [`Ad::rev_scan_general`] would need
    /// Jacobians of `m×m` scalars per element (`m` the elements of a row);
    /// this takes the primal scan's sequential work instead, without its
    /// parallelism across the elements. `dc`: the differentiated (float)
    /// components.
    fn rev_scan_sequential(
        &mut self,
        s: &Stm,
        bars: &[Option<SubExp>],
        dc: &[usize],
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<()> {
        let Exp::Soac(Soac::Screma { w, arrs, scans, .. }) = &s.exp else { return Ok(()) };
        let (w, span, op) = (*w, s.span, &scans[0]);
        if dc.iter().all(|&j| bars[j].is_none()) {
            return Ok(());
        }
        let i64t = Type::Prim(PrimType::I64);
        let rows: Vec<Type> = s.pat.iter().map(|p| p.ty.row()).collect();
        let ys: Vec<VName> = s.pat.iter().map(|p| p.name).collect();
        // The adjoints of the ys, zero where there is none.
        let mut ybars = Vec::new();
        for &j in dc {
            ybars.push(match bars[j] {
                Some(SubExp::Var(b)) => b,
                _ => var_of(self.zero(out, &s.pat[j].ty, span)),
            });
        }
        // r of the last element, and the x̄s to fill.
        let last = self.bin(out, BinOp::Sub, PrimType::I64, w, SubExp::i64(1), span);
        let mut params = Vec::new();
        for (&j, yb) in dc.iter().zip(&ybars) {
            let r0 = self.fresh_typed("r", &rows[j]);
            let mut then = Vec::new();
            let v = self.bind(
                &mut then,
                "ybar",
                rows[j].clone(),
                Exp::Index { array: *yb, slice: vec![DimIndex::Fix(last)] },
                span,
            );
            let zero_then = self.zero(out, &rows[j], span);
            let nonempty =
                self.scalar(out, PrimType::Bool, Exp::CmpOp(CmpOp::Lt, PrimType::I64, SubExp::i64(0), w), span);
            let init = self.bind(
                out,
                "r",
                rows[j].clone(),
                Exp::If {
                    cond: nonempty,
                    then_body: Body { stms: then, result: vec![SubExp::Var(v)] },
                    else_body: Body { stms: vec![], result: vec![zero_then] },
                },
                span,
            );
            params.push((r0, SubExp::Var(init)));
        }
        for &j in dc {
            let dx = self.fresh_typed("dxs", &s.pat[j].ty);
            let init = self.zero(out, &s.pat[j].ty, span);
            params.push((dx, init));
        }
        // One step, for element i = w - 1 - k.
        let k = self.fresh_typed("k", &i64t);
        let mut body = Vec::new();
        let i = self.bin(&mut body, BinOp::Sub, PrimType::I64, last, SubExp::Var(k.name), span);
        let SubExp::Var(iv) = i else { return Ok(()) };
        let mut prev = Vec::new();
        for ((y, ne), row) in ys.iter().zip(&op.neutral).zip(&rows) {
            prev.push(self.shifted_read(&mut body, *y, iv, w, *ne, false, row, span));
        }
        let mut xs = Vec::new();
        for (x, row) in arrs.iter().zip(&rows) {
            let v =
                self.bind(&mut body, "x", row.clone(), Exp::Index { array: *x, slice: vec![DimIndex::Fix(i)] }, span);
            xs.push(SubExp::Var(v));
        }
        let mut fwd = Vec::new();
        let res = self.apply_op(&mut fwd, op, &prev, &xs, &rows, span);
        let mut ck = Checkpoints::of(&Body { stms: fwd.clone(), result: res.clone() });
        self.forward(&fwd, &mut body, &mut ck)?;
        let mut inner = Adjoints::default();
        for (n, &j) in dc.iter().enumerate() {
            if let SubExp::Var(v) = res[j] {
                self.add(&mut body, &mut inner, v, SubExp::Var(params[n].0.name), span);
            }
        }
        self.reverse(&fwd, &ck, &mut inner, &mut body)?;
        let mut result = Vec::new();
        // rᵢ₋₁ = ȳᵢ₋₁ + the adjoint of ysᵢ₋₁ (not needed after i = 0).
        let positive =
            self.scalar(&mut body, PrimType::Bool, Exp::CmpOp(CmpOp::Lt, PrimType::I64, SubExp::i64(0), i), span);
        let before = self.bin(&mut body, BinOp::Sub, PrimType::I64, i, SubExp::i64(1), span);
        for (n, &j) in dc.iter().enumerate() {
            let dprev = match prev[j] {
                SubExp::Var(v) => self.adjoint_or_zero(&mut body, &inner, v, span),
                SubExp::Const(_) => self.zero(&mut body, &rows[j], span),
            };
            let mut then = Vec::new();
            let yb = self.bind(
                &mut then,
                "ybar",
                rows[j].clone(),
                Exp::Index { array: ybars[n], slice: vec![DimIndex::Fix(before)] },
                span,
            );
            let summed = self.sum(&mut then, &rows[j], SubExp::Var(yb), dprev, span);
            let r = self.bind(
                &mut body,
                "r",
                rows[j].clone(),
                Exp::If {
                    cond: positive,
                    then_body: Body { stms: then, result: vec![summed] },
                    else_body: Body { stms: vec![], result: vec![dprev] },
                },
                span,
            );
            result.push(SubExp::Var(r));
        }
        for (n, &j) in dc.iter().enumerate() {
            let dx = match xs[j] {
                SubExp::Var(v) => self.adjoint_or_zero(&mut body, &inner, v, span),
                c => c,
            };
            let acc = params[dc.len() + n].0.name;
            let upd = self.bind(
                &mut body,
                "dxs",
                s.pat[j].ty.clone(),
                Exp::Update { array: acc, slice: vec![DimIndex::Fix(i)], value: dx },
                span,
            );
            result.push(SubExp::Var(upd));
        }
        let pat: Vec<Param> = params.iter().map(|(p, _)| self.fresh_typed("dscan", &p.ty)).collect();
        out.push(Stm {
            pat: pat.clone(),
            exp: Exp::Loop {
                params,
                form: ogham_ir::LoopForm::For { i: k.name, bound: w },
                body: Body { stms: body, result },
            },
            attrs: Default::default(),
            span,
        });
        for (n, &j) in dc.iter().enumerate() {
            self.add(out, adj, arrs[j], SubExp::Var(pat[dc.len() + n].name), span);
        }
        Ok(())
    }

    /// `x` of type `from` as a `to` (itself when the types are one).
    fn converted(&mut self, out: &mut Vec<Stm>, x: SubExp, from: PrimType, to: PrimType, span: Span) -> SubExp {
        if from == to {
            return x;
        }
        self.scalar(out, to, Exp::Conv(ConvOp::Convert, from, to, x), span)
    }

    /// The array `xs` (`[w]from`) as a `[w]to` (itself when the types are one).
    fn converted_array(
        &mut self,
        out: &mut Vec<Stm>,
        xs: VName,
        from: PrimType,
        to: PrimType,
        w: SubExp,
        span: Span,
    ) -> VName {
        if from == to {
            return xs;
        }
        let x = self.fresh_typed("x", &Type::Prim(from));
        let mut body = Vec::new();
        let y = self.converted(&mut body, SubExp::Var(x.name), from, to, span);
        let lam = Lambda { params: vec![x], body: Body { stms: body, result: vec![y] }, ret: vec![Type::Prim(to)] };
        let exp = Exp::Soac(Soac::Screma { w, arrs: vec![xs], scans: vec![], reduces: vec![], map: lam });
        self.bind(out, "conv", Type::Prim(to).array_of(w), exp, span)
    }

    /// `∂outᶜ/∂aⱼ` of `a ⊙ b` (all the operator's scalars each) for the
    /// components `dc` (`j` and `c` both among them), as `[j][c]`: one
    /// return sweep of a copy of the operator per output component.
    #[allow(clippy::too_many_arguments)]
    fn op_jacobian(
        &mut self,
        out: &mut Vec<Stm>,
        op: &Operator,
        a: &[SubExp],
        b: &[SubExp],
        tys: &[Type],
        dc: &[usize],
        span: Span,
    ) -> R<Vec<Vec<SubExp>>> {
        let k = dc.len();
        let mut jac = vec![Vec::with_capacity(k); k];
        for &c in dc {
            let pa: Vec<Param> = tys.iter().map(|t| self.fresh_typed("a", t)).collect();
            for (p, x) in pa.iter().zip(a) {
                out.push(crate::ad::stm(p.clone(), Exp::SubExp(*x), span));
            }
            let av: Vec<SubExp> = pa.iter().map(|p| SubExp::Var(p.name)).collect();
            let mut fwd = Vec::new();
            let res = self.apply_op(&mut fwd, op, &av, b, tys, span);
            out.extend(fwd.clone());
            let mut inner = Adjoints::default();
            if let SubExp::Var(v) = res[c] {
                let one = SubExp::Const(ogham_ir::PrimValue::from_f64(tys[c].elem(), 1.0));
                inner.of.insert(v, one);
            }
            self.reverse(&fwd, &Checkpoints::default(), &mut inner, out)?;
            for (row, &j) in jac.iter_mut().zip(dc) {
                let d = self.adjoint_or_zero(out, &inner, pa[j].name, span);
                row.push(d);
            }
        }
        Ok(jac)
    }

    /// Composition of affine maps on `k`-vectors, `(c, B)` as `k + k²`
    /// scalars: `(c₁, B₁) ⊙ (c₂, B₂) = (c₂ + B₂·c₁, B₂·B₁)`, neutral `(0, I)`.
    fn affine_operator(&mut self, t: PrimType, k: usize) -> Operator {
        let ty = Type::Prim(t);
        let n = k + k * k;
        let p1: Vec<Param> = (0..n).map(|_| self.fresh_typed("p", &ty)).collect();
        let p2: Vec<Param> = (0..n).map(|_| self.fresh_typed("q", &ty)).collect();
        let v = |ps: &[Param], j: usize| SubExp::Var(ps[j].name);
        let span = Span::default();
        let mut body = Vec::new();
        let mut result = Vec::new();
        // c = c₂ + B₂·c₁
        for j in 0..k {
            let mut acc = v(&p2, j);
            for m in 0..k {
                let prod = self.times(&mut body, t, v(&p2, k + j * k + m), v(&p1, m), span);
                acc = self.plus(&mut body, t, acc, prod, span);
            }
            result.push(acc);
        }
        // B = B₂·B₁
        for j in 0..k {
            for c in 0..k {
                let mut acc = SubExp::Const(ogham_ir::PrimValue::zero(t));
                for m in 0..k {
                    let prod = self.times(&mut body, t, v(&p2, k + j * k + m), v(&p1, k + m * k + c), span);
                    acc = if m == 0 { prod } else { self.plus(&mut body, t, acc, prod, span) };
                }
                result.push(acc);
            }
        }
        let mut neutral = vec![SubExp::Const(ogham_ir::PrimValue::zero(t)); k];
        for j in 0..k {
            for c in 0..k {
                neutral.push(SubExp::Const(ogham_ir::PrimValue::from_f64(t, if j == c { 1.0 } else { 0.0 })));
            }
        }
        let mut params = p1;
        params.extend(p2);
        Operator {
            lambda: Lambda { params, body: Body { stms: body, result }, ret: vec![ty; n] },
            neutral,
            commutative: false,
        }
    }

    /// A `scan` whose operator is vectorised (`map2 op` on rows, at any
    /// depth: its body is one `map` over the operator's parameters in
    /// order) as a `map` over the columns of scans of `op`, between
    /// transpositions, with the neutral element's elements as each
    /// column's; `None` for any other statement.
    pub(super) fn devectorised_scan(&mut self, s: &Stm) -> Option<Vec<Stm>> {
        let Exp::Soac(Soac::Screma { w, arrs, scans, reduces, map }) = &s.exp else { return None };
        let [op] = scans.as_slice() else { return None };
        if !reduces.is_empty() || !is_identity(map) || s.pat.len() != arrs.len() || is_addition(op) {
            return None;
        }
        let k = op.neutral.len();
        let lam = &op.lambda;
        let [inner] = lam.body.stms.as_slice() else { return None };
        let Exp::Soac(Soac::Screma { w: m, arrs: in_arrs, scans: s2, reduces: r2, map: elem_op }) = &inner.exp else {
            return None;
        };
        let params: Vec<VName> = lam.params.iter().map(|p| p.name).collect();
        let results: Vec<SubExp> = inner.pat.iter().map(|p| SubExp::Var(p.name)).collect();
        if !s2.is_empty() || !r2.is_empty() || *in_arrs != params || lam.body.result != results || results.len() != k {
            return None;
        }
        let (w, m, span) = (*w, *m, s.span);
        let mut out = Vec::new();
        // Columns first: [w][m]… as [m][w]….
        let mut cols = Vec::new();
        let mut col_tys = Vec::new();
        for a in arrs {
            let ty = self.types[a].clone();
            let mut perm: Vec<usize> = (0..ty.rank()).collect();
            perm.swap(0, 1);
            let mut shape = ty.shape().to_vec();
            shape.swap(0, 1);
            let tty = Type::Array { elem: ty.elem(), shape };
            col_tys.push(tty.row());
            cols.push(self.bind(&mut out, "cols", tty, Exp::Rearrange { array: *a, perm }, span));
        }
        let ne_arrs: Vec<VName> = op.neutral.iter().filter_map(|n| n.as_var()).collect();
        if ne_arrs.len() != k {
            return None;
        }
        let cps: Vec<Param> = col_tys.iter().map(|t| self.fresh_typed("col", t)).collect();
        let nps: Vec<Param> = elem_op.params[..k].iter().map(|p| self.fresh_typed("ne", &p.ty)).collect();
        let op_lam = crate::inline::fresh_lambda(elem_op, &mut self.names);
        crate::ad::collect_types_lambda(&op_lam, &mut self.types);
        let scan = Operator {
            lambda: op_lam,
            neutral: nps.iter().map(|p| SubExp::Var(p.name)).collect(),
            commutative: op.commutative,
        };
        let id = self.identity_lambda(&col_tys.iter().map(Type::row).collect::<Vec<_>>());
        let scanned: Vec<Param> = col_tys.iter().map(|t| self.fresh_typed("scanned", t)).collect();
        let body = vec![Stm {
            pat: scanned.clone(),
            exp: Exp::Soac(Soac::Screma {
                w,
                arrs: cps.iter().map(|p| p.name).collect(),
                scans: vec![scan],
                reduces: vec![],
                map: id,
            }),
            attrs: s.attrs,
            span,
        }];
        let mut params = cps;
        params.extend(nps);
        let outer = Lambda {
            params,
            body: Body { stms: body, result: scanned.iter().map(|p| SubExp::Var(p.name)).collect() },
            ret: col_tys.clone(),
        };
        let mut in_arrs = cols;
        in_arrs.extend(ne_arrs);
        let res: Vec<Param> = col_tys.iter().map(|t| self.fresh_typed("cols", &t.array_of(m))).collect();
        out.push(Stm {
            pat: res.clone(),
            exp: Exp::Soac(Soac::Screma { w: m, arrs: in_arrs, scans: vec![], reduces: vec![], map: outer }),
            attrs: s.attrs,
            span,
        });
        for (p, r) in s.pat.iter().zip(res) {
            let mut perm: Vec<usize> = (0..p.ty.rank()).collect();
            perm.swap(0, 1);
            out.push(crate::ad::stm(p.clone(), Exp::Rearrange { array: r.name, perm }, span));
        }
        Some(out)
    }
}
