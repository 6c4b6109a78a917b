//! Derivative checks for test cases tagged `gradcheck` (`-- gradcheck
//! input { … }`): besides whatever the case expects, the entry point `f`
//! is differentiated and checked against mathematics rather than against
//! earlier output:
//!
//! - the forward derivative `jvp f x ẋ` agrees with central finite
//!   differences `(f(x + hẋ) − f(x − hẋ)) / 2h`, computed by the
//!   interpreter (f64 and f32 inputs; integers and booleans stay fixed);
//! - the dot-product identity `⟨ȳ, jvp f x ẋ⟩ = ⟨vjp f x ȳ, ẋ⟩` holds.
//!
//! The directions `ẋ` and `ȳ` are pseudo-random in `[-1, 1]`, seeded by
//! the case's line. `jvp` and `vjp` run on the backend under test, from
//! entry points appended to the program's source (`f` must take and
//! return plain values, not records or opaque types).

use std::path::Path;

use ogham_data::{Buffer, Value};
use ogham_ir::{PrimType, PrimValue};

use crate::pipeline::{self, Compiled, Stop};

/// The names of the generated entry points for `f`.
pub(crate) fn jvp_entry(f: &str) -> String {
    format!("ogham_gradcheck_jvp_{f}")
}

pub(crate) fn vjp_entry(f: &str) -> String {
    format!("ogham_gradcheck_vjp_{f}")
}

/// An entry point to check: its name, number of inputs, and per output,
/// where its size is no parameter of the entry (`filter`, or a constant),
/// its type as Futhark prints it without sizes (`[]f64`).
#[derive(Clone)]
pub(crate) struct Checked {
    pub(crate) name: String,
    pub(crate) inputs: usize,
    pub(crate) outputs: Vec<Option<String>>,
}

impl Checked {
    /// The entry point `fun` as one to check (`None` for a function that
    /// is no entry point).
    pub(crate) fn of(fun: &ogham_ir::FunDef) -> Option<Checked> {
        let io = fun.entry.as_ref()?;
        // A result size that is no parameter is existential, and so may
        // be a constant, as an existential size may have become after
        // simplification (`let n = 3 in replicate n x` declared `[]f64`):
        // where no size is a parameter (with one, the coercion's sizes
        // would be ambiguous, the inputs' being unannotated).
        let param = |v: ogham_ir::VName| fun.params.iter().any(|p| p.name == v);
        let computed = |part: usize| {
            fun.ret.get(part).is_some_and(|t| {
                let dims = t.shape();
                dims.iter().any(|d| d.as_var().is_some_and(|v| !param(v)))
                    || (!dims.is_empty() && dims.iter().all(|d| d.as_var().is_none()))
            })
        };
        let outputs =
            io.outputs.iter().map(|o| o.parts.iter().any(|&p| computed(p)).then(|| o.type_name.clone())).collect();
        Some(Checked { name: fun.name.clone(), inputs: io.inputs.len(), outputs })
    }
}

