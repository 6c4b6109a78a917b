//! The intrinsics the prelude is written on (`intrinsics.map`, …): SOACs
//! with the function argument inlined into their lambdas, and the array
//! primitives. `zip`/`unzip` cost nothing: arrays of tuples already are
//! tuples of arrays.

use ogham_ir::builder::BodyBuilder;
use ogham_ir::{
    AdMode, BinOp, CmpOp, DimIndex, Exp, HistOp, Lambda, Operator, Param, PrimType, Soac, SubExp, Type as IrType, VName,
};
use ogham_syntax::Span;
use rustc_hash::FxHashSet as HashSet;

use crate::arith::Msg;
use crate::expr::{array_leaves, leaf};
use crate::types::array_type;
use crate::value::{RType, Val};
use crate::{internal, unsupported, Irregular, LResult, Lowerer};

/// The `not-supported-yet` message for a lambda whose result size is computed per row.
const IRREGULAR: &str =
    "an array-producing function whose result size is computed per element and not known outside (irregular)";

impl<'a> Lowerer<'a> {
    pub fn intrinsic(
        &mut self,
        b: &mut BodyBuilder,
        name: &str,
        ty: &RType,
        args: Vec<Val<'a>>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let mut args = args.into_iter();
        let mut next = || args.next().ok_or_else(|| internal(span, format!("intrinsics.{name}: missing argument")));
        match name {
            "map" => {
                let (f, xs) = (next()?, next()?);
                let expected = ty.result_after(2).cloned();
                self.map(b, &f, &[xs], expected.as_ref(), span)
            }
            "reduce" | "reduce_comm" | "scan" => {
                let (op, ne, xs) = (next()?, next()?, next()?);
                self.reduce_or_scan(b, &op, &ne, &xs, name == "scan", name == "reduce_comm", span)
            }
            "hist_1d" | "hist_2d" | "hist_3d" => {
                let (dest, op, ne, is, vs) = (next()?, next()?, next()?, next()?, next()?);
                let rank = (name.as_bytes()[5] - b'0') as usize;
                self.hist(b, rank, &dest, &op, &ne, &is, &vs, span)
            }
            "scatter" | "scatter_2d" | "scatter_3d" => {
                let (dest, is, vs) = (next()?, next()?, next()?);
                let rank = if name == "scatter" { 1 } else { (name.as_bytes()[8] - b'0') as usize };
                self.scatter(b, rank, &dest, &is, &vs, span)
            }
            "filter" => {
                let (p, xs) = (next()?, next()?);
                self.filter(b, &p, &xs, span)
            }
            "partition" => {
                let (k, f, xs) = (next()?, next()?, next()?);
                self.partition(b, &k, &f, &xs, span)
            }
            "zip" => {
                let (xs, ys) = (next()?, next()?);
                // The result is typed as fresh but shares its arrays with the
                // arguments: copy before anyone consumes it.
                for l in xs.leaves().into_iter().chain(ys.leaves()) {
                    if let SubExp::Var(v) = l {
                        self.shared.insert(v);
                    }
                }
                Ok(Val::tuple(vec![xs, ys]))
            }
            "unzip" => next(),
            "iota" => {
                let n = leaf(&next()?, span)?;
                let n = self.to_i64(b, n);
                let ty = IrType::Array { elem: PrimType::I64, shape: vec![n] };
                let exp = Exp::Iota { n, start: SubExp::i64(0), step: SubExp::i64(1), elem: PrimType::I64 };
                Ok(Val::Leaf(SubExp::Var(self.bind(b, "iota", ty, exp))))
            }
            "replicate" => {
                let (n, x) = (next()?, next()?);
                let n = leaf(&n, span)?;
                let n = self.to_i64(b, n);
                self.replicate(b, n, &x)
            }
            "copy" => {
                let x = next()?;
                let mut out = Vec::new();
                for l in x.leaves() {
                    out.push(match l {
                        SubExp::Var(v) if self.se_type(l).rank() > 0 => {
                            let t = self.se_type(l);
                            SubExp::Var(self.bind(b, "copy", t, Exp::Copy(v)))
                        }
                        other => other,
                    });
                }
                Ok(x.rebuild(&mut out.into_iter()))
            }
            "concat" => {
                let (xs, ys) = (next()?, next()?);
                let (xl, yl) = (array_leaves(&xs, span)?, array_leaves(&ys, span)?);
                let mut out = Vec::new();
                for (x, y) in xl.into_iter().zip(yl) {
                    let tx = self.se_type(SubExp::Var(x));
                    let ty = self.se_type(SubExp::Var(y));
                    let len = self.checked_add64(b, tx.shape()[0], ty.shape()[0]);
                    let mut shape = tx.shape().to_vec();
                    shape[0] = len;
                    let t = array_type(tx.elem(), shape);
                    out.push(SubExp::Var(self.bind(b, "concat", t, Exp::Concat { dim: 0, arrays: vec![x, y], len })));
                }
                Ok(xs.rebuild(&mut out.into_iter()))
            }
            "transpose" => {
                let xs = next()?;
                let mut out = Vec::new();
                for x in array_leaves(&xs, span)? {
                    let t = self.se_type(SubExp::Var(x));
                    let mut perm: Vec<usize> = (0..t.rank()).collect();
                    perm.swap(0, 1);
                    let mut shape = t.shape().to_vec();
                    shape.swap(0, 1);
                    let nt = array_type(t.elem(), shape);
                    out.push(SubExp::Var(self.bind(b, "tr", nt, Exp::Rearrange { array: x, perm })));
                }
                Ok(xs.rebuild(&mut out.into_iter()))
            }
            "flatten" => {
                let xs = next()?;
                let mut out = Vec::new();
                for x in array_leaves(&xs, span)? {
                    let t = self.se_type(SubExp::Var(x));
                    let nm = self.checked_mul64(b, t.shape()[0], t.shape()[1]);
                    let mut shape = vec![nm];
                    shape.extend_from_slice(&t.shape()[2..]);
                    let nt = array_type(t.elem(), shape.clone());
                    out.push(SubExp::Var(self.bind(b, "flat", nt, Exp::Reshape { array: x, shape })));
                }
                Ok(xs.rebuild(&mut out.into_iter()))
            }
            "unflatten" => {
                let xs = next()?;
                let outer = ty.result_after(1).map(|t| t.shape().to_vec()).unwrap_or_default();
                let leaves = array_leaves(&xs, span)?;
                let Some(first) = leaves.first() else { return Ok(xs) };
                let total = self.se_type(SubExp::Var(*first)).shape()[0];
                let (n, m) = match (outer.first().copied().flatten(), outer.get(1).copied().flatten()) {
                    (Some(n), Some(m)) => (n, m),
                    (Some(n), None) => (n, self.binop(b, BinOp::Quot, PrimType::I64, total, n)),
                    (None, Some(m)) => (self.binop(b, BinOp::Quot, PrimType::I64, total, m), m),
                    (None, None) => return Err(unsupported(span, "unflatten to sizes that are not known here")),
                };
                // Futhark's check and message (the reshape checks again).
                let nm = self.mul64(b, n, m);
                let same = self.cmp(b, CmpOp::Eq, PrimType::I64, total, nm);
                let n_ok = self.cmp(b, CmpOp::Ge, PrimType::I64, n, SubExp::i64(0));
                let m_ok = self.cmp(b, CmpOp::Ge, PrimType::I64, m, SubExp::i64(0));
                let ok = self.and(b, n_ok, m_ok);
                let ok = self.and(b, same, ok);
                let mut msg = Msg::default();
                msg.text("Cannot unflatten array of shape [");
                msg.val(total);
                msg.text("] to array of shape [");
                msg.val(n);
                msg.text("][");
                msg.val(m);
                msg.text("]");
                self.assert_msg(b, ok, msg);
                let mut out = Vec::new();
                for x in leaves {
                    let t = self.se_type(SubExp::Var(x));
                    let mut shape = vec![n, m];
                    shape.extend_from_slice(&t.shape()[1..]);
                    let nt = array_type(t.elem(), shape.clone());
                    out.push(SubExp::Var(self.bind(b, "unflat", nt, Exp::Reshape { array: x, shape })));
                }
                Ok(xs.rebuild(&mut out.into_iter()))
            }
            "rotate" => {
                let (r, xs) = (next()?, next()?);
                let r = leaf(&r, span)?;
                let r = self.to_i64(b, r);
                self.rotate(b, r, &xs, span)
            }
            "jvp2" | "vjp2" | "jmp2" | "mjp2" => {
                let (f, x, seed) = (next()?, next()?, next()?);
                let mode = match name {
                    "jvp2" => AdMode::Jvp,
                    "vjp2" => AdMode::Vjp,
                    "jmp2" => AdMode::Jmp,
                    _ => AdMode::Mjp,
                };
                self.ad(b, mode, &f, &x, &seed, span)
            }
            "scatter_stream" => {
                let (dest, f, bs) = (next()?, next()?, next()?);
                self.acc_stream(b, &dest, None, &f, &bs, span)
            }
            "hist_stream" => {
                let (dest, op, ne, f, bs) = (next()?, next()?, next()?, next()?, next()?);
                self.acc_stream(b, &dest, Some((&op, &ne)), &f, &bs, span)
            }
            "acc_write" => {
                let (acc, i, v) = (next()?, next()?, next()?);
                self.acc_write(b, &acc, &i, &v, span)
            }
            "with_vjp" => {
                let (f, df, x) = (next()?, next()?, next()?);
                self.with_vjp(b, &f, &df, &x, span)
            }
            _ => Err(unsupported(span, format!("the intrinsic {name}"))),
        }
    }

