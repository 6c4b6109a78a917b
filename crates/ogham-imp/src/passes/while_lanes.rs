//! `while_lanes`: maps of `while` loops stepped in vector lanes.
//!
//! A loop whose body runs `while` loops (Mandelbrot's escape count: each
//! pixel iterates until it escapes) is one the C compiler cannot
//! vectorise as written, since every iteration runs its own number of
//! steps. This pass runs it in blocks of [`lane_count`] iterations
//! ("lanes"), each stage of the body as a loop over the lanes, with the
//! variables that cross stages in per-lane local arrays:
//!
//! - a stretch of statements between `while` loops is one loop over the
//!   lanes;
//! - a `while` loop steps all lanes together until none is still running:
//!   a step computes the body for every lane, its branches flattened into
//!   selects, and keeps the new values only where the lane's condition
//!   held (a select, not a branch), so the loop over the lanes vectorises.
//!   A lane that has stopped computes values it throws away, so this is
//!   done only for bodies of arithmetic (no loads, which might be out of
//!   bounds for a lane that should have stopped).
//! - where it can (see [`condition`]), every step after the first tests
//!   the condition on the lane's current values before the body, rather
//!   than the body computing it on the new values at its end: what the
//!   test and the body both compute (Mandelbrot's squares) is computed
//!   once a step, and no lane stores its condition. The first step is
//!   then a loop of its own, taking the lanes whose condition computed
//!   before the loop holds: all of them, without a select, when that
//!   condition is the same for every lane (Mandelbrot's `i < limit`, so
//!   the steps after it test only the new condition: with a lane mask and
//!   a first-step flag in every step, the C reference's inner loop was
//!   1.17x faster than ogham's).
//!
//! Each lane computes exactly what the loop computes, in the same order, so
//! the results are the same. The iterations left after the last whole
//! block run as written. A loop that reads with unknown strides (the
//! general copy `unit_stride` keeps) is left as it is.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;

use super::{copy_block, i64c, let_, rewrite_loops, strided};
use crate::{BinOp, Block, Exp, Kernel, Operand, PrimType, PrimValue, Stm, Var};

const I64: PrimType = PrimType::I64;

/// See the module documentation.
pub fn run(k: &mut Kernel) {
    rewrite_loops(k, &mut |k, header, body, out| match Stages::of(body).filter(|_| !strided(k, body, header.0)) {
        Some(stages) => {
            lanes_loop(k, header, body, &stages, out);
            true
        }
        None => false,
    });
}

/// Lanes per block: four 512-bit vectors of the widest variable the
/// `while` loops assign, so that the dependency chains of several vectors
/// overlap (64 for 32-bit values, 32 for 64-bit ones).
fn lane_count(types: impl Iterator<Item = PrimType>) -> u32 {
    256 / types.map(|t| t.byte_size()).max().unwrap_or(4).max(4) as u32
}

/// A loop body cut at its `while` loops.
struct Stages {
    /// Each stage's statements: a stretch without loops, or one `while`.
    ranges: Vec<std::ops::Range<usize>>,
    /// The variables the body declares that a stage other than their own
    /// reads or assigns, with their types: they live in per-lane arrays.
    crossing: Vec<(Var, PrimType)>,
    /// Per stage, the variables of `crossing` it reads or assigns.
    touched: Vec<BTreeSet<Var>>,
    /// Per stage, the variables it assigns.
    assigned: Vec<BTreeSet<Var>>,
}

