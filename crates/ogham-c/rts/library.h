/* ogham runtime, libraries: the generic half of Futhark's C API
 * (`--library`). The generated half (library.rs) declares one struct and a
 * few thin functions per type and entry point; they all call the helpers
 * here. Every public value struct holds one og_value, so arrays and opaque
 * values share representation with the server and the executables, and an
 * entry point is a call through the same og_entries table.
 *
 * Errors never exit the process: they are kept in the context, and public
 * functions return FUTHARK_PROGRAM_ERROR (2) or FUTHARK_OUT_OF_MEMORY (3). */

#define OG_LIB_PROGRAM_ERROR 2
#define OG_LIB_OUT_OF_MEMORY 3

struct futhark_context_config {
  int num_threads;
  int debugging, profiling, logging;
  /* Tuning parameters, copied into each context made from this configuration. */
  int64_t tuning[OG_NUM_TUNING_PARAMS + 1];
  bool tuning_set[OG_NUM_TUNING_PARAMS + 1];
};

struct futhark_context {
  og_ctx og;
  int profiling_paused;
};

/* The layout of every public array and opaque struct. */
typedef struct og_lib_obj {
  og_value *v;
} og_lib_obj;

static inline struct futhark_context_config *og_lib_config_new(void) {
  return calloc(1, sizeof(struct futhark_context_config));
}

static inline int og_lib_config_set_tuning(struct futhark_context_config *cfg, const char *name, size_t value) {
  int k = og_tuning_index(name);
  if (k < 0) return 1;
  cfg->tuning[k] = (int64_t)value;
  cfg->tuning_set[k] = true;
  return 0;
}

static inline struct futhark_context *og_lib_context_new(const struct futhark_context_config *cfg) {
  struct futhark_context *ctx = calloc(1, sizeof *ctx);
  if (ctx == NULL) return NULL;
  og_ctx *c = &ctx->og;
  if (cfg != NULL) {
    memcpy(c->tuning, cfg->tuning, sizeof c->tuning);
    memcpy(c->tuning_set, cfg->tuning_set, sizeof c->tuning_set);
  }
  c->num_threads = 1;
  og_ctx_init_mem(c);
#if OG_MULTICORE
  c->num_threads = cfg != NULL && cfg->num_threads > 0 ? cfg->num_threads : og_default_threads();
  pthread_mutex_init(&c->lock, NULL);
  if (og_pool_start(c)) c->num_threads = 1;
#else
  (void)cfg;
#endif
  /* A failure is left for futhark_context_get_error; calls then fail. */
  og_consts_init(c);
  return ctx;
}

static inline void og_lib_context_free(struct futhark_context *ctx) {
  if (ctx == NULL) return;
  og_consts_free(&ctx->og);
#if OG_MULTICORE
  og_pool_stop(&ctx->og);
#endif
  /* Values the user has not freed yet may outlive the context. */
  og_ctx_detach_mem(&ctx->og);
  og_block_cache_flush();
#if OG_MULTICORE
  pthread_mutex_destroy(&ctx->og.lock);
#endif
  free(ctx->og.error);
  free(ctx);
}

/* The code a failed call returns: out of memory is told apart by its message,
 * which og_mem_alloc and og_alloc_arr always start the same way. */
static inline int og_lib_error_code(struct futhark_context *ctx) {
  og_ctx_lock(&ctx->og);
  const char *e = ctx->og.error;
  int code = e != NULL && strncmp(e, "Out of memory", 13) == 0 ? OG_LIB_OUT_OF_MEMORY : OG_LIB_PROGRAM_ERROR;
  og_ctx_unlock(&ctx->og);
  return code;
}

static inline int og_lib_fail(struct futhark_context *ctx, int code, const char *msg) {
  og_fail(&ctx->og, NULL, "%s", msg);
  return code;
}

/* Wraps a value in a fresh public struct (taking ownership); NULL, with the
 * value freed and an error recorded, when out of memory. */
