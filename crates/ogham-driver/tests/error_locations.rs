//! Where errors found in inlined code are reported: a run-time error
//! inside a higher-order function lists the call it was inlined at. (A
//! pass's rejection of prelude code is tested beside `located`, in
//! `pipeline.rs`: no construct reachable through the prelude is rejected
//! any more.)

use ogham_driver::pipeline::{compile_source, Stop};

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
