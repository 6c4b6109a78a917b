//! Accumulating fusion: a map whose mapped result is only added into an
//! accumulator adds each of its elements in directly.
//!
//! Inside a `withacc`'s map function, a statement
//!
//! ```text
//! let (…, xs, …) = map(w, arrs, f)            -- or a withacc's mapped result
//! …
//! let a' = updacc(op) a[i₁, …, iₖ] = xs       -- the only use of xs
//! ```
//!
//! where `a` is an accumulator becomes a `withacc` that takes `a` as one
//! more accumulator (after those it already has) and one more input, a
//! `iota w` of row indices `j`, and whose function ends with
//! `updacc(op) a[i₁, …, iₖ, j] = x` for its former result `x`; the `updacc`
//! statement disappears and `a'` is the new accumulator result. No
//! temporary array of `w` rows is built, written and read back.
//!
//! Reverse mode makes this shape wherever the adjoint rows of a map's
//! iteration go into the adjoint of a free array: GMM's `Q_k` adjoint is a
//! `d×d` matrix per point and component, built by a map over its rows and
//! then added into the accumulator; after the rewrite, applied again to the
//! row update it leaves inside, each element goes straight into the
//! accumulator, in a loop the C backend runs as a vectorised kernel.
//!
//! Conditions, so the updates are exactly those of the `updacc`:
//! - the slice is single indices only, and the dimensions of `a` after them
//!   are, operand for operand, those of `xs` (so the row update could not
//!   fail on a shape mismatch, and element `j` of it is element `[…, j]`);
//!   a slice out of bounds writes nothing either way, and `j < w`;
//! - the indices and `a` are bound before the map, nothing between the map
//!   and the update uses `a` (the update moves earlier), and the map does
//!   not mention `a`;
//! - `a` is an accumulator of an enclosing `withacc` (a parameter of its
//!   map function, or made of one by `updacc` or a nested `withacc`): it is
//!   write-only, so nothing the map reads can alias it, and the enclosing
//!   `withacc` already decides how parallel updates of it are combined. A
//!   map at a function's top level is left alone: the multicore backend
//!   runs it in parallel, and a parallel `withacc` with a large accumulator
//!   would update it atomically.
//!
//! A second rewrite, in every body: an array built from zeros by
//! `updacc(+)` and then added whole into another array,
//!
//! ```text
//! let z₀ = replicate([n, …], 0)
//! let z₁ = updacc(+) z₀[s₁] = v₁      …      let zₖ = updacc(+) zₖ₋₁[sₖ] = vₖ
//! let a' = updacc(+) a[i₁, …, iₘ] = zₖ
//! ```
//!
//! adds each `vⱼ` into `a` at `[i₁, …, iₘ, sⱼ]` instead, where the last
//! update was; the zeros and the intermediate array are never built.
//! Reverse mode makes this shape when a function's adjoint of a matrix
//! argument is made row by row and the caller adds it into the adjoint of
//! the array the matrix was a row of (the LSTM's weights per layer: a
//! `[4][b]` array of zeros, four row updates and a whole-row addition per
//! layer and step). Conditions: `a'`'s dimensions after the indices are
//! `zₖ`'s, each `zⱼ` is used once (by the next update), and nothing
//! between an update and the last one may update its value `vⱼ` in place
//! (so it is unchanged where it is now read). Sums are reassociated: `a +
//! (0 + v₁ + v₂)` becomes `(a + v₁) + v₂`, as for any accumulation of
//! adjoints.
//!
//! A third, in every body: an array `x` built here and used once, added
//! elementwise (`map (+) x y`) to the result `y` of an `if` whose
//! branches each build zeros, perhaps with `updacc(+)`s on them: each
//! branch starts from `x` instead and the `if` binds the sum. Reverse
//! mode makes this shape for a read `ys[i - 1]` inside a branch of a loop
//! updating `ys`: the adjoint of the read is a branch's array of zeros
//! with one addition, summed into the adjoint the loop carries, which made
//! every iteration cost the array's length.

use ogham_ir::visit::{count_uses, free_vars_exp, nested_bodies_mut, rename_uses};
use ogham_ir::{
    BinOp, Body, DimIndex, Exp, NameTable, Param, PrimType, PrimValue, Program, Soac, Stm, StmAttrs, SubExp, Type,
    VName,
};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Rewrites every function of the program (see the module documentation).
pub fn accfuse_program(prog: &mut Program) {
    for f in &mut prog.funs {
        body(&mut f.body, &mut HashSet::default(), &mut prog.names);
    }
}

