/* Reference for mandelbrot.fut: escape counts of a w×h grid over
 * [-2.25, 0.75] × [-1.5, 1.5], at most `limit` iterations, in f32. */
#include "futio.h"

struct env { int64_t w, h; int32_t limit; int32_t *out; };

static void body(void *p) {
  struct env *e = p;
  for (int64_t y = 0; y < e->h; y++) {
    float ci = -1.5f + 3.0f * (float)y / (float)e->h;
    for (int64_t x = 0; x < e->w; x++) {
      float cr = -2.25f + 3.0f * (float)x / (float)e->w;
      float zr = 0.0f, zi = 0.0f;
      int32_t i = 0;
      while (i < e->limit && zr * zr + zi * zi <= 4.0f) {
        float nr = zr * zr - zi * zi + cr;
        float ni = 2.0f * zr * zi + ci;
        zr = nr;
        zi = ni;
        i++;
      }
      e->out[y * e->w + x] = i;
    }
  }
}

int main(int argc, char **argv) {
  struct opts o = parse_opts(argc, argv);
  struct env e;
  e.w = read_i64();
  e.h = read_i64();
  e.limit = read_i32();
  e.out = malloc(sizeof(int32_t) * (size_t)(e.w * e.h) + 1);
  run_timed(&o, body, &e);
  int64_t dims[2] = {e.h, e.w};
  print_value(&o, " i32", 2, dims, e.out, 4);
  return 0;
}
