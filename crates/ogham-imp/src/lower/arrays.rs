//! Arrays made and updated inside a kernel: map functions that run whole
//! loops over arrays, as the `lanes` pass's ranges do (each range runs a
//! loop over time whose body copies its state, maps over its lanes and
//! updates rows of its state and of accumulators). Lowered to one kernel,
//! such a function costs its arithmetic and its loads and stores, where
//! statement by statement every step built array views, called a kernel
//! per small map and took memory from an allocation site.
//!
//! Only functions that run a loop over arrays ([`loops_over_arrays`]),
//! and `withacc` functions that run a nested `withacc`, are lowered so;
//! others run faster statement by statement.
//!
//! Memory is planned when the kernel is lowered:
//! - an array the function makes (`copy`, `replicate`, `scratch`, the
//!   mapped results of a nested `map` or `withacc`) gets a buffer of its
//!   own, allocated once before the kernel's loop ([`Buffers::pre`]) and
//!   freed at its end, so every size must be known there (a constant or
//!   a free variable, and for `iota`, `replicate` and `scratch` the size
//!   of an array that exists, never negative: [`Buffers::sizes`]); the
//!   buffer is reused by every execution of the statement that makes the
//!   array, and its length is capped so that it never wraps round;
//! - an array loop parameter has a buffer of its own, filled from the
//!   initial value when the loop starts and from the body's result at the
//!   end of each iteration (none when the body updated the parameter in
//!   place). It takes over the initial value's buffer instead when that
//!   value is used nowhere else and is a buffer made for it or the one an
//!   enclosing loop's parameter owns, and it is the accumulator itself
//!   when the initial value is one (an accumulator's updates must land in
//!   its memory);
//! - `update` and `updacc` store into the buffer of the array they
//!   consume, which must be one of the kernel's buffers or an
//!   accumulator (a `write` pointer): nothing else the kernel reads
//!   reaches it, as the language's uniqueness rules guarantee for a
//!   consumed array;
//! - an `index` is a view: an offset and strides into its array's memory.
//!
//! What the lowering cannot plan (a size made inside, a branch that
//! returns arrays, a checked index, a loop whose results swap its
//! parameters' buffers) makes the lowering fail, and the caller runs the
//! function statement by statement as before.

use ogham_ir::{Body, DimIndex, Exp as CExp, Lambda, Soac, Stm as CStm, SubExp, Type, VName};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{Binding, Input, Lowered, Lowerer, MapResult, ScremaLoop, View};
use crate::{BinOp, Block, CmpOp, Exp, Operand, ParamKind, PrimType, PrimValue, Stm, Ty, Var};

const I64: PrimType = PrimType::I64;

pub(crate) fn is_array(t: &Type) -> bool {
    matches!(t, Type::Array { .. })
}

/// More elements than any buffer of a kernel can have: 2⁵⁶, so that the
/// bytes of any element type still fit in 64 bits, and an allocation this
/// large always fails.
const ALLOC_CAP: i64 = 1 << 56;

fn zero() -> Operand {
    Operand::Const(PrimValue::I64(0))
}

fn one() -> Operand {
    Operand::Const(PrimValue::I64(1))
}

/// What the lowering knows of the arrays of the function it lowers.
#[derive(Default)]
pub(crate) struct Buffers {
    /// Statements run once before the kernel's loop: the buffers' sizes
    /// and allocations.
    pub(crate) pre: Vec<Stm>,
    /// The buffers, freed when the kernel ends.
    pub(crate) allocs: Vec<Var>,
    /// The variable of the core IR each buffer was made for.
    origin: HashMap<Var, VName>,
    /// How often each variable of the core IR is used in the function.
    uses: HashMap<VName, usize>,
    /// The types of the variables bound inside the function.
    types: HashMap<VName, Type>,
    /// Index variables known to lie in `[0, n)`, with `n`.
    bounded: Vec<(Var, Operand)>,
    /// The arrays made inside whose elements the kernel computes where
    /// they are read: every `iota`, and `#[virtual]` replicates.
    virt: HashMap<VName, Input>,
    /// Loop parameters whose view is a whole buffer they own (allocated
    /// for them, or taken over from their initial value).
    owners: HashSet<VName>,
    /// Variables that are sizes of arrays that exist (the function's
    /// parameters', the SOAC's inputs' and the free arrays'), so never negative: an `iota`,
    /// `replicate` or `scratch` of other sizes is not for a kernel, which
    /// could not fail where the statement fails for a negative size.
    sizes: HashSet<VName>,
}

