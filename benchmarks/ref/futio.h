/* Shared helpers for the hand-written C references of the benchmarks:
 * command-line options in the manner of a compiled Futhark program,
 * reading Futhark's binary value format from standard input, printing
 * results in Futhark's text (or binary) value format, and timing.
 *
 * Options (the same meaning as for a compiled Futhark executable):
 *   -t FILE  write the runtime of each timed run, in microseconds, one per
 *            line, to FILE (without -t it goes to stderr as "runtime: N us");
 *   -r N     one untimed warm-up run, then N timed runs (default: 1 timed
 *            run and no warm-up);
 *   -b       print the result in the binary value format;
 *   -n       print no result;
 *   -e NAME  the entry point: main for the programs with one entry point
 *            (parse_opts), one of a list of names for the others
 *            (parse_opts_entries; default the first).
 *
 * Only the computation is timed: reading the input, allocating the output
 * and printing are outside the timed region. */
#ifndef FUTIO_H
#define FUTIO_H

#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

struct opts {
  const char *timing_file;
  int runs;
  int warmup;
  int binary;
  int no_print;
  int entry; /* index of the chosen entry point in the list */
};

static inline void die(const char *msg) {
  fprintf(stderr, "error: %s\n", msg);
  exit(1);
}

/* Options for a program whose entry points are `entries` (NULL-terminated). */
static inline struct opts parse_opts_entries(int argc, char **argv, const char *const *entries) {
  struct opts o = {NULL, 1, 0, 0, 0, 0};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
      o.timing_file = argv[++i];
    } else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
      o.runs = atoi(argv[++i]);
      o.warmup = 1;
      if (o.runs < 1) die("-r needs a positive count");
    } else if (strcmp(argv[i], "-b") == 0) {
      o.binary = 1;
    } else if (strcmp(argv[i], "-e") == 0 && i + 1 < argc) {
      const char *name = argv[++i];
      int found = -1;
      for (int e = 0; entries[e]; e++)
        if (strcmp(name, entries[e]) == 0) found = e;
      if (found < 0) {
        fprintf(stderr, "error: unknown entry point %s (entry points:", name);
        for (int e = 0; entries[e]; e++) fprintf(stderr, " %s", entries[e]);
        fprintf(stderr, ")\n");
        exit(1);
      }
      o.entry = found;
    } else if (strcmp(argv[i], "-n") == 0) {
      o.no_print = 1;
    } else {
      fprintf(stderr, "usage: %s [-t FILE] [-r N] [-b] [-n] [-e ENTRY] < input\n", argv[0]);
      exit(2);
    }
  }
  return o;
}

static inline struct opts parse_opts(int argc, char **argv) {
  static const char *const main_only[] = {"main", NULL};
  return parse_opts_entries(argc, argv, main_only);
}

static inline int64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---- Input: all of stdin, then values parsed from it one at a time. ---- */

static unsigned char *in_buf;
static size_t in_len, in_pos;

static inline void read_stdin(void) {
  size_t cap = 1 << 20;
  in_buf = malloc(cap);
  if (!in_buf) die("out of memory");
  size_t n;
  while ((n = fread(in_buf + in_len, 1, cap - in_len, stdin)) > 0) {
    in_len += n;
    if (in_len == cap) {
      cap *= 2;
      in_buf = realloc(in_buf, cap);
      if (!in_buf) die("out of memory");
    }
  }
  in_pos = 0;
}

/* Reads the header of one binary value of type `tag` (e.g. " f32") and rank
 * `rank`, storing the dimensions; returns a pointer to its elements. */
static inline const void *read_value(const char *tag, int rank, int64_t *dims, size_t elem_size) {
  if (!in_buf) read_stdin();
  while (in_pos < in_len && (in_buf[in_pos] == ' ' || in_buf[in_pos] == '\n' ||
                             in_buf[in_pos] == '\t' || in_buf[in_pos] == '\r'))
    in_pos++;
  if (in_len - in_pos < 7 || in_buf[in_pos] != 'b')
    die("expected a value in the binary data format");
  if (in_buf[in_pos + 1] != 2) die("unsupported binary format version");
  if (in_buf[in_pos + 2] != rank) die("value has the wrong rank");
  if (memcmp(in_buf + in_pos + 3, tag, 4) != 0) die("value has the wrong element type");
  in_pos += 7;
  size_t count = 1;
  for (int i = 0; i < rank; i++) {
    if (in_len - in_pos < 8) die("truncated input");
    uint64_t d = 0;
    for (int b = 7; b >= 0; b--) d = (d << 8) | in_buf[in_pos + b];
    dims[i] = (int64_t)d;
    count *= (size_t)d;
    in_pos += 8;
  }
  if (in_len - in_pos < count * elem_size) die("truncated input");
  const void *data = in_buf + in_pos;
  in_pos += count * elem_size;
  return data;
}

