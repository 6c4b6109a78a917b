/* OpenBLAS reference for matmul.fut: C = A·B for f32 matrices with one
 * cblas_sgemm. The sequential build runs OpenBLAS on one thread; the
 * OpenMP build (-fopenmp) on omp_get_max_threads() threads
 * (OMP_NUM_THREADS; run.py sets 2). OpenBLAS's kernels use fused
 * multiply-adds and accumulate in their own order, so the results agree
 * with the other references to rounding only. */
#include "futio.h"
#include "blas.h"

struct env { int64_t n, m, p; const float *a, *b; float *c; };

static void body(void *q) {
  struct env *e = q;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (blasint)e->n, (blasint)e->p, (blasint)e->m, 1.0f,
              e->a, (blasint)e->m, e->b, (blasint)e->p, 0.0f, e->c, (blasint)e->p);
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
  if (!e.c) die("out of memory");
  blas_threads();
  run_timed(&o, body, &e);
  int64_t dc[2] = {e.n, e.p};
  print_value(&o, " f32", 2, dc, e.c, 4);
  return 0;
}
