-- Solving a linear system by Gauss-Jordan elimination without pivoting.
-- ==
-- input { [[2.0, 1.0], [1.0, 3.0]] [3.0, 5.0] } output { [0.8, 1.4] }
def solve [n] (a: [n][n]f64) (b: [n]f64) : [n]f64 =
  let ab = map2 (\row x -> row ++ [x] :> [n + 1]f64) a b
  let ab =
    loop ab for k < n do
      let pivot = ab[k, k]
      let prow = map (/ pivot) ab[k]
      in map2 (\i row ->
                 if i == k then prow
                 else let f = row[k] in map2 (\x p -> x - f * p) row prow)
              (iota n) ab
  in map (\row -> row[n]) ab
def main [n] (a: [n][n]f64) (b: [n]f64) = solve a b
