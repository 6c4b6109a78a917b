//! Inlining: small leaf functions, and functions called once.
//!
//! Lowering turns every first-order call of a top-level function into an
//! [`Exp::Apply`], the prelude's wrappers included (`iota`, `replicate`,
//! `scatter`, `flatten`, …). Left as calls, their results are materialised
//! arrays behind a function boundary: `reduce (+) 0 (iota n)` would allocate
//! all of `iota n`, and no `map` could fuse with them. So a call is
//! replaced by a renamed copy of the function's body when the function
//! calls no function itself and has at most [`MAX_STMS`] statements (nested
//! ones counted), or when this is its only call in the program and it is
//! not recursive (so the copy costs nothing, and the maps inside it can
//! fuse with the caller's). This is repeated (a caller may become such a
//! leaf), and functions no entry point reaches are dropped (C warns about
//! unused static functions). Recursive and large functions called from
//! several places stay functions, so code size stays linear.
//!
//! In the copy, a parameter whose argument is a variable becomes that
//! variable; one whose argument is a constant is bound to it; every
//! variable the body binds gets a fresh name, and a result that the body
//! binds (once, and not a parameter) is bound directly under the caller's
//! name, so that `let xs = iota n` stays an `iota` statement for the later
//! passes (fusion, virtual arrays).
//!
//! Functions with checks are inlined too: each copied statement gets an
//! inlined span ([`Span::inlined`], recorded in [`Program::inlined`]) that
//! stands for its place in the function and then the call, so a failure
//! in the copy reports the same backtrace as the call would have.

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;

use ogham_ir::visit::{calls_itself, collect_calls, nested_bodies_mut, rename_uses, substitute_type};
use ogham_ir::{Body, Exp, FunDef, LoopForm, NameTable, Param, Program, Stm, StmAttrs, SubExp, VName};

/// The largest function body (statements, nested ones included) inlined.
pub const MAX_STMS: usize = 12;

/// Inlines the small leaf functions, and the functions called once, of the
/// program (see the module doc).
pub fn inline_program(prog: &mut Program) {
    loop {
        drop_unreachable(prog);
        let graph = ogham_ir::visit::call_graph(prog);
        let sites = call_sites(prog);
        let inlinable: HashMap<String, usize> = prog
            .funs
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                let small_leaf = graph[&f.name].is_empty() && count_stms(&f.body) <= MAX_STMS;
                let once = sites.get(&f.name) == Some(&1) && !calls_itself(&graph, &f.name);
                small_leaf || once
            })
            .map(|(i, f)| (f.name.clone(), i))
            .collect();
        if inlinable.is_empty() {
            break;
        }
        let mut changed = false;
        for i in 0..prog.funs.len() {
            if graph[&prog.funs[i].name].iter().all(|c| !inlinable.contains_key(c)) {
                continue;
            }
            let mut body = std::mem::take(&mut prog.funs[i].body);
            changed |= inline_body(&mut body, prog, &inlinable);
            prog.funs[i].body = body;
        }
        let mut consts = Body { stms: std::mem::take(&mut prog.consts), result: Vec::new() };
        changed |= inline_body(&mut consts, prog, &inlinable);
        prog.consts = consts.stms;
        if !changed {
            break;
        }
    }
    drop_unreachable(prog);
}

/// Removes the functions that no entry point reaches through calls (in a
/// program with entry points; a program of functions only keeps them all).
pub(crate) fn drop_unreachable(prog: &mut Program) {
    if prog.entry_points().next().is_none() {
        return;
    }
    let mut reached: BTreeSet<String> =
        prog.funs.iter().filter(|f| f.entry.is_some()).map(|f| f.name.clone()).collect();
    // The constants' calls.
    collect_calls(&prog.consts, &mut reached);
    close_over_calls(prog, &mut reached);
    prog.funs.retain(|f| reached.contains(&f.name));
}

/// Adds to `reached` every function that its functions call, directly or
/// through other calls.
fn close_over_calls(prog: &Program, reached: &mut BTreeSet<String>) {
    let mut work: Vec<String> = reached.iter().cloned().collect();
    while let Some(name) = work.pop() {
        if let Some(f) = prog.fun(&name) {
            let mut calls = BTreeSet::new();
            collect_calls(&f.body.stms, &mut calls);
            for c in calls {
                if reached.insert(c.clone()) {
                    work.push(c);
                }
            }
        }
    }
}

