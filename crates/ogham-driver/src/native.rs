//! Compiling to native executables through the C backend, and running them
//! the way `futhark test` runs compiled programs: values in on standard
//! input (binary), values out on standard output (binary).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ogham_data::Value;
use ogham_ir::{Body, Span};
use ogham_syntax::SourceMap;

use crate::pipeline::Compiled;

/// Renders every statement span of the program as `file:line:col-line:col`,
/// for the run-time error messages of generated code.
pub fn span_texts(sources: &SourceMap, ir: &ogham_ir::Program) -> HashMap<Span, String> {
    fn walk(body: &Body, sources: &SourceMap, out: &mut HashMap<Span, String>) {
        for stm in &body.stms {
            if !stm.span.is_dummy() {
                out.entry(stm.span).or_insert_with(|| sources.range(stm.span));
            }
            for b in ogham_ir::visit::bodies(&stm.exp) {
                walk(b, sources, out);
            }
            for l in ogham_ir::visit::lambdas(&stm.exp) {
                walk(&l.body, sources, out);
            }
        }
    }
    let mut out = HashMap::new();
    for f in &ir.funs {
        walk(&f.body, sources, &mut out);
    }
    out
}

/// C compiler flags for test executables: optimisation off, since the C
/// compiler would otherwise dominate the test suite's time, and every warning
/// an error, so the whole suite checks that generated C is warning-free.
pub const TEST_CFLAGS: &[&str] = &["-O0", "-Wall", "-Wextra", "-Werror"];

/// Compiles the program into an executable at `out` (its C source is written
/// beside it as `out.c`); `extra_cflags` come last, so they override defaults.
/// Returns the time ogham spent generating C (not counting the C compiler).
pub fn compile_executable(
    compiled: &Compiled,
    backend: ogham_c::Backend,
    cc: Option<String>,
    out: &Path,
    extra_cflags: &[&str],
) -> Result<Duration, String> {
    compile_executable_with(
        compiled,
        ogham_c::Options { backend, cc, ..ogham_c::Options::default() },
        out,
        extra_cflags,
    )
}

/// [`compile_executable`] with every code generation option given (the
/// statement spans are filled in here).
pub fn compile_executable_with(
    compiled: &Compiled,
    opts: ogham_c::Options,
    out: &Path,
    extra_cflags: &[&str],
) -> Result<Duration, String> {
    let start = Instant::now();
    let opts = ogham_c::Options { span_text: span_texts(&compiled.sources, &compiled.ir), ..opts };
    let generated = ogham_c::generate(&compiled.ir, &opts)?;
    let c_path = out.with_extension("c");
    std::fs::write(&c_path, &generated.c).map_err(|e| format!("cannot write {}: {e}", c_path.display()))?;
    let codegen = start.elapsed();
    ogham_c::compile_c(&c_path, out, &opts, extra_cflags)?;
    Ok(codegen)
}

/// Writes Futhark's `--library` output for the program: `out.c`, `out.h`
/// and `out.json` (`out` is the path without extension).
pub fn write_library(compiled: &Compiled, backend: ogham_c::Backend, out: &Path) -> Result<(), String> {
    let opts = ogham_c::Options {
        backend,
        library: true,
        span_text: span_texts(&compiled.sources, &compiled.ir),
        ..ogham_c::Options::default()
    };
    ogham_c::write_library(&compiled.ir, &opts, out)
}

/// The default executable name for a program: its path without `.fut`.
pub fn default_output(program: &Path) -> PathBuf {
    program.with_extension("")
}

/// Runs a compiled executable on one entry point: the arguments go in as
/// binary values, the results come back as binary values. A run-time error
/// is returned as the program's standard error.
pub fn run_executable(exe: &Path, entry: &str, args: &[Value]) -> Result<Vec<Value>, String> {
    run_executable_with(exe, entry, args, &[], true)
}

/// [`run_executable`] with extra command-line options (such as `--tuning
/// FILE`); when `results` is false the program prints nothing (`-n`), so
/// results without an external form are no error, and no values come back.
pub fn run_executable_with(
    exe: &Path,
    entry: &str,
    args: &[Value],
    options: &[String],
    results: bool,
) -> Result<Vec<Value>, String> {
    let mut child = Command::new(exe)
        .args(["-e", entry, if results { "-b" } else { "-n" }])
        .args(options)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let input = ogham_data::values_to_binary(args);
    let mut stdin = child.stdin.take().ok_or("no standard input")?;
    // Write from another thread so a program that fails before reading all its input cannot deadlock us.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let _ = writer.join();
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        return Err(if stderr.is_empty() { format!("program exited with {}", output.status) } else { stderr });
    }
    if !results {
        return Ok(Vec::new());
    }
    ogham_data::read_values(&output.stdout).map_err(|e| format!("cannot read the program's output: {e}"))
}