impl Stages {
    /// The stages of a body this pass applies to: statements without
    /// loops, reductions or local arrays, assigning only variables they
    /// declare, and at least one `while` whose body is arithmetic and
    /// branches of it (no loads, stores or loops).
    fn of(body: &Block) -> Option<Stages> {
        let mut ranges = Vec::new();
        let mut start = 0;
        for (i, s) in body.stms.iter().enumerate() {
            match s {
                Stm::While { body: w, .. } => {
                    if !arithmetic(w) {
                        return None;
                    }
                    if start < i {
                        ranges.push(start..i);
                    }
                    ranges.push(i..i + 1);
                    start = i + 1;
                }
                Stm::Let { .. } | Stm::Mut { .. } | Stm::Set { .. } | Stm::Store { .. } => {}
                Stm::If { then_block, else_block, .. } if no_loops(then_block) && no_loops(else_block) => {}
                _ => return None,
            }
        }
        if ranges.iter().all(|r| !matches!(body.stms[r.start], Stm::While { .. })) {
            return None;
        }
        if start < body.stms.len() {
            ranges.push(start..body.stms.len());
        }
        // Where each variable is declared, and what each stage touches.
        let mut declared: HashMap<Var, (usize, PrimType)> = HashMap::default();
        let mut touched = Vec::new();
        let mut assigned = Vec::new();
        for (si, r) in ranges.iter().enumerate() {
            let mut t = BTreeSet::new();
            let mut a = BTreeSet::new();
            for s in &body.stms[r.clone()] {
                walk(s, &mut |s| {
                    match s {
                        Stm::Let { var, ty, .. } | Stm::Mut { var, ty, .. } => {
                            declared.insert(*var, (si, *ty));
                            t.insert(*var);
                        }
                        Stm::Set { var, .. } => {
                            a.insert(*var);
                            t.insert(*var);
                        }
                        Stm::While { cond, .. } => {
                            t.insert(*cond);
                        }
                        _ => {}
                    }
                    for o in s.operands() {
                        if let Operand::Var(v) = o {
                            t.insert(v);
                        }
                    }
                });
            }
            touched.push(t);
            assigned.push(a);
        }
        // Every assignment is to a variable of the body.
        if assigned.iter().flatten().any(|v| !declared.contains_key(v)) {
            return None;
        }
        let mut crossing: Vec<(Var, PrimType)> = declared
            .iter()
            .filter(|(v, (si, _))| touched.iter().enumerate().any(|(sj, t)| sj != *si && t.contains(v)))
            .map(|(v, (_, t))| (*v, *t))
            .collect();
        crossing.sort_by_key(|(v, _)| *v);
        let keep: HashSet<Var> = crossing.iter().map(|(v, _)| *v).collect();
        for t in &mut touched {
            t.retain(|v| keep.contains(v));
        }
        Some(Stages { ranges, crossing, touched, assigned })
    }
}

/// Calls `f` on `s` and every statement nested in it.
fn walk(s: &Stm, f: &mut dyn FnMut(&Stm)) {
    f(s);
    match s {
        Stm::For { body, .. } | Stm::While { body, .. } => body.stms.iter().for_each(|s| walk(s, f)),
        Stm::If { then_block, else_block, .. } => {
            then_block.stms.iter().chain(&else_block.stms).for_each(|s| walk(s, f))
        }
        _ => {}
    }
}

fn no_loops(b: &Block) -> bool {
    b.stms.iter().all(|s| match s {
        Stm::For { .. } | Stm::While { .. } | Stm::Accumulate { .. } | Stm::Atomic { .. } => false,
        Stm::Array { .. } | Stm::Alloc { .. } | Stm::Free { .. } => false,
        Stm::If { then_block, else_block, .. } => no_loops(then_block) && no_loops(else_block),
        _ => true,
    })
}

/// Whether a block is `let`s of arithmetic (no loads), `mut`s, `set`s and
/// branches of such blocks: code a lane may run for nothing.
fn arithmetic(b: &Block) -> bool {
    b.stms.iter().all(|s| match s {
        Stm::Let { exp, .. } => !matches!(exp, Exp::Load(..)),
        Stm::Set { exp, .. } => !matches!(exp, Exp::Load(..)),
        Stm::Mut { .. } => true,
        Stm::If { then_block, else_block, .. } => arithmetic(then_block) && arithmetic(else_block),
        _ => false,
    })
}

