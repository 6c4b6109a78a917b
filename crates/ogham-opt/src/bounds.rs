//! Bounds-check elimination: an `index` or `update` whose indices are all
//! provably in bounds is marked `#[unsafe]`, so no backend checks it; so
//! is an `updacc` (which skips an update out of bounds), so that no
//! backend tests it.
//!
//! A stencil's `t[i64.max 0 (i - 1), j]` inside `tabulate r c` needs no check:
//! `i` runs over `[0, r - 1]`, so `i - 1 ≤ r - 2` and `max 0 (i - 1)` lies in
//! `[0, r - 1]`. Each known variable has lower and upper bounds that are
//! linear terms `v + k` (or constants), and the facts its derivation relies
//! on (an index of a loop over `[0, n)` exists only when `n - 1 ≥ 0`). Facts
//! travel with the values derived from the loop index, so they are used only
//! where that index is in scope. Array sizes are never negative.
//!
//! What is recorded ([`Ranges`]): loop indices (`for i < n`, and the rows of
//! an `iota n` that a SOAC reads), copies, adding or subtracting a constant,
//! a loop index counted down (`(n - 1) - i`), `min` and `max`, and `a mod
//! n` indexing a dimension of size `n`. Anything
//! else is unknown, and its checks stay. A statement with a slice (not a
//! single index) in any dimension keeps its checks.

use ogham_ir::{BinOp, Body, DimIndex, Exp, Lambda, PrimType, PrimValue, Program, Soac, Stm, SubExp, Type, VName};
use rustc_hash::FxHashMap as HashMap;

/// Marks the provably safe indexing of every function (and of the constants).
pub fn bounds_program(prog: &mut Program) {
    let mut marker = Marker::default();
    for p in prog.const_params() {
        marker.types.insert(p.name, p.ty.clone());
    }
    crate::on_consts(prog, |body, _| marker.body(body));
    for f in &mut prog.funs {
        for p in &f.params {
            marker.types.insert(p.name, p.ty.clone());
        }
        marker.body(&mut f.body);
    }
}

/// The walk: ranges and types of the variables seen so far (names are
/// unique in the program, so one table serves every scope), and the
/// `iota n` arrays (`0, 1, …`), whose rows a SOAC reads as indices.
#[derive(Default)]
struct Marker {
    ranges: Ranges,
    types: HashMap<VName, Type>,
    iotas: HashMap<VName, SubExp>,
}

impl Marker {
    fn body(&mut self, body: &mut Body) {
        for stm in &mut body.stms {
            self.stm(stm);
        }
    }

    fn stm(&mut self, stm: &mut Stm) {
        self.ranges.stm(stm);
        for p in &stm.pat {
            self.types.insert(p.name, p.ty.clone());
        }
        let arrs: Vec<VName> = match &stm.exp {
            Exp::Index { array, slice } | Exp::Update { array, slice, .. } | Exp::UpdAcc { acc: array, slice, .. } => {
                if self.proven(*array, slice) {
                    stm.attrs.unsafe_ = true;
                }
                Vec::new()
            }
            Exp::Iota { n, start: SubExp::Const(s), step: SubExp::Const(k), elem: PrimType::I64 }
                if s.as_i64() == 0 && k.as_i64() == 1 =>
            {
                if let Some(p) = stm.pat.first() {
                    self.iotas.insert(p.name, *n);
                }
                Vec::new()
            }
            Exp::Soac(Soac::Screma { arrs, .. } | Soac::Hist { arrs, .. } | Soac::Scatter { arrs, .. }) => arrs.clone(),
            // The function takes the accumulators, then the rows.
            Exp::Soac(Soac::WithAcc { accs, arrs, .. }) => accs.iter().chain(arrs).copied().collect(),
            _ => Vec::new(),
        };
        match &mut stm.exp {
            Exp::Loop { params, form, body } => {
                for (p, _) in params.iter() {
                    self.types.insert(p.name, p.ty.clone());
                }
                if let ogham_ir::LoopForm::For { i, bound } = form {
                    self.ranges.loop_index(*i, bound);
                }
                self.body(body);
            }
            Exp::If { then_body, else_body, .. } => {
                self.body(then_body);
                self.body(else_body);
            }
            Exp::Soac(soac) => {
                let lams = ogham_ir::visit::soac_lambdas_mut(soac);
                let last = lams.len() - 1;
                for (k, lam) in lams.into_iter().enumerate() {
                    // The map function (the last) reads the input rows.
                    self.lambda(lam, if k == last { &arrs } else { &[] });
                }
            }
            _ => {}
        }
    }

