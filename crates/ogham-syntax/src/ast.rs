//! The abstract syntax tree of a `.fut` source file, as parsed.
//!
//! The tree is close to the source: operators keep their written names, sections
//! and ranges are their own nodes. Only pure notational sugar is removed by the
//! parser: `let a[i] = v` becomes `let a = a with [i] = v`, `let r.f = v`
//! becomes a record update, a `let` without `in` nests the following one,
//! character literals become integer literals, and string literals become
//! `Literal::String`.
//!
//! Every expression and pattern has a [`NodeId`], unique across all files of a
//! compilation (the parser takes a shared [`NodeIds`] counter). Every binding
//! site has one too: a variable pattern, or a [`Binder`] for size parameters,
//! type parameters and local function names. The type checker reports its
//! results in side tables keyed by these ids (see `ogham_types::TypeInfo`).

use crate::source::Span;
use ogham_prim::PrimType;

/// Identity of an expression, pattern or binder, unique within one compilation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// Hands out fresh [`NodeId`]s; one per compilation, shared by every file parsed.
#[derive(Debug, Default)]
pub struct NodeIds {
    next: u32,
}

impl NodeIds {
    pub fn fresh(&mut self) -> NodeId {
        self.next += 1;
        NodeId(self.next)
    }
}

/// A name as written, with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

/// A binding occurrence of a name that is not a pattern: size parameters `[n]`,
/// type parameters `'a`, `let [n]`, existential `?[k]`, local function names.
#[derive(Clone, Debug, PartialEq)]
pub struct Binder {
    pub name: Name,
    pub id: NodeId,
}

/// A possibly qualified name: `x`, `f32.sqrt`, `intrinsics.map`, `r.a.b`
/// (a record projection chain is parsed as a qualified name when the head is a
/// plain identifier; the type checker decides which it is).
#[derive(Clone, Debug, PartialEq)]
pub struct QualName {
    pub quals: Vec<String>,
    pub name: String,
    pub span: Span,
}

impl QualName {
    pub fn unqualified(name: impl Into<String>, span: Span) -> QualName {
        QualName { quals: Vec::new(), name: name.into(), span }
    }
}

impl std::fmt::Display for QualName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for q in &self.quals {
            write!(f, "{q}.")?;
        }
        f.write_str(&self.name)
    }
}

/// One source file.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub decs: Vec<Dec>,
}

impl Program {
    /// Every file this one imports, as written, in order: `import "x"`
    /// declarations and `import "x"` module expressions at any depth.
    pub fn imports(&self) -> Vec<(String, Span)> {
        fn dec(d: &Dec, out: &mut Vec<(String, Span)>) {
            match d {
                Dec::Import { path, span } => out.push((path.clone(), *span)),
                Dec::Module(m) => mod_exp(&m.body, out),
                Dec::Open(m, _) => mod_exp(m, out),
                Dec::Local(d, _) => dec(d, out),
                Dec::Value(_) | Dec::Type(_) | Dec::ModType { .. } => {}
            }
        }
        fn mod_exp(m: &ModExp, out: &mut Vec<(String, Span)>) {
            match m {
                ModExp::Import(path, span) => out.push((path.clone(), *span)),
                ModExp::Struct(decs, _) => decs.iter().for_each(|d| dec(d, out)),
                ModExp::Ascribe(m, _, _) | ModExp::Lambda(_, _, m, _) => mod_exp(m, out),
                ModExp::Apply(f, a, _) => {
                    mod_exp(f, out);
                    mod_exp(a, out);
                }
                ModExp::Var(_) => {}
            }
        }
        let mut out = Vec::new();
        self.decs.iter().for_each(|d| dec(d, &mut out));
        out
    }
}

#[derive(Clone, Debug)]
pub enum Dec {
    Value(ValueDec),
    Type(TypeDec),
    /// `import "path"` (path as written, without `.fut`).
    Import {
        path: String,
        span: Span,
    },
    /// `module M (P: S) … : R = e`
    Module(ModBind),
    /// `module type S = s`
    ModType {
        name: Name,
        sig: SigExp,
        span: Span,
    },
    /// `open e`: the module's names come into scope (and are re-exported).
    Open(ModExp, Span),
    /// `local d`: `d`'s names are in scope for what follows but not exported.
    Local(Box<Dec>, Span),
}

