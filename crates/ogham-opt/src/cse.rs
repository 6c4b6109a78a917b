//! Common-subexpression elimination.
//!
//! A statement whose expression (with its attributes) equals that of an
//! earlier statement in scope binds nothing new: its variables are replaced
//! by the earlier statement's everywhere after. Scope follows the IR's:
//! an expression computed in a body is available in the bodies nested in
//! it (branches, loop bodies, lambdas), so work that a loop or a lambda
//! repeats is found when it was already done outside, but not the other way
//! round, and not between two branches.
//!
//! Candidates are the pure expressions: scalar operations, indexing, and the
//! array constructions (`iota`, `replicate`, reshapes, transpositions,
//! concatenations, literals, SOACs without destinations). An expression with
//! an array result is shared only when neither its variables nor those of
//! the earlier one may be consumed anywhere in the function (an in-place
//! update of one copy must not be seen through the other), and only if the
//! program still passes the alias verifier afterwards (the consumed set
//! does not follow aliases through branches and loops; when it fails, CSE
//! runs again sharing scalars only). A check (an
//! assertion that binds no certificate) equal to an earlier one in scope
//! is dropped: it cannot fail once the earlier one has passed. User
//! assertions, updates, scratch arrays, copies, calls and loops are never shared.

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;

use ogham_ir::visit::{rename_uses, substitute_uses};
use ogham_ir::{
    BinOp, Body, CmpOp, ConvOp, Exp, NameTable, PrimType, Program, Soac, Stm, StmAttrs, SubExp, TernOp, Type, UnOp,
    VName,
};

/// Eliminates common subexpressions in every function of the program.
pub fn cse_program(prog: &mut Program) {
    // Sharing arrays is checked against the alias verifier: the consumed
    // set below does not follow aliases (an array returned by an `if` and
    // updated after it), so when sharing an array made the program consume
    // memory that is used later, CSE runs again sharing only scalars.
    // Only the statements change (not the names): they are all that is
    // kept to go back to, and the verifier runs only when an array was
    // shared (sharing scalars needs no check). GMM's compilation spent 40%
    // of its CSE time verifying programs in which no array was shared.
    let before = (prog.consts.clone(), prog.funs.clone());
    if cse_with(prog, true) && ogham_ir::verify::check(prog).is_err() {
        (prog.consts, prog.funs) = before;
        cse_with(prog, false);
    }
}

/// CSE of every body of the program; whether an array was shared.
fn cse_with(prog: &mut Program, arrays: bool) -> bool {
    let mut shared = false;
    crate::on_consts(prog, |body, names| shared |= cse_body(body, names, arrays));
    for f in &mut prog.funs {
        shared |= cse_body(&mut f.body, &prog.names, arrays);
    }
    shared
}

fn cse_body(body: &mut Body, names: &NameTable, arrays: bool) -> bool {
    let mut consumed = BTreeSet::new();
    for stm in &body.stms {
        consumed.extend(crate::fuse::may_consume(&stm.exp));
    }
    let mut cx = Cse {
        names,
        arrays,
        consumed,
        table: HashMap::default(),
        log: Vec::new(),
        rename: HashMap::default(),
        shared_arrays: false,
    };
    cx.body(body);
    cx.shared_arrays
}

struct Cse<'a> {
    names: &'a NameTable,
    /// Whether expressions with array results may be shared.
    arrays: bool,
    /// Every variable that may be consumed in the function.
    consumed: BTreeSet<VName>,
    /// Available expressions, to the variables that hold their values.
    table: HashMap<Key, Vec<VName>>,
    /// Keys added to `table`, in order, so that leaving a body can remove its own.
    log: Vec<Key>,
    /// Eliminated variables and their replacements.
    rename: HashMap<VName, VName>,
    /// Whether a statement with an array result was eliminated.
    shared_arrays: bool,
}

