//! Maps of `while` loops run in vector lanes.
//!
//! A `map` whose function is scalar code and `while` loops over scalars
//! (Mandelbrot's escape count: each pixel iterates until it escapes) is a
//! loop the C compiler cannot vectorise as written: every iteration of the
//! map runs its own number of steps. Here the map runs in blocks of
//! [`lane_count`] iterations ("lanes"), each stage of its function as a
//! loop over the lanes, with the values that cross stages in per-lane
//! arrays:
//!
//! - a stretch of straight-line statements is one loop over the lanes;
//! - a `while` loop keeps its parameters in per-lane arrays and steps all
//!   lanes together until none is still running: a step computes the body
//!   for every lane and keeps the new values only where the lane's
//!   condition held (a select, not a branch), so the loop over the lanes
//!   vectorises. A lane that has stopped computes values it throws away,
//!   which is harmless because the body is code that cannot fail.
//!
//! Each lane computes exactly what the scalar loop computes, in the same
//! order, so the results are the same. The iterations left over after the
//! last whole block run as written.

use std::collections::{HashMap, HashSet};

use ogham_ir::visit::free_vars_exp;
use ogham_ir::{Exp, Lambda, LoopForm, Operator, Stm, Type, VName};

use super::simd::{straight_line, straight_line_stm};
use super::{cty, vname, Dest, Gen, Res};

/// Lanes per block: four 512-bit vectors of the widest loop parameter, so
/// that the dependency chains of several vectors overlap.
fn lane_count(map: &Lambda) -> usize {
    let widest = map
        .body
        .stms
        .iter()
        .filter_map(|s| match &s.exp {
            Exp::Loop { params, .. } => params.iter().map(|(p, _)| p.ty.elem().byte_size()).max(),
            _ => None,
        })
        .max()
        .unwrap_or(4);
    256 / widest.max(4)
}

/// Whether the map's function has the form this module runs in lanes:
/// scalar parameters and results, straight-line statements and at least
/// one `while` loop over scalar parameters whose body is straight-line.
pub(super) fn applies(map: &Lambda, scans: &[Operator], reduces: &[Operator]) -> bool {
    if !scans.is_empty() || !reduces.is_empty() {
        return false;
    }
    if map.params.iter().any(|p| p.ty.rank() != 0) || map.ret.iter().any(|t| t.rank() != 0) {
        return false;
    }
    let mut loops = 0;
    for stm in &map.body.stms {
        match &stm.exp {
            Exp::Loop { params, form: LoopForm::While { .. }, body } => {
                if params.iter().any(|(p, _)| p.ty.rank() != 0) || !straight_line(body) {
                    return false;
                }
                loops += 1;
            }
            _ => {
                if !straight_line_stm(stm) {
                    return false;
                }
            }
        }
    }
    loops > 0
}

