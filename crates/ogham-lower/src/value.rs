//! Static values: what a source expression evaluates to at lowering time.
//!
//! Lowering evaluates the program symbolically. A value is known down to its
//! structure (records, sums, functions) and its leaves are IR operands: a
//! scalar or an array of scalars. Arrays of records are records of arrays,
//! arrays of sums are sums whose tag is an array, so every leaf is a plain IR
//! value. Functions never reach the IR: they are closures that are inlined
//! where they are applied.
//!
//! The unit value `()` (any record without fields) is a record with one
//! hidden field, [`UNIT_FIELD`], holding the constant `false`. Every value
//! thus has a leaf, and an array of units is an array of `bool` that
//! carries its shape (`replicate n ()`, `map (\_ -> ()) xs`): its size is
//! known at run time like any other array's. Entry points do not show the
//! hidden leaf.

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;
use std::rc::Rc;

use ogham_ir::{PrimType, Span, SubExp};
use ogham_syntax::ast::{DimIndex, Expr, NodeId, Pat};
use ogham_types::Builtin;

/// A value known at lowering time.
#[derive(Clone, Debug)]
pub enum Val<'a> {
    /// A scalar, or an array of scalars (its type is in the lowerer's type table).
    Leaf(SubExp),
    /// Records and tuples (tuples have fields `"0"`, `"1"`, …).
    Record(BTreeMap<String, Val<'a>>),
    /// A sum value: the `i8` tag is the index of the active constructor in
    /// sorted-by-name order; every constructor has its payload, inactive ones
    /// filled with blank values.
    Sum {
        tag: SubExp,
        payloads: Vec<Vec<Val<'a>>>,
    },
    Fun(Rc<FunVal<'a>>),
}

/// A function value, possibly partially applied.
#[derive(Debug)]
pub enum FunVal<'a> {
    /// A lambda, local function or top-level definition (`def` is set for
    /// the latter, whose applications may become IR function calls).
    Closure {
        params: &'a [Pat],
        body: &'a Expr,
        scope: Scope<'a>,
        size_params: Vec<NodeId>,
        applied: Vec<Val<'a>>,
        def: Option<ogham_types::DefId>,
    },
    /// A built-in with the type it has at its use (an arrow type).
    Builtin { builtin: Builtin, ty: RType, applied: Vec<Val<'a>>, span: Span },
    /// `(op y)`: applied to `x`, gives `x op y`.
    RightSection { op: Val<'a>, rhs: Val<'a> },
    /// `(.a.b)`
    Project(Vec<String>),
    /// `(.[i, j])`
    IndexSection { dims: &'a [DimIndex], scope: Scope<'a>, span: Span },
    /// The payload of a constructor that is not the active one, where that
    /// payload is a function: never called at run time (its branch of a
    /// `match` is not taken), it gives a blank value of its result type.
    Blank(RType),
}

/// The name of the hidden field of the unit value (no source field has it).
pub const UNIT_FIELD: &str = "";

impl<'a> Val<'a> {
    /// The unit value `()`, with its hidden `bool` leaf.
    pub fn unit() -> Val<'a> {
        Val::unit_of(SubExp::Const(ogham_ir::PrimValue::Bool(false)))
    }

    /// A unit value (or array of units) whose hidden leaf is `leaf`.
    pub fn unit_of(leaf: SubExp) -> Val<'a> {
        Val::Record(BTreeMap::from([(UNIT_FIELD.to_string(), Val::Leaf(leaf))]))
    }

    /// A value with no leaves, standing for nothing (where a function was).
    pub fn nothing() -> Val<'a> {
        Val::Record(BTreeMap::new())
    }

    /// A record from its fields; without fields it is the unit value.
    pub fn record(fields: BTreeMap<String, Val<'a>>) -> Val<'a> {
        if fields.is_empty() {
            Val::unit()
        } else {
            Val::Record(fields)
        }
    }

    pub fn tuple(items: Vec<Val<'a>>) -> Val<'a> {
        Val::record(items.into_iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect())
    }

    /// Every leaf operand, in the canonical order (record fields sorted by
    /// name; a sum's tag before its payloads). Functions contribute nothing.
    pub fn leaves(&self) -> Vec<SubExp> {
        let mut out = Vec::new();
        self.collect_leaves(&mut out);
        out
    }

    fn collect_leaves(&self, out: &mut Vec<SubExp>) {
        match self {
            Val::Leaf(se) => out.push(*se),
            Val::Record(fields) => fields.values().for_each(|v| v.collect_leaves(out)),
            Val::Sum { tag, payloads } => {
                out.push(*tag);
                payloads.iter().flatten().for_each(|v| v.collect_leaves(out));
            }
            Val::Fun(_) => {}
        }
    }

    /// A value of the same structure as `self` whose leaves are taken in order from `leaves`.
    pub fn rebuild(&self, leaves: &mut dyn Iterator<Item = SubExp>) -> Val<'a> {
        match self {
            Val::Leaf(_) => Val::Leaf(leaves.next().unwrap_or(SubExp::i64(0))),
            Val::Record(fields) => Val::Record(fields.iter().map(|(k, v)| (k.clone(), v.rebuild(leaves))).collect()),
            Val::Sum { payloads, .. } => {
                let tag = leaves.next().unwrap_or(SubExp::Const(ogham_ir::PrimValue::I8(0)));
                let payloads = payloads.iter().map(|p| p.iter().map(|v| v.rebuild(leaves)).collect()).collect();
                Val::Sum { tag, payloads }
            }
            Val::Fun(f) => Val::Fun(f.clone()),
        }
    }

    /// This value with the tag of every sum value in it replaced by
    /// `tag` of the one at the same place in `like` (of the same shape).
    pub fn with_tags_of(&self, like: &Val<'a>, tag: &mut dyn FnMut(SubExp) -> SubExp) -> Val<'a> {
        match (self, like) {
            (Val::Record(fields), Val::Record(others)) => Val::Record(
                fields
                    .iter()
                    .map(|(k, v)| (k.clone(), others.get(k).map_or_else(|| v.clone(), |o| v.with_tags_of(o, tag))))
                    .collect(),
            ),
            (Val::Sum { payloads, .. }, Val::Sum { tag: t, payloads: others }) => Val::Sum {
                tag: tag(*t),
                payloads: payloads
                    .iter()
                    .zip(others)
                    .map(|(p, o)| p.iter().zip(o).map(|(v, o)| v.with_tags_of(o, tag)).collect())
                    .collect(),
            },
            _ => self.clone(),
        }
    }

    /// Whether the value holds an accumulator (`intrinsics.acc`).
    pub fn has_acc(&self) -> bool {
        match self {
            Val::Record(fields) => fields.contains_key(ogham_types::ACC_FIELD) || fields.values().any(Val::has_acc),
            Val::Sum { payloads, .. } => payloads.iter().flatten().any(Val::has_acc),
            Val::Leaf(_) | Val::Fun(_) => false,
        }
    }

    /// Whether the value contains a function anywhere.
    pub fn has_fun(&self) -> bool {
        match self {
            Val::Leaf(_) => false,
            Val::Record(fields) => fields.values().any(Val::has_fun),
            Val::Sum { payloads, .. } => payloads.iter().flatten().any(Val::has_fun),
            Val::Fun(f) => !matches!(**f, FunVal::Blank(_)),
        }
    }
}

/// A persistent environment from binding ids to values; cheap to clone and
/// to extend, so closures can capture it.
#[derive(Clone, Debug, Default)]
pub struct Env<'a>(Option<Rc<EnvNode<'a>>>);