static inline int64_t read_i64(void) {
  int64_t v;
  memcpy(&v, read_value(" i64", 0, NULL, 8), 8);
  return v;
}

static inline double read_f64(void) {
  double v;
  memcpy(&v, read_value(" f64", 0, NULL, 8), 8);
  return v;
}

static inline int32_t read_i32(void) {
  int32_t v;
  memcpy(&v, read_value(" i32", 0, NULL, 4), 4);
  return v;
}

/* A freshly allocated copy of an array's elements (so it is aligned). */
static inline void *read_array(const char *tag, int rank, int64_t *dims, size_t elem_size) {
  const void *src = read_value(tag, rank, dims, elem_size);
  size_t count = 1;
  for (int i = 0; i < rank; i++) count *= (size_t)dims[i];
  void *dst = malloc(count * elem_size + 1);
  if (!dst) die("out of memory");
  memcpy(dst, src, count * elem_size);
  return dst;
}

/* ---- Output in Futhark's value formats. ---- */

static inline void put_f32(FILE *f, float x) {
  if (isnan(x))
    fputs("f32.nan", f);
  else if (isinf(x))
    fputs(x > 0 ? "f32.inf" : "-f32.inf", f);
  else
    fprintf(f, "%.9gf32", x);
}

static inline void put_f64(FILE *f, double x) {
  if (isnan(x))
    fputs("f64.nan", f);
  else if (isinf(x))
    fputs(x > 0 ? "f64.inf" : "-f64.inf", f);
  else
    fprintf(f, "%.17gf64", x);
}

static inline void put_elem(FILE *f, const char *tag, const void *p) {
  if (strcmp(tag, " i32") == 0)
    fprintf(f, "%di32", *(const int32_t *)p);
  else if (strcmp(tag, " f32") == 0)
    put_f32(f, *(const float *)p);
  else if (strcmp(tag, " f64") == 0)
    put_f64(f, *(const double *)p);
  else
    die("cannot print this type");
}

static inline void put_text(FILE *f, const char *tag, int rank, const int64_t *dims, const char *data,
                     size_t elem_size) {
  if (rank == 0) {
    put_elem(f, tag, data);
    return;
  }
  size_t inner = elem_size;
  for (int i = 1; i < rank; i++) inner *= (size_t)dims[i];
  if (dims[0] == 0 || inner == 0) {
    fputs("empty(", f);
    for (int i = 0; i < rank; i++) fprintf(f, "[%lld]", (long long)dims[i]);
    fprintf(f, "%s)", tag + 1);
    return;
  }
  fputc('[', f);
  for (int64_t i = 0; i < dims[0]; i++) {
    if (i > 0) fputs(", ", f);
    put_text(f, tag, rank - 1, dims + 1, data + i * inner, elem_size);
  }
  fputc(']', f);
}

/* Prints one value (one per line in text mode), honouring -b and -n. */
static inline void print_value(const struct opts *o, const char *tag, int rank, const int64_t *dims,
                        const void *data, size_t elem_size) {
  if (o->no_print) return;
  if (o->binary) {
    unsigned char hdr[3] = {'b', 2, (unsigned char)rank};
    fwrite(hdr, 1, 3, stdout);
    fwrite(tag, 1, 4, stdout);
    size_t count = 1;
    for (int i = 0; i < rank; i++) {
      uint64_t d = (uint64_t)dims[i];
      unsigned char le[8];
      for (int b = 0; b < 8; b++) le[b] = (unsigned char)(d >> (8 * b));
      fwrite(le, 1, 8, stdout);
      count *= (size_t)dims[i];
    }
    fwrite(data, elem_size, count, stdout);
  } else {
    put_text(stdout, tag, rank, dims, data, elem_size);
    fputc('\n', stdout);
  }
}

/* ---- Timing: run `body` (warm-up, then the timed runs) and report. ---- */

static inline void run_timed(const struct opts *o, void (*body)(void *), void *env) {
  if (o->warmup) body(env);
  FILE *tf = NULL;
  if (o->timing_file) {
    tf = fopen(o->timing_file, "w");
    if (!tf) die("cannot open the timing file");
  }
  for (int r = 0; r < o->runs; r++) {
    int64_t t0 = now_us();
    body(env);
    int64_t t1 = now_us();
    if (tf)
      fprintf(tf, "%lld\n", (long long)(t1 - t0));
    else
      fprintf(stderr, "runtime: %lld us\n", (long long)(t1 - t0));
  }
  if (tf) fclose(tf);
}

#endif
