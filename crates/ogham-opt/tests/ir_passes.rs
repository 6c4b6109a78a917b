//! IR-in, IR-out tests of the passes: every `tests/ir/<pass>/*.ir` file of
//! the repository holds a line `-- passes: a,b,c` (and optionally
//! `-- threads: N`, the threads the passes optimise for), the input program, a
//! line `-- output:` and the program expected after running those passes
//! (the verifier checks the input and the output of every pass). Both are
//! compared in printed form, so layout does not matter.
//!
//! After a deliberate change, `OGHAM_BLESS=1 cargo test -p ogham-opt`
//! rewrites each expected output with what the passes now give; read the
//! diff before committing it.

use std::path::{Path, PathBuf};

const OUTPUT_MARK: &str = "-- output:";

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "ir") {
            out.push(p);
        }
    }
}

/// Runs one test file; returns a description of the failure, if any.
fn run_one(path: &Path, bless: bool) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let passes_line = text.lines().find_map(|l| l.trim().strip_prefix("-- passes:")).ok_or("no `-- passes:` line")?;
    let passes = ogham_opt::parse_pipeline(passes_line.trim())?;
    let (input, expected) = text.split_once(OUTPUT_MARK).ok_or("no `-- output:` line")?;
    let mut prog = ogham_ir::parse::parse_program(input).map_err(|e| format!("input does not parse: {e}"))?;
    ogham_ir::verify::verify_after("input", &prog)?;
    // `-- threads: N`: optimise for N threads (the multicore backend's target).
    let threads = match text.lines().find_map(|l| l.trim().strip_prefix("-- threads:")) {
        Some(n) => n.trim().parse::<i64>().map_err(|e| format!("bad `-- threads:` line: {e}"))?,
        None => 1,
    };
    let target = ogham_opt::Target { threads, ..ogham_opt::Target::PORTABLE };
    ogham_opt::run(&mut prog, &passes, &target, true, |_, _| {}).map_err(|f| f.message())?;
    let actual = ogham_ir::print::program(&prog);
    if bless {
        let blessed = format!("{}{OUTPUT_MARK}\n{actual}", input);
        std::fs::write(path, blessed).map_err(|e| format!("cannot bless: {e}"))?;
        return Ok(());
    }
    let expected =
        ogham_ir::parse::parse_program(expected).map_err(|e| format!("expected output does not parse: {e}"))?;
    let expected = ogham_ir::print::program(&expected);
    if actual != expected {
        return Err(format!("expected:\n{expected}\ngot:\n{actual}"));
    }
    Ok(())
}

#[test]
fn ir_pass_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/ir");
    let mut all = Vec::new();
    files(&root, &mut all);
    assert!(!all.is_empty(), "no IR tests under {}", root.display());
    let bless = std::env::var_os("OGHAM_BLESS").is_some();
    let mut failures = Vec::new();
    for path in &all {
        if let Err(e) = run_one(path, bless) {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{} of {} IR tests failed:\n{}", failures.len(), all.len(), failures.join("\n\n"));
}
