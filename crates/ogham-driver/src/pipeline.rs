//! From a `.fut` file (or a `.ir` file of core IR) to checked, optimised core IR.
//!
//! Loading resolves `import "path"` relative to the importing file (adding
//! `.fut`), in dependency order, each file once; the prelude comes first.
//! Every phase's diagnostics are rendered against the one [`SourceMap`].
//! After lowering, the middle end's default pipeline (`ogham-opt`) runs,
//! with the verifier after every pass when [`verifying`] says so; a verifier
//! failure writes the offending IR to a file and names it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use ogham_syntax::ast::{NodeIds, Program};
use ogham_syntax::{Diagnostic, SourceMap, Span};

/// A program that compiled: its sources (for rendering run-time error
/// locations) and its core IR.
pub struct Compiled {
    pub sources: SourceMap,
    pub ir: ogham_ir::Program,
}

/// Why a program did not compile: rendered diagnostics, ready to print.
#[derive(Debug)]
pub struct CompileError {
    pub rendered: String,
    /// The stable names of the errors, in order.
    pub names: Vec<&'static str>,
}

impl CompileError {
    fn from_diagnostics(diags: &[Diagnostic], sources: &SourceMap) -> CompileError {
        // Garbage input can produce one lexical error per byte; past a point
        // more of them tell the user nothing and only cost time.
        const SHOWN: usize = 100;
        let mut rendered = diags.iter().take(SHOWN).map(|d| d.render(sources)).collect::<Vec<_>>().join("\n");
        if diags.len() > SHOWN {
            rendered.push_str(&format!("\n... and {} more errors.\n", diags.len() - SHOWN));
        }
        CompileError { rendered, names: diags.iter().map(|d| d.name).collect() }
    }

    pub(crate) fn plain(name: &'static str, message: String) -> CompileError {
        CompileError { rendered: format!("Error[{name}]: {message}\n"), names: vec![name] }
    }
}

/// Source text decoded from a file's bytes: a UTF-8 byte-order mark at the
/// start is skipped; invalid UTF-8 gives the text with the bad bytes
/// replaced (so the error can be shown in context) and the offset and value
/// of the first bad byte.
pub struct SourceText {
    pub text: String,
    pub invalid: Option<(usize, u8)>,
}

pub fn decode_source(bytes: Vec<u8>) -> SourceText {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match String::from_utf8(bytes) {
        Ok(text) => SourceText { text, invalid: None },
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let byte = e.as_bytes()[at];
            SourceText { text: String::from_utf8_lossy(e.as_bytes()).into_owned(), invalid: Some((at, byte)) }
        }
    }
}

/// Which phases to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Stop after type checking (`ogham check`).
    AfterCheck,
    /// Produce core IR as lowering gives it, before any pass (`ogham dev`).
    Lowered,
    /// Produce core IR after the default pipeline of passes.
    Ir,
}

static VERIFY: AtomicBool = AtomicBool::new(false);

static TARGET: Mutex<ogham_opt::Target> = Mutex::new(ogham_opt::Target::PORTABLE);

/// Makes the passes optimise for `target` from now on: `ogham c` and `ogham
/// multicore` (without `--portable`) and `ogham bench` set the host's, as
/// they compile with `-march=native`. Otherwise (the tests, `ogham dev`,
/// the interpreter) it is [`ogham_opt::Target::PORTABLE`], so that the IR
/// does not depend on the machine. Only speed depends on it.
pub fn set_target(target: ogham_opt::Target) {
    *TARGET.lock().unwrap_or_else(|e| e.into_inner()) = target;
}

fn target() -> ogham_opt::Target {
    *TARGET.lock().unwrap_or_else(|e| e.into_inner())
}

/// Makes the verifier run after lowering and after every pass (`--verify`;
/// `ogham test` always does).
pub fn set_verify(on: bool) {
    VERIFY.store(on, Ordering::Relaxed);
}

/// Whether the verifier runs after every pass: in debug builds, after
/// [`set_verify`], or with `OGHAM_VERIFY` in the environment.
pub fn verifying() -> bool {
    cfg!(debug_assertions) || VERIFY.load(Ordering::Relaxed) || std::env::var_os("OGHAM_VERIFY").is_some()
}

