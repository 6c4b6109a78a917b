//! End-to-end tests of the interpreter on IR programs built by hand with
//! `BodyBuilder`: SOACs, loops, calls, and run-time errors with their spans.

use ogham_data::{Buffer, Value};
use ogham_interp::run_entry;
use ogham_ir::builder::BodyBuilder;
use ogham_ir::{
    BinOp, Body, CmpOp, ConvOp, DimIndex, EntryPoint, EntryValue, Exp, FunDef, HistOp, Lambda, LoopForm, NameTable,
    Operator, Param, PrimType, PrimValue, Program, Soac, Span, SubExp, Type, VName,
};
use ogham_syntax::FileId;

use PrimType::{Bool, F32, I32, I64};

fn span(start: usize) -> Span {
    Span::new(FileId(0), start, start + 1)
}

fn arr(elem: PrimType, dims: &[SubExp]) -> Type {
    Type::Array { elem, shape: dims.to_vec() }
}

fn var(v: VName) -> SubExp {
    SubExp::Var(v)
}

fn i64c(x: i64) -> SubExp {
    SubExp::i64(x)
}

fn i32c(x: i32) -> SubExp {
    SubExp::Const(PrimValue::I32(x))
}

fn param(names: &mut NameTable, base: &str, ty: Type) -> Param {
    Param { name: names.fresh(base), ty }
}

/// `\a b -> a op b` on scalars of type `t`.
fn binop_operator(names: &mut NameTable, op: BinOp, t: PrimType, neutral: SubExp) -> Operator {
    let a = param(names, "a", Type::Prim(t));
    let b = param(names, "b", Type::Prim(t));
    let mut bb = BodyBuilder::new(span(0));
    let r = bb.bind(names, "r", Type::Prim(t), Exp::BinOp(op, t, var(a.name), var(b.name)));
    let lambda = Lambda { params: vec![a, b], body: bb.finish(vec![var(r)]), ret: vec![Type::Prim(t)] };
    Operator { lambda, neutral: vec![neutral], commutative: false }
}

fn entry_value(type_name: &str, part: usize) -> EntryValue {
    EntryValue { name: None, type_name: type_name.to_string(), unique: false, parts: vec![part], opaque: None }
}

/// A program with one entry point `main`; `inputs` name the parameters that
/// are source-level inputs (the rest are sizes), every result is an output.
fn program(names: NameTable, params: Vec<Param>, inputs: &[(&str, usize)], body: Body, ret: Vec<Type>) -> Program {
    let outputs = ret.iter().enumerate().map(|(k, _)| entry_value("out", k)).collect();
    let entry = EntryPoint { inputs: inputs.iter().map(|(t, p)| entry_value(t, *p)).collect(), outputs };
    let fun = FunDef { name: "main".to_string(), params, ret, body, entry: Some(entry), span: span(1000) };
    Program { consts: Vec::new(), funs: vec![fun], names, inlined: Vec::new() }
}

fn vector(b: Buffer) -> Value {
    Value::vector(b)
}

fn scalar(v: PrimValue) -> Value {
    Value::Scalar(v)
}

#[test]
fn dot_product_by_screma_reduce() {
    let mut names = NameTable::default();
    let n = param(&mut names, "n", Type::Prim(I64));
    let xs = param(&mut names, "xs", arr(F32, &[var(n.name)]));
    let ys = param(&mut names, "ys", arr(F32, &[var(n.name)]));
    let x = param(&mut names, "x", Type::Prim(F32));
    let y = param(&mut names, "y", Type::Prim(F32));
    let mut lb = BodyBuilder::new(span(0));
    let p = lb.bind(&mut names, "p", Type::Prim(F32), Exp::BinOp(BinOp::Mul, F32, var(x.name), var(y.name)));
    let map = Lambda { params: vec![x, y], body: lb.finish(vec![var(p)]), ret: vec![Type::Prim(F32)] };
    let plus = binop_operator(&mut names, BinOp::Add, F32, SubExp::Const(PrimValue::F32(0.0)));
    let mut bb = BodyBuilder::new(span(1));
    let soac = Soac::Screma { w: var(n.name), arrs: vec![xs.name, ys.name], scans: vec![], reduces: vec![plus], map };
    let d = bb.bind(&mut names, "d", Type::Prim(F32), Exp::Soac(soac));
    let prog =
        program(names, vec![n, xs, ys], &[("[]f32", 1), ("[]f32", 2)], bb.finish(vec![var(d)]), vec![Type::Prim(F32)]);
    let args = vec![vector(Buffer::F32(vec![1.0, 2.0, 3.0])), vector(Buffer::F32(vec![4.0, 5.0, 6.0]))];
    assert_eq!(run_entry(&prog, "main", args).unwrap(), vec![scalar(PrimValue::F32(32.0))]);

    // Mismatched sizes and types are reported as Futhark does.
    let args = vec![vector(Buffer::F32(vec![1.0, 2.0, 3.0])), vector(Buffer::F32(vec![4.0]))];
    let e = run_entry(&prog, "main", args).unwrap_err();
    assert_eq!(e.message, "Entry point arguments have invalid sizes.");
    let args = vec![vector(Buffer::I32(vec![1])), vector(Buffer::F32(vec![4.0]))];
    let e = run_entry(&prog, "main", args).unwrap_err();
    assert_eq!(e.message, "Expected input of type []f32 but got value of type [1]i32.");
    assert!(run_entry(&prog, "nope", vec![]).is_err());
}

