//! Dead-code elimination.
//!
//! A statement none of whose variables is used later (as an operand, in a
//! type, or in a result) is removed, unless it has an effect that must
//! happen: a check that binds nothing (a size coercion's, a range's), or a
//! statement containing one. Everything else goes with its results, as in
//! Futhark, where only what a used value depends on is checked: an unused
//! index or division with its check, a user's `assert c e` with the
//! certificate of `e` (see `Exp::Certify`), and a call of a function with
//! whatever checks the function makes.
//!
//! The outputs of a `map` (a `Screma`'s mapped results) that nothing uses
//! are removed from the statement and from its lambda, so are a
//! `Screma`'s reductions none of whose results is used (reverse mode's
//! sums of the adjoints of integers), the results
//! of an `if` that nothing uses (from both branches), and a loop
//! parameter whose final value is unused and that no other live parameter
//! or the loop's condition needs is removed from the loop, so the
//! computations that produced them die as well; so is an accumulator of a
//! `withacc` whose final value is unused, with its updates; and an input
//! array of a `Screma` or `withacc` whose rows its function no longer
//! reads, with its parameter. Functions that are neither
//! entry points nor called are removed (in a program with entry points). Bodies are processed innermost
//! first, within one backward sweep per body.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;

use ogham_ir::visit::{bodies, free_vars_exp, lambdas, type_vars};
use ogham_ir::{Body, Exp, LoopForm, Param, Program, Soac, Stm, SubExp, VName};

/// Removes dead code from every function of the program.
pub fn dce_program(prog: &mut Program) {
    crate::on_consts(prog, |body, _| dce_body(body, HashSet::default()));
    for f in &mut prog.funs {
        dce_body(&mut f.body, HashSet::default());
    }
    // Functions no longer called (and not entry points) go too.
    crate::inline::drop_unreachable(prog);
}

fn body_has_effect(body: &Body) -> bool {
    body.stms.iter().any(has_effect)
}

/// Whether evaluating a statement must happen even if its results are
/// unused. A user assertion (one binding a certificate) need not: it goes
/// with the values it certifies.
fn has_effect(stm: &Stm) -> bool {
    match &stm.exp {
        Exp::Assert { .. } => stm.pat.is_empty(),
        exp => {
            bodies(exp).into_iter().any(body_has_effect) || lambdas(exp).into_iter().any(|l| body_has_effect(&l.body))
        }
    }
}

/// Removes dead statements from `body`, given the variables used after it
/// (besides its results).
pub(crate) fn dce_body(body: &mut Body, mut live: HashSet<VName>) {
    live.extend(body.result.iter().filter_map(|r| r.as_var()));
    let mut kept = Vec::with_capacity(body.stms.len());
    for mut stm in std::mem::take(&mut body.stms).into_iter().rev() {
        let used = stm.pat.iter().any(|p| live.contains(&p.name));
        if !used && !has_effect(&stm) {
            continue;
        }
        prune_map_outputs(&mut stm, &live);
        prune_reductions(&mut stm, &live);
        prune_accumulators(&mut stm, &live);
        prune_if_results(&mut stm, &live);
        prune_loop_params(&mut stm, &live);
        dce_nested(&mut stm.exp);
        prune_inputs(&mut stm);
        for p in &stm.pat {
            live.extend(type_vars(&p.ty));
        }
        live.extend(free_vars_exp(&stm.exp));
        kept.push(stm);
    }
    kept.reverse();
    body.stms = kept;
}

fn dce_nested(exp: &mut Exp) {
    match exp {
        Exp::If { then_body, else_body, .. } => {
            dce_body(then_body, HashSet::default());
            dce_body(else_body, HashSet::default());
        }
        Exp::Loop { params, form, body } => {
            // Loop parameters and the condition are live throughout the body.
            let mut inner: HashSet<VName> = params.iter().map(|(p, _)| p.name).collect();
            if let LoopForm::While { cond } = form {
                inner.insert(*cond);
            }
            dce_body(body, inner);
        }
        Exp::Soac(soac) => {
            let lams = ogham_ir::visit::soac_lambdas_mut(soac);
            for l in lams {
                dce_body(&mut l.body, HashSet::default());
            }
        }
        _ => {}
    }
}

