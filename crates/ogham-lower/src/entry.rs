//! Entry points: the only functions that remain in the IR. Their source
//! parameters are flattened into IR parameters (size parameters first), and
//! the [`EntryPoint`] description tells the outside world how flat
//! parameters and results make up the source-level values.

use ogham_ir::builder::BodyBuilder;
use ogham_ir::{
    CmpOp, EntryPoint, EntryValue, Exp, FunDef, Opaque, Param, PrimType, PrimValue, SubExp, Type as IrType, VName,
};
use ogham_syntax::ast::NodeId;
use ogham_syntax::ast::{Expr, ExprKind, Literal, Pat, PatKind, TypeArg, TypeExp, TypeParam};
use ogham_types::{DefId, Size, Type};
use rustc_hash::FxHashMap as HashMap;

use crate::types::{array_type, type_name};
use crate::value::{RType, Scope, Val};
use crate::{internal, unsupported, LResult, Lowerer};

impl<'a> Lowerer<'a> {
    pub fn entry_point(&mut self, def: DefId) -> LResult<FunDef> {
        let dec = self
            .dec(def)
            .ok_or_else(|| internal(ogham_syntax::Span::DUMMY, "an entry point that is not a value declaration"))?;
        let mut b = BodyBuilder::new(dec.span);
        let mut size_params: Vec<Param> = Vec::new();
        let mut scope = Scope::default();
        for tp in &dec.type_params {
            match tp {
                TypeParam::Size(binder) => {
                    let p = self.param(&binder.name.text, IrType::Prim(PrimType::I64));
                    scope = scope.bind(binder.id, Val::Leaf(SubExp::Var(p.name)));
                    size_params.push(p);
                }
                TypeParam::Type(binder, _) => {
                    return Err(unsupported(binder.name.span, "a polymorphic entry point"));
                }
            }
        }
        // Each input's flat parameters, and any sizes they need beyond the declared ones.
        let mut inputs: Vec<(Vec<Param>, EntryValue)> = Vec::new();
        let implicit_ids: Vec<NodeId> =
            self.info.defs.get(def.0 as usize).map(|d| d.size_params.clone()).unwrap_or_default();
        let mut implicit_bound: HashMap<NodeId, VName> = HashMap::default();
        // The declared parameters, then one input per further arrow of the
        // entry's type: a curried or point-free entry point (`def main = map
        // f32.acos`) is eta-expanded so that it takes all its arguments.
        let def_ty: Option<&'a Type> = self.info.defs.get(def.0 as usize).map(|d| &d.ty);
        let mut sources: Vec<(Option<&'a Pat>, &'a Type, Option<NodeId>, Option<&'a TypeExp>)> = Vec::new();
        for pat in &dec.params {
            sources.push((Some(pat), self.binding_type(pat.id, pat.span)?, None, pat_type_exp(pat)));
        }
        let mut rest_ty = def_ty;
        for _ in 0..dec.params.len() {
            rest_ty = match rest_ty {
                Some(Type::Arrow { to, .. }) => Some(to),
                _ => None,
            };
        }
        let mut rest_exp = dec.ret.as_ref();
        while let Some(Type::Arrow { param, from, to }) = rest_ty {
            let (from_exp, to_exp) = match rest_exp {
                Some(TypeExp::Arrow { from, to, .. }) => (Some(&**from), Some(&**to)),
                _ => (None, None),
            };
            sources.push((None, from, *param, from_exp));
            rest_ty = Some(to);
            rest_exp = to_exp;
        }
        let mut extra_args: Vec<Val<'a>> = Vec::new();
        for (pat, t, arrow_param, te) in sources {
            let span = pat.map_or(dec.span, |p| p.span);
            let rt = self.rtype(&mut b, &scope, t, true)?;
            if matches!(rt, RType::Arrow(..)) {
                return Err(unsupported(span, "a function-typed entry point parameter"));
            }
            let mut shapes = Vec::new();
            Self::leaf_shapes(&rt, &[], &mut shapes);
            let mut sizes = Vec::new();
            leaf_sizes(t, &[], &mut sizes);
            let mut units = Vec::new();
            unit_mask(t, &mut units);
            let mut parts = Vec::new();
            let mut leaves = Vec::new();
            for (k, (elem, shape)) in shapes.into_iter().enumerate() {
                if units.get(k) == Some(&true) {
                    // No data comes in for units: an array of them has the
                    // size the other inputs determine, or none (it is
                    // opaque, and cannot be given from outside).
                    let dims: Vec<SubExp> = shape.into_iter().map(|d| d.unwrap_or(SubExp::i64(0))).collect();
                    let value = SubExp::Const(PrimValue::Bool(false));
                    leaves.push(if dims.is_empty() {
                        value
                    } else {
                        let ty = array_type(PrimType::Bool, dims.clone());
                        SubExp::Var(self.bind(&mut b, "units", ty, Exp::Replicate { shape: dims, value }))
                    });
                    continue;
                }
                let mut dims = Vec::with_capacity(shape.len());
                for (j, d) in shape.into_iter().enumerate() {
                    // An implicit size parameter (from `[]`) shared by several
                    // inputs is one IR size parameter, so the inputs must agree.
                    let implicit = match sizes.get(k).and_then(|s| s.get(j)) {
                        Some(Size::Poly(p)) if d.is_none() => p.as_var().filter(|v| implicit_ids.contains(v)),
                        _ => None,
                    };
                    if let Some(v) = implicit {
                        let name = match implicit_bound.get(&v) {
                            Some(name) => *name,
                            None => {
                                let p = self.param("size", IrType::Prim(PrimType::I64));
                                let name = p.name;
                                size_params.push(p);
                                implicit_bound.insert(v, name);
                                name
                            }
                        };
                        dims.push(SubExp::Var(name));
                        continue;
                    }
                    let is_param = |v: &VName| {
                        size_params.iter().any(|p| p.name == *v)
                            || inputs.iter().any(|(ps, _)| ps.iter().any(|p| p.name == *v))
                    };
                    match d {
                        Some(SubExp::Const(c)) => dims.push(SubExp::Const(c)),
                        Some(SubExp::Var(v)) if is_param(&v) => dims.push(SubExp::Var(v)),
                        other => {
                            let p = self.param("size", IrType::Prim(PrimType::I64));
                            if let Some(expected) = other {
                                let ok = self.cmp(&mut b, CmpOp::Eq, PrimType::I64, SubExp::Var(p.name), expected);
                                self.assert(
                                    &mut b,
                                    ok,
                                    "Entry point argument has an invalid size: it does not have the size its type requires.",
                                );
                            }
                            dims.push(SubExp::Var(p.name));
                            size_params.push(p);
                        }
                    }
                }
                let p = self.param("in", array_type(elem, dims));
                leaves.push(SubExp::Var(p.name));
                parts.push(p);
            }
            let val = shape_template(&rt).rebuild(&mut leaves.into_iter());
            for (id, name) in &implicit_bound {
                scope = scope.bind(*id, Val::Leaf(SubExp::Var(*name)));
            }
            match pat {
                Some(pat) => scope = self.bind_pat(&mut b, &scope, pat, val)?,
                None => {
                    // A named arrow parameter `(n: i64) -> [n]t` may be used in later sizes.
                    if let Some(id) = arrow_param {
                        scope = scope.bind(id, val.clone());
                    }
                    extra_args.push(val);
                }
            }
            let mut ev = entry_value(t, te, Vec::new());
            // `(a: *[n]i32, x: i32)`: a tuple or record input with a unique
            // part is consumed as a whole.
            ev.unique |= pat.is_some_and(crate::call::pat_consumes);
            ev.name = Some(pat.map_or_else(|| "_".to_string(), param_name));
            inputs.push((parts, ev));
        }
        let mut params = size_params.clone();
        let mut input_values = Vec::new();
        for (parts, mut ev) in inputs {
            ev.parts = (params.len()..params.len() + parts.len()).collect();
            params.extend(parts);
            input_values.push(ev);
        }

        let mut v = self.expr(&mut b, &scope, &dec.body)?;
        let n_extra = extra_args.len();
        if n_extra > 0 {
            v = self.apply(&mut b, v, extra_args, dec.body.span)?;
        }
        if v.has_fun() {
            return Err(unsupported(dec.span, "an entry point returning a function"));
        }
        // Outputs of a top-level tuple come in component order (the
        // record's own order is by field name, which puts "10" before "2").
        let mut body_t = self.expr_type(dec.body.id, dec.body.span)?;
        let mut ret_exp = dec.ret.as_ref();
        for _ in 0..n_extra {
            if let Type::Arrow { to, .. } = body_t {
                body_t = to;
            }
            ret_exp = match ret_exp {
                Some(TypeExp::Arrow { to, .. }) => Some(to),
                _ => None,
            };
        }
        let mut units = Vec::new();
        let result: Vec<SubExp> = match (&v, body_t.as_tuple()) {
            (Val::Record(fields), Some(items)) if items.len() >= 2 => {
                items.iter().for_each(|t| unit_mask(t, &mut units));
                (0..items.len()).flat_map(|i| fields.get(&i.to_string()).map(Val::leaves).unwrap_or_default()).collect()
            }
            _ => {
                unit_mask(body_t, &mut units);
                v.leaves()
            }
        };
        // Units show no data outside.
        let result: Vec<SubExp> =
            result.into_iter().enumerate().filter(|(k, _)| units.get(*k) != Some(&true)).map(|(_, l)| l).collect();
        let param_names: Vec<VName> = params.iter().map(|p| p.name).collect();
        let mut existential: HashMap<VName, VName> = HashMap::default();
        let mut ret = Vec::with_capacity(result.len());
        for r in &result {
            let t = self.se_type(*r);
            let shape = t
                .shape()
                .iter()
                .map(|d| match d {
                    SubExp::Var(x) if !param_names.contains(x) => {
                        SubExp::Var(*existential.entry(*x).or_insert_with(|| self.names.fresh("ext")))
                    }
                    other => *other,
                })
                .collect();
            ret.push(array_type(t.elem(), shape));
        }
        for e in existential.values() {
            self.types.insert(*e, IrType::Prim(PrimType::I64));
        }

        // Outputs: one per component of a top-level tuple, otherwise one.
        let mut outputs = Vec::new();
        let components: Vec<(&Type, Option<&TypeExp>)> = match body_t.as_tuple() {
            Some(items) if items.len() >= 2 => {
                let exps: Vec<Option<&TypeExp>> = match ret_exp.map(strip_unique) {
                    Some(TypeExp::Tuple(ts, _)) if ts.len() == items.len() => ts.iter().map(Some).collect(),
                    _ => vec![None; items.len()],
                };
                items.into_iter().zip(exps).collect()
            }
            // A unit result is no output at all, as in Futhark.
            _ if *body_t == Type::unit() => Vec::new(),
            _ => vec![(body_t, ret_exp)],
        };
        let mut next = 0;
        for (t, te) in components {
            let n = leaf_count(t);
            outputs.push(entry_value(t, te, (next..next + n).collect()));
            next += n;
        }
        let body = b.finish(result);
        let name =
            self.info.defs.get(def.0 as usize).map(|d| d.name.clone()).unwrap_or_else(|| dec.name.name.text.clone());
        Ok(FunDef {
            name,
            params,
            ret,
            body,
            entry: Some(EntryPoint { inputs: input_values, outputs }),
            span: dec.span,
        })
    }
}

/// A value of the structure of `t` with placeholder leaves (to be rebuilt).
pub fn shape_template<'a>(t: &RType) -> Val<'a> {
    match t {
        RType::Prim(_) => Val::Leaf(SubExp::i64(0)),
        RType::Array { elem, .. } => shape_template(elem),
        RType::Record(fields) if fields.is_empty() => Val::unit_of(SubExp::i64(0)),
        RType::Record(fields) => Val::Record(fields.iter().map(|(k, f)| (k.clone(), shape_template(f))).collect()),
        RType::Sum(cs) => Val::Sum {
            tag: SubExp::i64(0),
            payloads: cs.values().map(|ps| ps.iter().map(shape_template).collect()).collect(),
        },
        RType::Arrow(..) => Val::nothing(),
    }
}

/// For each leaf of a value of type `t` (in leaf order), whether it is the
/// hidden leaf of a unit value, which entry points do not show.
fn unit_mask(t: &Type, out: &mut Vec<bool>) {
    match t {
        Type::Prim(_) => out.push(false),
        Type::Array { elem, .. } => unit_mask(elem, out),
        Type::Record(fields) if fields.is_empty() => out.push(true),
        Type::Record(fields) => fields.values().for_each(|f| unit_mask(f, out)),
        Type::Sum(cs) => {
            out.push(false);
            cs.values().flatten().for_each(|p| unit_mask(p, out));
        }
        Type::Arrow { .. } | Type::Param(_) => {}
    }
}

/// The number of IR values a value of type `t` shows outside an entry
/// point (units show none).
pub fn leaf_count(t: &Type) -> usize {
    match t {
        Type::Prim(_) => 1,
        Type::Array { elem, .. } => leaf_count(elem),
        Type::Record(fields) => fields.values().map(leaf_count).sum::<usize>(),
        Type::Sum(cs) => 1 + cs.values().flatten().map(leaf_count).sum::<usize>(),
        Type::Arrow { .. } | Type::Param(_) => 0,
    }
}

fn strip_unique(t: &TypeExp) -> &TypeExp {
    match t {
        TypeExp::Unique(inner, _) => strip_unique(inner),
        other => other,
    }
}

/// The type a written type names, as Futhark names opaque entry types
/// (its `rootType`): uniqueness and size arguments are seen through, so
/// `*state [n]` and `state []` are both `state`.
fn root_type(t: &TypeExp) -> &TypeExp {
    match t {
        TypeExp::Unique(inner, _) => root_type(inner),
        TypeExp::Apply(inner, arg, _) if matches!(**arg, TypeArg::Size(_)) => root_type(inner),
        other => other,
    }
}

/// The name of an entry parameter as Futhark's manifest gives it (its type
/// checker's `patternName`): the name a parameter binds, seen through
/// parentheses and a type ascription, and `_` for any other pattern (tuples,
/// records, wildcards, `(x: t): u`). Unlike Futhark, attributes are seen
/// through too: `#[a] x` is still called `x`.
fn param_name(p: &Pat) -> String {
    match &p.kind {
        PatKind::Var(n) => n.text.clone(),
        PatKind::Attr(_, inner) => param_name(inner),
        PatKind::Ascribe(inner, _) => match &inner.kind {
            PatKind::Var(n) => n.text.clone(),
            PatKind::Attr(..) => param_name(inner),
            _ => "_".to_string(),
        },
        _ => "_".to_string(),
    }
}

/// The type written on a parameter pattern, if any.
fn pat_type_exp(p: &Pat) -> Option<&TypeExp> {
    match &p.kind {
        PatKind::Ascribe(_, t) => Some(t),
        PatKind::Attr(_, inner) => pat_type_exp(inner),
        _ => None,
    }
}

/// The description of one entry input or output of type `t`, written as `te` in the source.
fn entry_value(t: &Type, te: Option<&TypeExp>, parts: Vec<usize>) -> EntryValue {
    let unique = matches!(te, Some(TypeExp::Unique(..)));
    let written_name = match te.map(root_type) {
        Some(TypeExp::Var(q)) if PrimType::from_name(&q.name).is_none() || !q.quals.is_empty() => Some(q.to_string()),
        _ => None,
    };
    let fields_of = |fields: &std::collections::BTreeMap<String, Type>| -> Vec<(String, String, usize)> {
        fields.iter().map(|(k, f)| (k.clone(), type_name(f), leaf_count(f))).collect()
    };
    let variants_of = |cs: &std::collections::BTreeMap<String, Vec<Type>>| -> Vec<(String, Vec<(String, usize)>)> {
        cs.iter().map(|(k, ts)| (k.clone(), ts.iter().map(|t| (type_name(t), leaf_count(t))).collect())).collect()
    };
    let opaque = match t {
        Type::Record(fields) => Some(Opaque::Record { fields: fields_of(fields) }),
        Type::Sum(cs) => Some(Opaque::Sum { variants: variants_of(cs) }),
        Type::Array { elem, shape } => match &**elem {
            Type::Record(fields) => Some(Opaque::RecordArray { rank: shape.len(), fields: fields_of(fields) }),
            Type::Sum(cs) => Some(Opaque::SumArray { rank: shape.len(), variants: variants_of(cs) }),
            _ => None,
        },
        _ => None,
    };
    let type_name = match (&opaque, written_name) {
        (Some(_), Some(n)) => n,
        _ => type_name(t),
    };
    EntryValue { name: None, type_name, unique, parts, opaque }
}

/// A short rendering of an expression for assertion messages.
pub fn show_expr(e: &Expr) -> String {
    let e = match &e.kind {
        ExprKind::Parens(inner) => inner,
        _ => e,
    };
    let s = show(e, 0);
    if s.len() > 80 {
        format!(
            "{}…",
            &s[..s.char_indices().take_while(|(i, _)| *i < 77).last().map(|(i, c)| i + c.len_utf8()).unwrap_or(0)]
        )
    } else {
        s
    }
}

fn show(e: &Expr, depth: usize) -> String {
    if depth > 6 {
        return "…".to_string();
    }
    let d = depth + 1;
    match &e.kind {
        ExprKind::Literal(Literal::Int { value, .. }) => value.to_string(),
        ExprKind::Literal(Literal::Float { value, .. }) => format!("{value:?}"),
        ExprKind::Literal(Literal::Bool(x)) => x.to_string(),
        ExprKind::Literal(Literal::String(s)) => format!("{:?}", String::from_utf8_lossy(s)),
        ExprKind::Var(q) => q.to_string(),
        ExprKind::Parens(x) => format!("({})", show(x, d)),
        ExprKind::Tuple(xs) => format!("({})", xs.iter().map(|x| show(x, d)).collect::<Vec<_>>().join(", ")),
        ExprKind::Project(x, n) => format!("{}.{}", show(x, d), n.text),
        ExprKind::Apply(f, args) => {
            let mut s = show(f, d);
            for a in args {
                s.push(' ');
                s.push_str(&show(a, d));
            }
            s
        }
        ExprKind::BinOp { op, lhs, rhs, .. } => format!("{} {} {}", show(lhs, d), op, show(rhs, d)),
        ExprKind::Negate(x) => format!("-{}", show(x, d)),
        ExprKind::Not(x) => format!("!{}", show(x, d)),
        ExprKind::Index(x, _) => format!("{}[…]", show(x, d)),
        _ => "…".to_string(),
    }
}

/// The checked size of every dimension of every leaf of a value of type `t`,
/// in the same leaf order as `Lowerer::leaf_shapes`.
fn leaf_sizes(t: &Type, outer: &[Size], out: &mut Vec<Vec<Size>>) {
    match t {
        Type::Prim(_) => out.push(outer.to_vec()),
        Type::Array { elem, shape } => {
            let mut o = outer.to_vec();
            o.extend(shape.iter().cloned());
            leaf_sizes(elem, &o, out);
        }
        Type::Record(fields) if fields.is_empty() => out.push(outer.to_vec()),
        Type::Record(fields) => fields.values().for_each(|f| leaf_sizes(f, outer, out)),
        Type::Sum(cs) => {
            out.push(outer.to_vec());
            cs.values().flatten().for_each(|p| leaf_sizes(p, outer, out));
        }
        Type::Arrow { .. } | Type::Param(_) => {}
    }
}
