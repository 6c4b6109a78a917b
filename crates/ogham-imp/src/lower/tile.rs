//! Register tiling of matrix-product-shaped nests.
//!
//! A `map` over the rows `r` of an array whose function is one map of a
//! reduction over one-dimensional inputs,
//!
//! ```text
//! map (\r -> map (\c -> reduce op ne (map f r c)) bt) a
//! ```
//!
//! computes `out[i][j] = ne op f(a[i][0], bt[j][0]) op f(a[i][1], bt[j][1]) …`.
//! Run as written, every element of `bt` is loaded once per row of `a`, so
//! the loop runs at the speed of memory. When there are enough columns for
//! a tile (a run-time test in the kernel), it runs in tiles of [`rows`]
//! rows of `a` by several vectors' worth of columns ([`cols`]) instead: the
//! tile's accumulators (a local array) stay in registers while the
//! reduction's loop runs, each element of `bt` loaded is used [`rows`]
//! times and each element of `a` a whole tile-width of times. The column
//! tiles are the outer loop; for each, the slice of `bt` it reads (its
//! columns, every step of the reduction) is first copied into a
//! contiguous scratch buffer (an `alloc`), row after row, so that the
//! tiles read it as one stream from cache whatever the layout of `bt` (on
//! a 1024³ f32 product, 58 ms without the copy, 20 ms with it; a `bt`
//! whose rows are rows in memory, as k-means' centres are, is transposed
//! by the copy). The last tiles' missing rows and columns repeat their
//! last row or column: computed (the function is scalar code that cannot
//! fail) but never stored, so every tile runs the same vectorised loop.
//! The rows go in blocks ([`ROW_BLOCK_BYTES`] of them per block of the
//! reduction's steps), and every column tile runs over one block before
//! the next block starts, so that the rows a block reads stay in cache
//! for all the column tiles instead of being streamed from memory once per
//! column tile (k-means' 10 000 points of 256 f32, 10 MB, read by 64
//! column tiles of centres).
//! Each output still folds its terms in index order, so the results are
//! those of the loops as written; where the target has fused multiply–add
//! and the reduction is a float sum of products, each step is one
//! ([`super::contract`]), in every form of the nest alike (2048³ f32
//! product: 240 → 195 ms; GMM objective: 61 → 37 ms). With fewer columns than a tile but at
//! least a vector's worth (k-means' 16 centres), the nest runs in narrow
//! tiles of one vector of columns by [`NARROW_ROWS`] rows (2.2× faster
//! than the loops as written there); with fewer, in the loops as written.
//!
//! The nest whose inner SOAC reduces each row instead of building it
//! (k-means' nearest centre as `f32.minimum`, [`Sink::Fold`]) is tiled
//! alike, each row's results folded across the column tiles in a scratch
//! buffer; so is the nest whose function is a sequential loop over the
//! columns, each iteration computing the reduction with one column and
//! updating scalars with it (k-means' nearest centre as an argmin `loop`
//! over the centres, [`Sink::Loop`]): the columns are still visited in
//! order for each row, so the loop's updates run in the order written.
//! When that loop is an argmin (or argmax) as the middle end's `argmin`
//! pass writes one ([`settled`]), a row that has its minimum and index
//! first compares the tile's distances with the minimum, in vector lanes,
//! and folds them only if one is below it: no column of such a tile could
//! change the row's scalars (k-means' gradient n = 1000: 14.8 → 10.7 ms,
//! the sequential fold having been a third of its time). A row folded by
//! `min` or `max` alone (k-means' objective, `f32.minimum`) is screened
//! alike ([`Screen`]; the objective at n = 10 000: 7% faster, by the median
//! of paired runs).
//!
//! A folded row may also be returned as it is, beside its row's result,
//! and so may its row of reductions (reverse mode's forward sweep of GMM
//! keeps `Q (x - μ)` for the return sweep beside ½‖Q (x - μ)‖²): the
//! tiles store each reduction as they fold it ([`Output`]).
//!
//! Around the reduction, the nest may hold scalar code ([`Post`]): after it
//! in the inner map (the square of each dot product), and after the inner
//! SOAC in the outer map (what a folded row becomes, reading the outer
//! map's scalar rows). Before the inner SOAC, the outer map may map its
//! rows element by element with free arrays (the `prelude`: GMM's
//! `x - μ`), so GMM's per-component nest `map (\x -> α - ½‖Q (x - μ)‖²) xs`
//! runs in tiles of points by rows of `Q`. When the packed columns are
//! one slab, each block of rows has its row elements (the rows' own, or
//! the prelude's) copied or computed once into a buffer, tile by tile with
//! a tile's rows adjacent at each step, before the column tiles read it (a
//! row element is then one broadcast load at a fixed offset from one
//! moving address); otherwise the tiles read or compute each element
//! where the reduction reads it.

use ogham_ir::{Body, Exp as CExp, Lambda, LoopForm, Operator, Param, PrimType, Soac, Stm as CStm, SubExp, VName};

use super::{straight_line, straight_line_stm, Binding, Input, Lowerer, ScremaLoop};
use crate::{BinOp, Block, CmpOp, Exp, Kernel, Operand, ParamKind, PrimValue, Stm, Ty, Var};

/// A tile's rows of `a` and vectors of accumulators per row: six by four
/// where there are 32 vector registers (24 accumulators: each column
/// vector loaded serves six rows; on a Xeon with AVX-512, the 2048³ f32
/// product ran 1.12x as fast as in four rows of four, and GMM's gradient's
/// two products 1.05–1.15x), six by two where there are 16 (twelve
/// accumulators, the shape of AVX2's matrix-product kernels; a 1024³ f32
/// product took 34 ms so, 35 ms in four rows, 63 ms in four rows of four
/// vectors, which spilled), leaving registers for the loaded columns and
/// the broadcast row element.
fn tile_shape(target: &Target) -> (i64, i64) {
    if target.registers >= 32 {
        (6, 4)
    } else {
        (6, 2)
    }
}

/// Rows of `a` per tile when the reduction's step also holds `held`
/// scalars in registers across the tile's rows (elements of free arrays
/// at the step, such as GMM's `μ[k]` in `x - μ`): one row fewer for each
/// vector's worth of registers they would take from the accumulators. The
/// tile's registers are its accumulators, its loaded column vectors, the
/// broadcast row element and the product before it is added (kept
/// for targets without fused multiply–add); with six rows of two vectors GMM's
/// seventeenth live value spilled an accumulator, whose chain through
/// memory then bound the loop (5 rows: see `benchmarks/README.md`).
fn rows(target: &Target, held: usize) -> i64 {
    let (rows, vectors) = tile_shape(target);
    let fixed = vectors + 2 + held as i64;
    let fit = (target.registers as i64 - fixed) / vectors;
    rows.min(fit).max(1)
}

/// How many scalars the reduction's step holds across a tile's rows: one
/// per free array it reads, directly or through the prelude.
fn held(sources: &[Source]) -> usize {
    fn count(s: &Source) -> usize {
        match s {
            Source::Free(_) => 1,
            Source::Mapped(_, _, inputs) => inputs.iter().map(count).sum(),
            Source::Row(..) | Source::Column(..) => 0,
        }
    }
    sources.iter().map(count).sum()
}

/// The fewest column tiles for which a block's rows, when they are only
/// read (no prelude), are first copied into a buffer laid out for the
/// tiles (see `fill_row_buffers`): the copy costs a pass over the rows, which
/// each further column tile earns back.
const BUFFER_COLUMN_TILES: i64 = 4;

/// Rows of `a` per narrow tile (one vector of columns): eight running
/// sums, enough independent chains to hide the adder's latency.
const NARROW_ROWS: i64 = 8;

/// The bytes of packed columns a tile reads in one block of the
/// reduction's steps: a quarter of a 2 MB level-2 cache, so that they stay
/// there while every row tile runs over them. (The GMM gradient's sums
/// over 10 000 points packed 2.5 MB per column tile and ran at the speed
/// of the level-3 cache: 800 ms, 590 ms in blocks. Blocks of 128 KB made
/// the 2048³ f32 matrix product 5–7% slower.)
const PACK_BYTES: usize = 512 * 1024;

/// The bytes of rows a block of row tiles reads in one block of the
/// reduction's steps: half of a 512 KB level-2 cache.
const ROW_BLOCK_BYTES: usize = 256 * 1024;

/// The most bytes of columns packed all at once (every column tile, when
/// the reduction's steps are one block), so that blocks of rows can run
/// through all of them: k-means' 1024 centres of 256 f32 (1 MB) are, a
/// 2048² matrix product's 16 MB are not (its columns are packed tile by
/// tile, and its rows are one block).
const SLAB_BYTES: usize = 2 * 1024 * 1024;

/// What the kernels are made for.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// The width of the machine's vector registers, in bytes (64 for
    /// AVX-512, 32 for AVX2, 16 for SSE2, the portable baseline on
    /// x86-64).
    pub vector_bytes: usize,
    /// How many vector registers it has (32 with AVX-512, 16 with AVX2
    /// or SSE2).
    pub registers: usize,
    /// Whether it has fused multiply–add instructions (x86-64's FMA3,
    /// AArch64): a float sum of products then adds each product unrounded
    /// ([`super::contract`]). Without them C's `fma` is a slow library
    /// call, and the products are rounded as written.
    pub fma: bool,
}

/// Columns per tile: [`tile_shape`]'s vectors.
pub fn cols(elem: PrimType, target: &Target) -> i64 {
    tile_shape(target).1 * narrow_cols(elem, target)
}

/// Columns per narrow tile: one vector. Nests with fewer columns than a
/// tile but at least a vector's worth (k-means with 16 centres of f32)
/// run in narrow tiles of [`NARROW_ROWS`] rows.
pub fn narrow_cols(elem: PrimType, target: &Target) -> i64 {
    (target.vector_bytes / elem.byte_size().max(1)) as i64
}