static inline void *og_lib_wrap(struct futhark_context *ctx, og_value *v) {
  if (v == NULL) return NULL;
  og_lib_obj *o = malloc(sizeof *o);
  if (o == NULL) {
    og_value_free(v);
    og_lib_fail(ctx, OG_LIB_OUT_OF_MEMORY, "Out of memory.");
    return NULL;
  }
  o->v = v;
  return o;
}

static inline int og_lib_free(void *obj) {
  og_lib_obj *o = obj;
  if (o != NULL) {
    og_value_free(o->v);
    free(o);
  }
  return 0;
}

static inline og_value *og_lib_value(const void *obj) { return obj == NULL ? NULL : ((const og_lib_obj *)obj)->v; }

/* A fresh array value of the given element type and shape, copied from data. */
static inline og_value *og_lib_new_value(struct futhark_context *ctx, const og_type_desc *t, const void *data, const int64_t *shape) {
  int64_t elems = og_shape_elems(t->rank, shape), bytes;
  if (elems < 0 || __builtin_mul_overflow(elems, (int64_t)og_prim_sizes[t->prim], &bytes)) {
    og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "Invalid array shape.");
    return NULL;
  }
  og_value *v = calloc(1, sizeof *v);
  if (v == NULL) {
    og_lib_fail(ctx, OG_LIB_OUT_OF_MEMORY, "Out of memory.");
    return NULL;
  }
  v->mem = og_mem_alloc(&ctx->og, bytes, NULL);
  if (v->mem == NULL) {
    free(v);
    return NULL;
  }
  if (bytes > 0) memcpy(og_mem_data(v->mem), data, (size_t)bytes);
  v->type = t;
  v->prim = t->prim;
  v->rank = t->rank;
  for (int i = 0; i < t->rank; i++) v->shape[i] = shape[i];
  return v;
}

static inline void *og_lib_new_array(struct futhark_context *ctx, const og_type_desc *t, const void *data, const int64_t *shape) {
  return og_lib_wrap(ctx, og_lib_new_value(ctx, t, data, shape));
}

static inline int og_lib_values(struct futhark_context *ctx, const void *obj, void *out) {
  const og_value *v = og_lib_value(obj);
  if (v == NULL) return og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "NULL array.");
  int64_t n = og_value_elems(v);
  if (n > 0) memcpy(out, og_mem_data(v->mem), (size_t)(n * og_prim_sizes[v->prim]));
  return 0;
}

static inline int og_lib_index(struct futhark_context *ctx, void *out, const void *obj, const int64_t *idx) {
  const og_value *v = og_lib_value(obj);
  if (v == NULL) return og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "NULL array.");
  int64_t flat = 0;
  for (int i = 0; i < v->rank; i++) {
    if (idx[i] < 0 || idx[i] >= v->shape[i]) {
      char shape[256];
      og_shape_text(shape, sizeof shape, v->rank, v->shape);
      og_fail(&ctx->og, NULL, "Index %lld out of bounds for dimension %d of array of shape %s.", (long long)idx[i], i, shape);
      return OG_LIB_PROGRAM_ERROR;
    }
    flat = flat * v->shape[i] + idx[i];
  }
  int size = og_prim_sizes[v->prim];
  memcpy(out, og_mem_data(v->mem) + flat * size, (size_t)size);
  return 0;
}

static inline int og_lib_store(struct futhark_context *ctx, const void *obj, void **p, size_t *n) {
  const og_value *v = og_lib_value(obj);
  if (v == NULL) return og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "NULL value.");
  unsigned char *bytes;
  size_t len;
  if (og_api_store(v, &bytes, &len)) return og_lib_fail(ctx, OG_LIB_OUT_OF_MEMORY, "Out of memory.");
  /* As in Futhark: with p NULL only the size is wanted; with *p NULL the
   * buffer is malloc'd for the caller; otherwise the caller's buffer is
   * big enough (it learnt the size from an earlier call). */
  if (n != NULL) *n = len;
  if (p == NULL) {
    free(bytes);
  } else if (*p == NULL) {
    *p = bytes;
  } else {
    memcpy(*p, bytes, len);
    free(bytes);
  }
  return 0;
}

