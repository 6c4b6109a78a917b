//! `--library` output: Futhark's C API (the header `prog.h`, the API
//! functions appended to `prog.c`) and its manifest (`prog.json`).
//!
//! The API is a thin typed layer over the entry table that executables and
//! the server use (`og_entries` in the generated C): every public array or
//! opaque struct holds one `og_value`, so this module only emits one small
//! function per operation, each calling a generic helper in `rts/library.h`.
//! Entry points have exactly one output, as in Futhark 0.26.1 and later: an
//! entry point with several results returns them as an opaque tuple.
//!
//! Names follow Futhark's code generator: the C parameters of
//! `futhark_entry_<e>` are positional (`out0`, then `in0`, `in1`, …), so they
//! are always valid, distinct C identifiers whatever the source calls them,
//! while the manifest's `inputs` give each input's source name (see
//! [`ogham_ir::EntryValue::name`]: `_` for a parameter that is not a plain
//! name, so several inputs may share it).

use std::fmt::Write;

use ogham_ir::{EntryValue, Opaque, PrimType, Program, Type};

use crate::{Backend, Options};

/// The generic half of the C API, embedded before the generated half.
pub const RTS_LIBRARY: &str = include_str!("../rts/library.h");

/// A type as the C API shows it.
#[derive(Clone, Debug, PartialEq)]
enum ApiType {
    Prim(PrimType),
    Array(PrimType, usize),
    /// Index into [`Api::opaques`].
    Opaque(usize),
}

#[derive(Clone, Debug)]
struct OpaqueType {
    /// The name Futhark prints (and the manifest's key).
    name: String,
    /// The C suffix: `struct futhark_opaque_<cname>`.
    cname: String,
    /// Records and tuples: fields in order.
    record: Option<Vec<(String, ApiType)>>,
    /// Sum types: they report their variant, and can be built and taken apart.
    sum: Option<SumApi>,
}

#[derive(Clone, Debug)]
struct SumApi {
    /// Constructors in tag order, each with its payload: every item's type
    /// and its part in the sum value (the tag is part 0). `None` when some
    /// payload item is not a primitive or an array of primitives: then only
    /// `futhark_variant_*` is offered (and the manifest has no `sum`).
    variants: Option<Vec<(String, Vec<(ApiType, usize)>)>>,
}

#[derive(Clone, Debug)]
struct EntryApi {
    name: String,
    /// Position in the generated `og_entries` table.
    index: usize,
    /// Type, uniqueness and source name of each input.
    inputs: Vec<(ApiType, bool, String)>,
    output: (ApiType, bool),
}

/// The API of a whole program.
#[derive(Default)]
struct Api {
    arrays: Vec<(PrimType, usize)>,
    opaques: Vec<OpaqueType>,
    entries: Vec<EntryApi>,
}

/// The three files of a library.
pub struct LibraryFiles {
    /// Appended to the generated C (after the entry table and `rts/api.h`).
    pub c: String,
    pub header: String,
    pub manifest: String,
}

fn c_prim(t: PrimType) -> &'static str {
    match t {
        // Futhark's API passes f16 as its bits.
        PrimType::F16 => "uint16_t",
        t => crate::scalar::ctype(t),
    }
}

fn array_cname(t: PrimType, rank: usize) -> String {
    format!("{}_{rank}d", t.name())
}

fn is_c_ident(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Splits `a, (b, c), [](d, e)` at its top-level commas.
fn split_top(s: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            parts.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        parts.push(cur.trim().to_string());
    }
    parts
}

/// A C identifier for a Futhark type name: the name itself when it is one
/// (type abbreviations), `arrNd_t` and `tupN_a_b` for arrays and tuples in
/// Futhark's manner, and a hash of the name for anything else (records).
fn sanitise(name: &str) -> String {
    let name = name.trim();
    if is_c_ident(name) {
        return name.to_string();
    }
    let mut rank = 0;
    let mut rest = name;
    while let Some(r) = rest.strip_prefix("[]") {
        rank += 1;
        rest = r;
    }
    if rank > 0 {
        return format!("arr{rank}d_{}", sanitise(rest));
    }
    if let Some(inner) = name.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
        let parts = split_top(inner);
        if parts.len() > 1 {
            let names: Vec<String> = parts.iter().map(|p| sanitise(p)).collect();
            return format!("tup{}_{}", parts.len(), names.join("_"));
        }
    }
    // FNV-1a: stable across runs and platforms.
    let mut h: u64 = 0xcbf29ce484222325;
    for b in name.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    format!("t{:016x}", h)
}