/// Drops the mapped outputs of a `Screma` or `WithAcc` that nothing uses
/// (its scan and reduce results, or its accumulators, stay), with the
/// lambda results computing them.
fn prune_map_outputs(stm: &mut Stm, live: &HashSet<VName>) {
    let (fixed, map) = match &mut stm.exp {
        Exp::Soac(Soac::Screma { scans, reduces, map, .. }) => {
            (scans.iter().chain(reduces.iter()).map(|o| o.neutral.len()).sum(), map)
        }
        Exp::Soac(Soac::WithAcc { accs, map, .. }) => (accs.len(), map),
        _ => return,
    };
    if stm.pat.len() != map.body.result.len() || map.ret.len() != map.body.result.len() {
        return;
    }
    let keep: Vec<bool> = (0..stm.pat.len()).map(|k| k < fixed || live.contains(&stm.pat[k].name)).collect();
    if keep.iter().all(|&k| k) || !keep.iter().any(|&k| k) {
        return;
    }
    retain_mask(&mut stm.pat, &keep);
    retain_mask(&mut map.body.result, &keep);
    retain_mask(&mut map.ret, &keep);
}

/// Drops the input arrays of a `Screma` or `WithAcc` whose rows its
/// function no longer reads (after its own dead code went), with their
/// parameters (all of them stay when it reads none): an array the nest used to read (`accreduce`
/// leaves GMM's `x - μ` to the products, which compute it again) would
/// otherwise still be built for it.
fn prune_inputs(stm: &mut Stm) {
    let (skip, arrs, map) = match &mut stm.exp {
        Exp::Soac(Soac::Screma { arrs, map, .. }) => (0, arrs, map),
        Exp::Soac(Soac::WithAcc { accs, arrs, map, .. }) => (accs.len(), arrs, map),
        _ => return,
    };
    if map.params.len() != skip + arrs.len() {
        return;
    }
    let mut read = HashSet::default();
    read.extend(ogham_ir::visit::free_vars_body(&map.body));
    read.extend(map.ret.iter().flat_map(type_vars));
    read.extend(map.params.iter().flat_map(|p| type_vars(&p.ty)));
    let keep: Vec<bool> = map.params[skip..].iter().map(|p| read.contains(&p.name)).collect();
    if keep.iter().all(|&k| k) || !keep.iter().any(|&k| k) {
        return;
    }
    let mut all_keep = vec![true; skip];
    all_keep.extend(&keep);
    retain_mask(arrs, &keep);
    retain_mask(&mut map.params, &all_keep);
}

/// Drops the reductions of a `Screma` none of whose results is used, with
/// their operators and the lambda results they reduce (unless that would
/// leave the statement no result: then the statement is dead itself).
fn prune_reductions(stm: &mut Stm, live: &HashSet<VName>) {
    let Exp::Soac(Soac::Screma { scans, reduces, map, .. }) = &mut stm.exp else { return };
    if stm.pat.len() != map.body.result.len() || map.ret.len() != map.body.result.len() {
        return;
    }
    let mut keep = vec![true; stm.pat.len()];
    let mut dead = vec![false; reduces.len()];
    let mut off: usize = scans.iter().map(|o| o.neutral.len()).sum();
    for (k, op) in reduces.iter().enumerate() {
        let len = op.neutral.len();
        if off + len > keep.len() {
            return;
        }
        if !(off..off + len).any(|p| live.contains(&stm.pat[p].name)) {
            dead[k] = true;
            keep[off..off + len].iter_mut().for_each(|x| *x = false);
        }
        off += len;
    }
    if !dead.contains(&true) || !keep.contains(&true) {
        return;
    }
    let mut k = 0;
    reduces.retain(|_| {
        k += 1;
        !dead[k - 1]
    });
    retain_mask(&mut stm.pat, &keep);
    retain_mask(&mut map.body.result, &keep);
    retain_mask(&mut map.ret, &keep);
}

