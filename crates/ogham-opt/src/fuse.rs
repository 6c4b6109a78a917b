//! Vertical fusion: a producer `map` is merged into the SOAC that consumes it.
//!
//! A statement `let ys = map(w, xs, f)` (a `Screma` with no scans or
//! reductions) whose results the first later statement that uses them, a
//! SOAC over the same `w` (a `map`, `reduce`, `scan`, `hist` or `scatter`),
//! uses only as input arrays is removed, and its lambda is run inside the
//! consumer's lambda instead: the consumer reads the producer's inputs,
//! computes `f` per element, and binds its former parameters to `f`'s
//! results. So `reduce (+) 0 (map2 (*) xs ys)` becomes one loop that never
//! materialises the products. A result that is also used after the
//! consumer becomes an extra mapped result of the consumer, when it is a
//! `Screma` (the array is built as before, by the one loop). Variable
//! names stay unique because the producer's statement disappears.
//!
//! The rewrite is only done when no statement between producer and consumer,
//! nor the consumer itself, may consume (update in place) anything the
//! producer reads or anything sharing its memory, since the
//! producer's work moves to the consumer's position; an array passed to a
//! function or given to a loop counts as possibly consumed.
//!
//! Before looking for pairs, a SOAC reading a map's results moves up to
//! the first use of them when that is no SOAC (`hoist_consumers`), and an
//! accumulation of a map's result into an
//! array (`updacc(op) a[…] = ys`, outside a `withacc`: reverse mode's
//! adjoint contributions) moves down to just before the next use of the
//! array it makes (`sink_accumulations`), so that it is not the first
//! statement using `ys` and the map can fuse into the SOAC after it.
//!
//! Horizontal fusion: two `Screma`s of the same width that read a common
//! input array, neither using the other's results, become one `Screma` at
//! the later one's position (scans, reductions and mapped results
//! concatenated in that order), under the same conditions on the
//! statements between them. So a program that maps over the same arrays
//! twice (Black-Scholes' calls and puts) runs one loop, in which the
//! simplifier and CSE then share the common work.
//!
//! Fusion through `flatten`: a map nest `P: [n][d]t` (an outer map whose
//! lambda is cheap scalar statements and then an inner map) read only
//! through `reshape [n*d] P` by one SOAC of width `n*d` runs inside that
//! SOAC, which reads the flat index `k` (a virtual `iota`) instead and
//! computes row `k / d` and column `k - (k/d)*d` of the nest itself. So a
//! `reduce_by_index` over `flatten (map (\c -> map (\j -> c*d + j) (iota d)) cs)`
//! builds no array of `n*d` bucket indices. When that SOAC is such a
//! `hist (op) ne` into `k*d` buckets (bucket `c*d + j` for column `j`), it
//! runs over the `n` rows instead, adding each row of values to row `c` of
//! the destination seen as `[k][d]` with `map2 op` (vector operations, the
//! `hist (map2 (+))` form of k-means), behind a check that no `c*d`
//! overflows; see [`Rows`].

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;

use ogham_ir::alias::{const_arrays, fun_base, summaries, FunSummary, Names, Walker};
use ogham_ir::visit::{bodies, consumed_deep, count_uses, count_uses_exp, free_vars_exp, lambdas, nested_bodies_mut};
use ogham_ir::{
    BinOp, Body, CmpOp, DimIndex, Exp, HistOp, Lambda, NameTable, Operator, Param, PrimType, PrimValue, Program, Soac,
    Stm, StmAttrs, SubExp, Type, VName,
};

/// Fuses every function of the program.
pub fn fuse_program(prog: &mut Program) {
    let sums = summaries(prog);
    let consts = const_arrays(prog);
    crate::on_consts(prog, |body, names| {
        let empty = HashMap::default();
        let mut w = Walker::new(&sums, &empty);
        w.body(body);
        fuse_body(body, &|v| w.closure(v), &sums, names);
    });
    for f in &mut prog.funs {
        let base = fun_base(&consts, f);
        let mut w = Walker::new(&sums, &base);
        w.body(&f.body);
        fuse_body(&mut f.body, &|v| w.closure(v), &sums, &mut prog.names);
    }
}

/// What a variable may share memory with (itself included), as the alias
/// analysis found it before fusion; nothing for scalars and for arrays
/// fusion made (fresh).
type Aliases<'a> = &'a dyn Fn(VName) -> Names;

/// Whether any of `consumed` may share memory with any of `reads`.
fn overlap(consumed: &BTreeSet<VName>, reads: &BTreeSet<VName>, aliases: Aliases) -> bool {
    let read: Names = reads.iter().flat_map(|&v| aliases(v).into_iter().chain([v])).collect();
    consumed.iter().any(|&c| read.contains(&c) || aliases(c).iter().any(|a| read.contains(a)))
}

