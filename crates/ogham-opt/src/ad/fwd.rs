//! Forward mode: a `jvp` becomes its function's statements, each followed
//! by the statements that compute the tangents of the values it binds
//! (seed 004 §2.1, Fig. 3.2; the dual-number rules).
//!
//! As in Futhark, every value has a tangent of its own type: integers are
//! differentiated by the same rules as floats (`jvp (\x -> x * x) 3i32 1`
//! is 6), with Futhark's choices where the rules differ (integer division,
//! shifts, booleans: see [`Ad::discrete_binop`]); comparisons, rounding,
//! `sgn` and bitwise operations have zero tangents, and a conversion
//! converts the tangent.
//!
//! - Scalar operations follow their derivatives (`d(a*b) = da*b + a*db`,
//!   `d(sin a) = cos a * da`, …); a missing tangent is zero and drops its
//!   term (the partials are [`super::rules`]').
//! - Arrays: indexing, slicing, reshaping, transposing, concatenation,
//!   copies, literals and `replicate` do the same to the tangents; an
//!   in-place update updates the tangent array in place, copying it first
//!   unless this pass built it (so a seed is never consumed).
//! - `if` returns the tangents its branches compute; a loop carries a
//!   tangent for each floating-point parameter whose value can have one
//!   (found by iterating to a fixed point); a call calls the function's
//!   derivative (see [`super::Ad::derivative`]).
//! - SOACs take the tangents of their inputs as extra inputs. The lambda
//!   of a `map` is differentiated; the operator of a `reduce`, `scan` or
//!   `hist` is lifted to (value, tangent) pairs with neutral element
//!   (ne, 0), which keeps it associative and commutative when it was; a
//!   `scatter` also writes the tangents of its values into the tangent of
//!   its destination.

use ogham_ir::visit::{consumed_deep, substitute_type};
use ogham_ir::{Body, Exp, HistOp, Lambda, LoopForm, Operator, Param, PrimType, Soac, Span, Stm, SubExp, Type, VName};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{internal, stm, Ad};
use crate::Rejection;

type R<T> = Result<T, Rejection>;

/// A body's statements with their tangents, its results, and the tangents
/// of its results (`None`: zero).
type Swept = (Vec<Stm>, Vec<SubExp>, Vec<Option<SubExp>>);

/// A SOAC's map function's results with their tangents, its return
/// types, and the statement's pattern.
struct Mapped<'a> {
    results: &'a [SubExp],
    tangents: &'a [Option<SubExp>],
    ret: &'a [Type],
    pat: &'a [Param],
}

/// The tangents known in a scope. Names are unique, so nested scopes
/// start from a copy of their parent's.
#[derive(Clone, Default)]
struct Tangents {
    of: HashMap<VName, SubExp>,
    /// Tangent arrays built by this pass (not seeds, views or results of
    /// calls), which an in-place update may consume.
    owned: HashSet<VName>,
}

impl Ad {
    /// `jvp` of `lambda` at `args` in the direction `seeds`, binding `pat`
    /// (the results, then their tangents).
    pub(crate) fn jvp(
        &mut self,
        pat: &[Param],
        lambda: Lambda,
        args: Vec<SubExp>,
        seeds: Vec<SubExp>,
        span: Span,
    ) -> R<Vec<Stm>> {
        let mut out = Vec::new();
        let mut tan = Tangents::default();
        for ((p, a), s) in lambda.params.iter().zip(args).zip(seeds) {
            out.push(stm(p.clone(), Exp::SubExp(a), span));
            tan.of.insert(p.name, s);
        }
        let (stms, results, tangents) = self.body(lambda.body, &mut tan)?;
        out.extend(stms);
        let k = results.len();
        if pat.len() != 2 * k {
            return Err(internal(span, format!("jvp binds {} values for {k} results", pat.len())));
        }
        for (p, r) in pat.iter().zip(results) {
            out.push(stm(p.clone(), Exp::SubExp(r), span));
        }
        for (p, t) in pat[k..].iter().zip(tangents) {
            let t = self.or_zero(&mut out, t, &p.ty, span);
            out.push(stm(p.clone(), Exp::SubExp(t), span));
        }
        Ok(out)
    }

