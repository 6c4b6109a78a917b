/* Reference for lstm.fut: the ADBench D-LSTM objective and its gradient
 * with respect to the main and extra parameters, by back-propagation
 * through time written out by hand. f64.
 *
 *   -e objective   the objective (f64)
 *   -e gradient    its gradient: [2l][4b]f64, [3][b]f64
 *
 * The forward sweep of the gradient keeps every step's gates and states
 * (O(c·l·b) numbers); the backward sweep runs the steps in reverse,
 * carrying the adjoints of the hidden and cell states from one step to the
 * one before. Nothing here is worth running in parallel (each step depends
 * on the one before, and a layer is 14 numbers wide), so the OpenMP build
 * is the same sequential code. */
#include "futio.h"

struct env {
  int64_t l, b, c;
  const double *main_p, *extra, *state, *seq;
  /* Forward sweep, per step and layer, b numbers each. */
  double *hs, *cs;                   /* states after each step: [c][l][b] (step 0: the initial state) */
  double *fg, *ig, *og, *ch, *th;    /* gates, change and tanh(cell) per step: [c-1][l][b] */
  double *g_main, *g_extra;
  double result;
  int entry;
};

static inline double sigmoid(double x) { return 1 / (1 + exp(-x)); }

/* One step of one layer: h, c the layer's states before the step (h_out,
 * c_out after), x its input; the gates are stored when f etc. are given. */
static inline void layer(int64_t b, const double *restrict w, const double *restrict bias, const double *h,
                         const double *c, const double *x, double *h_out, double *c_out, double *f, double *ig,
                         double *og, double *ch, double *th) {
  for (int64_t j = 0; j < b; j++) {
    double fj = sigmoid(x[j] * w[j] + bias[j]);
    double ij = sigmoid(h[j] * w[b + j] + bias[b + j]);
    double oj = sigmoid(x[j] * w[2 * b + j] + bias[2 * b + j]);
    double cj = tanh(h[j] * w[3 * b + j] + bias[3 * b + j]);
    double cn = c[j] * fj + ij * cj;
    double tj = tanh(cn);
    c_out[j] = cn;
    h_out[j] = oj * tj;
    if (f) { f[j] = fj; ig[j] = ij; og[j] = oj; ch[j] = cj; th[j] = tj; }
  }
}

/* The forward sweep; returns Σ_t Σ_j seq[t+1][j]·(y_j - lse(y)). With
 * `keep`, the states after every step and the gates are stored. */
static double forward(struct env *e, int keep) {
  const int64_t l = e->l, b = e->b, c = e->c;
  const double *e0 = e->extra, *e1 = e->extra + b, *e2 = e->extra + 2 * b;
  double x[b], y[b];
  double *h = e->hs, *cl = e->cs; /* the current states, [l][b] */
  for (int64_t i = 0; i < l; i++) {
    memcpy(h + i * b, e->state + 2 * i * b, sizeof(double) * (size_t)b);
    memcpy(cl + i * b, e->state + (2 * i + 1) * b, sizeof(double) * (size_t)b);
  }
  double total = 0;
  for (int64_t t = 0; t < c - 1; t++) {
    const double *in = e->seq + t * b;
    for (int64_t j = 0; j < b; j++) x[j] = in[j] * e0[j];
    double *hn = keep ? h + l * b : h, *cn = keep ? cl + l * b : cl;
    const double *xp = x;
    for (int64_t i = 0; i < l; i++) {
      const double *w = e->main_p + 2 * i * 4 * b, *bias = w + 4 * b;
      size_t at = (size_t)((t * l + i) * b);
      layer(b, w, bias, h + i * b, cl + i * b, xp, hn + i * b, cn + i * b, keep ? e->fg + at : NULL,
            e->ig + at, e->og + at, e->ch + at, e->th + at);
      xp = hn + i * b;
    }
    double s = 0;
    for (int64_t j = 0; j < b; j++) {
      y[j] = xp[j] * e1[j] + e2[j];
      s += exp(y[j]);
    }
    const double lse = log(s);
    const double *gold = in + b;
    for (int64_t j = 0; j < b; j++) total += gold[j] * (y[j] - lse);
    if (keep) { h = hn; cl = cn; }
  }
  return total;
}

