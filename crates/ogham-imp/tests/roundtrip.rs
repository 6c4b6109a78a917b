//! The text form of kernels reads back exactly: for hand-built kernels
//! covering every statement, expression, parameter kind, operation name
//! and awkward constant, `parse(print(k))` is `k` (its names included) and
//! prints as `print(k)`; and malformed text gives an error with a plausible
//! position, never a panic.

use ogham_imp::parse::{parse_kernel, parse_kernels, ParseError, MAX_DEPTH};
use ogham_imp::print;
use ogham_imp::{Block, Exp, Kernel, Operand, ParamKind, PrimType, PrimValue, Stm, Ty, Var};
use ogham_ir::print::{BIN_OPS, CMP_OPS, CONV_OPS, TERN_OPS, UN_OPS};
use ogham_prim::f16;

use PrimType::*;

/// Checks that `k` reads back as itself and prints the same. Kernels are
/// compared by their `Debug` form too, which tells `-0.0` from `0.0` and
/// makes a NaN equal to a NaN.
fn roundtrip(k: &Kernel) {
    let text = print::kernel(k);
    let back = parse_kernel(&text).unwrap_or_else(|e| panic!("does not read back: {e}\n{text}"));
    assert_eq!(print::kernel(&back), text, "prints differently after reading back");
    assert_eq!(format!("{back:?}"), format!("{k:?}"), "reads back as another kernel:\n{text}");
    let has_nan = format!("{k:?}").contains("NaN");
    if !has_nan {
        assert_eq!(&back, k);
    }
}

fn v(x: Var) -> Operand {
    Operand::Var(x)
}

fn c(x: PrimValue) -> Operand {
    Operand::Const(x)
}

fn i64c(x: i64) -> Operand {
    c(PrimValue::I64(x))
}

fn let_(k: &mut Kernel, base: &str, ty: PrimType, exp: Exp) -> (Var, Stm) {
    let var = k.fresh(base);
    (var, Stm::Let { var, ty, exp })
}

