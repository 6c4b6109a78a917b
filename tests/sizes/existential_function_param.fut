-- A function parameter whose result has an existential size admits
-- functions whose result size depends on their argument, or is a constant.
-- ==
-- entry: total_lengths
-- input { [3i64, 0i64, 2i64] } output { 5i64 }
def total [n] 'a (f: a -> ?[k].[k]i64) (xs: [n]a) : i64 =
  reduce (+) 0 (map (\x -> length (f x)) xs)

entry total_lengths (ks: []i64) = total iota ks

-- ==
-- entry: pairs
-- input { [1i64, 2i64] } output { 4i64 }
entry pairs (ks: []i64) = total (\(k: i64) -> [k, k]) ks

-- ==
-- entry: tuple_arg
-- input { [1i64, 2i64] } output { 3i64 }
entry tuple_arg (ks: []i64) = total (\(k, _) -> iota k) (zip ks ks)
