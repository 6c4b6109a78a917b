//! Lane interchange: a sequential loop whose body works lane by lane on
//! narrow arrays runs as a map over ranges of lanes, each range running
//! the whole loop.
//!
//! A recurrence such as the D-LSTM's
//!
//! ```text
//! loop (hs, cs, total) for t < n do
//!   let (hs', cs', y) = … maps of width b over hs, cs, seq[t] …
//!   in (hs', cs', total + loss y)
//! ```
//!
//! runs its maps of width `b` (14 for ADBench's) once per step: too narrow
//! to share among threads, so the whole loop runs on one. But lane `j` of
//! every state depends only on lane `j` before: the loop is a map over the
//! lanes of loops. This pass rewrites it as that map, over as many ranges
//! of lanes as there are threads ([`Target::threads`]; it does nothing for
//! one), each range stepping its lanes together, so that every thread runs
//! the recurrence for its own lanes (with the range's maps still wide
//! enough to keep several elementary functions in flight):
//!
//! ```text
//! let parts = map(nr, iota nr, \r ->          -- w = b / nr
//!     let lo = r * w
//!     loop (hs, cs) = (copy hs0[:, lo:lo+w], …) for t < n do …   -- width w
//!     in (hs, …))
//! let hs = copy (reshape [l][b] (rearrange [1, 0, 2] parts))   -- each result
//! ```
//!
//! **Lanes.** The analysis gives every variable of the loop a class: `Inv`
//! (the same in every lane: scalars, free arrays, anything computed from
//! them only), `Lane(k)` (an array whose axis `k`, of size `b`, holds one
//! value per lane, each computed from that lane's values only), or `Mixed`
//! (anything else: a reduction over the lanes, a lane read at an index).
//! A `map` of width `b` whose inputs are `Lane(0)` or `Inv` (even all
//! `Inv`) and whose function captures only `Inv` values gives `Lane(0)`;
//! so does a `withacc` of width `b`, whose accumulators (reverse mode's
//! saved values and the adjoints of free arrays) are updated element by
//! element at the lane's own index (the element of an `iota b` input) on
//! one axis `k`, each giving `Lane(k)`;
//! a `map` of another width over rows of `Lane(k)` arrays (`k > 0`) has
//! rows with lanes on axis `k - 1` and gives `Lane(j + 1)` for a
//! `Lane(j)` result; indexing and in-place updates (and additions) of a
//! `Lane(k)` array at `Inv` indices before axis `k` keep the lane axis,
//! and an `Inv` array (zeros) given a row of lanes becomes lanes; loops
//! and branches join their parameters' classes to a fixed point. In a
//! range, a `Lane(k)` value has width `w` on axis `k`, and an `Inv` array
//! read as lanes (a map's input, an update's value, a loop's initial
//! value) is sliced to the range's lanes (a scratch array is a scratch
//! array of the range's width instead; a `withacc`'s lane index counts
//! the range's lanes). `Inv` statements run in every
//! range, so they may not be SOACs or calls (a `partition`'s scan over
//! all lanes in the loop would run again per range, on one thread), with
//! one way out: such a statement that reads no value the loop changes
//! (only the counter, parameters passed on unchanged and values from
//! outside) runs before the loop, for all the iterations at once, in a map
//! over them whose stacked results the loop reads (reverse mode's
//! softmax per step in the D-LSTM's return sweep). Otherwise only
//! scalar work and indexing.
//!
//! **The lanes' mixture.** A carried value that mixes the lanes without
//! feeding the lanes back (the LSTM's loss) is computed by a second loop
//! after the first, which stacks, per iteration, the lane values the
//! mixture reads (`[n][b]` each) for it. The stacks cost memory
//! proportional to the loop's length, as reverse mode's checkpoints of the
//! same loop do (bounded below). The mixture's statements then run after
//! all the iterations of the lanes' statements: of two run-time errors,
//! one in each, the lanes' may be reported where the loop as written
//! reported the mixture's.
//!
//! The ranges: `nr` is the largest divisor of `b` no greater than the
//! threads, so that every range has the same width `w = b / nr`. The
//! rewritten loop runs only where the ranges occupy at least half the
//! threads (or each lane has a range of its own) and the stacks take at
//! most [`MAX_STACK_BYTES`] (a run-time test); otherwise the loop as written runs, whose maps share
//! their lanes among the threads in every iteration (a prime `b` of a
//! million lanes keeps its parallel maps).
//!
//! The rewrite applies to a `for` loop outside every SOAC (in a function's
//! body, a branch or an outer loop), tried outermost first; calls in its
//! body are inlined first. It needs at least one `Lane` parameter and every
//! statement of the loop either free of `Mixed` values or wholly `Mixed`.
//! Every element is computed by the same scalar operations in the same
//! order, so results do not change (bit for bit: the D-LSTM's objective).
//!
//! Not inside `jvp` and `vjp` (`Ad` lambdas): the pass runs twice,
//! before `ad` for the loops the program wrote and after it (and after
//! fusion) for the loops `ad` made of them, the forward sweep that saves
//! its values in place and the return sweep. Each range runs every
//! statement of the loop on its lanes, so a statement's fixed cost (the C
//! backend's allocation, views, checks and kernel call) is paid once per
//! range: the objective's loop has few statements per elementary
//! function and runs 1.8 times as fast on two threads, but the D-LSTM's
//! gradient has many more (the adjoints, their accumulation, the saved
//! values): on two threads its rewritten sweeps do 1.36 times the
//! sequential work, and the gradient runs 1.48 times as fast as the
//! sequential one (see `benchmarks/README.md`).
//!
//! **Shared stacks.** A stack (a parameter starting as a scratch array,
//! reverse mode's saved values or the mixture's stacks) that the loop only
//! ever overwrites ([`follow`]: in-place updates proven in bounds,
//! overwriting `updacc`s, through inner loops and `withacc`s) is not a
//! stack per range, copied into the map's result at the range's end: one
//! array `[nr]…[w]…` holds every range's part, the accumulator of a
//! `withacc` over the ranges (the map made one), and each update writes
//! the range's own part (`updacc s[r, …]`, direct writes in parallel).
//! The part is the range's own, first axis `r`: the stack in its final
//! layout `[…][b]`, each range writing its lanes there (with the range
//! index as the lane's offset) made the two threads write the same cache
//! lines in every step (a row of 14 doubles has its 7th and 8th in one
//! line), and its first loop took three times as long on two threads as
//! on one; with lanes first (`[b][…]`, a view of the final layout) each
//! step wrote 84 lines as far apart as a lane's values (131 KB), slower
//! still. Not in a function that `ad` may still differentiate (one
//! holding a `jvp` or `vjp`, or called from one's function): `ad` has no
//! rule for `withacc`.
//!
//! **Parts read where they are.** Every stack on a lane axis after the
//! first (lanes first, it is a view of its parts) leaves the rewritten
//! loop's `if` as its parts (the loop as written cuts its stacks into
//! parts, a copy on that path only) and is put side by side after it
//! ([`Reassembly`]). A later loop over the same lanes that reads such a
//! stack takes the earlier loop's split, and each of its ranges reads its
//! lanes of a row of the stack (`stack[i, …][lo:lo+w]`) from its own part
//! (`parts[r, i, …]`, [`Rewrite::own_part`]): the D-LSTM's return sweep
//! reads the forward sweep's saved values so. Where then only the later
//! loop's fallback reads the stack, the statements putting it side by
//! side move into that branch ([`sink_reassemblies`]): the 22 MB of saved
//! values the gradient copied per run are no longer copied.
//!
//! A `for` loop marked `#[sequential]` is left alone (the run-time test's
//! fallback is marked so).

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;

use crate::ad::collect_types_body;
use crate::fuse::may_consume;
use crate::inline::{collect_binders, fresh_like, inline_body, rename_binders};
use crate::Target;
use ogham_ir::visit::{free_vars_exp, free_vars_lambda, recursive_functions, rename_uses, type_vars};
use ogham_ir::{
    BinOp, Body, CmpOp, DimIndex, Exp, Lambda, LoopForm, NameTable, Param, PrimType, Program, Soac, Span, Stm,
    StmAttrs, SubExp, Type, VName,
};

/// The most memory the stacks of one rewritten loop may take (see the
/// module doc): 64 MiB.
pub const MAX_STACK_BYTES: i64 = 1 << 26;

/// Rewrites every loop that works lane by lane (see the module doc).
pub fn lanes_program(prog: &mut Program, target: &Target) {
    if target.threads < 2 {
        return;
    }
    let recursive = recursive_functions(prog);
    let leaves: HashMap<String, usize> = prog
        .funs
        .iter()
        .enumerate()
        .filter(|(_, f)| !recursive.contains(&f.name))
        .map(|(k, f)| (f.name.clone(), k))
        .collect();
    // `ad` does not differentiate `withacc`s yet: in a function that a
    // `jvp` or `vjp` calls, or one holding one (its loops may be inlined
    // into it), every range keeps stacks of its own.
    let differentiated = differentiated(prog);
    for fi in 0..prog.funs.len() {
        let mut body = prog.funs[fi].body.clone();
        let mut types: HashMap<VName, Type> = prog.funs[fi].params.iter().map(|p| (p.name, p.ty.clone())).collect();
        collect_types_body(&body, &mut types);
        let mut leaves = leaves.clone();
        leaves.remove(&prog.funs[fi].name);
        let mut fun = Fun {
            leaves,
            types,
            iotas: HashMap::default(),
            scratches: BTreeSet::new(),
            threads: target.threads,
            share: !differentiated.contains(&prog.funs[fi].name),
            reassembled: HashMap::default(),
        };
        collect_made(&body, &mut fun);
        if walk(&mut body, prog, &mut fun) {
            prog.funs[fi].body = body;
        }
    }
}

/// What the rewrite needs to know of the function it works in.
struct Fun {
    /// The functions that may be inlined into a loop (not this one).
    leaves: HashMap<String, usize>,
    /// The types of the function's variables.
    types: HashMap<VName, Type>,
    /// Its `iota n` arrays (from 0 by 1), with their `n`.
    iotas: HashMap<VName, SubExp>,
    /// Its scratch arrays (a range's part of one is a scratch array of its
    /// own, not a copy).
    scratches: BTreeSet<VName>,
    threads: i64,
    /// Whether stacks may be shared by the ranges (see the module doc).
    share: bool,
    /// The stacks of the loops rewritten so far, put side by side after
    /// their `if`, by the name they have there.
    reassembled: HashMap<VName, Reassembly>,
}

