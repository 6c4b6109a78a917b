/* ogham runtime, values: Futhark's textual and binary value formats.
 *
 * A value outside the program (read from input, printed, kept by the
 * server) is an og_value: a primitive type, a rank, a shape and contiguous
 * row-major data in a memory block; or an opaque value made of parts. */

enum og_prim { OG_I8, OG_I16, OG_I32, OG_I64, OG_U8, OG_U16, OG_U32, OG_U64, OG_F16, OG_F32, OG_F64, OG_BOOL };

static const char *const og_prim_names[12] = {"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64", "bool"};
static const char *const og_prim_tags[12] = {"  i8", " i16", " i32", " i64", "  u8", " u16", " u32", " u64", " f16", " f32", " f64", "bool"};
static const int og_prim_sizes[12] = {1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 1};

/* How an entry point's input or output looks from outside. */
typedef struct og_type_desc {
  const char *name;     /* as printed: "[][]f32", "i32", or an opaque name */
  int prim;             /* element type; -1 for opaque */
  int rank;
  int nparts;           /* for opaque: the parts (primitives or arrays) */
  const struct og_type_desc *const *parts;
  int nfields;          /* for records: field names and how many parts each spans */
  const char *const *field_names;
  const struct og_type_desc *const *field_types;
  const int *field_parts;
} og_type_desc;

typedef struct og_value {
  const og_type_desc *type;
  int prim;
  int rank;
  int64_t shape[OG_MAX_RANK];
  og_mem *mem;               /* contiguous data; NULL for opaque values */
  int nparts;
  struct og_value **parts;   /* for opaque values */
} og_value;

static inline void og_value_free(og_value *v) {
  if (v == NULL) return;
  og_unref(v->mem);
  for (int i = 0; i < v->nparts; i++) og_value_free(v->parts[i]);
  free(v->parts);
  free(v);
}

static inline int64_t og_value_elems(const og_value *v) { return og_shape_elems(v->rank, v->shape); }

/* ---- Reading ---- */

typedef struct og_reader {
  const unsigned char *buf;
  size_t len, pos;
  char error[512];
} og_reader;

static inline int og_read_fail(og_reader *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->error, sizeof r->error, fmt, ap);
  va_end(ap);
  return 1;
}

static inline int og_peek(og_reader *r) { return r->pos < r->len ? r->buf[r->pos] : -1; }

/* Skips white space and `--` comments. */
static inline void og_skip_space(og_reader *r) {
  for (;;) {
    int c = og_peek(r);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      r->pos++;
    } else if (c == '-' && r->pos + 1 < r->len && r->buf[r->pos + 1] == '-') {
      while (r->pos < r->len && r->buf[r->pos] != '\n') r->pos++;
    } else {
      return;
    }
  }
}

static inline bool og_at_end(og_reader *r) {
  og_skip_space(r);
  return r->pos >= r->len;
}

static inline bool og_token_char(int c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.';
}

/* Reads one scalar token (with an optional leading '-') into tok. */
static inline int og_read_token(og_reader *r, char *tok, size_t size) {
  og_skip_space(r);
  size_t k = 0;
  if (og_peek(r) == '-') tok[k++] = (char)r->buf[r->pos++];
  while (r->pos < r->len && k + 1 < size) {
    int c = r->buf[r->pos];
    bool exp_sign = (c == '+' || c == '-') && k > 0 && (tok[k - 1] == 'e' || tok[k - 1] == 'E') &&
                    !(k >= 2 && (tok[1] == 'x' || tok[1] == 'X' || (k >= 3 && (tok[2] == 'x' || tok[2] == 'X'))));
    if (!og_token_char(c) && !exp_sign) break;
    tok[k++] = (char)c;
    r->pos++;
  }
  tok[k] = 0;
  if (k == 0 || (k == 1 && tok[0] == '-')) return og_read_fail(r, "expected a value at byte %zu", r->pos);
  return 0;
}

