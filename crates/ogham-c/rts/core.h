/* ogham runtime, core: the context, error reporting, reference-counted
 * memory blocks and strided array views.
 *
 * An array value is a view: a memory block plus an offset, a shape and
 * strides (all in elements), so slicing, transposing and reshaping a
 * contiguous array cost no copy. Memory blocks are reference counted; the
 * generated code holds one reference per owning variable. */

/* The runtime's mutable globals, and the program's definitions that the
 * boundary code (api.h, main.h) reads, are declared OG_GLOBAL: `static` in
 * the one self-contained C file ogham generates. A test executable is
 * instead linked from two files (`ogham_c::generate_split`): the program,
 * which defines them (OG_GLOBAL empty), and the boundary, the same for every
 * program of a configuration and so compiled once per test run, which
 * declares them (OG_GLOBAL extern, program.h). One object each, so the
 * scheduler's og_in_job and the block cache are the same in both. */
#ifndef OG_GLOBAL
#define OG_GLOBAL static
#endif
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
#include <sys/resource.h>
#if OG_MULTICORE
#include <pthread.h>
#include <unistd.h>
/* Set while this thread runs a chunk of a parallel job (scheduler.h). A
 * job is synchronous: the thread that starts it runs chunks, then waits
 * until every worker is done, and workers touch nothing outside jobs. So
 * a thread with og_in_job == 0 is the only one running the context's code,
 * and reference counts and the context's lists need no atomic operations
 * or lock there (the LSTM's objective, all small maps run on the calling
 * thread, spent a quarter of its time in atomic reference counts). */
OG_GLOBAL _Thread_local int og_in_job;
#endif
#if OG_TUNE_MALLOC && defined(__GLIBC__)
#include <malloc.h>
#endif

/* At -O3, GCC's loop analysis sometimes proves that a loop over a run-time
 * size would overflow its index arithmetic after 2^63 iterations and warns
 * (on by default, not from -Wall). No loop can run that long: every size
 * bounds an allocated array. The warning says nothing about the program. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Waggressive-loop-optimizations"
/* GCC 12's -Wuse-after-free (in -Wall) follows og_unref into its free()
 * and flags a later use of another view of the same block: it cannot know
 * the reference count was above one. The suite under AddressSanitizer is
 * what checks that no block is used after it is freed. */
#if __GNUC__ >= 12
#pragma GCC diagnostic ignored "-Wuse-after-free"
#endif
/* -Wstringop-overflow (on by default) takes the path where og_alloc_arr
 * made an empty block (size 0) into og_copy_rec's element copies, which
 * og_copy_into never reaches for zero elements: with the LSTM gradient's
 * copies inlined into a loop whose error paths are cold, GCC 12 warns
 * about writing 8 bytes into it. The suite under AddressSanitizer is what
 * checks that no copy writes outside its block. */
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
/* A function that calls itself on every path (`def f x = f x`) is a
 * program Futhark accepts: it runs forever only if called, which a branch
 * may never do. GCC 12 and Clang warn about it (-Winfinite-recursion, in
 * -Wall); the warning is about the program, not the generated code. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Winfinite-recursion"
#elif defined(__GNUC__) && __GNUC__ >= 12
#pragma GCC diagnostic ignored "-Winfinite-recursion"
#endif

/* The most dimensions an array view holds: the generated code defines it
   as the highest rank of the program's arrays, plus one for the chunk
   dimension of partial histograms, since every view is a struct of that
   many shapes and strides that the code copies by value. */
#ifndef OG_MAX_RANK
#define OG_MAX_RANK 16
#endif

/* The C type of the program's boolean variables: `bool`, except in blocks
   of generated code that redefine it as `int32_t`, which the C compiler
   vectorises along with 32-bit arithmetic where it does not vectorise
   `bool` (maps of while loops run in lanes). */
typedef bool og_bool;

/* Before a loop whose iterations are independent (a map's copy for unit
   strides, which writes only its fresh outputs): the C compiler may assume
   no dependence between them through memory, which it cannot prove for
   gathers such as a stencil's clamped neighbours. */
#if defined(__clang__)
#define OG_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define OG_IVDEP _Pragma("GCC ivdep")
#else
#define OG_IVDEP
#endif

/* After OG_IVDEP, before a loop of a constant 2 to 16 iterations (a narrow
   register tile's row, one vector; the lanes of several jammed rows):
   GCC unrolls such loops completely before its vectorizer runs, and then
   vectorises across the wrong dimension (k-means with 16 centres: gathers
   and transposes, 2.2x slower; four rows of GMM's dot products: 3.5x
   slower). `unroll 1` keeps the loop, which the vectorizer makes vector
   operations. Clang vectorises first. */
#if defined(__GNUC__) && !defined(__clang__)
#define OG_SHORT_VECTOR _Pragma("GCC unroll 1")
#else
#define OG_SHORT_VECTOR
#endif

/* After OG_IVDEP, before a loop of a constant number of iterations (at most
   256) that fills a local array with one value (a register tile's
   accumulators starting at the neutral element): unrolled completely before
   GCC's loop distribution sees it, the stores become vector stores that
   the accumulators' loads read back, or registers; as a loop, a fill of
   zeros became a `rep stos` whose start-up cost a tenth of GMM's tiles. */
#if defined(__GNUC__) && !defined(__clang__)
#define OG_UNROLL_FILL _Pragma("GCC unroll 256")
#elif defined(__clang__)
#define OG_UNROLL_FILL _Pragma("clang loop unroll(full)")
#else
#define OG_UNROLL_FILL
#endif