impl Cse<'_> {
    fn body(&mut self, body: &mut Body) {
        let mark = self.log.len();
        let mut kept = Vec::with_capacity(body.stms.len());
        for stm in std::mem::take(&mut body.stms) {
            let mut one = Body { stms: vec![stm], result: Vec::new() };
            if !self.rename.is_empty() {
                let rename = &self.rename;
                rename_uses(&mut one, &|v| rename.get(&v).copied());
            }
            let mut stm = one.stms.pop().expect("one statement");
            self.nested(&mut stm.exp);
            if let Some(key) = self.key(&stm) {
                if let Some(earlier) = self.table.get(&key) {
                    if earlier.len() == stm.pat.len() {
                        self.shared_arrays |= stm.pat.iter().any(|p| p.ty.rank() > 0);
                        for (p, e) in stm.pat.iter().zip(earlier) {
                            self.rename.insert(p.name, *e);
                        }
                        continue;
                    }
                }
                self.table.insert(key.clone(), stm.pat.iter().map(|p| p.name).collect());
                self.log.push(key);
            }
            kept.push(stm);
        }
        body.stms = kept;
        if !self.rename.is_empty() {
            let rename = &self.rename;
            let mut tail = Body { stms: Vec::new(), result: std::mem::take(&mut body.result) };
            substitute_uses(&mut tail, &|v| rename.get(&v).map(|w| SubExp::Var(*w)));
            body.result = tail.result;
        }
        for key in self.log.drain(mark..) {
            self.table.remove(&key);
        }
    }

    fn nested(&mut self, exp: &mut Exp) {
        match exp {
            Exp::If { then_body, else_body, .. } => {
                self.body(then_body);
                self.body(else_body);
            }
            Exp::Loop { body, .. } => self.body(body),
            Exp::Soac(soac) => {
                for lam in ogham_ir::visit::soac_lambdas_mut(soac) {
                    self.body(&mut lam.body);
                }
            }
            Exp::Ad { lambda, .. } => self.body(&mut lambda.body),
            _ => {}
        }
    }

    /// The key under which the statement's value is shared, if it may be.
    fn key(&self, stm: &Stm) -> Option<Key> {
        if let Some(key) = scalar_key(stm) {
            return Some(key);
        }
        let arrays = stm.pat.iter().any(|p| p.ty.rank() > 0);
        let shareable = match &stm.exp {
            Exp::SubExp(_)
            | Exp::BinOp(..)
            | Exp::CmpOp(..)
            | Exp::UnOp(..)
            | Exp::TernOp(..)
            | Exp::Conv(..)
            | Exp::Index { .. }
            | Exp::Iota { .. }
            | Exp::Replicate { .. }
            | Exp::Reshape { .. }
            | Exp::Rearrange { .. }
            | Exp::Concat { .. }
            | Exp::ArrayLit { .. }
            | Exp::Soac(Soac::Screma { .. }) => true,
            // A check equal to an earlier one in scope cannot fail once that
            // one has passed.
            Exp::Assert { .. } if stm.pat.is_empty() => return Some(Key::Printed(self.print_key(stm))),
            Exp::Apply { .. }
            | Exp::If { .. }
            | Exp::Loop { .. }
            | Exp::Update { .. }
            | Exp::UpdAcc { .. }
            | Exp::Scratch { .. }
            | Exp::Copy(_)
            | Exp::Assert { .. }
            | Exp::Certify { .. }
            | Exp::UserParam { .. }
            | Exp::Ad { .. }
            | Exp::Soac(_) => false,
        };
        if !shareable || stm.pat.is_empty() {
            return None;
        }
        if arrays && (!self.arrays || stm.pat.iter().any(|p| self.consumed.contains(&p.name))) {
            return None;
        }
        Some(Key::Printed(self.print_key(stm)))
    }

    fn print_key(&self, stm: &Stm) -> String {
        // A SOAC's lambdas bind names of their own: two SOACs are the same
        // computation when they are equal up to renaming those.
        let mut key = match &stm.exp {
            Exp::Soac(_) => ogham_ir::print::exp(&canonical(&stm.exp), self.names),
            exp => ogham_ir::print::exp(exp, self.names),
        };
        // The result types take part: two equal expressions may be bound at
        // different types only if lowering gave them different sizes.
        for p in &stm.pat {
            key.push_str(" : ");
            key.push_str(&ogham_ir::print::type_(&p.ty, self.names));
        }
        key.push_str(&format!(" #{:?}", stm.attrs));
        key
    }
}

