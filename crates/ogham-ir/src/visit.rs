//! Generic traversals: the variables an expression uses and binds, free
//! variables, and the calls between functions.
//!
//! Because every variable is bound exactly once in a (verified) program, the
//! free variables of a construct are simply the variables it uses minus those
//! bound anywhere inside it.

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;

use crate::{Body, DimIndex, Exp, Lambda, LoopForm, Operator, Param, Program, Soac, Stm, SubExp, Type, VName};

/// Calls `f` on every operand written directly in `exp` (not inside nested
/// bodies or lambdas, and not in types): arrays, indices, shapes, conditions.
pub fn for_each_operand(exp: &Exp, f: &mut impl FnMut(SubExp)) {
    let var = |v: &VName| SubExp::Var(*v);
    let slice = |s: &[DimIndex], f: &mut dyn FnMut(SubExp)| {
        for d in s {
            match d {
                DimIndex::Fix(i) => f(*i),
                DimIndex::Slice { start, len, stride } => {
                    f(*start);
                    f(*len);
                    f(*stride);
                }
            }
        }
    };
    match exp {
        Exp::SubExp(a) | Exp::UnOp(_, _, a) | Exp::Conv(_, _, _, a) => f(*a),
        Exp::BinOp(_, _, a, b) | Exp::CmpOp(_, _, a, b) => {
            f(*a);
            f(*b);
        }
        Exp::TernOp(_, _, a, b, c) => {
            f(*a);
            f(*b);
            f(*c);
        }
        Exp::Apply { args, .. } => args.iter().for_each(|a| f(*a)),
        Exp::If { cond, .. } => f(*cond),
        Exp::Loop { params, form, .. } => {
            params.iter().for_each(|(_, init)| f(*init));
            if let LoopForm::For { bound, .. } = form {
                f(*bound);
            }
        }
        Exp::Index { array, slice: s } => {
            f(var(array));
            slice(s, f);
        }
        Exp::Update { array, slice: s, value } | Exp::UpdAcc { acc: array, slice: s, value, .. } => {
            f(var(array));
            slice(s, f);
            f(*value);
        }
        Exp::Iota { n, start, step, .. } => {
            f(*n);
            f(*start);
            f(*step);
        }
        Exp::Replicate { shape, value } => {
            shape.iter().for_each(|d| f(*d));
            f(*value);
        }
        Exp::Scratch { shape, .. } => shape.iter().for_each(|d| f(*d)),
        Exp::Reshape { array, shape } => {
            f(var(array));
            shape.iter().for_each(|d| f(*d));
        }
        Exp::Rearrange { array, .. } | Exp::Copy(array) => f(var(array)),
        Exp::Concat { arrays, len, .. } => {
            arrays.iter().for_each(|a| f(var(a)));
            f(*len);
        }
        Exp::ArrayLit { elems, .. } => elems.iter().for_each(|e| f(*e)),
        Exp::Assert { cond, args, .. } => {
            f(*cond);
            args.iter().for_each(|(_, a)| f(*a));
        }
        Exp::Certify { cert, values } => {
            f(var(cert));
            values.iter().for_each(|v| f(*v));
        }
        Exp::UserParam { default, .. } => f(*default),
        Exp::Ad { args, seeds, .. } => args.iter().chain(seeds).for_each(|a| f(*a)),
        Exp::Soac(soac) => match soac {
            Soac::Screma { w, arrs, scans, reduces, .. } => {
                f(*w);
                arrs.iter().for_each(|a| f(var(a)));
                scans.iter().chain(reduces).for_each(|op| op.neutral.iter().for_each(|n| f(*n)));
            }
            Soac::Hist { w, arrs, ops, .. } => {
                f(*w);
                arrs.iter().for_each(|a| f(var(a)));
                for op in ops {
                    op.shape.iter().for_each(|d| f(*d));
                    op.dests.iter().for_each(|d| f(var(d)));
                    op.op.neutral.iter().for_each(|n| f(*n));
                }
            }
            Soac::Scatter { w, arrs, dests, .. } | Soac::WithAcc { w, arrs, accs: dests, .. } => {
                f(*w);
                arrs.iter().chain(dests).for_each(|a| f(var(a)));
            }
        },
    }
}

