//! The C backend: core IR to one self-contained C file, and executables.
//!
//! It takes the IR after the middle end's passes (`ogham-opt`: inlining,
//! simplification, fusion…, run by the driver), as the verifier's
//! [`Verified`] view of it (types and use counts come from there, and
//! unverified IR cannot be given), and [`codegen`] lowers it
//! to imperative C with explicit memory:
//! every array is a view (reference-counted block, offset, shape, strides),
//! so slices, transposes and reshapes of contiguous arrays are index
//! arithmetic; consumed arrays are updated in place; SOAC results are
//! allocated once and written directly. The C runtime lives in `rts/` as real
//! C files and is embedded into every generated program.

pub mod codegen;
mod kernel;
pub mod library;
mod scalar;
pub mod tuning;

use rustc_hash::FxHashMap as HashMap;
use std::path::Path;
use std::process::Command;

use ogham_ir::verify::Verified;
use ogham_ir::Span;

/// Which flavour of C to generate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    #[default]
    Sequential,
    /// Parallel SOACs on a pthread pool (outermost level only).
    Multicore,
}

/// Code generation options.
#[derive(Clone, Debug)]
pub struct Options {
    pub backend: Backend,
    /// Generate a library (no `main`) instead of an executable.
    pub library: bool,
    /// How each statement span is shown in run-time error messages
    /// (`file:line:col-line:col`); spans not listed are shown by byte offsets.
    pub span_text: HashMap<Span, String>,
    /// The C compiler; overrides `CC` from the environment.
    pub cc: Option<String>,
    /// Make the executable speak the server protocol without `--server`
    /// (`futhark c --server`), as Futhark's tools run server executables bare.
    pub server: bool,
    /// Compile for any CPU of the architecture rather than for this
    /// machine's (no `-march=native`): for executables that are copied to
    /// other machines.
    pub portable: bool,
    /// Verify each imperative kernel after every one of its passes, not
    /// only after the last (`--verify`; always in `ogham test`).
    pub verify: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            backend: Backend::Sequential,
            library: false,
            span_text: HashMap::default(),
            cc: None,
            server: false,
            portable: false,
            verify: cfg!(debug_assertions),
        }
    }
}

/// The generated C program.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The whole C source, runtime included.
    pub c: String,
    /// In library mode: the header (Futhark's C API) and the JSON manifest.
    pub header: Option<String>,
    pub manifest: Option<String>,
}

/// Generates C for the program. Fails (with a message) on IR constructs the
/// backend does not support.
pub fn generate(verified: &Verified, opts: &Options) -> Result<Generated, String> {
    let mut c = codegen::program(verified, opts)?;
    if opts.library {
        let lib = library::generate(verified.prog, opts)?;
        c.push_str(&lib.c);
        return Ok(Generated { c, header: Some(lib.header), manifest: Some(lib.manifest) });
    }
    Ok(Generated { c, header: None, manifest: None })
}

/// An executable's C in two files to be compiled apart and linked
/// ([`codegen::Parts::split`]). `ogham test` compiles each distinct
/// boundary once and links it into every test executable: it had been
/// three quarters of each compile.
pub struct Split {
    /// The program's file: the configuration's defines, the runtime the
    /// program calls, and the program, defining its `OG_GLOBAL`s.
    pub program: String,
    /// The boundary's file: the value formats, the server protocol and
    /// `main`, which read only the program's `OG_GLOBAL` definitions
    /// (`rts/program.h`). The same text for every program of one
    /// configuration (the backend, the largest rank, the number of tuning
    /// parameters).
    pub boundary: String,
}

/// Generates an executable's C as [`Split`] (not for libraries).
pub fn generate_split(verified: &Verified, opts: &Options) -> Result<Split, String> {
    assert!(!opts.library, "a library is one C file");
    Ok(codegen::program_parts(verified, opts)?.split())
}

/// The file `out.ext` beside `out`: the extension is added, never
/// substituted, as Futhark names its outputs, so that `-o prog.c` writes its
/// C to `prog.c.c` rather than compiling a file into itself.
pub fn beside(out: &Path, ext: &str) -> std::path::PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".");
    name.push(ext);
    name.into()
}

