//! The simplifier: constant folding, copy propagation and algebraic identities.
//!
//! One forward walk over each function decides, statement by statement,
//! whether its value is already known as an operand: a copy (`let y = x`),
//! a scalar operation on constants (evaluated by `ogham-prim`, the same code
//! the interpreter runs, so folding cannot change a result), or an identity
//! such as `x + 0`, `x * 1`, `x / 1`, `x - 0` on integers, `x * 1` and
//! `x / 1` on floats (exact in IEEE arithmetic; `x + 0.0` is not, for
//! `x = -0.0`), `b && true`, `b || false`, `x == x` on integers and booleans,
//! and an `i64` sum, difference or product that is, as a polynomial in the
//! variables its operands are built from, a constant or one of them
//! (`(i + 3) - (i + 1)` is `2`; see [`poly`]).
//! Such statements are dropped and every use of their variable, types
//! included, is replaced by the operand. An operation that fails on its
//! constants (an integer division by zero) is left to fail at run time.
//!
//! An unchecked read of an element of `iota n 0 1` or of a `replicate` is
//! that element, and a SOAC's input every element of which is one known
//! scalar is that scalar, bound in its function, not an array read (see
//! `fold_known_elements`), a prefix of a unit-stride
//! slice is a slice of the first array (`compose_slices`), an update of an
//! element overwriting an unread update at the same place updates the
//! first's array, and one writing back the element read there is that
//! array (`Places`). A SOAC that reads the same
//! array twice (after fusion, typically) reads it once, and a `withacc`
//! without accumulators is a `map`. Control flow: an `if` on a constant is replaced by its taken
//! branch, an `if` whose branches compute nothing and give the same
//! operands by those operands, a
//! `for` loop of zero iterations by its initial values, and an assertion of
//! `true` is dropped. Nested bodies and lambdas are simplified in the same
//! walk, so a constant found outside folds uses inside.
//!
//! After the walk, a `screma`'s or `withacc`'s mapped result that its
//! function returns as one of its own row parameters, unchanged, is that
//! input array (see `rows_passed_through`).

use ogham_ir::visit::substitute_uses;
use ogham_ir::{
    BinOp, Body, CmpOp, DimIndex, Exp, FunDef, Lambda, LoopForm, PrimType, PrimValue, Program, Soac, SubExp, VName,
};
use ogham_prim::ops;
use rustc_hash::FxHashMap as HashMap;

mod poly;
use poly::Polys;

/// Simplifies every function of the program.
pub fn simplify_program(prog: &mut Program) {
    crate::on_consts(prog, |body, _| simplify_top(body));
    for f in &mut prog.funs {
        simplify_top(&mut f.body);
    }
    rows_passed_through(prog);
}

