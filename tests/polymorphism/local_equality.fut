-- A local function compared with == is instantiated at i32: allowed.
-- ==
-- input { 3 } output { true }
def main (x: i32) =
  let eq a b = a == b
  in eq x 3 && eq (x + 1) 4
