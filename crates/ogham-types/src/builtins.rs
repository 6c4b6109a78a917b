//! The built-in vocabulary: primitive operators, numeric-module members
//! (`f32.sqrt`, `i32.f64`, `i64.sum`, …) and the intrinsics the prelude is
//! written on (`intrinsics.map`, …).
//!
//! The checker types every built-in from the signatures here; `ogham-lower`
//! gives each its meaning by matching on [`Builtin`]. Adding a built-in means
//! adding it here and in lowering, nowhere else.

use ogham_prim::ops::{BinOp, CmpOp};
use ogham_prim::PrimType;

#[derive(Clone, Debug, PartialEq)]
pub enum Builtin {
    /// A built-in binary operator on two primitive operands of the same type
    /// (the type is that of the operand expressions): `+ - * / % // %% ** & | ^ << >> >>>`.
    BinOp(BinOp),
    /// `< <= > >=` on primitives, and `== !=` on primitives.
    CmpOp(CmpOp),
    /// `==` and `!=` on non-primitive types (arrays, records, sums): structural.
    Equal,
    NotEqual,
    /// `&&` and `||`: short-circuiting.
    LogAnd,
    LogOr,
    /// Prefix `-` and `!`.
    Neg,
    Not,
    /// A member of a numeric module, e.g. `f32.sqrt`, `i32.f64`, `f64.pi`, `u8.highest`, `i64.sum`.
    ModuleMember {
        module: PrimType,
        name: String,
    },
    /// `intrinsics.NAME`; see [`INTRINSICS`].
    Intrinsic(String),
}

/// The intrinsics, with their types in Futhark's declaration syntax (type
/// parameters, parameters, return type). The prelude (`prelude/*.fut`) defines
/// the user-facing functions on top of these.
///
/// Semantics, where not obvious:
/// - `hist_1d dest op ne is vs`: `reduce_by_index`; out-of-bounds indices are ignored.
/// - `scatter dest is vs`: out-of-bounds indices are ignored.
/// - `partition k f as`: stable partition of `as` into classes `0..k-1` by `f`
///   (elements whose class is out of range are dropped from the end), returning
///   the reordered array and the size of each class.
/// - `filter p as`: the elements satisfying `p`, in order (existential size).
/// - `flatten`, `unflatten`, `transpose`, `zip`, `unzip` never copy at run time.
/// - `jvp2 f x dx`: `f x` and its derivative at `x` in the direction `dx`
///   (forward-mode automatic differentiation; the middle end's `ad` pass).
/// - `vjp2 f x dy`: `f x` and the adjoint of `x` for the result adjoint
///   `dy` (reverse mode).
/// - `jmp2 f x dxs`, `mjp2 f x dys`: `f x` and the derivatives for every
///   row of the directions, with one forward sweep.
/// - `with_vjp f df x`: `f x`, whose reverse derivative is
///   `df (f x) dy` instead of `f`'s own.
/// - `scatter_stream dest f bs`: `dest` after `f acc b` for every `b` of
///   `bs` (in any order), where `acc_write acc i v` writes `v` at `i` of
///   the accumulator (`intrinsics.acc`, see `ty::acc_of`) standing for
///   `dest`, out-of-bounds indices ignored; `hist_stream dest op ne f bs`
///   likewise, each write combined with the element by `op`.
pub const INTRINSICS: &[(&str, &str)] = &[
    ("map", "'a [n] 'x (f: a -> x) (as: [n]a) : *[n]x"),
    ("reduce", "[n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : a"),
    ("reduce_comm", "[n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : a"),
    ("scan", "[n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : *[n]a"),
    ("hist_1d", "'a [n] [k] (dest: *[k]a) (op: a -> a -> a) (ne: a) (is: [n]i64) (as: [n]a) : *[k]a"),
    ("hist_2d", "'a [n] [k] [l] (dest: *[k][l]a) (op: a -> a -> a) (ne: a) (is: [n](i64, i64)) (as: [n]a) : *[k][l]a"),
    ("hist_3d", "'a [n] [k] [l] [p] (dest: *[k][l][p]a) (op: a -> a -> a) (ne: a) (is: [n](i64, i64, i64)) (as: [n]a) : *[k][l][p]a"),
    ("scatter", "'t [k] [n] (dest: *[k]t) (is: [n]i64) (vs: [n]t) : *[k]t"),
    ("scatter_2d", "'t [k] [l] [n] (dest: *[k][l]t) (is: [n](i64, i64)) (vs: [n]t) : *[k][l]t"),
    ("scatter_3d", "'t [k] [l] [p] [n] (dest: *[k][l][p]t) (is: [n](i64, i64, i64)) (vs: [n]t) : *[k][l][p]t"),
    ("partition", "[n] 'a (k: i64) (f: a -> i64) (as: [n]a) : ([n]a, [k]i64)"),
    ("filter", "[n] 'a (p: a -> bool) (as: [n]a) : *[]a"),
    ("zip", "[n] 'a 'b (as: [n]a) (bs: [n]b) : *[n](a, b)"),
    ("unzip", "[n] 'a 'b (xs: [n](a, b)) : ([n]a, [n]b)"),
    ("iota", "(n: i64) : *[n]i64"),
    ("replicate", "'t (n: i64) (x: t) : *[n]t"),
    ("copy", "'t (x: t) : *t"),
    ("concat", "[n] [m] 't (xs: [n]t) (ys: [m]t) : *[n+m]t"),
    ("transpose", "[n] [m] 't (xs: [n][m]t) : [m][n]t"),
    ("flatten", "[n] [m] 't (xs: [n][m]t) : [n*m]t"),
    ("unflatten", "'t [n] [m] (xs: [n*m]t) : [n][m]t"),
    ("rotate", "[n] 't (r: i64) (xs: [n]t) : [n]t"),
    ("jvp2", "'a 'b (f: a -> b) (x: a) (dx: a) : (b, b)"),
    ("vjp2", "'a 'b (f: a -> b) (x: a) (dy: b) : (b, a)"),
    ("jmp2", "'a 'b [n] (f: a -> b) (x: a) (dxs: [n]a) : (b, [n]b)"),
    ("mjp2", "'a 'b [n] (f: a -> b) (x: a) (dys: [n]b) : (b, [n]a)"),
    ("with_vjp", "'a 'b (f: a -> b) (df: b -> b -> a) (x: a) : b"),
    ("scatter_stream", "'a 'b [k] [n] (dest: *[k]a) (f: *acc ([k]a) -> b -> acc ([k]a)) (bs: [n]b) : *[k]a"),
    (
        "hist_stream",
        "'a 'b [k] [n] (dest: *[k]a) (op: a -> a -> a) (ne: a) (f: *acc ([k]a) -> b -> acc ([k]a)) (bs: [n]b) : *[k]a",
    ),
    ("acc_write", "[k] 'a (acc: *acc ([k]a)) (i: i64) (v: a) : *acc ([k]a)"),
];

/// Looks up an intrinsic's signature by name.
pub fn intrinsic_signature(name: &str) -> Option<&'static str> {
    INTRINSICS.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}