static void backward(struct env *e) {
  const int64_t l = e->l, b = e->b, c = e->c;
  const double *e0 = e->extra, *e1 = e->extra + b, *e2 = e->extra + 2 * b;
  double *ge0 = e->g_extra, *ge1 = e->g_extra + b, *ge2 = e->g_extra + 2 * b;
  memset(e->g_main, 0, sizeof(double) * (size_t)(8 * l * b));
  memset(e->g_extra, 0, sizeof(double) * (size_t)(3 * b));
  double dh[l * b], dc[l * b], dxp[b], x[b], y[b];
  memset(dh, 0, sizeof dh);
  memset(dc, 0, sizeof dc);
  const double scale = -1.0 / (double)((c - 1) * b);
  for (int64_t t = c - 2; t >= 0; t--) {
    const double *in = e->seq + t * b, *gold = in + b;
    const double *hprev = e->hs + t * l * b, *cprev = e->cs + t * l * b, *hnew = e->hs + (t + 1) * l * b;
    const double *top = hnew + (l - 1) * b;
    /* The loss: y = top·e1 + e2, d/dy_j Σ g (y - lse y) = g_j - softmax(y)_j Σ g. */
    double z = 0, sg = 0;
    for (int64_t j = 0; j < b; j++) {
      y[j] = top[j] * e1[j] + e2[j];
      z += exp(y[j]);
      sg += gold[j];
    }
    for (int64_t j = 0; j < b; j++) {
      double dy = scale * (gold[j] - exp(y[j]) / z * sg);
      ge1[j] += dy * top[j];
      ge2[j] += dy;
      dxp[j] = dy * e1[j];
    }
    for (int64_t j = 0; j < b; j++) x[j] = in[j] * e0[j];
    for (int64_t i = l - 1; i >= 0; i--) {
      const double *w = e->main_p + 2 * i * 4 * b;
      double *gw = e->g_main + 2 * i * 4 * b, *gb = gw + 4 * b;
      const size_t at = (size_t)((t * l + i) * b);
      const double *f = e->fg + at, *ig = e->ig + at, *og = e->og + at, *ch = e->ch + at, *th = e->th + at;
      const double *h = hprev + i * b, *cp = cprev + i * b, *xin = i == 0 ? x : hnew + (i - 1) * b;
      double *dhi = dh + i * b, *dci = dc + i * b;
      for (int64_t j = 0; j < b; j++) {
        const double dhn = dxp[j] + dhi[j];
        const double dcn = dci[j] + dhn * og[j] * (1 - th[j] * th[j]);
        const double dzf = dcn * cp[j] * f[j] * (1 - f[j]);
        const double dzi = dcn * ch[j] * ig[j] * (1 - ig[j]);
        const double dzo = dhn * th[j] * og[j] * (1 - og[j]);
        const double dzc = dcn * ig[j] * (1 - ch[j] * ch[j]);
        gw[j] += dzf * xin[j];
        gb[j] += dzf;
        gw[b + j] += dzi * h[j];
        gb[b + j] += dzi;
        gw[2 * b + j] += dzo * xin[j];
        gb[2 * b + j] += dzo;
        gw[3 * b + j] += dzc * h[j];
        gb[3 * b + j] += dzc;
        dxp[j] = dzf * w[j] + dzo * w[2 * b + j];
        dhi[j] = dzi * w[b + j] + dzc * w[3 * b + j];
        dci[j] = dcn * f[j];
      }
    }
    for (int64_t j = 0; j < b; j++) ge0[j] += dxp[j] * in[j];
  }
}

static void body(void *p) {
  struct env *e = p;
  if (e->entry == 0) {
    e->result = -forward(e, 0) / (double)((e->c - 1) * e->b);
  } else {
    forward(e, 1);
    backward(e);
  }
}

int main(int argc, char **argv) {
  static const char *const entries[] = {"objective", "gradient", NULL};
  struct opts o = parse_opts_entries(argc, argv, entries);
  struct env e;
  int64_t dm[2], de[2], ds[2], dq[2];
  e.main_p = read_array(" f64", 2, dm, 8);
  e.extra = read_array(" f64", 2, de, 8);
  e.state = read_array(" f64", 2, ds, 8);
  e.seq = read_array(" f64", 2, dq, 8);
  e.b = de[1]; e.l = dm[0] / 2; e.c = dq[0];
  if (dm[0] % 2 != 0 || dm[1] != 4 * e.b || de[0] != 3 || ds[0] != dm[0] || ds[1] != e.b || dq[1] != e.b)
    die("inconsistent sizes");
  if (e.c < 2) die("the sequence needs at least two elements");
  e.entry = o.entry;
  const size_t states = (size_t)(e.c * e.l * e.b), gates = (size_t)((e.c - 1) * e.l * e.b);
  e.hs = malloc(sizeof(double) * states + 1);
  e.cs = malloc(sizeof(double) * states + 1);
  e.fg = malloc(sizeof(double) * gates + 1);
  e.ig = malloc(sizeof(double) * gates + 1);
  e.og = malloc(sizeof(double) * gates + 1);
  e.ch = malloc(sizeof(double) * gates + 1);
  e.th = malloc(sizeof(double) * gates + 1);
  e.g_main = malloc(sizeof(double) * (size_t)(8 * e.l * e.b) + 1);
  e.g_extra = malloc(sizeof(double) * (size_t)(3 * e.b) + 1);
  run_timed(&o, body, &e);
  if (o.entry == 0) {
    print_value(&o, " f64", 0, NULL, &e.result, 8);
  } else {
    print_value(&o, " f64", 2, dm, e.g_main, 8);
    print_value(&o, " f64", 2, de, e.g_extra, 8);
  }
  return 0;
}