/// Writes a library's three files, `out.c`, `out.h` and `out.json`
/// (Futhark's `--library` output); `out` is the path without extension.
pub fn write_library(verified: &Verified, opts: &Options, out: &Path) -> Result<(), String> {
    let opts = Options { library: true, ..opts.clone() };
    let generated = generate(verified, &opts)?;
    let write = |ext: &str, text: &str| {
        let path = beside(out, ext);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    write("c", &generated.c)?;
    write("h", generated.header.as_deref().unwrap_or_default())?;
    write("json", generated.manifest.as_deref().unwrap_or_default())
}

/// Generates `out.c` next to `out` and compiles it into the executable `out`
/// with the system C compiler (`opts.cc`, else `$CC`, else `cc`; `$CFLAGS`
/// adds flags, after and so overriding ours).
pub fn compile_executable(verified: &Verified, opts: &Options, out: &Path) -> Result<(), String> {
    let generated = generate(verified, opts)?;
    let c_path = beside(out, "c");
    std::fs::write(&c_path, &generated.c).map_err(|e| format!("cannot write {}: {e}", c_path.display()))?;
    compile_c(&c_path, out, opts, &[])
}

/// The C compiler flags ogham compiles generated code with, before the
/// caller's and the user's. Code is for the host CPU, as a JIT compiler's
/// would be, unless `opts.portable`. Floating point stays IEEE: the C
/// compiler contracts nothing into fused multiply-adds
/// (`-ffp-contract=off`; the only ones are the `fma`s the kernels of float
/// sums spell out, `ogham_imp::passes::contract`), and no fast-math; only `errno` and traps are given up, which the language
/// never reads: `-fno-math-errno` makes `sqrt` one instruction, and
/// `-fno-trapping-math` lets the C compiler compute a comparison whether
/// or not a select then needs it, which vectorising a loop with a
/// condition on floats (Mandelbrot's lanes) needs on CPUs without masked
/// vector instructions (AVX2: without it, GCC keeps such loops scalar).
/// Results are unchanged: no operation is reassociated, and NaNs and
/// signed zeros keep their IEEE semantics. OpenMP's `simd`
/// directives are on (`-fopenmp-simd`, no run-time library; `OG_OMP` in
/// the runtime): scans run in vector lanes.
pub fn cflags(opts: &Options) -> Vec<&'static str> {
    let mut flags = vec![
        "-O3",
        "-std=c11",
        "-ffp-contract=off",
        "-fno-math-errno",
        "-fno-trapping-math",
        "-fopenmp-simd",
        "-DOG_OMP_SIMD",
    ];
    if !opts.portable {
        // 512-bit vectors where the CPU has them (GCC prefers 256 bits on
        // some that do); the kernels are made for the host's vectors
        // (`codegen/simd.rs`, `host_target`).
        // Generic tuning: GCC 12's tuning for AMD Zen 3 copies the array
        // descriptors (80 bytes and more) with `rep movs`, slow for such
        // sizes there; generic tuning copies them with vector moves (the
        // LSTM gradient 1.7x faster, hotspot 1.1-1.4x, nothing slower).
        flags.extend(["-march=native", "-mprefer-vector-width=512", "-mtune=generic"]);
    }
    if opts.backend == Backend::Multicore {
        flags.push("-pthread");
    }
    flags
}

/// Compiles a generated C file into an executable, adding `extra_flags`
/// (then `$CFLAGS`).
pub fn compile_c(c_path: &Path, out: &Path, opts: &Options, extra_flags: &[&str]) -> Result<(), String> {
    compile_and_link(c_path, &[], out, opts, extra_flags)
}

/// [`compile_c`], linking the executable with `objects` as well (a
/// boundary object, [`compile_object`]).
pub fn compile_and_link(
    c_path: &Path,
    objects: &[&Path],
    out: &Path,
    opts: &Options,
    extra_flags: &[&str],
) -> Result<(), String> {
    let mut cmd = cc_command(opts, extra_flags);
    cmd.arg(c_path).args(objects).arg("-o").arg(out).arg("-lm");
    run_cc(cmd, opts)
}

/// Compiles a C file into the object file `out` (`-c`), with the same flags
/// as [`compile_c`].
pub fn compile_object(c_path: &Path, out: &Path, opts: &Options, extra_flags: &[&str]) -> Result<(), String> {
    let mut cmd = cc_command(opts, extra_flags);
    cmd.arg("-c").arg(c_path).arg("-o").arg(out);
    run_cc(cmd, opts)
}

/// The C compiler (`opts.cc`, else `$CC`, else `cc`).
pub fn cc(opts: &Options) -> String {
    opts.cc.clone().or_else(|| std::env::var("CC").ok()).unwrap_or_else(|| "cc".to_string())
}

/// Every flag the C compiler gets: ours ([`cflags`]), `extra_flags`, then
/// the user's `$CFLAGS`, which come last and so override ours (`CFLAGS=-O3
/// ogham test` optimises the test executables that are otherwise built
/// with -O0).
pub fn compile_flags(opts: &Options, extra_flags: &[&str]) -> Vec<String> {
    let mut flags: Vec<String> =
        cflags(opts).into_iter().chain(extra_flags.iter().copied()).map(String::from).collect();
    if let Ok(user) = std::env::var("CFLAGS") {
        flags.extend(user.split_whitespace().map(String::from));
    }
    flags
}

/// The C compiler with its flags ([`compile_flags`]).
fn cc_command(opts: &Options, extra_flags: &[&str]) -> Command {
    let mut cmd = Command::new(cc(opts));
    cmd.args(compile_flags(opts, extra_flags));
    cmd
}

fn run_cc(mut cmd: Command, opts: &Options) -> Result<(), String> {
    let cc = cc(opts);
    let output = cmd.output().map_err(|e| format!("cannot run C compiler `{cc}`: {e}"))?;
    if !output.status.success() {
        return Err(format!("C compiler `{cc}` failed:\n{}", String::from_utf8_lossy(&output.stderr)));
    }
    Ok(())
}
