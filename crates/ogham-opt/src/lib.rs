//! The middle end: passes over the core IR, and the pass manager that runs them.
//!
//! A pass is data: a name, a line saying what it does, and a function from
//! a program to a program ([`Pass`]). Every pass takes verified IR and
//! returns verified IR with the same observable behaviour (the same results,
//! the same run-time errors for programs whose checks can fail, except that
//! a statement whose result nothing uses may be removed together with its
//! checks, as Futhark's dead-code elimination does). [`run`] runs a list of
//! passes and, when asked, the verifier after each one; a verifier failure
//! names the pass and carries the IR that failed, so the driver can write
//! it to a file.
//!
//! Every backend, the interpreter included, runs [`default_pipeline`]
//! between lowering and code generation or evaluation, so the reference
//! interpreter checks each pass against every test program. The passes:
//!
//! - [`inline`]: calls of small leaf functions are replaced by their bodies.
//! - [`simplify`]: constant folding (through `ogham-prim`, so it cannot
//!   disagree with the interpreter), copy propagation, algebraic identities.
//! - [`cse`]: common subexpressions, also from an outer body into nested
//!   ones (branches, loop bodies, lambdas).
//! - [`dce`]: statements whose results are unused, unused results of maps,
//!   `if`s and loops.
//! - [`fuse`]: producer `map`s merged into the SOACs that consume them.
//! - [`demand`]: scans read only at their last element become reductions;
//!   calls whose results are partly unused call a copy of the function
//!   that computes only the used ones; unneeded parameters are dropped.
//! - [`bounds`]: indexing whose indices are provably in bounds marked
//!   `#[unsafe]`, so no backend checks it.
//! - [`accfuse`]: inside a `withacc`, a map whose mapped result is only
//!   added into an accumulator adds each element into it directly.
//! - [`accreduce`]: an accumulator that a nest of `withacc`s updates
//!   with products at an index its outermost level does not vary is
//!   summed over that level by matrix products (seed 004 §5.1).
//! - [`lanes`]: a sequential loop that works lane by lane on narrow arrays
//!   (a recurrence over time of maps of width `b`) runs as a map over
//!   ranges of lanes, one per thread, each range running the whole loop
//!   (only for targets with more than one thread).
//! - [`argmin`]: a `min` or `max` reduction whose values are then searched
//!   for the first equal to its result (reverse mode's rule for them)
//!   becomes one sequential loop computing both.
//! - [`acchoist`]: inside a `withacc`, a loop or SOAC that reads rows but
//!   no accumulator, with scalar results or arrays no larger than the
//!   `withacc`'s own rows, runs in a `map` before it.
//! - [`copyelide`]: a copy of a row taken before the array's update in
//!   place (reverse mode's adjoint of an update) goes, the update moved
//!   after the copy's readers, which read the row itself.
//! - [`licm`]: statements of loops and lambdas that depend on nothing bound
//!   inside them moved out.
//!
//! Every pass also runs on the program's constants ([`on_consts`]), as on
//! a body whose results are the constants the functions use.
//!
//! This crate does no IO: the driver prints and writes what it returns.

pub mod accfuse;
pub mod acchoist;
pub mod accreduce;
pub mod ad;
pub mod argmin;
pub mod bounds;
pub mod copyelide;
pub mod cse;
pub mod dce;
pub mod demand;
pub mod fission;
pub mod fuse;
pub mod inline;
pub mod interchange;
pub mod lanes;
pub mod layout;
pub mod licm;
pub mod linhoist;
pub mod simplify;

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;

use ogham_ir::visit::{free_vars_body, substitute_type, substitute_uses, type_vars};
use ogham_ir::{Body, NameTable, Program, SubExp, Type, VName};

/// Runs `pass` on the program's constants as on a body whose results are
/// the constants some function uses, then puts them back: a constant the
/// pass replaced by another operand (a literal, after simplification, or
/// an equal constant) is replaced in the functions too, and constants no
/// function uses are the pass's to remove.
pub(crate) fn on_consts(prog: &mut Program, pass: impl FnOnce(&mut Body, &mut NameTable)) {
    if prog.consts.is_empty() {
        return;
    }
    let mut used: BTreeSet<VName> = BTreeSet::new();
    for f in &prog.funs {
        used.extend(free_vars_body(&f.body));
        used.extend(f.params.iter().flat_map(|p| type_vars(&p.ty)));
        used.extend(f.ret.iter().flat_map(type_vars));
    }
    let exported: Vec<VName> = prog.const_params().map(|p| p.name).filter(|v| used.contains(v)).collect();
    let mut body =
        Body { stms: std::mem::take(&mut prog.consts), result: exported.iter().map(|&v| v.into()).collect() };
    pass(&mut body, &mut prog.names);
    prog.consts = body.stms;
    let subst: HashMap<VName, SubExp> =
        exported.into_iter().zip(body.result).filter(|(v, r)| *r != SubExp::Var(*v)).collect();
    if subst.is_empty() {
        return;
    }
    let to = |v: VName| subst.get(&v).copied();
    let in_type = |t: &mut Type| substitute_type(t, &to);
    for f in &mut prog.funs {
        substitute_uses(&mut f.body, &to);
        f.params.iter_mut().for_each(|p| in_type(&mut p.ty));
        f.ret.iter_mut().for_each(in_type);
    }
}

