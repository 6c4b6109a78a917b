//! A sweep over the repository's test programs (`tests/**/*.fut`): every
//! program that parses and checks must lower, verify, and pass its
//! literal-valued test cases on the interpreter. Ignored by default (slow);
//! run with `cargo test -p ogham-lower --test sweep -- --ignored --nocapture`.

use std::path::{Path, PathBuf};

use ogham_data::reader::ValueReader;
use ogham_data::testspec::{parse_test_spec, CaseInput, Expected, TestAction};
use ogham_syntax::ast::{Dec, NodeIds, Program};
use ogham_syntax::parser::parse_program;
use ogham_syntax::FileId;
use ogham_types::CheckInput;

fn fut_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            fut_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "fut") {
            out.push(p);
        }
    }
}

#[derive(Default, Debug)]
struct Tally {
    skipped: usize,
    lowered: usize,
    lower_errors: Vec<String>,
    verify_errors: Vec<String>,
    passed: usize,
    failed: Vec<String>,
}

fn sweep_one(path: &Path, tally: &mut Tally) {
    let Ok(src) = std::fs::read_to_string(path) else { return };
    let name = path.display().to_string();
    let Ok(Some(spec)) = parse_test_spec(&src) else { return tally.skipped += 1 };
    let TestAction::Run { groups, .. } = spec.action else { return tally.skipped += 1 };
    let mut ids = NodeIds::default();
    let mut progs: Vec<Program> = Vec::new();
    let mut texts: Vec<&str> = ogham_types::prelude::PRELUDE.iter().map(|(_, t)| *t).collect();
    texts.push(&src);
    for (i, text) in texts.iter().enumerate() {
        let (p, diags) = parse_program(FileId(i as u32), text, &mut ids);
        if !diags.is_empty() || p.decs.iter().any(|d| matches!(d, Dec::Import { .. })) {
            return tally.skipped += 1;
        }
        progs.push(p);
    }
    let last = progs.len() - 1;
    let inputs: Vec<CheckInput> = progs
        .iter()
        .enumerate()
        .map(|(i, p)| CheckInput { program: p, is_main: i == last, imports: Vec::new() })
        .collect();
    let Ok(info) = ogham_types::check(&inputs) else { return tally.skipped += 1 };
    let refs: Vec<&Program> = progs.iter().collect();
    let lowered = std::panic::catch_unwind(|| ogham_lower::lower(&refs, &info));
    let prog = match lowered {
        Ok(Ok(p)) => p,
        Ok(Err(e)) => return tally.lower_errors.push(format!("{name}: {}", e[0].message)),
        Err(_) => return tally.lower_errors.push(format!("{name}: PANIC")),
    };
    tally.lowered += 1;
    if let Err(errs) = ogham_ir::verify::verify(&prog) {
        return tally.verify_errors.push(format!("{name}: {:?}", errs.first()));
    }
    for g in &groups {
        for entry in &g.entries {
            for case in &g.cases {
                if case.excluded("interpreter", false) {
                    continue;
                }
                let (CaseInput::Values(input), Expected::Values(output)) = (&case.input, &case.expected) else {
                    continue;
                };
                let mut r = ValueReader::new(input.as_bytes());
                let mut args = Vec::new();
                while let Ok(Some(x)) = r.next_value() {
                    args.push(x);
                }
                let mut r = ValueReader::new(output.as_bytes());
                let mut expected = Vec::new();
                while let Ok(Some(x)) = r.next_value() {
                    expected.push(x);
                }
                let got = std::panic::catch_unwind(|| ogham_interp::run_entry(&prog, entry, args.clone()));
                match got {
                    Ok(Ok(vals)) => {
                        let cmp = ogham_data::compare::compare_values(&expected, &vals);
                        if cmp.is_match() {
                            tally.passed += 1;
                        } else {
                            tally.failed.push(format!("{name} {entry} {}: wrong result {}", case.name, cmp.report()));
                        }
                    }
                    Ok(Err(e)) => tally.failed.push(format!("{name} {entry} {}: {e}", case.name)),
                    Err(_) => tally.failed.push(format!("{name} {entry} {}: PANIC", case.name)),
                }
            }
        }
    }
}

#[test]
#[ignore]
fn sweep_repository_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    let mut files = Vec::new();
    fut_files(&root, &mut files);
    files.sort();
    let mut tally = Tally::default();
    for f in &files {
        sweep_one(f, &mut tally);
    }
    for e in &tally.lower_errors {
        println!("LOWER  {e}");
    }
    for e in &tally.verify_errors {
        println!("VERIFY {e}");
    }
    for e in &tally.failed {
        println!("FAIL   {}", e.lines().next().unwrap_or(""));
    }
    println!(
        "files {}, skipped {}, lowered {}, lower errors {}, verify errors {}, cases passed {}, failed {}",
        files.len(),
        tally.skipped,
        tally.lowered,
        tally.lower_errors.len(),
        tally.verify_errors.len(),
        tally.passed,
        tally.failed.len()
    );
}