fn lanes_loop(
    k: &mut Kernel,
    (j, lo, hi, ivdep): (Var, Operand, Operand, bool),
    body: &Block,
    stages: &Stages,
    out: &mut Vec<Stm>,
) {
    let assigned_in_loops = stages
        .ranges
        .iter()
        .zip(&stages.assigned)
        .filter_map(|(r, a)| matches!(body.stms[r.start], Stm::While { .. }).then_some(a));
    let widths: Vec<PrimType> = assigned_in_loops
        .flatten()
        .filter_map(|v| stages.crossing.iter().find(|(c, _)| c == v).map(|(_, t)| *t))
        .collect();
    let n = lane_count(widths.into_iter());
    let nc = i64c(n as i64);
    let len = let_(k, out, "len", I64, Exp::Bin(BinOp::Sub, I64, hi, lo));
    let blocks = let_(k, out, "blocks", I64, Exp::Bin(BinOp::Quot, I64, len, nc));
    let b = k.fresh("block");
    let mut block = Vec::new();
    let jb = let_(k, &mut block, "jb", I64, Exp::Bin(BinOp::Mul, I64, Operand::Var(b), nc));
    let jb = let_(k, &mut block, "jb", I64, Exp::Bin(BinOp::Add, I64, lo, jb));
    let mut lanes: HashMap<Var, Var> = HashMap::default();
    for (v, t) in &stages.crossing {
        let a = k.fresh("lanes");
        block.push(Stm::Array { var: a, elem: *t, len: n });
        lanes.insert(*v, a);
    }
    let name_j = k.names[j.0 as usize].clone();
    let lane_vars = LaneVars { stages, lanes: &lanes, j, name_j: &name_j, jb };
    for (si, r) in stages.ranges.iter().enumerate() {
        let stms = &body.stms[r.clone()];
        let touched = &stages.touched[si];
        let assigned = &stages.assigned[si];
        let declared_here = declared_in(stms);
        let l = k.fresh("l");
        let (mut lane, mut subst, olds) = lane_vars.load(k, si, &declared_here, l);
        match &stms[0] {
            Stm::While { cond, body: w } if stms.len() == 1 => {
                let any = k.fresh("any");
                let step = lane_vars.step(k, w, &mut subst, &olds);
                // Only the lanes still running keep their new values.
                let Some(ci) = olds.iter().position(|(v, ..)| v == cond) else {
                    // The condition is not a lane variable: cannot happen, as
                    // the loop assigns it and it is declared before the loop.
                    out.push(Stm::For { index: j, lo, hi, ivdep, body: body.clone() });
                    return;
                };
                let (_, running, cur_cond) = olds[ci];
                let read_later = stages.touched[si + 1..].iter().any(|t| t.contains(cond));
                let curs: Vec<Var> = olds.iter().map(|(.., cur)| *cur).collect();
                let first_test = if read_later { None } else { condition(k, &step, cur_cond, &curs) };
                let lanes_loop = |stms| Stm::For { index: l, lo: i64c(0), hi: nc, ivdep: true, body: Block { stms } };
                let reset = Stm::Set { var: any, exp: Exp::Operand(Operand::Const(PrimValue::Bool(false))) };
                let bool_ = PrimType::Bool;
                let Some((test, next)) = first_test else {
                    lane.extend(step);
                    for (v, old, cur) in &olds {
                        let keep = lane_vars.keep(k, &mut lane, l, *v, Some(running), (*cur, *old));
                        if v == cond {
                            let exp = Exp::Bin(BinOp::LogOr, bool_, Operand::Var(any), keep);
                            lane.push(Stm::Set { var: any, exp });
                        }
                    }
                    block.push(Stm::Mut { var: any, ty: bool_, init: Operand::Const(PrimValue::Bool(true)) });
                    block.push(Stm::While { cond: any, body: Block { stms: vec![reset, lanes_loop(lane)] } });
                    continue;
                };
                // Condition first. The first step is peeled: it takes the
                // lanes whose condition, computed before the loop, holds
                // (all or none when that is the same for every lane);
                // every later step those whose condition holds on their
                // current values, still running.
                let uniform = uniform_start(body, r.start, *cond, j, stages);
                let l0 = k.fresh("l");
                let (mut first, mut subst0, olds0) = lane_vars.load(k, si, &declared_here, l0);
                // The same loads as the later steps', so the same position.
                let running0 = olds0[ci].1;
                first.extend(lane_vars.step(k, w, &mut subst0, &olds0));
                let mask0 = uniform.is_none().then_some(running0);
                for (v, old, cur) in olds0.iter().filter(|(v, ..)| v != cond) {
                    lane_vars.keep(k, &mut first, l0, *v, mask0, (*cur, *old));
                }
                lane.extend(test);
                let go = match uniform {
                    Some(_) => next,
                    None => let_(k, &mut lane, "go", bool_, Exp::Bin(BinOp::LogAnd, bool_, running, next)),
                };
                lane.extend(step);
                for (v, old, cur) in olds.iter().filter(|(v, ..)| v != cond) {
                    lane_vars.keep(k, &mut lane, l, *v, Some(go), (*cur, *old));
                }
                lane.push(Stm::Set { var: any, exp: Exp::Bin(BinOp::LogOr, bool_, Operand::Var(any), go) });
                if uniform.is_none() {
                    first.push(Stm::Set { var: any, exp: Exp::Bin(BinOp::LogOr, bool_, Operand::Var(any), running0) });
                }
                let first = Stm::For { index: l0, lo: i64c(0), hi: nc, ivdep: true, body: Block { stms: first } };
                let later = Stm::While { cond: any, body: Block { stms: vec![reset, lanes_loop(lane)] } };
                match uniform {
                    Some(start) => {
                        block.push(Stm::Mut { var: any, ty: bool_, init: start });
                        block.push(Stm::If {
                            cond: Operand::Var(any),
                            then_block: Block { stms: vec![first, later] },
                            else_block: Block::default(),
                        });
                    }
                    None => {
                        block.push(Stm::Mut { var: any, ty: bool_, init: Operand::Const(PrimValue::Bool(false)) });
                        block.push(first);
                        block.push(later);
                    }
                }
            }
            _ => {
                let copy = copy_block(k, &Block { stms: stms.to_vec() }, &mut subst);
                lane.extend(copy.stms);
                // What later stages read of this one, into the lanes.
                for v in touched.iter().filter(|v| declared_here.contains(v) || assigned.contains(v)) {
                    let value = subst.get(v).copied().unwrap_or(Operand::Var(*v));
                    lane.push(Stm::Store { ptr: lanes[v], index: Operand::Var(l), value });
                }
                block.push(Stm::For { index: l, lo: i64c(0), hi: nc, ivdep, body: Block { stms: lane } });
            }
        }
    }
    out.push(Stm::For { index: b, lo: i64c(0), hi: blocks, ivdep: false, body: Block { stms: block } });
    let done = let_(k, out, "tail", I64, Exp::Bin(BinOp::Mul, I64, blocks, nc));
    let tail = let_(k, out, "tail", I64, Exp::Bin(BinOp::Add, I64, lo, done));
    let mut subst = HashMap::default();
    let copy =
        copy_block(k, &Block { stms: vec![Stm::For { index: j, lo, hi, ivdep, body: body.clone() }] }, &mut subst);
    if let Some(Stm::For { index, body, .. }) = copy.stms.into_iter().next() {
        out.push(Stm::For { index, lo: tail, hi, ivdep, body });
    }
}

