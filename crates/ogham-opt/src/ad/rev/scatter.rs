//! The return sweep of `scatter`, of any number of destinations, indices
//! per destination and dimensions per value (seed 004 §4.5): the forward
//! sweep saved the elements each destination loses (zero where an index is
//! out of range); the return sweep gives each value the adjoint of the
//! element it wrote, clears those elements of the destination's adjoint,
//! and restores the destination by scattering the saved elements back.
//! Scatter's contract allows duplicate indices only with equal values;
//! exactly one of them wrote, and only that one gets the adjoint (found by
//! scattering the positions the same way).

use ogham_ir::{BinOp, Body, CmpOp, DimIndex, Exp, Lambda, Param, PrimType, Soac, Span, Stm, SubExp, Type, VName};

use super::{unsupported, var_of, Adjoints, Checkpoints, R};
use crate::ad::Ad;

/// The most values of a scatter whose landing positions the return sweep
/// finds by comparing them pairwise ([`Ad::gather_written`]).
pub(super) const FEW_WRITES: i64 = 16;

/// `ty` without its `k` outer dimensions.
pub(in crate::ad) fn drop_dims(ty: &Type, k: usize) -> Type {
    if k >= ty.rank() {
        Type::Prim(ty.elem())
    } else {
        Type::Array { elem: ty.elem(), shape: ty.shape()[k..].to_vec() }
    }
}

impl Ad {
    /// Per destination of a scatter with an identity lambda: its index
    /// arrays and its value array.
    pub(super) fn scatter_parts(&self, arrs: &[VName], dests: &[VName]) -> Vec<(Vec<VName>, VName)> {
        let ret: Vec<Type> = arrs.iter().map(|a| self.types[a].row()).collect();
        let ranks = dests.iter().map(|d| self.types[d].rank());
        let Some(ks) = ogham_ir::scatter_layout(&ret, ranks) else { return Vec::new() };
        let mut pos = 0;
        let mut parts = Vec::new();
        for k in ks {
            parts.push((arrs[pos..pos + k].to_vec(), arrs[pos + k]));
            pos += k + 1;
        }
        parts
    }