/// A rewritten loop's stack put side by side from its ranges' parts after
/// the loop's `if` (see the module doc): what a later loop split the same
/// way reads per range instead.
#[derive(Clone, Debug)]
struct Reassembly {
    /// The parts, `[nr]…[w]…`, bound by the `if`.
    parts: VName,
    /// The lane axis of the stack.
    k: usize,
    b: SubExp,
    nr: SubExp,
    w: SubExp,
    /// The statements putting the parts side by side, by what they bind
    /// (the last binds the stack).
    stms: [VName; 3],
}

/// The functions `ad` may differentiate: those that hold a `jvp` or
/// `vjp`, and those the lambdas of one call, directly or not.
fn differentiated(prog: &Program) -> BTreeSet<String> {
    fn ads(stms: &[Stm], holds: &mut bool, calls: &mut BTreeSet<String>) {
        for s in stms {
            if let Exp::Ad { .. } = &s.exp {
                *holds = true;
                for l in ogham_ir::visit::lambdas(&s.exp) {
                    ogham_ir::visit::collect_calls(&l.body.stms, calls);
                }
            }
            for b in ogham_ir::visit::bodies(&s.exp) {
                ads(&b.stms, holds, calls);
            }
            for l in ogham_ir::visit::lambdas(&s.exp) {
                ads(&l.body.stms, holds, calls);
            }
        }
    }
    let graph = ogham_ir::visit::call_graph(prog);
    let mut out = BTreeSet::new();
    let mut todo = Vec::new();
    for f in &prog.funs {
        let (mut holds, mut calls) = (false, BTreeSet::new());
        ads(&f.body.stms, &mut holds, &mut calls);
        if holds {
            out.insert(f.name.clone());
        }
        todo.extend(calls);
    }
    while let Some(f) = todo.pop() {
        if out.insert(f.clone()) {
            todo.extend(graph.get(&f).into_iter().flatten().cloned());
        }
    }
    out
}

/// Records every `iota n` (from 0 by 1) of `body`, at any depth, and every
/// scratch array.
fn collect_made(body: &Body, fun: &mut Fun) {
    for stm in &body.stms {
        match (&stm.exp, &stm.pat[..]) {
            (Exp::Iota { n, start, step, .. }, [p]) if *start == SubExp::i64(0) && *step == SubExp::i64(1) => {
                fun.iotas.insert(p.name, *n);
            }
            (Exp::Scratch { .. }, [p]) => {
                fun.scratches.insert(p.name);
            }
            _ => {}
        }
        for b in ogham_ir::visit::bodies(&stm.exp) {
            collect_made(b, fun);
        }
        for l in ogham_ir::visit::lambdas(&stm.exp) {
            collect_made(&l.body, fun);
        }
    }
}

/// Tries every `for` loop of `body` outside SOACs, outermost first.
fn walk(body: &mut Body, prog: &mut Program, fun: &mut Fun) -> bool {
    let mut changed = false;
    let mut out = Vec::with_capacity(body.stms.len());
    for mut stm in std::mem::take(&mut body.stms) {
        if matches!(&stm.exp, Exp::Loop { form: LoopForm::For { .. }, .. }) && !stm.attrs.sequential {
            if let Some(stms) = rewrite_loop(&stm, prog, fun) {
                out.extend(stms);
                changed = true;
                continue;
            }
        }
        match &mut stm.exp {
            Exp::Loop { body, .. } => changed |= walk(body, prog, fun),
            Exp::If { then_body, else_body, .. } => {
                changed |= walk(then_body, prog, fun);
                changed |= walk(else_body, prog, fun);
            }
            _ => {}
        }
        out.push(stm);
    }
    body.stms = out;
    if changed {
        sink_reassemblies(body, fun);
    }
    changed
}

/// Moves the statements putting a stack's parts side by side into the
/// one branch of the one `if` that reads the stack, if there is one: the
/// fallback of a later loop that reads the parts instead (the D-LSTM's
/// return sweep), so that the copy is made only where that loop runs as
/// written.
fn sink_reassemblies(body: &mut Body, fun: &Fun) {
    // Free variables once per statement (the rewritten loops' `if`s are
    // large), then the moves, by the name of the `if`'s first binder.
    let free: Vec<BTreeSet<VName>> = body.stms.iter().map(|s| free_vars_exp(&s.exp)).collect();
    let mut branches: HashMap<usize, (BTreeSet<VName>, BTreeSet<VName>)> = HashMap::default();
    let mut all: Vec<&Reassembly> = fun.reassembled.values().collect();
    all.sort_by_key(|r| std::cmp::Reverse(r.stms[2]));
    let mut moves: Vec<(BTreeSet<VName>, VName, bool)> = Vec::new();
    for r in all {
        let stack = r.stms[2];
        let Some(at) = body.stms.iter().position(|s| s.pat.iter().any(|p| p.name == stack)) else { continue };
        if body.result.iter().any(|x| x.as_var() == Some(stack)) {
            continue;
        }
        let users: Vec<usize> = (0..body.stms.len()).filter(|&u| free[u].contains(&stack)).collect();
        let [u] = users[..] else { continue };
        let Exp::If { cond, then_body, else_body } = &body.stms[u].exp else { continue };
        let (then_free, else_free) = branches.entry(u).or_insert_with(|| {
            (ogham_ir::visit::free_vars_body(then_body), ogham_ir::visit::free_vars_body(else_body))
        });
        let (in_then, in_else) = (then_free.contains(&stack), else_free.contains(&stack));
        let Some(key) = body.stms[u].pat.first().map(|p| p.name) else { continue };
        if u < at || cond.as_var() == Some(stack) || in_then == in_else {
            continue;
        }
        moves.push((r.stms.iter().copied().collect(), key, in_then));
    }
    for (chain, key, in_then) in moves {
        let mut moved = Vec::new();
        let mut k = 0;
        while k < body.stms.len() {
            let s = &body.stms[k];
            let reshaping = matches!(s.exp, Exp::Rearrange { .. } | Exp::Copy(_) | Exp::Reshape { .. });
            if reshaping && s.pat.iter().any(|p| chain.contains(&p.name)) {
                moved.push(body.stms.remove(k));
            } else {
                k += 1;
            }
        }
        let Some(u) = body.stms.iter().position(|s| s.pat.first().map(|p| p.name) == Some(key)) else { return };
        let Exp::If { then_body, else_body, .. } = &mut body.stms[u].exp else { return };
        let branch = if in_then { then_body } else { else_body };
        moved.append(&mut branch.stms);
        branch.stms = moved;
    }
}

/// A variable's relation to the lanes (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Inv,
    Lane(usize),
    Mixed,
}

/// The classes of a loop's variables (a variable not in it, bound
/// outside the loop, is `Inv`).
#[derive(Default)]
struct Classes(HashMap<VName, Class>);

impl Classes {
    fn of(&self, v: VName) -> Class {
        self.0.get(&v).copied().unwrap_or(Class::Inv)
    }

    fn of_se(&self, s: &SubExp) -> Class {
        s.as_var().map_or(Class::Inv, |v| self.of(v))
    }

    fn insert(&mut self, v: VName, c: Class) {
        self.0.insert(v, c);
    }
}

/// The analysis of one loop, for lanes of width `b`.
struct Lanes<'a> {
    b: SubExp,
    class: Classes,
    fun: &'a Fun,
}

