//! Undo logs: how a `for` loop's array parameter that its body changes
//! only by in-place updates is checkpointed without saving it whole.
//!
//! The seed's loops save every parameter at the start of every iteration.
//! For a parameter of n elements that each of T iterations updates in a
//! few places (`a with [i] = …`), that is T·n values where the loop itself
//! changes T·u. Here such a parameter is *logged* instead: the forward
//! loop saves, per iteration, the indices of each update and the elements
//! it overwrote (one tape each, of T values), and the reverse loop carries
//! the array itself, starting from (a copy of) the loop's result. Its
//! iteration for index `i` holds the array as iteration `i` left it, undoes
//! that iteration's updates from the last to the first (writing back what
//! each overwrote), which gives the array as iteration `i` found it, and
//! re-executes the body on it; the body's return sweep restores the
//! elements its own updates overwrote ([`super::Ad::rev_update`]), so the
//! iteration ends with the array as it started, which the next reverse
//! iteration (for `i - 1`) carries. Memory O(n + T·u), time O(T·u) for the
//! checkpoints, instead of O(T·n) for both.
//!
//! A parameter is logged when its body's uses of it form one chain of
//! updates: each `update` whose slice fixes indices (an element, or a row
//! of known size) or takes ranges of a length the same in every iteration
//! (`ys with [i:i+2] = …`, whose length the simplifier finds is `2`)
//! consumes the latest link (or a `scatter` or `reduce_by_index` of a
//! number of values the same in every iteration, logged as its index
//! arrays and what it overwrote, and scattered back), nothing else
//! consumes the parameter or a value that may alias it (a view, a
//! branch's result), and
//! the body returns the last link in the parameter's place. Its type must
//! not depend on the loop (no size carried by another parameter). A loop
//! taped inside an enclosing loop's forward sweep ([`super::tape`]) saves
//! its parameters whole, since the enclosing loop's tapes lay them out so.
//!
//! A link may also be an `if` whose branches each change the latest link
//! only by such a chain (of updates, or of `if`s of the same kind: `else
//! if`, `match`), returning it at the same position (the Thomas
//! algorithm's `if i == 0 then … else dp with [i] = …`, a swap in one
//! branch): the forward loop's `if` also returns one slot per update its
//! branches may make (the then branch's, then the else branch's), each the
//! update's indices, the element it overwrites and `true`, or placeholders
//! and `false` from the other branch ([`super::Ad::log_conditional`]), and
//! the reverse loop undoes each update where its flag says it was made,
//! last slot first.
//! The re-executed body does not run such an `if` again before its return
//! sweep when nothing reads its results ([`in_place`]): the return sweep
//! of each branch makes its update on the array itself and restores it,
//! rather than on a copy saved before the `if`, so a reverse iteration
//! copies no array.

use rustc_hash::FxHashSet as HashSet;

use ogham_ir::{Body, DimIndex, Exp, Param, PrimType, Soac, Stm, SubExp, Type, VName};

use super::R;
use crate::ad::internal;

/// A logged parameter's updates in the forward loop: where the parameter
/// is among the loop's, and for each update of the body, in order, its
/// indices (constants, or the tapes of their values per iteration) and
/// the tape of what it overwrote.
#[derive(Clone, Debug)]
pub(super) struct UndoLog {
    pub(super) param: usize,
    pub(super) updates: Vec<Logged>,
}

/// One update of a logged parameter, as its forward loop saved it.
#[derive(Clone, Debug)]
pub(super) struct Logged {
    /// Where the update writes.
    pub(super) place: Place,
    /// The tape of the overwritten elements (`[T]elem` or `[T]row`).
    pub(super) old: VName,
    /// For an update in a branch of an `if`, the tape (`[T]bool`) of
    /// whether the iteration made it (its indices and old elements are
    /// placeholders where it did not).
    pub(super) flag: Option<VName>,
}

