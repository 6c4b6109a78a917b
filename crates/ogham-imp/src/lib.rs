//! The imperative IR: loops, scalar variables and raw pointers, between the
//! core IR and the C printers.
//!
//! A [`Kernel`] is a piece of imperative code with explicit memory: its
//! parameters are scalars (sizes, strides, loop bounds, free variables,
//! accumulators) and pointers to the first element of arrays, and its body
//! reads and writes elements through pointer arithmetic that the IR spells
//! out (`load p[i]`, `store p[i] = v`, with every index an `i64`
//! computed by ordinary statements). Nothing in a kernel calls another
//! function or fails, but for running out of memory in an `alloc` (its
//! scratch buffers), so loop transformations may duplicate, reorder and
//! version its code freely; that is what makes them passes on this IR
//! ([`passes`]) rather than decisions taken while printing C.
//!
//! Invariants, checked by [`verify`]:
//! - every variable is bound once in its kernel (by a parameter, `let`,
//!   `mut`, `array` or a `for` index) and used only where that binding is
//!   in scope; the names of a kernel are [`Var`] numbers with base names in
//!   [`Kernel::names`];
//! - operands have the types their operations take (`ldexp`'s exponent is
//!   `i32`, comparisons give `bool`, `is_nan` gives `bool`, `popc` `i32`);
//!   indices and loop bounds are `i64`;
//! - only `mut` variables and `inout` parameters are assigned (`set`,
//!   `accumulate`); only `write` pointers, local `array`s and `alloc`s are
//!   stored to; a `while` loop's condition is a `mut` boolean; an `alloc`
//!   is freed once, in the block that allocated it, and not used after;
//! - only `write` pointers are updated by `atomic`, whose body only
//!   computes (`let`s of arithmetic, no loads; `mut`s and `set`s of its
//!   own variables; branches of such code) and whose old and new values
//!   have the pointer's element type;
//! - `accumulate` uses an associative operator ([`reassociable`]), and
//!   multiplies its term by a second operand only for a float `add`: it
//!   records that the sum it builds may be grouped in any way (the contract
//!   of a `reduce` operator), which is what lets [`passes::lanes`] fold it
//!   in vector lanes. A loop that reads the variable after accumulating
//!   into it builds a scan: the value read combines the terms so far, again
//!   grouped in any way (the contract of a `scan` operator; see [`scan`]).
//!   Any other update is a `set`, done in program order.
//!
//! Memory: a `write` pointer points to memory that nothing else the kernel
//! reaches reads or writes (an array the enclosing statement allocated), so
//! it may be `restrict`; `read` pointers are only read. Elements are
//! addressed by element offsets from the pointer, so a pointer to a row of
//! a larger array is a pointer plus the row's offset.
//!
//! The text form ([`print`], read back by [`parse`]):
//!
//! ```text
//! kernel sum(lo_0: i64, hi_1: i64, xs_2: read f32*, s_3: stride i64, acc_4: inout f32) {
//!   for j_5 in lo_0 .. hi_1 {
//!     let o_6: i64 = mul.i64 j_5 s_3
//!     let x_7: f32 = load xs_2[o_6]
//!     accumulate add.f32 acc_4 x_7
//!   }
//! }
//! ```
//!
//! [`lower`] builds kernels from the core IR's SOACs; `ogham-c` prints them.

pub mod lower;
pub mod parse;
pub mod passes;
pub mod print;
pub mod scan;
pub mod verify;

pub use ogham_ir::{BinOp, CmpOp, ConvOp, PrimType, PrimValue, TernOp, UnOp};

/// A variable of one kernel: an index into [`Kernel::names`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

/// A constant or a variable.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    Var(Var),
    Const(PrimValue),
}

/// The type of a variable: a scalar, or a pointer to elements of a scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Prim(PrimType),
    Ptr(PrimType),
}

/// What a kernel's caller passes for a parameter, and what the kernel may do with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A scalar the kernel reads.
    Value,
    /// A scalar the kernel reads: a stride, which may have any value but
    /// is most often 1 ([`passes::unit_stride`] specialises for that).
    Stride,
    /// A scalar the kernel reads and assigns; the caller sees its final value.
    InOut,
    /// A pointer the kernel only reads through.
    Read,
    /// A pointer to memory only this pointer reaches within the kernel.
    Write,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub var: Var,
    pub ty: Ty,
    pub kind: ParamKind,
}

