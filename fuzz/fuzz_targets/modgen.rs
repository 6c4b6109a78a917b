//! A generator of module-language programs, driven by a byte string.
//!
//! Byte-level mutation of `.fut` text rarely keeps a module program
//! meaningful, so the `modules` fuzz target (and the smoke test
//! `crates/ogham-driver/tests/module_programs.rs`, which includes this file)
//! builds programs from a small grammar instead: module types with abstract,
//! lifted and transparent type specifications, value, operator, size-
//! polymorphic and nested module specifications, `include` and `with`;
//! structures, ascriptions, curried functors with one to three parameters,
//! partial application (functors returning functors), anonymous structure
//! arguments, `open`, `local`, nested modules, local `M.(e)` and entry points
//! using all of them. Every byte is a choice; when the bytes run out every
//! choice is the first one, so short inputs give small programs.
//!
//! Most generated programs are well typed: every module type specifies `t`,
//! `g : i32 -> t` and `h : t -> i32`, every structure defines a consistent
//! representation of `t` with all members, and entries call `M.h (M.g x)`.
//! Rarer choices (a transparent specification of the wrong type, a
//! size-lifted type used as an array element, a missing member, a functor
//! applied to an unrelated module, a wrong value) produce the module errors.
//! The generator does not know which choices are errors: the targets only
//! demand that the compiler never panics, never reports an internal error,
//! and that the lowered IR verifies and runs.

/// A source of choices.
pub struct Choices<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Choices<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Choices { data, pos: 0 }
    }

    /// A number below `n` (`n` > 0); 0 once the bytes are used up.
    fn below(&mut self, n: usize) -> usize {
        let Some(&b) = self.data.get(self.pos) else { return 0 };
        self.pos += 1;
        b as usize % n
    }

    /// True with probability about `num`/256 (never once the bytes run out).
    fn chance(&mut self, num: usize) -> bool {
        let Some(&b) = self.data.get(self.pos) else { return false };
        self.pos += 1;
        (b as usize) < num
    }

    fn exhausted(&self) -> bool {
        self.pos >= self.data.len()
    }
}

/// One representation of the abstract type `t`: its definition and the
/// bodies of the members every structure defines (`g`, `h`, `f`, `x`, `op`).
struct Repr {
    ty: &'static str,
    /// `type`, `type^` or `type~`: the least liftedness the definition needs.
    keyword: &'static str,
    g: &'static str,
    h: &'static str,
    f: &'static str,
    x: &'static str,
    op: &'static str,
}

const REPRS: &[Repr] = &[
    Repr { ty: "i32", keyword: "type", g: "x", h: "y", f: "y + 1", x: "7", op: "a + b" },
    Repr { ty: "i64", keyword: "type", g: "i64.i32 x", h: "i32.i64 y", f: "y * 2", x: "5i64", op: "a - b" },
    Repr { ty: "f32", keyword: "type", g: "f32.i32 x", h: "i32.f32 y", f: "y / 2", x: "1.5f32", op: "f32.max a b" },
    Repr { ty: "bool", keyword: "type", g: "x > 0", h: "if y then 1 else 0", f: "!y", x: "true", op: "a && b" },
    Repr {
        ty: "{a: i32, b: i64}",
        keyword: "type",
        g: "{a = x, b = i64.i32 x}",
        h: "y.a + i32.i64 y.b",
        f: "y with a = y.a + 1",
        x: "{a = 1, b = 2}",
        op: "{a = a.a + b.a, b = a.b}",
    },
    Repr {
        ty: "(i32, f32)",
        keyword: "type",
        g: "(x, f32.i32 x)",
        h: "y.0 + i32.f32 y.1",
        f: "(y.0 * 2, y.1)",
        x: "(1, 2f32)",
        op: "(a.0 + b.0, a.1 - b.1)",
    },
    Repr {
        ty: "#none | #some i32",
        keyword: "type",
        g: "if x > 0 then #some x else #none",
        h: "match y case #some v -> v case #none -> 0",
        f: "match y case #some v -> #some (v + 1) case #none -> #none",
        x: "#some 3",
        op: "match a case #none -> b case _ -> a",
    },
    Repr {
        ty: "[3]i32",
        keyword: "type",
        g: "[x, x + 1, x + 2]",
        h: "y[0] + y[2]",
        f: "map (+ 1) y",
        x: "[1, 2, 3]",
        op: "map2 (+) a b",
    },
    Repr {
        ty: "[]i32",
        keyword: "type~",
        g: "map i32.i64 (iota (i64.i32 (i32.max 0 (i32.min x 5))))",
        h: "i32.sum y",
        f: "map (* 2) y",
        x: "[4, 5]",
        op: "if length a > length b then a else b",
    },
    Repr {
        ty: "i32 -> i32",
        keyword: "type^",
        g: "\\z -> z + x",
        h: "y 1",
        f: "\\z -> y (z + 1)",
        x: "\\z -> z",
        op: "\\z -> a (b z)",
    },
];