/* Splits a type suffix (i32, f64, ...) off a numeric token; returns the type or -1. */
static inline int og_split_suffix(char *tok, bool hex) {
  size_t n = strlen(tok);
  for (int t = 0; t < 12; t++) {
    if (t == OG_BOOL) continue;
    size_t m = strlen(og_prim_names[t]);
    if (n > m && strcmp(tok + n - m, og_prim_names[t]) == 0) {
      /* In hex literals 'f16' etc. could be digits; only accept i/u suffixes there. */
      if (hex && og_prim_names[t][0] == 'f') continue;
      tok[n - m] = 0;
      return t;
    }
  }
  return -1;
}

/* Parses an integer literal (decimal, 0x, 0b, with '_' separators) into *mag and *neg. */
static inline bool og_parse_int(const char *s, uint64_t *mag, bool *neg) {
  *neg = false;
  if (*s == '-') {
    *neg = true;
    s++;
  }
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
  } else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    s += 2;
  }
  uint64_t v = 0;
  bool any = false;
  for (; *s; s++) {
    if (*s == '_') continue;
    int d;
    if (*s >= '0' && *s <= '9') d = *s - '0';
    else if (*s >= 'a' && *s <= 'f') d = *s - 'a' + 10;
    else if (*s >= 'A' && *s <= 'F') d = *s - 'A' + 10;
    else return false;
    if (d >= base) return false;
    if (__builtin_mul_overflow(v, (uint64_t)base, &v) || __builtin_add_overflow(v, (uint64_t)d, &v)) return false;
    any = true;
  }
  *mag = v;
  return any;
}

/* Reads one scalar of type t into dst. */
static inline int og_read_scalar(og_reader *r, int t, unsigned char *dst) {
  char tok[256];
  size_t start = r->pos;
  if (og_read_token(r, tok, sizeof tok)) return 1;
  if (t == OG_BOOL) {
    bool b;
    if (strcmp(tok, "true") == 0) b = true;
    else if (strcmp(tok, "false") == 0) b = false;
    else return og_read_fail(r, "expected a bool, got \"%s\" at byte %zu", tok, start);
    memcpy(dst, &b, 1);
    return 0;
  }
  bool is_float = t == OG_F16 || t == OG_F32 || t == OG_F64;
  if (is_float) {
    const char *body = tok[0] == '-' ? tok + 1 : tok;
    double x;
    if (strncmp(body, "f16.", 4) == 0 || strncmp(body, "f32.", 4) == 0 || strncmp(body, "f64.", 4) == 0) {
      if (strncmp(body, og_prim_names[t], 3) != 0) return og_read_fail(r, "expected %s, got \"%s\"", og_prim_names[t], tok);
      if (strcmp(body + 4, "nan") == 0) x = NAN;
      else if (strcmp(body + 4, "inf") == 0) x = INFINITY;
      else return og_read_fail(r, "invalid float \"%s\" at byte %zu", tok, start);
      if (tok[0] == '-') x = -x;
    } else {
      /* In a hexadecimal float, f16/f32/f64 are a suffix only after a binary
       * exponent (0x1p3f32); in 0x1f32 they are digits, as strtod reads them. */
      bool hex_digits = (body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) && strpbrk(body, "pP") == NULL;
      int suffix = og_split_suffix(tok, hex_digits);
      if (suffix >= 0 && suffix != t) return og_read_fail(r, "expected %s, got \"%s%s\" at byte %zu", og_prim_names[t], tok, og_prim_names[suffix], start);
      char clean[256];
      size_t k = 0;
      for (const char *p = tok; *p && k + 1 < sizeof clean; p++) if (*p != '_') clean[k++] = *p;
      clean[k] = 0;
      char *end;
      errno = 0;
      x = strtod(clean, &end);
      if (*end != 0 || k == 0 || isalpha((unsigned char)clean[k - 1]) ) return og_read_fail(r, "invalid %s \"%s\" at byte %zu", og_prim_names[t], tok, start);
    }
    if (t == OG_F64) memcpy(dst, &x, 8);
    else if (t == OG_F32) { float f = (float)x; memcpy(dst, &f, 4); }
    else { og_f16 h = og_f16_from_f64(x); memcpy(dst, &h, 2); }
    return 0;
  }
  bool hex = (tok[0] == '0' || (tok[0] == '-' && tok[1] == '0')) && strchr(tok, 'x') != NULL;
  int suffix = og_split_suffix(tok, hex);
  if (suffix >= 0 && suffix != t) return og_read_fail(r, "expected %s, got \"%s%s\" at byte %zu", og_prim_names[t], tok, og_prim_names[suffix], start);
  uint64_t mag;
  bool neg;
  if (!og_parse_int(tok, &mag, &neg)) return og_read_fail(r, "invalid %s \"%s\" at byte %zu", og_prim_names[t], tok, start);
  int bits = og_prim_sizes[t] * 8;
  uint64_t v;
  /* Futhark's rule: the literal is taken modulo 2^bits (-1u32 is
   * 4294967295u32, 255i8 is -1i8). One with a type suffix wraps whatever
   * its size (32767i8 is -1i8); an unsuffixed one outside both the signed
   * and the unsigned range of the width is rejected. Same rule as ogham-data. */
  uint64_t umax = bits == 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1);
  uint64_t nmax = (uint64_t)1 << (bits - 1);
  if (suffix < 0 && ((neg && mag > nmax) || (!neg && mag > umax)))
    return og_read_fail(r, "value \"%s\" out of range for %s", tok, og_prim_names[t]);
  v = neg ? (uint64_t)0 - mag : mag;
  switch (og_prim_sizes[t]) {
  case 1: { uint8_t x = (uint8_t)v; memcpy(dst, &x, 1); break; }
  case 2: { uint16_t x = (uint16_t)v; memcpy(dst, &x, 2); break; }
  case 4: { uint32_t x = (uint32_t)v; memcpy(dst, &x, 4); break; }
  default: memcpy(dst, &v, 8); break;
  }
  return 0;
}

