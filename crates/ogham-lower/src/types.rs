//! Checked types at lowering time: substituting type parameters, evaluating
//! sizes to IR operands, the leaf layout of a type, blank values (the
//! payloads of inactive sum constructors), and size matching that binds size
//! parameters from the shapes of actual arguments.

use ogham_ir::builder::BodyBuilder;
use ogham_ir::{Exp, PrimType, PrimValue, SubExp, Type as IrType};
use ogham_syntax::ast::NodeId;
use ogham_syntax::Span;
use ogham_types::size::Poly;
use ogham_types::{Size, Type};
use rustc_hash::FxHashMap as HashMap;

use crate::value::{FunVal, RType, Scope, Val};
use crate::{internal, LResult, Lowerer};

impl<'a> Lowerer<'a> {
    /// The checked type of an expression node.
    pub fn expr_type(&self, id: NodeId, span: Span) -> LResult<&'a Type> {
        self.info.expr_types.get(&id).map(|t| &**t).ok_or_else(|| internal(span, "expression without a type"))
    }

    /// The checked type of a pattern node or binder.
    pub fn binding_type(&self, id: NodeId, span: Span) -> LResult<&'a Type> {
        self.info.binding_types.get(&id).map(|t| &**t).ok_or_else(|| internal(span, "binding without a type"))
    }

    /// Resolves a checked type in `scope`: type parameters substituted, and
    /// sizes evaluated (emitting arithmetic into `b`) when `dims` is set.
    pub fn rtype(&mut self, b: &mut BodyBuilder, scope: &Scope<'a>, t: &Type, dims: bool) -> LResult<RType> {
        Ok(match t {
            Type::Prim(p) => RType::Prim(*p),
            Type::Array { elem, shape } => {
                let mut ds = Vec::with_capacity(shape.len());
                for s in shape {
                    ds.push(if dims { self.eval_size(b, scope, s)? } else { None });
                }
                let elem = self.rtype(b, scope, elem, dims)?;
                elem.array_of(ds)
            }
            Type::Record(fields) => {
                let mut out = std::collections::BTreeMap::new();
                for (k, v) in fields {
                    out.insert(k.clone(), self.rtype(b, scope, v, dims)?);
                }
                RType::Record(out)
            }
            Type::Sum(cs) => {
                let mut out = std::collections::BTreeMap::new();
                for (k, ts) in cs {
                    let mut items = Vec::new();
                    for t in ts {
                        items.push(self.rtype(b, scope, t, dims)?);
                    }
                    out.insert(k.clone(), items);
                }
                RType::Sum(out)
            }
            Type::Arrow { from, to, .. } => {
                RType::Arrow(Box::new(self.rtype(b, scope, from, dims)?), Box::new(self.rtype(b, scope, to, dims)?))
            }
            Type::Param(p) => match scope.subst.get(p) {
                Some(t) => t.clone(),
                None => return Err(internal(b.span, "a type parameter without an instantiation")),
            },
        })
    }

    /// The value of a size, if it is known here.
    pub fn eval_size(&mut self, b: &mut BodyBuilder, scope: &Scope<'a>, s: &Size) -> LResult<Option<SubExp>> {
        match s {
            Size::Poly(p) => self.eval_poly(b, scope, p),
            // Known at run time when a value of that size is in scope.
            Size::Unknown(u) => Ok(match scope.env.get(unknown_size_key(*u)) {
                Some(Val::Leaf(se)) => Some(*se),
                _ => None,
            }),
        }
    }

    /// The full shape of every leaf of a value of type `t` (in leaf order),
    /// each prefixed by `outer`; `None` where a dimension is unknown.
    pub fn leaf_shapes(t: &RType, outer: &[Option<SubExp>], out: &mut Vec<(PrimType, Vec<Option<SubExp>>)>) {
        match t {
            RType::Prim(p) => out.push((*p, outer.to_vec())),
            RType::Array { elem, shape } => {
                let mut o = outer.to_vec();
                o.extend(shape.iter().copied());
                Self::leaf_shapes(elem, &o, out);
            }
            RType::Record(fields) if fields.is_empty() => out.push((PrimType::Bool, outer.to_vec())),
            RType::Record(fields) => fields.values().for_each(|f| Self::leaf_shapes(f, outer, out)),
            RType::Sum(cs) => {
                out.push((PrimType::I8, outer.to_vec()));
                cs.values().flatten().for_each(|p| Self::leaf_shapes(p, outer, out));
            }
            RType::Arrow(..) => {}
        }
    }

    /// A blank value of type `t`: zeros, and arrays with the type's shape
    /// (zero where a dimension is unknown).
    pub fn blank(&mut self, b: &mut BodyBuilder, t: &RType) -> Val<'a> {
        self.blank_with_outer(b, t, &[])
    }

    fn blank_with_outer(&mut self, b: &mut BodyBuilder, t: &RType, outer: &[Option<SubExp>]) -> Val<'a> {
        let scalar = |this: &mut Self, b: &mut BodyBuilder, p: PrimType, outer: &[Option<SubExp>]| -> Val<'a> {
            let zero = SubExp::Const(PrimValue::zero(p));
            if outer.is_empty() {
                return Val::Leaf(zero);
            }
            let shape: Vec<SubExp> = outer.iter().map(|d| d.unwrap_or(SubExp::i64(0))).collect();
            let ty = IrType::Array { elem: p, shape: shape.clone() };
            Val::Leaf(SubExp::Var(this.bind(b, "blank", ty, Exp::Replicate { shape, value: zero })))
        };
        match t {
            RType::Prim(p) => scalar(self, b, *p, outer),
            RType::Array { elem, shape } => {
                let mut o = outer.to_vec();
                o.extend(shape.iter().copied());
                self.blank_with_outer(b, elem, &o)
            }
            RType::Record(fields) if fields.is_empty() => match scalar(self, b, PrimType::Bool, outer) {
                Val::Leaf(se) => Val::unit_of(se),
                _ => Val::unit(),
            },
            RType::Record(fields) => {
                Val::Record(fields.iter().map(|(k, f)| (k.clone(), self.blank_with_outer(b, f, outer))).collect())
            }
            RType::Sum(cs) => {
                let tag = match scalar(self, b, PrimType::I8, outer) {
                    Val::Leaf(se) => se,
                    _ => SubExp::Const(PrimValue::I8(0)),
                };
                let payloads =
                    cs.values().map(|ps| ps.iter().map(|p| self.blank_with_outer(b, p, outer)).collect()).collect();
                Val::Sum { tag, payloads }
            }
            RType::Arrow(_, to) => Val::Fun(std::rc::Rc::new(FunVal::Blank((**to).clone()))),
        }
    }

    /// Binds size variables that occur as a whole dimension of `t` (a checked
    /// type in the callee's terms) to the matching dimension of `val`.
    /// `outer` is the number of array dimensions already walked through.
    pub fn match_sizes(&self, t: &Type, val: &Val<'a>, outer: usize, out: &mut HashMap<NodeId, SubExp>) {
        self.for_each_size_dim(t, val, outer, &mut |s, d| {
            if let Some(v) = poly_of(s).and_then(|p| p.as_var()) {
                out.entry(v).or_insert(d);
            }
        });
    }

    /// `sc` extended with the run-time values of the existential sizes of
    /// `v`, a value of type `t`, where `sc` does not know them yet.
    pub fn knowing_sizes_of(&self, sc: &Scope<'a>, t: &Type, v: &Val<'a>) -> Scope<'a> {
        let mut unknowns = Vec::new();
        self.match_unknown_sizes(t, v, &mut unknowns);
        let mut scope = sc.clone();
        for (u, d) in unknowns {
            let key = unknown_size_key(u);
            if scope.env.get(key).is_none() {
                scope = scope.bind(key, Val::Leaf(d));
            }
        }
        scope
    }

    /// The run-time values of the existential sizes (`Size::Unknown`) of a
    /// value of type `t`: the dimensions of `val` where `t` has them.
    pub fn match_unknown_sizes(&self, t: &Type, val: &Val<'a>, out: &mut Vec<(u32, SubExp)>) {
        self.for_each_size_dim(t, val, 0, &mut |s, d| {
            if let Size::Unknown(u) = s {
                out.push((*u, d));
            }
        });
    }

    /// Calls `f` with each size written in `t` (a checked type in the
    /// callee's terms) and the matching dimension of `val`, through arrays,
    /// records and sum payloads.
    fn for_each_size_dim(&self, t: &Type, val: &Val<'a>, outer: usize, f: &mut dyn FnMut(&Size, SubExp)) {
        match (t, val) {
            (Type::Array { elem, shape }, _) => {
                if let Some(first) = val.leaves().first() {
                    let actual = self.se_type(*first);
                    for (k, s) in shape.iter().enumerate() {
                        if let Some(d) = actual.shape().get(outer + k) {
                            f(s, *d);
                        }
                    }
                }
                self.for_each_size_dim(elem, val, outer + shape.len(), f);
            }
            (Type::Record(fields), Val::Record(vals)) => {
                for (k, ft) in fields {
                    if let Some(v) = vals.get(k) {
                        self.for_each_size_dim(ft, v, outer, f);
                    }
                }
            }
            (Type::Sum(cs), Val::Sum { payloads, .. }) => {
                for (ts, vs) in cs.values().zip(payloads) {
                    for (t, v) in ts.iter().zip(vs) {
                        self.for_each_size_dim(t, v, outer, f);
                    }
                }
            }
            _ => {}
        }
    }
}

