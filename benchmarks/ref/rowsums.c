/* Reference for rowsums.fut: the sum of every row of an f32 matrix.
 *
 * Each row is one `omp simd` reduction (summed in vector lanes, not in
 * index order); the matrix is read once, so the time is memory bandwidth.
 * With -fopenmp the rows are shared among the threads. */
#include "futio.h"

struct env { int64_t n, m; const float *a; float *out; };

static void body(void *p) {
  struct env *e = p;
  const int64_t n = e->n, m = e->m;
  const float *restrict a = e->a;
  float *restrict out = e->out;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) {
    const float *restrict row = a + i * m;
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (int64_t j = 0; j < m; j++) s += row[j];
    out[i] = s;
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
