//! Runs the whole `tests/` tree of the repository through the same runner as
//! `ogham test`, on the reference interpreter. Fails if any case fails.

use std::path::PathBuf;

use ogham_driver::test_runner::{run_tests, Backend, TestOptions};

#[test]
fn test_suite_on_interpreter() {
    // Verify the IR after every pass, even in release builds.
    std::env::set_var("OGHAM_VERIFY", "1");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    let summary = run_tests(&[root], &TestOptions { backend: Backend::Interp, exclude: vec![], verbose: false });
    assert_eq!(summary.failed, 0, "{} test cases failed", summary.failed);
    assert!(summary.passed > 0);
}