/* OpenMP's simd directives, for loops that build scans (prefix sums in
   vector lanes, ogham-imp's scan.rs): honoured when the C compiler runs
   with -fopenmp-simd, which ogham passes with -DOG_OMP_SIMD (GCC defines
   no macro for it); otherwise nothing, and the loops run in order. */
#if defined(OG_OMP_SIMD) || defined(_OPENMP)
#define OG_OMP(x) _Pragma(#x)
#else
#define OG_OMP(x)
#endif

/* Local arrays of kernels (vector lanes, register tiles) start on a
   64-byte boundary, the widest vector register's. */
#if defined(__GNUC__)
#define OG_ALIGNED __attribute__((aligned(64)))
#else
#define OG_ALIGNED
#endif

/* Kernels are functions of their own, which the C compiler must not
   inline back into the function that runs them (see `kernel.rs`). */
#if defined(__GNUC__)
#define OG_NOINLINE __attribute__((noinline))
#else
#define OG_NOINLINE
#endif

/* A kernel's copy and fill loops are short (a row of a range's lanes, a
   loop's state of a few rows): as calls of memcpy or memset, which the C
   compiler makes of such loops, each cost more than the loop (the
   D-LSTM's multicore gradient spent 18% of its time in memmove). */
#if defined(__clang__)
#define OG_KERNEL_ATTRS __attribute__((no_builtin("memcpy", "memmove", "memset")))
#elif defined(__GNUC__)
#define OG_KERNEL_ATTRS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define OG_KERNEL_ATTRS
#endif

/* A kernel clears the upper halves of the vector registers when it starts
   and before it returns: library code compiled for SSE (glibc's `exp`
   wrapper) runs many times slower while they hold a wide vector's bits,
   and GCC left them so around kernels of 512-bit vectors (GMM's gradient
   on two threads: 116 ms with its scalar `exp` calls slowed so, 78 ms
   without). */
#if defined(__AVX__) && defined(__GNUC__)
#define OG_CLEAN_UPPER() __builtin_ia32_vzeroupper()
#else
#define OG_CLEAN_UPPER() ((void)0)
#endif

/* A call of a libm function that stays a call (`exp`, `tanh`, `pow`; not
   `sqrt` or `floor`, which are instructions): the upper halves are cleared
   right before it, for the same reason. GCC is meant to clear them before
   every call itself, and mostly does, but not always: in the parallel task
   of a map whose elements run a loop (the D-LSTM's gradient written per
   channel), it copied array descriptors with 512-bit moves and then called
   `exp` and `tanh` with the upper halves set, and the task took 470 ms
   instead of 90. A `vzeroupper` costs a cycle, and the registers are the
   callee's to clobber anyway. */
#define OG_LIBM(call) (OG_CLEAN_UPPER(), (call))

/* Error paths: the C compiler lays them out of the way and, more
   importantly, predicts the branches to them as not taken. Without it, a
   function with hundreds of run-time checks (a gradient) has its deeper
   loops estimated as rarely run, and GCC optimises those for size: no
   vectorisation at all. (`og_fail` is variadic, so never inlined.) */
#if defined(__GNUC__)
#define OG_COLD __attribute__((cold))
#else
#define OG_COLD
#endif

/* A hint that the processor fetch the cache line at an address that will
   be read soon (kernels' streaming loads in loops whose stores scatter,
   see ogham-imp's prefetch pass). */
#if defined(__GNUC__)
#define OG_PREFETCH(p) __builtin_prefetch(p)
#else
#define OG_PREFETCH(p) ((void)(p))
#endif

struct og_ctx;

/* A reference-counted block of memory; the data follows the header, whose
 * size is a multiple of 16 bytes so that the data keeps malloc's alignment.
 *
 * Every live block is also on its context's list of live blocks, tagged
 * with the entry-point call that allocated it: generated functions return
 * straight out of nested blocks when a run-time check fails, skipping the
 * og_unref calls of the arrays those blocks own, and the list is how the
 * context finds and frees them afterwards (og_call_end). */
typedef struct og_mem {
  int64_t refcount;
  int64_t bytes;
  struct og_mem *prev, *next; /* on ctx->live, newest first; guarded by ctx->lock */
  struct og_ctx *ctx;         /* owner, for the byte counters and the list; NULL once detached */
  uint64_t call : 61;         /* the call that allocated it (og_ctx.call), 0 outside calls */
  /* On the list of the thread that allocated it inside the running
   * parallel job (og_job_live) rather than on its context's: see there.
   * Only that thread references it until the job ends, so, like a local
   * block, its reference count needs no atomic operations. */
  uint64_t in_job_list : 1;
  /* Allocated inside a parallel task, so only its thread ever references
   * it (tasks copy their results out): the reference count needs no atomic
   * operations. */
  uint64_t local : 1;
  /* The destination (or the partials) of an accumulator that a parallel
   * job updates (og_pin): the job's references to it come and go within
   * its tasks while the statement that runs the job holds it, so they are
   * not counted, rather than every thread updating one shared count per
   * element (atomic operations on one cache line). */
  uint64_t pinned : 1;
} og_mem;

