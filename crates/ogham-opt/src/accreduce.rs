//! Accumulator to reduction (seed 004 §5.1): an accumulator that a nest of
//! `withacc`s updates with a product at an index the outermost level does
//! not vary is summed over that level by a matrix product instead.
//!
//! The shape, as reverse mode leaves it for the adjoint of a matrix that a
//! map reads once per row of its input (GMM's `Q_k`, read by a
//! matrix–vector product per point):
//!
//! ```text
//! let (…, A', …) = withacc(n, …, accs [… A …], \(… a₀ …, …) ->        -- level 0, p < n
//!     …
//!     withacc(w₁, …, accs [… a₀ …], \(… a₁ …, …, i₁ …) ->              -- level 1
//!       …
//!         withacc(w_m, …, accs [… a_{m-1} …], \(… a_m …, …, i_m …) ->  -- level m
//!           let v = mul x y
//!           let a' = updacc(add) a_m[i₁, …, i_m] = v
//!           in (… a' …)
//! ```
//!
//! where each `i_l` is a row of `iota w_l`, `A: [w₁]…[w_m]`, `x` does not
//! vary with `i_m` and `y` does not vary with `i_{m-1}`. Each element of
//! `A` gets `Σ_p x(p, i₁ … i_{m-1}) · y(p, i₁ … i_{m-2}, i_m)`: for each
//! `i₁ … i_{m-2}`, a matrix product over `p`. With one level inside
//! (`m = 1`), `x` varies with `p` only and the sums are a matrix–vector
//! product: GMM's `Q_kᵀ v`, added row by row into a vector. Run as
//! written, every iteration of level 0 reads and writes all of `A` to add
//! one outer product (or one row) into it, at the speed of memory; GMM's
//! gradient spent half its time there. The rewrite:
//!
//! 1. `x` and `y` are elements of arrays: an array bound before the nest,
//!    read as is, or one bound in the body of a level `l < m` (a scalar, or
//!    an array reached through the inner levels' rows, a replicate's rows
//!    being its value), which becomes a mapped result of the levels `l`
//!    down to 0, so that `X[p, i₁ … i_l]` holds it for every iteration;
//!    The columns' operand is not made when it is a map of rows of
//!    arrays bound before the nest, each picked by one level (GMM's
//!    `x - μ`, rows of the points and of the means): each product
//!    computes it for its outer indices, compact, where it reads it
//!    ([`Recipe`]), compact rows whose transpose is the product's
//!    columns, the other's slice its rows, as for any operands (taking it
//!    as the left operand instead made the transpose of the sums, added
//!    with a strided loop: 5% of GMM's gradient);
//! 2. the update goes, and the accumulator leaves every level (its
//!    initial value is no longer consumed by the nest);
//! 3. after the nest, `A' = A + map (\i₁ … -> map (\r -> map (\c -> sum
//!    (map2 (*) r c)) Yᵀ) Xᵀ)` (`Xᵀ` and `Yᵀ` views of slices of `X` and
//!    `Y`), the matrix product the C backends tile; the addition is an
//!    `updacc` of all of `A`, in place, so `A` may be the accumulator of an
//!    enclosing `withacc`, and it is left out when `A` is a replicate of
//!    zero, as reverse mode's adjoints start.
//!
//! When step 1 makes arrays, their memory would be one element per update
//! of the nest's last two levels (GMM, `n` points of `d` dimensions and
//! `K` components: two arrays of `n·K·d`, 256 MB for the benchmark's
//! largest data set, whose objective needs 18 MB). So the nest then runs
//! (unless every array made holds one scalar per iteration of level 0, as
//! a matrix–vector product's do: no more than the level's own rows)
//! over chunks of level 0's iterations, as many as make
//! [`Target::chunk_bytes`] of those arrays (at least one; on several
//! threads a multiple of [`Target::threads`] where there are that many
//! iterations), as many iterations in each, give or take one: a `withacc`
//! over the chunks, each of which runs the outermost `withacc` on its
//! rows (the outer one's accumulators its own, its other mapped results
//! written into their rows of arrays made before it) and adds its sums
//! into an accumulator of zeros (with an outer level `i₁`, each `i₁`'s
//! part as soon as it is computed, in a `withacc` over `i₁`, so that it
//! is added while in cache). The GMM gradient at n = 10 000 then takes
//! 22 MB, and less time (395 against 460 ms: the arrays stay in the
//! caches). The chunk's size is the target's, the second-level cache of
//! the core that computes it: on AMD Zen 3 (512 KB per core), 512 KB (40
//! of GMM's points). Sequentially the chunks run one after the other; the
//! multicore backend runs them in parallel, each thread its own chunks,
//! adding into partial copies of the accumulators that it folds at the
//! end (GMM's `[K][d][d]` sums: 800 KB per thread). When the chunks ran
//! one after the other on both threads, each chunk's parallel loops
//! split between the cores, the GMM gradient at n = 10 000 on a Xeon with
//! 2 MB of L2 per core took 1.13x as long (4 MB chunks: every array a
//! core wrote, the other read half of), and synchronised its threads at
//! least five times per chunk.
//!
//! [`Target::chunk_bytes`]: crate::Target::chunk_bytes
//! [`Target::threads`]: crate::Target::threads
//!
//! The sums run over `p` in order, chunk after chunk (sequentially); only
//! the rounding of the additions changes, as with any accumulator (their
//! operator is associative and commutative by contract).
//!
//! Conditions, so the sums are exactly the updates: the chain of `a_l` is
//! linear (each used once, as the next level's accumulator or the update,
//! whose result is the lambda's), the update's indices are the levels'
//! `iota` rows in order and cover `A` whole, its operator is `add` of
//! `A`'s element type, and the sizes of the arrays made in step 1 are
//! bound before the nest.

use crate::Target;
use ogham_ir::builder::BodyBuilder;
use ogham_ir::visit::{bodies, count_uses, exp_binders, lambdas, nested_bodies_mut, type_vars};
use ogham_ir::{
    BinOp, Body, DimIndex, Exp, Lambda, NameTable, Operator, Param, PrimType, PrimValue, Program, Soac, Span, Stm,
    SubExp, Type, VName,
};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Rewrites every function of the program (see the module documentation).
pub fn accreduce_program(prog: &mut Program, target: &Target) {
    for f in &mut prog.funs {
        let mut defs = HashMap::default();
        definitions(&f.body, &mut defs);
        body(&mut f.body, &defs, target, &mut prog.names);
    }
}

