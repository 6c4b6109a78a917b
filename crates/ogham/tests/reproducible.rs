//! The same program compiles to the same C every time: the compiler's maps
//! use a fixed hasher, so nothing that iterates one (lowering's size checks,
//! the passes' worklists) depends on a per-process random seed. Before,
//! k-means with `reduce_by_index` came out with its two size-overflow
//! checks in either order, and so with other variable numbers, in about
//! half of the runs.

use std::path::{Path, PathBuf};
use std::process::Command;

fn benchmark(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks").join(name)
}

/// The C that `ogham c --library` writes for `program` on `backend`.
fn generated_c(program: &Path, backend: &str, out: &Path) -> String {
    let status = Command::new(env!("CARGO_BIN_EXE_ogham"))
        .args([backend, "--library", "-o"])
        .arg(out)
        .arg(program)
        .status()
        .unwrap();
    assert!(status.success(), "ogham {backend} --library {} failed", program.display());
    std::fs::read_to_string(out.with_extension("c")).unwrap()
}

#[test]
fn generated_c_is_the_same_on_every_run() {
    let dir = std::env::temp_dir().join(format!("ogham-reproducible-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (program, backend) in [("kmeans_flat.fut", "c"), ("gmm.fut", "multicore")] {
        let path = benchmark(program);
        let out = dir.join(program.trim_end_matches(".fut"));
        let first = generated_c(&path, backend, &out);
        for run in 1..6 {
            let again = generated_c(&path, backend, &out);
            assert!(again == first, "{program} on {backend}: run {run} wrote different C from the first run");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