/// Rewrites `b`, in which the variables in `accs` are accumulators, and
/// the bodies nested in it.
fn body(b: &mut Body, accs: &mut HashSet<VName>, names: &mut NameTable) {
    for stm in &b.stms {
        accumulator_results(stm, accs);
    }
    while rewrite_one(b, &|u| accumulator_update(u, accs), names) {}
    while let Some(chain) = (0..b.stms.len()).find_map(|i| zero_chain(b, i)) {
        add_chain_directly(b, chain, names);
    }
    while let Some((i, j, x)) = (0..b.stms.len()).find_map(|i| branch_sum(b, i)) {
        add_into_branches(b, i, j, x);
    }
    for stm in &mut b.stms {
        if let Exp::Soac(Soac::WithAcc { accs: a, map, .. }) = &stm.exp {
            accs.extend(map.params[..a.len()].iter().map(|p| p.name));
        }
        for nb in nested_bodies_mut(&mut stm.exp) {
            body(nb, accs, names);
        }
    }
}

/// Adds to `accs` the results of `stm` that are accumulators because they
/// are made of one.
fn accumulator_results(stm: &Stm, accs: &mut HashSet<VName>) {
    match &stm.exp {
        Exp::UpdAcc { acc, .. } if accs.contains(acc) => {
            accs.extend(stm.pat.first().map(|p| p.name));
        }
        Exp::Soac(Soac::WithAcc { accs: a, .. }) => {
            for (p, x) in stm.pat.iter().zip(a) {
                if accs.contains(x) {
                    accs.insert(p.name);
                }
            }
        }
        _ => {}
    }
}

/// A map statement's mapped result that one later `updacc` of an
/// accumulator consumes, and what the rewrite needs of them.
struct Candidate {
    /// The map statement and the update, by position in the body.
    map: usize,
    update: usize,
    /// The result's position in the map statement's pattern.
    result: usize,
    /// The position of the update's array among the statement's own
    /// accumulator results, when it is one.
    own: Option<usize>,
}

/// Does one rewrite in `b` (not in nested bodies); whether it did.
fn rewrite_one(b: &mut Body, dest: &dyn Fn(&Stm) -> Option<Dest>, names: &mut NameTable) -> bool {
    let mut uses = HashMap::default();
    count_uses(b, &mut uses);
    let Some(c) = (0..b.stms.len()).find_map(|i| candidate(b, i, dest, &uses)) else { return false };
    rewrite(b, c, names);
    true
}

/// What a map's result may be written into directly: the array, the slice
/// and the operator of an update statement.
struct Dest<'a> {
    acc: VName,
    slice: &'a [DimIndex],
    value: SubExp,
    op: Option<BinOp>,
}

/// An update of an accumulator in `accs`.
fn accumulator_update<'a>(stm: &'a Stm, accs: &HashSet<VName>) -> Option<Dest<'a>> {
    match &stm.exp {
        Exp::UpdAcc { acc, slice, value, op } if accs.contains(acc) => {
            Some(Dest { acc: *acc, slice, value: *value, op: *op })
        }
        _ => None,
    }
}