/// A record field's name as a C identifier suffix: field names are
/// identifiers or, in tuples, numbers, both of which may follow `_`.
fn field_ident(name: &str) -> String {
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        name.to_string()
    } else {
        sanitise(name)
    }
}

/// The C parameter for record field `k` named `name` in `futhark_new_opaque_*`,
/// as Futhark names it: `v0`, `v1`, … for tuple fields, `f_<name>` for named
/// ones. A name that is no C identifier (`x'`) becomes `f<k>`, which cannot
/// clash with either form.
fn field_param(k: usize, name: &str) -> String {
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_digit()) {
        format!("v{name}")
    } else if is_c_ident(name) {
        format!("f_{name}")
    } else {
        format!("f{k}")
    }
}

impl Api {
    fn array(&mut self, t: PrimType, rank: usize) -> ApiType {
        if rank == 0 {
            return ApiType::Prim(t);
        }
        if !self.arrays.contains(&(t, rank)) {
            self.arrays.push((t, rank));
        }
        ApiType::Array(t, rank)
    }

    fn opaque(&mut self, name: &str, record: Option<Vec<(String, ApiType)>>, sum: Option<SumApi>) -> ApiType {
        if let Some(i) = self.opaques.iter().position(|o| o.name == name) {
            if self.opaques[i].record.is_none() && record.is_some() {
                self.opaques[i].record = record;
            }
            if self.opaques[i].sum.is_none() && sum.is_some() {
                self.opaques[i].sum = sum;
            }
            return ApiType::Opaque(i);
        }
        let mut cname = sanitise(name);
        while self.opaques.iter().any(|o| o.cname == cname) {
            cname.push('_');
        }
        self.opaques.push(OpaqueType { name: name.to_string(), cname, record, sum });
        ApiType::Opaque(self.opaques.len() - 1)
    }

    /// The API type of an entry value made of the given flat part types.
    fn value(&mut self, ev: &EntryValue, parts: &[Type]) -> ApiType {
        if ev.opaque.is_none() && parts.len() == 1 {
            return self.array(parts[0].elem(), parts[0].rank());
        }
        match &ev.opaque {
            Some(Opaque::Record { fields }) => {
                let mut pos = 0;
                let mut fs = Vec::new();
                for (fname, ftype, n) in fields {
                    let ft = if *n == 1 && pos < parts.len() {
                        self.array(parts[pos].elem(), parts[pos].rank())
                    } else {
                        self.opaque(ftype, None, None)
                    };
                    fs.push((fname.clone(), ft));
                    pos += n;
                }
                self.opaque(&ev.type_name, Some(fs), None)
            }
            Some(Opaque::Sum { variants }) => {
                let sum = SumApi { variants: self.variants(variants, parts) };
                self.opaque(&ev.type_name, None, Some(sum))
            }
            _ => self.opaque(&ev.type_name, None, None),
        }
    }

    /// The payload layout of a sum type's constructors, if every payload
    /// item is one part: a primitive or an array of primitives.
    fn variants(
        &mut self,
        variants: &[(String, Vec<(String, usize)>)],
        parts: &[Type],
    ) -> Option<Vec<(String, Vec<(ApiType, usize)>)>> {
        let mut pos = 1;
        let mut layout = Vec::new();
        for (name, payload) in variants {
            let mut items = Vec::new();
            for (tname, n) in payload {
                let part = parts.get(pos).filter(|_| *n == 1)?;
                // A one-part record (`{x: i32}`) is opaque all the same.
                if *tname != format!("{}{}", "[]".repeat(part.rank()), part.elem().name()) {
                    return None;
                }
                items.push((part.elem(), part.rank(), pos));
                pos += n;
            }
            layout.push((name.clone(), items));
        }
        if pos != parts.len() {
            return None;
        }
        let out = layout
            .into_iter()
            .map(|(name, items)| (name, items.into_iter().map(|(t, r, pos)| (self.array(t, r), pos)).collect()))
            .collect();
        Some(out)
    }