/// The elements written by [`Lowerer::elementwise`]: another array's, or
/// one value everywhere.
#[derive(Clone)]
enum Elems {
    View(View),
    Value(Operand),
}

/// Whether a function's body runs a loop over arrays (one with array
/// parameters): the functions [`withacc_region`] and [`screma_region`]
/// are for. Other functions that make arrays run faster statement by
/// statement, where their SOACs get kernels of their own (vectorised,
/// tiled, or parallel when the outer SOAC is small): the GMM gradient's
/// map over points took a third longer as one kernel.
fn loops_over_arrays(body: &Body) -> bool {
    body.stms.iter().any(|s| match &s.exp {
        CExp::Loop { params, .. } => params.iter().any(|(p, _)| is_array(&p.ty)),
        _ => false,
    })
}

/// The kernel of a `withacc`'s loop whose map function makes or updates
/// arrays in loops (see the module documentation), or runs a nested
/// `withacc` (reverse mode's adjoint of a gathered row, added element by
/// element: one kernel with the nested loop inside is a tenth faster on a
/// gradient of row gathers than a kernel call per row): its first `n`
/// parameters and results are the accumulators (any updates inside loops
/// and nested SOACs), the rest of its results scalars stored to the
/// outputs.
pub(crate) fn withacc_region(s: &ScremaLoop, n: usize, w: &SubExp) -> Option<Lowered> {
    let map = s.map;
    let mapped = map.ret.get(n..)?;
    let nested = map.body.stms.iter().any(|s| matches!(s.exp, CExp::Soac(Soac::WithAcc { .. })));
    if !(loops_over_arrays(&map.body) || nested)
        || !mapped.iter().all(|t| matches!(t, Type::Prim(_)))
        || s.outs.len() != mapped.len()
        || s.outs.iter().any(|(_, r)| *r != 1)
    {
        return None;
    }
    let mut l = Lowerer::new("withacc", s);
    l.prepare(map);
    let lo = l.param("lo", Ty::Prim(I64), ParamKind::Value, Binding::Lo);
    let hi = l.param("hi", Ty::Prim(I64), ParamKind::Value, Binding::Hi);
    let outs = l.output_params();
    let mut accs = Vec::new();
    for (r, p) in map.params[..n].iter().enumerate() {
        let Type::Array { elem, shape } = &p.ty else { return None };
        let view = l.strided("acc", *elem, shape.len(), Binding::AccData(r), |d| Binding::AccStride(r, d));
        accs.push(view.ptr);
        l.views.insert(p.name, view);
        l.bufs.types.insert(p.name, p.ty.clone());
    }
    let j = l.k.fresh("j");
    let width = l.operand(w)?;
    let mut body = Vec::new();
    l.bind_rows(j, n, &mut body)?;
    l.bufs.bounded.push((j, width));
    let results = l.every_iteration_results(&map.body, &mut body)?;
    for (r, acc) in results.iter().zip(&accs) {
        let MapResult::Row(v) = r else { return None };
        if v.ptr != *acc {
            return None;
        }
    }
    for (m, r) in results[n..].iter().enumerate() {
        let MapResult::Scalar(x) = r else { return None };
        let (ptr, stride) = *outs.get(m)?;
        l.store(ptr, stride, j, *x, &mut body);
    }
    let for_loop =
        Stm::For { index: j, lo: Operand::Var(lo), hi: Operand::Var(hi), ivdep: false, body: Block { stms: body } };
    Some(l.finish(for_loop))
}

/// The kernel of a map (a `screma` without scans or reductions) whose
/// function makes or updates arrays: its results, scalars or arrays, are
/// stored to row `j` of the outputs.
pub(crate) fn screma_region(s: &ScremaLoop) -> Option<Lowered> {
    let map = s.map;
    if !s.scans.is_empty() || !s.reduces.is_empty() || !loops_over_arrays(&map.body) || s.outs.len() != map.ret.len() {
        return None;
    }
    if s.inputs.len() != map.params.len() {
        return None;
    }
    let mut l = Lowerer::new("screma", s);
    l.prepare(map);
    let lo = l.param("lo", Ty::Prim(I64), ParamKind::Value, Binding::Lo);
    let hi = l.param("hi", Ty::Prim(I64), ParamKind::Value, Binding::Hi);
    let outs: Vec<View> = (s.outs.iter().enumerate())
        .map(|(o, (t, rank))| l.strided("out", *t, *rank, Binding::Out(o), |d| Binding::OutStride(o, d)))
        .collect();
    let j = l.k.fresh("j");
    let mut body = Vec::new();
    l.bind_rows(j, 0, &mut body)?;
    let results = l.every_iteration_results(&map.body, &mut body)?;
    for ((r, out), ty) in results.iter().zip(&outs).zip(&map.ret) {
        l.store_row(out, j, r, ty, &mut body)?;
    }
    let for_loop =
        Stm::For { index: j, lo: Operand::Var(lo), hi: Operand::Var(hi), ivdep: false, body: Block { stms: body } };
    Some(l.finish(for_loop))
}

