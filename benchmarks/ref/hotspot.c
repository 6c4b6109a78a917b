/* Reference for hotspot.fut: `iterations` explicit Euler steps of a 2-D heat
 * equation on a chip (temperature grid, power grid), with edge cells
 * reusing their own temperature for a missing neighbour. In f32. */
#include "futio.h"

struct env { int32_t iters; int64_t r, c; const float *temp, *power; float *a, *b, *result; };

static void body(void *p) {
  struct env *e = p;
  const int64_t r = e->r, c = e->c;
  const float chip_height = 0.016f, chip_width = 0.016f, t_chip = 0.0005f;
  const float k_si = 100.0f, spec_heat = 1.75e6f, max_pd = 3.0e6f;
  const float precision = 0.001f, amb = 80.0f;
  float grid_h = chip_height / (float)r;
  float grid_w = chip_width / (float)c;
  float cap = 0.5f * spec_heat * t_chip * grid_w * grid_h;
  float rx = grid_w / (2.0f * k_si * t_chip * grid_h);
  float ry = grid_h / (2.0f * k_si * t_chip * grid_w);
  float rz = t_chip / (k_si * grid_h * grid_w);
  float max_slope = max_pd / (0.5f * t_chip * spec_heat);
  float step = precision / max_slope;
  float k = step / cap, rx1 = 1.0f / rx, ry1 = 1.0f / ry, rz1 = 1.0f / rz;

  memcpy(e->a, e->temp, sizeof(float) * (size_t)(r * c));
  float *cur = e->a, *next = e->b;
  for (int32_t it = 0; it < e->iters; it++) {
    for (int64_t i = 0; i < r; i++) {
      const float *up = cur + (i > 0 ? i - 1 : 0) * c;
      const float *row = cur + i * c;
      const float *down = cur + (i < r - 1 ? i + 1 : r - 1) * c;
      const float *pw = e->power + i * c;
      float *out = next + i * c;
      for (int64_t j = 0; j < c; j++) {
        float t = row[j];
        float w = row[j > 0 ? j - 1 : 0];
        float east = row[j < c - 1 ? j + 1 : c - 1];
        out[j] = t + k * (pw[j] + (down[j] + up[j] - 2.0f * t) * ry1 +
                          (east + w - 2.0f * t) * rx1 + (amb - t) * rz1);
      }
    }
    float *tmp = cur; cur = next; next = tmp;
  }
  e->result = cur;
}

int main(int argc, char **argv) {
  struct opts o = parse_opts(argc, argv);
  struct env e;
  int64_t d[2], d2[2];
  e.iters = read_i32();
  e.temp = read_array(" f32", 2, d, 4);
  e.power = read_array(" f32", 2, d2, 4);
  if (d[0] != d2[0] || d[1] != d2[1]) die("size mismatch");
  e.r = d[0]; e.c = d[1];
  e.a = malloc(4 * (size_t)(e.r * e.c) + 1);
  e.b = malloc(4 * (size_t)(e.r * e.c) + 1);
  run_timed(&o, body, &e);
  print_value(&o, " f32", 2, d, e.result, 4);
  return 0;
}