    /// The statements of `body` with their tangents, its results, and the
    /// tangents of its results (`None`: zero).
    fn body(&mut self, body: Body, tan: &mut Tangents) -> R<Swept> {
        let mut out = Vec::new();
        for s in body.stms {
            self.stm(s, tan, &mut out)?;
        }
        let tangents = body.result.iter().map(|r| tangent_of(tan, r)).collect();
        Ok((out, body.result, tangents))
    }

    /// The tangent of `se`, zero if it has none (a new array is owned).
    fn tangent(&mut self, out: &mut Vec<Stm>, tan: &mut Tangents, se: &SubExp, span: Span) -> SubExp {
        if let Some(t) = tangent_of(tan, se) {
            return t;
        }
        let ty = self.type_of(se);
        let z = self.zero(out, &ty, span);
        if let SubExp::Var(v) = z {
            tan.owned.insert(v);
        }
        z
    }

    /// The tangent of array `a`, one that may be updated in place.
    fn owned_tangent(&mut self, out: &mut Vec<Stm>, tan: &mut Tangents, a: VName, span: Span) -> VName {
        let t = self.tangent(out, tan, &SubExp::Var(a), span);
        let SubExp::Var(t) = t else { return a };
        if tan.owned.contains(&t) {
            return t;
        }
        let ty = self.type_of(&SubExp::Var(t));
        let c = self.bind(out, "dcopy", ty, Exp::Copy(t), span);
        tan.owned.insert(c);
        c
    }

    /// Σ pᵢ · dᵢ over the pairs where both are present (`None`: zero).
    fn combine(
        &mut self,
        out: &mut Vec<Stm>,
        t: PrimType,
        terms: &[(Option<SubExp>, Option<SubExp>)],
        span: Span,
    ) -> Option<SubExp> {
        let mut acc = None;
        for (p, d) in terms {
            let (Some(p), Some(d)) = (p, d) else { continue };
            let x = self.times(out, t, *p, *d, span);
            acc = Some(match acc {
                None => x,
                Some(a) => self.plus(out, t, a, x, span),
            });
        }
        acc
    }