/// A kernel with every statement, every kind of expression and every kind of parameter.
fn everything() -> Kernel {
    let mut k = Kernel::new("everything");
    let n = k.param("n", Ty::Prim(I64), ParamKind::Value);
    let s = k.param("s", Ty::Prim(I64), ParamKind::Stride);
    let acc = k.param("acc", Ty::Prim(F32), ParamKind::InOut);
    let xs = k.param("xs", Ty::Ptr(F32), ParamKind::Read);
    let ys = k.param("ys", Ty::Ptr(F32), ParamKind::Write);
    let flag = k.param("flag", Ty::Prim(Bool), ParamKind::Value);
    let count = k.param("row_count", Ty::Prim(I32), ParamKind::InOut);
    let mut body = Vec::new();

    let m = k.fresh("m");
    body.push(Stm::Mut { var: m, ty: F32, init: c(PrimValue::F32(-0.0)) });
    let go = k.fresh("go");
    body.push(Stm::Mut { var: go, ty: Bool, init: c(PrimValue::Bool(true)) });
    let tmp = k.fresh("tmp");
    body.push(Stm::Array { var: tmp, elem: F32, len: 16 });
    let heap = k.fresh("heap_buf");
    body.push(Stm::Alloc { var: heap, elem: F64, len: v(n) });
    let big = k.fresh("big");
    body.push(Stm::Alloc { var: big, elem: U8, len: i64c(1 << 40) });

    // A vectorisable loop with every kind of expression.
    let j = k.fresh("j");
    let mut inner = Vec::new();
    let (o, st) = let_(&mut k, "o", I64, Exp::Bin(ogham_imp::BinOp::Mul, I64, v(j), v(s)));
    inner.push(st);
    let (x, st) = let_(&mut k, "x", F32, Exp::Load(xs, v(o)));
    inner.push(st);
    let (lt, st) = let_(&mut k, "lt", Bool, Exp::Cmp(ogham_imp::CmpOp::Lt, I64, v(j), v(n)));
    inner.push(st);
    let (neg, st) = let_(&mut k, "neg", F32, Exp::Un(ogham_imp::UnOp::Neg, F32, v(x)));
    inner.push(st);
    let (f, st) = let_(&mut k, "f", F32, Exp::Tern(ogham_imp::TernOp::Fma, F32, v(x), v(neg), c(PrimValue::F32(2.5))));
    inner.push(st);
    let (d, st) = let_(&mut k, "d", F64, Exp::Conv(ogham_imp::ConvOp::Convert, F32, F64, v(f)));
    inner.push(st);
    let (bits, st) = let_(&mut k, "bits", U32, Exp::Conv(ogham_imp::ConvOp::Bitcast, F32, U32, v(f)));
    inner.push(st);
    let (sel, st) = let_(&mut k, "sel", F32, Exp::Select(v(lt), v(f), c(PrimValue::F32(f32::INFINITY))));
    inner.push(st);
    let (cst, st) = let_(&mut k, "cst", F64, Exp::Operand(c(PrimValue::F64(f64::NEG_INFINITY))));
    inner.push(st);
    let (copy, st) = let_(&mut k, "copy", F32, Exp::Operand(v(sel)));
    inner.push(st);
    inner.push(Stm::Store { ptr: ys, index: v(j), value: v(copy) });
    inner.push(Stm::Store { ptr: tmp, index: i64c(0), value: c(PrimValue::F32(f32::NAN)) });
    inner.push(Stm::Store { ptr: heap, index: v(o), value: v(d) });
    inner.push(Stm::Store { ptr: big, index: i64c(-1), value: c(PrimValue::U8(255)) });
    inner.push(Stm::Accumulate { var: acc, op: ogham_imp::BinOp::Add, ty: F32, value: v(x), times: None });
    inner.push(Stm::Accumulate {
        var: count,
        op: ogham_imp::BinOp::Xor,
        ty: I32,
        value: c(PrimValue::I32(i32::MIN)),
        times: None,
    });
    inner.push(Stm::Set { var: m, exp: Exp::Bin(ogham_imp::BinOp::Max, F32, v(m), v(x)) });
    let (_, st) = let_(&mut k, "unused_bits", U32, Exp::Operand(v(bits)));
    inner.push(st);
    let (_, st) = let_(&mut k, "unused_d", F64, Exp::Operand(v(cst)));
    inner.push(st);
    body.push(Stm::For { index: j, lo: i64c(0), hi: v(n), ivdep: true, body: Block { stms: inner } });

    // A plain loop with an empty body, and one with constant bounds.
    let e = k.fresh("e");
    body.push(Stm::For { index: e, lo: v(n), hi: v(n), ivdep: false, body: Block::default() });
    let l = k.fresh("l");
    let (_, st) = let_(&mut k, "lane", F32, Exp::Load(tmp, v(l)));
    body.push(Stm::For { index: l, lo: i64c(-3), hi: i64c(i64::MAX), ivdep: false, body: Block { stms: vec![st] } });

    // A while loop whose body sets its condition, with an if inside.
    let (again, st) = let_(&mut k, "again", Bool, Exp::Cmp(ogham_imp::CmpOp::Ne, Bool, v(go), v(flag)));
    let then_block = Block { stms: vec![Stm::Set { var: go, exp: Exp::Operand(c(PrimValue::Bool(false))) }] };
    let else_block = Block { stms: vec![Stm::Set { var: go, exp: Exp::Operand(v(again)) }] };
    body.push(Stm::While {
        cond: go,
        body: Block { stms: vec![st, Stm::If { cond: v(flag), then_block, else_block }] },
    });
    // Ifs with constant conditions and empty branches, nested.
    let inner_if =
        Stm::If { cond: c(PrimValue::Bool(false)), then_block: Block::default(), else_block: Block::default() };
    body.push(Stm::If {
        cond: c(PrimValue::Bool(true)),
        then_block: Block { stms: vec![inner_if] },
        else_block: Block::default(),
    });
    body.push(Stm::Set { var: acc, exp: Exp::Operand(v(m)) });
    body.push(Stm::Prefetch { ptr: xs, index: c(PrimValue::I64(4096)) });
    // An atomic update whose body branches.
    let old = k.fresh("old");
    let (gt, st) = let_(&mut k, "gt", Bool, Exp::Cmp(ogham_imp::CmpOp::Lt, F32, v(old), v(m)));
    let pick = k.fresh("pick");
    let choose = Stm::If {
        cond: v(gt),
        then_block: Block { stms: vec![Stm::Set { var: pick, exp: Exp::Operand(v(m)) }] },
        else_block: Block::default(),
    };
    let atomic_body = vec![st, Stm::Mut { var: pick, ty: F32, init: v(old) }, choose];
    body.push(Stm::Atomic { ptr: ys, index: v(n), old, body: Block { stms: atomic_body }, new: v(pick) });
    body.push(Stm::Free { var: heap });
    body.push(Stm::Free { var: big });
    k.body = Block { stms: body };
    k
}

