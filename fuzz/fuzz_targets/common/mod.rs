//! Shared by the `check`, `pipeline` and `modules` targets: parse the prelude once, then
//! parse and check the fuzz input as the main file, in the driver's order
//! (crates/ogham-driver/src/pipeline.rs), and sanity-check every diagnostic.

use ogham_data::Value;
use ogham_prim::PrimValue;
use ogham_syntax::ast::{Dec, NodeIds, Program};
use ogham_syntax::{Diagnostic, SourceMap};
use ogham_types::{CheckInput, TypeInfo};

/// The parsed prelude, its sources, and how many `NodeId`s it used.
struct Prelude {
    programs: Vec<Program>,
    sources: SourceMap,
    used_ids: u32,
}

thread_local! {
    static PRELUDE: &'static Prelude = Box::leak(Box::new(parse_prelude()));
}

fn parse_prelude() -> Prelude {
    let mut sources = SourceMap::default();
    let mut ids = NodeIds::default();
    let mut programs = Vec::new();
    for (name, text) in ogham_types::prelude::PRELUDE {
        let file = sources.add(format!("<prelude>/{name}"), *text);
        let (program, diags) = ogham_syntax::parser::parse_program(file, text, &mut ids);
        assert!(diags.is_empty(), "the prelude does not parse: {diags:?}");
        programs.push(program);
    }
    let used_ids = ids.fresh().0;
    Prelude { programs, sources, used_ids }
}

/// A checked compilation: the prelude's programs followed by the main file's.
pub struct Checked {
    pub sources: SourceMap,
    pub programs: Vec<&'static Program>,
    pub main: Box<Program>,
    pub result: Result<TypeInfo, Vec<Diagnostic>>,
}

impl Checked {
    /// All files in load order, as the driver passes them to the lowering.
    pub fn files(&self) -> Vec<&Program> {
        let mut files: Vec<&Program> = self.programs.clone();
        files.push(&self.main);
        files
    }
}

/// The input as text: `None` for invalid UTF-8 (the driver's `read_to_string`
/// rejects it before any phase runs).
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Parses the prelude and `text` and type-checks them. `None` when the driver
/// would have stopped before checking (parse errors) or would have read
/// other files (imports).
pub fn check(text: &str) -> Option<Checked> {
    let prelude = PRELUDE.with(|p| *p);
    let mut sources = prelude.sources.clone();
    let file = sources.add("fuzz.fut", text);
    let mut ids = NodeIds::default();
    for _ in 0..prelude.used_ids {
        ids.fresh();
    }
    let (main, diags) = ogham_syntax::parser::parse_program(file, text, &mut ids);
    if !diags.is_empty() || main.decs.iter().any(|d| matches!(d, Dec::Import { .. })) {
        return None;
    }
    let main = Box::new(main);
    let programs: Vec<&'static Program> = prelude.programs.iter().collect();
    let result = {
        let mut inputs: Vec<CheckInput<'_>> =
            programs.iter().map(|program| CheckInput { program, is_main: false, imports: Vec::new() }).collect();
        inputs.push(CheckInput { program: &main, is_main: true, imports: Vec::new() });
        ogham_types::check(&inputs)
    };
    if let Err(diags) = &result {
        assert!(!diags.is_empty(), "the checker failed without a diagnostic");
        check_diagnostics(&sources, diags);
    }
    Some(Checked { sources, programs, main, result })
}

/// Every diagnostic's spans lie inside their file on character boundaries and
/// the diagnostic renders (the first few: rendering is linear in the line length).
pub fn check_diagnostics(sources: &SourceMap, diags: &[Diagnostic]) {
    for (i, d) in diags.iter().enumerate() {
        for span in std::iter::once(d.span).chain(d.labels.iter().map(|(s, _)| *s)) {
            if span.is_dummy() {
                continue;
            }
            let file = sources.file(span.file).unwrap_or_else(|| panic!("{}: span in an unknown file: {span:?}", d.name));
            let (start, end) = (span.start as usize, span.end as usize);
            assert!(
                start <= end && end <= file.text.len(),
                "{}: span {start}..{end} outside {} ({} bytes)",
                d.name,
                file.name,
                file.text.len()
            );
            assert!(
                file.text.is_char_boundary(start) && file.text.is_char_boundary(end),
                "{}: span {start}..{end} splits a UTF-8 character",
                d.name
            );
        }
        if i < 64 {
            let _ = d.render(sources);
        }
    }
}

/// The fixed argument for an input of source type `type_name`, if it is a scalar.
fn argument(type_name: &str) -> Option<Value> {
    let v = match type_name {
        "i8" => PrimValue::I8(3),
        "i16" => PrimValue::I16(3),
        "i32" => PrimValue::I32(3),
        "i64" => PrimValue::I64(3),
        "u8" => PrimValue::U8(3),
        "u16" => PrimValue::U16(3),
        "u32" => PrimValue::U32(3),
        "u64" => PrimValue::U64(3),
        "f32" => PrimValue::F32(1.5),
        "f64" => PrimValue::F64(1.5),
        "bool" => PrimValue::Bool(true),
        _ => return None,
    };
    Some(Value::Scalar(v))
}

/// Checks `text`; if it type-checks, lowers it (no panic, no internal error,
/// IR that verifies) and runs every entry point with scalar inputs on the
/// interpreter (no panic, no internal error, one value per output).
pub fn lower_and_run(text: &str) {
    let Some(checked) = check(text) else { return };
    let Ok(info) = &checked.result else { return };
    let files = checked.files();
    let ir = match ogham_lower::lower(&files, info) {
        Ok(ir) => ir,
        Err(diags) => {
            assert!(!diags.is_empty(), "lowering failed without a diagnostic");
            check_diagnostics(&checked.sources, &diags);
            for d in &diags {
                assert!(
                    !d.name.starts_with("internal"),
                    "lowering reported an internal error:\n{}",
                    d.render(&checked.sources)
                );
            }
            return;
        }
    };
    if let Err(errors) = ogham_ir::verify::verify(&ir) {
        let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        panic!("lowered IR fails verification:\n{}\n--- IR ---\n{ir}", errors.join("\n"));
    }
    if text.contains("while") {
        return;
    }
    for fun in ir.entry_points() {
        let entry = fun.entry.as_ref().unwrap();
        let Some(args) = entry.inputs.iter().map(|i| argument(&i.type_name)).collect::<Option<Vec<_>>>() else {
            continue;
        };
        match ogham_interp::run_entry(&ir, &fun.name, args) {
            Ok(values) => assert_eq!(values.len(), entry.outputs.len(), "entry {} returned the wrong number of values", fun.name),
            Err(e) => assert!(
                !e.message.starts_with("internal error"),
                "entry {}: {}\n--- IR ---\n{ir}",
                fun.name,
                e.message
            ),
        }
    }
}
