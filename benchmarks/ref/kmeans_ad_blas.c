/* OpenBLAS reference for kmeans_ad.fut's objective: the k-means cost, the
 * sum over the points p of min_c ‖p - c‖², computed in the form
 * ‖p‖² - 2 p·c + ‖c‖² with all the dot products p·c from one cblas_sgemm
 * (the n×k matrix points · centresᵀ), then the norms, the minimum over
 * the centres (`omp simd` reductions) and the sum. A difference that
 * rounds below zero counts as zero. f32.
 *
 *   -e objective   the cost (f32); there is no gradient entry point
 *
 * The sequential build runs OpenBLAS on one thread; the OpenMP build runs
 * it on omp_get_max_threads() threads (OMP_NUM_THREADS; run.py sets 2).
 * The norms and minima (a tenth of the time on one thread) are not shared
 * among threads: an OpenMP loop there leaves libgomp's threads spinning
 * after it while OpenBLAS's threads need the cores (on the 2-core
 * development machine, 12-18 ms instead of 1.9 ms for 1000 points). The
 * expanded form loses digits to cancellation where a point is close to
 * its centre, so the result agrees with the direct one to about 1e-6
 * relative. */
#include "futio.h"
#include "blas.h"

struct env { int64_t n, k, d; const float *pts, *ctr; float *dots, *cnorm; float cost; };

static void body(void *p) {
  struct env *e = p;
  const int64_t n = e->n, k = e->k, d = e->d;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (blasint)n, (blasint)k, (blasint)d, 1.0f, e->pts,
              (blasint)d, e->ctr, (blasint)d, 0.0f, e->dots, (blasint)k);
  float *restrict cnorm = e->cnorm;
  for (int64_t c = 0; c < k; c++) {
    const float *restrict cc = e->ctr + c * d;
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (int64_t j = 0; j < d; j++) s += cc[j] * cc[j];
    cnorm[c] = s;
  }
  float cost = 0.0f;
  for (int64_t i = 0; i < n; i++) {
    const float *restrict pt = e->pts + i * d, *restrict g = e->dots + i * k;
    float pn = 0.0f;
#pragma omp simd reduction(+ : pn)
    for (int64_t j = 0; j < d; j++) pn += pt[j] * pt[j];
    float best = INFINITY;
#pragma omp simd reduction(min : best)
    for (int64_t c = 0; c < k; c++) {
      const float v = cnorm[c] - 2.0f * g[c];
      best = v < best ? v : best;
    }
    const float dist = pn + best;
    cost += dist > 0.0f ? dist : 0.0f;
  }
  e->cost = cost;
}

int main(int argc, char **argv) {
  static const char *const entries[] = {"objective", NULL};
  struct opts o = parse_opts_entries(argc, argv, entries);
  struct env e;
  int64_t dp[2], dc[2];
  e.pts = read_array(" f32", 2, dp, 4);
  e.ctr = read_array(" f32", 2, dc, 4);
  e.n = dp[0]; e.d = dp[1]; e.k = dc[0];
  if (dc[1] != e.d) die("points and centres differ in dimension");
  if (e.k < 1) die("no centres");
  e.dots = malloc(sizeof(float) * (size_t)(e.n * e.k) + 1);
  e.cnorm = malloc(sizeof(float) * (size_t)e.k + 1);
  if (!e.dots || !e.cnorm) die("out of memory");
  blas_threads();
  run_timed(&o, body, &e);
  print_value(&o, " f32", 0, NULL, &e.cost, 4);
  return 0;
}