/// A mapped result of a `screma` or `withacc` whose function returns its
/// own row parameter unchanged is that input array: its uses read the
/// input instead, and the SOAC no longer copies it. (The interchanged
/// forward of a reverse-mode `withacc` returns the rows it reads this way,
/// [K][d] per point.) The result was fresh and the input may not be, so
/// the rewrite stands only where the program still verifies: nothing
/// consumes the memory the two now share while either is in use.
fn rows_passed_through(prog: &mut Program) {
    fn body(b: &mut Body, known: &mut HashMap<VName, SubExp>) {
        for stm in &mut b.stms {
            for nb in ogham_ir::visit::nested_bodies_mut(&mut stm.exp) {
                body(nb, known);
            }
            let Exp::Soac(soac) = &mut stm.exp else { continue };
            let (arrs, lam, first_row, first_mapped) = match soac {
                Soac::Screma { arrs, scans, reduces, map, .. } => {
                    let n_ops: usize = scans.iter().chain(reduces.iter()).map(|op| op.neutral.len()).sum();
                    (arrs, map, 0, n_ops)
                }
                Soac::WithAcc { arrs, accs, map, .. } => {
                    let n = accs.len();
                    (arrs, map, n, n)
                }
                _ => continue,
            };
            let mut i = first_mapped;
            while i < lam.body.result.len() && stm.pat.len() > 1 {
                let row = match chase(known, lam.body.result[i]) {
                    SubExp::Var(v) => lam.params[first_row..].iter().position(|p| p.name == v),
                    SubExp::Const(_) => None,
                };
                match row {
                    Some(r) if r < arrs.len() => {
                        known.insert(stm.pat[i].name, SubExp::Var(arrs[r]));
                        lam.body.result.remove(i);
                        lam.ret.remove(i);
                        stm.pat.remove(i);
                    }
                    _ => i += 1,
                }
            }
        }
    }
    // Each function rewritten; if the program no longer verifies, one
    // function at a time, keeping the rewrites that verify.
    let mut olds: Vec<(usize, FunDef)> = Vec::new();
    for (i, f) in prog.funs.iter_mut().enumerate() {
        let mut new = f.clone();
        let mut known = HashMap::default();
        body(&mut new.body, &mut known);
        if !known.is_empty() {
            // A result may be another SOAC's input passed through in turn.
            substitute_uses(&mut new.body, &|v| known.contains_key(&v).then(|| chase(&known, SubExp::Var(v))));
            olds.push((i, std::mem::replace(f, new)));
        }
    }
    if olds.is_empty() || ogham_ir::verify::check(prog).is_ok() {
        return;
    }
    let news: Vec<(usize, FunDef)> =
        olds.into_iter().map(|(i, old)| (i, std::mem::replace(&mut prog.funs[i], old))).collect();
    for (i, new) in news {
        let old = std::mem::replace(&mut prog.funs[i], new);
        if ogham_ir::verify::check(prog).is_err() {
            prog.funs[i] = old;
        }
    }
}

/// What `se` stands for after following `known` as far as it goes.
fn chase(known: &HashMap<VName, SubExp>, mut se: SubExp) -> SubExp {
    while let Some(next) = se.as_var().and_then(|v| known.get(&v)) {
        se = *next;
    }
    se
}

fn simplify_top(body: &mut Body) {
    fold_known_elements(body);
    compose_slices(body, &mut Views::default());
    let mut known = HashMap::default();
    *body = simplify_body(std::mem::take(body), &mut known, &mut Polys::default());
    if !known.is_empty() {
        substitute_uses(body, &|v| known.get(&v).copied());
    }
}

/// Simplifies a body; `known` maps each dropped variable to the operand that replaces it.
fn simplify_body(body: Body, known: &mut HashMap<VName, SubExp>, polys: &mut Polys) -> Body {
    let mut stms = Vec::with_capacity(body.stms.len());
    let mut places = Places::new();
    for mut stm in body.stms {
        simplify_nested(&mut stm.exp, known, polys);
        let resolve = |se: SubExp| resolve(known, se);
        if let Some(value) = value_of(&stm.exp, &resolve) {
            if stm.pat.len() == 1 {
                known.insert(stm.pat[0].name, value);
                continue;
            }
        }
        if let (Exp::BinOp(op, t, a, b), [p]) = (&stm.exp, &stm.pat[..]) {
            if let Some(value) = polys.binop(p.name, *op, *t, resolve(*a), resolve(*b)) {
                known.insert(p.name, value);
                continue;
            }
        }
        let (written_back, overwritten) = places.written_back(&mut stm, &resolve, &stms);
        if let Some(at) = overwritten {
            // The first update of an update at the same place is dead.
            stms.remove(at);
        }
        if let Some(array) = written_back {
            known.insert(stm.pat[0].name, SubExp::Var(array));
            continue;
        }
        match stm.exp {
            Exp::Assert { cond, .. } if resolve(cond) == SubExp::Const(PrimValue::Bool(true)) => {
                // A user assertion's certificate is then `true` too.
                for p in &stm.pat {
                    known.insert(p.name, SubExp::Const(PrimValue::Bool(true)));
                }
                continue;
            }
            Exp::Certify { cert, values } if resolve(SubExp::Var(cert)) == SubExp::Const(PrimValue::Bool(true)) => {
                bind_results(&stm.pat, &values, known);
                continue;
            }
            Exp::If { cond, then_body, else_body } if matches!(resolve(cond), SubExp::Const(PrimValue::Bool(_))) => {
                let taken = if resolve(cond) == SubExp::Const(PrimValue::Bool(true)) { then_body } else { else_body };
                stms.extend(taken.stms);
                bind_results(&stm.pat, &taken.result, known);
                continue;
            }
            // Both branches give the same operands and compute nothing.
            Exp::If { then_body, else_body, .. }
                if then_body.stms.is_empty()
                    && else_body.stms.is_empty()
                    && then_body
                        .result
                        .iter()
                        .map(|r| resolve(*r))
                        .eq(else_body.result.iter().map(|r| resolve(*r))) =>
            {
                bind_results(&stm.pat, &then_body.result, known);
                continue;
            }
            Exp::Loop { params, form: LoopForm::For { bound, .. }, .. }
                if resolve(bound) == SubExp::Const(PrimValue::I64(0)) =>
            {
                let inits: Vec<SubExp> = params.iter().map(|(_, init)| *init).collect();
                bind_results(&stm.pat, &inits, known);
                continue;
            }
            exp => stm.exp = exp,
        }
        stms.push(stm);
    }
    Body { stms, result: body.result }
}