/// Drops the accumulators of a `WithAcc` whose final value nothing uses
/// (reverse mode's adjoints of arrays that are not differentiated, such as
/// a map's data): without the result, the updates of the accumulator in
/// the lambda are dead, and once none is left, the accumulator goes from
/// the lambda's parameters and the statement's inputs. An accumulator
/// still used after its updates died stays whole.
fn prune_accumulators(stm: &mut Stm, live: &HashSet<VName>) {
    let Exp::Soac(Soac::WithAcc { accs, map, .. }) = &mut stm.exp else { return };
    if stm.pat.len() != map.body.result.len() || map.ret.len() != map.body.result.len() {
        return;
    }
    for i in (0..accs.len()).rev() {
        if live.contains(&stm.pat[i].name) || map.params.len() <= i {
            continue;
        }
        let mut trial = map.body.clone();
        trial.result.remove(i);
        dce_body(&mut trial, HashSet::default());
        if ogham_ir::visit::free_vars_body(&trial).contains(&map.params[i].name) {
            continue;
        }
        map.body = trial;
        map.ret.remove(i);
        map.params.remove(i);
        accs.remove(i);
        stm.pat.remove(i);
    }
}

/// Drops the results of an `if` that nothing uses, from the pattern and
/// from both branches, unless a kept result's type needs them (a size
/// result of a kept array).
fn prune_if_results(stm: &mut Stm, live: &HashSet<VName>) {
    let Exp::If { then_body, else_body, .. } = &mut stm.exp else { return };
    let n = stm.pat.len();
    if then_body.result.len() != n || else_body.result.len() != n {
        return;
    }
    let keep = demanded(&stm.pat, |v| live.contains(&v));
    if keep.iter().all(|&k| k) {
        return;
    }
    retain_mask(&mut stm.pat, &keep);
    retain_mask(&mut then_body.result, &keep);
    retain_mask(&mut else_body.result, &keep);
}

/// Which elements of a pattern are demanded: those `used`, and those a
/// demanded element's type needs (the size result of an array result).
pub(crate) fn demanded(pat: &[Param], used: impl Fn(VName) -> bool) -> Vec<bool> {
    let mut keep: Vec<bool> = pat.iter().map(|p| used(p.name)).collect();
    // Sizes are bound before the arrays that use them.
    for k in (0..pat.len()).rev() {
        if keep[k] {
            for v in type_vars(&pat[k].ty) {
                if let Some(j) = pat.iter().position(|p| p.name == v) {
                    keep[j] = true;
                }
            }
        }
    }
    keep
}

