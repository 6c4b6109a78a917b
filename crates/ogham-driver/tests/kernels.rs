//! The kernels the C backend makes of real programs (the benchmarks and
//! `tests/vectorised`, on both backends) pass the kernel verifier after
//! every pass (the backend checks that), and their text form reads back
//! to the same kernel.

use std::path::Path;

use ogham_driver::pipeline::{compile_file, Stop};

#[test]
fn kernels_of_real_programs_read_back() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut programs = Vec::new();
    for dir in ["benchmarks", "tests/vectorised"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("cannot read {dir}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "fut"))
            .collect();
        files.sort();
        programs.extend(files);
    }
    let mut count = 0;
    for path in &programs {
        let compiled = compile_file(path, Stop::Ir).unwrap_or_else(|e| panic!("{}: {}", path.display(), e.rendered));
        for backend in [ogham_c::Backend::Sequential, ogham_c::Backend::Multicore] {
            let kernels = ogham_driver::native::kernels(&compiled.ir, backend)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for text in kernels {
                let k = ogham_imp::parse::parse_kernel(&text)
                    .unwrap_or_else(|e| panic!("{}: kernel does not read back: {e}\n{text}", path.display()));
                assert_eq!(ogham_imp::print::kernel(&k), text, "{}: kernel prints differently", path.display());
                ogham_imp::verify::kernel(&k).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                count += 1;
            }
        }
    }
    // The benchmarks alone make dozens of kernels (tiles, lanes, while lanes).
    assert!(count > 100, "only {count} kernels");
}

/// The maps of `tests/vectorised/nested.fut` whose functions reduce rows
/// (k-means' loop over centres, argmin, a dot product with an iota, rows
/// of rows) each become one kernel with the reduction as an inner loop,
/// rather than falling back to statement-by-statement code. (Not
/// `every_other`: its strided slice of a row needs a bounds check, which a
/// kernel cannot make yet, so only its reduction is a kernel; nor
/// `colsums`, which `layout` interchanges.)
#[test]
fn maps_over_rows_are_kernels() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectorised/nested.fut");
    let compiled = compile_file(&path, Stop::Ir).unwrap_or_else(|e| panic!("{}", e.rendered));
    let kernels = ogham_driver::native::kernels(&compiled.ir, ogham_c::Backend::Sequential).unwrap();
    // colsums' map of sums over the columns is interchanged instead (`layout`).
    // A loop that stores a result per iteration and runs a loop inside.
    fn nested(b: &ogham_imp::Block) -> bool {
        use ogham_imp::Stm;
        let has_loop = |b: &ogham_imp::Block| b.stms.iter().any(|s| matches!(s, Stm::For { .. } | Stm::If { .. }));
        b.stms.iter().any(|s| match s {
            Stm::For { body, .. } => {
                (body.stms.iter().any(|s| matches!(s, Stm::Store { .. })) && has_loop(body)) || nested(body)
            }
            Stm::If { then_block, else_block, .. } => nested(then_block) || nested(else_block),
            _ => false,
        })
    }
    let inner_loop = |k: &String| nested(&ogham_imp::parse::parse_kernel(k).unwrap().body);
    let nested = kernels.iter().filter(|k| inner_loop(k)).count();
    assert!(nested >= 4, "expected a kernel per entry with an inner loop, got {nested}:\n{}", kernels.join("\n"));
}

