//! Fuzz target: the whole pipeline. Programs that parse and type-check are
//! lowered; lowering must not panic, must report failures only as user-facing
//! diagnostics (never `internal-error`), and must produce IR that passes
//! `ogham_ir::verify`. Every entry point whose inputs are all scalars is then
//! run on the interpreter with fixed small arguments; it must not panic and
//! must return one value per declared output.
//!
//! The interpreter has no step limit, so programs containing `while` are not
//! run (valid programs can loop forever); `for` loops with huge bounds still
//! show up as timeouts and must be triaged by hand.
//! Run with `cargo fuzz run pipeline` from the repository root (see fuzz/README.md).

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use ogham_data::Value;
use ogham_prim::PrimValue;

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

fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else { return };
    let Some(checked) = common::check(text) else { return };
    let Ok(info) = &checked.result else { return };
    let files = checked.files();
    let ir = match ogham_lower::lower(&files, info) {
        Ok(ir) => ir,
        Err(diags) => {
            assert!(!diags.is_empty(), "lowering failed without a diagnostic");
            common::check_diagnostics(&checked.sources, &diags);
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
});