impl Lanes<'_> {
    fn of(&self, v: VName) -> Class {
        self.class.of(v)
    }

    fn of_se(&self, s: &SubExp) -> Class {
        self.class.of_se(s)
    }

    /// Whether `ty` has `b` on axis `k`.
    fn lane_axis(&self, ty: &Type, k: usize) -> bool {
        ty.shape().get(k) == Some(&self.b)
    }

    /// The class of a value that is `a` on some paths and `c` on others.
    fn join(&self, a: Class, c: Class, ty: &Type) -> Class {
        match (a, c) {
            _ if a == c => a,
            (Class::Inv, Class::Lane(k)) | (Class::Lane(k), Class::Inv) if self.lane_axis(ty, k) => Class::Lane(k),
            _ => Class::Mixed,
        }
    }

    /// The lane axis of `array[slice]` for a `Lane(k)` array: the slice's
    /// fixed indices before `k` removed; `None` if the slice picks lanes.
    fn sliced_axis(&self, k: usize, slice: &[DimIndex]) -> Option<usize> {
        if let Some(d) = slice.get(k) {
            match d {
                DimIndex::Slice { start, len, stride }
                    if *start == SubExp::i64(0) && *len == self.b && *stride == SubExp::i64(1) => {}
                _ => return None,
            }
        }
        Some(k - slice.iter().take(k).filter(|d| matches!(d, DimIndex::Fix(_))).count())
    }

    fn body(&mut self, body: &Body) -> Vec<Class> {
        for stm in &body.stms {
            let classes = self.stm(stm);
            for (p, c) in stm.pat.iter().zip(classes) {
                self.class.insert(p.name, c);
            }
        }
        body.result.iter().map(|r| self.of_se(r)).collect()
    }

    /// The classes of a loop's parameters (and results), starting from
    /// `seed` and joined with the body's results to a fixed point.
    fn loop_classes(
        &mut self,
        params: &[(Param, SubExp)],
        form: &LoopForm,
        body: &Body,
        seed: Vec<Class>,
    ) -> Vec<Class> {
        let all = |c| vec![c; params.len()];
        if let LoopForm::For { i, bound } = form {
            if self.of_se(bound) != Class::Inv {
                return all(Class::Mixed);
            }
            self.class.insert(*i, Class::Inv);
        }
        let mut pc = seed;
        for (c, (p, _)) in pc.iter_mut().zip(params) {
            if matches!(c, Class::Lane(k) if !self.lane_axis(&p.ty, *k)) {
                *c = Class::Mixed;
            }
        }
        loop {
            for ((p, _), c) in params.iter().zip(&pc) {
                self.class.insert(p.name, *c);
            }
            let rc = self.body(body);
            let next: Vec<Class> =
                pc.iter().zip(rc).zip(params).map(|((a, c), (p, _))| self.join(*a, c, &p.ty)).collect();
            if next == pc {
                break;
            }
            pc = next;
        }
        if let LoopForm::While { cond } = form {
            if self.of(*cond) != Class::Inv {
                return all(Class::Mixed);
            }
        }
        pc
    }

    /// A `withacc` of the lanes' width: lanes like a map of that width
    /// (inputs `Inv` or `Lane(0)`, only `Inv` values captured), where every
    /// accumulator is updated element by element at the lane's own index
    /// on one axis (reverse mode's adjoints of free arrays and its saved
    /// values), from an `iota b` input whose element serves as nothing
    /// else. Each accumulator's result has its lanes on that axis, the
    /// mapped results on axis 0.
    fn withacc(&self, arrs: &[VName], accs: &[VName], map: &Lambda) -> Option<Vec<Class>> {
        if free_vars_lambda(map).into_iter().any(|v| self.of(v) != Class::Inv)
            || !arrs.iter().all(|a| matches!(self.of(*a), Class::Inv | Class::Lane(0)))
        {
            return None;
        }
        let rows = map.params.get(accs.len()..)?;
        let index: BTreeSet<VName> = arrs
            .iter()
            .zip(rows)
            .filter(|(a, _)| self.fun.iotas.get(a) == Some(&self.b))
            .map(|(_, p)| p.name)
            .collect();
        let mut out = Vec::with_capacity(accs.len() + map.ret.len());
        for (pos, a) in accs.iter().enumerate() {
            let k = acc_lane_axis(map, pos, &index)?;
            if !self.lane_axis(self.fun.types.get(a)?, k) || !matches!(self.of(*a), Class::Inv | Class::Lane(_)) {
                return None;
            }
            if matches!(self.of(*a), Class::Lane(j) if j != k) {
                return None;
            }
            out.push(Class::Lane(k));
        }
        // The lane index serves only as the updates' lane component.
        for s in &map.body.stms {
            let used = match &s.exp {
                Exp::UpdAcc { slice, value, .. } => {
                    let mut v: BTreeSet<VName> = value.as_var().into_iter().collect();
                    for d in slice {
                        if let DimIndex::Fix(SubExp::Var(x)) = d {
                            if !index.contains(x) {
                                v.insert(*x);
                            }
                        }
                    }
                    v
                }
                e => free_vars_exp(e),
            };
            if used.iter().any(|v| index.contains(v)) {
                return None;
            }
        }
        if map.body.result.iter().any(|r| r.as_var().is_some_and(|v| index.contains(&v))) {
            return None;
        }
        out.extend(std::iter::repeat_n(Class::Lane(0), map.ret.len() - accs.len()));
        Some(out)
    }

    fn stm(&mut self, stm: &Stm) -> Vec<Class> {
        let all = |c| vec![c; stm.pat.len()];
        // A map of the lanes' width is lanes even when it reads only `Inv`
        // arrays (the sequence's row scaled per step): each range maps its
        // own lanes.
        if let Exp::Soac(Soac::Screma { w, arrs, scans, reduces, map }) = &stm.exp {
            if scans.is_empty() && reduces.is_empty() && *w == self.b {
                let own = free_vars_lambda(map).into_iter().all(|v| self.of(v) == Class::Inv);
                let rows = arrs.iter().all(|a| matches!(self.of(*a), Class::Inv | Class::Lane(0)));
                return all(if own && rows { Class::Lane(0) } else { Class::Mixed });
            }
        }
        if let Exp::Soac(Soac::WithAcc { w, arrs, accs, map }) = &stm.exp {
            if *w == self.b {
                return self.withacc(arrs, accs, map).unwrap_or_else(|| all(Class::Mixed));
            }
        }
        let mut lane = false;
        for v in free_vars_exp(&stm.exp) {
            match self.of(v) {
                Class::Mixed => return all(Class::Mixed),
                Class::Lane(_) => lane = true,
                Class::Inv => {}
            }
        }
        if !lane {
            return all(Class::Inv);
        }
        match &stm.exp {
            Exp::SubExp(SubExp::Var(v)) | Exp::Copy(v) => all(self.of(*v)),
            Exp::Index { array, slice } => match self.of(*array) {
                Class::Lane(k) => all(self.sliced_axis(k, slice).map_or(Class::Mixed, Class::Lane)),
                _ => all(Class::Mixed),
            },
            Exp::Update { array, slice, value } | Exp::UpdAcc { acc: array, slice, value, .. } => {
                let k = match (self.of(*array), value.as_var().map(|v| self.of(v))) {
                    (Class::Lane(k), _) => k,
                    // An `Inv` array (zeros, say) given a row of lanes: its
                    // lanes are the dimension that row goes to.
                    (Class::Inv, Some(Class::Lane(j))) => {
                        let rank = self.fun.types.get(array).map_or(0, |t| t.rank());
                        let free = (0..rank).filter(|&d| !matches!(slice.get(d), Some(DimIndex::Fix(_))));
                        match free.clone().nth(j) {
                            Some(k) if self.fun.types.get(array).is_some_and(|t| self.lane_axis(t, k)) => k,
                            _ => return all(Class::Mixed),
                        }
                    }
                    _ => return all(Class::Mixed),
                };
                let Some(kv) = self.sliced_axis(k, slice) else { return all(Class::Mixed) };
                let ok = match value {
                    SubExp::Var(v) => match self.of(*v) {
                        Class::Lane(j) => j == kv,
                        Class::Inv => self.fun.types.get(v).is_some_and(|t| self.lane_axis(t, kv)),
                        Class::Mixed => false,
                    },
                    SubExp::Const(_) => false,
                };
                all(if ok { Class::Lane(k) } else { Class::Mixed })
            }
            // A map over something else (rows of lanes): its rows of a
            // `Lane(k)` array have the lanes on axis `k - 1`.
            Exp::Soac(Soac::Screma { arrs, scans, reduces, map, .. }) if scans.is_empty() && reduces.is_empty() => {
                if free_vars_lambda(map).into_iter().any(|v| self.of(v) != Class::Inv) {
                    return all(Class::Mixed);
                }
                for (a, p) in arrs.iter().zip(&map.params) {
                    let c = match self.of(*a) {
                        Class::Lane(k) if k > 0 => Class::Lane(k - 1),
                        Class::Inv => Class::Inv,
                        _ => return all(Class::Mixed),
                    };
                    self.class.insert(p.name, c);
                }
                let rc = self.body(&map.body);
                rc.into_iter()
                    .map(|c| match c {
                        Class::Lane(j) => Class::Lane(j + 1),
                        c => c,
                    })
                    .collect()
            }
            Exp::Loop { params, form, body } => {
                let seed: Vec<Class> = params.iter().map(|(_, init)| self.of_se(init)).collect();
                self.loop_classes(params, form, body, seed)
            }
            Exp::If { cond, then_body, else_body } => {
                if self.of_se(cond) != Class::Inv {
                    return all(Class::Mixed);
                }
                let t = self.body(then_body);
                let e = self.body(else_body);
                t.into_iter().zip(e).zip(&stm.pat).map(|((a, c), p)| self.join(a, c, &p.ty)).collect()
            }
            _ => all(Class::Mixed),
        }
    }
}

/// Rewrites one `for` loop statement (see the module doc), or `None`
/// where it does not work lane by lane.
fn rewrite_loop(stm: &Stm, prog: &mut Program, fun: &mut Fun) -> Option<Vec<Stm>> {
    let mut stm = stm.clone();
    if let Exp::Loop { body, .. } = &mut stm.exp {
        for _ in 0..16 {
            if !inline_body(body, prog, &fun.leaves) {
                break;
            }
        }
        collect_types_body(body, &mut fun.types);
        collect_made(body, fun);
    }
    let Exp::Loop { params, form, body } = &stm.exp else { return None };
    for (p, _) in params {
        fun.types.insert(p.name, p.ty.clone());
    }
    // A parameter sized by another (an array whose rows change size) is
    // not narrowed.
    let names: BTreeSet<VName> = params.iter().map(|(p, _)| p.name).collect();
    if params.iter().any(|(p, _)| type_vars(&p.ty).any(|v| names.contains(&v))) {
        return None;
    }
    // The lanes' width is known before the loop.
    let mut inside = Vec::new();
    collect_binders(&Body { stms: vec![stm.clone()], result: vec![] }, &mut inside);
    let inside: BTreeSet<VName> = inside.into_iter().collect();
    for b in widths(body).into_iter().filter(|w| w.as_var().is_none_or(|v| !inside.contains(&v))) {
        // A parameter with one axis of width `b` starts as that axis's lanes.
        let seed: Vec<Class> = params
            .iter()
            .map(|(p, _)| {
                let axes: Vec<usize> = (0..p.ty.rank()).filter(|&k| p.ty.shape()[k] == b).collect();
                match axes[..] {
                    [k] => Class::Lane(k),
                    [] => Class::Inv,
                    _ => Class::Mixed,
                }
            })
            .collect();
        let mut lanes = Lanes { b, class: Classes::default(), fun: &*fun };
        let pc = lanes.loop_classes(params, form, body, seed);
        if !pc.iter().any(|c| matches!(c, Class::Lane(_))) {
            continue;
        }
        let class = lanes.class;
        let rewrite = Rewrite {
            b,
            class,
            fun: &*fun,
            names: &mut prog.names,
            span: stm.span,
            scratch: BTreeSet::new(),
            wide: BTreeSet::new(),
            range: (SubExp::i64(0), SubExp::i64(1)),
            derived: HashMap::default(),
        };
        if let Some((stms, made)) = rewrite.run(&stm, &pc) {
            fun.reassembled.extend(made);
            return Some(stms);
        }
    }
    None
}

