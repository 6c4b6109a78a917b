//! Linear maps taken out of sums: an accumulator that every point adds
//! `f(u)` into, with `f` linear and the same for every point, gets
//! `f(Σ u)` once instead.
//!
//! Reverse mode of `map (\x -> … Q_k (x - μ_k) …)` over points, with
//! per-component matrices `Q_k`, adds `-Q_kᵀ w̄` into the adjoint of `μ_k`
//! for every point, where `w̄` is that point's adjoint of `Q_k (x - μ_k)`:
//! a matrix–vector product per point and component, as much work as the
//! objective's own product. The sum over points of a linear function is
//! the function of the sum, so the pass accumulates `Σ_p w̄` (one addition
//! per element) and runs the product once per component after the
//! points (GMM's gradient: 25 000 products of 64×64 become 25).
//!
//! The shape, as reverse mode and [`accreduce`] leave it:
//!
//! ```text
//! let (…, M', …) = withacc(n, …, accs [… M …], \(… m₀ …, …) ->          -- level 0, the points
//!     …
//!     let (…, m₀', …) = withacc(K, …, accs [… m₀ …], \(… m₁ …, …, k …) ->  -- level 1, k from iota K
//!         let u = …                       -- varies with the point
//!         …                               -- f: linear in u
//!         let m₁' = withacc(d, …, accs [m₁], \(a, …) -> … updacc(add) a[…] = v …)
//!         …
//! ```
//!
//! becomes
//!
//! ```text
//! let S = replicate([K, …shape of u], 0)
//! let (…, S', …) = withacc(n, …, accs [… S …], \(… s₀ …, …) ->
//!     … withacc(K, …, accs [… s₀ …], \(… s₁ …, …, k …) ->
//!         let u = … in … updacc(add) s₁[k] = u …)            -- no M
//! let M' = withacc(K, …, S', accs [M], \(m, …, u) -> f; withacc(d, …, accs [m], …))
//! ```
//!
//! With no component level (one matrix, `withacc(d, …, accs [m₀], …)`
//! directly in level 0's body), `S` has `u`'s shape, each point adds `u`
//! into all of it, and `f` runs once after the points.
//!
//! Conditions, so that the result is the same sum:
//! - `m₀` (and `m₁`) are used only to pass the accumulator down, and the
//!   innermost `withacc` has no other accumulator and no mapped results;
//! - every statement level 1 (level 0) needs for that `withacc` either does not vary
//!   with the point (it reads level 1's rows of arrays bound outside level
//!   0, a row of `iota K`, and values bound outside level 0) or is linear
//!   in `u`: an index, transpose, reshape, copy or replicate of a linear
//!   value, `neg`, a product or quotient of a linear and an invariant
//!   value, a sum or difference of two linear values, a map of those, a
//!   reduction by `+` from zero of a linear value; and the update adds a
//!   linear value at an invariant index;
//! - `u` is the first variable of level 1 for which this holds, and the
//!   linear part sums over something (a reduction), so that the pass
//!   removes more work than the accumulation of `u` adds.
//!
//! Only the rounding changes: the products' terms are summed in another
//! order, with the terms of each point's product first added over the
//! points (the accumulator's operator is associative and commutative by
//! contract; multiplication distributes over the sums).
//!
//! [`accreduce`]: crate::accreduce

use crate::accreduce::{definitions, is_iota, Defs};
use crate::inline::{collect_binders, fresh_lambda};
use ogham_ir::visit::{free_vars_exp, nested_bodies_mut, rename_uses, type_vars};
use ogham_ir::{
    BinOp, Body, DimIndex, Exp, Lambda, NameTable, Param, PrimValue, Program, Soac, Stm, StmAttrs, SubExp, Type, UnOp,
    VName,
};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Rewrites every function of the program (see the module documentation).
pub fn linhoist_program(prog: &mut Program) {
    for f in &mut prog.funs {
        let mut defs = HashMap::default();
        definitions(&f.body, &mut defs);
        body(&mut f.body, &defs, &mut prog.names);
    }
}