/// One transformation of the core IR.
pub struct Pass {
    /// The name used on the command line (`ogham dev --passes`) and in verifier failures.
    pub name: &'static str,
    /// One line saying what the pass does (`ogham dev --list-passes`).
    pub summary: &'static str,
    /// Transforms the program, or rejects it: a construct the pass cannot
    /// transform (automatic differentiation of something not supported).
    pub run: fn(&mut Program, &Target) -> Result<(), Rejection>,
}

/// What the passes know of the machine the program will run on. Only
/// speed depends on it, never a result: the interpreter and every backend
/// compute the same values whatever it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The bytes of the arrays [`accreduce`] makes for one chunk of a
    /// nest's iterations, which one core computes and reads back: the
    /// second-level cache of a core measured best. GMM's gradient on AMD
    /// Zen 3 (512 KB of L2 per core): chunks of 512 KB ran it 1.15x as
    /// fast as 1 MB and 1.2x as fast as 256 KB. On a Xeon with 2 MB of L2
    /// per core, two threads each running chunks of their own, 2 MB ran
    /// it 1.1x as fast as 4 MB.
    pub chunk_bytes: i64,
    /// The threads that run the program's parallel loops (1 for the
    /// sequential backend): [`accreduce`] makes a multiple of this many
    /// chunks where there are enough iterations, so that the threads
    /// get as many each.
    pub threads: i64,
}

impl Default for Target {
    fn default() -> Target {
        Target::PORTABLE
    }
}

impl Target {
    /// The target when the machine is not known (`--portable`, the tests,
    /// `ogham dev`), so that the IR does not depend on the machine: chunks
    /// of 1 MB, one thread.
    pub const PORTABLE: Target = Target { chunk_bytes: 1 << 20, threads: 1 };

    /// This machine's, as `-march=native` compiles for it, for a program
    /// whose parallel loops run on `threads` cores (1 for the sequential
    /// backend): chunks of the second-level cache of its first core
    /// (Linux's `sysfs`), between 256 KB and 16 MB, or of 1 MB where the
    /// cache is not known.
    pub fn host(threads: usize) -> Target {
        let threads = i64::try_from(threads.max(1)).unwrap_or(i64::MAX);
        let chunk_bytes = l2_bytes().map_or(Target::PORTABLE.chunk_bytes, |l2| l2.clamp(1 << 18, 1 << 24));
        Target { chunk_bytes, threads }
    }
}

/// The size of the first core's second-level data (or unified) cache, as
/// Linux describes it in `/sys/devices/system/cpu/cpu0/cache/index*/`.
fn l2_bytes() -> Option<i64> {
    let dir = std::path::Path::new("/sys/devices/system/cpu/cpu0/cache");
    for i in 0..8 {
        let read = |f: &str| std::fs::read_to_string(dir.join(format!("index{i}/{f}"))).ok();
        let (Some(level), Some(kind), Some(size)) = (read("level"), read("type"), read("size")) else { continue };
        if level.trim() != "2" || kind.trim() == "Instruction" {
            continue;
        }
        return cache_size(&size);
    }
    None
}

/// A cache size as `sysfs` writes it: `2048K`, `1M`, or bytes.
fn cache_size(text: &str) -> Option<i64> {
    let text = text.trim();
    let (digits, scale) = match text.as_bytes().last()? {
        b'K' => (&text[..text.len() - 1], 1 << 10),
        b'M' => (&text[..text.len() - 1], 1 << 20),
        _ => (text, 1),
    };
    digits.parse::<i64>().ok().filter(|n| *n > 0).and_then(|n| n.checked_mul(scale))
}

#[cfg(test)]
mod target_tests {
    use super::{cache_size, Target};

