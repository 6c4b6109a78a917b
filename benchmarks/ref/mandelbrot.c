/* Reference for mandelbrot.fut: escape counts of a w×h grid over
 * [-2.25, 0.75] × [-1.5, 1.5], at most `limit` iterations, in f32.
 *
 * The pixels of a row are iterated in groups of L = 64 lanes: each step
 * advances every lane that is still inside (|z|² <= 4 before the step) and
 * counts it, with selects rather than branches, so that the lane loop
 * vectorises (`omp simd`: four or eight vectors, whose dependency chains
 * overlap); a group stops when no lane is inside or after `limit` steps.
 * A lane's operations are those of the scalar loop, in the same order, so
 * the counts are the same. With -fopenmp the rows are shared among the
 * threads (dynamically: rows through the set take longer). */
#include "futio.h"

#define L 64 /* pixels per group: several vectors, whose steps overlap */

struct env { int64_t w, h; int32_t limit; int32_t *out; };

static void row(const struct env *e, int64_t y) {
  const int64_t w = e->w;
  const float ci = -1.5f + 3.0f * (float)y / (float)e->h;
  for (int64_t x0 = 0; x0 < w; x0 += L) {
    float cr[L], zr[L], zi[L];
    int32_t count[L];
    for (int l = 0; l < L; l++) {
      cr[l] = -2.25f + 3.0f * (float)(x0 + l) / (float)w;
      zr[l] = zi[l] = 0.0f;
      count[l] = 0;
    }
    for (int32_t i = 0; i < e->limit; i++) {
      int inside = 0;
#pragma omp simd reduction(| : inside)
      for (int l = 0; l < L; l++) {
        const float r = zr[l], m = zi[l], r2 = r * r, m2 = m * m;
        const int in = (count[l] == i) & (r2 + m2 <= 4.0f);
        const float nr = r2 - m2 + cr[l];
        const float ni = 2.0f * r * m + ci;
        zr[l] = in ? nr : r;
        zi[l] = in ? ni : m;
        count[l] += in;
        inside |= in;
      }
      if (!inside) break;
    }
    const int64_t n = w - x0 < L ? w - x0 : L;
    for (int64_t l = 0; l < n; l++) e->out[y * w + x0 + l] = count[l];
  }
}

static void body(void *p) {
  struct env *e = p;
#pragma omp parallel for schedule(dynamic, 4)
  for (int64_t y = 0; y < e->h; y++) row(e, y);
}

int main(int argc, char **argv) {
  struct opts o = parse_opts(argc, argv);
  struct env e;
  e.w = read_i64();
  e.h = read_i64();
  e.limit = read_i32();
  e.out = malloc(sizeof(int32_t) * (size_t)(e.w * e.h) + 1);
  if (!e.out) die("out of memory");
  run_timed(&o, body, &e);
  int64_t dims[2] = {e.h, e.w};
  print_value(&o, " i32", 2, dims, e.out, 4);
  return 0;
}
