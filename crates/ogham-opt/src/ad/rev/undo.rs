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
//! of known size) consumes the latest link, nothing else consumes the
//! parameter or a value that may alias it (a view, a branch's result), and
//! the body returns the last link in the parameter's place. Its type must
//! not depend on the loop (no size carried by another parameter). A loop
//! taped inside an enclosing loop's forward sweep ([`super::tape`]) saves
//! its parameters whole, since the enclosing loop's tapes lay them out so.

use rustc_hash::FxHashSet as HashSet;

use ogham_ir::{Body, DimIndex, Exp, Param, SubExp, VName};

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
    /// Each index: a constant, or the tape (`[T]i64`) of its values.
    pub(super) index: Vec<SubExp>,
    /// The tape of the overwritten elements (`[T]elem` or `[T]row`).
    pub(super) old: VName,
}

/// A parameter that may be logged: its position, and the results of the
/// updates of its chain, in order.
pub(super) struct Chain {
    pub(super) param: usize,
    pub(super) updates: Vec<VName>,
}

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
pub(super) fn chains(params: &[(Param, SubExp)], body: &Body) -> Vec<Chain> {
    let names: HashSet<VName> = params.iter().map(|(p, _)| p.name).collect();
    let mut out = Vec::new();
    for (k, (p, _)) in params.iter().enumerate() {
        if p.ty.rank() == 0 || ogham_ir::visit::type_vars(&p.ty).any(|d| names.contains(&d)) {
            continue;
        }
        if let Some(updates) = chain_of(p.name, k, body) {
            out.push(Chain { param: k, updates });
        }
    }
    out
}

/// The results of the updates of `p`'s chain in `body`, if its uses form
/// one and the body returns its last link as its `k`th result.
fn chain_of(p: VName, k: usize, body: &Body) -> Option<Vec<VName>> {
    let mut head = p;
    let mut aliases: HashSet<VName> = HashSet::from_iter([p]);
    let mut updates = Vec::new();
    for s in &body.stms {
        if let Exp::Update { array, slice, .. } = &s.exp {
            if *array == head && s.pat.len() == 1 && slice.iter().all(|d| matches!(d, DimIndex::Fix(_))) {
                head = s.pat[0].name;
                aliases.insert(head);
                updates.push(head);
                continue;
            }
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

impl super::Ad {
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
            let mut slice = Vec::new();
            for d in &u.index {
                slice.push(DimIndex::Fix(match d {
                    SubExp::Var(t) => {
                        let ity = self.types[t].row();
                        SubExp::Var(self.bind(out, "logged_index", ity, at(*t), span))
                    }
                    c => *c,
                }));
            }
            let oty = self.types[&u.old].row();
            let old = self.bind(out, "logged_old", oty, at(u.old), span);
            let undo = Exp::Update { array: current, slice, value: SubExp::Var(old) };
            if j == 0 {
                return out.push(super::stm(param.clone(), undo, span));
            }
            current = self.bind(out, "undone", param.ty.clone(), undo, span);
        }
        out.push(super::stm(param.clone(), Exp::SubExp(SubExp::Var(current)), span));
    }
}
