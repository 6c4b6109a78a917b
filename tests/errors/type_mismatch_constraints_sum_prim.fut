-- A value of a sum type compared with `<`, which needs a primitive type.
-- ==
-- error: type-mismatch.*Cannot unify type that must be one of .* with type with constructors #some: a sum type cannot be one of these
def main (x: i32) = #some x < #some 2