/// The widths of the plain maps and `withacc`s in `body` (outside lambdas),
/// in order.
fn widths(body: &Body) -> Vec<SubExp> {
    fn go(body: &Body, out: &mut Vec<SubExp>) {
        for stm in &body.stms {
            match &stm.exp {
                Exp::Soac(Soac::Screma { w, scans, reduces, .. })
                    if scans.is_empty() && reduces.is_empty() && !out.contains(w) =>
                {
                    out.push(*w)
                }
                Exp::Soac(Soac::WithAcc { w, .. }) if !out.contains(w) => out.push(*w),
                _ => {}
            }
            for b in ogham_ir::visit::bodies(&stm.exp) {
                go(b, out);
            }
        }
    }
    let mut out = Vec::new();
    go(body, &mut out);
    out.retain(|w| *w != SubExp::i64(0) && *w != SubExp::i64(1));
    out
}

/// The axis on which the accumulator `acc` of a `withacc`'s function
/// (`body`) is updated at a lane's own index (an element of `index`), if
/// it is only that: each update of the accumulator (and of what each
/// update returns) a whole element at constant or captured indices but
/// one, the lane index, always on the same axis; the last one returned.
fn acc_lane_axis(map: &Lambda, pos: usize, index: &BTreeSet<VName>) -> Option<usize> {
    let body = &map.body;
    let acc = map.params.get(pos)?.name;
    let local: BTreeSet<VName> = {
        let mut v: Vec<VName> = map.params.iter().map(|p| p.name).collect();
        collect_binders(body, &mut v);
        v.into_iter().collect()
    };
    let mut cur = acc;
    let mut axis = None;
    for s in &body.stms {
        match &s.exp {
            Exp::UpdAcc { acc: a, slice, .. } if *a == cur => {
                let mut k = None;
                for (d, ix) in slice.iter().enumerate() {
                    match ix {
                        DimIndex::Fix(SubExp::Var(x)) if index.contains(x) => {
                            if k.replace(d).is_some() {
                                return None;
                            }
                        }
                        DimIndex::Fix(SubExp::Var(x)) if local.contains(x) || index.contains(x) => return None,
                        DimIndex::Fix(_) => {}
                        DimIndex::Slice { .. } => return None,
                    }
                }
                let k = k?;
                if axis.replace(k).is_some_and(|a| a != k) {
                    return None;
                }
                cur = s.pat.first()?.name;
            }
            e => {
                if free_vars_exp(e).contains(&cur) {
                    return None;
                }
            }
        }
    }
    let uses = body.result.iter().filter(|r| r.as_var() == Some(cur)).count();
    if uses != 1 || body.result.get(pos)?.as_var() != Some(cur) {
        return None;
    }
    axis
}

/// Follows the array `start` through `body` along the chain of values
/// made of it: in-place updates and overwriting `updacc`s of it, and the
/// loop parameters, loop results, `withacc` accumulators and `withacc`
/// results it becomes; every name on the chain goes into `chain`. Returns
/// the chain's last name in `body` (its result, for a stack), or `None`
/// where the chain is used in any other way (read, copied, combined with
/// an operator, passed to a branch), so that the array is only ever
/// overwritten, each write replacing its elements: writes that ranges of
/// lanes can make into one shared array without combining.
fn follow(body: &Body, start: VName, chain: &mut BTreeSet<VName>) -> Option<VName> {
    let mut cur = start;
    chain.insert(cur);
    for s in &body.stms {
        if !free_vars_exp(&s.exp).contains(&cur) {
            continue;
        }
        let mentions = |e: &SubExp| e.as_var() == Some(cur);
        let in_slice = |slice: &[DimIndex]| {
            slice.iter().any(|d| match d {
                DimIndex::Fix(x) => mentions(x),
                DimIndex::Slice { start, len, stride } => mentions(start) || mentions(len) || mentions(stride),
            })
        };
        cur = match &s.exp {
            Exp::UpdAcc { acc: array, slice, value, op: None }
                if *array == cur && !mentions(value) && !in_slice(slice) =>
            {
                s.pat.first()?.name
            }
            // An update that could fail stays one (an `updacc` skips what
            // is out of bounds).
            Exp::Update { array, slice, value }
                if *array == cur && !mentions(value) && !in_slice(slice) && s.attrs.unsafe_ =>
            {
                s.pat.first()?.name
            }
            Exp::Loop { params, form, body: inner } => {
                let pos = params.iter().position(|(_, init)| mentions(init))?;
                if params.iter().filter(|(_, init)| mentions(init)).count() != 1
                    || matches!(form, LoopForm::While { cond } if *cond == cur)
                    || matches!(form, LoopForm::For { bound, .. } if mentions(bound))
                    || ogham_ir::visit::free_vars_body(inner).contains(&cur)
                {
                    return None;
                }
                let end = follow(inner, params[pos].0.name, chain)?;
                if inner.result.iter().filter(|r| r.as_var() == Some(end)).count() != 1
                    || inner.result.get(pos)?.as_var() != Some(end)
                {
                    return None;
                }
                s.pat.get(pos)?.name
            }
            Exp::Soac(Soac::WithAcc { arrs, accs, map, .. })
                if !arrs.contains(&cur) && !free_vars_lambda(map).contains(&cur) =>
            {
                let pos = accs.iter().position(|a| *a == cur)?;
                if accs.iter().filter(|a| **a == cur).count() != 1 {
                    return None;
                }
                let end = follow(&map.body, map.params.get(pos)?.name, chain)?;
                if map.body.result.iter().filter(|r| r.as_var() == Some(end)).count() != 1
                    || map.body.result.get(pos)?.as_var() != Some(end)
                {
                    return None;
                }
                s.pat.get(pos)?.name
            }
            _ => return None,
        };
        chain.insert(cur);
    }
    Some(cur)
}

/// Whether `s` holds a SOAC or a call, at any depth.
fn heavy(s: &Stm) -> bool {
    matches!(s.exp, Exp::Soac(_) | Exp::Apply { .. })
        || ogham_ir::visit::lambdas(&s.exp).iter().any(|l| l.body.stms.iter().any(heavy))
        || ogham_ir::visit::bodies(&s.exp).iter().any(|b| b.stms.iter().any(heavy))
}

fn i64_ty() -> Type {
    Type::Prim(PrimType::I64)
}

fn bool_ty() -> Type {
    Type::Prim(PrimType::Bool)
}

/// `ty` with its lane axis `k` seen as `nr` ranges of `w` lanes.
fn split_lanes(ty: &Type, k: usize, (nr, w): (SubExp, SubExp)) -> Type {
    let mut shape: Vec<SubExp> = ty.shape()[..k].to_vec();
    shape.extend([nr, w]);
    shape.extend_from_slice(&ty.shape()[k + 1..]);
    Type::Array { elem: ty.elem(), shape }
}

/// Marks the statement just bound (a slice of the range's lanes, in
/// bounds by construction) as one no backend checks.
fn unchecked(out: &mut [Stm]) {
    if let Some(s) = out.last_mut() {
        s.attrs.unsafe_ = true;
    }
}

fn with_dim(ty: &Type, k: usize, d: SubExp) -> Type {
    let mut shape = ty.shape().to_vec();
    shape[k] = d;
    Type::Array { elem: ty.elem(), shape }
}

struct Rewrite<'a, 'n> {
    b: SubExp,
    class: Classes,
    fun: &'a Fun,
    names: &'n mut NameTable,
    span: Span,
    /// The stacks: loop parameters whose initial value is a scratch array.
    scratch: BTreeSet<VName>,
    /// The stacks the ranges write in place, at their own lanes, as
    /// accumulators of one `withacc` over the ranges, and every variable
    /// made of them by updates, loops and `withacc`s ([`follow`]): these
    /// keep their whole width.
    wide: BTreeSet<VName>,
    /// While a range's loop is rewritten: the range's index and the
    /// number of ranges, the shared stacks' first axis.
    range: (SubExp, SubExp),
    /// The stacks of earlier loops split the same way, and the arrays
    /// indexed from them, that a range reads its lanes of from their
    /// parts: the parts, the indices so far, the lane axis left.
    derived: HashMap<VName, (VName, Vec<DimIndex>, usize)>,
}

impl Rewrite<'_, '_> {
    fn of(&self, v: VName) -> Class {
        self.class.of(v)
    }

    fn stm(&self, pat: Vec<Param>, exp: Exp) -> Stm {
        Stm { pat, exp, attrs: StmAttrs::default(), span: self.span }
    }

    fn bind(&mut self, out: &mut Vec<Stm>, base: &str, ty: Type, exp: Exp) -> VName {
        let name = self.names.fresh(base);
        out.push(self.stm(vec![Param { name, ty }], exp));
        name
    }

    fn binop(&mut self, out: &mut Vec<Stm>, base: &str, op: BinOp, a: SubExp, c: SubExp) -> SubExp {
        SubExp::Var(self.bind(out, base, i64_ty(), Exp::BinOp(op, PrimType::I64, a, c)))
    }

    /// `a op c` of two `i64`s, a `bool`.
    fn cmp(&mut self, out: &mut Vec<Stm>, base: &str, op: CmpOp, a: SubExp, c: SubExp) -> SubExp {
        SubExp::Var(self.bind(out, base, bool_ty(), Exp::CmpOp(op, PrimType::I64, a, c)))
    }

    /// `a && c` or `a || c`.
    fn logic(&mut self, out: &mut Vec<Stm>, op: BinOp, a: SubExp, c: SubExp) -> SubExp {
        SubExp::Var(self.bind(out, "fits", bool_ty(), Exp::BinOp(op, PrimType::Bool, a, c)))
    }

