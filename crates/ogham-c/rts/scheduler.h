/* ogham runtime, scheduler: a small pthread pool running chunked parallel
 * loops. A job is `nchunks` chunks of an index range, and the calling
 * thread works too. Each thread owns an equal run of consecutive chunks
 * (the caller the first) and takes its own from the front; a thread done
 * with its run takes chunks from the back of the others', but not the
 * last one left to an owner that has started (og_run_take). So a loop run
 * again and again (a stencil's steps) gives each thread the same part of
 * the arrays every time, where its cache holds them, as OpenMP's static
 * schedule does, and an uneven one is still balanced to within a chunk.
 * Handed out from one shared counter, the chunks went to whichever thread
 * asked first: each step wrote rows the other core had written or read
 * the step before, and hotspot's steps took 1 to 4 times as long from one
 * run to the next (on two cores whose caches are far apart); with any
 * chunk left stolen, the noise of two threads' progress moved a few rows
 * to the other core every step (46-51 ms a run against 42-44 ms without
 * stealing; OpenMP's static schedule 41-42). Each chunk
 * knows its number, so per-chunk partial results can be combined in order
 * afterwards (which non-commutative reductions and scans need), whichever
 * thread ran it. Without OG_MULTICORE every job runs on the calling
 * thread. */

/* Runs chunk `chunk` = [start, end); returns nonzero on failure. */
typedef int (*og_task_fn)(void *closure, int64_t start, int64_t end, int64_t chunk);

/* A pause in a loop that waits for another thread. */
static inline void og_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

#if OG_MULTICORE
/* One thread's run of chunks: the chunks not yet taken, [next, end), as
 * one atomic word (next in the low half, end in the high; a job has fewer
 * than 2^31 chunks, og_scan_chunks), so that the owner taking from the
 * front and others from the back agree on what is left; and where the run
 * began. A cache line each, so that threads taking their own chunks do
 * not share one. */
struct og_run {
  uint64_t left;
  int64_t first;
  char pad[64 - sizeof(uint64_t) - sizeof(int64_t)];
};

/* Takes a chunk of `r`: the owner (and everyone, for a job whose chunks go
 * in order) the first left; another thread the last, when at least two
 * are left or the owner has taken none (it may be asleep). */
