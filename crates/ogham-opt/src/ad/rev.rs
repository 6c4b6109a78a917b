//! Reverse mode by redundant execution (seed 004 §3): a `vjp` becomes its
//! function's statements (the forward sweep), then the statements that
//! compute adjoints (the return sweep), in reverse order: for `v = f(u…)`,
//! `ūᵢ += ∂f/∂uᵢ · v̄` ([`super::rules`] gives the partials). A variable
//! with no adjoint has adjoint zero, and a statement whose results have
//! none contributes nothing.
//!
//! There is no tape across scopes. The return sweep of a nested scope (a
//! branch, a loop body, a lambda) re-executes that scope's forward
//! statements (a renamed copy) before its own return sweep, so only
//! values of the current scope are needed; dead-code elimination removes
//! what the return sweep does not use. Loops are the exception the seed
//! makes: the forward loop saves its parameters at the start of every
//! iteration (one array per parameter), and the reverse loop runs from the
//! last iteration to the first, restoring them, re-executing the body and
//! running its return sweep. Where re-execution would repeat work once
//! per level of nesting, the forward sweep saves more ([`tape`]): a loop
//! saves its body's inner loops and calls per iteration, a call runs the
//! forward half of its function's derivative and keeps its residuals for
//! the reverse half ([`calls`]), and a `map` keeps its elementary
//! functions.
//!
//! Rules: `if` branches on the primal condition and returns the
//! contributions to its free variables; a `map` runs the per-element
//! return sweep as a map whose contributions to free variables are summed
//! by reductions (so a free array read by index gets a whole array per
//! element: correct, but costly until accumulators exist); `reduce (+)`
//! gives every element the result's adjoint, and any other one-value
//! operator (of any number of values) uses the seed's exclusive scans
//! from both ends, correct for non-commutative operators; a call calls the
//! reverse half of its function's derivative (`f_bwd`), or the whole
//! reverse derivative (`f_vjp`). An in-place update saves the elements it
//! overwrites in the forward sweep; the return sweep moves the adjoint of
//! the new value out of the array's adjoint and restores the old array,
//! which the rest of the sweep reads under a new name. A branch that
//! consumes a free array gets a copy saved before it, re-copied for the
//! branch's re-execution; a loop that updates a free array in place gets
//! one too, which the return sweep of the statements before the loop
//! reads (DCE removes it where none does). `scan (+)` and `hist (+)` have their special
//! rules. A `while` loop first counts its iterations, then runs as a
//! checkpointed `for` loop of that many. Scans with any other operator
//! (tuples of scalars, and rows through a vectorised operator) are in
//! [`scan`]; histograms with any other operator, or of more dimensions,
//! in [`hist`]. A `scatter` saves the elements it overwrites and
//! restores them like an update ([`scatter`]); so does a one-dimensional
//! `hist (+)` (the elements at its indices), where other histograms
//! save their destinations whole.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;

use ogham_ir::visit::free_vars_body;
use ogham_ir::{
    BinOp, Body, DimIndex, Exp, Lambda, LoopForm, Operator, Param, PrimType, Soac, Span, Stm, SubExp, Type, VName,
};

use super::{internal, stm, Ad};
use crate::Rejection;

pub(super) mod calls;
mod capture;
mod hist;
mod hist_extreme;
mod matmul;
mod reduce;
mod scan;
pub(super) mod scatter;
mod sizes;
mod stripmine;
mod tape;
pub(super) mod undo;

type R<T> = Result<T, Rejection>;

/// The adjoints accumulated so far in a return sweep.
#[derive(Clone, Default)]
struct Adjoints {
    of: HashMap<VName, SubExp>,
    /// Adjoint arrays built here, which may be updated in place.
    owned: HashSet<VName>,
    /// The variables (free arrays of an enclosing `map`) whose adjoint is
    /// an accumulator: contributions are accumulated into it
    /// ([`Exp::UpdAcc`]), and it is threaded through nested scopes.
    accs: HashSet<VName>,
}

/// The inputs of a `map`'s return sweep beyond the map's own: the arrays
/// (the map's, then the results' adjoints and what the forward map saved),
/// the adjoint of each result's element, the lambda's extra parameters,
/// and how the saved values replace the statements that computed them.
struct MapInputs {
    arrs: Vec<VName>,
    row_bars: Vec<Option<SubExp>>,
    params: Vec<Param>,
    replay: Option<tape::Replay>,
}

/// What the forward sweep saved for the return sweep.
#[derive(Default)]
struct Checkpoints {
    /// The arrays a loop saved its parameters in, by the name of the
    /// loop's first result.
    loops: HashMap<VName, Vec<VName>>,
    /// The elements an in-place update overwrote, by the name of its result.
    updates: HashMap<VName, SubExp>,
    /// The results of the scope, which a restoration must not consume.
    results: HashSet<VName>,
    /// The initial values of the scope's loops: a restoration does not
    /// consume them either, since the loop's results may share their
    /// memory, and an enclosing derivative's return sweep, run after this
    /// one, reads those results (reverse of reverse through a scatter
    /// feeding a loop).
    loop_inits: HashSet<VName>,
    /// A `while` loop as the `for` loop of its number of iterations, by
    /// the name of the loop's first result.
    whiles: HashMap<VName, Stm>,
    /// A `scatter`'s destinations, each with the elements it overwrote
    /// (zero where an index is out of range), by the name of its first
    /// result.
    scatters: HashMap<VName, Vec<(VName, VName)>>,
    /// The destinations a `hist` consumes, each with a copy saved before
    /// it, by the name of the `hist`'s first result.
    dests: HashMap<VName, Vec<(VName, VName)>>,
    /// A one-dimensional `hist (+)`'s destinations, each with the elements
    /// at its indices saved before it (zero out of range), by the name of
    /// its first result: its rule needs no more, and the return sweep
    /// restores them by scattering them back.
    added: HashMap<VName, Vec<(VName, VName)>>,
    /// The free arrays a branch consumes, with the copies saved before it,
    /// by the name of the `if`'s first result.
    consumed: HashMap<VName, Vec<(VName, VName)>>,
    /// The free arrays a loop consumes (updated in place through its
    /// parameters), each with a copy saved before it, by the name of the
    /// loop's first result: the return sweep of the statements before the
    /// loop reads the copies, since the arrays' memory then holds the
    /// loop's later values (a map read them, or an update made them and
    /// is undone on them). DCE removes the copies nothing reads.
    overwritten: HashMap<VName, Vec<(VName, VName)>>,
    /// The parameters a loop logged the updates of instead of saving them
    /// (and which have no place among its saved arrays), by the name of
    /// the loop's first result ([`undo`]).
    undo: HashMap<VName, Vec<undo::UndoLog>>,
    /// Where a loop's tapes are among its saved arrays (after its
    /// parameters'), by the name of the loop's first result ([`tape`]).
    tapes: HashMap<VName, Vec<tape::TapeLayout>>,
    /// A call's reverse function and the residuals its forward sweep left
    /// for it, by the name of the call's first result ([`calls`]).
    calls: HashMap<VName, (String, Vec<VName>)>,
    /// What a `map` saved per element, with the arrays of the values, by
    /// the name of the map's first result ([`tape`]).
    maps: HashMap<VName, (Vec<tape::TapeLayout>, Vec<VName>)>,
    /// The values the scope's statements read whose return sweeps may
    /// need them: read by anything but a sum.
    reread: HashSet<VName>,
    /// The values the scope's statements read.
    used: HashSet<VName>,
    /// For each array a statement of the scope binds that may share memory
    /// with others (a view, an update's result, a branch's or loop's
    /// result, a call's), the arrays bound before it, or free, that it may
    /// share memory with.
    roots: HashMap<VName, BTreeSet<VName>>,
    /// The scope's views of arrays (a slice, row, reshape or
    /// transposition), by the name they bind.
    views: HashMap<VName, Stm>,
    /// The `if`s of a re-executed scope that are not run again, since
    /// nothing reads their results: their return sweeps update the free
    /// arrays they consume in place and restore them, each given with the
    /// position of the branches' results it becomes, by the name of the
    /// `if`'s first result ([`Ad::rev_if`]).
    in_place: HashMap<VName, undo::InPlace>,
}