/// The first mapped result of statement `i` that can be rewritten.
fn candidate(
    b: &Body,
    i: usize,
    dest: &dyn Fn(&Stm) -> Option<Dest>,
    uses: &HashMap<VName, usize>,
) -> Option<Candidate> {
    let stm = &b.stms[i];
    let (w, first) = match &stm.exp {
        Exp::Soac(Soac::Screma { w, scans, reduces, .. }) if scans.is_empty() && reduces.is_empty() => (w, 0),
        Exp::Soac(Soac::WithAcc { w, accs: a, .. }) => (w, a.len()),
        _ => return None,
    };
    let map_free = free_vars_exp(&stm.exp);
    for (result, p) in stm.pat.iter().enumerate().skip(first) {
        if uses.get(&p.name) != Some(&1) {
            continue;
        }
        let Some(update) = (i + 1..b.stms.len()).find(|&u| free_vars_exp(&b.stms[u].exp).contains(&p.name)) else {
            continue;
        };
        let u = &b.stms[update];
        let Some(Dest { acc, slice, value: SubExp::Var(v), op }) = dest(u) else { continue };
        let acc = &acc;
        if v != p.name || map_free.contains(acc) || u.pat.len() != 1 {
            continue;
        }
        // An accumulator this `withacc` already updates (an earlier
        // rewrite's): the update joins its updates, with the same operator
        // and row index.
        let own = stm.pat[..first].iter().position(|q| q.name == *acc);
        if let Some(q) = own {
            if uses.get(acc) != Some(&1) || row_index(b, i).is_none() || !updated_with(stm, q, op) {
                continue;
            }
        }
        let Type::Array { shape: acc_shape, .. } = &u.pat[0].ty else { continue };
        let Type::Array { shape: xs_shape, .. } = &p.ty else { continue };
        let fixed: Option<Vec<SubExp>> = slice
            .iter()
            .map(|d| match d {
                DimIndex::Fix(x) => Some(*x),
                DimIndex::Slice { .. } => None,
            })
            .collect();
        let Some(fixed) = fixed else { continue };
        if xs_shape.first() != Some(w) || acc_shape.get(fixed.len()..) != Some(&xs_shape[..]) {
            continue;
        }
        // The indices and the accumulator are bound before the map, and
        // nothing between the map and the update uses the accumulator.
        let mut needed: HashSet<VName> = fixed.iter().filter_map(|x| x.as_var()).collect();
        needed.insert(*acc);
        let between = &b.stms[i + 1..update];
        let bound_between = between.iter().flat_map(|s| s.pat.iter()).any(|p| needed.contains(&p.name));
        let acc_used_between = between.iter().any(|s| free_vars_exp(&s.exp).contains(acc));
        if own.is_some() {
            needed.remove(acc);
        }
        if bound_between || acc_used_between || stm.pat.iter().any(|p| needed.contains(&p.name)) {
            continue;
        }
        return Some(Candidate { map: i, update, result, own });
    }
    None
}

/// Whether every update of accumulator `q` in the function of the
/// `withacc` statement `stm` is an `updacc` with operator `op` in the
/// function's own body.
fn updated_with(stm: &Stm, q: usize, op: Option<BinOp>) -> bool {
    let Exp::Soac(Soac::WithAcc { map, .. }) = &stm.exp else { return false };
    let mut cur = map.params[q].name;
    for s in &map.body.stms {
        if !free_vars_exp(&s.exp).contains(&cur) {
            continue;
        }
        match &s.exp {
            Exp::UpdAcc { acc, op: o, .. } if *acc == cur && *o == op && s.pat.len() == 1 => cur = s.pat[0].name,
            _ => return false,
        }
    }
    map.body.result.get(q) == Some(&SubExp::Var(cur))
}

/// The parameter of the `withacc` statement `i` of `b` that takes the rows
/// of an `iota` of its width bound in `b`: the row index, which an earlier
/// rewrite added.
fn row_index(b: &Body, i: usize) -> Option<VName> {
    let Exp::Soac(Soac::WithAcc { w, arrs, accs, map }) = &b.stms[i].exp else { return None };
    let k = arrs.iter().position(|a| {
        b.stms[..i].iter().any(|s| {
            s.pat.len() == 1
                && s.pat[0].name == *a
                && matches!(&s.exp, Exp::Iota { n, start: SubExp::Const(s0), step: SubExp::Const(s1), elem: PrimType::I64 }
                    if n == w && s0.as_i64() == 0 && s1.as_i64() == 1)
        })
    })?;
    Some(map.params[accs.len() + k].name)
}

