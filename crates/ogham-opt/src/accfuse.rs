//! Accumulating fusion: a map whose mapped result is only added into an
//! accumulator adds each of its elements in directly.
//!
//! Inside a `withacc`'s map function, a statement
//!
//! ```text
//! let (…, xs, …) = map(w, arrs, f)            -- or a withacc's mapped result
//! …
//! let a' = updacc(op) a[i₁, …, iₖ] = xs       -- the only use of xs
//! ```
//!
//! where `a` is an accumulator becomes a `withacc` that takes `a` as one
//! more accumulator (after those it already has) and one more input, a
//! `iota w` of row indices `j`, and whose function ends with
//! `updacc(op) a[i₁, …, iₖ, j] = x` for its former result `x`; the `updacc`
//! statement disappears and `a'` is the new accumulator result. No
//! temporary array of `w` rows is built, written and read back.
//!
//! Reverse mode makes this shape wherever the adjoint rows of a map's
//! iteration go into the adjoint of a free array: GMM's `Q_k` adjoint is a
//! `d×d` matrix per point and component, built by a map over its rows and
//! then added into the accumulator; after the rewrite, applied again to the
//! row update it leaves inside, each element goes straight into the
//! accumulator, in a loop the C backend runs as a vectorised kernel.
//!
//! Conditions, so the updates are exactly those of the `updacc`:
//! - the slice is single indices only, and the dimensions of `a` after them
//!   are, operand for operand, those of `xs` (so the row update could not
//!   fail on a shape mismatch, and element `j` of it is element `[…, j]`);
//!   a slice out of bounds writes nothing either way, and `j < w`;
//! - the indices and `a` are bound before the map, nothing between the map
//!   and the update uses `a` (the update moves earlier), and the map does
//!   not mention `a`;
//! - `a` is an accumulator of an enclosing `withacc` (a parameter of its
//!   map function, or made of one by `updacc` or a nested `withacc`): it is
//!   write-only, so nothing the map reads can alias it, and the enclosing
//!   `withacc` already decides how parallel updates of it are combined. A
//!   map at a function's top level is left alone: the multicore backend
//!   runs it in parallel, and a parallel `withacc` with a large accumulator
//!   would update it atomically.

use std::collections::{HashMap, HashSet};

use ogham_ir::visit::{count_uses, free_vars_exp, nested_bodies_mut};
use ogham_ir::{
    Body, DimIndex, Exp, NameTable, Param, PrimType, PrimValue, Program, Soac, Stm, StmAttrs, SubExp, Type, VName,
};

/// Rewrites every function of the program (see the module documentation).
pub fn accfuse_program(prog: &mut Program) {
    for f in &mut prog.funs {
        body(&mut f.body, &mut HashSet::new(), &mut prog.names);
    }
}

/// Rewrites `b`, in which the variables in `accs` are accumulators, and
/// the bodies nested in it.
fn body(b: &mut Body, accs: &mut HashSet<VName>, names: &mut NameTable) {
    for stm in &b.stms {
        accumulator_results(stm, accs);
    }
    while rewrite_one(b, accs, names) {}
    for stm in &mut b.stms {
        if let Exp::Soac(Soac::WithAcc { accs: a, map, .. }) = &stm.exp {
            accs.extend(map.params[..a.len()].iter().map(|p| p.name));
        }
        for nb in nested_bodies_mut(&mut stm.exp) {
            body(nb, accs, names);
        }
    }
}

/// Adds to `accs` the results of `stm` that are accumulators because they
/// are made of one.
fn accumulator_results(stm: &Stm, accs: &mut HashSet<VName>) {
    match &stm.exp {
        Exp::UpdAcc { acc, .. } if accs.contains(acc) => {
            accs.extend(stm.pat.first().map(|p| p.name));
        }
        Exp::Soac(Soac::WithAcc { accs: a, .. }) => {
            for (p, x) in stm.pat.iter().zip(a) {
                if accs.contains(x) {
                    accs.insert(p.name);
                }
            }
        }
        _ => {}
    }
}

/// A map statement's mapped result that one later `updacc` of an
/// accumulator consumes, and what the rewrite needs of them.
struct Candidate {
    /// The map statement and the update, by position in the body.
    map: usize,
    update: usize,
    /// The result's position in the map statement's pattern.
    result: usize,
}

/// Does one rewrite in `b` (not in nested bodies); whether it did.
fn rewrite_one(b: &mut Body, accs: &HashSet<VName>, names: &mut NameTable) -> bool {
    let mut uses = HashMap::new();
    count_uses(b, &mut uses);
    let Some(c) = (0..b.stms.len()).find_map(|i| candidate(b, i, accs, &uses)) else { return false };
    rewrite(b, c, names);
    true
}

