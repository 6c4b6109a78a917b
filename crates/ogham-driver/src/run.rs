//! Running an entry point: read its arguments as values, run it on a
//! backend, and print its results the way a Futhark executable does.

use rustc_hash::FxHashMap as HashMap;
use std::path::{Path, PathBuf};

use ogham_data::{Value, ValueReader};
use ogham_syntax::SourceMap;

use crate::pipeline::Compiled;

/// A run-time failure, rendered with its source location.
#[derive(Debug)]
pub struct RunError {
    pub message: String,
}

/// Finds the entry point to run: the one named, else `main`, else the only one.
pub fn select_entry<'a>(ir: &'a ogham_ir::Program, name: Option<&str>) -> Result<&'a ogham_ir::FunDef, RunError> {
    let mut entries = ir.entry_points();
    let found = match name {
        Some(name) => ir.entry_points().find(|f| f.name == name),
        None => ir.fun("main").filter(|f| f.entry.is_some()).or_else(|| {
            let first = entries.next();
            if entries.next().is_none() {
                first
            } else {
                None
            }
        }),
    };
    found.ok_or_else(|| {
        let names: Vec<&str> = ir.entry_points().map(|f| f.name.as_str()).collect();
        RunError {
            message: match name {
                Some(n) => format!("No entry point '{n}'. Select another with -e. Entry points: {}", names.join(", ")),
                None => format!("No entry point 'main'. Select one with -e. Entry points: {}", names.join(", ")),
            },
        }
    })
}

/// Reads exactly as many values as the entry point has inputs, as a compiled
/// executable reads them: each with its parameter's element type as the
/// hint for unsuffixed numbers (`1` is a valid `f32`), and nothing but
/// blanks and comments after the last one.
pub fn read_arguments(fun: &ogham_ir::FunDef, input: &[u8]) -> Result<Vec<Value>, RunError> {
    let inputs = fun.entry.as_ref().map_or(&[][..], |e| e.inputs.as_slice());
    let mut reader = ValueReader::new(input);
    let fail = |message: String| RunError { message: format!("Error: {message}") };
    let mut values = Vec::with_capacity(inputs.len());
    for (i, input_desc) in inputs.iter().enumerate() {
        // Opaque values (records, tuples, sum types) have no external form.
        let hint = match (&input_desc.parts[..], &input_desc.opaque) {
            ([part], None) => fun.params.get(*part).map(|p| p.ty.elem()),
            _ => return Err(fail(format!("Cannot read input #{i} of type {}", input_desc.type_name))),
        };
        match reader.next_value_as(hint).map_err(|e| fail(e.to_string()))? {
            Some(v) => values.push(v),
            None => {
                return Err(fail(format!(
                    "input #{i} of type {} is missing: expected {} values, but the input ended after {i}",
                    input_desc.type_name,
                    inputs.len()
                )))
            }
        }
    }
    if !reader.at_end() {
        return Err(fail(format!(
            "expected end of input after the arguments of \"{}\" (byte {}).",
            fun.name,
            reader.offset()
        )));
    }
    Ok(values)
}

/// Runs an entry point on the reference interpreter.
pub fn run_interpreter(compiled: &Compiled, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, RunError> {
    run_interpreter_with(compiled, entry, args, &ogham_interp::RunOptions::default())
}

/// [`run_interpreter`] with options (tuning parameters, results wanted or not).
pub fn run_interpreter_with(
    compiled: &Compiled,
    entry: &str,
    args: Vec<Value>,
    opts: &ogham_interp::RunOptions,
) -> Result<Vec<Value>, RunError> {
    ogham_interp::run_entry_with(&compiled.ir, entry, args, opts)
        .map_err(|e| RunError { message: render_runtime_error(&compiled.sources, &e.message, e.span, &e.trace) })
}

/// The tuning file that `futhark test` and `futhark bench` pass to a
/// program with `--tuning`: `PROG.fut.tuning`, where it exists.
pub fn tuning_file(program: &Path) -> Option<PathBuf> {
    let mut name = program.as_os_str().to_owned();
    name.push(".tuning");
    let path = PathBuf::from(name);
    path.is_file().then_some(path)
}

/// Reads a tuning file as compiled programs do (`--tuning`): `name=value`
/// lines, blank lines and `--` comments skipped; every name must be one of
/// `known`. Errors read like the executables' ("When loading tuning file …").
pub fn read_tuning_file(path: &Path, known: &[String]) -> Result<HashMap<String, i64>, String> {
    let fail = |msg: String| format!("When loading tuning file '{}': {msg}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| fail(format!("Cannot open file: {e}")))?;
    let mut out = HashMap::default();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with("--") {
            continue;
        }
        let invalid = || fail(format!("Invalid line {} (must be of form 'name=int').", i + 1));
        let (name, value) = line.split_once('=').ok_or_else(invalid)?;
        let value: i64 = value.trim().parse().map_err(|_| invalid())?;
        if !known.iter().any(|k| k == name) {
            return Err(fail(format!("Unknown name '{name}' on line {}.", i + 1)));
        }
        out.insert(name.to_string(), value);
    }
    Ok(out)
}

/// Futhark's layout for a run-time error: the message, then where it happened.
/// Renders a run-time error as Futhark does: the message, then a backtrace
/// from the failing statement out through the calls (`trace`, innermost first).
pub fn render_runtime_error(
    sources: &SourceMap,
    message: &str,
    span: ogham_syntax::Span,
    trace: &[ogham_syntax::Span],
) -> String {
    if span.is_dummy() {
        return format!("Error: {message}\n");
    }
    let mut out = format!("Error: {message}\n\nBacktrace:\n-> #0  {}\n", sources.range(span));
    // At most 40 lines, as compiled code prints (a deep recursion passes
    // through as many call sites as it is deep).
    const MAX_FRAMES: usize = 40;
    for (k, call) in trace.iter().enumerate().take(MAX_FRAMES - 1) {
        out.push_str(&format!("   #{}  {}\n", k + 1, sources.range(*call)));
    }
    if trace.len() >= MAX_FRAMES {
        out.push_str(&format!("   ... and {} more\n", trace.len() + 1 - MAX_FRAMES));
    }
    out
}

/// Formats results one per line, in text or binary.
pub fn format_results(values: &[Value], binary: bool) -> Vec<u8> {
    if binary {
        ogham_data::values_to_binary(values)
    } else {
        let mut out = String::new();
        for v in values {
            out.push_str(&ogham_data::value_to_text(v));
            out.push('\n');
        }
        out.into_bytes()
    }
}