static inline void *og_lib_restore(struct futhark_context *ctx, const og_type_desc *t, const void *p) {
  if (t == NULL || p == NULL) {
    og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "Cannot restore a value of an unknown type.");
    return NULL;
  }
  size_t len = og_api_binary_extent(p, t);
  if (len == 0) {
    og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "The bytes do not hold a stored value of this type.");
    return NULL;
  }
  og_reader r = {p, len, 0, {0}};
  og_value *v = og_read_typed(&ctx->og, &r, t);
  if (v == NULL) {
    og_fail(&ctx->og, NULL, "Cannot restore value: %s", r.error);
    return NULL;
  }
  return og_lib_wrap(ctx, v);
}

/* A new value sharing the data of a primitive or array value: array data
 * is never written through a public struct except by consuming calls. */
static inline og_value *og_lib_share(const og_value *v, const og_type_desc *t) {
  og_value *c = calloc(1, sizeof *c);
  if (c == NULL) return NULL;
  *c = *v;
  c->parts = NULL;
  c->nparts = 0;
  c->type = t;
  og_ref(c->mem);
  return c;
}

/* A value of opaque type t with room for `nparts` parts and none filled in
 * yet; NULL when out of memory. */
static inline og_value *og_lib_empty_opaque(const og_type_desc *t, int nparts) {
  og_value *r = calloc(1, sizeof *r);
  og_value **parts = calloc((size_t)nparts + 1, sizeof *parts);
  if (r == NULL || parts == NULL) {
    free(r);
    free(parts);
    return NULL;
  }
  r->type = t;
  r->prim = -1;
  r->parts = parts;
  return r;
}

/* Parts first..first+count-1 of an opaque value as a value of type t. */
static inline og_value *og_lib_parts(const og_value *v, int first, int count, const og_type_desc *t) {
  if (count == 1 && t->prim >= 0) return og_lib_share(v->parts[first], t);
  og_value *out = og_lib_empty_opaque(t, count);
  if (out == NULL) return NULL;
  og_value **parts = out->parts;
  for (int k = 0; k < count; k++) {
    parts[k] = og_lib_share(v->parts[first + k], v->parts[first + k]->type);
    if (parts[k] == NULL) {
      og_value_free(out);
      return NULL;
    }
    out->nparts = k + 1;
  }
  return out;
}

/* Finds field `name` of a record type: its first part and part count. */
static inline int og_lib_field(const og_type_desc *t, const char *name, int *first, int *count) {
  int at = 0;
  for (int i = 0; i < t->nfields; i++) {
    if (strcmp(t->field_names[i], name) == 0) {
      *first = at;
      *count = t->field_parts[i];
      return i;
    }
    at += t->field_parts[i];
  }
  return -1;
}

/* Projects a field out of a record value: a scalar is copied to `out`, an
 * array or opaque field becomes a new public struct in `*(void **)out`. */
static inline int og_lib_project(struct futhark_context *ctx, void *out, const void *obj, const char *field) {
  const og_value *v = og_lib_value(obj);
  if (v == NULL || v->type == NULL) return og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "NULL value.");
  int first, count;
  int f = og_lib_field(v->type, field, &first, &count);
  if (f < 0) return og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "No such field.");
  const og_type_desc *ft = v->type->field_types[f];
  if (ft->prim >= 0 && ft->rank == 0) {
    memcpy(out, og_mem_data(v->parts[first]->mem), (size_t)og_prim_sizes[ft->prim]);
    return 0;
  }
  og_value *c = og_lib_parts(v, first, count, ft);
  if (c == NULL) return og_lib_fail(ctx, OG_LIB_OUT_OF_MEMORY, "Out of memory.");
  void *o = og_lib_wrap(ctx, c);
  if (o == NULL) return OG_LIB_OUT_OF_MEMORY;
  *(void **)out = o;
  return 0;
}

