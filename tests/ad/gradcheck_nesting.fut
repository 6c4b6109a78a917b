-- Programs written as a user would, without looking at how ogham
-- differentiates them, checked against mathematics by the harness
-- (`gradcheck`: jvp against central finite differences, and vjp against
-- jvp by the dot-product identity, on every backend). Records, gradient
-- steps inside the differentiated function, loops over rows, local
-- arrays, higher-order functions, functors, while loops over arrays,
-- views chosen by branches, nested vjp.

type params = {w: [3]f64, b: f64, scale: (f64, f64)}

def model (p: params) (x: [3]f64) : f64 =
  let z = f64.sum (map2 (*) p.w x) + p.b
  in p.scale.0 * f64.tanh z + p.scale.1 * z * z

-- ==
-- entry: record_grad
-- input { [1.0, 2.0, -1.0] 0.5 2.0 0.25 [[0.1, 0.2, 0.3], [-0.5, 0.4, 0.0]] }
-- output { [-0.597107249735752, 0.9311399701787784, 0.48584375398947505] 3.1375895154294042 1.2684045473850127 1.13 }
entry record_grad (w: [3]f64) (b: f64) (s0: f64) (s1: f64) (xs: [][3]f64) =
  let p = {w, b, scale = (s0, s1)}
  let g = vjp (\p -> f64.sum (map (model p) xs)) p 1
  in (g.w, g.b, g.scale.0, g.scale.1)

-- ==
-- entry: meta
-- gradcheck input { 0.3 [1.0, -0.5, 0.25] }
entry meta [n] (lr: f64) (x0: [n]f64) : f64 =
  let loss x = f64.sum (map (\a -> (a - 1) * (a - 1) * (a + 2) * (a + 2) / 10) x)
  let x = loop x = x0 for _i < 5 do map2 (\a g -> a - lr * g) x (vjp loss x 1)
  in loss x

-- ==
-- entry: rows_loop
-- gradcheck input { [[1.0, 2.0], [0.5, -1.0], [3.0, 0.25]] }
entry rows_loop [n][m] (a: [n][m]f64) : [n][m]f64 =
  loop a = copy a for i < n do
    let prev = if i == 0 then a[n-1] else a[i-1]
    in a with [i] = map2 (\x y -> x * f64.cos y + y) a[i] prev

-- ==
-- entry: local_arrays
-- gradcheck input { [[1.0, 2.0, 0.5], [0.5, -1.0, 2.0]] }
entry local_arrays [n][m] (a: [n][m]f64) : [n]f64 =
  map (\r -> let buf = replicate m 0
             let buf = loop buf for j < m do buf with [j] = (if j == 0 then r[j] else buf[j-1] * r[j] + 1)
             in f64.sum buf) a

-- ==
-- entry: stencil
-- gradcheck input { [1.0, 2.0, 0.5, -1.0, 3.0] }
entry stencil [n] (xs: [n]f64) : [n]f64 =
  let step xs = tabulate n (\i -> let l = if i == 0 then xs[i] else xs[i-1]
                                   let r = if i == n - 1 then xs[i] else xs[i+1]
                                   in 0.25 * l + 0.5 * xs[i] + 0.25 * r + 0.01 * xs[i] * xs[i])
  in loop xs for _k < 4 do step xs

-- ==
-- entry: scan_max
-- gradcheck input { [0.5, 2.0, -1.5, 1.0, 3.0] }
entry scan_max [n] (xs: [n]f64) : [n]f64 =
  scan f64.max f64.lowest (map (\x -> x * x - x) xs)

-- ==
-- entry: min_pair
-- gradcheck input { [0.5, 2.0, -1.5, 1.0, 3.0] [1.0, 0.2, 0.7, 1.5, 0.1] }
entry min_pair [n] (xs: [n]f64) (ys: [n]f64) : (f64, f64) =
  reduce (\(a, b) (c, d) -> if a < c then (a, b) else (c, d)) (f64.inf, 0) (zip (map (\x -> x * f64.sin x) xs) ys)

def apply_n 'a (n: i64) (f: a -> a) (x: a) : a = loop x for _i < n do f x

-- ==
-- entry: higher_order
-- gradcheck input { [0.5, 1.0] 1.5 }
entry higher_order [n] (xs: [n]f64) (c: f64) : [n]f64 =
  apply_n 3 (map (\x -> f64.sin (c * x) + x)) xs

module type field = { type t val mul: t -> t -> t val add: t -> t -> t val from: f64 -> t }
module poly (F: field) = { def horner (cs: []F.t) (x: F.t) = foldl (\acc c -> F.add (F.mul acc x) c) (F.from 0) cs }
module pf = poly { type t = f64 def mul = (f64.*) def add = (f64.+) def from (x: f64) = x }