/// Fuses inside a body, innermost bodies first.
fn fuse_body(body: &mut Body, aliases: Aliases, sums: &Summaries, names: &mut NameTable) {
    for stm in &mut body.stms {
        fuse_nested(&mut stm.exp, aliases, sums, names);
    }
    sink_accumulations(body, aliases);
    hoist_consumers(body, aliases, sums);
    // A merged lambda may hold new pairs (a map nest fused into a map
    // nest): its bodies are fused again.
    while let Some((p, c, extra)) = find_pair(body, aliases, sums) {
        let producer = body.stms.remove(p);
        let consumer = &mut body.stms[c - 1];
        merge(producer, consumer, &extra);
        fuse_nested(&mut consumer.exp, aliases, sums, names);
    }
    while let Some((p, c)) = find_siblings(body, aliases) {
        let first = body.stms.remove(p);
        let second = &mut body.stms[c - 1];
        merge_siblings(first, second);
        fuse_nested(&mut second.exp, aliases, sums, names);
    }
    while let Some(found) = find_flat(body, aliases) {
        let rows = row_form(body, &found);
        let producer = rows.is_some().then(|| body.stms[found.producer].clone());
        let (at, input) = (found.consumer - 2, found.input);
        fuse_flat(body, found, names);
        if let (Some(rows), Some(producer)) = (rows, producer) {
            split_rows(body, at, input, producer, rows, names);
        }
    }
}

/// A map nest `P = map (\x -> … map (\y -> e) ys) xs` of type `[n][d]t`,
/// flattened by `F = reshape [n*d] P` and read only by one SOAC `C` of
/// width `n*d`: the statements' positions and the input of `C` that `F` is.
struct Flat {
    producer: usize,
    reshape: usize,
    consumer: usize,
    input: usize,
}

/// Moves each accumulation of a map's result into an array
/// (`updacc(op) a[…] = ys`, reverse mode's adjoint contributions) down to
/// just before the first statement that uses the accumulated array, or
/// that may consume `ys`, or to the end: the map's first consumer is then
/// the next SOAC reading `ys`, into which it can fuse (returning `ys` as
/// well). Nothing else may use `a` (the accumulation consumed it), so the
/// move changes no value.
fn sink_accumulations(body: &mut Body, aliases: Aliases) {
    let maps: BTreeSet<VName> =
        body.stms.iter().filter(|s| is_plain_map(s)).flat_map(|s| s.pat.iter().map(|p| p.name)).collect();
    // Each accumulation moves at most once (two in a row would otherwise
    // swap places forever).
    let mut moved = BTreeSet::new();
    let mut k = 0;
    while k < body.stms.len() {
        let s = &body.stms[k];
        let (Exp::UpdAcc { value: SubExp::Var(ys), .. }, [r]) = (&s.exp, s.pat.as_slice()) else {
            k += 1;
            continue;
        };
        if !maps.contains(ys) || !moved.insert(r.name) {
            k += 1;
            continue;
        }
        let (ys, r) = (*ys, r.name);
        let stop = (k + 1..body.stms.len())
            .find(|&j| {
                let t = &body.stms[j];
                free_vars_exp(&t.exp).contains(&r)
                    || t.pat.iter().any(|p| ogham_ir::visit::type_vars(&p.ty).any(|v| v == r))
                    || overlap(&may_consume(&t.exp), &BTreeSet::from([ys]), aliases)
            })
            .unwrap_or(body.stms.len());
        if stop > k + 1 {
            let accumulation = body.stms.remove(k);
            body.stms.insert(stop - 1, accumulation);
        } else {
            k += 1;
        }
    }
}

/// Moves a SOAC that reads a map's results as input arrays up to just
/// before the first statement using any of them, when that one is not a
/// SOAC the map could fuse into (a slice of one result, say, which the
/// return sweep of a `map` with free arrays makes of the rows' adjoints:
/// the map builds a matrix per iteration that the SOAC then adds to an
/// adjoint, and fused they never materialise it). The SOAC moves only
/// over statements that bind nothing it reads, consume nothing it reads,
/// read nothing it consumes and are not assertions, so no value changes;
/// each SOAC moves at most once.
fn hoist_consumers(body: &mut Body, aliases: Aliases, sums: &Summaries) {
    let mut moved = BTreeSet::new();
    let mut p = 0;
    while p < body.stms.len() {
        let producer = &body.stms[p];
        if !is_plain_map(producer) || producer.attrs.sequential || producer.pat.len() < 2 {
            p += 1;
            continue;
        }
        let w = soac_parts(&producer.exp).map(|(w, _, _)| *w);
        let outs: BTreeSet<VName> = producer.pat.iter().map(|x| x.name).collect();
        let uses = |s: &Stm| free_vars_exp(&s.exp).iter().any(|v| outs.contains(v));
        let Some(c) = (p + 1..body.stms.len()).find(|&c| uses(&body.stms[c])) else {
            p += 1;
            continue;
        };
        let fits = |s: &Stm| {
            let Some((sw, arrs, _)) = soac_parts(&s.exp) else { return false };
            let mut in_s = HashMap::default();
            count_uses_exp(&s.exp, &mut in_s);
            let as_inputs = arrs.iter().filter(|a| outs.contains(a)).count();
            let used: usize = outs.iter().map(|v| in_s.get(v).copied().unwrap_or(0)).sum();
            Some(*sw) == w && as_inputs > 0 && as_inputs == used
        };
        if fits(&body.stms[c]) {
            p += 1;
            continue;
        }
        let movable = |k: usize, body: &Body| {
            let s = &body.stms[k];
            let mut reads = free_vars_exp(&s.exp);
            reads.extend(s.pat.iter().flat_map(|q| ogham_ir::visit::type_vars(&q.ty)));
            let consumes = may_consume_in(&s.exp, Some(sums));
            body.stms[c..k].iter().all(|t| {
                !matches!(t.exp, Exp::Assert { .. })
                    && t.pat.iter().all(|q| !reads.contains(&q.name))
                    && !overlap(&may_consume_in(&t.exp, Some(sums)), &reads, aliases)
                    && !overlap(&consumes, &free_vars_exp(&t.exp), aliases)
            })
        };
        let found = (c + 1..body.stms.len()).find(|&k| {
            fits(&body.stms[k]) && !moved.contains(&body.stms[k].pat.first().map(|q| q.name)) && movable(k, body)
        });
        if let Some(k) = found {
            let s = body.stms.remove(k);
            moved.insert(s.pat.first().map(|q| q.name));
            body.stms.insert(c, s);
        }
        p += 1;
    }
}