    pub(super) fn rev_scatter(
        &mut self,
        s: &Stm,
        w: SubExp,
        arrs: &[VName],
        ck: &Checkpoints,
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<Vec<(VName, VName)>> {
        let span = s.span;
        let Exp::Soac(Soac::Scatter { dests, .. }) = &s.exp else { return Ok(Vec::new()) };
        let Some(saved) = ck.scatters.get(&s.pat[0].name).cloned() else {
            return Err(unsupported(span, "`scatter` computing its indices and values in its lambda"));
        };
        let parts = self.scatter_parts(arrs, dests);
        let mut restores = Vec::new();
        for ((p, (xs, old)), (idx, vs)) in s.pat.iter().zip(saved).zip(parts) {
            let y = p.name;
            let ty = self.types[&y].clone();
            let elem = drop_dims(&ty, idx.len());
            if adj.of.contains_key(&y) {
                let ybar = self.owned_adjoint(out, adj, y, span);
                let vbar = self.gather_written(out, ybar, &idx, w, &elem, span);
                self.add(out, adj, vs, SubExp::Var(vbar), span);
                let zeros = self.zero(out, &elem.array_of(w), span);
                let cleared = self.scatter_nd(out, ybar, &idx, zeros, w, &ty, span);
                adj.owned.insert(cleared);
                adj.of.remove(&y);
                self.add(out, adj, xs, SubExp::Var(cleared), span);
            }
            let from = self.restore_target(out, ck, y, span);
            let restored = self.scatter_nd(out, from, &idx, SubExp::Var(old), w, &ty, span);
            restores.push((xs, restored));
        }
        Ok(restores)
    }

    /// `ȳ` at the indices `idx`, for the positions whose write landed
    /// (zero for the others and out of range). Which of several positions
    /// with the same index landed is found by scattering the positions
    /// into an array of the destination's shape, or, for at most
    /// [`FEW_WRITES`] positions (a constant), by comparing each with the
    /// ones after it, the last of equal ones landing: their values are
    /// equal by scatter's contract, so either way exactly one gets the
    /// adjoint, and a scatter of a few values in a loop costs no array of
    /// the destination's size per iteration.
    fn gather_written(
        &mut self,
        out: &mut Vec<Stm>,
        ybar: VName,
        idx: &[VName],
        w: SubExp,
        elem: &Type,
        span: Span,
    ) -> VName {
        let i64t = Type::Prim(PrimType::I64);
        let ty = self.types[&ybar].clone();
        let few = matches!(w, SubExp::Const(ogham_ir::PrimValue::I64(k)) if k <= FEW_WRITES);
        let iota = self.indices(out, w, span);
        let writers = if few {
            None
        } else {
            let wshape = ty.shape()[..idx.len()].to_vec();
            let wty = Type::Array { elem: PrimType::I64, shape: wshape.clone() };
            let none =
                self.bind(out, "writer", wty.clone(), Exp::Replicate { shape: wshape, value: SubExp::i64(-1) }, span);
            Some(self.scatter_nd(out, none, idx, SubExp::Var(iota), w, &wty, span))
        };
        let jp = self.fresh_typed("j", &i64t);
        let ips: Vec<Param> = idx.iter().map(|_| self.fresh_typed("i", &i64t)).collect();
        let mut body = Vec::new();
        let ok = self.in_range(&mut body, &ips, ty.shape(), span);
        let fix: Vec<DimIndex> = ips.iter().map(|p| DimIndex::Fix(SubExp::Var(p.name))).collect();
        let mut then = Vec::new();
        let won = match writers {
            Some(writers) => {
                let index = Exp::Index { array: writers, slice: fix.clone() };
                let who = self.bind(&mut then, "who", i64t.clone(), index, span);
                self.cmp(&mut then, CmpOp::Eq, PrimType::I64, SubExp::Var(who), SubExp::Var(jp.name), span)
            }
            None => self.last_of_equal(&mut then, idx, &ips, jp.name, w, span),
        };
        let mut read = Vec::new();
        let got = self.bind(&mut read, "got", elem.clone(), Exp::Index { array: ybar, slice: fix }, span);
        let mut other = Vec::new();
        let z = self.zero(&mut other, elem, span);
        let inner = self.bind(
            &mut then,
            "written",
            elem.clone(),
            Exp::If {
                cond: won,
                then_body: Body { stms: read, result: vec![SubExp::Var(got)] },
                else_body: Body { stms: other, result: vec![z] },
            },
            span,
        );
        let mut other = Vec::new();
        let z = self.zero(&mut other, elem, span);
        let v = self.bind(
            &mut body,
            "gathered",
            elem.clone(),
            Exp::If {
                cond: ok,
                then_body: Body { stms: then, result: vec![SubExp::Var(inner)] },
                else_body: Body { stms: other, result: vec![z] },
            },
            span,
        );
        let mut params = vec![jp];
        params.extend(ips);
        let lam = Lambda { params, body: Body { stms: body, result: vec![SubExp::Var(v)] }, ret: vec![elem.clone()] };
        let mut in_arrs = vec![iota];
        in_arrs.extend(idx);
        let exp = Exp::Soac(Soac::Screma { w, arrs: in_arrs, scans: vec![], reduces: vec![], map: lam });
        self.bind(out, "gathered", elem.array_of(w), exp, span)
    }

    /// Whether no position after `j` (of `w`) has the indices `ips`: a
    /// loop over the positions.
    fn last_of_equal(
        &mut self,
        out: &mut Vec<Stm>,
        idx: &[VName],
        ips: &[Param],
        j: VName,
        w: SubExp,
        span: Span,
    ) -> SubExp {
        let boolt = Type::Prim(PrimType::Bool);
        let later = self.fresh_typed("later", &boolt);
        let k = self.names.fresh("k");
        self.types.insert(k, Type::Prim(PrimType::I64));
        let mut body = Vec::new();
        let mut same = self.cmp(&mut body, CmpOp::Lt, PrimType::I64, SubExp::Var(j), SubExp::Var(k), span);
        for (is, p) in idx.iter().zip(ips) {
            let slice = vec![DimIndex::Fix(SubExp::Var(k))];
            let at = self.bind(&mut body, "other", Type::Prim(PrimType::I64), Exp::Index { array: *is, slice }, span);
            let eq = self.cmp(&mut body, CmpOp::Eq, PrimType::I64, SubExp::Var(at), SubExp::Var(p.name), span);
            same = self.bin(&mut body, BinOp::LogAnd, PrimType::Bool, same, eq, span);
        }
        let any = self.bin(&mut body, BinOp::LogOr, PrimType::Bool, SubExp::Var(later.name), same, span);
        let found = self.fresh_typed("later", &boolt);
        let exp = Exp::Loop {
            params: vec![(later, SubExp::Const(ogham_ir::PrimValue::Bool(false)))],
            form: ogham_ir::LoopForm::For { i: k, bound: w },
            body: Body { stms: body, result: vec![any] },
        };
        out.push(Stm { pat: vec![found.clone()], exp, attrs: Default::default(), span });
        self.scalar(out, PrimType::Bool, Exp::UnOp(ogham_ir::UnOp::Not, PrimType::Bool, SubExp::Var(found.name)), span)
    }

    /// Whether every index is within its dimension.
    fn in_range(&mut self, out: &mut Vec<Stm>, is: &[Param], shape: &[SubExp], span: Span) -> SubExp {
        let mut ok = SubExp::Const(ogham_ir::PrimValue::Bool(true));
        for (p, n) in is.iter().zip(shape) {
            let i = SubExp::Var(p.name);
            let ge = self.scalar(out, PrimType::Bool, Exp::CmpOp(CmpOp::Le, PrimType::I64, SubExp::i64(0), i), span);
            let lt = self.scalar(out, PrimType::Bool, Exp::CmpOp(CmpOp::Lt, PrimType::I64, i, *n), span);
            let both = self.bin(out, BinOp::LogAnd, PrimType::Bool, ge, lt, span);
            ok = self.bin(out, BinOp::LogAnd, PrimType::Bool, ok, both, span);
        }
        ok
    }

    /// `map (\i -> if 0 <= i < n then xs[i] else 0) is`, for `xs: [n]elem`
    /// (`elem` a scalar or a row).
    pub(super) fn gather(
        &mut self,
        out: &mut Vec<Stm>,
        xs: VName,
        is: VName,
        w: SubExp,
        elem: &Type,
        span: Span,
    ) -> VName {
        self.gather_nd(out, xs, &[is], w, elem, span)
    }

    /// `xs` at the indices `is` (one array per leading dimension), zero
    /// out of range.
    pub(super) fn gather_nd(
        &mut self,
        out: &mut Vec<Stm>,
        xs: VName,
        is: &[VName],
        w: SubExp,
        elem: &Type,
        span: Span,
    ) -> VName {
        let shape = self.types[&xs].shape().to_vec();
        let ips: Vec<Param> = is.iter().map(|_| self.fresh_typed("i", &Type::Prim(PrimType::I64))).collect();
        let mut body = Vec::new();
        let ok = self.in_range(&mut body, &ips, &shape, span);
        let mut then = Vec::new();
        let slice = ips.iter().map(|p| DimIndex::Fix(SubExp::Var(p.name))).collect();
        let got = self.bind(&mut then, "got", elem.clone(), Exp::Index { array: xs, slice }, span);
        let mut other = Vec::new();
        let z = self.zero(&mut other, elem, span);
        let exp = Exp::If {
            cond: ok,
            then_body: Body { stms: then, result: vec![SubExp::Var(got)] },
            else_body: Body { stms: other, result: vec![z] },
        };
        let v = self.bind(&mut body, "gathered", elem.clone(), exp, span);
        let lam =
            Lambda { params: ips, body: Body { stms: body, result: vec![SubExp::Var(v)] }, ret: vec![elem.clone()] };
        let exp = Exp::Soac(Soac::Screma { w, arrs: is.to_vec(), scans: vec![], reduces: vec![], map: lam });
        self.bind(out, "gathered", elem.array_of(w), exp, span)
    }

    /// `scatter dest is vs` (consuming `dest`, one index array).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn scatter_into(
        &mut self,
        out: &mut Vec<Stm>,
        dest: VName,
        is: VName,
        vs: SubExp,
        w: SubExp,
        ty: &Type,
        span: Span,
    ) -> VName {
        self.scatter_nd(out, dest, &[is], vs, w, ty, span)
    }