    /// `jvp2 f x seed` (or `vjp2`): `f` applied to parameters for the
    /// leaves of `x` as the lambda of an [`Exp::Ad`], whose results are
    /// `f x` and the derivative (of `f x`'s shape in forward mode, of
    /// `x`'s in reverse mode).
    fn ad(
        &mut self,
        b: &mut BodyBuilder,
        mode: AdMode,
        f: &Val<'a>,
        x: &Val<'a>,
        seed: &Val<'a>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let params: Vec<Param> = x
            .leaves()
            .into_iter()
            .map(|l| self.se_type(l))
            .collect::<Vec<_>>()
            .into_iter()
            .map(|t| self.param("x", t))
            .collect();
        let arg = x.rebuild(&mut params.iter().map(|p| SubExp::Var(p.name)));
        let (lambda, primal) = match self.lambda_from(b, f, params.clone(), vec![arg.clone()], None, span) {
            // Sizes `f` computes (`xs ++ xs`, a `flatmap`) are those of
            // `f x`, which the lambda computes too: they are computed once
            // outside it (only what the sizes need survives dead-code
            // elimination) and the lambda's results checked against them.
            Err(d) if d.message == IRREGULAR => {
                let outside = self.apply(b, f.clone(), vec![x.clone()], span)?;
                let shapes = outside
                    .leaves()
                    .into_iter()
                    .map(|l| Some(self.se_type(l).shape().iter().map(|d| Some(*d)).collect()))
                    .collect();
                self.lambda_with_shapes(b, f, params, vec![arg], shapes, span)?
            }
            other => other?,
        };
        let mut tys = lambda.ret.clone();
        // The vector forms' derivatives are arrays of as many as there
        // are seeds (rows of every leaf of the seed).
        let rows = match mode {
            AdMode::Jmp | AdMode::Mjp => match seed.leaves().first() {
                Some(s) => Some(self.se_type(*s).shape()[0]),
                None => return Err(unsupported(span, "`jmp`/`mjp` of a function of no values")),
            },
            _ => None,
        };
        let of = |t: &IrType| match rows {
            Some(k) => t.array_of(k),
            None => t.clone(),
        };
        let derivative = match mode {
            AdMode::Jvp | AdMode::Jmp => {
                tys.extend(lambda.ret.iter().map(of));
                &primal
            }
            AdMode::Vjp | AdMode::Mjp => {
                tys.extend(lambda.params.iter().map(|p| of(&p.ty)));
                x
            }
            AdMode::CustomVjp => return Err(unsupported(span, "a custom derivative as `jvp2` or `vjp2`")),
        };
        let k = lambda.ret.len();
        let exp = Exp::Ad { mode, lambda, args: x.leaves(), seeds: seed.leaves() };
        let names = self.bind_many(b, "ad", tys, exp);
        let mut values = names.into_iter().map(SubExp::Var);
        let first = primal.rebuild(&mut values.by_ref().take(k));
        let second = derivative.rebuild(&mut values);
        // A sum value's (co)tangent has its primal's constructor (the
        // derivative's tag, an integer, is zero): the result's in forward
        // mode, the argument's in reverse mode; one per seed in the vector
        // forms.
        let like = if matches!(mode, AdMode::Jvp | AdMode::Jmp) { &first } else { x };
        let second = second.with_tags_of(like, &mut |t| match rows {
            Some(k) => {
                let ty = self.se_type(t).array_of(k);
                SubExp::Var(self.bind(b, "tags", ty, Exp::Replicate { shape: vec![k], value: t }))
            }
            None => t,
        });
        Ok(Val::tuple(vec![first, second]))
    }