/// One screma with a scan (+), a non-commutative reduce, and a map:
/// returns (prefix sums, digits folded left to right, doubled elements).
#[test]
fn screma_with_scan_reduce_and_map() {
    let mut names = NameTable::default();
    let n = param(&mut names, "n", Type::Prim(I64));
    let xs = param(&mut names, "xs", arr(I32, &[var(n.name)]));
    let x = param(&mut names, "x", Type::Prim(I32));
    let mut lb = BodyBuilder::new(span(0));
    let doubled = lb.bind(&mut names, "d", Type::Prim(I32), Exp::BinOp(BinOp::Mul, I32, var(x.name), i32c(2)));
    let map = Lambda {
        params: vec![x.clone()],
        body: lb.finish(vec![var(x.name), var(x.name), var(doubled)]),
        ret: vec![Type::Prim(I32); 3],
    };
    let plus = binop_operator(&mut names, BinOp::Add, I32, i32c(0));
    // \a b -> a*10 + b: neither commutative nor associative, so only a left fold gives 1234.
    let a = param(&mut names, "a", Type::Prim(I32));
    let b = param(&mut names, "b", Type::Prim(I32));
    let mut ob = BodyBuilder::new(span(0));
    let t = ob.bind(&mut names, "t", Type::Prim(I32), Exp::BinOp(BinOp::Mul, I32, var(a.name), i32c(10)));
    let r = ob.bind(&mut names, "r", Type::Prim(I32), Exp::BinOp(BinOp::Add, I32, var(t), var(b.name)));
    let digits = Operator {
        lambda: Lambda { params: vec![a, b], body: ob.finish(vec![var(r)]), ret: vec![Type::Prim(I32)] },
        neutral: vec![i32c(0)],
        commutative: false,
    };
    let mut bb = BodyBuilder::new(span(1));
    let soac = Soac::Screma { w: var(n.name), arrs: vec![xs.name], scans: vec![plus], reduces: vec![digits], map };
    let tys = vec![arr(I32, &[var(n.name)]), Type::Prim(I32), arr(I32, &[var(n.name)])];
    let outs = bb.bind_many(&mut names, "o", tys.clone(), Exp::Soac(soac));
    let body = bb.finish(outs.iter().map(|v| var(*v)).collect());
    let prog = program(names, vec![n, xs], &[("[]i32", 1)], body, tys);
    let result = run_entry(&prog, "main", vec![vector(Buffer::I32(vec![1, 2, 3, 4]))]).unwrap();
    assert_eq!(
        result,
        vec![
            vector(Buffer::I32(vec![1, 3, 6, 10])),
            scalar(PrimValue::I32(1234)),
            vector(Buffer::I32(vec![2, 4, 6, 8])),
        ]
    );
    // Empty input: neutral element and empty arrays.
    let result = run_entry(&prog, "main", vec![vector(Buffer::I32(vec![]))]).unwrap();
    assert_eq!(result, vec![vector(Buffer::I32(vec![])), scalar(PrimValue::I32(0)), vector(Buffer::I32(vec![]))]);
}