    /// `scatter dest is vs` with one index array per leading dimension of
    /// `dest` written (consuming `dest`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn scatter_nd(
        &mut self,
        out: &mut Vec<Stm>,
        dest: VName,
        is: &[VName],
        vs: SubExp,
        w: SubExp,
        ty: &Type,
        span: Span,
    ) -> VName {
        let exp = self.scatter_exp(dest, is, vs, w, ty);
        self.bind(out, "scattered", ty.clone(), exp, span)
    }

    /// The expression of [`Ad::scatter_nd`].
    pub(super) fn scatter_exp(&mut self, dest: VName, is: &[VName], vs: SubExp, w: SubExp, ty: &Type) -> Exp {
        let i64t = Type::Prim(PrimType::I64);
        let elem = drop_dims(ty, is.len());
        let mut params: Vec<Param> = is.iter().map(|_| self.fresh_typed("i", &i64t)).collect();
        params.push(self.fresh_typed("v", &elem));
        let mut ret = vec![i64t; is.len()];
        ret.push(elem);
        let result = params.iter().map(|p| SubExp::Var(p.name)).collect();
        let lam = Lambda { params, body: Body { stms: vec![], result }, ret };
        let mut arrs = is.to_vec();
        arrs.push(var_of(vs));
        Exp::Soac(Soac::Scatter { w, arrs, dests: vec![dest], map: lam })
    }
}