    /// The whole rewrite: fission of the lanes' mixture, then the map over
    /// ranges, under the run-time test (see the module doc), with the loop
    /// as written as its other branch.
    fn run(mut self, stm: &Stm, pc: &[Class]) -> Option<(Vec<Stm>, Vec<(VName, Reassembly)>)> {
        let Exp::Loop { form: LoopForm::For { i, bound }, body, .. } = &stm.exp else { return None };
        let i = *i;
        let bound = *bound;
        let mixed_stm = self.mixed_stms(body)?;
        // An `Inv` statement runs in every range, on one thread: a SOAC
        // (a `partition`'s scan over all lanes) or a call there would
        // repeat its work per range, no longer in parallel. One that reads
        // no value the loop changes runs before it instead, for all the
        // iterations at once (reverse mode's log-sum-exp of the D-LSTM's
        // prediction per step); any other is refused.
        let original = stm;
        let mut out = Vec::new();
        let (stm, hoisted, hoisted_stacks) = self.hoist(stm, &mixed_stm, &mut out)?;
        let stm = &stm;
        let Exp::Loop { params, body, .. } = &stm.exp else { return None };
        let mixed_stm = self.mixed_stms(body)?;
        let is_lane = |this: &Self, v: VName| matches!(this.of(v), Class::Lane(_));
        let lane_stm: Vec<bool> =
            body.stms.iter().zip(&mixed_stm).map(|(s, m)| !m && s.pat.iter().any(|p| is_lane(&self, p.name))).collect();
        let mixed_params: Vec<bool> = pc.iter().map(|c| *c == Class::Mixed).collect();
        let body_binders: BTreeSet<VName> = {
            let mut v = Vec::new();
            collect_binders(body, &mut v);
            v.into_iter().chain(params.iter().map(|(p, _)| p.name)).chain([i]).collect()
        };

        // The lane values the mixture reads: stacked by the first loop.
        let mut stacked: Vec<VName> = Vec::new();
        if mixed_params.iter().any(|m| *m) {
            let mut needed: BTreeSet<VName> = BTreeSet::new();
            for (s, l) in body.stms.iter().zip(&lane_stm) {
                if !l {
                    needed.extend(free_vars_exp(&s.exp));
                }
            }
            for (r, (p, _)) in body.result.iter().zip(params) {
                if !is_lane(&self, p.name) {
                    needed.extend(r.as_var());
                }
            }
            let lane_params = params.iter().map(|(p, _)| p.name).filter(|v| is_lane(&self, *v));
            let lane_bound =
                body.stms.iter().zip(&lane_stm).filter(|(_, l)| **l).flat_map(|(s, _)| s.pat.iter().map(|p| p.name));
            stacked = lane_params.chain(lane_bound).filter(|v| needed.contains(v)).collect();
            for v in &stacked {
                let t = self.fun.types.get(v)?;
                if type_vars(t).any(|x| body_binders.contains(&x)) {
                    return None;
                }
            }
        }

        // Loop 1: the lanes' loop, stacking what the mixture reads.
        let keep: Vec<usize> = (0..params.len()).filter(|&k| !mixed_params[k]).collect();
        let mut l1_params: Vec<(Param, SubExp)> = keep.iter().map(|&k| params[k].clone()).collect();
        let mut l1_result: Vec<SubExp> = keep.iter().map(|&k| body.result[k]).collect();
        let mut l1_pat: Vec<Param> = keep.iter().map(|&k| stm.pat[k].clone()).collect();
        let mut upd_for: HashMap<VName, (VName, VName, Type)> = HashMap::default();
        // The stacks' length: the iterations, none for a negative bound.
        let len = match bound {
            SubExp::Const(c) => SubExp::i64(c.as_i64().max(0)),
            _ if stacked.is_empty() => bound,
            _ => self.binop(&mut out, "iterations", BinOp::Max, bound, SubExp::i64(0)),
        };
        for v in &stacked {
            let st = self.fun.types[v].array_of(len);
            let (sp, su) = (self.names.fresh("stack"), self.names.fresh("stack"));
            let c = match self.of(*v) {
                Class::Lane(k) => Class::Lane(k + 1),
                c => c,
            };
            self.class.insert(sp, c);
            self.class.insert(su, c);
            self.scratch.insert(sp);
            l1_params.push((Param { name: sp, ty: st.clone() }, SubExp::i64(0)));
            l1_result.push(SubExp::Var(su));
            l1_pat.push(Param { name: self.names.fresh("stacked"), ty: st.clone() });
            upd_for.insert(*v, (sp, su, st));
        }
        let stacked_out: Vec<VName> = l1_pat[keep.len()..].iter().map(|p| p.name).collect();
        let update = |this: &Self, out: &mut Vec<Stm>, v: VName| {
            if let Some((sp, su, st)) = upd_for.get(&v) {
                // In bounds: the stack has a row per iteration.
                let mut s = this.stm(
                    vec![Param { name: *su, ty: st.clone() }],
                    Exp::Update { array: *sp, slice: vec![DimIndex::Fix(SubExp::Var(i))], value: SubExp::Var(v) },
                );
                s.attrs.unsafe_ = true;
                out.push(s);
            }
        };
        let mut l1_stms: Vec<Stm> = Vec::new();
        for (p, _) in params {
            update(&self, &mut l1_stms, p.name);
        }
        for (s, m) in body.stms.iter().zip(&mixed_stm) {
            if !m {
                l1_stms.push(s.clone());
                for p in &s.pat {
                    update(&self, &mut l1_stms, p.name);
                }
            }
        }
        let l1_classes: Vec<Class> = l1_params.iter().map(|(p, _)| self.of(p.name)).collect();
        // The split of an earlier loop whose stacks this one reads: each
        // range reads its own parts of them.
        let earlier: Vec<(VName, Reassembly)> = free_vars_exp(&original.exp)
            .into_iter()
            .filter_map(|v| self.fun.reassembled.get(&v).filter(|r| r.b == self.b).map(|r| (v, r.clone())))
            .collect();
        let (nr, w) = match earlier.first() {
            Some((_, r)) => (r.nr, r.w),
            None => self.split(&mut out),
        };
        for (v, r) in &earlier {
            if (r.nr, r.w) == (nr, w) {
                self.derived.insert(*v, (r.parts, Vec::new(), r.k));
            }
        }
        let mut lanes_version = Vec::new();
        let l1_body = Body { stms: l1_stms, result: l1_result };
        let lifted = self.ranges(&mut lanes_version, &l1_pat, &l1_classes, l1_params, i, bound, l1_body, (nr, w))?;
        // The stacks the mixture's loop reads are put side by side for it;
        // the others leave the `if` as parts (below).
        let (inside, lifted): (Vec<_>, Vec<_>) = lifted.into_iter().partition(|(j, _)| *j >= keep.len());
        for (j, part) in inside {
            let Class::Lane(k) = l1_classes[j] else { return None };
            self.side_by_side(&mut lanes_version, part, &l1_pat[j], k, (nr, w));
        }
        if mixed_params.iter().any(|m| *m) {
            // Loop 2: the mixture (and the Inv statements it reads), reading
            // the stacks; it binds the Mixed parameters' results.
            let stack_of: HashMap<VName, VName> = stacked.iter().copied().zip(stacked_out).collect();
            let read = |this: &Self, p: &Param| {
                stack_of.get(&p.name).map(|&st| {
                    this.stm(vec![p.clone()], Exp::Index { array: st, slice: vec![DimIndex::Fix(SubExp::Var(i))] })
                })
            };
            let mut l2_stms: Vec<Stm> = params.iter().filter_map(|(p, _)| read(&self, p)).collect();
            for (s, l) in body.stms.iter().zip(&lane_stm) {
                if *l {
                    l2_stms.extend(s.pat.iter().filter_map(|p| read(&self, p)));
                } else {
                    l2_stms.push(s.clone());
                }
            }
            let l2_keep: Vec<usize> = (0..params.len()).filter(|&k| !is_lane(&self, params[k].0.name)).collect();
            let l2 = Stm {
                pat: l2_keep.iter().map(|&k| stm.pat[k].clone()).collect(),
                exp: Exp::Loop {
                    params: l2_keep.iter().map(|&k| params[k].clone()).collect(),
                    form: LoopForm::For { i, bound },
                    body: Body { stms: l2_stms, result: l2_keep.iter().map(|&k| body.result[k]).collect() },
                },
                attrs: stm.attrs,
                span: stm.span,
            };
            // Loop 1 binds the Inv parameters' results already.
            let mut l2 = Body { stms: vec![l2], result: vec![] };
            let mixed_pat: BTreeSet<VName> =
                stm.pat.iter().zip(&mixed_params).filter(|(_, m)| **m).map(|(p, _)| p.name).collect();
            fresh_binders(&mut l2, self.names, |v| !mixed_pat.contains(&v));
            lanes_version.extend(l2.stms);
        }

        // The run-time test: ranges for at least half the threads (or a
        // range per lane), and the stacks' bytes at most MAX_STACK_BYTES,
        // saturating (a size over the limit stays over it). Otherwise the
        // loop as written, whose maps share their lanes among the threads
        // every iteration.
        let over = SubExp::i64(MAX_STACK_BYTES + 1);
        let mut total = SubExp::i64(0);
        let stack_types: Vec<Type> = upd_for.values().map(|(_, _, st)| st.clone()).chain(hoisted_stacks).collect();
        for st in &stack_types {
            let mut n = SubExp::i64(st.elem().byte_size() as i64);
            for d in st.shape() {
                let capped = self.binop(&mut out, "bytes", BinOp::Min, *d, over);
                let prod = self.binop(&mut out, "bytes", BinOp::Mul, n, capped);
                n = self.binop(&mut out, "bytes", BinOp::Min, prod, over);
            }
            let sum = self.binop(&mut out, "bytes", BinOp::Add, total, n);
            total = self.binop(&mut out, "bytes", BinOp::Min, sum, over);
        }
        let small = self.cmp(&mut out, "fits", CmpOp::Le, total, SubExp::i64(MAX_STACK_BYTES));
        let several = self.cmp(&mut out, "fits", CmpOp::Gt, nr, SubExp::i64(1));
        let twice = self.binop(&mut out, "fits", BinOp::Mul, nr, SubExp::i64(2));
        let half = self.cmp(&mut out, "fits", CmpOp::Gt, twice, SubExp::i64(self.fun.threads));
        let each = self.cmp(&mut out, "fits", CmpOp::Eq, nr, self.b);
        let enough = self.logic(&mut out, BinOp::LogOr, half, each);
        let shared = self.logic(&mut out, BinOp::LogAnd, several, enough);
        let fits = self.logic(&mut out, BinOp::LogAnd, small, shared);
        let result: Vec<SubExp> = stm.pat.iter().map(|p| SubExp::Var(p.name)).collect();
        // The loop as written, `#[sequential]` so that it stays so.
        let mut fallback = original.clone();
        fallback.attrs.sequential = true;
        let (mut pat, mut then_result, mut else_result) = (stm.pat.clone(), result.clone(), result);
        let mut else_stms = vec![fallback];
        // The stacks leave the `if` as their ranges' parts (the loop as
        // written cuts its stacks into parts, a copy); they are put side by
        // side after it, where a later loop split the same way may read
        // its parts instead (and the copy may move into its fallback).
        let mut after = Vec::new();
        let mut made = Vec::new();
        for (j, part) in lifted {
            let Class::Lane(k) = l1_classes[j] else { return None };
            let pos = keep[j];
            let p = stm.pat[pos].clone();
            let rank = p.ty.rank();
            let part_ty = with_dim(&p.ty, k, w).array_of(nr);
            let split_ty = split_lanes(&p.ty, k, (nr, w));
            let seq = original.pat[pos].name;
            let cut = self.bind(
                &mut else_stms,
                "parts",
                split_ty.clone(),
                Exp::Reshape { array: seq, shape: split_ty.shape().to_vec() },
            );
            let to_parts: Vec<usize> = std::iter::once(k).chain(0..k).chain(k + 1..=rank).collect();
            let moved =
                self.bind(&mut else_stms, "parts", part_ty.clone(), Exp::Rearrange { array: cut, perm: to_parts });
            let fresh = self.bind(&mut else_stms, "parts", part_ty.clone(), Exp::Copy(moved));
            else_result[pos] = SubExp::Var(fresh);
            then_result[pos] = SubExp::Var(part);
            let outer = Param { name: self.names.fresh("parts"), ty: part_ty };
            pat[pos] = outer.clone();
            let stms = self.side_by_side(&mut after, outer.name, &p, k, (nr, w));
            let r = Reassembly { parts: outer.name, k, b: self.b, nr, w, stms };
            made.push((p.name, r));
        }
        let mut then_body = Body { stms: hoisted.into_iter().chain(lanes_version).collect(), result: then_result };
        // The rows of earlier stacks that the ranges now read from parts
        // go, so that what puts those stacks side by side can move.
        crate::dce::dce_body(&mut then_body, Default::default());
        fresh_binders(&mut then_body, self.names, |_| true);
        let mut else_body = Body { stms: else_stms, result: else_result };
        fresh_binders(&mut else_body, self.names, |_| true);
        out.push(Stm {
            pat,
            exp: Exp::If { cond: fits, then_body, else_body },
            attrs: StmAttrs::default(),
            span: stm.span,
        });
        out.extend(after);
        Some((out, made))
    }