/// An expression: one operation on operands.
#[derive(Clone, Debug, PartialEq)]
pub enum Exp {
    Operand(Operand),
    Bin(BinOp, PrimType, Operand, Operand),
    Cmp(CmpOp, PrimType, Operand, Operand),
    Un(UnOp, PrimType, Operand),
    Tern(TernOp, PrimType, Operand, Operand, Operand),
    /// `Conv(op, from, to, x)`.
    Conv(ConvOp, PrimType, PrimType, Operand),
    /// `cond ? a : b`, both operands already computed.
    Select(Operand, Operand, Operand),
    /// Element `index` of the pointer or local array.
    Load(Var, Operand),
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stm {
    /// Binds an immutable scalar.
    Let {
        var: Var,
        ty: PrimType,
        exp: Exp,
    },
    /// Declares a mutable scalar with its initial value.
    Mut {
        var: Var,
        ty: PrimType,
        init: Operand,
    },
    /// Assigns a mutable scalar or an `inout` parameter.
    Set {
        var: Var,
        exp: Exp,
    },
    /// `var := var op value`, where the terms `var` accumulates may be
    /// grouped in any order (see the module documentation). With `times`
    /// (only for `add` on floats), the term is the product `value * times`,
    /// added unrounded: a fused multiply–add ([`passes::contract`]).
    Accumulate {
        var: Var,
        op: BinOp,
        ty: PrimType,
        value: Operand,
        times: Option<Operand>,
    },
    /// Writes element `index` of a `write` pointer or local array.
    Store {
        ptr: Var,
        index: Operand,
        value: Operand,
    },
    /// Updates element `index` of a `write` pointer in one indivisible
    /// step, even where tasks running in parallel update the same element
    /// (a histogram's or an accumulator's bucket): binds `old` to the
    /// element's value, runs `body` and stores `new`. The body only
    /// computes: `let`s of arithmetic (no loads), `mut`s and `set`s of its
    /// own variables and branches of such code, reading `old` and variables
    /// bound outside it, so a printer may run it
    /// more than once (a compare-and-swap loop retries it when another
    /// task changed the element in between). Updates of one element
    /// happen one after another in some order, so the update is an
    /// associative and commutative operator (the contract of `hist` and of
    /// accumulators) for the result not to depend on it, up to float
    /// rounding.
    Atomic {
        ptr: Var,
        index: Operand,
        old: Var,
        body: Block,
        new: Operand,
    },
    /// A hint that element `index` of the pointer will be read soon, so
    /// the processor may start fetching it. It reads nothing and changes
    /// no value; the element may lie outside the array (beyond the last
    /// iteration), where the hint is dropped.
    Prefetch {
        ptr: Var,
        index: Operand,
    },
    /// A local array of `len` elements; `var` points to its first.
    Array {
        var: Var,
        elem: PrimType,
        len: u32,
    },
    /// `len` elements of heap memory (uninitialised); `var` points to the
    /// first. If the memory cannot be had, the kernel fails ("Out of
    /// memory.", at its caller's location), after freeing what it
    /// allocated.
    Alloc {
        var: Var,
        elem: PrimType,
        len: Operand,
    },
    /// Releases memory of an `alloc`; the pointer is not used after.
    Free {
        var: Var,
    },
    /// `for index in lo .. hi`, ascending by one. `ivdep`: no iteration
    /// reads memory another iteration writes, so the C compiler may run
    /// them in vector lanes without proving it.
    For {
        index: Var,
        lo: Operand,
        hi: Operand,
        ivdep: bool,
        body: Block,
    },
    If {
        cond: Operand,
        then_block: Block,
        else_block: Block,
    },
    /// Runs `body` while the `mut` boolean `cond` is true, tested before
    /// each iteration.
    While {
        cond: Var,
        body: Block,
    },
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    pub stms: Vec<Stm>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub name: String,
    /// The base name of each variable, by number.
    pub names: Vec<String>,
    pub params: Vec<Param>,
    pub body: Block,
}

impl Kernel {
    pub fn new(name: &str) -> Kernel {
        Kernel { name: name.to_string(), names: Vec::new(), params: Vec::new(), body: Block::default() }
    }

    /// A new variable with base name `base`.
    pub fn fresh(&mut self, base: &str) -> Var {
        self.names.push(base.to_string());
        Var(self.names.len() as u32 - 1)
    }