/// The `iota` and `replicate` statements of a function, by the variable
/// they bind.
pub(crate) type Defs = HashMap<VName, Exp>;

pub(crate) fn definitions(b: &Body, defs: &mut Defs) {
    for stm in &b.stms {
        if let (Exp::Iota { .. } | Exp::Replicate { .. }, [p]) = (&stm.exp, &stm.pat[..]) {
            defs.insert(p.name, stm.exp.clone());
        }
        for nb in inner_bodies(&stm.exp) {
            definitions(nb, defs);
        }
    }
}

/// Whether `arr` is `iota w` (the `i64`s `0 … w-1`).
pub(crate) fn is_iota(defs: &Defs, arr: VName, w: SubExp) -> bool {
    matches!(defs.get(&arr), Some(Exp::Iota { n, start, step, elem: PrimType::I64 })
        if *n == w && *start == SubExp::i64(0) && *step == SubExp::i64(1))
}

/// Rewrites `b` and the bodies nested in it.
fn body(b: &mut Body, defs: &Defs, target: &Target, names: &mut NameTable) {
    let mut i = 0;
    while i < b.stms.len() {
        let mut pending = Vec::new();
        while let Some(found) = plan(&b.stms[i], defs) {
            pending.push(prepare(b, i, found, defs, names));
        }
        let (before, after) = if pending.is_empty() { (0, 0) } else { finish(b, i, pending, target, names) };
        i += before;
        for nb in nested_bodies_mut(&mut b.stms[i].exp) {
            body(nb, defs, target, names);
        }
        i += 1 + after;
    }
}

/// One level of the nest: a `withacc` statement's width, inputs and
/// function, and the position of the accumulator of the chain.
struct Level<'a> {
    w: SubExp,
    arrs: &'a [VName],
    nacc: usize,
    lam: &'a Lambda,
    acc: usize,
}

/// An operand of the product: element `dims` (level numbers, 0 for the
/// outermost level's iteration) of an array `X`. Either `X` is `arr`,
/// bound before the nest (`level` is `None`), or `X` is made of `arr`,
/// bound in the body of level `level`, of type `ty`, by [`materialise`]
/// (its first dimensions are the levels 0 … `level`).
#[derive(Clone)]
struct Operand {
    arr: VName,
    level: Option<usize>,
    ty: Option<Type>,
    dims: Vec<usize>,
    /// How the product computes the columns' operand again instead of
    /// reading it from a materialised array (see [`Recipe`]).
    recipe: Option<Recipe>,
}

/// The columns' operand `Y` when `Y[p, i₁ … i_l, ·]` is `map f` of rows of
/// arrays bound before the nest, each indexed by one level `≤ l` (GMM's
/// `x_p - μ_k`): the product computes `Y` for its outer indices `i₁ …`
/// where it reads it, `[n][w_m]` compact and in cache, instead of the nest
/// materialising all of it (`[n][K][d]`, written once and read once by
/// the products). The same elements are computed, once each.
#[derive(Clone)]
struct Recipe {
    /// The map's inputs: an array bound before the nest and the level
    /// whose iteration picks its row.
    ins: Vec<(VName, usize, Type)>,
    f: Lambda,
}

/// What the rewrite does.
#[derive(Clone)]
struct Plan {
    /// Statement positions: `path[l]` is level `l + 1` in level `l`'s body.
    path: Vec<usize>,
    /// The chain's accumulator position at each level.
    accs: Vec<usize>,
    widths: Vec<SubExp>,
    /// The update's position in the innermost level's body.
    update: usize,
    /// The operand varying with the rows (`i_{m-1}`) and the one varying
    /// with the columns (`i_m`), and whether the rows' is the product's
    /// left operand.
    rows: Operand,
    cols: Operand,
    rows_left: bool,
    elem: PrimType,
    span: Span,
}

/// The rewrite of one accumulator of `stm`, if one matches.
fn plan(stm: &Stm, defs: &Defs) -> Option<Plan> {
    let Exp::Soac(Soac::WithAcc { accs, .. }) = &stm.exp else { return None };
    let mut inside = HashSet::default();
    binders(&stm.exp, &mut inside);
    (0..accs.len()).find_map(|a| plan_acc(stm, a, defs, &inside))
}

/// The bodies nested directly in `exp`, its lambdas' included.
fn inner_bodies(exp: &Exp) -> Vec<&Body> {
    let mut out = bodies(exp);
    out.extend(lambdas(exp).into_iter().map(|l| &l.body));
    out
}

/// The variables bound inside `exp`.
fn binders(exp: &Exp, out: &mut HashSet<VName>) {
    out.extend(exp_binders(exp).iter().map(|p| p.name));
    out.extend(lambdas(exp).iter().flat_map(|l| l.params.iter().map(|p| p.name)));
    for b in inner_bodies(exp) {
        for s in &b.stms {
            out.extend(s.pat.iter().map(|p| p.name));
            binders(&s.exp, out);
        }
    }
}

fn level(stm: &Stm, acc: usize) -> Option<Level<'_>> {
    let Exp::Soac(Soac::WithAcc { w, arrs, accs, map }) = &stm.exp else { return None };
    Some(Level { w: *w, arrs, nacc: accs.len(), lam: map, acc })
}

