//! Sizes in types, normalised to polynomials.
//!
//! ogham's extension over Futhark: two sizes are equal when their polynomial
//! normal forms are equal, so `n+1` and `1+n`, `n*m` and `m*n`, `(n+1)-1`
//! and `n` unify. Normalisation is exact and decidable: a polynomial is a map
//! from monomials (sorted multisets of size variables) to non-zero integer
//! coefficients. Size expressions that are not polynomials (e.g. `i64.max n m`)
//! are not known statically and become fresh unknown sizes.

use ogham_syntax::ast::NodeId;

/// The most terms a product of sizes written in a program may have before
/// it is treated as a size not known statically: `(a+b)*(c+d)*…` doubles
/// with each factor.
pub const MAX_POLY_TERMS: usize = 1024;

/// First id of the range that encodes existential sizes ([`Size::Unknown`])
/// as variables of a polynomial: `?k + n`, the size of `filter p xs ++ ys`,
/// is `Size::Poly` over `unknown_var(k)` and `n`. Lowering keys the run-time
/// value of an existential size by this same id, so evaluating such a
/// polynomial needs no special case.
pub const UNKNOWN_BASE: u32 = 0xF000_0000;

pub fn is_unknown_var(id: NodeId) -> bool {
    id.0 >= UNKNOWN_BASE
}

/// The polynomial variable of the existential size `u`.
pub fn unknown_var(u: u32) -> NodeId {
    NodeId(UNKNOWN_BASE | (u & !UNKNOWN_BASE))
}

/// The existential size a variable of [`unknown_var`] stands for.
pub fn unknown_of(id: NodeId) -> Option<u32> {
    is_unknown_var(id).then_some(id.0 & !UNKNOWN_BASE)
}

/// A product of size variables, sorted; the empty monomial is the constant 1.
pub type Monomial = Vec<NodeId>;

/// An integer polynomial over size variables in canonical form: terms sorted
/// by monomial, each monomial once, no zero coefficients. (A sorted vector
/// rather than a map: most sizes have one or two terms, and types are
/// cloned often.)
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Poly {
    terms: Vec<(Monomial, i64)>,
}

impl Poly {
    pub fn constant(c: i64) -> Poly {
        Poly { terms: if c != 0 { vec![(Vec::new(), c)] } else { Vec::new() } }
    }

    pub fn var(v: NodeId) -> Poly {
        Poly { terms: vec![(vec![v], 1)] }
    }

    /// The canonical polynomial of a sum of terms in any order, with
    /// repeated monomials and zero coefficients.
    pub fn from_terms(terms: impl IntoIterator<Item = (Monomial, i64)>) -> Poly {
        let mut terms: Vec<(Monomial, i64)> = terms.into_iter().collect();
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(Monomial, i64)> = Vec::with_capacity(terms.len());
        for (m, c) in terms {
            match out.last_mut() {
                Some((last, sum)) if *last == m => *sum = sum.wrapping_add(c),
                _ => out.push((m, c)),
            }
        }
        out.retain(|(_, c)| *c != 0);
        Poly { terms: out }
    }

    /// The terms, sorted by monomial.
    pub fn terms(&self) -> &[(Monomial, i64)] {
        &self.terms
    }

    /// The value if the polynomial is a constant.
    pub fn as_constant(&self) -> Option<i64> {
        match self.terms.as_slice() {
            [] => Some(0),
            [(m, c)] if m.is_empty() => Some(*c),
            _ => None,
        }
    }

    /// The variable if the polynomial is exactly one variable.
    pub fn as_var(&self) -> Option<NodeId> {
        match self.terms.as_slice() {
            [(m, 1)] if m.len() == 1 => Some(m[0]),
            _ => None,
        }
    }

    pub fn add(&self, other: &Poly) -> Poly {
        Poly::from_terms(self.terms.iter().chain(&other.terms).cloned())
    }

    /// The sum of several polynomials.
    pub fn sum(parts: impl IntoIterator<Item = Poly>) -> Poly {
        Poly::from_terms(parts.into_iter().flat_map(|p| p.terms))
    }

    pub fn neg(&self) -> Poly {
        Poly { terms: self.terms.iter().map(|(m, c)| (m.clone(), c.wrapping_neg())).collect() }
    }

    pub fn sub(&self, other: &Poly) -> Poly {
        self.add(&other.neg())
    }

    pub fn mul(&self, other: &Poly) -> Poly {
        let mut products = Vec::with_capacity(self.terms.len() * other.terms.len());
        for (m1, c1) in &self.terms {
            for (m2, c2) in &other.terms {
                let mut m: Monomial = m1.iter().chain(m2).copied().collect();
                m.sort();
                products.push((m, c1.wrapping_mul(*c2)));
            }
        }
        Poly::from_terms(products)
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
        self.terms.iter().flat_map(|(m, _)| m).copied()
    }
}

/// The size of one array dimension.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Size {
    /// Known statically as a polynomial over size variables in scope and
    /// existential sizes ([`unknown_var`]); one that is exactly one
    /// existential size is written `Unknown`.
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