#[test]
fn histogram_ignores_out_of_range_bins() {
    let mut names = NameTable::default();
    let n = param(&mut names, "n", Type::Prim(I64));
    let is = param(&mut names, "is", arr(I64, &[var(n.name)]));
    let i = param(&mut names, "i", Type::Prim(I64));
    let map = Lambda {
        params: vec![i.clone()],
        body: Body { stms: vec![], result: vec![var(i.name), i32c(1)] },
        ret: vec![Type::Prim(I64), Type::Prim(I32)],
    };
    let mut bb = BodyBuilder::new(span(1));
    let zeros =
        bb.bind(&mut names, "zeros", arr(I32, &[i64c(4)]), Exp::Replicate { shape: vec![i64c(4)], value: i32c(0) });
    let op =
        HistOp { shape: vec![i64c(4)], dests: vec![zeros], op: binop_operator(&mut names, BinOp::Add, I32, i32c(0)) };
    let soac = Soac::Hist { w: var(n.name), arrs: vec![is.name], ops: vec![op], map };
    let h = bb.bind(&mut names, "h", arr(I32, &[i64c(4)]), Exp::Soac(soac));
    let prog = program(names, vec![n, is], &[("[]i64", 1)], bb.finish(vec![var(h)]), vec![arr(I32, &[i64c(4)])]);
    let bins = vector(Buffer::I64(vec![0, 1, 1, 3, 7, -1, 4]));
    assert_eq!(run_entry(&prog, "main", vec![bins]).unwrap(), vec![vector(Buffer::I32(vec![1, 2, 0, 1]))]);
}

#[test]
fn scatter_ignores_out_of_range_indices() {
    let mut names = NameTable::default();
    let n = param(&mut names, "n", Type::Prim(I64));
    let is = param(&mut names, "is", arr(I64, &[var(n.name)]));
    let vs = param(&mut names, "vs", arr(I32, &[var(n.name)]));
    let i = param(&mut names, "i", Type::Prim(I64));
    let v = param(&mut names, "v", Type::Prim(I32));
    let map = Lambda {
        params: vec![i.clone(), v.clone()],
        body: Body { stms: vec![], result: vec![var(i.name), var(v.name)] },
        ret: vec![Type::Prim(I64), Type::Prim(I32)],
    };
    let mut bb = BodyBuilder::new(span(1));
    let dest = bb.bind(&mut names, "dest", arr(I32, &[i64c(5)]), Exp::Scratch { elem: I32, shape: vec![i64c(5)] });
    let soac = Soac::Scatter { w: var(n.name), arrs: vec![is.name, vs.name], dests: vec![dest], map };
    let out = bb.bind(&mut names, "out", arr(I32, &[i64c(5)]), Exp::Soac(soac));
    let prog = program(
        names,
        vec![n, is, vs],
        &[("[]i64", 1), ("[]i32", 2)],
        bb.finish(vec![var(out)]),
        vec![arr(I32, &[i64c(5)])],
    );
    let args = vec![vector(Buffer::I64(vec![0, 2, 9, -1, 4])), vector(Buffer::I32(vec![10, 20, 30, 40, 50]))];
    assert_eq!(run_entry(&prog, "main", args).unwrap(), vec![vector(Buffer::I32(vec![10, 0, 20, 0, 50]))]);
}

/// `loop acc = replicate n 0 for i < n do acc with [i] = i*i`.
#[test]
fn for_loop_with_in_place_updates() {
    let mut names = NameTable::default();
    let n = param(&mut names, "n", Type::Prim(I64));
    let acc = param(&mut names, "acc", arr(I64, &[var(n.name)]));
    let i = names.fresh("i");
    let mut body = BodyBuilder::new(span(2));
    let sq = body.bind(&mut names, "sq", Type::Prim(I64), Exp::BinOp(BinOp::Mul, I64, var(i), var(i)));
    let next = body.bind(
        &mut names,
        "next",
        acc.ty.clone(),
        Exp::Update { array: acc.name, slice: vec![DimIndex::Fix(var(i))], value: var(sq) },
    );
    let mut bb = BodyBuilder::new(span(1));
    let init = bb.bind(&mut names, "init", acc.ty.clone(), Exp::Replicate { shape: vec![var(n.name)], value: i64c(0) });
    let ty = acc.ty.clone();
    let result = bb.bind(
        &mut names,
        "squares",
        ty.clone(),
        Exp::Loop {
            params: vec![(acc, var(init))],
            form: LoopForm::For { i, bound: var(n.name) },
            body: body.finish(vec![var(next)]),
        },
    );
    let prog = program(names, vec![n], &[("i64", 0)], bb.finish(vec![var(result)]), vec![ty]);
    let out = run_entry(&prog, "main", vec![scalar(PrimValue::I64(5))]).unwrap();
    assert_eq!(out, vec![vector(Buffer::I64(vec![0, 1, 4, 9, 16]))]);
    let out = run_entry(&prog, "main", vec![scalar(PrimValue::I64(0))]).unwrap();
    assert_eq!(out, vec![vector(Buffer::I64(vec![]))]);
}