/// A pass's rejection of the statement at `span` (inlined, perhaps): at the
/// innermost of its frames in the user's files, since the construct a user
/// cannot write (a `vjp` of some `scan`) is their call of the prelude's
/// function, not the intrinsic inside it; the innermost frame and the
/// user's calls outside it as notes.
fn located(ir: &ogham_ir::Program, sources: &SourceMap, name: &'static str, span: Span, message: String) -> Diagnostic {
    let frames = ir.frames(span);
    if frames.is_empty() {
        return Diagnostic::error(name, span, message);
    }
    let in_prelude = |s: &Span| sources.file(s.file).is_some_and(|f| f.name.starts_with("<prelude>/"));
    let at = frames.iter().position(|s| !in_prelude(s)).unwrap_or(0);
    let mut d = Diagnostic::error(name, frames[at], message);
    if at > 0 {
        d.notes.push(format!("in {}", sources.range(frames[0])));
    }
    for f in frames[at + 1..].iter().filter(|f| !in_prelude(f)) {
        d.notes.push(format!("called from {}", sources.range(*f)));
    }
    d
}

/// Runs `passes` on `ir` (verifying after each when [`verifying`]); `after`
/// sees the IR after each pass. A pass's rejection of the program is an
/// error at its source location in `sources`. A verifier failure is an
/// internal compiler error naming the pass; the IR that failed is written
/// to a file in the temporary directory, whose path the message gives.
pub fn run_passes(
    ir: &mut ogham_ir::Program,
    sources: &SourceMap,
    passes: &[&ogham_opt::Pass],
    after: impl FnMut(&ogham_opt::Pass, &ogham_ir::Program),
) -> Result<(), CompileError> {
    ogham_opt::run(ir, passes, &target(), verifying(), after).map_err(|failure| match failure {
        ogham_opt::PassFailure::Rejected(r) => {
            CompileError::from_diagnostics(&[located(ir, sources, r.name, r.span, r.message)], sources)
        }
        ogham_opt::PassFailure::Invalid { pass, message, ir } => {
            let file = std::env::temp_dir().join(format!("ogham-verify-{pass}-{}.ir", std::process::id()));
            let saved = match std::fs::write(&file, &ir) {
                Ok(()) => format!("the IR after `{pass}` is in {}", file.display()),
                Err(e) => format!("the IR could not be saved to {}: {e}", file.display()),
            };
            CompileError::plain("internal-compiler-error", format!("{message}\n{saved}"))
        }
    })
}

/// Reads a `.ir` file: core IR as `ogham dev --ir` prints it, verified (of
/// a pass test, the input program before its `-- output:` line).
fn load_ir(path: &Path, bytes: Vec<u8>, stop: Stop) -> Result<Compiled, CompileError> {
    let text = String::from_utf8(bytes)
        .map_err(|e| CompileError::plain("invalid-utf8", format!("{} is not valid UTF-8: {e}", path.display())))?;
    // A test file of `tests/ir/` holds its expected output after this
    // line: the program is what comes before it.
    let text = match text.find("\n-- output:") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    let mut ir = ogham_ir::parse::parse_program(text)
        .map_err(|e| CompileError::plain("ir-parse-error", format!("{}: {e}", path.display())))?;
    ogham_ir::verify::verify_after("parse", &ir).map_err(|msg| CompileError::plain("ir-invalid", msg))?;
    let sources = SourceMap::default();
    if stop == Stop::Ir {
        run_passes(&mut ir, &sources, &ogham_opt::default_pipeline(), |_, _| {})?;
    }
    Ok(Compiled { sources, ir })
}

struct Loader {
    sources: SourceMap,
    ids: NodeIds,
    /// Parsed files in dependency order, with their canonical paths and
    /// their imports (the path as written and the imported file's index).
    files: Vec<(Option<PathBuf>, Program, Vec<(String, usize)>)>,
    diagnostics: Vec<Diagnostic>,
}

impl Loader {
    fn new() -> Loader {
        Loader { sources: SourceMap::default(), ids: NodeIds::default(), files: Vec::new(), diagnostics: Vec::new() }
    }

    fn load_prelude(&mut self) {
        for (name, text) in ogham_types::prelude::PRELUDE {
            let file = self.sources.add(format!("<prelude>/{name}"), *text);
            let (program, diags) = ogham_syntax::parser::parse_program(file, text, &mut self.ids);
            self.diagnostics.extend(diags);
            self.files.push((None, program, Vec::new()));
        }
    }

