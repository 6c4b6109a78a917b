-- An entry point cannot have type parameters.
-- ==
-- error: polymorphic-entry
entry ident 'a (x: a) : a = x