    fn build(prog: &Program) -> Result<Api, String> {
        let mut api = Api::default();
        let mut index = 0;
        for f in &prog.funs {
            let Some(entry) = &f.entry else { continue };
            let part_types = |ev: &EntryValue, from: &dyn Fn(usize) -> Option<Type>| -> Result<Vec<Type>, String> {
                ev.parts
                    .iter()
                    .map(|&p| from(p).ok_or_else(|| format!("C backend: entry point {} is malformed", f.name)))
                    .collect()
            };
            let mut inputs = Vec::new();
            for ev in &entry.inputs {
                let tys = part_types(ev, &|p| f.params.get(p).map(|x| x.ty.clone()))?;
                let name = ev.name.clone().unwrap_or_else(|| "_".to_string());
                inputs.push((api.value(ev, &tys), ev.unique, name));
            }
            let mut outs = Vec::new();
            for ev in &entry.outputs {
                let tys = part_types(ev, &|p| f.ret.get(p).cloned())?;
                outs.push((api.value(ev, &tys), ev.unique, ev.type_name.clone()));
            }
            let output = match outs.len() {
                0 => return Err(format!("C backend: entry point {} returns nothing", f.name)),
                1 => (outs[0].0.clone(), outs[0].1),
                _ => {
                    let names: Vec<&str> = outs.iter().map(|o| o.2.as_str()).collect();
                    let fields = outs.iter().enumerate().map(|(k, o)| (k.to_string(), o.0.clone())).collect();
                    let t = api.opaque(&format!("({})", names.join(", ")), Some(fields), None);
                    (t, outs.iter().all(|o| o.1))
                }
            };
            api.entries.push(EntryApi { name: f.name.clone(), index, inputs, output });
            index += 1;
        }
        Ok(api)
    }

    fn type_name(&self, t: &ApiType) -> String {
        match t {
            ApiType::Prim(p) => p.name().to_string(),
            ApiType::Array(p, r) => format!("{}{}", "[]".repeat(*r), p.name()),
            ApiType::Opaque(i) => self.opaques[*i].name.clone(),
        }
    }

    /// The C type of a value of this type as passed in (`in`) or out.
    fn ctype(&self, t: &ApiType) -> String {
        match t {
            ApiType::Prim(p) => c_prim(*p).to_string(),
            ApiType::Array(p, r) => format!("struct futhark_{} *", array_cname(*p, *r)),
            ApiType::Opaque(i) => format!("struct futhark_opaque_{} *", self.opaques[*i].cname),
        }
    }

    /// An input parameter declaration.
    fn param(&self, t: &ApiType, name: &str) -> String {
        match t {
            ApiType::Prim(p) => format!("const {} {name}", c_prim(*p)),
            _ => format!("const {}{name}", self.ctype(t)),
        }
    }

    /// An output parameter declaration (one more pointer).
    fn out_param(&self, t: &ApiType, name: &str) -> String {
        match t {
            ApiType::Prim(p) => format!("{} *{name}", c_prim(*p)),
            _ => format!("{}*{name}", self.ctype(t)),
        }
    }
}

fn prim_desc(t: PrimType, rank: usize) -> String {
    format!("og_lib_t_{}", array_cname(t, rank))
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn c_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if c.is_ascii() && !c.is_ascii_control() => o.push(c),
            c => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    let _ = write!(o, "\\{b:03o}");
                }
            }
        }
    }
    o.push('"');
    o
}