fn plan_acc(stm: &Stm, a: usize, defs: &Defs, inside: &HashSet<VName>) -> Option<Plan> {
    let mut levels = vec![level(stm, a)?];
    let mut path = Vec::new();
    // Follow the accumulator's chain inwards to its update.
    let update = loop {
        let (lam, acc) = levels.last().map(|lv| (lv.lam, lv.acc))?;
        let body = &lam.body;
        let ap = lam.params.get(acc)?.name;
        let mut uses = HashMap::default();
        count_uses(body, &mut uses);
        if uses.get(&ap) != Some(&1) {
            return None;
        }
        let (j, s) = body.stms.iter().enumerate().find(|(_, s)| mentions(&s.exp, ap))?;
        let next = match &s.exp {
            Exp::Soac(Soac::WithAcc { accs, .. }) => accs.iter().position(|x| *x == ap)?,
            Exp::UpdAcc { acc, .. } if *acc == ap => usize::MAX,
            _ => return None,
        };
        let out = s.pat.get(if next == usize::MAX { 0 } else { next })?.name;
        if uses.get(&out) != Some(&1) || body.result.get(acc) != Some(&SubExp::Var(out)) {
            return None;
        }
        if next == usize::MAX {
            break j;
        }
        path.push(j);
        levels.push(level(s, next)?);
    };
    let m = levels.len() - 1;
    if m < 1 {
        return None;
    }
    let inner = levels[m].lam;
    let Exp::UpdAcc { slice, value: SubExp::Var(v), op: Some(BinOp::Add), .. } = &inner.body.stms[update].exp else {
        return None;
    };
    // The accumulator covers the levels' iterations exactly.
    let Type::Array { elem, shape } = &levels[0].lam.params[a].ty else { return None };
    let widths: Vec<SubExp> = levels.iter().map(|l| l.w).collect();
    if shape[..] != widths[1..] || !(elem.is_float() || elem.is_int()) {
        return None;
    }
    let outside = |se: &SubExp| se.as_var().is_none_or(|x| !inside.contains(&x));
    if !widths.iter().all(outside) {
        return None;
    }
    // Its indices are the levels' rows of `iota w_l`.
    if slice.len() != m {
        return None;
    }
    for (l, d) in slice.iter().enumerate() {
        let DimIndex::Fix(SubExp::Var(i)) = d else { return None };
        let lv = &levels[l + 1];
        let q = lv.lam.params.iter().position(|p| p.name == *i)?;
        let arr = lv.arrs.get(q.checked_sub(lv.nacc)?)?;
        if !is_iota(defs, *arr, lv.w) {
            return None;
        }
    }
    // The updated value is a product.
    let prod = inner.body.stms.iter().find(|s| s.pat.iter().any(|p| p.name == *v))?;
    let Exp::BinOp(BinOp::Mul, t, SubExp::Var(x), SubExp::Var(y)) = &prod.exp else { return None };
    if t != elem {
        return None;
    }
    let scope = Scope::new(&levels, defs, inside);
    let (x, y) = (scope.operand(*x)?, scope.operand(*y)?);
    // With one level inside, the rows' operand is a vector over level 0
    // and the sums a matrix–vector product.
    let row = (m >= 2).then(|| m - 1);
    let varies = |o: &Operand, l: usize| o.dims.iter().filter(|&&d| d == l).count();
    let is_rows = |o: &Operand| varies(o, 0) == 1 && varies(o, m) == 0 && row.is_none_or(|r| varies(o, r) == 1);
    let is_cols = |o: &Operand| varies(o, 0) == 1 && varies(o, m) == 1 && row.is_none_or(|r| varies(o, r) == 0);
    let (rows, cols, rows_left) = if is_rows(&x) && is_cols(&y) {
        (x, y, true)
    } else if is_rows(&y) && is_cols(&x) {
        (y, x, false)
    } else {
        return None;
    };
    let cols = if m >= 2 && cols.arr != rows.arr { scope.with_recipe(cols, &widths) } else { cols };
    let accs = levels.iter().map(|l| l.acc).collect();
    Some(Plan { path, accs, widths, update, rows, cols, rows_left, elem: *elem, span: prod.span })
}

/// Whether `exp` mentions `v` (as an operand or inside a nested body).
fn mentions(exp: &Exp, v: VName) -> bool {
    ogham_ir::visit::free_vars_exp(exp).contains(&v)
}

/// Where the variables of the nest come from.
struct Scope<'a> {
    m: usize,
    levels: &'a [Level<'a>],
    defs: &'a Defs,
    inside: &'a HashSet<VName>,
    /// Parameters: level and position.
    params: HashMap<VName, (usize, usize)>,
    /// Variables bound by the statements of the bodies of levels 0 … m-1,
    /// with their level and type.
    bound: HashMap<VName, (usize, Type)>,
}

impl<'a> Scope<'a> {
    fn new(levels: &'a [Level<'a>], defs: &'a Defs, inside: &'a HashSet<VName>) -> Scope<'a> {
        let m = levels.len() - 1;
        let mut params = HashMap::default();
        let mut bound = HashMap::default();
        for (l, lv) in levels.iter().enumerate() {
            for (q, p) in lv.lam.params.iter().enumerate() {
                params.insert(p.name, (l, q));
            }
            if l < m {
                for s in &lv.lam.body.stms {
                    for p in &s.pat {
                        bound.insert(p.name, (l, p.ty.clone()));
                    }
                }
            }
        }
        Scope { m, levels, defs, inside, params, bound }
    }

    /// The scalar `u` as an element of an array bound before the nest or
    /// in it.
    fn operand(&self, u: VName) -> Option<Operand> {
        let (arr, level, trail) = self.trace(u, 0)?;
        let Some(level) = level else { return Some(Operand { arr, level, ty: None, dims: trail, recipe: None }) };
        let (_, ty) = self.bound.get(&arr)?;
        // The materialised array's sizes are known before the nest.
        if type_vars(ty).any(|x| self.inside.contains(&x)) {
            return None;
        }
        let mut dims: Vec<usize> = (0..=level).collect();
        dims.extend(trail);
        Some(Operand { arr, level: Some(level), ty: Some(ty.clone()), dims, recipe: None })
    }

    /// `op` (the columns' operand) with a [`Recipe`], when its array is a
    /// map of rows of arrays bound before the nest by scalar code that
    /// cannot fail, over level `m`'s width.
    fn with_recipe(&self, mut op: Operand, widths: &[SubExp]) -> Operand {
        let Some(level) = op.level else { return op };
        let defined = self.levels[level].lam.body.stms.iter().find(|s| s.pat.len() == 1 && s.pat[0].name == op.arr);
        let Some(Stm { exp: Exp::Soac(Soac::Screma { w, arrs, scans, reduces, map }), .. }) = defined else {
            return op;
        };
        let scalar_code = map
            .body
            .stms
            .iter()
            .all(|s| s.pat.iter().all(|p| p.ty.rank() == 0) && ogham_ir::layout::scalar_cannot_fail(&s.exp));
        if *w != widths[self.m] || !scans.is_empty() || !reduces.is_empty() || !scalar_code {
            return op;
        }
        if ogham_ir::visit::free_vars_lambda(map).iter().any(|v| self.inside.contains(v)) {
            return op;
        }
        let mut ins = Vec::new();
        for a in arrs {
            // A row of its level's own input, an array bound before the nest.
            let Some(&(l, q)) = self.params.get(a) else { return op };
            let lv = &self.levels[l];
            let Some(&arr) = q.checked_sub(lv.nacc).and_then(|k| lv.arrs.get(k)) else { return op };
            let ty = lv.lam.params[q].ty.clone();
            if self.inside.contains(&arr) || l > level || ty.shape() != [*w] {
                return op;
            }
            ins.push((arr, l, ty));
        }
        if !ins.iter().any(|(_, l, _)| *l == 0) {
            return op;
        }
        op.recipe = Some(Recipe { ins, f: map.clone() });
        op
    }

    /// The variable `u` (a scalar or a row) as `arr[trail…]` in the
    /// iteration of the levels, with `arr` bound in the body of `level`,
    /// or before the nest (`None`).
    fn trace(&self, u: VName, depth: usize) -> Option<(VName, Option<usize>, Vec<usize>)> {
        if depth > 64 {
            return None;
        }
        if let Some(&(l, q)) = self.params.get(&u) {
            let lv = &self.levels[l];
            let input = *lv.arrs.get(q.checked_sub(lv.nacc)?)?;
            // A row of a replicate is its value, whatever the row.
            if let Some(Exp::Replicate { shape, value: SubExp::Var(s) }) = self.defs.get(&input) {
                if shape.len() == 1 && self.inside.contains(&input) {
                    return self.trace(*s, depth + 1);
                }
            }
            let (arr, level, mut trail) = if self.params.contains_key(&input) {
                self.trace(input, depth + 1)?
            } else if let Some((level, _)) = self.bound.get(&input) {
                (input, Some(*level), Vec::new())
            } else if !self.inside.contains(&input) {
                (input, None, Vec::new())
            } else {
                return None;
            };
            trail.push(l);
            return Some((arr, level, trail));
        }
        let (level, _) = self.bound.get(&u)?;
        (*level < self.m).then(|| (u, Some(*level), Vec::new()))
    }
}