/* A growable byte buffer for array elements being read. */
typedef struct og_bytes {
  unsigned char *data;
  size_t len, cap;
} og_bytes;

static inline unsigned char *og_bytes_push(og_bytes *b, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 256;
    while (cap < b->len + n) cap *= 2;
    unsigned char *d = realloc(b->data, cap);
    if (d == NULL) return NULL;
    b->data = d;
    b->cap = cap;
  }
  unsigned char *p = b->data + b->len;
  b->len += n;
  return p;
}

/* Reads a (possibly nested) text array of element type t at depth d. */
static inline int og_read_text_array(og_reader *r, int t, int rank, int d, int64_t *shape, bool *seen, og_bytes *out) {
  /* d < rank <= OG_MAX_RANK, which GCC cannot see through the recursion. */
  if (d >= OG_MAX_RANK) return og_read_fail(r, "array of more than %d dimensions", OG_MAX_RANK);
  og_skip_space(r);
  if (og_peek(r) != '[') return og_read_fail(r, "expected '[' at byte %zu", r->pos);
  r->pos++;
  int64_t n = 0;
  for (;;) {
    og_skip_space(r);
    if (og_peek(r) == ']') {
      r->pos++;
      break;
    }
    if (n > 0) {
      if (og_peek(r) != ',') return og_read_fail(r, "expected ',' or ']' at byte %zu", r->pos);
      r->pos++;
      og_skip_space(r);
      if (og_peek(r) == ']') {
        r->pos++;
        break;
      }
    }
    if (d + 1 < rank) {
      if (og_read_text_array(r, t, rank, d + 1, shape, seen, out)) return 1;
    } else {
      unsigned char *p = og_bytes_push(out, (size_t)og_prim_sizes[t]);
      if (p == NULL) return og_read_fail(r, "out of memory");
      if (og_read_scalar(r, t, p)) return 1;
    }
    n++;
  }
  if (n == 0) return og_read_fail(r, "empty array literal; write empty([0]%s) instead", og_prim_names[t]);
  if (seen[d] && shape[d] != n) return og_read_fail(r, "irregular array: rows of length %lld and %lld", (long long)shape[d], (long long)n);
  seen[d] = true;
  shape[d] = n;
  return 0;
}