    /// A lambda whose parameters are bound to rows of `arrs` (none for operators).
    fn lambda(&mut self, lam: &mut Lambda, arrs: &[VName]) {
        for (k, p) in lam.params.iter().enumerate() {
            self.types.insert(p.name, p.ty.clone());
            if let Some(n) = arrs.get(k).and_then(|a| self.iotas.get(a)).copied() {
                self.ranges.loop_index(p.name, &n);
            }
        }
        self.body(&mut lam.body);
    }

    /// Whether every dimension of `slice` is a single index proven in bounds.
    fn proven(&self, array: VName, slice: &[DimIndex]) -> bool {
        let Some(ty) = self.types.get(&array) else { return false };
        let shape = ty.shape();
        !slice.is_empty()
            && slice.iter().enumerate().all(|(d, di)| match (di, shape.get(d)) {
                (DimIndex::Fix(i), Some(dim)) => self.ranges.in_bounds(i, dim),
                _ => false,
            })
    }
}

/// `base + off`, or the constant `off` when `base` is `None`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Lin {
    base: Option<VName>,
    off: i64,
}

impl Lin {
    fn shift(self, k: i64) -> Option<Lin> {
        Some(Lin { base: self.base, off: self.off.checked_add(k)? })
    }
}

/// What is known of one variable.
#[derive(Clone, Debug, Default)]
struct Range {
    /// The variable is at least the least of these.
    lo: Vec<Lin>,
    /// The variable is at most the greatest of these.
    hi: Vec<Lin>,
    /// Terms known to be non-negative where the variable exists.
    facts: Vec<Lin>,
}

#[derive(Default)]
pub struct Ranges {
    known: HashMap<VName, Range>,
    /// Variables that are exactly another plus a constant (`n - 1`), kept
    /// apart from their ranges: a size that is itself a `max` (`d = max
    /// (c - 1) 0`) has no exact range, but `d - 1` is still exactly `d +
    /// (-1)`, which is what a loop over `d` counted down needs.
    exact: HashMap<VName, Lin>,
    /// Variables that are at least each of some others: `m = max a b` is
    /// at least `a` and at least `b`.
    at_least: HashMap<VName, Vec<VName>>,
    /// Variables that are `a mod n` (rounding down: the sign of `n`), with
    /// `n`. Below a size `n`, which is never negative, such a variable is
    /// in `[0, n)` wherever it exists: with `n = 0` the `mod` fails before
    /// anything uses it.
    modulo: HashMap<VName, SubExp>,
}

impl Ranges {
    /// `i` runs over `[0, bound)`.
    pub fn loop_index(&mut self, i: VName, bound: &SubExp) {
        let top = match bound {
            SubExp::Var(n) => Lin { base: Some(*n), off: -1 },
            SubExp::Const(PrimValue::I64(n)) => Lin { base: None, off: n - 1 },
            SubExp::Const(_) => return,
        };
        let zero = Lin { base: None, off: 0 };
        self.known.insert(i, Range { lo: vec![zero], hi: vec![top], facts: vec![top] });
    }