    /// Whether each statement of `body` is wholly `Mixed`; `None` if one
    /// is partly so.
    fn mixed_stms(&self, body: &Body) -> Option<Vec<bool>> {
        let mut mixed = Vec::with_capacity(body.stms.len());
        for s in &body.stms {
            let mut binders = Vec::new();
            collect_binders(&Body { stms: vec![s.clone()], result: vec![] }, &mut binders);
            let any = binders.iter().any(|v| self.of(*v) == Class::Mixed);
            let whole = s.pat.iter().all(|p| self.of(p.name) == Class::Mixed);
            if any && !whole {
                return None;
            }
            mixed.push(any);
        }
        Some(mixed)
    }

    /// The loop `stm` with its heavy `Inv` statements (see [`heavy`]) read
    /// from stacks, the map over the iterations that stacks them,
    /// computing them and the statements they need before the loop, and
    /// the stacks' types; `None` if one of them reads a value the loop
    /// changes (a parameter other than one it passes on unchanged) or what
    /// a statement that may consume an array made. `mixed` tells the body's wholly `Mixed` statements.
    /// The stacks' length is bound in `before`, which comes before the
    /// run-time test.
    fn hoist(&mut self, stm: &Stm, mixed: &[bool], before: &mut Vec<Stm>) -> Option<(Stm, Vec<Stm>, Vec<Type>)> {
        let Exp::Loop { params, form: LoopForm::For { i, bound }, body } = &stm.exp else { return None };
        let inv = |s: &Stm| s.pat.iter().all(|p| self.of(p.name) == Class::Inv);
        let hoist: Vec<bool> = body.stms.iter().zip(mixed).map(|(s, m)| !m && inv(s) && heavy(s)).collect();
        if !hoist.iter().any(|h| *h) {
            return Some((stm.clone(), Vec::new(), Vec::new()));
        }
        // What is known before the loop, per iteration: the counter, the
        // parameters passed on unchanged, and what the `Inv` statements
        // that consume nothing compute from them and from values bound
        // outside.
        let mut inside = Vec::new();
        collect_binders(body, &mut inside);
        let inside: BTreeSet<VName> = inside.into_iter().chain(params.iter().map(|(p, _)| p.name)).collect();
        let fixed: Vec<(Param, SubExp)> = params
            .iter()
            .zip(&body.result)
            .filter(|((p, _), r)| r.as_var() == Some(p.name))
            .map(|((p, init), _)| (p.clone(), *init))
            .collect();
        let mut known: BTreeSet<VName> = fixed.iter().map(|(p, _)| p.name).chain([*i]).collect();
        for (s, m) in body.stms.iter().zip(mixed) {
            let pure = may_consume(&s.exp).is_empty();
            if !m && inv(s) && pure && free_vars_exp(&s.exp).iter().all(|v| known.contains(v) || !inside.contains(v)) {
                known.extend(s.pat.iter().map(|p| p.name));
            }
        }
        // The statements the hoisted ones need, in order.
        let mut need: BTreeSet<VName> = BTreeSet::new();
        let mut take = vec![false; body.stms.len()];
        for (k, s) in body.stms.iter().enumerate().rev() {
            if hoist[k] || s.pat.iter().any(|p| need.contains(&p.name)) {
                if !s.pat.iter().all(|p| known.contains(&p.name)) {
                    return None;
                }
                take[k] = true;
                need.extend(free_vars_exp(&s.exp));
            }
        }
        let results: Vec<Param> =
            body.stms.iter().zip(&hoist).filter(|(_, h)| **h).flat_map(|(s, _)| s.pat.iter().cloned()).collect();
        if results.iter().any(|p| type_vars(&p.ty).any(|x| inside.contains(&x))) {
            return None;
        }
        let mut pre = Vec::new();
        let len = match bound {
            SubExp::Const(c) => SubExp::i64(c.as_i64().max(0)),
            _ => self.binop(before, "iterations", BinOp::Max, *bound, SubExp::i64(0)),
        };
        let its = self.bind(
            &mut pre,
            "iterations",
            Type::Array { elem: PrimType::I64, shape: vec![len] },
            Exp::Iota { n: len, start: SubExp::i64(0), step: SubExp::i64(1), elem: PrimType::I64 },
        );
        let mut lam_stms: Vec<Stm> = fixed
            .iter()
            .filter(|(p, _)| need.contains(&p.name))
            .map(|(p, init)| self.stm(vec![p.clone()], Exp::SubExp(*init)))
            .collect();
        lam_stms.extend(body.stms.iter().zip(&take).filter(|(_, t)| **t).map(|(s, _)| s.clone()));
        let mut lam_body = Body { stms: lam_stms, result: results.iter().map(|p| SubExp::Var(p.name)).collect() };
        fresh_binders(&mut lam_body, self.names, |_| true);
        let it = fresh_like(self.names, *i);
        rename_uses(&mut lam_body, &|v| (v == *i).then_some(it));
        let stacks: Vec<Param> =
            results.iter().map(|p| Param { name: fresh_like(self.names, p.name), ty: p.ty.array_of(len) }).collect();
        pre.push(self.stm(
            stacks.clone(),
            Exp::Soac(Soac::Screma {
                w: len,
                arrs: vec![its],
                scans: vec![],
                reduces: vec![],
                map: Lambda {
                    params: vec![Param { name: it, ty: i64_ty() }],
                    body: lam_body,
                    ret: results.iter().map(|p| p.ty.clone()).collect(),
                },
            }),
        ));
        // The loop reads its iteration's row of each stack.
        let row: HashMap<VName, VName> = results.iter().map(|p| p.name).zip(stacks.iter().map(|p| p.name)).collect();
        let mut stms = Vec::with_capacity(body.stms.len());
        for (s, h) in body.stms.iter().zip(&hoist) {
            if !*h {
                stms.push(s.clone());
                continue;
            }
            for p in &s.pat {
                stms.push(self.stm(
                    vec![p.clone()],
                    Exp::Index { array: row[&p.name], slice: vec![DimIndex::Fix(SubExp::Var(*i))] },
                ));
            }
        }
        let mut loop_stm = stm.clone();
        if let Exp::Loop { body, .. } = &mut loop_stm.exp {
            body.stms = stms;
        }
        Some((loop_stm, pre, stacks.into_iter().map(|p| p.ty).collect()))
    }

    /// The number of ranges `nr` and their width `w`: `nr` the largest
    /// divisor of `b` no greater than the threads, so that every range has
    /// the same width and the map's results are regular arrays; one range
    /// of all lanes where `b` is prime to the threads, and for no lanes.
    fn split(&mut self, out: &mut Vec<Stm>) -> (SubExp, SubExp) {
        let b = self.b;
        let some = self.binop(out, "nr", BinOp::Max, b, SubExp::i64(1));
        let d0 = self.binop(out, "nr", BinOp::Min, some, SubExp::i64(self.fun.threads));
        let rem0 = self.binop(out, "nr", BinOp::Mod, b, d0);
        let c0 = self.cmp(out, "nr", CmpOp::Ne, rem0, SubExp::i64(0));
        let (d, c) = (self.names.fresh("nr"), self.names.fresh("nr"));
        let mut body = Vec::new();
        let d1 = self.binop(&mut body, "nr", BinOp::Sub, SubExp::Var(d), SubExp::i64(1));
        let rem = self.binop(&mut body, "nr", BinOp::Mod, b, d1);
        let c1 = self.cmp(&mut body, "nr", CmpOp::Ne, rem, SubExp::i64(0));
        let (nr, done) = (self.names.fresh("nr"), self.names.fresh("nr"));
        out.push(self.stm(
            vec![Param { name: nr, ty: i64_ty() }, Param { name: done, ty: bool_ty() }],
            Exp::Loop {
                params: vec![(Param { name: d, ty: i64_ty() }, d0), (Param { name: c, ty: bool_ty() }, c0)],
                form: LoopForm::While { cond: c },
                body: Body { stms: body, result: vec![d1, c1] },
            },
        ));
        let w = self.binop(out, "w", BinOp::Div, b, SubExp::Var(nr));
        (SubExp::Var(nr), w)
    }

