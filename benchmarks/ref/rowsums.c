/* Reference for rowsums.fut: the sum of every row of an f32 matrix.
 *
 * Four rows at a time, each one `omp simd` reduction (summed in vector
 * lanes, not in index order): four independent chains of vector additions
 * and four streams of loads, where one row at a time is bound by the
 * latency of the additions. The matrix is read once. With -fopenmp the
 * rows are shared among the threads, or, with fewer rows than threads,
 * the elements of each row. */
#include "futio.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#define RB 4 /* rows per pass */

struct env { int64_t n, m; const float *a; float *out; };

static void body(void *p) {
  struct env *e = p;
  const int64_t n = e->n, m = e->m;
  const float *restrict a = e->a;
  float *restrict out = e->out;
#ifdef _OPENMP
  if (n < omp_get_max_threads()) {
    for (int64_t i = 0; i < n; i++) {
      const float *restrict row = a + i * m;
      float s = 0.0f;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
      for (int64_t j = 0; j < m; j++) s += row[j];
      out[i] = s;
    }
    return;
  }
#endif
#pragma omp parallel for schedule(static)
  for (int64_t i0 = 0; i0 < n; i0 += RB) {
    if (n - i0 >= RB) {
      const float *restrict r0 = a + i0 * m, *restrict r1 = r0 + m, *restrict r2 = r1 + m, *restrict r3 = r2 + m;
      float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
      for (int64_t j = 0; j < m; j++) {
        s0 += r0[j];
        s1 += r1[j];
        s2 += r2[j];
        s3 += r3[j];
      }
      out[i0] = s0; out[i0 + 1] = s1; out[i0 + 2] = s2; out[i0 + 3] = s3;
    } else {
      for (int64_t i = i0; i < n; i++) {
        const float *restrict row = a + i * m;
        float s = 0.0f;
#pragma omp simd reduction(+ : s)
        for (int64_t j = 0; j < m; j++) s += row[j];
        out[i] = s;
      }
    }
  }
}

int main(int argc, char **argv) {
  struct opts o = parse_opts(argc, argv);
  struct env e;
  int64_t d[2];
  e.a = read_array(" f32", 2, d, 4);
  e.n = d[0]; e.m = d[1];
  e.out = malloc(4 * (size_t)e.n + 1);
  if (!e.out) die("out of memory");
  run_timed(&o, body, &e);
  print_value(&o, " f32", 1, &e.n, e.out, 4);
  return 0;
}
