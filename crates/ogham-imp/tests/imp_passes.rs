//! Kernel-in, kernel-out tests of the passes: every `tests/imp/<pass>/*.imp`
//! file of the repository holds a line `-- passes: a,b`, the input kernel,
//! a line `-- output:` and the kernel expected after running those passes
//! (the verifier checks the input and the result of every pass). Both are
//! compared in printed form, so layout does not matter. Lines starting
//! with `--` are comments.
//!
//! After a deliberate change, `OGHAM_BLESS=1 cargo test -p ogham-imp`
//! rewrites each expected output with what the passes now give; read the
//! diff before committing it.

use std::path::{Path, PathBuf};

use ogham_imp::passes::{self, Pass};

const OUTPUT_MARK: &str = "-- output:";

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "imp") {
            out.push(p);
        }
    }
}

fn uncomment(text: &str) -> String {
    text.lines().map(|l| if l.trim_start().starts_with("--") { "" } else { l }).collect::<Vec<_>>().join("\n")
}

fn run_one(path: &Path, bless: bool) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let names = text.lines().find_map(|l| l.trim().strip_prefix("-- passes:")).ok_or("no `-- passes:` line")?;
    let list: Vec<Pass> = names
        .split(',')
        .map(|n| {
            let p = passes::by_name(n.trim()).ok_or(format!("no pass `{}`", n.trim()))?;
            Ok(Pass { name: p.name, summary: p.summary, run: p.run })
        })
        .collect::<Result<_, String>>()?;
    let (input, expected) = text.split_once(OUTPUT_MARK).ok_or("no `-- output:` line")?;
    let mut k = ogham_imp::parse::parse_kernel(&uncomment(input)).map_err(|e| format!("input does not parse: {e}"))?;
    passes::run(&mut k, &list, true)?;
    let actual = ogham_imp::print::kernel(&k);
    if bless {
        std::fs::write(path, format!("{input}{OUTPUT_MARK}\n{actual}")).map_err(|e| format!("cannot bless: {e}"))?;
        return Ok(());
    }
    let expected = ogham_imp::parse::parse_kernel(&uncomment(expected))
        .map_err(|e| format!("expected output does not parse: {e}"))?;
    let expected = ogham_imp::print::kernel(&expected);
    if actual != expected {
        return Err(format!("expected:\n{expected}\ngot:\n{actual}"));
    }
    Ok(())
}

#[test]
fn imp_pass_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/imp");
    let mut all = Vec::new();
    files(&root, &mut all);
    assert!(!all.is_empty(), "no kernel tests under {}", root.display());
    let bless = std::env::var_os("OGHAM_BLESS").is_some();
    let mut failures = Vec::new();
    for path in &all {
        if let Err(e) = run_one(path, bless) {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{} of {} kernel tests failed:\n{}", failures.len(), all.len(), failures.join("\n\n"));
}