/// Whether a statement is cheap enough to repeat for every element of a
/// row: a scalar operation, or a row of an array (a view).
fn cheap(stm: &Stm) -> bool {
    match &stm.exp {
        Exp::SubExp(_) | Exp::BinOp(..) | Exp::CmpOp(..) | Exp::UnOp(..) | Exp::Conv(..) => true,
        Exp::Index { slice, .. } => slice.iter().all(|d| matches!(d, DimIndex::Fix(_))),
        _ => false,
    }
}

/// The inner map of a flattenable producer's lambda: its last statement, a
/// plain map whose one result is the lambda's one result, after only cheap
/// statements.
fn inner_map(lam: &Lambda) -> Option<(&SubExp, &Vec<VName>, &Lambda)> {
    let (last, before) = lam.body.stms.split_last()?;
    let Exp::Soac(Soac::Screma { w, arrs, scans, reduces, map }) = &last.exp else { return None };
    let single = last.pat.len() == 1 && lam.body.result == [SubExp::Var(last.pat[0].name)];
    (scans.is_empty() && reduces.is_empty() && single && !last.attrs.sequential && before.iter().all(cheap))
        .then_some((w, arrs, map))
}

/// Finds a map nest flattened into a SOAC (see [`Flat`]).
fn find_flat(body: &Body, aliases: Aliases) -> Option<Flat> {
    let mut counts = HashMap::default();
    count_uses(body, &mut counts);
    let once = |v: VName| counts.get(&v) == Some(&1);
    for (r, stm) in body.stms.iter().enumerate() {
        let Exp::Reshape { array, shape } = &stm.exp else { continue };
        if shape.len() != 1 || stm.pat.len() != 1 || !once(*array) || !once(stm.pat[0].name) {
            continue;
        }
        let Some(p) = body.stms[..r].iter().position(|s| s.pat.iter().any(|x| x.name == *array)) else { continue };
        let producer = &body.stms[p];
        if !is_plain_map(producer) || producer.attrs.sequential || producer.pat.len() != 1 {
            continue;
        }
        let Type::Array { shape: pshape, .. } = &producer.pat[0].ty else { continue };
        if pshape.len() != 2 {
            continue;
        }
        let Some((_, _, plam)) = soac_parts(&producer.exp) else { continue };
        match inner_map(plam) {
            Some((dw, _, _)) if *dw == pshape[1] => {}
            _ => continue,
        }
        let flat = stm.pat[0].name;
        let Some(c) = (r + 1..body.stms.len()).find(|&c| free_vars_exp(&body.stms[c].exp).contains(&flat)) else {
            continue;
        };
        let Some((cw, carrs, _)) = soac_parts(&body.stms[c].exp) else { continue };
        if *cw != shape[0] {
            continue;
        }
        let Some(input) = carrs.iter().position(|a| *a == flat) else { continue };
        let reads = free_vars_exp(&producer.exp);
        if body.stms[p + 1..=c].iter().any(|s| overlap(&may_consume(&s.exp), &reads, aliases)) {
            continue;
        }
        return Some(Flat { producer: p, reshape: r, consumer: c, input });
    }
    None
}