_Static_assert(sizeof(og_mem) % 16 == 0, "og_mem must keep the data 16-byte aligned");

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
  int error_frames;        /* the backtrace lines in error */
  int64_t error_elided;    /* call sites left out of it (og_trace) */
  int num_threads;
  struct og_pool *pool;
  int64_t cur_bytes, peak_bytes;
  /* The sentinel of the circular list of live blocks. New blocks go in
   * front, so the blocks allocated by the running call are always the
   * first ones on the list (see og_call_begin). */
  og_mem live;
  /* A parallel job's blocks are on their threads' lists until it ends
   * (og_job_live); its start's cur_bytes plus the sum of its threads'
   * peaks bounds what it had alive at once. */
  int64_t job_base_bytes, job_peak_sum;
  uint64_t call;           /* the running entry-point call; 0 between calls */
  uint64_t calls;          /* how many calls have begun */
  /* Tuning parameters (`#[param(name)]`), numbered as og_tuning_names:
   * a parameter's value is used where it is set, else its default. */
  int64_t tuning[OG_NUM_TUNING_PARAMS + 1];
  bool tuning_set[OG_NUM_TUNING_PARAMS + 1];
  /* The program's constants (the generated struct og_consts), computed
   * when the context is created; NULL until then, or if that failed. */
  void *consts;
#if OG_MULTICORE
  pthread_mutex_t lock;    /* guards error, the byte counters and the list of live blocks */
#endif
} og_ctx;

static inline void og_ctx_lock(og_ctx *ctx) {
#if OG_MULTICORE
  if (og_in_job) pthread_mutex_lock(&ctx->lock);
#else
  (void)ctx;
#endif
}

static inline void og_ctx_unlock(og_ctx *ctx) {
#if OG_MULTICORE
  if (og_in_job) pthread_mutex_unlock(&ctx->lock);
#else
  (void)ctx;
#endif
}

/* Writes the frames of `loc` (one location per line: an inlined statement
 * stands for its place in the inlined function and then each call it was
 * copied to) as backtrace lines numbered from `first`; returns the bytes
 * written (at most `cap - 1`, NUL-terminated). */
static inline size_t og_frames(char *out, size_t cap, const char *loc, int first) {
  size_t used = 0;
  int k = first;
  while (cap > used + 1) {
    const char *nl = strchr(loc, '\n');
    int len = nl != NULL ? (int)(nl - loc) : (int)strlen(loc);
    int w = snprintf(out + used, cap - used, "%s#%d  %.*s\n", k == 0 ? "-> " : "   ", k, len, loc);
    if (w < 0 || (size_t)w >= cap - used) break;
    used += (size_t)w;
    k++;
    if (nl == NULL) break;
    loc = nl + 1;
  }
  return used;
}

/* The lines of a location (an inlined statement has several). */
static inline int og_loc_lines(const char *loc) {
  int n = 1;
  for (const char *p = strchr(loc, '\n'); p != NULL; p = strchr(p + 1, '\n')) n++;
  return n;
}

/* Records a run-time error (only the first one is kept, as later ones are
 * usually consequences) and returns 1, the failure code of generated functions.
 * `loc` is the source location, or NULL. */
OG_COLD static inline int og_fail(og_ctx *ctx, const char *loc, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  /* Room for each line of `loc` with its frame prefix ("   #k  "), as long
   * as locations are longer than prefixes; og_frames truncates otherwise. */
  size_t n = strlen(msg) + (loc ? 2 * strlen(loc) + 8 : 0) + 64;
  char *full = malloc(n);
  if (full != NULL) {
    if (loc != NULL) {
      int w = snprintf(full, n, "%s\n\nBacktrace:\n", msg);
      if (w > 0 && (size_t)w < n) og_frames(full + w, n - (size_t)w, loc, 0);
    } else {
      snprintf(full, n, "%s\n", msg);
    }
  }
  og_ctx_lock(ctx);
  if (ctx->error == NULL) {
    ctx->error = full;
    ctx->error_frames = loc != NULL ? og_loc_lines(loc) : 0;
    ctx->error_elided = 0;
  } else {
    free(full);
  }
  og_ctx_unlock(ctx);
  return 1;
}

/* Passes a failure already recorded (by a callee of the runtime: an
 * allocation, a copy, a parallel task) up to the caller: returns 1. Cold,
 * like og_fail and og_trace, so that the branch to it is predicted as never
 * taken: a plain `return 1` is predicted taken now and then, and after a
 * few hundred of them (a gradient's allocations and copies) GCC's guessed
 * profile has the code that follows run so rarely that it optimises its
 * loops for size, unvectorised (GMM's gradient: 72 of 109 loops
 * vectorised, 20% more instructions). */
OG_COLD static inline int og_propagate(void) {
  return 1;
}

/* The most backtrace lines an error keeps: a failure deep in a recursion
 * passes through one call site per level, and appending each (the error's
 * length grows with them) made reporting it quadratic in the depth. */
#define OG_MAX_FRAMES 40

/* Adds a call site to the backtrace of the pending error (a failure inside a
 * called function) and returns 1, to be returned in turn. Beyond
 * OG_MAX_FRAMES lines the call sites are only counted (og_take_error says
 * how many). */
OG_COLD static inline int og_trace(og_ctx *ctx, const char *loc) {
  og_ctx_lock(ctx);
  char *e = ctx->error;
  const char *bt = e != NULL ? strstr(e, "\nBacktrace:\n") : NULL;
  if (bt != NULL && loc != NULL) {
    if (ctx->error_frames >= OG_MAX_FRAMES) {
      ctx->error_elided += og_loc_lines(loc);
    } else {
      size_t used = strlen(e), n = used + 2 * strlen(loc) + 40;
      char *grown = realloc(e, n);
      if (grown != NULL) {
        og_frames(grown + used, n - used, loc, ctx->error_frames);
        ctx->error = grown;
        ctx->error_frames += og_loc_lines(loc);
      }
    }
  }
  og_ctx_unlock(ctx);
  return 1;
}

