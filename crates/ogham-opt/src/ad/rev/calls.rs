//! Calls in reverse mode: a function's reverse derivative in two halves,
//! so that the return sweep does not run the function again.
//!
//! The forward half (`f_fwd`) is the function's forward sweep; it returns
//! the function's results, then its *residuals*: the values of its costly
//! statements (SOACs, loops, calls, anything but views and scalar
//! arithmetic) that the reverse half reads. The reverse half (`f_bwd`)
//! takes the function's parameters, the residuals and the adjoints of the
//! results; it runs again the forward sweep's cheap statements (indexing,
//! arithmetic) that the return sweep reads, except those reading an array
//! the forward half goes on to update in place (their values are passed
//! instead, and a residual so overwritten is passed as a copy taken where
//! it is bound), then the return sweep, and returns
//! the adjoints of the parameters. The forward sweep of a call calls
//! `f_fwd`; its return sweep calls `f_bwd` with the residuals. Inside a
//! loop, [`super::tape`] saves the residuals per iteration.
//!
//! When the residuals cannot cross from one half to the other (a type
//! with a size that only the function computes, or a residual the return
//! sweep would update in place), the call keeps the single reverse
//! derivative of [`Ad::reverse_derivative`], which runs the function's
//! forward sweep again.

use ogham_ir::{Body, Exp, FunDef, Param, Soac, Span, Stm, SubExp, Type, VName};
use rustc_hash::FxHashSet as HashSet;

use super::{Checkpoints, Sweeps, R};
use crate::ad::Ad;

/// The two halves of a function's reverse derivative.
#[derive(Clone)]
pub(crate) struct Split {
    fwd: String,
    bwd: String,
    /// The residuals' types, in terms of these parameters (the halves'
    /// own names for the function's).
    residuals: Vec<Type>,
    params: Vec<VName>,
}

/// The variables of `stms` whose memory a later statement updates in
/// place: an array consumed after it was bound, and every value that may
/// share its memory bound before that. Sharing is over-approximated: a
/// view, another name or an update's result shares its source's memory,
/// and a call, branch, loop or SOAC may return the memory of any array it
/// reads (the verifier's alias analysis is exact, but needs summaries of
/// the functions being made).
fn overwritten(stms: &[Stm]) -> HashSet<VName> {
    fn find(parent: &mut rustc_hash::FxHashMap<VName, VName>, v: VName) -> VName {
        let mut r = v;
        while let Some(&p) = parent.get(&r).filter(|p| **p != r) {
            r = p;
        }
        parent.insert(v, r);
        r
    }
    let mut parent: rustc_hash::FxHashMap<VName, VName> = Default::default();
    // The arrays bound so far, in order.
    let mut bound: Vec<VName> = Vec::new();
    let mut out = HashSet::default();
    for s in stms {
        for v in ogham_ir::visit::consumed_deep(&s.exp) {
            let r = find(&mut parent, v);
            out.insert(v);
            for &b in &bound {
                if find(&mut parent, b) == r {
                    out.insert(b);
                }
            }
        }
        let sources: Vec<VName> = match &s.exp {
            Exp::Index { array, .. }
            | Exp::Reshape { array, .. }
            | Exp::Rearrange { array, .. }
            | Exp::Update { array, .. } => vec![*array],
            Exp::SubExp(SubExp::Var(v)) => vec![*v],
            Exp::Apply { .. } | Exp::If { .. } | Exp::Loop { .. } | Exp::Soac(_) | Exp::Certify { .. } => {
                ogham_ir::visit::free_vars_exp(&s.exp).into_iter().collect()
            }
            _ => Vec::new(),
        };
        for p in s.pat.iter().filter(|p| p.ty.rank() > 0) {
            bound.push(p.name);
            let mine = find(&mut parent, p.name);
            for &a in &sources {
                let theirs = find(&mut parent, a);
                parent.insert(theirs, mine);
            }
        }
    }
    out
}

