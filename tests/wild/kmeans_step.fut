-- One k-means step in the style of the Futhark benchmarks: type
-- abbreviations with size parameters, reduce_by_index on f32 and on
-- records, a loop carrying a record of arrays, f32.i64 conversions.
-- ==
-- input { 2i64 [[0f32, 0f32], [1f32, 0f32], [10f32, 10f32], [11f32, 10f32], [0f32, 1f32]] 3 }
-- output { [[0.33333334f32, 0.33333334f32], [10.5f32, 10f32]] [3i32, 2i32] }

type point [d] = [d]f32

def dist [d] (a: point [d]) (b: point [d]) : f32 =
  f32.sum (map2 (\x y -> (x - y) ** 2) a b)

def closest [k] [d] (cs: [k](point [d])) (p: point [d]) : i32 =
  let (_, best) =
    foldl (\(bd, bi) (i, c) ->
             let dd = dist p c
             in if dd < bd then (dd, i32.i64 i) else (bd, bi))
          (f32.inf, -1)
          (zip (indices cs) cs)
  in best

def step [n] [k] [d] (cs: [k](point [d])) (ps: [n](point [d])) : ([k](point [d]), [k]i32) =
  let membership = map (closest cs) ps
  let counts = reduce_by_index (replicate k 0i32) (+) 0 (map i64.i32 membership) (replicate n 1)
  let sums =
    reduce_by_index (replicate k (replicate d 0f32))
                    (map2 (+))
                    (replicate d 0f32)
                    (map i64.i32 membership)
                    ps
  let centres = map2 (\s c -> map (/ f32.i32 (i32.max c 1)) s) sums counts
  in (centres, counts)

def main [n] [d] (k: i64) (ps: [n][d]f32) (iters: i32) =
  let init = {centres = ps[:k], counts = replicate k 0i32}
  let res =
    loop st = init for _i < iters do
      let (cs, cnt) = step st.centres ps
      in st with centres = cs with counts = cnt
  in (res.centres, res.counts)
