/* Reference for hotspot.fut: `iterations` explicit Euler steps of a 2-D heat
 * equation on a chip (temperature grid, power grid), with edge cells
 * reusing their own temperature for a missing neighbour. In f32.
 *
 * Each row is computed with its first and last cells peeled off, so the
 * interior loop reads j-1, j and j+1 without clamping and vectorises
 * (restrict pointers, `omp simd`); the clamped rows above and below are
 * chosen per row. With -fopenmp one parallel region runs all the steps,
 * the rows of each step shared among the threads (a barrier between
 * steps). */
#include "futio.h"

struct env { int32_t iters; int64_t r, c; const float *temp, *power; float *a, *b, *result; };

struct coef { float k, rx1, ry1, rz1, amb; };

static inline float cell(const struct coef *q, float t, float up, float down, float west, float east, float pw) {
  return t + q->k * (pw + (down + up - 2.0f * t) * q->ry1 + (east + west - 2.0f * t) * q->rx1 + (q->amb - t) * q->rz1);
}

static void step_row(const struct coef *q, int64_t r, int64_t c, int64_t i, const float *restrict cur,
                     const float *restrict power, float *restrict next) {
  const float *restrict up = cur + (i > 0 ? i - 1 : 0) * c;
  const float *restrict row = cur + i * c;
  const float *restrict down = cur + (i < r - 1 ? i + 1 : r - 1) * c;
  const float *restrict pw = power + i * c;
  float *restrict out = next + i * c;
  if (c == 0) return;
  if (c == 1) {
    out[0] = cell(q, row[0], up[0], down[0], row[0], row[0], pw[0]);
    return;
  }
  const float k = q->k, rx1 = q->rx1, ry1 = q->ry1, rz1 = q->rz1, amb = q->amb;
  out[0] = cell(q, row[0], up[0], down[0], row[0], row[1], pw[0]);
#pragma omp simd
  for (int64_t j = 1; j < c - 1; j++) {
    const float t = row[j];
    out[j] = t + k * (pw[j] + (down[j] + up[j] - 2.0f * t) * ry1 + (row[j + 1] + row[j - 1] - 2.0f * t) * rx1 +
                      (amb - t) * rz1);
  }
  out[c - 1] = cell(q, row[c - 1], up[c - 1], down[c - 1], row[c - 2], row[c - 1], pw[c - 1]);
}

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
  const struct coef q = {step / cap, 1.0f / rx, 1.0f / ry, 1.0f / rz, amb};

  memcpy(e->a, e->temp, sizeof(float) * (size_t)(r * c));
  float *cur = e->a, *next = e->b;
#pragma omp parallel firstprivate(cur, next)
  for (int32_t it = 0; it < e->iters; it++) {
#pragma omp for schedule(static)
    for (int64_t i = 0; i < r; i++) step_row(&q, r, c, i, cur, e->power, next);
    float *tmp = cur; cur = next; next = tmp;
  }
  e->result = e->iters % 2 == 0 ? e->a : e->b;
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