/// Whether the forward half's statement is cheap enough to run again in
/// the reverse half rather than pass its value.
fn cheap(s: &Stm) -> bool {
    matches!(
        s.exp,
        Exp::SubExp(_)
            | Exp::Index { .. }
            | Exp::Reshape { .. }
            | Exp::Rearrange { .. }
            | Exp::BinOp(..)
            | Exp::CmpOp(..)
            | Exp::Conv(..)
            | Exp::Iota { .. }
            | Exp::Replicate { .. }
    )
}

impl Ad {
    /// The halves of function `name`'s reverse derivative (made once), or
    /// `None` when the call must keep the single reverse derivative.
    pub(super) fn split_derivative(&mut self, name: &str, span: Span) -> R<Option<Split>> {
        let accumulating = self.under_vjp == 0;
        let key = format!("{name} {}", if accumulating { "split" } else { "split_whole" });
        if let Some(s) = self.splits.get(&key) {
            return Ok(s.clone());
        }
        // Recursion through this function stays unsplit.
        self.splits.insert(key.clone(), None);
        let split = self.make_split(name, accumulating, span)?;
        self.splits.insert(key, split.clone());
        Ok(split)
    }

    fn make_split(&mut self, name: &str, accumulating: bool, span: Span) -> R<Option<Split>> {
        let copy = self.fresh_function(name, span)?;
        let mut body = copy.body;
        self.under_vjp += 1;
        let eliminated = self.eliminate(&mut body);
        if accumulating {
            self.under_vjp -= 1;
        }
        // The halves are a sweep of their own, wherever the call is.
        let outer = std::mem::replace(&mut self.reexecuting, false);
        let halves = eliminated.and_then(|()| self.halves(&copy.params, &copy.ret, body, span));
        self.reexecuting = outer;
        if !accumulating {
            self.under_vjp -= 1;
        }
        let Some((fwd, bwd, residuals)) = halves? else { return Ok(None) };
        let suffix = if accumulating { "" } else { "_whole" };
        let (fname, bname) = (format!("{name}_fwd{suffix}"), format!("{name}_bwd{suffix}"));
        let mut ret = copy.ret.clone();
        ret.extend(residuals.iter().cloned());
        self.new_funs.push(FunDef {
            name: fname.clone(),
            params: copy.params.clone(),
            ret,
            body: fwd,
            entry: None,
            span: copy.span,
        });
        // The reverse half reads the forward half's names: renamed.
        let (bparams, bret, bbody) = bwd;
        let b = FunDef { name: bname.clone(), params: bparams, ret: bret, body: bbody, entry: None, span: copy.span };
        let b = crate::inline::fresh_copy(&b, &mut self.names);
        crate::ad::collect_types_fun(&b, &mut self.types);
        self.new_funs.push(b);
        let params = copy.params.iter().map(|p| p.name).collect();
        Ok(Some(Split { fwd: fname, bwd: bname, residuals, params }))
    }