/// A stage of the function: a stretch of straight-line statements, or one loop.
enum Stage<'s> {
    Straight(&'s [Stm]),
    Loop(&'s Stm),
}

/// The variables a stage reads that it does not bind itself.
fn stage_reads(stage: &Stage) -> HashSet<VName> {
    let stms: &[Stm] = match stage {
        Stage::Straight(stms) => stms,
        Stage::Loop(stm) => std::slice::from_ref(*stm),
    };
    let mut reads: HashSet<VName> = stms.iter().flat_map(|s| free_vars_exp(&s.exp)).collect();
    for s in stms {
        for p in &s.pat {
            reads.remove(&p.name);
        }
    }
    reads
}

impl Gen<'_> {
    /// Emits the map's loop over `lo..hi` in lanes (see the module's
    /// documentation); the map must satisfy [`applies`].
    pub(super) fn lanes_of_loops(
        &mut self,
        (j, lo, hi): (&str, &str, &str),
        arrs: &[VName],
        map: &Lambda,
        outs: &[(String, Type)],
    ) -> Res<()> {
        let n = lane_count(map);
        let mut stages = Vec::new();
        let mut start = 0;
        for (i, stm) in map.body.stms.iter().enumerate() {
            if matches!(stm.exp, Exp::Loop { .. }) {
                if start < i {
                    stages.push(Stage::Straight(&map.body.stms[start..i]));
                }
                stages.push(Stage::Loop(stm));
                start = i + 1;
            }
        }
        if start < map.body.stms.len() {
            stages.push(Stage::Straight(&map.body.stms[start..]));
        }
        // The variables a stage reads that an earlier stage binds (and the
        // results) live in per-lane arrays; a loop's parameters always do,
        // and its results share their arrays.
        let mut crossing: HashSet<VName> = map.body.result.iter().filter_map(|r| r.as_var()).collect();
        for stage in &stages {
            crossing.extend(stage_reads(stage));
        }
        let mut lane: HashMap<VName, String> = HashMap::new();
        let mut arrays: Vec<(String, Type)> = Vec::new();
        for stm in &map.body.stms {
            let named: Vec<(VName, Option<VName>, &Type)> = match &stm.exp {
                Exp::Loop { params, .. } => {
                    params.iter().zip(&stm.pat).map(|((p, _), r)| (p.name, Some(r.name), &p.ty)).collect()
                }
                _ => stm.pat.iter().filter(|p| crossing.contains(&p.name)).map(|p| (p.name, None, &p.ty)).collect(),
            };
            for (v, result, ty) in named {
                let arr = self.fresh("lane");
                lane.insert(v, arr.clone());
                if let Some(r) = result {
                    lane.insert(r, arr.clone());
                }
                arrays.push((arr, ty.clone()));
            }
        }
        let jb = self.fresh("jb");
        let l = self.fresh("l");
        self.line(&format!("int64_t {jb} = {lo};"));
        self.line(&format!("for (; {hi} - {jb} >= {n}; {jb} += {n}) {{"));
        self.indent += 1;
        // Booleans as 32-bit integers here: GCC does not vectorise `bool`.
        self.line("typedef int32_t og_bool;");
        for (arr, ty) in &arrays {
            self.line(&format!("{} {arr}[{n}];", cty(ty)));
        }
        for stage in &stages {
            match stage {
                Stage::Straight(stms) => {
                    self.lane_loop_open(&l, n, j, &jb, arrs, map)?;
                    self.load_lanes(&stage_reads(stage), &lane, &l)?;
                    for s in stms.iter() {
                        self.stm(s)?;
                        for p in s.pat.iter().filter(|p| lane.contains_key(&p.name)) {
                            self.line(&format!("{}[{l}] = {};", lane[&p.name], vname(p.name)));
                        }
                    }
                    self.lane_loop_close();
                }
                Stage::Loop(stm) => {
                    let Exp::Loop { params, form: LoopForm::While { cond }, body } = &stm.exp else {
                        return Err("C backend: a lane stage that is not a while loop".to_string());
                    };
                    // The parameters' initial values.
                    self.lane_loop_open(&l, n, j, &jb, arrs, map)?;
                    let used: HashSet<VName> = params.iter().filter_map(|(_, init)| init.as_var()).collect();
                    self.load_lanes(&used, &lane, &l)?;
                    for (p, init) in params {
                        self.line(&format!("{}[{l}] = {};", lane[&p.name], self.se(init)));
                    }
                    self.lane_loop_close();
                    // Steps of every lane until none runs.
                    let any = self.fresh("any");
                    self.line("for (;;) {");
                    self.indent += 1;
                    self.line(&format!("int {any} = 0;"));
                    self.lane_loop_open(&l, n, j, &jb, arrs, map)?;
                    let mut used: HashSet<VName> = ogham_ir::visit::free_vars_body(body).into_iter().collect();
                    for (p, _) in params {
                        used.remove(&p.name);
                    }
                    self.load_lanes(&used, &lane, &l)?;
                    for (p, _) in params {
                        self.line(&format!("{} {} = {}[{l}];", cty(&p.ty), vname(p.name), lane[&p.name]));
                    }
                    let on = vname(*cond);
                    self.line(&format!("{any} |= {on};"));
                    let temps: Vec<String> = params.iter().map(|_| self.fresh("next")).collect();
                    for ((p, _), t) in params.iter().zip(&temps) {
                        self.line(&format!("{} {t};", cty(&p.ty)));
                    }
                    let dests: Vec<Dest> = temps.iter().map(|t| Dest::Fresh(t.clone())).collect();
                    self.select_ifs = true;
                    let stepped = self.body(body, &dests);
                    self.select_ifs = false;
                    stepped?;
                    for ((p, _), t) in params.iter().zip(&temps) {
                        let pick = select(&on, t, &vname(p.name), &p.ty);
                        self.line(&format!("{}[{l}] = {pick};", lane[&p.name]));
                    }
                    self.lane_loop_close();
                    self.line(&format!("if (!{any}) break;"));
                    self.indent -= 1;
                    self.line("}");
                }
            }
        }
        // The results, lane by lane.
        self.lane_loop_open(&l, n, j, &jb, arrs, map)?;
        let used: HashSet<VName> = map.body.result.iter().filter_map(|r| r.as_var()).collect();
        self.load_lanes(&used, &lane, &l)?;
        for ((arr, ty), r) in outs.iter().zip(&map.body.result) {
            let dest = Dest::At { arr: arr.clone(), rank: ty.rank(), elem: ty.elem(), idxs: vec![j.to_string()] };
            let src = self.se(r);
            self.store(&dest, &src, &ty.row());
        }
        self.lane_loop_close();
        self.indent -= 1;
        self.line("}");
        self.line(&format!("for (int64_t {j} = {jb}; {j} < {hi}; {j}++)"));
        self.screma_iteration(j, arrs, &[], &[], map, &[], &[], outs)
    }

    /// Opens `for (l = 0; l < n; l++) { int64_t j = jb + l; <rows> …`.
    fn lane_loop_open(&mut self, l: &str, n: usize, j: &str, jb: &str, arrs: &[VName], map: &Lambda) -> Res<()> {
        self.line(&format!("for (int {l} = 0; {l} < {n}; {l}++) {{"));
        self.indent += 1;
        self.line(&format!("int64_t {j} = {jb} + {l};"));
        self.line(&format!("(void){j};"));
        self.open_scope();
        self.bind_rows(&map.params, arrs, j)?;
        for p in &map.params {
            self.line(&format!("(void){};", vname(p.name)));
        }
        Ok(())
    }

    fn lane_loop_close(&mut self) {
        self.close_scope();
        self.indent -= 1;
        self.line("}");
    }

    /// Declares the variables of `used` that live in per-lane arrays, from
    /// element `l` of their arrays.
    fn load_lanes(&mut self, used: &HashSet<VName>, lane: &HashMap<VName, String>, l: &str) -> Res<()> {
        let mut vars: Vec<&VName> = used.iter().filter(|v| lane.contains_key(v)).collect();
        vars.sort();
        for v in vars {
            let ty = cty(self.ty(*v)?);
            self.line(&format!("{ty} {} = {}[{l}];", vname(*v), lane[v]));
        }
        Ok(())
    }
}

/// `c ? a : b` as C the compiler vectorises: for booleans (integers here,
/// see `og_bool`), bitwise arithmetic, since GCC turns a conditional
/// between truth values into branches.
pub(super) fn select(c: &str, a: &str, b: &str, ty: &Type) -> String {
    if *ty == Type::Prim(ogham_ir::PrimType::Bool) {
        format!("(({c}) & ({a})) | ((({c}) ^ 1) & ({b}))")
    } else {
        format!("({c}) ? ({a}) : ({b})")
    }
}
