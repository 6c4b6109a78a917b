//! Alias and consumption analysis: which arrays may share memory, and what
//! each statement consumes. The verifier ([`crate::verify`]) runs it to
//! reject programs in which a consumed array, or a value sharing its
//! memory, is used afterwards.
//!
//! The rules follow what the C backend does with memory, since that is
//! where sharing becomes visible (the interpreter has value semantics):
//!
//! - Views share their source's memory: an `Index` whose result is an
//!   array, `Reshape`, `Rearrange`, a plain copy `let y = x`, the values
//!   of a `Certify`, and the result of an `Update`, `Scatter` or `Hist`
//!   (the consumed array, written in place).
//! - `Copy`, `Iota`, `Replicate`, `Scratch`, `ArrayLit`, `Concat` and the
//!   scanned and mapped results of a `Screma` are fresh. A reduction's
//!   array result may be its neutral element or a row of the input, so it
//!   may share memory with the inputs, the neutral elements and the arrays
//!   the lambdas use; the array results of one reduction may share memory.
//! - An `if`'s results may share memory with either branch's results,
//!   and with each other only where a branch's do (two results of one
//!   statement share memory only if the statement says so). A
//!   loop parameter starts as its initial value and then holds what the
//!   body returns, so its aliases are found by iterating over the body to a
//!   fixed point; the loop's results are the final parameters. A call's
//!   results may share memory with the arguments the callee's results may
//!   share memory with, as a [`FunSummary`] of the callee says. Results of
//!   one statement that may share memory with each other alias each other.
//! - A map lambda's array parameter is a row of its input array.
//!
//! Consumption: `Update` consumes its array, `Scatter` and `Hist` their
//! destinations, a call the arguments of the parameters its callee
//! consumes, a loop the initial values of the parameters its body
//! consumes, a SOAC the input arrays whose rows its map lambda consumes,
//! and an `if` whatever either branch consumes. Consuming a value consumes
//! everything that may share memory with it.
//!
//! Sets of names stand for memory: two variables may share memory only if
//! the sets of the variables each may share memory with (each included)
//! meet. A name bound inside a body is dropped from the sets that leave it;
//! results of one statement that share memory bound inside it name each other.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;

use crate::visit::{free_vars_body, free_vars_lambda};
use crate::{Body, Exp, FunDef, Lambda, Operator, Param, Program, Soac, Stm, SubExp, VName};

/// A set of variables.
pub type Names = BTreeSet<VName>;

/// What a function does with its parameters, as its callers see it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunSummary {
    /// Per parameter: whether the function consumes it (or a value sharing its memory).
    pub consumes: Vec<bool>,
    /// Per result: the parameters (by index) whose memory it may share.
    pub ret_aliases: Vec<BTreeSet<usize>>,
    /// Pairs `(i, j)`, `i < j`, of results that may share memory with each other.
    pub ret_shared: BTreeSet<(usize, usize)>,
}

impl FunSummary {
    fn empty(f: &FunDef) -> FunSummary {
        FunSummary {
            consumes: vec![false; f.params.len()],
            ret_aliases: vec![BTreeSet::new(); f.ret.len()],
            ret_shared: BTreeSet::new(),
        }
    }

    /// Adds what `other` says; whether anything was new.
    fn absorb(&mut self, other: FunSummary) -> bool {
        let mut changed = false;
        for (a, b) in self.consumes.iter_mut().zip(other.consumes) {
            changed |= b && !*a;
            *a |= b;
        }
        for (a, b) in self.ret_aliases.iter_mut().zip(other.ret_aliases) {
            let before = a.len();
            a.extend(b);
            changed |= a.len() != before;
        }
        let before = self.ret_shared.len();
        self.ret_shared.extend(other.ret_shared);
        changed || self.ret_shared.len() != before
    }
}