/* Builds a value of sum type t that is variant `tag`, whose payload is parts
 * first..first+count-1, given in order (scalars by address, arrays as public
 * structs, shared by reference). Every part of the other variants is blank:
 * zero, or an array whose every dimension is 0, as in Futhark. */
static inline int og_lib_new_sum(struct futhark_context *ctx, void **out, const og_type_desc *t, int tag, int first, int count, const void *const *payload) {
  static const int64_t zeros[OG_MAX_RANK];
  if (t == NULL || t->nparts < first + count) return og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "Unknown sum type.");
  og_value *r = og_lib_empty_opaque(t, t->nparts);
  if (r == NULL) return og_lib_fail(ctx, OG_LIB_OUT_OF_MEMORY, "Out of memory.");
  og_value **parts = r->parts;
  int8_t tag8 = (int8_t)tag;
  for (int k = 0; k < t->nparts; k++) {
    const og_type_desc *pt = t->parts[k];
    og_value *c;
    if (k == 0) {
      c = og_lib_new_value(ctx, pt, &tag8, zeros);
    } else if (k < first || k >= first + count) {
      c = og_lib_new_value(ctx, pt, zeros, zeros);
    } else if (pt->rank == 0) {
      c = og_lib_new_value(ctx, pt, payload[k - first], zeros);
    } else {
      const og_value *pv = og_lib_value(payload[k - first]);
      if (pv == NULL) {
        og_value_free(r);
        return og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "NULL payload.");
      }
      c = og_lib_share(pv, pt);
      if (c == NULL) og_fail(&ctx->og, NULL, "Out of memory.");
    }
    if (c == NULL) {
      og_value_free(r);
      return og_lib_error_code(ctx);
    }
    parts[r->nparts++] = c;
  }
  void *o = og_lib_wrap(ctx, r);
  if (o == NULL) return OG_LIB_OUT_OF_MEMORY;
  *out = o;
  return 0;
}

/* Takes the payload (parts first..first+count-1) of variant `tag` out of a sum
 * value: scalars copied to outs[i], arrays as new public structs at
 * *(void **)outs[i], sharing the value's data. Nothing is written unless all
 * succeed; a value of another variant is an error. */
static inline int og_lib_destruct_sum(struct futhark_context *ctx, const void *obj, int tag, int first, int count, void *const *outs) {
  const og_value *v = og_lib_value(obj);
  if (v == NULL || v->nparts < first + count) return og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "NULL value.");
  int8_t actual;
  memcpy(&actual, og_mem_data(v->parts[0]->mem), 1);
  if (actual != tag) return og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "The sum value is not an instance of this variant.");
  void *made[64] = {NULL};
  if (count > 64) return og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "Too many payload values.");
  for (int i = 0; i < count; i++) {
    const og_value *p = v->parts[first + i];
    if (p->rank == 0) continue;
    made[i] = og_lib_wrap(ctx, og_lib_share(p, p->type));
    if (made[i] == NULL) {
      for (int j = 0; j < i; j++) og_lib_free(made[j]);
      return og_lib_fail(ctx, OG_LIB_OUT_OF_MEMORY, "Out of memory.");
    }
  }
  for (int i = 0; i < count; i++) {
    const og_value *p = v->parts[first + i];
    if (p->rank == 0) {
      memcpy(outs[i], og_mem_data(p->mem), (size_t)og_prim_sizes[p->prim]);
    } else {
      *(void **)outs[i] = made[i];
    }
  }
  return 0;
}

/* Builds a record value of type t from its fields, given in order: scalars
 * by address, arrays and opaque values as public structs. The fields are
 * copied by reference, so the caller still frees its own. */
