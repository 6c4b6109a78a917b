-- A value with a size parameter is computed anew at each use, so the
-- existential size of its `filter` could not be one size.
-- ==
-- error: size-polymorphic-value.*size-polymorphic value binding

def evens [n] : ([n]i64, []i64) = (iota n, filter (\x -> x % 2 == 0) (iota n))

entry main (k: i64) = length (evens : ([k]i64, []i64)).1