/// The first mapped result of statement `i` that can be rewritten.
fn candidate(b: &Body, i: usize, accs: &HashSet<VName>, uses: &HashMap<VName, usize>) -> Option<Candidate> {
    let stm = &b.stms[i];
    let (w, first) = match &stm.exp {
        Exp::Soac(Soac::Screma { w, scans, reduces, .. }) if scans.is_empty() && reduces.is_empty() => (w, 0),
        Exp::Soac(Soac::WithAcc { w, accs: a, .. }) => (w, a.len()),
        _ => return None,
    };
    let map_free = free_vars_exp(&stm.exp);
    for (result, p) in stm.pat.iter().enumerate().skip(first) {
        if uses.get(&p.name) != Some(&1) {
            continue;
        }
        let Some(update) = (i + 1..b.stms.len()).find(|&u| free_vars_exp(&b.stms[u].exp).contains(&p.name)) else {
            continue;
        };
        let u = &b.stms[update];
        let Exp::UpdAcc { acc, slice, value: SubExp::Var(v), .. } = &u.exp else { continue };
        if *v != p.name || !accs.contains(acc) || map_free.contains(acc) || u.pat.len() != 1 {
            continue;
        }
        let Type::Array { shape: acc_shape, .. } = &u.pat[0].ty else { continue };
        let Type::Array { shape: xs_shape, .. } = &p.ty else { continue };
        let fixed: Option<Vec<SubExp>> = slice
            .iter()
            .map(|d| match d {
                DimIndex::Fix(x) => Some(*x),
                DimIndex::Slice { .. } => None,
            })
            .collect();
        let Some(fixed) = fixed else { continue };
        if xs_shape.first() != Some(w) || acc_shape.get(fixed.len()..) != Some(&xs_shape[..]) {
            continue;
        }
        // The indices and the accumulator are bound before the map, and
        // nothing between the map and the update uses the accumulator.
        let mut needed: HashSet<VName> = fixed.iter().filter_map(|x| x.as_var()).collect();
        needed.insert(*acc);
        let between = &b.stms[i + 1..update];
        let bound_between = between.iter().flat_map(|s| s.pat.iter()).any(|p| needed.contains(&p.name));
        let acc_used_between = between.iter().any(|s| free_vars_exp(&s.exp).contains(acc));
        if bound_between || acc_used_between || stm.pat.iter().any(|p| needed.contains(&p.name)) {
            continue;
        }
        return Some(Candidate { map: i, update, result });
    }
    None
}

/// Makes the map statement of `c` a `withacc` with the update's
/// accumulator as its last accumulator, and removes the update.
fn rewrite(b: &mut Body, c: Candidate, names: &mut NameTable) {
    let update = b.stms.remove(c.update);
    let Exp::UpdAcc { acc, slice, op, .. } = update.exp else { unreachable!("candidate checked an updacc") };
    let stm = &mut b.stms[c.map];
    let exp = std::mem::replace(&mut stm.exp, Exp::SubExp(SubExp::Const(PrimValue::I64(0))));
    let (w, arrs, mut old_accs, mut map) = match exp {
        Exp::Soac(Soac::Screma { w, arrs, map, .. }) => (w, arrs, Vec::new(), map),
        Exp::Soac(Soac::WithAcc { w, arrs, accs, map }) => (w, arrs, accs, map),
        _ => unreachable!("candidate checked a map or withacc"),
    };
    let n = old_accs.len();
    let acc_ty = update.pat[0].ty.clone();
    // The new accumulator parameter, after the old ones; the row index,
    // after the rows.
    let base = names.base(acc).to_string();
    let acc_param = Param { name: names.fresh(&base), ty: acc_ty.clone() };
    let j = Param { name: names.fresh("j"), ty: Type::Prim(PrimType::I64) };
    map.params.insert(n, acc_param.clone());
    map.params.push(j.clone());
    // The result becomes an update of the accumulator.
    let value = map.body.result.remove(c.result);
    map.ret.remove(c.result);
    let mut slice = slice;
    slice.push(DimIndex::Fix(SubExp::Var(j.name)));
    let updated = Param { name: names.fresh(&base), ty: acc_ty.clone() };
    map.body.stms.push(Stm {
        pat: vec![updated.clone()],
        exp: Exp::UpdAcc { acc: acc_param.name, slice, value, op },
        attrs: StmAttrs::default(),
        span: update.span,
    });
    map.body.result.insert(n, SubExp::Var(updated.name));
    map.ret.insert(n, acc_ty);
    // The statement: the old accumulators' results, the new one's (the
    // update's pattern), then the remaining mapped results.
    let mut pat = std::mem::take(&mut stm.pat);
    pat.remove(c.result);
    pat.insert(n, update.pat[0].clone());
    stm.pat = pat;
    old_accs.push(acc);
    let index = names.fresh("iota");
    let mut arrs = arrs;
    arrs.push(index);
    stm.exp = Exp::Soac(Soac::WithAcc { w, arrs, accs: old_accs, map });
    stm.attrs = StmAttrs::default();
    let iota = Stm {
        pat: vec![Param { name: index, ty: Type::Prim(PrimType::I64).array_of(w) }],
        exp: Exp::Iota { n: w, start: SubExp::i64(0), step: SubExp::i64(1), elem: PrimType::I64 },
        attrs: StmAttrs::default(),
        span: update.span,
    };
    b.stms.insert(c.map, iota);
}
