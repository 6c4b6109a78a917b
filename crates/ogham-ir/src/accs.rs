//! Accumulators (seed 004 §4.5): the linear-use discipline of the
//! accumulators of a [`Soac::WithAcc`], and the operators they combine
//! with.
//!
//! Inside a `withacc`'s map function an accumulator is write-only: it is
//! updated ([`Exp::UpdAcc`]), handed to a nested `withacc`, threaded
//! through a loop (as a parameter's initial value) or through a branch
//! (as a result), and returned. Anything else would read it, and so see
//! the updates of other applications running in parallel. A loop body or
//! a lambda sees only the accumulators it takes as parameters: one used
//! free there would be updated by every iteration without being threaded
//! through them. Every update of one accumulator (and of what is made of
//! it) uses the same operator, so updates from different applications
//! commute. The verifier's consumption rules do the rest: each
//! accumulator is used at most once, since every allowed use consumes it.

use crate::visit::{for_each_operand, free_vars_body, free_vars_lambda};
use crate::{BinOp, Body, Exp, Lambda, NameTable, PrimType, Soac, SubExp, VName};
use rustc_hash::FxHashMap as HashMap;

/// Whether accumulators of element type `t` may combine with `op`: an
/// associative and commutative operator with a neutral element.
pub fn is_acc_op(op: BinOp, t: PrimType) -> bool {
    match op {
        BinOp::Add | BinOp::Mul | BinOp::Min | BinOp::Max => t.is_int() || t.is_float(),
        BinOp::And | BinOp::Or | BinOp::Xor => t.is_int() || t == PrimType::Bool,
        BinOp::LogAnd | BinOp::LogOr => t == PrimType::Bool,
        _ => false,
    }
}

/// A broken rule of accumulator use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccProblem {
    /// The accumulator is used other than by an update, a nested
    /// `withacc`, a loop's initial value or a result.
    Read(VName),
    /// The accumulator is used inside a loop body or lambda that does not
    /// take it as a parameter.
    Free(VName),
    /// Updates of one accumulator with different operators.
    MixedOps(VName),
    /// A result of the map function in a position that is not an accumulator's.
    Escapes(VName),
}

impl AccProblem {
    pub fn render(&self, names: &NameTable) -> String {
        match self {
            AccProblem::Read(v) => format!(
                "accumulator `{}` is read (it may only be updated, passed to a nested withacc, threaded through a loop or branch, or returned)",
                names.display(*v)
            ),
            AccProblem::Free(v) => format!(
                "accumulator `{}` is used inside a loop body or lambda that does not take it as a parameter",
                names.display(*v)
            ),
            AccProblem::MixedOps(v) => {
                format!("accumulator `{}` is updated with different operators", names.display(*v))
            }
            AccProblem::Escapes(v) => format!(
                "accumulator `{}` is returned where the map function returns a mapped value",
                names.display(*v)
            ),
        }
    }
}

/// Checks the map function of a `withacc` whose first `n` parameters are
/// its accumulators.
pub fn check(map: &Lambda, n: usize) -> Vec<AccProblem> {
    let mut c = Checker::default();
    let mut live = HashMap::default();
    for (i, p) in map.params.iter().take(n).enumerate() {
        live.insert(p.name, i);
        c.all.insert(p.name, i);
    }
    c.body(&map.body, &mut live);
    for r in map.body.result.iter().skip(n) {
        if let Some(v) = r.as_var().filter(|v| c.all.contains_key(v)) {
            c.problems.push(AccProblem::Escapes(v));
        }
    }
    c.problems
}

/// Accumulators are identified by the index of the parameter they were
/// made from (their root), so updates of one root share an operator.
#[derive(Default)]
struct Checker {
    /// Every accumulator seen, with its root.
    all: HashMap<VName, usize>,
    /// The operator of each root's updates, once one is seen; the roots
    /// of a nested withacc's own arrays are numbered from a million.
    ops: HashMap<usize, Option<BinOp>>,
    next_root: usize,
    problems: Vec<AccProblem>,
}

impl Checker {
    fn fresh_root(&mut self) -> usize {
        self.next_root += 1;
        1_000_000 + self.next_root
    }

    /// A use of `v` that is not allowed for accumulators.
    fn plain_use(&mut self, v: VName, live: &HashMap<VName, usize>) {
        if live.contains_key(&v) {
            self.problems.push(AccProblem::Read(v));
        } else if self.all.contains_key(&v) {
            self.problems.push(AccProblem::Free(v));
        }
    }

    fn acc_use(&mut self, v: VName, live: &HashMap<VName, usize>) -> Option<usize> {
        match live.get(&v) {
            Some(&r) => Some(r),
            None => {
                if self.all.contains_key(&v) {
                    self.problems.push(AccProblem::Free(v));
                }
                None
            }
        }
    }