impl Dec {
    pub fn span(&self) -> Span {
        match self {
            Dec::Value(v) => v.span,
            Dec::Type(t) => t.span,
            Dec::Import { span, .. } | Dec::ModType { span, .. } | Dec::Open(_, span) | Dec::Local(_, span) => *span,
            Dec::Module(m) => m.span,
        }
    }
}

/// A module binding: `module name params : sig = body`.
#[derive(Clone, Debug)]
pub struct ModBind {
    pub name: Name,
    /// Functor parameters, outermost first.
    pub params: Vec<ModParam>,
    pub sig: Option<SigExp>,
    pub body: ModExp,
    pub span: Span,
}

/// A functor parameter `(name: sig)`.
#[derive(Clone, Debug)]
pub struct ModParam {
    pub name: Name,
    pub sig: SigExp,
    pub span: Span,
}

/// A module expression.
#[derive(Clone, Debug)]
pub enum ModExp {
    /// `M`, `M.N`
    Var(QualName),
    /// `{ decs }`
    Struct(Vec<Dec>, Span),
    /// `import "path"`
    Import(String, Span),
    /// `e : s`
    Ascribe(Box<ModExp>, SigExp, Span),
    /// `f e`: functor application.
    Apply(Box<ModExp>, Box<ModExp>, Span),
    /// `\(p: s) : r -> e`: an anonymous functor.
    Lambda(ModParam, Option<SigExp>, Box<ModExp>, Span),
}

impl ModExp {
    pub fn span(&self) -> Span {
        match self {
            ModExp::Var(q) => q.span,
            ModExp::Struct(_, s)
            | ModExp::Import(_, s)
            | ModExp::Ascribe(_, _, s)
            | ModExp::Apply(_, _, s)
            | ModExp::Lambda(_, _, _, s) => *s,
        }
    }
}

/// A module type (signature) expression.
#[derive(Clone, Debug)]
pub enum SigExp {
    /// `S`, `M.S`
    Var(QualName),
    /// `{ specs }`
    Specs(Vec<Spec>, Span),
    /// `s with t 'a = te` (`path` names a type inside `s`).
    With { sig: Box<SigExp>, path: QualName, params: Vec<TypeParam>, def: TypeExp, span: Span },
    /// `(p: s) -> r` or `s -> r`: the type of a functor.
    Arrow { param: Option<Name>, from: Box<SigExp>, to: Box<SigExp>, span: Span },
}

impl SigExp {
    pub fn span(&self) -> Span {
        match self {
            SigExp::Var(q) => q.span,
            SigExp::Specs(_, s) | SigExp::With { span: s, .. } | SigExp::Arrow { span: s, .. } => *s,
        }
    }
}

/// One specification in a module type.
#[derive(Clone, Debug)]
pub enum Spec {
    /// `val f [n] 'a : t` (also `val (+) : t`)
    Val { name: Name, type_params: Vec<TypeParam>, ty: TypeExp, span: Span },
    /// `type t 'a` (abstract, `def` is `None`) or `type t 'a = te`.
    Type { name: Binder, liftedness: Liftedness, params: Vec<TypeParam>, def: Option<TypeExp>, span: Span },
    /// `module M : s`
    Module { name: Name, sig: SigExp, span: Span },
    /// `include s`
    Include(SigExp, Span),
}