    /// One statement and its tangents.
    fn stm(&mut self, s: Stm, tan: &mut Tangents, out: &mut Vec<Stm>) -> R<()> {
        match &s.exp {
            // Forward mode differentiates a custom derivative's function.
            Exp::Ad { mode: ogham_ir::AdMode::CustomVjp, .. } => {
                for p in self.custom_primal(&s) {
                    self.stm(p, tan, out)?;
                }
                return Ok(());
            }
            Exp::If { .. } => return self.if_(s, tan, out),
            Exp::Loop { .. } => return self.loop_(s, tan, out),
            Exp::Soac(_) => {
                if let Some(soacs) =
                    super::withacc::combines_nonlinearly(&s.exp).then(|| self.withacc_as_soacs(&s)).flatten()
                {
                    for st in soacs {
                        self.stm(st, tan, out)?;
                    }
                    return Ok(());
                }
                return self.soac(s, tan, out);
            }
            Exp::Apply { .. } => return self.apply(s, tan, out),
            _ => {}
        }
        let span = s.span;
        let attrs = s.attrs;
        let pat = s.pat.clone();
        let exp = s.exp.clone();
        out.push(s);
        let Some(first) = pat.first() else { return Ok(()) };
        let (v, vty) = (first.name, first.ty.clone());
        let t = vty.elem();
        let result: Option<SubExp> = match exp {
            Exp::SubExp(x) => tangent_of(tan, &x),
            Exp::BinOp(op, _, a, b) => {
                let (da, db) = (tangent_of(tan, &a), tangent_of(tan, &b));
                if da.is_none() && db.is_none() {
                    None
                } else {
                    let (pa, pb) = self.binop_partials(out, op, t, a, b, v, span)?;
                    self.combine(out, t, &[(pa, da), (pb, db)], span)
                }
            }
            Exp::UnOp(op, _, a) => match tangent_of(tan, &a) {
                None => None,
                Some(da) => self.unop_partial(out, op, t, a, v, span)?.map(|p| self.times(out, t, p, da, span)),
            },
            Exp::TernOp(op, _, a, b, c) => {
                let ds = [tangent_of(tan, &a), tangent_of(tan, &b), tangent_of(tan, &c)];
                if ds.iter().all(Option::is_none) {
                    None
                } else {
                    let ps = self.ternop_partials(out, op, t, [a, b, c], span);
                    self.combine(out, t, &[(ps[0], ds[0]), (ps[1], ds[1]), (ps[2], ds[2])], span)
                }
            }
            Exp::Conv(op, from, to, a) => {
                tangent_of(tan, &a).map(|da| self.scalar(out, to, Exp::Conv(op, from, to, da), span))
            }
            Exp::Index { array, slice } => match tangent_of(tan, &SubExp::Var(array)) {
                Some(SubExp::Var(ta)) => {
                    let i = self.bind(out, "didx", vty.clone(), Exp::Index { array: ta, slice }, span);
                    out.last_mut().expect("just bound").attrs = attrs;
                    Some(SubExp::Var(i))
                }
                _ => None,
            },
            Exp::Update { array, slice, value } => {
                if tangent_of(tan, &SubExp::Var(array)).is_none() && tangent_of(tan, &value).is_none() {
                    None
                } else {
                    let ta = self.owned_tangent(out, tan, array, span);
                    let tv = self.tangent(out, tan, &value, span);
                    let u = self.bind(out, "dupd", vty.clone(), Exp::Update { array: ta, slice, value: tv }, span);
                    out.last_mut().expect("just bound").attrs = attrs;
                    tan.owned.insert(u);
                    Some(SubExp::Var(u))
                }
            }
            // Overwriting and adding are linear: the tangent is updated alike.
            Exp::UpdAcc { acc, slice, value, op } => {
                if !matches!(op, None | Some(ogham_ir::BinOp::Add)) {
                    return Err(unsupported(span, "an accumulator combining with an operator other than `+`"));
                }
                if tangent_of(tan, &SubExp::Var(acc)).is_none() && tangent_of(tan, &value).is_none() {
                    None
                } else {
                    let ta = self.owned_tangent(out, tan, acc, span);
                    let tv = self.tangent(out, tan, &value, span);
                    let u = self.bind(out, "dupd", vty.clone(), Exp::UpdAcc { acc: ta, slice, value: tv, op }, span);
                    tan.owned.insert(u);
                    Some(SubExp::Var(u))
                }
            }
            Exp::Replicate { shape, value } => tangent_of(tan, &value).map(|dv| {
                let r = self.bind(out, "drep", vty.clone(), Exp::Replicate { shape, value: dv }, span);
                tan.owned.insert(r);
                SubExp::Var(r)
            }),
            Exp::Reshape { array, shape } => match tangent_of(tan, &SubExp::Var(array)) {
                Some(SubExp::Var(ta)) => {
                    Some(SubExp::Var(self.bind(out, "dreshape", vty.clone(), Exp::Reshape { array: ta, shape }, span)))
                }
                _ => None,
            },
            Exp::Rearrange { array, perm } => match tangent_of(tan, &SubExp::Var(array)) {
                Some(SubExp::Var(ta)) => {
                    Some(SubExp::Var(self.bind(out, "dtr", vty.clone(), Exp::Rearrange { array: ta, perm }, span)))
                }
                _ => None,
            },
            Exp::Copy(a) => match tangent_of(tan, &SubExp::Var(a)) {
                Some(SubExp::Var(ta)) => {
                    let c = self.bind(out, "dcopy", vty.clone(), Exp::Copy(ta), span);
                    tan.owned.insert(c);
                    Some(SubExp::Var(c))
                }
                _ => None,
            },
            Exp::Concat { dim, arrays, len } => {
                if arrays.iter().all(|a| tangent_of(tan, &SubExp::Var(*a)).is_none()) {
                    None
                } else {
                    let mut ts = Vec::new();
                    for a in &arrays {
                        match self.tangent(out, tan, &SubExp::Var(*a), span) {
                            SubExp::Var(x) => ts.push(x),
                            SubExp::Const(_) => return Err(internal(span, "a scalar tangent of an array".into())),
                        }
                    }
                    let c = self.bind(out, "dconcat", vty.clone(), Exp::Concat { dim, arrays: ts, len }, span);
                    tan.owned.insert(c);
                    Some(SubExp::Var(c))
                }
            }
            Exp::ArrayLit { elems, elem_ty } => {
                if elems.iter().all(|e| tangent_of(tan, e).is_none()) {
                    None
                } else {
                    let mut ts = Vec::new();
                    for e in &elems {
                        ts.push(self.tangent(out, tan, e, span));
                    }
                    let a = self.bind(out, "dlit", vty.clone(), Exp::ArrayLit { elems: ts, elem_ty }, span);
                    tan.owned.insert(a);
                    Some(SubExp::Var(a))
                }
            }
            Exp::Certify { values, .. } => {
                for (p, x) in pat.iter().zip(&values) {
                    if let Some(dx) = tangent_of(tan, x) {
                        tan.of.insert(p.name, dx);
                    }
                }
                None
            }
            Exp::Iota { .. } | Exp::Scratch { .. } | Exp::CmpOp(..) | Exp::Assert { .. } | Exp::UserParam { .. } => {
                None
            }
            Exp::Ad { .. } | Exp::If { .. } | Exp::Loop { .. } | Exp::Soac(_) | Exp::Apply { .. } => {
                return Err(internal(span, "statement handled elsewhere".into()))
            }
        };
        if let Some(r) = result {
            tan.of.insert(v, r);
        }
        Ok(())
    }

