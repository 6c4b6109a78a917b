/* ogham runtime, executables: Futhark's command-line conventions and the
 * `--server` protocol. The generated program defines og_entries,
 * og_num_entries, og_opaque_types and og_num_opaque_types before this file;
 * api.h (type lookup, tuple outputs) comes before it. */

static inline const og_entry *og_find_entry(const char *name) {
  for (int i = 0; i < og_num_entries; i++)
    if (strcmp(og_entries[i].name, name) == 0) return &og_entries[i];
  return NULL;
}

static inline void og_ctx_init(og_ctx *ctx, int threads) {
  memset(ctx, 0, sizeof *ctx);
  ctx->num_threads = threads < 1 ? 1 : threads;
  og_ctx_init_mem(ctx);
#if OG_MULTICORE
  pthread_mutex_init(&ctx->lock, NULL);
  if (og_pool_start(ctx)) ctx->num_threads = 1;
#else
  ctx->num_threads = 1;
#endif
}

static inline void og_ctx_free(og_ctx *ctx) {
  og_consts_free(ctx);
#if OG_MULTICORE
  og_pool_stop(ctx);
#endif
  og_ctx_detach_mem(ctx);
  og_block_cache_flush();
#if OG_MULTICORE
  pthread_mutex_destroy(&ctx->lock);
#endif
  free(ctx->error);
}

/* A deep copy, so a consumed input can be given fresh for every run. */
static inline og_value *og_value_clone(og_ctx *ctx, const og_value *v) {
  og_value *c = calloc(1, sizeof *c);
  if (c == NULL) return NULL;
  *c = *v;
  c->mem = NULL;
  c->parts = NULL;
  if (v->prim >= 0) {
    c->mem = og_mem_alloc(ctx, v->mem->bytes, NULL);
    if (c->mem == NULL) { free(c); return NULL; }
    memcpy(og_mem_data(c->mem), og_mem_data(v->mem), (size_t)v->mem->bytes);
  } else {
    c->parts = calloc((size_t)v->nparts + 1, sizeof *c->parts);
    if (c->parts == NULL) { free(c); return NULL; }
    for (int i = 0; i < v->nparts; i++) {
      c->parts[i] = og_value_clone(ctx, v->parts[i]);
      if (c->parts[i] == NULL) { og_value_free(c); return NULL; }
    }
  }
  return c;
}

/* ---- The server ---- */

typedef struct og_var {
  char *name;
  og_value *value;
  /* Passed to a `*` parameter: as in Futhark, `free` is then the only
   * command that may use the variable. */
  bool consumed;
  struct og_var *next;
} og_var;

static inline og_var **og_var_find(og_var **vars, const char *name) {
  for (og_var **v = vars; *v != NULL; v = &(*v)->next)
    if (strcmp((*v)->name, name) == 0) return v;
  return NULL;
}

/* A variable that exists and has not been consumed, or NULL after
 * printing the failure (the caller returns). */
static inline og_var *og_var_live(og_var **vars, const char *name) {
  og_var **v = og_var_find(vars, name);
  if (v == NULL) { printf("%%%%%% FAILURE\nUnknown variable: %s\n", name); return NULL; }
  if ((*v)->consumed) { printf("%%%%%% FAILURE\nVariable has been consumed: %s\n", name); return NULL; }
  return *v;
}

/* Splits a command line into words; "quoted words" may contain spaces.
 * Returns -1 when the line has more than `max` words. */
static inline int og_split_words(char *line, char **words, int max) {
  int n = 0;
  char *p = line;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (*p == 0) break;
    if (n == max) return -1;
    if (*p == '"') {
      p++;
      words[n++] = p;
      while (*p && *p != '"') p++;
    } else {
      words[n++] = p;
      while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') p++;
    }
    if (*p == 0) break;
    *p++ = 0;
  }
  return n;
}

static inline const og_type_desc *og_type_by_name(const char *name) { return og_api_find_type(name); }

/* Adds a variable (the name is copied); frees the value when out of memory. */
static inline bool og_var_add(og_var **vars, const char *name, og_value *value) {
  og_var *v = calloc(1, sizeof *v);
  char *copy = strdup(name);
  if (v == NULL || copy == NULL) {
    free(v);
    free(copy);
    og_value_free(value);
    return false;
  }
  v->name = copy;
  v->value = value;
  v->next = *vars;
  *vars = v;
  return true;
}