/* Takes the pending error message (the caller frees it). */
static inline char *og_take_error(og_ctx *ctx) {
  og_ctx_lock(ctx);
  char *e = ctx->error;
  if (e != NULL && ctx->error_elided > 0) {
    size_t used = strlen(e), n = used + 64;
    char *grown = realloc(e, n);
    if (grown != NULL) {
      snprintf(grown + used, n - used, "   ... and %lld more\n", (long long)ctx->error_elided);
      e = grown;
    }
  }
  ctx->error = NULL;
  ctx->error_frames = 0;
  ctx->error_elided = 0;
  og_ctx_unlock(ctx);
  return e;
}

/* ---- The stack of recursive functions ----
 *
 * A recursive function checks on entry that its thread's stack has room
 * for more calls (og_stack_exhausted), so that a recursion too deep fails
 * with an error rather than a segmentation fault. A thread's stack is
 * taken to be RLIMIT_STACK long (what Linux gives the main thread and what
 * glibc gives other threads by default, the scheduler's workers
 * included; 2 MiB when unlimited), of which the first check, near the
 * thread's first frames, leaves an eighth (at least 256 KiB) unused. */
static __thread uintptr_t og_stack_floor;

OG_COLD static uintptr_t og_stack_floor_init(uintptr_t here) {
  size_t size = (size_t)2 << 20;
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur > 0) size = (size_t)rl.rlim_cur;
  size_t margin = size / 8 > ((size_t)256 << 10) ? size / 8 : (size_t)256 << 10;
  og_stack_floor = size > margin && here > size ? here - (size - margin) : 1;
  return og_stack_floor;
}

static inline bool og_stack_exhausted(void) {
  char here_;
  uintptr_t here = (uintptr_t)&here_, floor = og_stack_floor;
  if (__builtin_expect(floor == 0, 0)) floor = og_stack_floor_init(here);
  return here < floor;
}

/* ---- A thread's cache of small freed blocks ----
 *
 * Functions called in loops allocate their results on every call (the
 * LSTM gradient's layer derivative: millions of blocks of a few hundred
 * bytes), and glibc's malloc and free cost 20% of such a program's time,
 * 30% once the process has worker threads (its arenas then take atomic
 * locks). Blocks of up to 2^OG_CACHE_MAX_CLASS bytes are therefore
 * allocated with a power-of-two capacity (their size class), and a freed
 * one is kept for the next allocation of its class on the same thread,
 * which takes it without a lock: up to 64 KiB of blocks per class (the
 * LSTM's rows of 112 bytes: 64 of them, as a time step frees dozens at
 * once), at most OG_CACHE_PER_CLASS and at least 2. A thread holds at most
 * about 512 KiB this way; worker threads and og_ctx_free give theirs back
 * to malloc (og_block_cache_flush). */
#define OG_CACHE_MIN_CLASS 6
#define OG_CACHE_MAX_CLASS 16
#define OG_CACHE_PER_CLASS 64
#define OG_CACHE_CLASS_LOG2_BYTES 16 /* 64 KiB of blocks per class */
OG_GLOBAL _Thread_local og_mem *og_block_cache[OG_CACHE_MAX_CLASS + 1][OG_CACHE_PER_CLASS];
OG_GLOBAL _Thread_local int og_block_cached[OG_CACHE_MAX_CLASS + 1];

/* The size class of a block of `bytes` bytes (log2 of its capacity), or
 * -1 for blocks too large to cache. */
static inline int og_size_class(int64_t bytes) {
  if (bytes > ((int64_t)1 << OG_CACHE_MAX_CLASS)) return -1;
  if (bytes <= ((int64_t)1 << OG_CACHE_MIN_CLASS)) return OG_CACHE_MIN_CLASS;
  return 64 - __builtin_clzll((unsigned long long)(bytes - 1));
}

/* A block too large to cache starts its data at one of four offsets into
 * a page, 0, 1024, 2048 or 3072 bytes, taken in turn (its header just
 * before, 7 KB more per block of over 64 KiB). Placed one after another in
 * the heap, each array's data began 64 bytes further round the page than
 * the last (header and malloc's own), and a stencil writing row i of one
 * while reading rows of the other stored to an address that the next
 * vector step's load matched in its low 12 bits: the CPU took the load for
 * one depending on the store (4K aliasing), and hotspot's step ran 1.5
 * times as long as with the arrays aligned alike. Offsets 1 KB apart are
 * further than loads run ahead of stores. All at one offset (page
 * boundaries) instead, the arrays that a loop reads at one index fall in
 * the same sets of the level-1 cache, and the LSTM gradient's sequential
 * time went up by 8%.
 *
 * The memory comes from malloc, not posix_memalign: a block of the same
 * size freed earlier must serve the next request, and glibc's memalign
 * asks for more than it keeps, so that a loop's arrays took new memory
 * every time (the LSTM gradient's peak 23 -> 41 MB). malloc's pointer is
 * kept just before the header, for og_mem_free. */
#define OG_PAGE 4096
#define OG_COLOUR 1024
static inline og_mem *og_mem_alloc_paged(size_t bytes) {
  static unsigned colours; /* a hint: a race only repeats an offset */
  size_t extra = OG_PAGE + 3 * OG_COLOUR + sizeof(og_mem) + sizeof(void *);
  if (bytes > SIZE_MAX - extra) return NULL;
  unsigned char *raw = malloc(bytes + extra);
  if (raw == NULL) return NULL;
  uintptr_t page = ((uintptr_t)raw + sizeof(og_mem) + sizeof(void *) + OG_PAGE - 1) & ~(uintptr_t)(OG_PAGE - 1);
  uintptr_t data = page + (uintptr_t)(__atomic_fetch_add(&colours, 1, __ATOMIC_RELAXED) % 4) * OG_COLOUR;
  og_mem *m = (og_mem *)(data - sizeof(og_mem));
  memcpy((unsigned char *)m - sizeof(void *), &raw, sizeof raw);
  return m;
}

