//! The test runner behind `ogham test` and `cargo test`: finds `.fut` files
//! (and `.ir` files of core IR that have a `-- ==` block, for constructs the
//! source language cannot write yet; they are compiled from the IR parser,
//! then run through the default passes as a `.fut` program's IR is),
//! reads their `-- ==` blocks, compiles each program once, runs every case
//! on the chosen backend and compares the results with Futhark's tolerance.
//! Of FutharkScript inputs (`script input { … }`) only a call of an entry
//! point on literal values is supported (its results are the arguments; an
//! entry point whose input is a tuple or record gets it built from them, on
//! compiled backends through the server's `new`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ogham_data::testspec::{parse_test_spec, CaseInput, Expected, RunCase, TestAction};
use ogham_data::Value;

use crate::pipeline::{compile_file, Compiled, Stop};
use crate::{gradcheck, native, run};

/// Which backend runs the test programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    /// The reference interpreter.
    Interp,
    /// Sequential C.
    C,
    /// Multithreaded C.
    Multicore,
}

impl Backend {
    /// The name used in `no_<backend>` tags.
    pub fn tag_name(self) -> &'static str {
        match self {
            Backend::Interp => "interpreter",
            Backend::C => "c",
            Backend::Multicore => "multicore",
        }
    }
}

pub struct TestOptions {
    pub backend: Backend,
    pub exclude: Vec<String>,
    pub verbose: bool,
    /// Do not pass `PROG.fut.tuning` files (`futhark test --no-tuning`).
    pub no_tuning: bool,
    /// Skip (and count) cases whose input or expected-output file does not
    /// exist, instead of failing them: for suites whose large datasets are
    /// generated or downloaded separately.
    pub skip_missing_data: bool,
}

/// Counts of one test run.
#[derive(Debug, Default, Clone, Copy)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    /// Cases skipped because a data file is absent (`skip_missing_data`).
    pub skipped: usize,
}

/// All `.fut` files under the given paths, and the `.ir` files with a
/// `-- ==` test block (the other `.ir` files are the middle end's pass
/// tests, `tests/ir/`), sorted.
pub fn find_programs(paths: &[PathBuf]) -> Vec<PathBuf> {
    fn ir_test(path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "ir")
            && std::fs::read_to_string(path).is_ok_and(|text| text.lines().any(|l| l.trim_end() == "-- =="))
    }
    fn walk(path: &Path, out: &mut Vec<PathBuf>) {
        if path.is_dir() {
            let Ok(entries) = std::fs::read_dir(path) else { return };
            let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            children.sort();
            for child in children {
                walk(&child, out);
            }
        } else if path.extension().is_some_and(|e| e == "fut") || ir_test(path) {
            out.push(path.to_path_buf());
        }
    }
    let mut out = Vec::new();
    for p in paths {
        walk(p, &mut out);
    }
    out
}

/// The outcome of testing one program: counts and failure messages.
struct ProgramReport {
    passed: usize,
    skipped: usize,
    failures: Vec<String>,
    notes: Vec<String>,
}

/// Runs the tests of every program under `paths`, printing failures and a
/// final `N passed, N failed` line.
pub fn run_tests(paths: &[PathBuf], opts: &TestOptions) -> Summary {
    // Every test checks every pass: the verifier runs after each.
    crate::pipeline::set_verify(true);
    // Multicore code is optimised for two threads, as on a machine with two
    // cores, so that the passes that depend on the threads (`lanes`,
    // `accreduce`'s chunks) are tested on every machine alike.
    if opts.backend == Backend::Multicore {
        crate::pipeline::set_target(ogham_opt::Target { threads: 2, ..ogham_opt::Target::PORTABLE });
    }
    let programs = find_programs(paths);
    let next = AtomicUsize::new(0);
    let summary = Mutex::new(Summary::default());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let boundaries = native::BoundaryObjects::new();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(program) = programs.get(i) else { break };
                let report = test_program(program, opts, &boundaries);
                let mut s = summary.lock().unwrap_or_else(|e| e.into_inner());
                s.passed += report.passed;
                s.skipped += report.skipped;
                s.failed += report.failures.len();
                for f in &report.failures {
                    println!("FAILED {}: {f}", program.display());
                }
                if opts.verbose {
                    for n in &report.notes {
                        println!("{}: {n}", program.display());
                    }
                }
            });
        }
    });
    let s = summary.into_inner().unwrap_or_else(|e| e.into_inner());
    if s.skipped > 0 {
        println!("{} skipped (data files absent)", s.skipped);
    }
    println!("{} passed, {} failed", s.passed, s.failed);
    s
}