    fn apply(&mut self, s: Stm, tan: &mut Tangents, out: &mut Vec<Stm>) -> R<()> {
        let Exp::Apply { func, args } = &s.exp else { return Err(internal(s.span, "not a call".into())) };
        if args.iter().all(|a| tangent_of(tan, a).is_none()) {
            out.push(s);
            return Ok(());
        }
        let span = s.span;
        let dname = self.derivative(func, span)?;
        let params = self.param_types(func);
        let mut all = args.clone();
        if params.len() != args.len() {
            return Err(internal(span, format!("a call of `{func}` with {} arguments", args.len())));
        }
        for a in args {
            all.push(self.tangent(out, tan, a, span));
        }
        let mut pat = s.pat.clone();
        for p in &s.pat {
            let dp = self.fresh_param(p);
            tan.of.insert(p.name, SubExp::Var(dp.name));
            pat.push(dp);
        }
        out.push(Stm { pat, exp: Exp::Apply { func: dname, args: all }, attrs: s.attrs, span });
        Ok(())
    }

    fn if_(&mut self, s: Stm, tan: &mut Tangents, out: &mut Vec<Stm>) -> R<()> {
        let Exp::If { cond, then_body, else_body } = s.exp else { return Err(internal(s.span, "not an if".into())) };
        let span = s.span;
        let mut tt = tan.clone();
        let (mut ts, mut tr, tt_res) = self.body(then_body, &mut tt)?;
        let mut et = tan.clone();
        let (mut es, mut er, et_res) = self.body(else_body, &mut et)?;
        // A result's type may name sizes the `if` itself binds (an
        // existential size): in a branch, those are the branch's results.
        let in_branch = |results: &[SubExp], ty: &Type| {
            let mut ty = ty.clone();
            substitute_type(&mut ty, &|v| s.pat.iter().position(|q| q.name == v).map(|j| results[j]));
            ty
        };
        let mut pat = s.pat.clone();
        for (i, p) in s.pat.iter().enumerate() {
            if tt_res[i].is_none() && et_res[i].is_none() {
                continue;
            }
            let (t_ty, e_ty) = (in_branch(&tr, &p.ty), in_branch(&er, &p.ty));
            let x = self.or_zero(&mut ts, tt_res[i], &t_ty, span);
            let y = self.or_zero(&mut es, et_res[i], &e_ty, span);
            // Fresh in both branches (a new zero, or owned there: the
            // tangent of an accumulator, which must not be copied), so the
            // result is too.
            let fresh = |r: Option<SubExp>, v: SubExp, owned: &HashSet<VName>| {
                r.is_none() || v.as_var().is_some_and(|v| owned.contains(&v))
            };
            let owned = p.ty.rank() > 0 && fresh(tt_res[i], x, &tt.owned) && fresh(et_res[i], y, &et.owned);
            tr.push(x);
            er.push(y);
            let dp = self.fresh_param(p);
            if owned {
                tan.owned.insert(dp.name);
            }
            tan.of.insert(p.name, SubExp::Var(dp.name));
            pat.push(dp);
        }
        let exp = Exp::If { cond, then_body: Body { stms: ts, result: tr }, else_body: Body { stms: es, result: er } };
        out.push(Stm { pat, exp, attrs: s.attrs, span });
        Ok(())
    }