/// The program with `jvp` and `vjp` entry points for each of `entries`.
/// A result whose size the function computes has no size its cotangent
/// could name: the `vjp` entry gives that cotangent sizes of its own,
/// to which the result is coerced.
pub(crate) fn extended(path: &Path, entries: &[Checked]) -> Result<Compiled, String> {
    let source = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut text = source;
    text.push('\n');
    for Checked { name: f, inputs: n, outputs } in entries {
        let xs: Vec<String> = (0..*n).map(|i| format!("x{i}")).collect();
        let ts: Vec<String> = (0..*n).map(|i| format!("t{i}")).collect();
        let ys: Vec<String> = (0..outputs.len()).map(|i| format!("y{i}")).collect();
        let tuple = |v: &[String]| if v.len() == 1 { v[0].clone() } else { format!("({})", v.join(", ")) };
        let fun = format!("(\\{} -> {f} {})", tuple(&xs), xs.join(" "));
        text.push_str(&format!(
            "entry {} {} {} = jvp {fun} {} {}\n",
            jvp_entry(f),
            xs.join(" "),
            ts.join(" "),
            tuple(&xs),
            tuple(&ts)
        ));
        // `[][]f64` becomes `[ogham_d0_0][ogham_d0_1]f64` for result 0.
        let mut sizes = Vec::new();
        let mut sized = Vec::new();
        for (k, t) in outputs.iter().enumerate() {
            sized.push(t.as_ref().map(|t| {
                let rank = t.matches("[]").count();
                let dims: Vec<String> = (0..rank).map(|d| format!("[ogham_d{k}_{d}]")).collect();
                sizes.extend(dims.iter().cloned());
                format!("{}{}", dims.concat(), &t[2 * rank..])
            }));
        }
        let rs: Vec<String> = (0..outputs.len()).map(|i| format!("r{i}")).collect();
        let coerced: Vec<String> = rs
            .iter()
            .zip(&sized)
            .map(|(r, t)| t.as_ref().map_or_else(|| r.clone(), |t| format!("{r} :> {t}")))
            .collect();
        let params: Vec<String> = ys
            .iter()
            .zip(&sized)
            .map(|(y, t)| t.as_ref().map_or_else(|| y.clone(), |t| format!("({y}: {t})")))
            .collect();
        text.push_str(&format!(
            "entry {} {} {} {} = vjp (\\{} -> let {} = {f} {} in {}) {} {}\n",
            vjp_entry(f),
            sizes.join(""),
            xs.join(" "),
            params.join(" "),
            tuple(&xs),
            tuple(&rs),
            xs.join(" "),
            tuple(&coerced),
            tuple(&xs),
            tuple(&ys)
        ));
    }
    pipeline::compile_text_at(path, &text, Stop::Ir).map_err(|e| e.rendered)
}

/// A small deterministic generator of directions.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
}

/// The elements of a floating-point value as `f64`s (`None` for others).
fn floats(v: &Value) -> Option<Vec<f64>> {
    if !v.elem_type().is_float() {
        return None;
    }
    Some(match v {
        Value::Scalar(x) => vec![x.as_f64()],
        Value::Array(a) => a.data().iter().map(PrimValue::as_f64).collect(),
    })
}

/// `v` with its elements replaced (same type and shape).
fn with_floats(v: &Value, xs: &[f64]) -> Value {
    let t = v.elem_type();
    match v {
        Value::Scalar(_) => Value::Scalar(PrimValue::from_f64(t, xs[0])),
        Value::Array(a) => {
            let mut data = Buffer::with_capacity(t, xs.len());
            for x in xs {
                data.push(PrimValue::from_f64(t, *x));
            }
            Value::array(a.shape().to_vec(), data).expect("same shape")
        }
    }
}

/// A direction for `v`: random for floats, zero otherwise.
fn direction(v: &Value, rng: &mut Lcg) -> Value {
    match floats(v) {
        Some(xs) => with_floats(v, &xs.iter().map(|_| rng.next()).collect::<Vec<_>>()),
        None => match v {
            Value::Scalar(x) => Value::Scalar(PrimValue::zero(x.prim_type())),
            Value::Array(a) => Value::zeros(a.elem_type(), a.shape().to_vec()).expect("same shape"),
        },
    }
}

/// `x + s·d` on the floating-point values (others unchanged).
fn step(x: &[Value], d: &[Value], s: f64) -> Vec<Value> {
    x.iter()
        .zip(d)
        .map(|(x, d)| match (floats(x), floats(d)) {
            (Some(a), Some(b)) => with_floats(x, &a.iter().zip(&b).map(|(a, b)| a + s * b).collect::<Vec<_>>()),
            _ => x.clone(),
        })
        .collect()
}