/// What a statement's value is shared under. Scalar operations, most of
/// the statements, are compared by their structure; everything else by its
/// printed form, types and attributes (printing every statement was most
/// of CSE's time, itself a sixth of GMM's passes).
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Scalar { exp: ScalarExp, ty: PrimType, attrs: StmAttrs },
    Printed(String),
}

/// A scalar operation with its operands, hashable (a constant by its type
/// and bits: floats are not `Eq`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum ScalarExp {
    Atom(Atom),
    Bin(BinOp, PrimType, Atom, Atom),
    Cmp(CmpOp, PrimType, Atom, Atom),
    Un(UnOp, PrimType, Atom),
    Tern(TernOp, PrimType, Atom, Atom, Atom),
    Conv(ConvOp, PrimType, PrimType, Atom),
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Atom {
    Var(VName),
    Const(PrimType, u64),
}

fn atom(se: &SubExp) -> Atom {
    match se {
        SubExp::Var(v) => Atom::Var(*v),
        SubExp::Const(c) => Atom::Const(c.prim_type(), ogham_prim::ops::to_bits(*c)),
    }
}

/// The structural key of a statement binding one scalar by a scalar
/// operation; `None` for any other statement.
fn scalar_key(stm: &Stm) -> Option<Key> {
    let [p] = &stm.pat[..] else { return None };
    let Type::Prim(ty) = p.ty else { return None };
    let exp = match &stm.exp {
        Exp::SubExp(a) => ScalarExp::Atom(atom(a)),
        Exp::BinOp(op, t, a, b) => ScalarExp::Bin(*op, *t, atom(a), atom(b)),
        Exp::CmpOp(op, t, a, b) => ScalarExp::Cmp(*op, *t, atom(a), atom(b)),
        Exp::UnOp(op, t, a) => ScalarExp::Un(*op, *t, atom(a)),
        Exp::TernOp(op, t, a, b, c) => ScalarExp::Tern(*op, *t, atom(a), atom(b), atom(c)),
        Exp::Conv(op, from, to, a) => ScalarExp::Conv(*op, *from, *to, atom(a)),
        _ => return None,
    };
    Some(Key::Scalar { exp, ty, attrs: stm.attrs })
}

/// `exp` with the variables bound inside it renamed in the order they are
/// bound, to names no program uses: equal results mean equal expressions up
/// to the names of their bound variables.
fn canonical(exp: &Exp) -> Exp {
    fn bind(v: &mut VName, map: &mut HashMap<VName, VName>) {
        let to = VName(u32::MAX - map.len() as u32);
        map.insert(*v, to);
        *v = to;
    }
    fn body(b: &mut Body, map: &mut HashMap<VName, VName>) {
        for stm in &mut b.stms {
            for p in &mut stm.pat {
                bind(&mut p.name, map);
            }
            walk(&mut stm.exp, map);
        }
    }
    fn walk(e: &mut Exp, map: &mut HashMap<VName, VName>) {
        match e {
            Exp::Loop { params, form, body: b } => {
                for (p, _) in params.iter_mut() {
                    bind(&mut p.name, map);
                }
                if let ogham_ir::LoopForm::For { i, .. } = form {
                    bind(i, map);
                }
                body(b, map);
            }
            Exp::If { then_body, else_body, .. } => {
                body(then_body, map);
                body(else_body, map);
            }
            Exp::Soac(soac) => {
                for lam in ogham_ir::visit::soac_lambdas_mut(soac) {
                    for p in &mut lam.params {
                        bind(&mut p.name, map);
                    }
                    body(&mut lam.body, map);
                }
            }
            _ => {}
        }
    }
    let mut map = HashMap::default();
    let mut e = exp.clone();
    walk(&mut e, &mut map);
    let mut one = Body {
        stms: vec![Stm { pat: Vec::new(), exp: e, attrs: Default::default(), span: Default::default() }],
        result: Vec::new(),
    };
    rename_uses(&mut one, &|v| map.get(&v).copied());
    one.stms.pop().map_or_else(|| exp.clone(), |s| s.exp)
}