fn test_program(path: &Path, opts: &TestOptions, boundaries: &native::BoundaryObjects) -> ProgramReport {
    let mut report = ProgramReport { passed: 0, skipped: 0, failures: Vec::new(), notes: Vec::new() };
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            report.failures.push(format!("cannot read: {e}"));
            return report;
        }
    };
    let spec = match parse_test_spec(&source) {
        Ok(Some(spec)) => spec,
        Ok(None) => {
            compile_only(path, opts, &mut report, boundaries);
            return report;
        }
        Err(e) => {
            report.failures.push(format!("malformed test block: {e}"));
            return report;
        }
    };
    if spec.tags.iter().any(|t| opts.exclude.contains(t)) {
        return report;
    }
    match spec.action {
        TestAction::CompileError { regex, .. } => {
            match compile_file(path, Stop::Ir) {
                Ok(_) => report.failures.push(format!("expected a compile error matching `{regex}`, but it compiled")),
                Err(e) => match regex::Regex::new(&regex) {
                    Ok(re) if re.is_match(&e.rendered) => report.passed += 1,
                    Ok(_) => report
                        .failures
                        .push(format!("compile error does not match `{regex}`:\n{}", indent(&e.rendered))),
                    Err(err) => report.failures.push(format!("bad regex `{regex}`: {err}")),
                },
            }
            report
        }
        TestAction::Property { .. } => {
            report.notes.push("property tests are not supported; skipped".into());
            report
        }
        TestAction::Run { groups, .. } => {
            let cases: Vec<(&str, &RunCase)> = groups
                .iter()
                .flat_map(|g| g.entries.iter().flat_map(move |e| g.cases.iter().map(move |c| (e.as_str(), c))))
                .filter(|(_, c)| !c.excluded(opts.backend.tag_name(), false))
                .filter(|(_, c)| !c.tags.iter().any(|t| opts.exclude.contains(t)))
                .collect();
            if cases.is_empty() {
                compile_only(path, opts, &mut report, boundaries);
                return report;
            }
            let compiled = match compile_file(path, Stop::Ir) {
                Ok(c) => c,
                Err(e) => {
                    report.failures.push(format!("compilation failed:\n{}", indent(&e.rendered)));
                    return report;
                }
            };
            let dir = path.parent().unwrap_or(Path::new("."));
            let runner = match Runner::new(&compiled, path, opts.backend, !opts.no_tuning, boundaries) {
                Ok(r) => r,
                Err(e) => {
                    report.failures.push(format!(
                        "compilation with the {} backend failed:\n{}",
                        opts.backend.tag_name(),
                        indent(&e)
                    ));
                    return report;
                }
            };
            // Cases tagged `gradcheck` also check their entry's derivatives,
            // on a copy of the program with jvp and vjp entry points.
            let mut checked: Vec<gradcheck::Checked> = Vec::new();
            for (entry, case) in &cases {
                if case.has_tag("gradcheck") && !checked.iter().any(|c| c.name == *entry) {
                    if let Some(c) =
                        compiled.ir.entry_points().find(|f| f.name == *entry).and_then(gradcheck::Checked::of)
                    {
                        checked.push(c);
                    }
                }
            }
            // When the derivative entries do not compile together, those of
            // each entry are tried alone: an entry whose own fail (`vjp` of
            // a function whose result size it computes, say) reports why,
            // and the others are still checked.
            let mut refused: Vec<(String, String)> = Vec::new();
            let extended = if checked.is_empty() {
                None
            } else {
                match gradcheck::extended(path, &checked) {
                    Ok(ext) => Some(Ok(ext)),
                    Err(all) => {
                        let mut fine = Vec::new();
                        for c in &checked {
                            match gradcheck::extended(path, std::slice::from_ref(c)) {
                                Ok(_) => fine.push(c.clone()),
                                Err(e) => refused.push((c.name.clone(), e)),
                            }
                        }
                        if fine.is_empty() || refused.is_empty() {
                            refused.clear();
                            Some(Err(all))
                        } else {
                            Some(gradcheck::extended(path, &fine))
                        }
                    }
                }
            };
            let derivative_runners = match &extended {
                Some(Ok(ext)) => Some((
                    Runner::new(ext, path, opts.backend, !opts.no_tuning, boundaries),
                    Runner::new(ext, path, Backend::Interp, !opts.no_tuning, boundaries),
                )),
                Some(Err(e)) => {
                    report
                        .failures
                        .push(format!("gradcheck: the program with derivative entries failed:\n{}", indent(e)));
                    None
                }
                None => None,
            };
            for (entry, case) in cases {
                if case.has_tag("gradcheck") {
                    let own = refused.iter().find(|(e, _)| e == entry);
                    let outcome = match (own, &derivative_runners) {
                        (Some((_, e)), _) => Err(format!(
                            "gradcheck: the derivative entries of `{entry}` do not compile:\n{}",
                            indent(e)
                        )),
                        (None, Some((Ok(backend), Ok(interp)))) => {
                            // Read as the entry's parameter types, as `input` is.
                            let fun = compiled.ir.entry_points().find(|f| f.name == *entry);
                            load_values(dir, &case.input, fun).and_then(|x| {
                                gradcheck::check(
                                    entry,
                                    &x,
                                    case.line as u64,
                                    &|e, a| backend.run(e, a, true),
                                    &|e, a| interp.run(e, a, true),
                                )
                            })
                        }
                        (None, Some((Err(e), _)) | Some((_, Err(e)))) => Err(format!("gradcheck: {e}")),
                        (None, None) => Err("gradcheck: no derivative entries (see the failure above)".into()),
                    };
                    if let Err(msg) = outcome {
                        report.failures.push(format!("entry {entry}, dataset {}: {msg}", case.name));
                        continue;
                    }
                }
                if opts.skip_missing_data {
                    if let Some(file) = missing_data_file(dir, case) {
                        report.skipped += 1;
                        report.notes.push(format!("entry {entry}, dataset {}: skipped, {file} is absent", case.name));
                        continue;
                    }
                }
                let fun = compiled.ir.entry_points().find(|f| f.name == *entry);
                match run_case(&runner, dir, entry, fun, case) {
                    Ok(()) => report.passed += 1,
                    Err(msg) => report.failures.push(format!("entry {entry}, dataset {}: {msg}", case.name)),
                }
            }
            report
        }
    }
}