/// The elements a body reads and the places it updates, for two rules on
/// in-place updates of one element at fixed indices:
///
/// - `z = update y[is] = w` where `y = update a[is] = v` is used only
///   there updates `a` itself (`y` is then dead): the second write
///   overwrites the first.
/// - `z = update a[is] = w` where `w = a[is]`, read before, writes back
///   what is there: `z` is `a`. (Nothing can change `a` between the read
///   and the update, which consumes it.)
///
/// Together they remove reverse mode's re-executed update followed by its
/// restoration (`upd = p with [i] = v; …; restored = upd with [i] = old`,
/// `old = p[i]`), which a logged loop's reverse iteration makes for each
/// of its updates.
struct Places {
    /// Scalars read from an array at fixed indices: the array and indices.
    reads: HashMap<VName, (VName, Vec<SubExp>)>,
    /// The results of updates of one element at fixed indices: the array
    /// updated and the indices.
    updates: HashMap<VName, (VName, Vec<SubExp>)>,
}

impl Places {
    fn new() -> Places {
        Places { reads: HashMap::default(), updates: HashMap::default() }
    }

    /// Records what `stm` reads or updates, after rewriting an update of
    /// an update at the same place; returns the array an update writes
    /// back into unchanged, and the position among the statements `kept`
    /// before it of the first update that an update at the same place
    /// made dead.
    fn written_back(
        &mut self,
        stm: &mut ogham_ir::Stm,
        resolve: &dyn Fn(SubExp) -> SubExp,
        kept: &[ogham_ir::Stm],
    ) -> (Option<VName>, Option<usize>) {
        let fixed = |slice: &[DimIndex]| -> Option<Vec<SubExp>> {
            slice
                .iter()
                .map(|d| match d {
                    DimIndex::Fix(x) => Some(resolve(*x)),
                    DimIndex::Slice { .. } => None,
                })
                .collect()
        };
        let var = |v: VName| resolve(SubExp::Var(v)).as_var();
        let [p] = &stm.pat[..] else { return (None, None) };
        match &mut stm.exp {
            Exp::Index { array, slice } if p.ty.rank() == 0 => {
                if let (Some(a), Some(at)) = (var(*array), fixed(slice)) {
                    self.reads.insert(p.name, (a, at));
                }
                (None, None)
            }
            Exp::Update { array, slice, value } => {
                let (Some(mut a), Some(at)) = (var(*array), fixed(slice)) else { return (None, None) };
                let mut overwritten = None;
                if let Some((first, _)) = self.updates.get(&a).filter(|(_, place)| *place == at) {
                    // Nothing read `y` since it was made (nothing can after).
                    let made = kept.iter().rposition(|s| s.pat.first().is_some_and(|p| p.name == a));
                    let reads = |s: &ogham_ir::Stm| {
                        ogham_ir::visit::free_vars_exp(&s.exp).into_iter().any(|v| var(v) == Some(a))
                    };
                    if let Some(made) = made.filter(|&m| !kept[m + 1..].iter().any(reads)) {
                        overwritten = Some(made);
                        *array = *first;
                        a = *first;
                    }
                }
                let old = resolve(*value).as_var().and_then(|w| self.reads.get(&w));
                if old.is_some_and(|(from, place)| *from == a && *place == at) {
                    return (Some(a), overwritten);
                }
                self.updates.insert(p.name, (a, at));
                (None, overwritten)
            }
            _ => (None, None),
        }
    }
}