-- ==
-- entry: functor_poly
-- gradcheck input { [1.0, -2.0, 0.5, 3.0] 0.7 }
entry functor_poly (cs: []f64) (x: f64) : f64 = pf.horner cs x

-- ==
-- entry: vec_forms
-- input { [1.0, 2.0] }
-- output { [[2.0, 0.0], [0.0, 4.0]] [[2.0, 0.0], [0.0, 4.0]] [4.0, 0.0] }
entry vec_forms (x: [2]f64) =
  let f (v: [2]f64) = map (\a -> a * a) v
  let dirs = [[1.0, 0.0], [0.0, 1.0]]
  let fwd = jmp f x dirs
  let rev = mjp f x dirs
  let (_, d) = vjp2 f x [1.0, 0.0]
  in (fwd, rev, map (* 2) d)

-- ==
-- entry: for_in
-- gradcheck input { [0.5, 1.5, -0.25] 2.0 }
entry for_in [n] (xs: [n]f64) (a: f64) : f64 =
  loop acc = a for x in xs do acc * x + f64.exp (x * acc / 4)

-- ==
-- entry: stripmined
-- gradcheck input { 1.01 300i64 }
entry stripmined (x: f64) (n: i64) : f64 =
  #[stripmine(3)] loop y = x for _i < n do f64.sqrt (y * y + 0.001) * 0.999

-- ==
-- entry: asserted
-- gradcheck input { [0.5, 1.5, 2.25] }
entry asserted [n] (xs: [n]f64) : f64 =
  f64.sum (map (\x -> assert (x > 0) (f64.log x * x)) xs)

-- ==
-- entry: while_arrays
-- gradcheck input { [1.0, 2.0, 0.5] }
entry while_arrays [n] (xs: [n]f64) : [n]f64 =
  let (ys, _) = loop (ys, k) = (copy xs, 0) while k < 5 && f64.sum ys < 100 do (map (\y -> y * 1.5 + f64.sin y) ys, k + 1)
  in ys

-- ==
-- entry: if_views
-- gradcheck input { [[1.0, 2.0], [0.5, -1.0], [3.0, 0.25]] true }
entry if_views [n][m] (a: [n][m]f64) (flip: bool) : [n][m]f64 =
  let b = if flip then transpose (transpose a) else a
  let c = if flip then b[::-1] :> [n][m]f64 else b
  in map2 (\r s -> map2 (*) r s) c a

-- ==
-- entry: loop_if_loop
-- gradcheck input { [1.0, 2.0, 0.5, 1.5] }
entry loop_if_loop [n] (xs: [n]f64) : [n]f64 =
  loop ys = copy xs for i < 3 do
    if i % 2 == 0
    then loop zs = ys for j < n do zs with [j] = zs[j] * zs[(j + 1) % n] * 0.5 + 0.1
    else map f64.cos ys

-- ==
-- entry: update_in_map
-- gradcheck input { [[1.0, 2.0, 0.5], [0.5, -1.0, 2.0]] }
entry update_in_map [n][m] (a: [n][m]f64) : [n][m]f64 =
  map (\r -> let r = copy r
             let r[0] = r[1] * r[2]
             let r[2] = r[0] + r[1] * 3
             in r) a

-- ==
-- entry: rec_of_arrays
-- gradcheck input { [1.0, 2.0] [[0.5, 1.0], [2.0, -1.0]] }
entry rec_of_arrays [n] (v: [n]f64) (m: [n][n]f64) : f64 =
  let p = {v, m, s = 2.0}
  let g = vjp (\(q: {v: [n]f64, m: [n][n]f64, s: f64}) -> q.s * f64.sum (map2 (\r x -> f64.sum (map2 (*) r q.v) * x) q.m q.v)) p 1
  in f64.sum g.v + f64.sum (flatten g.m) * g.s

-- ==
-- entry: vjp_of_vjp
-- gradcheck input { [0.5, 1.5] }
entry vjp_of_vjp [n] (xs: [n]f64) : [n]f64 =
  vjp (\x -> f64.sum (vjp (\y -> f64.sum (map (\a -> a * a * a) y) * f64.sum y) x 1)) xs 1

-- ==
-- entry: iota_weights
-- gradcheck input { [1.0, 2.0, 0.5, 1.5] }
entry iota_weights [n] (xs: [n]f64) : f64 =
  let w = map (\i -> f64.i64 i / f64.i64 n) (iota n)
  in f64.sum (map2 (\a b -> a ** b) (map (+ 1) xs) w) + f64.i64 (length xs)