/// A program with nothing to run on this backend: as `futhark test` does in
/// compiled mode, a compiled backend still builds its executable, so a
/// program that does not compile fails; the interpreter (`futhark test -i`)
/// does nothing.
fn compile_only(path: &Path, opts: &TestOptions, report: &mut ProgramReport, boundaries: &native::BoundaryObjects) {
    if opts.backend == Backend::Interp {
        return;
    }
    match compile_file(path, Stop::Ir) {
        Ok(compiled) => {
            if let Err(e) = Runner::new(&compiled, path, opts.backend, false, boundaries) {
                report.failures.push(format!(
                    "compilation with the {} backend failed:\n{}",
                    opts.backend.tag_name(),
                    indent(&e)
                ));
            }
        }
        Err(e) => report.failures.push(format!("compilation failed:\n{}", indent(&e.rendered))),
    }
}

/// The first data file a case names that does not exist.
fn missing_data_file<'c>(dir: &Path, case: &'c RunCase) -> Option<&'c str> {
    let inputs: Vec<&str> = match &case.input {
        CaseInput::File(file) => vec![file.as_str()],
        // FutharkScript's `$loaddata "file"` reads a data file too.
        CaseInput::Script(text) => loaddata_files(text),
        _ => Vec::new(),
    };
    let output = match &case.expected {
        Expected::File(file) => Some(file.as_str()),
        _ => None,
    };
    inputs.into_iter().chain(output).find(|f| !dir.join(f).is_file())
}

/// The files named by `$loaddata "file"` in a FutharkScript expression.
fn loaddata_files(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("$loaddata") {
        rest = rest[at + "$loaddata".len()..].trim_start();
        let Some(quoted) = rest.strip_prefix('"') else { continue };
        let Some(end) = quoted.find('"') else { break };
        out.push(&quoted[..end]);
        rest = &quoted[end + 1..];
    }
    out
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n")
}