/// Runs the map nest inside the consumer: the consumer reads the flat index
/// `k` (a virtual `iota`) instead of the flattened array, and computes row
/// `k / d` and column `k - (k / d) * d` of the nest's element itself.
fn fuse_flat(body: &mut Body, f: Flat, names: &mut NameTable) {
    let consumer_span = body.stms[f.consumer].span;
    let reshape = body.stms.remove(f.reshape);
    let producer = body.stms.remove(f.producer);
    let consumer = f.consumer - 2;
    let Exp::Soac(Soac::Screma { arrs: outer_arrs, map: plam, .. }) = producer.exp else { return };
    let Type::Array { shape: pshape, .. } = &producer.pat[0].ty else { return };
    let d = pshape[1];
    let Exp::Reshape { shape: flat_shape, .. } = &reshape.exp else { return };
    let w = flat_shape[0];
    let index_array = names.fresh("flat_index");
    let k = names.fresh("k");
    let (row, col, rowd) = (names.fresh("row"), names.fresh("col"), names.fresh("t"));
    let stm = |pat: Vec<Param>, exp: Exp, unsafe_: bool| Stm {
        pat,
        exp,
        attrs: StmAttrs { unsafe_, ..StmAttrs::default() },
        span: producer.span,
    };
    let i64p = |name| Param { name, ty: Type::Prim(PrimType::I64) };
    let mut stms = vec![
        stm(vec![i64p(row)], Exp::BinOp(BinOp::Quot, PrimType::I64, SubExp::Var(k), d), false),
        stm(vec![i64p(rowd)], Exp::BinOp(BinOp::Mul, PrimType::I64, SubExp::Var(row), d), false),
        stm(vec![i64p(col)], Exp::BinOp(BinOp::Sub, PrimType::I64, SubExp::Var(k), SubExp::Var(rowd)), false),
    ];
    let read = |arr: VName, at: VName, p: Param| {
        stm(vec![p], Exp::Index { array: arr, slice: vec![DimIndex::Fix(SubExp::Var(at))] }, true)
    };
    for (a, p) in outer_arrs.into_iter().zip(plam.params) {
        stms.push(read(a, row, p));
    }
    let mut outer_stms = plam.body.stms;
    let Some(Stm { exp: Exp::Soac(Soac::Screma { arrs: inner_arrs, map: ilam, .. }), .. }) = outer_stms.pop() else {
        return;
    };
    stms.extend(outer_stms);
    for (a, p) in inner_arrs.into_iter().zip(ilam.params) {
        stms.push(read(a, col, p));
    }
    stms.extend(ilam.body.stms);
    let Some((carrs, clam)) = soac_arrs_map_mut(&mut body.stms[consumer].exp) else { return };
    let elem = std::mem::replace(&mut clam.params[f.input], i64p(k));
    stms.push(stm(vec![elem], Exp::SubExp(ilam.body.result[0]), false));
    stms.append(&mut clam.body.stms);
    clam.body.stms = stms;
    carrs[f.input] = index_array;
    let iota = Exp::Iota {
        n: w,
        start: SubExp::Const(PrimValue::I64(0)),
        step: SubExp::Const(PrimValue::I64(1)),
        elem: PrimType::I64,
    };
    let iota = Stm {
        pat: vec![Param { name: index_array, ty: Type::Prim(PrimType::I64).array_of(w) }],
        exp: iota,
        attrs: StmAttrs::default(),
        span: consumer_span,
    };
    body.stms.insert(consumer, iota);
}

/// A flat `hist` whose bucket for row `i`, column `j` of the flattened
/// nest is `a(i) * d + j`, into a destination of `K * d` elements: the same
/// as a `hist` over the `n` rows that adds row `i` of the values, as a
/// whole, to row `a(i)` of the destination seen as `[K][d]`, which runs as
/// vector operations on whole rows (k-means' centroid sums).
struct Rows {
    /// `K`.
    rows: SubExp,
    /// `a(i)`, computed by the producer's outer statements.
    row: SubExp,
    /// `a(i) * d`, bound by one of the producer's outer statements.
    scaled: VName,
}

/// Whether the flat SOAC `f` is a `hist` that [`split_rows`] can run over
/// rows. It must be a plain `hist (op) ne` of one scalar operator whose
/// lambda passes the index and value through, and the producer's inner
/// map must compute `a * d + j` over `j` in `iota d`, `a * d` and `K * d`
/// being statements of their own. The outer statements, which then run
/// once per row and not `d` times (not at all when `d = 0`), may not fail.
fn row_form(body: &Body, f: &Flat) -> Option<Rows> {
    let Exp::Soac(Soac::Hist { arrs, ops, map: clam, .. }) = &body.stms[f.consumer].exp else { return None };
    let [op] = ops.as_slice() else { return None };
    if op.shape.len() != 1 || op.dests.len() != 1 || op.op.neutral.len() != 1 || arrs.len() != 2 {
        return None;
    }
    let passed = |k: usize| SubExp::Var(clam.params[k].name);
    if !clam.body.stms.is_empty() || clam.body.result != [passed(f.input), passed(1 - f.input)] {
        return None;
    }
    let producer = &body.stms[f.producer];
    let (Exp::Soac(Soac::Screma { map: plam, .. }), Type::Array { shape: pshape, .. }) =
        (&producer.exp, &producer.pat[0].ty)
    else {
        return None;
    };
    let d = pshape[1];
    let def = |v: VName, stms: &'_ [Stm]| -> Option<Exp> {
        stms.iter().find(|s| s.pat.len() == 1 && s.pat[0].name == v).map(|s| s.exp.clone())
    };
    // `x * d` or `d * x`: x.
    let times_d = |e: Option<Exp>| match e? {
        Exp::BinOp(BinOp::Mul, PrimType::I64, x, y) if y == d => Some(x),
        Exp::BinOp(BinOp::Mul, PrimType::I64, x, y) if x == d => Some(y),
        _ => None,
    };
    let rows = times_d(def(op.shape[0].as_var()?, &body.stms))?;
    let (inner, outer) = plam.body.stms.split_last()?;
    let Exp::Soac(Soac::Screma { arrs: inner_arrs, map: ilam, .. }) = &inner.exp else { return None };
    let [Stm { pat, exp: Exp::BinOp(BinOp::Add, PrimType::I64, x, y), .. }] = ilam.body.stms.as_slice() else {
        return None;
    };
    if ilam.body.result != [SubExp::Var(pat[0].name)] {
        return None;
    }
    let zero = SubExp::i64(0);
    let one = SubExp::i64(1);
    let is_column = |s: &SubExp| {
        ilam.params.iter().zip(inner_arrs).any(|(p, a)| {
            *s == SubExp::Var(p.name)
                && matches!(def(*a, &body.stms).or_else(|| def(*a, outer)),
                    Some(Exp::Iota { n, start, step, .. }) if n == d && start == zero && step == one)
        })
    };
    let scaled = match (x, y) {
        (SubExp::Var(s), c) | (c, SubExp::Var(s)) if is_column(c) => *s,
        _ => return None,
    };
    let row = times_d(def(scaled, outer))?;
    let safe = outer.iter().all(|s| match &s.exp {
        Exp::Index { .. } => s.attrs.unsafe_,
        Exp::BinOp(op, t, ..) => {
            !(t.is_int() && matches!(op, BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem | BinOp::Pow))
        }
        _ => cheap(s),
    });
    safe.then_some(Rows { rows, row, scaled })
}