/* Frees a block's memory, wherever og_mem_alloc put its header. */
static inline void og_mem_free(og_mem *m) {
  if (og_size_class(m->bytes) >= 0) {
    free(m);
  } else {
    void *raw;
    memcpy(&raw, (unsigned char *)m - sizeof(void *), sizeof raw);
    free(raw);
  }
}

/* Gives a block with no references back: to the thread's cache when its
 * class has room, else to malloc. */
static inline void og_mem_release(og_mem *m) {
  int c = og_size_class(m->bytes);
  if (c >= 0) {
    int room = c >= OG_CACHE_CLASS_LOG2_BYTES - 1 ? 2 : 1 << (OG_CACHE_CLASS_LOG2_BYTES - c);
    if (room > OG_CACHE_PER_CLASS) room = OG_CACHE_PER_CLASS;
    if (og_block_cached[c] < room) {
      og_block_cache[c][og_block_cached[c]++] = m;
      return;
    }
  }
  og_mem_free(m);
}

/* Frees the blocks the calling thread's cache holds. */
static inline void og_block_cache_flush(void) {
  for (int c = 0; c <= OG_CACHE_MAX_CLASS; c++) {
    while (og_block_cached[c] > 0) free(og_block_cache[c][--og_block_cached[c]]);
  }
}

/* Puts `m` at the front of the circular list whose sentinel is `head`. */
static inline void og_list_push(og_mem *head, og_mem *m) {
  m->prev = head;
  m->next = head->next;
  head->next->prev = m;
  head->next = m;
}

/* Takes `m` off the list it is on. */
static inline void og_list_unlink(og_mem *m) {
  m->prev->next = m->next;
  m->next->prev = m->prev;
}

#if OG_MULTICORE
/* A block allocated inside a parallel job goes on a list of its thread's
 * (og_job_live, empty while its links are NULL) rather than on the
 * context's, and the thread counts its bytes (og_job_bytes, and the most
 * it had at once, og_job_peak): the context's list and counters are shared
 * by the threads and so guarded by a mutex, and a job whose tasks allocate
 * (a map whose elements build small arrays: the D-LSTM's recurrence run
 * per channel) spent more time waiting for it than computing. Only the
 * allocating thread references such a block until the job ends (tasks copy
 * their results out), so only it unlinks it; when the thread has run its
 * last chunk, it moves what is left of its list to the context's, under
 * the mutex once (og_job_list_flush), so that after the job every block is
 * on the context's list again, where og_call_end finds what a failed call
 * left behind. */
OG_GLOBAL _Thread_local og_mem og_job_live;
OG_GLOBAL _Thread_local int64_t og_job_bytes, og_job_peak;

/* Moves the calling thread's job list to the context's list and its byte
 * counts to the context's counters (the end of its part of a job). */
static inline void og_job_list_flush(og_ctx *ctx) {
  og_mem *first = og_job_live.next;
  if (first == NULL && og_job_bytes == 0 && og_job_peak == 0) return;
  pthread_mutex_lock(&ctx->lock);
  if (first != NULL && first != &og_job_live) {
    og_mem *last = og_job_live.prev;
    for (og_mem *m = first; m != &og_job_live; m = m->next) m->in_job_list = 0;
    last->next = ctx->live.next;
    ctx->live.next->prev = last;
    ctx->live.next = first;
    first->prev = &ctx->live;
  }
  ctx->cur_bytes += og_job_bytes;
  ctx->job_peak_sum += og_job_peak;
  pthread_mutex_unlock(&ctx->lock);
  og_job_live.next = og_job_live.prev = NULL;
  og_job_bytes = og_job_peak = 0;
}
#endif

/* Allocates a block of `bytes` bytes with one reference; NULL (with an error
 * recorded) when out of memory. */
static inline og_mem *og_mem_alloc(og_ctx *ctx, int64_t bytes, const char *loc) {
  if (bytes < 0 || (uint64_t)bytes > SIZE_MAX - sizeof(og_mem)) {
    og_fail(ctx, loc, "Out of memory: cannot allocate %lld bytes.", (long long)bytes);
    return NULL;
  }
  int size_class = og_size_class(bytes);
  og_mem *m;
  if (size_class >= 0 && og_block_cached[size_class] > 0) {
    m = og_block_cache[size_class][--og_block_cached[size_class]];
  } else {
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
    m = size_class >= 0 ? malloc(sizeof(og_mem) + ((size_t)1 << size_class)) : og_mem_alloc_paged((size_t)bytes);
  }
  if (m == NULL) {
    og_fail(ctx, loc, "Out of memory: cannot allocate %lld bytes.", (long long)bytes);
    return NULL;
  }
  m->refcount = 1;
  m->local = 0;
  m->pinned = 0;
  m->bytes = bytes;
  m->ctx = ctx;
  m->call = ctx->call;
#if OG_MULTICORE
  if (og_in_job) {
    if (og_job_live.next == NULL) og_job_live.next = og_job_live.prev = &og_job_live;
    m->in_job_list = 1;
    og_list_push(&og_job_live, m);
    og_job_bytes += bytes;
    if (og_job_bytes > og_job_peak) og_job_peak = og_job_bytes;
    return m;
  }
  m->in_job_list = 0;
#endif
  og_ctx_lock(ctx);
  og_list_push(&ctx->live, m);
  ctx->cur_bytes += bytes;
  if (ctx->cur_bytes > ctx->peak_bytes) ctx->peak_bytes = ctx->cur_bytes;
  og_ctx_unlock(ctx);
  return m;
}