impl Lowerer<'_, '_> {
    /// What the lowering of `map` needs to know before it starts: how
    /// often each variable is used, and which are sizes of arrays.
    fn prepare(&mut self, map: &Lambda) {
        ogham_ir::visit::count_uses(&map.body, &mut self.bufs.uses);
        let free = ogham_ir::visit::free_vars_lambda(map);
        let inputs = self.s.inputs.iter().filter_map(|i| match i {
            Input::Array(a) => Some(*a),
            _ => None,
        });
        let arrays: Vec<VName> = free.iter().copied().chain(inputs).collect();
        let types = map.params.iter().map(|p| p.ty.clone()).chain(arrays.iter().filter_map(|v| (self.s.ty_of)(*v)));
        for t in types {
            self.bufs.sizes.extend(ogham_ir::visit::type_vars(&t));
        }
    }

    /// Whether every one of `dims` is a constant at least 0 or a size (see
    /// [`Buffers::sizes`]).
    fn known_sizes(&self, dims: &[SubExp]) -> bool {
        dims.iter().all(|d| match d {
            SubExp::Const(c) => c.as_i64() >= 0,
            SubExp::Var(v) => self.bufs.sizes.contains(v),
        })
    }

    /// A `write` pointer parameter bound to `ptr` and one stride parameter
    /// per dimension, bound by `stride` (the innermost a
    /// [`ParamKind::Stride`]): the view of an accumulator or output.
    fn strided(
        &mut self,
        base: &str,
        elem: PrimType,
        rank: usize,
        ptr: Binding,
        stride: impl Fn(usize) -> Binding,
    ) -> View {
        let ptr = self.param(base, Ty::Ptr(elem), ParamKind::Write, ptr);
        let strides = (0..rank)
            .map(|d| {
                let kind = if d + 1 == rank { ParamKind::Stride } else { ParamKind::Value };
                Operand::Var(self.param(&format!("{base}_stride"), Ty::Prim(I64), kind, stride(d)))
            })
            .collect();
        View { ptr, elem, offset: zero(), strides }
    }

    /// [`Self::results`] of the function's own statements, which run in
    /// every iteration of the kernel's loop.
    fn every_iteration_results(&mut self, body: &Body, out: &mut Vec<Stm>) -> Option<Vec<MapResult>> {
        self.every_iteration = true;
        let results = self.results(body, out);
        self.every_iteration = false;
        results
    }

    /// The kernel: the buffers' allocations, `main`, and their release.
    fn finish(mut self, main: Stm) -> Lowered {
        let mut stms = std::mem::take(&mut self.bufs.pre);
        stms.push(main);
        stms.extend(self.bufs.allocs.iter().rev().map(|&var| Stm::Free { var }));
        self.k.body.stms = stms;
        (self.k, self.bindings, self.checks)
    }

    /// What a virtual array is (see [`Buffers::virt`]), inside the function or free.
    pub(crate) fn virtual_input(&self, a: VName) -> Option<Input> {
        self.bufs.virt.get(&a).cloned().or_else(|| (self.s.virtual_of)(a))
    }

    /// The type of a variable of the core IR: bound inside the function, or free.
    fn type_of(&self, v: VName) -> Option<Type> {
        self.bufs.types.get(&v).cloned().or_else(|| (self.s.ty_of)(v))
    }

    /// Records the types of the variables a statement binds.
    pub(crate) fn record(&mut self, params: &[ogham_ir::Param]) {
        for p in params {
            self.bufs.types.insert(p.name, p.ty.clone());
        }
    }

    /// Whether the kernel may store through `ptr`: a buffer of its own, or
    /// an accumulator.
    fn writable(&self, ptr: Var) -> bool {
        self.bufs.allocs.contains(&ptr) || self.k.params.iter().any(|p| p.var == ptr && p.kind == ParamKind::Write)
    }

    /// The sizes of an array type, as operands.
    pub(crate) fn dims(&mut self, ty: &Type) -> Option<Vec<Operand>> {
        ty.shape().iter().map(|d| self.operand(d)).collect()
    }