/// What the inner SOAC makes of a row's results `out[i][0..w2]`.
#[derive(Clone, Copy)]
enum Sink<'s> {
    /// A map: they are the row of a matrix, the outer map's one output.
    Matrix,
    /// A reduction with this operator: they are folded into one value per
    /// row, the outer map's one result (an output, or the operand of the
    /// outer SOAC's one reduction).
    Fold(&'s Operator),
    /// A loop over the columns: each result updates the row's scalars.
    Loop(LoopSink<'s>),
}

/// The loop of [`Sink::Loop`]: `loop (params) for index < w2 do` the
/// reduction (bound to `dist`), then `update`, whose results are the
/// parameters' next values; the row's result is the loop's result `out`.
#[derive(Clone, Copy)]
struct LoopSink<'s> {
    params: &'s [(Param, SubExp)],
    index: VName,
    dist: VName,
    update: &'s [CStm],
    next: &'s [SubExp],
    out: usize,
}

/// One output of the outer map, in the order of the screma's mapped
/// results.
#[derive(Clone, Copy, PartialEq)]
enum Output {
    /// The row's result: its folded value through the outer [`Post`] (or a
    /// [`Sink::Loop`]'s result), `out[i]`.
    Row,
    /// The row's folded value before the outer post, `out[i]`.
    Folded,
    /// Each reduction's value, through the inner [`Post`] when `post`:
    /// `out[i][j]` (the matrix of [`Sink::Matrix`], or the reductions a
    /// folded row also returns, as reverse mode keeps GMM's `Q (x - μ)`).
    Cell { post: bool },
}

/// Scalar code after a reduction: straight-line statements computing
/// `result` from the reduction's value, bound to `input`.
#[derive(Clone, Copy)]
struct Post<'s> {
    input: VName,
    stms: &'s [CStm],
    result: &'s SubExp,
}

/// `stms` and `result` as a [`Post`] of `input`, when they are scalar code
/// that cannot fail and read none of `hidden` (rows the tiles do not load
/// whole).
fn post<'s>(input: VName, stms: &'s [CStm], result: &'s SubExp, hidden: &[VName]) -> Option<Post<'s>> {
    if !stms.iter().all(straight_line_stm) {
        return None;
    }
    let body = Body { stms: stms.to_vec(), result: vec![result.clone()] };
    let free = ogham_ir::visit::free_vars_body(&body);
    if hidden.iter().any(|v| free.contains(v)) {
        return None;
    }
    Some(Post { input, stms, result })
}

/// The parts of a nest.
struct Nest<'s> {
    /// The number of columns, and each column array with the name its
    /// row has inside (the inner map's parameter, or the loop's index).
    w2: &'s SubExp,
    columns: Vec<(VName, VName)>,
    sink: Sink<'s>,
    /// The reduction's width, inputs, operator and function.
    w3: &'s SubExp,
    red_arrs: &'s [VName],
    op: &'s Operator,
    f: &'s Lambda,
    /// What the inner map makes of each reduction before it is stored or
    /// folded (GMM's square of a dot product), and what the outer map
    /// makes of each row's folded value (GMM's `alpha - 0.5 * ‖·‖²`, which
    /// may read the outer map's scalar rows).
    inner_post: Option<Post<'s>>,
    outer_post: Option<Post<'s>>,
    /// Maps of the outer map's rows run before the inner SOAC, element by
    /// element over the reduction's steps (GMM's `x - μ`): each output
    /// with its map function and result index. The tiles compute an
    /// element where the reduction reads it instead of building the row.
    prelude: Vec<(VName, &'s Lambda, usize, &'s [VName])>,
    /// What each of the outer map's mapped results is.
    outputs: Vec<Output>,
}

/// The nest when `s` has one of the forms in the module documentation:
/// the rows `r` and `c` are only the reduction's inputs, and the functions
/// are scalar code that cannot fail.
fn nest<'s>(s: &ScremaLoop<'s>) -> Option<Nest<'s>> {
    nest_of(s.map, s.scans, s.reduces, s.outs)
}

/// Whether a screma (its map function, scans, reductions, and the element
/// type and rank of each output) is a nest [`tiled`] applies to. Its
/// chunks of rows should be few and large when run in parallel: each
/// copies the whole column panel it reads.
pub fn is_nest(map: &Lambda, scans: &[Operator], reduces: &[Operator], outs: &[(PrimType, usize)]) -> bool {
    nest_of(map, scans, reduces, outs).is_some()
}

fn nest_of<'s>(
    map: &'s Lambda,
    scans: &[Operator],
    reduces: &[Operator],
    outs: &[(PrimType, usize)],
) -> Option<Nest<'s>> {
    // Before the inner SOAC: elementwise maps of rows and free arrays.
    let pre: Vec<_> = map.body.stms.iter().map_while(|s| Some((s, prelude_map(s)?))).collect();
    let (inner, after) = map.body.stms[pre.len()..].split_first()?;
    if let CExp::Loop { .. } = inner.exp {
        return if after.is_empty() && pre.is_empty() { loop_nest(map, inner, scans, reduces, outs) } else { None };
    }
    let mut prelude = Vec::new();
    for (s, (w, arrs, lam)) in pre {
        for (k, p) in s.pat.iter().enumerate() {
            prelude.push((p.name, lam, k, arrs));
        }
        // Its inputs: rows of the outer map, or free arrays.
        if arrs.iter().any(|a| prelude.iter().any(|(o, ..)| o == a)) || Some(w) != inner_width(inner) {
            return None;
        }
    }
    let pre_outs: Vec<VName> = prelude.iter().map(|p| p.0).collect();
    let (ip, extras) = inner.pat.split_first()?;
    if inner.attrs.sequential || !scans.is_empty() {
        return None;
    }
    let CExp::Soac(Soac::Screma { w: w2, arrs: inner_arrs, scans, reduces: inner_reduces, map: inner_map }) =
        &inner.exp
    else {
        return None;
    };
    let sink = match (inner_reduces.as_slice(), reduces, outs) {
        ([], [], [(_, 2)]) if extras.is_empty() => Sink::Matrix,
        ([op2], [], outs) if !outs.is_empty() => Sink::Fold(op2),
        ([op2], [_], []) if extras.is_empty() => Sink::Fold(op2),
        _ => return None,
    };
    if let Sink::Fold(op2) = sink {
        if op2.neutral.len() != 1 || !straight_line(&op2.lambda.body) {
            return None;
        }
    }
    if let [outer] = reduces {
        if outer.neutral.len() != 1 || !straight_line(&outer.lambda.body) {
            return None;
        }
    }
    if !scans.is_empty() {
        return None;
    }
    let (red, inner_after) = inner_map.body.stms.split_first()?;
    let [rp] = red.pat.as_slice() else { return None };
    let (inner_result, inner_extras) = inner_map.body.result.split_first()?;
    if rp.ty.rank() != 0 || inner_map.ret.iter().any(|t| t.rank() != 0) || inner_extras.len() != extras.len() {
        return None;
    }
    // The reductions a folded row also returns: raw, or through the inner post.
    let cell_post: Vec<bool> = inner_extras
        .iter()
        .map(|e| match e {
            SubExp::Var(v) if *v == rp.name => Some(false),
            _ if e == inner_result => Some(true),
            _ => None,
        })
        .collect::<Option<_>>()?;
    // The outer map's results: the row's result (one value, through the
    // outer post), its folded value, or one of those matrices.
    let mut outputs = Vec::new();
    let mut row_result: Option<&SubExp> = None;
    for r in &map.body.result {
        outputs.push(match r {
            SubExp::Var(v) if matches!(sink, Sink::Matrix) && *v == ip.name => Output::Cell { post: true },
            SubExp::Var(v) if *v == ip.name => Output::Folded,
            SubExp::Var(v) if extras.iter().any(|e| e.name == *v) => {
                Output::Cell { post: cell_post[extras.iter().position(|e| e.name == *v)?] }
            }
            _ if row_result.is_none_or(|rr| rr == r) => {
                row_result = Some(r);
                Output::Row
            }
            _ => return None,
        });
    }
    let expected: Vec<usize> = outputs.iter().map(|o| if matches!(o, Output::Cell { .. }) { 2 } else { 1 }).collect();
    if reduces.is_empty() && outs.iter().map(|o| o.1).ne(expected.iter().copied()) {
        return None;
    }
    // After the outer map's one SOAC: nothing, or for a folded row, scalar
    // code reading its value and the outer map's scalar rows.
    let array_rows: Vec<VName> = map
        .params
        .iter()
        .filter(|p| p.ty.rank() != 0)
        .map(|p| p.name)
        .chain(pre_outs.iter().copied())
        .chain(extras.iter().map(|e| e.name))
        .collect();
    let outer_post = match (sink, row_result) {
        (_, None) if after.is_empty() => None,
        (_, Some(r)) if after.is_empty() && *r == SubExp::Var(ip.name) => None,
        (Sink::Fold(_), Some(r)) => Some(post(ip.name, after, r, &array_rows)?),
        _ => return None,
    };
    let all_rows: Vec<VName> =
        map.params.iter().chain(&inner_map.params).map(|p| p.name).chain(pre_outs.iter().copied()).collect();
    let inner_post = match inner_after {
        [] if *inner_result == SubExp::Var(rp.name) => None,
        _ => Some(post(rp.name, inner_after, inner_result, &all_rows)?),
    };
    let columns = inner_map.params.iter().map(|p| p.name).zip(inner_arrs.iter().copied()).collect();
    if inner_arrs.iter().any(|a| map.params.iter().any(|p| p.name == *a)) {
        return None;
    }
    let nest = reduction(map, w2, columns, sink, red)?;
    // The prelude's outputs are only the reduction's inputs.
    let mut used = ogham_ir::visit::free_vars_lambda(nest.f);
    used.extend(ogham_ir::visit::free_vars_lambda(&nest.op.lambda));
    if pre_outs.iter().any(|o| used.contains(o)) {
        return None;
    }
    Some(Nest { inner_post, outer_post, prelude, outputs, ..nest })
}

/// A statement `let ys = map(w, arrs, f)` with `f` scalar code that cannot
/// fail and one-dimensional results: its width, inputs and function.
fn prelude_map(s: &CStm) -> Option<(&SubExp, &[VName], &Lambda)> {
    let CExp::Soac(Soac::Screma { w, arrs, scans, reduces, map }) = &s.exp else { return None };
    let scalar = map.params.iter().all(|p| p.ty.rank() == 0) && s.pat.iter().all(|p| p.ty.rank() == 1);
    (scans.is_empty() && reduces.is_empty() && scalar && !s.attrs.sequential && straight_line(&map.body)).then_some((
        w,
        arrs.as_slice(),
        map,
    ))
}