/// Collatz steps: `loop (x, steps, go) while go do …` with an `if` inside.
#[test]
fn while_loop_with_if() {
    let mut names = NameTable::default();
    let start = param(&mut names, "start", Type::Prim(I64));
    let x = param(&mut names, "x", Type::Prim(I64));
    let steps = param(&mut names, "steps", Type::Prim(I32));
    let go = param(&mut names, "go", Type::Prim(Bool));
    let mut body = BodyBuilder::new(span(3));
    let rem = body.bind(&mut names, "rem", Type::Prim(I64), Exp::BinOp(BinOp::Mod, I64, var(x.name), i64c(2)));
    let even = body.bind(&mut names, "even", Type::Prim(Bool), Exp::CmpOp(CmpOp::Eq, I64, var(rem), i64c(0)));
    let mut then_b = BodyBuilder::new(span(4));
    let half = then_b.bind(&mut names, "half", Type::Prim(I64), Exp::BinOp(BinOp::Div, I64, var(x.name), i64c(2)));
    let mut else_b = BodyBuilder::new(span(5));
    let triple = else_b.bind(&mut names, "t", Type::Prim(I64), Exp::BinOp(BinOp::Mul, I64, var(x.name), i64c(3)));
    let up = else_b.bind(&mut names, "u", Type::Prim(I64), Exp::BinOp(BinOp::Add, I64, var(triple), i64c(1)));
    let next = body.bind(
        &mut names,
        "next",
        Type::Prim(I64),
        Exp::If { cond: var(even), then_body: then_b.finish(vec![var(half)]), else_body: else_b.finish(vec![var(up)]) },
    );
    let steps1 = body.bind(&mut names, "s1", Type::Prim(I32), Exp::BinOp(BinOp::Add, I32, var(steps.name), i32c(1)));
    let more = body.bind(&mut names, "more", Type::Prim(Bool), Exp::CmpOp(CmpOp::Ne, I64, var(next), i64c(1)));
    let mut bb = BodyBuilder::new(span(1));
    let go0 = bb.bind(&mut names, "go0", Type::Prim(Bool), Exp::CmpOp(CmpOp::Ne, I64, var(start.name), i64c(1)));
    let cond = go.name;
    let outs = bb.bind_many(
        &mut names,
        "r",
        vec![Type::Prim(I64), Type::Prim(I32), Type::Prim(Bool)],
        Exp::Loop {
            params: vec![(x, var(start.name)), (steps, i32c(0)), (go, var(go0))],
            form: LoopForm::While { cond },
            body: body.finish(vec![var(next), var(steps1), var(more)]),
        },
    );
    let prog = program(names, vec![start], &[("i64", 0)], bb.finish(vec![var(outs[1])]), vec![Type::Prim(I32)]);
    // Python: a well-known count, 27 takes 111 steps to reach 1.
    assert_eq!(run_entry(&prog, "main", vec![scalar(PrimValue::I64(27))]).unwrap(), vec![scalar(PrimValue::I32(111))]);
    assert_eq!(run_entry(&prog, "main", vec![scalar(PrimValue::I64(1))]).unwrap(), vec![scalar(PrimValue::I32(0))]);
}

