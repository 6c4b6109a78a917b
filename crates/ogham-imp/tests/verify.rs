//! The kernel verifier rejects each broken invariant with a message naming
//! it, and accepts the corrected kernel.

use ogham_imp::parse::parse_kernel;
use ogham_imp::verify;

/// `bad` must be rejected with a message containing `expect`.
fn rejects(bad: &str, expect: &str) {
    let k = parse_kernel(bad).unwrap_or_else(|e| panic!("does not parse: {e}\n{bad}"));
    match verify::kernel(&k) {
        Ok(()) => panic!("accepted:\n{bad}"),
        Err(e) => assert!(e.contains(expect), "expected an error containing {expect:?}, got:\n{e}"),
    }
}

fn accepts(good: &str) {
    let k = parse_kernel(good).unwrap_or_else(|e| panic!("does not parse: {e}\n{good}"));
    if let Err(e) = verify::kernel(&k) {
        panic!("rejected:\n{good}\n{e}");
    }
}

#[test]
fn scopes() {
    rejects(
        "kernel k(n_0: i64) { for i_1 in 0i64 .. n_0 { let x_2: i64 = i_1 } let y_3: i64 = x_2 }",
        "out of its scope",
    );
    rejects("kernel k(n_0: i64) { let x_1: i64 = y_2 }", "never bound");
    rejects("kernel k(n_0: i64) { let x_1: i64 = n_0 let x_1: i64 = n_0 }", "bound twice");
    accepts("kernel k(n_0: i64) { for i_1 in 0i64 .. n_0 { let x_2: i64 = i_1 } let y_3: i64 = n_0 }");
}

#[test]
fn types() {
    rejects("kernel k(x_0: f32) { let y_1: f32 = add.f32 x_0 1i32 }", "expected f32");
    rejects("kernel k(x_0: f32) { let y_1: i32 = add.f32 x_0 x_0 }", "declared i32, computes f32");
    rejects("kernel k(x_0: f32) { let c_1: f32 = lt.f32 x_0 x_0 }", "computes bool");
    rejects("kernel k(p_0: read f32*) { let x_1: f32 = load p_0[1i32] }", "expected i64");
    rejects("kernel k(x_0: f32) { let y_1: f32 = load x_0[0i64] }", "load from x_0, which is not a pointer");
    rejects("kernel k(x_0: f32, p_1: read f32*) { let y_2: f32 = add.f32 x_0 p_1 }", "pointer p_1 used as a scalar");
    rejects("kernel k(x_0: f32) { let y_1: i64 = bitcast.f32.i64 x_0 }", "different widths");
    rejects("kernel k(s_0: stride i32) { }", "is not i64");
    accepts("kernel k(x_0: f32, e_1: i32) { let y_2: f32 = ldexp.f32 x_0 e_1 let b_3: bool = isnan.f32 y_2 }");
}

#[test]
fn assignments_and_memory() {
    rejects("kernel k(x_0: f32) { let y_1: f32 = x_0 set y_1 = x_0 }", "not a mut variable");
    rejects("kernel k(x_0: f32) { set x_0 = x_0 }", "not a mut variable or inout parameter");
    rejects("kernel k(a_0: inout f32, x_1: f32) { accumulate sub.f32 a_0 x_1 }", "not an associative operator");
    rejects("kernel k(p_0: read f32*) { store p_0[0i64] = 1.0f32 }", "neither a write pointer nor a local array");
    rejects("kernel k(p_0: write f32*) { store p_0[0i64] = 1i32 }", "expected f32");
    rejects("kernel k(n_0: i64) { alloc b_1: [n_0]f32 }", "never freed");
    rejects("kernel k(n_0: i64) { alloc b_1: [n_0]f32 free b_1 store b_1[0i64] = 0.0f32 }", "out of its scope");
    rejects(
        "kernel k(n_0: i64) { alloc b_1: [n_0]f32 for i_2 in 0i64 .. n_0 { free b_1 } free b_1 }",
        "not an alloc of this block",
    );
    rejects("kernel k(c_0: bool) { while c_0 { } }", "not a mut variable");
    accepts(
        "kernel k(a_0: inout f32, x_1: f32, n_2: i64) { accumulate add.f32 a_0 x_1 alloc b_3: [n_2]f32 \
         store b_3[0i64] = x_1 free b_3 array l_4: [4]f32 store l_4[3i64] = x_1 mut c_5: bool = true \
         while c_5 { set c_5 = false } }",
    );
}

#[test]
fn atomic_updates() {
    accepts(
        "kernel k(p_0: write f32*, i_1: i64, x_2: f32) { atomic p_0[i_1] (o_3) { let n_4: f32 = add.f32 o_3 x_2 } = n_4 }",
    );
    accepts(
        "kernel k(p_0: write i32*, x_1: i32) { atomic p_0[0i64] (o_2) { mut m_3: i32 = o_2 \
         let b_4: bool = lt.i32 o_2 x_1 if b_4 { set m_3 = x_1 } else { } } = m_3 }",
    );
    rejects("kernel k(p_0: read f32*, x_1: f32) { atomic p_0[0i64] (o_2) { } = x_1 }", "not a write pointer");
    rejects(
        "kernel k(n_0: i64, x_1: f32) { alloc b_2: [n_0]f32 atomic b_2[0i64] (o_3) { } = x_1 free b_2 }",
        "not a write pointer",
    );
    rejects("kernel k(p_0: write f32*, x_1: f64) { atomic p_0[0i64] (o_2) { } = x_1 }", "expected f32");
    rejects("kernel k(p_0: write f32*) { atomic p_0[0i32] (o_1) { } = o_1 }", "expected i64");
    rejects(
        "kernel k(p_0: write f32*, q_1: read f32*) { atomic p_0[0i64] (o_2) { let y_3: f32 = load q_1[0i64] } = y_3 }",
        "does more than compute",
    );
    rejects(
        "kernel k(p_0: write f32*, m_1: inout f32) { atomic p_0[0i64] (o_2) { set m_1 = o_2 } = o_2 }",
        "does more than compute",
    );
    rejects(
        "kernel k(p_0: write f32*, n_1: i64) { atomic p_0[0i64] (o_2) { for i_3 in 0i64 .. n_1 { } } = o_2 }",
        "does more than compute",
    );
    // `old` and the body's variables are the body's alone.
    rejects(
        "kernel k(p_0: write f32*) { atomic p_0[0i64] (o_1) { let y_2: f32 = o_1 } = y_2 let z_3: f32 = y_2 }",
        "out of its scope",
    );
}
