-- An entry point whose size parameter only the return type uses.
-- ==
-- error: polymorphic-entry.*must not be size-polymorphic in their return type
entry fill [len] (v: f64) : [len]f64 = replicate len v