/// The lambdas written directly in `exp` (the SOACs' map functions and operators).
pub fn lambdas(exp: &Exp) -> Vec<&Lambda> {
    let soac = match exp {
        Exp::Soac(soac) => soac,
        Exp::Ad { lambda, .. } => return vec![lambda],
        _ => return Vec::new(),
    };
    fn op_lambdas(ops: &[Operator]) -> impl Iterator<Item = &Lambda> {
        ops.iter().map(|op| &op.lambda)
    }
    match soac {
        Soac::Screma { scans, reduces, map, .. } => {
            let mut ls: Vec<&Lambda> = op_lambdas(scans).collect();
            ls.extend(op_lambdas(reduces));
            ls.push(map);
            ls
        }
        Soac::Hist { ops: hist_ops, map, .. } => {
            let mut ls: Vec<&Lambda> = hist_ops.iter().map(|op| &op.op.lambda).collect();
            ls.push(map);
            ls
        }
        Soac::Scatter { map, .. } | Soac::WithAcc { map, .. } => vec![map],
    }
}

/// Every lambda of a SOAC, mutably: its operators' first, then the map function (last).
pub fn soac_lambdas_mut(soac: &mut Soac) -> Vec<&mut Lambda> {
    match soac {
        Soac::Screma { scans, reduces, map, .. } => {
            let mut v: Vec<_> = scans.iter_mut().chain(reduces.iter_mut()).map(|o| &mut o.lambda).collect();
            v.push(map);
            v
        }
        Soac::Hist { ops, map, .. } => {
            let mut v: Vec<_> = ops.iter_mut().map(|o| &mut o.op.lambda).collect();
            v.push(map);
            v
        }
        Soac::Scatter { map, .. } | Soac::WithAcc { map, .. } => vec![map],
    }
}

/// Every body nested directly in `exp`, mutably: branches, a loop's body,
/// and the bodies of a SOAC's lambdas (operators' first, the map function's last).
pub fn nested_bodies_mut(exp: &mut Exp) -> Vec<&mut Body> {
    match exp {
        Exp::If { then_body, else_body, .. } => vec![then_body, else_body],
        Exp::Loop { body, .. } => vec![body],
        Exp::Soac(soac) => soac_lambdas_mut(soac).into_iter().map(|l| &mut l.body).collect(),
        Exp::Ad { lambda, .. } => vec![&mut lambda.body],
        _ => Vec::new(),
    }
}

/// The bodies written directly in `exp` (branches, loop bodies; not lambda bodies).
pub fn bodies(exp: &Exp) -> Vec<&Body> {
    match exp {
        Exp::If { then_body, else_body, .. } => vec![then_body, else_body],
        Exp::Loop { body, .. } => vec![body],
        _ => Vec::new(),
    }
}

/// The variables that `exp` binds for its nested bodies (loop parameters and
/// index; not those bound inside the bodies or lambdas).
pub fn exp_binders(exp: &Exp) -> Vec<&Param> {
    match exp {
        Exp::Loop { params, .. } => params.iter().map(|(p, _)| p).collect(),
        _ => Vec::new(),
    }
}

/// The variables a type mentions in its shape.
pub fn type_vars(ty: &Type) -> impl Iterator<Item = VName> + '_ {
    ty.shape().iter().filter_map(|d| d.as_var())
}

/// Collects every variable used and every variable bound, at any depth.
/// Both are plain lists, sorted once at the end: compilers call the
/// free-variable queries below on every statement of a nest, and inserting
/// each use into an ordered set cost more than the walk itself.
#[derive(Default)]
struct UseBind {
    used: Vec<VName>,
    bound: Vec<VName>,
}

impl UseBind {
    fn param(&mut self, p: &Param) {
        self.bound.push(p.name);
        self.used.extend(type_vars(&p.ty));
    }

    fn body(&mut self, body: &Body) {
        for stm in &body.stms {
            stm.pat.iter().for_each(|p| self.param(p));
            self.exp(&stm.exp);
        }
        self.used.extend(body.result.iter().filter_map(|r| r.as_var()));
    }

    fn lambda(&mut self, lam: &Lambda) {
        lam.params.iter().for_each(|p| self.param(p));
        lam.ret.iter().for_each(|t| self.used.extend(type_vars(t)));
        self.body(&lam.body);
    }

    fn exp(&mut self, exp: &Exp) {
        for_each_operand(exp, &mut |se| {
            if let SubExp::Var(v) = se {
                self.used.push(v);
            }
        });
        match exp {
            Exp::Loop { params, form, .. } => {
                params.iter().for_each(|(p, _)| self.param(p));
                match form {
                    LoopForm::For { i, .. } => self.bound.push(*i),
                    LoopForm::While { cond } => self.used.push(*cond),
                }
            }
            Exp::ArrayLit { elem_ty, .. } => self.used.extend(type_vars(elem_ty)),
            _ => {}
        }
        bodies(exp).into_iter().for_each(|b| self.body(b));
        lambdas(exp).into_iter().for_each(|l| self.lambda(l));
    }