/// The statement of level `l` (0: `b.stms[i]`), at `path` (the plan's,
/// which removing an accumulator or adding a mapped result keeps valid).
fn level_stm<'b>(b: &'b mut Body, i: usize, path: &[usize], l: usize) -> &'b mut Stm {
    let mut stm = &mut b.stms[i];
    for &j in &path[..l] {
        let Exp::Soac(Soac::WithAcc { map, .. }) = &mut stm.exp else { unreachable!("the plan's levels are withaccs") };
        stm = &mut map.body.stms[j];
    }
    stm
}

fn lambda(stm: &mut Stm) -> &mut Lambda {
    let Exp::Soac(Soac::WithAcc { map, .. }) = &mut stm.exp else { unreachable!("the plan's levels are withaccs") };
    map
}

/// A rewrite whose update is gone and whose operands are made: what is
/// left to do after the nest.
struct Pending {
    plan: Plan,
    /// The operands' arrays.
    xs: VName,
    ys: VName,
    /// The accumulator's result and initial value, and whether that is a
    /// replicate of zero.
    result: Param,
    init: VName,
    zero: bool,
}

/// Does steps 1 and 2 of the rewrite of `plan` on statement `i` of `b`.
fn prepare(b: &mut Body, i: usize, plan: Plan, defs: &Defs, names: &mut NameTable) -> Pending {
    let m = plan.widths.len() - 1;
    // The update goes, and with it the accumulator from every level.
    lambda(level_stm(b, i, &plan.path, m)).body.stms.remove(plan.update);
    let mut result = None;
    let mut init = None;
    for l in (0..=m).rev() {
        let a = plan.accs[l];
        let stm = level_stm(b, i, &plan.path, l);
        result = Some(stm.pat.remove(a));
        let Exp::Soac(Soac::WithAcc { accs, map, .. }) = &mut stm.exp else { unreachable!("the plan's levels") };
        init = Some(accs.remove(a));
        map.params.remove(a);
        map.ret.remove(a);
        map.body.result.remove(a);
    }
    let (Some(result), Some(init)) = (result, init) else { unreachable!("the plan has levels") };
    // The operands' arrays become mapped results of the levels.
    let xs = materialise(b, i, &plan, &plan.rows, names);
    let ys = if plan.cols.arr == plan.rows.arr {
        xs
    } else if plan.cols.recipe.is_some() {
        // Computed where the product reads it: nothing to make.
        plan.cols.arr
    } else {
        materialise(b, i, &plan, &plan.cols, names)
    };
    let zero = matches!(defs.get(&init), Some(Exp::Replicate { value: SubExp::Const(c), .. })
        if *c == PrimValue::zero(plan.elem));
    Pending { plan, xs, ys, result, init, zero }
}

/// All of a dimension of `len` elements, as a slice.
fn all(len: SubExp) -> DimIndex {
    DimIndex::Slice { start: SubExp::i64(0), len, stride: SubExp::i64(1) }
}

/// All of `A` (its sizes the plan's widths after the first), as a slice.
fn whole(plan: &Plan) -> Vec<DimIndex> {
    plan.widths[1..].iter().map(|w| all(*w)).collect()
}

/// Step 3 of the rewrites `pending` of statement `i` of `b`: the sums
/// after it, or, when it makes arrays for them, a loop over chunks of its
/// iterations, each running the statement on its chunk and adding its
/// sums (so the arrays take a chunk's bytes at most, not one element per
/// update). Returns how many statements went before the statement (or the
/// loop that replaced it) and after it.
fn finish(b: &mut Body, i: usize, pending: Vec<Pending>, target: &Target, names: &mut NameTable) -> (usize, usize) {
    // Arrays of one scalar per iteration (a matrix–vector product's) take
    // no more memory than the level's own rows: no chunks for them.
    let pat = &b.stms[i].pat;
    let made = pending.iter().flat_map(|p| [p.xs, p.ys]).any(|v| pat.iter().any(|q| q.name == v && q.ty.rank() > 1));
    let mut out = BodyBuilder::new(pending[0].plan.span);
    let before = if made {
        let before = chunks(b, i, &pending, target, names);
        let pat = &b.stms[i + before].pat;
        for (p, s) in pending.iter().zip(&pat[pat.len() - pending.len()..]) {
            bind_result(&mut out, p, s.name);
        }
        before
    } else {
        let starts = (SubExp::i64(0), SubExp::i64(0));
        for p in &pending {
            let operands = ((p.xs, &p.plan.rows), (p.ys, &p.plan.cols));
            let into = (!p.zero).then_some(p.init);
            let sums = product_nest(&mut out, &p.plan, operands, starts, into, names);
            out.push(vec![p.result.clone()], sums);
        }
        0
    };
    let after = out.stms.len();
    let at = i + before + 1;
    b.stms.splice(at..at, out.stms);
    (before, after)
}

