//! Parses every `.fut` file of the repository (tests, benchmarks, prelude):
//! files whose test block expects `parse-error` or `lexical-error` must
//! produce that diagnostic, and every other file must parse cleanly.

use ogham_syntax::ast::NodeIds;
use ogham_syntax::parser::parse_program;
use ogham_syntax::source::SourceFile;
use ogham_syntax::FileId;
use std::path::{Path, PathBuf};

fn fut_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            fut_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "fut") {
            out.push(path);
        }
    }
}

#[test]
fn repository_programs_parse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["tests", "benchmarks", "prelude"] {
        fut_files(&root.join(dir), &mut files);
    }
    let mut failures = Vec::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let (_, diags) = parse_program(FileId(0), &text, &mut NodeIds::default());
        let expected: Vec<&str> = ["parse-error", "lexical-error"]
            .into_iter()
            .filter(|name| text.lines().any(|l| l.starts_with("-- error:") && l.contains(name)))
            .collect();
        let file = SourceFile::new(path.display().to_string(), text.clone());
        if expected.is_empty() {
            if let Some(d) = diags.first() {
                let (line, col) = file.line_col(d.span.start);
                failures.push(format!("{}:{line}:{col}: {}", path.display(), d.message));
            }
        } else if !diags.iter().any(|d| expected.contains(&d.name)) {
            failures.push(format!("{}: expected {expected:?}, got {diags:?}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{} of {} files:\n{}", failures.len(), files.len(), failures.join("\n"));
}