/// The input values of a case. Text is read as the entry point's
/// parameters are typed, as a compiled program reads its input (`1.0` in a
/// data file is an `f32` for an `f32` parameter); where that fails (say, an
/// opaque parameter) the values are read as written and the run reports
/// any mismatch.
fn load_values(dir: &Path, input: &CaseInput, fun: Option<&ogham_ir::FunDef>) -> Result<Vec<Value>, String> {
    let typed = |bytes: &[u8]| fun.and_then(|f| run::read_arguments(f, bytes).ok());
    match input {
        CaseInput::Values(text) => match typed(text.as_bytes()) {
            Some(values) => Ok(values),
            None => ogham_data::parse_values(text).map_err(|e| format!("bad input values: {e}")),
        },
        CaseInput::File(file) => {
            let path = dir.join(file);
            let bytes = ogham_data::read_data_file(&path).map_err(|e| format!("cannot read input {file}: {e}"))?;
            match typed(&bytes) {
                Some(values) => Ok(values),
                None => ogham_data::read_values(&bytes)
                    .map_err(|e| format!("cannot read input {file}: {}", e.context(path.display()))),
            }
        }
        CaseInput::Random(items) => {
            let items = ogham_data::parse_random_items(items).map_err(|e| format!("bad random input: {e}"))?;
            ogham_data::generate_random_input(&items, 1, &ogham_data::RandomBounds::default())
                .map_err(|e| format!("cannot generate random input: {e}"))
        }
        CaseInput::Script(_) | CaseInput::ScriptFile(_) => Err("script inputs are not supported".into()),
    }
}

/// Runs the cases of one compiled program on its backend. As `futhark
/// test` does, a tuning file `PROG.fut.tuning` next to the program sets
/// its tuning parameters (`--tuning` for executables).
enum Runner<'a> {
    Interp(&'a Compiled, ogham_interp::RunOptions),
    /// A compiled executable in a temporary directory, removed on drop.
    Native {
        exe: PathBuf,
        dir: PathBuf,
        options: Vec<String>,
    },
}

impl<'a> Runner<'a> {
    fn new(
        compiled: &'a Compiled,
        program: &Path,
        backend: Backend,
        tuning: bool,
        boundaries: &native::BoundaryObjects,
    ) -> Result<Runner<'a>, String> {
        let tuning = if tuning { run::tuning_file(program) } else { None };
        let c_backend = match backend {
            Backend::Interp => {
                let mut opts = ogham_interp::RunOptions::default();
                if let Some(file) = &tuning {
                    opts.tuning = run::read_tuning_file(file, &ogham_c::tuning::all(&compiled.ir))?;
                }
                return Ok(Runner::Interp(compiled, opts));
            }
            Backend::C => ogham_c::Backend::Sequential,
            Backend::Multicore => ogham_c::Backend::Multicore,
        };
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "ogham-test-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let stem = program.file_stem().and_then(|s| s.to_str()).unwrap_or("prog");
        let exe = dir.join(stem);
        let options = match tuning {
            Some(file) => vec!["--tuning".to_string(), file.display().to_string()],
            None => Vec::new(),
        };
        let runner = Runner::Native { exe, dir, options };
        if let Runner::Native { exe, .. } = &runner {
            boundaries.compile_test_executable(compiled, c_backend, exe)?;
        }
        Ok(runner)
    }

    /// Runs an entry point; when `results` is false its results are not
    /// needed (a case that only has to succeed or fail), so they need no
    /// external form and none come back.
    fn run(&self, entry: &str, args: Vec<Value>, results: bool) -> Result<Vec<Value>, String> {
        match self {
            Runner::Interp(compiled, opts) => {
                let opts = ogham_interp::RunOptions { results, ..opts.clone() };
                run::run_interpreter_with(compiled, entry, args, &opts).map_err(|e| e.message)
            }
            Runner::Native { exe, options, .. } => native::run_executable_with(exe, entry, &args, options, results),
        }
    }

    /// Runs an entry point on the parts of its inputs: an opaque input
    /// (record or tuple) takes as many consecutive values as it has parts.
    fn run_parts(
        &self,
        entry: &str,
        inputs: &[ogham_ir::EntryValue],
        args: Vec<Value>,
        results: bool,
    ) -> Result<Vec<Value>, String> {
        match self {
            Runner::Interp(compiled, opts) => {
                let opts = ogham_interp::RunOptions { results, parts: true, ..opts.clone() };
                run::run_interpreter_with(compiled, entry, args, &opts).map_err(|e| e.message)
            }
            Runner::Native { exe, options, .. } => {
                native::run_executable_parts(exe, entry, inputs, &args, options, results)
            }
        }
    }
}

