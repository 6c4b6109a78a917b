/* Reference for matmul.fut: C = A·B for f32 matrices, in the i-k-j loop
 * order (row of C accumulated from rows of B; each element of C is still
 * summed in index order of k). */
#include "futio.h"

struct env { int64_t n, m, p; const float *a, *b; float *c; };

static void body(void *q) {
  struct env *e = q;
  const int64_t n = e->n, m = e->m, p = e->p;
  for (int64_t i = 0; i < n; i++) {
    float *ci = e->c + i * p;
    for (int64_t j = 0; j < p; j++) ci[j] = 0.0f;
    for (int64_t k = 0; k < m; k++) {
      float aik = e->a[i * m + k];
      const float *bk = e->b + k * p;
      for (int64_t j = 0; j < p; j++) ci[j] += aik * bk[j];
    }
  }
}

int main(int argc, char **argv) {
  struct opts o = parse_opts(argc, argv);
  struct env e;
  int64_t da[2], db[2];
  e.a = read_array(" f32", 2, da, 4);
  e.b = read_array(" f32", 2, db, 4);
  if (da[1] != db[0]) die("size mismatch");
  e.n = da[0]; e.m = da[1]; e.p = db[1];
  e.c = malloc(4 * (size_t)(e.n * e.p) + 1);
  run_timed(&o, body, &e);
  int64_t dc[2] = {e.n, e.p};
  print_value(&o, " f32", 2, dc, e.c, 4);
  return 0;
}
