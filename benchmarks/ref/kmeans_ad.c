/* Reference for kmeans_ad.fut: the k-means cost (the sum over the points
 * of the squared Euclidean distance to the nearest centre) and its
 * gradient with respect to the centres in closed form (-2(p - c) for every
 * point p, added to its nearest centre c). In f32.
 *
 *   -e objective   the cost (f32)
 *   -e gradient    the gradient ([k][d]f32)
 *
 * The distances are computed as a matrix product is, with (p - c)² in
 * place of p·c: the centres are packed once per call into slivers of NR
 * centres stored coordinate by coordinate, and a register tile of MR
 * points × NR centres (2·MR vector accumulators) runs down the coordinates,
 * one broadcast of each point's coordinate against a row of the sliver
 * (`omp simd` over the NR centres). Each distance is summed in index order
 * of the coordinates. The points go in blocks of PB, so that a block stays
 * in L2 while every sliver passes over it (a sliver, d·NR floats, stays in
 * L1); the nearest centre of each point (the first on ties) is kept as the
 * tiles come. With -fopenmp the blocks of points are shared among the
 * threads (the gradient's accumulation into the centres, O(n·d), is done
 * after the parallel assignment). */
#include "futio.h"

/* The register tile, as in matmul.c: 24 accumulators with AVX-512 (built
 * with -mprefer-vector-width=512), 12 with AVX2. */
#ifdef __AVX512F__
#define MR 12
#define NR 32
#else
#define MR 6
#define NR 16
#endif
#define PB (8 * MR) /* points per block */

struct env {
  int64_t n, k, d, slivers;
  const float *pts, *ctr;
  float *cpack; /* [slivers][d][NR], zero-padded */
  int64_t *best;
  float *best_d, *grad, cost;
  int entry;
};

/* acc[r][c] = ‖p_r - centre c‖² for the MR points p (rows of pts, stride d)
 * and the NR centres of sliver cs. */
static inline void tile(int64_t d, const float *restrict pts, const float *restrict cs, float acc[MR][NR]) {
  for (int r = 0; r < MR; r++)
    for (int c = 0; c < NR; c++) acc[r][c] = 0.0f;
  for (int64_t j = 0; j < d; j++) {
    const float *restrict row = cs + j * NR;
    for (int r = 0; r < MR; r++) {
      const float x = pts[r * d + j];
#pragma omp simd
      for (int c = 0; c < NR; c++) {
        const float t = x - row[c];
        acc[r][c] += t * t;
      }
    }
  }
}

/* The nearest centre of each point of [i0, i1) and its distance. */
static void assign_block(struct env *e, int64_t i0, int64_t i1) {
  const int64_t d = e->d, k = e->k;
  float acc[MR][NR];
  float pad[MR * d]; /* the last group's points, the last one repeated */
  for (int64_t i = i0; i < i1; i++) { e->best[i] = 0; e->best_d[i] = INFINITY; }
  for (int64_t s = 0; s < e->slivers; s++) {
    const float *cs = e->cpack + s * d * NR;
    const int64_t c0 = s * NR, nc = k - c0 < NR ? k - c0 : NR;
    for (int64_t g = i0; g < i1; g += MR) {
      const int64_t np = i1 - g < MR ? i1 - g : MR;
      const float *p = e->pts + g * d;
      if (np < MR) {
        for (int64_t r = 0; r < MR; r++) memcpy(pad + r * d, e->pts + (g + (r < np ? r : np - 1)) * d, sizeof(float) * (size_t)d);
        p = pad;
      }
      tile(d, p, cs, acc);
      for (int64_t r = 0; r < np; r++) {
        float bd = e->best_d[g + r];
        int64_t b = e->best[g + r];
        for (int64_t c = 0; c < nc; c++)
          if (acc[r][c] < bd) { bd = acc[r][c]; b = c0 + c; }
        e->best_d[g + r] = bd;
        e->best[g + r] = b;
      }
    }
  }
}

static void body(void *p) {
  struct env *e = p;
  const int64_t n = e->n, k = e->k, d = e->d;
  for (int64_t s = 0; s < e->slivers; s++)
    for (int64_t j = 0; j < d; j++)
      for (int64_t c = 0; c < NR; c++) {
        const int64_t cc = s * NR + c;
        e->cpack[(s * d + j) * NR + c] = cc < k ? e->ctr[cc * d + j] : 0.0f;
      }
  const int64_t blocks = (n + PB - 1) / PB;
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < blocks; b++) assign_block(e, b * PB, b * PB + PB < n ? b * PB + PB : n);
  float cost = 0;
#pragma omp simd reduction(+ : cost)
  for (int64_t i = 0; i < n; i++) cost += e->best_d[i];
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
  if (e.d < 1) die("no dimensions");
  e.entry = o.entry;
  e.slivers = (e.k + NR - 1) / NR;
  e.cpack = aligned_alloc(64, sizeof(float) * (size_t)(e.slivers * e.d * NR) + 64);
  e.best = malloc(sizeof(int64_t) * (size_t)e.n + 1);
  e.best_d = malloc(sizeof(float) * (size_t)e.n + 1);
  e.grad = malloc(sizeof(float) * (size_t)(e.k * e.d) + 1);
  if (!e.cpack || !e.best || !e.best_d || !e.grad) die("out of memory");
  run_timed(&o, body, &e);
  if (o.entry == 0)
    print_value(&o, " f32", 0, NULL, &e.cost, 4);
  else
    print_value(&o, " f32", 2, dc, e.grad, 4);
  return 0;
}