    /// `a * b` for sizes `a` and `b` (at least 0), or [`ALLOC_CAP`] when
    /// that is more.
    fn mul_capped(&mut self, a: Operand, b: Operand, out: &mut Vec<Stm>) -> Operand {
        if a == one() {
            return self.cap(b, out);
        }
        let cap = Operand::Const(PrimValue::I64(ALLOC_CAP));
        let bool_ = PrimType::Bool;
        let zero_b = self.let_("none", bool_, Exp::Cmp(CmpOp::Eq, I64, b, zero()), out);
        let divisor = self.let_("d", I64, Exp::Select(zero_b, one(), b), out);
        let limit = self.let_("limit", I64, Exp::Bin(BinOp::Quot, I64, cap, divisor), out);
        let fits = self.let_("fits", bool_, Exp::Cmp(CmpOp::Le, I64, a, limit), out);
        let product = self.let_("n", I64, Exp::Bin(BinOp::Mul, I64, a, b), out);
        self.let_("n", I64, Exp::Select(fits, product, cap), out)
    }

    /// `n`, or [`ALLOC_CAP`] when that is less.
    fn cap(&mut self, n: Operand, out: &mut Vec<Stm>) -> Operand {
        if let Operand::Const(PrimValue::I64(c)) = n {
            return Operand::Const(PrimValue::I64(c.min(ALLOC_CAP)));
        }
        self.let_("n", I64, Exp::Bin(BinOp::Min, I64, n, Operand::Const(PrimValue::I64(ALLOC_CAP))), out)
    }

    /// A buffer of `elem`s of sizes `dims` (known before the kernel's
    /// loop), in row-major order, for array `origin`.
    fn buffer(&mut self, origin: VName, elem: PrimType, dims: &[Operand]) -> Option<View> {
        if !dims.iter().all(|d| self.invariant(*d)) {
            return None;
        }
        let mut pre = std::mem::take(&mut self.bufs.pre);
        let mut strides = vec![one(); dims.len()];
        for d in (0..dims.len().saturating_sub(1)).rev() {
            strides[d] = self.scaled(strides[d + 1], dims[d + 1], &mut pre);
        }
        // The number of elements, or more than any memory holds when the
        // product of the sizes would (then the allocation fails, out of
        // memory), so that it never wraps round to a small buffer. The
        // strides are then never used: no loop runs past the allocation.
        let mut len = one();
        for d in dims {
            len = self.mul_capped(len, *d, &mut pre);
        }
        let base = self.base(origin);
        let ptr = self.k.fresh(&base);
        pre.push(Stm::Alloc { var: ptr, elem, len });
        self.bufs.pre = pre;
        self.bufs.allocs.push(ptr);
        self.bufs.origin.insert(ptr, origin);
        Some(View { ptr, elem, offset: zero(), strides })
    }

    /// Writes `src` into every element of `dst` (both of sizes `dims`),
    /// combined with the old element by `op` when there is one.
    fn elementwise(
        &mut self,
        dst: &View,
        src: &Elems,
        dims: &[Operand],
        op: Option<BinOp>,
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        let Some((n, rest)) = dims.split_first() else {
            if !dst.strides.is_empty() {
                return None;
            }
            let x = match src {
                Elems::Value(v) => *v,
                Elems::View(v) => {
                    if !v.strides.is_empty() || v.elem != dst.elem {
                        return None;
                    }
                    self.let_("x", v.elem, Exp::Load(v.ptr, v.offset), out)
                }
            };
            let x = match op {
                Some(bop) => {
                    let old = self.let_("old", dst.elem, Exp::Load(dst.ptr, dst.offset), out);
                    self.let_("new", dst.elem, Exp::Bin(bop, dst.elem, old, x), out)
                }
                None => x,
            };
            out.push(Stm::Store { ptr: dst.ptr, index: dst.offset, value: x });
            return Some(());
        };
        let i = self.k.fresh("i");
        let mut body = Vec::new();
        let d = self.subview(dst, &[Operand::Var(i)], &mut body)?;
        let s = match src {
            Elems::View(v) => Elems::View(self.subview(v, &[Operand::Var(i)], &mut body)?),
            e => e.clone(),
        };
        self.elementwise(&d, &s, rest, op, &mut body)?;
        out.push(Stm::For { index: i, lo: zero(), hi: *n, ivdep: false, body: Block { stms: body } });
        Some(())
    }