/// `xs[i]` and `xs[1:1+k]` with errors located at the failing statement.
#[test]
fn index_errors_carry_message_and_span() {
    let mut names = NameTable::default();
    let n = param(&mut names, "n", Type::Prim(I64));
    let xs = param(&mut names, "xs", arr(F32, &[var(n.name)]));
    let i = param(&mut names, "i", Type::Prim(I64));
    let k = param(&mut names, "k", Type::Prim(I64));
    let k_name = k.name;
    let mut bb = BodyBuilder::new(span(1));
    bb.span = span(42);
    let x = bb.bind(
        &mut names,
        "x",
        Type::Prim(F32),
        Exp::Index { array: xs.name, slice: vec![DimIndex::Fix(var(i.name))] },
    );
    bb.span = span(77);
    let s = bb.bind(
        &mut names,
        "s",
        arr(F32, &[var(k.name)]),
        Exp::Index {
            array: xs.name,
            slice: vec![DimIndex::Slice { start: i64c(1), len: var(k.name), stride: i64c(1) }],
        },
    );
    let prog = program(
        names,
        vec![n, xs, i, k],
        &[("[]f32", 1), ("i64", 2), ("i64", 3)],
        bb.finish(vec![var(x), var(s)]),
        vec![Type::Prim(F32), arr(F32, &[var(k_name)])],
    );
    let xs_value = || vector(Buffer::F32(vec![1.0, 2.0, 3.0]));
    let run = |i: i64, k: i64| {
        run_entry(&prog, "main", vec![xs_value(), scalar(PrimValue::I64(i)), scalar(PrimValue::I64(k))])
    };
    assert_eq!(run(2, 2).unwrap(), vec![scalar(PrimValue::F32(3.0)), vector(Buffer::F32(vec![2.0, 3.0]))]);
    let e = run(3, 2).unwrap_err();
    assert_eq!((e.message.as_str(), e.span), ("Index [3] out of bounds for array of shape [3].", span(42)));
    let e = run(0, 4).unwrap_err();
    assert_eq!((e.message.as_str(), e.span), ("Index [1:5] out of bounds for array of shape [3].", span(77)));
}

/// An error inside a map lambda is reported at the lambda's statement, once.
#[test]
fn division_by_zero_inside_a_map() {
    let mut names = NameTable::default();
    let n = param(&mut names, "n", Type::Prim(I64));
    let xs = param(&mut names, "xs", arr(I32, &[var(n.name)]));
    let x = param(&mut names, "x", Type::Prim(I32));
    let mut lb = BodyBuilder::new(span(55));
    let q = lb.bind(&mut names, "q", Type::Prim(I32), Exp::BinOp(BinOp::Div, I32, i32c(100), var(x.name)));
    let map = Lambda { params: vec![x], body: lb.finish(vec![var(q)]), ret: vec![Type::Prim(I32)] };
    let mut bb = BodyBuilder::new(span(1));
    let soac = Soac::Screma { w: var(n.name), arrs: vec![xs.name], scans: vec![], reduces: vec![], map };
    let ys = bb.bind(&mut names, "ys", arr(I32, &[var(n.name)]), Exp::Soac(soac));
    let ty = arr(I32, &[var(n.name)]);
    let prog = program(names, vec![n, xs], &[("[]i32", 1)], bb.finish(vec![var(ys)]), vec![ty]);
    let ok = run_entry(&prog, "main", vec![vector(Buffer::I32(vec![7, -7, 100]))]).unwrap();
    // Floored: 100 / -7 = -15 (Python: 100 // -7 == -15).
    assert_eq!(ok, vec![vector(Buffer::I32(vec![14, -15, 1]))]);
    let e = run_entry(&prog, "main", vec![vector(Buffer::I32(vec![1, 0, 2]))]).unwrap_err();
    assert_eq!((e.message.as_str(), e.span), ("division by zero", span(55)));
}

#[test]
fn failed_assertion_reports_its_message() {
    let mut names = NameTable::default();
    let x = param(&mut names, "x", Type::Prim(I32));
    let mut bb = BodyBuilder::new(span(9));
    let ok = bb.bind(&mut names, "ok", Type::Prim(Bool), Exp::CmpOp(CmpOp::Gt, I32, var(x.name), i32c(0)));
    let x64 = bb.bind(&mut names, "x64", Type::Prim(I64), Exp::Conv(ConvOp::Convert, I32, I64, var(x.name)));
    // The value is printed where its offset says, as a plain decimal.
    bb.push(
        vec![],
        Exp::Assert {
            cond: var(ok),
            message: "x must be positive (x = )".to_string(),
            args: vec![(24, var(x64)), (25, SubExp::i64(7))],
        },
    );
    let prog = program(names, vec![x], &[("i32", 0)], bb.finish(vec![i32c(1)]), vec![Type::Prim(I32)]);
    assert_eq!(run_entry(&prog, "main", vec![scalar(PrimValue::I32(3))]).unwrap(), vec![scalar(PrimValue::I32(1))]);
    let e = run_entry(&prog, "main", vec![scalar(PrimValue::I32(-3))]).unwrap_err();
    assert_eq!((e.message.as_str(), e.span), ("x must be positive (x = -3)7", span(9)));
}