/* A primitive or array type spelled like `[][]f32`, described on the fly. */
static inline bool og_parse_array_type(const char *name, int *prim, int *rank) {
  int r = 0;
  while (name[0] == '[' && name[1] == ']') { r++; name += 2; }
  for (int t = 0; t < 12; t++)
    if (strcmp(name, og_prim_names[t]) == 0 && r <= OG_MAX_RANK) { *prim = t; *rank = r; return true; }
  return false;
}

static inline bool og_value_has_type(const og_value *v, const og_type_desc *t) {
  if (t->prim >= 0) return v->prim == t->prim && v->rank == t->rank;
  return v->type != NULL && strcmp(v->type->name, t->name) == 0;
}

#define OG_FAIL(...) do { printf("%%%%%% FAILURE\n"); printf(__VA_ARGS__); printf("\n"); return; } while (0)

static inline void og_server_command(og_ctx *ctx, og_var **vars, char **w, int n) {
  const char *cmd = w[0];
  /* Commands whose one argument is a type also take an unquoted tuple type
   * such as (f64, []f64), since futhark-server sends words unquoted. */
  if ((strcmp(cmd, "kind") == 0 || strcmp(cmd, "fields") == 0) && n > 2) {
    for (int i = 2; i < n; i++) w[i][-1] = ' ';
    n = 2;
  }
  if (strcmp(cmd, "call") == 0) {
    if (n < 2) OG_FAIL("call: missing entry point name");
    const og_entry *e = og_find_entry(w[1]);
    if (e == NULL) OG_FAIL("Unknown entry point: %s", w[1]);
    /* One output variable, as Futhark >= 0.26.1 (several results form a
     * tuple), or one variable per result, as older versions. */
    int n_outvars = n == 3 + e->n_in ? 1 : e->n_out;
    if (n != 2 + n_outvars + e->n_in) OG_FAIL("Invalid argument count, expected 1 output and %d inputs", e->n_in);
    for (int i = 0; i < n_outvars; i++) {
      if (og_var_find(vars, w[2 + i]) != NULL) OG_FAIL("Variable already exists: %s", w[2 + i]);
      for (int j = 0; j < i; j++)
        if (strcmp(w[2 + i], w[2 + j]) == 0) OG_FAIL("Output variable given twice: %s", w[2 + i]);
    }
    og_value *ins[64];
    og_value *outs[64] = {NULL};
    if (e->n_in > 64 || e->n_out > 64) OG_FAIL("too many arguments");
    og_var *in_vars[64];
    for (int i = 0; i < e->n_in; i++) {
      og_var *v = og_var_live(vars, w[2 + n_outvars + i]);
      if (v == NULL) return;
      if (!og_value_has_type(v->value, e->in_types[i])) OG_FAIL("Wrong input type for %s: expected %s", v->name, e->in_types[i]->name);
      ins[i] = v->value;
      in_vars[i] = v;
    }
    int64_t t0 = og_now_us();
    int err = og_api_call(ctx, e, outs, ins);
    int64_t t1 = og_now_us();
    /* A consumed input may have been updated in place, whether or not the
     * call succeeded: only `free` may use it now. */
    for (int i = 0; i < e->n_in; i++)
      if (e->in_unique[i]) in_vars[i]->consumed = true;
    if (err) {
      char *msg = og_take_error(ctx);
      printf("%%%%%% FAILURE\n%s\n", msg ? msg : "unknown error");
      free(msg);
      return;
    }
    printf("runtime: %lld\n", (long long)(t1 - t0));
    if (n_outvars == 1 && e->n_out > 1) {
      og_value *tuple = og_api_pack_outputs((int)(e - og_entries), outs);
      if (tuple == NULL || !og_var_add(vars, w[2], tuple)) OG_FAIL("out of memory");
    } else {
      for (int i = 0; i < e->n_out; i++)
        if (!og_var_add(vars, w[2 + i], outs[i])) OG_FAIL("out of memory");
    }
  } else if (strcmp(cmd, "restore") == 0) {
    if (n < 2 || n % 2 != 0) OG_FAIL("restore: expected a file and pairs of variable and type");
    FILE *f = fopen(w[1], "rb");
    if (f == NULL) OG_FAIL("Failed to open %s: %s", w[1], strerror(errno));
    /* Every value is read before any variable is created, so a failure
     * leaves no variable behind. Values are read one at a time from the
     * stream, their headers checked before their payloads are read (so
     * /dev/zero or a lying size fails without reading it all). */
    og_value *vals[128] = {NULL};
    int nvals = (n - 2) / 2;
    char why[600] = {0};
    if (nvals > 128) snprintf(why, sizeof why, "restore: at most 128 variables at once");
    for (int i = 0; i < nvals && why[0] == 0; i++) {
      const char *name = w[2 + 2 * i], *type = w[3 + 2 * i];
      bool dup = og_var_find(vars, name) != NULL;
      for (int j = 0; j < i; j++) dup = dup || strcmp(w[2 + 2 * j], name) == 0;
      if (dup) { snprintf(why, sizeof why, "Variable already exists: %s", name); break; }
      const og_type_desc *t = og_type_by_name(type);
      og_type_desc tmp = {type, 0, 0, 0, NULL, 0, NULL, NULL, NULL};
      if (t == NULL && og_parse_array_type(type, &tmp.prim, &tmp.rank)) t = &tmp;
      if (t == NULL) { snprintf(why, sizeof why, "Unknown type: %s", type); break; }
      og_reader r = {NULL, 0, 0, {0}};
      og_bytes bytes = {NULL, 0, 0};
      if (og_stream_value(f, t, &bytes, r.error, sizeof r.error)) {
        free(bytes.data);
        snprintf(why, sizeof why, "Failed to restore variable %s: %s", name, r.error);
        break;
      }
      r.buf = bytes.data;
      r.len = bytes.len;
      vals[i] = og_read_typed(ctx, &r, t);
      free(bytes.data);
      if (vals[i] == NULL) { snprintf(why, sizeof why, "Failed to restore variable %s: %s", name, r.error); break; }
      if (t == &tmp) vals[i]->type = NULL;
    }
    fclose(f);
    if (why[0] != 0) {
      for (int i = 0; i < nvals && i < 128; i++) og_value_free(vals[i]);
      OG_FAIL("%s", why);
    }
    for (int i = 0; i < nvals; i++) {
      if (!og_var_add(vars, w[2 + 2 * i], vals[i])) {
        for (int j = i + 1; j < nvals; j++) og_value_free(vals[j]);
        OG_FAIL("out of memory");
      }
    }
  } else if (strcmp(cmd, "store") == 0) {
    if (n < 2) OG_FAIL("store: expected a file");
    for (int i = 2; i < n; i++) if (og_var_live(vars, w[i]) == NULL) return;
    FILE *f = fopen(w[1], "wb");
    if (f == NULL) OG_FAIL("Failed to open %s: %s", w[1], strerror(errno));
    for (int i = 2; i < n; i++) og_write_binary(f, (*og_var_find(vars, w[i]))->value);
    /* A full disk or an unwritable file shows in the stream's error flag or
     * in the final flush: the store failed, not OK. */
    bool bad = ferror(f) != 0;
    int saved = errno;
    if (fclose(f) != 0 && !bad) { bad = true; saved = errno; }
    if (bad) OG_FAIL("Failed to write %s: %s", w[1], strerror(saved ? saved : EIO));
  } else if (strcmp(cmd, "free") == 0) {
    for (int i = 1; i < n; i++) if (og_var_find(vars, w[i]) == NULL) OG_FAIL("Unknown variable: %s", w[i]);
    for (int i = 1; i < n; i++) {
      og_var **v = og_var_find(vars, w[i]);
      if (v == NULL) continue;
      og_var *dead = *v;
      *v = dead->next;
      og_value_free(dead->value);
      free(dead->name);
      free(dead);
    }
  } else if (strcmp(cmd, "rename") == 0) {
    if (n != 3) OG_FAIL("rename: expected two variables");
    og_var *v = og_var_live(vars, w[1]);
    if (v == NULL) return;
    if (og_var_find(vars, w[2]) != NULL) OG_FAIL("Variable already exists: %s", w[2]);
    char *name = strdup(w[2]);
    if (name == NULL) OG_FAIL("out of memory");
    free(v->name);
    v->name = name;
  } else if (strcmp(cmd, "inputs") == 0 || strcmp(cmd, "outputs") == 0) {
    if (n != 2) OG_FAIL("%s: expected an entry point", cmd);
    const og_entry *e = og_find_entry(w[1]);
    if (e == NULL) OG_FAIL("Unknown entry point: %s", w[1]);
    bool in = cmd[0] == 'i';
    for (int i = 0; i < (in ? e->n_in : e->n_out); i++) {
      bool u = in ? e->in_unique[i] : e->out_unique[i];
      printf("%s%s\n", u ? "*" : "", in ? e->in_types[i]->name : e->out_types[i]->name);
    }
  } else if (strcmp(cmd, "output") == 0) {
    if (n != 2) OG_FAIL("output: expected an entry point");
    const og_entry *e = og_find_entry(w[1]);
    if (e == NULL) OG_FAIL("Unknown entry point: %s", w[1]);
    int entry = (int)(e - og_entries);
    const og_type_desc *t = og_api_output_type(entry);
    if (t == NULL) OG_FAIL("out of memory");
    printf("%s%s\n", og_api_output_unique(entry) ? "*" : "", t->name);
  } else if (strcmp(cmd, "entry_points") == 0) {
    for (int i = 0; i < og_num_entries; i++) printf("%s\n", og_entries[i].name);
  } else if (strcmp(cmd, "types") == 0) {
    for (int i = 0; i < og_num_opaque_types; i++) printf("%s\n", og_opaque_types[i]->name);
    for (int i = 0; i < og_num_entries; i++) {
      if (og_entries[i].n_out < 2) continue;
      const og_type_desc *t = og_api_output_type(i);
      bool seen = t == NULL;
      for (int j = 0; j < og_num_opaque_types && !seen; j++) seen = strcmp(og_opaque_types[j]->name, t->name) == 0;
      for (int j = 0; j < i && !seen; j++) seen = og_entries[j].n_out > 1 && og_api_output_type(j) != NULL && strcmp(og_api_output_type(j)->name, t->name) == 0;
      if (!seen) printf("%s\n", t->name);
    }
  } else if (strcmp(cmd, "type") == 0) {
    if (n != 2) OG_FAIL("type: expected a variable");
    og_var *v = og_var_live(vars, w[1]);
    if (v == NULL) return;
    const og_value *x = v->value;
    if (x->type != NULL) printf("%s\n", x->type->name);
    else { for (int i = 0; i < x->rank; i++) printf("[]"); printf("%s\n", og_prim_names[x->prim]); }
  } else if (strcmp(cmd, "kind") == 0) {
    if (n != 2) OG_FAIL("kind: expected a type");
    int prim, rank;
    const og_type_desc *t = og_type_by_name(w[1]);
    if (og_parse_array_type(w[1], &prim, &rank)) printf("%s\n", rank == 0 ? "primitive" : "array");
    else if (t != NULL) printf("%s\n", t->nfields > 0 ? "record" : "opaque");
    else OG_FAIL("Unknown type: %s", w[1]);
  } else if (strcmp(cmd, "fields") == 0) {
    if (n != 2) OG_FAIL("fields: expected a type");
    const og_type_desc *t = og_type_by_name(w[1]);
    if (t == NULL || t->nfields == 0) OG_FAIL("Not a record type: %s", w[1]);
    for (int i = 0; i < t->nfields; i++) printf("%s %s\n", t->field_names[i], t->field_types[i]->name);
  } else if (strcmp(cmd, "project") == 0) {
    if (n != 4) OG_FAIL("project: expected an output, a record variable and a field");
    og_var *v = og_var_live(vars, w[2]);
    if (v == NULL) return;
    if (og_var_find(vars, w[1]) != NULL) OG_FAIL("Variable already exists: %s", w[1]);
    const og_value *rec = v->value;
    const og_type_desc *t = rec->type;
    if (t == NULL || t->nfields == 0) OG_FAIL("Not a record: %s", w[2]);
    int first = 0, f = -1;
    for (int i = 0; i < t->nfields; i++) {
      if (strcmp(t->field_names[i], w[3]) == 0) { f = i; break; }
      first += t->field_parts[i];
    }
    if (f < 0) OG_FAIL("No field %s", w[3]);
    og_value *out;
    if (t->field_parts[f] == 1 && t->field_types[f]->prim >= 0) {
      out = og_value_clone(ctx, rec->parts[first]);
      if (out != NULL) out->type = t->field_types[f];
    } else {
      og_value tmp = {t->field_types[f], -1, 0, {0}, NULL, t->field_parts[f], rec->parts + first};
      out = og_value_clone(ctx, &tmp);
    }
    if (out == NULL || !og_var_add(vars, w[1], out)) OG_FAIL("out of memory");
  } else if (strcmp(cmd, "new") == 0) {
    if (n < 3) OG_FAIL("new: expected an output, a type and fields");
    const og_type_desc *t = og_type_by_name(w[2]);
    if (t == NULL || t->nfields == 0) OG_FAIL("Not a record type: %s", w[2]);
    if (n != 3 + t->nfields) OG_FAIL("new: expected %d fields", t->nfields);
    if (og_var_find(vars, w[1]) != NULL) OG_FAIL("Variable already exists: %s", w[1]);
    og_value *out = calloc(1, sizeof *out);
    if (out == NULL) OG_FAIL("out of memory");
    out->type = t;
    out->prim = -1;
    out->parts = calloc((size_t)t->nparts + 1, sizeof *out->parts);
    if (out->parts == NULL) { free(out); OG_FAIL("out of memory"); }
    int k = 0;
    for (int i = 0; i < t->nfields; i++) {
      og_var **v = og_var_find(vars, w[3 + i]);
      if (v == NULL || (*v)->consumed || !og_value_has_type((*v)->value, t->field_types[i])) { og_value_free(out); OG_FAIL("Invalid field %s", w[3 + i]); }
      const og_value *fv = (*v)->value;
      if (fv->prim >= 0) { out->parts[k] = og_value_clone(ctx, fv); if (out->parts[k]) out->nparts = ++k; }
      else for (int j = 0; j < fv->nparts; j++) { out->parts[k] = og_value_clone(ctx, fv->parts[j]); if (out->parts[k]) out->nparts = ++k; }
    }
    if (k != t->nparts) { og_value_free(out); OG_FAIL("Invalid fields for %s", w[2]); }
    if (!og_var_add(vars, w[1], out)) OG_FAIL("out of memory");
  } else if (strcmp(cmd, "clear") == 0 || strcmp(cmd, "pause_profiling") == 0 || strcmp(cmd, "unpause_profiling") == 0) {
    /* Nothing is cached and nothing is profiled, so these succeed silently. */
  } else if (strcmp(cmd, "set_tuning_param") == 0) {
    if (n != 3) OG_FAIL("%s: expected a tuning parameter and a value", cmd);
    int k = og_tuning_index(w[1]);
    char *end;
    errno = 0;
    long long value = strtoll(w[2], &end, 10);
    if (k < 0 || *end != '\0' || end == w[2] || errno != 0) {
      OG_FAIL("Failed to set tuning parameter %s to %s", w[1], w[2]);
    }
    ctx->tuning[k] = value;
    ctx->tuning_set[k] = true;
  } else if (strcmp(cmd, "tuning_param_class") == 0) {
    if (n != 2) OG_FAIL("%s: expected a tuning parameter", cmd);
    if (og_tuning_index(w[1]) < 0) OG_FAIL("Unknown tuning parameter: %s", w[1]);
    /* Every tuning parameter is a user parameter (#[param]). */
    printf("user\n");
  } else if (strcmp(cmd, "report") == 0) {
    /* The current usage is what the server's variables hold (nothing else
     * outlives a call, failed or not), so a long-running server can be
     * watched for leaks. */
    og_ctx_lock(ctx);
    int64_t peak = ctx->peak_bytes, cur = ctx->cur_bytes;
    og_ctx_unlock(ctx);
    printf("Peak memory usage: %lld bytes\nCurrent memory usage: %lld bytes\n", (long long)peak, (long long)cur);
  } else if (strcmp(cmd, "tuning_params") == 0 || strcmp(cmd, "attributes") == 0) {
    const og_entry *e = n == 2 ? og_find_entry(w[1]) : NULL;
    if (e == NULL) OG_FAIL("%s: expected an entry point", cmd);
    if (strcmp(cmd, "tuning_params") == 0) {
      for (int i = 0; e->tuning_params[i] != NULL; i++) printf("%s\n", e->tuning_params[i]);
    }
  } else {
    OG_FAIL("Unknown command: %s", cmd);
  }
}