/// The width of the reduction in the inner SOAC's function, when it is one
/// statement deep (the nest's form).
fn inner_width(inner: &CStm) -> Option<&SubExp> {
    let CExp::Soac(Soac::Screma { map, .. }) = &inner.exp else { return None };
    match &map.body.stms.first()?.exp {
        CExp::Soac(Soac::Screma { w, .. }) => Some(w),
        _ => None,
    }
}

/// The nest of a map whose function is a `loop` over the columns
/// ([`Sink::Loop`]): `loop (ps) for c < w2 do let row = cs[c]` (an
/// unchecked index of a free array), the reduction, then scalar code
/// that cannot fail; the map's one result is one of the loop's.
fn loop_nest<'s>(
    map: &'s Lambda,
    stm: &'s CStm,
    scans: &[Operator],
    reduces: &[Operator],
    outs: &[(PrimType, usize)],
) -> Option<Nest<'s>> {
    let CExp::Loop { params, form: LoopForm::For { i, bound }, body } = &stm.exp else { return None };
    if !scans.is_empty() || !reduces.is_empty() || !matches!(outs, [(_, 1)]) {
        return None;
    }
    let [SubExp::Var(r)] = map.body.result.as_slice() else { return None };
    let out = stm.pat.iter().position(|p| p.name == *r)?;
    if params.iter().any(|(p, _)| p.ty.rank() != 0) || body.result.len() != params.len() {
        return None;
    }
    let [index, red, update @ ..] = body.stms.as_slice() else { return None };
    let (CExp::Index { array, slice }, [row]) = (&index.exp, index.pat.as_slice()) else { return None };
    if !index.attrs.unsafe_ || *slice != [ogham_ir::DimIndex::Fix(SubExp::Var(*i))] || row.ty.rank() != 1 {
        return None;
    }
    if map.params.iter().any(|p| p.name == *array) || !update.iter().all(straight_line_stm) {
        return None;
    }
    let [dist] = red.pat.as_slice() else { return None };
    // The row is only the reduction's input.
    let mut rest = Body { stms: update.to_vec(), result: body.result.clone() };
    rest.stms.push(CStm {
        pat: Vec::new(),
        exp: CExp::SubExp(SubExp::Var(dist.name)),
        attrs: Default::default(),
        span: Default::default(),
    });
    if ogham_ir::visit::free_vars_body(&rest).contains(&row.name) {
        return None;
    }
    let sink = Sink::Loop(LoopSink { params, index: *i, dist: dist.name, update, next: &body.result, out });
    reduction(map, bound, vec![(row.name, *array)], sink, red)
}

/// A [`Sink::Loop`] that is an argmin (or argmax), as the middle end's
/// `argmin` pass writes one: which of its scalars are the running minimum
/// `v` and its column `k`, the operator, and the bound `K` that `k` is
/// below once found. Its update is
///
/// ```text
/// v' = min v dist        -- min.f: a NaN operand is ignored
/// k' = if (v == v') && (k < K) then k else ...
/// ```
///
/// so where `v` is not NaN, `k < K` and `dist` is not below `v` (greater
/// or equal, or NaN), `v' = v` and `k' = k`: the column changes nothing.
#[derive(Clone, Copy)]
struct Settled<'s> {
    value: usize,
    index: usize,
    op: BinOp,
    bound: &'s SubExp,
}

/// A test that a tile's row leaves its folded scalars as they are: no
/// column's value `v` satisfies `cmp v m` against the row's running value
/// `m` (its scalar `value`), `m` is not NaN, and, for an argmin, the row's
/// index (scalar `found.0`) is below the bound `found.1`.
#[derive(Clone, Copy)]
struct Screen<'s> {
    value: usize,
    cmp: CmpOp,
    found: Option<(usize, &'s SubExp)>,
}

fn settled<'s>(ls: &LoopSink<'s>) -> Option<Settled<'s>> {
    let def = |v: &SubExp| -> Option<&'s CExp> {
        let SubExp::Var(v) = v else { return None };
        ls.update.iter().find(|s| s.pat.iter().any(|p| p.name == *v)).map(|s| &s.exp)
    };
    let var = |x: &SubExp| match x {
        SubExp::Var(v) => Some(*v),
        SubExp::Const(_) => None,
    };
    let either = |a: &SubExp, b: &SubExp, x: VName, y: VName| {
        (var(a), var(b)) == (Some(x), Some(y)) || (var(a), var(b)) == (Some(y), Some(x))
    };
    let [(p0, _), (p1, _)] = ls.params else { return None };
    for (value, index, (pv, pk)) in [(0, 1, (p0, p1)), (1, 0, (p1, p0))] {
        let (Some(v2), Some(k2)) = (ls.next.get(value), ls.next.get(index)) else { return None };
        let Some(&CExp::BinOp(op, t, ref a, ref b)) = def(v2) else { continue };
        if !matches!(op, BinOp::Min | BinOp::Max)
            || !matches!(t, PrimType::F32 | PrimType::F64)
            || pv.ty != ogham_ir::Type::Prim(t)
            || pk.ty != ogham_ir::Type::Prim(PrimType::I64)
            || !either(a, b, pv.name, ls.dist)
        {
            continue;
        }
        let Some(CExp::If { cond, then_body, .. }) = def(k2) else { continue };
        if !then_body.stms.is_empty() || then_body.result != [SubExp::Var(pk.name)] {
            continue;
        }
        let Some(&CExp::BinOp(BinOp::LogAnd, PrimType::Bool, ref x, ref y)) = def(cond) else { continue };
        for (same, found) in [(x, y), (y, x)] {
            let Some(&CExp::CmpOp(CmpOp::Eq, te, ref s1, ref s2)) = def(same) else { continue };
            let Some(&CExp::CmpOp(CmpOp::Lt, PrimType::I64, SubExp::Var(kv), ref bound)) = def(found) else {
                continue;
            };
            let v2 = var(v2)?;
            // `K` is the same in every iteration: bound outside the loop.
            let bound_inside = var(bound).is_some_and(|b| {
                [ls.index, ls.dist, pv.name, pk.name].contains(&b)
                    || ls.update.iter().any(|s| s.pat.iter().any(|p| p.name == b))
            });
            if te == t && either(s1, s2, pv.name, v2) && kv == pk.name && !bound_inside {
                return Some(Settled { value, index, op, bound });
            }
        }
    }
    None
}

/// The nest whose reduction (of one value, per row and column) is `red`.
fn reduction<'s>(
    map: &'s Lambda,
    w2: &'s SubExp,
    columns: Vec<(VName, VName)>,
    sink: Sink<'s>,
    red: &'s CStm,
) -> Option<Nest<'s>> {
    if red.attrs.sequential || red.pat.len() != 1 || red.pat[0].ty.rank() != 0 {
        return None;
    }
    let CExp::Soac(Soac::Screma { w: w3, arrs: red_arrs, scans: s3, reduces: r3, map: f }) = &red.exp else {
        return None;
    };
    let [op] = r3.as_slice() else { return None };
    if !s3.is_empty() || op.neutral.len() != 1 || f.ret.len() != 1 {
        return None;
    }
    if f.params.iter().any(|p| p.ty.rank() != 0) || !straight_line(&f.body) || !straight_line(&op.lambda.body) {
        return None;
    }
    // The rows, outer and inner, are only the reduction's inputs.
    let rows: Vec<VName> = map.params.iter().map(|p| p.name).chain(columns.iter().map(|c| c.0)).collect();
    let mut used = ogham_ir::visit::free_vars_lambda(f);
    used.extend(ogham_ir::visit::free_vars_lambda(&op.lambda));
    used.extend(op.neutral.iter().filter_map(|n| n.as_var()));
    used.extend(w3.as_var());
    if let Sink::Fold(op2) = sink {
        used.extend(ogham_ir::visit::free_vars_lambda(&op2.lambda));
        used.extend(op2.neutral.iter().filter_map(|n| n.as_var()));
    }
    if rows.iter().any(|r| used.contains(r)) {
        return None;
    }
    Some(Nest {
        w2,
        columns,
        sink,
        w3,
        red_arrs,
        op,
        f,
        inner_post: None,
        outer_post: None,
        prelude: Vec::new(),
        outputs: vec![Output::Row],
    })
}

/// Where each of the reduction function's parameters gets its element.
#[derive(Clone)]
enum Source<'s> {
    /// Element `[j][k]` of this inner map input: a pointer and its two strides.
    Column(Var, Var, Var),
    /// Element `[i][k]` of this outer map input.
    Row(Var, Var, Var),
    /// Element `[k]` of a free one-dimensional array (or computed, if virtual).
    Free(VName),
    /// Result `usize` of a prelude map's function applied to its inputs'
    /// elements `[i][k]` (rows) or `[k]` (free arrays).
    Mapped(&'s Lambda, usize, Vec<Source<'s>>),
}

impl Source<'_> {
    /// Whether the element depends on the row `i`.
    fn by_row(&self) -> bool {
        match self {
            Source::Row(..) => true,
            Source::Mapped(_, _, inputs) => inputs.iter().any(Source::by_row),
            _ => false,
        }
    }
}

