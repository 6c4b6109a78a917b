//! Demand-driven rewrites: compute only the part of a value that its uses
//! demand (seed 003's idea, on the core IR).
//!
//! What this pass knows so far is one demand level between "nothing" and
//! "the whole array": a scan's result that is only ever read at its last
//! element (`r[w-1]`, as lowering writes the count of a `filter` and as
//! programs write the total of a prefix sum) is demanded as that element
//! alone, which is the reduction of the same operator over the same
//! values. The scan becomes a reduce of the same `Screma`, no array of `w`
//! elements is built, and each read becomes the reduced value. The read's
//! bounds check stays (as a check that `w - 1` is a valid index, which
//! fails exactly when `w` is zero, with the index's own message) unless
//! the read was `#[unsafe]`.
//!
//! Within a body, arrays whose size alone is used need nothing more:
//! sizes are separate `i64` values in the IR, so dead-code elimination
//! drops a `map` whose result only has its length taken, and the array
//! results of an `if` or a loop that only have their sizes used. Across
//! calls this pass does seed 003's specialisation (its `take_s`): a call
//! whose results are not all demanded calls a copy of the function that
//! returns only the demanded ones, from which dead-code elimination removes
//! the rest, and a parameter that a function does not need (a least fixed
//! point over the call graph, so a recursive function that only passes an
//! array on to itself does not need it) is no longer passed, so its
//! argument dies in the callers. `length (shift n xs)` with `shift` kept
//! as a function then computes lengths only. Rank demand has nothing to do
//! at run time: ranks are static in the IR.

use crate::dce::{demanded, retain_mask};
use ogham_ir::visit::{bodies, count_uses, free_vars_exp, lambdas, nested_bodies_mut, type_vars};
use ogham_ir::{
    BinOp, Body, CmpOp, DimIndex, Exp, NameTable, Operator, Param, PrimType, PrimValue, Program, Soac, Stm, SubExp,
    Type, VName,
};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Turns scans read only at their last element into reductions, in every
/// function; calls whose results are partly unused call a copy of the
/// function that computes only the used ones; parameters no function uses
/// are no longer passed.
pub fn demand_program(prog: &mut Program) {
    crate::on_consts(prog, demand_body);
    for f in &mut prog.funs {
        demand_body(&mut f.body, &mut prog.names);
    }
    // Dropping a parameter can leave a caller's call with unused results,
    // to specialise in turn; a few rounds reach what programs nest.
    for _ in 0..4 {
        specialise_calls(prog);
        if !drop_unused_params(prog) {
            break;
        }
        for f in &mut prog.funs {
            crate::dce::dce_body(&mut f.body, HashSet::default());
        }
    }
}

/// Every variable used anywhere in `body`: as an operand, in a type, as a
/// result, at any depth.
fn used_vars(body: &Body, out: &mut HashSet<VName>) {
    out.extend(body.result.iter().filter_map(|r| r.as_var()));
    for s in &body.stms {
        out.extend(free_vars_exp(&s.exp));
        for p in &s.pat {
            out.extend(type_vars(&p.ty));
        }
        for b in bodies(&s.exp) {
            used_vars(b, out);
        }
        for l in lambdas(&s.exp) {
            used_vars(&l.body, out);
        }
    }
}

/// The calls in `body` (at any depth) of functions that are not entry
/// points and whose results are not all demanded: the callee and the
/// demanded results.
fn partial_calls(body: &Body, used: &HashSet<VName>, entries: &HashSet<String>, out: &mut Vec<(String, Vec<bool>)>) {
    for s in &body.stms {
        if let Exp::Apply { func, .. } = &s.exp {
            let keep = demanded(&s.pat, |v| used.contains(&v));
            if !entries.contains(func) && keep.iter().any(|&k| !k) {
                out.push((func.clone(), keep));
            }
        }
        for b in bodies(&s.exp) {
            partial_calls(b, used, entries, out);
        }
        for l in lambdas(&s.exp) {
            partial_calls(&l.body, used, entries, out);
        }
    }
}

/// Makes the calls [`partial_calls`] found call the copies `made` names.
fn call_copies(body: &mut Body, used: &HashSet<VName>, made: &HashMap<(String, Vec<bool>), String>) {
    calls_mut(body, &mut |s| {
        let Exp::Apply { func, .. } = &mut s.exp else { return };
        let keep = demanded(&s.pat, |v| used.contains(&v));
        if let Some(name) = made.get(&(func.clone(), keep.clone())) {
            *func = name.clone();
            retain_mask(&mut s.pat, &keep);
        }
    });
}