/// Makes the map statement of `c` a `withacc` with the update's
/// accumulator as its last accumulator, and removes the update.
fn rewrite(b: &mut Body, c: Candidate, names: &mut NameTable) {
    let update = b.stms.remove(c.update);
    let (acc, slice, op) = match update.exp {
        Exp::UpdAcc { acc, slice, op, .. } => (acc, slice, op),
        // An update proven in bounds: an overwriting `updacc` writes the same.
        Exp::Update { array, slice, .. } => (array, slice, None),
        _ => unreachable!("candidate checked an update"),
    };
    let row_index = row_index(b, c.map);
    let base = names.base(acc).to_string();
    if let (Some(q), Some(j)) = (c.own, row_index) {
        let stm = &mut b.stms[c.map];
        let Exp::Soac(Soac::WithAcc { map, .. }) = &mut stm.exp else { unreachable!("candidate checked a withacc") };
        let value = map.body.result.remove(c.result);
        map.ret.remove(c.result);
        let Some(SubExp::Var(cur)) = map.body.result.get(q).copied() else { unreachable!("checked by updated_with") };
        let acc_ty = map.ret[q].clone();
        let updated = Param { name: names.fresh(&base), ty: acc_ty };
        let mut slice = slice;
        slice.push(DimIndex::Fix(SubExp::Var(j)));
        // In bounds when the row's update was, as below.
        let attrs = StmAttrs { unsafe_: update.attrs.unsafe_, ..StmAttrs::default() };
        map.body.stms.push(Stm {
            pat: vec![updated.clone()],
            exp: Exp::UpdAcc { acc: cur, slice, value, op },
            attrs,
            span: update.span,
        });
        map.body.result[q] = SubExp::Var(updated.name);
        stm.pat.remove(c.result);
        stm.pat[q] = update.pat[0].clone();
        return;
    }
    let stm = &mut b.stms[c.map];
    let exp = std::mem::replace(&mut stm.exp, Exp::SubExp(SubExp::Const(PrimValue::I64(0))));
    let (w, arrs, mut old_accs, mut map) = match exp {
        Exp::Soac(Soac::Screma { w, arrs, map, .. }) => (w, arrs, Vec::new(), map),
        Exp::Soac(Soac::WithAcc { w, arrs, accs, map }) => (w, arrs, accs, map),
        _ => unreachable!("candidate checked a map or withacc"),
    };
    let n = old_accs.len();
    let acc_ty = update.pat[0].ty.clone();
    // The new accumulator parameter, after the old ones; the row index,
    // after the rows.
    let acc_param = Param { name: names.fresh(&base), ty: acc_ty.clone() };
    let j = match row_index {
        Some(j) => j,
        None => names.fresh("j"),
    };
    map.params.insert(n, acc_param.clone());
    if row_index.is_none() {
        map.params.push(Param { name: j, ty: Type::Prim(PrimType::I64) });
    }
    // The result becomes an update of the accumulator.
    let value = map.body.result.remove(c.result);
    map.ret.remove(c.result);
    let mut slice = slice;
    slice.push(DimIndex::Fix(SubExp::Var(j)));
    let updated = Param { name: names.fresh(&base), ty: acc_ty.clone() };
    // In bounds when the row's update was (`#[unsafe]`): `j` runs over the
    // row, whose length is the map's width.
    let attrs = StmAttrs { unsafe_: update.attrs.unsafe_, ..StmAttrs::default() };
    map.body.stms.push(Stm {
        pat: vec![updated.clone()],
        exp: Exp::UpdAcc { acc: acc_param.name, slice, value, op },
        attrs,
        span: update.span,
    });
    map.body.result.insert(n, SubExp::Var(updated.name));
    map.ret.insert(n, acc_ty);
    // The statement: the old accumulators' results, the new one's (the
    // update's pattern), then the remaining mapped results.
    let mut pat = std::mem::take(&mut stm.pat);
    pat.remove(c.result);
    pat.insert(n, update.pat[0].clone());
    stm.pat = pat;
    old_accs.push(acc);
    stm.attrs = StmAttrs::default();
    if row_index.is_some() {
        stm.exp = Exp::Soac(Soac::WithAcc { w, arrs, accs: old_accs, map });
        return;
    }
    let index = names.fresh("iota");
    let mut arrs = arrs;
    arrs.push(index);
    stm.exp = Exp::Soac(Soac::WithAcc { w, arrs, accs: old_accs, map });
    stm.attrs = StmAttrs::default();
    let iota = Stm {
        pat: vec![Param { name: index, ty: Type::Prim(PrimType::I64).array_of(w) }],
        exp: Exp::Iota { n: w, start: SubExp::i64(0), step: SubExp::i64(1), elem: PrimType::I64 },
        attrs: StmAttrs::default(),
        span: update.span,
    };
    b.stms.insert(c.map, iota);
}