    /// The variables used and not bound.
    fn free(mut self) -> BTreeSet<VName> {
        self.used.sort_unstable();
        self.used.dedup();
        self.bound.sort_unstable();
        let bound = self.bound;
        self.used.into_iter().filter(|v| bound.binary_search(v).is_err()).collect()
    }
}

/// The variables used in `body` but not bound inside it.
pub fn free_vars_body(body: &Body) -> BTreeSet<VName> {
    let mut ub = UseBind::default();
    ub.body(body);
    ub.free()
}

/// The variables used in `exp` (including nested bodies) but not bound inside it.
pub fn free_vars_exp(exp: &Exp) -> BTreeSet<VName> {
    let mut ub = UseBind::default();
    ub.exp(exp);
    ub.free()
}

/// The variables used in `lam` but not bound by it or inside it.
pub fn free_vars_lambda(lam: &Lambda) -> BTreeSet<VName> {
    let mut ub = UseBind::default();
    ub.lambda(lam);
    ub.free()
}

/// The variables an expression consumes directly: the array of an `Update`
/// or `UpdAcc`, the destinations of a `Scatter` or `Hist`, the
/// accumulators of a `WithAcc`.
pub fn consumed_directly(exp: &Exp) -> Vec<VName> {
    match exp {
        Exp::Update { array, .. } | Exp::UpdAcc { acc: array, .. } => vec![*array],
        Exp::Soac(Soac::Scatter { dests, .. }) | Exp::Soac(Soac::WithAcc { accs: dests, .. }) => dests.clone(),
        Exp::Soac(Soac::Hist { ops, .. }) => ops.iter().flat_map(|op| op.dests.iter().copied()).collect(),
        _ => Vec::new(),
    }
}

/// Every variable consumed by `exp` or by any statement nested in it (the
/// caller filters out those bound inside): the arrays updated in place,
/// and the initial value of a loop parameter that the loop's body
/// consumes (directly or through a value that may alias it, see
/// [`consumed_through`]).
pub fn consumed_deep(exp: &Exp) -> BTreeSet<VName> {
    let mut out: BTreeSet<VName> = consumed_directly(exp).into_iter().collect();
    if let Exp::Loop { params, body, .. } = exp {
        // Each statement's consumption once, for the loop's own and for
        // the parameters it traces back to.
        let each: Vec<BTreeSet<VName>> = body.stms.iter().map(|s| consumed_deep(&s.exp)).collect();
        let arrays: Vec<VName> = params.iter().filter(|(p, _)| p.ty.rank() > 0).map(|(p, _)| p.name).collect();
        let inner = trace_aliases(body.stms.iter().zip(&each), &arrays);
        for (p, init) in params {
            if let (true, SubExp::Var(v)) = (inner.contains(&p.name), init) {
                out.insert(*v);
            }
        }
        each.into_iter().for_each(|c| out.extend(c));
        return out;
    }
    for b in bodies(exp) {
        b.stms.iter().for_each(|s| out.extend(consumed_deep(&s.exp)));
    }
    for l in lambdas(exp) {
        l.body.stms.iter().for_each(|s| out.extend(consumed_deep(&s.exp)));
    }
    out
}

/// The arrays among `arrays` (bound outside `stms`) that `stms` consume
/// ([`consumed_deep`] of each), directly or through a value that may
/// alias them: any array but a SOAC's result or a copy computed from one
/// (a row, a branch's or a loop's result).
pub fn consumed_through<'a>(stms: impl IntoIterator<Item = &'a Stm>, arrays: &[VName]) -> BTreeSet<VName> {
    let stms: Vec<&Stm> = stms.into_iter().collect();
    let each: Vec<BTreeSet<VName>> = stms.iter().map(|s| consumed_deep(&s.exp)).collect();
    trace_aliases(stms.into_iter().zip(&each), arrays)
}

