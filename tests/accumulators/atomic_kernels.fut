-- Accumulators much larger than the work (`hist_stream` into k buckets
-- from n < k/2 updates): the multicore backend's tasks update the
-- destinations themselves, atomically, in one kernel per loop (one
-- fetch-and-add for i32 +, fetch-and-xor for u32; compare-and-swap loops
-- for f32 max, i64 min and f64 +). Reduced to checksums; the f64 values
-- are small integers, so every order of addition gives the same sums.
-- Expected values from a Python loop over the updates.
-- ==
-- input { 30000i64 100000i64 } output { 2999170000i64 22499661695000i64 14915000i64 83949535000i64 -530000.0f64 0i32 }
-- input { 200000i64 65537i64 } output { 13107310183i64 470529134815528i64 51368712i64 28384726516i64 -51276.0f64 8i32 }
-- input { 100000i64 99991i64 } output { 9998812800i64 249964539711202i64 49949964i64 48548232129i64 302260.0f64 2i32 }
-- input { 7i64 5i64 } output { 24i64 44i64 20i64 310i64 -12.0f64 2i32 }
-- input { 0i64 4i64 } output { 0i64 0i64 -4i64 4000000i64 0.0f64 0i32 }
def upd 't [k] (op: t -> t -> t) (ne: t) (dest: *[k]t) (f: i64 -> t) (n: i64) : [k]t =
  intrinsics.hist_stream dest op ne
    (\(a: *intrinsics.acc ([k]t)) (i: i64) -> intrinsics.acc_write a ((i * 7919) % k) (f i))
    (iota n)

entry main (n: i64) (k: i64) : (i64, i64, i64, i64, f64, i32) =
  let a = upd (+) 0i32 (replicate k 0) (\i -> i32.i64 (i % 5)) n
  let x = upd (^) 0u32 (replicate k 0) (\i -> u32.i64 i) n
  let m = upd f32.max f32.lowest (replicate k (-1)) (\i -> f32.i64 (i % 1000)) n
  let l = upd i64.min i64.highest (replicate k 1000000) (\i -> (i * 31) % 1000003) n
  let s = upd (+) 0f64 (replicate k 0) (\i -> f64.i64 (i % 9) - 4) n
  in ( i64.sum (map2 (\j v -> j * i64.i32 v) (iota k) a)
     , i64.sum (map2 (\j v -> j * i64.u32 v) (iota k) x)
     , i64.sum (map i64.f32 m)
     , i64.sum l
     , f64.sum (map2 (\j v -> f64.i64 j * v) (iota k) s)
     , a[3] )
