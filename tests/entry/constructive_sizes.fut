-- Entry points whose size parameters are each the whole size of some input,
-- even where another input uses them in an expression; entry points in
-- modules' users; value bindings with size parameters and no existential.
-- ==
-- entry: sum_both
-- input { [1, 2] [10, 20, 30] } output { 63i32 3i64 }
-- input { [1, 2] [10, 20] } error: .

entry sum_both [n] (xs: [n]i32) (ys: [n + 1]i32) : (i32, i64) = (i32.sum xs + i32.sum ys, n + 1)

module m = {
  def twice (x: i32) = x * 2
}

-- ==
-- entry: via_module
-- input { 21 } output { 42 }
entry via_module (x: i32) = m.twice x

def counts [n] : [n]i64 = iota n

-- ==
-- entry: value_size_param
-- input { 4i64 } output { 6i64 }
entry value_size_param (k: i64) = i64.sum (counts : [k]i64)

-- A result size determined by the body through a declared anonymous size.
-- ==
-- entry: anonymous_result
-- input { 3i64 } output { [[0i64, 0i64], [0i64, 0i64], [0i64, 0i64]] }
entry anonymous_result (k: i64) : [][]i64 = replicate k (replicate 2 0)
