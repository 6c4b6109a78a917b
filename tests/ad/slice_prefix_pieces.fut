-- A merge-sort-like loop: each step maps over pieces `take ns (drop o
-- data)` of the loop's array and permutes within them. The simplifier
-- makes each piece one slice of `data`, so the return sweep adds a piece's
-- adjoint at its place (it added a zero array of the rest of `data` per
-- piece: quadratic). Checked against finite differences.
-- ==
-- entry: pieces
-- gradcheck input { [3.0, -1.0, 4.0, 1.0, -5.0, 9.0, 2.0, 6.0, 5.0, 3.0, -5.0, 8.0, 9.0, 7.0, 9.0, 3.0] }
entry pieces [n] (s: [n]f64) : f64 =
  let (d, _) =
    loop (data, stride) = (s, 4) while stride < n do
      let ns = 2 * stride
      let d = flatten (tabulate (n / ns) (\mi ->
                let piece = take ns (drop (mi * ns) data)
                in tabulate ns (\j -> piece[(j + stride) % ns] * 1.5)))
      in (sized n d, ns)
  in f64.sum (map2 (\x i -> x * f64.i64 (i % 7)) d (iota n))