#[test]
fn every_statement_and_expression() {
    let k = everything();
    let text = print::kernel(&k);
    for needle in [
        "n_0: i64",
        "s_1: stride i64",
        "acc_2: inout f32",
        "xs_3: read f32*",
        "ys_4: write f32*",
        "#[ivdep] for",
        " .. ",
        "} else {",
        "while go_",
        "array tmp_",
        "alloc heap_buf_",
        "free heap_buf_",
        "prefetch xs_3[4096i64]",
        "atomic ys_4[n_0] (old_",
        "accumulate add.f32",
        "select ",
        "load xs_3[",
        "convert.f32.f64",
        "bitcast.f32.u32",
        "-0.0f32",
        "f32.nan",
        "-f64.inf",
    ] {
        assert!(text.contains(needle), "`{needle}` not printed:\n{text}");
    }
    roundtrip(&k);
}

#[test]
fn the_crate_documentation_example() {
    let text = "kernel sum(lo_0: i64, hi_1: i64, xs_2: read f32*, s_3: stride i64, acc_4: inout f32) {
  for j_5 in lo_0 .. hi_1 {
    let o_6: i64 = mul.i64 j_5 s_3
    let x_7: f32 = load xs_2[o_6]
    accumulate add.f32 acc_4 x_7
  }
}
";
    let k = parse_kernel(text).unwrap();
    assert_eq!(print::kernel(&k), text);
    assert_eq!(k.names, ["lo", "hi", "xs", "s", "acc", "j", "o", "x"]);
    assert_eq!(k.params[3].kind, ParamKind::Stride);
    roundtrip(&k);
}

#[test]
fn empty_kernels() {
    let k = Kernel::new("nothing");
    assert_eq!(print::kernel(&k), "kernel nothing() {\n}\n");
    roundtrip(&k);
    let mut k = Kernel::new("one");
    k.param("p", Ty::Ptr(Bool), ParamKind::Write);
    roundtrip(&k);
}

/// Every operation name of every table, in an expression (and every
/// binary operation in an `accumulate`).
#[test]
fn every_operation() {
    let mut k = Kernel::new("ops");
    let a = k.param("a", Ty::Prim(I32), ParamKind::InOut);
    let b = k.param("b", Ty::Prim(I32), ParamKind::Value);
    let mut stms = Vec::new();
    for &(op, _) in BIN_OPS {
        stms.push(let_(&mut k, "bin", I32, Exp::Bin(op, I32, v(a), v(b))).1);
        stms.push(Stm::Accumulate { var: a, op, ty: I32, value: v(b), times: None });
    }
    for &(op, _) in CMP_OPS {
        stms.push(let_(&mut k, "cmp", Bool, Exp::Cmp(op, I32, v(a), c(PrimValue::I32(7)))).1);
    }
    for &(op, _) in UN_OPS {
        stms.push(let_(&mut k, "un", F64, Exp::Un(op, F64, c(PrimValue::F64(0.25)))).1);
    }
    for &(op, _) in TERN_OPS {
        stms.push(let_(&mut k, "tern", U64, Exp::Tern(op, U64, v(a), v(b), c(PrimValue::U64(u64::MAX)))).1);
    }
    for &(op, _) in CONV_OPS {
        for from in PrimType::ALL {
            for to in PrimType::ALL {
                stms.push(let_(&mut k, "conv", to, Exp::Conv(op, from, to, v(b))).1);
            }
        }
    }
    for t in PrimType::ALL {
        stms.push(let_(&mut k, "add", t, Exp::Bin(ogham_imp::BinOp::Add, t, v(a), v(b))).1);
        stms.push(Stm::Mut { var: k.fresh("m"), ty: t, init: c(PrimValue::zero(t)) });
        stms.push(Stm::Array { var: k.fresh("arr"), elem: t, len: u32::MAX });
        let p = k.param("p", Ty::Ptr(t), ParamKind::Read);
        let q = k.param("q", Ty::Prim(t), ParamKind::Value);
        stms.push(let_(&mut k, "ld", t, Exp::Load(p, v(q))).1);
    }
    k.body = Block { stms };
    roundtrip(&k);
}

