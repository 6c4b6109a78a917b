/* Reference for histogram.fut: counts of x mod k over i32 values x, into
 * k bins (Futhark's mod: the result has the sign of k).
 *
 * The divisor is the same for every value, so the remainder of a
 * non-negative x is computed without a division instruction, by
 * multiplying with a precomputed 64-bit reciprocal of k (the
 * "fastmod" of Lemire, Kaser and Kurz, 2019: for x, k < 2^32, with
 * M = ceil(2^64 / k), x mod k = ((M·x mod 2^64)·k) >> 64); negative values,
 * which the data sets do not have, take the division. The loop prefetches
 * the values ahead (below). With -fopenmp each
 * thread counts its share of the values into a private histogram, and the
 * histograms are then added bin by bin. */
#include "futio.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* How many values ahead the loop prefetches (one prefetch per 64-byte
 * line): on the development machine (a virtual machine) the hardware
 * prefetcher does not keep this scalar loop fed, and the prefetch more
 * than halves its time (a vectorised loop over the same values is not
 * affected). */
#define PREFETCH 1024

struct env { int64_t n, k; const int32_t *xs; int32_t *bins; };

static inline int64_t bin_of(int32_t x, int64_t k, uint64_t M) {
  if (x >= 0 && M != 0) return (int64_t)(((unsigned __int128)(M * (uint64_t)(uint32_t)x) * (uint64_t)k) >> 64);
  int64_t b = (int64_t)x % k;
  return b < 0 ? b + k : b;
}

static void count(const int32_t *restrict xs, int64_t n, int64_t k, int32_t *restrict bins) {
  /* fastmod needs k < 2^32 (and k = 1 gives M = 0); M = 0 selects the division. */
  const uint64_t M = k < ((int64_t)1 << 32) ? UINT64_MAX / (uint64_t)k + 1 : 0;
  for (int64_t i = 0; i < n; i++) {
    if (i % 16 == 0) __builtin_prefetch(xs + i + PREFETCH);
    bins[bin_of(xs[i], k, M)]++;
  }
}

static void body(void *p) {
  struct env *e = p;
  const int64_t n = e->n, k = e->k;
  memset(e->bins, 0, sizeof(int32_t) * (size_t)k);
#pragma omp parallel
  {
#ifdef _OPENMP
    const int nt = omp_get_num_threads(), t = omp_get_thread_num();
#else
    const int nt = 1, t = 0;
#endif
    const int64_t i0 = n * t / nt, i1 = n * (t + 1) / nt;
    if (nt == 1) {
      count(e->xs, n, k, e->bins);
    } else {
      int32_t *mine = calloc((size_t)k + 1, sizeof(int32_t));
      if (!mine) die("out of memory");
      count(e->xs + i0, i1 - i0, k, mine);
#pragma omp critical
      for (int64_t b = 0; b < k; b++) e->bins[b] += mine[b];
      free(mine);
    }
  }
}

int main(int argc, char **argv) {
  struct opts o = parse_opts(argc, argv);
  struct env e;
  int64_t d[1];
  e.k = read_i64();
  e.xs = read_array(" i32", 1, d, 4);
  e.n = d[0];
  if (e.k < 1) die("k must be positive");
  e.bins = malloc(4 * (size_t)e.k + 1);
  run_timed(&o, body, &e);
  print_value(&o, " i32", 1, &e.k, e.bins, 4);
  return 0;
}