/// Where a logged update writes.
#[derive(Clone, Debug)]
pub(super) enum Place {
    /// An `update`: each index, or a range's start and stride, a constant
    /// or the tape (`[T]i64`) of its values; a range's length is the same
    /// in every iteration (a constant, or bound before the loop).
    Slice(Vec<DimIndex>),
    /// A `scatter` or `hist` of `w` values (the same in every iteration):
    /// the tapes (`[T][w]i64`) of its index arrays, one per dimension
    /// written; what it overwrote is `[T][w]elem`, zero where an index was
    /// out of range.
    Scatter { w: SubExp, indices: Vec<VName> },
}

/// A parameter that may be logged: its position, and the results of the
/// updates of its chain, in order.
pub(super) struct Chain {
    pub(super) param: usize,
    pub(super) updates: Vec<VName>,
}

/// How a loop's forward sweep saves a value per iteration: emits the
/// saving into the statements given and returns the tape's final name.
pub(super) type SaveTape<'a> = dyn FnMut(&mut super::Ad, &mut Vec<Stm>, VName, &Type) -> VName + 'a;

/// What the reverse-mode pass passes between a loop's forward sweep, its
/// return sweep and the scope re-executing its body.
#[derive(Default)]
pub(crate) struct UndoState {
    /// The next `for` loop's forward sweep saves its parameters whole: it
    /// is taped in an enclosing loop's forward sweep.
    pub(super) off: bool,
    /// The positions of the results of the next re-executed scope whose
    /// values nothing reads after it (a logged parameter's last link in
    /// the reverse loop): its updates are restored in place, not into a
    /// copy kept for the result.
    pub(super) dead_results: Vec<usize>,
    /// The arrays the last return sweep restored after in-place updates,
    /// each with the name of its restored value, in the order emitted.
    pub(super) restores: Vec<(VName, VName)>,
}

impl UndoState {
    /// The name under which the last return sweep left `v` after undoing
    /// its updates (`v` itself if it restored none).
    pub(super) fn restored(&self, mut v: VName) -> VName {
        while let Some((_, to)) = self.restores.iter().rev().find(|(from, _)| *from == v) {
            v = *to;
        }
        v
    }
}

/// The parameters of a loop (with its body) that may be logged.
pub(super) fn chains(params: &[(Param, SubExp)], i: VName, body: &Body) -> Vec<Chain> {
    let names: HashSet<VName> = params.iter().map(|(p, _)| p.name).collect();
    // A range's length must be the same in every iteration: the tape of
    // what its update overwrites has rows of that length.
    let free = ogham_ir::visit::free_vars_body(body);
    let invariant = |se: &SubExp| match se {
        SubExp::Const(_) => true,
        SubExp::Var(v) => free.contains(v) && !names.contains(v) && *v != i,
    };
    let mut out = Vec::new();
    for (k, (p, _)) in params.iter().enumerate() {
        if p.ty.rank() == 0 || ogham_ir::visit::type_vars(&p.ty).any(|d| names.contains(&d)) {
            continue;
        }
        if let Some(updates) = chain_of(p.name, k, body, Some(&invariant)) {
            out.push(Chain { param: k, updates });
        }
    }
    out
}

