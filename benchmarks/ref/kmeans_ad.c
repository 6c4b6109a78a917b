/* Reference for kmeans_ad.fut: the k-means cost (the sum over the points
 * of the squared Euclidean distance to the nearest centre) and its
 * gradient with respect to the centres in closed form (-2(p - c) for every
 * point p, added to its nearest centre c). In f32.
 *
 *   -e objective   the cost (f32)
 *   -e gradient    the gradient ([k][d]f32)
 *
 * Points are taken in blocks of four against each centre, so that every
 * centre row loaded serves four distances; the distances vectorise (omp
 * simd reductions). With -fopenmp the points are shared among the threads
 * (the gradient's accumulation into the centres, O(n·d), is done after the
 * parallel assignment). */
#include "futio.h"

#define PB 4 /* points per block */

struct env { int64_t n, k, d; const float *pts, *ctr; int64_t *best; float *grad; float cost; int entry; };

/* The nearest centre of points pts[0..np) (np <= PB), and its distance. */
static void nearest(const float *restrict pts, int64_t np, const float *restrict ctr, int64_t k, int64_t d,
                    int64_t *best, float *best_d) {
  for (int64_t q = 0; q < np; q++) { best[q] = 0; best_d[q] = INFINITY; }
  if (np == PB) {
    const float *p0 = pts, *p1 = pts + d, *p2 = pts + 2 * d, *p3 = pts + 3 * d;
    for (int64_t c = 0; c < k; c++) {
      const float *cc = ctr + c * d;
      float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
      for (int64_t j = 0; j < d; j++) {
        float y = cc[j];
        float t0 = p0[j] - y, t1 = p1[j] - y, t2 = p2[j] - y, t3 = p3[j] - y;
        s0 += t0 * t0; s1 += t1 * t1; s2 += t2 * t2; s3 += t3 * t3;
      }
      if (s0 < best_d[0]) { best_d[0] = s0; best[0] = c; }
      if (s1 < best_d[1]) { best_d[1] = s1; best[1] = c; }
      if (s2 < best_d[2]) { best_d[2] = s2; best[2] = c; }
      if (s3 < best_d[3]) { best_d[3] = s3; best[3] = c; }
    }
  } else {
    for (int64_t q = 0; q < np; q++)
      for (int64_t c = 0; c < k; c++) {
        const float *p = pts + q * d, *cc = ctr + c * d;
        float s = 0;
#pragma omp simd reduction(+ : s)
        for (int64_t j = 0; j < d; j++) { float t = p[j] - cc[j]; s += t * t; }
        if (s < best_d[q]) { best_d[q] = s; best[q] = c; }
      }
  }
}

static void body(void *p) {
  struct env *e = p;
  const int64_t n = e->n, k = e->k, d = e->d;
  const int64_t blocks = (n + PB - 1) / PB;
  float cost = 0;
#pragma omp parallel for schedule(static) reduction(+ : cost)
  for (int64_t b = 0; b < blocks; b++) {
    int64_t i0 = b * PB, np = n - i0 < PB ? n - i0 : PB;
    float bd[PB];
    nearest(e->pts + i0 * d, np, e->ctr, k, d, e->best + i0, bd);
    for (int64_t q = 0; q < np; q++) cost += bd[q];
  }
  e->cost = cost;
  if (e->entry == 1) {
    memset(e->grad, 0, sizeof(float) * (size_t)(k * d));
    for (int64_t i = 0; i < n; i++) {
      const float *pt = e->pts + i * d, *c = e->ctr + e->best[i] * d;
      float *g = e->grad + e->best[i] * d;
#pragma omp simd
      for (int64_t j = 0; j < d; j++) g[j] -= 2 * (pt[j] - c[j]);
    }
  }
}

int main(int argc, char **argv) {
  static const char *const entries[] = {"objective", "gradient", NULL};
  struct opts o = parse_opts_entries(argc, argv, entries);
  struct env e;
  int64_t dp[2], dc[2];
  e.pts = read_array(" f32", 2, dp, 4);
  e.ctr = read_array(" f32", 2, dc, 4);
  e.n = dp[0]; e.d = dp[1]; e.k = dc[0];
  if (dc[1] != e.d) die("points and centres differ in dimension");
  if (e.k < 1) die("no centres");
  e.entry = o.entry;
  e.best = malloc(sizeof(int64_t) * (size_t)e.n + 1);
  e.grad = malloc(sizeof(float) * (size_t)(e.k * e.d) + 1);
  run_timed(&o, body, &e);
  if (o.entry == 0)
    print_value(&o, " f32", 0, NULL, &e.cost, 4);
  else
    print_value(&o, " f32", 2, dc, e.grad, 4);
  return 0;
}