    #[test]
    fn cache_sizes_parse_as_sysfs_writes_them() {
        assert_eq!(cache_size("2048K\n"), Some(2 << 20));
        assert_eq!(cache_size("512K"), Some(512 << 10));
        assert_eq!(cache_size("1M"), Some(1 << 20));
        assert_eq!(cache_size("65536"), Some(65536));
        assert_eq!(cache_size(""), None);
        assert_eq!(cache_size("0K"), None);
        assert_eq!(cache_size("lots"), None);
    }

    #[test]
    fn the_host_chunk_stays_in_bounds() {
        for threads in [0, 1, 2, 64, usize::MAX] {
            let t = Target::host(threads);
            assert!((1 << 18..=1 << 24).contains(&t.chunk_bytes), "{t:?}");
            assert!(t.threads >= 1, "{t:?}");
        }
        assert_eq!(Target::host(1).chunk_bytes, Target::host(2).chunk_bytes);
        assert_eq!(Target::default(), Target::PORTABLE);
    }
}

/// A pass's refusal of a program: what it cannot do, and where.
#[derive(Clone, Debug)]
pub struct Rejection {
    /// The stable name of the error (`docs/errors.md`).
    pub name: &'static str,
    pub span: ogham_ir::Span,
    pub message: String,
}

impl std::fmt::Debug for Pass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// Every pass, by name.
pub const PASSES: &[Pass] = &[
    Pass {
        name: "ad",
        summary: "automatic differentiation: replace every jvp by the statements computing values and tangents",
        run: |p, _| ad::ad_program(p),
    },
    Pass {
        name: "inline",
        summary: "replace calls of small leaf functions by their bodies",
        run: |p, _| {
            inline::inline_program(p);
            Ok(())
        },
    },
    Pass {
        name: "simplify",
        summary: "fold constants, propagate copies, apply algebraic identities",
        run: |p, _| {
            simplify::simplify_program(p);
            Ok(())
        },
    },
    Pass {
        name: "lanes",
        summary: "a sequential loop that works lane by lane on narrow arrays runs as a map over ranges of lanes, one per thread, each running the whole loop",
        run: |p, target| {
            lanes::lanes_program(p, target);
            Ok(())
        },
    },
    Pass {
        name: "interchange",
        summary: "a map over points whose every iteration maps (and reduces) over per-component matrices runs the component map outside",
        run: |p, _| {
            interchange::interchange_program(p);
            Ok(())
        },
    },
    Pass { name: "cse", summary: "reuse the value of an identical earlier expression", run: |p, _| {
            cse::cse_program(p);
            Ok(())
        } },
    Pass { name: "dce", summary: "remove statements and map results that nothing uses", run: |p, _| {
            dce::dce_program(p);
            Ok(())
        } },
    Pass {
        name: "fission",
        summary: "split each map into one map per statement (seed 000's A_iNF form), for CSE, LICM and DCE across loops",
        run: |p, _| {
            fission::fission_program(p);
            Ok(())
        },
    },
    Pass { name: "fuse", summary: "merge producer maps into the SOACs that consume them", run: |p, _| {
            fuse::fuse_program(p);
            Ok(())
        } },
    Pass {
        name: "demand",
        summary: "compute only what uses demand: a scan read only at its last element becomes a reduce, a call whose results are partly used calls a copy computing only those",
        run: |p, _| {
            demand::demand_program(p);
            Ok(())
        },
    },
    Pass {
        name: "accfuse",
        summary: "inside a withacc, a map whose result is only added into an accumulator adds each element into it directly; an array built from zeros by additions and added whole into another adds its parts directly",
        run: |p, _| {
            accfuse::accfuse_program(p);
            Ok(())
        },
    },
    Pass {
        name: "mapinto",
        summary: "a map whose result is only written, in bounds, into a row of an array nothing else in its scope uses writes each element there directly",
        run: |p, _| {
            accfuse::mapinto_program(p);
            Ok(())
        },
    },
    Pass {
        name: "accreduce",
        summary: "an accumulator updated with products at an index the outermost withacc does not vary is summed by matrix products instead (seed 004 §5.1)",
        run: |p, target| {
            accreduce::accreduce_program(p, target);
            Ok(())
        },
    },
    Pass {
        name: "linhoist",
        summary: "an accumulator every point adds a linear function of its own value into gets the function of the values' sum once",
        run: |p, _| {
            linhoist::linhoist_program(p);
            Ok(())
        },
    },
    Pass {
        name: "acchoist",
        summary: "inside a withacc, a loop or SOAC that reads rows but no accumulator (results no larger than the withacc's rows) runs in a map before it",
        run: |p, _| {
            acchoist::acchoist_program(p);
            Ok(())
        },
    },
    Pass {
        name: "argmin",
        summary: "a min or max reduction whose values are searched for the first equal to it (reverse mode's rule) becomes one loop computing both",
        run: |p, _| {
            argmin::argmin_program(p);
            Ok(())
        },
    },
    Pass {
        name: "bounds",
        summary: "mark indexing whose indices are provably in bounds as unchecked (#[unsafe])",
        run: |p, _| {
            bounds::bounds_program(p);
            Ok(())
        },
    },
    Pass {
        name: "copyelide",
        summary: "a copy of a row taken before the array is updated in place goes, the update moved after the copy's readers",
        run: |p, _| {
            copyelide::copyelide_program(p);
            Ok(())
        },
    },
    Pass {
        name: "layout",
        summary: "mark the arrays the backends never build (#[virtual]) and the map-of-reduce nests they run interchanged (#[interchange])",
        run: |p, _| {
            layout::layout_program(p);
            Ok(())
        },
    },
    Pass {
        name: "licm",
        summary: "move statements that depend on nothing bound in a loop or lambda out of it",
        run: |p, _| {
            licm::licm_program(p);
            Ok(())
        },
    },
];

