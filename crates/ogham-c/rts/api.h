/* ogham runtime, values at the program's boundary, shared by the `--server`
 * executable (main.h) and the C library API (library.h): finding a type
 * description by its name, the single tuple output of an entry point with
 * several results (Futhark >= 0.26.1 returns exactly one value), and the
 * binary form of a value in memory (what `store` writes and `restore` reads).
 * The generated program defines og_entries, og_num_entries,
 * og_opaque_types and og_num_opaque_types before this file. */

/* The number of the tuning parameter `name` (og_tuning_names), or -1 when
 * the program has none of that name. */
static inline int og_tuning_index(const char *name) {
  for (int i = 0; i < OG_NUM_TUNING_PARAMS; i++) {
    if (strcmp(og_tuning_names[i], name) == 0) return i;
  }
  return -1;
}

/* Descriptions of the tuple outputs, built on first use (indexed like
 * og_entries; NULL for entry points with one result). They live as long as
 * the process, like the static descriptions. */
static og_type_desc **og_api_tuples;

/* Builds the record type `(t0, t1, ...)` with fields "0", "1", ... whose
 * parts are the concatenated parts of the entry point's results. */
static inline og_type_desc *og_api_build_tuple(const og_entry *e) {
  int nparts = 0;
  size_t name_len = 3;
  for (int k = 0; k < e->n_out; k++) {
    nparts += e->out_types[k]->prim >= 0 ? 1 : e->out_types[k]->nparts;
    name_len += strlen(e->out_types[k]->name) + 2;
  }
  og_type_desc *d = calloc(1, sizeof *d);
  char *name = malloc(name_len);
  const og_type_desc **parts = calloc((size_t)nparts + 1, sizeof *parts);
  const char **fnames = calloc((size_t)e->n_out, sizeof *fnames);
  const og_type_desc **ftypes = calloc((size_t)e->n_out, sizeof *ftypes);
  int *fparts = calloc((size_t)e->n_out, sizeof *fparts);
  char *digits = calloc((size_t)e->n_out, 16);
  if (d == NULL || name == NULL || parts == NULL || fnames == NULL || ftypes == NULL || fparts == NULL || digits == NULL) {
    free(d); free(name); free(parts); free(fnames); free(ftypes); free(fparts); free(digits);
    return NULL;
  }
  size_t at = 0;
  name[at++] = '(';
  int p = 0;
  for (int k = 0; k < e->n_out; k++) {
    const og_type_desc *t = e->out_types[k];
    at += (size_t)snprintf(name + at, name_len - at, "%s%s", k > 0 ? ", " : "", t->name);
    snprintf(digits + 16 * k, 16, "%d", k);
    fnames[k] = digits + 16 * k;
    ftypes[k] = t;
    if (t->prim >= 0) {
      parts[p++] = t;
      fparts[k] = 1;
    } else {
      for (int j = 0; j < t->nparts; j++) parts[p++] = t->parts[j];
      fparts[k] = t->nparts;
    }
  }
  snprintf(name + at, name_len - at, ")");
  d->name = name;
  d->prim = -1;
  d->nparts = nparts;
  d->parts = parts;
  d->nfields = e->n_out;
  d->field_names = fnames;
  d->field_types = ftypes;
  d->field_parts = fparts;
  return d;
}

/* The type of the single value an entry point returns: its one result, or
 * the tuple of its results. NULL only when out of memory. */
static inline const og_type_desc *og_api_output_type(int entry) {
  const og_entry *e = &og_entries[entry];
  if (e->n_out == 1) return e->out_types[0];
  if (og_api_tuples == NULL) {
    og_api_tuples = calloc((size_t)og_num_entries + 1, sizeof *og_api_tuples);
    if (og_api_tuples == NULL) return NULL;
  }
  if (og_api_tuples[entry] == NULL) og_api_tuples[entry] = og_api_build_tuple(e);
  return og_api_tuples[entry];
}

/* Whether the single output is unique (fresh): all results must be. */
static inline bool og_api_output_unique(int entry) {
  const og_entry *e = &og_entries[entry];
  for (int k = 0; k < e->n_out; k++)
    if (!e->out_unique[k]) return false;
  return e->n_out > 0;
}

/* Packs an entry point's results into its single output value, taking
 * ownership of every result. NULL (results freed) when out of memory. */
static inline og_value *og_api_pack_outputs(int entry, og_value **outs) {
  const og_entry *e = &og_entries[entry];
  if (e->n_out == 1) return outs[0];
  const og_type_desc *t = og_api_output_type(entry);
  og_value *v = calloc(1, sizeof *v);
  og_value **parts = t == NULL ? NULL : calloc((size_t)t->nparts + 1, sizeof *parts);
  if (v == NULL || parts == NULL) {
    free(v);
    free(parts);
    for (int k = 0; k < e->n_out; k++) og_value_free(outs[k]);
    return NULL;
  }
  int p = 0;
  for (int k = 0; k < e->n_out; k++) {
    og_value *o = outs[k];
    if (o->prim >= 0) {
      parts[p++] = o;
    } else {
      /* The parts move into the tuple; only the shell is freed. */
      for (int j = 0; j < o->nparts; j++) parts[p++] = o->parts[j];
      free(o->parts);
      free(o);
    }
  }
  v->type = t;
  v->prim = -1;
  v->nparts = p;
  v->parts = parts;
  return v;
}

/* ---- Calling an entry point ---- */

/* A block an input refers to and its reference count before a call. */
typedef struct og_api_held {
  og_mem *mem;
  int64_t refcount;
} og_api_held;

/* Appends the blocks of v (and of its parts) to held, up to max entries;
 * returns how many there are in all. */