    fn loop_(&mut self, s: Stm, tan: &mut Tangents, out: &mut Vec<Stm>) -> R<()> {
        let Exp::Loop { params, form, body } = s.exp else { return Err(internal(s.span, "not a loop".into())) };
        let span = s.span;
        // The parameters with tangents: those whose initial value has one,
        // and then those whose next value has one, to a fixed point.
        let mut with: Vec<bool> = params.iter().map(|(_, init)| tangent_of(tan, init).is_some()).collect();
        let updates = body.stms.iter().any(|s| !consumed_deep(&s.exp).is_empty());
        loop {
            let mut trial = tan.clone();
            let mut names = Vec::new();
            for ((p, _), w) in params.iter().zip(&with) {
                if *w {
                    let dp = self.fresh_param(p);
                    trial.of.insert(p.name, SubExp::Var(dp.name));
                    names.push(Some(dp));
                } else {
                    names.push(None);
                }
            }
            if updates {
                for dp in names.iter().flatten() {
                    trial.owned.insert(dp.name);
                }
            }
            let (mut stms, mut results, rt) = self.body(body.clone(), &mut trial)?;
            let grown: Vec<bool> = with.iter().zip(&rt).map(|(w, r)| *w || r.is_some()).collect();
            if grown != with {
                with = grown;
                continue;
            }
            let mut new_params = params.clone();
            for (((p, init), dp), r) in params.iter().zip(names).zip(rt) {
                let Some(dp) = dp else { continue };
                let mut init_t = self.tangent(out, tan, init, span);
                if let (true, true, SubExp::Var(x)) = (updates, p.ty.rank() > 0, init_t) {
                    if !tan.owned.contains(&x) {
                        // The initial tangent's own type: the parameter's
                        // may name sizes that are parameters of the loop.
                        let ty = self.type_of(&SubExp::Var(x));
                        init_t = SubExp::Var(self.bind(out, "dcopy", ty, Exp::Copy(x), span));
                    }
                }
                let next = self.or_zero(&mut stms, r, &p.ty, span);
                results.push(next);
                new_params.push((dp, init_t));
            }
            let mut pat = s.pat.clone();
            for (p, w) in s.pat.iter().zip(&with) {
                if *w {
                    let dp = self.fresh_param(p);
                    tan.of.insert(p.name, SubExp::Var(dp.name));
                    pat.push(dp);
                }
            }
            let form = match form {
                LoopForm::For { i, bound } => LoopForm::For { i, bound },
                w @ LoopForm::While { .. } => w,
            };
            let exp = Exp::Loop { params: new_params, form, body: Body { stms, result: results } };
            out.push(Stm { pat, exp, attrs: s.attrs, span });
            return Ok(());
        }
    }

    /// The tangents of a SOAC's inputs as extra inputs: the arrays and the
    /// lambda parameters to add, and the lambda's scope.
    fn soac_inputs(&mut self, arrs: &[VName], params: &[Param], tan: &Tangents) -> (Vec<VName>, Vec<Param>, Tangents) {
        let mut inner = tan.clone();
        let (mut new_arrs, mut new_params) = (Vec::new(), Vec::new());
        for (a, p) in arrs.iter().zip(params) {
            if let Some(SubExp::Var(ta)) = tangent_of(tan, &SubExp::Var(*a)) {
                let dp = self.fresh_param(p);
                inner.of.insert(p.name, SubExp::Var(dp.name));
                new_arrs.push(ta);
                new_params.push(dp);
            }
        }
        (new_arrs, new_params, inner)
    }

