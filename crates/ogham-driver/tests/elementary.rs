//! Elementary functions that ogham computes itself rather than taking
//! from libm (`tanh`) give the same bits in compiled code as in the
//! interpreter: the same operations on the same constants (`ogham-prim`'s,
//! printed into the C runtime), on arguments spread over the whole range
//! and packed around the switch between the two formulas.

use std::path::PathBuf;

use ogham_data::{Buffer, Value};
use ogham_driver::native::{compile_executable, run_executable};
use ogham_driver::pipeline::{compile_file, Stop};

/// Arguments: a uniform spread over [-25, 25], ±(0.55 ± k ulp), a
/// log-uniform spread down to subnormals, and the special values.
fn arguments() -> Vec<f64> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut unit = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut xs: Vec<f64> = (0..60_000).map(|_| 50.0 * unit() - 25.0).collect();
    xs.extend((0..20_000).map(|_| 1.2 * unit() - 0.6));
    xs.extend((0..20_000).map(|i| {
        let x = (-700.0 * unit()).exp();
        if i % 2 == 0 {
            x
        } else {
            -x
        }
    }));
    for k in 0..64u64 {
        let below = f64::from_bits(0.55f64.to_bits() - k);
        let above = f64::from_bits(0.55f64.to_bits() + k);
        xs.extend([below, above, -below, -above]);
    }
    xs.extend([0.0, -0.0, 5e-324, -5e-324, f64::MIN_POSITIVE, 1e300, -1e300, f64::INFINITY, f64::NEG_INFINITY]);
    xs.extend([f64::NAN, 22.0, 354.0, 355.0, 710.0, 711.0]);
    xs
}

fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

#[test]
fn compiled_tanh_is_the_interpreters_bit_for_bit() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("elementary");
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("tanh.fut");
    std::fs::write(
        &source,
        "entry tanh64 (xs: []f64) : []f64 = map f64.tanh xs\n\
         entry tanh32 (xs: []f32) : []f32 = map f32.tanh xs\n",
    )
    .unwrap();
    let compiled = compile_file(&source, Stop::Ir).unwrap_or_else(|e| panic!("{}", e.rendered));
    let xs = arguments();
    let xs32: Vec<f32> = xs.iter().map(|&x| x as f32).chain([1e-40, -1e-45, 0.55, 0.549_999_95]).collect();
    let interp64 =
        ogham_interp::run_entry(&compiled.ir, "tanh64", vec![Value::vector(Buffer::F64(xs.clone()))]).unwrap();
    let interp32 =
        ogham_interp::run_entry(&compiled.ir, "tanh32", vec![Value::vector(Buffer::F32(xs32.clone()))]).unwrap();
    let [Value::Array(a64)] = &interp64[..] else { panic!("tanh64 gave {interp64:?}") };
    let [Value::Array(a32)] = &interp32[..] else { panic!("tanh32 gave {interp32:?}") };
    let (Buffer::F64(want64), Buffer::F32(want32)) = (a64.data(), a32.data()) else { panic!("wrong result types") };
    // The interpreter computes ogham-prim's function.
    for (x, y) in xs.iter().zip(want64) {
        assert!(same(ogham_prim::ops::tanh(*x), *y), "interpreter tanh({x:e})");
    }
    for backend in [ogham_c::Backend::Sequential, ogham_c::Backend::Multicore] {
        let exe = dir.join(format!("tanh-{backend:?}"));
        compile_executable(&compiled, backend, None, &exe, &[]).unwrap();
        let got = run_executable(&exe, "tanh64", &[Value::vector(Buffer::F64(xs.clone()))]).unwrap();
        let [Value::Array(g)] = &got[..] else { panic!("{backend:?}: tanh64 gave {got:?}") };
        let Buffer::F64(g) = g.data() else { panic!("{backend:?}: tanh64 is not f64") };
        for ((x, w), g) in xs.iter().zip(want64).zip(g) {
            assert!(same(*w, *g), "{backend:?}: tanh({x:e}) = {g:e}, the interpreter's {w:e}");
        }
        let got = run_executable(&exe, "tanh32", &[Value::vector(Buffer::F32(xs32.clone()))]).unwrap();
        let [Value::Array(g)] = &got[..] else { panic!("{backend:?}: tanh32 gave {got:?}") };
        let Buffer::F32(g) = g.data() else { panic!("{backend:?}: tanh32 is not f32") };
        for ((x, w), g) in xs32.iter().zip(want32).zip(g) {
            assert!(w.to_bits() == g.to_bits() || (w.is_nan() && g.is_nan()), "{backend:?}: f32 tanh({x:e})");
        }
    }
}