/// Drops loop parameters whose final values are unused and on which no
/// kept parameter, the loop condition or a size depends.
fn prune_loop_params(stm: &mut Stm, live: &HashSet<VName>) {
    let Exp::Loop { params, form, body } = &mut stm.exp else { return };
    if stm.pat.len() != params.len() || body.result.len() != params.len() {
        return;
    }
    let n = params.len();
    // Which parameters each parameter's next value depends on, through the body.
    let deps_of_body = dependencies(body);
    let mut keep: Vec<bool> = (0..n).map(|k| live.contains(&stm.pat[k].name)).collect();
    if let LoopForm::While { cond } = form {
        for (k, (p, _)) in params.iter().enumerate() {
            if p.name == *cond {
                keep[k] = true;
            }
        }
    }
    let pos: HashMap<VName, usize> = params.iter().enumerate().map(|(k, (p, _))| (p.name, k)).collect();
    let pat_pos: HashMap<VName, usize> = stm.pat.iter().enumerate().map(|(k, p)| (p.name, k)).collect();
    // A kept parameter keeps the parameters its next value, its type and
    // its final value's type need.
    let close = |keep: &mut Vec<bool>| loop {
        let mut changed = false;
        for k in 0..n {
            if !keep[k] {
                continue;
            }
            let mut need: Vec<VName> = type_vars(&params[k].0.ty).collect();
            need.extend(type_vars(&stm.pat[k].ty));
            if let SubExp::Var(r) = body.result[k] {
                need.extend(deps_of_body.get(&r).into_iter().flatten().copied());
                need.push(r);
            }
            for v in need {
                if let Some(&j) = pos.get(&v).or_else(|| pat_pos.get(&v)) {
                    if !keep[j] {
                        keep[j] = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    };
    close(&mut keep);
    // Statements with effects stay in the body, so what they read stays.
    if keep.iter().all(|&k| k) {
        return;
    }
    for s in body.stms.iter().filter(|s| has_effect(s)) {
        for v in free_vars_exp(&s.exp) {
            for w in std::iter::once(&v).chain(deps_of_body.get(&v).into_iter().flatten()) {
                if let Some(&j) = pos.get(w) {
                    keep[j] = true;
                }
            }
        }
    }
    close(&mut keep);
    if keep.iter().all(|&k| k) || !keep.iter().any(|&k| k) {
        return;
    }
    retain_mask(params, &keep);
    retain_mask(&mut stm.pat, &keep);
    retain_mask(&mut body.result, &keep);
}

/// For each variable bound at the top of `body`, the variables it depends
/// on (transitively, through the body's statements).
fn dependencies(body: &Body) -> HashMap<VName, BTreeSet<VName>> {
    let mut deps: HashMap<VName, BTreeSet<VName>> = HashMap::default();
    for stm in &body.stms {
        if let Some(per_result) = loop_result_dependencies(stm) {
            for (p, d) in stm.pat.iter().zip(per_result) {
                let mut all: BTreeSet<VName> = d.iter().copied().chain(type_vars(&p.ty)).collect();
                for v in d.iter().copied().chain(type_vars(&p.ty)) {
                    all.extend(deps.get(&v).into_iter().flatten().copied());
                }
                deps.insert(p.name, all);
            }
            continue;
        }
        let mut d = free_vars_exp(&stm.exp);
        for p in &stm.pat {
            d.extend(type_vars(&p.ty));
        }
        let mut all = d.clone();
        for v in &d {
            if let Some(more) = deps.get(v) {
                all.extend(more.iter().copied());
            }
        }
        for p in &stm.pat {
            deps.insert(p.name, all.clone());
        }
    }
    deps
}

/// For a `for` loop, the variables of the enclosing scope that each of
/// its results depends on: the initial values of the parameters its final
/// value is computed from (through the body, transitively), what the body
/// reads to compute them, and the number of iterations. So a parameter
/// only carried through an inner loop whose result nothing uses (a saved
/// array that the return sweep does not read) is not kept alive by the
/// inner loop's other results. `None` for other statements and for
/// `while` loops (whose every result depends on the condition).
fn loop_result_dependencies(stm: &Stm) -> Option<Vec<BTreeSet<VName>>> {
    let Exp::Loop { params, form: LoopForm::For { i, bound }, body } = &stm.exp else { return None };
    if stm.pat.len() != params.len() || body.result.len() != params.len() {
        return None;
    }
    let inner = dependencies(body);
    let pos: HashMap<VName, usize> = params.iter().enumerate().map(|(k, (p, _))| (p.name, k)).collect();
    let mut local: HashSet<VName> = inner.keys().copied().collect();
    local.insert(*i);
    let n = params.len();
    let mut via_params: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
    let mut outside: Vec<BTreeSet<VName>> = vec![BTreeSet::new(); n];
    for k in 0..n {
        let mut vs: BTreeSet<VName> = type_vars(&params[k].0.ty).collect();
        if let SubExp::Var(r) = body.result[k] {
            vs.insert(r);
            vs.extend(inner.get(&r).into_iter().flatten().copied());
        }
        for v in vs {
            match pos.get(&v) {
                Some(&j) => {
                    via_params[k].insert(j);
                }
                None if !local.contains(&v) => {
                    outside[k].insert(v);
                }
                None => {}
            }
        }
    }
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let mut seen: BTreeSet<usize> = BTreeSet::from([k]);
        let mut todo = vec![k];
        while let Some(j) = todo.pop() {
            for &m in &via_params[j] {
                if seen.insert(m) {
                    todo.push(m);
                }
            }
        }
        let mut d: BTreeSet<VName> = bound.as_var().into_iter().collect();
        for j in seen {
            d.extend(outside[j].iter().copied());
            if let SubExp::Var(v) = params[j].1 {
                d.insert(v);
            }
        }
        out.push(d);
    }
    Some(out)
}

/// Keeps the elements of `v` whose flag in `keep` is set.
pub(crate) fn retain_mask<T>(v: &mut Vec<T>, keep: &[bool]) {
    let mut flags = keep.iter();
    v.retain(|_| *flags.next().unwrap_or(&true));
}