/// The summaries of the functions of the program that some function
/// calls (by name): what walking a call needs. A function nothing calls
/// (an entry point, or any function once the middle end has inlined
/// everything) has none; its walk is the verifier's. They are found by
/// iterating from "consumes nothing, returns fresh arrays" until nothing
/// changes, so recursive functions are summarised too; after the first
/// round only the callers of functions whose summaries changed are walked
/// again.
pub fn summaries(prog: &Program) -> HashMap<String, FunSummary> {
    let graph = crate::visit::call_graph(prog);
    let called: HashSet<&str> = graph.values().flatten().map(String::as_str).collect();
    let callees: Vec<&FunDef> = prog.funs.iter().filter(|f| called.contains(f.name.as_str())).collect();
    let mut sums: HashMap<String, FunSummary> =
        callees.iter().map(|f| (f.name.clone(), FunSummary::empty(f))).collect();
    let consts = const_arrays(prog);
    let mut todo = callees.clone();
    while !todo.is_empty() {
        let mut changed: HashSet<&str> = HashSet::default();
        for f in todo {
            let s = summarise(f, &sums, &consts);
            if sums.get_mut(&f.name).is_some_and(|old| old.absorb(s)) {
                changed.insert(&f.name);
            }
        }
        let calls_changed =
            |f: &FunDef| graph.get(&f.name).is_some_and(|cs| cs.iter().any(|c| changed.contains(c.as_str())));
        todo = callees.iter().copied().filter(|f| calls_changed(f)).collect();
    }
    sums
}

/// The program's constant arrays, as a [`Walker`]'s base: in scope in
/// every function, which neither consumes nor returns them (the verifier
/// checks it), so none needs to know what another may share.
pub fn const_arrays(prog: &Program) -> HashMap<VName, Names> {
    prog.const_params().filter(|p| p.ty.rank() > 0).map(|p| (p.name, Names::new())).collect()
}

/// The base a [`Walker`] of `f`'s body starts from: the constant arrays
/// (see [`const_arrays`]) and `f`'s array parameters, none known to share
/// memory with another.
pub fn fun_base(consts: &HashMap<VName, Names>, f: &FunDef) -> HashMap<VName, Names> {
    let mut base = consts.clone();
    base.extend(f.params.iter().filter(|p| p.ty.rank() > 0).map(|p| (p.name, Names::new())));
    base
}

fn summarise(f: &FunDef, sums: &HashMap<String, FunSummary>, consts: &HashMap<VName, Names>) -> FunSummary {
    let base = fun_base(consts, f);
    let mut w = Walker::new(sums, &base);
    let be = w.body(&f.body);
    let index = |v: &VName| f.params.iter().position(|p| p.name == *v);
    let mut s = FunSummary::empty(f);
    for (_, set) in &be.consumed {
        for i in set.iter().filter_map(index) {
            s.consumes[i] = true;
        }
    }
    for (r, set) in s.ret_aliases.iter_mut().zip(&be.results) {
        r.extend(set.iter().filter_map(index));
    }
    s.ret_shared = be.shared;
    s
}

/// Something a statement does that no program may do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The statement consumes `consumed` and also uses `used`, which may
    /// share its memory (or is the same variable, used twice).
    Overlap { consumed: VName, used: VName },
    /// A loop consumes `consumed`, the initial value of a parameter its
    /// body consumes, while the body uses `used`, which may share its
    /// memory: a later iteration would see it updated.
    LoopUses { consumed: VName, used: VName },
    /// A loop body or lambda (`inside`) consumes `var`, which is bound
    /// outside it (not through a loop parameter or a row of its input):
    /// the next iteration or application would use it consumed.
    FreeConsumed { var: VName, inside: &'static str },
    /// The body of a loop returns, for a parameter `param` that it
    /// consumes, a value that may share memory with `var`, bound outside the
    /// loop: the next iteration would update `var` in place.
    ConsumedParamGets { param: VName, var: VName },
    /// A reduction, scan or histogram operator consumes its parameter.
    OperatorConsumes { param: VName },
}

/// What one statement does to memory.
#[derive(Clone, Debug, Default)]
pub struct Effect {
    /// Per pattern element: what its value may share memory with (other
    /// elements of the pattern included; empty for scalars).
    pub results: Vec<Names>,
    /// The consumptions: each consumed variable, with every variable in
    /// scope at the statement that may share its memory (itself included).
    pub consumed: Vec<(VName, Names)>,
    /// The aliases of the array parameters the statement binds for its
    /// loop body or lambdas.
    pub params: HashMap<VName, Names>,
    /// What the statement itself does wrong (not its nested statements).
    pub problems: Vec<Problem>,
}