/// Generates the library's API (C definitions, header) and manifest.
pub fn generate(prog: &Program, opts: &Options) -> Result<LibraryFiles, String> {
    let api = Api::build(prog)?;
    let mut h = String::new(); // declarations, shared by the header and the C
    let mut c = String::new(); // definitions
    let ctx = "struct futhark_context *ctx";

    // ---- Configuration and context ----
    h.push_str("/* Configuration and context */\nstruct futhark_context_config;\nstruct futhark_context;\n");
    let cfg_fns: &[(&str, &str, &str)] = &[
        ("struct futhark_context_config *futhark_context_config_new(void)", "return og_lib_config_new();", ""),
        ("void futhark_context_config_free(struct futhark_context_config *cfg)", "free(cfg);", ""),
        ("void futhark_context_config_set_debugging(struct futhark_context_config *cfg, int flag)", "cfg->debugging = flag;", ""),
        ("void futhark_context_config_set_profiling(struct futhark_context_config *cfg, int flag)", "cfg->profiling = flag;", ""),
        ("void futhark_context_config_set_logging(struct futhark_context_config *cfg, int flag)", "cfg->logging = flag;", ""),
        ("void futhark_context_config_set_num_threads(struct futhark_context_config *cfg, int n)", "cfg->num_threads = n;", ""),
        ("void futhark_context_config_set_cache_file(struct futhark_context_config *cfg, const char *f)", "(void)cfg; (void)f;", "nothing is cached"),
        (
            "int futhark_context_config_set_tuning_param(struct futhark_context_config *cfg, const char *param_name, size_t new_value)",
            "return og_lib_config_set_tuning(cfg, param_name, new_value);",
            "",
        ),
        ("int futhark_get_tuning_param_count(void)", "return OG_NUM_TUNING_PARAMS;", ""),
        (
            "const char *futhark_get_tuning_param_name(int i)",
            "return i >= 0 && i < OG_NUM_TUNING_PARAMS ? og_tuning_names[i] : NULL;",
            "",
        ),
        (
            "const char *futhark_get_tuning_param_class(int i)",
            "return i >= 0 && i < OG_NUM_TUNING_PARAMS ? \"user\" : NULL;",
            "",
        ),
        ("struct futhark_context *futhark_context_new(struct futhark_context_config *cfg)", "return og_lib_context_new(cfg);", ""),
        ("void futhark_context_free(struct futhark_context *ctx)", "og_lib_context_free(ctx);", ""),
        ("int futhark_context_sync(struct futhark_context *ctx)", "(void)ctx; return 0;", "calls complete before they return"),
        ("char *futhark_context_get_error(struct futhark_context *ctx)", "return og_take_error(&ctx->og);", ""),
        ("char *futhark_context_report(struct futhark_context *ctx)", "return og_lib_report(ctx);", ""),
        ("int futhark_context_clear_caches(struct futhark_context *ctx)", "(void)ctx; return 0;", ""),
        ("void futhark_context_pause_profiling(struct futhark_context *ctx)", "ctx->profiling_paused = 1;", ""),
        ("void futhark_context_unpause_profiling(struct futhark_context *ctx)", "ctx->profiling_paused = 0;", ""),
    ];
    for (sig, body, why) in cfg_fns {
        let _ = writeln!(h, "{sig};");
        if !why.is_empty() {
            let _ = writeln!(c, "/* No-op: {why}. */");
        }
        let _ = writeln!(c, "{sig} {{ {body} }}");
    }

    // ---- Primitive type descriptions for scalars and arrays ----
    let mut prims: Vec<(PrimType, usize)> = api.arrays.clone();
    let mut note_prim = |t: &ApiType| {
        if let ApiType::Prim(p) = t {
            if !prims.contains(&(*p, 0)) {
                prims.push((*p, 0));
            }
        }
    };
    for e in &api.entries {
        e.inputs.iter().for_each(|(t, _, _)| note_prim(t));
    }
    for (t, r) in &prims {
        let _ = writeln!(
            c,
            "static const og_type_desc {} = {{{}, OG_{}, {r}, 0, NULL, 0, NULL, NULL, NULL}};",
            prim_desc(*t, *r),
            c_str(&format!("{}{}", "[]".repeat(*r), t.name())),
            t.name().to_uppercase()
        );
    }

    // ---- Arrays ----
    let mut types_json = Vec::new();
    for &(t, r) in &api.arrays {
        let n = array_cname(t, r);
        let st = format!("struct futhark_{n}");
        let el = c_prim(t);
        let dims: Vec<String> = (0..r).map(|d| format!("int64_t dim{d}")).collect();
        let dim_names: Vec<String> = (0..r).map(|d| format!("dim{d}")).collect();
        let idxs: Vec<String> = (0..r).map(|d| format!("int64_t i{d}")).collect();
        let idx_names: Vec<String> = (0..r).map(|d| format!("i{d}")).collect();
        let desc = prim_desc(t, r);
        let _ = writeln!(h, "\n/* Arrays of type {}{} */\n{st};", "[]".repeat(r), t.name());
        let _ = writeln!(c, "{st} {{ og_value *v; }};");
        let fns = [
            (
                format!("{st} *futhark_new_{n}({ctx}, const {el} *data, {})", dims.join(", ")),
                format!(
                    "int64_t shape[{r}] = {{{}}}; return og_lib_new_array(ctx, &{desc}, data, shape);",
                    dim_names.join(", ")
                ),
            ),
            (
                format!("{st} *futhark_new_raw_{n}({ctx}, unsigned char *data, {})", dims.join(", ")),
                format!(
                    "int64_t shape[{r}] = {{{}}}; return og_lib_new_array(ctx, &{desc}, data, shape);",
                    dim_names.join(", ")
                ),
            ),
            (format!("int futhark_free_{n}({ctx}, {st} *arr)"), "(void)ctx; return og_lib_free(arr);".to_string()),
            (
                format!("int futhark_values_{n}({ctx}, {st} *arr, {el} *data)"),
                "return og_lib_values(ctx, arr, data);".to_string(),
            ),
            (
                format!("unsigned char *futhark_values_raw_{n}({ctx}, {st} *arr)"),
                "(void)ctx; return arr == NULL ? NULL : og_mem_data(arr->v->mem);".to_string(),
            ),
            (
                format!("const int64_t *futhark_shape_{n}({ctx}, {st} *arr)"),
                "(void)ctx; return arr == NULL ? NULL : arr->v->shape;".to_string(),
            ),
            (
                format!("int futhark_index_{n}({ctx}, {el} *out, {st} *arr, {})", idxs.join(", ")),
                format!("int64_t idx[{r}] = {{{}}}; return og_lib_index(ctx, out, arr, idx);", idx_names.join(", ")),
            ),
        ];
        for (sig, body) in &fns {
            let _ = writeln!(h, "{sig};");
            let _ = writeln!(c, "{sig} {{ {body} }}");
        }
        types_json.push(format!(
            "{}: {{\"kind\": \"array\", \"ctype\": {}, \"elemtype\": \"{}\", \"rank\": {r}, \"ops\": {{\"free\": \"futhark_free_{n}\", \"shape\": \"futhark_shape_{n}\", \"values\": \"futhark_values_{n}\", \"values_raw\": \"futhark_values_raw_{n}\", \"new\": \"futhark_new_{n}\", \"new_raw\": \"futhark_new_raw_{n}\", \"index\": \"futhark_index_{n}\"}}}}",
            json_str(&format!("{}{}", "[]".repeat(r), t.name())),
            json_str(&format!("{st} *")),
            t.name()
        ));
    }

    // ---- Opaque types ----
    for o in &api.opaques {
        let n = format!("opaque_{}", o.cname);
        let st = format!("struct futhark_{n}");
        let name_c = c_str(&o.name);
        let _ = writeln!(h, "\n/* Opaque type {} */\n{st};", o.name);
        let _ = writeln!(c, "{st} {{ og_value *v; }};");
        let mut fns = vec![
            (format!("int futhark_free_{n}({ctx}, {st} *obj)"), "(void)ctx; return og_lib_free(obj);".to_string()),
            (
                format!("int futhark_store_{n}({ctx}, const {st} *obj, void **p, size_t *n)"),
                "return og_lib_store(ctx, obj, p, n);".to_string(),
            ),
            (
                format!("{st} *futhark_restore_{n}({ctx}, const void *p)"),
                format!("return og_lib_restore(ctx, og_api_find_type({name_c}), p);"),
            ),
        ];
        let mut group = String::new();
        if let Some(fields) = &o.record {
            let pnames: Vec<String> = fields.iter().enumerate().map(|(k, (f, _))| field_param(k, f)).collect();
            let params: Vec<String> = fields.iter().zip(&pnames).map(|((_, t), p)| api.param(t, p)).collect();
            let addrs: Vec<String> = fields
                .iter()
                .zip(&pnames)
                .map(|((_, t), p)| if matches!(t, ApiType::Prim(_)) { format!("&{p}") } else { p.clone() })
                .collect();
            let list = if addrs.is_empty() { "NULL".to_string() } else { addrs.join(", ") };
            fns.push((
                format!("int futhark_new_{n}({ctx}, {st} **out, {})", params.join(", ")),
                format!(
                    "const void *const fields[{}] = {{{list}}}; return og_lib_new_record(ctx, (void **)out, og_api_find_type({name_c}), fields);",
                    fields.len().max(1)
                ),
            ));
            let mut fjson = Vec::new();
            for (fname, ft) in fields {
                let proj = format!("futhark_project_{n}_{}", field_ident(fname));
                fns.push((
                    format!("int {proj}({ctx}, {}, const {st} *obj)", api.out_param(ft, "out")),
                    format!("return og_lib_project(ctx, out, obj, {});", c_str(fname)),
                ));
                fjson.push(format!(
                    "{{\"name\": {}, \"type\": {}, \"project\": \"{proj}\"}}",
                    json_str(fname),
                    json_str(&api.type_name(ft))
                ));
            }
            group = format!(", \"record\": {{\"new\": \"futhark_new_{n}\", \"fields\": [{}]}}", fjson.join(", "));
        }
        if let Some(sum) = &o.sum {
            // The tag is the first part, an i8.
            let variant_fn = format!("futhark_variant_{n}");
            fns.push((
                format!("int {variant_fn}({ctx}, const {st} *obj)"),
                "(void)ctx; int8_t tag; memcpy(&tag, og_mem_data(obj->v->parts[0]->mem), 1); return tag;".to_string(),
            ));
            if let Some(variants) = &sum.variants {
                let mut vjson = Vec::new();
                for (tag, (vname, payload)) in variants.iter().enumerate() {
                    let ident = field_ident(vname);
                    let construct = format!("futhark_new_{n}_{ident}");
                    let destruct = format!("futhark_destruct_{n}_{ident}");
                    let first = payload.first().map_or(1, |p| p.1);
                    let count = payload.len();
                    let mut params = vec![ctx.to_string(), format!("{st} **out")];
                    params.extend(payload.iter().enumerate().map(|(k, (t, _))| api.param(t, &format!("v{k}"))));
                    let args: Vec<String> = payload
                        .iter()
                        .enumerate()
                        .map(
                            |(k, (t, _))| {
                                if matches!(t, ApiType::Prim(_)) {
                                    format!("&v{k}")
                                } else {
                                    format!("v{k}")
                                }
                            },
                        )
                        .collect();
                    let args = if args.is_empty() { "NULL".to_string() } else { args.join(", ") };
                    fns.push((
                        format!("int {construct}({})", params.join(", ")),
                        format!(
                            "const void *const payload[{}] = {{{args}}}; return og_lib_new_sum(ctx, (void **)out, og_api_find_type({name_c}), {tag}, {first}, {count}, payload);",
                            count.max(1)
                        ),
                    ));
                    let mut params = vec![ctx.to_string()];
                    params.extend(payload.iter().enumerate().map(|(k, (t, _))| api.out_param(t, &format!("v{k}"))));
                    params.push(format!("const {st} *obj"));
                    let outs: Vec<String> = (0..count).map(|k| format!("v{k}")).collect();
                    let outs = if outs.is_empty() { "NULL".to_string() } else { outs.join(", ") };
                    fns.push((
                        format!("int {destruct}({})", params.join(", ")),
                        format!(
                            "void *const outs[{}] = {{{outs}}}; return og_lib_destruct_sum(ctx, obj, {tag}, {first}, {count}, outs);",
                            count.max(1)
                        ),
                    ));
                    let payload_names: Vec<String> = payload.iter().map(|(t, _)| json_str(&api.type_name(t))).collect();
                    vjson.push(format!(
                        "{{\"name\": {}, \"payload\": [{}], \"construct\": \"{construct}\", \"destruct\": \"{destruct}\"}}",
                        json_str(vname),
                        payload_names.join(", ")
                    ));
                }
                group = format!(", \"sum\": {{\"variant\": \"{variant_fn}\", \"variants\": [{}]}}", vjson.join(", "));
            }
        }
        for (sig, body) in &fns {
            let _ = writeln!(h, "{sig};");
            let _ = writeln!(c, "{sig} {{ {body} }}");
        }
        types_json.push(format!(
            "{}: {{\"kind\": \"opaque\", \"ctype\": {}, \"ops\": {{\"free\": \"futhark_free_{n}\", \"store\": \"futhark_store_{n}\", \"restore\": \"futhark_restore_{n}\"}}{group}}}",
            json_str(&o.name),
            json_str(&format!("{st} *"))
        ));
    }

    // ---- Entry points ----
    let _ = writeln!(h, "\n/* Entry points */");
    let mut entries_json = Vec::new();
    for e in &api.entries {
        let mut params = vec![ctx.to_string(), api.out_param(&e.output.0, "out0")];
        params.extend(e.inputs.iter().enumerate().map(|(i, (t, _, _))| api.param(t, &format!("in{i}"))));
        let sig = format!("int futhark_entry_{}({})", e.name, params.join(", "));
        let _ = writeln!(h, "{sig};");
        let mut body = String::new();
        let n = e.inputs.len().max(1);
        let _ = write!(body, "og_value *ins[{n}] = {{NULL}}; bool owned[{n}] = {{false}};");
        for (i, (t, _, _)) in e.inputs.iter().enumerate() {
            match t {
                ApiType::Prim(p) => {
                    let _ = write!(
                        body,
                        " ins[{i}] = og_lib_scalar(ctx, &{}, &in{i}); owned[{i}] = true;",
                        prim_desc(*p, 0)
                    );
                }
                _ => {
                    let _ = write!(body, " ins[{i}] = og_lib_value(in{i});");
                }
            }
        }
        let _ = write!(body, " return og_lib_call(ctx, {}, out0, ins, owned);", e.index);
        let _ = writeln!(c, "{sig} {{ {body} }}");
        let inputs: Vec<String> = e
            .inputs
            .iter()
            .map(|(t, u, name)| {
                format!("{{\"name\": {}, \"type\": {}, \"unique\": {u}}}", json_str(name), json_str(&api.type_name(t)))
            })
            .collect();
        let tuning: Vec<String> = prog
            .fun(&e.name)
            .map(|f| crate::tuning::reachable(prog, f))
            .unwrap_or_default()
            .iter()
            .map(|n| json_str(n))
            .collect();
        entries_json.push(format!(
            "{}: {{\"cfun\": \"futhark_entry_{}\", \"inputs\": [{}], \"output\": {{\"type\": {}, \"unique\": {}}}, \"tuning_params\": [{}], \"attributes\": []}}",
            json_str(&e.name),
            e.name,
            inputs.join(", "),
            json_str(&api.type_name(&e.output.0)),
            e.output.1,
            tuning.join(", ")
        ));
    }

    let header = format!(
        "/* Generated by ogham: the C API of a Futhark program (Futhark's conventions). */\n#pragma once\n#include <stdint.h>\n#include <stddef.h>\n#include <stdbool.h>\n#ifdef __cplusplus\nextern \"C\" {{\n#endif\n\n{h}\n#ifdef __cplusplus\n}}\n#endif\n"
    );
    let c_all = format!(
        "\n/* ---- The C API ---- */\n\n{RTS_LIBRARY}\n/* The declarations of {{prog}}.h, so they are checked against the definitions. */\n{h}\n{c}\n/* Referenced so that no static helper is unused. */\nvoid futhark_og_unused(void);\nvoid futhark_og_unused(void) {{ og_silence_unused(); }}\n"
    );
    let backend = match opts.backend {
        Backend::Sequential => "c",
        Backend::Multicore => "multicore",
    };
    let manifest = format!(
        "{{\n  \"backend\": \"{backend}\",\n  \"version\": \"ogham {}\",\n  \"entry_points\": {{\n    {}\n  }},\n  \"types\": {{\n    {}\n  }}\n}}\n",
        env!("CARGO_PKG_VERSION"),
        entries_json.join(",\n    "),
        types_json.join(",\n    ")
    );
    Ok(LibraryFiles { c: c_all, header, manifest })
}

