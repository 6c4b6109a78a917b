//! Where errors found in inlined code are reported: a pass's rejection of
//! a statement that came from the prelude (the intrinsic inside `scan`) is
//! the user's call of the prelude function, with the prelude's line and the
//! user's outer calls as notes; a run-time error inside a higher-order
//! function lists the call it was inlined at.

use ogham_driver::pipeline::{compile_source, Stop};

#[test]
fn rejections_in_prelude_code_point_at_the_users_call() {
    // Reverse mode does not differentiate a scan of integer rows with an
    // operator that is not vectorised.
    let src = "def f [n] (xss: [n][2]i64) =\n  \
               let ys = scan (\\a b -> [a[0] * b[0], a[1] * b[0] + b[1]]) [1, 0] xss\n  \
               in i64.sum (map i64.sum ys)\n\n\
               entry main [n] (xss: [n][2]i64) = vjp f xss 1\n";
    let err =
        compile_source("loc.fut", src, Stop::Ir).err().expect("a scan of integer rows with this operator is rejected");
    assert_eq!(err.names, ["not-supported-yet"]);
    let text = &err.rendered;
    assert!(text.contains("at loc.fut:2:12-71: "), "{text}");
    assert!(text.contains("= in <prelude>/prelude.fut:"), "{text}");
    assert!(text.contains("= called from loc.fut:5:"), "{text}");
    assert_eq!(text.matches("called from").count(), 1, "only the user's calls: {text}");
}

#[test]
fn inlined_higher_order_functions_keep_their_calls() {
    let src = "def at_next (f: i32 -> i32) (xs: []i32) (i: i64) = f xs[i + 1]\n\
               entry main (xs: []i32) = map (at_next (+ 1) xs) (indices xs)\n";
    let compiled = compile_source("ho.fut", src, Stop::Ir).expect("compiles");
    // Every statement's frames, as the run-time errors print them.
    let texts = ogham_driver::native::span_texts(&compiled.sources, &compiled.ir);
    let shown: Vec<Vec<&str>> = texts.values().map(|t| t.lines().collect()).collect();
    // The index in `at_next`, inside the prelude's `map`, called on line 2.
    assert!(
        shown.iter().any(|fs| fs.len() == 3
            && fs[0].starts_with("ho.fut:1:")
            && fs[1].starts_with("<prelude>/")
            && fs[2].starts_with("ho.fut:2:")),
        "{shown:?}"
    );
}