static inline int og_api_collect(const og_value *v, og_api_held *held, int n, int max) {
  if (v == NULL) return n;
  if (v->mem != NULL) {
    if (n < max) {
      held[n].mem = v->mem;
      held[n].refcount = v->mem->refcount;
    }
    n++;
  }
  for (int i = 0; i < v->nparts; i++) n = og_api_collect(v->parts[i], held, n, max);
  return n;
}

/* Frees a value's structs but not its memory blocks: after a failed call
 * those are either gone (og_call_end freed them) or belong to the inputs. */
static inline void og_api_free_shell(og_value *v) {
  if (v == NULL) return;
  for (int i = 0; i < v->nparts; i++) og_api_free_shell(v->parts[i]);
  free(v->parts);
  free(v);
}

/* Calls entry point e, as the server, the executable and the library all
 * do: 0 with the results in outs, or 1 with the error in the context and
 * every out NULL. A failed call leaves no memory behind: the blocks it
 * allocated are freed (og_call_end), and the references it took to its
 * inputs' blocks and never released (a `loop acc = xs` that fails inside
 * holds one) are undone by putting back the reference counts the inputs'
 * blocks had before the call. That is exact because nothing but the call
 * could hold a reference taken during it, and the call is over. */
static inline int og_api_call(og_ctx *ctx, const og_entry *e, og_value **outs, og_value *const *ins) {
  og_api_held local[64];
  og_api_held *held = local;
  int nheld = 0;
  for (int i = 0; i < e->n_in; i++) nheld = og_api_collect(ins[i], local, nheld, 64);
  if (nheld > 64) {
    /* Out of memory here only means references leaked if the call fails. */
    held = malloc((size_t)nheld * sizeof *held);
    int k = 0;
    if (held != NULL)
      for (int i = 0; i < e->n_in; i++) k = og_api_collect(ins[i], held, k, nheld);
  }
  if (ctx->consts == NULL) {
    /* The context's creation failed: its error is still there. */
    if (ctx->error == NULL) og_fail(ctx, NULL, "The program's constants could not be computed.");
    if (held != local) free(held);
    return 1;
  }
  og_call_begin(ctx);
  int err = e->call(ctx, outs, ins);
  og_call_end(ctx, err != 0);
  if (err) og_consts_restore(ctx);
  if (err) {
    /* Most failures leave outs NULL; one that runs out of memory while
     * building several outputs leaves the earlier ones. Their blocks are
     * freed or restored with the rest, so only their structs go here. */
    for (int i = 0; i < e->n_out; i++) {
      og_api_free_shell(outs[i]);
      outs[i] = NULL;
    }
    if (held != NULL)
      for (int i = 0; i < nheld; i++) held[i].mem->refcount = held[i].refcount;
  }
  if (held != local) free(held);
  return err;
}

/* Finds a described type by the name Futhark prints for it. */
static inline const og_type_desc *og_api_find_type(const char *name) {
  for (int i = 0; i < og_num_entries; i++) {
    const og_entry *e = &og_entries[i];
    for (int k = 0; k < e->n_in; k++)
      if (strcmp(e->in_types[k]->name, name) == 0) return e->in_types[k];
    for (int k = 0; k < e->n_out; k++)
      if (strcmp(e->out_types[k]->name, name) == 0) return e->out_types[k];
  }
  for (int i = 0; i < og_num_opaque_types; i++) {
    const og_type_desc *t = og_opaque_types[i];
    for (int k = 0; k < t->nparts; k++)
      if (strcmp(t->parts[k]->name, name) == 0) return t->parts[k];
    for (int k = 0; k < t->nfields; k++)
      if (strcmp(t->field_types[k]->name, name) == 0) return t->field_types[k];
  }
  for (int i = 0; i < og_num_entries; i++) {
    if (og_entries[i].n_out < 2) continue;
    const og_type_desc *t = og_api_output_type(i);
    if (t != NULL && strcmp(t->name, name) == 0) return t;
  }
  return NULL;
}

/* The byte length of `nparts` binary values of the given types at p, or 0
 * when the bytes are not such values. The C API's restore gets no length,
 * so it measures first; the headers are checked before any data is read. */
static inline size_t og_api_binary_extent(const unsigned char *p, const og_type_desc *t) {
  if (t->prim < 0) {
    size_t n = 0;
    for (int i = 0; i < t->nparts; i++) {
      size_t k = og_api_binary_extent(p + n, t->parts[i]);
      if (k == 0) return 0;
      n += k;
    }
    return n;
  }
  if (p[0] != 'b' || p[1] != 2 || p[2] != t->rank || memcmp(p + 3, og_prim_tags[t->prim], 4) != 0) return 0;
  int64_t elems = 1;
  for (int i = 0; i < t->rank; i++) {
    uint64_t d = 0;
    for (int k = 7; k >= 0; k--) d = (d << 8) | p[7 + 8 * i + k];
    if (d > INT64_MAX || __builtin_mul_overflow(elems, (int64_t)d, &elems)) return 0;
  }
  int64_t bytes;
  if (__builtin_mul_overflow(elems, (int64_t)og_prim_sizes[t->prim], &bytes)) return 0;
  return 7 + 8 * (size_t)t->rank + (size_t)bytes;
}

/* The binary form of a value (opaque values as their parts in order, which
 * is what Futhark's tools read for tuples of primitives and arrays), in a
 * malloc'd buffer. Returns 1 when out of memory. */
static inline int og_api_store(const og_value *v, unsigned char **bytes, size_t *len) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (f == NULL) return 1;
  og_write_binary(f, v);
  if (fclose(f) != 0) {
    free(buf);
    return 1;
  }
  *bytes = (unsigned char *)buf;
  *len = n;
  return 0;
}