    /// Adds a parameter and gives its variable.
    pub fn param(&mut self, base: &str, ty: Ty, kind: ParamKind) -> Var {
        let var = self.fresh(base);
        self.params.push(Param { var, ty, kind });
        var
    }

    /// The printed name of a variable, `base_N`.
    pub fn name(&self, v: Var) -> String {
        let base = self.names.get(v.0 as usize).map(String::as_str).unwrap_or("v");
        format!("{base}_{}", v.0)
    }
}

/// Whether `op` on `t` is associative, so that [`Stm::Accumulate`] may use
/// it: `+`, `*`, `min`, `max` (floats by the language's contract for
/// `reduce`, see `docs/language.md`), bitwise and logical and/or/xor.
pub fn reassociable(op: BinOp, t: PrimType) -> bool {
    match op {
        BinOp::Add | BinOp::Mul | BinOp::Min | BinOp::Max => t != PrimType::Bool,
        BinOp::And | BinOp::Or | BinOp::Xor => !t.is_float(),
        BinOp::LogAnd | BinOp::LogOr => t == PrimType::Bool,
        _ => false,
    }
}

/// The neutral element of a [`reassociable`] operator: `x op e == x` for
/// every `x`, signed zeros and infinities included (`-0.0` for a float sum).
pub fn neutral(op: BinOp, t: PrimType) -> Option<PrimValue> {
    use PrimValue as V;
    let float = |x: f64| PrimValue::from_f64(t, x);
    Some(match op {
        BinOp::Add if t.is_float() => float(-0.0),
        BinOp::Add | BinOp::Or | BinOp::Xor => PrimValue::zero(t),
        BinOp::Mul => PrimValue::from_i64(t, 1),
        BinOp::And => PrimValue::from_i64(t, -1),
        BinOp::LogAnd => V::Bool(true),
        BinOp::LogOr => V::Bool(false),
        BinOp::Min if t.is_float() => float(f64::INFINITY),
        BinOp::Max if t.is_float() => float(f64::NEG_INFINITY),
        BinOp::Min => int_bound(t, true)?,
        BinOp::Max => int_bound(t, false)?,
        _ => return None,
    })
}

/// The largest (`max`) or smallest value of an integer type.
fn int_bound(t: PrimType, max: bool) -> Option<PrimValue> {
    use PrimValue as V;
    Some(match (t, max) {
        (PrimType::I8, true) => V::I8(i8::MAX),
        (PrimType::I8, false) => V::I8(i8::MIN),
        (PrimType::I16, true) => V::I16(i16::MAX),
        (PrimType::I16, false) => V::I16(i16::MIN),
        (PrimType::I32, true) => V::I32(i32::MAX),
        (PrimType::I32, false) => V::I32(i32::MIN),
        (PrimType::I64, true) => V::I64(i64::MAX),
        (PrimType::I64, false) => V::I64(i64::MIN),
        (PrimType::U8, true) => V::U8(u8::MAX),
        (PrimType::U16, true) => V::U16(u16::MAX),
        (PrimType::U32, true) => V::U32(u32::MAX),
        (PrimType::U64, true) => V::U64(u64::MAX),
        (t, false) if t.is_unsigned_int() => PrimValue::zero(t),
        _ => return None,
    })
}

/// The type of what an expression computes, given the types of variables
/// (`None` for a load from something that is not a pointer).
pub fn exp_type(exp: &Exp, ty_of: impl Fn(Var) -> Option<Ty>) -> Option<PrimType> {
    let operand = |o: &Operand| match o {
        Operand::Const(v) => Some(v.prim_type()),
        Operand::Var(v) => match ty_of(*v)? {
            Ty::Prim(t) => Some(t),
            Ty::Ptr(_) => None,
        },
    };
    match exp {
        Exp::Operand(o) => operand(o),
        Exp::Bin(_, t, ..) | Exp::Tern(_, t, ..) => Some(*t),
        Exp::Cmp(..) => Some(PrimType::Bool),
        Exp::Un(op, t, _) => Some(match op {
            UnOp::IsNan | UnOp::IsInf => PrimType::Bool,
            UnOp::Popc | UnOp::Clz | UnOp::Ctz => PrimType::I32,
            _ => *t,
        }),
        Exp::Conv(_, _, to, _) => Some(*to),
        Exp::Select(_, a, _) => operand(a),
        Exp::Load(p, _) => match ty_of(*p)? {
            Ty::Ptr(t) => Some(t),
            Ty::Prim(_) => None,
        },
    }
}

impl Block {
    /// Whether the block only computes, as the body of a [`Stm::Atomic`]
    /// must: `let`s of arithmetic (no loads), `mut`s, `set`s of variables
    /// it binds itself, and branches of such code; so running it again
    /// does nothing but compute the same values again.
    pub fn computes_only(&self) -> bool {
        fn walk(b: &Block, own: &rustc_hash::FxHashSet<Var>) -> bool {
            b.stms.iter().all(|s| match s {
                Stm::Let { exp, .. } => !matches!(exp, Exp::Load(..)),
                Stm::Mut { .. } => true,
                Stm::Set { var, exp } => own.contains(var) && !matches!(exp, Exp::Load(..)),
                Stm::If { then_block, else_block, .. } => walk(then_block, own) && walk(else_block, own),
                _ => false,
            })
        }
        let mut own = rustc_hash::FxHashSet::default();
        passes::binders(self, &mut own);
        walk(self, &own)
    }