/// The `mapinto` pass: the first rewrite for a destination that is not an
/// accumulator but a *private* array, one that only the update uses in its
/// scope, updated at a row of scalars by an `update` proven in bounds
/// (`#[unsafe]`, after the `bounds` pass; it becomes an overwriting
/// `updacc`) or by an `updacc`. Each application of the new `withacc`
/// updates only its own element of the row (`[…, j]`), so the backends run
/// it with plain writes or read-modify-writes, in parallel too (no atomics,
/// no partial copies). Reverse mode saves the values of a loop's iterations
/// this way, and adds adjoint rows: the LSTM's forward sweep wrote eight
/// rows per layer and step into fresh arrays and then copied them into its
/// tapes, and its return sweep added ten.
///
/// Private, so that nothing the map reads can alias the memory it now
/// writes while it runs: the array is a parameter of the function or of
/// the loop whose body this is, or made here by `scratch`, `replicate`,
/// `copy`, an update or a `withacc` (which consumed what it was made of),
/// and no other
/// statement of the scope uses it, so no view of it was taken here;
/// uniqueness rules out the rest (a consumed array's aliases are never
/// used after it is consumed, and a loop consumes its initial values).
pub fn mapinto_program(prog: &mut Program) {
    for f in &mut prog.funs {
        let own: HashSet<VName> = f.params.iter().map(|p| p.name).collect();
        into_rows(&mut f.body, &own, &mut prog.names);
    }
}

/// Applies `mapinto` to `b`, whose enclosing function or loop has the
/// parameters `own`, and to the bodies nested in it.
fn into_rows(b: &mut Body, own: &HashSet<VName>, names: &mut NameTable) {
    loop {
        let private = private_arrays(b, own);
        if !rewrite_one(b, &|u| private_row_update(u, &private), names) {
            break;
        }
    }
    for stm in &mut b.stms {
        let own: HashSet<VName> = match &stm.exp {
            Exp::Loop { params, .. } => params.iter().map(|(p, _)| p.name).collect(),
            _ => HashSet::default(),
        };
        for nb in nested_bodies_mut(&mut stm.exp) {
            into_rows(nb, &own, names);
        }
    }
}

/// For every variable, how many statements of `b` use it (in nested
/// bodies too), the body's result counting as one more.
fn statements_using(b: &Body) -> HashMap<VName, usize> {
    let mut uses: HashMap<VName, usize> = HashMap::default();
    for s in &b.stms {
        for v in free_vars_exp(&s.exp) {
            *uses.entry(v).or_default() += 1;
        }
    }
    for r in b.result.iter().filter_map(|r| r.as_var()) {
        *uses.entry(r).or_default() += 1;
    }
    uses
}

/// The private arrays of `b` (see [`mapinto_program`]).
fn private_arrays(b: &Body, own: &HashSet<VName>) -> HashSet<VName> {
    let uses = statements_using(b);
    let made_here = b.stms.iter().flat_map(|s| match &s.exp {
        Exp::Scratch { .. } | Exp::Replicate { .. } | Exp::Copy(_) | Exp::Update { .. } | Exp::UpdAcc { .. } => {
            s.pat.iter().take(1).map(|p| p.name).collect()
        }
        // A `withacc` consumed the arrays its accumulator results are made of.
        Exp::Soac(Soac::WithAcc { accs, .. }) => s.pat.iter().take(accs.len()).map(|p| p.name).collect(),
        _ => Vec::new(),
    });
    own.iter().copied().chain(made_here).filter(|v| uses.get(v) == Some(&1)).collect()
}

/// An update of a private array at a row of scalars: an `update` proven
/// in bounds, or an `updacc` (which skips what is out of bounds).
fn private_row_update<'a>(stm: &'a Stm, private: &HashSet<VName>) -> Option<Dest<'a>> {
    let (array, slice, value, op) = match &stm.exp {
        Exp::Update { array, slice, value } if stm.attrs.unsafe_ => (array, slice, value, None),
        Exp::UpdAcc { acc, slice, value, op } => (acc, slice, value, *op),
        _ => return None,
    };
    let row = stm.pat.len() == 1 && stm.pat[0].ty.rank() == slice.len() + 1;
    (row && private.contains(array)).then_some(Dest { acc: *array, slice, value: *value, op })
}

/// An array built from zeros by updates and added whole into another
/// array (the module doc's second rewrite), by statement positions.
struct ZeroChain {
    /// The updates building the array, first to last.
    links: Vec<usize>,
    /// The update adding it into the other array.
    last: usize,
}