/// Binds the accumulator's result: the sums, or its initial value with
/// the sums added in place (into an array or into the accumulator of an
/// enclosing withacc alike).
fn bind_result(out: &mut BodyBuilder, p: &Pending, sums: VName) {
    if p.zero {
        out.push(vec![p.result.clone()], Exp::SubExp(SubExp::Var(sums)));
    } else {
        let add = Exp::UpdAcc { acc: p.init, slice: whole(&p.plan), value: SubExp::Var(sums), op: Some(BinOp::Add) };
        out.push(vec![p.result.clone()], add);
    }
}

/// Replaces statement `i` of `b` (a `withacc` over `n` iterations with
/// the arrays `pending` made among its mapped results) by a `withacc`
/// over chunks of its iterations: for each chunk, the `withacc` on the
/// chunk's rows (the outer one's accumulators its own), the other mapped
/// results written into their rows of arrays made before it (write-only
/// accumulators, each chunk writing rows of its own), and each pending
/// rewrite's sums of the chunk added into an accumulator of zeros, which
/// the outer `withacc` returns after its other results. The chunks are
/// independent but for the additions, so the multicore backend runs
/// them in parallel, each thread its chunks with its own partial copies
/// of the sums, and a chunk's arrays stay in its core's cache; run
/// sequentially it is a loop over the chunks. Returns how many
/// statements went before it.
fn chunks(b: &mut Body, i: usize, pending: &[Pending], target: &Target, names: &mut NameTable) -> usize {
    let stm = b.stms.remove(i);
    let span = stm.span;
    let Exp::Soac(Soac::WithAcc { w: n, arrs, accs, map }) = stm.exp else { unreachable!("the plan's level 0") };
    let nacc = accs.len();
    // The arrays made among the statement's results (an operand bound
    // before the statement is read at the chunk's rows instead).
    let made: HashSet<VName> =
        pending.iter().flat_map(|p| [p.xs, p.ys]).filter(|v| stm.pat.iter().any(|q| q.name == *v)).collect();
    let i64t = Type::Prim(PrimType::I64);
    let mut pre = BodyBuilder::new(span);
    let arith = |bb: &mut BodyBuilder, names: &mut NameTable, op: BinOp, x: SubExp, y: SubExp| {
        SubExp::Var(bb.bind(names, "chunk", i64t.clone(), Exp::BinOp(op, PrimType::I64, x, y)))
    };
    // Iterations per chunk: chunk_bytes over the bytes made per iteration.
    let mut per = SubExp::i64(0);
    for q in stm.pat[nacc..].iter().filter(|q| made.contains(&q.name)) {
        let mut bytes = SubExp::i64(q.ty.elem().byte_size() as i64);
        for d in &q.ty.shape()[1..] {
            bytes = arith(&mut pre, names, BinOp::Mul, bytes, *d);
        }
        per = arith(&mut pre, names, BinOp::Add, per, bytes);
    }
    let per = arith(&mut pre, names, BinOp::Max, per, SubExp::i64(1));
    let size = arith(&mut pre, names, BinOp::Quot, SubExp::i64(target.chunk_bytes), per);
    let size = arith(&mut pre, names, BinOp::Max, size, SubExp::i64(1));
    let span_n = arith(&mut pre, names, BinOp::Add, n, size);
    let span_n = arith(&mut pre, names, BinOp::Sub, span_n, SubExp::i64(1));
    let mut count = arith(&mut pre, names, BinOp::Quot, span_n, size);
    if target.threads > 1 {
        // A multiple of the threads where there are that many iterations
        // (GMM at n = 1000 on two threads: 8 chunks of 125 points rather
        // than 7 of 143, four for one thread and three for the other).
        let t = SubExp::i64(target.threads);
        let up = arith(&mut pre, names, BinOp::Add, count, t);
        let up = arith(&mut pre, names, BinOp::Sub, up, SubExp::i64(1));
        let up = arith(&mut pre, names, BinOp::Quot, up, t);
        let up = arith(&mut pre, names, BinOp::Mul, up, t);
        let up = arith(&mut pre, names, BinOp::Min, up, n);
        count = arith(&mut pre, names, BinOp::Max, count, up);
    }
    // The accumulators over the chunks: the accumulated arrays, the other
    // mapped results (written row by row into arrays made here), the sums.
    let mut params: Vec<(Param, VName)> = Vec::new();
    for (q, a) in stm.pat[..nacc].iter().zip(&accs) {
        let base = names.base(q.name).to_string();
        params.push((Param { name: names.fresh(&base), ty: q.ty.clone() }, *a));
    }
    let outputs: Vec<usize> = (nacc..stm.pat.len()).filter(|&k| !made.contains(&stm.pat[k].name)).collect();
    for &k in &outputs {
        let q = &stm.pat[k];
        let scratch =
            pre.bind(names, "rows", q.ty.clone(), Exp::Scratch { elem: q.ty.elem(), shape: q.ty.shape().to_vec() });
        let base = names.base(q.name).to_string();
        params.push((Param { name: names.fresh(&base), ty: q.ty.clone() }, scratch));
    }
    for p in pending {
        let ty = Type::Array { elem: p.plan.elem, shape: p.plan.widths[1..].to_vec() };
        let zeros = pre.bind(
            names,
            "sums",
            ty.clone(),
            Exp::Replicate { shape: ty.shape().to_vec(), value: SubExp::Const(PrimValue::zero(p.plan.elem)) },
        );
        params.push((Param { name: names.fresh("sums"), ty }, zeros));
    }
    // The body: one chunk, the row `c` of `iota count`.
    let c = names.fresh("chunk");
    let mut body = BodyBuilder::new(span);
    // Chunk c is iterations c·n/count up to (c+1)·n/count: as many in
    // every chunk, give or take one, rather than a short last chunk whose
    // products' reductions would be short (GMM at n = 1000 in chunks of
    // 327 points: the last had 19).
    let lo = arith(&mut body, names, BinOp::Mul, SubExp::Var(c), n);
    let lo = arith(&mut body, names, BinOp::Quot, lo, count);
    let next = arith(&mut body, names, BinOp::Add, SubExp::Var(c), SubExp::i64(1));
    let hi = arith(&mut body, names, BinOp::Mul, next, n);
    let hi = arith(&mut body, names, BinOp::Quot, hi, count);
    let len = arith(&mut body, names, BinOp::Sub, hi, lo);
    let rows = |len: SubExp, ty: &Type| {
        let mut slice = vec![DimIndex::Slice { start: lo, len, stride: SubExp::i64(1) }];
        slice.extend(ty.shape()[1..].iter().map(|d| all(*d)));
        slice
    };
    let mut chunk_arrs = Vec::new();
    for (a, p) in arrs.iter().zip(&map.params[nacc..]) {
        let ty = p.ty.array_of(n);
        let exp = Exp::Index { array: *a, slice: rows(len, &ty) };
        chunk_arrs.push(body.bind(names, "chunk_rows", p.ty.array_of(len), exp));
    }
    let mut pat = Vec::new();
    for (q, _) in &params[..nacc] {
        let base = names.base(q.name).to_string();
        pat.push(Param { name: names.fresh(&base), ty: q.ty.clone() });
    }
    let mut chunk_of = HashMap::default();
    for q in &stm.pat[nacc..] {
        let base = names.base(q.name).to_string();
        let ty = Type::Array { elem: q.ty.elem(), shape: [vec![len], q.ty.shape()[1..].to_vec()].concat() };
        let v = names.fresh(&base);
        chunk_of.insert(q.name, v);
        pat.push(Param { name: v, ty });
    }
    let chunk_accs: Vec<VName> = params[..nacc].iter().map(|(q, _)| q.name).collect();
    body.push(pat.clone(), Exp::Soac(Soac::WithAcc { w: len, arrs: chunk_arrs, accs: chunk_accs, map }));
    let mut results: Vec<SubExp> = pat[..nacc].iter().map(|q| SubExp::Var(q.name)).collect();
    for (j, &k) in outputs.iter().enumerate() {
        let q = &stm.pat[k];
        let dest = params[nacc + j].0.name;
        let value = SubExp::Var(chunk_of[&q.name]);
        let write = Exp::UpdAcc { acc: dest, slice: rows(len, &q.ty), value, op: None };
        let written = body.bind(names, "rows", q.ty.clone(), write);
        results.push(SubExp::Var(written));
    }
    for (j, p) in pending.iter().enumerate() {
        let mut plan = p.plan.clone();
        plan.widths[0] = len;
        let start = |x: VName| if made.contains(&x) { SubExp::i64(0) } else { lo };
        let xs = chunk_of.get(&p.xs).copied().unwrap_or(p.xs);
        let ys = chunk_of.get(&p.ys).copied().unwrap_or(p.ys);
        let acc = params[nacc + outputs.len() + j].0.name;
        let operands = ((xs, &plan.rows), (ys, &plan.cols));
        let sums = product_nest(&mut body, &plan, operands, (start(p.xs), start(p.ys)), Some(acc), names);
        let ty = Type::Array { elem: plan.elem, shape: plan.widths[1..].to_vec() };
        results.push(SubExp::Var(body.bind(names, "sums", ty, sums)));
    }
    let body = body.finish(results);
    // The outer `withacc` binds the statement's results and the sums.
    let mut pat: Vec<Param> = stm.pat[..nacc].to_vec();
    pat.extend(outputs.iter().map(|&k| stm.pat[k].clone()));
    for (q, _) in &params[nacc + outputs.len()..] {
        pat.push(Param { name: names.fresh("sums"), ty: q.ty.clone() });
    }
    let index = pre.bind(
        names,
        "chunks",
        i64t.array_of(count),
        Exp::Iota { n: count, start: SubExp::i64(0), step: SubExp::i64(1), elem: PrimType::I64 },
    );
    let outer_accs = params.iter().map(|(_, init)| *init).collect();
    let ret = params.iter().map(|(q, _)| q.ty.clone()).collect();
    let mut lparams: Vec<Param> = params.into_iter().map(|(q, _)| q).collect();
    lparams.push(Param { name: c, ty: i64t });
    let map = Lambda { params: lparams, body, ret };
    let before = pre.stms.len();
    let mut stms = pre.stms;
    let exp = Exp::Soac(Soac::WithAcc { w: count, arrs: vec![index], accs: outer_accs, map });
    stms.push(Stm { pat, exp, attrs: stm.attrs, span });
    b.stms.splice(i..i, stms);
    before
}

