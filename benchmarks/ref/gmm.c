/* Reference for gmm.fut: the ADBench Gaussian mixture model objective and
 * its gradient with respect to (alphas, means, icf), derived by hand. f64.
 *
 *   -e objective   the objective (f64)
 *   -e gradient    its gradient: [K]f64, [K][d]f64, [K][d*(d+1)/2]f64
 *
 * Notation (see gmm.fut): xc = x_i - μ_k, y = Q_k xc, β_ik = α_k + Σ_j
 * icf_kj - ½‖y‖² (j over the diagonal), w_ik = exp(β_ik - logsumexp_k β_ik).
 * The gradient:
 *   ∂/∂α_k      = Σ_i w_ik - n·softmax(α)_k
 *   ∂/∂μ_k      = Σ_i w_ik Q_kᵀ y
 *   ∂/∂Q_k,rc   = -Σ_i w_ik y_r xc_c                                    (r ≥ c)
 *   ∂/∂icf_kc   = Σ_i w_ik + exp(icf_kc)·∂/∂Q_k,cc + γ² exp(2 icf_kc) - m  (diagonal)
 *   ∂/∂L_k,rc   = ∂/∂Q_k,rc + γ² L_k,rc                                 (r > c)
 *
 * Layout: every call first copies each Q_k into columns padded for the
 * vector unit: column c holds rows c rounded down to a multiple of 8 up
 * to d, zeros above the diagonal. Q xc is then a sum of full-width axpys
 * down the columns, and Qᵀy (with the outer-product accumulation into
 * ∂Q) dot products down the same columns. Points go four at a time
 * through each column (one load of Q serves four points), in blocks of PB
 * points with the component loop outside, so Q_k and ∂Q_k stay in the
 * cache while a block uses them. The gradient keeps a block's y = Q_k xc
 * for all components (PB·K·d numbers) between its forward and backward
 * parts, rather than computing them twice. With -fopenmp the blocks are
 * shared among the threads, each accumulating the gradient privately. */
#include "futio.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#define PB 32 /* points per block, a multiple of 4 */
#define PI 3.14159265358979323846

struct env {
  int64_t K, d, t, n, m;
  double gamma;
  const double *alphas, *means, *icf, *x;
  double *qdiag, *sum_qs;          /* [K][d], [K] */
  int64_t qsz;                     /* numbers in one padded Q */
  double *qpad;                    /* [K][qsz] */
  double *beta;                    /* [n][K]: β, then the weights w */
  double *g_alpha, *g_means, *g_icf, *g_qpad;
  double result;
  int entry;
};

static inline int64_t col_start(int64_t c) { return c & ~(int64_t)7; }

/* y_q = Q xc_q for the four vectors xc_q = xc[q*d ..] (q < 4). */
static inline void qtimes4(int64_t d, const double *restrict P, const double *restrict xc, double *restrict y) {
  for (int64_t r = 0; r < 4 * d; r++) y[r] = 0;
  double *restrict y0 = y, *restrict y1 = y + d, *restrict y2 = y + 2 * d, *restrict y3 = y + 3 * d;
  for (int64_t c = 0; c < d; c++) {
    const double v0 = xc[c], v1 = xc[d + c], v2 = xc[2 * d + c], v3 = xc[3 * d + c];
    const int64_t s = col_start(c);
#pragma omp simd
    for (int64_t r = s; r < d; r++) {
      const double q = P[r - s];
      y0[r] += q * v0;
      y1[r] += q * v1;
      y2[r] += q * v2;
      y3[r] += q * v3;
    }
    P += d - s;
  }
}

/* xc_q = x_{i+q} - μ for q < 4; the points past `last` repeat point i. */
static inline void centre4(int64_t d, const double *x, int64_t i, int64_t last, const double *mu, double *xc) {
  for (int64_t q = 0; q < 4; q++) {
    const double *xi = x + (i + q <= last ? i + q : i) * d;
#pragma omp simd
    for (int64_t j = 0; j < d; j++) xc[q * d + j] = xi[j] - mu[j];
  }
}

static inline double logsumexp(const double *v, int64_t n) {
  double mx = v[0];
  for (int64_t i = 1; i < n; i++) mx = v[i] > mx ? v[i] : mx;
  double s = 0;
  for (int64_t i = 0; i < n; i++) s += exp(v[i] - mx);
  return mx + log(s);
}

static double log_gamma_distrib(double a, int64_t p) {
  double r = 0.25 * (double)(p * (p - 1)) * log(PI);
  for (int64_t j = 1; j <= p; j++) r += lgamma(a + 0.5 * (double)(1 - j));
  return r;
}

/* exp of the diagonals, their sums and the padded Q_k. */
static void prepare(struct env *e) {
  const int64_t K = e->K, d = e->d, t = e->t;
  for (int64_t k = 0; k < K; k++) {
    const double *q = e->icf + k * t, *L = q + d;
    double s = 0;
    for (int64_t j = 0; j < d; j++) {
      s += q[j];
      e->qdiag[k * d + j] = exp(q[j]);
    }
    e->sum_qs[k] = s;
    double *P = e->qpad + k * e->qsz;
    for (int64_t c = 0; c < d; c++)
      for (int64_t r = col_start(c); r < d; r++) *P++ = r < c ? 0 : r == c ? e->qdiag[k * d + c] : *L++;
  }
}

