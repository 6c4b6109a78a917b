#!/usr/bin/env python3
"""Runs the benchmark suite: ogham sequential (`c`), ogham multicore, the
hand-written C references (sequential and OpenMP builds) and the OpenBLAS
references, and prints tables of times and ratios.

    python3 benchmarks/run.py [options] [BENCHMARK ...]

Steps: generate missing data files (gen.py); build ogham (`cargo build
--release -p ogham`); build the C references (refs.py); compile every
benchmark with `ogham bench --backend c` and `--backend multicore` (one
run each: this checks that it compiles and runs, and gives the compile
times), keeping the executables in build/. Then, one benchmark, entry point
and data set at a time (an AD benchmark's objective and gradient together,
so that its AD overhead is a ratio of times taken in the same rounds too),
time every program on it in turn, in --rounds rounds: ogham sequential,
ogham multicore, the reference's sequential and OpenMP builds
(OMP_NUM_THREADS, default 2), and where the benchmark has one the OpenBLAS
reference (matmul, the k-means objective of kmeans_ad) on one thread and
on OMP_NUM_THREADS threads, with OpenBLAS's kernels for the
CPU's vector instructions (OPENBLAS_CORETYPE, unless set: OpenBLAS may not
recognise a new CPU by its model and fall back to SSE3). Each is run as
`PROG -e ENTRY -t FILE -r N -n < DATA`; the first of its N + 1 runs is a
warm-up, not counted. Taking turns, the programs compared in a ratio are
timed under the same conditions: run apart, minutes apart, the ratios of a
noisy machine had drifted by a third (GMM's two-thread gradient took 102
ms in whole-table runs and 76-82 ms alone). Then print the main table
(ogham c / C reference, ogham multicore / OpenMP reference), the table
against OpenBLAS, and for the AD benchmarks the AD overhead: gradient time
/ objective time on the same data set.

Both sides time only the computation: ogham executables report per-run
microseconds through `-t`, the references time their own kernel, so reading
the data file is excluded on both sides.

Options:
  --runs N         timed runs per dataset and program, shared out among the rounds (default 10)
  --rounds R       rounds of turns per dataset (default 3)
  --no-build       use the existing target/release/ogham
  --only-refs      run only the C references (no ogham)
  --backends LIST  comma-separated ogham backends (default c,multicore)
  --ogham PATH     the ogham binary (default target/release/ogham)
The compile time is what `ogham bench -v` reports, without the C
compiler: the front end's smallest time over the backends run (the same
work each time) plus the largest backend's C generation.
Results are also written to benchmarks/build/{ogham-c,ogham-multicore,ref,ref-omp,
ref-blas,ref-blas-omp}.json in Futhark's JSON schema.
"""

import json
import math
import re
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

import gen
import refs

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.join(HERE, "build")
MIN_TIME_US = 500_000  # as ogham bench: at least the runs and at least 0.5 s