-- ==
-- entry: replicate_expand
-- gradcheck input { [1.0, 2.0] 3i64 }
entry replicate_expand [n] (xs: [n]f64) (k: i64) : [k][n]f64 =
  let r = replicate k xs
  in map2 (\row i -> map (\x -> x * f64.i64 (i + 1) + x * x) row) r (iota k)

-- ==
-- entry: concat_split
-- gradcheck input { [1.0, 2.0, 0.5] [1.5, -1.0] }
entry concat_split [n][m] (xs: [n]f64) (ys: [m]f64) : ([n]f64, [m]f64) =
  let zs = map f64.exp (xs ++ ys)
  let (a, b) = split (zs :> [n + m]f64)
  in (map2 (*) a xs, b)

-- Found by random programs: second derivatives through what forward mode
-- makes of `scan (+)` (a scan adding a pair, the value and its tangent),
-- and through a scatter whose result starts a loop. r ↦ jvp (scan (+)) r r
-- is r ↦ scan (+) r, whose vjp with ones is the sums from the end.
-- ==
-- entry: vjp_of_jvp_scan
-- input { [1.0, 2.0, 0.5] } output { [3.0, 2.0, 1.0] }
entry vjp_of_jvp_scan [m] (r: [m]f64) : [m]f64 = vjp (\r -> jvp (scan (+) 0) r r) r (replicate m 1)

-- ==
-- entry: jvp_scan
-- gradcheck input { [1.0, 2.0, 0.5] }
entry jvp_scan [m] (r: [m]f64) : [m]f64 = jvp (scan (+) 0) r (map (* r[0]) r)

-- g z = Σ z⁴ (the scatter and the loop of one squaring make z², then z⁴):
-- its Hessian is diagonal, 12z², so its product with w = [1, 2, 3] is
-- 12z²w.
-- ==
-- entry: hessian_through_scatter
-- input { [0.434, 0.824, -0.395] } output { [2.260272, 16.295424, 5.6169] }
def quartic [n] (z: [n]f64) : f64 =
  let v1 = scatter (copy z) (iota n) z
  let v3 = loop acc = v1 for _i < 1 do map (\p -> p * p) acc
  in f64.sum (map (\p -> p * p) v3)

entry hessian_through_scatter [n] (z: [n]f64) : [n]f64 =
  vjp (\z -> vjp quartic z 1) z (map (\i -> f64.i64 i + 1) (iota n))

-- Third order through named functions, with a reverse derivative, a
-- forward derivative of it and both derivatives of that in one program:
-- the forward derivative of `cube_grad` made inside a `vjp` (for `hvp_rev`)
-- keeps whole-array adjoints, a function apart from the one `hvp_fwd`
-- uses (once an internal error: a call of a function never made). By
-- hand, with f(w) = Σ_r (r·w)³ over the rows r of [[1, 2], [3, 4]]:
-- ∇f = Σ 3(r·w)² r, its derivative along v is Σ 6(r·w)(r·v) r, and that
-- is linear in w, with derivative Σ 6(r·v)(r·ȳ) r; at v = (0.5, 0.25) and
-- ȳ = ẇ = (1, 1), [333, 456]. The first component of ∇f at (1, 2) has
-- gradient Σ 6(r·w) r₀ r = [624, 852].
-- ==
-- entry: cube_first
-- input { [1.0, 2.0] [0.5, 0.25] [1.0, 1.0] } output { [624.0, 852.0] }
-- entry: hvp_fwd hvp_rev
-- input { [1.0, 2.0] [0.5, 0.25] [1.0, 1.0] } output { [333.0, 456.0] }
def cube_sum (w: [2]f64) : f64 =
  f64.sum (map (\r -> let z = f64.sum (map2 (*) r w) in z * z * z) [[1.0, 2.0], [3.0, 4.0]])
def cube_grad (x: [2]f64) : [2]f64 = vjp cube_sum x 1
def cube_hvp (x: [2]f64) (v: [2]f64) : [2]f64 = jvp cube_grad x v
entry cube_first (w: [2]f64) (_: [2]f64) (_: [2]f64) : [2]f64 = vjp (\y -> (cube_grad y)[0]) w 1
entry hvp_fwd (x: [2]f64) (v: [2]f64) (dx: [2]f64) : [2]f64 = jvp (\x -> cube_hvp x v) x dx
entry hvp_rev (x: [2]f64) (v: [2]f64) (yb: [2]f64) : [2]f64 = vjp (\x -> cube_hvp x v) x yb