fn body(b: &mut Body, defs: &Defs, names: &mut NameTable) {
    for stm in &mut b.stms {
        for nb in nested_bodies_mut(&mut stm.exp) {
            body(nb, defs, names);
        }
    }
    let mut i = 0;
    while i < b.stms.len() {
        match plan(&b.stms[i], defs) {
            Some(p) => i += rewrite(b, i, p, names),
            None => i += 1,
        }
    }
}

/// What the rewrite of one level-0 `withacc` needs; indices are positions
/// in the lambdas' parameters and bodies.
struct Plan {
    /// The accumulator's position at level 0.
    a0: usize,
    /// The component level, when there is one: its `withacc` in level 0's
    /// body, the accumulator's position there, and its row of `iota K`.
    level1: Option<(usize, usize, VName)>,
    /// What the level holding `u` (level 1, else level 0) does with it.
    found: Found,
}

/// The innermost `withacc` and the statements before it that depend on
/// the point linearly, in the body of the level holding `u`.
struct Found {
    /// The innermost `withacc`.
    s2: usize,
    /// The statement binding `u`, and `u`.
    su: usize,
    u: VName,
    /// The statements the innermost `withacc` needs (after `su`).
    slice: Vec<usize>,
    /// Row parameters of the innermost `withacc` it does not use, to drop
    /// (their arrays vary with the point).
    unused_rows: Vec<usize>,
}

/// How a value depends on the point, inside the slice.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dep {
    /// Does not vary with the point.
    Inv,
    /// Linear in `u`.
    Lin,
}

fn withacc(stm: &Stm) -> Option<(&SubExp, &Vec<VName>, &Vec<VName>, &Lambda)> {
    match &stm.exp {
        Exp::Soac(Soac::WithAcc { w, arrs, accs, map }) => Some((w, arrs, accs, map)),
        _ => None,
    }
}

fn plan(s0: &Stm, defs: &Defs) -> Option<Plan> {
    let (_, _, accs0, l0) = withacc(s0)?;
    let n0 = accs0.len();
    let mut bound0: Vec<VName> = l0.params.iter().map(|p| p.name).collect();
    collect_binders(&l0.body, &mut bound0);
    let bound0: HashSet<VName> = bound0.into_iter().collect();
    for a0 in 0..n0 {
        let m0 = l0.params.get(a0)?.name;
        let Some(s1) = l0.body.stms.iter().position(|s| withacc(s).is_some_and(|(_, _, accs, _)| accs.contains(&m0)))
        else {
            continue;
        };
        if uses(&l0.body, m0) != 1 {
            continue;
        }
        let (w1, arrs1, accs1, l1) = withacc(&l0.body.stms[s1])?;
        let a1 = accs1.iter().position(|&a| a == m0)?;
        if l0.body.result.get(a0) != Some(&SubExp::Var(l0.body.stms[s1].pat[a1].name)) {
            continue;
        }
        // One level: that `withacc` is the innermost one, `u` is level 0's;
        // else it is level 1, with the innermost one inside.
        if accs1.len() == 1 {
            if let Some(found) = find(l0, s1, HashMap::default(), &bound0, true) {
                return Some(Plan { a0, level1: None, found });
            }
        }
        if matches!(w1, SubExp::Var(v) if bound0.contains(v)) {
            continue;
        }
        let n1 = accs1.len();
        let m1 = l1.params[a1].name;
        let Some(s2) = l1.body.stms.iter().position(|s| withacc(s).is_some_and(|(_, _, accs, _)| accs == &vec![m1]))
        else {
            continue;
        };
        let [r2] = &l1.body.stms[s2].pat[..] else { continue };
        if uses(&l1.body, m1) != 1 || l1.body.result.get(a1) != Some(&SubExp::Var(r2.name)) {
            continue;
        }
        // Level 1's row of `iota K`.
        let Some(k) = arrs1.iter().zip(&l1.params[n1..]).find_map(|(a, p)| is_iota(defs, *a, *w1).then_some(p.name))
        else {
            continue;
        };
        // Level 1's rows of arrays bound outside level 0 do not vary.
        let mut deps: HashMap<VName, Dep> = HashMap::default();
        for (a, p) in arrs1.iter().zip(&l1.params[n1..]) {
            if !bound0.contains(a) {
                deps.insert(p.name, Dep::Inv);
            }
        }
        if let Some(found) = find(l1, s2, deps, &bound0, false) {
            return Some(Plan { a0, level1: Some((s1, a1, k)), found });
        }
    }
    None
}