    /// An operator of `k` values lifted to (value, tangent) pairs for the
    /// values at `lifted`: parameters (accumulators, their tangents, new
    /// values, their tangents), results (values, tangents), neutral (ne,
    /// its tangent: zero unless it depends on what is differentiated, as
    /// `-s` for `\x y -> x + y + s`, where (ne, ṅe) is the lifted
    /// operator's neutral element). The body is differentiated in the
    /// enclosing scope, so the tangents of the variables it reads from
    /// outside enter each application.
    fn lift(&mut self, op: Operator, lifted: &[usize], tan: &Tangents, out: &mut Vec<Stm>, span: Span) -> R<Operator> {
        let k = op.neutral.len();
        let (accs, xs) = op.lambda.params.split_at(k);
        let mut scope = tan.clone();
        let mut dacc = Vec::new();
        let mut dxs = Vec::new();
        for &j in lifted {
            let da = self.fresh_param(&accs[j]);
            let dx = self.fresh_param(&xs[j]);
            scope.of.insert(accs[j].name, SubExp::Var(da.name));
            scope.of.insert(xs[j].name, SubExp::Var(dx.name));
            dacc.push(da);
            dxs.push(dx);
        }
        let mut params = accs.to_vec();
        params.extend(dacc);
        params.extend(xs.iter().cloned());
        params.extend(dxs);
        let (mut stms, mut results, rt) = self.body(op.lambda.body, &mut scope)?;
        let mut ret = op.lambda.ret.clone();
        let mut neutral = op.neutral.clone();
        for &j in lifted {
            let t = op.lambda.ret[j].clone();
            let r = self.or_zero(&mut stms, rt[j], &t, span);
            results.push(r);
            neutral.push(match tangent_of(tan, &op.neutral[j]) {
                Some(d) => d,
                None => self.zero(out, &t, span),
            });
            ret.push(t);
        }
        Ok(Operator {
            lambda: Lambda { params, body: Body { stms, result: results }, ret },
            neutral,
            commutative: op.commutative,
        })
    }

    /// A map function's mapped results from `from` on, each with its
    /// tangent when it has one (fresh arrays bound after all of them):
    /// pushed onto the lambda's results and return types and the
    /// statement's pattern.
    fn mapped_outputs(
        &mut self,
        m: Mapped<'_>,
        from: usize,
        tan: &mut Tangents,
        (res, ret, pat): (&mut Vec<SubExp>, &mut Vec<Type>, &mut Vec<Param>),
    ) {
        let mut with_tangent = Vec::new();
        for i in from..m.results.len() {
            res.push(m.results[i]);
            ret.push(m.ret[i].clone());
            pat.push(m.pat[i].clone());
            if let Some(r) = m.tangents[i] {
                with_tangent.push((i, r));
            }
        }
        for (i, r) in with_tangent {
            res.push(r);
            ret.push(m.ret[i].clone());
            let dp = self.fresh_param(&m.pat[i]);
            tan.of.insert(m.pat[i].name, SubExp::Var(dp.name));
            tan.owned.insert(dp.name);
            pat.push(dp);
        }
    }

