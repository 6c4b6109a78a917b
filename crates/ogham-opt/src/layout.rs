//! The layout decisions the backends follow (see `ogham_ir::layout`):
//! marks `#[virtual]` the one-dimensional `iota`s and scalar `replicate`s
//! that only SOACs of their body read, and `#[interchange]` the maps of a
//! reduction whose loops the backend runs interchanged. The marks are
//! recomputed from scratch, so the pass may run again after any other;
//! it runs last in the default pipeline, since a later pass could add a
//! use that a virtual array does not allow (the verifier would say so).

use ogham_ir::layout::{interchange_inner, virtual_candidates};
use ogham_ir::visit::nested_bodies_mut;
use ogham_ir::{Body, Program};

/// Sets the layout attributes of every statement of the program.
pub fn layout_program(prog: &mut Program) {
    // Every constant is kept (the backends store them all), so each counts
    // as used by the constants' body.
    let result = prog.const_params().map(|p| p.name.into()).collect();
    let mut consts = Body { stms: std::mem::take(&mut prog.consts), result };
    layout_body(&mut consts);
    prog.consts = consts.stms;
    for f in &mut prog.funs {
        layout_body(&mut f.body);
    }
}

fn layout_body(body: &mut Body) {
    for stm in &mut body.stms {
        for b in nested_bodies_mut(&mut stm.exp) {
            layout_body(b);
        }
        stm.attrs.interchange = interchange_inner(stm).is_some();
        stm.attrs.virtual_ = false;
    }
    let virtual_ = virtual_candidates(body);
    for stm in &mut body.stms {
        if stm.pat.first().is_some_and(|p| virtual_.contains(&p.name)) {
            stm.attrs.virtual_ = true;
        }
    }
}
