//! Forward mode in `k` directions at once (`jmp`): the `jvp` of the
//! function with one symbolic direction, then every statement that
//! depends on that direction *vectorised* over the `k` directions, so the
//! primal is computed once.
//!
//! A value depending on the direction (a tangent, or anything computed
//! from one) becomes an array of `k` of them. A statement that depends on
//! the direction becomes a `map` over the `k` directions of that
//! statement (fusion joins neighbouring ones); a loop keeps its primal
//! parameters and carries `k`-arrays for the others, its body vectorised
//! the same way; a branch returns `k`-arrays for its direction-dependent
//! results. A statement that would consume a value computed once (the
//! primal) inside the `map` cannot be vectorised: then [`Unvectorisable`]
//! is returned and the caller maps the whole `jvp` over the directions.

use ogham_ir::visit::{consumed_deep, free_vars_exp, substitute_uses};
use ogham_ir::{Body, Exp, Lambda, LoopForm, Param, Soac, Span, Stm, StmAttrs, SubExp, Type, VName};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::Ad;

/// A statement that cannot run once for all directions.
pub(crate) struct Unvectorisable;

type V<T> = Result<T, Unvectorisable>;

impl Ad {
    /// `jmp` of `lambda` at `args` in the directions that are the rows of
    /// `seeds`, binding `pat` (the results, then `k`-arrays of tangents).
    pub(crate) fn jmp(
        &mut self,
        pat: &[Param],
        lambda: Lambda,
        args: Vec<SubExp>,
        seeds: Vec<SubExp>,
        span: Span,
    ) -> Result<Vec<Stm>, crate::Rejection> {
        let fallback = |cx: &mut Ad| cx.by_directions(ogham_ir::AdMode::Jvp, pat, &lambda, &args, &seeds, span);
        let Some(k) = seeds.first().and_then(|s| self.type_of(s).shape().first().copied()) else {
            return fallback(self);
        };
        let Some(arrs) = seeds.iter().map(|s| s.as_var()).collect::<Option<Vec<VName>>>() else {
            return fallback(self);
        };
        let lam = crate::inline::fresh_lambda(&lambda, &mut self.names);
        super::collect_types_lambda(&lam, &mut self.types);
        let mut vectors = HashMap::default();
        let mut dirs = Vec::new();
        for a in &arrs {
            let name = self.names.fresh("direction");
            self.types.insert(name, self.types[a].row());
            vectors.insert(name, *a);
            dirs.push(SubExp::Var(name));
        }
        let n = lam.ret.len();
        let jvp_pat: Vec<Param> = lam
            .ret
            .iter()
            .chain(&lam.ret)
            .map(|t| {
                let name = self.names.fresh("ad");
                self.types.insert(name, t.clone());
                Param { name, ty: t.clone() }
            })
            .collect();
        let stms = self.jvp(&jvp_pat, lam, args.clone(), dirs, span)?;
        let mut out = Vec::new();
        if self.vectorise(stms, k, &mut vectors, &mut out).is_err() {
            return fallback(self);
        }
        for (p, r) in pat.iter().zip(&jvp_pat[..n]) {
            if vectors.contains_key(&r.name) {
                return fallback(self);
            }
            out.push(super::stm(p.clone(), Exp::SubExp(SubExp::Var(r.name)), span));
        }
        for (p, r) in pat[n..].iter().zip(&jvp_pat[n..]) {
            let v = self.vector_of(SubExp::Var(r.name), k, &vectors, &mut out, span);
            out.push(super::stm(p.clone(), Exp::SubExp(SubExp::Var(v)), span));
        }
        Ok(out)
    }

    /// Vectorises `stms` over `k` directions: `vectors` maps every
    /// direction-dependent variable in scope to its `k`-array. The
    /// vectorised statements go to `out`.
    pub(crate) fn vectorise(
        &mut self,
        stms: Vec<Stm>,
        k: SubExp,
        vectors: &mut HashMap<VName, VName>,
        out: &mut Vec<Stm>,
    ) -> V<()> {
        for s in stms {
            let free = free_vars_exp(&s.exp);
            if !free.iter().any(|v| vectors.contains_key(v)) {
                out.push(s);
                continue;
            }
            match s.exp {
                // Another name for a vector is that vector.
                Exp::SubExp(SubExp::Var(v)) if s.pat.len() == 1 => {
                    let vec = vectors[&v];
                    vectors.insert(s.pat[0].name, vec);
                }
                Exp::Loop { .. } => self.vectorise_loop(s, k, vectors, out)?,
                Exp::If { .. } => self.vectorise_if(s, k, vectors, out)?,
                _ => self.wrap(s, k, vectors, out)?,
            }
        }
        Ok(())
    }

