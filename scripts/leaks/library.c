/* Drives the `--library` build of leaks.fut (scripts/leaks.sh): every
 * entry point fails many times on one context, and after each round the
 * context must hold exactly the memory of the values still alive. The
 * generated C is included whole so the context's byte counter and list of
 * live blocks can be read; a real client sees only the header. */
#include "leaks.c"

static int failures;

#define CHECK(cond, ...)                                     \
  do {                                                       \
    if (!(cond)) {                                           \
      fprintf(stderr, "library.c:%d: ", __LINE__);           \
      fprintf(stderr, __VA_ARGS__);                          \
      fprintf(stderr, "\n");                                 \
      failures++;                                            \
    }                                                        \
  } while (0)

static int64_t live_blocks(struct futhark_context *ctx) {
  int64_t n = 0;
  for (og_mem *m = ctx->og.live.next; m != &ctx->og.live; m = m->next) n++;
  return n;
}

/* Expects a failed call with the given code, and takes its error message. */
static void expect_fail(struct futhark_context *ctx, int rc, int code, const char *what) {
  CHECK(rc == code, "%s: returned %d, expected %d", what, rc, code);
  char *e = futhark_context_get_error(ctx);
  CHECK(e != NULL, "%s: no error message", what);
  free(e);
}

int main(void) {
  enum { N = 1000 };
  const int64_t n = N, ok = 5, bad = N;
  static int64_t data[N], got[N];
  for (int i = 0; i < N; i++) data[i] = i;
  struct futhark_context_config *cfg = futhark_context_config_new();
  struct futhark_context *ctx = futhark_context_new(cfg);
  struct futhark_i64_1d *keep = futhark_new_i64_1d(ctx, data, n);
  const int64_t kept = ctx->og.cur_bytes;
  for (int round = 0; round < 100; round++) {
    int64_t x;
    struct futhark_i64_1d *r = NULL, *a = futhark_new_i64_1d(ctx, data, n);
    struct futhark_opaque_tup3_arr1d_i64_arr1d_f64_i64 *t = NULL;
    expect_fail(ctx, futhark_entry_idx(ctx, &x, n, bad), 2, "idx");
    expect_fail(ctx, futhark_entry_inloop(ctx, &r, n, bad), 2, "inloop");
    expect_fail(ctx, futhark_entry_sums(ctx, &x, n, bad), 2, "sums");
    expect_fail(ctx, futhark_entry_nested(ctx, &r, n, bad), 2, "nested");
    expect_fail(ctx, futhark_entry_held(ctx, &r, a, bad), 2, "held");
    expect_fail(ctx, futhark_entry_held(ctx, &r, keep, bad), 2, "held (kept input)");
    expect_fail(ctx, futhark_entry_several(ctx, &t, n, bad), 2, "several");
    expect_fail(ctx, futhark_entry_huge(ctx, &r, n, bad), 3, "huge");
    /* The inputs of the failed calls are intact and usable. */
    CHECK(futhark_values_i64_1d(ctx, a, got) == 0 && memcmp(got, data, sizeof data) == 0, "input changed");
    CHECK(futhark_entry_held(ctx, &r, a, ok) == 0, "held after failures");
    futhark_free_i64_1d(ctx, r);
    CHECK(futhark_entry_idx(ctx, &x, n, ok) == 0 && x == 11, "idx after failures: %lld", (long long)x);
    CHECK(futhark_entry_several(ctx, &t, n, ok) == 0, "several after failures");
    futhark_free_opaque_tup3_arr1d_i64_arr1d_f64_i64(ctx, t);
    /* Consumed by the failing call; only freed afterwards. */
    expect_fail(ctx, futhark_entry_consume(ctx, &r, a, bad), 2, "consume");
    futhark_free_i64_1d(ctx, a);
    CHECK(ctx->og.cur_bytes == kept, "round %d: %lld bytes live, expected %lld", round,
          (long long)ctx->og.cur_bytes, (long long)kept);
    CHECK(live_blocks(ctx) == 1, "round %d: %lld blocks live, expected 1", round, (long long)live_blocks(ctx));
    if (failures > 0) break;
  }
  CHECK(futhark_values_i64_1d(ctx, keep, got) == 0 && memcmp(got, data, sizeof data) == 0, "kept value changed");
  futhark_free_i64_1d(ctx, keep);
  CHECK(ctx->og.cur_bytes == 0 && live_blocks(ctx) == 0, "memory left at the end: %lld bytes",
        (long long)ctx->og.cur_bytes);
  /* A value may outlive its context (freeing it must not touch the context). */
  struct futhark_i64_1d *late = futhark_new_i64_1d(ctx, data, n);
  futhark_context_free(ctx);
  futhark_free_i64_1d(NULL, late);
  futhark_context_config_free(cfg);
  if (failures == 0) printf("library: no memory left behind by failed calls\n");
  return failures != 0;
}
