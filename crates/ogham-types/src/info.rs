//! What the type checker tells later phases: the checked types of every
//! expression and pattern, what every name refers to, and how polymorphic
//! definitions were instantiated at each use.
//!
//! This is the boundary between `ogham-types` and `ogham-lower`. Lowering
//! walks the AST and looks up every fact it needs here, keyed by [`NodeId`];
//! it never re-does inference. All types are fully resolved: no unification
//! variables remain, overloaded literals have their final type, and type
//! abbreviations are expanded. Types inside a polymorphic definition mention
//! its type parameters as [`Type::Param`]; lowering substitutes the
//! [`Instantiation`] recorded at each use.

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

use ogham_prim::PrimType;
use ogham_syntax::ast::NodeId;

use crate::builtins::Builtin;
use crate::size::Size;

/// Index of a top-level value definition (prelude, imported files and the main file together).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DefId(pub u32);

/// A checked type.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Prim(PrimType),
    /// `[d0][d1]...elem`; `elem` is never itself an array. `shape` is outermost first.
    Array {
        elem: Box<Type>,
        shape: Vec<Size>,
    },
    /// Records, keyed by field name. Tuples are records with fields `"0"`, `"1"`, …;
    /// the unit type is the empty record.
    Record(BTreeMap<String, Type>),
    /// Sum types: constructor name to payload types.
    Sum(BTreeMap<String, Vec<Type>>),
    /// `(x: from) -> to`; `param` is the binding of a named parameter whose name
    /// occurs in sizes of `to` (the id of the pattern or binder that names it).
    Arrow {
        param: Option<NodeId>,
        from: Box<Type>,
        to: Box<Type>,
    },
    /// A type parameter of the enclosing definition (the id of its binder).
    Param(NodeId),
}

impl Type {
    pub fn unit() -> Type {
        Type::Record(BTreeMap::new())
    }

    pub fn tuple(items: Vec<Type>) -> Type {
        Type::Record(items.into_iter().enumerate().map(|(i, t)| (i.to_string(), t)).collect())
    }

    /// The element types of a tuple type, if it is one (fields `0..n`, n ≠ 1).
    pub fn as_tuple(&self) -> Option<Vec<&Type>> {
        match self {
            Type::Record(fields) if fields.len() != 1 => {
                let items: Vec<&Type> = (0..fields.len()).map_while(|i| fields.get(&i.to_string())).collect();
                (items.len() == fields.len()).then_some(items)
            }
            _ => None,
        }
    }

    /// The rank of the outermost array type (0 for non-arrays).
    pub fn rank(&self) -> usize {
        match self {
            Type::Array { shape, .. } => shape.len(),
            _ => 0,
        }
    }
}

/// What a name (or operator, or section) in an expression refers to.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolution {
    /// A local binding: the id of the variable pattern, binder (size parameter,
    /// `let [n]`, local function) or loop variable that introduced it.
    Local(NodeId),
    /// A top-level definition.
    Def(DefId),
    /// A built-in: operator, numeric-module function or intrinsic.
    Builtin(Builtin),
    /// `x.a.b` written as a qualified name where `x` is a local or top-level
    /// value: the head's resolution and the field path.
    Projection { head: Box<Resolution>, fields: Vec<String> },
}

/// How a polymorphic definition was instantiated at one use.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Instantiation {
    /// Type parameter binder id → the type it was instantiated with.
    pub types: HashMap<NodeId, Type>,
    /// Size parameter binder id → the size it was instantiated with, in terms
    /// of names in scope at the use.
    pub sizes: HashMap<NodeId, Size>,
}

/// Where the declaration of a definition is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefLoc {
    /// A top-level declaration: the index of the file in the list given to
    /// the checker, and of the declaration in it.
    File { file_index: usize, dec_index: usize },
    /// A declaration inside a module: an index into [`TypeInfo::generated`].
    Generated(usize),
}

/// Facts about one top-level definition.
#[derive(Clone, Debug)]
pub struct DefInfo {
    pub name: String,
    pub loc: DefLoc,
    pub is_entry: bool,
    /// The definition's full type, curried over its parameters.
    pub ty: Type,
    /// Its size parameters: the explicit ones, then the implicit ones that
    /// anonymous sizes `[]` in its parameters became.
    pub size_params: Vec<NodeId>,
}

/// Everything the checker found out about a well-typed program.
#[derive(Clone, Debug, Default)]
pub struct TypeInfo {
    /// The type of every expression node (shared: many nodes, a functor's
    /// copies above all, have one type).
    pub expr_types: HashMap<NodeId, std::sync::Arc<Type>>,
    /// The type of every pattern node and of every binder.
    pub binding_types: HashMap<NodeId, std::sync::Arc<Type>>,
    /// For every `Var`, `BinOp`, `OpSection`, `LeftSection`, `RightSection`,
    /// `Negate`, `Not` node: what the name or operator refers to.
    pub resolutions: HashMap<NodeId, Resolution>,
    /// For every reference to a polymorphic definition or built-in.
    pub instantiations: HashMap<NodeId, Instantiation>,
    /// Top-level definitions, indexed by `DefId`.
    pub defs: Vec<DefInfo>,
    /// The entry points of the main file (all `entry` declarations, and `main` if present), in source order.
    pub entries: Vec<DefId>,
    /// The value declarations found inside modules, each with node ids of
    /// its own (a functor's body is copied for each application).
    pub generated: Vec<ogham_syntax::ast::ValueDec>,
    /// The references of recursive functions to themselves, inside their
    /// own bodies. Recursion is monomorphic: such a reference uses the
    /// enclosing instantiation's type parameters (its `instantiations`
    /// entry holds only sizes).
    pub recursive_uses: rustc_hash::FxHashSet<NodeId>,
    /// For each opaque size (a size written as an expression that is not a
    /// polynomial of names, such as `i64.i32 n` or `intsqrt n`), the first
    /// checked expression that denoted it. Lowering evaluates it where such
    /// a size is needed and not otherwise known (`unflatten` to `[i64.i32
    /// n][i64.i32 m]`) and the names it mentions are in scope.
    pub opaque_sizes: HashMap<NodeId, ogham_syntax::ast::Expr>,
    /// Opaque sizes made by substitution (`inc n` used where `n` is `k+1`):
    /// the opaque size of `opaque_sizes` whose expression computes it, and
    /// the size each name in that expression stands for.
    pub opaque_derived: HashMap<NodeId, (NodeId, Vec<(NodeId, crate::size::Size)>)>,
    /// For each local function (by the node id of its name) whose
    /// parameters have sizes nothing outside it determines: the size
    /// parameters the checker gave it (`let mean xs = …` is `[n]`), after
    /// its explicit ones. Lowering binds them from the arguments' shapes.
    pub local_implicit_sizes: HashMap<NodeId, Vec<NodeId>>,
}