#[cfg(test)]
mod tests {
    use super::sanitise;
    use crate::{Backend, Options};

    /// The library generated from a program in the IR's text form.
    fn library_of(text: &str) -> super::LibraryFiles {
        let prog = ogham_ir::parse::parse_program(text).unwrap();
        ogham_ir::verify::verify(&prog).unwrap();
        let opts = Options { backend: Backend::Sequential, library: true, ..Options::default() };
        super::generate(&prog, &opts).unwrap()
    }

    #[test]
    fn input_names() {
        let text = r#"
entry "f" (n_0: i64, k_1: i32, xs_2: [n_0]f32, a_3: i32, b_4: i32) : (i32)
  inputs ("k": "i32" [1], "xs'": "[]f32" [2], "_": "(i32, i32)" [3, 4] record {"0": "i32" 1, "1": "i32" 1})
  outputs ("i32" [0]) {
  in (k_1)
}
"#;
        let files = library_of(text);
        // The manifest has the source names, as written.
        assert!(
            files.manifest.contains(
                r#""inputs": [{"name": "k", "type": "i32", "unique": false}, {"name": "xs'", "type": "[]f32", "unique": false}, {"name": "_", "type": "(i32, i32)", "unique": false}]"#
            ),
            "{}",
            files.manifest
        );
        // The C parameters are positional, as in Futhark's header.
        assert!(
            files.header.contains(
                "int futhark_entry_f(struct futhark_context *ctx, int32_t *out0, const int32_t in0, const struct futhark_f32_1d *in1, const struct futhark_opaque_tup2_i32_i32 *in2);"
            ),
            "{}",
            files.header
        );
        // Record constructors name their parameters after the fields, as Futhark does.
        assert!(
            files.header.contains(
                "int futhark_new_opaque_tup2_i32_i32(struct futhark_context *ctx, struct futhark_opaque_tup2_i32_i32 **out, const int32_t v0, const int32_t v1);"
            ),
            "{}",
            files.header
        );
        assert_eq!(super::field_param(0, "x"), "f_x");
        assert_eq!(super::field_param(1, "y'"), "f1");
        assert_eq!(super::field_param(2, "2"), "v2");
    }

