//! Sizes in types, normalised to polynomials.
//!
//! ogham's extension over Futhark: two sizes are equal when their polynomial
//! normal forms are equal, so `n+1` and `1+n`, `n*m` and `m*n`, `(n+1)-1`
//! and `n` unify. Normalisation is exact and decidable: a polynomial is a map
//! from monomials (sorted multisets of size variables) to non-zero integer
//! coefficients. Size expressions that are not polynomials (e.g. `i64.max n m`)
//! are not known statically and become fresh unknown sizes.

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

use ogham_syntax::ast::NodeId;

/// The most terms a product of sizes written in a program may have before
/// it is treated as a size not known statically: `(a+b)*(c+d)*…` doubles
/// with each factor.
pub const MAX_POLY_TERMS: usize = 1024;

/// A product of size variables, sorted; the empty monomial is the constant 1.
pub type Monomial = Vec<NodeId>;

/// An integer polynomial over size variables in canonical form (no zero coefficients).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Poly {
    pub terms: BTreeMap<Monomial, i64>,
}

impl Poly {
    pub fn constant(c: i64) -> Poly {
        let mut terms = BTreeMap::new();
        if c != 0 {
            terms.insert(Vec::new(), c);
        }
        Poly { terms }
    }

    pub fn var(v: NodeId) -> Poly {
        Poly { terms: BTreeMap::from([(vec![v], 1)]) }
    }

    /// The value if the polynomial is a constant.
    pub fn as_constant(&self) -> Option<i64> {
        match self.terms.len() {
            0 => Some(0),
            1 => self.terms.get(&Vec::new()).copied(),
            _ => None,
        }
    }

    /// The variable if the polynomial is exactly one variable.
    pub fn as_var(&self) -> Option<NodeId> {
        match self.terms.iter().next() {
            Some((m, 1)) if self.terms.len() == 1 && m.len() == 1 => Some(m[0]),
            _ => None,
        }
    }

    pub fn add(&self, other: &Poly) -> Poly {
        let mut out = self.clone();
        for (m, c) in &other.terms {
            out.add_term(m.clone(), *c);
        }
        out
    }

    /// Adds `c·m` in place.
    fn add_term(&mut self, m: Monomial, c: i64) {
        match self.terms.entry(m) {
            Entry::Occupied(mut o) => {
                let sum = o.get().wrapping_add(c);
                if sum == 0 {
                    o.remove();
                } else {
                    *o.get_mut() = sum;
                }
            }
            Entry::Vacant(v) => {
                if c != 0 {
                    v.insert(c);
                }
            }
        }
    }

    /// The sum of several polynomials, accumulated in one map.
    pub fn sum(parts: impl IntoIterator<Item = Poly>) -> Poly {
        let mut out = Poly::default();
        for part in parts {
            for (m, c) in part.terms {
                let e = out.terms.entry(m).or_insert(0);
                *e = e.wrapping_add(c);
            }
        }
        out.terms.retain(|_, c| *c != 0);
        out
    }

    pub fn neg(&self) -> Poly {
        Poly { terms: self.terms.iter().map(|(m, c)| (m.clone(), c.wrapping_neg())).collect() }
    }

    pub fn sub(&self, other: &Poly) -> Poly {
        self.add(&other.neg())
    }

    pub fn mul(&self, other: &Poly) -> Poly {
        let mut out = Poly::default();
        for (m1, c1) in &self.terms {
            for (m2, c2) in &other.terms {
                let mut m: Monomial = m1.iter().chain(m2).copied().collect();
                m.sort();
                out.add_term(m, c1.wrapping_mul(*c2));
            }
        }
        out
    }

    /// The product, unless it could have more than [`MAX_POLY_TERMS`]
    /// terms (a product of many sums grows exponentially).
    pub fn checked_mul(&self, other: &Poly) -> Option<Poly> {
        if self.terms.len().saturating_mul(other.terms.len()) > MAX_POLY_TERMS {
            return None;
        }
        Some(self.mul(other))
    }

    /// Every variable occurring in the polynomial.
    pub fn vars(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.terms.keys().flatten().copied()
    }
}

/// The size of one array dimension.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Size {
    /// Known statically as a polynomial over size variables in scope.
    Poly(Poly),
    /// Not known statically (existential results, complex slices, sizes that
    /// went out of scope). Two occurrences with the same id are the same size.
    Unknown(u32),
}

impl Size {
    pub fn constant(c: i64) -> Size {
        Size::Poly(Poly::constant(c))
    }
    pub fn var(v: NodeId) -> Size {
        Size::Poly(Poly::var(v))
    }
}