    /// Records what a statement tells about its result.
    pub fn stm(&mut self, stm: &Stm) {
        let [p] = stm.pat.as_slice() else { return };
        let range = match &stm.exp {
            Exp::SubExp(a) => Some(self.of(a)),
            Exp::BinOp(op, PrimType::I64, a, b) => self.binop(*op, a, b),
            _ => None,
        };
        if let Some(r) = range {
            self.known.insert(p.name, r);
        }
        let exact = match &stm.exp {
            Exp::SubExp(SubExp::Var(a)) => Some(self.exact_of(*a)),
            Exp::BinOp(BinOp::Add, PrimType::I64, SubExp::Var(a), SubExp::Const(PrimValue::I64(k)))
            | Exp::BinOp(BinOp::Add, PrimType::I64, SubExp::Const(PrimValue::I64(k)), SubExp::Var(a)) => {
                self.exact_of(*a).shift(*k)
            }
            Exp::BinOp(BinOp::Sub, PrimType::I64, SubExp::Var(a), SubExp::Const(PrimValue::I64(k))) => {
                k.checked_neg().and_then(|k| self.exact_of(*a).shift(k))
            }
            _ => None,
        };
        if let Some(e) = exact {
            self.exact.insert(p.name, e);
        }
        if let Exp::BinOp(BinOp::Mod, PrimType::I64, _, n) = &stm.exp {
            self.modulo.insert(p.name, *n);
        }
        if let Exp::BinOp(BinOp::Max, PrimType::I64, a, b) = &stm.exp {
            let vars: Vec<VName> =
                [a, b].into_iter().filter_map(|x| if let SubExp::Var(v) = x { Some(*v) } else { None }).collect();
            if !vars.is_empty() {
                self.at_least.insert(p.name, vars);
            }
        }
    }

    /// `a` as exactly a variable plus a constant: itself, or what it was
    /// derived from by adding constants.
    fn exact_of(&self, a: VName) -> Lin {
        self.exact.get(&a).copied().unwrap_or(Lin { base: Some(a), off: 0 })
    }

    fn binop(&self, op: BinOp, a: &SubExp, b: &SubExp) -> Option<Range> {
        let (ra, rb) = (self.of(a), self.of(b));
        let shifted = |r: Range, k: i64| -> Option<Range> {
            Some(Range {
                lo: r.lo.iter().map(|l| l.shift(k)).collect::<Option<_>>()?,
                hi: r.hi.iter().map(|l| l.shift(k)).collect::<Option<_>>()?,
                facts: r.facts,
            })
        };
        let constant = |x: &SubExp| match x {
            SubExp::Const(PrimValue::I64(k)) => Some(*k),
            _ => None,
        };
        let facts = || [ra.facts.clone(), rb.facts.clone()].concat();
        match op {
            BinOp::Add => match (constant(a), constant(b)) {
                (_, Some(k)) => shifted(ra, k),
                (Some(k), _) => shifted(rb, k),
                _ => None,
            },
            BinOp::Sub => match (constant(b), a) {
                (Some(k), _) => shifted(ra, k.checked_neg()?),
                (None, SubExp::Var(v)) => {
                    let e = self.exact_of(*v);
                    let exact = Range { lo: vec![e], hi: vec![e], facts: ra.facts.clone() };
                    Self::reversed(&exact, &rb).or_else(|| Self::reversed(&ra, &rb))
                }
                (None, _) => Self::reversed(&ra, &rb),
            },
            BinOp::Max => {
                let lo = if self.all_nonneg(&ra.lo, &ra.facts) { ra.lo.clone() } else { rb.lo.clone() };
                Some(Range { lo, hi: [ra.hi.clone(), rb.hi.clone()].concat(), facts: facts() })
            }
            BinOp::Min => {
                // Either operand's upper bound bounds the minimum; keep the
                // tighter one when they are comparable.
                let hi = match (ra.hi.as_slice(), rb.hi.as_slice()) {
                    ([x], [y]) if x.base == y.base && y.off < x.off => rb.hi.clone(),
                    _ => ra.hi.clone(),
                };
                Some(Range { lo: [ra.lo.clone(), rb.lo.clone()].concat(), hi, facts: facts() })
            }
            _ => None,
        }
    }