    /// The view of `slice` of `view`: fixed indices and strided ranges.
    fn sliced(&mut self, view: &View, slice: &[DimIndex], out: &mut Vec<Stm>) -> Option<View> {
        if slice.len() > view.strides.len() {
            return None;
        }
        let mut offset = view.offset;
        let mut strides = Vec::new();
        for (di, st) in slice.iter().zip(&view.strides) {
            let (start, step) = match di {
                DimIndex::Fix(i) => (self.operand(i)?, None),
                DimIndex::Slice { start, stride, .. } => (self.operand(start)?, Some(self.operand(stride)?)),
            };
            let term = self.scaled(start, *st, out);
            offset = self.offset_add(offset, term, out);
            if let Some(step) = step {
                let s = self.scaled(*st, step, out);
                strides.push(s);
            }
        }
        strides.extend_from_slice(&view.strides[slice.len()..]);
        Some(View { ptr: view.ptr, elem: view.elem, offset, strides })
    }

    /// `0 <= i && i < n`.
    fn in_range(&mut self, i: Operand, n: Operand, out: &mut Vec<Stm>) -> Operand {
        let ge = self.let_("ge", PrimType::Bool, Exp::Cmp(CmpOp::Ge, I64, i, zero()), out);
        let lt = self.let_("lt", PrimType::Bool, Exp::Cmp(CmpOp::Lt, I64, i, n), out);
        self.and(ge, lt, out)
    }

    fn and(&mut self, a: Operand, b: Operand, out: &mut Vec<Stm>) -> Operand {
        self.let_("inside", PrimType::Bool, Exp::Bin(BinOp::LogAnd, PrimType::Bool, a, b), out)
    }

    /// Whether `i` is known to lie in `[0, n)`.
    fn known_below(&self, i: Operand, n: Operand) -> bool {
        match (i, n) {
            (Operand::Const(PrimValue::I64(c)), Operand::Const(PrimValue::I64(m))) => 0 <= c && c < m,
            (Operand::Var(v), n) => self.bufs.bounded.iter().any(|&(b, m)| b == v && m == n),
            _ => false,
        }
    }

    /// The statements of `body` and its results, scalars or arrays (views).
    pub(crate) fn results(&mut self, body: &Body, out: &mut Vec<Stm>) -> Option<Vec<MapResult>> {
        for s in &body.stms {
            self.stm(s, out)?;
        }
        body.result
            .iter()
            .map(|r| match r {
                SubExp::Var(v) if self.views.contains_key(v) => Some(MapResult::Row(self.views[v].clone())),
                _ => self.operand(r).map(MapResult::Scalar),
            })
            .collect()
    }

    /// [`Self::results`] of statements that may not run in every iteration.
    pub(crate) fn nested_results(&mut self, body: &Body, out: &mut Vec<Stm>) -> Option<Vec<MapResult>> {
        let every = std::mem::replace(&mut self.every_iteration, false);
        let results = self.results(body, out);
        self.every_iteration = every;
        results
    }

    /// Lowers a statement that makes, updates or views arrays: `None` when
    /// it is none of those, `Some(None)` when it is one the kernel cannot
    /// do.
    pub(crate) fn array_stm(&mut self, s: &CStm, out: &mut Vec<Stm>) -> Option<Option<()>> {
        self.record(&s.pat);
        let first = s.pat.first();
        let array_pat = first.is_some_and(|p| is_array(&p.ty));
        Some(match &s.exp {
            CExp::SubExp(SubExp::Var(a)) if array_pat => self.view(*a).map(|v| {
                self.views.insert(s.pat[0].name, v);
            }),
            CExp::Index { array, slice } if array_pat => {
                if !s.attrs.unsafe_ {
                    return Some(None);
                }
                (|| {
                    let view = self.view(*array)?;
                    let v = self.sliced(&view, slice, out)?;
                    self.views.insert(s.pat[0].name, v);
                    Some(())
                })()
            }
            CExp::Iota { n, start, step, elem } if array_pat => {
                if !self.known_sizes(std::slice::from_ref(n)) {
                    return Some(None);
                }
                let input = Input::Iota { start: *start, step: *step, elem: *elem };
                self.bufs.virt.insert(s.pat[0].name, input);
                Some(())
            }
            CExp::Replicate { shape, .. } | CExp::Scratch { shape, .. } if array_pat && !self.known_sizes(shape) => {
                return Some(None);
            }
            CExp::Replicate { shape, value } if array_pat && s.attrs.virtual_ && shape.len() == 1 => {
                self.bufs.virt.insert(s.pat[0].name, Input::Replicate(*value));
                Some(())
            }
            CExp::Copy(a) => (|| {
                let p = first?;
                let dims = self.dims(&p.ty)?;
                let src = self.view(*a)?;
                let buf = self.buffer(p.name, p.ty.elem(), &dims)?;
                self.elementwise(&buf, &Elems::View(src), &dims, None, out)?;
                self.views.insert(p.name, buf);
                Some(())
            })(),
            CExp::Replicate { .. } | CExp::Scratch { .. } if array_pat => (|| {
                let p = first?;
                let dims = self.dims(&p.ty)?;
                let buf = self.buffer(p.name, p.ty.elem(), &dims)?;
                if let CExp::Replicate { value, .. } = &s.exp {
                    if !matches!(self.type_of_subexp(value)?, Type::Prim(_)) {
                        return None;
                    }
                    let x = self.operand(value)?;
                    self.elementwise(&buf, &Elems::Value(x), &dims, None, out)?;
                }
                self.views.insert(p.name, buf);
                Some(())
            })(),
            CExp::Update { array, slice, value } => {
                if !s.attrs.unsafe_ {
                    return Some(None);
                }
                self.update_in_place(s, *array, slice, value, None, false, out)
            }
            CExp::UpdAcc { acc, slice, value, op } => {
                // `#[unsafe]`: proven in bounds, nothing to test.
                self.update_in_place(s, *acc, slice, value, *op, !s.attrs.unsafe_, out)
            }
            CExp::Soac(Soac::WithAcc { w, arrs, accs, map }) => self.nested_withacc(s, w, arrs, accs, map, out),
            _ => return None,
        })
    }

