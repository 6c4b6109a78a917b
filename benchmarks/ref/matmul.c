/* Reference for matmul.fut: C = A·B for f32 matrices, as a blocked
 * (cache-tiled, packed) kernel.
 *
 * The loops are those of any tuned matrix product: the product is split
 * into panels of KC columns of A (rows of B) and NC columns of B; each
 * panel of B is copied ("packed") into slivers of NR columns stored k by
 * k, each block of MC rows of A into slivers of MR rows stored k by k, so
 * that the innermost kernel reads both sequentially. The kernel keeps an
 * MR×NR tile of C in registers over the KC steps (2·MR vector
 * accumulators) and does, per k, MR broadcasts of A against one row of the
 * B sliver: `omp simd` over the NR columns. Tiles on the edges go through
 * a zero-padded copy. C is cleared once and each tile is loaded into the
 * accumulators and stored back per panel, so every element of C is still
 * summed in index order of k (as the straightforward loop does; built with
 * -ffp-contract=off, no fused multiply-add).
 *
 * With -fopenmp the threads share each panel's packing of B and take
 * blocks of MC rows each (packing their own A). */
#include "futio.h"

/* The register tile: MR rows of two vectors each, 24 accumulators with
 * AVX-512's 32 vector registers (built with -mprefer-vector-width=512),
 * 12 with AVX2's 16. */
#ifdef __AVX512F__
#define MR 12
#define NR 32
#else
#define MR 6
#define NR 16
#endif
#define KC 256  /* depth of a panel: a KC×NR sliver of B stays in L1 */
#define MC 120  /* rows of A per block (a multiple of MR): MC·KC floats stay in L2 */
#define NC 2048 /* columns of B per panel (a multiple of NR) */

struct env { int64_t n, m, p; const float *a, *b; float *c; float *bpack; };

/* The MR×NR tile at c (row stride ldc) += A sliver (kc×MR) · B sliver (kc×NR). */
static inline void kernel(int64_t kc, const float *restrict ap, const float *restrict bp, float *restrict c,
                          int64_t ldc) {
  float acc[MR][NR];
  for (int r = 0; r < MR; r++)
    for (int j = 0; j < NR; j++) acc[r][j] = c[r * ldc + j];
  for (int64_t k = 0; k < kc; k++) {
    const float *restrict b = bp + k * NR, *restrict a = ap + k * MR;
    for (int r = 0; r < MR; r++) {
      const float ar = a[r];
#pragma omp simd
      for (int j = 0; j < NR; j++) acc[r][j] += ar * b[j];
    }
  }
  for (int r = 0; r < MR; r++)
    for (int j = 0; j < NR; j++) c[r * ldc + j] = acc[r][j];
}

/* Packs B[k0..k0+kc)[j0..j0+nc) into slivers of NR columns, zero-padded. */
static void pack_b(const float *restrict b, int64_t p, int64_t k0, int64_t kc, int64_t j0, int64_t nc,
                   float *restrict bp, int64_t s0, int64_t s1) {
  for (int64_t s = s0; s < s1; s++) {
    const int64_t j = j0 + s * NR, w = nc - s * NR < NR ? nc - s * NR : NR;
    float *dst = bp + s * kc * NR;
    for (int64_t k = 0; k < kc; k++) {
      const float *src = b + (k0 + k) * p + j;
      int64_t jj = 0;
      for (; jj < w; jj++) dst[k * NR + jj] = src[jj];
      for (; jj < NR; jj++) dst[k * NR + jj] = 0.0f;
    }
  }
}

/* Packs A[i0..i0+mc)[k0..k0+kc) into slivers of MR rows, zero-padded. */
static void pack_a(const float *restrict a, int64_t m, int64_t i0, int64_t mc, int64_t k0, int64_t kc,
                   float *restrict ap) {
  for (int64_t s = 0; s * MR < mc; s++) {
    const int64_t h = mc - s * MR < MR ? mc - s * MR : MR;
    float *dst = ap + s * kc * MR;
    for (int64_t r = 0; r < MR; r++) {
      const float *src = a + (i0 + s * MR + r) * m + k0;
      if (r < h)
        for (int64_t k = 0; k < kc; k++) dst[k * MR + r] = src[k];
      else
        for (int64_t k = 0; k < kc; k++) dst[k * MR + r] = 0.0f;
    }
  }
}

static void body(void *q) {
  struct env *e = q;
  const int64_t n = e->n, m = e->m, p = e->p;
  float *restrict c = e->c;
  memset(c, 0, sizeof(float) * (size_t)(n * p));
  float *bpack = e->bpack;
#pragma omp parallel
  {
    float *apack = aligned_alloc(64, sizeof(float) * MC * KC);
    float tile[MR * NR];
    if (!apack) die("out of memory");
    for (int64_t j0 = 0; j0 < p; j0 += NC) {
      const int64_t nc = p - j0 < NC ? p - j0 : NC, slivers = (nc + NR - 1) / NR;
      for (int64_t k0 = 0; k0 < m; k0 += KC) {
        const int64_t kc = m - k0 < KC ? m - k0 : KC;
#pragma omp for schedule(static)
        for (int64_t s = 0; s < slivers; s++) pack_b(e->b, p, k0, kc, j0, nc, bpack, s, s + 1);
#pragma omp for schedule(static)
        for (int64_t i0 = 0; i0 < n; i0 += MC) {
          const int64_t mc = n - i0 < MC ? n - i0 : MC;
          pack_a(e->a, m, i0, mc, k0, kc, apack);
          for (int64_t s = 0; s < slivers; s++) {
            const int64_t j = j0 + s * NR, w = nc - s * NR < NR ? nc - s * NR : NR;
            for (int64_t t = 0; t * MR < mc; t++) {
              const int64_t i = i0 + t * MR, h = mc - t * MR < MR ? mc - t * MR : MR;
              if (h == MR && w == NR) {
                kernel(kc, apack + t * kc * MR, bpack + s * kc * NR, c + i * p + j, p);
              } else {
                for (int64_t r = 0; r < MR; r++)
                  for (int64_t jj = 0; jj < NR; jj++) tile[r * NR + jj] = r < h && jj < w ? c[(i + r) * p + j + jj] : 0;
                kernel(kc, apack + t * kc * MR, bpack + s * kc * NR, tile, NR);
                for (int64_t r = 0; r < h; r++)
                  for (int64_t jj = 0; jj < w; jj++) c[(i + r) * p + j + jj] = tile[r * NR + jj];
              }
            }
          }
        }
      }
    }
    free(apack);
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
  e.bpack = aligned_alloc(64, sizeof(float) * KC * (NC + NR));
  if (!e.c || !e.bpack) die("out of memory");
  run_timed(&o, body, &e);
  int64_t dc[2] = {e.n, e.p};
  print_value(&o, " f32", 2, dc, e.c, 4);
  return 0;
}