/// How many call statements name each function.
fn call_sites(prog: &Program) -> HashMap<String, usize> {
    fn go(stms: &[Stm], out: &mut HashMap<String, usize>) {
        for stm in stms {
            if let Exp::Apply { func, .. } = &stm.exp {
                *out.entry(func.clone()).or_default() += 1;
            }
            ogham_ir::visit::bodies(&stm.exp).into_iter().for_each(|b| go(&b.stms, out));
            ogham_ir::visit::lambdas(&stm.exp).into_iter().for_each(|l| go(&l.body.stms, out));
        }
    }
    let mut out = HashMap::default();
    prog.funs.iter().for_each(|f| go(&f.body.stms, &mut out));
    go(&prog.consts, &mut out);
    out
}

fn count_stms(body: &Body) -> usize {
    body.stms
        .iter()
        .map(|stm| {
            1 + ogham_ir::visit::bodies(&stm.exp).into_iter().map(count_stms).sum::<usize>()
                + ogham_ir::visit::lambdas(&stm.exp).into_iter().map(|l| count_stms(&l.body)).sum::<usize>()
        })
        .sum()
}

/// Replaces the calls of `leaves` in `body` (at any depth) by copies of
/// their bodies; returns whether any was replaced.
pub(crate) fn inline_body(body: &mut Body, prog: &mut Program, leaves: &HashMap<String, usize>) -> bool {
    let mut changed = false;
    let stms = std::mem::take(&mut body.stms);
    for mut stm in stms {
        for b in nested_bodies_mut(&mut stm.exp) {
            changed |= inline_body(b, prog, leaves);
        }
        let callee = match &stm.exp {
            Exp::Apply { func, .. } => leaves.get(func).copied(),
            _ => None,
        };
        let (Some(k), Exp::Apply { args, .. }) = (callee, &stm.exp) else {
            body.stms.push(stm);
            continue;
        };
        let callee = prog.funs[k].clone();
        if callee.params.len() != args.len() || callee.body.result.len() != stm.pat.len() {
            body.stms.push(stm);
            continue;
        }
        let mut map: HashMap<VName, VName> = HashMap::default();
        // Parameters: a variable argument replaces the parameter; a constant is bound.
        for (p, a) in callee.params.iter().zip(args) {
            match a {
                SubExp::Var(v) => {
                    map.insert(p.name, *v);
                }
                SubExp::Const(_) => {
                    let fresh = fresh_like(&mut prog.names, p.name);
                    map.insert(p.name, fresh);
                    body.stms.push(Stm {
                        pat: vec![Param { name: fresh, ty: p.ty.clone() }],
                        exp: Exp::SubExp(*a),
                        attrs: StmAttrs::default(),
                        span: stm.span,
                    });
                }
            }
        }
        // Results bound by the body take the caller's names.
        let params: BTreeSet<VName> = callee.params.iter().map(|p| p.name).collect();
        let mut binders = Vec::new();
        collect_binders(&callee.body, &mut binders);
        let top: BTreeSet<VName> = callee.body.stms.iter().flat_map(|s| s.pat.iter().map(|p| p.name)).collect();
        let mut direct = vec![false; stm.pat.len()];
        for (i, (r, p)) in callee.body.result.iter().zip(&stm.pat).enumerate() {
            if let SubExp::Var(v) = r {
                if top.contains(v) && !params.contains(v) && !map.contains_key(v) {
                    map.insert(*v, p.name);
                    direct[i] = true;
                }
            }
        }
        for v in binders {
            map.entry(v).or_insert_with(|| fresh_like(&mut prog.names, v));
        }
        let mut copy = callee.body.clone();
        rename_binders(&mut copy, &map);
        rename_uses(&mut copy, &|v| map.get(&v).copied());
        // A result bound directly takes the caller's type (its sizes are the
        // caller's names) where those names are bound by then; else it keeps
        // the callee's (renamed) type, which describes the same sizes.
        let mut pending: BTreeSet<VName> = stm.pat.iter().map(|p| p.name).collect();
        for s in &mut copy.stms {
            for q in &s.pat {
                pending.remove(&q.name);
            }
            for q in &mut s.pat {
                if let Some(p) = stm.pat.iter().find(|p| p.name == q.name) {
                    if ogham_ir::visit::type_vars(&p.ty).all(|v| !pending.contains(&v)) {
                        q.ty = p.ty.clone();
                    }
                }
            }
        }
        let mut memo = HashMap::default();
        ogham_ir::relocate(&mut copy.stms, stm.span, None, &mut prog.inlined, &mut memo);
        body.stms.extend(copy.stms);
        for ((r, p), d) in copy.result.iter().zip(&stm.pat).zip(direct) {
            if !d {
                body.stms.push(Stm {
                    pat: vec![p.clone()],
                    exp: Exp::SubExp(*r),
                    attrs: StmAttrs::default(),
                    span: stm.span,
                });
            }
        }
        changed = true;
    }
    changed
}