    /// `with_vjp f f' x`: one lambda computing `f x` from the leaves of
    /// `x`, then `f' (f x) ȳ` for adjoints `ȳ` given as further
    /// parameters (see [`AdMode::CustomVjp`]); the statement binds `f x`.
    fn with_vjp(
        &mut self,
        b: &mut BodyBuilder,
        f: &Val<'a>,
        df: &Val<'a>,
        x: &Val<'a>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let types: Vec<_> = x.leaves().into_iter().map(|l| self.se_type(l)).collect();
        let params: Vec<Param> = types.iter().map(|t| self.param("x", t.clone())).collect();
        let arg = x.rebuild(&mut params.iter().map(|p| SubExp::Var(p.name)));
        let (primal, res) = self.lambda_from(b, f, params, vec![arg], None, span)?;
        let res_params: Vec<Param> = primal.ret.iter().map(|t| self.param("res", t.clone())).collect();
        let bar_params: Vec<Param> = primal.ret.iter().map(|t| self.param("res_adj", t.clone())).collect();
        let res_val = res.rebuild(&mut res_params.iter().map(|p| SubExp::Var(p.name)));
        let bar_val = res.rebuild(&mut bar_params.iter().map(|p| SubExp::Var(p.name)));
        let mut both = res_params.clone();
        both.extend(bar_params.iter().cloned());
        let (adjoint, _) = self.lambda_from(b, df, both, vec![res_val, bar_val], None, span)?;
        if adjoint.ret.len() != types.len() {
            return Err(unsupported(span, "a custom derivative whose result is not of the argument's type"));
        }
        let k = primal.ret.len();
        let mut stms = primal.body.stms;
        for (p, r) in res_params.iter().zip(&primal.body.result) {
            stms.push(ogham_ir::Stm { pat: vec![p.clone()], exp: Exp::SubExp(*r), attrs: Default::default(), span });
        }
        stms.extend(adjoint.body.stms);
        let mut result = primal.body.result;
        result.extend(adjoint.body.result);
        let mut lparams = primal.params;
        lparams.extend(bar_params);
        let mut ret = primal.ret.clone();
        ret.extend(types);
        let lambda = Lambda { params: lparams, body: ogham_ir::Body { stms, result }, ret };
        let exp = Exp::Ad { mode: AdMode::CustomVjp, lambda, args: x.leaves(), seeds: vec![] };
        let names = self.bind_many(b, "custom", primal.ret[..k].to_vec(), exp);
        Ok(res.rebuild(&mut names.into_iter().map(SubExp::Var)))
    }