    /// Binds `pat` to the results of the loop (`params`, `body`) run as a
    /// map over ranges of lanes, each range with its own lanes of the
    /// `Lane` parameters and a copy of the `Inv` ones.
    #[allow(clippy::too_many_arguments)]
    fn ranges(
        &mut self,
        out: &mut Vec<Stm>,
        pat: &[Param],
        classes: &[Class],
        params: Vec<(Param, SubExp)>,
        i: VName,
        bound: SubExp,
        body: Body,
        (nr, w): (SubExp, SubExp),
    ) -> Option<Vec<(usize, VName)>> {
        let rs = self.bind(
            out,
            "ranges",
            Type::Array { elem: PrimType::I64, shape: vec![nr] },
            Exp::Iota { n: nr, start: SubExp::i64(0), step: SubExp::i64(1), elem: PrimType::I64 },
        );

        // The stacks that every range can write in place at its own lanes
        // (only ever overwritten): accumulators of a `withacc` over the
        // ranges, whole arrays shared by all of them, so that no range
        // keeps a part to be put side by side with the others' after.
        let stack: Vec<bool> = params
            .iter()
            .map(|(p, init)| {
                self.scratch.contains(&p.name) || init.as_var().is_some_and(|v| self.fun.scratches.contains(&v))
            })
            .collect();
        let mut wide = vec![false; params.len()];
        for (k, ((p, _), c)) in params.iter().zip(classes).enumerate() {
            if !self.fun.share || !stack[k] || !matches!(c, Class::Lane(_)) {
                continue;
            }
            let mut chain = BTreeSet::new();
            let end = follow(&body, p.name, &mut chain);
            let once = |e: VName| body.result.iter().filter(|r| r.as_var() == Some(e)).count() == 1;
            if end.is_some_and(|e| once(e) && body.result[k].as_var() == Some(e)) {
                self.wide.extend(chain);
                wide[k] = true;
            }
        }

        // The range's lambda.
        let r = self.names.fresh("range");
        self.range = (SubExp::Var(r), nr);
        let mut lam = Vec::new();
        let lo = self.binop(&mut lam, "lo", BinOp::Mul, SubExp::Var(r), w);
        let mut range_params = Vec::with_capacity(params.len());
        let (mut acc_params, mut shared) = (Vec::new(), Vec::new());
        for ((((p, init), c), wide), stack) in params.iter().zip(classes).zip(&wide).zip(&stack) {
            if *wide {
                let Class::Lane(k) = c else { return None };
                let ty = with_dim(&p.ty, *k, w).array_of(nr);
                let whole =
                    self.bind(out, "stack", ty.clone(), Exp::Scratch { elem: ty.elem(), shape: ty.shape().to_vec() });
                let acc = Param { name: self.names.fresh("stack"), ty: ty.clone() };
                range_params.push((Param { name: p.name, ty }, SubExp::Var(acc.name)));
                acc_params.push(acc);
                shared.push(whole);
                continue;
            }
            if *stack {
                let ty = match c {
                    Class::Lane(k) => with_dim(&p.ty, *k, w),
                    _ => p.ty.clone(),
                };
                let init = self.bind(
                    &mut lam,
                    "stack",
                    ty.clone(),
                    Exp::Scratch { elem: ty.elem(), shape: ty.shape().to_vec() },
                );
                range_params.push((Param { name: p.name, ty }, SubExp::Var(init)));
                continue;
            }
            let (ty, init) = match c {
                Class::Lane(k) => {
                    let ty = with_dim(&p.ty, *k, w);
                    let v = self.lanes_of(&mut lam, *init, &p.ty, *k, lo, w)?;
                    (ty, v)
                }
                _ => (p.ty.clone(), *init),
            };
            let init = match (&ty, init) {
                (Type::Array { .. }, SubExp::Var(v)) => {
                    SubExp::Var(self.bind(&mut lam, "init", ty.clone(), Exp::Copy(v)))
                }
                (_, init) => init,
            };
            range_params.push((Param { name: p.name, ty }, init));
        }
        let mut body = body;
        self.rewrite_body(&mut body, lo, w)?;
        let range_pat: Vec<Param> = pat
            .iter()
            .zip(classes)
            .zip(&wide)
            .map(|((p, c), wide)| Param {
                name: fresh_like(self.names, p.name),
                ty: match c {
                    Class::Lane(k) if *wide => with_dim(&p.ty, *k, w).array_of(nr),
                    Class::Lane(k) => with_dim(&p.ty, *k, w),
                    _ => p.ty.clone(),
                },
            })
            .collect();
        lam.push(
            self.stm(range_pat.clone(), Exp::Loop { params: range_params, form: LoopForm::For { i, bound }, body }),
        );
        // The accumulators' results first, then the parts.
        let order: Vec<usize> =
            (0..pat.len()).filter(|&k| wide[k]).chain((0..pat.len()).filter(|&k| !wide[k])).collect();
        let lam_result: Vec<SubExp> = order.iter().map(|&k| SubExp::Var(range_pat[k].name)).collect();
        let lam_ret: Vec<Type> = order.iter().map(|&k| range_pat[k].ty.clone()).collect();
        let lambda = Lambda {
            params: acc_params.into_iter().chain([Param { name: r, ty: i64_ty() }]).collect(),
            body: Body { stms: lam, result: lam_result },
            ret: lam_ret,
        };
        // The statement binds the shared stacks (every range's part
        // already) then the map's parts; `parts` in the order of `pat`.
        let soac_pat: Vec<Param> = order
            .iter()
            .map(|&k| Param {
                name: self.names.fresh("parts"),
                ty: if wide[k] { range_pat[k].ty.clone() } else { range_pat[k].ty.array_of(nr) },
            })
            .collect();
        let mut parts: Vec<VName> = vec![r; pat.len()];
        for (&k, q) in order.iter().zip(&soac_pat) {
            parts[k] = q.name;
        }
        let soac = if shared.is_empty() {
            Soac::Screma { w: nr, arrs: vec![rs], scans: vec![], reduces: vec![], map: lambda }
        } else {
            Soac::WithAcc { w: nr, arrs: vec![rs], accs: shared, map: lambda }
        };
        out.push(self.stm(soac_pat, Exp::Soac(soac)));
        // Reassembly: the ranges' lanes side by side on their axis; a
        // stack's parts are left to the caller.
        let mut lifted = Vec::new();
        for (pos, ((p, c), part)) in pat.iter().zip(classes).zip(parts).enumerate() {
            match c {
                Class::Lane(k) if *k > 0 && stack[pos] => lifted.push((pos, part)),
                Class::Lane(k) => {
                    self.side_by_side(out, part, p, *k, (nr, w));
                }
                _ => {
                    out.push(
                        self.stm(
                            vec![p.clone()],
                            Exp::Index { array: part, slice: vec![DimIndex::Fix(SubExp::i64(0))] },
                        ),
                    );
                }
            }
        }
        Some(lifted)
    }

    /// Binds `p` to the ranges' `parts` of it put side by side on its lane
    /// axis `k`; returns what the statements bind, `p` last. One copy: the
    /// ranges' lanes put side by side (a fresh array in that order), then
    /// seen with the lanes as one axis (a view). The other way round, a
    /// reshape of the rearranged view would be a copy in the C backend
    /// before the copy proper.
    fn side_by_side(
        &mut self,
        out: &mut Vec<Stm>,
        parts: VName,
        p: &Param,
        k: usize,
        (nr, w): (SubExp, SubExp),
    ) -> [VName; 3] {
        if k == 0 {
            out.push(self.stm(vec![p.clone()], Exp::Reshape { array: parts, shape: p.ty.shape().to_vec() }));
            return [parts, parts, p.name];
        }
        let rank = p.ty.rank();
        let perm: Vec<usize> = (1..=k).chain([0]).chain(k + 1..=rank).collect();
        let ty = split_lanes(&p.ty, k, (nr, w));
        let side = self.bind(out, "parts", ty.clone(), Exp::Rearrange { array: parts, perm });
        let copied = self.bind(out, "parts", ty, Exp::Copy(side));
        out.push(self.stm(vec![p.clone()], Exp::Reshape { array: copied, shape: p.ty.shape().to_vec() }));
        [side, copied, p.name]
    }

    /// `v[:, …, lo:lo+len, …]`, the slice on axis `k` (a view).
    fn lanes_of(
        &mut self,
        out: &mut Vec<Stm>,
        v: SubExp,
        ty: &Type,
        k: usize,
        lo: SubExp,
        len: SubExp,
    ) -> Option<SubExp> {
        let v = v.as_var()?;
        if let Some(part) = self.own_part(out, v, k, with_dim(ty, k, len)) {
            return Some(SubExp::Var(part));
        }
        let mut slice: Vec<DimIndex> = ty.shape()[..k]
            .iter()
            .map(|d| DimIndex::Slice { start: SubExp::i64(0), len: *d, stride: SubExp::i64(1) })
            .collect();
        slice.push(DimIndex::Slice { start: lo, len, stride: SubExp::i64(1) });
        let name = self.bind(out, "lanes", with_dim(ty, k, len), Exp::Index { array: v, slice });
        // In bounds where the axis is the lanes' (`lo + w <= nr * w = b`).
        if ty.shape().get(k) == Some(&self.b) {
            unchecked(out);
        }
        Some(SubExp::Var(name))
    }

    /// The range's rows `lo .. lo + w` of the `Inv` input `a` of a map (or
    /// `withacc`) whose function takes rows of type `row` (a view).
    fn rows_of(&mut self, out: &mut Vec<Stm>, a: VName, row: &Type, lo: SubExp, w: SubExp) -> VName {
        if let Some(part) = self.own_part(out, a, 0, row.array_of(w)) {
            return part;
        }
        let slice = vec![DimIndex::Slice { start: lo, len: w, stride: SubExp::i64(1) }];
        let name = self.bind(out, "lanes", row.array_of(w), Exp::Index { array: a, slice });
        // The input of a map (or `withacc`) over the `b` lanes: in bounds.
        unchecked(out);
        name
    }

