//! Runs the whole `tests/` tree of the repository, and the small cases of the
//! benchmark programs in `benchmarks/`, through the same runner as
//! `ogham test`, once per backend: the reference interpreter, sequential C and
//! multicore C. Each fails if any case fails on its backend.

use std::path::PathBuf;

use ogham_driver::test_runner::{run_tests, Backend, TestOptions};

fn run_suite(backend: Backend) {
    // Verify the IR after every pass, even in release builds. Set once,
    // before any test thread works: changing the environment while
    // another thread reads it (a C compiler being started) is undefined
    // behaviour, and once crashed this test binary.
    static VERIFY: std::sync::Once = std::sync::Once::new();
    VERIFY.call_once(|| std::env::set_var("OGHAM_VERIFY", "1"));
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    // The benchmarks' large datasets are tagged `notest`, so only their small cases run.
    let roots = [repo.join("tests"), repo.join("benchmarks")];
    let summary = run_tests(
        &roots,
        &TestOptions { backend, exclude: vec![], verbose: false, no_tuning: false, skip_missing_data: false },
    );
    assert_eq!(summary.failed, 0, "{} test cases failed on {backend:?}", summary.failed);
    assert!(summary.passed > 0);
}

#[test]
fn test_suite_on_interpreter() {
    run_suite(Backend::Interp);
}

#[test]
fn test_suite_on_sequential_c() {
    run_suite(Backend::C);
}

#[test]
fn test_suite_on_multicore_c() {
    run_suite(Backend::Multicore);
}