/// What the generator knows about a module type.
#[derive(Clone)]
struct SigInfo {
    /// Index into `REPRS` when `t` is specified transparently.
    transparent: Option<usize>,
    /// How `t` is specified: `type`, `type^` or `type~`.
    keyword: &'static str,
    has_f: bool,
    has_x: bool,
    has_op: bool,
    has_v: bool,
    /// The name of a nested module specification, with the module type it has.
    nested: Option<(String, usize)>,
}

/// What the generator knows about a module.
struct ModInfo {
    name: String,
    /// The module type it was sealed with, if any.
    sig: Option<usize>,
}

/// What the generator knows about a functor: how many parameters it takes
/// (all of module type `param_sig`) and how many were already applied.
struct FunInfo {
    name: String,
    params: usize,
    param_sig: usize,
    applied: usize,
}

/// Generates one program.
pub fn program(c: &mut Choices) -> String {
    let mut out = String::new();
    let mut sigs: Vec<SigInfo> = Vec::new();
    let mut mods: Vec<ModInfo> = Vec::new();
    let mut funs: Vec<FunInfo> = Vec::new();

    // Module types first: everything else refers to them.
    let nsigs = 1 + c.below(4);
    for i in 0..nsigs {
        let sig = signature(c, &mut out, i, &sigs);
        sigs.push(sig);
    }
    let ndecs = 2 + c.below(10);
    for i in 0..ndecs {
        if c.exhausted() && i >= 2 {
            break;
        }
        match c.below(8) {
            0..=2 => structure(c, &mut out, &sigs, &mut mods),
            3 | 4 => functor(c, &mut out, &sigs, &mut funs),
            5 | 6 if !funs.is_empty() => application(c, &mut out, &sigs, &mut mods, &mut funs),
            _ if !mods.is_empty() => {
                // An alias, possibly sealed again.
                let m = c.below(mods.len());
                let name = format!("A{}", mods.len());
                let src = mods[m].name.clone();
                if c.chance(100) {
                    let s = c.below(sigs.len());
                    out.push_str(&format!("module {name} : S{s} = {src}\n"));
                    mods.push(ModInfo { name, sig: Some(s) });
                } else {
                    out.push_str(&format!("module {name} = {src}\n"));
                    let sig = mods[m].sig;
                    mods.push(ModInfo { name, sig });
                }
            }
            _ => structure(c, &mut out, &sigs, &mut mods),
        }
    }
    if mods.is_empty() {
        structure(c, &mut out, &sigs, &mut mods);
    }
    entries(c, &mut out, &sigs, &mods);
    out
}