    /// Parses `text` (the contents of `path`, if it has one), after first loading its imports.
    fn load(&mut self, path: Option<&Path>, display_name: &str, source: SourceText, stack: &mut Vec<PathBuf>) {
        let SourceText { text, invalid } = source;
        let file = self.sources.add(display_name.to_string(), text.clone());
        if let Some((at, byte)) = invalid {
            // The replacement character stands for the bad byte in the shown text.
            let span = Span::new(file, at, at + char::REPLACEMENT_CHARACTER.len_utf8());
            self.diagnostics.push(Diagnostic::error(
                "invalid-utf8",
                span,
                format!("the file is not valid UTF-8: byte 0x{byte:02x} at offset {at} does not start or continue a character"),
            ));
            return;
        }
        let (program, diags) = ogham_syntax::parser::parse_program(file, &text, &mut self.ids);
        self.diagnostics.extend(diags);
        let dir = path.and_then(|p| p.parent()).map(Path::to_path_buf).unwrap_or_default();
        let mut imports = Vec::new();
        for (import, span) in program.imports() {
            if let Some(index) = self.load_import(&dir, &import, span, stack) {
                imports.push((import, index));
            }
        }
        self.files.push((path.map(Path::to_path_buf), program, imports));
    }

    /// Loads an imported file (once) and returns its index in `files`.
    fn load_import(&mut self, dir: &Path, import: &str, span: Span, stack: &mut Vec<PathBuf>) -> Option<usize> {
        let target = dir.join(format!("{import}.fut"));
        let canonical = match target.canonicalize() {
            Ok(c) => c,
            Err(e) => {
                self.diagnostics.push(Diagnostic::error(
                    "import-not-found",
                    span,
                    format!("cannot import \"{import}\": {} ({e})", target.display()),
                ));
                return None;
            }
        };
        if stack.contains(&canonical) {
            self.diagnostics.push(Diagnostic::error(
                "import-cycle",
                span,
                format!("\"{import}\" imports itself (through {} files)", stack.len()),
            ));
            return None;
        }
        if let Some(i) = self.files.iter().position(|(p, _, _)| p.as_deref() == Some(canonical.as_path())) {
            return Some(i);
        }
        match std::fs::read(&canonical) {
            Ok(bytes) => {
                stack.push(canonical.clone());
                self.load(Some(&canonical), &target.display().to_string(), decode_source(bytes), stack);
                stack.pop();
                Some(self.files.len() - 1)
            }
            Err(e) => {
                self.diagnostics.push(Diagnostic::error(
                    "import-not-found",
                    span,
                    format!("cannot read \"{import}\": {e}"),
                ));
                None
            }
        }
    }
}

/// Drops the prelude's definitions that the program cannot name (see
/// [`ogham_types::prelude::prune`]); the prelude is the first file in
/// `files` and in `sources`.
fn prune_prelude(sources: &SourceMap, files: &mut [(Option<PathBuf>, Program, Vec<(String, usize)>)]) {
    // One prelude file: a second would have to keep what it names in the first.
    const _: () = assert!(ogham_types::prelude::PRELUDE.len() == 1);
    let program_texts = sources.files[1..].iter().map(|f| f.text.as_str());
    ogham_types::prelude::prune(&mut files[0].1, ogham_syntax::FileId(0), &sources.files[0].text, program_texts);
}

/// Compiles a file from disk.
pub fn compile_file(path: &Path, stop: Stop) -> Result<Compiled, CompileError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CompileError::plain("file-not-found", format!("cannot read {}: {e}", path.display())))?;
    if path.extension().is_some_and(|e| e == "ir") {
        return load_ir(path, bytes, stop);
    }
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    compile(Some(&canonical), &path.display().to_string(), decode_source(bytes), stop)
}

/// Compiles `text` as if it were the file at `path` (its imports resolve
/// from there).
pub fn compile_text_at(path: &Path, text: &str, stop: Stop) -> Result<Compiled, CompileError> {
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    compile(Some(&canonical), &path.display().to_string(), decode_source(text.as_bytes().to_vec()), stop)
}

/// Compiles source text that has no file (imports are resolved relative to the working directory).
pub fn compile_source(name: &str, text: &str, stop: Stop) -> Result<Compiled, CompileError> {
    compile(None, name, decode_source(text.as_bytes().to_vec()), stop)
}

/// Stack size for the compiler's phases: the checker and lowering recurse over
/// the AST, and long operator or `let` chains are deep trees.
const COMPILER_STACK_BYTES: usize = 1 << 30;

