//! Map interchange: a map over points whose every iteration maps over
//! per-component matrices runs the component map outside.
//!
//! A `map` (or `screma`) over `n` rows whose lambda holds a statement
//!
//! ```text
//! let rs = map(k, ys, \y -> g)      -- g reads the outer row x
//! ```
//!
//! reads every element of `ys` once per outer row. When an element of one
//! of the `ys` is a matrix (the array has rank 3 or more: GMM's `Q_k`,
//! 64×64 f64 per component, 800 KB for 25 components, more than a core's
//! level-2 cache), every outer row streams all of them from memory. The
//! statement is taken out of the lambda as
//!
//! ```text
//! let rsT = map(k, ys, \y -> map(n, xs, \x' -> g[x := x']))   -- [k][n]
//! let rsN = rearrange([1, 0], rsT)                           -- [n][k], a view
//! ```
//!
//! and the outer map reads `rsN` as one more input, its row bound to `rs`.
//! Each component's matrix is then read by a whole map over the points:
//! GMM's `map (\x -> α - ½‖Q (x - μ)‖²) xs` per component, which the
//! kernels run in register tiles of points by rows of `Q` (ogham-imp's
//! `tile.rs`). Every element is computed by the same scalar code as before
//! and read in the same order, so results do not change.
//!
//! The component map may also reduce its values (a `screma` with
//! reductions: the log-sum-exp's maximum, fused into it): its function's
//! values all move out, and the reduction stays in the outer lambda as a
//! `screma` over the point's row of the values it reduces. Its results may
//! be vectors (`[k][d]` per point, GMM's `Q_k (x - μ_k)` itself), read back
//! with the permutation `[1, 0, 2]`.
//!
//! The statement moves only when `g` reads nothing the outer lambda binds
//! except the outer map's rows, its reductions are of scalars and its
//! mapped results scalars or vectors, it consumes nothing, and neither map
//! is `sequential`.
//!
//! The pass runs twice. After `ad`, the objective is interchanged; the
//! gradient's forward map over the components is then still inside the
//! return sweep's `withacc` over the points. (Interchanged before `ad`,
//! reverse mode would save every point's `x - μ` per component, n·k·d
//! values, 128 MB for GMM's benchmark, and run the adjoint's `Q_kᵀ v` per
//! point: slower than the form as written, 0.98–1.26 s against 0.72–0.89 s
//! at n = 10 000.) It runs again after `acchoist`, which moves that
//! forward map out of the `withacc` into a map over the points of
//! `accreduce`'s chunk: interchanged there, each `Q_k` is read by the whole
//! chunk from cache instead of all 25 (800 KB) by every point, and the
//! per-point arrays are no larger than those the chunk keeps anyway (GMM's
//! gradient at n = 10 000: 367 → 287 ms sequential, 219 → 146 ms on two
//! threads).

use std::collections::BTreeSet;

use crate::fuse::may_consume;
use crate::inline::fresh_like;
use ogham_ir::visit::{free_vars_exp, free_vars_lambda, nested_bodies_mut, rename_uses};
use ogham_ir::{Body, Exp, Lambda, NameTable, Param, Program, Soac, Stm, StmAttrs, SubExp, Type, VName};

/// Interchanges every such statement of the program (see the module doc).
pub fn interchange_program(prog: &mut Program) {
    crate::on_consts(prog, interchange_body);
    for f in &mut prog.funs {
        interchange_body(&mut f.body, &mut prog.names);
    }
}

fn interchange_body(body: &mut Body, names: &mut NameTable) {
    let mut out = Vec::with_capacity(body.stms.len());
    for mut stm in std::mem::take(&mut body.stms) {
        for b in nested_bodies_mut(&mut stm.exp) {
            interchange_body(b, names);
        }
        // One statement at a time: the outer map may hold several.
        while let Some(before) = interchange(&mut stm, names) {
            out.extend(before);
        }
        out.push(stm);
    }
    body.stms = out;
}