fn signature(c: &mut Choices, out: &mut String, i: usize, earlier: &[SigInfo]) -> SigInfo {
    if !earlier.is_empty() && c.chance(40) {
        // A refinement of an earlier module type.
        let j = c.below(earlier.len());
        if earlier[j].transparent.is_none() {
            let r = c.below(REPRS.len());
            out.push_str(&format!("module type S{i} = S{j} with t = {}\n", REPRS[r].ty));
            return SigInfo { transparent: Some(r), keyword: REPRS[r].keyword, ..earlier[j].clone() };
        }
    }
    let mut info = SigInfo {
        transparent: None,
        keyword: "type",
        has_f: false,
        has_x: false,
        has_op: false,
        has_v: false,
        nested: None,
    };
    out.push_str(&format!("module type S{i} = {{\n"));
    if !earlier.is_empty() && c.chance(50) {
        // `include` brings the earlier type's specifications, `t` among them.
        let j = c.below(earlier.len());
        out.push_str(&format!("  include S{j}\n"));
        info = earlier[j].clone();
    } else {
        match c.below(6) {
            0 => {
                let r = c.below(REPRS.len());
                out.push_str(&format!("  {} t = {}\n", REPRS[r].keyword, REPRS[r].ty));
                info.transparent = Some(r);
                info.keyword = REPRS[r].keyword;
            }
            1 => info.keyword = "type^",
            2 => info.keyword = "type~",
            _ => {}
        }
        if info.transparent.is_none() {
            out.push_str(&format!("  {} t\n", info.keyword));
        }
        out.push_str("  val g : i32 -> t\n  val h : t -> i32\n");
    }
    if !info.has_f && c.chance(160) {
        out.push_str("  val f : t -> t\n");
        info.has_f = true;
    }
    if !info.has_x && c.chance(120) {
        out.push_str("  val x : t\n");
        info.has_x = true;
    }
    if !info.has_op && c.chance(100) {
        // An operator specification, used infix by entries.
        out.push_str("  val op : t -> t -> t\n  val (+^) : t -> t -> t\n");
        info.has_op = true;
    }
    if !info.has_v && c.chance(60) {
        // Size-polymorphic: an error for a size-lifted or lifted `t`.
        out.push_str("  val v [k] : [k]t -> [k]i32\n");
        info.has_v = true;
    }
    if info.nested.is_none() && !earlier.is_empty() && c.chance(60) {
        let j = c.below(earlier.len());
        out.push_str(&format!("  module N : S{j}\n"));
        info.nested = Some(("N".to_string(), j));
    }
    if c.chance(20) {
        // A specification no structure defines.
        out.push_str("  val missing : i32\n");
    }
    out.push_str("}\n");
    info
}

/// The members of a structure representing `t` by `REPRS[r]`.
fn members(c: &mut Choices, out: &mut String, r: usize, indent: &str) {
    let repr = &REPRS[r];
    out.push_str(&format!("{indent}{} t = {}\n", repr.keyword, repr.ty));
    // Now and then a wrong body: the value does not have the specified type.
    let wrong = if c.chance(12) { Some(c.below(3)) } else { None };
    let g = if wrong == Some(0) { REPRS[(r + 1) % REPRS.len()].g } else { repr.g };
    out.push_str(&format!("{indent}def g (x: i32) : t = {g}\n"));
    out.push_str(&format!("{indent}def h (y: t) : i32 = {}\n", repr.h));
    out.push_str(&format!("{indent}def f (y: t) : t = {}\n", repr.f));
    let x = if wrong == Some(1) { "()" } else { repr.x };
    out.push_str(&format!("{indent}def x : t = {x}\n"));
    out.push_str(&format!("{indent}def op (a: t) (b: t) : t = {}\n", repr.op));
    out.push_str(&format!("{indent}def (+^) (a: t) (b: t) : t = op a b\n"));
    // Arrays of `t` need an unlifted `t`.
    if repr.keyword != "type" {
    } else if wrong == Some(2) {
        out.push_str(&format!("{indent}def v [k] (ys: [k]t) : [k]i32 = map h ys |> take 1\n"));
    } else {
        out.push_str(&format!("{indent}def v [k] (ys: [k]t) : [k]i32 = map h ys\n"));
    }
}