    /// The range's lanes on axis `k` of `v`, a row of an earlier loop's
    /// stack split the same way, read from the range's part of it (a view,
    /// of type `ty`): no stack need be put side by side for this loop.
    fn own_part(&mut self, out: &mut Vec<Stm>, v: VName, k: usize, ty: Type) -> Option<VName> {
        let (parts, fixed, axis) = self.derived.get(&v)?.clone();
        if axis != k {
            return None;
        }
        let slice = std::iter::once(DimIndex::Fix(self.range.0)).chain(fixed).collect();
        Some(self.bind(out, "part", ty, Exp::Index { array: parts, slice }))
    }

    /// A copy of `lanes_of`'s slice of an `Inv` value that becomes a
    /// `Lane(k)` one.
    fn own_lanes(&mut self, out: &mut Vec<Stm>, v: SubExp, k: usize, lo: SubExp, w: SubExp) -> Option<SubExp> {
        let ty = self.fun.types.get(&v.as_var()?)?.clone();
        let s = self.lanes_of(out, v, &ty, k, lo, w)?;
        let t = with_dim(&ty, k, w);
        Some(SubExp::Var(self.bind(out, "lanes", t, Exp::Copy(s.as_var()?))))
    }

    /// Narrows the loop body to the range's lanes `lo .. lo + w`.
    fn rewrite_body(&mut self, body: &mut Body, lo: SubExp, w: SubExp) -> Option<()> {
        let mut out = Vec::with_capacity(body.stms.len());
        for mut stm in std::mem::take(&mut body.stms) {
            // A row of an earlier loop's stack (not at a lane): its lanes
            // are in the range's parts too.
            if let (Exp::Index { array, slice }, [p]) = (&stm.exp, &stm.pat[..]) {
                if let Some((parts, fixed, axis)) = self.derived.get(array) {
                    if slice.len() <= *axis && slice.iter().all(|d| matches!(d, DimIndex::Fix(_))) {
                        let mut fixed = fixed.clone();
                        fixed.extend(slice.iter().cloned());
                        let entry = (*parts, fixed, axis - slice.len());
                        self.derived.insert(p.name, entry);
                    }
                }
            }
            let lane = stm.pat.iter().any(|p| matches!(self.of(p.name), Class::Lane(_)));
            if !lane {
                out.push(stm);
                continue;
            }
            for p in &mut stm.pat {
                if let Class::Lane(k) = self.of(p.name) {
                    p.ty = self.narrowed(&p.ty, p.name, k, w);
                }
            }
            match &mut stm.exp {
                Exp::Soac(Soac::Screma { w: width, map, .. }) if *width != self.b => {
                    for p in &mut map.params {
                        if let Class::Lane(k) = self.of(p.name) {
                            p.ty = with_dim(&p.ty, k, w);
                        }
                    }
                    let classes: Vec<Class> = stm.pat.iter().map(|p| self.of(p.name)).collect();
                    for (t, c) in map.ret.iter_mut().zip(&classes) {
                        if let Class::Lane(j) = c {
                            *t = with_dim(t, j - 1, w);
                        }
                    }
                    self.rewrite_body(&mut map.body, lo, w)?;
                }
                Exp::Soac(Soac::Screma { w: width, arrs, map, .. }) => {
                    *width = w;
                    for (a, lp) in arrs.iter_mut().zip(&map.params) {
                        if self.of(*a) == Class::Inv {
                            *a = self.rows_of(&mut out, *a, &lp.ty, lo, w);
                        }
                    }
                }
                Exp::Soac(Soac::WithAcc { w: width, arrs, accs, map }) => {
                    *width = w;
                    let na = accs.len();
                    // The accumulators narrowed to the range's lanes (an
                    // `Inv` array its own copy of them), in the function
                    // too, along every update's chain.
                    let mut narrowed: HashMap<VName, Type> = HashMap::default();
                    for (pos, a) in accs.iter_mut().enumerate() {
                        let Class::Lane(k) = self.of(stm.pat[pos].name) else { return None };
                        let name = map.params[pos].name;
                        if !self.wide.contains(&name) && self.of(*a) == Class::Inv {
                            *a = self.own_lanes(&mut out, SubExp::Var(*a), k, lo, w)?.as_var()?;
                        }
                        let ty = self.narrowed(&map.params[pos].ty, name, k, w);
                        map.params[pos].ty = ty.clone();
                        map.ret[pos] = ty.clone();
                        narrowed.insert(name, ty);
                    }
                    // A shared stack's updates are of the range's own part.
                    for s in &mut map.body.stms {
                        if let Exp::UpdAcc { acc, slice, .. } = &mut s.exp {
                            if let Some(ty) = narrowed.get(acc).cloned() {
                                s.pat[0].ty = ty.clone();
                                narrowed.insert(s.pat[0].name, ty);
                            }
                            if self.wide.contains(acc) {
                                slice.insert(0, DimIndex::Fix(self.range.0));
                            }
                        }
                    }
                    // The lane index counts the range's lanes; other `Inv`
                    // inputs are sliced to them.
                    for (a, lp) in arrs.iter_mut().zip(&map.params[na..]) {
                        if self.fun.iotas.get(a) == Some(&self.b) {
                            *a = self.bind(
                                &mut out,
                                "lane",
                                Type::Array { elem: PrimType::I64, shape: vec![w] },
                                Exp::Iota { n: w, start: SubExp::i64(0), step: SubExp::i64(1), elem: PrimType::I64 },
                            );
                        } else if self.of(*a) == Class::Inv {
                            *a = self.rows_of(&mut out, *a, &lp.ty, lo, w);
                        }
                    }
                }
                Exp::Index { array, slice } => {
                    if let Class::Lane(k) = self.of(*array) {
                        if let Some(DimIndex::Slice { len, .. }) = slice.get_mut(k) {
                            *len = w;
                        }
                    }
                }
                Exp::Update { array, slice, value } | Exp::UpdAcc { acc: array, slice, value, .. } => {
                    let Class::Lane(k) = self.of(stm.pat.first()?.name) else { return None };
                    let shared = self.wide.contains(array);
                    if !shared && self.of(*array) == Class::Inv {
                        *array = self.own_lanes(&mut out, SubExp::Var(*array), k, lo, w)?.as_var()?;
                    }
                    if let Some(DimIndex::Slice { len, .. }) = slice.get_mut(k) {
                        *len = w;
                    }
                    if self.of(value.as_var()?) == Class::Inv {
                        let kv = k - slice.iter().take(k).filter(|d| matches!(d, DimIndex::Fix(_))).count();
                        let ty = self.fun.types.get(&value.as_var()?)?.clone();
                        *value = self.lanes_of(&mut out, *value, &ty, kv, lo, w)?;
                    }
                    // A shared stack's: an overwriting `updacc` of the
                    // range's part, where the update was (proven in bounds,
                    // and the range's index is below their number).
                    if shared {
                        let mut part = vec![DimIndex::Fix(self.range.0)];
                        part.append(slice);
                        stm.exp = Exp::UpdAcc { acc: *array, slice: part, value: *value, op: None };
                    }
                }
                Exp::Loop { params, body, .. } => {
                    for (p, init) in params.iter_mut() {
                        if let Class::Lane(k) = self.of(p.name) {
                            if !self.wide.contains(&p.name) && self.of_se(init) == Class::Inv {
                                *init = self.own_lanes(&mut out, *init, k, lo, w)?;
                            }
                            p.ty = self.narrowed(&p.ty, p.name, k, w);
                        }
                    }
                    let classes: Vec<Class> = params.iter().map(|(p, _)| self.of(p.name)).collect();
                    self.rewrite_body(body, lo, w)?;
                    self.narrow_results(body, &classes, lo, w)?;
                }
                Exp::If { then_body, else_body, .. } => {
                    let classes: Vec<Class> = stm.pat.iter().map(|p| self.of(p.name)).collect();
                    for b in [then_body, else_body] {
                        self.rewrite_body(b, lo, w)?;
                        self.narrow_results(b, &classes, lo, w)?;
                    }
                }
                Exp::SubExp(_) | Exp::Copy(_) => {}
                _ => return None,
            }
            out.push(stm);
        }
        body.stms = out;
        Some(())
    }

    fn of_se(&self, s: &SubExp) -> Class {
        self.class.of_se(s)
    }

    /// The type in a range of the variable `v` of type `ty` with lanes on
    /// axis `k`: `w` lanes there, and for a shared stack every range's
    /// part.
    fn narrowed(&self, ty: &Type, v: VName, k: usize, w: SubExp) -> Type {
        let t = with_dim(ty, k, w);
        if self.wide.contains(&v) {
            t.array_of(self.range.1)
        } else {
            t
        }
    }

    /// The `Inv` results of `body` where `classes` says `Lane`: sliced.
    fn narrow_results(&mut self, body: &mut Body, classes: &[Class], lo: SubExp, w: SubExp) -> Option<()> {
        for (r, c) in body.result.iter_mut().zip(classes) {
            if let Class::Lane(k) = c {
                if self.of_se(r) == Class::Inv {
                    let mut stms = std::mem::take(&mut body.stms);
                    *r = self.own_lanes(&mut stms, *r, *k, lo, w)?;
                    body.stms = stms;
                }
            }
        }
        Some(())
    }
}

/// Gives every variable `body` binds (at any depth, patterns included) a
/// fresh name where `rename` says so, in its uses and results too.
fn fresh_binders(body: &mut Body, names: &mut NameTable, rename: impl Fn(VName) -> bool) {
    let mut binders = Vec::new();
    collect_binders(body, &mut binders);
    let map: HashMap<VName, VName> =
        binders.into_iter().filter(|v| rename(*v)).map(|v| (v, fresh_like(names, v))).collect();
    rename_binders(body, &map);
    rename_uses(body, &|v| map.get(&v).copied());
    for r in &mut body.result {
        if let Some(w) = r.as_var().and_then(|v| map.get(&v)) {
            *r = SubExp::Var(*w);
        }
    }
}