/// The chain whose whole-array update is statement `i`, if it can be
/// rewritten.
fn zero_chain(b: &Body, i: usize) -> Option<ZeroChain> {
    let stm = &b.stms[i];
    let Exp::UpdAcc { slice, value: SubExp::Var(z), op: Some(BinOp::Add), .. } = &stm.exp else { return None };
    if stm.pat.len() != 1 || slice.iter().any(|d| !matches!(d, DimIndex::Fix(_))) {
        return None;
    }
    let Type::Array { shape: a_shape, elem, .. } = &stm.pat[0].ty else { return None };
    let def = |v: VName| b.stms[..i].iter().rposition(|s| s.pat.len() == 1 && s.pat[0].name == v);
    let zk = def(*z)?;
    let Type::Array { shape: z_shape, elem: z_elem, .. } = &b.stms[zk].pat[0].ty else { return None };
    if z_elem != elem || a_shape.get(slice.len()..) != Some(&z_shape[..]) {
        return None;
    }
    // Walk back from zₖ to the zeros.
    let mut links = Vec::new();
    let mut cur = zk;
    loop {
        match &b.stms[cur].exp {
            Exp::UpdAcc { acc, op: Some(BinOp::Add), .. } => {
                links.push(cur);
                cur = def(*acc)?;
            }
            Exp::Replicate { value: SubExp::Const(c), .. } if *c != PrimValue::Bool(false) && c.as_f64() == 0.0 => {
                break
            }
            _ => return None,
        }
    }
    links.reverse();
    // Each array of the chain is used once: by the next update.
    let uses = statements_using(b);
    let chain_names = std::iter::once(cur).chain(links.iter().copied()).map(|k| b.stms[k].pat[0].name);
    if chain_names.into_iter().any(|v| uses.get(&v) != Some(&1)) {
        return None;
    }
    // Nothing after an update but the chain's own may update in place
    // what it adds (an array value), so that it is unchanged where the
    // update moves to. (Reading it changes nothing: reverse mode's adjoint
    // of `u[i][j] + u[i][j-1]` adds one value into the row being built and
    // into the whole adjoint between the row's two updates.)
    for &k in &links {
        let Exp::UpdAcc { value, slice, .. } = &b.stms[k].exp else { unreachable!("a link is an updacc") };
        let read: HashSet<VName> =
            std::iter::once(*value).chain(slice_operands(slice)).filter_map(|x| x.as_var()).collect();
        let touched = (k + 1..i)
            .filter(|j| !links.contains(j))
            .any(|j| crate::fuse::may_consume(&b.stms[j].exp).iter().any(|v| read.contains(v)));
        if touched {
            return None;
        }
    }
    Some(ZeroChain { links, last: i })
}

/// A sum `s = map (+) x y` (statement `i`) where `y` is an `if` (statement
/// `j`) whose branches each give zeros, or zeros with `updacc(+)`s, built
/// in the branch: the third rewrite of the module documentation. Returns
/// (`i`, `j`, `x`).
fn branch_sum(b: &Body, i: usize) -> Option<(usize, usize, VName)> {
    let stm = &b.stms[i];
    let Exp::Soac(Soac::Screma { arrs, scans, reduces, map, .. }) = &stm.exp else { return None };
    if !scans.is_empty() || !reduces.is_empty() || arrs.len() != 2 || stm.pat.len() != 1 {
        return None;
    }
    // The function adds its two parameters.
    let [st] = map.body.stms.as_slice() else { return None };
    let Exp::BinOp(BinOp::Add, t, l, r) = st.exp else { return None };
    let (p0, p1) = (SubExp::Var(map.params[0].name), SubExp::Var(map.params[1].name));
    if !t.is_float() || map.body.result != [SubExp::Var(st.pat[0].name)] || !((l, r) == (p0, p1) || (l, r) == (p1, p0))
    {
        return None;
    }
    let uses = statements_using(b);
    for (x, y) in [(arrs[0], arrs[1]), (arrs[1], arrs[0])] {
        let Some(j) = b.stms[..i].iter().position(|s| s.pat.len() == 1 && s.pat[0].name == y) else { continue };
        let Exp::If { then_body, else_body, .. } = &b.stms[j].exp else { continue };
        // `x` is built here, not a view of anything else: the branches
        // update it in place.
        let defined_before = b.stms[..j].iter().any(|s| {
            s.pat.len() == 1
                && s.pat[0].name == x
                && matches!(
                    s.exp,
                    Exp::Update { .. }
                        | Exp::UpdAcc { .. }
                        | Exp::Copy(_)
                        | Exp::Replicate { .. }
                        | Exp::Scratch { .. }
                        | Exp::Soac(Soac::Screma { .. })
                )
        });
        if uses.get(&x) != Some(&1)
            || uses.get(&y) != Some(&1)
            || !defined_before
            || stm.pat[0].ty != b.stms[j].pat[0].ty
        {
            continue;
        }
        if zero_built(then_body) && zero_built(else_body) {
            return Some((i, j, x));
        }
    }
    None
}