/// `def`/`entry`/`let` at top level.
#[derive(Clone, Debug)]
pub struct ValueDec {
    pub entry: bool,
    /// The defined name; for operators, the operator symbol (`+^`).
    pub name: Binder,
    pub type_params: Vec<TypeParam>,
    pub params: Vec<Pat>,
    pub ret: Option<TypeExp>,
    pub body: Expr,
    pub attrs: Vec<Attr>,
    /// The `-- |` documentation comment, if any.
    pub doc: Option<String>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Liftedness {
    /// `'a` / `type`
    Unlifted,
    /// `'~a` / `type~`
    SizeLifted,
    /// `'^a` / `type^`
    Lifted,
}

#[derive(Clone, Debug)]
pub enum TypeParam {
    /// `[n]`
    Size(Binder),
    /// `'a`, `'~a`, `'^a`
    Type(Binder, Liftedness),
}

/// `type name params = def`
#[derive(Clone, Debug)]
pub struct TypeDec {
    pub name: Binder,
    pub liftedness: Liftedness,
    pub params: Vec<TypeParam>,
    pub def: TypeExp,
    pub span: Span,
}

/// A type as written.
#[derive(Clone, Debug)]
pub enum TypeExp {
    /// `i32`, `t`, `f32.t`
    Var(QualName),
    /// `(a, b)`; `()` is the unit type (empty tuple). A parenthesised single type is just that type.
    Tuple(Vec<TypeExp>, Span),
    /// `{x: f32, y: f32}`
    Record(Vec<(Name, TypeExp)>, Span),
    /// `[n]t`, `[]t`, `[n+1]t`
    Array(SizeExp, Box<TypeExp>, Span),
    /// `*t`
    Unique(Box<TypeExp>, Span),
    /// `t -> u` or `(x: t) -> u`
    Arrow { param: Option<Name>, from: Box<TypeExp>, to: Box<TypeExp>, span: Span },
    /// `#a i32 | #b`
    Sum(Vec<(Name, Vec<TypeExp>)>, Span),
    /// `t [n]`, `t i32`
    Apply(Box<TypeExp>, Box<TypeArg>, Span),
    /// `?[n][m].t`
    Existential(Vec<Binder>, Box<TypeExp>, Span),
}

impl TypeExp {
    pub fn span(&self) -> Span {
        match self {
            TypeExp::Var(q) => q.span,
            TypeExp::Tuple(_, s)
            | TypeExp::Record(_, s)
            | TypeExp::Array(_, _, s)
            | TypeExp::Unique(_, s)
            | TypeExp::Arrow { span: s, .. }
            | TypeExp::Sum(_, s)
            | TypeExp::Apply(_, _, s)
            | TypeExp::Existential(_, _, s) => *s,
        }
    }
}

/// The size in an array type.
#[derive(Clone, Debug)]
pub enum SizeExp {
    /// `[]`
    Anonymous(Span),
    /// `[e]`: any `i64` expression (usually a name or a constant).
    Expr(Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum TypeArg {
    Size(SizeExp),
    Type(TypeExp),
}

#[derive(Clone, Debug)]
pub struct Pat {
    pub id: NodeId,
    pub kind: PatKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum PatKind {
    /// Binds a name; the binding's identity is the pattern's `id`.
    Var(Name),
    Wildcard,
    /// `(a, b)`; `()` is the unit pattern.
    Tuple(Vec<Pat>),
    /// `{x, y = p}`; a pun `{x}` is given as `(x, Var x)`.
    Record(Vec<(Name, Pat)>),
    /// `(p: t)`
    Ascribe(Box<Pat>, TypeExp),
    /// `1`, `-1`, `true`, `'a'` in `match` cases.
    Literal(Literal),
    /// `#c p1 p2`
    Constructor(Name, Vec<Pat>),
    /// `#[attr] p`
    Attr(Attr, Box<Pat>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// An integer literal (possibly negated in patterns). A float suffix makes it a `Float`.
    Int {
        value: i128,
        suffix: Option<PrimType>,
    },
    Float {
        value: f64,
        suffix: Option<PrimType>,
    },
    Bool(bool),
    /// `"abc"`: a `[]u8` array of UTF-8 bytes.
    String(Vec<u8>),
}

/// `#[name]` or `#[name(args)]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attr {
    pub name: String,
    pub args: Vec<Attr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub id: NodeId,
    pub kind: ExprKind,
    pub span: Span,
}

/// One dimension of an index or slice: `i` or `a:b:s` (any part may be missing).
#[derive(Clone, Debug)]
pub enum DimIndex {
    Index(Expr),
    Slice { start: Option<Expr>, end: Option<Expr>, stride: Option<Expr> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeEnd {
    /// `..<`
    UpToExclusive,
    /// `..>`
    DownToExclusive,
    /// `...`
    ToInclusive,
}

#[derive(Clone, Debug)]
pub enum RecordField {
    Explicit(Name, Expr),
    /// `{x}` means `{x = x}`; the `NodeId` is that of the implied variable expression.
    Pun(Name, NodeId),
}

#[derive(Clone, Debug)]
pub enum LoopForm {
    /// `for i < n`
    For { var: Pat, bound: Box<Expr> },
    /// `for p in xs`
    ForIn { pat: Pat, array: Box<Expr> },
    /// `while c`
    While(Box<Expr>),
}

#[derive(Clone, Debug)]
pub struct Case {
    pub pat: Pat,
    pub body: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Literal(Literal),
    /// A variable, a qualified name, or a projection chain `r.a.b` (see [`QualName`]).
    Var(QualName),
    /// `(e)`
    Parens(Box<Expr>),
    /// `(a, b)`; `()` is unit.
    Tuple(Vec<Expr>),
    Record(Vec<RecordField>),
    ArrayLit(Vec<Expr>),
    /// `a..<b`, `a..s..<b` (where `second` is `s`), `a...b`, `a..>b`.
    Range {
        start: Box<Expr>,
        second: Option<Box<Expr>>,
        end: Box<Expr>,
        kind: RangeEnd,
    },
    /// `e.f` where `e` is not a plain name (otherwise it is a `Var` with qualifiers).
    Project(Box<Expr>, Name),
    /// `a[i, j:k]`
    Index(Box<Expr>, Vec<DimIndex>),
    /// Juxtaposition `f a b` (at least one argument).
    Apply(Box<Expr>, Vec<Expr>),
    /// `a op b`; `op` is the operator as written, or the function in `` a `f` b ``.
    BinOp {
        op: QualName,
        backquoted: bool,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `-e`
    Negate(Box<Expr>),
    /// `!e`
    Not(Box<Expr>),
    /// `(+)`, ``(`f`)``
    OpSection(QualName, bool),
    /// `(x +)`: the operator with its left operand given.
    LeftSection {
        op: QualName,
        backquoted: bool,
        lhs: Box<Expr>,
    },
    /// `(+ y)`: the operator with its right operand given.
    RightSection {
        op: QualName,
        backquoted: bool,
        rhs: Box<Expr>,
    },
    /// `(.a.b)`
    ProjectSection(Vec<Name>),
    /// `(.[i, j])`
    IndexSection(Vec<DimIndex>),
    If {
        cond: Box<Expr>,
        then_branch: Box<Expr>,
        else_branch: Box<Expr>,
    },
    /// `let [n] pat = value in body`
    Let {
        sizes: Vec<Binder>,
        pat: Pat,
        value: Box<Expr>,
        body: Box<Expr>,
    },
    /// `let f [n] 'a (x: t) : r = value in body`
    LetFun {
        name: Binder,
        type_params: Vec<TypeParam>,
        params: Vec<Pat>,
        ret: Option<TypeExp>,
        value: Box<Expr>,
        body: Box<Expr>,
    },
    /// `a with [i, j] = v`
    Update {
        array: Box<Expr>,
        index: Vec<DimIndex>,
        value: Box<Expr>,
    },
    /// `r with a.b = v`
    RecordUpdate {
        record: Box<Expr>,
        fields: Vec<Name>,
        value: Box<Expr>,
    },
    /// `\p1 p2 : t -> body`
    Lambda {
        params: Vec<Pat>,
        ret: Option<TypeExp>,
        body: Box<Expr>,
    },
    /// `loop pat = init form do body`; `init` is `None` for `loop pat for ...`
    Loop {
        pat: Pat,
        init: Option<Box<Expr>>,
        form: LoopForm,
        body: Box<Expr>,
    },
    Match {
        scrutinee: Box<Expr>,
        cases: Vec<Case>,
    },
    /// `e : t`
    Ascribe(Box<Expr>, TypeExp),
    /// `e :> t`
    Coerce(Box<Expr>, TypeExp),
    /// `assert cond e`
    Assert {
        cond: Box<Expr>,
        body: Box<Expr>,
    },
    /// `#c a b` (constructor with its payload, possibly empty)
    Constructor(Name, Vec<Expr>),
    /// `#[attr] e`
    Attr(Attr, Box<Expr>),
    /// `???`
    Hole,
    /// `M.(e)`: `e` with the names of module `M` in scope.
    OpenIn(QualName, Box<Expr>),
}
