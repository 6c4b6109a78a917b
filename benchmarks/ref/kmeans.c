/* Reference for kmeans.fut: one k-means iteration. The first k points are
 * the centres; each point joins its nearest centre (squared Euclidean
 * distance, lowest index on ties); the result is each cluster's mean, or
 * the old centre for an empty cluster. In f32. */
#include "futio.h"

struct env { int64_t n, d, k; const float *pts; float *sums, *out; int32_t *counts; };

static void body(void *p) {
  struct env *e = p;
  const int64_t n = e->n, d = e->d, k = e->k;
  const float *centres = e->pts;
  memset(e->sums, 0, sizeof(float) * (size_t)(k * d));
  memset(e->counts, 0, sizeof(int32_t) * (size_t)k);
  for (int64_t i = 0; i < n; i++) {
    const float *pt = e->pts + i * d;
    int64_t best = 0;
    float best_d = INFINITY;
    for (int64_t c = 0; c < k; c++) {
      float dist = 0.0f;
      for (int64_t j = 0; j < d; j++) {
        float diff = pt[j] - centres[c * d + j];
        dist += diff * diff;
      }
      if (dist < best_d) { best_d = dist; best = c; }
    }
    e->counts[best]++;
    for (int64_t j = 0; j < d; j++) e->sums[best * d + j] += pt[j];
  }
  for (int64_t c = 0; c < k; c++)
    for (int64_t j = 0; j < d; j++)
      e->out[c * d + j] = e->counts[c] == 0 ? centres[c * d + j]
                                            : e->sums[c * d + j] / (float)e->counts[c];
}

int main(int argc, char **argv) {
  struct opts o = parse_opts(argc, argv);
  struct env e;
  int64_t dp[2];
  e.k = read_i64();
  e.pts = read_array(" f32", 2, dp, 4);
  e.n = dp[0]; e.d = dp[1];
  if (e.k < 1 || e.k > e.n) die("k must be between 1 and the number of points");
  e.sums = malloc(4 * (size_t)(e.k * e.d) + 1);
  e.out = malloc(4 * (size_t)(e.k * e.d) + 1);
  e.counts = malloc(4 * (size_t)e.k + 1);
  run_timed(&o, body, &e);
  int64_t dc[2] = {e.k, e.d};
  print_value(&o, " f32", 2, dc, e.out, 4);
  return 0;
}
