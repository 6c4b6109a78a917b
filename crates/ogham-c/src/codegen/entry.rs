//! Entry points: the type descriptors of their values (`og_type_desc`),
//! the table of entry points, and each entry point's C wrapper, which
//! checks and converts the arguments, calls the program's function and
//! hands the results over.

use super::*;

impl Gen<'_> {
    pub(super) fn type_desc(&mut self, out: &mut String, name: &str, ty: &Type) -> String {
        self.counter += 1;
        let id = format!("og_type_{}", self.counter);
        let _ = writeln!(
            out,
            "static const og_type_desc {id} = {{{}, {}, {}, 0, NULL, 0, NULL, NULL, NULL}};",
            c_string(name),
            prim_enum(ty.elem()),
            ty.rank()
        );
        id
    }

    pub(super) fn array_type_name(ty: &Type) -> String {
        format!("{}{}", "[]".repeat(ty.rank()), ty.elem().name())
    }

    /// Describes an entry value; returns the descriptor's C name.
    pub(super) fn entry_value_desc(
        &mut self,
        out: &mut String,
        ev: &ogham_ir::EntryValue,
        part_types: &[Type],
        opaque_seen: &mut Vec<(String, String)>,
    ) -> String {
        if ev.opaque.is_none() && part_types.len() == 1 {
            return self.type_desc(out, &ev.type_name, &part_types[0]);
        }
        if let Some((_, id)) = opaque_seen.iter().find(|(n, _)| *n == ev.type_name) {
            return id.clone();
        }
        let parts: Vec<String> = part_types.iter().map(|t| self.type_desc(out, &Self::array_type_name(t), t)).collect();
        self.counter += 1;
        let id = format!("og_type_{}", self.counter);
        let part_refs: Vec<String> = parts.iter().map(|p| format!("&{p}")).collect();
        let _ = writeln!(out, "static const og_type_desc *const {id}_parts[] = {{{}}};", part_refs.join(", "));
        let mut fields_c = "0, NULL, NULL, NULL".to_string();
        if let Some(Opaque::Record { fields }) = &ev.opaque {
            let mut fnames = Vec::new();
            let mut ftypes = Vec::new();
            let mut fparts = Vec::new();
            let mut pos = 0;
            for (fname, ftype, n) in fields {
                fnames.push(c_string(fname));
                if *n == 1 && pos < part_types.len() {
                    ftypes.push(self.type_desc(out, ftype, &part_types[pos].clone()));
                } else {
                    let sub = &part_types[pos.min(part_types.len())..(pos + n).min(part_types.len())];
                    let subparts: Vec<String> =
                        sub.iter().map(|t| self.type_desc(out, &Self::array_type_name(t), t)).collect();
                    self.counter += 1;
                    let sid = format!("og_type_{}", self.counter);
                    let refs: Vec<String> = subparts.iter().map(|p| format!("&{p}")).collect();
                    let _ = writeln!(out, "static const og_type_desc *const {sid}_parts[] = {{{}}};", refs.join(", "));
                    let _ = writeln!(
                        out,
                        "static const og_type_desc {sid} = {{{}, -1, 0, {}, {sid}_parts, 0, NULL, NULL, NULL}};",
                        c_string(ftype),
                        subparts.len()
                    );
                    ftypes.push(sid);
                }
                fparts.push(n.to_string());
                pos += n;
            }
            let _ = writeln!(out, "static const char *const {id}_fnames[] = {{{}}};", fnames.join(", "));
            let ftypes_refs: Vec<String> = ftypes.iter().map(|t| format!("&{t}")).collect();
            let _ = writeln!(out, "static const og_type_desc *const {id}_ftypes[] = {{{}}};", ftypes_refs.join(", "));
            let _ = writeln!(out, "static const int {id}_fparts[] = {{{}}};", fparts.join(", "));
            fields_c = format!("{}, {id}_fnames, {id}_ftypes, {id}_fparts", fields.len());
        }
        let _ = writeln!(
            out,
            "static const og_type_desc {id} = {{{}, -1, 0, {}, {id}_parts, {fields_c}}};",
            c_string(&ev.type_name),
            parts.len()
        );
        opaque_seen.push((ev.type_name.clone(), id.clone()));
        id
    }

    /// Emits the entry-point wrappers and the entry table.
    pub(super) fn entry_points(&mut self, out: &mut String) -> Res<String> {
        let mut table = Vec::new();
        let mut opaque_seen = Vec::new();
        for (fi, f) in self.prog.funs.iter().enumerate() {
            let Some(entry) = &f.entry else { continue };
            let mut in_descs = Vec::new();
            for ev in &entry.inputs {
                let tys: Vec<Type> = ev.parts.iter().filter_map(|&p| f.params.get(p).map(|x| x.ty.clone())).collect();
                if tys.len() != ev.parts.len() {
                    return Err(format!("C backend: entry point {} names a parameter that does not exist", f.name));
                }
                in_descs.push(self.entry_value_desc(out, ev, &tys, &mut opaque_seen));
            }
            let mut out_descs = Vec::new();
            for ev in &entry.outputs {
                let tys: Vec<Type> = ev.parts.iter().filter_map(|&p| f.ret.get(p).cloned()).collect();
                if tys.len() != ev.parts.len() {
                    return Err(format!("C backend: entry point {} names a result that does not exist", f.name));
                }
                out_descs.push(self.entry_value_desc(out, ev, &tys, &mut opaque_seen));
            }
            let wrapper = format!("og_entry_{fi}");
            self.entry_wrapper(out, fi, f, &wrapper, &out_descs)?;
            let refs = |d: &[String]| {
                if d.is_empty() {
                    "NULL".to_string()
                } else {
                    d.iter().map(|x| format!("&{x}")).collect::<Vec<_>>().join(", ")
                }
            };
            let _ = writeln!(out, "static const og_type_desc *const {wrapper}_in[] = {{{}}};", refs(&in_descs));
            let _ = writeln!(out, "static const og_type_desc *const {wrapper}_out[] = {{{}}};", refs(&out_descs));
            let uniq = |vs: &[ogham_ir::EntryValue]| {
                if vs.is_empty() {
                    "false".to_string()
                } else {
                    vs.iter().map(|v| v.unique.to_string()).collect::<Vec<_>>().join(", ")
                }
            };
            let _ = writeln!(out, "static const bool {wrapper}_in_unique[] = {{{}}};", uniq(&entry.inputs));
            let _ = writeln!(out, "static const bool {wrapper}_out_unique[] = {{{}}};", uniq(&entry.outputs));
            let params: Vec<String> = crate::tuning::reachable(self.prog, f)
                .iter()
                .map(|n| c_string(n))
                .chain(["NULL".to_string()])
                .collect();
            let _ = writeln!(out, "static const char *const {wrapper}_tuning[] = {{{}}};", params.join(", "));
            table.push(format!(
                "{{{}, {}, {wrapper}_in, {wrapper}_in_unique, {}, {wrapper}_out, {wrapper}_out_unique, {wrapper}, {wrapper}_tuning}}",
                c_string(&f.name),
                entry.inputs.len(),
                entry.outputs.len()
            ));
        }
        let mut s = String::new();
        let n = table.len();
        if table.is_empty() {
            table.push("{NULL, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL}".to_string());
        }
        let _ = writeln!(s, "OG_GLOBAL const og_entry og_entries[] = {{\n  {}\n}};", table.join(",\n  "));
        let _ = writeln!(s, "OG_GLOBAL const int og_num_entries = {n};");
        let opaque: Vec<String> = opaque_seen.iter().map(|(_, id)| format!("&{id}")).collect();
        let m = opaque.len();
        let list = if opaque.is_empty() { "NULL".to_string() } else { opaque.join(", ") };
        let _ = writeln!(s, "OG_GLOBAL const og_type_desc *const og_opaque_types[] = {{{list}}};");
        let _ = writeln!(s, "OG_GLOBAL const int og_num_opaque_types = {m};");
        let _ = writeln!(s, "static inline void og_silence_unused(void) {{ (void)og_entries; (void)og_num_entries; (void)og_opaque_types; (void)og_num_opaque_types; }}");
        Ok(s)
    }

    pub(super) fn entry_wrapper(
        &mut self,
        out: &mut String,
        fi: usize,
        f: &FunDef,
        wrapper: &str,
        out_descs: &[String],
    ) -> Res<()> {
        let entry = f.entry.as_ref().expect("entry point");
        let mut w = String::new();
        let _ = writeln!(w, "static int {wrapper}(og_ctx *ctx, og_value **outs, og_value *const *ins) {{");
        // Entry points without inputs (`entry pi = ...`) never read `ins`.
        let _ = writeln!(w, "  (void)ins;");
        let _ = writeln!(w, "  (void)outs; (void)ins;");
        // Where each flat parameter comes from.
        let mut bound = vec![false; f.params.len()];
        for (i, ev) in entry.inputs.iter().enumerate() {
            for (k, &p) in ev.parts.iter().enumerate() {
                let param = &f.params[p];
                let src = if ev.opaque.is_none() && ev.parts.len() == 1 {
                    format!("ins[{i}]")
                } else {
                    format!("ins[{i}]->parts[{k}]")
                };
                let c = vname(param.name);
                if param.ty.is_array() {
                    let _ = writeln!(w, "  og_arr {c} = {{0}}; {c}.mem = {src}->mem;");
                    for d in 0..param.ty.rank() {
                        let _ = writeln!(w, "  {c}.shape[{d}] = {src}->shape[{d}];");
                    }
                    let _ = writeln!(w, "  og_set_row_major(&{c}, {});", param.ty.rank());
                } else {
                    let t = ctype(param.ty.elem());
                    let _ = writeln!(w, "  {t} {c}; memcpy(&{c}, og_mem_data({src}->mem), sizeof {c});");
                }
                bound[p] = true;
            }
        }
        // Size parameters come from the shapes of the arrays they size.
        for (pi, p) in f.params.iter().enumerate() {
            if bound[pi] {
                continue;
            }
            let src = f.params.iter().enumerate().find_map(|(ai, a)| {
                if !bound[ai] {
                    return None;
                }
                a.ty.shape()
                    .iter()
                    .position(|d| *d == SubExp::Var(p.name))
                    .map(|d| format!("{}.shape[{d}]", vname(a.name)))
            });
            let c = vname(p.name);
            match src {
                Some(s) => {
                    let _ = writeln!(w, "  {} {c} = ({})({s});", cty(&p.ty), cty(&p.ty));
                }
                None => {
                    return Err(format!(
                        "C backend: entry point {}: size parameter {} is not the size of any input",
                        f.name,
                        self.prog.names.display(p.name)
                    ))
                }
            }
        }
        // Every array argument's shape must agree with its declared sizes.
        for (pi, p) in f.params.iter().enumerate() {
            if !bound[pi] {
                continue;
            }
            for (d, dim) in p.ty.shape().iter().enumerate() {
                let _ = writeln!(
                    w,
                    "  if ({}.shape[{d}] != {}) return og_fail(ctx, NULL, \"entry point arguments have invalid sizes.\");",
                    vname(p.name),
                    self.se(dim)
                );
            }
        }
        let mut args = vec!["ctx".to_string()];
        for (k, t) in f.ret.iter().enumerate() {
            let _ = writeln!(w, "  {} r{k}; memset(&r{k}, 0, sizeof r{k});", cty(t));
            args.push(format!("&r{k}"));
        }
        args.extend(
            f.params.iter().map(|p| if p.ty.is_array() { format!("&{}", vname(p.name)) } else { vname(p.name) }),
        );
        let _ = writeln!(w, "  if ({}({})) return og_propagate();", Self::c_fun_name(fi, &f.name), args.join(", "));
        let _ = writeln!(w, "  int failed = 0;");
        for (i, ev) in entry.outputs.iter().enumerate() {
            let opaque = !(ev.opaque.is_none() && ev.parts.len() == 1);
            let _ = writeln!(w, "  {{");
            let _ = writeln!(w, "    og_value *v = calloc(1, sizeof *v);");
            let _ = writeln!(w, "    if (v == NULL) return og_fail(ctx, NULL, \"Out of memory.\");");
            let _ = writeln!(w, "    v->type = &{};", out_descs[i]);
            if opaque {
                let _ = writeln!(
                    w,
                    "    v->prim = -1; v->nparts = {}; v->parts = calloc({}, sizeof *v->parts);",
                    ev.parts.len(),
                    ev.parts.len() + 1
                );
                let _ = writeln!(
                    w,
                    "    if (v->parts == NULL) {{ free(v); return og_fail(ctx, NULL, \"Out of memory.\"); }}"
                );
            }
            for (k, &r) in ev.parts.iter().enumerate() {
                let ty = &f.ret[r];
                let target = if opaque { format!("v->parts[{k}]") } else { "v".to_string() };
                if opaque {
                    let _ = writeln!(w, "    {target} = calloc(1, sizeof(og_value));");
                    let _ = writeln!(w, "    if ({target} == NULL) {{ failed = 1; }} else {{");
                    let _ = writeln!(w, "    {target}->type = NULL;");
                } else {
                    let _ = writeln!(w, "    {{");
                }
                let _ = writeln!(w, "    {target}->prim = {}; {target}->rank = {};", prim_enum(ty.elem()), ty.rank());
                if ty.is_array() {
                    let rank = ty.rank();
                    for d in 0..rank {
                        let _ = writeln!(w, "    {target}->shape[{d}] = r{r}.shape[{d}];");
                    }
                    let _ = writeln!(w, "    if (r{r}.offset == 0 && og_is_contiguous(&r{r}, {rank}) && r{r}.mem->bytes == og_shape_elems({rank}, r{r}.shape) * {}) {{ og_ref(r{r}.mem); {target}->mem = r{r}.mem; }}", ty.elem().byte_size());
                    let _ = writeln!(w, "    else {{ og_arr copy = {{0}}; if (og_copy_fresh(ctx, &copy, &r{r}, {}, {rank}, NULL)) failed = 1; else {target}->mem = copy.mem; }}", ty.elem().byte_size());
                } else {
                    let _ = writeln!(w, "    {target}->mem = og_mem_alloc(ctx, sizeof r{r}, NULL);");
                    let _ = writeln!(w, "    if ({target}->mem == NULL) failed = 1; else memcpy(og_mem_data({target}->mem), &r{r}, sizeof r{r});");
                }
                let _ = writeln!(w, "    }}");
            }
            let _ = writeln!(w, "    outs[{i}] = v;");
            let _ = writeln!(w, "  }}");
        }
        for (k, t) in f.ret.iter().enumerate() {
            if t.is_array() {
                let _ = writeln!(w, "  og_unref(r{k}.mem);");
            }
        }
        let _ = writeln!(
            w,
            "  if (failed) {{ for (int i = 0; i < {}; i++) {{ og_value_free(outs[i]); outs[i] = NULL; }} return 1; }}",
            entry.outputs.len()
        );
        let _ = writeln!(w, "  return 0;\n}}");
        out.push_str(&w);
        Ok(())
    }
}
