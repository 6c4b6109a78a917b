//! Maximal fission: seed 000's A_iNF normal form on the core IR.
//!
//! A plain `map` whose lambda has several statements becomes one `map` per
//! statement, all over the same width `w` (the loop context a statement
//! had is the `map` that now binds it): each reads the rows of the original
//! inputs and of the arrays the earlier ones produced that it uses, and
//! produces one array per variable it binds. So
//!
//! ```text
//! map (\x -> let a = f x  let b = g a  let c = h x  in (b, c)) xs
//! ```
//!
//! becomes `A = map f xs`, `B = map g A`, `C = map h xs`, with `B` and `C`
//! named as the original statement's results. In this form every statement
//! sits alone in its loop, so the passes that follow treat computations of
//! different loops alike: CSE merges equal `map`s (their lambdas compared
//! up to renaming), LICM turns a statement that reads no row into a value
//! computed once, and DCE removes a statement whose array nothing reads.
//! Fusion (`fuse.rs`) then merges the loops again, as far as the data
//! dependencies allow; a statement whose array several loops read is fused
//! into the first of them, which also returns it.
//!
//! A `map` is split only when every statement can stand alone: scalar
//! operations, indexing, calls, conditionals, loops and nested SOACs, whose
//! results have sizes that do not depend on the row (a regular array), and
//! which consume nothing they do not create (no row or array of the lambda
//! is passed to a call or given to a loop, which may consume it), and no
//! assertions. Its results must
//! be distinct variables bound by its statements (each becomes one of the
//! split `map`s' arrays, fresh as the original results were). Other `map`s
//! are left as they are; nested bodies are split first.

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;

use crate::fuse::may_consume;
use crate::inline::fresh_like;
use ogham_ir::visit::{consumed_deep, free_vars_exp, nested_bodies_mut, rename_uses, type_vars};
use ogham_ir::{Body, Exp, Lambda, NameTable, Param, Program, Soac, Stm, SubExp, Type, VName};

/// Splits every splittable `map` of the program (see the module doc).
pub fn fission_program(prog: &mut Program) {
    crate::on_consts(prog, fission_body);
    for f in &mut prog.funs {
        fission_body(&mut f.body, &mut prog.names);
    }
}

fn fission_body(body: &mut Body, names: &mut NameTable) {
    let mut out = Vec::with_capacity(body.stms.len());
    for mut stm in std::mem::take(&mut body.stms) {
        for b in nested_bodies_mut(&mut stm.exp) {
            fission_body(b, names);
        }
        match split(&stm, names) {
            Some(stms) => out.extend(stms),
            None => out.push(stm),
        }
    }
    body.stms = out;
}

/// Whether a statement of a `map`'s lambda may become a `map` of its own:
/// it binds something, every size of its results is known outside the
/// lambda, and it consumes nothing it did not create (an array argument of
/// a call or the initial value of a loop may be consumed).
fn standalone(stm: &Stm, bound: &BTreeSet<VName>, arrays: &BTreeSet<VName>) -> bool {
    let kind =
        !matches!(stm.exp, Exp::Update { .. } | Exp::Assert { .. } | Exp::Certify { .. } | Exp::UserParam { .. });
    let free = free_vars_exp(&stm.exp);
    kind && !stm.pat.is_empty()
        && consumed_deep(&stm.exp).iter().all(|v| !free.contains(v))
        && may_consume(&stm.exp).iter().all(|v| !arrays.contains(v))
        && stm.pat.iter().all(|p| type_vars(&p.ty).all(|v| !bound.contains(&v)))
}

/// The statements that replace `stm`, if it is a splittable `map`.
fn split(stm: &Stm, names: &mut NameTable) -> Option<Vec<Stm>> {
    let Exp::Soac(Soac::Screma { w, arrs, scans, reduces, map }) = &stm.exp else { return None };
    if !scans.is_empty() || !reduces.is_empty() || stm.attrs.sequential || map.body.stms.len() < 2 || arrs.is_empty() {
        return None;
    }
    let lam: &Lambda = map;
    // The variables the lambda binds, and those of them that are arrays.
    let mut bound: BTreeSet<VName> = lam.params.iter().map(|p| p.name).collect();
    let mut arrays: BTreeSet<VName> = lam.params.iter().filter(|p| p.ty.rank() > 0).map(|p| p.name).collect();
    for s in &lam.body.stms {
        bound.extend(s.pat.iter().map(|p| p.name));
        arrays.extend(s.pat.iter().filter(|p| p.ty.rank() > 0).map(|p| p.name));
    }
    if !lam.body.stms.iter().all(|s| standalone(s, &bound, &arrays)) {
        return None;
    }
    // The results: distinct variables bound by statements.
    let mut result_of: HashMap<VName, usize> = HashMap::default();
    for (j, r) in lam.body.result.iter().enumerate() {
        match r {
            SubExp::Var(v) if !lam.params.iter().any(|p| p.name == *v) && bound.contains(v) => {
                if result_of.insert(*v, j).is_some() {
                    return None;
                }
            }
            _ => return None,
        }
    }
    if result_of.len() != stm.pat.len() {
        return None;
    }
    // Where each lambda variable's values are, as an array over `w`.
    // (the array, and the type of its rows).
    let mut array_of: HashMap<VName, (VName, Type)> = HashMap::default();
    for (p, a) in lam.params.iter().zip(arrs) {
        array_of.insert(p.name, (*a, p.ty.clone()));
    }
    let mut out = Vec::with_capacity(lam.body.stms.len());
    for s in &lam.body.stms {
        let uses: Vec<VName> = free_vars_exp(&s.exp).into_iter().filter(|v| bound.contains(v)).collect();
        let mut params = Vec::with_capacity(uses.len().max(1));
        let mut inputs = Vec::with_capacity(uses.len().max(1));
        let mut fresh: HashMap<VName, VName> = HashMap::default();
        for u in &uses {
            let (array, ty) = array_of.get(u)?;
            let name = fresh_like(names, *u);
            fresh.insert(*u, name);
            params.push(Param { name, ty: ty.clone() });
            inputs.push(*array);
        }
        if inputs.is_empty() {
            // A statement that reads no row still runs once per row, as
            // it did; LICM may move it out.
            let first = &lam.params[0];
            params.push(Param { name: fresh_like(names, first.name), ty: first.ty.clone() });
            inputs.push(arrs[0]);
        }
        let mut one = Body { stms: vec![s.clone()], result: s.pat.iter().map(|p| SubExp::Var(p.name)).collect() };
        rename_uses(&mut one, &|v| fresh.get(&v).copied());
        let pat: Vec<Param> = s
            .pat
            .iter()
            .map(|p| match result_of.get(&p.name) {
                Some(&j) => stm.pat[j].clone(),
                None => Param { name: fresh_like(names, p.name), ty: p.ty.array_of(*w) },
            })
            .collect();
        for (p, outer) in s.pat.iter().zip(&pat) {
            array_of.insert(p.name, (outer.name, p.ty.clone()));
        }
        let ret = s.pat.iter().map(|p| p.ty.clone()).collect();
        out.push(Stm {
            pat,
            exp: Exp::Soac(Soac::Screma {
                w: *w,
                arrs: inputs,
                scans: Vec::new(),
                reduces: Vec::new(),
                map: Lambda { params, body: one, ret },
            }),
            attrs: stm.attrs,
            span: stm.span,
        });
    }
    Some(out)
}
