//! Tuning parameters (`#[param(name)] e`, [`Exp::UserParam`]): which ones a
//! program has and which ones each entry point can reach. The generated C
//! numbers them in name order (`og_tuning_names`); executables set them
//! with `--param` and `--tuning`, servers with `set_tuning_param`,
//! libraries through the context configuration.

use std::collections::BTreeSet;

use ogham_ir::visit::{bodies, lambdas};
use ogham_ir::{Body, Exp, FunDef, Program};

fn walk(body: &Body, params: &mut BTreeSet<String>, calls: &mut BTreeSet<String>) {
    for stm in &body.stms {
        match &stm.exp {
            Exp::UserParam { name, .. } => {
                params.insert(name.clone());
            }
            Exp::Apply { func, .. } => {
                calls.insert(func.clone());
            }
            _ => {}
        }
        for b in bodies(&stm.exp) {
            walk(b, params, calls);
        }
        for l in lambdas(&stm.exp) {
            walk(&l.body, params, calls);
        }
    }
}

/// Every tuning parameter of the program, sorted by name.
pub fn all(prog: &Program) -> Vec<String> {
    let mut params = BTreeSet::new();
    let mut calls = BTreeSet::new();
    for f in &prog.funs {
        walk(&f.body, &mut params, &mut calls);
    }
    params.into_iter().collect()
}

/// The tuning parameters `f` or any function it calls uses, sorted by name.
pub fn reachable(prog: &Program, f: &FunDef) -> Vec<String> {
    let mut params = BTreeSet::new();
    let mut seen: BTreeSet<String> = BTreeSet::from([f.name.clone()]);
    let mut todo = vec![f];
    while let Some(g) = todo.pop() {
        let mut calls = BTreeSet::new();
        walk(&g.body, &mut params, &mut calls);
        for c in calls {
            if let (true, Some(h)) = (!seen.contains(&c), prog.fun(&c)) {
                seen.insert(c);
                todo.push(h);
            }
        }
    }
    params.into_iter().collect()
}