/* β for every point and component; returns Σ_i logsumexp_k β_ik. */
static double compute_beta(struct env *e) {
  const int64_t K = e->K, d = e->d, n = e->n;
  const int64_t blocks = (n + PB - 1) / PB;
  double slse = 0;
#pragma omp parallel for schedule(static) reduction(+ : slse)
  for (int64_t b = 0; b < blocks; b++) {
    const int64_t i0 = b * PB, i1 = i0 + PB < n ? i0 + PB : n;
    double xc[4 * d], y[4 * d];
    for (int64_t k = 0; k < K; k++) {
      const double *mu = e->means + k * d, *P = e->qpad + k * e->qsz;
      const double base = e->alphas[k] + e->sum_qs[k];
      for (int64_t i = i0; i < i1; i += 4) {
        centre4(d, e->x, i, i1 - 1, mu, xc);
        qtimes4(d, P, xc, y);
        for (int64_t q = 0; q < 4 && i + q < i1; q++) {
          double sq = 0;
#pragma omp simd reduction(+ : sq)
          for (int64_t j = 0; j < d; j++) sq += y[q * d + j] * y[q * d + j];
          e->beta[(i + q) * K + k] = base - 0.5 * sq;
        }
      }
    }
    for (int64_t i = i0; i < i1; i++) slse += logsumexp(e->beta + i * K, K);
  }
  return slse;
}

static void gradient(struct env *e) {
  const int64_t K = e->K, d = e->d, n = e->n, qsz = e->qsz;
  const int64_t blocks = (n + PB - 1) / PB;
  memset(e->g_means, 0, sizeof(double) * (size_t)(K * d));
  memset(e->g_qpad, 0, sizeof(double) * (size_t)(K * qsz));
#pragma omp parallel
  {
    double *gm = e->g_means, *gq = e->g_qpad;
#ifdef _OPENMP
    const int private_acc = omp_get_num_threads() > 1;
#else
    const int private_acc = 0;
#endif
    if (private_acc) {
      gm = calloc((size_t)(K * d), sizeof(double));
      gq = calloc((size_t)(K * qsz), sizeof(double));
      if (!gm || !gq) die("out of memory");
    }
    /* The block's Q_k xc for every component: [K][PB][d]. */
    double *ys = malloc(sizeof(double) * (size_t)(K * PB * d));
    if (!ys) die("out of memory");
    double xc[4 * d];
#pragma omp for schedule(static)
    for (int64_t b = 0; b < blocks; b++) {
      const int64_t i0 = b * PB, i1 = i0 + PB < n ? i0 + PB : n;
      /* Forward: β as in compute_beta, keeping y. */
      for (int64_t k = 0; k < K; k++) {
        const double *mu = e->means + k * d, *P = e->qpad + k * qsz;
        const double base = e->alphas[k] + e->sum_qs[k];
        for (int64_t i = i0; i < i1; i += 4) {
          double *y = ys + (k * PB + (i - i0)) * d;
          centre4(d, e->x, i, i1 - 1, mu, xc);
          qtimes4(d, P, xc, y);
          for (int64_t q = 0; q < 4 && i + q < i1; q++) {
            double sq = 0;
#pragma omp simd reduction(+ : sq)
            for (int64_t j = 0; j < d; j++) sq += y[q * d + j] * y[q * d + j];
            e->beta[(i + q) * K + k] = base - 0.5 * sq;
          }
        }
      }
      /* The weights w_ik = softmax_k(β_i), in place of β. */
      for (int64_t i = i0; i < i1; i++) {
        double *bi = e->beta + i * K;
        const double l = logsumexp(bi, K);
        for (int64_t k = 0; k < K; k++) bi[k] = exp(bi[k] - l);
      }
      /* Backward. */
      for (int64_t k = 0; k < K; k++) {
        const double *mu = e->means + k * d, *Pk = e->qpad + k * qsz;
        double *gmk = gm + k * d, *gqk = gq + k * qsz;
        for (int64_t i = i0; i < i1; i += 4) {
          double w[4];
          for (int64_t q = 0; q < 4; q++) w[q] = i + q < i1 ? e->beta[(i + q) * K + k] : 0;
          centre4(d, e->x, i, i1 - 1, mu, xc);
          const double *y0 = ys + (k * PB + (i - i0)) * d, *y1 = y0 + d, *y2 = y0 + 2 * d, *y3 = y0 + 3 * d;
          const double *P = Pk;
          double *G = gqk;
          for (int64_t c = 0; c < d; c++) {
            const int64_t s = col_start(c);
            const double a0 = -w[0] * xc[c], a1 = -w[1] * xc[d + c], a2 = -w[2] * xc[2 * d + c],
                         a3 = -w[3] * xc[3 * d + c];
            double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
            for (int64_t r = s; r < d; r++) {
              const double q = P[r - s];
              s0 += q * y0[r];
              s1 += q * y1[r];
              s2 += q * y2[r];
              s3 += q * y3[r];
              G[r - s] += a0 * y0[r] + a1 * y1[r] + a2 * y2[r] + a3 * y3[r];
            }
            gmk[c] += w[0] * s0 + w[1] * s1 + w[2] * s2 + w[3] * s3;
            P += d - s;
            G += d - s;
          }
        }
      }
    }
    free(ys);
    if (private_acc) {
#pragma omp critical
      {
        for (int64_t j = 0; j < K * d; j++) e->g_means[j] += gm[j];
        for (int64_t j = 0; j < K * qsz; j++) e->g_qpad[j] += gq[j];
      }
      free(gm);
      free(gq);
    }
  }
  /* ∂α, and ∂Q back to icf's layout, with the prior's terms. */
  const int64_t t = e->t;
  const double la = logsumexp(e->alphas, K), g2 = e->gamma * e->gamma;
  for (int64_t k = 0; k < K; k++) {
    double sw = 0;
    for (int64_t i = 0; i < n; i++) sw += e->beta[i * K + k];
    e->g_alpha[k] = sw - (double)n * exp(e->alphas[k] - la);
    const double *G = e->g_qpad + k * qsz, *qd = e->qdiag + k * d, *L = e->icf + k * t + d;
    double *gd = e->g_icf + k * t, *gL = gd + d;
    for (int64_t c = 0; c < d; c++) {
      const int64_t s = col_start(c);
      gd[c] = sw + qd[c] * G[c - s] + g2 * qd[c] * qd[c] - (double)e->m;
      for (int64_t r = c + 1; r < d; r++, gL++, L++) *gL = G[r - s] + g2 * *L;
      G += d - s;
    }
  }
}

