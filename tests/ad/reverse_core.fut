-- Reverse mode (vjp) on scalar code, branches and loops. The expected
-- values are the seed's (notes §10.4, §10.5) or derivatives worked out by
-- hand; each equals the corresponding row of the Jacobian that the forward
-- tests compute column by column.

-- Figure 3.1 at (1, 2): the adjoint for ȳ = (1, 0) is the first row of the
-- Jacobian, for (0, 1) the second.
-- ==
-- entry: fig3_1
-- gradcheck input { 1.0 2.0 1.0 0.0 } output { 2.899199465387643 1.5495444030814678 }
-- gradcheck input { 1.0 2.0 0.0 1.0 } output { -1.7968909821522119 -0.6996229739916471 }
def P (x0: f64, x1: f64) =
  let v0 = f64.sin x0
  let v1 = x1 * v0
  let v2 = v0 * v1
  in (v1 + v2, f64.cos v2)
entry fig3_1 (x0: f64) (x1: f64) (d0: f64) (d1: f64) : (f64, f64) = vjp P (x0, x1) (d0, d1)

-- A branch: f (b, x, y) = if b then x·y else x/y. At (true, 5, 7) the
-- adjoints are (false, 7, 5); at (false, 5, 7) they are 1/7 and -5/49.
-- ==
-- entry: branch
-- gradcheck input { true 5.0 7.0 } output { false 7.0 5.0 }
-- gradcheck input { false 5.0 7.0 } output { false 0.14285714285714285 -0.10204081632653061 }
entry branch (b: bool) (x: f64) (y: f64) : (bool, f64, f64) =
  vjp (\(b, x, y) -> if b then x * y else x / y) (b, x, y) 1

-- The power loop: the adjoint of x is y·x^(y-1), 48 at (3, 4), 59049 at (9, 3).
-- ==
-- entry: pow
-- gradcheck input { 3i64 4.0 } output { 48.0 }
-- gradcheck input { 9i64 3.0 } output { 59049.0 }
-- gradcheck input { 0i64 3.0 } output { 0.0 }
entry pow (y: i64) (x: f64) : f64 = vjp (\x -> loop acc = 1 for _i < y do acc * x) x 1

-- A map in a loop: the Jacobian is diag(3, 12, 27) for y = 3, xs = [1,2,3].
-- ==
-- entry: map_in_loop
-- gradcheck input { 3i64 [1.0, 2.0, 3.0] [0.0, 1.0, 0.0] } output { [0.0, 12.0, 0.0] }
-- gradcheck input { 3i64 [1.0, 2.0, 3.0] [1.0, 1.0, 1.0] } output { [3.0, 12.0, 27.0] }
entry map_in_loop [n] (y: i64) (xs: [n]f64) (ys: [n]f64) : [n]f64 =
  vjp (\xs -> loop accs = replicate n 1 for _i < y do map2 (*) accs xs) xs ys

-- A loop that reads a free variable: acc ← acc·x + c, three times from
-- 0, is c·(x² + x + 1); its adjoints are c·(2x + 1) for x and x² + x + 1
-- for c: 5·(2·2+1) = 25 and 7 at (x, c) = (2, 5).
-- ==
-- entry: free_in_loop
-- gradcheck input { 2.0 5.0 } output { 25.0 7.0 }
entry free_in_loop (x: f64) (c: f64) : (f64, f64) =
  vjp (\(x, c) -> loop acc = 0 for _i < 3 do acc * x + c) (x, c) 1

-- A while loop: the power loop again, 48 at (3, 4) and 59049 at (9, 3);
-- the loop first counts its iterations, then runs checkpointed.
-- ==
-- entry: pow_while
-- gradcheck input { 3i64 4.0 } output { 48.0 }
-- gradcheck input { 9i64 3.0 } output { 59049.0 }
-- gradcheck input { 0i64 3.0 } output { 0.0 }
entry pow_while (y: i64) (x: f64) : f64 =
  vjp (\x -> (loop (acc, i) = (1, 0) while i < y do (acc * x, i + 1)).0) x 1

-- Two loops reading the same matrix A, the first also starting from it:
-- 1ᵀA³1 by two products in a loop, plus 1ᵀA²1 by two matrix-vector
-- products. The adjoint of A is (A²)ᵀ11ᵀ + Aᵀ11ᵀAᵀ + 11ᵀ(A²)ᵀ + 11ᵀAᵀ +
-- Aᵀ11ᵀ (worked out in NumPy from this closed form, and by central
-- differences). The first loop's adjoint of A as a free variable and as
-- its initial value are both kept (the second used to replace the first).
-- ==
-- entry: loops_sharing_a_matrix
-- gradcheck input { [[1.0, 2.0], [0.5, 0.3]] 2i64 } output { 17.242 }
-- ==
-- entry: loops_sharing_a_matrix_adjoint
-- input { [[1.0, 2.0], [0.5, 0.3]] 2i64 } output { [[16.25, 7.89], [20.49, 10.37]] }
entry loops_sharing_a_matrix [n] (a: [n][n]f64) (k: i64) : f64 =
  let p = loop p = a for _ < k do map (\r -> map (\c -> f64.sum (map2 (*) r c)) (transpose a)) p
  let v = loop v = replicate n 1.0 for _ < k do map (\r -> f64.sum (map2 (*) r v)) a
  in f64.sum (map f64.sum p) + f64.sum v

entry loops_sharing_a_matrix_adjoint [n] (a: [n][n]f64) (k: i64) : [n][n]f64 =
  vjp (\a -> loops_sharing_a_matrix a k) a 1

-- Integers are differentiated with Futhark's rules: `iota n` gives its
-- length the sum of its result's adjoint (and its start and step
-- nothing), so `i64.sum (iota n)` has the adjoint n (each element's
-- adjoint is 1) and `i64.sum (map (* 2) (iota n))` has 2n.
-- ==
-- entry: iota_length
-- input { 5i64 1i64 } output { 5i64 }
-- input { 4i64 2i64 } output { 8i64 }
-- input { 0i64 2i64 } output { 0i64 }
entry iota_length (n: i64) (k: i64) : i64 = vjp (\n -> i64.sum (map (* k) (iota n))) n 1