static inline int og_server(og_ctx *ctx) {
  og_var *vars = NULL;
  char *line = NULL;
  size_t cap = 0;
  printf("%%%%%% OK\n");
  fflush(stdout);
  while (getline(&line, &cap, stdin) >= 0) {
    char *w[256];
    int n = og_split_words(line, w, 256);
    if (n == 0) continue;
    if (n < 0) printf("%%%%%% FAILURE\nToo many words in one command (at most 256).\n");
    else og_server_command(ctx, &vars, w, n);
    printf("%%%%%% OK\n");
    fflush(stdout);
  }
  free(line);
  while (vars != NULL) {
    og_var *next = vars->next;
    og_value_free(vars->value);
    free(vars->name);
    free(vars);
    vars = next;
  }
  return 0;
}

/* ---- The executable ---- */

/* Whether a value of this type has an external (printable) form, as in
 * Futhark: primitives, arrays of them, and tuples of such values (printed
 * one per line). Named records and sum types are opaque. */
static inline bool og_printable(const og_type_desc *t) {
  if (t->prim >= 0) return true;
  if (t->nfields == 0) return false;
  for (int i = 0; i < t->nfields; i++) {
    char index[24];
    snprintf(index, sizeof index, "%d", i);
    if (strcmp(t->field_names[i], index) != 0 || !og_printable(t->field_types[i])) return false;
  }
  return true;
}