/// Makes `op.arr` a mapped result of the levels `op.level` down to 0; the
/// name of level 0's result (`op.arr` itself if it is bound before the
/// nest).
fn materialise(b: &mut Body, i: usize, plan: &Plan, op: &Operand, names: &mut NameTable) -> VName {
    let (Some(level), Some(ty)) = (op.level, &op.ty) else { return op.arr };
    let mut value = op.arr;
    let mut ty = ty.clone();
    for l in (0..=level).rev() {
        let stm = level_stm(b, i, &plan.path, l);
        let lam = lambda(stm);
        lam.ret.push(ty.clone());
        lam.body.result.push(SubExp::Var(value));
        ty = ty.array_of(plan.widths[l]);
        let base = format!("{}_all", names.base(op.arr));
        value = names.fresh(&base);
        stm.pat.push(Param { name: value, ty: ty.clone() });
    }
    value
}

/// The expression of the sums of the plan, from the operands' arrays `rows.0` and `cols.0`,
/// whose level-0 iterations start at `starts` (a chunk's first
/// iteration in an array of all of them, or 0); added in place into
/// `into` (an array or accumulator of the sums' type, consumed) when
/// given. With an outer level (`i₁`), the addition is a `withacc` over
/// it whose iterations each add their part `sums[i₁]` into `into[i₁]` as
/// soon as it is computed, while it is in cache, instead of building all
/// the sums and adding them after (GMM's `[K][d][d]`, 800 KB per chunk:
/// written, then read back with the array it is added to); each element
/// gets the same one addition either way. The backends run such a
/// `withacc` as a map (its iterations update rows of their own).
fn product_nest(
    out: &mut BodyBuilder,
    plan: &Plan,
    (rows, cols): ((VName, &Operand), (VName, &Operand)),
    starts: (SubExp, SubExp),
    into: Option<VName>,
    names: &mut NameTable,
) -> Exp {
    let rows = (rows.0, rows.1, starts.0);
    let cols = (cols.0, cols.1, starts.1);
    let m = plan.widths.len() - 1;
    let sums_ty = Type::Array { elem: plan.elem, shape: plan.widths[1..].to_vec() };
    let add = |acc: VName, slice: Vec<DimIndex>, value: VName| Exp::UpdAcc {
        acc,
        slice,
        value: SubExp::Var(value),
        op: Some(BinOp::Add),
    };
    let Some(into) = into else {
        return Exp::SubExp(SubExp::Var(product_level(out, plan, (rows, cols), 1, &mut Vec::new(), names)));
    };
    if m < 3 {
        return add(into, whole(plan), product_level(out, plan, (rows, cols), 1, &mut Vec::new(), names));
    }
    let w = plan.widths[1];
    let index = out.bind(
        names,
        "iota",
        Type::Prim(PrimType::I64).array_of(w),
        Exp::Iota { n: w, start: SubExp::i64(0), step: SubExp::i64(1), elem: PrimType::I64 },
    );
    let acc = Param { name: names.fresh("sums"), ty: sums_ty.clone() };
    let i = Param { name: names.fresh("i"), ty: Type::Prim(PrimType::I64) };
    let mut inner = BodyBuilder::new(plan.span);
    let part = product_level(&mut inner, plan, (rows, cols), 2, &mut vec![i.name], names);
    let mut slice = vec![DimIndex::Fix(SubExp::Var(i.name))];
    slice.extend(plan.widths[2..].iter().map(|w| all(*w)));
    let added = inner.bind(names, "sums", sums_ty.clone(), add(acc.name, slice, part));
    let map = Lambda { params: vec![acc, i], body: inner.finish(vec![SubExp::Var(added)]), ret: vec![sums_ty.clone()] };
    Exp::Soac(Soac::WithAcc { w, arrs: vec![index], accs: vec![into], map })
}