impl Checkpoints {
    fn of(body: &Body) -> Checkpoints {
        // A result may share memory with an updated array: another name
        // for it (`let r = a`), a view of it, a loop's result that started
        // as it (the loop may run no iteration), a branch's that returns it.
        let mut results: HashSet<VName> = body.result.iter().filter_map(|r| r.as_var()).collect();
        for s in body.stms.iter().rev() {
            let returned: Vec<usize> =
                s.pat.iter().enumerate().filter(|(_, p)| results.contains(&p.name)).map(|(k, _)| k).collect();
            if returned.is_empty() {
                continue;
            }
            match &s.exp {
                Exp::SubExp(SubExp::Var(v)) => {
                    results.insert(*v);
                }
                Exp::Index { array, .. } | Exp::Reshape { array, .. } | Exp::Rearrange { array, .. } => {
                    results.insert(*array);
                }
                Exp::Loop { params, .. } => {
                    for k in returned {
                        if let Some((_, SubExp::Var(v))) = params.get(k) {
                            results.insert(*v);
                        }
                    }
                }
                Exp::If { then_body, else_body, .. } => {
                    for k in returned {
                        for b in [then_body, else_body] {
                            if let Some(SubExp::Var(v)) = b.result.get(k) {
                                results.insert(*v);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        let sum = |s: &Stm| match &s.exp {
            Exp::Soac(Soac::Screma { scans, reduces, map, .. }) => {
                scans.is_empty()
                    && is_identity(map)
                    && !reduces.is_empty()
                    && reduces.iter().all(|op| matches!(reduce::single_binop(&op.lambda), Some((BinOp::Add, _))))
            }
            _ => false,
        };
        let reread =
            body.stms.iter().filter(|s| !sum(s)).flat_map(|s| ogham_ir::visit::free_vars_exp(&s.exp)).collect();
        let used = body.stms.iter().flat_map(|s| ogham_ir::visit::free_vars_exp(&s.exp)).collect();
        let mut roots: HashMap<VName, BTreeSet<VName>> = HashMap::default();
        let views = body.stms.iter().filter(|s| view_source(s).is_some()).map(|s| (s.pat[0].name, s.clone())).collect();
        for s in &body.stms {
            let fresh = matches!(
                s.exp,
                Exp::Soac(_)
                    | Exp::Copy(_)
                    | Exp::Replicate { .. }
                    | Exp::Iota { .. }
                    | Exp::Scratch { .. }
                    | Exp::Concat { .. }
                    | Exp::ArrayLit { .. }
            );
            if fresh || s.pat.iter().all(|p| p.ty.rank() == 0) {
                continue;
            }
            let mut from = BTreeSet::new();
            for v in ogham_ir::visit::free_vars_exp(&s.exp) {
                match roots.get(&v) {
                    Some(r) => from.extend(r.iter().copied()),
                    None => {
                        from.insert(v);
                    }
                }
            }
            for p in s.pat.iter().filter(|p| p.ty.rank() > 0) {
                roots.insert(p.name, from.clone());
            }
        }
        let loop_inits = body
            .stms
            .iter()
            .flat_map(|s| match &s.exp {
                Exp::Loop { params, .. } => params.iter().filter_map(|(_, init)| init.as_var()).collect(),
                _ => Vec::new(),
            })
            .collect();
        Checkpoints { results, reread, used, roots, views, loop_inits, ..Default::default() }
    }
}

fn unsupported(span: Span, what: &str) -> Rejection {
    Rejection {
        name: "not-supported-yet",
        span,
        message: format!("reverse-mode automatic differentiation (`vjp`) of {what} is not supported yet."),
    }
}

impl Ad {
    /// `vjp` of `lambda` at `args` with result adjoints `seeds`, binding
    /// `pat` (the results, then the adjoints of the arguments).
    pub(crate) fn vjp(
        &mut self,
        pat: &[Param],
        lambda: Lambda,
        args: Vec<SubExp>,
        seeds: Vec<SubExp>,
        span: Span,
    ) -> R<Vec<Stm>> {
        let mut out = Vec::new();
        let (body, ck) = self.forward_sweep(&lambda, &args, &mut out, span)?;
        let adj = self.return_sweep(&body, &ck, &seeds, &mut out, span)?;
        let k = lambda.body.result.len();
        if pat.len() != k + lambda.params.len() {
            return Err(internal(span, "vjp binds the wrong number of values".into()));
        }
        for (p, r) in pat.iter().zip(&lambda.body.result) {
            out.push(stm(p.clone(), Exp::SubExp(*r), span));
        }
        for (p, lp) in pat[k..].iter().zip(&lambda.params) {
            let a = self.adjoint_or_zero(&mut out, &adj, lp.name, span);
            out.push(stm(p.clone(), Exp::SubExp(a), span));
        }
        Ok(out)
    }

    /// The forward sweep of `lambda` applied to `args` (its parameters
    /// bound to them): its body as differentiated, and what the sweep
    /// saved.
    fn forward_sweep(
        &mut self,
        lambda: &Lambda,
        args: &[SubExp],
        out: &mut Vec<Stm>,
        span: Span,
    ) -> R<(Body, Checkpoints)> {
        for (p, a) in lambda.params.iter().zip(args) {
            out.push(stm(p.clone(), Exp::SubExp(*a), span));
        }
        let body = self.split_soacs(&lambda.body)?;
        let mut ck = Checkpoints::of(&body);
        self.forward(&body.stms, out, &mut ck)?;
        Ok((body, ck))
    }

    /// The return sweep of `body` from the adjoints `seeds` of its
    /// results: the adjoints found.
    fn return_sweep(
        &mut self,
        body: &Body,
        ck: &Checkpoints,
        seeds: &[SubExp],
        out: &mut Vec<Stm>,
        span: Span,
    ) -> R<Adjoints> {
        let mut adj = Adjoints::default();
        for (r, s) in body.result.iter().zip(seeds) {
            if let SubExp::Var(v) = r {
                self.add(out, &mut adj, *v, *s, span);
            }
        }
        self.reverse(&body.stms, ck, &mut adj, out)?;
        Ok(adj)
    }

    /// `mjp` of `lambda` at `args` for the `k` result adjoints in the rows
    /// of `seeds`: one forward sweep, then the return sweep as a `map`
    /// over the rows. When the return sweep would consume what the
    /// forward sweep made (restoring an array updated in place), every
    /// row gets a whole `vjp` instead.
    pub(crate) fn mjp(
        &mut self,
        pat: &[Param],
        lambda: Lambda,
        args: Vec<SubExp>,
        seeds: Vec<SubExp>,
        span: Span,
    ) -> R<Vec<Stm>> {
        let fallback = |cx: &mut Ad| cx.by_directions(ogham_ir::AdMode::Vjp, pat, &lambda, &args, &seeds, span);
        let Some(w) = seeds.first().and_then(|s| self.type_of(s).shape().first().copied()) else {
            return Err(internal(span, "a vector derivative without seeds".into()));
        };
        let arrs: Vec<VName> = seeds.iter().filter_map(|s| s.as_var()).collect();
        if arrs.len() != seeds.len() {
            return fallback(self);
        }
        let lam = crate::inline::fresh_lambda(&lambda, &mut self.names);
        super::collect_types_lambda(&lam, &mut self.types);
        let mut out = Vec::new();
        let (body, ck) = self.forward_sweep(&lam, &args, &mut out, span)?;
        // The return sweep for one row of adjoints.
        let rows: Vec<Param> = arrs.iter().map(|a| self.fresh_typed("direction", &self.types[a].row())).collect();
        let row_seeds: Vec<SubExp> = rows.iter().map(|p| SubExp::Var(p.name)).collect();
        let mut rbody = Vec::new();
        let adj = self.return_sweep(&body, &ck, &row_seeds, &mut rbody, span)?;
        let mut results = Vec::new();
        for p in &lam.params {
            results.push(self.adjoint_or_zero(&mut rbody, &adj, p.name, span));
        }
        let sweep = Body { stms: rbody, result: results };
        let free = free_vars_body(&sweep);
        let consumes_outside =
            sweep.stms.iter().any(|s| ogham_ir::visit::consumed_deep(&s.exp).iter().any(|v| free.contains(v)));
        if consumes_outside {
            return fallback(self);
        }
        let k = lam.ret.len();
        for (p, r) in pat.iter().zip(&body.result) {
            out.push(stm(p.clone(), Exp::SubExp(*r), span));
        }
        let ret: Vec<Type> = lam.params.iter().map(|p| p.ty.clone()).collect();
        let map = Lambda { params: rows, body: sweep, ret };
        let exp = Exp::Soac(Soac::Screma { w, arrs, scans: vec![], reduces: vec![], map });
        out.push(super::stm_many(pat[k..].to_vec(), exp, span));
        Ok(out)
    }

    /// `body` with every `screma` that is more than one `map`, one `scan`
    /// or one `reduce` split into those (a `map` producing the operators'
    /// inputs, then one SOAC per operator), at any depth: the return sweep
    /// then needs only one rule per SOAC. Fusion joins them again after
    /// differentiation.
    fn split_soacs(&mut self, body: &Body) -> R<Body> {
        let mut stms = Vec::new();
        for s in &body.stms {
            let mut s = match self.fixed_loop_sizes(s)? {
                Some(fixed) => fixed,
                None => s.clone(),
            };
            if let Some(nest) = self.stripmined(&s) {
                let split = self.split_soacs(&Body { stms: nest, result: vec![] })?;
                stms.extend(split.stms);
                continue;
            }
            for b in ogham_ir::visit::nested_bodies_mut(&mut s.exp) {
                *b = self.split_soacs(b)?;
            }
            // A withacc updating each accumulator once: a map, then a
            // scatter or hist per accumulator.
            if let Some(soacs) = self.withacc_as_soacs(&s) {
                let split = self.split_soacs(&Body { stms: soacs, result: vec![] })?;
                stms.extend(split.stms);
                continue;
            }
            // A scatter or hist whose lambda computes: the indices and
            // values as arrays first, then the SOAC reading them.
            match &s.exp {
                Exp::Soac(Soac::Scatter { w, arrs, dests, map }) if !is_identity(map) => {
                    let arrs = self.materialise(&s, *w, arrs, map, &mut stms);
                    let map = self.identity_lambda(&map.ret);
                    let exp = Exp::Soac(Soac::Scatter { w: *w, arrs, dests: dests.clone(), map });
                    stms.push(Stm { pat: s.pat.clone(), exp, attrs: s.attrs, span: s.span });
                    continue;
                }
                Exp::Soac(Soac::Hist { w, arrs, ops, map }) if !is_identity(map) => {
                    let arrs = self.materialise(&s, *w, arrs, map, &mut stms);
                    let map = self.identity_lambda(&map.ret);
                    let exp = Exp::Soac(Soac::Hist { w: *w, arrs, ops: ops.clone(), map });
                    self.push_or_fold(&mut stms, Stm { pat: s.pat.clone(), exp, attrs: s.attrs, span: s.span })?;
                    continue;
                }
                _ => {}
            }
            if let Some(columns) = self.devectorised_scan(&s) {
                let split = self.split_soacs(&Body { stms: columns, result: vec![] })?;
                stms.extend(split.stms);
                continue;
            }
            let Exp::Soac(Soac::Screma { w, arrs, scans, reduces, map }) = &s.exp else {
                self.push_or_fold(&mut stms, s)?;
                continue;
            };
            let ops = scans.len() + reduces.len();
            if ops == 0 || (ops == 1 && is_identity(map)) {
                self.push_or_fold(&mut stms, s)?;
                continue;
            }
            let n_in: usize = scans.iter().chain(reduces).map(|o| o.neutral.len()).sum();
            // The map: the operators' inputs, then the mapped results.
            let mut pat = Vec::new();
            for t in &map.ret[..n_in] {
                pat.push(self.fresh_typed("opin", &t.array_of(*w)));
            }
            pat.extend(s.pat[n_in..].iter().cloned());
            let inputs: Vec<VName> = pat[..n_in].iter().map(|p| p.name).collect();
            let map_exp =
                Exp::Soac(Soac::Screma { w: *w, arrs: arrs.clone(), scans: vec![], reduces: vec![], map: map.clone() });
            stms.push(Stm { pat, exp: map_exp, attrs: s.attrs, span: s.span });
            // One SOAC per operator, over its inputs.
            let mut pos = 0;
            for (is_scan, op) in scans.iter().map(|o| (true, o)).chain(reduces.iter().map(|o| (false, o))) {
                let k = op.neutral.len();
                let ins = inputs[pos..pos + k].to_vec();
                let id = self.identity_lambda(&map.ret[pos..pos + k]);
                let lam = crate::inline::fresh_lambda(&op.lambda, &mut self.names);
                super::collect_types_lambda(&lam, &mut self.types);
                let op = Operator { lambda: lam, neutral: op.neutral.clone(), commutative: op.commutative };
                let (scans, reduces) = if is_scan { (vec![op], vec![]) } else { (vec![], vec![op]) };
                let exp = Exp::Soac(Soac::Screma { w: *w, arrs: ins, scans, reduces, map: id });
                self.push_or_fold(
                    &mut stms,
                    Stm { pat: s.pat[pos..pos + k].to_vec(), exp, attrs: s.attrs, span: s.span },
                )?;
                pos += k;
            }
        }
        Ok(Body { stms, result: body.result.clone() })
    }

    /// Pushes `s`, or the loop it becomes when it is a SOAC whose operator
    /// reads floating-point variables from outside (`capture.rs`).
    fn push_or_fold(&mut self, stms: &mut Vec<Stm>, s: Stm) -> R<()> {
        match self.capturing_as_loop(&s) {
            Some(folded) => stms.extend(self.split_soacs(&Body { stms: folded, result: vec![] })?.stms),
            None => stms.push(s),
        }
        Ok(())
    }

    /// `map` over `arrs` as a statement of its own, its results as fresh
    /// arrays (returned).
    fn materialise(&mut self, s: &Stm, w: SubExp, arrs: &[VName], map: &Lambda, stms: &mut Vec<Stm>) -> Vec<VName> {
        let pat: Vec<Param> = map.ret.iter().map(|t| self.fresh_typed("soac_in", &t.array_of(w))).collect();
        let exp = Exp::Soac(Soac::Screma { w, arrs: arrs.to_vec(), scans: vec![], reduces: vec![], map: map.clone() });
        stms.push(Stm { pat: pat.clone(), exp, attrs: s.attrs, span: s.span });
        pat.into_iter().map(|p| p.name).collect()
    }

    /// A lambda returning its parameters, of the given types.
    pub(super) fn identity_lambda(&mut self, types: &[Type]) -> Lambda {
        let ps: Vec<Param> = types.iter().map(|t| self.fresh_typed("x", t)).collect();
        let result = ps.iter().map(|p| SubExp::Var(p.name)).collect();
        Lambda { params: ps, body: Body { stms: vec![], result }, ret: types.to_vec() }
    }

    fn adjoint_or_zero(&mut self, out: &mut Vec<Stm>, adj: &Adjoints, v: VName, span: Span) -> SubExp {
        let ty = self.types[&v].clone();
        self.or_zero(out, adj.of.get(&v).copied(), &ty, span)
    }

    /// A copy of each free array the statement consumes, emitted before it:
    /// the arrays with their copies.
    fn save_consumed(&mut self, s: &Stm, out: &mut Vec<Stm>) -> Vec<(VName, VName)> {
        let free = ogham_ir::visit::free_vars_exp(&s.exp);
        let mut saved = Vec::new();
        for v in ogham_ir::visit::consumed_deep(&s.exp) {
            if free.contains(&v) {
                let ty = self.types[&v].clone();
                saved.push((v, self.bind(out, "saved", ty, Exp::Copy(v), s.span)));
            }
        }
        saved
    }

    /// Emits the forward sweep of `stms`: the statements themselves, with
    /// every `for` loop saving its parameters per iteration (recorded in
    /// `ck`).
    fn forward(&mut self, stms: &[Stm], out: &mut Vec<Stm>, ck: &mut Checkpoints) -> R<()> {
        for s in stms {
            if let (Exp::Loop { .. }, Some(first)) = (&s.exp, s.pat.first()) {
                let saved = self.save_consumed(s, out);
                if !saved.is_empty() {
                    ck.overwritten.insert(first.name, saved);
                }
            }
            match &s.exp {
                Exp::Loop { form: LoopForm::For { .. }, .. } if !s.pat.is_empty() => self.forward_for(s, out, ck)?,
                Exp::If { .. } if !s.pat.is_empty() => {
                    if let Some(restores) = self.reexecuting.then(|| undo::in_place(s, ck)).flatten() {
                        ck.in_place.insert(s.pat[0].name, restores);
                        continue;
                    }
                    // The return sweep re-executes a branch: what it consumes
                    // of the outside is saved first, and the statements
                    // before the `if` see the saved arrays in the return
                    // sweep (restored, as after a loop).
                    let saved = self.save_consumed(s, out);
                    if !saved.is_empty() {
                        ck.overwritten.insert(s.pat[0].name, saved.clone());
                    }
                    ck.consumed.insert(s.pat[0].name, saved);
                    out.push(s.clone());
                }
                Exp::Loop { params, form: LoopForm::While { cond }, body } if !s.pat.is_empty() => {
                    // Count the iterations first (on copies of the initial
                    // arrays, which the loop may update), then run the loop
                    // as a `for` loop of that many iterations, checkpointed.
                    let lam = Lambda {
                        params: params.iter().map(|(p, _)| p.clone()).collect(),
                        body: body.clone(),
                        ret: vec![],
                    };
                    let copy = crate::inline::fresh_lambda(&lam, &mut self.names);
                    super::collect_types_lambda(&copy, &mut self.types);
                    let k = params.iter().position(|(p, _)| p.name == *cond).unwrap_or(0);
                    let mut cparams = Vec::new();
                    for ((p, init), cp) in params.iter().zip(&copy.params) {
                        let init = match init {
                            SubExp::Var(v) if p.ty.rank() > 0 => {
                                SubExp::Var(self.bind(out, "init", p.ty.clone(), Exp::Copy(*v), s.span))
                            }
                            other => *other,
                        };
                        cparams.push((cp.clone(), init));
                    }
                    let count = self.fresh_typed("count", &Type::Prim(PrimType::I64));
                    let mut cbody = copy.body.clone();
                    let next = self.bin(
                        &mut cbody.stms,
                        BinOp::Add,
                        PrimType::I64,
                        SubExp::Var(count.name),
                        SubExp::i64(1),
                        s.span,
                    );
                    cbody.result.push(next);
                    cparams.push((count, SubExp::i64(0)));
                    let mut cpat: Vec<Param> = s.pat.iter().map(|p| self.fresh_typed("counted", &p.ty)).collect();
                    let iterations = self.fresh_typed("iterations", &Type::Prim(PrimType::I64));
                    cpat.push(iterations.clone());
                    let cform = LoopForm::While { cond: copy.params[k].name };
                    out.push(Stm {
                        pat: cpat,
                        exp: Exp::Loop { params: cparams, form: cform, body: cbody },
                        attrs: s.attrs,
                        span: s.span,
                    });
                    let i = self.fresh_typed("i", &Type::Prim(PrimType::I64));
                    let form = LoopForm::For { i: i.name, bound: SubExp::Var(iterations.name) };
                    let as_for = Stm {
                        pat: s.pat.clone(),
                        exp: Exp::Loop { params: params.clone(), form, body: body.clone() },
                        attrs: s.attrs,
                        span: s.span,
                    };
                    self.forward(std::slice::from_ref(&as_for), out, ck)?;
                    ck.whiles.insert(s.pat[0].name, as_for);
                }
                Exp::Soac(Soac::Scatter { w, arrs, dests, map }) if is_identity(map) => {
                    // Save the elements the scatter overwrites.
                    let mut saved = Vec::new();
                    for (d, (idx, _)) in dests.iter().zip(self.scatter_parts(arrs, dests)) {
                        let ty = self.types[d].clone();
                        let elem = scatter::drop_dims(&ty, idx.len());
                        saved.push((*d, self.gather_nd(out, *d, &idx, *w, &elem, s.span)));
                    }
                    ck.scatters.insert(s.pat[0].name, saved);
                    out.push(s.clone());
                }
                Exp::Soac(Soac::Hist { w, arrs, ops, map })
                    if (matches!(&ops[..], [op] if op.shape.len() == 1 && is_addition(&op.op))
                        || hist::few_values(w, ops))
                        && is_identity(map) =>
                {
                    // What `+` (or any operator of a few values) changes:
                    // the elements at its indices.
                    let mut saved = Vec::new();
                    for &d in &ops[0].dests {
                        let elem = self.types[&d].row();
                        saved.push((d, self.gather(out, d, arrs[0], *w, &elem, s.span)));
                    }
                    ck.added.insert(s.pat[0].name, saved);
                    out.push(s.clone());
                }
                Exp::Soac(Soac::Hist { ops, .. }) if ops.len() == 1 => {
                    // The destinations are consumed: the return sweep of
                    // what read them before reads copies.
                    let mut saved = Vec::new();
                    for &d in &ops[0].dests {
                        let ty = self.types[&d].clone();
                        saved.push((d, self.bind(out, "saved", ty, Exp::Copy(d), s.span)));
                    }
                    ck.dests.insert(s.pat[0].name, saved);
                    out.push(s.clone());
                }
                Exp::Update { array, slice, .. } => {
                    // Save what the update overwrites, so that the return
                    // sweep can restore it.
                    let (old, _) = self.overwritten(out, *array, slice, s.span);
                    ck.updates.insert(s.pat[0].name, SubExp::Var(old));
                    out.push(s.clone());
                }
                Exp::Ad { mode: ogham_ir::AdMode::CustomVjp, .. } => out.extend(self.custom_primal(s)),
                Exp::Soac(Soac::Screma { scans, reduces, .. }) if scans.is_empty() && reduces.is_empty() => {
                    self.forward_map(s, out, ck)
                }
                Exp::Apply { .. } if !s.pat.is_empty() => {
                    if !self.forward_call(s, out, ck) {
                        out.push(s.clone());
                    }
                }
                _ => out.push(s.clone()),
            }
        }
        Ok(())
    }

    /// The return sweep of `stms`.
    fn reverse(&mut self, stms: &[Stm], ck: &Checkpoints, adj: &mut Adjoints, out: &mut Vec<Stm>) -> R<()> {
        // An array restored after an in-place update is read under its new
        // name by everything the sweep emits after the restoration.
        let mut restored: Vec<(usize, VName, VName)> = Vec::new();
        // The results of maps used once in this scope, and not its
        // results: a `min` or `max` over one is the only source of its
        // adjoint (see `rev/reduce.rs`).
        let outer_maps = std::mem::take(&mut self.rev_maps);
        let mut uses = HashMap::default();
        for s in stms {
            for v in ogham_ir::visit::free_vars_exp(&s.exp) {
                *uses.entry(v).or_insert(0usize) += 1;
            }
        }
        for s in stms {
            if let Exp::Soac(Soac::Screma { scans, reduces, .. }) = &s.exp {
                if scans.is_empty() && reduces.is_empty() {
                    for (i, p) in s.pat.iter().enumerate() {
                        if uses.get(&p.name) == Some(&1) && !ck.results.contains(&p.name) {
                            self.rev_maps.insert(p.name, (s.clone(), i));
                        }
                    }
                }
            }
        }
        let reversed = (|| {
            for s in stms.iter().rev() {
                for (from, to) in self.rev_stm(s, ck, adj, out)? {
                    restored.push((out.len(), from, to));
                }
            }
            Ok(())
        })();
        self.rev_maps = outer_maps;
        reversed?;
        self.undo.restores = restored.iter().map(|&(_, from, to)| (from, to)).collect();
        // Views of it the forward sweep took before the update (a row, a
        // reshape, a transposition) are taken again from the restored array,
        // and its aliases are the restored array.
        for (at, from, to) in restored.into_iter().rev() {
            let mut tail = Body { stms: out.split_off(at), result: Vec::new() };
            let mut renames = vec![(from, to)];
            for s in stms {
                if view_branches(s) {
                    // A branch that returns a view (`if i == 0 then a[n-1]
                    // else a[i-1]`): the whole `if` again, on the restored
                    // arrays.
                    let free = ogham_ir::visit::free_vars_exp(&s.exp);
                    if !renames.iter().any(|(f, _)| free.contains(f)) {
                        continue;
                    }
                    let names: Vec<VName> = s.pat.iter().map(|p| p.name).collect();
                    let mut again = self.fresh_body(&Body {
                        stms: vec![s.clone()],
                        result: names.iter().map(|v| SubExp::Var(*v)).collect(),
                    });
                    ogham_ir::visit::rename_uses(&mut again, &|v| renamed(&renames, v));
                    for (v, r) in names.iter().zip(&again.result) {
                        if let SubExp::Var(r) = r {
                            renames.push((*v, *r));
                        }
                    }
                    out.append(&mut again.stms);
                    continue;
                }
                if let (Exp::SubExp(SubExp::Var(src)), [p]) = (&s.exp, &s.pat[..]) {
                    // An alias (`loop x = …` binds one to the parameter):
                    // the restored array under the alias's name too.
                    if let Some(new_src) = renamed(&renames, *src) {
                        renames.push((p.name, new_src));
                    }
                    continue;
                }
                let Some(src) = view_source(s) else { continue };
                let Some(new_src) = renamed(&renames, src) else { continue };
                let p = self.fresh_param(&s.pat[0]);
                let mut exp = s.exp.clone();
                set_view_source(&mut exp, new_src);
                out.push(Stm { pat: vec![p.clone()], exp, attrs: s.attrs, span: s.span });
                renames.push((s.pat[0].name, p.name));
            }
            ogham_ir::visit::rename_uses(&mut tail, &|v| renamed(&renames, v));
            out.append(&mut tail.stms);
        }
        Ok(())
    }

    /// What `update array[slice] = …` overwrites, read before it (a copy
    /// for a row: the update consumes the array), with its type.
    pub(super) fn overwritten(
        &mut self,
        out: &mut Vec<Stm>,
        array: VName,
        slice: &[DimIndex],
        span: Span,
    ) -> (VName, Type) {
        let part_ty = slice_type(&self.types[&array], slice);
        let index = Exp::Index { array, slice: slice.to_vec() };
        let mut old = self.bind(out, "old", part_ty.clone(), index, span);
        if part_ty.rank() > 0 {
            old = self.bind(out, "old", part_ty.clone(), Exp::Copy(old), span);
        }
        (old, part_ty)
    }

    /// `adj(v) += c`; nothing for booleans, which have no adjoints (a loop
    /// of a return sweep carries the tape of its conditions: differentiated
    /// again, its parameters' adjoints include the tape's).
    fn add(&mut self, out: &mut Vec<Stm>, adj: &mut Adjoints, v: VName, c: SubExp, span: Span) {
        if self.types.get(&v).is_some_and(|t| t.elem() == PrimType::Bool) {
            return;
        }
        if adj.accs.contains(&v) {
            self.accumulate(out, adj, v, &[], c, span);
            return;
        }
        let Some(old) = adj.of.get(&v).copied() else {
            adj.of.insert(v, c);
            return;
        };
        let ty = self.types[&v].clone();
        let sum = self.sum(out, &ty, old, c, span);
        if let SubExp::Var(x) = sum {
            if ty.rank() > 0 {
                adj.owned.insert(x);
            }
        }
        adj.of.insert(v, sum);
    }

    /// [`Self::add`] of an array made here for this contribution alone (a
    /// SOAC's result): when it is the first, it may be updated in place.
    fn add_fresh(&mut self, out: &mut Vec<Stm>, adj: &mut Adjoints, v: VName, fresh: VName, span: Span) {
        let first = !adj.of.contains_key(&v) && !adj.accs.contains(&v);
        self.add(out, adj, v, SubExp::Var(fresh), span);
        if first && self.types[&fresh].rank() > 0 {
            adj.owned.insert(fresh);
        }
    }

    /// `a + b` on values of type `ty` (elementwise on arrays).
    fn sum(&mut self, out: &mut Vec<Stm>, ty: &Type, a: SubExp, b: SubExp, span: Span) -> SubExp {
        match ty {
            Type::Prim(t) => self.plus(out, *t, a, b, span),
            Type::Array { shape, .. } => {
                let row = ty.row();
                let (x, y) = (self.fresh_typed("x", &row), self.fresh_typed("y", &row));
                let mut body = Vec::new();
                let r = self.sum(&mut body, &row, SubExp::Var(x.name), SubExp::Var(y.name), span);
                let lam = Lambda { params: vec![x, y], body: Body { stms: body, result: vec![r] }, ret: vec![row] };
                let arrs = vec![var_of(a), var_of(b)];
                let exp = Exp::Soac(Soac::Screma { w: shape[0], arrs, scans: vec![], reduces: vec![], map: lam });
                SubExp::Var(self.bind(out, "dsum", ty.clone(), exp, span))
            }
        }
    }

    pub(super) fn fresh_typed(&mut self, base: &str, ty: &Type) -> Param {
        let name = self.names.fresh(base);
        self.types.insert(name, ty.clone());
        Param { name, ty: ty.clone() }
    }

    /// The adjoint of array `a`, one that may be updated in place.
    fn owned_adjoint(&mut self, out: &mut Vec<Stm>, adj: &mut Adjoints, a: VName, span: Span) -> VName {
        let ty = self.types[&a].clone();
        match adj.of.get(&a).copied() {
            Some(SubExp::Var(x)) if adj.owned.contains(&x) => x,
            Some(SubExp::Var(x)) => {
                let c = self.bind(out, "dcopy", ty, Exp::Copy(x), span);
                adj.owned.insert(c);
                c
            }
            _ => {
                let SubExp::Var(z) = self.zero(out, &ty, span) else { return a };
                adj.owned.insert(z);
                z
            }
        }
    }

    /// `adj(v)[slice] += c` where the adjoint of `v` is an accumulator.
    fn accumulate(
        &mut self,
        out: &mut Vec<Stm>,
        adj: &mut Adjoints,
        v: VName,
        slice: &[DimIndex],
        c: SubExp,
        span: Span,
    ) {
        let acc = var_of(adj.of[&v]);
        let ty = self.types[&v].clone();
        let exp = Exp::UpdAcc { acc, slice: slice.to_vec(), value: c, op: Some(BinOp::Add) };
        let next = self.bind(out, "dacc", ty, exp, span);
        adj.of.insert(v, SubExp::Var(next));
    }

    /// `adj(a)[slice] += c`.
    fn add_at(&mut self, out: &mut Vec<Stm>, adj: &mut Adjoints, a: VName, slice: &[DimIndex], c: SubExp, span: Span) {
        if adj.accs.contains(&a) {
            self.accumulate(out, adj, a, slice, c, span);
            return;
        }
        let abar = self.owned_adjoint(out, adj, a, span);
        if self.under_vjp == 0 {
            // Added in place (an accumulation outside a `withacc` updates
            // its array): no copy of the part, no new array for the sum.
            // Not under another `vjp`, which would have to differentiate it.
            let aty = self.types[&a].clone();
            let exp = Exp::UpdAcc { acc: abar, slice: slice.to_vec(), value: c, op: Some(BinOp::Add) };
            let upd = self.bind(out, "dupd", aty, exp, span);
            adj.owned.insert(upd);
            adj.of.insert(a, SubExp::Var(upd));
            return;
        }
        let cty = self.type_of(&c);
        let cur = self.bind(out, "dcur", cty.clone(), Exp::Index { array: abar, slice: slice.to_vec() }, span);
        let new = self.sum(out, &cty, SubExp::Var(cur), c, span);
        let aty = self.types[&a].clone();
        let upd = self.bind(out, "dupd", aty, Exp::Update { array: abar, slice: slice.to_vec(), value: new }, span);
        adj.owned.insert(upd);
        adj.of.insert(a, SubExp::Var(upd));
    }

    /// The return sweep of one statement; for an in-place update, also the
    /// restored array (the consumed name and its new one).
    fn rev_stm(&mut self, s: &Stm, ck: &Checkpoints, adj: &mut Adjoints, out: &mut Vec<Stm>) -> R<Vec<(VName, VName)>> {
        if let Exp::Update { array, slice, value } = &s.exp {
            return self.rev_update(s, *array, slice, *value, ck, adj, out).map(|r| vec![r]);
        }
        if let Exp::Soac(Soac::Scatter { w, arrs, .. }) = &s.exp {
            return self.rev_scatter(s, *w, arrs, ck, adj, out);
        }
        if let (Exp::Soac(Soac::Hist { w, arrs, .. }), Some(saved)) =
            (&s.exp, s.pat.first().and_then(|p| ck.added.get(&p.name)))
        {
            let bars: Vec<Option<SubExp>> = s.pat.iter().map(|p| adj.of.get(&p.name).copied()).collect();
            if bars.iter().any(Option::is_some) {
                self.rev_hist(s, &bars, ck, adj, out)?;
            }
            // The destinations restored: what `+` changed scattered back.
            let mut restores = Vec::new();
            for (p, (d, old)) in s.pat.iter().zip(saved) {
                let from = self.restore_target(out, ck, p.name, s.span);
                let restored = self.scatter_into(out, from, arrs[0], SubExp::Var(*old), *w, &p.ty, s.span);
                restores.push((*d, restored));
            }
            return Ok(restores);
        }
        let first = s.pat.first().map(|p| p.name).unwrap_or(VName(u32::MAX));
        let mut restore = ck.dests.get(&first).cloned().unwrap_or_default();
        restore.extend(ck.overwritten.get(&first).into_iter().flatten().copied());
        let bars: Vec<Option<SubExp>> = s.pat.iter().map(|p| adj.of.get(&p.name).copied()).collect();
        if bars.iter().all(Option::is_none) {
            return Ok(restore);
        }
        let span = s.span;
        let first = s.pat[0].name;
        let ybar = || bars[0].expect("the first result has an adjoint");
        let t = s.pat[0].ty.elem();
        match &s.exp {
            Exp::SubExp(SubExp::Var(x)) => {
                if let Some(b) = bars[0] {
                    self.add(out, adj, *x, b, span);
                }
            }
            Exp::SubExp(SubExp::Const(_)) => {}
            Exp::BinOp(op, _, a, b) => {
                let (pa, pb) = self.binop_partials(out, *op, t, *a, *b, first, span)?;
                for (u, p) in [(a, pa), (b, pb)] {
                    if let (SubExp::Var(u), Some(p)) = (u, p) {
                        let c = self.times(out, t, p, ybar(), span);
                        self.add(out, adj, *u, c, span);
                    }
                }
            }
            Exp::UnOp(op, _, a) => {
                if let (SubExp::Var(u), Some(p)) = (a, self.unop_partial(out, *op, t, *a, first, span)?) {
                    let c = self.times(out, t, p, ybar(), span);
                    self.add(out, adj, *u, c, span);
                }
            }
            Exp::TernOp(op, _, a, b, c) => {
                let ps = self.ternop_partials(out, *op, t, [*a, *b, *c], span);
                for (u, p) in [a, b, c].into_iter().zip(ps) {
                    if let (SubExp::Var(u), Some(p)) = (u, p) {
                        let c = self.times(out, t, p, ybar(), span);
                        self.add(out, adj, *u, c, span);
                    }
                }
            }
            Exp::Conv(op, from, to, SubExp::Var(u)) => {
                let c = self.scalar(out, *from, Exp::Conv(*op, *to, *from, ybar()), span);
                self.add(out, adj, *u, c, span);
            }
            // Futhark's rule: the length gets the sum of the result's
            // adjoint (an integer one: iota's elements are integers), the
            // start and the step nothing.
            Exp::Iota { n: SubExp::Var(n), elem, .. } if *elem == PrimType::I64 => {
                if let Some(SubExp::Var(b)) = bars[0] {
                    let total = self.sum_rows(out, b, &Type::Prim(PrimType::I64), SubExp::Var(*n), span);
                    self.add(out, adj, *n, total, span);
                }
            }
            Exp::Conv(..) | Exp::CmpOp(..) | Exp::Iota { .. } | Exp::Scratch { .. } | Exp::Assert { .. } => {}
            Exp::UserParam { .. } => {}
            Exp::Index { array, slice } => self.add_at(out, adj, *array, slice, ybar(), span),
            Exp::Reshape { array, .. } => {
                let shape = self.types[array].shape().to_vec();
                let ty = self.types[array].clone();
                let v = self.reshaped(out, ybar(), shape, ty, span);
                // The reshape of an adjoint that may be updated in place
                // may be too, in its place: a loop's array parameter of a
                // size the loop carries (`out with [t] = …`) has its
                // reverse loop's adjoint parameter reshaped to it, and the
                // update's rule then copied all of it every iteration.
                match (ybar(), v) {
                    (SubExp::Var(y), SubExp::Var(v)) if adj.owned.remove(&y) => {
                        self.add_fresh(out, adj, *array, v, span)
                    }
                    _ => self.add(out, adj, *array, v, span),
                }
            }
            Exp::Rearrange { array, perm } => {
                let mut inverse = vec![0; perm.len()];
                for (k, &p) in perm.iter().enumerate() {
                    inverse[p] = k;
                }
                let ty = self.types[array].clone();
                let SubExp::Var(y) = ybar() else { return Err(internal(span, "a scalar adjoint of an array".into())) };
                let v = self.bind(out, "dtr", ty, Exp::Rearrange { array: y, perm: inverse }, span);
                self.add(out, adj, *array, SubExp::Var(v), span);
            }
            Exp::Copy(a) => self.add(out, adj, *a, ybar(), span),
            Exp::Certify { values, .. } => {
                for (v, b) in values.iter().zip(&bars) {
                    if let (SubExp::Var(v), Some(b)) = (v, b) {
                        self.add(out, adj, *v, *b, span);
                    }
                }
            }
            Exp::ArrayLit { elems, elem_ty } => {
                for (k, e) in elems.iter().enumerate() {
                    if let SubExp::Var(e) = e {
                        let SubExp::Var(y) = ybar() else { continue };
                        let slice = vec![DimIndex::Fix(SubExp::i64(k as i64))];
                        let c = self.bind(out, "delem", elem_ty.clone(), Exp::Index { array: y, slice }, span);
                        self.add(out, adj, *e, SubExp::Var(c), span);
                    }
                }
            }
            Exp::Concat { dim, arrays, .. } => {
                // Each operand's adjoint is its part of the result's, the
                // slice along the concatenated dimension.
                let SubExp::Var(y) = ybar() else { return Err(internal(span, "a scalar adjoint of an array".into())) };
                let mut offset = SubExp::i64(0);
                for a in arrays {
                    let ty = self.types[a].clone();
                    let len = ty.shape()[*dim];
                    let slice = ty
                        .shape()
                        .iter()
                        .enumerate()
                        .map(|(d, w)| {
                            let start = if d == *dim { offset } else { SubExp::i64(0) };
                            DimIndex::Slice { start, len: *w, stride: SubExp::i64(1) }
                        })
                        .collect();
                    let part = self.bind(out, "dpart", ty, Exp::Index { array: y, slice }, span);
                    self.add(out, adj, *a, SubExp::Var(part), span);
                    offset = self.bin(out, BinOp::Add, PrimType::I64, offset, len, span);
                }
            }
            Exp::Replicate { shape, value: SubExp::Var(v) } => {
                // The sum over the replicated dimensions.
                let vty = self.types[v].clone();
                let mut flat = SubExp::i64(1);
                for d in shape {
                    flat = self.bin(out, BinOp::Mul, PrimType::I64, flat, *d, span);
                }
                let rows = vty.array_of(flat);
                let SubExp::Var(y) = ybar() else { return Err(internal(span, "a scalar adjoint of an array".into())) };
                let rows = self.bind(
                    out,
                    "drows",
                    rows.clone(),
                    Exp::Reshape { array: y, shape: rows.shape().to_vec() },
                    span,
                );
                let total = self.sum_rows(out, rows, &vty, flat, span);
                self.add(out, adj, *v, total, span);
            }
            Exp::Replicate { .. } => {}
            Exp::If { .. } => restore.extend(self.rev_if(s, ck, &bars, adj, out)?),
            Exp::Loop { form: LoopForm::For { .. }, .. } => self.rev_loop(s, ck, &bars, adj, out)?,
            Exp::Loop { .. } => match ck.whiles.get(&first) {
                Some(as_for) => {
                    let as_for = as_for.clone();
                    self.rev_loop(&as_for, ck, &bars, adj, out)?
                }
                None => return Err(internal(span, "a `while` loop without its count".into())),
            },
            Exp::Soac(Soac::Screma { scans, reduces, .. }) if scans.is_empty() && reduces.is_empty() => {
                self.rev_map(s, ck, &bars, adj, out)?
            }
            Exp::Soac(Soac::Screma { scans, .. }) if scans.is_empty() => self.rev_reduce(s, &bars, adj, out)?,
            Exp::Soac(Soac::Screma { .. }) => self.rev_scan(s, &bars, adj, out)?,
            Exp::Soac(Soac::Hist { .. }) => self.rev_hist(s, &bars, ck, adj, out)?,
            Exp::Soac(Soac::Scatter { .. }) => return Err(internal(span, "a scatter outside its rule".into())),
            Exp::Update { .. } => return Err(internal(span, "an update outside its rule".into())),
            Exp::UpdAcc { .. } => return Err(unsupported(span, "an accumulator update")),
            Exp::Soac(Soac::WithAcc { .. }) => return Err(unsupported(span, "withacc")),
            Exp::Apply { .. } => self.rev_apply(s, ck, &bars, adj, out)?,
            Exp::Ad { mode: ogham_ir::AdMode::CustomVjp, lambda, args, .. } => {
                // The user's derivative, run with the results' adjoints.
                let (lam, stms) = self.custom_copy(lambda, args, Some(&bars), span);
                out.extend(stms);
                let k = ogham_ir::AdMode::custom_results(lambda, args.len());
                for (a, r) in args.iter().zip(&lam.body.result[k..]) {
                    if let SubExp::Var(a) = a {
                        self.add(out, adj, *a, *r, span);
                    }
                }
            }
            Exp::Ad { .. } => return Err(internal(span, "a nested derivative left".into())),
        }
        Ok(restore)
    }

    /// `y = a with [slice] = x`: x̄ += ȳ[slice], ā += ȳ with [slice] = 0,
    /// and `a` is restored from `y` and the saved elements.
    #[allow(clippy::too_many_arguments)]
    fn rev_update(
        &mut self,
        s: &Stm,
        a: VName,
        slice: &[DimIndex],
        x: SubExp,
        ck: &Checkpoints,
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<(VName, VName)> {
        let span = s.span;
        let y = s.pat[0].name;
        let ty = self.types[&y].clone();
        let Some(old) = ck.updates.get(&y).copied() else {
            return Err(internal(span, "an update without its saved elements".into()));
        };
        let part_ty = self.type_of(&old);
        if adj.of.contains_key(&y) {
            let ybar = self.owned_adjoint(out, adj, y, span);
            let part =
                self.bind(out, "dpart", part_ty.clone(), Exp::Index { array: ybar, slice: slice.to_vec() }, span);
            let part =
                if part_ty.rank() > 0 { self.bind(out, "dpart", part_ty.clone(), Exp::Copy(part), span) } else { part };
            if let SubExp::Var(x) = x {
                self.add(out, adj, x, SubExp::Var(part), span);
            }
            let zero = self.zero(out, &part_ty, span);
            let cleared = self.bind(
                out,
                "dcleared",
                ty.clone(),
                Exp::Update { array: ybar, slice: slice.to_vec(), value: zero },
                span,
            );
            adj.owned.insert(cleared);
            adj.of.remove(&y);
            self.add(out, adj, a, SubExp::Var(cleared), span);
        }
        let from = self.restore_target(out, ck, y, span);
        let restored =
            self.bind(out, "restored", ty, Exp::Update { array: from, slice: slice.to_vec(), value: old }, span);
        Ok((a, restored))
    }

    /// The array a return sweep restores the in-place result `y` of an
    /// update, scatter or histogram into: `y` itself, or a copy where `y`
    /// is a result of the scope (or a loop's initial value), still needed.
    fn restore_target(&mut self, out: &mut Vec<Stm>, ck: &Checkpoints, y: VName, span: Span) -> VName {
        if ck.results.contains(&y) || ck.loop_inits.contains(&y) {
            let ty = self.types[&y].clone();
            self.bind(out, "kept", ty, Exp::Copy(y), span)
        } else {
            y
        }
    }

    /// `reshape` of an adjoint to `shape`.
    fn reshaped(&mut self, out: &mut Vec<Stm>, y: SubExp, shape: Vec<SubExp>, ty: Type, span: Span) -> SubExp {
        let SubExp::Var(y) = y else { return y };
        SubExp::Var(self.bind(out, "dreshape", ty, Exp::Reshape { array: y, shape }, span))
    }

    /// `+` on values of type `ty` (elementwise on arrays), with neutral
    /// element zero (emitted into `out`).
    fn sum_operator(&mut self, out: &mut Vec<Stm>, ty: &Type, span: Span) -> Operator {
        let (x, y) = (self.fresh_typed("x", ty), self.fresh_typed("y", ty));
        let mut body = Vec::new();
        let r = self.sum(&mut body, ty, SubExp::Var(x.name), SubExp::Var(y.name), span);
        let ne = self.zero(out, ty, span);
        Operator {
            lambda: Lambda { params: vec![x, y], body: Body { stms: body, result: vec![r] }, ret: vec![ty.clone()] },
            neutral: vec![ne],
            commutative: true,
        }
    }

    /// The sum of the `n` rows (of type `row`) of `rows`.
    fn sum_rows(&mut self, out: &mut Vec<Stm>, rows: VName, row: &Type, n: SubExp, span: Span) -> SubExp {
        let op = self.sum_operator(out, row, span);
        let map = self.identity_lambda(std::slice::from_ref(row));
        let exp = Exp::Soac(Soac::Screma { w: n, arrs: vec![rows], scans: vec![], reduces: vec![op], map });
        SubExp::Var(self.bind(out, "dtotal", row.clone(), exp, span))
    }

    /// A renamed copy of a body (for re-execution beside the original).
    fn fresh_body(&mut self, body: &Body) -> Body {
        let lam = Lambda { params: vec![], body: body.clone(), ret: vec![] };
        crate::inline::fresh_lambda(&lam, &mut self.names).body
    }

    /// The return sweep of a renamed copy of `body`, re-executed, with
    /// adjoints `bars` for its results and `start` for some of its free
    /// variables: the statements, and the adjoints found.
    fn scope(
        &mut self,
        body: &Body,
        bars: &[Option<SubExp>],
        start: Adjoints,
        consumed: &[(VName, VName)],
        replay: Option<&tape::Replay>,
        span: Span,
    ) -> R<(Vec<Stm>, Adjoints, BTreeSet<VName>)> {
        let copy = self.fresh_body(body);
        super::collect_types_body(&copy, &mut self.types);
        let mut copy = self.split_soacs(&copy)?;
        let free = free_vars_body(&copy);
        let mut out = Vec::new();
        // Free arrays the scope consumes are read from fresh copies of what
        // the forward sweep saved.
        let mut copies = Vec::new();
        for (v, saved) in consumed {
            let ty = self.types[v].clone();
            let c = self.bind(&mut out, "resaved", ty, Exp::Copy(*saved), span);
            copies.push((*v, c));
        }
        if !copies.is_empty() {
            ogham_ir::visit::rename_uses(&mut copy, &|v| copies.iter().find(|(f, _)| *f == v).map(|(_, c)| *c));
        }
        let mut ck = Checkpoints::of(&copy);
        for k in std::mem::take(&mut self.undo.dead_results) {
            if let Some(SubExp::Var(r)) = copy.result.get(k) {
                ck.results.remove(r);
            }
        }
        let outer = std::mem::replace(&mut self.reexecuting, true);
        let swept = self.forward_replaying(&copy.stms, &mut out, &mut ck, replay);
        self.reexecuting = outer;
        swept?;
        let mut adj = start;
        for (r, b) in copy.result.iter().zip(bars) {
            if let (SubExp::Var(r), Some(b)) = (r, b) {
                self.add(&mut out, &mut adj, *r, *b, span);
            }
        }
        self.reverse(&copy.stms, &ck, &mut adj, &mut out)?;
        for (v, c) in copies {
            if let Some(a) = adj.of.remove(&c) {
                self.add(&mut out, &mut adj, v, a, span);
            }
        }
        Ok((out, adj, free))
    }

    fn rev_if(
        &mut self,
        s: &Stm,
        ck: &Checkpoints,
        bars: &[Option<SubExp>],
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<Vec<(VName, VName)>> {
        let Exp::If { cond, then_body, else_body } = &s.exp else { return Ok(Vec::new()) };
        let span = s.span;
        // (The re-executed branches update copies of the saved arrays,
        // `scope`'s `consumed`, which stay as they were for the statements
        // before the `if`; or, where the `if` was not run again, the
        // arrays themselves, which each branch's return sweep restores
        // and returns.)
        let undo::InPlace { arrays: in_place, views } = ck.in_place.get(&s.pat[0].name).cloned().unwrap_or_default();
        let consumed = ck.consumed.get(&s.pat[0].name).cloned().unwrap_or_default();
        let dead: Vec<usize> = in_place.iter().map(|(_, k)| *k).collect();
        // Views of the arrays taken before the `if` are taken again at the
        // start of each branch, where the return sweep takes them once more
        // from the restored arrays (`reverse`).
        let with_views = |b: &Body| Body {
            stms: views.iter().cloned().chain(b.stms.iter().cloned()).collect(),
            result: b.result.clone(),
        };
        let (then_body, else_body) = (&with_views(then_body), &with_views(else_body));
        // Accumulators the branches may add to go through them.
        let mut used = free_vars_body(then_body);
        used.extend(free_vars_body(else_body));
        let threaded: Vec<VName> =
            adj.accs.iter().filter(|v| used.contains(v)).copied().collect::<BTreeSet<_>>().into_iter().collect();
        let mut start = Adjoints::default();
        for v in &threaded {
            start.of.insert(*v, adj.of[v]);
            start.accs.insert(*v);
        }
        // So does an adjoint array of a free variable built here before
        // (an enclosing loop's, say): each branch adds to it in place, or
        // returns it as it is, rather than the branches' adjoints starting
        // from zero and being added to it after (a whole array per
        // execution of the `if`).
        let through: Vec<VName> = adj
            .of
            .iter()
            .filter(|(v, a)| {
                used.contains(*v)
                    && !threaded.contains(*v)
                    && matches!(a, SubExp::Var(a) if adj.owned.contains(a) && self.types[a].rank() > 0)
            })
            .map(|(v, _)| *v)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        for v in &through {
            let SubExp::Var(a) = adj.of[v] else { continue };
            start.of.insert(*v, SubExp::Var(a));
            start.owned.insert(a);
        }
        // So does the adjoint of a result that was built here and is read
        // nowhere else.
        let mut owned_bars = Vec::new();
        for b in bars.iter().flatten() {
            let SubExp::Var(b) = b else { continue };
            let once = adj.of.values().filter(|a| **a == SubExp::Var(*b)).count() == 1;
            if adj.owned.contains(b) && once && !owned_bars.contains(b) {
                owned_bars.push(*b);
                start.owned.insert(*b);
            }
        }
        let restored =
            |cx: &Ad| -> Vec<SubExp> { in_place.iter().map(|(v, _)| SubExp::Var(cx.undo.restored(*v))).collect() };
        self.undo.dead_results = dead.clone();
        let (mut ts, ta, tfree) = self.scope(then_body, bars, start.clone(), &consumed, None, span)?;
        let t_restored = restored(self);
        self.undo.dead_results = dead;
        let (mut es, ea, efree) = self.scope(else_body, bars, start, &consumed, None, span)?;
        let e_restored = restored(self);
        for b in owned_bars {
            adj.owned.remove(&b);
        }
        let fvs: BTreeSet<VName> = ta
            .of
            .keys()
            .filter(|v| tfree.contains(v))
            .chain(ea.of.keys().filter(|v| efree.contains(v)))
            .filter(|v| !threaded.contains(v) && !through.contains(v))
            .copied()
            .collect();
        let (mut tr, mut er, mut pat) = (Vec::new(), Vec::new(), Vec::new());
        for v in threaded.iter().chain(&through) {
            let ty = self.types[v].clone();
            tr.push(ta.of[v]);
            er.push(ea.of[v]);
            pat.push(self.fresh_typed("dacc", &ty));
        }
        // A free variable's adjoint from the branches is an array made
        // here when each branch's is (built in the branch, or a zero):
        // the first contribution to its adjoint may then be updated in
        // place after the `if` (a loop's array whose element the `if`'s
        // condition reads: no copy of the adjoint per reverse iteration).
        let mut fresh = Vec::new();
        for v in &fvs {
            let ty = self.types[v].clone();
            let owned = |a: &Adjoints, free: &BTreeSet<VName>| match a.of.get(v) {
                Some(SubExp::Var(x)) if free.contains(v) => a.owned.contains(x),
                Some(_) if free.contains(v) => false,
                _ => true,
            };
            fresh.push(ty.rank() > 0 && owned(&ta, &tfree) && owned(&ea, &efree));
            tr.push(match ta.of.get(v) {
                Some(a) if tfree.contains(v) => *a,
                _ => self.zero(&mut ts, &ty, span),
            });
            er.push(match ea.of.get(v) {
                Some(a) if efree.contains(v) => *a,
                _ => self.zero(&mut es, &ty, span),
            });
            pat.push(self.fresh_typed("dbranch", &ty));
        }
        tr.extend(t_restored);
        er.extend(e_restored);
        let mut restores = Vec::new();
        for (v, _) in &in_place {
            let ty = self.types[v].clone();
            let r = self.fresh_typed("restored", &ty);
            restores.push((*v, r.name));
            pat.push(r);
        }
        let exp =
            Exp::If { cond: *cond, then_body: Body { stms: ts, result: tr }, else_body: Body { stms: es, result: er } };
        out.push(Stm { pat: pat.clone(), exp, attrs: s.attrs, span });
        for (v, p) in threaded.iter().zip(&pat) {
            adj.of.insert(*v, SubExp::Var(p.name));
        }
        for (v, p) in through.iter().zip(&pat[threaded.len()..]) {
            if let Some(SubExp::Var(old)) = adj.of.insert(*v, SubExp::Var(p.name)) {
                adj.owned.remove(&old);
            }
            adj.owned.insert(p.name);
        }
        for ((v, p), fresh) in fvs.iter().zip(&pat[threaded.len() + through.len()..]).zip(fresh) {
            if fresh {
                self.add_fresh(out, adj, *v, p.name, span);
            } else {
                self.add(out, adj, *v, SubExp::Var(p.name), span);
            }
        }
        Ok(restores)
    }

    fn rev_loop(
        &mut self,
        s: &Stm,
        ck: &Checkpoints,
        bars: &[Option<SubExp>],
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<()> {
        let Exp::Loop { params, form: LoopForm::For { i, bound }, body } = &s.exp else { return Ok(()) };
        let span = s.span;
        let Some(saved) = ck.loops.get(&s.pat[0].name).cloned() else {
            return Err(internal(span, "a loop without checkpoints".into()));
        };
        let logs = ck.undo.get(&s.pat[0].name).cloned().unwrap_or_default();
        // The reverse loop runs over the tapes' length, as the forward loop
        // did (`max(bound, 0)` where the bound may be negative:
        // `rev/tape.rs`), also when an enclosing loop taped the tapes.
        let first_tape = saved.first().or_else(|| logs.iter().flat_map(|l| &l.updates).map(|u| &u.old).next());
        let tapes_length = first_tape.and_then(|a| self.types.get(a)).and_then(|t| t.shape().first().copied());
        let bound = &tapes_length.unwrap_or(*bound);
        // The loop as a lambda over its index and parameters, renamed.
        let mut lparams: Vec<Param> = vec![Param { name: *i, ty: Type::Prim(PrimType::I64) }];
        lparams.extend(params.iter().map(|(p, _)| p.clone()));
        let lam = Lambda { params: lparams, body: body.clone(), ret: vec![] };
        // Which free variables get adjoints: a trial return sweep.
        let trial = crate::inline::fresh_lambda(&lam, &mut self.names);
        super::collect_types_lambda(&trial, &mut self.types);
        let trial_bars: Vec<Option<SubExp>> = trial.params[1..].iter().map(|p| Some(SubExp::Var(p.name))).collect();
        let (_, found, free) = self.scope(&trial.body, &trial_bars, Adjoints::default(), &[], None, span)?;
        let bound_here: HashSet<VName> = trial.params.iter().map(|p| p.name).collect();
        let fvs: Vec<VName> = found
            .of
            .keys()
            .filter(|v| free.contains(v) && !bound_here.contains(v))
            .copied()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .filter(|v| !params.iter().any(|(p, _)| p.name == *v))
            .collect();
        // The reverse loop: parameters are the adjoints of the loop
        // parameters and of the free variables.
        let real = crate::inline::fresh_lambda(&lam, &mut self.names);
        super::collect_types_lambda(&real, &mut self.types);
        let k = self.names.fresh("k");
        self.types.insert(k, Type::Prim(PrimType::I64));
        let mut rparams = Vec::new();
        let mut start = Adjoints::default();
        let mut inner_bars = Vec::new();
        let mut taken = HashSet::default();
        for ((p, _), b) in params.iter().zip(bars) {
            let init = match b {
                // An adjoint array built here (not needed after this
                // statement) goes into the loop as it is.
                Some(SubExp::Var(b)) if adj.owned.contains(b) && taken.insert(*b) => SubExp::Var(*b),
                Some(b) => self.owned_value(out, *b, &p.ty, span),
                None => self.zero(out, &p.ty, span),
            };
            let bp = self.fresh_typed("dparam", &p.ty);
            if p.ty.rank() > 0 {
                start.owned.insert(bp.name);
            }
            inner_bars.push(Some(SubExp::Var(bp.name)));
            rparams.push((bp, init));
        }
        let mut through = HashSet::default();
        for v in &fvs {
            let ty = self.types[v].clone();
            let bp = self.fresh_typed("dfree", &ty);
            start.of.insert(*v, SubExp::Var(bp.name));
            // An accumulator goes through the loop, and so does an adjoint
            // found so far, which the loop then adds to; others start from
            // zero and are added after.
            let init = if adj.accs.contains(v) {
                start.accs.insert(*v);
                adj.of[v]
            } else {
                if ty.rank() > 0 {
                    start.owned.insert(bp.name);
                }
                match adj.of.get(v) {
                    Some(_) if ty.rank() > 0 => {
                        let a = self.owned_adjoint(out, adj, *v, span);
                        adj.owned.remove(&a);
                        through.insert(*v);
                        SubExp::Var(a)
                    }
                    _ => self.zero(out, &ty, span),
                }
            };
            rparams.push((bp, init));
        }
        // A logged parameter's array itself, from the loop's last value
        // back to its first (`rev/undo.rs`).
        let mut current = Vec::new();
        for log in &logs {
            let ty = params[log.param].0.ty.clone();
            let last = self.bind(out, "undone", ty.clone(), Exp::Copy(s.pat[log.param].name), span);
            let cp = self.fresh_typed("undone", &ty);
            current.push(cp.name);
            rparams.push((cp, SubExp::Var(last)));
        }
        // Restore the iteration's index and parameters, then re-execute.
        let mut rbody = Vec::new();
        let last = self.bin(&mut rbody, BinOp::Sub, PrimType::I64, *bound, SubExp::i64(1), span);
        let idx = self.bin(&mut rbody, BinOp::Sub, PrimType::I64, last, SubExp::Var(k), span);
        rbody.push(stm(real.params[0].clone(), Exp::SubExp(idx), span));
        // A parameter that the re-executed body updates in place (itself
        // or through a view) is restored as a copy of the saved array.
        let layouts = ck.tapes.get(&s.pat[0].name).cloned().unwrap_or_default();
        let params_here: Vec<VName> = real.params[1..].iter().map(|p| p.name).collect();
        let consumed = tape::consumed_params(&real.body.stms, &layouts, &params_here);
        let mut saved_params = saved.iter();
        for (k, p) in real.params[1..].iter().enumerate() {
            if let Some(at) = logs.iter().position(|l| l.param == k) {
                self.undo_iteration(&mut rbody, &logs[at], current[at], p, idx, span);
                continue;
            }
            let Some(sv) = saved_params.next() else {
                return Err(internal(span, "a loop parameter without its checkpoints".into()));
            };
            let exp = Exp::Index { array: *sv, slice: vec![DimIndex::Fix(idx)] };
            if consumed.contains(&p.name) && p.ty.rank() > 0 {
                let row = self.bind(&mut rbody, "saved_row", p.ty.clone(), exp, span);
                rbody.push(stm(p.clone(), Exp::Copy(row), span));
            } else {
                rbody.push(stm(p.clone(), exp, span));
            }
        }
        // The statements the forward loop taped are read back, not re-run.
        let replay = tape::Replay { layouts, arrays: saved_params.copied().collect(), index: Some(idx) };
        self.undo.dead_results = logs.iter().map(|l| l.param).collect();
        let (stms, found, _) = self.scope(&real.body, &inner_bars, start, &[], Some(&replay), span)?;
        let carried: Vec<SubExp> =
            logs.iter().map(|l| SubExp::Var(self.undo.restored(real.params[1 + l.param].name))).collect();
        rbody.extend(stms);
        let mut results = Vec::new();
        for p in &real.params[1..] {
            let a = self.adjoint_or_zero(&mut rbody, &found, p.name, span);
            results.push(a);
        }
        for v in &fvs {
            results.push(found.of[v]);
        }
        results.extend(carried);
        let mut pat = Vec::new();
        for (bp, _) in &rparams {
            pat.push(self.fresh_typed("dloop", &bp.ty));
        }
        let exp = Exp::Loop {
            params: rparams,
            form: LoopForm::For { i: k, bound: *bound },
            body: Body { stms: rbody, result: results },
        };
        out.push(Stm { pat: pat.clone(), exp, attrs: s.attrs, span });
        for b in taken {
            adj.owned.remove(&b);
        }
        // The free variables' adjoints first: one that went through the
        // loop replaces the adjoint found before it, which the initial
        // values' adjoints (the same variable may be both) then add to.
        for (v, p) in fvs.iter().zip(&pat[params.len()..]) {
            if adj.accs.contains(v) {
                adj.of.insert(*v, SubExp::Var(p.name));
            } else if through.contains(v) {
                adj.of.insert(*v, SubExp::Var(p.name));
                adj.owned.insert(p.name);
            } else {
                self.add(out, adj, *v, SubExp::Var(p.name), span);
            }
        }
        for ((_, init), p) in params.iter().zip(&pat) {
            if let SubExp::Var(init) = init {
                self.add(out, adj, *init, SubExp::Var(p.name), span);
            }
        }
        Ok(())
    }

    /// `x` itself if a scalar, else a copy (an adjoint array that a loop
    /// may update in place).
    fn owned_value(&mut self, out: &mut Vec<Stm>, x: SubExp, ty: &Type, span: Span) -> SubExp {
        match x {
            SubExp::Var(v) if ty.rank() > 0 => SubExp::Var(self.bind(out, "dcopy", ty.clone(), Exp::Copy(v), span)),
            other => other,
        }
    }

    fn rev_map(
        &mut self,
        s: &Stm,
        ck: &Checkpoints,
        bars: &[Option<SubExp>],
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<()> {
        let Exp::Soac(Soac::Screma { w, arrs, map, .. }) = &s.exp else { return Ok(()) };
        let span = s.span;
        if let [Some(cbar)] = bars {
            if self.rev_matmul(s, cbar, adj, out)? {
                return Ok(());
            }
        }
        // The adjoints of the results, as extra inputs (rows inside).
        let mut in_arrs = arrs.clone();
        let mut row_bars = Vec::new();
        let mut bar_params = Vec::new();
        for (p, b) in s.pat.iter().zip(bars) {
            match b {
                Some(SubExp::Var(b)) => {
                    let rp = self.fresh_typed("drow", &p.ty.row());
                    in_arrs.push(*b);
                    row_bars.push(Some(SubExp::Var(rp.name)));
                    bar_params.push(rp);
                }
                _ => row_bars.push(None),
            }
        }
        // What the forward map saved per element: more inputs.
        let replay = match ck.maps.get(&s.pat[0].name) {
            Some((layouts, arrays)) => {
                let mut elems = Vec::new();
                for a in arrays {
                    let p = self.fresh_typed("taped", &self.types[a].row());
                    in_arrs.push(*a);
                    elems.push(p.name);
                    bar_params.push(p);
                }
                Some(tape::Replay { layouts: layouts.clone(), arrays: elems, index: None })
            }
            None => None,
        };
        // Which free variables get adjoints: a trial.
        let trial = crate::inline::fresh_lambda(map, &mut self.names);
        super::collect_types_lambda(&trial, &mut self.types);
        let (_, found, free) = self.scope(&trial.body, &row_bars, Adjoints::default(), &[], None, span)?;
        let own: HashSet<VName> = trial.params.iter().map(|p| p.name).collect();
        let fvs: Vec<VName> = found
            .of
            .keys()
            .filter(|v| free.contains(v) && !own.contains(v) && !row_bars.contains(&Some(SubExp::Var(**v))))
            .copied()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let acc_input = arrs.iter().any(|a| adj.accs.contains(a) && self.types[a].rank() >= 2);
        if acc_input || fvs.iter().any(|v| self.types[v].rank() > 0) {
            if self.under_vjp == 0 {
                let inputs = MapInputs { arrs: in_arrs, row_bars, params: bar_params, replay };
                return self.rev_map_accumulating(s, *w, inputs, fvs, adj, out);
            }
            let inputs = MapInputs {
                arrs: in_arrs.clone(),
                row_bars: row_bars.clone(),
                params: bar_params.clone(),
                replay: replay.clone(),
            };
            // Under an enclosing `vjp`, which differentiates accumulators
            // only as the `scatter`s and `hist`s they compute
            // (`withacc.rs`): accumulators where every update is at the
            // top of the `withacc`'s function, whole arrays otherwise.
            let (mut trial, mut trial_adj) = (Vec::new(), adj.clone());
            self.rev_map_accumulating(s, *w, inputs, fvs.clone(), &mut trial_adj, &mut trial)?;
            if trial.iter().all(|t| self.accumulates_simply(t)) {
                out.append(&mut trial);
                *adj = trial_adj;
                return Ok(());
            }
        }
        let real = crate::inline::fresh_lambda(map, &mut self.names);
        super::collect_types_lambda(&real, &mut self.types);
        let mut lbody = Vec::new();
        let (stms, found, _) = self.scope(&real.body, &row_bars, Adjoints::default(), &[], replay.as_ref(), span)?;
        // The lambda's parameters are bound by the map, not the body copy:
        // re-bind the copy's free uses of them.
        lbody.extend(stms);
        let mut results = Vec::new();
        let mut ret = Vec::new();
        let mut reduces = Vec::new();
        for v in &fvs {
            let ty = self.types[v].clone();
            results.push(match found.of.get(v) {
                Some(a) => *a,
                None => self.zero(&mut lbody, &ty, span),
            });
            ret.push(ty.clone());
            reduces.push(self.sum_operator(out, &ty, span));
        }
        // Inputs whose rows get no adjoint get no adjoint array of zeros
        // (an integer `iota`'s, say, which would otherwise be summed).
        let inputs: Vec<(VName, &Param)> = arrs
            .iter()
            .zip(&real.params)
            .filter(|(_, p)| found.of.contains_key(&p.name))
            .map(|(a, p)| (*a, p))
            .collect();
        for (_, p) in &inputs {
            results.push(found.of[&p.name]);
            ret.push(p.ty.clone());
        }
        let mut params = real.params.clone();
        params.extend(bar_params);
        let lam = Lambda { params, body: Body { stms: lbody, result: results }, ret };
        let mut pat = Vec::new();
        for v in &fvs {
            let ty = self.types[v].clone();
            pat.push(self.fresh_typed("dfree", &ty));
        }
        for (_, p) in &inputs {
            let ty = p.ty.array_of(*w);
            pat.push(self.fresh_typed("dinput", &ty));
        }
        let exp = Exp::Soac(Soac::Screma { w: *w, arrs: in_arrs, scans: vec![], reduces, map: lam });
        out.push(Stm { pat: pat.clone(), exp, attrs: s.attrs, span });
        for (v, p) in fvs.iter().zip(&pat) {
            self.add(out, adj, *v, SubExp::Var(p.name), span);
        }
        for ((a, _), p) in inputs.iter().zip(&pat[fvs.len()..]) {
            self.add_fresh(out, adj, *a, p.name, span);
        }
        Ok(())
    }

    /// Whether a statement updates no accumulator, or is a `withacc`
    /// that reverse mode differentiates as the SOACs it computes.
    fn accumulates_simply(&mut self, s: &Stm) -> bool {
        fn updates(e: &Exp) -> bool {
            matches!(e, Exp::UpdAcc { .. })
                || ogham_ir::visit::bodies(e).into_iter().any(|b| b.stms.iter().any(|s| updates(&s.exp)))
                || ogham_ir::visit::lambdas(e).into_iter().any(|l| l.body.stms.iter().any(|s| updates(&s.exp)))
        }
        if !updates(&s.exp) {
            return true;
        }
        matches!(s.exp, Exp::Soac(Soac::WithAcc { .. }))
            && self.withacc_as_soacs(s).is_some_and(|soacs| soacs.iter().all(|t| !updates(&t.exp)))
    }

    /// The return sweep of a `map` whose function reads free arrays: a
    /// `withacc` whose accumulators are the adjoints of those arrays, so
    /// each application adds only what it read (seed 004 §4.5) instead of
    /// building a whole adjoint array. Free scalars' contributions are
    /// mapped and summed after. An input array of rows whose adjoint is
    /// already an accumulator (inside an enclosing `withacc`) gets each
    /// row's adjoint added in place, at the row's index, rather than built
    /// as an array and added whole.
    fn rev_map_accumulating(
        &mut self,
        s: &Stm,
        w: SubExp,
        inputs: MapInputs,
        fvs: Vec<VName>,
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<()> {
        let MapInputs { arrs: mut in_arrs, row_bars, params: bar_params, replay } = inputs;
        let Exp::Soac(Soac::Screma { arrs, map, .. }) = &s.exp else { return Ok(()) };
        let span = s.span;
        let (acc_fvs, scalar_fvs): (Vec<VName>, Vec<VName>) = fvs.into_iter().partition(|v| self.types[v].rank() > 0);
        // Every array accumulated into: the free ones, then the inputs
        // whose adjoints are accumulators (each once).
        // Rows of scalars are better built as an array and added whole
        // (a vectorisable loop) than added one element at a time.
        let rows_in_place: Vec<bool> = arrs.iter().map(|a| adj.accs.contains(a) && self.types[a].rank() >= 2).collect();
        let mut acc_vars = acc_fvs.clone();
        for (a, in_place) in arrs.iter().zip(&rows_in_place) {
            if *in_place && !acc_vars.contains(a) {
                acc_vars.push(*a);
            }
        }
        let mut start = Adjoints::default();
        let mut accs = Vec::new();
        let mut acc_params = Vec::new();
        for v in &acc_vars {
            let ty = self.types[v].clone();
            let a = if adj.accs.contains(v) { var_of(adj.of[v]) } else { self.owned_adjoint(out, adj, *v, span) };
            accs.push(a);
            let p = self.fresh_typed("dacc", &ty);
            start.of.insert(*v, SubExp::Var(p.name));
            start.accs.insert(*v);
            acc_params.push(p);
        }
        // The index of each application, for the rows updated in place.
        let index = if rows_in_place.iter().any(|&b| b) {
            let iota = self.indices(out, w, span);
            in_arrs.push(iota);
            Some(self.fresh_typed("i", &Type::Prim(PrimType::I64)))
        } else {
            None
        };
        let real = crate::inline::fresh_lambda(map, &mut self.names);
        super::collect_types_lambda(&real, &mut self.types);
        let (mut lbody, mut found, _) = self.scope(&real.body, &row_bars, start, &[], replay.as_ref(), span)?;
        for ((a, p), in_place) in arrs.iter().zip(&real.params).zip(&rows_in_place) {
            if let (true, Some(i), Some(r)) = (*in_place, &index, found.of.get(&p.name).copied()) {
                let slice = [DimIndex::Fix(SubExp::Var(i.name))];
                self.accumulate(&mut lbody, &mut found, *a, &slice, r, span);
            }
        }
        let (mut results, mut ret) = (Vec::new(), Vec::new());
        for (v, p) in acc_vars.iter().zip(&acc_params) {
            results.push(found.of[v]);
            ret.push(p.ty.clone());
        }
        for v in &scalar_fvs {
            let ty = self.types[v].clone();
            results.push(match found.of.get(v) {
                Some(a) => *a,
                None => self.zero(&mut lbody, &ty, span),
            });
            ret.push(ty);
        }
        // The inputs added whole, those whose rows got adjoints.
        let whole: Vec<bool> = real
            .params
            .iter()
            .zip(&rows_in_place)
            .map(|(p, in_place)| !in_place && found.of.contains_key(&p.name))
            .collect();
        for (p, _) in real.params.iter().zip(&whole).filter(|(_, added)| **added) {
            results.push(found.of[&p.name]);
            ret.push(p.ty.clone());
        }
        let mut params = acc_params.clone();
        params.extend(real.params.iter().cloned());
        params.extend(bar_params);
        params.extend(index);
        let lam = Lambda { params, body: Body { stms: lbody, result: results }, ret };
        let mut pat = Vec::new();
        for p in &acc_params {
            pat.push(self.fresh_typed("dfree", &p.ty));
        }
        for v in &scalar_fvs {
            let ty = self.types[v].array_of(w);
            pat.push(self.fresh_typed("dfrees", &ty));
        }
        for (p, _) in real.params.iter().zip(&whole).filter(|(_, added)| **added) {
            pat.push(self.fresh_typed("dinput", &p.ty.array_of(w)));
        }
        let exp = Exp::Soac(Soac::WithAcc { w, arrs: in_arrs, accs, map: lam });
        out.push(Stm { pat: pat.clone(), exp, attrs: s.attrs, span });
        for (v, p) in acc_vars.iter().zip(&pat) {
            let was_acc = adj.accs.contains(v);
            adj.of.insert(*v, SubExp::Var(p.name));
            if !was_acc {
                adj.owned.insert(p.name);
            }
        }
        let n = acc_vars.len();
        for (v, p) in scalar_fvs.iter().zip(&pat[n..]) {
            let ty = self.types[v].clone();
            let total = self.sum_rows(out, p.name, &ty, w, span);
            self.add(out, adj, *v, total, span);
        }
        let inputs = arrs.iter().zip(&whole).filter(|(_, added)| **added).map(|(a, _)| a);
        for (a, p) in inputs.zip(&pat[n + scalar_fvs.len()..]) {
            self.add_fresh(out, adj, *a, p.name, span);
        }
        Ok(())
    }

    fn rev_reduce(&mut self, s: &Stm, bars: &[Option<SubExp>], adj: &mut Adjoints, out: &mut Vec<Stm>) -> R<()> {
        let Exp::Soac(Soac::Screma { w, arrs, reduces, map, .. }) = &s.exp else { return Ok(()) };
        let span = s.span;
        if !is_identity(map) || s.pat.len() != arrs.len() || reduces.len() != 1 {
            return Err(internal(span, "a reduction fused with a map left after splitting".into()));
        }
        let op = &reduces[0];
        let k = op.neutral.len();
        if k != s.pat.len() {
            return Err(internal(span, "a reduction binding other than its operator's values".into()));
        }
        // `+` on every component: every element gets the result's adjoint.
        if is_addition(op) {
            for ((a, b), p) in arrs.iter().zip(bars).zip(&s.pat) {
                let Some(b) = b else { continue };
                let ty = p.ty.array_of(*w);
                let r = self.bind(out, "drep", ty, Exp::Replicate { shape: vec![*w], value: *b }, span);
                self.add(out, adj, *a, SubExp::Var(r), span);
            }
            return Ok(());
        }
        if let ([xs], [p], [Some(ybar)]) = (&arrs[..], &s.pat[..], bars) {
            if self.rev_extreme_of_map(op, *w, *xs, p.name, *ybar, adj, out, span)? {
                return Ok(());
            }
            if self.rev_reduce_special(op, *w, *xs, p.name, *ybar, adj, out, span)? {
                return Ok(());
            }
        }
        let tys: Vec<Type> = s.pat.iter().map(|p| p.ty.clone()).collect();
        let dxs = self.reduce_adjoints_general(out, *w, arrs, op, &tys, bars, s.attrs, span)?;
        for (a, d) in arrs.iter().zip(dxs) {
            self.add(out, adj, *a, SubExp::Var(d), span);
        }
        Ok(())
    }

    /// The general rule of `reduce`'s return sweep: the adjoints of the
    /// operator's `arrs` (elements of types `tys`) from the results'
    /// adjoints `bars`. With ls[i] = xs[0] ⊙ … ⊙ xs[i-1] and rs[i] =
    /// xs[i+1] ⊙ … ⊙ xs[n-1] (both exclusive, ne at the ends), x̄s[i] =
    /// ∂(ls[i] ⊙ x ⊙ rs[i])/∂x · ȳ.
    #[allow(clippy::too_many_arguments)]
    fn reduce_adjoints_general(
        &mut self,
        out: &mut Vec<Stm>,
        w: SubExp,
        arrs: &[VName],
        op: &Operator,
        tys: &[Type],
        bars: &[Option<SubExp>],
        attrs: ogham_ir::StmAttrs,
        span: Span,
    ) -> R<Vec<VName>> {
        let k = tys.len();
        let incl = self.scan_with(out, w, arrs, op, false, span);
        let mut revs = Vec::new();
        for (a, t) in arrs.iter().zip(tys) {
            revs.push(self.reversed(out, *a, &t.array_of(w), w, span));
        }
        let rincl = self.scan_with(out, w, &revs, op, true, span);
        let i = self.fresh_typed("i", &Type::Prim(PrimType::I64));
        let xs: Vec<Param> = tys.iter().map(|t| self.fresh_typed("x", t)).collect();
        let mut body = Vec::new();
        let mut ls = Vec::new();
        let mut rs = Vec::new();
        for j in 0..k {
            ls.push(self.shifted_read(&mut body, incl[j], i.name, w, op.neutral[j], false, &tys[j], span));
            rs.push(self.shifted_read(&mut body, rincl[j], i.name, w, op.neutral[j], true, &tys[j], span));
        }
        let mut fwd = Vec::new();
        let xv: Vec<SubExp> = xs.iter().map(|p| SubExp::Var(p.name)).collect();
        let t1 = self.apply_op(&mut fwd, op, &ls, &xv, tys, span);
        let t2 = self.apply_op(&mut fwd, op, &t1, &rs, tys, span);
        body.extend(fwd.clone());
        let mut inner = Adjoints::default();
        for (t, b) in t2.iter().zip(bars) {
            if let (SubExp::Var(t), Some(b)) = (t, b) {
                self.add(&mut body, &mut inner, *t, *b, span);
            }
        }
        self.reverse(&fwd, &Checkpoints::default(), &mut inner, &mut body)?;
        let mut results = Vec::new();
        for x in &xs {
            results.push(self.adjoint_or_zero(&mut body, &inner, x.name, span));
        }
        let iota = self.indices(out, w, span);
        let mut params = vec![i];
        params.extend(xs);
        let lam = Lambda { params, body: Body { stms: body, result: results }, ret: tys.to_vec() };
        let mut in_arrs = vec![iota];
        in_arrs.extend(arrs.iter().copied());
        let exp = Exp::Soac(Soac::Screma { w, arrs: in_arrs, scans: vec![], reduces: vec![], map: lam });
        let pat: Vec<Param> = tys.iter().map(|t| self.fresh_typed("dxs", &t.array_of(w))).collect();
        out.push(Stm { pat: pat.clone(), exp, attrs, span });
        Ok(pat.into_iter().map(|p| p.name).collect())
    }

    /// `scan (+)`: x̄s[i] = Σ_{j ≥ i} ȳs[j], a prefix sum of the reversed
    /// adjoint, reversed. Other operators are not done yet.
    fn rev_scan(&mut self, s: &Stm, bars: &[Option<SubExp>], adj: &mut Adjoints, out: &mut Vec<Stm>) -> R<()> {
        let Exp::Soac(Soac::Screma { w, arrs, scans, reduces, map }) = &s.exp else { return Ok(()) };
        let span = s.span;
        if !is_identity(map) || s.pat.len() != arrs.len() || scans.len() != 1 || !reduces.is_empty() {
            return Err(internal(span, "a scan fused with other SOACs left after splitting".into()));
        }
        if !is_addition(&scans[0]) {
            return self.rev_scan_general(s, bars, adj, out);
        }
        for ((a, b), p) in arrs.iter().zip(bars).zip(&s.pat) {
            let Some(SubExp::Var(b)) = b else { continue };
            let rev = self.reversed(out, *b, &p.ty, *w, span);
            // One component's `+` (the operator may add a tuple, as forward
            // mode makes of `scan (+)`: the value and its tangent).
            let plus =
                if scans[0].neutral.len() == 1 { scans[0].clone() } else { self.sum_operator(out, &p.ty.row(), span) };
            let summed = self.scan_with(out, *w, &[rev], &plus, false, span);
            let back = self.reversed(out, summed[0], &p.ty, *w, span);
            self.add(out, adj, *a, SubExp::Var(back), span);
        }
        Ok(())
    }

    /// `hist (+)` on one-dimensional destinations: d̄ += h̄ and
    /// v̄s[j] = h̄[is[j]] (zero for an index out of range). Any other
    /// operator, or more dimensions, take the general rule (`hist.rs`).
    fn rev_hist(
        &mut self,
        s: &Stm,
        bars: &[Option<SubExp>],
        ck: &Checkpoints,
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<()> {
        let Exp::Soac(Soac::Hist { w, arrs, ops, map }) = &s.exp else { return Ok(()) };
        let span = s.span;
        let [op] = ops.as_slice() else {
            return Err(unsupported(span, "`hist` with several operators"));
        };
        if !is_identity(map) {
            return Err(internal(span, "a histogram computing its inputs left after splitting".into()));
        }
        if self.rev_hist_extreme(s, bars, ck, adj, out)? {
            return Ok(());
        }
        if op.shape.len() != 1 || !is_addition(&op.op) {
            return self.rev_hist_general(s, bars, ck, adj, out);
        }
        let is = arrs[0];
        for ((d, v), b) in op.dests.iter().zip(&arrs[1..]).zip(bars) {
            let Some(SubExp::Var(hbar)) = b else { continue };
            self.add(out, adj, *d, SubExp::Var(*hbar), span);
            let row = self.types[v].row();
            let vbar = self.gather(out, *hbar, is, *w, &row, span);
            self.add(out, adj, *v, SubExp::Var(vbar), span);
        }
        Ok(())
    }

    /// `scan op ne xs` (inclusive, on the operator's `k` arrays), with the
    /// operator's arguments swapped when `flipped`.
    fn scan_with(
        &mut self,
        out: &mut Vec<Stm>,
        w: SubExp,
        xs: &[VName],
        op: &Operator,
        flipped: bool,
        span: Span,
    ) -> Vec<VName> {
        let mut lam = crate::inline::fresh_lambda(&op.lambda, &mut self.names);
        super::collect_types_lambda(&lam, &mut self.types);
        let k = xs.len();
        if flipped {
            lam.params.rotate_left(k);
        }
        let tys: Vec<Type> = xs.iter().map(|x| self.types[x].clone()).collect();
        let rows: Vec<Type> = tys.iter().map(Type::row).collect();
        let map = self.identity_lambda(&rows);
        let scan = Operator { lambda: lam, neutral: op.neutral.clone(), commutative: op.commutative };
        let exp = Exp::Soac(Soac::Screma { w, arrs: xs.to_vec(), scans: vec![scan], reduces: vec![], map });
        let pat: Vec<Param> = tys.iter().map(|t| self.fresh_typed("scanned", t)).collect();
        out.push(Stm { pat: pat.clone(), exp, attrs: ogham_ir::StmAttrs::default(), span });
        pat.into_iter().map(|p| p.name).collect()
    }

    /// `xs` reversed.
    fn reversed(&mut self, out: &mut Vec<Stm>, xs: VName, ty: &Type, w: SubExp, span: Span) -> VName {
        let last = self.bin(out, BinOp::Sub, PrimType::I64, w, SubExp::i64(1), span);
        let slice = vec![DimIndex::Slice { start: last, len: w, stride: SubExp::i64(-1) }];
        self.bind(out, "rev", ty.clone(), Exp::Index { array: xs, slice }, span)
    }

    /// Element `i - 1` of the inclusive scan `incl` (`ne` for `i = 0`); with
    /// `from_end`, of a scan of the reversed array: element `w - 2 - i`
    /// (`ne` for `i = w - 1`).
    #[allow(clippy::too_many_arguments)]
    fn shifted_read(
        &mut self,
        out: &mut Vec<Stm>,
        incl: VName,
        i: VName,
        w: SubExp,
        ne: SubExp,
        from_end: bool,
        ty: &Type,
        span: Span,
    ) -> SubExp {
        let at = if from_end {
            let wm2 = self.bin(out, BinOp::Sub, PrimType::I64, w, SubExp::i64(2), span);
            self.bin(out, BinOp::Sub, PrimType::I64, wm2, SubExp::Var(i), span)
        } else {
            self.bin(out, BinOp::Sub, PrimType::I64, SubExp::Var(i), SubExp::i64(1), span)
        };
        let c =
            self.scalar(out, PrimType::Bool, Exp::CmpOp(ogham_ir::CmpOp::Ge, PrimType::I64, at, SubExp::i64(0)), span);
        let mut then = Vec::new();
        let v =
            self.bind(&mut then, "elem", ty.clone(), Exp::Index { array: incl, slice: vec![DimIndex::Fix(at)] }, span);
        let exp = Exp::If {
            cond: c,
            then_body: Body { stms: then, result: vec![SubExp::Var(v)] },
            else_body: Body { stms: vec![], result: vec![ne] },
        };
        SubExp::Var(self.bind(out, "side", ty.clone(), exp, span))
    }

    /// `a ⊙ b` (of the operator's `k` values each) by a renamed copy of
    /// the operator's body.
    fn apply_op(
        &mut self,
        out: &mut Vec<Stm>,
        op: &Operator,
        a: &[SubExp],
        b: &[SubExp],
        tys: &[Type],
        span: Span,
    ) -> Vec<SubExp> {
        let lam = crate::inline::fresh_lambda(&op.lambda, &mut self.names);
        super::collect_types_lambda(&lam, &mut self.types);
        for (p, x) in lam.params.iter().zip(a.iter().chain(b)) {
            out.push(stm(p.clone(), Exp::SubExp(*x), span));
        }
        out.extend(lam.body.stms);
        let mut results = Vec::new();
        for (r, t) in lam.body.result.iter().zip(tys) {
            let v = self.fresh_typed("op", t);
            out.push(stm(v.clone(), Exp::SubExp(*r), span));
            results.push(SubExp::Var(v.name));
        }
        results
    }

    /// The return sweep of a call: the reverse half of its function's
    /// derivative with the residuals the forward half left (`calls.rs`),
    /// or the whole reverse derivative, which runs the function again and
    /// also returns its results.
    fn rev_apply(
        &mut self,
        s: &Stm,
        ck: &Checkpoints,
        bars: &[Option<SubExp>],
        adj: &mut Adjoints,
        out: &mut Vec<Stm>,
    ) -> R<()> {
        let Exp::Apply { func, args } = &s.exp else { return Ok(()) };
        let span = s.span;
        let mut all = args.clone();
        let mut pat = Vec::new();
        let callee = match ck.calls.get(&s.pat[0].name) {
            Some((bwd, residuals)) => {
                all.extend(residuals.iter().map(|r| SubExp::Var(*r)));
                bwd.clone()
            }
            None => {
                for p in &s.pat {
                    pat.push(self.fresh_typed("res", &p.ty));
                }
                self.reverse_derivative(func, span)?
            }
        };
        for (p, b) in s.pat.iter().zip(bars) {
            all.push(match b {
                Some(b) => *b,
                None => self.zero(out, &p.ty, span),
            });
        }
        // The callee's parameter types, in terms of the arguments.
        let params = self.params_of(func);
        let to = |v: VName| params.iter().position(|p| p.name == v).map(|k| args[k]);
        let mut adjs = Vec::new();
        for p in &params {
            let mut t = p.ty.clone();
            ogham_ir::visit::substitute_type(&mut t, &to);
            let p = self.fresh_typed("darg", &t);
            adjs.push(p.name);
            pat.push(p);
        }
        out.push(Stm { pat, exp: Exp::Apply { func: callee, args: all }, attrs: s.attrs, span });
        for (a, d) in args.iter().zip(adjs) {
            if let SubExp::Var(a) = a {
                self.add(out, adj, *a, SubExp::Var(d), span);
            }
        }
        Ok(())
    }

    /// The reverse derivative of a function with these parameters, result
    /// types and body: the parameters, then adjoints of the results; the
    /// results, then the adjoints of the parameters.
    pub(super) fn reverse_function(
        &mut self,
        params: &[Param],
        ret: &[Type],
        body: Body,
        span: Span,
    ) -> R<(Vec<Param>, Vec<Type>, Body)> {
        let Sweeps { result, mut forward, back, bars, adjoints } = self.function_sweeps(params, ret, body, span)?;
        let mut ps = params.to_vec();
        ps.extend(bars);
        forward.extend(back);
        let mut results = result;
        results.extend(adjoints);
        let mut rets = ret.to_vec();
        rets.extend(params.iter().map(|p| p.ty.clone()));
        Ok((ps, rets, Body { stms: forward, result: results }))
    }

    /// The two sweeps of a function's body (its SOACs split), apart: see
    /// [`Sweeps`].
    fn function_sweeps(&mut self, params: &[Param], ret: &[Type], body: Body, span: Span) -> R<Sweeps> {
        let bars: Vec<Param> = ret.iter().map(|t| self.fresh_typed("dres", t)).collect();
        let body = self.split_soacs(&body)?;
        let mut forward = Vec::new();
        let mut ck = Checkpoints::of(&body);
        self.forward(&body.stms, &mut forward, &mut ck)?;
        let mut back = Vec::new();
        let mut adj = Adjoints::default();
        for (r, b) in body.result.iter().zip(&bars) {
            if let SubExp::Var(r) = r {
                self.add(&mut back, &mut adj, *r, SubExp::Var(b.name), span);
            }
        }
        self.reverse(&body.stms, &ck, &mut adj, &mut back)?;
        let adjoints = params.iter().map(|p| self.adjoint_or_zero(&mut back, &adj, p.name, span)).collect();
        Ok(Sweeps { result: body.result, forward, back, bars, adjoints })
    }
}

/// A function body's forward sweep and return sweep, apart (one function,
/// or its two halves: `calls.rs`).
struct Sweeps {
    /// The body's results.
    result: Vec<SubExp>,
    forward: Vec<Stm>,
    /// The return sweep, from the results' adjoints (`bars`, parameters
    /// to add) to the parameters' (`adjoints`).
    back: Vec<Stm>,
    bars: Vec<Param>,
    adjoints: Vec<SubExp>,
}

/// The type of `a[slice]` for `a: ty`: the lengths of the ranges, then
/// the dimensions the slice does not index.
fn slice_type(ty: &Type, slice: &[DimIndex]) -> Type {
    let mut shape: Vec<SubExp> = slice
        .iter()
        .filter_map(|d| match d {
            DimIndex::Slice { len, .. } => Some(*len),
            DimIndex::Fix(_) => None,
        })
        .collect();
    shape.extend_from_slice(&ty.shape()[slice.len().min(ty.rank())..]);
    if shape.is_empty() {
        Type::Prim(ty.elem())
    } else {
        Type::Array { elem: ty.elem(), shape }
    }
}

/// Whether every component of the operator is `acc + x`, on scalars or
/// elementwise on arrays (`map2 (+)`, at any depth).
fn is_addition(op: &Operator) -> bool {
    adds(&op.lambda, op.neutral.len())
}

/// Whether a lambda of `2k` parameters returns `pⱼ + pₖ₊ⱼ` for every `j`.
fn adds(lam: &Lambda, k: usize) -> bool {
    if lam.params.len() != 2 * k || lam.body.result.len() != k || lam.body.stms.len() != k {
        return false;
    }
    lam.body.stms.iter().enumerate().all(|(j, s)| {
        let (a, x) = (lam.params[j].name, lam.params[k + j].name);
        let pair = |p: &VName, q: &VName| (*p == a && *q == x) || (*p == x && *q == a);
        let sums = match &s.exp {
            Exp::BinOp(BinOp::Add, _, SubExp::Var(p), SubExp::Var(q)) => pair(p, q),
            Exp::Soac(Soac::Screma { arrs, scans, reduces, map, .. })
                if scans.is_empty() && reduces.is_empty() && arrs.len() == 2 =>
            {
                pair(&arrs[0], &arrs[1]) && adds(map, 1)
            }
            _ => false,
        };
        sums && s.pat.len() == 1 && lam.body.result[j] == SubExp::Var(s.pat[0].name)
    })
}

/// The array a statement's single result is a view of, if it is one.
fn view_source(s: &Stm) -> Option<VName> {
    match &s.exp {
        Exp::Index { array, .. } | Exp::Reshape { array, .. } | Exp::Rearrange { array, .. }
            if s.pat.len() == 1 && s.pat[0].ty.rank() > 0 =>
        {
            Some(*array)
        }
        _ => None,
    }
}

/// Whether `s` is an `if` that returns an array and consumes nothing, of
/// which a branch may return a view of an array bound outside it (the
/// array itself or a row, reshape or transposition of it).
fn view_branches(s: &Stm) -> bool {
    let Exp::If { then_body, else_body, .. } = &s.exp else { return false };
    if !ogham_ir::visit::consumed_deep(&s.exp).is_empty() {
        return false;
    }
    let returns_view = |b: &Body, k: usize| match b.result.get(k) {
        Some(SubExp::Var(r)) => match b.stms.iter().find(|t| t.pat.iter().any(|p| p.name == *r)) {
            Some(t) => view_source(t).is_some(),
            None => true,
        },
        _ => false,
    };
    s.pat.iter().enumerate().any(|(k, p)| p.ty.rank() > 0 && (returns_view(then_body, k) || returns_view(else_body, k)))
}

/// What `v` is renamed to by `renames` (pairs from, to), if anything.
fn renamed(renames: &[(VName, VName)], v: VName) -> Option<VName> {
    renames.iter().find(|(f, _)| *f == v).map(|(_, t)| *t)
}

fn set_view_source(exp: &mut Exp, to: VName) {
    if let Exp::Index { array, .. } | Exp::Reshape { array, .. } | Exp::Rearrange { array, .. } = exp {
        *array = to;
    }
}

/// Whether a lambda returns its parameters, in order.
fn is_identity(lam: &Lambda) -> bool {
    lam.body.stms.is_empty()
        && lam.body.result.len() == lam.params.len()
        && lam.body.result.iter().zip(&lam.params).all(|(r, p)| *r == SubExp::Var(p.name))
}

fn var_of(x: SubExp) -> VName {
    match x {
        SubExp::Var(v) => v,
        SubExp::Const(_) => unreachable!("array values are variables"),
    }
}