/// A prefix of a slice is a slice of the first array: with `b = a[o:+n*1,
/// …]` (unit strides), `c = b[0:+m*1, …]` becomes `c = a[o:+m*1, …]` (the
/// bounds checks of both are separate assertions before them, and stay).
/// So `take m (drop o a)` is one view of `a`, and a derivative adds `c`'s
/// adjoint into `a`'s at that slice, rather than into a zero array the
/// size of `b` added in turn (quadratic in a merge sort's pieces).
///
/// And a view of a row is a view of the array: with `b = a[i, …]` (only
/// single indices), `c = b[s…]` becomes `c = a[i, …, s…]`, unchecked when
/// both were (`b`, often left unused, then goes): the D-LSTM's weights
/// `ws[l][g][lo:+w]` are one view instead of three per gate and step.
fn compose_slices(body: &mut Body, views: &mut Views) {
    let unit = |se: &SubExp| *se == SubExp::i64(1);
    for stm in &mut body.stms {
        for b in ogham_ir::visit::nested_bodies_mut(&mut stm.exp) {
            compose_slices(b, views);
        }
        let unsafe_ = stm.attrs.unsafe_;
        let Exp::Index { array, slice } = &mut stm.exp else { continue };
        if let Some((outer, fixed, outer_unsafe)) = views.rows.get(array) {
            let mut composed = fixed.clone();
            composed.extend(slice.iter().cloned());
            *array = *outer;
            *slice = composed;
            stm.attrs.unsafe_ = unsafe_ && *outer_unsafe;
        }
        let single = |d: &DimIndex| matches!(d, DimIndex::Fix(_));
        if let [p] = &stm.pat[..] {
            if p.ty.rank() > 0 && slice.iter().all(single) {
                views.rows.insert(p.name, (*array, slice.clone(), stm.attrs.unsafe_));
            }
        }
        let views = &mut views.slices;
        let all_unit_slices =
            |sl: &[DimIndex]| sl.iter().all(|d| matches!(d, DimIndex::Slice { stride, .. } if unit(stride)));
        if !all_unit_slices(slice) {
            continue;
        }
        if let Some((outer, outer_slice)) = views.get(array) {
            let prefix = slice.iter().all(|d| matches!(d, DimIndex::Slice { start, .. } if *start == SubExp::i64(0)));
            if prefix && outer_slice.len() == slice.len() {
                let composed: Vec<DimIndex> = outer_slice
                    .iter()
                    .zip(slice.iter())
                    .map(|(o, i)| match (o, i) {
                        (DimIndex::Slice { start, stride, .. }, DimIndex::Slice { len, .. }) => {
                            DimIndex::Slice { start: *start, len: *len, stride: *stride }
                        }
                        _ => i.clone(),
                    })
                    .collect();
                *array = *outer;
                *slice = composed;
            }
        }
        if let [p] = &stm.pat[..] {
            views.insert(p.name, (*array, slice.clone()));
        }
    }
}

/// The views `compose_slices` has seen: unit-stride slices, and rows
/// (single indices only) with whether they were unchecked.
#[derive(Default)]
struct Views {
    slices: HashMap<VName, (VName, Vec<DimIndex>)>,
    rows: HashMap<VName, (VName, Vec<DimIndex>, bool)>,
}