/// A recursive function: `fact n = if n <= 1 then 1 else n * fact (n-1)`.
#[test]
fn recursive_calls_keep_their_own_variables() {
    let mut names = NameTable::default();
    let n = param(&mut names, "n", Type::Prim(I64));
    let mut fb = BodyBuilder::new(span(3));
    let small = fb.bind(&mut names, "small", Type::Prim(Bool), Exp::CmpOp(CmpOp::Le, I64, var(n.name), i64c(1)));
    let mut else_b = BodyBuilder::new(span(4));
    let m = else_b.bind(&mut names, "m", Type::Prim(I64), Exp::BinOp(BinOp::Sub, I64, var(n.name), i64c(1)));
    let rec =
        else_b.bind(&mut names, "rec", Type::Prim(I64), Exp::Apply { func: "fact".to_string(), args: vec![var(m)] });
    let prod = else_b.bind(&mut names, "p", Type::Prim(I64), Exp::BinOp(BinOp::Mul, I64, var(n.name), var(rec)));
    let r = fb.bind(
        &mut names,
        "r",
        Type::Prim(I64),
        Exp::If {
            cond: var(small),
            then_body: Body { stms: vec![], result: vec![i64c(1)] },
            else_body: else_b.finish(vec![var(prod)]),
        },
    );
    let fact = FunDef {
        name: "fact".to_string(),
        params: vec![n],
        ret: vec![Type::Prim(I64)],
        body: fb.finish(vec![var(r)]),
        entry: None,
        span: span(2),
    };
    let k = param(&mut names, "k", Type::Prim(I64));
    let mut bb = BodyBuilder::new(span(1));
    let out =
        bb.bind(&mut names, "out", Type::Prim(I64), Exp::Apply { func: "fact".to_string(), args: vec![var(k.name)] });
    let mut prog = program(names, vec![k], &[("i64", 0)], bb.finish(vec![var(out)]), vec![Type::Prim(I64)]);
    prog.funs.push(fact);
    assert_eq!(
        run_entry(&prog, "main", vec![scalar(PrimValue::I64(20))]).unwrap(),
        vec![scalar(PrimValue::I64(2432902008176640000))]
    );
    // Deep recursion fails cleanly instead of overflowing the stack.
    let e = run_entry(&prog, "main", vec![scalar(PrimValue::I64(1_000_000))]).unwrap_err();
    assert!(e.message.contains("Stack exhausted"), "{}", e.message);
}

/// Row sums of a matrix: a map whose lambda reduces each row (nested SOAC),
/// then the transpose and a concatenation.
#[test]
fn nested_soac_over_rows_and_array_ops() {
    let mut names = NameTable::default();
    let n = param(&mut names, "n", Type::Prim(I64));
    let m = param(&mut names, "m", Type::Prim(I64));
    let xss = param(&mut names, "xss", arr(I32, &[var(n.name), var(m.name)]));
    let row = param(&mut names, "row", arr(I32, &[var(m.name)]));
    let e = param(&mut names, "e", Type::Prim(I32));
    let identity = Lambda {
        params: vec![e.clone()],
        body: Body { stms: vec![], result: vec![var(e.name)] },
        ret: vec![Type::Prim(I32)],
    };
    let mut lb = BodyBuilder::new(span(0));
    let plus = binop_operator(&mut names, BinOp::Add, I32, i32c(0));
    let sum = lb.bind(
        &mut names,
        "sum",
        Type::Prim(I32),
        Exp::Soac(Soac::Screma {
            w: var(m.name),
            arrs: vec![row.name],
            scans: vec![],
            reduces: vec![plus],
            map: identity,
        }),
    );
    let map = Lambda { params: vec![row], body: lb.finish(vec![var(sum)]), ret: vec![Type::Prim(I32)] };
    let mut bb = BodyBuilder::new(span(1));
    let sums = bb.bind(
        &mut names,
        "sums",
        arr(I32, &[var(n.name)]),
        Exp::Soac(Soac::Screma { w: var(n.name), arrs: vec![xss.name], scans: vec![], reduces: vec![], map }),
    );
    let t_ty = arr(I32, &[var(m.name), var(n.name)]);
    let t = bb.bind(&mut names, "t", t_ty.clone(), Exp::Rearrange { array: xss.name, perm: vec![1, 0] });
    let both = bb.bind(
        &mut names,
        "both",
        arr(I32, &[i64c(6)]),
        Exp::Concat { dim: 0, arrays: vec![sums, sums, sums], len: i64c(6) },
    );
    let prog = program(
        names,
        vec![n, m, xss],
        &[("[][]i32", 2)],
        bb.finish(vec![var(sums), var(t), var(both)]),
        vec![arr(I32, &[var(VName(0))]), t_ty, arr(I32, &[i64c(6)])],
    );
    let matrix = Value::array(vec![2, 3], Buffer::I32(vec![1, 2, 3, 4, 5, 6])).unwrap();
    let out = run_entry(&prog, "main", vec![matrix]).unwrap();
    assert_eq!(out[0], vector(Buffer::I32(vec![6, 15])));
    assert_eq!(out[1], Value::array(vec![3, 2], Buffer::I32(vec![1, 4, 2, 5, 3, 6])).unwrap());
    assert_eq!(out[2], vector(Buffer::I32(vec![6, 15, 6, 15, 6, 15])));
}