/// What a body does to memory, seen from outside it.
#[derive(Clone, Debug, Default)]
pub struct BodyEffect {
    /// Per result: the variables bound outside the body whose memory it may share.
    pub results: Vec<Names>,
    /// Pairs `(i, j)`, `i < j`, of results that may share memory.
    pub shared: BTreeSet<(usize, usize)>,
    /// Consumptions of variables bound outside the body (as in [`Effect::consumed`]).
    pub consumed: Vec<(VName, Names)>,
}

/// Computes effects, given the aliases of the arrays in scope (`base`: every
/// array variable in scope has an entry, scalars none).
pub struct Walker<'a> {
    sums: &'a HashMap<String, FunSummary>,
    base: &'a HashMap<VName, Names>,
    /// Arrays bound inside what is being walked.
    local: HashMap<VName, Names>,
    /// In [`Walker::stm_and_nested`]: the effect of each statement of the
    /// bodies walked, by its address.
    nested: Option<NestedEffects>,
}

/// The effects of the statements nested in one, by their addresses: for
/// each, from the last time it was walked (a loop's body is walked until
/// the sharing of its parameters is known, and only the last walk sees
/// them as the loop's effect does).
pub type NestedEffects = HashMap<*const Stm, Effect>;

impl<'a> Walker<'a> {
    pub fn new(sums: &'a HashMap<String, FunSummary>, base: &'a HashMap<VName, Names>) -> Walker<'a> {
        Walker { sums, base, local: HashMap::default(), nested: None }
    }

    /// [`Walker::stm`], and the effect of every statement nested in `stm`
    /// as the walk saw it: what walking each again, with the aliases in
    /// scope where it is, would give. The verifier, which needs the effect
    /// of every statement at every depth, walks each top-level statement
    /// once with this instead of walking every nested statement again (its
    /// time had grown with the depth of the nesting).
    pub fn stm_and_nested(&mut self, stm: &Stm) -> (Effect, NestedEffects) {
        let outer = self.nested.replace(NestedEffects::default());
        let eff = self.stm(stm);
        let nested = std::mem::replace(&mut self.nested, outer).unwrap_or_default();
        (eff, nested)
    }

    fn get(&self, v: VName) -> Option<&Names> {
        self.local.get(&v).or_else(|| self.base.get(&v))
    }

    /// `v` and every variable it may share memory with; empty for a scalar.
    pub fn closure(&self, v: VName) -> Names {
        match self.get(v) {
            Some(a) => {
                let mut s = a.clone();
                s.insert(v);
                s
            }
            None => Names::new(),
        }
    }

    fn se_closure(&self, se: &SubExp) -> Names {
        se.as_var().map(|v| self.closure(v)).unwrap_or_default()
    }

    fn bind(&mut self, p: &Param, aliases: Names) {
        if p.ty.rank() > 0 {
            self.local.insert(p.name, aliases);
        }
    }

    /// The effect of a body; its bindings stay known to the walker.
    pub fn body(&mut self, body: &Body) -> BodyEffect {
        let mut bound = HashSet::default();
        let mut consumed = Vec::new();
        // The statement binding each variable, by its position in the body.
        let mut binder: HashMap<VName, usize> = HashMap::default();
        for (at, stm) in body.stms.iter().enumerate() {
            let eff = self.stm(stm);
            if let Some(nested) = &mut self.nested {
                nested.insert(stm as *const Stm, eff.clone());
            }
            consumed.extend(eff.consumed);
            for (i, p) in stm.pat.iter().enumerate() {
                self.bind(p, eff.results.get(i).cloned().unwrap_or_default());
                bound.insert(p.name);
                binder.insert(p.name, at);
            }
        }
        let full: Vec<Names> = body.result.iter().map(|r| self.se_closure(r)).collect();
        let mut shared = BTreeSet::new();
        for i in 0..full.len() {
            for j in i + 1..full.len() {
                // Two results of one statement share memory only if the
                // statement says so (its results then name each other):
                // an `if` whose branches return (b', a) and (a', b) gives
                // two results that may each be a or b, but never the same.
                let meet = match (body.result[i].as_var(), body.result[j].as_var()) {
                    (Some(x), Some(y)) if x != y && binder.contains_key(&x) && binder.get(&x) == binder.get(&y) => {
                        self.get(x).is_some_and(|s| s.contains(&y))
                    }
                    _ => !full[i].is_disjoint(&full[j]),
                };
                if meet {
                    shared.insert((i, j));
                }
            }
        }
        let outside = |s: &Names| -> Names { s.iter().filter(|v| !bound.contains(v)).copied().collect() };
        let consumed = consumed
            .into_iter()
            .filter_map(|(v, s)| {
                let s = outside(&s);
                let v = if bound.contains(&v) { *s.iter().next()? } else { v };
                Some((v, s))
            })
            .collect();
        BodyEffect { results: full.iter().map(outside).collect(), shared, consumed }
    }

    /// The effect of one statement (walking its nested bodies and lambdas).
    pub fn stm(&mut self, stm: &Stm) -> Effect {
        let mut eff = Effect { results: vec![Names::new(); stm.pat.len()], ..Effect::default() };
        let mut shared: BTreeSet<(usize, usize)> = BTreeSet::new();
        let set = |eff: &mut Effect, i: usize, s: Names| {
            if let Some(r) = eff.results.get_mut(i) {
                *r = s;
            }
        };
        match &stm.exp {
            Exp::SubExp(se) => set(&mut eff, 0, self.se_closure(se)),
            Exp::Index { array, .. } | Exp::Reshape { array, .. } | Exp::Rearrange { array, .. } => {
                set(&mut eff, 0, self.closure(*array))
            }
            Exp::Certify { values, .. } => {
                for (i, v) in values.iter().enumerate() {
                    set(&mut eff, i, self.se_closure(v));
                }
                shared = pairs(&eff.results);
            }
            Exp::Update { array, value, .. } | Exp::UpdAcc { acc: array, value, .. } => {
                let c = self.closure(*array);
                set(&mut eff, 0, c.clone());
                eff.consumed.push((*array, c));
                let others: Vec<VName> = value.as_var().into_iter().collect();
                self.overlaps(&[*array], &others, &mut eff.problems);
            }
            Exp::Apply { func, args } => {
                if let Some(sum) = self.sums.get(func) {
                    let mut consumed = Vec::new();
                    let mut others = Vec::new();
                    for (j, a) in args.iter().enumerate() {
                        let Some(v) = a.as_var() else { continue };
                        if sum.consumes.get(j).copied().unwrap_or(false) && self.get(v).is_some() {
                            eff.consumed.push((v, self.closure(v)));
                            consumed.push(v);
                        } else {
                            others.push(v);
                        }
                    }
                    self.overlaps(&consumed, &others, &mut eff.problems);
                    for (i, params) in sum.ret_aliases.iter().enumerate() {
                        let s: Names =
                            params.iter().filter_map(|&j| args.get(j)).flat_map(|a| self.se_closure(a)).collect();
                        // Existential sizes come first in the pattern.
                        let at = i + stm.pat.len().saturating_sub(sum.ret_aliases.len());
                        set(&mut eff, at, s);
                    }
                    let offset = stm.pat.len().saturating_sub(sum.ret_aliases.len());
                    shared = sum.ret_shared.iter().map(|(i, j)| (i + offset, j + offset)).collect();
                }
            }
            Exp::If { then_body, else_body, .. } => {
                let t = self.body(then_body);
                let e = self.body(else_body);
                for (i, (a, b)) in t.results.into_iter().zip(e.results).enumerate() {
                    set(&mut eff, i, a.union(&b).copied().collect());
                }
                shared = t.shared.union(&e.shared).copied().collect();
                eff.consumed = t.consumed.into_iter().chain(e.consumed).collect();
            }
            Exp::Loop { params, body, .. } => shared = self.loop_(params, body, &mut eff),
            Exp::Soac(soac) => shared = self.soac(soac, &mut eff),
            // The results are fresh arrays.
            Exp::Ad { lambda, .. } => self.pure_lambda(lambda, &mut eff, "differentiated function"),
            Exp::BinOp(..)
            | Exp::CmpOp(..)
            | Exp::UnOp(..)
            | Exp::TernOp(..)
            | Exp::Conv(..)
            | Exp::Iota { .. }
            | Exp::Replicate { .. }
            | Exp::Scratch { .. }
            | Exp::Concat { .. }
            | Exp::Copy(_)
            | Exp::ArrayLit { .. }
            | Exp::Assert { .. }
            | Exp::UserParam { .. } => {}
        }
        // Results that share memory alias each other.
        for (i, j) in shared {
            let (Some(pi), Some(pj)) = (stm.pat.get(i), stm.pat.get(j)) else { continue };
            if pi.ty.rank() > 0 && pj.ty.rank() > 0 && i != j {
                eff.results[i].insert(pj.name);
                eff.results[j].insert(pi.name);
            }
        }
        for (r, p) in eff.results.iter_mut().zip(&stm.pat) {
            if p.ty.rank() == 0 {
                r.clear();
            }
        }
        eff
    }

    /// Reports every use of `others` (and every second consumption among
    /// `consumed`) that may share memory with a consumed variable.
    fn overlaps(&self, consumed: &[VName], others: &[VName], problems: &mut Vec<Problem>) {
        for (k, &c) in consumed.iter().enumerate() {
            let cs = self.closure(c);
            for &u in others.iter().chain(&consumed[k + 1..]) {
                if !self.closure(u).is_disjoint(&cs) {
                    problems.push(Problem::Overlap { consumed: c, used: u });
                }
            }
        }
    }

    /// A loop. Inside the body a parameter may share memory with its
    /// initial value and with the parameters whose values may share memory
    /// with it in the same iteration; a parameter the body consumes owns its
    /// memory, so what the body returns for it may only be the memory of
    /// parameters (which the body then consumes in a later iteration) or
    /// fresh. The loop consumes the initial values of the consumed
    /// parameters; its results may share memory with any initial value or
    /// free array that flows into them. Gives the pairs of results that
    /// share memory.
    fn loop_(&mut self, params: &[(Param, SubExp)], body: &Body, eff: &mut Effect) -> BTreeSet<(usize, usize)> {
        let n = params.len();
        let names: Vec<VName> = params.iter().map(|(p, _)| p.name).collect();
        let is_arr: Vec<bool> = params.iter().map(|(p, _)| p.ty.rank() > 0).collect();
        let position = |v: &VName| names.iter().position(|n| n == v);
        let outer = |s: &Names| -> Names { s.iter().filter(|v| position(v).is_none()).copied().collect() };
        let init: Vec<Names> =
            params.iter().zip(&is_arr).map(|((_, i), &a)| if a { self.se_closure(i) } else { Names::new() }).collect();
        // Parameters that may share memory in the same iteration.
        let mut siblings: BTreeSet<(usize, usize)> = BTreeSet::new();
        for i in 0..n {
            for j in i + 1..n {
                if is_arr[i] && is_arr[j] && !init[i].is_disjoint(&init[j]) {
                    siblings.insert((i, j));
                }
            }
        }
        let inside = |siblings: &BTreeSet<(usize, usize)>, i: usize| -> Names {
            let mut s = init[i].clone();
            for &(a, b) in siblings {
                if a == i {
                    s.insert(names[b]);
                } else if b == i {
                    s.insert(names[a]);
                }
            }
            s
        };
        let be = loop {
            for (i, (p, _)) in params.iter().enumerate() {
                self.bind(p, inside(&siblings, i));
            }
            let be = self.body(body);
            let before = siblings.len();
            siblings.extend(be.shared.iter().filter(|(i, j)| *j < n && is_arr[*i] && is_arr[*j]));
            if siblings.len() == before {
                break be;
            }
        };
        // What each parameter may hold over all iterations: its initial
        // value and what flows into it.
        let mut flows: Vec<Names> = init.clone();
        loop {
            let before = flows.clone();
            for (i, r) in be.results.iter().enumerate().take(n) {
                for v in r {
                    match position(v) {
                        Some(j) => {
                            let extra = outer(&before[j]);
                            flows[i].extend(extra);
                        }
                        None => {
                            flows[i].insert(*v);
                        }
                    }
                }
            }
            if flows == before {
                break;
            }
        }
        for (i, (p, _)) in params.iter().enumerate() {
            if is_arr[i] {
                eff.params.insert(p.name, inside(&siblings, i));
            }
        }
        // The parameters the body consumes, and those whose memory flows into them.
        let mut consumed_params: BTreeSet<usize> = BTreeSet::new();
        for (_, s) in &be.consumed {
            consumed_params.extend(s.iter().filter_map(position));
        }
        loop {
            let before = consumed_params.len();
            let flowing: Vec<usize> = consumed_params
                .iter()
                .filter_map(|&p| be.results.get(p))
                .flat_map(|r| r.iter().filter_map(position))
                .collect();
            consumed_params.extend(flowing);
            if consumed_params.len() == before {
                break;
            }
        }
        let allowed: Names = consumed_params.iter().flat_map(|&j| outer(&init[j])).collect();
        for (_, s) in &be.consumed {
            for v in outer(s) {
                if !allowed.contains(&v) {
                    eff.problems.push(Problem::FreeConsumed { var: v, inside: "loop body" });
                }
            }
        }
        for &j in &consumed_params {
            for v in be.results.get(j).map(outer).unwrap_or_default() {
                if !allowed.contains(&v) {
                    eff.problems.push(Problem::ConsumedParamGets { param: names[j], var: v });
                }
            }
            let s = outer(&init[j]);
            let v = params[j].1.as_var().filter(|v| s.contains(v)).or_else(|| s.iter().next().copied());
            if let Some(v) = v {
                eff.consumed.push((v, s));
            }
        }
        // The body may not use what an earlier iteration updated.
        for u in free_vars_body(body) {
            if position(&u).is_some() || self.get(u).is_none() {
                continue;
            }
            let cu = self.closure(u);
            if let Some(&j) = consumed_params.iter().find(|&&j| !cu.is_disjoint(&outer(&init[j]))) {
                let consumed = params[j].1.as_var().unwrap_or(names[j]);
                eff.problems.push(Problem::LoopUses { consumed, used: u });
            }
        }
        for i in 0..n {
            if is_arr[i] {
                eff.results[i] = outer(&flows[i]);
            }
        }
        siblings
    }

    /// Walks an operator: it may consume nothing it did not create.
    fn operator(&mut self, op: &Operator, eff: &mut Effect) {
        self.pure_lambda(&op.lambda, eff, "operator");
    }

    /// Walks a lambda that may consume neither its parameters nor its free
    /// variables (an operator, a differentiated function).
    fn pure_lambda(&mut self, lam: &Lambda, eff: &mut Effect, inside: &'static str) {
        for p in &lam.params {
            self.bind(p, Names::new());
        }
        let be = self.body(&lam.body);
        for (_, s) in be.consumed {
            for v in s {
                if let Some(p) = lam.params.iter().find(|p| p.name == v) {
                    eff.problems.push(Problem::OperatorConsumes { param: p.name });
                } else {
                    eff.problems.push(Problem::FreeConsumed { var: v, inside });
                }
            }
        }
    }

    /// Walks a map lambda whose parameters are rows of `arrs`; gives the
    /// indices of the inputs whose rows it consumes.
    fn map_lambda(&mut self, map: &Lambda, arrs: &[VName], eff: &mut Effect) -> BTreeSet<usize> {
        let rows: Vec<Names> = arrs.iter().map(|a| self.closure(*a)).collect();
        for (i, p) in map.params.iter().enumerate() {
            let a = rows.get(i).cloned().unwrap_or_default();
            if p.ty.rank() > 0 {
                eff.params.insert(p.name, a.clone());
            }
            self.bind(p, a);
        }
        let be = self.body(&map.body);
        let position = |v: &VName| map.params.iter().position(|p| p.name == *v);
        let mut consumed = BTreeSet::new();
        for (_, s) in &be.consumed {
            let ps: Vec<usize> = s.iter().filter_map(position).collect();
            let allowed: Names = ps.iter().filter_map(|&i| rows.get(i)).flatten().copied().collect();
            for &v in s {
                if position(&v).is_none() && !allowed.contains(&v) {
                    eff.problems.push(Problem::FreeConsumed { var: v, inside: "lambda" });
                }
            }
            consumed.extend(ps.into_iter().filter(|&i| i < arrs.len()));
        }
        consumed
    }

    fn soac(&mut self, soac: &Soac, eff: &mut Effect) -> BTreeSet<(usize, usize)> {
        let mut shared = BTreeSet::new();
        // A withacc's lambda takes its accumulators (whole) before the rows.
        let with_accs: Vec<VName>;
        let (arrs, map, ops, dests): (&[VName], &Lambda, Vec<&Operator>, Vec<VName>) = match soac {
            Soac::Screma { arrs, scans, reduces, map, .. } => {
                (arrs, map, scans.iter().chain(reduces).collect(), vec![])
            }
            Soac::Hist { arrs, ops, map, .. } => {
                (arrs, map, ops.iter().map(|o| &o.op).collect(), ops.iter().flat_map(|o| o.dests.clone()).collect())
            }
            Soac::Scatter { arrs, dests, map, .. } => (arrs, map, vec![], dests.clone()),
            Soac::WithAcc { arrs, accs, map, .. } => {
                with_accs = accs.iter().chain(arrs).copied().collect();
                (&with_accs, map, vec![], accs.clone())
            }
        };
        for op in &ops {
            self.operator(op, eff);
        }
        let consumed_rows = self.map_lambda(map, arrs, eff);
        let mut consumed: Vec<VName> = dests.clone();
        // (A withacc's accumulators are both destinations and inputs.)
        consumed.extend(consumed_rows.iter().map(|&i| arrs[i]).filter(|a| !dests.contains(a)));
        // A withacc's accumulators are consumed (they are its destinations)
        // also where its function returns one untouched.
        let n_accs = if let Soac::WithAcc { accs, .. } = soac { accs.len() } else { 0 };
        let mut others: Vec<VName> = arrs
            .iter()
            .enumerate()
            .filter(|(i, _)| *i >= n_accs && !consumed_rows.contains(i))
            .map(|(_, a)| *a)
            .collect();
        others.extend(ops.iter().flat_map(|op| op.neutral.iter().filter_map(|n| n.as_var())));
        let mut lambda_free = Names::new();
        for lam in ops.iter().map(|op| &op.lambda).chain([map]) {
            lambda_free.extend(free_vars_lambda(lam).into_iter().filter(|v| self.get(*v).is_some()));
        }
        others.extend(lambda_free.iter().copied());
        others.retain(|v| self.get(*v).is_some());
        self.overlaps(&consumed, &others, &mut eff.problems);
        for &c in &consumed {
            eff.consumed.push((c, self.closure(c)));
        }
        match soac {
            Soac::Screma { scans, reduces, .. } => {
                let n_scan: usize = scans.iter().map(|o| o.neutral.len()).sum();
                let n_red: usize = reduces.iter().map(|o| o.neutral.len()).sum();
                // A reduction's array result may be its neutral element, a
                // row of an input, or an array its lambdas use.
                let mut maybe: Names = arrs.iter().flat_map(|a| self.closure(*a)).collect();
                maybe.extend(reduces.iter().flat_map(|o| o.neutral.iter().flat_map(|n| self.se_closure(n))));
                maybe.extend(lambda_free.iter().flat_map(|v| self.closure(*v)));
                let reds: Vec<usize> = (n_scan..n_scan + n_red).collect();
                for &i in &reds {
                    if let Some(r) = eff.results.get_mut(i) {
                        *r = maybe.clone();
                    }
                    for &j in &reds {
                        if i < j {
                            shared.insert((i, j));
                        }
                    }
                }
            }
            Soac::Hist { .. } | Soac::Scatter { .. } | Soac::WithAcc { .. } => {
                for (i, d) in dests.iter().enumerate() {
                    if let Some(r) = eff.results.get_mut(i) {
                        *r = self.closure(*d);
                    }
                }
                shared = pairs(&eff.results);
            }
        }
        shared
    }
}

/// The pairs of sets that meet.
fn pairs(sets: &[Names]) -> BTreeSet<(usize, usize)> {
    let mut out = BTreeSet::new();
    for i in 0..sets.len() {
        for j in i + 1..sets.len() {
            if !sets[i].is_disjoint(&sets[j]) {
                out.insert((i, j));
            }
        }
    }
    out
}
