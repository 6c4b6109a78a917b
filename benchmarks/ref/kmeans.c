/* Reference for kmeans.fut: one k-means iteration. The first k points are
 * the centres; each point joins its nearest centre (squared Euclidean
 * distance, lowest index on ties); the result is each cluster's mean, or
 * the old centre for an empty cluster. In f32.
 *
 * The centres are transposed once per call ([d][k], padded to a multiple
 * of CB = 16 centres), so that a point's distances to 16 centres at a time
 * are two vectors of sums, updated once per coordinate: every distance is
 * still summed in index order of the coordinates, as the straightforward
 * loop does, so the assignment is the same. With -fopenmp the points are shared among the threads, each
 * accumulating its own sums and counts, merged at the end. */
#include "futio.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#define CB 16 /* centres per pass: two vectors of 8 */

/* A vector of 8 floats (GNU C): gcc keeps the two running sums of a pass
 * in registers, which it does not do for an array of CB sums. */
typedef float vf8 __attribute__((vector_size(32)));

struct env { int64_t n, d, k, kp; const float *pts; float *ct, *sums, *out; int64_t *counts; };

/* The nearest of the k centres (transposed: ct[j * kp + c]) to pt. */
static inline int64_t nearest(const float *restrict pt, const float *restrict ct, int64_t d, int64_t k,
                              int64_t kp) {
  int64_t best = 0;
  float best_d = INFINITY;
  for (int64_t c0 = 0; c0 < k; c0 += CB) {
    vf8 s0 = {0}, s1 = {0};
    for (int64_t j = 0; j < d; j++) {
      const vf8 *row = (const vf8 *)(ct + j * kp + c0);
      const vf8 t0 = pt[j] - row[0], t1 = pt[j] - row[1];
      s0 += t0 * t0;
      s1 += t1 * t1;
    }
    const int64_t m = k - c0 < CB ? k - c0 : CB;
    for (int64_t c = 0; c < m; c++) {
      const float dist = c < 8 ? s0[c] : s1[c - 8];
      if (dist < best_d) { best_d = dist; best = c0 + c; }
    }
  }
  return best;
}

/* Adds the points [i0, i1) to the sums and counts of their clusters. */
static void assign(const struct env *e, int64_t i0, int64_t i1, float *restrict sums, int64_t *restrict counts) {
  const int64_t d = e->d;
  for (int64_t i = i0; i < i1; i++) {
    const float *restrict pt = e->pts + i * d;
    const int64_t c = nearest(pt, e->ct, d, e->k, e->kp);
    counts[c]++;
    float *restrict s = sums + c * d;
#pragma omp simd
    for (int64_t j = 0; j < d; j++) s[j] += pt[j];
  }
}

static void body(void *p) {
  struct env *e = p;
  const int64_t n = e->n, d = e->d, k = e->k, kp = e->kp;
  const float *centres = e->pts;
  for (int64_t j = 0; j < d; j++)
    for (int64_t c = 0; c < kp; c++) e->ct[j * kp + c] = c < k ? centres[c * d + j] : 0.0f;
  memset(e->sums, 0, sizeof(float) * (size_t)(k * d));
  memset(e->counts, 0, sizeof(int64_t) * (size_t)k);
#pragma omp parallel
  {
#ifdef _OPENMP
    const int nt = omp_get_num_threads(), t = omp_get_thread_num();
#else
    const int nt = 1, t = 0;
#endif
    const int64_t i0 = n * t / nt, i1 = n * (t + 1) / nt;
    if (nt == 1) {
      assign(e, i0, i1, e->sums, e->counts);
    } else {
      float *sums = calloc((size_t)(k * d) + 1, sizeof(float));
      int64_t *counts = calloc((size_t)k + 1, sizeof(int64_t));
      if (!sums || !counts) die("out of memory");
      assign(e, i0, i1, sums, counts);
#pragma omp critical
      {
        for (int64_t j = 0; j < k * d; j++) e->sums[j] += sums[j];
        for (int64_t c = 0; c < k; c++) e->counts[c] += counts[c];
      }
      free(sums);
      free(counts);
    }
  }
  for (int64_t c = 0; c < k; c++)
    for (int64_t j = 0; j < d; j++)
      e->out[c * d + j] = e->counts[c] == 0 ? centres[c * d + j] : e->sums[c * d + j] / (float)e->counts[c];
}

int main(int argc, char **argv) {
  struct opts o = parse_opts(argc, argv);
  struct env e;
  int64_t dp[2];
  e.k = read_i64();
  e.pts = read_array(" f32", 2, dp, 4);
  e.n = dp[0]; e.d = dp[1];
  if (e.k < 1 || e.k > e.n) die("k must be between 1 and the number of points");
  e.kp = (e.k + CB - 1) / CB * CB;
  e.ct = aligned_alloc(64, 4 * (size_t)(e.kp * e.d) + 64);
  e.sums = malloc(4 * (size_t)(e.k * e.d) + 1);
  e.out = malloc(4 * (size_t)(e.k * e.d) + 1);
  e.counts = malloc(8 * (size_t)e.k + 1);
  if (!e.ct || !e.sums || !e.out || !e.counts) die("out of memory");
  run_timed(&o, body, &e);
  int64_t dc[2] = {e.k, e.d};
  print_value(&o, " f32", 2, dc, e.out, 4);
  return 0;
}
