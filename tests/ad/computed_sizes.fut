-- Derivatives of functions whose result size is known only when they
-- return: a concatenation of unknown sizes, a `filter`, and a size
-- computed from integer data. Forward and reverse mode, scalar and
-- vector forms; each function is called from several entry points, so
-- that it stays a function until differentiated. Expected values by
-- hand.

-- xs ++ [x²]: at [1, 2, 3] it is [1, 2, 3, 1, 4, 9]; its Jacobian stacks
-- the identity on diag(2x) = diag(2, 4, 6).
def with_squares (xs: []f64) = xs ++ map (\x -> x * x) xs

-- Direction e₁: [0, 1, 0, 0, 4, 0].
-- ==
-- entry: squares_jvp
-- input { [1.0, 2.0, 3.0] [0.0, 1.0, 0.0] }
-- output { [0.0, 1.0, 0.0, 0.0, 4.0, 0.0] }
entry squares_jvp [n] (xs: [n]f64) (d: [n]f64) = jvp with_squares xs d

-- Directions e₀ and e₂ at once: the first and third columns.
-- ==
-- entry: squares_jmp
-- input { [1.0, 2.0, 3.0] }
-- output { [[1.0, 2.0, 3.0, 1.0, 4.0, 9.0], [1.0, 2.0, 3.0, 1.0, 4.0, 9.0]]
--          [[1.0, 0.0, 0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 6.0]] }
entry squares_jmp [n] (xs: [n]f64) =
  let (y, ds) = jmp2 with_squares xs [tabulate n (\i -> f64.bool (i == 0)), tabulate n (\i -> f64.bool (i == 2))]
  in ([y, y], ds)

-- x̄ = ȳ[0:3] + 2x·ȳ[3:6]: all ones give [3, 5, 7]; [0.5, 0, -1, 2, 1, 0]
-- gives [0.5 + 4, 0 + 4, -1 + 0].
-- ==
-- entry: squares_vjp
-- input { [1.0, 2.0, 3.0] [1.0, 1.0, 1.0, 1.0, 1.0, 1.0] }
-- output { [3.0, 5.0, 7.0] }
-- input { [1.0, 2.0, 3.0] [0.5, 0.0, -1.0, 2.0, 1.0, 0.0] }
-- output { [4.5, 4.0, -1.0] }
entry squares_vjp [n] (xs: [n]f64) (ys: []f64) = vjp with_squares xs (ys :> [n + n]f64)

-- Both cotangents of squares_vjp at once.
-- ==
-- entry: squares_mjp
-- input { [1.0, 2.0, 3.0] }
-- output { [[3.0, 5.0, 7.0], [4.5, 4.0, -1.0]] }
entry squares_mjp [n] (xs: [n]f64) =
  mjp with_squares xs [replicate (n + n) 1, [0.5, 0, -1, 2, 1, 0] :> [n + n]f64]

-- The squares of the positive elements: at [1, -2, 3], [1, 9]. Direction
-- all ones: [2, 6]. (No cotangent can be given for it: its size is no
-- name the caller has.)
def positive_squares (xs: []f64) = map (\x -> x * x) (filter (> 0) xs)

-- ==
-- entry: positive_jvp
-- input { [1.0, -2.0, 3.0] }
-- output { [2.0, 6.0] }
entry positive_jvp [n] (xs: [n]f64) = jvp positive_squares xs (replicate n 1)

-- Σ ks cubes, the j-th of xs[j mod n]: with ks = [1, 2] and xs = [2, 3],
-- [8, 27, 8]. Direction e₀: 3·2² = 12 where x₀ is cubed: [12, 0, 12];
-- cotangent of ones: [12 + 12, 27].
def cubes [n] (ks: [n]i64) (xs: [n]f64) =
  tabulate (i64.sum ks) (\j -> let x = xs[j % n] in x * x * x)

-- ==
-- entry: cubes_jvp
-- input { [1i64, 2i64] [2.0, 3.0] }
-- output { [12.0, 0.0, 12.0] }
entry cubes_jvp [n] (ks: [n]i64) (xs: [n]f64) = jvp (cubes ks) xs (tabulate n (\i -> f64.bool (i == 0)))

-- ==
-- entry: cubes_vjp
-- input { [1i64, 2i64] [2.0, 3.0] }
-- output { [24.0, 27.0] }
entry cubes_vjp [n] (ks: [n]i64) (xs: [n]f64) = vjp (cubes ks) xs (replicate (i64.sum ks) 1)

-- The same functions as entry points, checked by the harness against
-- finite differences and the dot-product identity (not positive_squares:
-- the harness's vjp entry cannot name its result's size for the
-- cotangent).
-- ==
-- entry: squares_value
-- gradcheck input { [1.0, 2.0, 3.0] }
-- gradcheck input { [-0.5, 0.25] }
entry squares_value (xs: []f64) = with_squares xs

-- ==
-- entry: cubes_value
-- gradcheck input { [1i64, 2i64, 0i64] [2.0, 3.0, -1.5] }
entry cubes_value [n] (ks: [n]i64) (xs: [n]f64) = cubes ks xs

-- A function of known result size that calls one whose size is known
-- only when it returns (`drop`, of size n - 1): differentiating the outer
-- function differentiates the inner call's statements in place. exp 0 =
-- 1, so the adjoint of xs[1 + j] is ȳ[j] and the ends get zero.
def middle3 [n] (xs: [n]f64) : [3]f64 = map f64.exp (take 3 (drop 1 xs))

-- ==
-- entry: middle_vjp
-- input { [0.0, 0.0, 0.0, 0.0, 0.0] [1.0, 2.0, 3.0] }
-- output { [0.0, 1.0, 2.0, 3.0, 0.0] }
-- gradcheck input { [0.5, -1.0, 0.25, 2.0] [1.0, 2.0, 3.0] }
entry middle_vjp [n] (xs: [n]f64) (ys: [3]f64) : [n]f64 = vjp middle3 xs ys

-- ==
-- entry: middle_jvp
-- input { [0.0, 0.0, 0.0, 0.0, 0.0] [1.0, 2.0, 3.0, 4.0, 5.0] }
-- output { [2.0, 3.0, 4.0] }
entry middle_jvp [n] (xs: [n]f64) (d: [n]f64) : [3]f64 = jvp middle3 xs d

-- A result declared `[]f64` whose size the compiler knows (a constant
-- after simplification): `gradcheck` gives its cotangent sizes of its
-- own all the same (it took the size for a known one, and the `vjp`
-- entry it generates failed the causality check). x³ three times.
-- ==
-- entry: known_existential
-- input { 0.5 } output { [0.125, 0.125, 0.125] }
-- gradcheck input { 0.5 }
entry known_existential (x: f64) : []f64 =
  let n = 3 in loop xs = replicate n x for _i < 2 do map (* x) xs
