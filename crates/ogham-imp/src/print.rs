//! The text form of kernels (grammar by example in the crate documentation).
//!
//! Scalar operations are written as in the core IR (`add.f32 a b`,
//! `convert.i32.f64 x`, constants in Futhark's value syntax), so the two
//! text forms read alike; [`crate::parse`] reads this one back exactly.

use std::fmt::Write;

use ogham_ir::print::{binop_name, cmpop_name, convop_name, ternop_name, unop_name};

use crate::{Block, Exp, Kernel, Operand, ParamKind, Stm, Ty};

/// Prints a kernel.
pub fn kernel(k: &Kernel) -> String {
    let mut out = String::new();
    let params: Vec<String> = k
        .params
        .iter()
        .map(|p| {
            let kind = match p.kind {
                ParamKind::Value => "",
                ParamKind::Stride => "stride ",
                ParamKind::InOut => "inout ",
                ParamKind::Read => "read ",
                ParamKind::Write => "write ",
            };
            format!("{}: {kind}{}", k.name(p.var), ty(p.ty))
        })
        .collect();
    let _ = writeln!(out, "kernel {}({}) {{", k.name, params.join(", "));
    block(k, &k.body, 1, &mut out);
    out.push_str("}\n");
    out
}

/// Prints several kernels, separated by blank lines.
pub fn kernels(ks: &[Kernel]) -> String {
    ks.iter().map(kernel).collect::<Vec<_>>().join("\n")
}

/// `f32`, or `f32*` for a pointer.
pub fn ty(t: Ty) -> String {
    match t {
        Ty::Prim(t) => t.name().to_string(),
        Ty::Ptr(t) => format!("{}*", t.name()),
    }
}

pub fn operand(k: &Kernel, o: &Operand) -> String {
    match o {
        Operand::Var(v) => k.name(*v),
        Operand::Const(c) => c.to_string(),
    }
}

pub fn exp(k: &Kernel, e: &Exp) -> String {
    let o = |x: &Operand| operand(k, x);
    match e {
        Exp::Operand(a) => o(a),
        Exp::Bin(op, t, a, b) => format!("{}.{t} {} {}", binop_name(*op), o(a), o(b)),
        Exp::Cmp(op, t, a, b) => format!("{}.{t} {} {}", cmpop_name(*op), o(a), o(b)),
        Exp::Un(op, t, a) => format!("{}.{t} {}", unop_name(*op), o(a)),
        Exp::Tern(op, t, a, b, c) => format!("{}.{t} {} {} {}", ternop_name(*op), o(a), o(b), o(c)),
        Exp::Conv(op, from, to, a) => format!("{}.{from}.{to} {}", convop_name(*op), o(a)),
        Exp::Select(c, a, b) => format!("select {} {} {}", o(c), o(a), o(b)),
        Exp::Load(p, i) => format!("load {}[{}]", k.name(*p), o(i)),
    }
}

fn block(k: &Kernel, b: &Block, level: usize, out: &mut String) {
    for s in &b.stms {
        stm(k, s, level, out);
    }
}

fn stm(k: &Kernel, s: &Stm, level: usize, out: &mut String) {
    let pad = "  ".repeat(level);
    let o = |x: &Operand| operand(k, x);
    match s {
        Stm::Let { var, ty, exp: e } => {
            let _ = writeln!(out, "{pad}let {}: {ty} = {}", k.name(*var), exp(k, e));
        }
        Stm::Mut { var, ty, init } => {
            let _ = writeln!(out, "{pad}mut {}: {ty} = {}", k.name(*var), o(init));
        }
        Stm::Set { var, exp: e } => {
            let _ = writeln!(out, "{pad}set {} = {}", k.name(*var), exp(k, e));
        }
        Stm::Accumulate { var, op, ty, value, times } => {
            let times = times.map(|t| format!(" * {}", o(&t))).unwrap_or_default();
            let _ = writeln!(out, "{pad}accumulate {}.{ty} {} {}{times}", binop_name(*op), k.name(*var), o(value));
        }
        Stm::Store { ptr, index, value } => {
            let _ = writeln!(out, "{pad}store {}[{}] = {}", k.name(*ptr), o(index), o(value));
        }
        Stm::Atomic { ptr, index, old, body, new } => {
            let _ = writeln!(out, "{pad}atomic {}[{}] ({}) {{", k.name(*ptr), o(index), k.name(*old));
            block(k, body, level + 1, out);
            let _ = writeln!(out, "{pad}}} = {}", o(new));
        }
        Stm::Prefetch { ptr, index } => {
            let _ = writeln!(out, "{pad}prefetch {}[{}]", k.name(*ptr), o(index));
        }
        Stm::Array { var, elem, len } => {
            let _ = writeln!(out, "{pad}array {}: [{len}]{elem}", k.name(*var));
        }
        Stm::Alloc { var, elem, len } => {
            let _ = writeln!(out, "{pad}alloc {}: [{}]{elem}", k.name(*var), o(len));
        }
        Stm::Free { var } => {
            let _ = writeln!(out, "{pad}free {}", k.name(*var));
        }
        Stm::For { index, lo, hi, ivdep, body } => {
            let attr = if *ivdep { "#[ivdep] " } else { "" };
            let _ = writeln!(out, "{pad}{attr}for {} in {} .. {} {{", k.name(*index), o(lo), o(hi));
            block(k, body, level + 1, out);
            let _ = writeln!(out, "{pad}}}");
        }
        Stm::While { cond, body } => {
            let _ = writeln!(out, "{pad}while {} {{", k.name(*cond));
            block(k, body, level + 1, out);
            let _ = writeln!(out, "{pad}}}");
        }
        Stm::If { cond, then_block, else_block } => {
            let _ = writeln!(out, "{pad}if {} {{", o(cond));
            block(k, then_block, level + 1, out);
            let _ = writeln!(out, "{pad}}} else {{");
            block(k, else_block, level + 1, out);
            let _ = writeln!(out, "{pad}}}");
        }
    }
}