    /// The `k`-array of `se`: its vector, or `k` copies of it.
    fn vector_of(
        &mut self,
        se: SubExp,
        k: SubExp,
        vectors: &HashMap<VName, VName>,
        out: &mut Vec<Stm>,
        span: Span,
    ) -> VName {
        if let Some(v) = se.as_var().and_then(|v| vectors.get(&v)) {
            return *v;
        }
        let ty = self.type_of(&se).array_of(k);
        self.bind(out, "directions", ty, Exp::Replicate { shape: vec![k], value: se }, span)
    }

    fn fresh_vector(&mut self, like: &Param, k: SubExp) -> Param {
        let name = crate::inline::fresh_like(&mut self.names, like.name);
        let ty = like.ty.array_of(k);
        self.types.insert(name, ty.clone());
        Param { name, ty }
    }

    /// `s` as a `map` over the directions of the vectors it uses.
    fn wrap(&mut self, s: Stm, k: SubExp, vectors: &mut HashMap<VName, VName>, out: &mut Vec<Stm>) -> V<()> {
        let free = free_vars_exp(&s.exp);
        let used: Vec<VName> = free.iter().filter(|v| vectors.contains_key(v)).copied().collect();
        // Inside the map only the rows of vectors may be consumed.
        if consumed_deep(&s.exp).iter().any(|v| free.contains(v) && !vectors.contains_key(v)) {
            return Err(Unvectorisable);
        }
        let rows: Vec<Param> = used
            .iter()
            .map(|v| {
                let name = crate::inline::fresh_like(&mut self.names, *v);
                let ty = self.types[v].clone();
                self.types.insert(name, ty.clone());
                Param { name, ty }
            })
            .collect();
        let renames: HashMap<VName, VName> = used.iter().copied().zip(rows.iter().map(|p| p.name)).collect();
        let mut body = Body { stms: vec![s.clone()], result: s.pat.iter().map(|p| SubExp::Var(p.name)).collect() };
        // The copy's own names are fresh, so the statement can be wrapped
        // once per use without binding a name twice.
        let lam =
            crate::inline::fresh_lambda(&Lambda { params: vec![], body: body.clone(), ret: vec![] }, &mut self.names);
        super::collect_types_lambda(&lam, &mut self.types);
        body = lam.body;
        substitute_uses(&mut body, &|v| renames.get(&v).map(|r| SubExp::Var(*r)));
        let arrs: Vec<VName> = used.iter().map(|v| vectors[v]).collect();
        let pat: Vec<Param> = s.pat.iter().map(|p| self.fresh_vector(p, k)).collect();
        let ret: Vec<Type> = s.pat.iter().map(|p| p.ty.clone()).collect();
        let map = Lambda { params: rows, body, ret };
        let exp = Exp::Soac(Soac::Screma { w: k, arrs, scans: vec![], reduces: vec![], map });
        for (p, v) in s.pat.iter().zip(&pat) {
            vectors.insert(p.name, v.name);
        }
        out.push(Stm { pat, exp, attrs: StmAttrs::default(), span: s.span });
        Ok(())
    }

