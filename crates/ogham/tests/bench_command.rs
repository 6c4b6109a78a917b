//! `ogham bench` on real executables: entry points whose results have no
//! external form (opaque values) are timed like any other, since only a
//! result that is checked against an expected output is printed.

use std::process::Command;

#[test]
fn opaque_results_are_timed() {
    let dir = std::env::temp_dir().join(format!("ogham-bench-command-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("state.fut");
    std::fs::write(
        &prog,
        "type state = {xs: []f64, t: f64}\n\
         -- ==\n-- entry: make\n-- input { 1000i64 }\n\
         entry make (n: i64) : state = {xs = map f64.i64 (iota n), t = 0}\n\
         -- ==\n-- entry: total\n-- input { 1000i64 } output { 499500.0 }\n\
         entry total (n: i64) : f64 = f64.sum (map f64.i64 (iota n))\n",
    )
    .unwrap();
    let json = dir.join("out.json");
    let out = Command::new(env!("CARGO_BIN_EXE_ogham"))
        .args(["bench", "--backend", "c", "--runs", "3", "--no-convergence-phase", "--json"])
        .arg(&json)
        .arg(&prog)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(!stdout.contains("failed"), "{stdout}");
    let report = std::fs::read_to_string(&json).unwrap();
    for key in ["state.fut:make", "state.fut:total"] {
        let at = report.find(key).unwrap_or_else(|| panic!("{key} missing: {report}"));
        assert!(report[at..].trim_start_matches(|c| c != '{').starts_with("{\"datasets\""), "{report}");
    }
    assert_eq!(report.matches("\"runtimes\"").count(), 2, "{report}");
}
