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
 * one before.
 *
 * Every step depends on the one before, but the cell is diagonal: channel
 * j of every layer's states depends only on channel j of the input and of
 * the states before, and only the loss (a log-softmax over the channels of
 * each step's prediction) mixes channels, without feeding back into the
 * states. So the recurrence runs per range of channels, forward and
 * backward, and the loss per step: with -fopenmp each thread takes a
 * contiguous range of the channels (the inner loops run over the range,
 * several channels' exp and tanh in flight at once, as in the sequential
 * build over all of them), and the steps' losses are shared among the
 * threads. The sequential build runs the same code with one range. Its
 * gradient is bit-identical to computing the loss inside the recurrence,
 * as this reference did before; its objective adds each step's terms
 * before adding them to the total (as lstm.fut does), which moves the last
 * digits. (Before, it said nothing here was worth running in parallel,
 * and its OpenMP build ran the sequential code.) */
#include "futio.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* A range of channels [j0, j1) (w of them) and what the forward sweep
 * keeps of them: states [c][l][w] (step 0: the initial state), gates,
 * change and tanh(cell) [c-1][l][w], the top layer's hidden state
 * [c-1][w]. Each range has arrays of its own, so that threads write no
 * cache line another one writes (channel j of a [..][b] row shares its
 * line with its neighbours); the gradient of a range's columns is
 * accumulated in its own arrays too, and written out at the end. */
struct range {
  int64_t j0, j1, w;
  double *hs, *cs, *fg, *ig, *og, *ch, *th, *top;
  double *gw, *ge;  /* the range's gradient: [2l][4][w] and [3][w] */
};

struct env {
  int64_t l, b, c;
  const double *main_p, *extra, *state, *seq;
  int nranges;      /* one per thread */
  struct range *ranges;
  double *term;     /* the objective's term per step: [c-1] */
  double *z, *sg;   /* per step: Σ_j exp(y_j), Σ_j seq[t+1][j] */
  double *g_main, *g_extra;
  double result;
  int entry;
};

static inline double sigmoid(double x) { return 1 / (1 + exp(-x)); }

/* One step of one layer for the w channels of a range: w and bias point at
 * the range's first channel in main's rows (gate g at g·b), h, c, x at its
 * states and input; the gates are stored when f etc. are given. */
static inline void layer(int64_t b, int64_t w_, const double *restrict w, const double *restrict bias, const double *h,
                         const double *c, const double *x, double *h_out, double *c_out, double *f, double *ig,
                         double *og, double *ch, double *th) {
  for (int64_t j = 0; j < w_; j++) {
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

/* The recurrence for a range: the top layer's hidden state after every
 * step into r->top, and with `keep` every step's states and gates (without
 * it, only the current states, in r->hs and r->cs). */
static void recurrence(const struct env *e, struct range *r, int keep) {
  const int64_t l = e->l, b = e->b, c = e->c, w = r->w, j0 = r->j0;
  const double *e0 = e->extra + j0;
  double x[w];
  double *h = r->hs, *cl = r->cs;
  for (int64_t i = 0; i < l; i++) {
    memcpy(h + i * w, e->state + 2 * i * b + j0, sizeof(double) * (size_t)w);
    memcpy(cl + i * w, e->state + (2 * i + 1) * b + j0, sizeof(double) * (size_t)w);
  }
  for (int64_t t = 0; t < c - 1; t++) {
    const double *in = e->seq + t * b + j0;
    for (int64_t j = 0; j < w; j++) x[j] = in[j] * e0[j];
    double *hn = keep ? h + l * w : h, *cn = keep ? cl + l * w : cl;
    const double *xp = x;
    for (int64_t i = 0; i < l; i++) {
      const double *wt = e->main_p + 2 * i * 4 * b + j0, *bias = wt + 4 * b;
      size_t at = (size_t)((t * l + i) * w);
      layer(b, w, wt, bias, h + i * w, cl + i * w, xp, hn + i * w, cn + i * w, keep ? r->fg + at : NULL,
            r->ig + at, r->og + at, r->ch + at, r->th + at);
      xp = hn + i * w;
    }
    memcpy(r->top + t * w, xp, sizeof(double) * (size_t)w);
    if (keep) { h = hn; cl = cn; }
  }
}

/* Runs `fn` on every range, one per thread. */
static void each_range(struct env *e, int keep, void (*fn)(const struct env *, struct range *, int)) {
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1) num_threads(e->nranges)
#endif
  for (int k = 0; k < e->nranges; k++) fn(e, &e->ranges[k], keep);
}

/* The top layer's hidden state of channel j after step t. */
static inline double top_of(const struct env *e, int64_t t, int64_t j) {
  for (int k = 0; k < e->nranges; k++) {
    const struct range *r = &e->ranges[k];
    if (j < r->j1) return r->top[t * r->w + (j - r->j0)];
  }
  return 0;
}

/* The forward sweep: the recurrence per range of channels, then each
 * step's loss; returns Σ_t Σ_j seq[t+1][j]·(y_j - lse(y)), summed over the
 * steps in order. */
static double forward(struct env *e, int keep) {
  const int64_t b = e->b, c = e->c;
  const double *e1 = e->extra + b, *e2 = e->extra + 2 * b;
  each_range(e, keep, recurrence);
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
  for (int64_t t = 0; t < c - 1; t++) {
    const double *gold = e->seq + (t + 1) * b;
    double y[b], s = 0, sg = 0;
    for (int64_t j = 0; j < b; j++) {
      y[j] = top_of(e, t, j) * e1[j] + e2[j];
      s += exp(y[j]);
      sg += gold[j];
    }
    const double lse = log(s);
    double term = 0;
    for (int64_t j = 0; j < b; j++) term += gold[j] * (y[j] - lse);
    e->term[t] = term;
    e->z[t] = s;
    e->sg[t] = sg;
  }
  double total = 0;
  for (int64_t t = 0; t < c - 1; t++) total += e->term[t];
  return total;
}

/* The backward sweep for a range: every adjoint it computes is of its
 * channels (the weights and biases of channel j are columns j of main,
 * and so are the extra parameters'), so ranges need no combining. */
static void backward_range(const struct env *e, struct range *r, int keep) {
  (void)keep;
  const int64_t l = e->l, b = e->b, c = e->c, w = r->w, j0 = r->j0;
  const double *e0 = e->extra + j0, *e1 = e->extra + b + j0, *e2 = e->extra + 2 * b + j0;
  double *ge0 = r->ge, *ge1 = r->ge + w, *ge2 = r->ge + 2 * w;
  memset(r->gw, 0, sizeof(double) * (size_t)(8 * l * w));
  memset(r->ge, 0, sizeof(double) * (size_t)(3 * w));
  double dh[l * w], dc[l * w], dxp[w], x[w];
  memset(dh, 0, sizeof dh);
  memset(dc, 0, sizeof dc);
  const double scale = -1.0 / (double)((c - 1) * b);
  for (int64_t t = c - 2; t >= 0; t--) {
    const double *in = e->seq + t * b + j0, *gold = in + b;
    const double *hprev = r->hs + t * l * w, *cprev = r->cs + t * l * w, *hnew = r->hs + (t + 1) * l * w;
    const double *top = hnew + (l - 1) * w;
    /* The loss: y = top·e1 + e2, d/dy_j Σ g (y - lse y) = g_j - softmax(y)_j Σ g. */
    const double z = e->z[t], sg = e->sg[t];
    for (int64_t j = 0; j < w; j++) {
      const double y = top[j] * e1[j] + e2[j];
      double dy = scale * (gold[j] - exp(y) / z * sg);
      ge1[j] += dy * top[j];
      ge2[j] += dy;
      dxp[j] = dy * e1[j];
    }
    for (int64_t j = 0; j < w; j++) x[j] = in[j] * e0[j];
    for (int64_t i = l - 1; i >= 0; i--) {
      const double *wt = e->main_p + 2 * i * 4 * b + j0;
      double *gw = r->gw + 2 * i * 4 * w, *gb = gw + 4 * w;
      const size_t at = (size_t)((t * l + i) * w);
      const double *f = r->fg + at, *ig = r->ig + at, *og = r->og + at, *ch = r->ch + at, *th = r->th + at;
      const double *h = hprev + i * w, *cp = cprev + i * w, *xin = i == 0 ? x : hnew + (i - 1) * w;
      double *dhi = dh + i * w, *dci = dc + i * w;
      for (int64_t j = 0; j < w; j++) {
        const double dhn = dxp[j] + dhi[j];
        const double dcn = dci[j] + dhn * og[j] * (1 - th[j] * th[j]);
        const double dzf = dcn * cp[j] * f[j] * (1 - f[j]);
        const double dzi = dcn * ch[j] * ig[j] * (1 - ig[j]);
        const double dzo = dhn * th[j] * og[j] * (1 - og[j]);
        const double dzc = dcn * ig[j] * (1 - ch[j] * ch[j]);
        gw[j] += dzf * xin[j];
        gb[j] += dzf;
        gw[w + j] += dzi * h[j];
        gb[w + j] += dzi;
        gw[2 * w + j] += dzo * xin[j];
        gb[2 * w + j] += dzo;
        gw[3 * w + j] += dzc * h[j];
        gb[3 * w + j] += dzc;
        dxp[j] = dzf * wt[j] + dzo * wt[2 * b + j];
        dhi[j] = dzi * wt[b + j] + dzc * wt[3 * b + j];
        dci[j] = dcn * f[j];
      }
    }
    for (int64_t j = 0; j < w; j++) ge0[j] += dxp[j] * in[j];
  }
  /* The range's columns of the gradient. */
  for (int64_t i = 0; i < 2 * l; i++)
    for (int64_t g = 0; g < 4; g++)
      memcpy(e->g_main + i * 4 * b + g * b + j0, r->gw + (i * 4 + g) * w, sizeof(double) * (size_t)w);
  for (int64_t k = 0; k < 3; k++) memcpy(e->g_extra + k * b + j0, r->ge + k * w, sizeof(double) * (size_t)w);
}

static void body(void *p) {
  struct env *e = p;
  if (e->entry == 0) {
    e->result = -forward(e, 0) / (double)((e->c - 1) * e->b);
  } else {
    forward(e, 1);
    each_range(e, 1, backward_range);
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
  /* One range of channels per thread, each of its own arrays. */
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  e.nranges = threads < e.b ? threads : (int)e.b;
  if (e.nranges < 1) e.nranges = 1;
  e.ranges = calloc((size_t)e.nranges, sizeof(struct range));
  for (int k = 0; k < e.nranges; k++) {
    struct range *r = &e.ranges[k];
    r->j0 = e.b * k / e.nranges;
    r->j1 = e.b * (k + 1) / e.nranges;
    r->w = r->j1 - r->j0;
    const size_t states = (size_t)(e.c * e.l * r->w), gates = (size_t)((e.c - 1) * e.l * r->w);
    r->hs = malloc(sizeof(double) * states + 64);
    r->cs = malloc(sizeof(double) * states + 64);
    r->fg = malloc(sizeof(double) * gates + 64);
    r->ig = malloc(sizeof(double) * gates + 64);
    r->og = malloc(sizeof(double) * gates + 64);
    r->ch = malloc(sizeof(double) * gates + 64);
    r->th = malloc(sizeof(double) * gates + 64);
    r->top = malloc(sizeof(double) * (size_t)((e.c - 1) * r->w) + 64);
    r->gw = malloc(sizeof(double) * (size_t)(8 * e.l * r->w) + 64);
    r->ge = malloc(sizeof(double) * (size_t)(3 * r->w) + 64);
  }
  e.term = malloc(sizeof(double) * (size_t)(e.c - 1) + 1);
  e.z = malloc(sizeof(double) * (size_t)(e.c - 1) + 1);
  e.sg = malloc(sizeof(double) * (size_t)(e.c - 1) + 1);
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