/// Runs the flat `hist` that [`fuse_flat`] left at `at + 1` (its flat
/// index at `at`) over rows where that is exact (see [`Rows`]): when no
/// `a(i) * d` overflows, which one pass over the rows checks. Without
/// overflow, `a(i) * d + j` lies in `[0, K * d)` exactly when `a(i)` lies
/// in `[0, K)`, so whole rows land or are ignored as the elements were.
/// With overflow, the flat `hist` runs as before.
fn split_rows(body: &mut Body, at: usize, input: usize, producer: Stm, rows: Rows, names: &mut NameTable) {
    let Exp::Soac(Soac::Screma { w: n, arrs: outer_arrs, map: plam, .. }) = producer.exp else { return };
    let d = producer.pat[0].ty.shape()[1];
    let mut flat = body.stms.remove(at + 1);
    let index = body.stms.remove(at);
    let Exp::Soac(Soac::Hist { arrs, ops, .. }) = &flat.exp else { return };
    let (values, op) = (arrs[1 - input], ops[0].clone());
    let result = flat.pat[0].clone();
    let elem = result.ty.elem();
    let span = flat.span;
    let i64t = Type::Prim(PrimType::I64);
    let boolt = Type::Prim(PrimType::Bool);
    let row_t = Type::Prim(elem).array_of(d);
    let stm =
        |name: VName, ty: Type, exp: Exp| Stm { pat: vec![Param { name, ty }], exp, attrs: StmAttrs::default(), span };
    let var = SubExp::Var;

    // One pass over the rows: a(i) for each, and whether no a(i) * d overflows.
    let mut lam = plam;
    lam.body.stms.pop();
    let (hi, sign, fits) = (names.fresh("hi"), names.fresh("sign"), names.fresh("fits"));
    lam.body.stms.extend([
        stm(hi, i64t.clone(), Exp::BinOp(BinOp::MulHi, PrimType::I64, rows.row, d)),
        stm(sign, i64t.clone(), Exp::BinOp(BinOp::Shr, PrimType::I64, var(rows.scaled), SubExp::i64(63))),
        stm(fits, boolt.clone(), Exp::CmpOp(CmpOp::Eq, PrimType::I64, var(hi), var(sign))),
    ]);
    lam.body.result = vec![var(fits), rows.row];
    lam.ret = vec![boolt.clone(), i64t.clone()];
    let lam = crate::inline::fresh_lambda(&lam, names);
    let (p, q, both) = (names.fresh("x"), names.fresh("y"), names.fresh("both"));
    let all = Operator {
        lambda: Lambda {
            params: vec![Param { name: p, ty: boolt.clone() }, Param { name: q, ty: boolt.clone() }],
            body: Body {
                stms: vec![stm(both, boolt.clone(), Exp::BinOp(BinOp::LogAnd, PrimType::Bool, var(p), var(q)))],
                result: vec![var(both)],
            },
            ret: vec![boolt.clone()],
        },
        neutral: vec![SubExp::Const(PrimValue::Bool(true))],
        commutative: true,
    };
    let (ok, targets) = (names.fresh("fits"), names.fresh("rows"));
    let check = Stm {
        pat: vec![Param { name: ok, ty: boolt }, Param { name: targets, ty: i64t.array_of(n) }],
        exp: Exp::Soac(Soac::Screma { w: n, arrs: outer_arrs, scans: vec![], reduces: vec![all], map: lam }),
        attrs: StmAttrs { sequential: flat.attrs.sequential, ..StmAttrs::default() },
        span,
    };

    // The hist over rows, on the destination and values seen as matrices.
    let (ne, dest, vrows) = (names.fresh("ne"), names.fresh("dest"), names.fresh("rows"));
    let (by_rows, joined, flat_again) = (names.fresh("hist"), names.fresh("hist"), names.fresh("hist"));
    let (acc, x, sum) = (names.fresh("acc"), names.fresh("x"), names.fresh("sum"));
    let scalar_op = crate::inline::fresh_lambda(&op.op.lambda, names);
    let row_op = Operator {
        lambda: Lambda {
            params: vec![Param { name: acc, ty: row_t.clone() }, Param { name: x, ty: row_t.clone() }],
            body: Body {
                stms: vec![stm(
                    sum,
                    row_t.clone(),
                    Exp::Soac(Soac::Screma {
                        w: d,
                        arrs: vec![acc, x],
                        scans: vec![],
                        reduces: vec![],
                        map: scalar_op,
                    }),
                )],
                result: vec![var(sum)],
            },
            ret: vec![row_t.clone()],
        },
        neutral: vec![var(ne)],
        commutative: op.op.commutative,
    };
    let (r, v) = (names.fresh("r"), names.fresh("v"));
    let pass = Lambda {
        params: vec![Param { name: r, ty: i64t.clone() }, Param { name: v, ty: row_t.clone() }],
        body: Body { stms: vec![], result: vec![var(r), var(v)] },
        ret: vec![i64t, row_t.clone()],
    };
    let matrix = |k: SubExp| row_t.array_of(k);
    let by_rows_exp = Exp::Soac(Soac::Hist {
        w: n,
        arrs: vec![targets, vrows],
        ops: vec![HistOp { shape: vec![rows.rows], dests: vec![dest], op: row_op }],
        map: pass,
    });
    let then_body = Body {
        stms: vec![
            stm(ne, row_t.clone(), Exp::Replicate { shape: vec![d], value: op.op.neutral[0] }),
            stm(dest, matrix(rows.rows), Exp::Reshape { array: op.dests[0], shape: vec![rows.rows, d] }),
            stm(vrows, matrix(n), Exp::Reshape { array: values, shape: vec![n, d] }),
            Stm { attrs: flat.attrs, ..stm(by_rows, matrix(rows.rows), by_rows_exp) },
            stm(joined, result.ty.clone(), Exp::Reshape { array: by_rows, shape: result.ty.shape().to_vec() }),
        ],
        result: vec![var(joined)],
    };
    flat.pat[0].name = flat_again;
    let else_body = Body { stms: vec![index, flat], result: vec![var(flat_again)] };
    let branch = stm(result.name, result.ty, Exp::If { cond: var(ok), then_body, else_body });
    body.stms.splice(at..at, [check, branch]);
}