/// Values that print awkwardly: signed zeros, extremes of every type,
/// subnormals, infinities, NaNs, numbers printed with exponents.
fn tricky_constants() -> Vec<PrimValue> {
    use PrimValue as V;
    let mut vs = vec![
        V::Bool(true),
        V::Bool(false),
        V::I8(i8::MIN),
        V::I8(i8::MAX),
        V::I8(-1),
        V::I16(i16::MIN),
        V::I16(i16::MAX),
        V::I32(i32::MIN),
        V::I32(i32::MAX),
        V::I32(0),
        V::I64(i64::MIN),
        V::I64(i64::MAX),
        V::I64(-1),
        V::U8(u8::MAX),
        V::U16(u16::MAX),
        V::U32(u32::MAX),
        V::U64(u64::MAX),
        V::U64(0),
    ];
    let f64s = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.1,
        -2.5,
        1e-7,
        1e20,
        -1e300,
        123456789.0,
        1.0 / 3.0,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        f64::EPSILON,
        5e-324,
        -5e-324,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    vs.extend(f64s.iter().map(|&x| V::F64(x)));
    let f32s = [
        0.0,
        -0.0,
        0.1,
        -2.5,
        1e-7,
        3e38,
        f32::MAX,
        f32::MIN,
        f32::MIN_POSITIVE,
        1e-45,
        -1e-45,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    vs.extend(f32s.iter().map(|&x| V::F32(x)));
    let f16s = [0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0x7bff, 0xfbff, 0x2e66, 0x7c00, 0xfc00, 0x7e00];
    vs.extend(f16s.iter().map(|&b| V::F16(f16::from_bits(b))));
    vs
}

/// Whether two values are the same bits (any NaN being the same as any
/// other NaN of its type).
fn identical(a: PrimValue, b: PrimValue) -> bool {
    use PrimValue as V;
    match (a, b) {
        (V::F16(x), V::F16(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
        (V::F32(x), V::F32(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
        (V::F64(x), V::F64(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
        _ => a == b,
    }
}

#[test]
fn tricky_constants_read_back_identically() {
    for x in tricky_constants() {
        let text = x.to_string();
        let back = ogham_ir::parse::parse_constant(&text);
        assert!(back.is_some_and(|y| identical(x, y)), "`{text}` reads back as {back:?}, not {x:?}");
    }
    // In every place an operand is printed.
    let mut k = Kernel::new("constants");
    let p = k.param("p", Ty::Ptr(I64), ParamKind::Write);
    let mut stms = Vec::new();
    for x in tricky_constants() {
        let t = x.prim_type();
        let var = k.fresh("c");
        stms.push(Stm::Mut { var, ty: t, init: c(x) });
        stms.push(Stm::Set { var, exp: Exp::Operand(c(x)) });
        stms.push(let_(&mut k, "sum", t, Exp::Bin(ogham_imp::BinOp::Add, t, c(x), c(x))).1);
        stms.push(let_(&mut k, "sel", t, Exp::Select(c(PrimValue::Bool(true)), c(x), v(var))).1);
        stms.push(Stm::Store { ptr: p, index: c(x), value: c(x) });
        stms.push(Stm::Alloc { var: k.fresh("a"), elem: t, len: c(x) });
        stms.push(Stm::For { index: k.fresh("i"), lo: c(x), hi: c(x), ivdep: false, body: Block::default() });
        stms.push(Stm::If { cond: c(x), then_block: Block::default(), else_block: Block::default() });
    }
    k.body = Block { stms };
    roundtrip(&k);
}

/// A small generator of pseudo-random numbers, so the tests need no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let x = self.0;
        (x ^ (x >> 29)).wrapping_mul(0xbf58476d1ce4e5b9) ^ (x >> 32)
    }
}

#[test]
fn every_float_bit_pattern_sampled_reads_back() {
    use PrimValue as V;
    let check = |x: PrimValue| {
        let text = x.to_string();
        let back = ogham_ir::parse::parse_constant(&text);
        assert!(back.is_some_and(|y| identical(x, y)), "`{text}` reads back as {back:?}, not {x:?}");
    };
    for b in 0..=u16::MAX {
        check(V::F16(f16::from_bits(b)));
    }
    let mut rng = Rng(1);
    for _ in 0..50_000 {
        let r = rng.next();
        check(V::F32(f32::from_bits(r as u32)));
        check(V::F64(f64::from_bits(r)));
        check(V::I64(r as i64));
        check(V::U64(r));
        check(V::I8(r as i8));
    }
}

#[test]
fn names_keep_their_numbers() {
    // Bases with underscores, digits and primes; numbers with gaps.
    let text = "kernel k(row_acc_3: i64, x_1_7: f32, y'_0: bool, _2: i8) {\n}\n";
    let k = parse_kernel(text).unwrap();
    assert_eq!(k.names, ["y'", "v", "", "row_acc", "v", "v", "v", "x_1"]);
    assert_eq!(k.params.iter().map(|p| p.var).collect::<Vec<_>>(), [Var(3), Var(7), Var(0), Var(2)]);
    assert_eq!(print::kernel(&k), text);
    // A number used in the body only.
    let k = parse_kernel("kernel k() { mut i_4: i64 = 0i64 }").unwrap();
    assert_eq!(k.names, ["v", "v", "v", "v", "i"]);
    // The same number written with two bases.
    let e = parse_kernel("kernel k(a_0: i64) {\n  mut b_0: i64 = a_0\n}").unwrap_err();
    assert_eq!((e.line, e.col), (2, 7));
    assert!(e.message.contains("two bases"), "{e}");
    // Each kernel has its own names.
    let ks = parse_kernels("kernel a(x_0: i64) {}\nkernel b(y_0: f32) {}").unwrap();
    assert_eq!(ks[0].names, ["x"]);
    assert_eq!(ks[1].names, ["y"]);
}

#[test]
fn several_kernels() {
    let mut a = Kernel::new("a");
    a.param("x", Ty::Prim(F64), ParamKind::InOut);
    let ks = vec![everything(), a, Kernel::new("c")];
    let text = print::kernels(&ks);
    let back = parse_kernels(&text).unwrap();
    assert_eq!(print::kernels(&back), text);
    assert_eq!(format!("{back:?}"), format!("{ks:?}"));
    assert_eq!(parse_kernels("").unwrap(), []);
    assert_eq!(parse_kernels("  \n-- nothing here\n\t").unwrap(), []);
    // `parse_kernel` wants exactly one.
    let e = parse_kernel(&text).unwrap_err();
    assert!(e.message.contains("expected the end of input"), "{e}");
    assert!(parse_kernel("").is_err());
}

#[test]
fn layout_and_comments_do_not_matter() {
    let k = everything();
    let text = print::kernel(&k);
    let squeezed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let commented: String = text.lines().map(|l| format!("-- a comment\n{l}   -- trailing ( {{ @\n\n")).collect();
    for t in [squeezed, commented, text.replace("  ", "\t").replace(" .. ", "..")] {
        let back = parse_kernel(&t).unwrap_or_else(|e| panic!("{e}\n{t}"));
        assert_eq!(print::kernel(&back), text);
    }
}

/// The error for `text`, which must have one.
fn error(text: &str) -> ParseError {
    match parse_kernel(text) {
        Ok(k) => panic!("reads without error:\n{text}\nas\n{}", print::kernel(&k)),
        Err(e) => e,
    }
}

#[test]
fn errors_say_where_and_what() {
    let cases: &[(&str, (usize, usize), &str)] = &[
        ("kernel k() {\n  let x_0: f32 = foo.f32 1.0f32 2.0f32\n}", (2, 18), "expected an expression, found `foo.f32`"),
        ("kernel k() {\n  let x_0: f32 = add.f33 1.0f32 2.0f32\n}", (2, 18), "unknown type `f33`"),
        ("kernel k() {\n  let x_0: f32 = add.f32.f32 1.0f32 2.0f32\n}", (2, 18), "takes one type"),
        ("kernel k() {\n  let x_0: f32 = add 1.0f32 2.0f32\n}", (2, 18), "takes one type"),
        ("kernel k() {\n  let x_0: f64 = convert.f32 1.0f32\n}", (2, 18), "takes two types"),
        ("kernel k() {\n  let x_0: f64 = frobnicate\n}", (2, 18), "expected an expression"),
        ("kernel k() {\n  let x_0: f64 = 1.0\n}", (2, 18), "is not a constant"),
        ("kernel k() {\n  let x_0: u8 = 256u8\n}", (2, 17), "is not a constant"),
        ("kernel k() {\n  let x_0: f32 = f32.infinity\n}", (2, 18), "expected an expression"),
        ("kernel k() {\n  let x_0: f32 = neg.f32 )\n}", (2, 26), "expected a constant or a variable, found `)`"),
        ("kernel k() {\n  let x_0: f32 = neg.f32 x\n}", (2, 26), "expected a constant or a variable, found `x`"),
        ("kernel k() {\n  let x_0 f32 = 1.0f32\n}", (2, 11), "expected `:`"),
        ("kernel k() {\n  let x_0: f33 = 1.0f32\n}", (2, 12), "expected a primitive type"),
        ("kernel k() {\n  accumulate lt.i64 x_0 1i64\n}", (2, 14), "not a binary operation"),
        ("kernel k() {\n  accumulate add x_0 1i64\n}", (2, 14), "takes one type"),
        ("kernel k() {\n  frob x_0\n}", (2, 3), "expected a statement, found `frob`"),
        ("kernel k() {\n  x_0 = 1i64\n}", (2, 3), "expected a statement, found `x_0`"),
        ("kernel k() {\n  #[ivdep] while c_0 {\n  }\n}", (2, 12), "`for` after `#[ivdep]`"),
        ("kernel k() {\n  #[unroll] for i_0 in 0i64 .. 4i64 {\n  }\n}", (2, 5), "expected `ivdep`"),
        ("kernel k() {\n  for i_0 in 0i64 ... 4i64 {\n  }\n}", (2, 21), "unexpected character `.`"),
        ("kernel k() {\n  for i_0 in 0i64 to 4i64 {\n  }\n}", (2, 19), "expected `..`"),
        ("kernel k() {\n  for i_0 0i64 .. 4i64 {\n  }\n}", (2, 11), "expected `in`"),
        ("kernel k() {\n  if true {\n  }\n}", (4, 1), "expected `else`"),
        (
            "kernel k() {\n  for i_0 in 0i64 .. 4i64 {\n",
            (3, 1),
            "unterminated block: expected `}` to close the `{` at 2:27",
        ),
        ("kernel k() {\n", (2, 1), "unterminated block"),
        ("kernel k() {\n  array a_0: [16i64]f32\n}", (2, 15), "not an array length"),
        ("kernel k() {\n  array a_0: [n_1]f32\n}", (2, 15), "expected an array length"),
        ("kernel k() {\n  store p_0[1i64] 2i64\n}", (2, 19), "expected `=`"),
        ("kernel k() {\n  mut x_99999999999: i64 = 0i64\n}", (2, 7), "too large"),
        ("kernel k() {\n  mut x_0: i64 = 0i64 @\n}", (2, 23), "unexpected character `@`"),
        ("kernel k() {\n  mut x_0: i64 = 0i64\n} }", (3, 3), "expected the end of input"),
        ("kernel k(a_0: i64 b_1: i64) {}", (1, 19), "expected `,` or `)`"),
        ("kernel k(a_0: inout) {}", (1, 20), "expected a primitive type"),
        ("kernel k(a_0: i64,) {}", (1, 19), "expected a variable"),
        ("kernel k(a: i64) {}", (1, 10), "expected a variable (written `base_N`), found `a`"),
        ("kernel (a_0: i64) {}", (1, 8), "expected the kernel's name"),
        ("kernel k(a_0: i64)", (1, 19), "expected `{`"),
        ("kern k() {}", (1, 1), "expected `kernel`"),
        ("kernel k() {\n  let x_0: f32 = load p_1 3i64\n}", (2, 27), "expected `[`"),
    ];
    for &(text, at, message) in cases {
        let e = error(text);
        assert!(e.message.contains(message), "for\n{text}\nwanted `{message}`, got `{e}`");
        assert_eq!((e.line, e.col), at, "for\n{text}\ngot `{e}`");
        assert_eq!(e.to_string(), format!("{}:{}: {}", at.0, at.1, e.message));
    }
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let nest = |depth: usize| {
        let mut text = "kernel k() {\n".to_string();
        text.push_str(&"if true {\n".repeat(depth));
        text.push_str(&"} else {\n}\n".repeat(depth));
        text.push_str("}\n");
        text
    };
    // The body is one level; MAX_DEPTH - 1 ifs inside are fine.
    let k = parse_kernel(&nest(MAX_DEPTH - 1)).unwrap();
    roundtrip(&k);
    let e = error(&nest(MAX_DEPTH));
    assert!(e.message.contains("nested"), "{e}");
    assert_eq!(e.line, MAX_DEPTH + 1);
    let e = error(&format!("kernel k() {{\n{}", " for i_0 in 0i64 .. 1i64 {".repeat(100_000)));
    assert!(e.message.contains("nested"), "{e}");
}

#[test]
fn every_truncation_is_an_error_at_or_before_its_end() {
    let text = print::kernel(&everything());
    let ends: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
    for &end in &ends {
        let prefix = &text[..end];
        let lines = prefix.matches('\n').count() + 1;
        match parse_kernel(prefix) {
            Ok(_) => assert_eq!(prefix.trim_end(), text.trim_end(), "a truncation reads:\n{prefix}"),
            Err(e) => {
                assert!(prefix.trim_end() != text.trim_end(), "the whole kernel does not read: {e}");
                assert!(e.line >= 1 && e.line <= lines && e.col >= 1, "error `{e}` outside\n{prefix}");
            }
        }
    }
}

#[test]
fn mangled_text_never_panics() {
    let text = print::kernel(&everything());
    let chars: Vec<char> = text.chars().collect();
    let lines = text.matches('\n').count() + 1;
    let check = |t: &str| {
        if let Err(e) = parse_kernel(t) {
            assert!(e.line >= 1 && e.line <= lines + 1 && e.col >= 1, "error `{e}` outside\n{t}");
        }
        let _ = parse_kernels(t);
    };
    // Each character deleted, or replaced by each of a few others.
    for i in 0..chars.len() {
        let mut deleted = chars.clone();
        deleted.remove(i);
        check(&deleted.iter().collect::<String>());
        for r in ['-', '.', '_', '0', 'x', '{', '}', '[', '#', ' ', '\n', 'é'] {
            let mut replaced = chars.clone();
            replaced[i] = r;
            check(&replaced.iter().collect::<String>());
        }
    }
    // Random soups of the pieces kernels are made of.
    let words =
        "kernel k ( ) { } [ ] : , = * .. #[ ivdep let mut set accumulate store array alloc free prefetch for in while \
                 if else select load x_0 y_1 n_4294967295 add.f32 convert.i32.f64 lt.i64 - 1 2i64 -0.0f32 -f32.inf \
                 f32.nan 1e-7f32 f32 i64 read write stride inout --";
    let pieces: Vec<&str> = words.split_whitespace().chain(["\n", " ", "é", "\u{0}"]).collect();
    let mut rng = Rng(7);
    for _ in 0..20_000 {
        let len = (rng.next() % 40) as usize;
        let t: String = (0..len)
            .map(|_| pieces[(rng.next() % pieces.len() as u64) as usize])
            .collect::<Vec<_>>()
            .join(if rng.next().is_multiple_of(2) { " " } else { "" });
        let _ = parse_kernel(&t);
        let _ = parse_kernels(&t);
    }
}
