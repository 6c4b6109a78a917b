/* Reference for nbody.fut: the acceleration of every body from all others
 * (softened gravity, G = 1, eps^2 = 0.01), in f32.
 *
 * Structure of arrays; the sum over the bodies j is an `omp simd`
 * reduction (vector square root and division, -fno-math-errno), so it is
 * summed in vector lanes rather than in index order. The time is in the
 * square roots and divisions: taking several bodies i per pass over the
 * bodies j gains nothing. With -fopenmp the bodies i are shared among the
 * threads. */
#include "futio.h"

struct env { int64_t n; const float *x, *y, *z, *m; float *ax, *ay, *az; };

static void body(void *p) {
  struct env *e = p;
  const int64_t n = e->n;
  const float *restrict x = e->x, *restrict y = e->y, *restrict z = e->z, *restrict m = e->m;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) {
    const float xi = x[i], yi = y[i], zi = z[i];
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
#pragma omp simd reduction(+ : sx, sy, sz)
    for (int64_t j = 0; j < n; j++) {
      const float dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
      const float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
      const float inv = 1.0f / sqrtf(r2);
      const float s = m[j] * inv * inv * inv;
      sx += dx * s;
      sy += dy * s;
      sz += dz * s;
    }
    e->ax[i] = sx;
    e->ay[i] = sy;
    e->az[i] = sz;
  }
}

int main(int argc, char **argv) {
  struct opts o = parse_opts(argc, argv);
  struct env e;
  int64_t d[1];
  e.x = read_array(" f32", 1, d, 4); e.n = d[0];
  e.y = read_array(" f32", 1, d, 4); if (d[0] != e.n) die("size mismatch");
  e.z = read_array(" f32", 1, d, 4); if (d[0] != e.n) die("size mismatch");
  e.m = read_array(" f32", 1, d, 4); if (d[0] != e.n) die("size mismatch");
  e.ax = malloc(4 * (size_t)e.n + 1);
  e.ay = malloc(4 * (size_t)e.n + 1);
  e.az = malloc(4 * (size_t)e.n + 1);
  run_timed(&o, body, &e);
  print_value(&o, " f32", 1, &e.n, e.ax, 4);
  print_value(&o, " f32", 1, &e.n, e.ay, 4);
  print_value(&o, " f32", 1, &e.n, e.az, 4);
  return 0;
}
