//! The layout decisions the backends follow (see `ogham_ir::layout`):
//! marks `#[virtual]` the one-dimensional `iota`s and scalar `replicate`s
//! that only SOACs of their body read, and `#[interchange]` the maps of a
//! reduction whose loops the backend runs interchanged, when that makes
//! the innermost loop walk memory with unit stride (the reduction's rows
//! come from a transposed array, as matmul's columns do). The marks are
//! recomputed from scratch, so the pass may run again after any other;
//! it runs last in the default pipeline, since a later pass could add a
//! use that a virtual array does not allow (the verifier would say so).

use ogham_ir::layout::{interchange_inner, virtual_candidates};
use ogham_ir::visit::{lambdas, nested_bodies_mut};
use ogham_ir::{Body, Exp, Program, Soac, Stm, VName};
use rustc_hash::FxHashSet as HashSet;

/// Sets the layout attributes of every statement of the program.
pub fn layout_program(prog: &mut Program) {
    // Every constant is kept (the backends store them all), so each counts
    // as used by the constants' body.
    let result = prog.const_params().map(|p| p.name.into()).collect();
    let mut consts = Body { stms: std::mem::take(&mut prog.consts), result };
    let mut columns = HashSet::default();
    column_major(&consts, &mut columns);
    layout_body(&mut consts, &columns);
    prog.consts = consts.stms;
    for f in &mut prog.funs {
        let mut columns = columns.clone();
        column_major(&f.body, &mut columns);
        layout_body(&mut f.body, &columns);
    }
}

/// The arrays of `body` (at any depth) whose rows are columns in memory:
/// `rearrange`s whose first dimension is the innermost one of the array
/// they view, which the backends store row-major, so that walking down
/// their first dimension is unit-stride. (Variable names are unique in a
/// program, so one set serves every scope.)
fn column_major(body: &Body, out: &mut HashSet<VName>) {
    for stm in &body.stms {
        if let (Exp::Rearrange { perm, .. }, [p]) = (&stm.exp, stm.pat.as_slice()) {
            if perm.first() == Some(&(perm.len() - 1)) && perm.len() > 1 {
                out.insert(p.name);
            }
        }
        for b in ogham_ir::visit::bodies(&stm.exp) {
            column_major(b, out);
        }
        for l in lambdas(&stm.exp) {
            column_major(&l.body, out);
        }
    }
}

/// Whether interchanging the loops of `stm` (already known to be allowed)
/// makes its innermost loop unit-stride: every array whose rows the
/// reduction reads is column-major. For a map over the rows of an ordinary
/// array (row sums, a matrix–vector product) the written order is the
/// unit-stride one, and interchanging would walk across rows.
fn interchange_pays(stm: &Stm, columns: &HashSet<VName>) -> bool {
    let (Exp::Soac(Soac::Screma { arrs, map, .. }), Some(inner)) = (&stm.exp, interchange_inner(stm)) else {
        return false;
    };
    let Exp::Soac(Soac::Screma { arrs: inner_arrs, .. }) = &inner.exp else { return false };
    let mut rows_read = map.params.iter().zip(arrs).filter(|(p, _)| inner_arrs.contains(&p.name)).peekable();
    rows_read.peek().is_some() && rows_read.all(|(_, a)| columns.contains(a))
}

fn layout_body(body: &mut Body, columns: &HashSet<VName>) {
    for stm in &mut body.stms {
        for b in nested_bodies_mut(&mut stm.exp) {
            layout_body(b, columns);
        }
        stm.attrs.interchange = interchange_pays(stm, columns);
        stm.attrs.virtual_ = false;
    }
    let virtual_ = virtual_candidates(body);
    for stm in &mut body.stms {
        if stm.pat.first().is_some_and(|p| virtual_.contains(&p.name)) {
            stm.attrs.virtual_ = true;
        }
    }
}
