-- A definition in the importing file shadows an imported one of the same name.
-- ==
-- input { 3 } output { 106 }
import "lib_shadowed"
def scale (x: i32) = x * 2
entry main (x: i32) = offset (scale x)