T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def stats(xs):
    """(mean, half width of the 95% confidence interval), as ogham bench computes them."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    df = n - 1
    t = T975[df - 1] if df <= 30 else 2.021 if df <= 40 else 2.0 if df <= 60 else 1.98 if df <= 120 else 1.96
    return m, t * sd / math.sqrt(n)


# Benchmarks with several entry points (each run on every data set), in
# the order of their `-- ==` blocks; the others have `main` only.
ENTRIES = {
    "gmm": ["objective", "gradient"],
    "lstm": ["objective", "gradient"],
    "kmeans_ad": ["objective", "gradient"],
}

# The AD overhead table: benchmark -> (objective entry, gradient entry).
OVERHEAD = {b: ("objective", "gradient") for b in ENTRIES}


def entries(bench):
    return ENTRIES.get(bench, ["main"])


def label(bench, entry):
    return bench if entry == "main" else "%s:%s" % (bench, entry)


def keys(bench):
    """(bench, entry, dataset name) of every measurement of a benchmark."""
    return [(bench, e, dataset_name(f)) for e in entries(bench) for f, _ in gen.DATASETS[bench]]


def turns(bench):
    """The measurements of a benchmark timed in the same rounds, taking
    turns: each on its own, but an AD benchmark's objective and gradient
    on one data set together, so that the two sides of its AD overhead see
    the same machine (timed one after the other, minutes apart, GMM's
    sequential overhead on a noisy machine read 2.7 in one run and 3.4 in
    the next)."""
    if bench not in OVERHEAD:
        return [[k] for k in keys(bench)]
    return [[(bench, e, dataset_name(f)) for e in OVERHEAD[bench]] for f, _ in gen.DATASETS[bench]]


def prog_path(bench):
    return os.path.join(HERE, bench + ".fut")


def dataset_name(fname):
    return "data/" + fname


def openblas_core():
    """The OpenBLAS kernels for this CPU's vector instructions (x86-64,
    from /proc/cpuinfo): SkylakeX for AVX-512, Haswell for AVX2 with FMA;
    None elsewhere (OpenBLAS's own detection then stands)."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((l.split(":", 1)[1].split() for l in f if l.startswith("flags")), [])
    except OSError:
        return None
    if "avx512f" in flags and "avx512bw" in flags and "avx512vl" in flags:
        return "SkylakeX"
    if "avx2" in flags and "fma" in flags:
        return "Haswell"
    return None


def reference_env(omp=False, blas=False):
    """The environment of a reference run: OMP_NUM_THREADS threads (2
    unless set) for OpenMP builds, and for the BLAS references one thread
    in the sequential build (blas.h also asks for it) and OpenBLAS's
    kernels for this CPU, which it may not recognise by its model: Debian's
    0.3.21 took a Xeon with AVX-512 for a Prescott and ran the 1024 product
    with SSE3 in 80-100 ms, in 18.7 with its SkylakeX kernels."""
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "2")
    if blas:
        if not omp:
            env["OPENBLAS_NUM_THREADS"] = "1"
        if "OPENBLAS_CORETYPE" not in env and openblas_core():
            env["OPENBLAS_CORETYPE"] = openblas_core()
    return env