/// The results of the updates of `p`'s chain in `body`, if its uses form
/// one and the body returns its last link as its `k`th result. The links
/// are updates of elements and rows at fixed indices, `if`s of such
/// chains, and, for a loop's own body (`loop_sizes`, which says which
/// sizes are the same in every iteration), updates of ranges and
/// `scatter`s of a number of values the same in every iteration.
fn chain_of(p: VName, k: usize, body: &Body, loop_sizes: Option<&dyn Fn(&SubExp) -> bool>) -> Option<Vec<VName>> {
    let invariant = |se: &SubExp| loop_sizes.is_some_and(|f| f(se));
    let slice_ok = |d: &DimIndex| match d {
        DimIndex::Fix(_) => true,
        DimIndex::Slice { len, .. } => invariant(len),
    };
    let mut head = p;
    let mut aliases: HashSet<VName> = HashSet::from_iter([p]);
    let mut updates = Vec::new();
    for s in &body.stms {
        let link = match &s.exp {
            Exp::Update { array, slice, .. } => *array == head && slice.iter().all(slice_ok),
            Exp::Soac(Soac::Scatter { w, dests, map, .. }) => {
                dests[..] == [head] && invariant(w) && super::is_identity(map)
            }
            Exp::Soac(Soac::Hist { w, ops, map, .. }) => {
                matches!(&ops[..], [op] if op.dests[..] == [head]) && invariant(w) && super::is_identity(map)
            }
            _ => false,
        };
        if link && s.pat.len() == 1 {
            head = s.pat[0].name;
            aliases.insert(head);
            updates.push(head);
            continue;
        }
        if let Some(r) = conditional_link(s, head) {
            head = r;
            aliases.insert(head);
            updates.push(head);
            continue;
        }
        if ogham_ir::visit::consumed_deep(&s.exp).iter().any(|v| aliases.contains(v)) {
            return None;
        }
        let arrays = s.pat.iter().any(|q| q.ty.rank() > 0);
        if arrays && !matches!(s.exp, Exp::Soac(_) | Exp::Copy(_)) {
            let free = ogham_ir::visit::free_vars_exp(&s.exp);
            if free.iter().any(|v| aliases.contains(v)) {
                aliases.extend(s.pat.iter().filter(|q| q.ty.rank() > 0).map(|q| q.name));
            }
        }
    }
    let returned_here = body.result.get(k) == Some(&SubExp::Var(head));
    let elsewhere =
        body.result.iter().enumerate().any(|(j, r)| j != k && r.as_var().is_some_and(|v| aliases.contains(&v)));
    (returned_here && !elsewhere).then_some(updates)
}

/// If `s` is an `if` that updates `head` in one of its branches or both,
/// each branch changing it only by a chain of updates of elements or rows
/// at fixed indices (or by `if`s that do so in turn) and returning the
/// last link at the same position: the `if`'s result there, the new link
/// of the chain.
fn conditional_link(s: &Stm, head: VName) -> Option<VName> {
    let Exp::If { then_body, else_body, .. } = &s.exp else { return None };
    if !ogham_ir::visit::consumed_deep(&s.exp).contains(&head) {
        return None;
    }
    (0..s.pat.len()).find_map(|k| {
        let t = chain_of(head, k, then_body, None)?;
        let e = chain_of(head, k, else_body, None)?;
        (!(t.is_empty() && e.is_empty())).then_some(s.pat[k].name)
    })
}

/// The array a conditional link `s` updates, free in its branches: where
/// a branch's `k`th result comes from through its updates and `if`s.
fn link_head(s: &Stm, k: usize) -> Option<VName> {
    let Exp::If { then_body, else_body, .. } = &s.exp else { return None };
    let free = ogham_ir::visit::free_vars_exp(&s.exp);
    [then_body, else_body].iter().find_map(|b| {
        let mut at = b.result.get(k)?.as_var()?;
        loop {
            if free.contains(&at) {
                return Some(at);
            }
            let x = b.stms.iter().find(|x| x.pat.iter().any(|p| p.name == at))?;
            at = match &x.exp {
                Exp::Update { array, .. } => *array,
                Exp::If { .. } => {
                    let kk = x.pat.iter().position(|p| p.name == at)?;
                    link_head(x, kk)?
                }
                _ => return None,
            };
        }
    })
}

/// A log slot of a conditional link: the type of the part an update
/// overwrites, and how many indices it has.
type Slot = (Type, usize);

/// How an `if` of a re-executed scope that is not run again restores the
/// arrays it consumes ([`in_place`]).
#[derive(Clone, Debug, Default)]
pub(super) struct InPlace {
    /// The arrays, each with the position of the branches' results it
    /// becomes.
    pub(super) arrays: Vec<(VName, usize)>,
    /// The views of them, taken before the `if`, that its branches read,
    /// in the scope's order: each branch takes them again.
    pub(super) views: Vec<Stm>,
}