/// What the lane loops of one block share: the per-lane arrays of the
/// crossing variables, the original loop's index and the block's first
/// index.
struct LaneVars<'a> {
    stages: &'a Stages,
    lanes: &'a HashMap<Var, Var>,
    j: Var,
    name_j: &'a str,
    jb: Operand,
}

impl LaneVars<'_> {
    /// The start of a lane loop's body for stage `si`, with lane index `l`:
    /// the original index, and the variables of earlier stages the stage
    /// reads or assigns, loaded from their lanes (into a `mut` copy where
    /// the stage assigns them). Returns the statements, the substitution
    /// for the stage's statements and, for each assigned variable, the
    /// variable, its loaded value and its copy.
    fn load(
        &self,
        k: &mut Kernel,
        si: usize,
        declared_here: &HashSet<Var>,
        l: Var,
    ) -> (Vec<Stm>, HashMap<Var, Operand>, Vec<(Var, Operand, Var)>) {
        let mut lane = Vec::new();
        let jl = let_(k, &mut lane, self.name_j, I64, Exp::Bin(BinOp::Add, I64, self.jb, Operand::Var(l)));
        let mut subst: HashMap<Var, Operand> = HashMap::from_iter([(self.j, jl)]);
        let mut olds = Vec::new();
        for v in self.stages.touched[si].iter().filter(|v| !declared_here.contains(v)) {
            let t = type_of(self.stages, *v);
            let old = let_(k, &mut lane, "old", t, Exp::Load(self.lanes[v], Operand::Var(l)));
            if self.stages.assigned[si].contains(v) {
                let cur = k.fresh("cur");
                lane.push(Stm::Mut { var: cur, ty: t, init: old });
                subst.insert(*v, Operand::Var(cur));
                olds.push((*v, old, cur));
            } else {
                subst.insert(*v, old);
            }
        }
        (lane, subst, olds)
    }

    /// One step of a `while` loop's body `w` for a lane, its branches
    /// flattened into selects.
    fn step(
        &self,
        k: &mut Kernel,
        w: &Block,
        subst: &mut HashMap<Var, Operand>,
        olds: &[(Var, Operand, Var)],
    ) -> Vec<Stm> {
        let step = copy_block(k, w, subst);
        let mut types: HashMap<Var, PrimType> =
            olds.iter().map(|(v, _, cur)| (*cur, type_of(self.stages, *v))).collect();
        flatten(k, step.stms, &mut types)
    }

    /// Stores the new value `cur` of lane variable `v` into its lane, where
    /// `mask` holds (always without one), else its old value; lane index `l`.
    fn keep(
        &self,
        k: &mut Kernel,
        lane: &mut Vec<Stm>,
        l: Var,
        v: Var,
        mask: Option<Operand>,
        (cur, old): (Var, Operand),
    ) -> Operand {
        let keep = match mask {
            Some(mask) => let_(k, lane, "keep", type_of(self.stages, v), Exp::Select(mask, Operand::Var(cur), old)),
            None => Operand::Var(cur),
        };
        lane.push(Stm::Store { ptr: self.lanes[&v], index: Operand::Var(l), value: keep });
        keep
    }
}