    /// `a - b` where `a` is exactly `n + c` and `b` runs over `[0, n + h]`
    /// (a loop index counted down, `(n - 1) - k` for `k < n`, as reverse
    /// mode's return sweeps read their checkpoints): between `c - h` and
    /// `n + c`, wherever `b` exists.
    fn reversed(ra: &Range, rb: &Range) -> Option<Range> {
        let ([a_lo], [a_hi]) = (ra.lo.as_slice(), ra.hi.as_slice()) else { return None };
        let ([b_lo], [b_hi]) = (rb.lo.as_slice(), rb.hi.as_slice()) else { return None };
        let exact = a_lo == a_hi && a_lo.base.is_some();
        if !exact || *b_lo != (Lin { base: None, off: 0 }) || b_hi.base != a_lo.base {
            return None;
        }
        let lo = Lin { base: None, off: a_lo.off.checked_sub(b_hi.off)? };
        Some(Range { lo: vec![lo], hi: vec![*a_hi], facts: [ra.facts.clone(), rb.facts.clone()].concat() })
    }

    fn of(&self, x: &SubExp) -> Range {
        match x {
            SubExp::Const(PrimValue::I64(k)) => {
                let l = Lin { base: None, off: *k };
                Range { lo: vec![l], hi: vec![l], facts: vec![] }
            }
            SubExp::Var(v) => self.known.get(v).cloned().unwrap_or_else(|| {
                let l = Lin { base: Some(*v), off: 0 };
                Range { lo: vec![l], hi: vec![l], facts: vec![] }
            }),
            SubExp::Const(_) => Range::default(),
        }
    }

    fn all_nonneg(&self, terms: &[Lin], facts: &[Lin]) -> bool {
        !terms.is_empty()
            && terms.iter().all(|t| match t.base {
                None => t.off >= 0,
                // base + off ≥ base + k ≥ 0 for a fact base + k ≥ 0 with k ≤ off.
                Some(b) => facts.iter().any(|f| f.base == Some(b) && f.off <= t.off),
            })
    }

