//! Programs shared by the integration tests.

use ogham_ir::builder::BodyBuilder;
use ogham_ir::*;

fn f32t() -> Type {
    Type::Prim(PrimType::F32)
}
fn i64t() -> Type {
    Type::Prim(PrimType::I64)
}
fn arr(elem: PrimType, dims: &[SubExp]) -> Type {
    Type::Array { elem, shape: dims.to_vec() }
}
fn v(name: VName) -> SubExp {
    SubExp::Var(name)
}

/// `entry main (n, xs: [n]f32) = map (*2) xs`, with a sum, a loop and an if.
pub fn sample_program() -> Program {
    let mut names = NameTable::default();
    let n = names.fresh("n");
    let xs = names.fresh("xs");
    let mut b = BodyBuilder::new(Span::DUMMY);

    // map (\x -> x * 2) xs
    let x = names.fresh("x");
    let mut lb = BodyBuilder::new(Span::DUMMY);
    let y = lb.bind(
        &mut names,
        "y",
        f32t(),
        Exp::BinOp(BinOp::Mul, PrimType::F32, v(x), SubExp::Const(PrimValue::F32(2.0))),
    );
    let map = Lambda { params: vec![Param { name: x, ty: f32t() }], body: lb.finish(vec![v(y)]), ret: vec![f32t()] };
    let ys = b.bind(
        &mut names,
        "ys",
        arr(PrimType::F32, &[v(n)]),
        Exp::Soac(Soac::Screma { w: v(n), arrs: vec![xs], scans: vec![], reduces: vec![], map }),
    );

    // reduce_comm (+) 0 ys
    let a = names.fresh("a");
    let c = names.fresh("b");
    let mut ob = BodyBuilder::new(Span::DUMMY);
    let s = ob.bind(&mut names, "s", f32t(), Exp::BinOp(BinOp::Add, PrimType::F32, v(a), v(c)));
    let op = Operator {
        lambda: Lambda {
            params: vec![Param { name: a, ty: f32t() }, Param { name: c, ty: f32t() }],
            body: ob.finish(vec![v(s)]),
            ret: vec![f32t()],
        },
        neutral: vec![SubExp::Const(PrimValue::F32(0.0))],
        commutative: true,
    };
    let e = names.fresh("e");
    let id = Lambda {
        params: vec![Param { name: e, ty: f32t() }],
        body: Body { stms: vec![], result: vec![v(e)] },
        ret: vec![f32t()],
    };
    let total = b.bind(
        &mut names,
        "total",
        f32t(),
        Exp::Soac(Soac::Screma { w: v(n), arrs: vec![ys], scans: vec![], reduces: vec![op], map: id }),
    );

    // loop (acc = total) for i < n do acc + f32.i64 i
    let acc = names.fresh("acc");
    let i = names.fresh("i");
    let mut loop_b = BodyBuilder::new(Span::DUMMY);
    let fi = loop_b.bind(&mut names, "fi", f32t(), Exp::Conv(ConvOp::Convert, PrimType::I64, PrimType::F32, v(i)));
    let acc2 = loop_b.bind(&mut names, "acc", f32t(), Exp::BinOp(BinOp::Add, PrimType::F32, v(acc), v(fi)));
    let looped = b.bind(
        &mut names,
        "looped",
        f32t(),
        Exp::Loop {
            params: vec![(Param { name: acc, ty: f32t() }, v(total))],
            form: LoopForm::For { i, bound: v(n) },
            body: loop_b.finish(vec![v(acc2)]),
        },
    );

    // if n > 0 then xs[0] else nan, with an unsafe index and an assertion
    let pos = b.bind(
        &mut names,
        "pos",
        Type::Prim(PrimType::Bool),
        Exp::CmpOp(CmpOp::Gt, PrimType::I64, v(n), SubExp::i64(0)),
    );
    b.push(
        vec![],
        Exp::Assert { cond: v(pos), message: "n (= ) must be \"positive\"\n".into(), args: vec![(5, v(n))] },
    );
    // A user assertion: a certificate, and the value it certifies.
    let cert = b.bind(
        &mut names,
        "cert",
        Type::Prim(PrimType::Bool),
        Exp::Assert { cond: v(pos), message: "Assertion is false: n > 0".into(), args: vec![] },
    );
    b.bind(&mut names, "n_certified", Type::Prim(PrimType::I64), Exp::Certify { cert, values: vec![v(n)] });
    let mut then_b = BodyBuilder::new(Span::new(ogham_syntax::FileId(0), 10, 20));
    then_b.attrs.unsafe_ = true;
    let first =
        then_b.bind(&mut names, "first", f32t(), Exp::Index { array: xs, slice: vec![DimIndex::Fix(SubExp::i64(0))] });
    let chosen = b.bind(
        &mut names,
        "chosen",
        f32t(),
        Exp::If {
            cond: v(pos),
            then_body: then_b.finish(vec![v(first)]),
            else_body: Body { stms: vec![], result: vec![SubExp::Const(PrimValue::F32(f32::NAN))] },
        },
    );
    let sum = b.bind(&mut names, "sum", f32t(), Exp::BinOp(BinOp::Add, PrimType::F32, v(looped), v(chosen)));

    let body = b.finish(vec![v(ys), v(sum)]);
    let main = FunDef {
        name: "main".into(),
        params: vec![Param { name: n, ty: i64t() }, Param { name: xs, ty: arr(PrimType::F32, &[v(n)]) }],
        ret: vec![arr(PrimType::F32, &[v(n)]), f32t()],
        body,
        entry: Some(EntryPoint {
            inputs: vec![EntryValue {
                name: Some("xs".into()),
                type_name: "[]f32".into(),
                unique: false,
                parts: vec![1],
                opaque: None,
            }],
            outputs: vec![EntryValue {
                name: None,
                type_name: "([]f32, f32)".into(),
                unique: true,
                parts: vec![0, 1],
                opaque: Some(Opaque::Record {
                    fields: vec![("0".into(), "[]f32".into(), 1), ("1".into(), "f32".into(), 1)],
                }),
            }],
        }),
        span: Span::new(ogham_syntax::FileId(0), 0, 100),
    };
    Program { consts: Vec::new(), funs: vec![main], names, inlined: Vec::new() }
}