/// An unchecked read of one element of an array whose elements are known
/// without reading memory becomes that element: of `iota n 0 1`, element
/// `i` is `i`; of a `replicate` of a scalar, every element is the value,
/// as of an unchecked slice of one, and a copy of either is a `replicate`
/// of its shape.
/// (A checked read keeps its bounds check; the `bounds` pass marks the
/// reads it proves in bounds, and the pipeline simplifies after it.)
fn fold_known_elements(body: &mut Body) {
    fn collect(body: &Body, out: &mut HashMap<VName, Option<SubExp>>) {
        for stm in &body.stms {
            if let [p] = stm.pat.as_slice() {
                match &stm.exp {
                    Exp::Iota { start, step, elem, .. }
                        if *elem == PrimType::I64
                            && *start == SubExp::Const(PrimValue::I64(0))
                            && *step == SubExp::Const(PrimValue::I64(1)) =>
                    {
                        out.insert(p.name, None);
                    }
                    Exp::Replicate { shape, value } if shape.len() == p.ty.rank() => {
                        out.insert(p.name, Some(*value));
                    }
                    _ => {}
                }
            }
            for b in ogham_ir::visit::bodies(&stm.exp) {
                collect(b, out);
            }
            for l in ogham_ir::visit::lambdas(&stm.exp) {
                collect(&l.body, out);
            }
        }
    }
    fn rewrite(body: &mut Body, known: &mut HashMap<VName, Option<SubExp>>) {
        for stm in &mut body.stms {
            for b in ogham_ir::visit::nested_bodies_mut(&mut stm.exp) {
                rewrite(b, known);
            }
            if let Exp::Soac(soac) = &mut stm.exp {
                replicated_inputs(soac, known);
            }
            // An unchecked slice of a `replicate` holds its value too (a
            // view, left as it is), and a copy of either is a `replicate`
            // of its own shape (lanes' zeros cut from an adjoint's: no
            // view to copy).
            if let [p] = stm.pat.as_slice() {
                match &stm.exp {
                    Exp::Index { array, .. } if stm.attrs.unsafe_ && p.ty.rank() > 0 => {
                        if let Some(Some(value)) = known.get(array).copied() {
                            known.insert(p.name, Some(value));
                        }
                        continue;
                    }
                    Exp::Copy(a) => {
                        if let Some(Some(value)) = known.get(a).copied() {
                            stm.exp = Exp::Replicate { shape: p.ty.shape().to_vec(), value };
                            known.insert(p.name, Some(value));
                        }
                        continue;
                    }
                    _ => {}
                }
            }
            let Exp::Index { array, slice } = &stm.exp else { continue };
            let Some(elem) = known.get(array) else { continue };
            // An unchecked read of one element (a scalar).
            if !stm.attrs.unsafe_ || stm.pat.len() != 1 || stm.pat[0].ty.rank() != 0 {
                continue;
            }
            let value = match (elem, slice.as_slice()) {
                (Some(v), _) => *v,
                (None, [ogham_ir::DimIndex::Fix(i)]) => *i,
                (None, _) => continue,
            };
            stm.exp = Exp::SubExp(value);
        }
    }
    let mut known = HashMap::default();
    collect(body, &mut known);
    if !known.is_empty() {
        rewrite(body, &mut known);
    }
}