/// `map (\x -> x*2+1)` over 10^6 f32. Run with
/// `cargo test --release -p ogham-interp -- --ignored --nocapture` to see timings.
#[test]
#[ignore]
fn performance_smoke_test_map() {
    use std::time::Instant;
    let mut names = NameTable::default();
    let n = param(&mut names, "n", Type::Prim(I64));
    let xs = param(&mut names, "xs", arr(F32, &[var(n.name)]));
    let x = param(&mut names, "x", Type::Prim(F32));
    let mut lb = BodyBuilder::new(span(0));
    let twice = lb.bind(
        &mut names,
        "t",
        Type::Prim(F32),
        Exp::BinOp(BinOp::Mul, F32, var(x.name), SubExp::Const(PrimValue::F32(2.0))),
    );
    let plus1 = lb.bind(
        &mut names,
        "u",
        Type::Prim(F32),
        Exp::BinOp(BinOp::Add, F32, var(twice), SubExp::Const(PrimValue::F32(1.0))),
    );
    let map = Lambda { params: vec![x], body: lb.finish(vec![var(plus1)]), ret: vec![Type::Prim(F32)] };
    let mut bb = BodyBuilder::new(span(1));
    let ys = bb.bind(
        &mut names,
        "ys",
        arr(F32, &[var(n.name)]),
        Exp::Soac(Soac::Screma { w: var(n.name), arrs: vec![xs.name], scans: vec![], reduces: vec![], map }),
    );
    let ty = arr(F32, &[var(n.name)]);
    let prog = program(names, vec![n, xs], &[("[]f32", 1)], bb.finish(vec![var(ys)]), vec![ty]);
    let input = vector(Buffer::F32((0..1_000_000).map(|i| i as f32).collect()));
    let started = Instant::now();
    let out = run_entry(&prog, "main", vec![input]).unwrap();
    println!("map x*2+1 over 10^6 f32: {:?}", started.elapsed());
    assert_eq!(out[0].flat_get(3), Some(PrimValue::F32(7.0)));
}

/// The sum of 10^7 i64 by a screma with `(+)` as its reduction operator.
#[test]
#[ignore]
fn performance_smoke_test_sum() {
    use std::time::Instant;
    let mut names = NameTable::default();
    let n = param(&mut names, "n", Type::Prim(I64));
    let xs = param(&mut names, "xs", arr(I64, &[var(n.name)]));
    let x = param(&mut names, "x", Type::Prim(I64));
    let map = Lambda {
        params: vec![x.clone()],
        body: Body { stms: vec![], result: vec![var(x.name)] },
        ret: vec![Type::Prim(I64)],
    };
    let plus = binop_operator(&mut names, BinOp::Add, I64, i64c(0));
    let mut bb = BodyBuilder::new(span(1));
    let s = bb.bind(
        &mut names,
        "s",
        Type::Prim(I64),
        Exp::Soac(Soac::Screma { w: var(n.name), arrs: vec![xs.name], scans: vec![], reduces: vec![plus], map }),
    );
    let prog = program(names, vec![n, xs], &[("[]i64", 1)], bb.finish(vec![var(s)]), vec![Type::Prim(I64)]);
    let input = vector(Buffer::I64((0..10_000_000).collect()));
    let started = Instant::now();
    let out = run_entry(&prog, "main", vec![input]).unwrap();
    println!("sum of 10^7 i64: {:?}", started.elapsed());
    assert_eq!(out, vec![scalar(PrimValue::I64(49_999_995_000_000))]);
}