/// Finds `u` for the innermost `withacc` at `s2` in `l`'s body: the first
/// variable it needs for which the conditions hold (an array when
/// `array`); `deps` classes `l`'s parameters.
fn find(l: &Lambda, s2: usize, deps: HashMap<VName, Dep>, bound0: &HashSet<VName>, array: bool) -> Option<Found> {
    let [_] = &l.body.stms[s2].pat[..] else { return None };
    for su in closure(&l.body, s2, None) {
        let [p] = &l.body.stms[su].pat[..] else { continue };
        if type_vars(&p.ty).any(|v| bound0.contains(&v)) || (array && p.ty.rank() == 0) {
            continue;
        }
        let slice = closure(&l.body, s2, Some(su));
        let mut trial = deps.clone();
        trial.insert(p.name, Dep::Lin);
        let mut reduces = false;
        let ok = slice.iter().all(|&j| {
            let s = &l.body.stms[j];
            match stm_deps(s, &trial, bound0, &mut reduces) {
                Some(ds) => {
                    for (q, d) in s.pat.iter().zip(ds) {
                        trial.insert(q.name, d);
                    }
                    true
                }
                None => false,
            }
        });
        if !ok {
            continue;
        }
        let Some(unused_rows) = innermost_ok(&l.body.stms[s2], &trial, bound0, &mut reduces) else { continue };
        if reduces {
            return Some(Found { s2, su, u: p.name, slice, unused_rows });
        }
    }
    None
}

/// The statements of `b` before `s2` that it needs, transitively, in order;
/// with `stop`, not that statement nor what only it needs.
fn closure(b: &Body, s2: usize, stop: Option<usize>) -> Vec<usize> {
    let mut want = free_vars_exp(&b.stms[s2].exp);
    let mut out = Vec::new();
    for j in (0..s2).rev() {
        let s = &b.stms[j];
        if !s.pat.iter().any(|p| want.contains(&p.name)) || Some(j) == stop {
            continue;
        }
        out.push(j);
        want.extend(free_vars_exp(&s.exp));
        for p in &s.pat {
            want.extend(type_vars(&p.ty));
        }
    }
    out.reverse();
    out
}

/// The class of a variable: recorded, or invariant when bound outside level 0.
fn dep_of(v: VName, deps: &HashMap<VName, Dep>, bound0: &HashSet<VName>) -> Option<Dep> {
    match deps.get(&v) {
        Some(&d) => Some(d),
        None if bound0.contains(&v) => None,
        None => Some(Dep::Inv),
    }
}

fn sub_dep(s: &SubExp, deps: &HashMap<VName, Dep>, bound0: &HashSet<VName>) -> Option<Dep> {
    match s {
        SubExp::Const(_) => Some(Dep::Inv),
        SubExp::Var(v) => dep_of(*v, deps, bound0),
    }
}