    fn soac(&mut self, s: Stm, tan: &mut Tangents, out: &mut Vec<Stm>) -> R<()> {
        let span = s.span;
        let Exp::Soac(soac) = s.exp else { return Err(internal(span, "not a SOAC".into())) };
        let mut pat_out: Vec<Param> = Vec::new();
        let exp = match soac {
            Soac::Screma { w, arrs, scans, reduces, map } => {
                let (extra_arrs, extra_params, mut inner) = self.soac_inputs(&arrs, &map.params, tan);
                let (mut stms, results, rt) = self.body(map.body, &mut inner)?;
                let (mut res, mut ret) = (Vec::new(), Vec::new());
                let mut pos = 0;
                let mut new_ops: [Vec<Operator>; 2] = [Vec::new(), Vec::new()];
                for (g, ops) in [scans, reduces].into_iter().enumerate() {
                    for op in ops {
                        let k = op.neutral.len();
                        let any = (0..k).any(|j| rt[pos + j].is_some()) || has_tangents(&op, tan);
                        let lifted: Vec<usize> = if any { (0..k).collect() } else { Vec::new() };
                        for j in 0..k {
                            res.push(results[pos + j]);
                            ret.push(map.ret[pos + j].clone());
                            pat_out.push(s.pat[pos + j].clone());
                        }
                        for &j in &lifted {
                            let r = self.or_zero(&mut stms, rt[pos + j], &map.ret[pos + j], span);
                            res.push(r);
                            ret.push(map.ret[pos + j].clone());
                            let p = &s.pat[pos + j];
                            let dp = self.fresh_param(p);
                            tan.of.insert(p.name, SubExp::Var(dp.name));
                            if p.ty.rank() > 0 {
                                tan.owned.insert(dp.name);
                            }
                            pat_out.push(dp);
                        }
                        new_ops[g].push(if lifted.is_empty() { op } else { self.lift(op, &lifted, tan, out, span)? });
                        pos += k;
                    }
                }
                let mapped = Mapped { results: &results, tangents: &rt, ret: &map.ret, pat: &s.pat };
                self.mapped_outputs(mapped, pos, tan, (&mut res, &mut ret, &mut pat_out));
                let [scans, reduces] = new_ops;
                let mut params = map.params;
                params.extend(extra_params);
                let mut arrs = arrs;
                arrs.extend(extra_arrs);
                let map = Lambda { params, body: Body { stms, result: res }, ret };
                Exp::Soac(Soac::Screma { w, arrs, scans, reduces, map })
            }
            Soac::Hist { w, arrs, ops, map } => {
                let (extra_arrs, extra_params, mut inner) = self.soac_inputs(&arrs, &map.params, tan);
                let (mut stms, results, rt) = self.body(map.body, &mut inner)?;
                let (mut res, mut ret) = (Vec::new(), Vec::new());
                let mut new_ops = Vec::new();
                let (mut pos, mut ppos) = (0, 0);
                for op in ops {
                    let rank = op.shape.len();
                    let k = op.dests.len();
                    for j in 0..rank {
                        res.push(results[pos + j]);
                        ret.push(map.ret[pos + j].clone());
                    }
                    let vpos = pos + rank;
                    let any = (0..k).any(|j| rt[vpos + j].is_some())
                        || op.dests.iter().any(|d| tangent_of(tan, &SubExp::Var(*d)).is_some())
                        || has_tangents(&op.op, tan);
                    let lifted: Vec<usize> = if any { (0..k).collect() } else { Vec::new() };
                    for j in 0..k {
                        res.push(results[vpos + j]);
                        ret.push(map.ret[vpos + j].clone());
                        pat_out.push(s.pat[ppos + j].clone());
                    }
                    let mut dests = op.dests.clone();
                    for &j in &lifted {
                        let r = self.or_zero(&mut stms, rt[vpos + j], &map.ret[vpos + j], span);
                        res.push(r);
                        ret.push(map.ret[vpos + j].clone());
                        dests.push(self.owned_tangent(out, tan, op.dests[j], span));
                        let p = &s.pat[ppos + j];
                        let dp = self.fresh_param(p);
                        tan.of.insert(p.name, SubExp::Var(dp.name));
                        tan.owned.insert(dp.name);
                        pat_out.push(dp);
                    }
                    let lifted_op = if lifted.is_empty() { op.op } else { self.lift(op.op, &lifted, tan, out, span)? };
                    new_ops.push(HistOp { shape: op.shape, dests, op: lifted_op });
                    pos = vpos + k;
                    ppos += k;
                }
                let mut params = map.params;
                params.extend(extra_params);
                let mut arrs = arrs;
                arrs.extend(extra_arrs);
                let map = Lambda { params, body: Body { stms, result: res }, ret };
                Exp::Soac(Soac::Hist { w, arrs, ops: new_ops, map })
            }
            Soac::Scatter { w, arrs, dests, map } => {
                let (extra_arrs, extra_params, mut inner) = self.soac_inputs(&arrs, &map.params, tan);
                let (mut stms, mut res, rt) = self.body(map.body, &mut inner)?;
                let mut ret = map.ret.clone();
                let ranks: Vec<usize> = dests.iter().map(|d| self.type_of(&SubExp::Var(*d)).rank()).collect();
                let Some(layout) = ogham_ir::scatter_layout(&map.ret, ranks) else {
                    return Err(internal(span, "a scatter whose results do not fit its destinations".into()));
                };
                let mut new_dests = dests.clone();
                pat_out = s.pat.clone();
                let mut pos = 0;
                for (j, &k) in layout.iter().enumerate() {
                    let vpos = pos + k;
                    let dest = dests[j];
                    if rt[vpos].is_some() || tangent_of(tan, &SubExp::Var(dest)).is_some() {
                        for i in pos..vpos {
                            res.push(res[i]);
                            ret.push(map.ret[i].clone());
                        }
                        let r = self.or_zero(&mut stms, rt[vpos], &map.ret[vpos], span);
                        res.push(r);
                        ret.push(map.ret[vpos].clone());
                        new_dests.push(self.owned_tangent(out, tan, dest, span));
                        let p = &s.pat[j];
                        let dp = self.fresh_param(p);
                        tan.of.insert(p.name, SubExp::Var(dp.name));
                        tan.owned.insert(dp.name);
                        pat_out.push(dp);
                    }
                    pos = vpos + 1;
                }
                let mut params = map.params;
                params.extend(extra_params);
                let mut arrs = arrs;
                arrs.extend(extra_arrs);
                let map = Lambda { params, body: Body { stms, result: res }, ret };
                Exp::Soac(Soac::Scatter { w, arrs, dests: new_dests, map })
            }
            // Every accumulator gets a tangent accumulator beside it.
            Soac::WithAcc { w, arrs, accs, map } => {
                let n = accs.len();
                let (acc_params, row_params) = map.params.split_at(n);
                let (extra_arrs, extra_params, mut inner) = self.soac_inputs(&arrs, row_params, tan);
                let mut new_accs = accs.clone();
                let mut dacc_params = Vec::new();
                for (a, p) in accs.iter().zip(acc_params) {
                    new_accs.push(self.owned_tangent(out, tan, *a, span));
                    let dp = self.fresh_param(p);
                    inner.of.insert(p.name, SubExp::Var(dp.name));
                    inner.owned.insert(dp.name);
                    dacc_params.push(dp);
                }
                let (stms, results, rt) = self.body(map.body, &mut inner)?;
                let (mut res, mut ret) = (results[..n].to_vec(), map.ret[..n].to_vec());
                pat_out.extend(s.pat[..n].iter().cloned());
                for ((r, t), p) in rt.iter().zip(&map.ret).zip(&s.pat).take(n) {
                    let Some(r) = *r else {
                        return Err(internal(span, "an accumulator without its tangent".into()));
                    };
                    res.push(r);
                    ret.push(t.clone());
                    let dp = self.fresh_param(p);
                    tan.of.insert(p.name, SubExp::Var(dp.name));
                    tan.owned.insert(dp.name);
                    pat_out.push(dp);
                }
                let mapped = Mapped { results: &results, tangents: &rt, ret: &map.ret, pat: &s.pat };
                self.mapped_outputs(mapped, n, tan, (&mut res, &mut ret, &mut pat_out));
                let mut params = acc_params.to_vec();
                params.extend(dacc_params);
                params.extend(row_params.iter().cloned());
                params.extend(extra_params);
                let mut arrs = arrs;
                arrs.extend(extra_arrs);
                let map = Lambda { params, body: Body { stms, result: res }, ret };
                Exp::Soac(Soac::WithAcc { w, arrs, accs: new_accs, map })
            }
        };
        out.push(Stm { pat: pat_out, exp, attrs: s.attrs, span });
        Ok(())
    }
}