    fn vectorise_if(&mut self, s: Stm, k: SubExp, vectors: &mut HashMap<VName, VName>, out: &mut Vec<Stm>) -> V<()> {
        let Exp::If { cond, then_body, else_body } = s.exp.clone() else { return Ok(()) };
        if cond.as_var().is_some_and(|c| vectors.contains_key(&c)) {
            return self.wrap(s, k, vectors, out);
        }
        let mut t_vec = vectors.clone();
        let mut ts = Vec::new();
        self.vectorise(then_body.stms, k, &mut t_vec, &mut ts)?;
        let mut e_vec = vectors.clone();
        let mut es = Vec::new();
        self.vectorise(else_body.stms, k, &mut e_vec, &mut es)?;
        let varies = |r: &SubExp, m: &HashMap<VName, VName>| r.as_var().is_some_and(|v| m.contains_key(&v));
        let mut pat = Vec::new();
        let (mut tr, mut er) = (Vec::new(), Vec::new());
        for ((p, a), b) in s.pat.iter().zip(&then_body.result).zip(&else_body.result) {
            if varies(a, &t_vec) || varies(b, &e_vec) {
                let va = self.vector_of(*a, k, &t_vec, &mut ts, s.span);
                let vb = self.vector_of(*b, k, &e_vec, &mut es, s.span);
                let vp = self.fresh_vector(p, k);
                vectors.insert(p.name, vp.name);
                tr.push(SubExp::Var(va));
                er.push(SubExp::Var(vb));
                pat.push(vp);
            } else {
                tr.push(*a);
                er.push(*b);
                pat.push(p.clone());
            }
        }
        let exp = Exp::If { cond, then_body: Body { stms: ts, result: tr }, else_body: Body { stms: es, result: er } };
        out.push(Stm { pat, exp, attrs: s.attrs, span: s.span });
        Ok(())
    }

    fn vectorise_loop(&mut self, s: Stm, k: SubExp, vectors: &mut HashMap<VName, VName>, out: &mut Vec<Stm>) -> V<()> {
        let Exp::Loop { params, form, body } = s.exp.clone() else { return Ok(()) };
        // The parameters that vary: those whose initial value does, and
        // those the body makes vary, to a fixed point.
        let mut varying: HashSet<VName> = params
            .iter()
            .filter(|(_, i)| i.as_var().is_some_and(|v| vectors.contains_key(&v)))
            .map(|(p, _)| p.name)
            .collect();
        loop {
            let mut known: HashSet<VName> = vectors.keys().copied().collect();
            known.extend(varying.iter().copied());
            let dependent = dependents(&body, &known);
            let before = varying.len();
            for ((p, _), r) in params.iter().zip(&body.result) {
                if r.as_var().is_some_and(|v| dependent.contains(&v) || known.contains(&v)) {
                    varying.insert(p.name);
                }
            }
            if varying.len() == before {
                break;
            }
        }
        if let LoopForm::While { cond } = &form {
            if varying.contains(cond) {
                return self.wrap(s, k, vectors, out);
            }
        }
        let mut inner = vectors.clone();
        let mut new_params = Vec::new();
        for (p, init) in &params {
            if varying.contains(&p.name) {
                let vp = self.fresh_vector(p, k);
                let vi = self.vector_of(*init, k, vectors, out, s.span);
                inner.insert(p.name, vp.name);
                new_params.push((vp, SubExp::Var(vi)));
            } else {
                new_params.push((p.clone(), *init));
            }
        }
        let mut stms = Vec::new();
        self.vectorise(body.stms, k, &mut inner, &mut stms)?;
        let mut result = Vec::new();
        for ((p, _), r) in params.iter().zip(&body.result) {
            if varying.contains(&p.name) {
                result.push(SubExp::Var(self.vector_of(*r, k, &inner, &mut stms, s.span)));
            } else if r.as_var().is_some_and(|v| inner.contains_key(&v)) {
                return Err(Unvectorisable);
            } else {
                result.push(*r);
            }
        }
        let mut pat = Vec::new();
        for ((p, _), q) in params.iter().zip(&s.pat) {
            if varying.contains(&p.name) {
                let vq = self.fresh_vector(q, k);
                vectors.insert(q.name, vq.name);
                pat.push(vq);
            } else {
                pat.push(q.clone());
            }
        }
        let exp = Exp::Loop { params: new_params, form, body: Body { stms, result } };
        out.push(Stm { pat, exp, attrs: s.attrs, span: s.span });
        Ok(())
    }
}

/// The variables bound in `body` (at its top level) that depend on `known`.
fn dependents(body: &Body, known: &HashSet<VName>) -> HashSet<VName> {
    let mut dep: HashSet<VName> = HashSet::default();
    for s in &body.stms {
        let free = free_vars_exp(&s.exp);
        if free.iter().any(|v| known.contains(v) || dep.contains(v)) {
            dep.extend(s.pat.iter().map(|p| p.name));
        }
    }
    dep
}