/// The classes of a statement's results, or `None` when it varies with the
/// point other than linearly in `u`. `reduces` is set by a sum of linear values.
fn stm_deps(s: &Stm, deps: &HashMap<VName, Dep>, bound0: &HashSet<VName>, reduces: &mut bool) -> Option<Vec<Dep>> {
    let mut free = free_vars_exp(&s.exp);
    for p in &s.pat {
        free.extend(type_vars(&p.ty));
    }
    let mut any_lin = false;
    for v in &free {
        match dep_of(*v, deps, bound0)? {
            Dep::Lin => any_lin = true,
            Dep::Inv => {}
        }
    }
    if !any_lin {
        return Some(vec![Dep::Inv; s.pat.len()]);
    }
    let d = |x: &SubExp| sub_dep(x, deps, bound0);
    let lin = |x: &SubExp| d(x) == Some(Dep::Lin);
    let one = match &s.exp {
        Exp::SubExp(x) => d(x)?,
        Exp::BinOp(BinOp::Mul, t, a, b) if t.is_float() && lin(a) != lin(b) => Dep::Lin,
        Exp::BinOp(BinOp::Div, t, a, b) if t.is_float() && lin(a) && !lin(b) => Dep::Lin,
        Exp::BinOp(BinOp::Add | BinOp::Sub, t, a, b) if t.is_float() && lin(a) && lin(b) => Dep::Lin,
        Exp::UnOp(UnOp::Neg, t, _) if t.is_float() => Dep::Lin,
        Exp::Index { array, slice } if deps.get(array) == Some(&Dep::Lin) && slice_inv(slice, deps, bound0) => Dep::Lin,
        Exp::Rearrange { array, .. } | Exp::Copy(array) if deps.get(array) == Some(&Dep::Lin) => Dep::Lin,
        Exp::Reshape { array, shape } if deps.get(array) == Some(&Dep::Lin) && shape.iter().all(|x| !lin(x)) => {
            Dep::Lin
        }
        Exp::Replicate { shape, value } if lin(value) && shape.iter().all(|x| !lin(x)) => Dep::Lin,
        Exp::Soac(Soac::Screma { w, arrs, scans, reduces: reds, map }) if scans.is_empty() && !lin(w) => {
            let mut inner = deps.clone();
            for (a, p) in arrs.iter().zip(&map.params) {
                inner.insert(p.name, dep_of(*a, deps, bound0)?);
            }
            let res = body_deps(&map.body, &mut inner, bound0, reduces)?;
            let mut out = Vec::new();
            let mut at = 0;
            for op in reds {
                let k = op.neutral.len();
                let part = &res[at..at + k];
                if part.contains(&Dep::Lin) {
                    if !is_sum(op) {
                        return None;
                    }
                    *reduces = true;
                }
                out.extend_from_slice(part);
                at += k;
            }
            out.extend_from_slice(&res[at..]);
            return (out.len() == s.pat.len()).then_some(out);
        }
        _ => return None,
    };
    (s.pat.len() == 1).then(|| vec![one])
}

fn slice_inv(slice: &[DimIndex], deps: &HashMap<VName, Dep>, bound0: &HashSet<VName>) -> bool {
    slice.iter().all(|ix| {
        let subs: Vec<&SubExp> = match ix {
            DimIndex::Fix(x) => vec![x],
            DimIndex::Slice { start, len, stride } => vec![start, len, stride],
        };
        subs.into_iter().all(|x| sub_dep(x, deps, bound0) == Some(Dep::Inv))
    })
}

/// The classes of a body's results (its statements' recorded in `deps`).
fn body_deps(
    b: &Body,
    deps: &mut HashMap<VName, Dep>,
    bound0: &HashSet<VName>,
    reduces: &mut bool,
) -> Option<Vec<Dep>> {
    for s in &b.stms {
        let ds = stm_deps(s, deps, bound0, reduces)?;
        for (p, d) in s.pat.iter().zip(ds) {
            deps.insert(p.name, d);
        }
    }
    b.result.iter().map(|r| sub_dep(r, deps, bound0)).collect()
}

