/* Reference for histogram.fut: counts of x mod k over non-negative i32
 * values x, into k bins. */
#include "futio.h"

struct env { int64_t n, k; const int32_t *xs; int32_t *bins; };

static void body(void *p) {
  struct env *e = p;
  memset(e->bins, 0, sizeof(int32_t) * (size_t)e->k);
  for (int64_t i = 0; i < e->n; i++) {
    int64_t b = (int64_t)e->xs[i] % e->k;
    if (b < 0) b += e->k; /* Futhark's % rounds towards negative infinity */
    e->bins[b]++;
  }
}

int main(int argc, char **argv) {
  struct opts o = parse_opts(argc, argv);
  struct env e;
  int64_t d[1];
  e.k = read_i64();
  e.xs = read_array(" i32", 1, d, 4);
  e.n = d[0];
  if (e.k < 1) die("k must be positive");
  e.bins = malloc(4 * (size_t)e.k + 1);
  run_timed(&o, body, &e);
  print_value(&o, " i32", 1, &e.k, e.bins, 4);
  return 0;
}