/* Defined as 1 by `ogham c --server`: Futhark's tools start server
 * executables without arguments. */
#ifndef OG_SERVER_DEFAULT
#define OG_SERVER_DEFAULT 0
#endif

/* Sets tuning parameter `name`; returns nonzero when there is none of that name. */
static inline int og_set_tuning(og_ctx *ctx, const char *name, int64_t value) {
  int k = og_tuning_index(name);
  if (k < 0) return 1;
  ctx->tuning[k] = value;
  ctx->tuning_set[k] = true;
  return 0;
}

/* Reads `name=value` lines (blank lines and `--` comments skipped) into the
 * tuning parameters, as Futhark's --tuning does; returns an error message
 * (owned) or NULL. */
static inline char *og_load_tuning_file(og_ctx *ctx, const char *path) {
  char *msg = malloc(1200);
  if (msg == NULL) return NULL;
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    snprintf(msg, 1200, "Cannot open file: %s", strerror(errno));
    return msg;
  }
  char line[1024];
  int lineno = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    lineno++;
    size_t i = strspn(line, " \t\r\n");
    if (line[i] == '\0' || strncmp(line + i, "--", 2) == 0) continue;
    char *eq = strchr(line, '=');
    char *end = NULL;
    long long value = 0;
    if (eq != NULL) {
      *eq = '\0';
      errno = 0;
      value = strtoll(eq + 1, &end, 10);
    }
    if (eq == NULL || end == eq + 1 || errno != 0 || end[strspn(end, " \t\r\n")] != '\0') {
      snprintf(msg, 1200, "Invalid line %d (must be of form 'name=int').", lineno);
      fclose(f);
      return msg;
    }
    if (og_set_tuning(ctx, line, value)) {
      snprintf(msg, 1200, "Unknown name '%.1000s' on line %d.", line, lineno);
      fclose(f);
      return msg;
    }
  }
  fclose(f);
  free(msg);
  return NULL;
}