/// A SOAC's input whose every element is one known scalar (a `replicate`,
/// or an unchecked slice of one: reverse mode's adjoint of a sum, cut to a
/// range's lanes) is not read: its function's parameter is bound to the
/// value by its first statement instead, and the input goes, so the
/// array need not be built (the D-LSTM's return sweep built and filled
/// one per range and step). One input stays: the SOAC keeps one.
fn replicated_inputs(soac: &mut Soac, known: &HashMap<VName, Option<SubExp>>) {
    let (arrs, map, first) = match soac {
        Soac::Screma { arrs, map, .. } | Soac::Hist { arrs, map, .. } | Soac::Scatter { arrs, map, .. } => {
            (arrs, map, 0)
        }
        Soac::WithAcc { arrs, accs, map, .. } => {
            let n = accs.len();
            (arrs, map, n)
        }
    };
    if map.params.len() != first + arrs.len() {
        return;
    }
    let span = map.body.stms.first().map(|s| s.span).unwrap_or_default();
    for k in (0..arrs.len()).rev() {
        let Some(Some(value)) = known.get(&arrs[k]).copied() else { continue };
        if arrs.len() == 1 || map.params[first + k].ty.rank() != 0 {
            continue;
        }
        arrs.remove(k);
        let param = map.params.remove(first + k);
        let bind = ogham_ir::Stm { pat: vec![param], exp: Exp::SubExp(value), attrs: Default::default(), span };
        map.body.stms.insert(0, bind);
    }
}

/// The pattern's variables become the given operands.
fn bind_results(pat: &[ogham_ir::Param], values: &[SubExp], known: &mut HashMap<VName, SubExp>) {
    for (p, v) in pat.iter().zip(values) {
        let v = resolve(known, *v);
        known.insert(p.name, v);
    }
}

fn resolve(known: &HashMap<VName, SubExp>, se: SubExp) -> SubExp {
    match se {
        SubExp::Var(v) => known.get(&v).copied().unwrap_or(se),
        c => c,
    }
}

fn simplify_nested(exp: &mut Exp, known: &mut HashMap<VName, SubExp>, polys: &mut Polys) {
    // Before the lambdas are simplified, so that what they record names
    // only the parameters that stay.
    if let Exp::Soac(soac) = exp {
        map_without_accumulators(soac);
        merge_repeated_inputs(soac);
    }
    let lambda = |l: &mut Lambda, known: &mut HashMap<VName, SubExp>, polys: &mut Polys| {
        l.body = simplify_body(std::mem::take(&mut l.body), known, polys);
    };
    match exp {
        Exp::If { then_body, else_body, .. } => {
            *then_body = simplify_body(std::mem::take(then_body), known, polys);
            *else_body = simplify_body(std::mem::take(else_body), known, polys);
        }
        Exp::Loop { body, .. } => *body = simplify_body(std::mem::take(body), known, polys),
        Exp::Soac(soac) => {
            for l in ogham_ir::visit::soac_lambdas_mut(soac) {
                lambda(l, known, polys);
            }
        }
        Exp::Ad { lambda: l, .. } => lambda(l, known, polys),
        _ => {}
    }
}

/// A `withacc` without accumulators is the `map` it runs (reverse mode
/// leaves them where a function had nothing to accumulate), which fusion
/// and the backends know better.
fn map_without_accumulators(soac: &mut Soac) {
    if let Soac::WithAcc { w, arrs, accs, map } = soac {
        if accs.is_empty() {
            *soac = Soac::Screma {
                w: *w,
                arrs: std::mem::take(arrs),
                scans: Vec::new(),
                reduces: Vec::new(),
                map: map.clone(),
            };
        }
    }
}

/// A SOAC that reads the same array twice reads it once: the second
/// parameter becomes the first.
fn merge_repeated_inputs(soac: &mut Soac) {
    let (arrs, map) = match soac {
        Soac::Screma { arrs, map, .. } | Soac::Hist { arrs, map, .. } | Soac::Scatter { arrs, map, .. } => (arrs, map),
        // Its lambda takes the accumulators first.
        Soac::WithAcc { .. } => return,
    };
    if arrs.len() != map.params.len() {
        return;
    }
    let mut rename: HashMap<VName, VName> = HashMap::default();
    let mut k = 0;
    while k < arrs.len() {
        match arrs[..k].iter().position(|a| *a == arrs[k]) {
            Some(first) => {
                rename.insert(map.params[k].name, map.params[first].name);
                arrs.remove(k);
                map.params.remove(k);
            }
            None => k += 1,
        }
    }
    if !rename.is_empty() {
        ogham_ir::visit::rename_uses(&mut map.body, &|v| rename.get(&v).copied());
    }
}

