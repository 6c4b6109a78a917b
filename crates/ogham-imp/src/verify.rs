//! The kernel verifier: checks the invariants listed in the crate
//! documentation, so that a pass that breaks one is caught where it runs
//! rather than as wrong C.

use std::collections::HashMap;

use ogham_ir::{BinOp, ConvOp, PrimType};

use crate::{exp_type, reassociable, Block, Exp, Kernel, Operand, ParamKind, Stm, Ty, Var};

/// Checks a kernel; the error lists every violation found, one per line.
pub fn kernel(k: &Kernel) -> Result<(), String> {
    let mut v = Verifier { k, scope: Vec::new(), bound: HashMap::new(), allocs: Vec::new(), errors: Vec::new() };
    for p in &k.params {
        let assignable = p.kind == ParamKind::InOut;
        let writable = p.kind == ParamKind::Write;
        match (p.ty, p.kind) {
            (Ty::Prim(_), ParamKind::Value | ParamKind::Stride | ParamKind::InOut)
            | (Ty::Ptr(_), ParamKind::Read | ParamKind::Write) => {}
            (t, kind) => {
                v.err(format!("parameter {} of type {} cannot be {kind:?}", k.name(p.var), crate::print::ty(t)))
            }
        }
        if p.kind == ParamKind::Stride && p.ty != Ty::Prim(PrimType::I64) {
            v.err(format!("stride parameter {} is not i64", k.name(p.var)));
        }
        v.bind(p.var, Binding { ty: p.ty, assignable, writable });
    }
    v.block(&k.body);
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(format!("kernel {}:\n{}", k.name, v.errors.join("\n")))
    }
}

#[derive(Clone, Copy)]
struct Binding {
    ty: Ty,
    /// A `mut` variable or an `inout` parameter.
    assignable: bool,
    /// A `write` pointer or a local array.
    writable: bool,
}

struct Verifier<'a> {
    k: &'a Kernel,
    /// The variables in scope, innermost block last.
    scope: Vec<Vec<Var>>,
    /// Every variable bound so far in the kernel, and whether it is in scope.
    bound: HashMap<Var, (Binding, bool)>,
    /// Per open block, the `alloc`s not freed yet.
    allocs: Vec<Vec<Var>>,
    errors: Vec<String>,
}