/* A whole decimal number of at least `min` in `text`, as the options -r and
 * -P take; false for anything else ("3x", "", out of range). */
static inline bool og_parse_count(const char *text, long min, int *out) {
  char *end = NULL;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || v < min || v > INT_MAX) return false;
  *out = (int)v;
  return true;
}

static inline void og_usage(const char *prog) {
  fprintf(stderr,
          "Usage: %s [options]\n"
          "  -e, --entry-point NAME  run this entry point (default main)\n"
          "  -b, --binary-output     print results in the binary format\n"
          "  -n, --no-print-result   print no results\n"
          "  -t, --write-runtime-to FILE  write the runtime in microseconds\n"
          "  -r, --runs N            run N times\n"
          "  -P, --num-threads N     worker threads (multicore; 0: one per processor)\n"
          "      --param NAME=VALUE  set a tuning parameter\n"
          "      --tuning FILE       read NAME=VALUE tuning parameters from FILE\n"
          "      --print-params      list the tuning parameters and exit\n"
          "      --server            speak the server protocol on stdin/stdout\n",
          prog);
}

int main(int argc, char **argv) {
  const char *entry_name = "main", *runtime_file = NULL;
  bool binary = false, print = true, server = OG_SERVER_DEFAULT, runs_given = false;
  int runs = 1, threads = 0;
  /* --param and --tuning arguments (argv indices), applied in order once the context exists. */
  int *tuning_args = calloc((size_t)argc + 1, sizeof *tuning_args);
  int n_tuning_args = 0;
  if (tuning_args == NULL) { fprintf(stderr, "Error: out of memory\n"); return 1; }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool has_arg = i + 1 < argc;
    if ((!strcmp(a, "-e") || !strcmp(a, "--entry-point")) && has_arg) entry_name = argv[++i];
    else if (!strcmp(a, "-b") || !strcmp(a, "--binary-output")) binary = true;
    else if (!strcmp(a, "-n") || !strcmp(a, "--no-print-result")) print = false;
    else if ((!strcmp(a, "-t") || !strcmp(a, "--write-runtime-to")) && has_arg) runtime_file = argv[++i];
    else if ((!strcmp(a, "-r") || !strcmp(a, "--runs")) && has_arg) {
      runs_given = true;
      if (!og_parse_count(argv[++i], 1, &runs)) { fprintf(stderr, "Error: -r needs a positive number, not '%s'\n", argv[i]); return 1; }
    } else if ((!strcmp(a, "-P") || !strcmp(a, "--num-threads")) && has_arg) {
      if (!og_parse_count(argv[++i], 0, &threads)) {
        fprintf(stderr, "Error: --num-threads needs a number of threads (0: one per processor), not '%s'\n", argv[i]);
        return 1;
      }
    } else if (!strcmp(a, "--server")) server = true;
    else if (!strcmp(a, "-D") || !strcmp(a, "--debugging") || !strcmp(a, "-L") || !strcmp(a, "--log")) { /* accepted, no effect */ }
    else if ((!strcmp(a, "--tuning") || !strcmp(a, "--param")) && has_arg) { tuning_args[n_tuning_args++] = i; i++; }
    else if (!strcmp(a, "--cache-file") && has_arg) i++;
    else if (!strcmp(a, "--print-params")) {
      for (int k = 0; k < OG_NUM_TUNING_PARAMS; k++) printf("%s (user)\n", og_tuning_names[k]);
      free(tuning_args);
      return 0;
    }
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { og_usage(argv[0]); return 0; }
    else if (!has_arg && (!strcmp(a, "-e") || !strcmp(a, "--entry-point") || !strcmp(a, "-t") || !strcmp(a, "--write-runtime-to") ||
                          !strcmp(a, "-r") || !strcmp(a, "--runs") || !strcmp(a, "-P") || !strcmp(a, "--num-threads") ||
                          !strcmp(a, "--tuning") || !strcmp(a, "--param") || !strcmp(a, "--cache-file"))) {
      fprintf(stderr, "Error: option %s needs a value\n", a);
      og_usage(argv[0]);
      return 1;
    }
    else { fprintf(stderr, "Error: unknown option %s\n", a); og_usage(argv[0]); return 1; }
  }