/// A program using every construct of the IR, in its printed form. Its one
/// type error (an `f16` written into an `f32` array) is deliberate.
pub const EVERY_CONSTRUCT: &str = r##"fun "weird.name" (n_0: i64, m_1: i64, xs_2: [n_0][m_1]f32, is_3: [n_0]i64, d_4: [m_1]f32, h_5: [10i64]i32) : ([m_1]f32, [10i64]i32) {
  let (t_6: [m_1][n_0]f32) = rearrange([1, 0], xs_2)
  let (r_7: [n_0][m_1]f32) = copy(xs_2)
  let (flat_8: [n_0]f32) = reshape([n_0], d_4)
  let (c_9: [m_1]f32) = concat(0, m_1, d_4)
  let (io_10: [n_0]i64) = iota.i64(n_0, 0i64, 1i64)
  let (rep_11: [3i64][m_1]f32) = replicate([3i64], d_4)
  let (sc_12: [n_0]u8) = scratch.u8([n_0])
  let (lit_13: [2i64]f64) = array(f64, [1.5f64, -f64.inf])
  #[sequential] let (s_14: [2i64]f32) = index xs_2[0i64, 1i64:+2i64*-1i64]
  let (u_15: [n_0][m_1]f32) = update r_7[0i64, 0i64] = f16.nan
  let (k_16: i32, z_17: u16) = apply other(-3i32, 65535u16)
  let (b_18: bool) = isnan.f32 1e-7f32
  let (q_19: f32) = fma.f32 1.0f32 2.0f32 3.0f32
  let (bits_20: u32) = bitcast.f32.u32 q_19
  let (w_21: bool) = true
  let (cnt_22: i64, fin_23: bool) = loop (cnt_24: i64 = 0i64, go_25: bool = true) while go_25 {
      let (nxt_26: i64) = add.i64 cnt_24 1i64
      let (more_27: bool) = lt.i64 nxt_26 10i64
      in (nxt_26, more_27)
    }
  let (scanned_28: [n_0]i64, sum_29: i64, mapped_30: [n_0]i64) = screma(n_0, is_3, io_10, scans [op([0i64], \(a_31: i64, b_32: i64) : (i64) {
      let (c_33: i64) = add.i64 a_31 b_32
      in (c_33)
    })], reduces [commop([0i64], \(a_34: i64, b_35: i64) : (i64) {
      let (c_36: i64) = add.i64 a_34 b_35
      in (c_36)
    })], \(i_37: i64, j_38: i64) : (i64, i64, i64) {
      in (i_37, j_38, i_37)
    })
  let (d2_39: [m_1]f32) = scatter(n_0, is_3, dests [d_4], \(i_40: i64) : (i64, f32) {
      in (i_40, 0.0f32)
    })
  let (h2_41: [10i64]i32) = hist(n_0, is_3, ops [histop([10i64], [h_5], op([0i32], \(x_42: i32, y_43: i32) : (i32) {
      let (z_44: i32) = add.i32 x_42 y_43
      in (z_44)
    }))], \(i_45: i64) : (i64, i32) {
      in (i_45, 1i32)
    })
  let (d3_51: [m_1]f32, sq_52: [n_0]i64) = withacc(n_0, is_3, accs [d2_39], \(a_53: [m_1]f32, i_54: i64) : ([m_1]f32, i64) {
      let (a_55: [m_1]f32) = updacc(max) a_53[i_54] = 1.0f32
      let (a_56: [m_1]f32) = updacc(max) a_55[0i64] = 2.0f32
      let (s_57: i64) = mul.i64 i_54 i_54
      in (a_56, s_57)
    })
  let () = assert(w_21, "tab\there \u{1}")
  in (d3_51, h2_41)
}

fun other (k_46: i32, z_47: u16) : (i32, u16) {
  in (k_46, z_47)
}

entry e (xs_48: [2i64]f32, tag_49: i8, x_50: i64) : (i64)
  inputs ("xs'": *"[]f32" [0], "_": "#a i64 | #b" [1, 2] sum {"a": ["i64" 1], "b": []})
  outputs ("[][]{x: i64}" [0] record_array 2 {"x": "[][]i64" 1}) {
  in (x_50)
}
"##;