    fn type_of_subexp(&self, se: &SubExp) -> Option<Type> {
        match se {
            SubExp::Const(c) => Some(Type::Prim(c.prim_type())),
            SubExp::Var(v) => self.type_of(*v),
        }
    }

    /// `array[slice] = value` (`op`: combined with the old elements), in
    /// the memory of `array`, which the statement consumes. With `skip`
    /// (an `updacc`), an update out of bounds writes nothing; otherwise
    /// the statement is `#[unsafe]`.
    #[allow(clippy::too_many_arguments)]
    fn update_in_place(
        &mut self,
        s: &CStm,
        array: VName,
        slice: &[DimIndex],
        value: &SubExp,
        op: Option<BinOp>,
        skip: bool,
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        let view = self.view(array)?;
        if !self.writable(view.ptr) {
            return None;
        }
        let ty = self.type_of(array)?;
        let shape = self.dims(&ty)?;
        // With `skip`, the conditions under which the update is in bounds.
        let mut conds = Vec::new();
        if skip {
            for (di, n) in slice.iter().zip(&shape) {
                match di {
                    DimIndex::Fix(i) => {
                        let i = self.operand(i)?;
                        if !self.known_below(i, *n) {
                            conds.push(self.in_range(i, *n, out));
                        }
                    }
                    // `len == 0 || (len > 0 && 0 <= start < n && len <= n - start)`.
                    DimIndex::Slice { start, len, stride } => {
                        if self.operand(stride)? != one() {
                            return None;
                        }
                        let (start, len) = (self.operand(start)?, self.operand(len)?);
                        let inside = self.in_range(start, *n, out);
                        let room = self.let_("room", I64, Exp::Bin(BinOp::Sub, I64, *n, start), out);
                        let fits = self.let_("fits", PrimType::Bool, Exp::Cmp(CmpOp::Le, I64, len, room), out);
                        let pos = self.let_("pos", PrimType::Bool, Exp::Cmp(CmpOp::Gt, I64, len, zero()), out);
                        let a = self.and(inside, fits, out);
                        let some = self.and(pos, a, out);
                        let none = self.let_("none", PrimType::Bool, Exp::Cmp(CmpOp::Eq, I64, len, zero()), out);
                        conds.push(self.let_(
                            "inside",
                            PrimType::Bool,
                            Exp::Bin(BinOp::LogOr, PrimType::Bool, none, some),
                            out,
                        ));
                    }
                }
            }
        }
        let mut update = Vec::new();
        let sub = self.sliced(&view, slice, &mut update)?;
        let src = match self.type_of_subexp(value)? {
            Type::Prim(_) => Elems::Value(self.operand(value)?),
            Type::Array { .. } => {
                let SubExp::Var(v) = value else { return None };
                Elems::View(self.view(*v)?)
            }
        };
        // The sizes of the part updated: a slice's lengths, then the
        // dimensions it does not name.
        let mut dims = Vec::new();
        for di in slice {
            if let DimIndex::Slice { len, .. } = di {
                dims.push(self.operand(len)?);
            }
        }
        dims.extend_from_slice(shape.get(slice.len()..)?);
        self.elementwise(&sub, &src, &dims, op, &mut update)?;
        let mut cond: Option<Operand> = None;
        for c in conds {
            cond = Some(match cond {
                None => c,
                Some(prev) => self.and(prev, c, out),
            });
        }
        match cond {
            None => out.extend(update),
            Some(cond) => out.push(Stm::If { cond, then_block: Block { stms: update }, else_block: Block::default() }),
        }
        self.views.insert(s.pat.first()?.name, view);
        Some(())
    }

