//! Copies of a row taken only because the array is updated before the
//! row is read: the update moves after the reads, and the copy goes.
//!
//! Reverse mode's rule for `y = a with [i] = x` reads the row of `y`'s
//! adjoint, copies it, and clears the row (`ā = ȳ with [i] = 0`) before
//! the return sweep of the statements before it reads the copy:
//!
//! ```text
//! let part = index ybar[i]
//! let copied = copy(part)
//! let cleared = update ybar[i] = zeros
//! … (nothing reads cleared)
//! let r = map(…, copied, …)
//! ```
//!
//! becomes
//!
//! ```text
//! let part = index ybar[i]
//! …
//! let r = map(…, part, …)
//! let cleared = update ybar[i] = zeros
//! ```
//!
//! The D-LSTM's return sweep did this twice per layer and step (the
//! adjoints of the hidden and cell states): an allocation and two copies
//! of a row each time, where the row can be read where it is.
//!
//! The rewrite applies when the copy is of a view `index a[…]` bound in the
//! same body, the first statement after the copy that consumes `a` is an
//! update of `a` at the very same indices (which therefore cannot fail:
//! the view's indexing succeeded), that update is not itself a reader of
//! the copy, no statement between it and the copy's last reader uses the
//! update's result, and every reader only reads the copy: no update, loop
//! parameter, call, branch or view of it, and it is not a result of the
//! body. Moved after the last reader, the update still runs before anything
//! reads what it returns, and the readers see the row before it, as they
//! saw the copy.

use ogham_ir::visit::{consumed_deep, free_vars_body, free_vars_exp, nested_bodies_mut, rename_uses};
use ogham_ir::{Body, Exp, Program, VName};

/// Rewrites every function of the program (see the module documentation).
pub fn copyelide_program(prog: &mut Program) {
    for f in &mut prog.funs {
        body(&mut f.body);
    }
}

fn body(b: &mut Body) {
    for s in &mut b.stms {
        for nb in nested_bodies_mut(&mut s.exp) {
            body(nb);
        }
    }
    while elide_one(b) {}
}

/// Whether a statement computing `exp` only reads the array `c`: as an
/// input or a free variable of a SOAC that does not consume it, or indexed
/// to a scalar (`rank0`: the statement's results are scalars).
fn only_reads(exp: &Exp, rank0: bool, c: VName) -> bool {
    if consumed_deep(exp).contains(&c) {
        return false;
    }
    match exp {
        Exp::Soac(_) => true,
        Exp::Index { array, .. } if *array == c => rank0,
        // Loops, branches, calls, views and anything else may keep it.
        _ => false,
    }
}

/// Elides one copy of the body (see the module documentation); whether it
/// found one.
fn elide_one(b: &mut Body) -> bool {
    let frees: Vec<_> = b.stms.iter().map(|s| free_vars_exp(&s.exp)).collect();
    let results = free_vars_body(&Body { stms: Vec::new(), result: b.result.clone() });
    for c_at in 0..b.stms.len() {
        let Exp::Copy(v) = b.stms[c_at].exp else { continue };
        let c = b.stms[c_at].pat[0].name;
        if results.contains(&c) {
            continue;
        }
        let Some(v_at) = b.stms[..c_at].iter().position(|s| s.pat.iter().any(|p| p.name == v)) else { continue };
        let Exp::Index { array: a, slice } = &b.stms[v_at].exp else { continue };
        let (a, slice) = (*a, slice.clone());
        let Some(k) = (c_at + 1..b.stms.len()).find(|&i| consumed_deep(&b.stms[i].exp).contains(&a)) else {
            continue;
        };
        if !matches!(&b.stms[k].exp, Exp::Update { array, slice: s, .. } if *array == a && *s == slice) {
            continue;
        }
        let readers: Vec<usize> = (c_at + 1..b.stms.len()).filter(|&i| frees[i].contains(&c)).collect();
        let Some(&last) = readers.last() else { continue };
        let reads_only = readers.iter().all(|&i| {
            let s = &b.stms[i];
            i != k && only_reads(&s.exp, s.pat.iter().all(|p| p.ty.rank() == 0), c)
        });
        let updated = b.stms[k].pat[0].name;
        if !reads_only || (k + 1..=last).any(|i| frees[i].contains(&updated)) {
            continue;
        }
        // Move the update after the last reader, drop the copy, and read
        // the view instead.
        if last > k {
            let upd = b.stms.remove(k);
            b.stms.insert(last, upd);
        }
        b.stms.remove(c_at);
        rename_uses(b, &|u| (u == c).then_some(v));
        return true;
    }
    false
}