/// Calls `f` on every call statement of `body`, at any depth.
fn calls_mut(body: &mut Body, f: &mut dyn FnMut(&mut Stm)) {
    for s in &mut body.stms {
        if matches!(s.exp, Exp::Apply { .. }) {
            f(s);
        }
        for b in nested_bodies_mut(&mut s.exp) {
            calls_mut(b, f);
        }
    }
}

/// Seed 003's specialisation of functions by demand (its `take_s`): a call
/// whose results are not all used calls a copy of the callee that returns
/// only the used ones, and dead-code elimination then removes from the
/// copy what computed the others (the array of a function whose caller
/// only takes its length, say). One copy is made per function and set of
/// demanded results, so recursive functions reach a fixed point.
fn specialise_calls(prog: &mut Program) {
    let entries: HashSet<String> = prog.funs.iter().filter(|f| f.entry.is_some()).map(|f| f.name.clone()).collect();
    let mut made: HashMap<(String, Vec<bool>), String> = HashMap::default();
    let mut work: Vec<usize> = (0..prog.funs.len()).collect();
    while let Some(i) = work.pop() {
        let mut used = HashSet::default();
        used_vars(&prog.funs[i].body, &mut used);
        let mut calls = Vec::new();
        partial_calls(&prog.funs[i].body, &used, &entries, &mut calls);
        if calls.is_empty() {
            continue;
        }
        for key in calls {
            if made.contains_key(&key) {
                continue;
            }
            let (func, keep) = &key;
            let Some(callee) = prog.funs.iter().find(|f| f.name == *func) else { continue };
            if callee.body.result.len() != keep.len() || callee.ret.len() != keep.len() {
                continue;
            }
            let mut copy = crate::inline::fresh_copy(callee, &mut prog.names);
            let bits: String = keep.iter().map(|&k| if k { '1' } else { '0' }).collect();
            let mut name = format!("{}_demand{bits}", copy.name);
            while prog.fun(&name).is_some() {
                name.push('_');
            }
            copy.name = name.clone();
            copy.entry = None;
            retain_mask(&mut copy.body.result, keep);
            retain_mask(&mut copy.ret, keep);
            crate::dce::dce_body(&mut copy.body, HashSet::default());
            made.insert(key, name);
            prog.funs.push(copy);
            work.push(prog.funs.len() - 1);
        }
        call_copies(&mut prog.funs[i].body, &used, &made);
    }
    crate::inline::drop_unreachable(prog);
}