    /// A `withacc` inside the function: a loop over its rows whose updates
    /// store into its accumulators' memory, its mapped scalars into
    /// buffers.
    fn nested_withacc(
        &mut self,
        s: &CStm,
        w: &SubExp,
        arrs: &[VName],
        accs: &[VName],
        map: &Lambda,
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        let n = accs.len();
        let width = self.operand(w)?;
        if map.params.len() != n + arrs.len() || s.pat.len() != map.ret.len() {
            return None;
        }
        let mut acc_views = Vec::new();
        for (a, p) in accs.iter().zip(&map.params) {
            let v = self.view(*a)?;
            if !self.writable(v.ptr) {
                return None;
            }
            self.views.insert(p.name, v.clone());
            acc_views.push(v);
        }
        self.record(&map.params);
        let bufs = self.mapped_buffers(&s.pat[n..], width)?;
        let i = self.k.fresh("j");
        let first = self.k.names.len();
        let mut body = Vec::new();
        self.rows(&map.params[n..], arrs, i, &mut body)?;
        self.bufs.bounded.push((i, width));
        let results = self.nested_results(&map.body, &mut body);
        self.bufs.bounded.pop();
        let results = results?;
        for (r, v) in results.iter().zip(&acc_views) {
            let MapResult::Row(rv) = r else { return None };
            if rv.ptr != v.ptr {
                return None;
            }
        }
        for ((r, buf), t) in results[n..].iter().zip(&bufs).zip(&map.ret[n..]) {
            self.store_row(buf, i, r, t, &mut body)?;
        }
        let ivdep = self.lanes_apart(&map.body, i, first);
        out.push(Stm::For { index: i, lo: zero(), hi: width, ivdep, body: Block { stms: body } });
        for (p, v) in s.pat.iter().zip(acc_views.into_iter().chain(bufs)) {
            self.views.insert(p.name, v);
        }
        Some(())
    }