impl Verifier<'_> {
    fn err(&mut self, e: String) {
        self.errors.push(e);
    }

    fn name(&self, v: Var) -> String {
        self.k.name(v)
    }

    fn bind(&mut self, var: Var, b: Binding) {
        if var.0 as usize >= self.k.names.len() {
            self.err(format!("variable number {} has no entry in the kernel's names", var.0));
        }
        if self.bound.insert(var, (b, true)).is_some() {
            self.err(format!("{} is bound twice", self.name(var)));
        }
        if let Some(s) = self.scope.last_mut() {
            s.push(var);
        }
    }

    fn lookup(&mut self, v: Var, what: &str) -> Option<Binding> {
        match self.bound.get(&v) {
            Some((b, true)) => Some(*b),
            Some((_, false)) => {
                self.err(format!("{} used in {what} out of its scope", self.name(v)));
                None
            }
            None => {
                self.err(format!("{} used in {what} but never bound", self.name(v)));
                None
            }
        }
    }

    fn operand(&mut self, o: &Operand, what: &str) -> Option<PrimType> {
        match o {
            Operand::Const(c) => Some(c.prim_type()),
            Operand::Var(v) => match self.lookup(*v, what)?.ty {
                Ty::Prim(t) => Some(t),
                Ty::Ptr(_) => {
                    self.err(format!("pointer {} used as a scalar in {what}", self.name(*v)));
                    None
                }
            },
        }
    }

    fn expect(&mut self, o: &Operand, t: PrimType, what: &str) {
        if let Some(got) = self.operand(o, what) {
            if got != t {
                self.err(format!("{what}: operand {} is {got}, expected {t}", crate::print::operand(self.k, o)));
            }
        }
    }

    fn block(&mut self, b: &Block) {
        self.scope.push(Vec::new());
        self.allocs.push(Vec::new());
        for s in &b.stms {
            self.stm(s);
        }
        for v in self.allocs.pop().unwrap_or_default() {
            self.err(format!("{} is allocated and never freed", self.name(v)));
        }
        for v in self.scope.pop().unwrap_or_default() {
            if let Some(e) = self.bound.get_mut(&v) {
                e.1 = false;
            }
        }
    }

    /// Checks an expression and gives its type.
    fn exp(&mut self, e: &Exp, what: &str) -> Option<PrimType> {
        match e {
            Exp::Operand(a) => return self.operand(a, what),
            Exp::Bin(op, t, a, b) => {
                self.expect(a, *t, what);
                self.expect(b, if *op == BinOp::Ldexp { PrimType::I32 } else { *t }, what);
            }
            Exp::Cmp(_, t, a, b) => {
                self.expect(a, *t, what);
                self.expect(b, *t, what);
            }
            Exp::Un(_, t, a) => self.expect(a, *t, what),
            Exp::Tern(_, t, a, b, c) => {
                for x in [a, b, c] {
                    self.expect(x, *t, what);
                }
            }
            Exp::Conv(op, from, to, a) => {
                self.expect(a, *from, what);
                if *op == ConvOp::Bitcast && from.bits() != to.bits() {
                    self.err(format!("{what}: bitcast between {from} and {to}, of different widths"));
                }
            }
            Exp::Select(c, a, b) => {
                self.expect(c, PrimType::Bool, what);
                let ta = self.operand(a, what)?;
                self.expect(b, ta, what);
            }
            Exp::Load(p, i) => {
                self.expect(i, PrimType::I64, what);
                if let Some(b) = self.lookup(*p, what) {
                    if !matches!(b.ty, Ty::Ptr(_)) {
                        self.err(format!("{what}: load from {}, which is not a pointer", self.name(*p)));
                        return None;
                    }
                }
            }
        }
        let bound = &self.bound;
        exp_type(e, |v| bound.get(&v).map(|(b, _)| b.ty))
    }

    fn stm(&mut self, s: &Stm) {
        match s {
            Stm::Let { var, ty, exp } => {
                let what = format!("the definition of {}", self.name(*var));
                if let Some(t) = self.exp(exp, &what) {
                    if t != *ty {
                        self.err(format!("{what}: declared {ty}, computes {t}"));
                    }
                }
                self.bind(*var, Binding { ty: Ty::Prim(*ty), assignable: false, writable: false });
            }
            Stm::Mut { var, ty, init } => {
                let what = format!("the definition of {}", self.name(*var));
                self.expect(init, *ty, &what);
                self.bind(*var, Binding { ty: Ty::Prim(*ty), assignable: true, writable: false });
            }
            Stm::Set { var, exp } => {
                let what = format!("the assignment of {}", self.name(*var));
                let Some(b) = self.lookup(*var, &what) else { return };
                if !b.assignable {
                    self.err(format!("{what}: not a mut variable or inout parameter"));
                }
                if let (Some(t), Ty::Prim(vt)) = (self.exp(exp, &what), b.ty) {
                    if t != vt {
                        self.err(format!("{what}: variable is {vt}, value is {t}"));
                    }
                }
            }
            Stm::Accumulate { var, op, ty, value, times } => {
                let what = format!("the accumulation into {}", self.name(*var));
                if !reassociable(*op, *ty) {
                    self.err(format!(
                        "{what}: {} on {ty} is not an associative operator",
                        ogham_ir::print::binop_name(*op)
                    ));
                }
                self.expect(&Operand::Var(*var), *ty, &what);
                self.expect(value, *ty, &what);
                if let Some(times) = times {
                    if *op != crate::BinOp::Add || !ty.is_float() {
                        self.err(format!("{what}: only a float `add` accumulates a product"));
                    }
                    self.expect(times, *ty, &what);
                }
                if let Some(b) = self.lookup(*var, &what) {
                    if !b.assignable {
                        self.err(format!("{what}: not a mut variable or inout parameter"));
                    }
                }
            }
            Stm::Store { ptr, index, value } => {
                let what = format!("a store into {}", self.name(*ptr));
                self.expect(index, PrimType::I64, &what);
                let Some(b) = self.lookup(*ptr, &what) else { return };
                match b.ty {
                    Ty::Ptr(elem) => self.expect(value, elem, &what),
                    Ty::Prim(_) => self.err(format!("{what}: not a pointer")),
                }
                if !b.writable {
                    self.err(format!("{what}: neither a write pointer nor a local array"));
                }
            }
            Stm::Prefetch { ptr, index } => {
                let what = format!("a prefetch of {}", self.name(*ptr));
                self.expect(index, PrimType::I64, &what);
                if let Some(b) = self.lookup(*ptr, &what) {
                    if !matches!(b.ty, Ty::Ptr(_)) {
                        self.err(format!("{what}: not a pointer"));
                    }
                }
            }
            Stm::Array { var, elem, len } => {
                if *len == 0 {
                    self.err(format!("local array {} has no elements", self.name(*var)));
                }
                self.bind(*var, Binding { ty: Ty::Ptr(*elem), assignable: false, writable: true });
            }
            Stm::Alloc { var, elem, len } => {
                self.expect(len, PrimType::I64, &format!("the length of {}", self.name(*var)));
                self.bind(*var, Binding { ty: Ty::Ptr(*elem), assignable: false, writable: true });
                if let Some(s) = self.allocs.last_mut() {
                    s.push(*var);
                }
            }
            Stm::Free { var } => {
                let what = format!("the release of {}", self.name(*var));
                self.lookup(*var, &what);
                match self.allocs.last_mut().and_then(|s| s.iter().position(|v| v == var).map(|i| (s, i))) {
                    Some((s, i)) => {
                        s.remove(i);
                        if let Some(e) = self.bound.get_mut(var) {
                            e.1 = false;
                        }
                    }
                    None => self.err(format!("{what}: not an alloc of this block still live")),
                }
            }
            Stm::For { index, lo, hi, body, .. } => {
                let what = format!("the bounds of the loop over {}", self.name(*index));
                self.expect(lo, PrimType::I64, &what);
                self.expect(hi, PrimType::I64, &what);
                self.scope.push(Vec::new());
                self.bind(*index, Binding { ty: Ty::Prim(PrimType::I64), assignable: false, writable: false });
                self.block(body);
                for v in self.scope.pop().unwrap_or_default() {
                    if let Some(e) = self.bound.get_mut(&v) {
                        e.1 = false;
                    }
                }
            }
            Stm::While { cond, body } => {
                let what = "the condition of a while loop";
                self.expect(&Operand::Var(*cond), PrimType::Bool, what);
                if self.lookup(*cond, what).is_some_and(|b| !b.assignable) {
                    self.err(format!("{what}: {} is not a mut variable", self.name(*cond)));
                }
                self.block(body);
            }
            Stm::If { cond, then_block, else_block } => {
                self.expect(cond, PrimType::Bool, "the condition of an if");
                self.block(then_block);
                self.block(else_block);
            }
        }
    }
}
