/* ogham runtime, core: the context, error reporting, reference-counted
 * memory blocks and strided array views.
 *
 * An array value is a view: a memory block plus an offset, a shape and
 * strides (all in elements), so slicing, transposing and reshaping a
 * contiguous array cost no copy. Memory blocks are reference counted; the
 * generated code holds one reference per owning variable. */
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdarg.h>
#include <errno.h>
#include <time.h>
#include <limits.h>
#include <ctype.h>
#if OG_MULTICORE
#include <pthread.h>
#include <unistd.h>
#endif
#if OG_TUNE_MALLOC && defined(__GLIBC__)
#include <malloc.h>
#endif

#define OG_MAX_RANK 8

/* A reference-counted block of memory; the data follows the header, which is
 * 16 bytes so that the data keeps malloc's alignment. */
typedef struct og_mem {
  int64_t refcount;
  int64_t bytes;
} og_mem;

static inline unsigned char *og_mem_data(og_mem *m) { return (unsigned char *)(m + 1); }

/* A strided view of an array. Unused trailing shape/stride slots are zero. */
typedef struct og_arr {
  og_mem *mem;
  int64_t offset;
  int64_t shape[OG_MAX_RANK];
  int64_t stride[OG_MAX_RANK];
} og_arr;

struct og_pool;

typedef struct og_ctx {
  char *error;             /* the first error, owned; NULL when none */
  int num_threads;
  struct og_pool *pool;
  int64_t cur_bytes, peak_bytes;
#if OG_MULTICORE
  pthread_mutex_t lock;    /* guards error and the byte counters */
#endif
} og_ctx;

static inline void og_ctx_lock(og_ctx *ctx) {
#if OG_MULTICORE
  pthread_mutex_lock(&ctx->lock);
#else
  (void)ctx;
#endif
}

static inline void og_ctx_unlock(og_ctx *ctx) {
#if OG_MULTICORE
  pthread_mutex_unlock(&ctx->lock);
#else
  (void)ctx;
#endif
}

/* Records a run-time error (only the first one is kept, as later ones are
 * usually consequences) and returns 1, the failure code of generated functions.
 * `loc` is the source location, or NULL. */
static inline int og_fail(og_ctx *ctx, const char *loc, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  size_t n = strlen(msg) + (loc ? strlen(loc) : 0) + 64;
  char *full = malloc(n);
  if (full != NULL) {
    if (loc != NULL) {
      snprintf(full, n, "%s\n\nBacktrace:\n-> #0  %s\n", msg, loc);
    } else {
      snprintf(full, n, "%s\n", msg);
    }
  }
  og_ctx_lock(ctx);
  if (ctx->error == NULL) {
    ctx->error = full;
  } else {
    free(full);
  }
  og_ctx_unlock(ctx);
  return 1;
}

/* Takes the pending error message (the caller frees it). */
static inline char *og_take_error(og_ctx *ctx) {
  og_ctx_lock(ctx);
  char *e = ctx->error;
  ctx->error = NULL;
  og_ctx_unlock(ctx);
  return e;
}

/* Allocates a block of `bytes` bytes with one reference; NULL (with an error
 * recorded) when out of memory. */
static inline og_mem *og_mem_alloc(og_ctx *ctx, int64_t bytes, const char *loc) {
  if (bytes < 0 || (uint64_t)bytes > SIZE_MAX - sizeof(og_mem)) {
    og_fail(ctx, loc, "Out of memory: cannot allocate %lld bytes.", (long long)bytes);
    return NULL;
  }
#if OG_TUNE_MALLOC && defined(__GLIBC__)
  /* Executables only (a library must not retune its host's malloc): glibc
   * serves large blocks with mmap and unmaps them on free, so every run of
   * an entry point pays the page faults of its fresh arrays again (for a
   * 400 MB scan result more than the scan itself). Keeping freed memory in
   * the heap lets later allocations reuse pages already faulted in, like
   * the free list of Futhark's runtime. */
  static int tuned;
  if (!__atomic_exchange_n(&tuned, 1, __ATOMIC_RELAXED)) {
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
  }
#endif
  og_mem *m = malloc(sizeof(og_mem) + (size_t)bytes);
  if (m == NULL) {
    og_fail(ctx, loc, "Out of memory: cannot allocate %lld bytes.", (long long)bytes);
    return NULL;
  }
  m->refcount = 1;
  m->bytes = bytes;
  og_ctx_lock(ctx);
  ctx->cur_bytes += bytes;
  if (ctx->cur_bytes > ctx->peak_bytes) ctx->peak_bytes = ctx->cur_bytes;
  og_ctx_unlock(ctx);
  return m;
}

/* The context is needed to count bytes; a global pointer keeps og_unref's
 * signature small, as it is called very often. */
static og_ctx *og_global_ctx;

static inline void og_ref(og_mem *m) {
  if (m == NULL) return;
#if OG_MULTICORE
  __atomic_add_fetch(&m->refcount, 1, __ATOMIC_RELAXED);
#else
  m->refcount++;
#endif
}

static inline void og_unref(og_mem *m) {
  if (m == NULL) return;
#if OG_MULTICORE
  int64_t left = __atomic_sub_fetch(&m->refcount, 1, __ATOMIC_ACQ_REL);
#else
  int64_t left = --m->refcount;
#endif
  if (left == 0) {
    if (og_global_ctx != NULL) {
      og_ctx_lock(og_global_ctx);
      og_global_ctx->cur_bytes -= m->bytes;
      og_ctx_unlock(og_global_ctx);
    }
    free(m);
  }
}