/// The loop of `benchmarks/histogram.fut` (`hist` of `x % k`) is a kernel
/// on both backends (on multicore, two: one called by the loop for a
/// single chunk and by each chunk's loop into its partial histogram, and
/// one whose tasks share the destination for a large histogram, with an
/// `atomic` update), in which the remainder by `k` goes through the
/// `divide` pass (a `mulhi` in the loop) and the input is prefetched. The
/// bins are never compared with the number of buckets (the parameter
/// `buckets_` appears only in the kernel's header): `x % k` is in range
/// whenever k > 0.
#[test]
fn histogram_is_a_kernel() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/histogram.fut");
    let compiled = compile_file(&path, Stop::Ir).unwrap_or_else(|e| panic!("{}", e.rendered));
    for (backend, expected, atomic) in [(ogham_c::Backend::Sequential, 1, 0), (ogham_c::Backend::Multicore, 2, 1)] {
        let kernels = ogham_driver::native::kernels(&compiled.ir, backend).unwrap();
        let hist =
            kernels.iter().filter(|k| k.contains("buckets_") && k.contains("mulhi.u64") && k.contains("prefetch"));
        assert_eq!(hist.clone().count(), expected, "{backend:?}: histogram kernels:\n{}", kernels.join("\n"));
        let shared = hist.clone().filter(|k| k.contains("atomic res_"));
        assert_eq!(shared.count(), atomic, "{backend:?}: atomic histogram kernels:\n{}", kernels.join("\n"));
        for k in hist {
            assert_eq!(k.matches("buckets_").count(), 1, "{backend:?}: a bin compared with the buckets:\n{k}");
        }
    }
}

/// The GMM gradient's adjoint of `μ_k` (`benchmarks/gmm.fut`): after
/// `accfuse`, each point's and component's row goes into the accumulator
/// element by element, in a `withacc` kernel whose update is a load, an
/// add and a store at an offset fixed before the loop plus the column; the
/// range test of the point's component index is made once before the
/// loop, and the loop has no branch left (`unswitch`) and no prefetch (its
/// stores are no scatter). On multicore the same kernel runs in every
/// task, on the task's partial accumulator.
#[test]
fn accumulator_rows_are_a_kernel() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/gmm.fut");
    let compiled = compile_file(&path, Stop::Ir).unwrap_or_else(|e| panic!("{}", e.rendered));
    for backend in [ogham_c::Backend::Sequential, ogham_c::Backend::Multicore] {
        let kernels = ogham_driver::native::kernels(&compiled.ir, backend).unwrap();
        let updates: Vec<&String> = kernels.iter().filter(|k| k.contains("acc_stride_")).collect();
        assert!(!updates.is_empty(), "{backend:?}: no accumulator kernel among:\n{}", kernels.join("\n"));
        for k in updates {
            assert!(!k.contains("prefetch"), "{backend:?}: accumulator rows are prefetched:\n{k}");
            // The unit-stride copy's first loop runs without a branch.
            let fast = k.split("for j_").nth(1).unwrap_or_default();
            let body = fast.split("\n    }").next().unwrap_or_default();
            assert!(!body.contains(" if "), "{backend:?}: a branch left in the loop:\n{k}");
        }
    }
}

/// The GMM gradient's adjoint of `Q_k` is no accumulator updated once per
/// point and component (`accreduce`): it is a matrix product over the
/// points per component, a tiled kernel (column panels packed, in blocks
/// of the points kept in the level-2 cache, partial tiles carried between
/// blocks), and nothing updates a `[K][d][d]` accumulator element by element.
#[test]
fn outer_products_become_tiled_products() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/gmm.fut");
    let compiled = compile_file(&path, Stop::Ir).unwrap_or_else(|e| panic!("{}", e.rendered));
    let ir = ogham_ir::print::program(&compiled.ir);
    let gradient = ir.split("entry gradient").nth(1).unwrap_or_default().split("\nentry ").next().unwrap_or_default();
    // (A chunk's sums are added whole, with a slice, once per chunk.)
    for line in gradient.lines().filter(|l| l.contains(") = updacc") && !l.contains(":+")) {
        let ty = line.split(": ").nth(1).and_then(|t| t.split(')').next()).unwrap_or_default();
        assert!(ty.matches('[').count() < 3, "an update of Q's adjoint, once per point and component:\n{line}");
    }
    for backend in [ogham_c::Backend::Sequential, ogham_c::Backend::Multicore] {
        let kernels = ogham_driver::native::kernels(&compiled.ir, backend).unwrap();
        let tiled = kernels.iter().filter(|k| k.contains("alloc pack_") && k.contains("alloc partial_"));
        assert!(tiled.count() >= 1, "{backend:?}: no tiled product among:\n{}", kernels.join("\n"));
    }
}

