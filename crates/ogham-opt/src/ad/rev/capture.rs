//! Reductions, scans and histograms whose operators read floating-point
//! variables from outside (a soft maximum's temperature, `x + y + s·x·y`).
//!
//! The parallel rules (`reduce.rs`, `scan.rs`, `hist.rs`) differentiate an
//! operator with respect to its operands only: what every application
//! contributes to the adjoints of the variables it reads from outside
//! would be lost. Before the sweeps, `split_soacs` turns such a SOAC
//! (already one operator over its inputs, with an identity map) into the
//! sequential loop it equals (a reduction or scan folding from its first
//! element, a histogram updating its destination), whose reverse sweep
//! (checkpointed as any loop's) adds every application's contribution.
//! The loop keeps the SOAC's work but not its parallelism; forward mode
//! keeps both (it lifts such an operator to pairs, the variables' tangents
//! included). A histogram's loop reads the buckets it
//! updates, and reverse mode saves a loop's arrays once per iteration, so
//! that loop is strip-mined (`#[stripmine(2)]`): memory of about `2·√n`
//! histograms for `n` inputs, not `n`.

use ogham_ir::visit::free_vars_lambda;
use ogham_ir::{
    BinOp, Body, CmpOp, DimIndex, Exp, LoopForm, Operator, Param, PrimType, Soac, Stm, SubExp, Type, VName,
};

use crate::ad::Ad;

impl Ad {
    /// Whether `op` reads a floating-point variable (scalar or array) that
    /// it does not bind.
    fn captures_floats(&self, op: &Operator) -> bool {
        free_vars_lambda(&op.lambda).iter().any(|v| self.types.get(v).is_some_and(|t| t.elem().is_float()))
    }

    /// `s` as a sequential loop, when it is a reduce or scan of one
    /// operator with an identity map, or a histogram with an identity map,
    /// and an operator reads floating-point variables from outside (see
    /// the module documentation).
    pub(super) fn capturing_as_loop(&mut self, s: &Stm) -> Option<Vec<Stm>> {
        match &s.exp {
            Exp::Soac(Soac::Screma { w, arrs, scans, reduces, map }) => {
                let (op, is_scan) = match (scans.as_slice(), reduces.as_slice()) {
                    ([op], []) => (op, true),
                    ([], [op]) => (op, false),
                    _ => return None,
                };
                if !super::is_identity(map) || !self.captures_floats(op) {
                    return None;
                }
                let mut stms = Vec::new();
                let lp = self.fold_loop(&mut stms, s, *w, arrs, op, &map.ret, is_scan);
                stms.push(lp);
                Some(stms)
            }
            Exp::Soac(Soac::Hist { w, arrs, ops, map }) => {
                if !super::is_identity(map) || !ops.iter().any(|o| self.captures_floats(&o.op)) {
                    return None;
                }
                let mut stms = Vec::new();
                let lp = self.hist_loop(&mut stms, s, *w, arrs, ops, &map.ret);
                stms.push(lp);
                Some(stms)
            }
            _ => None,
        }
    }