/// [`soac_parts`]' input arrays and map lambda, to rewrite.
fn soac_arrs_map_mut(exp: &mut Exp) -> Option<(&mut Vec<VName>, &mut Lambda)> {
    match exp {
        Exp::Soac(Soac::Screma { arrs, map, .. })
        | Exp::Soac(Soac::Hist { arrs, map, .. })
        | Exp::Soac(Soac::Scatter { arrs, map, .. }) => Some((arrs, map)),
        _ => None,
    }
}

/// Finds two independent `Screma`s `p < c` of the same width over a common
/// input that can be merged at `c`'s position.
fn find_siblings(body: &Body, aliases: Aliases) -> Option<(usize, usize)> {
    for p in 0..body.stms.len() {
        let Exp::Soac(Soac::Screma { w: pw, arrs: parrs, .. }) = &body.stms[p].exp else { continue };
        let outs: BTreeSet<VName> = body.stms[p].pat.iter().map(|x| x.name).collect();
        let reads = free_vars_exp(&body.stms[p].exp);
        for c in p + 1..body.stms.len() {
            let stm = &body.stms[c];
            let uses_outs = free_vars_exp(&stm.exp).iter().any(|v| outs.contains(v))
                || stm.pat.iter().any(|x| ogham_ir::visit::type_vars(&x.ty).any(|v| outs.contains(&v)));
            if uses_outs || overlap(&may_consume(&stm.exp), &reads, aliases) {
                break;
            }
            let Exp::Soac(Soac::Screma { w: cw, arrs: carrs, .. }) = &stm.exp else { continue };
            if cw == pw && stm.attrs == body.stms[p].attrs && carrs.iter().any(|a| parrs.contains(a)) {
                return Some((p, c));
            }
        }
    }
    None
}

/// Merges the `Screma` `first` into the later `Screma` `second`.
fn merge_siblings(first: Stm, second: &mut Stm) {
    let Exp::Soac(Soac::Screma { arrs: a1, scans: s1, reduces: r1, map: m1, .. }) = first.exp else { return };
    let Exp::Soac(Soac::Screma { arrs: a2, scans: s2, reduces: r2, map: m2, .. }) = &mut second.exp else { return };
    let count = |ops: &[ogham_ir::Operator]| ops.iter().map(|o| o.neutral.len()).sum::<usize>();
    let (ns1, nr1) = (count(&s1), count(&r1));
    let (ns2, nr2) = (count(s2), count(r2));
    // Splits a list ordered scans, reduces, maps into its three parts.
    fn split<T>(mut v: Vec<T>, ns: usize, nr: usize) -> (Vec<T>, Vec<T>, Vec<T>) {
        let maps = v.split_off(ns + nr);
        let reds = v.split_off(ns);
        (v, reds, maps)
    }
    fn join<T>(a: (Vec<T>, Vec<T>, Vec<T>), b: (Vec<T>, Vec<T>, Vec<T>)) -> Vec<T> {
        let mut out = a.0;
        out.extend(b.0);
        out.extend(a.1);
        out.extend(b.1);
        out.extend(a.2);
        out.extend(b.2);
        out
    }
    let pat2 = std::mem::take(&mut second.pat);
    second.pat = join(split(first.pat, ns1, nr1), split(pat2, ns2, nr2));
    let res2 = std::mem::take(&mut m2.body.result);
    m2.body.result = join(split(m1.body.result, ns1, nr1), split(res2, ns2, nr2));
    let ret2 = std::mem::take(&mut m2.ret);
    m2.ret = join(split(m1.ret, ns1, nr1), split(ret2, ns2, nr2));
    let mut stms = m1.body.stms;
    stms.append(&mut m2.body.stms);
    m2.body.stms = stms;
    let mut params = m1.params;
    params.append(&mut m2.params);
    m2.params = params;
    let mut arrs = a1;
    arrs.append(a2);
    *a2 = arrs;
    let mut scans = s1;
    scans.append(s2);
    *s2 = scans;
    let mut reduces = r1;
    reduces.append(r2);
    *r2 = reduces;
}