/// Inlines, inside the lambdas of [`Exp::Ad`] statements (at any depth)
/// and in the functions those lambdas reach through calls, every call of
/// a function with a result whose size is known only when it returns
/// (`xs ++ xs` of an unknown `xs`, a `flatmap`, `drop i xs`): the
/// differentiation of a call goes through the callee's derivative
/// function, which cannot return such sizes, while the callee's
/// statements in place can be differentiated as they are. Repeated, since
/// an inlined body may call such functions too (no function is
/// recursive).
pub(crate) fn inline_sized_calls_in_ad(prog: &mut Program) {
    loop {
        let targets: HashMap<String, usize> =
            prog.funs.iter().enumerate().filter(|(_, f)| returns_sizes(f)).map(|(i, f)| (f.name.clone(), i)).collect();
        if targets.is_empty() {
            return;
        }
        let differentiated = reached_from_ad(prog);
        let mut changed = false;
        for fi in 0..prog.funs.len() {
            let mut body = std::mem::take(&mut prog.funs[fi].body);
            changed |= if differentiated.contains(&prog.funs[fi].name) {
                inline_body(&mut body, prog, &targets)
            } else {
                inline_in_ad(&mut body, prog, &targets)
            };
            prog.funs[fi].body = body;
        }
        let mut consts = Body { stms: std::mem::take(&mut prog.consts), result: Vec::new() };
        changed |= inline_in_ad(&mut consts, prog, &targets);
        prog.consts = consts.stms;
        if !changed {
            return;
        }
    }
}

/// The functions called, directly or through other calls, from the
/// lambdas of [`Exp::Ad`] statements: the ones differentiation copies.
fn reached_from_ad(prog: &Program) -> BTreeSet<String> {
    fn ad_calls(stms: &[Stm], out: &mut BTreeSet<String>) {
        for stm in stms {
            if matches!(stm.exp, Exp::Ad { .. }) {
                ogham_ir::visit::lambdas(&stm.exp).into_iter().for_each(|l| collect_calls(&l.body.stms, out));
                ogham_ir::visit::bodies(&stm.exp).into_iter().for_each(|b| collect_calls(&b.stms, out));
                continue;
            }
            ogham_ir::visit::bodies(&stm.exp).into_iter().for_each(|b| ad_calls(&b.stms, out));
            ogham_ir::visit::lambdas(&stm.exp).into_iter().for_each(|l| ad_calls(&l.body.stms, out));
        }
    }
    let mut reached = BTreeSet::new();
    prog.funs.iter().for_each(|f| ad_calls(&f.body.stms, &mut reached));
    ad_calls(&prog.consts, &mut reached);
    close_over_calls(prog, &mut reached);
    reached
}

/// Whether a result type of `f` has a size that is none of its parameters.
pub(crate) fn returns_sizes(f: &FunDef) -> bool {
    let params: Vec<VName> = f.params.iter().map(|p| p.name).collect();
    f.ret.iter().flat_map(ogham_ir::visit::type_vars).any(|v| !params.contains(&v))
}