impl<'a> Lowerer<'a> {
    /// The values of a function's size parameters at a call, from the
    /// shapes of the arguments: a size written `[k]` is the argument's
    /// dimension; one written as a polynomial linear in a single size
    /// parameter not known otherwise (`[2 * k]`, `[n * m]` with `n` known,
    /// `[n + m]` with `m` given by the instantiation in `scope`) is solved
    /// for, repeatedly, as each solution may make another equation linear
    /// in one unknown. Parameters nothing determines are left out.
    pub fn size_param_values(
        &mut self,
        b: &mut BodyBuilder,
        scope: &Scope<'a>,
        params: &'a [ogham_syntax::ast::Pat],
        args: &[Val<'a>],
        size_params: &[NodeId],
    ) -> LResult<Vec<(NodeId, SubExp)>> {
        if size_params.is_empty() {
            return Ok(Vec::new());
        }
        let mut found = HashMap::default();
        for (p, a) in params.iter().zip(args) {
            if let Some(t) = self.info.binding_types.get(&p.id) {
                self.match_sizes(t, a, 0, &mut found);
            }
        }
        let known = |found: &HashMap<NodeId, SubExp>, v: &NodeId| found.contains_key(v) || scope.env.get(*v).is_some();
        if size_params.iter().any(|id| !known(&found, id)) {
            let mut equations: Vec<(Poly, SubExp)> = Vec::new();
            for (p, a) in params.iter().zip(args) {
                if let Some(t) = self.info.binding_types.get(&p.id) {
                    self.for_each_size_dim(t, a, 0, &mut |s, d| {
                        if let Some(p) = poly_of(s) {
                            equations.push((p.clone(), d));
                        }
                    });
                }
            }
            loop {
                let mut progress = false;
                for (p, size) in &equations {
                    let open: Vec<NodeId> = p.vars().filter(|v| size_params.contains(v) && !known(&found, v)).collect();
                    let [v] = open.as_slice() else { continue };
                    let Some((coeff, rest)) = linear_in(p, *v) else { continue };
                    let mut sc = scope.clone();
                    for (id, d) in &found {
                        sc = sc.bind(*id, Val::Leaf(*d));
                    }
                    let (Some(c), Some(r)) = (self.eval_poly(b, &sc, &coeff)?, self.eval_poly(b, &sc, &rest)?) else {
                        continue;
                    };
                    // The checker proved `c * v + r = size`, so the division
                    // is exact; where `c` is 0 so is `size - r`, and any `v`
                    // fits.
                    let num = self.sub64(b, *size, r);
                    let den = self.binop(b, ogham_ir::BinOp::Max, PrimType::I64, c, SubExp::i64(1));
                    let k = self.binop(b, ogham_ir::BinOp::Div, PrimType::I64, num, den);
                    found.insert(*v, k);
                    progress = true;
                }
                if !progress {
                    break;
                }
            }
        }
        Ok(size_params.iter().filter_map(|id| found.get(id).map(|d| (*id, *d))).collect())
    }
}

/// `p` as `coeff * v + rest` where neither mentions `v`, if `p` is linear in `v`.
fn linear_in(p: &Poly, v: NodeId) -> Option<(Poly, Poly)> {
    let (mut coeff, mut rest) = (Vec::new(), Vec::new());
    for (m, c) in p.terms() {
        match m.iter().filter(|x| **x == v).count() {
            0 => rest.push((m.clone(), *c)),
            1 => coeff.push((m.iter().copied().filter(|x| *x != v).collect(), *c)),
            _ => return None,
        }
    }
    (!coeff.is_empty()).then(|| (Poly::from_terms(coeff), Poly::from_terms(rest)))
}

fn poly_of(s: &Size) -> Option<&ogham_types::size::Poly> {
    match s {
        Size::Poly(p) => Some(p),
        Size::Unknown(_) => None,
    }
}

/// The key under which a scope holds the run-time value of the existential
/// size `u` of a bound value (scopes map node ids to values; this range is
/// used by no node).
pub fn unknown_size_key(u: u32) -> NodeId {
    // The checker's variable for `u` inside size polynomials, so that a
    // polynomial mentioning it evaluates through the same binding.
    ogham_types::size::unknown_var(u)
}

/// Futhark's size-free notation for a type: `[][]f32`, `(i32, bool)`,
/// `{x: f64}`, `#a i32 | #b`.
pub fn type_name(t: &Type) -> String {
    match t {
        Type::Prim(p) => p.name().to_string(),
        Type::Array { elem, shape } => {
            let inner = type_name(elem);
            let inner = if matches!(**elem, Type::Sum(_)) { format!("({inner})") } else { inner };
            format!("{}{inner}", "[]".repeat(shape.len()))
        }
        Type::Record(fields) => match t.as_tuple() {
            Some(items) if !items.is_empty() => {
                format!("({})", items.iter().map(|t| type_name(t)).collect::<Vec<_>>().join(", "))
            }
            _ if fields.is_empty() => "()".to_string(),
            _ => format!(
                "{{{}}}",
                fields.iter().map(|(k, t)| format!("{k}: {}", type_name(t))).collect::<Vec<_>>().join(", ")
            ),
        },
        Type::Sum(cs) => cs
            .iter()
            .map(|(k, ts)| {
                let mut s = format!("#{k}");
                for t in ts {
                    s.push(' ');
                    s.push_str(&type_name(t));
                }
                s
            })
            .collect::<Vec<_>>()
            .join(" | "),
        Type::Arrow { from, to, .. } => format!("{} -> {}", type_name(from), type_name(to)),
        Type::Param(_) => "t".to_string(),
    }
}

/// The IR type of an array of `elem` with the given shape.
pub fn array_type(elem: PrimType, shape: Vec<SubExp>) -> IrType {
    if shape.is_empty() {
        IrType::Prim(elem)
    } else {
        IrType::Array { elem, shape }
    }
}
