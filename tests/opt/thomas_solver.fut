-- The Thomas algorithm for a tridiagonal system A x = d (sub-diagonal a,
-- diagonal b, super-diagonal c), whose forward elimination updates its two
-- arrays in one branch or the other of an `if` on the first index. Reverse
-- mode logs those conditional updates (index, old element, whether the
-- iteration made it) instead of saving both arrays whole per iteration:
-- it took O(n²) memory (8 GB at n = 32 000), and copied the arrays in
-- every reverse iteration (crates/ogham-driver/tests/optimised_ir.rs
-- checks that no matrix is built and nothing is copied in a loop).
-- The gradient of Σx with respect to d is A⁻ᵀ 1, and with respect to b
-- it is -(A⁻ᵀ 1)ᵢ xᵢ. With a = [_, 1, 1, 1], b = 4, c = [1, 1, 1, _],
-- d = [1, 2, 3, 4]: x = [34, 73, 92, 186]/209 and A⁻ᵀ 1 = [4, 3, 3, 4]/19
-- (solved exactly with fractions).
-- ==
-- entry: grad_d
-- input { [0.0, 1.0, 1.0, 1.0] [4.0, 4.0, 4.0, 4.0] [1.0, 1.0, 1.0, 0.0] [1.0, 2.0, 3.0, 4.0] }
-- output { [0.21052631578947367, 0.15789473684210525, 0.15789473684210525, 0.21052631578947367] }
-- input { empty([0]f64) empty([0]f64) empty([0]f64) empty([0]f64) } output { empty([0]f64) }

def thomas [n] (a: [n]f64) (b: [n]f64) (c: [n]f64) (d: [n]f64) : [n]f64 =
  let (cp, dp) =
    loop (cp, dp) = (replicate n 0, replicate n 0) for i < n do
      if i == 0 then
        (cp with [0] = c[0] / b[0], dp with [0] = d[0] / b[0])
      else
        let m = b[i] - a[i] * cp[i - 1]
        in (cp with [i] = c[i] / m, dp with [i] = (d[i] - a[i] * dp[i - 1]) / m)
  in loop x = replicate n 0 for j < n do
       let i = n - 1 - j
       in if i == n - 1 then x with [i] = dp[i]
          else x with [i] = dp[i] - cp[i] * x[i + 1]

entry grad_d [n] (a: [n]f64) (b: [n]f64) (c: [n]f64) (d: [n]f64) : [n]f64 =
  vjp (\d -> f64.sum (thomas a b c d)) d 1

-- ==
-- entry: grad_b
-- input { [0.0, 1.0, 1.0, 1.0] [4.0, 4.0, 4.0, 4.0] [1.0, 1.0, 1.0, 0.0] [1.0, 2.0, 3.0, 4.0] }
-- output { [-0.034248300176278015, -0.055149836313271215, -0.06950390329891715, -0.18735834802316798] }
entry grad_b [n] (a: [n]f64) (b: [n]f64) (c: [n]f64) (d: [n]f64) : [n]f64 =
  vjp (\b -> f64.sum (thomas a b c d)) b 1

-- Every coefficient at once, against finite differences.
-- ==
-- entry: weighted
-- gradcheck input { [0.0, 0.3, -0.5, 0.8, 0.2] [3.0, 2.5, 4.0, 3.5, 2.0] [0.7, -0.4, 0.9, 0.1, 0.0] [1.0, -2.0, 0.5, 3.0, 1.5] }
entry weighted [n] (a: [n]f64) (b: [n]f64) (c: [n]f64) (d: [n]f64) : f64 =
  f64.sum (map2 (*) (thomas a b c d) (map (f64.i64 >-> (+ 1)) (iota n)))