/// The variables statements declare, nested ones included.
fn declared_in(stms: &[Stm]) -> HashSet<Var> {
    let mut d = HashSet::default();
    for s in stms {
        walk(s, &mut |s| {
            if let Stm::Let { var, .. } | Stm::Mut { var, .. } = s {
                d.insert(*var);
            }
        });
    }
    d
}

/// The value a `while` loop's condition variable has before the loop (at
/// statement `at` of the body) when it is the same for every lane: the
/// body declares it `mut cond = x` at its top level, with `x` a constant
/// or a variable from outside the loop (not its index), and only the
/// `while` loop assigns it.
fn uniform_start(body: &Block, at: usize, cond: Var, j: Var, stages: &Stages) -> Option<Operand> {
    let outer = |o: &Operand| match o {
        Operand::Const(_) => true,
        Operand::Var(v) => *v != j && !declared_in(&body.stms).contains(v),
    };
    let assigns = stages.ranges.iter().zip(&stages.assigned).filter(|(_, a)| a.contains(&cond)).count();
    if assigns != 1 {
        return None;
    }
    body.stms[..at].iter().find_map(|s| match s {
        Stm::Mut { var, init, .. } if *var == cond && outer(init) => Some(*init),
        _ => None,
    })
}

/// The loop condition as a function of the lanes' current values, for
/// stepping "condition first": a `while` loop's body (flattened, `step`)
/// computes the new values and then the condition on them, so the next
/// step would compute the same squares again (Mandelbrot's |z|²). Every
/// step after the first instead tests the condition on the values the
/// lane has, and the lanes where it holds take the step; a lane that
/// stops keeps its values, so its condition stays false.
///
/// This is the backward slice of the last assignment to `cond` (the lane
/// variable of the loop condition), where a read of a value the step
/// assigns last to a lane variable (`set cur = x`) becomes a read of that
/// variable, and a read of a lane variable after its last assignment
/// stays as it is. Returns the slice's copy and the operand holding the
/// condition, or `None` if the slice reads anything else of the step's
/// old values (such as a lane variable before it is assigned).
fn condition(k: &mut Kernel, step: &[Stm], cond: Var, curs: &[Var]) -> Option<(Vec<Stm>, Operand)> {
    let curs: HashSet<Var> = curs.iter().copied().collect();
    let mut last: HashMap<Var, usize> = HashMap::default();
    // Each `let`, with the `let` it copies if it is a copy of one.
    let mut lets: HashMap<Var, Option<Var>> = HashMap::default();
    for (i, s) in step.iter().enumerate() {
        match s {
            Stm::Set { var, .. } if curs.contains(var) => {
                last.insert(*var, i);
            }
            Stm::Let { var, exp, .. } => {
                let copy = match exp {
                    Exp::Operand(Operand::Var(x)) => lets.contains_key(x).then_some(*x),
                    _ => None,
                };
                lets.insert(*var, copy);
            }
            Stm::Set { .. } | Stm::Mut { .. } => {}
            _ => return None,
        }
    }
    let ci = *last.get(&cond)?;
    let mut new_value: HashMap<Var, Operand> = HashMap::default();
    for (p, i) in &last {
        if let Stm::Set { exp: Exp::Operand(Operand::Var(x)), .. } = &step[*i] {
            // The value and every `let` it is a copy of.
            let mut x = (*p != cond).then_some(*x);
            while let Some(v) = x {
                let Some(copied) = lets.get(&v) else { break };
                new_value.insert(v, Operand::Var(*p));
                x = *copied;
            }
        }
    }
    let Stm::Set { exp: test, .. } = &step[ci] else { return None };
    let mut needed: HashSet<Var> = HashSet::default();
    // Whether statement `i` reads only what the slice may read; the
    // variables of the step it reads become needed.
    let reads = |i: usize, ops: Vec<Operand>, needed: &mut HashSet<Var>| {
        ops.iter().all(|o| match o {
            Operand::Var(x) if new_value.contains_key(x) => true,
            Operand::Var(x) if curs.contains(x) => last.get(x).is_none_or(|l| i > *l),
            Operand::Var(x) => {
                needed.insert(*x);
                true
            }
            Operand::Const(_) => true,
        })
    };
    if !reads(ci, test.operands(), &mut needed) {
        return None;
    }
    let mut slice = Vec::new();
    for i in (0..ci).rev() {
        let (Stm::Let { var, .. } | Stm::Set { var, .. } | Stm::Mut { var, .. }) = &step[i] else { return None };
        if needed.contains(var) {
            if !reads(i, step[i].operands(), &mut needed) {
                return None;
            }
            slice.push(step[i].clone());
        }
    }
    slice.reverse();
    let next = k.fresh("next");
    slice.push(Stm::Let { var: next, ty: PrimType::Bool, exp: test.clone() });
    let mut subst = new_value;
    let copy = copy_block(k, &Block { stms: slice }, &mut subst);
    let next = subst.get(&next).copied()?;
    Some((copy.stms, next))
}