/// The members of a structure meant to match module type `s` (any, if
/// `None`), nested modules included.
fn body(c: &mut Choices, out: &mut String, sigs: &[SigInfo], s: Option<usize>, indent: &str) {
    // Mostly the representation a transparent specification asks for.
    let r = match s.and_then(|s| sigs[s].transparent) {
        Some(r) if !c.chance(25) => r,
        _ => c.below(REPRS.len()),
    };
    members(c, out, r, indent);
    if let Some((nested, j)) = s.and_then(|s| sigs[s].nested.clone()) {
        out.push_str(&format!("{indent}module {nested} = {{\n"));
        body(c, out, sigs, Some(j), &format!("{indent}  "));
        out.push_str(&format!("{indent}}}\n"));
    }
}

/// A structure, sealed or not.
fn structure(c: &mut Choices, out: &mut String, sigs: &[SigInfo], mods: &mut Vec<ModInfo>) {
    let name = format!("M{}", mods.len());
    let seal = if c.chance(170) { Some(c.below(sigs.len())) } else { None };
    match seal {
        Some(s) => out.push_str(&format!("module {name} : S{s} = {{\n")),
        None => out.push_str(&format!("module {name} = {{\n")),
    }
    if !mods.is_empty() && c.chance(50) {
        let m = c.below(mods.len());
        out.push_str(&format!("  local open {}\n", mods[m].name));
    }
    if !mods.is_empty() && c.chance(30) {
        // A module inside: the entries may reach it as `M.I.h`.
        let m = c.below(mods.len());
        out.push_str(&format!("  module I = {}\n", mods[m].name));
    }
    body(c, out, sigs, seal, "  ");
    if c.chance(40) {
        out.push_str("  local def helper (z: i32) = z * 3\n  def twice (z: i32) = helper z + helper z\n");
    }
    out.push_str("}\n");
    mods.push(ModInfo { name, sig: seal });
}

/// A functor of one to three parameters (curried: applying fewer gives a functor).
fn functor(c: &mut Choices, out: &mut String, sigs: &[SigInfo], funs: &mut Vec<FunInfo>) {
    let name = format!("F{}", funs.len());
    let params = 1 + c.below(3);
    let p = c.below(sigs.len());
    out.push_str(&format!("module {name}"));
    for k in 0..params {
        out.push_str(&format!(" (P{k}: S{p})"));
    }
    let result = if c.chance(120) { Some(c.below(sigs.len())) } else { None };
    if let Some(s) = result {
        out.push_str(&format!(" : S{s}"));
    }
    out.push_str(" = {\n");
    // The result builds on the first parameter; the others are combined in.
    if c.chance(40) {
        out.push_str("  open P0\n");
    }
    let keyword = sigs[p].keyword;
    out.push_str(&format!("  {keyword} t = P0.t\n"));
    out.push_str("  def g (x: i32) : t = P0.g x\n");
    let mut h = "P0.h y".to_string();
    for k in 1..params {
        h = format!("{h} + P{k}.h (P{k}.g (P0.h y))");
    }
    out.push_str(&format!("  def h (y: t) : i32 = {h}\n"));
    if sigs[p].has_f && c.chance(200) {
        out.push_str("  def f (y: t) : t = P0.f (P0.f y)\n");
    } else {
        out.push_str("  def f (y: t) : t = P0.g (P0.h y + 1)\n");
    }
    out.push_str("  def x : t = g 2\n");
    if sigs[p].has_op && c.chance(200) {
        out.push_str("  def op (a: t) (b: t) : t = a P0.+^ b\n");
    } else {
        out.push_str("  def op (a: t) (b: t) : t = P0.g (P0.h a + P0.h b)\n");
    }
    out.push_str("  def (+^) (a: t) (b: t) : t = op a b\n");
    if keyword == "type" {
        out.push_str("  def v [k] (ys: [k]t) : [k]i32 = map h ys\n");
    }
    if let Some((nested, j)) = result.and_then(|s| sigs[s].nested.clone()) {
        // The parameter itself when it fits, else a structure of its own.
        if p == j && c.chance(128) {
            out.push_str(&format!("  module {nested} = P0\n"));
        } else {
            out.push_str(&format!("  module {nested} = {{\n"));
            body(c, out, sigs, Some(j), "    ");
            out.push_str("  }\n");
        }
    }
    out.push_str("}\n");
    funs.push(FunInfo { name, params, param_sig: p, applied: 0 });
}