/* The number of elements of a shape, or -1 when a dimension is negative or
 * the count overflows. */
static inline int64_t og_shape_elems(int rank, const int64_t *shape) {
  int64_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (shape[i] < 0) return -1;
    if (__builtin_mul_overflow(n, shape[i], &n)) return -1;
  }
  return n;
}

/* Sets row-major strides for a contiguous array of the given shape. */
static inline void og_set_row_major(og_arr *a, int rank) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    a->stride[i] = s;
    s *= a->shape[i];
  }
  for (int i = rank; i < OG_MAX_RANK; i++) {
    a->shape[i] = 0;
    a->stride[i] = 0;
  }
}

/* Allocates a fresh contiguous array of the given shape into `out` (one
 * reference, owned by the caller). Returns 1 on error. */
static inline int og_alloc_arr(og_ctx *ctx, og_arr *out, int64_t elem_size, int rank, const int64_t *shape, const char *loc) {
  memset(out, 0, sizeof *out);
  int64_t n = og_shape_elems(rank, shape);
  if (n < 0) {
    char buf[256];
    int k = 0;
    for (int i = 0; i < rank && k < 200; i++) k += snprintf(buf + k, sizeof buf - (size_t)k, "[%lld]", (long long)shape[i]);
    buf[k] = 0;
    return og_fail(ctx, loc, "Invalid array shape %s.", buf);
  }
  int64_t bytes;
  if (__builtin_mul_overflow(n, elem_size, &bytes)) {
    return og_fail(ctx, loc, "Out of memory: array too large.");
  }
  out->mem = og_mem_alloc(ctx, bytes, loc);
  if (out->mem == NULL) return 1;
  out->offset = 0;
  for (int i = 0; i < rank; i++) out->shape[i] = shape[i];
  og_set_row_major(out, rank);
  return 0;
}

/* Whether the view is row-major contiguous (offset may be nonzero). */
static inline bool og_is_contiguous(const og_arr *a, int rank) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    if (a->shape[i] != 1 && a->stride[i] != s) return false;
    s *= a->shape[i];
  }
  return true;
}

/* Copies elements between two views of the same shape (`rank` dimensions
 * starting at `dim`), elementwise; the innermost contiguous dimension is one memcpy. */
static inline void og_copy_rec(int64_t esize, int rank, int dim, const int64_t *shape, unsigned char *dst, int64_t doff,
                        const int64_t *dstride, const unsigned char *src, int64_t soff, const int64_t *sstride) {
  if (rank == 0) {
    memmove(dst + doff * esize, src + soff * esize, (size_t)esize);
    return;
  }
  int64_t n = shape[dim];
  if (dim == rank - 1) {
    if (dstride[dim] == 1 && sstride[dim] == 1) {
      if (n > 0) memmove(dst + doff * esize, src + soff * esize, (size_t)(n * esize));
      return;
    }
    for (int64_t i = 0; i < n; i++) {
      memmove(dst + (doff + i * dstride[dim]) * esize, src + (soff + i * sstride[dim]) * esize, (size_t)esize);
    }
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    og_copy_rec(esize, rank, dim + 1, shape, dst, doff + i * dstride[dim], dstride, src, soff + i * sstride[dim], sstride);
  }
}

/* Copies the elements of `src` into `dst` (same shape). */
static inline void og_copy_into(const og_arr *dst, const og_arr *src, int64_t esize, int rank) {
  if (og_shape_elems(rank, src->shape) == 0) return;
  if (og_is_contiguous(dst, rank) && og_is_contiguous(src, rank)) {
    int64_t n = og_shape_elems(rank, src->shape);
    memmove(og_mem_data(dst->mem) + dst->offset * esize, og_mem_data(src->mem) + src->offset * esize, (size_t)(n * esize));
    return;
  }
  og_copy_rec(esize, rank, 0, src->shape, og_mem_data(dst->mem), dst->offset, dst->stride, og_mem_data(src->mem),
              src->offset, src->stride);
}

/* A fresh contiguous copy of `src`. Returns 1 on error. */
static inline int og_copy_fresh(og_ctx *ctx, og_arr *out, const og_arr *src, int64_t esize, int rank, const char *loc) {
  if (og_alloc_arr(ctx, out, esize, rank, src->shape, loc)) return 1;
  og_copy_into(out, src, esize, rank);
  return 0;
}

/* The view of row `i` of `a` (rank `rank` > 0); no bounds check, no reference taken. */
static inline og_arr og_row(og_arr a, int rank, int64_t i) {
  og_arr r;
  r.mem = a.mem;
  r.offset = a.offset + i * a.stride[0];
  for (int d = 0; d + 1 < rank; d++) {
    r.shape[d] = a.shape[d + 1];
    r.stride[d] = a.stride[d + 1];
  }
  for (int d = rank - 1; d < OG_MAX_RANK; d++) {
    if (d >= 0) {
      r.shape[d] = 0;
      r.stride[d] = 0;
    }
  }
  return r;
}

/* Formats a shape as `[a][b]` into buf. */
static inline void og_shape_text(char *buf, size_t size, int rank, const int64_t *shape) {
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < rank && k + 24 < size; i++) k += (size_t)snprintf(buf + k, size - k, "[%lld]", (long long)shape[i]);
}

static inline int64_t og_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