    /// Lowers `f` applied to one row of each of `inputs` as a lambda. Result
    /// dimensions computed inside the lambda are replaced by `expected_rows`
    /// (the checker's row type) so the lambda's type is expressible outside.
    fn row_lambda(
        &mut self,
        b: &BodyBuilder,
        f: &Val<'a>,
        inputs: &[Val<'a>],
        expected_rows: Option<&RType>,
        span: Span,
    ) -> LResult<(Lambda, Val<'a>)> {
        let mut params = Vec::new();
        let mut rows = Vec::new();
        for input in inputs {
            let mut ps = Vec::new();
            for l in input.leaves() {
                let t = self.se_type(l).row();
                ps.push(self.param("row", t));
            }
            rows.push(input.rebuild(&mut ps.iter().map(|p| SubExp::Var(p.name))));
            params.extend(ps);
        }
        self.lambda_from(b, f, params, rows, expected_rows, span)
    }

    /// A lambda with the given parameters whose body applies `f` to `args`.
    pub(crate) fn lambda_from(
        &mut self,
        b: &BodyBuilder,
        f: &Val<'a>,
        params: Vec<Param>,
        args: Vec<Val<'a>>,
        expected: Option<&RType>,
        span: Span,
    ) -> LResult<(Lambda, Val<'a>)> {
        let mut shapes = Vec::new();
        if let Some(t) = expected {
            Self::leaf_shapes(t, &[], &mut shapes);
        }
        let shapes = shapes.into_iter().map(|(_, s)| Some(s)).collect();
        self.lambda_with_shapes(b, f, params, args, shapes, span)
    }

    /// [`Self::lambda_from`] with the expected shapes of the result's leaves
    /// given directly (all of them, or they are ignored).
    pub(crate) fn lambda_with_shapes(
        &mut self,
        b: &BodyBuilder,
        f: &Val<'a>,
        params: Vec<Param>,
        args: Vec<Val<'a>>,
        shapes: Vec<Option<Vec<Option<SubExp>>>>,
        span: Span,
    ) -> LResult<(Lambda, Val<'a>)> {
        // The mode is for this lambda's own results, not for SOACs inside `f`.
        let mut mode = std::mem::take(&mut self.irregular);
        let mut lb = self.sub_builder(b);
        let r = self.apply(&mut lb, f.clone(), args, span)?;
        if r.has_fun() {
            return Err(unsupported(span, "an array of functions"));
        }
        let results = r.leaves();
        let expected_shapes = if shapes.len() == results.len() { shapes } else { vec![None; results.len()] };
        let results = self.fix_result_shapes(&mut lb, &params, results, &expected_shapes, &mut mode, span)?;
        self.irregular = mode;
        let ret = results.iter().map(|x| self.se_type(*x)).collect();
        let body = lb.finish(results.clone());
        Ok((Lambda { params, body, ret }, r.rebuild(&mut results.into_iter())))
    }

    /// Makes the shapes of a lambda body's results independent of names
    /// bound inside the lambda, reshaping (checked) to the expected sizes.
    fn fix_result_shapes(
        &mut self,
        lb: &mut BodyBuilder,
        params: &[Param],
        results: Vec<SubExp>,
        expected: &[Option<Vec<Option<SubExp>>>],
        mode: &mut Irregular,
        span: Span,
    ) -> LResult<Vec<SubExp>> {
        let inner: HashSet<VName> =
            lb.stms.iter().flat_map(|s| s.pat.iter().map(|p| p.name)).chain(params.iter().map(|p| p.name)).collect();
        let mut out = Vec::with_capacity(results.len());
        for (i, r) in results.into_iter().enumerate() {
            let t = self.se_type(r);
            let bad = t.shape().iter().any(|d| matches!(d, SubExp::Var(v) if inner.contains(v)));
            if !bad {
                out.push(r);
                continue;
            }
            let want = expected.get(i).cloned().flatten().unwrap_or_default();
            let mut shape = Vec::with_capacity(t.rank());
            for (k, d) in t.shape().iter().enumerate() {
                match (d, want.get(k).copied().flatten()) {
                    (SubExp::Var(v), Some(w))
                        if inner.contains(v) && !matches!(w, SubExp::Var(x) if inner.contains(&x)) =>
                    {
                        let ok = self.cmp(lb, CmpOp::Eq, PrimType::I64, *d, w);
                        self.assert(lb, ok, "Function result does not have the size its type promises.");
                        shape.push(w);
                    }
                    (SubExp::Var(v), _) if inner.contains(v) => match mode {
                        Irregular::Fail => return Err(unsupported(span, IRREGULAR)),
                        Irregular::Probe(found) => {
                            found.push(*d);
                            shape.push(*d);
                        }
                        Irregular::Use(sizes) => {
                            let Some(w) = sizes.pop_front() else {
                                return Err(internal(span, "irregular map: fewer row sizes than in the first pass"));
                            };
                            let ok = self.cmp(lb, CmpOp::Eq, PrimType::I64, *d, w);
                            self.assert(
                                lb,
                                ok,
                                "Irregular array: the rows produced by this function do not all have the same size.",
                            );
                            shape.push(w);
                        }
                    },
                    _ => shape.push(*d),
                }
            }
            let SubExp::Var(arr) = r else { return Err(internal(span, "reshaping a scalar")) };
            let nt = array_type(t.elem(), shape.clone());
            out.push(SubExp::Var(self.bind(lb, "sized", nt, Exp::Reshape { array: arr, shape })));
        }
        Ok(out)
    }

    /// `map f xs…` over arrays of the same outer size.
    pub fn map(
        &mut self,
        b: &mut BodyBuilder,
        f: &Val<'a>,
        inputs: &[Val<'a>],
        expected: Option<&RType>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let w = self.outer_size(&inputs[0], expected, span)?;
        let expected_row = expected.map(RType::row);
        let (lam, template) = match self.row_lambda(b, f, inputs, expected_row.as_ref(), span) {
            Err(d) if d.message == IRREGULAR => {
                self.irregular_row_lambda(b, f, inputs, w, expected_row.as_ref(), span)?
            }
            other => other?,
        };
        let mut arrs = Vec::new();
        for input in inputs {
            arrs.extend(array_leaves(input, span)?);
        }
        let tys: Vec<IrType> = lam.ret.iter().map(|t| t.array_of(w)).collect();
        let exp = Exp::Soac(Soac::Screma { w, arrs, scans: Vec::new(), reduces: Vec::new(), map: lam });
        let names = self.bind_many(b, "map", tys, exp);
        Ok(template.rebuild(&mut names.into_iter().map(SubExp::Var)))
    }

    /// The lambda of a `map` whose rows are arrays with a size computed per
    /// row. Futhark accepts such a map when all rows agree at run time, so
    /// a first pass computes every row's sizes and their maximum, and the
    /// real lambda checks each row against that maximum (all rows equal it
    /// exactly when they are all equal).
    fn irregular_row_lambda(
        &mut self,
        b: &mut BodyBuilder,
        f: &Val<'a>,
        inputs: &[Val<'a>],
        w: SubExp,
        expected_row: Option<&RType>,
        span: Span,
    ) -> LResult<(Lambda, Val<'a>)> {
        self.irregular = Irregular::Probe(Vec::new());
        let probe = self.row_lambda(b, f, inputs, expected_row, span);
        let found = match std::mem::take(&mut self.irregular) {
            Irregular::Probe(found) => found,
            _ => Vec::new(),
        };
        let (mut probe, _) = probe?;
        let i64t = IrType::Prim(PrimType::I64);
        probe.body.result = found.clone();
        probe.ret = vec![i64t.clone(); found.len()];
        let reduces = found
            .iter()
            .map(|_| Operator {
                lambda: self.binop_lambda(BinOp::Max, PrimType::I64, i64t.clone()),
                neutral: vec![SubExp::i64(0)],
                commutative: true,
            })
            .collect();
        let mut arrs = Vec::new();
        for input in inputs {
            arrs.extend(array_leaves(input, span)?);
        }
        let sizes = self.bind_many(
            b,
            "row_size",
            vec![i64t; found.len()],
            Exp::Soac(Soac::Screma { w, arrs, scans: Vec::new(), reduces, map: probe }),
        );
        self.irregular = Irregular::Use(sizes.into_iter().map(SubExp::Var).collect());
        let lam = self.row_lambda(b, f, inputs, expected_row, span);
        self.irregular = Irregular::Fail;
        lam
    }

    /// The outer size of an array value (from its leaves, else from its type).
    pub(crate) fn outer_size(&self, v: &Val<'a>, t: Option<&RType>, span: Span) -> LResult<SubExp> {
        if let Some(l) = v.leaves().first() {
            if let Some(d) = self.se_type(*l).shape().first() {
                return Ok(*d);
            }
        }
        t.and_then(|t| t.shape().first().copied().flatten())
            .ok_or_else(|| unsupported(span, "an array whose elements carry no data and whose size is unknown"))
    }

    /// The operator lambda for `op`: accumulated values first, then new ones.
    pub(crate) fn operator(
        &mut self,
        b: &BodyBuilder,
        op: &Val<'a>,
        ne: &Val<'a>,
        row_types: &[IrType],
        span: Span,
    ) -> LResult<Lambda> {
        let ne_leaves = ne.leaves();
        let acc: Vec<Param> = ne_leaves
            .iter()
            .map(|l| self.se_type(*l))
            .collect::<Vec<_>>()
            .into_iter()
            .map(|t| self.param("acc", t))
            .collect();
        let new: Vec<Param> = row_types.iter().map(|t| self.param("x", t.clone())).collect();
        let acc_v = ne.rebuild(&mut acc.iter().map(|p| SubExp::Var(p.name)));
        let new_v = ne.rebuild(&mut new.iter().map(|p| SubExp::Var(p.name)));
        let mut params = acc.clone();
        params.extend(new);
        let ne_shapes: Vec<Option<Vec<Option<SubExp>>>> =
            acc.iter().map(|p| Some(p.ty.shape().iter().map(|d| Some(*d)).collect())).collect();
        let mut lb = self.sub_builder(b);
        let r = self.apply(&mut lb, op.clone(), vec![acc_v, new_v], span)?;
        let results = self.fix_result_shapes(&mut lb, &params, r.leaves(), &ne_shapes, &mut Irregular::Fail, span)?;
        let ret = acc.iter().map(|p| p.ty.clone()).collect();
        Ok(Lambda { params, body: lb.finish(results), ret })
    }

    #[allow(clippy::too_many_arguments)]
    fn reduce_or_scan(
        &mut self,
        b: &mut BodyBuilder,
        op: &Val<'a>,
        ne: &Val<'a>,
        xs: &Val<'a>,
        scan: bool,
        commutative: bool,
        span: Span,
    ) -> LResult<Val<'a>> {
        let w = self.outer_size(xs, None, span)?;
        let arrs = array_leaves(xs, span)?;
        let row_types: Vec<IrType> = arrs.iter().map(|a| self.types[a].row()).collect();
        let lambda = self.operator(b, op, ne, &row_types, span)?;
        let neutral = ne.leaves();
        let map = self.identity_lambda(row_types.clone());
        let ne_types: Vec<IrType> = neutral.iter().map(|l| self.se_type(*l)).collect();
        let operator = Operator { lambda, neutral, commutative };
        let (scans, reduces, tys) = if scan {
            (vec![operator], Vec::new(), ne_types.iter().map(|t| t.array_of(w)).collect())
        } else {
            (Vec::new(), vec![operator], ne_types)
        };
        let names = self.bind_many(
            b,
            if scan { "scan" } else { "red" },
            tys,
            Exp::Soac(Soac::Screma { w, arrs, scans, reduces, map }),
        );
        Ok(ne.rebuild(&mut names.into_iter().map(SubExp::Var)))
    }

    #[allow(clippy::too_many_arguments)]
    fn hist(
        &mut self,
        b: &mut BodyBuilder,
        rank: usize,
        dest: &Val<'a>,
        op: &Val<'a>,
        ne: &Val<'a>,
        is: &Val<'a>,
        vs: &Val<'a>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let is_arrs = array_leaves(is, span)?;
        let vs_arrs = array_leaves(vs, span)?;
        let w = self.outer_size(is, None, span)?;
        if array_leaves(dest, span)?.is_empty() {
            // Values without data (`()`): every bin stays what it was.
            return Ok(dest.clone());
        }
        let dest_arrs: Vec<VName> = array_leaves(dest, span)?.into_iter().map(|d| self.consumable(b, d)).collect();
        let dest_t = self
            .types
            .get(dest_arrs.first().ok_or_else(|| unsupported(span, "a histogram of values without data"))?)
            .cloned();
        let shape = dest_t.map(|t| t.shape()[..rank].to_vec()).unwrap_or_default();
        let value_types: Vec<IrType> = vs_arrs.iter().map(|a| self.types[a].row()).collect();
        let lambda = self.operator(b, op, ne, &value_types, span)?;
        let neutral = ne.leaves();
        let mut row_types: Vec<IrType> = is_arrs.iter().map(|a| self.types[a].row()).collect();
        row_types.extend(value_types);
        let map = self.identity_lambda(row_types);
        let tys: Vec<IrType> = dest_arrs.iter().map(|d| self.types[d].clone()).collect();
        let mut arrs = is_arrs;
        arrs.extend(vs_arrs);
        let hop = HistOp { shape, dests: dest_arrs, op: Operator { lambda, neutral, commutative: true } };
        let names = self.bind_many(b, "hist", tys, Exp::Soac(Soac::Hist { w, arrs, ops: vec![hop], map }));
        Ok(dest.rebuild(&mut names.into_iter().map(SubExp::Var)))
    }

    fn scatter(
        &mut self,
        b: &mut BodyBuilder,
        rank: usize,
        dest: &Val<'a>,
        is: &Val<'a>,
        vs: &Val<'a>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let is_arrs = array_leaves(is, span)?;
        let vs_arrs = array_leaves(vs, span)?;
        let w = self.outer_size(is, None, span)?;
        if array_leaves(dest, span)?.is_empty() {
            // Values without data (`()`): every bin stays what it was.
            return Ok(dest.clone());
        }
        let dest_arrs: Vec<VName> = array_leaves(dest, span)?.into_iter().map(|d| self.consumable(b, d)).collect();
        if is_arrs.len() != rank || vs_arrs.len() != dest_arrs.len() {
            return Err(internal(span, "scatter arguments of mismatched structure"));
        }
        let idx_params: Vec<Param> = is_arrs
            .iter()
            .map(|a| self.types[a].row())
            .collect::<Vec<_>>()
            .into_iter()
            .map(|t| self.param("i", t))
            .collect();
        let val_params: Vec<Param> = vs_arrs
            .iter()
            .map(|a| self.types[a].row())
            .collect::<Vec<_>>()
            .into_iter()
            .map(|t| self.param("v", t))
            .collect();
        let mut result = Vec::new();
        let mut ret = Vec::new();
        for vp in &val_params {
            for ip in &idx_params {
                result.push(SubExp::Var(ip.name));
                ret.push(IrType::Prim(PrimType::I64));
            }
            result.push(SubExp::Var(vp.name));
            ret.push(vp.ty.clone());
        }
        let mut params = idx_params;
        params.extend(val_params);
        let map = Lambda { params, body: ogham_ir::Body { stms: Vec::new(), result }, ret };
        let tys: Vec<IrType> = dest_arrs.iter().map(|d| self.types[d].clone()).collect();
        let mut arrs = is_arrs;
        arrs.extend(vs_arrs);
        let names = self.bind_many(b, "scatter", tys, Exp::Soac(Soac::Scatter { w, arrs, dests: dest_arrs, map }));
        Ok(dest.rebuild(&mut names.into_iter().map(SubExp::Var)))
    }

    /// `replicate n x`, leaf by leaf.
    pub fn replicate(&mut self, b: &mut BodyBuilder, n: SubExp, x: &Val<'a>) -> LResult<Val<'a>> {
        let mut out = Vec::new();
        for l in x.leaves() {
            let t = self.se_type(l).array_of(n);
            out.push(SubExp::Var(self.bind(b, "rep", t, Exp::Replicate { shape: vec![n], value: l })));
        }
        Ok(x.rebuild(&mut out.into_iter()))
    }

    /// A real parallel filter: flags and their prefix sum in one scan, the
    /// count from the last offset, then a scatter into a fresh array.
    fn filter(&mut self, b: &mut BodyBuilder, p: &Val<'a>, xs: &Val<'a>, span: Span) -> LResult<Val<'a>> {
        let w = self.outer_size(xs, None, span)?;
        let arrs = array_leaves(xs, span)?;
        // map: row -> (flag, flag) feeding a (+)-scan and a mapped copy.
        let (mut lam, flag) = self.row_lambda(b, p, std::slice::from_ref(xs), None, span)?;
        let flag = leaf(&flag, span)?;
        let mut lb = BodyBuilder { stms: std::mem::take(&mut lam.body.stms), span: b.span, attrs: b.attrs };
        let flag64 = self.convert(&mut lb, PrimType::Bool, PrimType::I64, flag);
        lam.body = lb.finish(vec![flag64, flag64]);
        lam.ret = vec![IrType::Prim(PrimType::I64), IrType::Prim(PrimType::I64)];
        let plus = self.binop_lambda(BinOp::Add, PrimType::I64, IrType::Prim(PrimType::I64));
        let scan = Operator { lambda: plus, neutral: vec![SubExp::i64(0)], commutative: false };
        let arr_t = IrType::Array { elem: PrimType::I64, shape: vec![w] };
        let names = self.bind_many(
            b,
            "filt",
            vec![arr_t.clone(), arr_t],
            Exp::Soac(Soac::Screma { w, arrs: arrs.clone(), scans: vec![scan], reduces: Vec::new(), map: lam }),
        );
        let (offsets, flags) = (names[0], names[1]);
        let count = self.last_or_zero(b, offsets, w)?;
        self.scatter_selected(b, xs, &arrs, offsets, flags, w, count, span)
    }

    /// `offsets[w-1]`, or 0 when `w` is 0.
    fn last_or_zero(&mut self, b: &mut BodyBuilder, offsets: VName, w: SubExp) -> LResult<SubExp> {
        let empty = self.cmp(b, CmpOp::Eq, PrimType::I64, w, SubExp::i64(0));
        let tb = self.sub_builder(b);
        let mut eb = self.sub_builder(b);
        let last = self.sub64(&mut eb, w, SubExp::i64(1));
        let x = self.bind(
            &mut eb,
            "count",
            IrType::Prim(PrimType::I64),
            Exp::Index { array: offsets, slice: vec![DimIndex::Fix(last)] },
        );
        let v = self.merge_if(b, empty, tb, Val::Leaf(SubExp::i64(0)), eb, Val::Leaf(SubExp::Var(x)))?;
        match v {
            Val::Leaf(se) => Ok(se),
            _ => Err(internal(b.span, "filter count")),
        }
    }

    /// Scatters the rows whose flag is 1 to position `offset-1` of fresh arrays of `count` rows.
    #[allow(clippy::too_many_arguments)]
    fn scatter_selected(
        &mut self,
        b: &mut BodyBuilder,
        xs: &Val<'a>,
        arrs: &[VName],
        offsets: VName,
        flags: VName,
        w: SubExp,
        count: SubExp,
        span: Span,
    ) -> LResult<Val<'a>> {
        let mut dests = Vec::new();
        for a in arrs {
            let t = self.types[a].clone();
            let mut shape = t.shape().to_vec();
            shape[0] = count;
            let nt = array_type(t.elem(), shape.clone());
            dests.push(self.bind(b, "dest", nt, Exp::Scratch { elem: t.elem(), shape }));
        }
        let off = self.param("off", IrType::Prim(PrimType::I64));
        let flag = self.param("flag", IrType::Prim(PrimType::I64));
        let rows: Vec<Param> = arrs
            .iter()
            .map(|a| self.types[a].row())
            .collect::<Vec<_>>()
            .into_iter()
            .map(|t| self.param("row", t))
            .collect();
        let mut lb = self.sub_builder(b);
        // flag 1: offset-1; flag 0: -1 (ignored as out of range).
        let prod = self.mul64(&mut lb, SubExp::Var(flag.name), SubExp::Var(off.name));
        let idx = self.sub64(&mut lb, prod, SubExp::i64(1));
        let mut result = Vec::new();
        let mut ret = Vec::new();
        for r in &rows {
            result.push(idx);
            ret.push(IrType::Prim(PrimType::I64));
            result.push(SubExp::Var(r.name));
            ret.push(r.ty.clone());
        }
        let mut params = vec![off, flag];
        params.extend(rows);
        let map = Lambda { params, body: lb.finish(result), ret };
        let tys: Vec<IrType> = dests.iter().map(|d| self.types[d].clone()).collect();
        let mut in_arrs = vec![offsets, flags];
        in_arrs.extend_from_slice(arrs);
        let names = self.bind_many(b, "filtered", tys, Exp::Soac(Soac::Scatter { w, arrs: in_arrs, dests, map }));
        let _ = span;
        Ok(xs.rebuild(&mut names.into_iter().map(SubExp::Var)))
    }

    /// Stable partition into `k` classes: per-class counts by a histogram,
    /// class starts by a scan, and each element's rank within its class by
    /// one flag scan per class (a loop over the classes).
    fn partition(
        &mut self,
        b: &mut BodyBuilder,
        k: &Val<'a>,
        f: &Val<'a>,
        xs: &Val<'a>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let k = leaf(k, span)?;
        let k = self.to_i64(b, k);
        let w = self.outer_size(xs, None, span)?;
        let arrs = array_leaves(xs, span)?;
        let i64t = IrType::Prim(PrimType::I64);
        // Class of every element.
        let (lam, class) = self.row_lambda(b, f, std::slice::from_ref(xs), None, span)?;
        let class_t = self.se_type(leaf(&class, span)?).elem();
        let mut lam = lam;
        let mut lb = BodyBuilder { stms: std::mem::take(&mut lam.body.stms), span: b.span, attrs: b.attrs };
        let c64 = self.convert(&mut lb, class_t, PrimType::I64, lam.body.result[0]);
        lam.body = lb.finish(vec![c64]);
        lam.ret = vec![i64t.clone()];
        let classes_t = IrType::Array { elem: PrimType::I64, shape: vec![w] };
        let classes = self.bind(
            b,
            "class",
            classes_t.clone(),
            Exp::Soac(Soac::Screma { w, arrs: arrs.clone(), scans: vec![], reduces: vec![], map: lam }),
        );
        // Counts per class (out-of-range classes are ignored by the histogram).
        let k_t = IrType::Array { elem: PrimType::I64, shape: vec![k] };
        let zeros = self.bind(b, "zeros", k_t.clone(), Exp::Replicate { shape: vec![k], value: SubExp::i64(0) });
        let ones = self.bind(b, "ones", classes_t.clone(), Exp::Replicate { shape: vec![w], value: SubExp::i64(1) });
        let plus = self.binop_lambda(BinOp::Add, PrimType::I64, i64t.clone());
        let map = self.identity_lambda(vec![i64t.clone(), i64t.clone()]);
        let hop = HistOp {
            shape: vec![k],
            dests: vec![zeros],
            op: Operator { lambda: plus, neutral: vec![SubExp::i64(0)], commutative: true },
        };
        let counts = self.bind(
            b,
            "counts",
            k_t.clone(),
            Exp::Soac(Soac::Hist { w, arrs: vec![classes, ones], ops: vec![hop], map }),
        );
        // Inclusive scan of counts; start of class j = incl[j] - counts[j].
        let plus = self.binop_lambda(BinOp::Add, PrimType::I64, i64t.clone());
        let idmap = self.identity_lambda(vec![i64t.clone()]);
        let incl = self.bind(
            b,
            "incl",
            k_t.clone(),
            Exp::Soac(Soac::Screma {
                w: k,
                arrs: vec![counts],
                scans: vec![Operator { lambda: plus, neutral: vec![SubExp::i64(0)], commutative: false }],
                reduces: vec![],
                map: idmap,
            }),
        );
        // Loop over classes, filling in each element's destination.
        let minus1 = self.bind(b, "pos0", classes_t.clone(), Exp::Replicate { shape: vec![w], value: SubExp::i64(-1) });
        let j = self.names.fresh("j");
        self.types.insert(j, i64t.clone());
        let pos_p = self.param("pos", classes_t.clone());
        let mut lb = self.sub_builder(b);
        let jv = SubExp::Var(j);
        let inc_j =
            self.bind(&mut lb, "incj", i64t.clone(), Exp::Index { array: incl, slice: vec![DimIndex::Fix(jv)] });
        let cnt_j =
            self.bind(&mut lb, "cntj", i64t.clone(), Exp::Index { array: counts, slice: vec![DimIndex::Fix(jv)] });
        let start_j = self.sub64(&mut lb, SubExp::Var(inc_j), SubExp::Var(cnt_j));
        // Flags of class j, scanned.
        let c = self.param("c", i64t.clone());
        let mut fb = self.sub_builder(b);
        let is_j = self.cmp(&mut fb, CmpOp::Eq, PrimType::I64, SubExp::Var(c.name), jv);
        let fl = self.convert(&mut fb, PrimType::Bool, PrimType::I64, is_j);
        let flam = Lambda { params: vec![c], body: fb.finish(vec![fl]), ret: vec![i64t.clone()] };
        let plus = self.binop_lambda(BinOp::Add, PrimType::I64, i64t.clone());
        let offs = self.bind(
            &mut lb,
            "offs",
            classes_t.clone(),
            Exp::Soac(Soac::Screma {
                w,
                arrs: vec![classes],
                scans: vec![Operator { lambda: plus, neutral: vec![SubExp::i64(0)], commutative: false }],
                reduces: vec![],
                map: flam,
            }),
        );
        let (c2, o2, p2) =
            (self.param("c", i64t.clone()), self.param("o", i64t.clone()), self.param("p", i64t.clone()));
        let mut sb = self.sub_builder(b);
        let is_j = self.cmp(&mut sb, CmpOp::Eq, PrimType::I64, SubExp::Var(c2.name), jv);
        let at = self.add64(&mut sb, start_j, SubExp::Var(o2.name));
        let at = self.sub64(&mut sb, at, SubExp::i64(1));
        let tv = Val::Leaf(at);
        let ev = Val::Leaf(SubExp::Var(p2.name));
        let (t1, e1) = (self.sub_builder(&sb), self.sub_builder(&sb));
        let chosen = leaf(&self.merge_if(&mut sb, is_j, t1, tv, e1, ev)?, span)?;
        let slam = Lambda { params: vec![c2, o2, p2], body: sb.finish(vec![chosen]), ret: vec![i64t.clone()] };
        let new_pos = self.bind(
            &mut lb,
            "pos",
            classes_t.clone(),
            Exp::Soac(Soac::Screma {
                w,
                arrs: vec![classes, offs, pos_p.name],
                scans: vec![],
                reduces: vec![],
                map: slam,
            }),
        );
        let body = lb.finish(vec![SubExp::Var(new_pos)]);
        let pos = self.bind(
            b,
            "positions",
            classes_t,
            Exp::Loop {
                params: vec![(pos_p, SubExp::Var(minus1))],
                form: ogham_ir::LoopForm::For { i: j, bound: k },
                body,
            },
        );
        // Scatter every element to its position.
        let mut dests = Vec::new();
        for a in &arrs {
            let t = self.types[a].clone();
            dests.push(self.bind(b, "dest", t.clone(), Exp::Scratch { elem: t.elem(), shape: t.shape().to_vec() }));
        }
        let ip = self.param("at", i64t.clone());
        let rows: Vec<Param> = arrs
            .iter()
            .map(|a| self.types[a].row())
            .collect::<Vec<_>>()
            .into_iter()
            .map(|t| self.param("row", t))
            .collect();
        let mut result = Vec::new();
        let mut ret = Vec::new();
        for r in &rows {
            result.push(SubExp::Var(ip.name));
            ret.push(i64t.clone());
            result.push(SubExp::Var(r.name));
            ret.push(r.ty.clone());
        }
        let mut params = vec![ip];
        params.extend(rows);
        let map = Lambda { params, body: ogham_ir::Body { stms: Vec::new(), result }, ret };
        let tys: Vec<IrType> = dests.iter().map(|d| self.types[d].clone()).collect();
        let mut in_arrs = vec![pos];
        in_arrs.extend_from_slice(&arrs);
        let names = self.bind_many(b, "parted", tys, Exp::Soac(Soac::Scatter { w, arrs: in_arrs, dests, map }));
        let parted = xs.rebuild(&mut names.into_iter().map(SubExp::Var));
        Ok(Val::tuple(vec![parted, Val::Leaf(SubExp::Var(counts))]))
    }

    /// `rotate r xs`: element `i` of the result is `xs[(i + r) mod n]`.
    fn rotate(&mut self, b: &mut BodyBuilder, r: SubExp, xs: &Val<'a>, span: Span) -> LResult<Val<'a>> {
        let n = self.outer_size(xs, None, span)?;
        let arrs = array_leaves(xs, span)?;
        let idx_t = IrType::Array { elem: PrimType::I64, shape: vec![n] };
        let iota = self.bind(
            b,
            "iota",
            idx_t,
            Exp::Iota { n, start: SubExp::i64(0), step: SubExp::i64(1), elem: PrimType::I64 },
        );
        let i = self.param("i", IrType::Prim(PrimType::I64));
        let mut lb = self.sub_builder(b);
        let s = self.add64(&mut lb, SubExp::Var(i.name), r);
        let j = self.binop(&mut lb, BinOp::Mod, PrimType::I64, s, n);
        let mut result = Vec::new();
        let mut ret = Vec::new();
        for a in &arrs {
            let rt = self.types[a].row();
            result.push(SubExp::Var(self.bind(
                &mut lb,
                "rot",
                rt.clone(),
                Exp::Index { array: *a, slice: vec![DimIndex::Fix(j)] },
            )));
            ret.push(rt);
        }
        let tys: Vec<IrType> = ret.iter().map(|t| t.array_of(n)).collect();
        let map = Lambda { params: vec![i], body: lb.finish(result), ret };
        let names = self.bind_many(
            b,
            "rotated",
            tys,
            Exp::Soac(Soac::Screma { w: n, arrs: vec![iota], scans: vec![], reduces: vec![], map }),
        );
        Ok(xs.rebuild(&mut names.into_iter().map(SubExp::Var)))
    }
}