    /// The forward half's body, the reverse half's parameters, result
    /// types and body, and the residuals' types.
    #[allow(clippy::type_complexity)]
    fn halves(
        &mut self,
        params: &[Param],
        ret: &[Type],
        body: Body,
        span: Span,
    ) -> R<Option<(Body, (Vec<Param>, Vec<Type>, Body), Vec<Type>)>> {
        let Sweeps { result, forward: fwd, back, bars, adjoints } = self.function_sweeps(params, ret, body, span)?;
        // Arrays the forward half updates in place after they were bound:
        // their values are gone by its end, so the reverse half can
        // neither read them nor run again a view or an index of them.
        let stale = overwritten(&fwd);
        // The reverse half: the cheap forward statements the return sweep
        // reads, then the return sweep; what it reads of the costly ones
        // are the residuals. (Only what it reads: a cheap statement left
        // dead would make a residual of an array the forward half goes on
        // to update in place, such as the view of what an update
        // overwrites, which the forward sweep saves a copy of.) Maps of
        // scalar arithmetic whose elementary functions are residuals
        // anyway are computed again from them where that passes fewer
        // arrays ([`Ad::replayed_map`]).
        let bbody = Body { stms: back, result: adjoints };
        let (replayed, residuals, any) = self.reverse_half(&fwd, &stale, bbody.clone(), true);
        let (bbody, residuals) = if any {
            let (plain, plain_residuals, _) = self.reverse_half(&fwd, &stale, bbody, false);
            let arrays = |r: &[Param]| r.iter().filter(|p| p.ty.rank() > 0).count();
            if arrays(&residuals) < arrays(&plain_residuals) {
                (replayed, residuals)
            } else {
                (plain, plain_residuals)
            }
        } else {
            (replayed, residuals)
        };
        let used = ogham_ir::visit::free_vars_body(&bbody);
        // A residual the forward half goes on to overwrite is passed as a
        // copy taken where it is bound.
        let mut copies: Vec<(VName, VName)> = Vec::new();
        let mut with_copies = Vec::with_capacity(fwd.len());
        for s in fwd {
            let keep: Vec<Param> =
                s.pat.iter().filter(|p| stale.contains(&p.name) && used.contains(&p.name)).cloned().collect();
            with_copies.push(s);
            for p in keep {
                let c = self.fresh_typed("residual", &p.ty);
                with_copies.push(crate::ad::stm(c.clone(), Exp::Copy(p.name), span));
                copies.push((p.name, c.name));
            }
        }
        let fwd = with_copies;
        let passed_as = |v: VName| copies.iter().find(|(f, _)| *f == v).map_or(v, |(_, c)| *c);
        let own: HashSet<VName> = params.iter().map(|p| p.name).collect();
        let expressible = residuals.iter().all(|r| ogham_ir::visit::type_vars(&r.ty).all(|v| own.contains(&v)));
        let consumed: HashSet<VName> = bbody.stms.iter().flat_map(|s| ogham_ir::visit::consumed_deep(&s.exp)).collect();
        let mut passed = residuals.iter().map(|r| r.name).chain(own.iter().copied());
        if !expressible || passed.any(|v| consumed.contains(&v)) {
            return Ok(None);
        }
        let mut fresult = result;
        fresult.extend(residuals.iter().map(|r| SubExp::Var(passed_as(r.name))));
        let mut bparams = params.to_vec();
        bparams.extend(residuals.iter().cloned());
        bparams.extend(bars);
        let bret = params.iter().map(|p| p.ty.clone()).collect();
        let types = residuals.iter().map(|r| r.ty.clone()).collect();
        Ok(Some((Body { stms: fwd, result: fresult }, (bparams, bret, bbody), types)))
    }

    /// The reverse half's body: the forward statements it runs again (the
    /// cheap ones it reads, and with `replay` the maps [`Ad::replayed_map`]
    /// computes again) before the return sweep `bbody`; the residuals, the
    /// values of the other forward statements it reads; and whether it
    /// computes any `map` again.
    fn reverse_half(
        &mut self,
        fwd: &[Stm],
        stale: &HashSet<VName>,
        mut bbody: Body,
        replay: bool,
    ) -> (Body, Vec<Param>, bool) {
        let fresh = |e: &Exp| ogham_ir::visit::free_vars_exp(e).iter().all(|v| !stale.contains(v));
        let again = |s: &Stm| cheap(s) && fresh(&s.exp);
        let mut needed = ogham_ir::visit::free_vars_body(&bbody);
        let mut rerun: Vec<Stm> = Vec::new();
        let mut any = false;
        for s in fwd.iter().rev() {
            if !s.pat.iter().any(|p| needed.contains(&p.name)) {
                continue;
            }
            let run = if again(s) {
                s.clone()
            } else if let Some(r) = replay.then(|| self.replayed_map(s, &needed)).flatten().filter(|r| fresh(&r.exp)) {
                any = true;
                r
            } else {
                continue;
            };
            needed.extend(ogham_ir::visit::free_vars_exp(&run.exp));
            needed.extend(run.pat.iter().flat_map(|p| ogham_ir::visit::type_vars(&p.ty)));
            rerun.push(run);
        }
        rerun.reverse();
        rerun.append(&mut bbody.stms);
        bbody.stms = rerun;
        let used = ogham_ir::visit::free_vars_body(&bbody);
        let residuals = fwd
            .iter()
            .filter(|s| !again(s))
            .flat_map(|s| s.pat.iter())
            .filter(|p| used.contains(&p.name))
            .cloned()
            .collect();
        (bbody, residuals, any)
    }

