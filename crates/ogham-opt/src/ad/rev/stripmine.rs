//! Strip-mining (seed 004 §3.4, Fig. 3.7c): under `vjp`, a `for` loop
//! marked `#[stripmine(k)]` runs as a nest of `k` loops of `m` iterations
//! each, `m` the least with `mᵏ ≥ n`; the innermost runs the original
//! body for iteration `i = ((i₁·m + i₂)·m + …)·m + iₖ` when `i < n`. Each
//! loop of the nest checkpoints its own parameters when reverse mode
//! reaches it, so the checkpoints take memory ∝ `k·m` instead of `n`, and
//! the body runs at most `k + 1` times per iteration.

use ogham_ir::{BinOp, Body, CmpOp, Exp, LoopForm, Param, PrimType, Stm, StmAttrs, SubExp, Type};

use crate::ad::{stm, Ad};

impl Ad {
    /// The nest replacing `s` when it is a strip-mined `for` loop of depth
    /// two or more: the statements computing `m`, then the nest (binding
    /// `s`'s pattern).
    pub(super) fn stripmined(&mut self, s: &Stm) -> Option<Vec<Stm>> {
        let k = s.attrs.stripmine.filter(|&k| k >= 2)? as usize;
        let Exp::Loop { params, form: LoopForm::For { i, bound: n }, body } = &s.exp else { return None };
        let span = s.span;
        let i64t = PrimType::I64;
        let mut out = Vec::new();
        // m: the least with mᵏ ≥ n, counted up from 1 (about n^(1/k) steps).
        let m0 = self.fresh_typed_param("m", i64t);
        let go0 = self.fresh_typed_param("more", PrimType::Bool);
        let mut cbody = Vec::new();
        let next = self.bin(&mut cbody, BinOp::Add, i64t, SubExp::Var(m0.name), SubExp::i64(1), span);
        let mut pow = SubExp::i64(1);
        for _ in 0..k {
            pow = self.bin(&mut cbody, BinOp::Mul, i64t, pow, next, span);
        }
        let more = self.fresh_typed_param("more", PrimType::Bool);
        cbody.push(stm(more.clone(), Exp::CmpOp(CmpOp::Lt, i64t, pow, *n), span));
        let below = self.fresh_typed_param("more", PrimType::Bool);
        out.push(stm(below.clone(), Exp::CmpOp(CmpOp::Lt, i64t, SubExp::i64(1), *n), span));
        let m = self.fresh_typed_param("m", i64t);
        let go = self.fresh_typed_param("more", PrimType::Bool);
        out.push(Stm {
            pat: vec![m.clone(), go],
            exp: Exp::Loop {
                params: vec![(m0.clone(), SubExp::i64(1)), (go0.clone(), SubExp::Var(below.name))],
                form: LoopForm::While { cond: go0.name },
                body: Body { stms: cbody, result: vec![next, SubExp::Var(more.name)] },
            },
            attrs: StmAttrs::default(),
            span,
        });
        let m = SubExp::Var(m.name);
        // The innermost body: the flat index, then the original body if in range.
        let idx: Vec<Param> = (0..k).map(|_| self.fresh_typed_param("strip", i64t)).collect();
        let mut inner = Vec::new();
        let mut flat = SubExp::Var(idx[0].name);
        for p in &idx[1..] {
            let scaled = self.bin(&mut inner, BinOp::Mul, i64t, flat, m, span);
            flat = self.bin(&mut inner, BinOp::Add, i64t, scaled, SubExp::Var(p.name), span);
        }
        inner.push(stm(Param { name: *i, ty: Type::Prim(i64t) }, Exp::SubExp(flat), span));
        let in_range = self.fresh_typed_param("in_range", PrimType::Bool);
        inner.push(stm(in_range.clone(), Exp::CmpOp(CmpOp::Lt, i64t, SubExp::Var(*i), *n), span));
        let orig: Vec<Param> = params.iter().map(|(p, _)| p.clone()).collect();
        let step: Vec<Param> = orig.iter().map(|p| self.fresh_param(p)).collect();
        inner.push(Stm {
            pat: step.clone(),
            exp: Exp::If {
                cond: SubExp::Var(in_range.name),
                then_body: body.clone(),
                else_body: Body { stms: vec![], result: orig.iter().map(|p| SubExp::Var(p.name)).collect() },
            },
            attrs: StmAttrs::default(),
            span,
        });
        // Loops from the innermost out: level j's parameters are the
        // original ones innermost, fresh copies elsewhere.
        let mut level_params = orig.clone();
        let mut level_body = Body { stms: inner, result: step.iter().map(|p| SubExp::Var(p.name)).collect() };
        for j in (0..k).rev() {
            let outer: Vec<Param> =
                if j == 0 { Vec::new() } else { orig.iter().map(|p| self.fresh_param(p)).collect() };
            let inits: Vec<SubExp> = if j == 0 {
                params.iter().map(|(_, init)| *init).collect()
            } else {
                outer.iter().map(|p| SubExp::Var(p.name)).collect()
            };
            let pat: Vec<Param> =
                if j == 0 { s.pat.clone() } else { orig.iter().map(|p| self.fresh_param(p)).collect() };
            let lp = Stm {
                pat: pat.clone(),
                exp: Exp::Loop {
                    params: level_params.into_iter().zip(inits).collect(),
                    form: LoopForm::For { i: idx[j].name, bound: m },
                    body: level_body,
                },
                // The innermost level keeps its checkpoints; the others
                // run it again (see `StmAttrs::stripmine`).
                attrs: StmAttrs { stripmine: (j + 1 < k).then_some(1), ..s.attrs },
                span,
            };
            if j == 0 {
                out.push(lp);
                break;
            }
            level_body = Body { stms: vec![lp], result: pat.iter().map(|p| SubExp::Var(p.name)).collect() };
            level_params = outer;
        }
        Some(out)
    }

    fn fresh_typed_param(&mut self, base: &str, t: PrimType) -> Param {
        let name = self.names.fresh(base);
        self.types.insert(name, Type::Prim(t));
        Param { name, ty: Type::Prim(t) }
    }
}
