-- Inside `f64.(…)` the operators are f64's: unannotated operands are f64
-- (not the i32 an ambiguous `+` defaults to), and `==` compares f64s.
-- ==
-- entry: add
-- input { 1.5 2.25 } output { 3.75 }
entry add x y = f64.(x + y)

-- ==
-- entry: same
-- input { 1.0 1.0 } output { true }
-- input { 1.0 2.0 } output { false }
entry same x y = f64.(x == y)

-- Another module's operators, and a literal typed by the module.
-- ==
-- entry: shift
-- input { 1u8 } output { 8u8 }
entry shift x = u8.(x << 3)