/// If nothing in its re-executed scope reads the results of the `if` `s`
/// (so that it need not run again before its return sweep), and each free
/// array it consumes, each branch changes only by top-level updates and
/// returns at the same position: the arrays with their positions. Its
/// return sweep then restores them in place ([`super::Ad::rev_if`]).
pub(super) fn in_place(s: &Stm, ck: &super::Checkpoints) -> Option<InPlace> {
    let Exp::If { then_body, else_body, .. } = &s.exp else { return None };
    if s.pat.iter().any(|p| ck.results.contains(&p.name) || ck.used.contains(&p.name)) {
        return None;
    }
    let free = ogham_ir::visit::free_vars_exp(&s.exp);
    // Anything else the branches read that may share memory with what
    // they update must be a view of it taken before the `if`, which the
    // branches take again (the return sweep reads it after the update it
    // re-executes in place, from the restored array).
    let roots = |v: &VName| ck.roots.get(v).cloned().unwrap_or_else(|| std::collections::BTreeSet::from([*v]));
    let consumed: Vec<VName> =
        ogham_ir::visit::consumed_deep(&s.exp).into_iter().filter(|v| free.contains(v)).collect();
    let mut views: Vec<Stm> = Vec::new();
    for c in &consumed {
        let of_c = roots(c);
        for v in free.iter().filter(|v| *v != c && roots(v).iter().any(|r| of_c.contains(r))) {
            let mut chain = Vec::new();
            let mut at = *v;
            while at != *c {
                let view = ck.views.get(&at)?;
                chain.push(view.clone());
                at = super::view_source(view)?;
            }
            for view in chain.into_iter().rev() {
                if !views.iter().any(|w| w.pat[0].name == view.pat[0].name) {
                    views.push(view);
                }
            }
        }
    }
    let mut arrays = Vec::new();
    for v in consumed {
        let k = (0..s.pat.len()).find(|&k| restorable(v, k, then_body) && restorable(v, k, else_body))?;
        arrays.push((v, k));
    }
    Some(InPlace { arrays, views })
}

/// Whether `b` changes `v` only by updates at its top level and by `if`s
/// whose branches do so in turn (`else if`, `match`), returning it as its
/// `k`th result: each update's return sweep can then restore it in place
/// (a nested `if` in a branch is in turn not run again, its results being
/// unread: [`in_place`] in the branch's scope).
fn restorable(v: VName, k: usize, b: &Body) -> bool {
    let Some(updates) = chain_of(v, k, b, None) else { return false };
    let mut head = v;
    for u in updates {
        let Some(x) = b.stms.iter().find(|x| x.pat.iter().any(|p| p.name == u)) else { return false };
        let ok = match &x.exp {
            Exp::Update { .. } => true,
            Exp::If { then_body, else_body, .. } => x
                .pat
                .iter()
                .position(|p| p.name == u)
                .is_some_and(|kk| restorable(head, kk, then_body) && restorable(head, kk, else_body)),
            _ => false,
        };
        if !ok {
            return false;
        }
        head = u;
    }
    true
}

impl super::Ad {
    /// The forward loop's version of a conditional link `s` (an `if`; the
    /// links of chains `links`, each with its position among the `if`'s
    /// results), pushed to `stms`: the `if` also returns, per update its
    /// branches may make ([`Ad::log_if`]), the update's indices, the element
    /// it overwrites and whether it made it, which `tape` saves per
    /// iteration, recorded in `logs`. Returns the names the statement binds.
    pub(super) fn log_conditional(
        &mut self,
        s: &Stm,
        links: &[(usize, usize)],
        logs: &mut [UndoLog],
        stms: &mut Vec<Stm>,
        tape: &mut SaveTape<'_>,
    ) -> R<Vec<VName>> {
        let mut s = s.clone();
        let mut saved = Vec::new();
        for &(c, k) in links {
            let head =
                link_head(&s, k).ok_or_else(|| internal(s.span, "a conditional link without its head".into()))?;
            let mut at = s.pat.len();
            for (_, dims) in self.log_if(&mut s, k, head)? {
                saved.push((c, at, dims));
                at += dims + 2;
            }
        }
        let names = s.pat.iter().map(|p| p.name).collect();
        let pat = s.pat.clone();
        stms.push(s);
        for (c, first, dims) in saved {
            let mut slice = Vec::new();
            for p in &pat[first..first + dims] {
                slice.push(DimIndex::Fix(SubExp::Var(tape(self, stms, p.name, &p.ty))));
            }
            let (o, f) = (&pat[first + dims], &pat[first + dims + 1]);
            let old = tape(self, stms, o.name, &o.ty);
            let flag = Some(tape(self, stms, f.name, &f.ty));
            logs[c].updates.push(Logged { place: Place::Slice(slice), old, flag });
        }
        Ok(names)
    }