/// An operator that adds, from zero: `\x y -> x + y`.
fn is_sum(op: &ogham_ir::Operator) -> bool {
    let l = &op.lambda;
    let [x, y] = &l.params[..] else { return false };
    let [s] = &l.body.stms[..] else { return false };
    let zero =
        op.neutral.iter().all(|n| matches!(n, SubExp::Const(c) if *c != PrimValue::Bool(false) && c.as_f64() == 0.0));
    zero && matches!(&s.exp, Exp::BinOp(BinOp::Add, t, SubExp::Var(a), SubExp::Var(b))
        if t.is_float() && ((*a, *b) == (x.name, y.name) || (*a, *b) == (y.name, x.name)))
        && l.body.result == vec![SubExp::Var(s.pat[0].name)]
}

/// Checks the innermost `withacc`: its rows invariant or linear (or unused),
/// its body linear, ending in one addition of a linear value at an
/// invariant index into its accumulator. Returns the unused rows.
fn innermost_ok(
    s2: &Stm,
    deps: &HashMap<VName, Dep>,
    bound0: &HashSet<VName>,
    reduces: &mut bool,
) -> Option<Vec<usize>> {
    let (w, arrs, _, l2) = withacc(s2)?;
    if sub_dep(w, deps, bound0)? != Dep::Inv || l2.body.result.len() != 1 {
        return None;
    }
    let acc = l2.params[0].name;
    let mut inner = deps.clone();
    let mut unused = Vec::new();
    for (j, (a, p)) in arrs.iter().zip(&l2.params[1..]).enumerate() {
        match dep_of(*a, deps, bound0) {
            Some(d) => {
                inner.insert(p.name, d);
            }
            None if uses(&l2.body, p.name) == 0 => unused.push(j),
            None => return None,
        }
    }
    let (last, rest) = l2.body.stms.split_last()?;
    for s in rest {
        let ds = stm_deps(s, &inner, bound0, reduces)?;
        for (p, d) in s.pat.iter().zip(ds) {
            inner.insert(p.name, d);
        }
    }
    let Exp::UpdAcc { acc: a, slice, value, op: Some(BinOp::Add) } = &last.exp else { return None };
    let ok = *a == acc
        && uses(&l2.body, acc) == 1
        && slice_inv(slice, &inner, bound0)
        && sub_dep(value, &inner, bound0) == Some(Dep::Lin)
        && l2.body.result == vec![SubExp::Var(last.pat[0].name)];
    ok.then_some(unused)
}

/// How many times `v` is used in `b` (its statements and results).
fn uses(b: &Body, v: VName) -> usize {
    let mut counts = HashMap::default();
    ogham_ir::visit::count_uses(b, &mut counts);
    counts.get(&v).copied().unwrap_or(0)
}

/// The function the new code runs once per component (or once): the
/// slice, then the innermost `withacc` without its unused rows, taking the
/// accumulator `acc`, the rows of `l` (after its `n_accs` accumulators) it
/// reads, and `u`; with the positions of those rows among `l`'s parameters.
fn hoisted(l: &Lambda, n_accs: usize, f: &Found, acc: &Param, names: &mut NameTable) -> (Lambda, Vec<usize>) {
    let mut inner = l.body.stms[f.s2].clone();
    if let Exp::Soac(Soac::WithAcc { arrs, map, .. }) = &mut inner.exp {
        for &j in f.unused_rows.iter().rev() {
            arrs.remove(j);
            map.params.remove(j + 1);
        }
    }
    let mut stms: Vec<Stm> = f.slice.iter().map(|&j| l.body.stms[j].clone()).collect();
    let result = vec![SubExp::Var(inner.pat[0].name)];
    stms.push(inner);
    let body = Body { stms, result };
    let free = ogham_ir::visit::free_vars_body(&body);
    let rows: Vec<usize> = (n_accs..l.params.len()).filter(|&j| free.contains(&l.params[j].name)).collect();
    let mut params = vec![acc.clone()];
    params.extend(rows.iter().map(|&j| l.params[j].clone()));
    params.push(Param { name: f.u, ty: l.body.stms[f.su].pat[0].ty.clone() });
    (fresh_lambda(&Lambda { params, body, ret: vec![acc.ty.clone()] }, names), rows)
}

