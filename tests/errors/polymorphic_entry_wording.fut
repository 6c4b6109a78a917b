-- Futhark's wording for an entry point with a type parameter.
-- ==
-- error: polymorphic-entry.*Entry point functions may not be polymorphic
entry first 'a (xs: []a) : a = xs[0]
