-- One function both projects a field from its argument and adds to it.
-- ==
-- error: type-mismatch.*Cannot unify type that must be one of .* with type that must be a record
def pick '^t (_: t) (g: t) = g
def main (y: i32) = (pick (\r -> r.val + 1) (\r -> r + 1)) y