#if OG_MULTICORE
  if (threads == 0) threads = og_default_threads();
#endif
  og_ctx ctx;
  og_ctx_init(&ctx, threads);
  for (int t = 0; t < n_tuning_args; t++) {
    const char *opt = argv[tuning_args[t]], *arg = argv[tuning_args[t] + 1];
    if (!strcmp(opt, "--tuning")) {
      char *err = og_load_tuning_file(&ctx, arg);
      if (err != NULL) {
        fprintf(stderr, "When loading tuning file '%s': %s\n", arg, err);
        free(err);
        free(tuning_args);
        og_ctx_free(&ctx);
        return 1;
      }
    } else {
      const char *eq = strchr(arg, '=');
      char name[1024], *end = NULL;
      long long value = 0;
      if (eq != NULL && (size_t)(eq - arg) < sizeof name) {
        memcpy(name, arg, (size_t)(eq - arg));
        name[eq - arg] = '\0';
        errno = 0;
        value = strtoll(eq + 1, &end, 10);
      }
      if (eq == NULL || (size_t)(eq - arg) >= sizeof name || end == eq + 1 || *end != '\0' || errno != 0) {
        fprintf(stderr, "Error: Invalid argument for --param option: %s\n", arg);
        free(tuning_args);
        og_ctx_free(&ctx);
        return 1;
      }
      if (og_set_tuning(&ctx, name, value)) {
        fprintf(stderr, "Error: Unknown tuning parameter: %s\n", name);
        free(tuning_args);
        og_ctx_free(&ctx);
        return 1;
      }
    }
  }
  free(tuning_args);
  /* As Futhark's programs do, the constants are computed at start-up, and
   * a failure there is reported and ends the program. */
  if (og_consts_init(&ctx)) {
    char *msg = og_take_error(&ctx);
    fprintf(stderr, "Error: %s", msg ? msg : "unknown error\n");
    free(msg);
    og_ctx_free(&ctx);
    return 1;
  }
  if (server) {
    int rc = og_server(&ctx);
    og_ctx_free(&ctx);
    return rc;
  }
  const og_entry *e = og_find_entry(entry_name);
  if (e == NULL) {
    fprintf(stderr, "Error: no entry point named \"%s\". Entry points:", entry_name);
    for (int i = 0; i < og_num_entries; i++) fprintf(stderr, " %s", og_entries[i].name);
    fprintf(stderr, "\n");
    og_ctx_free(&ctx);
    return 1;
  }
  og_reader r = {NULL, 0, 0, {0}};
  unsigned char *input = og_slurp(stdin, &r.len);
  if (input == NULL) { fprintf(stderr, "Error: cannot read stdin\n"); return 1; }
  r.buf = input;
  og_value *ins[64] = {NULL};
  og_value *outs[64] = {NULL};
  int rc = 0;
  if (e->n_in > 64 || e->n_out > 64) { fprintf(stderr, "Error: too many arguments\n"); return 1; }
  for (int i = 0; i < e->n_in; i++) {
    /* Opaque values have no external form, so they cannot be arguments. */
    if (e->in_types[i]->prim < 0) {
      fprintf(stderr, "Error: Cannot read input #%d of type %s\n", i, e->in_types[i]->name);
      return 1;
    }
    ins[i] = og_read_typed(&ctx, &r, e->in_types[i]);
    if (ins[i] == NULL) {
      fprintf(stderr, "Error: failed to read input #%d of type %s: %s\n", i, e->in_types[i]->name, r.error);
      return 1;
    }
  }
  if (!og_at_end(&r)) {
    fprintf(stderr, "Error: expected end of input after the arguments of \"%s\" (byte %zu).\n", e->name, r.pos);
    return 1;
  }
  FILE *tf = NULL;
  if (runtime_file != NULL) {
    tf = fopen(runtime_file, "w");
    if (tf == NULL) { fprintf(stderr, "Error: cannot open %s: %s\n", runtime_file, strerror(errno)); return 1; }
  }
  /* With -r, like Futhark, one untimed warm-up run comes first. */
  int total = runs_given ? runs + 1 : runs;
  for (int run = 0; run < total; run++) {
    bool timed = !runs_given || run > 0;
    og_value *args[64];
    for (int i = 0; i < e->n_in; i++) {
      /* A consumed input may be overwritten, so every run but the last gets a copy. */
      args[i] = (e->in_unique[i] && run + 1 < total) ? og_value_clone(&ctx, ins[i]) : ins[i];
      if (args[i] == NULL) { fprintf(stderr, "Error: out of memory\n"); return 1; }
    }
    for (int i = 0; i < e->n_out; i++) { og_value_free(outs[i]); outs[i] = NULL; }
    int64_t t0 = og_now_us();
    int err = og_api_call(&ctx, e, outs, args);
    int64_t t1 = og_now_us();
    for (int i = 0; i < e->n_in; i++) if (args[i] != ins[i]) og_value_free(args[i]);
    if (err) {
      char *msg = og_take_error(&ctx);
      fprintf(stderr, "Error: %s", msg ? msg : "unknown error\n");
      free(msg);
      rc = 1;
      break;
    }
    if (tf != NULL && timed) fprintf(tf, "%lld\n", (long long)(t1 - t0));
  }
  if (tf != NULL) {
    bool bad = ferror(tf) != 0;
    if (fclose(tf) != 0 || bad) {
      fprintf(stderr, "Error: cannot write the runtime to %s: %s\n", runtime_file, strerror(errno ? errno : EIO));
      rc = 1;
    }
  }
  if (rc == 0 && print) {
    for (int i = 0; i < e->n_out; i++) {
      if (!og_printable(e->out_types[i])) {
        fflush(stdout);
        fprintf(stderr, "Values of type \"%s\" have no external representation.\n", e->out_types[i]->name);
        rc = 1;
        break;
      }
      if (binary) og_write_binary(stdout, outs[i]);
      else { og_write_text(stdout, outs[i]); fputc('\n', stdout); }
    }
    /* Results that cannot be written (a full disk, a closed pipe) are a failure. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
      fprintf(stderr, "Error: cannot write the results: %s\n", strerror(errno ? errno : EIO));
      rc = 1;
    }
  }
  for (int i = 0; i < e->n_out; i++) og_value_free(outs[i]);
  for (int i = 0; i < e->n_in; i++) og_value_free(ins[i]);
  free(input);
  og_ctx_free(&ctx);
  return rc;
}