def time_program(path, entry, fname, runs, env):
    """Runtimes (µs) of `runs` runs of the executable `path` on one data
    file, after one warm-up run not counted, or an error string."""
    with tempfile.NamedTemporaryFile(suffix=".timing", delete=False) as tf:
        tpath = tf.name
    try:
        with open(os.path.join(gen.DATA, fname), "rb") as data:
            res = subprocess.run([path, "-e", entry, "-t", tpath, "-r", str(runs + 1), "-n"],
                                 stdin=data, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        if res.returncode != 0:
            return "%s failed: %s" % (os.path.basename(path), res.stderr.decode(errors="replace").strip())
        with open(tpath) as f:
            times = [int(l) for l in f if l.strip()]
    finally:
        os.unlink(tpath)
    return times[1:] if len(times) > 1 else times


def ogham_exe(backend, bench):
    return os.path.join(BUILD, "ogham-%s-%s" % (backend, bench))


COMPILED = re.compile(r"^Compiled (.*\.fut): front end ([0-9.]+) ms(?:, C generation ([0-9.]+) ms)?")


def run_ogham_bench(ogham, backend, benches, runs, compile_times):
    """{(bench, entry, dataset name): runtimes or error string} from `ogham
    bench --json`; fills compile_times[bench] with the ms from source to C,
    parsed from `-v`."""
    jpath = os.path.join(BUILD, "ogham-%s-check.json" % backend)
    if os.path.exists(jpath):
        os.unlink(jpath)
    progs = [prog_path(b) for b in benches]
    cmd = [ogham, "bench", "-v", "--backend", backend, "-r", str(runs), "--no-convergence-phase", "--json", jpath]
    cmd += progs
    print("$ " + " ".join(shlex.quote(c) for c in cmd), file=sys.stderr, flush=True)
    proc = subprocess.Popen(cmd, stdout=sys.stderr, stderr=subprocess.PIPE, text=True)
    for line in proc.stderr:
        sys.stderr.write(line)
        m = COMPILED.match(line)
        if m:
            bench = os.path.splitext(os.path.basename(m.group(1)))[0]
            # The front end is the same work for every backend: its
            # smallest time, the least disturbed by other work on the
            # machine; C generation differs: the largest backend's.
            front, cgen = float(m.group(2)), m.group(3)
            old_front, old_cgen = compile_times.get(bench, (front, None))
            front = min(front, old_front)
            if cgen is not None or old_cgen is not None:
                cgen = max(float(cgen or 0), float(old_cgen or 0))
            compile_times[bench] = (front, cgen)
    proc.wait()
    res = proc
    # `ogham bench` leaves each executable beside its program, where the
    # next backend's overwrites it.
    for b in benches:
        exe = os.path.join(HERE, b)
        if os.path.exists(exe):
            shutil.copy2(exe, ogham_exe(backend, b))
    results = {}
    if not os.path.exists(jpath):
        for b in benches:
            for key in keys(b):
                results[key] = "ogham bench failed (exit %d)" % res.returncode
        return results
    with open(jpath) as f:
        doc = json.load(f)
    # Keys are "path" for main and "path:entry" for the other entry points.
    by_prog = {}
    for k, v in doc.items():
        path, entry = k, "main"
        if not os.path.exists(k) and ":" in k:
            path, entry = k.rsplit(":", 1)
        by_prog[(os.path.abspath(path), entry)] = v
    for b in benches:
        for key in keys(b):
            _, entry, name = key
            prog = by_prog.get((prog_path(b), entry))
            if prog is None or name not in prog.get("datasets", {}):
                results[key] = "no result"
            else:
                r = prog["datasets"][name]
                results[key] = r if isinstance(r, str) else r["runtimes"]
    return results


def write_json(path, results, benches):
    doc = {}
    for b in benches:
        for entry in entries(b):
            sets = {}
            for fname, _ in gen.DATASETS[b]:
                r = results.get((b, entry, dataset_name(fname)))
                if r is not None:
                    sets[dataset_name(fname)] = r if isinstance(r, str) else {"runtimes": r, "bytes": {}}
            if sets:
                key = os.path.relpath(prog_path(b), ROOT) + ("" if entry == "main" else ":" + entry)
                doc[key] = {"datasets": sets}
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)


def fmt_ms(r):
    if r is None:
        return "-"
    if isinstance(r, str):
        return "error"
    m, half = stats(r)
    return "%.2f ±%.1f%%" % (m / 1000, 100 * half / m if m else 0)


def ratio(a, b):
    if not isinstance(a, list) or not isinstance(b, list):
        return "-"
    return "%.2f" % (stats(a)[0] / stats(b)[0])


def print_table(header, rows):
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = lambda r: "  ".join(str(x).ljust(w) if j < 2 else str(x).rjust(w) for j, (x, w) in enumerate(zip(r, widths)))
    print(line(header))
    print(line(["-" * w for w in widths]))
    for r in rows:
        print(line(r))


