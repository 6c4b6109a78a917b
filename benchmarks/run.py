#!/usr/bin/env python3
"""Runs the benchmark suite: ogham sequential (`c`), ogham multicore and the
hand-written C references, and prints a table of times and ratios.

    python3 benchmarks/run.py [options] [BENCHMARK ...]

Steps: generate missing data files (gen.py); build ogham (`cargo build
--release -p ogham`); build the C references (refs.py); run `ogham bench --backend c` and `--backend
multicore` (fixed runs, no convergence phase); run each reference with
`-r N -t FILE` on the same data files; print the table.

Both sides time only the computation: ogham executables report per-run
microseconds through `-t`, the references time their own kernel, so reading
the data file is excluded on both sides.

Options:
  --runs N         timed runs per dataset and program (default 10)
  --no-build       use the existing target/release/ogham
  --only-refs      run only the C references (no ogham)
  --backends LIST  comma-separated ogham backends (default c,multicore)
  --ogham PATH     the ogham binary (default target/release/ogham)
The compile time is what `ogham bench -v` reports for the first backend
run: front end plus C generation, without the C compiler.
Results are also written to benchmarks/build/{ogham-c,ogham-multicore,ref}.json
in Futhark's JSON schema.
"""

import json
import math
import re
import os
import shlex
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


def prog_path(bench):
    return os.path.join(HERE, bench + ".fut")


def dataset_name(fname):
    return "data/" + fname


def run_reference(bench, fname, runs):
    """Runtimes (µs) of the C reference on one data file, or an error string."""
    times = []
    with tempfile.NamedTemporaryFile(suffix=".timing", delete=False) as tf:
        tpath = tf.name
    try:
        while len(times) < runs or sum(times) < MIN_TIME_US:
            if len(times) < runs:
                n = runs
            else:
                n = max(1, min(100000, math.ceil((MIN_TIME_US - sum(times)) / max(1.0, sum(times) / len(times)))))
            with open(os.path.join(gen.DATA, fname), "rb") as data:
                res = subprocess.run([refs.exe(bench), "-t", tpath, "-r", str(n), "-n"], stdin=data,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if res.returncode != 0:
                return "reference failed: " + res.stderr.decode(errors="replace").strip()
            with open(tpath) as f:
                times.extend(int(l) for l in f if l.strip())
    finally:
        os.unlink(tpath)
    return times


COMPILED = re.compile(r"^Compiled (.*\.fut): front end ([0-9.]+) ms(?:, C generation ([0-9.]+) ms)?")


def run_ogham_bench(ogham, backend, benches, runs, compile_times):
    """{(bench, dataset name): runtimes or error string} from `ogham bench --json`;
    fills compile_times[bench] with the ms from source to C, parsed from `-v`."""
    jpath = os.path.join(BUILD, "ogham-%s.json" % backend)
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
            ms = float(m.group(2)) + float(m.group(3) or 0)
            compile_times.setdefault(bench, (ms, "" if m.group(3) else "*"))
    proc.wait()
    res = proc
    results = {}
    if not os.path.exists(jpath):
        for b in benches:
            for fname, _ in gen.DATASETS[b]:
                results[(b, dataset_name(fname))] = "ogham bench failed (exit %d)" % res.returncode
        return results
    with open(jpath) as f:
        doc = json.load(f)
    for b in benches:
        entry = next((v for k, v in doc.items() if os.path.abspath(k) == prog_path(b)), None)
        for fname, _ in gen.DATASETS[b]:
            name = dataset_name(fname)
            if entry is None or name not in entry.get("datasets", {}):
                results[(b, name)] = "no result"
            else:
                r = entry["datasets"][name]
                results[(b, name)] = r if isinstance(r, str) else r["runtimes"]
    return results


def write_json(path, results, benches):
    doc = {}
    for b in benches:
        sets = {}
        for fname, _ in gen.DATASETS[b]:
            r = results[(b, dataset_name(fname))]
            sets[dataset_name(fname)] = r if isinstance(r, str) else {"runtimes": r, "bytes": {}}
        doc[os.path.relpath(prog_path(b), ROOT)] = {"datasets": sets}
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


def main(argv):
    runs, build, only_refs, backends = 10, True, False, ["c", "multicore"]
    ogham = os.path.join(ROOT, "target", "release", "ogham")
    names = []
    it = iter(argv)
    for a in it:
        if a == "--runs":
            runs = int(next(it))
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
    ogham_results = {}
    for backend in backends:
        ogham_results[backend] = run_ogham_bench(ogham, backend, benches, runs, compile_times)

    ref_results = {}
    for b in benches:
        for fname, _ in gen.DATASETS[b]:
            print("reference %s %s" % (b, fname), file=sys.stderr, flush=True)
            ref_results[(b, dataset_name(fname))] = run_reference(b, fname, runs)
    write_json(os.path.join(BUILD, "ref.json"), ref_results, benches)

    header = ["benchmark", "dataset", "ogham c (ms)", "ogham mc (ms)", "C ref (ms)", "c/ref", "mc/c", "compile (ms)"]
    rows = []
    errors = []
    for b in benches:
        for i, (fname, _) in enumerate(gen.DATASETS[b]):
            key = (b, dataset_name(fname))
            c = ogham_results.get("c", {}).get(key)
            mc = ogham_results.get("multicore", {}).get(key)
            ref = ref_results[key]
            for label, r in (("ogham c", c), ("ogham multicore", mc), ("C reference", ref)):
                if isinstance(r, str):
                    errors.append("%s %s, %s: %s" % (b, fname, label, r.strip().splitlines()[0] if r.strip() else r))
            ct = ""
            if i == 0 and b in compile_times:
                ct = "%.1f%s" % compile_times[b]
            rows.append([b, fname[:-3], fmt_ms(c), fmt_ms(mc), fmt_ms(ref), ratio(c, ref), ratio(mc, c), ct])
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = lambda r: "  ".join(str(x).ljust(w) if j < 2 else str(x).rjust(w) for j, (x, w) in enumerate(zip(r, widths)))
    print(line(header))
    print(line(["-" * w for w in widths]))
    for r in rows:
        print(line(r))
    print()
    print("Times: mean of %d+ timed runs after a warm-up, ± half the 95%% confidence interval." % runs)
    print("c/ref: ogham sequential over the C reference (below 1: ogham is faster).")
    print("mc/c: ogham multicore over ogham sequential (below 1: parallel speed-up).")
    print("compile: source to generated C, before the C compiler (* = front end only).")
    for e in errors:
        print("error: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