    /// Whether the iterations of a nested `withacc`'s loop over lanes `i`
    /// (whose function is `body`, lowered already; the kernel's variables
    /// from `first` on were made for it) write different elements and
    /// read none another writes, so that the loop is `ivdep`: its
    /// function's own statements are scalar code, views and updates of
    /// single elements at `[…, i]` with the other indices the same in every
    /// iteration, and it makes no array (a buffer made inside is one for
    /// every lane). Its mapped results go to element `i` of their buffers,
    /// and an accumulator is never read, so nothing it writes is read.
    fn lanes_apart(&mut self, body: &Body, i: Var, first: usize) -> bool {
        for s in &body.stms {
            let ok = match &s.exp {
                CExp::UpdAcc { slice, value, .. } => {
                    let scalar = matches!(self.type_of_subexp(value), Some(Type::Prim(_)));
                    let mut idxs = Vec::new();
                    for d in slice {
                        match d {
                            DimIndex::Fix(x) => match self.operand(x) {
                                Some(o) => idxs.push(o),
                                None => return false,
                            },
                            DimIndex::Slice { .. } => return false,
                        }
                    }
                    let Some((last, rest)) = idxs.split_last() else { return false };
                    let invariant = |o: &Operand| match o {
                        Operand::Const(_) => true,
                        Operand::Var(v) => (v.0 as usize) < first || self.invariant(*o),
                    };
                    scalar && *last == Operand::Var(i) && rest.iter().all(invariant)
                }
                CExp::Index { .. } => true,
                CExp::Loop { .. } | CExp::If { .. } | CExp::Soac(_) => false,
                _ => s.pat.iter().all(|p| !is_array(&p.ty)),
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// Binds `params` to row `i` of `arrs` (or of their virtual elements).
    pub(crate) fn rows(
        &mut self,
        params: &[ogham_ir::Param],
        arrs: &[VName],
        i: Var,
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        if params.len() != arrs.len() {
            return None;
        }
        self.record(params);
        for p in params {
            self.bufs.sizes.extend(ogham_ir::visit::type_vars(&p.ty));
        }
        for (p, a) in params.iter().zip(arrs) {
            match &p.ty {
                Type::Prim(t) => {
                    let input = self.virtual_input(*a).unwrap_or(Input::Array(*a));
                    let x = self.row(&input, i, *t, out)?;
                    self.env.insert(p.name, x);
                }
                Type::Array { .. } => {
                    let view = self.view(*a)?;
                    let row = self.subview(&view, &[Operand::Var(i)], out)?;
                    self.views.insert(p.name, row);
                }
            }
        }
        Some(())
    }

    /// The buffers of a SOAC's mapped results (`pats`), one row per
    /// iteration.
    pub(crate) fn mapped_buffers(&mut self, pats: &[ogham_ir::Param], width: Operand) -> Option<Vec<View>> {
        pats.iter()
            .map(|p| {
                let mut dims = self.dims(&p.ty)?;
                *dims.first_mut()? = width;
                self.buffer(p.name, p.ty.elem(), &dims)
            })
            .collect()
    }

    /// Stores `r`, a mapped result of type `t`, at row `i` of `buf`.
    pub(crate) fn store_row(&mut self, buf: &View, i: Var, r: &MapResult, t: &Type, out: &mut Vec<Stm>) -> Option<()> {
        let row = self.subview(buf, &[Operand::Var(i)], out)?;
        let dims = self.dims(t)?;
        let src = match r {
            MapResult::Scalar(x) if dims.is_empty() => Elems::Value(*x),
            MapResult::Row(v) => Elems::View(v.clone()),
            MapResult::Scalar(_) => return None,
        };
        self.elementwise(&row, &src, &dims, None, out)
    }

    /// An array parameter of a loop: a view of its memory through the loop,
    /// filled from `init` (see the module documentation).
    pub(crate) fn loop_array_param(&mut self, p: &ogham_ir::Param, init: &SubExp, out: &mut Vec<Stm>) -> Option<View> {
        let SubExp::Var(a) = init else { return None };
        let v = self.view(*a)?;
        let is_acc = self.k.params.iter().any(|q| q.var == v.ptr && q.kind == ParamKind::Write);
        // A buffer made for `a`, or the buffer an enclosing loop's
        // parameter `a` owns, when `a` is used nowhere else: nothing else
        // names that memory (the enclosing loop's initial value was taken
        // over, and its result is bound after it).
        let whole = self.bufs.origin.get(&v.ptr) == Some(a) || self.bufs.owners.contains(a);
        let own = whole && v.offset == zero() && self.bufs.uses.get(a).copied().unwrap_or(0) == 1;
        if is_acc {
            return Some(v);
        }
        if own {
            self.bufs.owners.insert(p.name);
            return Some(v);
        }
        let dims = self.dims(&p.ty)?;
        let buf = self.buffer(p.name, p.ty.elem(), &dims)?;
        self.elementwise(&buf, &Elems::View(v), &dims, None, out)?;
        self.bufs.owners.insert(p.name);
        Some(buf)
    }

    /// At the end of a loop's iteration, the array parameters' memory gets
    /// the body's results (`params`: each parameter's view, `results` the
    /// body's, `types` the parameters'). Fails when a result is another
    /// parameter's memory (the copies would overwrite what they read) or a
    /// different view of an accumulator.
    pub(crate) fn loop_array_results(
        &mut self,
        params: &[(View, Type)],
        results: &[MapResult],
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        for (k, ((pv, ty), r)) in params.iter().zip(results).enumerate() {
            let MapResult::Row(rv) = r else { return None };
            let same = rv.ptr == pv.ptr && rv.offset == pv.offset && rv.strides == pv.strides;
            if same {
                continue;
            }
            let other_param = params.iter().enumerate().any(|(q, (v, _))| q != k && v.ptr == rv.ptr);
            let acc = self.k.params.iter().any(|q| q.var == pv.ptr && q.kind == ParamKind::Write);
            if other_param || acc || rv.ptr == pv.ptr {
                return None;
            }
            let dims = self.dims(ty)?;
            self.elementwise(pv, &Elems::View(rv.clone()), &dims, None, out)?;
        }
        Some(())
    }

    /// Marks `i` as lying in `[0, n)` while `f` runs.
    pub(crate) fn with_bound<T>(&mut self, i: Var, n: Operand, f: impl FnOnce(&mut Self) -> T) -> T {
        self.bufs.bounded.push((i, n));
        let r = f(self);
        self.bufs.bounded.pop();
        r
    }
}