fn fuse_nested(exp: &mut Exp, aliases: Aliases, sums: &Summaries, names: &mut NameTable) {
    for b in nested_bodies_mut(exp) {
        fuse_body(b, aliases, sums, names);
    }
}

/// The parts of a SOAC that fusion rewrites: its width, input arrays and map lambda.
fn soac_parts(exp: &Exp) -> Option<(&SubExp, &Vec<VName>, &Lambda)> {
    match exp {
        Exp::Soac(Soac::Screma { w, arrs, map, .. })
        | Exp::Soac(Soac::Hist { w, arrs, map, .. })
        | Exp::Soac(Soac::Scatter { w, arrs, map, .. }) => Some((w, arrs, map)),
        _ => None,
    }
}

fn is_plain_map(stm: &Stm) -> bool {
    matches!(&stm.exp, Exp::Soac(Soac::Screma { scans, reduces, .. }) if scans.is_empty() && reduces.is_empty())
}

/// Finds a producer `p` and its consumer `c` (indices into `body.stms`),
/// with the producer's results that are used after the consumer too: the
/// consumer, a `Screma`, then also returns them (extra outputs).
fn find_pair(body: &Body, aliases: Aliases, sums: &Summaries) -> Option<(usize, usize, Vec<VName>)> {
    let mut counts = HashMap::default();
    count_uses(body, &mut counts);
    for (p, producer) in body.stms.iter().enumerate() {
        if !is_plain_map(producer) || producer.attrs.sequential {
            continue;
        }
        let Some((pw, _, plam)) = soac_parts(&producer.exp) else { continue };
        if plam.body.result.len() != producer.pat.len() {
            continue;
        }
        let outs: Vec<VName> = producer.pat.iter().map(|x| x.name).collect();
        let total: usize = outs.iter().map(|v| counts.get(v).copied().unwrap_or(0)).sum();
        if total == 0 {
            continue;
        }
        // The first later statement that uses any output is the consumer,
        // using them only as input arrays. Outputs used after it too are
        // returned by it, which only a `Screma` can do.
        let mut in_c = HashMap::default();
        let Some(c) = (p + 1..body.stms.len()).find(|&c| {
            in_c.clear();
            count_uses_exp(&body.stms[c].exp, &mut in_c);
            outs.iter().any(|v| in_c.contains_key(v))
        }) else {
            continue;
        };
        let consumer = &body.stms[c];
        let Some((cw, carrs, clam)) = soac_parts(&consumer.exp) else { continue };
        if cw != pw || (product_rows(plam) && product_rows(clam)) {
            continue;
        }
        let in_arrs = carrs.iter().filter(|a| outs.contains(a)).count();
        let used_in_c: usize = outs.iter().map(|v| in_c.get(v).copied().unwrap_or(0)).sum();
        if in_arrs != used_in_c {
            continue;
        }
        let extra: Vec<VName> = outs
            .iter()
            .filter(|v| counts.get(*v).copied().unwrap_or(0) > in_c.get(*v).copied().unwrap_or(0))
            .copied()
            .collect();
        if !extra.is_empty() && !matches!(consumer.exp, Exp::Soac(Soac::Screma { .. })) {
            continue;
        }
        // A consumer that updates something in place may update the rows
        // it reads: after the merge, a row the producer's lambda does not
        // build afresh would be a view of the producer's own inputs or free
        // variables, which must not be consumed.
        let updates =
            lambdas(&consumer.exp).iter().any(|l| l.body.stms.iter().any(|s| !consumed_deep(&s.exp).is_empty()));
        if updates && !builds_fresh_rows(plam) {
            continue;
        }
        // Nothing in between may consume what the producer reads.
        let reads: BTreeSet<VName> = free_vars_exp(&producer.exp);
        let clobbered =
            body.stms[p + 1..=c].iter().any(|s| overlap(&may_consume_in(&s.exp, Some(sums)), &reads, aliases));
        if clobbered {
            continue;
        }
        return Some((p, c, extra));
    }
    None
}

/// Whether a SOAC's function computes a row of a matrix product: a nested
/// `map` over the rows of a matrix it does not compute (free in the
/// function), each reduced with the function's own values. Two such SOACs
/// stay apart: each is a nest the C backend runs as register tiles
/// (`ogham_imp::lower::tile`), which it cannot do for the two fused (the
/// return sweep of a matrix product followed by a nonlinear function, which
/// reverse mode builds as one `map` and fission splits: 25-38 times the
/// objective's time fused).
fn product_rows(lam: &Lambda) -> bool {
    let free = ogham_ir::visit::free_vars_lambda(lam);
    lam.body.stms.iter().any(|s| match &s.exp {
        Exp::Soac(Soac::Screma { arrs, scans, reduces, map, .. }) if scans.is_empty() && reduces.is_empty() => {
            let rows_of_free = arrs.iter().zip(&map.params).any(|(a, p)| free.contains(a) && p.ty.rank() >= 1);
            let reduced = map.body.stms.iter().any(
                |t| matches!(&t.exp, Exp::Soac(Soac::Screma { reduces, scans, .. }) if scans.is_empty() && !reduces.is_empty()),
            );
            rows_of_free && reduced
        }
        _ => false,
    })
}