/// Adds the accumulator `s` (of type `ty`) to the `withacc` `stm`, after
/// its others: `param` in its function, which returns `next`; the
/// statement binds `out` for it. Returns the position.
fn add_acc(stm: &mut Stm, s: VName, ty: &Type, param: Param, next: VName, out: Param) -> usize {
    let Exp::Soac(Soac::WithAcc { accs, map, .. }) = &mut stm.exp else { unreachable!("a withacc") };
    let at = accs.len();
    accs.push(s);
    map.params.insert(at, param);
    map.ret.insert(at, ty.clone());
    map.body.result.insert(at, SubExp::Var(next));
    stm.pat.insert(at, out);
    at
}

/// Removes accumulator `a` from the `withacc` `stm` (its function returns
/// the parameter unchanged); returns its initial value and the result.
fn drop_acc(stm: &mut Stm, a: usize) -> (VName, Param) {
    let Exp::Soac(Soac::WithAcc { accs, map, .. }) = &mut stm.exp else { unreachable!("a withacc") };
    map.body.result.remove(a);
    map.params.remove(a);
    map.ret.remove(a);
    (accs.remove(a), stm.pat.remove(a))
}

fn lambda_mut(stm: &mut Stm) -> &mut Lambda {
    let Exp::Soac(Soac::WithAcc { map, .. }) = &mut stm.exp else { unreachable!("a withacc") };
    map
}