/* Pins a block for a parallel job (see og_mem.pinned), outside jobs. */
static inline void og_pin(og_mem *m, bool on) {
  if (m != NULL) m->pinned = on;
}

/* In multicore code the thread-local test comes first, a load from %fs:
 * outside a job no other thread runs, and the block need not be read. */
static inline void og_ref(og_mem *m) {
  if (m == NULL) return;
#if OG_MULTICORE
  if (!og_in_job || m->local || m->in_job_list) {
    m->refcount++;
  } else if (!m->pinned) {
    __atomic_add_fetch(&m->refcount, 1, __ATOMIC_RELAXED);
  }
#else
  m->refcount++;
#endif
}

/* The last reference to a block gone: off the context's list, to the
 * cache or to malloc. Out of line, so that og_unref's common case (a
 * reference left) inlines into the generated code in both builds. */
static __attribute__((noinline)) void og_mem_last_unref(og_mem *m) {
  og_ctx *ctx = m->ctx;
#if OG_MULTICORE
  if (m->in_job_list) {
    og_list_unlink(m);
    og_job_bytes -= m->bytes;
    og_mem_release(m);
    return;
  }
#endif
  if (ctx != NULL) {
    og_ctx_lock(ctx);
    og_list_unlink(m);
    ctx->cur_bytes -= m->bytes;
    og_ctx_unlock(ctx);
  }
  og_mem_release(m);
}

static inline void og_unref(og_mem *m) {
  if (m == NULL) return;
#if OG_MULTICORE
  int64_t left;
  if (!og_in_job || m->local || m->in_job_list) {
    left = --m->refcount;
  } else if (!m->pinned) {
    left = __atomic_sub_fetch(&m->refcount, 1, __ATOMIC_ACQ_REL);
  } else {
    return;
  }
#else
  int64_t left = --m->refcount;
#endif
  if (left == 0) og_mem_last_unref(m);
}

/* ---- Entry-point calls and the memory of failed ones ----
 *
 * The language is pure, so a block allocated during a call can outlive it
 * only as part of the call's outputs; a failed call has none, so every
 * block it allocated that is still alive when it returns is garbage, left
 * behind by the early returns of the generated code. (This holds as long as
 * generated code keeps nothing between calls: a cache of arrays filled
 * during a call would have to be allocated outside it.) Blocks that existed
 * before the call (inputs, the server's variables, the library user's
 * values) are never freed here; the references the call took to them are
 * undone by the caller (og_api_call in api.h), which knows the inputs.
 *
 * A context runs one entry point at a time, and nothing else may allocate
 * on it while a call runs (the multicore workers of the call itself
 * excepted): a block allocated concurrently by another thread would be
 * taken for the call's own. Concurrent calls on one context are not
 * supported, for this reason among others. */

/* Sets up an empty list of live blocks (the context is zeroed already). */
static inline void og_ctx_init_mem(og_ctx *ctx) {
  ctx->live.prev = &ctx->live;
  ctx->live.next = &ctx->live;
}

/* Marks the start of a call: the blocks allocated from now on are its own.
 * Every earlier block is behind them on the list, as blocks go in front. */
static inline void og_call_begin(og_ctx *ctx) {
  og_ctx_lock(ctx);
  ctx->call = ++ctx->calls;
  og_ctx_unlock(ctx);
}

/* Marks the end of the running call. When it failed, frees every block it
 * allocated that is still alive: they are at the front of the list, so the
 * walk stops at the first older block and costs nothing but the garbage. */
static inline void og_call_end(og_ctx *ctx, bool failed) {
  og_ctx_lock(ctx);
  if (failed && ctx->call != 0) {
    og_mem *m = ctx->live.next;
    while (m != &ctx->live && m->call == ctx->call) {
      og_mem *next = m->next;
      ctx->cur_bytes -= m->bytes;
      og_mem_free(m);
      m = next;
    }
    ctx->live.next = m;
    m->prev = &ctx->live;
  }
  ctx->call = 0;
  og_ctx_unlock(ctx);
}

/* Called when the context goes away: blocks still alive (values the user
 * has not freed) stop referring to it, so freeing them later touches
 * neither its counters nor its list. */