/* Reads `empty([d0]...[dn]t)` after the word `empty`. */
static inline int og_read_empty(og_reader *r, int t, int rank, int64_t *shape) {
  og_skip_space(r);
  if (og_peek(r) != '(') return og_read_fail(r, "expected '(' after empty");
  r->pos++;
  int dims = 0;
  bool zero = false;
  for (;;) {
    og_skip_space(r);
    if (og_peek(r) != '[') break;
    r->pos++;
    char tok[64];
    if (og_read_token(r, tok, sizeof tok)) return 1;
    uint64_t mag;
    bool neg;
    og_split_suffix(tok, false);
    if (!og_parse_int(tok, &mag, &neg) || neg || mag > INT64_MAX) return og_read_fail(r, "invalid dimension in empty()");
    og_skip_space(r);
    if (og_peek(r) != ']') return og_read_fail(r, "expected ']' in empty()");
    r->pos++;
    if (dims < OG_MAX_RANK) shape[dims] = (int64_t)mag;
    if (mag == 0) zero = true;
    dims++;
  }
  char tok[64];
  if (og_read_token(r, tok, sizeof tok)) return 1;
  if (strcmp(tok, og_prim_names[t]) != 0 || dims != rank)
    return og_read_fail(r, "expected an empty array of type %d-dimensional %s, got %s", rank, og_prim_names[t], tok);
  if (!zero) return og_read_fail(r, "empty() needs a zero dimension");
  og_skip_space(r);
  if (og_peek(r) != ')') return og_read_fail(r, "expected ')' to close empty(");
  r->pos++;
  return 0;
}

/* Reads a binary value (the 'b' has not been consumed). */
static inline int og_read_binary(og_reader *r, int t, int rank, int64_t *shape, og_bytes *out) {
  if (r->pos + 7 > r->len) return og_read_fail(r, "truncated binary value header");
  const unsigned char *h = r->buf + r->pos;
  if (h[1] != 2) return og_read_fail(r, "unsupported binary format version %d", h[1]);
  if (h[2] != rank) return og_read_fail(r, "expected a value of rank %d, got rank %d", rank, h[2]);
  if (memcmp(h + 3, og_prim_tags[t], 4) != 0) return og_read_fail(r, "expected a value of type %s, got \"%.4s\"", og_prim_names[t], (const char *)h + 3);
  r->pos += 7;
  if (r->pos + 8 * (size_t)rank > r->len) return og_read_fail(r, "truncated binary value shape");
  for (int i = 0; i < rank; i++) {
    uint64_t d = 0;
    for (int k = 7; k >= 0; k--) d = (d << 8) | r->buf[r->pos + (size_t)k];
    if (d > INT64_MAX) return og_read_fail(r, "invalid dimension in binary value");
    shape[i] = (int64_t)d;
    r->pos += 8;
  }
  int64_t n = og_shape_elems(rank, shape);
  int64_t bytes;
  if (n < 0 || __builtin_mul_overflow(n, (int64_t)og_prim_sizes[t], &bytes) || (uint64_t)bytes > r->len - r->pos)
    return og_read_fail(r, "truncated binary value data");
  unsigned char *p = og_bytes_push(out, (size_t)bytes);
  if (p == NULL && bytes > 0) return og_read_fail(r, "out of memory");
  if (bytes > 0) memcpy(p, r->buf + r->pos, (size_t)bytes);
  r->pos += (size_t)bytes;
  return 0;
}

/* Reads a value of element type t and rank `rank`, text or binary. */
static inline og_value *og_read_value(og_ctx *ctx, og_reader *r, int t, int rank) {
  og_bytes out = {NULL, 0, 0};
  int64_t shape[OG_MAX_RANK] = {0};
  bool seen[OG_MAX_RANK] = {false};
  og_skip_space(r);
  int err;
  if (og_peek(r) == 'b' && r->pos + 1 < r->len && r->buf[r->pos + 1] == 2) {
    err = og_read_binary(r, t, rank, shape, &out);
  } else if (rank == 0) {
    unsigned char *p = og_bytes_push(&out, (size_t)og_prim_sizes[t]);
    err = p == NULL ? og_read_fail(r, "out of memory") : og_read_scalar(r, t, p);
  } else if (r->pos + 5 <= r->len && memcmp(r->buf + r->pos, "empty", 5) == 0) {
    r->pos += 5;
    err = og_read_empty(r, t, rank, shape);
  } else if (og_peek(r) == '"' && rank == 1 && t == OG_U8) {
    r->pos++;
    err = 0;
    while (og_peek(r) != '"') {
      if (og_peek(r) < 0) { err = og_read_fail(r, "unterminated string"); break; }
      unsigned char *p = og_bytes_push(&out, 1);
      if (p == NULL) { err = og_read_fail(r, "out of memory"); break; }
      *p = r->buf[r->pos++];
      shape[0]++;
    }
    if (!err) r->pos++;
  } else {
    err = og_read_text_array(r, t, rank, 0, shape, seen, &out);
  }
  if (err) {
    free(out.data);
    return NULL;
  }
  og_value *v = calloc(1, sizeof *v);
  og_mem *m = og_mem_alloc(ctx, (int64_t)out.len, NULL);
  if (v == NULL || m == NULL) {
    free(v);
    og_unref(m);
    free(out.data);
    og_read_fail(r, "out of memory");
    return NULL;
  }
  if (out.len > 0) memcpy(og_mem_data(m), out.data, out.len);
  free(out.data);
  v->prim = t;
  v->rank = rank;
  memcpy(v->shape, shape, sizeof shape);
  v->mem = m;
  return v;
}

