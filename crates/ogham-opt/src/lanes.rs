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
//! values), and the ranges' saved values are copied into the map's
//! result, then put side by side for the return sweep. On two threads
//! its rewritten sweeps do 1.7-1.85 times the sequential work, and the
//! gradient took 0.8-1.1 times the sequential time (its times vary more
//! than the objective's between runs; see `benchmarks/README.md`).
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
    for fi in 0..prog.funs.len() {
        let mut body = prog.funs[fi].body.clone();
        let mut types: HashMap<VName, Type> = prog.funs[fi].params.iter().map(|p| (p.name, p.ty.clone())).collect();
        collect_types_body(&body, &mut types);
        let mut leaves = leaves.clone();
        leaves.remove(&prog.funs[fi].name);
        let mut fun =
            Fun { leaves, types, iotas: HashMap::default(), scratches: BTreeSet::new(), threads: target.threads };
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
    changed
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
    let fun: &Fun = fun;
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
        let mut lanes = Lanes { b, class: Classes::default(), fun };
        let pc = lanes.loop_classes(params, form, body, seed);
        if !pc.iter().any(|c| matches!(c, Class::Lane(_))) {
            continue;
        }
        let class = lanes.class;
        let rewrite = Rewrite { b, class, fun, names: &mut prog.names, span: stm.span, scratch: BTreeSet::new() };
        if let Some(stms) = rewrite.run(&stm, &pc) {
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
    fn run(mut self, stm: &Stm, pc: &[Class]) -> Option<Vec<Stm>> {
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
                out.push(this.stm(
                    vec![Param { name: *su, ty: st.clone() }],
                    Exp::Update { array: *sp, slice: vec![DimIndex::Fix(SubExp::Var(i))], value: SubExp::Var(v) },
                ));
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
        let (nr, w) = self.split(&mut out);
        let mut lanes_version = Vec::new();
        let l1_body = Body { stms: l1_stms, result: l1_result };
        self.ranges(&mut lanes_version, &l1_pat, &l1_classes, l1_params, i, bound, l1_body, (nr, w))?;
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
        let mut then_body = Body { stms: hoisted.into_iter().chain(lanes_version).collect(), result: result.clone() };
        fresh_binders(&mut then_body, self.names, |_| true);
        // The loop as written, `#[sequential]` so that it stays so.
        let mut fallback = original.clone();
        fallback.attrs.sequential = true;
        let mut else_body = Body { stms: vec![fallback], result };
        fresh_binders(&mut else_body, self.names, |_| true);
        out.push(Stm {
            pat: stm.pat.clone(),
            exp: Exp::If { cond: fits, then_body, else_body },
            attrs: StmAttrs::default(),
            span: stm.span,
        });
        Some(out)
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
    ) -> Option<()> {
        let rs = self.bind(
            out,
            "ranges",
            Type::Array { elem: PrimType::I64, shape: vec![nr] },
            Exp::Iota { n: nr, start: SubExp::i64(0), step: SubExp::i64(1), elem: PrimType::I64 },
        );

        // The range's lambda.
        let r = self.names.fresh("range");
        let mut lam = Vec::new();
        let lo = self.binop(&mut lam, "lo", BinOp::Mul, SubExp::Var(r), w);
        let mut range_params = Vec::with_capacity(params.len());
        for ((p, init), c) in params.iter().zip(classes) {
            if self.scratch.contains(&p.name) || init.as_var().is_some_and(|v| self.fun.scratches.contains(&v)) {
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
            .map(|(p, c)| Param {
                name: fresh_like(self.names, p.name),
                ty: match c {
                    Class::Lane(k) => with_dim(&p.ty, *k, w),
                    _ => p.ty.clone(),
                },
            })
            .collect();
        lam.push(
            self.stm(range_pat.clone(), Exp::Loop { params: range_params, form: LoopForm::For { i, bound }, body }),
        );
        let lam_result: Vec<SubExp> = range_pat.iter().map(|p| SubExp::Var(p.name)).collect();
        let lam_ret: Vec<Type> = range_pat.iter().map(|p| p.ty.clone()).collect();
        let lambda = Lambda {
            params: vec![Param { name: r, ty: i64_ty() }],
            body: Body { stms: lam, result: lam_result },
            ret: lam_ret.clone(),
        };
        let parts_pat: Vec<Param> =
            lam_ret.iter().map(|t| Param { name: self.names.fresh("parts"), ty: t.array_of(nr) }).collect();
        let parts: Vec<VName> = parts_pat.iter().map(|p| p.name).collect();
        out.push(self.stm(
            parts_pat,
            Exp::Soac(Soac::Screma { w: nr, arrs: vec![rs], scans: vec![], reduces: vec![], map: lambda }),
        ));
        // Reassembly: the ranges' lanes side by side on their axis.
        for ((p, c), part) in pat.iter().zip(classes).zip(parts) {
            match c {
                Class::Lane(k) => {
                    let rank = p.ty.rank();
                    let mut perm: Vec<usize> = (1..=*k).collect();
                    perm.push(0);
                    perm.extend(*k + 1..=rank);
                    let mut shape: Vec<SubExp> = p.ty.shape()[..*k].to_vec();
                    shape.push(nr);
                    shape.push(w);
                    shape.extend_from_slice(&p.ty.shape()[*k + 1..]);
                    // One copy: the ranges' lanes put side by side (a
                    // fresh array in that order), then seen with the lanes
                    // as one axis (a view). The other way round, a reshape
                    // of the rearranged view would be a copy in the C
                    // backend before the copy proper.
                    let tr = if *k == 0 {
                        part
                    } else {
                        let ty = Type::Array { elem: p.ty.elem(), shape };
                        let tr = self.bind(out, "parts", ty.clone(), Exp::Rearrange { array: part, perm });
                        self.bind(out, "parts", ty, Exp::Copy(tr))
                    };
                    out.push(self.stm(vec![p.clone()], Exp::Reshape { array: tr, shape: p.ty.shape().to_vec() }));
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
        Some(())
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
        let mut slice: Vec<DimIndex> = ty.shape()[..k]
            .iter()
            .map(|d| DimIndex::Slice { start: SubExp::i64(0), len: *d, stride: SubExp::i64(1) })
            .collect();
        slice.push(DimIndex::Slice { start: lo, len, stride: SubExp::i64(1) });
        Some(SubExp::Var(self.bind(out, "lanes", with_dim(ty, k, len), Exp::Index { array: v, slice })))
    }

    /// The range's rows `lo .. lo + w` of the `Inv` input `a` of a map (or
    /// `withacc`) whose function takes rows of type `row` (a view).
    fn rows_of(&mut self, out: &mut Vec<Stm>, a: VName, row: &Type, lo: SubExp, w: SubExp) -> VName {
        let slice = vec![DimIndex::Slice { start: lo, len: w, stride: SubExp::i64(1) }];
        self.bind(out, "lanes", row.array_of(w), Exp::Index { array: a, slice })
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
            let lane = stm.pat.iter().any(|p| matches!(self.of(p.name), Class::Lane(_)));
            if !lane {
                out.push(stm);
                continue;
            }
            for p in &mut stm.pat {
                if let Class::Lane(k) = self.of(p.name) {
                    p.ty = with_dim(&p.ty, k, w);
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
                        if self.of(*a) == Class::Inv {
                            *a = self.own_lanes(&mut out, SubExp::Var(*a), k, lo, w)?.as_var()?;
                        }
                        let p = &mut map.params[pos];
                        p.ty = with_dim(&p.ty, k, w);
                        map.ret[pos] = p.ty.clone();
                        narrowed.insert(p.name, p.ty.clone());
                    }
                    for s in &mut map.body.stms {
                        if let Exp::UpdAcc { acc, .. } = &s.exp {
                            if let Some(ty) = narrowed.get(acc).cloned() {
                                s.pat[0].ty = ty.clone();
                                narrowed.insert(s.pat[0].name, ty);
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
                    if self.of(*array) == Class::Inv {
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
                }
                Exp::Loop { params, body, .. } => {
                    for (p, init) in params.iter_mut() {
                        if let Class::Lane(k) = self.of(p.name) {
                            if self.of_se(init) == Class::Inv {
                                *init = self.own_lanes(&mut out, *init, k, lo, w)?;
                            }
                            p.ty = with_dim(&p.ty, k, w);
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