/// GMM's objective (`benchmarks/gmm.fut`): the tiles of points by rows of
/// Q_k read `x - μ` from a buffer filled once per block of points (not
/// computed per column tile), and, since the tiles that compute `x - μ`
/// themselves hold μ's element beside their accumulators, have five rows
/// where a 16-register target has room for six otherwise (six spilled an
/// accumulator). Portable code, so the target is the same on every machine:
/// SSE2's 16 registers of two f64, tiles of 5 by 4.
#[test]
fn prelude_rows_are_buffered_and_tiles_leave_room() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/gmm.fut");
    let compiled = compile_file(&path, Stop::Ir).unwrap_or_else(|e| panic!("{}", e.rendered));
    let ir = ogham_ir::verify::verify(&compiled.ir).unwrap_or_else(|e| panic!("{e:?}"));
    for backend in [ogham_c::Backend::Sequential, ogham_c::Backend::Multicore] {
        let opts = ogham_c::Options { backend, portable: true, ..Default::default() };
        let kernels = ogham_c::codegen::kernels(&ir, &opts).unwrap();
        let buffered: Vec<&String> = kernels.iter().filter(|k| k.contains("alloc pre_")).collect();
        assert!(!buffered.is_empty(), "{backend:?}: no buffered prelude among:\n{}", kernels.join("\n"));
        for k in buffered {
            assert!(k.contains("load pre_"), "{backend:?}: the buffer is never read:\n{k}");
            assert!(k.contains(": [20]f64"), "{backend:?}: no tile of 5 rows by 4 f64:\n{k}");
            assert!(!k.contains(": [24]f64"), "{backend:?}: a tile of 6 rows by 4 f64 with μ held:\n{k}");
            // The buffer is filled twice over: one loop for contiguous
            // points, whose loads index by the step itself, one for others.
            let fills = k.matches("store pre_").count();
            assert!(fills >= 2 && fills % 2 == 0, "{backend:?}: the fill is not versioned on unit stride:\n{k}");
        }
    }
}

/// k-means' objective (`benchmarks/kmeans_ad.fut`, 1024 centres: many
/// column tiles): the tiles of points by centres read the points from a
/// buffer laid out tile by tile (`rows_`, see `tile.rs`'s `fill_row_buffers`),
/// and fold a tile row into the point's running minimum only when a
/// comparison in vector lanes finds a distance that could replace it
/// (`Screen`).
#[test]
fn kmeans_rows_are_buffered_and_minima_screened() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/kmeans_ad.fut");
    let compiled = compile_file(&path, Stop::Ir).unwrap_or_else(|e| panic!("{}", e.rendered));
    let ir = ogham_ir::verify::verify(&compiled.ir).unwrap_or_else(|e| panic!("{e:?}"));
    for backend in [ogham_c::Backend::Sequential, ogham_c::Backend::Multicore] {
        let opts = ogham_c::Options { backend, portable: true, ..Default::default() };
        let kernels = ogham_c::codegen::kernels(&ir, &opts).unwrap();
        let buffered: Vec<&String> = kernels.iter().filter(|k| k.contains("alloc rows_")).collect();
        assert!(!buffered.is_empty(), "{backend:?}: no buffered rows among:\n{}", kernels.join("\n"));
        for k in &buffered {
            assert!(k.contains("load rows_"), "{backend:?}: the buffer is never read:\n{k}");
        }
        assert!(
            // The objective's kernel: its rows' minima summed into an `inout`
            // scalar (the gradient's argmin kernel has a screen too).
            buffered.iter().any(|k| k.contains("mut changes_") && k.contains(": inout f32")),
            "{backend:?}: no screened fold by min:\n{}",
            kernels.join("\n")
        );
    }
}