#[derive(Debug)]
pub struct EnvNode<'a> {
    id: NodeId,
    val: Val<'a>,
    next: Env<'a>,
}

impl<'a> Env<'a> {
    pub fn with(&self, id: NodeId, val: Val<'a>) -> Env<'a> {
        Env(Some(Rc::new(EnvNode { id, val, next: self.clone() })))
    }

    /// Every binding, innermost first (shadowed ones included).
    pub fn iter(&self) -> impl Iterator<Item = (NodeId, &Val<'a>)> {
        let mut cur = self.0.as_deref();
        std::iter::from_fn(move || {
            let node = cur?;
            cur = node.next.0.as_deref();
            Some((node.id, &node.val))
        })
    }

    pub fn get(&self, id: NodeId) -> Option<&Val<'a>> {
        let mut cur = self.0.as_deref();
        while let Some(node) = cur {
            if node.id == id {
                return Some(&node.val);
            }
            cur = node.next.0.as_deref();
        }
        None
    }
}

/// Type-parameter binder id → the concrete type it stands for here.
pub type Subst = Rc<HashMap<NodeId, RType>>;

/// Where an expression is lowered: its variables and its type parameters.
#[derive(Clone, Debug, Default)]
pub struct Scope<'a> {
    pub env: Env<'a>,
    pub subst: Subst,
}

