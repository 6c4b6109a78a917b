-- Reverse mode through scans of tuples with integer or boolean
-- components (a segmented scan's flags, a counter): only the
-- floating-point components are differentiated, the others steer the
-- operator and have no adjoints.

-- A segmented sum by flags, times the values: with xs = [1, 2, 3, 4, 5]
-- and segments starting at 0 and 2, the sums are [1, 3, 3, 7, 12] and the
-- result is Σ sᵢxᵢ. Its gradient at xⱼ is sⱼ plus the values from j to
-- the end of j's segment: [1 + 3, 3 + 2, 3 + 12, 7 + 9, 12 + 5].
def segmented_weighted [n] (xs: [n]f64) (flags: [n]bool) : f64 =
  let (_, sums) =
    unzip (scan (\(f1, v1) (f2, v2) -> (f1 || f2, if f2 then v2 else v1 + v2)) (false, 0) (zip flags xs))
  in f64.sum (map2 (*) sums xs)

-- ==
-- entry: segmented_vjp
-- input { [1.0, 2.0, 3.0, 4.0, 5.0] [true, false, true, false, false] }
-- output { [4.0, 5.0, 15.0, 16.0, 17.0] }
entry segmented_vjp [n] (xs: [n]f64) (flags: [n]bool) : [n]f64 =
  vjp (\xs -> segmented_weighted xs flags) xs 1

-- A segmented product with a running count of the elements since the
-- segment's start, which then scales each product: checked against
-- finite differences (the i32 count stays fixed).
-- ==
-- entry: counted_products
-- gradcheck input { [1.5, 0.5, -2.0, 1.25, 0.75, 2.0] [true, false, false, true, false, false] }
entry counted_products [n] (xs: [n]f64) (flags: [n]bool) : ([n]f64, [n]i32) =
  let (_, c, p) =
    unzip3 (scan (\(f1, c1, p1) (f2, c2, p2) ->
                    if f2 then (true, c2, p2) else (f1, c1 + c2, p1 * p2))
                 (false, 0, 1)
                 (zip3 flags (replicate n 1) xs))
  in (map2 (\p c -> p * (1 + 0.1 * f64.i32 c)) p c, c)

-- With no floating-point component, a scan of one integer type is
-- differentiated as forward mode differentiates integer arithmetic:
-- prefix products of [1, 2, 3] are [x0, x0x1, x0x1x2], and against ȳ = 1
-- the adjoints are [1 + x1 + x1x2, x0 + x0x2, x0x1] = [9, 4, 2]; forward
-- mode agrees (the columns of the Jacobian summed by the all-ones
-- tangent: [1, x1 + x0, x1x2 + x0x2 + x0x1] = [1, 3, 11]).
-- ==
-- entry: integer_products
-- input { [1, 2, 3] }
-- output { [9, 4, 2] [1, 3, 11] }
entry integer_products [n] (xs: [n]i32) : ([n]i32, [n]i32) =
  (vjp (scan (*) 1) xs (replicate n 1), jvp (scan (*) 1) xs (replicate n 1))

-- Integers of different types (no float): the recurrence runs in the
-- widest (i64) and each adjoint is converted back. With
-- (a₁, b₁) ⊙ (a₂, b₂) = (a₁a₂, b₁·a₂ + b₂), a: i32, b: i64, and the
-- objective Σ bᵢ of the prefixes, b-prefixes are b0 and b0a1 + b1: the
-- objective is b0 + b0·a1 + b1, so ā = [0, b0] and b̄ = [1 + a1, 1]; at
-- a = [2, 3], b = [1, 5]: ā = [0, 1], b̄ = [4, 1].
-- A third element (a2 = -2, b2 = 7) adds b0a1a2 + b1a2 + b2: ā = [0,
-- b0 + b0a2, b0a1 + b1] = [0, -1, 8], b̄ = [1 + a1 + a1a2, 1 + a2, 1] =
-- [-2, -1, 1].
-- ==
-- entry: mixed_integers
-- input { [2, 3] [1i64, 5i64] }
-- output { [0, 1] [4i64, 1i64] }
-- input { [2, 3, -2] [1i64, 5i64, 7i64] }
-- output { [0, -1, 8] [-2i64, -1i64, 1i64] }
entry mixed_integers [n] (as: [n]i32) (bs: [n]i64) : ([n]i32, [n]i64) =
  vjp (\(as, bs) ->
         i64.sum (map (.1) (scan (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * i64.i32 a2 + b2)) (1, 0) (zip as bs))))
      (as, bs) 1

-- Booleans steer a scan of integers: a segmented prefix product of
-- [2, 3, 4, 5] with a segment starting at index 2 is [x0, x0x1, x2,
-- x2x3], summed; the adjoints are [1 + x1, x0, 1 + x3, x2] = [4, 2, 6, 4].
-- ==
-- entry: flagged_integers
-- input { [2i64, 3i64, 4i64, 5i64] [false, false, true, false] }
-- output { [4i64, 2i64, 6i64, 4i64] }
entry flagged_integers [n] (xs: [n]i64) (flags: [n]bool) : [n]i64 =
  vjp (\xs -> i64.sum (map (.1) (scan (\(f1, p1) (f2, p2) -> (f1 || f2, if f2 then p2 else p1 * p2))
                                     (false, 1) (zip flags xs))))
      xs 1