    /// How often each variable is read ([`Stm::operands`]), in nested
    /// blocks too.
    pub fn uses(&self) -> rustc_hash::FxHashMap<Var, usize> {
        fn count(b: &Block, uses: &mut rustc_hash::FxHashMap<Var, usize>) {
            for s in &b.stms {
                for o in s.operands() {
                    if let Operand::Var(v) = o {
                        *uses.entry(v).or_default() += 1;
                    }
                }
                match s {
                    Stm::For { body, .. } | Stm::While { body, .. } | Stm::Atomic { body, .. } => count(body, uses),
                    Stm::If { then_block, else_block, .. } => {
                        count(then_block, uses);
                        count(else_block, uses);
                    }
                    _ => {}
                }
            }
        }
        let mut uses = rustc_hash::FxHashMap::default();
        count(self, &mut uses);
        uses
    }
}

impl Stm {
    /// The operands the statement reads itself (not those of nested
    /// statements): an accumulator's own value, a pointer it loads from or
    /// stores to, and a loop's bounds included.
    pub fn operands(&self) -> Vec<Operand> {
        match self {
            Stm::Let { exp, .. } | Stm::Set { exp, .. } => exp.operands(),
            Stm::Mut { init, .. } => vec![*init],
            Stm::Accumulate { var, value, times, .. } => {
                [Operand::Var(*var), *value].into_iter().chain(*times).collect()
            }
            Stm::Store { ptr, index, value } => vec![Operand::Var(*ptr), *index, *value],
            Stm::Atomic { ptr, index, new, .. } => vec![Operand::Var(*ptr), *index, *new],
            Stm::For { lo, hi, .. } => vec![*lo, *hi],
            Stm::If { cond, .. } => vec![*cond],
            Stm::While { cond, .. } => vec![Operand::Var(*cond)],
            Stm::Alloc { len, .. } => vec![*len],
            Stm::Prefetch { ptr, index } => vec![Operand::Var(*ptr), *index],
            Stm::Array { .. } | Stm::Free { .. } => vec![],
        }
    }
}

impl Exp {
    /// The operands this expression reads (a load's pointer included).
    pub fn operands(&self) -> Vec<Operand> {
        match self {
            Exp::Operand(a) | Exp::Un(_, _, a) | Exp::Conv(_, _, _, a) => vec![*a],
            Exp::Bin(_, _, a, b) | Exp::Cmp(_, _, a, b) => vec![*a, *b],
            Exp::Tern(_, _, a, b, c) | Exp::Select(a, b, c) => vec![*a, *b, *c],
            Exp::Load(p, i) => vec![Operand::Var(*p), *i],
        }
    }

    /// Applies `f` to every operand (a load's pointer included, as an operand).
    pub fn map_operands(&mut self, mut f: impl FnMut(&mut Operand)) {
        match self {
            Exp::Operand(a) | Exp::Un(_, _, a) | Exp::Conv(_, _, _, a) => f(a),
            Exp::Bin(_, _, a, b) | Exp::Cmp(_, _, a, b) => {
                f(a);
                f(b)
            }
            Exp::Tern(_, _, a, b, c) | Exp::Select(a, b, c) => {
                f(a);
                f(b);
                f(c)
            }
            Exp::Load(p, i) => {
                let mut po = Operand::Var(*p);
                f(&mut po);
                if let Operand::Var(q) = po {
                    *p = q;
                }
                f(i)
            }
        }
    }
}