static inline int og_lib_new_record(struct futhark_context *ctx, void **out, const og_type_desc *t, const void *const *fields) {
  if (t == NULL) return og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "Unknown record type.");
  og_value *r = og_lib_empty_opaque(t, t->nparts);
  if (r == NULL) return og_lib_fail(ctx, OG_LIB_OUT_OF_MEMORY, "Out of memory.");
  og_value **parts = r->parts;
  for (int i = 0; i < t->nfields; i++) {
    const og_type_desc *ft = t->field_types[i];
    og_value *c;
    if (ft->prim >= 0 && ft->rank == 0) {
      int64_t none[OG_MAX_RANK] = {0};
      c = og_lib_new_value(ctx, ft, fields[i], none);
    } else {
      const og_value *fv = og_lib_value(fields[i]);
      if (fv == NULL) {
        og_value_free(r);
        return og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "NULL field.");
      }
      c = fv->prim >= 0 ? og_lib_share(fv, ft) : og_lib_parts(fv, 0, fv->nparts, ft);
      if (c == NULL) og_fail(&ctx->og, NULL, "Out of memory.");
    }
    if (c == NULL) {
      og_value_free(r);
      return og_lib_error_code(ctx);
    }
    if (c->prim >= 0) {
      parts[r->nparts++] = c;
    } else {
      for (int k = 0; k < c->nparts; k++) parts[r->nparts++] = c->parts[k];
      free(c->parts);
      free(c);
    }
  }
  if (r->nparts != t->nparts) {
    og_value_free(r);
    return og_lib_fail(ctx, OG_LIB_PROGRAM_ERROR, "Record fields do not match the record type.");
  }
  void *o = og_lib_wrap(ctx, r);
  if (o == NULL) return OG_LIB_OUT_OF_MEMORY;
  *out = o;
  return 0;
}

/* A scalar input as a value (freed by the caller after the call). */
static inline og_value *og_lib_scalar(struct futhark_context *ctx, const og_type_desc *t, const void *x) {
  int64_t none[OG_MAX_RANK] = {0};
  return og_lib_new_value(ctx, t, x, none);
}

/* Calls entry point `entry` on ins; its single output goes to `out`: a
 * scalar copied there, or a new public struct at `*(void **)out`. Scalar
 * inputs (owned[i]) are freed here, whatever happens. */
static inline int og_lib_call(struct futhark_context *ctx, int entry, void *out, og_value **ins, const bool *owned) {
  const og_entry *e = &og_entries[entry];
  og_value *outs[64] = {NULL};
  int err = e->n_out > 64;
  for (int i = 0; i < e->n_in; i++)
    if (ins[i] == NULL) err = 1;
  if (!err) err = og_api_call(&ctx->og, e, outs, ins);
  for (int i = 0; i < e->n_in; i++)
    if (owned[i]) og_value_free(ins[i]);
  if (err) {
    if (ctx->og.error == NULL) og_fail(&ctx->og, NULL, "Invalid arguments to entry point %s.", e->name);
    return og_lib_error_code(ctx);
  }
  og_value *v = og_api_pack_outputs(entry, outs);
  if (v == NULL) return og_lib_fail(ctx, OG_LIB_OUT_OF_MEMORY, "Out of memory.");
  if (v->prim >= 0 && v->rank == 0) {
    memcpy(out, og_mem_data(v->mem), (size_t)og_prim_sizes[v->prim]);
    og_value_free(v);
    return 0;
  }
  void *o = og_lib_wrap(ctx, v);
  if (o == NULL) return OG_LIB_OUT_OF_MEMORY;
  *(void **)out = o;
  return 0;
}

/* Reports in the JSON form Futhark's tools expect; the caller frees it. */
static inline char *og_lib_report(struct futhark_context *ctx) {
  char *s = malloc(128);
  if (s != NULL)
    snprintf(s, 128, "{\"memory\":{\"peak\":%lld},\"events\":[]}\n", (long long)ctx->og.peak_bytes);
  return s;
}
