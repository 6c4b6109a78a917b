/* Reference for nbody.fut: the acceleration of every body from all others
 * (softened gravity, G = 1, eps^2 = 0.01), in f32, summed in index order. */
#include "futio.h"

struct env { int64_t n; const float *x, *y, *z, *m; float *ax, *ay, *az; };

static void body(void *p) {
  struct env *e = p;
  for (int64_t i = 0; i < e->n; i++) {
    float xi = e->x[i], yi = e->y[i], zi = e->z[i];
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    for (int64_t j = 0; j < e->n; j++) {
      float dx = e->x[j] - xi, dy = e->y[j] - yi, dz = e->z[j] - zi;
      float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
      float inv = 1.0f / sqrtf(r2);
      float s = e->m[j] * inv * inv * inv;
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
