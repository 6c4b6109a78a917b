//! Loops and SOACs of a `withacc`'s function that do not touch its
//! accumulators, run by a `map` before it.
//!
//! Reverse mode puts a map's whole return sweep in one `withacc` (seed 004
//! §4.5), the recomputation of the forward values included. A statement
//! there that reads only the rows and values from outside, a nested loop or
//! SOAC with scalar results, is a map over the rows of its own:
//!
//! ```text
//! withacc(w, xs, accs [a], \acc x -> let i = loop … x … in … updacc acc[i] …)
//! ```
//!
//! becomes
//!
//! ```text
//! let is = map(w, xs, \x -> let i = loop … x … in i)
//! withacc(w, xs, is, accs [a], \acc x i -> … updacc acc[i] …)
//! ```
//!
//! which keeps one scalar per row and lets the backends run that map as
//! what it is: k-means' nearest centre of every point (after [`argmin`]
//! made it one loop) runs in register tiles like the objective's. Only
//! statements whose inputs are rows and values bound outside the
//! `withacc` move, with their used results, one at a time (the first such
//! statement of the body, then again); a statement that reads no row is
//! LICM's.
//!
//! A statement with array results moves too when the `withacc` already
//! returns, per row, an array whose shape begins with each of theirs, so
//! that the new map's arrays are no larger than one the `withacc` makes
//! anyway: GMM's gradient, inside `accreduce`'s chunks of points, keeps
//! each point's `x - μ_k` and `w̄_k` ([K][d] per point), and its forward
//! `Q_k (x - μ_k)` for every component (also [K][d]) moves out, where
//! [`interchange`] then runs the components outside the chunk's points,
//! each `Q_k` read from cache by the whole chunk instead of all of them
//! streamed from memory by every point.
//!
//! [`interchange`]: crate::interchange
//!
//! [`argmin`]: crate::argmin

use crate::inline::fresh_like;
use ogham_ir::visit::{consumed_deep, count_uses, free_vars_exp, nested_bodies_mut, rename_uses};
use ogham_ir::{Body, Exp, Lambda, NameTable, Param, Program, Soac, Stm, SubExp, Type};
use rustc_hash::FxHashMap as HashMap;

/// Rewrites every function of the program (see the module documentation).
pub fn acchoist_program(prog: &mut Program) {
    for f in &mut prog.funs {
        body(&mut f.body, &mut prog.names);
    }
}

fn body(b: &mut Body, names: &mut NameTable) {
    let mut out = Vec::with_capacity(b.stms.len());
    for mut stm in std::mem::take(&mut b.stms) {
        for nb in nested_bodies_mut(&mut stm.exp) {
            body(nb, names);
        }
        while let Some(map) = hoist(&mut stm, names) {
            out.push(map);
        }
        out.push(stm);
    }
    b.stms = out;
}

/// Moves the first statement of a `withacc`'s function that may run before
/// it into a `map`, which it returns.
fn hoist(stm: &mut Stm, names: &mut NameTable) -> Option<Stm> {
    let Exp::Soac(Soac::WithAcc { w, arrs, accs, map }) = &mut stm.exp else { return None };
    let n_accs = accs.len();
    let lam_body = &map.body;
    let bound: Vec<_> = lam_body.stms.iter().flat_map(|s| s.pat.iter().map(|p| p.name)).collect();
    let accs_params: Vec<_> = map.params[..n_accs].iter().map(|p| p.name).collect();
    let rows: Vec<Param> = map.params[n_accs..].to_vec();
    // An array result moves when the withacc already makes an array of
    // rows at least as large (see the module documentation).
    let mapped: Vec<&[SubExp]> = map.ret[n_accs..].iter().map(|t| t.shape()).collect();
    let small = |t: &Type| t.rank() == 0 || mapped.iter().any(|m| m.starts_with(t.shape()));
    let (at, free) = lam_body.stms.iter().enumerate().find_map(|(at, s)| {
        let free = free_vars_exp(&s.exp);
        let movable = matches!(s.exp, Exp::Loop { .. } | Exp::Soac(Soac::Screma { .. }))
            && !s.attrs.sequential
            && s.pat.iter().all(|p| small(&p.ty))
            && free.iter().all(|v| !bound.contains(v) && !accs_params.contains(v))
            && free.iter().any(|v| rows.iter().any(|p| p.name == *v))
            && consumed_deep(&s.exp).is_empty();
        movable.then_some((at, free))
    })?;
    // The results the rest of the function uses.
    let mut uses = HashMap::default();
    count_uses(lam_body, &mut uses);
    let s = &lam_body.stms[at];
    let outs: Vec<Param> = s.pat.iter().filter(|p| uses.contains_key(&p.name)).cloned().collect();
    if outs.is_empty() {
        return None;
    }
    // The map: the rows it reads, as fresh parameters.
    let mut params = Vec::new();
    let mut inputs = Vec::new();
    let mut fresh = HashMap::default();
    for (p, a) in rows.iter().zip(arrs.iter()) {
        if free.contains(&p.name) {
            let name = fresh_like(names, p.name);
            fresh.insert(p.name, name);
            params.push(Param { name, ty: p.ty.clone() });
            inputs.push(*a);
        }
    }
    // The statement binds fresh names in the map; the withacc's new
    // parameters take the names it bound, which the rest of its function uses.
    let mut s = map.body.stms.remove(at);
    let mut renamed = HashMap::default();
    for p in &mut s.pat {
        let name = fresh_like(names, p.name);
        renamed.insert(p.name, name);
        p.name = name;
    }
    let result = outs.iter().map(|p| SubExp::Var(renamed[&p.name])).collect();
    let mut one = Body { stms: vec![s], result };
    rename_uses(&mut one, &|v| fresh.get(&v).copied());
    let pat: Vec<Param> =
        outs.iter().map(|p| Param { name: fresh_like(names, p.name), ty: p.ty.array_of(*w) }).collect();
    // The withacc reads them as rows, under the names the statement bound.
    arrs.extend(pat.iter().map(|p| p.name));
    map.params.extend(outs.iter().cloned());
    let span = one.stms[0].span;
    let ret = outs.iter().map(|p| p.ty.clone()).collect();
    let exp = Exp::Soac(Soac::Screma {
        w: *w,
        arrs: inputs,
        scans: Vec::new(),
        reduces: Vec::new(),
        map: Lambda { params, body: one, ret },
    });
    Some(Stm { pat, exp, attrs: ogham_ir::StmAttrs::default(), span })
}