/// The kernel of a nest (see the module documentation), with the binding of
/// each parameter; `None` when `s` is not such a nest.
pub fn tiled(s: &ScremaLoop, target: &Target) -> Option<(Kernel, Vec<Binding>)> {
    let nest = nest(s)?;
    let mut l = Lowerer::new("tile", s);
    let i64t = Ty::Prim(PrimType::I64);
    let lo = Operand::Var(l.param("lo", i64t, ParamKind::Value, Binding::Lo));
    let hi = Operand::Var(l.param("hi", i64t, ParamKind::Value, Binding::Hi));
    let elem = nest.op.lambda.ret[0].elem();
    let two_d = |l: &mut Lowerer, a: VName| {
        let base = l.base(a);
        let p = l.param(&base, Ty::Ptr(elem_of(l, a)?), ParamKind::Read, Binding::Data(a));
        let s0 = l.param(&format!("{base}_stride"), i64t, ParamKind::Value, Binding::Stride(a, 0));
        let s1 = l.param(&format!("{base}_stride"), i64t, ParamKind::Value, Binding::Stride(a, 1));
        Some((p, s0, s1))
    };
    let mut sources = Vec::new();
    for a in nest.red_arrs {
        sources.push(if let Some(&(_, b)) = nest.columns.iter().find(|c| c.0 == *a) {
            if (s.virtual_of)(b).is_some() {
                return None;
            }
            let (p, s0, s1) = two_d(&mut l, b)?;
            Source::Column(p, s0, s1)
        } else if let Some(&(_, lam, k, arrs)) = nest.prelude.iter().find(|p| p.0 == *a) {
            let mut inputs = Vec::new();
            for b in arrs {
                inputs.push(row_or_free(&mut l, s, *b, &two_d)?);
            }
            Source::Mapped(lam, k, inputs)
        } else {
            row_or_free(&mut l, s, *a, &two_d)?
        });
    }
    let outer_accs: Vec<Var> = match s.reduces {
        [op] => vec![l.param("acc", Ty::Prim(op.lambda.ret[0].elem()), ParamKind::InOut, Binding::Acc(0))],
        _ => Vec::new(),
    };
    let mut outs = Vec::new();
    for (o, (t, rank)) in s.outs.iter().enumerate() {
        let p = l.param("out", Ty::Ptr(*t), ParamKind::Write, Binding::Out(o));
        let strides: Vec<Var> =
            (0..*rank).map(|d| l.param("out_stride", i64t, ParamKind::Value, Binding::OutStride(o, d))).collect();
        outs.push((p, strides));
    }
    let w2 = l.operand(nest.w2)?;
    let w3 = l.operand(nest.w3)?;
    let ne = l.operand(&nest.op.neutral[0])?;
    let held = held(&sources);
    let wide = TileKernel {
        nest: &nest,
        sources,
        outer_accs,
        outs,
        lo,
        hi,
        w2,
        w3,
        ne,
        cols: cols(elem, target),
        rows: rows(target, held),
        fma: target.fma,
    };
    let narrow = TileKernel { cols: narrow_cols(elem, target), rows: NARROW_ROWS, ..wide.clone() };
    // The widest tiles the columns fill, else the loops as written.
    let mut stms = Vec::new();
    wide.plain(&mut l, &mut stms)?;
    for tk in [narrow, wide] {
        let mut tiled = Vec::new();
        tk.tiles(&mut l, &mut tiled)?;
        let mut body = Vec::new();
        let fits = l.let_("fits", PrimType::Bool, Exp::Cmp(CmpOp::Le, PrimType::I64, c64(tk.cols), w2), &mut body);
        body.push(Stm::If { cond: fits, then_block: Block { stms: tiled }, else_block: Block { stms } });
        stms = body;
    }
    l.k.body = Block { stms };
    Some((l.k, l.bindings))
}

/// The source of a one-dimensional array the reduction or a prelude map
/// reads: a row of the outer map's input, or a free array.
fn row_or_free<'s>(
    l: &mut Lowerer,
    s: &ScremaLoop,
    a: VName,
    two_d: &dyn Fn(&mut Lowerer, VName) -> Option<(Var, Var, Var)>,
) -> Option<Source<'s>> {
    Some(if let Some(i) = s.map.params.iter().position(|p| p.name == a) {
        let Input::Array(a) = s.inputs.get(i)? else { return None };
        let (p, s0, s1) = two_d(l, *a)?;
        Source::Row(p, s0, s1)
    } else {
        Source::Free(a)
    })
}

/// The strides between the elements of a row of the outer map's inputs
/// that a source reads.
fn row_strides(src: &Source, out: &mut Vec<Var>) {
    match src {
        Source::Row(_, _, s1) => out.push(*s1),
        Source::Mapped(_, _, inputs) => inputs.iter().for_each(|s| row_strides(s, out)),
        Source::Column(..) | Source::Free(_) => {}
    }
}

fn elem_of(l: &Lowerer, a: VName) -> Option<PrimType> {
    Some((l.s.ty_of)(a)?.elem())
}

fn c64(x: i64) -> Operand {
    Operand::Const(PrimValue::I64(x))
}

#[derive(Clone)]
struct TileKernel<'n, 's> {
    nest: &'n Nest<'s>,
    sources: Vec<Source<'s>>,
    outer_accs: Vec<Var>,
    /// The outputs (one per [`Output`]) and their strides.
    outs: Vec<(Var, Vec<Var>)>,
    lo: Operand,
    hi: Operand,
    w2: Operand,
    w3: Operand,
    ne: Operand,
    /// The tile's columns and rows.
    cols: i64,
    rows: i64,
    /// Whether the reduction's steps may be fused multiply–adds ([`Target::fma`]).
    fma: bool,
}

const I64: PrimType = PrimType::I64;

/// How a column parameter (by its position among the function's) gets its value.
type ColumnFn<'c> = dyn FnMut(&mut Lowerer, usize, &mut Vec<Stm>) -> Option<Operand> + 'c;

fn bin(l: &mut Lowerer, out: &mut Vec<Stm>, base: &str, op: BinOp, a: Operand, b: Operand) -> Operand {
    l.let_(base, I64, Exp::Bin(op, I64, a, b), out)
}

/// `body` as a `for` loop over a fresh index from `lo` to `hi`.
fn for_loop(
    l: &mut Lowerer,
    base: &str,
    (lo, hi): (Operand, Operand),
    ivdep: bool,
    out: &mut Vec<Stm>,
    body: impl FnOnce(&mut Lowerer, Operand, &mut Vec<Stm>) -> Option<()>,
) -> Option<()> {
    let index = l.k.fresh(base);
    let mut stms = Vec::new();
    body(l, Operand::Var(index), &mut stms)?;
    out.push(Stm::For { index, lo, hi, ivdep, body: Block { stms } });
    Some(())
}

/// `dst[dst_at + x] = src[src_at + x]` for `x < len`.
fn copy(
    l: &mut Lowerer,
    (src, src_at): (Var, Operand),
    (dst, dst_at): (Var, Operand),
    (len, elem): (Operand, PrimType),
    out: &mut Vec<Stm>,
) -> Option<()> {
    for_loop(l, "x", (c64(0), len), true, out, |l, x, out| {
        let from = bin(l, out, "at", BinOp::Add, src_at, x);
        let to = bin(l, out, "at", BinOp::Add, dst_at, x);
        let v = l.let_("v", elem, Exp::Load(src, from), out);
        out.push(Stm::Store { ptr: dst, index: to, value: v });
        Some(())
    })
}

