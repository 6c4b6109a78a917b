/* Reference for scan.fut: the inclusive prefix sum of i32 values, with
 * wrap-around on overflow as in Futhark (computed in uint32_t).
 *
 * Sequentially, an OpenMP inclusive scan (`omp simd reduction(inscan, +)`,
 * which gcc vectorises as prefix sums within vectors plus a running
 * offset). With -fopenmp, the usual two-pass parallel scan, in rounds of
 * CHUNK values per thread so that the second pass reads them from the
 * cache: in each round every thread sums its block of the values, and
 * after a barrier scans the block again starting from the sum of
 * everything before it (the earlier rounds and the blocks before its own;
 * the block sums are double-buffered, so one barrier per round
 * suffices). */
#include "futio.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#define CHUNK 65536 /* values per thread and round (256 KiB, in L2) */

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
  uint32_t *block_sum = malloc(sizeof(uint32_t) * 2 * (size_t)omp_get_max_threads());
#else
  uint32_t *block_sum = malloc(sizeof(uint32_t) * 2);
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
      /* Rounds of nt·CHUNK values; every thread keeps the same carry. */
      uint32_t carry = 0;
      for (int64_t r0 = 0, round = 0; r0 < n; r0 += nt * CHUNK, round++) {
        const int64_t len = n - r0 < nt * CHUNK ? n - r0 : nt * CHUNK;
        const int64_t i0 = r0 + len * t / nt, i1 = r0 + len * (t + 1) / nt;
        uint32_t *sums = block_sum + (round % 2) * nt;
        uint32_t s = 0;
#pragma omp simd reduction(+ : s)
        for (int64_t i = i0; i < i1; i++) s += (uint32_t)e->xs[i];
        sums[t] = s;
#pragma omp barrier
        uint32_t start = carry;
        for (int u = 0; u < nt; u++) {
          if (u == t) start = carry;
          carry += sums[u];
        }
        scan_block(e->xs + i0, e->out + i0, i1 - i0, start);
      }
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