    /// `reduce op ne xs` as `loop acc = xs[0] for i < w - 1 do op acc
    /// xs[i + 1]` (`ne` when `w` is 0); a scan also writes each `acc` into
    /// its result (arrays bound in `out`). Starting from the first element
    /// rather than the neutral element keeps the derivative of an
    /// application to the neutral element out (a soft maximum's at -∞ is
    /// `0·∞`).
    #[allow(clippy::too_many_arguments)]
    fn fold_loop(
        &mut self,
        out: &mut Vec<Stm>,
        s: &Stm,
        w: SubExp,
        arrs: &[VName],
        op: &Operator,
        rows: &[Type],
        is_scan: bool,
    ) -> Stm {
        let span = s.span;
        let i64t = Type::Prim(PrimType::I64);
        let mut then = Vec::new();
        let firsts = self.rows_at(&mut then, arrs, rows, SubExp::i64(0), span);
        let i = self.fresh_typed("i", &i64t);
        let mut params = Vec::new();
        let mut accs = Vec::new();
        for (row, x0) in rows.iter().zip(&firsts) {
            let acc = self.fresh_typed("acc", row);
            accs.push(SubExp::Var(acc.name));
            params.push((acc, *x0));
        }
        let mut scratch = Vec::new();
        let mut outs = Vec::new();
        if is_scan {
            for (p, x0) in s.pat.iter().zip(&firsts) {
                let e = Exp::Scratch { elem: p.ty.elem(), shape: p.ty.shape().to_vec() };
                let init = self.bind(out, "scratch", p.ty.clone(), e, span);
                scratch.push(SubExp::Var(init));
                let e = Exp::Update { array: init, slice: vec![DimIndex::Fix(SubExp::i64(0))], value: *x0 };
                let first = self.bind(&mut then, "ys", p.ty.clone(), e, span);
                let ys = self.fresh_typed("ys", &p.ty);
                outs.push(ys.name);
                params.push((ys, SubExp::Var(first)));
            }
        }
        let mut body = Vec::new();
        let next = self.bin(&mut body, BinOp::Add, PrimType::I64, SubExp::Var(i.name), SubExp::i64(1), span);
        let xs = self.rows_at(&mut body, arrs, rows, next, span);
        let mut result = self.apply_op(&mut body, op, &accs, &xs, rows, span);
        for (ys, (r, p)) in outs.iter().zip(result.clone().iter().zip(&s.pat)) {
            let upd = Exp::Update { array: *ys, slice: vec![DimIndex::Fix(next)], value: *r };
            result.push(SubExp::Var(self.bind(&mut body, "ys", p.ty.clone(), upd, span)));
        }
        let mut pat: Vec<Param> = rows.iter().map(|t| self.fresh_typed("acc", t)).collect();
        if is_scan {
            pat.extend(s.pat.iter().map(|p| self.fresh_typed("ys", &p.ty)));
        }
        let results: Vec<SubExp> =
            pat[if is_scan { rows.len() } else { 0 }..].iter().map(|p| SubExp::Var(p.name)).collect();
        let count = self.bin(&mut then, BinOp::Sub, PrimType::I64, w, SubExp::i64(1), span);
        let exp =
            Exp::Loop { params, form: LoopForm::For { i: i.name, bound: count }, body: Body { stms: body, result } };
        then.push(Stm { pat, exp, attrs: s.attrs, span });
        let nonempty = self.scalar(out, PrimType::Bool, Exp::CmpOp(CmpOp::Lt, PrimType::I64, SubExp::i64(0), w), span);
        let empty = if is_scan { scratch } else { op.neutral.clone() };
        let exp = Exp::If {
            cond: nonempty,
            then_body: Body { stms: then, result: results },
            else_body: Body { stms: vec![], result: empty },
        };
        Stm { pat: s.pat.clone(), exp, attrs: Default::default(), span }
    }