    /// Makes the `if` `s`, whose `k`th result is the chain of `head`
    /// through its branches, also return one slot of results per update
    /// of that chain its branches make (the then branch's first, then the
    /// else branch's, nested `if`s' in place of the `if`): the indices,
    /// the element the update overwrites and `true`, or placeholders and
    /// `false` from the branch that does not make it. Returns the slots.
    fn log_if(&mut self, s: &mut Stm, k: usize, head: VName) -> R<Vec<Slot>> {
        let span = s.span;
        let Exp::If { then_body, else_body, .. } = &mut s.exp else {
            return Err(internal(span, "a conditional link that is not an `if`".into()));
        };
        let (t_slots, t_values) = self.log_branch(then_body, k, head, span)?;
        let (e_slots, e_values) = self.log_branch(else_body, k, head, span)?;
        let mut t_rest = Vec::new();
        for slot in &e_slots {
            t_rest.extend(self.placeholders(&mut then_body.stms, slot, span));
        }
        let mut e_first = Vec::new();
        for slot in &t_slots {
            e_first.extend(self.placeholders(&mut else_body.stms, slot, span));
        }
        then_body.result.extend(t_values.into_iter().chain(t_rest));
        else_body.result.extend(e_first.into_iter().chain(e_values));
        let slots: Vec<Slot> = t_slots.into_iter().chain(e_slots).collect();
        for (part_ty, dims) in &slots {
            for _ in 0..*dims {
                s.pat.push(self.fresh_typed("logged_index", &Type::Prim(PrimType::I64)));
            }
            s.pat.push(self.fresh_typed("logged_old", part_ty));
            s.pat.push(self.fresh_typed("logged_flag", &Type::Prim(PrimType::Bool)));
        }
        Ok(slots)
    }

    /// A branch's part of [`Ad::log_if`]: reads what each update of the
    /// chain overwrites just before it, and logs nested `if`s in turn.
    /// Returns the branch's slots and their values.
    fn log_branch(&mut self, b: &mut Body, k: usize, head: VName, span: ogham_ir::Span) -> R<(Vec<Slot>, Vec<SubExp>)> {
        let chain = chain_of(head, k, b, None)
            .ok_or_else(|| internal(span, "a conditional link's branch lost its chain".into()))?;
        let (mut slots, mut values) = (Vec::new(), Vec::new());
        let mut current = head;
        for link in chain {
            let Some(at) = b.stms.iter().position(|x| x.pat.iter().any(|p| p.name == link)) else {
                return Err(internal(span, "a link of a conditional chain not found".into()));
            };
            match &b.stms[at].exp {
                Exp::Update { slice, .. } => {
                    let slice = slice.clone();
                    let mut before = Vec::new();
                    let (old, part_ty) = self.overwritten(&mut before, current, &slice, span);
                    b.stms.splice(at..at, before);
                    values.extend(slice.iter().map(|d| match d {
                        DimIndex::Fix(x) => *x,
                        DimIndex::Slice { .. } => SubExp::i64(0),
                    }));
                    values.push(SubExp::Var(old));
                    values.push(SubExp::Const(ogham_ir::PrimValue::Bool(true)));
                    slots.push((part_ty, slice.len()));
                }
                Exp::If { .. } => {
                    let mut inner = b.stms[at].clone();
                    let kk = inner.pat.iter().position(|p| p.name == link).unwrap_or(0);
                    let first = inner.pat.len();
                    slots.extend(self.log_if(&mut inner, kk, current)?);
                    values.extend(inner.pat[first..].iter().map(|p| SubExp::Var(p.name)));
                    b.stms[at] = inner;
                }
                _ => return Err(internal(span, "a conditional chain's link is neither an update nor an `if`".into())),
            }
            current = link;
        }
        Ok((slots, values))
    }