/// Rewrites the level-0 `withacc` at `b.stms[i]` by `p`; returns how many
/// statements now stand from `i` on, the new ones included.
fn rewrite(b: &mut Body, i: usize, p: Plan, names: &mut NameTable) -> usize {
    let f = &p.found;
    let span = b.stms[i].span;
    let l0 = lambda_mut(&mut b.stms[i]);
    let m0 = l0.params[p.a0].clone();
    // The function run once per component (or once), the arrays it reads
    // besides S, and S's type.
    let (lam, rows, new_arrs, s_ty) = match p.level1 {
        Some((s1, a1, _)) => {
            let s1_stm = &mut l0.body.stms[s1];
            let Exp::Soac(Soac::WithAcc { w, arrs, accs, map: l1 }) = &s1_stm.exp else { unreachable!() };
            let (lam, rows) = hoisted(l1, accs.len(), f, &l1.params[a1].clone(), names);
            let new_arrs: Vec<VName> = rows.iter().map(|&j| arrs[j - accs.len()]).collect();
            let u_ty = &l1.body.stms[f.su].pat[0].ty;
            let mut shape = vec![*w];
            shape.extend(u_ty.shape().iter().copied());
            let s_ty = Type::Array { elem: u_ty.elem(), shape };
            (lam, rows, new_arrs, s_ty)
        }
        None => {
            let (lam, rows) = hoisted(l0, 0, f, &m0, names);
            (lam, rows, Vec::new(), l0.body.stms[f.su].pat[0].ty.clone())
        }
    };
    debug_assert!(p.level1.is_some() || rows.is_empty(), "level 0's rows vary with the point");
    let s_zero = Param { name: names.fresh("usum"), ty: s_ty.clone() };
    let s_out = Param { name: names.fresh("usum"), ty: s_ty.clone() };
    let s0_param = Param { name: names.fresh("usum"), ty: s_ty.clone() };
    // The statements after the level-0 `withacc` that now compute M'.
    let added = match p.level1 {
        Some((s1, a1, k)) => {
            // Level 1: no innermost `withacc`, no M; u added into S at [k].
            let s1_stm = &mut l0.body.stms[s1];
            let l1 = lambda_mut(s1_stm);
            l1.body.stms.remove(f.s2);
            let s1_param = Param { name: names.fresh("usum"), ty: s_ty.clone() };
            let s1_next = Param { name: names.fresh("usum"), ty: s_ty.clone() };
            l1.body.stms.push(Stm {
                pat: vec![s1_next.clone()],
                exp: Exp::UpdAcc {
                    acc: s1_param.name,
                    slice: vec![DimIndex::Fix(SubExp::Var(k))],
                    value: SubExp::Var(f.u),
                    op: Some(BinOp::Add),
                },
                attrs: StmAttrs::default(),
                span,
            });
            let (_, gone1) = drop_acc(s1_stm, a1);
            let s1_out = Param { name: names.fresh("usum"), ty: s_ty.clone() };
            add_acc(s1_stm, s0_param.name, &s_ty, s1_param, s1_next.name, s1_out.clone());
            // Level 0 passes M through, then no longer has it.
            rename_uses(&mut l0.body, &|v| (v == gone1.name).then_some(m0.name));
            let s0 = &mut b.stms[i];
            let (m_in, m_out) = drop_acc(s0, p.a0);
            add_acc(s0, s_zero.name, &s_ty, s0_param, s1_out.name, s_out.clone());
            let mut arrs = new_arrs;
            arrs.push(s_out.name);
            let exp = Exp::Soac(Soac::WithAcc { w: s_ty.shape()[0], arrs, accs: vec![m_in], map: lam });
            b.stms.insert(i + 1, Stm { pat: vec![m_out], exp, attrs: StmAttrs::default(), span });
            1
        }
        None => {
            // Level 0: u added into S, no innermost `withacc`, no M.
            let len = s_ty.shape()[0];
            let s0_next = Param { name: names.fresh("usum"), ty: s_ty.clone() };
            l0.body.stms.remove(f.s2);
            l0.body.stms.push(Stm {
                pat: vec![s0_next.clone()],
                exp: Exp::UpdAcc {
                    acc: s0_param.name,
                    slice: vec![DimIndex::Slice { start: SubExp::i64(0), len, stride: SubExp::i64(1) }],
                    value: SubExp::Var(f.u),
                    op: Some(BinOp::Add),
                },
                attrs: StmAttrs::default(),
                span,
            });
            let s0 = &mut b.stms[i];
            let (m_in, m_out) = drop_acc(s0, p.a0);
            add_acc(s0, s_zero.name, &s_ty, s0_param, s0_next.name, s_out.clone());
            // The function's body, once, on M and S.
            let (acc, u) = (lam.params[0].name, lam.params[lam.params.len() - 1].name);
            let mut once = lam.body;
            rename_uses(&mut once, &|v| {
                if v == acc {
                    Some(m_in)
                } else if v == u {
                    Some(s_out.name)
                } else {
                    None
                }
            });
            // The statement that makes the body's result binds M' itself:
            // M may be the accumulator of an enclosing withacc (accreduce's
            // chunks), which `let M' = …` would read.
            let result = once.result[0].as_var();
            let binder = once.stms.iter_mut().flat_map(|s| s.pat.iter_mut()).find(|q| Some(q.name) == result);
            match binder {
                Some(q) => q.name = m_out.name,
                None => once.stms.push(Stm {
                    pat: vec![m_out],
                    exp: Exp::SubExp(once.result[0]),
                    attrs: StmAttrs::default(),
                    span,
                }),
            }
            let n = once.stms.len();
            b.stms.splice(i + 1..i + 1, once.stms);
            n
        }
    };
    let zero = Stm {
        pat: vec![s_zero],
        exp: Exp::Replicate { shape: s_ty.shape().to_vec(), value: SubExp::Const(PrimValue::zero(s_ty.elem())) },
        attrs: StmAttrs::default(),
        span,
    };
    b.stms.insert(i, zero);
    // The zeros, the level-0 `withacc` and what follows it.
    2 + added
}
