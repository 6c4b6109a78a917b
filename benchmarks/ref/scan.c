/* Reference for scan.fut: the inclusive prefix sum of i32 values, with
 * wrap-around on overflow as in Futhark (computed in uint32_t).
 *
 * Sequentially, an OpenMP inclusive scan (`omp simd reduction(inscan, +)`,
 * which gcc vectorises as prefix sums within vectors plus a running
 * offset). With -fopenmp, the usual two-pass parallel scan: each thread
 * sums its block of the values, and after a barrier scans the block again
 * starting from the sum of the blocks before it. The scan is bound by
 * memory bandwidth, which the second read of the values costs: scanning
 * in rounds of 2^16 values per thread, so that the second pass reads from
 * the cache, took 62 ms against this version's 71 ms (sequential: 60 ms)
 * on the quiet 2-core development machine, but with a barrier per round
 * it took seconds whenever another process held one of the cores. */
#include "futio.h"
#ifdef _OPENMP
#include <omp.h>
#endif

struct env { int64_t n; const int32_t *xs; int32_t *out; };

/* out[i] = start + xs[0] + ... + xs[i], for i < n. */
static void scan_block(const int32_t *restrict xs, int32_t *restrict out, int64_t n, uint32_t start) {
  uint32_t acc = start;
#pragma omp simd reduction(inscan, + : acc)
  for (int64_t i = 0; i < n; i++) {
    acc += (uint32_t)xs[i];
#pragma omp scan inclusive(acc)
    out[i] = (int32_t)acc;
  }
}

static void body(void *p) {
  struct env *e = p;
  const int64_t n = e->n;
#ifdef _OPENMP
  uint32_t *block_sum = malloc(sizeof(uint32_t) * (size_t)omp_get_max_threads());
#else
  uint32_t *block_sum = malloc(sizeof(uint32_t));
#endif
  if (!block_sum) die("out of memory");
#pragma omp parallel
  {
#ifdef _OPENMP
    const int nt = omp_get_num_threads(), t = omp_get_thread_num();
#else
    const int nt = 1, t = 0;
#endif
    if (nt == 1) {
      scan_block(e->xs, e->out, n, 0);
    } else {
      const int64_t i0 = n * t / nt, i1 = n * (t + 1) / nt;
      uint32_t s = 0;
#pragma omp simd reduction(+ : s)
      for (int64_t i = i0; i < i1; i++) s += (uint32_t)e->xs[i];
      block_sum[t] = s;
#pragma omp barrier
      uint32_t start = 0;
      for (int u = 0; u < t; u++) start += block_sum[u];
      scan_block(e->xs + i0, e->out + i0, i1 - i0, start);
    }
  }
  free(block_sum);
}

int main(int argc, char **argv) {
  struct opts o = parse_opts(argc, argv);
  struct env e;
  int64_t d[1];
  e.xs = read_array(" i32", 1, d, 4);
  e.n = d[0];
  e.out = malloc(4 * (size_t)e.n + 1);
  if (!e.out) die("out of memory");
  run_timed(&o, body, &e);
  print_value(&o, " i32", 1, &e.n, e.out, 4);
  return 0;
}