    fn bind(&mut self, v: VName, root: usize, live: &mut HashMap<VName, usize>) {
        live.insert(v, root);
        self.all.insert(v, root);
    }

    /// A scope that sees none of the accumulators live around it.
    fn closed_lambda(&mut self, lam: &Lambda) {
        for v in free_vars_lambda(lam) {
            if self.all.contains_key(&v) {
                self.problems.push(AccProblem::Free(v));
            }
        }
        self.body(&lam.body, &mut HashMap::default());
    }

    fn body(&mut self, body: &Body, live: &mut HashMap<VName, usize>) {
        for stm in &body.stms {
            match &stm.exp {
                Exp::UpdAcc { acc, slice: _, value: _, op } if self.all.contains_key(acc) => {
                    let mut others = Vec::new();
                    for_each_operand(&stm.exp, &mut |se| others.extend(se.as_var()));
                    // The accumulator itself is the first operand.
                    for v in others.into_iter().skip(1) {
                        self.plain_use(v, live);
                    }
                    if let Some(root) = self.acc_use(*acc, live) {
                        match self.ops.get(&root) {
                            Some(seen) if seen != op => self.problems.push(AccProblem::MixedOps(*acc)),
                            _ => {
                                self.ops.insert(root, *op);
                            }
                        }
                        if let Some(p) = stm.pat.first() {
                            self.bind(p.name, root, live);
                        }
                    }
                }
                Exp::Soac(Soac::WithAcc { w, arrs, accs, map }) => {
                    if let SubExp::Var(v) = w {
                        self.plain_use(*v, live);
                    }
                    for &a in arrs {
                        self.plain_use(a, live);
                    }
                    let mut inner = HashMap::default();
                    for (i, &a) in accs.iter().enumerate() {
                        let root = if self.all.contains_key(&a) { self.acc_use(a, live) } else { None };
                        let root = root.unwrap_or_else(|| self.fresh_root());
                        if let Some(p) = map.params.get(i) {
                            inner.insert(p.name, root);
                            self.all.insert(p.name, root);
                        }
                        if self.all.contains_key(&a) {
                            if let Some(p) = stm.pat.get(i) {
                                self.bind(p.name, root, live);
                            }
                        }
                    }
                    for v in free_vars_lambda(map) {
                        if self.all.contains_key(&v) && !inner.contains_key(&v) {
                            self.problems.push(AccProblem::Free(v));
                        }
                    }
                    self.body(&map.body, &mut inner);
                    for r in map.body.result.iter().skip(accs.len()) {
                        if let Some(v) = r.as_var().filter(|v| self.all.contains_key(v)) {
                            self.problems.push(AccProblem::Escapes(v));
                        }
                    }
                }
                Exp::Loop { params, form, body: lbody } => {
                    let mut inner = HashMap::default();
                    for (i, (p, init)) in params.iter().enumerate() {
                        let Some(v) = init.as_var().filter(|v| self.all.contains_key(v)) else { continue };
                        if let Some(root) = self.acc_use(v, live) {
                            inner.insert(p.name, root);
                            self.all.insert(p.name, root);
                            if let Some(q) = stm.pat.get(i) {
                                self.bind(q.name, root, live);
                            }
                        }
                    }
                    if let crate::LoopForm::For { bound: SubExp::Var(b), .. } = form {
                        self.plain_use(*b, live);
                    }
                    for v in free_vars_body(lbody) {
                        if self.all.contains_key(&v) && !inner.contains_key(&v) {
                            self.problems.push(AccProblem::Free(v));
                        }
                    }
                    self.body(lbody, &mut inner);
                }
                Exp::If { cond, then_body, else_body } => {
                    if let SubExp::Var(v) = cond {
                        self.plain_use(*v, live);
                    }
                    let mut t = live.clone();
                    self.body(then_body, &mut t);
                    let mut e = live.clone();
                    self.body(else_body, &mut e);
                    for (i, p) in stm.pat.iter().enumerate() {
                        let root = [then_body, else_body]
                            .iter()
                            .find_map(|b| b.result.get(i).and_then(|r| r.as_var()).and_then(|v| self.all.get(&v)))
                            .copied();
                        if let Some(root) = root {
                            self.bind(p.name, root, live);
                        }
                    }
                }
                exp => {
                    for_each_operand(exp, &mut |se| {
                        if let SubExp::Var(v) = se {
                            if self.all.contains_key(&v) {
                                if live.contains_key(&v) {
                                    self.problems.push(AccProblem::Read(v));
                                } else {
                                    self.problems.push(AccProblem::Free(v));
                                }
                            }
                        }
                    });
                    for lam in crate::visit::lambdas(exp) {
                        self.closed_lambda(lam);
                    }
                }
            }
        }
    }
}