/* Reads a value of the given described type: opaque values as their parts in order. */
static inline og_value *og_read_typed(og_ctx *ctx, og_reader *r, const og_type_desc *ty) {
  if (ty->prim >= 0) {
    og_value *v = og_read_value(ctx, r, ty->prim, ty->rank);
    if (v != NULL) v->type = ty;
    return v;
  }
  og_value *v = calloc(1, sizeof *v);
  og_value **parts = calloc((size_t)ty->nparts + 1, sizeof *parts);
  if (v == NULL || parts == NULL) {
    free(v);
    free(parts);
    og_read_fail(r, "out of memory");
    return NULL;
  }
  v->type = ty;
  v->prim = -1;
  v->nparts = ty->nparts;
  v->parts = parts;
  for (int i = 0; i < ty->nparts; i++) {
    parts[i] = og_read_typed(ctx, r, ty->parts[i]);
    if (parts[i] == NULL) {
      og_value_free(v);
      return NULL;
    }
  }
  return v;
}

/* Reads the bytes of one value of element type t and rank `rank` from a
 * stream into out, without interpreting them beyond what bounds the read:
 * a binary value's header and shape are checked before its payload is read
 * (in chunks, so a lying size costs only what the stream really holds), and
 * a text value ends at the first blank after it at bracket depth 0 and may
 * contain only printable ASCII outside strings (so /dev/zero fails at its
 * first byte). Returns 1 with a message in err on failure. */