    /// A slot's placeholders: zero indices, a zero part, `false`.
    fn placeholders(&mut self, stms: &mut Vec<Stm>, (part_ty, dims): &Slot, span: ogham_ir::Span) -> Vec<SubExp> {
        let mut values: Vec<SubExp> = (0..*dims).map(|_| SubExp::i64(0)).collect();
        values.push(self.zero(stms, part_ty, span));
        values.push(SubExp::Const(ogham_ir::PrimValue::Bool(false)));
        values
    }

    /// Emits the undoing of one reverse iteration's updates of a logged
    /// parameter: `array` as iteration `idx` left it, with what each of
    /// its updates overwrote written back, last update first, bound to
    /// `param` (the parameter of the re-executed body, which its updates
    /// consume: the last undoing binds it rather than an alias of it).
    pub(super) fn undo_iteration(
        &mut self,
        out: &mut Vec<ogham_ir::Stm>,
        log: &UndoLog,
        array: VName,
        param: &ogham_ir::Param,
        idx: SubExp,
        span: ogham_ir::Span,
    ) {
        let at = |t: VName| Exp::Index { array: t, slice: vec![DimIndex::Fix(idx)] };
        let mut current = array;
        for (j, u) in log.updates.iter().enumerate().rev() {
            // A conditional update is undone where the iteration made it.
            let flag = u.flag.map(|f| self.bind(out, "logged_flag", ogham_ir::Type::Prim(PrimType::Bool), at(f), span));
            let mut inner = Vec::new();
            let put = if flag.is_some() { &mut inner } else { &mut *out };
            let read = |cx: &mut Self, put: &mut Vec<Stm>, se: &SubExp| match se {
                SubExp::Var(t) => {
                    let ity = cx.types[t].row();
                    SubExp::Var(cx.bind(put, "logged_index", ity, at(*t), span))
                }
                c => *c,
            };
            let oty = self.types[&u.old].row();
            let mut undo = match &u.place {
                Place::Slice(dims) => {
                    let mut slice = Vec::new();
                    for d in dims {
                        slice.push(match d {
                            DimIndex::Fix(x) => DimIndex::Fix(read(self, put, x)),
                            DimIndex::Slice { start, len, stride } => DimIndex::Slice {
                                start: read(self, put, start),
                                len: *len,
                                stride: read(self, put, stride),
                            },
                        });
                    }
                    let old = self.bind(put, "logged_old", oty, at(u.old), span);
                    Exp::Update { array: current, slice, value: SubExp::Var(old) }
                }
                // Scattered back: an index out of range writes nothing.
                Place::Scatter { w, indices } => {
                    let mut is = Vec::new();
                    for t in indices {
                        let ity = self.types[t].row();
                        is.push(self.bind(put, "logged_index", ity, at(*t), span));
                    }
                    let old = self.bind(put, "logged_old", oty, at(u.old), span);
                    self.scatter_exp(current, &is, SubExp::Var(old), *w, &param.ty)
                }
            };
            if let Some(flag) = flag {
                let undone = self.bind(&mut inner, "undone", param.ty.clone(), undo, span);
                undo = Exp::If {
                    cond: SubExp::Var(flag),
                    then_body: Body { stms: inner, result: vec![SubExp::Var(undone)] },
                    else_body: Body { stms: Vec::new(), result: vec![SubExp::Var(current)] },
                };
            }
            if j == 0 {
                return out.push(super::stm(param.clone(), undo, span));
            }
            current = self.bind(out, "undone", param.ty.clone(), undo, span);
        }
        out.push(super::stm(param.clone(), Exp::SubExp(SubExp::Var(current)), span));
    }
}