fn compile(path: Option<&Path>, display_name: &str, text: SourceText, stop: Stop) -> Result<Compiled, CompileError> {
    let path = path.map(Path::to_path_buf);
    let display_name = display_name.to_string();
    let worker = std::thread::Builder::new()
        .name("ogham-compile".into())
        .stack_size(COMPILER_STACK_BYTES)
        .spawn(move || compile_on_this_thread(path.as_deref(), &display_name, text, stop));
    match worker.map(|handle| handle.join()) {
        Ok(Ok(result)) => result,
        Ok(Err(_)) => Err(CompileError::plain("internal-compiler-error", "the compiler panicked".into())),
        Err(e) => Err(CompileError::plain("internal-compiler-error", format!("cannot start the compiler thread: {e}"))),
    }
}

fn compile_on_this_thread(
    path: Option<&Path>,
    display_name: &str,
    text: SourceText,
    stop: Stop,
) -> Result<Compiled, CompileError> {
    let mut loader = Loader::new();
    loader.load_prelude();
    let mut stack: Vec<PathBuf> = path.map(Path::to_path_buf).into_iter().collect();
    loader.load(path, display_name, text, &mut stack);
    let Loader { sources, mut files, diagnostics, .. } = loader;
    if !diagnostics.is_empty() {
        return Err(CompileError::from_diagnostics(&diagnostics, &sources));
    }
    prune_prelude(&sources, &mut files);
    let last = files.len() - 1;
    let inputs: Vec<ogham_types::CheckInput<'_>> = files
        .iter()
        .enumerate()
        .map(|(i, (_, program, imports))| ogham_types::CheckInput {
            program,
            is_main: i == last,
            imports: imports.clone(),
        })
        .collect();
    let info = ogham_types::check(&inputs).map_err(|diags| CompileError::from_diagnostics(&diags, &sources))?;
    if stop == Stop::AfterCheck {
        drop_in_background((info, files));
        return Ok(Compiled { sources, ir: ogham_ir::Program::default() });
    }
    let programs: Vec<&Program> = files.iter().map(|(_, p, _)| p).collect();
    let ir = ogham_lower::lower(&programs, &info).map_err(|diags| CompileError::from_diagnostics(&diags, &sources))?;
    drop(programs);
    drop_in_background((info, files));
    let mut ir = ir;
    if verifying() {
        ogham_ir::verify::verify_after("lower", &ir)
            .map_err(|msg| CompileError::plain("internal-compiler-error", msg))?;
    }
    if stop == Stop::Ir {
        run_passes(&mut ir, &sources, &ogham_opt::default_pipeline(), |_, _| {})?;
    }
    Ok(Compiled { sources, ir })
}

/// Frees the syntax trees and type information of a compilation on another
/// thread: for programs with many module instantiations they are large, and
/// freeing them took a sixth of the type-checking time. A process that exits
/// first does not wait for it.
fn drop_in_background<T: Send + 'static>(value: T) {
    if std::thread::Builder::new().name("ogham-free".into()).spawn(move || drop(value)).is_err() {
        // No thread to be had: free it here (the value moved into the
        // closure was dropped with it).
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pass's rejection of a statement that came from the prelude (the
    /// intrinsic inside `scan`) is reported at the user's call of the
    /// prelude function, with the prelude's line and the user's outer calls
    /// as notes. (No construct the prelude reaches is rejected by a pass
    /// today, so the rejection is made up here, at the scan's statement.)
    #[test]
    fn rejections_in_prelude_code_point_at_the_users_call() {
        let src = "def f [n] (xss: [n][2]i64) =\n  \
                   let ys = scan (\\a b -> [a[0] * b[0], a[1] * b[0] + b[1]]) [1, 0] xss\n  \
                   in i64.sum (map i64.sum ys)\n\n\
                   entry main [n] (xss: [n][2]i64) = f xss\n";
        let compiled = compile_source("loc.fut", src, Stop::Ir).expect("compiles");
        let scan = compiled
            .ir
            .funs
            .iter()
            .flat_map(|f| &f.body.stms)
            .find(|s| matches!(&s.exp, ogham_ir::Exp::Soac(ogham_ir::Soac::Screma { scans, .. }) if !scans.is_empty()))
            .expect("the scan's statement");
        let d = located(&compiled.ir, &compiled.sources, "not-supported-yet", scan.span, "a scan".into());
        let text = CompileError::from_diagnostics(&[d], &compiled.sources).rendered;
        assert!(text.contains("at loc.fut:2:12-71: "), "{text}");
        assert!(text.contains("= in <prelude>/prelude.fut:"), "{text}");
        assert!(text.contains("= called from loc.fut:5:"), "{text}");
        assert_eq!(text.matches("called from").count(), 1, "only the user's calls: {text}");
    }
}