static inline bool og_run_take(struct og_run *r, bool front, int64_t *chunk) {
  uint64_t s = __atomic_load_n(&r->left, __ATOMIC_RELAXED);
  for (;;) {
    int64_t next = (int64_t)(uint32_t)s, end = (int64_t)(s >> 32);
    if (next >= end) return false;
    if (!front && end - next < 2 && next != r->first) return false;
    uint64_t t = front ? s + 1 : s - ((uint64_t)1 << 32);
    if (__atomic_compare_exchange_n(&r->left, &s, t, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      *chunk = front ? next : end - 1;
      return true;
    }
  }
}

/* A worker's argument: the pool and the worker's number (1, 2, …; the
 * calling thread is 0), which says whose run of chunks it owns. */
struct og_worker {
  struct og_pool *pool;
  int index;
};

struct og_pool {
  int nworkers;
  pthread_t *threads;
  struct og_worker *workers;
  struct og_run *runs; /* nworkers + 1 of them */
  pthread_mutex_t lock;
  pthread_cond_t work_cv, done_cv;
  uint64_t generation;
  bool job_open, shutdown;
  int active;
  og_ctx *ctx;
  og_task_fn fn;
  void *closure;
  int64_t n, nchunks;
  bool in_order;
  int failed; /* atomic */
};

static inline int64_t og_chunk_start(int64_t n, int64_t nchunks, int64_t c) {
  /* c*n/nchunks without overflow for large n. */
  return (int64_t)(((__int128)c * n) / nchunks);
}

/* og_in_job (core.h) is set while this thread runs a chunk of a job: a
 * parallel loop reached from inside one (a function with parallel code
 * called from a parallel task) runs its chunks on this thread, since the
 * pool has one job at a time. */

/* Runs the chunks of thread `self`'s run, then those it may take of the
 * others'. */
static inline void og_pool_run_chunks(struct og_pool *p, int self, og_task_fn fn, void *closure, int64_t n,
                                      int64_t nchunks) {
  int outer = og_in_job;
  og_in_job = 1;
  int nruns = p->nworkers + 1;
  for (int k = 0; k < nruns; k++) {
    struct og_run *run = &p->runs[(self + k) % nruns];
    int64_t c;
    while (!__atomic_load_n(&p->failed, __ATOMIC_RELAXED) && og_run_take(run, k == 0 || p->in_order, &c)) {
      if (fn(closure, og_chunk_start(n, nchunks, c), og_chunk_start(n, nchunks, c + 1), c)) {
        __atomic_store_n(&p->failed, 1, __ATOMIC_RELAXED);
      }
    }
  }
  og_job_list_flush(p->ctx);
  og_in_job = outer;
}

/* Before sleeping on a condition variable, a worker waiting for the next
 * job and the caller waiting for the workers to finish spin this many
 * times (a pause is 14-16 ns on a recent Xeon: about 0.3 ms): a loop of
 * short parallel steps (hotspot's 360 stencil steps of 0.2 ms) otherwise
 * pays a futex wake-up per step and thread. GMM's gradient runs about 250
 * jobs per call with sequential work between them; spinning 2000 times
 * (30 us) its workers slept about 45 times a call (1011 context switches
 * in 11 calls, 40 with 20000), and two threads took 67.0 ms instead of
 * 61.0 (minima of 18 interleaved runs). GNU OpenMP spins longer by
 * default. */
#define OG_SPIN 20000

static void *og_worker_main(void *arg) {
  struct og_worker *w = arg;
  struct og_pool *p = w->pool;
  uint64_t seen = 0;
  for (;;) {
    for (int s = 0; s < OG_SPIN; s++) {
      if (__atomic_load_n(&p->shutdown, __ATOMIC_ACQUIRE)) break;
      if (__atomic_load_n(&p->generation, __ATOMIC_ACQUIRE) != seen && __atomic_load_n(&p->job_open, __ATOMIC_ACQUIRE))
        break;
      og_cpu_relax();
    }
    pthread_mutex_lock(&p->lock);
    while (!p->shutdown && (p->generation == seen || !p->job_open)) pthread_cond_wait(&p->work_cv, &p->lock);
    if (p->shutdown) {
      pthread_mutex_unlock(&p->lock);
      og_block_cache_flush();
      return NULL;
    }
    seen = p->generation;
    __atomic_add_fetch(&p->active, 1, __ATOMIC_RELEASE);
    og_task_fn fn = p->fn;
    void *closure = p->closure;
    int64_t n = p->n, nchunks = p->nchunks;
    pthread_mutex_unlock(&p->lock);
    og_pool_run_chunks(p, w->index, fn, closure, n, nchunks);
    pthread_mutex_lock(&p->lock);
    __atomic_sub_fetch(&p->active, 1, __ATOMIC_RELEASE);
    pthread_cond_signal(&p->done_cv);
    pthread_mutex_unlock(&p->lock);
  }
}

static inline int og_pool_start(og_ctx *ctx) {
  if (ctx->num_threads <= 1) return 0;
  struct og_pool *p = calloc(1, sizeof *p);
  if (p == NULL) return 1;
  p->nworkers = ctx->num_threads - 1;
  p->threads = calloc((size_t)p->nworkers, sizeof(pthread_t));
  p->workers = calloc((size_t)p->nworkers, sizeof(struct og_worker));
  void *runs = NULL;
  if (posix_memalign(&runs, 64, sizeof(struct og_run) * (size_t)ctx->num_threads) != 0) runs = NULL;
  p->runs = runs;
  if (p->threads == NULL || p->workers == NULL || p->runs == NULL) {
    free(p->threads);
    free(p->workers);
    free(p->runs);
    free(p);
    return 1;
  }
  pthread_mutex_init(&p->lock, NULL);
  pthread_cond_init(&p->work_cv, NULL);
  pthread_cond_init(&p->done_cv, NULL);
  for (int i = 0; i < p->nworkers; i++) {
    p->workers[i] = (struct og_worker){p, i + 1};
    if (pthread_create(&p->threads[i], NULL, og_worker_main, &p->workers[i]) != 0) {
      p->nworkers = i;
      break;
    }
  }
  ctx->pool = p;
  return 0;
}

static inline void og_pool_stop(og_ctx *ctx) {
  struct og_pool *p = ctx->pool;
  if (p == NULL) return;
  pthread_mutex_lock(&p->lock);
  __atomic_store_n(&p->shutdown, true, __ATOMIC_RELEASE);
  pthread_cond_broadcast(&p->work_cv);
  pthread_mutex_unlock(&p->lock);
  for (int i = 0; i < p->nworkers; i++) pthread_join(p->threads[i], NULL);
  pthread_mutex_destroy(&p->lock);
  pthread_cond_destroy(&p->work_cv);
  pthread_cond_destroy(&p->done_cv);
  free(p->threads);
  free(p->workers);
  free(p->runs);
  free(p);
  ctx->pool = NULL;
}

static inline int og_default_threads(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : (int)n;
}
#endif

/* How many chunks to split n iterations into: a few per thread, for
 * balance, but none smaller than `grain` iterations. Waking the pool costs
 * microseconds, so a short loop of cheap iterations (a 16-element map inside
 * a loop over a million points) must run on the calling thread; codegen
 * passes a large grain for straight-line loop bodies and 1 for bodies with
 * loops or SOACs of their own. */
static inline int64_t og_num_chunks(og_ctx *ctx, int64_t n, int64_t grain) {
  int64_t c = (int64_t)ctx->num_threads * 16;
  if (ctx->num_threads <= 1) c = 1;
  if (grain < 1) grain = 1;
  if (c > n / grain) c = n / grain;
  return c < 1 ? 1 : c;
}

/* A grain giving one chunk per thread: for loops whose chunks each pay a
 * set-up proportional to the whole input (a tiled nest's column panel).
 * Rounded down, so that og_num_chunks gives every thread a chunk (n / t
 * rounded up gave one chunk, on one thread, for 25 or 163 iterations on
 * two threads; now at most one more than the threads, for n < 2t). */
static inline int64_t og_per_thread(og_ctx *ctx, int64_t n) {
  int64_t t = ctx->num_threads > 1 ? ctx->num_threads : 1;
  int64_t g = n / t;
  return g < 1 ? 1 : g;
}

/* The fewest iterations worth a chunk when one iteration does about
 * `cost` operations: together at least 32768, which outweighs waking a
 * thread and handing it the chunk (a few microseconds). */
static inline int64_t og_grain(double cost) {
  if (!(cost < 32768.0)) return 1;
  return (int64_t)(32768.0 / (cost < 1.0 ? 1.0 : cost));
}

/* The distance, in elements of type t, between the per-chunk partial
 * results of n elements that threads update in place: at least one whole
 * cache line more than the partial itself, in whole cache lines, so that
 * whatever the alignment of the buffer, no two chunks share a line. */
#define OG_PITCH(n, t) ((((n) * (int64_t)sizeof(t) + 127) / 64) * 64 / (int64_t)sizeof(t))

/* How many chunks a parallel scan of n iterations runs in: at least
 * `nchunks`, and none of more than OG_SCAN_CHUNK iterations, so that a
 * chunk's arrays are still in the core's cache when the chunk adds the
 * prefix before it to its results (codegen's scan_chain: 32K
 * iterations of an i32 scan are 256 KiB of input and output). */
#define OG_SCAN_CHUNK 32768
static inline int64_t og_scan_chunks(int64_t n, int64_t nchunks) {
  int64_t c = n / OG_SCAN_CHUNK + 1;
  if (c > ((int64_t)1 << 30)) c = (int64_t)1 << 30;
  return c > nchunks ? c : nchunks;
}

/* Whether a chunk of the running parallel job has failed: a chunk waiting
 * for another's result stops waiting then (the other may be the one that
 * failed). */
static inline bool og_job_failed(og_ctx *ctx) {
#if OG_MULTICORE
  return ctx->pool != NULL && __atomic_load_n(&ctx->pool->failed, __ATOMIC_RELAXED);
#else
  (void)ctx;
  return false;
#endif
}

/* Runs fn over [0, n) in nchunks chunks; returns nonzero if any chunk
 * failed. With `in_order`, the chunks are handed out in order, to
 * whichever thread asks first (all in the caller's run), instead of each
 * thread taking its own run first: for chunks that wait for the chunk
 * before them. */
static inline int og_parallel_sched(og_ctx *ctx, og_task_fn fn, void *closure, int64_t n, int64_t nchunks,
                                    bool in_order) {
  /* An empty input still runs chunk 0 over the empty range: reductions and
   * scans combine every chunk's partial result afterwards, and a chunk
   * initialises its partial to the neutral element. */
  if (n <= 0) return fn(closure, 0, 0, 0);
#if OG_MULTICORE
  struct og_pool *p = ctx->pool;
  if (p != NULL && p->nworkers > 0 && nchunks > 1 && !og_in_job) {
    ctx->job_base_bytes = ctx->cur_bytes;
    ctx->job_peak_sum = 0;
    pthread_mutex_lock(&p->lock);
    p->ctx = ctx;
    p->fn = fn;
    p->closure = closure;
    p->n = n;
    p->nchunks = nchunks;
    p->in_order = in_order;
    int nruns = p->nworkers + 1;
    for (int t = 0; t < nruns; t++) {
      uint64_t first = in_order ? (t == 0 ? 0 : (uint64_t)nchunks) : (uint64_t)(((__int128)t * nchunks) / nruns);
      uint64_t end = in_order ? (uint64_t)nchunks : (uint64_t)(((__int128)(t + 1) * nchunks) / nruns);
      p->runs[t].left = first | end << 32;
      p->runs[t].first = (int64_t)first;
    }
    p->failed = 0;
    __atomic_store_n(&p->generation, p->generation + 1, __ATOMIC_RELEASE);
    __atomic_store_n(&p->job_open, true, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&p->work_cv);
    pthread_mutex_unlock(&p->lock);
    og_pool_run_chunks(p, 0, fn, closure, n, nchunks);
    for (int s = 0; s < OG_SPIN && __atomic_load_n(&p->active, __ATOMIC_ACQUIRE) > 0; s++) og_cpu_relax();
    pthread_mutex_lock(&p->lock);
    while (p->active > 0) pthread_cond_wait(&p->done_cv, &p->lock);
    __atomic_store_n(&p->job_open, false, __ATOMIC_RELEASE);
    int failed = p->failed;
    pthread_mutex_unlock(&p->lock);
    if (ctx->job_base_bytes + ctx->job_peak_sum > ctx->peak_bytes) ctx->peak_bytes = ctx->job_base_bytes + ctx->job_peak_sum;
    return failed;
  }
  for (int64_t c = 0; c < nchunks; c++) {
    if (fn(closure, og_chunk_start(n, nchunks, c), og_chunk_start(n, nchunks, c + 1), c)) return 1;
  }
  return 0;
#else
  (void)ctx;
  (void)nchunks;
  (void)in_order;
  return fn(closure, 0, n, 0);
#endif
}

static inline int og_parallel(og_ctx *ctx, og_task_fn fn, void *closure, int64_t n, int64_t nchunks) {
  return og_parallel_sched(ctx, fn, closure, n, nchunks, false);
}

static inline int og_parallel_in_order(og_ctx *ctx, og_task_fn fn, void *closure, int64_t n, int64_t nchunks) {
  return og_parallel_sched(ctx, fn, closure, n, nchunks, true);
}

#if OG_MULTICORE
/* A copy of the rows [start, end) of the outer dimension, a chunk of
 * og_copy_fresh_par's copy. */
typedef struct {
  const og_arr *dst, *src;
  int64_t esize;
  int rank;
} og_copy_job;

static int og_copy_rows(void *closure, int64_t start, int64_t end, int64_t chunk) {
  (void)chunk;
  const og_copy_job *job = closure;
  og_arr d = *job->dst, s = *job->src;
  d.offset += start * d.stride[0];
  s.offset += start * s.stride[0];
  d.shape[0] = s.shape[0] = end - start;
  og_copy_into(&d, &s, job->esize, job->rank);
  return 0;
}
#endif

/* og_copy_fresh, in multicore code outside jobs the rows of a copy of at
 * least a megabyte shared among the threads (the D-LSTM gradient's saved
 * values put back side by side after their ranges of lanes: rows of 7
 * doubles, 18 MB). Returns 1 on error. */
static inline int og_copy_fresh_par(og_ctx *ctx, og_arr *out, const og_arr *src, int64_t esize, int rank,
                                    const char *loc) {
#if OG_MULTICORE
  int64_t n = og_shape_elems(rank, src->shape);
  struct og_pool *p = ctx->pool;
  if (rank >= 1 && n >= ((int64_t)1 << 20) / esize && src->shape[0] >= 2 && !og_in_job && p != NULL &&
      p->nworkers > 0) {
    if (og_alloc_arr(ctx, out, esize, rank, src->shape, loc)) return 1;
    og_copy_job job = {out, src, esize, rank};
    int64_t threads = p->nworkers + 1;
    int64_t nchunks = src->shape[0] < 4 * threads ? src->shape[0] : 4 * threads;
    return og_parallel(ctx, og_copy_rows, &job, src->shape[0], nchunks);
  }
#endif
  return og_copy_fresh(ctx, out, src, esize, rank, loc);
}