/// [`consumed_through`] given each statement's [`consumed_deep`].
fn trace_aliases<'a>(stms: impl Iterator<Item = (&'a Stm, &'a BTreeSet<VName>)>, arrays: &[VName]) -> BTreeSet<VName> {
    let mut roots: HashMap<VName, BTreeSet<VName>> = arrays.iter().map(|a| (*a, BTreeSet::from_iter([*a]))).collect();
    let mut out = BTreeSet::new();
    for (s, consumed) in stms {
        for v in consumed {
            out.extend(roots.get(v).into_iter().flatten().copied());
        }
        if s.pat.iter().any(|p| p.ty.rank() > 0) && !matches!(s.exp, Exp::Soac(_) | Exp::Copy(_)) {
            let from: BTreeSet<VName> =
                free_vars_exp(&s.exp).iter().filter_map(|v| roots.get(v)).flatten().copied().collect();
            if !from.is_empty() {
                for p in s.pat.iter().filter(|p| p.ty.rank() > 0) {
                    roots.insert(p.name, from.clone());
                }
            }
        }
    }
    out
}

/// Renames the uses of variables in `body`, at any depth (operands, arrays,
/// the shapes in types, loop conditions): `v` becomes `to(v)` where that is
/// `Some`. Binders are left alone, so `to` must only rename variables bound
/// outside `body` (such as its free variables).
pub fn rename_uses(body: &mut Body, to: &dyn Fn(VName) -> Option<VName>) {
    substitute_uses(body, &|v| to(v).map(SubExp::Var))
}

/// Replaces the variables of a type's shape: `v` becomes `to(v)` where
/// that is `Some`.
pub fn substitute_type(t: &mut Type, to: &dyn Fn(VName) -> Option<SubExp>) {
    if let Type::Array { shape, .. } = t {
        for d in shape {
            if let Some(w) = d.as_var().and_then(to) {
                *d = w;
            }
        }
    }
}

/// Replaces the uses of variables in `body`, at any depth, as
/// [`rename_uses`] does, but by any operand: `v` becomes `to(v)` where that
/// is `Some`. Where only a variable may stand (the array of an `Index`, a
/// SOAC's inputs), a constant replacement is not made.
pub fn substitute_uses(body: &mut Body, to: &dyn Fn(VName) -> Option<SubExp>) {
    let var = |v: &mut VName| {
        if let Some(SubExp::Var(w)) = to(*v) {
            *v = w;
        }
    };
    let se = |s: &mut SubExp| {
        if let SubExp::Var(v) = s {
            if let Some(w) = to(*v) {
                *s = w;
            }
        }
    };
    let ty = |t: &mut Type| substitute_type(t, to);
    fn slice(s: &mut [DimIndex], se: &dyn Fn(&mut SubExp)) {
        for d in s {
            match d {
                DimIndex::Fix(i) => se(i),
                DimIndex::Slice { start, len, stride } => {
                    se(start);
                    se(len);
                    se(stride);
                }
            }
        }
    }
    fn lambda(l: &mut Lambda, to: &dyn Fn(VName) -> Option<SubExp>) {
        let dims = |t: &mut Type| substitute_type(t, to);
        l.params.iter_mut().for_each(|p| dims(&mut p.ty));
        l.ret.iter_mut().for_each(dims);
        substitute_uses(&mut l.body, to);
    }
    for stm in &mut body.stms {
        stm.pat.iter_mut().for_each(|p| ty(&mut p.ty));
        match &mut stm.exp {
            Exp::SubExp(a) | Exp::UnOp(_, _, a) | Exp::Conv(_, _, _, a) => se(a),
            Exp::BinOp(_, _, a, b) | Exp::CmpOp(_, _, a, b) => {
                se(a);
                se(b);
            }
            Exp::TernOp(_, _, a, b, c) => {
                se(a);
                se(b);
                se(c);
            }
            Exp::Apply { args, .. } => args.iter_mut().for_each(se),
            Exp::If { cond, then_body, else_body } => {
                se(cond);
                substitute_uses(then_body, to);
                substitute_uses(else_body, to);
            }
            Exp::Loop { params, form, body } => {
                for (p, init) in params.iter_mut() {
                    ty(&mut p.ty);
                    se(init);
                }
                if let LoopForm::For { bound, .. } = form {
                    se(bound);
                }
                substitute_uses(body, to);
            }
            Exp::Index { array, slice: s } => {
                var(array);
                slice(s, &se);
            }
            Exp::Update { array, slice: s, value } | Exp::UpdAcc { acc: array, slice: s, value, .. } => {
                var(array);
                slice(s, &se);
                se(value);
            }
            Exp::Iota { n, start, step, .. } => {
                se(n);
                se(start);
                se(step);
            }
            Exp::Replicate { shape, value } => {
                shape.iter_mut().for_each(se);
                se(value);
            }
            Exp::Scratch { shape, .. } => shape.iter_mut().for_each(se),
            Exp::Reshape { array, shape } => {
                var(array);
                shape.iter_mut().for_each(se);
            }
            Exp::Rearrange { array, .. } | Exp::Copy(array) => var(array),
            Exp::Concat { arrays, len, .. } => {
                arrays.iter_mut().for_each(var);
                se(len);
            }
            Exp::ArrayLit { elems, elem_ty } => {
                elems.iter_mut().for_each(se);
                ty(elem_ty);
            }
            Exp::Assert { cond, args, .. } => {
                se(cond);
                args.iter_mut().for_each(|(_, a)| se(a));
            }
            Exp::Certify { cert, values } => {
                var(cert);
                values.iter_mut().for_each(se);
            }
            Exp::UserParam { default, .. } => se(default),
            Exp::Ad { lambda: lam, args, seeds, .. } => {
                args.iter_mut().chain(seeds.iter_mut()).for_each(se);
                lambda(lam, to);
            }
            Exp::Soac(soac) => match soac {
                Soac::Screma { w, arrs, scans, reduces, map } => {
                    se(w);
                    arrs.iter_mut().for_each(var);
                    for op in scans.iter_mut().chain(reduces.iter_mut()) {
                        op.neutral.iter_mut().for_each(se);
                        lambda(&mut op.lambda, to);
                    }
                    lambda(map, to);
                }
                Soac::Hist { w, arrs, ops, map } => {
                    se(w);
                    arrs.iter_mut().for_each(var);
                    for op in ops {
                        op.shape.iter_mut().for_each(se);
                        op.dests.iter_mut().for_each(var);
                        op.op.neutral.iter_mut().for_each(se);
                        lambda(&mut op.op.lambda, to);
                    }
                    lambda(map, to);
                }
                Soac::Scatter { w, arrs, dests, map } | Soac::WithAcc { w, arrs, accs: dests, map } => {
                    se(w);
                    arrs.iter_mut().chain(dests.iter_mut()).for_each(var);
                    lambda(map, to);
                }
            },
        }
    }
    body.result.iter_mut().for_each(se);
}