/// In the C of GMM's tiles (portable: tiles of 5 rows by 4 f64), the loop
/// that starts a tile's 20 accumulators at zero is unrolled completely
/// (`OG_UNROLL_FILL`), not left for GCC to make a `memset` of; the 8
/// lanes of a vectorised reduction are left alone.
#[test]
fn tile_fills_are_unrolled() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/gmm.fut");
    let compiled = compile_file(&path, Stop::Ir).unwrap_or_else(|e| panic!("{}", e.rendered));
    let ir = ogham_ir::verify::verify(&compiled.ir).unwrap_or_else(|e| panic!("{e:?}"));
    let opts = ogham_c::Options { portable: true, ..Default::default() };
    let c = ogham_c::generate(&ir, &opts).unwrap().c;
    let lines: Vec<&str> = c.lines().map(str::trim).collect();
    let marked: Vec<&str> = lines.windows(2).filter(|w| w[0] == "OG_UNROLL_FILL").map(|w| w[1]).collect();
    assert!(marked.iter().any(|l| l.contains("< ((int64_t)20LL)")), "no tile fill marked:\n{marked:?}");
    assert!(marked.iter().all(|l| !l.contains("< ((int64_t)8LL)")), "a fill of 8 lanes marked:\n{marked:?}");
}

/// k-means' centroid sums (`benchmarks/kmeans.fut`, `hist (map2 (+))` of
/// the points' rows into rows of buckets) are a kernel on both backends:
/// per point, an `ivdep` loop adding its row into its bucket's row, not
/// statement-by-statement code making views of both rows.
#[test]
fn row_histograms_are_kernels() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/kmeans.fut");
    let compiled = compile_file(&path, Stop::Ir).unwrap_or_else(|e| panic!("{}", e.rendered));
    for backend in [ogham_c::Backend::Sequential, ogham_c::Backend::Multicore] {
        let kernels = ogham_driver::native::kernels(&compiled.ir, backend).unwrap();
        let rows = kernels.iter().filter(|k| k.contains("buckets_") && k.contains("#[ivdep] for c_"));
        assert!(rows.count() >= 1, "{backend:?}: no row histogram kernel among:\n{}", kernels.join("\n"));
    }
}

/// k-means' nearest centre (`benchmarks/kmeans.fut`, an argmin loop over
/// 16 centres) is one kernel with tiles of two widths: four vectors of
/// centres by 4 points, and one vector by 8 points for fewer centres than
/// a wide tile (16 f32 on AVX-512), each packing its own columns; the loops
/// as written run only below a vector's worth of centres.
#[test]
fn few_columns_get_narrow_tiles() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/kmeans.fut");
    let compiled = compile_file(&path, Stop::Ir).unwrap_or_else(|e| panic!("{}", e.rendered));
    for backend in [ogham_c::Backend::Sequential, ogham_c::Backend::Multicore] {
        let kernels = ogham_driver::native::kernels(&compiled.ir, backend).unwrap();
        let both = kernels.iter().filter(|k| k.matches("alloc pack_").count() == 2 && k.matches("fits_").count() >= 4);
        assert!(both.count() >= 1, "{backend:?}: no kernel with wide and narrow tiles among:\n{}", kernels.join("\n"));
    }
}