impl<'s> TileKernel<'_, 's> {
    fn elem(&self) -> PrimType {
        self.nest.op.lambda.ret[0].elem()
    }

    /// Binds the reduction function's parameters for row `i`, column `j`
    /// and step `k`: columns from `column(src, k)`.
    fn bind_params(
        &self,
        l: &mut Lowerer,
        (i, k): (Operand, Operand),
        which: &dyn Fn(usize, &Source) -> bool,
        column: &mut ColumnFn,
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        for (pi, (p, src)) in self.nest.f.params.iter().zip(&self.sources).enumerate() {
            if !which(pi, src) {
                continue;
            }
            let x = match src {
                Source::Column(..) => column(l, pi, out)?,
                _ => self.element(l, src, p.ty.elem(), (i, k), out)?,
            };
            l.env.insert(p.name, x);
        }
        Some(())
    }

    /// Element `(i, k)` of a source that is not a column.
    fn element(
        &self,
        l: &mut Lowerer,
        src: &Source,
        elem: PrimType,
        (i, k): (Operand, Operand),
        out: &mut Vec<Stm>,
    ) -> Option<Operand> {
        Some(match src {
            Source::Row(ptr, s0, s1) => {
                let a = bin(l, out, "o", BinOp::Mul, i, Operand::Var(*s0));
                let b = bin(l, out, "o", BinOp::Mul, k, Operand::Var(*s1));
                let o = bin(l, out, "o", BinOp::Add, a, b);
                l.let_("row", elem, Exp::Load(*ptr, o), out)
            }
            Source::Free(a) => {
                let input = (l.s.virtual_of)(*a).unwrap_or(Input::Array(*a));
                let kv = l.k.fresh("k");
                out.push(Stm::Let { var: kv, ty: I64, exp: Exp::Operand(k) });
                l.row(&input, kv, elem, out)?
            }
            Source::Mapped(lam, result, inputs) => {
                for (p, input) in lam.params.iter().zip(inputs) {
                    let x = self.element(l, input, p.ty.elem(), (i, k), out)?;
                    l.env.insert(p.name, x);
                }
                *l.body(&lam.body, out)?.get(*result)?
            }
            Source::Column(..) => return None,
        })
    }

    /// Contracts the reduction's step that `out[from..]` holds, its term
    /// being `x`, where the target has fused multiply–add
    /// ([`super::contract`]).
    fn contract(&self, out: &mut Vec<Stm>, from: usize, x: Operand) {
        if self.fma {
            super::contract(self.nest.op, out, from, x);
        }
    }

    /// One term of the reduction: `f` applied to the bound parameters.
    fn term(&self, l: &mut Lowerer, out: &mut Vec<Stm>) -> Option<Operand> {
        l.body(&self.nest.f.body, out)?.first().copied()
    }

    /// The nest as written: one dot product at a time.
    fn plain(&self, l: &mut Lowerer, out: &mut Vec<Stm>) -> Option<()> {
        let elem = self.elem();
        for_loop(l, "i", (self.lo, self.hi), false, out, |l, i, out| {
            let row_acc = self.fold_start(l, out)?;
            let row_acc = row_acc.as_slice();
            for_loop(l, "j", (c64(0), self.w2), false, out, |l, j, out| {
                let acc = l.k.fresh("acc");
                out.push(Stm::Mut { var: acc, ty: elem, init: self.ne });
                for_loop(l, "k", (c64(0), self.w3), false, out, |l, k, out| {
                    let mut column = |l: &mut Lowerer, pi: usize, out: &mut Vec<Stm>| {
                        let Source::Column(ptr, s0, s1) = self.sources[pi] else { return None };
                        let a = bin(l, out, "o", BinOp::Mul, j, Operand::Var(s0));
                        let b = bin(l, out, "o", BinOp::Mul, k, Operand::Var(s1));
                        let o = bin(l, out, "o", BinOp::Add, a, b);
                        Some(l.let_("col", self.nest.f.params[pi].ty.elem(), Exp::Load(ptr, o), out))
                    };
                    self.bind_params(l, (i, k), &|_, _| true, &mut column, out)?;
                    let from = out.len();
                    let x = self.term(l, out)?;
                    l.apply(self.nest.op, &[acc], &[x], out)?;
                    self.contract(out, from, x);
                    Some(())
                })?;
                self.sink_one(l, (i, j), Operand::Var(acc), row_acc, out)
            })?;
            self.fold_end(l, i, row_acc, out)
        })
    }

    /// For a row that is folded ([`Sink::Fold`], [`Sink::Loop`]): the
    /// type and initial value of each of its scalars.
    fn fold_init(&self, l: &mut Lowerer) -> Option<Vec<(PrimType, Operand)>> {
        match self.nest.sink {
            Sink::Matrix => Some(Vec::new()),
            Sink::Fold(op2) => Some(vec![(op2.lambda.ret[0].elem(), l.operand(&op2.neutral[0])?)]),
            Sink::Loop(ls) => ls.params.iter().map(|(p, init)| Some((p.ty.elem(), l.operand(init)?))).collect(),
        }
    }

    /// A folded row's scalars `olds` updated with its result `v` in column `j`.
    fn fold_step(
        &self,
        l: &mut Lowerer,
        olds: &[Operand],
        (j, v): (Operand, Operand),
        out: &mut Vec<Stm>,
    ) -> Option<Vec<Operand>> {
        match self.nest.sink {
            Sink::Matrix => None,
            Sink::Fold(op2) => {
                let v = self.post(l, self.nest.inner_post, v, out)?;
                l.apply_values(op2, olds, &[v], out)
            }
            Sink::Loop(ls) => {
                for ((p, _), o) in ls.params.iter().zip(olds) {
                    l.env.insert(p.name, *o);
                }
                l.env.insert(ls.index, j);
                l.env.insert(ls.dist, v);
                for s in ls.update {
                    l.stm(s, out)?;
                }
                ls.next.iter().map(|r| l.operand(r)).collect()
            }
        }
    }

    /// Which of a folded row's scalars is its result.
    fn fold_result(&self) -> usize {
        match self.nest.sink {
            Sink::Loop(ls) => ls.out,
            _ => 0,
        }
    }

    /// In the plain nest: the row's folded scalars, as `mut`s.
    fn fold_start(&self, l: &mut Lowerer, out: &mut Vec<Stm>) -> Option<Vec<Var>> {
        let mut vars = Vec::new();
        for (t, init) in self.fold_init(l)? {
            let v = l.k.fresh("row_acc");
            out.push(Stm::Mut { var: v, ty: t, init });
            vars.push(v);
        }
        Some(vars)
    }

    /// Element `(i, j)`'s result: stored, or folded into the row's scalars.
    fn sink_one(
        &self,
        l: &mut Lowerer,
        (i, j): (Operand, Operand),
        value: Operand,
        row_acc: &[Var],
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        self.store_cells(l, (i, j), value, out)?;
        match self.nest.sink {
            Sink::Matrix => Some(()),
            Sink::Fold(_) | Sink::Loop(_) => {
                let types: Vec<PrimType> = self.fold_init(l)?.iter().map(|x| x.0).collect();
                let olds: Vec<Operand> = row_acc.iter().map(|v| Operand::Var(*v)).collect();
                let news = self.fold_step(l, &olds, (j, value), out)?;
                // Every new value is read before any scalar is assigned.
                let copies: Vec<Operand> =
                    news.iter().zip(&types).map(|(n, t)| l.let_("next", *t, Exp::Operand(*n), out)).collect();
                for (v, c) in row_acc.iter().zip(copies) {
                    out.push(Stm::Set { var: *v, exp: Exp::Operand(c) });
                }
                Some(())
            }
        }
    }

    /// Element `(i, j)`'s reduction `value` into each [`Output::Cell`].
    fn store_cells(
        &self,
        l: &mut Lowerer,
        (i, j): (Operand, Operand),
        value: Operand,
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        for (o, (ptr, strides)) in self.nest.outputs.iter().zip(&self.outs) {
            let Output::Cell { post } = *o else { continue };
            let v = if post { self.post(l, self.nest.inner_post, value, out)? } else { value };
            let a = bin(l, out, "o", BinOp::Mul, i, Operand::Var(*strides.first()?));
            let b = bin(l, out, "o", BinOp::Mul, j, Operand::Var(*strides.get(1)?));
            let at = bin(l, out, "o", BinOp::Add, a, b);
            out.push(Stm::Store { ptr: *ptr, index: at, value: v });
        }
        Some(())
    }

    /// A folded row's result: into the outer reduction or the output.
    fn fold_end(&self, l: &mut Lowerer, i: Operand, row_acc: &[Var], out: &mut Vec<Stm>) -> Option<()> {
        if matches!(self.nest.sink, Sink::Matrix) {
            return Some(());
        }
        let acc = row_acc.get(self.fold_result())?;
        self.row_result(l, i, Operand::Var(*acc), out)
    }

    /// `v` through a [`Post`], if there is one.
    fn post(&self, l: &mut Lowerer, post: Option<Post>, v: Operand, out: &mut Vec<Stm>) -> Option<Operand> {
        let Some(p) = post else { return Some(v) };
        l.env.insert(p.input, v);
        for s in p.stms {
            l.stm(s, out)?;
        }
        l.operand(p.result)
    }

    fn row_result(&self, l: &mut Lowerer, i: Operand, folded: Operand, out: &mut Vec<Stm>) -> Option<()> {
        let y = match self.nest.outer_post {
            None => folded,
            Some(p) => {
                // The outer map's scalar rows at row `i`.
                let iv = l.k.fresh("i");
                out.push(Stm::Let { var: iv, ty: I64, exp: Exp::Operand(i) });
                let s = l.s;
                for (param, input) in s.map.params.iter().zip(s.inputs) {
                    if let ogham_ir::Type::Prim(t) = param.ty {
                        let x = l.row(input, iv, t, out)?;
                        l.env.insert(param.name, x);
                    }
                }
                self.post(l, Some(p), folded, out)?
            }
        };
        match (self.nest.sink, l.s.reduces) {
            (Sink::Matrix, _) => Some(()),
            (_, [op]) => l.apply(op, &self.outer_accs, &[y], out),
            (_, _) => {
                for (o, (ptr, strides)) in self.nest.outputs.iter().zip(&self.outs) {
                    let value = match o {
                        Output::Row => y,
                        Output::Folded => folded,
                        Output::Cell { .. } => continue,
                    };
                    let at = bin(l, out, "o", BinOp::Mul, i, Operand::Var(*strides.first()?));
                    out.push(Stm::Store { ptr: *ptr, index: at, value });
                }
                Some(())
            }
        }
    }

    /// The tiled nest (see the module documentation).
    fn tiles(&self, l: &mut Lowerer, out: &mut Vec<Stm>) -> Option<()> {
        let (cols, elem) = (c64(self.cols), self.elem());
        // The reduction's steps go in blocks whose packed columns fit in
        // the level-2 cache.
        let block = (PACK_BYTES / (self.cols as usize * elem.byte_size().max(1))).max(1) as i64;
        let steps = bin(l, out, "steps", BinOp::Max, self.w3, c64(1));
        let steps = bin(l, out, "steps", BinOp::Min, steps, c64(block));
        let span = bin(l, out, "blocks", BinOp::Add, self.w3, c64(block - 1));
        let k_blocks = bin(l, out, "blocks", BinOp::Quot, span, c64(block));
        let k_blocks = bin(l, out, "blocks", BinOp::Max, k_blocks, c64(1));
        // One buffer per column array: its tile's columns, row after row;
        // or, when the steps are one block and every column tile's packed
        // columns together fit in [`SLAB_BYTES`] (the slab), all of them,
        // packed once.
        let pack_len = bin(l, out, "pack_len", BinOp::Mul, steps, cols);
        let span = bin(l, out, "tiles", BinOp::Add, self.w2, c64(self.cols - 1));
        let col_tiles = bin(l, out, "tiles", BinOp::Quot, span, cols);
        let slab_len = bin(l, out, "slab_len", BinOp::Mul, pack_len, col_tiles);
        let column_bytes: usize = self
            .sources
            .iter()
            .zip(&self.nest.f.params)
            .filter(|(src, _)| matches!(src, Source::Column(..)))
            .map(|(_, p)| p.ty.elem().byte_size().max(1))
            .sum();
        let most = c64((SLAB_BYTES / column_bytes.max(1)) as i64);
        let fits = l.let_("slab_fits", PrimType::Bool, Exp::Cmp(CmpOp::Le, I64, slab_len, most), out);
        let one_block = l.let_("one_block", PrimType::Bool, Exp::Cmp(CmpOp::Eq, I64, k_blocks, c64(1)), out);
        let slab = l.let_("slab", PrimType::Bool, Exp::Bin(BinOp::LogAnd, PrimType::Bool, fits, one_block), out);
        let buffer_len = l.let_("pack_len", I64, Exp::Select(slab, slab_len, pack_len), out);
        let mut packs: Vec<Option<Var>> = Vec::new();
        let mut allocs = Vec::new();
        for (src, p) in self.sources.iter().zip(&self.nest.f.params) {
            packs.push(match src {
                Source::Column(..) => {
                    let v = l.k.fresh("pack");
                    out.push(Stm::Alloc { var: v, elem: p.ty.elem(), len: buffer_len });
                    allocs.push(v);
                    Some(v)
                }
                _ => None,
            });
        }
        let mut pack_slab = Vec::new();
        for_loop(l, "tj", (c64(0), col_tiles), false, &mut pack_slab, |l, tj, out| {
            let columns = self.column_tile(l, tj, out);
            let base = bin(l, out, "base", BinOp::Mul, tj, pack_len);
            self.pack_all(l, &packs, columns, (c64(0), self.w3), base, out)
        })?;
        out.push(Stm::If { cond: slab, then_block: Block { stms: pack_slab }, else_block: Block::default() });
        // Folded rows: each row's scalars, across the column tiles.
        let rows = bin(l, out, "rows", BinOp::Sub, self.hi, self.lo);
        let mut row_accs: Vec<(Var, PrimType)> = Vec::new();
        let n = bin(l, out, "rows", BinOp::Max, rows, c64(1));
        for (t, init) in self.fold_init(l)? {
            let v = l.k.fresh("row_acc");
            out.push(Stm::Alloc { var: v, elem: t, len: n });
            allocs.push(v);
            for_loop(l, "i", (c64(0), rows), true, out, |_, i, out| {
                out.push(Stm::Store { ptr: v, index: i, value: init });
                Some(())
            })?;
            row_accs.push((v, t));
        }
        // With a slab, the rows go in blocks whose elements fit in the
        // level-2 cache beside it, a whole number of row tiles each: every
        // column tile runs over one block of rows before the next block,
        // so a block's rows are read from cache by every column tile
        // instead of all the rows streamed from memory per column tile.
        // Without one, the rows are one block (each column tile's pack is
        // made once, for all of them).
        let row_bytes = bin(l, out, "row_bytes", BinOp::Mul, steps, c64(elem.byte_size().max(1) as i64));
        let per_block = bin(l, out, "per_block", BinOp::Quot, c64(ROW_BLOCK_BYTES as i64), row_bytes);
        let per_block = bin(l, out, "per_block", BinOp::Quot, per_block, c64(self.rows));
        let per_block = bin(l, out, "per_block", BinOp::Max, per_block, c64(1));
        let span = bin(l, out, "tiles", BinOp::Add, rows, c64(self.rows - 1));
        let all_tiles = bin(l, out, "tiles", BinOp::Quot, span, c64(self.rows));
        let all_tiles = bin(l, out, "tiles", BinOp::Max, all_tiles, c64(1));
        let per_block = l.let_("per_block", I64, Exp::Select(slab, per_block, all_tiles), out);
        let block_rows = bin(l, out, "block_rows", BinOp::Mul, per_block, c64(self.rows));
        let span = bin(l, out, "row_blocks", BinOp::Add, rows, block_rows);
        let span = bin(l, out, "row_blocks", BinOp::Sub, span, c64(1));
        let row_blocks = bin(l, out, "row_blocks", BinOp::Quot, span, block_rows);
        let row_tiles = bin(l, out, "tiles", BinOp::Min, all_tiles, per_block);
        // With several blocks, the tiles' sums so far, between blocks.
        let tile_len = c64(self.rows * self.cols);
        let several = bin(l, out, "several", BinOp::Sub, k_blocks, c64(1));
        let several = bin(l, out, "several", BinOp::Min, several, c64(1));
        let partial_len = bin(l, out, "partial_len", BinOp::Mul, row_tiles, tile_len);
        let partial_len = bin(l, out, "partial_len", BinOp::Mul, partial_len, several);
        let partial_len = bin(l, out, "partial_len", BinOp::Add, partial_len, c64(1));
        let partial = l.k.fresh("partial");
        out.push(Stm::Alloc { var: partial, elem, len: partial_len });
        allocs.push(partial);
        let last_block = bin(l, out, "last_block", BinOp::Sub, k_blocks, c64(1));
        // With a slab (one block of steps, a row block's elements in
        // cache), the row elements of a row block, the rows' own or the
        // prelude's, are copied or computed once into a buffer per source
        // (laid out tile by tile, `fill_row_buffers`) before the column tiles
        // read them: a prelude's not once per column tile (GMM's `x - μ`:
        // the subtraction and broadcast per element and column tile had
        // the adder's ports at 1.5 times the multiplier's), and in the
        // tiles a row element is one broadcast load at a fixed offset.
        // Rows that are only copied are buffered only when at least
        // [`BUFFER_COLUMN_TILES`] column tiles read the copy: k-means with
        // 16 centres (one column tile) ran 10% slower with its points
        // copied first.
        let buffered: Vec<usize> = (0..self.sources.len()).filter(|&pi| self.sources[pi].by_row()).collect();
        let is_prelude = |pi: usize| matches!(self.sources[pi], Source::Mapped(..));
        let buffer = if buffered.iter().any(|&pi| is_prelude(pi)) {
            slab
        } else {
            let enough =
                l.let_("enough", PrimType::Bool, Exp::Cmp(CmpOp::Le, I64, c64(BUFFER_COLUMN_TILES), col_tiles), out);
            l.let_("buffer", PrimType::Bool, Exp::Bin(BinOp::LogAnd, PrimType::Bool, slab, enough), out)
        };
        let mut pre: Vec<(usize, Var)> = Vec::new();
        if !buffered.is_empty() {
            let pre_len = bin(l, out, "pre_len", BinOp::Mul, block_rows, steps);
            let pre_len = l.let_("pre_len", I64, Exp::Select(buffer, pre_len, c64(1)), out);
            for pi in buffered {
                // `pre` for a prelude's elements, `rows` for rows copied as they are.
                let base = if is_prelude(pi) { "pre" } else { "rows" };
                let v = l.k.fresh(base);
                out.push(Stm::Alloc { var: v, elem: self.nest.f.params[pi].ty.elem(), len: pre_len });
                allocs.push(v);
                pre.push((pi, v));
            }
        }
        for_loop(l, "rb", (c64(0), row_blocks), false, out, |l, rb, out| {
            let b0 = bin(l, out, "b0", BinOp::Mul, rb, block_rows);
            let b0 = bin(l, out, "b0", BinOp::Add, self.lo, b0);
            let left = bin(l, out, "block_left", BinOp::Sub, self.hi, b0);
            let span = bin(l, out, "block_tiles", BinOp::Add, left, c64(self.rows - 1));
            let block_tiles = bin(l, out, "block_tiles", BinOp::Quot, span, c64(self.rows));
            let block_tiles = bin(l, out, "block_tiles", BinOp::Min, block_tiles, per_block);
            if !pre.is_empty() {
                let mut fill = Vec::new();
                self.fill_row_buffers(l, &pre, (b0, block_tiles), steps, &mut fill)?;
                out.push(Stm::If { cond: buffer, then_block: Block { stms: fill }, else_block: Block::default() });
            }
            for_loop(l, "tj", (c64(0), col_tiles), false, out, |l, tj, out| {
                let (j0, nj) = self.column_tile(l, tj, out);
                for_loop(l, "kb", (c64(0), k_blocks), false, out, |l, kb, out| {
                    let k0 = bin(l, out, "k0", BinOp::Mul, kb, c64(block));
                    let k1 = bin(l, out, "k1", BinOp::Add, k0, c64(block));
                    let k1 = bin(l, out, "k1", BinOp::Min, k1, self.w3);
                    let mut pack_tile = Vec::new();
                    self.pack_all(l, &packs, (j0, nj), (k0, k1), c64(0), &mut pack_tile)?;
                    out.push(Stm::If {
                        cond: slab,
                        then_block: Block::default(),
                        else_block: Block { stms: pack_tile },
                    });
                    let slab_at = bin(l, out, "slab_at", BinOp::Mul, tj, pack_len);
                    let base = l.let_("base", I64, Exp::Select(slab, slab_at, c64(0)), out);
                    let first = l.let_("first", PrimType::Bool, Exp::Cmp(CmpOp::Eq, I64, kb, c64(0)), out);
                    let is_last = l.let_("is_last", PrimType::Bool, Exp::Cmp(CmpOp::Eq, I64, kb, last_block), out);
                    // The row tiles, reading the prelude's elements from
                    // `pre` (per source, the buffer filled for this row
                    // block) or computing them where the tiles read them.
                    let ti_loop = |l: &mut Lowerer, pre: &[(usize, Var)], out: &mut Vec<Stm>| {
                        for_loop(l, "ti", (c64(0), block_tiles), false, out, |l, ti, out| {
                            let i0 = bin(l, out, "i0", BinOp::Mul, ti, c64(self.rows));
                            let i0 = bin(l, out, "i0", BinOp::Add, b0, i0);
                            let saved = bin(l, out, "saved", BinOp::Mul, ti, tile_len);
                            // The tile: acc[ii * cols + jj] for rows i0 + ii, columns
                            // j0 + jj; from the neutral element in the first block,
                            // else from where the block before left it.
                            let acc = l.k.fresh("tile");
                            out.push(Stm::Array { var: acc, elem, len: (self.rows * self.cols) as u32 });
                            let mut start = Vec::new();
                            for_loop(l, "x", (c64(0), tile_len), true, &mut start, |_, x, out| {
                                out.push(Stm::Store { ptr: acc, index: x, value: self.ne });
                                Some(())
                            })?;
                            let mut resume = Vec::new();
                            copy(l, (partial, saved), (acc, c64(0)), (tile_len, elem), &mut resume)?;
                            out.push(Stm::If {
                                cond: first,
                                then_block: Block { stms: start },
                                else_block: Block { stms: resume },
                            });
                            let last = bin(l, out, "last", BinOp::Sub, self.hi, c64(1));
                            for_loop(l, "k", (k0, k1), false, out, |l, k, out| {
                                let kr = bin(l, out, "kr", BinOp::Sub, k, k0);
                                let kc = bin(l, out, "kc", BinOp::Mul, kr, cols);
                                let kc = bin(l, out, "kc", BinOp::Add, kc, base);
                                let by_step = |_, s: &Source| !matches!(s, Source::Column(..)) && !s.by_row();
                                self.bind_params(l, (c64(0), k), &by_step, &mut |_, _, _| None, out)?;
                                for_loop(l, "ii", (c64(0), c64(self.rows)), false, out, |l, ii, out| {
                                    // A missing row repeats the last: computed, never stored.
                                    let i = bin(l, out, "i", BinOp::Add, i0, ii);
                                    let i = bin(l, out, "i", BinOp::Min, i, last);
                                    if !pre.is_empty() {
                                        // Tile `ti`'s step `kr` of row `ii` (see `fill_row_buffers`).
                                        let at = bin(l, out, "at", BinOp::Mul, ti, steps);
                                        let kr = bin(l, out, "kr", BinOp::Sub, k, k0);
                                        let at = bin(l, out, "at", BinOp::Add, at, kr);
                                        let at = bin(l, out, "at", BinOp::Mul, at, c64(self.rows));
                                        let at = bin(l, out, "at", BinOp::Add, at, ii);
                                        for &(pi, buf) in pre {
                                            let p = &self.nest.f.params[pi];
                                            let x = l.let_("pre", p.ty.elem(), Exp::Load(buf, at), out);
                                            l.env.insert(p.name, x);
                                        }
                                    }
                                    let by_row = |pi, s: &Source| s.by_row() && !pre.iter().any(|&(q, _)| q == pi);
                                    self.bind_params(l, (i, k), &by_row, &mut |_, _, _| None, out)?;
                                    let slot0 = bin(l, out, "slot", BinOp::Mul, ii, cols);
                                    for_loop(l, "jj", (c64(0), cols), true, out, |l, jj, out| {
                                        let at = bin(l, out, "at", BinOp::Add, kc, jj);
                                        let mut column = |l: &mut Lowerer, pi: usize, out: &mut Vec<Stm>| {
                                            let pack = packs[pi]?;
                                            Some(l.let_(
                                                "col",
                                                self.nest.f.params[pi].ty.elem(),
                                                Exp::Load(pack, at),
                                                out,
                                            ))
                                        };
                                        self.bind_params(
                                            l,
                                            (i, k),
                                            &|_, s| matches!(s, Source::Column(..)),
                                            &mut column,
                                            out,
                                        )?;
                                        let from = out.len();
                                        let x = self.term(l, out)?;
                                        let slot = bin(l, out, "slot", BinOp::Add, slot0, jj);
                                        let old = l.let_("old", elem, Exp::Load(acc, slot), out);
                                        let new = *l.apply_values(self.nest.op, &[old], &[x], out)?.first()?;
                                        out.push(Stm::Store { ptr: acc, index: slot, value: new });
                                        self.contract(out, from, x);
                                        Some(())
                                    })
                                })
                            })?;
                            let mut keep = Vec::new();
                            copy(l, (acc, c64(0)), (partial, saved), (tile_len, elem), &mut keep)?;
                            let mut sink = Vec::new();
                            self.sink_tile(l, (i0, j0, nj), acc, &row_accs, &mut sink)?;
                            out.push(Stm::If {
                                cond: is_last,
                                then_block: Block { stms: sink },
                                else_block: Block { stms: keep },
                            });
                            Some(())
                        })
                    };
                    if pre.is_empty() {
                        return ti_loop(l, &[], out);
                    }
                    let (mut from_pre, mut inline) = (Vec::new(), Vec::new());
                    ti_loop(l, &pre, &mut from_pre)?;
                    ti_loop(l, &[], &mut inline)?;
                    out.push(Stm::If {
                        cond: buffer,
                        then_block: Block { stms: from_pre },
                        else_block: Block { stms: inline },
                    });
                    Some(())
                })
            })
        })?;
        if let Some(&(racc, t)) = row_accs.get(self.fold_result()) {
            // Each row's result, in order.
            for_loop(l, "i", (self.lo, self.hi), false, out, |l, i, out| {
                let at = bin(l, out, "at", BinOp::Sub, i, self.lo);
                let y = l.let_("y", t, Exp::Load(racc, at), out);
                self.row_result(l, i, y, out)
            })?;
        }
        for v in allocs {
            out.push(Stm::Free { var: v });
        }
        Some(())
    }

    /// Fills each buffer in `pre` with its source's elements for the rows
    /// of a block (`block_tiles` tiles from row `b0`; a missing row repeats
    /// the last, as in the tiles): row `ii` of tile `t`, step `k`, at
    /// `(t * steps + k) * rows + ii`. So a tile's row elements at one step
    /// are adjacent, and the tile reads them at fixed offsets from one
    /// address that moves by `rows` elements per step, as a tile of rows
    /// packed by hand is read, instead of from `rows` places each with its
    /// own index arithmetic (k-means' objective at n = 10 000 ran 9% faster
    /// by paired runs with its points so buffered). The loop over the steps
    /// is versioned on the rows' elements being contiguous, as they are
    /// unless the rows are columns of a transposed array: with the stride a
    /// run-time value, GCC gathers the elements one by one (GMM's `x - μ`
    /// took a quarter of the objective's time so).
    fn fill_row_buffers(
        &self,
        l: &mut Lowerer,
        pre: &[(usize, Var)],
        (b0, block_tiles): (Operand, Operand),
        steps: Operand,
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        let mut strides = Vec::new();
        for &(pi, _) in pre {
            row_strides(&self.sources[pi], &mut strides);
        }
        strides.sort_unstable();
        strides.dedup();
        let rows = c64(self.rows);
        let last = bin(l, out, "last", BinOp::Sub, self.hi, c64(1));
        let mut fill = Vec::new();
        for_loop(l, "t", (c64(0), block_tiles), false, &mut fill, |l, t, out| {
            let r0 = bin(l, out, "r", BinOp::Mul, t, rows);
            let r0 = bin(l, out, "r", BinOp::Add, b0, r0);
            let at0 = bin(l, out, "at", BinOp::Mul, t, steps);
            let at0 = bin(l, out, "at", BinOp::Mul, at0, rows);
            for_loop(l, "ii", (c64(0), rows), false, out, |l, ii, out| {
                let i = bin(l, out, "i", BinOp::Add, r0, ii);
                let i = bin(l, out, "i", BinOp::Min, i, last);
                let at1 = bin(l, out, "at", BinOp::Add, at0, ii);
                for_loop(l, "k", (c64(0), self.w3), true, out, |l, k, out| {
                    let at = bin(l, out, "at", BinOp::Mul, k, rows);
                    let at = bin(l, out, "at", BinOp::Add, at1, at);
                    for &(pi, buf) in pre {
                        let x = self.element(l, &self.sources[pi], self.nest.f.params[pi].ty.elem(), (i, k), out)?;
                        out.push(Stm::Store { ptr: buf, index: at, value: x });
                    }
                    Some(())
                })
            })
        })?;
        out.extend(crate::passes::unit_stride::versioned(&mut l.k, &strides, Block { stms: fill }));
        Some(())
    }

    /// A finished tile's results (rows `i0 …`, columns `j0 … j0 + nj`, in
    /// `acc`): stored, or folded into the rows' scalars `row_accs`.
    fn sink_tile(
        &self,
        l: &mut Lowerer,
        (i0, j0, nj): (Operand, Operand, Operand),
        acc: Var,
        row_accs: &[(Var, PrimType)],
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        let (cols, elem) = (c64(self.cols), self.elem());
        // The tile's rows and columns that exist.
        let left = bin(l, out, "nr", BinOp::Sub, self.hi, i0);
        let nr = bin(l, out, "nr", BinOp::Min, left, c64(self.rows));
        let screen = self.screen(row_accs);
        for_loop(l, "ii", (c64(0), nr), false, out, |l, ii, out| {
            let i = bin(l, out, "i", BinOp::Add, i0, ii);
            let slot0 = bin(l, out, "slot", BinOp::Mul, ii, cols);
            let Some(sc) = screen else { return self.sink_row(l, (i, slot0), (j0, nj), acc, row_accs, out) };
            // A row whose running minimum no column of the tile could
            // replace keeps its scalars: the vector comparison of the
            // tile's columns with it decides whether the sequential fold
            // runs at all (k-means' nearest centre, found in the first few
            // tiles of a row, then kept).
            let at = bin(l, out, "at", BinOp::Sub, i, self.lo);
            let (vacc, vt) = *row_accs.get(sc.value)?;
            let m = l.let_("best", vt, Exp::Load(vacc, at), out);
            let no_nan = l.let_("no_nan", PrimType::Bool, Exp::Cmp(CmpOp::Eq, vt, m, m), out);
            let settled = match sc.found {
                Some((index, bound)) => {
                    let (kacc, kt) = *row_accs.get(index)?;
                    let k = l.let_("best_at", kt, Exp::Load(kacc, at), out);
                    let bound = l.operand(bound)?;
                    let found = l.let_("found", PrimType::Bool, Exp::Cmp(CmpOp::Lt, kt, k, bound), out);
                    l.let_("settled", PrimType::Bool, Exp::Bin(BinOp::LogAnd, PrimType::Bool, no_nan, found), out)
                }
                None => no_nan,
            };
            let changes = l.k.fresh("changes");
            out.push(Stm::Mut { var: changes, ty: PrimType::Bool, init: Operand::Const(PrimValue::Bool(true)) });
            let mut scan = vec![Stm::Set { var: changes, exp: Exp::Operand(Operand::Const(PrimValue::Bool(false))) }];
            for_loop(l, "jj", (c64(0), nj), true, &mut scan, |l, jj, out| {
                let slot = bin(l, out, "slot", BinOp::Add, slot0, jj);
                let v = l.let_("v", elem, Exp::Load(acc, slot), out);
                let better = l.let_("better", PrimType::Bool, Exp::Cmp(sc.cmp, vt, v, m), out);
                out.push(Stm::Accumulate {
                    var: changes,
                    op: BinOp::LogOr,
                    ty: PrimType::Bool,
                    value: better,
                    times: None,
                });
                Some(())
            })?;
            out.push(Stm::If { cond: settled, then_block: Block { stms: scan }, else_block: Block::default() });
            let mut fold = Vec::new();
            self.sink_row(l, (i, slot0), (j0, nj), acc, row_accs, &mut fold)?;
            out.push(Stm::If {
                cond: Operand::Var(changes),
                then_block: Block { stms: fold },
                else_block: Block::default(),
            });
            Some(())
        })
    }

    /// How a tile's row may be screened before it is folded ([`Screen`]):
    /// an argmin loop ([`settled`]), or a fold by `min` or `max` alone of
    /// the distances as they are (k-means' objective, `f32.minimum`).
    fn screen(&self, row_accs: &[(Var, PrimType)]) -> Option<Screen<'s>> {
        if row_accs.is_empty() || self.nest.outputs.iter().any(|o| matches!(o, Output::Cell { .. })) {
            return None;
        }
        match self.nest.sink {
            Sink::Loop(ls) => {
                let sc = settled(&ls)?;
                let cmp = if sc.op == BinOp::Min { CmpOp::Lt } else { CmpOp::Gt };
                Some(Screen { value: sc.value, cmp, found: Some((sc.index, sc.bound)) })
            }
            Sink::Fold(op2) if self.nest.inner_post.is_none() => {
                let [(_, t)] = row_accs else { return None };
                // `min m v` is `m` where `m` is not NaN and `v` is above
                // it or NaN, whichever operand the operator names first
                // (for `v` equal to `m` it could be `v`: -0 for +0).
                let cmp = match super::componentwise(op2)?.as_slice() {
                    [(BinOp::Min, bt)] if bt == t => CmpOp::Le,
                    [(BinOp::Max, bt)] if bt == t => CmpOp::Ge,
                    _ => return None,
                };
                Some(Screen { value: 0, cmp, found: None })
            }
            _ => None,
        }
    }

    /// Row `i` of a tile (its results from `slot0` in the tile's buffer
    /// `acc`), columns `j0 ..` of `nj`: stored, or folded into the row's
    /// scalars.
    fn sink_row(
        &self,
        l: &mut Lowerer,
        (i, slot0): (Operand, Operand),
        (j0, nj): (Operand, Operand),
        acc: Var,
        row_accs: &[(Var, PrimType)],
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        let elem = self.elem();
        if let Some((racc, bop, t)) = self.lane_fold(row_accs) {
            // The row's part of the reduction first, in an accumulator the
            // `lanes` pass keeps in vector lanes, then into its scalar: a
            // reassociation, which the operator allows. Folding every
            // column into the scalar in turn was a chain of dependent
            // additions as long as the tile is wide (a third of the time
            // of GMM's objective went to it).
            let part = l.k.fresh("part");
            out.push(Stm::Mut { var: part, ty: t, init: Operand::Const(crate::neutral(bop, t)?) });
            for_loop(l, "jj", (c64(0), nj), false, out, |l, jj, out| {
                let slot = bin(l, out, "slot", BinOp::Add, slot0, jj);
                let v = l.let_("v", elem, Exp::Load(acc, slot), out);
                let v = self.post(l, self.nest.inner_post, v, out)?;
                out.push(Stm::Accumulate { var: part, op: bop, ty: t, value: v, times: None });
                Some(())
            })?;
            let at = bin(l, out, "at", BinOp::Sub, i, self.lo);
            let old = l.let_("old", t, Exp::Load(racc, at), out);
            let new = l.let_("folded", t, Exp::Bin(bop, t, old, Operand::Var(part)), out);
            out.push(Stm::Store { ptr: racc, index: at, value: new });
            return Some(());
        }
        for_loop(l, "jj", (c64(0), nj), false, out, |l, jj, out| {
            let slot = bin(l, out, "slot", BinOp::Add, slot0, jj);
            let v = l.let_("v", elem, Exp::Load(acc, slot), out);
            let j = bin(l, out, "j", BinOp::Add, j0, jj);
            if row_accs.is_empty() {
                return self.sink_one(l, (i, j), v, &[], out);
            }
            self.store_cells(l, (i, j), v, out)?;
            let at = bin(l, out, "at", BinOp::Sub, i, self.lo);
            let olds: Vec<Operand> =
                row_accs.iter().map(|(racc, t)| l.let_("old", *t, Exp::Load(*racc, at), out)).collect();
            let news = self.fold_step(l, &olds, (j, v), out)?;
            for ((racc, _), new) in row_accs.iter().zip(news) {
                out.push(Stm::Store { ptr: *racc, index: at, value: new });
            }
            Some(())
        })
    }

    /// A [`Sink::Fold`] whose operator is one sum or product, without cells
    /// to store: its row scalars and the operation. Not `min` or `max`:
    /// GCC made k-means' nearest centre (`f32.minimum`) of the lanes a
    /// chain of scalar compares and branches, and the objective took 15.6
    /// instead of 10.4 ms. Not with cells: GMM's gradient, whose tiles
    /// store them with run-time strides, was not faster (slower in one
    /// interleaved run, the same within noise in another).
    fn lane_fold(&self, row_accs: &[(Var, PrimType)]) -> Option<(Var, BinOp, PrimType)> {
        let (Sink::Fold(op2), [(racc, t)]) = (self.nest.sink, row_accs) else { return None };
        if self.nest.outputs.iter().any(|o| matches!(o, Output::Cell { .. })) {
            return None;
        }
        match super::componentwise(op2)?.as_slice() {
            [(bop @ (BinOp::Add | BinOp::Mul), bt)] if bt == t => Some((*racc, *bop, *t)),
            _ => None,
        }
    }

    /// Column tile `tj`'s first column and its number of columns.
    fn column_tile(&self, l: &mut Lowerer, tj: Operand, out: &mut Vec<Stm>) -> (Operand, Operand) {
        let j0 = bin(l, out, "j0", BinOp::Mul, tj, c64(self.cols));
        let left = bin(l, out, "nj", BinOp::Sub, self.w2, j0);
        (j0, bin(l, out, "nj", BinOp::Min, left, c64(self.cols)))
    }

    /// [`Self::pack`] of every column array into its buffer in `packs`.
    fn pack_all(
        &self,
        l: &mut Lowerer,
        packs: &[Option<Var>],
        columns: (Operand, Operand),
        steps: (Operand, Operand),
        base: Operand,
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        for (src, pack) in self.sources.iter().zip(packs) {
            if let (Source::Column(ptr, s0, s1), Some(pack)) = (src, pack) {
                self.pack(l, (*ptr, *s0, *s1), *pack, columns, steps, base, out)?;
            }
        }
        Some(())
    }

    /// Copies columns `j0 .. j0 + nj`, steps `k0 .. k1`, of a column array
    /// (element `[j][k]` at `j * s0 + k * s1`) into `pack`, step `k` at
    /// `base + (k - k0) * cols`; a missing column repeats the last. Whole tiles of
    /// an array whose columns are contiguous (`s0 == 1`) copy contiguous
    /// runs.
    fn pack(
        &self,
        l: &mut Lowerer,
        (ptr, s0, s1): (Var, Var, Var),
        pack: Var,
        (j0, nj): (Operand, Operand),
        (k0, k1): (Operand, Operand),
        base: Operand,
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        let cols = c64(self.cols);
        let t = match l.k.params.iter().find(|p| p.var == ptr)?.ty {
            Ty::Ptr(t) | Ty::Prim(t) => t,
        };
        let full = l.let_("full", PrimType::Bool, Exp::Cmp(CmpOp::Eq, I64, nj, cols), out);
        let unit = l.let_("unit", PrimType::Bool, Exp::Cmp(CmpOp::Eq, I64, Operand::Var(s0), c64(1)), out);
        let both = l.let_("contiguous", PrimType::Bool, Exp::Bin(BinOp::LogAnd, PrimType::Bool, full, unit), out);
        let mut run = Vec::new();
        for_loop(l, "k", (k0, k1), false, &mut run, |l, k, out| {
            let src = bin(l, out, "src", BinOp::Mul, k, Operand::Var(s1));
            let src = bin(l, out, "src", BinOp::Add, src, j0);
            let kr = bin(l, out, "kr", BinOp::Sub, k, k0);
            let dst = bin(l, out, "dst", BinOp::Mul, kr, cols);
            let dst = bin(l, out, "dst", BinOp::Add, dst, base);
            for_loop(l, "jj", (c64(0), cols), true, out, |l, jj, out| {
                let from = bin(l, out, "from", BinOp::Add, src, jj);
                let to = bin(l, out, "to", BinOp::Add, dst, jj);
                let x = l.let_("x", t, Exp::Load(ptr, from), out);
                out.push(Stm::Store { ptr: pack, index: to, value: x });
                Some(())
            })
        })?;
        let mut gather = Vec::new();
        let last = bin(l, &mut gather, "last", BinOp::Sub, nj, c64(1));
        for_loop(l, "k", (k0, k1), false, &mut gather, |l, k, out| {
            let ks = bin(l, out, "src", BinOp::Mul, k, Operand::Var(s1));
            let kr = bin(l, out, "kr", BinOp::Sub, k, k0);
            let dst = bin(l, out, "dst", BinOp::Mul, kr, cols);
            let dst = bin(l, out, "dst", BinOp::Add, dst, base);
            for_loop(l, "jj", (c64(0), cols), false, out, |l, jj, out| {
                let jc = bin(l, out, "jc", BinOp::Min, jj, last);
                let jc = bin(l, out, "jc", BinOp::Add, j0, jc);
                let from = bin(l, out, "from", BinOp::Mul, jc, Operand::Var(s0));
                let from = bin(l, out, "from", BinOp::Add, from, ks);
                let to = bin(l, out, "to", BinOp::Add, dst, jj);
                let x = l.let_("x", t, Exp::Load(ptr, from), out);
                out.push(Stm::Store { ptr: pack, index: to, value: x });
                Some(())
            })
        })?;
        out.push(Stm::If { cond: both, then_block: Block { stms: run }, else_block: Block { stms: gather } });
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tile's accumulators with the vectors loaded from the packed
    /// columns and the broadcast row element must fit in the registers.
    #[test]
    fn tiles_fit_the_registers() {
        let targets = [
            Target { vector_bytes: 64, registers: 32, fma: true },
            Target { vector_bytes: 32, registers: 16, fma: true },
            Target { vector_bytes: 16, registers: 16, fma: false },
        ];
        for t in &targets {
            for elem in [PrimType::F32, PrimType::F64, PrimType::I32] {
                let lanes = narrow_cols(elem, t);
                assert_eq!(lanes as usize * elem.byte_size(), t.vector_bytes);
                let vectors = cols(elem, t) / lanes;
                for held in 0..3 {
                    let used = rows(t, held) * vectors + vectors + 2 + held as i64;
                    assert!(used <= t.registers as i64, "{t:?} {elem:?} {held}: {used} registers");
                }
                assert!(NARROW_ROWS + 2 <= t.registers as i64);
            }
        }
        // The shapes themselves: 6 rows by 4 vectors with AVX-512, 6 by 2 with 16 registers.
        assert_eq!((rows(&targets[0], 0), cols(PrimType::F32, &targets[0])), (6, 64));
        assert_eq!((rows(&targets[1], 0), cols(PrimType::F32, &targets[1])), (6, 16));
        assert_eq!((rows(&targets[2], 0), cols(PrimType::F64, &targets[2])), (6, 4));
        // GMM's `x - μ` holds μ[k]: five rows with 16 registers, six with 32.
        assert_eq!(rows(&targets[1], 1), 5);
        assert_eq!(rows(&targets[0], 1), 6);
    }
}