impl<'a> Scope<'a> {
    pub fn bind(&self, id: NodeId, val: Val<'a>) -> Scope<'a> {
        Scope { env: self.env.with(id, val), subst: self.subst.clone() }
    }
}

/// A checked type with type parameters substituted and sizes evaluated to
/// IR operands where they are known (`None` where not).
#[derive(Clone, Debug, PartialEq)]
pub enum RType {
    Prim(PrimType),
    /// The element is never an array.
    Array {
        elem: Box<RType>,
        shape: Vec<Option<SubExp>>,
    },
    Record(BTreeMap<String, RType>),
    Sum(BTreeMap<String, Vec<RType>>),
    Arrow(Box<RType>, Box<RType>),
}

impl RType {
    /// `[d]t`, keeping the element a non-array.
    pub fn array_of(self, dims: Vec<Option<SubExp>>) -> RType {
        if dims.is_empty() {
            return self;
        }
        match self {
            RType::Array { elem, shape } => {
                let mut all = dims;
                all.extend(shape);
                RType::Array { elem, shape: all }
            }
            other => RType::Array { elem: Box::new(other), shape: dims },
        }
    }

    /// The type of one row of an array type (or the type itself for non-arrays).
    pub fn row(&self) -> RType {
        match self {
            RType::Array { elem, shape } if shape.len() > 1 => {
                RType::Array { elem: elem.clone(), shape: shape[1..].to_vec() }
            }
            RType::Array { elem, .. } => (**elem).clone(),
            other => other.clone(),
        }
    }

    /// The codomain after applying `n` arguments to an arrow type.
    pub fn result_after(&self, n: usize) -> Option<&RType> {
        let mut t = self;
        for _ in 0..n {
            match t {
                RType::Arrow(_, to) => t = to,
                _ => return None,
            }
        }
        Some(t)
    }

    /// The type of the `i`th parameter of an arrow type.
    pub fn param(&self, i: usize) -> Option<&RType> {
        match self.result_after(i)? {
            RType::Arrow(from, _) => Some(from),
            _ => None,
        }
    }

    /// The outer dimensions, if an array.
    pub fn shape(&self) -> &[Option<SubExp>] {
        match self {
            RType::Array { shape, .. } => shape,
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_and_rebuild_agree() {
        let v = Val::Record(BTreeMap::from([
            ("b".to_string(), Val::Leaf(SubExp::i64(2))),
            (
                "a".to_string(),
                Val::Sum { tag: SubExp::i64(0), payloads: vec![vec![Val::Leaf(SubExp::i64(1))], vec![]] },
            ),
        ]));
        let leaves = v.leaves();
        assert_eq!(leaves, vec![SubExp::i64(0), SubExp::i64(1), SubExp::i64(2)]);
        let rebuilt = v.rebuild(&mut leaves.into_iter());
        assert_eq!(rebuilt.leaves(), v.leaves());
    }

    #[test]
    fn env_shadows() {
        let e = Env::default().with(NodeId(1), Val::Leaf(SubExp::i64(1))).with(NodeId(1), Val::Leaf(SubExp::i64(2)));
        assert!(matches!(e.get(NodeId(1)), Some(Val::Leaf(SubExp::Const(ogham_ir::PrimValue::I64(2))))));
        assert!(e.get(NodeId(2)).is_none());
    }
}