    /// Whether `0 ≤ idx < dim` holds wherever `idx` is in scope; `dim` is an
    /// array's size.
    pub fn in_bounds(&self, idx: &SubExp, dim: &SubExp) -> bool {
        if let SubExp::Var(i) = idx {
            let positive = |n: &SubExp| matches!(n, SubExp::Const(PrimValue::I64(k)) if *k > 0);
            if self.modulo.get(i).is_some_and(|n| n == dim && (positive(n) || matches!(n, SubExp::Var(_)))) {
                return true;
            }
        }
        let r = self.of(idx);
        if !self.all_nonneg(&r.lo, &r.facts) || r.hi.is_empty() {
            return false;
        }
        let below = |t: &Lin| match (t.base, dim) {
            (None, SubExp::Const(PrimValue::I64(d))) => t.off < *d,
            (Some(b), SubExp::Var(d)) if b == *d => t.off < 0,
            // Below a variable the size is at least (`max b 0`).
            (Some(b), SubExp::Var(d)) if self.at_least.get(d).is_some_and(|vs| vs.contains(&b)) => t.off < 0,
            // A constant below every size, or below a size known to exceed it.
            (None, SubExp::Var(d)) => t.off < 0 || r.facts.iter().any(|f| f.base == Some(*d) && f.off <= -(t.off + 1)),
            _ => false,
        };
        // A bound on a variable that is exactly another plus a constant
        // (`i < c - 1` bounds `i` by `c - 2`) is a bound on that other too.
        let exact = |t: &Lin| t.base.and_then(|b| self.exact.get(&b)).and_then(|e| e.shift(t.off));
        // And a bound `b + k` where `b` is at most the greatest of some
        // terms is at most the greatest of those terms plus `k` (`i < d`
        // for `d = max (c - 1) 0` is below `c`).
        let through = |t: &Lin| {
            let b = t.base?;
            let hi = &self.known.get(&b)?.hi;
            let shifted: Option<Vec<Lin>> = hi.iter().filter(|h| h.base != Some(b)).map(|h| h.shift(t.off)).collect();
            let shifted = shifted?;
            (!shifted.is_empty() && shifted.len() == hi.len()).then_some(shifted)
        };
        r.hi.iter().all(|t| {
            below(t)
                || exact(t).is_some_and(|e| below(&e))
                || through(t).is_some_and(|terms| terms.iter().all(|h| below(h) || exact(h).is_some_and(|e| below(&e))))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ogham_ir::{Param, Span, StmAttrs, Type};

    fn stm(out: u32, exp: Exp) -> Stm {
        Stm {
            pat: vec![Param { name: VName(out), ty: Type::Prim(PrimType::I64) }],
            exp,
            span: Span::default(),
            attrs: StmAttrs::default(),
        }
    }

    fn var(v: u32) -> SubExp {
        SubExp::Var(VName(v))
    }

    fn int(k: i64) -> SubExp {
        SubExp::Const(PrimValue::I64(k))
    }

    #[test]
    fn clamped_stencil_neighbours_are_in_bounds() {
        // i over [0, n); up = max 0 (i - 1); down = min (n - 1) (i + 1).
        let (n, i, im1, up, nm1, ip1, down) = (1, 2, 3, 4, 5, 6, 7);
        let mut r = Ranges::default();
        r.loop_index(VName(i), &var(n));
        r.stm(&stm(im1, Exp::BinOp(BinOp::Sub, PrimType::I64, var(i), int(1))));
        r.stm(&stm(up, Exp::BinOp(BinOp::Max, PrimType::I64, int(0), var(im1))));
        r.stm(&stm(nm1, Exp::BinOp(BinOp::Sub, PrimType::I64, var(n), int(1))));
        r.stm(&stm(ip1, Exp::BinOp(BinOp::Add, PrimType::I64, var(i), int(1))));
        r.stm(&stm(down, Exp::BinOp(BinOp::Min, PrimType::I64, var(nm1), var(ip1))));
        assert!(r.in_bounds(&var(i), &var(n)));
        assert!(r.in_bounds(&var(up), &var(n)));
        assert!(r.in_bounds(&var(down), &var(n)));
        // Unclamped neighbours may fall outside.
        assert!(!r.in_bounds(&var(im1), &var(n)));
        assert!(!r.in_bounds(&var(ip1), &var(n)));
        // Another array's size says nothing.
        assert!(!r.in_bounds(&var(i), &var(99)));
        // Outside any loop, index 0 of an array of unknown size may be out of bounds.
        assert!(!r.in_bounds(&int(0), &var(n)));
        assert!(r.in_bounds(&int(2), &int(3)));
        assert!(!r.in_bounds(&int(3), &int(3)));
    }

    #[test]
    fn an_index_counted_down_is_in_bounds() {
        // k over [0, n); d = (n - 1) - k lies in [0, n - 1]; (n - 2) - k
        // may be -1, and n - k may be n.
        let (n, k, nm1, d, nm2, e, f) = (1, 2, 3, 4, 5, 6, 7);
        let mut r = Ranges::default();
        r.loop_index(VName(k), &var(n));
        r.stm(&stm(nm1, Exp::BinOp(BinOp::Sub, PrimType::I64, var(n), int(1))));
        r.stm(&stm(d, Exp::BinOp(BinOp::Sub, PrimType::I64, var(nm1), var(k))));
        r.stm(&stm(nm2, Exp::BinOp(BinOp::Sub, PrimType::I64, var(n), int(2))));
        r.stm(&stm(e, Exp::BinOp(BinOp::Sub, PrimType::I64, var(nm2), var(k))));
        r.stm(&stm(f, Exp::BinOp(BinOp::Sub, PrimType::I64, var(n), var(k))));
        assert!(r.in_bounds(&var(d), &var(n)));
        assert!(!r.in_bounds(&var(e), &var(n)));
        assert!(!r.in_bounds(&var(f), &var(n)));
        // Counted down from a size that is itself a `max` (its range is not
        // exact, but n2 - 1 is exactly n2 + (-1)).
        let (c, n2, n2m1, k2, d2) = (10, 11, 12, 13, 14);
        r.stm(&stm(n2, Exp::BinOp(BinOp::Max, PrimType::I64, var(c), int(0))));
        r.stm(&stm(n2m1, Exp::BinOp(BinOp::Sub, PrimType::I64, var(n2), int(1))));
        r.loop_index(VName(k2), &var(n2));
        r.stm(&stm(d2, Exp::BinOp(BinOp::Sub, PrimType::I64, var(n2m1), var(k2))));
        assert!(r.in_bounds(&var(d2), &var(n2)));
        // And of `c`, which `n2 = max c 0` equals for a size.
        assert!(r.in_bounds(&var(d2), &var(c)));
        // A loop up to a size minus one: its index and the index after it
        // are in bounds of the size (`seq[t]` and `seq[t + 1]` for `t < c - 1`).
        let (cs, cm1, t, tp1, tp2) = (20, 21, 22, 23, 24);
        r.stm(&stm(cm1, Exp::BinOp(BinOp::Sub, PrimType::I64, var(cs), int(1))));
        r.loop_index(VName(t), &var(cm1));
        r.stm(&stm(tp1, Exp::BinOp(BinOp::Add, PrimType::I64, var(t), int(1))));
        r.stm(&stm(tp2, Exp::BinOp(BinOp::Add, PrimType::I64, var(t), int(2))));
        assert!(r.in_bounds(&var(t), &var(cs)));
        assert!(r.in_bounds(&var(tp1), &var(cs)));
        assert!(!r.in_bounds(&var(tp2), &var(cs)));
        assert!(r.in_bounds(&var(t), &var(cm1)));
        assert!(!r.in_bounds(&var(tp1), &var(cm1)));
        // A loop up to `max (c - 1) 0`: its index is below `c`, not below `c - 1`.
        let (mx, i2) = (25, 26);
        r.stm(&stm(mx, Exp::BinOp(BinOp::Max, PrimType::I64, var(cm1), int(0))));
        r.loop_index(VName(i2), &var(mx));
        assert!(r.in_bounds(&var(i2), &var(cs)));
        assert!(!r.in_bounds(&var(i2), &var(cm1)));
        // Below the loop's bound, so below any size that is at least it.
        let (at, i3) = (27, 28);
        r.stm(&stm(at, Exp::BinOp(BinOp::Max, PrimType::I64, var(cm1), int(0))));
        r.loop_index(VName(i3), &var(cm1));
        assert!(r.in_bounds(&var(i3), &var(at)));
        // Counted down from another loop's bound, it says nothing.
        let (m, g) = (8, 9);
        r.stm(&stm(g, Exp::BinOp(BinOp::Sub, PrimType::I64, var(m), var(k))));
        assert!(!r.in_bounds(&var(g), &var(n)));
    }

    #[test]
    fn a_remainder_modulo_the_size_is_in_bounds() {
        // h = a mod n indexes a dimension of size n; mod 0 would have failed.
        let (a, n, m, h, c, z) = (1, 2, 3, 4, 5, 6);
        let mut r = Ranges::default();
        r.stm(&stm(h, Exp::BinOp(BinOp::Mod, PrimType::I64, var(a), var(n))));
        assert!(r.in_bounds(&var(h), &var(n)));
        assert!(!r.in_bounds(&var(h), &var(m)));
        r.stm(&stm(c, Exp::BinOp(BinOp::Mod, PrimType::I64, var(a), int(8))));
        assert!(r.in_bounds(&var(c), &int(8)));
        assert!(!r.in_bounds(&var(c), &int(7)));
        // `rem` takes the sign of the dividend: not an index by itself.
        r.stm(&stm(z, Exp::BinOp(BinOp::Rem, PrimType::I64, var(a), var(n))));
        assert!(!r.in_bounds(&var(z), &var(n)));
    }
}