static inline void og_ctx_detach_mem(og_ctx *ctx) {
  og_ctx_lock(ctx);
  og_mem *m = ctx->live.next;
  while (m != &ctx->live) {
    og_mem *next = m->next;
    m->ctx = NULL;
    m->prev = m->next = m;
    m = next;
  }
  ctx->live.prev = ctx->live.next = &ctx->live;
  og_ctx_unlock(ctx);
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

/* Whether the range start:+len*stride of a dimension of size n lies within
 * it (an empty range always does): an accumulator's update out of bounds
 * writes nothing (updacc). Computed without overflow for any values. */
static inline bool og_slice_fits(int64_t start, int64_t len, int64_t stride, int64_t n) {
  if (len == 0) return true;
  if (len < 0 || start < 0 || start >= n) return false;
  int64_t last; /* past 64 bits it is out of bounds */
  if (__builtin_mul_overflow(len - 1, stride, &last) || __builtin_add_overflow(start, last, &last)) return false;
  return last >= 0 && last < n;
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
  /* No memset of the whole view: og_set_row_major fills every slot, and
   * clearing 150 bytes per allocation is measurable in a per-element loop. */
  out->mem = NULL;
  out->offset = 0;
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

/* An allocation site inside a loop (a lambda or loop body) keeps the last
 * two blocks it allocated, so that later iterations reuse them instead of
 * calling malloc: a kept block whose only reference is the site's own is
 * free, whatever the program did with it in between. Two blocks cover the
 * double buffering of a loop that computes its next array from the current
 * one. Sites are local variables of one C function (or parallel task), so
 * one thread uses each; the blocks they keep are released when the loop
 * statement (or task) ends, and, like everything a failed call allocated,
 * by og_call_end when it fails. */
typedef struct og_site {
  og_mem *kept[2];
  int next; /* which kept block a new one replaces */
} og_site;

static inline int64_t og_refcount(og_mem *m) {
#if OG_MULTICORE
  if (!og_in_job || m->local || m->in_job_list) return m->refcount;
  return __atomic_load_n(&m->refcount, __ATOMIC_ACQUIRE);
#else
  return m->refcount;
#endif
}

/* A fresh block for a site that kept none it could reuse: allocated, and
 * kept in place of the older of the two. Out of line: it is the rare case. */
static OG_NOINLINE int og_alloc_arr_new_at(og_ctx *ctx, og_site *site, og_arr *out, int64_t elem_size, int rank,
                                           const int64_t *shape, const char *loc, bool local) {
  if (og_alloc_arr(ctx, out, elem_size, rank, shape, loc)) return 1;
  out->mem->local = local;
  int i = site->kept[0] == NULL ? 0 : site->kept[1] == NULL ? 1 : site->next;
  site->next = 1 - i;
  og_unref(site->kept[i]);
  og_ref(out->mem);
  site->kept[i] = out->mem;
  return 0;
}

/* og_alloc_arr through a site. A kept block is reused when it is large
 * enough and at most twice the size needed (so a site does not pin a
 * huge block for small arrays). `local`: the site is in a parallel task
 * (see og_mem.local). Returns 1 on error. Always inlined, with the rank a
 * constant at every call: the reuse is then a few compares and stores
 * (it ran once per layer and step of the D-LSTM's sweeps, 113
 * instructions a call as a function with loops over the rank). */
static inline __attribute__((always_inline)) int og_alloc_arr_at(og_ctx *ctx, og_site *site, og_arr *out,
                                                                 int64_t elem_size, int rank, const int64_t *shape,
                                                                 const char *loc, bool local) {
  int64_t n = og_shape_elems(rank, shape), bytes;
  if (n >= 0 && !__builtin_mul_overflow(n, elem_size, &bytes)) {
    for (int i = 0; i < 2; i++) {
      og_mem *m = site->kept[i];
      if (m != NULL && m->bytes >= bytes && m->bytes / 2 <= bytes && og_refcount(m) == 1) {
        og_ref(m);
        out->mem = m;
        out->offset = 0;
        for (int d = 0; d < rank; d++) out->shape[d] = shape[d];
        og_set_row_major(out, rank);
        return 0;
      }
    }
  }
  return og_alloc_arr_new_at(ctx, site, out, elem_size, rank, shape, loc, local);
}

static inline void og_site_release(og_site *site) {
  og_unref(site->kept[0]);
  og_unref(site->kept[1]);
  site->kept[0] = site->kept[1] = NULL;
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

/* Copies one element of `esize` bytes: a load and a store for the sizes of
 * the primitive types (memcpy of a constant size compiles to a move). */
static inline void og_copy_elem(unsigned char *d, const unsigned char *s, int64_t esize) {
  switch (esize) {
    case 8: { uint64_t v; memcpy(&v, s, 8); memcpy(d, &v, 8); return; }
    case 4: { uint32_t v; memcpy(&v, s, 4); memcpy(d, &v, 4); return; }
    case 2: { uint16_t v; memcpy(&v, s, 2); memcpy(d, &v, 2); return; }
    case 1: *d = *s; return;
    default: memmove(d, s, (size_t)esize);
  }
}

/* Copies a contiguous row of `n` elements. A short row that does not
 * overlap its source is copied element by element in the caller: the
 * rows of narrow views (the lanes of a range, 7 doubles) are many, and
 * a call of memmove per row made copying 18 MB of such rows 1.4 times as
 * slow. */
static inline void og_copy_row(unsigned char *d, const unsigned char *s, int64_t n, int64_t esize) {
  size_t bytes = (size_t)(n * esize);
  uintptr_t di = (uintptr_t)d, si = (uintptr_t)s;
  if (n <= 16 && (di + bytes <= si || si + bytes <= di)) {
    for (int64_t i = 0; i < n; i++) og_copy_elem(d + i * esize, s + i * esize, esize);
    return;
  }
  memmove(d, s, bytes);
}

/* Copies elements between two views of the same shape (`rank` dimensions
 * starting at `dim`), elementwise; the innermost contiguous dimension is
 * one row copy. */
static inline void og_copy_rec(int64_t esize, int rank, int dim, const int64_t *shape, unsigned char *dst, int64_t doff,
                        const int64_t *dstride, const unsigned char *src, int64_t soff, const int64_t *sstride) {
  if (rank == 0) {
    og_copy_elem(dst + doff * esize, src + soff * esize, esize);
    return;
  }
  int64_t n = shape[dim];
  /* `dim + 1 < OG_MAX_RANK` always holds (rank <= OG_MAX_RANK); said so
   * that GCC, inlining the recursion, sees no index past the arrays
   * (-Warray-bounds at -O3). */
  if (dim == rank - 1 || dim + 1 >= OG_MAX_RANK) {
    if (dstride[dim] == 1 && sstride[dim] == 1) {
      if (n > 0) og_copy_row(dst + doff * esize, src + soff * esize, n, esize);
      return;
    }
    for (int64_t i = 0; i < n; i++) {
      og_copy_elem(dst + (doff + i * dstride[dim]) * esize, src + (soff + i * sstride[dim]) * esize, esize);
    }
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    og_copy_rec(esize, rank, dim + 1, shape, dst, doff + i * dstride[dim], dstride, src, soff + i * sstride[dim], sstride);
  }
}

/* Copies `rows` rows of `n` contiguous elements of `E` bytes (a
 * constant), the rows `ds` and `ss` elements apart; the blocks do not
 * overlap. GCC would make each short row a call of memmove. */
#if defined(__GNUC__) && !defined(__clang__)
#define OG_NO_MEMCPY_CALLS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define OG_NO_MEMCPY_CALLS
#endif
#define OG_COPY_ROWS(E)                                                                                  \
  static inline OG_NO_MEMCPY_CALLS void og_copy_rows_##E(unsigned char *restrict d, const unsigned char *restrict s, int64_t rows, \
                                      int64_t n, int64_t ds, int64_t ss) {                               \
    for (int64_t r = 0; r < rows; r++) {                                                                 \
      for (int64_t i = 0; i < n; i++) memcpy(d + i * E, s + i * E, E);                                   \
      d += ds * E;                                                                                       \
      s += ss * E;                                                                                       \
    }                                                                                                    \
  }
OG_COPY_ROWS(8)
OG_COPY_ROWS(4)
#undef OG_COPY_ROWS

/* Copies between two views of different memory blocks (no overlap) with
 * their dimensions merged where both are laid out alike (`[d][t][nr][w]`
 * from a rearranged `[nr][d][t][w]`: `[d·t][nr][w]`) and the innermost
 * contiguous in both: the rows counted through the outer dimensions
 * without a call per row. Returns 0 where the views do not allow it. A
 * recursive call per dimension and per row made the D-LSTM gradient's
 * ranges' saved values (rows of 7 doubles, 22 MB) copy at 1.4 GB/s. */
static inline int og_copy_flat(const og_arr *dst, const og_arr *src, int64_t esize, int rank) {
  int64_t shape[OG_MAX_RANK], ds[OG_MAX_RANK], ss[OG_MAX_RANK];
  int k = 0;
  for (int i = 0; i < rank; i++) {
    if (src->shape[i] == 1) continue;
    if (k > 0 && ds[k - 1] == dst->stride[i] * src->shape[i] && ss[k - 1] == src->stride[i] * src->shape[i]) {
      shape[k - 1] *= src->shape[i];
      ds[k - 1] = dst->stride[i];
      ss[k - 1] = src->stride[i];
      continue;
    }
    shape[k] = src->shape[i];
    ds[k] = dst->stride[i];
    ss[k] = src->stride[i];
    k++;
  }
  if (k < 2 || k > 3 || ds[k - 1] != 1 || ss[k - 1] != 1 || (esize != 8 && esize != 4)) return 0;
  unsigned char *d = og_mem_data(dst->mem) + dst->offset * esize;
  const unsigned char *s = og_mem_data(src->mem) + src->offset * esize;
  int64_t n = shape[k - 1], outer = k == 3 ? shape[0] : 1;
  int64_t rows = shape[k - 2], drow = ds[k - 2], srow = ss[k - 2];
  for (int64_t a = 0; a < outer; a++) {
    unsigned char *da = d + (k == 3 ? a * ds[0] : 0) * esize;
    const unsigned char *sa = s + (k == 3 ? a * ss[0] : 0) * esize;
    if (esize == 8) {
      og_copy_rows_8(da, sa, rows, n, drow, srow);
    } else {
      og_copy_rows_4(da, sa, rows, n, drow, srow);
    }
  }
  return 1;
}

/* Copies the elements of `src` into `dst` (same shape). */
static inline void og_copy_into(const og_arr *dst, const og_arr *src, int64_t esize, int rank) {
  if (og_shape_elems(rank, src->shape) == 0) return;
  if (og_is_contiguous(dst, rank) && og_is_contiguous(src, rank)) {
    int64_t n = og_shape_elems(rank, src->shape);
    memmove(og_mem_data(dst->mem) + dst->offset * esize, og_mem_data(src->mem) + src->offset * esize, (size_t)(n * esize));
    return;
  }
  if (dst->mem != src->mem && og_copy_flat(dst, src, esize, rank)) return;
  og_copy_rec(esize, rank, 0, src->shape, og_mem_data(dst->mem), dst->offset, dst->stride, og_mem_data(src->mem),
              src->offset, src->stride);
}

/* A fresh contiguous copy of `src`. Returns 1 on error. */
static inline int og_copy_fresh(og_ctx *ctx, og_arr *out, const og_arr *src, int64_t esize, int rank, const char *loc) {
  if (og_alloc_arr(ctx, out, esize, rank, src->shape, loc)) return 1;
  og_copy_into(out, src, esize, rank);
  return 0;
}

/* The view of row `i` of `a` (rank `rank` > 0); no bounds check, no reference taken.
   Always inlined: called once per row of every SOAC over arrays, and a call
   copies two whole views (GMM gradient: 25% of its time). */
static inline __attribute__((always_inline)) og_arr og_row(og_arr a, int rank, int64_t i) {
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