impl Drop for Runner<'_> {
    fn drop(&mut self) {
        if let Runner::Native { dir, .. } = self {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// The arguments a `script input { … }` gives. Only the simplest
/// FutharkScript is supported: a call of an entry point on literal values
/// (`init 10i64`), whose results are the arguments, or literal values alone.
fn script_args(runner: &Runner<'_>, text: &str) -> Result<Vec<Value>, String> {
    let t = text.trim();
    let name_end = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '\'')).unwrap_or(t.len());
    let name = &t[..name_end];
    let is_call = t.starts_with(|c: char| c.is_ascii_alphabetic())
        && !matches!(name, "true" | "false" | "empty")
        && !t[name_end..].starts_with(['.', '(']);
    if !is_call {
        return ogham_data::parse_values(t)
            .map_err(|e| format!("unsupported script input (only a call of an entry point on values is): {e}"));
    }
    let args = ogham_data::parse_values(&t[name_end..])
        .map_err(|e| format!("unsupported script input (only a call of an entry point on values is): {e}"))?;
    runner.run(name, args, true).map_err(|e| format!("script input `{t}` failed: {e}"))
}

fn run_case(
    runner: &Runner<'_>,
    dir: &Path,
    entry: &str,
    fun: Option<&ogham_ir::FunDef>,
    case: &RunCase,
) -> Result<(), String> {
    let args = match &case.input {
        CaseInput::Script(text) => script_args(runner, text)?,
        input => load_values(dir, input, fun)?,
    };
    let results = matches!(case.expected, Expected::Values(_) | Expected::File(_));
    // FutharkScript passes the results of a call (a tuple) to an entry
    // point whose input is a record or tuple by building that value.
    let inputs = fun.and_then(|f| f.entry.as_ref()).map(|e| e.inputs.as_slice()).unwrap_or(&[]);
    let by_parts = matches!(case.input, CaseInput::Script(_))
        && args.len() != inputs.len()
        && inputs.iter().any(|i| i.opaque.is_some())
        && args.len() == inputs.iter().map(|i| i.parts.len()).sum::<usize>();
    let result =
        if by_parts { runner.run_parts(entry, inputs, args, results) } else { runner.run(entry, args, results) };
    match (&case.expected, result) {
        (Expected::RunError(regex), Err(msg)) => {
            // As in Futhark's test runner, `.` also matches the newlines of a backtrace.
            let re = regex::RegexBuilder::new(regex)
                .dot_matches_new_line(true)
                .build()
                .map_err(|e| format!("bad regex `{regex}`: {e}"))?;
            if re.is_match(&msg) {
                Ok(())
            } else {
                Err(format!("error does not match `{regex}`:\n{}", indent(&msg)))
            }
        }
        (Expected::RunError(regex), Ok(_)) => Err(format!("expected an error matching `{regex}`, but it succeeded")),
        (_, Err(msg)) => Err(format!("run failed:\n{}", indent(&msg))),
        (Expected::Success | Expected::Auto, Ok(_)) => Ok(()),
        (Expected::Values(text), Ok(got)) => {
            let expected = ogham_data::parse_values(text).map_err(|e| format!("bad expected values: {e}"))?;
            compare(&expected, &got)
        }
        (Expected::File(file), Ok(got)) => {
            let expected =
                ogham_data::read_values_file(&dir.join(file)).map_err(|e| format!("cannot read output {file}: {e}"))?;
            compare(&expected, &got)
        }
    }
}

fn compare(expected: &[Value], got: &[Value]) -> Result<(), String> {
    let cmp = ogham_data::compare_values(expected, got);
    if cmp.is_match() {
        Ok(())
    } else {
        Err(cmp.report())
    }
}
