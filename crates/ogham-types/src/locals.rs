//! The stack of local bindings in scope, indexed by name and by binder id.
//!
//! Bindings are pushed as scopes open and truncated as they close, like a
//! `Vec`; reads go through the slice (`Deref`). The two indexes make the
//! lookups the checker does at every name (the innermost binding of a
//! name, whether an id is bound) independent of how many bindings are in
//! scope: a linear scan made a chain of lets quadratic.

use rustc_hash::FxHashMap as HashMap;
use std::borrow::Borrow;

use std::hash::Hash;
use std::ops::Deref;

use ogham_syntax::ast::NodeId;

use crate::checker::Local;

/// Local bindings, innermost last.
#[derive(Default)]
pub struct Locals {
    items: Vec<Local>,
    /// The positions of the bindings of each name, innermost last.
    by_name: HashMap<String, Vec<u32>>,
    /// The positions of the bindings of each binder id, innermost last.
    by_id: HashMap<NodeId, Vec<u32>>,
}

impl Deref for Locals {
    type Target = [Local];
    fn deref(&self) -> &[Local] {
        &self.items
    }
}

/// Removes position `at` from the stack of `key`.
fn remove_position<K, Q>(map: &mut HashMap<K, Vec<u32>>, key: &Q, at: u32)
where
    K: Hash + Eq + Borrow<Q>,
    Q: Hash + Eq + ?Sized,
{
    if let Some(stack) = map.get_mut(key) {
        if let Some(i) = stack.iter().rposition(|p| *p == at) {
            stack.remove(i);
        }
        if stack.is_empty() {
            map.remove(key);
        }
    }
}

impl Locals {
    pub fn push(&mut self, local: Local) {
        let at = self.items.len() as u32;
        if !local.name.is_empty() {
            self.by_name.entry(local.name.clone()).or_default().push(at);
        }
        self.by_id.entry(local.id).or_default().push(at);
        self.items.push(local);
    }

    /// Removes the bindings from position `len` on (closing their scopes).
    pub fn truncate(&mut self, len: usize) {
        while self.items.len() > len {
            let Some(local) = self.items.pop() else { break };
            let at = self.items.len() as u32;
            if !local.name.is_empty() {
                remove_position(&mut self.by_name, local.name.as_str(), at);
            }
            remove_position(&mut self.by_id, &local.id, at);
        }
    }

    pub fn clear(&mut self) {
        self.items.clear();
        self.by_name.clear();
        self.by_id.clear();
    }

    /// The innermost binding of `name`.
    pub fn lookup(&self, name: &str) -> Option<&Local> {
        let at = *self.by_name.get(name)?.last()?;
        self.items.get(at as usize)
    }

    /// Whether `id` is bound.
    pub fn contains_id(&self, id: NodeId) -> bool {
        self.by_id.contains_key(&id)
    }

    /// Hides the binding at position `i` from lookups by name (a module
    /// opened in an expression shadows it) and returns its name.
    pub fn hide_name(&mut self, i: usize) -> String {
        let Some(local) = self.items.get_mut(i) else { return String::new() };
        let name = std::mem::take(&mut local.name);
        if !name.is_empty() {
            remove_position(&mut self.by_name, name.as_str(), i as u32);
        }
        name
    }

    /// Gives the binding at position `i` its name back (see [`Locals::hide_name`]).
    pub fn restore_name(&mut self, i: usize, name: String) {
        let Some(local) = self.items.get_mut(i) else { return };
        if !local.name.is_empty() {
            remove_position(&mut self.by_name, local.name.as_str(), i as u32);
        }
        if !name.is_empty() {
            let stack = self.by_name.entry(name.clone()).or_default();
            let at = stack.partition_point(|p| (*p as usize) < i);
            stack.insert(at, i as u32);
        }
        local.name = name;
    }
}