static void body(void *p) {
  struct env *e = p;
  const int64_t K = e->K, d = e->d, t = e->t, n = e->n;
  prepare(e);
  if (e->entry == 1) {
    gradient(e);
    return;
  }
  const double slse = compute_beta(e);
  /* The Wishart prior and the constants. */
  const double big_n = (double)(d + e->m + 1);
  const double c = big_n * (double)d * (log(e->gamma) - 0.5 * log(2.0)) - log_gamma_distrib(0.5 * big_n, d);
  double prior = 0;
  for (int64_t k = 0; k < K; k++) {
    double frob = 0;
    for (int64_t j = 0; j < d; j++) frob += e->qdiag[k * d + j] * e->qdiag[k * d + j];
    for (int64_t j = d; j < t; j++) frob += e->icf[k * t + j] * e->icf[k * t + j];
    prior += 0.5 * e->gamma * e->gamma * frob - (double)e->m * e->sum_qs[k];
  }
  prior -= (double)K * c;
  const double constant = -(double)(n * d) * 0.5 * log(2 * PI);
  e->result = constant + slse - (double)n * logsumexp(e->alphas, K) + prior;
}

int main(int argc, char **argv) {
  static const char *const entries[] = {"objective", "gradient", NULL};
  struct opts o = parse_opts_entries(argc, argv, entries);
  struct env e;
  int64_t da[1], dm[2], dq[2], dx[2];
  e.alphas = read_array(" f64", 1, da, 8);
  e.means = read_array(" f64", 2, dm, 8);
  e.icf = read_array(" f64", 2, dq, 8);
  e.x = read_array(" f64", 2, dx, 8);
  e.gamma = read_f64();
  e.m = read_i64();
  e.K = da[0]; e.d = dm[1]; e.t = dq[1]; e.n = dx[0];
  if (dm[0] != e.K || dq[0] != e.K || dx[1] != e.d || e.t != e.d * (e.d + 1) / 2)
    die("inconsistent sizes");
  if (e.K < 1 || e.d < 1) die("no components or no dimensions");
  e.entry = o.entry;
  e.qsz = 0;
  for (int64_t c = 0; c < e.d; c++) e.qsz += e.d - col_start(c);
  e.qdiag = malloc(sizeof(double) * (size_t)(e.K * e.d) + 1);
  e.sum_qs = malloc(sizeof(double) * (size_t)e.K + 1);
  e.qpad = malloc(sizeof(double) * (size_t)(e.K * e.qsz) + 1);
  e.beta = malloc(sizeof(double) * (size_t)(e.n * e.K) + 1);
  e.g_alpha = malloc(sizeof(double) * (size_t)e.K + 1);
  e.g_means = malloc(sizeof(double) * (size_t)(e.K * e.d) + 1);
  e.g_icf = malloc(sizeof(double) * (size_t)(e.K * e.t) + 1);
  e.g_qpad = malloc(sizeof(double) * (size_t)(e.K * e.qsz) + 1);
  run_timed(&o, body, &e);
  if (o.entry == 0) {
    print_value(&o, " f64", 0, NULL, &e.result, 8);
  } else {
    print_value(&o, " f64", 1, da, e.g_alpha, 8);
    print_value(&o, " f64", 2, dm, e.g_means, 8);
    print_value(&o, " f64", 2, dq, e.g_icf, 8);
  }
  return 0;
}