/// The operand an expression is known to equal, if any.
fn value_of(exp: &Exp, resolve: &dyn Fn(SubExp) -> SubExp) -> Option<SubExp> {
    let konst = |se: SubExp| match resolve(se) {
        SubExp::Const(c) => Some(c),
        SubExp::Var(_) => None,
    };
    match exp {
        Exp::SubExp(se) => Some(resolve(*se)),
        Exp::BinOp(op, t, a, b) => {
            if let (Some(x), Some(y)) = (konst(*a), konst(*b)) {
                return ops::eval_binop(*op, *t, x, y).ok().map(SubExp::Const);
            }
            binop_identity(*op, *t, resolve(*a), resolve(*b))
        }
        Exp::CmpOp(op, t, a, b) => {
            if let (Some(x), Some(y)) = (konst(*a), konst(*b)) {
                return ops::eval_cmpop(*op, *t, x, y).ok().map(|r| SubExp::Const(PrimValue::Bool(r)));
            }
            let (a, b) = (resolve(*a), resolve(*b));
            let exact = t.is_int() || *t == PrimType::Bool;
            match op {
                CmpOp::Eq | CmpOp::Le | CmpOp::Ge if exact && a == b => Some(SubExp::Const(PrimValue::Bool(true))),
                CmpOp::Ne | CmpOp::Lt | CmpOp::Gt if exact && a == b => Some(SubExp::Const(PrimValue::Bool(false))),
                _ => None,
            }
        }
        Exp::UnOp(op, t, a) => ops::eval_unop(*op, *t, konst(*a)?).ok().map(SubExp::Const),
        Exp::Conv(op, from, to, a) => {
            if from == to {
                return Some(resolve(*a));
            }
            ops::eval_conv(*op, *from, *to, konst(*a)?).ok().map(SubExp::Const)
        }
        Exp::TernOp(op, t, a, b, c) => {
            ops::eval_ternop(*op, *t, konst(*a)?, konst(*b)?, konst(*c)?).ok().map(SubExp::Const)
        }
        _ => None,
    }
}

/// `x op c` or `c op x` that equals one of its operands (or a constant)
/// for every `x`, exactly.
fn binop_identity(op: BinOp, t: PrimType, a: SubExp, b: SubExp) -> Option<SubExp> {
    let is = |se: SubExp, k: i64| match se {
        SubExp::Const(c) => c == PrimValue::from_i64(t, k),
        SubExp::Var(_) => false,
    };
    let int = t.is_int();
    let float = t.is_float();
    match op {
        BinOp::Add if int && is(b, 0) => Some(a),
        BinOp::Add if int && is(a, 0) => Some(b),
        BinOp::Sub if int && is(b, 0) => Some(a),
        BinOp::Mul if (int || float) && is(b, 1) => Some(a),
        BinOp::Mul if (int || float) && is(a, 1) => Some(b),
        BinOp::Mul if int && (is(a, 0) || is(b, 0)) => Some(SubExp::Const(PrimValue::from_i64(t, 0))),
        BinOp::Div | BinOp::Quot if (int || float) && is(b, 1) => Some(a),
        BinOp::And if t == PrimType::Bool && is(b, 1) => Some(a),
        BinOp::And if t == PrimType::Bool && is(a, 1) => Some(b),
        BinOp::Or if t == PrimType::Bool && is(b, 0) => Some(a),
        BinOp::Or if t == PrimType::Bool && is(a, 0) => Some(b),
        BinOp::LogAnd if t == PrimType::Bool && is(b, 1) => Some(a),
        BinOp::LogAnd if t == PrimType::Bool && is(a, 1) => Some(b),
        BinOp::LogOr if t == PrimType::Bool && is(b, 0) => Some(a),
        BinOp::LogOr if t == PrimType::Bool && is(a, 0) => Some(b),
        _ => None,
    }
}