/// [`inline_body`] on the bodies of the [`Exp::Ad`] lambdas in `body`.
fn inline_in_ad(body: &mut Body, prog: &mut Program, targets: &HashMap<String, usize>) -> bool {
    let mut changed = false;
    for stm in &mut body.stms {
        let ad = matches!(stm.exp, Exp::Ad { .. });
        for b in nested_bodies_mut(&mut stm.exp) {
            changed |= if ad { inline_body(b, prog, targets) } else { inline_in_ad(b, prog, targets) };
        }
    }
    changed
}

/// A copy of `f` (body, parameters and types) in which every variable it
/// binds has a fresh name, so that it can be added to the program beside `f`.
pub(crate) fn fresh_copy(f: &FunDef, names: &mut NameTable) -> FunDef {
    let mut copy = f.clone();
    freshen(&mut copy.params, &mut copy.body, &mut copy.ret, names);
    copy
}

/// A copy of `lam` in which every variable it binds (its parameters
/// included) has a fresh name, so that it can sit beside `lam`.
pub(crate) fn fresh_lambda(lam: &ogham_ir::Lambda, names: &mut NameTable) -> ogham_ir::Lambda {
    let mut copy = lam.clone();
    freshen(&mut copy.params, &mut copy.body, &mut copy.ret, names);
    copy
}

/// Gives every variable that `params` and `body` bind a fresh name, in
/// their uses and in the types of the parameters and of `ret` too.
fn freshen(params: &mut [Param], body: &mut Body, ret: &mut [ogham_ir::Type], names: &mut NameTable) {
    let mut binders: Vec<VName> = params.iter().map(|p| p.name).collect();
    collect_binders(body, &mut binders);
    let map: HashMap<VName, VName> = binders.into_iter().map(|v| (v, fresh_like(names, v))).collect();
    rename_binders(body, &map);
    rename_uses(body, &|v| map.get(&v).copied());
    let to = |v: VName| map.get(&v).map(|&w| SubExp::Var(w));
    for p in params {
        p.name = map[&p.name];
        substitute_type(&mut p.ty, &to);
    }
    ret.iter_mut().for_each(|t| substitute_type(t, &to));
}

/// A fresh variable with `v`'s base name.
pub(crate) fn fresh_like(names: &mut NameTable, v: VName) -> VName {
    let base = names.base(v).to_string();
    names.fresh(&base)
}

/// Every variable `body` binds, at any depth: patterns, loop parameters and
/// indices, lambda parameters.
pub(crate) fn collect_binders(body: &Body, out: &mut Vec<VName>) {
    for stm in &body.stms {
        out.extend(stm.pat.iter().map(|p| p.name));
        if let Exp::Loop { params, form, .. } = &stm.exp {
            out.extend(params.iter().map(|(p, _)| p.name));
            if let LoopForm::For { i, .. } = form {
                out.push(*i);
            }
        }
        for l in ogham_ir::visit::lambdas(&stm.exp) {
            out.extend(l.params.iter().map(|p| p.name));
            collect_binders(&l.body, out);
        }
        for b in ogham_ir::visit::bodies(&stm.exp) {
            collect_binders(b, out);
        }
    }
}

/// Renames the binders of `body` (see [`collect_binders`]) by `map`.
pub(crate) fn rename_binders(body: &mut Body, map: &HashMap<VName, VName>) {
    let re = |v: &mut VName| {
        if let Some(w) = map.get(v) {
            *v = *w;
        }
    };
    for stm in &mut body.stms {
        stm.pat.iter_mut().for_each(|p| re(&mut p.name));
        if let Exp::Loop { params, form, .. } = &mut stm.exp {
            params.iter_mut().for_each(|(p, _)| re(&mut p.name));
            match form {
                LoopForm::For { i, .. } => re(i),
                // The condition is a loop parameter (renamed with them).
                LoopForm::While { cond } => re(cond),
            }
        }
        if let Exp::Soac(soac) = &mut stm.exp {
            for l in ogham_ir::visit::soac_lambdas_mut(soac) {
                l.params.iter_mut().for_each(|p| re(&mut p.name));
            }
        }
        if let Exp::Ad { lambda, .. } = &mut stm.exp {
            lambda.params.iter_mut().for_each(|p| re(&mut p.name));
        }
        for b in nested_bodies_mut(&mut stm.exp) {
            rename_binders(b, map);
        }
    }
}