/// An operand's array, the operand, and where level 0's iterations start
/// in the array.
type Source<'o> = (VName, &'o Operand, SubExp);

/// The sums of level `l` and inward, for the outer levels' indices
/// `fixed` (one per level 1 … l-1): a map over `iota w_l` for each outer
/// level, then the product of the rows' and columns' slices.
fn product_level(
    out: &mut BodyBuilder,
    plan: &Plan,
    (rows, cols): (Source, Source),
    l: usize,
    fixed: &mut Vec<VName>,
    names: &mut NameTable,
) -> VName {
    let m = plan.widths.len() - 1;
    let t = plan.elem;
    let result_ty = |from: usize| Type::Array { elem: t, shape: plan.widths[from..].to_vec() };
    if l + 1 >= m {
        let (n, c) = (plan.widths[0], plan.widths[m]);
        let yt = if let Some(recipe) = &cols.1.recipe {
            // Y for the outer indices (`m ≥ 2`), computed here as compact
            // rows.
            let y = recompute(out, recipe, cols.2, plan, fixed, names);
            out.bind(
                names,
                "tr",
                Type::Array { elem: t, shape: vec![c, n] },
                Exp::Rearrange { array: y, perm: vec![1, 0] },
            )
        } else {
            // Yᵀ a view (the tiles copy the columns they read).
            transposed(out, cols, (m, false), plan, fixed, names)
        };
        if m == 1 {
            let (xs, _) = slice(out, rows, plan, fixed, names);
            let exp = vector_product(xs, yt, (c, n), t, plan.rows_left, plan.span, names);
            return out.bind(names, "dprod", result_ty(1), exp);
        }
        // Xᵀ read from a compact copy of the slice when it fixes outer
        // indices: the tiles copy the columns they read, not the rows, and
        // a tile reads its rows' elements at one step together; from GMM's
        // `[n][K][d]` array the steps were 12.8 KB apart (the gradient at n
        // = 10 000: 540 ms, 480 ms with the copy; copying the transpose
        // row-major instead cost as much as it saved; with Y recomputed,
        // the product took 1.0–1.05 times the forward product's samples,
        // 0.56–0.67 times with the copy, which takes 7% of the gradient).
        let r = plan.widths[m - 1];
        let xt = transposed(out, rows, (m - 1, true), plan, fixed, names);
        let exp = matrix_product(xt, yt, (r, c, n), t, plan.rows_left, plan.span, names);
        return out.bind(names, "dprod", result_ty(m - 1), exp);
    }
    let w = plan.widths[l];
    let index = out.bind(
        names,
        "iota",
        Type::Prim(PrimType::I64).array_of(w),
        Exp::Iota { n: w, start: SubExp::i64(0), step: SubExp::i64(1), elem: PrimType::I64 },
    );
    let i = Param { name: names.fresh("i"), ty: Type::Prim(PrimType::I64) };
    fixed.push(i.name);
    let mut inner = BodyBuilder::new(plan.span);
    let res = product_level(&mut inner, plan, (rows, cols), l + 1, fixed, names);
    fixed.pop();
    let ret = result_ty(l + 1);
    let lam = Lambda { params: vec![i], body: inner.finish(vec![SubExp::Var(res)]), ret: vec![ret] };
    let exp = Exp::Soac(Soac::Screma { w, arrs: vec![index], scans: vec![], reduces: vec![], map: lam });
    out.bind(names, "sums", result_ty(l), exp)
}

/// The columns' operand of a [`Recipe`] for the outer levels' indices
/// `fixed`: `map (\rows₀ -> map f rows) A₀[start:+n]`, the rows of the
/// arrays of level 0 mapped over, the others' rows indexed by `fixed`.
fn recompute(
    out: &mut BodyBuilder,
    recipe: &Recipe,
    start: SubExp,
    plan: &Plan,
    fixed: &[VName],
    names: &mut NameTable,
) -> VName {
    let n = plan.widths[0];
    let c = plan.widths[plan.widths.len() - 1];
    let mut outer_arrs = Vec::new();
    let mut outer_params = Vec::new();
    let mut inner_arrs = Vec::new();
    for (a, l, ty) in &recipe.ins {
        if *l == 0 {
            let slice = vec![DimIndex::Slice { start, len: n, stride: SubExp::i64(1) }, all(c)];
            outer_arrs.push(out.bind(names, "rows", ty.array_of(n), Exp::Index { array: *a, slice }));
            let p = Param { name: names.fresh("row"), ty: ty.clone() };
            inner_arrs.push(p.name);
            outer_params.push(p);
        } else {
            let slice = vec![DimIndex::Fix(SubExp::Var(fixed[l - 1])), all(c)];
            inner_arrs.push(out.bind(names, "row", ty.clone(), Exp::Index { array: *a, slice }));
        }
    }
    let f = crate::inline::fresh_lambda(&recipe.f, names);
    let row_ty = Type::Array { elem: plan.elem, shape: vec![c] };
    let mut body = BodyBuilder::new(plan.span);
    let inner = Exp::Soac(Soac::Screma { w: c, arrs: inner_arrs, scans: vec![], reduces: vec![], map: f });
    let y = body.bind(names, "y", row_ty.clone(), inner);
    let lam = Lambda { params: outer_params, body: body.finish(vec![SubExp::Var(y)]), ret: vec![row_ty.clone()] };
    let exp = Exp::Soac(Soac::Screma { w: n, arrs: outer_arrs, scans: vec![], reduces: vec![], map: lam });
    out.bind(names, "y", row_ty.array_of(n), exp)
}