/// Whether a branch's one result is an array of zeros it builds, perhaps
/// with `updacc(+)`s on it, each result used only by the next.
fn zero_built(body: &Body) -> bool {
    let [SubExp::Var(mut cur)] = body.result.as_slice() else { return false };
    let uses = statements_using(body);
    loop {
        let Some(s) = body.stms.iter().find(|s| s.pat.len() == 1 && s.pat[0].name == cur) else { return false };
        match &s.exp {
            Exp::Replicate { value: SubExp::Const(c), .. } if c.prim_type().is_float() && c.as_f64() == 0.0 => {
                return true
            }
            Exp::UpdAcc { acc, op: Some(BinOp::Add), .. } if uses.get(acc) == Some(&1) => cur = *acc,
            _ => return false,
        }
    }
}

/// [`branch_sum`]'s rewrite: each branch starts from `x` instead of its
/// zeros, and the `if` binds the sum (the `map` goes).
fn add_into_branches(b: &mut Body, i: usize, j: usize, x: VName) {
    let sum = b.stms.remove(i);
    let stm = &mut b.stms[j];
    stm.pat[0] = sum.pat[0].clone();
    if let Exp::If { then_body, else_body, .. } = &mut stm.exp {
        for body in [then_body, else_body] {
            let SubExp::Var(mut cur) = body.result[0] else { continue };
            let named = |s: &Stm, v: VName| s.pat.first().map(|p| p.name) == Some(v);
            loop {
                let Some(k) = body.stms.iter().position(|s| named(s, cur)) else { break };
                let Exp::UpdAcc { acc: next, .. } = body.stms[k].exp else {
                    // The zeros themselves.
                    body.result[0] = SubExp::Var(x);
                    break;
                };
                if body.stms.iter().any(|s| named(s, next) && matches!(s.exp, Exp::Replicate { .. })) {
                    if let Exp::UpdAcc { acc, .. } = &mut body.stms[k].exp {
                        *acc = x;
                    }
                    break;
                }
                cur = next;
            }
        }
    }
}

/// The operands of a slice.
fn slice_operands(slice: &[DimIndex]) -> Vec<SubExp> {
    slice
        .iter()
        .flat_map(|d| match d {
            DimIndex::Fix(x) => vec![*x],
            DimIndex::Slice { start, len, stride } => vec![*start, *len, *stride],
        })
        .collect()
}

/// Replaces the whole-array update of `c` by one update per link, and
/// removes the links (the zeros are left to dead-code elimination). An
/// update adding the zeros themselves (no links) goes: its result is the
/// array it updated.
fn add_chain_directly(b: &mut Body, c: ZeroChain, names: &mut NameTable) {
    let last = b.stms[c.last].clone();
    let Exp::UpdAcc { acc, slice: outer, op, .. } = last.exp else { unreachable!("the chain ends in an updacc") };
    if c.links.is_empty() {
        b.stms.remove(c.last);
        let result = last.pat[0].name;
        rename_uses(b, &|v| (v == result).then_some(acc));
        return;
    }
    let ty = last.pat[0].ty.clone();
    let base = names.base(acc).to_string();
    let mut cur = acc;
    let mut updates = Vec::with_capacity(c.links.len());
    for (n, &k) in c.links.iter().enumerate() {
        let Exp::UpdAcc { slice, value, .. } = &b.stms[k].exp else { unreachable!("a link is an updacc") };
        let pat = if n + 1 == c.links.len() {
            last.pat[0].clone()
        } else {
            Param { name: names.fresh(&base), ty: ty.clone() }
        };
        let mut full = outer.clone();
        full.extend(slice.iter().cloned());
        updates.push(Stm {
            pat: vec![pat.clone()],
            exp: Exp::UpdAcc { acc: cur, slice: full, value: *value, op },
            attrs: StmAttrs::default(),
            span: last.span,
        });
        cur = pat.name;
    }
    let old = std::mem::take(&mut b.stms);
    for (k, stm) in old.into_iter().enumerate() {
        if k == c.last {
            b.stms.append(&mut updates);
        } else if !c.links.contains(&k) {
            b.stms.push(stm);
        }
    }
}