fn type_of(stages: &Stages, v: Var) -> PrimType {
    stages.crossing.iter().find(|(c, _)| *c == v).map_or(PrimType::I64, |(_, t)| *t)
}

/// The statements with every `if` replaced by both branches and selects:
/// each variable a branch assigns gets `select(cond, then-value,
/// else-value)`, a branch that does not assign it giving its current value.
/// Statements must be [`arithmetic`]; `types` has the type of every
/// variable in scope, and gets those the statements declare.
fn flatten(k: &mut Kernel, stms: Vec<Stm>, types: &mut HashMap<Var, PrimType>) -> Vec<Stm> {
    let mut out = Vec::new();
    for s in stms {
        match s {
            Stm::If { cond, then_block, else_block } => {
                let then_vals = branch(k, then_block, types, &mut out);
                let else_vals = branch(k, else_block, types, &mut out);
                let mut vars: Vec<Var> = then_vals.keys().chain(else_vals.keys()).copied().collect();
                vars.sort();
                vars.dedup();
                for v in vars {
                    let a = then_vals.get(&v).copied().unwrap_or(Operand::Var(v));
                    let b = else_vals.get(&v).copied().unwrap_or(Operand::Var(v));
                    out.push(Stm::Set { var: v, exp: Exp::Select(cond, a, b) });
                }
            }
            s => {
                if let Stm::Let { var, ty, .. } | Stm::Mut { var, ty, .. } = &s {
                    types.insert(*var, *ty);
                }
                out.push(s)
            }
        }
    }
    out
}

/// A branch's statements, flattened into `out` with its assignments turned
/// into `let`s; the value each variable it assigns has at its end.
fn branch(k: &mut Kernel, b: Block, types: &mut HashMap<Var, PrimType>, out: &mut Vec<Stm>) -> HashMap<Var, Operand> {
    let mut vals: HashMap<Var, Operand> = HashMap::default();
    let sub = |vals: &HashMap<Var, Operand>, o: &mut Operand| {
        if let Operand::Var(v) = o {
            if let Some(x) = vals.get(v) {
                *o = *x;
            }
        }
    };
    for s in flatten(k, b.stms, types) {
        match s {
            Stm::Let { var, ty, mut exp } => {
                exp.map_operands(|o| sub(&vals, o));
                out.push(Stm::Let { var, ty, exp });
            }
            Stm::Mut { var, ty, mut init } => {
                sub(&vals, &mut init);
                out.push(Stm::Mut { var, ty, init });
            }
            Stm::Set { var, mut exp } => {
                exp.map_operands(|o| sub(&vals, o));
                let t = types.get(&var).copied().unwrap_or(PrimType::Bool);
                let x = let_(k, out, "branch", t, exp);
                vals.insert(var, x);
            }
            s => out.push(s),
        }
    }
    vals
}