/// Whether every array a map lambda returns is built by its body (not a
/// parameter, a free variable or a view of one).
fn builds_fresh_rows(lam: &Lambda) -> bool {
    lam.body.result.iter().zip(&lam.ret).all(|(r, t)| {
        t.rank() == 0
            || r.as_var().and_then(|v| lam.body.stms.iter().find(|s| s.pat.iter().any(|p| p.name == v))).is_some_and(
                |s| {
                    !matches!(
                        s.exp,
                        Exp::SubExp(_)
                            | Exp::Reshape { .. }
                            | Exp::Rearrange { .. }
                            | Exp::Index { .. }
                            | Exp::Certify { .. }
                            | Exp::If { .. }
                            | Exp::Loop { .. }
                            | Exp::Apply { .. }
                    )
                },
            )
    })
}

/// The functions' summaries: which parameters each consumes.
type Summaries = HashMap<String, FunSummary>;

/// The variables `exp` may consume: those it or a nested statement consumes
/// directly, and, since neither says which of them it consumes, every array
/// passed to a function (`Apply`) or given as a loop's initial value (a loop
/// updating its parameter in place writes into that array).
pub(crate) fn may_consume(exp: &Exp) -> BTreeSet<VName> {
    may_consume_in(exp, None)
}

/// [`may_consume`], but a call consumes only the arguments of the
/// parameters its function's summary says it consumes (GMM's objective
/// calls a function building a matrix from two rows, which consumes
/// neither: maps around the call fuse).
fn may_consume_in(exp: &Exp, sums: Option<&Summaries>) -> BTreeSet<VName> {
    fn go(exp: &Exp, sums: Option<&Summaries>, out: &mut BTreeSet<VName>) {
        let args: Vec<&SubExp> = match exp {
            Exp::Apply { func, args } => match sums.and_then(|s| s.get(func)) {
                Some(sum) => args.iter().zip(&sum.consumes).filter(|(_, c)| **c).map(|(a, _)| a).collect(),
                None => args.iter().collect(),
            },
            Exp::Loop { params, .. } => params.iter().filter(|(p, _)| p.ty.rank() > 0).map(|(_, init)| init).collect(),
            _ => Vec::new(),
        };
        out.extend(args.into_iter().filter_map(|a| match a {
            SubExp::Var(v) => Some(*v),
            SubExp::Const(_) => None,
        }));
        for b in bodies(exp) {
            b.stms.iter().for_each(|s| go(&s.exp, sums, out));
        }
        for l in lambdas(exp) {
            l.body.stms.iter().for_each(|s| go(&s.exp, sums, out));
        }
    }
    let mut out = consumed_deep(exp);
    go(exp, sums, &mut out);
    out
}

/// Moves the producer's lambda into the consumer's; the consumer also
/// returns the producer's results named in `extra` (as mapped results).
fn merge(producer: Stm, consumer: &mut Stm, extra: &[VName]) {
    let Exp::Soac(Soac::Screma { arrs: parrs, map: plam, .. }) = producer.exp else { return };
    let outs: Vec<VName> = producer.pat.iter().map(|x| x.name).collect();
    for (k, p) in producer.pat.iter().enumerate() {
        if extra.contains(&p.name) {
            consumer.pat.push(p.clone());
            if let Exp::Soac(Soac::Screma { map, .. }) = &mut consumer.exp {
                map.body.result.push(plam.body.result[k]);
                map.ret.push(plam.ret[k].clone());
            }
        }
    }
    let Some((carrs, clam)) = soac_arrs_map_mut(&mut consumer.exp) else { return };
    let mut kept_arrs = Vec::new();
    let mut kept_params = Vec::new();
    let mut bridge = Vec::new();
    // The consumer's parameters for the producer's results become those
    // results: renamed where they are variables, so that fusion inside
    // the merged lambda sees the producer's statements feeding the
    // consumer's directly; bound to them where they are constants.
    let mut renamed: HashMap<VName, VName> = HashMap::default();
    for (a, param) in carrs.iter().zip(clam.params.iter()) {
        match outs.iter().position(|o| o == a).map(|k| plam.body.result[k]) {
            Some(SubExp::Var(v)) => {
                renamed.insert(param.name, v);
            }
            Some(c) => bridge.push(Stm {
                pat: vec![Param { name: param.name, ty: param.ty.clone() }],
                exp: Exp::SubExp(c),
                attrs: StmAttrs::default(),
                span: producer.span,
            }),
            None => {
                kept_arrs.push(*a);
                kept_params.push(param.clone());
            }
        }
    }
    kept_arrs.extend(parrs);
    kept_params.extend(plam.params);
    if !renamed.is_empty() {
        ogham_ir::visit::rename_uses(&mut clam.body, &|v| renamed.get(&v).copied());
    }
    let mut stms = plam.body.stms;
    stms.extend(bridge);
    stms.append(&mut clam.body.stms);
    *carrs = kept_arrs;
    clam.params = kept_params;
    clam.body.stms = stms;
}