    /// A histogram as a loop over its inputs updating its destinations in
    /// place: each in-range bucket becomes `op bucket value`.
    fn hist_loop(
        &mut self,
        out: &mut Vec<Stm>,
        s: &Stm,
        w: SubExp,
        arrs: &[VName],
        ops: &[ogham_ir::HistOp],
        rows: &[Type],
    ) -> Stm {
        let span = s.span;
        let i = self.fresh_typed("i", &Type::Prim(PrimType::I64));
        let iv = SubExp::Var(i.name);
        let mut params = Vec::new();
        let mut dests = Vec::new();
        for (p, d) in s.pat.iter().zip(ops.iter().flat_map(|o| &o.dests)) {
            let dp = self.fresh_typed("dest", &p.ty);
            dests.push(dp.name);
            params.push((dp, SubExp::Var(*d)));
        }
        let mut body = Vec::new();
        let xs = self.rows_at(&mut body, arrs, rows, iv, span);
        let mut result = Vec::new();
        let (mut pos, mut dpos) = (0, 0);
        for o in ops {
            let (rank, k) = (o.shape.len(), o.dests.len());
            let idx = &xs[pos..pos + rank];
            let vals = &xs[pos + rank..pos + rank + k];
            let ds = &dests[dpos..dpos + k];
            let tys: Vec<Type> = s.pat[dpos..dpos + k].iter().map(|p| p.ty.clone()).collect();
            // Whether every index is within its dimension.
            let mut inside = SubExp::Const(ogham_ir::PrimValue::Bool(true));
            for (x, n) in idx.iter().zip(&o.shape) {
                let lo = self.scalar(
                    &mut body,
                    PrimType::Bool,
                    Exp::CmpOp(CmpOp::Le, PrimType::I64, SubExp::i64(0), *x),
                    span,
                );
                let hi = self.scalar(&mut body, PrimType::Bool, Exp::CmpOp(CmpOp::Lt, PrimType::I64, *x, *n), span);
                let both = self.bin(&mut body, BinOp::LogAnd, PrimType::Bool, lo, hi, span);
                inside = self.bin(&mut body, BinOp::LogAnd, PrimType::Bool, inside, both, span);
            }
            // Out of range, the loop reads and writes back bucket 0 (which
            // exists: the loop runs only when every dimension has a
            // bucket), so each iteration is one read and one in-place
            // write, which reverse mode undoes element by element instead
            // of saving the whole histogram per iteration.
            let mut slice = Vec::new();
            for x in idx {
                let j = self.select(&mut body, PrimType::I64, inside, *x, SubExp::i64(0), span);
                slice.push(DimIndex::Fix(j));
            }
            let elems: Vec<Type> = tys.iter().map(|t| (0..rank).fold(t.clone(), |t, _| t.row())).collect();
            let mut cur = Vec::new();
            for (d, t) in ds.iter().zip(&elems) {
                let e = Exp::Index { array: *d, slice: slice.clone() };
                cur.push(SubExp::Var(self.bind(&mut body, "bucket", t.clone(), e, span)));
            }
            let new = self.apply_op(&mut body, &o.op, &cur, vals, &elems, span);
            for (((d, t), (n, c)), e) in ds.iter().zip(&tys).zip(new.iter().zip(&cur)).zip(&elems) {
                let v = self.either(&mut body, e, inside, *n, *c, span);
                let e = Exp::Update { array: *d, slice: slice.clone(), value: v };
                result.push(SubExp::Var(self.bind(&mut body, "dest", t.clone(), e, span)));
            }
            pos += rank + k;
            dpos += k;
        }
        // No iterations where an operator has no buckets.
        let mut count = w;
        for n in ops.iter().flat_map(|o| &o.shape) {
            let some = self.scalar(out, PrimType::Bool, Exp::CmpOp(CmpOp::Lt, PrimType::I64, SubExp::i64(0), *n), span);
            count = self.select(out, PrimType::I64, some, count, SubExp::i64(0), span);
        }
        let exp =
            Exp::Loop { params, form: LoopForm::For { i: i.name, bound: count }, body: Body { stms: body, result } };
        // The loop reads the histogram it updates, so reverse mode saves it
        // per iteration: strip-mined in two levels, about 2·√n copies of
        // it instead of n, for three runs of the loop.
        let attrs = ogham_ir::StmAttrs { stripmine: Some(2), ..s.attrs };
        Stm { pat: s.pat.clone(), exp, attrs, span }
    }

    /// Element `i` of each of `arrs` (of types `rows`), bound in `out`.
    fn rows_at(
        &mut self,
        out: &mut Vec<Stm>,
        arrs: &[VName],
        rows: &[Type],
        i: SubExp,
        span: ogham_ir::Span,
    ) -> Vec<SubExp> {
        let mut xs = Vec::new();
        for (a, row) in arrs.iter().zip(rows) {
            let e = Exp::Index { array: *a, slice: vec![DimIndex::Fix(i)] };
            xs.push(SubExp::Var(self.bind(out, "x", row.clone(), e, span)));
        }
        xs
    }
}