/// The forward derivative of a function with these parameters, result
/// types and body: the parameters, then tangents of the floating-point
/// ones; the results, then the tangents of the floating-point ones.
pub(super) fn function(
    cx: &mut Ad,
    params: &[Param],
    ret: &[Type],
    body: Body,
    span: Span,
) -> R<(Vec<Param>, Vec<Type>, Body)> {
    let mut tan = Tangents::default();
    let mut ps = params.to_vec();
    for p in params {
        let dp = cx.fresh_param(p);
        tan.of.insert(p.name, SubExp::Var(dp.name));
        ps.push(dp);
    }
    let (mut stms, mut results, rt) = cx.body(body, &mut tan)?;
    let mut rets = ret.to_vec();
    for (t, r) in ret.iter().zip(rt) {
        let r = cx.or_zero(&mut stms, r, t, span);
        results.push(r);
        rets.push(t.clone());
    }
    Ok((ps, rets, Body { stms, result: results }))
}

fn unsupported(span: Span, what: &str) -> Rejection {
    Rejection {
        name: "not-supported-yet",
        span,
        message: format!("forward-mode automatic differentiation (`jvp`) of {what} is not supported yet."),
    }
}

/// Whether operator `op` reads a variable with a tangent from outside, or
/// its neutral element has one: then its results have tangents even where
/// its operands have none.
fn has_tangents(op: &Operator, tan: &Tangents) -> bool {
    op.neutral.iter().any(|n| tangent_of(tan, n).is_some())
        || ogham_ir::visit::free_vars_lambda(&op.lambda).iter().any(|v| tan.of.contains_key(v))
}

fn tangent_of(tan: &Tangents, se: &SubExp) -> Option<SubExp> {
    match se {
        SubExp::Var(v) => tan.of.get(v).copied(),
        SubExp::Const(_) => None,
    }
}