/// An application of a functor to modules, an anonymous structure or a partial application.
fn application(c: &mut Choices, out: &mut String, sigs: &[SigInfo], mods: &mut Vec<ModInfo>, funs: &mut Vec<FunInfo>) {
    let f = c.below(funs.len());
    let remaining = funs[f].params - funs[f].applied;
    let nargs = 1 + c.below(remaining);
    let p = funs[f].param_sig;
    let mut args = Vec::new();
    for _ in 0..nargs {
        // Mostly a module sealed with the parameter's type; else any module,
        // or a structure written in place.
        let fitting: Vec<usize> = (0..mods.len()).filter(|&m| mods[m].sig == Some(p)).collect();
        let arg = if !fitting.is_empty() && !c.chance(40) {
            mods[fitting[c.below(fitting.len())]].name.clone()
        } else if !mods.is_empty() && c.chance(128) {
            let m = c.below(mods.len());
            if c.chance(128) {
                format!("({} : S{p})", mods[m].name)
            } else {
                mods[m].name.clone()
            }
        } else {
            let mut s = String::from("{\n");
            body(c, &mut s, sigs, Some(p), "    ");
            s.push_str("  }");
            s
        };
        args.push(arg);
    }
    let call = format!("{} {}", funs[f].name, args.join(" "));
    if nargs < remaining {
        // A partial application is a functor.
        let name = format!("F{}", funs.len());
        out.push_str(&format!("module {name} = {call}\n"));
        let applied = funs[f].applied + nargs;
        funs.push(FunInfo { name, params: funs[f].params, param_sig: p, applied });
    } else {
        let name = format!("M{}", mods.len());
        let seal = if c.chance(60) { Some(c.below(sigs.len())) } else { None };
        match seal {
            Some(s) => out.push_str(&format!("module {name} : S{s} = {call}\n")),
            None => out.push_str(&format!("module {name} = {call}\n")),
        }
        mods.push(ModInfo { name, sig: seal });
    }
}

/// Entry points of type `i32 -> i32` over the modules.
fn entries(c: &mut Choices, out: &mut String, sigs: &[SigInfo], mods: &[ModInfo]) {
    let n = 1 + c.below(3);
    for e in 0..n {
        let m = &mods[c.below(mods.len())];
        let name = &m.name;
        let sig = m.sig.map(|s| &sigs[s]);
        let has = |pick: fn(&SigInfo) -> bool| sig.is_none_or(pick);
        let body = match c.below(7) {
            0 if has(|s| s.has_f) => format!("{name}.h ({name}.f ({name}.g x))"),
            // Inside `M.( )`, `x` is the module's member.
            1 => format!("{name}.(h (g 3)) + x"),
            2 if has(|s| s.has_op) => format!("{name}.h ({name}.g x {name}.+^ {name}.g 2)"),
            3 if has(|s| s.has_v) => format!("i32.sum ({name}.v (map {name}.g [x, x + 1]))"),
            4 if has(|s| s.has_x) => format!("{name}.(h x) + {name}.h ({name}.g x)"),
            5 => match sig.and_then(|s| s.nested.clone()) {
                Some((nested, _)) => format!("{name}.{nested}.h ({name}.{nested}.g x)"),
                None => format!("{name}.h ({name}.g x)"),
            },
            _ => format!("{name}.h ({name}.g x)"),
        };
        let entry = if e == 0 { "main".to_string() } else { format!("e{e}") };
        out.push_str(&format!("entry {entry} (x: i32) : i32 = {body}\n"));
    }
}