/// Takes one component map out of `outer`'s lambda; the statements to put
/// before `outer`.
fn interchange(outer: &mut Stm, names: &mut NameTable) -> Option<Vec<Stm>> {
    if outer.attrs.sequential {
        return None;
    }
    let Exp::Soac(Soac::Screma { w: n, arrs: xs, map: lam, .. }) = &outer.exp else { return None };
    let at = lam.body.stms.iter().position(|s| movable(s, lam))?;
    let (n, xs) = (*n, xs.clone());
    let Exp::Soac(Soac::Screma { arrs: outer_arrs, map: lam, .. }) = &mut outer.exp else { return None };
    let inner = lam.body.stms.remove(at);
    let Exp::Soac(Soac::Screma { w: k, arrs: ys, reduces, map: mut g, .. }) = inner.exp else { return None };
    // The reductions' operands come first among `g`'s results.
    let n_red: usize = reduces.iter().map(|op| op.neutral.len()).sum();
    // The outer rows `g` reads become the new inner map's parameters.
    let used = free_vars_lambda(&g);
    let mut params = Vec::new();
    let mut inputs = Vec::new();
    let mut renames = Vec::new();
    for (p, x) in lam.params.iter().zip(&xs) {
        if used.contains(&p.name) {
            let fresh = fresh_like(names, p.name);
            params.push(Param { name: fresh, ty: p.ty.clone() });
            inputs.push(*x);
            renames.push((p.name, fresh));
        }
    }
    rename_uses(&mut g.body, &|v| renames.iter().find(|(a, _)| *a == v).map(|(_, b)| *b));
    let elems: Vec<Type> = g.ret.clone();
    let by_point = Lambda { params, ret: elems.clone(), body: g.body };
    let inner_map =
        Exp::Soac(Soac::Screma { w: n, arrs: inputs, scans: Vec::new(), reduces: Vec::new(), map: by_point });
    let mut by_component_body = Body { stms: Vec::new(), result: Vec::new() };
    let mut by_point_pat = Vec::new();
    for (r, t) in inner.pat.iter().zip(&elems) {
        let v = fresh_like(names, r.name);
        by_point_pat.push(Param { name: v, ty: t.array_of(n) });
        by_component_body.result.push(SubExp::Var(v));
    }
    by_component_body.stms.push(Stm {
        pat: by_point_pat,
        exp: inner_map,
        attrs: StmAttrs::default(),
        span: inner.span,
    });
    let by_component =
        Lambda { params: g.params, ret: elems.iter().map(|t| t.array_of(n)).collect(), body: by_component_body };
    let mut before = Vec::new();
    let mut transposed_pat = Vec::new();
    for (r, t) in inner.pat.iter().zip(&elems) {
        let v = fresh_like(names, r.name);
        transposed_pat.push(Param { name: v, ty: t.array_of(n).array_of(k) });
    }
    before.push(Stm {
        pat: transposed_pat.clone(),
        exp: Exp::Soac(Soac::Screma { w: k, arrs: ys, scans: Vec::new(), reduces: Vec::new(), map: by_component }),
        attrs: StmAttrs::default(),
        span: inner.span,
    });
    // Each point's row of results, an input of the outer map bound to the
    // names the statement bound; a reduction's operands are bound to fresh
    // names, which the reduction, left in the outer map, reads.
    let mut red_params = Vec::new();
    for (i, ((r, tp), t)) in inner.pat.iter().zip(&transposed_pat).zip(&elems).enumerate() {
        let v = fresh_like(names, r.name);
        let ty = t.array_of(k).array_of(n);
        let perm = [vec![1, 0], (2..tp.ty.rank()).collect()].concat();
        before.push(Stm {
            pat: vec![Param { name: v, ty }],
            exp: Exp::Rearrange { array: tp.name, perm },
            attrs: StmAttrs::default(),
            span: inner.span,
        });
        outer_arrs.push(v);
        if i < n_red {
            let p = Param { name: fresh_like(names, r.name), ty: t.array_of(k) };
            red_params.push(p.clone());
            lam.params.push(p);
        } else {
            lam.params.push(r.clone());
        }
    }
    if n_red > 0 {
        let cells: Vec<Param> =
            red_params.iter().map(|p| Param { name: fresh_like(names, p.name), ty: Type::Prim(p.ty.elem()) }).collect();
        let identity = Lambda {
            ret: cells.iter().map(|c| c.ty.clone()).collect(),
            body: Body { stms: Vec::new(), result: cells.iter().map(|c| SubExp::Var(c.name)).collect() },
            params: cells,
        };
        lam.body.stms.insert(
            at,
            Stm {
                pat: inner.pat[..n_red].to_vec(),
                exp: Exp::Soac(Soac::Screma {
                    w: k,
                    arrs: red_params.iter().map(|p| p.name).collect(),
                    scans: Vec::new(),
                    reduces,
                    map: identity,
                }),
                attrs: StmAttrs::default(),
                span: inner.span,
            },
        );
    }
    Some(before)
}

/// Whether `s`, a statement of the outer map's lambda `lam`, is a component
/// map to take out (see the module documentation).
fn movable(s: &Stm, lam: &Lambda) -> bool {
    let Exp::Soac(Soac::Screma { arrs: ys, scans, reduces, map: g, .. }) = &s.exp else { return false };
    if !scans.is_empty() || s.attrs.sequential || !may_consume(&s.exp).is_empty() {
        return false;
    }
    // Scalar reductions, and maps of scalars or of vectors.
    let n_red: usize = reduces.iter().map(|op| op.neutral.len()).sum();
    let shapes_fit = s.pat.iter().zip(&g.ret).enumerate().all(|(i, (p, t))| {
        if i < n_red {
            t.rank() == 0
        } else {
            t.rank() <= 1 && p.ty.rank() == t.rank() + 1
        }
    });
    if !shapes_fit {
        return false;
    }
    // Bound in the outer lambda: its rows, and what its statements bind.
    let rows: BTreeSet<VName> = lam.params.iter().map(|p| p.name).collect();
    let mut bound: BTreeSet<VName> = BTreeSet::new();
    for t in &lam.body.stms {
        bound.extend(t.pat.iter().map(|p| p.name));
    }
    let free = free_vars_exp(&s.exp);
    if free.iter().any(|v| bound.contains(v)) || !free.iter().any(|v| rows.contains(v)) {
        return false;
    }
    // Its inputs come from outside, and one of them is a matrix per component.
    ys.iter().all(|y| !rows.contains(y) && !bound.contains(y)) && g.params.iter().any(|p| p.ty.rank() >= 2)
}