def main(argv):
    runs, rounds, build, only_refs, backends = 10, 3, True, False, ["c", "multicore"]
    ogham = os.path.join(ROOT, "target", "release", "ogham")
    names = []
    it = iter(argv)
    for a in it:
        if a == "--runs":
            runs = int(next(it))
        elif a == "--rounds":
            rounds = max(1, int(next(it)))
        elif a == "--no-build":
            build = False
        elif a == "--only-refs":
            only_refs = True
        elif a == "--backends":
            backends = [b for b in next(it).split(",") if b]
        elif a == "--ogham":
            ogham = next(it)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("-"):
            print("unknown option %s" % a, file=sys.stderr)
            return 2
        else:
            names.append(a)
    benches = names or list(gen.DATASETS)
    unknown = [b for b in benches if b not in gen.DATASETS]
    if unknown:
        print("unknown benchmark: %s (known: %s)" % (", ".join(unknown), ", ".join(gen.DATASETS)), file=sys.stderr)
        return 2
    if only_refs:
        backends = []

    gen.generate(benches)
    os.makedirs(BUILD, exist_ok=True)
    refs.build(benches)
    if backends and build:
        subprocess.run(["cargo", "build", "--release", "-p", "ogham"], cwd=ROOT, check=True)

    compile_times = {}
    checked = {}
    for backend in backends:
        for b in benches:
            exe = ogham_exe(backend, b)
            if os.path.exists(exe):
                os.unlink(exe)
        checked[backend] = run_ogham_bench(ogham, backend, benches, 1, compile_times)

    with_blas = [b for b in benches if b in refs.BLAS_OF]
    if with_blas and not refs.have_blas():
        print("OpenBLAS not found: no comparison with OpenBLAS (Debian: apt-get install libopenblas-dev)",
              file=sys.stderr, flush=True)
        with_blas = []
    ogham_results = {backend: {} for backend in backends}
    ref_results, omp_results = {}, {}
    blas_results, blas_omp_results = {}, {}
    for b in benches:
        for group in turns(b):
            # (key, results, executable, environment) of every program timed
            # on this data set, for every entry point of the group.
            programs = []
            for key in group:
                _, entry, _ = key
                for backend in backends:
                    failed = checked[backend].get(key)
                    if isinstance(failed, str) or not os.path.exists(ogham_exe(backend, b)):
                        ogham_results[backend][key] = failed if isinstance(failed, str) else "no executable"
                    else:
                        programs.append((key, ogham_results[backend], ogham_exe(backend, b), dict(os.environ)))
                programs.append((key, ref_results, refs.exe(b), reference_env()))
                if refs.has_openmp(b):
                    programs.append((key, omp_results, refs.exe(b, True), reference_env(omp=True)))
                if b in with_blas and refs.BLAS_OF[b][1] == entry:
                    blas = refs.BLAS_OF[b][0]
                    programs.append((key, blas_results, refs.exe(blas), reference_env(blas=True)))
                    programs.append(
                        (key, blas_omp_results, refs.exe(blas, True), reference_env(omp=True, blas=True)))
            fname = group[0][2][len("data/"):]
            print("timing %s %s: %d programs, %d rounds" % (" and ".join(label(b, k[1]) for k in group), fname,
                                                            len(programs), rounds), file=sys.stderr, flush=True)
            for r in range(rounds):
                for key, results, exe, env in programs:
                    _, entry, _ = key
                    so_far = results.get(key, [])
                    if isinstance(so_far, str):
                        continue
                    # `runs` runs shared out among the rounds, and more where
                    # needed for MIN_TIME_US over all rounds.
                    n = max(1, math.ceil(runs / rounds))
                    if so_far:
                        left = max(0.0, MIN_TIME_US - sum(so_far))
                        per_run = max(1.0, sum(so_far) / len(so_far))
                        n = max(n, min(100000, math.ceil(left / per_run / (rounds - r))))
                    t = time_program(exe, entry, fname, n, env)
                    results[key] = t if isinstance(t, str) else so_far + t
    for backend in backends:
        write_json(os.path.join(BUILD, "ogham-%s.json" % backend), ogham_results[backend], benches)
    write_json(os.path.join(BUILD, "ref.json"), ref_results, benches)
    write_json(os.path.join(BUILD, "ref-omp.json"), omp_results, benches)
    write_json(os.path.join(BUILD, "ref-blas.json"), blas_results, benches)
    write_json(os.path.join(BUILD, "ref-blas-omp.json"), blas_omp_results, benches)
    threads = os.environ.get("OMP_NUM_THREADS", "2")

    header = ["benchmark", "dataset", "ogham c (ms)", "ogham mc (ms)", "C ref (ms)", "C omp (ms)",
              "c/ref", "mc/omp", "mc/c", "compile (ms)"]
    rows = []
    errors = []
    results = {}
    for b in benches:
        first = True
        for key in keys(b):
            _, entry, name = key
            c = ogham_results.get("c", {}).get(key)
            mc = ogham_results.get("multicore", {}).get(key)
            ref = ref_results[key]
            omp = omp_results.get(key)
            results[key] = (c, mc, ref, omp)
            for lbl, r in (("ogham c", c), ("ogham multicore", mc), ("C reference", ref), ("C OpenMP", omp),
                           ("OpenBLAS", blas_results.get(key)), ("OpenBLAS OpenMP", blas_omp_results.get(key))):
                if isinstance(r, str):
                    errors.append("%s %s, %s: %s" % (label(b, entry), name[5:], lbl,
                                                     r.strip().splitlines()[0] if r.strip() else r))
            ct = ""
            if first and b in compile_times:
                front, cgen = compile_times[b]
                ct = "%.1f%s" % (front + (cgen or 0), "" if cgen is not None else "*")
            first = False
            rows.append([label(b, entry), name[5:-3], fmt_ms(c), fmt_ms(mc), fmt_ms(ref), fmt_ms(omp),
                         ratio(c, ref), ratio(mc, omp), ratio(mc, c), ct])
    print_table(header, rows)
    print()
    print("Times: mean of %d+ timed runs in %d rounds taking turns, ± half the 95%% confidence interval."
          % (max(runs, rounds), rounds))
    print("c/ref: ogham sequential over the C reference (below 1: ogham is faster).")
    print("mc/omp: ogham multicore over the C reference's OpenMP build (%s threads)." % threads)
    print("mc/c: ogham multicore over ogham sequential (below 1: parallel speed-up).")
    print("compile: source to generated C, before the C compiler (* = front end only).")

    blas_rows = []
    for key in (k for b in with_blas for k in keys(b)):
        if key not in blas_results:
            continue
        c, mc, ref, omp = results[key]
        bl, blo = blas_results[key], blas_omp_results[key]
        blas_rows.append([label(key[0], key[1]), key[2][5:-3], fmt_ms(bl), fmt_ms(blo), ratio(c, bl), ratio(mc, blo),
                          ratio(ref, bl), ratio(omp, blo)])
    if blas_rows:
        print()
        print("Against OpenBLAS (one cblas_sgemm; for kmeans_ad the objective as ‖p‖² - 2p·c + ‖c‖², the dot")
        print("products from one cblas_sgemm): BLAS 1t on one thread, BLAS %st on %s threads." % (threads, threads))
        print_table(["benchmark", "dataset", "BLAS 1t (ms)", "BLAS %st (ms)" % threads, "c/blas1",
                     "mc/blas%s" % threads, "ref/blas1", "omp/blas%s" % threads], blas_rows)
        print("c/blas1, mc/blas%s: ogham sequential over OpenBLAS on one thread, ogham multicore over OpenBLAS on"
              % threads)
        print("%s threads; ref/blas1, omp/blas%s: the same for the C reference's builds." % (threads, threads))

    over = []
    for b in benches:
        if b not in OVERHEAD:
            continue
        obj, grad = OVERHEAD[b]
        for fname, _ in gen.DATASETS[b]:
            o = results[(b, obj, dataset_name(fname))]
            g = results[(b, grad, dataset_name(fname))]
            cells = [ratio(g[i], o[i]) for i in range(4)]
            over.append([b, fname[:-3]] + cells + [ratio(g[0], g[2]), ratio(g[1], g[3])])
    if over:
        print()
        print("AD overhead: gradient time / objective time, on the same data set.")
        print_table(["benchmark", "dataset", "ogham c", "ogham mc", "C ref", "C omp", "grad c/ref", "grad mc/omp"],
                    over)
    for e in errors:
        print("error: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