/// `Σ ⟨aᵢ, bᵢ⟩` over the floating-point values, and `Σ |aᵢ·bᵢ|` (the
/// scale for the tolerance).
fn dot(a: &[Value], b: &[Value]) -> (f64, f64) {
    let (mut s, mut scale) = (0.0, 0.0);
    for (a, b) in a.iter().zip(b) {
        if let (Some(a), Some(b)) = (floats(a), floats(b)) {
            for (x, y) in a.iter().zip(&b) {
                s += x * y;
                scale += (x * y).abs();
            }
        }
    }
    (s, scale)
}

/// Runs the checks. `run` runs an entry point on the backend under test,
/// `interp` on the interpreter.
pub(crate) fn check(
    f: &str,
    x: &[Value],
    seed: u64,
    run: &dyn Fn(&str, Vec<Value>) -> Result<Vec<Value>, String>,
    interp: &dyn Fn(&str, Vec<Value>) -> Result<Vec<Value>, String>,
) -> Result<(), String> {
    let mut rng = Lcg(seed.wrapping_mul(0x9e3779b97f4a7c15) | 1);
    let y = interp(f, x.to_vec()).map_err(|e| format!("gradcheck: {f} failed: {e}"))?;
    // Step and tolerances by the least precise floating-point type among
    // the inputs and results: a step of 1e-6 is lost in an f32 input
    // rounded to 24 bits, or in an f32 result, even beside f64 ones.
    let least = x.iter().chain(&y).map(Value::elem_type).filter(|t| t.is_float()).min_by_key(|t| t.bits());
    let (h, fd_tol, dot_tol) = match least {
        Some(PrimType::F16) => (5e-2, 1e-1, 5e-3),
        Some(PrimType::F32) => (1e-2, 2e-2, 1e-4),
        _ => (1e-6, 1e-6, 1e-10),
    };
    let dx: Vec<Value> = x.iter().map(|v| direction(v, &mut rng)).collect();
    let dy: Vec<Value> = y.iter().map(|v| direction(v, &mut rng)).collect();
    let mut args = x.to_vec();
    args.extend(dx.iter().cloned());
    let jv = run(&jvp_entry(f), args).map_err(|e| format!("gradcheck: jvp of {f} failed: {e}"))?;
    let mut args = x.to_vec();
    args.extend(dy.iter().cloned());
    let vj = run(&vjp_entry(f), args).map_err(|e| format!("gradcheck: vjp of {f} failed: {e}"))?;
    // Finite differences against the forward derivative.
    let plus = interp(f, step(x, &dx, h)).map_err(|e| format!("gradcheck: {f} at x + hẋ failed: {e}"))?;
    let minus = interp(f, step(x, &dx, -h)).map_err(|e| format!("gradcheck: {f} at x - hẋ failed: {e}"))?;
    for (k, ((p, m), t)) in plus.iter().zip(&minus).zip(&jv).enumerate() {
        let (Some(p), Some(m), Some(t)) = (floats(p), floats(m), floats(t)) else { continue };
        for (i, ((p, m), t)) in p.iter().zip(&m).zip(&t).enumerate() {
            let fd = (p - m) / (2.0 * h);
            if !close(fd, *t, fd_tol * (1.0 + t.abs().max(fd.abs()))) {
                return Err(format!(
                    "gradcheck: result {k} element {i}: jvp gives {t}, central finite differences {fd}"
                ));
            }
        }
    }
    // The dot-product identity.
    let (a, sa) = dot(&dy, &jv);
    let (b, sb) = dot(&vj, &dx);
    if !close(a, b, dot_tol * (1.0 + sa.max(sb))) {
        return Err(format!("gradcheck: ⟨ȳ, jvp f x ẋ⟩ = {a} but ⟨vjp f x ȳ, ẋ⟩ = {b}"));
    }
    Ok(())
}

/// Whether `a` and `b` are within `tol` of each other: a NaN is close only
/// to a NaN (a derivative that is NaN where finite differences are finite
/// is a failure, not a comparison that is false either way).
fn close(a: f64, b: f64, tol: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    a == b || (a - b).abs() <= tol
}
