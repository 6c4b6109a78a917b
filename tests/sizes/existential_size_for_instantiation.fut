-- A size parameter that only the context determines (`rep`), where the
-- context is an existential size known only at run time (the length of a
-- `filter` result bound earlier).
-- ==
-- input { [1i64, 2i64, 3i64] } output { [false, false, true] 2i64 }
-- input { [5i64, 0i64, 1i64, 2i64] } output { [false, false, true, false] 2i64 }

entry main [n] (xs: [n]i64) : ([n]bool, i64) =
  let set = rep false
  let rs = filter (> 1) xs
  let marks = rep true
  in (scatter set rs marks, length marks)