    #[test]
    fn sum_types() {
        let text = r#"
entry "area" (n_0: i64, t_1: i8, r_2: f64, xs_3: [n_0]f64) : (f64)
  inputs ("s": "shape" [1, 2, 3] sum {"circle": ["f64" 1], "empty": [], "poly": ["[]f64" 1]})
  outputs ("f64" [0]) {
  in (r_2)
}

entry "many" (n_4: i64, ts_5: [n_4]i8, rs_6: [n_4]f64) : (f64)
  inputs ("ss": "[](#a f64 | #b)" [1, 2] sum_array 1 {"a": ["f64" 1], "b": []})
  outputs ("f64" [0]) {
  in (0.0f64)
}

entry "pairs" (t_7: i8, a_8: i32, b_9: i32) : (i32)
  inputs ("o": "opt" [0, 1, 2] sum {"none": [], "some": ["(i32, i32)" 2]})
  outputs ("i32" [0]) {
  in (a_8)
}
"#;
        let files = library_of(text);
        let (h, m) = (&files.header, &files.manifest);
        for decl in [
            "int futhark_variant_opaque_shape(struct futhark_context *ctx, const struct futhark_opaque_shape *obj);",
            "int futhark_new_opaque_shape_circle(struct futhark_context *ctx, struct futhark_opaque_shape **out, const double v0);",
            "int futhark_destruct_opaque_shape_circle(struct futhark_context *ctx, double *v0, const struct futhark_opaque_shape *obj);",
            "int futhark_new_opaque_shape_empty(struct futhark_context *ctx, struct futhark_opaque_shape **out);",
            "int futhark_destruct_opaque_shape_poly(struct futhark_context *ctx, struct futhark_f64_1d **v0, const struct futhark_opaque_shape *obj);",
            "int futhark_variant_opaque_opt(struct futhark_context *ctx, const struct futhark_opaque_opt *obj);",
        ] {
            assert!(h.contains(decl), "{decl}\n{h}");
        }
        assert!(
            m.contains(
                r#""sum": {"variant": "futhark_variant_opaque_shape", "variants": [{"name": "circle", "payload": ["f64"], "construct": "futhark_new_opaque_shape_circle", "destruct": "futhark_destruct_opaque_shape_circle"}, {"name": "empty", "payload": [], "#
            ),
            "{m}"
        );
        // A payload that is itself opaque: only the variant function.
        assert!(!h.contains("futhark_new_opaque_opt_some") && !m.contains("futhark_variant_opaque_opt"), "{h}\n{m}");
        // An array of sums is no sum.
        assert!(!h.contains("futhark_variant_opaque_arr1d"), "{h}");
        assert!(files.c.contains("og_lib_new_sum"));
    }

    #[test]
    fn names() {
        assert_eq!(sanitise("pt"), "pt");
        assert_eq!(sanitise("(f32, []i64)"), "tup2_f32_arr1d_i64");
        assert_eq!(sanitise("[][]f32"), "arr2d_f32");
        assert!(sanitise("{x: f64, y: f64}").starts_with('t'));
    }
}
