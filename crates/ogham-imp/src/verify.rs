//! The kernel verifier: checks the invariants listed in the crate
//! documentation, so that a pass that breaks one is caught where it runs
//! rather than as wrong C.

use ogham_ir::{BinOp, ConvOp, PrimType};

use crate::{exp_type, reassociable, Block, Exp, Kernel, Operand, ParamKind, Stm, Ty, Var};

/// Checks a kernel; the error lists every violation found, one per line.
pub fn kernel(k: &Kernel) -> Result<(), String> {
    let mut v =
        Verifier { k, scope: Vec::new(), bound: vec![None; k.names.len()], allocs: Vec::new(), errors: Vec::new() };
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

/// Where in a kernel an operand is checked, for error messages: kept as
/// data and described only when an error is reported, since the verifier
/// runs after every kernel pass and almost never finds one.
#[derive(Clone, Copy)]
enum Site {
    Def(Var),
    Assign(Var),
    Accumulate(Var),
    Store(Var),
    Atomic(Var),
    Prefetch(Var),
    Length(Var),
    Release(Var),
    LoopBounds(Var),
    WhileCond,
    IfCond,
}

impl Site {
    fn describe(self, k: &Kernel) -> String {
        match self {
            Site::Def(v) => format!("the definition of {}", k.name(v)),
            Site::Assign(v) => format!("the assignment of {}", k.name(v)),
            Site::Accumulate(v) => format!("the accumulation into {}", k.name(v)),
            Site::Store(v) => format!("a store into {}", k.name(v)),
            Site::Atomic(v) => format!("an atomic update of {}", k.name(v)),
            Site::Prefetch(v) => format!("a prefetch of {}", k.name(v)),
            Site::Length(v) => format!("the length of {}", k.name(v)),
            Site::Release(v) => format!("the release of {}", k.name(v)),
            Site::LoopBounds(v) => format!("the bounds of the loop over {}", k.name(v)),
            Site::WhileCond => "the condition of a while loop".to_string(),
            Site::IfCond => "the condition of an if".to_string(),
        }
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
    /// Per variable number, its binding if it was bound so far in the
    /// kernel, and whether it is in scope.
    bound: Vec<Option<(Binding, bool)>>,
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

    fn what(&self, site: Site) -> String {
        site.describe(self.k)
    }

    fn binding(&self, v: Var) -> Option<(Binding, bool)> {
        self.bound.get(v.0 as usize).copied().flatten()
    }

    fn leave(&mut self, v: Var) {
        if let Some(Some(e)) = self.bound.get_mut(v.0 as usize) {
            e.1 = false;
        }
    }

    fn bind(&mut self, var: Var, b: Binding) {
        let i = var.0 as usize;
        if i >= self.k.names.len() {
            self.err(format!("variable number {} has no entry in the kernel's names", var.0));
        }
        if i >= self.bound.len() {
            self.bound.resize(i + 1, None);
        }
        if self.bound[i].replace((b, true)).is_some() {
            self.err(format!("{} is bound twice", self.name(var)));
        }
        if let Some(s) = self.scope.last_mut() {
            s.push(var);
        }
    }

    fn lookup(&mut self, v: Var, site: Site) -> Option<Binding> {
        match self.binding(v) {
            Some((b, true)) => Some(b),
            Some((_, false)) => {
                self.err(format!("{} used in {} out of its scope", self.name(v), self.what(site)));
                None
            }
            None => {
                self.err(format!("{} used in {} but never bound", self.name(v), self.what(site)));
                None
            }
        }
    }

    fn operand(&mut self, o: &Operand, site: Site) -> Option<PrimType> {
        match o {
            Operand::Const(c) => Some(c.prim_type()),
            Operand::Var(v) => match self.lookup(*v, site)?.ty {
                Ty::Prim(t) => Some(t),
                Ty::Ptr(_) => {
                    self.err(format!("pointer {} used as a scalar in {}", self.name(*v), self.what(site)));
                    None
                }
            },
        }
    }

    fn expect(&mut self, o: &Operand, t: PrimType, site: Site) {
        if let Some(got) = self.operand(o, site) {
            if got != t {
                let what = self.what(site);
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
            self.leave(v);
        }
    }

    /// Checks an expression and gives its type.
    fn exp(&mut self, e: &Exp, site: Site) -> Option<PrimType> {
        match e {
            Exp::Operand(a) => return self.operand(a, site),
            Exp::Bin(op, t, a, b) => {
                self.expect(a, *t, site);
                self.expect(b, if *op == BinOp::Ldexp { PrimType::I32 } else { *t }, site);
            }
            Exp::Cmp(_, t, a, b) => {
                self.expect(a, *t, site);
                self.expect(b, *t, site);
            }
            Exp::Un(_, t, a) => self.expect(a, *t, site),
            Exp::Tern(_, t, a, b, c) => {
                for x in [a, b, c] {
                    self.expect(x, *t, site);
                }
            }
            Exp::Conv(op, from, to, a) => {
                self.expect(a, *from, site);
                if *op == ConvOp::Bitcast && from.bits() != to.bits() {
                    let what = self.what(site);
                    self.err(format!("{what}: bitcast between {from} and {to}, of different widths"));
                }
            }
            Exp::Select(c, a, b) => {
                self.expect(c, PrimType::Bool, site);
                let ta = self.operand(a, site)?;
                self.expect(b, ta, site);
            }
            Exp::Load(p, i) => {
                self.expect(i, PrimType::I64, site);
                if let Some(b) = self.lookup(*p, site) {
                    if !matches!(b.ty, Ty::Ptr(_)) {
                        let what = self.what(site);
                        self.err(format!("{what}: load from {}, which is not a pointer", self.name(*p)));
                        return None;
                    }
                }
            }
        }
        exp_type(e, |v| self.binding(v).map(|(b, _)| b.ty))
    }

    fn stm(&mut self, s: &Stm) {
        match s {
            Stm::Let { var, ty, exp } => {
                let site = Site::Def(*var);
                if let Some(t) = self.exp(exp, site) {
                    if t != *ty {
                        self.err(format!("{}: declared {ty}, computes {t}", self.what(site)));
                    }
                }
                self.bind(*var, Binding { ty: Ty::Prim(*ty), assignable: false, writable: false });
            }
            Stm::Mut { var, ty, init } => {
                self.expect(init, *ty, Site::Def(*var));
                self.bind(*var, Binding { ty: Ty::Prim(*ty), assignable: true, writable: false });
            }
            Stm::Set { var, exp } => {
                let site = Site::Assign(*var);
                let Some(b) = self.lookup(*var, site) else { return };
                if !b.assignable {
                    self.err(format!("{}: not a mut variable or inout parameter", self.what(site)));
                }
                if let (Some(t), Ty::Prim(vt)) = (self.exp(exp, site), b.ty) {
                    if t != vt {
                        self.err(format!("{}: variable is {vt}, value is {t}", self.what(site)));
                    }
                }
            }
            Stm::Accumulate { var, op, ty, value, times } => {
                let site = Site::Accumulate(*var);
                if !reassociable(*op, *ty) {
                    self.err(format!(
                        "{}: {} on {ty} is not an associative operator",
                        self.what(site),
                        ogham_ir::print::binop_name(*op)
                    ));
                }
                self.expect(&Operand::Var(*var), *ty, site);
                self.expect(value, *ty, site);
                if let Some(times) = times {
                    if *op != crate::BinOp::Add || !ty.is_float() {
                        self.err(format!("{}: only a float `add` accumulates a product", self.what(site)));
                    }
                    self.expect(times, *ty, site);
                }
                if let Some(b) = self.lookup(*var, site) {
                    if !b.assignable {
                        self.err(format!("{}: not a mut variable or inout parameter", self.what(site)));
                    }
                }
            }
            Stm::Store { ptr, index, value } => {
                let site = Site::Store(*ptr);
                self.expect(index, PrimType::I64, site);
                let Some(b) = self.lookup(*ptr, site) else { return };
                match b.ty {
                    Ty::Ptr(elem) => self.expect(value, elem, site),
                    Ty::Prim(_) => self.err(format!("{}: not a pointer", self.what(site))),
                }
                if !b.writable {
                    self.err(format!("{}: neither a write pointer nor a local array", self.what(site)));
                }
            }
            Stm::Atomic { ptr, index, old, body, new } => {
                let site = Site::Atomic(*ptr);
                self.expect(index, PrimType::I64, site);
                let Some(b) = self.lookup(*ptr, site) else { return };
                let Ty::Ptr(elem) = b.ty else {
                    return self.err(format!("{}: not a pointer", self.what(site)));
                };
                let writable = self.k.params.iter().any(|p| p.var == *ptr && p.kind == ParamKind::Write);
                if !writable {
                    self.err(format!("{}: not a write pointer", self.what(site)));
                }
                // The body: `let`s of arithmetic, in a scope of its own
                // where `old` is bound, and `new` read at its end.
                self.scope.push(Vec::new());
                self.bind(*old, Binding { ty: Ty::Prim(elem), assignable: false, writable: false });
                if !body.computes_only() {
                    let what = self.what(site);
                    self.err(format!(
                        "{what}: its body does more than compute (a load, store, loop or outer assignment)"
                    ));
                }
                for s in &body.stms {
                    self.stm(s);
                }
                self.expect(new, elem, site);
                for v in self.scope.pop().unwrap_or_default() {
                    self.leave(v);
                }
            }
            Stm::Prefetch { ptr, index } => {
                let site = Site::Prefetch(*ptr);
                self.expect(index, PrimType::I64, site);
                if let Some(b) = self.lookup(*ptr, site) {
                    if !matches!(b.ty, Ty::Ptr(_)) {
                        self.err(format!("{}: not a pointer", self.what(site)));
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
                self.expect(len, PrimType::I64, Site::Length(*var));
                self.bind(*var, Binding { ty: Ty::Ptr(*elem), assignable: false, writable: true });
                if let Some(s) = self.allocs.last_mut() {
                    s.push(*var);
                }
            }
            Stm::Free { var } => {
                let site = Site::Release(*var);
                self.lookup(*var, site);
                match self.allocs.last_mut().and_then(|s| s.iter().position(|v| v == var).map(|i| (s, i))) {
                    Some((s, i)) => {
                        s.remove(i);
                        self.leave(*var);
                    }
                    None => self.err(format!("{}: not an alloc of this block still live", self.what(site))),
                }
            }
            Stm::For { index, lo, hi, body, .. } => {
                let site = Site::LoopBounds(*index);
                self.expect(lo, PrimType::I64, site);
                self.expect(hi, PrimType::I64, site);
                self.scope.push(Vec::new());
                self.bind(*index, Binding { ty: Ty::Prim(PrimType::I64), assignable: false, writable: false });
                self.block(body);
                for v in self.scope.pop().unwrap_or_default() {
                    self.leave(v);
                }
            }
            Stm::While { cond, body } => {
                let site = Site::WhileCond;
                self.expect(&Operand::Var(*cond), PrimType::Bool, site);
                if self.lookup(*cond, site).is_some_and(|b| !b.assignable) {
                    self.err(format!("{}: {} is not a mut variable", self.what(site), self.name(*cond)));
                }
                self.block(body);
            }
            Stm::If { cond, then_block, else_block } => {
                self.expect(cond, PrimType::Bool, Site::IfCond);
                self.block(then_block);
                self.block(else_block);
            }
        }
    }
}