/// The operand `(all, op)` as a `[w_varying][n]` matrix, its rows the
/// sums' vectors: a view, of a compact copy of the slice when `compact`
/// and the slice fixes outer indices.
fn transposed(
    out: &mut BodyBuilder,
    source: Source,
    (varying, compact): (usize, bool),
    plan: &Plan,
    fixed: &[VName],
    names: &mut NameTable,
) -> VName {
    let op = source.1;
    let (xs, kept) = slice(out, source, plan, fixed, names);
    if kept.first() != Some(&0) {
        return xs;
    }
    let xs = if compact && op.dims.len() > 2 {
        let ty = Type::Array { elem: plan.elem, shape: kept.iter().map(|&d| plan.widths[d]).collect() };
        out.bind(names, "compact", ty, Exp::Copy(xs))
    } else {
        xs
    };
    let ty = Type::Array { elem: plan.elem, shape: vec![plan.widths[varying], plan.widths[0]] };
    out.bind(names, "tr", ty, Exp::Rearrange { array: xs, perm: vec![1, 0] })
}

/// `all[…]` for every index of level 0 and of the operand's varying level
/// (rows or columns), the outer levels' indices fixed; and those levels,
/// in the order of the slice's dimensions.
fn slice(
    out: &mut BodyBuilder,
    (all, op, start): Source,
    plan: &Plan,
    fixed: &[VName],
    names: &mut NameTable,
) -> (VName, Vec<usize>) {
    let m = plan.widths.len() - 1;
    let mut kept = Vec::new();
    let slice = op
        .dims
        .iter()
        .map(|&d| {
            if d == 0 || d + 1 >= m {
                kept.push(d);
                let start = if d == 0 { start } else { SubExp::i64(0) };
                DimIndex::Slice { start, len: plan.widths[d], stride: SubExp::i64(1) }
            } else {
                DimIndex::Fix(SubExp::Var(fixed[d - 1]))
            }
        })
        .collect();
    let ty = Type::Array { elem: plan.elem, shape: kept.iter().map(|&d| plan.widths[d]).collect() };
    (out.bind(names, "slice", ty, Exp::Index { array: all, slice }), kept)
}

/// `map (\y -> sum (map2 (*) xs y)) ys`, `xs: [n]`, `ys: [c][n]`; the
/// product's operands in the order of the update's (`xs` first when
/// `x_left`).
fn vector_product(
    xs: VName,
    ys: VName,
    (c, n): (SubExp, SubExp),
    t: PrimType,
    x_left: bool,
    span: Span,
    names: &mut NameTable,
) -> Exp {
    let scalar = Type::Prim(t);
    let y = names.fresh("col");
    let mut inner = BodyBuilder::new(span);
    let sum = dot(xs, y, n, t, x_left, span, names);
    let d = inner.bind(names, "dot", scalar.clone(), sum);
    let inner = Lambda {
        params: vec![Param { name: y, ty: Type::Array { elem: t, shape: vec![n] } }],
        body: inner.finish(vec![d.into()]),
        ret: vec![scalar],
    };
    Exp::Soac(Soac::Screma { w: c, arrs: vec![ys], scans: vec![], reduces: vec![], map: inner })
}

/// `sum (map2 (*) x y)`, `x` the left operand when `x_left`.
fn dot(x: VName, y: VName, n: SubExp, t: PrimType, x_left: bool, span: Span, names: &mut NameTable) -> Exp {
    let scalar = Type::Prim(t);
    let (a, b) = (names.fresh("a"), names.fresh("b"));
    let mut times = BodyBuilder::new(span);
    let (l, r) = if x_left { (a, b) } else { (b, a) };
    let ab = times.bind(names, "t", scalar.clone(), Exp::BinOp(BinOp::Mul, t, l.into(), r.into()));
    let times = Lambda {
        params: vec![Param { name: a, ty: scalar.clone() }, Param { name: b, ty: scalar.clone() }],
        body: times.finish(vec![ab.into()]),
        ret: vec![scalar.clone()],
    };
    let (p, q) = (names.fresh("x"), names.fresh("y"));
    let mut plus = BodyBuilder::new(span);
    let pq = plus.bind(names, "t", scalar.clone(), Exp::BinOp(BinOp::Add, t, p.into(), q.into()));
    let plus = Operator {
        lambda: Lambda {
            params: vec![Param { name: p, ty: scalar.clone() }, Param { name: q, ty: scalar.clone() }],
            body: plus.finish(vec![pq.into()]),
            ret: vec![scalar],
        },
        neutral: vec![SubExp::Const(PrimValue::zero(t))],
        commutative: true,
    };
    Exp::Soac(Soac::Screma { w: n, arrs: vec![x, y], scans: vec![], reduces: vec![plus], map: times })
}

/// `map (\x -> map (\y -> sum (map2 (*) x y)) ys) xs`, `xs: [r][n]`,
/// `ys: [c][n]`; the product's operands in the order of the update's
/// (`x` first when `x_left`).
fn matrix_product(
    xs: VName,
    ys: VName,
    (r, c, n): (SubExp, SubExp, SubExp),
    t: PrimType,
    x_left: bool,
    span: Span,
    names: &mut NameTable,
) -> Exp {
    let vec_ty = Type::Array { elem: t, shape: vec![n] };
    let x = names.fresh("row");
    let row = vector_product(x, ys, (c, n), t, x_left, span, names);
    let row_ty = Type::Array { elem: t, shape: vec![c] };
    let mut outer = BodyBuilder::new(span);
    let row = outer.bind(names, "row", row_ty.clone(), row);
    let outer =
        Lambda { params: vec![Param { name: x, ty: vec_ty }], body: outer.finish(vec![row.into()]), ret: vec![row_ty] };
    Exp::Soac(Soac::Screma { w: r, arrs: vec![xs], scans: vec![], reduces: vec![], map: outer })
}