/// Counts the uses of every variable in a body (nested bodies included).
pub fn count_uses(body: &Body, counts: &mut HashMap<VName, usize>) {
    for stm in &body.stms {
        count_uses_exp(&stm.exp, counts);
    }
    for r in &body.result {
        if let SubExp::Var(v) = r {
            *counts.entry(*v).or_default() += 1;
        }
    }
}

pub fn count_uses_exp(exp: &Exp, counts: &mut HashMap<VName, usize>) {
    for_each_operand(exp, &mut |se| {
        if let SubExp::Var(v) = se {
            *counts.entry(v).or_default() += 1;
        }
    });
    for b in bodies(exp) {
        count_uses(b, counts);
    }
    for l in lambdas(exp) {
        count_uses(&l.body, counts);
    }
}

/// Adds to `out` the name of every function `stms` call, at any depth.
pub fn collect_calls(stms: &[Stm], out: &mut BTreeSet<String>) {
    for stm in stms {
        if let Exp::Apply { func, .. } = &stm.exp {
            out.insert(func.clone());
        }
        for b in bodies(&stm.exp) {
            collect_calls(&b.stms, out);
        }
        for l in lambdas(&stm.exp) {
            collect_calls(&l.body.stms, out);
        }
    }
}

/// Each function's name with the names of the functions it calls.
pub fn call_graph(prog: &Program) -> HashMap<String, BTreeSet<String>> {
    prog.funs
        .iter()
        .map(|f| {
            let mut calls = BTreeSet::new();
            collect_calls(&f.body.stms, &mut calls);
            (f.name.clone(), calls)
        })
        .collect()
}

/// Whether function `f` reaches itself through one or more calls.
pub fn calls_itself(graph: &HashMap<String, BTreeSet<String>>, f: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut work: Vec<&str> = graph.get(f).into_iter().flatten().map(String::as_str).collect();
    while let Some(g) = work.pop() {
        if g == f {
            return true;
        }
        if seen.insert(g) {
            work.extend(graph.get(g).into_iter().flatten().map(String::as_str));
        }
    }
    false
}

/// The functions that reach themselves through calls: the source's
/// recursive functions, and the derivative functions made of them.
pub fn recursive_functions(prog: &Program) -> BTreeSet<String> {
    let graph = call_graph(prog);
    graph.keys().filter(|f| calls_itself(&graph, f)).cloned().collect()
}