static inline int og_stream_one(FILE *f, int t, int rank, og_bytes *out, char *err, size_t errsz) {
  int c;
  for (;;) {
    c = getc(f);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (c == '-') {
      int d = getc(f);
      if (d == '-') { while (c != EOF && c != '\n') c = getc(f); continue; }
      if (d != EOF) ungetc(d, f);
    }
    break;
  }
  if (c == EOF) { snprintf(err, errsz, "the file ended before the value"); return 1; }
  if (c == 'b') {
    unsigned char h[7];
    h[0] = 'b';
    if (fread(h + 1, 1, 6, f) != 6) { snprintf(err, errsz, "truncated binary value header"); return 1; }
    if (h[1] != 2) { snprintf(err, errsz, "unsupported binary format version %d", h[1]); return 1; }
    if (h[2] != rank) { snprintf(err, errsz, "expected a value of rank %d, got rank %d", rank, h[2]); return 1; }
    if (memcmp(h + 3, og_prim_tags[t], 4) != 0) { snprintf(err, errsz, "expected a value of type %s", og_prim_names[t]); return 1; }
    unsigned char dims[8 * OG_MAX_RANK];
    if (fread(dims, 8, (size_t)rank, f) != (size_t)rank) { snprintf(err, errsz, "truncated binary value shape"); return 1; }
    int64_t shape[OG_MAX_RANK];
    for (int i = 0; i < rank; i++) {
      uint64_t d = 0;
      for (int k = 7; k >= 0; k--) d = (d << 8) | dims[8 * i + k];
      if (d > INT64_MAX) { snprintf(err, errsz, "invalid dimension in binary value"); return 1; }
      shape[i] = (int64_t)d;
    }
    int64_t n = og_shape_elems(rank, shape), bytes;
    if (n < 0 || __builtin_mul_overflow(n, (int64_t)og_prim_sizes[t], &bytes)) { snprintf(err, errsz, "binary value too large"); return 1; }
    unsigned char *p = og_bytes_push(out, 7 + 8 * (size_t)rank);
    if (p == NULL) { snprintf(err, errsz, "out of memory"); return 1; }
    memcpy(p, h, 7);
    memcpy(p + 7, dims, 8 * (size_t)rank);
    while (bytes > 0) {
      size_t chunk = bytes < ((int64_t)1 << 20) ? (size_t)bytes : ((size_t)1 << 20);
      size_t at = out->len;
      if (og_bytes_push(out, chunk) == NULL) { snprintf(err, errsz, "out of memory"); return 1; }
      size_t got = fread(out->data + at, 1, chunk, f);
      if (got != chunk) { snprintf(err, errsz, "truncated binary value data"); return 1; }
      bytes -= (int64_t)chunk;
    }
    return 0;
  }
  int depth = 0;
  bool in_string = false;
  for (;;) {
    if (c == EOF) {
      if (depth == 0 && !in_string) return 0;
      snprintf(err, errsz, "the file ended inside a value");
      return 1;
    }
    if (!in_string) {
      if ((c == ' ' || c == '\t' || c == '\n' || c == '\r') && depth == 0) return 0;
      if (c == '-') {
        int d = getc(f);
        if (d == '-') {
          while (c != EOF && c != '\n') c = getc(f);
          if (depth == 0) return 0;
          c = '\n';
        } else if (d != EOF) ungetc(d, f);
      }
      if (c < 0x20 ? (c != '\t' && c != '\n' && c != '\r') : c > 0x7e) {
        snprintf(err, errsz, "invalid byte 0x%02x in a text value", (unsigned)c);
        return 1;
      }
    }
    unsigned char *p = og_bytes_push(out, 1);
    if (p == NULL) { snprintf(err, errsz, "out of memory"); return 1; }
    *p = (unsigned char)c;
    if (in_string) {
      if (c == '\\') {
        int d = getc(f);
        if (d == EOF) continue;
        p = og_bytes_push(out, 1);
        if (p == NULL) { snprintf(err, errsz, "out of memory"); return 1; }
        *p = (unsigned char)d;
      } else if (c == '"') {
        in_string = false;
        if (depth == 0) return 0;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '(') {
      depth++;
    } else if (c == ']' || c == ')') {
      if (--depth <= 0) return 0;
    }
    c = getc(f);
  }
}

/* og_stream_one for a described type: opaque values as their parts in order. */
static inline int og_stream_value(FILE *f, const og_type_desc *ty, og_bytes *out, char *err, size_t errsz) {
  if (ty->prim >= 0) return og_stream_one(f, ty->prim, ty->rank, out, err, errsz);
  for (int i = 0; i < ty->nparts; i++) {
    if (og_stream_value(f, ty->parts[i], out, err, errsz)) return 1;
    unsigned char *p = og_bytes_push(out, 1);
    if (p == NULL) { snprintf(err, errsz, "out of memory"); return 1; }
    *p = ' ';
  }
  return 0;
}

/* ---- Writing ---- */

static inline void og_write_scalar_text(FILE *f, int t, const unsigned char *p) {
  switch (t) {
  case OG_I8: { int8_t x; memcpy(&x, p, 1); fprintf(f, "%di8", (int)x); break; }
  case OG_I16: { int16_t x; memcpy(&x, p, 2); fprintf(f, "%di16", (int)x); break; }
  case OG_I32: { int32_t x; memcpy(&x, p, 4); fprintf(f, "%di32", (int)x); break; }
  case OG_I64: { int64_t x; memcpy(&x, p, 8); fprintf(f, "%lldi64", (long long)x); break; }
  case OG_U8: { uint8_t x; memcpy(&x, p, 1); fprintf(f, "%uu8", (unsigned)x); break; }
  case OG_U16: { uint16_t x; memcpy(&x, p, 2); fprintf(f, "%uu16", (unsigned)x); break; }
  case OG_U32: { uint32_t x; memcpy(&x, p, 4); fprintf(f, "%uu32", (unsigned)x); break; }
  case OG_U64: { uint64_t x; memcpy(&x, p, 8); fprintf(f, "%lluu64", (unsigned long long)x); break; }
  case OG_BOOL: fputs(*p ? "true" : "false", f); break;
  default: {
    double x;
    int digits;
    if (t == OG_F16) { og_f16 h; memcpy(&h, p, 2); x = og_f16_to_f32(h); digits = 5; }
    else if (t == OG_F32) { float y; memcpy(&y, p, 4); x = y; digits = 9; }
    else { memcpy(&x, p, 8); digits = 17; }
    const char *name = og_prim_names[t];
    if (isnan(x)) fprintf(f, "%s.nan", name);
    else if (isinf(x)) fprintf(f, "%s%s.inf", x < 0 ? "-" : "", name);
    else fprintf(f, "%.*g%s", digits, x, name);
  }
  }
}

static inline void og_write_text_rec(FILE *f, const og_value *v, int d, const unsigned char **p) {
  /* d < rank <= OG_MAX_RANK, which GCC cannot see through the recursion. */
  if (d == v->rank || d >= OG_MAX_RANK) {
    og_write_scalar_text(f, v->prim, *p);
    *p += og_prim_sizes[v->prim];
    return;
  }
  fputc('[', f);
  for (int64_t i = 0; i < v->shape[d]; i++) {
    if (i > 0) fputs(", ", f);
    og_write_text_rec(f, v, d + 1, p);
  }
  fputc(']', f);
}

/* Writes a primitive or array value in text form (no newline). */
static inline void og_write_text(FILE *f, const og_value *v) {
  if (v->prim < 0) {
    for (int i = 0; i < v->nparts; i++) {
      if (i > 0) fputc('\n', f);
      og_write_text(f, v->parts[i]);
    }
    return;
  }
  if (v->rank > 0 && og_value_elems(v) == 0) {
    fputs("empty(", f);
    for (int i = 0; i < v->rank; i++) fprintf(f, "[%lld]", (long long)v->shape[i]);
    fprintf(f, "%s)", og_prim_names[v->prim]);
    return;
  }
  const unsigned char *p = og_mem_data(v->mem);
  og_write_text_rec(f, v, 0, &p);
}

/* Writes a value in the binary format (opaque values as their parts). */
static inline void og_write_binary(FILE *f, const og_value *v) {
  if (v->prim < 0) {
    for (int i = 0; i < v->nparts; i++) og_write_binary(f, v->parts[i]);
    return;
  }
  fputc('b', f);
  fputc(2, f);
  fputc(v->rank, f);
  fputs(og_prim_tags[v->prim], f);
  for (int i = 0; i < v->rank; i++) {
    uint64_t d = (uint64_t)v->shape[i];
    for (int k = 0; k < 8; k++) fputc((int)((d >> (8 * k)) & 0xff), f);
  }
  int64_t n = og_value_elems(v);
  if (n > 0) fwrite(og_mem_data(v->mem), (size_t)og_prim_sizes[v->prim], (size_t)n, f);
}

/* Reads a whole stream into memory. Returns NULL on failure. */
static inline unsigned char *og_slurp(FILE *f, size_t *len) {
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = malloc(cap);
  if (buf == NULL) return NULL;
  for (;;) {
    if (n == cap) {
      unsigned char *b = realloc(buf, cap * 2);
      if (b == NULL) { free(buf); return NULL; }
      buf = b;
      cap *= 2;
    }
    size_t k = fread(buf + n, 1, cap - n, f);
    n += k;
    if (k == 0) break;
  }
  *len = n;
  return buf;
}

/* An entry point as the executable and the server see it. */
typedef struct og_entry {
  const char *name;
  int n_in;
  const og_type_desc *const *in_types;
  const bool *in_unique;
  int n_out;
  const og_type_desc *const *out_types;
  const bool *out_unique;
  /* Reads ins (not consumed unless unique), writes fresh outs; 0 on success. */
  int (*call)(og_ctx *ctx, og_value **outs, og_value *const *ins);
  /* The tuning parameters it can reach, NULL-terminated. */
  const char *const *tuning_params;
} og_entry;