    /// The forward half's `map` `s` computed again from its inputs and its
    /// own results that hold elementary functions' values (those
    /// [`Ad::forward_map`] added, or a result that is one): a `map` of
    /// scalar statements whose every elementary function returns its
    /// value, computing the results of `s` that `needed` holds and no
    /// elementary function. Those results then need not be residuals: the
    /// D-LSTM cell's gates `1 / (1 + exp (-z))` are computed again from
    /// the saved `exp (-z)` (one division, which the return sweep of the
    /// gate computes anyway) instead of being passed beside it, and the
    /// new cell state from the gates. `None` for any other statement.
    fn replayed_map(&mut self, s: &Stm, needed: &std::collections::BTreeSet<VName>) -> Option<Stm> {
        let Exp::Soac(Soac::Screma { w, arrs, scans, reduces, map }) = &s.exp else { return None };
        if !scans.is_empty() || !reduces.is_empty() || !map.body.stms.iter().all(super::tape::scalar) {
            return None;
        }
        let map = crate::inline::fresh_lambda(map, &mut self.names);
        // Where each elementary function's value is among the results.
        let mut read: Vec<(VName, usize)> = Vec::new();
        for t in map.body.stms.iter().filter(|t| super::tape::costly(t)) {
            let v = t.pat[0].name;
            let k = map.body.result.iter().position(|r| *r == SubExp::Var(v))?;
            read.push((v, k));
        }
        let from_saved: HashSet<usize> = read.iter().map(|(_, k)| *k).collect();
        let wanted: Vec<usize> =
            (0..s.pat.len()).filter(|k| !from_saved.contains(k) && needed.contains(&s.pat[*k].name)).collect();
        if wanted.is_empty() {
            return None;
        }
        let mut params = map.params.clone();
        let mut inputs = arrs.clone();
        let mut stms = Vec::with_capacity(map.body.stms.len());
        for t in &map.body.stms {
            match read.iter().find(|(v, _)| *v == t.pat[0].name) {
                Some(&(_, k)) => {
                    let p = self.fresh_typed("saved", &map.ret[k]);
                    stms.push(crate::ad::stm(t.pat[0].clone(), Exp::SubExp(SubExp::Var(p.name)), t.span));
                    params.push(p);
                    inputs.push(s.pat[k].name);
                }
                None => stms.push(t.clone()),
            }
        }
        let lam = ogham_ir::Lambda {
            params,
            body: Body { stms, result: wanted.iter().map(|&k| map.body.result[k]).collect() },
            ret: wanted.iter().map(|&k| map.ret[k].clone()).collect(),
        };
        crate::ad::collect_types_lambda(&lam, &mut self.types);
        let exp = Exp::Soac(Soac::Screma { w: *w, arrs: inputs, scans: Vec::new(), reduces: Vec::new(), map: lam });
        Some(Stm { pat: wanted.iter().map(|&k| s.pat[k].clone()).collect(), exp, attrs: s.attrs, span: s.span })
    }

    /// The forward sweep of a call: the forward half, its residuals
    /// recorded for the return sweep; `false` when the call is not split.
    pub(super) fn forward_call(&mut self, s: &Stm, out: &mut Vec<Stm>, ck: &mut Checkpoints) -> bool {
        let Exp::Apply { func, args } = &s.exp else { return false };
        // A function that cannot be differentiated is called as it is: the
        // return sweep reports why, if it needs the call's derivative.
        let Ok(Some(split)) = self.split_derivative(func, s.span) else { return false };
        let to = |v: VName| split.params.iter().position(|p| *p == v).map(|k| args[k]);
        let mut pat = s.pat.clone();
        let mut residuals = Vec::new();
        for t in &split.residuals {
            let mut t = t.clone();
            ogham_ir::visit::substitute_type(&mut t, &to);
            let r = self.fresh_typed("residual", &t);
            residuals.push(r.name);
            pat.push(r);
        }
        let exp = Exp::Apply { func: split.fwd.clone(), args: args.clone() };
        out.push(Stm { pat, exp, attrs: s.attrs, span: s.span });
        ck.calls.insert(s.pat[0].name, (split.bwd, residuals));
        true
    }
}