/// The pass of the given name.
pub fn pass(name: &str) -> Option<&'static Pass> {
    PASSES.iter().find(|p| p.name == name)
}

/// The names of the passes every backend runs, in order.
pub const DEFAULT_PIPELINE: &[&str] = &[
    "cse",
    "inline",
    "simplify",
    "bounds",
    "lanes",
    "bounds",
    "ad",
    "interchange",
    "fission",
    "licm",
    "cse",
    "dce",
    "fuse",
    "licm",
    "fuse",
    "demand",
    "inline",
    "simplify",
    "cse",
    "dce",
    "fuse",
    "accfuse",
    "accreduce",
    "linhoist",
    "argmin",
    "acchoist",
    "interchange",
    "cse",
    "dce",
    "simplify",
    "fuse",
    "copyelide",
    "bounds",
    "lanes",
    "bounds",
    "mapinto",
    "simplify",
    "dce",
    "layout",
];

/// The passes every backend runs, in order.
pub fn default_pipeline() -> Vec<&'static Pass> {
    DEFAULT_PIPELINE.iter().map(|n| pass(n).expect("the default pipeline names known passes")).collect()
}

/// Parses a comma-separated list of pass names (`none` or an empty list
/// is no pass, `default` the default pipeline).
pub fn parse_pipeline(list: &str) -> Result<Vec<&'static Pass>, String> {
    let mut out = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty() && *n != "none") {
        if name == "default" {
            out.extend(default_pipeline());
            continue;
        }
        match pass(name) {
            Some(p) => out.push(p),
            None => {
                let known: Vec<&str> = PASSES.iter().map(|p| p.name).collect();
                return Err(format!("unknown pass `{name}` (the passes are: {}, and `default`)", known.join(", ")));
            }
        }
    }
    Ok(out)
}

/// Why the passes stopped.
#[derive(Clone, Debug)]
pub enum PassFailure {
    /// A pass rejected the program (a user error, or a construct not
    /// supported yet).
    Rejected(Rejection),
    /// The verifier rejected the output of a pass (an internal error).
    Invalid {
        pass: String,
        /// The verifier's errors, formatted.
        message: String,
        /// The printed IR that failed verification.
        ir: String,
    },
}

impl PassFailure {
    /// The failure as one message (for tests).
    pub fn message(&self) -> String {
        match self {
            PassFailure::Rejected(r) => format!("{}: {}", r.name, r.message),
            PassFailure::Invalid { message, ir, .. } => format!("{message}\n{ir}"),
        }
    }
}

/// Runs `passes` in order on `prog`, for `target`. With `verify`, the
/// verifier checks the input and the output of every pass; the first
/// failure stops the run. `after` sees the program after each pass (for
/// `ogham dev --print-after`).
pub fn run(
    prog: &mut Program,
    passes: &[&Pass],
    target: &Target,
    verify: bool,
    mut after: impl FnMut(&Pass, &Program),
) -> Result<(), PassFailure> {
    let check = |name: &str, prog: &Program| -> Result<(), PassFailure> {
        if !verify {
            return Ok(());
        }
        ogham_ir::verify::verify_after(name, prog).map_err(|message| PassFailure::Invalid {
            pass: name.to_string(),
            message,
            ir: ogham_ir::print::program(prog),
        })
    };
    for p in passes {
        (p.run)(prog, target).map_err(PassFailure::Rejected)?;
        check(p.name, prog)?;
        after(p, prog);
    }
    Ok(())
}
