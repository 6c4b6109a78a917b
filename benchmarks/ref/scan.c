/* Reference for scan.fut: the inclusive prefix sum of i32 values, with
 * wrap-around on overflow as in Futhark. */
#include "futio.h"

struct env { int64_t n; const int32_t *xs; int32_t *out; };

static void body(void *p) {
  struct env *e = p;
  uint32_t acc = 0;
  for (int64_t i = 0; i < e->n; i++) {
    acc += (uint32_t)e->xs[i];
    e->out[i] = (int32_t)acc;
  }
}

int main(int argc, char **argv) {
  struct opts o = parse_opts(argc, argv);
  struct env e;
  int64_t d[1];
  e.xs = read_array(" i32", 1, d, 4);
  e.n = d[0];
  e.out = malloc(4 * (size_t)e.n + 1);
  run_timed(&o, body, &e);
  print_value(&o, " i32", 1, &e.n, e.out, 4);
  return 0;
}
