//! Exhaustiveness of pattern matches, by the classic pattern-matrix
//! algorithm: specialise the matrix by each constructor of the first column's
//! type (bool, sum types, records) and look for a value no row matches.
//! Returns a witness pattern for the message.

use ogham_syntax::ast::{Literal, Pat, PatKind};

use crate::ty::Ty;

/// A pattern with ascriptions and attributes peeled off.
fn core(p: &Pat) -> &Pat {
    match &p.kind {
        PatKind::Ascribe(inner, _) | PatKind::Attr(_, inner) => core(inner),
        _ => p,
    }
}

fn is_wild(p: &Pat) -> bool {
    matches!(core(p).kind, PatKind::Var(_) | PatKind::Wildcard)
}

/// A value of the given type that none of the patterns match, if there is one.
pub fn missing_case(pats: &[&Pat], ty: &Ty) -> Option<String> {
    let rows: Vec<Vec<Option<&Pat>>> = pats.iter().map(|p| vec![Some(*p)]).collect();
    missing(&rows, std::slice::from_ref(ty), 0).map(|mut w| w.pop().unwrap_or_else(|| "_".into()))
}

/// Rows of patterns (`None` is a wildcard introduced by specialisation).
fn missing(rows: &[Vec<Option<&Pat>>], tys: &[Ty], depth: u32) -> Option<Vec<String>> {
    if tys.is_empty() {
        return if rows.is_empty() { Some(Vec::new()) } else { None };
    }
    if depth > 200 {
        return None;
    }
    let first = &tys[0];
    let rest = &tys[1..];
    let wild = |p: &Option<&Pat>| p.is_none_or(is_wild);
    match first {
        Ty::Prim(ogham_prim::PrimType::Bool) => {
            for value in [true, false] {
                let spec: Vec<Vec<Option<&Pat>>> = rows
                    .iter()
                    .filter(|r| {
                        wild(&r[0]) || matches!(r[0].map(|p| &core(p).kind), Some(PatKind::Literal(Literal::Bool(b))) if *b == value)
                    })
                    .map(|r| r[1..].to_vec())
                    .collect();
                if let Some(mut w) = missing(&spec, rest, depth + 1) {
                    w.insert(0, value.to_string());
                    return Some(w);
                }
            }
            None
        }
        Ty::Sum(cons) => {
            for (name, payload) in cons {
                let mut spec = Vec::new();
                for r in rows {
                    let head = r[0].map(core);
                    match head.map(|p| &p.kind) {
                        Some(PatKind::Constructor(n, ps)) if n.text == *name && ps.len() == payload.len() => {
                            let mut row: Vec<Option<&Pat>> = ps.iter().map(Some).collect();
                            row.extend_from_slice(&r[1..]);
                            spec.push(row);
                        }
                        Some(PatKind::Constructor(..)) => {}
                        _ if wild(&r[0]) => {
                            let mut row: Vec<Option<&Pat>> = vec![None; payload.len()];
                            row.extend_from_slice(&r[1..]);
                            spec.push(row);
                        }
                        _ => {}
                    }
                }
                let mut tys: Vec<Ty> = payload.clone();
                tys.extend_from_slice(rest);
                if let Some(w) = missing(&spec, &tys, depth + 1) {
                    let (args, tail) = w.split_at(payload.len().min(w.len()));
                    let mut s = format!("#{name}");
                    for a in args {
                        s.push(' ');
                        if a.contains(' ') && !a.starts_with('(') && !a.starts_with('{') {
                            s.push_str(&format!("({a})"));
                        } else {
                            s.push_str(a);
                        }
                    }
                    let mut out = vec![s];
                    out.extend_from_slice(tail);
                    return Some(out);
                }
            }
            None
        }
        Ty::Record(fields) => {
            let keys: Vec<&String> = fields.keys().collect();
            let is_tuple = first.as_tuple_like();
            let mut spec = Vec::new();
            for r in rows {
                let head = r[0].map(core);
                let mut row: Vec<Option<&Pat>> = match head.map(|p| &p.kind) {
                    Some(PatKind::Tuple(ps)) if ps.len() == keys.len() => {
                        keys.iter().map(|k| k.parse::<usize>().ok().and_then(|i| ps.get(i))).collect()
                    }
                    Some(PatKind::Record(fs)) => {
                        keys.iter().map(|k| fs.iter().find(|(n, _)| n.text == **k).map(|(_, p)| p)).collect()
                    }
                    _ => vec![None; keys.len()],
                };
                row.extend_from_slice(&r[1..]);
                spec.push(row);
            }
            let mut tys: Vec<Ty> = fields.values().cloned().collect();
            tys.extend_from_slice(rest);
            let w = missing(&spec, &tys, depth + 1)?;
            let (items, tail) = w.split_at(keys.len().min(w.len()));
            let s = if is_tuple {
                let mut ordered: Vec<(usize, &String)> =
                    keys.iter().zip(items).map(|(k, v)| (k.parse::<usize>().unwrap_or(0), v)).collect();
                ordered.sort();
                format!("({})", ordered.iter().map(|(_, v)| v.as_str()).collect::<Vec<_>>().join(", "))
            } else {
                format!(
                    "{{{}}}",
                    keys.iter().zip(items).map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", ")
                )
            };
            let mut out = vec![s];
            out.extend_from_slice(tail);
            Some(out)
        }
        _ => {
            // Infinitely many values: only wildcard rows cover the rest.
            let spec: Vec<Vec<Option<&Pat>>> = rows.iter().filter(|r| wild(&r[0])).map(|r| r[1..].to_vec()).collect();
            let mut w = missing(&spec, rest, depth + 1)?;
            w.insert(0, "_".into());
            Some(w)
        }
    }
}

impl Ty {
    fn as_tuple_like(&self) -> bool {
        match self {
            Ty::Record(fs) => fs.len() != 1 && (0..fs.len()).all(|i| fs.contains_key(&i.to_string())),
            _ => false,
        }
    }
}