/// The return sweep of `tests/vectorised/accumulated_rows.fut`'s `layers`
/// adds into four rows of one accumulator per iteration, each at the
/// loop's own column: its loops are `ivdep` (no iteration touches another's
/// elements), so that the C compiler vectorises them without testing the
/// rows for overlap. The adjoint of `gather` adds at indices read from an
/// array, and its loops stay unmarked.
#[test]
fn accumulated_rows_are_ivdep_and_gathers_are_not() {
    use ogham_imp::{Block, Stm};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectorised/accumulated_rows.fut");
    let compiled = compile_file(&path, Stop::Ir).unwrap_or_else(|e| panic!("{}", e.rendered));
    let kernels = ogham_driver::native::kernels(&compiled.ir, ogham_c::Backend::Sequential).unwrap();
    // The accumulator stores of a loop's body, outside nested loops.
    fn acc_stores(k: &ogham_imp::Kernel, b: &Block) -> usize {
        b.stms
            .iter()
            .map(|s| match s {
                Stm::Store { ptr, .. } => usize::from(k.name(*ptr).starts_with("acc")),
                Stm::If { then_block, else_block, .. } => acc_stores(k, then_block) + acc_stores(k, else_block),
                _ => 0,
            })
            .sum()
    }
    // Each loop's flag and its accumulator stores.
    fn loops(k: &ogham_imp::Kernel, b: &Block, out: &mut Vec<(bool, usize)>) {
        for s in &b.stms {
            match s {
                Stm::For { ivdep, body, .. } => {
                    out.push((*ivdep, acc_stores(k, body)));
                    loops(k, body, out);
                }
                Stm::If { then_block, else_block, .. } => {
                    loops(k, then_block, out);
                    loops(k, else_block, out);
                }
                _ => {}
            }
        }
    }
    let (mut rows, mut gathers) = (0, 0);
    for text in &kernels {
        let k = ogham_imp::parse::parse_kernel(text).unwrap();
        let mut found = Vec::new();
        loops(&k, &k.body, &mut found);
        for (ivdep, stores) in found {
            if stores >= 4 {
                assert!(ivdep, "a loop adding into rows of an accumulator is not ivdep:\n{text}");
                rows += 1;
            } else if stores == 1 && !ivdep {
                gathers += 1;
            }
        }
    }
    assert!(rows > 0, "no loop adds into four rows of an accumulator:\n{}", kernels.join("\n"));
    assert!(gathers > 0, "the gather's adjoint has no unmarked loop:\n{}", kernels.join("\n"));
}

/// The nearest centre of k-means' gradient (`benchmarks/kmeans_ad.fut`, an
/// argmin loop over the centres, tiled) folds a tile's distances into a
/// row's minimum and its index only when one of them is below the
/// minimum: a `changes` flag computed in vector lanes (`or` of the
/// comparisons) guards the sequential fold, on both backends, in the wide
/// and the narrow tiles (`tests/ad/nearest_centre_wide.fut` checks the
/// results, ties and NaNs across tiles included).
#[test]
fn settled_argmin_rows_skip_their_fold() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/kmeans_ad.fut");
    let compiled = compile_file(&path, Stop::Ir).unwrap_or_else(|e| panic!("{}", e.rendered));
    for backend in [ogham_c::Backend::Sequential, ogham_c::Backend::Multicore] {
        let kernels = ogham_driver::native::kernels(&compiled.ir, backend).unwrap();
        let screened = kernels
            .iter()
            .filter(|k| {
                let flags = k.matches("mut changes_").count();
                flags >= 2 && k.matches("accumulate logor.bool changes_").count() == flags
            })
            .count();
        assert!(screened >= 1, "{backend:?}: no kernel screening its argmin among:\n{}", kernels.join("\n"));
    }
}

/// GMM's objective (`benchmarks/gmm.fut`): a tile row's squares are summed
/// in vector lanes (`part_`, folded by the `lanes` pass) before they are
/// added to the row's sum, not added to it column by column, a chain of
/// dependent additions; k-means' `f32.minimum` keeps the column-by-column
/// fold, which GCC compiles better than lanes of NaN-ignoring minimums
/// (`tests/vectorised/tile_fold_lanes.fut` checks the results of both).
#[test]
fn tile_row_sums_fold_in_lanes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks");
    for (file, sums) in [("gmm.fut", true), ("kmeans_ad.fut", false)] {
        let compiled = compile_file(&dir.join(file), Stop::Ir).unwrap_or_else(|e| panic!("{}", e.rendered));
        for backend in [ogham_c::Backend::Sequential, ogham_c::Backend::Multicore] {
            let kernels = ogham_driver::native::kernels(&compiled.ir, backend).unwrap();
            let folded = kernels.iter().filter(|k| k.contains("mut part_") && k.contains("lanes_")).count();
            assert_eq!(folded >= 1, sums, "{file}, {backend:?}: row folds in lanes: {folded}");
        }
    }
}