/// Removes the parameters that a function other than an entry point does
/// not need, and the corresponding arguments of its calls, so that what
/// computed them can die in the callers. A parameter is needed when the
/// function's live code uses it (in a statement, a result, or the type of
/// a needed parameter or of a result), where a call's argument counts only
/// if the callee needs that parameter: a parameter a recursive function
/// only passes on to itself, or uses to compute what it only passes on, is
/// not needed. This is a least fixed point over all functions.
fn drop_unused_params(prog: &mut Program) -> bool {
    let mut needed: HashMap<String, Vec<bool>> =
        prog.funs.iter().map(|f| (f.name.clone(), vec![f.entry.is_some(); f.params.len()])).collect();
    loop {
        let mut changed = false;
        for f in prog.funs.iter().filter(|f| f.entry.is_none()) {
            let now = &needed[&f.name];
            if now.iter().all(|&n| n) {
                continue;
            }
            // The body with the arguments the callees do not need replaced
            // by a constant, then without its dead code.
            let mut body = f.body.clone();
            mask_args(&mut body, &needed);
            crate::dce::dce_body(&mut body, HashSet::default());
            let mut used = HashSet::default();
            used_vars(&body, &mut used);
            used.extend(f.ret.iter().flat_map(type_vars));
            used.extend(f.params.iter().zip(now).filter(|(_, &n)| n).flat_map(|(p, _)| type_vars(&p.ty)));
            let next: Vec<bool> = f.params.iter().zip(now).map(|(p, &n)| n || used.contains(&p.name)).collect();
            if next != *now {
                needed.insert(f.name.clone(), next);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let unused: HashMap<String, Vec<bool>> = needed.into_iter().filter(|(_, keep)| keep.iter().any(|&k| !k)).collect();
    if unused.is_empty() {
        return false;
    }
    for f in &mut prog.funs {
        if let Some(keep) = unused.get(&f.name) {
            retain_mask(&mut f.params, keep);
        }
        drop_args(&mut f.body, &unused);
    }
    let mut consts = Body { stms: std::mem::take(&mut prog.consts), result: Vec::new() };
    drop_args(&mut consts, &unused);
    prog.consts = consts.stms;
    true
}

/// Replaces the arguments of calls whose parameters are not (yet) needed
/// by a constant, for [`drop_unused_params`]' analysis only.
fn mask_args(body: &mut Body, needed: &HashMap<String, Vec<bool>>) {
    calls_mut(body, &mut |s| {
        let Exp::Apply { func, args } = &mut s.exp else { return };
        if let Some(keep) = needed.get(func.as_str()) {
            for (a, _) in args.iter_mut().zip(keep).filter(|(_, &k)| !k) {
                *a = SubExp::i64(0);
            }
        }
    });
}

fn drop_args(body: &mut Body, unused: &HashMap<String, Vec<bool>>) {
    calls_mut(body, &mut |s| {
        let Exp::Apply { func, args } = &mut s.exp else { return };
        if let Some(keep) = unused.get(func.as_str()) {
            retain_mask(args, keep);
        }
    });
}

fn demand_body(body: &mut Body, names: &mut NameTable) {
    let mut uses = HashMap::default();
    count_uses(body, &mut uses);
    let mut minus_one = HashMap::default();
    collect_minus_one(body, &mut minus_one);
    // For each array, its reads at a fixed position, counted.
    let mut reads: HashMap<VName, (SubExp, usize)> = HashMap::default();
    collect_reads(body, &mut reads);
    let last_only = |v: VName, w: SubExp| -> bool {
        match reads.get(&v) {
            Some((SubExp::Var(t), n)) => minus_one.get(t) == Some(&w) && uses.get(&v) == Some(n),
            _ => false,
        }
    };
    let mut reduced: HashMap<VName, SubExp> = HashMap::default();
    rewrite_scans(body, &last_only, &mut reduced);
    if !reduced.is_empty() {
        replace_reads(body, &reduced, names);
    }
}

/// `t = w - 1` definitions: `t ↦ w`.
fn collect_minus_one(body: &Body, out: &mut HashMap<VName, SubExp>) {
    for s in &body.stms {
        if let (Exp::BinOp(BinOp::Sub, PrimType::I64, w, SubExp::Const(PrimValue::I64(1))), [p]) = (&s.exp, &s.pat[..])
        {
            out.insert(p.name, *w);
        }
        for b in ogham_ir::visit::bodies(&s.exp) {
            collect_minus_one(b, out);
        }
        for l in ogham_ir::visit::lambdas(&s.exp) {
            collect_minus_one(&l.body, out);
        }
    }
}

/// Reads `a[t]` of one fixed index: per array, the index when every such
/// read uses the same one, and how many there are. An array read at two
/// different indices gets a constant index that matches nothing.
fn collect_reads(body: &Body, out: &mut HashMap<VName, (SubExp, usize)>) {
    for s in &body.stms {
        if let Exp::Index { array, slice } = &s.exp {
            if let [DimIndex::Fix(t)] = slice[..] {
                let e = out.entry(*array).or_insert((t, 0));
                if e.0 != t {
                    e.0 = SubExp::Const(PrimValue::Bool(false));
                }
                e.1 += 1;
            }
        }
        for b in ogham_ir::visit::bodies(&s.exp) {
            collect_reads(b, out);
        }
        for l in ogham_ir::visit::lambdas(&s.exp) {
            collect_reads(&l.body, out);
        }
    }
}

/// Moves every scan operator whose outputs are all read only at their
/// last element to the reductions of its `Screma`; records the outputs.
fn rewrite_scans(body: &mut Body, last_only: &dyn Fn(VName, SubExp) -> bool, reduced: &mut HashMap<VName, SubExp>) {
    for s in &mut body.stms {
        for b in nested_bodies_mut(&mut s.exp) {
            rewrite_scans(b, last_only, reduced);
        }
        scan_to_reduce(s, last_only, reduced);
    }
}

fn scan_to_reduce(stm: &mut Stm, last_only: &dyn Fn(VName, SubExp) -> bool, reduced: &mut HashMap<VName, SubExp>) {
    let Exp::Soac(Soac::Screma { w, scans, reduces, map, .. }) = &mut stm.exp else { return };
    let w = *w;
    let scan_widths: Vec<usize> = scans.iter().map(|o| o.neutral.len()).collect();
    let n_scan: usize = scan_widths.iter().sum();
    let n_red: usize = reduces.iter().map(|o| o.neutral.len()).sum();
    if stm.pat.len() < n_scan + n_red || map.body.result.len() < n_scan + n_red {
        return;
    }
    // Which scan operators go: all their outputs are read at `w - 1` only.
    let mut at = 0;
    let mut moving = Vec::new();
    for &k in &scan_widths {
        moving.push(k > 0 && stm.pat[at..at + k].iter().all(|p| last_only(p.name, w)));
        at += k;
    }
    if !moving.iter().any(|&m| m) {
        return;
    }
    // Reorder operators, pattern and lambda results: kept scans, then the
    // old reductions, then the new ones, then the mapped values.
    let old_scans = std::mem::take(scans);
    let mut pat = std::mem::take(&mut stm.pat);
    let mut res = std::mem::take(&mut map.body.result);
    let mut ret = std::mem::take(&mut map.ret);
    let rest_pat = pat.split_off(n_scan + n_red);
    let red_pat = pat.split_off(n_scan);
    let rest_res = res.split_off(n_scan + n_red);
    let red_res = res.split_off(n_scan);
    let rest_ret = ret.split_off(n_scan + n_red);
    let red_ret = ret.split_off(n_scan);
    let (mut kept_pat, mut kept_res, mut kept_ret) = (Vec::new(), Vec::new(), Vec::new());
    let (mut new_pat, mut new_res, mut new_ret) = (Vec::new(), Vec::new(), Vec::new());
    let mut new_ops: Vec<Operator> = Vec::new();
    let mut at = 0;
    for (op, (&k, &m)) in old_scans.into_iter().zip(scan_widths.iter().zip(&moving)) {
        let range = at..at + k;
        at += k;
        if m {
            for p in &pat[range.clone()] {
                // The reduced value has the type of one element of the scan.
                let ty = p.ty.row();
                reduced.insert(p.name, w);
                new_pat.push(Param { name: p.name, ty });
            }
            new_res.extend_from_slice(&res[range.clone()]);
            new_ret.extend_from_slice(&ret[range]);
            new_ops.push(op);
        } else {
            kept_pat.extend_from_slice(&pat[range.clone()]);
            kept_res.extend_from_slice(&res[range.clone()]);
            kept_ret.extend_from_slice(&ret[range]);
            scans.push(op);
        }
    }
    reduces.extend(new_ops);
    stm.pat = [kept_pat, red_pat, new_pat, rest_pat].concat();
    map.body.result = [kept_res, red_res, new_res, rest_res].concat();
    map.ret = [kept_ret, red_ret, new_ret, rest_ret].concat();
}

/// Replaces each read `x = r[t]` of a reduced scan output `r` by `x = r`,
/// after a check that `t` (which is `w - 1`) is a valid index, with the
/// message the index would have given.
fn replace_reads(body: &mut Body, reduced: &HashMap<VName, SubExp>, names: &mut NameTable) {
    let mut stms = Vec::with_capacity(body.stms.len());
    for mut s in std::mem::take(&mut body.stms) {
        if let Exp::Index { array, slice } = &s.exp {
            if let (Some(&w), [DimIndex::Fix(t)]) = (reduced.get(array), &slice[..]) {
                let r = *array;
                if !s.attrs.unsafe_ {
                    // `t = w - 1 < w` holds, so the index is valid when `0 <= t`.
                    let ok = names.fresh("index_ok");
                    stms.push(Stm {
                        pat: vec![Param { name: ok, ty: Type::Prim(PrimType::Bool) }],
                        exp: Exp::CmpOp(CmpOp::Le, PrimType::I64, SubExp::i64(0), *t),
                        attrs: s.attrs,
                        span: s.span,
                    });
                    let message = "Index [] out of bounds for array of shape [].".to_string();
                    stms.push(Stm {
                        pat: Vec::new(),
                        exp: Exp::Assert { cond: SubExp::Var(ok), message, args: vec![(7, *t), (43, w)] },
                        attrs: s.attrs,
                        span: s.span,
                    });
                }
                s.exp = Exp::SubExp(SubExp::Var(r));
            }
        }
        for b in nested_bodies_mut(&mut s.exp) {
            replace_reads(b, reduced, names);
        }
        stms.push(s);
    }
    body.stms = stms;
}
